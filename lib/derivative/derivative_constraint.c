// derivative_constraint.c: the constraint stage of the analytic derivatives (derivative.h).
// At the solution of the soft-constraint problem, whatever solver found it, the acceleration
// a satisfies  M (a - a_s) - J' f(J a - aref) = 0,  f the forces of each row's cost at its
// state (0 satisfied or saturated friction loss, -D jar quadratic, the cone's in the middle
// zone of an elliptic contact).  Differentiating by theta (the tangent of qpos, qvel, act, u):
//   (M + J'HJ) da = G0 + dJ'f - J'H (dJ a - daref) + J'(f . g . dviol)
// G0 = d qfrc_smooth - dM a (the smooth stage's G at a), H the Hessian of the row costs (D on
// quadratic rows, the cone block, 0 else), viol a row's violation (pos - margin; a contact's
// normal distance on all its rows), g = imp'/(imp (1 - imp)) the slope of log D by viol
// (D = imp / ((1 - imp) diagApprox), diagApprox fixed) and, with K, B fixed by solref,
//   aref = -B (J v) - K imp(viol) (pos - margin) + R(viol) delta
//   daref/dq = -B (dJ v) - (K (imp + imp' (pos - margin)) - R' delta) dviol,   daref/dv = -B J
// (delta a row's adhesion, 0 but on adhesive contacts, whose passive pull J_n'(-delta) turns
// with the normal row as its force does: dJ'f takes f less delta on the normal).
// Joint and fixed-tendon limits and friction loss have constant rows, a limit's viol moving
// as its row; so does a joint or fixed-tendon equality's, pos = x1 - P(x2), whose row
// J1 - P'(x2) J2 turns with P''.  A connect or weld equality's rows are the difference of
// its anchors' velocities (and bodies' turning), its violation |pos| (bodyEqColumn).  A
// contact's basis row u'(v_b2(p) - v_b1(p)) (u a frame axis, p the contact point, v_b(p) the
// velocity at p of a point fixed to body b; rotational rows u'(w_b2 - w_b1)) moves as
// perturbing dof k moves k's subtree by the twist S = cdof_k about its tree's com (d cdof_j
// = S x cdof_j for the dofs after k, as in mjd_rneDerivative) and as the pair's geometry
// moves the point, the frame and the distance (contactMotion): on a plane and between round
// geoms in closed form; for the other pairs, collided in closed form or by GJK/EPA, by the
// witness points' features (featureSystem: each side's vertex, edge, face, tube or curved
// surface, a mesh's by its hull's support set, the points sliding over them and the normal
// turning to keep them apart along it); multiccd's clipped faces by the lines each point lies
// on, as the clipper recorded them (clipMotion); multiccd's turned copies as contacts of the
// turned poses, which turn about the first contact's moving point and tangent (turnedTwists).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/collision.h"
#include "engine/constraint.h"
#include "derivative/derivative.h"
#include "engine/forward.h"
#include "engine/smooth.h"
#include "engine/solver.h"
#include "util/util.h"

// ---- what is differentiated --------------------------------------------------------------------

// how contacts between geom types t1 <= t2 are differentiated: a sphere, a capsule, a
// cylinder, a box or a mesh on a plane (PAIR_PLANE), a sphere or a capsule against a sphere
// or a capsule (PAIR_ROUND), the other pairs the engine collides in closed form (an
// ellipsoid on a plane, a sphere on a cylinder, a sphere, a capsule or a box on a box) and
// the general convex solver's (GJK/EPA) by their features at the witness points
// (PAIR_FEATURE), height fields' prisms among them (GJK/EPA per prism, the normal refined
// from a round geom's surface, which keeps the ideal contact's); not SDFs (PAIR_NONE).  EPA's
// contact is its iterate: on polytopes (boxes, meshes' hulls, prisms, a sphere's or a
// capsule's core) a true facet of the Minkowski difference, so the ideal contact itself; on
// curved geoms within opt.ccd_tolerance of the ideal contact, whose derivative this is
enum { PAIR_NONE = 0, PAIR_PLANE, PAIR_ROUND, PAIR_FEATURE };
static int pairKind(int t1, int t2) {
  int round1 = t1 == mjGEOM_SPHERE || t1 == mjGEOM_CAPSULE;
  int round2 = t2 == mjGEOM_SPHERE || t2 == mjGEOM_CAPSULE;
  mjfCollision fn = mj_collisionFunc[t1][t2];
  if (t1 == mjGEOM_PLANE) return t2 == mjGEOM_ELLIPSOID ? PAIR_FEATURE
                                 : t2 == mjGEOM_HFIELD || t2 == mjGEOM_SDF ? PAIR_NONE
                                                                           : PAIR_PLANE;
  if (round1 && round2) return PAIR_ROUND;
  if ((t2 == mjGEOM_BOX && (round1 || t1 == mjGEOM_BOX)) ||
      (t1 == mjGEOM_SPHERE && t2 == mjGEOM_CYLINDER) || fn == mjc_Convex ||
      fn == mjc_ConvexHField)
    return PAIR_FEATURE;
  return PAIR_NONE;
}

// 1 when a contact of geoms g1, g2 may have been collided with a margin: theirs, an explicit
// pair's or the override's (collision_driver.c)
static int mayHaveMargin(const mjModel* m, int g1, int g2) {
  if (m->opt.enableflags & mjENBL_OVERRIDE) return m->opt.o_margin != 0;
  for (int i = 0; i < m->npair; i++) {
    int p1 = m->pair_geom1[i], p2 = m->pair_geom2[i];
    if (((p1 == g1 && p2 == g2) || (p1 == g2 && p2 == g1)) && m->pair_margin[i] != 0) return 1;
  }
  return m->geom_margin[g1] + m->geom_margin[g2] != 0;
}

static int featureDetermined(const mjModel* m, const mjGeomPair* gp, const mjContact* con);
static int witnessesOnHulls(const mjModel* m, const mjGeomPair* gp, const mjContact* con);
static int normalReversed(const mjModel* m, const mjGeomPair* gp, const mjContact* con);
static mjGeomPair dataPair(const mjData* d, const mjContact* con);
static const mjContact* firstContact(const mjContact* con);
static void turnedCopy(const mjGeomPair* gp, const mjContact* con, mjtNum rot[9],
                       mjtNum pos[2][3], mjtNum mat[2][9], mjGeomPair* turned, mjContact* tc);

// why clipped contact con (mjContact's clip) is not differentiated, NULL when it is: a point
// on a cylinder's side line (its rim point is EPA's, not the geom's), on two side planes of
// the clipping face (an edge through a corner line), on a line parallel to the plane that
// cuts it (|u'e| < 1e-9: the crossing is undetermined), on the clipping face's plane (depth
// 0: no normal)
static const char* clipRefusal(const mjContact* con) {
  const mjtNum *e = con->clipvec + 3, *u = con->clipvec + 6;
  if (con->clip[1] == -1) return " (multiccd's clipped faces: a cylinder's side line)";
  if (con->clip[1] < 0) return " (multiccd's clipped faces: an edge through a face's corner)";
  if (con->clip[1] && fabs(mju_dot3(u, e)) < 1e-9)
    return " (multiccd's clipped faces: an edge parallel to the plane clipping it)";
  if (fabs(con->dist) < mjMINVAL) return " (multiccd's clipped faces: a point at depth 0)";
  return NULL;
}

// why contact con is not differentiated, NULL when it is: a pair of no kind (SDFs), a convex
// solver's contact from libccd's MPR (nativeccd off: its point is no witness), a clipped
// faces' contact clipRefusal refuses, a height field's contact with a margin (raised prisms,
// inflated geoms), features leaving the motion undetermined; multiccd's turned copies
// (mjContact's turn) by their features at the turned poses, and their first contact's
static const char* contactRefusal(const mjModel* m, const mjData* d, const mjContact* con) {
  int t1 = m->geom_type[con->geom1], t2 = m->geom_type[con->geom2];
  int hfield = mj_collisionFunc[t1][t2] == mjc_ConvexHField;
  int kind = pairKind(t1, t2), convex = hfield || mj_collisionFunc[t1][t2] == mjc_Convex;
  mjGeomPair gp = dataPair(d, con);
  if (!kind) return "";
  if (convex && (m->opt.disableflags & mjDSBL_NATIVECCD))
    return " (libccd's MPR contact: nativeccd disabled)";
  if (con->turn) {
    const char* why = contactRefusal(m, d, firstContact(con));
    if (why) return why;
    mjtNum rot[9], pos[2][3], mat[2][9];
    mjGeomPair turned;
    mjContact tc;
    turnedCopy(&gp, con, rot, pos, mat, &turned, &tc);
    if (!witnessesOnHulls(m, &turned, &tc)) return ", a witness off its mesh (a turned copy)";
    return featureDetermined(m, &turned, &tc) ? NULL : ", face or edge on face (a turned copy)";
  }
  if (convex && con->clip[0]) return clipRefusal(con);
  if (convex && !hfield && normalReversed(m, &gp, con))
    return " (its normal reversed: multiccd exchanged the witness points, as MuJoCo's does)";
  if (hfield && mayHaveMargin(m, con->geom1, con->geom2)) return " with a margin";
  if (kind == PAIR_FEATURE && !witnessesOnHulls(m, &gp, con)) return ", a witness off its mesh";
  return kind == PAIR_FEATURE && !featureDetermined(m, &gp, con) ? ", face or edge on face"
                                                                   : NULL;
}

// 1 when tendon t is spatial and runs straight from site to site (no wrapped geom, no pulley)
int mjd_tendonSitesOnly(const mjModel* m, int t) {
  for (int w = m->tendon_adr[t]; w < m->tendon_adr[t] + m->tendon_num[t]; w++)
    if (m->wrap_type[w] != mjWRAP_SITE) return 0;
  return 1;
}

// 0 when every constraint row of d is differentiated, else -1 and a message
int mjd_checkConstraint(const mjModel* m, const mjData* d, char* err, int errsz) {
  static const char* const gname[] = {"plane", "hfield", "sphere", "capsule", "ellipsoid",
                                      "cylinder", "box", "mesh", "sdf"};
  for (int i = 0; i < d->nefc; i++) {
    int id = d->efc_id[i], type = d->efc_type[i];
    const char* what = NULL;
    if (type == mjCNSTR_EQUALITY) {
      int et = m->eq_type[id], o1 = m->eq_obj1id[id], o2 = m->eq_obj2id[id];
      int fixed = et == mjEQ_TENDON && mjd_tendonFixed(m, o1) &&
                  (o2 < 0 || mjd_tendonFixed(m, o2));
      what = et == mjEQ_JOINT || et == mjEQ_CONNECT || et == mjEQ_WELD || fixed ? NULL
             : et == mjEQ_TENDON ? "spatial tendon equality"
                                 : "flex or distance equality";
    } else if (type == mjCNSTR_FRICTION_TENDON || type == mjCNSTR_LIMIT_TENDON) {
      what = mjd_tendonFixed(m, id) || mjd_tendonSitesOnly(m, id) ? NULL
             : "friction or limit of a spatial tendon wrapping geoms or over pulleys";
    } else if (type != mjCNSTR_FRICTION_DOF && type != mjCNSTR_LIMIT_JOINT) {
      const mjContact* con = d->contact + id;
      int t1 = m->geom_type[con->geom1], t2 = m->geom_type[con->geom2];
      const char* why = contactRefusal(m, d, con);
      if (why) {
        snprintf(err, errsz, "contact %d, %s against %s%s: not differentiated yet", id,
                 t1 < 9 && t1 >= 0 ? gname[t1] : "?", t2 < 9 && t2 >= 0 ? gname[t2] : "?", why);
        return -1;
      }
    }
    if (what) {
      snprintf(err, errsz, "constraint row %d: %s: not differentiated yet", i, what);
      return -1;
    }
  }
  return 0;
}

// ---- the motion of a contact -------------------------------------------------------------------

// vel = lin T + ang T x (x - o): the velocity at x of the twist T held about o (derivative.h)
void mjd_pointVel(mjtNum vel[3], const mjtNum T[6], const mjtNum x[3], const mjtNum o[3]) {
  mjtNum r[3];
  mju_sub3(r, x, o);
  mju_cross(vel, T, r);
  mju_addTo3(vel, T + 3);
}

// the motion dx of a point x fixed to a geom that moves by the twist S about o (mv) or not
static void fixedMotion(const mjtNum S[6], const mjtNum o[3], int mv, const mjtNum x[3],
                        mjtNum dx[3]) {
  if (mv) mjd_pointVel(dx, S, x, o);
  else mju_zero3(dx);
}

// the motion dx of the rim point x = c + k0 a' + k1 v + k2 w of cylinder g against a
// plane of normal n (moving by dn), as mjc_PlaneCylinder places it: a' = sign(a'n) a,
// v = u/|u|, u = -n + (n'a') a', w = a' x v (v the cylinder's x axis when u vanishes: then
// fixed to it), k from x - c;  dx = dc + k0 da' + k1 dv + k2 dw,  dv = (I - v v') du / |u|,
// du = -dn + (dn'a' + n'da') a' + (n'a') da',  dw = da' x v + a' x dv,  da' = w_S x a' (S the
// cylinder's twist; c, mat its pose)
static void rimMotion(const mjtNum c[3], const mjtNum mat[9], const mjtNum n[3],
                      const mjtNum dn[3], const mjtNum S[6], const mjtNum x[3],
                      const mjtNum dc[3], mjtNum dx[3]) {
  mjtNum a[3] = {mat[2], mat[5], mat[8]}, da[3], u[3], du[3], v[3];
  mjtNum dv[3], w[3], dw[3], t[3], rel[3];
  if (mju_dot3(n, a) < 0) mju_scl3(a, a, -1);
  mjtNum proj = mju_dot3(n, a);
  mju_cross(da, S, a);
  mju_scl3(u, n, -1);
  mju_addToScl3(u, a, proj);
  mjtNum unorm = mju_norm3(u);
  if (unorm < mjMINVAL) {
    v[0] = mat[0], v[1] = mat[3], v[2] = mat[6];
    mju_cross(dv, S, v);
  } else {
    mju_scl3(v, u, 1 / unorm);
    mju_scl3(du, dn, -1);
    mju_addToScl3(du, a, mju_dot3(dn, a) + mju_dot3(n, da));
    mju_addToScl3(du, da, proj);
    mju_copy3(dv, du);
    mju_addToScl3(dv, v, -mju_dot3(v, du));
    mju_scl3(dv, dv, 1 / unorm);
  }
  mju_cross(w, a, v);
  mju_cross(dw, da, v);
  mju_cross(t, a, dv);
  mju_addTo3(dw, t);
  mju_sub3(rel, x, c);
  mju_copy3(dx, dc);
  mju_addToScl3(dx, da, mju_dot3(rel, a));
  mju_addToScl3(dx, dv, mju_dot3(rel, v));
  mju_addToScl3(dx, dw, mju_dot3(rel, w));
}

// ---- contacts between surface features ------------------------------------------------------

// the shape of a geom's surface at a contact's witness point as two rows in the contact
// frame's tangent basis (t1, t2): with s the witness's slide over the surface, dn the
// normal's turn and r = P(w x n) the turn of the normal held fixed to the geom (w its
// rotation), row j reads  S_j's - g N_j'dn = -g N_j'r  (g = 1, -1: the outward normal is
// g n).  A smooth surface of curvature K (shape operator) has S = K, N = I (a flat face S =
// 0); a tube (capsule or cylinder side, radius r, axis a) S = (p/r, 0), N = (p, a), p the
// direction around it; an edge along a, across b, curving by k along it (a cylinder's rim)
// S = (b, k a), N = (0, a); a vertex S = I, N = 0.  A row with S_j = 0 fixes the normal
// alone.  A box face touched on its boundary edge (a clipped face-on-face contact) also
// keeps the witness on that edge: clip, b's = 0.  An edge e not normal to n (an incident
// box's edge in a clipped contact) lifts the witness along n as it slides: by tilt a's,
// tilt = n'e / |P e|
typedef struct {
  mjtNum S[2][2], N[2][2];  // the rows' slide and normal coefficients
  int clip;                 // a face witness on its boundary edge
  mjtNum b[2];              // clip: the direction across that edge
  mjtNum a[2], tilt;        // an edge's direction in the basis and its lift
} Feature;

// x (3) in the tangent basis t: (t1'x, t2'x) normalized; its length before
static mjtNum inBasis(mjtNum res[2], const mjtNum x[3], const mjtNum t[2][3]) {
  res[0] = mju_dot3(x, t[0]), res[1] = mju_dot3(x, t[1]);
  mjtNum len = hypot(res[0], res[1]);
  if (len > mjMINVAL) res[0] /= len, res[1] /= len;
  return len;
}

// a surface of curvature K (2x2 row-major) in f: S = K, N = I
static void surfaceRows(Feature* f, const mjtNum K[4]) {
  for (int j = 0; j < 2; j++)
    for (int k = 0; k < 2; k++) f->S[j][k] = K[2 * j + k], f->N[j][k] = j == k;
}

// a vertex in f: S = I, N = 0 (the witness held, the normal free)
static void vertexRows(Feature* f) {
  mjtNum eye[4] = {1, 0, 0, 1};
  surfaceRows(f, eye);
  mju_zero(f->N[0], 4);
}

// an edge along world direction e (3) curving by k along it in f: S = (b, k a), N = (0, a),
// its lift n'e / |P e| (n = t1 x t2)
static void edgeRows(Feature* f, const mjtNum e[3], mjtNum k, const mjtNum t[2][3]) {
  mjtNum *a = f->a, n[3];
  mju_cross(n, t[0], t[1]);
  f->tilt = mju_dot3(n, e) / fmax(mjMINVAL, inBasis(a, e, t));
  f->S[0][0] = -a[1], f->S[0][1] = a[0], f->N[0][0] = f->N[0][1] = 0;
  f->S[1][0] = k * a[0], f->S[1][1] = k * a[1], f->N[1][0] = a[0], f->N[1][1] = a[1];
}

// a tube of radius r along world axis e (3) in f: S = (p/r, 0), N = (p, a)
static void tubeRows(Feature* f, mjtNum r, const mjtNum e[3], const mjtNum t[2][3]) {
  mjtNum a[2];
  inBasis(a, e, t);
  f->S[0][0] = -a[1] / r, f->S[0][1] = a[0] / r, f->N[0][0] = -a[1], f->N[0][1] = a[0];
  f->S[1][0] = f->S[1][1] = 0, f->N[1][0] = a[0], f->N[1][1] = a[1];
}

// the feature of box g at witness w (local x) with outward normal nu: the face whose normal
// nu is (the reference face of a face contact; clipped when w is on one of its edges), else
// by the coordinates at the box's bounds: three a vertex, two an edge, one a face (mat: its
// rotation)
static void boxFeature(const mjModel* m, int g, const mjtNum mat[9], const mjtNum x[3],
                       const mjtNum nu[3], const mjtNum t[2][3], Feature* f) {
  const mjtNum* h = m->geom_size + 3 * g;
  mjtNum tol = 1e-6 * m->geom_rbound[g], axis[3];
  int at[3], nat = 0, face = -1;
  for (int k = 0; k < 3; k++) {
    at[k] = fabs(x[k]) > h[k] - tol;
    nat += at[k];
    mjtNum c = nu[0] * mat[k] + nu[1] * mat[3 + k] + nu[2] * mat[6 + k];
    if (at[k] && fabs(c) > 1 - 1e-9 && c * x[k] > 0) face = k;
  }
  mjtNum zero[4] = {0};
  if (face >= 0 || nat <= 1) {
    surfaceRows(f, zero);
    for (int k = 0; k < 3 && face >= 0 && nat == 2; k++) {
      if (k == face || at[k]) continue;
      mjtNum across[3], e[3] = {mat[k], mat[3 + k], mat[6 + k]};
      mju_cross(across, nu, e);
      f->clip = 1;
      inBasis(f->b, across, t);
    }
    return;
  }
  if (nat == 3) {
    vertexRows(f);
    return;
  }
  for (int k = 0; k < 3; k++) {
    axis[0] = mat[k], axis[1] = mat[3 + k], axis[2] = mat[6 + k];
    if (!at[k]) edgeRows(f, axis, 0, t);
  }
}

// the size of mesh g's (rotation mat) support set along world direction nu within tol: 1 a
// vertex, 2 an edge, more a face (v: the first two, in its frame)
static int meshSupport(const mjModel* m, int g, const mjtNum mat[9], const mjtNum nu[3],
                       mjtNum tol, mjtNum v[6]) {
  mjtNum l[3];
  mju_mulMatTVec3(l, mat, nu);
  return mjc_meshSupportSet(m, g, l, tol, v);
}

// the feature of mesh g (its convex hull) with outward normal nu: the hull's support set
// along nu within tol, one vertex, an edge along the difference of two, or a face (mat: its
// rotation)
static void meshFeature(const mjModel* m, int g, const mjtNum mat[9], const mjtNum nu[3],
                        mjtNum tol, const mjtNum t[2][3], Feature* f) {
  mjtNum l[3], v[6], e[3], zero[4] = {0};
  int count = meshSupport(m, g, mat, nu, tol, v);
  if (count == 1) {
    vertexRows(f);
  } else if (count == 2) {
    mju_sub3(l, v + 3, v);
    mju_mulMatVec3(e, mat, l);
    edgeRows(f, e, 0, t);
  } else {
    surfaceRows(f, zero);
  }
}

// the feature of height field g at witness w with outward normal nu known to the angle ang:
// among the prisms of the cells around w (collision_hfield.c), the first holding w on its
// side along nu (w inside it and on its support plane, within ang times the field's size),
// by its corners' support set along nu: one a vertex, two an edge, more a face (top, bottom
// or wall); none found: no rows (the motion is then undetermined and the contact refused);
// the field at (pos, mat)
static void hfieldFeature(const mjModel* m, int g, const mjtNum pos[3], const mjtNum mat[9],
                          const mjtNum w[3], const mjtNum nu[3], mjtNum ang,
                          const mjtNum t[2][3], Feature* f) {
  int hid = m->geom_dataid[g], nrow = m->hfield_nrow[hid], ncol = m->hfield_ncol[hid];
  const mjtNum* size = m->hfield_size + 4 * hid;
  mjtNum tol = ang * (size[0] + size[1] + size[2] + size[3]), x[3], l[3], p[6][3];
  mju_sub3(l, w, pos);
  mju_mulMatTVec3(x, mat, l);
  mju_mulMatTVec3(l, mat, nu);
  memset(f, 0, sizeof(*f));

  // the cells whose closed footprint holds x within tol
  mjtNum u = (x[0] + size[0]) / (2 * size[0]) * (ncol - 1);
  mjtNum v = (x[1] + size[1]) / (2 * size[1]) * (nrow - 1);
  mjtNum ut = tol / (2 * size[0]) * (ncol - 1), vt = tol / (2 * size[1]) * (nrow - 1);
  int c0 = (int)fmax(0, floor(u - ut)), c1 = (int)fmin(ncol - 2, floor(u + ut));
  int r0 = (int)fmax(0, floor(v - vt)), r1 = (int)fmin(nrow - 2, floor(v + vt));
  for (int row = r0; row <= r1; row++) {
    for (int col = c0; col <= c1; col++) {
      for (int k = 0; k < 2; k++) {
        mjc_hfieldPrism(m, hid, row, col, k, 0, p);

        // x inside: on the diagonal's side of the prism (v - row >= u - col for prism 0),
        // below its top plane (the top's normal e = (p4 - p3) x (p5 - p3) points up)
        mjtNum side = (v - row) - (u - col), a[3], b[3], e[3];
        if ((k ? -side : side) < -(ut + vt)) continue;
        mju_sub3(a, p[4], p[3]);
        mju_sub3(b, p[5], p[3]);
        mju_cross(e, a, b);
        mju_sub3(a, x, p[3]);
        if (e[2] * mju_dot3(a, e) > tol * mju_norm3(e) * fabs(e[2])) continue;

        // on the support plane along l: the support set's corners
        mjtNum top = mju_dot3(p[0], l);
        for (int i = 1; i < 6; i++) top = fmax(top, mju_dot3(p[i], l));
        if (top - mju_dot3(x, l) > tol) continue;
        int set[6], count = 0;
        for (int i = 0; i < 6; i++)
          if (mju_dot3(p[i], l) > top - tol) set[count++] = i;
        mjtNum zero[4] = {0};
        if (count == 1) {
          vertexRows(f);
        } else if (count == 2) {
          mju_sub3(a, p[set[1]], p[set[0]]);
          mju_mulMatVec3(e, mat, a);
          edgeRows(f, e, 0, t);
        } else {
          surfaceRows(f, zero);
        }
        return;
      }
    }
  }
}

// the feature of geom g at witness w (outward normal nu, tangent basis t): spheres and
// capsule ends curve by 1/r, capsule and cylinder sides are tubes, ellipsoids curve by
// their shape operator P Q P / |Q y| (y'Qy = 1 the surface about the center), cylinder caps
// and planes are flat, cylinder rims edges along a x rho curving by nu'rho / r (a witness
// within 10 ccd_tolerance of the rim: EPA's witnesses on a cylinder are chords of its rims,
// inside by up to its tolerance; with a margin, whose half rounds the rim to a torus, EPA's
// normal off by sqrt(2 tol / (margin/2)) puts the witness up to sqrt(tol margin) in), boxes
// by boxFeature, meshes by meshFeature (their support sets within mtol), height fields (nu
// known to the angle ang) by hfieldFeature; every field of f is set (no clip, no edge: a = 0
// and tilt = 0, so that its lift is an exact 0); g is side i of the pair gp, at its pose there
static void geomFeature(const mjModel* m, const mjGeomPair* gp, int i, const mjtNum w[3],
                        const mjtNum nu[3], mjtNum ang, mjtNum mtol, mjtNum margin,
                        const mjtNum t[2][3], Feature* f) {
  int g = gp->g[i], type = m->geom_type[g];
  const mjtNum *mat = gp->mat[i], *size = m->geom_size + 3 * g;
  mjtNum y[3], x[3], a[3] = {mat[2], mat[5], mat[8]}, K[4] = {0, 0, 0, 0};
  mju_sub3(y, w, gp->pos[i]);
  mju_mulMatTVec3(x, mat, y);
  *f = (Feature){0};
  if (type == mjGEOM_BOX) {
    boxFeature(m, g, mat, x, nu, t, f);
  } else if (type == mjGEOM_MESH) {
    meshFeature(m, g, mat, nu, mtol, t, f);
  } else if (type == mjGEOM_HFIELD) {
    hfieldFeature(m, g, gp->pos[i], mat, w, nu, ang, t, f);
  } else if (type == mjGEOM_ELLIPSOID) {
    mjtNum Qy[3], Qt[2][3];
    for (int i = 0; i < 3; i++) x[i] /= size[i] * size[i];
    mju_mulMatVec3(Qy, mat, x);
    for (int i = 0; i < 2; i++) {
      mju_mulMatTVec3(x, mat, t[i]);
      for (int k = 0; k < 3; k++) x[k] /= size[k] * size[k];
      mju_mulMatVec3(Qt[i], mat, x);
    }
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++) K[2 * i + j] = mju_dot3(t[i], Qt[j]) / mju_norm3(Qy);
    surfaceRows(f, K);
  } else if (type == mjGEOM_CYLINDER) {
    mjtNum rho = hypot(x[0], x[1]), r = size[0], ccd = m->opt.ccd_tolerance;
    mjtNum tol = 1e-9 * (r + size[1]) + 10 * ccd + sqrt(ccd * margin);
    int side = rho > r - tol, cap = fabs(x[2]) > size[1] - tol;
    if (side && cap) {
      mjtNum radial[3] = {x[0] / rho, x[1] / rho, 0}, rw[3], e[3];
      mju_mulMatVec3(rw, mat, radial);
      mju_cross(e, a, rw);
      edgeRows(f, e, mju_dot3(nu, rw) / r, t);
    } else if (side) {
      tubeRows(f, r, a, t);
    } else {
      surfaceRows(f, K);
    }
  } else if (type == mjGEOM_CAPSULE && fabs(x[2]) < size[1] * (1 - 1e-10)) {
    tubeRows(f, size[0], a, t);
  } else {
    K[0] = K[3] = type == mjGEOM_PLANE ? 0 : 1 / size[0];
    surfaceRows(f, K);
  }
}

// the feature contact's motion: unknowns z = (s1, s2, dn) in the tangent basis (the
// witnesses' slides, the normal's turn); rows 0-1 side 1's feature (g = 1), 2-3 side 2's
// (g = -1), a row fixing the normal alone replaced by the other side's clip when it has one
// (b's_other = 0); rows 4-5 the witnesses staying on n:  s2 - s1 - dist dn = -P(u2 - u1)
// (u_i the witnesses' velocities as fixed to their geoms).  A (6x6 row-major) always, b
// (NULL: none) from r (r_1, r_2) and du = P(u2 - u1)
static void featureSystem(const Feature f[2], mjtNum dist, const mjtNum r[2][2],
                          const mjtNum du[2], mjtNum A[36], mjtNum b[6]) {
  mju_zero(A, 36);
  for (int i = 0; i < 2; i++) {
    mjtNum g = i ? -1 : 1;
    const Feature *fi = f + i, *fo = f + 1 - i;
    int clip = fo->clip;
    for (int j = 0; j < 2; j++) {
      mjtNum* row = A + 6 * (2 * i + j);
      if (clip && !fi->S[j][0] && !fi->S[j][1]) {
        row[2 * (1 - i)] = fo->b[0], row[2 * (1 - i) + 1] = fo->b[1];
        if (b) b[2 * i + j] = 0;
        clip = 0;
        continue;
      }
      row[2 * i] = fi->S[j][0], row[2 * i + 1] = fi->S[j][1];
      row[4] = -g * fi->N[j][0], row[5] = -g * fi->N[j][1];
      if (b) b[2 * i + j] = -g * (fi->N[j][0] * r[i][0] + fi->N[j][1] * r[i][1]);
    }
  }
  for (int j = 0; j < 2; j++) {
    mjtNum* row = A + 6 * (4 + j);
    row[j] = -1, row[2 + j] = 1, row[4 + j] = -dist;
    if (b) b[4 + j] = -du[j];
  }
}

// solve A x = b (6x6, row-major, destroyed) by elimination with partial pivoting; 0, or -1
// when A is singular (a pivot below 1e-10 of the largest entry)
static int solve6(mjtNum A[36], mjtNum b[6]) {
  mjtNum big = 0;
  for (int i = 0; i < 36; i++) big = fmax(big, fabs(A[i]));
  for (int c = 0; c < 6; c++) {
    int p = c;
    for (int r = c + 1; r < 6; r++)
      if (fabs(A[6 * r + c]) > fabs(A[6 * p + c])) p = r;
    if (!(fabs(A[6 * p + c]) > 1e-10 * big)) return -1;
    for (int k = 0; k < 6 && p != c; k++) {
      mjtNum t = A[6 * c + k];
      A[6 * c + k] = A[6 * p + k], A[6 * p + k] = t;
    }
    mjtNum t = b[c];
    b[c] = b[p], b[p] = t;
    for (int r = c + 1; r < 6; r++) {
      mjtNum l = A[6 * r + c] / A[6 * c + c];
      for (int k = c; k < 6; k++) A[6 * r + k] -= l * A[6 * c + k];
      b[r] -= l * b[c];
    }
  }
  for (int c = 5; c >= 0; c--) {
    for (int k = c + 1; k < 6; k++) b[c] -= A[6 * c + k] * b[k];
    b[c] /= A[6 * c + c];
  }
  return 0;
}

// the angle to which a contact's normal is known against geom g: exactly (1e-9) unless g is
// curved, whose contact EPA ends within ccd_tolerance in depth: a normal off by up to about
// sqrt(2 tol / R), R g's smallest radius of curvature (c^2/a for an ellipsoid's largest and
// smallest semi-axes a, c), three times that.  (Meshes keep the exact support set: with this
// angle a capsule lying on a mesh face within it is a tube on a face, refused, where the
// capsule's lower end would be the ideal contact's witness)
static mjtNum normalAngle(const mjModel* m, int g) {
  const mjtNum* s = m->geom_size + 3 * g;
  int type = m->geom_type[g];
  mjtNum R = type == mjGEOM_SPHERE || type == mjGEOM_CAPSULE || type == mjGEOM_CYLINDER ? s[0]
             : type == mjGEOM_ELLIPSOID ? fmin(fmin(s[0], s[1]), s[2]) *
                                            fmin(fmin(s[0], s[1]), s[2]) /
                                            fmax(fmax(s[0], s[1]), s[2])
                                        : 0;
  return R > 0 ? fmax(1e-9, 3 * sqrt(2 * m->opt.ccd_tolerance / R)) : 1e-9;
}

// the tolerances of two geoms' mesh support sets along contact con's normal: 1e-9 rbound
// (exact), unless two meshes' sets are then a vertex and a vertex or an edge, no facet of
// their Minkowski difference: EPA's normal is a facet's only to the precision of its
// witnesses' difference over the depth, and both grow tenfold until the sets make a facet, up
// to 1e-6 rbound, boxFeature's (the Panda's fingertip vertex on a face seen as two vertices
// in a contact 1.6e-5 deep: a facet at 1e-7); the geoms at gp's poses
static void meshTolerance(const mjModel* m, const mjGeomPair* gp, const mjContact* con,
                          mjtNum tol[2]) {
  const int* g = gp->g;
  mjtNum nu[2][3], v[6], scale = 1;
  for (int i = 0; i < 2; i++) mju_scl3(nu[i], con->frame, i ? -1 : 1);
  if (m->geom_type[g[0]] == mjGEOM_MESH && m->geom_type[g[1]] == mjGEOM_MESH) {
    for (mjtNum s = 1;; s *= 10) {
      int dim = 0;
      for (int i = 0; i < 2; i++)
        dim += (int)fmin(2, meshSupport(m, g[i], gp->mat[i], nu[i],
                                        1e-9 * s * m->geom_rbound[g[i]], v) - 1);
      if (dim >= 2) scale = s;
      if (dim >= 2 || s >= 1e3) break;  // none within 1e-6 rbound: the exact sets
    }
  }
  for (int i = 0; i < 2; i++) tol[i] = 1e-9 * scale * m->geom_rbound[g[i]];
}

// the witness points w1 = p - n dist/2, w2 = p + n dist/2 of contact con, its tangent
// basis t and its geoms' features at them (each with the normal's angle against the other,
// meshes' support sets within meshTolerance), the geoms at gp's poses
static void contactFeatures(const mjModel* m, const mjGeomPair* gp, const mjContact* con,
                            mjtNum w[2][3], mjtNum t[2][3], Feature f[2]) {
  mjtNum tol[2];
  meshTolerance(m, gp, con, tol);
  mju_copy3(t[0], con->frame + 3);
  mju_copy3(t[1], con->frame + 6);
  for (int i = 0; i < 2; i++) {
    mjtNum nu[3];
    mju_scl3(nu, con->frame, i ? -1 : 1);
    mju_copy3(w[i], con->pos);
    mju_addToScl3(w[i], con->frame, (i ? 0.5 : -0.5) * con->dist);
    geomFeature(m, gp, i, w[i], nu, normalAngle(m, gp->g[1 - i]), tol[i],
                fmax(0, con->includemargin), t, f + i);
  }
}

// 1 when each mesh of contact con holds its witness point w_i = p -+ n dist/2 on its hull's
// support plane along its outward normal (within ccd_tolerance and 1e-6 rbound), where its
// features are: a contact EPA ended elsewhere (the Panda's fingertip, a witness 5.9e-4
// inside the finger's hull) moves otherwise; the geoms at gp's poses
static int witnessesOnHulls(const mjModel* m, const mjGeomPair* gp, const mjContact* con) {
  for (int i = 0; i < 2; i++) {
    int g = gp->g[i];
    if (m->geom_type[g] != mjGEOM_MESH) continue;
    mjtNum nu[3], v[6], top[3], w[3];
    mju_scl3(nu, con->frame, i ? -1 : 1);
    meshSupport(m, g, gp->mat[i], nu, 0, v);
    mju_mulMatVec3(top, gp->mat[i], v);
    mju_addTo3(top, gp->pos[i]);
    mju_copy3(w, con->pos);
    mju_addToScl3(w, con->frame, (i ? 0.5 : -0.5) * con->dist);
    mju_sub3(top, top, w);
    if (mju_dot3(top, nu) > m->opt.ccd_tolerance + 1e-6 * m->geom_rbound[g]) return 0;
  }
  return 1;
}

// 1 when contact con of two faceted geoms (clipped by multiccd: mjc_queryContacts > 1) has its
// normal n pointing from g2 into g1, as when MuJoCo's multiccd exchanges EPA's witness pair (g1's
// edge along g2's face clipped to no point): their overlap along n, h1(n) + h2(-n), exceeds
// their span against it, h1(-n) + h2(n) (h_i the support function of geom i at gp's pose)
static int normalReversed(const mjModel* m, const mjGeomPair* gp, const mjContact* con) {
  const int* g = gp->g;
  if (mjc_queryContacts(m, g[0], g[1], mayHaveMargin(m, g[0], g[1])) < 2) return 0;
  mjtNum along = 0, against = 0;
  for (int i = 0; i < 2; i++)
    for (int s = -1; s <= 1; s += 2) {
      mjtNum dir[3], p[3];
      mju_scl3(dir, con->frame, s);
      mjc_geomSupport(m, g[i], gp->pos[i], gp->mat[i], dir, NULL, p);
      mjtNum h = mju_dot3(p, dir);
      if ((s > 0) == (i == 0)) along += h;
      else against += h;
    }
  return along > against;
}

// 1 when the motion of contact con's features (its geoms at gp's poses) is determined (not
// face on face)
static int featureDetermined(const mjModel* m, const mjGeomPair* gp, const mjContact* con) {
  mjtNum w[2][3], t[2][3], A[36], b[6] = {0};
  Feature f[2];
  contactFeatures(m, gp, con, w, t, f);
  featureSystem(f, con->dist, NULL, NULL, A, NULL);
  return !solve6(A, b);
}

// dp, dn, ddist of a contact between features (featureSystem) as geom i (at gp's pose) moves
// by the twist S_i about o:  the witnesses move by dw_i = u_i + s_i + n tilt_i a_i's_i,
// ddist = n'(dw2 - dw1),  dp = (dw1 + dw2)/2
static void featureMotion(const mjModel* m, const mjGeomPair* gp, const mjContact* con,
                          const mjtNum S[2][6], const mjtNum o[3], mjtNum dp[3], mjtNum dn[3],
                          mjtNum* ddist) {
  mjtNum w[2][3], t[2][3], u[2][3], r[2][2], du[2], A[36], z[6], rel[3], wn[3];
  const mjtNum* n = con->frame;
  Feature f[2];
  contactFeatures(m, gp, con, w, t, f);
  for (int i = 0; i < 2; i++) {
    mjd_pointVel(u[i], S[i], w[i], o);
    mju_cross(wn, S[i], n);
    r[i][0] = mju_dot3(wn, t[0]), r[i][1] = mju_dot3(wn, t[1]);
  }
  mju_sub3(rel, u[1], u[0]);
  du[0] = mju_dot3(rel, t[0]), du[1] = mju_dot3(rel, t[1]);
  featureSystem(f, con->dist, r, du, A, z);
  if (solve6(A, z)) mju_zero(z, 6);
  mjtNum lift[2];
  for (int i = 0; i < 2; i++)
    lift[i] = f[i].tilt * (f[i].a[0] * z[2 * i] + f[i].a[1] * z[2 * i + 1]);
  *ddist = mju_dot3(n, rel) + lift[1] - lift[0];
  mju_add3(dp, u[0], u[1]);
  for (int k = 0; k < 2; k++) mju_addToScl3(dp, t[k], z[k] + z[2 + k]);
  mju_addToScl3(dp, n, lift[0] + lift[1]);
  mju_scl3(dp, dp, 0.5);
  mju_scl3(dn, t[0], z[4]);
  mju_addToScl3(dn, t[1], z[5]);
}

// dp, dn, ddist of a clipped faces' contact (mjContact's clip and clipvec; clipped without a
// margin, so that dist is the depth) as geom i moves by the twist S_i = (w, v) about o:
// c the clipped geom (geom 2, geom 1 for its edge: clip 3), f the clipping one, u_i the
// motion of the point v = w_c = p -+ n dist/2 held fixed to geom i.  v moves with c (a
// corner), or along a line e fixed to geom a (clip[1] 1: c's edge, 2: f's corner line) as the
// plane of normal u fixed to the other geom b cuts it:  u'(dv - u_b) = 0, so
//   dv = u_a + e u'(u_b - u_a) / u'e;
// the depth, dist = nf'(v - f0) from the clipping face's plane (nf, f0 fixed to f), moves by
// ddist = nf'(dv - u_f); the normal, a face normal of geom 2 (face on face) or of f (edge on
// face), turns with it: dn = w x n;  p = v -+ n dist/2:  dp = dv -+ (dn dist + n ddist)/2.
// Exact on flat faces (boxes', cylinder caps', flat mesh polygons); a mesh polygon merged from
// hull triangles whose normals share a 0.01 rad bin (mesh_polygon.c) is flat only to that, and
// a point on a corner line (clip[1] 2: cut by the chord between two clipped points, not by a
// plane) moves here as if cut by the plane of the polygon's normal (TALOS: within 3e-8 of the
// differences where the entries are 0.1 to 1)
static void clipMotion(const mjContact* con, const mjtNum S[2][6], const mjtNum o[3],
                       mjtNum dp[3], mjtNum dn[3], mjtNum* ddist) {
  const mjtNum *n = con->frame, *nf = con->clipvec, *e = con->clipvec + 3;
  const mjtNum* u = con->clipvec + 6;
  int c = con->clip[0] == 3 ? 0 : 1, f = 1 - c, turn = con->clip[0] == 1 ? c : f;
  mjtNum sg = c ? 1 : -1, v[3], uv[2][3], dv[3], rel[3];
  mju_copy3(v, con->pos);
  mju_addToScl3(v, n, sg * con->dist / 2);
  for (int i = 0; i < 2; i++) mjd_pointVel(uv[i], S[i], v, o);
  mju_copy3(dv, uv[c]);
  if (con->clip[1] > 0) {
    int a = con->clip[1] == 1 ? c : f;
    mju_sub3(rel, uv[1 - a], uv[a]);
    mju_copy3(dv, uv[a]);
    mju_addToScl3(dv, e, mju_dot3(u, rel) / mju_dot3(u, e));
  }
  mju_sub3(rel, dv, uv[f]);
  *ddist = mju_dot3(nf, rel);
  mju_cross(dn, S[turn], n);
  mju_copy3(dp, dv);
  mju_addToScl3(dp, dn, -sg * con->dist / 2);
  mju_addToScl3(dp, n, -sg * *ddist / 2);
}

// dp, dframe (the frame's three rows) and ddist of contact con of the pair gp (at its poses)
// when geom i moves by the twist S_i = (w, v) about o (axes turning by da = w x a).
//   plane (point c, normal n turning with it) and geom 2's deepest point x (a sphere's
//   center, a capsule end's, a box or mesh vertex: fixed to it, radius r2 or 0; a cylinder's
//   rim point: rimMotion):  dist = n'(x - c) - r2,
//     ddist = dn'(x - c) + n'(dx - dc),  p = x - n (r2 + dist/2)
//   two round geoms: x_i = p -+ n (r_i + dist/2) the centers of their nearest spheres, a
//     capsule's x = c + s a sliding with its parameter while inside its segment (|s| < h):
//     with the other's x' fixed, s = a'(x' - c) gives ds = da'(x' - c) + a'(dx' - dc); both
//     sliding, w = x1 - x2 stays normal to a1 and a2:  ds1 - b ds2 = e1, b ds1 - ds2 = e2,
//     b = a1'a2, e_i = -(da_i'w + a_i'(dx1 - dx2)) with the fixed-parameter motions; then
//     L = r1 + r2 + dist, dn = (I - n n')(dx2 - dx1)/L, ddist = n'(dx2 - dx1),
//     p = x1 + n (r1 + dist/2)
// The tangent t1 = u/|u| is mju_makeFrame's u = e - (e'n) n or, for a capsule on a plane,
// u = a - (a'n) n, so  dt1 = (I - t1 t1') du / |u|,  dt2 = dn x t1 + n x dt1  (a capsule
// along the plane's normal has no tangent to follow: dt1 = 0)
static void contactMotion(const mjModel* m, const mjGeomPair* gp, const mjContact* con,
                          const mjtNum S[2][6], const mjtNum o[3], mjtNum dp[3],
                          mjtNum dframe[9], mjtNum* ddist) {
  const mjtNum *n = con->frame, *t1 = con->frame + 3, *p = con->pos;
  const int* g = gp->g;
  int kind = pairKind(m->geom_type[g[0]], m->geom_type[g[1]]), plane = kind == PAIR_PLANE;
  mjtNum dist = con->dist, rad[2], a[2][3], da[2][3], c[2][3], dc[2][3], x[2][3], dx[2][3];
  mjtNum dn[3] = {0, 0, 0}, du[3], unorm;
  int capsule[2];
  for (int i = 0; i < 2; i++) {
    const mjtNum* xmat = gp->mat[i];
    capsule[i] = m->geom_type[g[i]] == mjGEOM_CAPSULE;
    rad[i] = m->geom_size[3 * g[i]];
    a[i][0] = xmat[2], a[i][1] = xmat[5], a[i][2] = xmat[8];
    mju_cross(da[i], S[i], a[i]);
    mju_copy3(c[i], gp->pos[i]);
    mjd_pointVel(dc[i], S[i], c[i], o);
  }

  // geom 2's deepest point on a plane: fixed to it, or sliding on a cylinder's rim
  if (plane) {
    mjtNum rel[3], r2 = capsule[1] || m->geom_type[g[1]] == mjGEOM_SPHERE ? rad[1] : 0;
    mju_cross(dn, S[0], n);
    mju_copy3(x[1], p);
    mju_addToScl3(x[1], n, r2 + dist / 2);
    if (m->geom_type[g[1]] == mjGEOM_CYLINDER) {
      rimMotion(c[1], gp->mat[1], n, dn, S[1], x[1], dc[1], dx[1]);
    } else {
      mjd_pointVel(dx[1], S[1], x[1], o);
    }
    mju_sub3(rel, x[1], c[0]);
    *ddist = mju_dot3(dn, rel) + mju_dot3(n, dx[1]) - mju_dot3(n, dc[0]);
    mju_copy3(dp, dx[1]);
    mju_addToScl3(dp, dn, -(r2 + dist / 2));
    mju_addToScl3(dp, n, -*ddist / 2);
  }

  // clipped faces: by their records
  else if (con->clip[0]) {
    clipMotion(con, S, o, dp, dn, ddist);
  }

  // other convex pairs: by their features
  else if (kind == PAIR_FEATURE) {
    featureMotion(m, gp, con, S, o, dp, dn, ddist);
  }

  // two round geoms: the nearest spheres' centers, sliding along capsule segments
  else {
    int slide[2];
    mjtNum w[3], delta[3], t[3], e[2];
    for (int i = 0; i < 2; i++) {
      mju_copy3(x[i], p);
      mju_addToScl3(x[i], n, i ? rad[1] + dist / 2 : -(rad[0] + dist / 2));
      mjd_pointVel(dx[i], S[i], x[i], o);
      mju_sub3(t, x[i], c[i]);
      mjtNum h = m->geom_size[3 * g[i] + 1];
      slide[i] = capsule[i] && fabs(mju_dot3(t, a[i])) < h * (1 - 1e-10);
    }
    mju_sub3(w, x[0], x[1]);
    mju_sub3(delta, dx[0], dx[1]);
    if (slide[0] && slide[1]) {
      mjtNum b = mju_dot3(a[0], a[1]);
      for (int i = 0; i < 2; i++) e[i] = -(mju_dot3(da[i], w) + mju_dot3(a[i], delta));
      mju_addToScl3(dx[0], a[0], (e[0] - b * e[1]) / (1 - b * b));
      mju_addToScl3(dx[1], a[1], (b * e[0] - e[1]) / (1 - b * b));
    } else {
      for (int i = 0; i < 2; i++) {
        if (!slide[i]) continue;
        mjtNum dy[3];
        mju_sub3(t, x[1 - i], c[i]);
        mju_sub3(dy, dx[1 - i], dc[i]);
        mju_addToScl3(dx[i], a[i], mju_dot3(da[i], t) + mju_dot3(a[i], dy));
      }
    }
    mjtNum len = rad[0] + rad[1] + dist;
    mju_sub3(t, dx[1], dx[0]);
    *ddist = mju_dot3(n, t);
    mju_scl3(dn, t, 1 / len);
    mju_addToScl3(dn, n, -*ddist / len);
    mju_copy3(dp, dx[0]);
    mju_addToScl3(dp, dn, rad[0] + dist / 2);
    mju_addToScl3(dp, n, *ddist / 2);
  }

  // the tangent's direction u before normalization and its motion du
  if (plane && capsule[1]) {
    mjtNum an = mju_dot3(a[1], n);
    unorm = sqrt(fmax(0, 1 - an * an));
    mju_copy3(du, da[1]);
    mju_addToScl3(du, n, -mju_dot3(da[1], n) - mju_dot3(a[1], dn));
    mju_addToScl3(du, dn, -an);
  } else {
    int k = n[1] < 0.5 && n[1] > -0.5 ? 1 : 2;
    unorm = sqrt(fmax(0, 1 - n[k] * n[k]));
    mju_scl3(du, n, -dn[k]);
    mju_addToScl3(du, dn, -n[k]);
  }
  mjtNum dt1[3], v[3];
  mju_zero3(dt1);
  if (unorm > 1e-10) {
    mju_copy3(dt1, du);
    mju_addToScl3(dt1, t1, -mju_dot3(t1, du));
    mju_scl3(dt1, dt1, 1 / unorm);
  }
  mju_copy3(dframe, dn);
  mju_copy3(dframe + 3, dt1);
  mju_cross(dframe + 6, dn, t1);
  mju_cross(v, n, dt1);
  mju_addTo3(dframe + 6, v);
}

// the turned twists T (about o) of geoms of gp moving by S (about o) in multiccd's copy
// `turn` of the pair's first contact (point c, moving by dc; frame fr, its rows moving by
// dfr): geom i's pose turned about c by R_i (rot, rot' for geom 2), by the angle
// phi_i = -+sign(turn) mjTURNANGLE about the tangent row e = fr_|turn| (moving by de).  With
// dR_i = [w_R] R_i,  w_R = sin(phi) de + (1 - cos(phi)) e x de  (a fixed angle about a moving
// unit axis), a point x' = c + R_i (x - c) fixed to the turned geom moves by
//   dx' = dc + R_i (u_i(c) - dc) + (w_R + R_i w_i) x (x' - c)
// (u_i(c) = v_i + w_i x (c - o) geom i's own motion at c): the turned twist's rotation
// w_R + R_i w_i and its velocity at o, dx'(c) + (w_R + R_i w_i) x (o - c)
static void turnedTwists(const mjtNum S[2][6], const mjtNum o[3], const mjtNum c[3],
                         const mjtNum dc[3], const mjtNum fr[9], const mjtNum dfr[9], int turn,
                         const mjtNum rot[9], mjtNum T[2][6]) {
  int axis = turn < 0 ? -turn : turn;
  const mjtNum *e = fr + 3 * axis, *de = dfr + 3 * axis;
  mjtNum exde[3], rott[9];
  mju_cross(exde, e, de);
  mju_transpose(rott, rot, 3, 3);
  for (int i = 0; i < 2; i++) {
    const mjtNum* R = i ? rott : rot;
    mjtNum phi = (i ? -1 : 1) * (turn < 0 ? -1 : 1) * mjTURNANGLE, uc[3], rel[3], vc[3], t[3];

    // the rotation: w_R + R w_i
    mju_scl3(T[i], de, sin(phi));
    mju_addToScl3(T[i], exde, 1 - cos(phi));
    mju_mulMatVec3(t, R, S[i]);
    mju_addTo3(T[i], t);

    // the velocity at c, dc + R (u_i(c) - dc), moved to o
    mjd_pointVel(uc, S[i], c, o);
    mju_sub3(rel, uc, dc);
    mju_mulMatVec3(vc, R, rel);
    mju_addTo3(vc, dc);
    mju_sub3(rel, o, c);
    mju_cross(t, T[i], rel);
    mju_add3(T[i] + 3, vc, t);
  }
}

// the first contact of the pair of multiccd's turned copy con (mjContact's turn): the
// nearest contact before it that is no turned copy (mjc_Convex writes it first)
static const mjContact* firstContact(const mjContact* con) {
  while (con->turn) con--;
  return con;
}

// the turned poses of multiccd's copy con of the pair at gp (mjc_turnPair about its first
// contact); tc: con with its own distance there (turndist) as dist; rot g1's turn
static void turnedCopy(const mjGeomPair* gp, const mjContact* con, mjtNum rot[9],
                       mjtNum pos[2][3], mjtNum mat[2][9], mjGeomPair* turned,
                       mjContact* tc) {
  const mjContact* first = firstContact(con);
  mjc_turnPair(gp, first->pos, first->frame, con->turn, rot, pos, mat, turned);
  *tc = *con;
  tc->dist = con->turndist;
}

// the pair of contact con at the data's poses
static mjGeomPair dataPair(const mjData* d, const mjContact* con) {
  int g1 = con->geom1, g2 = con->geom2;
  return (mjGeomPair){{g1, g2}, {d->geom_xpos + 3 * g1, d->geom_xpos + 3 * g2},
                      {d->geom_xmat + 9 * g1, d->geom_xmat + 9 * g2}, {NULL, NULL}};
}

// the public form: geom i moving by S (mv_i) or not.  A multiccd turned copy (mjContact's
// turn) is a contact of the turned poses, so its point and normal move as contactMotion's at
// those poses with the turned twists (turnedTwists, from the first contact's motion); its
// dist is the first contact's, and so is ddist
void mjd_contactMotion(const mjModel* m, const mjData* d, const mjContact* con,
                       const mjtNum S[6], const mjtNum o[3], int mv1, int mv2, mjtNum dp[3],
                       mjtNum dframe[9], mjtNum* ddist) {
  mjGeomPair gp = dataPair(d, con);
  mjtNum tw[2][6] = {{0}};
  if (mv1) mju_copy6(tw[0], S);
  if (mv2) mju_copy6(tw[1], S);
  if (!con->turn) {
    contactMotion(m, &gp, con, tw, o, dp, dframe, ddist);
    return;
  }
  const mjContact* first = firstContact(con);
  mjtNum dp0[3], dfr0[9], ddist0, rot[9], pos[2][3], mat[2][9], T[2][6];
  mjGeomPair turned;
  mjContact tc;
  contactMotion(m, &gp, first, tw, o, dp0, dfr0, &ddist0);
  turnedCopy(&gp, con, rot, pos, mat, &turned, &tc);
  turnedTwists(tw, o, first->pos, dp0, first->frame, dfr0, con->turn, rot, T);
  contactMotion(m, &turned, &tc, T, o, dp, dframe, ddist);
  *ddist = ddist0;
}

// ---- rows and the contact basis ----------------------------------------------------------------

// the basis forces fb (dim) of the row forces f of contact con: mj_contactBasisToRows transposed
void mjd_rowsToBasis(const mjContact* con, int type, const mjtNum* f, mjtNum* fb) {
  if (type != mjCNSTR_CONTACT_PYRAMIDAL) {
    mju_copy(fb, f, con->dim);
    return;
  }
  fb[0] = 0;
  for (int i = 1; i < con->dim; i++) {
    fb[0] += f[2 * i - 2] + f[2 * i - 1];
    fb[i] = con->friction[i - 1] * (f[2 * i - 2] - f[2 * i - 1]);
  }
}

// J's nonzeros by rows: row r's columns ind and values val at adr[r] .. adr[r + 1] - 1
typedef struct {
  int *adr, *ind;
  mjtNum* val;
} RowsJ;

// res (nv) += s J' z, row by row over J's nonzeros (rows with z_r = 0 skipped)
static void addJtz(const RowsJ* J, int nefc, const mjtNum* z, mjtNum s, mjtNum* res) {
  for (int r = 0; r < nefc; r++) {
    if (!z[r]) continue;
    mjtNum zr = s * z[r];
    for (int p = J->adr[r]; p < J->adr[r + 1]; p++) res[J->ind[p]] += J->val[p] * zr;
  }
}

// R (nefc x n, by rows) = J X for X (nv x n, by rows): row r sums val_p X(ind_p, :) over its
// nonzeros in column order, zeros skipped (AVX2 where there is)
static mjuVECTOR void mulRowsJ(const RowsJ* J, int nefc, const mjtNum* X, int n, mjtNum* R) {
  for (int r = 0; r < nefc; r++) {
    mjtNum* row = R + (size_t)r * n;
    mju_zero(row, n);
    for (int p = J->adr[r]; p < J->adr[r + 1]; p++)
      mju_addToScl(row, X + (size_t)J->ind[p] * n, J->val[p], n);
  }
}

// A (nv x nv, lower triangle, +=) J'HJ: A_ij += Jt_i'HJ_j for J and HJ by columns (nefc
// each) (AVX2 where there is)
static mjuVECTOR void addJtHJ(const mjtNum* Jt, const mjtNum* HJ, int nv, int nefc, mjtNum* A) {
  for (int i = 0; i < nv; i++)
    for (int j = 0; j <= i; j++)
      A[i * nv + j] += mju_dot(Jt + (size_t)i * nefc, HJ + (size_t)j * nefc, nefc);
}

// the rows' cost Hessian H by its rows: D on the quadratic rows quad, an elliptic contact's
// cone block (contact.H) from each first row in cone, 0 on the others
typedef struct {
  int nquad, ncone;
  int *quad, *cone;
} Hess;

// H (its rows filled) from the rows' states
static void hessRows(const mjData* d, const int* state, Hess* H) {
  H->nquad = H->ncone = 0;
  for (int i = 0; i < d->nefc; i++) {
    if (state[i] == mjCNSTRSTATE_QUADRATIC) H->quad[H->nquad++] = i;
    if (state[i] != mjCNSTRSTATE_CONE) continue;
    H->cone[H->ncone++] = i;
    i += d->contact[d->efc_id[i]].dim - 1;
  }
}

// y = H x
static void mulH(const mjData* d, const Hess* H, const mjtNum* x, mjtNum* y) {
  mju_zero(y, d->nefc);
  for (int p = 0; p < H->nquad; p++) y[H->quad[p]] = d->efc_D[H->quad[p]] * x[H->quad[p]];
  for (int p = 0; p < H->ncone; p++) {
    int i = H->cone[p];
    const mjContact* con = d->contact + d->efc_id[i];
    for (int r = 0; r < con->dim; r++) y[i + r] = mju_dot(con->H + r * con->dim, x + i, con->dim);
  }
}

// ---- scalar equalities -------------------------------------------------------------------------

// the second object's Jacobian J2 (nv: a joint's unit row or a fixed tendon's ten_J) of the
// joint or tendon equality i and the curvature P''(x2) of its polynomial:  pos = x1 - P(x2),
// J = J1 - P'(x2) J2, so  dJ/dq_k = -P''(x2) J2_k J2  (0 without a second object)
static mjtNum eqCurvature(const mjModel* m, const mjData* d, int i, mjtNum* J2) {
  int o2 = m->eq_obj2id[i], nv = m->nv;
  const mjtNum* data = m->eq_data + 11 * i;
  mju_zero(J2, nv);
  if (o2 < 0) return 0;
  mjtNum x2;
  if (m->eq_type[i] == mjEQ_JOINT) {
    int a2 = m->jnt_qposadr[o2];
    x2 = d->qpos[a2] - m->qpos0[a2];
    J2[m->jnt_dofadr[o2]] = 1;
  } else {
    x2 = d->ten_length[o2] - m->tendon_length0[o2];
    mju_copy(J2, d->ten_J + (size_t)o2 * nv, nv);
  }
  return 2 * data[2] + x2 * (6 * data[3] + x2 * 12 * data[4]);
}

// ---- ball-joint limits -------------------------------------------------------------------------

// the limit row r of a ball joint as dof k (one of its three) moves:  with r = log(quat) the
// rotation vector, t = |r|, n = r / t:  pos = range - t, J = -n' on the ball's dofs, and a
// body-frame turn e_k changes r by Jr^-1(r) e_k, so  dJ_k = -(I - n n') Jr^-1(r) e_k / t.
// E[r] += dJ_k (a + B v) over the ball's dofs, Gk += dJ_k f_r
static void ballLimitColumn(const mjModel* m, const mjData* d, int r, int k,
                            const mjtNum* force, mjtNum* E, mjtNum* Gk) {
  int j = d->efc_id[r], dof = m->jnt_dofadr[j];
  mjtNum quat[4], n[3], Jinv[9], e[3], dJ[3];
  mju_copy4(quat, d->qpos + m->jnt_qposadr[j]);
  mju_normalize4(quat);
  mju_quat2Vel(n, quat, 1);
  mjd_rightJacobian(n, Jinv, 1);
  mjtNum t = mju_normalize3(n);
  if (t < mjMINVAL) return;
  for (int i = 0; i < 3; i++) e[i] = Jinv[3 * i + k - dof];
  mjtNum ne = mju_dot3(n, e), B = d->efc_KBIP[4 * r + 1];
  for (int i = 0; i < 3; i++) {
    dJ[i] = -(e[i] - n[i] * ne) / t;
    E[r] += dJ[i] * (d->qacc[dof + i] + B * d->qvel[dof + i]);
    Gk[dof + i] += dJ[i] * force[r];
  }
}

// ---- the derivative ----------------------------------------------------------------------------

// what a column of the position derivative needs: the dofs moved by dof k, twists before it
typedef struct {
  int bk, first;        // the dof's body, the first dof of that body the dof moves
  const mjtNum* S;      // its motion cdof_k
  const mjtNum* o;      // the com of its tree (the point twists are held about)
  const int* moved;     // per body b >= bk: 1 when in k's subtree
  mjtNum pre[3][6];     // the twists of v, a and bias before dof `first` (at its body)
} Column;

// res (6 nbody): each body's twist sum_j axes_j x_j over the dofs j of its chain
static void bodyTwists(const mjModel* m, const mjtNum* axes, const mjtNum* x, mjtNum* res) {
  mju_zero(res, 6);
  for (int b = 1; b < m->nbody; b++) {
    mju_copy6(res + 6 * b, res + 6 * m->body_parentid[b]);
    for (int j = m->body_dofadr[b]; j < m->body_dofadr[b] + m->body_dofnum[b]; j++)
      mju_addToScl6(res + 6 * b, axes + 6 * j, x[j]);
  }
}

// the column of dof k with the twists tw (v's cdof v, a's cdof a, the bias cdof_dot v: 6 nbody
// each); moved (nbody) its bodies
static Column columnAt(const mjModel* m, const mjData* d, int k, const mjtNum* tw[3],
                       int* moved) {
  Column c = {.bk = m->dof_bodyid[k], .S = d->cdof + 6 * k, .moved = moved};
  c.first = mjd_firstMoved(m, k);
  c.o = d->subtree_com + 3 * m->body_rootid[c.bk];
  for (int b = c.bk; b < m->nbody; b++) {
    int p = m->body_parentid[b];
    moved[b] = b == c.bk || (p >= c.bk && moved[p]);
  }
  const mjtNum* axes[3] = {d->cdof, d->cdof, d->cdof_dot};
  const mjtNum* coef[3] = {d->qvel, d->qacc, d->qvel};
  for (int x = 0; x < 3; x++) {
    mju_copy6(c.pre[x], tw[x] + 6 * m->body_parentid[c.bk]);
    for (int j = m->body_dofadr[c.bk]; j < c.first; j++)
      mju_addToScl6(c.pre[x], axes[x] + 6 * j, coef[x][j]);
  }
  return c;
}

// 1 when body b moves with dof k
static int bodyMoved(const Column* c, int b) { return b >= c->bk && c->moved[b]; }

// 1 when dof j's cdof turns with dof k
static int dofMoved(const mjModel* m, const Column* c, int j) {
  int b = m->dof_bodyid[j];
  return bodyMoved(c, b) && (b != c->bk || j >= c->first);
}

// the last dof of body b's kinematic chain (its own or its nearest ancestor's); -1: none
static int chainDof(const mjModel* m, int b) {
  while (b > 0 && !m->body_dofnum[b]) b = m->body_parentid[b];
  return b > 0 ? m->body_dofadr[b] + m->body_dofnum[b] - 1 : -1;
}

// the rows u_i'(v_B(pB) - v_A(pA)) (u_i the rows of fr, i < 3; rotational r_{i-3}'(w_B - w_A)
// with r the rows of frr for i >= 3; dim of them) between bodies A = body[0] at point p[0]
// and B = body[1] at p[1], the points moving by dp, the frames by dfr, dfrr, as dof k (c)
// moves: their slopes
// db[x] (dim) for x = v (0) and a (1), and Gk (nv, +=) the transposed product with the row
// forces fb held.  tw[x] (6 nbody) are the bodies' twists of v and a:
//   dT_b = S x (T_b - pre) for moved b;  d(u'dP) = du'dP + u'(sum +- (dT_b at p_b + w_b x dp_b)),
//   d(u'dw) = du'dw + u' sum +- ang dT_b
// and with the wrench W_b = +-(tau + (p_b - o) x F, F) on B (+), A (-),
//   d(J'f)_j = cdof_j' (dW_b - [j moved] S x* W_b) over the dofs j of each chain
static void pointColumn(const mjModel* m, const mjData* d, const Column* c, const int body[2],
                        const mjtNum* p[2], const mjtNum dp[2][3], const mjtNum fr[9],
                        const mjtNum dfr[9], const mjtNum frr[9], const mjtNum dfrr[9], int dim,
                        const mjtNum* tw[2], const mjtNum* fb, mjtNum db[2][6], mjtNum* Gk) {
  int mv[2] = {bodyMoved(c, body[0]), bodyMoved(c, body[1])};

  // the rows' slopes for v and a
  for (int x = 0; x < 2; x++) {
    mjtNum dP[3] = {0, 0, 0}, dw[3] = {0, 0, 0}, ddP[3] = {0, 0, 0}, ddw[3] = {0, 0, 0};
    mjtNum t[6], dT[6], vel[3];
    for (int s = 0; s < 2; s++) {
      mjtNum sgn = s ? 1 : -1;
      const mjtNum* o = d->subtree_com + 3 * m->body_rootid[body[s]];
      const mjtNum* T = tw[x] + 6 * body[s];
      mjd_pointVel(vel, T, p[s], o);
      mju_addToScl3(dP, vel, sgn);
      mju_addToScl3(dw, T, sgn);
      mju_cross(vel, T, dp[s]);
      mju_addToScl3(ddP, vel, sgn);
      if (!mv[s]) continue;
      mju_sub(t, T, c->pre[x], 6);
      mju_crossMotion(dT, c->S, t);
      mjd_pointVel(vel, dT, p[s], o);
      mju_addToScl3(ddP, vel, sgn);
      mju_addToScl3(ddw, dT, sgn);
    }
    for (int i = 0; i < dim; i++) {
      const mjtNum *u = (i < 3 ? fr : frr) + 3 * (i % 3), *du = (i < 3 ? dfr : dfrr) + 3 * (i % 3);
      db[x][i] = i < 3 ? mju_dot3(du, dP) + mju_dot3(u, ddP)
                       : mju_dot3(du, dw) + mju_dot3(u, ddw);
    }
  }

  // the transposed product with the force held: F, tau and their motion
  mjtNum F[3] = {0, 0, 0}, tau[3] = {0, 0, 0}, dF[3] = {0, 0, 0}, dtau[3] = {0, 0, 0};
  for (int i = 0; i < dim; i++) {
    mju_addToScl3(i < 3 ? F : tau, (i < 3 ? fr : frr) + 3 * (i % 3), fb[i]);
    mju_addToScl3(i < 3 ? dF : dtau, (i < 3 ? dfr : dfrr) + 3 * (i % 3), fb[i]);
  }
  for (int s = 0; s < 2; s++) {
    int j = chainDof(m, body[s]);
    if (j < 0) continue;  // no dofs below the body (the world): nothing to turn
    mjtNum sgn = s ? 1 : -1, W[6], dW[6], SW[6], rel[3], t[3];
    const mjtNum* o = d->subtree_com + 3 * m->body_rootid[body[s]];
    mju_sub3(rel, p[s], o);
    mju_cross(W, rel, F);
    mju_addTo3(W, tau);
    mju_copy3(W + 3, F);
    mju_scl(W, W, sgn, 6);
    mju_cross(dW, dp[s], F);
    mju_cross(t, rel, dF);
    mju_addTo3(dW, t);
    mju_addTo3(dW, dtau);
    mju_copy3(dW + 3, dF);
    mju_scl(dW, dW, sgn, 6);
    // up the chain: the dofs k moves (a run from the body, none when it stays) see
    // dW - S x* W, the rest dW
    if (mv[s]) {
      mju_crossForce(SW, c->S, W);
      mju_sub(SW, dW, SW, 6);
    }
    for (; j >= 0 && mv[s] && dofMoved(m, c, j); j = m->dof_parentid[j])
      Gk[j] += mju_dot6(d->cdof + 6 * j, SW);
    for (; j >= 0; j = m->dof_parentid[j]) Gk[j] += mju_dot6(d->cdof + 6 * j, dW);
  }
}

// for contact con of the moving surfaces (geom surfacevel) with rows from efc row adr: E (its
// rows, +=) gains B dcs/dq_k, cs its basis velocities (mj_contactSurfaceVel: aref = -B (J v +
// rows(cs))), the point moving by dp and the frame by dfr as dof k (c) moves.  Each surface's
// field is a twist T_s = (w_s, a_s + w_s x (o - x_s)) about o fixed to its geom, so
//   dV = sum +- ((S x T_s)@p [moved] + w_s x dp),  dW = sum +- ang (S x T_s) [moved],
//   dcs_i = dt_i'V + t_i'dV (tangents),  dcs_3 = dn'W + n'dW (spin)
static void surfaceColumn(const mjModel* m, const mjData* d, const Column* c,
                          const mjContact* con, const mjtNum dp[3], const mjtNum dfr[9],
                          int adr, int nrow, mjtNum* E) {
  mjtNum cs[6];
  if (con->dim == 1 || !mj_contactSurfaceVel(m, d, con, cs)) return;
  int g[2] = {con->geom1, con->geom2};
  mjtNum V[3] = {0, 0, 0}, W[3] = {0, 0, 0}, dV[3] = {0, 0, 0}, dW[3] = {0, 0, 0};
  for (int s = 0; s < 2; s++) {
    if (mju_isZero(m->geom_surfacevel + 6 * g[s], 6)) continue;
    mjtNum sgn = s ? 1 : -1, lin[3], ang[3], T[6], ST[6], vel[3];
    // the field at p and its change as p moves
    mj_geomSurfaceVel(m, d, g[s], con->pos, lin, ang);
    mju_addToScl3(V, lin, sgn);
    mju_addToScl3(W, ang, sgn);
    mju_cross(vel, ang, dp);
    mju_addToScl3(dV, vel, sgn);
    if (!bodyMoved(c, m->geom_bodyid[g[s]])) continue;
    // the field turning and moving with its geom: the twist about o, S x T
    mj_geomSurfaceVel(m, d, g[s], c->o, T + 3, T);
    mju_crossMotion(ST, c->S, T);
    mjd_pointVel(vel, ST, con->pos, c->o);
    mju_addToScl3(dV, vel, sgn);
    mju_addToScl3(dW, ST, sgn);
  }
  mjtNum dcs[6] = {0, 0, 0, 0, 0, 0}, rows[10] = {0};
  for (int i = 1; i < 3; i++)
    dcs[i] = mju_dot3(dfr + 3 * i, V) + mju_dot3(con->frame + 3 * i, dV);
  dcs[3] = mju_dot3(dfr, W) + mju_dot3(con->frame, dW);
  mj_contactBasisToRows(con, d->efc_type[adr], dcs, rows);
  for (int r = 0; r < nrow; r++) E[adr + r] += d->efc_KBIP[4 * (adr + r) + 1] * rows[r];
}

// for contact con (basis rows from efc row adr, fb its basis forces): E (its rows, +=) gains
// dJ/dq_k a + B dJ/dq_k v, P and V (its rows) the distance's slope (the rows' position and
// violation), Gk (nv, +=) dJ'/dq_k f; the basis rows are pointColumn's with both points at
// the contact's, moving with it
static void contactColumn(const mjModel* m, const mjData* d, const Column* c, int adr,
                          const mjtNum* tw[2], const mjtNum* fb, mjtNum* E, mjtNum* P,
                          mjtNum* V, mjtNum* Gk) {
  const mjContact* con = d->contact + d->efc_id[adr];
  int type = d->efc_type[adr], dim = con->dim;
  int nrow = type == mjCNSTR_CONTACT_PYRAMIDAL ? 2 * (dim - 1) : dim;
  int body[2] = {m->geom_bodyid[con->geom1], m->geom_bodyid[con->geom2]};
  if (!bodyMoved(c, body[0]) && !bodyMoved(c, body[1])) return;
  const mjtNum* p[2] = {con->pos, con->pos};
  mjtNum dp[2][3], dfr[9], ddist, db[2][6], rows[10] = {0};
  mjd_contactMotion(m, d, con, c->S, c->o, bodyMoved(c, body[0]), bodyMoved(c, body[1]),
                    dp[0], dfr, &ddist);
  mju_copy3(dp[1], dp[0]);
  pointColumn(m, d, c, body, p, dp, con->frame, dfr, con->frame, dfr, dim, tw, fb, db, Gk);
  for (int r = 0; r < nrow; r++) P[adr + r] = V[adr + r] = ddist;
  mj_contactBasisToRows(con, type, db[1], E + adr);
  mj_contactBasisToRows(con, type, db[0], rows);
  for (int r = 0; r < nrow; r++) E[adr + r] += d->efc_KBIP[4 * (adr + r) + 1] * rows[r];
  surfaceColumn(m, d, c, con, dp[0], dfr, adr, nrow, E);
}

// the weld's rotational rows L w (w = w_1 - w_2) and their motion dL as dof k (c) moves, q1,
// q2 its frames (mj_eqFrames) on bodies b1, b2, scl its torquescale:
//   L w = 0.5 scl vec(q2^-1 [0, w] q1),  dL w = 0.5 scl vec(dq2^-1 [0, w] q1 + q2^-1 [0, w]
//   dq1),  dq1 = 0.5 [0, w_S] q1 (body 1 moved),  dq2^-1 = -0.5 q2^-1 [0, w_S]
static void weldFrame(const Column* c, const mjtNum q1[4], const mjtNum q2[4], mjtNum scl,
                      int b1, int b2, mjtNum L[9], mjtNum dL[9]) {
  mjtNum q2i[4], dq1[4] = {0, 0, 0, 0}, dq2i[4] = {0, 0, 0, 0}, ws[4] = {0};
  mju_negQuat(q2i, q2);
  mju_scl3(ws + 1, c->S, 0.5);
  if (bodyMoved(c, b1)) mju_mulQuat(dq1, ws, q1);
  if (bodyMoved(c, b2)) {
    mju_mulQuat(dq2i, q2i, ws);
    mju_scl(dq2i, dq2i, -1, 4);
  }
  for (int col = 0; col < 3; col++) {
    mjtNum w[4] = {0, 0, 0, 0}, t[4], a[4], b[4];
    w[1 + col] = 0.5 * scl;
    mju_mulQuat(t, w, q1);
    mju_mulQuat(a, q2i, t);
    mju_mulQuat(b, dq2i, t);
    mju_mulQuat(t, w, dq1);
    mju_mulQuat(w, q2i, t);
    for (int i = 0; i < 3; i++) {
      L[3 * i + col] = a[1 + i];
      dL[3 * i + col] = b[1 + i] + w[1 + i];
    }
  }
}

// the bias acceleration a = Bt@p + w x T@p (X@p = lin X + ang X x (p - o): mjd_pointVel) of
// the point p fixed to body b, T and Bt the body's twists of v and bias (cdof_dot v), w = ang
// T (mj_pointBiasAcc's, the same sum); with dT, dBt (NULL: not moved) and the point's motion
// dp its slope  da = dBt@p + ang Bt x dp + ang dT x T@p + w x (dT@p + w x dp)
static void biasAcc(const mjtNum T[6], const mjtNum Bt[6], const mjtNum p[3], const mjtNum o[3],
                    const mjtNum* dT, const mjtNum* dBt, const mjtNum dp[3], mjtNum a[3]) {
  mjtNum vp[3], t[3], u[3];
  mjd_pointVel(vp, T, p, o);
  if (!dT) {
    mjd_pointVel(a, Bt, p, o);
    mju_cross(t, T, vp);
    mju_addTo3(a, t);
    return;
  }
  mjd_pointVel(a, dBt, p, o);
  mju_cross(t, Bt, dp);
  mju_addTo3(a, t);
  mju_cross(t, dT, vp);
  mju_addTo3(a, t);
  mjd_pointVel(u, dT, p, o);
  mju_cross(t, T, dp);
  mju_addTo3(u, t);
  mju_cross(t, T, u);
  mju_addTo3(a, t);
}

// the Jdot qvel of connect or weld id (res, 3 or 6: the anchors' a1 - a2 by biasAcc, the weld's
// rotation by mj_weldBiasRot) from the bodies' twists cvel and bias (6 nbody)
static void eqBias(const mjModel* m, const mjData* d, int id, const mjtNum* cvel,
                   const mjtNum* bias, mjtNum res[6]) {
  int b[2];
  mjtNum p[2][3], q[2][4], a[2][3];
  mj_eqBodies(m, id, b);
  mj_eqFrames(m, d, id, p[0], p[1], q[0], q[1]);
  for (int s = 0; s < 2; s++) {
    biasAcc(cvel + 6 * b[s], bias + 6 * b[s], p[s], d->subtree_com + 3 * m->body_rootid[b[s]],
            NULL, NULL, NULL, a[s]);
  }
  mju_sub3(res, a[0], a[1]);
  if (m->eq_type[id] != mjEQ_WELD) return;
  mj_weldBiasRot(q[0], q[1], m->eq_data[11 * id + 10], cvel + 6 * b[0], cvel + 6 * b[1],
                 bias + 6 * b[0], bias + 6 * b[1], res + 3);
}

// the slope of connect or weld id's Jdot qvel (db, 3 or 6) as dof k (c) moves: body[s] (obj2,
// obj1) at pt[s] moving by dp[s], q the frames (mj_eqFrames: obj1's, obj2's); a moved body's
// twists turn with the dofs after k,
//   dT = S x (T - pre_v),  dBt = S x (Bt - pre_b) - (S x pre_v) x (T - pre_v)
// (d cdof_dot_j = dV_j x cdof_j + V_j x (S x cdof_j) = S x cdof_dot_j - (S x pre_v) x cdof_j by
// Jacobi's identity, V_j the velocity cdof_dot_j is taken at); the weld's rotation, linear in
// each quaternion (dq = [0, ang S] q / 2 when moved) and of degree 2 in (w, al), by
//   df = f(dq1, q2) + f(q1, dq2) + (f(w + dw, al + dal) - f(w - dw, al - dal)) / 2
static void eqBiasSlope(const mjModel* m, const mjData* d, const Column* c, int id,
                        const int body[2], const mjtNum pt[2][3], const mjtNum dp[2][3],
                        const mjtNum q[2][4], const mjtNum* tw[3], mjtNum db[6]) {
  mjtNum dT[2][6] = {{0}}, dBt[2][6] = {{0}}, a[3], t[6], u[6], Sp[6];
  mju_zero(db, 6);
  for (int s = 0; s < 2; s++) {
    int b = body[s];
    if (!bodyMoved(c, b)) continue;
    const mjtNum *T = tw[0] + 6 * b, *Bt = tw[2] + 6 * b;
    mju_sub(t, T, c->pre[0], 6);
    mju_crossMotion(dT[s], c->S, t);
    mju_sub(u, Bt, c->pre[2], 6);
    mju_crossMotion(dBt[s], c->S, u);
    mju_crossMotion(Sp, c->S, c->pre[0]);
    mju_crossMotion(u, Sp, t);
    mju_subFrom(dBt[s], u, 6);
    biasAcc(T, Bt, pt[s], d->subtree_com + 3 * m->body_rootid[b], dT[s], dBt[s], dp[s], a);
    mju_addToScl3(db, a, s ? 1 : -1);
  }
  if (m->eq_type[id] != mjEQ_WELD) return;

  // the rotation: obj1 = body[1], obj2 = body[0]
  mjtNum scl = m->eq_data[11 * id + 10];
  const mjtNum *w[2] = {tw[0] + 6 * body[1], tw[0] + 6 * body[0]};
  const mjtNum *al[2] = {tw[2] + 6 * body[1], tw[2] + 6 * body[0]};
  mjtNum f[3], ws[4] = {0}, dq[4], wp[2][3], ap[2][3], wm[2][3], am[2][3];
  mju_scl3(ws + 1, c->S, 0.5);
  for (int s = 0; s < 2; s++) {
    if (!bodyMoved(c, body[1 - s])) continue;
    mju_mulQuat(dq, ws, q[s]);
    mj_weldBiasRot(s ? q[0] : dq, s ? dq : q[1], scl, w[0], w[1], al[0], al[1], f);
    mju_addTo3(db + 3, f);
  }
  for (int s = 0; s < 2; s++) {
    for (int i = 0; i < 3; i++) {
      wp[s][i] = w[s][i] + dT[1 - s][i], wm[s][i] = w[s][i] - dT[1 - s][i];
      ap[s][i] = al[s][i] + dBt[1 - s][i], am[s][i] = al[s][i] - dBt[1 - s][i];
    }
  }
  mj_weldBiasRot(q[0], q[1], scl, wp[0], wp[1], ap[0], ap[1], f);
  mju_addToScl3(db + 3, f, 0.5);
  mj_weldBiasRot(q[0], q[1], scl, wm[0], wm[1], am[0], am[1], f);
  mju_addToScl3(db + 3, f, -0.5);
}

// for the connect or weld equality at efc rows adr.. (pos = p1 - p2 of anchors fixed to
// bodies 1 and 2 and for the weld scl vec(q2^-1 q1), q1, q2 its frames (mj_eqFrames); rows
// Jp_1(p1) - Jp_2(p2) and L (w_1 - w_2) (weldFrame): pointColumn's with A = body 2, B = body 1
// and the world frame): E (+=)
// gains dJ/dq_k a + B dJ/dq_k v and the slope of aref's Jdot v (eqBiasSlope), P the rows' own
// position slopes (Jk: J's column k; pos moves as J), V their common violation |pos|'s slope
// n'P, n = pos/|pos|; Gk as ever
static void bodyEqColumn(const mjModel* m, const mjData* d, const Column* c, int adr,
                         const mjtNum* Jk, const mjtNum* tw[3], const mjtNum* force,
                         mjtNum* E, mjtNum* P, mjtNum* V, mjtNum* Gk) {
  static const mjtNum eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, zero[9] = {0};
  int id = d->efc_id[adr], b[2];
  int weld = m->eq_type[id] == mjEQ_WELD, n = weld ? 6 : 3;
  mj_eqBodies(m, id, b);
  int body[2] = {b[1], b[0]};
  mjtNum pt[2][3], q[2][4], dp[2][3], db[2][6], bs[6], L[9], dL[9];
  mjtNum norm = mju_norm(d->efc_pos + adr, n);
  mjtNum slope = 0;
  for (int r = 0; r < n; r++) {
    P[adr + r] = Jk[adr + r];
    slope += norm > mjMINVAL ? d->efc_pos[adr + r] / norm * Jk[adr + r] : 0;
  }
  for (int r = 0; r < n; r++) V[adr + r] = slope;
  if (!bodyMoved(c, body[0]) && !bodyMoved(c, body[1])) return;
  mj_eqFrames(m, d, id, pt[1], pt[0], q[0], q[1]);
  for (int s = 0; s < 2; s++) fixedMotion(c->S, c->o, bodyMoved(c, body[s]), pt[s], dp[s]);
  if (weld) weldFrame(c, q[0], q[1], m->eq_data[11 * id + 10], body[1], body[0], L, dL);
  const mjtNum* p[2] = {pt[0], pt[1]};
  pointColumn(m, d, c, body, p, dp, eye, zero, L, dL, n, tw, force + adr, db, Gk);
  eqBiasSlope(m, d, c, id, body, pt, dp, q, tw, bs);
  for (int r = 0; r < n; r++)
    E[adr + r] += db[1][r] + d->efc_KBIP[4 * (adr + r) + 1] * db[0][r] + bs[r];
}

// site-to-site spatial tendon t (its length's gradient J times sg = +-1) carrying the force
// f as dof k (c) moves: the segments' rows u'(v_B(p_B) - v_A(p_A)), u = sg (p_B - p_A)/L
// turning by du = sg (I - u u')(dp_B - dp_A)/L, pointColumn's each: db (+=) dJ/dq_k v and
// dJ/dq_k a, Gk (+=) dJ'/dq_k f
static void tendonTurn(const mjModel* m, const mjData* d, const Column* c, int t, mjtNum sg,
                       const mjtNum* tw[2], mjtNum f, mjtNum db[2], mjtNum* Gk) {
  for (int w = m->tendon_adr[t]; w + 1 < m->tendon_adr[t] + m->tendon_num[t]; w++) {
    int site[2] = {m->wrap_objid[w], m->wrap_objid[w + 1]};
    int body[2] = {m->site_bodyid[site[0]], m->site_bodyid[site[1]]};
    if (!bodyMoved(c, body[0]) && !bodyMoved(c, body[1])) continue;
    const mjtNum* p[2] = {d->site_xpos + 3 * site[0], d->site_xpos + 3 * site[1]};
    mjtNum dp[2][3], u[9] = {0}, du[9] = {0}, rel[3], seg[2][6];
    for (int s = 0; s < 2; s++) fixedMotion(c->S, c->o, bodyMoved(c, body[s]), p[s], dp[s]);
    mju_sub3(u, p[1], p[0]);
    mjtNum len = mju_normalize3(u);
    if (len < mjMINVAL) continue;
    mju_sub3(rel, dp[1], dp[0]);
    mju_copy3(du, rel);
    mju_addToScl3(du, u, -mju_dot3(u, rel));
    mju_scl3(du, du, sg / len);
    mju_scl3(u, u, sg);
    pointColumn(m, d, c, body, p, dp, u, du, u, du, 1, tw, &f, seg, Gk);
    db[0] += seg[0][0];
    db[1] += seg[1][0];
  }
}

// tendonTurn for the tendon of efc row r with its force: E[r] (+=) gains
// dJ/dq_k a + B dJ/dq_k v
static void tendonColumn(const mjModel* m, const mjData* d, const Column* c, int r,
                         mjtNum sg, const mjtNum* tw[2], const mjtNum* force, mjtNum* E,
                         mjtNum* Gk) {
  mjtNum db[2] = {0, 0};
  tendonTurn(m, d, c, d->efc_id[r], sg, tw, force[r], db, Gk);
  E[r] += db[1] + d->efc_KBIP[4 * r + 1] * db[0];
}

// the slopes of site-only spatial tendon t's velocity and Jacobian by q (derivative.h): vel
// (nv) gets d ten_velocity_t/dq_k = dJ_t/dq_k v, dJ (nv x nv column-major) column k dJ_t/dq_k;
// NULL: not wanted
void mjd_tendonSlopes(const mjModel* m, mjData* d, int t, mjtNum* vel, mjtNum* dJ) {
  int nv = m->nv;
  size_t mark = mj_markStack(d);
  int* moved = (int*)mj_stackAlloc(d, (size_t)m->nbody / 2 + 1);
  mjtNum* none = mj_stackAlloc(d, (size_t)nv);
  const mjtNum* tw[3] = {d->cvel, d->cvel, d->cvel};  // only v's used
  if (dJ) mju_zero(dJ, nv * nv);
  for (int k = 0; k < nv; k++) {
    Column c = columnAt(m, d, k, tw, moved);
    mjtNum db[2] = {0, 0};
    tendonTurn(m, d, &c, t, 1, tw, dJ != NULL, db, dJ ? dJ + (size_t)k * nv : none);
    if (vel) vel[k] = db[0];
  }
  mj_freeStack(d, mark);
}

// Gq (nv x nv column-major, +=) the spatial tendons' part of d(J_t' f_t)/dq that their
// turning adds: column k gains dJ_t'/dq_k f_t + J_t' fv_t (dJ_t/dq_k v) for every site-only
// spatial tendon t with force f[t] (held) and velocity slope fv[t] (derivative.h)
void mjd_tendonTurn(const mjModel* m, mjData* d, const mjtNum* f, const mjtNum* fv,
                    mjtNum* Gq) {
  int nv = m->nv;
  size_t mark = mj_markStack(d);
  int* moved = (int*)mj_stackAlloc(d, (size_t)m->nbody / 2 + 1);
  const mjtNum* tw[3] = {d->cvel, d->cvel, d->cvel};  // only v's used
  for (int k = 0; k < nv; k++) {
    Column c = columnAt(m, d, k, tw, moved);
    mjtNum* Gk = Gq + (size_t)k * nv;
    for (int t = 0; t < m->ntendon; t++) {
      if ((!f[t] && !fv[t]) || mjd_tendonFixed(m, t)) continue;
      mjtNum db[2] = {0, 0};
      tendonTurn(m, d, &c, t, 1, tw, f[t], db, Gk);
      mju_addToScl(Gk, d->ten_J + (size_t)t * nv, fv[t] * db[0], nv);
    }
  }
  mj_freeStack(d, mark);
}

// R (nv x nv column-major: column k = dJ'/dq_k f, the forces held) for the row forces f
// (nefc) nonzero on friction rows only: contacts' rows and site-to-site spatial tendons'
// friction by their columns' transposed products (the rows' own slopes, E, unused: v's
// twists stand in for a's); joint and fixed-tendon friction rows are constant
void mjd_frictionSlopes(const mjModel* m, mjData* d, const mjtNum* f, mjtNum* R) {
  int nv = m->nv, nefc = d->nefc;
  size_t mark = mj_markStack(d);
  mjtNum* fb = mj_stackAlloc(d, 4 * (size_t)nefc);
  mjtNum *E = fb + nefc, *P = fb + 2 * nefc, *V = fb + 3 * nefc;
  int* moved = (int*)mj_stackAlloc(d, (size_t)m->nbody / 2 + 1);
  const mjtNum* tw[3] = {d->cvel, d->cvel, d->cvel};  // only v's used

  // the basis forces of contacts with forces (at their first rows, else 0)
  mju_zero(fb, nefc);
  for (int r = 0; r < nefc; r++) {
    int type = d->efc_type[r];
    const mjContact* con = d->contact + d->efc_id[r];
    if (type >= mjCNSTR_CONTACT_FRICTIONLESS && con->efc_address == r)
      mjd_rowsToBasis(con, type, f + r, fb + r);
  }
  mju_zero(R, nv * nv);
  for (int k = 0; k < nv; k++) {
    Column c = columnAt(m, d, k, tw, moved);
    for (int r = 0; r < nefc; r++) {
      int type = d->efc_type[r], id = d->efc_id[r];
      if (type == mjCNSTR_FRICTION_TENDON && f[r] && !mjd_tendonFixed(m, id))
        tendonColumn(m, d, &c, r, 1, tw, f, E, R + (size_t)k * nv);
      if (type >= mjCNSTR_CONTACT_FRICTIONLESS && d->contact[id].efc_address == r &&
          mju_norm(fb + r, d->contact[id].dim) > 0)
        contactColumn(m, d, &c, r, tw, fb + r, E, P, V, R + (size_t)k * nv);
    }
  }
  mj_freeStack(d, mark);
}

// E (nefc, +=) the slope of the connect and weld rows' Jdot v by qvel_c, Jdot v quadratic in v
// at fixed q: by polarization, exactly  (b(v + s e_c) - b(v - s e_c)) / 2s  (s = max(1, |v|):
// the same relative rounding at any speed), b by eqBias from mj_comVel's twists at v +- s e_c
static void biasVelSlope(const mjModel* m, mjData* d, int c, mjtNum* E) {
  int nv = m->nv, nbody = m->nbody;
  size_t mark = mj_markStack(d);
  mjtNum* vel = mj_stackAlloc(d, (size_t)nv);
  mjtNum* cdd = mj_stackAlloc(d, 6 * (size_t)nv);
  mjtNum* cvel[2] = {mj_stackAlloc(d, 6 * (size_t)nbody), mj_stackAlloc(d, 6 * (size_t)nbody)};
  mjtNum* bias[2] = {mj_stackAlloc(d, 6 * (size_t)nbody), mj_stackAlloc(d, 6 * (size_t)nbody)};
  mjtNum s = fmax(1, mju_norm(d->qvel, nv)), b[2][6];

  // the twists at v + s e_c (x = 0) and v - s e_c (x = 1)
  for (int x = 0; x < 2; x++) {
    mju_copy(vel, d->qvel, nv);
    vel[c] += x ? -s : s;
    mjd_comVelAt(m, d, vel, cvel[x], cdd);
    bodyTwists(m, cdd, vel, bias[x]);
  }
  for (int r = 0; r < d->nefc && d->efc_type[r] == mjCNSTR_EQUALITY; r++) {
    int id = d->efc_id[r], type = m->eq_type[id], n = type == mjEQ_WELD ? 6 : 3;
    if (type != mjEQ_CONNECT && type != mjEQ_WELD) continue;
    for (int x = 0; x < 2; x++) eqBias(m, d, id, cvel[x], bias[x], b[x]);
    for (int i = 0; i < n; i++) E[r + i] += (b[0][i] - b[1][i]) / (2 * s);
    r += n - 1;
  }
  mj_freeStack(d, mark);
}

// the slope by the violation of row r's adhesive bias R delta_r (mj_rowAdhesion; 0 off
// adhesive contacts): R = (1 - imp)/imp diagApprox (when above its floor mjMINVAL) has
// dR/dviol = -diagApprox imp' / imp^2
static mjtNum adhesionSlope(const mjData* d, int r) {
  int type = d->efc_type[r];
  if (type < mjCNSTR_CONTACT_FRICTIONLESS || d->efc_R[r] <= mjMINVAL) return 0;
  const mjContact* con = d->contact + d->efc_id[r];
  mjtNum delta = mj_rowAdhesion(con, type, r - con->efc_address), imp = d->efc_KBIP[4 * r + 2];
  return -delta * d->efc_diagApprox[r] * d->efc_KBIP[4 * r + 3] / (imp * imp);
}

// Y (nv x ncol column-major, q columns first, then v): from G0 on entry to the derivative of
// the constrained acceleration d->qacc: (M + J'HJ) Y = G0 + Gc, Gc the constraint terms of the
// head comment, at the rows' forces, states and cone Hessians of jar = J qacc - aref (as
// mj_constraintUpdate finds them: contact.H is written, efc_force and efc_state are not).
// dforce (nefc x ncol column-major, NULL: not wanted) gets the forces' derivative
//   df = f . g . V - H (E + J da)   (q columns),   -H (B . J_c + J da)   (v),   -H J da
// (the rest): the rows' forces -H jar moving with jar and with D through the impedance;
// djar (the same shape, NULL: not wanted) jar's derivative E + J da (E = B . J_c in the v
// columns, 0 after them)
void mjd_constraintAcc(const mjModel* m, mjData* d, mjtNum* Y, int ncol, mjtNum* dforce,
                       mjtNum* djar) {
  int nv = m->nv, nefc = d->nefc, nbody = m->nbody;
  size_t mark = mj_markStack(d);
  mjtNum* Jt = mj_stackAlloc(d, (size_t)nv * nefc);
  mjtNum* HJ = mj_stackAlloc(d, (size_t)nv * nefc);
  mjtNum* A = mj_stackAlloc(d, (size_t)nv * nv);
  mjtNum* force = mj_stackAlloc(d, (size_t)nefc);
  mjtNum* jar = mj_stackAlloc(d, (size_t)nefc);
  mjtNum* qfrc = mj_stackAlloc(d, (size_t)nv);
  mjtNum* E = mj_stackAlloc(d, (size_t)nefc);
  mjtNum* V = mj_stackAlloc(d, (size_t)nefc);
  mjtNum* P = mj_stackAlloc(d, (size_t)nefc);
  mjtNum* Z = mj_stackAlloc(d, (size_t)nefc);
  mjtNum* fb = mj_stackAlloc(d, (size_t)nefc);
  mjtNum* gf = mj_stackAlloc(d, (size_t)nefc);
  mjtNum* side = mj_stackAlloc(d, (size_t)nefc);
  mjtNum* kviol = mj_stackAlloc(d, (size_t)nefc);
  mjtNum* adh = mj_stackAlloc(d, (size_t)nefc);
  mjtNum* acc = mj_stackAlloc(d, 6 * (size_t)nbody);
  mjtNum* bias = mj_stackAlloc(d, 6 * (size_t)nbody);
  mjtNum* eqJ2 = mj_stackAlloc(d, (size_t)nv * m->neq);
  mjtNum* eqc = mj_stackAlloc(d, 3 * (size_t)m->neq);
  int* state = (int*)mj_stackAlloc(d, (size_t)nefc / 2 + 1);
  Hess H = {0, 0, (int*)mj_stackAlloc(d, (size_t)nefc / 2 + 1),
            (int*)mj_stackAlloc(d, (size_t)nefc / 2 + 1)};
  int* moved = (int*)mj_stackAlloc(d, (size_t)nbody / 2 + 1);
  RowsJ J = {(int*)mj_stackAlloc(d, (size_t)nefc / 2 + 1),
             (int*)mj_stackAlloc(d, (size_t)nv * nefc / 2 + 1),
             mj_stackAlloc(d, (size_t)nv * nefc)};

  // forces, states and cone Hessians at the solution, d's own arrays left as they are
  mj_mulJacVec(m, d, jar, d->qacc);
  mju_subFrom(jar, d->efc_aref, nefc);
  mjtNum *force0 = d->efc_force, *qfrc0 = d->qfrc_constraint;
  int* state0 = d->efc_state;
  d->efc_force = force, d->efc_state = state, d->qfrc_constraint = qfrc;
  mj_constraintUpdate(m, d, jar, NULL, 1);
  d->efc_force = force0, d->efc_state = state0, d->qfrc_constraint = qfrc0;
  hessRows(d, state, &H);

  // J by columns and its nonzeros by rows (side: a tendon row's sign against the tendon's
  // J), H J, and A = M + J'HJ (M dense from qM's ancestor rows)
  J.adr[0] = 0;
  for (int r = 0; r < nefc; r++) {
    mj_efcRow(m, d, r, qfrc);
    J.adr[r + 1] = J.adr[r];
    for (int c = 0; c < nv; c++) {
      Jt[(size_t)c * nefc + r] = qfrc[c];
      if (!qfrc[c]) continue;
      J.ind[J.adr[r + 1]] = c;
      J.val[J.adr[r + 1]++] = qfrc[c];
    }
    int ten = d->efc_type[r] == mjCNSTR_LIMIT_TENDON || d->efc_type[r] == mjCNSTR_FRICTION_TENDON;
    side[r] = ten && mju_dot(d->ten_J + (size_t)d->efc_id[r] * nv, qfrc, nv) < 0 ? -1 : 1;
  }
  for (int c = 0; c < nv; c++) mulH(d, &H, Jt + (size_t)c * nefc, HJ + (size_t)c * nefc);
  mju_zero(A, nv * nv);
  for (int i = 0; i < nv; i++) {
    const mjtNum* row = d->qM + m->dof_Madr[i];
    for (int j = i; j >= 0; j = m->dof_parentid[j]) A[i * nv + j] = A[j * nv + i] = *row++;
  }
  addJtHJ(Jt, HJ, nv, nefc, A);

  // the basis forces of contacts (at their first rows), f . g for the impedance term and the
  // columns' common coefficients of E (kviol = imp'(pos - margin), adh the adhesion's slope);
  // an adhesive contact's normal force less its passive pull (qfrc_adhesion = J_n' (-delta)
  // turns with the rows as a force held)
  int adhesion = mj_passiveOn(m);
  for (int r = 0; r < nefc; r++) {
    const mjtNum* kbip = d->efc_KBIP + 4 * r;
    mjtNum imp = kbip[2];
    gf[r] = force[r] * kbip[3] / fmax(mjMINVAL, imp * (1 - imp));
    kviol[r] = kbip[3] * (d->efc_pos[r] - d->efc_margin[r]);
    adh[r] = adhesionSlope(d, r);
    int type = d->efc_type[r];
    const mjContact* con = d->contact + d->efc_id[r];
    if (type < mjCNSTR_CONTACT_FRICTIONLESS || con->efc_address != r) continue;
    mjd_rowsToBasis(con, type, force + r, fb + r);
    if (adhesion) fb[r] -= con->adhesion;
  }

  // twists of a and of the bias cdof_dot v for every body (v's: cvel)
  bodyTwists(m, d->cdof, d->qacc, acc);
  bodyTwists(m, d->cdof_dot, d->qvel, bias);
  const mjtNum* tw[3] = {d->cvel, acc, bias};

  // scalar equalities: P'' and J2'a, J2'v (eqc: 3 per equality)
  for (int r = 0; r < nefc; r++) {
    if (d->efc_type[r] != mjCNSTR_EQUALITY) continue;
    int id = d->efc_id[r];
    mjtNum* J2 = eqJ2 + (size_t)id * nv;
    eqc[3 * id] = eqCurvature(m, d, id, J2);
    eqc[3 * id + 1] = mju_dot(J2, d->qacc, nv);
    eqc[3 * id + 2] = mju_dot(J2, d->qvel, nv);
  }

  // 1 when connect or weld rows have aref's Jdot v
  int nbias = 0;
  for (int r = 0; r < nefc; r++) {
    int type = d->efc_type[r] == mjCNSTR_EQUALITY ? m->eq_type[d->efc_id[r]] : -1;
    nbias |= type == mjEQ_CONNECT || type == mjEQ_WELD;
  }

  // position columns: Gq_k += dJ'_k f + J'(f . g . V - H E),
  // E = dJ_k a + B dJ_k v + K (imp P + imp' (pos - margin) V), V the violation's slope and P
  // the row position's (the same but for connect, whose violation is |pos|)
  for (int k = 0; k < nv; k++) {
    Column c = columnAt(m, d, k, tw, moved);
    mjtNum *Gk = Y + (size_t)k * nv, *Jk = Jt + (size_t)k * nefc;
    mju_zero(E, nefc);
    mju_zero(V, nefc);
    mju_zero(P, nefc);
    for (int r = 0; r < nefc; r++) {
      int type = d->efc_type[r], id = d->efc_id[r];
      int first = !r || d->efc_type[r - 1] != type || d->efc_id[r - 1] != id;
      if ((type == mjCNSTR_LIMIT_TENDON || type == mjCNSTR_FRICTION_TENDON) &&
          !mjd_tendonFixed(m, id)) {
        tendonColumn(m, d, &c, r, side[r], tw, force, E, Gk);
      }
      if (type == mjCNSTR_LIMIT_JOINT || type == mjCNSTR_LIMIT_TENDON) {
        V[r] = P[r] = Jk[r];
        int dof = type == mjCNSTR_LIMIT_JOINT ? m->jnt_dofadr[id] : -1;
        if (dof >= 0 && m->jnt_type[id] == mjJNT_BALL && k >= dof && k < dof + 3)
          ballLimitColumn(m, d, r, k, force, E, Gk);
      } else if (type == mjCNSTR_EQUALITY &&
                 (m->eq_type[id] == mjEQ_CONNECT || m->eq_type[id] == mjEQ_WELD)) {
        if (first) bodyEqColumn(m, d, &c, r, Jk, tw, force, E, P, V, Gk);
      } else if (type == mjCNSTR_EQUALITY) {
        const mjtNum *J2 = eqJ2 + (size_t)id * nv, *ec = eqc + 3 * id;
        mjtNum sk = -ec[0] * J2[k];
        V[r] = P[r] = Jk[r];
        E[r] += sk * (ec[1] + d->efc_KBIP[4 * r + 1] * ec[2]);
        if (sk) mju_addToScl(Gk, J2, sk * force[r], nv);
      } else if (type >= mjCNSTR_CONTACT_FRICTIONLESS && d->contact[id].efc_address == r) {
        contactColumn(m, d, &c, r, tw, fb + r, E, P, V, Gk);
      }
    }
    for (int r = 0; r < nefc; r++) {
      const mjtNum* kbip = d->efc_KBIP + 4 * r;
      E[r] += kbip[0] * (kbip[2] * P[r] + kviol[r] * V[r]);
      E[r] -= adh[r] * V[r];
    }
    if (djar) mju_copy(djar + (size_t)k * nefc, E, nefc);
    mulH(d, &H, E, Z);
    for (int r = 0; r < nefc; r++) Z[r] = gf[r] * V[r] - Z[r];
    addJtz(&J, nefc, Z, 1, Gk);
    if (dforce) mju_copy(dforce + (size_t)k * nefc, Z, nefc);
  }

  // velocity columns: Gv_c -= J' H (B . J_c + dJdotv/dv_c)
  for (int c = 0; c < nv; c++) {
    for (int r = 0; r < nefc; r++) E[r] = d->efc_KBIP[4 * r + 1] * Jt[(size_t)c * nefc + r];
    if (nbias) biasVelSlope(m, d, c, E);
    if (djar) mju_copy(djar + (size_t)(nv + c) * nefc, E, nefc);
    mulH(d, &H, E, Z);
    mjtNum* Gc = Y + (size_t)(nv + c) * nv;
    addJtz(&J, nefc, Z, -1, Gc);
    if (dforce) mju_scl(dforce + (size_t)(nv + c) * nefc, Z, -1, nefc);
  }

  // Y = inv(M + J'HJ) Y, all columns at once by rows (transposed into T and back)
  mju_cholFactor(A, nv, mjMINVAL);
  mjtNum* T = mj_stackAlloc(d, (size_t)nv * ncol);
  mju_transpose(T, Y, ncol, nv);
  mju_cholSolveRows(T, A, nv, ncol);
  mju_transpose(Y, T, nv, ncol);

  // J da of every column at once, by rows of JY = J T (nefc x ncol; each entry the sum of J's
  // columns scaled by da, without the zeros); then the forces' derivative: df -= H J da, jar's:
  // djar += J da, both starting at 0 in the columns after q and v
  mjtNum* JY = dforce || djar ? mj_stackAlloc(d, (size_t)nefc * ncol) : NULL;
  if (JY) mulRowsJ(&J, nefc, T, ncol, JY);
  for (int c = 0; JY && c < ncol; c++) {
    mjtNum *df = dforce ? dforce + (size_t)c * nefc : NULL;
    mjtNum* dj = djar ? djar + (size_t)c * nefc : NULL;
    for (int r = 0; r < nefc; r++) E[r] = JY[(size_t)r * ncol + c];
    if (dj) {
      if (c >= 2 * nv) mju_zero(dj, nefc);
      mju_addTo(dj, E, nefc);
    }
    if (df) {
      if (c >= 2 * nv) mju_zero(df, nefc);
      mulH(d, &H, E, Z);
      mju_subFrom(df, Z, nefc);
    }
  }
  mj_freeStack(d, mark);
}
