// bytes.h: the byte-level helpers of the file-format tests (io.c, stream.c), written from the
// formats' definitions independently of the library: little-endian loads and stores, CRC-32C
// bit by bit, and the model hash (man 5 mjb) a word at a time without its streaming pieces.
#ifndef MJ_TEST_BYTES_H
#define MJ_TEST_BYTES_H

#include <stddef.h>
#include <stdint.h>

// little-endian u32 and u64 at b
static inline uint32_t le32(const unsigned char* b) {
  return b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}
static inline uint64_t le64(const unsigned char* b) {
  return le32(b) | (uint64_t)le32(b + 4) << 32;
}

// store v little-endian at b
static inline void put32(unsigned char* b, uint32_t v) {
  for (int i = 0; i < 4; i++) b[i] = (unsigned char)(v >> (8 * i));
}
static inline void put64(unsigned char* b, uint64_t v) {
  for (int i = 0; i < 8; i++) b[i] = (unsigned char)(v >> (8 * i));
}

// CRC-32C of n bytes, bit by bit from its definition (reflected polynomial 0x82f63b78, inverted
// before and after)
static inline uint32_t crc32cRef(const unsigned char* b, size_t n) {
  uint32_t c = 0xffffffffu;
  for (size_t i = 0; i < n; i++) {
    c ^= b[i];
    for (int k = 0; k < 8; k++) c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
  }
  return ~c;
}

// FNV-1a 64 of n bytes (the model hash of streams before version 3)
static inline uint64_t fnvRef(const unsigned char* b, size_t n) {
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

// the model hash's finalizer (man 5 mjb)
static inline uint64_t hashMixRef(uint64_t x) {
  x ^= x >> 33;
  x *= 0xd6e8feb86659fd93ull;
  x ^= x >> 29;
  x *= 0x9e3779b97f4a7c15ull;
  return x ^ (x >> 32);
}

// the model hash of n bytes as man 5 mjb defines it: lane i (starting at (i+1) K2) takes word i
// of each 32-byte block (the last zero-padded), v = (v ^ w) K1, v ^= v >> 32; then
// x = mix(n), x = mix(x ^ mix(v_i)) for each lane
static inline uint64_t hash64Ref(const unsigned char* b, size_t n) {
  uint64_t v[4];
  for (int i = 0; i < 4; i++) v[i] = 0xd6e8feb86659fd93ull * (uint64_t)(i + 1);
  for (size_t k = 0; k < (n + 31) / 32; k++)
    for (int i = 0; i < 4; i++) {
      uint64_t w = 0;
      for (int j = 0; j < 8; j++) {
        size_t at = 32 * k + 8 * (size_t)i + (size_t)j;
        if (at < n) w |= (uint64_t)b[at] << (8 * j);
      }
      v[i] = (v[i] ^ w) * 0x9e3779b97f4a7c15ull;
      v[i] ^= v[i] >> 32;
    }
  uint64_t x = hashMixRef(n);
  for (int i = 0; i < 4; i++) x = hashMixRef(x ^ hashMixRef(v[i]));
  return x;
}

#endif
