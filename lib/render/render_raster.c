// render_raster.c: views, projection of the scene's vertices, near-plane clipping, and the
// triangle rasterizer writing a visibility buffer (nearest depth, triangle, barycentrics).
#include <math.h>
#include <string.h>

#include "render/render_scene.h"

// ---- views ---------------------------------------------------------------------------------

// a pass from a camera pose: mat's columns are right, up, backward; perspective:
// pixel = center + f (x, -y) / depth with f = (H / 2) / tan(fovy / 2); orthographic:
// pixel = center + (H / fovy) (x, -y)
void mjr_setPass(mjrPass* p, const double pos[3], const double mat[9], double fovy, int ortho,
                 double znear, double zfar, int width, int height) {
  memset(p, 0, sizeof(*p));
  for (int k = 0; k < 3; k++) {
    p->eye[k] = (float)pos[k];
    p->axis[k] = (float)mat[3 * k];
    p->axis[3 + k] = (float)mat[3 * k + 1];
    p->axis[6 + k] = (float)-mat[3 * k + 2];
  }
  double f = ortho ? height / fovy : 0.5 * height / tan(0.5 * fovy * 3.14159265358979 / 180);
  p->sx = p->sy = (float)f;
  p->cx = 0.5f * width;
  p->cy = 0.5f * height;
  p->ortho = ortho;
  p->znear = (float)znear;
  p->zfar = (float)zfar;
  p->width = width;
  p->height = height;
}

// project one world point into pass p
static inline void projectPoint(const mjrPass* p, const float w[3], mjrProj* q) {
  float d[3] = {w[0] - p->eye[0], w[1] - p->eye[1], w[2] - p->eye[2]};
  float x = mjr_dot3(p->axis, d), y = mjr_dot3(p->axis + 3, d), z = mjr_dot3(p->axis + 6, d);
  q->zv = z;
  q->iw = p->ortho ? 1.0f : (z > 1e-20f ? 1.0f / z : 0.0f);
  q->sx = p->cx + p->sx * x * q->iw;
  q->sy = p->cy - p->sy * y * q->iw;
}

// project every vertex of the scene
void mjr_project(mjrContext* c, const mjrPass* p) {
  for (int i = 0; i < c->nvert; i++) projectPoint(p, c->vert[i].pos, c->proj + i);
}

// every pixel empty
void mjr_clearVis(mjrVisBuf* vis, int n) {
  for (int i = 0; i < n; i++) vis->depth[i] = INFINITY;
  if (vis->tri) memset(vis->tri, 0xff, (size_t)n * sizeof(int));
}

// ---- the triangle rasterizer -----------------------------------------------------------------

// the smallest and largest of three numbers
static inline float min3(float a, float b, float c) {
  float m = a < b ? a : b;
  return m < c ? m : c;
}
static inline float max3(float a, float b, float c) {
  float m = a > b ? a : b;
  return m > c ? m : c;
}

// ceil(x) for x >= 0 as an int
static inline int ceilInt(float x) {
  int i = (int)x;
  return i + (i < x);
}

// the depth-only row of a triangle (shadow maps): n pixels from depth on, the edge functions
// l_i + d_i j at the j-th, z = sum l_i q_i / sum l_i iw_i kept where nearer and within [zn, zf]
static void spanDepth(float* depth, int n, float l0, float l1, float l2, float d0, float d1,
                      float d2, float iw0, float iw1, float iw2, float q0, float q1, float q2,
                      float zn, float zf) {
  for (int j = 0; j < n; j++) {
    float e0 = l0 + d0 * j, e1 = l1 + d1 * j, e2 = l2 + d2 * j;
    float z = (e0 * q0 + e1 * q1 + e2 * q2) / (e0 * iw0 + e1 * iw1 + e2 * iw2);
    float dj = depth[j];
    int skip = (z >= dj) | (z < zn) | (z > zf);
    depth[j] = skip ? dj : z;
  }
}

// rasterize triangle t (all vertices in front of the near plane): the edge functions
// w_i(p) = edge opposite vertex i give screen barycentrics l_i = w_i / area; the
// perspective-correct weights are b_i = l_i iw_i / sum_j l_j iw_j and the depth
// z = sum_i b_i z_i (= 1 / sum l_j iw_j in perspective)
mjrINLINE void rasterTri(mjrContext* c, const mjrPass* p, int t, mjrVisBuf* vis, int cull,
                         int wire) {
  const mjrTri* tr = c->tri + t;
  const mjrProj *a = c->proj + tr->v[0], *b = c->proj + tr->v[1], *q = c->proj + tr->v[2];

  // the pixels whose centers (x + 0.5, y + 0.5) lie in the bounding box, within the image:
  // a small triangle between pixel centers ends here
  float xmin = min3(a->sx, b->sx, q->sx), xmax = max3(a->sx, b->sx, q->sx);
  float ymin = min3(a->sy, b->sy, q->sy), ymax = max3(a->sy, b->sy, q->sy);
  if (xmax < 0.5f || ymax < 0.5f || xmin > p->width || ymin > p->height) return;
  int x0 = xmin < 0.5f ? 0 : ceilInt(xmin - 0.5f), y0 = ymin < 0.5f ? 0 : ceilInt(ymin - 0.5f);
  int x1 = xmax >= p->width ? p->width - 1 : (int)(xmax - 0.5f);
  int y1 = ymax >= p->height ? p->height - 1 : (int)(ymax - 0.5f);
  if (x0 > x1 || y0 > y1) return;

  // signed area: front faces are clockwise on screen (y down), counterclockwise when mirrored
  double area = ((double)b->sx - a->sx) * ((double)q->sy - a->sy)
              - ((double)b->sy - a->sy) * ((double)q->sx - a->sx);
  if (area == 0 || (cull && (p->mirror ? area < 0 : area > 0))) return;

  // edge function of vertex i: l_i(x, y) = (A_i x + B_i y + C_i) / area (one division)
  const mjrProj* v[3] = {a, b, q};
  double A[3], B[3], C[3], inv = 1 / area;
  for (int i = 0; i < 3; i++) {
    const mjrProj *e0 = v[(i + 1) % 3], *e1 = v[(i + 2) % 3];
    A[i] = ((double)e0->sy - e1->sy) * inv;
    B[i] = ((double)e1->sx - e0->sx) * inv;
    C[i] = ((double)e0->sx * e1->sy - (double)e0->sy * e1->sx) * inv;
  }

  // wireframe: distance to edge i in pixels = l_i |area| / |edge i|
  float k[3] = {0, 0, 0};
  if (wire)
    for (int i = 0; i < 3; i++) k[i] = (float)(1 / sqrt(A[i] * A[i] + B[i] * B[i]));

  // depth numerators q_i = z_i iw_i and weights iw_i
  float iw0 = a->iw, iw1 = b->iw, iw2 = q->iw;
  float q0 = a->zv * iw0, q1 = b->zv * iw1, q2 = q->zv * iw2;
  float zn = p->znear, zf = p->zfar;
  int W = p->width;
  // the row's span: l_i(x) = l_i(x0) + A_i (x - x0) >= 0 bounds x from one side per edge,
  // x >= x0 - l_i(x0) / A_i (A_i > 0) or x <= that (A_i < 0), a bound linear in the row:
  // e_i(y) = e0_i + de_i (y - y0) with e0_i = x0 - l_i(x0, y0) / A_i, de_i = -B_i / A_i; an edge
  // with A_i = 0 empties the rows where l_i < 0 by more than 1e-7 pixel (l_i / |B_i|: the same
  // slack as the other edges', so that a row of pixel centers on an edge two triangles share
  // is not lost to rounding in both)
  double e0[3], de[3], px = x0 + 0.5, py0 = y0 + 0.5;
  for (int i = 0; i < 3; i++) {
    double l = A[i] * px + B[i] * py0 + C[i];
    e0[i] = A[i] != 0 ? x0 - l / A[i] : l;
    de[i] = A[i] != 0 ? -B[i] / A[i] : B[i];
  }
  for (int y = y0; y <= y1; y++) {
    double xl = x0, xr = x1, dy = y - y0;
    for (int i = 0; i < 3; i++) {
      // (as selects: tiny triangles would mispredict branches on the edges' kinds)
      double e = e0[i] + de[i] * dy;
      double lo = A[i] > 0 ? e - 1e-7 : xl;
      double hi = A[i] < 0 ? e + 1e-7 : A[i] == 0 && e < -1e-7 * fabs(de[i]) ? -1 : xr;
      xl = lo > xl ? lo : xl, xr = hi < xr ? hi : xr;
    }
    if (xl > xr) continue;
    int xs = ceilInt((float)xl), xe = (int)xr;
    if (xs > xe) continue;

    // the edge functions at the span's first pixel center
    double pxs = xs + 0.5, py = y + 0.5;
    float l0 = (float)(A[0] * pxs + B[0] * py + C[0]), l1 = (float)(A[1] * pxs + B[1] * py + C[1]);
    float l2 = (float)(A[2] * pxs + B[2] * py + C[2]);
    float d0 = (float)A[0], d1 = (float)A[1], d2 = (float)A[2];
    float* depth = vis->depth + y * W + xs;
    int n = xe - xs + 1;
    if (!vis->tri) {
      spanDepth(depth, n, l0, l1, l2, d0, d1, d2, iw0, iw1, iw2, q0, q1, q2, zn, zf);
      continue;
    }
    // the pixels of the row: l_i = l_i(xs) + A_i j at the j-th; kept where nearer than the
    // buffer, within the clip range (and, in wireframes, near an edge); stores as selects
    int *tri = vis->tri + y * W + xs;
    float *vb1 = vis->b1 + y * W + xs, *vb2 = vis->b2 + y * W + xs;
    for (int j = 0; j < n; j++) {
      float e0 = l0 + d0 * j, e1 = l1 + d1 * j, e2 = l2 + d2 * j;
      float s = e0 * iw0 + e1 * iw1 + e2 * iw2;
      float z = (e0 * q0 + e1 * q1 + e2 * q2) / s, is = 1.0f / s;
      float dj = depth[j], b1j = vb1[j], b2j = vb2[j];
      int tj = tri[j];
      int skip = (z >= dj) | (z < zn) | (z > zf)
               | (wire & (e0 * k[0] >= 1) & (e1 * k[1] >= 1) & (e2 * k[2] >= 1));
      float w1 = (e1 > 0 ? e1 : 0) * iw1 * is, w2 = (e2 > 0 ? e2 : 0) * iw2 * is;
      depth[j] = skip ? dj : z;
      tri[j] = skip ? tj : t;
      vb1[j] = skip ? b1j : w1;
      vb2[j] = skip ? b2j : w2;
    }
  }
}

// a new vertex on edge (i, j) where the depth crosses the near plane: attributes (and, with
// color, the pass's vertex colors) interpolated at s = (zn - z_i) / (z_j - z_i); its index, or
// -1 when out of memory
static int clipVertex(mjrContext* c, const mjrPass* p, int i, int j, int color) {
  if (mjr_reserve(c, 1, 0)) return -1;
  float zi = c->proj[i].zv, zj = c->proj[j].zv;
  float s = (p->znear - zi) / (zj - zi);
  const mjrVertex *a = c->vert + i, *b = c->vert + j;
  mjrVertex* n = c->vert + c->nvert;
  for (int k = 0; k < 3; k++) {
    n->pos[k] = a->pos[k] + s * (b->pos[k] - a->pos[k]);
    n->nrm[k] = a->nrm[k] + s * (b->nrm[k] - a->nrm[k]);
  }
  for (int k = 0; k < 2; k++) n->uv[k] = a->uv[k] + s * (b->uv[k] - a->uv[k]);
  if (color) {
    // the pass's vertex colors, as OpenGL interpolates them when it clips
    int nc = 3 * c->ncolor, off = p->mirror ? nc : 0;
    const float *ca = c->vcol + 2 * nc * i + off, *cb = c->vcol + 2 * nc * j + off;
    float* cn = c->vcol + 2 * nc * c->nvert + off;
    for (int k = 0; k < nc; k++) cn[k] = ca[k] + s * (cb[k] - ca[k]);
  }
  projectPoint(p, n->pos, c->proj + c->nvert);
  c->proj[c->nvert].zv = p->znear;
  return c->nvert++;
}

// clip triangle t against the near plane (Sutherland-Hodgman on one plane) and rasterize the
// one or two triangles that remain; they are appended to the scene so that shading finds them
mjrINLINE void clipTri(mjrContext* c, const mjrPass* p, int t, mjrVisBuf* vis, int cull,
                       int wire) {
  int poly[4], n = 0;
  int v[3] = {c->tri[t].v[0], c->tri[t].v[1], c->tri[t].v[2]};
  for (int e = 0; e < 3; e++) {
    int i = v[e], j = v[(e + 1) % 3];
    int ini = c->proj[i].zv >= p->znear, inj = c->proj[j].zv >= p->znear;
    if (ini) poly[n++] = i;
    if (ini != inj) {
      int k = clipVertex(c, p, i, j, c->ncolor && vis->tri);
      if (k < 0) return;
      poly[n++] = k;
    }
  }

  // a fan over the clipped polygon
  for (int f = 1; f + 1 < n; f++) {
    if (mjr_reserve(c, 0, 1)) return;
    mjrTri* nt = c->tri + c->ntri;
    nt->v[0] = poly[0], nt->v[1] = poly[f], nt->v[2] = poly[f + 1];
    nt->item = c->tri[t].item;
    rasterTri(c, p, c->ntri++, vis, cull, wire);
  }
}

// rasterize the listed items' triangles: entirely behind the near or past the far plane skipped,
// crossing the near plane clipped (built for AVX2 with rasterTri inlined: a frame makes some
// 100,000 calls, most for triangles of a few pixels, each was an indirect call to the clone)
mjrVECTOR void mjr_rasterItems(mjrContext* c, const mjrPass* p, const int* items, int nitems,
                               mjrVisBuf* vis, int cull) {
  int wire = c->opt.wireframe && vis->tri;
  for (int k = 0; k < nitems; k++) {
    const mjrItem* it = c->item + items[k];
    int itcull = cull && it->closed;
    int t0 = it->tri0, t1 = it->tri0 + it->ntri;
    for (int t = t0; t < t1; t++) {
      const int* v = c->tri[t].v;
      float z0 = c->proj[v[0]].zv, z1 = c->proj[v[1]].zv, z2 = c->proj[v[2]].zv;
      float zmin = min3(z0, z1, z2), zmax = max3(z0, z1, z2);
      if (zmax < p->znear || zmin > p->zfar) continue;
      if (zmin < p->znear) clipTri(c, p, t, vis, itcull, wire);
      else rasterTri(c, p, t, vis, itcull, wire);
    }
  }
}
