// t/unit/derivative/derivative_fd.c: finite-difference Jacobians (lib/derivative/derivative_fd.c):
// a pendulum's A and B against its analytic linearization through semi-implicit Euler, forward
// against centered differences, the tangent-space state of a free body (mj_differentiatePos
// inverting mj_integratePos), the one-sided control differences at a ctrlrange bound, the inverse
// Jacobians against M, and the data left as given.  MuJoCo's own numbers for the same functions are
// compared by t/oracle/deriv.
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "mj.h"
#include "engine/smooth.h"

// a hinge pendulum: point-like mass 2 at 0.5 below the hinge (I = m l^2 + the sphere's
// 2/5 m r^2), damping 0.3, a motor of gear 2 limited to [-1, 1], Euler with h = 0.002; its
// joint position and velocity as sensors
static const char* PENDULUM =
  "<mujoco><option timestep='0.002' integrator='Euler'/><worldbody>"
  "<body pos='0 0 1'><joint name='j' axis='0 1 0' damping='0.3'/>"
  "<geom type='sphere' size='0.05' pos='0 0 -0.5' mass='2'/></body></worldbody>"
  "<actuator><motor joint='j' gear='2' ctrlrange='-1 1'/></actuator>"
  "<sensor><jointpos joint='j'/><jointvel joint='j'/></sensor></mujoco>";

// a free box above the floor, tumbling (no contact in one step)
static const char* FREEBOX =
  "<mujoco><worldbody><body pos='0 0 1'><freejoint/>"
  "<geom type='box' size='0.1 0.2 0.3'/></body></worldbody></mujoco>";

// a model from MJCF text
static mjModel* load(const char* xml) {
  char err[512];
  mjModel* m = mj_parseXMLString(xml, "test.xml", "", err, sizeof(err));
  cr_assert(m, "%s", err);
  return m;
}

// the pendulum's A, B against the linearization of semi-implicit Euler with implicit damping:
// (I + h b) v' = I v + h (-m g l sin q + 2 u), q' = q + h v', so with k = h / (I + h b):
// dv'/dq = -k m g l cos q, dv'/dv = I / (I + h b), dv'/du = 2 k, dq'/dx = e_q + h dv'/dx
Test(derivative_fd, pendulum_analytic) {
  mjModel* m = load(PENDULUM);
  mjData* d = mj_makeData(m);
  d->qpos[0] = 0.4, d->qvel[0] = -0.7, d->ctrl[0] = 0.2;
  mjtNum h = 0.002, mass = 2, l = 0.5, b = 0.3, g = 9.81;
  mjtNum I = mass * l * l + 0.4 * mass * 0.05 * 0.05, k = h / (I + h * b);
  mjtNum dvdq = -k * mass * g * l * cos(0.4), dvdv = I / (I + h * b), dvdu = 2 * k;
  mjtNum want[6] = {1 + h * dvdq, h * dvdv, dvdq, dvdv, h * dvdu, dvdu};
  mjtNum A[4], B[2], C[4], D[2];
  cr_assert_eq(mjd_transitionFD(m, d, 1e-6, 1, A, B, C, D), 0);
  mjtNum got[6] = {A[0], A[1], A[2], A[3], B[0], B[1]};
  for (int i = 0; i < 6; i++)
    cr_expect(fabs(got[i] - want[i]) < 1e-7 * fmax(1, fabs(want[i])), "%d: %.12g, want %.12g",
              i, got[i], want[i]);
  // sensors at the current state: C = identity, D = 0
  cr_expect(fabs(C[0] - 1) < 1e-9 && fabs(C[3] - 1) < 1e-9 && fabs(C[1]) < 1e-9);
  cr_expect(fabs(D[0]) < 1e-9 && fabs(D[1]) < 1e-9);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// forward and centered differences agree to O(eps); centered is the more accurate one
Test(derivative_fd, forward_centered) {
  mjModel* m = load(PENDULUM);
  mjData* d = mj_makeData(m);
  d->qpos[0] = 1.1, d->qvel[0] = 2;
  mjtNum Af[4], Ac[4], Aex[4];
  mjd_transitionFD(m, d, 1e-6, 0, Af, NULL, NULL, NULL);
  mjd_transitionFD(m, d, 1e-6, 1, Ac, NULL, NULL, NULL);
  mjd_transitionFD(m, d, 1e-3, 1, Aex, NULL, NULL, NULL);
  for (int i = 0; i < 4; i++) {
    cr_expect(fabs(Af[i] - Ac[i]) < 1e-5, "%d: %g %g", i, Af[i], Ac[i]);
    cr_expect(fabs(Ac[i] - Aex[i]) < 1e-6, "%d: %g %g", i, Ac[i], Aex[i]);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}

// at the upper control bound only the backward step exists; above the range B is zero
Test(derivative_fd, ctrl_bounds) {
  mjModel* m = load(PENDULUM);
  mjData* d = mj_makeData(m);
  mjtNum Bin[2], Bedge[2], Bout[2];
  d->ctrl[0] = 0.5;
  mjd_transitionFD(m, d, 1e-6, 1, NULL, Bin, NULL, NULL);
  d->ctrl[0] = 1;
  mjd_transitionFD(m, d, 1e-6, 1, NULL, Bedge, NULL, NULL);
  d->ctrl[0] = 1.5;
  mjd_transitionFD(m, d, 1e-6, 1, NULL, Bout, NULL, NULL);
  cr_expect(fabs(Bedge[1] - Bin[1]) < 1e-6 * Bin[1] + 1e-9);
  cr_expect(Bout[0] == 0 && Bout[1] == 0);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// a free body: A is (2 nv)^2 = 144 entries; with no forces but gravity, the positions move by
// h v' along each tangent direction, so dq'/dv is h times the identity in the tangent space
// (the rotation too, as mj_differentiatePos measures what mj_integratePos moved)
Test(derivative_fd, free_tangent) {
  mjModel* m = load(FREEBOX);
  mjData* d = mj_makeData(m);
  mjtNum w[6] = {0, 0, 0, 0.3, -0.2, 0.1};
  memcpy(d->qvel, w, sizeof(w));
  mjtNum A[144], h = m->opt.timestep;
  cr_assert_eq(mjd_transitionFD(m, d, 1e-6, 1, A, NULL, NULL, NULL), 0);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 6; j++)
      cr_expect(fabs(A[i * 12 + 6 + j] - (i == j ? h : 0)) < 1e-8, "%d %d: %g", i, j,
                A[i * 12 + 6 + j]);
  // the rotation's own Jacobian is near the identity
  for (int i = 3; i < 6; i++) cr_expect(fabs(A[i * 12 + i] - 1) < 1e-2);

  // mj_differentiatePos inverts mj_integratePos
  mjtNum q[7], v[6] = {0.1, -0.2, 0.3, 0.4, -0.5, 0.6}, back[6];
  memcpy(q, d->qpos, sizeof(q));
  mj_integratePos(m, q, v, 0.5);
  mj_differentiatePos(m, back, 0.5, d->qpos, q);
  for (int i = 0; i < 6; i++) cr_expect(fabs(back[i] - v[i]) < 1e-12, "%d: %g", i, back[i]);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// the inverse: df/dqacc = M (transposed, symmetric); the state is left as given
Test(derivative_fd, inverse_and_state) {
  mjModel* m = load(FREEBOX);
  mjData* d = mj_makeData(m);
  d->qvel[3] = 0.5, d->qacc[2] = -1, d->ctrl[0] = 0;
  mjtNum before[7 + 6 + 6], after[19];
  memcpy(before, d->qpos, 7 * sizeof(mjtNum));
  memcpy(before + 7, d->qvel, 6 * sizeof(mjtNum));
  memcpy(before + 13, d->qacc, 6 * sizeof(mjtNum));
  mjtNum DfDa[36], M[36];
  cr_assert_eq(mjd_inverseFD(m, d, 1e-6, 0, NULL, NULL, DfDa, NULL, NULL, NULL, NULL), 0);
  memcpy(after, d->qpos, 7 * sizeof(mjtNum));
  memcpy(after + 7, d->qvel, 6 * sizeof(mjtNum));
  memcpy(after + 13, d->qacc, 6 * sizeof(mjtNum));
  cr_expect(!memcmp(before, after, sizeof(before)));
  // M column by column: M e_j
  mj_forward(m, d);
  for (int j = 0; j < 6; j++) {
    mjtNum e[6] = {0}, col[6];
    e[j] = 1;
    mj_mulM(m, d, col, e);
    for (int i = 0; i < 6; i++) M[i * 6 + j] = col[i];
  }
  for (int i = 0; i < 36; i++) cr_expect(fabs(DfDa[i] - M[i]) < 1e-6, "%d: %g %g", i, DfDa[i],
                                         M[i]);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// RK4 is refused, as MuJoCo refuses it, and nothing is written
Test(derivative_fd, rk4) {
  mjModel* m = load(PENDULUM);
  m->opt.integrator = mjINT_RK4;
  mjData* d = mj_makeData(m);
  mjtNum A[4] = {7, 7, 7, 7};
  cr_expect_eq(mjd_transitionFD(m, d, 1e-6, 0, A, NULL, NULL, NULL), -1);
  cr_expect(A[0] == 7);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// a box resting on the floor (contacts), a hinge arm at its limit, a filter actuator (act) and
// a motor, and sensors of every stage: every constraint kind a step's stages build
static const char* STAGES =
  "<mujoco><option timestep='0.005' integrator='implicitfast'/><worldbody>"
  "<geom type='plane' size='2 2 0.1'/>"
  "<body pos='0 0 0.099'><freejoint/><geom type='box' size='0.1 0.1 0.1'/></body>"
  "<body pos='1 0 0.5'><joint name='h' axis='0 1 0' range='-0.1 0.1' damping='0.2'/>"
  "<geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.03'/></body></worldbody>"
  "<actuator><general name='f' joint='h' dyntype='filter' dynprm='0.05' gainprm='3'/>"
  "<motor joint='h' ctrlrange='-1 1'/></actuator>"
  "<sensor><jointpos joint='h'/><jointvel joint='h'/><actuatorfrc actuator='f'/>"
  "<framepos objtype='body' objname='world'/></sensor></mujoco>";

// d set to the state of d0 (time, qpos, qvel, act, ctrl, warm start) over a reset
static void setState(const mjModel* m, const mjData* d0, mjData* d) {
  mj_resetData(m, d);
  d->time = d0->time;
  memcpy(d->qpos, d0->qpos, sizeof(mjtNum) * m->nq);
  memcpy(d->qvel, d0->qvel, sizeof(mjtNum) * m->nv);
  memcpy(d->act, d0->act, sizeof(mjtNum) * m->na);
  memcpy(d->ctrl, d0->ctrl, sizeof(mjtNum) * m->nu);
  memcpy(d->qacc_warmstart, d0->qacc_warmstart, sizeof(mjtNum) * m->nv);
}

// the steps of the velocity, activation and control columns reuse the stages the perturbation
// leaves unchanged (as MuJoCo's mjd_transitionFD): the columns are bit for bit those of full
// steps, centered differences of fresh mj_step calls computed here (positions excluded: they
// run every stage anyway)
Test(derivative_fd, skipped_stages_are_full_steps) {
  mjModel* m = load(STAGES);
  mjData *d0 = mj_makeData(m), *d = mj_makeData(m);
  d0->qvel[3] = 0.3, d0->qvel[6] = 0.4, d0->act[0] = 0.2, d0->ctrl[0] = 0.5, d0->ctrl[1] = 0.1;
  d0->qpos[7] = 0.1;  // the arm at its upper limit
  mj_forward(m, d0);
  cr_assert(d0->ncon > 0 && d0->nefc > 4, "ncon %d nefc %d", d0->ncon, d0->nefc);
  int nq = m->nq, nv = m->nv, na = m->na, nu = m->nu, ns = m->nsensordata, ndx = 2 * nv + na;
  cr_assert(nv == 7 && na == 1 && nu == 2 && ns == 6);
  mjtNum A[15 * 15], B[15 * 2], C[6 * 15], D[6 * 2], eps = 1e-6;
  cr_assert_eq(mjd_transitionFD(m, d0, eps, 1, A, B, C, D), 0);
  // column k of the velocity, activation and control parts: (y(+eps) - y(-eps)) / (2 eps),
  // y = (qpos, qvel, act, sensordata) after a full step
  mjtNum y[2][8 + 7 + 1 + 6];
  for (int k = nv; k < ndx + nu; k++) {
    for (int side = 0; side < 2; side++) {
      setState(m, d0, d);
      mjtNum h = side ? -eps : eps;
      if (k < 2 * nv) d->qvel[k - nv] += h;
      else if (k < ndx) d->act[k - 2 * nv] += h;
      else d->ctrl[k - ndx] += h;
      mj_step(m, d);
      memcpy(y[side], d->qpos, sizeof(mjtNum) * nq);
      memcpy(y[side] + nq, d->qvel, sizeof(mjtNum) * nv);
      memcpy(y[side] + nq + nv, d->act, sizeof(mjtNum) * na);
      memcpy(y[side] + nq + nv + na, d->sensordata, sizeof(mjtNum) * ns);
    }
    mjtNum dq[7];
    mj_differentiatePos(m, dq, 2 * eps, y[1], y[0]);
    for (int r = 0; r < ndx + ns; r++) {
      int at = nq + r - nv;  // qvel, act, sensordata in y
      mjtNum want = r < nv ? dq[r] : (y[0][at] - y[1][at]) / (2 * eps);
      mjtNum got = k < ndx ? (r < ndx ? A[r * ndx + k] : C[(r - ndx) * ndx + k])
                           : (r < ndx ? B[r * nu + k - ndx] : D[(r - ndx) * nu + k - ndx]);
      cr_expect(got == want, "column %d row %d: %.17g, full steps %.17g", k, r, got, want);
    }
  }
  mj_deleteData(d);
  mj_deleteData(d0);
  mj_deleteModel(m);
}

// a model with history buffers (a delayed motor): the finite differences and the analytic
// path refuse it (MuJoCo's mjd_transitionFD refuses delays too), leaving A untouched
Test(derivative_fd, delays_refused) {
  char err[256];
  mjModel* m = mj_parseXMLString(
      "<mujoco><worldbody><body><joint name='j'/><geom size='.1'/></body></worldbody>"
      "<actuator><motor joint='j' nsample='2' delay='0.004'/></actuator></mujoco>",
      "late.xml", "", err, sizeof(err));
  cr_assert(m, "%s", err);
  mjData* d = mj_makeData(m);
  mj_forward(m, d);
  mjtNum A[4] = {7, 7, 7, 7}, f[1];
  cr_assert_eq(mjd_transitionFD(m, d, 1e-6, 0, A, NULL, NULL, NULL), -1);
  cr_assert(A[0] == 7 && A[3] == 7);
  cr_assert_eq(mjd_inverseFD(m, d, 1e-6, 0, f, NULL, NULL, NULL, NULL, NULL, NULL), -1);
  cr_assert_eq(mjd_checkAnalytic(m, d, err, sizeof(err)), -1);
  cr_assert_str_eq(err, "history buffers (nsample, delay): not differentiated yet");
  mj_deleteData(d);
  mj_deleteModel(m);
}
