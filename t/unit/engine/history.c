// t/unit/engine/history.c: the history buffers of delays (lib/engine/history.c) against
// independent computations: the ring's insertion in time order, the reads (zero-order hold,
// linear, cubic Hermite with Catmull-Rom slopes) and the reset of a model's buffers as
// MuJoCo 3.14's modeling chapter gives it (the trajectories are compared with MuJoCo in
// t/oracle/history).
#include "engine/history.h"

#include <criterion/criterion.h>
#include <math.h>

#include "mj.h"

// a buffer of n samples of dim values: times t[k], values v[k*dim..], the ring turned by
// `turn` slots (the same samples at other physical places)
static void fill(mjtNum* buf, int n, int dim, const mjtNum* t, const mjtNum* v, int turn) {
  buf[0] = 0;
  buf[1] = (n - 1 + turn) % n;
  for (int k = 0; k < n; k++) {
    int p = (k + turn) % n;
    buf[2 + p] = t[k];
    for (int j = 0; j < dim; j++) buf[2 + n + p * dim + j] = v[k * dim + j];
  }
}

// the samples in time order back out of the ring
static void unfill(const mjtNum* buf, int n, int dim, mjtNum* t, mjtNum* v) {
  int cursor = (int)buf[1];
  for (int k = 0; k < n; k++) {
    int p = (cursor + 1 + k) % n;
    t[k] = buf[2 + p];
    for (int j = 0; j < dim; j++) v[k * dim + j] = buf[2 + n + p * dim + j];
  }
}

// insertion: after the newest drops the oldest, between two drops the oldest and keeps the
// order, at an existing time overwrites it, before the oldest replaces it; at every turn
Test(history, insert) {
  const mjtNum t[4] = {1, 2, 3, 4}, v[4] = {10, 20, 30, 40};
  struct {
    mjtNum at, want_t[4], want_v[4];
  } cases[] = {{5, {2, 3, 4, 5}, {20, 30, 40, -1}},
               {2.5, {2, 2.5, 3, 4}, {20, -1, 30, 40}},
               {3, {1, 2, 3, 4}, {10, 20, -1, 40}},
               {0.5, {0.5, 2, 3, 4}, {-1, 20, 30, 40}}};
  for (int c = 0; c < 4; c++)
    for (int turn = 0; turn < 4; turn++) {
      mjtNum buf[2 + 8], tt[4], vv[4];
      fill(buf, 4, 1, t, v, turn);
      *mj_historyInsert(buf, 4, 1, cases[c].at) = -1;
      unfill(buf, 4, 1, tt, vv);
      for (int k = 0; k < 4; k++) {
        cr_assert_eq(tt[k], cases[c].want_t[k], "case %d turn %d time %d: %g", c, turn, k, tt[k]);
        // the value slot of a time before the oldest keeps its old number (written by caller)
        cr_assert_eq(vv[k], cases[c].want_v[k], "case %d turn %d value %d: %g", c, turn, k, vv[k]);
      }
    }
}

// reads of 2-vectors: the ends held outside, exact samples, and between samples 1 and 2
// (times 0.1, 0.3) at 0.25: zoh the earlier, linear a = 0.75, cubic the Hermite spline with
// slopes (v2 - v0)/(t2 - t0) and (v3 - v1)/(t3 - t1)
Test(history, read) {
  const mjtNum t[4] = {0, 0.1, 0.3, 0.6};
  const mjtNum v[8] = {1, -1, 2, 0, 5, 4, 3, 1};
  for (int turn = 0; turn < 4; turn++) {
    mjtNum buf[2 + 12], r[2];
    fill(buf, 4, 2, t, v, turn);
    mj_historyRead(buf, 4, 2, -1, 1, r);
    cr_assert(r[0] == 1 && r[1] == -1);
    mj_historyRead(buf, 4, 2, 7, 2, r);
    cr_assert(r[0] == 3 && r[1] == 1);
    mj_historyRead(buf, 4, 2, 0.3, 1, r);
    cr_assert(r[0] == 5 && r[1] == 4);
    mj_historyRead(buf, 4, 2, 0.25, 0, r);
    cr_assert(r[0] == 2 && r[1] == 0);
    mj_historyRead(buf, 4, 2, 0.25, 1, r);
    cr_assert(fabs(r[0] - 4.25) < 1e-15 && fabs(r[1] - 3) < 1e-15, "%g %g", r[0], r[1]);
    mj_historyRead(buf, 4, 2, 0.25, 2, r);
    for (int j = 0; j < 2; j++) {
      mjtNum a = 0.75, h = 0.2, p0 = v[2 + j], p1 = v[4 + j];
      mjtNum m0 = (v[4 + j] - v[j]) / 0.3, m1 = (v[6 + j] - v[2 + j]) / 0.5;
      mjtNum want = (2 * a * a * a - 3 * a * a + 1) * p0 + (a * a * a - 2 * a * a + a) * h * m0 +
                    (-2 * a * a * a + 3 * a * a) * p1 + (a * a * a - a * a) * h * m1;
      cr_assert(fabs(r[j] - want) < 1e-14, "cubic %d: %.17g vs %.17g", j, r[j], want);
    }
  }
}

// the cubic's slope is 0 at the ends: between the first two samples the spline starts flat
Test(history, cubicEnds) {
  const mjtNum t[3] = {0, 1, 2}, v[3] = {0, 1, 5};
  mjtNum buf[2 + 6], r;
  fill(buf, 3, 1, t, v, 1);
  mj_historyRead(buf, 3, 1, 0.5, 2, &r);
  // h00(.5) 0 + h10(.5) 0 + h01(.5) 1 + h11(.5) 1 (5 - 0)/2 = 0.5 - 0.125 * 2.5
  cr_assert(fabs(r - (0.5 - 0.125 * 2.5)) < 1e-15, "%.17g", r);
}

// reset: an actuator's timestamps -n dt .. -dt; a sensor's with period 0.025, phase 0
// (read as -period) at dt 0.01: ceil((-0.025 - k 0.025) / dt) dt, its tick at -0.025; values 0
Test(history, reset) {
  char err[256];
  mjModel* m = mj_parseXMLString(
      "<mujoco><option timestep='0.01'/><worldbody><body><joint name='j' type='slide'/>"
      "<geom size='.1'/></body></worldbody><actuator><motor joint='j' nsample='3'/></actuator>"
      "<sensor><framepos objtype='body' objname='world' nsample='3' interval='0.025'/>"
      "</sensor></mujoco>",
      "test.xml", "", err, sizeof(err));
  cr_assert(m, "%s", err);
  mjData* d = mj_makeData(m);
  cr_assert_eq(m->nhistory, 8 + 14);
  const mjtNum* a = d->history + m->actuator_historyadr[0];
  cr_assert(a[1] == 2 && fabs(a[2] + 0.03) < 1e-15 && fabs(a[3] + 0.02) < 1e-15 &&
            fabs(a[4] + 0.01) < 1e-15);
  const mjtNum* s = d->history + m->sensor_historyadr[0];
  const mjtNum want[3] = {-0.07, -0.05, -0.02};
  cr_assert(fabs(s[0] + 0.025) < 1e-15, "tick %g", s[0]);
  for (int k = 0; k < 3; k++)
    cr_assert(fabs(s[2 + k] - want[k]) < 1e-12, "time %d: %g", k, s[2 + k]);
  for (int k = 0; k < 9; k++) cr_assert_eq(s[5 + k], 0);
  mj_deleteData(d);
  mj_deleteModel(m);
}
