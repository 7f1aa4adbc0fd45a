// random.c: counter-based random numbers for batches: number j of a stream is a function of
// (key, j) alone, so that item k of a batch draws the same numbers on any shard, thread or host.
#include <math.h>

#include "util/util.h"

// splitmix64's increment (2^64 / golden ratio) and its finalizer: every input bit reaches
// every output bit
#define GOLDEN 0x9e3779b97f4a7c15ull

static uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint64_t mj_randomKey(uint64_t seed, uint64_t k, uint64_t c) {
  return mix(mix(mix(seed + GOLDEN) ^ (k + GOLDEN)) ^ (c * GOLDEN + 1));
}

uint64_t mj_randomBits(uint64_t key, uint64_t j) { return mix(key + GOLDEN * (j + 1)); }

// the top 53 bits as (n + 1/2) / 2^53: strictly inside (0, 1)
double mj_randomUniform(uint64_t key, uint64_t j) {
  return ((double)(mj_randomBits(key, j) >> 11) + 0.5) * 0x1p-53;
}

// z = sqrt(-2 log u1) cos(2 pi u2)
double mj_randomNormal(uint64_t key, uint64_t j) {
  double u1 = mj_randomUniform(key, 2 * j), u2 = mj_randomUniform(key, 2 * j + 1);
  return sqrt(-2 * log(u1)) * cos(2 * mjPI * u2);
}
