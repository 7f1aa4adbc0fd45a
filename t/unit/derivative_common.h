// t/unit/derivative_common.h: what the analytic derivatives' tests share (t/unit/derivative.c,
// t/unit/derivative_sensor.c): a reproducible state and the relative error measure.
#ifndef T_DERIVATIVE_COMMON_H
#define T_DERIVATIVE_COMMON_H

#include <criterion/criterion.h>
#include <math.h>

#include "mj.h"
#include "util.h"

// m with the Newton solver to tolerance 1e-15 (the derivative is that of the exact solution;
// PGS's slow convergence leaves the differences noisy)
static mjModel* exactSolver(mjModel* m) {
  m->opt.solver = mjSOL_NEWTON;
  m->opt.tolerance = 1e-15;
  m->opt.iterations = 200;
  return m;
}

// the model of file (asserted to load) with the exact solver
static mjModel* loadExact(const char* file) {
  char err[300];
  mjModel* m = mj_loadXML(file, err, sizeof(err));
  cr_assert_not_null(m, "%s: %s", file, err);
  return exactSolver(m);
}

// a reproducible state: qpos moved along every dof by 0.4 sin(1.3 i + 0.2), qvel, act and ctrl
// from other phases
static void setState(const mjModel* m, mjData* d) {
  mjtNum e[m->nv];
  for (int i = 0; i < m->nv; i++) {
    mju_zero(e, m->nv);
    e[i] = 1;
    mj_integratePos(m, d->qpos, e, 0.4 * sin(1.3 * i + 0.2));
    d->qvel[i] = 1.1 * cos(0.7 * i + 0.5);
  }
  for (int i = 0; i < m->na; i++) d->act[i] = 0.3 * sin(2.1 * i + 1);
  for (int i = 0; i < m->nu; i++) d->ctrl[i] = 0.8 * cos(1.7 * i + 0.3);
}

// the scale of column c of (x, u) at (q, v, a, u): max(1, |value|) (hinge and slide
// positions, velocities, activations, controls), 1 for a ball's or free joint's dofs
static mjtNum columnScale(const mjModel* m, int c, const mjtNum* q, const mjtNum* v,
                          const mjtNum* a, const mjtNum* u) {
  int nv = m->nv, ndx = 2 * nv + m->na, j = c < nv ? m->dof_jntid[c] : 0;
  if (c < nv)
    return m->jnt_type[j] == mjJNT_HINGE || m->jnt_type[j] == mjJNT_SLIDE
               ? fmax(1, fabs(q[m->jnt_qposadr[j]])) : 1;
  return fmax(1, fabs(c < 2 * nv ? v[c - nv] : c < ndx ? a[c - 2 * nv] : u[c - ndx]));
}

// (q, v, a, u) moved by h along column c of (x, u): q along dof c's tangent, or the entry
static void perturb(const mjModel* m, int c, mjtNum h, mjtNum* q, mjtNum* v, mjtNum* a,
                    mjtNum* u) {
  int nv = m->nv, ndx = 2 * nv + m->na;
  mjtNum e[nv];
  if (c < nv) {
    mju_zero(e, nv);
    e[c] = 1;
    mj_integratePos(m, q, e, h);
  } else if (c < 2 * nv) {
    v[c - nv] += h;
  } else if (c < ndx) {
    a[c - 2 * nv] += h;
  } else {
    u[c - ndx] += h;
  }
}

// max |x - ref| / max(1, max |ref|) over n entries
static mjtNum relErr(const mjtNum* x, const mjtNum* ref, int n) {
  mjtNum err = 0, scale = 1;
  for (int i = 0; i < n; i++) scale = fmax(scale, fabs(ref[i]));
  for (int i = 0; i < n; i++) err = fmax(err, fabs(x[i] - ref[i]));
  return err / scale;
}

#endif
