// hfield.c: fuzz harness of the height field decoder: the input is a height field file, read as
// MuJoCo's binary format, and as a PNG when it starts with the PNG signature.
#include "fuzz.h"
#include "compiler/hfield.h"

// decode in the format the bytes claim
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  int png = size >= 4 && !memcmp(data, "\x89PNG", 4);
  mjHField hf;
  char err[500];
  if (!mj_hfieldDecode("fuzz.bin", data, (long)size, png, &hf, err, sizeof(err)))
    mj_hfieldFree(&hf);
  return 0;
}
