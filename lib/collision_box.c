// collision_box.c: pairs with a box: sphere-box, capsule-box and box-box (see collision.h for
// the conventions).
#include "collision.h"

#include <math.h>

#include "util.h"

// the sphere (center c, radius r) against the box (center bc, rotation bmat, half-sizes s):
// outside, the nearest box point q, normal (q - c)/|q - c| from the sphere to the box; inside,
// the face of least penetration, normal its outward axis reversed
static int sphereBox(mjContact* con, mjtNum margin, const mjtNum c[3], mjtNum r,
                     const mjtNum bc[3], const mjtNum bmat[9], const mjtNum s[3]) {
  mjtNum dif[3], p[3], q[3], n[3];
  mju_sub3(dif, c, bc);
  mju_mulMatTVec3(p, bmat, dif);

  // clamp to the box
  int inside = 1;
  for (int k = 0; k < 3; k++) {
    q[k] = p[k] < -s[k] ? -s[k] : p[k] > s[k] ? s[k] : p[k];
    if (q[k] != p[k]) inside = 0;
  }
  mjtNum dist;
  if (!inside) {
    mjtNum nl[3];
    mju_sub3(nl, q, p);
    mjtNum len = mju_normalize3(nl);
    dist = len - r;
    if (dist > margin) return 0;
    mju_mulMatVec3(n, bmat, nl);
  } else {
    // the axis with the smallest s - |p|
    int k = 0;
    mjtNum best = s[0] - fabs(p[0]);
    for (int j = 1; j < 3; j++) {
      if (s[j] - fabs(p[j]) < best) {
        best = s[j] - fabs(p[j]);
        k = j;
      }
    }
    dist = -best - r;
    mjtNum nl[3] = {0, 0, 0};
    nl[k] = p[k] >= 0 ? -1 : 1;
    mju_mulMatVec3(n, bmat, nl);
  }

  // pos = c + n (r + dist/2)
  con->dist = dist;
  mju_copy3(con->pos, c);
  mju_addToScl3(con->pos, n, r + 0.5 * dist);
  mju_copy3(con->frame, n);
  mju_zero3(con->frame + 3);
  return 1;
}

// sphere g1, box g2
int mjc_SphereBox(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                  mjtNum margin) {
  return sphereBox(con, margin, d->geom_xpos + 3 * g1, m->geom_size[3 * g1],
                   d->geom_xpos + 3 * g2, d->geom_xmat + 9 * g2, m->geom_size + 3 * g2);
}

// capsule g1, box g2
int mjc_CapsuleBox(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                   mjtNum margin) {
  return mjc_Convex(m, d, con, g1, g2, margin);
}

// box g1, box g2
int mjc_BoxBox(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
               mjtNum margin) {
  return mjc_Convex(m, d, con, g1, g2, margin);
}
