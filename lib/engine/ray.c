// ray.c: ray casting, declared in mj.h: the first surface that the ray pnt + x vec (x >= 0, in
// units of |vec|) meets on one primitive geom (mju_rayGeom), mesh (mj_rayMesh), height field
// (mj_rayHfield) or on the whole scene (mj_ray), with the outward surface normal there.
//
// Each geom is solved in its own frame (p = R'(pnt - pos), v = R' vec): every piece of its
// surface (quadric patch, flat face, triangle) gives the parameters x where the ray crosses it,
// and the smallest x >= 0 wins.  A ray starting inside a solid thus reports where it leaves it;
// planes are one-sided (only rays coming from the side the normal points to see them).
#include <math.h>

#include "util/util.h"

#define NGROUP 6  // geom groups a geomgroup filter covers

// ---- the nearest crossing ----------------------------------------------------------------------

// the nearest crossing so far: parameter x (-1: none) and the local normal there
typedef struct {
  mjtNum x, n[3];
} Hit;

// keep crossing x with local normal (n0, n1, n2) when x >= 0 and nearer than h's
static void keep(Hit* h, mjtNum x, mjtNum n0, mjtNum n1, mjtNum n2) {
  if (!(x >= 0) || (h->x >= 0 && x >= h->x)) return;
  h->x = x;
  h->n[0] = n0, h->n[1] = n1, h->n[2] = n2;
}

// the roots x of a x^2 + 2 b x + c = 0 into r (ascending); their count (0 or 2)
static int quadRoots(mjtNum a, mjtNum b, mjtNum c, mjtNum r[2]) {
  mjtNum det = b * b - a * c;
  if (a < mjMINVAL || det < 0) return 0;
  det = sqrt(det);
  r[0] = (-b - det) / a, r[1] = (-b + det) / a;
  return 2;
}

// ---- primitives (local frame: p, v) ------------------------------------------------------------

// plane z = 0, one-sided, finite in x (y) when size[0] (size[1]) > 0:  x = -p_z / v_z
static void rayPlane(Hit* h, const mjtNum size[3], const mjtNum p[3], const mjtNum v[3]) {
  if (p[2] < 0 || v[2] >= 0) return;
  mjtNum x = -p[2] / v[2];
  for (int k = 0; k < 2; k++)
    if (size[k] > 0 && fabs(p[k] + x * v[k]) > size[k]) return;
  keep(h, x, 0, 0, 1);
}

// ellipsoid sum (q_k / s_k)^2 = 1 (a sphere when s is r, r, r), q = p + x v, centered at z = c;
// crossings with `end` * q_z >= c only when end is +-1 (a capsule's cap); normal ~ q_k / s_k^2
static void rayQuadric(Hit* h, const mjtNum s[3], mjtNum c, int end, const mjtNum p[3],
                       const mjtNum v[3]) {
  mjtNum a = 0, b = 0, cc = -1, r[2], q[3] = {p[0], p[1], p[2] - c};
  for (int k = 0; k < 3; k++) {
    a += v[k] * v[k] / (s[k] * s[k]);
    b += q[k] * v[k] / (s[k] * s[k]);
    cc += q[k] * q[k] / (s[k] * s[k]);
  }
  int nr = quadRoots(a, b, cc, r);
  for (int i = 0; i < nr; i++) {
    mjtNum y[3], n[3];
    for (int k = 0; k < 3; k++) y[k] = q[k] + r[i] * v[k];
    if (end && end * y[2] < 0) continue;
    for (int k = 0; k < 3; k++) n[k] = y[k] / (s[k] * s[k]);
    mju_normalize3(n);
    keep(h, r[i], n[0], n[1], n[2]);
  }
}

// side of the cylinder q_x^2 + q_y^2 = r^2 between z = -hz and hz; normal (q_x, q_y, 0) / r
static void rayTube(Hit* h, mjtNum rad, mjtNum hz, const mjtNum p[3], const mjtNum v[3]) {
  mjtNum r[2];
  int nr = quadRoots(v[0] * v[0] + v[1] * v[1], p[0] * v[0] + p[1] * v[1],
                     p[0] * p[0] + p[1] * p[1] - rad * rad, r);
  for (int i = 0; i < nr; i++) {
    if (fabs(p[2] + r[i] * v[2]) > hz) continue;
    keep(h, r[i], (p[0] + r[i] * v[0]) / rad, (p[1] + r[i] * v[1]) / rad, 0);
  }
}

// the two faces q_k = -+s[k] of a box or cylinder: x = (+-s_k - p_k) / v_k, kept when the
// crossing lies within the face (the other two half-sizes, or radius rad when rad > 0)
static void rayFaces(Hit* h, int k, const mjtNum s[3], mjtNum rad, const mjtNum p[3],
                     const mjtNum v[3]) {
  if (fabs(v[k]) < mjMINVAL) return;
  int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
  for (int sgn = -1; sgn <= 1; sgn += 2) {
    mjtNum x = (sgn * s[k] - p[k]) / v[k], n[3] = {0, 0, 0};
    mjtNum y1 = p[k1] + x * v[k1], y2 = p[k2] + x * v[k2];
    if (rad > 0 ? y1 * y1 + y2 * y2 > rad * rad : fabs(y1) > s[k1] || fabs(y2) > s[k2])
      continue;
    n[k] = sgn;
    keep(h, x, n[0], n[1], n[2]);
  }
}

// the nearest crossing of a primitive geom in its frame (plane, sphere, capsule, ellipsoid,
// cylinder, box); no crossing for other types
static void rayPrimitive(Hit* h, int type, const mjtNum size[3], const mjtNum p[3],
                         const mjtNum v[3]) {
  mjtNum r[3] = {size[0], size[0], size[0]};
  switch (type) {
    case mjGEOM_PLANE: rayPlane(h, size, p, v); break;
    case mjGEOM_SPHERE: rayQuadric(h, r, 0, 0, p, v); break;
    case mjGEOM_ELLIPSOID: rayQuadric(h, size, 0, 0, p, v); break;
    case mjGEOM_CAPSULE:
      // side, then the caps beyond z = +-size[1]
      rayTube(h, size[0], size[1], p, v);
      rayQuadric(h, r, size[1], 1, p, v);
      rayQuadric(h, r, -size[1], -1, p, v);
      break;
    case mjGEOM_CYLINDER:
      rayTube(h, size[0], size[1], p, v);
      r[2] = size[1];
      rayFaces(h, 2, r, size[0], p, v);
      break;
    case mjGEOM_BOX:
      for (int k = 0; k < 3; k++) rayFaces(h, k, size, 0, p, v);
      break;
    default: break;
  }
}

// ---- triangles ---------------------------------------------------------------------------------

// the crossing of triangle (a, b, c), either side: p + x v = a + u (b - a) + w (c - a) with
// u, w >= 0, u + w <= 1 (Cramer's rule); normal (b - a) x (c - a), unit
static void rayTriangle(Hit* h, const mjtNum a[3], const mjtNum b[3], const mjtNum c[3],
                        const mjtNum p[3], const mjtNum v[3]) {
  mjtNum e1[3], e2[3], t[3], pv[3], qv[3];
  mju_sub3(e1, b, a);
  mju_sub3(e2, c, a);
  mju_cross(pv, v, e2);
  mjtNum det = mju_dot3(e1, pv);
  if (fabs(det) < mjMINVAL) return;
  mju_sub3(t, p, a);
  mjtNum u = mju_dot3(t, pv) / det;
  if (u < 0 || u > 1) return;
  mju_cross(qv, t, e1);
  mjtNum w = mju_dot3(v, qv) / det;
  if (w < 0 || u + w > 1) return;
  mjtNum x = mju_dot3(e2, qv) / det, n[3];
  mju_cross(n, e1, e2);
  mju_normalize3(n);
  keep(h, x, n[0], n[1], n[2]);
}

// ---- frames ------------------------------------------------------------------------------------

// the ray in the frame (pos, mat): p = mat' (pnt - pos), v = mat' vec
static void toLocal(const mjtNum pos[3], const mjtNum mat[9], const mjtNum pnt[3],
                    const mjtNum vec[3], mjtNum p[3], mjtNum v[3]) {
  mjtNum dif[3];
  mju_sub3(dif, pnt, pos);
  mju_mulMatTVec3(p, mat, dif);
  mju_mulMatTVec3(v, mat, vec);
}

// h's distance, and its normal in the world (mat n) into normal when given (zero on a miss)
static mjtNum finish(const Hit* h, const mjtNum mat[9], mjtNum normal[3]) {
  if (normal) {
    if (h->x >= 0) mju_mulMatVec3(normal, mat, h->n);
    else mju_zero3(normal);
  }
  return h->x;
}

// ---- public functions --------------------------------------------------------------------------

// a primitive geom of type at (pos, mat) with size
mjtNum mju_rayGeom(const mjtNum pos[3], const mjtNum mat[9], const mjtNum size[3],
                   const mjtNum pnt[3], const mjtNum vec[3], int geomtype, mjtNum normal[3]) {
  Hit h = {-1, {0, 0, 0}};
  mjtNum p[3], v[3];
  toLocal(pos, mat, pnt, vec, p, v);
  rayPrimitive(&h, geomtype, size, p, v);
  return finish(&h, mat, normal);
}

// every triangle of the mesh of geom id (vertices in the geom frame, single precision)
mjtNum mj_rayMesh(const mjModel* m, const mjData* d, int id, const mjtNum pnt[3],
                  const mjtNum vec[3], mjtNum normal[3]) {
  Hit h = {-1, {0, 0, 0}};
  const mjtNum *pos = d->geom_xpos + 3 * id, *mat = d->geom_xmat + 9 * id;
  int mesh = m->geom_dataid[id];
  mjtNum p[3], v[3];
  toLocal(pos, mat, pnt, vec, p, v);
  if (mesh >= 0 && m->geom_type[id] == mjGEOM_MESH) {
    const float* vert = m->mesh_vert + 3 * m->mesh_vertadr[mesh];
    const int* face = m->mesh_face + 3 * m->mesh_faceadr[mesh];
    for (int f = 0; f < m->mesh_facenum[mesh]; f++) {
      mjtNum t[3][3];
      for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) t[i][k] = vert[3 * face[3 * f + i] + k];
      rayTriangle(&h, t[0], t[1], t[2], p, v);
    }
  }
  return finish(&h, mat, normal);
}

// the span [lo, hi] of x where p + x v lies in the box |q_k - c_k| <= s_k; 0 when empty
static int boxSpan(const mjtNum c[3], const mjtNum s[3], const mjtNum p[3], const mjtNum v[3],
                   mjtNum* lo, mjtNum* hi) {
  *lo = 0, *hi = INFINITY;
  for (int k = 0; k < 3; k++) {
    mjtNum q = p[k] - c[k];
    if (fabs(v[k]) < mjMINVAL) {
      if (fabs(q) > s[k]) return 0;
      continue;
    }
    mjtNum x1 = (-s[k] - q) / v[k], x2 = (s[k] - q) / v[k];
    *lo = fmax(*lo, fmin(x1, x2));
    *hi = fmin(*hi, fmax(x1, x2));
  }
  return *lo <= *hi;
}

// vertex (r, c) of height field hf: x = -s0 + 2 s0 c / (ncol-1), y = -s1 + 2 s1 r / (nrow-1),
// z = s2 data[r ncol + c]
static void hfieldVertex(const mjModel* m, int hf, int r, int c, mjtNum out[3]) {
  const mjtNum* s = m->hfield_size + 4 * hf;
  int nrow = m->hfield_nrow[hf], ncol = m->hfield_ncol[hf];
  out[0] = s[0] * (2.0 * c / (ncol - 1) - 1);
  out[1] = s[1] * (2.0 * r / (nrow - 1) - 1);
  out[2] = s[2] * m->hfield_data[m->hfield_adr[hf] + r * ncol + c];
}

// the side wall q_k = sgn s_k of a height field (k = 0: x, 1: y), up to the elevation profile
// along that edge (linear between the edge's vertices), down to the base z = -s3
static void hfieldWall(Hit* h, const mjModel* m, int hf, int k, int sgn, const mjtNum p[3],
                       const mjtNum v[3]) {
  const mjtNum* s = m->hfield_size + 4 * hf;
  if (fabs(v[k]) < mjMINVAL) return;
  mjtNum x = (sgn * s[k] - p[k]) / v[k];
  int o = 1 - k;  // the coordinate along the wall
  mjtNum y = p[o] + x * v[o], z = p[2] + x * v[2];
  if (!(x >= 0) || fabs(y) > s[o] || z < 0) return;
  // the edge's grid line and the segment of it holding y
  int n = k ? m->hfield_ncol[hf] : m->hfield_nrow[hf];
  int line = sgn > 0 ? (k ? m->hfield_nrow[hf] - 1 : m->hfield_ncol[hf] - 1) : 0;
  mjtNum g = (y / s[o] + 1) * 0.5 * (n - 1);
  int i = (int)fmin(fmax(floor(g), 0), n - 2);
  mjtNum a[3], b[3];
  hfieldVertex(m, hf, k ? line : i, k ? i : line, a);
  hfieldVertex(m, hf, k ? line : i + 1, k ? i + 1 : line, b);
  if (z > a[2] + (g - i) * (b[2] - a[2])) return;
  mjtNum nrm[3] = {0, 0, 0};
  nrm[k] = sgn;
  keep(h, x, nrm[0], nrm[1], nrm[2]);
}

// the solid of height field geom id: -s3 <= z <= the elevation surface over |x| <= s0,
// |y| <= s1, each grid cell two triangles split along its (r, c) - (r+1, c+1) diagonal; only
// the cells under the ray's span through the bounding box are tried
mjtNum mj_rayHfield(const mjModel* m, const mjData* d, int id, const mjtNum pnt[3],
                    const mjtNum vec[3], mjtNum normal[3]) {
  Hit h = {-1, {0, 0, 0}};
  const mjtNum *pos = d->geom_xpos + 3 * id, *mat = d->geom_xmat + 9 * id;
  int hf = m->geom_dataid[id];
  mjtNum p[3], v[3], lo, hi;
  toLocal(pos, mat, pnt, vec, p, v);
  if (hf < 0 || m->geom_type[id] != mjGEOM_HFIELD) return finish(&h, mat, normal);
  const mjtNum* s = m->hfield_size + 4 * hf;
  int nrow = m->hfield_nrow[hf], ncol = m->hfield_ncol[hf];

  // the bounding box: x, y within the size, z from -s3 to s2
  mjtNum bc[3] = {0, 0, 0.5 * (s[2] - s[3])}, bs[3] = {s[0], s[1], 0.5 * (s[2] + s[3])};
  if (!boxSpan(bc, bs, p, v, &lo, &hi)) return finish(&h, mat, normal);

  // the base box z in [-s3, 0], and the side walls above it
  mjtNum bp[3] = {p[0], p[1], p[2] + 0.5 * s[3]}, bsz[3] = {s[0], s[1], 0.5 * s[3]};
  rayPrimitive(&h, mjGEOM_BOX, bsz, bp, v);
  for (int k = 0; k < 2; k++) {
    hfieldWall(&h, m, hf, k, -1, p, v);
    hfieldWall(&h, m, hf, k, 1, p, v);
  }

  // the cells under the span [lo, hi]: columns and rows from the x and y extents
  mjtNum xa = p[0] + lo * v[0], xb = p[0] + hi * v[0];
  mjtNum ya = p[1] + lo * v[1], yb = p[1] + hi * v[1];
  mjtNum cx = 0.5 * (ncol - 1) / s[0], cy = 0.5 * (nrow - 1) / s[1];
  int c0 = (int)fmax(floor((fmin(xa, xb) + s[0]) * cx), 0);
  int c1 = (int)fmin(floor((fmax(xa, xb) + s[0]) * cx), ncol - 2);
  int r0 = (int)fmax(floor((fmin(ya, yb) + s[1]) * cy), 0);
  int r1 = (int)fmin(floor((fmax(ya, yb) + s[1]) * cy), nrow - 2);
  for (int r = r0; r <= r1; r++) {
    for (int c = c0; c <= c1; c++) {
      mjtNum v00[3], v01[3], v10[3], v11[3];
      hfieldVertex(m, hf, r, c, v00);
      hfieldVertex(m, hf, r, c + 1, v01);
      hfieldVertex(m, hf, r + 1, c, v10);
      hfieldVertex(m, hf, r + 1, c + 1, v11);
      rayTriangle(&h, v00, v11, v10, p, v);
      rayTriangle(&h, v00, v01, v11, p, v);
    }
  }
  return finish(&h, mat, normal);
}

// 1 when geom g takes part in mj_ray: not of bodyexclude, in an enabled group (when filtered),
// not static when flg_static is 0, and not fully transparent (material alpha, else rgba)
static int rayIncludes(const mjModel* m, int g, const unsigned char* geomgroup, int flg_static,
                       int bodyexclude) {
  int body = m->geom_bodyid[g], grp = m->geom_group[g], mat = m->geom_matid[g];
  if (body == bodyexclude) return 0;
  if (geomgroup && grp >= 0 && grp < NGROUP && !geomgroup[grp]) return 0;
  if (!flg_static && m->body_weldid[body] == 0) return 0;
  float alpha = mat >= 0 ? m->mat_rgba[4 * mat + 3] : m->geom_rgba[4 * g + 3];
  return alpha != 0;
}

// the nearest geom of the scene the ray meets
mjtNum mj_ray(const mjModel* m, const mjData* d, const mjtNum pnt[3], const mjtNum vec[3],
              const unsigned char* geomgroup, int flg_static, int bodyexclude, int geomid[1],
              mjtNum normal[3]) {
  mjtNum best = -1, nrm[3] = {0, 0, 0};
  int id = -1;
  for (int g = 0; g < m->ngeom; g++) {
    if (!rayIncludes(m, g, geomgroup, flg_static, bodyexclude)) continue;
    mjtNum n[3], x;
    switch (m->geom_type[g]) {
      case mjGEOM_MESH: x = mj_rayMesh(m, d, g, pnt, vec, n); break;
      case mjGEOM_HFIELD: x = mj_rayHfield(m, d, g, pnt, vec, n); break;
      default:
        x = mju_rayGeom(d->geom_xpos + 3 * g, d->geom_xmat + 9 * g, m->geom_size + 3 * g, pnt,
                        vec, m->geom_type[g], n);
        break;
    }
    if (x < 0 || (best >= 0 && x >= best)) continue;
    best = x, id = g;
    mju_copy3(nrm, n);
  }
  if (geomid) geomid[0] = id;
  if (normal) mju_copy3(normal, nrm);
  return best;
}
