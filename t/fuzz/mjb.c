// mjb.c: fuzz harness of the binary model loader: the input is an .mjb file, its trailing
// CRC-32 recomputed (else almost every mutation would stop at the checksum); a model that
// loads (mj_modelFromBuffer validates it) is validated again, gets data and takes one step
// (its iteration counts capped, fuzz.h).
#include "fuzz.h"
#include "io/io.h"

// fix the CRC, load, validate, step once
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  uint8_t* buf = malloc(size + 1);
  if (!buf) return 0;
  memcpy(buf, data, size);
  // the CRC covers every byte before the last four
  if (size >= 4) {
    uint32_t crc = mj_crc32(0, buf, size - 4);
    mj_copyLE(buf + size - 4, &crc, 4, 1);
  }
  char err[500];
  mjModel* m = mj_modelFromBuffer(buf, size, "fuzz.mjb", err, sizeof(err));
  free(buf);
  if (!m) return 0;
  if (!mj_validateModel(m, err, sizeof(err))) {
    fuzzCapIterations(m);
    mjData* d = mj_makeData(m);
    if (d) mj_step(m, d);
    mj_deleteData(d);
  }
  mj_deleteModel(m);
  return 0;
}
