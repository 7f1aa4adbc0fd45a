// png.c: fuzz harness of the PNG decoder: the input is a PNG file's bytes, decoded to each
// channel count the compiler asks for (gray for height fields, RGB and RGBA for textures).
#include "fuzz.h"
#include "compiler/image.h"

// decode as 1, 3 and 4 channels (the first byte past the signature picks none: all three run)
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const int nchannel[3] = {1, 3, 4};
  for (int i = 0; i < 3; i++) {
    unsigned char* px;
    int w, h, srgb;
    char err[500];
    if (!mj_decodePNG("fuzz.png", data, size, nchannel[i], &px, &w, &h, &srgb, err,
                      sizeof(err)))
      free(px);
  }
  return 0;
}
