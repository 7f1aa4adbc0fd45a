// io.c: the binary model file (.mjb, man 5 mjb): writing, reading with validation, hashing;
// loading either format by its name (mj_loadAny); atomic output files.
//
// Layout (all little-endian, no padding; every field written one by one from the tables of
// mjxmacro.h, so a struct's padding never reaches the file):
//   magic "MJBMODEL" | u32 version | u32 byte-order mark | u32 sizeof(mjtNum) | u32 number of
//   sizes | u64 schema hash | i32 MJ_SIZES | MJ_OPTION_FIELDS | MJ_VISUAL_FIELDS |
//   MJ_STAT_FIELDS | MJ_MODEL_ARRAYS in table order | u32 CRC-32C of every byte before it
// (version 2; version 1, still read, has zlib's CRC-32 there).  The model hash that binds
// streams to a model is mj_hash64 of the version 2 file's bytes before the CRC; streams of
// versions before 3 hold the FNV-1a of the whole version 1 file instead (mj_modelHashFNV).
#include "io/io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/model.h"

_Static_assert(sizeof(int) == 4 && sizeof(float) == 4 && sizeof(double) == 8,
               "the file formats assume 32-bit int and float, 64-bit double");

#define MJB_MAGIC "MJBMODEL"
#define MJB_VERSION 2u  // the version written; 1 is read too
#define MJB_PREFIX 32  // magic, version, byte order, sizeof(mjtNum), number of sizes, schema

// ---- the layout ------------------------------------------------------------------------------

// the tables as text: its hash changes whenever a field is added, removed, retyped or resized,
// so a file written by a build with other tables is rejected instead of misread
static const char schemaText[] =
#define X(name) #name ","
  MJ_SIZES(X)
#undef X
#define X(type, name, count, shape) #type " " #name " " #count ";"
  MJ_OPTION_FIELDS(X) MJ_STAT_FIELDS(X)
#undef X
#define X(type, section, name, count, shape) #type " " #section " " #name " " #count ";"
  MJ_VISUAL_FIELDS(X)
#undef X
#define X(type, name, rows, cols) #type " " #name " " #rows " " #cols ";"
  MJ_MODEL_ARRAYS(X)
#undef X
  ;

// FNV-1a of the schema text
static uint64_t schemaHash(void) { return mj_fnv1a(MJ_FNV_INIT, schemaText, strlen(schemaText)); }

// number of sizes in MJ_SIZES
static size_t numSizes(void) {
  size_t n = 0;
#define X(name) n++;
  MJ_SIZES(X)
#undef X
  return n;
}

// bytes before the arrays: prefix, sizes, option, visual, statistic
static size_t headerBytes(void) {
  size_t n = MJB_PREFIX + sizeof(int) * numSizes();
#define X(type, name, count, shape) n += sizeof(type) * (count);
  MJ_OPTION_FIELDS(X) MJ_STAT_FIELDS(X)
#undef X
#define X(type, section, name, count, shape) n += sizeof(type) * (count);
  MJ_VISUAL_FIELDS(X)
#undef X
  return n;
}

// bytes of the arrays of a model with the sizes of m, unpadded
static size_t arrayBytes(const mjModel* m) {
  const mjModel* m_ = m;
  MJ_SIZES(MJ_X_SIZE_LOCAL)
  size_t n = 0;
#define X(type, name, rows, cols) n += sizeof(type) * (size_t)(rows) * (size_t)(cols);
  MJ_MODEL_ARRAYS(X)
#undef X
  return n;
}

// the exact size of the binary form of m: header, arrays, CRC
static size_t fileBytes(const mjModel* m) { return headerBytes() + arrayBytes(m) + 4; }

// a visitor of the file's fields: count elements of size bytes at p
typedef void (*FieldFn)(void* ctx, void* p, size_t size, size_t count);

// visit the sizes in file order
static void walkSizes(mjModel* m, FieldFn fn, void* ctx) {
#define X(name) fn(ctx, &m->name, sizeof(int), 1);
  MJ_SIZES(X)
#undef X
}

// visit option, visual, statistic and the arrays in file order (m's sizes are set)
static void walkBody(mjModel* m, FieldFn fn, void* ctx) {
#define X(type, name, count, shape) fn(ctx, (type*)&m->opt.name, sizeof(type), (count));
  MJ_OPTION_FIELDS(X)
#undef X
#define X(type, section, name, count, shape)                                                      \
  fn(ctx, (type*)&m->vis.section##_##name, sizeof(type), (count));
  MJ_VISUAL_FIELDS(X)
#undef X
#define X(type, name, count, shape) fn(ctx, (type*)&m->stat.name, sizeof(type), (count));
  MJ_STAT_FIELDS(X)
#undef X
  const mjModel* m_ = m;
  MJ_SIZES(MJ_X_SIZE_LOCAL)
#define X(type, name, rows, cols) fn(ctx, m->name, sizeof(type), (size_t)(rows) * (size_t)(cols));
  MJ_MODEL_ARRAYS(X)
#undef X
}

// ---- writing ---------------------------------------------------------------------------------

// where written bytes go: a buffer (or none), with the running CRC and hash of the format
// version written
typedef struct {
  unsigned char* buf;  // destination; NULL: only count, checksum and hash
  size_t pos;          // bytes so far
  uint32_t version;    // the file format version
  uint32_t crc;        // its CRC of the bytes so far (version 1 CRC-32, 2 CRC-32C when saving)
  mjHash64 hash;       // version 2 without a buffer: mj_hash64 of the bytes so far
  uint64_t fnv;        // version 1: FNV-1a of the bytes so far
} Sink;

// a sink of the given version into buf (NULL: none)
static Sink newSink(unsigned char* buf, uint32_t version) {
  Sink s = {.buf = buf, .version = version, .fnv = MJ_FNV_INIT};
  mj_hash64Init(&s.hash);
  return s;
}

// append count little-endian elements, converted in chunks when there is no buffer
static void sinkPut(void* ctx, void* src, size_t size, size_t count) {
  Sink* s = ctx;
  const unsigned char* p = src;
  unsigned char tmp[4096];
  while (count) {
    size_t k = count < sizeof(tmp) / size ? count : sizeof(tmp) / size;
    unsigned char* dst = s->buf ? s->buf + s->pos : tmp;
    mj_copyLE(dst, p, size, k);
    if (s->version == 1) {  // the version 1 hash: FNV-1a of the bytes and their CRC-32
      s->crc = mj_crc32(s->crc, dst, k * size);
      s->fnv = mj_fnv1a(s->fnv, dst, k * size);
    } else if (s->buf) {    // saving: the CRC-32C written last
      s->crc = mj_crc32c(s->crc, dst, k * size);
    } else {                // hashing: mj_hash64 of the bytes before the CRC
      mj_hash64Update(&s->hash, dst, k * size);
    }
    s->pos += k * size;
    p += k * size;
    count -= k;
  }
}

// the whole file into the sink: prefix, sizes, structs, arrays, CRC
static void writeModel(const mjModel* m, Sink* s) {
  mjModel* mm = (mjModel*)m;  // the walk only reads through the write visitor
  char magic[8];
  memcpy(magic, MJB_MAGIC, 8);
  sinkPut(s, magic, 1, 8);
  uint32_t prefix[4] = {s->version, MJ_BYTEORDER, sizeof(mjtNum), (uint32_t)numSizes()};
  sinkPut(s, prefix, 4, 4);
  uint64_t schema = schemaHash();
  sinkPut(s, &schema, 8, 1);
  walkSizes(mm, sinkPut, s);
  walkBody(mm, sinkPut, s);
  uint32_t crc = s->crc;
  if (!s->buf && s->version != 1) return;  // hashing: the hash stops before the CRC
  sinkPut(s, &crc, 4, 1);
}

// the file's bytes in a new buffer; NULL when out of memory or the size check fails
void* mj_modelToBuffer(const mjModel* m, size_t* size) {
  size_t total = fileBytes(m);
  Sink s = newSink(malloc(total), MJB_VERSION);
  if (!s.buf) return NULL;
  writeModel(m, &s);
  if (s.pos != total) {  // the layout functions disagree: a bug, never a partial file
    free(s.buf);
    return NULL;
  }
  *size = total;
  return s.buf;
}

// mj_hash64 of the file's bytes before the CRC, computed without building them
uint64_t mj_modelHash(const mjModel* m) {
  Sink s = newSink(NULL, MJB_VERSION);
  writeModel(m, &s);
  return mj_hash64Final(&s.hash);
}

// the model hash of streams before version 3: FNV-1a of the whole version 1 file
uint64_t mj_modelHashFNV(const mjModel* m) {
  Sink s = newSink(NULL, 1);
  writeModel(m, &s);
  return s.fnv;
}

// write the binary form through an atomic output file
int mj_saveModel(const mjModel* m, const char* filename, char* err, int errsz) {
  size_t size;
  void* buf = mj_modelToBuffer(m, &size);
  if (!buf) {
    mj_ioError(err, errsz, "%s: out of memory", filename);
    return -1;
  }
  mjOutFile o;
  if (mj_outOpen(&o, filename, err, errsz)) {
    free(buf);
    return -1;
  }
  int ok = fwrite(buf, 1, size, o.f) == size;
  free(buf);
  if (!ok) {
    mj_ioError(err, errsz, "%s: write error: %s", filename, strerror(errno));
    mj_outClose(&o, 0, NULL, 0);
    return -1;
  }
  return mj_outClose(&o, 1, err, errsz);
}

// ---- reading ---------------------------------------------------------------------------------

// where read bytes come from
typedef struct {
  const unsigned char* buf;
  size_t pos;
} Source;

// take count little-endian elements
static void sourceGet(void* ctx, void* dst, size_t size, size_t count) {
  Source* s = ctx;
  mj_copyLE(dst, s->buf + s->pos, size, count);
  s->pos += size * count;
}

// check the fixed prefix; 0 or -1 and a message
static int checkPrefix(const unsigned char* b, size_t size, const char* name,
                       char* err, int errsz) {
  // magic, also on a file too short to hold it
  if (!size) {
    mj_ioError(err, errsz, "%s: empty file", name);
    return -1;
  }
  if (memcmp(b, MJB_MAGIC, size < 8 ? size : 8)) {
    mj_ioError(err, errsz, "%s: not a binary model file (bad magic)", name);
    return -1;
  }
  if (size < MJB_PREFIX) {
    mj_ioError(err, errsz, "%s: truncated header (%zu bytes, the header needs %zu)", name, size,
               headerBytes());
    return -1;
  }
  // byte order first: a foreign file would misread every later number
  uint32_t v[4];
  uint64_t schema;
  mj_copyLE(v, b + 8, 4, 4);
  mj_copyLE(&schema, b + 24, 8, 1);
  if (v[1] == MJ_BYTEORDER_SWAPPED) {
    mj_ioError(err, errsz, "%s: foreign byte order (big-endian file); this build reads "
               "little-endian model files", name);
    return -1;
  }
  if (v[1] != MJ_BYTEORDER) {
    mj_ioError(err, errsz, "%s: bad byte-order mark 0x%08x", name, (unsigned)v[1]);
    return -1;
  }
  if (v[0] < 1 || v[0] > MJB_VERSION) {
    mj_ioError(err, errsz, "%s: format version %u; this build reads versions 1 to %u", name,
               (unsigned)v[0], MJB_VERSION);
    return -1;
  }
  if (v[2] != sizeof(mjtNum)) {
    mj_ioError(err, errsz, "%s: mjtNum is %u bytes in the file, %zu in this build", name,
               (unsigned)v[2], sizeof(mjtNum));
    return -1;
  }
  if (v[3] != numSizes() || schema != schemaHash()) {
    mj_ioError(err, errsz, "%s: model layout differs from this build's (schema %016llx, "
               "expected %016llx): recompile the model", name, (unsigned long long)schema,
               (unsigned long long)schemaHash());
    return -1;
  }
  return 0;
}

// read and check the sizes into *sizes; 0 or -1 and a message naming the bad size
static int readSizes(const unsigned char* b, size_t size, const char* name, mjModel* sizes,
                     char* err, int errsz) {
  if (size < headerBytes() + 4) {
    mj_ioError(err, errsz, "%s: truncated header (%zu bytes, the header needs %zu)", name, size,
               headerBytes());
    return -1;
  }
  Source src = {b, MJB_PREFIX};
  memset(sizes, 0, sizeof(*sizes));
  walkSizes(sizes, sourceGet, &src);
  // each size on its own, then the arrays they imply
#define X(sz)                                                                                     \
  if (sizes->sz < 0 || sizes->sz > (1 << 28)) {                                                 \
    mj_ioError(err, errsz, "%s: size " #sz " = %d is %s", name, sizes->sz,                      \
               sizes->sz < 0 ? "negative" : "too large");                                      \
    return -1;                                                                                   \
  }
  MJ_SIZES(X)
#undef X
  if (!mj_sizesValid(sizes)) {
    mj_ioError(err, errsz, "%s: sizes too large (the model would exceed 1.5 GiB)", name);
    return -1;
  }
  return 0;
}

// validate everything (structure, sizes, length, CRC), copy into a new model, check its ids
mjModel* mj_modelFromBuffer(const void* buf, size_t size, const char* name, char* err,
                            int errsz) {
  const unsigned char* b = buf;
  name = mj_ioName(name);
  mjModel sizes;
  if (checkPrefix(b, size, name, err, errsz) || readSizes(b, size, name, &sizes, err, errsz)) {
    return NULL;
  }

  // the sizes fix the length exactly
  size_t total = fileBytes(&sizes);
  if (size < total) {
    mj_ioError(err, errsz, "%s: truncated (%zu bytes, its sizes need %zu)", name, size, total);
    return NULL;
  }
  if (size > total) {
    mj_ioError(err, errsz, "%s: %zu bytes of trailing garbage after the model", name,
               size - total);
    return NULL;
  }

  // checksum over everything before the stored CRC: CRC-32C, or version 1's CRC-32
  uint32_t version, stored;
  mj_copyLE(&version, b + 8, 4, 1);
  uint32_t computed = version == 1 ? mj_crc32(0, b, total - 4) : mj_crc32c(0, b, total - 4);
  mj_copyLE(&stored, b + total - 4, 4, 1);
  if (stored != computed) {
    mj_ioError(err, errsz, "%s: bad %s (stored %08x, computed %08x): the file is corrupt", name,
               version == 1 ? "CRC-32" : "CRC-32C", (unsigned)stored, (unsigned)computed);
    return NULL;
  }

  // the model
  mjModel* m = mj_makeModel(&sizes);
  if (!m) {
    mj_ioError(err, errsz, "%s: out of memory", name);
    return NULL;
  }
  Source src = {b, MJB_PREFIX + sizeof(int) * numSizes()};
  walkBody(m, sourceGet, &src);

  // intact bytes can still hold ids out of range: the semantic check
  char why[256];
  if (mj_validateModel(m, why, sizeof(why))) {
    mj_ioError(err, errsz, "%s: invalid model: %s", name, why);
    mj_deleteModel(m);
    return NULL;
  }
  return m;
}

// all of f in a malloc'd buffer; NULL on a read error or when out of memory (errno set)
static unsigned char* readAll(FILE* f, size_t* size) {
  size_t cap = 1 << 16, n = 0;
  unsigned char* buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    unsigned char* grown = realloc(buf, cap * 2);
    if (!grown) free(buf);
    buf = grown;
    cap *= 2;
  }
  if (buf && ferror(f)) {
    free(buf);
    return NULL;
  }
  *size = n;
  return buf;
}

// read the whole file ("-": stdin), then parse it from memory
mjModel* mj_loadModel(const char* filename, char* err, int errsz) {
  const char* name = mj_ioName(filename);
  int isStdin = !filename || !strcmp(filename, "-");
  FILE* f = isStdin ? stdin : fopen(filename, "rb");
  if (!f) {
    mj_ioError(err, errsz, "%s: %s", name, strerror(errno));
    return NULL;
  }
  size_t size = 0;
  errno = 0;
  unsigned char* buf = readAll(f, &size);
  int saved = errno;
  if (!isStdin) fclose(f);
  if (!buf) {
    mj_ioError(err, errsz, "%s: read error: %s", name, strerror(saved ? saved : ENOMEM));
    return NULL;
  }
  mjModel* m = mj_modelFromBuffer(buf, size, name, err, errsz);
  free(buf);
  return m;
}

// whether a file name ends in .xml or .urdf, in any case
int mj_isSource(const char* filename) {
  const char* dot = filename ? strrchr(filename, '.') : NULL;
  return dot && (!strcasecmp(dot, ".xml") || !strcasecmp(dot, ".urdf"));
}

// a source (.xml, .urdf) compiles, anything else is binary
mjModel* mj_loadAny(const char* filename, char* err, int errsz) {
  if (mj_isSource(filename)) return mj_loadXML(filename, err, errsz);
  return mj_loadModel(filename, err, errsz);
}

// ---- atomic output files ---------------------------------------------------------------------

// a fresh temporary file next to the target: DIR/.BASE.PID.N.tmp, created exclusively
int mj_outOpen(mjOutFile* o, const char* path, char* err, int errsz) {
  memset(o, 0, sizeof(*o));
  if (strlen(path) >= sizeof(o->path) - 32) {
    mj_ioError(err, errsz, "%s: file name too long", path);
    return -1;
  }
  strcpy(o->path, path);
  if (!strcmp(path, "-")) {
    o->f = stdout;
    return 0;
  }

  // an existing target that is not a regular file (/dev/null, a FIFO, a terminal) is written
  // in place: renaming over it would replace it with a file
  struct stat st;
  if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
    o->f = fopen(path, "wb");
    if (!o->f) {
      mj_ioError(err, errsz, "%s: cannot open: %s", path, strerror(errno));
      return -1;
    }
    o->direct = 1;
    return 0;
  }

  // split the target into directory and base name
  const char* slash = strrchr(path, '/');
  int dirlen = slash ? (int)(slash - path + 1) : 0;
  const char* base = slash ? slash + 1 : path;

  // try names until one is free
  static unsigned counter;
  for (int tries = 0; tries < 100; tries++) {
    snprintf(o->tmp, sizeof(o->tmp), "%.*s.%s.%ld.%u.tmp", dirlen, path, base, (long)getpid(),
             counter++);
    int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0 && errno == EEXIST) continue;
    if (fd < 0) break;
    o->f = fdopen(fd, "wb");
    if (o->f) {
      o->buf = malloc(MJ_OUTBUF);
      if (o->buf) setvbuf(o->f, o->buf, _IOFBF, MJ_OUTBUF);
      return 0;
    }
    close(fd);
    unlink(o->tmp);
    break;
  }
  mj_ioError(err, errsz, "%s: cannot create a temporary file: %s", path, strerror(errno));
  o->tmp[0] = 0;
  return -1;
}

// flush and close; rename into place on commit, else (or on any failure) remove the temporary
int mj_outClose(mjOutFile* o, int commit, char* err, int errsz) {
  // standard output: flush only
  if (!o->tmp[0] && !o->direct) {
    if (commit && o->f && (fflush(o->f) || ferror(o->f))) {
      mj_ioError(err, errsz, "write error on standard output: %s", strerror(errno));
      return -1;
    }
    return 0;
  }

  // a special file written in place: close it, nothing to rename or remove
  if (o->direct) {
    int bad = o->f && (ferror(o->f) | fclose(o->f));
    o->f = NULL;
    o->direct = 0;
    if (commit && bad) {
      mj_ioError(err, errsz, "%s: write error: %s", o->path, strerror(errno));
      return -1;
    }
    return 0;
  }

  // a file: the writes, the close and the rename must all succeed
  int saved = ferror(o->f) ? EIO : 0;
  if (fclose(o->f) && !saved) saved = errno;
  o->f = NULL;
  free(o->buf);
  o->buf = NULL;
  if (commit && !saved && rename(o->tmp, o->path)) saved = errno;
  if (!commit || saved) unlink(o->tmp);
  o->tmp[0] = 0;
  if (commit && saved) {
    mj_ioError(err, errsz, "%s: write error: %s", o->path, strerror(saved));
    return -1;
  }
  return 0;
}
