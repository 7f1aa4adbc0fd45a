// replay.c: run a harness on files without libFuzzer: each argument is one input, read whole
// and passed to LLVMFuzzerTestOneInput.  A crash, a sanitizer report or a peak memory above
// 1 GB (the inputs are small: more means an allocation the library should have refused) fails
// the run; make check replays t/fuzz/regress/<harness>/ so that every finding stays fixed.
#include <stdio.h>
#include <sys/resource.h>

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
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    if (ru.ru_maxrss > 1024L * 1024) {
      fprintf(stderr, "%s: peak memory %ld MB, over the 1024 MB limit\n", argv[i],
              ru.ru_maxrss / 1024);
      return 1;
    }
    printf("replayed %s\n", argv[i]);
  }
  return 0;
}
