// contacts.c: libmj's contacts at given positions, as JSON lines, for compare.mjs to set
// against MuJoCo's.
//
//   contacts MODEL [--frames FILE] [--set NAME=VALUE | --disable FLAG | --enable FLAG]...
//            < STATES
//
// --frames FILE: lines "NAME v1 v2 ...", each overwriting the model's mjtNum array NAME (as
// lib/mjxmacro.h names it, every element given) before the states: compare.mjs passes
// MuJoCo's compiled frames so that both engines collide geoms at bit-identical poses.
// STATES: one state a line, nq numbers (qpos).  For each, after mj_resetData, setting qpos and
// mj_fwdPosition, one line {"warn": W, "contact": [[geom1, geom2, dim, dist, pos(3), frame(9),
// friction(5), solref(2), solreffriction(2), solimp(5), includemargin], ...]} with %.17g, W
// the count of mjWARN_CONTACTFULL.  Exit status 2 on any error, with a message on stderr.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mj.h"
#include "../helper.h"

// print n numbers after a comma each
static void printNums(const mjtNum* v, int n) {
  for (int i = 0; i < n; i++) printf(", %.17g", v[i]);
}

// overwrite the model arrays named in the file at path (see --frames); exits 2 on an error
static void readFrames(mjModel* m, const char* path) {
  FILE* f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "contacts: cannot open %s\n", path);
    exit(2);
  }
  char name[64];
  while (fscanf(f, "%63s", name) == 1) {
    // the array: an mjtNum field of that name, rows x cols elements
    mjtNum* a = NULL;
    size_t n = 0;
    const mjModel* m_ = m;
    MJ_SIZES(MJ_X_SIZE_LOCAL)
#define X(type, field, rows, cols)                                                              \
    if (!strcmp(#type, "mjtNum") && !strcmp(#field, name)) {                                    \
      a = (mjtNum*)m->field;                                                                    \
      n = (size_t)(rows) * (size_t)(cols);                                                      \
    }
    MJ_MODEL_ARRAYS(X)
#undef X
    if (!a) {
      fprintf(stderr, "contacts: %s: no real array %s in the model\n", path, name);
      exit(2);
    }
    for (size_t i = 0; i < n; i++) {
      if (fscanf(f, "%lf", a + i) != 1) {
        fprintf(stderr, "contacts: %s: %s needs %zu numbers\n", path, name, n);
        exit(2);
      }
    }
  }
  fclose(f);
}

int main(int argc, char** argv) {
  // --frames FILE taken out of the arguments, the rest for helperModel
  const char* frames = NULL;
  if (argc > 3 && !strcmp(argv[2], "--frames")) {
    frames = argv[3];
    argv[3] = argv[1];
    argv += 2;
    argc -= 2;
  }
  mjModel* m = helperModel("contacts", "STATES", argc, argv);
  if (frames) readFrames(m, frames);
  // each state: qpos read, position stage, contacts printed
  mjData* d = mj_makeData(m);
  char* line = NULL;
  size_t cap = 0;
  for (long lineno = 1; getline(&line, &cap, stdin) > 0; lineno++) {
    mj_resetData(m, d);
    char* p = line;
    for (int i = 0; i < m->nq; i++) {
      char* end;
      d->qpos[i] = strtod(p, &end);
      if (end == p) {
        fprintf(stderr, "contacts: line %ld: expected %d numbers\n", lineno, m->nq);
        return 2;
      }
      p = end;
    }
    mj_fwdPosition(m, d);
    printf("{\"warn\": %d, \"contact\": [", d->warning[mjWARN_CONTACTFULL].number);
    for (int i = 0; i < d->ncon; i++) {
      const mjContact* c = d->contact + i;
      printf("%s[%d, %d, %d", i ? ", " : "", c->geom1, c->geom2, c->dim);
      printNums(&c->dist, 1);
      printNums(c->pos, 3);
      printNums(c->frame, 9);
      printNums(c->friction, 5);
      printNums(c->solref, 2);
      printNums(c->solreffriction, 2);
      printNums(c->solimp, 5);
      printNums(&c->includemargin, 1);
      printf("]");
    }
    printf("]}\n");
  }
  free(line);
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
