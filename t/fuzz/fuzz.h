// fuzz.h: what the fuzz harnesses share.  Each harness defines LLVMFuzzerTestOneInput, the
// entry point of libFuzzer (make fuzz, clang) and of the replay driver (replay.c, gcc) that
// runs the regression inputs of t/fuzz/regress/ in make check.
#ifndef MJ_FUZZ_H
#define MJ_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mj.h"

// the repository root, for the files a harness reads (the Makefile passes it)
#ifndef FUZZ_ROOT
#define FUZZ_ROOT "."
#endif

// libFuzzer's entry point: one input, 0 always (a finding is a crash, a leak or a hang)
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

// the input as a malloc'ed, NUL-terminated string (NULL when out of memory)
static inline char* fuzzString(const uint8_t* data, size_t size) {
  char* s = malloc(size + 1);
  if (s) {
    memcpy(s, data, size);
    s[size] = 0;
  }
  return s;
}

// the most iterations a harness's step takes per loop: past a few hundred a loop only repeats
// the paths it has taken, and a model asking for 65536 noslip sweeps (valid: counts up to
// 100000 are allowed) would hold the fuzzer on one input for seconds
#define FUZZ_MAXITER 1000

// cap the model's iteration counts at FUZZ_MAXITER, after validation saw them whole
static inline void fuzzCapIterations(mjModel* m) {
  int* count[] = {&m->opt.iterations, &m->opt.ls_iterations, &m->opt.noslip_iterations,
                  &m->opt.ccd_iterations, &m->opt.sdf_iterations, &m->opt.sdf_initpoints};
  for (size_t i = 0; i < sizeof(count) / sizeof(count[0]); i++)
    if (*count[i] > FUZZ_MAXITER) *count[i] = FUZZ_MAXITER;
}

#endif
