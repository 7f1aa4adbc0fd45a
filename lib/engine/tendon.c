// tendon.c: tendon lengths and Jacobians (with wrapping around spheres and cylinders, as
// MuJoCo 3.5.1 computes them), tendon armature (inertia and bias force), actuator lengths and
// moments (position stage).
#include <math.h>

#include "engine/constraint.h"
#include "engine/model.h"
#include "engine/smooth.h"
#include "util/util.h"

// ---- wrapping in the plane: a circle of radius r at the origin ------------------------------

// 2D cross product a x b
static mjtNum cross2(const mjtNum a[2], const mjtNum b[2]) { return a[0] * b[1] - a[1] * b[0]; }

// tangent point t on the circle seen from p (|p| > r), on side s = +1 or -1:
// t = (r^2 p + s r h perp(p)) / |p|^2 with h = sqrt(|p|^2 - r^2), perp(p) = (-p_y, p_x).
// A path leaving p through t turns counterclockwise around the circle for s = +1; a path
// arriving at t and leaving to p turned counterclockwise for s = -1
static void tangent2(mjtNum t[2], const mjtNum p[2], mjtNum r, mjtNum s) {
  mjtNum sq = p[0] * p[0] + p[1] * p[1];
  mjtNum h = sqrt(fmax(0, sq - r * r));
  t[0] = (r * r * p[0] - s * r * h * p[1]) / sq;
  t[1] = (r * r * p[1] + s * r * h * p[0]) / sq;
}

// angle travelled on the circle from t0 to t1, counterclockwise (ccw = 1) or clockwise:
// the angle between them, acos(t0.t1 / r^2), or 2 pi minus it when t1 lies the other way
static mjtNum arcAngle(const mjtNum t0[2], const mjtNum t1[2], mjtNum r, int ccw) {
  mjtNum c = (t0[0] * t1[0] + t0[1] * t1[1]) / (r * r);
  mjtNum ang = acos(fmin(1, fmax(-1, c)));
  mjtNum turn = cross2(t0, t1);
  return (ccw ? turn < 0 : turn > 0) ? 2 * mjPI - ang : ang;
}

// 1 when the segments a0-a1 and b0-b1 intersect (parallel segments never do)
static int segmentsCross(const mjtNum a0[2], const mjtNum a1[2], const mjtNum b0[2],
                         const mjtNum b1[2]) {
  mjtNum da[2] = {a1[0] - a0[0], a1[1] - a0[1]}, db[2] = {b1[0] - b0[0], b1[1] - b0[1]};
  mjtNum dab[2] = {b0[0] - a0[0], b0[1] - a0[1]};
  mjtNum det = cross2(da, db);
  if (fabs(det) < mjMINVAL) return 0;
  // a0 + s da = b0 + u db with s, u in [0, 1]
  mjtNum s = cross2(dab, db) / det, u = cross2(dab, da) / det;
  return s >= 0 && s <= 1 && u >= 0 && u <= 1;
}

// a path from end0 to end1 around the outside of the circle: the tangent points into pnt
// (pnt[0..1] after end0, pnt[2..3] before end1) and the arc length between them, or -1 when
// the path is straight: when the point of the segment nearest to the center lies outside the
// circle, unless a side point lies beyond the center from it.  The path turns
// counterclockwise or clockwise: the shorter way without a side point, else the way whose
// tangent points' midpoint direction is nearer to the side point's; the other way when the
// chosen way's tangent segments cross
static mjtNum wrapCircle(mjtNum pnt[4], const mjtNum end[4], const mjtNum* side, mjtNum r) {
  const mjtNum *e0 = end, *e1 = end + 2;
  mjtNum rr = r * r, dif[2] = {e1[0] - e0[0], e1[1] - e0[1]};
  mjtNum dd = dif[0] * dif[0] + dif[1] * dif[1];
  if (r < mjMINVAL || e0[0] * e0[0] + e0[1] * e0[1] < rr || e1[0] * e1[0] + e1[1] * e1[1] < rr ||
      dd < mjMINVAL)
    return -1;

  // the segment's point nearest to the center, e0 + a (e1 - e0) with a in [0, 1]
  mjtNum a = fmin(1, fmax(0, -(e0[0] * dif[0] + e0[1] * dif[1]) / dd));
  mjtNum near[2] = {e0[0] + a * dif[0], e0[1] + a * dif[1]};
  if (near[0] * near[0] + near[1] * near[1] > rr &&
      (!side || side[0] * near[0] + side[1] * near[1] >= 0))
    return -1;

  // both ways (k = 0 counterclockwise, 1 clockwise) and their scores (lower is better): the
  // arc, or minus the side point's projection on the direction of the tangent points' midpoint
  mjtNum t[2][4], ang[2], score[2];
  for (int k = 0; k < 2; k++) {
    mjtNum s = k ? -1 : 1;
    tangent2(t[k], e0, r, s);
    tangent2(t[k] + 2, e1, r, -s);
    ang[k] = arcAngle(t[k], t[k] + 2, r, !k);
    score[k] = ang[k];
    if (side) {
      mjtNum mid[2] = {t[k][0] + t[k][2], t[k][1] + t[k][3]};
      mju_normalize(mid, 2);
      score[k] = -(mid[0] * side[0] + mid[1] * side[1]);
    }
  }
  int k = score[1] < score[0];
  if (segmentsCross(e0, t[k], e1, t[k] + 2)) k = 1 - k;
  mju_copy(pnt, t[k], 4);
  return r * ang[k];
}

// inside wrap: the path from end0 to end1 through one point of the circle where both
// segments make equal angles with the normal (a stationary length), for a side point inside
// the geom.  With A = r/|end0|, B = r/|end1| and G the angle between the ends, the point's
// sine z solves f(z) = asin(A z) + asin(B z) - 2 asin(z) + G = 0, by Newton's method from
// z = 1 - 1e-7 to |f| < 1e-6; it lies at angle asin(z) - asin(A z) from end0 toward end1.
// Both pnt points are that point and the arc length is 0; -1 (straight) when an end is
// inside the circle, the segment crosses it or the ends are opposite.  When the iteration
// fails (or the ends are aligned), the point is the projection of the ends' midpoint
static mjtNum wrapInside(mjtNum pnt[4], const mjtNum end[4], mjtNum r) {
  const mjtNum *e0 = end, *e1 = end + 2;
  mjtNum len0 = sqrt(e0[0] * e0[0] + e0[1] * e0[1]), len1 = sqrt(e1[0] * e1[0] + e1[1] * e1[1]);
  if (len0 <= r || len1 <= r || r < mjMINVAL || len0 < mjMINVAL || len1 < mjMINVAL) return -1;

  // the segment must not cross the circle
  mjtNum dif[2] = {e1[0] - e0[0], e1[1] - e0[1]};
  mjtNum dd = dif[0] * dif[0] + dif[1] * dif[1];
  if (dd > mjMINVAL) {
    mjtNum a = -(e0[0] * dif[0] + e0[1] * dif[1]) / dd;
    mjtNum near[2] = {e0[0] + a * dif[0], e0[1] + a * dif[1]};
    if (a > 0 && a < 1 && near[0] * near[0] + near[1] * near[1] <= r * r) return -1;
  }

  // the equation's parameters; opposite ends: no solution
  mjtNum A = r / len0, B = r / len1;
  mjtNum cosG = (len0 * len0 + len1 * len1 - dd) / (2 * len0 * len1);
  if (cosG < -1 + mjMINVAL) return -1;

  // fallback point: the midpoint of the ends, projected on the circle
  mjtNum mid[2] = {0.5 * (e0[0] + e1[0]), 0.5 * (e0[1] + e1[1])};
  mju_normalize(mid, 2);
  pnt[0] = pnt[2] = r * mid[0];
  pnt[1] = pnt[3] = r * mid[1];
  if (cosG > 1 - mjMINVAL) return 0;
  mjtNum G = acos(cosG);

  // Newton's method, from the right end of (0, 1) leftward; any misstep keeps the fallback
  mjtNum z = 1 - 1e-7;
  mjtNum f = asin(A * z) + asin(B * z) - 2 * asin(z) + G;
  if (f > 0) return 0;
  for (int iter = 0; iter < 20 && fabs(f) >= 1e-6; iter++) {
    mjtNum df = A / fmax(mjMINVAL, sqrt(1 - z * z * A * A)) +
                B / fmax(mjMINVAL, sqrt(1 - z * z * B * B)) - 2 / fmax(mjMINVAL, sqrt(1 - z * z));
    if (df > -mjMINVAL) return 0;
    mjtNum znew = z - f / df;
    if (znew > z) return 0;
    z = znew;
    f = asin(A * z) + asin(B * z) - 2 * asin(z) + G;
    if (f > 1e-6) return 0;
  }
  if (fabs(f) >= 1e-6) return 0;

  // the point: from the end that turns counterclockwise toward the other, by its angle
  int from0 = cross2(e0, e1) > 0;
  const mjtNum* e = from0 ? e0 : e1;
  mjtNum ang = asin(z) - asin((from0 ? A : B) * z), c = cos(ang), s = sin(ang);
  mjtNum u[2] = {e[0], e[1]};
  mju_normalize(u, 2);
  pnt[0] = pnt[2] = r * (c * u[0] - s * u[1]);
  pnt[1] = pnt[3] = r * (s * u[0] + c * u[1]);
  return 0;
}

// ---- wrapping around a sphere or cylinder geom ------------------------------------------------

// the path between world points x0 and x1 around geom g (a sphere or a cylinder), with an
// optional side site position: the two tangent points into wpnt (world) and the length of
// the path on the surface, or -1 when the path is straight.  In the geom frame the problem
// is planar: for a sphere in the plane through its center and both points (axes: p0, then
// normal x p0), for a cylinder in its cross-section (x, y), where the height along the path
// is interpolated by planar length (the wrapped part a helix).  A side site inside the geom
// selects the inside wrap
static mjtNum wrapGeom(const mjModel* m, const mjData* d, int g, const mjtNum x0[3],
                       const mjtNum x1[3], const mjtNum* side, mjtNum wpnt[6]) {
  const mjtNum* gpos = d->geom_xpos + 3 * g;
  const mjtNum* gmat = d->geom_xmat + 9 * g;
  mjtNum r = m->geom_size[3 * g], p[2][3], tmp[3];
  int sphere = m->geom_type[g] == mjGEOM_SPHERE;

  // the points in the geom frame
  mju_sub3(tmp, x0, gpos);
  mju_mulMatTVec3(p[0], gmat, tmp);
  mju_sub3(tmp, x1, gpos);
  mju_mulMatTVec3(p[1], gmat, tmp);
  if (mju_norm3(p[0]) < mjMINVAL || mju_norm3(p[1]) < mjMINVAL) return -1;

  // the plane's axes
  mjtNum axis[2][3] = {{1, 0, 0}, {0, 1, 0}};
  if (sphere) {
    mjtNum normal[3];
    mju_copy3(axis[0], p[0]);
    mju_normalize3(axis[0]);
    mju_cross(normal, p[0], p[1]);
    if (mju_normalize3(normal) < mjMINVAL) {
      // points aligned with the center: the plane through them and (1, 1, 1) without the
      // component of their largest coordinate
      mjtNum v[3] = {1, 1, 1};
      int i = fabs(axis[0][1]) > fabs(axis[0][0]) ? 1 : 0;
      v[fabs(axis[0][2]) > fabs(axis[0][i]) ? 2 : i] = 0;
      mju_cross(normal, axis[0], v);
      mju_normalize3(normal);
    }
    mju_cross(axis[1], normal, axis[0]);
    mju_normalize3(axis[1]);
  }

  // planar problem: the ends, the side point, the tangent points
  mjtNum end[4], pnt[4] = {0}, sd[2], s[3];
  for (int i = 0; i < 2; i++) {
    end[2 * i] = mju_dot3(p[i], axis[0]);
    end[2 * i + 1] = mju_dot3(p[i], axis[1]);
  }
  mjtNum wlen;
  if (side) {
    mju_sub3(tmp, side, gpos);
    mju_mulMatTVec3(s, gmat, tmp);
    sd[0] = mju_dot3(s, axis[0]);
    sd[1] = mju_dot3(s, axis[1]);
  }
  if (side && mju_norm3(s) < r) wlen = wrapInside(pnt, end, r);
  else wlen = wrapCircle(pnt, end, side ? sd : NULL, r);
  if (wlen < 0) return -1;

  // back to 3D in the geom frame
  mjtNum res[2][3];
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < 3; k++) res[i][k] = axis[0][k] * pnt[2 * i] + axis[1][k] * pnt[2 * i + 1];

  // cylinder: heights by planar length along the path, L0 + wlen + L1
  if (!sphere) {
    mjtNum L0 = hypot(end[0] - pnt[0], end[1] - pnt[1]);
    mjtNum L1 = hypot(end[2] - pnt[2], end[3] - pnt[3]);
    mjtNum total = L0 + wlen + L1, dz = p[1][2] - p[0][2];
    res[0][2] = p[0][2] + (total > mjMINVAL ? dz * L0 / total : 0);
    res[1][2] = p[0][2] + (total > mjMINVAL ? dz * (L0 + wlen) / total : 0);
    mjtNum h = res[1][2] - res[0][2];
    wlen = sqrt(wlen * wlen + h * h);
  }

  // world frame
  for (int i = 0; i < 2; i++) {
    mju_mulMatVec3(wpnt + 3 * i, gmat, res[i]);
    mju_addTo3(wpnt + 3 * i, gpos);
  }
  return wlen;
}

// ---- tendons ---------------------------------------------------------------------------------

// a spatial tendon's piece from point p0 on body b0 to p1 on body b1, scaled by 1/divisor:
// adds u'(J1 - J0)/divisor to the Jacobian row (u = (p1 - p0)/|p1 - p0|) when the bodies
// differ (on one body the distance is constant) and returns |p1 - p0|
static mjtNum addPiece(const mjModel* m, const mjData* d, mjtNum* jrow, const mjtNum p0[3],
                       int b0, const mjtNum p1[3], int b1, mjtNum divisor) {
  mjtNum u[3];
  mju_sub3(u, p1, p0);
  mjtNum len = mju_normalize3(u);
  if (b0 != b1) {
    mj_addJacPointDot(m, d, jrow, p1, b1, u, 1 / divisor);
    mj_addJacPointDot(m, d, jrow, p0, b0, u, -1 / divisor);
  }
  return len;
}

// record a point of tendon t's path: wrap_xpos, wrap_obj (geom id, -1 site, -2 pulley)
static void addPoint(mjData* d, int t, const mjtNum* pos, int obj) {
  int k = d->ten_wrapadr[t] + d->ten_wrapnum[t]++;
  if (pos) mju_copy3(d->wrap_xpos + 3 * k, pos);
  else mju_zero3(d->wrap_xpos + 3 * k);
  d->wrap_obj[k] = obj;
}

// spatial tendon t: site to site segments, each wrapped around the geom between them when
// there is one, divided by the divisor of the last pulley before them
static mjtNum spatialTendon(const mjModel* m, mjData* d, int t, mjtNum* jrow) {
  int adr = m->tendon_adr[t], end = adr + m->tendon_num[t];
  mjtNum len = 0, divisor = 1;
  for (int j = adr; j < end - 1; j++) {
    // pulley: a new branch with its own divisor
    if (m->wrap_type[j] == mjWRAP_PULLEY) {
      divisor = m->wrap_prm[j];
      addPoint(d, t, NULL, -2);
      continue;
    }
    if (m->wrap_type[j + 1] == mjWRAP_PULLEY) continue;

    // site j to the next site, around the geom between them if any: the points of the path
    int s0 = m->wrap_objid[j], g = -1;
    if (m->wrap_type[j + 1] == mjWRAP_SPHERE || m->wrap_type[j + 1] == mjWRAP_CYLINDER)
      g = m->wrap_objid[++j];
    int s1 = m->wrap_objid[j + 1];
    mjtNum pts[12], wlen = -1;
    int body[4] = {m->site_bodyid[s0], -1, -1, -1}, n = 2;
    mju_copy3(pts, d->site_xpos + 3 * s0);
    if (g >= 0) {
      int side = (int)m->wrap_prm[j];
      wlen = wrapGeom(m, d, g, d->site_xpos + 3 * s0, d->site_xpos + 3 * s1,
                      side >= 0 ? d->site_xpos + 3 * side : NULL, pts + 3);
    }
    if (wlen >= 0) {
      n = 4;
      body[1] = body[2] = m->geom_bodyid[g];
    }
    mju_copy3(pts + 3 * (n - 1), d->site_xpos + 3 * s1);
    body[n - 1] = m->site_bodyid[s1];

    // length and Jacobian of each piece; the arc (on the geom's body) adds its length only
    for (int k = 0; k < n - 1; k++) {
      if (n == 4 && k == 1) len += wlen / divisor;
      else len += addPiece(m, d, jrow, pts + 3 * k, body[k], pts + 3 * k + 3, body[k + 1],
                           divisor) / divisor;
    }
    for (int k = 0; k < n - 1; k++) addPoint(d, t, pts + 3 * k, k ? g : -1);

    // the last site of the tendon or of a branch
    if (j + 1 == end - 1 || m->wrap_type[j + 2] == mjWRAP_PULLEY)
      addPoint(d, t, pts + 3 * (n - 1), -1);
  }
  return len;
}

// ten_length, ten_J and the path points (ten_wrapadr, ten_wrapnum, wrap_obj, wrap_xpos): a
// fixed tendon sums coef * qpos of its joints, a spatial tendon its pieces
void mj_tendon(const mjModel* m, mjData* d) {
  int nv = m->nv, npoint = 0;
  for (int t = 0; t < m->ntendon; t++) {
    mjtNum* jrow = d->ten_J + (size_t)t * nv;
    int adr = m->tendon_adr[t], num = m->tendon_num[t];
    mju_zero(jrow, nv);
    d->ten_wrapadr[t] = npoint;
    d->ten_wrapnum[t] = 0;
    if (num && m->wrap_type[adr] == mjWRAP_JOINT) {
      // fixed tendon: length = sum coef qpos, J[dof] = coef
      mjtNum len = 0;
      for (int w = adr; w < adr + num; w++) {
        int id = m->wrap_objid[w];
        len += m->wrap_prm[w] * d->qpos[m->jnt_qposadr[id]];
        jrow[m->jnt_dofadr[id]] += m->wrap_prm[w];
      }
      d->ten_length[t] = len;
    } else {
      d->ten_length[t] = spatialTendon(m, d, t, jrow);
    }
    npoint += d->ten_wrapnum[t];
  }
}

// ---- transmissions -----------------------------------------------------------------------------

// slider-crank: the crank pin s (cranksite) drives a rod of length r whose other end slides
// along the z axis a of the slider site p; with v = s - p the slider position along a is
//   length = a'v - sqrt(det),  det = (a'v)^2 + r^2 - v'v
// (a'v when det <= 0: the rod cannot reach the axis), and by the chain rule
//   d length = dl/dv' dv + dl/da' da,  dl/dv = a (1 - a'v/sqrt(det)) + v/sqrt(det),
//   dl/da = v (1 - a'v/sqrt(det))  (dl/dv = a, dl/da = v when det <= 0),
// dv = (J_s - J_p) dq and da = Jr_p dq x a; all scaled by gear[0].  The moment goes to the
// dense row `moment`; jac holds 9 nv numbers
static void sliderCrank(const mjModel* m, mjData* d, int a, mjtNum* moment, mjtNum* jac) {
  int nv = m->nv, crank = m->actuator_trnid[2 * a], slider = m->actuator_trnid[2 * a + 1];
  mjtNum r = m->actuator_cranklength[a], gear = m->actuator_gear[6 * a];
  const mjtNum* smat = d->site_xmat + 9 * slider;
  mjtNum axis[3] = {smat[2], smat[5], smat[8]}, v[3];
  mju_sub3(v, d->site_xpos + 3 * crank, d->site_xpos + 3 * slider);

  // length and its derivatives with respect to v and the axis
  mjtNum av = mju_dot3(axis, v), det = av * av + r * r - mju_dot3(v, v);
  mjtNum dldv[3], dlda[3];
  if (det <= 0) {
    d->actuator_length[a] = av;
    mju_copy3(dldv, axis);
    mju_copy3(dlda, v);
  } else {
    mjtNum sdet = sqrt(det), c = 1 - av / sdet;
    d->actuator_length[a] = av - sdet;
    for (int k = 0; k < 3; k++) {
      dldv[k] = axis[k] * c + v[k] / sdet;
      dlda[k] = v[k] * c;
    }
  }

  // moment = (J_s - J_p)' dldv + (Jr_p x a)' dlda, with (w x a).x = w.(a x x)
  mjtNum *jacp = jac, *jacs = jac + 3 * nv, *jacr = jac + 6 * nv, axd[3];
  mj_jacSite(m, d, jacp, jacr, slider);
  mj_jacSite(m, d, jacs, NULL, crank);
  mju_cross(axd, axis, dlda);
  for (int i = 0; i < nv; i++) {
    mjtNum s = 0;
    for (int k = 0; k < 3; k++)
      s += (jacs[k * nv + i] - jacp[k * nv + i]) * dldv[k] + jacr[k * nv + i] * axd[k];
    moment[i] = gear * s;
  }
  d->actuator_length[a] *= gear;
}

// the orientation MuJoCo 3.5.1 gives a site in site transmissions: site_quat * xquat of its
// body, the factors in the reverse of the frame composition (xquat * site_quat, the frame of
// site_xmat); the two agree when the body or the site is not rotated
static void siteQuat(const mjModel* m, const mjData* d, int s, mjtNum q[4]) {
  mju_mulQuat(q, m->site_quat + 4 * s, d->xquat + 4 * m->site_bodyid[s]);
}

// site transmission: without a reference site, length 0 and the gear is a wrench in the site
// frame, moment = J' (R gear); with refsite q, the site's position and rotation relative to
// q in q's frame, length = gear . (R_q'(x_s - x_q), subQuat(quat_s, quat_q)) (quaternions of
// siteQuat), and moment the Jacobian rows R_q'(J_s - J_q) projected on the gear (for the
// rotation, the relative angular velocity: the derivative of subQuat at zero rotation).  The
// moment goes to the dense row `moment`; jac holds 12 nv numbers
static void siteTransmission(const mjModel* m, mjData* d, int a, mjtNum* moment, mjtNum* jac) {
  int nv = m->nv, s = m->actuator_trnid[2 * a], ref = m->actuator_trnid[2 * a + 1];
  const mjtNum* gear = m->actuator_gear + 6 * a;
  mjtNum *jacp = jac, *jacr = jac + 3 * nv, *refp = jac + 6 * nv, *refr = jac + 9 * nv;
  mjtNum wrench[6];
  mj_jacSite(m, d, jacp, jacr, s);
  d->actuator_length[a] = 0;
  if (ref < 0) {
    // the gear in the world frame
    mju_mulMatVec3(wrench, d->site_xmat + 9 * s, gear);
    mju_mulMatVec3(wrench + 3, d->site_xmat + 9 * s, gear + 3);
  } else {
    // relative position and rotation in the reference frame
    const mjtNum* rmat = d->site_xmat + 9 * ref;
    mjtNum dif[3], vec[3], q[4], qref[4];
    mju_sub3(dif, d->site_xpos + 3 * s, d->site_xpos + 3 * ref);
    mju_mulMatTVec3(vec, rmat, dif);
    d->actuator_length[a] += mju_dot3(vec, gear);
    siteQuat(m, d, s, q);
    siteQuat(m, d, ref, qref);
    mju_subQuat(vec, q, qref);
    d->actuator_length[a] += mju_dot3(vec, gear + 3);

    // relative Jacobians, the gear turned into the world frame
    mj_jacSite(m, d, refp, refr, ref);
    mju_subFrom(jacp, refp, 3 * nv);
    mju_subFrom(jacr, refr, 3 * nv);
    // the dofs above both sites move them alike: no moment (MuJoCo clears their columns)
    int j1 = mj_bodyLastDof(m, m->site_bodyid[s]), j2 = mj_bodyLastDof(m, m->site_bodyid[ref]);
    for (int j = mj_commonDof(m, j1, j2); j >= 0; j = m->dof_parentid[j])
      for (int k = 0; k < 3; k++) jacp[k * nv + j] = jacr[k * nv + j] = 0;
    mju_mulMatVec3(wrench, rmat, gear);
    mju_mulMatVec3(wrench + 3, rmat, gear + 3);
  }
  mju_mulMatTVec(moment, jacp, wrench, 3, nv);
  for (int i = 0; i < nv; i++)
    moment[i] += jacr[i] * wrench[3] + jacr[nv + i] * wrench[4] + jacr[2 * nv + i] * wrench[5];
}

// moment(nv) of an adhesion actuator on body `body`: minus the mean of the normal Jacobians of
// the contacts touching the body (so that positive force pulls it onto what it touches); a
// contact with constraint rows gives its normal row of efc_J (pyramidal cones: the mean of the
// first two pyramid rows, J_n + mu J_t and J_n - mu J_t), one in the gap (no rows) the normal
// projection of the difference of the two bodies' point Jacobians; jrow(nv) is scratch
static void bodyTransmission(const mjModel* m, const mjData* d, int body, mjtNum* moment,
                             mjtNum* jrow) {
  int nv = m->nv, count = 0;
  int pyramidal = m->opt.cone == mjCONE_PYRAMIDAL;
  mju_zero(moment, nv);
  for (int i = 0; i < d->ncon; i++) {
    const mjContact* con = d->contact + i;
    int b1 = m->geom_bodyid[con->geom[0]], b2 = m->geom_bodyid[con->geom[1]];
    if ((b1 != body && b2 != body) || con->exclude > 1) continue;
    int adr = con->efc_address;
    if (adr >= 0) {
      mj_efcRow(m, d, adr, jrow);
      if (pyramidal && con->dim > 1) {
        mjtNum* second = jrow + nv;  // the row after, in the scratch's second half
        mj_efcRow(m, d, adr + 1, second);
        mju_addTo(jrow, second, nv);
        mju_scl(jrow, jrow, 0.5, nv);
      }
    } else {
      // n' (J2 - J1) at the contact point
      mju_zero(jrow, nv);
      mj_addJacPointDot(m, d, jrow, con->pos, b2, con->frame, 1);
      mj_addJacPointDot(m, d, jrow, con->pos, b1, con->frame, -1);
    }
    mju_addTo(moment, jrow, nv);
    count++;
  }
  if (count) mju_scl(moment, moment, -1.0 / count, nv);
}

// the last dof moving wrap point k of a spatial tendon: of a site's or a wrapping geom's
// body; -1 for a pulley
static int wrapLastDof(const mjModel* m, int k) {
  int type = m->wrap_type[k], id = m->wrap_objid[k];
  if (type == mjWRAP_SITE) return mj_bodyLastDof(m, m->site_bodyid[id]);
  if (type == mjWRAP_SPHERE || type == mjWRAP_CYLINDER)
    return mj_bodyLastDof(m, m->geom_bodyid[id]);
  return -1;
}

// the dofs tendon t can move, MuJoCo's bound on its Jacobian's non-zeros: a fixed tendon's
// joint count, a spatial tendon's union of the chains of its points' bodies (each chain less
// the longest part an earlier point's chain shares with it)
static int tendonDofs(const mjModel* m, int t) {
  int adr = m->tendon_adr[t], end = adr + m->tendon_num[t], n = 0;
  if (m->wrap_type[adr] == mjWRAP_JOINT) return m->tendon_num[t];
  for (int k = adr; k < end; k++) {
    int last = wrapLastDof(m, k), shared = 0;
    for (int i = adr; i < k && last >= 0; i++) {
      int c = mj_chainLength(m, mj_commonDof(m, last, wrapLastDof(m, i)));
      if (c > shared) shared = c;
    }
    n += mj_chainLength(m, last) - shared;
  }
  return n;
}

// the most non-zeros of actuator a's moment row (MuJoCo's count, summed into nJmom): a
// joint's dofs; a tendon's dofs; the chains of a slider-crank's two sites merged; the chains
// of a site and its reference site without their common part (which moves both alike); nv
// for a body
int mj_momentMax(const mjModel* m, int a) {
  int type = m->actuator_trntype[a], id = m->actuator_trnid[2 * a];
  int ref = m->actuator_trnid[2 * a + 1];
  if (id < 0) return 0;
  switch (type) {
    case mjTRN_JOINT:
    case mjTRN_JOINTINPARENT: {
      int jtype = m->jnt_type[id];
      return jtype == mjJNT_FREE ? 6 : jtype == mjJNT_BALL ? 3 : 1;
    }
    case mjTRN_TENDON: return tendonDofs(m, id);
    case mjTRN_SLIDERCRANK:
    case mjTRN_SITE: {
      int j1 = mj_bodyLastDof(m, m->site_bodyid[id]);
      int j2 = ref >= 0 ? mj_bodyLastDof(m, m->site_bodyid[ref]) : -1;
      int common = mj_chainLength(m, mj_commonDof(m, j1, j2));
      return mj_chainLength(m, j1) + mj_chainLength(m, j2) -
             (type == mjTRN_SITE ? 2 : 1) * common;
    }
    default: return m->nv;
  }
}

// row(nv) = actuator a's moment, dense
void mj_momentRow(const mjModel* m, const mjData* d, int a, mjtNum* row) {
  mju_zero(row, m->nv);
  for (int k = 0; k < d->moment_rownnz[a]; k++) {
    int adr = d->moment_rowadr[a] + k;
    row[d->moment_colind[adr]] = d->actuator_moment[adr];
  }
}

// actuator a's compressed moment row from the dense row(nv) times scl: its non-zeros
static void compressRow(const mjModel* m, mjData* d, int a, const mjtNum* row, mjtNum scl) {
  int adr = d->moment_rowadr[a], n = 0;
  for (int i = 0; i < m->nv; i++) {
    if (!row[i]) continue;
    d->moment_colind[adr + n] = i;
    d->actuator_moment[adr + n++] = scl * row[i];
  }
  d->moment_rownnz[a] = n;
}

// actuator_length and actuator_moment (rows packed in actuator order): joint (hinge, slide:
// gear qpos; ball and free: moment = gear on the joint's dofs, rotated for jointinparent; ball
// length gear . rotation vector, free length 0), tendon (gear ten_length, gear ten_J),
// slider-crank, site and body (adhesion: from the contacts, so after mj_makeConstraint)
void mj_transmission(const mjModel* m, mjData* d) {
  int nv = m->nv, adr = 0;
  size_t mark = mj_markStack(d);
  mjtNum *jac = NULL, *row = NULL;
  for (int a = 0; a < m->nu; a++) {
    const mjtNum* gear = m->actuator_gear + 6 * a;
    int id = m->actuator_trnid[2 * a], type = m->actuator_trntype[a];
    mjtNum* moment = d->actuator_moment + adr;
    d->moment_rowadr[a] = adr;
    d->moment_rownnz[a] = 0;
    d->actuator_length[a] = 0;
    if (id < 0) continue;
    if ((type == mjTRN_SITE || type == mjTRN_SLIDERCRANK || type == mjTRN_BODY) && !jac) {
      jac = mj_stackAlloc(d, 12 * (size_t)nv);
      row = mj_stackAlloc(d, (size_t)nv);
    }
    switch (type) {
      case mjTRN_JOINT:
      case mjTRN_JOINTINPARENT: {
        int jtype = m->jnt_type[id], dof = m->jnt_dofadr[id], n = mj_momentMax(m, a);
        const mjtNum* q = d->qpos + m->jnt_qposadr[id];
        d->moment_rownnz[a] = n;
        for (int k = 0; k < n; k++) d->moment_colind[adr + k] = dof + k;
        if (jtype == mjJNT_HINGE || jtype == mjJNT_SLIDE) {
          d->actuator_length[a] = gear[0] * q[0];
          moment[0] = gear[0];
          break;
        }
        // ball and free: the rotational gear acts in the child frame; jointinparent gives it
        // in the parent frame, so it turns by the inverse joint rotation: R(q)' gear
        int rot = jtype == mjJNT_FREE ? 3 : 0;
        const mjtNum* quat = q + (jtype == mjJNT_FREE ? 3 : 0);
        mju_copy(moment, gear, rot + 3);
        if (type == mjTRN_JOINTINPARENT) {
          mjtNum qinv[4];
          mju_negQuat(qinv, quat);
          mju_rotVecQuat(moment + rot, gear + rot, qinv);
        }
        // a ball's length is the gear times its rotation vector (invariant under R); free: 0
        if (jtype == mjJNT_BALL) {
          mjtNum rotvec[3];
          mju_quat2Vel(rotvec, quat, 1);
          d->actuator_length[a] = mju_dot3(moment, rotvec);
        }
        break;
      }
      case mjTRN_TENDON:
        d->actuator_length[a] = gear[0] * d->ten_length[id];
        compressRow(m, d, a, d->ten_J + (size_t)id * nv, gear[0]);
        break;
      case mjTRN_SLIDERCRANK:
        sliderCrank(m, d, a, row, jac);
        compressRow(m, d, a, row, 1);
        break;
      case mjTRN_SITE:
        siteTransmission(m, d, a, row, jac);
        compressRow(m, d, a, row, 1);
        break;
      case mjTRN_BODY:
        bodyTransmission(m, d, id, row, jac);
        compressRow(m, d, a, row, 1);
        break;
      default: break;
    }
    adr += d->moment_rownnz[a];
  }
  mj_freeStack(d, mark);
}

// ---- tendon armature -------------------------------------------------------------------------

// qM += armature J'J of every tendon (its actuators' included, mj_armature), within qM's
// sparsity: M(i,j) for j = i and the ancestors of i (couplings of dofs on different branches
// have no entry and are dropped, as in MuJoCo, and so are those of a simple body's dofs, whose
// rows of MuJoCo's M hold the diagonal only: an actuator's armature on a tendon through a
// simple body leaves it simple)
void mj_tendonArmature(const mjModel* m, mjData* d) {
  int nv = m->nv;
  for (int t = 0; t < m->ntendon; t++) {
    mjtNum arm = mj_armature(m, mjOBJ_TENDON, t);
    if (arm == 0) continue;
    const mjtNum* J = d->ten_J + (size_t)t * nv;
    for (int i = 0; i < nv; i++) {
      if (J[i] == 0) continue;
      mjtNum* row = d->qM + m->dof_Madr[i];
      row[0] += arm * J[i] * J[i];
      if (m->dof_simplenum[i]) continue;  // a simple body's dof: M holds its diagonal only
      int k = 1;
      for (int j = m->dof_parentid[i]; j >= 0; j = m->dof_parentid[j])
        row[k++] += arm * J[i] * J[j];
    }
  }
}

// the bias force of tendon armature: the kinetic energy armature (J qvel)^2 / 2 gives
// qfrc += J' armature (Jdot qvel).  For a site-to-site piece of length L, direction u and
// relative velocity dv, relative bias acceleration da: Jdot qvel = u'da + (dv'dv - (u'dv)^2)/L,
// divided by the branch's divisor; fixed tendons have Jdot = 0.  (MuJoCo's compiler rejects
// armature on tendons that wrap geoms, and so does mj_checkSupported.)
void mj_tendonBias(const mjModel* m, mjData* d, mjtNum* qfrc) {
  for (int t = 0; t < m->ntendon; t++) {
    mjtNum arm = mj_armature(m, mjOBJ_TENDON, t), divisor = 1, jdot = 0;
    int adr = m->tendon_adr[t], end = adr + m->tendon_num[t];
    if (arm == 0 || m->wrap_type[adr] == mjWRAP_JOINT) continue;
    for (int j = adr; j < end - 1; j++) {
      if (m->wrap_type[j] == mjWRAP_PULLEY) divisor = m->wrap_prm[j];
      if (m->wrap_type[j] != mjWRAP_SITE || m->wrap_type[j + 1] != mjWRAP_SITE) continue;
      int s0 = m->wrap_objid[j], s1 = m->wrap_objid[j + 1];
      const mjtNum *p0 = d->site_xpos + 3 * s0, *p1 = d->site_xpos + 3 * s1;
      mjtNum u[3], v0[3], v1[3], a0[3], a1[3], dv[3], da[3];
      mju_sub3(u, p1, p0);
      mjtNum len = mju_normalize3(u);
      if (len < mjMINVAL) continue;
      mj_pointBiasAcc(m, d, p0, m->site_bodyid[s0], v0, a0, NULL, NULL);
      mj_pointBiasAcc(m, d, p1, m->site_bodyid[s1], v1, a1, NULL, NULL);
      mju_sub3(dv, v1, v0);
      mju_sub3(da, a1, a0);
      mjtNum udv = mju_dot3(u, dv);
      jdot += (mju_dot3(u, da) + (mju_dot3(dv, dv) - udv * udv) / len) / divisor;
    }
    mju_addToScl(qfrc, d->ten_J + (size_t)t * m->nv, arm * jdot, m->nv);
  }
}
