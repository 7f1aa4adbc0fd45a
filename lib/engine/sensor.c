// sensor.c: sensors (mj_sensorPos / Vel / Acc) and energy (mj_energyPos / Vel), declared in
// mj.h.  Each stage fills the sensors whose sensor_needstage is that stage, then applies the
// cutoff (real data clamped to [-cutoff, cutoff], positive data to [0, cutoff]).  Noise is
// not added (MuJoCo does not add it at step time either).  Touch, contact and the joint and
// tendon limit sensors read the contacts, constraint rows and forces, the rangefinder casts a
// ray (ray.c); tactile, plugin and user sensors output zeros (a user sensor is MuJoCo's
// mjcb_sensor's to fill, which leaves it at zero without a callback; its stage still triggers
// the subtree velocities or mj_rnePostConstraint, as MuJoCo's does).  A sensor with a history
// buffer and a delay, or a period between its ticks, reads its buffer instead (history.c).
// The stages compute what their sensors read and no more, with the same bits as the whole
// passes: subtree_angmom only for a subtreeangmom sensor, cacc, cfrc_int and cfrc_ext only for
// the bodies acceleration, force and torque sensors read (mj_rnePostPart: the whole
// mj_rnePostConstraint is the caller's to run for other bodies), the touch sensors in one pass
// over the contacts.
#include <math.h>
#include <string.h>

#include "engine/constraint.h"
#include "engine/forward.h"
#include "engine/history.h"
#include "engine/smooth.h"
#include "util/util.h"

// ---- frames of sensorized objects --------------------------------------------------------------

// position, orientation matrix and quaternion of an object (body com frame, body, geom, site,
// camera); 0 for other types
static int frameOf(const mjModel* m, const mjData* d, int type, int id, const mjtNum** pos,
                   const mjtNum** mat, mjtNum quat[4]) {
  int body;
  const mjtNum* lquat;
  switch (type) {
    case mjOBJ_BODY:
      *pos = d->xipos + 3 * id, *mat = d->ximat + 9 * id;
      body = id, lquat = m->body_iquat + 4 * id;
      break;
    case mjOBJ_XBODY:
      *pos = d->xpos + 3 * id, *mat = d->xmat + 9 * id;
      body = id, lquat = NULL;
      break;
    case mjOBJ_GEOM:
      *pos = d->geom_xpos + 3 * id, *mat = d->geom_xmat + 9 * id;
      body = m->geom_bodyid[id], lquat = m->geom_quat + 4 * id;
      break;
    case mjOBJ_SITE:
      *pos = d->site_xpos + 3 * id, *mat = d->site_xmat + 9 * id;
      body = m->site_bodyid[id], lquat = m->site_quat + 4 * id;
      break;
    case mjOBJ_CAMERA:
      *pos = d->cam_xpos + 3 * id, *mat = d->cam_xmat + 9 * id;
      body = m->cam_bodyid[id], lquat = m->cam_quat + 4 * id;
      break;
    default: return 0;
  }
  if (lquat) mju_mulQuat(quat, d->xquat + 4 * body, lquat);
  else mju_copy4(quat, d->xquat + 4 * body);
  return 1;
}

// frame position, orientation and axis sensors, relative to the reference frame when given:
//   pos  R_ref' (p - p_ref),  quat  q_ref^-1 q,  axis  R_ref' (column of R)
static void framePosSensor(const mjModel* m, const mjData* d, int s, mjtNum* out) {
  int type = m->sensor_type[s];
  const mjtNum *pos, *mat, *rpos = NULL, *rmat = NULL;
  mjtNum quat[4], rquat[4];
  if (!frameOf(m, d, m->sensor_objtype[s], m->sensor_objid[s], &pos, &mat, quat)) return;
  int ref = m->sensor_refid[s] >= 0 &&
            frameOf(m, d, m->sensor_reftype[s], m->sensor_refid[s], &rpos, &rmat, rquat);
  switch (type) {
    case mjSENS_FRAMEPOS: {
      mjtNum dif[3];
      if (!ref) {
        mju_copy3(out, pos);
        break;
      }
      mju_sub3(dif, pos, rpos);
      mju_mulMatTVec3(out, rmat, dif);
      break;
    }
    case mjSENS_FRAMEQUAT:
      if (!ref) {
        mju_copy4(out, quat);
        break;
      }
      mju_negQuat(rquat, rquat);
      mju_mulQuat(out, rquat, quat);
      break;
    default: {
      // x, y, z axis: column of the orientation
      int c = type - mjSENS_FRAMEXAXIS;
      mjtNum axis[3] = {mat[c], mat[3 + c], mat[6 + c]};
      if (ref) mju_mulMatTVec3(out, rmat, axis);
      else mju_copy3(out, axis);
      break;
    }
  }
}

// frame linear and angular velocity, relative to the reference frame when given:
//   linvel  R_ref' (v - v_ref - w_ref x (p - p_ref)),  angvel  R_ref' (w - w_ref)
static void frameVelSensor(const mjModel* m, const mjData* d, int s, mjtNum* out) {
  int type = m->sensor_type[s], ot = m->sensor_objtype[s], oid = m->sensor_objid[s];
  int rt = m->sensor_reftype[s], rid = m->sensor_refid[s];
  const mjtNum *pos, *mat, *rpos, *rmat;
  mjtNum quat[4], vel[6], rvel[6], res[3];
  if (!frameOf(m, d, ot, oid, &pos, &mat, quat)) return;
  mj_objectVelocity(m, d, ot, oid, vel, 0);
  if (rid < 0 || !frameOf(m, d, rt, rid, &rpos, &rmat, quat)) {
    mju_copy3(out, type == mjSENS_FRAMELINVEL ? vel + 3 : vel);
    return;
  }
  mj_objectVelocity(m, d, rt, rid, rvel, 0);
  if (type == mjSENS_FRAMELINVEL) {
    mjtNum dif[3], wxd[3];
    mju_sub3(dif, pos, rpos);
    mju_cross(wxd, rvel, dif);
    mju_sub3(res, vel + 3, rvel + 3);
    mju_sub3(res, res, wxd);
  } else {
    mju_sub3(res, vel, rvel);
  }
  mju_mulMatTVec3(out, rmat, res);
}

// force and torque at a site from the interaction force of its body (site frame)
static void siteForce(const mjModel* m, const mjData* d, int site, mjtNum res[6]) {
  int b = m->site_bodyid[site];
  mju_transformSpatial(res, d->cfrc_int + 6 * b, 1, d->site_xpos + 3 * site,
                       d->subtree_com + 3 * m->body_rootid[b], d->site_xmat + 9 * site);
}

// ---- constraint sensors ------------------------------------------------------------------------

// the first row of type (mjCNSTR_LIMIT_JOINT or _TENDON) constraining id, or -1: as in MuJoCo
// a joint limit sensor reads the lower side when both are active
static int limitRow(const mjData* d, int type, int id) {
  for (int i = 0; i < d->nefc; i++) {
    if (d->efc_type[i] == type && d->efc_id[i] == id) return i;
  }
  return -1;
}

// the row of the limit a jointlimit* or tendonlimit* sensor reads, or -1 (forward.h)
int mj_sensorLimitRow(const mjModel* m, const mjData* d, int s) {
  int type = m->sensor_type[s], id = m->sensor_objid[s];
  int joint = type == mjSENS_JOINTLIMITPOS || type == mjSENS_JOINTLIMITVEL ||
              type == mjSENS_JOINTLIMITFRC;
  return limitRow(d, joint ? mjCNSTR_LIMIT_JOINT : mjCNSTR_LIMIT_TENDON, id);
}

// 1 when the normal ray of contact con from its point, pointing away from the site's body
// (against the normal when that body is the contact's second), meets the site's volume
// (starting inside counts)
static int touchRay(const mjModel* m, const mjData* d, int site, const mjContact* con,
                    int second) {
  mjtNum ray[3];
  mju_scl3(ray, con->frame, second ? -1 : 1);
  return mju_rayGeom(d->site_xpos + 3 * site, d->site_xmat + 9 * site, m->site_size + 3 * site,
                     con->pos, ray, m->site_type[site], NULL) >= 0;
}

// contact i's normal force when it counts for a touch sensor at the site, else 0: a contact
// of the site's body with rows and a positive normal force whose ray (touchRay) meets the
// site (forward.h)
mjtNum mj_touchContact(const mjModel* m, const mjData* d, int site, int i) {
  const mjContact* con = d->contact + i;
  int body = m->site_bodyid[site];
  int b1 = m->geom_bodyid[con->geom1], b2 = m->geom_bodyid[con->geom2];
  if (con->efc_address < 0 || (b1 != body && b2 != body)) return 0;
  mjtNum f[6];
  mj_contactForce(m, d, i, f);
  if (f[0] <= 0) return 0;
  return touchRay(m, d, site, con, b2 == body) ? f[0] : 0;
}

// touch: the normal forces of the contacts that count
static mjtNum touchSensor(const mjModel* m, const mjData* d, int site) {
  mjtNum sum = 0;
  for (int i = 0; i < d->ncon; i++) sum += mj_touchContact(m, d, site, i);
  return sum;
}

// rangefinder: the distance along the site's z axis to the nearest geom not on the site's body
// (every group, static geoms included), -1 when there is none; the geom hit and the surface
// normal there when asked (forward.h)
mjtNum mj_rangefinder(const mjModel* m, const mjData* d, int site, int* geom, mjtNum normal[3]) {
  const mjtNum* mat = d->site_xmat + 9 * site;
  mjtNum z[3] = {mat[2], mat[5], mat[8]};
  return mj_ray(m, d, d->site_xpos + 3 * site, z, NULL, 1, m->site_bodyid[site], geom, normal);
}

// the number of outputs of a rangefinder with data fields bits (forward.h)
int mj_rangefinderDim(int bits) {
  static const int size[mjNRAY] = {1, 3, 3, 3, 3, 1};
  int dim = 0;
  for (int k = 0; k < mjNRAY; k++) dim += bits >> k & 1 ? size[k] : 0;
  return dim;
}

// one ray's data fields in order (MuJoCo 3.10 on) at out, returning the end: dist (-1 on a
// miss), the ray's direction dir, its origin, the point hit (origin + dist dir), the surface
// normal there and the depth: a site's dist, a camera's the hit's distance along its view
// axis -z, (origin - point)'z with z the camera's z axis (cz; NULL for a site); on a miss
// direction, point and normal are 0 and depth -1
static mjtNum* rayData(mjtNum* out, int bits, mjtNum dist, const mjtNum origin[3],
                       const mjtNum dir[3], const mjtNum normal[3], const mjtNum* cz) {
  int hit = dist >= 0;
  mjtNum point[3];
  mju_copy3(point, origin);
  mju_addToScl3(point, dir, dist);
  mju_scl3(point, point, hit);
  if (bits & 1 << mjRAY_DIST) *out++ = dist;
  if (bits & 1 << mjRAY_DIR) {
    mju_scl3(out, dir, hit);
    out += 3;
  }
  if (bits & 1 << mjRAY_ORIGIN) {
    mju_copy3(out, origin);
    out += 3;
  }
  if (bits & 1 << mjRAY_POINT) {
    mju_copy3(out, point);
    out += 3;
  }
  if (bits & 1 << mjRAY_NORMAL) {
    mju_scl3(out, normal, hit);
    out += 3;
  }
  if (bits & 1 << mjRAY_DEPTH) {
    mjtNum rel[3];
    mju_sub3(rel, origin, point);
    *out++ = !hit ? -1 : cz ? mju_dot3(rel, cz) : dist;
  }
  return out;
}

// rangefinder sensor s: on a site one ray along its z axis from it; on a camera one ray per
// pixel (row by row from the top left, through the pixel's center (c + 1/2, r + 1/2)), its
// body's geoms excluded: perspective from the camera along R (x, y, -1) normalized with
// x = (c + 1/2 - cx) / fx, y = -(r + 1/2 - cy) / fy (mj_camIntrinsics); orthographic
// along -z from p + R (x e/2, y e/2, 0) with x = (c + 1/2)/(W/2) - 1, y = 1 - (r + 1/2)/(H/2)
// and e the camera's extent (its fovy)
static void rangefinder(const mjModel* m, const mjData* d, int s, mjtNum* out) {
  int id = m->sensor_objid[s], bits = m->sensor_intprm[3 * s];
  mjtNum normal[3], *pn = bits & 1 << mjRAY_NORMAL ? normal : NULL;
  if (m->sensor_objtype[s] != mjOBJ_CAMERA) {
    const mjtNum *mat = d->site_xmat + 9 * id, *origin = d->site_xpos + 3 * id;
    mjtNum dir[3] = {mat[2], mat[5], mat[8]};
    rayData(out, bits, mj_rangefinder(m, d, id, NULL, pn), origin, dir, normal, NULL);
    return;
  }
  const int *res = m->cam_resolution + 2 * id, ortho = m->cam_projection[id] != 0;
  const mjtNum *R = d->cam_xmat + 9 * id, *p = d->cam_xpos + 3 * id;
  mjtNum cz[3] = {R[2], R[5], R[8]}, f[2], ctr[2], half = 0.5 * m->cam_fovy[id];
  if (ortho) f[0] = ctr[0] = 0.5 * res[0], f[1] = ctr[1] = 0.5 * res[1];
  else mj_camIntrinsics(m, id, f, ctr);
  for (int r = 0; r < res[1]; r++)
    for (int c = 0; c < res[0]; c++) {
      mjtNum x = (c + 0.5 - ctr[0]) / f[0], y = -(r + 0.5 - ctr[1]) / f[1], origin[3], dir[3];
      if (ortho) {
        mjtNum off[3] = {x * half, y * half, 0};
        mju_mulMatVec3(origin, R, off);
        mju_addTo3(origin, p);
        mju_scl3(dir, cz, -1);
      } else {
        mjtNum v[3] = {x, y, -1};
        mju_copy3(origin, p);
        mju_mulMatVec3(dir, R, v);
        mju_normalize3(dir);
      }
      mjtNum dist = mj_ray(m, d, origin, dir, NULL, 1, m->cam_bodyid[id], NULL, pn);
      out = rayData(out, bits, dist, origin, dir, normal, cz);
    }
}

// the focal lengths f and principal point c in pixels of perspective camera cam (forward.h):
// with a sensor size, from the intrinsics (f_x, f_y, p_x, p_y) in float (the model's floats, as
// MuJoCo): f = (f_x / sensor_x W, f_y / sensor_y H), c = (p_x / sensor_x W, p_y / sensor_y H);
// else f = (H/2 / tan(fovy/2)) (1, 1) and c the image center (W/2, H/2); c may be NULL
void mj_camIntrinsics(const mjModel* m, int cam, mjtNum f[2], mjtNum c[2]) {
  const int* res = m->cam_resolution + 2 * cam;
  const float *sensor = m->cam_sensorsize + 2 * cam, *in = m->cam_intrinsic + 4 * cam;
  int intr = sensor[0] != 0 && sensor[1] != 0;
  for (int k = 0; k < 2; k++) {
    f[k] = intr ? in[k] / sensor[k] * res[k] : 0.5 * res[1] / tan(m->cam_fovy[cam] * mjPI / 360);
    if (c) c[k] = intr ? in[2 + k] / sensor[k] * res[k] : 0.5 * res[k];
  }
}

// camprojection: the site's position in the pixel coordinates of the camera (origin at the top
// left, not clipped; points behind the camera projected the same way).  With p the site in the
// camera frame (looking along -z, y up), W x H the resolution and fx, fy the focal lengths
// (mj_camIntrinsics):  u = W/2 + fx p_x / (-p_z),  v = H/2 - fy p_y / (-p_z);  the principal
// point and an orthographic projection are ignored (as MuJoCo 3.5.1 does)
static void camProjection(const mjModel* m, const mjData* d, int site, int cam, mjtNum out[2]) {
  const int* res = m->cam_resolution + 2 * cam;
  mjtNum dif[3], p[3], f[2];
  mj_camIntrinsics(m, cam, f, NULL);
  mju_sub3(dif, d->site_xpos + 3 * site, d->cam_xpos + 3 * cam);
  mju_mulMatTVec3(p, d->cam_xmat + 9 * cam, dif);
  out[0] = 0.5 * res[0] + f[0] * p[0] / -p[2];
  out[1] = 0.5 * res[1] - f[1] * p[1] / -p[2];
}

// 1 when point pos lies in the site's solid, else 0; with p the point in the site frame:
// sphere |p| <= r, capsule dist(p, z-segment of half-length h) <= r, ellipsoid
// sum (p_k / s_k)^2 <= 1, cylinder p_x^2 + p_y^2 <= r^2 and |p_z| <= h, box |p_k| <= s_k
static int pointInSite(const mjModel* m, const mjData* d, int site, const mjtNum pos[3]) {
  const mjtNum* sz = m->site_size + 3 * site;
  mjtNum dif[3], p[3];
  mju_sub3(dif, pos, d->site_xpos + 3 * site);
  mju_mulMatTVec3(p, d->site_xmat + 9 * site, dif);
  mjtNum r2 = sz[0] * sz[0], xy2 = p[0] * p[0] + p[1] * p[1];
  switch (m->site_type[site]) {
    case mjGEOM_SPHERE: return mju_dot3(p, p) <= r2;
    case mjGEOM_CAPSULE: {
      mjtNum z = fabs(p[2]) > sz[1] ? fabs(p[2]) - sz[1] : 0;
      return xy2 + z * z <= r2;
    }
    case mjGEOM_ELLIPSOID: {
      mjtNum e = 0;
      for (int k = 0; k < 3; k++) e += p[k] * p[k] / (sz[k] * sz[k]);
      return e <= 1;
    }
    case mjGEOM_CYLINDER: return xy2 <= r2 && fabs(p[2]) <= sz[1];
    case mjGEOM_BOX: return fabs(p[0]) <= sz[0] && fabs(p[1]) <= sz[1] && fabs(p[2]) <= sz[2];
    default: return 0;
  }
}

// insidesite: 1 when the object's frame origin lies in the site's solid, else 0
static mjtNum insideSite(const mjModel* m, const mjData* d, int s) {
  const mjtNum *pos, *mat;
  mjtNum quat[4];
  if (!frameOf(m, d, m->sensor_objtype[s], m->sensor_objid[s], &pos, &mat, quat)) return 0;
  return pointInSite(m, d, m->sensor_refid[s], pos);
}

// ---- contact sensor ----------------------------------------------------------------------------

// the reductions of sensor_intprm[1]
enum { REDUCE_NONE, REDUCE_MINDIST, REDUCE_MAXFORCE, REDUCE_NETFORCE };

// a matched contact: its index, whether its geoms are in the sensor's order swapped, and the
// key it is reduced by (smaller first)
typedef struct {
  mjtNum key;
  int con, flip;
} ConMatch;

// 1 when geom g of a contact at pos meets one side of a contact sensor: any geom (no object),
// the geom, a geom of the body, of the body's subtree (mjOBJ_XBODY; a parent's id is lower
// than its children's), or the site's solid holding pos
static int contactSide(const mjModel* m, const mjData* d, int type, int id, int g,
                       const mjtNum pos[3]) {
  int b = m->geom_bodyid[g];
  switch (type) {
    case mjOBJ_GEOM: return g == id;
    case mjOBJ_BODY: return b == id;
    case mjOBJ_XBODY:
      while (b > id) b = m->body_parentid[b];
      return b == id;
    case mjOBJ_SITE: return pointInSite(m, d, id, pos);
    default: return 1;
  }
}

// 1 when contact i matches sensor s: geom1 meets side 1 and geom2 side 2, or (flip = 1) the
// other way round
static int contactMatch(const mjModel* m, const mjData* d, int s, int i, int* flip) {
  const mjContact* con = d->contact + i;
  int t1 = m->sensor_objtype[s], id1 = m->sensor_objid[s];
  int t2 = m->sensor_reftype[s], id2 = m->sensor_refid[s];
  *flip = 0;
  if (contactSide(m, d, t1, id1, con->geom1, con->pos) &&
      contactSide(m, d, t2, id2, con->geom2, con->pos))
    return 1;
  *flip = 1;
  return contactSide(m, d, t1, id1, con->geom2, con->pos) &&
         contactSide(m, d, t2, id2, con->geom1, con->pos);
}

// force and torque of contact i in its frame as the sensor reports it: for a flipped contact
// the reaction in the frame with normal and first tangent reversed, which keeps the normal
// and first tangential components and negates the second
static void contactWrench(const mjModel* m, const mjData* d, int i, int flip, mjtNum f[6]) {
  mj_contactForce(m, d, i, f);
  if (flip) f[2] = -f[2], f[5] = -f[5];
}

// one slot of a contact sensor: the fields selected by bits (found, force, torque, dist, pos,
// normal, tangent, in this order) from w = {found, force[3], torque[3], dist, pos[3],
// normal[3], tangent[3]}
static void contactSlot(int bits, const mjtNum w[17], mjtNum* out) {
  static const int adr[7] = {0, 1, 4, 7, 8, 11, 14}, size[7] = {1, 3, 3, 1, 3, 3, 3};
  for (int k = 0; k < 7; k++) {
    if (!(bits >> k & 1)) continue;
    mju_copy(out, w + adr[k], size[k]);
    out += size[k];
  }
}

// netforce: one synthetic contact in the global frame (normal x, tangent y, dist 0) at the
// centroid c of the matching contacts weighted by their force norms (0 when all are zero),
// with their net force F = sum s_i F_i and torque about c T = sum s_i (T_i + (p_i - c) x F_i),
// F_i and T_i in world coordinates and s_i = -1 for flipped contacts
static void contactNetForce(const mjModel* m, const mjData* d, int s, mjtNum* out) {
  mjtNum w[17] = {0}, wsum = 0, f[6];
  mjtNum *force = w + 1, *torque = w + 4, *c = w + 8;
  int flip;
  w[11] = w[15] = 1;
  for (int i = 0; i < d->ncon; i++) {
    if (!contactMatch(m, d, s, i, &flip)) continue;
    w[0]++;
    mj_contactForce(m, d, i, f);
    mjtNum wi = mju_norm3(f);
    wsum += wi;
    mju_addToScl3(c, d->contact[i].pos, wi);
  }
  if (wsum > 0) mju_scl3(c, c, 1 / wsum);
  for (int i = 0; i < d->ncon; i++) {
    if (!contactMatch(m, d, s, i, &flip)) continue;
    const mjContact* con = d->contact + i;
    mjtNum fw[3], tw[3], r[3], rxf[3];
    mj_contactForce(m, d, i, f);
    mju_mulMatTVec3(fw, con->frame, f);
    mju_mulMatTVec3(tw, con->frame, f + 3);
    mju_sub3(r, con->pos, c);
    mju_cross(rxf, r, fw);
    mju_addTo3(tw, rxf);
    mju_addToScl3(force, fw, flip ? -1 : 1);
    mju_addToScl3(torque, tw, flip ? -1 : 1);
  }
  contactSlot(m->sensor_intprm[3 * s], w, out);
}

// contact sensor: the contacts matching its sides (either order), reduced to num slots of
// the data fields (none: the first in contact order, mindist: the smallest distances first,
// maxforce: the largest force norms first, ties in contact order; netforce: one synthetic
// contact); found is the number of matching contacts; slots left over stay zero
static void contactSensor(const mjModel* m, mjData* d, int s, mjtNum* out) {
  const int* prm = m->sensor_intprm + 3 * s;
  int bits = prm[0], reduce = prm[1], num = prm[2], slot = m->sensor_dim[s] / num;
  if (reduce == REDUCE_NETFORCE) {
    contactNetForce(m, d, s, out);
    return;
  }

  // the best num matches, sorted by key (stable)
  size_t mark = mj_markStack(d);
  ConMatch* best = (ConMatch*)mj_stackAlloc(d, (sizeof(ConMatch) * num + sizeof(mjtNum) - 1) /
                                                 sizeof(mjtNum));
  int n = 0, nbest = 0;
  for (int i = 0; i < d->ncon; i++) {
    int flip, k;
    mjtNum f[6], key = 0;
    if (!contactMatch(m, d, s, i, &flip)) continue;
    n++;
    if (reduce == REDUCE_MINDIST) key = d->contact[i].dist;
    if (reduce == REDUCE_MAXFORCE) {
      mj_contactForce(m, d, i, f);
      key = -mju_norm3(f);
    }
    for (k = nbest; k > 0 && best[k - 1].key > key; k--) {
      if (k < num) best[k] = best[k - 1];
    }
    if (k < num) best[k] = (ConMatch){key, i, flip};
    if (nbest < num) nbest++;
  }

  // the slots
  for (int k = 0; k < nbest; k++) {
    const mjContact* con = d->contact + best[k].con;
    mjtNum w[17], sgn = best[k].flip ? -1 : 1;
    w[0] = n;
    contactWrench(m, d, best[k].con, best[k].flip, w + 1);
    w[7] = con->dist;
    mju_copy3(w + 8, con->pos);
    mju_scl3(w + 11, con->frame, sgn);
    mju_scl3(w + 14, con->frame + 3, sgn);
    contactSlot(bits, w, out + k * slot);
  }
  mj_freeStack(d, mark);
}

// ---- the stages -------------------------------------------------------------------------------

// clamp sensor s's values out to its cutoff (real: both signs, positive: above; contact
// sensors ignore it)
static void cutoff(const mjModel* m, int s, mjtNum* out) {
  mjtNum c = m->sensor_cutoff[s];
  int type = m->sensor_datatype[s];
  if (c <= 0 || (type != mjDATATYPE_REAL && type != mjDATATYPE_POSITIVE)) return;
  if (m->sensor_type[s] == mjSENS_CONTACT) return;
  for (int k = 0; k < m->sensor_dim[s]; k++) {
    out[k] = fmin(c, out[k]);
    if (type == mjDATATYPE_REAL) out[k] = fmax(-c, out[k]);
  }
}

// 1 when some sensor of `stage` has one of the `n` types
static int anySensor(const mjModel* m, int stage, const int* types, int n) {
  for (int s = 0; s < m->nsensor; s++) {
    if (m->sensor_needstage[s] != stage) continue;
    for (int k = 0; k < n; k++)
      if (m->sensor_type[s] == types[k]) return 1;
  }
  return 0;
}

// the geoms of a distance sensor's object (geom or body): first id and count
static void sensorGeoms(const mjModel* m, int type, int id, int* adr, int* num) {
  *adr = type == mjOBJ_GEOM ? id : m->body_geomadr[id];
  *num = type == mjOBJ_GEOM ? 1 : m->body_geomnum[id];
}

// the nearest pair of geom distance sensor s's geoms (forward.h)
mjtNum mj_sensorGeomPair(const mjModel* m, const mjData* d, int s, int pair[2],
                         mjtNum fromto[6]) {
  int adr1, num1, adr2, num2;
  sensorGeoms(m, m->sensor_objtype[s], m->sensor_objid[s], &adr1, &num1);
  sensorGeoms(m, m->sensor_reftype[s], m->sensor_refid[s], &adr2, &num2);
  mjtNum cutoff = m->sensor_cutoff[s], dist = cutoff, ft[6];
  pair[0] = pair[1] = -1;
  mju_zero(fromto, 6);
  for (int i = adr1; i < adr1 + num1; i++) {
    for (int j = adr2; j < adr2 + num2; j++) {
      mjtNum dij = mj_geomDistance(m, d, i, j, cutoff, ft);
      if (dij < dist) {
        dist = dij;
        pair[0] = i, pair[1] = j;
        mju_copy(fromto, ft, 6);
      }
    }
  }
  return dist;
}

// distance, normal and fromto sensors: the nearest pair of the two objects' geoms within the
// cutoff (mj_geomDistance with distmax = cutoff); distance: its signed distance (the cutoff
// when none is nearer), fromto: the segment from object 1's surface to object 2's, normal:
// that segment's direction (reversed in penetration; zero when there is none)
static void geomDistSensor(const mjModel* m, const mjData* d, int s, mjtNum* out) {
  int pair[2];
  mjtNum fromto[6], dist = mj_sensorGeomPair(m, d, s, pair, fromto);
  switch (m->sensor_type[s]) {
    case mjSENS_GEOMDIST: out[0] = dist; break;
    case mjSENS_GEOMFROMTO: mju_copy(out, fromto, 6); break;
    default:
      mju_sub3(out, fromto + 3, fromto);
      if (mju_norm3(out) > mjMINVAL) mju_normalize3(out);
      else mju_zero3(out);
  }
}

// one sensor of the position stage
static void sensorPos(const mjModel* m, mjData* d, int s, mjtNum* out) {
  int id = m->sensor_objid[s];
  switch (m->sensor_type[s]) {
    case mjSENS_MAGNETOMETER:
      mju_mulMatTVec3(out, d->site_xmat + 9 * id, m->opt.magnetic);
      break;
    case mjSENS_RANGEFINDER: rangefinder(m, d, s, out); break;
    case mjSENS_CAMPROJECTION: camProjection(m, d, id, m->sensor_refid[s], out); break;
    case mjSENS_INSIDESITE: out[0] = insideSite(m, d, s); break;
    case mjSENS_GEOMDIST: case mjSENS_GEOMNORMAL: case mjSENS_GEOMFROMTO:
      geomDistSensor(m, d, s, out);
      break;
    case mjSENS_JOINTPOS: out[0] = d->qpos[m->jnt_qposadr[id]]; break;
    case mjSENS_TENDONPOS: out[0] = d->ten_length[id]; break;
    case mjSENS_ACTUATORPOS: out[0] = d->actuator_length[id]; break;
    case mjSENS_BALLQUAT:
      mju_copy4(out, d->qpos + m->jnt_qposadr[id]);
      mju_normalize4(out);
      break;
    case mjSENS_FRAMEPOS: case mjSENS_FRAMEQUAT: case mjSENS_FRAMEXAXIS:
    case mjSENS_FRAMEYAXIS: case mjSENS_FRAMEZAXIS:
      framePosSensor(m, d, s, out);
      break;
    case mjSENS_SUBTREECOM: mju_copy3(out, d->subtree_com + 3 * id); break;
    case mjSENS_CLOCK: out[0] = d->time; break;
    case mjSENS_JOINTLIMITPOS:
    case mjSENS_TENDONLIMITPOS: {
      int row = mj_sensorLimitRow(m, d, s);
      if (row >= 0) out[0] = d->efc_pos[row] - d->efc_margin[row];
      break;
    }
    case mjSENS_E_POTENTIAL:
      if (!(m->opt.enableflags & mjENBL_ENERGY)) mj_energyPos(m, d);
      out[0] = d->energy[0];
      break;
    default: break;
  }
}

// one sensor of the velocity stage
static void sensorVel(const mjModel* m, mjData* d, int s, mjtNum* out) {
  int id = m->sensor_objid[s];
  mjtNum vel[6];
  switch (m->sensor_type[s]) {
    case mjSENS_VELOCIMETER:
    case mjSENS_GYRO:
      mj_objectVelocity(m, d, mjOBJ_SITE, id, vel, 1);
      mju_copy3(out, m->sensor_type[s] == mjSENS_GYRO ? vel : vel + 3);
      break;
    case mjSENS_JOINTVEL: out[0] = d->qvel[m->jnt_dofadr[id]]; break;
    case mjSENS_TENDONVEL: out[0] = d->ten_velocity[id]; break;
    case mjSENS_ACTUATORVEL: out[0] = d->actuator_velocity[id]; break;
    case mjSENS_BALLANGVEL: mju_copy3(out, d->qvel + m->jnt_dofadr[id]); break;
    case mjSENS_FRAMELINVEL: case mjSENS_FRAMEANGVEL: frameVelSensor(m, d, s, out); break;
    case mjSENS_SUBTREELINVEL: mju_copy3(out, d->subtree_linvel + 3 * id); break;
    case mjSENS_SUBTREEANGMOM: mju_copy3(out, d->subtree_angmom + 3 * id); break;
    case mjSENS_JOINTLIMITVEL:
    case mjSENS_TENDONLIMITVEL: {
      int row = mj_sensorLimitRow(m, d, s);
      if (row >= 0) out[0] = d->efc_vel[row];
      break;
    }
    case mjSENS_E_KINETIC:
      if (!(m->opt.enableflags & mjENBL_ENERGY)) mj_energyVel(m, d);
      out[0] = d->energy[1];
      break;
    default: break;
  }
}

// one sensor of the acceleration stage; a touch sensor's sum read from touch[s] when given
// (touchPass)
static void sensorAcc(const mjModel* m, mjData* d, int s, mjtNum* out, const mjtNum* touch) {
  int id = m->sensor_objid[s];
  mjtNum v6[6];
  switch (m->sensor_type[s]) {
    case mjSENS_ACCELEROMETER:
      mj_objectAcceleration(m, d, mjOBJ_SITE, id, v6, 1);
      mju_copy3(out, v6 + 3);
      break;
    case mjSENS_FORCE:
    case mjSENS_TORQUE:
      siteForce(m, d, id, v6);
      mju_copy3(out, m->sensor_type[s] == mjSENS_FORCE ? v6 + 3 : v6);
      break;
    case mjSENS_TOUCH: out[0] = touch ? touch[s] : touchSensor(m, d, id); break;
    case mjSENS_CONTACT: contactSensor(m, d, s, out); break;
    case mjSENS_JOINTLIMITFRC:
    case mjSENS_TENDONLIMITFRC: {
      int row = mj_sensorLimitRow(m, d, s);
      if (row >= 0) out[0] = d->efc_force[row];
      break;
    }
    case mjSENS_ACTUATORFRC: out[0] = d->actuator_force[id]; break;
    case mjSENS_JOINTACTFRC: out[0] = d->qfrc_actuator[m->jnt_dofadr[id]]; break;
    case mjSENS_TENDONACTFRC:
      // total force of the actuators transmitting through the tendon
      out[0] = 0;
      for (int i = 0; i < m->nu; i++)
        if (m->actuator_trntype[i] == mjTRN_TENDON && m->actuator_trnid[2 * i] == id)
          out[0] += d->actuator_force[i];
      break;
    case mjSENS_FRAMELINACC:
    case mjSENS_FRAMEANGACC:
      mj_objectAcceleration(m, d, m->sensor_objtype[s], id, v6, 0);
      mju_copy3(out, m->sensor_type[s] == mjSENS_FRAMEANGACC ? v6 : v6 + 3);
      break;
    default: break;
  }
}

// sensor s computed by its stage's function, touch sums from touch[s] when given
static void computeSensor(const mjModel* m, mjData* d, int s, mjtNum* out, const mjtNum* touch) {
  mju_zero(out, m->sensor_dim[s]);
  switch (m->sensor_needstage[s]) {
    case mjSTAGE_POS: sensorPos(m, d, s, out); break;
    case mjSTAGE_VEL: sensorVel(m, d, s, out); break;
    default: sensorAcc(m, d, s, out, touch); break;
  }
  cutoff(m, s, out);
}

// sensor s computed by its stage's function (forward.h)
void mj_computeSensor(const mjModel* m, mjData* d, int s, mjtNum* out) {
  computeSensor(m, d, s, out, NULL);
}

// 1 when the sensor stage reads sensor s from its history buffer instead of computing it:
// delayed (at time - delay), or periodic between its ticks (its last tick in buf[0]); a user
// sensor never (zeros, as MuJoCo's without its callback)
static int fromHistory(const mjModel* m, const mjData* d, int s) {
  if (!m->nhistory || m->sensor_history[2 * s] <= 0 || m->sensor_type[s] == mjSENS_USER)
    return 0;
  mjtNum period = m->sensor_interval[2 * s];
  const mjtNum* buf = d->history + m->sensor_historyadr[s];
  return m->sensor_delay[s] > 0 || (period > 0 && buf[0] + period > d->time);
}

// every sensor of `stage` into sensordata: computed (touch sums from touch[s] when given), or
// read from its history buffer
static void sensorStage(const mjModel* m, mjData* d, int stage, const mjtNum* touch) {
  if (m->opt.disableflags & mjDSBL_SENSOR) return;
  for (int s = 0; s < m->nsensor; s++) {
    if (m->sensor_needstage[s] != stage) continue;
    mjtNum* out = d->sensordata + m->sensor_adr[s];
    if (fromHistory(m, d, s)) mj_delayedSensor(m, d, s, out);
    else computeSensor(m, d, s, out, touch);
  }
}

// position-stage sensors
void mj_sensorPos(const mjModel* m, mjData* d) { sensorStage(m, d, mjSTAGE_POS, NULL); }

// velocity-stage sensors (subtree velocities first when a sensor reads them, or may: a user
// sensor; the angular momenta only then)
void mj_sensorVel(const mjModel* m, mjData* d) {
  static const int sub[3] = {mjSENS_SUBTREEANGMOM, mjSENS_USER, mjSENS_SUBTREELINVEL};
  if (m->opt.disableflags & mjDSBL_SENSOR) return;
  if (anySensor(m, mjSTAGE_VEL, sub, 2)) mj_subtreeVel(m, d);
  else if (anySensor(m, mjSTAGE_VEL, sub + 2, 1)) mj_subtreeVelPart(m, d, 0);
  sensorStage(m, d, mjSTAGE_VEL, NULL);
}

// 1 when sensor s reads mj_rnePostConstraint's outputs, or may: a user sensor (forward.h)
int mj_sensorPostConstraint(const mjModel* m, int s) {
  switch (m->sensor_type[s]) {
    case mjSENS_ACCELEROMETER: case mjSENS_FORCE: case mjSENS_TORQUE:
    case mjSENS_FRAMELINACC: case mjSENS_FRAMEANGACC: case mjSENS_USER:
      return 1;
    default: return 0;
  }
}

// cacc, cfrc_int and cfrc_ext for the acceleration-stage sensors reading them, delayed ones
// included (history.c computes those from them): cacc of the bodies of accelerometers and
// frame accelerations, cfrc_int of force and torque sensors' (mj_rnePostPart); of every body
// when a user sensor may read any, or the stack has no room for the marks
static void postSensors(const mjModel* m, mjData* d) {
  size_t mark = mj_markStack(d), nbody = (size_t)m->nbody;
  unsigned char* acc = (unsigned char*)mj_stackAlloc(d, (2 * nbody + 7) / 8);
  unsigned char* frc = acc ? acc + nbody : NULL;
  int any = 0, all = !acc;
  if (acc) memset(acc, 0, 2 * nbody);
  for (int s = 0; s < m->nsensor; s++) {
    if (m->sensor_needstage[s] != mjSTAGE_ACC || !mj_sensorPostConstraint(m, s)) continue;
    int type = m->sensor_type[s], id = m->sensor_objid[s];
    any = 1;
    if (type == mjSENS_USER) all = 1;
    if (all) break;
    if (type == mjSENS_FORCE || type == mjSENS_TORQUE) {
      frc[m->site_bodyid[id]] = 1;
    } else {
      // accelerometer (a site), frame accelerations (any object): mj_objectAcceleration
      const mjtNum *pos, *mat;
      int b = mj_objectFrame(m, d, m->sensor_objtype[s], id, &pos, &mat) - 1;
      if (b >= 0) acc[b] = 1;
    }
  }
  if (any) mj_rnePostPart(m, d, all ? NULL : acc, all ? NULL : frc);
  mj_freeStack(d, mark);
}

// the touch sensors the stage computes (not from history) in one pass over the contacts, into
// touch[s]: the sensors listed by their site's body (first[b], next[s]), each contact's force
// computed once for the sensors on its bodies and counted where mj_touchContact counts it, in
// contact order (touchSensor's sums bit for bit); 0 when the stack has no room for the lists
static int touchPass(const mjModel* m, mjData* d, mjtNum* touch) {
  int nbody = m->nbody, any = 0;
  size_t mark = mj_markStack(d);
  int* first = (int*)mj_stackAlloc(d, ((size_t)nbody + m->nsensor + 1) / 2);
  if (!first) return 0;
  int* next = first + nbody;
  for (int b = 0; b < nbody; b++) first[b] = -1;
  for (int s = 0; s < m->nsensor; s++) {
    if (m->sensor_type[s] != mjSENS_TOUCH || m->sensor_needstage[s] != mjSTAGE_ACC ||
        fromHistory(m, d, s))
      continue;
    int b = m->site_bodyid[m->sensor_objid[s]];
    next[s] = first[b], first[b] = s, touch[s] = 0, any = 1;
  }

  // each contact with rows, a touch sensor on one of its bodies and a positive normal force:
  // the sensors on body 1, then those on body 2 (when another body), whose site its ray meets
  for (int i = 0; i < d->ncon && any; i++) {
    const mjContact* con = d->contact + i;
    int b1 = m->geom_bodyid[con->geom1], b2 = m->geom_bodyid[con->geom2];
    if (con->efc_address < 0 || (first[b1] < 0 && first[b2] < 0)) continue;
    mjtNum f[6];
    mj_contactForce(m, d, i, f);
    if (f[0] <= 0) continue;
    for (int s = first[b1]; s >= 0; s = next[s])
      if (touchRay(m, d, m->sensor_objid[s], con, b1 == b2)) touch[s] += f[0];
    for (int s = b2 != b1 ? first[b2] : -1; s >= 0; s = next[s])
      if (touchRay(m, d, m->sensor_objid[s], con, 1)) touch[s] += f[0];
  }
  mj_freeStack(d, mark);
  return 1;
}

// acceleration-stage sensors: cacc, cfrc_int, cfrc_ext first for those reading them (or which
// may: a user sensor), the touch sensors' sums in one pass over the contacts (or each
// sensor's own when the stack has no room)
void mj_sensorAcc(const mjModel* m, mjData* d) {
  if (m->opt.disableflags & mjDSBL_SENSOR) return;
  postSensors(m, d);
  size_t mark = mj_markStack(d);
  mjtNum* touch = mj_stackAlloc(d, (size_t)m->nsensor);
  if (touch && !touchPass(m, d, touch)) touch = NULL;
  sensorStage(m, d, mjSTAGE_ACC, touch);
  mj_freeStack(d, mark);
}

// ---- energy ----------------------------------------------------------------------------------

// potential energy: -m g . x of every body, integral_0^x t c(t) dt of joint and tendon springs
// (mju_polyPotential: k x^2/2 with the polynomial's terms; x the norm of a free or ball
// joint's offset)
void mj_energyPos(const mjModel* m, mjData* d) {
  mjtNum e = 0;

  // gravity
  if (!(m->opt.disableflags & mjDSBL_GRAVITY))
    for (int b = 1; b < m->nbody; b++)
      e -= m->body_mass[b] * mju_dot3(m->opt.gravity, d->xipos + 3 * b);

  // springs
  if (!(m->opt.disableflags & mjDSBL_SPRING)) {
    for (int j = 0; j < m->njnt; j++) {
      mjtNum k = m->jnt_stiffness[j];
      const mjtNum* p = m->jnt_stiffnesspoly + mjNPOLY * j;
      if (k == 0 && mju_isZero(p, mjNPOLY)) continue;
      int adr = m->jnt_qposadr[j];
      const mjtNum *q = d->qpos + adr, *q0 = m->qpos_spring + adr;
      mjtNum dif[3], quat[4];
      switch (m->jnt_type[j]) {
        case mjJNT_FREE:
          mju_sub3(dif, q, q0);
          e += mju_polyPotential(k, p, mju_norm3(dif), 0);
          q += 3, q0 += 3;
          // fall through
        case mjJNT_BALL:
          mju_copy4(quat, q);
          mju_normalize4(quat);
          mju_subQuat(dif, quat, q0);
          e += mju_polyPotential(k, p, mju_norm3(dif), 0);
          break;
        default: e += mju_polyPotential(k, p, q[0] - q0[0], 0); break;
      }
    }
    for (int t = 0; t < m->ntendon; t++) {
      mjtNum dx = mj_tendonStretch(m, d, t, NULL);
      e += mju_polyPotential(m->tendon_stiffness[t], m->tendon_stiffnesspoly + mjNPOLY * t, dx, 0);
    }
  }
  d->energy[0] = e;
}

// kinetic energy 0.5 v' M v
void mj_energyVel(const mjModel* m, mjData* d) {
  size_t mark = mj_markStack(d);
  mjtNum* mv = mj_stackAlloc(d, (size_t)m->nv);
  mj_mulM(m, d, mv, d->qvel);
  d->energy[1] = 0.5 * mju_dot(mv, d->qvel, m->nv);
  mj_freeStack(d, mark);
}
