// t/unit/engine/ray.c: ray casting (lib/engine/ray.c) and the sensors that use it, against analytic
// numbers and numbers read from MuJoCo 3.5.1 (random rays against MuJoCo's mj_ray are compared in
// t/oracle/ray).
#include <criterion/criterion.h>
#include <math.h>

#include "mj.h"

static const mjtNum eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};

// compile xml and run mj_forward at qpos0
static mjModel* load(const char* xml, mjData** d) {
  char err[512];
  mjModel* m = mj_parseXMLString(xml, "test.xml", "", err, sizeof(err));
  cr_assert(m, "%s", err);
  *d = mj_makeData(m);
  cr_assert(*d);
  mj_forward(m, *d);
  return m;
}

// a ray against one primitive: distance x and normal n within 1e-12
static void primitive(int type, const mjtNum pos[3], const mjtNum mat[9], const mjtNum size[3],
                      const mjtNum pnt[3], const mjtNum vec[3], mjtNum x, const mjtNum n[3]) {
  mjtNum normal[3];
  mjtNum got = mju_rayGeom(pos, mat, size, pnt, vec, type, normal);
  cr_assert(fabs(got - x) < 1e-12, "type %d: distance %.17g, expected %.17g", type, got, x);
  for (int k = 0; k < 3; k++)
    cr_assert(fabs(normal[k] - n[k]) < 1e-12, "type %d: normal[%d] %.17g, expected %.17g", type,
              k, normal[k], n[k]);
}

Test(ray, sphere) {
  // radius 0.5 at (3, 0, 0): from the origin along x with |vec| = 2 the surface is 2.5 away,
  // 1.25 in units of |vec|; from the center the exit is 0.5 away, normal outward
  mjtNum c[3] = {3, 0, 0}, s[3] = {0.5}, o[3] = {0, 0, 0}, v[3] = {2, 0, 0};
  primitive(mjGEOM_SPHERE, c, eye, s, o, v, 1.25, (mjtNum[]){-1, 0, 0});
  primitive(mjGEOM_SPHERE, c, eye, s, c, v, 0.25, (mjtNum[]){1, 0, 0});
  // behind the ray, and beside it
  primitive(mjGEOM_SPHERE, c, eye, s, o, (mjtNum[]){-1, 0, 0}, -1, (mjtNum[]){0, 0, 0});
  primitive(mjGEOM_SPHERE, c, eye, s, (mjtNum[]){0, 0.6, 0}, v, -1, (mjtNum[]){0, 0, 0});
}

Test(ray, box) {
  // half-sizes (0.3, 0.4, 0.5) at (1, 2, 3): the top face z = 3.5 from (1, 2, 10) is 6.5 away
  mjtNum c[3] = {1, 2, 3}, s[3] = {0.3, 0.4, 0.5};
  primitive(mjGEOM_BOX, c, eye, s, (mjtNum[]){1, 2, 10}, (mjtNum[]){0, 0, -1}, 6.5,
            (mjtNum[]){0, 0, 1});
  // turned 90 degrees about z, its local y (half-size 0.4) spans world x: face x = 1.4
  mjtNum rot[9] = {0, -1, 0, 1, 0, 0, 0, 0, 1};
  primitive(mjGEOM_BOX, c, rot, s, (mjtNum[]){5, 2, 3}, (mjtNum[]){-1, 0, 0}, 3.6,
            (mjtNum[]){1, 0, 0});
  // from inside: the exit through the face y = 2.4
  primitive(mjGEOM_BOX, c, eye, s, c, (mjtNum[]){0, 1, 0}, 0.4, (mjtNum[]){0, 1, 0});
}

Test(ray, cylinder) {
  // radius 0.4, half-height 0.5: the side from (2, 0, 0.3) is 1.6 away, the cap from (0, 0, 2)
  // 1.5; a ray passing over the cap's rim misses
  mjtNum c[3] = {0, 0, 0}, s[3] = {0.4, 0.5};
  primitive(mjGEOM_CYLINDER, c, eye, s, (mjtNum[]){2, 0, 0.3}, (mjtNum[]){-1, 0, 0}, 1.6,
            (mjtNum[]){1, 0, 0});
  primitive(mjGEOM_CYLINDER, c, eye, s, (mjtNum[]){0.1, 0.2, 2}, (mjtNum[]){0, 0, -1}, 1.5,
            (mjtNum[]){0, 0, 1});
  primitive(mjGEOM_CYLINDER, c, eye, s, (mjtNum[]){2, 0, 0.6}, (mjtNum[]){-1, 0, 0}, -1,
            (mjtNum[]){0, 0, 0});
}

Test(ray, capsule) {
  // radius 0.3, half-length 0.6: straight down at x = 0.1 the top cap is at
  // z = 0.6 + sqrt(0.09 - 0.01), normal (0.1, 0, sqrt(0.08)) / 0.3
  mjtNum c[3] = {0, 0, 0}, s[3] = {0.3, 0.6}, h = sqrt(0.08);
  primitive(mjGEOM_CAPSULE, c, eye, s, (mjtNum[]){0.1, 0, 5}, (mjtNum[]){0, 0, -1},
            5 - 0.6 - h, (mjtNum[]){0.1 / 0.3, 0, h / 0.3});
  // the side from (1, 0, 0.5)
  primitive(mjGEOM_CAPSULE, c, eye, s, (mjtNum[]){1, 0, 0.5}, (mjtNum[]){-1, 0, 0}, 0.7,
            (mjtNum[]){1, 0, 0});
  // from inside along the axis: the exit through the bottom cap at z = -0.9
  primitive(mjGEOM_CAPSULE, c, eye, s, c, (mjtNum[]){0, 0, -1}, 0.9, (mjtNum[]){0, 0, -1});
}

Test(ray, ellipsoid) {
  // semi-axes (0.7, 0.4, 0.25): from (0, 0, 3) down the surface is 2.75 away; from the center
  // along (1, 1, 0) / sqrt 2 the exit is at t with t^2 / 2 (1/0.49 + 1/0.16) = 1, and the
  // normal is (1/0.49, 1/0.16, 0) normalized
  mjtNum c[3] = {0, 0, 0}, s[3] = {0.7, 0.4, 0.25}, r = 1 / sqrt(2);
  primitive(mjGEOM_ELLIPSOID, c, eye, s, (mjtNum[]){0, 0, 3}, (mjtNum[]){0, 0, -1}, 2.75,
            (mjtNum[]){0, 0, 1});
  mjtNum t = sqrt(2 / (1 / 0.49 + 1 / 0.16)), nx = 1 / 0.49, ny = 1 / 0.16;
  mjtNum nn = sqrt(nx * nx + ny * ny);
  primitive(mjGEOM_ELLIPSOID, c, eye, s, c, (mjtNum[]){r, r, 0}, t,
            (mjtNum[]){nx / nn, ny / nn, 0});
}

Test(ray, plane) {
  // one-sided: seen from above only; finite in x when size[0] > 0
  mjtNum c[3] = {0, 0, 0}, inf[3] = {0, 0, 1}, fin[3] = {1, 2, 1};
  mjtNum down[3] = {0, 0, -0.5}, up[3] = {0, 0, 1};
  primitive(mjGEOM_PLANE, c, eye, inf, (mjtNum[]){5, 5, 2}, down, 4, (mjtNum[]){0, 0, 1});
  primitive(mjGEOM_PLANE, c, eye, inf, (mjtNum[]){0, 0, -2}, up, -1, (mjtNum[]){0, 0, 0});
  primitive(mjGEOM_PLANE, c, eye, fin, (mjtNum[]){0.9, 1.9, 1}, down, 2, (mjtNum[]){0, 0, 1});
  primitive(mjGEOM_PLANE, c, eye, fin, (mjtNum[]){1.1, 0, 1}, down, -1, (mjtNum[]){0, 0, 0});
}

Test(ray, scene_filters) {
  // MuJoCo 3.5.1 on this model: the floor at 1 from (0, 0, 0) down; a transparent material
  // hides a geom, an opaque one shows it despite a transparent rgba; a group filter, the
  // static flag and the excluded body each skip a geom
  const char* xml =
    "<mujoco><asset><material name='clear' rgba='1 1 1 0'/>"
    "<material name='opaque' rgba='1 1 1 1'/></asset><worldbody>"
    "<geom name='floor' type='plane' size='0 0 1' pos='0 0 -1'/>"
    "<geom name='hidden' size='0.2' pos='5 0 0.5' material='clear'/>"
    "<geom name='shown' size='0.2' pos='5 2 0.5' rgba='1 1 1 0' material='opaque'/>"
    "<geom name='g3' size='0.2' pos='5 1 0.5' group='3'/>"
    "<body name='b' pos='0 3 0'><geom name='box' type='box' size='0.3 0.4 0.5'/></body>"
    "</worldbody></mujoco>";
  mjData* d;
  mjModel* m = load(xml, &d);
  int id;
  mjtNum n[3];
  unsigned char no3[6] = {1, 1, 1, 0, 1, 1};
  cr_assert_eq(mj_ray(m, d, (mjtNum[]){0, 0, 0}, (mjtNum[]){0, 0, -1}, NULL, 1, -1, &id, n), 1);
  cr_assert_eq(id, 0);
  cr_assert_eq(n[2], 1);
  cr_assert_eq(mj_ray(m, d, (mjtNum[]){5, 0, 2}, (mjtNum[]){0, 0, -1}, NULL, 1, -1, &id, n), 3);
  cr_assert_eq(id, 0);
  cr_assert(fabs(mj_ray(m, d, (mjtNum[]){5, 2, 2}, (mjtNum[]){0, 0, -1}, NULL, 1, -1, &id, n) -
                 1.3) < 1e-15);
  cr_assert_eq(id, 2);
  mj_ray(m, d, (mjtNum[]){5, 1, 2}, (mjtNum[]){0, 0, -1}, NULL, 1, -1, &id, n);
  cr_assert_eq(id, 3);
  mj_ray(m, d, (mjtNum[]){5, 1, 2}, (mjtNum[]){0, 0, -1}, no3, 1, -1, &id, n);
  cr_assert_eq(id, 0);
  // the box's body is welded to the world: static
  cr_assert(fabs(mj_ray(m, d, (mjtNum[]){0, 3, 0}, (mjtNum[]){0, 1, 0}, NULL, 1, -1, &id, n) -
                 0.4) < 1e-15);
  cr_assert_eq(id, 4);
  cr_assert_eq(mj_ray(m, d, (mjtNum[]){0, 0, 0}, (mjtNum[]){0, 1, 0}, NULL, 0, -1, &id, n), -1);
  cr_assert_eq(id, -1);
  cr_assert_eq(n[0], 0);
  cr_assert_eq(mj_ray(m, d, (mjtNum[]){0, 0, 0}, (mjtNum[]){0, 1, 0}, NULL, 1, 1, &id, NULL), -1);
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(ray, mesh) {
  // the tetrahedron (0,0,0) (1,0,0) (0,1,0) (0,0,1): from (1, 1, 1) toward the origin the face
  // x + y + z = 1 is met at 2/3, its normal along +-(1, 1, 1) / sqrt 3; along z from below the
  // face z = 0 at (0.2, 0.2)
  const char* xml = "<mujoco><asset><mesh name='tet' vertex='0 0 0 1 0 0 0 1 0 0 0 1'/>"
                    "</asset><worldbody><geom type='mesh' mesh='tet'/></worldbody></mujoco>";
  mjData* d;
  mjModel* m = load(xml, &d);
  mjtNum n[3], x = mj_rayMesh(m, d, 0, (mjtNum[]){1, 1, 1}, (mjtNum[]){-1, -1, -1}, n);
  cr_assert(fabs(x - 2.0 / 3) < 1e-6, "%.17g", x);
  for (int k = 0; k < 3; k++) cr_assert(fabs(fabs(n[k]) - 1 / sqrt(3)) < 1e-6);
  x = mj_rayMesh(m, d, 0, (mjtNum[]){0.2, 0.2, -1}, (mjtNum[]){0, 0, 1}, n);
  cr_assert(fabs(x - 1) < 1e-6, "%.17g", x);
  cr_assert(fabs(fabs(n[2]) - 1) < 1e-6);
  cr_assert_eq(mj_rayMesh(m, d, 0, (mjtNum[]){0.6, 0.6, -1}, (mjtNum[]){0, 0, 1}, n), -1);
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(ray, hfield) {
  // a field of size 1 1 1 0.5 over x in {-1, 0, 1}, flat at elevation 1 for x <= 0 (one
  // corner at x = 1 is 0): the top z = 1 from above, the base z = -0.5 from below, the side wall
  // x = -1, and from inside the base box (z in [-0.5, 0]) the exit at z = 0, as MuJoCo's base
  // box does
  const char* xml = "<mujoco><asset><hfield name='h' nrow='2' ncol='3' size='1 1 1 0.5' "
                    "elevation='1 1 0 1 1 1'/></asset><worldbody>"
                    "<geom type='hfield' hfield='h'/></worldbody></mujoco>";
  mjData* d;
  mjModel* m = load(xml, &d);
  struct {
    mjtNum p[3], v[3], x, n[3];
  } c[] = {
    {{-0.5, -0.2, 3}, {0, 0, -1}, 2, {0, 0, 1}},
    {{0, 0, -5}, {0, 0, 2}, 2.25, {0, 0, -1}},
    {{-5, 0.5, 0.5}, {1, 0, 0}, 4, {-1, 0, 0}},
    {{0, 0, -0.2}, {0, 0, 1}, 0.2, {0, 0, 1}},
    {{1.5, 0, 2}, {0, 0, -1}, -1, {0, 0, 0}},
  };
  for (int i = 0; i < 5; i++) {
    mjtNum n[3], x = mj_rayHfield(m, d, 0, c[i].p, c[i].v, n);
    cr_assert(fabs(x - c[i].x) < 1e-12, "case %d: %.17g", i, x);
    for (int k = 0; k < 3; k++) cr_assert(fabs(n[k] - c[i].n[k]) < 1e-12, "case %d", i);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(ray, sensors) {
  // MuJoCo 3.5.1: a rangefinder 1 above the floor reads 1 (0.5 with cutoff 0.5), one that
  // sees nothing -1 (-0.5 with cutoff 0.5: the cutoff clamps it as any real sensor);
  // camprojection of (0.1, 0.2, -1) in a 640 x 480 camera with fovy 45 at the origin reads
  // (377.94112549695427, 124.11774900609143); insidesite 1 for a body inside a box site
  const char* xml =
    "<mujoco><worldbody><geom type='plane' size='5 5 .1'/>"
    "<camera name='c' resolution='640 480' fovy='45'/>"
    "<site name='box' type='box' size='.2 .3 .4' pos='1 0 0' euler='10 20 30'/>"
    "<body name='a' pos='0 0 1'><freejoint/><geom size='.1'/>"
    "<site name='s' quat='0 1 0 0'/></body>"
    "<body name='b' pos='1 0.25 0.1'><freejoint/><geom size='.1'/>"
    "<site name='t' pos='-0.9 -0.05 -1.1'/></body></worldbody>"
    "<sensor><rangefinder site='s'/><rangefinder site='s' cutoff='0.5'/>"
    "<rangefinder site='t' cutoff='0.5'/><rangefinder site='t'/>"
    "<camprojection site='t' camera='c'/><insidesite objtype='body' objname='b' site='box'/>"
    "</sensor></mujoco>";
  mjData* d;
  mjModel* m = load(xml, &d);
  mjtNum want[7] = {1, 0.5, -0.5, -1, 377.94112549695427, 124.11774900609143, 1};
  for (int i = 0; i < 7; i++)
    cr_assert(fabs(d->sensordata[i] - want[i]) < 1e-10, "sensordata[%d] %.17g, expected %.17g",
              i, d->sensordata[i], want[i]);
  mj_deleteData(d);
  mj_deleteModel(m);
}
