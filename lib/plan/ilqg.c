// ilqg.c: iterative LQG (MuJoCo MPC's iLQG planner) on a planning model and a cost.  One
// iteration (mjp_optimize) from the start state set by mjp_setState:
//   1. nominal rollouts of the current policy (continuous time: actions and feedback gains
//      interpolated in time) with feedback scalings alpha_i; the best is the nominal x_t, u_t
//   2. the step's Jacobians A_t, B_t and the sensors' C_t, D_t at every knot, exact
//      (mjd_transitionSmoothSkip) or by MuJoCo's finite differences (mjd_transitionFD), and the
//      residual's Jacobians from them
//   3. Gauss-Newton cost derivatives, weights divided by the horizon T
//   4. the backward pass: Q = c + A'V' ..., the control step of the box QP
//      min 0.5 du'(Quu + mu I)du + Qu'du within the control limits, K = -Quu_f^-1 Qxu_f' on
//      the free rows, V = Qx + K'(Quu du + Qu) + Qxu du, Vxx = Qxx + K'QuuK + QxuK + (QxuK)';
//      a factor that fails raises mu and retries (at most 5 times)
//   5. line search: discrete-time rollouts u_t = clamp(u_t + alpha_i du_t + K_t (x_t - xnom_t))
//      for alpha_i log-spaced in [1e-3, 1] and 0, the lowest return wins
//   6. mu adapted to the ratio of the improvement to the expected one.
// A rollout's return is the mean stage cost over its T knots: r_t at (x_t, u_t) from the
// forward pass of step t, the last at x_{T-1} with u_{T-2}; a simulation warning makes it 1e6.
// Rollouts and knots run on the planner's threads, each item on its own data, so results do
// not depend on the number of threads.  The policy's and open-loop rollouts step each knot on
// its own data (exact Jacobians, Euler and implicit integrators, no history buffers:
// allocKnots), and the winner's are kept: the exact Jacobians at a knot then start from the
// forward pass already made there instead of running it again.
#include "plan/plan.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/solver.h"
#include "util/util.h"
#include "util/util_file.h"

// seconds of a monotonic clock
double mjp_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

// ---- memory --------------------------------------------------------------------------------------

// the trajectory's arrays, 0 or -1 when out of memory
static int trajAlloc(Traj* t, const mjPlanner* p) {
  t->times = calloc((size_t)p->T, sizeof(mjtNum));
  t->x = calloc((size_t)(p->T * p->ns), sizeof(mjtNum));
  t->warm = calloc((size_t)(p->T * p->nv) + 1, sizeof(mjtNum));
  t->u = calloc((size_t)(p->T * p->nu) + 1, sizeof(mjtNum));
  t->r = calloc((size_t)(p->T * p->nr) + 1, sizeof(mjtNum));
  return t->times && t->x && t->warm && t->u && t->r ? 0 : -1;
}

static void trajFree(Traj* t) { free(t->times), free(t->x), free(t->warm), free(t->u), free(t->r); }

// dst = src (same planner)
void mjp_trajCopy(Traj* dst, const Traj* src, const mjPlanner* p) {
  memcpy(dst->times, src->times, sizeof(mjtNum) * p->T);
  memcpy(dst->x, src->x, sizeof(mjtNum) * p->T * p->ns);
  memcpy(dst->warm, src->warm, sizeof(mjtNum) * p->T * p->nv);
  memcpy(dst->u, src->u, sizeof(mjtNum) * p->T * p->nu);
  memcpy(dst->r, src->r, sizeof(mjtNum) * p->T * p->nr);
  dst->J = src->J;
}

void mjp_freeKnots(mjPlanner* p) {
  for (int i = 0; i < p->nthread; i++) {
    for (int t = 0; t < p->T && p->kwork[i]; t++) mj_deleteData(p->kwork[i][t]);
    for (int t = 0; t < p->T && p->kbest[i]; t++) mj_deleteData(p->kbest[i][t]);
    free(p->kwork[i]), free(p->kbest[i]);
    p->kwork[i] = p->kbest[i] = NULL;
  }
  p->keep = 0, p->knot = NULL, p->nknot = 0;
}

// the knots' data kept (two per knot and thread: see plan.h) when it helps and fits: the
// exact Jacobians (differences run their own forward pass), Euler or implicit (RK4's
// Jacobians need their own stages), no history buffers (mj_step advances them), and the
// arrays of all of them within KEEPBYTES (the stacks only as far as a step touches them);
// else, or when out of memory, none kept, the same plans
#define KEEPBYTES ((size_t)512 << 20)
static void allocKnots(mjPlanner* p) {
  const mjModel* m = p->m;
  size_t arrays = (size_t)((char*)p->d[0]->stack - (char*)p->d[0]->buffer);
  p->keep = !p->fd && m->opt.integrator != mjINT_RK4 && !m->nhistory &&
            arrays * 2 * p->T * p->nthread <= KEEPBYTES;
  int ok = 1;
  for (int i = 0; i < p->nthread && p->keep && ok; i++) {
    ok = (p->kwork[i] = calloc((size_t)p->T, sizeof(mjData*))) &&
         (p->kbest[i] = calloc((size_t)p->T, sizeof(mjData*)));
    for (int t = 0; t < p->T && ok; t++)
      ok = (p->kwork[i][t] = mj_makeData(m)) && (p->kbest[i][t] = mj_makeData(m));
  }
  if (!ok) mjp_freeKnots(p);
}

// release a planner
void mjp_deletePlanner(mjPlanner* p) {
  if (!p) return;
  trajFree(&p->plan), trajFree(&p->nom);
  for (int i = 0; i < p->N; i++) trajFree(p->cand + i);
  mjp_freeKnots(p);
  for (int i = 0; i < p->nthread; i++) {
    mj_deleteData(p->d[i]);
    free(p->C[i]), free(p->D[i]), free(p->scratch[i]);
  }
  free(p->x0), free(p->warm0), free(p->mocap), free(p->K), free(p->A), free(p->B), free(p->Rx);
  free(p->Ru), free(p->cx), free(p->cu), free(p->cxx), free(p->cxu), free(p->cuu), free(p->Kn);
  free(p->du), free(p->stimes), free(p->svals), free(p->sold), free(p->sparam), free(p->sact);
  free(p);
}

// a planner of T knots for model m (the planning model, its timestep the knots' spacing) and
// cost c (bound to m), with nrollout rollouts (MuJoCo MPC: 10) on nthread threads; fd: finite
// differences (centered, eps) instead of the exact Jacobians.  Starts from m's default state
// with zero actions.  NULL and a message on failure
mjPlanner* mjp_makePlanner(const mjModel* m, const mjCost* c, int T, int nrollout, int nthread,
                           int fd, int centered, mjtNum eps, char* err, int errsz) {
  if (T < 2 || T > 100000) { mj_ioError(err, errsz, "horizon of %d knots: at least 2", T); return NULL; }
  if (nrollout < 2 || nrollout > MAXROLLOUT) { mj_ioError(err, errsz, "rollouts: between 2 and %d", MAXROLLOUT); return NULL; }
  if (nthread < 1 || nthread > MAXTHREAD) { mj_ioError(err, errsz, "threads: between 1 and %d", MAXTHREAD); return NULL; }
  if (m->nu < 1 || m->nu > mjMAXBOXQP) { mj_ioError(err, errsz, "the model needs 1 to %d actuators to plan (it has %d)", mjMAXBOXQP, m->nu); return NULL; }
  mjPlanner* p = calloc(1, sizeof(mjPlanner));
  if (!p) { mj_ioError(err, errsz, "out of memory"); return NULL; }
  p->m = m, p->c = c, p->T = T, p->N = nrollout, p->nthread = nthread;
  p->fd = fd, p->centered = centered, p->eps = eps;
  p->nq = m->nq, p->nv = m->nv, p->na = m->na, p->nu = m->nu;
  p->nx = 2 * m->nv + m->na, p->ns = m->nq + m->nv + m->na;
  p->nr = mjp_costResiduals(c), p->nsd = m->nsensordata;
  int nx = p->nx, nu = p->nu, nr = p->nr, ok = 1;
  ok &= !trajAlloc(&p->plan, p) && !trajAlloc(&p->nom, p);
  for (int i = 0; i < p->N; i++) ok &= !trajAlloc(p->cand + i, p);
#define ALLOC(ptr, n) ok &= !!(ptr = calloc((size_t)(n) + 1, sizeof(mjtNum)))
  ALLOC(p->x0, p->ns); ALLOC(p->warm0, p->nv); ALLOC(p->mocap, 7 * m->nmocap);
  ALLOC(p->K, T * nu * nx); ALLOC(p->Kn, T * nu * nx); ALLOC(p->du, T * nu);
  ALLOC(p->A, T * nx * nx); ALLOC(p->B, T * nx * nu);
  ALLOC(p->Rx, T * nr * nx); ALLOC(p->Ru, T * nr * nu);
  ALLOC(p->cx, T * nx); ALLOC(p->cu, T * nu); ALLOC(p->cxx, T * nx * nx);
  ALLOC(p->cxu, T * nx * nu); ALLOC(p->cuu, T * nu * nu);
  for (int i = 0; i < nthread; i++) {
    ok &= !!(p->d[i] = mj_makeData(m));
    ALLOC(p->C[i], p->nsd * nx); ALLOC(p->D[i], p->nsd * nu);
    // the cost derivatives', the backward pass's or the rollouts' scratch
    int back = 5 * nx * nx + 3 * nx * nu + 3 * nu * nu + 2 * nx + 4 * nu;
    int need = mjp_costScratch(c) > back ? mjp_costScratch(c) : back;
    ALLOC(p->scratch[i], need + 2 * p->ns + 3 * p->nx);
  }
#undef ALLOC
  if (!ok) {
    mjp_deletePlanner(p);
    mj_ioError(err, errsz, "out of memory");
    return NULL;
  }
  allocKnots(p);
  // log-spaced step sizes from 1e-3 to 1, then 0
  for (int i = 0; i < p->N - 1; i++) p->alpha[i] = pow(10, -3 + 3.0 * i / (p->N - 2));
  p->alpha[p->N - 1] = 0;
  p->mu = 1, p->rate = 1;
  mj_resetData(m, p->d[0]);
  mjp_setState(p, p->d[0]);
  for (int t = 0; t < T; t++) p->plan.times[t] = p->time0 + t * m->opt.timestep;
  return p;
}

// the start of the next iterations: d's time, state (qpos, qvel, act), warm start and mocap
void mjp_setState(mjPlanner* p, const mjData* d) {
  const mjModel* m = p->m;
  p->time0 = d->time;
  mju_copy(p->x0, d->qpos, m->nq);
  mju_copy(p->x0 + m->nq, d->qvel, m->nv);
  mju_copy(p->x0 + m->nq + m->nv, d->act, m->na);
  mju_copy(p->warm0, d->qacc_warmstart, m->nv);
  mju_copy(p->mocap, d->mocap_pos, 3 * m->nmocap);
  mju_copy(p->mocap + 3 * m->nmocap, d->mocap_quat, 4 * m->nmocap);
}

// the policy's actions: u (T x nu) at the knots from the start time, no feedback
void mjp_setActions(mjPlanner* p, const mjtNum* u) {
  for (int t = 0; t < p->T; t++) p->plan.times[t] = p->time0 + t * p->m->opt.timestep;
  mju_copy(p->plan.u, u, p->T * p->nu);
  mju_zero(p->K, p->T * p->nu * p->nx);
}

// the plan: its knots' times (T), states (T x (nq+nv+na)), actions (T x nu) and return
mjtNum mjp_plan(const mjPlanner* p, const mjtNum** times, const mjtNum** x, const mjtNum** u) {
  if (times) *times = p->plan.times;
  if (x) *x = p->plan.x;
  if (u) *u = p->plan.u;
  return p->plan.J;
}

// the number of knots T
int mjp_planKnots(const mjPlanner* p) { return p->T; }

// the plan's residual at knot t (mjp_costResiduals values)
void mjp_planResidual(const mjPlanner* p, int t, mjtNum* r) {
  mju_copy(r, p->plan.r + t * p->nr, p->nr);
}

// the last iteration's statistics
const mjpStats* mjp_stats(const mjPlanner* p) { return &p->stats; }

// ---- threads ---------------------------------------------------------------------------------------

// a parallel loop: item i of n by fn(p, thread, i)
typedef struct {
  mjPlanner* p;
  void (*fn)(mjPlanner*, int, int);
  int n;
  atomic_int next;
} Loop;

typedef struct {
  Loop* loop;
  int thread;
} Worker;

// take items until none is left
static void* loopWorker(void* arg) {
  Worker* w = arg;
  for (int i; (i = atomic_fetch_add(&w->loop->next, 1)) < w->loop->n;) w->loop->fn(w->loop->p, w->thread, i);
  return NULL;
}

// fn over items 0..n-1 on the planner's threads (each item's result in its own place)
static void parallel(mjPlanner* p, int n, void (*fn)(mjPlanner*, int, int)) {
  Loop loop = {p, fn, n, 0};
  Worker w[MAXTHREAD];
  pthread_t th[MAXTHREAD];
  int nt = p->nthread < n ? p->nthread : n, started = 1;
  for (int i = 0; i < nt; i++) w[i].loop = &loop, w[i].thread = i;
  for (int i = 1; i < nt; i++, started++)
    if (pthread_create(th + i, NULL, loopWorker, w + i)) break;
  loopWorker(w);
  for (int i = 1; i < started; i++) pthread_join(th[i], NULL);
}

// ---- rollouts ------------------------------------------------------------------------------------

// dx = x (-) xref in the tangent space (nx): positions on the joint manifold, then differences
static void stateDiff(const mjPlanner* p, mjtNum* dx, const mjtNum* x, const mjtNum* xref) {
  mj_differentiatePos(p->m, dx, 1, xref, x);
  mju_sub(dx + p->nv, x + p->nq, xref + p->nq, p->nv + p->na);
}

// u clamped to the ctrlrange of the limited actuators
static void clampCtrl(const mjModel* m, mjtNum* u) {
  for (int i = 0; i < m->nu; i++)
    if (m->actuator_ctrllimited[i])
      u[i] = mju_minc(mju_maxc(u[i], m->actuator_ctrlrange[2 * i]), m->actuator_ctrlrange[2 * i + 1]);
}

// the policy's action at time tm and state x (feedback scaled by scl): actions, reference
// states and gains linear in time over the plan's knots (the last knot's action is the one
// before it; beyond the ends the end values), quaternions of the reference renormalized;
// scratch: POLICYSCRATCH doubles
#define POLICYSCRATCH(p) ((p)->ns + 2 * (p)->nx)
static void policyAction(const mjPlanner* p, mjtNum* u, const mjtNum* x, mjtNum tm, mjtNum scl,
                         mjtNum* scratch) {
  const Traj* pl = &p->plan;
  int T = p->T, nu = p->nu, nx = p->nx, ns = p->ns, k = 0;
  mjtNum w = 0;
  if (tm >= pl->times[T - 2]) k = T - 2, w = 0;
  else if (tm > pl->times[0]) {
    while (k + 1 < T - 1 && pl->times[k + 1] <= tm) k++;
    w = (tm - pl->times[k]) / (pl->times[k + 1] - pl->times[k]);
  }
  int k1 = k + 1 < T - 1 ? k + 1 : k;
  for (int i = 0; i < nu; i++) u[i] = (1 - w) * pl->u[k * nu + i] + w * pl->u[k1 * nu + i];
  if (scl != 0 && x) {
    mjtNum* xr = scratch, *dx = scratch + ns, *Ki = dx + nx;
    for (int i = 0; i < ns; i++) xr[i] = (1 - w) * pl->x[k * ns + i] + w * pl->x[k1 * ns + i];
    const mjModel* m = p->m;
    for (int j = 0; j < m->njnt; j++) {
      int a = m->jnt_qposadr[j];
      if (m->jnt_type[j] == mjJNT_FREE) mju_normalize4(xr + a + 3);
      else if (m->jnt_type[j] == mjJNT_BALL) mju_normalize4(xr + a);
    }
    stateDiff(p, dx, x, xr);
    for (int i = 0; i < nu; i++) {
      for (int j = 0; j < nx; j++) Ki[j] = (1 - w) * p->K[(k * nu + i) * nx + j] + w * p->K[(k1 * nu + i) * nx + j];
      u[i] += scl * mju_dot(Ki, dx, nx);
    }
  }
  clampCtrl(p->m, u);
}

// 1 when the data has a simulation warning
static int warned(const mjData* d) {
  for (int i = 0; i < mjNWARNING; i++)
    if (d->warning[i].number > 0) return 1;
  return 0;
}

// the residual at the state x (ns), time tm and controls u from d's sensors and mocap
static void residualAt(const mjPlanner* p, const mjData* d, mjtNum* r, const mjtNum* x,
                       mjtNum tm, const mjtNum* u) {
  mjpPoint pt = {tm, x, x + p->nq, x + p->nq + p->nv, u, d->sensordata, d->mocap_pos};
  mjp_residual(p->c, p->m, &pt, r);
}

// d at time tm, state x (ns), warm start warm (nv) and the start state's mocap poses
static void setState(const mjPlanner* p, mjData* d, mjtNum tm, const mjtNum* x, const mjtNum* warm) {
  const mjModel* m = p->m;
  d->time = tm;
  mju_copy(d->qpos, x, p->nq), mju_copy(d->qvel, x + p->nq, p->nv);
  mju_copy(d->act, x + p->nq + p->nv, p->na);
  mju_copy(d->qacc_warmstart, warm, p->nv);
  mju_copy(d->mocap_pos, p->mocap, 3 * m->nmocap);
  mju_copy(d->mocap_quat, p->mocap + 3 * m->nmocap, 4 * m->nmocap);
}

// d at knot t of the nominal trajectory, with its control
static void setKnot(const mjPlanner* p, mjData* d, int t) {
  setState(p, d, p->nom.times[t], p->nom.x + t * p->ns, p->nom.warm + t * p->nv);
  mju_copy(d->ctrl, p->nom.u + t * p->nu, p->nu);
}

// d at time tm, state x and warm start warm, no applied forces, no warnings
static void cleanState(const mjPlanner* p, mjData* d, mjtNum tm, const mjtNum* x,
                       const mjtNum* warm) {
  setState(p, d, tm, x, warm);
  mju_zero(d->qfrc_applied, p->nv), mju_zero(d->xfrc_applied, 6 * p->m->nbody);
  for (int w = 0; w < mjNWARNING; w++) d->warning[w].number = 0;
}

// candidate i ranks above candidate b (-1: none): a finite return, lower than b's, or equal
// and i the higher index (mjp_bestRollout's order, so a thread's best is the winner's rank)
static int ranksAbove(const mjPlanner* p, int i, int b) {
  mjtNum J = p->cand[i].J;
  return isfinite(J) && (b < 0 || J < p->cand[b].J || (J == p->cand[b].J && i > b));
}

// candidate i's knots' data (valid: how many hold their forward pass) become thread th's best
// when it ranks above the best so far, so that the winner's are kept whatever the threads
static void keepKnots(mjPlanner* p, int th, int i, int valid) {
  if (!ranksAbove(p, i, p->kbestid[th])) return;
  mjData** swap = p->kbest[th];
  p->kbest[th] = p->kwork[th], p->kwork[th] = swap;
  p->kbestid[th] = i, p->kvalid[th] = valid;
}

// no candidate's knots kept yet, none the nominal's
static void clearKnots(mjPlanner* p) {
  for (int th = 0; th < p->nthread; th++) p->kbestid[th] = -1;
  p->knot = NULL, p->nknot = 0;
}

// candidate best is the nominal trajectory, with its knots' data when a thread kept them
static void setNominal(mjPlanner* p, int best) {
  mjp_trajCopy(&p->nom, p->cand + best, p);
  p->knot = NULL, p->nknot = 0;
  for (int th = 0; th < p->nthread && p->keep; th++)
    if (p->kbestid[th] == best) p->knot = p->kbest[th], p->nknot = p->kvalid[th];
}

// roll out candidate i from the start state: mjROLL_POLICY the policy (continuous time,
// feedback scaled by alpha_i), mjROLL_LINE the line search's u_t = nominal + alpha_i du_t +
// K_t (x - xnom), mjROLL_OPEN the actions p->open (open loop), mjROLL_SAMPLE candidate i's
// actions p->sact, clamped to ctrlrange.  The policy's and open-loop rollouts step each knot
// on its own data when the planner keeps them (the same values: the state carried over)
static void rollout(mjPlanner* p, int th, int i, int mode) {
  const mjModel* m = p->m;
  int keep = p->keep && (mode == mjROLL_POLICY || mode == mjROLL_OPEN);
  mjData* d = keep ? p->kwork[th][0] : p->d[th];
  Traj* tr = p->cand + i;
  int T = p->T, nu = p->nu, ns = p->ns, nq = p->nq, nv = p->nv, na = p->na, nr = p->nr;
  mjtNum* scratch = p->scratch[th], *dx = scratch + POLICYSCRATCH(p);

  // the start state on a clean data
  cleanState(p, d, p->time0, p->x0, p->warm0);
  int fail = 0, t;
  for (t = 0; t < T; t++) {
    mjtNum* x = tr->x + t * ns, *u = tr->u + t * nu;
    tr->times[t] = d->time;
    mju_copy(x, d->qpos, nq), mju_copy(x + nq, d->qvel, nv), mju_copy(x + nq + nv, d->act, na);
    mju_copy(tr->warm + t * nv, d->qacc_warmstart, nv);
    if (keep && t > 0) {
      d = p->kwork[th][t];
      cleanState(p, d, tr->times[t], x, tr->warm + t * nv);
    }
    if (t == T - 1) {
      // the last knot: the previous action, a forward pass for its sensors
      mju_copy(u, u - nu, nu);
      mju_copy(d->ctrl, u, nu);
      mj_forward(m, d);
      residualAt(p, d, tr->r + t * nr, x, d->time, u);
      break;
    }
    if (mode == mjROLL_OPEN || mode == mjROLL_SAMPLE) {
      mju_copy(u, mode == mjROLL_OPEN ? p->open + t * nu : p->sact + ((size_t)i * T + t) * nu, nu);
      clampCtrl(m, u);
    } else if (mode == mjROLL_LINE) {
      stateDiff(p, dx, x, p->nom.x + t * ns);
      mju_mulMatVec(u, p->Kn + t * nu * p->nx, dx, nu, p->nx);
      mju_addTo(u, p->nom.u + t * nu, nu);
      mju_addToScl(u, p->du + t * nu, p->alpha[i], nu);
      clampCtrl(m, u);
    } else {
      policyAction(p, u, x, d->time, p->alpha[i], scratch);
    }
    mju_copy(d->ctrl, u, nu);
    mjtNum tm = d->time;
    mj_step(m, d);
    residualAt(p, d, tr->r + t * nr, x, tm, u);
    if (warned(d)) { fail = 1; break; }
  }

  // the return: the mean stage cost
  mjtNum J = 0;
  for (int k = 0; k < T && !fail; k++) J += mjp_costValue(p->c, tr->r + k * nr);
  tr->J = fail || !isfinite(J) ? FAILCOST : J / T;
  if (keep) keepKnots(p, th, i, fail ? t : T);
}

// the rollouts of each mode, as parallel loop bodies
static void nominalRollout(mjPlanner* p, int th, int i) { rollout(p, th, i, mjROLL_POLICY); }
static void lineRollout(mjPlanner* p, int th, int i) { rollout(p, th, i, mjROLL_LINE); }
static void sampleRollout(mjPlanner* p, int th, int i) { rollout(p, th, i, mjROLL_SAMPLE); }

void mjp_rollouts(mjPlanner* p, int mode) {
  static void (*const body[4])(mjPlanner*, int, int) = {nominalRollout, lineRollout, NULL,
                                                        sampleRollout};
  clearKnots(p);
  parallel(p, p->N, body[mode]);
}

void mjp_policyOpen(const mjPlanner* p, mjtNum* u, mjtNum tm, mjtNum* scratch) {
  policyAction(p, u, NULL, tm, 0, scratch);
}

// the candidate of the lowest finite return, scanning from the last (strictly lower wins)
int mjp_bestRollout(const mjPlanner* p) {
  int best = -1;
  for (int i = p->N - 1; i >= 0; i--)
    if (ranksAbove(p, i, best)) best = i;
  return best;
}

// ---- derivatives ---------------------------------------------------------------------------------

// knot t of the nominal trajectory: A_t, B_t (not at the last knot), the residual's Rx_t, Ru_t;
// on the knot's data from the rollout when kept (the exact Jacobians then reuse its forward
// pass; finite differences run theirs, as MuJoCo's do)
static void knotDerivatives(mjPlanner* p, int th, int t) {
  const mjModel* m = p->m;
  int kept = t < p->nknot;
  mjData* d = kept ? p->knot[t] : p->d[th];
  int T = p->T, nx = p->nx, nu = p->nu, nr = p->nr;
  setKnot(p, d, t);
  mjtNum* A = t < T - 1 ? p->A + t * nx * nx : NULL, *B = t < T - 1 ? p->B + t * nx * nu : NULL;
  int rc;
  if (p->fd) rc = mjd_transitionFD(m, d, p->eps, p->centered, A, B, p->C[th], p->D[th]);
  else rc = mjd_transitionSmoothSkip(m, d, kept, A, B, p->C[th], p->D[th], p->err[th],
                                     sizeof(p->err[th]));
  if (rc) {
    if (p->fd) mj_ioError(p->err[th], sizeof(p->err[th]), "finite differences failed (stack too small)");
    p->stats.failed = 1;
    return;
  }
  mjpPoint pt;
  mjp_pointData(&pt, d);
  mjp_residualJacobian(p->c, m, &pt, p->C[th], p->D[th], p->Rx + t * nr * nx, p->Ru + t * nr * nu);
}

// the cost's derivatives at knot t (weights over T), Gauss-Newton from the residual's
static void knotCost(mjPlanner* p, int th, int t) {
  int T = p->T, nx = p->nx, nu = p->nu, nr = p->nr;
  mjp_costDerivatives(p->c, p->nom.r + t * nr, p->Rx + t * nr * nx, p->Ru + t * nr * nu, 1.0 / T,
                      p->cx + t * nx, p->cu + t * nu, p->cxx + t * nx * nx, p->cxu + t * nx * nu,
                      p->cuu + t * nu * nu, p->scratch[th]);
}

// the derivatives at every knot of the nominal trajectory; 0, or -1 and the first thread's
// message when they were refused
static int allKnotDerivatives(mjPlanner* p, char* err, int errsz) {
  p->stats.failed = 0;
  parallel(p, p->T, knotDerivatives);
  if (!p->stats.failed) return 0;
  for (int i = 0; i < p->nthread; i++)
    if (p->err[i][0]) { mj_ioError(err, errsz, "%s", p->err[i]); break; }
  return -1;
}

// ---- backward pass ---------------------------------------------------------------------------------

// the Riccati recursion with control regularization mu; 0, or -1 when a box QP fails
static int backwardPass(mjPlanner* p) {
  const mjModel* m = p->m;
  int T = p->T, nx = p->nx, nu = p->nu;
  mjtNum* w = p->scratch[0];
  mjtNum* Vx = w, *Vxx = Vx + nx, *Qx = Vxx + nx * nx, *Qu = Qx + nx, *Qxx = Qu + nu;
  mjtNum* Qxu = Qxx + nx * nx, *Quu = Qxu + nx * nu, *Hr = Quu + nu * nu, *tmp = Hr + nu * nu;
  mjtNum* AV = tmp + nx * nx, *BV = AV + nx * nx, *QxuK = BV + nu * nx, *R = QxuK + nx * nx;
  mjtNum* lo = R + nu * nu, *hi = lo + nu, *g = hi + nu, *KtQ = g + nu;
  int free[mjMAXBOXQP], idx[mjMAXBOXQP];
  mjtNum duw[mjMAXBOXQP] = {0};

  mju_copy(Vx, p->cx + (T - 1) * nx, nx);
  mju_copy(Vxx, p->cxx + (T - 1) * nx * nx, nx * nx);
  p->dV[0] = p->dV[1] = 0;
  for (int t = T - 2; t >= 0; t--) {
    const mjtNum* A = p->A + t * nx * nx, *B = p->B + t * nx * nu;
    // Qx = cx + A'Vx, Qu = cu + B'Vx
    mju_mulMatTVec(Qx, A, Vx, nx, nx);
    mju_addTo(Qx, p->cx + t * nx, nx);
    mju_mulMatTVec(Qu, B, Vx, nx, nu);
    mju_addTo(Qu, p->cu + t * nu, nu);
    // AV = A'Vxx (nx x nx), BV = B'Vxx (nu x nx); Qxx = cxx + AV A, Qxu = cxu + AV B, Quu = cuu + BV B
    mju_mulMatTMat(AV, A, Vxx, nx, nx, nx);
    mju_mulMatTMat(BV, B, Vxx, nx, nu, nx);
    mju_mulMatMat(Qxx, AV, A, nx, nx, nx);
    mju_addTo(Qxx, p->cxx + t * nx * nx, nx * nx);
    mju_mulMatMat(Qxu, AV, B, nx, nx, nu);
    mju_addTo(Qxu, p->cxu + t * nx * nu, nx * nu);
    mju_mulMatMat(Quu, BV, B, nu, nx, nu);
    mju_addTo(Quu, p->cuu + t * nu * nu, nu * nu);

    // the control step: box QP on Quu + mu I within the limits around u_t
    mju_copy(Hr, Quu, nu * nu);
    for (int i = 0; i < nu; i++) {
      Hr[i * nu + i] += p->mu;
      mjtNum u = p->nom.u[t * nu + i];
      int lim = m->actuator_ctrllimited[i];
      lo[i] = lim ? m->actuator_ctrlrange[2 * i] - u : -INFINITY;
      hi[i] = lim ? m->actuator_ctrlrange[2 * i + 1] - u : INFINITY;
    }
    int nf = mjp_boxQP(duw, R, free, Hr, Qu, nu, lo, hi);
    if (nf < 0) return -1;
    mjtNum* du = p->du + t * nu, *K = p->Kn + t * nu * nx;
    mju_copy(du, duw, nu);

    // K: zero on clamped rows, -Hr_ff^-1 Qxu_f' on the free ones
    mju_zero(K, nu * nx);
    int k = 0;
    for (int i = 0; i < nu; i++)
      if (free[i]) idx[k++] = i;
    for (int j = 0; j < nx; j++) {
      for (int a = 0; a < nf; a++) g[a] = -Qxu[j * nu + idx[a]];
      mju_cholSolve(g, R, g, nf);
      for (int a = 0; a < nf; a++) K[idx[a] * nx + j] = g[a];
    }

    // Vx = Qx + K'(Quu du + Qu) + Qxu du
    mju_mulMatVec(g, Quu, du, nu, nu);
    mju_addTo(g, Qu, nu);
    mju_mulMatTVec(Vx, K, g, nu, nx);
    mju_addTo(Vx, Qx, nx);
    mju_mulMatVec(tmp, Qxu, du, nx, nu);
    mju_addTo(Vx, tmp, nx);
    // Vxx = Qxx + K'Quu K + Qxu K + (Qxu K)', symmetrized
    mju_mulMatTMat(KtQ, K, Quu, nu, nx, nu);
    mju_mulMatMat(Vxx, KtQ, K, nx, nu, nx);
    mju_addTo(Vxx, Qxx, nx * nx);
    mju_mulMatMat(QxuK, Qxu, K, nx, nu, nx);
    for (int i = 0; i < nx; i++)
      for (int j = 0; j <= i; j++) {
        mjtNum v = 0.5 * (Vxx[i * nx + j] + Vxx[j * nx + i]) + QxuK[i * nx + j] + QxuK[j * nx + i];
        Vxx[i * nx + j] = Vxx[j * nx + i] = v;
      }
    // the expected change
    p->dV[0] += mju_dot(du, Qu, nu);
    p->dV[1] += 0.5 * mju_mulVecMatVec(du, Quu, du, nu);
  }
  mju_copy(p->du + (T - 1) * nu, p->du + (T - 2) * nu, nu);
  mju_copy(p->Kn + (T - 1) * nu * nx, p->Kn + (T - 2) * nu * nx, nu * nx);
  return 0;
}

// mu scaled by factor: the rate pushed at least to the factor (at most, for factors below 1)
static void scaleRegularization(mjPlanner* p, mjtNum factor) {
  if (factor > 1) p->rate = mju_maxc(p->rate * factor, factor);
  else p->rate = mju_minc(p->rate * factor, factor);
  p->mu = mju_minc(mju_maxc(p->mu * p->rate, MINREG), MAXREG);
}

// ---- one iteration ---------------------------------------------------------------------------------

// one iLQG iteration from the start state; 0, or -1 and a message (derivatives refused)
int mjp_optimize(mjPlanner* p, char* err, int errsz) {
  mjpStats* st = &p->stats;
  memset(st, 0, sizeof(*st));
  int T = p->T;
  double t0 = mjp_now();

  // 1. nominal rollouts of the policy
  mjp_rollouts(p, mjROLL_POLICY);
  int best = mjp_bestRollout(p);
  setNominal(p, best);
  double t1 = mjp_now();
  st->t_nominal = t1 - t0;

  // 2. derivatives at every knot
  if (allKnotDerivatives(p, err, errsz)) return -1;
  double t12 = mjp_now();
  st->t_deriv = t12 - t1;

  // 3. the cost's derivatives
  parallel(p, T, knotCost);
  double t2 = mjp_now();
  st->t_costderiv = t2 - t12;

  // 4. backward pass, raising mu on failure
  int ok = 0;
  for (int tries = 0; tries <= 5 && !ok; tries++) {
    if (!backwardPass(p)) ok = 1;
    else {
      p->rate = mju_maxc(2 * p->rate, 2);
      p->mu = mju_minc(mju_maxc(p->mu * p->rate, MINREG), MAXREG);
    }
  }
  double t3 = mjp_now();
  st->t_backward = t3 - t2;
  st->cost_nominal = p->nom.J;
  if (!ok) {
    // no update: the policy rolled out is kept
    mjp_trajCopy(&p->plan, &p->nom, p);
    st->cost = p->nom.J, st->mu = p->mu, st->alpha = 0;
    st->t_total = mjp_now() - t0;
    return 0;
  }

  // 5. line search
  mjp_rollouts(p, mjROLL_LINE);
  best = mjp_bestRollout(p);
  double t4 = mjp_now();
  st->t_line = t4 - t3;

  // 6. regularization by the improvement against the expected one
  mjtNum a = p->alpha[best];
  mjtNum expected = -a * (p->dV[0] + a * p->dV[1]) + 1e-16;
  mjtNum improvement = p->nom.J - p->cand[best].J;
  mjtNum z = mju_minc(mju_maxc(improvement / expected, 0), 2);
  if (a == 0 || !(z > 0)) scaleRegularization(p, 4);
  else if (z > 0.5 || a > 0.3) scaleRegularization(p, 0.5);
  else if (z < 0.1 || a < 0.06) scaleRegularization(p, 2);

  // 7. the winner is the policy, with the new gains
  mjp_trajCopy(&p->plan, p->cand + best, p);
  mju_copy(p->K, p->Kn, T * p->nu * p->nx);
  st->cost = p->cand[best].J, st->mu = p->mu, st->alpha = a, st->improvement = improvement;
  st->expected = expected;
  st->t_total = mjp_now() - t0;
  return 0;
}

// the return of the open-loop actions u (T-1 x nu, clamped to ctrlrange; the last knot
// repeats the last action) from the start state and, when grad is not NULL, its exact
// gradient dJ/du (T-1 x nu) through the step's Jacobians: with lambda_{T-1} = cx_{T-1},
// dJ/du_t = cu_t + B_t' lambda_{t+1}, lambda_t = cx_t + A_t' lambda_{t+1}, and the last
// knot's cu_{T-1} on u_{T-2} (risk-neutral costs: with a risk the cost derivatives are
// MuJoCo MPC's, not the return's); -1 and a message when the derivatives are refused
int mjp_evaluate(mjPlanner* p, const mjtNum* u, mjtNum* J, mjtNum* grad, char* err, int errsz) {
  int T = p->T, nu = p->nu, nx = p->nx;
  mjtNum* uT = malloc(sizeof(mjtNum) * (size_t)(T * nu));
  if (!uT) {
    mj_ioError(err, errsz, "out of memory");
    return -1;
  }
  mju_copy(uT, u, (T - 1) * nu);
  mju_copy(uT + (T - 1) * nu, u + (T - 2) * nu, nu);
  p->open = uT;
  clearKnots(p);
  rollout(p, 0, 0, mjROLL_OPEN);
  p->open = NULL;
  free(uT);
  *J = p->cand[0].J;
  if (!grad) return 0;
  setNominal(p, 0);
  if (allKnotDerivatives(p, err, errsz)) return -1;
  parallel(p, T, knotCost);
  mjtNum* lam = p->scratch[0], *tmp = lam + nx;
  mju_copy(lam, p->cx + (T - 1) * nx, nx);
  for (int t = T - 2; t >= 0; t--) {
    mju_mulMatTVec(grad + t * nu, p->B + t * nx * nu, lam, nx, nu);
    mju_addTo(grad + t * nu, p->cu + t * nu, nu);
    mju_mulMatTVec(tmp, p->A + t * nx * nx, lam, nx, nx);
    mju_add(lam, tmp, p->cx + t * nx, nx);
  }
  mju_addTo(grad + (T - 2) * nu, p->cu + (T - 1) * nu, nu);
  return 0;
}

// at knot t of the last nominal trajectory, per cost term k: the largest |Rx_fd - Rx_an| in
// dx[k] and |Ru_fd - Ru_an| in du[k], the residual's Jacobians from the exact sensor
// Jacobians and from MuJoCo's forward differences (eps as the planner's, 1e-6 by default) at
// the same state; 0, or -1 and a message when the exact ones are refused
int mjp_compareDerivatives(mjPlanner* p, int t, mjtNum* dx, mjtNum* du, char* err, int errsz) {
  const mjModel* m = p->m;
  mjData* d = p->d[0];
  int nx = p->nx, nu = p->nu, nr = p->nr;
  mjtNum* R = malloc(sizeof(mjtNum) * (size_t)(2 * nr * (nx + nu) + 1));
  if (!R) {
    mj_ioError(err, errsz, "out of memory");
    return -1;
  }
  for (int fd = 0; fd < 2; fd++) {
    setKnot(p, d, t);
    int rc = fd ? mjd_transitionFD(m, d, p->fd ? p->eps : 1e-6, 0, NULL, NULL, p->C[0], p->D[0])
                : mjd_transitionSmooth(m, d, NULL, NULL, p->C[0], p->D[0], err, errsz);
    if (rc) {
      if (fd) mj_ioError(err, errsz, "finite differences failed (stack too small)");
      free(R);
      return -1;
    }
    mjpPoint pt;
    mjp_pointData(&pt, d);
    mjtNum* Rx = R + fd * nr * (nx + nu);
    mjp_residualJacobian(p->c, m, &pt, p->C[0], p->D[0], Rx, Rx + nr * nx);
  }
  const mjtNum* Rx = R, *Ru = R + nr * nx, *Fx = R + nr * (nx + nu), *Fu = Fx + nr * nx;
  for (int k = 0; k < mjp_costTerms(p->c); k++) {
    int r0, n = mjp_costTermRows(p->c, k, &r0);
    dx[k] = du[k] = 0;
    for (int i = r0 * nx; i < (r0 + n) * nx; i++) dx[k] = mju_maxc(dx[k], fabs(Fx[i] - Rx[i]));
    for (int i = r0 * nu; i < (r0 + n) * nu; i++) du[k] = mju_maxc(du[k], fabs(Fu[i] - Ru[i]));
  }
  free(R);
  return 0;
}

// the policy's action at d's state and time (feedback at full scale), clamped to ctrlrange
void mjp_action(const mjPlanner* p, const mjData* d, mjtNum* u) {
  mjtNum* x = p->scratch[0] + POLICYSCRATCH(p);
  mju_copy(x, d->qpos, p->nq), mju_copy(x + p->nq, d->qvel, p->nv);
  mju_copy(x + p->nq + p->nv, d->act, p->na);
  policyAction(p, u, x, d->time, 1, p->scratch[0]);
}
