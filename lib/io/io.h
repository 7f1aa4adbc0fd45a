// io.h: internals shared by the two binary file formats (io.c: models, stream.c: state
// streams): byte order marks; the byte and hash helpers they use are util/util_file.h's.
#ifndef MJ_IO_H
#define MJ_IO_H

#include "mj.h"
#include "util/util_file.h"

// byte-order mark: written little-endian, a reader that sees 0x04030201 has a big-endian file
#define MJ_BYTEORDER 0x01020304u
#define MJ_BYTEORDER_SWAPPED 0x04030201u

// the model hash streams of versions 1 and 2 hold: FNV-1a of the whole version 1 .mjb file
uint64_t mj_modelHashFNV(const mjModel* m);

#endif
