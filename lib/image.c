// image.c: PNG files into 8-bit pixel arrays through libpng (see image.h).
#include "image.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "io.h"

// the reader's state, reached from libpng's callbacks
typedef struct {
  FILE* f;
  unsigned char head[16];  // the bytes after the signature, read ahead to check the size
  size_t nhead, used;      // bytes in head, bytes of head passed to libpng
  int truncated;           // the file ended inside the image
  char msg[128];           // libpng's error message
} Reader;

// libpng read callback: the read-ahead bytes first, then the file; a short read means a
// truncated file
static void readData(png_structp png, png_bytep buf, size_t n) {
  Reader* r = png_get_io_ptr(png);
  size_t k = r->nhead - r->used < n ? r->nhead - r->used : n;
  memcpy(buf, r->head + r->used, k);
  r->used += k;
  if (fread(buf + k, 1, n - k, r->f) != n - k) {
    r->truncated = 1;
    png_error(png, "truncated");
  }
}

// libpng error callback: keep the message, unwind to the setjmp in mj_readPNG
static void onError(png_structp png, png_const_charp msg) {
  Reader* r = png_get_error_ptr(png);
  snprintf(r->msg, sizeof(r->msg), "%s", msg);
  png_longjmp(png, 1);
}

// libpng warning callback: warnings (e.g. odd color profiles) are not errors and print nothing
static void onWarning(png_structp png, png_const_charp msg) {
  (void)png, (void)msg;
}

// convert RGBA pixels in place to nchannel channels (gray is the red channel)
static void packChannels(unsigned char* px, size_t npixel, int nchannel) {
  for (size_t i = 0; i < npixel; i++) {
    const unsigned char* s = px + 4 * i;
    unsigned char* d = px + (size_t)nchannel * i;
    unsigned char r = s[0], g = s[1], b = s[2], a = s[3];
    if (nchannel == 1) d[0] = r;
    else if (nchannel == 2) d[0] = r, d[1] = a;
    else if (nchannel == 3) d[0] = r, d[1] = g, d[2] = b;
    else d[0] = r, d[1] = g, d[2] = b, d[3] = a;
  }
}

// decode an opened file into RGBA rows; 0 on success, -1 with err on failure
static int decode(Reader* r, const char* file, unsigned char** rgba, int* width, int* height,
                  int* srgb, char* err, int errsz) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, r, onError, onWarning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  png_bytep* volatile rows = NULL;
  unsigned char* volatile buf = NULL;
  if (!info) {
    png_destroy_read_struct(&png, NULL, NULL);
    mj_ioError(err, errsz, "%s: out of memory", file);
    return -1;
  }
  if (setjmp(png_jmpbuf(png))) {
    // libpng failed: truncated data, bad CRC, bad chunk
    if (r->truncated) mj_ioError(err, errsz, "%s: truncated PNG file", file);
    else mj_ioError(err, errsz, "%s: corrupt PNG file (%s)", file, r->msg);
    free(rows);
    free(buf);
    png_destroy_read_struct(&png, &info, NULL);
    return -1;
  }
  png_set_read_fn(png, r, readData);
  png_set_sig_bytes(png, 8);
  png_read_info(png, info);
  png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
  *srgb = png_get_valid(png, info, PNG_INFO_sRGB) != 0;

  // every color type and depth to 8-bit RGBA
  png_set_expand(png);
  png_set_strip_16(png);
  png_set_gray_to_rgb(png);
  png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);

  // rows point into one RGBA buffer
  buf = malloc((size_t)w * h * 4);
  rows = malloc(h * sizeof(png_bytep));
  if (!buf || !rows) png_error(png, "out of memory");
  for (png_uint_32 i = 0; i < h; i++) rows[i] = buf + (size_t)i * w * 4;
  png_read_image(png, rows);
  png_read_end(png, NULL);
  free(rows);
  png_destroy_read_struct(&png, &info, NULL);
  *rgba = buf;
  *width = (int)w;
  *height = (int)h;
  return 0;
}

// open, check the signature, decode, convert the channels
int mj_readPNGColor(const char* file, int nchannel, unsigned char** pixels, int* width,
                    int* height, int* srgb, char* err, int errsz) {
  *pixels = NULL;
  if (nchannel < 1 || nchannel > 4) {
    mj_ioError(err, errsz, "%s: %d channels requested (1 to 4 allowed)", file, nchannel);
    return -1;
  }
  Reader r = {.f = fopen(file, "rb")};
  if (!r.f) {
    mj_ioError(err, errsz, "%s: %s", file, strerror(errno));
    return -1;
  }

  // the 8-byte signature tells a PNG file from anything else
  unsigned char sig[8];
  size_t nsig = fread(sig, 1, 8, r.f);
  if (nsig < 8 || png_sig_cmp(sig, 0, 8)) {
    mj_ioError(err, errsz, nsig ? "%s: not a PNG file" : "%s: empty file", file);
    fclose(r.f);
    return -1;
  }
  // the IHDR chunk comes first: refuse absurd sizes before libpng reads further
  r.nhead = fread(r.head, 1, sizeof(r.head), r.f);
  if (r.nhead == sizeof(r.head) && !memcmp(r.head + 4, "IHDR", 4)) {
    uint32_t w = (uint32_t)r.head[8] << 24 | r.head[9] << 16 | r.head[10] << 8 | r.head[11];
    uint32_t h = (uint32_t)r.head[12] << 24 | r.head[13] << 16 | r.head[14] << 8 | r.head[15];
    if (w == 0 || h == 0 || (uint64_t)w * h > MJ_PNG_MAXPIXELS) {
      mj_ioError(err, errsz, "%s: PNG image size %ux%u is outside 1..%d pixels", file,
                 (unsigned)w, (unsigned)h, MJ_PNG_MAXPIXELS);
      fclose(r.f);
      return -1;
    }
  }
  unsigned char* rgba;
  int res = decode(&r, file, &rgba, width, height, srgb, err, errsz);
  fclose(r.f);
  if (res) return -1;
  packChannels(rgba, (size_t)*width * *height, nchannel);
  *pixels = rgba;
  return 0;
}

// mj_readPNGColor without the color space
int mj_readPNG(const char* file, int nchannel, unsigned char** pixels, int* width, int* height,
               char* err, int errsz) {
  int srgb;
  return mj_readPNGColor(file, nchannel, pixels, width, height, &srgb, err, errsz);
}

// ---- writing -----------------------------------------------------------------------------

// libpng write callback: into the FILE, a short write is an error
static void writeData(png_structp png, png_bytep buf, size_t n) {
  FILE* f = png_get_io_ptr(png);
  if (fwrite(buf, 1, n, f) != n) png_error(png, "write error");
}

// libpng flush callback: nothing (the caller flushes when it closes the file)
static void flushData(png_structp png) {
  (void)png;
}

// one image: the header, then every row; 16-bit samples swapped to PNG's big-endian order on
// little-endian machines
int mj_writePNG(FILE* f, const char* name, const void* pixels, int width, int height,
                int depth16, char* err, int errsz) {
  Reader msg = {0};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &msg, onError, onWarning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!info) {
    png_destroy_write_struct(&png, NULL);
    mj_ioError(err, errsz, "%s: out of memory", name);
    return -1;
  }
  if (setjmp(png_jmpbuf(png))) {
    mj_ioError(err, errsz, "%s: %s", name, msg.msg);
    png_destroy_write_struct(&png, &info);
    return -1;
  }
  png_set_write_fn(png, f, writeData, flushData);
  png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, depth16 ? 16 : 8,
               depth16 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, 1);
  png_set_compression_strategy(png, Z_RLE);
  png_set_filter(png, 0, PNG_FILTER_SUB);
  png_write_info(png, info);
  uint16_t one = 1;
  if (depth16 && *(unsigned char*)&one) png_set_swap(png);
  size_t stride = (size_t)width * (depth16 ? 2 : 3);
  for (int r = 0; r < height; r++)
    png_write_row(png, (png_const_bytep)pixels + (size_t)r * stride);
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  return 0;
}
