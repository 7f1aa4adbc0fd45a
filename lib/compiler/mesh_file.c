// mesh_file.c: mesh file decoders into raw mesh data (mesh.h): binary STL, Wavefront OBJ and
// MuJoCo's legacy binary MSH.
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util_file.h"
#include "compiler/mesh.h"

// the most triangles a binary STL may declare (MuJoCo's limit)
#define STLMAXFACE 200000

// the largest coordinate a binary STL vertex may have (beyond it, or not finite: an error)
#define STLMAXCOORD 1e30f

// the largest mesh file read (bytes)
#define MAXFILE (1L << 30)

void mj_meshDataFree(mjMeshData* d) {
  free(d->vert), free(d->normal), free(d->texcoord);
  free(d->face), free(d->facenormal), free(d->facetexcoord);
  memset(d, 0, sizeof *d);
}

// ---- growable arrays ---------------------------------------------------------------------------

// an array of n items of a fixed size with room for cap
typedef struct {
  void* p;
  int n, cap;
} vec;

// room for `more` items of size sz at the end of v; 0 ok, 1 out of memory or too long
static int grow(vec* v, int more, size_t sz) {
  if (v->n + (long)more <= v->cap) return 0;
  long cap = v->cap ? 2L * v->cap : 64;
  while (cap < v->n + (long)more) cap *= 2;
  if (cap > INT32_MAX / 4) return 1;
  void* p = realloc(v->p, cap * sz);
  if (!p) return 1;
  v->p = p, v->cap = (int)cap;
  return 0;
}

// ---- STL ---------------------------------------------------------------------------------------

// little-endian float and uint32 at p
static float getFloat(const unsigned char* p) {
  uint32_t u = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static uint32_t getU32(const unsigned char* p) {
  return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

// hash of a vertex's three coordinates (equal values, with -0 == 0, hash alike)
static uint32_t hashVert(const float* v) {
  uint32_t h = 2166136261u;
  for (int k = 0; k < 3; k++) {
    float x = v[k] == 0 ? 0 : v[k];
    uint32_t u;
    memcpy(&u, &x, 4);
    h = (h ^ u) * 16777619u;
  }
  return h;
}

// binary STL: 80-byte header, triangle count, 50 bytes per triangle (normal, 3 vertices,
// attribute); vertices merged where all three coordinates are equal, first occurrence first
int mj_meshReadSTL(const char* name, const unsigned char* buf, long len, mjMeshData* d,
                   char* err, int errsz) {
  memset(d, 0, sizeof *d);
  if (len < 84) return mj_ioError(err, errsz, "invalid header in STL file '%s'", name);
  uint32_t nf = getU32(buf + 80);
  if (nf < 1 || nf > STLMAXFACE)
    return mj_ioError(err, errsz, "number of faces should be between 1 and %d in STL file '%s'; "
                "perhaps this is an ASCII file?", STLMAXFACE, name);
  if (len != 84 + 50 * (long)nf)
    return mj_ioError(err, errsz, "STL file '%s' has wrong size; perhaps this is an ASCII file?",
                name);

  // open-addressing table of vertex ids, twice the largest vertex count
  int nslot = 1;
  while (nslot < 6 * (int)nf) nslot *= 2;
  int* slot = malloc(sizeof(int) * nslot);
  d->vert = malloc(sizeof(float) * 9 * nf);
  d->face = malloc(sizeof(int) * 3 * nf);
  if (!slot || !d->vert || !d->face) {
    free(slot);
    mj_meshDataFree(d);
    return mj_ioError(err, errsz, "STL file '%s': out of memory", name);
  }
  memset(slot, -1, sizeof(int) * nslot);
  for (uint32_t i = 0; i < 3 * nf; i++) {
    // the corner's coordinates, after the triangle's normal
    const unsigned char* p = buf + 84 + 50 * (i / 3) + 12 + 12 * (i % 3);
    float v[3] = {getFloat(p), getFloat(p + 4), getFloat(p + 8)};
    if (!(fabsf(v[0]) <= STLMAXCOORD && fabsf(v[1]) <= STLMAXCOORD &&
          fabsf(v[2]) <= STLMAXCOORD)) {
      free(slot);
      mj_meshDataFree(d);
      return mj_ioError(err, errsz, "vertex in STL file '%s' exceed maximum bounds", name);
    }
    uint32_t h = hashVert(v) & (nslot - 1);
    while (slot[h] >= 0) {
      const float* w = d->vert + 3 * slot[h];
      if (w[0] == v[0] && w[1] == v[1] && w[2] == v[2]) break;
      h = (h + 1) & (nslot - 1);
    }
    if (slot[h] < 0) {
      slot[h] = d->nvert;
      memcpy(d->vert + 3 * d->nvert++, v, sizeof v);
    }
    d->face[i] = slot[h];
  }
  d->nface = nf;
  free(slot);
  return 0;
}

// ---- OBJ ---------------------------------------------------------------------------------------

// parse up to n floats from s into x; returns how many were read
static int parseFloats(const char* s, float* x, int n) {
  int i = 0;
  for (; i < n; i++) {
    char* end;
    double v = strtod(s, &end);
    if (end == s) break;
    x[i] = (float)v;
    s = end;
  }
  return i;
}

// resolve a 1-based or negative (relative to count) OBJ index into 0-based; -1 when 0
static int objIndex(long i, int count) {
  if (i > 0) return (int)(i - 1);
  if (i < 0) return (int)(count + i);
  return -1;
}

// 1 when point (tx, ty) is inside triangle (x, y) by the crossing rule (an edge crossed when
// the point's horizontal ray passes it, in float as the reference loader)
static int inTriangle(const float x[3], const float y[3], float tx, float ty) {
  int in = 0;
  for (int i = 0, j = 2; i < 3; j = i++)
    if ((y[i] > ty) != (y[j] > ty) && tx < (x[j] - x[i]) * (ty - y[i]) / (y[j] - y[i]) + x[i])
      in = !in;
  return in;
}

// append triangle (a, b, c) of corners (vertex, texcoord, normal) to the face lists; 1 when
// out of memory
static int addTriangle(vec* f, vec* ft, vec* fn, const int* a, const int* b, const int* c) {
  if (grow(f, 1, 3 * sizeof(int)) || grow(ft, 1, 3 * sizeof(int)) ||
      grow(fn, 1, 3 * sizeof(int)))
    return 1;
  const int* k[3] = {a, b, c};
  for (int i = 0; i < 3; i++) {
    ((int*)f->p)[3 * f->n + i] = k[i][0];
    ((int*)ft->p)[3 * ft->n + i] = k[i][1];
    ((int*)fn->p)[3 * fn->n + i] = k[i][2];
  }
  f->n++, ft->n++, fn->n++;
  return 0;
}

// triangles of a polygon of n >= 3 corners c (vertex, texcoord, normal ids), as MuJoCo 3.14's
// OBJ reader makes them, in float arithmetic: a quad split along its shorter diagonal (the
// 1-3 one on a tie); a larger polygon by ear clipping in the coordinate plane picked by the
// first corner whose edges' cross product exceeds FLT_EPSILON (y-z when its x component
// leads strictly, x-y when z does, else x-z): from corner g = 0, triangle (g, g+1, g+2) is an
// ear unless cross(e0, e1) * (x0 y1 - y0 x1) < 0 (that reference's per-triangle sign test) or
// another remaining corner is inside it; an ear is emitted and g+1 removed, else g advances;
// after as many misses in a row as corners remain the rest is dropped.  rem: n ints of room.
// Returns 1 when out of memory.
static int triangulate(const float* vert, const int (*c)[3], int n, int* rem, vec* f, vec* ft,
                       vec* fn) {
  if (n == 3) return addTriangle(f, ft, fn, c[0], c[1], c[2]);
  const float* p[4];
  for (int i = 0; i < n && i < 4; i++) p[i] = vert + 3 * c[i][0];
  if (n == 4) {
    float d02 = 0, d13 = 0;
    for (int k = 0; k < 3; k++) {
      float a = p[2][k] - p[0][k], b = p[3][k] - p[1][k];
      d02 += a * a, d13 += b * b;
    }
    return d02 < d13 ? addTriangle(f, ft, fn, c[0], c[1], c[2]) ||
                           addTriangle(f, ft, fn, c[0], c[2], c[3])
                     : addTriangle(f, ft, fn, c[0], c[1], c[3]) ||
                           addTriangle(f, ft, fn, c[1], c[2], c[3]);
  }
  // the plane of projection
  int ax = 1, ay = 2;
  for (int k = 0; k < n; k++) {
    const float* a = vert + 3 * c[k][0];
    const float* b = vert + 3 * c[(k + 1) % n][0];
    const float* d = vert + 3 * c[(k + 2) % n][0];
    float e0[3], e1[3];
    for (int i = 0; i < 3; i++) e0[i] = b[i] - a[i], e1[i] = d[i] - b[i];
    float cx = fabsf(e0[1] * e1[2] - e0[2] * e1[1]), cy = fabsf(e0[2] * e1[0] - e0[0] * e1[2]);
    float cz = fabsf(e0[0] * e1[1] - e0[1] * e1[0]);
    if (cx > FLT_EPSILON || cy > FLT_EPSILON || cz > FLT_EPSILON) {
      if (!(cx > cy && cx > cz)) ax = 0, ay = cz > cx && cz > cy ? 1 : 2;
      break;
    }
  }
  // ear clipping
  for (int i = 0; i < n; i++) rem[i] = i;
  int m = n, g = 0, tries = n, prev = n;
  while (m > 3 && tries > 0) {
    if (g >= m) g -= m;
    if (prev != m) prev = m, tries = m;
    else tries--;
    float x[3], y[3];
    for (int k = 0; k < 3; k++) {
      const float* v = vert + 3 * c[rem[(g + k) % m]][0];
      x[k] = v[ax], y[k] = v[ay];
    }
    float cross = (x[1] - x[0]) * (y[2] - y[1]) - (y[1] - y[0]) * (x[2] - x[1]);
    float sign = (x[0] * y[1] - y[0] * x[1]) * 0.5f;
    int ear = !(cross * sign < 0);
    for (int o = 3; o < m && ear; o++) {
      const float* v = vert + 3 * c[rem[(g + o) % m]][0];
      if (inTriangle(x, y, v[ax], v[ay])) ear = 0;
    }
    if (!ear) {
      g++;
      continue;
    }
    if (addTriangle(f, ft, fn, c[rem[g % m]], c[rem[(g + 1) % m]], c[rem[(g + 2) % m]]))
      return 1;
    for (int i = (g + 1) % m; i + 1 < m; i++) rem[i] = rem[i + 1];
    m--;
  }
  return m == 3 ? addTriangle(f, ft, fn, c[rem[0]], c[rem[1]], c[rem[2]]) : 0;
}

// Wavefront OBJ: v, vt, vn and f lines; the faces of the first shape only (as MuJoCo 3.14
// reads them: an `o` or `g` statement after faces ends it; `o`/`g` without a following blank
// are no statements), every vertex; materials and smoothing ignored; polygons triangulated
// as MuJoCo 3.14 does (triangulate); texture v flipped (1 - v) to image rows
int mj_meshReadOBJ(const char* name, const char* text, long len, mjMeshData* d, char* err,
                   int errsz) {
  vec v = {0}, vn = {0}, vt = {0}, f = {0}, fn = {0}, ft = {0};
  int rc = 0, line = 0, hasn = 0, hast = 0, shapeDone = 0;
  memset(d, 0, sizeof *d);
  const char* end = text + len;
  for (const char* s = text; s < end && !rc; line++) {
    // one line, NUL-terminated copy
    const char* e = memchr(s, '\n', end - s);
    if (!e) e = end;
    char buf[4096];
    long n = e - s;
    if (n >= (long)sizeof buf) {
      rc = mj_ioError(err, errsz, "OBJ file '%s': line %d is too long", name, line + 1);
      break;
    }
    memcpy(buf, s, n);
    buf[n] = 0;
    s = e + 1;
    char* p = buf;
    while (isspace((unsigned char)*p)) p++;

    if (!strncmp(p, "v ", 2) || !strncmp(p, "vn ", 3) || !strncmp(p, "vt ", 3)) {
      // vertex data: 3 numbers (2 for texture coordinates; a third is ignored)
      int kind = p[1] == ' ' ? 0 : p[1] == 'n' ? 1 : 2, want = kind == 2 ? 2 : 3;
      vec* a = kind == 0 ? &v : kind == 1 ? &vn : &vt;
      float x[3];
      if (parseFloats(p + 2, x, want) < want) {
        rc = mj_ioError(err, errsz, "could not parse OBJ file '%s': line %d: expected %d numbers",
                  name, line + 1, want);
      } else if (grow(a, 1, want * sizeof(float))) {
        rc = mj_ioError(err, errsz, "OBJ file '%s': out of memory", name);
      } else {
        if (kind == 2) x[1] = 1 - x[1];
        memcpy((float*)a->p + want * a->n++, x, want * sizeof(float));
      }
    } else if ((*p == 'o' || *p == 'g') && (p[1] == ' ' || p[1] == '\t')) {
      // a new object or group: the first shape ends once it has faces
      shapeDone |= f.n > 0;
    } else if (!strncmp(p, "f ", 2) && !shapeDone) {
      // face: corners v, v/t, v//n or v/t/n (at most one per two bytes of the line), then
      // its triangles
      static const int maxc = sizeof buf / 2;
      int corner[sizeof buf / 2][3], rem[sizeof buf / 2], nc = 0;
      char* q = p + 2;
      while (!rc) {
        while (isspace((unsigned char)*q)) q++;
        if (!*q) break;
        char* qe;
        long iv = strtol(q, &qe, 10), it = 0, in = 0;
        if (qe == q) {
          rc = mj_ioError(err, errsz, "could not parse OBJ file '%s': line %d: bad face", name,
                    line + 1);
          break;
        }
        q = qe;
        if (*q == '/') {
          q++;
          if (*q != '/') it = strtol(q, &q, 10);
          if (*q == '/') in = strtol(q + 1, &q, 10);
        }
        int c[3] = {objIndex(iv, v.n), it ? objIndex(it, vt.n) : -1,
                    in ? objIndex(in, vn.n) : -1};
        if (c[0] < 0 || c[0] >= v.n || (it && (c[1] < 0 || c[1] >= vt.n)) ||
            (in && (c[2] < 0 || c[2] >= vn.n))) {
          rc = mj_ioError(err, errsz, "could not parse OBJ file '%s': line %d: index out of range",
                    name, line + 1);
          break;
        }
        hast |= it != 0, hasn |= in != 0;
        if (nc == maxc) {
          rc = mj_ioError(err, errsz, "OBJ file '%s': line %d: too many corners", name, line + 1);
          break;
        }
        memcpy(corner[nc++], c, sizeof c);
      }
      if (!rc && nc >= 3 && triangulate(v.p, corner, nc, rem, &f, &ft, &fn))
        rc = mj_ioError(err, errsz, "OBJ file '%s': out of memory", name);
    }
  }
  d->nvert = v.n, d->vert = v.p;
  d->nnormal = vn.n, d->normal = vn.p;
  d->ntexcoord = vt.n, d->texcoord = vt.p;
  d->nface = f.n, d->face = f.p;
  d->facenormal = fn.p, d->facetexcoord = ft.p;
  if (!rc && hasn) {
    for (int i = 0; i < 3 * d->nface && !rc; i++)
      if (d->facenormal[i] < 0)
        rc = mj_ioError(err, errsz, "OBJ file '%s': some face corners lack a normal", name);
  } else {
    free(d->facenormal), d->facenormal = NULL;
  }
  if (!rc && hast) {
    for (int i = 0; i < 3 * d->nface && !rc; i++)
      if (d->facetexcoord[i] < 0)
        rc = mj_ioError(err, errsz, "OBJ file '%s': some face corners lack a texcoord", name);
  } else {
    free(d->facetexcoord), d->facetexcoord = NULL;
  }
  if (rc) mj_meshDataFree(d);
  return rc;
}

// ---- MSH ---------------------------------------------------------------------------------------

// MuJoCo's legacy MSH: 4 int32 counts (vertices, normals, texcoords, faces), then the float
// vertices (3 per), normals (3 per), texcoords (2 per) and int32 faces (3 per); normals and
// texcoords, when present, are per vertex
int mj_meshReadMSH(const char* name, const unsigned char* buf, long len, mjMeshData* d,
                   char* err, int errsz) {
  memset(d, 0, sizeof *d);
  if (len < 16) return mj_ioError(err, errsz, "unexpected file size in MSH file '%s'", name);
  int32_t c[4];
  for (int k = 0; k < 4; k++) c[k] = (int32_t)getU32(buf + 4 * k);
  if (c[0] < 0 || c[1] < 0 || c[2] < 0 || c[3] < 0)
    return mj_ioError(err, errsz, "MSH file '%s': negative count in header", name);
  long want = 16 + 4 * (3L * c[0] + 3L * c[1] + 2L * c[2] + 3L * c[3]);
  if (len != want)
    return mj_ioError(err, errsz,
                      "unexpected file size in MSH file '%s' (%ld bytes, header says %ld)",
                      name, len, want);
  if ((c[1] && c[1] != c[0]) || (c[2] && c[2] != c[0]))
    return mj_ioError(err, errsz, "MSH file '%s': normal and texcoord counts must equal the vertex "
                "count", name);
  d->nvert = c[0], d->nnormal = c[1], d->ntexcoord = c[2], d->nface = c[3];
  d->vert = malloc(sizeof(float) * 3 * (c[0] + 1));
  d->normal = malloc(sizeof(float) * 3 * (c[1] + 1));
  d->texcoord = malloc(sizeof(float) * 2 * (c[2] + 1));
  d->face = malloc(sizeof(int) * 3 * (c[3] + 1));
  d->facenormal = c[1] ? malloc(sizeof(int) * 3 * (c[3] + 1)) : NULL;
  d->facetexcoord = c[2] ? malloc(sizeof(int) * 3 * (c[3] + 1)) : NULL;
  if (!d->vert || !d->normal || !d->texcoord || !d->face || (c[1] && !d->facenormal) ||
      (c[2] && !d->facetexcoord)) {
    mj_meshDataFree(d);
    return mj_ioError(err, errsz, "MSH file '%s': out of memory", name);
  }
  const unsigned char* p = buf + 16;
  for (long i = 0; i < 3L * c[0]; i++, p += 4) d->vert[i] = getFloat(p);
  for (long i = 0; i < 3L * c[1]; i++, p += 4) d->normal[i] = getFloat(p);
  for (long i = 0; i < 2L * c[2]; i++, p += 4) d->texcoord[i] = getFloat(p);
  for (long i = 0; i < 3L * c[3]; i++, p += 4) {
    d->face[i] = (int32_t)getU32(p);
    if (d->facenormal) d->facenormal[i] = d->face[i];
    if (d->facetexcoord) d->facetexcoord[i] = d->face[i];
  }
  return 0;
}

// ---- files -------------------------------------------------------------------------------------

int mj_meshReadFile(const char* path, const char* contenttype, mjMeshData* d, char* err,
                    int errsz) {
  memset(d, 0, sizeof *d);
  // the format: 1 STL, 2 OBJ, 3 MSH
  int fmt = 0;
  if (contenttype) {
    fmt = !strcmp(contenttype, "model/stl") ? 1 : !strcmp(contenttype, "model/obj") ? 2
          : !strcmp(contenttype, "model/vnd.mujoco.msh") ? 3 : 0;
    if (!fmt)
      return mj_ioError(err, errsz, "unsupported mesh type: '%s' for '%s'", contenttype, path);
  } else {
    fmt = mj_hasExt(path, ".stl") ? 1 : mj_hasExt(path, ".obj") ? 2
          : mj_hasExt(path, ".msh") ? 3 : 0;
    if (!fmt)
      return mj_ioError(err, errsz, "unsupported mesh type: '%s' (expected .stl, .obj or .msh)",
                        path);
  }
  long len = 0;
  unsigned char* buf = mj_readFile(path, "mesh file", MAXFILE, &len, err, errsz);
  if (!buf) return 1;
  int rc = fmt == 1 ? mj_meshReadSTL(path, buf, len, d, err, errsz)
         : fmt == 2 ? mj_meshReadOBJ(path, (const char*)buf, len, d, err, errsz)
                    : mj_meshReadMSH(path, buf, len, d, err, errsz);
  free(buf);
  return rc;
}
