// tool.c: shared plumbing of the tools: messages, exits, quiet broken pipes.
#include "tool.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char* argv0 = "mj";
const char* usageText = "";
volatile sig_atomic_t tool_interrupted;

// a write into a closed pipe ends the tool silently by SIGPIPE, as for cat(1) in a pipeline
void tool_init(const char* name, const char* usage) {
  argv0 = name;
  usageText = usage;
  signal(SIGPIPE, SIG_DFL);
}

// the handler: remember the signal, nothing else (the tool checks between units of work)
static void onInterrupt(int sig) { tool_interrupted = sig; }

// SIGINT and SIGTERM set tool_interrupted, unless ignored when the tool started (as a shell
// ignores SIGINT for its background jobs); interrupted system calls restart
void tool_catchInterrupts(void) {
  static const int sigs[] = {SIGINT, SIGTERM};
  for (int i = 0; i < 2; i++) {
    struct sigaction sa, old;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = onInterrupt;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (!sigaction(sigs[i], NULL, &old) && old.sa_handler != SIG_IGN)
      sigaction(sigs[i], &sa, NULL);
  }
}

// the default action of the caught signal: the tool dies of it (the shell sees 128 + sig)
void tool_reraise(void) {
  int sig = tool_interrupted ? tool_interrupted : SIGTERM;
  signal(sig, SIG_DFL);
  raise(sig);
  _exit(128 + sig);
}

// "tool: message", with strerror appended when fmt ends in ':'
static void vmessage(const char* fmt, va_list ap) {
  int saved = errno;
  fprintf(stderr, "%s: ", argv0);
  vfprintf(stderr, fmt, ap);
  size_t n = strlen(fmt);
  if (n && fmt[n - 1] == ':') fprintf(stderr, " %s", strerror(saved));
  fputc('\n', stderr);
}

// message and exit 2
void eprintf(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmessage(fmt, ap);
  va_end(ap);
  exit(EXIT_ERR);
}

// message only
void weprintf(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmessage(fmt, ap);
  va_end(ap);
}

// the usage text on stderr, exit 2
void usage(void) {
  fputs(usageText, stderr);
  exit(EXIT_ERR);
}

// a usage error: the message, then the usage text
void usageError(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmessage(fmt, ap);
  va_end(ap);
  usage();
}

// --help: the usage text and the details on stdout
void help(const char* details) {
  fputs(usageText, stdout);
  fputs(details, stdout);
  efflush();
  exit(EXIT_OK);
}

// the version line
void version(void) {
  printf("%s %s (libmj %s)\n", argv0, MJ_VERSION_STRING, MJ_VERSION_STRING);
  efflush();
  exit(EXIT_OK);
}

// the names of the mjtWarning values, for the summary
const char* const tool_warningText[mjNWARNING] = {
  [mjWARN_INERTIA] = "(near) singular inertia matrix",
  [mjWARN_CONTACTFULL] = "too many contacts, some dropped (raise <size nconmax>)",
  [mjWARN_CNSTRFULL] = "too many constraint rows, some dropped (raise <size njmax>)",
  [mjWARN_VGEOMFULL] = "too many visual geoms",
  [mjWARN_BADQPOS] = "bad number in qpos", [mjWARN_BADQVEL] = "bad number in qvel",
  [mjWARN_BADQACC] = "bad number in qacc", [mjWARN_BADCTRL] = "bad number in ctrl"};

// seconds on a monotonic clock
double tool_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

// malloc or exit
void* emalloc(size_t n) {
  void* p = malloc(n ? n : 1);
  if (!p) eprintf("out of memory");
  return p;
}

// flush stdout; a failure other than a closed pipe is an error
void efflush(void) {
  if (fflush(stdout) == 0 && !ferror(stdout)) return;
  if (errno == EPIPE) exit(EXIT_OK);
  eprintf("write error on standard output:");
}

// load a model or exit with the library's message
mjModel* eloadmodel(const char* path) {
  char err[1024] = "";
  mjModel* m = mj_loadAny(path, err, sizeof(err));
  if (!m) eprintf("%s", err);
  return m;
}

// keyframe s of m, by name or else by index; exits with a one-line message when there is none
int efindkey(const mjModel* m, const char* s) {
  int k = mj_name2id(m, mjOBJ_KEY, s);
  if (k >= 0) return k;
  char* end;
  long i = strtol(s, &end, 10);
  if (end == s || *end) eprintf("unknown keyframe '%s'", s);
  if (i < 0 || i >= m->nkey)
    eprintf("keyframe index %ld out of range (the model has %d keyframes)", i, m->nkey);
  return (int)i;
}

mjOutFile* tool_outOpen(const char* path) {
  char err[512];
  mjOutFile* o = emalloc(sizeof(mjOutFile));
  if (mj_outOpen(o, path, err, sizeof(err))) {
    free(o);
    eprintf("%s", err);
  }
  return o;
}

void tool_outCommit(mjOutFile** slot) {
  char err[512];
  mjOutFile* o = *slot;
  *slot = NULL;
  int bad = mj_outClose(o, 1, err, sizeof(err));
  int pipe = bad && !strcmp(o->path, "-") && errno == EPIPE;
  free(o);
  if (pipe) exit(EXIT_OK);
  if (bad) eprintf("%s", err);
}

// ---- sharded runs ------------------------------------------------------------------------------

// a whole number >= 0 at *p, advancing p; -1 when there is none or it overflows
static long long parseIndex(const char** p) {
  char* end;
  if (**p < '0' || **p > '9') return -1;
  errno = 0;
  long long v = strtoll(*p, &end, 10);
  if (errno) return -1;
  *p = end;
  return v;
}

// --shard i/n: 0 <= i < n; --range a:b: 0 <= a <= b
void tool_parseShard(ToolShard* s, const char* opt, const char* value) {
  if (s->kind) usageError("%s: give one of --shard and --range, once", opt);
  int shard = !strcmp(opt, "--shard");
  const char* p = value;
  long long a = parseIndex(&p), b = -1;
  if (a >= 0 && *p == (shard ? '/' : ':')) p++, b = parseIndex(&p);
  if (a < 0 || b < 0 || *p)
    usageError("%s: expected %s, got '%s'", opt, shard ? "i/n (0 <= i < n)" : "a:b (a <= b)",
               value);
  if (shard && (b < 1 || a >= b || b > INT32_MAX))
    usageError("%s %s: shard %lld of %lld does not exist (shards count from 0 to n-1)", opt,
               value, a, b);
  if (!shard && a > b) usageError("%s %s: the range ends before it starts", opt, value);
  static char given[128];
  snprintf(given, sizeof(given), "%s %s", opt, value);
  *s = (ToolShard){shard ? 1 : 2, a, b, given};
}

void tool_shardRange(const ToolShard* s, long long total, long long* first, long long* end) {
  int64_t f = 0, e = total;
  if (s->kind == 1) mj_rangeShard(total, s->a, s->b, &f, &e);
  if (s->kind == 2) {
    if (s->b > total) eprintf("%s: the run has %lld items (0..%lld)", s->opt, total, total - 1);
    f = s->a, e = s->b;
  }
  *first = f, *end = e;
}

mjStreamRange tool_range(long long first, long long end, long long total, long long frames,
                         uint64_t run) {
  return (mjStreamRange){first, end, total, frames, run, mj_buildFingerprint()};
}

uint64_t tool_hashString(uint64_t h, const char* s) { return mj_hashBytes(h, s, strlen(s) + 1); }
