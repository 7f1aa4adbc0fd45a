// collision_gjk.c: the convex pairs without an analytic function when nativeccd is on (MuJoCo
// 3.5.1's default), the same query as MuJoCo's mjc_ccd (measured on the oracle): GJK with the
// signed-volume sub-distance algorithm finds the distance of the geoms, each inflated by half the
// pair's margin, or that they intersect, and EPA expands GJK's final simplex into the polytope
// face of the Minkowski difference A - B nearest the origin: the penetration depth and its
// direction.  A sphere or a capsule enters GJK first as its center or segment (its core), its
// radius (plus half the margin) subtracted from the distance found; only when the cores overlap
// do GJK and EPA run on the whole geoms: so MuJoCo 3.14 computes distances (mj_geomDistance) and
// contacts (at its default ccd_tolerance, against its own contacts at random poses: capsule-
// cylinder 0.84 within 1e-9, capsule-ellipsoid 0.87, sphere-ellipsoid 1.00, where the whole
// geoms gave 0.22, 0.15 and 0.03; the A1's legs touching each other, 200 steps with controls,
// 2.4e-3 -> 1.6e-12).  A contact has dist = margin - depth (separated geoms within the margin
// are penetrating inflated ones), the normal from g1 to g2 along the witness points'
// difference and pos their midpoint.  GJK stops on the
// Frank-Wolfe duality gap (below ccd_tolerance^2), EPA when a support point improves by less than
// ccd_tolerance, both at opt.ccd_iterations.  Everything is on the C stack: the polytope has at
// most 4 + gjkMAXITER vertices.
#include <math.h>

#include "engine/collision.h"
#include "util/util.h"

#define gjkMAXITER 500              // most EPA expansions, whatever ccd_iterations says
#define gjkMAXV (4 + gjkMAXITER)    // polytope vertices
#define gjkMAXF (2 * gjkMAXV)       // polytope faces (a closed triangulation: 2 V - 4)
#define gjkMAXE (3 * gjkMAXF)       // horizon edges of one expansion

// a point of the Minkowski difference with its support points on A and B: w = a - b; id: the
// support points' ids (a mesh's vertex, a box's corner bits, -1 for other shapes)
typedef struct {
  mjtNum w[3], a[3], b[3];
  int id[2];
} Vertex;

// a face of the polytope: vertices (counterclockwise seen from outside), outward unit normal,
// signed distance of its plane from the origin
typedef struct {
  int v[3];
  mjtNum n[3], dist;
} Face;

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
// mesh climbs its hull from *warm (NULL: from its first vertex).  Returns the point's id: a
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
  mju_mulMatVec3(res, mat, sl);
  mju_addTo3(res, pos);
  return id;
}

// world support point of geom g at (pos, mat) in the unit direction dir
void mjc_geomSupport(const mjModel* m, int g, const mjtNum pos[3], const mjtNum mat[9],
                     const mjtNum dir[3], mjtNum res[3]) {
  supportAt(m, g, pos, mat, dir, NULL, res);
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

// support of A - B in the direction dir (any length, (1, 0, 0) when it vanishes)
static void supportDir(const Pair* p, const mjtNum dir[3], Vertex* v) {
  mjtNum u[3] = {dir[0], dir[1], dir[2]};
  mju_normalize3(u);
  support(p, u, v);
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

    // the foot's areas on the axis pair where the triangle's shadow is largest (M its area)
    mjtNum mu[3] = {minor2(s[0], s[1], s[2], 1, 2), minor2(s[0], s[1], s[2], 0, 2),
                    minor2(s[0], s[1], s[2], 0, 1)};
    int c = fabs(mu[0]) >= fabs(mu[1]) && fabs(mu[0]) >= fabs(mu[2]) ? 0
            : (fabs(mu[1]) >= fabs(mu[2]) ? 1 : 2);
    int x = c == 0 ? 1 : 0, y = c == 2 ? 1 : 2;
    mjtNum C[3] = {area2(p, s[1], s[2], x, y), area2(p, s[2], s[0], x, y),
                   area2(p, s[0], s[1], x, y)};
    for (int i = 0; i < 3; i++) ok[i] = sameSign(mu[c], C[i]);
    if (ok[0] && ok[1] && ok[2]) {
      for (int i = 0; i < 3; i++) lam[i] = C[i] / mu[c];
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
  int n;
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

// GJK from x = c1 - c2 (the sides' centers): each iteration takes the support point w in the
// direction -x / |x| ((-1, 0, 0) when x vanishes), stops when the Frank-Wolfe duality gap 2 x'(x -
// w) falls below tol^2 (0 when discrete), replaces the simplex by its sub-simplex nearest the
// origin and x by that point, and stops when x no longer moves (by mjMINVAL per coordinate) or the
// simplex is a tetrahedron holding the origin, or after maxiter.  Returns |x| as the last
// iteration began (the distance when separated; 0 in a tetrahedron), or INFINITY as soon as w's
// plane puts the origin farther than cutoff (x'w > 0 and (x'w)^2 / |x|^2 >= cutoff^2; cutoff 0:
// any separation)
static mjtNum gjk(const Pair* p, Simplex* S, mjtNum cutoff, int maxiter, mjtNum tol) {
  mjtNum c2[3], eps = discrete(p) ? 0 : tol * tol;
  sideCenter(p, 0, S->x);
  sideCenter(p, 1, c2);
  mju_sub3(S->x, S->x, c2);
  mjtNum lam[4] = {1, 0, 0, 0}, dist = mju_norm3(S->x);
  int n = 0;
  for (int k = 0; k < maxiter; k++) {
    // the support point toward the origin
    mjtNum u[3] = {-1, 0, 0}, xx = mju_dot3(S->x, S->x), gap[3];
    dist = sqrt(xx);
    if (xx > mjMINVAL * mjMINVAL) {
      mju_scl3(u, S->x, 1 / dist);
      mju_scl3(u, u, -1);
    }
    support(p, u, S->s + n);
    const mjtNum* w = S->s[n].w;
    mju_sub3(gap, S->x, w);
    if (2 * mju_dot3(S->x, gap) < eps) {
      if (!k) n = 1;
      break;
    }
    mjtNum xw = mju_dot3(S->x, w);
    if (xw > 0 && (cutoff == 0 || xw * xw / xx >= cutoff * cutoff)) return INFINITY;

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

    // the next x, unless it stays
    mjtNum next[3];
    for (int i = 0; i < n; i++) pts[i] = S->s[i].w;
    combine(next, lam, pts, n);
    if (fabs(next[0] - S->x[0]) < mjMINVAL && fabs(next[1] - S->x[1]) < mjMINVAL &&
        fabs(next[2] - S->x[2]) < mjMINVAL) break;
    mju_copy3(S->x, next);
    if (n == 4) break;
  }
  S->n = n;
  mju_copy4(S->lam, lam);
  return n == 4 ? 0 : dist;
}

// GJK's witness points a = sum lam_i a_i on A, b = sum lam_i b_i on B
static void gjkWitness(const Simplex* S, mjtNum a[3], mjtNum b[3]) {
  const mjtNum* pa[4] = {S->s[0].a, S->s[1].a, S->s[2].a, S->s[3].a};
  const mjtNum* pb[4] = {S->s[0].b, S->s[1].b, S->s[2].b, S->s[3].b};
  combine(a, S->lam, pa, S->n);
  combine(b, S->lam, pb, S->n);
}

// ---- EPA --------------------------------------------------------------------------------------

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


// the polytope; c: its initial tetrahedron's centroid, inside it as it grows
typedef struct {
  Vertex v[gjkMAXV];
  Face f[gjkMAXF];
  mjtNum c[3];
  int nv, nf;
  int edge[gjkMAXE][2];
  int ne;
} Polytope;

// add face (i, j, k) with its normal (j - i) x (k - i), turned away from the polytope's interior
// point c; the face keeps the vertex order given (MuJoCo's: its winding follows GJK's simplex,
// and multiccd reads features in that order)
static void addFace(Polytope* P, int i, int j, int k, const mjtNum* c) {
  Face* f = P->f + P->nf++;
  mjtNum e1[3], e2[3], r[3];
  mju_sub3(e1, P->v[j].w, P->v[i].w);
  mju_sub3(e2, P->v[k].w, P->v[i].w);
  mju_cross(f->n, e1, e2);
  mju_normalize3(f->n);
  f->v[0] = i;
  f->v[1] = j;
  f->v[2] = k;
  mju_sub3(r, P->v[i].w, c);
  if (mju_dot3(r, f->n) < 0) mju_scl3(f->n, f->n, -1);
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
  if (n == 0) supportDir(p, axes[0], s + n++);
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
      supportDir(p, dir, s + n);

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
  mjtNum* c = P->c;
  mju_zero3(c);
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
    supportDir(p, keep.n, w);
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
    for (int e = 0; e < P->ne; e++) {
      addFace(P, P->edge[e][0], P->edge[e][1], iw, P->c);
      Face* f = P->f + P->nf - 1;  // listed from w, as MuJoCo lists it
      f->v[2] = f->v[1], f->v[1] = f->v[0], f->v[0] = iw;
    }
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

// ---- the query ---------------------------------------------------------------------------------

// the witness points a (on g1) and b (on g2) of EPA's face f: its foot's weights on its vertices
static void epaWitness(const Polytope* P, const Face* f, mjtNum a[3], mjtNum b[3]) {
  mjtNum lam[3];
  epaFoot(P, f, lam);
  mju_zero3(a);
  mju_zero3(b);
  for (int i = 0; i < 3; i++) {
    mju_addToScl3(a, P->v[f->v[i]].a, lam[i]);
    mju_addToScl3(b, P->v[f->v[i]].b, lam[i]);
  }
}

// the signed distance of the pair's (inflated) geoms with witness points a on g1 and b on g2, as
// MuJoCo's mjc_ccd: the distance when separated by less than cutoff (cutoff 0: none sought),
// -depth when they overlap, INFINITY when separated beyond cutoff.  Spheres and capsules go
// first by their cores (r_i their radii plus margin): cores apart by d > tol give d - r1 - r2
// with a and b moved by r1 and r2 along n = (b - a) / |b - a|.  When EPA ran, *face is its final
// face in P, else face->v[0] is -1
static mjtNum query(Pair* p, mjtNum cutoff, int maxiter, mjtNum tol, mjtNum a[3], mjtNum b[3],
                    Polytope* P, Face* face) {
  face->v[0] = -1;
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

  // the whole geoms: GJK's distance, or EPA's depth when it ends at the origin
  mjtNum dist = gjk(p, &S, cutoff, maxiter, tol);
  if (dist == INFINITY) return INFINITY;
  gjkWitness(&S, a, b);
  if (dist > tol || S.n < 2) return dist;
  if (!fillSimplex(p, S.s, S.n)) return 0;
  *face = epa(p, S.s, P, maxiter, tol);
  epaWitness(P, face, a, b);
  return -face->dist;
}

// ---- the contact -------------------------------------------------------------------------------

// contact i of the pair from witness points a (on g1), b (on g2) and signed distance dist: pos
// their midpoint, the normal (a - b) / |a - b|
static void witnessContact(mjContact* con, mjtNum margin, mjtNum dist, const mjtNum a[3],
                           const mjtNum b[3]) {
  con->dist = margin + dist;
  for (int k = 0; k < 3; k++) con->pos[k] = 0.5 * (a[k] + b[k]);
  mju_sub3(con->frame, a, b);
  mju_normalize3(con->frame);
  mju_zero3(con->frame + 3);
}

// the contacts of the geoms inflated by half the margin when they overlap (see the top): one
// from EPA's witness points, or, for boxes and meshes touching face on face or edge on face
// (mjc_queryContacts > 1), those of the clipped faces (collision_clip.c) when the deepest of
// them penetrates
int mjc_ConvexNative(const mjModel* m, const mjGeomPair* gp, mjContact* con, mjtNum margin) {
  int warm[2] = {0, 0};
  Pair p = {m, gp, 0.5 * margin, warm, {0, 0}};
  int maxiter = m->opt.ccd_iterations < gjkMAXITER ? m->opt.ccd_iterations : gjkMAXITER;
  Polytope P;
  Face f;
  mjtNum a[3], b[3], dist = query(&p, 0, maxiter, m->opt.ccd_tolerance, a, b, &P, &f);
  if (!(dist < 0)) return 0;
  int maxcon = gp->prism[0] || gp->prism[1] ? 1 : mjc_queryContacts(m, gp->g[0], gp->g[1], margin);
  if (maxcon > 1 && f.v[0] >= 0) {
    int id[2][3];
    mjtNum pts[2][9], w1[3 * mjMAXCONPAIR], w2[3 * mjMAXCONPAIR], depth[mjMAXCONPAIR];
    for (int k = 0; k < 3; k++) {
      const Vertex* v = P.v + f.v[k];
      id[0][k] = v->id[0], id[1][k] = v->id[1];
      mju_copy3(pts[0] + 3 * k, v->a);
      mju_copy3(pts[1] + 3 * k, v->b);
    }
    int n = mjc_clipContacts(m, gp, id, pts, a, b, maxcon, w1, w2, depth);
    if (n) {
      mjtNum deepest = depth[0];
      for (int i = 1; i < n; i++) deepest = fmin(deepest, depth[i]);
      if (!(deepest < 0)) return 0;
      for (int i = 0; i < n; i++) witnessContact(con + i, margin, depth[i], w1 + 3 * i, w2 + 3 * i);
      return n;
    }
  }
  witnessContact(con, margin, dist, a, b);
  return 1;
}

// ---- distance ----------------------------------------------------------------------------------

// the signed distance of the geoms of gp as they are (not inflated) when below distmax, and the
// segment fromto from g1's surface to g2's: the query's distance (GJK) of separated geoms, its
// depth (EPA) of overlapping ones; distmax and fromto untouched when farther
mjtNum mjc_ConvexDistance(const mjModel* m, const mjGeomPair* gp, mjtNum distmax,
                          mjtNum fromto[6]) {
  int warm[2] = {0, 0};
  Pair p = {m, gp, 0, warm, {0, 0}};
  int maxiter = m->opt.ccd_iterations < gjkMAXITER ? m->opt.ccd_iterations : gjkMAXITER;
  Polytope P;
  Face f;
  mjtNum a[3], b[3], dist = query(&p, distmax, maxiter, m->opt.ccd_tolerance, a, b, &P, &f);
  if (dist >= distmax) return distmax;
  if (fromto) {
    mju_copy3(fromto, a);
    mju_copy3(fromto + 3, b);
  }
  return dist;
}
