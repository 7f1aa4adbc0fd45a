// mesh.c: fuzz harness of a mesh file decoder, built once per format (MESH_FORMAT 1 STL, 2 OBJ,
// 3 MSH): the input is the file's bytes; decoded data goes through the mesh pipeline (hull,
// normals, mass properties) as an inline mesh.
#include "fuzz.h"
#include "compiler/mesh.h"

#ifndef MESH_FORMAT
#error "define MESH_FORMAT: 1 STL, 2 OBJ, 3 MSH"
#endif

// decode the bytes with the format's reader; 0 or nonzero with err
static int decode(const uint8_t* data, size_t size, mjMeshData* md, char* err, int errsz) {
  if (MESH_FORMAT == 1) return mj_meshReadSTL("fuzz.stl", data, (long)size, md, err, errsz);
  if (MESH_FORMAT == 3) return mj_meshReadMSH("fuzz.msh", data, (long)size, md, err, errsz);
  // OBJ text is read NUL-terminated, as mj_readFile leaves it
  char* text = fuzzString(data, size);
  if (!text) return 1;
  int res = mj_meshReadOBJ("fuzz.obj", text, (long)size, md, err, errsz);
  free(text);
  return res;
}

// decode, then compile the data as an inline mesh
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mjMeshData md;
  memset(&md, 0, sizeof(md));
  char err[500];
  if (decode(data, size, &md, err, sizeof(err))) {
    mj_meshDataFree(&md);
    return 0;
  }
  mjMeshSpec spec = {.vert = md.vert, .nvert = md.nvert, .face = md.face, .nface = md.nface,
                     .normal = md.normal, .nnormal = md.nnormal, .texcoord = md.texcoord,
                     .ntexcoord = md.ntexcoord, .scale = {1, 1, 1}, .refquat = {1, 0, 0, 0},
                     .inertia = mjMESH_INERTIA_LEGACY, .maxhullvert = -1};
  mjMesh mesh;
  if (!mj_meshCompile(&spec, &mesh, err, sizeof(err))) mj_meshFree(&mesh);
  mj_meshDataFree(&md);
  return 0;
}
