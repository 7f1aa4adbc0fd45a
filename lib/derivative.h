// derivative.h: the pieces of the analytic derivatives (lib/derivative.c) that the later
// stages (the constraint solve by the implicit function theorem, the sensors) build on; the
// public mjd_ functions are declared in mj.h.
#ifndef MJ_DERIVATIVE_H
#define MJ_DERIVATIVE_H

#include "mj.h"

// res(nv x nv, column k at res + k nv) += scl * d rne / d(q_k) (pos) or d(v_k) (!pos) of the
// inverse dynamics rne(q, v, a) = M(q) a + c(q, v) (gravity in c when `gravity`), where cvel
// (6 nbody) and cdofdot (6 nv) are mj_comVel's outputs at the velocity v; a position
// derivative moves everything after dof k by the motion cdof_k (the tangent of MuJoCo's qpos
// perturbation, quaternions rotating about local axes).  O(nv * subtree) for all columns
void mjd_rneDerivative(const mjModel* m, mjData* d, const mjtNum* v, const mjtNum* cvel,
                       const mjtNum* cdofdot, const mjtNum* a, int gravity, int pos,
                       mjtNum scl, mjtNum* res);

// the right Jacobian of SO(3) at the rotation vector r (inv: its inverse), 3x3 row-major:
// exp(r + e) = exp(r) exp(Jr(r) e) to first order in e
void mjd_rightJacobian(const mjtNum r[3], mjtNum J[9], int inv);

#endif
