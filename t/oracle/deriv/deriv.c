// deriv.c: libmj's finite-difference Jacobians at given states, as JSON lines, for
// t/oracle/deriv/run.mjs to compare with MuJoCo's.
//
//   deriv MODEL [--set NAME=VALUE | --disable FLAG | --enable FLAG]... < CASES
//
// CASES: one case a line: centered (0 or 1), eps, flg_actuation (0 or 1), then qpos (nq),
// qvel (nv), act (na), ctrl (nu), qacc_warmstart (nv), qacc (nv).  For each case:
// mjd_transitionFD(centered, eps) at the state, then mjd_inverseFD(eps, flg_actuation) at the
// state with the given qacc; for a centered case also the exact A, B, C, D of
// mjd_transitionSmooth at the state.  One line: {"A": [...], "B", "C", "D", "DfDq", "DfDv",
// "DfDa", "DsDq", "DsDv", "DsDa", "DmDq", "same": 1 when the state came back unchanged, and
// for centered cases "exact": {"A", "B", "C", "D"} or "refused": the analytic path's message,
// "event": 1 when a state eps away (one coordinate of the tangent state or a control moved)
// has other constraint rows or row states: the step has no derivative there, and "kink": 1
// when centered differences converge to the exact A, B as eps shrinks (at eps/10 within
// 1e-5 and five times closer than at eps: the differences' own error, as that of |v| v at
// rest, whose second derivative jumps)} with
// %.17g, matrices flat row-major.  Exit status 2 on any error, with a message on stderr.
#include <math.h>
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

// 1 when moving one coordinate of d's tangent state (dq, v, act) or one control by +-eps
// changes the constraint rows or their states (the forward pass's); d's state is restored
// and its forward pass rerun
static int nearEvent(const mjModel* m, mjData* d, mjtNum eps) {
  int nv = m->nv, na = m->na, ndx = 2 * nv + na, nefc, event = 0;
  size_t n = (size_t)m->nq + nv + na + m->nu;
  mjtNum* keep = malloc(sizeof(mjtNum) * (n + nv));
  mjtNum *q = keep, *v = q + m->nq, *a = v + nv, *u = a + na, *dq = u + m->nu;
  memcpy(q, d->qpos, sizeof(mjtNum) * (size_t)m->nq);
  memcpy(v, d->qvel, sizeof(mjtNum) * (size_t)nv);
  memcpy(a, d->act, sizeof(mjtNum) * (size_t)na);
  memcpy(u, d->ctrl, sizeof(mjtNum) * (size_t)m->nu);
  mj_forward(m, d);
  nefc = d->nefc;
  int* rows = malloc(sizeof(int) * (3 * (size_t)nefc + 1));
  for (int r = 0; r < nefc; r++)
    rows[3 * r] = d->efc_type[r], rows[3 * r + 1] = d->efc_id[r],
    rows[3 * r + 2] = d->efc_state[r];
  for (int c = 0; c < ndx + m->nu && !event; c++) {
    for (int sgn = -1; sgn <= 1 && !event; sgn += 2) {
      memcpy(d->qpos, q, sizeof(mjtNum) * (size_t)m->nq);
      memcpy(d->qvel, v, sizeof(mjtNum) * (size_t)nv);
      memcpy(d->act, a, sizeof(mjtNum) * (size_t)na);
      memcpy(d->ctrl, u, sizeof(mjtNum) * (size_t)m->nu);
      if (c < nv) {
        memset(dq, 0, sizeof(mjtNum) * (size_t)nv);
        dq[c] = 1;
        mj_integratePos(m, d->qpos, dq, sgn * eps);
      } else if (c < 2 * nv) {
        d->qvel[c - nv] += sgn * eps;
      } else if (c < ndx) {
        d->act[c - 2 * nv] += sgn * eps;
      } else {
        d->ctrl[c - ndx] += sgn * eps;
      }
      mj_forward(m, d);
      event = d->nefc != nefc;
      for (int r = 0; r < nefc && !event; r++)
        event = rows[3 * r] != d->efc_type[r] || rows[3 * r + 1] != d->efc_id[r] ||
                rows[3 * r + 2] != d->efc_state[r];
    }
  }
  memcpy(d->qpos, q, sizeof(mjtNum) * (size_t)m->nq);
  memcpy(d->qvel, v, sizeof(mjtNum) * (size_t)nv);
  memcpy(d->act, a, sizeof(mjtNum) * (size_t)na);
  memcpy(d->ctrl, u, sizeof(mjtNum) * (size_t)m->nu);
  mj_forward(m, d);
  free(keep);
  free(rows);
  return event;
}

// max |a - b| / max(1, max |b|) of n numbers
static mjtNum relErr(const mjtNum* a, const mjtNum* b, size_t n) {
  mjtNum diff = 0, top = 1;
  for (size_t i = 0; i < n; i++) diff = fmax(diff, fabs(a[i] - b[i])), top = fmax(top, fabs(b[i]));
  return diff / top;
}

// 1 when centered differences of A, B at eps/10 (scratch[1]) are within 1e-5 of the exact
// A, B and five times closer than at eps (scratch[0]): they converge to them
static int kink(const mjModel* m, mjData* d, mjtNum eps, const mjtNum* A, const mjtNum* B,
                mjtNum* scratch[2]) {
  size_t ndx = 2 * (size_t)m->nv + m->na, na = ndx * ndx, nb = ndx * m->nu;
  mjtNum err[2];
  for (int k = 0; k < 2; k++) {
    mjtNum *Af = scratch[k], *Bf = Af + na;
    mjd_transitionFD(m, d, k ? eps / 10 : eps, 1, Af, Bf, NULL, NULL);
    err[k] = fmax(relErr(Af, A, na), relErr(Bf, B, nb));
  }
  return err[1] < 1e-5 && err[1] < err[0] / 5;
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
  mjtNum* mat[13];
  mjtNum* at = buf;
  for (int k = 0; k < 11; k++) mat[k] = at, at += size[k];
  for (int k = 11; k < 13; k++) mat[k] = at, at += size[0] + size[1];
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

  // the exact Jacobians at the same state (into the first four matrices, printed already)
  char err[300];
  if (centered && mjd_transitionSmooth(m, d, mat[0], mat[1], mat[2], mat[3], err, sizeof(err))) {
    printf(", \"refused\": \"");
    for (const char* c = err; *c; c++) printf(*c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
    printf("\"");
  } else if (centered) {
    printf(", \"exact\": {");
    for (int k = 0; k < 4; k++) printArray(name[k], mat[k], size[k], !k);
    printf("}, \"event\": %d, \"kink\": %d", nearEvent(m, d, eps),
           kink(m, d, eps, mat[0], mat[1], mat + 11));
  }
  printf("}\n");
}

int main(int argc, char** argv) {
  mjModel* m = helperModel("deriv", "CASES", argc, argv);
  mjData* d = mj_makeData(m);
  // room for the eleven matrices, two A, B pairs of scratch and two copies of the state
  size_t ndx = 2 * (size_t)m->nv + m->na, nv = m->nv, ns = m->nsensordata;
  size_t total = ndx * ndx + (ndx + ns) * m->nu + ns * ndx + nv * (3 * nv + 3 * ns + m->nM) +
                 2 * (ndx * ndx + ndx * m->nu) + 2 * (m->nq + 4 * nv + m->na + m->nu);
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
