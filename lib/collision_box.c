// collision_box.c: pairs with a box: sphere-box, capsule-box and box-box (see collision.h for
// the conventions).
#include "collision.h"

#include <math.h>

#include "util.h"

// the sphere (center c, radius r) against the box (center bc, rotation bmat, half-sizes s):
// outside, the nearest box point q, normal (q - c)/|q - c| from the sphere to the box; inside,
// the face of least penetration (the first of equals; on the mid-plane, the - face), normal its
// outward axis reversed
static int sphereBox(mjContact* con, mjtNum margin, const mjtNum c[3], mjtNum r,
                     const mjtNum bc[3], const mjtNum bmat[9], const mjtNum s[3]) {
  mjtNum dif[3], p[3], q[3], n[3];
  mju_sub3(dif, c, bc);
  mju_mulMatTVec3(p, bmat, dif);

  // clamp to the box; a center within mjMINVAL of the surface counts as inside
  mjtNum nl[3];
  for (int k = 0; k < 3; k++) q[k] = p[k] < -s[k] ? -s[k] : p[k] > s[k] ? s[k] : p[k];
  mju_sub3(nl, q, p);
  mjtNum dist, len = mju_norm3(nl);
  if (len >= mjMINVAL) {
    mju_scl3(nl, nl, 1 / len);
    dist = len - r;
    if (dist > margin) return 0;
    mju_mulMatVec3(n, bmat, nl);
  } else {
    // the axis with the smallest s - |p|
    int k = 0;
    mjtNum best = s[0] - fabs(p[0]);
    for (int j = 1; j < 3; j++) {
      if (s[j] - fabs(p[j]) < best) {
        best = s[j] - fabs(p[j]);
        k = j;
      }
    }
    dist = -best - r;
    mju_zero3(nl);
    nl[k] = p[k] > 0 ? -1 : 1;
    mju_mulMatVec3(n, bmat, nl);
  }

  // pos = c + n (r + dist/2)
  con->dist = dist;
  mju_copy3(con->pos, c);
  mju_addToScl3(con->pos, n, r + 0.5 * dist);
  mju_copy3(con->frame, n);
  mju_zero3(con->frame + 3);
  return 1;
}

// sphere g1, box g2
int mjc_SphereBox(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                  mjtNum margin) {
  return sphereBox(con, margin, d->geom_xpos + 3 * g1, m->geom_size[3 * g1],
                   d->geom_xpos + 3 * g2, d->geom_xmat + 9 * g2, m->geom_size + 3 * g2);
}

// ---- capsule-box ------------------------------------------------------------------------------

// the capsule segment in the box frame: center p, half axis ha (t in [-1, 1] gives p + t ha)
// and half-sizes s; the feature of the box nearest to it, found among the segment ends (over a
// face, or inside) and the twelve edges (interior point, or one of its corners)
enum { capFACE, capINSIDE, capEDGE, capCORNER };
typedef struct {
  mjtNum p[3], ha[3], aa;  // segment; aa = ha'ha
  const mjtNum* s;
  int type, k;             // nearest feature and its axis (face normal, edge direction)
  mjtNum g[3];             // its signs: -1, 0 (along the feature) or +1 per axis
  mjtNum t, dist;          // segment parameter of the nearest point, distance found
} CapBox;

// keep a candidate when nearer than the best so far by more than round-off: near-ties keep the
// earlier candidate (segment ends before edges), as MuJoCo does
static void capKeep(CapBox* c, int type, int k, const mjtNum g[3], mjtNum t, mjtNum dist) {
  if (c->type >= 0 && dist >= c->dist - 1e-12) return;
  c->type = type;
  c->k = k;
  mju_copy3(c->g, g);
  c->t = t;
  c->dist = dist;
}

// the segment ends t = -1, +1: inside the box (distance -1, beating any outside feature), or
// over face k (|e_a| <= s_a, |e_b| <= s_b) at distance |e_k| - s_k
static void capEnds(CapBox* c) {
  const mjtNum* s = c->s;
  for (int i = 0; i < 2; i++) {
    mjtNum t = i ? 1 : -1, e[3], g[3] = {0, 0, 0};
    mju_copy3(e, c->p);
    mju_addToScl3(e, c->ha, t);
    if (fabs(e[0]) <= s[0] && fabs(e[1]) <= s[1] && fabs(e[2]) <= s[2]) {
      capKeep(c, capINSIDE, 0, g, t, -1);
      continue;
    }
    for (int k = 0; k < 3; k++) {
      int a = (k + 1) % 3, b = (k + 2) % 3;
      if (fabs(e[a]) <= s[a] && fabs(e[b]) <= s[b]) {
        g[k] = e[k] > 0 ? 1 : -1;
        capKeep(c, capFACE, k, g, t, fabs(e[k]) - s[k]);
        g[k] = 0;
      }
    }
  }
}

// the edge along axis k with signs g (center q = g.*s, half direction v = s_k e_k) against the
// segment: the closest points of the two lines, u = (B E - C D)/det, w = (A E - B D)/det with
// A = ha'ha, B = ha'v, C = v'v, D = ha'(p - q), E = v'(p - q), det = A C - B^2.  When w leaves
// [-1, 1] (or the lines are parallel: w = sign E) the corner q + sign(w) v is nearest, the
// segment point its clamped projection; when only u leaves, the segment end and its clamped
// projection on the edge
static void capEdge(CapBox* c, int k, const mjtNum g[3]) {
  const mjtNum* s = c->s;
  mjtNum q[3] = {g[0] * s[0], g[1] * s[1], g[2] * s[2]}, w[3], pt[3];
  mju_sub3(w, c->p, q);
  mjtNum A = c->aa, B = c->ha[k] * s[k], C = s[k] * s[k], D = mju_dot3(c->ha, w), E = s[k] * w[k];
  mjtNum det = A * C - B * B, u = 0, e;
  int corner = 0;
  if (det <= 1e-15 * A * C) {
    e = E > 0 ? 1 : -1;
    corner = 1;
  } else {
    u = (B * E - C * D) / det;
    e = (A * E - B * D) / det;
    if (fabs(e) > 1) {
      e = e > 0 ? 1 : -1;
      corner = 1;
    }
  }

  // clamp: the corner projected on the segment (none when the segment is a point), or the
  // segment end projected on the edge
  if (corner) {
    q[k] += e * s[k];
    mju_sub3(pt, q, c->p);
    u = A > 0 ? mju_dot3(pt, c->ha) / A : 0;
    u = u < -1 ? -1 : u > 1 ? 1 : u;
  } else {
    if (fabs(u) > 1) {
      u = u > 0 ? 1 : -1;
      e = (w[k] + u * c->ha[k]) / s[k];
      e = e < -1 ? -1 : e > 1 ? 1 : e;
    }
    q[k] += e * s[k];
  }
  mju_copy3(pt, c->p);
  mju_addToScl3(pt, c->ha, u);
  mjtNum gc[3] = {g[0], g[1], g[2]};
  gc[k] = corner ? e : 0;
  capKeep(c, corner ? capCORNER : capEDGE, k, gc, u, mju_dist3(pt, q));
}

// the first crossing, going from t1 toward tt (direction dir), of the planes x_j = +-s_j along
// the segment; tt when there is none
static mjtNum capCross(const CapBox* c, int j, mjtNum t1, mjtNum tt, mjtNum dir) {
  if (c->ha[j] == 0) return tt;
  for (int i = -1; i <= 1; i += 2) {
    mjtNum tc = (i * c->s[j] - c->p[j]) / c->ha[j];
    if ((tc - t1) * dir > 0 && (tc - tt) * dir < 0) tt = tc;
  }
  return tt;
}

// the segment parameter of the second contact sphere, or 0 with none (returns 1 with one):
//   end over face k: where the segment, from that end, leaves the face's rectangle (or its
//     other end);
//   edge k: the adjacent face f the segment is most parallel to (least |ha_f|, the first of
//     equals), the other adjacent axis m; the segment moved by the face's width 2 s_m toward
//     the opposite edge, none when that moves it toward face f's plane, stopped at the segment
//     end and where it passes the edge's end planes x_k = +-s_k;
//   corner: the axis j the segment is most aligned with; the segment moved by 2 s_j along it
//     into the box, stopped at the segment end;
//   end inside the box: none
static int capSecond(const CapBox* c, mjtNum* t2) {
  const mjtNum *ha = c->ha, *s = c->s, t1 = c->t;
  int k = c->k, a = (k + 1) % 3, b = (k + 2) % 3;
  mjtNum tt, dir;
  switch (c->type) {
  case capFACE:
    dir = -t1;
    *t2 = capCross(c, b, t1, capCross(c, a, t1, -t1, dir), dir);
    return 1;
  case capEDGE: {
    int f = fabs(ha[a]) <= fabs(ha[b]) ? a : b, m = a + b - f;
    if (ha[m] == 0) return 0;
    mjtNum dt = -2 * c->g[m] * s[m] / ha[m];
    dir = dt > 0 ? 1 : -1;
    if (ha[f] * dir * c->g[f] < 0) return 0;
    tt = t1 + dt;
    if (tt * dir > 1) tt = dir;
    *t2 = capCross(c, k, t1, tt, dir);
    return 1;
  }
  case capCORNER: {
    int j = 0;
    for (int i = 1; i < 3; i++)
      if (fabs(ha[i]) > fabs(ha[j])) j = i;
    dir = ha[j] * c->g[j] > 0 ? -1 : 1;
    tt = t1 + dir * 2 * s[j] / fabs(ha[j]);
    *t2 = tt > 1 ? 1 : tt < -1 ? -1 : tt;
    return 1;
  }
  default:
    return 0;
  }
}

// capsule g1, box g2: contact spheres (the capsule radius) at up to two points of the segment,
// each colliding with the box as sphere-box; the first at the point nearest to the box's
// nearest feature, the second by capSecond
int mjc_CapsuleBox(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                   mjtNum margin) {
  const mjtNum *cpos = d->geom_xpos + 3 * g1, *cmat = d->geom_xmat + 9 * g1;
  const mjtNum *bpos = d->geom_xpos + 3 * g2, *bmat = d->geom_xmat + 9 * g2;
  mjtNum r = m->geom_size[3 * g1], len = m->geom_size[3 * g1 + 1];

  // the segment in the box frame: p = R'(c - b), ha = R' z len
  CapBox c = {.s = m->geom_size + 3 * g2, .type = -1};
  mjtNum dif[3], axis[3] = {cmat[2], cmat[5], cmat[8]};
  mju_sub3(dif, cpos, bpos);
  mju_mulMatTVec3(c.p, bmat, dif);
  mju_mulMatTVec3(c.ha, bmat, axis);
  mju_scl3(c.ha, c.ha, len);
  c.aa = mju_dot3(c.ha, c.ha);

  // the nearest feature: segment ends, then the edges along x, y, z with signs (-,-) ... (+,+)
  capEnds(&c);
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < 4; i++) {
      mjtNum g[3] = {0, 0, 0};
      g[(k + 1) % 3] = i & 2 ? 1 : -1;
      g[(k + 2) % 3] = i & 1 ? 1 : -1;
      capEdge(&c, k, g);
    }

  // the contact spheres: world center cpos + z len t
  mjtNum ts[2] = {c.t, 0}, ctr[3];
  int nt = 1 + capSecond(&c, ts + 1), ncon = 0;
  for (int i = 0; i < nt; i++) {
    mju_copy3(ctr, cpos);
    mju_addToScl3(ctr, axis, len * ts[i]);
    ncon += sphereBox(con + ncon, margin, ctr, r, bpos, bmat, c.s);
  }
  return ncon;
}

// ---- box-box ----------------------------------------------------------------------------------

// a box: center, axes (the columns of its rotation), half-sizes
typedef struct {
  const mjtNum* c;
  mjtNum ax[3][3];
  const mjtNum* s;
} Box;

// the box of geom g
static void geomBox(const mjModel* m, const mjData* d, int g, Box* b) {
  const mjtNum* mat = d->geom_xmat + 9 * g;
  b->c = d->geom_xpos + 3 * g;
  b->s = m->geom_size + 3 * g;
  for (int k = 0; k < 3; k++)
    for (int r = 0; r < 3; r++) b->ax[k][r] = mat[3 * r + k];
}

// the half-extent of box b along the unit axis L: sum_k s_k |ax_k'L|
static mjtNum extent(const Box* b, const mjtNum L[3]) {
  return b->s[0] * fabs(mju_dot3(b->ax[0], L)) + b->s[1] * fabs(mju_dot3(b->ax[1], L)) +
         b->s[2] * fabs(mju_dot3(b->ax[2], L));
}

// the axis of box b most aligned with n (the first of equals)
static int alignedAxis(const Box* b, const mjtNum n[3]) {
  int best = 0;
  for (int k = 1; k < 3; k++)
    if (fabs(mju_dot3(b->ax[k], n)) > fabs(mju_dot3(b->ax[best], n))) best = k;
  return best;
}

// the clipping of box B's face most opposed to the normal n (unit, from A to B) against box
// A's face most aligned with it, viewed along n
typedef struct {
  mjtNum n[3], out[3];   // normal from A to B; the normal written (from geom1 to geom2)
  mjtNum rc[3], na[3];   // reference face: center, outward normal
  mjtNum ra[3], rb[3];   // its axes, and the half-sizes along them
  mjtNum la, lb, flip;   // flip: the sign of the first axis in the vertex order
  mjtNum fc[3], nb[3];   // incident face: center, outward normal
  mjtNum iu[3], iv[3];   // its axes, each signed to have u'n >= 0
  mjtNum lu, lv;
  mjtNum vert[4][3];     // its vertices fc +- lu iu +- lv iv, the first axis fastest
  mjtNum margin;
} Clip;

// a point p of B's face in the reference frame: l = (x, y) along the reference axes after
// moving along n onto the reference plane, and the depth -t, t = (p - rc)'na / n'na
static void clipLocal(const Clip* c, const mjtNum p[3], mjtNum l[3]) {
  mjtNum r[3];
  mju_sub3(r, p, c->rc);
  mjtNum t = mju_dot3(r, c->na) / mju_dot3(c->n, c->na);
  mju_addToScl3(r, c->n, -t);
  l[0] = mju_dot3(r, c->ra);
  l[1] = mju_dot3(r, c->rb);
  l[2] = -t;
}

// one contact at depth `depth` below point p of B's face when -depth < margin, at p + n
// depth/2 (midway along n to the reference plane); returns 0 or 1
static int clipContact(const Clip* c, mjContact* con, const mjtNum p[3], mjtNum depth) {
  if (-depth > c->margin) return 0;
  con->dist = -depth;
  mju_copy3(con->pos, p);
  mju_addToScl3(con->pos, c->n, 0.5 * depth);
  mju_copy3(con->frame, c->out);
  mju_zero3(con->frame + 3);
  return 1;
}

// the contacts of the clipping in MuJoCo's order: the crossings of B's face edges (vertex
// pairs 01, 02, 13, 23) with the reference sides (-a, +a, -b, +b), the depth interpolated;
// the reference vertices whose projection along n lies in B's face; B's vertices whose
// projection lies in the reference face
static int clipFaces(const Clip* c, mjContact* con) {
  static const int edges[4][2] = {{0, 1}, {0, 2}, {1, 3}, {2, 3}};
  const mjtNum lim[2] = {c->la, c->lb};
  int ncon = 0;

  // edge crossings: t = (+-lim - l0)/(l1 - l0) along the edge, the other coordinate inside
  for (int e = 0; e < 4; e++) {
    const mjtNum* p0 = c->vert[edges[e][0]];
    const mjtNum* p1 = c->vert[edges[e][1]];
    mjtNum l0[3], l1[3];
    clipLocal(c, p0, l0);
    clipLocal(c, p1, l1);
    for (int k = 0; k < 4; k++) {
      int ax = k / 2, other = 1 - ax;
      mjtNum den = l1[ax] - l0[ax];
      if (fabs(den) < 1e-15) continue;
      mjtNum t = ((k % 2 ? 1 : -1) * lim[ax] - l0[ax]) / den;
      if (t < 0 || t > 1 || fabs(l0[other] + t * (l1[other] - l0[other])) > lim[other])
        continue;
      mjtNum p[3];
      mju_sub3(p, p1, p0);
      mju_scl3(p, p, t);
      mju_addTo3(p, p0);
      ncon += clipContact(c, con + ncon, p, l0[2] + t * (l1[2] - l0[2]));
    }
  }

  // reference vertices r moved by t n onto B's face plane, t = -(r - fc)'nb / n'nb; the
  // contact is the incident point r + t n at depth -t
  for (int k = 0; k < 4; k++) {
    mjtNum r[3], q[3];
    mju_copy3(r, c->rc);
    mju_addToScl3(r, c->ra, (k & 1 ? 1 : -1) * c->flip * c->la);
    mju_addToScl3(r, c->rb, (k & 2 ? 1 : -1) * c->lb);
    mju_sub3(q, r, c->fc);
    mjtNum t = -mju_dot3(q, c->nb) / mju_dot3(c->n, c->nb);
    mju_addToScl3(q, c->n, t);
    if (fabs(mju_dot3(q, c->iu)) > c->lu || fabs(mju_dot3(q, c->iv)) > c->lv) continue;
    mju_addToScl3(r, c->n, t);
    ncon += clipContact(c, con + ncon, r, -t);
  }

  // B's vertices inside the reference rectangle
  for (int k = 0; k < 4; k++) {
    mjtNum l[3];
    clipLocal(c, c->vert[k], l);
    if (fabs(l[0]) <= c->la && fabs(l[1]) <= c->lb)
      ncon += clipContact(c, con + ncon, c->vert[k], l[2]);
  }
  return ncon;
}

// the clipping of box B against box A along n (unit, from A to B), writing the normal out
static int clipBoxes(mjContact* con, mjtNum margin, const Box* A, const Box* B,
                     const mjtNum n[3], const mjtNum out[3]) {
  Clip c;
  mju_copy3(c.n, n);
  mju_copy3(c.out, out);
  c.margin = margin;

  // reference face: A's axis i most aligned with n, on n's side
  int i = alignedAxis(A, n), a = (i + 1) % 3, b = (i + 2) % 3;
  c.flip = mju_dot3(A->ax[i], n) < 0 ? -1 : 1;
  mju_scl3(c.na, A->ax[i], c.flip);
  mju_copy3(c.rc, A->c);
  mju_addToScl3(c.rc, c.na, A->s[i]);
  mju_copy3(c.ra, A->ax[a]);
  mju_copy3(c.rb, A->ax[b]);
  c.la = A->s[a];
  c.lb = A->s[b];

  // incident face: B's axis j most aligned with n, on the side facing A
  int j = alignedAxis(B, n), u = (j + 1) % 3, v = (j + 2) % 3;
  mjtNum sj = mju_dot3(B->ax[j], n) < 0 ? -1 : 1;
  mju_scl3(c.nb, B->ax[j], -sj);
  mju_copy3(c.fc, B->c);
  mju_addToScl3(c.fc, c.nb, B->s[j]);
  mju_scl3(c.iu, B->ax[u], mju_dot3(B->ax[u], n) < 0 ? -1 : 1);
  mju_scl3(c.iv, B->ax[v], mju_dot3(B->ax[v], n) < 0 ? -1 : 1);
  c.lu = B->s[u];
  c.lv = B->s[v];
  for (int k = 0; k < 4; k++) {
    mju_copy3(c.vert[k], c.fc);
    mju_addToScl3(c.vert[k], c.iu, (k & 1 ? 1 : -1) * c.lu);
    mju_addToScl3(c.vert[k], c.iv, (k & 2 ? 1 : -1) * c.lv);
  }
  return clipFaces(&c, con);
}

// box g1, box g2 by separating axes: the 3 + 3 face axes and the 9 edge cross products, each
// with penetration e1 + e2 - |(c2 - c1)'L|; the least penetrating axis (the first of equals)
// gives the normal.  A face axis clips the other box's face against that face (the reference);
// an edge axis clips box 2 against box 1's face most aligned with the normal
int mjc_BoxBox(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
               mjtNum margin) {
  Box b1, b2;
  geomBox(m, d, g1, &b1);
  geomBox(m, d, g2, &b2);
  mjtNum dif[3], best[3] = {0, 0, 0}, bestpen = 0;
  mju_sub3(dif, b2.c, b1.c);
  int bestk = -1;
  for (int k = 0; k < 15; k++) {
    mjtNum L[3];
    if (k < 3) mju_copy3(L, b1.ax[k]);
    else if (k < 6) mju_copy3(L, b2.ax[k - 3]);
    else {
      mju_cross(L, b1.ax[(k - 6) / 3], b2.ax[(k - 6) % 3]);
      mjtNum len = mju_norm3(L);
      if (len < 1e-12) continue;
      mju_scl3(L, L, 1 / len);
    }
    mjtNum proj = mju_dot3(dif, L);
    mjtNum pen = extent(&b1, L) + extent(&b2, L) - fabs(proj);
    if (bestk < 0 || pen < bestpen) {
      bestk = k;
      bestpen = pen;
      mju_scl3(best, L, proj < 0 ? -1 : 1);
    }
  }
  if (bestpen < -margin) return 0;

  // box 2's face as reference: clip box 1 along -n, the written normal n
  if (bestk >= 3 && bestk < 6) {
    mjtNum rev[3];
    mju_scl3(rev, best, -1);
    return clipBoxes(con, margin, &b2, &b1, rev, best);
  }
  return clipBoxes(con, margin, &b1, &b2, best, best);
}
