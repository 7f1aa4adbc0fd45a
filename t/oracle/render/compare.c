// compare.c: one view of mjrender against MuJoCo's (scripts/render_ref.c): segmentation masks
// per geom and depth where both see the same geom; with --rgb, the colors per region.
//
//   compare [--shift DX,DY] [--depth-scale S] [--rgb REF_RGB.png,TEST_RGB.png [--floor IDS]
//           [--min-db DB] [--judge REGIONS] [--gain G]] REF_SEGMENT.png REF_DEPTH.npy
//           TEST_SEGMENT.png TEST_DEPTH.npy
//
// Segmentation PNGs hold geom id + 1 per pixel as R + 256 G + 65536 B (0: background or not a
// geom); depth .npy files are float32 (height, width), metres along the camera axis, +inf where
// nothing is drawn; all four images the same size, top row first.
//
// For each geom id g seen in either image: the reference's pixel count a, the test's b, the
// intersection and IoU = |R=g and T=g| / |R=g or T=g|.  A geom is judged by its size
// n = max(a, b): n >= 1000 pixels needs IoU >= 0.98, 50 <= n < 1000 needs IoU >= 0.90, smaller
// ones are listed only.  Curved surfaces are tessellated by MuJoCo (and maybe not by the test),
// so silhouettes may differ by a fraction of a pixel along the edges; the bounds allow that.
//
// Depth: over the pixels where both images show the same geom g and the pixel is interior to
// g's mask in both images (its 8 neighbours show g too: a 1-pixel band along every mask
// boundary, where an edge pixel's depth may come from either side, is left out), the relative
// error |d_test - d_ref| / d_ref; its median and 99th percentile per geom and over all such
// pixels together.  The pooled median and 99th percentile must be <= 1%.
//
// Colors (--rgb): the pictures as a user sees them, in three regions of the reference's
// segmentation: the floor (the geoms listed by --floor, comma-separated ids: the planes), the
// robot (every other geom) and the background (skybox, or the clear color).  Only pixels
// interior to their region's geom in the reference count (the 8 neighbours show the same id):
// the band along every silhouette, where antialiasing (MuJoCo multisamples, mjrender by
// default not) mixes the two sides, is left out; shadows and reflections count, as they fall
// inside the floor.  Per region: the pixels, the mean colors of both, and the PSNR
// 10 log10(255^2 / MSE) over their RGB values; a region of >= 1000 such pixels needs
// PSNR >= DB (--min-db; default 0: reported only) when --judge names it (a comma-separated
// list of floor, robot, background; default all three).
//
// --shift DX,DY moves the test images by (DX, DY) pixels (right, down; what is uncovered is
// background), --depth-scale multiplies the test depth by S and --gain the test colors by G:
// deliberate errors that show the comparison fails.
//
// Prints one line per geom and a summary line; exit status 0 within bounds, 1 not, 2 usage or
// unreadable input.
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// an image: w x h values per pixel (geom id + 1, or depth)
typedef struct {
  int w, h;
  int* id;
  float* z;
} Image;

// per-geom tallies
typedef struct {
  long ref, test, both;  // pixel counts: in the reference, in the test, in both
  long nz;               // interior pixels with depth errors
  float* err;            // their relative depth errors
} Geom;

// per-region color tallies: interior pixels, squared error over their RGB values, sums of the
// colors of each image
typedef struct {
  long n;
  double se, ref[3], test[3];
} Region;

// print the message and exit 2
static void fail(const char* msg, const char* arg) {
  fprintf(stderr, "compare: %s%s\n", msg, arg);
  exit(2);
}

// read an 8-bit PNG into im->id (R + 256 G + 65536 B per pixel)
static void readPng(const char* path, Image* im) {
  FILE* f = fopen(path, "rb");
  if (!f) fail("cannot read ", path);
  png_structp p = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png_create_info_struct(p);
  if (setjmp(png_jmpbuf(p))) fail("not a readable PNG: ", path);
  png_init_io(p, f);
  png_read_info(p, info);
  if (png_get_bit_depth(p, info) != 8 || png_get_color_type(p, info) != PNG_COLOR_TYPE_RGB)
    fail("not an RGB8 PNG: ", path);
  im->w = png_get_image_width(p, info);
  im->h = png_get_image_height(p, info);
  unsigned char* row = malloc((size_t)3 * im->w);
  im->id = malloc(sizeof(int) * im->w * im->h);
  for (int y = 0; y < im->h; y++) {
    png_read_row(p, row, NULL);
    for (int x = 0; x < im->w; x++) {
      const unsigned char* c = row + 3 * x;
      im->id[y * im->w + x] = c[0] + 256 * c[1] + 65536 * c[2];
    }
  }
  free(row);
  png_destroy_read_struct(&p, &info, NULL);
  fclose(f);
}

// read a float32 (h, w) .npy file into im->z; its shape must be the PNG's
static void readNpy(const char* path, Image* im) {
  FILE* f = fopen(path, "rb");
  if (!f) fail("cannot read ", path);
  unsigned char pre[10];
  char head[1024];
  int h, w;
  // magic, version 1.0, little-endian header length, then the header dictionary
  if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY\x01", 7))
    fail("not a .npy file: ", path);
  size_t len = pre[8] + 256 * pre[9];
  if (len >= sizeof(head) || fread(head, 1, len, f) != len) fail("bad .npy header: ", path);
  head[len] = 0;
  const char* shape = strstr(head, "'shape': (");
  if (!strstr(head, "'descr': '<f4'") || !strstr(head, "'fortran_order': False") || !shape ||
      sscanf(shape, "'shape': (%d, %d)", &h, &w) != 2)
    fail("not a float32 (height, width) C-order array: ", path);
  if (w != im->w || h != im->h) fail("depth and segmentation sizes differ: ", path);
  im->z = malloc(sizeof(float) * w * h);
  if (fread(im->z, sizeof(float), (size_t)w * h, f) != (size_t)w * h) fail("short .npy: ", path);
  fclose(f);
}

// move an image by (dx, dy) pixels, background (id 0, depth +inf) where uncovered
static void shift(Image* im, int dx, int dy) {
  int n = im->w * im->h;
  int* id = malloc(sizeof(int) * n);
  float* z = malloc(sizeof(float) * n);
  for (int y = 0; y < im->h; y++) {
    for (int x = 0; x < im->w; x++) {
      int sx = x - dx, sy = y - dy, in = sx >= 0 && sy >= 0 && sx < im->w && sy < im->h;
      id[y * im->w + x] = in ? im->id[sy * im->w + sx] : 0;
      z[y * im->w + x] = in ? im->z[sy * im->w + sx] : INFINITY;
    }
  }
  free(im->id);
  free(im->z);
  im->id = id;
  im->z = z;
}

// whether pixel (x, y) and its 8 neighbours (those inside the image) all show id g
static int interior(const Image* im, int x, int y, int g) {
  for (int j = y - 1; j <= y + 1; j++)
    for (int i = x - 1; i <= x + 1; i++)
      if (i >= 0 && j >= 0 && i < im->w && j < im->h && im->id[j * im->w + i] != g) return 0;
  return 1;
}

// ascending floats, for the percentiles
static int cmpFloat(const void* a, const void* b) {
  float x = *(const float*)a, y = *(const float*)b;
  return (x > y) - (x < y);
}

// the q-quantile (0..1, nearest rank) of n values, sorted here; 0 for none
static float quantile(float* v, long n, double q) {
  if (!n) return 0;
  qsort(v, n, sizeof(float), cmpFloat);
  long k = (long)ceil(q * n) - 1;
  return v[k < 0 ? 0 : k];
}

// 1 when geom id g is in the comma-separated list
static int listed(const char* list, int g) {
  for (const char* p = list; p && *p; p++) {
    char* end;
    long v = strtol(p, &end, 10);
    if (end == p) fail("bad --floor list: ", list);
    if (v == g) return 1;
    p = end;
    if (!*p) break;
  }
  return 0;
}

// the colors of the test picture against the reference's per region (see the top); 1 when a
// region is below minDb
static int compareColors(const Image* seg, const char* files, const char* floor, double minDb,
                         const char* judge, double gain, int dx, int dy) {
  char refPath[4096], testPath[4096];
  const char* comma = strchr(files, ',');
  if (!comma || (size_t)(comma - files) >= sizeof(refPath)) fail("bad --rgb: ", files);
  snprintf(refPath, sizeof(refPath), "%.*s", (int)(comma - files), files);
  snprintf(testPath, sizeof(testPath), "%s", comma + 1);
  Image rc = {0}, tc = {0};
  readPng(refPath, &rc);
  readPng(testPath, &tc);
  if (rc.w != seg->w || rc.h != seg->h || tc.w != seg->w || tc.h != seg->h)
    fail("the color pictures' sizes differ from the segmentation's: ", files);
  tc.z = calloc((size_t)tc.w * tc.h, sizeof(float));
  shift(&tc, dx, dy);
  Region reg[3] = {{0}};
  static const char* name[3] = {"floor", "robot", "background"};
  for (int i = 0; i < seg->w * seg->h; i++) {
    int g = seg->id[i];
    if (!interior(seg, i % seg->w, i / seg->w, g)) continue;
    Region* r = reg + (!g ? 2 : listed(floor, g - 1) ? 0 : 1);
    r->n++;
    for (int k = 0; k < 3; k++) {
      double a = rc.id[i] >> (8 * k) & 255, b = gain * (tc.id[i] >> (8 * k) & 255);
      b = b > 255 ? 255 : b;
      r->se += (a - b) * (a - b);
      r->ref[k] += a;
      r->test[k] += b;
    }
  }
  int bad = 0;
  printf("%-10s %8s %8s  %-15s %-15s %s\n", "region", "px", "PSNR", "mean ref", "mean test",
         "verdict");
  for (int j = 0; j < 3; j++) {
    const Region* r = reg + j;
    if (!r->n) continue;
    double mse = r->se / (3.0 * r->n), db = mse > 0 ? 10 * log10(255.0 * 255 / mse) : 99;
    int judged = minDb > 0 && r->n >= 1000 && strstr(judge, name[j]), low = judged && db < minDb;
    bad |= low;
    printf("%-10s %8ld %7.1f   %3.0f %3.0f %3.0f     %3.0f %3.0f %3.0f     %s\n", name[j], r->n, db,
           r->ref[0] / r->n, r->ref[1] / r->n, r->ref[2] / r->n, r->test[0] / r->n,
           r->test[1] / r->n, r->test[2] / r->n, low ? "PSNR LOW" : judged ? "ok" : "reported");
  }
  free(rc.id);
  free(tc.id);
  free(tc.z);
  return bad;
}

int main(int argc, char** argv) {
  int dx = 0, dy = 0, a = 1;
  double scale = 1, minDb = 0, gain = 1;
  const char *rgb = NULL, *floor = "", *judge = "floor,robot,background";
  // options
  for (; a + 1 < argc && argv[a][0] == '-' && argv[a][1] == '-'; a += 2) {
    if (!strcmp(argv[a], "--shift") && sscanf(argv[a + 1], "%d,%d", &dx, &dy) == 2) continue;
    if (!strcmp(argv[a], "--depth-scale") && sscanf(argv[a + 1], "%lf", &scale) == 1) continue;
    if (!strcmp(argv[a], "--min-db") && sscanf(argv[a + 1], "%lf", &minDb) == 1) continue;
    if (!strcmp(argv[a], "--gain") && sscanf(argv[a + 1], "%lf", &gain) == 1) continue;
    if (!strcmp(argv[a], "--rgb")) {
      rgb = argv[a + 1];
      continue;
    }
    if (!strcmp(argv[a], "--floor")) {
      floor = argv[a + 1];
      continue;
    }
    if (!strcmp(argv[a], "--judge")) {
      judge = argv[a + 1];
      continue;
    }
    fail("bad option ", argv[a]);
  }
  if (argc - a != 4)
    fail("usage: compare [--shift DX,DY] [--depth-scale S] [--rgb REF.png,TEST.png [--floor IDS] "
         "[--min-db DB] [--judge REGIONS] [--gain G]] REF_SEGMENT.png REF_DEPTH.npy ",
         "TEST_SEGMENT.png "
         "TEST_DEPTH.npy");
  Image ref, test;
  readPng(argv[a], &ref);
  readNpy(argv[a + 1], &ref);
  readPng(argv[a + 2], &test);
  readNpy(argv[a + 3], &test);
  if (ref.w != test.w || ref.h != test.h) fail("the images' sizes differ: ", argv[a + 2]);
  shift(&test, dx, dy);
  int n = ref.w * ref.h, ng = 1;
  // the number of ids: one more than the largest seen
  for (int i = 0; i < n; i++) {
    if (ref.id[i] >= ng) ng = ref.id[i] + 1;
    if (test.id[i] >= ng) ng = test.id[i] + 1;
  }
  Geom* g = calloc(ng, sizeof(Geom));
  float* all = malloc(sizeof(float) * n);
  long nall = 0;
  // pixel counts per id
  for (int i = 0; i < n; i++) {
    g[ref.id[i]].ref++;
    g[test.id[i]].test++;
    g[ref.id[i]].both += ref.id[i] == test.id[i];
  }
  for (int k = 1; k < ng; k++) g[k].err = malloc(sizeof(float) * (g[k].both + 1));
  // the relative depth error of each pixel interior to a geom seen by both
  for (int i = 0; i < n; i++) {
    int r = ref.id[i], x = i % ref.w, y = i / ref.w;
    if (!r || r != test.id[i] || !interior(&ref, x, y, r) || !interior(&test, x, y, r)) continue;
    double e = fabs(scale * test.z[i] - ref.z[i]) / ref.z[i];
    float ef = isfinite(e) ? (float)e : INFINITY;
    g[r].err[g[r].nz++] = ef;
    all[nall++] = ef;
  }

  // one line per geom seen, judged by its size
  int bad = 0, judged = 0;
  printf("%-6s %8s %8s %8s %8s %10s %10s  %s\n", "geom", "ref px", "test px", "IoU", "depth px",
         "median", "p99", "verdict");
  for (int k = 1; k < ng; k++) {
    if (!g[k].ref && !g[k].test) continue;
    long size = g[k].ref > g[k].test ? g[k].ref : g[k].test;
    double iou = (double)g[k].both / (g[k].ref + g[k].test - g[k].both);
    double bound = size >= 1000 ? 0.98 : size >= 50 ? 0.90 : 0;
    const char* verdict = bound == 0 ? "small" : iou >= bound ? "ok" : "IOU LOW";
    judged += bound > 0;
    bad += bound > 0 && iou < bound;
    long nz = g[k].nz;
    float med = quantile(g[k].err, nz, 0.5), p99 = quantile(g[k].err, nz, 0.99);
    printf("%-6d %8ld %8ld %8.4f %8ld %9.3f%% %9.3f%%  %s\n", k - 1, g[k].ref, g[k].test, iou,
           nz, 100 * med, 100 * p99, verdict);
  }
  float med = quantile(all, nall, 0.5), p99 = quantile(all, nall, 0.99);
  int deep = med > 0.01 || p99 > 0.01;
  printf("background: ref %ld px, test %ld px, both %ld px\n", g[0].ref, g[0].test, g[0].both);
  printf("%s: %d of %d geoms below the IoU bound; depth over %ld px: median %.4f%%, "
         "p99 %.4f%%%s\n", (bad || deep) ? "FAIL" : "ok", bad, judged, nall, 100 * med,
         100 * p99, deep ? " (over 1%)" : "");
  int pale = rgb && compareColors(&ref, rgb, floor, minDb, judge, gain, dx, dy);
  for (int k = 0; k < ng; k++) free(g[k].err);
  free(g);
  free(all);
  free(ref.id);
  free(ref.z);
  free(test.id);
  free(test.z);
  return bad || deep || pale;
}
