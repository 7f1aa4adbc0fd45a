// efc.c: libmj's constraint rows at given states, as JSON lines, for t/oracle/constraint/run.mjs
// to compare with MuJoCo's.
//
//   efc MODEL [--set NAME=VALUE | --disable FLAG | --enable FLAG]... < STATES
//
// STATES: one state a line: nq + nv numbers (qpos, qvel), then ncon, then ncon contacts of 33
// numbers each (dist, pos[3], frame[9], includemargin, friction[5], solref[2],
// solreffriction[2], solimp[5], adhesion, dim, geom1, geom2, exclude), then nforce, nforce
// constraint forces and nv accelerations.  ncon = -1: libmj's own collision detection
// instead; nforce = -1: no forces (and no accelerations).  For each state: mj_resetData, the
// state, mj_fwdPosition; with given contacts, these replace libmj's and mj_makeConstraint
// runs again; then mj_fwdVelocity.  With forces: actuation and acceleration stages, then the given
// efc_force and qacc instead of a solve, the sensors of every stage and mj_rnePostConstraint.
// One line {"nefc": N, "ncon": C, "efc_type": [...], ..., "efc_J": [...] (dense, nefc x nv,
// also when libmj stores it sparse), "mu": [...], "efc_address": [...], "contact": [[33
// numbers], ...], "cfrc_ext": [...], "sensordata": [...]} with %.17g (the last two with forces
// only).  Exit status 2 on any error, with a message on stderr.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/constraint.h"
#include "mj.h"
#include "../helper.h"

#define NCONFIELD 33  // numbers per contact on input

// print "name": [v0, v1, ...]
static void printArray(const char* name, const mjtNum* v, int n) {
  printf(", \"%s\": [", name);
  for (int i = 0; i < n; i++) printf("%s%.17g", i ? ", " : "", v[i]);
  printf("]");
}

// print "name": [i0, i1, ...]
static void printInts(const char* name, const int* v, int n) {
  printf(", \"%s\": [", name);
  for (int i = 0; i < n; i++) printf("%s%d", i ? ", " : "", v[i]);
  printf("]");
}

// the next number of the line at *p; exits with status 2 when there is none
static double next(char** p, long lineno) {
  char* end;
  double v = strtod(*p, &end);
  if (end == *p) {
    fprintf(stderr, "efc: line %ld: too few numbers\n", lineno);
    exit(2);
  }
  *p = end;
  return v;
}

// the 33 numbers of a contact, in the input order, into or from c
static void contactFields(mjContact* c, mjtNum** reals, int** ints) {
  mjtNum* r[] = {&c->dist, c->pos, c->pos + 1, c->pos + 2};
  int k = 0;
  for (int i = 0; i < 4; i++) reals[k++] = r[i];
  for (int i = 0; i < 9; i++) reals[k++] = c->frame + i;
  reals[k++] = &c->includemargin;
  for (int i = 0; i < 5; i++) reals[k++] = c->friction + i;
  for (int i = 0; i < 2; i++) reals[k++] = c->solref + i;
  for (int i = 0; i < 2; i++) reals[k++] = c->solreffriction + i;
  for (int i = 0; i < 5; i++) reals[k++] = c->solimp + i;
  reals[k++] = &c->adhesion;
  int* n[] = {&c->dim, &c->geom1, &c->geom2, &c->exclude};
  for (int i = 0; i < 4; i++) ints[i] = n[i];
}

// the rows of d as one JSON line
static void printRows(const mjModel* m, mjData* d) {
  int nefc = d->nefc, nv = m->nv;
  printf("{\"nefc\": %d, \"ncon\": %d", nefc, d->ncon);
  printInts("efc_type", d->efc_type, nefc);
  printInts("efc_id", d->efc_id, nefc);
  static const char* names[] = {"efc_pos", "efc_margin", "efc_frictionloss", "efc_diagApprox",
                                "efc_R",   "efc_D",      "efc_vel",          "efc_aref"};
  const mjtNum* arrays[] = {d->efc_pos, d->efc_margin, d->efc_frictionloss, d->efc_diagApprox,
                            d->efc_R,   d->efc_D,      d->efc_vel,          d->efc_aref};
  for (int i = 0; i < 8; i++) printArray(names[i], arrays[i], nefc);
  printArray("efc_KBIP", d->efc_KBIP, 4 * nefc);

  // the Jacobian, dense
  size_t mark = mj_markStack(d);
  mjtNum* J = mj_stackAlloc(d, (size_t)nefc * nv);
  if (mj_isSparse(m)) {
    memset(J, 0, sizeof(mjtNum) * (size_t)nefc * nv);
    for (int i = 0; i < nefc; i++) {
      for (int k = 0; k < d->efc_J_rownnz[i]; k++) {
        int a = d->efc_J_rowadr[i] + k;
        J[i * nv + d->efc_J_colind[a]] = d->efc_J[a];
      }
    }
  } else {
    memcpy(J, d->efc_J, sizeof(mjtNum) * (size_t)nefc * nv);
  }
  printArray("efc_J", J, nefc * nv);
  mj_freeStack(d, mark);

  // per contact: mu, address, and the contact itself
  printf(", \"mu\": [");
  for (int i = 0; i < d->ncon; i++) printf("%s%.17g", i ? ", " : "", d->contact[i].mu);
  printf("], \"efc_address\": [");
  for (int i = 0; i < d->ncon; i++) printf("%s%d", i ? ", " : "", d->contact[i].efc_address);
  printf("], \"contact\": [");
  for (int i = 0; i < d->ncon; i++) {
    mjtNum* reals[NCONFIELD - 4];
    int* ints[4];
    contactFields(d->contact + i, reals, ints);
    printf("%s[", i ? ", " : "");
    for (int k = 0; k < NCONFIELD - 4; k++) printf("%s%.17g", k ? ", " : "", *reals[k]);
    for (int k = 0; k < 4; k++) printf(", %d", *ints[k]);
    printf("]");
  }
  printf("]");
}

int main(int argc, char** argv) {
  mjModel* m = helperModel("efc", "STATES", argc, argv);
  // each state: read, position stage (contacts replaced when given), velocity stage, print
  mjData* d = mj_makeData(m);
  char* line = NULL;
  size_t cap = 0;
  for (long lineno = 1; getline(&line, &cap, stdin) > 0; lineno++) {
    char* p = line;
    mj_resetData(m, d);
    for (int i = 0; i < m->nq; i++) d->qpos[i] = next(&p, lineno);
    for (int i = 0; i < m->nv; i++) d->qvel[i] = next(&p, lineno);
    int ncon = (int)next(&p, lineno);
    if (ncon > m->nconmax) {
      fprintf(stderr, "efc: line %ld: %d contacts, room for %d\n", lineno, ncon, m->nconmax);
      return 2;
    }
    mj_fwdPosition(m, d);
    if (ncon >= 0) {
      d->ncon = ncon;
      for (int c = 0; c < ncon; c++) {
        mjtNum* reals[NCONFIELD - 4];
        int* ints[4];
        memset(d->contact + c, 0, sizeof(mjContact));
        contactFields(d->contact + c, reals, ints);
        for (int k = 0; k < NCONFIELD - 4; k++) *reals[k] = next(&p, lineno);
        for (int k = 0; k < 4; k++) *ints[k] = (int)next(&p, lineno);
      }
      mj_makeConstraint(m, d);
    }
    mj_fwdVelocity(m, d);
    printRows(m, d);

    // given forces and accelerations: sensors and body forces
    int nforce = (int)next(&p, lineno);
    if (nforce >= 0) {
      mj_fwdActuation(m, d);
      mj_fwdAcceleration(m, d);
      for (int i = 0; i < nforce; i++) {
        mjtNum f = next(&p, lineno);
        if (i < d->nefc) d->efc_force[i] = f;
      }
      for (int i = 0; i < m->nv; i++) d->qacc[i] = next(&p, lineno);
      mj_sensorPos(m, d);
      mj_sensorVel(m, d);
      mj_sensorAcc(m, d);
      mj_rnePostConstraint(m, d);
      printArray("cfrc_ext", d->cfrc_ext, 6 * m->nbody);
      printArray("sensordata", d->sensordata, m->nsensordata);
    }
    printf("}\n");
  }
  free(line);
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
