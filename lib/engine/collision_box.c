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
// MuJoCo's box-box collider as of 3.12 (a separating-axis test, then face clipping or one
// edge-edge contact), by its documented behaviour.  In box 1's frame (rot = R1'R2, box 2's axes
// by column; p21 = R1'(c2 - c1), p12 = R2'(c1 - c2)) the 15 axes are tried in the order box 1's
// faces, box 2's faces, edge pairs (i, j) = a_i x b_j; each separation is its center offset
// minus both support radii, and any above margin + 1e-13 sum(sizes) means no contact.  The
// largest separation wins (the first of equals; an edge only when its separation less 1e-6 of
// its magnitude still beats it and the best face's).  An edge winner within about 8 degrees
// (|n'face| > 0.99) of the best face and not 5% deeper than it gives way to that face.

// separation slack per unit of summed half-sizes, the sin^2 under which an edge pair counts as
// parallel, the axis component under which a support corner is ambiguous, the squared relative
// radius under which two clipped vertices are one, the edge axes' bias against faces
#define BOX_SEPEPS 1e-13
#define BOX_PAREPS 1e-16
#define BOX_SGNEPS 1e-9
#define BOX_DUPEPS 1e-14
#define BOX_EDGEBIAS 1e-6

// the most vertices of the incident face clipped by the four sides of the reference face
#define BOX_MAXVERT 12

// x clamped to [-h, h]
static mjtNum clampSym(mjtNum x, mjtNum h) { return x < -h ? -h : x > h ? h : x; }

// the unit axis e_i x b_j in box 1's frame: (axis_i1, axis_i2) = (-rot[i2][j], rot[i1][j]),
// axis_i = 0, with i1, i2 the axes after i cyclically
static void edgeAxis(mjtNum axis[3], const mjtNum rot[9], int i, int j) {
  int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
  axis[i] = 0;
  axis[i1] = -rot[3 * i2 + j];
  axis[i2] = rot[3 * i1 + j];
  mju_normalize3(axis);
}

// the separating-axis test: 0 when separated, else the winning axis code (0-2: box 1's face
// axis, 3-5: box 2's, 6 + 3i + j: edge pair (i, j)) after the face substitution
static int boxAxis(const mjtNum rot[9], const mjtNum p21[3], const mjtNum p12[3],
                   const mjtNum s1[3], const mjtNum s2[3], mjtNum septol, int* code) {
  mjtNum best = -INFINITY;
  *code = -1;

  // face axes: |p_i| - s_i - sum_k |a_i'b_k| s_k (box 1's), then box 2's likewise
  for (int b = 0; b < 2; b++)
    for (int i = 0; i < 3; i++) {
      mjtNum r = 0;
      for (int k = 0; k < 3; k++)
        r += fabs(b ? rot[3 * k + i] : rot[3 * i + k]) * (b ? s1[k] : s2[k]);
      mjtNum sep = fabs(b ? p12[i] : p21[i]) - (b ? s2[i] : s1[i]) - r;
      if (sep > septol) return 0;
      if (sep > best) {
        best = sep;
        *code = 3 * b + i;
      }
    }
  mjtNum bestFace = best;
  int codeFace = *code;

  // edge axes: L = e_i x b_j, unit, unless sin^2 < BOX_PAREPS; radius 1 over the two axes
  // other than i, radius 2 over L in box 2's frame (its j component 0)
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      mjtNum l1 = -rot[3 * i2 + j], l2 = rot[3 * i1 + j], n2 = l1 * l1 + l2 * l2;
      if (n2 < BOX_PAREPS) continue;
      mjtNum inv = 1 / sqrt(n2);
      l1 *= inv;
      l2 *= inv;
      mjtNum r1 = s1[i1] * fabs(l1) + s1[i2] * fabs(l2);
      mjtNum b1 = l1 * rot[3 * i1 + j1] + l2 * rot[3 * i2 + j1];
      mjtNum b2 = l1 * rot[3 * i1 + j2] + l2 * rot[3 * i2 + j2];
      mjtNum r2 = s2[j1] * fabs(b1) + s2[j2] * fabs(b2);
      mjtNum sep = fabs(l1 * p21[i1] + l2 * p21[i2]) - r1 - r2;
      if (sep > septol) return 0;
      if (sep - BOX_EDGEBIAS * fabs(sep) > best && sep > bestFace) {
        best = sep;
        *code = 6 + 3 * i + j;
      }
    }

  // an edge nearly along the best face's normal and not 5% deeper: the face
  if (*code >= 6) {
    mjtNum axis[3], dot;
    edgeAxis(axis, rot, (*code - 6) / 3, (*code - 6) % 3);
    if (codeFace < 3) dot = fabs(axis[codeFace]);
    else {
      int f = codeFace - 3;
      dot = fabs(axis[0] * rot[f] + axis[1] * rot[3 + f] + axis[2] * rot[6 + f]);
    }
    if (dot > 0.99 && best < bestFace + 0.05 * fabs(bestFace) + mjMINVAL) *code = codeFace;
  }
  return 1;
}

// edge pair (i, j): the axis L (box 1's frame) turned toward box 2; the edge of box 1 along e_i
// through its corner of support along +L and box 2's along b_j through its corner of support
// along -L (a corner component with |L_k| < BOX_SGNEPS tried both ways, at most one per box,
// the pair of nearest witnesses kept, the first of equals); the witnesses are the segments'
// closest points (s on edge 1 from d1'e, d2'e with b = d1'd2, clamped to the edges, t
// re-solved as b s - d2'e and clamped, s again as d1'e + b t); one contact at their midpoint,
// depth (w2 - w1)'L, none when above septol
static int boxEdge(mjContact* con, const mjtNum rot[9], const mjtNum p21[3], const mjtNum s1[3],
                   const mjtNum s2[3], const mjtNum pos1[3], const mjtNum mat1[9], int i, int j,
                   mjtNum septol) {
  int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
  mjtNum axis[3], a2[3], d2[3] = {rot[j], rot[3 + j], rot[6 + j]};
  edgeAxis(axis, rot, i, j);
  if (mju_dot3(axis, p21) < 0) mju_scl3(axis, axis, -1);
  for (int k = 0; k < 3; k++)
    a2[k] = axis[0] * rot[k] + axis[1] * rot[3 + k] + axis[2] * rot[6 + k];
  int amb1 = fabs(axis[i1]) < BOX_SGNEPS ? i1 : fabs(axis[i2]) < BOX_SGNEPS ? i2 : -1;
  int amb2 = fabs(a2[j1]) < BOX_SGNEPS ? j1 : fabs(a2[j2]) < BOX_SGNEPS ? j2 : -1;
  mjtNum b = d2[i], denom = 1 - b * b, best = INFINITY, w1[3] = {0}, w2[3] = {0};
  for (int v1 = 0; v1 < (amb1 >= 0 ? 2 : 1); v1++)
    for (int v2 = 0; v2 < (amb2 >= 0 ? 2 : 1); v2++) {
      // the edges' centers c1 and c2 (box 1's frame)
      mjtNum c1[3], cc[3], c2[3], e[3], p1[3], p2[3], gap[3];
      c1[i] = 0;
      c1[i1] = axis[i1] >= 0 ? s1[i1] : -s1[i1];
      c1[i2] = axis[i2] >= 0 ? s1[i2] : -s1[i2];
      if (v1) c1[amb1] = -c1[amb1];
      cc[j] = 0;
      cc[j1] = a2[j1] >= 0 ? -s2[j1] : s2[j1];
      cc[j2] = a2[j2] >= 0 ? -s2[j2] : s2[j2];
      if (v2) cc[amb2] = -cc[amb2];
      mju_mulMatVec3(c2, rot, cc);
      mju_addTo3(c2, p21);

      // the closest points p1 = c1 + s e_i, p2 = c2 + t d2
      mju_sub3(e, c2, c1);
      mjtNum d1e = e[i], d2e = mju_dot3(d2, e);
      mjtNum s = denom < mjMINVAL ? 0 : (d1e - b * d2e) / denom;
      s = clampSym(s, s1[i]);
      mjtNum t = clampSym(b * s - d2e, s2[j]);
      s = clampSym(d1e + b * t, s1[i]);
      mju_copy3(p1, c1);
      p1[i] += s;
      mju_copy3(p2, c2);
      mju_addToScl3(p2, d2, t);
      mju_sub3(gap, p2, p1);
      if (mju_dot3(gap, gap) < best) {
        best = mju_dot3(gap, gap);
        mju_copy3(w1, p1);
        mju_copy3(w2, p2);
      }
    }

  // depth along the axis; the contact at the witnesses' midpoint
  mjtNum gap[3], mid[3];
  mju_sub3(gap, w2, w1);
  mjtNum dist = mju_dot3(gap, axis);
  if (dist > septol) return 0;
  for (int k = 0; k < 3; k++) mid[k] = 0.5 * (w1[k] + w2[k]);
  con->dist = dist;
  mju_mulMatVec3(con->pos, mat1, mid);
  mju_addTo3(con->pos, pos1);
  mju_mulMatVec3(con->frame, mat1, axis);
  mju_zero3(con->frame + 3);
  return 1;
}

// Sutherland-Hodgman: the polygon in (n vertices) cut by the half-plane sg x_q <= l into out;
// a vertex is kept when sg x_q - l <= 0, a crossing added where an edge changes sign strictly
// (p + t (q - p), t = dp / (dp - dq), z interpolated likewise), at most BOX_MAXVERT; returns
// the count, and leaves *in as it is (returning n) when no vertex is outside
static int clipSide(mjtNum (**in)[3], mjtNum (**out)[3], int n, int q, mjtNum sg, mjtNum l) {
  mjtNum d[BOX_MAXVERT];
  int inside = 1;
  for (int k = 0; k < n; k++) {
    d[k] = sg * (*in)[k][q] - l;
    if (d[k] > 0) inside = 0;
  }
  if (inside) return n;
  mjtNum (*src)[3] = *in, (*dst)[3] = *out;
  int m = 0;
  for (int k = 0; k < n; k++) {
    int k1 = k + 1 == n ? 0 : k + 1;
    if (d[k] <= 0 && m < BOX_MAXVERT) mju_copy3(dst[m++], src[k]);
    if (((d[k] < 0 && d[k1] > 0) || (d[k] > 0 && d[k1] < 0)) && m < BOX_MAXVERT) {
      mjtNum t = d[k] / (d[k] - d[k1]);
      for (int c = 0; c < 3; c++) dst[m][c] = src[k][c] + t * (src[k1][c] - src[k][c]);
      m++;
    }
  }
  *in = dst;
  *out = src;
  return m;
}

// face axis a of the reference box (box 1 when ref1): the incident box's face most opposed to
// it (its axis with the largest |component| along a, the first of equals), as 4 corners
// (+u+v, -u+v, -u-v, +u-v) in (x, y, z) = reference axes (a+1, a+2) and the height above the
// reference face, clipped by the face's four sides (+x, -x, +y, -y); each vertex at most margin
// high, and not within sqrt(BOX_DUPEPS) of the face's half-diagonal of an earlier one in (x, y),
// is a contact of depth z at (x, y) and half its height, normal from box 1 to box 2
static int boxFace(mjContact* con, const mjtNum rot[9], const mjtNum p21[3],
                   const mjtNum p12[3], const mjtNum s1[3], const mjtNum s2[3],
                   const mjtNum pos1[3], const mjtNum mat1[9], const mjtNum pos2[3],
                   const mjtNum mat2[9], int code, mjtNum margin) {
  int ref1 = code < 3, a = code % 3, ax = (a + 1) % 3, ay = (a + 2) % 3;
  const mjtNum *sref = ref1 ? s1 : s2, *sinc = ref1 ? s2 : s1, *pinc = ref1 ? p21 : p12;
  const mjtNum *posref = ref1 ? pos1 : pos2, *matref = ref1 ? mat1 : mat2;

  // the incident box's axes in the reference frame (inc[3 r + c]: component r of axis c)
  mjtNum inc[9];
  if (ref1) mju_copy(inc, rot, 9);
  else mju_transpose(inc, rot, 3, 3);
  mjtNum sgn = pinc[a] >= 0 ? 1 : -1;
  int bf = 0;
  for (int k = 1; k < 3; k++)
    if (fabs(inc[3 * a + k]) > fabs(inc[3 * a + bf])) bf = k;
  mjtNum tf = sgn * inc[3 * a + bf] > 0 ? -1 : 1;
  int bu = (bf + 1) % 3, bv = (bf + 2) % 3;

  // the incident face's center and half edges in (x, y, z)
  mjtNum ctr[3], du[3], dv[3], poly[2][BOX_MAXVERT][3];
  for (int r = 0; r < 3; r++) {
    int c = r == 0 ? ax : r == 1 ? ay : a;
    ctr[r] = pinc[c] + tf * sinc[bf] * inc[3 * c + bf];
    du[r] = sinc[bu] * inc[3 * c + bu];
    dv[r] = sinc[bv] * inc[3 * c + bv];
  }
  ctr[2] = sgn * ctr[2] - sref[a];
  du[2] *= sgn;
  dv[2] *= sgn;
  static const mjtNum su[4] = {1, -1, -1, 1}, sv[4] = {1, 1, -1, -1};
  for (int k = 0; k < 4; k++)
    for (int r = 0; r < 3; r++) poly[0][k][r] = ctr[r] + su[k] * du[r] + sv[k] * dv[r];

  // clipped by the reference face's sides
  mjtNum (*cur)[3] = poly[0], (*spare)[3] = poly[1];
  int n = 4;
  n = clipSide(&cur, &spare, n, 0, 1, sref[ax]);
  n = clipSide(&cur, &spare, n, 0, -1, sref[ax]);
  n = clipSide(&cur, &spare, n, 1, 1, sref[ay]);
  n = clipSide(&cur, &spare, n, 1, -1, sref[ay]);

  // the contacts: normal +-sgn times reference axis a
  mjtNum dup = BOX_DUPEPS * (sref[ax] * sref[ax] + sref[ay] * sref[ay]);
  mjtNum nsg = ref1 ? sgn : -sgn, normal[3] = {nsg * matref[a], nsg * matref[3 + a],
                                               nsg * matref[6 + a]};
  mjtNum acc[BOX_MAXVERT][3];
  int ncon = 0;
  for (int k = 0; k < n; k++) {
    if (cur[k][2] > margin) continue;
    int dupe = 0;
    for (int q = 0; q < ncon && !dupe; q++) {
      mjtNum dx = acc[q][0] - cur[k][0], dy = acc[q][1] - cur[k][1];
      dupe = dx * dx + dy * dy < dup;
    }
    if (!dupe) mju_copy3(acc[ncon++], cur[k]);
  }
  for (int k = 0; k < ncon; k++) {
    mjtNum loc[3];
    loc[ax] = acc[k][0];
    loc[ay] = acc[k][1];
    loc[a] = sgn * (sref[a] + 0.5 * acc[k][2]);
    con[k].dist = acc[k][2];
    mju_mulMatVec3(con[k].pos, matref, loc);
    mju_addTo3(con[k].pos, posref);
    mju_copy3(con[k].frame, normal);
    mju_zero3(con[k].frame + 3);
  }
  return ncon;
}

// box g1, box g2: the winning axis's contacts (see above)
int mjc_BoxBox(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
               mjtNum margin) {
  const mjtNum *pos1 = d->geom_xpos + 3 * g1, *mat1 = d->geom_xmat + 9 * g1;
  const mjtNum *pos2 = d->geom_xpos + 3 * g2, *mat2 = d->geom_xmat + 9 * g2;
  const mjtNum *s1 = m->geom_size + 3 * g1, *s2 = m->geom_size + 3 * g2;
  mjtNum rot[9], p21[3], p12[3], dif[3];
  mju_sub3(dif, pos2, pos1);
  mju_mulMatTVec3(p21, mat1, dif);
  mju_sub3(dif, pos1, pos2);
  mju_mulMatTVec3(p12, mat2, dif);
  mju_mulMatTMat(rot, mat1, mat2, 3, 3, 3);
  mjtNum septol = margin + BOX_SEPEPS * (s1[0] + s1[1] + s1[2] + s2[0] + s2[1] + s2[2]);
  int code;
  if (!boxAxis(rot, p21, p12, s1, s2, septol, &code)) return 0;
  if (code >= 6)
    return boxEdge(con, rot, p21, s1, s2, pos1, mat1, (code - 6) / 3, (code - 6) % 3, septol);
  return boxFace(con, rot, p21, p12, s1, s2, pos1, mat1, pos2, mat2, code, margin);
}
