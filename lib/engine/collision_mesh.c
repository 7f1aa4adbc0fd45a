// collision_mesh.c: mesh geoms in collision.  A mesh collides as its convex hull, known through
// its support function: hill climbing on the hull graph (mesh_graph, see mesh.h) from where
// the pair's previous climb ended (the hull's first vertex at first), or a scan of every vertex
// when the mesh has no graph; ties keep the first vertex met, as MuJoCo 3.5.1's do.
// collision_convex.c (libccd) and collision_gjk.c (GJK/EPA) call it for every convex pair with
// a mesh; the plane-mesh pair is here.
#include "engine/collision.h"

#include <math.h>

#include "util/util.h"

// the vertices of a mesh and its hull graph (NULL: none)
typedef struct {
  const float* vert;  // (nvert x 3) in the geom frame
  int nvert;
  const int* graph;   // numvert, numface, vert_edgeadr, vert_globalid, edge_localid, ...
} Hull;

// the hull of mesh geom g
static Hull geomHull(const mjModel* m, int g) {
  int mesh = m->geom_dataid[g], adr = m->mesh_graphadr[mesh];
  Hull h = {m->mesh_vert + 3 * m->mesh_vertadr[mesh], m->mesh_vertnum[mesh],
            adr < 0 ? NULL : m->mesh_graph + adr};
  return h;
}

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

// the mesh vertex farthest along dir: the hull climb from hull vertex *warm (updated to where
// it ends; NULL: from vertex 0), else the first best of all vertices
static int farthest(const Hull* h, const mjtNum dir[3], int* warm) {
  if (h->graph) {
    int top = climb(h, dir, warm ? *warm : 0);
    if (warm) *warm = top;
    return h->graph[2 + h->graph[0] + top];
  }
  int ibest = 0;
  mjtNum best = -INFINITY;
  for (int v = 0; v < h->nvert; v++) {
    mjtNum x = vertDot(h, v, dir);
    if (x > best) {
      best = x;
      ibest = v;
    }
  }
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

// the plane against the mesh's hull, as MuJoCo 3.5.1 does (measured on the oracle): the hull
// vertex deepest below the plane (the support point along -n, n the plane's z axis) when within
// the margin, then, for a mesh with a hull graph, that vertex's neighbours in graph order that
// are within the margin and at least 0.3 rbound from the first contact's point, until there
// are 3 contacts
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
  mjtNum local[3], p[3];
  int top = 0;
  vertex(&h, farthest(&h, dir, &top), local);
  mju_mulMatVec3(p, mat, local);
  mju_addTo3(p, pos);
  if (!vertexPlane(con, margin, o, n, p)) return 0;
  if (!h.graph) return 1;

  // its neighbours on the hull
  int ncon = 1;
  const int* global = h.graph + 2 + h.graph[0];
  for (const int* e = neighbours(&h, top); *e >= 0 && ncon < 3; e++) {
    vertex(&h, global[*e], local);
    mju_mulMatVec3(p, mat, local);
    mju_addTo3(p, pos);
    if (mju_dist3(p, con[0].pos) < 0.3 * m->geom_rbound[g2]) continue;
    ncon += vertexPlane(con + ncon, margin, o, n, p);
  }
  return ncon;
}
