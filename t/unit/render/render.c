// t/unit/render/render.c: the rasterizer (lib/render/render*.c) against hand computations:
// projection, the analytic silhouette of a sphere, near-plane clipping, depth ordering, depth
// values, segmentation ids and the camera modes.
#include <criterion/criterion.h>
#include <math.h>

#include "mj.h"
#include "render/render.h"
#include "render/render_scene.h"

#define PI 3.14159265358979323846

// a camera 3 m before the origin on -y, looking along +y with z up, fovy 45
#define CAMERA "<camera name='front' pos='0 -3 0' xyaxes='1 0 0 0 0 1' fovy='45'/>"

// compile xml, make data at qpos0 with its kinematics
static mjModel* load(const char* xml, mjData** d) {
  char err[512];
  mjModel* m = mj_parseXMLString(xml, "test.xml", "", err, sizeof(err));
  cr_assert(m, "%s", err);
  *d = mj_makeData(m);
  cr_assert(*d);
  mjr_kinematics(m, *d);
  return m;
}

// a context of size w x h producing `output` images
static mjrContext* context(const mjModel* m, int w, int h, int output) {
  mjrOption o;
  mjr_defaultOption(&o);
  o.width = w, o.height = h, o.output = output;
  char err[256];
  mjrContext* c = mjr_makeContext(m, &o, err, sizeof(err));
  cr_assert(c, "%s", err);
  return c;
}

// render from model camera `cam`
static void render(mjrContext* c, const mjModel* m, const mjData* d, int cam) {
  mjrCamera k;
  mjr_defaultFreeCamera(m, &k);
  k.camid = cam;
  char err[256];
  cr_assert(!mjr_render(c, m, d, &k, err, sizeof(err)), "%s", err);
}

// compile xml and render its camera 0 into a new w x h context producing `output` images
static mjrContext* renderXML(const char* xml, int w, int h, int output, mjModel** m,
                             mjData** d) {
  *m = load(xml, d);
  mjrContext* c = context(*m, w, h, output);
  render(c, *m, *d, 0);
  return c;
}

// free what a test made
static void release(mjrContext* c, mjModel* m, mjData* d) {
  mjr_freeContext(c);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// the segmentation id at pixel (x, y) of a w-wide image
static int segAt(const mjrContext* c, int w, int x, int y) {
  const unsigned char* p = mjr_rgb(c) + 3 * (y * w + x);
  return p[0] + 256 * p[1] + 65536 * p[2];
}

// focal length in pixels of an image h pixels high: f = (h / 2) / tan(fovy / 2)
static double focal(int h, double fovy) {
  return 0.5 * h / tan(0.5 * fovy * PI / 180);
}

Test(render, projection) {
  // a point (x, y, z) in camera coordinates lands at (cx + f x / z, cy - f y / z)
  mjData* d;
  mjModel* m = load("<mujoco><worldbody>" CAMERA "<geom size='.1'/></worldbody></mujoco>", &d);
  mjrContext* c = context(m, 400, 300, mjrOUT_COLOR);
  double pos[3] = {0, -3, 0}, mat[9] = {1, 0, 0, 0, 0, -1, 0, 1, 0};
  mjrPass p;
  mjr_setPass(&p, pos, mat, 45, 0, 0.01, 100, 400, 300);
  c->nvert = 1;
  c->vert[0].pos[0] = 0.5f, c->vert[0].pos[1] = 1, c->vert[0].pos[2] = 0.25f;
  mjr_project(c, &p);
  double f = focal(300, 45);
  cr_assert_float_eq(c->proj[0].sx, 200 + f * 0.5 / 4, 1e-3);
  cr_assert_float_eq(c->proj[0].sy, 150 - f * 0.25 / 4, 1e-3);
  cr_assert_float_eq(c->proj[0].zv, 4, 1e-6);

  // orthographic: fovy is the image height in meters
  mjr_setPass(&p, pos, mat, 2, 1, 0.01, 100, 400, 300);
  mjr_project(c, &p);
  cr_assert_float_eq(c->proj[0].sx, 200 + 150 * 0.5, 1e-3);
  cr_assert_float_eq(c->proj[0].sy, 150 - 150 * 0.25, 1e-3);
  release(c, m, d);
}

Test(render, sphereSilhouette) {
  // a sphere of radius r at distance D subtends asin(r / D): its image is a disk of radius
  // f tan(asin(r / D)); the covered pixel count gives the radius within 1%
  mjData* d;
  mjModel* m;
  int w = 400, h = 400;
  mjrContext* c = renderXML("<mujoco><worldbody>" CAMERA "<geom size='.5'/></worldbody></mujoco>",
                            w, h, mjrOUT_SEGMENT, &m, &d);
  long area = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) area += segAt(c, w, x, y) == 1;
  double expect = focal(h, 45) * tan(asin(0.5 / 3)), got = sqrt(area / PI);
  cr_assert(fabs(got - expect) < 0.01 * expect, "radius %g px, analytic %g", got, expect);
  cr_assert_eq(segAt(c, w, 200, 200), 1);
  cr_assert_eq(segAt(c, w, 0, 0), 0);
  release(c, m, d);
}

Test(render, nearPlaneClipping) {
  // an infinite floor 1 m below a horizontal camera with fovy 90 (f = h / 2) crosses the near
  // plane: below the horizon the floor, above it nothing; at pixel row y the floor's depth
  // along the axis is 1 / b with b = (y + 0.5 - h / 2) / f
  const char* xml =
    "<mujoco><statistic extent='10' center='0 0 0'/><worldbody>"
    "<camera pos='0 0 1' xyaxes='1 0 0 0 0 1' fovy='90'/>"
    "<geom type='plane' size='0 0 1'/></worldbody></mujoco>";
  mjData* d;
  mjModel* m;
  int w = 200, h = 200;
  mjrContext* c = renderXML(xml, w, h, mjrOUT_DEPTH, &m, &d);
  const float* z = mjr_depth(c);
  for (int x = 0; x < w; x += 7) {
    cr_assert(isinf(z[(h / 2 - 2) * w + x]), "above the horizon at column %d", x);
    for (int y = h / 2 + 2; y < h; y += 9) {
      double b = (y + 0.5 - h / 2.0) / (h / 2.0);
      cr_assert(fabs(z[y * w + x] - 1 / b) < 1e-3 / b, "row %d: %g vs %g", y, z[y * w + x],
                1 / b);
    }
  }
  release(c, m, d);
}

Test(render, depthOrderAndValues) {
  // two boxes on the axis, the far one first in the model: the near one (geom 1) covers the
  // center; its front face at y = -0.3 is 2.7 m along the axis at every pixel it covers (up to
  // f 0.3 / 2.7 = 32 px from the center), the far one's at y = 1 is 4 m (up to 72 px)
  const char* xml =
    "<mujoco><worldbody>" CAMERA
    "<geom name='far' type='box' size='1 1 1' pos='0 2 0'/>"
    "<geom name='near' type='box' size='.3 .3 .3'/></worldbody></mujoco>";
  mjData* d;
  mjModel* m;
  int w = 320, h = 240;
  mjrContext* c = renderXML(xml, w, h, mjrOUT_SEGMENT, &m, &d);
  cr_assert_eq(segAt(c, w, 160, 120), 2);
  cr_assert_eq(segAt(c, w, 160 + 20, 120 - 20), 2);
  cr_assert_eq(segAt(c, w, 160 + 45, 120), 1);
  cr_assert_eq(segAt(c, w, 160 + 35, 120), 1);
  cr_assert_eq(segAt(c, w, 5, 5), 0);
  mjr_freeContext(c);

  c = context(m, w, h, mjrOUT_DEPTH);
  render(c, m, d, 0);
  const float* z = mjr_depth(c);
  cr_assert_float_eq(z[120 * w + 160], 2.7, 1e-4);
  cr_assert_float_eq(z[100 * w + 180], 2.7, 1e-4);
  cr_assert_float_eq(z[120 * w + 160 + 45], 4, 1e-4);
  cr_assert(isinf(z[5 * w + 5]));
  release(c, m, d);
}

Test(render, cameraModes) {
  // a ball on a slide joint along x, moved to x = 1: a targetbody camera at (0, -3, 0) turns
  // to it (its -z axis along (1, 3, 0) / sqrt 10), a track camera keeps its world offset
  // (0, -3, 0) from the body and its orientation; both see the ball at the image center
  const char* xml =
    "<mujoco><worldbody>"
    "<camera name='aim' pos='0 -3 0' mode='targetbody' target='ball'/>"
    "<body name='ball'><joint type='slide' axis='1 0 0'/><geom size='.2'/>"
    "<camera name='follow' pos='0 -3 0' xyaxes='1 0 0 0 0 1' mode='track'/></body>"
    "</worldbody></mujoco>";
  mjData* d;
  mjModel* m = load(xml, &d);
  d->qpos[0] = 1;
  mjr_kinematics(m, d);
  mjrCamera cam = {.camid = 0};
  mjrView v;
  mjr_cameraView(m, d, &cam, &v);
  double s = sqrt(10.0);
  cr_assert_float_eq(-v.mat[2], 1 / s, 1e-9);
  cr_assert_float_eq(-v.mat[5], 3 / s, 1e-9);
  cr_assert_float_eq(-v.mat[8], 0, 1e-9);
  cam.camid = 1;
  mjr_cameraView(m, d, &cam, &v);
  cr_assert_float_eq(v.pos[0], 1, 1e-9);
  cr_assert_float_eq(v.pos[1], -3, 1e-9);
  cr_assert_float_eq(v.mat[5], -1, 1e-9);  // still looking along +y

  int w = 101, h = 101;
  mjrContext* c = context(m, w, h, mjrOUT_SEGMENT);
  for (int k = 0; k < 2; k++) {
    render(c, m, d, k);
    cr_assert_eq(segAt(c, w, 50, 50), 1, "camera %d", k);
    cr_assert_eq(segAt(c, w, 2, 50), 0, "camera %d", k);
  }
  release(c, m, d);
}

Test(render, freeCameraDefaults) {
  // mjv_defaultFreeCamera: lookat the center, 1.5 extents away, <visual><global> angles
  const char* xml =
    "<mujoco><statistic center='1 2 3' extent='2'/><visual><global azimuth='30' "
    "elevation='-20'/></visual><worldbody><geom size='.1'/></worldbody></mujoco>";
  mjData* d;
  mjModel* m = load(xml, &d);
  mjrCamera cam;
  mjr_defaultFreeCamera(m, &cam);
  cr_assert_float_eq(cam.distance, 3, 1e-12);
  cr_assert_float_eq(cam.lookat[2], 3, 1e-12);
  mjrView v;
  mjr_cameraView(m, d, &cam, &v);
  double az = 30 * PI / 180, el = -20 * PI / 180;
  cr_assert_float_eq(v.pos[0], 1 - 3 * cos(el) * cos(az), 1e-9);
  cr_assert_float_eq(v.pos[2], 3 - 3 * sin(el), 1e-9);
  cr_assert_float_eq(v.znear, m->vis.map_znear * 2, 1e-6);
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(render, colorImage) {
  // a lit white sphere: brighter at the center than at the rim, the background black
  const char* xml =
    "<mujoco><worldbody>" CAMERA "<light pos='0 -3 0' dir='0 1 0'/>"
    "<geom size='.5' rgba='1 1 1 1'/></worldbody></mujoco>";
  mjData* d;
  mjModel* m;
  int w = 200, h = 200;
  mjrContext* c = renderXML(xml, w, h, mjrOUT_COLOR, &m, &d);
  const unsigned char* px = mjr_rgb(c);
  int center = px[3 * (100 * w + 100)], rim = px[3 * (100 * w + 100 + 38)];
  cr_assert(center > rim && center > 200, "center %d rim %d", center, rim);
  cr_assert_eq(px[0] + px[1] + px[2], 0);
  release(c, m, d);
}

// the middle pixel of a 101 x 101 color image of xml's camera 0 is gray want (0-255) within tol
static void centerColor(const char* xml, double want, double tol) {
  mjData* d;
  mjModel* m;
  int w = 101, h = 101;
  mjrContext* c = renderXML(xml, w, h, mjrOUT_COLOR, &m, &d);
  const unsigned char* px = mjr_rgb(c) + 3 * (50 * w + 50);
  for (int k = 0; k < 3; k++) cr_assert(fabs(px[k] - want) <= tol, "%d vs %g", px[k], want);
  release(c, m, d);
}

Test(render, gouraudShading) {
  // MuJoCo (OpenGL's fixed function) lights the vertices and interpolates their colors: a
  // white 1 x 1 plane is drawn as a grid of 2 x 2 cells (vertices at -1, 0, 1), lit by a light
  // 0.3 above the middle (0.5, 0.5) of a cell (no cone, no attenuation, diffuse 0.7) and seen
  // from above that point.  Each corner of the cell is at 0.768 from the light, n.l =
  // 0.3 / 0.768 = 0.391, color 0.7 x 0.391 = 0.273 (70 of 255), which the middle pixel shows;
  // lit per pixel it would have n.l = 1 (178)
  const char* xml =
    "<mujoco><visual><headlight active='0'/></visual><worldbody>"
    "<camera pos='.5 .5 2' xyaxes='1 0 0 0 1 0' fovy='45'/>"
    "<light pos='.5 .5 .3' dir='0 0 -1' cutoff='90' exponent='0' castshadow='false'/>"
    "<geom type='plane' size='1 1 1' rgba='1 1 1 1' material='m'/></worldbody>"
    "<asset><material name='m' specular='0'/></asset></mujoco>";
  centerColor(xml, 255 * 0.7 * 0.3 / sqrt(0.25 + 0.25 + 0.09), 1);
}

Test(render, primitiveTessellation) {
  // MuJoCo draws a cylinder's side in numstacks rows (16) of numslices (28) quads: a light 0.3
  // before the middle of the side of a cylinder of radius 1 and half-height 1 lights the
  // vertex there (slice 21 at 270 degrees, z = 0) with n.l = 1 (0.7: 178 of 255), which the
  // middle pixel shows; a side of one row would show its rim vertices' 0.7 x 0.3 / 1.044 (51)
  const char* xml =
    "<mujoco><visual><headlight active='0'/></visual><worldbody>" CAMERA
    "<light pos='0 -1.3 0' dir='0 1 0' cutoff='90' exponent='0' castshadow='false'/>"
    "<geom type='cylinder' size='1 1' rgba='1 1 1 1' material='m'/></worldbody>"
    "<asset><material name='m' specular='0'/></asset></mujoco>";
  centerColor(xml, 178.5, 3);
}

Test(render, badSizes) {
  mjData* d;
  mjModel* m = load("<mujoco><worldbody><geom size='.1'/></worldbody></mujoco>", &d);
  mjrOption o;
  mjr_defaultOption(&o);
  char err[256] = "";
  o.width = 0;
  cr_assert_null(mjr_makeContext(m, &o, err, sizeof(err)));
  cr_assert(strstr(err, "image size"), "%s", err);
  o.width = 16384, o.height = 16384 + 1;
  cr_assert_null(mjr_makeContext(m, &o, err, sizeof(err)));
  mj_deleteData(d);
  mj_deleteModel(m);
}
