// mesh.h: the mesh asset pipeline: one <mesh> element in, one compiled mesh out, with the
// arrays MuJoCo stores for it (mesh_vert, mesh_normal, mesh_texcoord, mesh_face,
// mesh_facenormal, mesh_facetexcoord, mesh_graph, mesh_pos, mesh_quat) and the mass properties
// a mesh geom gives its body.
//
// Usage (the MJCF compiler, once per <mesh>):
//
//     mjMeshSpec spec = {.file = path, .scale = {1, 1, 1}, .refquat = {1, 0, 0, 0},
//                        .inertia = mjMESH_INERTIA_LEGACY, .maxhullvert = -1};
//     mjMesh mesh;
//     char err[300];
//     if (mj_meshCompile(&spec, &mesh, err, sizeof err)) { report err; }
//     ... copy the arrays into the model ...
//     mj_meshFree(&mesh);
//
// The steps, in MuJoCo's order (each rule checked against MuJoCo 3.5.1, t/oracle/mesh):
//   1. read: the file (binary STL, OBJ, legacy MSH; the format from contenttype, else from the
//      file name's extension) or the inline arrays.  STL vertices that repeat exactly are merged
//      (first occurrence keeps its place); STL normals are ignored; ASCII STL is refused, as
//      MuJoCo does.  OBJ polygons are triangulated as a fan from their first corner, texture v
//      flipped (v' = 1 - v).  A file's faces are turned around, (a, b, c) -> (a, c, b), when
//      scale mirrors (product < 0); inline faces are not.
//   2. hull, on the vertices as read: qhull ("qhull Qt", plus "Q9 TA<maxhullvert - 4>" when
//      maxhullvert > -1) gives the graph (layout below); a mesh without faces takes its faces.
//   3. normals (when none are given), on the vertices as read, in MuJoCo's float arithmetic:
//      each face's c = (v1 - v0) x (v2 - v0) (double) gives u = c / |c| and the weight w = u |c|
//      (not bit-equal to c); faces with |c| < 1e-7 are left out; a vertex's normal is the sum of
//      the w around it in a float accumulator (acc = (float)(acc + w)); without smoothnormal,
//      the faces whose u makes cosine < 0.8 with that sum's direction (no direction, so every
//      face sharp, when the sum is shorter than 1e-7) are summed apart the same way and that
//      sum subtracted; then n / |n| in float (float squares, sqrtf, division); |n| < mjMINVAL
//      gives (0, 0, 1).
//   4. transform: v = diag(scale) R' (v - refpos), R the matrix of refquat (divided by its norm
//      unless that is within mjMINVAL of 1); normals (float) R' n in double, rounded, multiplied
//      by scale (MuJoCo's rule) and rounded, renormalized in float (float squares, sqrtf, times
//      the float 1 / len); |n|^2 < mjMINVAL gives (0, 0, 1).
//   5. mass properties, bit for bit as MuJoCo (a last-bit difference of a mesh frame grows into
//      visible MPR contact differences), on the faces (the hull's for convex), each face taken
//      as MuJoCo's triangle: center (v0 + v1 + v2) / 3, unit normal n = c / |c| of
//      c = (v1 - v0) x (v2 - v0), area |c| / 2 (0 when |c| < mjMINVAL):
//      a. c0 = sum area center / sum area, over the mesh's own faces (for convex too);
//      b. com = sum w (center 3/4 + c0/4) / sum w, with the weight w = (center - c0) . n area / 3
//         (unsigned for legacy; the area for shell, where the same formula gives c0 again);
//      c. about com, with d_j = v_j - com and the triangle (d0, d1, d2) as above: w = center . n
//         area / 3 (or area), the volume (area) = sum w, the products
//         P_ab = sum w / 20 (2 (d0a d0b + d1a d1b + d2a d2b) + d0a d1b + d0b d1a + d0a d2b
//         + d0b d2a + d1a d2b + d1b d2a) (w / 12 for shell), the inertia trace(P) E - P;
//      d. the principal frame (pos = com, quat) from mju_eig3Coarse (Jacobi stopped at pivots
//         at most 1e-7 of the largest entry, in MuJoCo 3.14's compiler's arithmetic: its
//         quaternion bit for bit).
//      Exact inertia refuses faces with inconsistent orientation.
//   6. frame change: vertices v' = rot(quat)' (v - pos), normals n' = rot(quat)' n in double,
//      rounded to float.
//
// mesh_graph layout (ints): numvert, numface, vert_edgeadr[numvert], vert_globalid[numvert],
// edge_localid[numvert + 3 numface] (each vertex's hull neighbors by local id, ended by -1),
// face_globalid[3 numface] (hull triangles by mesh vertex id, counterclockwise from outside).
//
// Errors: mj_meshCompile returns nonzero with a one-line message naming the file (or "inline
// mesh") in err: missing or unreadable file, unknown format, a truncated or malformed file, an
// index out of range, a vertex that is not finite, too few or too many vertices, a volume too
// small for the requested inertia.  Nothing is left allocated on error.
#ifndef MJ_MESH_H
#define MJ_MESH_H

// how a mesh's mass properties are computed (MuJoCo's mjtMeshInertia order)
enum {
  mjMESH_INERTIA_CONVEX = 0,  // the convex hull's volume
  mjMESH_INERTIA_EXACT,       // the mesh's signed volume (watertight, oriented meshes)
  mjMESH_INERTIA_LEGACY,      // unsigned tetrahedra from the face centroid (overcounts)
  mjMESH_INERTIA_SHELL        // the surface, mass per unit area
};

// input: what one <mesh> element says (after defaults); file already resolved to a path
typedef struct {
  const char* file;            // path, or NULL for inline data
  const char* contenttype;     // NULL or "model/stl", "model/obj", "model/vnd.mujoco.msh"
  const float* vert;     int nvert;      // inline vertices (3 per), 0 when none
  const float* normal;   int nnormal;    // inline normals (3 per)
  const float* texcoord; int ntexcoord;  // inline texture coordinates (2 per)
  const int* face;       int nface;      // inline faces (3 vertex ids per)
  double scale[3], refpos[3], refquat[4];
  int inertia;                 // mjMESH_INERTIA_*
  int maxhullvert;             // -1: no limit, else > 3
  int smoothnormal;            // 1: average normals over all faces at a vertex
} mjMeshSpec;

// output: one compiled mesh as MuJoCo stores it
typedef struct {
  int nvert;     float* vert;      // (nvert x 3) in the mesh frame (com, principal axes)
  int nnormal;   float* normal;    // (nnormal x 3) unit normals in the mesh frame
  int ntexcoord; float* texcoord;  // (ntexcoord x 2); 0/NULL when none
  int nface;                       // triangles
  int* face;                       // (nface x 3) vertex ids
  int* facenormal;                 // (nface x 3) normal ids
  int* facetexcoord;               // (nface x 3) texcoord ids (face ids when the source has
                                   // none); zeros when no texcoords
  int ngraph;    int* graph;       // convex hull graph (layout above); 0/NULL when none
  double pos[3], quat[4];          // mesh_pos, mesh_quat: the frame of the vertices above
  double volume;                   // volume, or surface area for shell inertia
  double inertia[3];               // principal inertia per unit density (decreasing)
  double aabb[6];                  // center and half sizes of the vertices in the mesh frame
  int npoly;     int npolyvert;    // the hull's flat faces (mesh_polygon.c); their vertex count
  int* polyvertnum;                // (npoly) vertices of each polygon
  int* polyvert;                   // (npolyvert) their vertex ids, counterclockwise from outside
  double* polynormal;              // (npoly x 3) outward unit normals in the mesh frame
  int* polymapnum;                 // (nvert) polygons through each vertex
  int* polymap;                    // (npolyvert) their ids, vertex by vertex
} mjMesh;

// compile one mesh; 0 on success, else nonzero and a message in err (nothing to free)
int mj_meshCompile(const mjMeshSpec* spec, mjMesh* out, char* err, int errsz);

// free the arrays of a compiled mesh and zero it
void mj_meshFree(mjMesh* mesh);

// ---- hull polygons (mesh_polygon.c) -----------------------------------------------------------

// the polygons of the hull graph (layout above) of vert (nvert x 3, as read) into out: npoly,
// npolyvert, polyvertnum, polyvert, polymapnum, polymap (polynormal allocated, not filled);
// 0 ok, 1 out of memory
int mj_meshPolygons(const double* vert, int nvert, const int* graph, mjMesh* out);

// the polygons' normals from vert (the mesh's final vertices, in double)
void mj_meshPolygonNormals(const double* vert, mjMesh* out);

// ---- file decoders (mesh_file.c) ---------------------------------------------------------------

// raw mesh data as a file holds it, before any processing
typedef struct {
  int nvert;     float* vert;      // (nvert x 3)
  int nnormal;   float* normal;    // (nnormal x 3)
  int ntexcoord; float* texcoord;  // (ntexcoord x 2)
  int nface;                       // triangles
  int* face;                       // (nface x 3) vertex ids
  int* facenormal;                 // (nface x 3) normal ids, NULL when the file has none
  int* facetexcoord;               // (nface x 3) texcoord ids, NULL when the file has none
} mjMeshData;

// read a mesh file; the format from contenttype if not NULL, else from the extension of path
int mj_meshReadFile(const char* path, const char* contenttype, mjMeshData* data, char* err,
                    int errsz);

// decode a file's bytes; name is used in messages only (each returns 0 or nonzero with err)
int mj_meshReadSTL(const char* name, const unsigned char* buf, long len, mjMeshData* data,
                   char* err, int errsz);
int mj_meshReadOBJ(const char* name, const char* text, long len, mjMeshData* data, char* err,
                   int errsz);
int mj_meshReadMSH(const char* name, const unsigned char* buf, long len, mjMeshData* data,
                   char* err, int errsz);

// free raw mesh data and zero it
void mj_meshDataFree(mjMeshData* data);

// ---- procedural meshes (mesh_builtin.c) -------------------------------------------------------

// the builtin shapes of <mesh builtin=...> (MuJoCo's mjtMeshBuiltin order); params per shape:
// sphere (subdivisions 0..4), hemisphere (resolution 0..10), cone (edges, top radius),
// supersphere (resolution, e, n), supertorus (resolution, radius, s, t), wedge (resolution x,
// resolution y, fov x, fov y in degrees, gamma), plate (resolution x, resolution y)
enum {
  mjMESH_BUILTIN_NONE = 0,
  mjMESH_BUILTIN_SPHERE,
  mjMESH_BUILTIN_HEMISPHERE,
  mjMESH_BUILTIN_CONE,
  mjMESH_BUILTIN_SUPERSPHERE,
  mjMESH_BUILTIN_SUPERTORUS,
  mjMESH_BUILTIN_WEDGE,
  mjMESH_BUILTIN_PLATE
};

// their keywords, in that order, NULL-terminated
extern const char* const mj_meshBuiltinNames[];

// the user vertices (faces where the shape has them, three normals per vertex for wedge and
// plate) of builtin mesh `type` with params p[np] into out; 0 ok, else nonzero with a message
// in err; free with mj_meshDataFree
int mj_meshBuiltin(int type, const double* p, int np, mjMeshData* out, char* err, int errsz);

#endif
