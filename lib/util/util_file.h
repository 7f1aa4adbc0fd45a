// util_file.h: bytes and files shared by every reader and writer of the library (the binary
// formats of io/, the asset decoders of compiler/, the option parser of engine/).
#ifndef MJ_UTIL_FILE_H
#define MJ_UTIL_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "mj.h"  // mj_copyLE, mj_crc32c

// FNV-1a 64-bit offset basis: the hash of no bytes
#define MJ_FNV_INIT 0xcbf29ce484222325ull

// FNV-1a 64-bit hash of n bytes continuing from h
uint64_t mj_fnv1a(uint64_t h, const void* p, size_t n);

// a 64-bit hash of a byte sequence given in pieces (the model hash, man 5 mjb): four lanes of
// little-endian words, at memory speed; the same bytes in any pieces give the same hash
typedef struct {
  uint64_t v[4];             // the lanes
  unsigned char tail[32];    // bytes of a partial block
  size_t ntail;
  uint64_t len;              // bytes so far
} mjHash64;
void mj_hash64Init(mjHash64* h);
void mj_hash64Update(mjHash64* h, const void* p, size_t n);
uint64_t mj_hash64Final(const mjHash64* h);

// CRC-32 (zlib's) of n bytes continuing from crc (0 to start), for any n
uint32_t mj_crc32(uint32_t crc, const void* p, size_t n);

// printf a one-line message into err (nothing when err is NULL or errsz < 1); returns 1
int mj_ioError(char* err, int errsz, const char* fmt, ...) __attribute__((format(printf, 3, 4)));

// an asset file (mesh, skin) whole in a malloc'd buffer of *len bytes plus a NUL, at most max
// bytes; NULL and "could not open KIND 'path': reason" (or could not read, larger than max,
// out of memory) in err on failure
unsigned char* mj_readFile(const char* path, const char* kind, long max, long* len, char* err,
                           int errsz);

// 1 when path ends with ext (".png"), letter case ignored: an asset's format by its name
int mj_hasExt(const char* path, const char* ext);

// the name of a file in messages: "<stdin>" for "-" and NULL, else the name itself
const char* mj_ioName(const char* filename);

#endif
