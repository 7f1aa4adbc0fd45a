// t/unit/compiler/texture.c: texture images (lib/compiler/texture.c) and PNG reading
// (lib/compiler/image.c) against bytes read from MuJoCo 3.5.1's compiled models (the full
// byte-for-byte comparison is t/oracle/texture/run.sh), and PNG writing read back.  Run from the
// repository root: the PNG files are t/oracle/texture/png/*.png.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/image.h"
#include "compiler/texture.h"

#define PNGDIR "t/oracle/texture/png/"

// build a texture from s, failing the test on error
static mjTexture make(const mjTextureSpec* s) {
  mjTexture t;
  char err[300];
  cr_assert_eq(mj_makeTexture(s, &t, err, sizeof(err)), 0, "%s", err);
  return t;
}

// the error message of a texture that must fail
static const char* failure(const mjTextureSpec* s) {
  static char err[300];
  mjTexture t;
  cr_assert_eq(mj_makeTexture(s, &t, err, sizeof(err)), -1, "no error");
  cr_assert_null(t.data);
  return err;
}

// a spec of a procedural texture
static mjTextureSpec builtin(int type, int builtin, int w, int h) {
  mjTextureSpec s;
  mj_defaultTextureSpec(&s);
  s.type = type, s.builtin = builtin, s.width = w, s.height = h;
  return s;
}

// ---- procedural textures -------------------------------------------------------------------

// a 4x4 checker: rgb1 in the top-left and bottom-right quadrants
Test(texture, checker2d) {
  mjTextureSpec s = builtin(mjTEXTURE_2D, mjBUILTIN_CHECKER, 4, 4);
  s.rgb1[0] = 1, s.rgb1[1] = s.rgb1[2] = 0;
  s.rgb2[0] = s.rgb2[1] = 0, s.rgb2[2] = 1;
  mjTexture t = make(&s);
  cr_assert_eq(t.width, 4);
  cr_assert_eq(t.height, 4);
  cr_assert_eq(t.nchannel, 3);
  cr_assert_eq(t.colorspace, mjCOLORSPACE_AUTO);
  static const unsigned char row0[12] = {255, 0, 0, 255, 0, 0, 0, 0, 255, 0, 0, 255};
  static const unsigned char row2[12] = {0, 0, 255, 0, 0, 255, 255, 0, 0, 255, 0, 0};
  cr_assert_arr_eq(t.data, row0, 12);
  cr_assert_arr_eq(t.data + 12, row0, 12);
  cr_assert_arr_eq(t.data + 24, row2, 12);
  free(t.data);
}

// a 10x10 gradient from red (center) to blue (outside the inscribed circle): MuJoCo's red bytes
Test(texture, gradient2d) {
  mjTextureSpec s = builtin(mjTEXTURE_2D, mjBUILTIN_GRADIENT, 10, 10);
  s.rgb1[0] = 1, s.rgb1[1] = s.rgb1[2] = 0;
  s.rgb2[0] = s.rgb2[1] = 0, s.rgb2[2] = 1;
  mjTexture t = make(&s);
  static const unsigned char red[5][10] = {
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0},        {0, 0, 6, 24, 38, 38, 24, 6, 0, 0},
    {0, 6, 38, 76, 103, 103, 76, 38, 6, 0}, {0, 24, 76, 137, 178, 178, 137, 76, 24, 0},
    {0, 38, 103, 178, 229, 229, 178, 103, 38, 0}};
  for (int r = 0; r < 5; r++)
    for (int c = 0; c < 10; c++) {
      cr_assert_eq(t.data[3 * (10 * r + c)], red[r][c], "red (%d, %d)", r, c);
      cr_assert_eq(t.data[3 * (10 * (9 - r) + c)], red[r][c], "red (%d, %d)", 9 - r, c);
    }
  // blue is 255 - red - 1 inside (both truncated), 255 outside
  cr_assert_eq(t.data[3 * 44 + 2], 25);
  cr_assert_eq(t.data[2], 255);
  free(t.data);
}

// a 9-wide cube gradient: six faces; the top row of a side face, the up face's center
Test(texture, gradientCube) {
  mjTextureSpec s = builtin(mjTEXTURE_CUBE, mjBUILTIN_GRADIENT, 9, 0);
  s.rgb1[0] = 1, s.rgb1[1] = s.rgb1[2] = 0;
  s.rgb2[0] = s.rgb2[1] = 0, s.rgb2[2] = 1;
  mjTexture t = make(&s);
  cr_assert_eq(t.height, 54);
  static const unsigned char top[9] = {193, 198, 203, 206, 208, 206, 203, 198, 193};
  for (int f = 0; f < 6; f++) {
    if (f == 2 || f == 3) continue;
    for (int c = 0; c < 9; c++) cr_assert_eq(t.data[3 * (81 * f + c)], top[c], "face %d", f);
    cr_assert_eq(t.data[3 * (81 * f + 36)], 127, "face %d middle", f);
  }
  cr_assert_eq(t.data[3 * (81 * 2 + 40)], 255);
  cr_assert_eq(t.data[3 * (81 * 3 + 40) + 2], 255);
  free(t.data);
}

// a flat cube: rgb1 everywhere but the down face (rgb2); channels truncate 255 * value
Test(texture, flatCube) {
  mjTextureSpec s = builtin(mjTEXTURE_CUBE, mjBUILTIN_FLAT, 3, 5);
  s.rgb1[0] = s.rgb1[1] = s.rgb1[2] = 0.3;
  s.rgb2[0] = s.rgb2[1] = s.rgb2[2] = 0.6;
  mjTexture t = make(&s);
  cr_assert_eq(t.height, 18);
  for (int i = 0; i < 54; i++)
    cr_assert_eq(t.data[3 * i], i / 9 == 3 ? 153 : 76, "pixel %d", i);
  free(t.data);
}

// edge and cross marks: one-pixel borders; the middle row h/2 and column w/2
Test(texture, marks) {
  mjTextureSpec s = builtin(mjTEXTURE_2D, mjBUILTIN_FLAT, 6, 5);
  s.mark = mjMARK_CROSS;
  s.markrgb[0] = 1;
  s.rgb1[0] = 0.3;
  mjTexture t = make(&s);
  for (int r = 0; r < 5; r++)
    for (int c = 0; c < 6; c++)
      cr_assert_eq(t.data[3 * (6 * r + c)], r == 2 || c == 3 ? 255 : 76, "(%d, %d)", r, c);
  free(t.data);
  s.mark = mjMARK_EDGE;
  t = make(&s);
  for (int r = 0; r < 5; r++)
    for (int c = 0; c < 6; c++)
      cr_assert_eq(t.data[3 * (6 * r + c)], r % 4 == 0 || c % 5 == 0 ? 255 : 76, "(%d, %d)", r,
                   c);
  free(t.data);
}

// random marks: mt19937_64 seeded with 42, one draw per pixel: MuJoCo's first row at p = 0.5
// and p = 0.1 (a subset: the same draws)
Test(texture, randomMarks) {
  mjTextureSpec s = builtin(mjTEXTURE_2D, mjBUILTIN_FLAT, 16, 8);
  s.rgb1[0] = s.rgb1[1] = s.rgb1[2] = 0;
  s.markrgb[0] = s.markrgb[1] = s.markrgb[2] = 1;
  s.mark = mjMARK_RANDOM;
  const char* want[2] = {"0001010111100000", "0000010000100000"};
  double p[2] = {0.5, 0.1};
  for (int k = 0; k < 2; k++) {
    s.random = p[k];
    mjTexture t = make(&s);
    for (int c = 0; c < 16; c++)
      cr_assert_eq(t.data[3 * c] == 255, want[k][c] == '1', "p %g column %d", p[k], c);
    free(t.data);
  }
}

// MuJoCo writes procedural pixels as 3 bytes whatever nchannel: 4 channels leave a zero tail
Test(texture, builtinChannels) {
  mjTextureSpec s = builtin(mjTEXTURE_2D, mjBUILTIN_CHECKER, 2, 2);
  s.nchannel = 4;
  mjTexture t = make(&s);
  static const unsigned char want[16] = {204, 204, 204, 127, 127, 127, 127, 127,
                                         127, 204, 204, 204, 0,   0,   0,   0};
  cr_assert_arr_eq(t.data, want, 16);
  free(t.data);
}

// colors outside [0, 1]: negative gives 0, past 255 wraps (MuJoCo's WebAssembly build)
Test(texture, outOfRange) {
  mjTextureSpec s = builtin(mjTEXTURE_2D, mjBUILTIN_FLAT, 1, 1);
  s.rgb1[0] = 2, s.rgb1[1] = -1, s.rgb1[2] = 1.5;
  mjTexture t = make(&s);
  cr_assert_eq(t.data[0], 254);
  cr_assert_eq(t.data[1], 0);
  cr_assert_eq(t.data[2], 126);
  free(t.data);
}

// sizes: a zero-width builtin fails
Test(texture, badBuiltin) {
  mjTextureSpec s = builtin(mjTEXTURE_2D, mjBUILTIN_CHECKER, 0, 3);
  cr_assert(strstr(failure(&s), "size 0x3"), "%s", failure(&s));
}

// ---- PNG files -----------------------------------------------------------------------------

// rgb.png (6x4): pixel (r, c) channel k is 37 r + 11 c + 71 k
Test(png, read) {
  unsigned char* px;
  int w, h, srgb;
  char err[300];
  cr_assert_eq(mj_readPNGColor(PNGDIR "rgb.png", 3, &px, &w, &h, &srgb, err, sizeof(err)), 0,
               "%s", err);
  cr_assert_eq(w, 6);
  cr_assert_eq(h, 4);
  cr_assert_eq(srgb, 0);
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 6; c++)
      for (int k = 0; k < 3; k++)
        cr_assert_eq(px[3 * (6 * r + c) + k], (37 * r + 11 * c + 71 * k) & 255);
  free(px);
  // one channel is the red channel; 4 channels add alpha 255
  cr_assert_eq(mj_readPNG(PNGDIR "rgb.png", 1, &px, &w, &h, err, sizeof(err)), 0, "%s", err);
  cr_assert_eq(px[7], 37 + 11);
  free(px);
  cr_assert_eq(mj_readPNG(PNGDIR "rgb.png", 4, &px, &w, &h, err, sizeof(err)), 0, "%s", err);
  cr_assert_eq(px[3], 255);
  free(px);
  cr_assert_eq(mj_readPNGColor(PNGDIR "srgb.png", 3, &px, &w, &h, &srgb, err, sizeof(err)), 0);
  cr_assert_eq(srgb, 1);
  free(px);
}

// a palette with transparency: colors from PLTE, alpha from tRNS
Test(png, palette) {
  unsigned char* px;
  int w, h;
  char err[300];
  cr_assert_eq(mj_readPNG(PNGDIR "palette.png", 4, &px, &w, &h, err, sizeof(err)), 0, "%s", err);
  static const unsigned char want[16] = {255, 0, 0, 255, 0, 255, 0, 128,
                                         0,   0, 255, 255, 9, 99, 199, 255};
  cr_assert_arr_eq(px, want, 16);
  free(px);
}

// write n bytes of buf to a scratch file and return its name
static const char* scratch(const char* name, const void* buf, size_t n) {
  static char path[256];
  snprintf(path, sizeof(path), "/tmp/mjtex-%d-%s", (int)getpid(), name);
  FILE* f = fopen(path, "wb");
  cr_assert_not_null(f);
  cr_assert_eq(fwrite(buf, 1, n, f), n);
  fclose(f);
  return path;
}

// the file's bytes (at most 4096)
static size_t slurp(const char* file, unsigned char* buf) {
  FILE* f = fopen(file, "rb");
  cr_assert_not_null(f);
  size_t n = fread(buf, 1, 4096, f);
  fclose(f);
  return n;
}

// a missing, empty, foreign, truncated or absurdly large file: NULL pixels and one message
Test(png, errors) {
  unsigned char *px = (unsigned char*)1, buf[4096];
  int w, h;
  char err[300];
  cr_assert_eq(mj_readPNG("no/such.png", 3, &px, &w, &h, err, sizeof(err)), -1);
  cr_assert_null(px);
  cr_assert(strstr(err, "PNG file 'no/such.png': No such file"), "%s", err);
  const char* f = scratch("empty.png", "", 0);
  cr_assert_eq(mj_readPNG(f, 3, &px, &w, &h, err, sizeof(err)), -1);
  cr_assert(strstr(err, "empty file"), "%s", err);
  f = scratch("text.png", "hello, world\n", 13);
  cr_assert_eq(mj_readPNG(f, 3, &px, &w, &h, err, sizeof(err)), -1);
  cr_assert(strstr(err, "not a PNG file"), "%s", err);
  size_t n = slurp(PNGDIR "rgb.png", buf);
  f = scratch("cut.png", buf, n - 30);
  cr_assert_eq(mj_readPNG(f, 3, &px, &w, &h, err, sizeof(err)), -1);
  cr_assert(strstr(err, "truncated PNG file"), "%s", err);
  // flip a byte of the IHDR's CRC
  buf[30] ^= 0xff;
  f = scratch("crc.png", buf, n);
  cr_assert_eq(mj_readPNG(f, 3, &px, &w, &h, err, sizeof(err)), -1);
  cr_assert(strstr(err, "corrupt PNG file"), "%s", err);
  buf[30] ^= 0xff;
  // a height of 2^24 rows: refused from the header
  buf[20] = 1;
  f = scratch("huge.png", buf, n);
  cr_assert_eq(mj_readPNG(f, 3, &px, &w, &h, err, sizeof(err)), -1);
  cr_assert(strstr(err, "size 6x16777220 is outside"), "%s", err);
  cr_assert_eq(mj_readPNG(PNGDIR "rgb.png", 2 + 3, &px, &w, &h, err, sizeof(err)), -1);
  cr_assert(strstr(err, "5 channels"), "%s", err);
  remove(scratch("empty.png", "", 0));
  remove(scratch("text.png", "", 0));
  remove(scratch("cut.png", "", 0));
  remove(scratch("crc.png", "", 0));
  remove(scratch("huge.png", "", 0));
}

// ---- textures from files -------------------------------------------------------------------

// a spec of a texture from files
static mjTextureSpec files(int type, const char* file) {
  mjTextureSpec s;
  mj_defaultTextureSpec(&s);
  s.type = type, s.file = file;
  return s;
}

// flips mirror the image before anything else
Test(texture, flips) {
  mjTextureSpec s = files(mjTEXTURE_2D, PNGDIR "rgb.png");
  s.hflip = s.vflip = 1;
  mjTexture t = make(&s);
  cr_assert_eq(t.colorspace, mjCOLORSPACE_LINEAR);
  // pixel (0, 0) is the file's (3, 5)
  cr_assert_eq(t.data[0], 37 * 3 + 11 * 5);
  cr_assert_eq(t.data[3 * 23], 0);
  free(t.data);
}

// a 3x4 grid: each face is its cell (cell i holds 20 i); missing faces are rgb1
Test(texture, grid) {
  mjTextureSpec s = files(mjTEXTURE_SKYBOX, PNGDIR "grid.png");
  s.gridsize[0] = 3, s.gridsize[1] = 4;
  memcpy(s.gridlayout, ".U..LFRB.D..", 12);
  mjTexture t = make(&s);
  cr_assert_eq(t.width, 3);
  cr_assert_eq(t.height, 18);
  static const int cell[6] = {6, 4, 1, 9, 5, 7};
  for (int f = 0; f < 6; f++) cr_assert_eq(t.data[27 * f + 12], 20 * cell[f], "face %d", f);
  free(t.data);
  memcpy(s.gridlayout, "U..U........", 12);
  t = make(&s);
  cr_assert_eq(t.data[27 * 2], 60);
  cr_assert_eq(t.data[0], 204);
  free(t.data);
  // cells must be square and the layout's symbols known
  s.gridsize[0] = 2;
  cr_assert(strstr(failure(&s), "not a grid of 2x4 square cells"), "%s", failure(&s));
  s.gridsize[0] = 3, s.gridlayout[5] = 'X';
  cr_assert(strstr(failure(&s), "'X'"), "%s", failure(&s));
}

// one square image is stored once; six files, missing faces rgb1, all faces square and alike
Test(texture, cubeFiles) {
  mjTextureSpec s = files(mjTEXTURE_CUBE, PNGDIR "square.png");
  mjTexture t = make(&s);
  cr_assert_eq(t.width, 4);
  cr_assert_eq(t.height, 4);
  free(t.data);
  s = files(mjTEXTURE_CUBE, NULL);
  s.cubefiles[0] = PNGDIR "right.png";
  s.cubefiles[4] = PNGDIR "front.png";
  t = make(&s);
  cr_assert_eq(t.height, 18);
  cr_assert_eq(t.data[0], 53);
  cr_assert_eq(t.data[27], 204);
  cr_assert_eq(t.data[27 * 4], 9);
  free(t.data);
  s.cubefiles[1] = PNGDIR "nonsquare.png";
  cr_assert(strstr(failure(&s), "not square"), "%s", failure(&s));
  s.cubefiles[1] = PNGDIR "square.png";
  cr_assert(strstr(failure(&s), "the first face is 3x3"), "%s", failure(&s));
  s = files(mjTEXTURE_2D, NULL);
  cr_assert(strstr(failure(&s), "needs a file"), "%s", failure(&s));
}

// mj_writePNG's images read back by libpng unchanged: noise, long runs (matches longer than
// 258 bytes), one pixel, a row wider than a deflate block; and a 16-bit gray image's samples
// (libpng keeps their high bytes when it reads them as 8 bits)
Test(png, writeRoundTrip) {
  int sizes[4][2] = {{97, 61}, {1, 1}, {640, 3}, {30000, 2}};
  for (int k = 0; k < 4; k++) {
    int w = sizes[k][0], h = sizes[k][1];
    unsigned char* img = malloc((size_t)3 * w * h);
    unsigned seed = 12345;
    for (int i = 0; i < 3 * w * h; i++) {
      seed = seed * 1103515245 + 12345;
      img[i] = (unsigned char)(i % 700 < 350 ? (int)(seed >> 24) : i / 700);
    }
    char path[] = "/tmp/mjpngXXXXXX", err[300];
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE* f = fdopen(fd, "wb");
    cr_assert_eq(mj_writePNG(f, path, img, w, h, 0, err, sizeof(err)), 0, "%s", err);
    fclose(f);
    unsigned char* px;
    int rw, rh;
    cr_assert_eq(mj_readPNG(path, 3, &px, &rw, &rh, err, sizeof(err)), 0, "%s", err);
    cr_assert(rw == w && rh == h);
    cr_assert_eq(memcmp(px, img, (size_t)3 * w * h), 0, "%dx%d differs", w, h);
    free(px);

    // 16-bit gray: sample i = 257 (i mod 256) reads back as i mod 256 in every channel
    uint16_t* g = malloc((size_t)2 * w * h);
    for (int i = 0; i < w * h; i++) g[i] = (uint16_t)(257 * (i % 256));
    f = fopen(path, "wb");
    cr_assert_eq(mj_writePNG(f, path, g, w, h, 1, err, sizeof(err)), 0, "%s", err);
    fclose(f);
    cr_assert_eq(mj_readPNG(path, 3, &px, &rw, &rh, err, sizeof(err)), 0, "%s", err);
    for (int i = 0; i < w * h; i++) cr_assert_eq(px[3 * i + 1], i % 256, "gray %d", i);
    free(px), free(g), free(img);
    unlink(path);
  }
}
