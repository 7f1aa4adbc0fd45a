// tool.h: what every tool in cmd/ shares: error exits, the version line, quiet EPIPE.
#ifndef MJ_TOOL_H
#define MJ_TOOL_H

#include <signal.h>
#include <stdio.h>

#include "mj.h"

// exit codes (DESIGN.md): success, differences found (mjdiff), usage or data error
enum { EXIT_OK = 0, EXIT_DIFF = 1, EXIT_ERR = 2 };

// the running tool's name, for messages; set by tool_init
extern const char* argv0;

// remember the tool name and usage text, and make a closed pipe end the tool quietly
void tool_init(const char* name, const char* usage);

// the signal (SIGINT, SIGTERM) that asked the tool to stop once tool_catchInterrupts caught
// it, 0 while none has
extern volatile sig_atomic_t tool_interrupted;

// catch SIGINT and SIGTERM (those not ignored) into tool_interrupted, for a tool that stops
// at a clean point
void tool_catchInterrupts(void);

// end the tool by the caught signal, as it would have ended uncaught (after cleaning up)
void tool_reraise(void) __attribute__((noreturn));

// print "tool: message" on stderr and exit 2; a message ending in ':' gets strerror(errno)
void eprintf(const char* fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

// print "tool: message" on stderr without exiting
void weprintf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// the tool's usage text (set by tool_init); usage() prints it on stderr and exits 2
extern const char* usageText;
void usage(void) __attribute__((noreturn));

// "tool: message" and the usage text on stderr, exit 2
void usageError(const char* fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

// the usage text then `details` on stdout, exit 0 (--help)
void help(const char* details) __attribute__((noreturn));

// print "tool VERSION (libmj VERSION)" on stdout and exit 0
void version(void) __attribute__((noreturn));

// the names of the mjtWarning values, for messages
extern const char* const tool_warningText[mjNWARNING];

// seconds on a monotonic clock
double tool_seconds(void);

// malloc that exits with a message on failure
void* emalloc(size_t n);

// flush stdout and exit 2 if writing it failed (quietly on a closed pipe)
void efflush(void);

// a model of either kind (.xml compiles, otherwise binary); exits 2 with the message on failure
mjModel* eloadmodel(const char* path);

// keyframe s of m, by name or else by index; exits with a one-line message when there is none
int efindkey(const mjModel* m, const char* s);

// open an atomic output (mj_outOpen: "-" is standard output) in a new mjOutFile; exits with
// the message on failure
mjOutFile* tool_outOpen(const char* path);

// commit *slot and free it (*slot is set to NULL first, so that a cleanup at exit does not
// discard it again); a closed pipe on standard output ends the tool quietly, another failure
// with its message
void tool_outCommit(mjOutFile** slot);

// ---- sharded runs (tool.c): --shard i/n and --range a:b --------------------------------------

// which items of a run over independent items a tool computes: all, the i-th of n blocks
// (--shard i/n), or the items a..b-1 (--range a:b)
typedef struct {
  int kind;           // 0: all, 1: --shard, 2: --range
  long long a, b;     // i and n, or a and b
  const char* opt;    // the option and value as given, for messages
} ToolShard;

// parse --shard's or --range's value into s (a usage error when malformed, or given twice)
void tool_parseShard(ToolShard* s, const char* opt, const char* value);

// the items first..end-1 of a run of total items that s selects; exits 2 with a one-line
// message when a --range exceeds the run
void tool_shardRange(const ToolShard* s, long long total, long long* first, long long* end);

// the range record of those items, frames per item, for the run of fingerprint run
mjStreamRange tool_range(long long first, long long end, long long total, long long frames,
                         uint64_t run);

// a fingerprint continued by a string (with its terminating NUL, so that "a","bc" differs from
// "ab","c")
uint64_t tool_hashString(uint64_t h, const char* s);

#endif
