// replay.c: run a harness on files without libFuzzer: each argument is one input, read whole
// and passed to LLVMFuzzerTestOneInput.  A crash or a sanitizer report fails the run; make
// check replays t/fuzz/regress/<harness>/ so that every input that ever crashed stays fixed.
#include <stdio.h>

#include "fuzz.h"

// read each file, run the harness on it, name it on stdout
int main(int argc, char** argv) {
  for (int i = 1; i < argc; i++) {
    FILE* f = fopen(argv[i], "rb");
    if (!f) {
      perror(argv[i]);
      return 2;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t* buf = malloc(cap);
    // grow the buffer until the file fits
    while (buf && (n += fread(buf + n, 1, cap - n, f)) == cap) {
      uint8_t* grown = realloc(buf, cap *= 2);
      if (!grown) free(buf);
      buf = grown;
    }
    fclose(f);
    if (!buf) {
      fprintf(stderr, "%s: out of memory\n", argv[i]);
      return 2;
    }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    printf("replayed %s\n", argv[i]);
  }
  return 0;
}
