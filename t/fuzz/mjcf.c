// mjcf.c: fuzz harness of the MJCF compiler: the input is MJCF text, compiled in memory with
// includes and asset files resolved in t/fuzz/assets/ (small stand-ins for the files the
// dm_control models include, whose 800 x 800 skybox alone takes 0.2 s to build, and a mesh);
// a model that compiles takes one step (its iteration counts capped, fuzz.h).
#include "fuzz.h"
#include "mj.h"

// the directory relative includes and assets resolve in
#define FUZZ_MJCF_DIR FUZZ_ROOT "/t/fuzz/assets/"

// compile; on success make data and step once
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  char* xml = fuzzString(data, size);
  if (!xml) return 0;
  char err[500];
  mjModel* m = mj_parseXMLString(xml, "fuzz.xml", FUZZ_MJCF_DIR, err, sizeof(err));
  free(xml);
  if (!m) return 0;
  fuzzCapIterations(m);
  mjData* d = mj_makeData(m);
  if (d) mj_step(m, d);
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
