// collision_convex.c: the convex pairs without an analytic function, through libccd's
// Minkowski Portal Refinement (ccdMPRPenetration) on the geoms' support functions, each geom
// inflated by half the margin.  Tolerance and iterations: m->opt.ccd_tolerance and
// ccd_iterations.  MPR gives the depth and the contact point; its direction (the portal's, set
// by the line between the centers) is replaced, as MuJoCo 3.5.1 does on its libccd path, by the
// surface normals of the smooth geoms at the contact point (see mjc_refineNormal).
#include "engine/collision.h"

#include <ccd/ccd.h>
#include <math.h>

#include "util/util.h"

// a geom as libccd sees it
typedef struct {
  const mjModel* m;
  int geom;
  const mjtNum *pos, *mat;  // its pose
  mjtNum margin;            // the pair's margin: half of it is added in every direction
  const mjtNum (*prism)[3];  // or a height field prism (mjGeomPair), pos and mat unused
  int* warm;                 // a mesh's hull vertex where the next support climb starts
} ConvexObj;

// sign(x): -1, 0 or +1
static mjtNum sign(mjtNum x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }

// libccd support callback, in the forms MuJoCo's libccd path uses (they differ from
// collision_gjk.c's, which follow its native GJK): the direction l = R'dir as given, a flat
// side met head-on (l_k = 0) gives its middle (sign 0), the margin added in the geom frame,
// res = pos + R (support(l) + l margin/2)
static void support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* vec) {
  const ConvexObj* o = obj;
  if (o->prism) {
    mjc_prismSupport(o->prism, dir->v, vec->v);
    return;
  }
  int g = o->geom;
  const mjtNum* mat = o->mat;
  const mjtNum* s = o->m->geom_size + 3 * g;
  mjtNum l[3], r[3];
  mju_mulMatTVec3(l, mat, dir->v);
  switch (o->m->geom_type[g]) {
  case mjGEOM_SPHERE:
    mju_scl3(r, l, s[0]);
    break;

  // the sphere at the end nearer l
  case mjGEOM_CAPSULE:
    mju_scl3(r, l, s[0]);
    r[2] += sign(l[2]) * s[1];
    break;

  // s o normalize(s o l)
  case mjGEOM_ELLIPSOID:
    for (int k = 0; k < 3; k++) r[k] = l[k] * s[k];
    mju_normalize3(r);
    for (int k = 0; k < 3; k++) r[k] *= s[k];
    break;

  // the rim along l's xy part, the cap nearer l
  case mjGEOM_CYLINDER: {
    mjtNum len = sqrt(l[0] * l[0] + l[1] * l[1]);
    r[0] = len > mjMINVAL ? l[0] / len * s[0] : 0;
    r[1] = len > mjMINVAL ? l[1] / len * s[0] : 0;
    r[2] = sign(l[2]) * s[1];
    break;
  }

  case mjGEOM_BOX:
    for (int k = 0; k < 3; k++) r[k] = sign(l[k]) * s[k];
    break;

  case mjGEOM_MESH:
    mjc_meshSupport(o->m, g, l, o->warm, r);
    break;

  default:
    mju_zero3(r);
  }
  for (int k = 0; k < 3; k++) r[k] += l[k] * o->margin / 2;
  mju_mulMatVec3(vec->v, mat, r);
  for (int k = 0; k < 3; k++) vec->v[k] += o->pos[k];
}

// libccd center callback: the geom's center, a prism's mean corner
static void center(const void* obj, ccd_vec3_t* c) {
  const ConvexObj* o = obj;
  for (int k = 0; k < 3; k++) c->v[k] = o->pos[k];
  if (!o->prism) return;
  for (int k = 0; k < 3; k++) {
    c->v[k] = 0;
    for (int i = 0; i < 6; i++) c->v[k] += o->prism[i][k];
    c->v[k] *= 1.0 / 6;
  }
}

// the ellipsoid normals MuJoCo's refinement uses (semi-axes s, point y in the local frame),
// both iterations stopping at 1e-6 as MuJoCo's do, so the normal is that approximation:
// inside (y's x'S^-2 x - 1 = C <= 0), from the current direction n, the ray y + x n (x >= 0)
// meets the surface where A x^2 + 2 B x + C = 0 (A = n'S^-2 n, B = y'S^-2 n), and n becomes
// the surface gradient S^-2 (y + x n) normalized, until it moves by less than 1e-6 (at most 30
// times); returns 0 when the first ray finds no crossing
static int ellipsoidInside(mjtNum n[3], const mjtNum y[3], const mjtNum s[3]) {
  mjtNum inv[3] = {1 / (s[0] * s[0]), 1 / (s[1] * s[1]), 1 / (s[2] * s[2])};
  mjtNum C = y[0] * y[0] * inv[0] + y[1] * y[1] * inv[1] + y[2] * y[2] * inv[2] - 1;
  if (C > 0) return 0;
  mju_normalize3(n);
  for (int iter = 0; iter < 30; iter++) {
    mjtNum A = n[0] * n[0] * inv[0] + n[1] * n[1] * inv[1] + n[2] * n[2] * inv[2];
    mjtNum B = y[0] * n[0] * inv[0] + y[1] * n[1] * inv[1] + y[2] * n[2] * inv[2];
    mjtNum det = B * B - A * C;
    if (det < mjMINVAL || A < mjMINVAL) return iter > 0;
    mjtNum x = (-B + sqrt(det)) / A;
    if (x < 0) return iter > 0;
    mjtNum g[3];
    for (int k = 0; k < 3; k++) g[k] = (y[k] + n[k] * x) * inv[k];
    mju_normalize3(g);
    mjtNum change = mju_dist3(n, g);
    mju_copy3(n, g);
    if (change < 1e-6) break;
  }
  return 1;
}

// outside: the nearest surface point s^2 o y / (s^2 + la), la the root of
// f(la) = sum_k s_k^2 y_k^2 / (s_k^2 + la)^2 - 1 by Newton from la = 0, stopping when f, or the
// step, falls under 1e-6 (at most 30 steps); n = y / (s^2 + la) normalized
static void ellipsoidOutside(mjtNum n[3], const mjtNum y[3], const mjtNum s[3]) {
  mjtNum s2[3] = {s[0] * s[0], s[1] * s[1], s[2] * s[2]};
  mjtNum ps2[3] = {y[0] * y[0] * s2[0], y[1] * y[1] * s2[1], y[2] * y[2] * s2[2]};
  mjtNum la = 0;
  for (int iter = 0; iter < 30; iter++) {
    mjtNum r[3] = {1 / (s2[0] + la), 1 / (s2[1] + la), 1 / (s2[2] + la)};
    mjtNum f = ps2[0] * r[0] * r[0] + ps2[1] * r[1] * r[1] + ps2[2] * r[2] * r[2] - 1;
    if (f < 1e-6) break;
    mjtNum df = -2 * (ps2[0] * r[0] * r[0] * r[0] + ps2[1] * r[1] * r[1] * r[1] +
                      ps2[2] * r[2] * r[2] * r[2]);
    if (df > -mjMINVAL) break;
    mjtNum step = -f / df;
    if (step < 1e-6) break;
    la += step;
  }
  for (int k = 0; k < 3; k++) n[k] = y[k] / (s2[k] + la);
  mju_normalize3(n);
}

// the outward unit normal n of geom g (at pos, mat) at the world point p, as MuJoCo refines
// contact normals (cur: the current normal, outward for g): sphere from the center, capsule
// from the axis segment, ellipsoid by ellipsoidInside/Outside, cylinder radial when the point
// is off the caps (|z| <= 0.95 half-height) and not 4x nearer the cap's plane than the round
// wall; returns 0 for other geoms and where no normal is found
static int geomNormal(const mjModel* m, int g, const mjtNum pos[3], const mjtNum mat[9],
                      const mjtNum p[3], const mjtNum cur[3], mjtNum n[3]) {
  const mjtNum* s = m->geom_size + 3 * g;
  mjtNum dif[3], y[3], local[3];
  mju_sub3(dif, p, pos);
  mju_mulMatTVec3(y, mat, dif);
  mju_mulMatTVec3(local, mat, cur);

  switch (m->geom_type[g]) {
  case mjGEOM_SPHERE:
    mju_copy3(local, y);
    break;

  // y minus its projection on the segment z in [-s1, s1]
  case mjGEOM_CAPSULE:
    mju_copy3(local, y);
    local[2] = y[2] < -s[1] ? y[2] + s[1] : y[2] > s[1] ? y[2] - s[1] : 0;
    break;

  case mjGEOM_ELLIPSOID:
    if (s[0] < mjMINVAL || s[1] < mjMINVAL || s[2] < mjMINVAL) return 0;
    if (y[0] * y[0] / (s[0] * s[0]) + y[1] * y[1] / (s[1] * s[1]) +
        y[2] * y[2] / (s[2] * s[2]) <= 1) {
      if (!ellipsoidInside(local, y, s)) return 0;
    } else {
      ellipsoidOutside(local, y, s);
    }
    break;

  case mjGEOM_CYLINDER:
    if (fabs(y[2]) > 0.95 * s[1]) return 0;
    if (fabs(s[1] - fabs(y[2])) < 0.25 * fabs(s[0] - sqrt(y[0] * y[0] + y[1] * y[1]))) return 0;
    local[0] = y[0];
    local[1] = y[1];
    local[2] = 0;
    break;

  default:
    return 0;
  }
  mju_normalize3(local);
  mju_mulMatVec3(n, mat, local);
  return 1;
}

// replace the MPR normal (from g1 to g2) by the surface normals of g1 and of g2 (negated) at
// the contact point: normalize(n1 - n2) when both exist, else the one that does
void mjc_refineNormal(const mjModel* m, const mjGeomPair* gp, const mjtNum pos[3],
                      mjtNum normal[3]) {
  mjtNum n1[3], n2[3], rev[3];
  mju_scl3(rev, normal, -1);
  int has1 = geomNormal(m, gp->g[0], gp->pos[0], gp->mat[0], pos, normal, n1);
  int has2 = geomNormal(m, gp->g[1], gp->pos[1], gp->mat[1], pos, rev, n2);
  if (has1 && has2) {
    mju_sub3(normal, n1, n2);
    mju_normalize3(normal);
  } else if (has1) {
    mju_copy3(normal, n1);
  } else if (has2) {
    mju_scl3(normal, n2, -1);
  }
}

// one contact from MPR on the inflated geoms: dist = margin - depth, pos libccd's contact
// point, the normal from g1 to g2 refined from the geoms' surfaces (mjc_refineNormal), none when
// MPR gives no direction; with nativeccd on (the default), GJK and EPA instead
// (collision_gjk.c)
int mjc_ConvexPair(const mjModel* m, const mjGeomPair* gp, mjContact* con, mjtNum margin,
                   int warm[2]) {
  if (!(m->opt.disableflags & mjDSBL_NATIVECCD)) return mjc_ConvexNative(m, gp, con, margin, warm);
  ConvexObj o1 = {m, gp->g[0], gp->pos[0], gp->mat[0], margin, gp->prism[0], warm};
  ConvexObj o2 = {m, gp->g[1], gp->pos[1], gp->mat[1], margin, gp->prism[1], warm + 1};
  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.support1 = ccd.support2 = support;
  ccd.center1 = ccd.center2 = center;
  ccd.max_iterations = (unsigned long)m->opt.ccd_iterations;
  ccd.mpr_tolerance = m->opt.ccd_tolerance;
  ccd.epa_tolerance = m->opt.ccd_tolerance;

  ccd_real_t depth;
  ccd_vec3_t dir, pos;
  if (ccdMPRPenetration(&o1, &o2, &ccd, &depth, &dir, &pos) != 0) return 0;
  if (dir.v[0] == 0 && dir.v[1] == 0 && dir.v[2] == 0) return 0;  // no direction: none
  con->dist = margin - depth;
  for (int k = 0; k < 3; k++) {
    con->pos[k] = pos.v[k];
    con->frame[k] = dir.v[k];
  }
  mjc_refineNormal(m, gp, con->pos, con->frame);
  mju_zero3(con->frame + 3);
  con->clip[0] = con->clip[1] = 0;
  mju_zero(con->clipvec, 9);
  return 1;
}

// turn the pose (pos, mat) by rot about the point o: mat = rot mat,
// pos -= rot (o - pos) - (o - pos)
static void turnAbout(const mjtNum o[3], const mjtNum rot[9], mjtNum pos[3], mjtNum mat[9]) {
  mjtNum r[9], rel[3], move[3];
  mju_mulMatMat(r, rot, mat, 3, 3, 3);
  mju_copy9(mat, r);
  mju_sub3(rel, o, pos);
  mju_mulMatVec3(move, rot, rel);
  mju_sub3(move, move, rel);
  mju_sub3(pos, pos, move);
}

// the poses of multiccd's turned copy `turn` (mjContact's turn) of gp about the first
// contact's point c and unit normal n: rot the turn by sign(turn) mjTURNANGLE about row
// |turn| of mju_makeFrame(n), from its quaternion; g1 turned by rot about c, g2 by rot'
// (pos, mat: their storage, turned: the pair)
void mjc_turnPair(const mjGeomPair* gp, const mjtNum c[3], const mjtNum n[3], int turn,
                  mjtNum rot[9], mjtNum pos[2][3], mjtNum mat[2][9], mjGeomPair* turned) {
  mjtNum frame[9], rott[9];
  int axis = turn < 0 ? -turn : turn;
  mju_copy3(frame, n);
  mju_makeFrame(frame);
  mjtNum half = 0.5 * (turn < 0 ? -1 : 1) * mjTURNANGLE, quat[4] = {cos(half), 0, 0, 0};
  for (int k = 0; k < 3; k++) quat[1 + k] = frame[3 * axis + k] * sin(half);
  mju_quat2Mat(rot, quat);
  mju_transpose(rott, rot, 3, 3);
  for (int i = 0; i < 2; i++) {
    mju_copy3(pos[i], gp->pos[i]);
    mju_copy9(mat[i], gp->mat[i]);
    turnAbout(c, i ? rott : rot, pos[i], mat[i]);
  }
  *turned = (mjGeomPair){{gp->g[0], gp->g[1]}, {pos[0], pos[1]}, {mat[0], mat[1]}, {NULL, NULL}};
}

int mjc_queryContacts(const mjModel* m, int g1, int g2, mjtNum margin) {
  int t1 = m->geom_type[g1], t2 = m->geom_type[g2];
  if (margin > 0) return 1;
  if (t1 == mjGEOM_BOX && t2 == mjGEOM_BOX) return 8;
  int faces1 = t1 == mjGEOM_BOX || t1 == mjGEOM_MESH || t1 == mjGEOM_CYLINDER;
  int faces2 = t2 == mjGEOM_BOX || t2 == mjGEOM_MESH || t2 == mjGEOM_CYLINDER;
  return faces1 && faces2 && !(m->opt.disableflags & mjDSBL_MULTICCD) ? 4 : 1;
}

// whether multiccd's turned tries look for more contacts of the pair (mjc_Convex): multiccd
// not disabled (on by default since MuJoCo 3.8), neither geom a sphere or an ellipsoid, and
// nativeccd off or a query that gives one contact (boxes, meshes and cylinders without a
// margin get theirs from clipping instead)
int mjc_multiCCD(const mjModel* m, int g1, int g2, mjtNum margin) {
  int t1 = m->geom_type[g1], t2 = m->geom_type[g2];
  if (m->opt.disableflags & mjDSBL_MULTICCD) return 0;
  if (t1 == mjGEOM_SPHERE || t1 == mjGEOM_ELLIPSOID || t2 == mjGEOM_SPHERE ||
      t2 == mjGEOM_ELLIPSOID)
    return 0;
  return (m->opt.disableflags & mjDSBL_NATIVECCD) || mjc_queryContacts(m, g1, g2, margin) == 1;
}

// the pair's contacts: those of mjc_ConvexPair; when it gives one and mjc_multiCCD holds, four
// more tries with g1 turned by +-1e-3 rad about each tangent axis of the first contact's frame
// through its point, and g2 turned back (mjc_turnPair), each new contact kept (with the first
// one's dist, its own in turndist, the turn in turn) when farther than 1e-3 min(rbound) from
// all before
int mjc_Convex(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
               mjtNum margin) {
  mjGeomPair gp = {{g1, g2}, {d->geom_xpos + 3 * g1, d->geom_xpos + 3 * g2},
                   {d->geom_xmat + 9 * g1, d->geom_xmat + 9 * g2}, {NULL, NULL}};
  int warm[2] = {-1, -1};
  int ncon = mjc_ConvexPair(m, &gp, con, margin, warm);
  for (int i = 0; i < ncon; i++) con[i].turn = 0, con[i].turndist = 0;
  if (ncon != 1 || !mjc_multiCCD(m, g1, g2, margin)) return ncon;

  mjtNum tol = 1e-3 * fmin(m->geom_rbound[g1], m->geom_rbound[g2]);
  for (int axis = 1; axis <= 2; axis++) {
    for (int sg = -1; sg <= 1; sg += 2) {
      // the turned copies, and a contact there
      mjtNum rot[9], pos[2][3], mat[2][9];
      mjGeomPair turned;
      mjc_turnPair(&gp, con[0].pos, con[0].frame, sg * axis, rot, pos, mat, &turned);
      if (!mjc_ConvexPair(m, &turned, con + ncon, margin, warm)) continue;
      int distinct = 1;
      for (int i = 0; i < ncon; i++)
        if (mju_dist3(con[i].pos, con[ncon].pos) <= tol) distinct = 0;
      if (!distinct) continue;
      con[ncon].turn = sg * axis;
      con[ncon].turndist = con[ncon].dist;
      con[ncon++].dist = con[0].dist;
    }
  }
  return ncon;
}
