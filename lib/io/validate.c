// validate.c: the semantic check of a model read from a file.  The binary reader proves the
// bytes are intact; this proves they make sense: every id, address and count points in range
// and agrees with the body tree, the joint and dof layouts and the sparse inertia rows the
// stages walk, every enum value is known, the name and path buffers and each custom text end in
// a terminator, and every real number is finite.  A model that passes cannot make a stage index
// out of bounds.
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mj.h"
#include "engine/forward.h"
#include "engine/model.h"
#include "engine/smooth.h"
#include "util/util.h"

// where the message goes
typedef struct {
  char* err;
  int errsz;
} Msg;

// coordinates and dofs of each joint type (mjtJoint order)
static const int jointQpos[4] = {7, 4, 1, 1}, jointDofs[4] = {6, 3, 1, 1};

// format the message into the caller's buffer; returns 1 (invalid) for use in conditions
static int say(Msg* g, const char* fmt, ...) {
  if (!g->err || g->errsz < 1) return 1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g->err, (size_t)g->errsz, fmt, ap);
  va_end(ap);
  return 1;
}

// "field[i]", or "field" for a size (i < 0)
static const char* fieldName(char buf[96], const char* f, long i) {
  if (i < 0) snprintf(buf, 96, "%s", f);
  else snprintf(buf, 96, "%s[%ld]", f, i);
  return buf;
}

// 1 and "field[i] = v out of range [lo, hi)" when v is outside [lo, hi)
static int outside(Msg* g, const char* f, long i, long v, long lo, long hi) {
  char name[96];
  return v >= lo && v < hi ? 0 : say(g, "%s = %ld out of range [%ld, %ld)",
                                     fieldName(name, f, i), v, lo, hi);
}

// 1 and "field[i] = v, expected want (why)" when v differs from want
static int differs(Msg* g, const char* f, long i, long v, long want, const char* why) {
  char name[96];
  return v == want ? 0 : say(g, "%s = %ld, expected %ld (%s)", fieldName(name, f, i), v, want,
                             why);
}

// number of objects of an mjtObj type (0 for types the model does not hold)
static int objCount(const mjModel* m, int type) {
  switch (type) {
    case mjOBJ_BODY: case mjOBJ_XBODY: return m->nbody;
    case mjOBJ_JOINT: return m->njnt;
    case mjOBJ_DOF: return m->nv;
    case mjOBJ_GEOM: return m->ngeom;
    case mjOBJ_SITE: return m->nsite;
    case mjOBJ_CAMERA: return m->ncam;
    case mjOBJ_LIGHT: return m->nlight;
    case mjOBJ_MESH: return m->nmesh;
    case mjOBJ_SKIN: return m->nskin;
    case mjOBJ_HFIELD: return m->nhfield;
    case mjOBJ_TEXTURE: return m->ntex;
    case mjOBJ_MATERIAL: return m->nmat;
    case mjOBJ_PAIR: return m->npair;
    case mjOBJ_EXCLUDE: return m->nexclude;
    case mjOBJ_EQUALITY: return m->neq;
    case mjOBJ_TENDON: return m->ntendon;
    case mjOBJ_ACTUATOR: return m->nu;
    case mjOBJ_SENSOR: return m->nsensor;
    case mjOBJ_NUMERIC: return m->nnumeric;
    case mjOBJ_TEXT: return m->ntext;
    case mjOBJ_TUPLE: return m->ntuple;
    case mjOBJ_KEY: return m->nkey;
    default: return 0;
  }
}

// ---- plain ranges ---------------------------------------------------------------------------

// one int array whose every element must lie in [lo, hi) (lo = -1: "none" allowed)
typedef struct {
  const char* name;
  const int* p;
  long n;
  int lo, hi;
} Range;

// a Range row of field f with n elements
#define ROW(f, n, lo, hi) {#f, m->f, (n), (lo), (hi)}

// every id, enum and count that needs no other field to be checked
static int checkRanges(const mjModel* m, Msg* g) {
  const Range rows[] = {
    // bodies, joints, dofs (their structure follows in checkTree and checkJoints)
    ROW(body_parentid, m->nbody, 0, m->nbody),
    ROW(body_mocapid, m->nbody, -1, m->nmocap),
    ROW(body_treeid, m->nbody, -1, m->nbody),
    ROW(jnt_type, m->njnt, mjJNT_FREE, mjJNT_HINGE + 1),
    ROW(jnt_bodyid, m->njnt, 1, m->nbody),
    ROW(dof_treeid, m->nv, -1, m->nbody),
    ROW(tree_sleep_policy, m->ntree, mjSLEEP_AUTO_NEVER, mjSLEEP_INIT + 1),
    // geoms, sites, cameras, lights
    ROW(geom_type, m->ngeom, mjGEOM_PLANE, mjNGEOMTYPES),
    ROW(geom_bodyid, m->ngeom, 0, m->nbody),
    ROW(geom_matid, m->ngeom, -1, m->nmat),
    ROW(site_type, m->nsite, mjGEOM_PLANE, mjNGEOMTYPES),
    ROW(site_bodyid, m->nsite, 0, m->nbody),
    ROW(site_matid, m->nsite, -1, m->nmat),
    ROW(cam_mode, m->ncam, mjCAMLIGHT_FIXED, mjCAMLIGHT_TARGETBODYCOM + 1),
    ROW(cam_bodyid, m->ncam, 0, m->nbody),
    ROW(cam_targetbodyid, m->ncam, -1, m->nbody),
    ROW(light_mode, m->nlight, mjCAMLIGHT_FIXED, mjCAMLIGHT_TARGETBODYCOM + 1),
    ROW(light_bodyid, m->nlight, 0, m->nbody),
    ROW(light_targetbodyid, m->nlight, -1, m->nbody),
    ROW(light_type, m->nlight, mjLIGHT_SPOT, mjLIGHT_IMAGE + 1),
    ROW(light_texid, m->nlight, -1, m->ntex),
    // assets
    ROW(mesh_pathadr, m->nmesh, -1, m->npaths),
    ROW(hfield_pathadr, m->nhfield, -1, m->npaths),
    ROW(tex_type, m->ntex, mjTEXTURE_2D, mjTEXTURE_SKYBOX + 1),
    ROW(tex_pathadr, m->ntex, -1, m->npaths),
    ROW(mat_texid, m->nmat * mjNTEXROLE, -1, m->ntex),
    // pairs, equalities, tendons
    ROW(pair_geom1, m->npair, 0, m->ngeom),
    ROW(pair_geom2, m->npair, 0, m->ngeom),
    ROW(eq_type, m->neq, mjEQ_CONNECT, mjEQ_TENDON + 1),
    ROW(tendon_num, m->ntendon, 0, m->nwrap + 1),
    ROW(tendon_matid, m->ntendon, -1, m->nmat),
    ROW(wrap_type, m->nwrap, mjWRAP_JOINT, mjWRAP_CYLINDER + 1),
    // actuators, sensors
    ROW(actuator_trntype, m->nu, mjTRN_JOINT, mjTRN_BODY + 1),
    ROW(actuator_dyntype, m->nu, mjDYN_NONE, mjDYN_USER + 1),
    ROW(actuator_gaintype, m->nu, mjGAIN_FIXED, mjGAIN_USER + 1),
    ROW(actuator_biastype, m->nu, mjBIAS_NONE, mjBIAS_USER + 1),
    ROW(actuator_ctrlspec, m->nu, 0, mjINPUT_NONE + 1),
    ROW(actuator_actnum, m->nu, 0, m->na + 1),
    ROW(sensor_type, m->nsensor, mjSENS_TOUCH, mjSENS_USER + 1),
    ROW(sensor_datatype, m->nsensor, mjDATATYPE_REAL, mjDATATYPE_QUATERNION + 1),
    ROW(sensor_needstage, m->nsensor, mjSTAGE_NONE, mjSTAGE_ACC + 1),
    // names: an address in names[] or -1
    ROW(name_bodyadr, m->nbody, -1, m->nnames), ROW(name_jntadr, m->njnt, -1, m->nnames),
    ROW(name_geomadr, m->ngeom, -1, m->nnames), ROW(name_siteadr, m->nsite, -1, m->nnames),
    ROW(name_camadr, m->ncam, -1, m->nnames), ROW(name_lightadr, m->nlight, -1, m->nnames),
    ROW(name_meshadr, m->nmesh, -1, m->nnames), ROW(name_hfieldadr, m->nhfield, -1, m->nnames),
    ROW(name_skinadr, m->nskin, -1, m->nnames),
    ROW(name_texadr, m->ntex, -1, m->nnames), ROW(name_matadr, m->nmat, -1, m->nnames),
    ROW(name_pairadr, m->npair, -1, m->nnames),
    ROW(name_excludeadr, m->nexclude, -1, m->nnames), ROW(name_eqadr, m->neq, -1, m->nnames),
    ROW(name_tendonadr, m->ntendon, -1, m->nnames),
    ROW(name_actuatoradr, m->nu, -1, m->nnames),
    ROW(name_sensoradr, m->nsensor, -1, m->nnames), ROW(name_keyadr, m->nkey, -1, m->nnames),
    ROW(name_numericadr, m->nnumeric, -1, m->nnames),
    ROW(name_textadr, m->ntext, -1, m->nnames), ROW(name_tupleadr, m->ntuple, -1, m->nnames),
    // custom tuples: objects of a type the model holds (their ids in checkCustom)
    ROW(tuple_objtype, m->ntupledata, mjOBJ_BODY, mjNOBJECT),
  };
  for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++)
    for (long i = 0; i < rows[r].n; i++)
      if (outside(g, rows[r].name, i, rows[r].p[i], rows[r].lo, rows[r].hi)) return 1;
  return 0;
}

#undef ROW

// ---- the body tree and the joint layout ------------------------------------------------------

// bodies come after their parents; the world (body 0) is its own parent and root and is no
// mocap body; roots are the children of the world; mocap ids count up in body order
static int checkTree(const mjModel* m, Msg* g) {
  int nmocap = 0;
  for (int b = 0; b < m->nbody; b++) {
    int p = m->body_parentid[b], mocap = m->body_mocapid[b];
    if (b ? outside(g, "body_parentid", b, p, 0, b)
          : differs(g, "body_parentid", 0, p, 0, "the world is its own parent"))
      return 1;
    int root = b == 0 ? 0 : p == 0 ? b : m->body_rootid[p];
    if (differs(g, "body_rootid", b, m->body_rootid[b], root, "the child of the world above it"))
      return 1;
    if (mocap >= 0 && differs(g, "body_mocapid", b, mocap, b ? nmocap++ : -1,
                              "mocap ids count up in body order, the world has none"))
      return 1;
  }
  return differs(g, "nmocap", -1, m->nmocap, nmocap, "bodies with a mocap id");
}

// per-body spans [adr, adr + num) of n objects listed by owner body: an empty span has adr
// -1, the others lie in range and hold exactly the objects the owner array gives the body,
// and together they hold all n
static int checkSpans(const mjModel* m, Msg* g, const char* fadr, const int* adr,
                      const char* fnum, const int* num, const char* fown, const int* own,
                      const char* fn, int n) {
  long total = 0;
  for (int b = 0; b < m->nbody; b++) {
    if (outside(g, fnum, b, num[b], 0, n + 1L)) return 1;
    if (!num[b] && differs(g, fadr, b, adr[b], -1, "the body has none")) return 1;
    if (num[b] && (adr[b] < 0 || adr[b] > n - num[b]))
      return say(g, "%s[%d] = %d out of range [0, %d) for %s[%d] = %d", fadr, b, adr[b],
                 n - num[b] + 1, fnum, b, num[b]);
    for (int k = adr[b]; k < adr[b] + num[b]; k++)
      if (differs(g, fown, k, own[k], b, "inside the span of that body")) return 1;
    total += num[b];
  }
  return total == n ? 0 : say(g, "%s = %d, expected %ld (sum of %s)", fn, n, total, fnum);
}

// joints: per-body spans, coordinates and dofs in joint order as each type needs (free 7/6,
// ball 4/3, hinge and slide 1/1), every dof owned by its joint and body; then the weld ids
// (the nearest body at or above with joints), which need the joint spans
static int checkJoints(const mjModel* m, Msg* g) {
  if (checkSpans(m, g, "body_jntadr", m->body_jntadr, "body_jntnum", m->body_jntnum,
                 "jnt_bodyid", m->jnt_bodyid, "njnt", m->njnt))
    return 1;

  // sizes first, so that every address below lies inside qpos and qvel
  long nq = 0, nv = 0;
  for (int j = 0; j < m->njnt; j++) {
    nq += jointQpos[m->jnt_type[j]];
    nv += jointDofs[m->jnt_type[j]];
  }
  if (differs(g, "nq", -1, m->nq, nq, "coordinates of the joints") ||
      differs(g, "nv", -1, m->nv, nv, "dofs of the joints"))
    return 1;

  // addresses in order, dofs owned by their joint and its body
  int qadr = 0, vadr = 0;
  for (int j = 0; j < m->njnt; j++) {
    int t = m->jnt_type[j];
    if (differs(g, "jnt_qposadr", j, m->jnt_qposadr[j], qadr, "after the earlier joints") ||
        differs(g, "jnt_dofadr", j, m->jnt_dofadr[j], vadr, "after the earlier joints"))
      return 1;
    for (int i = vadr; i < vadr + jointDofs[t]; i++)
      if (differs(g, "dof_jntid", i, m->dof_jntid[i], j, "the joint with this dof") ||
          differs(g, "dof_bodyid", i, m->dof_bodyid[i], m->jnt_bodyid[j], "its joint's body"))
        return 1;
    qadr += jointQpos[t];
    vadr += jointDofs[t];
  }
  if (checkSpans(m, g, "body_dofadr", m->body_dofadr, "body_dofnum", m->body_dofnum,
                 "dof_bodyid", m->dof_bodyid, "nv", m->nv))
    return 1;

  // weld ids
  for (int b = 0; b < m->nbody; b++) {
    int head = m->body_jntnum[b] || m->body_mocapid[b] >= 0;
    int weld = b == 0 ? 0 : head ? b : m->body_weldid[m->body_parentid[b]];
    if (differs(g, "body_weldid", b, m->body_weldid[b], weld,
                "nearest body with joints or mocap"))
      return 1;
  }
  return 0;
}

// the dof tree and the sparse inertia: a dof's parent is the previous dof of its body, else
// the last dof of the nearest body above with dofs (-1: none); row i of qM holds i and its
// ancestors, so dof_Madr[i] = the sum of the earlier rows' lengths (1 + ancestors) and nM is
// the sum over all rows; simple bodies hang from a static body, have no child bodies, and
// dof_simplenum counts the run of simple dofs from each dof on; the kinematic trees
static int checkInertia(const mjModel* m, Msg* g) {
  long adr = 0;
  for (int i = 0; i < m->nv; i++) {
    int b = m->dof_bodyid[i];
    int parent = i > m->body_dofadr[b] ? i - 1 : mj_bodyLastDof(m, m->body_parentid[b]);
    if (differs(g, "dof_parentid", i, m->dof_parentid[i], parent,
                "previous dof of the body, else the last dof above it") ||
        differs(g, "dof_Madr", i, m->dof_Madr[i], adr, "after the rows of the earlier dofs"))
      return 1;
    // row length 1 + ancestors = 1 + the parent's row length (its row is checked already)
    adr += parent < 0 ? 1 : m->dof_Madr[parent + 1] - m->dof_Madr[parent] + 1;
  }
  if (differs(g, "nM", -1, m->nM, adr, "one row of 1 + ancestors per dof")) return 1;

  // kinematic trees (the solver's islands join them): one starts at each body with dofs whose
  // chain above has none, numbered in body order; static bodies have none (-1); a dof is in
  // its body's tree
  int ntree = 0;
  for (int b = 0; b < m->nbody; b++) {
    int p = m->body_parentid[b];
    int tree = mj_bodyLastDof(m, b) < 0   ? -1
               : mj_bodyLastDof(m, p) < 0 ? ntree++
                                          : m->body_treeid[p];
    if (differs(g, "body_treeid", b, m->body_treeid[b], tree,
                "a new tree below a static body, else its parent's"))
      return 1;
  }
  if (differs(g, "ntree", -1, m->ntree, ntree, "the number of trees")) return 1;
  for (int i = 0; i < m->nv; i++)
    if (differs(g, "dof_treeid", i, m->dof_treeid[i], m->body_treeid[m->dof_bodyid[i]],
                "its body's tree"))
      return 1;

  // simple bodies and the runs of simple dofs
  for (int b = 0; b < m->nbody; b++) {
    int p = m->body_parentid[b];
    if (outside(g, "body_simple", b, m->body_simple[b], 0, 3)) return 1;
    if (b && m->body_simple[b] && mj_bodyLastDof(m, p) >= 0)
      return differs(g, "body_simple", b, m->body_simple[b], 0, "its parent moves");
    if (p && m->body_simple[p])
      return differs(g, "body_simple", p, m->body_simple[p], 0, "it has a child body");
  }
  for (int i = m->nv - 1; i >= 0; i--) {
    int next = i + 1 < m->nv ? m->dof_simplenum[i + 1] : 0;
    int run = m->body_simple[m->dof_bodyid[i]] ? 1 + next : 0;
    if (differs(g, "dof_simplenum", i, m->dof_simplenum[i], run, "simple dofs from here on"))
      return 1;
  }
  return 0;
}

// ---- geoms, contacts, cameras, lights --------------------------------------------------------

// 1 and a message unless c is a contact dimensionality (1, 3, 4, 6)
static int badCondim(Msg* g, const char* f, int i, int c) {
  return c == 1 || c == 3 || c == 4 || c == 6 ? 0 : say(g, "%s[%d] = %d is not 1, 3, 4 or 6",
                                                        f, i, c);
}

// 1 and a message unless signature s = (body1 << 16) + body2 names two bodies
static int badSignature(const mjModel* m, Msg* g, const char* f, int i, int s) {
  if (s >= 0 && (s >> 16) < m->nbody && (s & 0xffff) < m->nbody) return 0;
  return say(g, "%s[%d] = %d names bodies %d and %d, out of range [0, %d)", f, i, s, s >> 16,
             s & 0xffff, m->nbody);
}

// geoms: per-body spans, mesh and height-field ids only for those types, contact dimensions;
// pairs and excluded pairs; targeting cameras and lights need their target
static int checkGeoms(const mjModel* m, Msg* g) {
  if (checkSpans(m, g, "body_geomadr", m->body_geomadr, "body_geomnum", m->body_geomnum,
                 "geom_bodyid", m->geom_bodyid, "ngeom", m->ngeom))
    return 1;
  for (int i = 0; i < m->ngeom; i++) {
    int t = m->geom_type[i];
    // a mesh or height field geom names its asset (collisions read it), others none
    int asset = t == mjGEOM_MESH || t == mjGEOM_HFIELD;
    int ndata = t == mjGEOM_MESH ? m->nmesh : t == mjGEOM_HFIELD ? m->nhfield : 0;
    if (outside(g, "geom_dataid", i, m->geom_dataid[i], asset ? 0 : -1, ndata) ||
        badCondim(g, "geom_condim", i, m->geom_condim[i]))
      return 1;
  }
  for (int i = 0; i < m->npair; i++)
    if (badCondim(g, "pair_dim", i, m->pair_dim[i]) ||
        badSignature(m, g, "pair_signature", i, m->pair_signature[i]))
      return 1;
  for (int i = 0; i < m->nexclude; i++)
    if (badSignature(m, g, "exclude_signature", i, m->exclude_signature[i])) return 1;
  // a targeting camera or light may lack its target (-1: it stays as placed, as in MuJoCo)
  for (int i = 0; i < m->ncam; i++)
    if (m->cam_mode[i] >= mjCAMLIGHT_TARGETBODY &&
        outside(g, "cam_targetbodyid", i, m->cam_targetbodyid[i], -1, m->nbody))
      return 1;
  for (int i = 0; i < m->nlight; i++)
    if (m->light_mode[i] >= mjCAMLIGHT_TARGETBODY &&
        outside(g, "light_targetbodyid", i, m->light_targetbodyid[i], -1, m->nbody))
      return 1;
  return 0;
}

// ---- assets -------------------------------------------------------------------------------------

// 1 and a message unless the block [adr, adr + num) of an array of n elements is inside it
// (adr may be -1 when none = 1 allows an empty block to have no address)
static int badBlock(Msg* g, const char* fadr, int i, long adr, long num, long n, int none) {
  char name[96];
  if (num < 0) return say(g, "%s: negative count %ld", fieldName(name, fadr, i), num);
  if (none && adr == -1 && num == 0) return 0;
  if (adr < 0 || adr > n - num)
    return say(g, "%s = %ld: a block of %ld out of range [0, %ld)", fieldName(name, fadr, i), adr,
               num, n);
  return 0;
}

// 1 and a message unless all n ids of v are in [0, hi)
static int badIds(Msg* g, const char* f, const int* v, long n, long hi) {
  for (long k = 0; k < n; k++)
    if (outside(g, f, k, v[k], 0, hi)) return 1;
  return 0;
}

// the bodies' bounding volume hierarchies: each body's block inside the bvh arrays; in a block
// an inner node's two children come after it inside the block and a leaf holds a geom of the
// body, so that the midphase's descent ends inside the block
static int checkBvh(const mjModel* m, Msg* g) {
  if (outside(g, "nbvhstatic", -1, m->nbvhstatic, 0, m->nbvh + 1)) return 1;
  for (int b = 0; b < m->nbody; b++) {
    int adr = m->body_bvhadr[b], num = m->body_bvhnum[b];
    if (badBlock(g, "body_bvhadr", b, adr, num, m->nbvh, 1)) return 1;
    for (int i = adr; i >= 0 && i < adr + num; i++) {
      const int* c = m->bvh_child + 2 * i;
      if (c[0] < 0 && c[1] < 0) {
        int first = m->body_geomadr[b];
        if (outside(g, "bvh_nodeid", i, m->bvh_nodeid[i], first, first + m->body_geomnum[b]))
          return 1;
      } else if (outside(g, "bvh_child", 2 * i, c[0], i - adr + 1, num) ||
                 outside(g, "bvh_child", 2 * i + 1, c[1], i - adr + 1, num) ||
                 outside(g, "bvh_nodeid", i, m->bvh_nodeid[i], -1, 0)) {
        return 1;  // (an inner node names no geom: the midphase indexes geoms by nodeid)
      }
    }
  }
  return 0;
}

// the hull graph of mesh i at graph: numvert, numface, vert_edgeadr, vert_globalid, the
// -1-ended neighbour lists, face_globalid, all inside the graph and the mesh's vertices
static int badGraph(const mjModel* m, Msg* g, int i) {
  const int* gr = m->mesh_graph + m->mesh_graphadr[i];
  long room = m->nmeshgraph - m->mesh_graphadr[i];
  if (room < 2) return say(g, "mesh_graph of mesh %d: truncated", i);
  long nv = gr[0], nf = gr[1], nedge = nv + 3 * nf;
  if (nv < 0 || nf < 0 || nv > m->mesh_vertnum[i] || 2 + 2 * nv + nedge + 3 * nf > room)
    return say(g, "mesh_graph of mesh %d: counts %ld, %ld do not fit", i, nv, nf);
  const int *edgeadr = gr + 2, *globalid = gr + 2 + nv, *local = gr + 2 + 2 * nv;
  if (badIds(g, "mesh_graph vert_edgeadr", edgeadr, nv, nedge) ||
      badIds(g, "mesh_graph vert_globalid", globalid, nv, m->mesh_vertnum[i]) ||
      badIds(g, "mesh_graph face_globalid", local + nedge, 3 * nf, m->mesh_vertnum[i]))
    return 1;
  // each neighbour list holds local ids and ends with -1 inside the edge block
  for (long v = 0; v < nv; v++) {
    long k = edgeadr[v];
    while (k < nedge && local[k] >= 0 && local[k] < nv) k++;
    if (k >= nedge || local[k] != -1)
      return say(g, "mesh_graph of mesh %d: neighbour list of vertex %ld is malformed", i, v);
  }
  return 0;
}

// the hull polygons of mesh i: its polygons inside the polygon arrays, each of at least three
// vertices of the mesh, and each vertex's map block inside the map, naming polygons of the mesh
static int badPolygons(const mjModel* m, Msg* g, int i) {
  int npoly = m->mesh_polynum[i], adr = m->mesh_polyadr[i];
  if (badBlock(g, "mesh_polyadr", i, adr, npoly, m->nmeshpoly, 0)) return 1;
  for (int p = adr; p < adr + npoly; p++) {
    int num = m->mesh_polyvertnum[p];
    if (num < 3) return say(g, "mesh_polyvertnum[%d] = %d: a polygon needs 3 vertices", p, num);
    if (badBlock(g, "mesh_polyvertadr", p, m->mesh_polyvertadr[p], num, m->nmeshpolyvert, 0) ||
        badIds(g, "mesh_polyvert", m->mesh_polyvert + m->mesh_polyvertadr[p], num,
               m->mesh_vertnum[i]))
      return 1;
  }
  for (int v = m->mesh_vertadr[i]; v < m->mesh_vertadr[i] + m->mesh_vertnum[i]; v++) {
    int num = m->mesh_polymapnum[v];
    if (badBlock(g, "mesh_polymapadr", v, m->mesh_polymapadr[v], num, m->nmeshpolymap, 0) ||
        badIds(g, "mesh_polymap", m->mesh_polymap + m->mesh_polymapadr[v], num, npoly))
      return 1;
  }
  return 0;
}

// meshes, skins, height fields and textures: every block inside its array, every id inside
// its block, so that collision, rays and rendering index only what exists
static int checkAssets(const mjModel* m, Msg* g) {
  for (int i = 0; i < m->nmesh; i++) {
    int nvert = m->mesh_vertnum[i], nnormal = m->mesh_normalnum[i];
    int ntex = m->mesh_texcoordnum[i], nface = m->mesh_facenum[i];
    if (badBlock(g, "mesh_vertadr", i, m->mesh_vertadr[i], nvert, m->nmeshvert, 0) ||
        badBlock(g, "mesh_normaladr", i, m->mesh_normaladr[i], nnormal, m->nmeshnormal, 0) ||
        badBlock(g, "mesh_texcoordadr", i, m->mesh_texcoordadr[i], ntex, m->nmeshtexcoord, 1) ||
        badBlock(g, "mesh_faceadr", i, m->mesh_faceadr[i], nface, m->nmeshface, 0))
      return 1;
    long f = 3L * m->mesh_faceadr[i];
    if (badIds(g, "mesh_face", m->mesh_face + f, 3L * nface, nvert) ||
        badIds(g, "mesh_facenormal", m->mesh_facenormal + f, 3L * nface, nnormal) ||
        (ntex && badIds(g, "mesh_facetexcoord", m->mesh_facetexcoord + f, 3L * nface, ntex)))
      return 1;
    if (m->mesh_graphadr[i] != -1 &&
        (outside(g, "mesh_graphadr", i, m->mesh_graphadr[i], 0, m->nmeshgraph) ||
         badGraph(m, g, i) ||
         badIds(g, "mesh_extrema", m->mesh_extrema + 27 * i, 27,
                m->mesh_graph[m->mesh_graphadr[i]])))
      return 1;
    if (badPolygons(m, g, i)) return 1;
  }
  for (int i = 0; i < m->nskin; i++) {
    int nvert = m->skin_vertnum[i], nbone = m->skin_bonenum[i];
    if (badBlock(g, "skin_vertadr", i, m->skin_vertadr[i], nvert, m->nskinvert, 0) ||
        badBlock(g, "skin_texcoordadr", i, m->skin_texcoordadr[i],
                 m->skin_texcoordadr[i] < 0 ? 0 : nvert, m->nskintexvert, 1) ||
        badBlock(g, "skin_faceadr", i, m->skin_faceadr[i], m->skin_facenum[i], m->nskinface, 0) ||
        badBlock(g, "skin_boneadr", i, m->skin_boneadr[i], nbone, m->nskinbone, 0) ||
        outside(g, "skin_matid", i, m->skin_matid[i], -1, m->nmat) ||
        badIds(g, "skin_face", m->skin_face + 3L * m->skin_faceadr[i], 3L * m->skin_facenum[i],
               nvert))
      return 1;
    for (int b = m->skin_boneadr[i]; b < m->skin_boneadr[i] + nbone; b++) {
      if (outside(g, "skin_bonebodyid", b, m->skin_bonebodyid[b], 0, m->nbody) ||
          badBlock(g, "skin_bonevertadr", b, m->skin_bonevertadr[b], m->skin_bonevertnum[b],
                   m->nskinbonevert, 0) ||
          badIds(g, "skin_bonevertid", m->skin_bonevertid + m->skin_bonevertadr[b],
                 m->skin_bonevertnum[b], nvert))
        return 1;
    }
  }
  for (int i = 0; i < m->nhfield; i++) {
    if (outside(g, "hfield_nrow", i, m->hfield_nrow[i], 2, 1 << 16) ||
        outside(g, "hfield_ncol", i, m->hfield_ncol[i], 2, 1 << 16) ||
        badBlock(g, "hfield_adr", i, m->hfield_adr[i], (long)m->hfield_nrow[i] * m->hfield_ncol[i],
                 m->nhfielddata, 0))
      return 1;
  }
  for (int i = 0; i < m->ntex; i++) {
    if (outside(g, "tex_nchannel", i, m->tex_nchannel[i], 1, 5) ||
        outside(g, "tex_width", i, m->tex_width[i], 0, 1 << 16) ||
        outside(g, "tex_height", i, m->tex_height[i], 0, 1 << 20) ||
        badBlock(g, "tex_adr", i, m->tex_adr[i],
                 (long)m->tex_width[i] * m->tex_height[i] * m->tex_nchannel[i], m->ntexdata, 0))
      return 1;
  }
  return 0;
}

// ---- equalities, tendons, actuators, sensors ---------------------------------------------------

// equality objects by type: connect and weld join two bodies (or two sites), joint and tendon
// couplings name a first object and optionally a second
static int checkEqualities(const mjModel* m, Msg* g) {
  for (int i = 0; i < m->neq; i++) {
    int t = m->eq_type[i], ot = m->eq_objtype[i], n, lo2 = -1;
    if (t == mjEQ_CONNECT || t == mjEQ_WELD) {
      if (ot != mjOBJ_SITE && differs(g, "eq_objtype", i, ot, mjOBJ_BODY, "body or site"))
        return 1;
      n = objCount(m, ot);
      lo2 = 0;
    } else {
      n = t == mjEQ_JOINT ? m->njnt : m->ntendon;
    }
    if (outside(g, "eq_obj1id", i, m->eq_obj1id[i], 0, n) ||
        outside(g, "eq_obj2id", i, m->eq_obj2id[i], lo2, n))
      return 1;
  }
  return 0;
}

// tendon paths inside the wrap list: a fixed tendon's of joints only, a spatial one's of
// sites, pulleys and geoms, from a site to a site with each geom between two sites; wrap
// objects by type: a joint, a site, a sphere or cylinder geom of that shape with an optional
// side site in wrap_prm, a pulley with none
static int checkTendons(const mjModel* m, Msg* g) {
  for (int t = 0; t < m->ntendon; t++) {
    int adr = m->tendon_adr[t], num = m->tendon_num[t];
    if (adr < 0 || adr > m->nwrap - num)
      return say(g, "tendon_adr[%d] = %d out of range [0, %d) for tendon_num[%d] = %d", t, adr,
                 m->nwrap - num + 1, t, num);
    const int* type = m->wrap_type + adr;
    int fixed = num > 0 && type[0] == mjWRAP_JOINT;
    if (num > 0 && !fixed && (type[0] != mjWRAP_SITE || type[num - 1] != mjWRAP_SITE))
      return say(g, "tendon %d: a spatial path must start and end at a site", t);
    for (int k = 0; k < num; k++) {
      int geom = type[k] == mjWRAP_SPHERE || type[k] == mjWRAP_CYLINDER;
      if ((type[k] == mjWRAP_JOINT) != fixed)
        return say(g, "tendon %d: wrap_type[%d] = %d in a %s path", t, adr + k, type[k],
                   fixed ? "fixed" : "spatial");
      if (geom && (type[k - 1] != mjWRAP_SITE || type[k + 1] != mjWRAP_SITE))
        return say(g, "tendon %d: wrapping geom at wrap %d not between two sites", t, adr + k);
    }
  }
  for (int w = 0; w < m->nwrap; w++) {
    int t = m->wrap_type[w], id = m->wrap_objid[w];
    switch (t) {
      case mjWRAP_JOINT:
        if (outside(g, "wrap_objid", w, id, 0, m->njnt)) return 1;
        break;
      case mjWRAP_PULLEY:
        if (differs(g, "wrap_objid", w, id, -1, "a pulley has no object")) return 1;
        break;
      case mjWRAP_SITE:
        if (outside(g, "wrap_objid", w, id, 0, m->nsite)) return 1;
        break;
      default: {
        mjtNum side = m->wrap_prm[w];
        int shape = t == mjWRAP_SPHERE ? mjGEOM_SPHERE : mjGEOM_CYLINDER;
        if (outside(g, "wrap_objid", w, id, 0, m->ngeom) ||
            differs(g, "geom_type", id, m->geom_type[id], shape, "shape of a wrapping geom"))
          return 1;
        if (side != floor(side) || side < -1 || side >= m->nsite)
          return say(g, "wrap_prm[%d] = %g is no side site id in [-1, %d)", w, side, m->nsite);
      }
    }
  }
  return 0;
}

// transmission targets by type (first id: the object; second: the slider site of a
// slider-crank, the optional reference site of a site transmission, else -1); activation

// a DC motor as the compiler lays it out, or 1 with the message: its three types together,
// R and K positive, one control (voltage, or one controller input; no other actuator has an
// input signature), its current its only state (te > 0), none of the states and parameters
// not done yet (thermal, LuGre, controller integral and slew)
static int badDCMotor(Msg* g, const mjModel* m, int i) {
  int dyn = m->actuator_dyntype[i] == mjDYN_DCMOTOR, spec = m->actuator_ctrlspec[i];
  int n = dyn + (m->actuator_gaintype[i] == mjGAIN_DCMOTOR) +
          (m->actuator_biastype[i] == mjBIAS_DCMOTOR);
  const mjtNum *gp = m->actuator_gainprm + 10 * i, *dp = m->actuator_dynprm + 10 * i;
  if (n != 0 && n != 3) return say(g, "actuator %d: DC motor types go together", i);
  if (!dyn) return spec ? say(g, "actuator %d: an input signature without a DC motor", i) : 0;
  if (!(gp[0] > 0) || !(gp[1] > 0))
    return say(g, "actuator %d: DC motor resistance and motor constant must be positive", i);
  if (!spec || spec & (spec - 1) || spec == mjINPUT_NONE)
    return say(g, "actuator %d: DC motor needs exactly one control", i);
  if (gp[5] != 0 || dp[7] != 0 || dp[2] != 0 || dp[5] != 0)
    return say(g, "actuator %d: DC motor thermal, LuGre, integral and slew states are not "
                  "supported yet", i);
  return differs(g, "actuator_actnum", i, m->actuator_actnum[i], dp[0] > 0,
                 "a DC motor's current state when te > 0");
}
// states in actuator order, one or more for stateful dynamics; room for the moment rows
static int checkActuators(const mjModel* m, Msg* g) {
  static const int target[mjTRN_BODY + 1] = {
    [mjTRN_JOINT] = mjOBJ_JOINT, [mjTRN_JOINTINPARENT] = mjOBJ_JOINT,
    [mjTRN_SLIDERCRANK] = mjOBJ_SITE, [mjTRN_TENDON] = mjOBJ_TENDON,
    [mjTRN_SITE] = mjOBJ_SITE, [mjTRN_BODY] = mjOBJ_BODY};
  int adr = 0;
  long nmom = 0;
  for (int i = 0; i < m->nu; i++) {
    int t = m->actuator_trntype[i], num = m->actuator_actnum[i];
    int lo2 = t == mjTRN_SLIDERCRANK ? 0 : -1;
    int hi2 = t == mjTRN_SLIDERCRANK || t == mjTRN_SITE ? m->nsite : 0;
    if (outside(g, "actuator_trnid", 2 * i, m->actuator_trnid[2 * i], 0,
                objCount(m, target[t])) ||
        outside(g, "actuator_trnid", 2 * i + 1, m->actuator_trnid[2 * i + 1], lo2, hi2))
      return 1;
    // damping and armature passed on to the transmission: joints and tendons only, as in the
    // compiler
    if ((m->actuator_damping[i] != 0 || m->actuator_armature[i] != 0 ||
         !mju_isZero(m->actuator_dampingpoly + mjNPOLY * i, mjNPOLY)) &&
        t != mjTRN_JOINT && t != mjTRN_JOINTINPARENT && t != mjTRN_TENDON)
      return say(g, "actuator %d: damping and armature require joint or tendon transmission", i);
    if (badDCMotor(g, m, i)) return 1;
    if (m->actuator_dyntype[i] != mjDYN_NONE && m->actuator_dyntype[i] != mjDYN_DCMOTOR && !num)
      return outside(g, "actuator_actnum", i, num, 1, m->na + 1);
    if (differs(g, "actuator_actadr", i, m->actuator_actadr[i], num ? adr : -1,
                "activations in actuator order, -1 for none"))
      return 1;
    adr += num;
    nmom += mj_momentMax(m, i);
  }
  if (differs(g, "nJmom", -1, m->nJmom, nmom, "the sum of the actuators' moment bounds"))
    return 1;
  for (int j = 0; j < m->njnt; j++)
    if (differs(g, "jnt_actuatorid", j, m->jnt_actuatorid[j], mj_actuatorTarget(m, 0, j),
                "the actuator passing damping or armature on, -2 several, -1 none"))
      return 1;
  for (int k = 0; k < m->ntendon; k++)
    if (differs(g, "tendon_actuatorid", k, m->tendon_actuatorid[k], mj_actuatorTarget(m, 1, k),
                "the actuator passing damping or armature on, -2 several, -1 none"))
      return 1;
  return differs(g, "na", -1, m->na, adr, "sum of actuator_actnum");
}

// what a sensor type measures: outputs (0: unsupported type), allowed object and reference
// types (bit masks of mjtObj; no object bits: no object), whether the reference is optional,
// and the joint types it accepts (0 any, 1 hinge or slide, 2 ball)
typedef struct {
  unsigned char dim;
  unsigned obj, ref;
  unsigned char refopt, joint;
} SensorRule;

#define O(t) (1u << mjOBJ_##t)
#define FRAME (O(BODY) | O(XBODY) | O(GEOM) | O(SITE) | O(CAMERA))
static const SensorRule sensorRules[mjSENS_USER + 1] = {
  [mjSENS_TOUCH] = {1, O(SITE), 0, 0, 0},          [mjSENS_ACCELEROMETER] = {3, O(SITE), 0, 0, 0},
  [mjSENS_VELOCIMETER] = {3, O(SITE), 0, 0, 0},    [mjSENS_GYRO] = {3, O(SITE), 0, 0, 0},
  [mjSENS_FORCE] = {3, O(SITE), 0, 0, 0},          [mjSENS_TORQUE] = {3, O(SITE), 0, 0, 0},
  [mjSENS_MAGNETOMETER] = {3, O(SITE), 0, 0, 0},
  [mjSENS_RANGEFINDER] = {1, O(SITE) | O(CAMERA), 0, 0, 0},
  [mjSENS_CAMPROJECTION] = {2, O(SITE), O(CAMERA), 0, 0},
  [mjSENS_JOINTPOS] = {1, O(JOINT), 0, 0, 1},      [mjSENS_JOINTVEL] = {1, O(JOINT), 0, 0, 1},
  [mjSENS_TENDONPOS] = {1, O(TENDON), 0, 0, 0},    [mjSENS_TENDONVEL] = {1, O(TENDON), 0, 0, 0},
  [mjSENS_ACTUATORPOS] = {1, O(ACTUATOR), 0, 0, 0},
  [mjSENS_ACTUATORVEL] = {1, O(ACTUATOR), 0, 0, 0},
  [mjSENS_ACTUATORFRC] = {1, O(ACTUATOR), 0, 0, 0},
  [mjSENS_JOINTACTFRC] = {1, O(JOINT), 0, 0, 0},
  [mjSENS_TENDONACTFRC] = {1, O(TENDON), 0, 0, 0},
  [mjSENS_BALLQUAT] = {4, O(JOINT), 0, 0, 2},      [mjSENS_BALLANGVEL] = {3, O(JOINT), 0, 0, 2},
  [mjSENS_JOINTLIMITPOS] = {1, O(JOINT), 0, 0, 1},
  [mjSENS_JOINTLIMITVEL] = {1, O(JOINT), 0, 0, 1},
  [mjSENS_JOINTLIMITFRC] = {1, O(JOINT), 0, 0, 1},
  [mjSENS_TENDONLIMITPOS] = {1, O(TENDON), 0, 0, 0},
  [mjSENS_TENDONLIMITVEL] = {1, O(TENDON), 0, 0, 0},
  [mjSENS_TENDONLIMITFRC] = {1, O(TENDON), 0, 0, 0},
  [mjSENS_FRAMEPOS] = {3, FRAME, FRAME, 1, 0},     [mjSENS_FRAMEQUAT] = {4, FRAME, FRAME, 1, 0},
  [mjSENS_FRAMEXAXIS] = {3, FRAME, FRAME, 1, 0},   [mjSENS_FRAMEYAXIS] = {3, FRAME, FRAME, 1, 0},
  [mjSENS_FRAMEZAXIS] = {3, FRAME, FRAME, 1, 0},   [mjSENS_FRAMELINVEL] = {3, FRAME, FRAME, 1, 0},
  [mjSENS_FRAMEANGVEL] = {3, FRAME, FRAME, 1, 0},  [mjSENS_FRAMELINACC] = {3, FRAME, FRAME, 1, 0},
  [mjSENS_FRAMEANGACC] = {3, FRAME, FRAME, 1, 0},
  [mjSENS_SUBTREECOM] = {3, O(BODY), 0, 0, 0},     [mjSENS_SUBTREELINVEL] = {3, O(BODY), 0, 0, 0},
  [mjSENS_SUBTREEANGMOM] = {3, O(BODY), 0, 0, 0},
  [mjSENS_INSIDESITE] = {1, FRAME, O(SITE), 0, 0},
  [mjSENS_GEOMDIST] = {1, O(GEOM) | O(BODY), O(GEOM) | O(BODY), 0, 0},
  [mjSENS_GEOMNORMAL] = {3, O(GEOM) | O(BODY), O(GEOM) | O(BODY), 0, 0},
  [mjSENS_GEOMFROMTO] = {6, O(GEOM) | O(BODY), O(GEOM) | O(BODY), 0, 0},
  [mjSENS_E_POTENTIAL] = {1, 0, 0, 0, 0},          [mjSENS_E_KINETIC] = {1, 0, 0, 0, 0},
  [mjSENS_CLOCK] = {1, 0, 0, 0, 0},
};
#undef FRAME
#undef O

// 1 and a message unless object (type, id) is of a type in mask and exists
static int badObject(const mjModel* m, Msg* g, const char* ft, const char* fid, int s,
                     unsigned mask, int type, int id) {
  if (type < 0 || type >= 32 || !(mask >> type & 1))
    return say(g, "%s[%d] = %d is not an object type this sensor accepts", ft, s, type);
  return outside(g, fid, s, id, 0, objCount(m, type));
}

// a user sensor (its values zeros, its object never read): none (mjOBJ_UNKNOWN, -1) or an
// object of any type MuJoCo names (custom entries, which the model does not hold, by any id),
// no reference, the size its datatype needs
static int badUserSensor(const mjModel* m, Msg* g, int s) {
  int ot = m->sensor_objtype[s], id = m->sensor_objid[s], dim = m->sensor_dim[s];
  int dt = m->sensor_datatype[s];
  int custom = ot == mjOBJ_NUMERIC || ot == mjOBJ_TEXT || ot == mjOBJ_TUPLE;
  return outside(g, "sensor_objtype", s, ot, mjOBJ_UNKNOWN, mjNOBJECT) ||
         (ot == mjOBJ_UNKNOWN ? differs(g, "sensor_objid", s, id, -1, "no object")
                              : outside(g, "sensor_objid", s, id, 0,
                                        custom ? INT_MAX : objCount(m, ot))) ||
         differs(g, "sensor_refid", s, m->sensor_refid[s], -1, "no reference") ||
         outside(g, "sensor_dim", s, dim, 0, m->nsensordata + 1L) ||
         (dt == mjDATATYPE_AXIS && differs(g, "sensor_dim", s, dim, 3, "datatype axis")) ||
         (dt == mjDATATYPE_QUATERNION &&
          differs(g, "sensor_dim", s, dim, 4, "datatype quaternion")) ||
         outside(g, "sensor_adr", s, m->sensor_adr[s], 0, m->nsensordata - dim + 1L);
}

// sensors: a supported type, its object and reference, the joint type it needs, and its
// outputs inside sensordata
static int checkSensors(const mjModel* m, Msg* g) {
  for (int s = 0; s < m->nsensor; s++) {
    const SensorRule* r = &sensorRules[m->sensor_type[s]];
    int dim = m->sensor_dim[s], ot = m->sensor_objtype[s], id = m->sensor_objid[s];
    int rid = m->sensor_refid[s];
    if (m->sensor_type[s] == mjSENS_USER) {
      if (badUserSensor(m, g, s)) return 1;
      continue;
    }
    if (!r->dim) return say(g, "sensor_type[%d] = %d is not supported", s, m->sensor_type[s]);
    if (r->obj && badObject(m, g, "sensor_objtype", "sensor_objid", s, r->obj, ot, id))
      return 1;
    // a reference when given or required: one of the accepted types
    if (rid != -1 || (r->ref && !r->refopt)) {
      if (!r->ref) return differs(g, "sensor_refid", s, rid, -1, "no reference");
      if (badObject(m, g, "sensor_reftype", "sensor_refid", s, r->ref, m->sensor_reftype[s],
                    rid))
        return 1;
    }
    int jt = r->joint ? m->jnt_type[id] : 0;
    if (r->joint == 1 && jt != mjJNT_HINGE && jt != mjJNT_SLIDE)
      return differs(g, "jnt_type", id, jt, mjJNT_HINGE, "a hinge or slide for this sensor");
    if (r->joint == 2 && differs(g, "jnt_type", id, jt, mjJNT_BALL, "a ball for this sensor"))
      return 1;
    // a rangefinder's outputs are its data fields' (sensor_intprm[0]'s bits), on a camera
    // those of each pixel's ray
    long want = r->dim;
    if (m->sensor_type[s] == mjSENS_RANGEFINDER) {
      int bits = m->sensor_intprm[3 * s];
      if (outside(g, "sensor_intprm", s, bits, 1, 1 << mjNRAY)) return 1;
      want = mj_rangefinderDim(bits);
      if (ot == mjOBJ_CAMERA) {
        const int* res = m->cam_resolution + 2 * id;
        if (outside(g, "cam_resolution", 2 * id, res[0], 1, 1L << 24) ||
            outside(g, "cam_resolution", 2 * id + 1, res[1], 1, 1L << 24))
          return 1;
        want *= (long)res[0] * res[1];
      }
    }
    if (differs(g, "sensor_dim", s, dim, want, "outputs of this sensor type") ||
        outside(g, "sensor_adr", s, m->sensor_adr[s], 0, m->nsensordata - dim + 1L))
      return 1;
  }
  return 0;
}

// ---- history buffers -------------------------------------------------------------------------

// one history buffer (actuator or sensor i, values of dim): interp a keyword, the address -1
// without samples and else the running address *adr (advanced past the buffer), a delay only
// with samples (MuJoCo compiles a negative one without)
static int badHistory(Msg* g, int sensor, int i, const int* hist, int histadr, mjtNum delay,
                      int dim, long* adr) {
  static const char* const kind[2] = {"actuator", "sensor"};
  static const char* const fhist[2] = {"actuator_history", "sensor_history"};
  static const char* const fadr[2] = {"actuator_historyadr", "sensor_historyadr"};
  int n = hist[0];
  if (outside(g, fhist[sensor], 2 * i + 1, hist[1], 0, 3)) return 1;
  if (n > 1 << 24) return say(g, "%s %d: %d samples exceed 2^24", kind[sensor], i, n);
  if (differs(g, fadr[sensor], i, histadr, n > 0 ? *adr : -1,
              "buffers in actuator, then sensor order, -1 for none"))
    return 1;
  if (delay > 0 && n <= 0)
    return say(g, "%s %d: a delay without a history buffer", kind[sensor], i);
  if (n > 0) *adr += 2 + (long)n * (1 + dim);
  return 0;
}

// the history buffers: each actuator's, then each sensor's, filling nhistory, a positive
// timestep when there are any, each sensor's period >= 0 with -period < phase <= 0
static int checkHistory(const mjModel* m, Msg* g) {
  long adr = 0;
  for (int i = 0; i < m->nu; i++)
    if (badHistory(g, 0, i, m->actuator_history + 2 * i, m->actuator_historyadr[i],
                   m->actuator_delay[i], 1, &adr))
      return 1;
  for (int i = 0; i < m->nsensor; i++) {
    const mjtNum* iv = m->sensor_interval + 2 * i;
    if (badHistory(g, 1, i, m->sensor_history + 2 * i, m->sensor_historyadr[i],
                   m->sensor_delay[i], m->sensor_dim[i], &adr))
      return 1;
    if (iv[0] < 0 || iv[1] > 0 || (iv[0] > 0 && iv[1] <= -iv[0]))
      return say(g, "sensor_interval of sensor %d: period %g, phase %g out of range", i, iv[0],
                 iv[1]);
  }
  if (differs(g, "nhistory", -1, m->nhistory, adr, "the sum of the history buffers")) return 1;
  if (m->nhistory && !(m->opt.timestep > 0))
    return say(g, "history buffers require positive timestep, got %g", m->opt.timestep);
  return 0;
}

// ---- custom fields ------------------------------------------------------------------------------

// each custom field a block inside its data array, each text ending in its terminator (so it
// reads as a string), each tuple object one that exists
static int checkCustom(const mjModel* m, Msg* g) {
  for (int i = 0; i < m->nnumeric; i++)
    if (badBlock(g, "numeric_adr", i, m->numeric_adr[i], m->numeric_size[i], m->nnumericdata, 0))
      return 1;
  for (int i = 0; i < m->ntext; i++) {
    int adr = m->text_adr[i], size = m->text_size[i];
    if (outside(g, "text_size", i, size, 1, m->ntextdata + 1L) ||
        badBlock(g, "text_adr", i, adr, size, m->ntextdata, 0) ||
        differs(g, "text_data", adr + size - 1, m->text_data[adr + size - 1], 0,
                "a text ends in its terminator"))
      return 1;
  }
  for (int i = 0; i < m->ntuple; i++)
    if (badBlock(g, "tuple_adr", i, m->tuple_adr[i], m->tuple_size[i], m->ntupledata, 0))
      return 1;
  for (int k = 0; k < m->ntupledata; k++)
    if (outside(g, "tuple_objid", k, m->tuple_objid[k], 0, objCount(m, m->tuple_objtype[k])))
      return 1;
  return 0;
}

// ---- text, numbers, memory ---------------------------------------------------------------------

// the name and path buffers end in a terminator, so every address in range reads a string
static int checkText(const mjModel* m, Msg* g) {
  return (m->nnames && differs(g, "names", m->nnames - 1, m->names[m->nnames - 1], 0,
                               "the buffer ends in a terminator")) ||
         (m->npaths && differs(g, "paths", m->npaths - 1, m->paths[m->npaths - 1], 0,
                               "the buffer ends in a terminator"));
}

// 1 and "field[i] = v is not finite" at the first NaN or infinity of n doubles
static int nonFiniteD(Msg* g, const char* f, const mjtNum* p, long n) {
  for (long i = 0; i < n; i++) {
    if (!isfinite(p[i])) return say(g, "%s[%ld] = %g is not finite", f, i, p[i]);
  }
  return 0;
}

// the same for floats
static int nonFiniteF(Msg* g, const char* f, const float* p, long n) {
  for (long i = 0; i < n; i++) {
    if (!isfinite(p[i])) return say(g, "%s[%ld] = %g is not finite", f, i, (double)p[i]);
  }
  return 0;
}

// integers and characters are always finite
static int nonFiniteNone(Msg* g, const char* f, const void* p, long n) {
  (void)g, (void)f, (void)p, (void)n;
  return 0;
}

// NONFINITE(g, f, p, n) for any element type of the tables
#define NONFINITE(g, f, p, n)                                                                   \
  _Generic((p), const mjtNum*: nonFiniteD, const float*: nonFiniteF,                          \
           default: nonFiniteNone)((g), (f), (p), (n))

// 1 and a message at the first negative one of n doubles
static int negative(Msg* g, const char* f, const mjtNum* p, long n) {
  for (long i = 0; i < n; i++) {
    if (!(p[i] >= 0)) return say(g, "%s[%ld] = %g out of range [0, inf)", f, i, p[i]);
  }
  return 0;
}

// 1 for the arrays of user data (the *_user arrays, numeric_data, tuple_objprm), which MuJoCo
// lets hold inf and nan: the engine never reads them
static int userData(const char* name) {
  size_t n = strlen(name);
  return (n > 5 && !strcmp(name + n - 5, "_user")) || !strcmp(name, "numeric_data") ||
         !strcmp(name, "tuple_objprm");
}

// every real number of the options, statistics, visual settings and arrays is finite, user
// data aside; the timestep is positive; masses and principal inertias are not negative
static int checkNumbers(const mjModel* m, Msg* g) {
#define X(type, name, count, shape)                                                            \
  if (NONFINITE(g, "opt." #name, (const type*)&m->opt.name, (count))) return 1;
  MJ_OPTION_FIELDS(X)
#undef X
#define X(type, name, count, shape)                                                            \
  if (NONFINITE(g, "stat." #name, (const type*)&m->stat.name, (count))) return 1;
  MJ_STAT_FIELDS(X)
#undef X
#define X(type, section, name, count, shape)                                                   \
  if (NONFINITE(g, "vis." #section "." #name, (const type*)&m->vis.section##_##name, (count)))  \
    return 1;
  MJ_VISUAL_FIELDS(X)
#undef X
  const mjModel* m_ = m;
  MJ_SIZES(MJ_X_SIZE_LOCAL)
#define X(type, name, rows, cols)                                                              \
  if (!userData(#name) && NONFINITE(g, #name, (const type*)m->name, (long)(rows) * (cols)))    \
    return 1;
  MJ_MODEL_ARRAYS(X)
#undef X
  if (m->opt.timestep <= 0) return say(g, "opt.timestep = %g out of range (0, inf)",
                                       m->opt.timestep);
  return negative(g, "body_mass", m->body_mass, m->nbody) ||
         negative(g, "body_inertia", m->body_inertia, 3L * m->nbody);
}

// the data stack holds at least the largest request of the pipeline (mj_stackNeed), and the
// data fits mj_makeData's limit
static int checkStack(const mjModel* m, Msg* g) {
  double need = mj_stackNeed(m), bytes = mj_dataBytes(m);
  if (m->nstack < need)
    return say(g, "nstack = %d out of range [%.0f, %d): the pipeline needs more stack",
               m->nstack, need, 1 << 28);
  return bytes <= MJ_MAXBUFFER ? 0 : say(g, "data of %.0f MB exceeds the %.0f MB limit (njmax "
                                         "= %d, nconmax = %d, nstack = %d)", bytes / 1e6,
                                         MJ_MAXBUFFER / 1e6, m->njmax, m->nconmax, m->nstack);
}

// ---- the check -------------------------------------------------------------------------------

// 0 when m is consistent, else -1 and "field[index] = value ..." in err
int mj_validateModel(const mjModel* m, char* err, int errsz) {
  Msg g = {err, errsz};
  int bad = checkRanges(m, &g) || checkTree(m, &g) || checkJoints(m, &g) ||
            checkInertia(m, &g) || checkGeoms(m, &g) || checkBvh(m, &g) ||
            checkAssets(m, &g) || checkEqualities(m, &g) ||
            checkTendons(m, &g) || checkActuators(m, &g) || checkSensors(m, &g) ||
            checkHistory(m, &g) ||
            checkCustom(m, &g) || checkText(m, &g) || checkNumbers(m, &g) || checkStack(m, &g) ||
            mj_checkOption(&m->opt, err, errsz);
  return bad ? -1 : 0;
}
