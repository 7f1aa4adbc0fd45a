// t/unit/compiler/compile.c: the MJCF compiler on small models, against independently computed
// numbers and MuJoCo 3.5.1's values (noted where they come from the oracle).
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mj.h"

#define PI 3.14159265358979323846

static char err[1000];

// compile xml or fail the test with the compiler's message
static mjModel* load(const char* xml) {
  err[0] = 0;
  mjModel* m = mj_parseXMLString(xml, "t.xml", "", err, sizeof(err));
  cr_assert_not_null(m, "compile failed: %s", err);
  return m;
}

// compile xml expecting failure with a message containing `want`
static void loadFails(const char* xml, const char* want) {
  err[0] = 0;
  mjModel* m = mj_parseXMLString(xml, "t.xml", "", err, sizeof(err));
  cr_assert_null(m, "compiled, expected error '%s'", want);
  cr_assert(strstr(err, want), "message '%s' lacks '%s'", err, want);
}

Test(compile, capsule_mass_from_density) {
  mjModel* m = load("<mujoco><worldbody><body><joint/>"
                    "<geom type='capsule' size='0.05' fromto='0 0 0 0 0 0.4' density='500'/>"
                    "</body></worldbody></mujoco>");
  // V = pi r^2 (2h) + 4/3 pi r^3, r = 0.05, h = 0.2
  double r = 0.05, h = 0.2, v = PI * r * r * 2 * h + 4.0 / 3 * PI * r * r * r;
  cr_assert_float_eq(m->body_mass[1], 500 * v, 1e-12);
  // fromto: center at the midpoint, half-length in size[1], +z along from - to
  cr_assert_float_eq(m->geom_pos[2], 0.2, 1e-12);
  cr_assert_float_eq(m->geom_size[1], 0.2, 1e-12);
  cr_assert_float_eq(fabs(m->geom_quat[1]), 1, 1e-12);
  mj_deleteModel(m);
}

Test(compile, position_actuator_expansion) {
  mjModel* m = load("<mujoco><worldbody><body><joint name='j'/><geom size='.1'/></body>"
                    "</worldbody><actuator><position joint='j' kp='30' kv='4'/>"
                    "<velocity joint='j' kv='2'/><motor joint='j' gear='3'/></actuator>"
                    "</mujoco>");
  cr_assert_eq(m->actuator_gaintype[0], mjGAIN_FIXED);
  cr_assert_eq(m->actuator_biastype[0], mjBIAS_AFFINE);
  cr_assert_float_eq(m->actuator_gainprm[0], 30, 0);
  cr_assert_float_eq(m->actuator_biasprm[0], 0, 0);
  cr_assert_float_eq(m->actuator_biasprm[1], -30, 0);
  cr_assert_float_eq(m->actuator_biasprm[2], -4, 0);
  // velocity: gain kv, bias (0, 0, -kv)
  cr_assert_float_eq(m->actuator_gainprm[10], 2, 0);
  cr_assert_float_eq(m->actuator_biasprm[12], -2, 0);
  // motor: unit gain, no bias, gear
  cr_assert_eq(m->actuator_biastype[2], mjBIAS_NONE);
  cr_assert_float_eq(m->actuator_gear[12], 3, 0);
  cr_assert_eq(m->actuator_trntype[2], mjTRN_JOINT);
  cr_assert_eq(m->actuator_trnid[4], 0);
  cr_assert_eq(m->actuator_trnid[5], -1);
  mj_deleteModel(m);
}

Test(compile, class_inheritance) {
  mjModel* m = load("<mujoco><default><geom rgba='1 0 0 1' friction='0.5'/>"
                    "<default class='a'><geom friction='0.7'/>"
                    "<default class='b'><geom condim='1'/></default></default></default>"
                    "<worldbody><body childclass='b'><joint/>"
                    "<geom size='.1'/><geom class='a' size='.1'/><geom class='main' size='.1'/>"
                    "</body><geom size='1' type='plane'/></worldbody></mujoco>");
  // geom 0 is the world's plane (body 0 first); then class b (inherits a's friction and
  // main's rgba), class a, main
  cr_assert_eq(m->geom_bodyid[0], 0);
  cr_assert_eq(m->geom_condim[1], 1);
  cr_assert_float_eq(m->geom_friction[3], 0.7, 1e-12);
  cr_assert_float_eq(m->geom_rgba[5], 0, 0);
  cr_assert_float_eq(m->geom_rgba[4], 1, 0);
  cr_assert_eq(m->geom_condim[2], 3);
  cr_assert_float_eq(m->geom_friction[6], 0.7, 1e-12);
  cr_assert_float_eq(m->geom_friction[9], 0.5, 1e-12);
  cr_assert_eq(m->geom_type[0], mjGEOM_PLANE);
  mj_deleteModel(m);
}

Test(compile, orientations_and_angles) {
  mjModel* m = load("<mujoco><worldbody>"
                    "<body euler='0 0 90'><joint range='-30 60' ref='10'/><geom size='.1'/>"
                    "</body><body axisangle='1 0 0 180'><geom size='.1'/></body>"
                    "<body zaxis='1 0 0'><geom size='.1'/></body></worldbody></mujoco>");
  double c45 = sqrt(0.5);
  cr_assert_float_eq(m->body_quat[4], c45, 1e-12);
  cr_assert_float_eq(m->body_quat[7], c45, 1e-12);
  cr_assert_float_eq(m->body_quat[9], 1, 1e-12);
  // zaxis (1,0,0): 90 degrees about +y
  cr_assert_float_eq(m->body_quat[12], c45, 1e-12);
  cr_assert_float_eq(m->body_quat[14], c45, 1e-12);
  // limited by autolimits, degrees to radians; qpos0 = ref
  cr_assert_eq(m->jnt_limited[0], 1);
  cr_assert_float_eq(m->jnt_range[0], -PI / 6, 1e-12);
  cr_assert_float_eq(m->jnt_range[1], PI / 3, 1e-12);
  cr_assert_float_eq(m->qpos0[0], PI / 18, 1e-12);
  mj_deleteModel(m);
}

Test(compile, tree_and_sparse_layout) {
  // MuJoCo 3.5.1 (oracle): dof_Madr 0 1 3 6 10 15 21 28 36 45 55 66 73 74, nM 76
  mjModel* m = load("<mujoco><worldbody><body pos='0 0 1'><joint type='free'/>"
                    "<geom size='0.1' pos='0.1 0 0'/><geom type='box' size='.1 .2 .3'/>"
                    "<body><joint axis='0 1 0'/><joint type='slide'/>"
                    "<geom type='capsule' size='.05' fromto='0 0 0 0 0 -0.4'/>"
                    "<body><joint type='ball'/><geom size='.1'/></body></body>"
                    "<body pos='0 1 0'><joint type='slide'/><geom size='.1'/></body></body>"
                    "<body pos='1 0 0'><joint type='slide' axis='1 0 0'/>"
                    "<joint type='slide' axis='0 1 0'/><geom size='.1'/></body>"
                    "<body pos='1 0 0'><geom size='.1'/></body></worldbody></mujoco>");
  const int madr[14] = {0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 73, 74};
  const int parent[14] = {-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 5, -1, 12};
  cr_assert_eq(m->nM, 76);
  for (int i = 0; i < 14; i++) {
    cr_assert_eq(m->dof_Madr[i], madr[i], "dof %d", i);
    cr_assert_eq(m->dof_parentid[i], parent[i], "dof %d", i);
  }
  // oracle: body_simple 1 0 0 0 0 2 1, body_treeid -1 0 0 0 0 1 -1
  const int simple[7] = {1, 0, 0, 0, 0, 2, 1}, tree[7] = {-1, 0, 0, 0, 0, 1, -1};
  for (int b = 0; b < 7; b++) {
    cr_assert_eq(m->body_simple[b], simple[b], "body %d", b);
    cr_assert_eq(m->body_treeid[b], tree[b], "body %d", b);
  }
  // free joint qpos0: body pose; ball: unit quaternion
  cr_assert_float_eq(m->qpos0[2], 1, 0);
  cr_assert_float_eq(m->qpos0[3], 1, 0);
  cr_assert_float_eq(m->qpos0[9], 1, 0);
  // body 1 mass: sphere 4/3 pi 0.1^3 1000 + box 8 * 0.1*0.2*0.3 * 1000
  cr_assert_float_eq(m->body_mass[1], 4000.0 / 3 * PI * 1e-3 + 48, 1e-9);
  mj_deleteModel(m);
}

Test(compile, names_sensors_keys) {
  mjModel* m = load("<mujoco model='mm'><worldbody><body name='b' mocap='true' pos='1 2 3'>"
                    "<geom size='.1'/><site name='s'/></body>"
                    "<body name='c'><joint name='j'/><geom size='.1'/></body></worldbody>"
                    "<sensor><touch site='s'/><framequat objtype='body' objname='b'/>"
                    "<jointpos joint='j' noise='0.1'/></sensor>"
                    "<keyframe><key name='k' qpos='0.5'/><key time='1'/></keyframe></mujoco>");
  cr_assert_str_eq(m->names, "mm");
  cr_assert_eq(mj_name2id(m, mjOBJ_BODY, "c"), 2);
  cr_assert_str_eq(mj_id2name(m, mjOBJ_JOINT, 0), "j");
  cr_assert_null(mj_id2name(m, mjOBJ_GEOM, 0));
  cr_assert_eq(m->nsensordata, 1 + 4 + 1);
  cr_assert_eq(m->sensor_adr[2], 5);
  cr_assert_eq(m->sensor_datatype[1], mjDATATYPE_QUATERNION);
  cr_assert_eq(m->sensor_objtype[1], mjOBJ_BODY);
  cr_assert_float_eq(m->sensor_noise[2], 0.1, 0);
  // keys: given qpos, mocap pose from the body when absent
  cr_assert_eq(m->nkey, 2);
  cr_assert_float_eq(m->key_qpos[0], 0.5, 0);
  cr_assert_float_eq(m->key_time[1], 1, 0);
  cr_assert_float_eq(m->key_mpos[5], 3, 0);
  cr_assert_float_eq(m->key_mquat[4], 1, 0);
  mj_deleteModel(m);
}

// custom fields: numbers padded to size, texts with their terminators, tuples' objects by
// type and id; each kind named apart, found by mj_name2id (values as MuJoCo 3.14 compiles them)
Test(compile, custom_fields) {
  mjModel* m = load("<mujoco><custom><numeric name='a' data='1 2' size='4'/>"
                    "<text name='a' data='hi'/><numeric name='b' size='1'/>"
                    "<tuple name='a'><element objtype='joint' objname='j' prm='0.5'/>"
                    "<element objtype='numeric' objname='b'/>"
                    "<element objtype='xbody' objname='c'/></tuple></custom>"
                    "<worldbody><body name='c'><joint name='j'/><geom size='.1'/></body>"
                    "</worldbody></mujoco>");
  cr_assert_eq(m->nnumeric, 2);
  cr_assert_eq(m->nnumericdata, 5);
  cr_assert_eq(m->numeric_adr[1], 4);
  cr_assert_eq(m->numeric_size[0], 4);
  const double numbers[5] = {1, 2, 0, 0, 0};
  cr_assert_arr_eq(m->numeric_data, numbers, sizeof(numbers));
  cr_assert_eq(m->ntextdata, 3);
  cr_assert_eq(m->text_size[0], 3);
  cr_assert_str_eq(m->text_data + m->text_adr[0], "hi");
  cr_assert_eq(m->ntupledata, 3);
  cr_assert_eq(m->tuple_size[0], 3);
  const int types[3] = {mjOBJ_JOINT, mjOBJ_NUMERIC, mjOBJ_XBODY}, ids[3] = {0, 1, 1};
  cr_assert_arr_eq(m->tuple_objtype, types, sizeof(types));
  cr_assert_arr_eq(m->tuple_objid, ids, sizeof(ids));
  cr_assert_float_eq(m->tuple_objprm[0], 0.5, 0);
  // one name in three kinds
  cr_assert_eq(mj_name2id(m, mjOBJ_NUMERIC, "a"), 0);
  cr_assert_eq(mj_name2id(m, mjOBJ_NUMERIC, "b"), 1);
  cr_assert_eq(mj_name2id(m, mjOBJ_TEXT, "a"), 0);
  cr_assert_eq(mj_name2id(m, mjOBJ_TUPLE, "a"), 0);
  cr_assert_eq(mj_name2id(m, mjOBJ_TEXT, "b"), -1);
  cr_assert_str_eq(mj_id2name(m, mjOBJ_NUMERIC, 1), "b");
  mj_deleteModel(m);
  loadFails("<mujoco><custom>\n<numeric name='x' size='1' data='1 2'/></custom></mujoco>",
            "t.xml:2: numeric 'x': attribute 'data' has 2 numbers, more than size 1");
  loadFails("<mujoco><custom><tuple name='t'>\n<element objtype='site' objname='s'/>"
            "</tuple></custom></mujoco>",
            "t.xml:2: element: site 's' in attribute 'objname' not found");
  loadFails("<mujoco><custom><text name='t' data='1'/><text name='t' data='2'/></custom>"
            "</mujoco>", "repeated text name 't'");
}

// skins are named too: a tuple may name one, and mj_name2id finds it
Test(compile, skin_names) {
  mjModel* m = load("<mujoco><deformable><skin name='sk' vertex='0 0 0 1 0 0 0 1 0' face='0 1 2'>"
                    "<bone body='c' bindpos='0 0 0' bindquat='1 0 0 0' vertid='0 1 2'"
                    " vertweight='1 1 1'/></skin></deformable>"
                    "<custom><tuple name='t'><element objtype='skin' objname='sk'/></tuple>"
                    "</custom><worldbody><body name='c'><joint/><geom size='.1'/></body>"
                    "</worldbody></mujoco>");
  cr_assert_eq(mj_name2id(m, mjOBJ_SKIN, "sk"), 0);
  cr_assert_str_eq(mj_id2name(m, mjOBJ_SKIN, 0), "sk");
  cr_assert_eq(m->tuple_objtype[0], mjOBJ_SKIN);
  cr_assert_eq(m->tuple_objid[0], 0);
  mj_deleteModel(m);
}

Test(compile, contact_sensor) {
  // MuJoCo 3.5.1 (oracle): intprm = {data bits in the order found, force, torque, dist, pos,
  // normal, tangent; reduce; num}, dim = num x the fields' size, subtrees as mjOBJ_XBODY
  static const char* head = "<mujoco><worldbody><site name='s' size='.1'/><body name='b'>"
                            "<freejoint/><geom name='g' size='.1'/></body></worldbody><sensor>";
  char xml[1000];
  snprintf(xml, sizeof(xml), "%s<contact/><contact geom1='g' subtree2='b' num='3' "
           "data='found torque pos tangent' reduce='maxforce' cutoff='1'/>"
           "<contact site='s' body2='world' data='force' reduce='netforce'/></sensor></mujoco>",
           head);
  mjModel* m = load(xml);
  int want[9] = {1, 0, 1, 1 + 4 + 16 + 64, 2, 3, 2, 3, 1};
  for (int k = 0; k < 9; k++) cr_assert_eq(m->sensor_intprm[k], want[k], "intprm[%d]", k);
  cr_assert_eq(m->sensor_dim[0], 1);
  cr_assert_eq(m->sensor_dim[1], 3 * 10);
  cr_assert_eq(m->sensor_dim[2], 3);
  cr_assert_eq(m->sensor_needstage[1], mjSTAGE_ACC);
  cr_assert_eq(m->sensor_objtype[0], mjOBJ_UNKNOWN);
  cr_assert_eq(m->sensor_objid[0], -1);
  cr_assert_eq(m->sensor_objtype[1], mjOBJ_GEOM);
  cr_assert_eq(m->sensor_reftype[1], mjOBJ_XBODY);
  cr_assert_eq(m->sensor_refid[1], 1);
  cr_assert_eq(m->sensor_objtype[2], mjOBJ_SITE);
  cr_assert_eq(m->sensor_reftype[2], mjOBJ_BODY);
  cr_assert_eq(m->sensor_refid[2], 0);
  mj_deleteModel(m);

  // refused: two criteria on one side, fields out of order or repeated, num below 1
  static const char* const bad[][2] = {
    {"<contact geom1='g' site='s'/>", "at most one of"},
    {"<contact data='force found'/>", "in the order"},
    {"<contact data='dist dist'/>", "in the order"},
    {"<contact data='speed'/>", "invalid keyword"},
    {"<contact num='0'/>", "must be positive"}};
  for (int i = 0; i < 5; i++) {
    snprintf(xml, sizeof(xml), "%s%s</sensor></mujoco>", head, bad[i][0]);
    loadFails(xml, bad[i][1]);
  }
}

Test(compile, contact_pairs_sorted) {
  // MuJoCo 3.5.1 (oracle): pairs sorted by signature (body1 << 16) + body2, body1 < body2
  mjModel* m = load("<mujoco><worldbody><geom name='f' type='plane' size='1 1 1'/>"
                    "<body name='a'><freejoint/><geom name='ga' size='.1'/>"
                    "<body name='a2'><joint/><geom name='ga2' size='.1'/></body></body>"
                    "<body name='b'><freejoint/><geom name='gb' size='.1'/></body></worldbody>"
                    "<contact><pair geom1='gb' geom2='ga'/>"
                    "<pair geom1='ga2' geom2='f' friction='1 2 3 4 5'/>"
                    "<exclude body1='b' body2='a'/></contact></mujoco>");
  cr_assert_eq(m->pair_signature[0], 2);
  cr_assert_eq(m->pair_signature[1], 65539);
  cr_assert_eq(m->pair_geom1[0], 0);
  cr_assert_eq(m->pair_geom2[0], 2);
  cr_assert_float_eq(m->pair_friction[4], 5, 0);
  cr_assert_eq(m->exclude_signature[0], 65539);
  mj_deleteModel(m);
}

Test(compile, options_and_flags) {
  mjModel* m = load("<mujoco><option timestep='0.01' integrator='RK4' gravity='0 0 -1'"
                    " cone='elliptic' solver='CG'><flag contact='disable' energy='enable'/>"
                    "</option><worldbody/></mujoco>");
  cr_assert_float_eq(m->opt.timestep, 0.01, 0);
  cr_assert_eq(m->opt.integrator, mjINT_RK4);
  cr_assert_eq(m->opt.cone, mjCONE_ELLIPTIC);
  cr_assert_eq(m->opt.solver, mjSOL_CG);
  cr_assert_float_eq(m->opt.gravity[2], -1, 0);
  cr_assert_eq(m->opt.disableflags, mjDSBL_CONTACT);
  cr_assert_eq(m->opt.enableflags, mjENBL_ENERGY);
  mj_deleteModel(m);
}

Test(compile, errors_name_file_and_line) {
  loadFails("<mujoco>\n<worldbody>\n<geom size='1' foo='2'/></worldbody></mujoco>",
            "t.xml:3: geom: unknown attribute 'foo'");
  loadFails("<mujoco><worldbody>\n<geom name='g' size='0'/></worldbody></mujoco>",
            "t.xml:2: geom 'g': size 0 must be positive");
  loadFails("<mujoco><worldbody><geom size='1 x'/></worldbody></mujoco>", "malformed number");
  loadFails("<mujoco><worldbody><geom size='1' pos='1 2'/></worldbody></mujoco>",
            "expected 3 numbers, got 2");
  loadFails("<mujoco><worldbody><geom size='1' mass='-1'/></worldbody></mujoco>",
            "mass cannot be negative");
  loadFails("<mujoco><worldbody><geom size='1' quat='0 0 0 0'/></worldbody></mujoco>",
            "quaternion has zero norm");
  loadFails("<mujoco><worldbody><geom name='a' size='1'/>\n<geom name='a' size='1'/>"
            "</worldbody></mujoco>", "t.xml:2: geom 'a': repeated geom name 'a'");
  loadFails("<mujoco><worldbody><geom size='1' material='m'/></worldbody></mujoco>",
            "material 'm' in attribute 'material' not found");
  loadFails("<mujoco><worldbody><geom class='zz' size='1'/></worldbody></mujoco>",
            "unknown default class 'zz'");
  loadFails("<mujoco><worldbody><geom type='blob' size='1'/></worldbody></mujoco>",
            "invalid keyword 'blob'");
  loadFails("<mujoco>\n<bogus/></mujoco>", "t.xml:2: bogus: unknown element");
  loadFails("<mujoco><worldbody>\n<geom size='1'></worldbody></mujoco>",
            "t.xml:2: XML error: mismatched tag");
  loadFails("<mujoco><compiler coordinate='global'/></mujoco>", "not supported");
  loadFails("<mujoco><actuator><motor joint='q'/></actuator></mujoco>",
            "joint 'q' in attribute 'joint' not found");
  loadFails("<mujoco><asset>\n<mesh name='x' file='a.stl'/></asset></mujoco>",
            "t.xml:2: mesh 'x': could not open mesh file 'a.stl'");
  loadFails("<mujoco><worldbody><body><inertial mass='-1' diaginertia='1 1 1'/></body>"
            "</worldbody></mujoco>", "mass cannot be negative");
  loadFails("<mujoco>\n<include file='/nonexistent/x.xml'/></mujoco>",
            "t.xml:2: include: cannot open file");
}

// <attach> errors: a missing model file, an unknown model or body, a name clash with the
// scene, each reported at the attach (or the clashing) element
Test(compile, attach_errors) {
  char dir[] = "/tmp/mjattachXXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char path[256], xml[1024];
  snprintf(path, sizeof(path), "%s/arm.xml", dir);
  FILE* f = fopen(path, "w");
  fputs("<mujoco><worldbody>\n<body name='b'><geom size='1'/></body></worldbody></mujoco>", f);
  fclose(f);
  const char* scene = "<mujoco><asset><model name='arm' file='%s/%s'/></asset><worldbody>"
                      "<body name='x_b'/>\n<attach model='%s' body='%s' prefix='%s'/>"
                      "</worldbody></mujoco>";
  snprintf(xml, sizeof(xml), scene, dir, "none.xml", "arm", "b", "y_");
  loadFails(xml, "t.xml:2: attach: model 'arm': ");
  snprintf(xml, sizeof(xml), scene, dir, "arm.xml", "leg", "b", "y_");
  loadFails(xml, "t.xml:2: attach: unknown model 'leg'");
  snprintf(xml, sizeof(xml), scene, dir, "arm.xml", "arm", "c", "y_");
  loadFails(xml, "t.xml:2: attach: unknown body 'c' in model 'arm'");
  snprintf(xml, sizeof(xml), scene, dir, "arm.xml", "arm", "b", "x_");
  loadFails(xml, "arm.xml:2: body 'b': repeated body name 'x_b'");
  // by frame: an unknown one, or a body and a frame at once
  const char* byframe = "<mujoco><asset><model name='arm' file='%s/arm.xml'/></asset>"
                        "<worldbody>\n<attach model='arm' %s prefix='y_'/></worldbody></mujoco>";
  snprintf(xml, sizeof(xml), byframe, dir, "frame='f'");
  loadFails(xml, "t.xml:2: attach: unknown frame 'f' in model 'arm'");
  snprintf(xml, sizeof(xml), byframe, dir, "frame='f' body='b'");
  loadFails(xml, "t.xml:2: attach: attach takes a body or a frame, not both");
  // a <model> without a name is read for the name its file gives itself
  snprintf(xml, sizeof(xml), "<mujoco><asset>\n<model file='%s/none.xml'/></asset></mujoco>", dir);
  loadFails(xml, "t.xml:2: model: could not parse model file: ");
  // compiler conflict: error refuses a value both write differently; merge refuses it for a
  // value with no merge rule (gravity) and takes the minimum timestep
  char opt[256];
  snprintf(opt, sizeof(opt), "%s/opt.xml", dir);
  f = fopen(opt, "w");
  fputs("<mujoco><option timestep='0.001' gravity='0 0 -1'/><worldbody>"
        "<body name='b'><geom size='1'/></body></worldbody></mujoco>", f);
  fclose(f);
  const char* clash = "<mujoco><compiler conflict='%s'/><option %s/><asset><model name='o' "
                      "file='%s/opt.xml'/></asset><worldbody>\n<attach model='o' body='b' "
                      "prefix='o_'/></worldbody></mujoco>";
  snprintf(xml, sizeof(xml), clash, "error", "timestep='0.004'", dir);
  loadFails(xml, "t.xml:2: attach: attach conflict (policy 'error'): timestep: parent has "
                 "0.004, child has 0.001");
  snprintf(xml, sizeof(xml), clash, "merge", "gravity='0 0 -2'", dir);
  loadFails(xml, "t.xml:2: attach: attach conflict (policy 'merge'): gravity: parent has 0");
  snprintf(xml, sizeof(xml), clash, "merge", "timestep='0.004'", dir);
  mjModel* merged = load(xml);
  cr_assert_eq(merged->opt.timestep, 0.001);
  cr_assert_eq(merged->opt.gravity[2], -1);  // written by the child alone: adopted
  mj_deleteModel(merged);
  remove(opt);
  snprintf(xml, sizeof(xml), scene, dir, "arm.xml", "arm", "b", "y_");
  mjModel* m = load(xml);
  cr_assert_eq(m->nbody, 3);
  cr_assert_str_eq(m->names + m->name_bodyadr[2], "y_b");
  mj_deleteModel(m);
  remove(path);
  rmdir(dir);
}

Test(compile, include_files_and_cycles) {
  char dir[] = "/tmp/mjcompileXXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char path[256];
  // main.xml includes sub/part.xml, which includes leaf.xml next to it
  snprintf(path, sizeof(path), "%s/sub", dir);
  cr_assert_eq(mkdir(path, 0700), 0);
  const char* files[3][2] = {
    {"main.xml", "<mujoco><worldbody><include file='sub/part.xml'/></worldbody></mujoco>"},
    {"sub/part.xml", "<mujoco><geom name='p' size='1'/><include file='leaf.xml'/></mujoco>"},
    {"sub/leaf.xml", "<mujoco>\n<geom name='q' size='2'/></mujoco>"}};
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof(path), "%s/%s", dir, files[i][0]);
    FILE* f = fopen(path, "w");
    fputs(files[i][1], f);
    fclose(f);
  }
  snprintf(path, sizeof(path), "%s/main.xml", dir);
  mjModel* m = mj_loadXML(path, err, sizeof(err));
  cr_assert_not_null(m, "%s", err);
  cr_assert_eq(m->ngeom, 2);
  cr_assert_float_eq(m->geom_size[3], 2, 0);
  mj_deleteModel(m);
  // a leaf that includes the part: a cycle
  snprintf(path, sizeof(path), "%s/sub/leaf.xml", dir);
  FILE* f = fopen(path, "w");
  fputs("<mujoco>\n<include file='part.xml'/></mujoco>", f);
  fclose(f);
  snprintf(path, sizeof(path), "%s/main.xml", dir);
  cr_assert_null(mj_loadXML(path, err, sizeof(err)));
  cr_assert(strstr(err, "leaf.xml:2: include: include cycle"), "%s", err);
  // clean up
  const char* rm[] = {"sub/leaf.xml", "sub/part.xml", "main.xml"};
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof(path), "%s/%s", dir, rm[i]);
    unlink(path);
  }
  snprintf(path, sizeof(path), "%s/sub", dir);
  rmdir(path);
  rmdir(dir);
}

// every contact fits its rows: 150 condim-6 boxes resting on a plane make 600 contacts of
// 10 pyramidal rows, within <size nconmax> and the njmax derived from it
Test(compile, njmax_covers_the_largest_condim) {
  char* xml = malloc(30000);
  int n = sprintf(xml, "<mujoco><size nconmax='600'/><worldbody>"
                       "<geom type='plane' size='40 40 .1'/>");
  for (int i = 0; i < 150; i++)
    n += sprintf(xml + n, "<body pos='%g %g 0.099'><freejoint/>"
                          "<geom type='box' size='.1 .1 .1' condim='6'/></body>",
                 (i % 15) * 0.3, (i / 15) * 0.3);
  sprintf(xml + n, "</worldbody></mujoco>");
  mjModel* m = load(xml);
  free(xml);
  cr_assert_geq(m->njmax, 10 * 600);
  mjData* d = mj_makeData(m);
  cr_assert_not_null(d);
  mj_forward(m, d);
  cr_expect_eq(d->ncon, 600);
  cr_expect_eq(d->nefc, 6000);
  cr_expect_eq(d->warning[mjWARN_CONTACTFULL].number, 0);
  cr_expect_eq(d->warning[mjWARN_CNSTRFULL].number, 0);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// sizes that would make the data exceed 1.5 GiB are refused before allocating (found by
// fuzzing the .mjb loader: t/fuzz/regress/mjb/); below the limit the model compiles, MuJoCo's
// common memory="1G" included
Test(compile, absurd_sizes_refused) {
  loadFails("<mujoco><size njmax='100000000'/></mujoco>",
            "model too large: its data would need");
  loadFails("<mujoco><size memory='2G'/></mujoco>", "attribute 'memory': 2G is too large");
  loadFails("<mujoco><size memory='1600M'/></mujoco>", "model too large: its data would need");
  loadFails("<mujoco><size nconmax='10000000'/></mujoco>", "model too large");
  // nested replicates multiply: 10^10 bodies are refused at the inner one's first copy
  loadFails("<mujoco><worldbody><replicate count='100000' offset='1 0 0'>\n"
            "<replicate count='100000' offset='0 1 0'><body><geom size='1'/></body>"
            "</replicate></replicate></worldbody></mujoco>",
            "t.xml:2: replicate: more than 1048576 elements copied in all (count 100000)");
  // an endless include stops at 64 MB
  loadFails("<mujoco>\n<include file='/dev/zero'/></mujoco>",
            "t.xml:2: include: file '/dev/zero' is larger than 67108864 bytes");
  mjModel* m = load("<mujoco><size memory='1G'/></mujoco>");
  mjData* d = mj_makeData(m);
  cr_assert_not_null(d);
  mj_deleteData(d);
  // the same limit in mj_validateModel (a loaded file) and mj_makeData
  m->nstack = 1 << 28;
  cr_assert_neq(mj_validateModel(m, err, sizeof(err)), 0);
  cr_assert(strstr(err, "exceeds the 1611 MB limit"), "%s", err);
  cr_assert_null(mj_makeData(m));
  mj_deleteModel(m);
}

// user numbers (MuJoCo 3.14, oracle): each kind's size is its longest list, an element's list
// replaces its class's, shorter ones are zero-padded; an explicit nuser_* refuses longer lists
Test(compile, user_numbers) {
  mjModel* m = load("<mujoco><default><joint user='1 2 3'/><default class='c'>"
                    "<joint user='7'/><motor user='4 5'/></default></default><worldbody>"
                    "<body name='b' user='1 2'><joint name='j'/><joint class='c'/><geom size='1'/>"
                    "</body></worldbody><actuator><position joint='j' class='c'/>"
                    "<motor joint='j'/></actuator></mujoco>");
  cr_assert_eq(m->nuser_body, 2);
  cr_assert_eq(m->nuser_jnt, 3);
  cr_assert_eq(m->nuser_geom, 0);
  cr_assert_eq(m->nuser_actuator, 2);
  static const double body[4] = {0, 0, 1, 2}, jnt[6] = {1, 2, 3, 7, 0, 0}, act[4] = {4, 5, 0, 0};
  for (int k = 0; k < 4; k++) cr_assert_eq(m->body_user[k], body[k], "body_user[%d]", k);
  for (int k = 0; k < 6; k++) cr_assert_eq(m->jnt_user[k], jnt[k], "jnt_user[%d]", k);
  for (int k = 0; k < 4; k++) cr_assert_eq(m->actuator_user[k], act[k], "actuator_user[%d]", k);
  mj_deleteModel(m);
  m = load("<mujoco><size nuser_geom='3'/><worldbody><geom size='1' user='1 2'/></worldbody>"
           "</mujoco>");
  cr_assert_eq(m->nuser_geom, 3);
  cr_assert_eq(m->geom_user[1], 2);
  cr_assert_eq(m->geom_user[2], 0);
  mj_deleteModel(m);
  loadFails("<mujoco><size nuser_geom='1'/><worldbody>\n<geom size='1' user='1 2'/>"
            "</worldbody></mujoco>", "t.xml:2: geom: user has 2 numbers, more than nuser_geom (1)");
  loadFails("<mujoco><size nuser_site='-2'/></mujoco>", "nuser_site must be >= -1");
}

// the user sensor: dim required, real data needed at acc unless given, an optional object of
// any named kind (custom entries counted per kind; unknown type words attach it to none)
Test(compile, user_sensor) {
  mjModel* m = load("<mujoco><custom><numeric name='n0' data='1'/><tuple name='t'>"
                    "<element objtype='body' objname='world' prm='1'/></tuple>"
                    "<numeric name='n1' data='2'/></custom><worldbody><body name='b'>"
                    "<geom size='1'/></body></worldbody><sensor>"
                    "<user name='u' dim='2' user='1 2 3' cutoff='1'/>"
                    "<user dim='4' needstage='vel' datatype='quaternion' objtype='body' "
                    "objname='b' noise='0.5'/>"
                    "<user dim='1' objtype='numeric' objname='n1'/>"
                    "<user dim='1' objtype='sensor' objname='u'/>"
                    "<user dim='0' objtype='frame' objname='b'/></sensor></mujoco>");
  cr_assert_eq(m->nsensordata, 8);
  cr_assert_eq(m->nuser_sensor, 3);
  for (int s = 0; s < 5; s++) cr_assert_eq(m->sensor_type[s], mjSENS_USER);
  cr_assert_eq(m->sensor_needstage[0], mjSTAGE_ACC);
  cr_assert_eq(m->sensor_datatype[0], mjDATATYPE_REAL);
  cr_assert_eq(m->sensor_objtype[0], mjOBJ_UNKNOWN);
  cr_assert_eq(m->sensor_objid[0], -1);
  cr_assert_eq(m->sensor_needstage[1], mjSTAGE_VEL);
  cr_assert_eq(m->sensor_datatype[1], mjDATATYPE_QUATERNION);
  cr_assert_eq(m->sensor_objtype[1], mjOBJ_BODY);
  cr_assert_eq(m->sensor_objid[1], 1);
  cr_assert_eq(m->sensor_cutoff[0], 1);
  cr_assert_eq(m->sensor_noise[1], 0.5);
  cr_assert_eq(m->sensor_objtype[2], mjOBJ_NUMERIC);
  cr_assert_eq(m->sensor_objid[2], 1);
  cr_assert_eq(m->sensor_objtype[3], mjOBJ_SENSOR);
  cr_assert_eq(m->sensor_objid[3], 0);
  cr_assert_eq(m->sensor_objtype[4], mjOBJ_UNKNOWN);
  cr_assert_eq(m->sensor_objid[4], -1);
  cr_assert_eq(m->sensor_user[2], 3);
  cr_assert_eq(m->sensor_user[3], 0);
  mj_deleteModel(m);
  static const char* const bad[][2] = {
    {"<user/>", "attribute 'dim' is required"},
    {"<user dim='-1'/>", "dim cannot be negative"},
    {"<user dim='2' datatype='axis'/>", "datatype axis requires dim 3"},
    {"<user dim='1' objtype='body'/>", "objtype and objname go together"},
    {"<user dim='1' objtype='body' objname='nobody'/>", "body 'nobody' in attribute 'objname'"},
    {"<user dim='1' needstage='later'/>", "invalid keyword 'later'"},
    // any sensor (MuJoCo 3.14): a cutoff clamps real and positive data only
    {"<user dim='4' datatype='quaternion' cutoff='1'/>", "cutoff applied to axis or quat"},
    {"<framequat objtype='body' objname='world' cutoff='2'/>", "cutoff applied to axis or quat"},
  };
  // but on the collision sensors, where it bounds the distance searched
  mjModel* n = load("<mujoco><worldbody><geom name='a' size='1'/><geom name='b' size='1'/>"
                    "</worldbody><sensor><normal geom1='a' geom2='b' cutoff='2'/></sensor>"
                    "</mujoco>");
  cr_assert_eq(n->sensor_datatype[0], mjDATATYPE_AXIS);
  mj_deleteModel(n);
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    char xml[300];
    snprintf(xml, sizeof(xml), "<mujoco><sensor>%s</sensor></mujoco>", bad[i][0]);
    loadFails(xml, bad[i][1]);
  }
}

Test(compile, moving_body_mass) {
  // MuJoCo 3.14 (oracle): a moving body needs one body, itself or a welded descendant, with
  // mass and each principal inertia >= mjMINVAL; a sum over several does not count
  static const char* const bad[] = {
      "<body><joint/><inertial pos='0 0 0' mass='1' diaginertia='1 1 0'/></body>",
      "<body><joint/><inertial pos='0 0 0' mass='0' diaginertia='1 1 1'/>"
      "<body><inertial pos='0 0 0' mass='6e-16' diaginertia='1 1 1'/></body>"
      "<body><inertial pos='0 0 0' mass='6e-16' diaginertia='1 1 1'/></body></body>"};
  char xml[512];
  for (int i = 0; i < 2; i++) {
    snprintf(xml, sizeof(xml), "<mujoco><worldbody>%s</worldbody></mujoco>", bad[i]);
    loadFails(xml, "mass and inertia of moving bodies must be larger than mjMINVAL");
  }
  // a static grandchild carries it
  mj_deleteModel(load("<mujoco><worldbody><body><joint/>"
                      "<inertial pos='0 0 0' mass='0' diaginertia='1 1 1'/><body><body>"
                      "<inertial pos='0 0 0' mass='1' diaginertia='1 1 1'/></body></body></body>"
                      "</worldbody></mujoco>"));
}
