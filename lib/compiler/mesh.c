// mesh.c: mesh processing: transform, convex hull graph, normals, mass properties and the
// frame change into the principal frame (the steps listed in mesh.h).
#include "compiler/mesh.h"

#include <libqhull_r/qhull_ra.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util_file.h"
#include "util/util.h"

// the largest vertex count a mesh may have (ids and graph sizes stay far from INT_MAX)
#define MAXVERT 50000000

// faces with |(v1 - v0) x (v2 - v0)| under this are left out of vertex normals, and a vertex
// whose sum of face normals is shorter has no direction to compare faces with (found by probing)
#define MINCROSS 1e-7

// the cosine under which a face counts as a sharp edge for non-smooth normals
#define SHARPCOS 0.8

// ---- helpers -----------------------------------------------------------------------------------

// calloc that never returns NULL for a zero count (NULL only when out of memory)
static void* zalloc(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
}

// vertices of face f as three pointers into vert
static void faceVerts(const double* vert, const int* face, int f, const double* v[3]) {
  for (int j = 0; j < 3; j++) v[j] = vert + 3 * face[3 * f + j];
}

// n = (v1 - v0) x (v2 - v0); returns |n| (twice the triangle's area)
static double triNormal(double n[3], const double* v[3]) {
  double a[3], b[3];
  mju_sub3(a, v[1], v[0]);
  mju_sub3(b, v[2], v[0]);
  mju_cross(n, a, b);
  return mju_norm3(n);
}

// ---- input -------------------------------------------------------------------------------------

// copy the inline arrays of spec into raw data (so that both sources are freed alike)
static int copyInline(const mjMeshSpec* s, mjMeshData* d) {
  d->nvert = s->nvert, d->nnormal = s->nnormal, d->ntexcoord = s->ntexcoord, d->nface = s->nface;
  d->vert = zalloc(3 * (size_t)s->nvert, sizeof(float));
  d->normal = zalloc(3 * (size_t)s->nnormal, sizeof(float));
  d->texcoord = zalloc(2 * (size_t)s->ntexcoord, sizeof(float));
  d->face = zalloc(3 * (size_t)s->nface, sizeof(int));
  if (!d->vert || !d->normal || !d->texcoord || !d->face) return 1;
  if (s->nvert) memcpy(d->vert, s->vert, 3 * sizeof(float) * s->nvert);
  if (s->nnormal) memcpy(d->normal, s->normal, 3 * sizeof(float) * s->nnormal);
  if (s->ntexcoord) memcpy(d->texcoord, s->texcoord, 2 * sizeof(float) * s->ntexcoord);
  if (s->nface) memcpy(d->face, s->face, 3 * sizeof(int) * s->nface);
  return 0;
}

// check counts, ids and finiteness of raw data (MuJoCo's messages where it has them)
static int checkData(const char* name, const mjMeshData* d, char* err, int errsz) {
  if (d->nvert < 4) return mj_ioError(err, errsz, "%s: at least 4 vertices required", name);
  if (d->nvert > MAXVERT)
    return mj_ioError(err, errsz, "%s: too many vertices (%d)", name, d->nvert);
  for (int i = 0; i < 3 * d->nvert; i++)
    if (!isfinite(d->vert[i]))
      return mj_ioError(err, errsz, "%s: vertex coordinate %d is not finite", name, i);
  for (int i = 0; i < 3 * d->nface; i++) {
    if (d->face[i] < 0 || d->face[i] >= d->nvert)
      return mj_ioError(err, errsz, "%s: in face %d, vertex index %d does not exist", name,
                        i / 3, d->face[i]);
    if (d->facenormal && (d->facenormal[i] < 0 || d->facenormal[i] >= d->nnormal))
      return mj_ioError(err, errsz, "%s: in face %d, normal index %d does not exist", name,
                        i / 3, d->facenormal[i]);
    if (d->facetexcoord && (d->facetexcoord[i] < 0 || d->facetexcoord[i] >= d->ntexcoord))
      return mj_ioError(err, errsz, "%s: in face %d, texcoord index %d does not exist", name,
                        i / 3, d->facetexcoord[i]);
  }
  return 0;
}

// compare two directed edges packed as a * 2^32 + b
static int cmpEdge(const void* a, const void* b) {
  unsigned long long x = *(const unsigned long long*)a, y = *(const unsigned long long*)b;
  return (x > y) - (x < y);
}

// exact inertia needs consistently oriented faces: no directed edge (a, b) used by two faces
static int checkOrientation(const char* name, const int* face, int nface, char* err,
                            int errsz) {
  unsigned long long* e = malloc(sizeof *e * 3 * (size_t)(nface ? nface : 1));
  if (!e) return mj_ioError(err, errsz, "%s: out of memory", name);
  for (int f = 0; f < nface; f++)
    for (int j = 0; j < 3; j++)
      e[3 * f + j] = (unsigned long long)face[3 * f + j] << 32 | face[3 * f + (j + 1) % 3];
  qsort(e, 3 * (size_t)nface, sizeof *e, cmpEdge);
  int rc = 0;
  for (int i = 1; i < 3 * nface && !rc; i++)
    if (e[i] == e[i - 1])
      rc = mj_ioError(err, errsz,
                      "%s: faces have inconsistent orientation. Please check the faces "
                      "containing the vertices %d and %d.",
                      name, (int)(e[i] >> 32), (int)(e[i] & 0xffffffffu));
  free(e);
  return rc;
}

// ---- normals -----------------------------------------------------------------------------------

// n /= |n| in float arithmetic, as MuJoCo normalizes its float normals (found by probing): the
// length from float squares; vertex normals are divided by it and become (0, 0, 1) when it is
// under mjMINVAL; given (and transformed) normals are multiplied by its float reciprocal and
// become (0, 0, 1) when its square is under mjMINVAL
static void normalizeFloat(float n[3], int given) {
  float len2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2], len = sqrtf(len2);
  if ((given ? len2 : len) < mjMINVAL) {
    n[0] = n[1] = 0, n[2] = 1;
    return;
  }
  float s = 1 / len;
  for (int k = 0; k < 3; k++) n[k] = given ? n[k] * s : n[k] / len;
}

// acc += x for a float accumulator and a double term, rounded once (float += double)
static void addFloat(float acc[3], const double x[3]) {
  for (int k = 0; k < 3; k++) acc[k] = (float)(acc[k] + x[k]);
}

// face f's unit normal u = c / |c|, c = (v1 - v0) x (v2 - v0), and its weight w = u |c| as
// MuJoCo forms them (w differs from c in the last bits); returns |c|, u and w unset under MINCROSS
static double faceNormal(const double* vert, const int* face, int f, double u[3], double w[3]) {
  const double* v[3];
  faceVerts(vert, face, f, v);
  double len = triNormal(u, v);
  if (len < MINCROSS) return len;
  for (int k = 0; k < 3; k++) {
    u[k] /= len;
    w[k] = u[k] * len;
  }
  return len;
}

// vertex normals: the sum, in float, of the weighted normals w of the faces around each vertex
// (faces under MINCROSS left out); unless smooth, the faces whose unit normal makes cosine <
// SHARPCOS with that sum's direction are summed apart (in float) and that sum subtracted; then
// unit length in float; returns 1 when out of memory
static int makeNormals(const double* vert, int nvert, const int* face, int nface, int smooth,
                       float* normal) {
  double u[3], w[3];
  memset(normal, 0, 3 * sizeof(float) * nvert);
  for (int f = 0; f < nface; f++) {
    if (faceNormal(vert, face, f, u, w) < MINCROSS) continue;
    for (int j = 0; j < 3; j++) addFloat(normal + 3 * face[3 * f + j], w);
  }
  if (!smooth) {
    float* sharp = zalloc(3 * (size_t)nvert, sizeof(float));
    if (!sharp) return 1;
    for (int f = 0; f < nface; f++) {
      if (faceNormal(vert, face, f, u, w) < MINCROSS) continue;
      for (int j = 0; j < 3; j++) {
        // the direction of the vertex's sum (zero under MINCROSS: every face is then sharp)
        const float* acc = normal + 3 * face[3 * f + j];
        double dir[3] = {acc[0], acc[1], acc[2]}, dlen = mju_norm3(dir);
        mju_scl3(dir, dir, dlen < MINCROSS ? 0 : 1 / dlen);
        if (mju_dot3(dir, u) < SHARPCOS) addFloat(sharp + 3 * face[3 * f + j], w);
      }
    }
    for (int i = 0; i < 3 * nvert; i++) normal[i] -= sharp[i];
    free(sharp);
  }
  for (int i = 0; i < nvert; i++) normalizeFloat(normal + 3 * i, 0);
  return 0;
}

// ---- transform ---------------------------------------------------------------------------------

// v = scale .* R' (v - refpos), R the matrix of refquat; normals (covectors): R' n in double,
// rounded to float, divided by scale (MuJoCo 3.14; 3.5 multiplied) and renormalized in float
// arithmetic
static void transform(const mjMeshSpec* s, double* vert, int nvert, float* normal, int nnormal) {
  // refquat made unit as MuJoCo's compiler does it (divided by its norm unless that is within
  // mjMINVAL of 1), then its matrix R
  const double* q0 = s->refquat;
  double q[4], r[9], norm = sqrt(q0[0] * q0[0] + q0[1] * q0[1] + q0[2] * q0[2] + q0[3] * q0[3]);
  for (int k = 0; k < 4; k++)
    q[k] = fabs(norm - 1) > mjMINVAL ? q0[k] / norm : q0[k];
  mju_quat2Mat(r, q);
  for (int i = 0; i < nvert; i++) {
    double* v = vert + 3 * i;
    double t[3];
    mju_sub3(t, v, s->refpos);
    mju_mulMatTVec3(v, r, t);
    for (int k = 0; k < 3; k++) v[k] *= s->scale[k];
  }
  for (int i = 0; i < nnormal; i++) {
    float* n = normal + 3 * i;
    double d[3] = {n[0], n[1], n[2]}, t[3];
    mju_mulMatTVec3(t, r, d);
    for (int k = 0; k < 3; k++) n[k] = (float)((float)t[k] / s->scale[k]);
    normalizeFloat(n, 1);
  }
}

// ---- convex hull -------------------------------------------------------------------------------

// the graph from qhull's vertices and triangulated facets: vertices in qhull's list order, each
// with its neighbors collected facet by facet around it; faces oriented outward
static int fillGraph(const char* name, qhT* qh, int** graph, int* ngraph, char* err,
                     int errsz) {
  int nv = qh->num_vertices, nf = qh->num_facets;
  int n = 2 + 3 * nv + 6 * nf;
  int* g = zalloc(n, sizeof(int));
  int* local = zalloc(qh->vertex_id, sizeof(int));  // qhull vertex id -> local id
  if (!g || !local) {
    free(g), free(local);
    return mj_ioError(err, errsz, "%s: out of memory for the convex hull", name);
  }
  g[0] = nv, g[1] = nf;
  int *edgeadr = g + 2, *globalid = g + 2 + nv, *edge = g + 2 + 2 * nv;
  int* faceid = edge + nv + 3 * nf;
  vertexT *vertex, **vertexp;
  facetT *facet, *neighbor, **neighborp;

  // vertex ids
  int i = 0;
  FORALLvertices {
    local[vertex->id] = i;
    globalid[i++] = qh_pointid(qh, vertex->point);
  }

  // faces: three vertices each, first two swapped when qhull's order is clockwise
  int f = 0;
  FORALLfacets {
    int j = 0;
    FOREACHvertex_(facet->vertices) {
      if (j == 3) {
        free(g), free(local);
        return mj_ioError(err, errsz, "%s: convex hull face with more than 3 vertices", name);
      }
      faceid[3 * f + j++] = qh_pointid(qh, vertex->point);
    }
    if (facet->toporient) {
      int t = faceid[3 * f];
      faceid[3 * f] = faceid[3 * f + 1];
      faceid[3 * f + 1] = t;
    }
    f++;
  }

  // edges: the other vertices of each facet around a vertex, first occurrence, -1 ended
  qh_vertexneighbors(qh);
  int adr = 0;
  i = 0;
  FORALLvertices {
    edgeadr[i++] = adr;
    int start = adr;
    FOREACHneighbor_(vertex) {
      vertexT *other, **otherp;
      FOREACHsetelement_(vertexT, neighbor->vertices, other) {
        if (other == vertex) continue;
        int id = local[other->id], k = start;
        while (k < adr && edge[k] != id) k++;
        if (k == adr) edge[adr++] = id;
      }
    }
    edge[adr++] = -1;
  }
  free(local);
  if (adr != nv + 3 * nf) {
    free(g);
    return mj_ioError(err, errsz, "%s: convex hull is not a closed triangulated surface", name);
  }
  *graph = g, *ngraph = n;
  return 0;
}

// the graph of the convex hull of vert (layout in mesh.h) from qhull; 0 ok, else 1 and err.
// Options as MuJoCo 3.14 passes them: "Qt" (triangulated facets); with maxhullvert also "Q9"
// (each step adds the furthest of all facets' furthest points; since MuJoCo 3.10, without it
// the first vertices qhull adds differ) and "TA n-4" (stop after n-4 vertices past the simplex)
static int makeGraph(const char* name, const double* vert, int nvert, int maxhullvert,
                     int** graph, int* ngraph, char* err, int errsz) {
  qhT qhbuf, *qh = &qhbuf;
  char opt[64];
  if (maxhullvert > -1) snprintf(opt, sizeof opt, "qhull Qt Q9 TA%d", maxhullvert - 4);
  else snprintf(opt, sizeof opt, "qhull Qt");
  FILE* quiet = fopen("/dev/null", "w");
  qh_zero(qh, quiet);
  // qhull reads the points without writing them
  int code = qh_new_qhull(qh, 3, nvert, (coordT*)vert, False, opt, NULL, quiet);
  int rc = 0;
  if (code) {
    rc = mj_ioError(err, errsz, "%s: qhull error (%d): the vertices may be coplanar", name, code);
  } else {
    rc = fillGraph(name, qh, graph, ngraph, err, errsz);
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong, totlong;
  qh_memfreeshort(qh, &curlong, &totlong);
  if (quiet) fclose(quiet);
  return rc;
}

// ---- mass properties ---------------------------------------------------------------------------
// in MuJoCo's arithmetic, bit for bit (t/oracle/mesh counts the exact frames): a last-bit
// difference in a mesh frame grows into visible contact differences in the MPR collision of
// flat-faced shapes

// the triangle v: its center (v0 + v1 + v2) / 3, unit normal n along (v1 - v0) x (v2 - v0)
// and area; under mjMINVAL the area is 0 and n the raw cross product
static double triangle(const double* v[3], double n[3], double cen[3]) {
  for (int k = 0; k < 3; k++) cen[k] = (v[0][k] + v[1][k] + v[2][k]) / 3;
  double len = triNormal(n, v);
  if (len < mjMINVAL) return 0;
  for (int k = 0; k < 3; k++) n[k] /= len;
  return len / 2;
}

// the weight of a face (area a, unit normal n, center cen) seen from point c: its area for
// shell, else the volume (cen - c) . n a / 3 of the pyramid (c, face), unsigned for legacy
static double faceWeight(int mode, double a, const double n[3], const double cen[3],
                         const double c[3]) {
  if (mode == mjMESH_INERTIA_SHELL) return a;
  double d[3];
  mju_sub3(d, cen, c);
  double w = mju_dot3(d, n) * a / 3;
  return mode == mjMESH_INERTIA_LEGACY ? fabs(w) : w;
}

// center of mass of the faces: c = the area-weighted mean of the centers of the mesh's own
// faces cface (for convex too), then the mean of the pyramid centers cen 3/4 + c/4 of the faces
// weighted by their weights seen from c (for shell the weights are areas and the mean is c
// again, in other bits: MuJoCo's)
static void centerOfMass(const double* vert, const int* face, int nface, const int* cface,
                         int ncface, int mode, double com[3]) {
  const double* v[3];
  double c[3] = {0, 0, 0}, area = 0, total = 0, n[3], cen[3];
  for (int f = 0; f < ncface; f++) {
    faceVerts(vert, cface, f, v);
    double a = triangle(v, n, cen);
    for (int k = 0; k < 3; k++) c[k] += a * cen[k];
    area += a;
  }
  for (int k = 0; k < 3; k++) c[k] /= area;
  mju_zero3(com);
  for (int f = 0; f < nface; f++) {
    faceVerts(vert, face, f, v);
    double w = faceWeight(mode, triangle(v, n, cen), n, cen, c);
    for (int k = 0; k < 3; k++) com[k] += w * (cen[k] * 3 / 4 + c[k] / 4);
    total += w;
  }
  for (int k = 0; k < 3; k++) com[k] /= total;
}

// volume (area for shell) and the inertia about com per unit density, full (xx yy zz xy xz
// yz), from the vertices d_j = v_j - com: each face's weight w (seen from com) gives the second
// moments P_ab += w/20 (2 sum_j d_ja d_jb + sum_(i != j) d_ia d_jb) (w/12 for shell);
// I = trace(P) E - P
static double inertiaFull(const double* vert, const int* face, int nface, int mode,
                          const double com[3], double full[6]) {
  static const int pa[6] = {0, 1, 2, 0, 0, 1}, pb[6] = {0, 1, 2, 1, 2, 2};
  static const double zero[3] = {0, 0, 0};
  double p[6] = {0, 0, 0, 0, 0, 0}, total = 0;
  for (int f = 0; f < nface; f++) {
    const double* v[3];
    double d[3][3], n[3], cen[3];
    for (int j = 0; j < 3; j++) {
      mju_sub3(d[j], vert + 3 * face[3 * f + j], com);
      v[j] = d[j];
    }
    double w = faceWeight(mode, triangle(v, n, cen), n, cen, zero);
    total += w;
    double s = w / (mode == mjMESH_INERTIA_SHELL ? 12 : 20);
    const double *x = d[0], *y = d[1], *z = d[2];
    for (int k = 0; k < 6; k++) {
      int a = pa[k], b = pb[k];
      p[k] += s * (2 * (x[a] * x[b] + y[a] * y[b] + z[a] * z[b]) + x[a] * y[b] + x[b] * y[a] +
                   x[a] * z[b] + x[b] * z[a] + y[a] * z[b] + y[b] * z[a]);
    }
  }
  full[0] = p[1] + p[2], full[1] = p[0] + p[2], full[2] = p[0] + p[1];
  full[3] = -p[3], full[4] = -p[4], full[5] = -p[5];
  return total;
}

// ---- compile -----------------------------------------------------------------------------------

// float copy of n doubles (NULL only when out of memory)
static float* toFloat(const double* x, int n) {
  float* r = zalloc(n, sizeof(float));
  if (r)
    for (int i = 0; i < n; i++) r[i] = (float)x[i];
  return r;
}

int mj_meshCompile(const mjMeshSpec* spec, mjMesh* out, char* err, int errsz) {
  const char* name = spec->file ? spec->file : "inline mesh";
  mjMeshData d = {0};
  double* vert = NULL;
  float* normal = NULL;
  int* hullface = NULL;
  memset(out, 0, sizeof *out);

  // read and check
  int rc = spec->file ? mj_meshReadFile(spec->file, spec->contenttype, &d, err, errsz)
                      : copyInline(spec, &d) && mj_ioError(err, errsz, "%s: out of memory", name);
  if (!rc) rc = checkData(name, &d, err, errsz);
  if (rc) goto done;

  // vertices in double, normals in float (as MuJoCo keeps them)
  int nv = d.nvert;
  vert = zalloc(3 * (size_t)nv, sizeof(double));
  normal = zalloc(3 * (size_t)(d.nnormal ? d.nnormal : nv), sizeof(float));
  if (!vert || !normal) { rc = mj_ioError(err, errsz, "%s: out of memory", name); goto done; }
  for (int i = 0; i < 3 * nv; i++) vert[i] = d.vert[i];
  if (d.nnormal) memcpy(normal, d.normal, 3 * sizeof(float) * d.nnormal);

  // convex hull graph; its faces when the mesh has none
  rc = makeGraph(name, vert, nv, spec->maxhullvert, &out->graph, &out->ngraph, err, errsz);
  if (rc) goto done;
  if (mj_meshPolygons(vert, nv, out->graph, out)) {
    rc = mj_ioError(err, errsz, "%s: out of memory for the hull polygons", name);
    goto done;
  }
  int ngv = out->graph[0], ngf = out->graph[1];
  hullface = out->graph + 2 + 3 * ngv + 3 * ngf;
  int nf = d.nface ? d.nface : ngf;
  const int* face = d.nface ? d.face : hullface;

  // normals when none are given
  int nn = d.nnormal;
  if (!nn) {
    if (makeNormals(vert, nv, face, nf, spec->smoothnormal, normal)) {
      rc = mj_ioError(err, errsz, "%s: out of memory", name);
      goto done;
    }
    nn = nv;
  }
  // a mirroring scale turns a file's faces around, (a, b, c) -> (a, c, b), after the normals
  // were made from their own winding (MuJoCo's order); inline faces stay
  if (spec->file && spec->scale[0] * spec->scale[1] * spec->scale[2] < 0)
    for (int f = 0; f < d.nface; f++) {
      int* ids[3] = {d.face, d.facenormal, d.facetexcoord};
      for (int k = 0; k < 3; k++)
        if (ids[k]) {
          int t = ids[k][3 * f + 1];
          ids[k][3 * f + 1] = ids[k][3 * f + 2];
          ids[k][3 * f + 2] = t;
        }
    }

  transform(spec, vert, nv, normal, nn);

  // mass properties: convex inertia uses the hull's faces (but the mesh's own for the centroid)
  int mode = spec->inertia;
  if (mode == mjMESH_INERTIA_EXACT && (rc = checkOrientation(name, face, nf, err, errsz)))
    goto done;
  const int* mface = mode == mjMESH_INERTIA_CONVEX ? hullface : face;
  int mnf = mode == mjMESH_INERTIA_CONVEX ? ngf : nf;
  double com[3], full[6], mat[9], eigvec[9];
  centerOfMass(vert, mface, mnf, face, nf, mode, com);
  out->volume = inertiaFull(vert, mface, mnf, mode, com, full);
  if (!(out->volume >= mjMINVAL)) {  // NaN too: no area at all
    rc = mj_ioError(err, errsz,
                    mode == mjMESH_INERTIA_SHELL
                        ? "%s: mesh surface area is too small"
                        : "%s: mesh volume is too small. Try setting inertia to shell",
                    name);
    goto done;
  }
  mat[0] = full[0], mat[4] = full[1], mat[8] = full[2];
  mat[1] = mat[3] = full[3], mat[2] = mat[6] = full[4], mat[5] = mat[7] = full[5];
  mju_eig3Coarse(out->inertia, eigvec, out->quat, mat);
  mju_copy3(out->pos, com);

  // frame change: v' = R' (v - pos), n' = R' n (in double, rounded to float), R' formed as
  // MuJoCo's compiler does, from the conjugate quaternion (the polygon normals below see its
  // last bits)
  double conj[4] = {out->quat[0], -out->quat[1], -out->quat[2], -out->quat[3]}, rt[9];
  mju_quat2Mat(rt, conj);
  for (int i = 0; i < nv; i++) {
    double t[3];
    mju_sub3(t, vert + 3 * i, com);
    mju_mulMatVec3(vert + 3 * i, rt, t);
  }
  for (int i = 0; i < nn; i++) {
    float* n = normal + 3 * i;
    double t[3] = {n[0], n[1], n[2]}, r[3];
    mju_mulMatVec3(r, rt, t);
    for (int k = 0; k < 3; k++) n[k] = (float)r[k];
  }
  mj_meshPolygonNormals(vert, out);

  // outputs
  out->nvert = nv, out->nnormal = nn, out->nface = nf, out->ntexcoord = d.ntexcoord;
  out->vert = toFloat(vert, 3 * nv);
  out->normal = normal;
  normal = NULL;
  out->face = zalloc(3 * (size_t)nf, sizeof(int));
  out->facenormal = zalloc(3 * (size_t)nf, sizeof(int));
  out->facetexcoord = zalloc(3 * (size_t)nf, sizeof(int));
  out->texcoord = zalloc(2 * (size_t)d.ntexcoord, sizeof(float));
  if (!out->vert || !out->normal || !out->face || !out->facenormal || !out->facetexcoord ||
      !out->texcoord) {
    rc = mj_ioError(err, errsz, "%s: out of memory", name);
    goto done;
  }
  memcpy(out->face, face, 3 * sizeof(int) * nf);
  // normals without their own indices: (nnormal / nvert) per vertex, MuJoCo's integer ratio
  // (1 for made normals; 3 for the tangent frames of a builtin wedge)
  for (int i = 0; i < 3 * nf; i++)
    out->facenormal[i] = d.facenormal ? d.facenormal[i] : nn / nv * face[i];
  // texcoords without their own indices are per vertex
  if (d.ntexcoord)
    memcpy(out->facetexcoord, d.facetexcoord ? d.facetexcoord : face, 3 * sizeof(int) * nf);
  if (d.ntexcoord) memcpy(out->texcoord, d.texcoord, 2 * sizeof(float) * d.ntexcoord);

  // bounding box of the vertices (in double, before rounding to float): center, half sizes
  double lo[3], hi[3];
  for (int k = 0; k < 3; k++) lo[k] = hi[k] = vert[k];
  for (int i = 0; i < nv; i++)
    for (int k = 0; k < 3; k++) {
      lo[k] = fmin(lo[k], vert[3 * i + k]);
      hi[k] = fmax(hi[k], vert[3 * i + k]);
    }
  for (int k = 0; k < 3; k++) {
    out->aabb[k] = (lo[k] + hi[k]) / 2;
    out->aabb[3 + k] = (hi[k] - lo[k]) / 2;
  }

done:
  free(vert), free(normal);
  mj_meshDataFree(&d);
  if (rc) mj_meshFree(out);
  return rc;
}

void mj_meshFree(mjMesh* mesh) {
  free(mesh->vert), free(mesh->normal), free(mesh->texcoord), free(mesh->face);
  free(mesh->facenormal), free(mesh->facetexcoord), free(mesh->graph);
  free(mesh->polyvertnum), free(mesh->polyvert), free(mesh->polynormal);
  free(mesh->polymapnum), free(mesh->polymap);
  memset(mesh, 0, sizeof *mesh);
}
