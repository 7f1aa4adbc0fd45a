// mjt.c: fuzz harness of the state stream reader: the input is an .mjt stream of the fixed
// model t/fuzz/stream.xml with its model hash set to the model's (so the inputs outlive changes
// of the model table, which change every model's hash) and its CRCs recomputed (the header's,
// then each frame's once the header gives the frame length); the header is read and checked against the model, the frames
// read until the end or an error, and the last state read takes one step.
#include <stdio.h>

#include "fuzz.h"
#include "io/io.h"

#define HEADER 64  // header bytes; its CRC-32 at 60 covers bytes 0..59

// the model every stream is read against, compiled once
static mjModel* model(void) {
  static mjModel* m;
  char err[500];
  if (!m && !(m = mj_loadXML(FUZZ_ROOT "/t/fuzz/stream.xml", err, sizeof(err)))) {
    fprintf(stderr, "mjt fuzz: %s\n", err);
    abort();
  }
  return m;
}

// read a stream's header from buf; 0 or -1
static int readHeader(uint8_t* buf, size_t size, mjStreamHeader* h) {
  FILE* f = fmemopen(buf, size, "rb");
  if (!f) return -1;
  char err[500];
  int res = mj_streamReadHeader(f, "fuzz.mjt", h, err, sizeof(err));
  fclose(f);
  return res;
}

// set the model hash, recompute the header's and the frames' CRCs, then read header, frames,
// and step
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const mjModel* m = model();
  if (size < HEADER) return 0;
  uint8_t* buf = malloc(size);
  if (!buf) return 0;
  memcpy(buf, data, size);
  uint64_t hash = mj_modelHash(m);
  mj_copyLE(buf + 16, &hash, 8, 1);
  uint32_t crc = mj_crc32(0, buf, HEADER - 4);
  mj_copyLE(buf + HEADER - 4, &crc, 4, 1);
  mjStreamHeader h;
  if (readHeader(buf, size, &h)) {
    free(buf);
    return 0;
  }
  // frame: 4-byte marker, nvalue float64, CRC-32 of marker and values
  size_t frame = 8 + 8 * (size_t)h.nvalue;
  for (size_t at = HEADER; at + frame <= size; at += frame) {
    crc = mj_crc32(0, buf + at, frame - 4);
    mj_copyLE(buf + at + frame - 4, &crc, 4, 1);
  }
  FILE* f = fmemopen(buf, size, "rb");
  char err[500];
  mjData* d = f ? mj_makeData(m) : NULL;
  if (d && !mj_streamReadHeader(f, "fuzz.mjt", &h, err, sizeof(err)) &&
      !mj_streamCheckModel(&h, m, err, sizeof(err))) {
    while (mj_streamReadFrame(f, &h, m, d, err, sizeof(err)) == 1) continue;
    mj_step(m, d);
  }
  mj_deleteData(d);
  if (f) fclose(f);
  free(buf);
  return 0;
}
