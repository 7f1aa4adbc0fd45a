// render_mesh.c: tessellation of every geom type into world-space triangles with smooth
// normals: round shapes (sphere, capsule, ellipsoid) as latitude-longitude grids, cylinders,
// boxes, planes (as MuJoCo's grids of quads; an infinite one around the camera), meshes
// with the model's normals and texture coordinates, height fields with their sides and base.
#include <math.h>
#include <stdlib.h>

#include "render/render_scene.h"

// ---- buffers --------------------------------------------------------------------------------

// grow an array to hold at least `need` elements of `size` bytes (doubling); -1 on failure
static int grow(void** p, int* max, int need, size_t size) {
  if (need <= *max) return 0;
  int n = *max ? *max : 1024;
  while (n < need) n *= 2;
  void* q = realloc(*p, (size_t)n * size);
  if (!q) return -1;
  *p = q;
  *max = n;
  return 0;
}

// make room for n more vertices (and their projections and colors) and t more triangles
int mjr_reserve(mjrContext* c, int n, int t) {
  if (c->nvert + n > c->maxvert) {
    int max = c->maxvert;
    if (grow((void**)&c->vert, &max, c->nvert + n, sizeof(mjrVertex))) return -1;
    int pmax = c->maxvert, cmax = c->maxvert;
    if (grow((void**)&c->proj, &pmax, max, sizeof(mjrProj))) return -1;
    if (c->ncolor && grow((void**)&c->vcol, &cmax, max, 6 * c->ncolor * sizeof(float)))
      return -1;
    c->maxvert = max;
  }
  return grow((void**)&c->tri, &c->maxtri, c->ntri + t, sizeof(mjrTri));
}

// append a vertex at local point p with local normal n (unit after the rotation), uv
static inline void addVert(mjrContext* c, const mjrItem* it, const float p[3], const float n[3],
                           float u, float v) {
  mjrVertex* w = c->vert + c->nvert++;
  mjr_mulMatVec3(w->pos, it->mat, p);
  for (int k = 0; k < 3; k++) w->pos[k] += it->pos[k];
  mjr_mulMatVec3(w->nrm, it->mat, n);
  w->uv[0] = u, w->uv[1] = v;
}

// append triangle (a, b, c) of vertex indices
static inline void addTri(mjrContext* c, int item, int a, int b, int d) {
  mjrTri* t = c->tri + c->ntri++;
  t->v[0] = a, t->v[1] = b, t->v[2] = d;
  t->item = item;
}

// append the two triangles of quad (a, b, d, e), counterclockwise seen from outside
static inline void addQuad(mjrContext* c, int item, int a, int b, int d, int e) {
  addTri(c, item, a, b, d);
  addTri(c, item, a, d, e);
}

// ---- round shapes ----------------------------------------------------------------------------

// a latitude-longitude surface: rows of nslice+1 points from the top pole down; row r has
// direction elevation theta_r and lies at z offset zoff_r: p = scale * dir + zoff e_z, with the
// normal dir / scale (an ellipsoid's normal); a capsule's side between its two equators in
// nstack rows, as MuJoCo draws it (an open cylinder between two half spheres)
static int roundShape(mjrContext* c, int item, const mjrItem* it, const float scale[3],
                      float zhalf) {
  int ns = c->nslice, nst = c->nstack, half = nst / 2, side = zhalf > 0 ? nst : 0;
  int nrow = nst + 1 + side;
  if (mjr_reserve(c, nrow * (ns + 1), 2 * (nrow - 1) * ns)) return -1;
  int v0 = c->nvert;
  for (int r = 0; r < nrow; r++) {
    // stack index and offset: the top half, the side (at the equator), the bottom half
    int s = r <= half ? r : r < half + side ? half : r - side;
    float zoff = r <= half ? zhalf : r < half + side ? zhalf * (1 - 2.0f * (r - half) / side)
                                                      : -zhalf;
    float th = 3.14159265f * s / nst, st = sinf(th), ct = cosf(th);
    for (int j = 0; j <= ns; j++) {
      const float* cs = c->circle + 2 * j;
      float dir[3] = {st * cs[0], st * cs[1], ct};
      float p[3] = {scale[0] * dir[0], scale[1] * dir[1], scale[2] * dir[2] + zoff};
      float n[3] = {dir[0] / scale[0], dir[1] / scale[1], dir[2] / scale[2]};
      mjr_normalize3(n);
      addVert(c, it, p, n, p[0], p[1]);
    }
  }
  for (int r = 0; r + 1 < nrow; r++)
    for (int j = 0; j < ns; j++) {
      int a = v0 + r * (ns + 1) + j, b = a + ns + 1;
      addQuad(c, item, a, b, b + 1, a + 1);
    }
  return 0;
}

// a cylinder of radius r and half-height h as MuJoCo draws it: the side in nstack rows with
// radial normals, two flat caps in nstack / 2 rings (a fan at the center)
static int cylinder(mjrContext* c, int item, const mjrItem* it, float r, float h) {
  int ns = c->nslice, nst = c->nstack, nring = nst / 2;
  if (mjr_reserve(c, (nst + 1 + 2 * nring + 2) * (ns + 1), 2 * ns * (nst + 2 * nring))) return -1;
  int v0 = c->nvert;
  for (int q = 0; q <= nst; q++)
    for (int j = 0; j <= ns; j++) {
      const float* cs = c->circle + 2 * j;
      float n[3] = {cs[0], cs[1], 0}, p[3] = {r * cs[0], r * cs[1], h * (1 - 2.0f * q / nst)};
      addVert(c, it, p, n, p[0], p[1]);
    }
  for (int q = 0; q < nst; q++)
    for (int j = 0; j < ns; j++) {
      int a = v0 + q * (ns + 1) + j, b = a + ns + 1;
      addQuad(c, item, a, b, b + 1, a + 1);
    }
  // caps: the center, then rings of radius r k / nring; normal +z on top, -z at the bottom
  for (int side = 0; side < 2; side++) {
    float z = side ? -h : h, n[3] = {0, 0, side ? -1.0f : 1.0f}, o[3] = {0, 0, z};
    int ctr = c->nvert;
    addVert(c, it, o, n, 0, 0);
    for (int k = 1; k <= nring; k++)
      for (int j = 0; j <= ns; j++) {
        const float* cs = c->circle + 2 * j;
        float rk = r * k / nring, p[3] = {rk * cs[0], rk * cs[1], z};
        addVert(c, it, p, n, p[0], p[1]);
      }
    for (int k = 0; k < nring; k++)
      for (int j = 0; j < ns; j++) {
        // ring k's points j, j+1 (the center for k = 0) and ring k+1's
        int in0 = k ? ctr + 1 + (k - 1) * (ns + 1) + j : ctr, in1 = k ? in0 + 1 : ctr;
        int out0 = ctr + 1 + k * (ns + 1) + j, out1 = out0 + 1;
        if (side) {
          addTri(c, item, in0, out1, out0);
          if (k) addTri(c, item, in0, in1, out1);
        } else {
          addTri(c, item, in0, out0, out1);
          if (k) addTri(c, item, in0, out1, in1);
        }
      }
  }
  return 0;
}

// ---- flat shapes -----------------------------------------------------------------------------

// a box of half-sizes s as MuJoCo draws it: six faces, each a grid of nquad x nquad quads with
// the face normal
static int box(mjrContext* c, int item, const mjrItem* it, const float s[3]) {
  int nq = c->nquad, row = nq + 1;
  if (mjr_reserve(c, 6 * row * row, 12 * nq * nq)) return -1;
  for (int ax = 0; ax < 3; ax++)
    for (int sg = -1; sg <= 1; sg += 2) {
      // face normal along axis ax with sign sg; (u, v) span the face so that u x v = normal
      int u = (ax + 1) % 3, v = (ax + 2) % 3;
      float n[3] = {0, 0, 0};
      n[ax] = (float)sg;
      int v0 = c->nvert;
      for (int j = 0; j <= nq; j++)
        for (int i = 0; i <= nq; i++) {
          float cu = -1 + 2.0f * i / nq, cv = -1 + 2.0f * j / nq, p[3];
          p[ax] = sg * s[ax], p[u] = cu * s[u] * sg, p[v] = cv * s[v];
          addVert(c, it, p, n, p[0], p[1]);
        }
      for (int j = 0; j < nq; j++)
        for (int i = 0; i < nq; i++) {
          int a = v0 + j * row + i;
          addQuad(c, item, a, a + 1, a + row + 1, a + row);
        }
    }
  return 0;
}

// the grid lines g[0..n] of a plane along one local axis as MuJoCo draws planes (lighting each
// vertex of the grid): a finite half-size sz in cells of 2 s, s = max(size[2], sz / 198), an even
// number of them, the rest split between two end cells; an infinite axis in 200 cells of
// (2.1 zfar + 2 s) / 200, s = 2 / texrepeat (2.1 zfar / 198 without one), centered on the
// multiple of 2 s nearest the eye's coordinate e; the number of cells n
static int planeGrid(float sz, float spacing, float zfar, float rep, float e, float* g) {
  if (sz > 0) {
    float s = fmaxf(spacing, sz / 198);
    int n = (int)floorf(sz / fmaxf(s, 1e-15f));
    n -= n % 2;
    float pad = sz - n * s;
    g[0] = -sz;
    for (int x = 1; x <= n + 1; x++) g[x] = -sz + pad + (x - 1) * 2 * s;
    g[n + 2] = sz;
    return n + 2;
  }
  float s = rep > 0 ? 2 / rep : 2.1f * zfar / 198, d = (2.1f * zfar + 2 * s) / 200;
  float c = 2 * s * roundf(0.5f * e / s);
  for (int x = 0; x <= 200; x++) g[x] = c + d * (x - 100);
  return 200;
}

// the local x, y of the eye e and the box [lo, hi] of those a view can see of a plane (item it):
// the bounding box of the eye and the frustum's corners (far, and orthographic near) projected
// on the plane (the projection of the frustum holds its section by the plane)
static void planeView(const mjrItem* it, const mjrPass* cam, float e[2], float lo[2],
                      float hi[2]) {
  float ax = cam->cx / cam->sx, ay = cam->cy / cam->sy;
  for (int k = 0; k < 2; k++) lo[k] = 1e30f, hi[k] = -1e30f;
  for (int q = 0; q < 9; q++) {
    // the eye (q = 0), the far corners (1-4), the near corners (5-8: the eye in perspective)
    float a = q == 0 ? 0 : (q & 1 ? ax : -ax), b = q == 0 ? 0 : (q & 2 ? ay : -ay);
    float far = q == 0 || q > 4 ? 0 : cam->zfar, w = cam->ortho ? 1 : far, p[3];
    for (int k = 0; k < 3; k++)
      p[k] = cam->eye[k] - it->pos[k] + far * cam->axis[6 + k]
           + w * (a * cam->axis[k] + b * cam->axis[3 + k]);
    for (int k = 0; k < 2; k++) {
      // local = mat' (point - pos)
      float l = it->mat[k] * p[0] + it->mat[3 + k] * p[1] + it->mat[6 + k] * p[2];
      lo[k] = fminf(lo[k], l), hi[k] = fmaxf(hi[k], l);
      if (q == 0) e[k] = l;
    }
  }
}

// a plane: a grid of quads (planeGrid) with normal +z, its vertices' uv the local x, y; only
// the cells the camera can see (planeView)
static int plane(mjrContext* c, const mjModel* m, int item, const mjrItem* it,
                 const mjrPass* cam) {
  float e[2], lo[2], hi[2];
  planeView(it, cam, e, lo, hi);
  float g[2][201], zfar = (float)(m->vis.map_zfar * m->stat.extent);
  int n[2], a[2], b[2];
  for (int k = 0; k < 2; k++) {
    // the grid lines about the eye's coordinate, the range of cells [a, b) that [lo, hi] meets
    n[k] = planeGrid(it->size[k], it->size[2], zfar, it->texrepeat[k], e[k], g[k]);
    for (a[k] = 0; a[k] + 1 < n[k] && g[k][a[k] + 1] <= lo[k]; a[k]++) {}
    for (b[k] = n[k]; b[k] > a[k] + 1 && g[k][b[k] - 1] >= hi[k]; b[k]--) {}
  }
  int nx = b[0] - a[0] + 1, ny = b[1] - a[1] + 1;
  if (mjr_reserve(c, nx * ny, 2 * (nx - 1) * (ny - 1))) return -1;
  float nrm[3] = {0, 0, 1};
  int v0 = c->nvert;
  for (int y = a[1]; y <= b[1]; y++)
    for (int x = a[0]; x <= b[0]; x++) {
      float p[3] = {g[0][x], g[1][y], 0};
      addVert(c, it, p, nrm, p[0], p[1]);
    }
  for (int y = 0; y + 1 < ny; y++)
    for (int x = 0; x + 1 < nx; x++) {
      int q = v0 + y * nx + x;
      addQuad(c, item, q, q + 1, q + nx + 1, q + nx);
    }
  return 0;
}

// ---- meshes and height fields ------------------------------------------------------------------

// whether every face corner of mesh id uses the normal (and texcoord) of its vertex's index, so
// that vertices can be shared between faces
static int sharedCorners(const mjModel* m, int id) {
  if (m->mesh_normalnum[id] != m->mesh_vertnum[id]) return 0;
  if (m->mesh_texcoordadr[id] >= 0 && m->mesh_texcoordnum[id] != m->mesh_vertnum[id]) return 0;
  int n = 3 * m->mesh_facenum[id], tc = m->mesh_texcoordadr[id] >= 0;
  const int* face = m->mesh_face + 3 * m->mesh_faceadr[id];
  const int* fn = m->mesh_facenormal + 3 * m->mesh_faceadr[id];
  const int* ft = m->mesh_facetexcoord + 3 * m->mesh_faceadr[id];
  for (int k = 0; k < n; k++)
    if (fn[k] != face[k] || (tc && ft[k] != face[k])) return 0;
  return 1;
}

// a mesh: each vertex once when the faces share corners, else three vertices per face carrying
// the face's normal and texcoord indices
static int mesh(mjrContext* c, const mjModel* m, int item, const mjrItem* it) {
  int id = it->dataid, nf = m->mesh_facenum[id], nv = m->mesh_vertnum[id];
  int shared = sharedCorners(m, id);
  if (mjr_reserve(c, shared ? nv : 3 * nf, nf)) return -1;
  const float* vert = m->mesh_vert + 3 * m->mesh_vertadr[id];
  const float* nrm = m->mesh_normal + 3 * m->mesh_normaladr[id];
  const int* face = m->mesh_face + 3 * m->mesh_faceadr[id];
  const int* fnrm = m->mesh_facenormal + 3 * m->mesh_faceadr[id];
  int tadr = m->mesh_texcoordadr[id];
  const float* tc = tadr >= 0 ? m->mesh_texcoord + 2 * tadr : NULL;
  const int* ftc = m->mesh_facetexcoord + 3 * m->mesh_faceadr[id];
  if (shared) {
    int v0 = c->nvert;
    for (int v = 0; v < nv; v++) {
      const float* uv = tc ? tc + 2 * v : vert + 3 * v;
      addVert(c, it, vert + 3 * v, nrm + 3 * v, uv[0], uv[1]);
    }
    for (int f = 0; f < nf; f++)
      addTri(c, item, v0 + face[3 * f], v0 + face[3 * f + 1], v0 + face[3 * f + 2]);
    return 0;
  }
  for (int f = 0; f < nf; f++) {
    int v0 = c->nvert;
    for (int k = 0; k < 3; k++) {
      const float* p = vert + 3 * face[3 * f + k];
      const float* uv = tc ? tc + 2 * ftc[3 * f + k] : p;
      addVert(c, it, p, nrm + 3 * fnrm[3 * f + k], uv[0], uv[1]);
    }
    addTri(c, item, v0, v0 + 1, v0 + 2);
  }
  return 0;
}

// a height field: the top surface (z = data * size[2], normals from central differences),
// four side walls down to -size[3] and the flat base
static int hfield(mjrContext* c, const mjModel* m, int item, const mjrItem* it) {
  int id = it->dataid, nr = m->hfield_nrow[id], nc = m->hfield_ncol[id];
  if (nr < 2 || nc < 2) return 0;  // no surface to draw
  const mjtNum* sz = m->hfield_size + 4 * id;
  const float* data = m->hfield_data + m->hfield_adr[id];
  if (mjr_reserve(c, nr * nc + 16 + 4 * (nr + nc) , 2 * (nr - 1) * (nc - 1) + 4 * (nr + nc) + 2))
    return -1;
  float dx = (float)(2 * sz[0] / (nc - 1)), dy = (float)(2 * sz[1] / (nr - 1));
  float zt = (float)sz[2], zb = (float)-sz[3];

  // top: vertex (r, col) at x = -sx + col dx, y = -sy + r dy; normal (-dz/dx, -dz/dy, 1)
  int v0 = c->nvert;
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nc; q++) {
      float p[3] = {(float)-sz[0] + q * dx, (float)-sz[1] + r * dy, zt * data[r * nc + q]};
      int ql = q > 0 ? q - 1 : q, qr = q + 1 < nc ? q + 1 : q;
      int rd = r > 0 ? r - 1 : r, ru = r + 1 < nr ? r + 1 : r;
      float n[3] = {-zt * (data[r * nc + qr] - data[r * nc + ql]) / ((qr - ql) * dx),
                    -zt * (data[ru * nc + q] - data[rd * nc + q]) / ((ru - rd) * dy), 1};
      mjr_normalize3(n);
      addVert(c, it, p, n, p[0], p[1]);
    }
  for (int r = 0; r + 1 < nr; r++)
    for (int q = 0; q + 1 < nc; q++) {
      int a = v0 + r * nc + q;
      addQuad(c, item, a, a + 1, a + nc + 1, a + nc);
    }

  // walls: along each border, the top edge down to the base, normal outward
  for (int side = 0; side < 4; side++) {
    int along = side < 2 ? nc : nr;  // sides 0, 1: rows 0 and nr-1; sides 2, 3: columns
    float n[3] = {0, 0, 0};
    if (side < 2) n[1] = side ? 1.0f : -1.0f;
    else n[0] = side == 3 ? 1.0f : -1.0f;
    int w0 = c->nvert;
    for (int k = 0; k < along; k++) {
      int r = side == 0 ? 0 : side == 1 ? nr - 1 : k, q = side < 2 ? k : side == 2 ? 0 : nc - 1;
      float top[3] = {(float)-sz[0] + q * dx, (float)-sz[1] + r * dy, zt * data[r * nc + q]};
      float bot[3] = {top[0], top[1], zb};
      addVert(c, it, top, n, top[0], top[1]);
      addVert(c, it, bot, n, bot[0], bot[1]);
    }
    // outward winding: the walls at +y and -x run opposite to those at -y and +x
    int flip = side == 1 || side == 2;
    for (int k = 0; k + 1 < along; k++) {
      int a = w0 + 2 * k;
      if (flip) addQuad(c, item, a, a + 2, a + 3, a + 1);
      else addQuad(c, item, a, a + 1, a + 3, a + 2);
    }
  }

  // base, facing down
  float n[3] = {0, 0, -1};
  int b0 = c->nvert;
  for (int k = 0; k < 4; k++) {
    float p[3] = {(float)((k == 1 || k == 2) ? sz[0] : -sz[0]),
                  (float)(k >= 2 ? sz[1] : -sz[1]), zb};
    addVert(c, it, p, n, p[0], p[1]);
  }
  addQuad(c, item, b0, b0 + 3, b0 + 2, b0 + 1);
  return 0;
}

// ascending order of 64-bit keys (qsort)
static int cmpKey(const void* a, const void* b) {
  unsigned long long x = *(const unsigned long long*)a, y = *(const unsigned long long*)b;
  return (x > y) - (x < y);
}

// whether mesh id is closed and faces outward, so that its back faces are always hidden: every
// directed edge (a, b) of its faces occurs once and its reverse (b, a) once too (each edge
// joins two faces of consistent winding), and the signed volume
// sum over faces of p0 . (p1 x p2) / 6 is positive; key holds 3 faces' keys (a << 32 | b)
int mjr_meshClosed(const mjModel* m, int id, unsigned long long* key) {
  int nf = m->mesh_facenum[id];
  const int* face = m->mesh_face + 3 * m->mesh_faceadr[id];
  const float* vert = m->mesh_vert + 3 * m->mesh_vertadr[id];
  double vol = 0;
  for (int f = 0; f < nf; f++) {
    const int* v = face + 3 * f;
    const float *p0 = vert + 3 * v[0], *p1 = vert + 3 * v[1], *p2 = vert + 3 * v[2];
    vol += p0[0] * ((double)p1[1] * p2[2] - (double)p1[2] * p2[1])
         + p0[1] * ((double)p1[2] * p2[0] - (double)p1[0] * p2[2])
         + p0[2] * ((double)p1[0] * p2[1] - (double)p1[1] * p2[0]);
    for (int k = 0; k < 3; k++)
      key[3 * f + k] = (unsigned long long)v[k] << 32 | (unsigned)v[(k + 1) % 3];
  }
  if (nf < 4 || vol <= 0) return 0;
  size_t n = (size_t)3 * nf;
  qsort(key, n, sizeof(*key), cmpKey);
  for (size_t i = 0; i < n; i++) {
    unsigned long long rev = key[i] << 32 | key[i] >> 32;
    if ((i + 1 < n && key[i + 1] == key[i]) || !bsearch(&rev, key, n, sizeof(*key), cmpKey))
      return 0;
  }
  return 1;
}

// ---- dispatch --------------------------------------------------------------------------------

// the triangles of one item, appended to the scene
int mjr_tessellate(mjrContext* c, const mjModel* m, mjrItem* it, const mjrPass* cam) {
  int item = (int)(it - c->item), res = 0;
  it->tri0 = c->ntri, it->vert0 = c->nvert;
  const float* s = it->size;
  switch (it->type) {
  case mjGEOM_PLANE:
    res = plane(c, m, item, it, cam);
    break;
  case mjGEOM_HFIELD:
    if (it->dataid >= 0) res = hfield(c, m, item, it);
    break;
  case mjGEOM_SPHERE: {
    float r[3] = {s[0], s[0], s[0]};
    res = roundShape(c, item, it, r, 0);
    break;
  }
  case mjGEOM_CAPSULE: {
    float r[3] = {s[0], s[0], s[0]};
    res = roundShape(c, item, it, r, s[1]);
    break;
  }
  case mjGEOM_ELLIPSOID:
    res = roundShape(c, item, it, s, 0);
    break;
  case mjGEOM_CYLINDER:
    res = cylinder(c, item, it, s[0], s[1]);
    break;
  case mjGEOM_BOX:
    res = box(c, item, it, s);
    break;
  case mjGEOM_MESH:
    if (it->dataid >= 0) res = mesh(c, m, item, it);
    break;
  default:
    break;  // SDF geoms have no surface to draw here
  }
  it->ntri = c->ntri - it->tri0, it->nvert = c->nvert - it->vert0;
  return res;
}
