// collision_gjk.c: the convex pairs without an analytic function when nativeccd is on (MuJoCo's
// default), the same query as MuJoCo 3.14's mjc_ccd step for step (read from its source and
// measured on the oracle): GJK with the signed-volume sub-distance algorithm finds the distance
// of the geoms, each inflated by half the pair's margin, or that they intersect (when only
// contacts are sought, MuJoCo's intersection test takes over once GJK holds four points), and
// EPA grows a polytope around the origin from GJK's final simplex (a segment, triangle or
// tetrahedron completed as MuJoCo completes it) until its face nearest the origin is within
// ccd_tolerance of the Minkowski difference A - B: the penetration depth and its direction.
// Short of convergence (35 iterations by default) on curved geoms, and on flat facets split
// into triangles, the answer depends on the exact expansion: the candidate faces, their order,
// the horizon walk and the arithmetic are MuJoCo's, so the contacts agree bit for bit at random
// poses (t/oracle/collision/convex_native.mjs, defaults: every curved pair type 0.99-1.00 of its
// contacts within 1e-9, where the earlier EPA of our own design gave 0.24-0.87).  A sphere or a
// capsule enters GJK first as its center or segment (its core), its radius (plus half the
// margin) subtracted from the distance found; only when the cores overlap do GJK and EPA run on
// the whole geoms.  A contact has dist = margin - depth (separated geoms within the margin are
// penetrating inflated ones), the normal from g1 to g2 along the witness points' difference
// and pos their midpoint.  GJK stops on the Frank-Wolfe duality gap (below ccd_tolerance^2),
// EPA when the depth's bounds close within ccd_tolerance, both at opt.ccd_iterations (at most
// gjkMAXITER here).  Everything is on the C stack: the polytope holds 5 + gjkMAXITER vertices
// and 6 gjkMAXITER faces.
#include <float.h>
#include <math.h>

#include "engine/collision.h"
#include "util/util.h"

#define gjkMAXITER 500              // most EPA expansions, whatever ccd_iterations says
#define gjkMAXV (5 + gjkMAXITER)    // polytope vertices: five to start, one per expansion
#define gjkMAXF (6 * gjkMAXITER)    // polytope faces ever attached (MuJoCo's bound)

// a point of the Minkowski difference with its support points on A and B: w = a - b; id: the
// support points' ids (a mesh's vertex, a box's corner bits, -1 for other shapes)
typedef struct {
  mjtNum w[3], a[3], b[3];
  int id[2];
} Vertex;

// the support point of a primitive of type `type` and size s in its own frame in the unit
// direction dir: the farthest point along dir, in MuJoCo's arithmetic (its native support
// functions: GJK near convergence turns last bits into visible differences)
static void supportLocal(int type, const mjtNum s[3], const mjtNum dir[3], mjtNum res[3]) {
  switch (type) {
  // sphere of radius s0 at the end +-s1 z nearer dir
  case mjGEOM_CAPSULE:
    mju_scl3(res, dir, s[0]);
    res[2] += dir[2] >= 0 ? s[1] : -s[1];
    break;

  // t (s / |t|) with t = dir o s; (s0, 0, 0) when |t| < mjMINVAL
  case mjGEOM_ELLIPSOID: {
    mjtNum t[3] = {dir[0] * s[0], dir[1] * s[1], dir[2] * s[2]}, t2 = mju_dot3(t, t);
    if (t2 < mjMINVAL * mjMINVAL) {
      res[0] = s[0];
      res[1] = res[2] = 0;
      break;
    }
    mjtNum inv = 1 / sqrt(t2);
    for (int k = 0; k < 3; k++) res[k] = t[k] * (inv * s[k]);
    break;
  }

  // rim point: the direction's xy part scaled by s0 / |xy| (0 when |xy|^2 < mjMINVAL^2), the
  // cap nearer dir
  case mjGEOM_CYLINDER: {
    mjtNum n2 = dir[0] * dir[0] + dir[1] * dir[1];
    mjtNum scl = n2 >= mjMINVAL * mjMINVAL ? s[0] / sqrt(n2) : 0;
    res[0] = scl * dir[0];
    res[1] = scl * dir[1];
    res[2] = dir[2] >= 0 ? s[1] : -s[1];
    break;
  }

  // the corner on the side of dir
  case mjGEOM_BOX:
    for (int k = 0; k < 3; k++) res[k] = dir[k] >= 0 ? s[k] : -s[k];
    break;

  default:
    mju_zero3(res);
  }
}

// the two inflated geoms
typedef struct {
  const mjModel* m;
  const mjGeomPair* gp;
  mjtNum margin;  // half the pair's margin, added in every direction
  int* warm;      // (2) where each side's mesh support climb starts (collision_mesh.c)
  int core[2];    // 1: side i is a sphere's center or a capsule's segment (radius left out)
} Pair;

// world support point of geom g at (pos, mat) in the unit direction dir: pos + R s(R'dir); a
// mesh's from its previous answer *warm (mjc_meshSupport).  Returns the point's id: a
// mesh's vertex, a box's corner (bit k set: +size along axis k), else -1
static int supportAt(const mjModel* m, int g, const mjtNum pos[3], const mjtNum mat[9],
                     const mjtNum dir[3], int* warm, mjtNum res[3]) {
  // a sphere in the world frame: pos + r dir
  if (m->geom_type[g] == mjGEOM_SPHERE) {
    for (int k = 0; k < 3; k++) res[k] = m->geom_size[3 * g] * dir[k] + pos[k];
    return -1;
  }
  mjtNum local[3], sl[3];
  int id = -1;
  mju_mulMatTVec3(local, mat, dir);
  if (m->geom_type[g] == mjGEOM_MESH) id = mjc_meshSupport(m, g, local, warm, sl);
  else supportLocal(m->geom_type[g], m->geom_size + 3 * g, local, sl);
  if (m->geom_type[g] == mjGEOM_BOX) id = (sl[0] > 0) | (sl[1] > 0) << 1 | (sl[2] > 0) << 2;
  if (m->geom_type[g] == mjGEOM_CYLINDER) id = sl[2] > 0;
  mju_mulMatVec3(res, mat, sl);
  mju_addTo3(res, pos);
  return id;
}

// world support point of geom g at (pos, mat) in the unit direction dir
void mjc_geomSupport(const mjModel* m, int g, const mjtNum pos[3], const mjtNum mat[9],
                     const mjtNum dir[3], int* warm, mjtNum res[3]) {
  supportAt(m, g, pos, mat, dir, warm, res);
}

// world support point of side i of the pair in the unit direction u: a geom inflated by
// margin, its core (a sphere's center, the end of a capsule's segment pos +- h z nearer u; the
// margin joins the radius), or a height field prism as it is; returns its id (supportAt)
static int geomSupport(const Pair* p, int i, const mjtNum u[3], mjtNum res[3]) {
  const mjGeomPair* gp = p->gp;
  if (gp->prism[i]) {
    mjc_prismSupport(gp->prism[i], u, res);
    return -1;
  }
  int g = gp->g[i];
  if (p->core[i]) {
    // h z with z the geom's axis (third column of mat), h 0 for a sphere
    const mjtNum* mat = gp->mat[i];
    mjtNum h = p->m->geom_type[g] == mjGEOM_CAPSULE ? p->m->geom_size[3 * g + 1] : 0;
    if (mat[2] * u[0] + mat[5] * u[1] + mat[8] * u[2] < 0) h = -h;
    for (int k = 0; k < 3; k++) res[k] = mat[3 * k + 2] * h + gp->pos[i][k];
    return -1;
  }
  int id = supportAt(p->m, g, gp->pos[i], gp->mat[i], u, p->warm + i, res);
  for (int k = 0; k < 3; k++) res[k] += u[k] * p->margin;
  return id;
}

// the center of side i of the pair: the geom's position, a prism's mean corner
static void sideCenter(const Pair* p, int i, mjtNum c[3]) {
  mju_copy3(c, p->gp->pos[i]);
  if (!p->gp->prism[i]) return;
  mju_zero3(c);
  for (int j = 0; j < 6; j++) mju_addTo3(c, p->gp->prism[i][j]);
  mju_scl3(c, c, 1.0 / 6);
}

// support of A - B in the unit direction u: a = sA(u), b = sB(-u), w = a - b
static void support(const Pair* p, const mjtNum u[3], Vertex* v) {
  mjtNum neg[3] = {-u[0], -u[1], -u[2]};
  v->id[0] = geomSupport(p, 0, u, v->a);
  v->id[1] = geomSupport(p, 1, neg, v->b);
  mju_sub3(v->w, v->a, v->b);
}

// ---- GJK --------------------------------------------------------------------------------------
// the point of a simplex nearest the origin by signed volumes (Montanari, Petrinic and
// Barbieri, ACM ToG 2017): the origin's projection on the simplex's affine hull, in barycentric
// weights from the cofactors of [s_1 .. s_n; 1 .. 1]; inside when each cofactor has the sign
// of the determinant, else the nearest of the facets whose cofactor disagrees

// 1 when a and b are both positive or both negative
static int sameSign(mjtNum a, mjtNum b) { return (a > 0 && b > 0) || (a < 0 && b < 0); }

// x = sum_i lam_i s_i over n points, summed in order
static void combine(mjtNum x[3], const mjtNum* lam, const mjtNum* const s[], int n) {
  for (int k = 0; k < 3; k++) {
    x[k] = lam[0] * s[0][k];
    for (int i = 1; i < n; i++) x[k] += lam[i] * s[i][k];
  }
}

// segment (a, b): the foot p = b - (b'(b - a) / |b - a|^2) (b - a) on the axis k where the
// segment is longest (the last of ties), lam = (p_k - b_k, a_k - p_k) / (a_k - b_k) when both
// share its sign, else b alone (GJK's newest point)
static void nearest1(mjtNum lam[2], const mjtNum a[3], const mjtNum b[3]) {
  mjtNum ab[3], mu = 0;
  mju_sub3(ab, b, a);
  mjtNum t = -(mju_dot3(b, ab) / mju_dot3(ab, ab));
  int k = 0;
  for (int i = 0; i < 3; i++) {
    if (fabs(a[i] - b[i]) >= fabs(mu)) {
      mu = a[i] - b[i];
      k = i;
    }
  }
  mjtNum p = b[k] + t * ab[k], c1 = p - b[k], c2 = a[k] - p;
  if (sameSign(mu, c1) && sameSign(mu, c2)) {
    lam[0] = c1 / mu;
    lam[1] = c2 / mu;
  } else {
    lam[0] = 0;
    lam[1] = 1;
  }
}

// the origin's foot p = n (n'v / n'n) on the plane of triangle v, n the cross product of two
// edges, trying the bases v2, v1 and v3 in turn (the first with n'v != 0 and n'n > mjMINVAL);
// 1 when the triangle is degenerate (n = 0)
static int planeProjection(mjtNum p[3], const mjtNum* const v[3]) {
  mjtNum d21[3], d31[3], d32[3];
  mju_sub3(d21, v[1], v[0]);
  mju_sub3(d31, v[2], v[0]);
  mju_sub3(d32, v[2], v[1]);
  const mjtNum* e[3][3] = {{d32, d21, v[1]}, {d21, d31, v[0]}, {d31, d32, v[2]}};
  for (int i = 0; i < 3; i++) {
    mjtNum n[3];
    mju_cross(n, e[i][0], e[i][1]);
    mjtNum nv = mju_dot3(n, e[i][2]), nn = mju_dot3(n, n);
    if (nn == 0) return 1;
    if (i == 2 || (nv != 0 && nn > mjMINVAL)) {
      mju_scl3(p, n, nv / nn);
      return 0;
    }
  }
  return 1;
}

// the cofactor of the 1-row of the triangle's matrix [a b c; 1 1 1] on axes (i, j): twice its
// signed area projected on them
static mjtNum minor2(const mjtNum a[3], const mjtNum b[3], const mjtNum c[3], int i, int j) {
  return b[i] * c[j] - b[j] * c[i] - a[i] * c[j] + a[j] * c[i] + a[i] * b[j] - a[j] * b[i];
}

// twice the signed area of 2D triangle (a, b, c) on axes (x, y)
static mjtNum area2(const mjtNum a[3], const mjtNum b[3], const mjtNum c[3], int x, int y) {
  return a[x] * b[y] + a[y] * c[x] + b[x] * c[y] - a[x] * c[y] - a[y] * b[x] - c[x] * b[y];
}

// a . (b x c)
static mjtNum det3(const mjtNum a[3], const mjtNum b[3], const mjtNum c[3]) {
  mjtNum bc[3];
  mju_cross(bc, b, c);
  return mju_dot3(a, bc);
}

// the numerators C (3) of point q's affine weights on triangle s, on the axis pair where the
// triangle's shadow is largest (the last of ties in the order yz, xz, xy), and their
// denominator: twice that shadow's signed area
static mjtNum triCofactors(const mjtNum* const s[3], const mjtNum q[3], mjtNum C[3]) {
  mjtNum mu[3] = {minor2(s[0], s[1], s[2], 1, 2), minor2(s[0], s[1], s[2], 0, 2),
                  minor2(s[0], s[1], s[2], 0, 1)};
  int c = fabs(mu[0]) >= fabs(mu[1]) && fabs(mu[0]) >= fabs(mu[2]) ? 0
          : (fabs(mu[1]) >= fabs(mu[2]) ? 1 : 2);
  int x = c == 0 ? 1 : 0, y = c == 2 ? 1 : 2;
  C[0] = area2(q, s[1], s[2], x, y);
  C[1] = area2(q, s[2], s[0], x, y);
  C[2] = area2(q, s[0], s[1], x, y);
  return mu[c];
}

// the affine weights lam (3) of point q (in the triangle's plane) on triangle s
static void triAffine(mjtNum lam[3], const mjtNum* const s[3], const mjtNum q[3]) {
  mjtNum C[3], M = triCofactors(s, q, C);
  for (int i = 0; i < 3; i++) lam[i] = C[i] / M;
}

static void nearestIn(mjtNum* lam, const mjtNum* const s[], int n);

// the simplex s (n points) without its points j whose cofactor disagrees (ok[j] = 0): the
// nearest of those facets' nearest points, as weights lam (n) with lam_j = 0
static void nearestFacet(mjtNum* lam, const mjtNum* const s[], int n, const int ok[4]) {
  mjtNum dmin = 0;
  int first = 1;
  for (int j = 0; j < n; j++) {
    if (ok[j]) continue;
    const mjtNum* f[3];
    mjtNum l[3], x[3];
    for (int i = 0, m = 0; i < n; i++) if (i != j) f[m++] = s[i];
    nearestIn(l, f, n - 1);
    combine(x, l, f, n - 1);
    mjtNum d = mju_dot3(x, x);
    if (first || d < dmin) {
      for (int i = 0; i < n; i++) lam[i] = i < j ? l[i] : (i == j ? 0 : l[i - 1]);
      dmin = d;
      first = 0;
    }
  }
}

// the weights lam (n) of the point of simplex s (1 to 4 points) nearest the origin
static void nearestIn(mjtNum* lam, const mjtNum* const s[], int n) {
  int ok[4];
  if (n == 1) {
    lam[0] = 1;
  } else if (n == 2) {
    nearest1(lam, s[0], s[1]);
  } else if (n == 3) {
    // a degenerate triangle as its first edge
    mjtNum p[3];
    if (planeProjection(p, s)) {
      nearest1(lam, s[0], s[1]);
      lam[2] = 0;
      return;
    }

    // the foot's affine weights, inside when all share the sign of their denominator
    mjtNum C[3], M = triCofactors(s, p, C);
    for (int i = 0; i < 3; i++) ok[i] = sameSign(M, C[i]);
    if (ok[0] && ok[1] && ok[2]) {
      for (int i = 0; i < 3; i++) lam[i] = C[i] / M;
      return;
    }
    nearestFacet(lam, s, 3, ok);
  } else {
    // cofactors C4i of [s1 s2 s3 s4; 1 1 1 1], their sum the determinant (6 signed volumes)
    mjtNum C[4] = {-det3(s[1], s[2], s[3]), det3(s[0], s[2], s[3]), -det3(s[0], s[1], s[3]),
                   det3(s[0], s[1], s[2])};
    mjtNum det = C[0] + C[1] + C[2] + C[3];
    for (int i = 0; i < 4; i++) ok[i] = sameSign(det, C[i]);
    if (ok[0] && ok[1] && ok[2] && ok[3]) {
      for (int i = 0; i < 4; i++) lam[i] = C[i] / det;
      return;
    }
    nearestFacet(lam, s, 4, ok);
  }
}

// GJK's simplex: points of A - B, their weights and the nearest point x = sum lam_i w_i
typedef struct {
  Vertex s[4];
  int n, sep;  // sep: a last support point along -x showed the geoms apart
  mjtNum lam[4], x[3];
} Simplex;

// 1 when both sides are polytopes (mesh, box, height field prism) without margin: GJK then
// ends exactly and needs no tolerance
static int discrete(const Pair* p) {
  if (p->margin != 0) return 0;
  for (int i = 0; i < 2; i++) {
    int t = p->m->geom_type[p->gp->g[i]];
    if (!p->gp->prism[i] && (p->core[i] || (t != mjGEOM_MESH && t != mjGEOM_BOX))) return 0;
  }
  return 1;
}

// the unit normal n of triangle (a, b, c) along (c - a) x (b - a) and its plane's signed
// distance n'a from the origin; DBL_MAX when the triangle is degenerate (|n|^2 outside
// [mjMINVAL^2, 1e20])
static mjtNum planeDist(mjtNum n[3], const mjtNum a[3], const mjtNum b[3], const mjtNum c[3]) {
  mjtNum e1[3], e2[3];
  mju_sub3(e1, c, a);
  mju_sub3(e2, b, a);
  mju_cross(n, e1, e2);
  mjtNum n2 = mju_dot3(n, n);
  if (!(n2 > mjMINVAL * mjMINVAL && n2 < 1e20)) return DBL_MAX;
  mju_scl3(n, n, 1 / sqrt(n2));
  return mju_dot3(n, a);
}

// MuJoCo's intersection test, run when only contacts are sought and GJK holds four points: the
// face of the tetrahedron S->s with the least signed distance (face i opposite vertex i, its
// normal from the winding), while not positive, has its opposite vertex replaced by the
// support point along its normal, and two vertices swap to keep the winding.  Returns 1 when the
// origin is inside (S->s the tetrahedron), 0 when a support point shows the origin outside the
// difference, -1 when undecided (the origin on a face's plane, or *k reaching kmax)
static int gjkIntersect(const Pair* p, Simplex* S, int* k, int kmax) {
  Vertex v[4] = {S->s[0], S->s[1], S->s[2], S->s[3]};
  int s[4] = {0, 1, 2, 3};
  for (; *k < kmax; (*k)++) {
    mjtNum d[4], n[4][3];
    d[0] = planeDist(n[0], v[s[2]].w, v[s[1]].w, v[s[3]].w);
    d[1] = planeDist(n[1], v[s[0]].w, v[s[2]].w, v[s[3]].w);
    d[2] = planeDist(n[2], v[s[1]].w, v[s[0]].w, v[s[3]].w);
    d[3] = planeDist(n[3], v[s[0]].w, v[s[1]].w, v[s[2]].w);
    if (!d[0] || !d[1] || !d[2] || !d[3]) return -1;
    int i = d[0] < d[1] ? 0 : 1, j = d[2] < d[3] ? 2 : 3, f = d[i] < d[j] ? i : j;
    if (d[f] > 0) {
      for (int q = 0; q < 4; q++) S->s[q] = v[s[q]];
      return 1;
    }
    support(p, n[f], v + s[f]);
    if (mju_dot3(n[f], v[s[f]].w) < 0) return 0;
    i = (f + 1) & 3, j = (f + 2) & 3;
    int t = s[i];
    s[i] = s[j], s[j] = t;
  }
  return -1;
}

// GJK from x = c1 - c2 (the sides' centers), as MuJoCo 3.14's: each iteration stops when |x|
// is below tol (mjMINVAL when discrete) or no longer changes (by mjMINVAL), else takes the
// support point w in the direction -x / |x|, stops when the Frank-Wolfe duality gap x'(x - w)
// falls below tol^2 / 2 (0 when discrete), replaces the simplex by its sub-simplex nearest the
// origin and x by that point, and stops when the simplex is a tetrahedron holding the origin,
// or after maxiter.  When only contacts are sought (cutoff 0), the first four points go to
// gjkIntersect instead, and GJK goes on only when it is undecided.  Returns |x| (the distance
// when separated; 0 in a tetrahedron), or INFINITY as soon as w's plane puts the origin farther
// than cutoff (x'w > 0 and x'w >= cutoff |x|; cutoff 0: any separation).  S->sep: a last
// support point along -x has x'w > 0 (MuJoCo's final check; it also moves a mesh's climb start
// as MuJoCo's does).  A gap closed at once leaves the centers as the witness points
static mjtNum gjk(const Pair* p, Simplex* S, mjtNum cutoff, int maxiter, mjtNum tol) {
  int disc = discrete(p);
  mjtNum c2[3], eps = disc ? 0 : 0.5 * tol * tol, least = disc ? mjMINVAL : tol;
  sideCenter(p, 0, S->x);
  sideCenter(p, 1, c2);
  mju_sub3(S->x, S->x, c2);
  mjtNum lam[4] = {1, 0, 0, 0}, xn = mju_norm3(S->x), prev = 0;
  int n = 0, intersect = cutoff == 0;
  S->sep = 0;
  for (int k = 0; k < maxiter; k++) {
    if (xn < least || fabs(prev - xn) < mjMINVAL) break;

    // the support point toward the origin
    mjtNum u[3], gap[3];
    mju_scl3(u, S->x, 1 / xn);
    mju_scl3(u, u, -1);
    support(p, u, S->s + n);
    const mjtNum* w = S->s[n].w;
    mju_sub3(gap, S->x, w);
    if (mju_dot3(S->x, gap) < eps) break;
    mjtNum xw = mju_dot3(S->x, w);
    if (xw > 0 && (cutoff == 0 || xw >= cutoff * xn)) return INFINITY;

    // four points and only contacts sought: the intersection test decides if it can
    if (n == 3 && intersect) {
      int in = gjkIntersect(p, S, &k, maxiter);
      if (in >= 0) {
        S->n = in ? 4 : 0;
        mju_copy4(S->lam, lam);  // no witness: EPA finds the contact
        return in ? 0 : INFINITY;
      }
      intersect = 0;
    }

    // the sub-simplex nearest the origin: the points of nonzero weight
    const mjtNum* pts[4] = {S->s[0].w, S->s[1].w, S->s[2].w, S->s[3].w};
    mju_zero4(lam);
    nearestIn(lam, pts, n + 1);
    n = 0;
    for (int i = 0; i < 4; i++) {
      if (lam[i] == 0) continue;
      S->s[n] = S->s[i];
      lam[n++] = lam[i];
    }
    for (int i = 0; i < n; i++) pts[i] = S->s[i].w;
    combine(S->x, lam, pts, n);
    prev = xn;
    xn = mju_norm3(S->x);
    if (n == 4) break;
  }
  if (!n) {
    n = 1;
    sideCenter(p, 0, S->s[0].a);
    sideCenter(p, 1, S->s[0].b);
  }
  S->n = n;
  mju_copy4(S->lam, lam);

  // the last support point along -x
  if (xn > 0) {
    Vertex last;
    mjtNum u[3];
    mju_scl3(u, S->x, 1 / xn);
    mju_scl3(u, u, -1);
    support(p, u, &last);
    S->sep = mju_dot3(S->x, last.w) > 0;
  }
  return n == 4 && !S->sep ? 0 : xn;
}

// GJK's witness points a = sum lam_i a_i on A, b = sum lam_i b_i on B
static void gjkWitness(const Simplex* S, mjtNum a[3], mjtNum b[3]) {
  const mjtNum* pa[4] = {S->s[0].a, S->s[1].a, S->s[2].a, S->s[3].a};
  const mjtNum* pb[4] = {S->s[0].b, S->s[1].b, S->s[2].b, S->s[3].b};
  combine(a, S->lam, pa, S->n);
  combine(b, S->lam, pb, S->n);
}

// ---- EPA --------------------------------------------------------------------------------------
// MuJoCo's EPA, step for step (its answer on a flat facet of the Minkowski difference, and
// short of convergence on curved geoms, depends on the triangle it ends on): an initial
// polytope around the origin from GJK's simplex (polytope2/3/4 below), faces with their
// neighbours, a list of candidate faces whose distance lies within [lower, upper] bounds of
// the depth, the horizon found by a recursive walk over the faces that see the new point

// a face of the polytope: vertices (wound as attached), the faces across its edges (v0 v1),
// (v1 v2), (v2 v0), the origin's foot x on its plane turned away from the polytope's center
// (its normal times its distance), dist2 = |x|^2, and its slot in the candidate list (-1 none,
// -2 removed from the polytope)
typedef struct {
  int v[3], adj[3];
  mjtNum x[3], dist2;
  int slot;
} Face;

// the polytope: vertices, faces (at most maxf), the candidate list, the center c, and the
// horizon of one expansion (face and edge of each boundary edge) seen from w
typedef struct {
  Vertex v[gjkMAXV];
  Face f[gjkMAXF];
  int list[gjkMAXF], hface[gjkMAXF], hedge[gjkMAXF];
  mjtNum c[3];
  const mjtNum* w;
  int nv, nf, maxf, nlist, nh;
} Polytope;

// add vertex v; returns its index
static int addVertex(Polytope* P, const Vertex* v) {
  P->v[P->nv] = *v;
  return P->nv++;
}

// add the support point in direction d of length dn (d / dn, or (1, 0, 0) when dn <= mjMINVAL);
// returns its index
static int addSupport(const Pair* p, Polytope* P, const mjtNum d[3], mjtNum dn) {
  mjtNum u[3] = {1, 0, 0};
  if (dn > mjMINVAL) for (int k = 0; k < 3; k++) u[k] = d[k] / dn;
  support(p, u, P->v + P->nv);
  return P->nv++;
}

// attach face (i, j, k) with neighbours (a0, a1, a2); returns its dist2, 0 when degenerate
static mjtNum attachFace(Polytope* P, int i, int j, int k, int a0, int a1, int a2) {
  Face* f = P->f + P->nf++;
  const mjtNum* t[3] = {P->v[k].w, P->v[j].w, P->v[i].w};
  f->v[0] = i, f->v[1] = j, f->v[2] = k;
  f->adj[0] = a0, f->adj[1] = a1, f->adj[2] = a2;
  f->slot = -1;
  f->dist2 = 0;
  if (planeProjection(f->x, t)) return 0;
  mjtNum out[3];
  mju_sub3(out, P->v[i].w, P->c);
  if (mju_dot3(f->x, out) < 0) mju_scl3(f->x, f->x, -1);
  f->dist2 = mju_dot3(f->x, f->x);
  return f->dist2;
}

// list face f among the candidates
static void listFace(Polytope* P, int f) {
  P->f[f].slot = P->nlist;
  P->list[P->nlist++] = f;
}

// remove face f from the polytope and the candidates (the last candidate takes its slot)
static void removeFace(Polytope* P, int f) {
  int s = P->f[f].slot;
  if (s >= 0) {
    P->list[s] = P->list[--P->nlist];
    P->f[P->list[s]].slot = s;
  }
  P->f[f].slot = -2;
}

// the edge of face f that starts at vertex v (2 when none does)
static int edgeFrom(const Polytope* P, int f, int v) {
  return P->f[f].v[0] == v ? 0 : (P->f[f].v[1] == v ? 1 : 2);
}

// the horizon beyond face f, entered across its edge e: when w sees f (x'w - |x|^2 > mjMINVAL),
// f is removed and the walk goes on across its two other edges, a neighbour that w does not see
// giving a horizon edge; returns 1 when w sees f
static int horizonFrom(Polytope* P, int f, int e) {
  const Face* F = P->f + f;
  if (!(mju_dot3(F->x, P->w) - F->dist2 > mjMINVAL)) return 0;
  removeFace(P, f);
  for (int k = 1; k < 3; k++) {
    int i = (e + k) % 3, g = F->adj[i];
    if (P->f[g].slot == -2) continue;
    int ge = edgeFrom(P, g, F->v[(i + 1) % 3]);
    if (!horizonFrom(P, g, ge)) P->hface[P->nh] = g, P->hedge[P->nh++] = ge;
  }
  return 1;
}

// the horizon of w around face f (which w sees): f removed, the walk across its three edges
static void horizon(Polytope* P, int f) {
  removeFace(P, f);
  const Face* F = P->f + f;
  for (int i = 0; i < 3; i++) {
    int g = F->adj[i];
    if (P->f[g].slot == -2) continue;
    int ge = edgeFrom(P, g, F->v[(i + 1) % 3]);
    if (!horizonFrom(P, g, ge)) P->hface[P->nh] = g, P->hedge[P->nh++] = ge;
  }
}

// 1 when the origin and p3 lie strictly on the same side of the plane of (p0, p1, p2)
static int sameSide(const mjtNum p0[3], const mjtNum p1[3], const mjtNum p2[3],
                    const mjtNum p3[3]) {
  mjtNum e1[3], e2[3], e3[3], o[3], n[3];
  mju_sub3(e1, p1, p0);
  mju_sub3(e2, p2, p0);
  mju_cross(n, e1, e2);
  mju_sub3(e3, p3, p0);
  mju_scl3(o, p0, -1);
  return sameSign(mju_dot3(n, e3), mju_dot3(n, o));
}

// 1 when the origin lies strictly inside tetrahedron (p0, p1, p2, p3)
static int inTetra(const mjtNum p0[3], const mjtNum p1[3], const mjtNum p2[3],
                   const mjtNum p3[3]) {
  return sameSide(p0, p1, p2, p3) && sameSide(p1, p2, p3, p0) && sameSide(p2, p3, p0, p1) &&
         sameSide(p3, p0, p1, p2);
}

// 1 when point q lies on triangle s (its affine weights nonnegative and the point they give
// within mjMINVAL of q)
static int onTriangle(const mjtNum* const s[3], const mjtNum q[3]) {
  mjtNum lam[3], r[3];
  triAffine(lam, s, q);
  if (lam[0] < 0 || lam[1] < 0 || lam[2] < 0) return 0;
  combine(r, lam, s, 3);
  mju_sub3(r, r, q);
  return mju_norm3(r) < mjMINVAL;
}

// the polytope from a triangle of GJK (t: its three points): the hexahedron of the triangle and
// the support points along its two normals; 0 when the triangle or the hexahedron is degenerate
// (the origin on a face: no depth to find)
static int polytope3(const Pair* p, Polytope* P, const Vertex t[3]) {
  const mjtNum* s[3] = {t[0].w, t[1].w, t[2].w};
  P->nv = P->nf = P->nlist = 0;
  for (int k = 0; k < 3; k++) P->c[k] = s[0][k] + s[1][k];
  mju_addTo3(P->c, s[2]);
  mju_scl3(P->c, P->c, 1.0 / 3.0);
  mjtNum e1[3], e2[3], n[3], neg[3];
  mju_sub3(e1, s[1], s[0]);
  mju_sub3(e2, s[2], s[0]);
  mju_cross(n, e1, e2);
  mjtNum nn = mju_norm3(n);
  if (nn < mjMINVAL) return 0;
  mju_scl3(neg, n, -1);
  for (int k = 0; k < 3; k++) addVertex(P, t + k);
  int v5 = addSupport(p, P, neg, nn), v4 = addSupport(p, P, n, nn);
  if (onTriangle(s, P->v[v4].w) || onTriangle(s, P->v[v5].w)) return 0;
  static const int face[6][6] = {{4, 0, 1, 1, 3, 2}, {4, 2, 0, 2, 4, 0}, {4, 1, 2, 0, 5, 1},
                                 {3, 1, 0, 5, 0, 4}, {3, 0, 2, 3, 1, 5}, {3, 2, 1, 4, 2, 3}};
  for (int i = 0; i < 6; i++) {
    const int* f = face[i];
    if (attachFace(P, f[0], f[1], f[2], f[3], f[4], f[5]) < mjMINVAL * mjMINVAL) return 0;
  }
  for (int i = 0; i < 6; i++) listFace(P, i);
  return 1;
}

// the 120 degree rotation R about axis a
static void turn120(mjtNum R[9], const mjtNum a[3]) {
  mjtNum n = mju_norm3(a), u[3] = {a[0] / n, a[1] / n, a[2] / n};
  const mjtNum s = 0.86602540378, c = -0.5;
  R[0] = c + u[0] * u[0] * (1 - c);
  R[1] = u[0] * u[1] * (1 - c) - u[2] * s;
  R[2] = u[0] * u[2] * (1 - c) + u[1] * s;
  R[3] = u[1] * u[0] * (1 - c) + u[2] * s;
  R[4] = c + u[1] * u[1] * (1 - c);
  R[5] = u[1] * u[2] * (1 - c) - u[0] * s;
  R[6] = u[0] * u[2] * (1 - c) - u[1] * s;
  R[7] = u[1] * u[2] * (1 - c) + u[0] * s;
  R[8] = c + u[2] * u[2] * (1 - c);
}

// a triangle's face i (its three polytope vertices) as GJK's simplex for polytope3
static int fromFace(const Pair* p, Polytope* P, int i) {
  Vertex t[3] = {P->v[P->f[i].v[0]], P->v[P->f[i].v[1]], P->v[P->f[i].v[2]]};
  return polytope3(p, P, t);
}

// the polytope from a segment of GJK (s: its two points): the hexahedron of the segment and
// three support points in directions 120 degrees apart about it (the first the cross product
// with the axis where the segment is shortest); a face through the origin hands its triangle
// to polytope3; 0 when the hexahedron is not convex
static int polytope2(const Pair* p, Polytope* P, const Vertex s[2]) {
  mjtNum d[3], e[3] = {0, 0, 0}, d1[3], d2[3], d3[3], R[9], least = DBL_MAX;
  P->nv = P->nf = P->nlist = 0;
  for (int k = 0; k < 3; k++) P->c[k] = s[0].w[k] + s[1].w[k];
  mju_scl3(P->c, P->c, 0.5);
  mju_sub3(d, s[1].w, s[0].w);
  int axis = 0;
  for (int k = 0; k < 3; k++) {
    if (fabs(d[k]) < least) least = fabs(d[k]), axis = k;
  }
  e[axis] = 1;
  mju_cross(d1, e, d);
  turn120(R, d);
  mju_mulMatVec3(d2, R, d1);
  mju_mulMatVec3(d3, R, d2);
  addVertex(P, s);
  addVertex(P, s + 1);
  addSupport(p, P, d1, mju_norm3(d1));
  addSupport(p, P, d2, mju_norm3(d2));
  addSupport(p, P, d3, mju_norm3(d3));
  static const int face[6][6] = {{0, 2, 3, 1, 3, 2}, {0, 4, 2, 2, 4, 0}, {0, 3, 4, 0, 5, 1},
                                 {1, 3, 2, 5, 0, 4}, {1, 2, 4, 3, 1, 5}, {1, 4, 3, 4, 2, 3}};
  for (int i = 0; i < 6; i++) {
    const int* f = face[i];
    if (attachFace(P, f[0], f[1], f[2], f[3], f[4], f[5]) < mjMINVAL * mjMINVAL)
      return fromFace(p, P, i);
  }

  // convex: the segment's line crosses the triangle of the three support points
  mjtNum a[3], b[3], c[3], u[3];
  mju_sub3(u, P->v[1].w, P->v[0].w);
  mju_sub3(a, P->v[2].w, P->v[0].w);
  mju_sub3(b, P->v[3].w, P->v[0].w);
  mju_sub3(c, P->v[4].w, P->v[0].w);
  mjtNum v1 = det3(a, b, u), v2 = det3(b, c, u), v3 = det3(c, a, u);
  if (!(v1 >= 0 && v2 >= 0 && v3 >= 0) && !(v1 <= 0 && v2 <= 0 && v3 <= 0)) return 0;
  for (int i = 0; i < 6; i++) listFace(P, i);
  return 1;
}

// the polytope from GJK's tetrahedron s: a face through the origin hands its triangle to
// polytope3; 0 when the origin is not strictly inside
static int polytope4(const Pair* p, Polytope* P, const Vertex s[4]) {
  P->nv = P->nf = P->nlist = 0;
  for (int k = 0; k < 4; k++) addVertex(P, s + k);
  for (int k = 0; k < 3; k++) P->c[k] = s[0].w[k] + s[1].w[k];
  mju_addTo3(P->c, s[2].w);
  mju_addTo3(P->c, s[3].w);
  mju_scl3(P->c, P->c, 0.25);
  static const int face[4][6] = {{0, 1, 2, 1, 3, 2}, {0, 3, 1, 2, 3, 0}, {0, 2, 3, 0, 3, 1},
                                 {3, 2, 1, 2, 0, 1}};
  for (int i = 0; i < 4; i++) {
    const int* f = face[i];
    if (attachFace(P, f[0], f[1], f[2], f[3], f[4], f[5]) < mjMINVAL * mjMINVAL)
      return fromFace(p, P, i);
  }
  if (!inTetra(s[0].w, s[1].w, s[2].w, s[3].w)) return 0;
  for (int i = 0; i < 4; i++) listFace(P, i);
  return 1;
}

// 1 when vertex w repeats an earlier vertex of the polytope (the same support ids on both sides)
static int repeated(const Polytope* P, const Vertex* w) {
  for (int i = 0; i < P->nv - 1; i++) {
    if (P->v[i].id[0] == w->id[0] && P->v[i].id[1] == w->id[1]) return 1;
  }
  return 0;
}

// EPA over polytope P: the candidate nearest the origin (lower bound |x| of the depth; the first
// in list order among ties) is expanded by the support point w along x, which bounds the depth
// from above by x'w / |x|; the faces w sees are replaced by a cone from w to their horizon (each
// new face listed from w, listed as a candidate when its dist2 lies within [lower^2, upper^2]),
// until upper - lower < tol (mjMINVAL when discrete), a support point repeats (discrete), no
// candidate is left or maxiter (at most 1000); returns the face, -1 when there is none (a
// numerical failure, or a first bound showing no overlap)
static int epa(const Pair* p, Polytope* P, int maxiter, mjtNum tol, int discrete) {
  mjtNum upper = DBL_MAX, upper2 = DBL_MAX, eps = discrete ? mjMINVAL : tol;
  int face = -1, kmax = maxiter < 1000 ? maxiter : 1000;
  for (int k = 0; k < kmax; k++) {
    // the nearest candidate; the previous face when it lies beyond the upper bound
    int prev = face;
    mjtNum lower2 = DBL_MAX;
    for (int i = 0; i < P->nlist; i++) {
      if (P->f[P->list[i]].dist2 < lower2) face = P->list[i], lower2 = P->f[face].dist2;
    }
    if (lower2 > upper2 || face < 0) return prev;
    if (lower2 <= 0) return face;  // the origin on its plane

    // the support point along x and the bounds
    mjtNum lower = sqrt(lower2);
    int iw = addSupport(p, P, P->f[face].x, lower);
    const Vertex* w = P->v + iw;
    mjtNum up = mju_dot3(P->f[face].x, w->w) / lower;
    if (up < upper) upper = up, upper2 = upper * upper;
    if (upper - lower < eps) return k == 0 && upper < lower - 1e-10 ? -1 : face;
    if (discrete && repeated(P, w)) return face;

    // the horizon, then the cone from w
    P->w = w->w;
    P->nh = 0;
    horizon(P, face);
    if (P->nh < 3) return -1;
    int nf = P->nf, ne = P->nh;
    if (ne > P->maxf - P->nf) return face;  // out of faces
    for (int i = 0; i < ne; i++) {
      Face* h = P->f + P->hface[i];
      int e = P->hedge[i];
      h->adj[e] = nf + i;
      mjtNum d2 = attachFace(P, iw, h->v[(e + 1) % 3], h->v[e], nf + (i + ne - 1) % ne,
                             P->hface[i], nf + (i + 1) % ne);
      if (d2 == 0) return -1;
      if (d2 >= lower2 && d2 <= upper2) listFace(P, P->nf - 1);
    }
    if (!P->nlist) return face;
  }
  return face;
}

// ---- the query ---------------------------------------------------------------------------------

// the witness points a (on g1) and b (on g2) of EPA's face f: the affine weights of its foot x
// on its vertices (MuJoCo's epaWitness: on a facet split into triangles, the same points
// whichever triangle EPA ends on)
static void epaWitness(const Polytope* P, const Face* f, mjtNum a[3], mjtNum b[3]) {
  const Vertex* v[3] = {P->v + f->v[0], P->v + f->v[1], P->v + f->v[2]};
  const mjtNum* w[3] = {v[0]->w, v[1]->w, v[2]->w};
  const mjtNum* pa[3] = {v[0]->a, v[1]->a, v[2]->a};
  const mjtNum* pb[3] = {v[0]->b, v[1]->b, v[2]->b};
  mjtNum lam[3];
  triAffine(lam, w, f->x);
  combine(a, lam, pa, 3);
  combine(b, lam, pb, 3);
}

// the signed distance of the pair's (inflated) geoms with witness points a (on g1) and b (on
// g2), as MuJoCo's mjc_ccd: the distance when separated by less than cutoff (cutoff 0: none
// sought, only contacts), -depth when they overlap, INFINITY when separated beyond cutoff.
// Spheres and capsules go first by their cores (r_i their radii plus margin): cores apart by
// d > tol give d - r1 - r2 with a and b moved by r1 and r2 along n = (b - a) / |b - a|.  When
// EPA found the depth, *face is its face in P, else -1
static mjtNum query(Pair* p, mjtNum cutoff, int maxiter, mjtNum tol, mjtNum a[3], mjtNum b[3],
                    Polytope* P, int* face) {
  *face = -1;
  Simplex S;
  mjtNum r[2] = {0, 0};
  for (int i = 0; i < 2; i++) {
    int t = p->m->geom_type[p->gp->g[i]];
    p->core[i] = !p->gp->prism[i] && (t == mjGEOM_SPHERE || t == mjGEOM_CAPSULE);
    if (p->core[i]) r[i] = p->m->geom_size[3 * p->gp->g[i]] + p->margin;
  }
  if (p->core[0] || p->core[1]) {
    mjtNum dist = gjk(p, &S, cutoff + r[0] + r[1], maxiter, tol);
    p->core[0] = p->core[1] = 0;
    if (dist == INFINITY) return INFINITY;
    if (dist > tol) {
      mjtNum n[3];
      gjkWitness(&S, a, b);
      mju_sub3(n, b, a);
      mju_normalize3(n);
      mju_addToScl3(a, n, r[0]);
      mju_addToScl3(b, n, -r[1]);
      dist -= r[0] + r[1];
      return dist > cutoff ? INFINITY : dist;
    }
  }

  // the whole geoms: GJK's distance, or EPA's depth when they touch within tol
  mjtNum dist = gjk(p, &S, cutoff, maxiter, tol);
  if (dist == INFINITY) return INFINITY;
  gjkWitness(&S, a, b);
  if (dist > tol || S.n < 2 || S.sep) return dist;
  int ok = S.n == 2 ? polytope2(p, P, S.s) : (S.n == 3 ? polytope3(p, P, S.s)
                                                        : polytope4(p, P, S.s));
  if (!ok) return 0;
  P->maxf = 6 * maxiter;
  *face = epa(p, P, maxiter, tol, discrete(p));
  if (*face < 0) return 0;
  epaWitness(P, P->f + *face, a, b);
  return -sqrt(P->f[*face].dist2);
}

// ---- the contact -------------------------------------------------------------------------------

// contact i of the pair from witness points a (on g1), b (on g2) and signed distance dist: pos
// their midpoint, the normal (a - b) / |a - b|; the clipping record clip (2) and clipvec (9)
// of mjc_clipContacts (NULL: EPA's contact, clip[0] = 0)
static void witnessContact(mjContact* con, mjtNum margin, mjtNum dist, const mjtNum a[3],
                           const mjtNum b[3], const int* clip, const mjtNum* clipvec) {
  con->dist = margin + dist;
  for (int k = 0; k < 3; k++) con->pos[k] = 0.5 * (a[k] + b[k]);
  mju_sub3(con->frame, a, b);
  mju_normalize3(con->frame);
  mju_zero3(con->frame + 3);
  con->clip[0] = clip ? clip[0] : 0;
  con->clip[1] = clip ? clip[1] : 0;
  if (clip) mju_copy(con->clipvec, clipvec, 9);
  else mju_zero(con->clipvec, 9);
}

// the contacts of the geoms inflated by half the margin when they overlap (see the top): one
// from EPA's witness points, or, for boxes, meshes and cylinders touching face on face or edge
// on face (mjc_queryContacts > 1), those of the clipped faces (collision_clip.c) when the
// deepest of them penetrates (EPA's turned around when g1's edge is clipped to nothing)
int mjc_ConvexNative(const mjModel* m, const mjGeomPair* gp, mjContact* con, mjtNum margin,
                     int warm[2]) {
  Pair p = {m, gp, 0.5 * margin, warm, {0, 0}};
  int maxiter = m->opt.ccd_iterations < gjkMAXITER ? m->opt.ccd_iterations : gjkMAXITER;
  Polytope P;
  int f;
  mjtNum a[3], b[3], dist = query(&p, 0, maxiter, m->opt.ccd_tolerance, a, b, &P, &f);
  if (!(dist < 0)) return 0;
  int maxcon = gp->prism[0] || gp->prism[1] ? 1 : mjc_queryContacts(m, gp->g[0], gp->g[1], margin);
  if (maxcon > 1 && f >= 0) {
    int id[2][3], clip[2 * mjMAXCONPAIR];
    mjtNum pts[2][9], w1[3 * mjMAXCONPAIR], w2[3 * mjMAXCONPAIR], depth[mjMAXCONPAIR];
    mjtNum clipvec[9 * mjMAXCONPAIR];
    for (int k = 0; k < 3; k++) {
      const Vertex* v = P.v + P.f[f].v[k];
      id[0][k] = v->id[0], id[1][k] = v->id[1];
      mju_copy3(pts[0] + 3 * k, v->a);
      mju_copy3(pts[1] + 3 * k, v->b);
    }
    int n = mjc_clipContacts(m, gp, id, pts, a, b, maxcon, w1, w2, depth, clip, clipvec);
    if (n < 0) {
      // g1's edge clipped to nothing: EPA's witness points swapped
      mjtNum t[3];
      mju_copy3(t, a);
      mju_copy3(a, b);
      mju_copy3(b, t);
    } else if (n) {
      mjtNum deepest = depth[0];
      for (int i = 1; i < n; i++) deepest = fmin(deepest, depth[i]);
      if (!(deepest < 0)) return 0;
      for (int i = 0; i < n; i++)
        witnessContact(con + i, margin, depth[i], w1 + 3 * i, w2 + 3 * i, clip + 2 * i,
                       clipvec + 9 * i);
      return n;
    }
  }
  witnessContact(con, margin, dist, a, b, NULL, NULL);
  return 1;
}

// ---- distance ----------------------------------------------------------------------------------

// the signed distance of the geoms of gp as they are (not inflated) when below distmax, and the
// segment fromto from g1's surface to g2's: the query's distance (GJK) of separated geoms, its
// depth (EPA) of overlapping ones; distmax and fromto untouched when farther
mjtNum mjc_ConvexDistance(const mjModel* m, const mjGeomPair* gp, mjtNum distmax,
                          mjtNum fromto[6]) {
  int warm[2] = {-1, -1};
  Pair p = {m, gp, 0, warm, {0, 0}};
  int maxiter = m->opt.ccd_iterations < gjkMAXITER ? m->opt.ccd_iterations : gjkMAXITER;
  Polytope P;
  int f;
  mjtNum a[3], b[3], dist = query(&p, distmax, maxiter, m->opt.ccd_tolerance, a, b, &P, &f);
  if (dist >= distmax) return distmax;
  if (fromto) {
    mju_copy3(fromto, a);
    mju_copy3(fromto + 3, b);
  }
  return dist;
}
