// t/unit/compiler/mesh.c: the mesh asset pipeline (lib/compiler/mesh.c, lib/compiler/mesh_file.c):
// decoders, processing and the errors of malformed files.  Oracle numbers come from MuJoCo 3.5.1
// (npm `mujoco`) on the <mesh> quoted next to them, inside a body with one mesh geom of density
// 1000.
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/mesh.h"

// the unit tetrahedron's corners
static const float tet[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};

// a spec with MuJoCo's defaults (legacy inertia, no hull limit)
static mjMeshSpec defaults(void) {
  return (mjMeshSpec){.scale = {1, 1, 1}, .refquat = {1, 0, 0, 0},
                      .inertia = mjMESH_INERTIA_LEGACY, .maxhullvert = -1};
}

// write n bytes into a new temporary file named with suffix; returns its path (static buffer)
static const char* tmpfile_(const char* suffix, const void* data, size_t n) {
  static char path[80];
  static int count;
  snprintf(path, sizeof path, "/tmp/mjmesh-%ld-%d%s", (long)getpid(), count++, suffix);
  FILE* fp = fopen(path, "wb");
  cr_assert(fp);
  cr_assert_eq(fwrite(data, 1, n, fp), n);
  fclose(fp);
  return path;
}

// binary STL of nf triangles (9 floats each) with the header's count set to count
static const char* stl(const float* tri, int nf, unsigned count, size_t trim) {
  size_t n = 84 + 50 * (size_t)nf;
  unsigned char* b = calloc(1, n);
  memcpy(b + 80, &count, 4);
  for (int f = 0; f < nf; f++) memcpy(b + 84 + 50 * f + 12, tri + 9 * f, 36);
  const char* p = tmpfile_(".stl", b, n - trim);
  free(b);
  return p;
}

// the tetrahedron as four STL triangles (each corner repeated, as STL files do)
static const float tettri[36] = {0, 0, 0, 0, 1, 0, 1, 0, 0,  0, 0, 0, 1, 0, 0, 0, 0, 1,
                                 0, 0, 0, 0, 0, 1, 0, 1, 0,  1, 0, 0, 0, 1, 0, 0, 0, 1};

// compile spec and expect an error containing want; the output must be left empty
static void expectError(mjMeshSpec* s, const char* want) {
  mjMesh m;
  char err[300] = "";
  cr_assert_neq(mj_meshCompile(s, &m, err, sizeof err), 0, "no error, wanted '%s'", want);
  cr_assert(strstr(err, want), "error '%s' does not contain '%s'", err, want);
  cr_assert(!m.vert && !m.graph && !m.face && m.nvert == 0);
  cr_assert(!strchr(err, '\n'), "message is not one line: %s", err);
}

// compile the file at path and expect an error containing want
static void expectFileError(const char* path, const char* want) {
  mjMeshSpec s = defaults();
  s.file = path;
  expectError(&s, want);
  unlink(path);
}

// <mesh vertex="0 0 0 1 0 0 0 1 0 0 0 1"/>: the hull gives the faces; normals, all from the
// (0, 0, 1) of vertices left without a normal (every face is "sharp" at a tetrahedron corner)
Test(mesh, inline_tetrahedron) {
  mjMeshSpec s = defaults();
  s.vert = tet, s.nvert = 4;
  mjMesh m;
  char err[300];
  cr_assert_eq(mj_meshCompile(&s, &m, err, sizeof err), 0, "%s", err);
  cr_assert_eq(m.nvert, 4);
  cr_assert_eq(m.nface, 4);
  int face[12] = {2, 1, 0, 1, 3, 0, 3, 2, 0, 2, 3, 1};
  cr_assert_arr_eq(m.face, face, sizeof face);
  int graph[38] = {4, 4, 0, 4, 8, 12, 3, 2, 1, 0, 2, 3, 1, -1, 2, 3, 0, -1, 1, 3, 0, -1,
                   1, 2, 0, -1, 2, 1, 0, 1, 3, 0, 3, 2, 0, 2, 3, 1};
  cr_assert_eq(m.ngraph, 38);
  cr_assert_arr_eq(m.graph, graph, sizeof graph);
  double pos[3] = {0.25, 0.24999999999999994, 0.24999999999999994};
  double quat[4] = {0.7045563426109892, 0.5406250962371628, -0.06000300064686612,
                    0.45576803893928297};
  double inertia[3] = {16.666666666666654, 10.416666666666664, 10.416666666666664};
  for (int k = 0; k < 3; k++) cr_assert(fabs(m.pos[k] - pos[k]) < 1e-15);
  for (int k = 0; k < 4; k++) cr_assert(fabs(m.quat[k] - quat[k]) < 1e-12);
  for (int k = 0; k < 3; k++) cr_assert(fabs(1000 * m.inertia[k] - inertia[k]) < 1e-12);
  cr_assert(fabs(1000 * m.volume - 166.66666666666666) < 1e-12);
  float normal[3] = {0.5773502588272095f, 0.7071067690849304f, 0.40824830532073975f};
  for (int i = 0; i < 4; i++)
    for (int k = 0; k < 3; k++) cr_assert(fabsf(m.normal[3 * i + k] - normal[k]) < 1e-7f);
  float v0[3] = {-0.4330126941204071f, 0, 0};
  for (int k = 0; k < 3; k++) cr_assert(fabsf(m.vert[k] - v0[k]) < 1e-7f);
  mj_meshFree(&m);
  cr_assert(!m.vert && !m.graph);
}

// the same tetrahedron as a binary STL: 12 corners merged into 4 vertices, first seen first;
// the mass properties do not depend on the inertia mode for a convex, oriented mesh
Test(mesh, stl_merges_vertices) {
  const char* path = stl(tettri, 4, 4, 0);
  for (int mode = 0; mode < 3; mode++) {
    mjMeshSpec s = defaults();
    s.file = path, s.inertia = mode;
    mjMesh m;
    char err[300];
    cr_assert_eq(mj_meshCompile(&s, &m, err, sizeof err), 0, "%s", err);
    cr_assert_eq(m.nvert, 4);
    int face[12] = {0, 1, 2, 0, 2, 3, 0, 3, 1, 2, 1, 3};
    cr_assert_arr_eq(m.face, face, sizeof face);
    cr_assert(fabs(m.volume - 1.0 / 6) < 1e-15);
    mj_meshFree(&m);
  }
  unlink(path);
}

// the frames and volumes against MuJoCo 3.14.0: centers and volumes bit for bit, frames within
// 2 ulp (its Jacobi rounds its rotations differently in the last bit; MPR amplifies such
// differences of a geom frame, so they are held this close)
//   a: <mesh vertex="0 0 0 .2 0 0 0 .2 0 0 0 .2" face="0 2 1 0 1 3 0 3 2 1 2 3"/> (two equal
//      moments: the sort's unnormalized quarter turns); b: the same with inertia="shell" (its
//      center through the pyramid formula); c: vertex="0 0 0 2 0 0 0 3 0 0 0 4 1 1 1 0.2 0.1
//      0.3" face="0 2 1 0 1 3 0 3 2 1 2 4 2 3 4 3 1 4" inertia="convex" refquat="0.9 0.1 -0.2
//      0.3" (the hull's faces, the mesh's own centroid, refquat as a matrix)
Test(mesh, exact_frames) {
  static const float tet2[12] = {0, 0, 0, .2f, 0, 0, 0, .2f, 0, 0, 0, .2f};
  static const float six[18] = {0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 1, 1, 1, .2f, .1f, .3f};
  static const int tetface[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
  static const int sixface[18] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 4, 2, 3, 4, 3, 1, 4};
  static const double want[3][8] = {
      {0.05000000074505805, 0.05000000074505805, 0.05000000074505805, 0.82047323857028442,
       0.33985114297998770, -0.17591989660616131, 0.42470820027786749, 0.001333333392937979},
      {0.05257834308979921, 0.05257834308979921, 0.05257834308979921, 0.82047323857028376,
       0.33985114297998742, -0.17591989660616125, 0.42470820027786721, 0.09464101897189964},
      {1.2325910931174089, 0.35465587044534413, 0.5050607287449391, 0.98989676518380287,
       0.079554707981988146, 0.066853434968505612, -0.096467927050683078, 4.333333333333332}};
  for (int c = 0; c < 3; c++) {
    mjMeshSpec s = defaults();
    s.vert = c < 2 ? tet2 : six, s.nvert = c < 2 ? 4 : 6;
    s.face = c < 2 ? tetface : sixface, s.nface = c < 2 ? 4 : 6;
    if (c == 1) s.inertia = mjMESH_INERTIA_SHELL;
    if (c == 2) {
      s.inertia = mjMESH_INERTIA_CONVEX;
      double q[4] = {0.9, 0.1, -0.2, 0.3};
      memcpy(s.refquat, q, sizeof q);
    }
    mjMesh m;
    char err[300];
    cr_assert_eq(mj_meshCompile(&s, &m, err, sizeof err), 0, "%s", err);
    for (int k = 0; k < 3; k++) cr_assert_eq(m.pos[k], want[c][k], "case %d pos[%d]", c, k);
    for (int k = 0; k < 4; k++)
      cr_assert(fabs(m.quat[k] - want[c][3 + k]) <= 4.5e-16, "case %d quat[%d]: %.17g", c, k,
                m.quat[k]);
    cr_assert_eq(m.volume, want[c][7], "case %d volume", c);
    mj_meshFree(&m);
  }
}

// OBJ: a quad split along its shorter diagonal (1-3 here: MuJoCo 3.14's faces 0 3 1, 3 2 1),
// texture v flipped, normals from the file
//   v 0 0 0 / 2 0 0 / 3 1 0 / 0 1 0 / 0 0 1; vt ...; vn 0 0 -1 / 0 0 1; f 1/1/1 4/4/1 3/3/1 2/2/1
Test(mesh, obj_quads_texcoords_normals) {
  const char* text = "# quad\no pyramid\nv 0 0 0\nv 2 0 0\nv 3 1 0\nv 0 1 0\nv 0 0 1\n"
                     "vt 0 0\nvt 1 0\nvt 1 1\nvt 0.25 0.75\nvn 0 0 -1\nvn 0 0 1\n"
                     "usemtl steel\nf 1/1/1 4/4/1 3/3/1 2/2/1\ns 1\nf 1/1/2 2/2/2 5/3/2\n"
                     "f 2/2/2 3/3/2 5/3/2\nf 3/1/2 4/2/2 5/2/2\nf -2/4/2 -5/3/2 -1/1/2\n";
  const char* path = tmpfile_(".obj", text, strlen(text));
  mjMeshSpec s = defaults();
  s.file = path;
  mjMesh m;
  char err[300];
  cr_assert_eq(mj_meshCompile(&s, &m, err, sizeof err), 0, "%s", err);
  int face[18] = {0, 3, 1, 3, 2, 1, 0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4};
  int facenormal[18] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  int facetexcoord[18] = {0, 3, 1, 3, 2, 1, 0, 1, 2, 1, 2, 2, 0, 1, 1, 3, 2, 0};
  float texcoord[8] = {0, 1, 1, 1, 1, 0, 0.25f, 0.25f};
  cr_assert_eq(m.nface, 6);
  cr_assert_arr_eq(m.face, face, sizeof face);
  cr_assert_arr_eq(m.facenormal, facenormal, sizeof facenormal);
  cr_assert_arr_eq(m.facetexcoord, facetexcoord, sizeof facetexcoord);
  cr_assert_eq(m.ntexcoord, 4);
  cr_assert_arr_eq(m.texcoord, texcoord, sizeof texcoord);
  cr_assert_eq(m.nnormal, 2);
  mj_meshFree(&m);
  unlink(path);
}

// legacy MSH with per-vertex normals and texcoords: faces index all three
Test(mesh, msh) {
  int32_t head[4] = {4, 4, 4, 4}, face[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
  float normal[12] = {-1, -1, -1, 1, 0, 0, 0, 1, 0, 0, 0, 1}, tc[8] = {0, 0, 1, 0, 0, 1, 1, 1};
  unsigned char buf[16 + 48 + 48 + 32 + 48];
  memcpy(buf, head, 16);
  memcpy(buf + 16, tet, 48);
  memcpy(buf + 64, normal, 48);
  memcpy(buf + 112, tc, 32);
  memcpy(buf + 144, face, 48);
  const char* path = tmpfile_(".msh", buf, sizeof buf);
  mjMeshSpec s = defaults();
  s.file = path;
  mjMesh m;
  char err[300];
  cr_assert_eq(mj_meshCompile(&s, &m, err, sizeof err), 0, "%s", err);
  cr_assert_eq(m.nnormal, 4);
  cr_assert_eq(m.ntexcoord, 4);
  cr_assert_arr_eq(m.facenormal, face, sizeof face);
  cr_assert_arr_eq(m.facetexcoord, face, sizeof face);
  mj_meshFree(&m);
  unlink(path);
  // the same bytes less one are refused
  path = tmpfile_(".msh", buf, sizeof buf - 1);
  expectFileError(path, "unexpected file size in MSH file");
}

// malformed files: each a clear one-line message naming the file
Test(mesh, file_errors) {
  mjMeshSpec s = defaults();
  s.file = "/nonexistent/part.stl";
  expectError(&s, "could not open mesh file '/nonexistent/part.stl'");
  expectFileError(tmpfile_(".ply", "ply\n", 4), "unsupported mesh type");
  s.file = tmpfile_(".bin", tettri, sizeof tettri), s.contenttype = "model/gltf";
  expectError(&s, "unsupported mesh type: 'model/gltf'");
  unlink(s.file);
  // STL: short header, no faces, truncated, extra bytes, ASCII, non-finite, too few vertices
  expectFileError(tmpfile_(".stl", "solid", 5), "invalid header in STL file");
  expectFileError(stl(tettri, 0, 0, 0), "number of faces should be between 1 and 200000");
  expectFileError(stl(tettri, 4, 4, 10), "has wrong size");
  expectFileError(stl(tettri, 4, 3, 0), "has wrong size");
  const char* ascii = "solid t\n facet normal 0 0 0\n  outer loop\n   vertex 0 0 0\n"
                      "   vertex 1 0 0\n   vertex 0 1 0\n  endloop\n endfacet\nendsolid t\n";
  expectFileError(tmpfile_(".stl", ascii, strlen(ascii)), "perhaps this is an ASCII file?");
  float bad[36];
  memcpy(bad, tettri, sizeof bad);
  bad[4] = NAN;
  expectFileError(stl(bad, 4, 4, 0), "exceed maximum bounds");
  expectFileError(stl(tettri, 1, 1, 0), "at least 4 vertices required");
  // OBJ: index out of range, index 0, a vertex with two numbers, a NaN vertex
  const char* v4 = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n";
  char text[200];
  snprintf(text, sizeof text, "%sf 1 2 3\nf 1 2 9\n", v4);
  expectFileError(tmpfile_(".obj", text, strlen(text)), "line 6: index out of range");
  snprintf(text, sizeof text, "%sf 0 2 3\n", v4);
  expectFileError(tmpfile_(".obj", text, strlen(text)), "could not parse OBJ file");
  snprintf(text, sizeof text, "v 0 0\n%sf 1 2 3\n", v4);
  expectFileError(tmpfile_(".obj", text, strlen(text)), "line 1: expected 3 numbers");
  snprintf(text, sizeof text, "v 0 0 nan\n%sf 2 3 4\n", v4);
  expectFileError(tmpfile_(".obj", text, strlen(text)), "vertex coordinate 2 is not finite");
  // MSH: a face naming a vertex that does not exist
  int32_t head[4] = {4, 0, 0, 1}, face[3] = {0, 1, 7};
  unsigned char buf[16 + 48 + 12];
  memcpy(buf, head, 16);
  memcpy(buf + 16, tet, 48);
  memcpy(buf + 64, face, 12);
  expectFileError(tmpfile_(".msh", buf, sizeof buf), "in face 0, vertex index 7 does not exist");
}

// inline meshes MuJoCo refuses: flat, too thin for a volume, inconsistent orientation for exact
Test(mesh, inline_errors) {
  mjMeshSpec s = defaults();
  float flat[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  s.vert = flat, s.nvert = 4;
  expectError(&s, "qhull error");
  // one face: no volume (MuJoCo: "mesh volume is too small ... Try setting inertia to shell")
  int one[3] = {0, 2, 1};
  s.vert = tet, s.face = one, s.nface = 1;
  expectError(&s, "mesh volume is too small. Try setting inertia to shell");
  // ... which shell accepts
  s.inertia = mjMESH_INERTIA_SHELL;
  mjMesh m;
  char err[300];
  cr_assert_eq(mj_meshCompile(&s, &m, err, sizeof err), 0, "%s", err);
  cr_assert(fabs(m.volume - 0.5) < 1e-15);
  mj_meshFree(&m);
  // the first face turned the other way round
  int faces[12] = {0, 1, 2, 0, 1, 3, 0, 3, 2, 1, 2, 3};
  s.face = faces, s.nface = 4, s.inertia = mjMESH_INERTIA_EXACT;
  expectError(&s, "faces have inconsistent orientation");
  // a face naming a vertex that does not exist; a non-finite vertex; too few vertices
  int out[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 4};
  s.face = out, s.inertia = mjMESH_INERTIA_LEGACY;
  expectError(&s, "in face 3, vertex index 4 does not exist");
  float inf[12] = {0, 0, 0, 1, 0, 0, 0, INFINITY, 0, 0, 0, 1};
  s.vert = inf, s.face = NULL, s.nface = 0;
  expectError(&s, "inline mesh: vertex coordinate 7 is not finite");
  s.vert = tet, s.nvert = 3;
  expectError(&s, "at least 4 vertices required");
}

// scale, refpos and refquat: the volume scales with the product of the scales, the normals
// given inline turn with the mesh
Test(mesh, transform) {
  mjMeshSpec s = defaults();
  s.vert = tet, s.nvert = 4;
  s.scale[0] = 1, s.scale[1] = 2, s.scale[2] = 3;
  s.refpos[0] = 0.1, s.refpos[1] = 0.2, s.refpos[2] = 0.3;
  s.refquat[1] = 0.2, s.refquat[2] = 0.3, s.refquat[3] = 0.4;
  mjMesh m;
  char err[300];
  cr_assert_eq(mj_meshCompile(&s, &m, err, sizeof err), 0, "%s", err);
  // MuJoCo: body_mass 1000.0000000000002, mesh_pos[2] 0.12674418604651175
  cr_assert(fabs(1000 * m.volume - 1000) < 1e-9);
  cr_assert(fabs(m.pos[2] - 0.12674418604651175) < 1e-15);
  mj_meshFree(&m);
}
