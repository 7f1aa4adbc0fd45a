// collision_box.c: pairs with a box: sphere-box, capsule-box and box-box (see collision.h for
// the conventions).
#include "engine/collision.h"

#include <math.h>

#include "util/util.h"

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
// MuJoCo's capsule-box, by its documented behaviour: in the box frame the capsule's segment
// p + t ha (t in [-1, 1]) against the box's features, the segment ends (over a face or inside)
// and the 12 edges; the point of the segment nearest to the nearest feature, and a second point
// along the segment chosen by that feature's kind; each a sphere of the capsule's radius against
// the box.

// the nearest feature: none, a segment end, an edge's interior, an edge's end (a box corner)
enum { capNONE, capEND, capEDGE, capCORNER };

// the segment and the nearest feature found so far
typedef struct {
  mjtNum p[3], axis[3], ha[3], hl;  // center, unit axis, half axis, half length (box frame)
  const mjtNum* s;                  // the box's half-sizes
  int dir;                          // bits k where ha_k > 0
  int type;                         // the nearest feature
  mjtNum best;                      // its squared distance
  mjtNum t, e;                      // segment and edge parameters (both in [-1, 1]) there
  int face;                         // end: the axis of the face it lies over, -1 inside
  int corner, edge;                 // edge: its corner bits (bit k: + along k) and axis
} CapBox;

// the segment ends t = -1, +1 whose clamp onto the box moves at most one coordinate (inside,
// or over a face), at the squared distance to the clamped point; strictly nearer ones win
static void capEnds(CapBox* c) {
  for (int i = -1; i <= 1; i += 2) {
    mjtNum e[3], q[3];
    int nclamp = 0, face = -1;
    mju_copy3(e, c->p);
    mju_addToScl3(e, c->ha, i);
    for (int k = 0; k < 3; k++) {
      q[k] = e[k] < -c->s[k] ? -c->s[k] : e[k] > c->s[k] ? c->s[k] : e[k];
      if (q[k] != e[k]) {
        nclamp++;
        face = k;
      }
    }
    if (nclamp > 1) continue;
    mju_sub3(q, q, e);
    mjtNum dist = mju_dot3(q, q);
    if (dist < c->best) {
      c->best = dist;
      c->type = capEND;
      c->t = i;
      c->face = face;
    }
  }
}

// the edge along axis j through the corner bits i (bit j clear): the closest points of the
// two lines, x1 on the edge q + x1 s_j e_j, x2 on the segment, from the 2x2 normal equations
// (ma = s_j^2, mb = -s_j ha_j, mc = hl^2); when x1 leaves [-1, 1] it is clamped and x2 found
// again, then when x2 leaves it, x2 is clamped and x1 found again and clamped.  The edge's end
// counts as reached when x1 was clamped at either stage.  Nearer by mjMINVAL (squared) wins
static void capEdge(CapBox* c, int j, int i) {
  const mjtNum* s = c->s;
  mjtNum q[3], dif[3];
  for (int k = 0; k < 3; k++) q[k] = (i >> k & 1 ? 1 : -1) * s[k];
  q[j] = 0;
  mju_sub3(dif, q, c->p);
  mjtNum ma = s[j] * s[j], mb = -s[j] * c->ha[j], mc = c->hl * c->hl;
  mjtNum u = -s[j] * dif[j], v = mju_dot3(c->ha, dif), det = ma * mc - mb * mb;
  if (fabs(det) < mjMINVAL) return;
  mjtNum idet = 1 / det, x1 = (mc * u - mb * v) * idet, x2 = (ma * v - mb * u) * idet;
  int end1 = 0;  // x1 clamped: -1 or +1
  if (x1 > 1 || x1 < -1) {
    end1 = x1 > 1 ? 1 : -1;
    x1 = end1;
    x2 = (v - end1 * mb) * (1 / mc);
  }
  if (x2 > 1 || x2 < -1) {
    x2 = x2 > 1 ? 1 : -1;
    x1 = (u - x2 * mb) * (1 / ma);
    if (x1 > 1 || x1 < -1) {
      end1 = x1 > 1 ? 1 : -1;
      x1 = end1;
    }
  }
  mju_addToScl3(dif, c->ha, -x2);
  dif[j] += s[j] * x1;
  mjtNum dist = mju_dot3(dif, dif);
  if (dist < c->best - mjMINVAL) {
    c->best = dist;
    c->type = end1 ? capCORNER : capEDGE;
    c->t = x2;
    c->e = x1;
    c->corner = i + (end1 > 0 ? 1 << j : 0);
    c->edge = j;
  }
}

// the parameter t2 of the second point; returns 0 when there is none.  bits = dir ^ corner
// marks the axes along which +ha points away from the feature's side.
//   end over face k: from that end toward the other, to where the segment leaves the slab
//     |x_m| <= s_m of another axis m, or the other end (none when the end is inside);
//   edge interior: of the other two axes (a1 the one ha is less along, the first of equals in
//     the order edge+1, edge+2), exactly one must be marked; move toward the side where ha
//     points away along a2, by the least of: the segment end, 2 s_a2/|ha_a2| (the face width)
//     and the distance to the edge's end along the edge;
//   box corner: none when all three or none are marked; else (flipping the segment when two
//     are) the odd axis a: along the edge (axis_a^2 > 1/2) toward the away side by the least of
//     the segment end and 2 s_a/|ha_a|, else the other way by the least of the segment end and
//     2 s_m/|ha_m| for both other axes m
static int capSecond(const CapBox* c, mjtNum* t2) {
  const mjtNum *ha = c->ha, *s = c->s, t = c->t;
  mjtNum sp, x, mul;
  if (c->type == capEND) {
    if (c->face < 0) return 0;
    mjtNum e[3];
    mul = t < 0 ? 1 : -1;
    sp = 2;
    mju_copy3(e, c->p);
    mju_addToScl3(e, ha, -mul);
    for (int k = 0; k < 3; k++) {
      if (k == c->face) continue;
      for (int sg = 1; sg >= -1; sg -= 2) {
        x = (sg * s[k] - e[k]) / ha[k] * mul;
        if (x > 0 && x < sp) sp = x;
      }
    }
    *t2 = sp * mul + t;
    return 1;
  }
  if (c->type == capEDGE) {
    int ax = c->edge, a1 = (ax + 1) % 3, a2 = (ax + 2) % 3;
    int bits = (c->dir ^ c->corner) & (7 - (1 << ax));
    if (bits != 1 && bits != 2 && bits != 4) return 0;
    if (fabs(c->axis[a1]) > fabs(c->axis[a2])) {
      a1 = a2;
      a2 = 3 - ax - a1;
    }
    int up = bits >> a2 & 1;
    mul = up ? 1 : -1;
    sp = up ? 1 - t : 1 + t;
    x = 2 * s[a2] / fabs(ha[a2]);
    if (x < sp) sp = x;
    mjtNum rest = (c->dir >> ax & 1) == up ? 1 - c->e : 1 + c->e;
    x = s[ax] * rest / fabs(ha[ax]);
    if (x < sp) sp = x;
    *t2 = sp * mul + t;
    return 1;
  }
  int bits = c->dir ^ c->corner;
  if (bits == 0 || bits == 7) return 0;
  mjtNum de = 1 - t, dp = 1 + t;
  mul = 1;
  if (bits == 3 || bits == 5 || bits == 6) {
    mul = -1;
    bits = 7 - bits;
    de = 1 + t;
    dp = 1 - t;
  }
  int a = bits == 1 ? 0 : bits == 2 ? 1 : 2;
  if (c->axis[a] * c->axis[a] > 0.5) {
    sp = de;
    x = 2 * s[a] / fabs(ha[a]);
    if (x < sp) sp = x;
    sp *= mul;
  } else {
    sp = dp;
    for (int m = 1; m <= 2; m++) {
      x = 2 * s[(a + m) % 3] / fabs(ha[(a + m) % 3]);
      if (x < sp) sp = x;
    }
    sp *= -mul;
  }
  *t2 = sp + t;
  return 1;
}

// capsule g1, box g2: contact spheres of the capsule radius at the segment point nearest to the
// box's nearest feature and at the second point of capSecond
int mjc_CapsuleBox(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                   mjtNum margin) {
  const mjtNum *cpos = d->geom_xpos + 3 * g1, *cmat = d->geom_xmat + 9 * g1;
  const mjtNum *bpos = d->geom_xpos + 3 * g2, *bmat = d->geom_xmat + 9 * g2;
  const mjtNum* s = m->geom_size + 3 * g2;
  mjtNum r = m->geom_size[3 * g1];

  // the segment in the box frame: p = R'(c - b), axis = R' z, ha = axis hl
  CapBox c = {.s = s, .hl = m->geom_size[3 * g1 + 1], .type = capNONE};
  mjtNum dif[3], z[3] = {cmat[2], cmat[5], cmat[8]};
  mju_sub3(dif, cpos, bpos);
  mju_mulMatTVec3(c.p, bmat, dif);
  mju_mulMatTVec3(c.axis, bmat, z);
  mju_scl3(c.ha, c.axis, c.hl);
  for (int k = 0; k < 3; k++)
    if (c.ha[k] > 0) c.dir |= 1 << k;
  c.best = margin + 2 * (r + c.hl + s[0] + s[1] + s[2]);

  // the nearest feature: segment ends, then the edges along x, y, z by corner bits
  capEnds(&c);
  for (int j = 0; j < 3; j++)
    for (int i = 0; i < 8; i++)
      if (!(i & 1 << j)) capEdge(&c, j, i);
  if (c.type == capNONE) return 0;

  // the contact spheres at world centers b + R (p + ha t)
  mjtNum ts[2] = {c.t, 0};
  int nt = 1 + capSecond(&c, ts + 1), ncon = 0;
  for (int i = 0; i < nt; i++) {
    mjtNum loc[3], ctr[3];
    mju_copy3(loc, c.p);
    mju_addToScl3(loc, c.ha, ts[i]);
    mju_mulMatVec3(ctr, bmat, loc);
    mju_addTo3(ctr, bpos);
    ncon += sphereBox(con + ncon, margin, ctr, r, bpos, bmat, s);
  }
  return ncon;
}

// ---- box-box ----------------------------------------------------------------------------------
// MuJoCo's box-box collider as its behaviour is documented and observed (MuJoCo 3.5.1): the
// separating axes in box 1's frame; a face axis takes the contacts from the other box's corner
// lowest under the reference face and its edges that run nearly parallel to the face; an edge
// axis clips box 2's face through the nearest edge against box 1's face most aligned with the
// normal; then contacts outside one box and not inside the other are dropped, and of two at the
// same point the first.  Reference-face coordinates: origin at the face center, z its outward
// normal.

// the frame of face f of a box (0-2 the +x, +y, +z faces, 3-5 the - faces): reference
// coordinate k is faceSign[f][k] times box coordinate facePerm[f][k]
static const int facePerm[6][3] = {{2, 1, 0}, {0, 2, 1}, {0, 1, 2},
                                   {2, 1, 0}, {0, 2, 1}, {0, 1, 2}};
static const mjtNum faceSign[6][3] = {{-1, 1, 1}, {1, -1, 1}, {1, 1, 1},
                                      {1, 1, -1}, {1, 1, -1}, {-1, 1, -1}};

// a pair of boxes and its least separating axis
typedef struct {
  const mjtNum *pos1, *mat1, *size1, *pos2, *mat2, *size2;
  mjtNum margin;
  mjtNum rot[3][3];         // rot[i][j] = a_i' b_j: box 2's axes in box 1's frame, by column
  mjtNum pos21[3], pos12[3];  // c2 - c1 in box 1's frame, c1 - c2 in box 2's frame
  mjtNum pen;               // the least penetration
  int face;                 // 0-5: that face of box 1, 6-11: face (face - 6) of box 2, -1: edge
  int e1, e2;               // edge axis: box 1's axis e1 cross box 2's axis e2
  mjtNum axis[3];           // its unit direction in box 1's frame
  int flip;                 // the normal is -axis (box 2 lies on the - side)
  int near1, near2;         // bits k: box 1's (box 2's) nearest edge lies at + along axis k
} BoxPair;

// the separating axes, face axes interleaved (box 1's i, box 2's i), then the 9 edge cross
// products a_i x b_j, each with penetration e1 + e2 - |(c2 - c1)'L|; keeps the least (an edge
// only when smaller by a relative 1e-12); returns 0 when an axis separates by more than margin
static int boxAxes(BoxPair* b) {
  b->pen = b->margin;
  for (int i = 0; i < 3; i++) b->pen += 3 * b->size1[i] + 3 * b->size2[i];
  b->face = -1;
  for (int i = 0; i < 3; i++) {
    mjtNum e2 = 0, e1 = 0;
    for (int j = 0; j < 3; j++) e2 += fabs(b->rot[i][j]) * b->size2[j];
    for (int j = 0; j < 3; j++) e1 += fabs(b->rot[j][i]) * b->size1[j];
    mjtNum c1 = -fabs(b->pos21[i]) + b->size1[i] + e2;
    mjtNum c2 = -fabs(b->pos12[i]) + b->size2[i] + e1;
    if (c1 < -b->margin || c2 < -b->margin) return 0;
    if (c1 < b->pen) {
      b->pen = c1;
      b->face = i + 3 * (b->pos21[i] < 0);
    }
    if (c2 < b->pen) {
      b->pen = c2;
      b->face = 6 + i + 3 * (b->pos12[i] < 0);
    }
  }
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      // L = e_i x b_j in box 1's frame, b_j = column j of rot
      mjtNum L[3] = {0, 0, 0};
      int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
      L[i1] = -b->rot[i2][j];
      L[i2] = b->rot[i1][j];
      mjtNum len = mju_normalize3(L);
      if (len < mjMINVAL) continue;
      mjtNum proj = mju_dot3(b->pos21, L), pen = 0;
      for (int k = 0; k < 3; k++)
        if (k != i) pen += b->size1[k] * fabs(L[k]);
      // |L'b_k| = |a_i'(b_j x b_k)| / len = |rot[i][third]| / len
      for (int k = 0; k < 3; k++)
        if (k != j) pen += b->size2[k] * fabs(b->rot[i][3 - k - j]) / len;
      pen -= fabs(proj);
      if (pen < -b->margin) return 0;
      if (pen < b->pen * (1 - 1e-12)) {
        b->pen = pen;
        b->face = -1;
        b->e1 = i;
        b->e2 = j;
        mju_copy3(b->axis, L);
        b->flip = proj < 0;
        // box 1's nearest edge: + along k where the normal points +; box 2's: + along k where
        // the normal points - (b_k'L = +-rot[i][third], + when k follows j cyclically)
        b->near1 = b->near2 = 0;
        for (int k = 0; k < 3; k++) {
          if (k != i && ((L[k] > 0) ^ b->flip)) b->near1 |= 1 << k;
          if (k != j && ((b->rot[i][3 - k - j] > 0) ^ b->flip ^ ((k - j + 3) % 3 == 1)))
            b->near2 |= 1 << k;
        }
      }
    }
  }
  return 1;
}

// res = v in face f's frame (v in the face's box's frame)
static void toFace(mjtNum res[3], const mjtNum v[3], int f) {
  for (int k = 0; k < 3; k++) res[k] = v[facePerm[f][k]] * faceSign[f][k];
}

// where the segment start + t dir, t in [0, 1], crosses the side x_q = l of the rectangle
// |x_0| <= h[0], |x_1| <= h[1] (|dir_q| > mjMINVAL): returns 1 with t and the other coordinate o
static int sideCross(const mjtNum start[3], const mjtNum dir[3], int q, mjtNum l,
                     const mjtNum h[3], mjtNum* t, mjtNum* o) {
  *t = (l - start[q]) * (1 / dir[q]);
  if (*t < 0 || *t > 1) return 0;
  *o = start[1 - q] + dir[1 - q] * *t;
  return fabs(*o) <= h[1 - q];
}

// the sides of the parallelogram p0 + u e1 + v e2 as (start, direction): p0 e1, p0 e2,
// p0+e1 e2, p0+e2 e1 (only the first with one edge); returns their count
static int parallelogram(const mjtNum p0[3], const mjtNum e1[3], const mjtNum e2[3], int nedge,
                         mjtNum start[4][3], mjtNum dir[4][3]) {
  if (nedge < 1) return 0;
  mju_copy3(start[0], p0);
  mju_copy3(dir[0], e1);
  if (nedge < 2) return 1;
  mju_copy3(start[1], p0);
  mju_copy3(dir[1], e2);
  mju_add3(start[2], p0, e1);
  mju_copy3(dir[2], e2);
  mju_add3(start[3], p0, e2);
  mju_copy3(dir[3], e1);
  return 4;
}

// the corner k of the face rectangle, half-sizes h, in the order (-,-), (-,+), (+,-), (+,+)
static void faceCorner(mjtNum c[2], const mjtNum h[3], int k) {
  c[0] = k / 2 ? h[0] : -h[0];
  c[1] = k % 2 ? h[1] : -h[1];
}

// (u, v) with c - p0 = u e1 + v e2 in x, y, given det = e1_x e2_y - e2_x e1_y
static void planeCoords(const mjtNum c[2], const mjtNum p0[3], const mjtNum e1[3],
                        const mjtNum e2[3], mjtNum det, mjtNum* u, mjtNum* v) {
  mjtNum x = c[0] - p0[0], y = c[1] - p0[1];
  *u = (x * e2[1] - y * e2[0]) * (1 / det);
  *v = (y * e1[0] - x * e1[1]) * (1 / det);
}

// a face axis: box I's corner lowest along z (p0), its edges from p0 whose |z| component is
// below 1/2 (at most two) and the parallelogram they span; the contacts are the crossings of
// its sides with the face's sides, the face corners strictly inside it, its other corners
// strictly inside the face, and p0, each where z <= margin, at (x, y, z/2) with depth z.
// rel: box I's axes in the face frame by column; p: its center there; s: its half-sizes
static int faceContacts(const mjtNum rel[3][3], const mjtNum p[3], const mjtNum s[3],
                        const mjtNum h[3], mjtNum margin, mjtNum pt[][3], mjtNum* depth) {
  // the lowest corner and the flat edges from it
  mjtNum e[3][3] = {{0}}, p0[3];
  int low = 0, nedge = 0, n = 0;
  for (int c = 0; c < 3; c++)
    if (rel[2][c] < 0) low |= 1 << c;
  mju_copy3(p0, p);
  for (int c = 0; c < 3; c++) {
    mjtNum ax[3] = {rel[0][c], rel[1][c], rel[2][c]};
    mju_addToScl3(p0, ax, s[c] * (low & 1 << c ? 1 : -1));
  }
  for (int c = 0; c < 3; c++) {
    mjtNum ax[3] = {rel[0][c], rel[1][c], rel[2][c]};
    if (fabs(ax[2]) < 0.5) mju_scl3(e[nedge++], ax, s[c] * (low & 1 << c ? -2 : 2));
  }

  // side crossings
  mjtNum start[4][3], dir[4][3], t, o;
  int nside = parallelogram(p0, e[0], e[1], nedge, start, dir);
  for (int i = 0; i < nside; i++)
    for (int q = 0; q < 2; q++) {
      if (fabs(dir[i][q]) <= mjMINVAL) continue;
      for (int sg = -1; sg <= 1; sg += 2)
        if (sideCross(start[i], dir[i], q, sg * h[q], h, &t, &o)) {
          mju_copy3(pt[n], start[i]);
          mju_addToScl3(pt[n++], dir[i], t);
        }
    }

  // face corners inside the parallelogram, at its height there
  if (nedge == 2) {
    mjtNum det = e[0][0] * e[1][1] - e[1][0] * e[0][1];
    for (int k = 0; k < 4; k++) {
      mjtNum c[2], u, v;
      faceCorner(c, h, k);
      planeCoords(c, p0, e[0], e[1], det, &u, &v);
      if (u <= 0 || v <= 0 || u >= 1 || v >= 1) continue;
      pt[n][0] = c[0];
      pt[n][1] = c[1];
      pt[n++][2] = p0[2] + u * e[0][2] + v * e[1][2];
    }
  }

  // p0 always, the parallelogram's other corners strictly inside the face
  for (int k = 0; k < 1 << nedge; k++) {
    mjtNum c[3];
    mju_copy3(c, p0);
    if (k & 1) mju_addTo3(c, e[0]);
    if (k & 2) mju_addTo3(c, e[1]);
    if (k && (c[0] <= -h[0] || c[0] >= h[0] || c[1] <= -h[1] || c[1] >= h[1])) continue;
    mju_copy3(pt[n++], c);
  }

  // those within the margin
  int m = 0;
  for (int i = 0; i < n; i++) {
    if (pt[i][2] > margin) continue;
    mju_copy3(pt[m], pt[i]);
    depth[m] = pt[m][2];
    pt[m++][2] *= 0.5;
  }
  return m;
}

// an edge axis: box 2's face through its nearest edge and the edge next to it across box 2's
// axis most aligned with box 1's edge (corners P0, P1 along +-b_e2, then P2, P3), projected
// along the axis n onto box 1's face; contacts at the midpoint of each point and its
// projection, depth along n: the crossings of the projected sides with the face's sides
// (nside of them); the face corners under the projected face (with no crossing: under either
// strip u in [0, 1] or v in [0, 1], clamped onto the face), depth the distance to that point;
// the projected corners inside the face (with no crossing: all when no face corner either,
// else those inside one strip), depth the distance to the face rectangle.  As in MuJoCo
// 3.5.1, the determinant of the corner test is replaced by the squared distance of the first
// corner that passes it, so the later corners are tested with (u, v) scaled by det/dist^2.
// rel: box 2's axes in the face frame by column; p: its center there; nrm: the axis there
static int edgeContacts(const BoxPair* b, const mjtNum rel[3][3], const mjtNum p[3],
                        const mjtNum nrm[3], const mjtNum h[3], mjtNum pt[][3],
                        mjtNum* depth) {
  // box 2's axes other than e2: a1 the one more aligned with box 1's edge (the first of equals
  // in the order (1, 2), (0, 2), (1, 0))
  int e1 = b->e1, e2 = b->e2, a1 = e2 == 1 ? 0 : 1, a2 = 3 - e2 - a1;
  if (fabs(b->rot[e1][a1]) < fabs(b->rot[e1][a2])) {
    a1 = a2;
    a2 = 3 - e2 - a1;
  }
  const mjtNum* s = b->size2;
  mjtNum ax[3][3];
  for (int c = 0; c < 3; c++)
    for (int k = 0; k < 3; k++) ax[c][k] = rel[k][c];
  mjtNum sg1 = b->near2 & 1 << a1 ? 1 : -1, sg2 = b->near2 & 1 << a2 ? 1 : -1;

  // the four corners (pu, unprojected) and their projections along nrm onto z = 0
  mjtNum pu[4][3], pp[4][3];
  for (int k = 0; k < 4; k++) {
    mju_copy3(pu[k], p);
    mju_addToScl3(pu[k], ax[a1], s[a1] * (k < 2 ? sg1 : -sg1));
    mju_addToScl3(pu[k], ax[a2], s[a2] * sg2);
    mju_addToScl3(pu[k], ax[e2], k % 2 ? -s[e2] : s[e2]);
  }
  if (fabs(nrm[2]) < mjMINVAL) return 0;
  mjtNum innorm = (1 / nrm[2]) * (b->flip ? -1 : 1), margin = b->margin;
  for (int k = 0; k < 4; k++) {
    mju_copy3(pp[k], pu[k]);
    mju_addToScl3(pp[k], nrm, -pu[k][2] * (1 / nrm[2]));
  }

  // sides of the projected face (start, dir) and of the face itself (ustart, udir)
  mjtNum d1[3], d2[3], u1[3], u2[3];
  mju_sub3(d1, pp[1], pp[0]);
  mju_sub3(d2, pp[2], pp[0]);
  mju_sub3(u1, pu[1], pu[0]);
  mju_sub3(u2, pu[2], pu[0]);
  mjtNum start[4][3], dir[4][3], ustart[4][3], udir[4][3], t, o;
  parallelogram(pp[0], d1, d2, 2, start, dir);
  parallelogram(pu[0], u1, u2, 2, ustart, udir);

  // side crossings: midpoint of the face point and its projection
  int n = 0;
  for (int i = 0; i < 4; i++)
    for (int q = 0; q < 2; q++) {
      if (fabs(dir[i][q]) <= mjMINVAL) continue;
      for (int sg = -1; sg <= 1; sg += 2) {
        mjtNum l = sg * h[q];
        if (!sideCross(start[i], dir[i], q, l, h, &t, &o)) continue;
        if ((ustart[i][2] + udir[i][2] * t) * innorm > margin) continue;
        mju_scl3(pt[n], ustart[i], 0.5);
        mju_addToScl3(pt[n], udir[i], 0.5 * t);
        pt[n][q] += 0.5 * l;
        pt[n][1 - q] += 0.5 * o;
        depth[n] = pt[n][2] * innorm * 2;
        n++;
      }
    }
  int nside = n;

  // face corners under the projected face
  mjtNum det = d1[0] * d2[1] - d2[0] * d1[1];
  for (int k = 0; k < 4; k++) {
    mjtNum c[2], u, v;
    faceCorner(c, h, k);
    planeCoords(c, pp[0], d1, d2, det, &u, &v);
    int outu = u < 0 || u > 1, outv = v < 0 || v > 1;
    if (nside ? outu || outv : outu && outv) continue;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    mjtNum f[3], g[3];
    mju_scl3(f, pu[0], 1 - u - v);
    mju_addToScl3(f, pu[1], u);
    mju_addToScl3(f, pu[2], v);
    mjtNum corner[3] = {c[0], c[1], 0};
    mju_sub3(g, corner, f);
    mjtNum dist2 = mju_dot3(g, g);
    det = dist2;
    if (f[2] > 0 && dist2 > margin * margin) continue;
    mju_add3(pt[n], corner, f);
    mju_scl3(pt[n], pt[n], 0.5);
    depth[n++] = sqrt(dist2) * (f[2] < 0 ? -1 : 1);
  }
  int ncorner = n - nside;

  // projected corners inside the face
  for (int k = 0; k < 4; k++) {
    int outx = pp[k][0] < -h[0] || pp[k][0] > h[0], outy = pp[k][1] < -h[1] || pp[k][1] > h[1];
    if (nside ? outx || outy : ncorner && outx && outy) continue;
    mjtNum dist2 = 0, q[3] = {0, 0, 0};
    for (int j = 0; j < 2; j++) {
      mjtNum out = pp[k][j] < -h[j] ? pp[k][j] + h[j] : pp[k][j] > h[j] ? pp[k][j] - h[j] : 0;
      dist2 += out * out;
      q[j] = (pp[k][j] < -h[j] ? -h[j] : pp[k][j] > h[j] ? h[j] : pp[k][j]) * 0.5;
    }
    dist2 += pu[k][2] * innorm * pu[k][2] * innorm;
    if (pu[k][2] > 0 && dist2 > margin * margin) continue;
    mju_addToScl3(q, pu[k], 0.5);
    mju_copy3(pt[n], q);
    depth[n++] = sqrt(dist2) * (pu[k][2] < 0 ? -1 : 1);
  }
  return n;
}

// where point lies against the box (center pos, rotation mat, half-sizes size): 1 outside the
// box grown by the factor 1.01, -1 inside the box shrunk by it, 0 in between
static int boxSide(const mjtNum point[3], const mjtNum pos[3], const mjtNum mat[9],
                   const mjtNum size[3]) {
  const mjtNum ratio = 1.01;
  mjtNum dif[3], v[3];
  mju_sub3(dif, point, pos);
  mju_mulMatTVec3(v, mat, dif);
  int inside = 1;
  for (int k = 0; k < 3; k++) {
    if (v[k] > size[k] * ratio || v[k] < -size[k] * ratio) return 1;
    if (!(v[k] < size[k] / ratio && v[k] > -size[k] / ratio)) inside = 0;
  }
  return inside ? -1 : 0;
}

// box g1, box g2: the contacts of the least separating axis (see above), then those outside one
// box (each grown by the margin) and not inside the other dropped, and of equal positions the
// earlier
int mjc_BoxBox(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
               mjtNum margin) {
  BoxPair b = {.pos1 = d->geom_xpos + 3 * g1, .mat1 = d->geom_xmat + 9 * g1,
               .size1 = m->geom_size + 3 * g1, .pos2 = d->geom_xpos + 3 * g2,
               .mat2 = d->geom_xmat + 9 * g2, .size2 = m->geom_size + 3 * g2,
               .margin = margin};
  mjtNum dif[3];
  mju_mulMatTMat(&b.rot[0][0], b.mat1, b.mat2, 3, 3, 3);
  mju_sub3(dif, b.pos2, b.pos1);
  mju_mulMatTVec3(b.pos21, b.mat1, dif);
  mju_sub3(dif, b.pos1, b.pos2);
  mju_mulMatTVec3(b.pos12, b.mat2, dif);
  if (!boxAxes(&b)) return 0;

  // the reference face (f of box ref) and the other box's axes and center in its frame
  int ref = b.face < 0 ? 0 : b.face / 6, f;
  if (b.face >= 0) f = b.face % 6;
  else {
    // box 1's axis other than e1 less aligned with box 2's edge (the second of equals in the
    // order (1, 2), (0, 2), (1, 0)), on the normal's side
    int p1 = b.e1 == 1 ? 0 : 1, p2 = 3 - b.e1 - p1;
    if (fabs(b.rot[p1][b.e2]) < fabs(b.rot[p2][b.e2])) p2 = p1;
    f = p2 + (b.near1 & 1 << p2 ? 0 : 3);
  }
  const mjtNum *rpos = ref ? b.pos2 : b.pos1, *rmat = ref ? b.mat2 : b.mat1;
  const mjtNum *rsize = ref ? b.size2 : b.size1, *isize = ref ? b.size1 : b.size2;
  mjtNum rel[3][3], p[3], h[3];
  for (int k = 0; k < 3; k++)
    for (int c = 0; c < 3; c++)
      rel[k][c] = ref ? b.rot[c][facePerm[f][k]] * faceSign[f][k]
                      : b.rot[facePerm[f][k]][c] * faceSign[f][k];
  toFace(p, ref ? b.pos12 : b.pos21, f);
  for (int k = 0; k < 3; k++) h[k] = rsize[facePerm[f][k]];
  p[2] -= h[2];

  // the contacts in the face frame
  mjtNum pt[mjMAXCONPAIR][3], depth[mjMAXCONPAIR], nrm[3], r[9], normal[3];
  int n;
  for (int row = 0; row < 3; row++)
    for (int k = 0; k < 3; k++) r[3 * row + k] = rmat[3 * row + facePerm[f][k]] * faceSign[f][k];
  if (b.face >= 0) {
    n = faceContacts(rel, p, isize, h, margin, pt, depth);
    mjtNum z[3] = {0, 0, ref ? -1 : 1};
    mju_mulMatVec3(normal, r, z);
  } else {
    toFace(nrm, b.axis, f);
    n = edgeContacts(&b, rel, p, nrm, h, pt, depth);
    mju_mulMatVec3(normal, r, nrm);
    mju_scl3(normal, normal, b.flip ? -1 : 1);
  }

  // to the world, dropping the contacts outside
  mjtNum sz1[3], sz2[3];
  for (int k = 0; k < 3; k++) {
    sz1[k] = b.size1[k] + margin;
    sz2[k] = b.size2[k] + margin;
  }
  int keep[mjMAXCONPAIR];
  for (int i = 0; i < n; i++) {
    pt[i][2] += h[2];
    mju_mulMatVec3(con[i].pos, r, pt[i]);
    mju_addTo3(con[i].pos, rpos);
    int out1 = boxSide(con[i].pos, b.pos1, b.mat1, sz1);
    int out2 = boxSide(con[i].pos, b.pos2, b.mat2, sz2);
    keep[i] = !((out1 == 1 && out2 != -1) || (out2 == 1 && out1 != -1));
  }

  // of equal positions the later, written in order
  int ncon = 0;
  for (int i = 0; i < n; i++) {
    if (!keep[i]) continue;
    for (int j = i + 1; j < n && keep[i]; j++)
      if (keep[j] && con[i].pos[0] == con[j].pos[0] && con[i].pos[1] == con[j].pos[1] &&
          con[i].pos[2] == con[j].pos[2])
        keep[i] = 0;
    if (!keep[i]) continue;
    mju_copy3(con[ncon].pos, con[i].pos);
    con[ncon].dist = depth[i];
    mju_copy3(con[ncon].frame, normal);
    mju_zero3(con[ncon].frame + 3);
    ncon++;
  }
  return ncon;
}
