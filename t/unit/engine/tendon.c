// t/unit/engine/tendon.c: tendon wrapping, transmissions, tendon armature and actuator force limits
// (lib/engine/tendon.c, lib/engine/setconst.c, lib/engine/forward.c) against MuJoCo 3.5.1 and
// against finite differences; mj_checkSupported (lib/engine/support.c).
//
// Oracle numbers: MuJoCo 3.5.1 (npm `mujoco`) on the XML of WRAP and TRN below: mj_forward at
// the states WRAP_QPOS (qvel 0) and TRN_QPOS, TRN_QVEL, TRN_CTRL; lengths, Jacobians, wrap
// points, moments (MuJoCo's sparse rows made dense), qM, qfrc_bias, actuator forces, and the
// compiled tendon_length0 and tendon_lengthspring.
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "mj.h"

// five spatial tendons: around a sphere the short way, the long way (side site below), inside
// (side site in the sphere), around a cylinder with a height change, and through a pulley;
// springref 30 degrees: the spring lengths are taken there
static const char* WRAP =
  "<mujoco><worldbody><site name='a' pos='-0.3 0 0.05'/><site name='d' pos='-0.25 0 0.12'/>"
  "<body name='b1'><joint name='h1' axis='0 1 0' springref='30'/>"
  "<geom name='ball' type='sphere' size='0.1' mass='1'/>"
  "<site name='side_out' pos='0 0 -0.2'/><site name='side_in' pos='-0.02 0 0'/>"
  "<site name='e' pos='-0.25 0 -0.12'/><body name='b2' pos='0.3 0 0'>"
  "<joint name='h2' axis='0 1 0'/><joint name='s2' type='slide' axis='0 0 1'/>"
  "<geom name='cyl' type='cylinder' fromto='0 -0.05 0 0 0.05 0' size='0.05' mass='0.5'/>"
  "<site name='b' pos='0.15 0 0.04'/><site name='c' pos='0.1 0.08 -0.06'/></body></body>"
  "</worldbody><tendon>"
  "<spatial name='plain'><site site='a'/><geom geom='ball'/><site site='b'/></spatial>"
  "<spatial name='longway'><site site='a'/><geom geom='ball' sidesite='side_out'/>"
  "<site site='b'/></spatial>"
  "<spatial name='inside'><site site='d'/><geom geom='ball' sidesite='side_in'/>"
  "<site site='e'/></spatial>"
  "<spatial name='helix'><site site='a'/><geom geom='cyl'/><site site='c'/></spatial>"
  "<spatial name='pulley'><site site='a'/><site site='b'/><pulley divisor='2'/>"
  "<site site='a'/><site site='c'/></spatial></tendon></mujoco>";

static const mjtNum WRAP_QPOS[3] = {0.3, -0.5, 0.02};

static const mjtNum OR_WLEN[] = {0.73783290078500796, 0.77083813124593703, 0.36810287107726558,
                                 0.72178656199082214, 1.0808431790622097};
static const mjtNum OR_WJ[] = {
  0.10000000000000001,  0.11812577002474466,  -0.42552680531675202, -0.10000000000000002,
  0.054060356691142841, 0.039288781165580544, -0.044168629275905015, 0, 0,
  -0.036364021961923579, -0.032114370630839439, -0.46399185248369390, 0.020192069134725373,
  0.10008085109829261,  -0.47054545184304508};
static const int OR_WNUM[] = {4, 4, 4, 4, 5};
static const int OR_WOBJ[] = {-1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 1, 1, -1, -1, -1, -2,
                              -1, -1};
static const mjtNum OR_WXPOS[] = {
  -0.29999999999999999, 0, 0.050000000000000003, -0.016906587441789116, 0, 0.098560475349265320,
  0.023725961931114842, 0, 0.097144627903159364, 0.42169077356616425, 0, -0.000051667708668198808,
  -0.29999999999999999, 0, 0.050000000000000003, -0.047958277423075762, 0, -0.087749664538454522,
  0.023702155906549695, 0, -0.097150439038542757, 0.42169077356616425, 0, -0.000051667708668198808,
  -0.25000000000000000, 0, 0.12000000000000000, -0.098877107793976252, 0, 0.014943813244898329,
  -0.098877107793976252, 0, 0.014943813244898329, -0.27429654708076223, 0, -0.040760327029737808,
  -0.29999999999999999, 0, 0.050000000000000003, 0.26853388679034662, 0.066084343556691544,
  -0.11702730981799610, 0.28775280604395687, 0.068250299945785978, -0.11879135531939936,
  0.39255437775360835, 0.079999999999999974, -0.10799179203254537, -0.29999999999999999, 0,
  0.050000000000000003, 0.42169077356616425, 0, -0.000051667708668198808, 0, 0, 0,
  -0.29999999999999999, 0, 0.050000000000000003, 0.39255437775360835, 0.079999999999999974,
  -0.10799179203254537};
static const mjtNum OR_LEN0[] = {0.75823834739799212, 0.80899925925440508, 0.38418745424597084,
                                 0.71330527918618813, 1.1066125934241084};
static const mjtNum OR_SPRING[] = {0.75663938169457512, 0.75663938169457512, 0.75663938169457512,
                                   0.75663938169457512, 0.35995583953082955, 0.35995583953082955,
                                   0.69104431792105192, 0.69104431792105192, 1.0948303448271028,
                                   1.0948303448271028};

// site transmissions without and with a reference site (translation, rotation), a
// slider-crank, and a spatial tendon with armature whose two motors' total force is limited;
// body l2 and site tip are rotated, which MuJoCo's site-quaternion order makes visible
static const char* TRN =
  "<mujoco><worldbody><site name='ref' pos='0.1 0.2 0.3' euler='10 20 30'/>"
  "<site name='anchor' pos='0 -0.3 0.2'/><body name='l1' pos='0 0 0.2'>"
  "<joint name='j1' axis='0 0 1'/><geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.02' "
  "mass='1'/><body name='l2' pos='0.3 0 0' euler='0 0 20'><joint name='j2' axis='0 1 0'/>"
  "<geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.02' mass='0.5'/>"
  "<site name='tip' pos='0.3 0 0' euler='5 10 15'/></body></body>"
  "<body name='crank' pos='-0.5 0 0'><joint name='jc' axis='0 1 0'/>"
  "<geom type='cylinder' fromto='0 -0.01 0 0 0.01 0' size='0.1' mass='0.5'/>"
  "<site name='pin' pos='0.08 0 0'/></body>"
  "<site name='slider' pos='-0.2 0 0' zaxis='-1 0 0.1'/></worldbody><tendon>"
  "<spatial name='cable' armature='0.3' actuatorfrclimited='true' actuatorfrcrange='-0.4 0.4'>"
  "<site site='anchor'/><site site='tip'/></spatial></tendon><actuator>"
  "<general name='wrench' site='tip' gear='0.2 0 0.5 0.05 0 0.1'/>"
  "<general name='cart' site='tip' refsite='ref' gear='0.3 -0.2 1 0 0 0'/>"
  "<general name='twist' site='tip' refsite='ref' gear='0 0 0 0.1 0.2 -0.3'/>"
  "<general name='crank' cranksite='pin' slidersite='slider' cranklength='0.35' gear='2'/>"
  "<motor name='pull1' tendon='cable'/><motor name='pull2' tendon='cable' gear='2'/>"
  "</actuator></mujoco>";

static const mjtNum TRN_QPOS[3] = {0.4, -0.7, 1.1};
static const mjtNum TRN_QVEL[3] = {0.5, -1.2, 0.3};
static const mjtNum TRN_CTRL[6] = {0, 0, 0, 0, 0.5, 0.3};

static const mjtNum OR_ALEN[] = {0, 0.29680228667555947, -0.30496838364873047,
                                 -0.16185580293086532, 0.75047480726188998, 1.5009496145237800};
static const mjtNum OR_MOMENT[] = {
  0.10848503539642196, -0.13344743377822599, 0, -0.25889102502547667, -0.10901615364506417, 0,
  -0.23435323087034965, 0.27468504457827181, 0, 0, 0, 0.15963739481677303,
  0.17762846120679851, 0.12520671462768274, 0, 0.35525692241359702, 0.25041342925536547, 0};
static const mjtNum OR_AFRC[] = {0, 0, 0, 0, 0.25000000000000000, 0.14999999999999999};
static const mjtNum OR_QFRC_ACT[] = {0.097695653663739182, 0.068863693045225494, 0};
static const mjtNum OR_QM[] = {0.12757900308548939, 0.020459547028602278, 0.011629629894366438,
                               0.0025000000000000005};
static const mjtNum OR_BIAS[] = {-0.050825583642835223, -0.57987118591350661, 0};

// ---- helpers ----------------------------------------------------------------------------------

// compile an XML string or fail the test
static mjModel* load(const char* xml) {
  char err[512] = "";
  mjModel* m = mj_parseXMLString(xml, "test.xml", "", err, sizeof(err));
  cr_assert(m, "compile: %s", err);
  return m;
}

// |a[i] - b[i]| <= tol for all i
static void expectNear(const char* what, const mjtNum* a, const mjtNum* b, int n, mjtNum tol) {
  for (int i = 0; i < n; i++)
    cr_expect(fabs(a[i] - b[i]) <= tol, "%s[%d]: %.17g, expected %.17g", what, i, a[i], b[i]);
}

// data at qpos (and qvel, ctrl when given) after mj_forward
static mjData* forwardAt(const mjModel* m, const mjtNum* qpos, const mjtNum* qvel,
                         const mjtNum* ctrl) {
  mjData* d = mj_makeData(m);
  memcpy(d->qpos, qpos, sizeof(mjtNum) * m->nq);
  if (qvel) memcpy(d->qvel, qvel, sizeof(mjtNum) * m->nv);
  if (ctrl) memcpy(d->ctrl, ctrl, sizeof(mjtNum) * m->nu);
  mj_forward(m, d);
  return d;
}

// central differences of n quantities got(m, d, out) with respect to each dof (hinge and
// slide joints only: qpos and qvel indices agree) into fd (n x nv)
static void centralDiff(const mjModel* m, const mjtNum* qpos, int n,
                        void (*got)(const mjModel*, mjData*, mjtNum*), mjtNum* fd) {
  const mjtNum eps = 1e-6;
  mjData* d = mj_makeData(m);
  mjtNum plus[16], minus[16];
  for (int j = 0; j < m->nv; j++) {
    memcpy(d->qpos, qpos, sizeof(mjtNum) * m->nq);
    d->qpos[j] += eps;
    mj_forward(m, d);
    got(m, d, plus);
    d->qpos[j] -= 2 * eps;
    mj_forward(m, d);
    got(m, d, minus);
    for (int i = 0; i < n; i++) fd[i * m->nv + j] = (plus[i] - minus[i]) / (2 * eps);
  }
  mj_deleteData(d);
}

static void tendonLengths(const mjModel* m, mjData* d, mjtNum* out) {
  memcpy(out, d->ten_length, sizeof(mjtNum) * m->ntendon);
}

static void actuatorLengths(const mjModel* m, mjData* d, mjtNum* out) {
  memcpy(out, d->actuator_length, sizeof(mjtNum) * m->nu);
}

// ---- wrapping ----------------------------------------------------------------------------------

Test(tendon, wrapping_matches_mujoco) {
  mjModel* m = load(WRAP);
  mjData* d = forwardAt(m, WRAP_QPOS, NULL, NULL);
  expectNear("ten_length", d->ten_length, OR_WLEN, 5, 1e-13);
  expectNear("ten_J", d->ten_J, OR_WJ, 15, 1e-13);
  int npoint = 0;
  for (int t = 0; t < 5; t++) {
    cr_expect_eq(d->ten_wrapnum[t], OR_WNUM[t], "ten_wrapnum[%d]", t);
    cr_expect_eq(d->ten_wrapadr[t], npoint, "ten_wrapadr[%d]", t);
    npoint += d->ten_wrapnum[t];
  }
  cr_assert_eq(npoint, 21);
  for (int k = 0; k < npoint; k++) cr_expect_eq(d->wrap_obj[k], OR_WOBJ[k], "wrap_obj[%d]", k);
  expectNear("wrap_xpos", d->wrap_xpos, OR_WXPOS, 3 * npoint, 1e-14);
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(tendon, lengths_at_qpos0_and_qpos_spring) {
  mjModel* m = load(WRAP);
  expectNear("tendon_length0", m->tendon_length0, OR_LEN0, 5, 1e-13);
  expectNear("tendon_lengthspring", m->tendon_lengthspring, OR_SPRING, 10, 1e-13);
  mj_deleteModel(m);
}

// the wrap points lie on the geoms: tangent points of the sphere at distance r from its
// center, the inside-wrap point too, and the helix points at radius r from the cylinder axis
Test(tendon, wrap_points_on_surfaces) {
  mjModel* m = load(WRAP);
  mjData* d = forwardAt(m, WRAP_QPOS, NULL, NULL);
  const mjtNum* ball = d->geom_xpos;
  for (int t = 0; t < 3; t++)
    for (int k = 1; k < 3; k++) {
      mjtNum dist = 0;
      const mjtNum* p = d->wrap_xpos + 3 * (d->ten_wrapadr[t] + k);
      for (int i = 0; i < 3; i++) dist += (p[i] - ball[i]) * (p[i] - ball[i]);
      cr_expect(fabs(sqrt(dist) - 0.1) < 1e-14, "tendon %d point %d: radius %.17g", t, k,
                sqrt(dist));
    }
  const mjtNum *cyl = d->geom_xpos + 3, *R = d->geom_xmat + 9;
  for (int k = 1; k < 3; k++) {
    const mjtNum* p = d->wrap_xpos + 3 * (d->ten_wrapadr[3] + k);
    mjtNum loc[2] = {0, 0};
    for (int i = 0; i < 3; i++)
      for (int a = 0; a < 2; a++) loc[a] += R[3 * i + a] * (p[i] - cyl[i]);
    cr_expect(fabs(hypot(loc[0], loc[1]) - 0.05) < 1e-14, "helix point %d", k);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}

// ten_J is the derivative of ten_length: outside wraps exactly (the tangent points move
// along the surface, which leaves the length unchanged to first order); the inside wrap's
// point is a Newton iterate stopped at |f| < 1e-6, so its derivative holds more loosely
Test(tendon, jacobian_is_derivative_of_length) {
  mjModel* m = load(WRAP);
  mjData* d = forwardAt(m, WRAP_QPOS, NULL, NULL);
  mjtNum fd[15];
  centralDiff(m, WRAP_QPOS, 5, tendonLengths, fd);
  for (int t = 0; t < 5; t++)
    expectNear("ten_J vs finite differences", d->ten_J + 3 * t, fd + 3 * t, 3,
               t == 2 ? 1e-5 : 1e-8);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// geom wrapping and tendon armature are refused together, as MuJoCo's compiler does
Test(tendon, armature_with_wrapping_refused) {
  char err[512] = "";
  const char* xml =
    "<mujoco><worldbody><site name='a' pos='-1 0 0'/><body><joint axis='0 1 0'/>"
    "<geom name='g' size='0.1'/><site name='b' pos='1 0 0'/></body></worldbody><tendon>"
    "<spatial armature='1'><site site='a'/><geom geom='g'/><site site='b'/></spatial>"
    "</tendon></mujoco>";
  mjModel* m = mj_parseXMLString(xml, "arm.xml", "", err, sizeof(err));
  cr_expect_null(m);
  cr_expect(strstr(err, "geom wrapping not supported by tendon armature"), "%s", err);
  mj_deleteModel(m);
}

// ---- transmissions -----------------------------------------------------------------------------

Test(tendon, transmissions_match_mujoco) {
  mjModel* m = load(TRN);
  mjData* d = forwardAt(m, TRN_QPOS, TRN_QVEL, TRN_CTRL);
  expectNear("actuator_length", d->actuator_length, OR_ALEN, 6, 1e-14);
  mjtNum moment[18];
  for (int a = 0; a < 6; a++) mj_momentRow(m, d, a, moment + 3 * a);
  expectNear("actuator_moment", moment, OR_MOMENT, 18, 1e-14);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// moment = d length / d qpos for the translational reference-site transmission and the
// slider-crank (the rotational one follows MuJoCo's approximate Jacobian; see tendon.c)
Test(tendon, moments_are_derivatives_of_lengths) {
  mjModel* m = load(TRN);
  mjData* d = forwardAt(m, TRN_QPOS, NULL, NULL);
  mjtNum fd[18], moment[18];
  centralDiff(m, TRN_QPOS, 6, actuatorLengths, fd);
  for (int a = 0; a < 6; a++) mj_momentRow(m, d, a, moment + 3 * a);
  expectNear("cart moment vs finite differences", moment + 3, fd + 3, 3, 1e-8);
  expectNear("crank moment vs finite differences", moment + 9, fd + 9, 3, 1e-8);
  expectNear("tendon moment vs finite differences", moment + 12, fd + 12, 3, 1e-8);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// slider-crank by hand: length = a'v - sqrt((a'v)^2 + r^2 - v'v), times gear 2
Test(tendon, slider_crank_length_formula) {
  mjModel* m = load(TRN);
  mjData* d = forwardAt(m, TRN_QPOS, NULL, NULL);
  int pin = mj_name2id(m, mjOBJ_SITE, "pin"), sl = mj_name2id(m, mjOBJ_SITE, "slider");
  const mjtNum* R = d->site_xmat + 9 * sl;
  mjtNum v[3], av = 0, vv = 0;
  for (int i = 0; i < 3; i++) {
    v[i] = d->site_xpos[3 * pin + i] - d->site_xpos[3 * sl + i];
    av += R[3 * i + 2] * v[i];
    vv += v[i] * v[i];
  }
  mjtNum len = 2 * (av - sqrt(av * av + 0.35 * 0.35 - vv));
  cr_expect(fabs(d->actuator_length[3] - len) < 1e-15, "%.17g vs %.17g", d->actuator_length[3],
            len);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// ---- tendon armature and actuator force limits -------------------------------------------------

Test(tendon, armature_and_force_limit_match_mujoco) {
  mjModel* m = load(TRN);
  mjData* d = forwardAt(m, TRN_QPOS, TRN_QVEL, TRN_CTRL);
  expectNear("qM", d->qM, OR_QM, 4, 1e-15);
  expectNear("qfrc_bias", d->qfrc_bias, OR_BIAS, 3, 1e-14);
  expectNear("actuator_force", d->actuator_force, OR_AFRC, 6, 1e-15);
  expectNear("qfrc_actuator", d->qfrc_actuator, OR_QFRC_ACT, 3, 1e-15);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// M gains armature J'J and qfrc_bias gains J' armature d^2 L/dt^2 at zero acceleration:
// the second difference of the length along q + t qvel, against the same model without
// armature
Test(tendon, armature_terms_are_independent) {
  mjModel* m = load(TRN);
  mjData* d = forwardAt(m, TRN_QPOS, TRN_QVEL, NULL);
  m->tendon_armature[0] = 0;
  mjData* d0 = forwardAt(m, TRN_QPOS, TRN_QVEL, NULL);
  const mjtNum* J = d->ten_J;
  // qM rows: (j1,j1), (j2,j2), (j2,j1), (jc,jc)
  mjtNum dM[4] = {0.3 * J[0] * J[0], 0.3 * J[1] * J[1], 0.3 * J[1] * J[0], 0.3 * J[2] * J[2]};
  for (int i = 0; i < 4; i++)
    cr_expect(fabs(d->qM[i] - d0->qM[i] - dM[i]) < 1e-15, "qM[%d]", i);

  // d^2 L / dt^2 along the straight line q + t qvel
  const mjtNum h = 1e-4;
  mjtNum L[3];
  mjData* dd = mj_makeData(m);
  for (int k = -1; k <= 1; k++) {
    for (int i = 0; i < 3; i++) dd->qpos[i] = TRN_QPOS[i] + k * h * TRN_QVEL[i];
    mj_forward(m, dd);
    L[k + 1] = dd->ten_length[0];
  }
  mjtNum acc = (L[0] - 2 * L[1] + L[2]) / (h * h);
  for (int i = 0; i < 3; i++)
    cr_expect(fabs(d->qfrc_bias[i] - d0->qfrc_bias[i] - 0.3 * acc * J[i]) < 1e-7,
              "bias[%d]: %.17g vs %.17g", i, d->qfrc_bias[i] - d0->qfrc_bias[i],
              0.3 * acc * J[i]);
  mj_deleteData(dd);
  mj_deleteData(d0);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// tendon armature couples dofs only within qM's sparsity: across two trees it adds to the
// diagonals only (MuJoCo 3.5.1 drops the coupling), and it leaves dof_M0 alone
Test(tendon, armature_across_trees) {
  const char* xml =
    "<mujoco><option gravity='0 0 0'/><worldbody><body pos='-0.5 0 0'>"
    "<joint name='j1' axis='0 1 0'/><geom type='capsule' fromto='0 0 0 0 0 -0.3' size='0.02' "
    "mass='1'/><site name='a' pos='0 0 -0.3'/></body><body pos='0.5 0 0'>"
    "<joint name='j2' axis='0 1 0'/><geom type='capsule' fromto='0 0 0 0 0 -0.3' size='0.02' "
    "mass='1'/><site name='b' pos='0 0 -0.3'/></body></worldbody><tendon>"
    "<spatial armature='0.7'><site site='a'/><site site='b'/></spatial></tendon></mujoco>";
  // oracle: qpos (0.3, -0.2), qvel (1.5, -0.7)
  static const mjtNum OR_QM2[] = {0.08923879102836282, 0.09186555387930267};
  static const mjtNum OR_BIAS2[] = {-0.04398768498311035, 0.04497736368699473};
  static const mjtNum OR_QACC2[] = {0.4929211218149483, -0.4895998749007503};
  mjtNum qpos[2] = {0.3, -0.2}, qvel[2] = {1.5, -0.7};
  mjModel* m = load(xml);
  cr_assert_eq(m->nM, 2);
  mjData* d = forwardAt(m, qpos, qvel, NULL);
  expectNear("qM", d->qM, OR_QM2, 2, 1e-15);
  expectNear("qfrc_bias", d->qfrc_bias, OR_BIAS2, 2, 1e-15);
  expectNear("qacc", d->qacc, OR_QACC2, 2, 1e-14);
  // bodies holding sites of a tendon with armature are not simple, as in MuJoCo
  cr_expect_eq(m->body_simple[1], 0);
  cr_expect_eq(m->body_simple[2], 0);
  cr_expect_eq(m->dof_simplenum[0], 0);
  cr_expect(fabs(m->dof_M0[0] - 0.0315130612244898) < 1e-15, "dof_M0 %.17g", m->dof_M0[0]);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// ---- supported features -----------------------------------------------------------------------

Test(tendon, check_supported) {
  char err[512] = "";
  mjModel* m = load(TRN);
  cr_expect_eq(mj_checkSupported(m, err, sizeof(err)), 0, "%s", err);
  m->actuator_gaintype[0] = mjGAIN_USER;
  cr_expect_neq(mj_checkSupported(m, err, sizeof(err)), 0);
  cr_expect_str_eq(err, "actuator 'wrench': user dynamics, gain or bias: not supported by this "
                        "simulator");
  mj_deleteModel(m);
  // adhesion (body transmission) and rangefinders are simulated
  m = load("<mujoco><worldbody><body name='b'><freejoint/><geom size='0.1'/><site name='s'/>"
           "</body></worldbody><actuator><adhesion name='grip' body='b' ctrlrange='0 1'/>"
           "</actuator><sensor><rangefinder site='s'/></sensor></mujoco>");
  cr_expect_eq(mj_checkSupported(m, err, sizeof(err)), 0, "%s", err);
  mj_deleteModel(m);
  m = load("<mujoco><option><flag sleep='enable'/></option><worldbody><body><freejoint/>"
           "<geom size='0.1'/></body></worldbody></mujoco>");
  cr_expect_neq(mj_checkSupported(m, err, sizeof(err)), 0);
  cr_expect_str_eq(err, "option flag 'sleep': not supported by this simulator");
  mj_deleteModel(m);
}
