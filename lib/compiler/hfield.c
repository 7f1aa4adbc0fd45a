// hfield.c: the height field asset: elevations from a PNG, MuJoCo's binary file or inline
// data, normalized as MuJoCo does, and the bounds of a geom showing one (see hfield.h).
#include "compiler/hfield.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/image.h"
#include "util/util_file.h"
#include "util/util.h"

// largest grid accepted, in points (as the PNG reader's pixel limit)
#define HFIELD_MAXPOINTS MJ_PNG_MAXPIXELS

// the largest height field file read (bytes): the largest binary grid
#define MAXHFIELDFILE (8L + 4L * HFIELD_MAXPOINTS)

// ---- file formats ----------------------------------------------------------------------------

// a little-endian int32 from 4 bytes
static int32_t readInt32(const unsigned char* b) {
  return (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                   (uint32_t)b[3] << 24);
}

// MuJoCo's binary height field: int32 nrow, int32 ncol, nrow*ncol float32, exactly that long;
// rows as stored (row 0 first)
static int decodeBinary(const char* name, const unsigned char* buf, long len, mjHField* hf,
                        char* err, int errsz) {
  if (len < 8) {
    snprintf(err, errsz, "%s: truncated header (expected nrow and ncol)", name);
    return -1;
  }
  int32_t nrow = readInt32(buf), ncol = readInt32(buf + 4);
  long n = (long)nrow * ncol;
  if (nrow < 1 || ncol < 1 || n > HFIELD_MAXPOINTS) {
    snprintf(err, errsz, "%s: grid size not positive or too large", name);
    return -1;
  }
  // the file must end right after the data: one more byte is an error too
  if (len - 8 != 4 * n) {
    snprintf(err, errsz, "%s: unexpected file size (expected %ld bytes of data, found %ld)",
             name, 4 * n, len - 8);
    return -1;
  }
  hf->data = malloc(sizeof(float) * n);
  if (!hf->data) {
    snprintf(err, errsz, "%s: out of memory", name);
    return -1;
  }
  hf->nrow = nrow;
  hf->ncol = ncol;
  for (long i = 0; i < n; i++) {
    uint32_t u = (uint32_t)readInt32(buf + 8 + 4 * i);
    memcpy(hf->data + i, &u, 4);
  }
  return 0;
}

// a PNG as gray (its red channel), the top image row becoming the last grid row
static int decodeImage(const char* name, const unsigned char* buf, long len, mjHField* hf,
                       char* err, int errsz) {
  unsigned char* px;
  int w, h, srgb;
  if (mj_decodePNG(name, buf, (size_t)len, 1, &px, &w, &h, &srgb, err, errsz)) return -1;
  hf->data = malloc(sizeof(float) * w * h);
  if (!hf->data) {
    free(px);
    snprintf(err, errsz, "%s: out of memory", name);
    return -1;
  }
  hf->nrow = h;
  hf->ncol = w;
  for (int r = 0; r < h; r++)
    for (int c = 0; c < w; c++) hf->data[r * w + c] = px[(h - 1 - r) * w + c];
  free(px);
  return 0;
}

// decode a height field file's bytes (PNG or binary), not yet normalized
int mj_hfieldDecode(const char* name, const unsigned char* buf, long len, int png, mjHField* hf,
                    char* err, int errsz) {
  memset(hf, 0, sizeof(*hf));
  return png ? decodeImage(name, buf, len, hf, err, errsz)
             : decodeBinary(name, buf, len, hf, err, errsz);
}

// read a height field file whole and decode it
static int readFile(const char* file, int png, mjHField* hf, char* err, int errsz) {
  long len;
  unsigned char* buf = mj_readFile(file, "hfield file", MAXHFIELDFILE, &len, err, errsz);
  if (!buf) return -1;
  int res = mj_hfieldDecode(file, buf, len, png, hf, err, errsz);
  free(buf);
  return res;
}

// 1 when the file is a PNG: by content type, else by the name's extension
static int isPNG(const char* file, const char* contenttype) {
  if (contenttype) return !strcmp(contenttype, "image/png");
  return mj_hasExt(file, ".png");
}

// ---- compiling -------------------------------------------------------------------------------

// v' = (v - min) / (max - min) in float, as MuJoCo; all zeros when the grid is flat
static void normalize(float* v, int n) {
  float lo = v[0], hi = v[0];
  for (int i = 1; i < n; i++) {
    if (v[i] < lo) lo = v[i];
    if (v[i] > hi) hi = v[i];
  }
  float range = hi - lo;
  for (int i = 0; i < n; i++) v[i] = range > mjMINVAL ? (v[i] - lo) / range : 0;
}

// the inline grid: the elevations' rows flipped (their first row is the +y edge), or zeros
static int readInline(const mjHFieldSpec* s, mjHField* hf, char* err, int errsz) {
  if (s->nrow < 1 || s->ncol < 1) {
    snprintf(err, errsz, "no data: give a file, or nrow and ncol (positive)");
    return -1;
  }
  if ((long)s->nrow * s->ncol > HFIELD_MAXPOINTS) {
    snprintf(err, errsz, "grid of %d x %d points is too large", s->nrow, s->ncol);
    return -1;
  }
  if (s->elevation && s->nelevation != s->nrow * s->ncol) {
    snprintf(err, errsz, "elevation has %d numbers, nrow*ncol = %d", s->nelevation,
             s->nrow * s->ncol);
    return -1;
  }
  hf->nrow = s->nrow;
  hf->ncol = s->ncol;
  hf->data = calloc((size_t)s->nrow * s->ncol, sizeof(float));
  if (!hf->data) {
    snprintf(err, errsz, "out of memory");
    return -1;
  }
  if (s->elevation)
    for (int r = 0; r < s->nrow; r++)
      memcpy(hf->data + r * s->ncol, s->elevation + (s->nrow - 1 - r) * s->ncol,
             sizeof(float) * s->ncol);
  return 0;
}

// compile one height field: sizes checked, the grid read, normalized
int mj_hfieldCompile(const mjHFieldSpec* spec, mjHField* hf, char* err, int errsz) {
  memset(hf, 0, sizeof(*hf));
  for (int i = 0; i < 4; i++) {
    if (!(spec->size[i] > 0)) {
      snprintf(err, errsz, "size %d must be positive", i);
      return -1;
    }
  }
  const char* ct = spec->contenttype;
  if (spec->file && ct && strcmp(ct, "image/png") && strcmp(ct, "image/vnd.mujoco.hfield")) {
    snprintf(err, errsz, "unsupported content type '%s'", ct);
    return -1;
  }
  int fail = spec->file ? readFile(spec->file, isPNG(spec->file, ct), hf, err, errsz)
                        : readInline(spec, hf, err, errsz);
  if (fail) return -1;
  normalize(hf->data, hf->nrow * hf->ncol);
  memcpy(hf->size, spec->size, sizeof(hf->size));
  return 0;
}

// free the grid
void mj_hfieldFree(mjHField* hf) {
  free(hf->data);
  hf->data = NULL;
}

// size (x, y, z/4 + b/2), rbound |(x, y, max(z, b))|, box from -b to z (see hfield.h)
void mj_hfieldGeomBound(const mjtNum hsize[4], mjtNum size[3], mjtNum* rbound, mjtNum aabb[6]) {
  const mjtNum* s = hsize;
  mjtNum zmax = fmax(s[2], s[3]);
  size[0] = s[0];
  size[1] = s[1];
  size[2] = 0.25 * s[2] + 0.5 * s[3];
  *rbound = sqrt(s[0] * s[0] + s[1] * s[1] + zmax * zmax);
  aabb[0] = aabb[1] = 0;
  aabb[2] = 0.5 * (s[2] - s[3]);
  aabb[3] = s[0];
  aabb[4] = s[1];
  aabb[5] = 0.5 * (s[2] + s[3]);
}
