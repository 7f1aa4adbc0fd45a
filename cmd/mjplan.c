// mjplan: trajectory optimization and model-predictive control by iLQG (MuJoCo MPC's planner)
// on the exact Jacobians of the step, or by predictive sampling, for a cost file (man 5 mjcost).
//
//   mjplan MODEL COST [--key K | --init STREAM] [--horizon SECONDS] [--timestep DT]
//          [--iterations N] [--tol TOL] [--mpc -n STEPS [--replan P] [--plan-first]]
//          [--deriv analytic|fd]
//          [--centered] [--eps E] [--planner ilqg|sampling [--seed S]] [--rollouts N]
//          [--threads N] [--log CSV] [--costs CSV] [--attribution CSV] [--quiet] [-o OUT]
//   mjplan --help | --version
//
// Offline (the default): iLQG from the initial state (the model's default, keyframe K, or the
// last frame of STREAM) over a horizon of T = horizon/timestep + 1 knots, iterated until the
// return stops improving (relative TOL over 5 iterations) or N iterations; the plan is written
// as a state stream bound to MODEL: T frames, each a knot's time, qpos, qvel, act and the
// control applied from it.  The planning timestep is the model's unless --timestep.
// With --mpc: receding-horizon control.  The physics runs MODEL at its own timestep for STEPS
// steps; every P steps (default 4) one planning iteration (N with --iterations N) re-plans
// from the state at that step on a planning copy (timestep --timestep, by default the task's
// agent_timestep; for iLQG contacts made differentiable as MuJoCo MPC does: solimp dmin 0),
// warm-started by the previous policy shifted in time; the action of each step is the
// policy's at the step's state (feedback included).  The cost's gait schedules (man 5 mjcost)
// make one transition at each physics step, before its plans (MuJoCo MPC's Transition); offline
// they stay at their start.  The iterations run after the step, so
// the step's action comes from the previous plan (MuJoCo MPC's testspeed), or with
// --plan-first before its action is taken (MuJoCo MPC's app, whose planner runs beside
// real-time physics, when it iterates faster than the physics).  The output is the executed
// trajectory: STEPS + 1 frames; simulation warnings of the physics are counted and reported
// at the end, as mjstep reports them.
// --planner sampling plans by predictive sampling (MuJoCo MPC's sampling planner, mj.h) instead
// of iLQG: no derivatives; its noise is seeded by --seed.
// The task's custom numerics give the defaults: agent_horizon (0.5 s), agent_timestep,
// ilqg_num_rollouts (10); for sampling sampling_trajectories (10), sampling_spline_points (10),
// sampling_representation (2: cubic) and sampling_exploration (0.1).  Sensors the cost file adds are compiled into the planning model
// (and the physics model used for the cost of each step); the output stays bound to MODEL.
//
// Exit status: 0 success, 2 usage or data error (no partial output file is left behind).
#include "tool.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usageLines[] =
  "usage: mjplan MODEL COST [--key K | --init STREAM] [--horizon SECONDS] [--timestep DT]\n"
  "              [--iterations N] [--tol TOL] [--mpc -n STEPS [--replan P] [--plan-first]]\n"
  "              [--deriv analytic|fd] [--centered] [--eps E]\n"
  "              [--planner ilqg|sampling [--seed S]] [--rollouts N] [--threads N]\n"
  "              [--log CSV] [--costs CSV] [--attribution CSV] [--quiet] [-o OUT]\n"
  "       mjplan --help | --version\n";

// what --help prints after the usage text
static const char helpText[] =
  "\n"
  "Optimize a trajectory of MODEL for the cost file COST (man 5 mjcost) by iLQG, or control\n"
  "it by model-predictive control (--mpc), and write the trajectory as a state stream\n"
  "(man 5 mjt: time, qpos, qvel, act, ctrl).\n"
  "options:\n"
  "  --key K           initial state: keyframe K (name or index)\n"
  "  --init STREAM     initial state: the last frame of STREAM\n"
  "  --horizon S       planning horizon in seconds (default: agent_horizon, else 0.5)\n"
  "  --timestep DT     planning timestep (default: offline the model's; --mpc the task's\n"
  "                    agent_timestep, else the model's)\n"
  "  --iterations N    offline: at most N iterations (default 100); --mpc: N iterations\n"
  "                    at every re-plan (default 1)\n"
  "  --tol TOL         offline: stop when 5 iterations in a row improve the return by less\n"
  "                    than TOL relative (default 1e-8)\n"
  "  --mpc             receding-horizon control for -n STEPS physics steps\n"
  "  --replan P        --mpc: one planning iteration every P physics steps (default 4)\n"
  "  --plan-first      --mpc: plan from a re-plan step's state before its action is taken\n"
  "                    (MuJoCo MPC's app when planning outpaces the physics); default: after\n"
  "                    the step, the action from the previous plan (MuJoCo MPC's testspeed)\n"
  "  --deriv M         analytic: the exact Jacobians (default); fd: MuJoCo's differences\n"
  "  --centered        fd: centered differences (default: forward, as MuJoCo MPC)\n"
  "  --eps E           fd: the perturbation (default 1e-6)\n"
  "  --planner P       ilqg (the default) or sampling: predictive sampling, MuJoCo MPC's\n"
  "                    sampling planner (spline of sampling_spline_points values, noise\n"
  "                    sampling_exploration of half the control range)\n"
  "  --seed S          sampling: the noise's seed (default 0)\n"
  "  --rollouts N      rollouts per iteration, 2 to 128 (default: ilqg_num_rollouts or\n"
  "                    sampling_trajectories, else 10)\n"
  "  --threads N       planning threads (the results do not depend on N; default 1)\n"
  "  --log CSV         one row per planning iteration: timings, regularization, step, cost\n"
  "  --costs CSV       the stage cost and its terms at every knot (offline) or step (--mpc)\n"
  "  --attribution CSV per iteration, at every 5th knot, per term: the largest difference of\n"
  "                    the residual's Jacobians by forward differences from the exact ones\n"
  "  --quiet           no progress on standard error\n"
  "  -o OUT            output file instead of standard output\n"
  "  -h, --help, --version\n";

// the run's inputs and state, released at exit
static struct {
  mjModel* m;               // MODEL as given (the output binds to it)
  mjModel* mp;              // MODEL with the cost's sensors (physics of --mpc, cost of a step)
  mjModel* mplan;           // the planning copy
  mjCost* cost;
  mjPlanner* p;
  mjData* d;
  mjOutFile* o[4];          // the outputs open: the stream, the log, the costs, the attribution
  int sampling;             // predictive sampling instead of iLQG
} run;

// release everything; the outputs not committed are removed
static void cleanup(void) {
  for (int i = 0; i < 4; i++)
    if (run.o[i]) mj_outClose(run.o[i], 0, NULL, 0), free(run.o[i]);
  mjp_deletePlanner(run.p);
  mjp_deleteCost(run.cost);
  mj_deleteData(run.d);
  mj_deleteModel(run.mplan);
  mj_deleteModel(run.mp);
  mj_deleteModel(run.m);
}

// a number argument, or a usage error naming the option
static double number(const char* opt, const char* s, double lo, double hi) {
  char* end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end || errno || !(v >= lo && v <= hi))
    usageError("%s: expected a number in [%g, %g], not '%s'", opt, lo, hi, s);
  return v;
}

// the first value of the custom numeric name, else def
static double numeric(const mjModel* m, const char* name, double def) {
  int id = mj_name2id(m, mjOBJ_NUMERIC, name);
  return id >= 0 && m->numeric_size[id] > 0 ? m->numeric_data[m->numeric_adr[id]] : def;
}

// MODEL with the cost's sensors: compiled from a wrapper that includes MODEL's file (an MJCF
// model is needed when the cost adds sensors)
static mjModel* withSensors(const char* path, const char* sensors) {
  if (!sensors[0]) return mj_copyModel(run.m);
  if (!mj_isSource(path))
    eprintf("%s: the cost file adds sensors: MODEL must be an MJCF file, not a binary model", path);
  char* a = strdup(path), *b = strdup(path);
  if (!a || !b) eprintf("out of memory");
  const char* dir = dirname(a), *base = basename(b);
  size_t n = strlen(sensors) + strlen(base) + 128;
  char* xml = emalloc(n), err[1024] = "";
  snprintf(xml, n, "<mujoco><include file=\"%s\"/><sensor>\n%s</sensor></mujoco>\n", base, sensors);
  mjModel* m = mj_parseXMLString(xml, path, dir, err, sizeof(err));
  free(xml), free(a), free(b);
  if (!m) eprintf("%s: with the cost file's sensors: %s", path, err);
  return m;
}

// the initial state: default, keyframe, or the last frame of a stream
static void initialState(const char* key, const char* init) {
  mj_resetData(run.mp, run.d);
  if (key) mj_resetDataKeyframe(run.mp, run.d, efindkey(run.m, key));
  if (!init) return;
  char err[512];
  FILE* f = strcmp(init, "-") ? fopen(init, "rb") : stdin;
  if (!f) eprintf("%s:", init);
  mjStreamHeader h;
  if (mj_streamReadHeader(f, init, &h, err, sizeof(err)) || mj_streamCheckModel(&h, run.m, err, sizeof(err)))
    eprintf("%s", err);
  // each frame's fields over the state (run.d has MODEL's sizes and more sensors)
  int r, got = 0;
  while ((r = mj_streamReadFrame(f, &h, run.m, run.d, err, sizeof(err))) == 1) got = 1;
  if (f != stdin) fclose(f);
  if (r < 0) eprintf("%s", err);
  if (!got) eprintf("%s: no frames: an initial state needs one", h.name);
}

// ---- output ------------------------------------------------------------------------------------

// open output i (0 the stream, 1 the log, 2 the costs, 3 the attribution) at path
static FILE* openOut(int i, const char* path) {
  run.o[i] = tool_outOpen(path);
  return run.o[i]->f;
}

// commit output i
static void closeOut(int i) {
  tool_outCommit(&run.o[i]);
}

// the output stream's header: frames of time, qpos, qvel, act and ctrl, bound to MODEL
static void startStream(FILE* f, mjStreamHeader* h) {
  char err[512];
  mj_streamInit(h, run.m, (1u << mjSTREAM_time) | (1u << mjSTREAM_qpos) | (1u << mjSTREAM_qvel) |
                (1u << mjSTREAM_act) | (1u << mjSTREAM_ctrl), run.o[0]->path);
  if (mj_streamWriteHeader(f, h, err, sizeof(err))) eprintf("%s", err);
}

// one frame: time, qpos, qvel, act of x (nq + nv + na) and the control u
static void writeFrame(FILE* f, const mjStreamHeader* h, mjtNum tm, const mjtNum* x,
                       const mjtNum* u, mjtNum* values) {
  const mjModel* m = run.m;
  int ns = m->nq + m->nv + m->na;
  values[0] = tm;
  memcpy(values + 1, x, sizeof(mjtNum) * ns);
  memcpy(values + 1 + ns, u, sizeof(mjtNum) * m->nu);
  if (mj_streamWriteValues(f, h, values)) eprintf("%s: write error:", h->name);
}

// the header line of the costs file: the terms' names
static void costsHeader(FILE* f, const char* first) {
  fprintf(f, "%s,time,cost", first);
  for (int k = 0; k < mjp_costTerms(run.cost); k++) fprintf(f, ",%s", mjp_costTermName(run.cost, k));
  fputc('\n', f);
}

// a row of the costs file: index, time, stage cost, each term's value
static void costsRow(FILE* f, long i, mjtNum tm, const mjtNum* r, mjtNum* terms) {
  fprintf(f, "%ld,%.17g,%.17g", i, tm, mjp_costValue(run.cost, r));
  mjp_costTermValues(run.cost, r, terms);
  for (int k = 0; k < mjp_costTerms(run.cost); k++) fprintf(f, ",%.17g", terms[k]);
  fputc('\n', f);
}

// the log's header and a row for one planning iteration
static void logHeader(FILE* f) {
  fputs("iteration,step,time,rollout_s,deriv_s,costderiv_s,backward_s,linesearch_s,total_s,"
        "regularization,alpha,cost_nominal,cost,improvement,expected\n", f);
}

static void logRow(FILE* f, int it, long step, mjtNum tm, const mjpStats* s) {
  fprintf(f, "%d,%ld,%.17g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.17g,%.17g,%.6g,%.6g\n", it,
          step, tm, s->t_nominal, s->t_deriv, s->t_costderiv, s->t_backward, s->t_line, s->t_total,
          s->mu, s->alpha, s->cost_nominal, s->cost, s->improvement, s->expected);
}

// the attribution rows of planning iteration it: at every ATTRSTRIDE-th knot of its nominal
// trajectory, per term, the largest difference of the residual's Jacobians by forward
// differences from the exact ones
#define ATTRSTRIDE 5
static void attribution(FILE* f, int it, long step) {
  char err[1024];
  int nterm = mjp_costTerms(run.cost);
  mjtNum* dx = emalloc(sizeof(mjtNum) * (size_t)(2 * nterm)), *du = dx + nterm;
  for (int t = 0; t < mjp_planKnots(run.p) - 1; t += ATTRSTRIDE) {
    if (mjp_compareDerivatives(run.p, t, dx, du, err, sizeof(err))) eprintf("knot %d: %s", t, err);
    for (int k = 0; k < nterm; k++)
      fprintf(f, "%d,%ld,%d,%s,%.6g,%.6g\n", it, step, t, mjp_costTermName(run.cost, k), dx[k], du[k]);
  }
  free(dx);
}

// ---- the runs ----------------------------------------------------------------------------------

// one planning iteration of the planner chosen; 0, or -1 and a message
static int iterate(char* err, int errsz) {
  if (!run.sampling) return mjp_optimize(run.p, err, errsz);
  mjp_sample(run.p);
  return 0;
}

// the planning copy: MODEL with the cost's sensors at timestep dt; with differentiable, every
// joint's, geom's and pair's solimp dmin 0 (MuJoCo MPC's planning change)
static mjModel* planningModel(mjtNum dt, int differentiable) {
  mjModel* m = mj_copyModel(run.mp);
  if (!m) eprintf("out of memory");
  m->opt.timestep = dt;
  if (differentiable) {
    for (int i = 0; i < m->njnt; i++) m->jnt_solimp[5 * i] = 0;
    for (int i = 0; i < m->ngeom; i++) m->geom_solimp[5 * i] = 0;
    for (int i = 0; i < m->npair; i++) m->pair_solimp[5 * i] = 0;
  }
  return m;
}

// offline: iterate to convergence from the initial state, write the plan
static void offline(int iterations, double tol, int quiet, FILE* out, FILE* log, FILE* costs,
                    FILE* attr) {
  char err[1024];
  mjStreamHeader h;
  mjp_setState(run.p, run.d);
  int flat = 0, it = 0;
  double start = tool_seconds();
  for (; it < iterations && flat < 5; it++) {
    if (iterate(err, sizeof(err))) eprintf("iteration %d: %s", it, err);
    const mjpStats* s = mjp_stats(run.p);
    if (log) logRow(log, it, 0, run.d->time, s);
    if (attr) attribution(attr, it, 0);
    flat = s->improvement < tol * fabs(s->cost) ? flat + 1 : 0;
    if (!quiet && isatty(2))
      fprintf(stderr, "\rmjplan: iteration %d  cost %.10g  regularization %.3g  step %.3g   ", it,
              s->cost, s->mu, s->alpha);
  }
  const mjtNum* times, *x, *u;
  mjtNum J = mjp_plan(run.p, &times, &x, &u);
  if (!quiet)
    fprintf(stderr, "%smjplan: %d iterations, cost %.10g, %.3f s\n", isatty(2) ? "\n" : "", it, J,
            tool_seconds() - start);

  // the plan's frames, and the costs at its knots
  const mjModel* m = run.m;
  int ns = m->nq + m->nv + m->na, T = 0;
  startStream(out, &h);
  mjtNum* values = emalloc(sizeof(mjtNum) * (size_t)(h.nvalue + 1));
  for (T = 0; T < mjp_planKnots(run.p); T++)
    writeFrame(out, &h, times[T], x + T * ns, u + T * m->nu, values);
  free(values);
  if (costs) {
    costsHeader(costs, "knot");
    int nr = mjp_costResiduals(run.cost);
    mjtNum* r = emalloc(sizeof(mjtNum) * (size_t)(nr + mjp_costTerms(run.cost) + 1));
    for (int t = 0; t < T; t++) {
      mjp_planResidual(run.p, t, r);
      costsRow(costs, t, times[t], r, r + nr);
    }
    free(r);
  }
}

// the planning iterations of physics step i (time tm) from the state the planner was given;
// *it counts them all; avg is the average cost per step so far (for the progress line)
static void plan(long i, mjtNum tm, int iters, mjtNum avg, long n, int quiet, int* it, FILE* log,
                 FILE* attr) {
  char err[1024];
  for (int k = 0; k < iters; k++, (*it)++) {
    if (iterate(err, sizeof(err))) eprintf("step %ld: %s", i, err);
    const mjpStats* s = mjp_stats(run.p);
    if (log) logRow(log, *it, i, tm, s);
    if (attr) attribution(attr, *it, i);
    if (!quiet && isatty(2))
      fprintf(stderr, "\rmjplan: step %ld/%ld  plan cost %.6g  average cost %.6g   ", i + 1, n,
              s->cost, avg);
  }
}

// the gait schedules after a change at physics step i (time tm), on standard error
static void reportGaits(long i, mjtNum tm) {
  const char* name, *gait;
  mjtNum speed;
  for (int k = 0; (name = mjp_costSchedule(run.cost, k, tm, &gait, NULL, &speed)); k++)
    fprintf(stderr, "%smjplan: step %ld, time %.4f: schedule %s: gait %s (speed %.4g)\n",
            isatty(2) ? "\r" : "", i, tm, name, gait, speed);
}

// --mpc: n physics steps, re-planning every P steps from the state at that step by `iters`
// planning iterations: after the step (first 0: MuJoCo MPC's testspeed, the step's action from
// the previous plan) or before its action is taken (first 1: MuJoCo MPC's app when planning
// outpaces the physics)
static void mpc(long n, int P, int iters, int first, int quiet, FILE* out, FILE* log,
                FILE* costs, FILE* attr) {
  const mjModel* m = run.mp;
  mjData* d = run.d;
  mjStreamHeader h;
  startStream(out, &h);
  if (costs) costsHeader(costs, "step");
  int ns = m->nq + m->nv + m->na, nr = mjp_costResiduals(run.cost), it = 0;
  mjtNum* values = emalloc(sizeof(mjtNum) * (size_t)(h.nvalue + 1));
  mjtNum* x = emalloc(sizeof(mjtNum) * (size_t)(ns + 1));
  mjtNum* r = emalloc(sizeof(mjtNum) * (size_t)(nr + mjp_costTerms(run.cost) + 1));
  mjtNum total = 0;
  double start = tool_seconds();
  mj_forward(m, d);
  for (long i = 0; i <= n; i++) {
    // plan first: this step's action comes from plans started at its own state
    mjtNum tm = d->time;
    mjpPoint pt;
    mjp_pointData(&pt, d);
    if (i < n && mjp_costTransition(run.cost, &pt) && !quiet) reportGaits(i, tm);
    if (first && i < n && i % P == 0) {
      mjp_setState(run.p, d);
      plan(i, tm, iters, i ? total / i : 0, n, quiet, &it, log, attr);
    }

    // the action at this state; the frame
    mjp_action(run.p, d, d->ctrl);
    memcpy(x, d->qpos, sizeof(mjtNum) * m->nq);
    memcpy(x + m->nq, d->qvel, sizeof(mjtNum) * m->nv);
    memcpy(x + m->nq + m->nv, d->act, sizeof(mjtNum) * m->na);
    writeFrame(out, &h, tm, x, d->ctrl, values);
    if (i == n) break;

    // testspeed's order: the plan starts from this state (saved before the step moves d); the
    // step, and its cost from the sensors of its forward pass at this state
    if (!first && i % P == 0) mjp_setState(run.p, d);
    mj_step(m, d);
    pt = (mjpPoint){tm, x, x + m->nq, x + m->nq + m->nv, d->ctrl, d->sensordata, d->mocap_pos};
    mjp_residual(run.cost, m, &pt, r);
    total += mjp_costValue(run.cost, r);
    if (costs) costsRow(costs, i, tm, r, r + nr);

    // testspeed's order: the planning iterations after the step, for the steps to come
    if (!first && i % P == 0) plan(i, tm, iters, total / (i + 1), n, quiet, &it, log, attr);
  }
  double wall = tool_seconds() - start;
  for (int w = 0; w < mjNWARNING; w++)
    if (d->warning[w].number)
      weprintf("warning: %s: %d times (last index %d)", tool_warningText[w], d->warning[w].number,
               d->warning[w].lastinfo);
  if (!quiet)
    fprintf(stderr, "%smjplan: %ld steps, %d plans, average cost per step %.10g, %.3f s "
            "(real-time factor %.3g)\n", isatty(2) ? "\n" : "", n, it, n ? total / n : 0, wall,
            n * run.m->opt.timestep / wall);
  free(values), free(x), free(r);
}

int main(int argc, char** argv) {
  tool_init("mjplan", usageLines);
  atexit(cleanup);
  const char* model = NULL, *costfile = NULL, *key = NULL, *init = NULL, *out = "-";
  const char* logfile = NULL, *costsfile = NULL, *attrfile = NULL;
  double horizon = -1, dt = -1, tol = 1e-8, eps = 1e-6;
  int iterations = -1, ismpc = 0, P = 4, fd = 0, centered = 0, rollouts = -1, threads = 1;
  int quiet = 0, seedGiven = 0, first = 0;
  uint64_t seed = 0;
  long n = -1;
  for (int i = 1; i < argc; i++) {
    const char* s = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(s, "-h") || !strcmp(s, "--help")) help(helpText);
    else if (!strcmp(s, "--version")) version();
    else if (!strcmp(s, "--key") && more) key = argv[++i];
    else if (!strcmp(s, "--init") && more) init = argv[++i];
    else if (!strcmp(s, "--horizon") && more) horizon = number(s, argv[++i], 1e-9, 1e6);
    else if (!strcmp(s, "--timestep") && more) dt = number(s, argv[++i], 1e-9, 1e3);
    else if (!strcmp(s, "--iterations") && more) iterations = (int)number(s, argv[++i], 1, 1e9);
    else if (!strcmp(s, "--tol") && more) tol = number(s, argv[++i], 0, 1);
    else if (!strcmp(s, "--mpc")) ismpc = 1;
    else if (!strcmp(s, "-n") && more) n = (long)number(s, argv[++i], 0, 1e12);
    else if (!strcmp(s, "--replan") && more) P = (int)number(s, argv[++i], 1, 1e9);
    else if (!strcmp(s, "--plan-first")) first = 1;
    else if (!strcmp(s, "--deriv") && more) {
      s = argv[++i];
      if (!strcmp(s, "fd")) fd = 1;
      else if (strcmp(s, "analytic")) usageError("--deriv: analytic or fd, not '%s'", s);
    } else if (!strcmp(s, "--centered")) centered = 1;
    else if (!strcmp(s, "--eps") && more) eps = number(s, argv[++i], 1e-15, 1);
    else if (!strcmp(s, "--rollouts") && more) rollouts = (int)number(s, argv[++i], 2, 128);
    else if (!strcmp(s, "--planner") && more) {
      s = argv[++i];
      run.sampling = !strcmp(s, "sampling");
      if (!run.sampling && strcmp(s, "ilqg")) usageError("--planner: ilqg or sampling, not '%s'", s);
    } else if (!strcmp(s, "--seed") && more) {
      seed = (uint64_t)number(s, argv[++i], 0, 9007199254740992.0);
      seedGiven = 1;
    }
    else if (!strcmp(s, "--threads") && more) threads = (int)number(s, argv[++i], 1, 64);
    else if (!strcmp(s, "--log") && more) logfile = argv[++i];
    else if (!strcmp(s, "--costs") && more) costsfile = argv[++i];
    else if (!strcmp(s, "--attribution") && more) attrfile = argv[++i];
    else if (!strcmp(s, "--quiet")) quiet = 1;
    else if (!strcmp(s, "-o") && more) out = argv[++i];
    else if (s[0] == '-' && s[1]) usageError("unknown option or missing argument: %s", s);
    else if (!model) model = s;
    else if (!costfile) costfile = s;
    else usageError("unexpected argument: %s", s);
  }
  if (!model || !costfile) usageError("expected MODEL and COST");
  if (key && init) usageError("--key and --init both give the initial state: choose one");
  if (ismpc != (n >= 0)) usageError(ismpc ? "--mpc needs -n STEPS" : "-n is for --mpc");
  if (first && !ismpc) usageError("--plan-first is for --mpc");
  if ((centered || eps != 1e-6) && !fd) usageError("--centered and --eps are for --deriv fd");
  if (run.sampling && (fd || attrfile))
    usageError("--deriv and --attribution are for iLQG: predictive sampling takes no derivatives");
  if (seedGiven && !run.sampling) usageError("--seed is for --planner sampling");

  // the models and the cost
  char err[1024];
  run.m = eloadmodel(model);
  if (!(run.cost = mjp_parseCost(costfile, err, sizeof(err)))) eprintf("%s", err);
  char* sensors = mjp_costSensors(run.cost, run.m, err, sizeof(err));
  if (!sensors) eprintf("%s", err);
  run.mp = withSensors(model, sensors);
  free(sensors);
  if (mj_checkSupported(run.mp, err, sizeof(err))) eprintf("%s: %s", model, err);
  // history buffers (delayed actuators and sensors): their derivatives are not implemented
  if (run.mp->nhistory)
    eprintf("%s: history buffers (nsample, delay): not supported by mjplan yet", model);
  if (!(run.d = mj_makeData(run.mp))) eprintf("out of memory");
  initialState(key, init);

  // the planning copy and the planner
  if (dt < 0) dt = ismpc ? numeric(run.m, "agent_timestep", run.m->opt.timestep) : run.m->opt.timestep;
  if (horizon < 0) horizon = numeric(run.m, "agent_horizon", 0.5);
  if (rollouts < 0)
    rollouts = (int)numeric(run.m, run.sampling ? "sampling_trajectories" : "ilqg_num_rollouts", 10);
  if (rollouts < 2 || rollouts > 128) eprintf("%s: %d rollouts: between 2 and 128", model, rollouts);
  double knots = horizon / dt + 1;
  int T = (int)(ismpc ? fmax(fmin(knots, 512), 2) : fmax(knots, 2));
  if (!ismpc && knots > 100000) eprintf("--horizon %g at timestep %g: too many knots", horizon, dt);
  run.mplan = planningModel(dt, ismpc && !run.sampling);
  if (mjp_bindCost(run.cost, run.mplan, err, sizeof(err))) eprintf("%s", err);
  run.p = mjp_makePlanner(run.mplan, run.cost, T, rollouts, threads, fd, centered, eps, err, sizeof(err));
  if (!run.p) eprintf("%s", err);
  if (run.sampling &&
      mjp_setSampling(run.p, (int)fmin(numeric(run.m, "sampling_spline_points", 10), T),
                      (int)numeric(run.m, "sampling_representation", mjSPLINE_CUBIC),
                      numeric(run.m, "sampling_exploration", 0.1), seed, err, sizeof(err)))
    eprintf("%s: sampling: %s", model, err);
  mjtNum* u0 = emalloc(sizeof(mjtNum) * (size_t)(T * run.m->nu + 1));
  for (int t = 0; t < T; t++) memcpy(u0 + t * run.m->nu, run.d->ctrl, sizeof(mjtNum) * run.m->nu);
  mjp_setState(run.p, run.d);
  mjp_setActions(run.p, u0);
  free(u0);

  // run
  FILE* fo = openOut(0, out);
  FILE* fl = logfile ? openOut(1, logfile) : NULL;
  FILE* fc = costsfile ? openOut(2, costsfile) : NULL;
  FILE* fa = attrfile ? openOut(3, attrfile) : NULL;
  if (fl) logHeader(fl);
  if (fa) fputs("iteration,step,knot,term,max_dx,max_du\n", fa);
  if (ismpc) mpc(n, P, iterations < 0 ? 1 : iterations, first, quiet, fo, fl, fc, fa);
  else offline(iterations < 0 ? 100 : iterations, tol, quiet, fo, fl, fc, fa);
  if (fa) closeOut(3);
  if (fc) closeOut(2);
  if (fl) closeOut(1);
  closeOut(0);
  return EXIT_OK;
}
