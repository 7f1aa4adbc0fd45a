// history.h: the history buffers of delayed actuators and sensors (history.c), shared by
// forward.c (the delayed control), sensor.c (the delayed and periodic readings), integrate.c
// (the samples written as the state advances) and model.c (their reset).
//
// A buffer of n samples of dim values is n >= 1 timestamps kept sorted in a ring:
//   [user, cursor, times(n), values(n x dim)]
// user: free for its owner (a sensor's time of its last computation), cursor: the physical
// index of the newest sample, times and values: sample k (0 oldest .. n-1 newest) at physical
// index (cursor + 1 + k) mod n.
#ifndef MJ_HISTORY_H
#define MJ_HISTORY_H

#include "mj.h"

// the buffers at reset: values 0; an actuator's timestamps -n dt .. -dt, a sensor's too
// without a period, else phase - (n-1) period .. phase (phase 0 read as -period) each rounded
// up to a multiple of dt, and its last computation at that phase (-dt without a period)
void mj_historyReset(const mjModel* m, mjData* d);

// the value slot (dim numbers) of the sample at time t in buffer buf, inserted in time order
// (the oldest dropped) unless one within mjMINVAL of t is there
mjtNum* mj_historyInsert(mjtNum* buf, int n, int dim, mjtNum t);

// the dim values of buffer buf at time t into res: the oldest before it, the newest after it,
// a sample within mjMINVAL of t as it is, else interpolated between its neighbours (interp 0
// the earlier one, 1 linearly, 2 a cubic Hermite spline with Catmull-Rom slopes, 0 at the ends)
void mj_historyRead(const mjtNum* buf, int n, int dim, mjtNum t, int interp, mjtNum* res);

// 1 when some sensor keeps a history buffer: a step that advances it needs the sensors, whose
// readings are its samples
int mj_sensorHistory(const mjModel* m);

// 1 when actuator i reads its control from its buffer: a nonzero delay and samples
int mj_ctrlDelayed(const mjModel* m, int i);

// actuator i's control delayed: its buffer at time - delay (with its interpolation)
mjtNum mj_delayedCtrl(const mjModel* m, const mjData* d, int i);

// sensor i's dim values delayed: its buffer at time - delay into res
void mj_delayedSensor(const mjModel* m, const mjData* d, int i, mjtNum* res);

// the samples of the state about to advance at d->time: each actuator's ctrl; each sensor's
// reading (computed again when delayed, else its sensordata), at its period's ticks only when
// periodic
void mj_historyAdvance(const mjModel* m, mjData* d);

#endif
