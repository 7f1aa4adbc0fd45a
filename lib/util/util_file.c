// util_file.c: bytes and files, for every reader and writer of the library: little-endian
// copies, the FNV-1a, CRC-32, CRC-32C and 64-bit content hashes, one-line error messages, whole asset files in
// memory.
#include "util/util_file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

// 1 on a little-endian host
static int hostLittle(void) {
  const uint16_t one = 1;
  unsigned char first;
  memcpy(&first, &one, 1);
  return first;
}

// host order <-> little-endian: a copy on little-endian hosts, a per-element reversal otherwise
void mj_copyLE(void* dst, const void* src, size_t size, size_t count) {
  if (hostLittle()) {
    if (dst != src) memmove(dst, src, size * count);
    return;
  }
  unsigned char* d = dst;
  const unsigned char* s = src;
  for (size_t i = 0; i < count; i++) {
    unsigned char tmp[16];
    memcpy(tmp, s + i * size, size);
    for (size_t b = 0; b < size; b++) d[i * size + b] = tmp[size - 1 - b];
  }
}

// h = (h ^ byte) * FNV prime, byte by byte
uint64_t mj_fnv1a(uint64_t h, const void* p, size_t n) {
  const unsigned char* b = p;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

// ---- the 64-bit content hash -------------------------------------------------------------------
// Four lanes take the 64-bit little-endian words of each 32-byte block in turn:
//   v <- (v ^ w) K1,  v <- v ^ (v >> 32)
// (a bijection of v for each w; the shift brings the product's high bits into the low ones
// the next multiply spreads), so the lanes run in parallel at about a cycle a word.  A last
// partial block is zero-padded; the result mixes the byte count and each lane's value through
// a finalizer (x ^= x >> 33, x *= K2, x ^= x >> 29, x *= K1, x ^= x >> 32).
#define HASH_K1 0x9e3779b97f4a7c15ull
#define HASH_K2 0xd6e8feb86659fd93ull

// the word at p, little-endian
static uint64_t loadLE64(const unsigned char* p) {
  uint64_t w;
  mj_copyLE(&w, p, 8, 1);
  return w;
}

// one 32-byte block into the lanes
static void hashBlock(uint64_t v[4], const unsigned char* b) {
  for (int i = 0; i < 4; i++) {
    v[i] = (v[i] ^ loadLE64(b + 8 * i)) * HASH_K1;
    v[i] ^= v[i] >> 32;
  }
}

// the finalizer: every input bit reaches every output bit
static uint64_t hashMix(uint64_t x) {
  x ^= x >> 33;
  x *= HASH_K2;
  x ^= x >> 29;
  x *= HASH_K1;
  return x ^ (x >> 32);
}

void mj_hash64Init(mjHash64* h) {
  memset(h, 0, sizeof(*h));
  for (int i = 0; i < 4; i++) h->v[i] = HASH_K2 * (uint64_t)(i + 1);
}

void mj_hash64Update(mjHash64* h, const void* p, size_t n) {
  const unsigned char* b = p;
  h->len += n;
  // fill a partial block first
  if (h->ntail) {
    size_t k = 32 - h->ntail < n ? 32 - h->ntail : n;
    memcpy(h->tail + h->ntail, b, k);
    h->ntail += k, b += k, n -= k;
    if (h->ntail < 32) return;
    hashBlock(h->v, h->tail);
    h->ntail = 0;
  }
  for (; n >= 32; n -= 32, b += 32) hashBlock(h->v, b);
  memcpy(h->tail, b, n);
  h->ntail = n;
}

uint64_t mj_hash64Final(const mjHash64* h) {
  uint64_t v[4] = {h->v[0], h->v[1], h->v[2], h->v[3]};
  if (h->ntail) {
    unsigned char last[32] = {0};
    memcpy(last, h->tail, h->ntail);
    hashBlock(v, last);
  }
  uint64_t x = hashMix(h->len);
  for (int i = 0; i < 4; i++) x = hashMix(x ^ hashMix(v[i]));
  return x;
}

// the hash of h's eight little-endian bytes, then of the n bytes
uint64_t mj_hashBytes(uint64_t h, const void* p, size_t n) {
  mjHash64 s;
  unsigned char b[8];
  mj_copyLE(b, &h, 8, 1);
  mj_hash64Init(&s);
  mj_hash64Update(&s, b, 8);
  mj_hash64Update(&s, p, n);
  return mj_hash64Final(&s);
}

// zlib's crc32 in chunks that fit its uInt length
uint32_t mj_crc32(uint32_t crc, const void* p, size_t n) {
  const unsigned char* b = p;
  while (n) {
    uInt k = n > (1u << 30) ? (1u << 30) : (uInt)n;
    crc = (uint32_t)crc32(crc, b, k);
    b += k;
    n -= k;
  }
  return crc;
}

// CRC-32C (Castagnoli: reflected polynomial 0x82f63b78, inverted before and after, as zlib's
// CRC-32 is): SSE4.2's crc32 instruction 8 bytes at a time where the processor has it, else
// half a byte at a time from a 16-entry table
static const uint32_t crc32cNibble[16] = {
  0x00000000, 0x105ec76f, 0x20bd8ede, 0x30e349b1, 0x417b1dbc, 0x5125dad3, 0x61c69362, 0x7198540d,
  0x82f63b78, 0x92a8fc17, 0xa24bb5a6, 0xb21572c9, 0xc38d26c4, 0xd3d3e1ab, 0xe330a81a, 0xf36e6f75};

// the register c (not inverted) after n more bytes, from the table
static uint32_t crc32cTable(uint32_t c, const unsigned char* b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    c ^= b[i];
    c = (c >> 4) ^ crc32cNibble[c & 15];
    c = (c >> 4) ^ crc32cNibble[c & 15];
  }
  return c;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <nmmintrin.h>

// the register c after n more bytes, with the crc32 instruction
__attribute__((target("sse4.2"))) static uint32_t crc32cHard(uint32_t c, const unsigned char* b,
                                                             size_t n) {
  uint64_t c64 = c;
  for (; n >= 8; n -= 8, b += 8) {
    uint64_t w;
    memcpy(&w, b, 8);
    c64 = _mm_crc32_u64(c64, w);
  }
  c = (uint32_t)c64;
  for (; n; n--) c = _mm_crc32_u8(c, *b++);
  return c;
}
#endif

uint32_t mj_crc32c(uint32_t crc, const void* p, size_t n) {
  uint32_t c = ~crc;
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("sse4.2")) return ~crc32cHard(c, p, n);
#endif
  return ~crc32cTable(c, p, n);
}

// vsnprintf into the caller's buffer; returns 1 (for `return mj_ioError(...)` in a check)
int mj_ioError(char* err, int errsz, const char* fmt, ...) {
  if (!err || errsz < 1) return 1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, (size_t)errsz, fmt, ap);
  va_end(ap);
  return 1;
}

// 1 when path ends with ext, letter case ignored
int mj_hasExt(const char* path, const char* ext) {
  size_t n = strlen(path), m = strlen(ext);
  return n >= m && !strcasecmp(path + n - m, ext);
}

// "<stdin>" for "-" (and a missing name)
const char* mj_ioName(const char* filename) {
  return (!filename || !strcmp(filename, "-")) ? "<stdin>" : filename;
}

// an asset file whole: max bytes at most, a NUL after them; NULL and "could not open KIND
// 'path': reason" (could not read, larger than max, out of memory) on failure
unsigned char* mj_readFile(const char* path, const char* kind, long max, long* len, char* err,
                           int errsz) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    mj_ioError(err, errsz, "could not open %s '%s': %s", kind, path, strerror(errno));
    return NULL;
  }
  unsigned char* buf = NULL;
  long n = -1;
  if (!fseek(f, 0, SEEK_END)) n = ftell(f);
  if (n < 0 || fseek(f, 0, SEEK_SET)) {
    mj_ioError(err, errsz, "could not read %s '%s'", kind, path);
  } else if (n > max) {
    mj_ioError(err, errsz, "%s '%s' is larger than %ld bytes", kind, path, max);
  } else if (!(buf = malloc((size_t)n + 1))) {
    mj_ioError(err, errsz, "%s '%s': out of memory", kind, path);
  } else if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
    mj_ioError(err, errsz, "could not read %s '%s'", kind, path);
    free(buf);
    buf = NULL;
  } else {
    buf[n] = 0;
    *len = n;
  }
  fclose(f);
  return buf;
}
