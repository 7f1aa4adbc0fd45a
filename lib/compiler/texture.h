// texture.h: texture images as MuJoCo 3.5.1 builds them, byte for byte: the procedural
// textures (gradient, checker, flat, with edge, cross or random marks) and textures read from
// PNG files (2d; cube and skybox from one square image, from a grid of cells, or from six files).
//
//   mjTextureSpec s;
//   mj_defaultTextureSpec(&s);
//   s.type = mjTEXTURE_2D, s.builtin = mjBUILTIN_CHECKER, s.width = s.height = 100;
//   mjTexture t;
//   if (mj_makeTexture(&s, &t, err, sizeof(err))) ... one-line message in err ...
//   ... t.data: t.width x t.height pixels of t.nchannel bytes, row-major, top row first ...
//   free(t.data);
//
// A cube or skybox image is six square faces stacked vertically in the order right (+X), left
// (-X), up (+Y), down (-Y), front (+Z), back (-Z), except a cube or skybox read from one square
// image with gridsize 1 1: that image is stored once.
//
// Where MuJoCo's bytes follow from quirks rather than from the documentation, this code does
// the same so that models compare equal:
//   - procedural pixels and the rgb1 fill of missing cube faces are written as 3-byte pixels
//     whatever nchannel is (nchannel 4 leaves the tail zero, nchannel 1 keeps the first bytes);
//   - a color channel is 255 * value truncated toward zero, negative values give 0 and values
//     past 255 wrap modulo 256 (what MuJoCo's WebAssembly build does);
//   - random marks draw from a 64-bit Mersenne twister (mt19937_64) seeded with 42 for every
//     texture, one uniform number in [0, 1) per pixel in row-major order over the whole image.
#ifndef MJ_TEXTURE_H
#define MJ_TEXTURE_H

#include "mj.h"

typedef enum { mjBUILTIN_NONE = 0, mjBUILTIN_GRADIENT, mjBUILTIN_CHECKER, mjBUILTIN_FLAT }
  mjtBuiltin;
typedef enum { mjMARK_NONE = 0, mjMARK_EDGE, mjMARK_CROSS, mjMARK_RANDOM } mjtMark;
typedef enum { mjCOLORSPACE_AUTO = 0, mjCOLORSPACE_LINEAR, mjCOLORSPACE_SRGB } mjtColorSpace;

// what a <texture> element says (file paths already resolved against the texture directory)
typedef struct {
  int type;                   // mjtTexture
  int builtin;                // mjtBuiltin
  int mark;                   // mjtMark
  double rgb1[3], rgb2[3];    // procedural colors; rgb1 also fills missing cube faces
  double markrgb[3];          // mark color
  double random;              // probability of a random mark per pixel
  int width, height;          // procedural size (cube and skybox: height is 6 * width)
  int nchannel;               // bytes per pixel: 1, 3 or 4 for files
  int colorspace;             // mjtColorSpace; auto: sRGB when the PNG file says so, else linear
  int hflip, vflip;           // mirror file images left-right, top-bottom
  int gridsize[2];            // rows, columns of the cells of a single cube or skybox image
  char gridlayout[13];        // a cell's face among "RLUDFB", '.' unused (row-major)
  const char* file;           // one image file, or NULL
  const char* cubefiles[6];   // right, left, up, down, front, back files, or NULL each
} mjTextureSpec;

// a built texture
typedef struct {
  int width, height, nchannel, colorspace;
  unsigned char* data;        // width * height * nchannel bytes (malloc'ed)
} mjTexture;

// the defaults of MuJoCo's <texture>: cube, no builtin, rgb1 0.8, rgb2 0.5, random 0.01,
// 3 channels, gridsize 1 1, layout all '.'
void mj_defaultTextureSpec(mjTextureSpec* s);

// build the texture; 0 on success, -1 with a one-line message in err (bad size, channel count
// or grid, unreadable or broken PNG file, faces of different sizes)
int mj_makeTexture(const mjTextureSpec* s, mjTexture* tex, char* err, int errsz);

#endif
