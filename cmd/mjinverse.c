// mjinverse: inverse dynamics along a state stream: (qpos, qvel, qacc) in, the generalized
// forces that produce them out.
//
//   mjinverse MODEL [--from-trajectory] [--set NAME=VALUE]... [--disable FLAG]...
//             [--enable FLAG]... [--fields LIST] [--efc FILE] [-o OUT] [STREAM | -]
//   mjinverse --help | --version
//
// MODEL is a binary model or an MJCF file.  STREAM (default: standard input) is a state
// stream bound to MODEL carrying qpos, qvel and qacc, as `mjstep --fields time,qpos,qvel,qacc`
// writes it; every other field it carries (act, ctrl, mocap, eq_active, ...) is set too.  Each
// frame runs mj_inverse, and a frame of the output stream (bound to MODEL as stored, like
// mjstep's) is written from the result: by default time and qfrc_inverse, the force
// qfrc_applied + qfrc_actuator + J' xfrc_applied that gives qacc; --fields chooses others
// (qfrc_constraint, sensordata, ...).  With --from-trajectory the stream need carry only qpos
// and qvel, one frame per step: the acceleration of frame k is the integrator's discrete one,
// (qvel[k+1] - qvel[k]) / timestep, converted to continuous time as the invdiscrete flag does
// (Euler's implicit damping, implicit, implicitfast; RK4 steps cannot be inverted); the last
// frame has no successor and gives no output.  --efc writes the constraint rows of every frame
// as CSV: frame,time,row,type,id,force,state.
//
// Exit status: 0 success, 2 usage or data error (no partial output file is left behind).
#include "tool.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char usageLines[] =
  "usage: mjinverse MODEL [--from-trajectory] [--set NAME=VALUE]... [--disable FLAG]...\n"
  "                 [--enable FLAG]... [--fields LIST] [--efc FILE] [-o OUT] [STREAM | -]\n"
  "       mjinverse --help | --version\n";

// what --help prints after the usage text
static const char helpText[] =
  "\n"
  "Inverse dynamics of each frame of a state stream (man 5 mjt) carrying qpos, qvel and\n"
  "qacc: writes a stream of the generalized forces that produce the accelerations.\n"
  "options:\n"
  "  --from-trajectory   the stream carries qpos and qvel of consecutive steps only: qacc\n"
  "                      is (qvel[k+1] - qvel[k]) / timestep, as the integrator made it\n"
  "  --set NAME=VALUE    override an option: timestep=0.001, integrator=implicit, ...\n"
  "  --disable FLAG      disable a feature by its MJCF <flag> name: contact, gravity, ...\n"
  "  --enable FLAG       enable one: invdiscrete (qacc is the integrator's discrete one), ...\n"
  "  --fields LIST       fields of the output frames (default time,qfrc_inverse; also\n"
  "                      qfrc_constraint, sensordata, qacc, ... see mjt(5))\n"
  "  --efc FILE          constraint rows of every frame as CSV: frame,time,row,type,id,\n"
  "                      force,state\n"
  "  -o OUT              output file instead of standard output\n"
  "  -h, --help, --version\n";

// names of the constraint types and states, for --efc
static const char* const typeName[] = {
  "equality", "friction_dof", "friction_tendon", "limit_joint", "limit_tendon",
  "contact_frictionless", "contact_pyramidal", "contact_elliptic"};
static const char* const stateName[] = {"satisfied", "quadratic", "linearneg", "linearpos",
                                        "cone"};

// the run's resources, released at exit (also after eprintf)
static struct {
  mjModel* m;             // the model, options overridden
  mjData* d[2];           // this frame and the next (--from-trajectory)
  FILE* in;               // the input stream
  mjOutFile* out;         // the output stream, discarded unless committed
  mjOutFile* efc;         // the --efc table, discarded unless committed
} run;

// discard uncommitted outputs, free everything; a stream cut short on standard output ends
// inside a frame, so that readers report it truncated
static void cleanup(void) {
  if (run.out && !run.out->tmp[0]) fputc('M', run.out->f);
  if (run.out) mj_outClose(run.out, 0, NULL, 0);
  if (run.efc) mj_outClose(run.efc, 0, NULL, 0);
  free(run.out), free(run.efc);
  if (run.in && run.in != stdin) fclose(run.in);
  mj_deleteData(run.d[0]), mj_deleteData(run.d[1]);
  mj_deleteModel(run.m);
}

// 1 for the stream kinds stored as mjtNum
static int isReal(int kind) {
  return kind != mjSK_INT && kind != mjSK_EQ && kind != mjSK_WARNING;
}

// every real value of the fields of mask that frame k set in d is finite, else an error
static void checkFinite(const mjStreamHeader* h, const mjData* d, uint32_t mask, long k) {
  const mjModel* m_ = run.m;
  MJ_SIZES(MJ_X_SIZE_LOCAL)
#define MJ_X_CHECK(fld, count, src, kind)                                                         \
  if ((h->mask & mask) >> mjSTREAM_##fld & 1 && isReal(kind)) {                                   \
    const mjtNum* v = (const mjtNum*)(const void*)(src);                                          \
    for (int i = 0; i < (count); i++) {                                                           \
      if (isfinite(v[i])) continue;                                                               \
      char el[128];                                                                               \
      mj_streamElementName(run.m, mjSTREAM_##fld, i, 1, el, sizeof(el));                          \
      eprintf("%s: frame %ld: %s is %g: the state must be finite", h->name, k, el, v[i]);         \
    }                                                                                             \
  }
  MJ_STREAM_FIELDS(MJ_X_CHECK)
#undef MJ_X_CHECK
}

// the next frame into d: 1, or 0 at the end of the stream
static int readFrame(mjStreamHeader* h, mjData* d) {
  char err[512];
  long k = h->frame;
  int r = mj_streamReadFrame(run.in, h, run.m, d, err, sizeof(err));
  if (r < 0) eprintf("%s", err);
  if (r) checkFinite(h, d, mjSTREAM_STATE | mjSTREAM_INPUT | 1u << mjSTREAM_qacc, k);
  return r;
}

// the constraint rows of frame k as CSV lines
static void writeEfc(FILE* f, const mjData* d, long k) {
  for (int i = 0; i < d->nefc; i++) {
    fprintf(f, "%ld,%.17g,%d,%s,%d,%.17g,%s\n", k, d->time, i, typeName[d->efc_type[i]],
            d->efc_id[i], d->efc_force[i], stateName[d->efc_state[i]]);
  }
}

// the discrete-time qacc of d[0] from the next frame d[1]; the frames must be one step apart
static void trajectoryAcc(const mjStreamHeader* h, mjData* d, const mjData* next, long k) {
  mjtNum step = run.m->opt.timestep;
  if (h->mask >> mjSTREAM_time & 1) {
    mjtNum dt = next->time - d->time;
    if (!(fabs(dt - step) <= 1e-9 * fmax(1, fabs(next->time))))
      eprintf("%s: frames %ld and %ld are %.17g s apart, not one timestep (%g s): "
              "--from-trajectory needs every step (mjstep --every 1)", h->name, k, k + 1, dt,
              step);
  }
  for (int i = 0; i < run.m->nv; i++) d->qacc[i] = (next->qvel[i] - d->qvel[i]) / step;
}

int main(int argc, char** argv) {
  tool_init("mjinverse", usageLines);
  atexit(cleanup);
  const char *model = NULL, *in = NULL, *out = "-", *efc = NULL;
  const char* fields = "time,qfrc_inverse";
  int fromTraj = 0;
  // --set, --disable and --enable in command-line order: their argv indices
  int* overrides = emalloc(sizeof(int) * (size_t)argc);
  int noverride = 0;
  for (int i = 1; i < argc; i++) {
    const char* s = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(s, "-h") || !strcmp(s, "--help")) help(helpText);
    else if (!strcmp(s, "--version")) version();
    else if (!strcmp(s, "--from-trajectory")) fromTraj = 1;
    else if ((!strcmp(s, "--set") || !strcmp(s, "--disable") || !strcmp(s, "--enable")) && more)
      overrides[noverride++] = i++;
    else if (!strcmp(s, "--fields") && more) fields = argv[++i];
    else if (!strcmp(s, "--efc") && more) efc = argv[++i];
    else if (!strcmp(s, "-o") && more) out = argv[++i];
    else if (s[0] == '-' && s[1]) usageError("unknown option or missing value: %s", s);
    else if (!model) model = s;
    else if (!in) in = s;
    else usageError("too many arguments: %s", s);
  }
  if (!model) usageError("no model");
  if (!in) in = "-";
  if (efc && !strcmp(efc, "-") && !strcmp(out, "-"))
    usageError("--efc - and the stream cannot both go to standard output");
  uint32_t mask;
  char err[512];
  if (mj_streamParseFields(fields, &mask, err, sizeof(err))) usageError("--fields: %s", err);

  // the model; the input stream, bound to it; the output header, before the overrides
  mjModel* m = run.m = eloadmodel(model);
  mjStreamHeader ih, oh;
  run.in = strcmp(in, "-") ? fopen(in, "rb") : stdin;
  if (!run.in) eprintf("%s:", in);
  if (mj_streamReadHeader(run.in, in, &ih, err, sizeof(err))) eprintf("%s", err);
  if (mj_streamCheckModel(&ih, m, err, sizeof(err))) eprintf("%s", err);
  const char* need[] = {"qpos", "qvel", fromTraj ? NULL : "qacc"};
  for (int i = 0; i < 3 && need[i]; i++) {
    if (!(ih.mask >> mj_streamFieldFind(need[i]) & 1))
      eprintf("%s: the stream carries no %s%s", ih.name, need[i],
              i < 2 ? "" : " (mjstep --fields time,qpos,qvel,qacc; or --from-trajectory)");
  }
  mj_streamInit(&oh, m, mask, out);

  // the option overrides, in order
  for (int j = 0; j < noverride; j++) {
    const char *opt = argv[overrides[j]], *val = argv[overrides[j] + 1];
    int r = !strcmp(opt, "--set") ? mj_setOptionString(m, val, err, sizeof(err))
                                  : mj_setFlag(m, val, !strcmp(opt, "--enable"), err,
                                               sizeof(err));
    if (r) eprintf("%s %s: %s", opt, val, err);
  }
  free(overrides);

  // sleeping islands: which trees sleep is state the streams do not carry, and the inverse of
  // a step that froze some is not implemented
  if (m->opt.enableflags & mjENBL_SLEEP)
    eprintf("%s: option flag 'sleep': not supported by this simulator", model);
  // history buffers: delayed controls and readings are state the streams do not carry
  if (m->nhistory)
    eprintf("%s: history buffers (nsample, delay): not supported by mjinverse yet", model);

  // a trajectory's accelerations are discrete; Euler without dampers has no implicit damping
  if (fromTraj) {
    m->opt.enableflags |= mjENBL_INVDISCRETE;
    if (m->opt.integrator == mjINT_EULER && m->opt.disableflags & mjDSBL_DAMPER)
      m->opt.disableflags |= mjDSBL_EULERDAMP;
  }
  if (m->opt.enableflags & mjENBL_INVDISCRETE && m->opt.integrator == mjINT_RK4)
    eprintf("%s: the RK4 integrator's discrete accelerations cannot be inverted "
            "(Euler, implicit and implicitfast can)", fromTraj ? "--from-trajectory"
                                                               : "invdiscrete");

  // the outputs
  run.d[0] = mj_makeData(m);
  run.d[1] = mj_makeData(m);
  if (!run.d[0] || !run.d[1]) eprintf("out of memory for the data of the model");
  run.out = tool_outOpen(out);
  if (mj_streamWriteHeader(run.out->f, &oh, err, sizeof(err))) eprintf("%s", err);
  if (efc) {
    run.efc = tool_outOpen(efc);
    fputs("frame,time,row,type,id,force,state\n", run.efc->f);
  }

  // each frame (with its successor for a trajectory): inverse, write
  mjData* d = run.d[0];
  int have = readFrame(&ih, d);
  for (long k = 0; have; k++) {
    // the successor: both data hold the defaults in the fields the stream does not carry
    mjData* next = run.d[1];
    if (fromTraj) {
      if (!readFrame(&ih, next)) break;
      trajectoryAcc(&ih, d, next, k);
    }
    mj_passGrow(m, d, mj_inverse);
    if (mj_streamWriteFrame(run.out->f, &oh, d)) eprintf("%s: write error:", oh.name);
    if (run.efc) writeEfc(run.efc->f, d, k);

    // the next frame
    if (fromTraj) {
      run.d[0] = next, run.d[1] = d, d = next;
    } else {
      have = readFrame(&ih, d);
    }
  }
  if (run.efc) tool_outCommit(&run.efc);
  tool_outCommit(&run.out);
  return EXIT_OK;
}
