// skin.c: fuzz harness of the SKN skin decoder: the input is an SKN file's bytes; a skin that
// decodes has its bone weights normalized as the compiler does.
#include "fuzz.h"
#include "compiler/skin.h"

// decode, normalize, free
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mjSkin s;
  char err[500];
  if (mj_skinDecodeSKN("fuzz.skn", data, (long)size, &s, err, sizeof(err))) return 0;
  mj_skinNormalize(&s);
  mj_skinFree(&s);
  return 0;
}
