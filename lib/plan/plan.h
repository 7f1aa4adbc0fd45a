// plan.h: the pieces of the planner shared by its files (the cost in lib/plan/cost.c, the
// norms in lib/plan/norm.c, iLQG in lib/plan/ilqg.c); the public mjp_ functions are declared
// in mj.h.
#ifndef MJ_PLAN_H
#define MJ_PLAN_H

#include "mj.h"

// MuJoCo MPC's norms, numbered as its NormType (4 is unused)
enum {
  mjNORM_NULL = -1, mjNORM_QUADRATIC = 0, mjNORM_L22 = 1, mjNORM_L2 = 2, mjNORM_COSH = 3,
  mjNORM_POWER = 5, mjNORM_SMOOTHABS = 6, mjNORM_SMOOTHABS2 = 7, mjNORM_RECTIFY = 8
};

// the number of parameters of norm type t, -1 for an unknown type
int mjp_normParams(int t);

// the norm's name ("smoothabs"), NULL for an unknown type
const char* mjp_normName(int t);

// the type named name (or its number), -2 for none
int mjp_normFind(const char* name);

// the norm t of x (n) with parameters p: its value, and when g and H are not NULL its
// gradient g (n) and Hessian H (n x n, row-major)
mjtNum mjp_norm(int t, const mjtNum* x, int n, const mjtNum* p, mjtNum* g, mjtNum* H);

// box-constrained quadratic program min 0.5 x'Hx + g'x, lo <= x <= hi (n <= mjMAXBOXQP),
// by projected Newton steps on the free set from the start x; on return x the solution,
// free[i] 1 for the rows off their bounds and R (n x n) the Cholesky factor (lower, row-major
// over the free rows, packed nf x nf) of H on them.  The number of free rows, or -1 when H
// is not positive definite on them
#define mjMAXBOXQP 64
int mjp_boxQP(mjtNum* x, mjtNum* R, int* free, const mjtNum* H, const mjtNum* g, int n,
              const mjtNum* lo, const mjtNum* hi);

#endif
