// timing.c: in-process timings for make bench, built once against libmj (lib/mj.h) and, with
// -DNATIVE, once against Debian's MuJoCo 2.2.2 (libmujoco-dev), so that both engines are timed
// the same way, without process start-up or output:
//
//   timing load RUNS MODEL.xml            median milliseconds of compiling the model
//   timing fd RUNS MODEL.xml [KEY]        median microseconds of one centered finite-difference
//                                         evaluation of A, B, C, D (mjd_transitionFD, eps 1e-6)
//                                         at the default or keyframe state (KEY: name or index)
//   timing analytic RUNS MODEL.xml [KEY]  (libmj only) the same for the exact A, B, C, D of
//                                         mjd_transitionSmooth (A, B alone when a sensor is
//                                         not differentiated yet); "-" when the state has
//                                         something it cannot differentiate yet
//
// Prints the number, or "error: ..." and exits 1.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef NATIVE
#include <mujoco/mujoco.h>
#define LOAD(file, err, n) mj_loadXML(file, NULL, err, n)
#else
#include "derivative/derivative.h"
#define LOAD(file, err, n) mj_loadXML(file, err, n)
#endif

// ascending doubles, for the median
static int cmp(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

// seconds on a monotonic clock
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

// the model, or the message and exit 1
static mjModel* load(const char* file) {
  char err[1000] = "";
  mjModel* m = LOAD(file, err, sizeof(err));
  if (!m) {
    printf("error: %s\n", err);
    exit(1);
  }
  return m;
}

int main(int argc, char** argv) {
  int runs = argc >= 4 ? atoi(argv[2]) : 0;
  const char* mode = argc >= 4 ? argv[1] : "";
  int load1 = !strcmp(mode, "load"), fd = !strcmp(mode, "fd"), exact = !strcmp(mode, "analytic");
  if (runs < 1 || runs > 100000 || !(load1 || fd || exact) || argc > (load1 ? 4 : 5)) {
    fprintf(stderr, "usage: timing load|fd|analytic RUNS MODEL.xml [KEY]\n");
    return 2;
  }
  double* t = malloc(sizeof(double) * runs);
  mjModel* m = NULL;
  mjData* d = NULL;
  mjtNum* A = NULL;
  if (load1) {
    // compile and free, RUNS times
    for (int i = 0; i < runs; i++) {
      double t0 = now();
      mjModel* mi = load(argv[3]);
      t[i] = 1e3 * (now() - t0);
      mj_deleteModel(mi);
    }
  } else {
    // the state: the default or the keyframe, forward once
    m = load(argv[3]);
    d = mj_makeData(m);
    if (argc == 5) {
      // by name, else by index
      char* end;
      int k = mj_name2id(m, mjOBJ_KEY, argv[4]);
      long i = strtol(argv[4], &end, 10);
      if (k < 0 && *argv[4] && !*end && i >= 0 && i < m->nkey) k = (int)i;
      if (k < 0) {
        printf("error: no keyframe %s\n", argv[4]);
        return 1;
      }
      mj_resetDataKeyframe(m, d, k);
    }
    mj_forward(m, d);
    int ndx = 2 * m->nv + m->na, ns = m->nsensordata, nu = m->nu;
    A = malloc(sizeof(mjtNum) * (ndx * ndx + ndx * nu + ns * ndx + ns * nu + 1));
    mjtNum *B = A + ndx * ndx, *C = B + ndx * nu, *D = C + ns * ndx;
#ifndef NATIVE
    char msg[300];
    int sensors = mjd_checkSensor(m, msg, sizeof(msg)) == 0;
#endif
    for (int i = 0; i < runs; i++) {
      double t0 = now();
#ifdef NATIVE
      mjd_transitionFD(m, d, 1e-6, 1, A, B, C, D);
#else
      char err[300];
      if (exact && mjd_transitionSmooth(m, d, A, B, sensors ? C : NULL, sensors ? D : NULL, err,
                                        sizeof(err))) {
        printf("-\n");
        return 0;
      }
      if (fd) mjd_transitionFD(m, d, 1e-6, 1, A, B, C, D);
#endif
      t[i] = 1e6 * (now() - t0);
    }
  }
  qsort(t, runs, sizeof(double), cmp);
  printf("%.2f\n", runs % 2 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2);
  free(t);
  free(A);
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
