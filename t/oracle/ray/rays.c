// rays.c: libmj's mj_ray for given positions and rays, as lines of numbers, for compare.mjs to
// set against MuJoCo's.
//
//   rays MODEL < INPUT
//
// INPUT: lines "q QPOS..." (nq numbers: set qpos, mj_fwdPosition), "r PX PY PZ VX VY VZ GROUPS
// FLG_STATIC BODYEXCLUDE" (a ray from the current positions; GROUPS a bit mask of the enabled
// geom groups 0-5, or -1 for no filter) and "s" (mj_forward, then the sensors).  For each ray
// one line "X GEOMID NX NY NZ", for each "s" one line of the nsensordata values (%.17g).
// Exit status 2 on any error, with a message on stderr.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mj.h"
#include "../helper.h"

// n numbers from p into v; 0 when the line holds fewer
static int readNums(char* p, mjtNum* v, int n) {
  for (int i = 0; i < n; i++) {
    char* end;
    v[i] = strtod(p, &end);
    if (end == p) return 0;
    p = end;
  }
  return 1;
}

int main(int argc, char** argv) {
  mjModel* m = helperModel("rays", "INPUT", argc, argv);
  mjData* d = mj_makeData(m);
  char* line = NULL;
  size_t cap = 0;
  mj_fwdPosition(m, d);
  // each line: a state to set, a ray to cast or the sensors to print
  for (long lineno = 1; getline(&line, &cap, stdin) > 0; lineno++) {
    mjtNum r[9];
    if (line[0] == 'q' && readNums(line + 1, d->qpos, m->nq)) {
      mj_fwdPosition(m, d);
    } else if (line[0] == 's') {
      mj_forward(m, d);
      for (int i = 0; i < m->nsensordata; i++)
        printf("%s%.17g", i ? " " : "", d->sensordata[i]);
      printf("\n");
    } else if (line[0] == 'r' && readNums(line + 1, r, 9)) {
      unsigned char group[6];
      for (int g = 0; g < 6; g++) group[g] = ((int)r[6] >> g) & 1;
      mjtNum normal[3];
      int id;
      mjtNum x = mj_ray(m, d, r, r + 3, r[6] < 0 ? NULL : group, (int)r[7], (int)r[8], &id,
                        normal);
      printf("%.17g %d %.17g %.17g %.17g\n", x, id, normal[0], normal[1], normal[2]);
    } else {
      fprintf(stderr, "rays: line %ld: expected 'q' and %d numbers, 'r' and 9, or 's'\n",
              lineno, m->nq);
      return 2;
    }
  }
  free(line);
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
