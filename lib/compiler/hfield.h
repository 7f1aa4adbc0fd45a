// hfield.h: the height field asset: one <hfield> element in, one grid of normalized
// elevations out (hfield_nrow, hfield_ncol, hfield_data), and the geom fields of a geom that
// shows it (geom_size, geom_rbound, geom_aabb).
//
// Usage (the MJCF compiler, once per <hfield>):
//
//     mjHFieldSpec spec = {.file = path, .size = {1, 1, 0.5, 0.1}};
//     mjHField hf;
//     char err[300];
//     if (mj_hfieldCompile(&spec, &hf, err, sizeof err)) { report err; }
//     ... copy hf.data (hf.nrow * hf.ncol floats) into the model ...
//     mj_hfieldFree(&hf);
//
// As MuJoCo 3.5.1 does:
//   1. a file, when given, wins over nrow, ncol and elevation.  Its format is PNG when
//      contenttype is "image/png" or (no content type) the name ends in ".png" in any case,
//      else MuJoCo's binary format: int32 nrow, int32 ncol, then nrow*ncol float32 elevations,
//      row 0 first, little-endian, nothing after.  A PNG is read as gray (its red channel),
//      its top image row becoming the last grid row (+y edge).
//   2. inline: nrow x ncol elevations written with the +y row first (like an image), so the
//      rows are flipped; without elevation the grid is flat (zeros).
//   3. normalization, in float as MuJoCo: v' = (v - min) / (max - min), all zeros when flat.
// Grid row r, column c sits at x = (2c/(ncol-1) - 1) size[0], y = (2r/(nrow-1) - 1) size[1],
// height data[r*ncol + c] size[2]; the solid reaches down to z = -size[3].
//
// Errors: mj_hfieldCompile returns nonzero and a one-line message in err: a size that is not
// positive, no data (nrow or ncol < 1 without a file), an elevation count other than
// nrow*ncol, a missing or unreadable file, a binary file of the wrong length or with a
// non-positive grid, a bad PNG, an unknown content type.  Nothing is left allocated on error.
#ifndef MJ_HFIELD_H
#define MJ_HFIELD_H

#include "mj.h"

// input: what one <hfield> element says; file already resolved to a path
typedef struct {
  const char* file;          // path, or NULL for inline data
  const char* contenttype;   // NULL, "image/png" or "image/vnd.mujoco.hfield"
  int nrow, ncol;            // inline grid size
  const float* elevation;    // inline elevations (+y row first), NULL when none
  int nelevation;            // their count
  double size[4];            // radius x, radius y, elevation z, base z
} mjHFieldSpec;

// output: the grid, normalized to [0, 1], row 0 at -y, and the spec's size
typedef struct {
  int nrow, ncol;
  float* data;     // nrow*ncol, malloc'ed
  double size[4];  // radius x, radius y, elevation z, base z
} mjHField;

// compile one height field; 0 on success, else nonzero and a message in err
int mj_hfieldCompile(const mjHFieldSpec* spec, mjHField* hf, char* err, int errsz);

// decode a height field file's bytes, PNG (png = 1) or MuJoCo's binary format, into hf's grid
// (not normalized; hf->size untouched); 0 or nonzero with "name: message" in err
int mj_hfieldDecode(const char* name, const unsigned char* buf, long len, int png, mjHField* hf,
                    char* err, int errsz);

// free a compiled height field's data
void mj_hfieldFree(mjHField* hf);

// the geom fields of a geom showing a height field of size hsize (x, y, z_top, z_bottom):
// size (x, y, z_top/4 + z_bottom/2), rbound sqrt(x^2 + y^2 + max(z_top, z_bottom)^2) and the
// box from -z_bottom to z_top: center (0, 0, (z_top - z_bottom)/2), half-sizes
// (x, y, (z_top + z_bottom)/2)
void mj_hfieldGeomBound(const mjtNum hsize[4], mjtNum size[3], mjtNum* rbound, mjtNum aabb[6]);

#endif
