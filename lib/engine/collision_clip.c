// collision_clip.c: several contacts of a box, mesh or cylinder pair from one GJK/EPA query, as
// MuJoCo 3.14's multiccd finds them under nativeccd (its default).  EPA ends on a triangle of the
// Minkowski difference whose three vertices are pairs of support points; the distinct support
// points of each geom there are its feature (one: a vertex, two: an edge, three: a face; a
// cylinder's support points are told apart by their cap only, and its edge is always its
// side line through the first one, measured on the oracle).  The candidate faces of each
// feature (a box's by its corner bits, a mesh's by its hull polygons, mesh_polymap; a
// cylinder's: the cap holding all its support points, none when they are on both caps; the
// cap clips and is clipped as a regular 16-gon with corners at angles 2 pi i / 16 of its
// frame, measured on the oracle: cylinders lying on box faces give those corners, and with
// this cap the random poses of convex_native.xml and mesh_pairs.xml agree; a whole cap on a
// face leaves a regular polygon whose quadrilateral (below) MuJoCo picks among near-equal
// areas by rounding we do not reproduce: about half such poses pick other corners), are
// compared:
//   - a face of g1 and a face of g2 facing each other (normals' dot < -0.996): face on face,
//     whichever way the faces turn (measured on the oracle: TALOS's thin leg meshes, EPA on
//     two edges whose four faces all look away from the other mesh, MuJoCo clips two of them);
//   - else, when one feature is an edge or a vertex (g1's when its dimension is below 3 and
//     not above g2's, else g2's when below 3), an edge of it (a vertex's edges: to the previous
//     vertex of each polygon through it, or a box corner's three; a cylinder's side line) nearly
//     parallel to a face of the other (|dot| < 0.0888) turned toward it (outward normal n with
//     n'(x1 - x2) >= 0 on g1, n'(x2 - x1) >= 0 on g2, x1 and x2 EPA's witness points; measured
//     on the oracle: where a thin part lets EPA end on an edge or a vertex of one mesh against
//     faces of the other that look away from it, MuJoCo keeps EPA's contact): edge on face;
//   - else the single EPA contact stands.
// The edge or face of one geom is then clipped by the face of the other (Sutherland-Hodgman
// against the planes through its edges along its normal n, a point inside when its offset is
// above -mjMINVAL); clipped points above the clipping face's plane are dropped.  Each point v
// left gives the witness pair (v - |d| dir, v) with depth d = (v - f0)'n along the clipping
// face's normal (f0 its first corner) and dir the other geom's face normal (face on face) or
// -n (edge on face).  A polygon of more than four points is cut to four by MuJoCo's search for
// a large quadrilateral from every first corner (mjc_polygonQuad), when the pair allows fewer
// than five contacts; an edge clipped to more than two points keeps its two farthest apart.
// An edge of g1 clipped to nothing leaves EPA's contact turned around (its witness points
// swapped, as MuJoCo swaps g1's clipped witness pairs back whether or not clipping gave any:
// same dist and pos, the opposite normal; measured on the oracle for cylinder-box pairs).
// Each contact records how it moves with the geoms (mjContact's clip and clipvec, for the
// derivatives): Sutherland-Hodgman tells every point the two lines it lies on (the polygon's
// edges in and out of it, each an edge of the clipped polygon or a side plane of the clipping
// face), so that it is a corner of the clipped face or edge, that edge cut by a side plane, or
// a corner line of the clipping face (along its normal) cut by the clipped face's plane.
#include <math.h>

#include "engine/collision.h"
#include "util/util.h"

#define FACE_TOL 0.996   // faces facing each other: normals' dot below -FACE_TOL
#define EDGE_TOL 0.0888  // an edge along a face: |dot| of its direction and the normal below
#define CAPN 16          // corners of the polygon standing for a cylinder's cap
#define CLIPMAX 256      // most vertices of a face or faces at a vertex handled (else one contact)

// one geom of the pair: a box or a cylinder (size) or a mesh (vertices and hull polygons), at
// (pos, mat)
typedef struct {
  int type;
  const mjtNum *size, *pos, *mat;
  const float* vert;                                     // mesh vertices in the geom frame
  const mjtNum* polynormal;                              // the mesh's polygons ...
  const int *polyvertadr, *polyvertnum, *polyvert;
  int npoly;
  const int *mapadr, *mapnum, *map;                      // ... and the polygons at each vertex
} Shape;

// geom g of the pair at (pos, mat)
static Shape shapeOf(const mjModel* m, int g, const mjtNum* pos, const mjtNum* mat) {
  Shape s = {m->geom_type[g], m->geom_size + 3 * g, pos, mat, NULL, NULL, NULL, NULL, NULL, 0,
             NULL, NULL, NULL};
  if (s.type != mjGEOM_MESH) return s;
  int mesh = m->geom_dataid[g], va = m->mesh_vertadr[mesh], pa = m->mesh_polyadr[mesh];
  Shape h = {s.type, s.size, pos, mat, m->mesh_vert + 3 * va, m->mesh_polynormal + 3 * pa,
             m->mesh_polyvertadr + pa, m->mesh_polyvertnum + pa, m->mesh_polyvert,
             m->mesh_polynum[mesh], m->mesh_polymapadr + va, m->mesh_polymapnum + va,
             m->mesh_polymap};
  return h;
}

// world point of s at local (x, y, z): mat l + pos
static void worldPoint(const Shape* s, mjtNum x, mjtNum y, mjtNum z, mjtNum res[3]) {
  mjtNum l[3] = {x, y, z};
  mju_mulMatVec3(res, s->mat, l);
  mju_addTo3(res, s->pos);
}

// world direction of s along local (x, y, z): mat l
static void worldDir(const Shape* s, mjtNum x, mjtNum y, mjtNum z, mjtNum res[3]) {
  mjtNum l[3] = {x, y, z};
  mju_mulMatVec3(res, s->mat, l);
}

// ---- features ----------------------------------------------------------------------------------

// the dimension of a feature from the support ids of EPA's three vertices (1 a vertex, 2 an
// edge, 3 a face); an edge's two distinct points are moved to the front of v
static int featureDim(int id[3], mjtNum v[9]) {
  if (id[0] == id[1]) {
    if (id[0] == id[2]) return 1;
    id[1] = id[2];
    mju_copy3(v + 3, v + 6);
    return 2;
  }
  return id[2] == id[0] || id[2] == id[1] ? 2 : 3;
}

// a cylinder's feature below a face (support points on one cap: a rim point; on both: an edge) as
// its side line from the first point v to the other cap: v + 3 = v -+ 2 h z (z its axis)
static void cylinderSide(const Shape* s, mjtNum v[9]) {
  mjtNum r[3], l[3], z[3];
  mju_sub3(r, v, s->pos);
  mju_mulMatTVec3(l, s->mat, r);
  worldDir(s, 0, 0, l[2] > 0 ? -2 * s->size[1] : 2 * s->size[1], z);
  mju_add3(v + 3, v, z);
}

// the box face whose normal is within FACE_TOL of the unit-scaled direction dir: its world
// normal n and index (2 axis + 1 for the negative side); 0 when none
static int boxFaceNear(const Shape* s, const mjtNum dir[3], mjtNum n[3], int* face) {
  mjtNum l[3];
  mju_mulMatTVec3(l, s->mat, dir);
  mju_scl3(l, l, 1 / sqrt(mju_dot3(l, l)));
  for (int f = 0; f < 6; f++) {
    mjtNum sign = f % 2 ? -1 : 1;
    if (sign * l[f / 2] > FACE_TOL) {
      mjtNum u[3] = {0, 0, 0};
      u[f / 2] = sign;
      worldDir(s, u[0], u[1], u[2], n);
      *face = f;
      return 1;
    }
  }
  return 0;
}

// the faces of a box containing the feature of corners id (corner bit k set: +size along
// axis k): their world normals n and indices; a feature that is no face or edge of the box
// takes the face near dir (boxFaceNear)
static int boxFaces(const Shape* s, int dim, const int id[3], const mjtNum dir[3], mjtNum* n,
                    int* face) {
  if (dim == 1) {
    for (int k = 0; k < 3; k++) {
      mjtNum u[3] = {0, 0, 0};
      u[k] = id[0] >> k & 1 ? 1 : -1;
      worldDir(s, u[0], u[1], u[2], n + 3 * k);
      face[k] = 2 * k + (u[k] < 0);
    }
    return 3;
  }

  // the axes along which every corner of the feature is on the same side
  int c = 0, side[3];
  for (int k = 0; k < 3; k++) {
    int all = 1, none = 1;
    for (int i = 0; i < dim; i++) {
      if (id[i] >> k & 1) none = 0;
      else all = 0;
    }
    side[k] = all - none;
  }
  if (dim == 3) {
    worldDir(s, side[0], side[1], side[2], n);
    for (int k = 0; k < 3; k++)
      if (side[k]) face[c++] = 2 * k + (side[k] < 0);
    return c == 1 ? 1 : boxFaceNear(s, dir, n, face);
  }
  for (int k = 0; k < 3; k++) {
    if (!side[k]) continue;
    mjtNum u[3] = {0, 0, 0};
    u[k] = side[k];
    worldDir(s, u[0], u[1], u[2], n + 3 * c);
    face[c++] = 2 * k + (side[k] < 0);
  }
  return c == 2 ? 2 : boxFaceNear(s, dir, n, face);
}

// up to two polygons (of mesh vertex lists a, b) in both, in a's order; their count
static int commonPolygons(const int* a, int na, const int* b, int nb, int out[2]) {
  int count = 0;
  for (int i = 0; i < na; i++)
    for (int j = 0; j < nb; j++)
      if (a[i] == b[j]) {
        out[count++] = a[i];
        if (count == 2) return 2;
      }
  return count;
}

// the polygons of a mesh containing the feature of vertices id: their world normals n and
// indices (a face: the first polygon through its three vertices; an edge: those through both
// ends; a vertex: all through it); 0 when none or more than CLIPMAX
static int meshFaces(const Shape* s, int dim, const int id[3], mjtNum* n, int* face) {
  const int* list[3] = {NULL, NULL, NULL};
  int num[3] = {0, 0, 0};
  for (int i = 0; i < dim; i++) {
    list[i] = s->map + s->mapadr[id[i]];
    num[i] = s->mapnum[id[i]];
  }
  int count = num[0];
  if (dim == 1) {
    if (count > CLIPMAX) return 0;
    for (int i = 0; i < count; i++) face[i] = list[0][i];
  } else {
    count = commonPolygons(list[0], num[0], list[1], num[1], face);
    if (dim == 3 && count) count = commonPolygons(face, count, list[2], num[2], face) ? 1 : 0;
  }
  for (int i = 0; i < count; i++) {
    const mjtNum* p = s->polynormal + 3 * face[i];
    worldDir(s, p[0], p[1], p[2], n + 3 * i);
  }
  return count;
}

// the edges of a feature of dimension dim < 3 (points v, first support id id0): an edge's own
// direction (a cylinder's side line), or each edge leaving a vertex (a box corner's three, a
// mesh vertex's edge to the previous vertex of each polygon through it): unit directions e and
// far ends; their count
static int featureEdges(const Shape* s, int dim, const mjtNum v[9], int id0, mjtNum* e,
                        mjtNum* end) {
  int count = 0;
  if (dim == 2 || s->type == mjGEOM_CYLINDER) {
    mju_copy3(end, v + 3);
    count = 1;
  } else if (s->type == mjGEOM_BOX) {
    mjtNum c[3];
    for (int k = 0; k < 3; k++) c[k] = id0 >> k & 1 ? s->size[k] : -s->size[k];
    for (int k = 0; k < 3; k++) {
      mjtNum f[3] = {c[0], c[1], c[2]};
      f[k] = -f[k];
      worldPoint(s, f[0], f[1], f[2], end + 3 * k);
    }
    count = 3;
  } else {
    count = s->mapnum[id0];
    if (count > CLIPMAX) return 0;
    for (int i = 0; i < count; i++) {
      int p = s->map[s->mapadr[id0] + i], adr = s->polyvertadr[p], nv = s->polyvertnum[p];
      for (int j = 0; j < nv; j++) {
        if (s->polyvert[adr + j] != id0) continue;
        const float* w = s->vert + 3 * s->polyvert[adr + (j ? j - 1 : nv - 1)];
        worldPoint(s, w[0], w[1], w[2], end + 3 * i);
        break;
      }
    }
  }
  for (int i = 0; i < count; i++) {
    mju_sub3(e + 3 * i, end + 3 * i, v);
    mju_normalize3(e + 3 * i);
  }
  return count;
}

// the corners of face f of s in world coordinates (a box's four in MuJoCo's order, a mesh
// polygon's vertices in reverse order, a cylinder cap's CAPN: f 1 the top one; all clockwise
// seen from outside); their count, 0 when more than CLIPMAX
static int faceCorners(const Shape* s, int f, mjtNum* out) {
  if (s->type == mjGEOM_BOX) {
    // signs of the corners of each face, face by face
    static const signed char corner[6][4][3] = {
        {{1, 1, 1}, {1, 1, -1}, {1, -1, -1}, {1, -1, 1}},
        {{-1, 1, -1}, {-1, 1, 1}, {-1, -1, 1}, {-1, -1, -1}},
        {{-1, 1, -1}, {1, 1, -1}, {1, 1, 1}, {-1, 1, 1}},
        {{-1, -1, 1}, {1, -1, 1}, {1, -1, -1}, {-1, -1, -1}},
        {{-1, 1, 1}, {1, 1, 1}, {1, -1, 1}, {-1, -1, 1}},
        {{1, 1, -1}, {-1, 1, -1}, {-1, -1, -1}, {1, -1, -1}}};
    for (int i = 0; i < 4; i++) {
      const signed char* c = corner[f][i];
      worldPoint(s, c[0] * s->size[0], c[1] * s->size[1], c[2] * s->size[2], out + 3 * i);
    }
    return 4;
  }
  if (s->type == mjGEOM_CYLINDER) {
    // corner i at angle a = +-2 pi i / CAPN on cap z = +-h (minus on the top cap)
    for (int i = 0; i < CAPN; i++) {
      mjtNum a = (f ? -2 : 2) * mjPI * i / CAPN;
      worldPoint(s, s->size[0] * cos(a), s->size[0] * sin(a), f ? s->size[1] : -s->size[1],
                 out + 3 * i);
    }
    return CAPN;
  }
  int adr = s->polyvertadr[f], nv = s->polyvertnum[f];
  if (nv > CLIPMAX) return 0;
  for (int i = 0; i < nv; i++) {
    const float* w = s->vert + 3 * s->polyvert[adr + nv - 1 - i];
    worldPoint(s, w[0], w[1], w[2], out + 3 * i);
  }
  return nv;
}

// ---- clipping ----------------------------------------------------------------------------------

// the area of quadrilateral (a, b, c, d), its diagonals' cross product: |(c - a) x (d - b)| / 2
static mjtNum quadArea(const mjtNum* a, const mjtNum* b, const mjtNum* c, const mjtNum* d) {
  mjtNum ac[3], bd[3], x[3];
  mju_sub3(ac, c, a);
  mju_sub3(bd, d, b);
  mju_cross(x, ac, bd);
  return 0.5 * mju_norm3(x);
}

void mjc_polygonQuad(const mjtNum* p, int n, int every, int q[4]) {
#define P(i) (p + 3 * (i))
#define NEXT(i) ((i) + 1 == n ? 0 : (i) + 1)
  int b = 1, c = 2, d = 3;
  mjtNum best = quadArea(P(0), P(1), P(2), P(3)), t;
  q[0] = 0, q[1] = 1, q[2] = 2, q[3] = 3;
  for (int a = 0; a < (every ? n : 1); a++) {
    // advance d while the area grows, after each advance c and then b as far as they grow it
    while ((t = quadArea(P(a), P(b), P(c), P(NEXT(d)))) > best) {
      best = t, d = NEXT(d);
      while ((t = quadArea(P(a), P(b), P(NEXT(c)), P(d))) > best) best = t, c = NEXT(c);
      while ((t = quadArea(P(a), P(NEXT(b)), P(c), P(d))) > best) best = t, b = NEXT(b);
      q[0] = a, q[1] = b, q[2] = c, q[3] = d;
    }

    // b come round to a moves one on, pushing c and then d off it
    if (b == a) {
      b = NEXT(b);
      if (c == b) {
        c = NEXT(c);
        if (d == c) d = NEXT(d);
      }
    }
  }
#undef P
#undef NEXT
}

// the witness pair of clipped point v: w1 = v - |d| dir, w2 = v; returns d = (v - f0)'n
static mjtNum witness(const mjtNum v[3], const mjtNum f0[3], const mjtNum n[3],
                      const mjtNum dir[3], mjtNum w1[3], mjtNum w2[3]) {
  mjtNum r[3];
  mju_sub3(r, v, f0);
  mjtNum d = mju_dot3(r, n);
  mju_copy3(w1, v);
  mju_addToScl3(w1, dir, -fabs(d));
  mju_copy3(w2, v);
  return d;
}

// the record of how clipped point v moves (mjContact's clip[1] and clipvec) from the lines of
// the clipped polygon's edges in and out of it (lab: edge i of g >= 0, side plane e of the
// clipping face -1 - e): two of g's edges, a corner of g; one, that edge (g[i] to g[i + 1])
// cut by the plane (normal pn_e); two planes, the corner line along n cut by g's plane (normal
// gn; an edge has none: -2)
static int pointMotion(const int lab[2], const mjtNum* g, int ng, const mjtNum* pn,
                       const mjtNum n[3], const mjtNum* gn, mjtNum vec[9]) {
  mju_zero(vec, 9);
  mju_copy3(vec, n);
  if (lab[0] >= 0 && lab[1] >= 0) return 0;
  if (lab[0] < 0 && lab[1] < 0) {
    if (!gn) return -2;
    mju_copy3(vec + 3, n);
    mju_copy3(vec + 6, gn);
    return 2;
  }
  int i = lab[0] >= 0 ? lab[0] : lab[1], e = -1 - (lab[0] < 0 ? lab[0] : lab[1]);
  mju_sub3(vec + 3, g + 3 * (i + 1 < ng ? i + 1 : 0), g + 3 * i);
  mju_normalize3(vec + 3);
  mju_copy3(vec + 6, pn + 3 * e);
  return 1;
}

// clip polygon (or edge) g (ng points, plane normal gn; NULL for an edge) by face f (nf >= 3
// corners, unit normal n), witness pairs (w1, w2), depths and motion records (clip: 2 per
// point, the second set to pointMotion's line; vec: 9 per point) of the points left below
// f's plane (see the top); their count
static int clipFace(const mjtNum* f, int nf, const mjtNum* g, int ng, const mjtNum* gn,
                    const mjtNum n[3], const mjtNum dir[3], int maxcon, mjtNum* w1, mjtNum* w2,
                    mjtNum* depth, int* clip, mjtNum* vec) {
  if (nf < 3) return 0;
  mjtNum buf[2][3 * 2 * CLIPMAX], pn[3 * CLIPMAX], pd[CLIPMAX];
  int labbuf[2][2 * 2 * CLIPMAX];

  // the planes through f's edges along n: unit normal pn = e x ((f_i + n) - f_i), offset pd
  for (int i = 0; i < nf; i++) {
    const mjtNum *a = f + 3 * i, *b = f + 3 * (i + 1 < nf ? i + 1 : 0);
    mjtNum up[3], e[3], side[3];
    mju_add3(up, a, n);
    mju_sub3(e, b, a);
    mju_sub3(side, up, a);
    mju_cross(pn + 3 * i, e, side);
    mju_normalize3(pn + 3 * i);
    pd[i] = mju_dot3(pn + 3 * i, a);
  }

  // Sutherland-Hodgman, one edge plane at a time; each point carries the lines of its edges
  // in and out (lab: g's edge i >= 0, f's plane e -1 - e), a crossing those of the edge it
  // cuts and of the plane
  mjtNum *poly = buf[0], *out = buf[1];
  int *lab = labbuf[0], *olab = labbuf[1];
  int np = ng;
  mju_copy(poly, g, 3 * ng);
  for (int i = 0; i < ng; i++) lab[2 * i] = i ? i - 1 : ng - 1, lab[2 * i + 1] = i;
  for (int e = 0; e < nf; e++) {
    int nout = 0;
    const mjtNum *a = f + 3 * e, *u = pn + 3 * e;
    for (int i = 0; i < np; i++) {
      if (nout + 2 > 2 * CLIPMAX) return 0;  // (rounding made the polygon grow past room)
      int j = i + 1 < np ? i + 1 : 0, edge = lab[2 * i + 1];
      const mjtNum *p = poly + 3 * i, *q = poly + 3 * j;
      mjtNum pq[3], rp[3], rq[3];
      mju_sub3(pq, q, p);
      mju_sub3(rp, p, a);
      mju_sub3(rq, q, a);
      int in1 = mju_dot3(rp, u) > -mjMINVAL, in2 = mju_dot3(rq, u) > -mjMINVAL;
      if (!in1 && !in2) continue;
      if (in1 && in2) {
        olab[2 * nout] = lab[2 * j], olab[2 * nout + 1] = lab[2 * j + 1];
        mju_copy3(out + 3 * nout++, q);
        continue;
      }
      // the crossing point, then q when it is inside
      mjtNum den = mju_dot3(u, pq);
      if (den != 0) {
        mjtNum t = (pd[e] - mju_dot3(u, p)) / den;
        if (t >= 0 && t <= 1) {
          olab[2 * nout] = in1 ? edge : -1 - e, olab[2 * nout + 1] = in1 ? -1 - e : edge;
          mju_copy3(out + 3 * nout, p);
          mju_addToScl3(out + 3 * nout++, pq, t);
        }
      }
      if (in2) {
        olab[2 * nout] = lab[2 * j], olab[2 * nout + 1] = lab[2 * j + 1];
        mju_copy3(out + 3 * nout++, q);
      }
    }
    mjtNum* swap = poly;
    poly = out, out = swap;
    int* lswap = lab;
    lab = olab, olab = lswap;
    np = nout;
  }

  // the points below f's plane
  int nin = 0;
  for (int i = 0; i < np; i++) {
    mjtNum r[3];
    mju_sub3(r, poly + 3 * i, f);
    if (mju_dot3(r, n) > 0) continue;
    lab[2 * nin] = lab[2 * i], lab[2 * nin + 1] = lab[2 * i + 1];
    mju_copy3(poly + 3 * nin++, poly + 3 * i);
  }
  if (nin < 1) return 0;

  // which of them: a quadrilateral, an edge's two ends, or all (at most mjMAXCONPAIR)
  int pick[mjMAXCONPAIR], npick = 0;
  if (maxcon < 5 && nin > 4) {
    mjc_polygonQuad(poly, nin, 1, pick);
    npick = 4;
  } else if (ng == 2 && nin > 2) {
    mjtNum far = 0;
    pick[0] = 0, pick[1] = 1, npick = 2;
    for (int i = 0; i < nin; i++)
      for (int j = i + 1; j < nin; j++) {
        mjtNum r[3];
        mju_sub3(r, poly + 3 * j, poly + 3 * i);
        if (mju_dot3(r, r) > far) far = mju_dot3(r, r), pick[0] = i, pick[1] = j;
      }
  } else {
    npick = nin < mjMAXCONPAIR ? nin : mjMAXCONPAIR;
    for (int i = 0; i < npick; i++) pick[i] = i;
  }
  for (int i = 0; i < npick; i++) {
    depth[i] = witness(poly + 3 * pick[i], f, n, dir, w1 + 3 * i, w2 + 3 * i);
    clip[2 * i + 1] = pointMotion(lab + 2 * pick[i], g, ng, pn, n, gn, vec + 9 * i);
  }
  return npick;
}

// ---- the contacts ------------------------------------------------------------------------------

// first (i, j) with n1_i'n2_j < -FACE_TOL; 0 when none
static int facingFaces(const mjtNum* n1, int k1, const mjtNum* n2, int k2, int res[2]) {
  for (int i = 0; i < k1; i++)
    for (int j = 0; j < k2; j++)
      if (mju_dot3(n1 + 3 * i, n2 + 3 * j) < -FACE_TOL) {
        res[0] = i, res[1] = j;
        return 1;
      }
  return 0;
}

// first face j (outer) and edge i (inner) with |e_i'n_j| < EDGE_TOL as res = (i, j); 0 when none
static int edgeAlongFace(const mjtNum* e, int ke, const mjtNum* n, int kn, int res[2]) {
  for (int j = 0; j < kn; j++)
    for (int i = 0; i < ke; i++)
      if (fabs(mju_dot3(e + 3 * i, n + 3 * j)) < EDGE_TOL) {
        res[0] = i, res[1] = j;
        return 1;
      }
  return 0;
}

// the faces of a feature in their order: a box's, a mesh's, or a cylinder's cap (its normal
// +-z, face 1 the top one) when all its support points are on it
static int featureFaces(const Shape* s, int dim, const int id[3], const mjtNum dir[3],
                        mjtNum* n, int* face) {
  if (s->type != mjGEOM_CYLINDER)
    return s->type == mjGEOM_BOX ? boxFaces(s, dim, id, dir, n, face)
                                 : meshFaces(s, dim, id, n, face);
  if (dim != 1) return 0;
  worldDir(s, 0, 0, id[0] ? 1 : -1, n);
  face[0] = id[0];
  return 1;
}

// the faces (normals n, indices face, count k) kept in their order when turned toward the
// other geom (n'dir >= 0, dir the geom's outward direction at the touch); their count
static int towardFaces(mjtNum* n, int* face, int k, const mjtNum dir[3]) {
  int count = 0;
  for (int i = 0; i < k; i++) {
    if (mju_dot3(n + 3 * i, dir) < 0) continue;
    mju_copy3(n + 3 * count, n + 3 * i);
    face[count++] = face[i];
  }
  return count;
}

int mjc_clipContacts(const mjModel* m, const mjGeomPair* gp, const int id[2][3],
                     const mjtNum pts[2][9], const mjtNum x1[3], const mjtNum x2[3], int maxcon,
                     mjtNum* w1, mjtNum* w2, mjtNum* depth, int* clip, mjtNum* clipvec) {
  Shape s[2];
  int ids[2][3], dim[2], nn[2], face[2][CLIPMAX], pair[2];
  mjtNum v[2][9], dir[2][3];
  mjtNum n[2][3 * CLIPMAX], end[3 * CLIPMAX], f1[3 * CLIPMAX], f2[3 * CLIPMAX];
  for (int i = 0; i < 2; i++) {
    s[i] = shapeOf(m, gp->g[i], gp->pos[i], gp->mat[i]);
    if (s[i].type == mjGEOM_MESH && !s[i].npoly) return 0;
    for (int k = 0; k < 3; k++) ids[i][k] = id[i][k];
    mju_copy(v[i], pts[i], 9);
    dim[i] = featureDim(ids[i], v[i]);
    if (s[i].type == mjGEOM_CYLINDER) cylinderSide(s + i, v[i]);
  }
  // each geom's outward direction at the touch: g1's toward g2, g2's back
  mju_sub3(dir[0], x1, x2);
  mju_sub3(dir[1], x2, x1);
  for (int i = 0; i < 2; i++) nn[i] = featureFaces(s + i, dim[i], ids[i], dir[i], n[i], face[i]);

  // face on face (any two facing each other), else an edge of the lower feature along a face
  // of the other turned toward it
  int edge = -1;
  if (!facingFaces(n[0], nn[0], n[1], nn[1], pair)) {
    if (dim[0] < 3 && dim[0] <= dim[1]) edge = 0;
    else if (dim[1] < 3) edge = 1;
    else return 0;
    int ne = featureEdges(s + edge, dim[edge], v[edge], ids[edge][0], n[edge], end);
    nn[1 - edge] = towardFaces(n[1 - edge], face[1 - edge], nn[1 - edge], dir[1 - edge]);
    if (!edgeAlongFace(n[edge], ne, n[1 - edge], nn[1 - edge], pair)) return 0;
  }
  int i = pair[0], j = pair[1], count;

  // face on face: g2's face clipped by g1's, witnesses moved along g2's normal
  if (edge < 0) {
    int k1 = faceCorners(s, face[0][i], f1), k2 = faceCorners(s + 1, face[1][j], f2);
    if (!k1 || !k2) return 0;
    count = clipFace(f1, k1, f2, k2, n[1] + 3 * j, n[0] + 3 * i, n[1] + 3 * j, maxcon, w1, w2,
                     depth, clip, clipvec);
  }

  // edge on face: the edge (its start, the chosen end) clipped by the other's face, witnesses
  // moved against that face's normal; g1's edge swaps the witness pairs back, and clipped to
  // nothing swaps EPA's (-1)
  else {
    int other = 1 - edge, k = faceCorners(s + other, face[other][j], f1);
    if (!k) return 0;
    mju_copy3(f2, v[edge]);
    mju_copy3(f2 + 3, end + 3 * i);
    mjtNum back[3];
    mju_scl3(back, n[other] + 3 * j, -1);
    count = clipFace(f1, k, f2, 2, NULL, n[other] + 3 * j, back, maxcon, edge ? w1 : w2,
                     edge ? w2 : w1, depth, clip, clipvec);
    if (!edge && !count) return -1;
  }

  // the records' faces; a cylinder's side line moves with EPA's rim point, not with the geom
  for (int k = 0; k < count; k++) {
    clip[2 * k] = edge < 0 ? 1 : edge ? 2 : 3;
    if (edge >= 0 && s[edge].type == mjGEOM_CYLINDER) clip[2 * k + 1] = -1;
  }
  return count;
}
