// io.c tests: the binary model file round trip, its byte layout, hashing, atomic saving, and
// the loader's rejection of malformed files, each with its own message.
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "bytes.h"
#include "io/io.h"
#include "mj.h"

// ---- fixtures --------------------------------------------------------------------------------

// a model with every size nonzero and every array filled with distinct, awkward values
static mjModel* testModel(int seed) {
  mjModel sizes;
  memset(&sizes, 0, sizeof(sizes));
  int k = 2;
#define X(name) sizes.name = k++ % 5 + 1;
  MJ_SIZES(X)
#undef X
  sizes.nnames = 40;
  sizes.npaths = 9;
  mjModel* m = mj_makeModel(&sizes);
  cr_assert_not_null(m);
  // every element: a value that depends on array, index and seed; doubles get non-round bits
  const mjModel* m_ = m;
  MJ_SIZES(MJ_X_SIZE_LOCAL)
  unsigned v = 1234567u * (unsigned)seed + 1;
#define X(type, name, rows, cols)                                                                \
  for (size_t i = 0; i < (size_t)(rows) * (cols); i++) {                                        \
    v = v * 1103515245u + 12345u;                                                               \
    m->name[i] = (type)((double)(v >> 8) / 7.0 - 1e6);                                          \
  }
  MJ_MODEL_ARRAYS(X)
#undef X
  m->opt.timestep = 0.001 * seed + 1.0 / 3.0;
  m->opt.gravity[0] = -0.0;
  m->opt.disableflags = 0x55;
  m->vis.global_fovy = 33.3f;
  m->stat.center[2] = 1e-300;
  return m;
}

// a model that passes mj_validateModel (the loader refuses ids out of range): the compiled
// arm, every real of its arrays replaced by a distinct, awkward, positive value (wrap_prm holds
// side-site ids and stays; so do the actuators' damping and armature, which jnt_actuatorid and
// tendon_actuatorid would have to follow, and which site transmissions refuse; and the delays
// and sensor intervals, which need history buffers and phases within their periods)
static mjModel* validModel(int seed) {
  char err[512] = "";
  mjModel* m = mj_loadXML("models/arm.xml", err, sizeof(err));
  cr_assert_not_null(m, "%s", err);
  const mjModel* m_ = m;
  MJ_SIZES(MJ_X_SIZE_LOCAL)
  unsigned v = 7654321u * (unsigned)seed + 1;
#define X(type, name, rows, cols)                                                                \
  if (_Generic(m->name, mjtNum*: 1, float*: 1, default: 0) && strcmp(#name, "wrap_prm") &&       \
      strncmp(#name, "actuator_damping", 16) && strcmp(#name, "actuator_armature") &&           \
      !strstr(#name, "_delay") && strcmp(#name, "sensor_interval"))                            \
    for (size_t i = 0; i < (size_t)(rows) * (cols); i++) {                                      \
      v = v * 1103515245u + 12345u;                                                             \
      m->name[i] = (type)((double)(v >> 8) / 7.0);                                              \
    }
  MJ_MODEL_ARRAYS(X)
#undef X
  m->opt.timestep = 0.001 * seed + 1.0 / 3.0;
  m->opt.gravity[0] = -0.0;
  m->opt.disableflags = 0x55;
  m->vis.global_fovy = 33.3f;
  m->stat.center[2] = 1e-300;
  return m;
}

// the bytes of the binary form of m
static unsigned char* bytesOf(const mjModel* m, size_t* n) {
  unsigned char* b = mj_modelToBuffer(m, n);
  cr_assert_not_null(b);
  return b;
}

// rewrite the trailing CRC (CRC-32C; zlib's CRC-32 in a version 1 file) so that only the
// change under test is wrong
static void fixCrc(unsigned char* b, size_t n) {
  put32(b + n - 4, le32(b + 8) == 1 ? (uint32_t)crc32(0, b, (uInt)(n - 4)) : crc32cRef(b, n - 4));
}

// parse b and expect failure with a message containing want
static void expectError(const unsigned char* b, size_t n, const char* want) {
  char err[512] = "";
  mjModel* m = mj_modelFromBuffer(b, n, "bad.mjb", err, sizeof(err));
  cr_assert_null(m, "accepted a malformed file, expected '%s'", want);
  cr_assert(strstr(err, want), "message '%s' lacks '%s'", err, want);
  cr_assert(!strncmp(err, "bad.mjb: ", 9), "message '%s' does not name the file", err);
}

// offset of the sizes in the file: the 32-byte prefix comes first
#define SIZES_AT 32

// index of size `name` in MJ_SIZES
static int sizeIndex(const char* name) {
  int i = 0;
#define X(sz) if (!strcmp(#sz, name)) return i; i++;
  MJ_SIZES(X)
#undef X
  cr_assert_fail("no size %s", name);
  return -1;
}

// a scratch directory, removed with its files by rmScratch
static char scratch[64];
static void mkScratch(void) {
  strcpy(scratch, "/tmp/mjiotestXXXXXX");
  cr_assert_not_null(mkdtemp(scratch));
}

// number of entries in the scratch directory besides . and ..
static int scratchEntries(void) {
  DIR* dir = opendir(scratch);
  int n = 0;
  for (struct dirent* e; (e = readdir(dir));)
    n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  closedir(dir);
  return n;
}

// remove the scratch directory and its files
static void rmScratch(void) {
  DIR* dir = opendir(scratch);
  for (struct dirent* e; (e = readdir(dir));) {
    char p[512];
    snprintf(p, sizeof(p), "%s/%s", scratch, e->d_name);
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) unlink(p);
  }
  closedir(dir);
  rmdir(scratch);
}

// whole file into memory
static unsigned char* slurp(const char* path, size_t* n) {
  FILE* f = fopen(path, "rb");
  cr_assert_not_null(f, "cannot open %s", path);
  unsigned char* b = malloc(1 << 20);
  *n = fread(b, 1, 1 << 20, f);
  fclose(f);
  return b;
}

// ---- round trips -------------------------------------------------------------------------------

Test(io, buffer_round_trip_is_bit_for_bit) {
  mjModel* m = validModel(1);
  size_t n1, n2;
  unsigned char* b1 = bytesOf(m, &n1);
  char err[256] = "";
  mjModel* r = mj_modelFromBuffer(b1, n1, "rt.mjb", err, sizeof(err));
  cr_assert_not_null(r, "%s", err);
  unsigned char* b2 = bytesOf(r, &n2);
  cr_assert_eq(n1, n2);
  cr_assert(!memcmp(b1, b2, n1));
  // every array and struct field equals the original, element by element
  cr_assert_eq(r->nbuffer, m->nbuffer);
  cr_assert(!memcmp(r->buffer, m->buffer, m->nbuffer));
  cr_assert(!memcmp(&r->vis, &m->vis, sizeof(mjVisual)));
  cr_assert(!memcmp(&r->stat, &m->stat, sizeof(mjStatistic)));
  cr_assert_eq(r->opt.timestep, m->opt.timestep);
  cr_assert(r->opt.gravity[0] == 0 && signbit(r->opt.gravity[0]));
  cr_assert_eq(r->opt.disableflags, 0x55);
  cr_assert_eq(r->key_qpos[r->nkey * r->nq - 1], m->key_qpos[m->nkey * m->nq - 1]);
  free(b1);
  free(b2);
  mj_deleteModel(m);
  mj_deleteModel(r);
}

Test(io, file_round_trip_and_atomic_save) {
  mkScratch();
  char p1[128], p2[128], err[256] = "";
  snprintf(p1, sizeof(p1), "%s/a.mjb", scratch);
  snprintf(p2, sizeof(p2), "%s/b.mjb", scratch);
  mjModel* m = validModel(2);
  cr_assert_eq(mj_saveModel(m, p1, err, sizeof(err)), 0, "%s", err);
  mjModel* r = mj_loadModel(p1, err, sizeof(err));
  cr_assert_not_null(r, "%s", err);
  cr_assert_eq(mj_saveModel(r, p2, err, sizeof(err)), 0, "%s", err);
  size_t n1, n2;
  unsigned char* b1 = slurp(p1, &n1);
  unsigned char* b2 = slurp(p2, &n2);
  cr_assert_eq(n1, n2);
  cr_assert(!memcmp(b1, b2, n1));
  // no temporary file is left next to the outputs
  cr_assert_eq(scratchEntries(), 2);
  // saving over an existing file replaces it
  mjModel* other = validModel(3);
  cr_assert_eq(mj_saveModel(other, p1, err, sizeof(err)), 0, "%s", err);
  mjModel* r2 = mj_loadAny(p1, err, sizeof(err));
  cr_assert_not_null(r2, "%s", err);
  cr_assert_eq(r2->opt.timestep, other->opt.timestep);
  cr_assert_eq(scratchEntries(), 2);
  free(b1);
  free(b2);
  mj_deleteModel(m);
  mj_deleteModel(r);
  mj_deleteModel(r2);
  mj_deleteModel(other);
  rmScratch();
}

Test(io, load_from_stdin) {
  mkScratch();
  char p[128], err[256] = "";
  snprintf(p, sizeof(p), "%s/in.mjb", scratch);
  mjModel* m = validModel(4);
  cr_assert_eq(mj_saveModel(m, p, err, sizeof(err)), 0, "%s", err);
  cr_assert_not_null(freopen(p, "rb", stdin));
  mjModel* r = mj_loadModel("-", err, sizeof(err));
  cr_assert_not_null(r, "%s", err);
  cr_assert_eq(mj_modelHash(r), mj_modelHash(m));
  mj_deleteModel(m);
  mj_deleteModel(r);
  rmScratch();
}

Test(io, save_failure_leaves_nothing) {
  mkScratch();
  char p[160], err[256] = "";
  snprintf(p, sizeof(p), "%s/missing/dir/x.mjb", scratch);
  mjModel* m = testModel(5);
  cr_assert_eq(mj_saveModel(m, p, err, sizeof(err)), -1);
  cr_assert(strstr(err, "x.mjb: cannot create a temporary file: No such file or directory"),
            "%s", err);
  cr_assert_eq(scratchEntries(), 0);
  mj_deleteModel(m);
  rmScratch();
}

Test(io, outfile_discard_removes_temporary) {
  mkScratch();
  char p[128], err[256] = "";
  snprintf(p, sizeof(p), "%s/out.txt", scratch);
  mjOutFile o;
  cr_assert_eq(mj_outOpen(&o, p, err, sizeof(err)), 0, "%s", err);
  fputs("partial", o.f);
  cr_assert_eq(scratchEntries(), 1);  // the temporary only
  cr_assert_eq(access(p, F_OK), -1);
  cr_assert_eq(mj_outClose(&o, 0, err, sizeof(err)), 0);
  cr_assert_eq(scratchEntries(), 0);
  rmScratch();
}

// ---- layout ------------------------------------------------------------------------------------

Test(io, byte_layout_of_the_header) {
  mjModel* m = testModel(6);
  size_t n;
  unsigned char* b = bytesOf(m, &n);
  cr_assert(!memcmp(b, "MJBMODEL", 8));
  cr_assert_eq(le32(b + 8), 2);           // version
  cr_assert(!memcmp(b + 12, "\x04\x03\x02\x01", 4));  // byte-order mark 0x01020304, LE
  cr_assert_eq(le32(b + 16), 8);          // sizeof(mjtNum)
  int nsizes = 0;
#define X(name) nsizes++;
  MJ_SIZES(X)
#undef X
  cr_assert_eq(le32(b + 20), (uint32_t)nsizes);
  cr_assert_eq((int)le32(b + SIZES_AT + 4 * sizeIndex("nbody")), m->nbody);
  cr_assert_eq((int)le32(b + SIZES_AT + 4 * sizeIndex("nstack")), m->nstack);
  // option right after the sizes: timestep is its first double
  double ts;
  memcpy(&ts, b + SIZES_AT + 4 * nsizes, 8);
  cr_assert_eq(ts, m->opt.timestep);
  // the CRC is the CRC-32C of everything before it
  cr_assert_eq(le32(b + n - 4), crc32cRef(b, n - 4));
  free(b);
  mj_deleteModel(m);
}

Test(io, size_of_an_empty_model_has_no_padding) {
  mjModel sizes;
  memset(&sizes, 0, sizeof(sizes));
  mjModel* m = mj_makeModel(&sizes);
  size_t n;
  unsigned char* b = bytesOf(m, &n);
  int nsizes = 0;
#define X(name) nsizes++;
  MJ_SIZES(X)
#undef X
  // option, statistic: the members' bytes without the structs' padding; visual: all floats
  size_t opt = 0, stat = 0;
#define X(type, name, count, shape) opt += sizeof(type) * (count);
  MJ_OPTION_FIELDS(X)
#undef X
#define X(type, name, count, shape) stat += sizeof(type) * (count);
  MJ_STAT_FIELDS(X)
#undef X
  size_t want = 32 + 4 * (size_t)nsizes + opt + sizeof(mjVisual) + stat + 4;
  cr_assert_eq(sizeof(mjStatistic), stat);
  cr_assert_eq(n, want, "%zu bytes, expected %zu", n, want);
  free(b);
  mj_deleteModel(m);
}

Test(io, array_bytes_follow_the_table) {
  // one body more adds exactly the per-body bytes of the table, no padding
  mjModel s1, s2;
  memset(&s1, 0, sizeof(s1));
  s2 = s1;
  s2.nbody = 1;
  mjModel* m1 = mj_makeModel(&s1);
  mjModel* m2 = mj_makeModel(&s2);
  size_t n1, n2, perBody = 0;
  const mjModel* m_ = m1;
  MJ_SIZES(MJ_X_SIZE_LOCAL)
  free(bytesOf(m1, &n1));
  free(bytesOf(m2, &n2));
#define X(type, name, rows, cols) if (!strcmp(#rows, "nbody")) perBody += sizeof(type) * (cols);
  MJ_MODEL_ARRAYS(X)
#undef X
  cr_assert_eq(n2 - n1, perBody);
  cr_assert_gt(perBody, 100);
  mj_deleteModel(m1);
  mj_deleteModel(m2);
}

Test(io, hash_is_hash64_of_the_file_before_its_crc) {
  mjModel* m = testModel(7);
  size_t n;
  unsigned char* b = bytesOf(m, &n);
  cr_assert_eq(mj_modelHash(m), hash64Ref(b, n - 4));
  // the hash of streams before version 3: FNV-1a of the version 1 file
  put32(b + 8, 1);
  fixCrc(b, n);
  cr_assert_eq(mj_modelHashFNV(m), fnvRef(b, n));
  mjModel* c = mj_copyModel(m);
  cr_assert_eq(mj_modelHash(c), mj_modelHash(m));
  c->body_mass[1] = nextafter(c->body_mass[1], 1e300);
  cr_assert_neq(mj_modelHash(c), mj_modelHash(m));
  free(b);
  mj_deleteModel(m);
  mj_deleteModel(c);
}

// the hash and CRC-32C of every length up to 200 bytes, given in random pieces, against their
// definitions (bytes.h): the partial blocks and the tails of the 8-byte paths
Test(io, hash64_and_crc32c_of_pieces) {
  unsigned char b[200];
  unsigned r = 12345;
  for (int i = 0; i < 200; i++) b[i] = (unsigned char)((r = r * 1103515245u + 12345u) >> 16);
  for (size_t n = 0; n <= 200; n++) {
    mjHash64 h;
    mj_hash64Init(&h);
    uint32_t crc = 0;
    for (size_t at = 0; at < n;) {
      size_t k = 1 + ((r = r * 1103515245u + 12345u) >> 16) % 40;
      if (k > n - at) k = n - at;
      mj_hash64Update(&h, b + at, k);
      crc = mj_crc32c(crc, b + at, k);
      at += k;
    }
    cr_assert_eq(mj_hash64Final(&h), hash64Ref(b, n), "n = %zu", n);
    cr_assert_eq(crc, crc32cRef(b, n), "n = %zu", n);
  }
  // one changed bit changes the hash, also in the zero padding's place
  unsigned char c[40] = {0};
  uint64_t h0 = hash64Ref(c, 40);
  c[39] = 1;
  cr_assert_neq(hash64Ref(c, 40), h0);
  cr_assert_neq(hash64Ref(c, 39), hash64Ref(c, 40));
}

// ---- malformed files ---------------------------------------------------------------------------

// a valid file to damage
static unsigned char* good(size_t* n) {
  mjModel* m = testModel(8);
  unsigned char* b = bytesOf(m, n);
  mj_deleteModel(m);
  return b;
}

Test(io, rejects_empty) {
  expectError((const unsigned char*)"", 0, "empty file");
}

Test(io, rejects_truncated_in_magic) {
  size_t n;
  unsigned char* b = good(&n);
  expectError(b, 5, "truncated header (5 bytes");
  free(b);
}

Test(io, rejects_truncated_in_prefix) {
  size_t n;
  unsigned char* b = good(&n);
  expectError(b, 20, "truncated header (20 bytes");
  free(b);
}

Test(io, rejects_truncated_in_sizes) {
  size_t n;
  unsigned char* b = good(&n);
  expectError(b, 100, "truncated header (100 bytes");
  free(b);
}

Test(io, rejects_truncated_in_arrays) {
  size_t n;
  unsigned char* b = good(&n);
  char want[128];
  snprintf(want, sizeof(want), "truncated (%zu bytes, its sizes need %zu)", n / 2 + 3, n);
  expectError(b, n / 2 + 3, want);
  free(b);
}

Test(io, rejects_missing_last_byte) {
  size_t n;
  unsigned char* b = good(&n);
  char want[128];
  snprintf(want, sizeof(want), "truncated (%zu bytes, its sizes need %zu)", n - 1, n);
  expectError(b, n - 1, want);
  free(b);
}

Test(io, rejects_trailing_garbage) {
  size_t n;
  unsigned char* b = good(&n);
  unsigned char* big = calloc(n + 7, 1);
  memcpy(big, b, n);
  expectError(big, n + 7, "7 bytes of trailing garbage after the model");
  free(big);
  free(b);
}

Test(io, rejects_wrong_magic) {
  size_t n;
  unsigned char* b = good(&n);
  b[2] = 'X';
  expectError(b, n, "not a binary model file (bad magic)");
  expectError((const unsigned char*)"<mujoco model=\"x\"/>", 19, "bad magic");
  free(b);
}

Test(io, rejects_other_version) {
  size_t n;
  unsigned char* b = good(&n);
  put32(b + 8, 3);
  fixCrc(b, n);
  expectError(b, n, "format version 3; this build reads versions 1 to 2");
  put32(b + 8, 0);
  fixCrc(b, n);
  expectError(b, n, "format version 0; this build reads versions 1 to 2");
  free(b);
}

Test(io, reads_version_1) {
  // version 1: the same bytes but for the version and zlib's CRC-32
  size_t n;
  mjModel* m = validModel(3);
  unsigned char* b = bytesOf(m, &n);
  put32(b + 8, 1);
  fixCrc(b, n);
  char err[256];
  mjModel* r = mj_modelFromBuffer(b, n, "v1", err, sizeof(err));
  cr_assert_not_null(r, "%s", err);
  cr_assert_eq(mj_modelHash(r), mj_modelHash(m));
  b[n - 100] ^= 0x10;
  expectError(b, n, "bad CRC-32 (stored");
  mj_deleteModel(r);
  mj_deleteModel(m);
  free(b);
}

Test(io, rejects_foreign_endianness) {
  size_t n;
  unsigned char* b = good(&n);
  memcpy(b + 12, "\x01\x02\x03\x04", 4);  // the mark as a big-endian writer stores it
  expectError(b, n, "foreign byte order (big-endian file)");
  free(b);
}

Test(io, rejects_bad_byte_order_mark) {
  size_t n;
  unsigned char* b = good(&n);
  put32(b + 12, 0xdeadbeef);
  expectError(b, n, "bad byte-order mark 0xdeadbeef");
  free(b);
}

Test(io, rejects_mjtnum_size_mismatch) {
  size_t n;
  unsigned char* b = good(&n);
  put32(b + 16, 4);
  expectError(b, n, "mjtNum is 4 bytes in the file, 8 in this build");
  free(b);
}

Test(io, rejects_other_schema) {
  size_t n;
  unsigned char* b = good(&n);
  b[24] ^= 1;
  expectError(b, n, "model layout differs from this build's");
  put32(b + 20, 3);  // fewer sizes than this build's table
  expectError(b, n, "recompile the model");
  free(b);
}

Test(io, rejects_flipped_array_byte) {
  size_t n;
  unsigned char* b = good(&n);
  b[n - 100] ^= 0x10;
  char want[64];
  snprintf(want, sizeof(want), "bad CRC-32C (stored %08x, computed %08x)", le32(b + n - 4),
           crc32cRef(b, n - 4));
  expectError(b, n, want);
  free(b);
}

Test(io, rejects_flipped_option_byte) {
  size_t n;
  unsigned char* b = good(&n);
  b[SIZES_AT + 4 * sizeIndex("nstack") + 4 + 3] ^= 0x80;  // inside opt.timestep
  expectError(b, n, "the file is corrupt");
  free(b);
}

Test(io, rejects_flipped_crc_byte) {
  size_t n;
  unsigned char* b = good(&n);
  b[n - 1] ^= 1;
  expectError(b, n, "bad CRC-32");
  free(b);
}

Test(io, rejects_negative_size) {
  size_t n;
  unsigned char* b = good(&n);
  put32(b + SIZES_AT + 4 * sizeIndex("nbody"), (uint32_t)-1);
  fixCrc(b, n);
  expectError(b, n, "size nbody = -1 is negative");
  free(b);
}

Test(io, rejects_huge_size) {
  size_t n;
  unsigned char* b = good(&n);
  put32(b + SIZES_AT + 4 * sizeIndex("nq"), 1u << 29);
  fixCrc(b, n);
  expectError(b, n, "size nq = 536870912 is too large");
  free(b);
}

Test(io, rejects_size_inconsistent_with_length) {
  size_t n;
  unsigned char* b = good(&n);
  put32(b + SIZES_AT + 4 * sizeIndex("ngeom"), 100000);
  fixCrc(b, n);
  expectError(b, n, "its sizes need");
  free(b);
}

Test(io, rejects_missing_file) {
  char err[256] = "";
  cr_assert_null(mj_loadModel("/nonexistent/m.mjb", err, sizeof(err)));
  cr_assert_str_eq(err, "/nonexistent/m.mjb: No such file or directory");
  cr_assert_null(mj_loadAny("/nonexistent/m.MJB", err, sizeof(err)));
  cr_assert_str_eq(err, "/nonexistent/m.MJB: No such file or directory");
}

Test(io, load_any_compiles_xml_in_any_case) {
  mkScratch();
  char xml[128], mjb[128], err[256] = "";
  snprintf(xml, sizeof(xml), "%s/pendulum.XML", scratch);
  snprintf(mjb, sizeof(mjb), "%s/pendulum.mjb", scratch);
  FILE* f = fopen(xml, "w");
  fputs("<mujoco><worldbody><body><joint type='hinge'/><geom type='sphere' size='0.1' "
        "mass='2'/></body></worldbody></mujoco>", f);
  fclose(f);
  mjModel* m = mj_loadAny(xml, err, sizeof(err));
  cr_assert_not_null(m, "%s", err);
  cr_assert_eq(m->nq, 1);
  cr_assert_eq(m->body_mass[1], 2);
  // compiled, saved, loaded: the same bytes
  cr_assert_eq(mj_saveModel(m, mjb, err, sizeof(err)), 0, "%s", err);
  mjModel* r = mj_loadAny(mjb, err, sizeof(err));
  cr_assert_not_null(r, "%s", err);
  cr_assert_eq(mj_modelHash(r), mj_modelHash(m));
  mj_deleteModel(m);
  mj_deleteModel(r);
  rmScratch();
}

Test(io, stdin_is_named_in_messages) {
  mkScratch();
  char p[128], err[256] = "";
  snprintf(p, sizeof(p), "%s/junk", scratch);
  FILE* f = fopen(p, "wb");
  fputs("MJBMOD", f);
  fclose(f);
  cr_assert_not_null(freopen(p, "rb", stdin));
  cr_assert_null(mj_loadModel("-", err, sizeof(err)));
  cr_assert(!strncmp(err, "<stdin>: truncated header (6 bytes", 34), "%s", err);
  rmScratch();
}
