// t/unit/derivative/derivative_common.h: what the analytic derivatives' tests share
// (t/unit/derivative/derivative.c, t/unit/derivative/derivative_sensor.c): a reproducible state and
// the relative error measure.
#ifndef T_DERIVATIVE_COMMON_H
#define T_DERIVATIVE_COMMON_H

#include <criterion/criterion.h>
#include <math.h>

#include "mj.h"
#include "util/util.h"

// m with the Newton solver to tolerance 0, MuJoCo's request for an exact solve (the derivative
// is that of the exact solution; any tolerance lets the Newton decrement stop a solve farther
// off than the differences tolerate; PGS's slow convergence leaves them noisy)
static mjModel* exactSolver(mjModel* m) {
  m->opt.solver = mjSOL_NEWTON;
  m->opt.tolerance = 0;
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

// a site-to-site spatial tendon over three bodies carrying forces: a spring outside its dead
// band and a damper, a muscle ('m') and an affine actuator ('g') with length and velocity
// terms on it; %s: options, %s: a sensor block
static const char* SPATIAL_FMT =
    "<mujoco><option timestep='0.005' %s/><worldbody><site name='s0' pos='0.1 0.05 1.1'/>"
    "<body pos='0 0 1'><joint name='a' axis='0 1 0' damping='0.1'/>"
    "<inertial pos='0 0 -0.3' mass='1' diaginertia='0.02 0.02 0.01'/>"
    "<site name='s1' pos='0.08 0 -0.3'/>"
    "<body pos='0 0 -0.6'><joint name='b' axis='1 0 0'/>"
    "<inertial pos='0 0.1 -0.2' mass='0.8' diaginertia='0.01 0.02 0.01'/>"
    "<site name='s2' pos='0.05 0.06 -0.25'/></body></body></worldbody>"
    "<tendon><spatial name='t' stiffness='30' springlength='0.6 0.65' damping='0.4'>"
    "<site site='s0'/><site site='s1'/><site site='s2'/></spatial></tendon><actuator>"
    "<muscle name='m' tendon='t' ctrlrange='0 1' lengthrange='0.5 1' force='20'/>"
    "<general name='g' tendon='t' gear='1.5' gaintype='affine' gainprm='2 -1 -0.5'"
    " biastype='affine' biasprm='0.2 -3 -0.4'/></actuator>%s</mujoco>";

// the spatial model's muscle activation and controls inside their ranges
static void spatialInputs(const mjModel* m, mjData* d) {
  (void)m;
  d->act[0] = 0.4;
  d->ctrl[0] = 0.7;
  d->ctrl[1] = 0.3;
}

#endif
