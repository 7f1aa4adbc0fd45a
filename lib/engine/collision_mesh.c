// collision_mesh.c: mesh geoms in collision.  A mesh collides as its convex hull, known through
// its support function, as MuJoCo 3.14's: hill climbing on the hull graph (mesh_graph, see
// mesh.h) for a hull of at least 10 vertices, from the better of where the pair's previous climb
// ended and a seed by the direction's cell (mesh_extrema), else a scan of every vertex from the
// previous answer; ties keep the vertex met first.
// collision_convex.c (libccd) and collision_gjk.c (GJK/EPA) call it for every convex pair with
// a mesh; the plane-mesh pair is here.
#include "engine/collision.h"

#include <float.h>
#include <math.h>

#include "util/util.h"

#define mjMESHCLIMBMIN 10  // fewest mesh vertices for hill climbing (MuJoCo's rule)
#define CLIPMAXPOLY 256    // most vertices of a hull polygon under a plane (else one contact)

// the vertices of a mesh, its hull graph (NULL: none) and its climb seeds
typedef struct {
  const float* vert;  // (nvert x 3) in the geom frame
  int nvert;
  const int* graph;   // numvert, numface, vert_edgeadr, vert_globalid, edge_localid, ...
  const int* seed;    // (27) mesh_extrema: the hull vertex farthest along each cell's direction
} Hull;

// the hull of mesh geom g
static Hull geomHull(const mjModel* m, int g) {
  int mesh = m->geom_dataid[g], adr = m->mesh_graphadr[mesh];
  Hull h = {m->mesh_vert + 3 * m->mesh_vertadr[mesh], m->mesh_vertnum[mesh],
            adr < 0 ? NULL : m->mesh_graph + adr, m->mesh_extrema + 27 * mesh};
  return h;
}

// 1 when the mesh is climbed (a graph and at least mjMESHCLIMBMIN vertices), else scanned
static int climbs(const Hull* h) { return h->graph && h->nvert >= mjMESHCLIMBMIN; }

// v'dir for mesh vertex v
static mjtNum vertDot(const Hull* h, int v, const mjtNum dir[3]) {
  const float* p = h->vert + 3 * v;
  return p[0] * dir[0] + p[1] * dir[1] + p[2] * dir[2];
}

// the neighbours of hull vertex i (local ids, ending with -1)
static const int* neighbours(const Hull* h, int i) {
  int n = h->graph[0];
  return h->graph + 2 + 2 * n + h->graph[2 + i];
}

// the hull vertex (local id) farthest along dir: from hull vertex start, move to the best
// neighbour that is strictly better until none is
static int climb(const Hull* h, const mjtNum dir[3], int start) {
  const int* global = h->graph + 2 + h->graph[0];
  int cur = start, prev;
  mjtNum best = vertDot(h, global[cur], dir);
  do {
    prev = cur;
    for (const int* e = neighbours(h, prev); *e >= 0; e++) {
      mjtNum x = vertDot(h, global[*e], dir);
      if (x > best) {
        best = x;
        cur = *e;
      }
    }
  } while (cur != prev);
  return cur;
}

// the mesh vertex farthest along dir (the geom frame), as MuJoCo's support: a climbed hull
// starts from the seed of dir's cell in the 3x3x3 grid of directions (a component beyond
// +-0.4 counts as +-1) or, unless the seed is strictly better, from the previous answer *warm
// (a hull vertex); a scanned mesh goes through every vertex, the previous answer *warm (a mesh
// vertex) first, a later one replacing the best only when strictly better.  *warm (-1: none;
// NULL: no memory) takes the answer
static int farthest(const Hull* h, const mjtNum dir[3], int* warm) {
  int last = warm ? *warm : -1;
  if (climbs(h)) {
    const int* global = h->graph + 2 + h->graph[0];
    int cx = (dir[0] > 0.4) - (dir[0] < -0.4) + 1, cy = (dir[1] > 0.4) - (dir[1] < -0.4) + 1;
    int cz = (dir[2] > 0.4) - (dir[2] < -0.4) + 1, seed = h->seed[9 * cx + 3 * cy + cz];
    if (last < 0 || vertDot(h, global[seed], dir) > vertDot(h, global[last], dir)) last = seed;
    int top = climb(h, dir, last);
    if (warm) *warm = top;
    return global[top];
  }
  int ibest = last < 0 ? 0 : last;
  mjtNum best = last < 0 ? -FLT_MAX : vertDot(h, last, dir);
  for (int v = 0; v < h->nvert; v++) {
    mjtNum x = vertDot(h, v, dir);
    if (x > best) {
      best = x;
      ibest = v;
    }
  }
  if (warm) *warm = ibest;
  return ibest;
}

// mesh vertex v in double precision
static void vertex(const Hull* h, int v, mjtNum res[3]) {
  for (int k = 0; k < 3; k++) res[k] = h->vert[3 * v + k];
}

// the support point of mesh geom g in its own frame in the direction dir (any length); returns
// its vertex id
int mjc_meshSupport(const mjModel* m, int g, const mjtNum dir[3], int* warm, mjtNum res[3]) {
  Hull h = geomHull(m, g);
  int v = farthest(&h, dir, warm);
  vertex(&h, v, res);
  return v;
}

// the hull vertices of mesh geom g (all its vertices without a graph) whose support v'l (l a
// unit direction in its frame) is within tol of the largest: their count, the first two in v
// (its frame): one a vertex, two an edge, more a face of the hull with outward normal l
int mjc_meshSupportSet(const mjModel* m, int g, const mjtNum l[3], mjtNum tol, mjtNum v[6]) {
  Hull h = geomHull(m, g);
  int n = h.graph ? h.graph[0] : h.nvert, count = 0;
  const int* global = h.graph ? h.graph + 2 + n : NULL;
  mjtNum top = -INFINITY;
  for (int i = 0; i < n; i++) top = fmax(top, vertDot(&h, global ? global[i] : i, l));
  for (int i = 0; i < n; i++) {
    int id = global ? global[i] : i;
    if (vertDot(&h, id, l) < top - tol) continue;
    if (count < 2) vertex(&h, id, v + 3 * count);
    count++;
  }
  return count;
}

// one contact of the world point p (a vertex) against the plane (point o, unit normal n) when
// dist = (p - o)'n <= margin: pos = p - n dist/2; returns 0 or 1
static int vertexPlane(mjContact* con, mjtNum margin, const mjtNum o[3], const mjtNum n[3],
                       const mjtNum p[3]) {
  mjtNum dif[3];
  mju_sub3(dif, p, o);
  mjtNum dist = mju_dot3(dif, n);
  if (dist > margin) return 0;
  con->dist = dist;
  mju_copy3(con->pos, p);
  mju_addToScl3(con->pos, n, -0.5 * dist);
  mju_copy3(con->frame, n);
  mju_zero3(con->frame + 3);
  return 1;
}

// the contacts of the hull polygon of mesh geom g through its vertex top (the deepest) whose
// outward normal is nearest the direction dir into the plane (its frame; the first of ties),
// as MuJoCo 3.14 gives them (measured on the oracle): the polygon's vertices from top on, cut
// to the four mjc_polygonQuad picks from point 0 (in the mesh frame, where a regular
// polygon's ties resolve as MuJoCo's) when more than four, in that order, keeping top and the
// others within the margin and below the geom's center; 0 when top is on no polygon
static int planePolygon(const mjModel* m, const mjData* d, mjContact* con, int g, int top,
                        const mjtNum dir[3], const mjtNum o[3], const mjtNum n[3],
                        mjtNum margin) {
  int mesh = m->geom_dataid[g], va = m->mesh_vertadr[mesh], pa = m->mesh_polyadr[mesh];
  const int* through = m->mesh_polymap + m->mesh_polymapadr[va + top];
  int poly = -1;
  mjtNum best = -INFINITY;
  for (int i = 0; i < m->mesh_polymapnum[va + top]; i++) {
    mjtNum a = mju_dot3(m->mesh_polynormal + 3 * (pa + through[i]), dir);
    if (a > best) best = a, poly = pa + through[i];
  }
  if (poly < 0) return 0;

  // its vertices from top on (mesh frame)
  const int* pv = m->mesh_polyvert + m->mesh_polyvertadr[poly];
  int nv = m->mesh_polyvertnum[poly], first = 0;
  if (nv > CLIPMAXPOLY) return 0;
  while (first < nv - 1 && pv[first] != top) first++;
  mjtNum loc[3 * CLIPMAXPOLY];
  for (int k = 0; k < nv; k++) {
    const float* v = m->mesh_vert + 3 * (va + pv[(first + k) % nv]);
    for (int j = 0; j < 3; j++) loc[3 * k + j] = v[j];
  }

  // all, or four of them
  int pick[CLIPMAXPOLY], npick = nv > 4 ? 4 : nv;
  for (int i = 0; i < nv; i++) pick[i] = i;
  if (nv > 4) mjc_polygonQuad(loc, nv, 0, pick);

  // those kept, p = pos + R l: top, and the others below the center (l'dir > 0) that are
  // within the margin (vertexPlane)
  int ncon = 0;
  for (int i = 0; i < npick; i++) {
    const mjtNum* l = loc + 3 * pick[i];
    if (pick[i] && mju_dot3(l, dir) <= 0) continue;
    mjtNum p[3];
    mju_mulMatVec3(p, d->geom_xmat + 9 * g, l);
    mju_addTo3(p, d->geom_xpos + 3 * g);
    ncon += vertexPlane(con + ncon, margin, o, n, p);
  }
  return ncon;
}

// the plane against the mesh's hull, as MuJoCo 3.14 does (measured on the oracle): the vertex
// deepest below the plane (the support point along -n, n the plane's z axis, from no previous
// answer) when within the margin, then the vertices of its hull polygon facing the plane
// (planePolygon); a mesh without polygons adds, until there are 3 contacts, the vertices v with
// v'R'(-n) > n'(pos - o) - margin at least 0.3 rbound from the first contact's point: every
// vertex in order without a hull graph, the first's hull neighbours in graph order for a
// climbed one, none for a scanned mesh with a graph (fewer than mjMESHCLIMBMIN vertices)
int mjc_PlaneMesh(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                  mjtNum margin) {
  const mjtNum* o = d->geom_xpos + 3 * g1;
  const mjtNum* pos = d->geom_xpos + 3 * g2;
  const mjtNum* mat = d->geom_xmat + 9 * g2;
  const mjtNum* pm = d->geom_xmat + 9 * g1;
  Hull h = geomHull(m, g2);
  mjtNum n[3] = {pm[2], pm[5], pm[8]}, dir[3], neg[3] = {-n[0], -n[1], -n[2]};
  mju_mulMatTVec3(dir, mat, neg);

  // p = pos + R v for mesh vertex v: the deepest first
  mjtNum local[3], p[3], dif[3];
  int last = -1, top = farthest(&h, dir, &last);
  vertex(&h, top, local);
  mju_mulMatVec3(p, mat, local);
  mju_addTo3(p, pos);
  if (!vertexPlane(con, margin, o, n, p)) return 0;
  if (m->mesh_polynum[m->geom_dataid[g2]] > 0) {
    int ncon = planePolygon(m, d, con, g2, top, dir, o, n, margin);
    return ncon ? ncon : 1;
  }
  if (h.graph && !climbs(&h)) return 1;

  // the others within the margin, by MuJoCo's test, and apart from the first
  mju_sub3(dif, pos, o);
  mjtNum threshold = mju_dot3(n, dif) - margin;
  const int* global = h.graph ? h.graph + 2 + h.graph[0] : NULL;
  const int* next = h.graph ? neighbours(&h, last) : NULL;
  int ncon = 1;
  for (int i = 0; ncon < 3 && (h.graph ? next[i] >= 0 : i < h.nvert); i++) {
    int v = h.graph ? global[next[i]] : i;
    if (!(vertDot(&h, v, dir) > threshold)) continue;
    vertex(&h, v, local);
    mju_mulMatVec3(p, mat, local);
    mju_addTo3(p, pos);
    if (mju_dist3(p, con[0].pos) < 0.3 * m->geom_rbound[g2]) continue;
    ncon += vertexPlane(con + ncon, INFINITY, o, n, p);
  }
  return ncon;
}
