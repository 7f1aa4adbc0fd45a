// collision_driver.c: collision detection (mj_collision): the broad phase (sweep and prune
// of the geom centers, with MuJoCo's pairs of its principal axis), the pair filters, the
// explicit <pair>s, the dispatch to the narrow phase by geom types and the mixing of the
// contact parameters.
//
// Contacts come out in MuJoCo's order: by body pair (signature body1 << 16 | body2, body1 <
// body2, ascending); within a body pair first the explicit pairs in model order, then the
// geom pairs of the two bodies in ascending geom order.
#include "engine/collision.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "engine/smooth.h"
#include "util/util.h"

// ---- the dispatch table -----------------------------------------------------------------------

#define PL mjGEOM_PLANE
#define SP mjGEOM_SPHERE
#define CA mjGEOM_CAPSULE
#define EL mjGEOM_ELLIPSOID
#define CY mjGEOM_CYLINDER
#define BX mjGEOM_BOX
#define ME mjGEOM_MESH

// analytic where MuJoCo is analytic, libccd for the other convex pairs, height fields by their
// prisms (collision_hfield.c), meshes as their convex hulls (collision_mesh.c); SDFs have
// no function yet
const mjfCollision mj_collisionFunc[mjNGEOMTYPES][mjNGEOMTYPES] = {
  [PL] = {[SP] = mjc_PlaneSphere, [CA] = mjc_PlaneCapsule, [EL] = mjc_PlaneEllipsoid,
          [CY] = mjc_PlaneCylinder, [BX] = mjc_PlaneBox, [ME] = mjc_PlaneMesh},
  [mjGEOM_HFIELD] = {[SP] = mjc_ConvexHField, [CA] = mjc_ConvexHField, [EL] = mjc_ConvexHField,
                     [CY] = mjc_ConvexHField, [BX] = mjc_ConvexHField, [ME] = mjc_ConvexHField},
  [SP] = {[SP] = mjc_SphereSphere, [CA] = mjc_SphereCapsule, [EL] = mjc_Convex,
          [CY] = mjc_SphereCylinder, [BX] = mjc_SphereBox, [ME] = mjc_Convex},
  [CA] = {[CA] = mjc_CapsuleCapsule, [EL] = mjc_Convex, [CY] = mjc_Convex,
          [BX] = mjc_CapsuleBox, [ME] = mjc_Convex},
  [EL] = {[EL] = mjc_Convex, [CY] = mjc_Convex, [BX] = mjc_Convex, [ME] = mjc_Convex},
  [CY] = {[CY] = mjc_Convex, [BX] = mjc_Convex, [ME] = mjc_Convex},
  [BX] = {[BX] = mjc_BoxBox, [ME] = mjc_Convex},
  [ME] = {[ME] = mjc_Convex},
};

#undef PL
#undef SP
#undef CA
#undef EL
#undef CY
#undef BX
#undef ME

// ---- contact frames ---------------------------------------------------------------------------

// tangent1 = e - (e'n) n normalized, e the y axis unless |n_y| >= 0.5, then the z axis;
// tangent2 = n x tangent1
void mju_makeFrame(mjtNum frame[9]) {
  const mjtNum* n = frame;
  mjtNum* t1 = frame + 3;
  if (n[1] < 0.5 && n[1] > -0.5) {
    t1[0] = -n[1] * n[0];
    t1[1] = 1 - n[1] * n[1];
    t1[2] = -n[1] * n[2];
  } else {
    t1[0] = -n[2] * n[0];
    t1[1] = -n[2] * n[1];
    t1[2] = 1 - n[2] * n[2];
  }
  mju_normalize3(t1);
  mju_cross(frame + 6, n, t1);
}

// ---- candidates -------------------------------------------------------------------------------

// one candidate of the narrow phase, sorted by (sig, kind, k1, k2): an explicit pair (kind 0,
// a = pair id = k1) or a geom pair (kind 1, a < b the geoms; k1, k2 the same, but for a body
// pair of the midphase, whose contacts MuJoCo sorts by their geoms in the narrow phase's order:
// the lower geom type first, ties the lower id)
typedef struct {
  int sig, kind, a, b, k1, k2;
} Candidate;

// ascending (sig, kind, k1, k2)
static int compareCandidates(const void* x, const void* y) {
  const Candidate* p = x;
  const Candidate* q = y;
  if (p->sig != q->sig) return p->sig < q->sig ? -1 : 1;
  if (p->kind != q->kind) return p->kind < q->kind ? -1 : 1;
  if (p->k1 != q->k1) return p->k1 < q->k1 ? -1 : 1;
  return p->k2 < q->k2 ? -1 : p->k2 > q->k2;
}

// body pair signature: min << 16 | max
static int signature(int b1, int b2) { return b1 < b2 ? (b1 << 16) | b2 : (b2 << 16) | b1; }

// the detection distance of a geom in the broad phase: half of an overriding margin, else its
// margin and gap (since MuJoCo 3.9 contacts are detected within margin + gap)
static mjtNum geomMargin(const mjModel* m, int g) {
  return (m->opt.enableflags & mjENBL_OVERRIDE) ? 0.5 * m->opt.o_margin
                                                : m->geom_margin[g] + m->geom_gap[g];
}

// 1 when the bounding spheres (inflated by the margin) of g1 and g2 overlap, and when slack
// is not NULL, *slack their r - dist (r = r1 + r2 + margin); planes (rbound 0) are unbounded
// (slack +inf)
static int spheresOverlap(const mjModel* m, const mjData* d, int g1, int g2, mjtNum margin,
                          mjtNum* slack) {
  mjtNum r1 = m->geom_rbound[g1], r2 = m->geom_rbound[g2];
  if (r1 <= 0 || r2 <= 0) {
    if (slack) *slack = INFINITY;
    return 1;
  }
  mjtNum r = r1 + r2 + margin;
  mjtNum dist = mju_dist3(d->geom_xpos + 3 * g1, d->geom_xpos + 3 * g2);
  if (slack) *slack = r - dist;
  return dist <= r;
}

// ---- the midphase ---------------------------------------------------------------------------

// MuJoCo's midphase (unless mjDSBL_MIDPHASE) for body pairs of which one body has more than one
// geom: each body's collidable geoms form the compiled bounding volume hierarchy of boxes in the
// body's inertial frame (body_bvhadr, bvh_child, bvh_aabb; see compile.c); a geom pair reaches
// the narrow phase only when every node pair on its path from the roots overlaps (boxesOverlap
// in the inertial frames, margin the two body margins) and so do the two geoms' own boxes (in
// the geom frames, margin the pair's).  The path descends the internal node with the larger
// (half - center) "surface", ties the second body's.  Exact touches fall either way by
// round-off, as in MuJoCo.

// the bvh entry of geom g's leaf in its body's hierarchy (-1: none): a body has few geoms
static int geomLeaf(const mjModel* m, int g) {
  int b = m->geom_bodyid[g], adr = m->body_bvhadr[b];
  for (int i = adr; i >= 0 && i < adr + m->body_bvhnum[b]; i++)
    if (m->bvh_nodeid[i] == g) return i;
  return -1;
}

// 1 when box a1 (center, half sizes in the frame p1, r1) and box a2 overlap with margin on the
// six face normals: the centers' projections differ by at most the radii plus the margin.
// The center projects as p'n + c'(r'n) when local (the node form), else as (p + r c)'n
static int boxesOverlap(const mjtNum a1[6], const mjtNum p1[3], const mjtNum r1[9],
                        const mjtNum a2[6], const mjtNum p2[3], const mjtNum r2[9],
                        mjtNum margin, int local) {
  const mjtNum* a[2] = {a1, a2};
  const mjtNum* p[2] = {p1, p2};
  const mjtNum* r[2] = {r1, r2};
  mjtNum center[2][3], axes[2][3][3];
  for (int i = 0; i < 2; i++) {
    for (int j = 0; j < 3; j++) {
      center[i][j] = p[i][j];
      for (int k = 0; k < 3; k++) {
        if (!local) center[i][j] += r[i][3 * j + k] * a[i][k];
        axes[i][k][j] = r[i][3 * j + k];
      }
    }
  }
  for (int j = 0; j < 2; j++) {
    for (int k = 0; k < 3; k++) {
      const mjtNum* n = axes[j][k];
      mjtNum proj[2], radius[2];
      for (int i = 0; i < 2; i++) {
        mjtNum c[3] = {mju_dot3(axes[i][0], n), mju_dot3(axes[i][1], n), mju_dot3(axes[i][2], n)};
        proj[i] = mju_dot3(center[i], n);
        if (local) proj[i] = proj[i] + a[i][0] * c[0] + a[i][1] * c[1] + a[i][2] * c[2];
        radius[i] = fabs(a[i][3] * c[0]) + fabs(a[i][4] * c[1]) + fabs(a[i][5] * c[2]);
      }
      if (radius[0] + radius[1] + margin < fabs(proj[1] - proj[0])) return 0;
    }
  }
  return 1;
}

// the child of internal bvh entry i (its hierarchy at adr) whose subtree holds entry `leaf`:
// the entries are depth first, so the second child's subtree starts at the second child
static int towards(const mjModel* m, int adr, int i, int leaf) {
  int second = adr + m->bvh_child[2 * i + 1];
  return leaf >= second ? second : adr + m->bvh_child[2 * i];
}

// the "surface" by which the traversal picks the node to descend: products of half - center
static mjtNum surface(const mjtNum box[6]) {
  mjtNum x = box[3] - box[0], y = box[4] - box[1], z = box[5] - box[2];
  return x * y + y * z + z * x;
}

// the node pairs' box tests of one mj_collision (the body frames are fixed there): the same
// node pair recurs for each geom pair of two bodies; direct-mapped, each slot keeping the last
// pair that hashed to it (x = -1: empty)
enum { NODEMEMO = 64 };
typedef struct {
  int x[NODEMEMO], y[NODEMEMO];
  signed char overlap[NODEMEMO];
} NodeMemo;

// 1 when the midphase passes geoms g1, g2 with pair margin `margin`: every node pair on the
// traversal's path overlaps (each pair tested once per memo), then the geoms' own boxes; kept
// out of line (inlined into keepPair, its registers burden every early rejection there)
static __attribute__((noinline)) int treeOverlap(const mjModel* m, const mjData* d,
                                                 NodeMemo* memo, int g1, int g2, mjtNum margin) {
  if (m->geom_bodyid[g1] > m->geom_bodyid[g2]) {
    int s = g1;
    g1 = g2;
    g2 = s;
  }
  int b1 = m->geom_bodyid[g1], b2 = m->geom_bodyid[g2];
  int a1 = m->body_bvhadr[b1], a2 = m->body_bvhadr[b2];
  int l1 = geomLeaf(m, g1), l2 = geomLeaf(m, g2);
  if (a1 < 0 || a2 < 0 || l1 < 0 || l2 < 0) return 1;
  mjtNum bodymargin = (m->opt.enableflags & mjENBL_OVERRIDE)
                          ? m->opt.o_margin
                          : m->body_margin[b1] + m->body_margin[b2];

  // node pairs from the roots down to the leaves: one of them a leaf, descend the other
  int x = a1, y = a2;
  for (;;) {
    int xleaf = m->bvh_child[2 * x] < 0, yleaf = m->bvh_child[2 * y] < 0;
    if (xleaf && yleaf) break;
    const mjtNum* bx = m->bvh_aabb + 6 * x;
    const mjtNum* by = m->bvh_aabb + 6 * y;
    int slot = (x * 7 + y) & (NODEMEMO - 1);
    if (memo->x[slot] != x || memo->y[slot] != y) {
      memo->x[slot] = x;
      memo->y[slot] = y;
      memo->overlap[slot] = boxesOverlap(bx, d->xipos + 3 * b1, d->ximat + 9 * b1, by,
                                         d->xipos + 3 * b2, d->ximat + 9 * b2, bodymargin, 1);
    }
    if (!memo->overlap[slot]) return 0;
    if (xleaf) y = towards(m, a2, y, l2);
    else if (yleaf) x = towards(m, a1, x, l1);
    else if (surface(bx) > surface(by)) x = towards(m, a1, x, l1);
    else y = towards(m, a2, y, l2);
  }

  // the two leaves: the geoms' boxes in the geom frames
  if (m->geom_rbound[g1] <= 0 || m->geom_rbound[g2] <= 0) return 1;
  return boxesOverlap(m->geom_aabb + 6 * g1, d->geom_xpos + 3 * g1, d->geom_xmat + 9 * g1,
                      m->geom_aabb + 6 * g2, d->geom_xpos + 3 * g2, d->geom_xmat + 9 * g2,
                      margin, 0);
}

// a sweep pair's test on the principal axis, for pairs the sweep took on a coordinate axis
// with intervals widened by tol whose bounding spheres overlap by less than tol (at round-off,
// where the two axes could disagree); the axis computed at the first such pair
typedef struct {
  const int* bnd;
  int nb, have;
  mjtNum tol, axis[3];
} Exact;

static int principalOverlap(const mjModel* m, const mjData* d, Exact* ex, int g1, int g2);

// 1 when the dynamic geom pair (g1, g2) survives the filters: contype/conaffinity, same weld
// body, parent-child (unless disabled; not for the world), the bounding spheres, exclusions,
// explicit pairs of the same geoms and the midphase (memo NULL: disabled); a sweep pair (ex
// not NULL) also its overlap on the principal axis when near round-off
static int keepPair(const mjModel* m, const mjData* d, NodeMemo* memo, Exact* ex, int g1,
                    int g2) {
  if (!((m->geom_contype[g1] & m->geom_conaffinity[g2]) ||
        (m->geom_contype[g2] & m->geom_conaffinity[g1])))
    return 0;
  int b1 = m->geom_bodyid[g1], b2 = m->geom_bodyid[g2];
  int w1 = m->body_weldid[b1], w2 = m->body_weldid[b2];
  if (w1 == w2) return 0;

  // neither moves (the world, static or mocap bodies): no force could act
  if (mj_bodyLastDof(m, b1) < 0 && mj_bodyLastDof(m, b2) < 0) return 0;

  // parent-child, by weld bodies
  if (!(m->opt.disableflags & mjDSBL_FILTERPARENT) && w1 && w2 &&
      (w1 == m->body_weldid[m->body_parentid[w2]] || w2 == m->body_weldid[m->body_parentid[w1]]))
    return 0;

  // the bounding spheres, before the searches of the exclusions and explicit pairs
  mjtNum margin = geomMargin(m, g1) + geomMargin(m, g2);
  mjtNum slack;
  if (!spheresOverlap(m, d, g1, g2, margin, &slack)) return 0;
  if (ex && slack < ex->tol && !principalOverlap(m, d, ex, g1, g2)) return 0;
  int sig = signature(b1, b2);
  for (int i = 0; i < m->nexclude; i++)
    if (m->exclude_signature[i] == sig) return 0;
  for (int i = 0; i < m->npair; i++) {
    if (m->pair_signature[i] != sig) continue;
    int p1 = m->pair_geom1[i], p2 = m->pair_geom2[i];
    if ((p1 == g1 && p2 == g2) || (p1 == g2 && p2 == g1)) return 0;
  }
  if (memo && (m->body_geomnum[b1] > 1 || m->body_geomnum[b2] > 1))
    return treeOverlap(m, d, memo, g1, g2, margin);
  return 1;
}

// record candidate (g1, g2) in out[*n] if it survives and *n < cap (beyond: only count)
static void addGeomPair(const mjModel* m, const mjData* d, NodeMemo* memo, Exact* ex, int g1,
                        int g2, Candidate* out, int cap, int* n) {
  if (!keepPair(m, d, memo, ex, g1, g2)) return;
  if (*n < cap) {
    Candidate* c = out + *n;
    int b1 = m->geom_bodyid[g1], b2 = m->geom_bodyid[g2];
    c->sig = signature(b1, b2);
    c->kind = 1;
    c->a = g1 < g2 ? g1 : g2;
    c->b = g1 < g2 ? g2 : g1;
    int mid = memo && (m->body_geomnum[b1] > 1 || m->body_geomnum[b2] > 1);
    int swap = mid && m->geom_type[c->a] > m->geom_type[c->b];
    c->k1 = swap ? c->b : c->a;
    c->k2 = swap ? c->a : c->b;
  }
  (*n)++;
}

// a geom's interval on the sweep axis
typedef struct {
  mjtNum lo, hi;
  int geom;
} Interval;

// ascending lower ends
static int compareIntervals(const void* x, const void* y) {
  mjtNum a = ((const Interval*)x)->lo, b = ((const Interval*)y)->lo;
  return a < b ? -1 : a > b;
}

// the intervals and the candidates are sorted by insertion while they are few (a robot's
// geoms: no calls through a comparison pointer), else by qsort; either way in the same order
// here (the candidates' keys are distinct, and the sweep finds the same pairs whatever the
// order of equal lower ends)
enum { SHORTSORT = 32 };

// candidates by ascending (sig, kind, a, b)
static void sortCandidates(Candidate* c, int n) {
  if (n > SHORTSORT) {
    qsort(c, n, sizeof(Candidate), compareCandidates);
    return;
  }
  for (int i = 1; i < n; i++) {
    Candidate x = c[i];
    int j = i;
    while (j > 0 && compareCandidates(c + j - 1, &x) > 0) {
      c[j] = c[j - 1];
      j--;
    }
    c[j] = x;
  }
}

// the unit principal axis (largest variance) of the bounded geoms' centers; x when fewer
// than two
static void sweepAxis(const mjData* d, const int* geoms, int n, mjtNum axis[3]) {
  mjtNum mean[3] = {0, 0, 0}, cov[9] = {0}, eigval[3], eigvec[9], quat[4];
  axis[0] = 1;
  axis[1] = axis[2] = 0;
  if (n < 2) return;
  for (int i = 0; i < n; i++) mju_addToScl3(mean, d->geom_xpos + 3 * geoms[i], 1.0 / n);

  // cov = sum (x - mean)(x - mean)'
  for (int i = 0; i < n; i++) {
    mjtNum dif[3];
    mju_sub3(dif, d->geom_xpos + 3 * geoms[i], mean);
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) cov[3 * r + c] += dif[r] * dif[c];
  }
  mju_eig3(eigval, eigvec, quat, cov);
  axis[0] = eigvec[0];
  axis[1] = eigvec[3];
  axis[2] = eigvec[6];
}

// geom g's sweep interval on axis: center'axis +- (rbound + margin + widen)
static Interval sweepInterval(const mjModel* m, const mjData* d, int g, const mjtNum axis[3],
                              mjtNum widen) {
  mjtNum c = mju_dot3(d->geom_xpos + 3 * g, axis), r = m->geom_rbound[g] + geomMargin(m, g);
  r += widen;
  Interval x = {c - r, c + r, g};
  return x;
}

// the sweep axis of the bounded geoms: the coordinate axis of the widest spread of their
// centers, with ex->tol = 1e-9 (max |coordinate| + 2 max (rbound + margin)) the widening of
// each interval that keeps every pair whose bounding spheres overlap (the projections of two
// centers differ by at most their distance; round-off is ~1e-16 of that scale); when a
// center or radius is not finite (or that scale overflows), the principal axis, tol 0
static void chooseAxis(const mjModel* m, const mjData* d, Exact* ex, mjtNum axis[3]) {
  mjtNum lo[3], hi[3], sum = 0, rmax = 0;
  mju_copy3(lo, d->geom_xpos + 3 * ex->bnd[0]);
  mju_copy3(hi, lo);
  for (int i = 0; i < ex->nb; i++) {
    int g = ex->bnd[i];
    const mjtNum* x = d->geom_xpos + 3 * g;
    mjtNum r = fabs(m->geom_rbound[g] + geomMargin(m, g));
    sum += r;
    rmax = r > rmax ? r : rmax;
    for (int k = 0; k < 3; k++) {
      lo[k] = x[k] < lo[k] ? x[k] : lo[k];
      hi[k] = x[k] > hi[k] ? x[k] : hi[k];
      sum += fabs(x[k]);
    }
  }
  if (!(sum <= DBL_MAX)) {
    ex->tol = 0;
    sweepAxis(d, ex->bnd, ex->nb, axis);
    return;
  }
  mjtNum scale = 0;
  int k = 0;
  for (int j = 0; j < 3; j++) {
    scale = fabs(lo[j]) > scale ? fabs(lo[j]) : scale;
    scale = fabs(hi[j]) > scale ? fabs(hi[j]) : scale;
    if (hi[j] - lo[j] > hi[k] - lo[k]) k = j;
  }
  ex->tol = 1e-9 * (scale + 2 * rmax);
  mju_zero3(axis);
  axis[k] = 1;
}

// 1 when the sweep intervals of g1 and g2 on the principal axis overlap as the sweep finds
// them: the lower end of the one sorted later (equal lower ends: in geom order, as the
// insertion) not above the upper end of the other
static int principalOverlap(const mjModel* m, const mjData* d, Exact* ex, int g1, int g2) {
  if (!ex->have) {
    sweepAxis(d, ex->bnd, ex->nb, ex->axis);
    ex->have = 1;
  }
  Interval a = sweepInterval(m, d, g1, ex->axis, 0), b = sweepInterval(m, d, g2, ex->axis, 0);
  int first = a.lo < b.lo || (a.lo == b.lo && g1 < g2);
  return first ? b.lo <= a.hi : a.lo <= b.hi;
}

// the collidable geoms of a broad phase: unbounded (planes) and bounded ones, each in geom
// order, the sweep intervals, sorted by lower end, of the bounded ones that may pair with
// another bounded one by contype/conaffinity, and the principal-axis test of the sweep's
// near-round-off pairs
typedef struct {
  const int *inf, *bnd;
  const Interval* iv;
  int ninf, nb, niv;
  Exact* ex;
} Geoms;

// the broad phase: the surviving dynamic geom pairs into out[0 .. cap) (further ones only
// counted); returns the count.  Unbounded geoms are tested against all others, bounded ones
// by sweep and prune of their intervals
static int broadphase(const mjModel* m, const mjData* d, NodeMemo* memo, const Geoms* gs,
                      Candidate* out, int cap) {
  const int *inf = gs->inf, *bnd = gs->bnd;
  const Interval* iv = gs->iv;
  int n = 0, ninf = gs->ninf, nb = gs->nb, niv = gs->niv;
  Exact* ex = gs->ex->tol > 0 ? gs->ex : NULL;  // no principal test on the principal axis

  // unbounded against everything (each unordered pair once)
  for (int i = 0; i < ninf; i++) {
    for (int j = i + 1; j < ninf; j++) addGeomPair(m, d, memo, NULL, inf[i], inf[j], out, cap, &n);
    for (int j = 0; j < nb; j++) addGeomPair(m, d, memo, NULL, inf[i], bnd[j], out, cap, &n);
  }

  // overlapping intervals
  for (int i = 0; i < niv; i++)
    for (int j = i + 1; j < niv && iv[j].lo <= iv[i].hi; j++)
      addGeomPair(m, d, memo, ex, iv[i].geom, iv[j].geom, out, cap, &n);
  return n;
}

// ---- contact parameters -----------------------------------------------------------------------

// the parameters a contact gets from its geoms or pair
typedef struct {
  int dim;
  mjtNum margin, gap, friction[5], solref[2], solreffriction[2], solimp[5], adhesion;
} Params;

// mix the parameters of geoms g1, g2: the higher priority's condim, friction, solref, solimp
// and adhesion; at equal priority max condim and friction, solref and solimp weighted by solmix
// (solref elementwise min unless both are positive time constants), adhesions add (each
// surface pulls); gaps add (margins: candidateMargin)
static void mixParams(const mjModel* m, int g1, int g2, Params* p) {
  const mjtNum* f;
  int pr1 = m->geom_priority[g1], pr2 = m->geom_priority[g2];
  p->gap = m->geom_gap[g1] + m->geom_gap[g2];
  p->adhesion = m->geom_adhesion[g1] + m->geom_adhesion[g2];
  p->solreffriction[0] = p->solreffriction[1] = 0;
  mjtNum fmix[3];
  if (pr1 != pr2) {
    int g = pr1 > pr2 ? g1 : g2;
    p->dim = m->geom_condim[g];
    p->adhesion = m->geom_adhesion[g];
    f = m->geom_friction + 3 * g;
    mju_copy(p->solref, m->geom_solref + 2 * g, 2);
    mju_copy(p->solimp, m->geom_solimp + 5 * g, 5);
  } else {
    int c1 = m->geom_condim[g1], c2 = m->geom_condim[g2];
    p->dim = c1 > c2 ? c1 : c2;
    for (int k = 0; k < 3; k++) {
      mjtNum a = m->geom_friction[3 * g1 + k], b = m->geom_friction[3 * g2 + k];
      fmix[k] = a > b ? a : b;
    }
    f = fmix;

    // mix = solmix1 / (solmix1 + solmix2), 1/2 when both vanish
    mjtNum s1 = m->geom_solmix[g1], s2 = m->geom_solmix[g2], mix;
    if (s1 < mjMINVAL && s2 < mjMINVAL) mix = 0.5;
    else if (s1 < mjMINVAL) mix = 0;
    else if (s2 < mjMINVAL) mix = 1;
    else mix = s1 / (s1 + s2);
    const mjtNum* r1 = m->geom_solref + 2 * g1;
    const mjtNum* r2 = m->geom_solref + 2 * g2;
    for (int k = 0; k < 2; k++) {
      if (r1[0] > 0 && r2[0] > 0) p->solref[k] = mix * r1[k] + (1 - mix) * r2[k];
      else p->solref[k] = r1[k] < r2[k] ? r1[k] : r2[k];
    }
    for (int k = 0; k < 5; k++)
      p->solimp[k] = mix * m->geom_solimp[5 * g1 + k] + (1 - mix) * m->geom_solimp[5 * g2 + k];
  }

  // friction (slide, spin, roll) -> (slide, slide, spin, roll, roll)
  mjtNum fr[5] = {f[0], f[0], f[1], f[2], f[2]};
  mju_copy(p->friction, fr, 5);
}

// the parameters of explicit pair i (its margin: candidateMargin)
static void pairParams(const mjModel* m, int i, Params* p) {
  p->dim = m->pair_dim[i];
  p->gap = m->pair_gap[i];
  p->adhesion = m->pair_adhesion[i];
  mju_copy(p->friction, m->pair_friction + 5 * i, 5);
  mju_copy(p->solref, m->pair_solref + 2 * i, 2);
  mju_copy(p->solreffriction, m->pair_solreffriction + 2 * i, 2);
  mju_copy(p->solimp, m->pair_solimp + 5 * i, 5);
}

// the override option replaces solref (normal and frictional), solimp and friction (and the
// margin: candidateMargin)
static void overrideParams(const mjModel* m, Params* p) {
  if (!(m->opt.enableflags & mjENBL_OVERRIDE)) return;
  mju_copy(p->solref, m->opt.o_solref, 2);
  mju_copy(p->solreffriction, m->opt.o_solref, 2);
  mju_copy(p->solimp, m->opt.o_solimp, 5);
  mju_copy(p->friction, m->opt.o_friction, 5);
}

// the margin of candidate c: its pair's, else its geoms' summed; the override's when enabled
static mjtNum candidateMargin(const mjModel* m, const Candidate* c) {
  if (m->opt.enableflags & mjENBL_OVERRIDE) return m->opt.o_margin;
  return c->kind == 0 ? m->pair_margin[c->a] : m->geom_margin[c->a] + m->geom_margin[c->b];
}

// the gap of candidate c: its pair's, else its geoms' summed (the override keeps it)
static mjtNum candidateGap(const mjModel* m, const Candidate* c) {
  return c->kind == 0 ? m->pair_gap[c->a] : m->geom_gap[c->a] + m->geom_gap[c->b];
}

// the parameters of candidate c's contacts: its pair's or its geoms' mixed, then the override
static void candidateParams(const mjModel* m, const Candidate* c, Params* p) {
  if (c->kind == 0) pairParams(m, c->a, p);
  else mixParams(m, c->a, c->b, p);
  p->margin = candidateMargin(m, c);
  overrideParams(m, p);
}

// ---- narrow phase -----------------------------------------------------------------------------

// collide g1 and g2 (ordered by type for the dispatch) of candidate cand and append the
// contacts to d->contact; when the list is full, count mjWARN_CONTACTFULL and return 1
static int collidePair(const mjModel* m, mjData* d, int g1, int g2, const Candidate* cand) {
  if (m->geom_type[g1] > m->geom_type[g2]) {
    int t = g1;
    g1 = g2;
    g2 = t;
  }
  mjfCollision fn = mj_collisionFunc[m->geom_type[g1]][m->geom_type[g2]];
  if (!fn) return 0;
  // contacts are detected within margin + gap, their rows made within margin (MuJoCo 3.9 on)
  mjtNum margin = candidateMargin(m, cand) + candidateGap(m, cand);
  if (!spheresOverlap(m, d, g1, g2, margin, NULL)) return 0;

  // straight into the list when a pair's worth fits, else through a buffer
  mjContact buf[mjMAXCONPAIR];
  int room = d->nconmax - d->ncon;
  mjContact* con = room >= mjMAXCONPAIR ? d->contact + d->ncon : buf;
  int n = fn(m, d, con, g1, g2, margin);
  int full = n > room;
  if (full) {
    mj_warning(d, mjWARN_CONTACTFULL, d->ncon);
    n = room;
  }

  // complete each contact with the candidate's parameters (mixed only when there are contacts:
  // most candidates have none)
  Params params, *p = &params;
  if (n) candidateParams(m, cand, p);
  for (int i = 0; i < n; i++) {
    mjContact* c = d->contact + d->ncon + i;
    if (con != d->contact + d->ncon) *c = con[i];
    if (c->frame[3] == 0 && c->frame[4] == 0 && c->frame[5] == 0) mju_makeFrame(c->frame);
    else mju_cross(c->frame + 6, c->frame, c->frame + 3);
    c->includemargin = p->margin;
    mju_copy(c->friction, p->friction, 5);
    mju_copy(c->solref, p->solref, 2);
    mju_copy(c->solreffriction, p->solreffriction, 2);
    mju_copy(c->solimp, p->solimp, 5);
    c->adhesion = p->adhesion;
    c->mu = 0;
    mju_zero(c->H, 36);
    // an adhesive contact in the gap touches no surface: no friction, the normal alone (its
    // row pulls across the gap: constraint.c)
    c->dim = p->adhesion && c->dist >= p->margin ? 1 : p->dim;
    c->geom1 = c->geom[0] = g1;
    c->geom2 = c->geom[1] = g2;
    c->flex[0] = c->flex[1] = c->elem[0] = c->elem[1] = c->vert[0] = c->vert[1] = -1;
    c->exclude = 0;
    c->efc_address = -1;
    // the clipping record: the convex colliders write their own (mjc_ConvexPair), none else
    if (fn != mjc_Convex && fn != mjc_ConvexHField) {
      c->clip[0] = c->clip[1] = 0;
      mju_zero(c->clipvec, 9);
    }
    // multiccd's turned copies: mjc_Convex marks its own, none else
    if (fn != mjc_Convex) c->turn = 0, c->turndist = 0;
  }
  d->ncon += n;
  return full;
}

// ---- distances ----------------------------------------------------------------------------------

// the smallest signed distance between geoms g1 and g2 found by their narrow-phase function
// with margin distmax (distmax when none is closer), and the segment from g1's surface to g2's
// (zero when none): the nearest contact's pos -/+ normal dist/2
mjtNum mj_geomDistance(const mjModel* m, const mjData* d, int g1, int g2, mjtNum distmax,
                       mjtNum fromto[6]) {
  int flip = m->geom_type[g1] > m->geom_type[g2];
  int a = flip ? g2 : g1, b = flip ? g1 : g2;
  mjfCollision fn = mj_collisionFunc[m->geom_type[a]][m->geom_type[b]];
  if (fromto) mju_zero(fromto, 6);
  if (!fn) return distmax;
  // convex pairs on MuJoCo's default path: the distance itself, not a margin's contact, with
  // the geoms in type order as MuJoCo's (GJK's rounding depends on it)
  if (fn == mjc_Convex && !(m->opt.disableflags & mjDSBL_NATIVECCD)) {
    mjGeomPair gp = {{a, b}, {d->geom_xpos + 3 * a, d->geom_xpos + 3 * b},
                     {d->geom_xmat + 9 * a, d->geom_xmat + 9 * b}, {NULL, NULL}};
    mjtNum ft[6], dist = mjc_ConvexDistance(m, &gp, distmax, ft);
    if (fromto && dist < distmax) {
      mju_copy3(fromto + (flip ? 3 : 0), ft);
      mju_copy3(fromto + (flip ? 0 : 3), ft + 3);
    }
    return dist;
  }
  mjContact con[mjMAXCONPAIR];
  int n = fn(m, d, con, a, b, distmax), best = -1;
  mjtNum dist = distmax;
  for (int i = 0; i < n; i++) {
    if (con[i].dist < dist) {
      dist = con[i].dist;
      best = i;
    }
  }
  if (best >= 0 && fromto) {
    // the normal points from a to b; the segment runs from g1 to g2
    const mjContact* c = con + best;
    mjtNum* from = fromto + (flip ? 3 : 0);
    mjtNum* to = fromto + (flip ? 0 : 3);
    mju_copy3(from, c->pos);
    mju_addToScl3(from, c->frame, -dist / 2);
    mju_copy3(to, c->pos);
    mju_addToScl3(to, c->frame, dist / 2);
  }
  return dist;
}

// ---- the stage --------------------------------------------------------------------------------

// room for n candidates on d's stack; NULL when it has not that much
static Candidate* allocCandidates(mjData* d, size_t n) {
  return (Candidate*)mj_stackAlloc(d, n * sizeof(Candidate) / sizeof(mjtNum) + 1);
}

// contacts of the current geom poses into d->contact[0 .. ncon)
void mj_collision(const mjModel* m, mjData* d) {
  d->ncon = 0;
  if (m->opt.disableflags & (mjDSBL_CONTACT | mjDSBL_CONSTRAINT)) return;
  size_t mark = mj_markStack(d);
  int ngeom = m->ngeom;

  // geoms that may collide: unbounded ones apart; of the bounded ones, those whose contype or
  // conaffinity matches another bounded geom's go to the sweep, the others pair with unbounded
  // geoms only (bnd: all bounded, in geom order)
  Interval* iv = (Interval*)mj_stackAlloc(d, ngeom * sizeof(Interval) / sizeof(mjtNum) + 1);
  int* inf = (int*)mj_stackAlloc(d, ngeom * sizeof(int) / sizeof(mjtNum) + 1);
  int* bnd = (int*)mj_stackAlloc(d, ngeom * sizeof(int) / sizeof(mjtNum) + 1);
  if (!iv || !inf || !bnd) {
    mj_warning(d, mjWARN_CONTACTFULL, 0);
    mj_freeStack(d, mark);
    return;
  }
  int nb = 0, ninf = 0, types = 0, affinities = 0;
  for (int g = 0; g < ngeom; g++) {
    if (!m->geom_contype[g] && !m->geom_conaffinity[g]) continue;
    if (m->geom_rbound[g] <= 0) {
      inf[ninf++] = g;
    } else {
      bnd[nb++] = g;
      types |= m->geom_contype[g];
      affinities |= m->geom_conaffinity[g];
    }
  }

  // sweep intervals: center'axis +- (rbound + margin + tol) on the axis chooseAxis picks from
  // all bounded geoms, by ascending lower ends (few: each inserted into the sorted ones before
  // it)
  mjtNum axis[3];
  Exact ex = {bnd, nb, 0, 0, {0, 0, 0}};
  int niv = 0;
  for (int i = 0; i < nb; i++) {
    int g = bnd[i];
    if ((m->geom_contype[g] & affinities) || (m->geom_conaffinity[g] & types)) {
      if (!niv) chooseAxis(m, d, &ex, axis);
      Interval x = sweepInterval(m, d, g, axis, ex.tol);
      int j = niv++;
      if (nb <= SHORTSORT)
        for (; j > 0 && iv[j - 1].lo > x.lo; j--) iv[j] = iv[j - 1];
      iv[j] = x;
    }
  }
  if (nb > SHORTSORT) qsort(iv, niv, sizeof(Interval), compareIntervals);
  Geoms gs = {inf, bnd, iv, ninf, nb, niv, &ex};

  // the candidates in one pass into room for every pair of them (counted first when the
  // stack has not that much), then the explicit pairs; sorted into MuJoCo's order
  NodeMemo nodes, *memo = m->opt.disableflags & mjDSBL_MIDPHASE ? NULL : &nodes;
  for (int i = 0; i < NODEMEMO; i++) nodes.x[i] = -1;
  int ndyn;
  size_t nc = (size_t)(nb + ninf), room = nc * (nc - 1) / 2;
  Candidate* cand = allocCandidates(d, room + m->npair);
  if (cand) {
    ndyn = broadphase(m, d, memo, &gs, cand, (int)room);
  } else {
    ndyn = broadphase(m, d, memo, &gs, NULL, 0);
    if (!(cand = allocCandidates(d, (size_t)ndyn + m->npair))) {
      mj_warning(d, mjWARN_CONTACTFULL, 0);
      mj_freeStack(d, mark);
      return;
    }
    broadphase(m, d, memo, &gs, cand, ndyn);
  }
  int ncand = ndyn + m->npair;
  for (int i = 0; i < m->npair; i++) {
    Candidate* c = cand + ndyn + i;
    c->sig = m->pair_signature[i];
    c->kind = 0;
    c->a = c->k1 = i;
    c->b = c->k2 = 0;
  }
  sortCandidates(cand, ncand);

  // the narrow phase, in order, until the list is full
  for (int i = 0; i < ncand; i++) {
    const Candidate* c = cand + i;
    int g1 = c->kind == 0 ? m->pair_geom1[c->a] : c->a;
    int g2 = c->kind == 0 ? m->pair_geom2[c->a] : c->b;
    if (collidePair(m, d, g1, g2, c)) break;
  }
  mj_freeStack(d, mark);
}
