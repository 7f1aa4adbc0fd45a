// skin.h: skins, the deformable visual surfaces bound to bodies (MJCF <skin>), as the renderer
// draws them; they take no part in the physics.
//
// A skin is a triangle mesh (vertices, optional texture coordinates, faces) and a list of
// bones: each bone is a body, its bind pose (the body pose the vertices were modelled in) and
// the vertices it moves with their weights.  It comes from MuJoCo's binary SKN file or from
// inline data; both fill an mjSkin, which the compiler copies into the model.
//
// SKN layout (little-endian, 4-byte ints and floats):
//   nvert, ntexcoord, nface, nbone                 (int x 4)
//   vert (float x 3 nvert), texcoord (float x 2 ntexcoord), face (int x 3 nface)
//   per bone: body name (40 bytes, NUL padded), bindpos (float x 3), bindquat (float x 4),
//             nvert (int), vertid (int x nvert), vertweight (float x nvert)
#ifndef MJ_SKIN_H
#define MJ_SKIN_H

// a skin's mesh and bones, every array malloc'ed (mj_skinFree releases them)
typedef struct {
  int nvert;     float* vert;        // (nvert x 3) vertex positions in the bind pose
  int ntexcoord; float* texcoord;    // (ntexcoord x 2); 0 or nvert
  int nface;     int* face;          // (nface x 3) vertex ids
  int nbone;                         // bones
  char (*bonename)[41];              // (nbone) body names, NUL terminated
  float* bindpos;                    // (nbone x 3) body positions of the bind pose
  float* bindquat;                   // (nbone x 4) body orientations of the bind pose
  int* bonevertadr;                  // (nbone) first entry of each bone in vertid/vertweight
  int* bonevertnum;                  // (nbone) number of vertices each bone moves
  int nbonevert;                     // entries of vertid and vertweight
  int* vertid;                       // (nbonevert) vertex ids
  float* vertweight;                 // (nbonevert) weights
} mjSkin;

// read an SKN file into skin; 0 on success, else nonzero and "file: message" in err (the skin
// is then empty).  Counts must agree with the file size, ids be in range, numbers be finite.
int mj_skinReadSKN(const char* file, mjSkin* skin, char* err, int errsz);

// mj_skinReadSKN on the file's bytes held in memory; name is used in messages only
int mj_skinDecodeSKN(const char* name, const unsigned char* buf, long len, mjSkin* s, char* err,
                     int errsz);

// allocate the arrays of a skin of the given sizes (zeroed); 0 on success, -1 out of memory
int mj_skinAlloc(mjSkin* skin, int nvert, int ntexcoord, int nface, int nbone, int nbonevert);

// check ids and counts of a filled skin; 0 when valid, else -1 and a message in err
int mj_skinCheck(const mjSkin* skin, char* err, int errsz);

// scale the bone weights so that each vertex's weights sum to 1 (vertices no bone moves are
// left alone); 0 on success, -1 out of memory
int mj_skinNormalize(mjSkin* skin);

// free the arrays and zero the skin
void mj_skinFree(mjSkin* skin);

#endif
