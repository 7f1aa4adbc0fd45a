// texture.c: texture images (see texture.h): procedural textures, marks, PNG files, cube faces.
#include "compiler/texture.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/image.h"
#include "util/util_file.h"
#include "util/util.h"

// largest procedural texture, in pixels (the same limit as PNG files)
#define MAXPIXELS MJ_PNG_MAXPIXELS

// ---- defaults ----------------------------------------------------------------------------------

// MuJoCo's <texture> defaults
void mj_defaultTextureSpec(mjTextureSpec* s) {
  memset(s, 0, sizeof(*s));
  s->type = mjTEXTURE_CUBE;
  for (int k = 0; k < 3; k++) s->rgb1[k] = 0.8, s->rgb2[k] = 0.5;
  s->random = 0.01;
  s->nchannel = 3;
  s->gridsize[0] = s->gridsize[1] = 1;
  memset(s->gridlayout, '.', 12);
}

// ---- the random generator of random marks: mt19937_64 (Matsumoto and Nishimura) ----------------

#define MT_N 312
#define MT_M 156

// generator state
typedef struct {
  uint64_t x[MT_N];
  int i;
} Twister;

// seed the state with one number (the standard linear recurrence)
static void twisterSeed(Twister* t, uint64_t seed) {
  t->x[0] = seed;
  for (int i = 1; i < MT_N; i++)
    t->x[i] = 6364136223846793005ull * (t->x[i - 1] ^ (t->x[i - 1] >> 62)) + (uint64_t)i;
  t->i = MT_N;
}

// x[i] from x[i], x[i + 1] and x[i + M] (indices mod N), i in [lo, hi)
static void twisterRange(uint64_t* x, int lo, int hi, int next, int far) {
  for (int i = lo; i < hi; i++) {
    uint64_t y = (x[i] & 0xffffffff80000000ull) | (x[i + next] & 0x7fffffffull);
    x[i] = x[i + far] ^ (y >> 1) ^ ((y & 1) ? 0xb5026f5aa96619e9ull : 0);
  }
}

// the next 64-bit output: regenerate the state every MT_N outputs (the index wraps split out
// of the loops), then temper
static uint64_t twisterNext(Twister* t) {
  if (t->i >= MT_N) {
    twisterRange(t->x, 0, MT_N - MT_M, 1, MT_M);
    twisterRange(t->x, MT_N - MT_M, MT_N - 1, 1, MT_M - MT_N);
    twisterRange(t->x, MT_N - 1, MT_N, 1 - MT_N, MT_M - MT_N);
    t->i = 0;
  }
  uint64_t y = t->x[t->i++];
  y ^= (y >> 29) & 0x5555555555555555ull;
  y ^= (y << 17) & 0x71d67fffeda60000ull;
  y ^= (y << 37) & 0xfff7eee000000000ull;
  return y ^ (y >> 43);
}

// output y as a uniform number in [0, 1): rounded to a double, over 2^64
static double twisterUniform(uint64_t y) {
  double u = (double)y * 0x1p-64;
  return u < 1 ? u : nextafter(1.0, 0.0);
}

// the least output y whose uniform number does not fall under p (twisterUniform(y) < p is
// false), UINT64_MAX when only that one's does not: the outputs that fall under p are those
// below it, twisterUniform not decreasing with y (a NaN p: none)
static uint64_t twisterThreshold(double p) {
  uint64_t lo = 0, hi = UINT64_MAX;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (!(twisterUniform(mid) < p)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// ---- procedural textures -------------------------------------------------------------------

// one channel byte: 255 * v truncated; negative gives 0, past 255 wraps (as the oracle does)
static unsigned char channel(double v) {
  double x = 255 * v;
  if (!(x > 0)) return 0;
  return x >= 4294967295.0 ? 255 : (unsigned char)((uint32_t)x & 0xff);
}

// write a color as a 3-byte pixel
static void putRGB(unsigned char* p, const double rgb[3]) {
  for (int k = 0; k < 3; k++) p[k] = channel(rgb[k]);
}

// the gradient weight of rgb1 at elevation t in [-1, 1] (1 at the top, -1 at the bottom): an
// algebraic sigmoid scaled to reach 0 and 1 at the ends, clamped beyond them
static double gradientWeight(double t) {
  double s = 0.5 + 0.5 * sqrt(2.0) * t / sqrt(1 + t * t);
  return s < 0 ? 0 : s > 1 ? 1 : s;
}

// mix rgb1 and rgb2 with weight s of rgb1 into a 3-byte pixel
static void putMix(unsigned char* p, const double rgb1[3], const double rgb2[3], double s) {
  double c[3];
  for (int k = 0; k < 3; k++) c[k] = s * rgb1[k] + (1 - s) * rgb2[k];
  putRGB(p, c);
}

// pixel coordinate i of n mapped to [-1, 1]; NaN for n = 1, which makes a one-pixel-wide
// gradient black as in MuJoCo
static double unit(int i, int n) {
  return 2.0 * i / (n - 1) - 1;
}

// the elevation in [-1, 1] of pixel (r, c) of cube face f (w x w): the angle of its direction
// above the horizontal (x, z) plane over pi/2; side faces have their top row at +Y
static double cubeElevation(int f, int r, int c, int w) {
  double u = unit(c, w), v = unit(r, w);
  if (f == 2 || f == 3) return atan2(f == 2 ? 1 : -1, sqrt(u * u + v * v)) / (mjPI / 2);
  return atan2(-v, sqrt(1 + u * u)) / (mjPI / 2);
}

// the first of pixel coordinate i and its mirror n-1-i whose unit() squares to the same
// double as i's: a cube face's elevation reads a coordinate only through its square (the
// rows of a side face excepted), so the two pixels' colors are the same bits
static int mirrorOf(int i, int n) {
  double u = unit(i, n), m = unit(n - 1 - i, n);
  return n - 1 - i < i && m * m == u * u ? n - 1 - i : i;
}

// the gradient of cube face f (w x w, 3-byte pixels, before marks): each color computed once
// and copied to the pixels whose elevation reads the same numbers (mirror[i] = mirrorOf(i, w);
// the top and bottom faces' u^2 + v^2 is also the same sum with r and c swapped)
static void cubeGradient(const mjTextureSpec* s, int f, int w, const int* mirror,
                         unsigned char* rgb) {
  int cap = f == 2 || f == 3;
  for (int r = 0; r < w; r++)
    for (int c = 0; c < w; c++) {
      int sr = cap ? mirror[r] : r, sc = mirror[c];
      if (cap && sc < sr) sr ^= sc, sc ^= sr, sr ^= sc;
      unsigned char* p = rgb + 3 * ((size_t)r * w + c);
      if (sr != r || sc != c) memcpy(p, rgb + 3 * ((size_t)sr * w + sc), 3);
      else putMix(p, s->rgb1, s->rgb2, gradientWeight(cubeElevation(f, r, c, w)));
    }
}

// the base pattern of one w x h image (a 2d texture or cube face f, -1 for 2d, with the w
// pixel mirrors of cubeGradient) as 3-byte pixels, then its edge or cross marks
static void builtinImage(const mjTextureSpec* s, int f, int w, int h, const int* mirror,
                         unsigned char* rgb) {
  if (s->builtin == mjBUILTIN_GRADIENT && f >= 0) cubeGradient(s, f, w, mirror, rgb);
  for (int r = 0; r < h; r++)
    for (int c = 0; c < w; c++) {
      unsigned char* p = rgb + 3 * ((size_t)r * w + c);
      if (s->builtin == mjBUILTIN_GRADIENT && f < 0) {
        // 2d: elevation falls from the center (1) to the inscribed circle (-1)
        double x = unit(c, w), y = unit(r, h);
        putMix(p, s->rgb1, s->rgb2, gradientWeight(1 - 2 * sqrt(x * x + y * y)));
      } else if (s->builtin == mjBUILTIN_CHECKER) {
        // 2x2 checker, rgb1 in the top-left quadrant; the front and back faces are inverted
        int first = (r < h / 2) == (c < w / 2);
        putRGB(p, first != (f >= 4) ? s->rgb1 : s->rgb2);
      } else if (s->builtin != mjBUILTIN_GRADIENT) {
        // flat: rgb1, rgb2 on the down face
        putRGB(p, f == 3 ? s->rgb2 : s->rgb1);
      }
      // edge and cross marks, per image
      int edge = r == 0 || c == 0 || r == h - 1 || c == w - 1;
      if ((s->mark == mjMARK_EDGE && edge) ||
          (s->mark == mjMARK_CROSS && (r == h / 2 || c == w / 2)))
        putRGB(p, s->markrgb);
    }
}

// the procedural texture as 3-byte pixels: one image or six faces, then random marks; mirror
// is room for w ints
static void builtinTexture(const mjTextureSpec* s, int w, int h, int* mirror,
                           unsigned char* rgb) {
  if (s->type == mjTEXTURE_2D) {
    builtinImage(s, -1, w, h, NULL, rgb);
  } else {
    // a gradient's four side faces are one image (elevation depends on the pixel, not the
    // face): computed once, copied
    size_t face = (size_t)3 * w * w;
    for (int i = 0; i < w; i++) mirror[i] = mirrorOf(i, w);
    for (int f = 0; f < 6; f++) {
      int side = f != 2 && f != 3;
      if (s->builtin == mjBUILTIN_GRADIENT && side && f > 0) memcpy(rgb + face * f, rgb, face);
      else builtinImage(s, f, w, w, mirror, rgb + face * f);
    }
  }
  if (s->mark == mjMARK_RANDOM) {
    // a texel is marked where its uniform number falls under random, compared as outputs
    Twister t;
    twisterSeed(&t, 42);
    uint64_t below = twisterThreshold(s->random);
    int all = twisterUniform(UINT64_MAX) < s->random;
    for (size_t i = 0; i < (size_t)w * h; i++)
      if (twisterNext(&t) < below || all) putRGB(rgb + 3 * i, s->markrgb);
  }
}

// ---- textures from files -------------------------------------------------------------------

// swap n bytes of a and b
static void swapBytes(unsigned char* a, unsigned char* b, size_t n) {
  for (size_t k = 0; k < n; k++) {
    unsigned char x = a[k];
    a[k] = b[k], b[k] = x;
  }
}

// mirror an image of w x h pixels of n bytes left-right and/or top-bottom
static void flip(unsigned char* px, int w, int h, int n, int hflip, int vflip) {
  size_t row = (size_t)w * n;
  for (int r = 0; hflip && r < h; r++)
    for (int c = 0; c < w / 2; c++)
      swapBytes(px + r * row + (size_t)c * n, px + r * row + (size_t)(w - 1 - c) * n, n);
  for (int r = 0; vflip && r < h / 2; r++) swapBytes(px + r * row, px + (h - 1 - r) * row, row);
}

// read one PNG file with the texture's channels and flips; 0 or -1 with err
static int readImage(const mjTextureSpec* s, const char* file, unsigned char** px, int* w,
                     int* h, int* srgb, char* err, int errsz) {
  if (mj_readPNGColor(file, s->nchannel, px, w, h, srgb, err, errsz)) return -1;
  flip(*px, *w, *h, s->nchannel, s->hflip, s->vflip);
  return 0;
}

// the face index of a gridlayout symbol, -1 for '.', -2 for anything else
static int faceOf(char ch) {
  static const char faces[] = "RLUDFB";
  if (ch == '.') return -1;
  const char* p = ch ? strchr(faces, ch) : NULL;
  return p ? (int)(p - faces) : -2;
}

// fill missing cube faces with rgb1 as 3-byte pixels from byte 3 w^2 f, clipped to the buffer
static void fillFaces(const mjTextureSpec* s, const int have[6], int w, unsigned char* data,
                      size_t size) {
  for (int f = 0; f < 6; f++) {
    if (have[f]) continue;
    for (size_t i = (size_t)w * w * f; i < (size_t)w * w * (f + 1) && 3 * i + 3 <= size; i++)
      putRGB(data + 3 * i, s->rgb1);
  }
}

// a 2d texture, a single-image cube, or a cube from a grid of cells of one file
static int fileTexture(const mjTextureSpec* s, mjTexture* tex, char* err, int errsz) {
  unsigned char* px;
  int w, h, srgb, n = s->nchannel;
  if (readImage(s, s->file, &px, &w, &h, &srgb, err, errsz)) return -1;
  tex->colorspace = srgb ? mjCOLORSPACE_SRGB : mjCOLORSPACE_LINEAR;
  if (s->type == mjTEXTURE_2D) {
    tex->width = w, tex->height = h, tex->data = px;
    return 0;
  }
  // cube or skybox: square cells of a rows x cols grid
  int rows = s->gridsize[0], cols = s->gridsize[1];
  if (w % cols || h % rows || w / cols != h / rows) {
    mj_ioError(err, errsz, "%s: image size %dx%d is not a grid of %dx%d square cells", s->file,
               w, h, rows, cols);
    free(px);
    return -1;
  }
  int side = w / cols;
  if (rows * cols == 1) {
    tex->width = tex->height = side, tex->data = px;
    return 0;
  }
  size_t size = (size_t)side * side * 6 * n;
  tex->width = side, tex->height = 6 * side;
  tex->data = calloc(size, 1);
  if (!tex->data) {
    free(px);
    mj_ioError(err, errsz, "out of memory");
    return -1;
  }
  // copy each used cell to its face (a repeated face: the last cell wins), then fill the rest
  int have[6] = {0};
  for (int cell = 0; cell < rows * cols; cell++) {
    int f = faceOf(s->gridlayout[cell]);
    if (f < 0) continue;
    have[f] = 1;
    for (int r = 0; r < side; r++)
      memcpy(tex->data + ((size_t)f * side + r) * side * n,
             px + (((size_t)(cell / cols) * side + r) * w + (size_t)(cell % cols) * side) * n,
             (size_t)side * n);
  }
  free(px);
  fillFaces(s, have, side, tex->data, size);
  return 0;
}

// a cube from six files, each square and of one size, in the color space of the first; missing
// faces filled with rgb1
static int cubeFiles(const mjTextureSpec* s, mjTexture* tex, char* err, int errsz) {
  int n = s->nchannel, side = 0, have[6] = {0}, firstsrgb = 0;
  unsigned char* img[6] = {NULL};
  for (int f = 0; f < 6; f++) {
    int w, h, srgb;
    if (!s->cubefiles[f]) continue;
    if (readImage(s, s->cubefiles[f], &img[f], &w, &h, &srgb, err, errsz)) goto fail;
    if (w != h) {
      mj_ioError(err, errsz, "%s: cube face is not square (%dx%d)", s->cubefiles[f], w, h);
      goto fail;
    }
    if (side && w != side) {
      mj_ioError(err, errsz, "%s: cube face is %dx%d, the first face is %dx%d",
                 s->cubefiles[f], w, h, side, side);
      goto fail;
    }
    if (!side) firstsrgb = srgb;
    side = w, have[f] = 1;
  }
  if (!side) {
    mj_ioError(err, errsz, "texture has no file, no cube face files and no builtin");
    return -1;
  }
  size_t size = (size_t)side * side * 6 * n, face = (size_t)side * side * n;
  tex->data = calloc(size, 1);
  if (!tex->data) {
    mj_ioError(err, errsz, "out of memory");
    goto fail;
  }
  for (int f = 0; f < 6; f++)
    if (img[f]) memcpy(tex->data + face * f, img[f], face);
  fillFaces(s, have, side, tex->data, size);
  for (int f = 0; f < 6; f++) free(img[f]);
  tex->width = side, tex->height = 6 * side;
  tex->colorspace = firstsrgb ? mjCOLORSPACE_SRGB : mjCOLORSPACE_LINEAR;
  return 0;
fail:
  for (int f = 0; f < 6; f++) free(img[f]);
  return -1;
}

// ---- the texture ---------------------------------------------------------------------------

// check the spec, then build a procedural texture or read its files
int mj_makeTexture(const mjTextureSpec* s, mjTexture* tex, char* err, int errsz) {
  memset(tex, 0, sizeof(*tex));
  tex->nchannel = s->nchannel;
  if (s->nchannel < 1) {
    mj_ioError(err, errsz, "texture nchannel %d must be positive", s->nchannel);
    return -1;
  }
  if (s->builtin == mjBUILTIN_NONE) {
    // files: 1, 3 or 4 channels; the grid has at most 12 cells, one symbol each
    if (s->nchannel != 1 && s->nchannel != 3 && s->nchannel != 4) {
      mj_ioError(err, errsz, "texture file with %d channels (1, 3 or 4 allowed)", s->nchannel);
      return -1;
    }
    int cells = s->gridsize[0] * s->gridsize[1];
    if (s->gridsize[0] < 1 || s->gridsize[1] < 1 || cells > 12) {
      mj_ioError(err, errsz, "texture gridsize %d %d: positive, at most 12 cells",
                 s->gridsize[0], s->gridsize[1]);
      return -1;
    }
    for (int i = 0; i < cells; i++)
      if (faceOf(s->gridlayout[i]) == -2) {
        mj_ioError(err, errsz, "texture gridlayout symbol '%c' is not among '.RLUDFB'",
                   s->gridlayout[i]);
        return -1;
      }
    if (s->file) {
      if (fileTexture(s, tex, err, errsz)) return -1;
    } else if (s->type == mjTEXTURE_2D) {
      mj_ioError(err, errsz, "2d texture needs a file or a builtin");
      return -1;
    } else if (cubeFiles(s, tex, err, errsz)) {
      return -1;
    }
  } else {
    // procedural: 3-byte pixels copied into nchannel-byte pixels, the rest zero
    int w = s->width, h = s->type == mjTEXTURE_2D ? s->height : 6 * s->width;
    if (w < 1 || h < 1 || (double)w * h > MAXPIXELS) {
      mj_ioError(err, errsz, "builtin texture size %dx%d is outside 1..%d pixels", w,
                 s->type == mjTEXTURE_2D ? s->height : w, MAXPIXELS);
      return -1;
    }
    if ((double)w * h * s->nchannel > 4.0 * MAXPIXELS) {
      mj_ioError(err, errsz, "builtin texture of %dx%d pixels with %d channels is too large",
                 w, h, s->nchannel);
      return -1;
    }
    size_t size = (size_t)w * h * s->nchannel, rgbsize = (size_t)w * h * 3;
    unsigned char* rgb = malloc(rgbsize);
    int* mirror = malloc((size_t)w * sizeof(int));
    tex->data = calloc(size, 1);
    if (!rgb || !mirror || !tex->data) {
      free(rgb);
      free(mirror);
      free(tex->data);
      tex->data = NULL;
      mj_ioError(err, errsz, "out of memory");
      return -1;
    }
    builtinTexture(s, w, h, mirror, rgb);
    memcpy(tex->data, rgb, size < rgbsize ? size : rgbsize);
    free(rgb);
    free(mirror);
    tex->width = w, tex->height = h;
    tex->colorspace = mjCOLORSPACE_AUTO;
  }
  // an explicit color space overrides the file's
  if (s->colorspace != mjCOLORSPACE_AUTO) tex->colorspace = s->colorspace;
  return 0;
}
