// skin.c: skins from MuJoCo's binary SKN files and their checks (layout in skin.h).
#include "compiler/skin.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util_file.h"

// the largest SKN file read (bytes): far beyond any real skin, small enough to hold in memory
#define MAXSKN (1L << 30)

// free the arrays and zero the skin
void mj_skinFree(mjSkin* s) {
  free(s->vert);
  free(s->texcoord);
  free(s->face);
  free(s->bonename);
  free(s->bindpos);
  free(s->bindquat);
  free(s->bonevertadr);
  free(s->bonevertnum);
  free(s->vertid);
  free(s->vertweight);
  memset(s, 0, sizeof(*s));
}

// allocate the arrays of a skin of the given sizes (zeroed); 0 on success, -1 out of memory
int mj_skinAlloc(mjSkin* s, int nvert, int ntexcoord, int nface, int nbone, int nbonevert) {
  memset(s, 0, sizeof(*s));
  s->nvert = nvert;
  s->ntexcoord = ntexcoord;
  s->nface = nface;
  s->nbone = nbone;
  s->nbonevert = nbonevert;
  // one extra element each, so that empty arrays are still valid pointers
  s->vert = calloc(3 * (size_t)nvert + 1, sizeof(float));
  s->texcoord = calloc(2 * (size_t)ntexcoord + 1, sizeof(float));
  s->face = calloc(3 * (size_t)nface + 1, sizeof(int));
  s->bonename = calloc((size_t)nbone + 1, sizeof(*s->bonename));
  s->bindpos = calloc(3 * (size_t)nbone + 1, sizeof(float));
  s->bindquat = calloc(4 * (size_t)nbone + 1, sizeof(float));
  s->bonevertadr = calloc((size_t)nbone + 1, sizeof(int));
  s->bonevertnum = calloc((size_t)nbone + 1, sizeof(int));
  s->vertid = calloc((size_t)nbonevert + 1, sizeof(int));
  s->vertweight = calloc((size_t)nbonevert + 1, sizeof(float));
  if (s->vert && s->texcoord && s->face && s->bonename && s->bindpos && s->bindquat &&
      s->bonevertadr && s->bonevertnum && s->vertid && s->vertweight)
    return 0;
  mj_skinFree(s);
  return -1;
}

// 1 when all n floats are finite
static int finite(const float* v, long n) {
  for (long i = 0; i < n; i++)
    if (!isfinite(v[i])) return 0;
  return 1;
}

// 1 when all n ids are in [0, hi)
static int inRange(const int* v, long n, int hi) {
  for (long i = 0; i < n; i++)
    if (v[i] < 0 || v[i] >= hi) return 0;
  return 1;
}

// check ids and counts of a filled skin; 0 when valid, else -1 and a message in err
int mj_skinCheck(const mjSkin* s, char* err, int errsz) {
  if (s->nvert < 1 || s->nface < 1) {
    mj_ioError(err, errsz, "a skin needs vertices and faces");
    return -1;
  }
  if (s->ntexcoord && s->ntexcoord != s->nvert) {
    mj_ioError(err, errsz, "%d texture coordinates for %d vertices", s->ntexcoord, s->nvert);
    return -1;
  }
  if (!finite(s->vert, 3L * s->nvert) || !finite(s->texcoord, 2L * s->ntexcoord) ||
      !finite(s->bindpos, 3L * s->nbone) || !finite(s->bindquat, 4L * s->nbone) ||
      !finite(s->vertweight, s->nbonevert)) {
    mj_ioError(err, errsz, "a number is not finite");
    return -1;
  }
  if (!inRange(s->face, 3L * s->nface, s->nvert) || !inRange(s->vertid, s->nbonevert, s->nvert)) {
    mj_ioError(err, errsz, "a vertex id is out of range [0, %d)", s->nvert);
    return -1;
  }
  for (int b = 0; b < s->nbone; b++) {
    if (s->bonevertnum[b] < 1) {
      mj_ioError(err, errsz, "bone %d ('%s') moves no vertex", b, s->bonename[b]);
      return -1;
    }
  }
  return 0;
}

// scale the bone weights so that each vertex's weights sum to 1
int mj_skinNormalize(mjSkin* s) {
  float* total = calloc((size_t)s->nvert + 1, sizeof(float));
  if (!total) return -1;
  for (int k = 0; k < s->nbonevert; k++) total[s->vertid[k]] += s->vertweight[k];
  for (int k = 0; k < s->nbonevert; k++)
    if (total[s->vertid[k]] > 0) s->vertweight[k] /= total[s->vertid[k]];
  free(total);
  return 0;
}

// a cursor over the file's bytes
typedef struct {
  const unsigned char* p;
  long left;
} Cursor;

// copy count little-endian 4-byte values to dst; 0 when the file ends first
static int take(Cursor* c, void* dst, long count) {
  if (count < 0 || c->left / 4 < count) return 0;
  mj_copyLE(dst, c->p, 4, (size_t)count);
  c->p += 4 * count;
  c->left -= 4 * count;
  return 1;
}

// decode an SKN file's bytes into s; 0 on success, else nonzero and "name: message" in err
int mj_skinDecodeSKN(const char* name, const unsigned char* buf, long len, mjSkin* s, char* err,
                     int errsz) {
  memset(s, 0, sizeof(*s));
  Cursor c = {buf, len};
  int head[4];
  const char* why = NULL;
  if (!take(&c, head, 4)) {
    why = "shorter than its header";
  } else if (head[0] < 0 || head[1] < 0 || head[2] < 0 || head[3] < 0) {
    why = "negative count in the header";
  } else if ((3.0 * head[0] + 2.0 * head[1] + 3.0 * head[2]) * 4 + 72.0 * head[3] > c.left) {
    why = "shorter than its header's counts need";  // checked before allocating
  }
  // the bone vertex lists are sized by a first pass over the bones
  long nbonevert = 0;
  if (!why) {
    Cursor scan = {c.p + 4L * (3L * head[0] + 2L * head[1] + 3L * head[2]),
                   c.left - 4L * (3L * head[0] + 2L * head[1] + 3L * head[2])};
    for (int b = 0; b < head[3] && !why; b++) {
      int n;
      if (scan.left < 72 || (scan.p += 68, scan.left -= 68, !take(&scan, &n, 1))) {
        why = "ends inside a bone";
      } else if (n < 0 || scan.left / 8 < n) {
        why = "a bone's vertex count exceeds the file";
      } else {
        scan.p += 8L * n;
        scan.left -= 8L * n;
        nbonevert += n;
      }
    }
    if (!why && scan.left) why = "has bytes after the last bone";
  }
  if (!why && mj_skinAlloc(s, head[0], head[1], head[2], head[3], (int)nbonevert))
    why = "out of memory";
  if (!why) {
    take(&c, s->vert, 3L * s->nvert);
    take(&c, s->texcoord, 2L * s->ntexcoord);
    take(&c, s->face, 3L * s->nface);
    int adr = 0;
    for (int b = 0; b < s->nbone; b++) {
      memcpy(s->bonename[b], c.p, 40);
      s->bonename[b][40] = 0;
      c.p += 40;
      c.left -= 40;
      take(&c, s->bindpos + 3 * b, 3);
      take(&c, s->bindquat + 4 * b, 4);
      take(&c, s->bonevertnum + b, 1);
      s->bonevertadr[b] = adr;
      take(&c, s->vertid + adr, s->bonevertnum[b]);
      take(&c, s->vertweight + adr, s->bonevertnum[b]);
      adr += s->bonevertnum[b];
    }
  }
  char sub[256];
  if (!why && mj_skinCheck(s, sub, sizeof(sub))) why = sub;
  if (why) {
    mj_ioError(err, errsz, "%s: %s", name, why);
    mj_skinFree(s);
    return -1;
  }
  return 0;
}

// read an SKN file whole and decode it
int mj_skinReadSKN(const char* file, mjSkin* s, char* err, int errsz) {
  memset(s, 0, sizeof(*s));
  long len;
  unsigned char* buf = mj_readFile(file, "skin file", MAXSKN, &len, err, errsz);
  if (!buf) return -1;
  int res = mj_skinDecodeSKN(file, buf, len, s, err, errsz);
  free(buf);
  return res;
}
