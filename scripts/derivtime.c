// derivtime.c: the median time of one centered finite-difference evaluation of the transition
// Jacobians A, B, C, D (mjd_transitionFD, eps 1e-6) at a model's default or keyframe state, for
// make bench: built once against libmj (lib/mj.h) and, with -DNATIVE, once against Debian's
// MuJoCo 2.2.2 (libmujoco-dev), so that both are timed the same way, in process.
//
//   derivtime RUNS MODEL.xml [KEY]   prints the median microseconds of RUNS evaluations, or an
//                                    error
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
  int runs = argc == 3 || argc == 4 ? atoi(argv[1]) : 0;
  if (runs < 1 || runs > 100000) {
    fprintf(stderr, "usage: derivtime RUNS MODEL.xml [KEY]\n");
    return 2;
  }
  char err[1000] = "";
  mjModel* m = LOAD(argv[2], err, sizeof(err));
  if (!m) {
    printf("error: %s\n", err);
    return 1;
  }
  mjData* d = mj_makeData(m);
  if (argc == 4) {
    int k = mj_name2id(m, mjOBJ_KEY, argv[3]);
    if (k < 0) {
      printf("error: no keyframe %s\n", argv[3]);
      return 1;
    }
    mj_resetDataKeyframe(m, d, k);
  }
  mj_forward(m, d);

  // the four blocks, all requested
  int ndx = 2 * m->nv + m->na, ns = m->nsensordata, nu = m->nu;
  mjtNum* A = malloc(sizeof(mjtNum) * (ndx * ndx + ndx * nu + ns * ndx + ns * nu + 1));
  mjtNum *B = A + ndx * ndx, *C = B + ndx * nu, *D = C + ns * ndx;
  double* us = malloc(sizeof(double) * runs);
  for (int i = 0; i < runs; i++) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    mjd_transitionFD(m, d, 1e-6, 1, A, B, C, D);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    us[i] = (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) / 1e3;
  }
  qsort(us, runs, sizeof(double), cmp);
  printf("%.1f\n", runs % 2 ? us[runs / 2] : (us[runs / 2 - 1] + us[runs / 2]) / 2);
  free(us);
  free(A);
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
