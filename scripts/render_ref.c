// render_ref.c: MuJoCo 2.2.2's own pictures of a model, the reference for mjrender's tests
// and benchmark (test-only: linked with Debian's libmujoco-dev, -lmujoco -lglfw -lGL, run
// under an X server such as Xvfb; never part of libmj or the tools).
//
//   render_ref MODEL.xml WIDTH HEIGHT CAMERA OUTDIR [QPOSFILE | --key K]
//   render_ref --bench FRAMES MODEL.xml WIDTH HEIGHT [PNGDIR]
//
// The first form renders one state (the model's default, keyframe K, or the nq numbers of
// QPOSFILE separated by blanks or commas; then mj_forward) from CAMERA (a camera name or index
// of the model, or "free": mjv_defaultFreeCamera, i.e. lookat stat.center, distance
// 1.5 * stat.extent, <visual><global> azimuth, elevation and fovy) with the default mjvOption
// (geom, site and tendon groups 0-2) and the default rendering flags, into OUTDIR:
//   rgb.png      the picture (RGB8), with the model's offscreen multisampling
//   segment.png  RGB8, each pixel geom id + 1 as R + 256 G + 65536 B; 0 for the background and
//                for what is not a geom (sites, tendons, decor).  Rendered with mjRND_SEGMENT
//                and mjRND_IDCOLOR without multisampling; 2.2.2 colors a scene geom with its
//                segid + 1 in the same byte order, and the scene's geoms map segid to
//                (objtype, objid)
//   depth.npy    float32 (HEIGHT, WIDTH), distance along the camera axis in metres, linearized
//                from the segment pass's depth buffer with the frustum's near and far planes
//                (vis.map.znear, zfar times stat.extent); +inf where nothing is drawn
//   camera.txt   the camera used: pos, forward, up, fovy, znear, zfar, and for the free camera
//                lookat, distance, azimuth, elevation (one "name values" line each)
// Images are stored top row first.
//
// --bench times FRAMES frames of the model stepped from its default state (mj_step between
// frames, not timed) rendered with the model's own settings (shadows, reflections, skybox,
// multisampling as the model says) from the free camera: mjv_updateScene, mjr_render and
// mjr_readPixels each frame, and writing PNGDIR/fNNNNN.png when PNGDIR is given; prints
// "N frames WxH, render and read back T1 s, PNG T2 s: R frames/s".
//
// Exit status: 0 success, 1 a MuJoCo or GL failure, 2 usage, 77 no X display or no OpenGL
// context (the skip of the tests that call it).
#include <GLFW/glfw3.h>
#include <math.h>
#include <mujoco/mujoco.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char usageText[] =
  "usage: render_ref MODEL.xml WIDTH HEIGHT CAMERA OUTDIR [QPOSFILE | --key K]\n"
  "       render_ref --bench FRAMES MODEL.xml WIDTH HEIGHT [PNGDIR]\n";

// the renderer's state: model, data, scene, GL context and the picture's size
typedef struct {
  mjModel* m;
  mjData* d;
  mjvScene scn;
  mjvOption opt;
  mjvCamera cam;
  mjrContext con;
  int w, h;
} Ref;

// print the message and exit 1
static void die(const char* fmt, const char* arg) {
  fprintf(stderr, "render_ref: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n");
  exit(1);
}

// seconds on a monotonic clock
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

// a positive integer argument, or the usage and exit 2
static int count(const char* s, int max) {
  char* end;
  long v = strtol(s, &end, 10);
  if (*end || v < 1 || v > max) {
    fputs(usageText, stderr);
    exit(2);
  }
  return (int)v;
}

// ---- output files ----------------------------------------------------------------------------

// write rows of RGB8 pixels (top row first) to a PNG file (libpng's simplified API)
static void writePng(const char* path, const unsigned char* rgb, int w, int h) {
  png_image im = {.version = PNG_IMAGE_VERSION, .width = w, .height = h,
                  .format = PNG_FORMAT_RGB};
  if (!png_image_write_to_file(&im, path, 0, rgb, 3 * w, NULL)) die("cannot write %s", path);
}

// write a float32 (h, w) array as a NumPy .npy file (format 1.0, header padded to 64 bytes)
static void writeNpy(const char* path, const float* a, int w, int h) {
  char head[128];
  int n = snprintf(head + 10, sizeof(head) - 10,
                   "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }", h, w);
  int len = (10 + n + 1 + 63) / 64 * 64;
  memcpy(head, "\x93NUMPY\x01\x00", 8);
  head[8] = (char)((len - 10) & 0xff);
  head[9] = (char)((len - 10) >> 8);
  memset(head + 10 + n, ' ', len - 10 - n - 1);
  head[len - 1] = '\n';
  FILE* f = fopen(path, "wb");
  if (!f) die("cannot write %s", path);
  size_t size = (size_t)w * h;
  if (fwrite(head, 1, len, f) != (size_t)len || fwrite(a, sizeof(float), size, f) != size ||
      fclose(f))
    die("cannot write %s", path);
}

// the file OUTDIR/NAME
static const char* outPath(const char* dir, const char* name) {
  static char path[4096];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  return path;
}

// ---- MuJoCo and GL ---------------------------------------------------------------------------

// load the model, make the data, and open an invisible GLFW window for the GL context; the
// offscreen buffer is made at least w x h
static void refOpen(Ref* r, const char* file, int w, int h) {
  char err[1000] = "";
  r->m = mj_loadXML(file, NULL, err, sizeof(err));
  if (!r->m) die("%s", err);
  r->d = mj_makeData(r->m);
  r->w = w;
  r->h = h;
  if (r->m->vis.global.offwidth < w) r->m->vis.global.offwidth = w;
  if (r->m->vis.global.offheight < h) r->m->vis.global.offheight = h;
  // no display or no OpenGL: exit 77, the callers' skip
  if (!glfwInit()) {
    fprintf(stderr, "render_ref: cannot initialize GLFW (no X display? run under xvfb-run)\n");
    exit(77);
  }
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  glfwWindowHint(GLFW_DOUBLEBUFFER, GLFW_FALSE);
  GLFWwindow* win = glfwCreateWindow(64, 64, "render_ref", NULL, NULL);
  if (!win) {
    fprintf(stderr, "render_ref: cannot create a GLFW window with an OpenGL context\n");
    exit(77);
  }
  glfwMakeContextCurrent(win);
  mjv_defaultOption(&r->opt);
  mjv_defaultScene(&r->scn);
  mjv_makeScene(r->m, &r->scn, 10000);
  mjv_defaultCamera(&r->cam);
  mjv_defaultFreeCamera(r->m, &r->cam);
}

// (re)make the GL context with `samples` offscreen multisamples and select the offscreen buffer
static void refContext(Ref* r, int samples) {
  mjr_freeContext(&r->con);
  mjr_defaultContext(&r->con);
  r->m->vis.quality.offsamples = samples;
  mjr_makeContext(r->m, &r->con, mjFONTSCALE_100);
  mjr_setBuffer(mjFB_OFFSCREEN, &r->con);
  if (r->con.currentBuffer != mjFB_OFFSCREEN) die("%s", "no offscreen buffer");
}

// render the current state and read it back (rgb and/or depth, bottom row first)
static void refDraw(Ref* r, unsigned char* rgb, float* depth) {
  mjrRect view = {0, 0, r->w, r->h};
  mjv_updateScene(r->m, r->d, &r->opt, NULL, &r->cam, mjCAT_ALL, &r->scn);
  mjr_render(view, &r->scn, &r->con);
  mjr_readPixels(rgb, depth, view, &r->con);
}

// reverse the order of h rows of `row` bytes in place (GL reads bottom row first)
static void flipRows(void* a, size_t row, int h) {
  unsigned char* b = a;
  unsigned char* t = malloc(row);
  for (int y = 0; y < h / 2; y++) {
    memcpy(t, b + row * y, row);
    memcpy(b + row * y, b + row * (h - 1 - y), row);
    memcpy(b + row * (h - 1 - y), t, row);
  }
  free(t);
}

// check GL's error flag, free the scene, context, data and model, and close GLFW
static void refClose(Ref* r) {
  if (mjr_getError()) die("%s", "an OpenGL error occurred");
  mjr_freeContext(&r->con);
  mjv_freeScene(&r->scn);
  mj_deleteData(r->d);
  mj_deleteModel(r->m);
  glfwTerminate();
}

// ---- one view: rgb, segmentation, depth ------------------------------------------------------

// the state: keyframe `key`, or the qpos of `file`, or the default; then mj_forward
static void setState(Ref* r, const char* file, const char* key) {
  if (key) {
    int k = mj_name2id(r->m, mjOBJ_KEY, key);
    char* end;
    long i = strtol(key, &end, 10);
    if (k < 0 && !*end && i >= 0 && i < r->m->nkey) k = (int)i;
    if (k < 0) die("no keyframe %s", key);
    mj_resetDataKeyframe(r->m, r->d, k);
  } else if (file) {
    FILE* f = fopen(file, "r");
    if (!f) die("cannot read %s", file);
    // nq numbers separated by blanks, commas or newlines
    for (int i = 0; i < r->m->nq; i++) {
      int c;
      while ((c = fgetc(f)) == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
      ungetc(c, f);
      if (fscanf(f, "%lf", r->d->qpos + i) != 1) die("%s: fewer than nq numbers", file);
    }
    fclose(f);
  }
  mj_forward(r->m, r->d);
}

// the camera: "free" (already the default free camera) or a model camera by name or index
static void setCamera(Ref* r, const char* name) {
  if (!strcmp(name, "free")) return;
  int c = mj_name2id(r->m, mjOBJ_CAMERA, name);
  char* end;
  long i = strtol(name, &end, 10);
  if (c < 0 && !*end && i >= 0 && i < r->m->ncam) c = (int)i;
  if (c < 0) die("no camera %s", name);
  r->cam.type = mjCAMERA_FIXED;
  r->cam.fixedcamid = c;
}

// write camera.txt: the GL camera of the last render and, for the free camera, its pose
static void writeCamera(const Ref* r, const char* dir) {
  const char* path = outPath(dir, "camera.txt");
  FILE* f = fopen(path, "w");
  if (!f) die("cannot write %s", path);
  const mjvGLCamera* c = &r->scn.camera[0];
  double fovy = 2 * atan2(c->frustum_top - c->frustum_bottom, 2 * c->frustum_near) * 180 / mjPI;
  fprintf(f, "pos %.9g %.9g %.9g\nforward %.9g %.9g %.9g\nup %.9g %.9g %.9g\n", c->pos[0],
          c->pos[1], c->pos[2], c->forward[0], c->forward[1], c->forward[2], c->up[0], c->up[1],
          c->up[2]);
  fprintf(f, "fovy %.9g\nznear %.9g\nzfar %.9g\n", fovy, c->frustum_near, c->frustum_far);
  if (r->cam.type == mjCAMERA_FREE)
    fprintf(f, "lookat %.17g %.17g %.17g\ndistance %.17g\nazimuth %.17g\nelevation %.17g\n",
            r->cam.lookat[0], r->cam.lookat[1], r->cam.lookat[2], r->cam.distance,
            r->cam.azimuth, r->cam.elevation);
  if (fclose(f)) die("cannot write %s", path);
}

// segment colors (segid + 1, R + 256 G + 65536 B) replaced by geom id + 1 in the same
// encoding, 0 for what is not a model geom
static void segmentToGeom(const mjvScene* scn, unsigned char* rgb, int npix) {
  int* geom = calloc(scn->ngeom + 1, sizeof(int));
  // geom[segid + 1]: the model geom id + 1 of that scene geom, or 0
  for (int i = 0; i < scn->ngeom; i++) {
    const mjvGeom* g = scn->geoms + i;
    if (g->segid >= 0 && g->segid < scn->ngeom && g->objtype == mjOBJ_GEOM)
      geom[g->segid + 1] = g->objid + 1;
  }
  for (int i = 0; i < npix; i++) {
    unsigned char* p = rgb + 3 * i;
    int s = p[0] + 256 * p[1] + 65536 * p[2];
    if (s > scn->ngeom) die("%s", "segment color beyond the scene's segids");
    int v = geom[s];
    p[0] = v & 0xff;
    p[1] = (v >> 8) & 0xff;
    p[2] = (v >> 16) & 0xff;
  }
  free(geom);
}

// depth buffer values (0 at znear, 1 at zfar) to distances along the camera axis, in place:
// z = n / (1 - d (1 - n / f)); +inf where nothing was drawn (d = 1)
static void linearDepth(const mjvGLCamera* c, float* depth, int npix) {
  double n = c->frustum_near, f = c->frustum_far;
  for (int i = 0; i < npix; i++)
    depth[i] = depth[i] >= 1 ? INFINITY : (float)(n / (1 - depth[i] * (1 - n / f)));
}

// render one view into OUTDIR: rgb.png, segment.png, depth.npy, camera.txt
static void view(int argc, char** argv) {
  Ref r = {0};
  int w = count(argv[2], 8192), h = count(argv[3], 8192), npix = w * h;
  const char* dir = argv[5];
  refOpen(&r, argv[1], w, h);
  setState(&r, argc == 7 ? argv[6] : NULL, argc == 8 ? argv[7] : NULL);
  setCamera(&r, argv[4]);
  unsigned char* rgb = malloc((size_t)3 * npix);
  float* depth = malloc(sizeof(float) * npix);

  // the picture, with the model's multisampling
  refContext(&r, r.m->vis.quality.offsamples);
  refDraw(&r, rgb, NULL);
  flipRows(rgb, (size_t)3 * w, h);
  writePng(outPath(dir, "rgb.png"), rgb, w, h);

  // segmentation and depth, one sample per pixel so that no id is blended
  refContext(&r, 0);
  r.scn.flags[mjRND_SEGMENT] = 1;
  r.scn.flags[mjRND_IDCOLOR] = 1;
  refDraw(&r, rgb, depth);
  segmentToGeom(&r.scn, rgb, npix);
  flipRows(rgb, (size_t)3 * w, h);
  writePng(outPath(dir, "segment.png"), rgb, w, h);
  linearDepth(&r.scn.camera[0], depth, npix);
  flipRows(depth, sizeof(float) * w, h);
  writeNpy(outPath(dir, "depth.npy"), depth, w, h);
  writeCamera(&r, dir);
  free(rgb);
  free(depth);
  refClose(&r);
}

// ---- speed -----------------------------------------------------------------------------------

// time FRAMES frames rendered and read back (and written as PNGs into PNGDIR when given)
static void bench(int argc, char** argv) {
  Ref r = {0};
  int frames = count(argv[2], 1000000), w = count(argv[4], 8192), h = count(argv[5], 8192);
  const char* dir = argc == 7 ? argv[6] : NULL;
  refOpen(&r, argv[3], w, h);
  refContext(&r, r.m->vis.quality.offsamples);
  unsigned char* rgb = malloc((size_t)3 * w * h);
  mj_forward(r.m, r.d);
  double draw = 0, png = 0;
  for (int i = 0; i < frames; i++) {
    // one step of the simulation between frames, not timed
    if (i) mj_step(r.m, r.d);
    double t0 = now();
    refDraw(&r, rgb, NULL);
    double t1 = now();
    draw += t1 - t0;
    if (dir) {
      char name[64];
      snprintf(name, sizeof(name), "f%05d.png", i);
      flipRows(rgb, (size_t)3 * w, h);
      writePng(outPath(dir, name), rgb, w, h);
      png += now() - t1;
    }
  }
  printf("%d frames %dx%d, render and read back %.3f s, PNG %.3f s: %.2f frames/s\n", frames,
         w, h, draw, png, frames / (draw + png));
  free(rgb);
  refClose(&r);
}

int main(int argc, char** argv) {
  if (argc >= 6 && argc <= 7 && !strcmp(argv[1], "--bench")) {
    bench(argc, argv);
  } else if ((argc == 6 || argc == 7 || (argc == 8 && !strcmp(argv[6], "--key"))) &&
             strcmp(argv[1], "--bench")) {
    view(argc, argv);
  } else {
    fputs(usageText, stderr);
    return 2;
  }
  return 0;
}
