// collision_gjk.c: the convex pairs without an analytic function when nativeccd is on (MuJoCo
// 3.5.1's default): GJK finds whether the geoms, each inflated by half the pair's margin,
// intersect, and EPA expands GJK's final simplex into the polytope face of the Minkowski
// difference A - B nearest the origin: the penetration depth of the inflated geoms and its
// direction.  As MuJoCo does (measured on the oracle), separated geoms within the margin are
// penetrating inflated geoms, so one contact has dist = margin - depth, the normal the face's
// (from g1 to g2) and pos the midpoint of the witness points on A and B.  Both loops stop at
// opt.ccd_iterations or when a new support point improves by less than opt.ccd_tolerance.
// Everything is on the C stack: the polytope has at most 4 + gjkMAXITER vertices.
#include <math.h>

#include "collision.h"
#include "util.h"

#define gjkMAXITER 500              // most EPA expansions, whatever ccd_iterations says
#define gjkMAXV (4 + gjkMAXITER)    // polytope vertices
#define gjkMAXF (2 * gjkMAXV)       // polytope faces (a closed triangulation: 2 V - 4)
#define gjkMAXE (3 * gjkMAXF)       // horizon edges of one expansion

// a point of the Minkowski difference with its support points on A and B: w = a - b
typedef struct {
  mjtNum w[3], a[3], b[3];
} Vertex;

// a face of the polytope: vertices (counterclockwise seen from outside), outward unit normal,
// signed distance of its plane from the origin
typedef struct {
  int v[3];
  mjtNum n[3], dist;
} Face;

// the support point of a primitive of type `type` and size s in its own frame in the unit
// direction dir: the farthest point along dir
static void supportLocal(int type, const mjtNum s[3], const mjtNum dir[3], mjtNum res[3]) {
  switch (type) {
  case mjGEOM_SPHERE:
    mju_scl3(res, dir, s[0]);
    break;

  // sphere of radius s0 at the end +-s1 z nearer dir
  case mjGEOM_CAPSULE:
    mju_scl3(res, dir, s[0]);
    res[2] += dir[2] >= 0 ? s[1] : -s[1];
    break;

  // s o (s o dir) / |s o dir|
  case mjGEOM_ELLIPSOID: {
    mjtNum t[3] = {s[0] * dir[0], s[1] * dir[1], s[2] * dir[2]};
    mjtNum len = mju_norm3(t);
    for (int k = 0; k < 3; k++) res[k] = len < mjMINVAL ? 0 : s[k] * t[k] / len;
    break;
  }

  // rim point: radius along the direction's xy part, the cap nearer dir
  case mjGEOM_CYLINDER: {
    mjtNum len = sqrt(dir[0] * dir[0] + dir[1] * dir[1]);
    res[0] = len < mjMINVAL ? 0 : s[0] * dir[0] / len;
    res[1] = len < mjMINVAL ? 0 : s[0] * dir[1] / len;
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
} Pair;

// world support point of geom g at (pos, mat) in the unit direction dir; a mesh climbs its
// hull from *warm (NULL: from its first vertex)
static void supportAt(const mjModel* m, int g, const mjtNum pos[3], const mjtNum mat[9],
                      const mjtNum dir[3], int* warm, mjtNum res[3]) {
  mjtNum local[3], sl[3];
  mju_mulMatTVec3(local, mat, dir);
  if (m->geom_type[g] == mjGEOM_MESH) mjc_meshSupport(m, g, local, warm, sl);
  else supportLocal(m->geom_type[g], m->geom_size + 3 * g, local, sl);
  mju_mulMatVec3(res, mat, sl);
  mju_addTo3(res, pos);
}

// world support point of geom g at (pos, mat) in the unit direction dir
void mjc_geomSupport(const mjModel* m, int g, const mjtNum pos[3], const mjtNum mat[9],
                     const mjtNum dir[3], mjtNum res[3]) {
  supportAt(m, g, pos, mat, dir, NULL, res);
}

// world support point of side i of the pair in the direction dir (any length): a geom
// inflated by margin, or a height field prism as it is
static void geomSupport(const Pair* p, int i, const mjtNum dir[3], mjtNum res[3]) {
  mjtNum u[3] = {dir[0], dir[1], dir[2]};
  mju_normalize3(u);
  if (p->gp->prism[i]) {
    mjc_prismSupport(p->gp->prism[i], u, res);
    return;
  }
  supportAt(p->m, p->gp->g[i], p->gp->pos[i], p->gp->mat[i], u, p->warm + i, res);
  for (int k = 0; k < 3; k++) res[k] += p->margin * u[k];
}

// the center of side i of the pair: the geom's position, a prism's mean corner
static void sideCenter(const Pair* p, int i, mjtNum c[3]) {
  mju_copy3(c, p->gp->pos[i]);
  if (!p->gp->prism[i]) return;
  mju_zero3(c);
  for (int j = 0; j < 6; j++) mju_addTo3(c, p->gp->prism[i][j]);
  mju_scl3(c, c, 1.0 / 6);
}

// support of A - B in the direction dir: a = sA(dir), b = sB(-dir), w = a - b
static void support(const Pair* p, const mjtNum dir[3], Vertex* v) {
  mjtNum neg[3] = {-dir[0], -dir[1], -dir[2]};
  geomSupport(p, 0, dir, v->a);
  geomSupport(p, 1, neg, v->b);
  mju_sub3(v->w, v->a, v->b);
}

// ---- GJK --------------------------------------------------------------------------------------

// the point of segment [a, b] nearest the origin as barycentric weights lam (2); returns |x|^2
static mjtNum nearestSegment(const mjtNum a[3], const mjtNum b[3], mjtNum lam[2]) {
  mjtNum ab[3];
  mju_sub3(ab, b, a);
  mjtNum len2 = mju_dot3(ab, ab), t = len2 > 0 ? -mju_dot3(a, ab) / len2 : 0;
  t = t < 0 ? 0 : (t > 1 ? 1 : t);
  lam[0] = 1 - t;
  lam[1] = t;
  mjtNum x[3];
  for (int k = 0; k < 3; k++) x[k] = a[k] + t * ab[k];
  return mju_dot3(x, x);
}

// the foot x of the origin on the plane of triangle p (a, b, c) as its affine weights w (3,
// from the signed sub-triangle areas: x = sum w_i p_i, sum w_i = 1, negative outside);
// returns |x|^2, or -1 when the triangle is degenerate
static mjtNum planeFoot(const mjtNum* p[3], mjtNum w[3]) {
  mjtNum ab[3], ac[3], n[3], x[3], c[3];
  mju_sub3(ab, p[1], p[0]);
  mju_sub3(ac, p[2], p[0]);
  mju_cross(n, ab, ac);
  mjtNum n2 = mju_dot3(n, n);
  if (!(n2 > 0)) return -1;
  mju_scl3(x, n, mju_dot3(p[0], n) / n2);
  for (int i = 0; i < 3; i++) {
    mjtNum e1[3], e2[3];
    mju_sub3(e1, p[(i + 1) % 3], x);
    mju_sub3(e2, p[(i + 2) % 3], x);
    mju_cross(c, e1, e2);
    w[i] = mju_dot3(c, n) / n2;
  }
  return mju_dot3(x, x);
}

// the point of triangle (a, b, c) nearest the origin as weights lam (3); returns |x|^2: the
// plane's foot when inside (all its weights nonnegative), else the best edge
static mjtNum nearestTriangle(const mjtNum* p[3], mjtNum lam[3]) {
  mjtNum w[3], x2 = planeFoot(p, w);
  if (x2 >= 0 && w[0] >= 0 && w[1] >= 0 && w[2] >= 0) {
    mju_copy3(lam, w);
    return x2;
  }

  // the nearest of the three edges
  mjtNum best = INFINITY;
  for (int i = 0; i < 3; i++) {
    mjtNum l2[2], d2 = nearestSegment(p[i], p[(i + 1) % 3], l2);
    if (d2 < best) {
      best = d2;
      lam[i] = l2[0];
      lam[(i + 1) % 3] = l2[1];
      lam[(i + 2) % 3] = 0;
    }
  }
  return best;
}

// reduce simplex s (n points) to the smallest sub-simplex holding its point nearest the origin,
// written to v, with the kept points' weights in w (may be NULL); returns the new count (4 and
// v = 0 when the tetrahedron holds the origin)
static int nearestSimplex(Vertex s[4], int n, mjtNum v[3], mjtNum w[4]) {
  mjtNum lam[4] = {1, 0, 0, 0};
  if (n == 2) nearestSegment(s[0].w, s[1].w, lam);
  if (n == 3) nearestTriangle((const mjtNum*[3]){s[0].w, s[1].w, s[2].w}, lam);

  // tetrahedron: the origin inside when it is on the inner side of every face, else the
  // nearest face
  if (n == 4) {
    mjtNum best = INFINITY;
    int inside = 1;
    for (int f = 0; f < 4; f++) {
      int i = (f + 1) % 4, j = (f + 2) % 4, k = (f + 3) % 4;
      mjtNum e1[3], e2[3], nf[3], l3[3];
      mju_sub3(e1, s[j].w, s[i].w);
      mju_sub3(e2, s[k].w, s[i].w);
      mju_cross(nf, e1, e2);
      mjtNum side = mju_dot3(nf, s[i].w), opp = mju_dot3(nf, s[f].w) - side;
      if (side * opp > 0 || opp == 0) inside = 0;
      else continue;
      mjtNum d2 = nearestTriangle((const mjtNum*[3]){s[i].w, s[j].w, s[k].w}, l3);
      if (d2 < best) {
        best = d2;
        lam[f] = 0;
        lam[i] = l3[0];
        lam[j] = l3[1];
        lam[k] = l3[2];
      }
    }
    if (inside) {
      mju_zero3(v);
      return 4;
    }
  }

  // keep the vertices of positive weight
  int m = 0;
  mju_zero3(v);
  for (int i = 0; i < n; i++) {
    if (lam[i] <= 0) continue;
    for (int k = 0; k < 3; k++) v[k] += lam[i] * s[i].w[k];
    if (w) w[m] = lam[i];
    s[m++] = s[i];
  }
  return m;
}

// GJK on the inflated pair: 1 with a simplex s (count *ns) around or touching the origin when
// A - B holds the origin, 0 when a separating direction is found
static int gjk(const Pair* p, Vertex s[4], int* ns, int maxiter, mjtNum tol) {
  mjtNum v[3], c1[3];
  sideCenter(p, 0, v);
  sideCenter(p, 1, c1);
  mju_sub3(v, v, c1);
  if (mju_dot3(v, v) < mjMINVAL) v[0] = 1;
  int n = 0;
  for (int iter = 0; iter < maxiter; iter++) {
    // the support point toward the origin; beyond it lies no point of A - B
    mjtNum dir[3] = {-v[0], -v[1], -v[2]};
    support(p, dir, s + n);
    mjtNum vv = mju_dot3(v, v), vw = mju_dot3(v, s[n].w);
    if (vw > 0) return 0;
    if (n && vv - vw <= tol * tol) break;
    n = nearestSimplex(s, n + 1, v, NULL);
    if (n == 4 || mju_dot3(v, v) < mjMINVAL) break;
  }
  *ns = n;
  return mju_dot3(v, v) < mjMINVAL || n == 4;
}

// ---- EPA --------------------------------------------------------------------------------------

// the polytope
typedef struct {
  Vertex v[gjkMAXV];
  Face f[gjkMAXF];
  int nv, nf;
  int edge[gjkMAXE][2];
  int ne;
} Polytope;

// add face (i, j, k) with its normal; orient it away from the interior point c
static void addFace(Polytope* P, int i, int j, int k, const mjtNum* c) {
  Face* f = P->f + P->nf++;
  mjtNum e1[3], e2[3];
  mju_sub3(e1, P->v[j].w, P->v[i].w);
  mju_sub3(e2, P->v[k].w, P->v[i].w);
  mju_cross(f->n, e1, e2);
  mju_normalize3(f->n);
  f->v[0] = i;
  f->v[1] = j;
  f->v[2] = k;
  if (c) {
    mjtNum r[3];
    mju_sub3(r, P->v[i].w, c);
    if (mju_dot3(r, f->n) < 0) {
      f->v[1] = k;
      f->v[2] = j;
      mju_scl3(f->n, f->n, -1);
    }
  }
  f->dist = mju_dot3(f->n, P->v[i].w);
}

// record edge (i, j) of a removed face: its reverse, from a removed neighbour, cancels it
static void addEdge(Polytope* P, int i, int j) {
  for (int e = 0; e < P->ne; e++) {
    if (P->edge[e][0] == j && P->edge[e][1] == i) {
      P->edge[e][0] = P->edge[P->ne - 1][0];
      P->edge[e][1] = P->edge[P->ne - 1][1];
      P->ne--;
      return;
    }
  }
  P->edge[P->ne][0] = i;
  P->edge[P->ne][1] = j;
  P->ne++;
}

// complete GJK's simplex (n < 4 points when the origin lies on its boundary) to a
// tetrahedron of nonzero volume with support points in directions off its span; 0 when the
// difference is flat
static int fillSimplex(const Pair* p, Vertex s[4], int n) {
  static const mjtNum axes[6][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1},
                                    {-1, 0, 0}, {0, -1, 0}, {0, 0, -1}};
  if (n == 0) support(p, axes[0], s + n++);
  while (n < 4) {
    // candidate directions: the axes, or the normal of the triangle and its opposite
    int found = 0;
    for (int c = 0; c < 6 && !found; c++) {
      mjtNum dir[3];
      if (n == 3) {
        mjtNum e1[3], e2[3];
        mju_sub3(e1, s[1].w, s[0].w);
        mju_sub3(e2, s[2].w, s[0].w);
        mju_cross(dir, e1, e2);
        if (c) mju_scl3(dir, dir, -1);
        if (c > 1) return 0;
      } else {
        mju_copy3(dir, axes[c]);
      }
      support(p, dir, s + n);

      // accept the point when it leaves the span: distance off the point, line or plane
      mjtNum e1[3], e2[3], x[3], off;
      mju_sub3(e1, s[n].w, s[0].w);
      if (n == 1) off = mju_norm3(e1);
      else {
        mju_sub3(e2, s[1].w, s[0].w);
        if (n == 2) {
          mju_cross(x, e1, e2);
          off = mju_norm3(x) / mju_norm3(e2);
        } else {
          mjtNum e3[3];
          mju_sub3(e3, s[2].w, s[0].w);
          mju_cross(x, e2, e3);
          off = fabs(mju_dot3(x, e1)) / mju_norm3(x);
        }
      }
      found = off > 1e-10;
    }
    if (!found) return 0;
    n++;
  }
  return 1;
}

// the polytope's face nearest the origin
static int nearestFace(const Polytope* P) {
  int best = 0;
  for (int f = 1; f < P->nf; f++) if (P->f[f].dist < P->f[best].dist) best = f;
  return best;
}

// EPA from the tetrahedron s: expand the face nearest the origin by the support point along
// its normal until that point is within tol of the face's plane; returns that face.  The
// nearest face's distance never decreases in exact arithmetic; when rounding breaks the
// polytope (a support point within ~1e-11 of nearly coplanar faces) and it does decrease,
// the expansion stops and returns the face before it
static Face epa(const Pair* p, const Vertex s[4], Polytope* P, int maxiter, mjtNum tol) {
  mjtNum c[3] = {0, 0, 0};
  P->nv = 4;
  P->nf = 0;
  for (int i = 0; i < 4; i++) {
    P->v[i] = s[i];
    for (int k = 0; k < 3; k++) c[k] += 0.25 * s[i].w[k];
  }
  addFace(P, 0, 1, 2, c);
  addFace(P, 0, 3, 1, c);
  addFace(P, 0, 2, 3, c);
  addFace(P, 1, 3, 2, c);

  Face keep = P->f[nearestFace(P)];
  for (int iter = 0; iter < maxiter && P->nv < gjkMAXV; iter++) {
    // the face nearest the origin (stop if it went back) and the support point along its normal
    const Face* best = P->f + nearestFace(P);
    if (iter && best->dist < keep.dist) break;
    keep = *best;
    Vertex* w = P->v + P->nv;
    support(p, keep.n, w);
    if (mju_dot3(w->w, keep.n) - keep.dist < tol) break;

    // remove the faces that see w, keeping their boundary (the horizon)
    P->ne = 0;
    for (int f = 0; f < P->nf; f++) {
      mjtNum r[3];
      mju_sub3(r, w->w, P->v[P->f[f].v[0]].w);
      if (mju_dot3(r, P->f[f].n) <= 0) continue;
      for (int e = 0; e < 3; e++) addEdge(P, P->f[f].v[e], P->f[f].v[(e + 1) % 3]);
      P->f[f--] = P->f[--P->nf];
    }

    // cone from w to the horizon, keeping the removed faces' winding
    int iw = P->nv++;
    for (int e = 0; e < P->ne; e++) addFace(P, P->edge[e][0], P->edge[e][1], iw, NULL);
  }
  return keep;
}

// the origin's foot on EPA's face f as the affine weights lam (3) of its vertices, as MuJoCo's
// epaWitness (triAffineCoord): on a facet of polytopes split into triangles, the same witness
// points whichever triangle EPA ends on (clamping to the triangle moved them by millimetres
// when the foot fell just outside it); the nearest point of the face when it is degenerate
static void epaFoot(const Polytope* P, const Face* f, mjtNum lam[3]) {
  const mjtNum* p[3] = {P->v[f->v[0]].w, P->v[f->v[1]].w, P->v[f->v[2]].w};
  if (planeFoot(p, lam) < 0) nearestTriangle(p, lam);
}

// ---- the contact -------------------------------------------------------------------------------

// one contact from GJK and EPA on the geoms inflated by half the margin (see the top)
int mjc_ConvexNative(const mjModel* m, const mjGeomPair* gp, mjContact* con, mjtNum margin) {
  int warm[2] = {0, 0};
  Pair p = {m, gp, 0.5 * margin, warm};
  int maxiter = m->opt.ccd_iterations < gjkMAXITER ? m->opt.ccd_iterations : gjkMAXITER;
  mjtNum tol = m->opt.ccd_tolerance;
  Vertex s[4];
  int ns;
  if (!gjk(&p, s, &ns, maxiter, tol) || !fillSimplex(&p, s, ns)) return 0;

  // the nearest face: depth, normal, the origin's foot as weights of its vertices
  Polytope P;
  Face face = epa(&p, s, &P, maxiter, tol);
  const Face* f = &face;
  mjtNum lam[3];
  epaFoot(&P, f, lam);
  con->dist = margin - f->dist;
  mju_copy3(con->frame, f->n);
  mju_zero3(con->frame + 3);

  // pos: the midpoint of the witness points sum lam_i a_i and sum lam_i b_i
  mju_zero3(con->pos);
  for (int i = 0; i < 3; i++) {
    const Vertex* v = P.v + f->v[i];
    for (int k = 0; k < 3; k++) con->pos[k] += 0.5 * lam[i] * (v->a[k] + v->b[k]);
  }
  return con->dist < margin;
}

// ---- distance ----------------------------------------------------------------------------------

// the signed distance of the geoms of gp as they are (not inflated), when below distmax, and
// the segment fromto from g1's surface to g2's: GJK run to convergence gives the distance and
// the witness points of separated geoms, EPA the depth (negative distance) of overlapping ones;
// distmax and fromto untouched when farther
mjtNum mjc_ConvexDistance(const mjModel* m, const mjGeomPair* gp, mjtNum distmax,
                          mjtNum fromto[6]) {
  int warm[2] = {0, 0};
  Pair p = {m, gp, 0, warm};
  int maxiter = m->opt.ccd_iterations < gjkMAXITER ? m->opt.ccd_iterations : gjkMAXITER;
  mjtNum tol = m->opt.ccd_tolerance, v[3], c1[3], lam[4] = {1, 0, 0, 0};
  Vertex s[4];
  int n = 0, overlap = 0;
  sideCenter(&p, 0, v);
  sideCenter(&p, 1, c1);
  mju_sub3(v, v, c1);
  if (mju_dot3(v, v) < mjMINVAL) v[0] = 1;
  for (int iter = 0; iter < maxiter; iter++) {
    // stop when the support point toward the origin improves the bound by less than tol
    mjtNum dir[3] = {-v[0], -v[1], -v[2]};
    support(&p, dir, s + n);
    mjtNum vv = mju_dot3(v, v), vw = mju_dot3(v, s[n].w);
    if (n && vv - vw <= tol * tol) break;
    n = nearestSimplex(s, n + 1, v, lam);
    if (n == 4 || mju_dot3(v, v) < mjMINVAL) {
      overlap = 1;
      break;
    }
  }
  mjtNum a[3] = {0, 0, 0}, b[3] = {0, 0, 0}, dist;
  if (!overlap) {
    // separated: |v|, the witness points sum lam_i a_i and sum lam_i b_i
    dist = mju_norm3(v);
    if (dist >= distmax) return distmax;
    for (int i = 0; i < n; i++) {
      mju_addToScl3(a, s[i].a, lam[i]);
      mju_addToScl3(b, s[i].b, lam[i]);
    }
  } else {
    // overlapping: EPA's nearest face, its foot's weights on the witness points
    if (!fillSimplex(&p, s, n)) return distmax;
    Polytope P;
    Face f = epa(&p, s, &P, maxiter, tol);
    mjtNum l3[3];
    epaFoot(&P, &f, l3);
    dist = -f.dist;
    for (int i = 0; i < 3; i++) {
      mju_addToScl3(a, P.v[f.v[i]].a, l3[i]);
      mju_addToScl3(b, P.v[f.v[i]].b, l3[i]);
    }
  }
  if (fromto) {
    mju_copy3(fromto, a);
    mju_copy3(fromto + 3, b);
  }
  return dist;
}
