// fwd.c: libmj's one-step quantities at given states, as JSON lines, for t/oracle/traj.mjs to
// compare with `node scripts/oracle.mjs forward`.
//
//   fwd MODEL [--set NAME=VALUE | --disable FLAG | --enable FLAG]... < STATES
//
// STATES: one state a line, nq + nv + na + nu numbers (qpos, qvel, act, ctrl).  For each, after
// mj_resetData, setting them and mj_forward, one line {"qfrc_bias": [...], "qM": [...],
// "qLD": [...], "qacc": [...], "actuator_force": [...], "sensordata": [...]} with %.17g.
// Exit status 2 on any error, with a message on stderr.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mj.h"
#include "helper.h"

// print "name": [v0, v1, ...]
static void printArray(const char* name, const mjtNum* v, int n, int first) {
  printf("%s\"%s\": [", first ? "" : ", ", name);
  for (int i = 0; i < n; i++) printf("%s%.17g", i ? ", " : "", v[i]);
  printf("]");
}

int main(int argc, char** argv) {
  mjModel* m = helperModel("fwd", "STATES", argc, argv);
  // each state: a line read, forward, print
  mjData* d = mj_makeData(m);
  int n[4] = {m->nq, m->nv, m->na, m->nu};
  char* line = NULL;
  size_t cap = 0;
  for (long lineno = 1; getline(&line, &cap, stdin) > 0; lineno++) {
    mj_resetData(m, d);
    mjtNum* dst[4] = {d->qpos, d->qvel, d->act, d->ctrl};
    char* p = line;
    for (int a = 0; a < 4; a++) {
      for (int i = 0; i < n[a]; i++) {
        char* end;
        dst[a][i] = strtod(p, &end);
        if (end == p) {
          fprintf(stderr, "fwd: line %ld: expected %d numbers\n", lineno,
                  n[0] + n[1] + n[2] + n[3]);
          return 2;
        }
        p = end;
      }
    }
    mj_forward(m, d);
    printf("{");
    printArray("qfrc_bias", d->qfrc_bias, m->nv, 1);
    printArray("qM", d->qM, m->nM, 0);
    printArray("qLD", d->qLD, m->nM, 0);
    printArray("qacc", d->qacc, m->nv, 0);
    printArray("actuator_force", d->actuator_force, m->nu, 0);
    printArray("sensordata", d->sensordata, m->nsensordata, 0);
    printf("}\n");
  }
  free(line);
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
