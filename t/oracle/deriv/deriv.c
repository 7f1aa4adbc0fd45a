// deriv.c: libmj's finite-difference Jacobians at given states, as JSON lines, for
// t/oracle/deriv/run.mjs to compare with MuJoCo's.
//
//   deriv MODEL [--set NAME=VALUE | --disable FLAG | --enable FLAG]... < CASES
//
// CASES: one case a line: centered (0 or 1), eps, flg_actuation (0 or 1), then qpos (nq),
// qvel (nv), act (na), ctrl (nu), qacc_warmstart (nv), qacc (nv).  For each case:
// mjd_transitionFD(centered, eps) at the state, then mjd_inverseFD(eps, flg_actuation) at the
// state with the given qacc.  One line: {"A": [...], "B", "C", "D", "DfDq", "DfDv", "DfDa",
// "DsDq", "DsDv", "DsDa", "DmDq", "same": 1 when the state came back unchanged} with %.17g,
// matrices flat row-major.  Exit status 2 on any error, with a message on stderr.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mj.h"
#include "../helper.h"

// print "name": [v0, v1, ...] after a comma unless first
static void printArray(const char* name, const mjtNum* v, size_t n, int first) {
  printf("%s\"%s\": [", first ? "" : ", ", name);
  for (size_t i = 0; i < n; i++) printf("%s%.17g", i ? ", " : "", v[i]);
  printf("]");
}

// the next number of the line at *p; exits with status 2 when there is none
static double next(char** p, long lineno) {
  char* end;
  double v = strtod(*p, &end);
  if (end == *p) {
    fprintf(stderr, "deriv: line %ld: too few numbers\n", lineno);
    exit(2);
  }
  *p = end;
  return v;
}

// n numbers of the line into v
static void readVec(char** p, long lineno, mjtNum* v, int n) {
  for (int i = 0; i < n; i++) v[i] = next(p, lineno);
}

// v = (qpos, qvel, act, ctrl, qacc_warmstart, qacc) of d
static void stateOf(const mjModel* m, const mjData* d, mjtNum* v) {
  const mjtNum* src[6] = {d->qpos, d->qvel, d->act, d->ctrl, d->qacc_warmstart, d->qacc};
  int n[6] = {m->nq, m->nv, m->na, m->nu, m->nv, m->nv};
  for (int k = 0; k < 6; k++) memcpy(v, src[k], sizeof(mjtNum) * (size_t)n[k]), v += n[k];
}

// 1 when the n numbers of a and b are the same bits
static int same(const mjtNum* a, const mjtNum* b, int n) {
  return !memcmp(a, b, sizeof(mjtNum) * (size_t)n);
}

// one case: both Jacobians, printed
static void runCase(const mjModel* m, mjData* d, char* p, long lineno, mjtNum* buf) {
  int nv = m->nv, ns = m->nsensordata, ndx = 2 * nv + m->na, nu = m->nu;
  mj_resetData(m, d);
  int centered = (int)next(&p, lineno);
  mjtNum eps = next(&p, lineno);
  int actuation = (int)next(&p, lineno);
  readVec(&p, lineno, d->qpos, m->nq);
  readVec(&p, lineno, d->qvel, nv);
  readVec(&p, lineno, d->act, m->na);
  readVec(&p, lineno, d->ctrl, nu);
  readVec(&p, lineno, d->qacc_warmstart, nv);
  readVec(&p, lineno, d->qacc, nv);

  // the matrices, one after another in buf; a copy of the state to check it comes back
  size_t size[11] = {(size_t)ndx * ndx, (size_t)ndx * nu, (size_t)ns * ndx, (size_t)ns * nu,
                     (size_t)nv * nv, (size_t)nv * nv, (size_t)nv * nv, (size_t)nv * ns,
                     (size_t)nv * ns, (size_t)nv * ns, (size_t)nv * m->nM};
  const char* name[11] = {"A", "B", "C", "D", "DfDq", "DfDv", "DfDa", "DsDq", "DsDv", "DsDa",
                          "DmDq"};
  mjtNum* mat[11];
  mjtNum* at = buf;
  for (int k = 0; k < 11; k++) mat[k] = at, at += size[k];
  mjtNum* copy = at;
  int n = m->nq + 3 * nv + m->na + nu;
  stateOf(m, d, copy);
  if (mjd_transitionFD(m, d, eps, centered, mat[0], mat[1], mat[2], mat[3]) ||
      mjd_inverseFD(m, d, eps, actuation, mat[4], mat[5], mat[6], mat[7], mat[8], mat[9],
                    mat[10])) {
    fprintf(stderr, "deriv: line %ld: the derivatives failed\n", lineno);
    exit(2);
  }
  mjtNum* now = copy + n;
  stateOf(m, d, now);
  printf("{\"same\": %d", same(copy, now, n));
  for (int k = 0; k < 11; k++) printArray(name[k], mat[k], size[k], 0);
  printf("}\n");
}

int main(int argc, char** argv) {
  mjModel* m = helperModel("deriv", "CASES", argc, argv);
  mjData* d = mj_makeData(m);
  // room for the eleven matrices and two copies of the state
  size_t ndx = 2 * (size_t)m->nv + m->na, nv = m->nv, ns = m->nsensordata;
  size_t total = ndx * ndx + (ndx + ns) * m->nu + ns * ndx + nv * (3 * nv + 3 * ns + m->nM) +
                 2 * (m->nq + 4 * nv + m->na + m->nu);
  mjtNum* buf = malloc(sizeof(mjtNum) * total);
  char* line = NULL;
  size_t cap = 0;
  for (long lineno = 1; getline(&line, &cap, stdin) > 0; lineno++)
    runCase(m, d, line, lineno, buf);
  free(line);
  free(buf);
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
