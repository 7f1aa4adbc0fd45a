// smooth.h: the position stage of the smooth dynamics: kinematics, com-based quantities,
// composite rigid body inertia, its sparse L'DL factorization and solves, Jacobians; and
// (tendon.c) tendons and actuator transmissions.
//
// Stage functions read the model and earlier stages' outputs in d, write their outputs in d,
// never allocate (temporaries come from d's stack) and never print.  Order:
//   mj_kinematics -> mj_comPos -> mj_camlight -> mj_tendon -> mj_transmission -> mj_crb
//   -> mj_tendonArmature -> mj_factorM.
//
// The sparse inertia layout is MuJoCo's: row i of M holds its lower-triangle entries M(i,j)
// for j = i and every ancestor dof of i; its length is 1 + the number of ancestors and it
// starts at dof_Madr[i].
//   qM   row i = M(i,i), M(i,parent(i)), M(i,parent(parent(i))), ...   (diagonal first)
//   qLD  row i = L(i,root) ... L(i,parent(i)), D(i)                    (ascending columns)
// with M = L' D L, L unit lower triangular, and qLDiagInv[i] = 1/D(i).  As in MuJoCo 3.5.1,
// the rows of qLD are packed one after another and a dof of a simple body
// (dof_simplenum > 0, diagonal inertia block) keeps only D(i); the tail of qLD is zero.
#ifndef MJ_SMOOTH_H
#define MJ_SMOOTH_H

#include "mj.h"

// the last dof on the path from body b to the world: of b or of its nearest ancestor with
// dofs (body_weldid, the nearest body with joints or mocap); -1 when b is welded to the
// world or to a mocap body
static inline int mj_bodyLastDof(const mjModel* m, int b) {
  int w = m->body_weldid[b];
  return w > 0 && m->body_dofnum[w] ? m->body_dofadr[w] + m->body_dofnum[w] - 1 : -1;
}

// the number of dofs on the chain from dof j to the world: j and its ancestors (0: j < 0)
static inline int mj_chainLength(const mjModel* m, int j) {
  int n = 0;
  for (; j >= 0; j = m->dof_parentid[j]) n++;
  return n;
}

// the deepest dof on both chains from dofs i and j to the world, -1 when they share none (a
// dof's parent has a smaller index, so the larger one climbs until they meet)
static inline int mj_commonDof(const mjModel* m, int i, int j) {
  while (i != j && i >= 0 && j >= 0) {
    if (i > j) i = m->dof_parentid[i];
    else j = m->dof_parentid[j];
  }
  return i == j ? i : -1;
}

// body, joint, geom, site, camera and light poses from qpos (and mocap_pos/quat); cameras
// and lights get their body-fixed pose here, tracking modes are applied by mj_camlight
void mj_kinematics(const mjModel* m, mjData* d);

// subtree centers of mass (needs body_subtreemass), com-based inertias cinert and dof
// motion axes cdof, both about subtree_com of the body's root and (rotation, translation)
void mj_comPos(const mjModel* m, mjData* d);

// camera and light tracking modes (track, trackcom, targetbody, targetbodycom): needs
// subtree_com and the model's cam_/light_ pos0, poscom0, mat0 / dir0
void mj_camlight(const mjModel* m, mjData* d);

// composite rigid body inertias crb and the joint-space inertia qM (with the dofs' armature, their actuators' included)
void mj_crb(const mjModel* m, mjData* d);

// sparse factorization qM = L' D L into qLD and qLDiagInv
void mj_factorM(const mjModel* m, mjData* d);

// x = inv(M) y for n vectors of size nv stored one after another (x may equal y)
void mj_solveM(const mjModel* m, mjData* d, mjtNum* x, const mjtNum* y, int n);

// factor a symmetric matrix `mat` of qM's sparsity and layout into ld (nM) and diaginv (nv);
// with `simple`, rows of simple dofs keep only the diagonal (their off-diagonal entries are
// ignored: zero in qM and qM + diagonal; dropped on purpose by implicitfast, as in MuJoCo)
void mj_factorI(const mjModel* m, mjData* d, const mjtNum* mat, mjtNum* ld, mjtNum* diaginv,
                int simple);

// the inertia of n dofs (ascending, each one's parent dof among them; local[j] the position of
// dof j among them) as a model and data of their own: mi's nv, nM, dof_parentid, dof_Madr and
// dof_simplenum, di's qM, qLD and qLDiagInv, written into the arrays they point to (room for n
// dofs and m->nM entries)
void mj_inertiaView(const mjModel* m, const mjData* d, const int* dof, int n, const int* local,
                    mjModel* mi, mjData* di);

// x = inv(L' D L) y for n vectors with a factor from mj_factorI of the same `simple`
void mj_solveLD(const mjModel* m, const mjtNum* ld, const mjtNum* diaginv, mjtNum* x,
                const mjtNum* y, int n, int simple);

// X = inv(L' D L) X for n right sides held by rows (X(i, v) at X[i n + v]), the factor as in
// mj_solveLD
void mj_solveLDRows(const mjModel* m, const mjtNum* ld, const mjtNum* diaginv, mjtNum* X, int n,
                    int simple);

// R = M X for n vectors held by rows (X(i, v) at X[i n + v]; R apart from X)
void mj_mulMRows(const mjModel* m, const mjData* d, mjtNum* R, const mjtNum* X, int n);

// res = M vec with the sparse qM (no alias)
void mj_mulM(const mjModel* m, const mjData* d, mjtNum* res, const mjtNum* vec);

// translational (jacp) and rotational (jacr) 3 x nv Jacobians of a world point moving with
// body `body`; either may be NULL
void mj_jac(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr,
            const mjtNum point[3], int body);

// res(nv) += scl * jacp' vec, jacp the translational Jacobian of a world point moving with
// body `body` (the projection of the point's Jacobian on a direction, without temporaries)
void mj_addJacPointDot(const mjModel* m, const mjData* d, mjtNum* res, const mjtNum point[3],
                       int body, const mjtNum vec[3], mjtNum scl);

// velocity v and bias acceleration a = Jdot qvel of the world point p moving with body b, and
// (when not NULL) the body's angular velocity w and bias angular acceleration alpha = Jrdot
// qvel; needs cdof_dot
void mj_pointBiasAcc(const mjModel* m, const mjData* d, const mjtNum p[3], int body,
                     mjtNum v[3], mjtNum a[3], mjtNum w[3], mjtNum alpha[3]);

// mj_subtreeVel, subtree_angmom only when angmom (else zero)
void mj_subtreeVelPart(const mjModel* m, mjData* d, int angmom);

// mj_rnePostConstraint (cacc, cfrc_ext, cfrc_int) for the bodies whose cacc (acc[b]) or
// cfrc_int (frc[b]) is read (nbody flags each, both NULL: every body) and those their values
// depend on (marked into acc and frc: cacc on the path from the world, the net forces over the
// subtree of a read cfrc_int), bit for bit the whole pass's values; other bodies' entries zero
void mj_rnePostPart(const mjModel* m, mjData* d, unsigned char* acc, unsigned char* frc);

// world position, orientation and body + 1 of an object (body com frame, body, geom, site,
// camera); 0 when the type is not one of these
int mj_objectFrame(const mjModel* m, const mjData* d, int objtype, int id, const mjtNum** pos,
                   const mjtNum** mat);

// Jacobians of a body's center of mass
void mj_jacBodyCom(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr, int body);

// Jacobians of a site's origin
void mj_jacSite(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr, int site);

// tendon lengths ten_length, Jacobians ten_J and path points ten_wrapadr, ten_wrapnum,
// wrap_obj, wrap_xpos (tendon.c): fixed tendons; spatial tendons through sites and pulleys,
// wrapping spheres and cylinders (sidesites, inside wrapping) as MuJoCo 3.5.1 does
void mj_tendon(const mjModel* m, mjData* d);

// actuator_length and actuator_moment (tendon.c) for joint, jointinparent, tendon,
// slider-crank, site (with or without refsite) and body transmissions (adhesion: from the
// contacts and constraint rows, so after mj_makeConstraint)
void mj_transmission(const mjModel* m, mjData* d);

// qM += sum over tendons of armature (own and actuators') J'J within qM's sparsity (tendon.c; after mj_crb)
void mj_tendonArmature(const mjModel* m, mjData* d);

// qfrc += sum over tendons of J' armature (Jdot qvel), the bias force of tendon armature
// (tendon.c; needs cdof_dot: after mj_comVel)
void mj_tendonBias(const mjModel* m, mjData* d, mjtNum* qfrc);

#endif
