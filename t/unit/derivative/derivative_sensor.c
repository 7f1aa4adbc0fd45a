// t/unit/derivative/derivative_sensor.c: the analytic sensor Jacobians C = ds/dx and D = ds/du of
// lib/derivative/derivative_sensor.c against a clean central difference of the forward pass's
// sensors computed here (a step per column from 1e-4 max(1, |x_c|), Richardson-extrapolated): every
// kinematic sensor on a floating chain (ball, hinge and slide joints; frames of bodies, geoms,
// sites and cameras, with and without reference frames), acceleration, force, torque and actuator
// sensors with contacts disabled and on a plane (touch, pyramidal and elliptic cones), joint and
// tendon limit sensors, the dm_control humanoid along a trajectory with contacts; rangefinders and
// camera projections; user sensors (zeros, zero rows); the cutoff; refusals.
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "derivative/derivative.h"
#include "derivative_common.h"

// a floating chain: a free torso, a ball-jointed arm with a hinge and a slide below it, a
// site and a camera on each; actuators on the hinge, the slide and a fixed tendon (affine
// bias, a filter); every kinematic, acceleration and actuator sensor, frames relative to
// other frames.  %s: option attributes, worldbody extras, equalities, sensors
static const char* CHAIN_FMT =
  "<mujoco><option %s/><worldbody>%s<camera name='wc' pos='0.5 -2 1' xyaxes='1 0 0 0 0.3 1' "
  "resolution='640 480'/><geom name='wall' type='box' size='1 0.1 1' pos='0 1.5 1'/>"
  "<geom name='ball' type='sphere' size='0.3' pos='0.2 0 -0.5'/><geom name='cyl' "
  "type='cylinder' size='0.2 0.5' pos='1.5 0 0.5'/>"
  "<body name='torso' pos='0 0 1.2'><freejoint/>"
  "<geom name='tg' type='box' size='0.2 0.15 0.1'/><site name='ts' pos='0.1 0 0.05' "
  "euler='10 20 30' type='box' size='0.25 0.2 0.15'/>"
  "<camera name='tc' pos='0 0.1 0.2' euler='0 30 0'/>"
  "<body name='arm' pos='0.2 0 0'><joint name='ball' type='ball' damping='0.1'/>"
  "<geom name='ag' type='capsule' fromto='0 0 0 0.3 0 -0.1' size='0.04'/>"
  "<site name='as' pos='0.3 0 -0.1' euler='40 0 10'/>"
  "<body name='fore' pos='0.3 0 -0.1'><joint name='hinge' axis='0 1 1' range='-1 1' "
  "limited='true'/>"
  "<geom name='fg' type='capsule' fromto='0 0 0 0 0 -0.3' size='0.03'/>"
  "<site name='fs' pos='0 0.02 -0.3' euler='5 15 -20'/>"
  "<body name='hand' pos='0 0 -0.3'><joint name='slide' type='slide' axis='1 0 0'/>"
  "<geom name='hg' type='sphere' size='0.05' pos='0.02 0 -0.05'/>"
  "<site name='hs' pos='0 0 -0.05' euler='0 0 45'/></body></body></body>"
  "<body name='leg' pos='-0.1 0 -0.1' euler='20 0 0'><joint name='knee' axis='1 0 0'/>"
  "<geom name='lg' type='capsule' fromto='0 0 0 0 0 -0.4' size='0.05'/>"
  "<site name='ls' pos='0 0 -0.2' type='box' size='0.1 0.1 0.3'/></body></body></worldbody>"
  "<tendon><fixed name='ten'><joint joint='hinge' coef='0.5'/><joint joint='slide' coef='-1'/>"
  "<joint joint='knee' coef='0.3'/></fixed></tendon>"
  "<actuator><motor name='m1' joint='hinge' gear='2'/>"
  "<position name='m2' joint='slide' kp='5'/>"
  "<general name='m3' tendon='ten' dyntype='filter' dynprm='0.3' gainprm='2' "
  "biastype='affine' biasprm='0 -1 -0.5'/>"
  "<motor name='m4' joint='knee'/></actuator>%s"
  "<sensor>%s</sensor></mujoco>";

// the chain's kinematic sensors
static const char* KINEMATIC =
  "<framepos objtype='body' objname='arm'/><framepos objtype='xbody' objname='fore'/>"
  "<framepos objtype='geom' objname='hg' reftype='site' refname='ts'/>"
  "<framepos objtype='site' objname='hs' reftype='camera' refname='tc'/>"
  "<framepos objtype='camera' objname='tc' reftype='body' refname='hand'/>"
  "<framequat objtype='site' objname='fs'/>"
  "<framequat objtype='geom' objname='ag' reftype='xbody' refname='leg'/>"
  "<framexaxis objtype='site' objname='hs'/>"
  "<frameyaxis objtype='body' objname='fore' reftype='site' refname='as'/>"
  "<framezaxis objtype='geom' objname='lg' reftype='geom' refname='hg'/>"
  "<subtreecom body='arm'/><subtreecom body='torso'/>"
  "<velocimeter site='hs'/><gyro site='fs'/><magnetometer site='as'/>"
  "<framelinvel objtype='site' objname='hs'/>"
  "<framelinvel objtype='geom' objname='fg' reftype='site' refname='ls'/>"
  "<frameangvel objtype='body' objname='hand'/>"
  "<frameangvel objtype='site' objname='as' reftype='xbody' refname='hand'/>"
  "<subtreelinvel body='torso'/><subtreelinvel body='fore'/>"
  "<subtreeangmom body='torso'/><subtreeangmom body='arm'/>"
  "<ballquat joint='ball'/><ballangvel joint='ball'/>"
  "<jointpos joint='hinge'/><jointvel joint='slide'/>"
  "<actuatorpos actuator='m3'/><actuatorvel actuator='m1'/>"
  "<tendonpos tendon='ten'/><tendonvel tendon='ten'/>"
  "<jointlimitpos joint='hinge'/><jointlimitvel joint='hinge'/>"
  "<insidesite objtype='body' objname='hand' site='ts'/><clock/>"
  "<user dim='2' needstage='pos'/><user dim='1' needstage='vel' objtype='body' objname='arm'/>"
  "<rangefinder site='hs'/><rangefinder site='ls'/><rangefinder site='fs'/>"
  "<rangefinder site='hs' data='dist dir origin point depth'/>"
  "<rangefinder site='fs' data='dir point'/>"
  "<camprojection site='hs' camera='tc'/><camprojection site='as' camera='wc'/>";

// the chain's acceleration and force sensors
static const char* DYNAMIC =
  "<accelerometer site='hs'/><accelerometer site='ts'/>"
  "<framelinacc objtype='geom' objname='fg'/><frameangacc objtype='site' objname='as'/>"
  "<force site='as'/><torque site='as'/><force site='ls'/><torque site='fs'/>"
  "<force site='ts'/><torque site='ts'/>"
  "<actuatorfrc actuator='m2'/><actuatorfrc actuator='m3'/><jointactuatorfrc joint='slide'/>"
  "<jointactuatorfrc joint='hinge'/><tendonactuatorfrc tendon='ten'/>"
  "<jointlimitfrc joint='hinge'/>"
  "<touch site='ts'/><touch site='ls'/><user dim='3'/>";

// a model from MJCF text, the Newton solver to tolerance 1e-15 (the derivative is that of the
// exact solution)
static mjModel* load(const char* xml) {
  char err[300];
  mjModel* m = mj_parseXMLString(xml, "test.xml", "", err, sizeof(err));
  cr_assert_not_null(m, "%s", err);
  return exactSolver(m);
}

// the sensors s (nsensordata) of the forward pass at (qpos, qvel, act, ctrl) as given;
// *rows gets nefc and the row types and states are compared with (type, state) (NULL: not)
static int sensorsAt(const mjModel* m, mjData* d, const mjtNum* q, const mjtNum* v,
                     const mjtNum* a, const mjtNum* u, mjtNum* s, int nefc, const int* type,
                     const int* state) {
  mju_copy(d->qpos, q, m->nq);
  mju_copy(d->qvel, v, m->nv);
  mju_copy(d->act, a, m->na);
  mju_copy(d->ctrl, u, m->nu);
  mj_forward(m, d);
  mju_copy(s, d->sensordata, m->nsensordata);
  return type && (d->nefc != nefc || memcmp(type, d->efc_type, sizeof(int) * nefc) ||
                  memcmp(state, d->efc_state, sizeof(int) * nefc));
}

// C, D by central differences of the sensors: column c moves x_c (or u) by +-eps and
// +-eps/2, eps = 1e-4 max(1, |value|) (large: acceleration sensors of light bodies are big,
// their rounding noise over eps small), and extrapolates (Richardson: (4 D(eps/2) - D(eps))
// / 3); when the two differ by more than 1e-6 max(1, |entry|) + 1e-13 smax / eps (smax the
// largest sensor value: the forward pass's round-off, which a sensor near 0 that sums large
// forces, e.g. a free body's interaction force, carries) or a perturbed state has other
// constraint rows or row states, eps shrinks tenfold, down to 1e-8.  The return: 1 when the
// rows still change at the last eps (an event within it), 2 when no step gave agreeing
// differences (a kink), 0 otherwise
static int centralFD(const mjModel* m, mjData* d, mjtNum* C, mjtNum* D) {
  int nq = m->nq, nv = m->nv, na = m->na, nu = m->nu, ndx = 2 * nv + na, ns = m->nsensordata;
  int event = 0;
  mjtNum *q0 = malloc(sizeof(mjtNum) * (nq + nv + na + nu)), *v0 = q0 + nq, *a0 = v0 + nv;
  mjtNum *u0 = a0 + na, *q = malloc(sizeof(mjtNum) * (nq + nv + na + nu)), *v = q + nq;
  mjtNum *a = v + nv, *u = a + na, *s = malloc(sizeof(mjtNum) * 4 * (ns + 1));
  mju_copy(q0, d->qpos, nq);
  mju_copy(v0, d->qvel, nv);
  mju_copy(a0, d->act, na);
  mju_copy(u0, d->ctrl, nu);
  mj_forward(m, d);
  mjtNum smax = 0;
  for (int r = 0; r < ns; r++) smax = fmax(smax, fabs(d->sensordata[r]));
  int nefc = d->nefc, *type = malloc(sizeof(int) * (2 * nefc + 1)), *state = type + nefc;
  memcpy(type, d->efc_type, sizeof(int) * nefc);
  memcpy(state, d->efc_state, sizeof(int) * nefc);
  for (int c = 0; c < ndx + nu; c++) {
    mjtNum scale = columnScale(m, c, q0, v0, a0, u0);
    int agree = 0, changed = 0;
    for (mjtNum eps = 1e-4 * scale; !agree && eps > 5e-9 * scale; eps /= 10) {
      changed = 0;
      for (int k = 0; k < 4; k++) {
        mjtNum h = (k % 2 ? -eps : eps) / (k < 2 ? 1 : 2);
        mju_copy(q, q0, nq + nv + na + nu);
        perturb(m, c, h, q, v, a, u);
        changed |= sensorsAt(m, d, q, v, a, u, s + k * ns, nefc, type, state);
      }
      agree = !changed;
      for (int r = 0; r < ns; r++) {
        mjtNum d1 = (s[r] - s[ns + r]) / (2 * eps), d2 = (s[2 * ns + r] - s[3 * ns + r]) / eps;
        mjtNum col = (4 * d2 - d1) / 3;
        agree &= fabs(d1 - d2) <= 1e-6 * fmax(1, fabs(d2)) + 1e-13 * smax / eps;
        if (c < ndx) C[r * ndx + c] = col;
        else D[r * nu + c - ndx] = col;
      }
    }
    if (changed) event |= 1;
    else if (!agree) event |= 2;
  }
  sensorsAt(m, d, q0, v0, a0, u0, s, 0, NULL, NULL);
  free(q0), free(q), free(s), free(type);
  return event;
}

// the sensor owning sensordata row r
static int sensorOf(const mjModel* m, int r) {
  int s = 0;
  while (s + 1 < m->nsensor && m->sensor_adr[s + 1] <= r) s++;
  return s;
}

// analytic C, D against the central differences at d's state; prints the errors and the
// entries off by more than 1e-7 (with their sensor types); the largest error, or -1 at an
// event (no reference there)
static mjtNum compare(const char* name, const mjModel* m, mjData* d, int verbose) {
  char err[300];
  int ndx = 2 * m->nv + m->na, nu = m->nu, ns = m->nsensordata;
  mjtNum *C = malloc(sizeof(mjtNum) * ns * ndx), *Cf = malloc(sizeof(mjtNum) * ns * ndx);
  mjtNum *D = malloc(sizeof(mjtNum) * (ns * nu + 1)), *Df = malloc(sizeof(mjtNum) * (ns * nu + 1));
  cr_assert_eq(mjd_transitionSmooth(m, d, NULL, NULL, C, D, err, sizeof(err)), 0, "%s: %s", name,
               err);
  int event = centralFD(m, d, Cf, Df);
  mjtNum ec = relErr(C, Cf, ns * ndx), ed = relErr(D, Df, ns * nu);
  if (verbose)
    fprintf(stderr, "derivative_sensor: %-22s nsensordata %3d ncon %2d nefc %3d  C %.2e  "
            "D %.2e%s\n", name, ns, d->ncon, d->nefc, ec, ed,
            event == 1 ? " (rows change)" : event ? " (kink)" : "");
  for (int r = 0; r < ns && !event && fmax(ec, ed) > 1e-6; r++) {
    for (int c = 0; c < ndx + nu; c++) {
      mjtNum x = c < ndx ? C[r * ndx + c] : D[r * nu + c - ndx];
      mjtNum y = c < ndx ? Cf[r * ndx + c] : Df[r * nu + c - ndx];
      if (fabs(x - y) > 1e-7)
        fprintf(stderr, "  row %d (sensor %d type %d) col %d: %.10g fd %.10g\n", r,
                sensorOf(m, r), m->sensor_type[sensorOf(m, r)], c, x, y);
    }
  }
  free(C), free(Cf), free(D), free(Df);
  return event ? -1 : fmax(ec, ed);
}

// the chain with the sensors and options given, at setState's state, within 1e-6
static void checkChain(const char* name, const char* opt, const char* world, const char* eq,
                       const char* sensors) {
  char xml[8192];
  snprintf(xml, sizeof(xml), CHAIN_FMT, opt, world, eq, sensors);
  mjModel* m = load(xml);
  mjData* d = mj_makeData(m);
  setState(m, d);
  mjtNum e = compare(name, m, d, 1);
  cr_expect(e >= 0 && e <= 1e-6, "%s: off by %g", name, e);
  int rays = 0, hits = 0;
  for (int s = 0; s < m->nsensor; s++) {
    if (m->sensor_type[s] != mjSENS_RANGEFINDER) continue;
    rays++;
    hits += d->sensordata[m->sensor_adr[s]] >= 0;
  }
  if (rays) cr_expect_gt(hits, 0, "%s: no rangefinder hits a geom", name);
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(derivative_sensor, kinematic) {
  checkChain("kinematic", "gravity='0 0 -9.81'", "", "", KINEMATIC);
  checkChain("kinematic RK4", "integrator='RK4' magnetic='0.1 -0.3 0.4'", "", "", KINEMATIC);
}

Test(derivative_sensor, dynamic) {
  checkChain("dynamic", "", "", "", DYNAMIC);
  checkChain("dynamic implicit", "integrator='implicit'", "", "", DYNAMIC);
  checkChain("dynamic implicitfast", "integrator='implicitfast'", "", "", DYNAMIC);
  checkChain("dynamic RK4", "integrator='RK4'", "", "", DYNAMIC);
  checkChain("connect", "", "", "<equality><connect body1='hand' body2='leg' "
             "anchor='0 0 -0.1'/></equality>", DYNAMIC);
  checkChain("weld", "", "<body name='post' pos='0.5 0 1'/>", "<equality><weld body1='fore' "
             "body2='post' solref='0.05 1'/></equality>", DYNAMIC);
  checkChain("site weld", "", "<site name='post' pos='0.5 0 1' euler='10 20 0'/>",
             "<equality><weld site1='fs' site2='post' solref='0.05 1' torquescale='1.7'/>"
             "<connect site1='hs' site2='ls' solref='0.05 1'/></equality>", DYNAMIC);
}

// geom distance sensors between moving geoms (no contacts: contype 0): a sphere and a box
// apart, two capsules apart, a box into an ellipsoid (penetration: a negative distance), a
// body's geoms against a cylinder, one pair beyond its cutoff (constant)
static const char* DISTANCES =
    "<mujoco><option timestep='0.005' %s/><default><geom contype='0' conaffinity='0'/>"
    "</default><worldbody>"
    "<body name='p' pos='0 0 1'><joint axis='0 1 0'/><joint axis='1 0 0'/>"
    "<geom name='ball' size='0.1' pos='0.2 0 0'/>"
    "<geom name='rod' type='capsule' fromto='0 0 0 0 0.3 -0.2' size='0.04'/>"
    "<body pos='0 0 -0.5'><joint axis='0 1 0'/><geom name='brick' type='box' size='.1 .08 .06'"
    " euler='10 20 30'/></body></body>"
    "<body name='q' pos='0.5 0.1 0.9'><joint type='slide' axis='1 0 0'/>"
    "<joint axis='0 0 1'/><geom name='block' type='box' size='.1 .1 .1' euler='5 -10 15'/>"
    "<geom name='pole' type='capsule' fromto='0 0.3 0 0 0.3 0.3' size='0.05'/>"
    "<geom name='egg' type='ellipsoid' size='.12 .08 .1' pos='-0.35 0 -0.35'/></body>"
    "<body name='r' pos='-0.5 0 1'><freejoint/><geom name='can' type='cylinder'"
    " size='.06 .1'/></body></worldbody><sensor>"
    "<distance geom1='ball' geom2='block' cutoff='1'/>"
    "<distance geom1='rod' geom2='pole' cutoff='1'/>"
    "<distance geom1='brick' geom2='egg' cutoff='1'/>"
    "<distance body1='p' geom2='can' cutoff='2'/>"
    "<distance geom1='ball' geom2='can' cutoff='0.01'/></sensor></mujoco>";

Test(derivative_sensor, distances) {
  static const char* const opt[] = {"ccd_tolerance='1e-13' ccd_iterations='500'",
                                    "integrator='RK4' ccd_tolerance='1e-13'"};
  for (int i = 0; i < 2; i++) {
    char xml[4096];
    snprintf(xml, sizeof(xml), DISTANCES, opt[i]);
    mjModel* m = load(xml);
    mjData* d = mj_makeData(m);
    setState(m, d);
    mj_forward(m, d);
    cr_expect(d->sensordata[2] < 0, "the box and the ellipsoid apart: %g", d->sensordata[2]);
    cr_expect(d->sensordata[4] == 0.01, "the last pair within its cutoff");
    mjtNum e = compare(i ? "distances RK4" : "distances", m, d, 1);
    cr_expect(e >= 0 && e <= 1e-6, "off by %g", e);
    mj_deleteData(d);
    mj_deleteModel(m);
  }
}

// sensors on the spatial tendon model (derivative_common.h): its length and velocity
// (turning with q), the actuators' lengths, velocities and forces, the tendon's actuator
// force; Euler and RK4
static const char* SPATIAL_SENSORS =
    "<sensor><tendonpos tendon='t'/><tendonvel tendon='t'/><actuatorpos actuator='g'/>"
    "<actuatorvel actuator='g'/><actuatorfrc actuator='m'/><actuatorfrc actuator='g'/>"
    "<tendonactuatorfrc tendon='t'/></sensor>";

Test(derivative_sensor, spatial_tendon) {
  static const char* const opt[] = {"", "integrator='RK4'"};
  for (int i = 0; i < 2; i++) {
    char xml[4096];
    snprintf(xml, sizeof(xml), SPATIAL_FMT, opt[i], SPATIAL_SENSORS);
    mjModel* m = load(xml);
    mjData* d = mj_makeData(m);
    setState(m, d);
    spatialInputs(m, d);
    mjtNum e = compare(i ? "spatial tendon RK4" : "spatial tendon", m, d, 1);
    cr_expect(e >= 0 && e <= 1e-6, "off by %g", e);
    mj_deleteData(d);
    mj_deleteModel(m);
  }
}

// on a plane at height z with the cone given: contacts of the leg, the hand, the torso
static void checkGround(const char* name, const char* cone, mjtNum z) {
  char opt[100], world[200];
  snprintf(opt, sizeof(opt), "cone='%s' tolerance='0'", cone);
  snprintf(world, sizeof(world), "<geom type='plane' size='3 3 .1' pos='0 0 %g'/>", z);
  checkChain(name, opt, world, "", DYNAMIC);
}

Test(derivative_sensor, contacts) {
  checkGround("leg on the ground", "pyramidal", 0.85);
  checkGround("leg elliptic", "elliptic", 0.85);
  checkGround("torso on the ground", "pyramidal", 1.05);
  checkGround("torso elliptic", "elliptic", 1.05);
  checkGround("torso RK4", "pyramidal' integrator='RK4", 1.05);
  checkGround("torso implicit", "elliptic' integrator='implicit", 1.05);
}

// the dm_control humanoid (subtreelinvel, accelerometer, velocimeter, gyro, force, torque,
// touch) falling and lying under controls 0.3 sin(0.01 t + i): every `every` steps of n, within
// 1e-6 at states away from contact events (and with `touch` some touch sensor reading a
// contact); prints how many are near one, how many refused (contact pairs not differentiated)
// and the worst error.  ccd > 0: the general convex solver to tolerance ccd (its contacts on
// curved geoms then near enough the ideal ones whose derivative the analytic path takes)
static void checkTrajectory(const char* file, int n, int every, int touch, mjtNum ccd) {
  char err[300];
  mjModel* m = loadExact(file);
  if (ccd > 0) m->opt.ccd_tolerance = ccd, m->opt.ccd_iterations = 500;
  mjData* d = mj_makeData(m);
  int states = 0, events = 0, touching = 0, refused = 0;
  mjtNum* C = malloc(sizeof(mjtNum) * m->nsensordata * (2 * m->nv + m->na));
  mjtNum worst = 0;
  for (int s = 1; s <= n; s++) {
    for (int i = 0; i < m->nu; i++) d->ctrl[i] = 0.3 * sin(0.01 * s + i);
    mj_step(m, d);
    if (s % every) continue;
    char name[40];
    snprintf(name, sizeof(name), "step %d", s);
    if (mjd_transitionSmooth(m, d, NULL, NULL, C, NULL, err, sizeof(err))) {
      refused++;
      continue;
    }
    mjtNum e = compare(name, m, d, 0);
    states++;
    events += e < 0;
    int touch = 0;
    for (int k = 0; k < m->nsensor; k++)
      touch |= m->sensor_type[k] == mjSENS_TOUCH && d->sensordata[m->sensor_adr[k]] > 0;
    touching += touch;
    if (e >= 0) worst = fmax(worst, e);
    cr_expect_leq(e, 1e-6, "%s step %d: off by %g", file, s, e);
  }
  if (touch) cr_expect_gt(touching, 0, "no touch sensor reads a contact");
  fprintf(stderr, "derivative_sensor: %s: %d states (%d touching), %d near a contact "
          "event, %d refused (contacts); worst error elsewhere %.2e\n", file, states, touching,
          events, refused, worst);
  free(C);
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(derivative_sensor, humanoid_trajectory) {
  checkTrajectory("../shared/corpus/dm_control/humanoid.xml", 400, 10, 1, 0);
}

// the corpus models with sensors the analytic path takes (their sensors: jointpos, jointvel,
// framepos, framequat, framexaxis, subtreecom, subtreeangmom, touch, accelerometer, gyro,
// velocimeter, magnetometer, actuatorpos, force, torque, rangefinder ...)
Test(derivative_sensor, corpus_trajectories) {
  static const char* const files[] = {"dm_control/cheetah.xml", "dm_control/hopper.xml",
    "dm_control/walker.xml", "dm_control/finger.xml", "dm_control/manipulator.xml",
    "dm_control/stacker.xml", "dm_control/humanoid_CMU.xml",
    "dm_control/quadruped.xml", "menagerie/agility_cassie/cassie.xml"};
  for (int i = 0; i < (int)(sizeof(files) / sizeof(files[0])); i++) {
    char path[200];
    snprintf(path, sizeof(path), "../shared/corpus/%s", files[i]);
    checkTrajectory(path, 200, 20, 0, 0);
  }
}

// the dog (accelerometer, touch, force and torque sensors) through noslip, its capsules on the
// target's thin cylinder resolved by GJK/EPA to 1e-13 (as in t/unit/derivative/derivative.c)
Test(derivative_sensor, dog_trajectory) {
  checkTrajectory("../shared/corpus/dm_control/dog.xml", 200, 20, 0, 1e-13);
}

// a sensor at its cutoff has a zero row; a sensor not differentiated is refused by name
Test(derivative_sensor, cutoff_and_refusal) {
  char err[300];
  mjModel* m = load("<mujoco><worldbody><body pos='0 0 1'><joint name='j' axis='0 1 0'/>"
                    "<geom type='capsule' fromto='0 0 0 0 0 -0.5' size='0.05'/>"
                    "<site name='s' pos='0 0 -0.5'/></body></worldbody><sensor>"
                    "<accelerometer site='s' cutoff='1'/><gyro site='s'/></sensor></mujoco>");
  mjData* d = mj_makeData(m);
  d->qpos[0] = 0.5, d->qvel[0] = 2;
  mjtNum C[6 * 2];
  cr_assert_eq(mjd_transitionSmooth(m, d, NULL, NULL, C, NULL, err, sizeof(err)), 0, "%s", err);
  for (int r = 0; r < 3; r++) {
    int clamp = fabs(d->sensordata[r]) >= 1;
    for (int c = 0; c < 2; c++)
      if (clamp) cr_expect_eq(C[2 * r + c], 0, "clamped row %d col %d", r, c);
  }
  cr_expect_float_eq(C[2 * 4 + 1], 1, 1e-12, "the gyro's y row follows qvel: %g", C[9]);
  mj_deleteData(d);
  mj_deleteModel(m);
  m = load("<mujoco><worldbody><geom name='floor' type='plane' size='1 1 .1'/><body pos='0 0 1'>"
           "<joint axis='0 1 0'/><geom name='bob' size='0.1'/></body></worldbody>"
           "<sensor><normal name='gap' geom1='floor' geom2='bob'/></sensor></mujoco>");
  d = mj_makeData(m);
  cr_expect_eq(mjd_transitionSmooth(m, d, NULL, NULL, C, NULL, err, sizeof(err)), -1);
  cr_expect_str_eq(err, "sensor 'gap': not differentiated yet");
  mj_deleteData(d);
  mj_deleteModel(m);
}

// A and B are the same whether the sensors' C and D are asked for or not (with them the
// step's acceleration derivative is turned from the forward one): every integrator, without
// and with contacts
Test(derivative_sensor, same_step_jacobians) {
  static const char* const opts[] = {"", "integrator='implicit'", "integrator='implicitfast'",
                                     "integrator='RK4'"};
  static const char* const worlds[] = {"", "<geom type='plane' size='3 3 .1' pos='0 0 1.05'/>"};
  char err[300], xml[8192];
  for (int i = 0; i < 8; i++) {
    snprintf(xml, sizeof(xml), CHAIN_FMT, opts[i % 4], worlds[i / 4], "", DYNAMIC);
    mjModel* m = load(xml);
    mjData* d = mj_makeData(m);
    setState(m, d);
    int ndx = 2 * m->nv + m->na, nu = m->nu, ns = m->nsensordata;
    mjtNum *A = malloc(sizeof(mjtNum) * 2 * ndx * (ndx + nu)), *B = A + ndx * ndx;
    mjtNum *A1 = B + ndx * nu, *B1 = A1 + ndx * ndx, *C = malloc(sizeof(mjtNum) * ns * ndx);
    cr_assert_eq(mjd_transitionSmooth(m, d, A, B, NULL, NULL, err, sizeof(err)), 0, "%s", err);
    cr_assert_eq(mjd_transitionSmooth(m, d, A1, B1, C, NULL, err, sizeof(err)), 0, "%s", err);
    mjtNum e = fmax(relErr(A1, A, ndx * ndx), relErr(B1, B, ndx * nu));
    cr_expect_leq(e, 1e-10, "%s %s: A, B differ by %g with the sensors", opts[i % 4],
                  worlds[i / 4], e);
    free(A), free(C);
    mj_deleteData(d);
    mj_deleteModel(m);
  }
}
