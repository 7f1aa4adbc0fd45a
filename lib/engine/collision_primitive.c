// collision_primitive.c: analytic narrow phase for planes, spheres, capsules, ellipsoids and
// cylinders (see collision.h for the conventions: normal from geom1 to geom2, pos midway
// between the surfaces, dist < margin).
#include "engine/collision.h"

#include <math.h>

#include "util/util.h"

// ---- helpers ----------------------------------------------------------------------------------

// column `k` of a geom's rotation matrix: its local axis k in world coordinates
static void geomAxis(const mjData* d, int g, int k, mjtNum axis[3]) {
  const mjtNum* mat = d->geom_xmat + 9 * g;
  axis[0] = mat[k];
  axis[1] = mat[3 + k];
  axis[2] = mat[6 + k];
}

// one contact of a point p against the plane (point o, unit normal n) when its signed
// distance minus `radius` is below margin: dist = (p - o)'n - radius, pos = p - n (radius +
// dist/2); returns 0 or 1
static int planePoint(mjContact* con, mjtNum margin, const mjtNum o[3], const mjtNum n[3],
                      const mjtNum p[3], mjtNum radius) {
  mjtNum dif[3];
  mju_sub3(dif, p, o);
  mjtNum dist = mju_dot3(dif, n) - radius;
  if (dist > margin) return 0;
  con->dist = dist;
  mju_copy3(con->pos, p);
  mju_addToScl3(con->pos, n, -(radius + 0.5 * dist));
  mju_copy3(con->frame, n);
  mju_zero3(con->frame + 3);
  return 1;
}

// ---- plane against primitives -----------------------------------------------------------------

// sphere center against the plane, less the radius
int mjc_PlaneSphere(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                    mjtNum margin) {
  mjtNum n[3];
  geomAxis(d, g1, 2, n);
  return planePoint(con, margin, d->geom_xpos + 3 * g1, n, d->geom_xpos + 3 * g2,
                    m->geom_size[3 * g2]);
}

// both end spheres of the capsule (the +axis end first); the first tangent is the capsule
// axis projected on the plane
int mjc_PlaneCapsule(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                     mjtNum margin) {
  mjtNum n[3], axis[3], tangent[3];
  const mjtNum* c = d->geom_xpos + 3 * g2;
  const mjtNum* size = m->geom_size + 3 * g2;
  geomAxis(d, g1, 2, n);
  geomAxis(d, g2, 2, axis);

  // tangent = axis - (axis'n) n, normalized (the x axis when the axis is along the normal)
  mju_copy3(tangent, axis);
  mju_addToScl3(tangent, n, -mju_dot3(axis, n));
  mju_normalize3(tangent);

  // ends c +- halflength axis
  int ncon = 0;
  for (int side = 1; side >= -1; side -= 2) {
    mjtNum end[3];
    mju_copy3(end, c);
    mju_addToScl3(end, axis, side * size[1]);
    if (planePoint(con + ncon, margin, d->geom_xpos + 3 * g1, n, end, size[0])) {
      mju_copy3(con[ncon].frame + 3, tangent);
      ncon++;
    }
  }
  return ncon;
}

// the ellipsoid's support point in the direction -n: p = c - R S^2 R'n / |S R'n|, S the
// semi-axes
int mjc_PlaneEllipsoid(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                       mjtNum margin) {
  mjtNum n[3], nl[3], p[3], dir[3];
  const mjtNum* s = m->geom_size + 3 * g2;
  const mjtNum* mat = d->geom_xmat + 9 * g2;
  geomAxis(d, g1, 2, n);

  // nl = S R'n, dir = S nl / |nl| in the local frame, then to world
  mju_mulMatTVec3(nl, mat, n);
  for (int k = 0; k < 3; k++) nl[k] *= s[k];
  mjtNum len = mju_norm3(nl);
  for (int k = 0; k < 3; k++) nl[k] = s[k] * nl[k] / len;
  mju_mulMatVec3(dir, mat, nl);
  mju_sub3(p, d->geom_xpos + 3 * g2, dir);
  return planePoint(con, margin, d->geom_xpos + 3 * g1, n, p, 0);
}

// up to 4 rim points: with a' the axis pointing away from the plane and v the direction in
// the cap plane toward the plane (the cylinder's x axis when the caps are parallel to it):
// the deepest point of the near cap c - h a' + r v, that of the far cap c + h a' + r v, and
// the near cap's points at +-120 degrees, c - h a' + r (-v/2 +- sqrt(3)/2 a' x v)
int mjc_PlaneCylinder(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                      mjtNum margin) {
  mjtNum n[3], a[3], v[3], w[3];
  const mjtNum* c = d->geom_xpos + 3 * g2;
  const mjtNum* o = d->geom_xpos + 3 * g1;
  mjtNum r = m->geom_size[3 * g2], h = m->geom_size[3 * g2 + 1];
  geomAxis(d, g1, 2, n);
  geomAxis(d, g2, 2, a);

  // a' = sign(a'n) a; v = -n + (n'a) a normalized, or the x axis
  mjtNum proj = mju_dot3(n, a);
  if (proj < 0) mju_scl3(a, a, -1);
  mju_scl3(v, n, -1);
  mju_addToScl3(v, a, fabs(proj));
  if (mju_norm3(v) < mjMINVAL) geomAxis(d, g2, 0, v);
  else mju_normalize3(v);
  mju_cross(w, a, v);

  // the four candidates in order
  const mjtNum s3 = 0.5 * sqrt(3.0);
  const mjtNum pts[4][3] = {{-h, 1, 0}, {h, 1, 0}, {-h, -0.5, s3}, {-h, -0.5, -s3}};
  int ncon = 0;
  for (int i = 0; i < 4; i++) {
    mjtNum p[3];
    for (int k = 0; k < 3; k++)
      p[k] = c[k] + pts[i][0] * a[k] + r * (pts[i][1] * v[k] + pts[i][2] * w[k]);
    ncon += planePoint(con + ncon, margin, o, n, p, 0);
  }
  return ncon;
}

// the box corners on the plane's side of the center (offset'n < 0: the four deepest) that
// are below the margin, enumerated with x fastest, then y, then z, each from - to +
int mjc_PlaneBox(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                 mjtNum margin) {
  mjtNum n[3];
  const mjtNum* c = d->geom_xpos + 3 * g2;
  const mjtNum* mat = d->geom_xmat + 9 * g2;
  const mjtNum* s = m->geom_size + 3 * g2;
  geomAxis(d, g1, 2, n);
  int ncon = 0;
  for (int i = 0; i < 8 && ncon < 4; i++) {
    mjtNum local[3] = {i & 1 ? s[0] : -s[0], i & 2 ? s[1] : -s[1], i & 4 ? s[2] : -s[2]};
    mjtNum p[3];
    mju_mulMatVec3(p, mat, local);
    if (mju_dot3(p, n) >= 0) continue;
    mju_addTo3(p, c);
    ncon += planePoint(con + ncon, margin, d->geom_xpos + 3 * g1, n, p, 0);
  }
  return ncon;
}

// ---- spheres and capsules ---------------------------------------------------------------------

// normal (c2 - c1)/|c2 - c1| (the x axis when the centers coincide), dist = |c2 - c1| - r1
// - r2, pos = c1 + n (r1 + dist/2)
int mjc_sphereSphereRaw(mjContact* con, mjtNum margin, const mjtNum c1[3], mjtNum r1,
                        const mjtNum c2[3], mjtNum r2) {
  mjtNum n[3];
  mju_sub3(n, c2, c1);
  mjtNum len = mju_norm3(n);
  mjtNum dist = len - r1 - r2;
  if (dist > margin) return 0;
  if (len < mjMINVAL) {
    n[0] = 1;
    n[1] = n[2] = 0;
  } else {
    mju_scl3(n, n, 1 / len);
  }
  con->dist = dist;
  mju_copy3(con->pos, c1);
  mju_addToScl3(con->pos, n, r1 + 0.5 * dist);
  mju_copy3(con->frame, n);
  mju_zero3(con->frame + 3);
  return 1;
}

// two spheres
int mjc_SphereSphere(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                     mjtNum margin) {
  return mjc_sphereSphereRaw(con, margin, d->geom_xpos + 3 * g1, m->geom_size[3 * g1],
                             d->geom_xpos + 3 * g2, m->geom_size[3 * g2]);
}

// the point of segment c +- h axis closest to p: c + t axis, t = clamp((p - c)'axis, -h, h)
static void segmentPoint(mjtNum res[3], const mjtNum c[3], const mjtNum axis[3], mjtNum h,
                         const mjtNum p[3]) {
  mjtNum dif[3];
  mju_sub3(dif, p, c);
  mjtNum t = mju_dot3(dif, axis);
  t = t < -h ? -h : t > h ? h : t;
  mju_copy3(res, c);
  mju_addToScl3(res, axis, t);
}

// the sphere against the nearest point of the capsule's segment
int mjc_SphereCapsule(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                      mjtNum margin) {
  mjtNum axis[3], q[3];
  geomAxis(d, g2, 2, axis);
  segmentPoint(q, d->geom_xpos + 3 * g2, axis, m->geom_size[3 * g2 + 1], d->geom_xpos + 3 * g1);
  return mjc_sphereSphereRaw(con, margin, d->geom_xpos + 3 * g1, m->geom_size[3 * g1], q,
                             m->geom_size[3 * g2]);
}

// the sphere against the cylinder, by the region of the sphere's center p in the cylinder's
// frame: beside the side (|p_z| <= h) as against a capsule of the cylinder's radius, over a
// cap (|p_xy| <= r) against the cap's plane, else against the nearest rim point; a center
// inside takes the shallower of the side and the nearer cap
int mjc_SphereCylinder(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                       mjtNum margin) {
  const mjtNum* c = d->geom_xpos + 3 * g1;
  const mjtNum* cc = d->geom_xpos + 3 * g2;
  const mjtNum* mat = d->geom_xmat + 9 * g2;
  mjtNum rs = m->geom_size[3 * g1], r = m->geom_size[3 * g2], h = m->geom_size[3 * g2 + 1];
  mjtNum dif[3], p[3], axis[3], q[3];
  mju_sub3(dif, c, cc);
  mju_mulMatTVec3(p, mat, dif);
  geomAxis(d, g2, 2, axis);
  mjtNum rad = sqrt(p[0] * p[0] + p[1] * p[1]);

  // beside the side: the axis point at the center's height, unless the center is inside and
  // nearer a cap than the side
  mjtNum side = p[2] > 0 ? 1 : -1;
  int nearcap = rad < r && h - side * p[2] < r - rad;
  if (p[2] <= h && p[2] >= -h && !nearcap) {
    mju_copy3(q, cc);
    mju_addToScl3(q, axis, p[2]);
    return mjc_sphereSphereRaw(con, margin, c, rs, q, r);
  }

  // over a cap: the cap's plane, normal -sign(p_z) axis
  if (rad <= r) {
    mjtNum n[3], o[3];
    mju_scl3(n, axis, -side);
    mju_copy3(o, cc);
    mju_addToScl3(o, axis, side * h);
    mjtNum dist = side * p[2] - h - rs;
    if (dist > margin) return 0;
    con->dist = dist;
    mju_copy3(con->pos, c);
    mju_addToScl3(con->pos, n, rs + 0.5 * dist);
    mju_copy3(con->frame, n);
    mju_zero3(con->frame + 3);
    return 1;
  }

  // beyond the rim: the rim point r p_xy/|p_xy| + side h z, to the world
  mjtNum local[3] = {r * p[0] / rad, r * p[1] / rad, side * h};
  mju_mulMatVec3(q, mat, local);
  mju_addTo3(q, cc);
  return mjc_sphereSphereRaw(con, margin, c, rs, q, 0);
}

// one sphere contact between the end `side` (+1, -1) of segment (c, a, h) and its nearest
// point on segment (oc, oa, oh); the spheres' order follows the capsules' (flip: the end is on
// the second)
static int capsuleEnd(mjContact* con, mjtNum margin, const mjtNum c[3], const mjtNum a[3],
                      mjtNum h, mjtNum r, const mjtNum oc[3], const mjtNum oa[3], mjtNum oh,
                      mjtNum orad, int side, int flip) {
  mjtNum end[3], q[3];
  mju_copy3(end, c);
  mju_addToScl3(end, a, side * h);
  segmentPoint(q, oc, oa, oh, end);
  return flip ? mjc_sphereSphereRaw(con, margin, q, orad, end, r)
              : mjc_sphereSphereRaw(con, margin, end, r, q, orad);
}

// the closest points of two segments c1 + s a1, c2 + t a2 (|s| <= h1, |t| <= h2): minimize
// over s, then clamp t, then recompute s for the clamped t.  Parallel segments: up to two
// contacts from the ends (1+, 1-, 2+, 2-) against the other segment
int mjc_CapsuleCapsule(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                       mjtNum margin) {
  mjtNum a1[3], a2[3], dif[3], p1[3], p2[3];
  const mjtNum* c1 = d->geom_xpos + 3 * g1;
  const mjtNum* c2 = d->geom_xpos + 3 * g2;
  mjtNum h1 = m->geom_size[3 * g1 + 1], h2 = m->geom_size[3 * g2 + 1];
  mjtNum r1 = m->geom_size[3 * g1], r2 = m->geom_size[3 * g2];
  geomAxis(d, g1, 2, a1);
  geomAxis(d, g2, 2, a2);
  mju_sub3(dif, c1, c2);

  // normal equations: s - b t = -d1, -b s + t = d2 with b = a1'a2, d1 = a1'dif, d2 = a2'dif
  mjtNum b = mju_dot3(a1, a2), d1 = mju_dot3(a1, dif), d2 = mju_dot3(a2, dif);
  mjtNum det = 1 - b * b;
  if (det < mjMINVAL) {
    int ncon = 0;
    for (int k = 0; k < 4 && ncon < 2; k++) {
      int side = k % 2 ? -1 : 1;
      ncon += k < 2 ? capsuleEnd(con + ncon, margin, c1, a1, h1, r1, c2, a2, h2, r2, side, 0)
                    : capsuleEnd(con + ncon, margin, c2, a2, h2, r2, c1, a1, h1, r1, side, 1);
    }
    return ncon;
  }
  mjtNum s = (-d1 + b * d2) / det;
  s = s < -h1 ? -h1 : s > h1 ? h1 : s;
  mjtNum t = b * s + d2;
  t = t < -h2 ? -h2 : t > h2 ? h2 : t;
  mju_copy3(p2, c2);
  mju_addToScl3(p2, a2, t);
  segmentPoint(p1, c1, a1, h1, p2);
  return mjc_sphereSphereRaw(con, margin, p1, r1, p2, r2);
}
