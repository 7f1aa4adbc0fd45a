// stream.c: state streams (.mjt, man 5 mjt): header, frames, field names.
//
// Header, 64 bytes, little-endian:
//   0 magic "MJSTREAM" | 8 u32 version | 12 u32 byte-order mark | 16 u64 model hash |
//   24 i32 sizes of MJ_STREAM_SIZES (8) | 56 u32 field mask | 60 u32 checksum of bytes 0..59
// Frame: "MJFR" | the present fields of MJ_STREAM_FIELDS in table order, every element a
//   float64 | u32 checksum of the marker and the values.
// The checksum of versions 2 and 3 is CRC-32C, which processors compute (SSE4.2: a frame of
// the humanoid's sensors costs a tenth of zlib's CRC-32); version 1 has zlib's CRC-32.  The
// model hash of version 3 is mj_modelHash; versions 1 and 2 hold mj_modelHashFNV (a byte at a
// time: 20 ms on the 12 MB of the humanoid's textures).  Versions 1 and 2 are read, 3 written.
#include <errno.h>
#include <gnu/libc-version.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "io/io.h"

_Static_assert(sizeof(mjtNum) == 8, "frames are read in place as float64");

#define MJT_MAGIC "MJSTREAM"
#define MJT_VERSION 3u  // the version written; 1 and 2 are read too
#define MJT_HEADER 64
#define MJT_MARKER "MJFR"
#define MJT_MAXSIZE (1 << 28)  // largest size a header may give
#define MJT_RANGEMAGIC "MJRANGE1"

// field names, in table order
static const char* const fieldNames[mjNSTREAMFIELD] = {
#define X(name, count, src, kind) #name,
  MJ_STREAM_FIELDS(X)
#undef X
};

// field kinds, in table order
static const int fieldKinds[mjNSTREAMFIELD] = {
#define X(name, count, src, kind) kind,
  MJ_STREAM_FIELDS(X)
#undef X
};

// ---- fields ----------------------------------------------------------------------------------

const char* mj_streamFieldName(int f) {
  return f >= 0 && f < mjNSTREAMFIELD ? fieldNames[f] : NULL;
}

int mj_streamFieldKind(int f) { return f >= 0 && f < mjNSTREAMFIELD ? fieldKinds[f] : -1; }

// linear search of the names
int mj_streamFieldFind(const char* name) {
  for (int f = 0; f < mjNSTREAMFIELD; f++)
    if (!strcmp(fieldNames[f], name)) return f;
  return -1;
}

// evaluate the count expression of field f with h's sizes
int mj_streamFieldSize(const mjStreamHeader* h, int f) {
#define X(name) int name = h->name; (void)name;
  MJ_STREAM_SIZES(X)
#undef X
  switch (f) {
#define X(name, count, src, kind) case mjSTREAM_##name: return (count);
    MJ_STREAM_FIELDS(X)
#undef X
    default: return 0;
  }
}

// sum of the sizes of the present fields before f
int mj_streamFieldOffset(const mjStreamHeader* h, int f) {
  if (f < 0 || f >= mjNSTREAMFIELD || !(h->mask >> f & 1)) return -1;
  int off = 0;
  for (int g = 0; g < f; g++)
    if (h->mask >> g & 1) off += mj_streamFieldSize(h, g);
  return off;
}

// the storage of field f in d: element i read as a number
static mjtNum fieldGet(const mjData* d, int f, int i) {
  switch (f) {
#define X(name, count, src, kind)                                                                \
    case mjSTREAM_##name: {                                                                      \
      if (kind == mjSK_EQ) return ((const unsigned char*)(src))[i];                               \
      if (kind == mjSK_INT) return ((const int*)(src))[i];                                        \
      if (kind == mjSK_WARNING) return ((const mjWarningStat*)(src))[i].number;                   \
      return ((const mjtNum*)(src))[i];                                                           \
    }
    MJ_STREAM_FIELDS(X)
#undef X
    default: return 0;
  }
}

// the storage of field f in d when its elements are numbers (mjtNum), else NULL (writable
// when d is: the readers pass their own data)
static mjtNum* fieldReals(const mjData* d, int f) {
  switch (f) {
#define X(name, count, src, kind)                                                                \
    case mjSTREAM_##name:                                                                        \
      return kind == mjSK_EQ || kind == mjSK_INT || kind == mjSK_WARNING ? NULL                   \
                                                                          : (mjtNum*)(src);
    MJ_STREAM_FIELDS(X)
#undef X
    default: return NULL;
  }
}

// element i of field f in d set from a number (ints and flags truncate toward zero)
static void fieldSet(mjData* d, int f, int i, mjtNum v) {
  switch (f) {
#define X(name, count, src, kind)                                                                \
    case mjSTREAM_##name: {                                                                      \
      if (kind == mjSK_EQ) ((unsigned char*)(src))[i] = v != 0;                                  \
      else if (kind == mjSK_INT) ((int*)(src))[i] = (int)v;                                       \
      else if (kind == mjSK_WARNING) ((mjWarningStat*)(src))[i].number = (int)v;                  \
      else ((mjtNum*)(src))[i] = v;                                                               \
      return;                                                                                    \
    }
    MJ_STREAM_FIELDS(X)
#undef X
    default: return;
  }
}

// the groups --fields accepts besides the field names
static const struct {
  const char* name;
  uint32_t mask;
} fieldGroups[] = {
  {"state", mjSTREAM_STATE}, {"input", mjSTREAM_INPUT}, {"output", mjSTREAM_OUTPUT},
  {"all", mjSTREAM_ALL},
};

// comma-separated names and groups into a mask; empty items are errors
int mj_streamParseFields(const char* list, uint32_t* mask, char* err, int errsz) {
  *mask = 0;
  const char* p = list;
  for (;;) {
    size_t n = strcspn(p, ",");
    char item[64];
    snprintf(item, sizeof(item), "%.*s", (int)(n < sizeof(item) - 1 ? n : sizeof(item) - 1), p);
    int f = n < sizeof(item) ? mj_streamFieldFind(item) : -1;
    uint32_t bits = f >= 0 ? 1u << f : 0;
    for (size_t g = 0; g < sizeof(fieldGroups) / sizeof(fieldGroups[0]) && !bits; g++)
      if (!strcmp(item, fieldGroups[g].name)) bits = fieldGroups[g].mask;
    if (!bits) {
      mj_ioError(err, errsz, "unknown field '%.*s' (fields: time, qpos, ... or state, input, "
                 "output, all; see mjt(5))", (int)n, p);
      return -1;
    }
    *mask |= bits;
    if (!p[n]) return 0;
    p += n + 1;
  }
}

// "what 'name'" or "what id" of object id of type, or "" when the id is out of range
static void objLabel(const mjModel* m, int type, int id, int n, const char* what, char* buf,
                     int bufsz) {
  const char* nm = id >= 0 && id < n ? mj_id2name(m, type, id) : NULL;
  if (nm) snprintf(buf, (size_t)bufsz, "%s '%s'", what, nm);
  else if (id >= 0 && id < n) snprintf(buf, (size_t)bufsz, "%s %d", what, id);
  else buf[0] = 0;
}

// the joint of qpos coordinate i and its offset in the joint, -1 when none
static int qposJoint(const mjModel* m, int i, int* k) {
  static const int nqOfType[4] = {7, 4, 1, 1};
  for (int j = 0; j < m->njnt; j++) {
    int t = m->jnt_type[j], adr = m->jnt_qposadr[j];
    if (t >= 0 && t < 4 && i >= adr && i < adr + nqOfType[t]) {
      *k = i - adr;
      return j;
    }
  }
  return -1;
}

// what element i of field f is, from the model where needed: "joint 'elbow'", "kinetic"
static void describe(const mjModel* m, int f, int i, char* buf, int bufsz) {
  static const char* const energy[2] = {"potential", "kinetic"};
  static const char* const warning[mjNWARNING] = {
    "inertia", "contactfull", "cnstrfull", "vgeomfull", "badqpos", "badqvel", "badqacc", "badctrl"};
  static const char* const spatial[6] = {"torque x", "torque y", "torque z",
                                         "force x", "force y", "force z"};
  char obj[160];
  int k = 0, id = -1;
  buf[0] = 0;
  switch (fieldKinds[f]) {
    case mjSK_ENERGY:
      if (i < 2) snprintf(buf, (size_t)bufsz, "%s", energy[i]);
      return;
    case mjSK_WARNING:
      if (i < mjNWARNING) snprintf(buf, (size_t)bufsz, "%s", warning[i]);
      return;
    default:
      break;
  }
  if (!m) return;
  switch (fieldKinds[f]) {
    case mjSK_QPOS:
      id = qposJoint(m, i, &k);
      objLabel(m, mjOBJ_JOINT, id, m->njnt, "joint", obj, sizeof(obj));
      break;
    case mjSK_DOF:
      id = i < m->nv ? m->dof_jntid[i] : -1;
      k = id >= 0 && id < m->njnt ? i - m->jnt_dofadr[id] : 0;
      objLabel(m, mjOBJ_JOINT, id, m->njnt, "joint", obj, sizeof(obj));
      break;
    case mjSK_ACT:
      for (int a = 0; a < m->nu && id < 0; a++) {
        int adr = m->actuator_actadr[a];
        if (adr >= 0 && i >= adr && i < adr + m->actuator_actnum[a]) id = a, k = i - adr;
      }
      objLabel(m, mjOBJ_ACTUATOR, id, m->nu, "actuator", obj, sizeof(obj));
      break;
    case mjSK_ACTUATOR:
      objLabel(m, mjOBJ_ACTUATOR, i, m->nu, "actuator", obj, sizeof(obj));
      break;
    case mjSK_BODY6:
      objLabel(m, mjOBJ_BODY, i / 6, m->nbody, "body", obj, sizeof(obj));
      if (obj[0]) snprintf(buf, (size_t)bufsz, "%s %s", obj, spatial[i % 6]);
      return;
    case mjSK_MOCAP3:
    case mjSK_MOCAP4: {
      int dim = fieldKinds[f] == mjSK_MOCAP3 ? 3 : 4;
      for (int b = 0; b < m->nbody && id < 0; b++)
        if (m->body_mocapid[b] == i / dim) id = b;
      k = i % dim;
      objLabel(m, mjOBJ_BODY, id, m->nbody, "body", obj, sizeof(obj));
      break;
    }
    case mjSK_EQ:
      objLabel(m, mjOBJ_EQUALITY, i, m->neq, "equality", obj, sizeof(obj));
      break;
    case mjSK_SENSOR:
      for (int s = 0; s < m->nsensor && id < 0; s++) {
        int adr = m->sensor_adr[s];
        if (i >= adr && i < adr + m->sensor_dim[s]) id = s, k = i - adr;
      }
      objLabel(m, mjOBJ_SENSOR, id, m->nsensor, "sensor", obj, sizeof(obj));
      break;
    default:
      return;
  }
  // the offset inside the object only when the object has several elements
  int multi = fieldKinds[f] == mjSK_MOCAP3 || fieldKinds[f] == mjSK_MOCAP4 || k > 0;
  if (fieldKinds[f] == mjSK_QPOS && id >= 0) multi = m->jnt_type[id] <= mjJNT_BALL;
  if (fieldKinds[f] == mjSK_DOF && id >= 0) multi = m->jnt_type[id] <= mjJNT_BALL;
  if (fieldKinds[f] == mjSK_SENSOR && id >= 0) multi = m->sensor_dim[id] > 1;
  if (fieldKinds[f] == mjSK_ACT && id >= 0) multi = m->actuator_actnum[id] > 1;
  if (!obj[0]) return;
  if (multi) snprintf(buf, (size_t)bufsz, "%s [%d]", obj, k);
  else snprintf(buf, (size_t)bufsz, "%s", obj);
}

// "qpos[3]" or "time", then " (description)" when asked and known
void mj_streamElementName(const mjModel* m, int f, int i, int describeIt, char* buf, int bufsz) {
  if (bufsz < 1) return;
  if (f < 0 || f >= mjNSTREAMFIELD) {
    snprintf(buf, (size_t)bufsz, "?");
    return;
  }
  int scalar = fieldKinds[f] == mjSK_SCALAR || fieldKinds[f] == mjSK_INT;
  int n = scalar ? snprintf(buf, (size_t)bufsz, "%s", fieldNames[f])
                 : snprintf(buf, (size_t)bufsz, "%s[%d]", fieldNames[f], i);
  if (!describeIt || n < 0 || n >= bufsz) return;
  char what[200];
  describe(m, f, i, what, sizeof(what));
  if (what[0]) snprintf(buf + n, (size_t)(bufsz - n), " (%s)", what);
}

// "name" (scalars) or "name[index]" with a decimal index
int mj_streamParseElement(const char* s, int* f, int* i) {
  size_t n = strcspn(s, "[");
  char name[64];
  if (n >= sizeof(name)) return -1;
  memcpy(name, s, n);
  name[n] = 0;
  *f = mj_streamFieldFind(name);
  if (*f < 0) return -1;
  int scalar = fieldKinds[*f] == mjSK_SCALAR || fieldKinds[*f] == mjSK_INT;
  if (!s[n]) {
    *i = 0;
    return scalar ? 0 : -1;
  }
  // digits, then "]" and the end
  const char* p = s + n + 1;
  long v = 0;
  if (*p < '0' || *p > '9') return -1;
  while (*p >= '0' && *p <= '9' && v <= MJT_MAXSIZE) v = v * 10 + (*p++ - '0');
  if (strcmp(p, "]") || v > MJT_MAXSIZE || scalar) return -1;
  *i = (int)v;
  return 0;
}

// ---- ranges of a sharded run ------------------------------------------------------------------

void mj_rangeEncode(const mjStreamRange* r, unsigned char b[mjRANGE_BYTES]) {
  memset(b, 0, mjRANGE_BYTES);
  memcpy(b, MJT_RANGEMAGIC, 8);
  int64_t n[4] = {r->first, r->end, r->total, r->frames};
  uint64_t fp[2] = {r->run, r->build};
  mj_copyLE(b + 8, n, 8, 4);
  mj_copyLE(b + 40, fp, 8, 2);
  uint32_t crc = mj_crc32c(0, b, 60);
  mj_copyLE(b + 60, &crc, 4, 1);
}

int mj_rangeDecode(const unsigned char b[mjRANGE_BYTES], const char* name, mjStreamRange* r,
                   char* err, int errsz) {
  uint32_t crc;
  int64_t n[4];
  mj_copyLE(&crc, b + 60, 4, 1);
  if (memcmp(b, MJT_RANGEMAGIC, 8)) return mj_ioError(err, errsz, "%s: bad range record "
                                                      "magic", name), -1;
  if (crc != mj_crc32c(0, b, 60))
    return mj_ioError(err, errsz, "%s: corrupt range record (bad CRC-32C)", name), -1;
  mj_copyLE(n, b + 8, 8, 4);
  mj_copyLE(&r->run, b + 40, 8, 1);
  mj_copyLE(&r->build, b + 48, 8, 1);
  r->first = n[0], r->end = n[1], r->total = n[2], r->frames = n[3];
  if (r->first < 0 || r->first > r->end || r->end > r->total || r->frames < 0)
    return mj_ioError(err, errsz, "%s: range record: items %lld..%lld of %lld, %lld frames "
                      "each, is not a range", name, (long long)r->first, (long long)r->end - 1,
                      (long long)r->total, (long long)r->frames), -1;
  return 0;
}

// floor(i total / n) as i q + floor(i r / n) with total = q n + r: no overflow for n < 2^31
static int64_t blockStart(int64_t total, int64_t i, int64_t n) {
  return i * (total / n) + i * (total % n) / n;
}

void mj_rangeShard(int64_t total, int64_t i, int64_t n, int64_t* first, int64_t* end) {
  *first = blockStart(total, i, n);
  *end = blockStart(total, i + 1, n);
}

// a hash of the library version, the compiler's version and the predefined macros of the
// arithmetic options that change results, and the C library's version (read when running)
uint64_t mj_buildFingerprint(void) {
  static const char build[] = "libmj " MJ_VERSION_STRING "; " __VERSION__
#ifdef __FAST_MATH__
    "; fast-math"
#endif
#ifdef __FMA__
    "; fma"
#endif
#ifdef __AVX__
    "; avx"
#endif
#ifdef __AVX2__
    "; avx2"
#endif
#ifdef __AVX512F__
    "; avx512f"
#endif
#ifdef __aarch64__
    "; aarch64"
#endif
    ;
  const char* libc = gnu_get_libc_version();
  return mj_hashBytes(mj_hashBytes(0, build, sizeof(build) - 1), libc, strlen(libc));
}

void mj_streamSetRange(mjStreamHeader* h, const mjStreamRange* r) {
  h->range = *r;
  h->ranged = 1;
}

// ---- header ------------------------------------------------------------------------------------

// the sizes of m, the fields that have elements, and the total numbers per frame
void mj_streamInit(mjStreamHeader* h, const mjModel* m, uint32_t mask, const char* name) {
  memset(h, 0, sizeof(*h));
  h->version = MJT_VERSION;
  h->hash = mj_modelHash(m);
#define X(name) h->name = m->name;
  MJ_STREAM_SIZES(X)
#undef X
  // fields without elements in this model (act when na = 0) are left out, so that a stream
  // always equals the one rebuilt from its text form, where such fields have no columns
  h->mask = mask & mjSTREAM_ALL;
  for (int f = 0; f < mjNSTREAMFIELD; f++) {
    int n = mj_streamFieldSize(h, f);
    if (!n) h->mask &= ~(1u << f);
    if (h->mask >> f & 1) h->nvalue += n;
  }
  snprintf(h->name, sizeof(h->name), "%s", !name || !strcmp(name, "-") ? "<stdout>" : name);
}

// the 64 header bytes of h
static void encodeHeader(const mjStreamHeader* h, unsigned char* b) {
  memcpy(b, MJT_MAGIC, 8);
  uint32_t v[2] = {MJT_VERSION, MJ_BYTEORDER};
  mj_copyLE(b + 8, v, 4, 2);
  mj_copyLE(b + 16, &h->hash, 8, 1);
  int32_t sizes[8], n = 0;
#define X(name) sizes[n++] = h->name;
  MJ_STREAM_SIZES(X)
#undef X
  mj_copyLE(b + 24, sizes, 4, 8);
  uint32_t mask = h->mask | (h->ranged ? mjSTREAM_RANGED : 0);
  mj_copyLE(b + 56, &mask, 4, 1);
  uint32_t crc = mj_crc32c(0, b, 60);
  mj_copyLE(b + 60, &crc, 4, 1);
}

// the checksum of a stream of the given version continuing from crc (0 to start)
static uint32_t checksum(int version, uint32_t crc, const void* p, size_t n) {
  return version == 1 ? mj_crc32(crc, p, n) : mj_crc32c(crc, p, n);
}

// the checksum's name in messages
static const char* checksumName(int version) { return version == 1 ? "CRC-32" : "CRC-32C"; }

int mj_streamWriteHeader(FILE* f, const mjStreamHeader* h, char* err, int errsz) {
  unsigned char b[MJT_HEADER + mjRANGE_BYTES];
  encodeHeader(h, b);
  if (h->ranged) mj_rangeEncode(&h->range, b + MJT_HEADER);
  size_t n = MJT_HEADER + (h->ranged ? mjRANGE_BYTES : 0);
  if (fwrite(b, 1, n, f) != n) {
    mj_ioError(err, errsz, "%s: write error: %s", h->name, strerror(errno));
    return -1;
  }
  return 0;
}

// read up to n bytes (fewer only at the end or on an error)
static size_t readBytes(FILE* f, void* buf, size_t n) { return fread(buf, 1, n, f); }

// check each header field in the order a reader can trust them
int mj_streamReadHeader(FILE* f, const char* name, mjStreamHeader* h, char* err, int errsz) {
  memset(h, 0, sizeof(*h));
  snprintf(h->name, sizeof(h->name), "%s", mj_ioName(name));
  const char* nm = h->name;
  unsigned char b[MJT_HEADER];
  size_t got = readBytes(f, b, MJT_HEADER);

  // the bytes and the magic
  if (ferror(f)) {
    mj_ioError(err, errsz, "%s: read error: %s", nm, strerror(errno));
    return -1;
  }
  if (!got) {
    mj_ioError(err, errsz, "%s: empty stream (no header)", nm);
    return -1;
  }
  if (memcmp(b, MJT_MAGIC, got < 8 ? got : 8)) {
    mj_ioError(err, errsz, "%s: not a state stream (bad magic)", nm);
    return -1;
  }
  if (got < MJT_HEADER) {
    mj_ioError(err, errsz, "%s: truncated header (%zu of %d bytes)", nm, got, MJT_HEADER);
    return -1;
  }

  // byte order, version, checksum
  uint32_t v[2], mask, crc;
  int32_t sizes[8];
  mj_copyLE(v, b + 8, 4, 2);
  mj_copyLE(&crc, b + 60, 4, 1);
  if (v[1] == MJ_BYTEORDER_SWAPPED) {
    mj_ioError(err, errsz, "%s: foreign byte order (big-endian stream); this build reads "
               "little-endian streams", nm);
    return -1;
  }
  if (v[1] != MJ_BYTEORDER) {
    mj_ioError(err, errsz, "%s: bad byte-order mark 0x%08x", nm, (unsigned)v[1]);
    return -1;
  }
  if (v[0] < 1 || v[0] > MJT_VERSION) {
    mj_ioError(err, errsz, "%s: stream format version %u; this build reads versions 1 to %u",
               nm, (unsigned)v[0], MJT_VERSION);
    return -1;
  }
  h->version = (int)v[0];
  if (crc != checksum(h->version, 0, b, 60)) {
    mj_ioError(err, errsz, "%s: corrupt header (bad %s)", nm, checksumName(h->version));
    return -1;
  }

  // hash, sizes, mask
  mj_copyLE(&h->hash, b + 16, 8, 1);
  mj_copyLE(sizes, b + 24, 4, 8);
  mj_copyLE(&mask, b + 56, 4, 1);
  int n = 0;
#define X(sz)                                                                                     \
  h->sz = sizes[n++];                                                                            \
  if (h->sz < 0 || h->sz > MJT_MAXSIZE) {                                                        \
    mj_ioError(err, errsz, "%s: header size " #sz " = %d is %s", nm, h->sz,                     \
               h->sz < 0 ? "negative" : "too large");                                          \
    return -1;                                                                                   \
  }
  MJ_STREAM_SIZES(X)
#undef X
  // a shard's range record
  if (mask & mjSTREAM_RANGED) {
    unsigned char r[mjRANGE_BYTES];
    size_t gotr = readBytes(f, r, mjRANGE_BYTES);
    if (gotr < mjRANGE_BYTES) {
      mj_ioError(err, errsz, "%s: truncated range record (%zu of %d bytes)", nm, gotr,
                 mjRANGE_BYTES);
      return -1;
    }
    if (mj_rangeDecode(r, nm, &h->range, err, errsz)) return -1;
    h->ranged = 1;
    mask &= ~mjSTREAM_RANGED;
  }
  if (mask & ~mjSTREAM_ALL) {
    mj_ioError(err, errsz, "%s: field mask 0x%08x names unknown fields", nm, (unsigned)mask);
    return -1;
  }
  h->mask = mask;
  long total = 0;
  for (int g = 0; g < mjNSTREAMFIELD; g++)
    if (mask >> g & 1) total += mj_streamFieldSize(h, g);
  if (total > MJT_MAXSIZE) {
    mj_ioError(err, errsz, "%s: frames of %ld numbers are too large", nm, total);
    return -1;
  }
  h->nvalue = (int)total;
  return 0;
}

// 0 when m has the stream's sizes, else -1 and a message naming the first that differs
static int checkSizes(const mjStreamHeader* h, const mjModel* m, char* err, int errsz) {
#define X(sz)                                                                                     \
  if (h->sz != m->sz) {                                                                          \
    mj_ioError(err, errsz, "%s: stream is for a model with " #sz " = %d, this model has %d",    \
               h->name, h->sz, m->sz);                                                           \
    return -1;                                                                                   \
  }
  MJ_STREAM_SIZES(X)
#undef X
  return 0;
}

// the sizes, then the hash of the whole model
int mj_streamCheckModel(const mjStreamHeader* h, const mjModel* m, char* err, int errsz) {
  if (checkSizes(h, m, err, errsz)) return -1;
  uint64_t hash = h->version < 3 ? mj_modelHashFNV(m) : mj_modelHash(m);
  if (h->hash != hash) {
    mj_ioError(err, errsz, "%s: stream was written for another model (model hash %016llx, "
               "this model %016llx)", h->name, (unsigned long long)h->hash,
               (unsigned long long)hash);
    return -1;
  }
  return 0;
}

// ---- frames ------------------------------------------------------------------------------------

// a frame on its way out: bytes gather in a chunk; the CRC runs over each chunk as it leaves
typedef struct {
  FILE* f;
  uint32_t crc;
  size_t n;
  int failed;
  unsigned char buf[4096];
} Emitter;

// an emitter writing to f, nothing gathered (its buffer left as it is: filled before read)
static void emitStart(Emitter* e, FILE* f) {
  e->f = f;
  e->crc = 0;
  e->n = 0;
  e->failed = 0;
}

// checksum and write out the gathered bytes
static void emitFlush(Emitter* e) {
  e->crc = mj_crc32c(e->crc, e->buf, e->n);
  if (e->n && fwrite(e->buf, 1, e->n, e->f) != e->n) e->failed = 1;
  e->n = 0;
}

// append n bytes (n <= the chunk size)
static void emitBytes(Emitter* e, const void* p, size_t n) {
  if (e->n + n > sizeof(e->buf)) emitFlush(e);
  memcpy(e->buf + e->n, p, n);
  e->n += n;
}

// append one number as a little-endian float64
static void emitNum(Emitter* e, mjtNum v) {
  double x = (double)v;
  unsigned char b[8];
  mj_copyLE(b, &x, 8, 1);
  emitBytes(e, b, 8);
}

// append n numbers as little-endian float64, a chunk at a time
static void emitNums(Emitter* e, const mjtNum* v, int n) {
  while (n > 0) {
    if (e->n + 8 > sizeof(e->buf)) emitFlush(e);
    int k = (int)((sizeof(e->buf) - e->n) / 8);
    if (k > n) k = n;
    mj_copyLE(e->buf + e->n, v, 8, (size_t)k);
    e->n += 8 * (size_t)k;
    v += k;
    n -= k;
  }
}

// the rest of the bytes, then their CRC
static int emitEnd(Emitter* e) {
  emitFlush(e);
  unsigned char b[4];
  mj_copyLE(b, &e->crc, 4, 1);
  if (fwrite(b, 1, 4, e->f) != 4) e->failed = 1;
  return e->failed ? -1 : 0;
}

int mj_streamWriteFrame(FILE* f, const mjStreamHeader* h, const mjData* d) {
  Emitter e;
  emitStart(&e, f);
  emitBytes(&e, MJT_MARKER, 4);
  // arrays of numbers whole, flags and counts one by one
  for (int g = 0; g < mjNSTREAMFIELD; g++) {
    if (!(h->mask >> g & 1)) continue;
    int n = mj_streamFieldSize(h, g);
    const mjtNum* v = fieldReals(d, g);
    if (v) emitNums(&e, v, n);
    else
      for (int i = 0; i < n; i++) emitNum(&e, fieldGet(d, g, i));
  }
  return emitEnd(&e);
}

int mj_streamWriteValues(FILE* f, const mjStreamHeader* h, const mjtNum* values) {
  Emitter e;
  emitStart(&e, f);
  emitBytes(&e, MJT_MARKER, 4);
  emitNums(&e, values, h->nvalue);
  return emitEnd(&e);
}

// a short read: the read error, or the frame that ends early
static int shortFrame(FILE* f, const mjStreamHeader* h, size_t got, char* err, int errsz) {
  if (ferror(f)) {
    mj_ioError(err, errsz, "%s: read error in frame %ld: %s", h->name, h->frame,
               strerror(errno));
  } else {
    mj_ioError(err, errsz, "%s: truncated frame %ld (%zu of %zu bytes)", h->name, h->frame, got,
               8 + 8 * (size_t)h->nvalue);
  }
  return -1;
}

int mj_streamReadValues(FILE* f, mjStreamHeader* h, mjtNum* values, char* err, int errsz) {
  // the marker: nothing at all is the clean end
  unsigned char mark[4], crcb[4];
  size_t got = readBytes(f, mark, 4);
  if (!got && !ferror(f)) return 0;
  if (got < 4) return shortFrame(f, h, got, err, errsz);
  if (memcmp(mark, MJT_MARKER, 4)) {
    mj_ioError(err, errsz, "%s: corrupt frame %ld (bad frame marker)", h->name, h->frame);
    return -1;
  }

  // the values as little-endian bytes, then the CRC
  size_t nb = 8 * (size_t)h->nvalue;
  size_t gotv = readBytes(f, values, nb);
  if (gotv < nb) return shortFrame(f, h, 4 + gotv, err, errsz);
  size_t gotc = readBytes(f, crcb, 4);
  if (gotc < 4) return shortFrame(f, h, 4 + nb + gotc, err, errsz);
  uint32_t stored, crc = checksum(h->version, checksum(h->version, 0, mark, 4), values, nb);
  mj_copyLE(&stored, crcb, 4, 1);
  if (stored != crc) {
    mj_ioError(err, errsz, "%s: corrupt frame %ld (bad %s)", h->name, h->frame,
               checksumName(h->version));
    return -1;
  }
  mj_copyLE(values, values, 8, (size_t)h->nvalue);
  h->frame++;
  return 1;
}

// the values of int fields (counts, warnings) must fit an int: 1e50 or NaN there means a
// corrupt frame; 0, or -1 and a message
static int checkInts(const mjStreamHeader* h, const mjtNum* v, char* err, int errsz) {
  for (int g = 0; g < mjNSTREAMFIELD; g++) {
    int off = mj_streamFieldOffset(h, g);
    if (off < 0 || (fieldKinds[g] != mjSK_INT && fieldKinds[g] != mjSK_WARNING)) continue;
    for (int i = 0; i < mj_streamFieldSize(h, g); i++) {
      if (!(v[off + i] >= INT_MIN && v[off + i] <= INT_MAX)) {
        mj_ioError(err, errsz, "%s: corrupt frame %ld (%s[%d] = %g is not an int)", h->name,
                   h->frame - 1, fieldNames[g], i, v[off + i]);
        return -1;
      }
    }
  }
  return 0;
}

int mj_streamReadFrame(FILE* f, mjStreamHeader* h, const mjModel* m, mjData* d,
                       char* err, int errsz) {
  // d's arrays have m's sizes: they must be the stream's
  if (checkSizes(h, m, err, errsz)) return -1;

  // the whole frame first (on the stack when small), so that d changes only when it is valid
  mjtNum small[1024];
  mjtNum* v = h->nvalue <= 1024 ? small : malloc(sizeof(mjtNum) * (size_t)h->nvalue);
  if (!v) {
    mj_ioError(err, errsz, "%s: out of memory", h->name);
    return -1;
  }
  int r = mj_streamReadValues(f, h, v, err, errsz);
  if (r == 1 && checkInts(h, v, err, errsz)) r = -1;
  if (r == 1) {
    // arrays of numbers whole, flags and counts one by one
    const mjtNum* p = v;
    for (int g = 0; g < mjNSTREAMFIELD; g++) {
      if (!(h->mask >> g & 1)) continue;
      int n = mj_streamFieldSize(h, g);
      mjtNum* dst = fieldReals(d, g);
      if (dst) memcpy(dst, p, sizeof(mjtNum) * (size_t)n);
      else
        for (int i = 0; i < n; i++) fieldSet(d, g, i, p[i]);
      p += n;
    }
  }
  if (v != small) free(v);
  return r;
}
