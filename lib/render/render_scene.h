// render_scene.h: what the files of the rasterizer share (internal): the scene of one frame
// (items, world-space vertices and triangles), views projected to pixels, the visibility
// buffer, textures, and the context that owns them.
//
//   render.c        context, scene list of one frame, camera poses, the frame's passes
//   render_mesh.c   tessellation of each geom type into world-space triangles
//   render_raster.c projection, near-plane clipping, triangle rasterization (z-buffer)
//   render_light.c  lights: the headlight, model lights, shadow maps
//   render_shade.c  per-pixel shading: materials, textures, skybox, fog, reflections, blending
#ifndef MJ_RENDER_SCENE_H
#define MJ_RENDER_SCENE_H

#include <math.h>

#include "render/render.h"
#include "util/util.h"

// one drawn object: a geom or a site, its world pose and material
typedef struct mjrItem_ {
  int type;             // mjtGeom
  int dataid;           // mesh or height field id; -1: none
  int segid;            // geom id + 1 (segmentation color); 0 for sites
  float pos[3];         // world position of the frame
  float mat[9];         // world orientation, row-major (columns: the local axes)
  float size[3];        // geom size
  float rgba[4];        // color (material or geom rgba)
  float emission;       // emission x rgb
  float specular;       // specular x white
  float shininess;      // OpenGL exponent: shininess x 128
  float specmin;        // n.h below which the highlight is under 1/1024: 2^(-10 / shininess)
  float reflectance;    // planar mirror weight (planes)
  int texid;            // texture id; -1: none
  float texrepeat[2];   // 2d repetitions
  int texuniform;       // repetitions per meter instead of over the object
  float texperm[2];     // 2d texture: repetitions per local meter along x, y (signed) and
  float texoff[2];      // their offset: tex = texperm x + texoff (render.c texMapping)
  float texdensity;     // texels per local meter, the larger of the two directions
  int hasuv;            // its vertices carry mesh texture coordinates
  int infinite;         // an infinite plane (fades into the haze)
  int closed;           // a closed primitive: back faces may be culled
  float center[3];      // world bounding sphere, for culling and light frusta
  float radius;
  int tri0, ntri;       // its triangles in the scene
  int vert0, nvert;     // its vertices in the scene
} mjrItem;

// a world-space vertex with its shading attributes
typedef struct mjrVertex_ {
  float pos[3];         // world position
  float nrm[3];         // world normal (unit length at the vertices)
  float uv[2];          // texture coordinates (2d textures); local position for others
} mjrVertex;

// a triangle: three vertex indices and the item it belongs to
typedef struct mjrTri_ {
  int v[3];
  int item;
} mjrTri;

// a vertex projected into a view: pixel coordinates, 1/w, depth along the view axis
typedef struct mjrProj_ {
  float sx, sy;         // pixel coordinates (x right, y down; pixel centers at +0.5)
  float iw;             // 1 / w: 1 / depth in perspective, 1 in orthographic views
  float zv;             // depth along the view axis (positive in front)
} mjrProj;

// a view ready to project: eye, axes and lens as floats, and the image it draws into
typedef struct mjrPass_ {
  float eye[3];         // eye position (orthographic: the plane of the eye)
  float axis[9];        // rows: right, up, forward
  float sx, sy;         // pixels per unit of x/depth and y/depth (ortho: per meter)
  float cx, cy;         // image center in pixels
  int ortho;
  float znear, zfar;
  int width, height;
  int mirror;           // a mirrored view: triangle winding flips
} mjrPass;

// the visibility buffer: per pixel, the nearest triangle and where on it
typedef struct mjrVisBuf_ {
  float* depth;         // depth along the axis; +inf: nothing
  int* tri;             // triangle index; -1: nothing
  float* b1;            // perspective-correct barycentric weight of vertex 1
  float* b2;            // ... and of vertex 2
} mjrVisBuf;

// a shadow map of one light: depth from the light over its frustum
typedef struct mjrShadow_ {
  mjrPass pass;         // the light's view
  float* depth;         // size x size depths
  int size;
} mjrShadow;

// a light as the shader evaluates it, in world space
typedef struct mjrLight_ {
  int directional;      // direction only (no position, no attenuation)
  int spot;             // spot cone applies
  float pos[3];         // position (not directional)
  float dir[3];         // direction the light shines along (unit)
  float ambient[3], diffuse[3], specular[3];
  float att[3];         // attenuation 1 / (a0 + a1 d + a2 d^2)
  int constatt;         // a1 = a2 = 0: the attenuation is invatt = 1 / a0 everywhere
  float invatt;
  int hasspec;          // a specular color not black
  float cutcos;         // cos(cutoff)
  float exponent;       // spot exponent
  int shadow;           // index into the context's shadow maps; -1: none
} mjrLight;

// a texture as RGB bytes: a 2d image with its mip levels, or the faces of a cube
#define mjrMAXMIP 16
typedef struct mjrTexture_ {
  int type;             // mjtTexture
  int nface;            // cube: 6 faces stacked, or 1 face used for all six; 2d: 1
  int nlevel;           // mip levels (2d), 1 otherwise
  int lw[mjrMAXMIP], lh[mjrMAXMIP];    // level sizes (cube: a face's side in both)
  unsigned char* level[mjrMAXMIP];     // RGB bytes per level, row-major, top row first
} mjrTexture;

#define mjrMAXLIGHT 8   // lights per frame (OpenGL's fixed-function limit), headlight included

// a span: up to mjrSPAN pixels of one item seen in one pass, shaded together as a structure of
// arrays (each step over them one loop the compiler turns into vector instructions)
#define mjrSPAN 64
typedef struct mjrSpan_ {
  int n;                        // pixels
  const mjrItem* it;            // the item they show
  int pix[mjrSPAN];             // pixel index in the image
  int tri[mjrSPAN];             // triangle
  int nrun, run[mjrSPAN + 1];   // runs of pixels on one triangle: run[r] to run[r + 1] - 1
  float b0[mjrSPAN], b1[mjrSPAN], b2[mjrSPAN];     // barycentrics (visibility buffer)
  float depth[mjrSPAN];         // depth (visibility buffer)
  float pos[3][mjrSPAN];        // world position
  float nrm[3][mjrSPAN];        // unit normal, turned toward the viewer
  float view[3][mjrSPAN];       // unit direction to the eye
  float uv[2][mjrSPAN];         // interpolated texture coordinates (2d textures)
  float base[3][mjrSPAN];       // pixels: the texture's color (1 without one); vertices: the
                                // material color
  int texel[mjrSPAN];           // byte offset of the texel sampled
  int texlevel[mjrSPAN];        // its mip level
  float col[3][mjrSPAN];        // lit color
  float lcol[mjrMAXLIGHT + 1][3][mjrSPAN];  // the lighting's parts (mjrContext's ncolor)
                                          // at vertices, or interpolated at pixels
  float L[3][mjrSPAN];          // the lighting's: unit direction to a light,
  float f[mjrSPAN], ndl[mjrSPAN], lit[mjrSPAN];  // attenuation x spot, n.L, shadow factor
  float tmp[4][mjrSPAN];        // scratch
} mjrSpan;

// everything a frame needs, allocated once
struct mjrContext_ {
  mjrOption opt;
  int W, H;             // internal image size: width x samples, height x samples

  // the scene of the current frame
  mjrItem* item;
  int nitem, maxitem;
  mjrVertex* vert;
  int nvert, maxvert;
  mjrTri* tri;
  int ntri, maxtri;
  mjrProj* proj;        // projections of the vertices in the current pass (maxvert)
  float* vcol;          // color images: the lit colors of the vertices (maxvert x 2 x ncolor
                        // x RGB), as the camera sees them, then as the mirrored view does
  int ncolor;           // colors per vertex and view: [0] emission and the lights without a
                        // shadow map, [1 + k] the light of shadow map k
  float* itemdepth;     // transparent items' view depth, for sorting (maxitem)
  int* order;           // transparent items back to front (maxitem)

  // lights and shadows
  mjrLight light[mjrMAXLIGHT];
  int nlight;
  mjrShadow shadow[mjrMAXLIGHT];
  int nshadow;

  // passes and buffers
  mjrPass cam;          // the camera's view
  mjrPass mirrorPass;   // the view mirrored in the reflective plane
  int mirrorItem;       // the reflective plane's item; -1: none this frame
  int skyHaze;          // the skybox fades into the haze at the horizon this frame: there is
                        // an infinite plane (size 0 0) and the eye is above the first one
  float mirrorPlane[4]; // n . x = d of the mirror (world), n = [0..2], d = [3]
  mjrVisBuf vis;        // the camera's visibility
  mjrVisBuf mvis;       // the mirrored view's visibility
  float* color;         // W x H x 3 linear colors of the internal image
  unsigned char* rgb;   // width x height x 3 output
  float* depth;         // width x height output depths

  // textures
  mjrTexture* tex;
  int ntex;
  int skybox;           // skybox texture id; -1: none

  // unit shapes for tessellation: sphere directions, circle
  int nslice, nstack;   // tessellation of round shapes
  int nquad;            // quads along a box face's side
  float* circle;        // nslice+1 (cos, sin) pairs
  unsigned char* meshclosed;  // per mesh: closed and outward (mjr_meshClosed)

  mjrProfile prof;
};

// the per-pixel functions built twice, for the baseline (SSE2) and for AVX2 (util.h's
// mjuVECTOR): eight floats an instruction instead of four, the same pixels either way
#define mjrVECTOR mjuVECTOR
// a helper of mjrVECTOR functions, inlined into them so that it runs in their AVX2 clone
#define mjrINLINE static inline __attribute__((always_inline))

// ---- render_mesh.c ----
// append the triangles of item it (its pose and size set) to the scene; -1 when out of memory
int mjr_tessellate(mjrContext* c, const mjModel* m, mjrItem* it, const mjrPass* cam);

// make room for n more vertices and t more triangles; -1 when out of memory
int mjr_reserve(mjrContext* c, int n, int t);

// whether mesh id is closed and faces outward (its back faces may be culled); key: scratch for
// 3 x its face count keys
int mjr_meshClosed(const mjModel* m, int id, unsigned long long* key);

// ---- render_raster.c ----
// set up a perspective or orthographic pass from a pose (columns right, up, backward), fovy
void mjr_setPass(mjrPass* p, const double pos[3], const double mat[9], double fovy, int ortho,
                 double znear, double zfar, int width, int height);

// project the scene's vertices [0, nvert) into pass p (into c->proj)
void mjr_project(mjrContext* c, const mjrPass* p);

// rasterize the triangles of the listed items into a visibility buffer (tri, b1, b2 NULL in
// vis for a depth-only pass); cull: skip back faces of closed items; triangles clipped at the
// near plane are appended to the scene
void mjr_rasterItems(mjrContext* c, const mjrPass* p, const int* items, int nitems,
                     mjrVisBuf* vis, int cull);

// clear a visibility buffer of n pixels
void mjr_clearVis(mjrVisBuf* vis, int n);

// ---- render_light.c ----
// the side of the shadow maps of a context (its image size, the model's shadowsize)
int mjr_shadowSide(const mjrContext* c, const mjModel* m);

// the frame's lights (headlight, model lights) and, with shadows on, their shadow maps
int mjr_makeLights(mjrContext* c, const mjModel* m, const mjData* d);

// the light-visibility factors in [0, 1] of a span's points for shadow map s (1: lit) into
// sp->lit where sp->ndl > 0, 0 elsewhere (scratch: sp->tmp)
void mjr_shadowSpan(const mjrShadow* s, mjrSpan* sp);

// ---- render_shade.c ----
// decode the textures of m into float mip pyramids; -1 when out of memory
int mjr_makeTextures(mjrContext* c, const mjModel* m);

// the lit colors of the scene's vertices seen from pass p (the camera or the mirrored view)
// into c->vcol
void mjr_lightVertices(mjrContext* c, const mjrPass* p);

// shade the camera's visibility buffer into c->color (opaque items, reflections, background)
void mjr_shadeOpaque(mjrContext* c, const mjModel* m);

// draw transparent items back to front over c->color
void mjr_drawTransparent(mjrContext* c, const mjModel* m);

// c->color (W x H) averaged over samples x samples blocks into c->rgb
void mjr_resolve(mjrContext* c);

// ---- small float vector helpers ----
static inline float mjr_dot3(const float a[3], const float b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// 1 / sqrt(x) for x > 0 to 5e-6: the exponent halved in the bits, two Newton steps
// y' = y (1.5 - x y^2 / 2) (cheaper than a square root and a division)
static inline float mjr_rsqrt(float x) {
  union { float f; unsigned u; } v = {x};
  v.u = 0x5f375a86u - (v.u >> 1);
  float y = v.f, h = 0.5f * x;
  y *= 1.5f - h * y * y;
  return y * (1.5f - h * y * y);
}

// v /= |v| (unchanged when zero)
static inline void mjr_normalize3(float v[3]) {
  float n = mjr_dot3(v, v);
  if (n > 0) {
    n = mjr_rsqrt(n);
    v[0] *= n, v[1] *= n, v[2] *= n;
  }
}

// res = mat * v (mat row-major 3x3)
static inline void mjr_mulMatVec3(float res[3], const float mat[9], const float v[3]) {
  float x = v[0], y = v[1], z = v[2];
  res[0] = mat[0] * x + mat[1] * y + mat[2] * z;
  res[1] = mat[3] * x + mat[4] * y + mat[5] * z;
  res[2] = mat[6] * x + mat[7] * y + mat[8] * z;
}

// log2(x) for x > 0 within 0.01: the exponent bits plus a quadratic in the mantissa m in [1, 2)
static inline float mjr_log2(float x) {
  union { float f; unsigned u; } v = {x};
  int e = (int)(v.u >> 23 & 0xff) - 128;
  v.u = (v.u & 0x7fffff) | 0x3f800000;
  return e + (-0.34484843f * v.f + 2.02466578f) * v.f - 0.67487759f;
}

// 2^x within 0.3%: the integer part into the exponent bits, a quadratic on the fraction
static inline float mjr_exp2(float x) {
  if (x < -126) return 0;
  int i = (int)x - (x < (int)x);  // floor
  float f = x - i;
  union { float f; unsigned u; } v = {1 + f * (0.6565f + 0.3435f * f)};
  v.u += (unsigned)i << 23;
  return v.f;
}

#endif
