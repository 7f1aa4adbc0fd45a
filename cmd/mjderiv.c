// mjderiv: the Jacobians of one simulation step at every state of a stream: A = dx'/dx,
// B = dx'/du, C = ds/dx, D = ds/du (x the tangent state, u the controls, s the sensors).
//
//   mjderiv MODEL [--key K] [--method analytic|fd] [--centered] [--eps E] [--blocks LIST]
//           [--threads N] [--shard i/n | --range a:b] [--npy DIR | --csv | --check [--rtol R]]
//           [-o OUT] [STREAM | -]
//   mjderiv --help | --version
//
// MODEL is a binary model or an MJCF file.  STREAM is a state stream bound to MODEL (mjstep's
// output as it is); each frame sets the state and input fields it carries (time, qpos, qvel,
// act, warmstart, ctrl, applied forces, mocap, eq_active) over the initial state, the model's
// default or keyframe K, and gives one set of Jacobians.  Without STREAM, the initial state
// alone gives one set.  The method is the exact Jacobians of mjd_transitionSmooth, through
// the constraint solve by the implicit function theorem (a state it cannot differentiate yet
// stops the run with the reason), or with --method fd mjd_transitionFD (MuJoCo's finite
// differences: forward, or centered with --centered; eps 1e-6 unless --eps).
// Output: a Jacobian stream (man 1 mjderiv, FORMAT) on standard output or OUT; --npy DIR
// writes DIR/A.npy ... (frames, rows, cols); --csv writes frame,block,row,col,value lines;
// --check computes both and prints per block the largest relative difference
// max |analytic - fd| / max(1, max |fd|) over the frames and the frame where it is.
// --threads N spreads the frames over N threads, with output identical to one thread's.
// --shard i/n computes the i-th of n contiguous blocks of the frames, --range a:b the frames
// a..b-1: the Jacobian stream of such a part carries a range record (man 5 mjt) and mjcat(1)
// merges the parts into the stream of the whole run.
//
// The Jacobians are computed and written about 8 MB of frames at a time (memory bounded
// whatever the stream's length).
//
// Exit status: 0 success, 1 a --check difference beyond --rtol, 2 usage or data error (no
// partial output file is left behind).
#include "tool.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char usageLines[] =
  "usage: mjderiv MODEL [--key K] [--method analytic|fd] [--centered] [--eps E]\n"
  "               [--blocks LIST] [--threads N] [--shard i/n | --range a:b]\n"
  "               [--npy DIR | --csv | --check [--rtol R]] [-o OUT] [STREAM | -]\n"
  "       mjderiv --help | --version\n";

// what --help prints after the usage text
static const char helpText[] =
  "\n"
  "Jacobians of one step at every state of a state stream (man 5 mjt), or at the initial\n"
  "state: A = dx'/dx, B = dx'/du, C = ds/dx, D = ds/du, x = (dqpos, qvel, act) in the\n"
  "tangent space (2nv+na), u = ctrl, s = sensordata.\n"
  "options:\n"
  "  --key K         initial state: keyframe K (name or index) instead of the default\n"
  "  --method M      analytic: exact Jacobians through the contact solve (the default);\n"
  "                  fd: finite differences as MuJoCo's mjd_transitionFD\n"
  "  --centered      fd: centered differences (default: forward)\n"
  "  --eps E         fd: the perturbation (default 1e-6)\n"
  "  --blocks LIST   the blocks to compute, of A,B,C,D (default all)\n"
  "  --threads N     frames on N threads (same output as one)\n"
  "  --shard i/n     only the i-th of n contiguous blocks of the frames (0-based), as a\n"
  "                  part for mjcat (Jacobian stream or --check only)\n"
  "  --range a:b     only the frames a..b-1\n"
  "  --npy DIR       DIR/A.npy, B.npy, C.npy, D.npy: float64 (frames, rows, cols)\n"
  "  --csv           text lines frame,block,row,col,value\n"
  "  --check         both methods: per block the largest relative difference\n"
  "                  max|analytic - fd| / max(1, max|fd|) and its frame; exit 1 beyond R\n"
  "  --rtol R        --check's bound (default 1e-4)\n"
  "  -o OUT          the Jacobian stream (or CSV) into OUT instead of standard output\n"
  "  -h, --help, --version\n";

#define NBLOCK 4
static const char blockName[NBLOCK] = {'A', 'B', 'C', 'D'};

// ---- the run ----------------------------------------------------------------------------------

// the run's settings, inputs and results, released at exit (also after eprintf)
static struct {
  mjModel* m;
  mjData* init;           // the initial state (default or keyframe)
  int key;                // keyframe, -1: the default
  int centered;           // centered differences
  int analytic;           // exact Jacobians (mjd_transitionSmooth) instead of differences
  int check;              // both methods, compared
  mjtNum rtol;            // the comparison's bound
  mjtNum* fd;             // --check: the differences of the chunk (chunk x per)
  atomic_long badframe;   // first frame the analytic method refused, + 1 (0: none)
  char why[256];          // its message
  mjtNum eps;             // perturbation
  int want[NBLOCK];       // blocks requested
  int rows[NBLOCK], cols[NBLOCK];
  size_t per;             // numbers of the requested blocks of one frame
  uint32_t mask;          // fields the frames carry
  mjStreamHeader ih;      // the input stream's header
  int nvalue;             // numbers of one input frame (0: no stream)
  long nframe;            // frames
  long first, end;        // the frames of this run (its shard)
  int ranged;             // a part of the whole run: the stream carries a range record
  mjStreamRange range;    // its record
  mjtNum* in;             // input frames (nframe x nvalue)
  mjtNum* out;            // the chunk's Jacobians (chunk x per)
  long from, to;          // the chunk's frames
  atomic_long next;       // next frame to compute
  atomic_long done;       // frames computed
  double start;           // when the computing began (the progress bar)
  int shown;              // the progress bar is drawn
  mjtNum worst[NBLOCK];   // --check: the largest relative difference per block so far
  long worstAt[NBLOCK];   // and its frame
  mjOutFile* file[NBLOCK];  // outputs still to commit (stream or CSV: file[0])
  const char* createdDir; // the --npy directory when this run made it
  atomic_int failed;      // a frame's derivatives failed (d's stack too small)
} run;

// discard uncommitted outputs, free everything
static void cleanup(void) {
  for (int b = 0; b < NBLOCK; b++) {
    if (run.file[b]) mj_outClose(run.file[b], 0, NULL, 0);
    free(run.file[b]);
  }
  if (run.createdDir) rmdir(run.createdDir);
  free(run.in), free(run.out), free(run.fd);
  mj_deleteData(run.init);
  mj_deleteModel(run.m);
}

// the blocks of a list "A,B,D"
static void parseBlocks(const char* list) {
  memset(run.want, 0, sizeof(run.want));
  for (const char* p = list; *p; p++) {
    const char* hit = memchr(blockName, *p, NBLOCK);
    if (hit && (p[1] == ',' || !p[1])) run.want[hit - blockName] = 1;
    else if (*p != ',') usageError("--blocks: not a list of A, B, C, D: %s", list);
  }
  if (!run.want[0] && !run.want[1] && !run.want[2] && !run.want[3])
    usageError("--blocks: no block in '%s'", list);
}

// ---- input ------------------------------------------------------------------------------------

// 1 for the stream kinds stored as mjtNum
static int isReal(int kind) {
  return kind != mjSK_INT && kind != mjSK_EQ && kind != mjSK_WARNING;
}

// the state and input fields of frame values v into d (those the stream carries)
static void applyFrame(mjData* d, const mjtNum* v) {
  const mjModel* m_ = run.m;
  MJ_SIZES(MJ_X_SIZE_LOCAL)
  uint32_t use = run.mask & (mjSTREAM_STATE | mjSTREAM_INPUT);
#define MJ_X_APPLY(fld, count, src, kind)                                                         \
  if (use >> mjSTREAM_##fld & 1) {                                                                \
    const mjtNum* x = v + mj_streamFieldOffset(&run.ih, mjSTREAM_##fld);                          \
    if (kind == mjSK_EQ) {                                                                        \
      unsigned char* e = (unsigned char*)(void*)(src);                                            \
      for (int i = 0; i < (count); i++) e[i] = x[i] != 0;                                         \
    } else {                                                                                      \
      memcpy((void*)(src), x, sizeof(mjtNum) * (size_t)(count));                                  \
    }                                                                                             \
  }
  MJ_STREAM_FIELDS(MJ_X_APPLY)
#undef MJ_X_APPLY
}

// the initial state into d, in place of a whole mj_resetData: the state and input fields the
// frames do not carry copied from run.init (the default or keyframe state, as a reset gives
// it: the warm start zero), the counters and statistics cleared; every other array of d is
// written by the step before it is read, so a frame's results do not depend on the frame d
// held before (history buffers, which a reset also fills, are refused at the start)
static void setInitial(mjData* d) {
  const mjModel* m_ = run.m;
  MJ_SIZES(MJ_X_SIZE_LOCAL)
  uint32_t reset = (mjSTREAM_STATE | mjSTREAM_INPUT) & ~run.mask;
#define MJ_X_RESET(fld, count, src, kind)                                                         \
  if (reset >> mjSTREAM_##fld & 1) {                                                              \
    const void* from;                                                                             \
    {                                                                                             \
      const mjData* d = run.init;                                                                 \
      from = (src);                                                                               \
    }                                                                                             \
    memcpy((void*)(src), from, sizeof(*(src)) * (size_t)(count));                                 \
  }
  MJ_STREAM_FIELDS(MJ_X_RESET)
#undef MJ_X_RESET
  d->pstack = d->maxstack = 0;
  d->parena = d->maxarena = 0;
  d->energy[0] = d->energy[1] = 0;
  d->ncon = d->nefc = d->nJ = 0;
  d->solver_niter = 0;
  memset(d->solver, 0, sizeof(d->solver));
  d->solver_fwdinv[0] = d->solver_fwdinv[1] = 0;
  memset(d->warning, 0, sizeof(d->warning));
  memset(d->timer, 0, sizeof(d->timer));
}

// every real state and input value of frame k is finite, else an error naming it
static void checkFinite(const mjtNum* v, long k) {
  uint32_t use = run.mask & (mjSTREAM_STATE | mjSTREAM_INPUT);
  for (int f = 0; f < mjNSTREAMFIELD; f++) {
    if (!(use >> f & 1) || !isReal(mj_streamFieldKind(f))) continue;
    const mjtNum* x = v + mj_streamFieldOffset(&run.ih, f);
    for (int i = 0, n = mj_streamFieldSize(&run.ih, f); i < n; i++) {
      if (isfinite(x[i])) continue;
      char el[128];
      mj_streamElementName(run.m, f, i, 1, el, sizeof(el));
      eprintf("%s: frame %ld: %s is %g: the state must be finite", run.ih.name, k, el, x[i]);
    }
  }
}

// every frame of the stream at path into run.in
static void readStream(const char* path) {
  char err[512];
  FILE* f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
  if (!f) eprintf("%s:", path);
  if (mj_streamReadHeader(f, path, &run.ih, err, sizeof(err))) eprintf("%s", err);
  if (mj_streamCheckModel(&run.ih, run.m, err, sizeof(err))) eprintf("%s", err);
  run.mask = run.ih.mask;
  run.nvalue = run.ih.nvalue;
  long cap = 64;
  run.in = emalloc(sizeof(mjtNum) * (size_t)(cap * (run.nvalue + 1)));
  int r;
  while ((r = mj_streamReadValues(f, &run.ih, run.in + run.nframe * run.nvalue, err,
                                  sizeof(err))) == 1) {
    checkFinite(run.in + run.nframe * run.nvalue, run.nframe);
    if (++run.nframe == cap) {
      cap *= 2;
      mjtNum* grown = realloc(run.in, sizeof(mjtNum) * (size_t)(cap * (run.nvalue + 1)));
      if (!grown) eprintf("out of memory for %ld frames", cap);
      run.in = grown;
    }
  }
  if (r < 0) eprintf("%s", err);
  if (f != stdin) fclose(f);
}

// the fingerprint of what the Jacobians depend on besides the model and the header's method,
// eps and blocks: the keyframe and the input frames (a part's range record carries it, so that
// mjcat refuses to merge parts of different runs)
static uint64_t fingerprint(void) {
  char buf[64];
  snprintf(buf, sizeof(buf), "mjderiv key=%d mask=%u", run.key, (unsigned)run.mask);
  uint64_t h = tool_hashString(0, buf);
  return run.in ? mj_hashBytes(h, run.in, sizeof(mjtNum) * (size_t)run.nframe * run.nvalue) : h;
}

// ---- computing ------------------------------------------------------------------------------

// the requested blocks' places in one frame's slot at (all NULL without a slot)
static void blocksAt(mjtNum* at, mjtNum* blk[NBLOCK]) {
  for (int b = 0; b < NBLOCK; b++) {
    blk[b] = run.want[b] && at ? at : NULL;
    if (blk[b]) at += (size_t)run.rows[b] * run.cols[b];
  }
}

// 1 when the frame's passes (from reset warnings) ran out of room for contacts or constraint
// rows and d grew (the frame is then computed again)
static int grew(mjData* d) {
  static const mjWarningStat none[mjNWARNING];
  return mj_growFull(run.m, d, none) > 0;
}

// the place of frame k's Jacobians in run.out and run.fd: frames per + 1 numbers apart, the
// number before each the room for the stream record's marker (its last 4 bytes) and the
// previous record's CRC (its first 4), so that the chunk's records are one contiguous write
static size_t slotOf(long k) {
  return (size_t)(k - run.from) * (run.per + 1) + 1;
}

// a worker: the chunk's frames taken in turn from the shared counter, each into its own slot
// of run.out
static void* worker(void* arg) {
  mjData* d = mj_makeData(run.m);
  if (!d) {
    run.failed = 1;
    return arg;
  }
  for (long k; (k = atomic_fetch_add(&run.next, 1)) < run.to;) {
    mjtNum *blk[NBLOCK], *fblk[NBLOCK];
    size_t slot = slotOf(k);
    blocksAt(run.out + slot, blk);
    blocksAt(run.fd ? run.fd + slot : NULL, fblk);
    do {
      // the initial state, then the frame's fields over it
      setInitial(d);
      if (run.nvalue) applyFrame(d, run.in + k * run.nvalue);
      if (run.analytic) {
        // a refused state: the first one's message is kept (frames run in any order)
        char err[256];
        if (mjd_transitionSmooth(run.m, d, blk[0], blk[1], blk[2], blk[3], err, sizeof(err))) {
          long none = 0;
          if (atomic_compare_exchange_strong(&run.badframe, &none, k + 1))
            snprintf(run.why, sizeof(run.why), "%s", err);
        }
      }

      // the differences from the same state (the analytic pass does not advance it)
      mjtNum** fdblk = run.check ? fblk : blk;
      if ((run.check || !run.analytic) &&
          mjd_transitionFD(run.m, d, run.eps, run.centered, fdblk[0], fdblk[1], fdblk[2],
                           fdblk[3]))
        run.failed = 1;
    } while (grew(d));
    atomic_fetch_add(&run.done, 1);
  }
  mj_deleteData(d);
  return arg;
}

// the chunk's frames [run.from, run.to) on n threads; the main thread draws the progress bar
// when stderr is a terminal and the run has lasted over half a second
static void compute(int n) {
  pthread_t* th = emalloc(sizeof(pthread_t) * (size_t)n);
  atomic_store(&run.next, run.from);
  for (int i = 0; i < n; i++)
    if (pthread_create(th + i, NULL, worker, NULL)) eprintf("cannot start thread %d", i);
  int bar = isatty(STDERR_FILENO);
  while (bar && atomic_load(&run.done) < run.to - run.first) {
    nanosleep(&(struct timespec){0, 100000000}, NULL);
    if (tool_seconds() - run.start < 0.5) continue;
    long done = atomic_load(&run.done), total = run.end - run.first;
    int width = 40, fill = (int)(width * done / (total ? total : 1));
    fprintf(stderr, "\r%s: [%.*s%*s] %ld/%ld frames", argv0, fill,
            "########################################", width - fill, "", done, total);
    run.shown = 1;
  }
  for (int i = 0; i < n; i++) pthread_join(th[i], NULL);
  free(th);
  if (run.failed) eprintf("the derivatives need more stack than the data of the model has");
  if (run.badframe)
    eprintf("frame %ld: the analytic method cannot differentiate it: %s (use --method fd)",
            run.badframe - 1, run.why);
}

// ---- output ---------------------------------------------------------------------------------

// open an output, kept in slot b until committed
static FILE* openOut(int b, const char* path) {
  run.file[b] = tool_outOpen(path);
  return run.file[b]->f;
}

// commit every output; a closed pipe on standard output ends the tool quietly
static void commitAll(void) {
  for (int b = 0; b < NBLOCK; b++)
    if (run.file[b]) tool_outCommit(&run.file[b]);
}

// the 64-byte header of the Jacobian stream (FORMAT in man 1 mjderiv), then a part's range
// record
static void writeStreamHeader(void) {
  unsigned char h[64 + mjRANGE_BYTES] = "MJDERIV1";
  uint32_t u32[8] = {2, 0x01020304};
  uint64_t hash = mj_modelHash(run.m);
  int sizes[4] = {run.m->nv, run.m->na, run.m->nu, run.m->nsensordata};
  for (int i = 0; i < 4; i++) u32[4 + i] = (uint32_t)sizes[i];
  uint32_t tail[2] = {0, run.analytic ? 2u : (uint32_t)run.centered};
  uint32_t flags = run.ranged ? mjSTREAM_RANGED : 0;
  for (int b = 0; b < NBLOCK; b++) tail[0] |= (uint32_t)run.want[b] << b;
  mj_copyLE(h + 8, u32, 4, 2);
  mj_copyLE(h + 16, &hash, 8, 1);
  mj_copyLE(h + 24, u32 + 4, 4, 4);
  mj_copyLE(h + 40, tail, 4, 2);
  mj_copyLE(h + 48, &run.eps, 8, 1);
  mj_copyLE(h + 56, &flags, 4, 1);
  uint32_t crc = mj_crc32c(0, h, 60);
  mj_copyLE(h + 60, &crc, 4, 1);
  if (run.ranged) mj_rangeEncode(&run.range, h + 64);
  fwrite(h, 1, run.ranged ? 64 + mjRANGE_BYTES : 64, run.file[0]->f);
}

// the chunk's frames of the Jacobian stream (already little-endian): per frame the marker MJFR,
// the requested blocks row-major as float64, and the CRC-32C of marker and values; the
// markers and CRCs go into the room around each frame's values, and the chunk is one write
static void writeStreamChunk(void) {
  uint32_t marker = mj_crc32c(0, "MJFR", 4);
  for (long k = run.from; k < run.to; k++) {
    unsigned char* v = (unsigned char*)(run.out + slotOf(k));
    uint32_t crc = mj_crc32c(marker, v, 8 * run.per);
    memcpy(v - 4, "MJFR", 4);
    mj_copyLE(v + 8 * run.per, &crc, 4, 1);
  }
  fwrite((unsigned char*)run.out + 4, 8 * (run.per + 1), (size_t)(run.to - run.from),
         run.file[0]->f);
}

// the chunk's frame,block,row,col,value lines
static void writeCsvChunk(void) {
  FILE* f = run.file[0]->f;
  for (long k = run.from; k < run.to; k++) {
    const mjtNum* v = run.out + slotOf(k);
    for (int b = 0; b < NBLOCK; b++) {
      for (int r = 0; run.want[b] && r < run.rows[b]; r++)
        for (int c = 0; c < run.cols[b]; c++)
          fprintf(f, "%ld,%c,%d,%d,%.17g\n", k, blockName[b], r, c, *v++);
    }
  }
}

// the outputs, opened before the work so that an unwritable one fails at once: DIR/X.npy
// per requested block, else the stream or CSV at path
static void openOutputs(const char* dir, const char* path) {
  if (!dir) {
    openOut(0, path);
    return;
  }
  if (!mkdir(dir, 0777)) run.createdDir = dir;
  else if (errno != EEXIST) eprintf("%s:", dir);
  for (int b = 0; b < NBLOCK; b++) {
    char p[4096];
    snprintf(p, sizeof(p), "%s/%c.npy", dir, blockName[b]);
    if (run.want[b]) openOut(b, p);
  }
}

// the 128-byte header of DIR/X.npy per requested block: NumPy 1.0, '<f8', shape (frames,
// rows, cols): magic, version, length, the dictionary padded with blanks
static void writeNpyHeaders(void) {
  for (int b = 0; b < NBLOCK; b++) {
    if (!run.want[b]) continue;
    char dict[118];
    int n = snprintf(dict, sizeof(dict), "{'descr': '<f8', 'fortran_order': False, "
                     "'shape': (%ld, %d, %d), }", run.nframe, run.rows[b], run.cols[b]);
    memset(dict + n, ' ', sizeof(dict) - (size_t)n);
    dict[sizeof(dict) - 1] = '\n';
    fwrite("\x93NUMPY\x01\x00\x76\x00", 1, 10, run.file[b]->f);
    fwrite(dict, 1, sizeof(dict), run.file[b]->f);
  }
}

// the chunk's matrices of each requested block (already little-endian) into its DIR/X.npy
static void writeNpyChunk(void) {
  size_t off = 0;
  for (int b = 0; b < NBLOCK; b++) {
    if (!run.want[b]) continue;
    size_t size = (size_t)run.rows[b] * run.cols[b];
    for (long k = run.from; k < run.to; k++)
      fwrite(run.out + slotOf(k) + off, 8, size, run.file[b]->f);
    off += size;
  }
}

// --check over the chunk: per block the largest max|analytic - fd| / max(1, max|fd|) so far
// and its frame
static void checkChunk(void) {
  size_t off = 0;
  for (int b = 0; b < NBLOCK; b++) {
    if (!run.want[b]) continue;
    size_t size = (size_t)run.rows[b] * run.cols[b];
    for (long k = run.from; k < run.to; k++) {
      size_t at0 = slotOf(k) + off;
      const mjtNum *a = run.out + at0, *e = run.fd + at0;
      mjtNum diff = 0, scale = 1;
      for (size_t i = 0; i < size; i++) {
        diff = fmax(diff, fabs(a[i] - e[i]));
        scale = fmax(scale, fabs(e[i]));
        if (!isfinite(a[i])) diff = INFINITY;
      }
      if (!(diff / scale <= run.worst[b])) run.worst[b] = diff / scale, run.worstAt[b] = k;
    }
    off += size;
  }
}

// --check's report of the largest differences; 1 when one is beyond --rtol or not finite
static int report(void) {
  int beyond = 0;
  FILE* f = run.file[0]->f;
  fprintf(f, "block  max_rel_diff  frame  (analytic vs %s differences, eps %g)\n",
          run.centered ? "centered" : "forward", run.eps);
  for (int b = 0; b < NBLOCK; b++) {
    if (!run.want[b]) continue;
    int size = run.rows[b] * run.cols[b];
    fprintf(f, "%c      %-12.3g  %ld\n", blockName[b], size ? run.worst[b] : 0, run.worstAt[b]);
    beyond |= !(run.worst[b] <= run.rtol);
  }
  commitAll();
  return beyond;
}

// the frames a chunk at a time (about CHUNK_BYTES of Jacobians, at least 16 frames a thread):
// computed on n threads, then written (or compared) in frame order, so that memory stays
// bounded however long the stream; the binary outputs are made little-endian in place (a no-op
// on most hosts); the outputs are committed whole at the end
#define CHUNK_BYTES (8 << 20)
static void runChunks(int n, int npy, int csv) {
  size_t frame = sizeof(mjtNum) * run.per + 1;
  long chunk = (long)(CHUNK_BYTES / frame);
  if (chunk < 16L * n) chunk = 16L * n;
  if (chunk > run.end - run.first) chunk = run.end - run.first;
  size_t room = sizeof(mjtNum) * ((run.per + 1) * (size_t)chunk + 1);
  run.out = emalloc(room);
  if (run.check) run.fd = emalloc(room);
  if (npy) writeNpyHeaders();
  else if (csv) fputs("frame,block,row,col,value\n", run.file[0]->f);
  else if (!run.check) writeStreamHeader();
  run.start = tool_seconds();
  for (run.from = run.first; run.from < run.end; run.from = run.to) {
    run.to = run.from + chunk < run.end ? run.from + chunk : run.end;
    compute(n);
    if (!run.check && !csv)
      mj_copyLE(run.out, run.out, 8, (run.per + 1) * (size_t)(run.to - run.from) + 1);
    if (run.check) checkChunk();
    else if (npy) writeNpyChunk();
    else if (csv) writeCsvChunk();
    else writeStreamChunk();
  }
  if (run.shown) fputs("\r\033[K", stderr);
}

int main(int argc, char** argv) {
  tool_init("mjderiv", usageLines);
  atexit(cleanup);
  const char *model = NULL, *in = NULL, *out = "-", *npy = NULL, *key = NULL;
  int csv = 0, threads = 1;
  ToolShard shard = {0, 0, 0, NULL};
  run.eps = 1e-6;
  run.rtol = 1e-4;
  run.analytic = 1;
  int fdOption = 0;
  parseBlocks("A,B,C,D");
  for (int i = 1; i < argc; i++) {
    const char* s = argv[i];
    int more = i + 1 < argc;
    char* end;
    if (!strcmp(s, "-h") || !strcmp(s, "--help")) help(helpText);
    else if (!strcmp(s, "--version")) version();
    else if (!strcmp(s, "--centered")) run.centered = fdOption = 1;
    else if (!strcmp(s, "--check")) run.check = 1;
    else if (!strcmp(s, "--csv")) csv = 1;
    else if (!strcmp(s, "--key") && more) key = argv[++i];
    else if (!strcmp(s, "--npy") && more) npy = argv[++i];
    else if (!strcmp(s, "-o") && more) out = argv[++i];
    else if (!strcmp(s, "--blocks") && more) parseBlocks(argv[++i]);
    else if ((!strcmp(s, "--shard") || !strcmp(s, "--range")) && more)
      tool_parseShard(&shard, s, argv[++i]);
    else if (!strcmp(s, "--method") && more) {
      run.analytic = !strcmp(argv[++i], "analytic");
      if (!run.analytic && strcmp(argv[i], "fd"))
        usageError("--method: unknown method '%s' (fd, analytic)", argv[i]);
    } else if (!strcmp(s, "--eps") && more) {
      run.eps = strtod(argv[++i], &end);
      fdOption = 1;
      if (end == argv[i] || *end || !(run.eps > 0) || !isfinite(run.eps))
        usageError("--eps: not a positive number: %s", argv[i]);
    } else if (!strcmp(s, "--rtol") && more) {
      run.rtol = strtod(argv[++i], &end);
      if (end == argv[i] || *end || !(run.rtol >= 0) || !isfinite(run.rtol))
        usageError("--rtol: not a number >= 0: %s", argv[i]);
    } else if (!strcmp(s, "--threads") && more) {
      long t = strtol(argv[++i], &end, 10);
      if (end == argv[i] || *end || t < 1 || t > 1024)
        usageError("--threads: not a thread count in 1..1024: %s", argv[i]);
      threads = (int)t;
    } else if (s[0] == '-' && s[1]) usageError("unknown option or missing value: %s", s);
    else if (!model) model = s;
    else if (!in) in = s;
    else usageError("too many arguments: %s", s);
  }
  if (!model) usageError("no model");
  if (npy && csv) usageError("--npy and --csv exclude each other");
  if (npy && strcmp(out, "-")) usageError("-o does not apply to --npy (the files go into DIR)");
  if (run.check && (npy || csv)) usageError("--check prints a report: no --npy or --csv");
  if (run.check && !run.analytic) usageError("--check compares the methods: no --method fd");
  if (shard.kind && (npy || csv))
    usageError("%s: parts are Jacobian streams for mjcat: no --npy or --csv", shard.opt);
  if (fdOption && run.analytic && !run.check)
    usageError("--centered and --eps apply to --method fd and --check");

  // the model, its initial state, the sizes of the blocks
  char err[512];
  mjModel* m = run.m = eloadmodel(model);
  if (mj_checkSupported(m, err, sizeof(err))) eprintf("%s: %s", model, err);
  // history buffers (delayed actuators and sensors): their derivatives are not implemented
  if (m->nhistory)
    eprintf("%s: history buffers (nsample, delay): not supported by mjderiv yet", model);
  if (m->opt.integrator == mjINT_RK4 && (!run.analytic || run.check))
    eprintf("%s: the RK4 integrator has no finite-difference transition (as in MuJoCo): "
            "use Euler, implicit or implicitfast", model);
  run.key = key ? efindkey(run.m, key) : -1;
  if (!(run.init = mj_makeData(m))) eprintf("%s: out of memory for the data", model);
  if (run.key >= 0) mj_resetDataKeyframe(m, run.init, run.key);
  int ndx = 2 * m->nv + m->na;
  int rows[NBLOCK] = {ndx, ndx, m->nsensordata, m->nsensordata};
  int cols[NBLOCK] = {ndx, m->nu, ndx, m->nu};
  for (int b = 0; b < NBLOCK; b++) {
    run.rows[b] = rows[b], run.cols[b] = cols[b];
    if (run.want[b]) run.per += (size_t)rows[b] * cols[b];
  }

  // the frames: the stream's, or the initial state alone
  if (in) readStream(in);
  else run.nframe = 1;
  long long first, end;
  tool_shardRange(&shard, run.nframe, &first, &end);
  run.first = (long)first, run.end = (long)end;
  run.range = tool_range(first, end, run.nframe, 1, fingerprint());
  run.ranged = shard.kind != 0;
  openOutputs(npy, out);
  runChunks(threads, npy != NULL, csv);
  if (run.check) return report() ? EXIT_DIFF : EXIT_OK;
  commitAll();
  run.createdDir = NULL;
  return EXIT_OK;
}
