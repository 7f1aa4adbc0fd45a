// validate.c tests: every model the compiler makes passes mj_validateModel and the binary
// round trip; each kind of corruption, saved with a valid CRC, is refused with a message
// naming the field and the value; random single-int mutations of a compiled model either fail
// to load or leave a model the position stage and a step run on (make check SAN=1 turns any
// out-of-bounds access there into a crash).
#include <criterion/criterion.h>
#include <glob.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mj.h"
#include "engine/smooth.h"

// ---- fixtures --------------------------------------------------------------------------------

// a model with every kind of object the checks know: free, ball, hinge and slide joints, a
// mocap body, a targeting camera and light, pairs and excludes, each equality type, a fixed
// and a spatial tendon (sites, a wrapping sphere with a side site, a pulley), each
// transmission type, a filter actuator, sensors with objects, references and joints (a user
// sensor among them), user numbers, custom fields (a padded numeric, a text, a tuple), a key
static const char sinkXML[] =
  "<mujoco model='sink'>"
  "<asset><texture name='grid' type='2d' builtin='checker' width='8' height='8'/>"
  "  <material name='grid' texture='grid'/></asset>"
  "<worldbody>"
  "  <light name='lamp' pos='0 0 3' mode='targetbody' target='torso'/>"
  "  <camera name='eye' pos='2 0 1' mode='targetbody' target='torso'/>"
  "  <geom name='floor' type='plane' size='2 2 0.1' material='grid'/>"
  "  <site name='anchor' pos='0 0 2'/>"
  "  <body name='torso' pos='0 0 1' user='1 2'><freejoint name='root'/>"
  "    <geom name='torso' type='box' size='0.1 0.1 0.1' condim='4'/>"
  "    <site name='s1' pos='0.1 0 0'/>"
  "    <body name='arm' pos='0.2 0 0'><joint name='shoulder' type='ball'/>"
  "      <geom name='arm' type='capsule' fromto='0 0 0 0.3 0 0' size='0.03'/>"
  "      <geom name='ball' type='sphere' pos='0.15 0 0.05' size='0.02'/>"
  "      <site name='side' pos='0.15 0 0.1'/>"
  "      <body name='hand' pos='0.3 0 0'>"
  "        <joint name='elbow' type='hinge' axis='0 1 0'/>"
  "        <joint name='slider' type='slide' axis='1 0 0'/>"
  "        <geom name='hand' type='sphere' size='0.04'/><site name='s2' pos='0.05 0 0'/>"
  "      </body></body></body>"
  "  <body name='target' mocap='true' pos='1 0 1'>"
  "    <geom name='target' type='sphere' size='0.05' contype='0' conaffinity='0'/></body>"
  "</worldbody>"
  "<contact><pair geom1='floor' geom2='hand' condim='6'/>"
  "  <exclude body1='torso' body2='arm'/></contact>"
  "<equality><connect name='tie' body1='hand' body2='target' anchor='0 0 0' active='false'/>"
  "  <weld body1='arm' body2='torso'/><joint joint1='elbow' joint2='slider'/>"
  "  <tendon tendon1='fixed'/></equality>"
  "<tendon><fixed name='fixed'><joint joint='elbow' coef='1'/>"
  "    <joint joint='slider' coef='-0.5'/></fixed>"
  "  <spatial name='rope'><site site='s1'/><geom geom='ball' sidesite='side'/>"
  "    <site site='s2'/><pulley divisor='2'/><site site='s2'/><site site='anchor'/></spatial>"
  "</tendon>"
  "<actuator><motor name='m_elbow' joint='elbow'/>"
  "  <position name='p_slider' joint='slider' kp='10'/><motor name='m_rope' tendon='rope'/>"
  "  <general name='g_filter' joint='elbow' dyntype='filter' dynprm='0.1'/>"
  "  <motor name='m_site' site='s2' refsite='s1' gear='0 0 1 0 0 0'/>"
  "  <motor name='m_crank' cranksite='s2' slidersite='s1' cranklength='0.1'/>"
  "  <adhesion name='glue' body='hand' ctrlrange='0 1'/></actuator>"
  "<sensor><jointpos name='q_elbow' joint='elbow'/>"
  "  <ballquat name='q_shoulder' joint='shoulder'/>"
  "  <framepos name='fp' objtype='site' objname='s2' reftype='body' refname='torso'/>"
  "  <framequat name='fq' objtype='geom' objname='hand'/><subtreecom name='com' body='torso'/>"
  "  <tendonpos name='rope_len' tendon='rope'/><actuatorfrc name='af' actuator='m_elbow'/>"
  "  <accelerometer name='acc' site='s1'/><camprojection name='proj' site='s2' camera='eye'/>"
  "  <distance name='dist' geom1='hand' body2='torso'/><clock name='clock'/>"
  "  <user name='user' dim='2' objtype='body' objname='hand' user='0.5'/></sensor>"
  "<custom><numeric name='gains' data='1 2' size='3'/><text name='label' data='sink'/>"
  "  <tuple name='parts'><element objtype='body' objname='arm' prm='1'/>"
  "    <element objtype='sensor' objname='fp'/></tuple></custom>"
  "<keyframe><key name='home' qpos='0 0 1 1 0 0 0 1 0 0 0 0.3 0'/></keyframe>"
  "</mujoco>";

// the kitchen-sink model
static mjModel* sink(void) {
  char err[512] = "";
  mjModel* m = mj_parseXMLString(sinkXML, "sink.xml", "", err, sizeof(err));
  cr_assert_not_null(m, "%s", err);
  return m;
}

// the biped of models/ (tests run from the repository root)
static mjModel* biped(void) {
  char err[512] = "";
  mjModel* m = mj_loadXML("models/biped.xml", err, sizeof(err));
  cr_assert_not_null(m, "%s", err);
  return m;
}

// the int array of m called name, with its element count; NULL for other types
static int* intArray(mjModel* m, const char* name, long* n) {
  const mjModel* m_ = m;
  MJ_SIZES(MJ_X_SIZE_LOCAL)
#define X(type, f, rows, cols)                                                                  \
  if (!strcmp(name, #f)) {                                                                     \
    *n = (long)(rows) * (cols);                                                                \
    return _Generic(m->f, int*: (void*)m->f, default: NULL);                                  \
  }
  MJ_MODEL_ARRAYS(X)
#undef X
  return NULL;
}

// m through the binary form: save (a valid CRC), then load; NULL and the message on failure
static mjModel* roundTrip(const mjModel* m, char* err, int errsz) {
  size_t n;
  void* buf = mj_modelToBuffer(m, &n);
  cr_assert_not_null(buf);
  mjModel* r = mj_modelFromBuffer(buf, n, "x.mjb", err, errsz);
  free(buf);
  return r;
}

// a loaded copy of m is refused with "x.mjb: invalid model: <want...>", and the check on
// the copy itself says the same
static void expectRefused(const mjModel* m, const char* want) {
  char err[512] = "", direct[512] = "";
  mjModel* r = roundTrip(m, err, sizeof(err));
  cr_assert_null(r, "accepted a model that should fail with '%s'", want);
  cr_assert(!strncmp(err, "x.mjb: invalid model: ", 22), "message '%s' lacks the prefix", err);
  cr_assert(strstr(err + 22, want) == err + 22, "message '%s' does not start with '%s'", err,
            want);
  cr_assert_eq(mj_validateModel(m, direct, sizeof(direct)), -1);
  cr_assert_str_eq(direct, err + 22);
}

// set int field[i] = v on a copy of base and expect the load to fail with want
static void expectInt(const mjModel* base, const char* field, long i, int v, const char* want) {
  mjModel* m = mj_copyModel(base);
  long n;
  int* p = intArray(m, field, &n);
  cr_assert(p && i >= 0 && i < n, "no element %s[%ld]", field, i);
  p[i] = v;
  expectRefused(m, want);
  mj_deleteModel(m);
}

// id of the named object of the sink
static int id(const mjModel* m, int type, const char* name) {
  int i = mj_name2id(m, type, name);
  cr_assert_geq(i, 0, "no object '%s'", name);
  return i;
}

// ---- valid models ----------------------------------------------------------------------------

Test(validate, every_compiled_model_passes_and_loads) {
  static const char* const patterns[] = {"models/*.xml", "../shared/corpus/dm_control/*.xml",
                                         "../shared/corpus/gymnasium/*.xml"};
  int compiled = 0, seen = 0;
  for (int k = 0; k < 3; k++) {
    glob_t gl;
    cr_assert_eq(glob(patterns[k], 0, NULL, &gl), 0, "no files match %s", patterns[k]);
    for (size_t i = 0; i < gl.gl_pathc; i++, seen++) {
      char err[512] = "";
      mjModel* m = mj_loadXML(gl.gl_pathv[i], err, sizeof(err));
      if (!m) continue;  // features the compiler refuses are not this test's concern
      compiled++;
      cr_assert_eq(mj_validateModel(m, err, sizeof(err)), 0, "%s: %s", gl.gl_pathv[i], err);
      mjModel* r = roundTrip(m, err, sizeof(err));
      cr_assert_not_null(r, "%s", err);
      cr_assert_eq(mj_modelHash(r), mj_modelHash(m));
      mj_deleteModel(r);
      mj_deleteModel(m);
    }
    globfree(&gl);
  }
  // the corpus is there and nearly all of it compiles: 6 models here, 32 corpus models
  cr_assert_geq(seen, 38, "only %d files", seen);
  cr_assert_geq(compiled, 34, "only %d of %d files compiled", compiled, seen);
}

Test(validate, sink_passes_and_has_every_kind) {
  mjModel* m = sink();
  char err[512] = "";
  cr_assert_eq(mj_validateModel(m, err, sizeof(err)), 0, "%s", err);
  cr_assert_eq(m->njnt, 4);
  cr_assert_eq(m->nq, 13);
  cr_assert_eq(m->nv, 11);
  cr_assert_eq(m->nM, 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11);  // a chain of 11 dofs
  cr_assert_eq(m->nwrap, 8);
  cr_assert_eq(m->neq, 4);
  cr_assert_eq(m->nu, 7);
  cr_assert_eq(m->na, 1);
  cr_assert_eq(m->nsensor, 12);
  cr_assert_eq(m->nuser_body, 2);
  cr_assert_eq(m->nmocap, 1);
  cr_assert_eq(m->nnumericdata, 3);
  cr_assert_eq(m->ntextdata, 5);
  cr_assert_eq(m->ntupledata, 2);
  mj_deleteModel(m);
}

// a message goes only as far as the buffer allows, and a NULL buffer is fine
Test(validate, message_is_truncated_safely) {
  mjModel* m = sink();
  m->jnt_type[1] = 9;
  char err[8];
  memset(err, 'z', sizeof(err));
  cr_assert_eq(mj_validateModel(m, err, sizeof(err)), -1);
  cr_assert_str_eq(err, "jnt_typ");
  cr_assert_eq(mj_validateModel(m, NULL, 0), -1);
  mj_deleteModel(m);
}

// ---- corruptions, one field at a time ----------------------------------------------------------

Test(validate, refuses_bad_body_tree) {
  mjModel* m = sink();
  int arm = id(m, mjOBJ_BODY, "arm"), hand = id(m, mjOBJ_BODY, "hand");
  char want[128];
  snprintf(want, sizeof(want), "body_parentid[%d] = -5 out of range [0, %d)", arm, m->nbody);
  expectInt(m, "body_parentid", arm, -5, want);
  snprintf(want, sizeof(want), "body_parentid[%d] = %d out of range [0, %d)", arm, arm, arm);
  expectInt(m, "body_parentid", arm, arm, want);
  expectInt(m, "body_parentid", arm, 1 << 30, "body_parentid[2] = 1073741824 out of range");
  expectInt(m, "body_parentid", 0, 1, "body_parentid[0] = 1, expected 0 (the world");
  snprintf(want, sizeof(want), "body_rootid[%d] = 0, expected 1", hand);
  expectInt(m, "body_rootid", hand, 0, want);
  snprintf(want, sizeof(want), "body_weldid[%d] = 1, expected %d", hand, hand);
  expectInt(m, "body_weldid", hand, 1, want);
  snprintf(want, sizeof(want), "body_mocapid[%d] = 1 out of range [-1, 1)", hand);
  expectInt(m, "body_mocapid", hand, m->nmocap, want);
  expectInt(m, "body_mocapid", id(m, mjOBJ_BODY, "target"), -1,
            "nmocap = 1, expected 0 (bodies with a mocap id)");
  mj_deleteModel(m);
}

// a tree's sleep policy is one the compiler leaves: never AUTO (it resolves every tree)
Test(validate, refuses_bad_sleep_policy) {
  mjModel* m = sink();
  cr_assert_gt(m->ntree, 0);
  expectInt(m, "tree_sleep_policy", 0, mjSLEEP_AUTO,
            "tree_sleep_policy[0] = 0 out of range [1, 6)");
  expectInt(m, "tree_sleep_policy", 0, mjSLEEP_INIT + 1,
            "tree_sleep_policy[0] = 6 out of range [1, 6)");
  mj_deleteModel(m);
}

Test(validate, refuses_bad_joint_layout) {
  mjModel* m = sink();
  int elbow = id(m, mjOBJ_JOINT, "elbow"), hand = id(m, mjOBJ_BODY, "hand");
  expectInt(m, "jnt_type", elbow, 4, "jnt_type[2] = 4 out of range [0, 4)");
  expectInt(m, "jnt_type", elbow, mjJNT_BALL, "nq = 13, expected 16");
  expectInt(m, "jnt_qposadr", elbow, 12, "jnt_qposadr[2] = 12, expected 11");
  expectInt(m, "jnt_dofadr", elbow, -5, "jnt_dofadr[2] = -5, expected 9");
  expectInt(m, "jnt_bodyid", 0, 0, "jnt_bodyid[0] = 0 out of range [1, 5)");
  expectInt(m, "jnt_bodyid", elbow, 2, "jnt_bodyid[2] = 2, expected 3 (inside the span");
  expectInt(m, "body_jntnum", hand, -5, "body_jntnum[3] = -5 out of range [0, 5)");
  expectInt(m, "body_jntadr", hand, m->njnt, "body_jntadr[3] = 4 out of range [0, 3)");
  expectInt(m, "body_dofnum", hand, 12, "body_dofnum[3] = 12 out of range [0, 12)");
  expectInt(m, "body_dofnum", hand, 3,
            "body_dofadr[3] = 9 out of range [0, 9) for body_dofnum[3] = 3");
  expectInt(m, "dof_jntid", 9, 3, "dof_jntid[9] = 3, expected 2");
  expectInt(m, "dof_bodyid", 9, 2, "dof_bodyid[9] = 2, expected 3");
  mj_deleteModel(m);
}

Test(validate, refuses_bad_inertia_layout) {
  mjModel* m = sink();
  expectInt(m, "dof_parentid", 9, 9, "dof_parentid[9] = 9, expected 8");
  expectInt(m, "dof_parentid", 6, -1, "dof_parentid[6] = -1, expected 5");
  expectInt(m, "dof_Madr", 4, m->dof_Madr[4] + 1, "dof_Madr[4] = 11, expected 10");
  expectInt(m, "dof_Madr", 10, 1 << 30, "dof_Madr[10] = 1073741824, expected");
  expectInt(m, "dof_simplenum", 0, 2, "dof_simplenum[0] = 2, expected 0");
  m->nstack = 1000;
  expectRefused(m, "nstack = 1000 out of range [");
  mj_deleteModel(m);
}

Test(validate, refuses_bad_geoms_and_contacts) {
  mjModel* m = sink();
  int hand = id(m, mjOBJ_GEOM, "hand");
  expectInt(m, "geom_type", hand, mjNGEOMTYPES, "geom_type[4] = 9 out of range [0, 9)");
  expectInt(m, "geom_bodyid", hand, m->nbody, "geom_bodyid[4] = 5 out of range [0, 5)");
  expectInt(m, "geom_bodyid", hand, 2, "geom_bodyid[4] = 2, expected 3 (inside the span");
  expectInt(m, "geom_dataid", hand, 0, "geom_dataid[4] = 0 out of range [-1, 0)");
  // a height field geom without its field (the collision read hfield -1: t/fuzz/regress/mjb/)
  int type = m->geom_type[hand];
  m->geom_type[hand] = mjGEOM_HFIELD;
  expectInt(m, "geom_dataid", hand, -1, "geom_dataid[4] = -1 out of range [0, 0)");
  m->geom_type[hand] = type;
  expectInt(m, "geom_matid", 0, m->nmat, "geom_matid[0] = 1 out of range [-1, 1)");
  expectInt(m, "geom_condim", hand, 2, "geom_condim[4] = 2 is not 1, 3, 4 or 6");
  expectInt(m, "site_bodyid", 0, -5, "site_bodyid[0] = -5 out of range [0, 5)");
  expectInt(m, "cam_targetbodyid", 0, -2, "cam_targetbodyid[0] = -2 out of range [-1, 5)");
  expectInt(m, "light_targetbodyid", 0, 99, "light_targetbodyid[0] = 99 out of range [-1, 5)");
  expectInt(m, "pair_geom1", 0, m->ngeom, "pair_geom1[0] = 6 out of range [0, 6)");
  expectInt(m, "pair_dim", 0, 5, "pair_dim[0] = 5 is not 1, 3, 4 or 6");
  expectInt(m, "exclude_signature", 0, 7 << 16,
            "exclude_signature[0] = 458752 names bodies 7 and 0, out of range [0, 5)");
  // every role of mat_texid (nmat x mjNTEXROLE) is checked, the last (orm) too
  expectInt(m, "mat_texid", mjTEXROLE_RGB, m->ntex, "mat_texid[1] = 1 out of range [-1, 1)");
  expectInt(m, "mat_texid", mjTEXROLE_ORM, -2, "mat_texid[9] = -2 out of range [-1, 1)");
  mj_deleteModel(m);
}

// the arm's hierarchy is entries 2..4: an inner node (children 1, 2) over geoms 2 and 3
Test(validate, refuses_bad_bounding_volumes) {
  mjModel* m = sink();
  cr_assert_eq(m->body_bvhadr[2], 2);
  cr_assert_eq(m->body_bvhnum[2], 3);
  expectInt(m, "body_bvhadr", 2, 4, "body_bvhadr[2] = 4: a block of 3 out of range [0, 6)");
  expectInt(m, "bvh_child", 4, 0, "bvh_child[4] = 0 out of range [1, 3)");
  expectInt(m, "bvh_child", 5, 3, "bvh_child[5] = 3 out of range [1, 3)");
  expectInt(m, "bvh_nodeid", 3, 4, "bvh_nodeid[3] = 4 out of range [2, 4)");
  // an inner node naming a geom (the midphase wrote out of bounds: t/fuzz/regress/mjb/)
  expectInt(m, "bvh_nodeid", 2, 0, "bvh_nodeid[2] = 0 out of range [-1, 0)");
  mj_deleteModel(m);
}

Test(validate, refuses_bad_equalities_and_tendons) {
  mjModel* m = sink();
  expectInt(m, "eq_type", 0, mjEQ_FLEX, "eq_type[0] = 4 out of range [0, 4)");
  expectInt(m, "eq_obj1id", 0, m->nbody, "eq_obj1id[0] = 5 out of range [0, 5)");
  expectInt(m, "eq_obj2id", 1, -1, "eq_obj2id[1] = -1 out of range [0, 5)");
  expectInt(m, "eq_objtype", 0, mjOBJ_GEOM, "eq_objtype[0] = 5, expected 1 (body or site)");
  expectInt(m, "eq_obj2id", 2, m->njnt, "eq_obj2id[2] = 4 out of range [-1, 4)");
  expectInt(m, "tendon_adr", 1, m->nwrap,
            "tendon_adr[1] = 8 out of range [0, 3) for tendon_num[1] = 6");
  expectInt(m, "tendon_num", 1, m->nwrap + 1, "tendon_num[1] = 9 out of range [0, 9)");
  expectInt(m, "wrap_type", 0, mjWRAP_NONE, "wrap_type[0] = 0 out of range [1, 6)");
  expectInt(m, "wrap_objid", 0, m->njnt, "wrap_objid[0] = 4 out of range [0, 4)");
  expectInt(m, "wrap_objid", 2, m->nsite, "wrap_objid[2] = 4 out of range [0, 4)");
  expectInt(m, "wrap_objid", 3, id(m, mjOBJ_GEOM, "arm"),
            "geom_type[2] = 3, expected 2 (shape of a wrapping geom)");
  expectInt(m, "wrap_objid", 5, 0, "wrap_objid[5] = 0, expected -1 (a pulley has no object)");
  m->wrap_prm[3] = 2.5;
  expectRefused(m, "wrap_prm[3] = 2.5 is no side site id in [-1, 4)");
  mj_deleteModel(m);
}

// an actuator's damping or armature is refused on a site transmission, and the joints' and
// tendons' actuator ids must name the one actuator passing it on (-2 several, -1 none)
Test(validate, checks_actuator_damping_and_armature) {
  mjModel* m = sink();
  int site = id(m, mjOBJ_ACTUATOR, "m_site"), rope = id(m, mjOBJ_ACTUATOR, "m_rope");
  int slider = id(m, mjOBJ_JOINT, "slider"), elbow = id(m, mjOBJ_JOINT, "elbow");
  char err[512] = "";
  m->actuator_armature[site] = 0.5;
  expectRefused(m, "actuator 4: damping and armature require joint or tendon transmission");
  m->actuator_armature[site] = 0;
  m->actuator_armature[id(m, mjOBJ_ACTUATOR, "p_slider")] = 0.5;
  expectRefused(m, "jnt_actuatorid[3] = -1, expected 1");
  m->jnt_actuatorid[slider] = 1;
  m->actuator_dampingpoly[2 * rope + 1] = 3;
  expectRefused(m, "tendon_actuatorid[1] = -1, expected 2");
  m->tendon_actuatorid[1] = rope;
  m->actuator_damping[id(m, mjOBJ_ACTUATOR, "m_elbow")] = 1;
  m->actuator_damping[id(m, mjOBJ_ACTUATOR, "g_filter")] = 1;
  expectRefused(m, "jnt_actuatorid[2] = -1, expected -2");
  m->jnt_actuatorid[elbow] = -2;
  mjModel* r = roundTrip(m, err, sizeof(err));
  cr_assert_not_null(r, "%s", err);
  mj_deleteModel(r);
  mj_deleteModel(m);
}

Test(validate, refuses_bad_actuators_and_sensors) {
  mjModel* m = sink();
  expectInt(m, "actuator_trntype", 0, mjTRN_UNDEFINED,
            "actuator_trntype[0] = 1000 out of range [0, 6)");
  expectInt(m, "actuator_trnid", 0, -5, "actuator_trnid[0] = -5 out of range [0, 4)");
  expectInt(m, "actuator_trnid", 1, 0, "actuator_trnid[1] = 0 out of range [-1, 0)");
  expectInt(m, "actuator_trnid", 2 * 5 + 1, -1, "actuator_trnid[11] = -1 out of range [0, 4)");
  expectInt(m, "actuator_dyntype", 0, mjDYN_USER + 1, "actuator_dyntype[0] = 7 out of range");
  // a DC motor's three types go together; an input signature is a DC motor's only
  expectInt(m, "actuator_dyntype", 0, mjDYN_DCMOTOR, "actuator 0: DC motor types go together");
  expectInt(m, "actuator_ctrlspec", 0, mjINPUT_VOLTAGE,
            "actuator 0: an input signature without a DC motor");
  expectInt(m, "actuator_dyntype", 0, mjDYN_FILTER, "actuator_actnum[0] = 0 out of range [1, 2)");
  expectInt(m, "actuator_actadr", 3, 1, "actuator_actadr[3] = 1, expected 0");
  // m_elbow moved from the hinge to the ball: its moment row needs 3 entries, not 1 (41: each
  // transmission's possible non-zeros, as MuJoCo 3.14 counts them)
  expectInt(m, "actuator_trnid", 0, id(m, mjOBJ_JOINT, "shoulder"),
            "nJmom = 41, expected 43 (the sum of the actuators' moment bounds)");
  expectInt(m, "sensor_type", 0, mjSENS_CONTACT, "sensor_type[0] = 42 is not supported");
  expectInt(m, "sensor_objid", 0, 1 << 30, "sensor_objid[0] = 1073741824 out of range [0, 4)");
  expectInt(m, "sensor_objtype", 2, mjOBJ_JOINT,
            "sensor_objtype[2] = 3 is not an object type this sensor accepts");
  expectInt(m, "sensor_refid", 0, 0, "sensor_refid[0] = 0, expected -1 (no reference)");
  expectInt(m, "sensor_refid", 8, -1, "sensor_refid[8] = -1 out of range [0, 1)");
  expectInt(m, "sensor_objid", 0, id(m, mjOBJ_JOINT, "shoulder"),
            "jnt_type[1] = 1, expected 3 (a hinge or slide");
  expectInt(m, "sensor_objid", 1, id(m, mjOBJ_JOINT, "elbow"), "jnt_type[2] = 3, expected 1");
  expectInt(m, "sensor_dim", 2, 4, "sensor_dim[2] = 4, expected 3");
  expectInt(m, "sensor_adr", 10, m->nsensordata, "sensor_adr[10] = 26 out of range [0, 26)");
  // the user sensor: an object of any named kind or none, no reference, its datatype's size
  expectInt(m, "sensor_objid", 11, m->nbody, "sensor_objid[11] = 5 out of range [0, 5)");
  expectInt(m, "sensor_objid", 11, -1, "sensor_objid[11] = -1 out of range [0, 5)");
  expectInt(m, "sensor_objtype", 11, mjNOBJECT, "sensor_objtype[11] = 26 out of range [0, 26)");
  expectInt(m, "sensor_objtype", 11, mjOBJ_UNKNOWN, "sensor_objid[11] = 3, expected -1");
  expectInt(m, "sensor_refid", 11, 0, "sensor_refid[11] = 0, expected -1 (no reference)");
  expectInt(m, "sensor_datatype", 11, mjDATATYPE_AXIS,
            "sensor_dim[11] = 2, expected 3 (datatype axis)");
  mjModel* u = mj_copyModel(m);
  u->sensor_objtype[11] = mjOBJ_TUPLE;  // custom entries are not in the model: any id
  u->sensor_objid[11] = 9;
  char err[512] = "";
  cr_assert_eq(mj_validateModel(u, err, sizeof(err)), 0, "%s", err);
  mj_deleteModel(u);
  mj_deleteModel(m);
}

Test(validate, refuses_bad_custom_fields) {
  mjModel* m = sink();
  expectInt(m, "numeric_adr", 0, 1, "numeric_adr[0] = 1: a block of 3 out of range [0, 3)");
  expectInt(m, "numeric_size", 0, -1, "numeric_adr[0]: negative count -1");
  expectInt(m, "text_size", 0, 0, "text_size[0] = 0 out of range [1, 6)");
  expectInt(m, "text_adr", 0, 1, "text_adr[0] = 1: a block of 5 out of range [0, 5)");
  // "sink" without its terminator
  expectInt(m, "text_size", 0, 4, "text_data[3] = 107, expected 0 (a text ends in its");
  expectInt(m, "tuple_size", 0, 3, "tuple_adr[0] = 0: a block of 3 out of range [0, 2)");
  expectInt(m, "tuple_objtype", 1, mjNOBJECT, "tuple_objtype[1] = 26 out of range [1, 26)");
  expectInt(m, "tuple_objtype", 1, mjOBJ_UNKNOWN, "tuple_objtype[1] = 0 out of range [1, 26)");
  expectInt(m, "tuple_objid", 1, m->nsensor, "tuple_objid[1] = 12 out of range [0, 12)");
  // flexes are not held: no id is in range (the element's id is sensor fp's)
  char want[96];
  snprintf(want, sizeof(want), "tuple_objid[1] = %d out of range [0, 0)",
           id(m, mjOBJ_SENSOR, "fp"));
  expectInt(m, "tuple_objtype", 1, mjOBJ_FLEX, want);
  expectInt(m, "name_tupleadr", 0, -2, "name_tupleadr[0] = -2 out of range [-1, ");
  mj_deleteModel(m);
}

Test(validate, refuses_bad_names_and_numbers) {
  mjModel* base = sink();
  char want[128];
  snprintf(want, sizeof(want), "name_bodyadr[1] = %d out of range [-1, %d)", base->nnames,
           base->nnames);
  expectInt(base, "name_bodyadr", 1, base->nnames, want);
  expectInt(base, "tex_pathadr", 0, base->npaths, "tex_pathadr[0] = 1 out of range [-1, 1)");

  // unterminated names, non-finite and negative numbers, a zero timestep
  mjModel* m = mj_copyModel(base);
  m->names[m->nnames - 1] = 'x';
  snprintf(want, sizeof(want), "names[%d] = 120, expected 0", m->nnames - 1);
  expectRefused(m, want);
  mj_deleteModel(m);
  m = mj_copyModel(base);
  m->body_mass[2] = NAN;
  expectRefused(m, "body_mass[2] = nan is not finite");
  m->body_mass[2] = -1;
  expectRefused(m, "body_mass[2] = -1 out of range [0, inf)");
  m->body_mass[2] = 1;
  m->body_inertia[3 * 2 + 1] = -1e-3;
  expectRefused(m, "body_inertia[7] = -0.001 out of range [0, inf)");
  m->body_inertia[3 * 2 + 1] = 1e-3;
  m->qpos0[4] = INFINITY;
  expectRefused(m, "qpos0[4] = inf is not finite");
  m->qpos0[4] = 0;
  m->geom_rgba[1] = -NAN;
  expectRefused(m, "geom_rgba[1] = -nan is not finite");
  m->geom_rgba[1] = 1;
  m->opt.timestep = 0;
  expectRefused(m, "opt.timestep = 0 out of range (0, inf)");
  m->opt.timestep = NAN;
  expectRefused(m, "opt.timestep[0] = nan is not finite");
  m->opt.timestep = 0.01;
  m->opt.gravity[2] = -INFINITY;
  expectRefused(m, "opt.gravity[2] = -inf is not finite");
  mj_deleteModel(m);
  mj_deleteModel(base);
}

// ---- random mutations ------------------------------------------------------------------------

// the next number of a 64-bit linear congruential generator, high bits
static unsigned rnd(unsigned long long* s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned)(*s >> 33);
}

// the names of the non-empty int arrays of m
static int intFields(mjModel* m, const char** names, int cap) {
  int k = 0;
  long n;
#define X(type, f, rows, cols)                                                                  \
  if (k < cap && intArray(m, #f, &n) && n > 0) names[k++] = #f;
  MJ_MODEL_ARRAYS(X)
#undef X
  return k;
}

// mutate one int of a copy of base per trial: a value near the array's natural bounds, a
// huge or negative one, or the original plus or minus one; the load must fail cleanly or
// give a model on which reset, the position stage, the inertia, its factor and two steps run
static void fuzz(mjModel* base, unsigned long long seed, int trials, int* refused) {
  const char* fields[256];
  int nfield = intFields(base, fields, 256);
  cr_assert_gt(nfield, 40);
  *refused = 0;
  for (int t = 0; t < trials; t++) {
    mjModel* m = mj_copyModel(base);
    long n;
    const char* f = fields[rnd(&seed) % nfield];
    int* p = intArray(m, f, &n);
    long i = rnd(&seed) % n;
    int old = p[i], bound = m->nbody > m->nv ? m->nbody : m->nv;
    const int values[] = {-5, -1, 0, 1, old - 1, old + 1, bound - 1, bound, bound + 1,
                          1 << 30, -(1 << 30), (int)(rnd(&seed) % 64) - 8};
    p[i] = values[rnd(&seed) % (sizeof(values) / sizeof(values[0]))];
    char err[512] = "";
    mjModel* r = roundTrip(m, err, sizeof(err));
    if (!r) {
      cr_assert(strstr(err, "x.mjb: invalid model: "), "%s[%ld] = %d: '%s'", f, i, p[i], err);
      (*refused)++;
    } else {
      mjData* d = mj_makeData(r);
      cr_assert_not_null(d);
      mj_resetData(r, d);
      mj_kinematics(r, d);
      mj_comPos(r, d);
      mj_crb(r, d);
      mj_factorM(r, d);
      mj_step(r, d);
      mj_step(r, d);
      mj_deleteData(d);
      mj_deleteModel(r);
    }
    mj_deleteModel(m);
  }
}

Test(validate, random_mutations_of_the_biped_fail_cleanly_or_simulate) {
  mjModel* m = biped();
  int refused;
  fuzz(m, 12345, 400, &refused);
  // most mutations hit ids and addresses; some (groups, contact bits) are harmless
  cr_assert(refused > 200 && refused < 400, "%d of 400 refused", refused);
  mj_deleteModel(m);
}

Test(validate, random_mutations_of_the_sink_fail_cleanly_or_simulate) {
  mjModel* m = sink();
  int refused;
  fuzz(m, 777, 400, &refused);
  cr_assert(refused > 200 && refused < 400, "%d of 400 refused", refused);
  mj_deleteModel(m);
}

// a DC motor round-trips; one with a state or parameter the engine does not step (integral
// gain, LuGre), more than one control, or a current state without te is refused
Test(validate, dcmotor) {
  char err[512] = "";
  mjModel* m = mj_parseXMLString(
    "<mujoco><worldbody><body><joint name='j'/><geom size='1' mass='1'/></body></worldbody>"
    "<actuator><dcmotor joint='j' motorconst='1' resistance='2' inductance='0 0.1'/>"
    "</actuator></mujoco>", "dc.xml", "", err, sizeof(err));
  cr_assert_not_null(m, "%s", err);
  mjModel* r = roundTrip(m, err, sizeof(err));
  cr_assert_not_null(r, "%s", err);
  mj_deleteModel(r);
  mjModel* c = mj_copyModel(m);
  c->actuator_gainprm[5] = 1;
  expectRefused(c, "actuator 0: DC motor thermal, LuGre, integral and slew states are not");
  c->actuator_gainprm[5] = 0;
  c->actuator_dynprm[5] = 1e4;
  expectRefused(c, "actuator 0: DC motor thermal, LuGre, integral and slew states are not");
  c->actuator_dynprm[5] = 0;
  c->actuator_dynprm[0] = 0;
  expectRefused(c, "actuator_actnum[0] = 1, expected 0");
  mj_deleteModel(c);
  expectInt(m, "actuator_ctrlspec", 0, mjINPUT_POS | mjINPUT_VEL,
            "actuator 0: DC motor needs exactly one control");
  mj_deleteModel(m);
}
