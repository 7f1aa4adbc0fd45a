// random.c tests: the counter-based generator: number j of a key depends on (key, j) alone,
// keys of different seeds, items and channels differ, and the normals have the moments of a
// standard normal distribution.
#include <criterion/criterion.h>
#include <math.h>

#include "mj.h"

Test(random, numbers_depend_on_key_and_counter_only) {
  // the same (key, j) in any order gives the same bits
  uint64_t key = mj_randomKey(7, 3, 1), first[100];
  for (int j = 0; j < 100; j++) first[j] = mj_randomBits(key, j);
  for (int j = 99; j >= 0; j--) cr_assert_eq(mj_randomBits(key, j), first[j]);
  // neighbours of seed, item and channel give other keys and other numbers
  uint64_t other[6] = {mj_randomKey(8, 3, 1), mj_randomKey(6, 3, 1), mj_randomKey(7, 4, 1),
                       mj_randomKey(7, 2, 1), mj_randomKey(7, 3, 0), mj_randomKey(7, 3, 2)};
  for (int i = 0; i < 6; i++) {
    cr_assert_neq(other[i], key);
    cr_assert_neq(mj_randomBits(other[i], 0), first[0]);
  }
  // the key is not symmetric in the item and the channel
  cr_assert_neq(mj_randomKey(0, 1, 2), mj_randomKey(0, 2, 1));
}

Test(random, uniform_and_normal_moments) {
  // n draws: uniform mean 1/2 and variance 1/12, normal mean 0, variance 1, fourth moment 3,
  // each within 5 standard errors; every uniform strictly inside (0, 1)
  const int n = 200000;
  uint64_t key = mj_randomKey(1, 0, 0);
  double su = 0, su2 = 0, sz = 0, sz2 = 0, sz4 = 0;
  for (int j = 0; j < n; j++) {
    double u = mj_randomUniform(key, j), z = mj_randomNormal(key, j);
    cr_assert(u > 0 && u < 1);
    su += u, su2 += u * u;
    sz += z, sz2 += z * z, sz4 += z * z * z * z;
  }
  double mu = su / n, vu = su2 / n - mu * mu;
  cr_assert_float_eq(mu, 0.5, 5 * sqrt(1.0 / 12 / n));
  cr_assert_float_eq(vu, 1.0 / 12, 5 * sqrt(1.0 / 180 / n));
  cr_assert_float_eq(sz / n, 0, 5 / sqrt(n));
  cr_assert_float_eq(sz2 / n, 1, 5 * sqrt(2.0 / n));
  cr_assert_float_eq(sz4 / n, 3, 5 * sqrt(96.0 / n));
}

Test(random, splitmix64_reference_values) {
  // key + golden ratio (j + 1) through splitmix64's finalizer: with key 0 the first outputs
  // of splitmix64 seeded with 0 (Vigna's reference generator)
  cr_assert_eq(mj_randomBits(0, 0), 0xe220a8397b1dcdafull);
  cr_assert_eq(mj_randomBits(0, 1), 0x6e789e6aa1b965f4ull);
  cr_assert_eq(mj_randomBits(0, 2), 0x06c45d188009454full);
}
