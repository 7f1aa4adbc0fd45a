// inv.c: libmj's inverse dynamics at given states, as JSON lines, for t/oracle/inverse/run.mjs
// to compare with MuJoCo's.
//
//   inv MODEL [--set NAME=VALUE | --disable FLAG | --enable FLAG]... < CASES
//
// CASES: one case a line: qpos (nq), qvel (nv), ctrl (nu), qfrc_applied (nv); ncon and ncon
// contacts of 33 numbers (dist, pos[3], frame[9], includemargin, friction[5], solref[2],
// solreffriction[2], solimp[5], adhesion, dim, geom1, geom2, exclude; ncon = -1: libmj's
// own); then the forward dynamics to compare against (MuJoCo's): nefc, efc_force (nefc),
// qfrc_constraint (nv), qacc (nv); then nacc and nacc accelerations (nv each).  For each
// case: the position stage with the given contacts in place of libmj's (so that collision
// detection is not under test) and its sensors, the velocity, actuation and acceleration
// stages, the given forward results in place of a solve (when nefc matches),
// mj_compareFwdInv; then, at each given qacc, mj_inverseSkip from the velocity stage on
// (mj_inverse less the position stage done here).  One line:
// {"nefc": N, "ncon": C, "fwdinv": [2], "fwd_qfrc_inverse": [...], "inv": [{"qfrc_inverse",
// "qfrc_constraint", "efc_force", "efc_state", "sensordata", "qacc"}, ...]} with %.17g.
// Exit status 2 on any error, with a message on stderr.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mj.h"
#include "../helper.h"

#define NCONFIELD 33  // numbers per contact on input

// print "name": [v0, v1, ...] after a comma unless first
static void printArray(const char* name, const mjtNum* v, int n, int first) {
  printf("%s\"%s\": [", first ? "" : ", ", name);
  for (int i = 0; i < n; i++) printf("%s%.17g", i ? ", " : "", v[i]);
  printf("]");
}

// the next number of the line at *p; exits with status 2 when there is none
static double next(char** p, long lineno) {
  char* end;
  double v = strtod(*p, &end);
  if (end == *p) {
    fprintf(stderr, "inv: line %ld: too few numbers\n", lineno);
    exit(2);
  }
  *p = end;
  return v;
}

// n numbers of the line into v (NULL: read and drop)
static void readVec(char** p, long lineno, mjtNum* v, int n) {
  for (int i = 0; i < n; i++) {
    double x = next(p, lineno);
    if (v) v[i] = x;
  }
}

// the position stage with the contacts of the line in place of libmj's, and its sensors
static void position(const mjModel* m, mjData* d, char** p, long lineno) {
  mj_fwdPosition(m, d);
  int ncon = (int)next(p, lineno);
  if (ncon > m->nconmax) {
    fprintf(stderr, "inv: line %ld: %d contacts, room for %d\n", lineno, ncon, m->nconmax);
    exit(2);
  }
  for (int c = 0; c < ncon; c++) {
    mjContact* con = d->contact + c;
    mjtNum v[NCONFIELD];
    readVec(p, lineno, v, NCONFIELD);
    memset(con, 0, sizeof(mjContact));
    con->dist = v[0];
    memcpy(con->pos, v + 1, 3 * sizeof(mjtNum));
    memcpy(con->frame, v + 4, 9 * sizeof(mjtNum));
    con->includemargin = v[13];
    memcpy(con->friction, v + 14, 5 * sizeof(mjtNum));
    memcpy(con->solref, v + 19, 2 * sizeof(mjtNum));
    memcpy(con->solreffriction, v + 21, 2 * sizeof(mjtNum));
    memcpy(con->solimp, v + 23, 5 * sizeof(mjtNum));
    con->adhesion = v[28];
    con->dim = (int)v[29];
    con->geom1 = con->geom[0] = (int)v[30];
    con->geom2 = con->geom[1] = (int)v[31];
    con->exclude = (int)v[32];
  }
  if (ncon >= 0) {
    d->ncon = ncon;
    mj_makeConstraint(m, d);
  }
  mj_sensorPos(m, d);
}

// one case: forward stages with the given solution and the comparison, then the inverses
static void runCase(const mjModel* m, mjData* d, char* p, long lineno) {
  int nv = m->nv;
  mj_resetData(m, d);
  readVec(&p, lineno, d->qpos, m->nq);
  readVec(&p, lineno, d->qvel, nv);
  readVec(&p, lineno, d->ctrl, m->nu);
  readVec(&p, lineno, d->qfrc_applied, nv);

  // the forward stages; the given solution when the rows agree
  position(m, d, &p, lineno);
  mj_fwdVelocity(m, d);
  mj_fwdActuation(m, d);
  mj_fwdAcceleration(m, d);
  int nefc = (int)next(&p, lineno);
  readVec(&p, lineno, nefc == d->nefc ? d->efc_force : NULL, nefc);
  readVec(&p, lineno, d->qfrc_constraint, nv);
  readVec(&p, lineno, d->qacc, nv);
  mj_compareFwdInv(m, d);
  printf("{\"nefc\": %d, \"ncon\": %d, ", d->nefc, d->ncon);
  printArray("fwdinv", d->solver_fwdinv, 2, 1);
  printArray("fwd_qfrc_inverse", d->qfrc_inverse, nv, 0);

  // the inverse at each acceleration
  int nacc = (int)next(&p, lineno);
  printf(", \"inv\": [");
  for (int k = 0; k < nacc; k++) {
    readVec(&p, lineno, d->qacc, nv);
    mj_inverseSkip(m, d, mjSTAGE_POS, 0);
    printf("%s{", k ? ", " : "");
    printArray("qfrc_inverse", d->qfrc_inverse, nv, 1);
    printArray("qfrc_constraint", d->qfrc_constraint, nv, 0);
    printArray("efc_force", d->efc_force, d->nefc, 0);
    printf(", \"efc_state\": [");
    for (int i = 0; i < d->nefc; i++) printf("%s%d", i ? ", " : "", d->efc_state[i]);
    printf("]");
    printArray("sensordata", d->sensordata, m->nsensordata, 0);
    printArray("qacc", d->qacc, nv, 0);
    printf("}");
  }
  printf("]}\n");
}

int main(int argc, char** argv) {
  mjModel* m = helperModel("inv", "CASES", argc, argv);
  // each case
  mjData* d = mj_makeData(m);
  char* line = NULL;
  size_t cap = 0;
  for (long lineno = 1; getline(&line, &cap, stdin) > 0; lineno++) runCase(m, d, line, lineno);
  free(line);
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
