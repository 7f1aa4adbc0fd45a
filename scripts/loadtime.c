// loadtime.c: the median time of loading (compiling) an MJCF model in process, for make bench:
// built once against libmj (lib/mj.h) and, with -DNATIVE, once against Debian's MuJoCo 2.2.2
// (libmujoco-dev), so that both compilers are timed the same way, without process start-up or
// writing the model out.
//
//   loadtime RUNS MODEL.xml      prints the median milliseconds of RUNS loads, or an error
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef NATIVE
#include <mujoco/mujoco.h>
#define LOAD(file, err, n) mj_loadXML(file, NULL, err, n)
#else
#include "mj.h"
#define LOAD(file, err, n) mj_loadXML(file, err, n)
#endif

// ascending doubles, for the median
static int cmp(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  int runs = argc == 3 ? atoi(argv[1]) : 0;
  if (runs < 1 || runs > 1000) {
    fprintf(stderr, "usage: loadtime RUNS MODEL.xml\n");
    return 2;
  }
  double* ms = malloc(sizeof(double) * runs);
  char err[1000] = "";
  for (int i = 0; i < runs; i++) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    mjModel* m = LOAD(argv[2], err, sizeof(err));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!m) {
      printf("error: %s\n", err);
      return 1;
    }
    mj_deleteModel(m);
    ms[i] = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
  }
  qsort(ms, runs, sizeof(double), cmp);
  printf("%.2f\n", runs % 2 ? ms[runs / 2] : (ms[runs / 2 - 1] + ms[runs / 2]) / 2);
  free(ms);
  return 0;
}
