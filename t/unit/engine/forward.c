// t/unit/engine/forward.c: the simulation pipeline (lib/engine/forward.c, passive.c, integrate.c,
// sensor.c and the velocity stage of smooth.c) against MuJoCo 3.5.1 and against independent
// computations.
//
// Oracle numbers: MuJoCo 3.5.1 (npm `mujoco`) on the XML of MODEL below, state set by setState()
// (qpos, qvel, act, ctrl, qfrc_applied[1] = 0.3, xfrc_applied of body 5 = (0,0,1.5,-0.2,0,0)):
// mj_forward outputs, and qpos/qvel/act after 200 mj_step with each integrator; implicitfast's
// from MuJoCo 3.14.0 (npm `@mujoco/mujoco`), which solves the standalone free box with its
// gyroscopic derivative (3.11); the others are the same in both.
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mj.h"
#include "engine/forward.h"
#include "engine/smooth.h"

static const char* MODEL =
  "<mujoco><option timestep='0.002' density='1.2' viscosity='0.02' wind='0.3 0 0'>"
  "<flag contact='disable'/></option><worldbody><body pos='0 0 1' gravcomp='0.3'>"
  "<joint name='a' axis='0 1 0' damping='0.1'/>"
  "<geom type='capsule' fromto='0 0 0 0.3 0 -0.5' size='0.05'/>"
  "<site name='s0' pos='0.1 0 -0.1'/><body name='b2' pos='0.3 0 -0.5'>"
  "<joint name='b' axis='1 0 0' stiffness='2' springref='0.3'/>"
  "<geom type='box' size='0.1 0.05 0.2' pos='0 0.1 -0.2'/>"
  "<site name='s1' pos='0 0.1 -0.3'/><body pos='0 0 -0.4'>"
  "<joint name='c' type='slide' axis='0 0.6 0.8' damping='0.5'/>"
  "<geom type='sphere' size='0.1'/><body pos='0 0 -0.2'>"
  "<joint name='d' type='ball' damping='0.05' stiffness='0.3'/>"
  "<geom type='capsule' fromto='0 0 0 0.1 0.2 -0.3' size='0.04'/></body></body></body>"
  "</body><body pos='1 0 1'><freejoint/><geom type='box' size='0.2 0.1 0.05'/>"
  "<site name='s2' pos='0.2 0 0'/></body></worldbody><tendon>"
  "<fixed name='t0' stiffness='3' damping='0.2' springlength='0.1 0.3'>"
  "<joint joint='a' coef='1'/><joint joint='c' coef='-0.5'/></fixed>"
  "<spatial name='t1' damping='0.3' stiffness='1' springlength='0.4'><site site='s0'/>"
  "<site site='s1'/></spatial></tendon><actuator>"
  "<motor name='m0' joint='a' gear='2' ctrlrange='-1 1'/>"
  "<position name='m1' joint='b' kp='10' kv='1'/>"
  "<velocity name='m2' joint='c' kv='3' forcerange='-0.5 0.5'/>"
  "<general name='m3' tendon='t0' dyntype='filterexact' dynprm='0.03' gainprm='1.5'/>"
  "<general name='m4' tendon='t1' dyntype='integrator' gainprm='0.7' actrange='-1 1' "
  "actearly='true'/>"
  "<muscle name='m5' tendon='t1' ctrlrange='0 1' lengthrange='0.2 0.6'/></actuator><sensor>"
  "<jointpos joint='b'/><tendonvel tendon='t0'/><actuatorfrc actuator='m5'/>"
  "<framequat objtype='site' objname='s1' reftype='body' refname='b2'/>"
  "<framelinvel objtype='site' objname='s1' reftype='site' refname='s2'/>"
  "<subtreeangmom body='b2'/><accelerometer site='s1'/><gyro site='s2'/><torque site='s1'/>"
  "<ballangvel joint='d'/><jointactuatorfrc joint='b'/><jointpos joint='a' cutoff='0.05'/>"
  "</sensor></mujoco>";

static const mjtNum QPOS[14] = {0.3, -0.2, 0.1, 0.9, 0.1, -0.3, 0.2,
                                1.1, 0.1, 0.95, 0.6, 0.2, -0.3, 0.1};
static const mjtNum QVEL[12] = {0.5, -1, 0.3, 0.2, -0.4, 0.6, 0.1, 0.2, -0.3, 1.5, -0.5, 0.8};
static const mjtNum ACT[3] = {0.2, -0.1, 0.6};
static const mjtNum CTRL[6] = {0.7, 0.4, -0.2, 0.3, 0.5, 0.8};

static const mjtNum OR_QFRC_BIAS[] = {
  -12.611770066692396, 7.124550795525268, 42.09326111331528, 2.2282144243464286,
  -2.0819042268096846, -0.6453776005048265, -3.0531133177191805e-16, 4.440892098500626e-16,
  78.48000000000002, -0.007999999999999965, -0.11999999999999994, -0.05999999999999994};
static const mjtNum OR_QFRC_PASSIVE[] = {
  -1.276113444919696, 0.4337442280012394, -0.09368258103877775, -0.07530207906920473,
  0.20383439614125815, -0.16122295362336136, 0.009413716390051414, -0.00974970103005142,
  0.014675746425077126, -0.0012259833668681083, 0.00042319237228936993, -0.0006711977956629918};
static const mjtNum OR_ACTUATOR_FORCE[] = {
  0.7, 7, -0.5, 0.30000000000000004, -0.0693, -1501.3735522166016};
static const mjtNum OR_ACT_DOT[] = {
  3.3333333333333326, 0.5, 14.285714285714292};
static const mjtNum OR_QACC[] = {
  0.2728367903048681, 45.3560100451038, -18.59944456064023, -24.478798540457916,
  84.88463006964291, -92.01623611879364, 0.0011767145487564647, -0.0012187126287564827,
  -9.620665531696865, -3.3967795010060415, 1.9096164032849046, 1.4049660165325264};
static const mjtNum OR_SENSORDATA[] = {
  -0.2, 0.35, -1501.3735522166016, 1, 0, 1.3010426069826053e-18, 0, 0.1556155062802128,
  1.4445040923007662, 1.1705938645523628, -0.2773926366877893, 0.26402143095095437,
  0.07433803627091246, -3.2345173771153797, 11.62074135433314, 14.139835274240514,
  1.4999999999999987, -0.4999999999999998, 0.7999999999999996, 4.96095648794669,
  -2.771354024754373, -0.5234880873743375, 0.2, -0.4, 0.6, 38.070433846063075, 0.05};

// qpos, qvel, act after 200 steps of Euler, RK4, implicit, implicitfast
static const mjtNum OR_TRAJ[4][3][14] = {
  {{0.3386992388657124, 1.1221051646780642, -1.5368190454963961, -0.4945582591521323,
    -0.3355027993077137, -0.6720391391772178, -0.43727953916807616, 1.1401060197853454,
    0.17979024309055538, 0.0574375330909436, 0.7272756773961994, 0.33847244723844017,
    -0.4648405923713027, 0.37473952982333736},
   {-0.14069463071876034, 1.8476371416682589, -6.873183321936881, -7.252126663438388,
    -4.649815187427136, -3.928880488169577, 0.10059814884401853, 0.19858806902787438,
    -4.1405603481417605, 0.42982251548909445, 0.30985593835415254, 1.1557466101346536},
   {0.29999983804032077, 0.10000000000000016, 0.7999999999978021}},
  {{0.3374817075454626, 1.118123110016464, -1.523220334208681, -0.4887404517651024,
    -0.3313614450758746, -0.6772079972168451, -0.4390007881897498, 1.1401058982699273,
    0.17979107124733673, 0.06128561200667165, 0.7269120189254588, 0.3391970793967249,
    -0.46493636169546015, 0.37467110596339565},
   {-0.14736822411848868, 1.8634903161925516, -6.856852359173484, -7.305811393346759,
    -4.7126692794929115, -3.9909424016045723, 0.1006027106717857, 0.19858649850424975,
    -4.1405164102416006, 0.4313614002291985, 0.31017850780182804, 1.1546785234719974},
   {0.2999997462387197, 0.10000000000000013, 0.7999999999898676}},
  {{0.3354963260418904, 1.1210125335264007, -1.5276347213912516, -0.4893143205450651,
    -0.3181003834662182, -0.6817051209748267, -0.44120490680052743, 1.1401060590976257,
    0.17978816281460946, 0.05745300094140285, 0.7272860902112369, 0.3385195833804382,
    -0.46493265576279247, 0.374562491793485},
   {-0.15100756107411975, 1.875868947143668, -6.846995244622978, -7.2572037731353545,
    -4.769221853309269, -4.077249203247345, 0.1005996534715046, 0.19857618101875518,
    -4.140469965891388, 0.4290617388611717, 0.30824886888140834, 1.1548419132776178},
   {0.29999983804032077, 0.10000000000000016, 0.7999999999978021}},
  {{0.33884632805686526, 1.1228987457187045, -1.5357108696035595, -0.4972376688935795,
    -0.3350975507131597, -0.6701782329958804, -0.4374076681516224, 1.1401060590976257,
    0.1797881628146095, 0.0574530009414026, 0.7272860902112369, 0.3385195833804382,
    -0.46493265576279247, 0.3745624917934849},
   {-0.13944994601563732, 1.8554020008858652, -6.878993717944233, -7.292817716868961,
    -4.651682065745095, -3.9648776039236053, 0.1005996534715046, 0.19857618101875518,
    -4.140469965891389, 0.42906173886117166, 0.3082488688814084, 1.1548419132776175},
   {0.29999983804032077, 0.10000000000000016, 0.7999999999978021}}
};

static char err[1000];

// compile xml or fail
static mjModel* load(const char* xml) {
  mjModel* m = mj_parseXMLString(xml, "t.xml", "", err, sizeof(err));
  cr_assert_not_null(m, "compile failed: %s", err);
  return m;
}

// |a - b| <= tol * max(1, |b|) for n numbers
static void near(const char* what, const mjtNum* a, const mjtNum* b, int n, mjtNum tol) {
  for (int i = 0; i < n; i++)
    cr_assert(fabs(a[i] - b[i]) <= tol * fmax(1, fabs(b[i])), "%s[%d]: %.17g vs %.17g", what, i,
              a[i], b[i]);
}

// the oracle state of the header
static void setState(const mjModel* m, mjData* d) {
  memcpy(d->qpos, QPOS, sizeof(QPOS));
  memcpy(d->qvel, QVEL, sizeof(QVEL));
  memcpy(d->act, ACT, sizeof(ACT));
  memcpy(d->ctrl, CTRL, sizeof(CTRL));
  d->qfrc_applied[1] = 0.3;
  d->xfrc_applied[6 * 5 + 2] = 1.5;
  d->xfrc_applied[6 * 5 + 3] = -0.2;
  cr_assert_eq(m->nq, 14);
  cr_assert_eq(m->nsensordata, 27);
}

// every mj_forward output against the oracle, to 1e-10
Test(forward, oracle_forward) {
  mjModel* m = load(MODEL);
  mjData* d = mj_makeData(m);
  setState(m, d);
  mj_forward(m, d);
  near("qfrc_bias", d->qfrc_bias, OR_QFRC_BIAS, m->nv, 1e-10);
  near("qfrc_passive", d->qfrc_passive, OR_QFRC_PASSIVE, m->nv, 1e-10);
  near("actuator_force", d->actuator_force, OR_ACTUATOR_FORCE, m->nu, 1e-10);
  near("act_dot", d->act_dot, OR_ACT_DOT, m->na, 1e-10);
  near("qacc", d->qacc, OR_QACC, m->nv, 1e-10);
  near("sensordata", d->sensordata, OR_SENSORDATA, m->nsensordata, 1e-10);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// 200 steps of each integrator against the oracle, to 1e-9
Test(forward, oracle_trajectories) {
  mjModel* m = load(MODEL);
  for (int integ = 0; integ < 4; integ++) {
    m->opt.integrator = integ;
    mjData* d = mj_makeData(m);
    setState(m, d);
    for (int k = 0; k < 200; k++) mj_step(m, d);
    near("qpos", d->qpos, OR_TRAJ[integ][0], m->nq, 1e-9);
    near("qvel", d->qvel, OR_TRAJ[integ][1], m->nv, 1e-9);
    near("act", d->act, OR_TRAJ[integ][2], m->na, 1e-9);
    cr_assert_float_eq(d->time, 0.4, 1e-12);
    mj_deleteData(d);
  }
  mj_deleteModel(m);
}

// mj_step1 + mj_step2 is mj_step (Euler)
Test(forward, step_split) {
  mjModel* m = load(MODEL);
  mjData* a = mj_makeData(m);
  mjData* b = mj_makeData(m);
  setState(m, a);
  setState(m, b);
  for (int k = 0; k < 20; k++) {
    mj_step(m, a);
    mj_step1(m, b);
    mj_step2(m, b);
  }
  near("qpos", b->qpos, a->qpos, m->nq, 0);
  near("qvel", b->qvel, a->qvel, m->nv, 0);
  mj_deleteData(a);
  mj_deleteData(b);
  mj_deleteModel(m);
}

// mj_stepNoSensor gives mj_step's states bit for bit under every integrator (the model has
// force, acceleration and subtree sensors, whose passes write other fields) and leaves
// sensordata as it was
Test(forward, step_without_sensors) {
  mjModel* m = load(MODEL);
  mjData* a = mj_makeData(m);
  mjData* b = mj_makeData(m);
  for (int integrator = 0; integrator < 4; integrator++) {
    m->opt.integrator = integrator;
    setState(m, a);
    setState(m, b);
    for (int i = 0; i < m->nsensordata; i++) b->sensordata[i] = 1000 + i;
    for (int k = 0; k < 30; k++) {
      mj_step(m, a);
      mj_stepNoSensor(m, b);
    }
    cr_assert(!memcmp(a->qpos, b->qpos, sizeof(mjtNum) * m->nq), "qpos, integrator %d", integrator);
    cr_assert(!memcmp(a->qvel, b->qvel, sizeof(mjtNum) * m->nv), "qvel, integrator %d", integrator);
    cr_assert(!memcmp(a->act, b->act, sizeof(mjtNum) * m->na), "act, integrator %d", integrator);
    for (int i = 0; i < m->nsensordata; i++) cr_assert_eq(b->sensordata[i], 1000 + i);
  }
  mj_deleteData(a);
  mj_deleteData(b);
  mj_deleteModel(m);
}

// user sensors are zeros (MuJoCo fills them only through mjcb_sensor) and are simulated; one
// at the vel stage has the subtree velocities computed, one at acc mj_rnePostConstraint, as in
// MuJoCo 3.14 (oracle: cacc of the body and its subtree linear velocity after mj_forward)
Test(forward, user_sensors) {
  mjModel* m = load("<mujoco><worldbody><body pos='0 0 1'><joint axis='1 0 0'/>"
                    "<geom size='0.1' pos='0 0.2 0'/></body></worldbody><sensor>"
                    "<user dim='2' cutoff='1'/><user dim='1' needstage='vel'/></sensor>"
                    "</mujoco>");
  cr_assert_eq(mj_checkSupported(m, err, sizeof(err)), 0, "%s", err);
  mjData* d = mj_makeData(m);
  for (int i = 0; i < m->nsensordata; i++) d->sensordata[i] = 7;
  d->qvel[0] = 1;
  mj_forward(m, d);
  for (int i = 0; i < m->nsensordata; i++) cr_assert_eq(d->sensordata[i], 0, "sensordata[%d]", i);
  static const mjtNum cacc[6] = {-44.59090909090909, 0, 0, 0, 0, 0.8918181818181807};
  static const mjtNum linvel[3] = {0, 0, 0.2};
  near("cacc", d->cacc + 6, cacc, 6, 1e-12);
  near("subtree_linvel", d->subtree_linvel + 3, linvel, 3, 1e-12);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// a torso on two legs falling onto a plane, with an applied force on a leg and on the arm:
// sensors at the torso, on one leg (force, torque, overlapping touch sites) and on the arm
static const char* LEGGED =
  "<mujoco><option timestep='0.005'/><worldbody><geom type='plane' size='5 5 0.1'/>"
  "<body name='torso' pos='0 0 0.7' euler='0 20 10'><freejoint/>"
  "<geom type='box' size='0.15 0.1 0.1'/><site name='root' size='0.01'/>"
  "<site name='back' type='box' size='0.16 0.11 0.11'/>"
  "<body name='arm' pos='0.2 0 0.05'><joint axis='0 1 0' range='-1 1'/>"
  "<geom name='hand' type='capsule' fromto='0 0 0 0.2 0 -0.2' size='0.04'/>"
  "<site name='fist' type='ellipsoid' pos='0.2 0 -0.2' size='0.08 0.06 0.07'/></body>"
  "<body name='thigh' pos='0 0.06 -0.1'><joint axis='0 1 0' range='-1 1'/>"
  "<geom type='capsule' fromto='0 0 0 0 0 -0.25' size='0.04'/><site name='hip' size='0.01'/>"
  "<body name='shin' pos='0 0 -0.25'><joint axis='0 1 0' range='-2 0'/>"
  "<geom type='capsule' fromto='0 0 0 0 0 -0.25' size='0.035'/><site name='knee' size='0.01'/>"
  "<site name='calf' type='capsule' fromto='0 0 0 0 0 -0.25' size='0.05'/>"
  "<body name='foot' pos='0 0 -0.28'><joint axis='1 0 0' range='-0.5 0.5'/>"
  "<geom type='box' size='0.08 0.05 0.02'/>"
  "<site name='heel' type='box' pos='-0.04 0 0' size='0.045 0.06 0.03'/>"
  "<site name='toe' type='cylinder' pos='0.04 0 0' size='0.06 0.03'/>"
  "<site name='sole' type='sphere' size='0.1'/></body></body></body>"
  "<body name='thigh2' pos='0 -0.06 -0.1'><joint axis='0 1 0' range='-1 1'/>"
  "<geom type='capsule' fromto='0 0 0 0 0 -0.5' size='0.04'/></body></body></worldbody>"
  "<sensor><accelerometer site='root'/><force site='hip'/><torque site='knee'/>"
  "<touch site='heel'/><touch site='toe'/><touch site='sole'/><touch site='calf'/>"
  "<touch site='back'/><touch site='fist'/><subtreelinvel body='torso'/><velocimeter site='root'/>"
  "<framelinacc objtype='geom' objname='hand'/><frameangacc objtype='body' objname='foot'/>"
  "<force site='knee' cutoff='20'/></sensor></mujoco>";

// the sensor passes (mj_rnePostPart over the bodies the sensors read, the touch sensors in one
// pass over the contacts, subtree_linvel alone) give, bit for bit, what each sensor computes
// after the whole mj_rnePostConstraint (mj_computeSensor: each touch sensor scanning the
// contacts), along a fall with contacts on the legs, the torso and the arm; the bodies read have
// the whole pass's cacc and cfrc_int bits, the others (thigh2) zeros
Test(forward, sensor_passes_bitwise) {
  mjModel* m = load(LEGGED);
  mjData* d = mj_makeData(m);
  int thigh = mj_name2id(m, mjOBJ_BODY, "thigh");
  int shin = mj_name2id(m, mjOBJ_BODY, "shin"), foot = mj_name2id(m, mjOBJ_BODY, "foot");
  int thigh2 = mj_name2id(m, mjOBJ_BODY, "thigh2"), nb = m->nbody;
  d->xfrc_applied[6 * thigh + 0] = 3, d->xfrc_applied[6 * thigh + 4] = 0.5;
  d->xfrc_applied[6 * mj_name2id(m, mjOBJ_BODY, "arm") + 2] = 2;
  mjtNum* ref = malloc(sizeof(mjtNum) * m->nsensordata);
  mjtNum *cacc = malloc(sizeof(mjtNum) * 12 * nb), *cfrc = cacc + 6 * nb;
  int touched = 0, ncontact = 0;
  for (int k = 0; k < 400; k++) {
    mj_forward(m, d);
    memcpy(cacc, d->cacc, sizeof(mjtNum) * 6 * nb);
    memcpy(cfrc, d->cfrc_int, sizeof(mjtNum) * 6 * nb);
    mj_rnePostConstraint(m, d);
    for (int s = 0; s < m->nsensor; s++) mj_computeSensor(m, d, s, ref + m->sensor_adr[s]);
    cr_assert(!memcmp(ref, d->sensordata, sizeof(mjtNum) * m->nsensordata), "step %d", k);
    // cacc on the paths to the torso, the foot and the arm, cfrc_int over the thigh's subtree
    for (int b = 0; b < nb; b++) {
      int acc = b != thigh2, frc = b == thigh || b == shin || b == foot;
      for (int i = 0; i < 6; i++) {
        cr_assert_eq(cacc[6 * b + i], acc ? d->cacc[6 * b + i] : 0, "step %d cacc[%d]", k, b);
        cr_assert_eq(cfrc[6 * b + i], frc ? d->cfrc_int[6 * b + i] : 0, "step %d cfrc[%d]", k, b);
      }
    }
    for (int s = 0; s < m->nsensor; s++)
      touched += m->sensor_type[s] == mjSENS_TOUCH && d->sensordata[m->sensor_adr[s]] > 0;
    ncontact += d->ncon;
    mj_step(m, d);
  }
  // the fall has contacts and touches (the comparisons above are not of zeros alone)
  cr_assert_gt(ncontact, 400);
  cr_assert_gt(touched, 100);
  free(ref);
  free(cacc);
  mj_deleteData(d);
  mj_deleteModel(m);
}

static const char* CHAIN =
  "<mujoco><option><flag contact='disable'/></option><worldbody>"
  "<body pos='0 0 1'><joint type='ball'/><geom type='capsule' fromto='0 0 0 0.3 0.1 -0.5' "
  "size='0.05'/><body pos='0.3 0.1 -0.5'><joint axis='0 1 0'/><joint type='slide' axis='1 0 0'/>"
  "<geom type='box' size='0.1 0.05 0.2' pos='0 0.1 -0.2'/></body></body>"
  "<body pos='1 0 2'><freejoint/><geom type='box' size='0.3 0.1 0.05' pos='0.02 0.01 0'/></body>"
  "</worldbody></mujoco>";

// at zero velocity the bias force is gravity alone: qfrc_bias = -sum_b J_com(b)' m_b g
Test(forward, bias_is_gravity_at_rest) {
  mjModel* m = load(CHAIN);
  mjData* d = mj_makeData(m);
  for (int i = 0; i < m->nq; i++) d->qpos[i] += 0.1 * ((i % 3) - 1);
  mj_forward(m, d);
  int nv = m->nv;
  mjtNum want[32] = {0}, jacp[3 * 32];
  for (int b = 1; b < m->nbody; b++) {
    mj_jacBodyCom(m, d, jacp, NULL, b);
    for (int r = 0; r < 3; r++)
      for (int j = 0; j < nv; j++)
        want[j] -= jacp[r * nv + j] * m->body_mass[b] * m->opt.gravity[r];
  }
  near("qfrc_bias", d->qfrc_bias, want, nv, 1e-12);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// an undamped, unactuated chain of hinges and a slider conserves energy under RK4 (ball joints
// would not show it: RK4 averages their local angular velocities, which is not 4th order on
// the rotation group, in MuJoCo as here)
Test(forward, rk4_conserves_energy) {
  mjModel* m = load(
      "<mujoco><worldbody><body pos='0 0 1'><joint axis='1 0 0'/><joint axis='0 0 1'/>"
      "<geom type='capsule' fromto='0 0 0 0.3 0.1 -0.5' size='0.05'/>"
      "<body pos='0.3 0.1 -0.5'><joint axis='0 1 0'/>"
      "<joint type='slide' axis='1 0 0'/><geom type='box' size='0.1 0.05 0.2' pos='0 0.1 -0.2'/>"
      "</body></body></worldbody></mujoco>");
  m->opt.integrator = mjINT_RK4;
  m->opt.timestep = 0.001;
  m->opt.enableflags |= mjENBL_ENERGY;
  mjData* d = mj_makeData(m);
  for (int i = 0; i < m->nv; i++) d->qvel[i] = 0.5 * ((i % 4) - 1.5);
  mj_forward(m, d);
  mjtNum e0 = d->energy[0] + d->energy[1], ke = d->energy[1];
  for (int k = 0; k < 2000; k++) mj_step(m, d);
  mj_forward(m, d);
  mjtNum e1 = d->energy[0] + d->energy[1];
  cr_assert(fabs(e1 - e0) < 1e-9 * fabs(e0), "energy %.12g -> %.12g", e0, e1);
  cr_assert(fabs(d->energy[1] - ke) > 1e-3, "the chain must exchange energy");
  mj_deleteData(d);
  mj_deleteModel(m);
}

// implicit, implicitfast and Euler agree to O(h^2) per step as the timestep shrinks
Test(forward, implicit_matches_euler_small_h) {
  mjModel* m = load(MODEL);
  mjtNum qvel[4][12];
  for (int integ = 0; integ < 4; integ++) {
    m->opt.integrator = integ;
    m->opt.timestep = 1e-6;
    mjData* d = mj_makeData(m);
    setState(m, d);
    mj_step(m, d);
    memcpy(qvel[integ], d->qvel, sizeof(qvel[0]));
    mj_deleteData(d);
  }
  // per-step change ~ h qacc ~ 1e-4; integrators differ by ~ h^2 D qacc
  for (int integ = 1; integ < 4; integ++) near("qvel", qvel[integ], qvel[0], m->nv, 1e-8);
  mj_deleteModel(m);
}

// the muscle curves at MuJoCo 3.5.1's sample points: FL bump, FV, FP (prm as the defaults)
Test(forward, muscle_curves) {
  const mjtNum prm[9] = {0.75, 1.05, -1, 200, 0.5, 1.6, 1.5, 1.3, 1.2};
  const mjtNum lr[2] = {0.2, 1.2};
  // L = 0.75 + (len - 0.2) 0.3, F0 = 200 / 2, V = vel / (L0 vmax), L0 = 1/0.3, vmax = 1.5
  mjtNum l06 = 0.2 + (0.6 - 0.75) / 0.3, l12 = 0.2 + (1.2 - 0.75) / 0.3, l1 = 0.2 + 0.25 / 0.3;
  cr_assert_float_eq(mju_muscleGain(l06, 0, lr, 2, prm), -8, 1e-10);
  cr_assert_float_eq(mju_muscleGain(l12, 0, lr, 2, prm), -77.7777777777778, 1e-9);
  cr_assert_float_eq(mju_muscleBias(l12, lr, 2, prm), -28.8888888888889, 1e-9);
  cr_assert_float_eq(mju_muscleBias(0.2 + (1.35 - 0.75) / 0.3, lr, 2, prm), -86.6666666666667,
                     1e-9);
  cr_assert_float_eq(mju_muscleGain(l1, -0.5 * 5, lr, 2, prm), -25, 1e-9);
  cr_assert_float_eq(mju_muscleGain(l1, 0.1 * 5, lr, 2, prm), -115, 1e-9);
  cr_assert_float_eq(mju_muscleGain(l1, 0.3 * 5, lr, 2, prm), -120, 1e-9);
  // activation dynamics (oracle): 37.5, -17.5, 220
  const mjtNum dyn[3] = {0.01, 0.04, 0};
  cr_assert_float_eq(mju_muscleDynamics(0.5, 0.2, dyn), 37.5, 1e-10);
  cr_assert_float_eq(mju_muscleDynamics(0.1, 0.6, dyn), -17.5, 1e-10);
  cr_assert_float_eq(mju_muscleDynamics(1.3, -0.1, dyn), 220, 1e-10);
}

// a bad qpos resets the data and counts the warning once; without autoreset it counts twice
Test(forward, bad_state_resets) {
  mjModel* m = load(CHAIN);
  mjData* d = mj_makeData(m);
  d->time = 5;
  d->qpos[4] = NAN;
  mj_step(m, d);
  cr_assert_eq(d->warning[mjWARN_BADQPOS].number, 1);
  cr_assert_eq(d->warning[mjWARN_BADQPOS].lastinfo, 4);
  cr_assert_float_eq(d->time, m->opt.timestep, 1e-15);
  cr_assert(isfinite(d->qpos[4]));
  m->opt.disableflags |= mjDSBL_AUTORESET;
  d->qvel[1] = INFINITY;
  mj_step(m, d);
  cr_assert_eq(d->warning[mjWARN_BADQVEL].number, 2);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// polynomial springs and dampers as MuJoCo's own tests state them (engine_passive_test.cc):
// a slide of stiffness "10 5 1" at x = 2 pulls with -(10 + 5 x + x^2) x = -48 and at x = -2
// with 8 (the x^2 term keeps its sign); damping "2 3 4" at v = -0.5 gives
// -(2 v + 3 v |v| + 4 v^3) = 2.25; a fixed tendon of stiffness "10 5 1" on the slide, -48
Test(forward, poly_spring_damper) {
  mjModel* m = load(
      "<mujoco><worldbody><body><joint name='j' type='slide' stiffness='10 5 1' "
      "damping='2 3 4'/><geom size='1' mass='1'/></body></worldbody><tendon>"
      "<fixed stiffness='10 5 1' damping='0 1'><joint joint='j' coef='1'/></fixed></tendon>"
      "</mujoco>");
  mjData* d = mj_makeData(m);
  m->tendon_stiffness[0] = 0, m->tendon_stiffnesspoly[0] = m->tendon_stiffnesspoly[1] = 0;
  m->tendon_dampingpoly[0] = 0;
  const mjtNum x[2] = {2, -2}, want[2] = {-48, 8};
  for (int k = 0; k < 2; k++) {
    d->qpos[0] = x[k], d->qvel[0] = -0.5;
    mj_forward(m, d);
    cr_assert(fabs(d->qfrc_spring[0] - want[k]) < 1e-12, "spring %g", d->qfrc_spring[0]);
    cr_assert(fabs(d->qfrc_damper[0] - 2.25) < 1e-12, "damper %g", d->qfrc_damper[0]);
  }
  // the tendon alone: the joint's spring and damper off, the tendon's on
  m->jnt_stiffness[0] = 0, m->jnt_stiffnesspoly[0] = m->jnt_stiffnesspoly[1] = 0;
  m->dof_damping[0] = 0, m->dof_dampingpoly[0] = m->dof_dampingpoly[1] = 0;
  m->tendon_stiffness[0] = 10, m->tendon_stiffnesspoly[0] = 5, m->tendon_stiffnesspoly[1] = 1;
  m->tendon_dampingpoly[0] = 1;
  d->qpos[0] = 2, d->qvel[0] = -0.5;
  mj_forward(m, d);
  cr_assert(fabs(d->qfrc_spring[0] + 48) < 1e-12, "tendon spring %g", d->qfrc_spring[0]);
  cr_assert(fabs(d->qfrc_damper[0] - 0.25) < 1e-12, "tendon damper %g", d->qfrc_damper[0]);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// the potential energy of polynomial springs is their force's integral: an undamped hinge,
// slide and ball joint and a spatial tendon with polynomial stiffness conserve the total
// energy under RK4
Test(forward, poly_energy) {
  mjModel* m = load(
      "<mujoco><option timestep='0.0005' integrator='RK4'><flag energy='enable'/></option>"
      "<worldbody><site name='a' pos='0.3 0 1.2'/><body pos='0 0 1'>"
      "<joint axis='0 1 0' stiffness='2 -1 3' springref='0.2'/>"
      "<geom type='capsule' fromto='0 0 0 0 0 -0.5' size='0.05'/><site name='b' pos='0 0 -0.4'/>"
      "<body pos='0 0 -0.5'><joint type='slide' axis='1 0 0' stiffness='20 -5 40'/>"
      "<geom type='box' size='0.1 0.1 0.1'/></body></body><body pos='1 0 1'>"
      "<joint type='ball' stiffness='1 0.5 2'/><geom type='sphere' size='0.2' pos='0.2 0 0'/>"
      "</body></worldbody><tendon><spatial stiffness='5 3 10' springlength='0.2'>"
      "<site site='a'/><site site='b'/></spatial></tendon></mujoco>");
  mjData* d = mj_makeData(m);
  d->qpos[0] = 0.5, d->qpos[1] = -0.2;
  d->qpos[2] = 0.9, d->qpos[3] = 0.3, d->qpos[4] = 0.3, d->qpos[5] = 0.1;
  mj_forward(m, d);
  mjtNum e0 = d->energy[0] + d->energy[1];
  for (int k = 0; k < 2000; k++) mj_step(m, d);
  mj_forward(m, d);
  mjtNum e1 = d->energy[0] + d->energy[1];
  cr_assert(fabs(e1 - e0) < 1e-6 * fabs(e0), "energy %.12g -> %.12g", e0, e1);
  mj_deleteData(d);
  mj_deleteModel(m);
}
