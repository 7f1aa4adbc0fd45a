// image.h: PNG images (through libpng) for textures and height fields.  (Not named png.h:
// with -Ilib that name would hide libpng's own <png.h>.)
//
//   unsigned char* px; int w, h; char err[200];
//   if (mj_readPNG("a.png", 3, &px, &w, &h, err, sizeof(err))) { puts(err); return; }
//   ... px[(r*w + c)*3 + k] is channel k of row r (top row first), column c ...
//   free(px);
//
// Every PNG color type and bit depth is accepted and converted to 8 bits per channel the way
// MuJoCo's decoder does: 16-bit samples keep their high byte, palettes and gray expand to RGB,
// transparency (tRNS) becomes alpha, a missing alpha is 255, and gray output (nchannel 1) is
// the red channel.  Interlaced files are accepted.
#ifndef MJ_IMAGE_H
#define MJ_IMAGE_H

#include <stddef.h>
#include <stdio.h>

// largest image accepted, in pixels (refused before any pixel memory is allocated)
#define MJ_PNG_MAXPIXELS (1 << 26)

// read the PNG file `file` as 8-bit pixels with nchannel (1 gray, 2 gray+alpha, 3 RGB, 4 RGBA)
// channels each; on success *pixels (malloc'ed, the caller frees) holds width*height*nchannel
// bytes, row-major from the top row, and 0 is returned; on failure *pixels is NULL, err holds
// "file: message" (missing file, not a PNG, corrupt or truncated data, size limit) and -1 is
// returned
int mj_readPNG(const char* file, int nchannel, unsigned char** pixels, int* width, int* height,
               char* err, int errsz);

// mj_readPNG that also reports in *srgb whether the file has an sRGB chunk (1) or not (0)
int mj_readPNGColor(const char* file, int nchannel, unsigned char** pixels, int* width,
                    int* height, int* srgb, char* err, int errsz);

// write a PNG image to the open file f (named `name` in messages): 8-bit RGB (depth16 0: 3 bytes
// a pixel) or 16-bit gray (depth16 1: one native uint16_t a pixel), width x height pixels
// row-major from the top row, compressed for speed (zlib level 1, memory level 6, rows
// unfiltered); 0, or -1 and "name: message" in err
int mj_writePNG(FILE* f, const char* name, const void* pixels, int width, int height,
                int depth16, char* err, int errsz);

// mj_readPNGColor on the file's bytes held in memory; name is used in messages only
int mj_decodePNG(const char* name, const void* data, size_t len, int nchannel,
                 unsigned char** pixels, int* width, int* height, int* srgb, char* err,
                 int errsz);

#endif
