// collision_convex.c: the convex pairs without an analytic function, through libccd's
// Minkowski Portal Refinement (ccdMPRPenetration) on the geoms' support functions, each geom
// inflated by half the margin.  Tolerance and iterations: m->opt.ccd_tolerance and
// ccd_iterations.
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
  supportLocal(o->m->geom_type[g], o->m->geom_size + 3 * g, local, sl);
  mju_mulMatVec3(p, mat, sl);
  for (int k = 0; k < 3; k++) vec->v[k] = p[k] + o->d->geom_xpos[3 * g + k] + o->margin * u[k];
}

// libccd center callback: the geom's center
static void center(const void* obj, ccd_vec3_t* c) {
  const ConvexObj* o = obj;
  for (int k = 0; k < 3; k++) c->v[k] = o->d->geom_xpos[3 * o->geom + k];
}

// one contact from MPR on the inflated geoms: dist = margin - depth, the normal libccd's
// direction (from g1 to g2), pos its contact point
int mjc_Convex(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
               mjtNum margin) {
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
  mju_zero3(con->frame + 3);
  return 1;
}
