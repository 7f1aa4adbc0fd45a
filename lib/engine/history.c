// history.c: the history buffers of delayed actuators and sensors (history.h): their reset,
// the time-ordered insertion of a sample, the interpolated read at a time, and the samples
// written as the state advances.  MuJoCo's semantics (modeling chapter, Delays): a delayed
// actuator reads its control at time - delay, a delayed sensor its reading; a periodic sensor
// is computed at its ticks only and otherwise holds (reads) its last sample.
#include "engine/history.h"

#include <math.h>

#include "engine/forward.h"
#include "util/util.h"

// ---- one buffer ------------------------------------------------------------------------------

// physical index of sample k (0 the oldest) of a ring whose newest sample is at cursor
static int slot(int cursor, int n, int k) {
  return (cursor + 1 + k) % n;
}

// the first sample k whose time is >= t: 0 when t is at or before the oldest, n after the
// newest (bisection on the sorted ring: times[k-1] < t <= times[k])
static int findSample(const mjtNum* times, int n, int cursor, mjtNum t) {
  if (t <= times[slot(cursor, n, 0)]) return 0;
  if (t > times[slot(cursor, n, n - 1)]) return n;
  int lo = 0, hi = n - 1;  // times[lo] < t <= times[hi]
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (times[slot(cursor, n, mid)] < t)
      lo = mid;
    else
      hi = mid;
  }
  return hi;
}

// insert in time order (history.h)
mjtNum* mj_historyInsert(mjtNum* buf, int n, int dim, mjtNum t) {
  int cursor = (int)buf[1];
  mjtNum *times = buf + 2, *values = buf + 2 + n;
  int k = findSample(times, n, cursor, t);

  // a sample at t already: overwritten
  if (k < n && fabs(t - times[slot(cursor, n, k)]) < mjMINVAL)
    return values + slot(cursor, n, k) * dim;

  // before every sample: it replaces the oldest
  if (k == 0) {
    int p = slot(cursor, n, 0);
    times[p] = t;
    return values + p * dim;
  }

  // after every sample: the ring turns, the oldest slot becoming the newest
  if (k == n) {
    cursor = (cursor + 1) % n;
    buf[1] = cursor;
    times[cursor] = t;
    return values + cursor * dim;
  }

  // between samples k-1 and k: samples 1..k-1 move down one (the oldest dropped), t at k-1
  for (int j = 0; j < k - 1; j++) {
    int to = slot(cursor, n, j), from = slot(cursor, n, j + 1);
    times[to] = times[from];
    mju_copy(values + to * dim, values + from * dim, dim);
  }
  int p = slot(cursor, n, k - 1);
  times[p] = t;
  return values + p * dim;
}

// read at time t (history.h); with lo, hi the samples around t and a = (t - t_lo)/(t_hi - t_lo):
//   linear  v_lo + a (v_hi - v_lo)
//   cubic   (2a^3 - 3a^2 + 1) v_lo + (a^3 - 2a^2 + a) dt s_lo + (3a^2 - 2a^3) v_hi
//           + (a^3 - a^2) dt s_hi,  s the central difference over the neighbours (0 at ends)
void mj_historyRead(const mjtNum* buf, int n, int dim, mjtNum t, int interp, mjtNum* res) {
  int cursor = (int)buf[1];
  const mjtNum *times = buf + 2, *values = buf + 2 + n;
  int first = slot(cursor, n, 0), last = slot(cursor, n, n - 1);

  // outside the samples: the nearest end held
  if (t <= times[first] + mjMINVAL) {
    mju_copy(res, values + first * dim, dim);
    return;
  }
  if (t >= times[last] - mjMINVAL) {
    mju_copy(res, values + last * dim, dim);
    return;
  }

  // a sample at t, else the earlier neighbour for zero-order hold
  int k = findSample(times, n, cursor, t);
  int hi = slot(cursor, n, k), lo = slot(cursor, n, k - 1);
  if (fabs(t - times[hi]) < mjMINVAL || interp == 0) {
    mju_copy(res, values + (fabs(t - times[hi]) < mjMINVAL ? hi : lo) * dim, dim);
    return;
  }
  mjtNum dt = times[hi] - times[lo], a = (t - times[lo]) / dt;
  const mjtNum *vlo = values + lo * dim, *vhi = values + hi * dim;
  if (interp == 1) {
    for (int j = 0; j < dim; j++) res[j] = vlo[j] + a * (vhi[j] - vlo[j]);
    return;
  }

  // cubic Hermite basis and the Catmull-Rom slopes
  mjtNum a2 = a * a, a3 = a2 * a;
  mjtNum h00 = 2 * a3 - 3 * a2 + 1, h10 = a3 - 2 * a2 + a, h01 = -2 * a3 + 3 * a2, h11 = a3 - a2;
  int before = k > 1 ? slot(cursor, n, k - 2) : -1, after = k < n - 1 ? slot(cursor, n, k + 1) : -1;
  for (int j = 0; j < dim; j++) {
    mjtNum slo = 0, shi = 0;
    if (before >= 0) slo = (vhi[j] - values[before * dim + j]) / (times[hi] - times[before]);
    if (after >= 0) shi = (values[after * dim + j] - vlo[j]) / (times[after] - times[lo]);
    res[j] = h00 * vlo[j] + h10 * dt * slo + h01 * vhi[j] + h11 * dt * shi;
  }
}

// ---- the model's buffers ---------------------------------------------------------------------

// the reset of every buffer (history.h)
void mj_historyReset(const mjModel* m, mjData* d) {
  mjtNum dt = m->opt.timestep;
  for (int i = 0; i < m->nu; i++) {
    int n = m->actuator_history[2 * i];
    if (n <= 0) continue;
    mjtNum* buf = d->history + m->actuator_historyadr[i];
    buf[0] = 0;
    buf[1] = n - 1;
    for (int j = 0; j < n; j++) buf[2 + j] = -(n - j) * dt;
    mju_zero(buf + 2 + n, n);
  }
  for (int i = 0; i < m->nsensor; i++) {
    int n = m->sensor_history[2 * i], dim = m->sensor_dim[i];
    if (n <= 0) continue;
    mjtNum* buf = d->history + m->sensor_historyadr[i];
    mjtNum period = m->sensor_interval[2 * i], phase = m->sensor_interval[2 * i + 1];

    // periodic: the ticks ..., t0 - period, t0 with t0 the phase (0: -period, so that the
    // first computation is at time 0), each at the first step not before it
    mjtNum t0 = phase == 0 ? -period : phase;
    buf[0] = period > 0 ? t0 : -dt;
    buf[1] = n - 1;
    for (int j = 0; j < n; j++)
      buf[2 + j] = period > 0 ? ceil((t0 - (n - 1 - j) * period) / dt) * dt : -(n - j) * dt;
    mju_zero(buf + 2 + n, n * dim);
  }
}

// a sensor with a history buffer (history.h)
int mj_sensorHistory(const mjModel* m) {
  for (int i = 0; i < m->nsensor; i++)
    if (m->sensor_history[2 * i] > 0) return 1;
  return 0;
}

// delayed reading of actuator i (history.h)
int mj_ctrlDelayed(const mjModel* m, int i) {
  return m->actuator_delay[i] != 0 && m->actuator_history[2 * i] > 0;
}

// actuator i's buffer at time - delay (history.h)
mjtNum mj_delayedCtrl(const mjModel* m, const mjData* d, int i) {
  mjtNum u;
  mj_historyRead(d->history + m->actuator_historyadr[i], m->actuator_history[2 * i], 1,
                 d->time - m->actuator_delay[i], m->actuator_history[2 * i + 1], &u);
  return u;
}

// sensor i's buffer at time - delay (history.h)
void mj_delayedSensor(const mjModel* m, const mjData* d, int i, mjtNum* res) {
  mj_historyRead(d->history + m->sensor_historyadr[i], m->sensor_history[2 * i], m->sensor_dim[i],
                 d->time - m->sensor_delay[i], m->sensor_history[2 * i + 1], res);
}

// the samples at d->time (history.h)
void mj_historyAdvance(const mjModel* m, mjData* d) {
  if (!m->nhistory) return;

  // controls as set (unclamped)
  for (int i = 0; i < m->nu; i++) {
    int n = m->actuator_history[2 * i];
    if (n > 0)
      *mj_historyInsert(d->history + m->actuator_historyadr[i], n, 1, d->time) = d->ctrl[i];
  }

  // MuJoCo runs mj_rnePostConstraint lazily: when the step's sensor pass computed none of the
  // acceleration sensors reading it (all delayed, or sensors disabled), the first delayed one
  // runs it again on what d holds (RK4: its last stage's kinematics and accelerations)
  int post = 0;
  for (int i = 0; i < m->nsensor; i++) {
    int delayed = m->sensor_history[2 * i] > 0 && m->sensor_delay[i] > 0;
    if (mj_sensorPostConstraint(m, i) && m->sensor_needstage[i] == mjSTAGE_ACC && !delayed)
      post = !(m->opt.disableflags & mjDSBL_SENSOR);
  }

  // sensors: a delayed one computed again (its sensordata holds the delayed reading), another
  // copied from sensordata; a periodic one at its ticks only, its tick moved on by the period
  for (int i = 0; i < m->nsensor; i++) {
    int n = m->sensor_history[2 * i], dim = m->sensor_dim[i];
    if (n <= 0) continue;
    mjtNum* buf = d->history + m->sensor_historyadr[i];
    mjtNum period = m->sensor_interval[2 * i];
    if (period > 0) {
      if (buf[0] + period > d->time) continue;
      buf[0] += period;
    }
    mjtNum* out = mj_historyInsert(buf, n, dim, d->time);
    if (m->sensor_delay[i] > 0 && mj_sensorPostConstraint(m, i) && !post) {
      mj_rnePostConstraint(m, d);
      post = 1;
    }
    if (m->sensor_delay[i] > 0)
      mj_computeSensor(m, d, i, out);
    else
      mju_copy(out, d->sensordata + m->sensor_adr[i], dim);
  }
}
