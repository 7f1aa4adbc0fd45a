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
//   timing fdstates RUNS MODEL.xml CSV    median over RUNS passes of the microseconds per state
//                                         of the centered A, B, C, D at every state of CSV
//                                         (mjdump's output: the columns qpos[i], qvel[i],
//                                         act[i], ctrl[i] are read, the others skipped; each
//                                         state set over the default, mj_forward, then
//                                         mjd_transitionFD), as mjderiv --method fd runs them
//
// Prints the number, or "error: ..." and exits 1.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXLINE (1 << 20)

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

// the states of an mjdump CSV as rows of nq + nv + na + nu numbers (the columns the header
// names qpos[i], qvel[i], act[i], ctrl[i]; absent ones 0); the number of rows in *n
static mjtNum* readStates(const mjModel* m, const char* path, int* n) {
  FILE* f = fopen(path, "r");
  char* line = malloc(MAXLINE);
  if (!f || !fgets(line, MAXLINE, f)) {
    printf("error: cannot read %s\n", path);
    exit(1);
  }
  // each column's place in a row, -1 when skipped
  int ncol = 0, width = m->nq + m->nv + m->na + m->nu, col[4096];
  const char* field[4] = {"qpos[", "qvel[", "act[", "ctrl["};
  int base[4] = {0, m->nq, m->nq + m->nv, m->nq + m->nv + m->na};
  for (char* tok = strtok(line, ",\n"); tok && ncol < 4096; tok = strtok(NULL, ",\n")) {
    col[ncol] = -1;
    for (int k = 0; k < 4; k++)
      if (!strncmp(tok, field[k], strlen(field[k])))
        col[ncol] = base[k] + atoi(tok + strlen(field[k]));
    ncol++;
  }
  int cap = 256;
  mjtNum* x = calloc((size_t)cap * width, sizeof(mjtNum));
  for (*n = 0; fgets(line, MAXLINE, f); ++*n) {
    if (*n == cap) {
      x = realloc(x, sizeof(mjtNum) * (size_t)(cap *= 2) * width);
      memset(x + (size_t)*n * width, 0, sizeof(mjtNum) * (size_t)(cap - *n) * width);
    }
    char* p = line;
    for (int c = 0; c < ncol; c++) {
      double v = strtod(p, &p);
      if (col[c] >= 0) x[(size_t)*n * width + col[c]] = v;
      if (*p == ',') p++;
    }
  }
  fclose(f);
  free(line);
  return x;
}

int main(int argc, char** argv) {
  int runs = argc >= 4 ? atoi(argv[2]) : 0;
  const char* mode = argc >= 4 ? argv[1] : "";
  int load1 = !strcmp(mode, "load"), fd = !strcmp(mode, "fd"), exact = !strcmp(mode, "analytic");
  int states = !strcmp(mode, "fdstates");
  if (runs < 1 || runs > 100000 || !(load1 || fd || exact || states) ||
      argc > (load1 ? 4 : 5) || (states && argc != 5)) {
    fprintf(stderr, "usage: timing load|fd|analytic RUNS MODEL.xml [KEY]\n"
                    "       timing fdstates RUNS MODEL.xml CSV\n");
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
  } else if (states) {
    // every state of the CSV, each pass timed whole
    m = load(argv[3]);
    d = mj_makeData(m);
    int n, ndx = 2 * m->nv + m->na, ns = m->nsensordata, nu = m->nu;
    int width = m->nq + m->nv + m->na + nu;
    mjtNum* x = readStates(m, argv[4], &n);
    A = malloc(sizeof(mjtNum) * (ndx * ndx + ndx * nu + ns * ndx + ns * nu + 1));
    mjtNum *B = A + ndx * ndx, *C = B + ndx * nu, *D = C + ns * ndx;
    for (int i = 0; i < runs; i++) {
      double t0 = now();
      for (int k = 0; k < n; k++) {
        const mjtNum* s = x + (size_t)k * width;
        mj_resetData(m, d);
        memcpy(d->qpos, s, sizeof(mjtNum) * m->nq);
        memcpy(d->qvel, s + m->nq, sizeof(mjtNum) * m->nv);
        memcpy(d->act, s + m->nq + m->nv, sizeof(mjtNum) * m->na);
        memcpy(d->ctrl, s + m->nq + m->nv + m->na, sizeof(mjtNum) * nu);
        mj_forward(m, d);
        mjd_transitionFD(m, d, 1e-6, 1, A, B, C, D);
      }
      t[i] = 1e6 * (now() - t0) / (n ? n : 1);
    }
    free(x);
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
