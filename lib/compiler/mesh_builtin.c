// mesh_builtin.c: the procedural meshes of <mesh builtin="..." params="...">: vertices (float,
// as MuJoCo stores user vertices), faces where the shape has them (else the convex hull makes
// them) and, for wedge and plate, three normals per vertex.  The arithmetic follows MuJoCo's
// (float where it keeps floats), so that the compiled vertices are bit-equal.
#include "compiler/mesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

// the builtin keywords, in mjMESH_BUILTIN_* order (for the MJCF reader)
const char* const mj_meshBuiltinNames[] = {"none", "sphere", "hemisphere", "cone", "supersphere",
                                           "supertorus", "wedge", "plate", NULL};

// ---- helpers ----------------------------------------------------------------------------------

// the superquadric cosine: sign(cos w) |cos w|^m
static double auxCos(double w, double m) {
  return copysign(pow(fabs(cos(w)), m), cos(w));
}

// the superquadric sine: sign(sin w) |sin w|^m
static double auxSin(double w, double m) {
  return copysign(pow(fabs(sin(w)), m), sin(w));
}

// n evenly spaced numbers from lo to hi, by repeated addition (MuJoCo's rounding)
static void linSpace(double lo, double hi, int n, double* out) {
  double step = n > 1 ? (hi - lo) / (n - 1) : 0;
  for (int i = 0; i < n; i++, lo += step) out[i] = lo;
}

// the foveal deformation of x in [-1, 1]: g x^5 + (1 - g) x, g = gamma clamped to [0, 1]
static double fovea(double x, double gamma) {
  if (!gamma) return x;
  double g = gamma < 0 ? 0 : gamma > 1 ? 1 : gamma;
  return g * pow(x, 5) + (1 - g) * x;
}

// normalize v (n numbers) in place unless |v| is within 1e-14 of 1 or |v|^2 below 1e-14
static void normVec(double* v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i] * v[i];
  if (s < 1e-14) return;
  s = sqrt(s);
  if (fabs(s - 1) > 1e-14)
    for (int i = 0; i < n; i++) v[i] /= s;
}

// ---- the shapes -------------------------------------------------------------------------------

// icosahedron subdivided `subdiv` times, each edge midpoint (float) pushed onto the unit sphere;
// a midpoint is made once per level, in order of first use; seen[v] holds (other end, midpoint)
// pairs of the edges whose smaller end is v (at most 6)
static void makeSphere(int subdiv, mjMeshData* o, int (*seen)[6][2]) {
  static const int ico[60] = {0, 11, 5, 0, 5,  1,  0, 1,  7,  0, 7, 10, 0, 10, 11,
                              1, 5,  9, 5, 11, 4,  11, 10, 2, 10, 7, 6,  7, 1,  8,
                              3, 9,  4, 3, 4,  2,  3, 2,  6,  3, 6, 8,  3, 8,  9,
                              4, 9,  5, 2, 4,  11, 6, 2,  10, 8, 6, 7,  9, 8,  1};
  // corners (+-1, +-phi, 0) cyclically, divided by sqrt(1 + phi^2) (phi^2 in float)
  float phi = (float)((1.0 + sqrt(5.0)) / 2.0);
  const float c[36] = {-1, phi, 0,  1,  phi, 0, -1, -phi, 0,  1,   -phi, 0,
                       0,  -1,  phi, 0, 1,   phi, 0,  -1,  -phi, 0,  1,   -phi,
                       phi, 0,  -1, phi, 0,  1,   -phi, 0,  -1, -phi, 0,   1};
  double norm = sqrt(1.0 + (double)(phi * phi));
  for (int i = 0; i < 36; i++) o->vert[i] = (float)(c[i] / norm);
  memcpy(o->face, ico, sizeof ico);
  o->nvert = 12;
  o->nface = 20;
  int* next = o->face + 3 * o->nface;  // the new faces are written past the old, then moved
  for (int l = 0; l < subdiv; l++) {
    memset(seen, 0, sizeof(int[6][2]) * o->nvert);
    int k = 0;
    for (int f = 0; f < o->nface; f++) {
      const int* t = o->face + 3 * f;
      int m[3];  // midpoints of edges (t0 t1), (t1 t2), (t2 t0)
      for (int e = 0; e < 3; e++) {
        int lo = t[e] < t[(e+1)%3], a = lo ? t[e] : t[(e+1)%3], b = lo ? t[(e+1)%3] : t[e], s = 0;
        while (s < 6 && seen[a][s][1] && seen[a][s][0] != b) s++;
        if (s < 6 && seen[a][s][1]) {
          m[e] = seen[a][s][1];
          continue;
        }
        // midpoint (v1 + v2) / 2 in float, divided by its float norm
        const float *v1 = o->vert + 3 * t[e], *v2 = o->vert + 3 * t[(e+1)%3];
        float* p = o->vert + 3 * o->nvert;
        for (int j = 0; j < 3; j++) p[j] = (v1[j] + v2[j]) / 2.0f;
        float n = sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        for (int j = 0; j < 3; j++) p[j] /= n;
        seen[a][s][0] = b;
        seen[a][s][1] = m[e] = o->nvert++;
      }
      // (v1 m12 m31), (v2 m23 m12), (v3 m31 m23), (m12 m23 m31)
      const int nf[12] = {t[0], m[0], m[2], t[1], m[1], m[0], t[2], m[2], m[1], m[0], m[1], m[2]};
      memcpy(next + 12 * k++, nf, sizeof nf);
    }
    o->nface *= 4;
    memmove(o->face, next, sizeof(int) * 3 * o->nface);
    next = o->face + 3 * o->nface;
  }
}

// quad-projected hemisphere: the north pole, rows r = 0..res of 4 (r + 1) points interpolated
// along the square from the pole toward the equator and normalized, the center of the cap last;
// fan faces at the pole, strips between rows, the cap fanned to the center
static void makeHemisphere(int res, mjMeshData* o) {
  static const double pole[3] = {0, 0, 1};
  static const double eq[4][3] = {{1, 0, 0}, {0, 1, 0}, {-1, 0, 0}, {0, -1, 0}};
  float* v = o->vert;
  int nv = 1;
  v[0] = v[1] = 0, v[2] = 1;  // the north pole
  for (int row = 0; row <= res; row++) {
    for (int side = 0; side < 4; side++) {
      // arc from pole + f (eq[side] - pole) to pole + f (eq[side+1] - pole), f = (row+1)/(res+1)
      double f = (double)(row + 1) / (res + 1), a[3], b[3], d[3];
      for (int i = 0; i < 3; i++) {
        a[i] = pole[i] + f * (eq[side][i] - pole[i]);
        b[i] = pole[i] + f * (eq[(side+1)%4][i] - pole[i]);
        d[i] = (b[i] - a[i]) / (row + 1);
      }
      for (int i = 0; i < row + 1; i++, nv++) {
        double p[3];
        for (int j = 0; j < 3; j++) p[j] = a[j] + i * d[j];
        double n = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        for (int j = 0; j < 3; j++) v[3*nv+j] = (float)(p[j] / n);
      }
    }
  }
  v[3*nv] = v[3*nv+1] = v[3*nv+2] = 0;  // the cap's center
  o->nvert = ++nv;
  int* fc = o->face;
  for (int s = 0; s < 4; s++) {  // the pole's four faces (0, s+1, s+2 wrapping to 1)
    *fc++ = 0;
    *fc++ = s + 1;
    *fc++ = (s + 1) % 4 + 1;
  }
  for (int row = 0; row < res; row++) {
    int c0 = 2 * row * (row + 1) + 1, cn = 4 * (row + 1), n0 = c0 + cn, nn = 4 * (row + 2);
    for (int side = 0; side < 4; side++) {
      for (int i = 0; i < row + 2; i++) {
        int vc = i + (row + 1) * side, vn = i + (row + 2) * side;
        *fc++ = c0 + vc % cn;
        *fc++ = n0 + vn % nn;
        *fc++ = n0 + (vn + 1) % nn;
        if (i < row + 1) {
          *fc++ = c0 + vc % cn;
          *fc++ = n0 + (vn + 1) % nn;
          *fc++ = c0 + (vc + 1) % cn;
        }
      }
    }
  }
  int c0 = 2 * res * (res + 1) + 1, cn = 4 * (res + 1);
  for (int i = 0; i < cn; i++) {
    *fc++ = c0 + i;
    *fc++ = nv - 1;
    *fc++ = c0 + (i + 1) % cn;
  }
  o->nface = (int)(fc - o->face) / 3;
}

// discrete cone: nedge points on the unit circle at z = -1, then nedge on the circle of `radius`
// at z = 1 (angles 2 pi i / nedge with i counting on), or the apex (0, 0, 1) when radius <= 0;
// no faces (the hull makes them)
static void makeCone(int nedge, double radius, mjMeshData* o) {
  o->nvert = nedge + (radius > 0 ? nedge : 1);
  for (int i = 0; i < nedge + (radius > 0 ? nedge : 0); i++) {
    double r = i < nedge ? 1 : radius;
    o->vert[3*i] = (float)(r * cos(2 * i * mjPI / nedge));
    o->vert[3*i+1] = (float)(r * sin(2 * i * mjPI / nedge));
    o->vert[3*i+2] = i < nedge ? -1 : 1;
  }
  if (radius <= 0) {  // the apex
    o->vert[3*nedge] = o->vert[3*nedge+1] = 0;
    o->vert[3*nedge+2] = 1;
  }
}

// supersphere (superellipsoid) x = C(v, n) C(u, e), y = C(v, n) S(u, e), z = S(v, n): the south
// pole, res - 1 rings of res points (v = -pi/2 + i pi/res, u = -pi + 2 j pi/res), the north
// pole; fans at the poles and two triangles per ring quad
static void makeSupersphere(int res, double e, double n, mjMeshData* o) {
  float* v = o->vert;
  int nv = 1, *fc = o->face;
  v[0] = v[1] = 0;
  v[2] = -1;
  for (int i = 1; i < res; i++) {
    double a = -mjPI / 2 + i * mjPI / res;
    for (int j = 0; j < res; j++, nv++) {
      double u = -mjPI + j * 2 * mjPI / res;
      v[3*nv] = (float)(auxCos(a, n) * auxCos(u, e));
      v[3*nv+1] = (float)(auxCos(a, n) * auxSin(u, e));
      v[3*nv+2] = (float)auxSin(a, n);
    }
  }
  v[3*nv] = v[3*nv+1] = 0;
  v[3*nv+2] = 1;
  o->nvert = ++nv;
  for (int j = 0; j < res; j++) {
    *fc++ = 0;
    *fc++ = 1 + (j + 1) % res;
    *fc++ = 1 + j;
  }
  for (int i = 0; i < res - 2; i++) {
    for (int j = 0; j < res; j++) {
      int v1 = 1 + i * res + j, v2 = 1 + i * res + (j + 1) % res;
      int v4 = 1 + (i + 1) * res + j, v3 = 1 + (i + 1) * res + (j + 1) % res;
      const int q[6] = {v1, v2, v4, v2, v3, v4};
      memcpy(fc, q, sizeof q);
      fc += 6;
    }
  }
  int last = 1 + (res - 2) * res;
  for (int j = 0; j < res; j++) {
    *fc++ = last + j;
    *fc++ = last + (j + 1) % res;
    *fc++ = nv - 1;
  }
  o->nface = (int)(fc - o->face) / 3;
}

// supertorus x = (1 + r C(v, s)) C(u, t), y = (1 + r C(v, s)) S(u, t), z = r S(v, s) on the
// res x res grid u = 2 pi i/res, v = 2 pi j/res; two triangles per (wrapping) grid cell
static void makeSupertorus(int res, double radius, double s, double t, mjMeshData* o) {
  int* fc = o->face;
  for (int i = 0; i < res; i++) {
    for (int j = 0; j < res; j++) {
      double u = 2 * mjPI * i / res, v = 2 * mjPI * j / res;
      float* p = o->vert + 3 * (i * res + j);
      p[0] = (float)((1 + radius * auxCos(v, s)) * auxCos(u, t));
      p[1] = (float)((1 + radius * auxCos(v, s)) * auxSin(u, t));
      p[2] = (float)(radius * auxSin(v, s));
      int v1 = i * res + j, v2 = (i + 1) % res * res + j;
      int v3 = (i + 1) % res * res + (j + 1) % res, v4 = i * res + (j + 1) % res;
      const int q[6] = {v1, v2, v4, v2, v3, v4};
      memcpy(fc, q, sizeof q);
      fc += 6;
    }
  }
  o->nvert = res * res;
  o->nface = 2 * res * res;
}

// spherical wedge: the centers of an r0 x r1 grid of bins over azimuth x elevation (edges
// linspace(-1, 1) under the fovea, times the field of view in radians) on the unit sphere,
// (cos e sin a, sin e, -cos e cos a), each with its tangent frame as three normals:
// n = te x ta, ta, te (ta = d/da, te = d/de, normalized); no faces
static void makeWedge(const int res[2], const double fov[2], double gamma, mjMeshData* o,
                      double* edge) {
  double *xe = edge, *ye = edge + res[0] + 1;
  linSpace(-1, 1, res[0] + 1, xe);
  linSpace(-1, 1, res[1] + 1, ye);
  double sx = fov[0] * mjPI / 180, sy = fov[1] * mjPI / 180;
  for (int i = 0; i <= res[0]; i++) xe[i] = sx * fovea(xe[i], gamma);
  for (int j = 0; j <= res[1]; j++) ye[j] = sy * fovea(ye[j], gamma);
  for (int i = 0; i < res[0]; i++) {
    for (int j = 0; j < res[1]; j++) {
      int k = i * res[1] + j;
      double a = 0.5 * (xe[i+1] + xe[i]), e = 0.5 * (ye[j+1] + ye[j]);
      float *p = o->vert + 3 * k, *nm = o->normal + 9 * k;
      p[0] = (float)(cos(e) * sin(a));
      p[1] = (float)sin(e);
      p[2] = (float)(-cos(e) * cos(a));
      double ta[3] = {cos(e) * cos(a), 0, cos(e) * sin(a)};
      double te[3] = {-sin(e) * sin(a), cos(e), sin(e) * cos(a)};
      normVec(ta, 3);
      normVec(te, 3);
      double n[3] = {te[1] * ta[2] - te[2] * ta[1], te[2] * ta[0] - te[0] * ta[2],
                     te[0] * ta[1] - te[1] * ta[0]};
      for (int d = 0; d < 3; d++) {
        nm[d] = (float)n[d];
        nm[3+d] = (float)ta[d];
        nm[6+d] = (float)te[d];
      }
    }
  }
  o->nvert = res[0] * res[1];
  o->nnormal = 3 * o->nvert;
}

// plate: the centers of an r0 x r1 grid of cells over [-1, 1]^2 at z = -1, each with the
// identity frame as three normals, two triangles between each 2 x 2 block of centers
static void makePlate(const int res[2], mjMeshData* o) {
  double dx = 2. / res[0], dy = 2. / res[1];
  int* fc = o->face;
  memset(o->normal, 0, sizeof(float) * 9 * res[0] * res[1]);
  for (int i = 0; i < res[0]; i++) {
    for (int j = 0; j < res[1]; j++) {
      int k = i * res[1] + j;
      o->vert[3*k] = (float)(-1 + (i + 0.5) * dx);
      o->vert[3*k+1] = (float)(-1 + (j + 0.5) * dy);
      o->vert[3*k+2] = -1;
      o->normal[9*k] = o->normal[9*k+4] = o->normal[9*k+8] = 1;
      if (i > 0 && j > 0) {
        int a = (i - 1) * res[1] + j - 1, b = i * res[1] + j - 1;
        const int q[6] = {a, b, a + 1, b + 1, a + 1, b};
        memcpy(fc, q, sizeof q);
        fc += 6;
      }
    }
  }
  o->nvert = res[0] * res[1];
  o->nnormal = 3 * o->nvert;
  o->nface = (int)(fc - o->face) / 3;
}

// ---- entry point ------------------------------------------------------------------------------

// check the parameters of builtin `type` (MuJoCo's rules; integers truncated as it casts) and
// set the sizes to allocate in sz (vertices, faces, normals, scratch doubles); 0 ok
static int checkParams(int type, const double* p, int np, long sz[4], char* err, int errsz) {
  static const int need[] = {0, 1, 1, 2, 3, 4, 5, 2};
  static const char* const what[] = {"", "sphere", "hemisphere", "cone", "supersphere",
                                     "supertorus", "wedge", "plate"};
  if (np != need[type]) {
    snprintf(err, errsz, "%s mesh requires %d parameter%s", what[type], need[type],
             need[type] > 1 ? "s" : "");
    return 1;
  }
  int two = type == mjMESH_BUILTIN_WEDGE || type == mjMESH_BUILTIN_PLATE;
  const char* bad = NULL;
  if (fabs(p[0]) > 1e5 || (two && fabs(p[1]) > 1e5)) bad = "resolution too large";
  int n = bad ? 0 : (int)p[0], r1 = two && !bad ? (int)p[1] : 0;
  if (bad) {
  } else if (type == mjMESH_BUILTIN_SPHERE && (n < 0 || n > 4)) {
    bad = "sphere subdivision must be in [0, 4]";
  } else if (type == mjMESH_BUILTIN_HEMISPHERE && (n < 0 || n > 10)) {
    bad = "hemisphere resolution must be in [0, 10]";
  } else if (type == mjMESH_BUILTIN_CONE && n < 3) {
    bad = "cone needs at least 3 edges";
  } else if ((type == mjMESH_BUILTIN_SUPERSPHERE || type == mjMESH_BUILTIN_SUPERTORUS) && n < 3) {
    bad = "resolution must be greater than 2";
  } else if (type == mjMESH_BUILTIN_SUPERSPHERE && (p[1] < 0 || p[2] < 0)) {
    bad = "supersphere 'e' and 'n' cannot be negative";
  } else if (type == mjMESH_BUILTIN_SUPERTORUS && (p[1] <= 0 || p[1] > 1)) {
    bad = "supertorus radius must be in (0, 1]";
  } else if (type == mjMESH_BUILTIN_SUPERTORUS && (p[2] <= 0 || p[3] <= 0)) {
    bad = "supertorus 's' and 't' must be greater than 0";
  } else if (type == mjMESH_BUILTIN_WEDGE && (p[2] <= 0 || p[2] > 180)) {
    bad = "wedge fov[0] must be in (0, 180] degrees";
  } else if (type == mjMESH_BUILTIN_WEDGE && (p[3] <= 0 || p[3] > 90)) {
    bad = "wedge fov[1] must be in (0, 90] degrees";
  } else if (type == mjMESH_BUILTIN_WEDGE && (p[4] < 0 || p[4] > 1)) {
    bad = "wedge gamma must be in [0, 1]";
  } else if (two && (n <= 0 || r1 <= 0)) {
    bad = "horizontal and vertical resolutions must be positive";
  }
  // the counts of each shape (the sphere's faces: the last level's and the one before)
  long nv = 0, nf = 0, nn = 0, scratch = 0, pw = 1L << (2 * (type == mjMESH_BUILTIN_SPHERE) * n);
  if (type == mjMESH_BUILTIN_SPHERE) {
    nv = 10 * pw + 2, nf = 25 * pw, scratch = 6 * nv;
  } else if (type == mjMESH_BUILTIN_HEMISPHERE) {
    nv = 2L * (n + 1) * (n + 2) + 2, nf = 4L * (n + 1) * (n + 2);
  } else if (type == mjMESH_BUILTIN_CONE) {
    nv = 2L * n;
  } else if (type == mjMESH_BUILTIN_SUPERSPHERE) {
    nv = (long)(n - 1) * n + 2, nf = 2L * n * (n - 1);
  } else if (type == mjMESH_BUILTIN_SUPERTORUS) {
    nv = (long)n * n, nf = 2 * nv;
  } else {
    nv = (long)n * r1, nn = 3 * nv, nf = two && type == mjMESH_BUILTIN_PLATE ? 2 * nv : 0;
    scratch = n + r1 + 2;
  }
  if (!bad && nv > 10000000) bad = "resolution too large (over 10 million vertices)";
  if (bad) {
    snprintf(err, errsz, "%s", bad);
    return 1;
  }
  sz[0] = nv, sz[1] = nf, sz[2] = nn, sz[3] = scratch;
  return 0;
}

// the vertices (and faces, normals) of builtin mesh `type` with params p[np] into out (malloc'd;
// free with mj_meshDataFree); 0 ok, else a message in err
int mj_meshBuiltin(int type, const double* p, int np, mjMeshData* out, char* err, int errsz) {
  memset(out, 0, sizeof *out);
  long sz[4];
  if (checkParams(type, p, np, sz, err, errsz)) return 1;
  out->vert = malloc(sizeof(float) * 3 * sz[0]);
  out->face = malloc(sizeof(int) * 3 * (sz[1] + 1));
  out->normal = malloc(sizeof(float) * 3 * (sz[2] + 1));
  void* scratch = malloc(sizeof(double) * (sz[3] + 1));
  if (!out->vert || !out->face || !out->normal || !scratch) {
    free(scratch);
    mj_meshDataFree(out);
    snprintf(err, errsz, "out of memory for a builtin mesh");
    return 1;
  }
  int n = (int)p[0];
  const int res[2] = {n, np > 1 ? (int)p[1] : 0};
  switch (type) {
    case mjMESH_BUILTIN_SPHERE: makeSphere(n, out, scratch); break;
    case mjMESH_BUILTIN_HEMISPHERE: makeHemisphere(n, out); break;
    case mjMESH_BUILTIN_CONE: makeCone(n, p[1], out); break;
    case mjMESH_BUILTIN_SUPERSPHERE: makeSupersphere(n, p[1], p[2], out); break;
    case mjMESH_BUILTIN_SUPERTORUS: makeSupertorus(n, p[1], p[2], p[3], out); break;
    case mjMESH_BUILTIN_WEDGE: makeWedge(res, p + 2, p[4], out, scratch); break;
    default: makePlate(res, out); break;
  }
  free(scratch);
  return 0;
}
