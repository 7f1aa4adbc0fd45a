// fuzz.h: what the fuzz harnesses share.  Each harness defines LLVMFuzzerTestOneInput, the
// entry point of libFuzzer (make fuzz, clang) and of the replay driver (replay.c, gcc) that
// runs the regression inputs of t/fuzz/regress/ in make check.
#ifndef MJ_FUZZ_H
#define MJ_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

#endif
