// constraint.h: internals of the constraint stage (lib/engine/constraint.c) shared with the solver,
// inverse dynamics and sensors; the stage functions themselves are declared in mj.h.
#ifndef MJ_CONSTRAINT_H
#define MJ_CONSTRAINT_H

#include "mj.h"

#define mjMINIMP 0.0001  // smallest impedance d0, dwidth and midpoint (solimp is clamped)
#define mjMAXIMP 0.9999  // largest impedance d0, dwidth and midpoint

// 1 when efc_J is stored as compressed rows: opt.jacobian sparse, or auto with nv >= 60
int mj_isSparse(const mjModel* m);

// 1 when dense rows come with their lengths efc_J_rowlen (nv >= 12)
int mj_denseRowLengths(const mjModel* m);

// row(nv) = row r of efc_J, dense or sparse
void mj_efcRow(const mjModel* m, const mjData* d, int r, mjtNum* row);

// rows (nrow, +=) from basis values b (dim) of contact con whose first row has type `type`:
// the normal alone, the elliptic basis, or the pyramid's b0 +- mu_i b_i
void mj_contactBasisToRows(const mjContact* con, int type, const mjtNum* b, mjtNum* rows);

// the adhesion of contact con's row r (from its first; `type` that row's): the whole delta on
// the normal row of a frictionless or elliptic contact (0 on its friction rows), delta / (2
// (dim-1)) on each edge of a pyramid; efc_aref has R times it added
mjtNum mj_rowAdhesion(const mjContact* con, int type, int r);

// the velocity field of geom g's surface (geom_surfacevel: linear a, angular w in the geom
// frame R, x) at point p in the world: lin = R a + ang x (p - x), ang = R w
void mj_geomSurfaceVel(const mjModel* m, const mjData* d, int g, const mjtNum p[3],
                       mjtNum lin[3], mjtNum ang[3]);

// the basis velocities cs (6) of contact con's moving surfaces, geom 2's less geom 1's at the
// contact point, in the contact frame with the normal and rolling parts 0; 0 when neither
// geom has a surface velocity
int mj_contactSurfaceVel(const mjModel* m, const mjData* d, const mjContact* con, mjtNum cs[6]);

// the impedance d(r) of solimp = (d0, dwidth, width, midpoint, power), already clamped, at the
// violation r = pos - margin, and its derivative d'(r):
//   x = |r| / width;  y = x^p / mid^(p-1) for x <= mid, 1 - (1-x)^p / (1-mid)^(p-1) above;
//   d = d0 + y (dwidth - d0), saturating at d0 (x = 0) and dwidth (x >= 1)
void mju_impedance(const mjtNum solimp[5], mjtNum r, mjtNum* imp, mjtNum* impP);

// the bodies b[0], b[1] of connect or weld i: its objects (body semantic) or their bodies
// (site semantic: eq_objtype mjOBJ_SITE)
void mj_eqBodies(const mjModel* m, int i, int b[2]);

// the world anchors p1 (on body 1), p2 (on body 2) and frames q1, q2 (NULL: not wanted) of
// connect or weld i, which its rows hold together (pos = p1 - p2, a weld's rotation vec(q2^-1
// q1)); body semantic (data = eq_data of i):
//   connect  p1 = x1 + R1 data[0:3], p2 = x2 + R2 data[3:6]
//   weld     p1 = x1 + R1 data[3:6], p2 = x2 + R2 data[0:3], q1 = xquat1 data[6:10], q2 = xquat2
// site semantic: the two sites' world positions and orientations
void mj_eqFrames(const mjModel* m, const mjData* d, int i, mjtNum p1[3], mjtNum p2[3],
                 mjtNum* q1, mjtNum* q2);

// the torque on body 1 of a weld (its opposite on body 2) from the forces f of its rotational
// rows: q1, q2 its frames (mj_eqFrames), scl its torquescale; linear in q1, in q2 and in f
void mj_weldTorque(const mjtNum q1[4], const mjtNum q2[4], mjtNum scl, const mjtNum f[3],
                   mjtNum torque[3]);

// a weld's rotational Jdot qvel (res, 3), q1, q2 and scl as for mj_weldTorque, w1, w2 the
// bodies' angular velocities and al1, al2 their bias angular accelerations (Jrdot qvel):
// linear in q1 and in q2, a polynomial of degree 2 in (w, al)
void mj_weldBiasRot(const mjtNum q1[4], const mjtNum q2[4], mjtNum scl, const mjtNum w1[3],
                    const mjtNum w2[3], const mjtNum al1[3], const mjtNum al2[3],
                    mjtNum res[3]);

// cfrc_ext (nbody x 6) += the constraint forces efc_force as wrenches about each body's root
// subtree com: contacts (on body 2, the opposite on body 1, at the contact point), connect
// and weld constraints (on body 1 at its anchor, the opposite on body 2 at its anchor) and
// tendon rows (on the bodies along spatial tendons); with frc (nbody flags, NULL: every body)
// the contacts on no flagged body are skipped, so only the flagged bodies' entries are whole
void mj_addConstraintWrench(const mjModel* m, const mjData* d, mjtNum* cfrc_ext,
                            const unsigned char* frc);

#endif
