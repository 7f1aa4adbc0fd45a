// plan.h: the pieces of the planner shared by its files (the cost in lib/plan/cost.c, the
// norms in lib/plan/norm.c, iLQG in lib/plan/ilqg.c, predictive sampling in
// lib/plan/sampling.c); the public mjp_ functions are declared in mj.h.
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

// ---- the planner: its state, shared by ilqg.c (iLQG) and sampling.c (predictive sampling) ----

#define MAXTHREAD 64
#define MAXROLLOUT 128
#define MINREG 1e-6
#define MAXREG 1e6
#define FAILCOST 1e6

// one trajectory of the planning model
typedef struct {
  mjtNum* times;            // T
  mjtNum* x;                // T x ns: qpos, qvel, act
  mjtNum* warm;             // T x nv: qacc_warmstart before each step
  mjtNum* u;                // T x nu
  mjtNum* r;                // T x nr
  mjtNum J;                 // the return
} Traj;

struct mjPlanner_ {
  const mjModel* m;
  const mjCost* c;
  int T, nthread, fd, centered, N;
  mjtNum eps;
  int nq, nv, na, nu, nx, ns, nr, nsd;

  // the start state
  mjtNum time0;
  mjtNum* x0;               // ns
  mjtNum* warm0;            // nv
  mjtNum* mocap;            // nmocap x 7: positions then quaternions

  // the policy: a trajectory and its feedback gains (T x nu x nx)
  Traj plan;
  mjtNum* K;

  // this iteration
  Traj cand[MAXROLLOUT];    // candidates of the rollouts
  mjtNum alpha[MAXROLLOUT]; // their scalings / step sizes
  Traj nom;                 // the nominal trajectory
  mjtNum* A, *B, *Rx, *Ru;  // per knot
  mjtNum* cx, *cu, *cxx, *cxu, *cuu;
  mjtNum* Kn, *du;          // the backward pass's gains and steps
  mjtNum dV[2];
  mjtNum mu, rate;
  const mjtNum* open;       // the actions of an open-loop rollout (mjp_evaluate)

  // predictive sampling (sampling.c): the nominal spline, its candidates' actions
  int npoint, interp;       // spline points, interpolation (mjSPLINE_*)
  mjtNum explore;           // noise: this fraction of half the control range
  uint64_t seed;            // the noise's seed
  long iter;                // sampling iterations so far (the noise's counter)
  int spline;               // the nominal spline holds the policy
  mjtNum* stimes;           // npoint: the nominal spline's times
  mjtNum* svals;            // npoint x nu: its values
  mjtNum* sold;             // npoint x (1 + nu): the previous spline's times, values
  mjtNum* sparam;           // N x npoint x nu: the candidates' values
  mjtNum* sact;             // N x T x nu: the candidates' actions at the knots

  // the knots' data of the policy's and open-loop rollouts when kept (the exact Jacobians,
  // Euler and implicit integrators, no history buffers, within a memory bound: allocKnots;
  // each step's forward pass stays valid for the knot's derivatives): per thread the running
  // candidate's (T) and the best one's so far
  int keep;
  mjData** kwork[MAXTHREAD], **kbest[MAXTHREAD];
  int kbestid[MAXTHREAD];   // the candidate in kbest, -1 none
  int kvalid[MAXTHREAD];    // how many of its first knots hold their forward pass
  mjData** knot;            // the nominal's (of nknot valid knots), NULL none
  int nknot;

  // per thread: data, sensor Jacobians, scratch
  mjData* d[MAXTHREAD];
  mjtNum* C[MAXTHREAD], *D[MAXTHREAD], *scratch[MAXTHREAD];
  char err[MAXTHREAD][256];

  mjpStats stats;
};

// seconds of a monotonic clock
double mjp_now(void);

// dst = src (trajectories of planner p)
void mjp_trajCopy(Traj* dst, const Traj* src, const mjPlanner* p);

// how a rollout chooses its actions: the policy (feedback scaled by alpha_i), the line search
// (nominal + alpha_i du + K dx), open loop (p->open), or candidate i's actions (p->sact)
enum { mjROLL_POLICY, mjROLL_LINE, mjROLL_OPEN, mjROLL_SAMPLE };

// the N rollouts of mode mjROLL_POLICY, _LINE or _SAMPLE from the start state, on the
// planner's threads: cand[i]
void mjp_rollouts(mjPlanner* p, int mode);

// release the knots' data (any allocated) and keep none: the plans stay the same
void mjp_freeKnots(mjPlanner* p);

// the candidate of the lowest finite return
int mjp_bestRollout(const mjPlanner* p);

// the policy's action at time tm without feedback (actions linear in time between the plan's
// knots), clamped to ctrlrange; scratch as policyAction's
void mjp_policyOpen(const mjPlanner* p, mjtNum* u, mjtNum tm, mjtNum* scratch);

#endif
