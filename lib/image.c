// image.c: PNG files into 8-bit pixel arrays through libpng, and images into PNG files by an
// encoder of its own (see image.h).
#include "image.h"

#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "io.h"

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
  // text chunks are skipped (a compressed one can inflate to GBs) and other ancillary chunks
  // (ICC profiles) are held to 16 MB
  static const png_byte text[] = "tEXt\0zTXt\0iTXt\0eXIf";
  png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, text, 4);
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

// ---- writing: a PNG encoder of its own -------------------------------------------------------
//
// The rows are filtered with PNG's Sub filter (each byte minus the one a pixel before), then
// deflated in blocks of whole rows, each with a Huffman code made from its own byte counts and
// with runs of a repeated byte as matches at distance 1 (what zlib's Z_RLE strategy finds, in a
// fraction of zlib's time); the stream goes out in IDAT chunks of PNGCHUNK bytes.

#define PNGBLOCK (1 << 16)  // filtered bytes per deflate block (whole rows, at least one)
#define PNGCHUNK (1 << 16)  // compressed bytes per IDAT chunk
#define PNGNLIT 286         // deflate's literal/length symbols

// deflate's length codes 257..285: the shortest length of each and its extra bits
static const short lenBase[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                  31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const unsigned char lenExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                           2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};

// the order in which the code-length code's lengths are sent
static const unsigned char clOrder[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2,
                                          14, 1, 15};

// the encoder's state and scratch (one allocation per image)
typedef struct {
  FILE* f;
  int fail;                          // a write failed
  uint64_t bits;                     // bits not yet in chunk, the first in the lowest bit
  int nbits;
  size_t nchunk;                     // bytes in chunk
  unsigned char chunk[PNGCHUNK + 8]; // the IDAT payload being filled
  unsigned char lcode[259];          // length 3..258 -> its length code 0..28
  unsigned char* filt;               // a block's filtered rows (cap bytes)
  unsigned char* row;                // one row in PNG's byte order (16-bit: big-endian)
  uint16_t* tok;                     // a block's tokens: a byte, or 256 + a run length
} PngOut;

// one chunk: its length, type, data and the CRC-32 of type and data
static void putChunk(PngOut* o, const char* type, const unsigned char* data, size_t n) {
  unsigned char head[8] = {(unsigned char)(n >> 24), (unsigned char)(n >> 16),
                           (unsigned char)(n >> 8), (unsigned char)n};
  memcpy(head + 4, type, 4);
  uLong crc = crc32(0, head + 4, 4);
  if (n) crc = crc32(crc, data, (uInt)n);  // (a NULL data would restart the CRC)
  unsigned char tail[4] = {(unsigned char)(crc >> 24), (unsigned char)(crc >> 16),
                           (unsigned char)(crc >> 8), (unsigned char)crc};
  if (fwrite(head, 1, 8, o->f) != 8 || (n && fwrite(data, 1, n, o->f) != n)
      || fwrite(tail, 1, 4, o->f) != 4)
    o->fail = 1;
}

// append n <= 32 bits v to the stream (deflate's order: the lowest bit first); whole 32-bit
// words move into the chunk, a full chunk goes out as an IDAT
static inline void putBits(PngOut* o, uint32_t v, int n) {
  o->bits |= (uint64_t)v << o->nbits;
  o->nbits += n;
  if (o->nbits < 32) return;
  unsigned char* p = o->chunk + o->nchunk;
  p[0] = (unsigned char)o->bits, p[1] = (unsigned char)(o->bits >> 8);
  p[2] = (unsigned char)(o->bits >> 16), p[3] = (unsigned char)(o->bits >> 24);
  o->nchunk += 4, o->bits >>= 32, o->nbits -= 32;
  if (o->nchunk >= PNGCHUNK) putChunk(o, "IDAT", o->chunk, o->nchunk), o->nchunk = 0;
}

// the lengths of a Huffman code for counts freq[0..n) (0: unused), none past maxbits: the
// two-queue construction over the used symbols sorted by count; when a length passes maxbits
// the counts are halved (a used one stays at least 1) and the code rebuilt.  One used symbol
// gets a partner of the same length 1 so that the code is complete
static void huffLengths(const uint32_t* freq, int n, int maxbits, unsigned char* len) {
  uint32_t f[PNGNLIT], w[2 * PNGNLIT];
  int sym[PNGNLIT], up[2 * PNGNLIT], depth[2 * PNGNLIT];
  memcpy(f, freq, n * sizeof(*f));
  memset(len, 0, n);
  for (;;) {
    // the used symbols by ascending count (insertion sort: a few hundred at most)
    int m = 0;
    for (int i = 0; i < n; i++) {
      if (!f[i]) continue;
      int j = m++;
      for (; j > 0 && f[sym[j - 1]] > f[i]; j--) sym[j] = sym[j - 1];
      sym[j] = i;
    }
    if (m < 2) {
      if (m) len[sym[0]] = 1, len[sym[0] ? 0 : 1] = 1;
      return;
    }

    // merge the two lightest of the leaves (in order) and the inner nodes (made in order)
    for (int i = 0; i < m; i++) w[i] = f[sym[i]];
    int leaf = 0, inner = m, top = m;
    for (; top < 2 * m - 1; top++) {
      int pick[2];
      for (int k = 0; k < 2; k++)
        pick[k] = leaf < m && (inner >= top || w[leaf] <= w[inner]) ? leaf++ : inner++;
      w[top] = w[pick[0]] + w[pick[1]];
      up[pick[0]] = up[pick[1]] = top;
    }

    // depths from the root down; done when none passes maxbits
    int most = 0;
    depth[top - 1] = 0;
    for (int i = top - 2; i >= 0; i--) depth[i] = depth[up[i]] + 1;
    for (int i = 0; i < m; i++) most = depth[i] > most ? depth[i] : most;
    if (most <= maxbits) {
      for (int i = 0; i < m; i++) len[sym[i]] = (unsigned char)depth[i];
      return;
    }
    for (int i = 0; i < n; i++) f[i] = f[i] ? (f[i] >> 1) | 1 : 0;
  }
}

// the canonical codes of code lengths len[0..n) (RFC 1951, 3.2.2), bit-reversed for the
// lowest-bit-first stream
static void huffCodes(const unsigned char* len, int n, uint16_t* code) {
  int count[16] = {0}, next[16] = {0};
  for (int i = 0; i < n; i++) count[len[i]]++;
  count[0] = 0;
  for (int b = 1, c = 0; b < 16; b++) next[b] = c = (c + count[b - 1]) << 1;
  for (int i = 0; i < n; i++) {
    int c = len[i] ? next[len[i]]++ : 0, r = 0;
    for (int b = 0; b < len[i]; b++) r |= (c >> b & 1) << (len[i] - 1 - b);
    code[i] = (uint16_t)r;
  }
}

// the tokens of filtered bytes d[0..n) (d[-1] the byte before them when prev >= 0): a run of
// 3..258 bytes equal to the byte before is a match at distance 1, any other byte a literal;
// their symbol counts into freq; the token count
static size_t tokenize(PngOut* o, const unsigned char* d, size_t n, int prev, uint32_t* freq) {
  size_t nt = 0;
  for (size_t i = 0; i < n;) {
    int b = d[i];
    if (b == prev) {
      // the run's length: eight bytes at a time, then one by one
      size_t r = 1;
      uint64_t eight = b * 0x0101010101010101ull, w;
      for (; i + r + 8 <= n && r + 8 <= 258; r += 8) {
        memcpy(&w, d + i + r, 8);
        if (w != eight) break;
      }
      while (i + r < n && r < 258 && d[i + r] == b) r++;
      if (r >= 3) {
        o->tok[nt++] = (uint16_t)(256 + r);
        freq[257 + o->lcode[r]]++;
        i += r;
        continue;
      }
    }
    o->tok[nt++] = (uint16_t)b;
    freq[b]++;
    prev = b;
    i++;
  }
  return nt;
}

// the header of a dynamic-Huffman block: the literal/length code's lengths len[0..nlit) and
// the distance code's (two codes of one bit), run-length coded (16: repeat the last 3-6
// times, 17: 3-10 zeros, 18: 11-138 zeros) with the code-length code, whose own lengths come
// first, three bits each
static void putHeader(PngOut* o, const unsigned char* len, int nlit, int last) {
  unsigned char all[PNGNLIT + 2], cl[19], sym[PNGNLIT + 2], extra[PNGNLIT + 2];
  uint32_t freq[19] = {0};
  uint16_t code[19];
  int n = nlit + 2, ns = 0;
  memcpy(all, len, nlit);
  all[nlit] = all[nlit + 1] = 1;
  for (int i = 0; i < n;) {
    int l = all[i], r = 1;
    while (i + r < n && all[i + r] == l) r++;
    if (l == 0 && r >= 3) {
      int take = r < 138 ? r : 138;
      sym[ns] = take >= 11 ? 18 : 17, extra[ns++] = (unsigned char)(take - (take >= 11 ? 11 : 3));
      i += take;
      continue;
    }
    sym[ns] = (unsigned char)l, extra[ns++] = 0;
    for (i++, r--; r >= 3;) {
      int take = r < 6 ? r : 6;
      sym[ns] = 16, extra[ns++] = (unsigned char)(take - 3);
      i += take, r -= take;
    }
  }
  for (int k = 0; k < ns; k++) freq[sym[k]]++;
  huffLengths(freq, 19, 7, cl);
  huffCodes(cl, 19, code);
  int ncl = 19;
  while (ncl > 4 && !cl[clOrder[ncl - 1]]) ncl--;

  // BFINAL, BTYPE 2, HLIT, HDIST, HCLEN, the code-length code, the lengths
  putBits(o, (uint32_t)(last | 2 << 1 | (nlit - 257) << 3 | 1 << 8 | (ncl - 4) << 13), 17);
  for (int k = 0; k < ncl; k++) putBits(o, cl[clOrder[k]], 3);
  static const unsigned char extraBits[3] = {2, 3, 7};
  for (int k = 0; k < ns; k++) {
    int s = sym[k];
    putBits(o, code[s], cl[s]);
    if (s >= 16) putBits(o, extra[k], extraBits[s - 16]);
  }
}

// one deflate block of the filtered bytes d[0..n) (prev: the byte before them, -1 at the
// start): tokens, their code, the header, the tokens' codes, the end of the block
static void putBlock(PngOut* o, const unsigned char* d, size_t n, int prev, int last) {
  uint32_t freq[PNGNLIT] = {0};
  unsigned char len[PNGNLIT];
  uint16_t code[PNGNLIT];
  size_t nt = tokenize(o, d, n, prev, freq);
  freq[256] = 1;
  huffLengths(freq, PNGNLIT, 15, len);
  huffCodes(len, PNGNLIT, code);
  int nlit = PNGNLIT;
  while (nlit > 257 && !len[nlit - 1]) nlit--;
  putHeader(o, len, nlit, last);
  for (size_t k = 0; k < nt; k++) {
    int t = o->tok[k];
    if (t < 256) {
      putBits(o, code[t], len[t]);
      continue;
    }
    // a run: its length code and extra bits, then distance code 0 (distance 1, one bit 0)
    int r = t - 256, c = o->lcode[r], s = 257 + c;
    putBits(o, code[s] | (uint32_t)(r - lenBase[c]) << len[s], len[s] + lenExtra[c]);
    putBits(o, 0, 1);
  }
  putBits(o, code[256], len[256]);
}

// row r of the image in PNG's byte order: 8-bit RGB as it is, 16-bit gray big-endian
static const unsigned char* rowBytes(PngOut* o, const void* pixels, int width, int r,
                                     int depth16) {
  if (!depth16) return (const unsigned char*)pixels + (size_t)r * 3 * width;
  const uint16_t* v = (const uint16_t*)pixels + (size_t)r * width;
  for (int x = 0; x < width; x++)
    o->row[2 * x] = (unsigned char)(v[x] >> 8), o->row[2 * x + 1] = (unsigned char)v[x];
  return o->row;
}

// one image: signature, IHDR, the zlib stream (header, blocks of Sub-filtered rows, Adler-32)
// in IDAT chunks, IEND
int mj_writePNG(FILE* f, const char* name, const void* pixels, int width, int height,
                int depth16, char* err, int errsz) {
  size_t bpp = depth16 ? 2 : 3, stride = bpp * width;
  size_t cap = stride + 1 > PNGBLOCK ? stride + 1 : PNGBLOCK;
  PngOut* o = malloc(sizeof(PngOut));
  unsigned char* buf = malloc(2 * cap + cap * sizeof(uint16_t));
  if (!o || !buf) {
    free(o), free(buf);
    mj_ioError(err, errsz, "%s: out of memory", name);
    return -1;
  }
  o->f = f, o->fail = 0, o->bits = 0, o->nbits = 0, o->nchunk = 0;
  o->filt = buf, o->row = buf + cap, o->tok = (uint16_t*)(buf + 2 * cap);
  for (int c = 0; c < 29; c++)
    for (int r = lenBase[c]; r < (c < 28 ? lenBase[c + 1] : 259); r++)
      o->lcode[r] = (unsigned char)c;

  // signature and header: width, height, bit depth, color type (2 RGB, 0 gray), deflate,
  // adaptive filtering, no interlace
  unsigned char ihdr[13] = {(unsigned char)(width >> 24), (unsigned char)(width >> 16),
                            (unsigned char)(width >> 8), (unsigned char)width,
                            (unsigned char)(height >> 24), (unsigned char)(height >> 16),
                            (unsigned char)(height >> 8), (unsigned char)height,
                            (unsigned char)(depth16 ? 16 : 8), (unsigned char)(depth16 ? 0 : 2),
                            0, 0, 0};
  if (fwrite("\x89PNG\r\n\x1a\n", 1, 8, f) != 8) o->fail = 1;
  putChunk(o, "IHDR", ihdr, 13);

  // the zlib header (deflate, 32K window, no dictionary), then blocks of whole rows
  putBits(o, 0x78 | 0x01 << 8, 16);
  uLong adler = adler32(0, NULL, 0);
  int rows = (int)(cap / (stride + 1)), prev = -1;
  for (int r0 = 0; r0 < height; r0 += rows) {
    int r1 = r0 + rows < height ? r0 + rows : height;
    unsigned char* d = o->filt;
    for (int r = r0; r < r1; r++) {
      // Sub: each byte minus the one a pixel before (0 before the first pixel)
      const unsigned char* raw = rowBytes(o, pixels, width, r, depth16);
      *d++ = 1;
      for (size_t i = 0; i < bpp && i < stride; i++) d[i] = raw[i];
      for (size_t i = bpp; i < stride; i++) d[i] = (unsigned char)(raw[i] - raw[i - bpp]);
      d += stride;
    }
    size_t n = (size_t)(d - o->filt);
    adler = adler32(adler, o->filt, (uInt)n);
    putBlock(o, o->filt, n, prev, r1 == height);
    prev = o->filt[n - 1];
  }

  // the last block to a whole byte, the Adler-32 of the filtered bytes (most significant byte
  // first), the bits left into the chunk, IEND
  putBits(o, 0, (32 - o->nbits) % 8);
  for (int k = 3; k >= 0; k--) putBits(o, (uint32_t)(adler >> 8 * k) & 0xff, 8);
  for (; o->nbits > 0; o->nbits -= 8, o->bits >>= 8)
    o->chunk[o->nchunk++] = (unsigned char)o->bits;
  if (o->nchunk) putChunk(o, "IDAT", o->chunk, o->nchunk);
  putChunk(o, "IEND", NULL, 0);
  int fail = o->fail;
  free(o), free(buf);
  if (fail) mj_ioError(err, errsz, "%s: write error", name);
  return fail ? -1 : 0;
}
