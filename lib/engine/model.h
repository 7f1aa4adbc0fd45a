// model.h: internal helpers of model and data allocation shared across lib/.
#ifndef MJ_MODEL_H
#define MJ_MODEL_H

#include "mj.h"

// n ints from d's stack (NULL when it is exhausted)
static inline int* mj_stackInt(mjData* d, size_t n) {
  return (int*)mj_stackAlloc(d, (n + 1) / 2);
}

// n rounded up to a multiple of 8, so every array of a buffer is 8-byte aligned
static inline size_t mj_align8(size_t n) { return (n + 7) & ~(size_t)7; }

// the largest model or data buffer (bytes): sizes asking for more are refused before any
// allocation (a damaged or hostile file must not take the machine's memory); 1.5 GiB, so
// that <size memory="1G">, common in MuJoCo's models, fits beside the other arrays
#define MJ_MAXBUFFER ((double)(3u << 29))

// 1 when every size of m is non-negative and the model's arrays fit in MJ_MAXBUFFER
int mj_sizesValid(const mjModel* m);

// bytes of the data buffer of m (every data array, each rounded up to 8, and the stack), in
// double so that absurd sizes compare with MJ_MAXBUFFER instead of wrapping around
double mj_dataBytes(const mjModel* m);

// the fewest mjtNums of stack the pipeline needs for m: implicit integration (qacc and a
// gradient, then the dense nv x nv matrix and the RNE derivative's two 6 nM blocks of chain
// columns, 12 nv and nv ints, or implicitfast's two nM and nv), Euler with damping (two nM,
// two nv), RK4 (its stage copies, 11 nv + nq + 6 na, around mj_forward's RNE of 12 nbody),
// plus the constraint stages' vectors beside the arena (32 nv + 16 njmax)
double mj_stackNeed(const mjModel* m);

// what the constraint stage needs above mj_stackNeed for m's njmax rows, of which at most
// nwide (a tendon's) may touch every dof and the others at most rownnz dofs (two kinematic
// chains): the efc arrays in the arena, the islands with one island's view, and the largest
// solver's stack (Newton's factor of M + J'DJ, dense or over at most a full lower triangle;
// PGS's sparse columns of W); with
// `dense` for a dense Jacobian (njmax x nv, gathered into compressed rows by the solvers)
double mj_constraintStackNeed(const mjModel* m, double rownnz, double nwide, int dense);

// the stack of data for the sizes of m (nv, nM, njmax, the options): mj_stackNeed and the
// constraint stage's need (the dense Jacobian's too when the options choose it), with rows
// over two chains of at most `chain` dofs each and `ntenrow` tendon rows; at least 1 MiB
double mj_dataStackNeed(const mjModel* m, int chain, int ntenrow);

// point the efc_* arrays of the arena, which moved from the top `from` to the top `to`, at
// their new place (mj_growData)
void mj_moveEfc(mjData* d, const char* from, char* to);

// ---- what actuators pass on to their joint or tendon ----------------------------------------

// the id jnt_actuatorid (tendon 0) or tendon_actuatorid (tendon 1) of joint or tendon id holds:
// the actuator adding damping or armature to it when there is exactly one (joint or
// jointinparent transmission on a joint, tendon transmission on a tendon, some damping,
// polynomial term or armature nonzero), -2 for several, -1 for none (as MuJoCo 3.14)
int mj_actuatorTarget(const mjModel* m, int tendon, int id);

// damping of dof i (objtype mjOBJ_DOF) or tendon i (mjOBJ_TENDON) with what its actuators add:
// b = own + sum_a gear_a^2 b_a, returned; poly = own + sum_a gear_a^2 poly_a (gear_a the
// first gear of actuator a, summed in actuator order over the actuators of the dof's joint or
// of the tendon, as MuJoCo 3.14 does)
mjtNum mj_damping(const mjModel* m, int objtype, int i, mjtNum poly[mjNPOLY]);

// armature of dof i (mjOBJ_DOF) or tendon i (mjOBJ_TENDON) with what its actuators add:
// own + sum_a gear_a^2 armature_a
mjtNum mj_armature(const mjModel* m, int objtype, int i);

#endif
