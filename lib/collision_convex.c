// collision_convex.c: the convex pairs without an analytic function, through libccd's
// Minkowski Portal Refinement (ccdMPRPenetration) on the geoms' support functions, each geom
// inflated by half the margin.  Tolerance and iterations: m->opt.ccd_tolerance and
// ccd_iterations.  MPR gives the depth and the contact point; its direction (the portal's, set
// by the line between the centers) is replaced, as MuJoCo 3.5.1 does on its libccd path, by the
// surface normals of the smooth geoms at the contact point (see refineNormal).
#include "collision.h"

#include <ccd/ccd.h>
#include <math.h>

#include "util.h"

// a geom as libccd sees it
typedef struct {
  const mjModel* m;
  const mjData* d;
  int geom;
  mjtNum margin;  // half the pair's margin, added in every direction
} ConvexObj;

// the support point of a primitive of type `type` and size s in its own frame in the unit
// direction dir: the farthest point along dir
void mjc_supportLocal(int type, const mjtNum s[3], const mjtNum dir[3], mjtNum res[3]) {
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

// libccd support callback: world support point of the geom plus margin dir
static void support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* vec) {
  const ConvexObj* o = obj;
  int g = o->geom;
  const mjtNum* mat = o->d->geom_xmat + 9 * g;
  mjtNum u[3] = {dir->v[0], dir->v[1], dir->v[2]}, local[3], p[3];
  mju_normalize3(u);

  // to the local frame, support, back to the world
  mju_mulMatTVec3(local, mat, u);
  mjtNum sl[3];
  mjc_supportLocal(o->m->geom_type[g], o->m->geom_size + 3 * g, local, sl);
  mju_mulMatVec3(p, mat, sl);
  for (int k = 0; k < 3; k++) vec->v[k] = p[k] + o->d->geom_xpos[3 * g + k] + o->margin * u[k];
}

// libccd center callback: the geom's center
static void center(const void* obj, ccd_vec3_t* c) {
  const ConvexObj* o = obj;
  for (int k = 0; k < 3; k++) c->v[k] = o->d->geom_xpos[3 * o->geom + k];
}

// the point of the ellipsoid with semi-axes s (local frame) nearest to y, as the outward normal
// there: x = s^2 o y / (s^2 + t) with t the largest root of
//   f(t) = sum_i (s_i y_i / (s_i^2 + t))^2 - 1,
// convex and decreasing for t > -min s_i^2; Newton from the left end of the bracket
// [-s_k^2 + s_k |y_k|, -s_k^2 + |s o y|] (k the shortest axis), where f >= 0, rises
// monotonically to the root; bisection guards the degenerate y_k = 0.  The normal is
// (y / (s^2 + t)) normalized.
static void ellipsoidNormal(const mjtNum s[3], const mjtNum y[3], mjtNum n[3]) {
  int k = s[0] <= s[1] ? (s[0] <= s[2] ? 0 : 2) : (s[1] <= s[2] ? 1 : 2);
  mjtNum sy[3] = {s[0] * y[0], s[1] * y[1], s[2] * y[2]};
  mjtNum lo = -s[k] * s[k] + s[k] * fabs(y[k]), hi = -s[k] * s[k] + mju_norm3(sy);
  mjtNum t = lo;

  // safeguarded Newton on f in [lo, hi]
  for (int iter = 0; iter < 100; iter++) {
    mjtNum f = -1, df = 0;
    for (int i = 0; i < 3; i++) {
      mjtNum a = s[i] * s[i] + t, q = a > 0 ? sy[i] / a : 0;
      f += q * q;
      df -= a > 0 ? 2 * q * q / a : 0;
    }
    if (f > 0) lo = t;
    else hi = t;
    mjtNum next = df < 0 ? t - f / df : hi;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (fabs(next - t) <= 1e-15 * (1 + fabs(t))) break;
    t = next;
  }

  // the direction y / (s^2 + t); at the center, which has none, the shortest axis
  for (int i = 0; i < 3; i++) {
    mjtNum a = s[i] * s[i] + t;
    n[i] = a > 0 ? y[i] / a : 0;
  }
  if (mju_norm3(n) < mjMINVAL) n[k] = 1;
  mju_normalize3(n);
}

// the outward unit normal of geom g at the world point p, for the geoms whose surface normal
// MuJoCo uses there: sphere (from the center), capsule (from the axis segment), ellipsoid (at
// the nearest surface point), cylinder (from the axis, when |z| < 0.95 half-height); returns 0
// for the others and for cylinder points near the caps
static int geomNormal(const mjModel* m, const mjData* d, int g, const mjtNum p[3],
                      mjtNum n[3]) {
  const mjtNum* s = m->geom_size + 3 * g;
  const mjtNum* mat = d->geom_xmat + 9 * g;
  mjtNum dif[3], y[3], local[3];
  mju_sub3(dif, p, d->geom_xpos + 3 * g);
  mju_mulMatTVec3(y, mat, dif);

  switch (m->geom_type[g]) {
  case mjGEOM_SPHERE:
    mju_copy3(local, y);
    break;

  // y minus its projection on the segment z in [-s1, s1]
  case mjGEOM_CAPSULE:
    mju_copy3(local, y);
    local[2] -= y[2] > s[1] ? s[1] : (y[2] < -s[1] ? -s[1] : y[2]);
    break;

  case mjGEOM_ELLIPSOID:
    ellipsoidNormal(s, y, local);
    break;

  // radial on the side, none near the caps
  case mjGEOM_CYLINDER:
    if (fabs(y[2]) >= 0.95 * s[1]) return 0;
    local[0] = y[0];
    local[1] = y[1];
    local[2] = 0;
    break;

  default:
    return 0;
  }
  if (mju_norm3(local) < mjMINVAL) return 0;
  mju_normalize3(local);
  mju_mulMatVec3(n, mat, local);
  return 1;
}

// replace the MPR normal (from g1 to g2) by the average of the surface normals of g1 and of g2
// (negated) at the contact point, those that exist: normalize(n1 - n2)
static void refineNormal(const mjModel* m, const mjData* d, int g1, int g2, const mjtNum pos[3],
                         mjtNum normal[3]) {
  mjtNum n1[3], n2[3], sum[3] = {0, 0, 0};
  int has1 = geomNormal(m, d, g1, pos, n1), has2 = geomNormal(m, d, g2, pos, n2);
  if (has1) mju_addTo3(sum, n1);
  if (has2) mju_sub3(sum, sum, n2);
  if ((has1 || has2) && mju_norm3(sum) >= mjMINVAL) {
    mju_normalize3(sum);
    mju_copy3(normal, sum);
  }
}

// one contact from MPR on the inflated geoms: dist = margin - depth, pos libccd's contact
// point, the normal from g1 to g2 refined from the geoms' surfaces (refineNormal)
int mjc_Convex(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
               mjtNum margin) {
  // nativeccd on (the default): GJK and EPA instead (collision_gjk.c)
  if (!(m->opt.disableflags & mjDSBL_NATIVECCD)) return mjc_ConvexNative(m, d, con, g1, g2,
                                                                         margin);
  ConvexObj o1 = {m, d, g1, 0.5 * margin}, o2 = {m, d, g2, 0.5 * margin};
  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.support1 = ccd.support2 = support;
  ccd.center1 = ccd.center2 = center;
  ccd.max_iterations = (unsigned long)m->opt.ccd_iterations;
  ccd.mpr_tolerance = m->opt.ccd_tolerance;
  ccd.epa_tolerance = m->opt.ccd_tolerance;

  ccd_real_t depth;
  ccd_vec3_t dir, pos;
  if (ccdMPRPenetration(&o1, &o2, &ccd, &depth, &dir, &pos) != 0) return 0;
  con->dist = margin - depth;
  for (int k = 0; k < 3; k++) {
    con->pos[k] = pos.v[k];
    con->frame[k] = dir.v[k];
  }
  refineNormal(m, d, g1, g2, con->pos, con->frame);
  mju_zero3(con->frame + 3);
  return 1;
}
