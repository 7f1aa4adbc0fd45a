// mjcf.c: fuzz harness of the MJCF compiler: the input is MJCF text, compiled in memory with
// includes and asset files resolved in the dm_control directory of the shared corpus (its
// ./common/*.xml includes, dog_assets/ meshes, skin and textures); a model that compiles takes
// one step.
#include "fuzz.h"
#include "mj.h"

// the directory relative includes and assets resolve in
#define FUZZ_MJCF_DIR FUZZ_ROOT "/../shared/corpus/dm_control/"

// compile; on success make data and step once
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  char* xml = fuzzString(data, size);
  if (!xml) return 0;
  char err[500];
  mjModel* m = mj_parseXMLString(xml, "fuzz.xml", FUZZ_MJCF_DIR, err, sizeof(err));
  free(xml);
  if (!m) return 0;
  mjData* d = mj_makeData(m);
  if (d) mj_step(m, d);
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
