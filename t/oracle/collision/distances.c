// distances.c: the oracle helper printing libmj's mj_geomDistance of geoms g1 and g2 (margin
// distmax) at each qpos read from stdin (nq numbers each), one %.17g per line.
//
//   distances MODEL.xml g1 g2 distmax < qpos
#include <stdio.h>
#include <stdlib.h>

#include "mj.h"

void mj_kinematics(const mjModel* m, mjData* d);

int main(int argc, char** argv) {
  char err[300];
  if (argc != 5) {
    fprintf(stderr, "usage: distances MODEL.xml g1 g2 distmax < qpos\n");
    return 2;
  }
  mjModel* m = mj_loadXML(argv[1], err, sizeof(err));
  if (!m) {
    fprintf(stderr, "distances: %s\n", err);
    return 2;
  }
  mjData* d = mj_makeData(m);
  int g1 = atoi(argv[2]), g2 = atoi(argv[3]);
  mjtNum distmax = atof(argv[4]);

  // one pose per nq numbers until the input ends
  for (;;) {
    for (int k = 0; k < m->nq; k++) if (scanf("%lf", d->qpos + k) != 1) goto done;
    mj_kinematics(m, d);
    printf("%.17g\n", mj_geomDistance(m, d, g1, g2, distmax, NULL));
  }
done:
  mj_deleteData(d);
  mj_deleteModel(m);
  return fflush(stdout) != 0;
}
