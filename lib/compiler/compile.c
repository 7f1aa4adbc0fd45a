// compile.c: the model build of the MJCF compiler: the records that mjcf_read.c and
// mjcf_asset.c collected become an mjModel.  The sections of <mujoco> are read in MuJoCo's fixed
// order (compiler, option, size, visual, statistic, default, custom, asset, deformable,
// worldbody, contact, equality, tendon, actuator, sensor, keyframe), fusestatic and the body
// order are applied, then the model is sized, every array filled and mj_setConst run.  Errors
// longjmp back to mj_compileTree with a one-line message "file:line: element 'name': problem".
#include "compiler/compile.h"

#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/constraint.h"
#include "engine/island.h"
#include "compiler/mjcf.h"
#include "compiler/urdf.h"
#include "engine/model.h"
#include "engine/smooth.h"
#include "util/util.h"

// ---- frames and limits -------------------------------------------------------------------------

// 1 when quaternions a and b are the same rotation: equal, or opposite (q and -q)
static int sameRotation(const double a[4], const double b[4]) {
  double nb[4] = {-b[0], -b[1], -b[2], -b[3]};
  return mjcf_same(a, b, 4) || mjcf_same(a, nb, 4);
}

// MuJoCo's same-frame code of a pose against the body frame and the inertial frame, tested
// in this order: 1 body frame, 3 body orientation, 2 inertial frame, 4 inertial orientation,
// else 0 (orientations as rotations: a quaternion and its negative are the same)
static int sameFrame(const double pos[3], const double quat[4], const double ipos[3],
                     const double iquat[4]) {
  static const double zero[3] = {0, 0, 0}, unit[4] = {1, 0, 0, 0};
  if (sameRotation(quat, unit)) return mjcf_same(pos, zero, 3) ? 1 : 3;
  if (ipos && sameRotation(quat, iquat)) return mjcf_same(pos, ipos, 3) ? 2 : 4;
  return 0;
}

// resolve a limited flag (0, 1, 2 auto) against its range; when limited and ordered, checks
// that lower is below upper (not for a ball joint, whose range is "0 angle", "0 0" allowed)
static int resolveLimited(Ctx* c, const mjXNode* e, int limited, const double range[2],
                          const char* what, int ordered) {
  int hasrange = range[0] != 0 || range[1] != 0;
  if (limited == 2) {
    if (!c->autolimits && hasrange)
      mjcf_fail(c, e, "%s is given without limited and autolimits is false", what);
    limited = c->autolimits && hasrange;
  }
  if (limited && ordered && range[0] >= range[1])
    mjcf_fail(c, e, "invalid %s: lower must be below upper", what);
  return limited;
}

// ---- the model -------------------------------------------------------------------------------

// a camera's intrinsics as MuJoCo computes them: with a sensor size (which needs a resolution),
// focal length and principal point from pixels (p / (resolution / sensorsize), in float) or
// else from lengths, and fovy = atan2(sensorsize_y / 2, focal_y) in degrees (atan2 in float,
// as MuJoCo's C++ picks it for floats); without, focal lengths at <visual> znear, principal 0
static void cameraIntrinsics(Ctx* c, const mjXNode* e, const CamSpec* s, float intrinsic[4],
                             mjtNum* fovy) {
  const float *fl = s->focal, *fp = s->focalpixel, *pl = s->principal, *pp = s->principalpixel;
  int given = fl[0] || fl[1] || fp[0] || fp[1] || pl[0] || pl[1] || pp[0] || pp[1];
  int sensor = s->sensorsize[0] > 0 && s->sensorsize[1] > 0;
  if (given && !sensor) mjcf_fail(c, e, "focal/principal require sensorsize");
  if (!sensor) {
    intrinsic[0] = intrinsic[1] = c->vis.map_znear;
    intrinsic[2] = intrinsic[3] = 0;
    return;
  }
  float density[2];
  for (int k = 0; k < 2; k++) {
    density[k] = (float)s->resolution[k] / s->sensorsize[k];
    intrinsic[k] = fp[k] ? fp[k] / density[k] : fl[k];
    intrinsic[2 + k] = pp[k] ? pp[k] / density[k] : pl[k];
  }
  *fovy = atan2f(s->sensorsize[1] / 2, intrinsic[1]) * 360.0 / mjPI;
}

// 1 for the joints that rotate their body: hinge and ball
static int jointRotates(int type) { return type == mjJNT_HINGE || type == mjJNT_BALL; }

// dofs and qpos numbers of a joint type
int mjcf_jointDofs(int type) { return type == mjJNT_FREE ? 6 : type == mjJNT_BALL ? 3 : 1; }
int mjcf_jointQpos(int type) { return type == mjJNT_FREE ? 7 : type == mjJNT_BALL ? 4 : 1; }

// material id named by `name` (NULL: -1), referenced by e
int mjcf_matId(Ctx* c, const mjXNode* e, const char* name) {
  return name && !c->discardvisual ? mjcf_findId(c, e, K_MAT, name, "material") : -1;
}

// body id named by `name` (NULL: -1), referenced by e
static int bodyRef(Ctx* c, const mjXNode* e, const char* name) {
  return name ? mjcf_findId(c, e, K_BODY, name, "target") : -1;
}

// append s (or "" for NULL) to the names buffer at *pos, recording its address
void mjcf_putName(char* buf, int* pos, int* adr, const char* s) {
  if (!s) s = "";
  size_t n = strlen(s) + 1;
  if (buf) memcpy(buf + *pos, s, n);
  if (adr) *adr = *pos;
  *pos += (int)n;
}

// every name in MuJoCo's order: model, bodies, joints, geoms, sites, cameras, lights,
// textures, materials, pairs, excludes, equalities, tendons, actuators, sensors, numeric,
// text and tuple fields, keys; returns the length (buf NULL: just measure)
static int writeNames(Ctx* c, mjModel* m) {
  static const int order[] = {K_BODY, K_JOINT, K_GEOM, K_SITE, K_CAM, K_LIGHT, K_MESH, K_SKIN,
                              K_HFIELD, K_TEX, K_MAT, K_PAIR, K_EXCLUDE, K_EQ, K_TENDON, K_ACT,
                              K_SENSOR, K_NUMERIC, K_TEXT, K_TUPLE, K_KEY};
  int* adr[NKIND] = {NULL};
  if (m) {
    adr[K_BODY] = m->name_bodyadr, adr[K_JOINT] = m->name_jntadr;
    adr[K_GEOM] = m->name_geomadr, adr[K_SITE] = m->name_siteadr;
    adr[K_CAM] = m->name_camadr, adr[K_LIGHT] = m->name_lightadr;
    adr[K_MESH] = m->name_meshadr, adr[K_SKIN] = m->name_skinadr;
    adr[K_HFIELD] = m->name_hfieldadr;
    adr[K_TEX] = m->name_texadr, adr[K_MAT] = m->name_matadr;
    adr[K_PAIR] = m->name_pairadr, adr[K_EXCLUDE] = m->name_excludeadr;
    adr[K_EQ] = m->name_eqadr, adr[K_TENDON] = m->name_tendonadr;
    adr[K_ACT] = m->name_actuatoradr, adr[K_SENSOR] = m->name_sensoradr;
    adr[K_NUMERIC] = m->name_numericadr, adr[K_TEXT] = m->name_textadr;
    adr[K_TUPLE] = m->name_tupleadr, adr[K_KEY] = m->name_keyadr;
  }
  char* buf = m ? m->names : NULL;
  int pos = 0;
  mjcf_putName(buf, &pos, NULL, c->modelname);
  for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
    const Vec* v = &c->obj[order[k]];
    for (int i = 0; i < v->n; i++)
      mjcf_putName(buf, &pos, adr[order[k]] ? adr[order[k]] + i : NULL,
                   ((const Head*)v->p[i])->name);
  }
  return pos;
}

// element i's user numbers u into row i of an array of n columns (the rest stay zero)
static void putUser(mjtNum* a, int i, int n, const User* u) {
  for (int k = 0; k < u->n; k++) a[(size_t)i * n + k] = u->v[k];
}

// the body arrays except inertia: tree ids, joint/dof/geom ranges, poses, mocap, simple flags
static void fillBodies(Ctx* c, mjModel* m) {
  int nmocap = 0, ntree = 0;
  for (int b = 0; b < m->nbody; b++) {
    const Body* bd = c->obj[K_BODY].p[b];
    int p = b ? bd->parent : 0;
    m->body_parentid[b] = p;
    m->body_rootid[b] = b == 0 ? 0 : p == 0 ? b : m->body_rootid[p];
    // a body with joints or a mocap body heads its weld group (MuJoCo 3.12 on for mocap)
    m->body_weldid[b] = b == 0 ? 0 : m->body_jntnum[b] || bd->mocap ? b : m->body_weldid[p];
    m->body_mocapid[b] = bd->mocap ? nmocap++ : -1;
    // a tree starts at each body with dofs whose parent's chain has none
    m->body_treeid[b] = mj_bodyLastDof(m, b) < 0 ? -1
                      : mj_bodyLastDof(m, p) < 0 ? ntree++ : m->body_treeid[p];
    if (b == 0) {
      mju_unit4(m->body_quat);
      mju_unit4(m->body_iquat);
    } else {
      mju_copy3(m->body_pos + 3 * b, bd->pos);
      mju_copy4(m->body_quat + 4 * b, bd->quat);
      mju_normalize4(m->body_quat + 4 * b);
      mju_copy3(m->body_ipos + 3 * b, bd->ipos);
      mju_copy4(m->body_iquat + 4 * b, bd->iquat);
      m->body_mass[b] = bd->mass;
      mju_copy3(m->body_inertia + 3 * b, bd->inertia);
    }
    m->body_gravcomp[b] = bd->gravcomp;
    putUser(m->body_user, b, m->nuser_body, &bd->user);
    int sf = sameFrame(m->body_ipos + 3 * b, m->body_iquat + 4 * b, NULL, NULL);
    m->body_sameframe[b] = (unsigned char)(sf == 1 || sf == 3 ? sf : 0);
  }
  // moving bodies must have mass and inertia, their own or a welded descendant's (one body
  // with all of mass, I1, I2, I3 >= mjMINVAL; a NaN fails, as in MuJoCo)
  for (int b = 1; b < m->nbody; b++) {
    if (!m->body_dofnum[b]) continue;
    int ok = 0;
    for (int k = b; k < m->nbody && !ok; k++) {
      const mjtNum* I = m->body_inertia + 3 * k;
      ok = (k == b || m->body_weldid[k] == b) && m->body_mass[k] >= mjMINVAL &&
           I[0] >= mjMINVAL && I[1] >= mjMINVAL && I[2] >= mjMINVAL;
    }
    if (!ok)
      mjcf_fail(c, ((Body*)c->obj[K_BODY].p[b])->h.e,
                "mass and inertia of moving bodies must be larger than mjMINVAL");
  }
}

// body_simple and dof_simplenum: bodies whose dofs give a constant diagonal block of M (after
// the tendons: tendon armature can couple them)
static void fillSimple(mjModel* m) {
  m->body_simple[0] = 1;
  for (int b = 1; b < m->nbody; b++) {
    int simple = m->body_sameframe[b] == 1 && mj_bodyLastDof(m, m->body_parentid[b]) < 0;
    // no child bodies
    for (int k = b + 1; k < m->nbody && simple; k++)
      if (m->body_parentid[k] == b) simple = 0;
    // joints at the body origin with axes along the body's coordinate axes, and at most one
    // rotation, which comes last (a rotation moves the axes of the joints after it)
    int slides = m->body_jntnum[b] > 0, rotated = 0;
    for (int j = m->body_jntadr[b]; j >= 0 && j < m->body_jntadr[b] + m->body_jntnum[b]; j++) {
      const mjtNum* a = m->jnt_axis + 3 * j;
      int zeros = (fabs(a[0]) < mjMINVAL) + (fabs(a[1]) < mjMINVAL) + (fabs(a[2]) < mjMINVAL);
      int t = m->jnt_type[j];
      if (mju_norm3(m->jnt_pos + 3 * j) > mjMINVAL) simple = 0;
      if ((t == mjJNT_HINGE || t == mjJNT_SLIDE) && zeros != 2) simple = 0;
      if (rotated) simple = 0;
      if (t != mjJNT_SLIDE) slides = 0, rotated = 1;
    }
    m->body_simple[b] = (unsigned char)(simple ? (slides ? 2 : 1) : 0);
  }
  // as in MuJoCo 3.5.1, bodies holding a site of a spatial tendon with armature (world too)
  for (int t = 0; t < m->ntendon; t++) {
    if (m->tendon_armature[t] == 0) continue;
    for (int k = m->tendon_adr[t]; k < m->tendon_adr[t] + m->tendon_num[t]; k++)
      if (m->wrap_type[k] == mjWRAP_SITE) m->body_simple[m->site_bodyid[m->wrap_objid[k]]] = 0;
  }
  // consecutive dofs of simple bodies, counted to the end of each run
  for (int i = m->nv - 1; i >= 0; i--) {
    int simple = m->body_simple[m->dof_bodyid[i]] != 0;
    m->dof_simplenum[i] = simple ? 1 + (i + 1 < m->nv ? m->dof_simplenum[i + 1] : 0) : 0;
  }
}

// joints and dofs: addresses, parameters in radians, qpos0 and qpos_spring, the dof tree and
// the sparse inertia layout (row i holds dof i and its ancestors, diagonal first)
static void fillJoints(Ctx* c, mjModel* m) {
  int qadr = 0, vadr = 0;
  int* depth = mjcf_alloc(c, sizeof(int) * (m->nv + 1));
  for (int j = 0; j < m->njnt; j++) {
    Item* it = c->obj[K_JOINT].p[j];
    JointSpec* s = &it->s.joint;
    const Body* bd = c->obj[K_BODY].p[it->body];
    int t = s->type, angular = t == mjJNT_HINGE || t == mjJNT_BALL;
    double scale = it->degree ? mjPI / 180 : 1;  // the unit of the file the joint came from
    m->jnt_type[j] = t;
    m->jnt_qposadr[j] = qadr;
    m->jnt_dofadr[j] = vadr;
    m->jnt_bodyid[j] = it->body;
    m->jnt_group[j] = s->group;
    // limits: free joints have none; angles of limited joints in radians (MuJoCo leaves the
    // range of an unlimited joint as written)
    double range[2] = {s->range[0], s->range[1]};
    m->jnt_limited[j] = (unsigned char)(t == mjJNT_FREE ? 0
                        : resolveLimited(c, it->h.e, s->limited, range, "joint range",
                                         t != mjJNT_BALL));
    if (angular && m->jnt_limited[j]) range[0] *= scale, range[1] *= scale;
    if (t == mjJNT_BALL && m->jnt_limited[j] && range[0] != 0)
      mjcf_fail(c, it->h.e, "ball joint range[0] must be 0");
    // free and ball joints take no actuator force limit (MuJoCo: not even when asked for)
    m->jnt_actfrclimited[j] = (unsigned char)(t == mjJNT_FREE || t == mjJNT_BALL
      ? 0 : resolveLimited(c, it->h.e, s->actfrclimited, s->actfrcrange, "actuatorfrcrange", 1));
    m->jnt_actgravcomp[j] = (unsigned char)s->actgravcomp;
    memcpy(m->jnt_solref + 2 * j, s->solref_lim, sizeof(s->solref_lim));
    memcpy(m->jnt_solimp + 5 * j, s->solimp_lim, sizeof(s->solimp_lim));
    mju_copy3(m->jnt_pos + 3 * j, it->pos);
    // the axis of a hinge or slide; ball and free joints have none (MuJoCo: 0 0 1, whatever
    // the file or a default class says)
    if (t == mjJNT_BALL || t == mjJNT_FREE) mju_copy3(m->jnt_axis + 3 * j, (double[3]){0, 0, 1});
    else mju_copy3(m->jnt_axis + 3 * j, s->axis);
    m->jnt_stiffness[j] = s->stiffness[0];
    mju_copy(m->jnt_stiffnesspoly + mjNPOLY * j, s->stiffness + 1, mjNPOLY);
    memcpy(m->jnt_range + 2 * j, range, sizeof(range));
    memcpy(m->jnt_actfrcrange + 2 * j, s->actfrcrange, sizeof(s->actfrcrange));
    m->jnt_margin[j] = s->margin;
    putUser(m->jnt_user, j, m->nuser_jnt, &s->user);
    // qpos0 and the spring reference
    mjtNum* q0 = m->qpos0 + qadr;
    mjtNum* qs = m->qpos_spring + qadr;
    if (t == mjJNT_FREE) {
      mju_copy3(q0, bd->pos);
      mju_copy4(q0 + 3, m->body_quat + 4 * it->body);
      mju_copy(qs, q0, 7);
    } else if (t == mjJNT_BALL) {
      mju_unit4(q0);
      mju_unit4(qs);
    } else {
      q0[0] = s->ref * (angular ? scale : 1);
      qs[0] = s->springref * (angular ? scale : 1);
    }
    // dofs with the joint's friction and inertia parameters
    for (int k = 0; k < mjcf_jointDofs(t); k++, vadr++) {
      m->dof_bodyid[vadr] = it->body;
      m->dof_jntid[vadr] = j;
      m->dof_treeid[vadr] = m->body_treeid[it->body];
      memcpy(m->dof_solref + 2 * vadr, s->solref_fri, sizeof(s->solref_fri));
      memcpy(m->dof_solimp + 5 * vadr, s->solimp_fri, sizeof(s->solimp_fri));
      m->dof_frictionloss[vadr] = s->frictionloss;
      m->dof_armature[vadr] = s->armature;
      m->dof_damping[vadr] = s->damping[0];
      mju_copy(m->dof_dampingpoly + mjNPOLY * vadr, s->damping + 1, mjNPOLY);
    }
    qadr += mjcf_jointQpos(t);
  }
  // dof parent: the previous dof of the body, else the last dof above it; Madr from depths
  for (int i = 0; i < m->nv; i++) {
    int b = m->dof_bodyid[i];
    int parent = i > m->body_dofadr[b] ? i - 1 : mj_bodyLastDof(m, m->body_parentid[b]);
    m->dof_parentid[i] = parent;
    depth[i] = parent < 0 ? 0 : depth[parent] + 1;
    m->dof_Madr[i] = i ? m->dof_Madr[i - 1] + depth[i - 1] + 1 : 0;
  }
}

// geoms, sites, cameras and lights
static void fillItems(Ctx* c, mjModel* m) {
  for (int i = 0; i < m->ngeom; i++) {
    const Item* it = c->obj[K_GEOM].p[i];
    const GeomSpec* s = &it->s.geom;
    int b = it->body;
    m->geom_type[i] = s->type;
    // a plane bounds half of space: only where nothing moves it but a mocap body
    if (s->type == mjGEOM_PLANE && m->body_weldid[b] && m->body_mocapid[m->body_weldid[b]] < 0)
      mjcf_fail(c, it->h.e, "plane only allowed in static bodies");
    m->geom_contype[i] = s->contype;
    m->geom_conaffinity[i] = s->conaffinity;
    m->geom_condim[i] = s->condim;
    m->geom_bodyid[i] = b;
    m->geom_dataid[i] = s->mesh || s->type == mjGEOM_HFIELD ? s->dataid : -1;
    m->geom_matid[i] = mjcf_matId(c, it->h.e, s->material);
    m->geom_group[i] = s->group;
    m->geom_priority[i] = s->priority;
    m->geom_sameframe[i] = (unsigned char)sameFrame(it->pos, it->quat, m->body_ipos + 3 * b,
                                                    m->body_iquat + 4 * b);
    m->geom_solmix[i] = s->solmix;
    memcpy(m->geom_solref + 2 * i, s->solref, sizeof(s->solref));
    memcpy(m->geom_solimp + 5 * i, s->solimp, sizeof(s->solimp));
    mju_copy3(m->geom_size + 3 * i, s->size);
    if (s->type == mjGEOM_MESH) mjcf_meshBound(&((Obj*)c->obj[K_MESH].p[s->dataid])->mesh,
                                               m->geom_size + 3 * i, m->geom_rbound + i,
                                          m->geom_aabb + 6 * i);
    else if (s->type == mjGEOM_HFIELD)
      mj_hfieldGeomBound(((Obj*)c->obj[K_HFIELD].p[s->dataid])->hfield.size,
                         m->geom_size + 3 * i, m->geom_rbound + i, m->geom_aabb + 6 * i);
    else mju_geomBound(s->type, s->size, m->geom_rbound + i, m->geom_aabb + 6 * i);
    if (s->fluidshape) mjcf_geomFluid(s->type, m->geom_size + 3 * i, s->fluidcoef,
                                      m->geom_fluid + 12 * i);
    mju_copy3(m->geom_pos + 3 * i, it->pos);
    mju_copy4(m->geom_quat + 4 * i, it->quat);
    mju_copy3(m->geom_friction + 3 * i, s->friction);
    m->geom_margin[i] = s->margin;
    m->geom_gap[i] = s->gap;
    mju_copy(m->geom_surfacevel + 6 * i, s->surfacevel, 6);
    m->geom_adhesion[i] = s->adhesion;
    memcpy(m->geom_rgba + 4 * i, s->rgba, sizeof(s->rgba));
    putUser(m->geom_user, i, m->nuser_geom, &s->user);
    // the body's collision summary
    m->body_contype[b] |= s->contype;
    m->body_conaffinity[b] |= s->conaffinity;
    if (s->margin + s->gap > m->body_margin[b]) m->body_margin[b] = s->margin + s->gap;
  }
  for (int i = 0; i < m->nsite; i++) {
    const Item* it = c->obj[K_SITE].p[i];
    const SiteSpec* s = &it->s.site;
    int b = it->body;
    m->site_type[i] = s->type;
    m->site_bodyid[i] = b;
    m->site_matid[i] = mjcf_matId(c, it->h.e, s->material);
    m->site_group[i] = s->group;
    m->site_sameframe[i] = (unsigned char)sameFrame(it->pos, it->quat, m->body_ipos + 3 * b,
                                                    m->body_iquat + 4 * b);
    mju_copy3(m->site_size + 3 * i, s->size);
    mju_copy3(m->site_pos + 3 * i, it->pos);
    mju_copy4(m->site_quat + 4 * i, it->quat);
    memcpy(m->site_rgba + 4 * i, s->rgba, sizeof(s->rgba));
    putUser(m->site_user, i, m->nuser_site, &s->user);
  }
  for (int i = 0; i < m->ncam; i++) {
    const Item* it = c->obj[K_CAM].p[i];
    const CamSpec* s = &it->s.cam;
    m->cam_mode[i] = s->mode;
    m->cam_bodyid[i] = it->body;
    m->cam_targetbodyid[i] = bodyRef(c, it->h.e, s->target);
    mju_copy3(m->cam_pos + 3 * i, it->pos);
    mju_copy4(m->cam_quat + 4 * i, it->quat);
    m->cam_projection[i] = s->projection;
    m->cam_fovy[i] = s->fovy;
    m->cam_ipd[i] = s->ipd;
    memcpy(m->cam_resolution + 2 * i, s->resolution, sizeof(s->resolution));
    memcpy(m->cam_sensorsize + 2 * i, s->sensorsize, sizeof(s->sensorsize));
    cameraIntrinsics(c, it->h.e, s, m->cam_intrinsic + 4 * i, m->cam_fovy + i);
    putUser(m->cam_user, i, m->nuser_cam, &s->user);
  }
  for (int i = 0; i < m->nlight; i++) {
    const Item* it = c->obj[K_LIGHT].p[i];
    const LightSpec* s = &it->s.light;
    m->light_mode[i] = s->mode;
    m->light_bodyid[i] = it->body;
    m->light_targetbodyid[i] = bodyRef(c, it->h.e, s->target);
    m->light_type[i] = s->type;
    m->light_texid[i] = s->texture ? mjcf_findId(c, it->h.e, K_TEX, s->texture, "texture") : -1;
    m->light_castshadow[i] = (unsigned char)s->castshadow;
    m->light_bulbradius[i] = s->bulbradius;
    if (s->softness < 0 || s->softness > 1)
      mjcf_fail(c, it->h.e, "light softness must be in [0, 1]");
    m->light_softness[i] = s->softness;
    m->light_intensity[i] = s->intensity;
    m->light_range[i] = s->range;
    m->light_active[i] = (unsigned char)s->active;
    mju_copy3(m->light_pos + 3 * i, it->pos);
    mju_copy3(m->light_dir + 3 * i, s->dir);
    memcpy(m->light_attenuation + 3 * i, s->attenuation, sizeof(s->attenuation));
    m->light_cutoff[i] = s->cutoff;
    m->light_exponent[i] = s->exponent;
    memcpy(m->light_ambient + 3 * i, s->ambient, sizeof(s->ambient));
    memcpy(m->light_diffuse + 3 * i, s->diffuse, sizeof(s->diffuse));
    memcpy(m->light_specular + 3 * i, s->specular, sizeof(s->specular));
  }
}

// pairs, excludes and equality constraints
static void fillConstraints(Ctx* c, mjModel* m) {
  for (int i = 0; i < m->npair; i++) {
    const Obj* o = c->obj[K_PAIR].p[i];
    const PairSpec* s = &o->pair;
    m->pair_dim[i] = s->condim;
    m->pair_geom1[i] = o->id[0];
    m->pair_geom2[i] = o->id[1];
    m->pair_signature[i] = o->type;
    memcpy(m->pair_solref + 2 * i, s->solref, sizeof(s->solref));
    memcpy(m->pair_solreffriction + 2 * i, s->solreffriction, sizeof(s->solreffriction));
    memcpy(m->pair_solimp + 5 * i, s->solimp, sizeof(s->solimp));
    m->pair_margin[i] = s->margin;
    m->pair_gap[i] = s->gap;
    m->pair_adhesion[i] = s->adhesion;
    memcpy(m->pair_friction + 5 * i, s->friction, sizeof(s->friction));
  }
  for (int i = 0; i < m->nexclude; i++)
    m->exclude_signature[i] = ((Obj*)c->obj[K_EXCLUDE].p[i])->type;
  for (int i = 0; i < m->neq; i++) {
    const Obj* o = c->obj[K_EQ].p[i];
    m->eq_type[i] = o->type;
    m->eq_obj1id[i] = o->id[0];
    m->eq_obj2id[i] = o->id[1];
    m->eq_objtype[i] = o->objtype;
    m->eq_active0[i] = (unsigned char)o->eq.active;
    memcpy(m->eq_solref + 2 * i, o->eq.solref, sizeof(o->eq.solref));
    memcpy(m->eq_solimp + 5 * i, o->eq.solimp, sizeof(o->eq.solimp));
    memcpy(m->eq_data + 11 * i, o->data, sizeof(o->data));
  }
}

// length of a fixed tendon at qpos_spring; -1 for a spatial tendon (mj_setConst computes its
// length at qpos_spring with the position stage, wrapping included)
static double tendonLength(const mjModel* m, int t) {
  double len = 0;
  int adr = m->tendon_adr[t], num = m->tendon_num[t];
  if (m->wrap_type[adr] != mjWRAP_JOINT) return -1;
  for (int k = adr; k < adr + num; k++)
    len += m->wrap_prm[k] * m->qpos_spring[m->jnt_qposadr[m->wrap_objid[k]]];
  return len;
}

// tendons and their paths
static void fillTendons(Ctx* c, mjModel* m) {
  for (int i = 0; i < m->nwrap; i++) {
    const Wrap* w = c->obj[K_WRAP].p[i];
    m->wrap_type[i] = w->type;
    m->wrap_objid[i] = w->objid;
    m->wrap_prm[i] = w->prm;
  }
  for (int i = 0; i < m->ntendon; i++) {
    const Obj* o = c->obj[K_TENDON].p[i];
    const TendonSpec* s = &o->tendon;
    m->tendon_adr[i] = o->wrapadr;
    m->tendon_num[i] = o->nwrap;
    m->tendon_matid[i] = mjcf_matId(c, o->h.e, s->material);
    m->tendon_group[i] = s->group;
    m->tendon_limited[i] = (unsigned char)resolveLimited(c, o->h.e, s->limited, s->range,
                                                         "tendon range", 1);
    m->tendon_actfrclimited[i] = (unsigned char)resolveLimited(
      c, o->h.e, s->actfrclimited, s->actfrcrange, "actuatorfrcrange", 1);
    m->tendon_width[i] = s->width;
    memcpy(m->tendon_solref_lim + 2 * i, s->solref_lim, sizeof(s->solref_lim));
    memcpy(m->tendon_solimp_lim + 5 * i, s->solimp_lim, sizeof(s->solimp_lim));
    memcpy(m->tendon_solref_fri + 2 * i, s->solref_fri, sizeof(s->solref_fri));
    memcpy(m->tendon_solimp_fri + 5 * i, s->solimp_fri, sizeof(s->solimp_fri));
    memcpy(m->tendon_range + 2 * i, s->range, sizeof(s->range));
    memcpy(m->tendon_actfrcrange + 2 * i, s->actfrcrange, sizeof(s->actfrcrange));
    m->tendon_margin[i] = s->margin;
    m->tendon_stiffness[i] = s->stiffness[0];
    m->tendon_damping[i] = s->damping[0];
    mju_copy(m->tendon_stiffnesspoly + mjNPOLY * i, s->stiffness + 1, mjNPOLY);
    mju_copy(m->tendon_dampingpoly + mjNPOLY * i, s->damping + 1, mjNPOLY);
    m->tendon_armature[i] = s->armature;
    m->tendon_frictionloss[i] = s->frictionloss;
    memcpy(m->tendon_rgba + 4 * i, s->rgba, sizeof(s->rgba));
    putUser(m->tendon_user, i, m->nuser_tendon, &s->user);
    // spring length: given, else the length in the spring reference configuration
    memcpy(m->tendon_lengthspring + 2 * i, s->springlength, sizeof(s->springlength));
    if (s->springlength[0] == -1 && s->springlength[1] == -1) {
      double len = tendonLength(m, i);
      m->tendon_lengthspring[2 * i] = m->tendon_lengthspring[2 * i + 1] = len;
    }
  }
}

// 1 when tendon t wraps a sphere or cylinder (whose length's rate MuJoCo does not
// differentiate: tendon armature is refused on it)
static int wrapsGeom(const mjModel* m, int t) {
  for (int k = m->tendon_adr[t]; k < m->tendon_adr[t] + m->tendon_num[t]; k++)
    if (m->wrap_type[k] == mjWRAP_SPHERE || m->wrap_type[k] == mjWRAP_CYLINDER) return 1;
  return 0;
}

// actuators: types, parameters, limits, transmission, activation addresses; the joints' and
// tendons' actuator ids
// mjtNums of a history buffer of nsample samples of dim values: the user slot (a sensor's
// last computation time), the cursor, the timestamps and the values; 0 without samples
static int historySize(int nsample, int dim) { return nsample > 0 ? 2 + nsample * (1 + dim) : 0; }

// a history buffer's fields (nsample, interp, delay) and its address, at *adr, which it
// advances; -1 without samples
static void fillHistory(const HistSpec* h, int dim, int* history, int* historyadr,
                        mjtNum* delay, int* adr) {
  history[0] = h->nsample;
  history[1] = h->interp;
  *delay = h->delay;
  *historyadr = h->nsample > 0 ? *adr : -1;
  *adr += historySize(h->nsample, dim);
}

static void fillActuators(Ctx* c, mjModel* m) {
  int adr = 0, hadr = 0;
  for (int i = 0; i < m->nu; i++) {
    const Obj* o = c->obj[K_ACT].p[i];
    ActSpec s = o->act;
    const mjXNode* e = o->h.e;
    m->actuator_trntype[i] = o->type;
    m->actuator_dyntype[i] = s.dyntype;
    m->actuator_gaintype[i] = s.gaintype;
    m->actuator_biastype[i] = s.biastype;
    m->actuator_trnid[2 * i] = o->id[0];
    m->actuator_trnid[2 * i + 1] = o->id[1];
    // the input signature: a DC motor's only, voltage unless given (a motor under a dcmotor
    // class with an input keeps it, and MuJoCo refuses that)
    if (s.ctrlspec && s.gaintype != mjGAIN_DCMOTOR)
      mjcf_fail(c, e, "input is only available for dcmotor actuators");
    m->actuator_ctrlspec[i] = s.gaintype != mjGAIN_DCMOTOR ? 0
                              : s.ctrlspec ? s.ctrlspec : mjINPUT_VOLTAGE;
    // activation: actdim when given, else one for stateful dynamics (a DC motor's states
    // counted by its reader, none for a stateless one)
    int actnum = s.actdim >= 0 ? s.actdim : s.dyntype != mjDYN_NONE;
    if (s.dyntype != mjDYN_NONE && s.dyntype != mjDYN_DCMOTOR && actnum == 0)
      mjcf_fail(c, e, "dynamics need activation");
    m->actuator_actnum[i] = actnum;
    m->actuator_actadr[i] = actnum ? adr : -1;
    adr += actnum;
    m->actuator_group[i] = s.group;
    fillHistory(&s.hist, 1, m->actuator_history + 2 * i, m->actuator_historyadr + i,
                m->actuator_delay + i, &hadr);
    // inheritrange: a position-like range from the joint's limits
    if (s.inheritrange > 0) {
      if (o->type != mjTRN_JOINT || !m->jnt_limited[o->id[0]])
        mjcf_fail(c, e, "inheritrange needs a limited joint transmission");
      const mjtNum* r = m->jnt_range + 2 * o->id[0];
      double mid = 0.5 * (r[0] + r[1]), half = 0.5 * (r[1] - r[0]) * s.inheritrange;
      double* dst = s.dyntype == mjDYN_INTEGRATOR ? s.actrange : s.ctrlrange;
      dst[0] = mid - half;
      dst[1] = mid + half;
    }
    m->actuator_ctrllimited[i] =
      (unsigned char)resolveLimited(c, e, s.ctrllimited, s.ctrlrange, "ctrlrange", 1);
    m->actuator_forcelimited[i] =
      (unsigned char)resolveLimited(c, e, s.forcelimited, s.forcerange, "forcerange", 1);
    m->actuator_actlimited[i] =
      (unsigned char)resolveLimited(c, e, s.actlimited, s.actrange, "actrange", 1);
    memcpy(m->actuator_dynprm + 10 * i, s.dynprm, sizeof(s.dynprm));
    memcpy(m->actuator_gainprm + 10 * i, s.gainprm, sizeof(s.gainprm));
    memcpy(m->actuator_biasprm + 10 * i, s.biasprm, sizeof(s.biasprm));
    m->actuator_actearly[i] = (unsigned char)s.actearly;
    memcpy(m->actuator_ctrlrange + 2 * i, s.ctrlrange, sizeof(s.ctrlrange));
    memcpy(m->actuator_forcerange + 2 * i, s.forcerange, sizeof(s.forcerange));
    memcpy(m->actuator_actrange + 2 * i, s.actrange, sizeof(s.actrange));
    memcpy(m->actuator_gear + 6 * i, s.gear, sizeof(s.gear));
    m->actuator_cranklength[i] = s.cranklength;
    // damping and armature passed on to the joint or tendon (gear^2 times them), which only
    // joint and tendon transmissions have (MuJoCo's rule)
    m->actuator_damping[i] = s.damping[0];
    mju_copy(m->actuator_dampingpoly + mjNPOLY * i, s.damping + 1, mjNPOLY);
    m->actuator_armature[i] = s.armature;
    int jointOrTendon = o->type == mjTRN_JOINT || o->type == mjTRN_JOINTINPARENT ||
                        o->type == mjTRN_TENDON;
    if (!jointOrTendon && !mju_isZero(s.damping, 1 + mjNPOLY))
      mjcf_fail(c, e, "damping requires joint or tendon transmission");
    if (!jointOrTendon && s.armature != 0)
      mjcf_fail(c, e, "armature requires joint or tendon transmission");
    if (o->type == mjTRN_TENDON && s.armature != 0 && wrapsGeom(m, o->id[0]))
      mjcf_fail(c, e, "geom wrapping not supported by armature on a tendon");
    memcpy(m->actuator_lengthrange + 2 * i, s.lengthrange, sizeof(s.lengthrange));
    putUser(m->actuator_user, i, m->nuser_actuator, &s.user);
    // the room of its moment row in mjData (the transmission's possible non-zeros)
    m->nJmom += mj_momentMax(m, i);
  }
  // the actuator passing damping or armature on to each joint and tendon (-2 several, -1 none)
  for (int j = 0; j < m->njnt; j++) m->jnt_actuatorid[j] = mj_actuatorTarget(m, 0, j);
  for (int t = 0; t < m->ntendon; t++) m->tendon_actuatorid[t] = mj_actuatorTarget(m, 1, t);
}

// ---- sleep policies ---------------------------------------------------------------------------

// make tree t's AUTO policy AUTO_NEVER (t < 0: a static object, nothing to do)
static void neverAuto(mjModel* m, int t) {
  if (t >= 0 && m->tree_sleep_policy[t] == mjSLEEP_AUTO)
    m->tree_sleep_policy[t] = mjSLEEP_AUTO_NEVER;
}

// the tree of wrap object k: its joint's, site's or geom's body's (-1: a pulley or static)
static int wrapTree(const mjModel* m, int k) {
  int id = m->wrap_objid[k], type = m->wrap_type[k];
  int b = type == mjWRAP_JOINT                             ? m->jnt_bodyid[id]
        : type == mjWRAP_SITE                              ? m->site_bodyid[id]
        : type == mjWRAP_SPHERE || type == mjWRAP_CYLINDER ? m->geom_bodyid[id]
                                                           : -1;
  return b < 0 ? -1 : m->body_treeid[b];
}

// the body that actuator i's transmission moves (-1: a tendon transmission, or none)
static int actuatedBody(const mjModel* m, int i) {
  int id = m->actuator_trnid[2 * i];
  switch (m->actuator_trntype[i]) {
    case mjTRN_JOINT:
    case mjTRN_JOINTINPARENT: return m->jnt_bodyid[id];
    case mjTRN_SITE:
    case mjTRN_SLIDERCRANK: return m->site_bodyid[id];
    case mjTRN_BODY: return id;
    default: return -1;
  }
}

// tree_sleep_policy as MuJoCo 3.14 resolves it: a movable root body's sleep attribute (refused
// on any other body); then an AUTO tree is AUTO_NEVER when an actuator moves it or a tendon
// joins it to 2+ other trees or to one other with stiffness, damping or an actuator (such a
// tendon refused on a tree written ALLOWED or INIT), else AUTO_ALLOWED
static void fillSleep(Ctx* c, mjModel* m) {
  for (int b = 1; b < m->nbody; b++) {
    const Body* bd = c->obj[K_BODY].p[b];
    int t = m->body_treeid[b];
    if (!bd->sleep) continue;
    if (t < 0 || t == m->body_treeid[b - 1])
      mjcf_fail(c, bd->h.e, "sleep policy only allowed for movable root bodies");
    m->tree_sleep_policy[t] = bd->sleep;
  }
  // actuated trees: the transmission's body's, or every tree along a tendon's path
  for (int i = 0; i < m->nu; i++) {
    int b = actuatedBody(m, i), t = m->actuator_trnid[2 * i];
    if (b >= 0) neverAuto(m, m->body_treeid[b]);
    if (m->actuator_trntype[i] != mjTRN_TENDON) continue;
    for (int k = m->tendon_adr[t]; k < m->tendon_adr[t] + m->tendon_num[t]; k++)
      neverAuto(m, wrapTree(m, k));
  }
  // tendons: the distinct trees of each one's path (mark[t] = tendon + 1 once counted)
  int* mark = mjcf_alloc(c, sizeof(int) * (m->ntree + 1));
  int* trees = mjcf_alloc(c, sizeof(int) * (m->ntree + 1));
  for (int i = 0; i < m->ntendon; i++) {
    int n = 0;
    for (int k = m->tendon_adr[i]; k < m->tendon_adr[i] + m->tendon_num[i]; k++) {
      int t = wrapTree(m, k);
      if (t >= 0 && mark[t] != i + 1) mark[t] = i + 1, trees[n++] = t;
    }
    int coupled = m->tendon_stiffness[i] != 0 || m->tendon_damping[i] != 0 ||
                  !mju_isZero(m->tendon_stiffnesspoly + mjNPOLY * i, mjNPOLY) ||
                  !mju_isZero(m->tendon_dampingpoly + mjNPOLY * i, mjNPOLY) ||
                  m->tendon_actuatorid[i] != -1;
    if (n < 2 || (n == 2 && !coupled)) continue;
    for (int j = 0; j < n; j++) {
      int p = m->tree_sleep_policy[trees[j]];
      if (p == mjSLEEP_ALLOWED || p == mjSLEEP_INIT)
        mjcf_fail(c, ((const Obj*)c->obj[K_TENDON].p[i])->h.e,
                  "tree %d connected to tendon %d %s, sleeping not allowed", trees[j], i,
                  n > 2 ? "which spans more than 2 trees" : "with non-zero stiffness or damping");
      neverAuto(m, trees[j]);
    }
  }
  for (int t = 0; t < m->ntree; t++)
    if (m->tree_sleep_policy[t] == mjSLEEP_AUTO) m->tree_sleep_policy[t] = mjSLEEP_AUTO_ALLOWED;
}

// sensors, with the joint and tendon limit checks that need resolved limits
static void fillSensors(Ctx* c, mjModel* m) {
  // the sensors' history buffers follow the actuators'
  int adr = 0, hadr = 0;
  for (int i = 0; i < m->nu; i++) hadr += historySize(m->actuator_history[2 * i], 1);
  for (int i = 0; i < m->nsensor; i++) {
    const Obj* o = c->obj[K_SENSOR].p[i];
    int t = o->type;
    if (t >= mjSENS_JOINTLIMITPOS && t <= mjSENS_JOINTLIMITFRC && !m->jnt_limited[o->id[0]])
      mjcf_fail(c, o->h.e, "joint must be limited");
    if (t >= mjSENS_TENDONLIMITPOS && t <= mjSENS_TENDONLIMITFRC &&
        !m->tendon_limited[o->id[0]])
      mjcf_fail(c, o->h.e, "tendon must be limited");
    m->sensor_type[i] = t;
    m->sensor_datatype[i] = o->datatype;
    m->sensor_needstage[i] = o->stage;
    m->sensor_objtype[i] = o->objtype;
    m->sensor_objid[i] = o->id[0];
    m->sensor_reftype[i] = o->reftype;
    m->sensor_refid[i] = o->id[1];
    m->sensor_dim[i] = o->dim;
    m->sensor_adr[i] = adr;
    m->sensor_cutoff[i] = o->cutoff;
    m->sensor_noise[i] = o->noise;
    fillHistory(&o->hist, o->dim, m->sensor_history + 2 * i, m->sensor_historyadr + i,
                m->sensor_delay + i, &hadr);
    m->sensor_interval[2 * i] = o->interval[0];
    m->sensor_interval[2 * i + 1] = o->interval[1];
    memcpy(m->sensor_intprm + 3 * i, o->intprm, sizeof(o->intprm));
    putUser(m->sensor_user, i, m->nuser_sensor, &o->user);
    adr += o->dim;
  }
}

// entries n .. nq-1 of a keyframe's qpos as MuJoCo pads a shorter qpos: each joint's reference
// as written in the file (a free joint 0 0 0 1 0 0 0 wherever its body is, a ball joint the
// unit quaternion, a hinge or slide its ref, angles unconverted), not qpos0
static void padKeyQpos(Ctx* c, const mjModel* m, mjtNum* qpos, int n) {
  static const mjtNum freeRef[7] = {0, 0, 0, 1, 0, 0, 0};
  for (int j = 0; j < m->njnt; j++) {
    const JointSpec* s = &((Item*)c->obj[K_JOINT].p[j])->s.joint;
    int adr = m->jnt_qposadr[j], t = m->jnt_type[j];
    for (int i = adr > n ? adr : n; i < adr + mjcf_jointQpos(t); i++)
      qpos[i] = t == mjJNT_FREE ? freeRef[i - adr] : t == mjJNT_BALL ? i == adr : s->ref;
  }
}

// a keyframe's mocap poses (width 3 or 4 numbers a body): the given numbers set the first
// n / width bodies whole, the others keep the poses filled before, as MuJoCo pads them;
// returns n
static int readKeyMocap(Ctx* c, const mjXNode* e, const char* name, mjtNum* v, int nmocap,
                         int width) {
  double* given = mjcf_alloc(c, sizeof(double) * ((size_t)width * nmocap + 1));
  int n = mjcf_readNums(c, e, name, given, 1, width * nmocap);
  mju_copy(v, given, n / width * width);
  return n;
}

// keyframes: given values, a shorter list padded as MuJoCo does (qpos by padKeyQpos, qvel, act
// and ctrl with zeros, mocap poses with the bodies'), quaternions normalized
static void fillKeys(Ctx* c, mjModel* m) {
  for (int k = 0; k < m->nkey; k++) {
    const mjXNode* e = ((Obj*)c->obj[K_KEY].p[k])->h.e;
    mjtNum* qpos = m->key_qpos + (size_t)k * m->nq;
    mjtNum* mpos = m->key_mpos + (size_t)k * 3 * m->nmocap;
    mjtNum* mquat = m->key_mquat + (size_t)k * 4 * m->nmocap;
    mju_copy(qpos, m->qpos0, m->nq);
    for (int b = 0; b < m->nbody; b++) {
      int id = m->body_mocapid[b];
      if (id < 0) continue;
      mju_copy3(mpos + 3 * id, m->body_pos + 3 * b);
      mju_copy4(mquat + 4 * id, m->body_quat + 4 * b);
    }
    if (!e) continue;
    if (((Obj*)c->obj[K_KEY].p[k])->src) {
      mjcf_fillAttachedKey(c, c->obj[K_KEY].p[k], m, k);
      continue;
    }
    mjcf_readVec(c, e, "time", m->key_time + k, 1);
    // the quaternions of ball and free joints normalized, as for qpos0
    int nq = mjcf_readNums(c, e, "qpos", qpos, 1, m->nq);
    if (nq) {
      padKeyQpos(c, m, qpos, nq);
      for (int j = 0; j < m->njnt; j++) {
        int t = m->jnt_type[j];
        if (t == mjJNT_BALL || t == mjJNT_FREE)
          mju_normalize4(qpos + m->jnt_qposadr[j] + (t == mjJNT_FREE ? 3 : 0));
      }
    }
    mjcf_readNums(c, e, "qvel", m->key_qvel + (size_t)k * m->nv, 1, m->nv);
    mjcf_readNums(c, e, "act", m->key_act + (size_t)k * m->na, 1, m->na);
    mjcf_readNums(c, e, "ctrl", m->key_ctrl + (size_t)k * m->nu, 1, m->nu);
    readKeyMocap(c, e, "mpos", mpos, m->nmocap, 3);
    if (readKeyMocap(c, e, "mquat", mquat, m->nmocap, 4))
      for (int i = 0; i < m->nmocap; i++) mju_normalize4(mquat + 4 * i);
    mjcf_ignoreAttrs(e, "name");
    mjcf_checkAttrs(c, e);
  }
}

// ---- bounding volume hierarchies --------------------------------------------------------------

// MuJoCo's tolerance (mjEPS) in the hierarchies: flat sides are widened by it on both ends, and
// a later axis is split only when its side is longer by at least it
#define BVH_EPS 1e-14

// a collidable geom while its body's hierarchy is built: its box in the body's inertial frame
// (lower and upper corners), its position there, its sort key and its id
typedef struct {
  double lo[3], hi[3], pos[3], key;
  int id;
} Volume;

// res = vec rotated by the unit quaternion q, in the compiler's order of operations (MuJoCo's
// hierarchies round as it does near their 1e10 plane bounds): t = w vec + u x vec,
// res = vec + 2 u x t; the identity and the zero vector exact
static void bvhRotate(double res[3], const double vec[3], const double q[4]) {
  if ((q[0] == 1 && !q[1] && !q[2] && !q[3]) || (!vec[0] && !vec[1] && !vec[2])) {
    mju_copy3(res, vec);
    return;
  }
  double t[3] = {q[0] * vec[0] + q[2] * vec[2] - q[3] * vec[1],
                 q[0] * vec[1] + q[3] * vec[0] - q[1] * vec[2],
                 q[0] * vec[2] + q[1] * vec[1] - q[2] * vec[0]};
  double v[3] = {vec[0], vec[1], vec[2]};
  res[0] = v[0] + 2 * (q[2] * t[2] - q[3] * t[1]);
  res[1] = v[1] + 2 * (q[3] * t[0] - q[1] * t[2]);
  res[2] = v[2] + 2 * (q[1] * t[1] - q[2] * t[0]);
}

// geom g's volume in its body's inertial frame: the bounds of the eight corners of its aabb
// rotated by geom_quat, moved by geom_pos - body_ipos and rotated back by body_iquat
static void geomVolume(const mjModel* m, int g, Volume* v) {
  int b = m->geom_bodyid[g];
  const double* a = m->geom_aabb + 6 * g;
  double qinv[4], dp[3];
  mju_negQuat(qinv, m->body_iquat + 4 * b);
  mju_sub3(dp, m->geom_pos + 3 * g, m->body_ipos + 3 * b);
  for (int c = 0; c < 8; c++) {
    double p[3];
    for (int k = 0; k < 3; k++) p[k] = (c >> k) & 1 ? a[k] + a[3 + k] : a[k] - a[3 + k];
    bvhRotate(p, p, m->geom_quat + 4 * g);
    mju_addTo3(p, dp);
    bvhRotate(p, p, qinv);
    for (int k = 0; k < 3; k++) {
      if (!c || p[k] < v->lo[k]) v->lo[k] = p[k];
      if (!c || p[k] > v->hi[k]) v->hi[k] = p[k];
    }
  }
  bvhRotate(v->pos, dp, qinv);
  v->id = g;
}

// ascending key, keys within BVH_EPS in geom order
static int compareVolumes(const void* x, const void* y) {
  const Volume* p = x;
  const Volume* q = y;
  if (fabs(p->key - q->key) > BVH_EPS) return p->key < q->key ? -1 : 1;
  return p->id < q->id ? -1 : p->id > q->id;
}

// the node over volumes v[0 .. n) (n >= 1) into bvh entry *next, at `depth`, its subtrees after
// it (children relative to adr, the body's first entry); returns its entry.  The box bounds
// the volumes; two or more split by position along the longest side, the lower n/2 first
static int bvhNode(mjModel* m, Volume* v, int n, int adr, int* next, int depth) {
  int id = (*next)++;
  double lo[3], hi[3];
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 3; k++) {
      if (!i || v[i].lo[k] < lo[k]) lo[k] = v[i].lo[k];
      if (!i || v[i].hi[k] > hi[k]) hi[k] = v[i].hi[k];
    }
  }
  for (int k = 0; k < 3; k++) {
    if (hi[k] - lo[k] < BVH_EPS) {
      lo[k] -= BVH_EPS;
      hi[k] += BVH_EPS;
    }
    m->bvh_aabb[6 * id + k] = (hi[k] + lo[k]) / 2;
    m->bvh_aabb[6 * id + 3 + k] = (hi[k] - lo[k]) / 2;
  }
  m->bvh_depth[id] = depth;
  m->bvh_nodeid[id] = n == 1 ? v[0].id : -1;
  m->bvh_child[2 * id] = m->bvh_child[2 * id + 1] = -1;
  if (n == 1) return id;

  // split along the longest side
  int axis = 0;
  for (int k = 1; k < 3; k++)
    if (hi[k] - lo[k] >= hi[axis] - lo[axis] + BVH_EPS) axis = k;
  for (int i = 0; i < n; i++) v[i].key = v[i].pos[axis];
  qsort(v, n, sizeof(Volume), compareVolumes);
  m->bvh_child[2 * id] = bvhNode(m, v, n / 2, adr, next, depth + 1) - adr;
  m->bvh_child[2 * id + 1] = bvhNode(m, v + n / 2, n - n / 2, adr, next, depth + 1) - adr;
  return id;
}

// every body's hierarchy of its collidable geoms, in body order (none: address -1)
static void fillBvh(Ctx* c, mjModel* m) {
  Volume* v = mjcf_alloc(c, sizeof(Volume) * (m->ngeom + 1));
  int next = 0;
  for (int b = 0; b < m->nbody; b++) {
    int n = 0;
    for (int g = m->body_geomadr[b]; g < m->body_geomadr[b] + m->body_geomnum[b]; g++)
      if (m->geom_contype[g] || m->geom_conaffinity[g]) geomVolume(m, g, v + n++);
    m->body_bvhadr[b] = n ? next : -1;
    m->body_bvhnum[b] = n ? 2 * n - 1 : 0;
    if (n) bvhNode(m, v, n, next, &next, 0);
  }
}

// ---- custom fields -----------------------------------------------------------------------------

// the numeric, text and tuple fields, each appended to its kind's data array
static void fillCustom(Ctx* c, mjModel* m) {
  for (int i = 0, adr = 0; i < m->nnumeric; i++) {
    const Obj* o = c->obj[K_NUMERIC].p[i];
    m->numeric_adr[i] = adr;
    m->numeric_size[i] = o->size;
    mju_copy(m->numeric_data + adr, o->values, o->size);
    adr += o->size;
  }
  for (int i = 0, adr = 0; i < m->ntext; i++) {
    const Obj* o = c->obj[K_TEXT].p[i];
    m->text_adr[i] = adr;
    m->text_size[i] = o->size;
    memcpy(m->text_data + adr, o->text, o->size);
    adr += o->size;
  }
  for (int i = 0, adr = 0; i < m->ntuple; i++) {
    const Obj* o = c->obj[K_TUPLE].p[i];
    m->tuple_adr[i] = adr;
    m->tuple_size[i] = o->size;
    for (int j = 0; j < o->size; j++, adr++) {
      m->tuple_objtype[adr] = o->elem[j].objtype;
      m->tuple_objid[adr] = o->elem[j].objid;
      m->tuple_objprm[adr] = o->elem[j].prm;
    }
  }
}

// ---- sizes and the whole compilation -----------------------------------------------------------

// the body ranges of joints, dofs and geoms (-1 addresses when empty)
static void fillRanges(Ctx* c, mjModel* m) {
  for (int b = 0; b < m->nbody; b++) {
    m->body_jntadr[b] = m->body_dofadr[b] = m->body_geomadr[b] = -1;
  }
  int vadr = 0;
  for (int j = 0; j < m->njnt; j++) {
    const Item* it = c->obj[K_JOINT].p[j];
    int b = it->body, nd = mjcf_jointDofs(it->s.joint.type);
    if (m->body_jntadr[b] < 0) m->body_jntadr[b] = j;
    if (m->body_dofadr[b] < 0) m->body_dofadr[b] = vadr;
    m->body_jntnum[b]++;
    m->body_dofnum[b] += nd;
    vadr += nd;
    // a free joint moves a whole tree, and no body has more than 6 dofs
    const Body* bd = c->obj[K_BODY].p[b];
    if (it->s.joint.type == mjJNT_FREE && bd->parent != 0)
      mjcf_fail(c, it->h.e, "a free joint can only be used in a top-level body");
    if (m->body_dofnum[b] > 6) mjcf_fail(c, it->h.e, "more than 6 dofs in one body");
    // a ball sets the whole orientation of its body: no rotation may follow it
    for (int k = m->body_jntadr[b]; k < j && jointRotates(it->s.joint.type); k++)
      if (((const Item*)c->obj[K_JOINT].p[k])->s.joint.type == mjJNT_BALL)
        mjcf_fail(c, it->h.e, "a rotation cannot follow a ball joint in one body");
  }
  for (int g = 0; g < m->ngeom; g++) {
    int b = ((Item*)c->obj[K_GEOM].p[g])->body;
    if (m->body_geomadr[b] < 0) m->body_geomadr[b] = g;
    m->body_geomnum[b]++;
  }
}

// every size of the model from the collected objects (root: where a too-large model fails)
static void modelSizes(Ctx* c, const mjXNode* root, mjModel* sz) {
  memset(sz, 0, sizeof(*sz));
  sz->nbody = c->obj[K_BODY].n;
  sz->njnt = c->obj[K_JOINT].n;
  // dofs above each body give the rows of the sparse inertia: nM = sum(depth + 1)
  int* above = mjcf_alloc(c, sizeof(int) * sz->nbody);
  int* dofs = mjcf_alloc(c, sizeof(int) * sz->nbody);
  for (int j = 0; j < sz->njnt; j++) {
    const Item* it = c->obj[K_JOINT].p[j];
    sz->nq += mjcf_jointQpos(it->s.joint.type);
    sz->nv += mjcf_jointDofs(it->s.joint.type);
    dofs[it->body] += mjcf_jointDofs(it->s.joint.type);
  }
  int chain = 0;  // the most dofs of one kinematic chain (a body's and its ancestors')
  for (int b = 1; b < sz->nbody; b++) {
    int p = ((Body*)c->obj[K_BODY].p[b])->parent;
    above[b] = above[p] + dofs[p];
    if (above[b] + dofs[b] > chain) chain = above[b] + dofs[b];
    for (int k = 0; k < dofs[b]; k++) sz->nM += above[b] + k + 1;
    sz->ntree += dofs[b] && !above[b];  // a tree starts at a body with dofs and none above
    sz->nmocap += ((Body*)c->obj[K_BODY].p[b])->mocap;
  }
  sz->ngeom = c->obj[K_GEOM].n;
  // bounding volumes: 2n - 1 for a body of n collidable geoms (the geoms are in body order)
  for (int g = 0, last = -1; g < sz->ngeom; g++) {
    const Item* it = c->obj[K_GEOM].p[g];
    if (!it->s.geom.contype && !it->s.geom.conaffinity) continue;
    sz->nbvh += it->body == last ? 2 : 1;
    last = it->body;
  }
  sz->nbvhstatic = sz->nbvh;
  sz->nsite = c->obj[K_SITE].n;
  sz->ncam = c->obj[K_CAM].n;
  sz->nlight = c->obj[K_LIGHT].n;
  sz->ntex = c->obj[K_TEX].n;
  for (int i = 0; i < sz->ntex; i++) {
    const mjTexture* t = &((Obj*)c->obj[K_TEX].p[i])->tex;
    if (sz->ntexdata > INT_MAX - t->width * t->height * t->nchannel)
      mjcf_fail(c, root, "model too large: its textures exceed %d bytes", INT_MAX);
    sz->ntexdata += t->width * t->height * t->nchannel;
  }
  sz->nmesh = c->obj[K_MESH].n;
  sz->nskin = c->obj[K_SKIN].n;
  for (int i = 0; i < sz->nskin; i++) {
    const mjSkin* sk = &((Obj*)c->obj[K_SKIN].p[i])->skin;
    sz->nskinvert += sk->nvert;
    sz->nskintexvert += sk->ntexcoord;
    sz->nskinface += sk->nface;
    sz->nskinbone += sk->nbone;
    sz->nskinbonevert += sk->nbonevert;
  }
  sz->nhfield = c->obj[K_HFIELD].n;
  for (int i = 0; i < sz->nhfield; i++) {
    const mjHField* hf = &((Obj*)c->obj[K_HFIELD].p[i])->hfield;
    sz->nhfielddata += hf->nrow * hf->ncol;
  }
  for (int i = 0; i < sz->nmesh; i++) {
    const mjMesh* me = &((Obj*)c->obj[K_MESH].p[i])->mesh;
    sz->nmeshvert += me->nvert;
    sz->nmeshnormal += me->nnormal;
    sz->nmeshtexcoord += me->ntexcoord;
    sz->nmeshface += me->nface;
    sz->nmeshgraph += mjcf_meshGraphSize(c->obj[K_MESH].p[i]);
    if (mjcf_meshGraphSize(c->obj[K_MESH].p[i])) {
      sz->nmeshpoly += me->npoly;
      sz->nmeshpolyvert += me->npolyvert;
      sz->nmeshpolymap += me->npolyvert;
    }
  }
  sz->nmat = c->obj[K_MAT].n;
  sz->npair = c->obj[K_PAIR].n;
  sz->nexclude = c->obj[K_EXCLUDE].n;
  sz->neq = c->obj[K_EQ].n;
  sz->ntendon = c->obj[K_TENDON].n;
  sz->nwrap = c->obj[K_WRAP].n;
  sz->nu = c->obj[K_ACT].n;
  for (int i = 0; i < sz->nu; i++) {
    const Obj* o = c->obj[K_ACT].p[i];
    sz->na += o->act.actdim >= 0 ? o->act.actdim : o->act.dyntype != mjDYN_NONE;
    sz->nhistory += historySize(o->act.hist.nsample, 1);
  }
  sz->nsensor = c->obj[K_SENSOR].n;
  for (int i = 0; i < sz->nsensor; i++) {
    const Obj* o = c->obj[K_SENSOR].p[i];
    sz->nsensordata += o->dim;
    sz->nhistory += historySize(o->hist.nsample, o->dim);
  }
  // custom fields: each kind's data, one block per field
  sz->nnumeric = c->obj[K_NUMERIC].n;
  sz->ntext = c->obj[K_TEXT].n;
  sz->ntuple = c->obj[K_TUPLE].n;
  for (int i = 0; i < sz->nnumeric; i++) sz->nnumericdata += ((Obj*)c->obj[K_NUMERIC].p[i])->size;
  for (int i = 0; i < sz->ntext; i++) sz->ntextdata += ((Obj*)c->obj[K_TEXT].p[i])->size;
  for (int i = 0; i < sz->ntuple; i++) sz->ntupledata += ((Obj*)c->obj[K_TUPLE].p[i])->size;
  sz->nkey = c->obj[K_KEY].n;
  // user numbers: <size nuser_*>, else the longest of each kind
  int nuser[NUSER];
  for (int k = 0; k < NUSER; k++) nuser[k] = c->nuser[k] >= 0 ? c->nuser[k] : c->usermax[k];
  sz->nuser_body = nuser[U_BODY];
  sz->nuser_jnt = nuser[U_JNT];
  sz->nuser_geom = nuser[U_GEOM];
  sz->nuser_site = nuser[U_SITE];
  sz->nuser_cam = nuser[U_CAM];
  sz->nuser_tendon = nuser[U_TENDON];
  sz->nuser_actuator = nuser[U_ACT];
  sz->nuser_sensor = nuser[U_SENSOR];
  sz->nnames = writeNames(c, NULL);
  sz->npaths = mjcf_writePaths(c, NULL);
  // preallocation for simulation (<size> values are lower bounds): contacts, constraint rows
  // (a contact takes at most the rows of a pyramidal cone of the largest condim of any geom or
  // pair: 2 (condim - 1), 1 for condim 1), and the stack
  int nconmax = 100 > sz->ngeom ? 100 : sz->ngeom, condim = 1;
  for (int i = 0; i < sz->ngeom; i++) {
    int dim = ((Item*)c->obj[K_GEOM].p[i])->s.geom.condim;
    if (dim > condim) condim = dim;
  }
  for (int i = 0; i < c->obj[K_PAIR].n; i++) {
    int dim = ((Obj*)c->obj[K_PAIR].p[i])->pair.condim;
    if (dim > condim) condim = dim;
  }
  sz->nconmax = c->nconmax > nconmax ? c->nconmax : nconmax;
  int rows = condim > 1 ? 2 * (condim - 1) : 1;
  int njmax = rows * sz->nconmax + 2 * sz->nv + 6 * sz->neq + 2 * sz->ntendon;
  if (njmax < 500) njmax = 500;
  sz->njmax = c->njmax > njmax ? c->njmax : njmax;
  // the stack (mj_dataStackNeed): a tendon's rows (friction loss, two limits, equality) may
  // touch any dof
  int ntenrow = 3 * sz->ntendon;
  for (int i = 0; i < sz->neq; i++) ntenrow += ((Obj*)c->obj[K_EQ].p[i])->type == mjEQ_TENDON;
  sz->opt = c->opt;
  int dense = !mj_isSparse(sz);
  double need = mj_dataStackNeed(sz, chain, ntenrow);
  if (need >= 1 << 28)
    mjcf_fail(c, root, "model too large: its data would need %.0f MB of stack%s",
              need * sizeof(mjtNum) / 1e6,
              dense ? " (a dense constraint Jacobian: use <option jacobian=\"sparse\">)" : "");
  sz->nstack = c->nstack > need ? c->nstack : (int)need;
  // njmax, nconmax, <size memory> and the user sizes together within mj_makeData's limit
  if (mj_dataBytes(sz) > MJ_MAXBUFFER)
    mjcf_fail(c, root, "model too large: its data would need %.0f MB (limit %.0f MB)",
              mj_dataBytes(sz) / 1e6, MJ_MAXBUFFER / 1e6);
}

// the sections of <mujoco> in MuJoCo's processing order, and those refused
static const char* const sections[] = {"compiler", "option", "size", "visual", "statistic",
                                       "default", "custom", "asset", "deformable",
                                       "worldbody", "contact",
                                       "equality", "tendon", "actuator", "sensor", "keyframe",
                                       NULL};
static const char* const unsupported[] = {"extension", "plugin", NULL};

// discardvisual, after the visual geoms are gone: no materials and no textures (references to
// them read as none; the meshes keep their texture coordinates), and only the meshes a kept geom
// names (mesh geoms and fitted primitives), renumbered, as MuJoCo 3.14; the others are kept
// aside for the masses of the dropped geoms
static void discardVisualAssets(Ctx* c) {
  c->obj[K_TEX].n = c->obj[K_MAT].n = 0;
  Vec* meshes = &c->obj[K_MESH];
  int* newid = mjcf_alloc(c, sizeof(int) * (meshes->n + 1));
  for (int k = 0; k < meshes->n; k++) newid[k] = -1;
  for (int g = 0; g < c->obj[K_GEOM].n; g++) {
    const GeomSpec* s = &((Item*)c->obj[K_GEOM].p[g])->s.geom;
    if (s->mesh) newid[s->dataid] = 0;
  }
  int n = 0;
  for (int k = 0; k < meshes->n; k++) {
    if (newid[k] < 0) {
      mjcf_push(c, &c->dropmeshes, meshes->p[k]);
      continue;
    }
    newid[k] = n;
    meshes->p[n++] = meshes->p[k];
  }
  meshes->n = n;
  for (int g = 0; g < c->obj[K_GEOM].n; g++) {
    GeomSpec* s = &((Item*)c->obj[K_GEOM].p[g])->s.geom;
    if (s->mesh) s->dataid = newid[s->dataid];
  }
}

// process every top-level child of root called `name` with fn
static void eachSection(Ctx* c, const mjXNode* root, const char* name,
                        void (*fn)(Ctx*, const mjXNode*)) {
  for (int i = 0; i < root->nchild; i++)
    if (!strcmp(root->child[i]->name, name)) fn(c, root->child[i]);
}

// the sections `name` of the main model, then those of each attached model in its scope
static void eachModelSection(Ctx* c, const mjXNode* root, const char* name,
                             void (*fn)(Ctx*, const mjXNode*)) {
  eachSection(c, root, name, fn);
  for (int i = 0; i < c->attached.n; i++) {
    Attach* a = c->attached.p[i];
    mjcf_swapScope(c, &a->scope);
    eachSection(c, a->doc->root, name, fn);
    mjcf_swapScope(c, &a->scope);
  }
}

// <equality> with the bodies' world poses
static void readEqualitySection(Ctx* c, const mjXNode* e) {
  mjcf_readEqualities(c, e, c->xpos, c->xquat);
}

// <default> at the top level: the main class
static void readTopDefault(Ctx* c, const mjXNode* e) { mjcf_readDefault(c, e, NULL); }

// <worldbody>: the world body's contents
static void readWorld(Ctx* c, const mjXNode* e) {
  Frame f = {{0, 0, 0}, {1, 0, 0, 0}, c->classes.p[0], ""};
  mjcf_checkAttrs(c, e);
  mjcf_walkBody(c, e, 0, &f);
}

// <tendon>, <actuator>, <keyframe> sections and the name tables they feed
static void readTendonSection(Ctx* c, const mjXNode* e) { mjcf_readTendons(c, e); }
static void readActuatorSection(Ctx* c, const mjXNode* e) { mjcf_readActuators(c, e); }
static void readKeySection(Ctx* c, const mjXNode* e) {
  mjcf_checkAttrs(c, e);
  if (c->src && c->src->repeat == 2) return;  // a replicated attachment's keys: the first copy's
  for (int i = 0; i < e->nchild; i++) {
    if (strcmp(e->child[i]->name, "key")) mjcf_fail(c, e->child[i], "unknown element in keyframe");
    mjcf_newObj(c, K_KEY, e->child[i]);
  }
}

// joints with springdamper (tc, dr): a mass-spring-damper of that time constant and damping
// ratio for the joint's inertia at qpos0, mass = 1 / dof_invweight0 (as solref's formula with
// unit impedance): stiffness = mass / (tc^2 dr^2), damping = 2 mass / tc
static void springDampers(Ctx* c, mjModel* m) {
  for (int j = 0; j < m->njnt; j++) {
    const double* sd = ((Item*)c->obj[K_JOINT].p[j])->s.joint.springdamper;
    int dof = m->jnt_dofadr[j];
    if (sd[0] <= 0 || sd[1] <= 0 || m->dof_invweight0[dof] < mjMINVAL) continue;
    double mass = 1 / m->dof_invweight0[dof];
    m->jnt_stiffness[j] = mass / (sd[0] * sd[0] * sd[1] * sd[1]);
    for (int k = 0; k < mjcf_jointDofs(m->jnt_type[j]); k++)
      m->dof_damping[dof + k] = 2 * mass / sd[0];
  }
}

// actuator_lengthrange computed as <compiler><lengthrange> asks (after the constants and the
// springs, as MuJoCo does); d is freed before a failure is reported
static void fillLengthRanges(Ctx* c, mjModel* m, mjData* d) {
  char msg[256];
  int bad = mj_setLengthRanges(m, d, &c->lropt, msg, sizeof(msg));
  if (bad < 0) return;
  mj_deleteData(d);
  mjcf_fail(c, ((Obj*)c->obj[K_ACT].p[bad])->h.e, "%s", msg);
}

// MuJoCo 3.14's reset with sleep enabled puts the trees written sleep="init" to sleep in qpos0:
// after a forward pass, an island (trees joined by constraint rows) sleeps only when all its
// trees are init ones, and unconstrained trees sleep alone (none when rows exist but islands
// do not).  A model where one cannot is refused, at the root body of the first such tree
static void checkSleepInit(Ctx* c, mjModel* m, mjData* d) {
  int ntree = m->ntree, ninit = 0, nslept = 0, first = -1;
  for (int t = 0; t < ntree; t++) ninit += m->tree_sleep_policy[t] == mjSLEEP_INIT;
  if (!(m->opt.enableflags & mjENBL_SLEEP) || !ninit) return;
  mj_resetData(m, d);
  mj_forward(m, d);
  mjIslands isl;
  size_t mark = mj_markStack(d);
  int found = m->opt.disableflags & mjDSBL_ISLAND ? 0 : mj_islandFind(m, d, &isl);
  // each tree's island (-1: no row touches it), and the islands holding a tree not init
  int* island = mjcf_alloc(c, sizeof(int) * ntree);
  int* mixed = mjcf_alloc(c, sizeof(int) * ntree);
  for (int t = 0; t < ntree; t++) island[t] = -1;
  for (int k = 0; found > 0 && k < isl.nisland; k++) {
    for (int j = isl.dofadr[k]; j < isl.dofadr[k + 1]; j++) {
      int t = m->dof_treeid[isl.dof[j]];
      island[t] = k;
      mixed[k] |= m->tree_sleep_policy[t] != mjSLEEP_INIT;
    }
  }
  mj_freeStack(d, mark);
  for (int t = 0; t < ntree; t++) {
    if (m->tree_sleep_policy[t] != mjSLEEP_INIT) continue;
    int slept = found > 0 ? island[t] < 0 || !mixed[island[t]] : d->nefc == 0;
    nslept += slept;
    if (!slept && first < 0) first = t;
  }
  if (first < 0) return;
  int root = 1;
  while (m->body_treeid[root] != first) root++;
  mj_deleteData(d);
  mjcf_fail(c, ((const Body*)c->obj[K_BODY].p[root])->h.e,
            "%d trees were marked as sleep='init' but only %d could be slept; this body is the "
            "root of the first tree that could not be slept", ninit, nslept);
}

// the whole compilation; the model is kept in *out so that errors can free it
static void compile(Ctx* c, const mjXNode* root, mjModel** out) {
  if (strcmp(root->name, "mujoco")) mjcf_fail(c, root, "the root element must be mujoco");
  c->root = root;
  c->modelname = mjcf_getAttr(root, "model");
  if (!c->modelname) c->modelname = "MuJoCo Model";
  mjcf_checkAttrs(c, root);
  // the compiler's and MuJoCo's defaults
  c->degree = c->autolimits = 1;
  c->prefix = c->suffix = "";
  c->inertiafromgeom = 2;
  c->igroup[1] = 5;
  memcpy(c->eulerseq, "xyz", 4);
  for (int k = 0; k < NUSER; k++) c->nuser[k] = -1;
  mj_defaultLROpt(&c->lropt);
  mj_defaultOption(&c->opt);
  mj_defaultVisual(&c->vis);
  mj_defaultStatistic(&c->stat);
  Body* world = mjcf_alloc(c, sizeof(Body));
  world->h.e = root;
  world->h.name = "world";
  mju_unit4(world->quat);
  mju_unit4(world->iquat);
  mjcf_push(c, &c->obj[K_BODY], world);
  // top-level elements must be known sections
  for (int i = 0; i < root->nchild; i++) {
    const mjXNode* s = root->child[i];
    if (mjcf_wordIndex(unsupported, s->name) >= 0)
      mjcf_fail(c, s, "%s is not supported yet", s->name);
    if (mjcf_wordIndex(sections, s->name) < 0) mjcf_fail(c, s, "unknown element");
  }
  // settings, classes, assets, then the tree
  eachSection(c, root, "compiler", mjcf_readCompiler);
  eachSection(c, root, "option", mjcf_readOption);
  eachSection(c, root, "size", mjcf_readSize);
  eachSection(c, root, "visual", mjcf_readVisual);
  eachSection(c, root, "statistic", mjcf_readStatistic);
  mjcf_push(c, &c->classes, mjcf_mainClass(c));
  eachSection(c, root, "default", readTopDefault);
  eachSection(c, root, "custom", mjcf_readCustom);
  eachSection(c, root, "asset", mjcf_readAssets);
  eachSection(c, root, "deformable", mjcf_readDeformable);
  mjcf_buildNames(c, K_MESH);  // geoms refer to meshes and height fields as the tree is read
  mjcf_buildNames(c, K_HFIELD);
  eachSection(c, root, "worldbody", readWorld);
  int nfused = c->obj[K_BODY].n;  // original body ids, the fused items' secondary key
  if (c->fusestatic) mjcf_fuseStatic(c, root);
  if (c->discardvisual) discardVisualAssets(c);
  static const int tree[] = {K_JOINT, K_GEOM, K_SITE, K_CAM, K_LIGHT};
  for (int k = 0; k < 5; k++) mjcf_sortByBody(c, tree[k], nfused);
  static const int named[] = {K_BODY, K_JOINT, K_GEOM, K_SITE, K_CAM, K_LIGHT, K_TEX, K_MAT};
  for (int k = 0; k < 8; k++) mjcf_buildNames(c, named[k]);
  // objects outside the tree, each kind named before the next refers to it
  int nbody = c->obj[K_BODY].n;
  c->xpos = mjcf_alloc(c, sizeof(double) * 3 * nbody);
  c->xquat = mjcf_alloc(c, sizeof(double) * 4 * nbody);
  mjcf_bodyWorld(c, c->xpos, c->xquat);
  eachModelSection(c, root, "contact", mjcf_readContact);
  mjcf_sortSignatures(c, K_PAIR);
  mjcf_sortSignatures(c, K_EXCLUDE);
  eachModelSection(c, root, "tendon", readTendonSection);
  mjcf_buildNames(c, K_TENDON);
  eachModelSection(c, root, "equality", readEqualitySection);
  eachModelSection(c, root, "actuator", readActuatorSection);
  mjcf_buildNames(c, K_ACT);
  eachModelSection(c, root, "sensor", mjcf_readSensors);
  eachModelSection(c, root, "keyframe", readKeySection);
  // <size nkey> adds unnamed keys at the defaults
  while (c->obj[K_KEY].n < c->nkey) mjcf_push(c, &c->obj[K_KEY], mjcf_alloc(c, sizeof(Obj)));
  static const int rest[] = {K_SKIN, K_PAIR, K_EXCLUDE, K_EQ, K_SENSOR, K_NUMERIC, K_TEXT,
                             K_TUPLE, K_KEY};
  for (int k = 0; k < 9; k++) mjcf_buildNames(c, rest[k]);
  mjcf_findTupleObjects(c);
  mjcf_resolveUserSensors(c);
  // the model: sizes, allocation, arrays
  mjModel sz;
  modelSizes(c, root, &sz);
  mjModel* m = *out = mj_makeModel(&sz);
  if (!m) mjcf_fail(c, root, "model too large or out of memory");
  m->opt = c->opt;
  m->vis = c->vis;
  if (m->nhistory && m->opt.timestep <= 0)
    mjcf_fail(c, root, "history buffers require positive timestep, got %g", m->opt.timestep);
  fillRanges(c, m);
  mjcf_bodyInertia(c);
  mjcf_alignFree(c);
  fillBodies(c, m);
  fillJoints(c, m);
  mjcf_fillMeshes(c, m);
  mjcf_fillSkins(c, m);
  fillItems(c, m);
  fillBvh(c, m);
  mjcf_fillHfields(c, m);
  mjcf_fillTextures(c, m);
  mjcf_fillMaterials(c, m);
  fillConstraints(c, m);
  fillTendons(c, m);
  fillSimple(m);
  fillActuators(c, m);
  fillSleep(c, m);
  fillSensors(c, m);
  fillKeys(c, m);
  fillCustom(c, m);
  writeNames(c, m);
  mjcf_writePaths(c, m);
  // constants that need the model in qpos0, then the statistics given in the file
  mjData* d = mj_makeData(m);
  if (!d) mjcf_fail(c, root, "out of memory");
  mj_setConst(m, d);
  springDampers(c, m);
  fillLengthRanges(c, m, d);
  checkSleepInit(c, m, d);
  mj_deleteData(d);
  int i = 0;
#define X(type, name, count, shape)                                                          \
  if (c->statset[i++]) memcpy(&m->stat.name, &c->stat.name, sizeof(type) * count);
  MJ_STAT_FIELDS(X)
#undef X
}

// compile a tree; NULL and a message on failure
mjModel* mj_compileTree(const mjXNode* root, const char* dir, char* err, int errsz) {
  Ctx* c = calloc(1, sizeof(Ctx));
  if (!c) {
    snprintf(err, errsz, "out of memory");
    return NULL;
  }
  c->err = err;
  c->errsz = errsz;
  mjModel* m = NULL;
  mjModel** out = calloc(1, sizeof(mjModel*));
  c->dir = dir;
  if (!out || setjmp(c->jmp)) {
    if (out) mj_deleteModel(*out);
    if (!out) snprintf(err, errsz, "out of memory");
    free(out);
    mjcf_freeMeshes(c);
    mjcf_freeAttached(c);
    mjcf_freeArena(c);
    free(c);
    return NULL;
  }
  compile(c, root, out);
  m = *out;
  free(out);
  mjcf_freeMeshes(c);
  mjcf_freeAttached(c);
  mjcf_freeArena(c);
  free(c);
  return m;
}

// compile a parsed document (URDF translated to MJCF first) and free it
static mjModel* compileDoc(mjXDoc* doc, char* err, int errsz) {
  if (!doc) return NULL;
  mjModel* m = NULL;
  if (mjcf_replicateRefs(doc->root)) snprintf(err, errsz, "out of memory");
  else if (!mjurdf_isRobot(doc->root) || mjurdf_toMjcf(doc, err, errsz))
    m = mj_compileTree(doc->root, doc->dir, err, errsz);
  mjx_free(doc);
  return m;
}

// compile an MJCF or URDF file
mjModel* mj_loadXML(const char* filename, char* err, int errsz) {
  return compileDoc(mjx_parseFile(filename, err, errsz), err, errsz);
}

// compile MJCF or URDF text held in memory
mjModel* mj_parseXMLString(const char* xml, const char* name, const char* dir,
                           char* err, int errsz) {
  return compileDoc(mjx_parseString(xml, name, dir, err, errsz), err, errsz);
}
