// t/unit/engine/collision.c: collision detection (lib/engine/collision_*.c) against independent
// computations and numbers read from MuJoCo 3.5.1 (the oracle comparisons at many states are in
// t/oracle/collision).
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

#include "engine/collision.h"
#include "mj.h"
#include "engine/smooth.h"
#include "util/util.h"

// compile xml, set qpos (NULL: qpos0), run kinematics and collision; *d gets the data
static mjModel* load(const char* xml, const mjtNum* qpos, mjData** d) {
  char err[512];
  mjModel* m = mj_parseXMLString(xml, "test.xml", "", err, sizeof(err));
  cr_assert(m, "%s", err);
  *d = mj_makeData(m);
  cr_assert(*d);
  if (qpos)
    for (int i = 0; i < m->nq; i++) (*d)->qpos[i] = qpos[i];
  mj_kinematics(m, *d);
  mj_collision(m, *d);
  return m;
}

// |a - b| <= tol for n numbers
static void near(const mjtNum* a, const mjtNum* b, int n, mjtNum tol, const char* what) {
  for (int i = 0; i < n; i++)
    cr_assert(fabs(a[i] - b[i]) <= tol, "%s[%d]: %.17g vs %.17g", what, i, a[i], b[i]);
}

// the frame is orthonormal and right-handed, normal first
static void checkFrame(const mjtNum f[9]) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      mjtNum dot = f[3 * i] * f[3 * j] + f[3 * i + 1] * f[3 * j + 1] + f[3 * i + 2] * f[3 * j + 2];
      cr_assert(fabs(dot - (i == j)) < 1e-14, "frame rows %d %d: %g", i, j, dot);
    }
  mjtNum c[3] = {f[1] * f[5] - f[2] * f[4], f[2] * f[3] - f[0] * f[5], f[0] * f[4] - f[1] * f[3]};
  near(c, f + 6, 3, 1e-14, "n x t1");
}

Test(collision, makeFrame) {
  // tangent1 from the y axis when |n_y| < 0.5, else the z axis (MuJoCo: n = (0.6, 0.8, 0)
  // gives t1 = (0, 0, 1); n = (0, 0, 1) gives t1 = (0, 1, 0), t2 = (-1, 0, 0))
  mjtNum f[9] = {0.6, 0.8, 0};
  mju_makeFrame(f);
  checkFrame(f);
  near(f + 3, (mjtNum[]){0, 0, 1}, 3, 1e-15, "t1");
  mjtNum g[9] = {0, 0, 1};
  mju_makeFrame(g);
  near(g + 3, (mjtNum[]){0, 1, 0, -1, 0, 0}, 6, 1e-15, "t1 t2");

  // MuJoCo at n = (0.48, 0.6, 0.64): t1 = (-0.399805, -0.499756, 0.768375)
  mjtNum h[9] = {0.48, 0.6, 0.64};
  mju_makeFrame(h);
  checkFrame(h);
  near(h + 3, (mjtNum[]){-0.399805, -0.499756, 0.768375}, 3, 1e-6, "t1");
}

Test(collision, sphereOnTiltedPlane) {
  // plane through the origin with normal n = Rx(0.3) z; sphere of radius 0.1 at height 0.07
  // along n and 0.2 along the plane's y: dist = 0.07 - 0.1, pos = center - n (r + dist/2)
  mjtNum a = 0.3, n[3] = {0, -sin(a), cos(a)}, y[3] = {0, cos(a), sin(a)}, q[7] = {0};
  for (int k = 0; k < 3; k++) q[k] = 0.07 * n[k] + 0.2 * y[k];
  q[3] = 1;
  char xml[512];
  snprintf(xml, sizeof(xml),
           "<mujoco><compiler angle='radian'/><worldbody><geom type='plane' size='1 1 1' "
           "axisangle='1 0 0 %.17g' "
           "friction='0.5 0.01 0.002'/><body><freejoint/><geom type='sphere' size='0.1' "
           "friction='0.7 0.003 0.001'/></body></worldbody></mujoco>", a);
  mjData* d;
  mjModel* m = load(xml, q, &d);
  cr_assert_eq(d->ncon, 1);
  const mjContact* c = d->contact;
  cr_assert_eq(c->geom1, 0);
  cr_assert_eq(c->geom2, 1);
  cr_assert_eq(c->dim, 3);
  cr_assert(fabs(c->dist + 0.03) < 1e-15);
  mjtNum pos[3];
  for (int k = 0; k < 3; k++) pos[k] = q[k] - n[k] * (0.1 - 0.015);
  near(c->pos, pos, 3, 1e-15, "pos");
  near(c->frame, n, 3, 1e-15, "normal");
  checkFrame(c->frame);

  // friction: elementwise max (0.7, 0.7, 0.01, 0.002, 0.002); default solref, solimp
  near(c->friction, (mjtNum[]){0.7, 0.7, 0.01, 0.002, 0.002}, 5, 0, "friction");
  near(c->solref, (mjtNum[]){0.02, 1}, 2, 0, "solref");
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(collision, boxOnPlane) {
  // a box (0.1, 0.15, 0.2) at height 0.19 rotated 30 degrees about z: the 4 bottom corners,
  // x fastest then y, each dist -0.01 (MuJoCo 3.5.1: first corner at (0.0133975,
  // -0.223205) for a box at 0.25 of half-height 0.3 ... same order here)
  mjtNum h = 0.5 * 30 * 3.14159265358979323846 / 180, q[7] = {0, 0, 0.19, cos(h), 0, 0, sin(h)};
  mjData* d;
  mjModel* m = load("<mujoco><worldbody><geom type='plane' size='1 1 1'/><body><freejoint/>"
                    "<geom type='box' size='0.1 0.15 0.2'/></body></worldbody></mujoco>",
                    q, &d);
  cr_assert_eq(d->ncon, 4);
  mjtNum cs = cos(2 * h), sn = sin(2 * h);
  for (int i = 0; i < 4; i++) {
    mjtNum x = i & 1 ? 0.1 : -0.1, yy = i & 2 ? 0.15 : -0.15;
    mjtNum pos[3] = {cs * x - sn * yy, sn * x + cs * yy, -0.005};
    near(d->contact[i].pos, pos, 3, 1e-15, "corner");
    cr_assert(fabs(d->contact[i].dist + 0.01) < 1e-15);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(collision, boxOnBoxShifted) {
  // a 0.1 cube at (0.15, 0, 0.19) on a (0.2, 0.2, 0.1) box: the overlap rectangle x in [0.05,
  // 0.2], y in [-0.1, 0.1]; MuJoCo 3.14 gives its corners in turn from (0.2, 0.1) (the top
  // box's face clipped by the lower one's sides, 3.12's collider), each at dist -0.01,
  // z = 0.095 (midway), normal +z
  mjtNum q[14] = {0, 0, 0, 1, 0, 0, 0, 0.15, 0, 0.19, 1, 0, 0, 0};
  mjData* d;
  mjModel* m = load("<mujoco><worldbody><body><freejoint/><geom type='box' size='0.2 0.2 0.1'/>"
                    "</body><body><freejoint/><geom type='box' size='0.1 0.1 0.1'/></body>"
                    "</worldbody></mujoco>",
                    q, &d);
  const mjtNum pos[4][3] = {{0.2, 0.1, 0.095}, {0.05, 0.1, 0.095}, {0.05, -0.1, 0.095},
                            {0.2, -0.1, 0.095}};
  const mjtNum up[3] = {0, 0, 1};
  cr_assert_eq(d->ncon, 4);
  for (int i = 0; i < 4; i++) {
    near(d->contact[i].pos, pos[i], 3, 1e-15, "pos");
    near(d->contact[i].frame, up, 3, 1e-15, "normal");
    cr_assert(fabs(d->contact[i].dist + 0.01) < 1e-15);
    checkFrame(d->contact[i].frame);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(collision, boxOnBoxRotated) {
  // a (0.15, 0.15, 0.1) box rotated 20 degrees about z at (0.05, 0, 0.19) on a (0.2, 0.2, 0.1)
  // box: MuJoCo 3.5.1 and 3.14 give 5 contacts at dist -0.01, two crossings of the side x = 0.2 and
  // three corners of the upper box (compared as a set: with exactly parallel faces the order
  // of the crossings depends on rounding)
  mjtNum h = 10 * 3.14159265358979323846 / 180;
  mjtNum q[14] = {0, 0, 0, 1, 0, 0, 0, 0.05, 0, 0.19, cos(h), 0, 0, sin(h)};
  mjData* d;
  mjModel* m = load("<mujoco><worldbody><body><freejoint/><geom type='box' size='0.2 0.2 0.1'/>"
                    "</body><body><freejoint/><geom type='box' size='0.15 0.15 0.1'/></body>"
                    "</worldbody></mujoco>",
                    q, &d);
  const mjtNum xy[5][2] = {{0.2, -0.105031}, {0.2, 0.026449}, {-0.039651, -0.192257},
                           {-0.142257, 0.089651}, {0.139651, 0.192257}};
  cr_assert_eq(d->ncon, 5);
  for (int i = 0; i < 5; i++) {
    int found = 0;
    for (int k = 0; k < 5; k++)
      found += fabs(d->contact[k].pos[0] - xy[i][0]) < 1e-6 &&
               fabs(d->contact[k].pos[1] - xy[i][1]) < 1e-6;
    cr_assert_eq(found, 1, "point %d", i);
    cr_assert(fabs(d->contact[i].pos[2] - 0.095) < 1e-15);
    cr_assert(fabs(d->contact[i].dist + 0.01) < 1e-15);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(collision, sphereCylinder) {
  // a cylinder (r 0.12, h 0.1) at the origin and a sphere of radius 0.1 at p: beside the side
  // (0.2, 0, 0.05): dist 0.2 - 0.12 - 0.1, normal -x; over the cap (0.05, 0, 0.18): dist
  // 0.18 - 0.1 - 0.1, normal -z; beyond the rim (0.15, 0, 0.13): the rim point (0.12, 0, 0.1);
  // inside near the cap (0, 0.05, 0.09): the cap, dist 0.09 - 0.1 - 0.1
  const mjtNum p[4][3] = {{0.2, 0, 0.05}, {0.05, 0, 0.18}, {0.15, 0, 0.13}, {0, 0.05, 0.09}};
  const mjtNum rim = sqrt(0.03 * 0.03 + 0.03 * 0.03);
  const mjtNum dist[4] = {-0.02, -0.02, rim - 0.1, -0.11};
  const mjtNum s = sqrt(0.5);
  const mjtNum n[4][3] = {{-1, 0, 0}, {0, 0, -1}, {-s, 0, -s}, {0, 0, -1}};
  for (int k = 0; k < 4; k++) {
    mjtNum q[7] = {p[k][0], p[k][1], p[k][2], 1, 0, 0, 0};
    mjData* d;
    mjModel* m = load("<mujoco><worldbody><geom type='cylinder' size='0.12 0.1'/><body>"
                      "<freejoint/><geom type='sphere' size='0.1'/></body></worldbody></mujoco>",
                      q, &d);
    cr_assert_eq(d->ncon, 1, "case %d", k);
    cr_assert(fabs(d->contact[0].dist - dist[k]) < 1e-15, "case %d: %g", k, d->contact[0].dist);
    near(d->contact[0].frame, n[k], 3, 1e-15, "normal");

    // pos = sphere center + n (0.1 + dist/2)
    mjtNum pos[3];
    for (int i = 0; i < 3; i++) pos[i] = p[k][i] + n[k][i] * (0.1 + 0.5 * dist[k]);
    near(d->contact[0].pos, pos, 3, 1e-15, "pos");
    mj_deleteData(d);
    mj_deleteModel(m);
  }
}

Test(collision, cylinderCapOnBox) {
  // a cylinder (r 0.07, h 0.06) turned 20 degrees about z, then tilted 0.02 rad about x, its
  // bottom cap 3 mm into a box's top face z = 0.1: MuJoCo 3.14 gives 4 contacts at corners of
  // the cap as a 16-gon, at angles 157.5, 67.5, -22.5 and -112.5 degrees of the cylinder's
  // frame (dist -0.002928, -0.001590, -0.003050, -0.004387); each corner c is at depth
  // dist = (c_z - 0.1) / cos(0.02) along the cap's normal, normal -z
  const mjtNum pi = 3.14159265358979323846, th = 20 * pi / 180, tilt = 0.02;
  mjtNum qz[4] = {cos(th / 2), 0, 0, sin(th / 2)}, qx[4] = {cos(tilt / 2), sin(tilt / 2), 0, 0};
  mjtNum q[7] = {0.01, 0.02, 0.157}, mat[9];
  mju_mulQuat(q + 3, qx, qz);
  mju_quat2Mat(mat, q + 3);
  mjData* d;
  mjModel* m = load("<mujoco><worldbody><geom type='box' size='0.5 0.5 0.1'/><body><freejoint/>"
                    "<geom type='cylinder' size='0.07 0.06'/></body></worldbody></mujoco>",
                    q, &d);
  const mjtNum deg[4] = {157.5, 67.5, -22.5, -112.5};
  const mjtNum oracle[4] = {-0.002928, -0.001590, -0.003050, -0.004387};
  const mjtNum down[3] = {0, 0, -1};
  cr_assert_eq(d->ncon, 4);
  for (int i = 0; i < 4; i++) {
    mjtNum a = deg[i] * pi / 180, l[3] = {0.07 * cos(a), 0.07 * sin(a), -0.06}, c[3];
    mju_mulMatVec3(c, mat, l);
    mjtNum dist = (c[2] + q[2] - 0.1) / cos(tilt);
    int found = 0;
    for (int k = 0; k < 4; k++)
      if (fabs(d->contact[k].dist - dist) < 1e-12) {
        found++;
        cr_assert(fabs(d->contact[k].dist - oracle[i]) < 1e-6, "corner %d", i);
        near(d->contact[k].frame, down, 3, 1e-15, "normal");
      }
    cr_assert_eq(found, 1, "corner %d", i);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(collision, parallelCapsules) {
  // parallel capsules along x (radius 0.08, half-lengths 0.2) 0.15 apart in y, the second
  // shifted by 0.1 in x: MuJoCo gives two contacts, at x = 0.2 (end of the first) and x =
  // -0.1 (end of the second), dist 0.15 - 0.16, normal +y
  mjData* d;
  mjModel* m = load("<mujoco><worldbody><body><freejoint/><geom type='capsule' size='0.08 0.2' "
                    "euler='0 90 0'/></body><body pos='0.1 0.15 0'><freejoint/>"
                    "<geom type='capsule' size='0.08 0.2' euler='0 90 0'/></body></worldbody>"
                    "</mujoco>", NULL, &d);
  cr_assert_eq(d->ncon, 2);
  near(d->contact[0].pos, (mjtNum[]){0.2, 0.075, 0}, 3, 1e-15, "pos 0");
  near(d->contact[1].pos, (mjtNum[]){-0.1, 0.075, 0}, 3, 1e-15, "pos 1");
  for (int i = 0; i < 2; i++) {
    cr_assert(fabs(d->contact[i].dist + 0.01) < 1e-15);
    near(d->contact[i].frame, (mjtNum[]){0, 1, 0}, 3, 1e-15, "normal");
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}

// two overlapping spheres with the attributes a1, a2; returns the model, *d the data
static mjModel* spherePair(const char* a1, const char* a2, const char* extra, mjData** d) {
  char xml[1024];
  snprintf(xml, sizeof(xml),
           "<mujoco><worldbody><body name='a'><freejoint/><geom name='ga' type='sphere' "
           "size='0.1' %s/></body><body name='b' pos='0.15 0 0'><freejoint/><geom name='gb' "
           "type='sphere' size='0.1' %s/></body></worldbody>%s</mujoco>", a1, a2, extra);
  return load(xml, NULL, d);
}

Test(collision, mixing) {
  // MuJoCo 3.14.0: solmix 3 : 1 weighs solref and solimp 3/4 : 1/4, condim and friction are
  // the maxima, margins add: includemargin = 0.01 + 0.02 (since 3.9 the gap only widens
  // detection)
  mjData* d;
  mjModel* m = spherePair("condim='4' solmix='3' solref='0.03 0.8' solimp='0.8 0.9 0.01 0.4 3' "
                          "friction='0.7 0.02 0.002' margin='0.01' gap='0.005'",
                          "condim='1' solmix='1' friction='0.9 0.001 0.003' margin='0.02'", "",
                          &d);
  cr_assert_eq(d->ncon, 1);
  const mjContact* c = d->contact;
  cr_assert_eq(c->dim, 4);
  near(c->friction, (mjtNum[]){0.9, 0.9, 0.02, 0.003, 0.003}, 5, 0, "friction");
  near(c->solref, (mjtNum[]){0.0275, 0.85}, 2, 1e-15, "solref");
  near(c->solimp, (mjtNum[]){0.825, 0.9125, 0.00775, 0.425, 2.75}, 5, 1e-15, "solimp");
  cr_assert(fabs(c->includemargin - 0.03) < 1e-15);
  mj_deleteData(d);
  mj_deleteModel(m);

  // priority: the higher one's condim and friction; direct solrefs: elementwise min
  m = spherePair("priority='1' condim='6' friction='0.2 0.3 0.4' solref='-100 -10'",
                 "condim='3' friction='0.9 0.9 0.9' solref='-200 -5'", "", &d);
  c = d->contact;
  cr_assert_eq(c->dim, 6);
  near(c->friction, (mjtNum[]){0.2, 0.2, 0.3, 0.4, 0.4}, 5, 0, "priority friction");
  near(c->solref, (mjtNum[]){-100, -10}, 2, 0, "priority solref");
  mj_deleteData(d);
  mj_deleteModel(m);
  m = spherePair("solref='-100 -10'", "solref='-200 -5'", "", &d);
  near(d->contact->solref, (mjtNum[]){-200, -10}, 2, 0, "min solref");
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(collision, filtersAndPairs) {
  // excluded bodies: nothing; contype/conaffinity 0: nothing unless an explicit pair, which
  // brings its own parameters
  mjData* d;
  mjModel* m = spherePair("", "", "<contact><exclude body1='a' body2='b'/></contact>", &d);
  cr_assert_eq(d->ncon, 0);
  mj_deleteData(d);
  mj_deleteModel(m);
  m = spherePair("contype='0' conaffinity='0'", "",
                 "<contact><pair geom1='gb' geom2='ga' condim='1' friction='1 2 3 4 5' "
                 "solreffriction='0.04 3' margin='0.03' gap='0.01'/></contact>", &d);
  cr_assert_eq(d->ncon, 1);
  const mjContact* c = d->contact;
  cr_assert_eq(c->dim, 1);
  near(c->friction, (mjtNum[]){1, 2, 3, 4, 5}, 5, 0, "pair friction");
  near(c->solreffriction, (mjtNum[]){0.04, 3}, 2, 0, "pair solreffriction");
  cr_assert(fabs(c->includemargin - 0.03) < 1e-15);
  mj_deleteData(d);
  mj_deleteModel(m);

  // contacts disabled: nothing
  m = spherePair("", "", "<option><flag contact='disable'/></option>", &d);
  cr_assert_eq(d->ncon, 0);
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(collision, contactFull) {
  // 30 boxes resting on the floor make 120 contacts; the list holds nconmax (100): the rest
  // is dropped and mjWARN_CONTACTFULL counted, nothing written beyond (ASan in make SAN=1)
  char xml[8192];
  int len = snprintf(xml, sizeof(xml), "<mujoco><worldbody><geom type='plane' size='9 9 1'/>");
  for (int i = 0; i < 30; i++)
    len += snprintf(xml + len, sizeof(xml) - len,
                    "<body pos='%d 0 0.09'><freejoint/><geom type='box' size='0.1 0.1 0.1'/>"
                    "</body>", i);
  snprintf(xml + len, sizeof(xml) - len, "</worldbody></mujoco>");
  mjData* d;
  mjModel* m = load(xml, NULL, &d);
  cr_assert_eq(m->nconmax, 100);
  cr_assert_eq(d->ncon, 100);
  cr_assert_eq(d->warning[mjWARN_CONTACTFULL].number, 1);
  cr_assert_eq(d->contact[99].geom2, 25);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// 30 boxes (one tilted, so they slide) above the floor: 120 contacts once they land
static mjModel* boxRow(mjData** d) {
  char xml[8192];
  int len = snprintf(xml, sizeof(xml), "<mujoco><worldbody><geom type='plane' size='9 9 1'/>");
  for (int i = 0; i < 30; i++)
    len += snprintf(xml + len, sizeof(xml) - len,
                    "<body pos='%d 0 0.0995' euler='0 %d 0'><freejoint/>"
                    "<geom type='box' size='0.1 0.1 0.1'/></body>", i, i == 7 ? 3 : 0);
  snprintf(xml + len, sizeof(xml) - len, "</worldbody></mujoco>");
  return load(xml, NULL, d);
}

Test(collision, contactGrow) {
  // the same steps with the model's room (100 contacts, grown by mj_passGrow) and with room
  // for all from the start: the same states to the bit, no warning, the room doubled once
  mjData *d, *big;
  mjModel* m = boxRow(&d);
  mjModel* roomy = mj_copyModel(m);
  roomy->nconmax = 400, roomy->njmax *= 4, roomy->nstack *= 4;
  big = mj_makeData(roomy);
  mj_resetData(m, d);
  for (int s = 0; s < 40; s++) {
    cr_assert_eq(mj_passGrow(m, d, mj_step), 0);
    mj_step(roomy, big);
  }
  cr_assert_eq(d->nconmax, 200);
  cr_assert_eq(d->ncon, 120);
  cr_assert_eq(big->ncon, 120);
  for (int w = 0; w < mjNWARNING; w++) cr_assert_eq(d->warning[w].number, 0, "warning %d", w);
  cr_assert_eq(memcmp(d->qpos, big->qpos, sizeof(mjtNum) * m->nq), 0);
  cr_assert_eq(memcmp(d->qvel, big->qvel, sizeof(mjtNum) * m->nv), 0);

  // growing again keeps the contacts and the last step's constraint rows
  mj_forward(m, d);
  int nefc = d->nefc;
  mjtNum force = d->efc_force[nefc - 1], pos = d->contact[119].pos[0];
  cr_assert_eq(mj_growData(m, d, 1000, 4 * d->njmax), 0);
  cr_assert_eq(d->nconmax, 1000);
  cr_assert_eq(d->nefc, nefc);
  cr_assert_eq(d->efc_force[nefc - 1], force);
  cr_assert_eq(d->contact[119].pos[0], pos);

  // a data that cannot grow (past the 1.5 GiB limit) is left as it was
  cr_assert_eq(mj_growData(m, d, 1 << 28, 0), -1);
  cr_assert_eq(d->nconmax, 1000);
  mj_deleteData(big);
  mj_deleteData(d);
  mj_deleteModel(roomy);
  mj_deleteModel(m);
}

Test(collision, dispatchOpen) {
  // meshes collide with planes, every convex primitive and meshes; SDFs have no function yet
  for (int t = mjGEOM_PLANE; t <= mjGEOM_MESH; t++)
    if (t != mjGEOM_HFIELD) cr_assert_not_null(mj_collisionFunc[t][mjGEOM_MESH]);
  for (int t = 0; t < mjNGEOMTYPES; t++) cr_assert_null(mj_collisionFunc[t][mjGEOM_SDF]);
  cr_assert_not_null(mj_collisionFunc[mjGEOM_BOX][mjGEOM_BOX]);
}

// a box-shaped mesh of half-size 0.1 on a free body above a plane
static const char* meshBox =
    "<mujoco><asset><mesh name='m' vertex='-.1 -.1 -.1  .1 -.1 -.1  -.1 .1 -.1  .1 .1 -.1 "
    "-.1 -.1 .1  .1 -.1 .1  -.1 .1 .1  .1 .1 .1'/></asset><worldbody>"
    "<geom type='plane' size='1 1 1'/><body><freejoint/><geom type='mesh' mesh='m'/></body>"
    "</worldbody></mujoco>";

Test(collision, meshSupportTies) {
  // a mesh of 8 vertices is scanned (MuJoCo climbs hulls of 10 or more): straight down, the
  // first of the four lowest in mesh order (vertex 0) when nothing is remembered, the previous
  // answer when it ties (vertex 3); a strict best (vertex 5) replaces it, and is remembered
  mjData* d;
  mjModel* m = load(meshBox, NULL, &d);
  mjtNum down[3] = {0, 0, -1}, diag[3] = {1, -1, 1}, res[3];
  mjtNum v0[3] = {-0.1f, -0.1f, -0.1f}, v3[3] = {0.1f, 0.1f, -0.1f}, v5[3] = {0.1f, -0.1f, 0.1f};
  cr_assert_eq(mjc_meshSupport(m, 1, down, NULL, res), 0);
  near(res, v0, 3, 0, "down");
  int warm = 3;
  cr_assert_eq(mjc_meshSupport(m, 1, down, &warm, res), 3);
  near(res, v3, 3, 0, "down, remembering vertex 3");
  cr_assert_eq(mjc_meshSupport(m, 1, diag, &warm, res), 5);
  near(res, v5, 3, 0, "diagonal");
  cr_assert_eq(warm, 5);
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(collision, meshBoxFlatOnPlane) {
  // resting flat 0.01 deep: MuJoCo 3.14 gives 4 contacts, mesh vertices 0, 2, 3 and 1 (the
  // first of the lowest, then the rest of its hull polygon facing the plane, in polygon
  // order), each dist -0.01
  mjtNum q[7] = {0, 0, 0.09, 1, 0, 0, 0};
  mjData* d;
  mjModel* m = load(meshBox, q, &d);
  cr_assert_eq(d->ncon, 4);
  const int ids[4] = {0, 2, 3, 1};
  for (int i = 0; i < 4; i++) {
    const float* v = m->mesh_vert + 3 * ids[i];
    mjtNum dist = 0.09 + v[2], pos[3] = {v[0], v[1], 0.5 * dist};
    near(d->contact[i].pos, pos, 3, 1e-16, "vertex");
    cr_assert(fabs(d->contact[i].dist - dist) < 1e-16);
    cr_assert_eq(d->contact[i].frame[2], 1);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(collision, meshPrismOnTiltedPlane) {
  // an octagonal prism (margin 0.01) over a plane tilted by euler 3 -2 0, its bottom octagon
  // all within the margin: MuJoCo 3.14.0 gives four contacts, the quadrilateral its search
  // picks from the deepest vertex on (its values, printed to 9 digits by the oracle)
  const char* xml =
      "<mujoco><option gravity='0 0 0'/><asset><mesh name='prism' vertex='0.1 0 -0.06  "
      "0.0707 0.0707 -0.06  0 0.1 -0.06  -0.0707 0.0707 -0.06  -0.1 0 -0.06  -0.0707 -0.0707 "
      "-0.06  0 -0.1 -0.06  0.0707 -0.0707 -0.06  0.1 0 0.06  0.0707 0.0707 0.06  0 0.1 0.06  "
      "-0.0707 0.0707 0.06  -0.1 0 0.06  -0.0707 -0.0707 0.06  0 -0.1 0.06  0.0707 -0.0707 "
      "0.06'/></asset><worldbody><geom type='plane' size='2 2 .1' euler='3 -2 0'/>"
      "<body pos='0.6 0 0.05'><freejoint/><geom type='mesh' mesh='prism' margin='0.01'/>"
      "</body></worldbody></mujoco>";
  const mjtNum want[4][4] = {{-0.037085201, 0.670052870, 0.069730144, 0.008505910},
                             {-0.034409858, 0.699399558, -0.000899888, 0.007170885},
                             {-0.025689501, 0.599551725, -0.100671834, 0.002819335},
                             {-0.027429959, 0.499521353, -0.000717349, 0.003687842}};
  mjData* d;
  mjModel* m = load(xml, NULL, &d);
  cr_assert_eq(d->ncon, 4);
  for (int i = 0; i < 4; i++) {
    near(&d->contact[i].dist, want[i], 1, 1e-9, "dist");
    near(d->contact[i].pos, want[i] + 1, 3, 1e-9, "pos");
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(collision, polygonQuadFromFirst) {
  // the Crazyflie's hexagonal hull polygon on the floor (its world vertices from the deepest on,
  // at frame 163 of the Menagerie run): MuJoCo 3.14.0 keeps vertices 0, 1, 2, 4, which its
  // search from the first corner finds, though 1, 2, 4, 5 (and 0, 2, 4, 5 through the deepest) span about
  // a quarter more area
  const mjtNum p[18] = {0.031101832, 0.039212901, -0.00048372955,
                        0.031996781, 0.039118916, -0.00047395345,
                        0.037055975, 0.034081372, -0.00036085447,
                        0.037149864, 0.033186446, -0.00034847069,
                        0.033999973, 0.032855447, -0.00037438722,
                        0.030772490, 0.036084154, -0.00044673061};
  int q[4];
  mjc_polygonQuad(p, 6, 0, q);
  cr_assert(q[0] == 0 && q[1] == 1 && q[2] == 2 && q[3] == 4, "%d %d %d %d", q[0], q[1], q[2],
            q[3]);
}

Test(collision, polygonQuadDoubledCorner) {
  // the wx250s gripper bar's side polygon in its mesh frame from the deepest vertex on, the
  // second 1e-8 from the first: MuJoCo 3.14.0 keeps corners 0, 1, 2, 3 (two contacts 1e-8
  // apart); rotating the first corner on finds the triangle (2, 2, 3, 0) 1e-18 larger
  const mjtNum p[15] = {0.0057170456275343895, 0.018804363906383514, 0.04999725893139839,
                        0.005717053078114986,  0.018804356455802917, 0.04999725893139839,
                        0.013000519014894962,  0.011952267959713936, 0.04999746382236481,
                        0.013000329956412315,  0.011949090287089348, -0.050002533942461014,
                        0.0057168565690517426, 0.018801186233758926, -0.05000273883342743};
  int q[4];
  mjc_polygonQuad(p, 5, 0, q);
  cr_assert(q[0] == 0 && q[1] == 1 && q[2] == 2 && q[3] == 3, "%d %d %d %d", q[0], q[1], q[2],
            q[3]);
}

Test(collision, polygonQuadEveryCorner) {
  // the Unitree G1 hand's clipped 7-point polygon (geoms 11 and 50 of the Menagerie's
  // scene_with_hands.xml at frame 134 from the default state): MuJoCo 3.14.0 keeps points
  // 2, 2, 3, 5 (one twice), which the search from every first corner finds; from point 0
  // alone it stops at 0, 1, 2, 3
  const mjtNum p[21] = {0.077738331006251438, 0.4585585060518651, 0.4700452638588497,
                        0.077349169918936644, 0.45877495910660704, 0.47026814207878165,
                        0.076338420846451746, 0.45929082590212655, 0.47089218561707902,
                        0.088599265846162845, 0.4461583326346843, 0.47002827438675054,
                        0.089561846645674487, 0.44685850113045245, 0.46827176543878546,
                        0.079473184099192115, 0.45751513432376045, 0.46912821073976524,
                        0.078513855156948087, 0.45810889570795255, 0.4696189271595726};
  int q[4];
  mjc_polygonQuad(p, 7, 1, q);
  cr_assert(q[0] == 2 && q[1] == 2 && q[2] == 3 && q[3] == 5, "%d %d %d %d", q[0], q[1], q[2],
            q[3]);
  mjc_polygonQuad(p, 7, 0, q);
  cr_assert(q[0] == 0 && q[1] == 1 && q[2] == 2 && q[3] == 3, "%d %d %d %d", q[0], q[1], q[2],
            q[3]);
}

Test(collision, meshOnBoxClippedFaces) {
  // the box-shaped mesh (half-size 0.1) turned 30 degrees about z, resting 0.001 deep on a wide
  // box (top at z = 0.1): face on face, so multiccd clips the mesh's bottom face by the box's
  // top and returns its four bottom corners (all inside the top), each 0.001 deep, the normal
  // +z, pos halfway between the faces; nativeccd off gives one contact
  const char* xml =
      "<mujoco><option>%s</option><asset><mesh name='m' vertex='-.1 -.1 -.1  .1 -.1 -.1  "
      "-.1 .1 -.1  .1 .1 -.1 -.1 -.1 .1  .1 -.1 .1  -.1 .1 .1  .1 .1 .1'/></asset><worldbody>"
      "<geom type='box' size='1 1 0.1'/><body><freejoint/><geom type='mesh' mesh='m'/></body>"
      "</worldbody></mujoco>";
  const mjtNum pi = acos(-1.0);
  mjtNum q[7] = {0.02, -0.03, 0.199, cos(pi / 12), 0, 0, sin(pi / 12)};
  char text[600];
  snprintf(text, sizeof(text), xml, "");
  mjData* d;
  mjModel* m = load(text, q, &d);
  cr_assert_eq(d->ncon, 4);
  int seen[4] = {0, 0, 0, 0};
  for (int i = 0; i < 4; i++) {
    const mjContact* c = d->contact + i;
    cr_assert(fabs(c->dist + 0.001) < 1e-8, "dist %.17g", c->dist);  // (float vertices)
    mjtNum up[3] = {0, 0, 1};
    near(c->frame, up, 3, 1e-12, "normal");
    cr_assert(fabs(c->pos[2] - 0.0995) < 1e-8, "height %.17g", c->pos[2]);
    // which corner: (+-0.1, +-0.1) turned by 30 degrees about the body's center
    mjtNum x = c->pos[0] - 0.02, y = c->pos[1] + 0.03, ca = cos(pi / 6), sa = sin(pi / 6);
    mjtNum lx = ca * x + sa * y, ly = -sa * x + ca * y;
    cr_assert(fabs(fabs(lx) - 0.1) < 1e-7 && fabs(fabs(ly) - 0.1) < 1e-7, "%g %g", lx, ly);
    seen[(lx > 0) + 2 * (ly > 0)] = 1;
  }
  cr_assert(seen[0] && seen[1] && seen[2] && seen[3]);
  mj_deleteData(d);
  mj_deleteModel(m);
  snprintf(text, sizeof(text), xml, "<flag multiccd='disable'/>");
  m = load(text, q, &d);
  cr_assert_eq(d->ncon, 1);
  mj_deleteData(d);
  mj_deleteModel(m);
}
