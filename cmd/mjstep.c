// mjstep: simulate a model: an initial state and controls in, a state stream out.
//
//   mjstep MODEL (-n STEPS | --duration SECONDS) [--key NAME|INDEX] [--ctrl FILE]
//          [--set NAME=VALUE]... [--disable FLAG]... [--enable FLAG]... [--fields LIST]
//          [--every K] [--batch | --random N] [--seed S] [--qpos-noise S] [--qvel-noise S]
//          [--act-noise S] [--ctrl-noise S] [--shard i/n | --range a:b] [--threads N]
//          [--strict] [--bench] [--profile] [-o OUT] [STREAM | -]
//   mjstep --help | --version
//
// MODEL is a binary model or an MJCF file (compiled on the fly).  The initial state is the
// model's default, or keyframe --key, overwritten by the fields that the last frame of STREAM
// carries (--init STREAM is the same).  With --batch every frame of STREAM is one initial state
// and one trajectory; the trajectories follow each other in the output in input order,
// computed by --threads N threads, byte for byte what running them one at a time gives.
// --random N runs N trajectories from the initial state; with --batch or --random, the noise
// options add normal noise of the given standard deviation to trajectory k's initial qpos (in
// the tangent space: mj_integratePos), qvel, act, and to every step's controls, drawn from
// counter-based streams keyed by (--seed, k): trajectory k is the same bytes whatever else runs.
// --shard i/n runs the i-th of n contiguous blocks of the trajectories, --range a:b the
// trajectories a..b-1: the stream of a part carries a range record (man 5 mjt) and mjcat(1)
// merges the parts into the bytes of the whole run.
//
// Frames are written at step 0 (the initial state) and every K-th step after it: n/K + 1 frames
// per trajectory.  Derived fields (qacc, sensordata, ...) of a frame belong to its state: they
// are computed by mj_forward before it is written; so no output reads the sensors of a step,
// and the steps skip them (mj_stepNoSensor: the same states).  Controls: row k of --ctrl
// (text, or a state stream carrying ctrl) is d->ctrl for step k; the last row holds after the
// end.  The output stream is bound to MODEL as stored: --set, --disable and --enable do not
// change that.
//
// Exit status: 0 success, 2 usage or data error (no partial output file is left behind).
// SIGINT or SIGTERM stops the simulation between steps: a stream on standard output or a pipe
// ends after its last whole frame, a file output is removed; mjstep then dies of the signal.
#include "tool.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usageLines[] =
  "usage: mjstep MODEL (-n STEPS | --duration SECONDS) [--key NAME|INDEX] [--ctrl FILE]\n"
  "              [--set NAME=VALUE]... [--disable FLAG]... [--enable FLAG]...\n"
  "              [--fields LIST] [--every K] [--batch | --random N] [--seed S]\n"
  "              [--qpos-noise S] [--qvel-noise S] [--act-noise S] [--ctrl-noise S]\n"
  "              [--shard i/n | --range a:b] [--threads N] [--strict] [--bench]\n"
  "              [--profile] [-o OUT] [--init STREAM | STREAM | -]\n"
  "       mjstep --help | --version\n";

// what --help prints after the usage text
static const char helpText[] =
  "\n"
  "Simulate MODEL from an initial state and write a state stream (man 5 mjt).\n"
  "options:\n"
  "  -n STEPS            number of steps\n"
  "  --duration SECONDS  steps until the simulated time has advanced by SECONDS\n"
  "  --key NAME|INDEX    start from this keyframe instead of the model default\n"
  "  --init STREAM       overwrite the initial state with the fields of the stream's last\n"
  "                      frame (also the positional STREAM; - is stdin)\n"
  "  --ctrl FILE         controls, one row per step: text (nu numbers a line, separated by\n"
  "                      commas or blanks, # comments) or a state stream carrying ctrl\n"
  "  --set NAME=VALUE    override an option: timestep=0.001, integrator=RK4, gravity=0,0,-1\n"
  "  --disable FLAG      disable a feature by its MJCF <flag> name: contact, gravity, ...\n"
  "  --enable FLAG       enable one: energy, ... (or undo a disable)\n"
  "  --fields LIST       fields of the frames (default time,qpos,qvel,act; see mjt(5))\n"
  "  --every K           write every K-th step (default 1)\n"
  "  --batch             one trajectory per frame of STREAM, in input order\n"
  "  --random N          N trajectories from the initial state, with the noise below\n"
  "  --seed S            the noise's seed (default 0): trajectory k draws from (S, k)\n"
  "  --qpos-noise S      normal noise of standard deviation S on the initial qpos (per\n"
  "                      dof), --qvel-noise on qvel, --act-noise on act, --ctrl-noise on\n"
  "                      every step's controls (--batch and --random)\n"
  "  --shard i/n         only the i-th of n contiguous blocks of the trajectories (0-based)\n"
  "  --range a:b         only the trajectories a..b-1\n"
  "  --threads N         threads for --batch and --random (default: the processors)\n"
  "  --strict            a simulation warning is an error\n"
  "  --bench             write nothing; print the simulation rate on stderr\n"
  "  --profile           print the time of each pipeline stage on stderr (a summary),\n"
  "                      then the steps/s rate line --bench prints\n"
  "  -o OUT              output file instead of standard output\n"
  "  -h, --help, --version\n";

// the result of one trajectory
typedef struct Item_ {
  char* buf;                    // its frames (threaded batch)
  size_t size;                  // bytes in buf
  int done;                     // finished
  mjWarningStat warning[mjNWARNING];  // the warnings it raised
  mjTimerStat timer[mjNTIMER];  // its stage times (--profile)
  char err[512];                // an error stopped it
} Item;

// the noise channels: the standard deviations' indices and the random streams' channels
enum { NOISE_QPOS, NOISE_QVEL, NOISE_ACT, NOISE_CTRL, NNOISE };
static const char* const noiseOption[NNOISE] = {"--qpos-noise", "--qvel-noise", "--act-noise",
                                                "--ctrl-noise"};

// ---- the run: settings and inputs, shared read-only by the threads ----------------------------

static struct {
  mjModel* m;              // the model, options overridden
  int key;                 // keyframe of the initial state, -1 for the model default
  long nstep;              // steps per trajectory
  long every;              // frame spacing in steps
  int strict;              // warnings are errors
  int bench;               // no frames
  int profile;             // stage timers on
  int forward;             // frames carry derived fields: mj_forward before writing
  mjStreamHeader out;      // the output stream
  mjtNum* ctrl;            // control rows (nctrl x nu), NULL for none
  long nctrl;
  unsigned char* init;     // the initial-state stream's bytes, NULL for none
  size_t ninit;
  mjStreamHeader inith;    // its header
  long* frameAt;           // byte offset of each frame (nframe)
  long nframe;
  long ntraj;              // trajectories of this run (its shard)
  long first;              // the index of the first in the whole run
  uint64_t seed;           // the noise's seed
  double noise[4];         // standard deviations: qpos, qvel, act, ctrl (NOISE_*)
  char* ctrlBytes;         // the control file's bytes
  size_t nctrlBytes;
  mjtNum* values;          // one frame of values (reading)
  mjOutFile* pending;      // the output, discarded when the tool exits early
  Item* items;             // the trajectories' results (ntraj)
} run = {.key = -1, .nstep = -1, .every = 1};

// free the heap blocks and discard an uncommitted output (at exit, also after eprintf); a
// stream cut short on standard output ends inside a frame, so that readers report it truncated
static void cleanup(void) {
  if (run.pending && !run.pending->tmp[0]) fputc('M', run.pending->f);
  if (run.pending) mj_outClose(run.pending, 0, NULL, 0);
  free(run.pending);
  free(run.ctrl), free(run.init), free(run.frameAt), free(run.ctrlBytes), free(run.values);
  for (long k = 0; run.items && k < run.ntraj; k++) free(run.items[k].buf);
  free(run.items);
  mj_deleteModel(run.m);
}

// seconds on the monotonic clock
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

// ---- reading inputs ---------------------------------------------------------------------------

// the whole of a file ("-": stdin) in a new buffer, NUL-terminated; *size its length
static char* slurp(const char* path, size_t* size) {
  FILE* f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
  if (!f) eprintf("%s:", path);
  size_t cap = 1 << 16, n = 0;
  char* buf = emalloc(cap);
  for (;;) {
    n += fread(buf + n, 1, cap - 1 - n, f);
    if (n < cap - 1) break;
    char* grown = realloc(buf, cap *= 2);
    if (!grown) eprintf("%s: out of memory", path);
    buf = grown;
  }
  if (ferror(f)) eprintf("%s: read error:", path);
  if (f != stdin) fclose(f);
  buf[n] = 0;
  *size = n;
  return buf;
}

// a read-only stream over bytes in memory
static FILE* memFile(const void* bytes, size_t size, const char* path) {
  FILE* f = fmemopen((void*)bytes, size, "rb");
  if (!f) eprintf("%s:", path);
  return f;
}

// 1 when the bytes begin like a state stream
static int isStream(const void* bytes, size_t size) {
  return size >= 8 && !memcmp(bytes, "MJSTREAM", 8);
}

// a stream in memory with its header read and checked against the model
static FILE* openStream(const void* bytes, size_t size, const char* path, mjStreamHeader* h) {
  char err[512];
  FILE* f = memFile(bytes, size, path);
  if (mj_streamReadHeader(f, path, h, err, sizeof(err))) eprintf("%s", err);
  if (mj_streamCheckModel(h, run.m, err, sizeof(err))) eprintf("%s", err);
  return f;
}

// every value of the input fields present in a frame is finite, else an error naming it
static void checkFinite(const mjStreamHeader* h, const mjtNum* v, uint32_t fields) {
  for (int g = 0; g < mjNSTREAMFIELD; g++) {
    if (!((h->mask & fields) >> g & 1)) continue;
    const mjtNum* x = v + mj_streamFieldOffset(h, g);
    for (int i = 0, n = mj_streamFieldSize(h, g); i < n; i++) {
      if (isfinite(x[i])) continue;
      char el[128];
      mj_streamElementName(run.m, g, i, 1, el, sizeof(el));
      eprintf("%s: frame %ld: %s is %g: the initial state must be finite", h->name,
              h->frame - 1, el, x[i]);
    }
  }
}

// the initial-state stream: read whole, every frame checked, the frames' offsets kept; a
// batch may have none (an empty run), a single initial state needs one
static void readInit(const char* path, int batch) {
  char err[512];
  run.init = (unsigned char*)slurp(path, &run.ninit);
  FILE* f = openStream(run.init, run.ninit, path, &run.inith);
  run.values = emalloc(sizeof(mjtNum) * (size_t)(run.inith.nvalue + 1));
  long cap = 16;
  run.frameAt = emalloc(sizeof(long) * cap);
  for (;;) {
    long at = ftell(f);
    int r = mj_streamReadValues(f, &run.inith, run.values, err, sizeof(err));
    if (r < 0) eprintf("%s", err);
    if (r == 0) break;
    checkFinite(&run.inith, run.values, mjSTREAM_STATE | mjSTREAM_INPUT);
    if (run.nframe == cap) {
      long* grown = realloc(run.frameAt, sizeof(long) * (cap *= 2));
      if (!grown) eprintf("%s: out of memory", path);
      run.frameAt = grown;
    }
    run.frameAt[run.nframe++] = at;
  }
  fclose(f);
  if (!run.nframe && !batch)
    eprintf("%s: no frames: an initial state needs one", run.inith.name);
}

// control rows from a state stream carrying ctrl
static void readCtrlStream(const char* path, const char* bytes, size_t size) {
  char err[512];
  mjStreamHeader h;
  FILE* f = openStream(bytes, size, path, &h);
  int off = mj_streamFieldOffset(&h, mjSTREAM_ctrl), nu = run.m->nu;
  if (off < 0) eprintf("%s: the stream carries no ctrl", h.name);
  mjtNum* v = emalloc(sizeof(mjtNum) * (size_t)(h.nvalue + 1));
  long cap = 0;
  int r;
  while ((r = mj_streamReadValues(f, &h, v, err, sizeof(err))) == 1) {
    if (run.nctrl == cap) {
      cap = cap ? 2 * cap : 256;
      mjtNum* grown = realloc(run.ctrl, sizeof(mjtNum) * (size_t)(cap * nu + 1));
      if (!grown) eprintf("%s: out of memory", path);
      run.ctrl = grown;
    }
    checkFinite(&h, v, 1u << mjSTREAM_ctrl);
    memcpy(run.ctrl + run.nctrl++ * nu, v + off, sizeof(mjtNum) * nu);
  }
  free(v);
  fclose(f);
  if (r < 0) eprintf("%s", err);
  if (!run.nctrl) eprintf("%s: no frames: no controls", h.name);
}

// split a text line into cells at commas (when it has one) or else at blanks; the count
static int splitCells(char* line, char** cell, int max) {
  int n = 0, csv = strchr(line, ',') != NULL;
  for (char* p = line; *p && n <= max;) {
    while (*p == ' ' || *p == '\t') p++;
    if (!*p && !csv) break;
    char* end = p + (csv ? strcspn(p, ",") : strcspn(p, " \t"));
    char* cut = end;
    while (cut > p && (cut[-1] == ' ' || cut[-1] == '\t')) cut--;
    int last = !*end;
    *cut = 0;
    if (n < max) cell[n] = p;
    n++;
    if (last) break;
    p = end + 1;
  }
  return n;
}

// 1 when the cells are the element names ctrl[0] ... ctrl[nu-1] (mjdump's header row)
static int isCtrlHeader(char** cell, int n) {
  for (int i = 0; i < n; i++) {
    char name[32];
    snprintf(name, sizeof(name), "ctrl[%d]", i);
    if (strcmp(cell[i], name)) return 0;
  }
  return n > 0;
}

// control rows from text: nu numbers a line, '#' comments, blank lines skipped; a first row
// of element names (mjdump --csv) is a header
static void readCtrlText(const char* path, char* text) {
  int nu = run.m->nu;
  char** cell = emalloc(sizeof(char*) * (size_t)(nu + 1));
  long cap = 0, lineno = 0, rows = 0;
  for (char* line = text; line;) {
    char* next = strchr(line, '\n');
    if (next) *next++ = 0;
    lineno++;
    line[strcspn(line, "#\r")] = 0;
    int n = splitCells(line, cell, nu);
    if (n > 0 && n == nu && !rows++ && isCtrlHeader(cell, n)) {
      line = next;
      continue;
    }
    if (n > 0 && n != nu)
      eprintf("%s:%ld: %d numbers, expected %d (one per actuator)", path, lineno, n, nu);
    if (n > 0 && run.nctrl == cap) {
      cap = cap ? 2 * cap : 256;
      mjtNum* grown = realloc(run.ctrl, sizeof(mjtNum) * (size_t)(cap * nu + 1));
      if (!grown) eprintf("%s: out of memory", path);
      run.ctrl = grown;
    }
    for (int i = 0; i < n; i++) {
      char* end;
      double x = strtod(cell[i], &end);
      if (end == cell[i] || *end || !isfinite(x))
        eprintf("%s:%ld: column %d: '%s' is not a finite number", path, lineno, i + 1, cell[i]);
      run.ctrl[run.nctrl * nu + i] = x;
    }
    if (n > 0) run.nctrl++;
    line = next;
  }
  free(cell);
  if (!run.nctrl) eprintf("%s: no control rows", path);
}

// controls from a text file or a state stream
static void readCtrl(const char* path) {
  size_t size;
  run.ctrlBytes = slurp(path, &size);
  run.nctrlBytes = size;
  if (isStream(run.ctrlBytes, size)) readCtrlStream(path, run.ctrlBytes, size);
  else readCtrlText(path, run.ctrlBytes);
}

// ---- simulating -------------------------------------------------------------------------------

// the progress bar on stderr: drawn by the main thread only
static struct {
  int on;               // stderr is a terminal
  long total;           // steps of the whole run
  atomic_long done;     // steps done so far (all threads)
  double start, last;   // clock at the start, at the last drawing
  int shown;            // a bar is on the screen
} progress;

// redraw the bar when the run has lasted half a second, at most ten times a second
static void progressDraw(void) {
  if (!progress.on) return;
  double t = now();
  if (t - progress.start < 0.5 || t - progress.last < 0.1) return;
  long done = atomic_load(&progress.done);
  double frac = progress.total ? (double)done / progress.total : 1;
  int width = 40, fill = (int)(frac * width);
  fprintf(stderr, "\r%s: [%.*s%*s] %3d%% %ld/%ld steps", argv0, fill,
          "########################################", width - fill, "", (int)(100 * frac), done,
          progress.total);
  progress.last = t;
  progress.shown = 1;
}

// erase the bar
static void progressEnd(void) {
  if (progress.shown) fputs("\r\033[K", stderr);
  progress.shown = 0;
}

// total warnings raised in d
static int warningCount(const mjData* d) {
  int n = 0;
  for (int w = 0; w < mjNWARNING; w++) n += d->warning[w].number;
  return n;
}

// the first warning raised in d as a message, for --strict
static void warningError(const mjData* d, long step, char* err, int errsz) {
  for (int w = 0; w < mjNWARNING; w++) {
    if (!d->warning[w].number) continue;
    snprintf(err, errsz, "step %ld (time %.17g): warning: %s (index %d)", step, d->time,
             tool_warningText[w], d->warning[w].lastinfo);
    return;
  }
}

// the initial state of trajectory k of this run in d: model default or keyframe, then its
// frame of the initial-state stream, then the noise of its index in the whole run; warnings
// start at zero
static void initialState(mjData* d, long k, char* err, int errsz) {
  const mjModel* m = run.m;
  long global = run.first + k;
  if (run.key >= 0) mj_resetDataKeyframe(m, d, run.key);
  else mj_resetData(m, d);
  if (run.init) {
    long at = run.frameAt[run.nframe > 1 ? global : 0];
    FILE* f = fmemopen(run.init + at, run.ninit - at, "rb");
    mjStreamHeader h = run.inith;
    h.frame = k;
    if (!f) snprintf(err, errsz, "%s: %s", h.name, strerror(errno));
    else if (mj_streamReadFrame(f, &h, run.m, d, err, errsz) != 1 && !err[0])
      snprintf(err, errsz, "%s: frame %ld vanished", h.name, k);
    if (f) fclose(f);
  }
  // qpos moves along dq ~ N(0, s^2) per dof; qvel and act get their noise added
  if (run.noise[NOISE_QPOS] > 0) {
    uint64_t key = mj_randomKey(run.seed, global, NOISE_QPOS);
    size_t mark = mj_markStack(d);
    mjtNum* dq = mj_stackAlloc(d, m->nv);
    for (int i = 0; i < m->nv; i++) dq[i] = run.noise[NOISE_QPOS] * mj_randomNormal(key, i);
    mj_integratePos(m, d->qpos, dq, 1);
    mj_freeStack(d, mark);
  }
  for (int c = NOISE_QVEL; c <= NOISE_ACT; c++) {
    if (run.noise[c] <= 0) continue;
    uint64_t key = mj_randomKey(run.seed, global, c);
    mjtNum* x = c == NOISE_QVEL ? d->qvel : d->act;
    for (int i = 0, n = c == NOISE_QVEL ? m->nv : m->na; i < n; i++)
      x[i] += run.noise[c] * mj_randomNormal(key, i);
  }
  memset(d->warning, 0, sizeof(d->warning));
}

// where a trajectory's frames go: the stream, and the trajectory a failed write stops
typedef struct {
  FILE* out;
  Item* item;
} Sink;

// write d's frame to the sink (also as the visit of mj_stepVisit)
static void writeFrame(const mjModel* m, const mjData* d, void* arg) {
  (void)m;
  Sink* s = arg;
  if (!s->item->err[0] && mj_streamWriteFrame(s->out, &run.out, d))
    snprintf(s->item->err, sizeof(s->item->err), "%s: write error: %s", run.out.name,
             strerror(errno));
}

// one trajectory from initial state k, its frames written to out (NULL: none); draw: this is
// the main thread, which draws the progress bar
static void simulate(mjData* d, long k, FILE* out, int draw, Item* item) {
  const mjModel* m = run.m;
  Sink sink = {out, item};
  initialState(d, k, item->err, sizeof(item->err));
  int nu = m->nu;
  long tick = 0;
  // the controls that --ctrl-noise perturbs: --ctrl's rows, else the initial state's
  uint64_t ctrlKey = mj_randomKey(run.seed, run.first + k, NOISE_CTRL);
  mjtNum sigma = run.noise[NOISE_CTRL];
  mjtNum* base = sigma > 0 ? malloc(sizeof(mjtNum) * (size_t)(nu + 1)) : NULL;
  if (sigma > 0 && !base) snprintf(item->err, sizeof(item->err), "out of memory");
  if (base) memcpy(base, d->ctrl, sizeof(mjtNum) * nu);
  // an interrupt stops before a step: what was written ends on a frame boundary
  for (long step = 0; !item->err[0] && !tool_interrupted; step++) {
    // this step's controls: row `step`, the last row after the end
    if (run.ctrl) {
      long row = step < run.nctrl ? step : run.nctrl - 1;
      memcpy(d->ctrl, run.ctrl + row * nu, sizeof(mjtNum) * nu);
    }
    if (base) {
      const mjtNum* c = run.ctrl ? d->ctrl : base;
      for (int i = 0; i < nu; i++)
        d->ctrl[i] = c[i] + sigma * mj_randomNormal(ctrlKey, (uint64_t)step * nu + i);
    }

    // a frame every `every` steps; derived fields come from the step's own forward pass (the
    // last frame's, after the last step, from a forward pass of its own), state fields need none
    int frame = out && step % run.every == 0;
    if (frame && (!run.forward || step == run.nstep)) {
      if (run.forward) {
        // that forward pass is not part of the steps' profile
        mjTimerStat keep[mjNTIMER];
        memcpy(keep, d->timer, sizeof(keep));
        mj_passGrow(m, d, mj_forward);
        memcpy(d->timer, keep, sizeof(keep));
      }
      writeFrame(m, d, &sink);
      frame = 0;
    }
    if (step == run.nstep || item->err[0]) break;
    if (frame) mj_stepVisit(m, d, writeFrame, &sink);
    else mj_passGrow(m, d, mj_stepNoSensor);
    if (run.strict && warningCount(d)) warningError(d, step, item->err, sizeof(item->err));

    // progress, now and then
    if (++tick == 1024) {
      atomic_fetch_add(&progress.done, tick);
      tick = 0;
      if (draw) progressDraw();
    }
  }
  free(base);
  atomic_fetch_add(&progress.done, tick);
  memcpy(item->warning, d->warning, sizeof(item->warning));
  memcpy(item->timer, d->timer, sizeof(item->timer));
}

// the bytes of one trajectory's frames
static size_t trajectoryBytes(void) {
  if (run.bench) return 0;
  return (size_t)(run.nstep / run.every + 1) * (8 + 8 * (size_t)run.out.nvalue);
}

// ---- threads for --batch -----------------------------------------------------------------------

// the work queue: trajectories are taken in order, and at most `window` ahead of the writer
static struct {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  long next;          // the next trajectory to take
  long written;       // trajectories written out
  long window;        // how far ahead of the writer the takers may go
  int stop;           // an error: take no more
  Item* items;        // per trajectory
} queue = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, 0, NULL};

// a worker: its own data; take a trajectory, simulate it into a buffer, repeat
static void* worker(void* arg) {
  (void)arg;
  mjData* d = mj_makeData(run.m);
  size_t size = trajectoryBytes();
  for (;;) {
    // take the next trajectory within the window
    pthread_mutex_lock(&queue.lock);
    while (!queue.stop && queue.next < run.ntraj && queue.next >= queue.written + queue.window)
      pthread_cond_wait(&queue.cond, &queue.lock);
    long k = queue.stop ? run.ntraj : queue.next++;
    pthread_mutex_unlock(&queue.lock);
    if (k >= run.ntraj) break;

    // simulate it into a buffer of the exact size (one byte more for fmemopen's NUL)
    Item* it = &queue.items[k];
    FILE* f = NULL;
    it->buf = malloc(size + 1);
    if (it->buf && size) f = fmemopen(it->buf, size + 1, "wb");
    if (!d || !it->buf || (size && !f)) {
      snprintf(it->err, sizeof(it->err), "out of memory");
    } else {
      simulate(d, k, f, 0, it);
      if (f && fclose(f)) snprintf(it->err, sizeof(it->err), "memory stream error");
      it->size = size;
    }

    // hand it to the writer
    pthread_mutex_lock(&queue.lock);
    it->done = 1;
    pthread_cond_broadcast(&queue.cond);
    pthread_mutex_unlock(&queue.lock);
  }
  mj_deleteData(d);
  return NULL;
}

// stop the workers and wait for them
static void joinWorkers(pthread_t* tid, int n, int stop) {
  pthread_mutex_lock(&queue.lock);
  queue.stop |= stop;
  pthread_cond_broadcast(&queue.cond);
  pthread_mutex_unlock(&queue.lock);
  for (int i = 0; i < n; i++) pthread_join(tid[i], NULL);
}

// the trajectories on nthread threads, written to out in order as they complete
static void runThreaded(FILE* out, int nthread, Item* items) {
  pthread_t* tid = emalloc(sizeof(pthread_t) * nthread);
  queue.items = items;
  queue.window = 2L * nthread;
  int started = 0;
  while (started < nthread && !pthread_create(&tid[started], NULL, worker, NULL)) started++;
  if (!started) eprintf("cannot start threads:");
  for (long k = 0; k < run.ntraj; k++) {
    // wait for trajectory k, drawing the progress bar meanwhile
    pthread_mutex_lock(&queue.lock);
    while (!items[k].done) {
      struct timespec until;
      clock_gettime(CLOCK_REALTIME, &until);
      until.tv_nsec += 100000000;
      if (until.tv_nsec >= 1000000000) until.tv_sec++, until.tv_nsec -= 1000000000;
      pthread_cond_timedwait(&queue.cond, &queue.lock, &until);
      pthread_mutex_unlock(&queue.lock);
      progressDraw();
      pthread_mutex_lock(&queue.lock);
    }
    pthread_mutex_unlock(&queue.lock);

    // interrupted: trajectory k may be cut short, the written ones are whole
    if (tool_interrupted) break;
    // write it, or stop everything at its error
    if (items[k].err[0]) {
      joinWorkers(tid, started, 1);
      progressEnd();
      free(tid);
      eprintf("initial state %ld: %s", run.first + k, items[k].err);
    }
    if (out && items[k].size && fwrite(items[k].buf, 1, items[k].size, out) != items[k].size) {
      joinWorkers(tid, started, 1);
      free(tid);
      eprintf("%s: write error:", run.out.name);
    }
    free(items[k].buf);
    items[k].buf = NULL;
    pthread_mutex_lock(&queue.lock);
    queue.written++;
    pthread_cond_broadcast(&queue.cond);
    pthread_mutex_unlock(&queue.lock);
  }
  joinWorkers(tid, started, tool_interrupted != 0);
  free(tid);
}

// the trajectories one after another on this thread, written straight to out; batch: name
// the initial state in messages
static void runSequential(FILE* out, Item* items, int batch) {
  mjData* d = mj_makeData(run.m);
  if (!d) eprintf("out of memory for the data of the model");
  for (long k = 0; k < run.ntraj; k++) {
    simulate(d, k, out, 1, &items[k]);
    if (!items[k].err[0]) continue;
    mj_deleteData(d);
    progressEnd();
    if (batch) eprintf("initial state %ld: %s", run.first + k, items[k].err);
    eprintf("%s", items[k].err);
  }
  mj_deleteData(d);
}

// after an interrupt: the whole frames written to standard output or a special file are
// flushed, a file being written is removed (a file output is whole or absent); then the tool
// dies of the signal
static void stopInterrupted(void) {
  progressEnd();
  mjOutFile* o = run.pending;
  run.pending = NULL;
  if (o) mj_outClose(o, !o->tmp[0], NULL, 0);
  free(o);
  tool_reraise();
}

// the stage timers of every trajectory, summed, as a table on stderr: each stage's time per
// step and share of mj_step; the integrator's own time is that of the step outside the
// forward passes (it includes the checks for bad numbers)
static void profileSummary(const Item* items, long n) {
  static const struct { int timer; const char* name; } rows[] = {
    {mjTIMER_POSITION, "position"}, {mjTIMER_VELOCITY, "velocity"},
    {mjTIMER_ACTUATION, "actuation"}, {mjTIMER_ACCELERATION, "acceleration"},
    {mjTIMER_CONSTRAINT, "constraint"}, {mjTIMER_SENSOR, "sensors"}};
  mjTimerStat sum[mjNTIMER] = {{0, 0}};
  for (long k = 0; k < n; k++)
    for (int t = 0; t < mjNTIMER; t++) {
      sum[t].duration += items[k].timer[t].duration;
      sum[t].number += items[k].timer[t].number;
    }
  double steps = (double)run.nstep * n, step = sum[mjTIMER_STEP].duration;
  if (steps <= 0 || step <= 0) return;
  fprintf(stderr, "profile: %.0f steps, %.3f s in mj_step, %.3f us a step, forward passes a "
          "step: %.0f\n", steps, step, 1e6 * step / steps, sum[mjTIMER_FORWARD].number / steps);
  fprintf(stderr, "  %-14s %10s %8s\n", "stage", "us/step", "share");
  for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
    // the sensors row (sensors of the frames' steps, energy when enabled) when computed
    if (rows[i].timer == mjTIMER_SENSOR && !sum[mjTIMER_SENSOR].number) continue;
    double t = sum[rows[i].timer].duration;
    fprintf(stderr, "  %-14s %10.3f %7.1f%%\n", rows[i].name, 1e6 * t / steps, 100 * t / step);
  }
  double own = step - sum[mjTIMER_FORWARD].duration;
  fprintf(stderr, "  %-14s %10.3f %7.1f%%\n", "integration", 1e6 * own / steps, 100 * own / step);
}

// the warnings of every trajectory, summed, on stderr; the total count
static long warningSummary(const Item* items, long n) {
  long total = 0;
  for (int w = 0; w < mjNWARNING; w++) {
    long count = 0;
    int info = 0;
    for (long k = 0; k < n; k++) {
      count += items[k].warning[w].number;
      if (items[k].warning[w].number) info = items[k].warning[w].lastinfo;
    }
    if (count) weprintf("warning: %s: %ld times (last index %d)", tool_warningText[w], count, info);
    total += count;
  }
  return total;
}

// ---- main --------------------------------------------------------------------------------------

// the index of a noise option, -1 for another
static int noiseIndex(const char* opt) {
  for (int c = 0; c < NNOISE; c++)
    if (!strcmp(opt, noiseOption[c])) return c;
  return -1;
}

// a standard deviation: a finite number >= 0
static double parseSigma(const char* opt, const char* s) {
  char* end;
  double v = strtod(s, &end);
  if (end == s || *end || !(v >= 0) || isinf(v))
    usageError("%s: expected a standard deviation >= 0, got '%s'", opt, s);
  return v;
}

// a seed: an unsigned 64-bit number
static uint64_t parseSeed(const char* s) {
  char* end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (end == s || *end || errno || s[0] == '-')
    usageError("--seed: expected an unsigned 64-bit integer, got '%s'", s);
  return v;
}

// the fingerprint of what the frames depend on besides the model: the steps, the frames'
// spacing, the keyframe, the overrides in order, the seed and noise, the kind of batch, the
// bytes of the initial states and controls (a part's range record carries it, so that mjcat
// refuses to merge parts of different runs)
static uint64_t fingerprint(char** argv, const int* overrides, int n, long nrandom, int batch) {
  char buf[256];
  snprintf(buf, sizeof(buf), "mjstep n=%ld every=%ld key=%d strict=%d random=%ld batch=%d "
           "seed=%llu noise=%.17g,%.17g,%.17g,%.17g", run.nstep, run.every, run.key,
           run.strict, nrandom, batch, (unsigned long long)run.seed, run.noise[0], run.noise[1],
           run.noise[2], run.noise[3]);
  uint64_t h = tool_hashString(0, buf);
  for (int j = 0; j < n; j++)
    h = tool_hashString(tool_hashString(h, argv[overrides[j]]), argv[overrides[j] + 1]);
  if (run.init) h = mj_hashBytes(h, run.init, run.ninit);
  if (run.ctrlBytes) h = mj_hashBytes(h, run.ctrlBytes, run.nctrlBytes);
  return h;
}

// a whole number >= lo from an option's value
static long parseCount(const char* opt, const char* s, long lo) {
  char* end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || *end || errno || v < lo) usageError("%s: expected an integer >= %ld, got '%s'",
                                                      opt, lo, s);
  return v;
}

int main(int argc, char** argv) {
  tool_init("mjstep", usageLines);
  tool_catchInterrupts();
  atexit(cleanup);
  const char *model = NULL, *init = NULL, *ctrl = NULL, *key = NULL, *out = "-";
  const char* fields = "time,qpos,qvel,act";
  double duration = -1;
  int batch = 0, nthread = 0;
  long nrandom = -1;
  ToolShard shard = {0, 0, 0, NULL};
  // --set, --disable and --enable in command-line order: their argv indices
  int* overrides = emalloc(sizeof(int) * (size_t)argc);
  int noverride = 0;
  for (int i = 1; i < argc; i++) {
    const char* s = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(s, "-h") || !strcmp(s, "--help")) help(helpText);
    else if (!strcmp(s, "--version")) version();
    else if (!strcmp(s, "-n") && more) run.nstep = parseCount(s, argv[++i], 0);
    else if (!strcmp(s, "--duration") && more) {
      char* end;
      duration = strtod(argv[++i], &end);
      if (end == argv[i] || *end || !(duration >= 0) || isinf(duration))
        usageError("--duration: expected a number >= 0, got '%s'", argv[i]);
    } else if (!strcmp(s, "--key") && more) key = argv[++i];
    else if (!strcmp(s, "--init") && more) init = argv[++i];
    else if (!strcmp(s, "--ctrl") && more) ctrl = argv[++i];
    else if ((!strcmp(s, "--set") || !strcmp(s, "--disable") || !strcmp(s, "--enable")) && more)
      overrides[noverride++] = i++;
    else if (!strcmp(s, "--fields") && more) fields = argv[++i];
    else if (!strcmp(s, "--every") && more) run.every = parseCount(s, argv[++i], 1);
    else if (!strcmp(s, "--threads") && more) nthread = (int)parseCount(s, argv[++i], 1);
    else if (!strcmp(s, "--batch")) batch = 1;
    else if (!strcmp(s, "--random") && more) nrandom = parseCount(s, argv[++i], 0);
    else if (!strcmp(s, "--seed") && more) run.seed = parseSeed(argv[++i]);
    else if ((!strcmp(s, "--shard") || !strcmp(s, "--range")) && more)
      tool_parseShard(&shard, s, argv[++i]);
    else if (noiseIndex(s) >= 0 && more) {
      int c = noiseIndex(s);
      run.noise[c] = parseSigma(s, argv[++i]);
    }    else if (!strcmp(s, "--strict")) run.strict = 1;
    else if (!strcmp(s, "--bench")) run.bench = 1;
    else if (!strcmp(s, "--profile")) run.profile = 1;
    else if (!strcmp(s, "-o") && more) out = argv[++i];
    else if (s[0] == '-' && s[1]) usageError("unknown option or missing value: %s", s);
    else if (!model) model = s;
    else if (!init) init = s;
    else usageError("too many arguments: %s", s);
  }

  // the combinations
  if (!model) usageError("no model");
  if ((run.nstep >= 0) == (duration >= 0)) usageError("give one of -n STEPS and --duration");
  if (batch && !init) usageError("--batch needs initial states: --init STREAM or STREAM");
  if (batch && nrandom >= 0) usageError("give one of --batch and --random");
  int many = batch || nrandom >= 0;
  if (nthread && !many) usageError("--threads applies to --batch and --random only");
  if (shard.kind && !many) usageError("%s applies to --batch and --random only", shard.opt);
  for (int c = 0; c < NNOISE; c++)
    if (run.noise[c] > 0 && !many) usageError("%s applies to --batch and --random only",
                                              noiseOption[c]);
  if (run.bench && strcmp(out, "-")) usageError("--bench writes nothing: -o does not apply");
  if (init && ctrl && !strcmp(init, "-") && !strcmp(ctrl, "-"))
    usageError("the initial state and the controls cannot both be standard input");
  uint32_t mask;
  char err[512];
  if (mj_streamParseFields(fields, &mask, err, sizeof(err))) usageError("--fields: %s", err);

  // the model, and the output stream bound to it as stored, before the overrides
  run.m = eloadmodel(model);
  mj_streamInit(&run.out, run.m, mask, out);
  run.forward = (run.out.mask & mjSTREAM_OUTPUT) != 0;
  if (key) run.key = efindkey(run.m, key);
  if (init) readInit(init, batch);
  if (ctrl) readCtrl(ctrl);

  // the option overrides, in order
  for (int j = 0; j < noverride; j++) {
    const char *opt = argv[overrides[j]], *val = argv[overrides[j] + 1];
    int r = !strcmp(opt, "--set") ? mj_setOptionString(run.m, val, err, sizeof(err))
                                  : mj_setFlag(run.m, val, !strcmp(opt, "--enable"), err,
                                               sizeof(err));
    if (r) eprintf("%s %s: %s", opt, val, err);
  }
  // refuse what the simulation does not implement (with the options in effect)
  if (mj_checkSupported(run.m, err, sizeof(err))) eprintf("%s: %s", model, err);
  // history buffers (nsample, delay) are state a stream does not carry yet: a run starts from
  // the model's reset (or keyframe) only
  if (init && run.m->nhistory)
    eprintf("%s: continuing from a stream with history buffers (nsample, delay): not supported "
            "yet", init);

  // the number of steps: the first n with n * timestep >= duration (to 1e-9 steps)
  if (duration >= 0) {
    double n = ceil(duration / run.m->opt.timestep - 1e-9);
    if (n > 1e15) eprintf("--duration %g: too many steps", duration);
    run.nstep = n > 0 ? (long)n : 0;
  }

  // the trajectories: every frame of the initial-state stream with --batch, else --random's
  // or one, from its last frame; of those, the shard's
  if (!batch && run.init) {
    run.frameAt[0] = run.frameAt[run.nframe - 1];
    run.nframe = 1;
  }
  long long total = batch ? run.nframe : nrandom >= 0 ? nrandom : 1, first, end;
  tool_shardRange(&shard, total, &first, &end);
  run.first = (long)first;
  long ntraj = run.ntraj = (long)(end - first);
  if (!nthread) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    nthread = cpus > 0 ? (int)cpus : 1;
  }
  if (nthread > ntraj) nthread = ntraj > 0 ? (int)ntraj : 1;
  Item* items = run.items = emalloc(sizeof(Item) * (size_t)ntraj);
  memset(items, 0, sizeof(Item) * (size_t)ntraj);

  // the output: header, then the frames
  FILE* f = NULL;
  if (!run.bench) {
    run.pending = tool_outOpen(out);
    f = run.pending->f;
    mjStreamRange range = tool_range(first, end, total, run.nstep / run.every + 1,
                                     fingerprint(argv, overrides, noverride, nrandom, batch));
    if (shard.kind) mj_streamSetRange(&run.out, &range);
    if (mj_streamWriteHeader(f, &run.out, err, sizeof(err))) eprintf("%s", err);
  }
  free(overrides);
  progress.on = isatty(STDERR_FILENO);
  progress.total = run.nstep * ntraj;
  progress.start = progress.last = now();
  if (run.profile) mjcb_time = now;
  double t0 = now();
  if (nthread > 1) runThreaded(f, nthread, items);
  else runSequential(f, items, many);
  double elapsed = now() - t0;
  if (tool_interrupted) stopInterrupted();
  progressEnd();

  // warnings; the simulation rate; commit the output
  long nwarn = warningSummary(items, ntraj);
  if (run.strict && nwarn) eprintf("--strict: %ld warnings", nwarn);
  if (run.profile) profileSummary(items, ntraj);
  if (run.bench || run.profile) {
    double steps = (double)run.nstep * ntraj;
    weprintf("%.0f steps in %.3f s: %.0f steps/s", steps, elapsed,
             elapsed > 0 ? steps / elapsed : 0);
  }
  if (run.pending) tool_outCommit(&run.pending);
  return EXIT_OK;
}
