// derivative_sensor.c: the sensor Jacobians C = ds/dx and D = ds/du of the analytic path
// (derivative.h).  The sensors are those of the forward pass at the state x = (dq, v, act)
// (the pass mj_step starts with), so each is differentiated at x from what that pass
// computed and from the derivatives of its outputs the rest of the path has: Y = d qacc /
// d(x, u) and df = d efc_force / d(x, u), column-major nv x ncol and nefc x ncol with
// ncol = 2 nv + na + nu (q columns, v columns, act columns, u columns).
//   Position sensors depend on q only, velocity sensors on q and v, acceleration sensors
// on everything through qacc and the constraint forces.  A sensor clamped at its cutoff
// has a zero row.
#include "derivative.h"

#include <stdio.h>

#include "util.h"

// ---- what is differentiated --------------------------------------------------------------------

// 1 when sensor s's type (and object) is differentiated
static int sensorDifferentiated(const mjModel* m, int s) {
  int id = m->sensor_objid[s];
  switch (m->sensor_type[s]) {
    case mjSENS_JOINTPOS:
    case mjSENS_JOINTVEL:
      return m->jnt_type[id] == mjJNT_HINGE || m->jnt_type[id] == mjJNT_SLIDE;
    case mjSENS_TENDONPOS:
    case mjSENS_TENDONVEL:
      return mjd_tendonFixed(m, id);
    case mjSENS_CLOCK:
      return 1;
    default:
      return 0;
  }
}

// 0 when every sensor of m is differentiated, else -1 and a message naming the first
int mjd_checkSensor(const mjModel* m, char* err, int errsz) {
  for (int s = 0; s < m->nsensor; s++) {
    if (sensorDifferentiated(m, s)) continue;
    const char* name = mj_id2name(m, mjOBJ_SENSOR, s);
    if (name && name[0]) snprintf(err, errsz, "sensor '%s': not differentiated yet", name);
    else snprintf(err, errsz, "sensor %d: not differentiated yet", s);
    return -1;
  }
  return 0;
}

// the numbers mjd_sensorDeriv takes from d's stack
size_t mjd_sensorStack(const mjModel* m, const mjData* d) {
  (void)d;
  return (size_t)m->nv + 16;
}

// ---- the rows ----------------------------------------------------------------------------------

// C (nsensordata x ndx) and D (nsensordata x nu), row-major, either NULL, of the sensors of
// d's forward pass from Y = d qacc/d(x, u) and df = d efc_force/d(x, u) (derivative.h)
void mjd_sensorDeriv(const mjModel* m, mjData* d, const mjtNum* Y, const mjtNum* df,
                     mjtNum* C, mjtNum* D) {
  int nv = m->nv, nu = m->nu, ndx = 2 * nv + m->na, ncol = ndx + nu;
  (void)Y, (void)df;
  size_t mark = mj_markStack(d);
  mjtNum* row = mj_stackAlloc(d, (size_t)ncol);
  for (int s = 0; s < m->nsensor; s++) {
    int id = m->sensor_objid[s], adr = m->sensor_adr[s];
    for (int k = 0; k < m->sensor_dim[s]; k++) {
      // the row of output k over (x, u)
      mju_zero(row, ncol);
      switch (m->sensor_type[s]) {
        case mjSENS_JOINTPOS: row[m->jnt_dofadr[id]] = 1; break;
        case mjSENS_JOINTVEL: row[nv + m->jnt_dofadr[id]] = 1; break;
        case mjSENS_TENDONPOS: mju_copy(row, d->ten_J + (size_t)id * nv, nv); break;
        case mjSENS_TENDONVEL: mju_copy(row + nv, d->ten_J + (size_t)id * nv, nv); break;
        default: break;
      }

      // clamped at the cutoff: no slope
      mjtNum cut = m->sensor_cutoff[s], val = d->sensordata[adr + k];
      int dt = m->sensor_datatype[s];
      if (cut > 0 && (dt == mjDATATYPE_REAL || dt == mjDATATYPE_POSITIVE) &&
          m->sensor_type[s] != mjSENS_CONTACT && (val >= cut || (dt == mjDATATYPE_REAL &&
                                                                 val <= -cut)))
        mju_zero(row, ncol);
      if (C) mju_copy(C + (size_t)(adr + k) * ndx, row, ndx);
      if (D) mju_copy(D + (size_t)(adr + k) * nu, row + ndx, nu);
    }
  }
  mj_freeStack(d, mark);
}
