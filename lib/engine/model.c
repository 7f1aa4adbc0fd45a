// model.c: allocation, copy and defaults of mjModel and mjData, names, the data stack.
#include "engine/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/constraint.h"
#include "engine/history.h"
#include "util/util.h"

// bytes of every array of the model, each rounded up to 8 for alignment
static size_t modelBytes(const mjModel* m) {
  const mjModel* m_ = m;
  MJ_SIZES(MJ_X_SIZE_LOCAL)
  size_t total = 0;
#define X(type, name, rows, cols) total += mj_align8(sizeof(type) * (size_t)(rows) * (cols));
  MJ_MODEL_ARRAYS(X)
#undef X
  return total;
}

// point every array pointer of m into m->buffer, in table order
static void modelPointers(mjModel* m) {
  const mjModel* m_ = m;
  MJ_SIZES(MJ_X_SIZE_LOCAL)
  char* p = (char*)m->buffer;
#define X(type, name, rows, cols)                                                                \
  m->name = (type*)p;                                                                            \
  p += mj_align8(sizeof(type) * (size_t)(rows) * (cols));
  MJ_MODEL_ARRAYS(X)
#undef X
}

// 1 when every size is non-negative and the total stays addressable
int mj_sizesValid(const mjModel* m) {
#define X(name) if (m->name < 0 || m->name > (1 << 28)) return 0;
  MJ_SIZES(X)
#undef X
  const mjModel* m_ = m;
  MJ_SIZES(MJ_X_SIZE_LOCAL)
#define X(type, name, rows, cols)                                                                \
  if ((double)(rows) * (double)(cols) * sizeof(type) > (double)(1ull << 34)) return 0;
  MJ_MODEL_ARRAYS(X)
#undef X
  return modelBytes(m) <= MJ_MAXBUFFER;
}

// a model with the sizes of *sizes, zeroed arrays, default option/visual/statistic
mjModel* mj_makeModel(const mjModel* sizes) {
  if (!mj_sizesValid(sizes)) return NULL;
  mjModel* m = calloc(1, sizeof(mjModel));
  if (!m) return NULL;
#define X(name) m->name = sizes->name;
  MJ_SIZES(X)
#undef X
  mj_defaultOption(&m->opt);
  mj_defaultVisual(&m->vis);
  mj_defaultStatistic(&m->stat);
  m->nbuffer = modelBytes(m);
  m->buffer = calloc(1, m->nbuffer ? m->nbuffer : 1);
  if (!m->buffer) {
    free(m);
    return NULL;
  }
  modelPointers(m);
  return m;
}

// free a model and its buffer
void mj_deleteModel(mjModel* m) {
  if (!m) return;
  free(m->buffer);
  free(m);
}

// deep copy: same sizes, then the structs and the buffer byte for byte
mjModel* mj_copyModel(const mjModel* m) {
  mjModel* c = mj_makeModel(m);
  if (!c) return NULL;
  c->opt = m->opt;
  c->vis = m->vis;
  c->stat = m->stat;
  memcpy(c->buffer, m->buffer, m->nbuffer);
  return c;
}

// MuJoCo's default physics options
void mj_defaultOption(mjOption* o) {
  memset(o, 0, sizeof(*o));
  o->timestep = 0.002;
  o->impratio = 1;
  o->tolerance = 1e-8;
  o->ls_tolerance = 0.01;
  o->noslip_tolerance = 1e-6;
  o->ccd_tolerance = 1e-6;
  o->sleep_tolerance = 1e-3;
  o->gravity[2] = -9.81;
  o->magnetic[1] = -0.5;
  o->o_solref[0] = 0.02;
  o->o_solref[1] = 1;
  const mjtNum solimp[5] = {0.9, 0.95, 0.001, 0.5, 2};
  memcpy(o->o_solimp, solimp, sizeof(solimp));
  const mjtNum friction[5] = {1, 1, 0.005, 0.0001, 0.0001};
  memcpy(o->o_friction, friction, sizeof(friction));
  o->integrator = mjINT_EULER;
  o->cone = mjCONE_PYRAMIDAL;
  o->jacobian = mjJAC_AUTO;
  o->solver = mjSOL_NEWTON;
  o->iterations = 100;
  o->ls_iterations = 50;
  o->ccd_iterations = 35;
  o->sdf_initpoints = 40;
  o->sdf_iterations = 10;
}

// set n floats of v
static void setf(float* v, int n, float a, float b, float c, float d) {
  const float src[4] = {a, b, c, d};
  memcpy(v, src, n * sizeof(float));
}

// MuJoCo's default visualization options
void mj_defaultVisual(mjVisual* v) {
  memset(v, 0, sizeof(*v));
  // global
  v->global_cameraid = -1;
  v->global_fovy = 45;
  v->global_ipd = 0.068f;
  v->global_azimuth = 90;
  v->global_elevation = -45;
  v->global_linewidth = 1;
  v->global_glow = 0.3f;
  v->global_realtime = 1;
  v->global_offwidth = 640;
  v->global_offheight = 480;
  v->global_bvactive = 0;
  // quality
  v->quality_shadowsize = 4096;
  v->quality_offsamples = 4;
  v->quality_numslices = 28;
  v->quality_numstacks = 16;
  v->quality_numquads = 4;
  // headlight
  setf(v->headlight_ambient, 3, 0.1f, 0.1f, 0.1f, 0);
  setf(v->headlight_diffuse, 3, 0.4f, 0.4f, 0.4f, 0);
  setf(v->headlight_specular, 3, 0.5f, 0.5f, 0.5f, 0);
  v->headlight_active = 1;
  // map
  v->map_stiffness = 100;
  v->map_stiffnessrot = 500;
  v->map_force = 0.005f;
  v->map_torque = 0.1f;
  v->map_alpha = 0.3f;
  v->map_fogstart = 3;
  v->map_fogend = 10;
  v->map_znear = 0.01f;
  v->map_zfar = 50;
  v->map_haze = 0.3f;
  v->map_shadowclip = 1;
  v->map_shadowscale = 0.6f;
  v->map_actuatortendon = 2;
  // scale
  v->scale_forcewidth = 0.1f;
  v->scale_contactwidth = 0.3f;
  v->scale_contactheight = 0.1f;
  v->scale_connect = 0.2f;
  v->scale_com = 0.4f;
  v->scale_camera = 0.3f;
  v->scale_light = 0.3f;
  v->scale_selectpoint = 0.2f;
  v->scale_jointlength = 1;
  v->scale_jointwidth = 0.1f;
  v->scale_actuatorlength = 0.7f;
  v->scale_actuatorwidth = 0.2f;
  v->scale_framelength = 1;
  v->scale_framewidth = 0.1f;
  v->scale_constraint = 0.1f;
  v->scale_slidercrank = 0.2f;
  v->scale_frustum = 10;
  // rgba
  setf(v->rgba_fog, 4, 0, 0, 0, 1);
  setf(v->rgba_haze, 4, 1, 1, 1, 1);
  setf(v->rgba_force, 4, 1, 0.5f, 0.5f, 1);
  setf(v->rgba_inertia, 4, 0.8f, 0.2f, 0.2f, 0.6f);
  setf(v->rgba_joint, 4, 0.2f, 0.6f, 0.8f, 1);
  setf(v->rgba_actuator, 4, 0.2f, 0.25f, 0.2f, 1);
  setf(v->rgba_actuatornegative, 4, 0.2f, 0.6f, 0.9f, 1);
  setf(v->rgba_actuatorpositive, 4, 0.9f, 0.4f, 0.2f, 1);
  setf(v->rgba_com, 4, 0.9f, 0.9f, 0.9f, 1);
  setf(v->rgba_camera, 4, 0.6f, 0.9f, 0.6f, 1);
  setf(v->rgba_light, 4, 0.6f, 0.6f, 0.9f, 1);
  setf(v->rgba_selectpoint, 4, 0.9f, 0.9f, 0.1f, 1);
  setf(v->rgba_connect, 4, 0.2f, 0.2f, 0.8f, 1);
  setf(v->rgba_contactpoint, 4, 0.9f, 0.6f, 0.2f, 1);
  setf(v->rgba_contactforce, 4, 0.7f, 0.9f, 0.9f, 1);
  setf(v->rgba_contactfriction, 4, 0.9f, 0.8f, 0.4f, 1);
  setf(v->rgba_contacttorque, 4, 0.9f, 0.7f, 0.9f, 1);
  setf(v->rgba_contactgap, 4, 0.5f, 0.8f, 0.9f, 1);
  setf(v->rgba_rangefinder, 4, 1, 1, 0.1f, 1);
  setf(v->rgba_constraint, 4, 0.9f, 0, 0, 1);
  setf(v->rgba_slidercrank, 4, 0.5f, 0.3f, 0.8f, 1);
  setf(v->rgba_crankbroken, 4, 0.9f, 0, 0, 1);
  setf(v->rgba_frustum, 4, 1, 1, 0, 0.2f);
  setf(v->rgba_bv, 4, 0, 1, 0, 0.5f);
  setf(v->rgba_bvactive, 4, 1, 0, 0, 0.5f);
}

// MuJoCo's default statistics, used until the compiler computes them
void mj_defaultStatistic(mjStatistic* s) {
  memset(s, 0, sizeof(*s));
  s->meaninertia = 1;
  s->meanmass = 1;
  s->meansize = 0.2;
  s->extent = 2;
}

// the stack the pipeline needs at most (see model.h for the terms)
double mj_stackNeed(const mjModel* m) {
  double nv = m->nv, nbody = m->nbody, nM = m->nM;
  // the implicit integrator: a dense nv x nv matrix, its RNE derivative 12 nM + 8 nv, the
  // fluid derivative's 6 nv
  double dense = nv * nv + 12 * nM + 16 * nv, fast = 2 * nM + 6 * nv;
  double need = 2 * nv + (dense > fast ? dense : fast);
  double euler = 2 * nM + 2 * nv, rk4 = m->nq + 11 * nv + 6.0 * m->na + 12 * nbody;
  if (euler > need) need = euler;
  if (rk4 > need) need = rk4;
  // what the constraint stages take from the stack beside the arena: the rows of one
  // constraint (at most 6 + 12 rows of nv), and a few vectors of njmax and nv for the
  // solvers and the inverse (their dense nv x nv work is within `dense` above)
  return need + 32.0 * nv + 16.0 * m->njmax;
}

// the arena and solver stack of the constraint stage (see model.h); counts in mjtNums, an
// int array as half its length plus one
double mj_constraintStackNeed(const mjModel* m, double rownnz, double nwide, int dense) {
  double nv = m->nv, nM = m->nM, R = m->njmax, wide = nwide < R ? nwide : R;

  // Jacobian entries: compressed rows (at most `wide` rows over every dof), or dense rows
  double nJs = (R - wide) * rownnz + wide * nv, nJ = dense ? R * nv : nJs;

  // the arena: 14 mjtNums and 5 ints per row (6 with dense row lengths), J's values and
  // (compressed) columns, its arrays each rounded up to 8 bytes (within 18)
  double arena = 17 * R + (dense ? nJ : 1.5 * nJ) + 18;

  // a dense J gathered into compressed rows on the stack by each solver (jacRows)
  double gather = dense ? R + 1.5 * nJ + 3 : 0;

  // Newton and CG: 7 nv + 2.5 R of vectors; the Hessian's 13.5 nv, then a dense nv x nv
  // factor, or the sparse one: 5 nv of ints and D, the explicit entries of M and the rows
  // ((nM + nJ) / 2) and L's values and columns over at most a full lower triangle
  double factor = dense ? nv * nv : 5 * nv + (nM + nJ) / 2 + 0.75 * nv * (nv - 1);
  double newton = 20.5 * nv + 2.5 * R + gather + factor + 16;

  // PGS and noslip: 13.5 nv + nM / 2 of ints and vectors, 4.5 R of row arrays, W's columns
  // (each within its row's chains: at most nJs values and nJs / 2 + R / 2 ints) and the
  // diagonal blocks (10 R: a block has at most 10 rows, a pyramidal condim-6 contact)
  double pgs = 13.5 * nv + nM / 2 + 15 * R + 1.5 * nJs + gather + 16;

  // the islands (island.c) below the solver: their index arrays (2 nbody + 2 nv + 2 R ints,
  // within nbody + nv + R + 8) and an island's view (2 nM of inertia, 8.5 nv of dof vectors
  // and ints, 9 R of row arrays, J's values and compressed columns: within 1.5 nJ + 8)
  double islands = m->nbody + 9.5 * nv + 2 * nM + 10 * R + 1.5 * nJ + 16;
  return arena + islands + (newton > pgs ? newton : pgs);
}

// the stack for the sizes of m (see model.h): a row touches the dofs of at most two chains;
// the dense Jacobian's need too when the options choose it (they may switch to sparse later)
double mj_dataStackNeed(const mjModel* m, int chain, int ntenrow) {
  double rownnz = 2.0 * chain < m->nv ? 2.0 * chain : m->nv;
  double efc = mj_constraintStackNeed(m, rownnz, ntenrow, 0);
  if (!mj_isSparse(m)) efc = fmax(efc, mj_constraintStackNeed(m, rownnz, ntenrow, 1));
  return fmax(mj_stackNeed(m) + efc, 1 << 17);
}

// ---- data ------------------------------------------------------------------------------------

// bytes of the region shared by the stack (from the bottom) and the arena (from the top)
static size_t stackBytes(const mjData* d) {
  return d->nbuffer - (size_t)((char*)d->stack - (char*)d->buffer);
}

// mjtNums of d->undo: time, qpos, qvel, act, qacc_warmstart, history (mj_passGrow)
static size_t undoSize(const mjModel* m) {
  return 1 + (size_t)m->nq + 2 * (size_t)m->nv + m->na + m->nhistory;
}

// bytes of data for m with room for `room` contacts and `stack` mjtNums of stack: every
// array rounded up to 8 bytes, the undo state, then the stack
static double dataBytes(const mjModel* m, int room, double stack) {
  const mjModel* m_ = m;
  MJ_SIZES(MJ_X_SIZE_LOCAL)
  nconmax = room;
  double total = 0;
#define X(type, name, rows, cols) total += 8 * ceil(sizeof(type) * (double)(rows) * (cols) / 8);
  MJ_DATA_ARRAYS(X)
#undef X
  return total + sizeof(mjtNum) * (undoSize(m) + stack);
}

// every data array rounded up to 8 bytes, the undo state, then the stack
double mj_dataBytes(const mjModel* m) { return dataBytes(m, m->nconmax, m->nstack); }

// point d's arrays, undo state and stack into d->buffer, contacts for d->nconmax
static void layout(const mjModel* m, mjData* d) {
  const mjModel* m_ = m;
  MJ_SIZES(MJ_X_SIZE_LOCAL)
  nconmax = d->nconmax;
  char* p = (char*)d->buffer;
#define X(type, name, rows, cols)                                                                \
  d->name = (type*)p;                                                                            \
  p += mj_align8(sizeof(type) * (size_t)(rows) * (cols));
  MJ_DATA_ARRAYS(X)
#undef X
  d->undo = (mjtNum*)p;
  d->stack = d->undo + undoSize(m);
}

// data for m: arrays then the stack in one allocation, reset to the defaults; NULL beyond
// MJ_MAXBUFFER
mjData* mj_makeData(const mjModel* m) {
  if (mj_dataBytes(m) > MJ_MAXBUFFER) return NULL;
  mjData* d = calloc(1, sizeof(mjData));
  if (!d) return NULL;
  d->nbuffer = (size_t)mj_dataBytes(m);
  d->buffer = calloc(1, d->nbuffer ? d->nbuffer : 1);
  if (!d->buffer) {
    free(d);
    return NULL;
  }
  d->nconmax = m->nconmax;
  d->njmax = m->njmax;
  layout(m, d);
  d->stackreserve = (size_t)mj_stackNeed(m);
  mj_resetData(m, d);
  return d;
}

// the most dofs of one kinematic chain of m (a body's and its ancestors'), and the tendon
// rows: friction loss and two limits per tendon, its equalities
static int chainDofs(const mjModel* m, int* ntenrow) {
  int chain = 0;
  for (int b = 1; b < m->nbody; b++) {
    int n = 0;
    for (int a = b; a > 0; a = m->body_parentid[a]) n += m->body_dofnum[a];
    if (n > chain) chain = n;
  }
  *ntenrow = 3 * m->ntendon;
  for (int i = 0; i < m->neq; i++) *ntenrow += m->eq_type[i] == mjEQ_TENDON;
  return chain;
}

// copy old's arrays (contacts: old's room), undo state, used stack and arena into d, laid
// out with at least old's room
static void copyData(const mjModel* m, mjData* d, const mjData* old) {
  const mjModel* m_ = m;
  MJ_SIZES(MJ_X_SIZE_LOCAL)
  nconmax = old->nconmax;
#define X(type, name, rows, cols) memcpy(d->name, old->name, sizeof(type) * (size_t)(rows) * (cols));
  MJ_DATA_ARRAYS(X)
#undef X
  memcpy(d->undo, old->undo, sizeof(mjtNum) * undoSize(m));
  memcpy(d->stack, old->stack, sizeof(mjtNum) * old->pstack);
  char *from = (char*)old->buffer + old->nbuffer, *to = (char*)d->buffer + d->nbuffer;
  memcpy(to - old->parena, from - old->parena, old->parena);
  mj_moveEfc(d, from, to);
}

// grow d's room (see mj.h): sizes as m's with the new room, the stack the larger of its own
// and their need; arrays and the undo state copied, the stack's used bottom and the arena's
// top (the last step's constraint rows) too
int mj_growData(const mjModel* m, mjData* d, int nconmax, int njmax) {
  mjModel sz = *m;
  int ntenrow, chain = chainDofs(m, &ntenrow);
  sz.nconmax = nconmax > d->nconmax ? nconmax : d->nconmax;
  sz.njmax = njmax > d->njmax ? njmax : d->njmax;
  size_t oldstack = stackBytes(d) / sizeof(mjtNum);
  double need = mj_dataStackNeed(&sz, chain, ntenrow);
  double nstack = need > oldstack ? need : oldstack;
  double bytes = dataBytes(&sz, sz.nconmax, nstack);
  if (bytes > MJ_MAXBUFFER) return -1;
  void* buffer = calloc(1, (size_t)bytes);
  if (!buffer) return -1;

  // the new layout, each array copied (contacts: the old room's)
  mjData old = *d;
  d->buffer = buffer;
  d->nbuffer = (size_t)bytes;
  d->nconmax = sz.nconmax;
  d->njmax = sz.njmax;
  layout(m, d);
  copyData(m, d, &old);
  d->stackreserve = (size_t)mj_stackNeed(&sz);
  free(old.buffer);
  return 0;
}

// free data and its buffer
void mj_deleteData(mjData* d) {
  if (!d) return;
  free(d->buffer);
  free(d);
}

// zero every array (not the stack: it is scratch, and touching all of it would cost page
// faults on every reset), then qpos0, mocap poses from the model, eq_active from eq_active0
void mj_resetData(const mjModel* m, mjData* d) {
  memset(d->buffer, 0, (size_t)((char*)d->stack - (char*)d->buffer));
  d->pstack = 0;
  d->maxstack = 0;
  d->time = 0;
  d->energy[0] = d->energy[1] = 0;
  d->ncon = d->nefc = d->nJ = 0;
  d->parena = d->maxarena = 0;
  d->solver_niter = 0;
  memset(d->solver, 0, sizeof(d->solver));
  d->solver_fwdinv[0] = d->solver_fwdinv[1] = 0;
  memset(d->warning, 0, sizeof(d->warning));
  memset(d->timer, 0, sizeof(d->timer));
  memcpy(d->qpos, m->qpos0, sizeof(mjtNum) * m->nq);
  for (int i = 0; i < m->neq; i++) d->eq_active[i] = m->eq_active0[i];
  for (int b = 0; b < m->nbody; b++) {
    int id = m->body_mocapid[b];
    if (id < 0) continue;
    memcpy(d->mocap_pos + 3 * id, m->body_pos + 3 * b, 3 * sizeof(mjtNum));
    memcpy(d->mocap_quat + 4 * id, m->body_quat + 4 * b, 4 * sizeof(mjtNum));
  }
  mj_historyReset(m, d);
}

// reset, then copy the state of keyframe `key` (ignored when out of range)
void mj_resetDataKeyframe(const mjModel* m, mjData* d, int key) {
  mj_resetData(m, d);
  if (key < 0 || key >= m->nkey) return;
  d->time = m->key_time[key];
  memcpy(d->qpos, m->key_qpos + (size_t)key * m->nq, sizeof(mjtNum) * m->nq);
  memcpy(d->qvel, m->key_qvel + (size_t)key * m->nv, sizeof(mjtNum) * m->nv);
  memcpy(d->act, m->key_act + (size_t)key * m->na, sizeof(mjtNum) * m->na);
  memcpy(d->ctrl, m->key_ctrl + (size_t)key * m->nu, sizeof(mjtNum) * m->nu);
  memcpy(d->mocap_pos, m->key_mpos + (size_t)key * 3 * m->nmocap, sizeof(mjtNum) * 3 * m->nmocap);
  memcpy(d->mocap_quat, m->key_mquat + (size_t)key * 4 * m->nmocap,
         sizeof(mjtNum) * 4 * m->nmocap);
}

// ---- names -----------------------------------------------------------------------------------

// the name-address array and count of object type `type`; NULL for types without names
static const int* nameAdr(const mjModel* m, int type, int* n) {
  switch (type) {
    case mjOBJ_BODY: case mjOBJ_XBODY: *n = m->nbody; return m->name_bodyadr;
    case mjOBJ_JOINT: *n = m->njnt; return m->name_jntadr;
    case mjOBJ_GEOM: *n = m->ngeom; return m->name_geomadr;
    case mjOBJ_SITE: *n = m->nsite; return m->name_siteadr;
    case mjOBJ_CAMERA: *n = m->ncam; return m->name_camadr;
    case mjOBJ_LIGHT: *n = m->nlight; return m->name_lightadr;
    case mjOBJ_MESH: *n = m->nmesh; return m->name_meshadr;
    case mjOBJ_SKIN: *n = m->nskin; return m->name_skinadr;
    case mjOBJ_HFIELD: *n = m->nhfield; return m->name_hfieldadr;
    case mjOBJ_TEXTURE: *n = m->ntex; return m->name_texadr;
    case mjOBJ_MATERIAL: *n = m->nmat; return m->name_matadr;
    case mjOBJ_PAIR: *n = m->npair; return m->name_pairadr;
    case mjOBJ_EXCLUDE: *n = m->nexclude; return m->name_excludeadr;
    case mjOBJ_EQUALITY: *n = m->neq; return m->name_eqadr;
    case mjOBJ_TENDON: *n = m->ntendon; return m->name_tendonadr;
    case mjOBJ_ACTUATOR: *n = m->nu; return m->name_actuatoradr;
    case mjOBJ_SENSOR: *n = m->nsensor; return m->name_sensoradr;
    case mjOBJ_NUMERIC: *n = m->nnumeric; return m->name_numericadr;
    case mjOBJ_TEXT: *n = m->ntext; return m->name_textadr;
    case mjOBJ_TUPLE: *n = m->ntuple; return m->name_tupleadr;
    case mjOBJ_KEY: *n = m->nkey; return m->name_keyadr;
    default: *n = 0; return NULL;
  }
}

// id of the object of type `type` named `name`, or -1
int mj_name2id(const mjModel* m, int type, const char* name) {
  int n;
  const int* adr = nameAdr(m, type, &n);
  if (!adr || !name || !name[0]) return -1;
  for (int i = 0; i < n; i++)
    if (adr[i] >= 0 && adr[i] < m->nnames && !strcmp(m->names + adr[i], name)) return i;
  return -1;
}

// name of object `id` of type `type`; NULL when unnamed or out of range
const char* mj_id2name(const mjModel* m, int type, int id) {
  int n;
  const int* adr = nameAdr(m, type, &n);
  if (!adr || id < 0 || id >= n || adr[id] < 0 || adr[id] >= m->nnames) return NULL;
  const char* s = m->names + adr[id];
  return s[0] ? s : NULL;
}

// ---- warnings and the stack ------------------------------------------------------------------

// count a warning with its info
void mj_warning(mjData* d, int w, int info) {
  if (w < 0 || w >= mjNWARNING) return;
  d->warning[w].lastinfo = info;
  d->warning[w].number++;
}

// empty the arena: the previous step's contacts and constraint rows are gone; the arena never
// takes the stackreserve mjtNums the stages need from the stack (mj_stackNeed)
void mj_resetArena(mjData* d) { d->parena = 0; }

// `bytes` (rounded up to 8) from the top of the region, or NULL where they would meet the stack
void* mj_arenaAlloc(mjData* d, size_t bytes) {
  bytes = mj_align8(bytes);
  size_t used = d->parena + (d->pstack > d->stackreserve ? d->pstack : d->stackreserve) *
                                sizeof(mjtNum);
  if (used > stackBytes(d) || bytes > stackBytes(d) - used) return NULL;
  d->parena += bytes;
  if (d->parena > d->maxarena) d->maxarena = d->parena;
  return (char*)d->buffer + d->nbuffer - d->parena;
}

// the current top of the stack, to free back to
size_t mj_markStack(const mjData* d) { return d->pstack; }

// n mjtNums from the stack; NULL when the stack is exhausted (callers treat it as a bug-level
// sizing error: the stack is sized at compile time for the largest step)
mjtNum* mj_stackAlloc(mjData* d, size_t n) {
  size_t cap = (stackBytes(d) - d->parena) / sizeof(mjtNum);
  if (d->pstack + n > cap) return NULL;
  mjtNum* p = d->stack + d->pstack;
  d->pstack += n;
  if (d->pstack > d->maxstack) d->maxstack = d->pstack;
  return p;
}

// release everything allocated after `mark`
void mj_freeStack(mjData* d, size_t mark) { d->pstack = mark; }

// ---- what actuators pass on to their joint or tendon --------------------------------------

// 1 when actuator a acts on joint id (tendon 0: joint or jointinparent transmission) or on
// tendon id (tendon 1: tendon transmission)
static int actsOn(const mjModel* m, int a, int tendon, int id) {
  int t = m->actuator_trntype[a];
  if (m->actuator_trnid[2 * a] != id) return 0;
  return tendon ? t == mjTRN_TENDON : t == mjTRN_JOINT || t == mjTRN_JOINTINPARENT;
}

// 1 when actuator a has some damping, damping polynomial term or armature
static int passesOn(const mjModel* m, int a) {
  return m->actuator_damping[a] != 0 || m->actuator_armature[a] != 0 ||
         !mju_isZero(m->actuator_dampingpoly + mjNPOLY * a, mjNPOLY);
}

// the one actuator passing damping or armature on, -2 several, -1 none (model.h)
int mj_actuatorTarget(const mjModel* m, int tendon, int id) {
  int found = -1;
  for (int a = 0; a < m->nu; a++)
    if (passesOn(m, a) && actsOn(m, a, tendon, id)) found = found == -1 ? a : -2;
  return found;
}

// the joint or tendon of dof or tendon i (*tendon 1 for a tendon) and the actuators that may
// pass something on to it, [*a0, *a1): the one its jnt_ or tendon_actuatorid names, all when
// it is -2 (several), none when -1
static void passedTo(const mjModel* m, int objtype, int i, int* tendon, int* id, int* a0,
                     int* a1) {
  *tendon = objtype == mjOBJ_TENDON;
  *id = *tendon ? i : m->dof_jntid[i];
  int act = *tendon ? m->tendon_actuatorid[*id] : m->jnt_actuatorid[*id];
  *a0 = act >= 0 ? act : 0;
  *a1 = act >= 0 ? act + 1 : act == -2 ? m->nu : 0;
}

// own damping plus gear^2 times the actuators' (model.h)
mjtNum mj_damping(const mjModel* m, int objtype, int i, mjtNum poly[mjNPOLY]) {
  int tendon, id, a0, a1;
  const mjtNum* own = objtype == mjOBJ_TENDON ? m->tendon_dampingpoly : m->dof_dampingpoly;
  mjtNum b = objtype == mjOBJ_TENDON ? m->tendon_damping[i] : m->dof_damping[i], add = 0;
  mju_copy(poly, own + mjNPOLY * i, mjNPOLY);
  passedTo(m, objtype, i, &tendon, &id, &a0, &a1);
  for (int a = a0; a < a1; a++) {
    if (!actsOn(m, a, tendon, id)) continue;
    mjtNum g2 = m->actuator_gear[6 * a] * m->actuator_gear[6 * a];
    add += g2 * m->actuator_damping[a];
    mju_addToScl(poly, m->actuator_dampingpoly + mjNPOLY * a, g2, mjNPOLY);
  }
  return b + add;
}

// own armature plus gear^2 times the actuators' (model.h)
mjtNum mj_armature(const mjModel* m, int objtype, int i) {
  int tendon, id, a0, a1;
  mjtNum arm = objtype == mjOBJ_TENDON ? m->tendon_armature[i] : m->dof_armature[i], add = 0;
  passedTo(m, objtype, i, &tendon, &id, &a0, &a1);
  for (int a = a0; a < a1; a++)
    if (actsOn(m, a, tendon, id))
      add += m->actuator_gear[6 * a] * m->actuator_gear[6 * a] * m->actuator_armature[a];
  return arm + add;
}
