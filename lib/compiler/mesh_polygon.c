// mesh_polygon.c: the polygons of a mesh's convex hull, as MuJoCo 3.14 stores them
// (mesh_polyvert, mesh_polynormal, mesh_polymap): the hull's triangles merged into flat faces.
// The collision of boxes and meshes clips these faces against each other (collision_clip.c).
//
// The steps (MuJoCo's, checked field for field by t/oracle/compare.mjs):
//   1. each hull triangle (graph order, vertices as read) gets a key: the azimuth and polar
//      angle of its unit normal n = c / |c|, c = (v1 - v0) x (v2 - v0), each divided by 0.01
//      and rounded (round(atan2(ny, nx) / 0.01), round(acos(nz) / 0.01); (0, 0) or (0, 314)
//      when |nz| > 1 - 1e-7); triangles with |c| < mjMINVAL are left out.  Triangles with the
//      same key form one polygon.
//   2. a polygon is grown as a list of directed boundary edges, each tagged with an island (a
//      connected part): a new triangle (a, b, c) removes the first edge opposite to each of
//      its edges (b, a), (c, b), (a, c) that the list holds, joining the islands those edges
//      belonged to (the larger number merged into the smaller, numbers above it shifted down),
//      and appends its unmatched edges in the order (a, b), (b, c), (c, a) with its island (a
//      new one when no edge matched).
//   3. each island is traced into a vertex loop: from the first edge of the island in the list
//      (its two ends), repeatedly the first edge after position 0 of the island that starts
//      where the loop ends, until the loop closes (a loop that cannot close is dropped; a
//      polygon of exactly three edges is its one triangle).  Loops of three or more vertices
//      are the polygons.
//   4. the polygons come in the iteration order of the keys in MuJoCo's hash map: libc++'s
//      unordered_map under WebAssembly (32-bit size_t): the key's hash is h(theta) ^ h(phi)
//      with h(0) = 0 and else 32-bit murmur2 of the double's 8 bytes (seed 8); a key goes to
//      bucket hash mod count (hash & (count - 1) for a power of two); the count starts at 2,
//      and before the insertion that would exceed it becomes the least prime >= max(2 count +
//      1, size + 1); a key whose bucket is empty goes to the front of the list, else right
//      after its bucket's predecessor; a rehash walks the list, keeping runs of one bucket and
//      moving a node whose bucket is already met after that bucket's predecessor.
//   5. the normal of a polygon, after the mesh is transformed to its frame: its first three
//      vertices' unit (v1 - v0) x (v2 - v0) (in double; (1, 0, 0) when shorter than 1e-14).
//   6. the map: for each vertex, the polygons through it, polygon by polygon.
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/mesh.h"
#include "util/util.h"

#define KEYTOL 0.01  // angle quantum of the polygon keys (radians)

// one polygon while it grows: its boundary edges and the island of each
typedef struct {
  double key[2];
  uint32_t hash;
  int next;       // the following polygon in the hash map's list; -1: last
  int (*edge)[2];
  int* island;
  int nedge, cap, nisland;
} Poly;

// the hash map of polygons by key (libc++'s layout, see the top): polygons are nodes 1..n of
// the list (node 0 the head before them), bucket[b] the node before bucket b's first (-1: empty)
typedef struct {
  Poly* poly;  // poly[k - 1] is node k
  int npoly, cap;
  int* next;   // (cap + 1) list links by node, -1 ends
  int* bucket;
  int nbucket;
} PolyMap;

// 32-bit murmur2 of the 8 bytes of x (libc++'s hash of a double on a 32-bit target); 0 for +-0
static uint32_t hashDouble(double x) {
  if (x == 0) return 0;
  const uint32_t mul = 0x5bd1e995;
  unsigned char bytes[8];
  memcpy(bytes, &x, 8);
  uint32_t h = 8;
  for (int i = 0; i < 8; i += 4) {
    uint32_t k = (uint32_t)bytes[i] | (uint32_t)bytes[i + 1] << 8 | (uint32_t)bytes[i + 2] << 16 |
                 (uint32_t)bytes[i + 3] << 24;
    k *= mul;
    k ^= k >> 24;
    k *= mul;
    h = h * mul ^ k;
  }
  h ^= h >> 13;
  h *= mul;
  return h ^ h >> 15;
}

// the bucket of hash h among n buckets
static int bucketOf(uint32_t h, int n) {
  return (n & (n - 1)) == 0 ? (int)(h & (uint32_t)(n - 1)) : (int)(h % (uint32_t)n);
}

// the least prime >= n (n >= 2)
static int primeAtLeast(int n) {
  for (;; n++) {
    int prime = 1;
    for (int d = 2; (long)d * d <= n && prime; d++) prime = n % d != 0;
    if (prime) return n;
  }
}

// redistribute the list over n buckets (libc++'s rehash of unique keys); 0 ok, 1 out of memory
static int rehash(PolyMap* pm, int n) {
  int* b = malloc(sizeof(int) * n);
  if (!b) return 1;
  for (int i = 0; i < n; i++) b[i] = -1;
  free(pm->bucket);
  pm->bucket = b;
  pm->nbucket = n;
  int* next = pm->next;
  int pp = 0, cp = next[0];
  if (cp < 0) return 0;
  int phash = bucketOf(pm->poly[cp - 1].hash, n);
  b[phash] = 0;
  for (pp = cp, cp = next[cp]; cp >= 0; cp = next[pp]) {
    int h = bucketOf(pm->poly[cp - 1].hash, n);
    if (h == phash) {
      pp = cp;
    } else if (b[h] < 0) {
      b[h] = pp;
      pp = cp;
      phash = h;
    } else {
      // move cp after its bucket's predecessor
      next[pp] = next[cp];
      next[cp] = next[b[h]];
      next[b[h]] = cp;
    }
  }
  return 0;
}

// the polygon of key (theta, phi), inserted empty when new; NULL when out of memory
static Poly* findPoly(PolyMap* pm, const double key[2]) {
  uint32_t h = hashDouble(key[0]) ^ hashDouble(key[1]);
  if (pm->nbucket) {
    int pn = pm->bucket[bucketOf(h, pm->nbucket)];
    if (pn >= 0) {
      for (int k = pm->next[pn]; k >= 0; k = pm->next[k]) {
        Poly* p = pm->poly + k - 1;
        if (bucketOf(p->hash, pm->nbucket) != bucketOf(h, pm->nbucket)) break;
        if (p->key[0] == key[0] && p->key[1] == key[1]) return p;
      }
    }
  }

  // a new node, after a rehash when the load would pass 1
  if (pm->npoly == pm->cap) {
    int cap = pm->cap ? 2 * pm->cap : 16;
    Poly* poly = realloc(pm->poly, sizeof(Poly) * cap);
    if (poly) pm->poly = poly;
    int* next = realloc(pm->next, sizeof(int) * (cap + 1));
    if (next) pm->next = next;
    if (!poly || !next) return NULL;
    if (!pm->cap) pm->next[0] = -1;
    pm->cap = cap;
  }
  if (pm->npoly + 1 > pm->nbucket) {
    int grow = 2 * pm->nbucket + !(pm->nbucket > 2 && !(pm->nbucket & (pm->nbucket - 1)));
    int n = grow > pm->npoly + 1 ? grow : pm->npoly + 1;
    n = n == 1 ? 2 : (n & (n - 1)) ? primeAtLeast(n) : n;
    if (n > pm->nbucket && rehash(pm, n)) return NULL;
  }
  int node = ++pm->npoly, b = bucketOf(h, pm->nbucket);
  Poly* p = pm->poly + node - 1;
  memset(p, 0, sizeof *p);
  p->key[0] = key[0], p->key[1] = key[1], p->hash = h;
  int* next = pm->next;
  if (pm->bucket[b] < 0) {
    next[node] = next[0];
    next[0] = node;
    pm->bucket[b] = 0;
    if (next[node] >= 0) pm->bucket[bucketOf(pm->poly[next[node] - 1].hash, pm->nbucket)] = node;
  } else {
    next[node] = next[pm->bucket[b]];
    next[pm->bucket[b]] = node;
  }
  return p;
}

// the key of triangle (a, b, c): rounded azimuth and polar angle of its normal; 0 when the
// triangle has no normal
static int polyKey(const double* a, const double* b, const double* c, double key[2]) {
  double ab[3], ac[3], n[3];
  for (int k = 0; k < 3; k++) ab[k] = b[k] - a[k], ac[k] = c[k] - a[k];
  n[0] = ab[1] * ac[2] - ab[2] * ac[1];
  n[1] = ab[2] * ac[0] - ab[0] * ac[2];
  n[2] = ab[0] * ac[1] - ab[1] * ac[0];
  double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (len < mjMINVAL) return 0;
  for (int k = 0; k < 3; k++) n[k] = n[k] / len + 0.0;  // + 0.0: no negative zero
  key[0] = key[1] = 0;
  if (fabs(n[2]) > 1 - 1e-7) {
    if (n[2] < 0) key[1] = round(mjPI / KEYTOL);
    return 1;
  }
  key[0] = round(atan2(n[1], n[0]) / KEYTOL);
  key[1] = round(acos(n[2]) / KEYTOL);
  return 1;
}

// append edge (a, b) of island s to polygon p; 0 ok, 1 out of memory
static int pushEdge(Poly* p, int a, int b, int s) {
  if (p->nedge == p->cap) {
    int cap = p->cap ? 2 * p->cap : 8;
    int(*edge)[2] = realloc(p->edge, sizeof(int[2]) * cap);
    if (edge) p->edge = edge;
    int* island = realloc(p->island, sizeof(int) * cap);
    if (island) p->island = island;
    if (!edge || !island) return 1;
    p->cap = cap;
  }
  p->edge[p->nedge][0] = a, p->edge[p->nedge][1] = b;
  p->island[p->nedge++] = s;
  return 0;
}

// remove the first edge (b, a) of p, returning its island, or -1 when p has none
static int takeEdge(Poly* p, int a, int b) {
  for (int i = 0; i < p->nedge; i++) {
    if (p->edge[i][0] != b || p->edge[i][1] != a) continue;
    int s = p->island[i];
    memmove(p->edge + i, p->edge + i + 1, sizeof(int[2]) * (p->nedge - i - 1));
    memmove(p->island + i, p->island + i + 1, sizeof(int) * (p->nedge - i - 1));
    p->nedge--;
    return s;
  }
  return -1;
}

// join island t into island *s of p (the smaller number stays, those above the larger shift
// down); *s becomes the joined island
static void joinIslands(Poly* p, int* s, int t) {
  int lo = *s < t ? *s : t, hi = *s < t ? t : *s;
  for (int k = 0; k < p->nedge; k++) {
    if (p->island[k] == hi) p->island[k] = lo;
    else if (p->island[k] > hi) p->island[k]--;
  }
  p->nisland--;
  *s = lo;
}

// add triangle (a, b, c) to polygon p (step 2 at the top); 0 ok, 1 out of memory
static int addTriangle(Poly* p, int a, int b, int c) {
  if (!p->nedge && !p->nisland) {
    p->nisland = 1;
    return pushEdge(p, a, b, 0) || pushEdge(p, b, c, 0) || pushEdge(p, c, a, 0);
  }
  int v[3] = {a, b, c}, matched[3], s = -1;
  for (int e = 0; e < 3; e++) {
    int t = takeEdge(p, v[e], v[(e + 1) % 3]);
    matched[e] = t >= 0;
    if (t < 0) continue;
    if (s < 0) s = t;
    else if (t != s) joinIslands(p, &s, t);
  }
  if (s < 0) s = p->nisland++;
  for (int e = 0; e < 3; e++)
    if (!matched[e] && pushEdge(p, v[e], v[(e + 1) % 3], s)) return 1;
  return 0;
}

// trace island s of p into loop (room for nedge + 2 vertices); its length, 0 when it does not close
static int traceIsland(const Poly* p, int s, int* loop) {
  if (p->nedge == 3) {
    for (int k = 0; k < 3; k++) loop[k] = p->edge[k][0];
    return s == 0 ? 3 : 0;
  }
  int n = 0;
  for (int j = 0; j < p->nedge && !n; j++)
    if (p->island[j] == s) loop[n++] = p->edge[j][0], loop[n++] = p->edge[j][1];
  if (!n) return 0;
  for (int l = 0; l < p->nedge; l++) {
    for (int k = 1; k < p->nedge; k++) {
      if (p->island[k] != s || p->edge[k][0] != loop[n - 1]) continue;
      if (p->edge[k][1] == loop[0]) return n;
      loop[n++] = p->edge[k][1];
      break;
    }
  }
  return 0;
}

// free the map's polygons and arrays
static void freeMap(PolyMap* pm) {
  for (int i = 0; i < pm->npoly; i++) free(pm->poly[i].edge), free(pm->poly[i].island);
  free(pm->poly), free(pm->next), free(pm->bucket);
}

int mj_meshPolygons(const double* vert, int nvert, const int* graph, mjMesh* out) {
  PolyMap pm = {0};
  int nface = graph[1], rc = 1;
  const int* face = graph + 2 + 3 * graph[0] + 3 * nface;
  int* loop = NULL;

  // group the hull's triangles by key
  for (int f = 0; f < nface; f++) {
    const int* t = face + 3 * f;
    double key[2];
    if (!polyKey(vert + 3 * t[0], vert + 3 * t[1], vert + 3 * t[2], key)) continue;
    Poly* p = findPoly(&pm, key);
    if (!p || addTriangle(p, t[0], t[1], t[2])) goto done;
  }

  // trace the loops in the map's order
  int room = 0, total = 0;
  for (int i = 0; i < pm.npoly; i++) {
    room = pm.poly[i].nedge > room ? pm.poly[i].nedge : room;
    total += pm.poly[i].nedge;
  }
  loop = malloc(sizeof(int) * (room + 2));
  out->polyvertnum = malloc(sizeof(int) * (3 * nface + 1));
  out->polyvert = malloc(sizeof(int) * (total + 1));
  out->polymapnum = calloc(nvert + 1, sizeof(int));
  out->polymap = malloc(sizeof(int) * (total + 1));
  if (!loop || !out->polyvertnum || !out->polyvert || !out->polymapnum || !out->polymap)
    goto done;
  for (int k = pm.npoly ? pm.next[0] : -1; k >= 0; k = pm.next[k]) {
    const Poly* p = pm.poly + k - 1;
    for (int s = 0; s < p->nisland; s++) {
      int n = traceIsland(p, s, loop);
      if (n < 3) continue;
      memcpy(out->polyvert + out->npolyvert, loop, sizeof(int) * n);
      out->polyvertnum[out->npoly++] = n;
      out->npolyvert += n;
    }
  }

  // the vertex map: each vertex's polygons in polygon order
  for (int i = 0; i < out->npolyvert; i++) out->polymapnum[out->polyvert[i]]++;
  int* fill = calloc(nvert + 1, sizeof(int));
  if (!fill) goto done;
  for (int v = 1; v < nvert; v++) fill[v] = fill[v - 1] + out->polymapnum[v - 1];
  for (int i = 0, adr = 0; i < out->npoly; adr += out->polyvertnum[i++])
    for (int j = 0; j < out->polyvertnum[i]; j++) out->polymap[fill[out->polyvert[adr + j]]++] = i;
  free(fill);
  out->polynormal = malloc(sizeof(double) * (3 * out->npoly + 1));
  rc = !out->polynormal;

done:
  freeMap(&pm);
  free(loop);
  return rc;
}

void mj_meshPolygonNormals(const double* vert, mjMesh* out) {
  for (int i = 0, adr = 0; i < out->npoly; adr += out->polyvertnum[i++]) {
    const double* v[3];
    double ab[3], ac[3], n[3];
    for (int k = 0; k < 3; k++) v[k] = vert + 3 * out->polyvert[adr + k];
    for (int k = 0; k < 3; k++) ab[k] = v[1][k] - v[0][k], ac[k] = v[2][k] - v[0][k];
    n[0] = ab[1] * ac[2] - ab[2] * ac[1];
    n[1] = ab[2] * ac[0] - ab[0] * ac[2];
    n[2] = ab[0] * ac[1] - ab[1] * ac[0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    double* out3 = out->polynormal + 3 * i;
    if (len < 1e-14) {
      out3[0] = 1, out3[1] = out3[2] = 0;
      continue;
    }
    for (int k = 0; k < 3; k++) out3[k] = n[k] / len;
  }
}
