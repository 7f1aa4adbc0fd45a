// image.c: PNG files into 8-bit pixel arrays through libpng (see image.h).
#include "compiler/image.h"

#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util_file.h"

// the largest PNG file read (bytes), far beyond the pixel limit's compressed size
#define MAXPNGFILE (1L << 30)

// the reader's state, reached from libpng's callbacks
typedef struct {
  const unsigned char* p;  // the bytes not yet passed to libpng
  size_t left;             // their count
  int truncated;           // the file ended inside the image
  char msg[128];           // libpng's error message
} Reader;

// libpng read callback: the next n bytes; fewer left means a truncated file
static void readData(png_structp png, png_bytep buf, size_t n) {
  Reader* r = png_get_io_ptr(png);
  if (r->left < n) {
    r->truncated = 1;
    png_error(png, "truncated");
  }
  memcpy(buf, r->p, n);
  r->p += n;
  r->left -= n;
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
  // text chunks are skipped (a compressed one can inflate to GBs), and ICC profiles: libpng
  // would take a known sRGB profile for an sRGB chunk, where MuJoCo reads the chunk alone as
  // sRGB (a profile alone is linear); other ancillary chunks are held to 16 MB
  static const png_byte skipped[] = "tEXt\0zTXt\0iTXt\0eXIf\0iCCP";
  png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, skipped, 5);
  png_set_chunk_malloc_max(png, 1 << 24);
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

// check the signature and the size, decode, convert the channels
int mj_decodePNG(const char* name, const void* data, size_t len, int nchannel,
                 unsigned char** pixels, int* width, int* height, int* srgb, char* err,
                 int errsz) {
  *pixels = NULL;
  if (nchannel < 1 || nchannel > 4) {
    mj_ioError(err, errsz, "%s: %d channels requested (1 to 4 allowed)", name, nchannel);
    return -1;
  }
  // the 8-byte signature tells a PNG file from anything else
  const unsigned char* b = data;
  if (len < 8 || png_sig_cmp(b, 0, 8)) {
    mj_ioError(err, errsz, len ? "%s: not a PNG file" : "%s: empty file", name);
    return -1;
  }
  // the IHDR chunk comes first: refuse absurd sizes before libpng reads further
  if (len >= 24 && !memcmp(b + 12, "IHDR", 4)) {
    uint32_t w = (uint32_t)b[16] << 24 | b[17] << 16 | b[18] << 8 | b[19];
    uint32_t h = (uint32_t)b[20] << 24 | b[21] << 16 | b[22] << 8 | b[23];
    if (w == 0 || h == 0 || (uint64_t)w * h > MJ_PNG_MAXPIXELS) {
      mj_ioError(err, errsz, "%s: PNG image size %ux%u is outside 1..%d pixels", name,
                 (unsigned)w, (unsigned)h, MJ_PNG_MAXPIXELS);
      return -1;
    }
  }
  Reader r = {.p = b + 8, .left = len - 8};
  unsigned char* rgba;
  if (decode(&r, name, &rgba, width, height, srgb, err, errsz)) return -1;
  packChannels(rgba, (size_t)*width * *height, nchannel);
  *pixels = rgba;
  return 0;
}

// read the whole file, then decode it from memory
int mj_readPNGColor(const char* file, int nchannel, unsigned char** pixels, int* width,
                    int* height, int* srgb, char* err, int errsz) {
  *pixels = NULL;
  long len;
  unsigned char* buf = mj_readFile(file, "PNG file", MAXPNGFILE, &len, err, errsz);
  if (!buf) return -1;
  int res = mj_decodePNG(file, buf, (size_t)len, nchannel, pixels, width, height, srgb, err,
                         errsz);
  free(buf);
  return res;
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
  // zlib's fastest matching level on unfiltered rows, with a 16K-entry hash table (memory
  // level 6): on rendered frames fewer instructions than run-lengths of "sub"-filtered rows
  // (about 28 M against 45 M at 640x480) and smaller files
  png_set_compression_level(png, 1);
  png_set_compression_mem_level(png, 6);
  png_set_filter(png, 0, PNG_FILTER_NONE);
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
