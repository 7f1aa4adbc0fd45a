// integrate.c: the integrators (mj_Euler, mj_implicit, mj_RungeKutta, mj_integratePos,
// declared in mj.h) and the velocity derivative of the smooth forces they need.
//
// Every integrator ends in advance(): act by act_dot (filterexact exactly, clamped to
// actrange), qvel += h qacc, qpos integrated with the new qvel (semi-implicit), time += h.
//   Euler          qacc from (M + h diag(B)) qacc = qfrc_smooth + qfrc_constraint, B the dof
//                  dampers' slopes at qvel (dof_damping with the polynomial's terms)
//   implicit       qacc from (M - h D) qacc = same, D = d(qfrc_smooth)/d(qvel): dof and
//                  tendon damping, affine actuator velocity terms, fluid drag, and -d(RNE)/dv;
//                  LU without pivoting, eliminating from the last dof (no fill on a tree)
//   implicitfast   the same without the RNE term, so D is symmetric: Cholesky L'DL of
//                  M - h D on qM's sparsity (entries of D outside it are dropped and, as in
//                  MuJoCo, so are the off-diagonal entries among the dofs of simple bodies);
//                  a standalone free body's six rows then come from its own dense block of
//                  M - h D with the RNE term (LU), as in MuJoCo since 3.11
//   RK4            the classic 4-stage tableau on (qpos, qvel, act)
#include <math.h>

#include "engine/forward.h"
#include "engine/history.h"
#include "engine/model.h"
#include "engine/smooth.h"
#include "util/util.h"

// ---- positions and the final update ----------------------------------------------------------

// qpos += scl * qvel per joint; quaternions rotate by the (local) angular velocity
void mj_integratePos(const mjModel* m, mjtNum* qpos, const mjtNum* qvel, mjtNum scl) {
  for (int j = 0; j < m->njnt; j++) {
    mjtNum* q = qpos + m->jnt_qposadr[j];
    const mjtNum* v = qvel + m->jnt_dofadr[j];
    switch (m->jnt_type[j]) {
      case mjJNT_FREE:
        mju_addToScl3(q, v, scl);
        q += 3, v += 3;
        // fall through
      case mjJNT_BALL: mju_quatIntegrate(q, v, scl); break;
      default: q[0] += scl * v[0]; break;
    }
  }
}

// history, act, qvel, qpos (with qvel_pos, or the new qvel when NULL) and time after one step
static void advance(const mjModel* m, mjData* d, const mjtNum* act_dot, const mjtNum* qacc,
                    const mjtNum* qvel_pos) {
  mjtNum h = m->opt.timestep;

  // the history buffers' samples at the step's start time
  mj_historyAdvance(m, d);

  // activations, each actuator's states in turn
  if (!(m->opt.disableflags & mjDSBL_ACTUATION)) {
    for (int i = 0; i < m->nu; i++) {
      for (int k = 0; k < m->actuator_actnum[i]; k++) {
        int adr = m->actuator_actadr[i] + k;
        d->act[adr] = mj_nextActivation(m, d, i, adr, act_dot[adr]);
      }
    }
  }

  // velocities, then positions, then time; qacc is kept as the next warm start
  mju_copy(d->qacc_warmstart, d->qacc, m->nv);
  mju_addToScl(d->qvel, qacc, h, m->nv);
  mj_integratePos(m, d->qpos, qvel_pos ? qvel_pos : d->qvel, h);
  d->time += h;
}

// ---- Euler --------------------------------------------------------------------------------

// dof i's damper slope at qvel_i: d(v c(v))/dv, its actuators' damping included (forward.h)
mjtNum mj_dofDampingSlope(const mjModel* m, const mjData* d, int i) {
  mjtNum poly[mjNPOLY], b = mj_damping(m, mjOBJ_DOF, i, poly);
  return mju_polySlope(b, poly, d->qvel[i], 1);
}

// 1 when some dof has positive damping, a damping polynomial or an actuator passing damping
// or armature on to its joint (as MuJoCo 3.14 decides) (forward.h)
int mj_dofDamped(const mjModel* m) {
  for (int i = 0; i < m->nv; i++)
    if (m->dof_damping[i] > 0 || !mju_isZero(m->dof_dampingpoly + mjNPOLY * i, mjNPOLY) ||
        m->jnt_actuatorid[m->dof_jntid[i]] != -1)
      return 1;
  return 0;
}

// semi-implicit Euler; dof damping implicit when present and not disabled
void mj_Euler(const mjModel* m, mjData* d) {
  int nv = m->nv;
  if (m->opt.disableflags & (mjDSBL_EULERDAMP | mjDSBL_DAMPER) || !mj_dofDamped(m)) {
    advance(m, d, d->act_dot, d->qacc, NULL);
    return;
  }

  // (M + h B) qacc = qfrc_smooth + qfrc_constraint with B = diag(damper slopes)
  size_t mark = mj_markStack(d);
  mjtNum* H = mj_stackAlloc(d, (size_t)m->nM);
  mjtNum* ld = mj_stackAlloc(d, (size_t)m->nM);
  mjtNum* diaginv = mj_stackAlloc(d, (size_t)nv);
  mjtNum* qacc = mj_stackAlloc(d, (size_t)nv);
  mju_copy(H, d->qM, m->nM);
  for (int i = 0; i < nv; i++) H[m->dof_Madr[i]] += m->opt.timestep * mj_dofDampingSlope(m, d, i);
  mj_factorI(m, d, H, ld, diaginv, 1);
  mju_add(qacc, d->qfrc_smooth, d->qfrc_constraint, nv);
  mj_solveLD(m, ld, diaginv, qacc, qacc, 1, 1);
  advance(m, d, d->act_dot, qacc, NULL);
  mj_freeStack(d, mark);
}

// ---- the velocity derivative D ---------------------------------------------------------------

// where D goes: A = M - h D, dense (implicit; a standalone free body's block) or on qM's
// sparsity, lower triangle (implicitfast)
typedef struct {
  mjtNum* A;     // the matrix being built
  mjtNum h;      // timestep
  int dense;     // 1: A is dense row-major n x n over dofs lo..lo+n-1; 0: A has qM's layout
  int lo, n;     // the dense window (0, nv: all of D)
} Deriv;

// A(i, j) += v in a dense A, when both dofs lie in its window
static void derivAdd(Deriv* D, int i, int j, mjtNum v) {
  i -= D->lo, j -= D->lo;
  if (i >= 0 && i < D->n && j >= 0 && j < D->n) D->A[(size_t)i * D->n + j] += v;
}

// whether dof i lies in D's window (always for qM's layout)
static int derivHas(const Deriv* D, int i) {
  return !D->dense || (i >= D->lo && i < D->lo + D->n);
}

int mj_standaloneFree(const mjModel* m, int j) {
  int b = m->jnt_bodyid[j], adr = m->jnt_dofadr[j];
  if (m->jnt_type[j] != mjJNT_FREE || m->body_jntnum[b] != 1) return -1;
  if (adr + 6 < m->nv && m->dof_treeid[adr + 6] == m->dof_treeid[adr]) return -1;
  return m->body_subtreemass[b] == m->body_mass[b] ? adr : -1;
}

// A -= h s u w' (a rank-one term of D; u = w: symmetric) restricted, as in MuJoCo, to pairs of
// dofs of which one is an ancestor of the other (qM's sparsity: tendons coupling separate
// branches contribute only their within-branch part; on qM's layout the lower triangle);
// only the dofs where u or w is nonzero are visited
static void derivOuter(const mjModel* m, Deriv* D, mjtNum s, const mjtNum* u, const mjtNum* w) {
  int nv = m->nv;
  mjtNum c = -D->h * s;
  for (int i = 0; i < nv; i++) {
    if (!u[i] && !w[i]) continue;
    if (D->dense) {
      derivAdd(D, i, i, c * u[i] * w[i]);
      for (int j = m->dof_parentid[i]; j >= 0; j = m->dof_parentid[j]) {
        derivAdd(D, i, j, c * u[i] * w[j]);
        derivAdd(D, j, i, c * u[j] * w[i]);
      }
      continue;
    }
    // row i of qM's layout: i, then its ancestors
    mjtNum* row = D->A + m->dof_Madr[i];
    for (int j = i; j >= 0 && u[i]; j = m->dof_parentid[j]) *row++ += c * u[i] * w[j];
  }
}

// A -= h s on the diagonal entry of dof i
static void derivDiag(const mjModel* m, Deriv* D, int i, mjtNum s) {
  if (D->dense) derivAdd(D, i, i, -D->h * s);
  else D->A[m->dof_Madr[i]] -= D->h * s;
}

// whether any of the n values of vec at the dofs of D's window is nonzero (all of vec for
// qM's layout): a dense window skips the terms that cannot reach it
static int derivReaches(const Deriv* D, const mjtNum* vec, int n) {
  int lo = D->dense ? D->lo : 0, hi = D->dense ? D->lo + D->n : n;
  for (int i = lo; i < hi; i++)
    if (vec[i]) return 1;
  return 0;
}

// dof damping -b, tendon damping -b J'J (b the dampers' slopes at the velocity), actuator
// velocity terms moment' k moment
static void derivDamperActuator(const mjModel* m, mjData* d, Deriv* D) {
  int nv = m->nv;
  if (!(m->opt.disableflags & mjDSBL_DAMPER)) {
    for (int i = 0; i < nv; i++) {
      mjtNum b = mj_dofDampingSlope(m, d, i);
      if (b && derivHas(D, i)) derivDiag(m, D, i, -b);
    }
    for (int t = 0; t < m->ntendon; t++) {
      mjtNum f[2], slope[2];
      mj_tendonSpringDamper(m, d, t, f, slope);
      if (slope[1] && derivReaches(D, d->ten_J + (size_t)t * nv, nv))
        derivOuter(m, D, -slope[1], d->ten_J + (size_t)t * nv, d->ten_J + (size_t)t * nv);
    }
  }
  if (m->opt.disableflags & mjDSBL_ACTUATION) return;

  // d force / d velocity through the actuator moments (each row made dense in u)
  size_t mark = mj_markStack(d);
  mjtNum* u = mj_stackAlloc(d, (size_t)nv);
  for (int i = 0; i < m->nu; i++) {
    if (mj_actuatorDisabled(m, i)) continue;
    mjtNum k = mj_actuatorForceVel(m, d, i, NULL);
    if (!k) continue;
    mj_momentRow(m, d, i, u);
    if (derivReaches(D, u, nv)) derivOuter(m, D, k, u, u);
  }
  mj_freeStack(d, mark);
}

// the fluid force of one object (a body's inertia box at its com, or a geom's ellipsoid) at
// point p (r = p - its tree's com) in frame R, its local force's derivative B (6x6) by the local
// velocity: D += sum_kl B_kl g_k g_l', g_k = J' (R e_k) with J the point's Jacobian (rot, lin),
// i.e. g_k,j = cdof_j,rot . e (k < 3) or (cdof_j,lin + cdof_j,rot x r) . e (k >= 3), e = R's
// column k mod 3; g: 6 nv of scratch
static void derivFluidObject(const mjModel* m, mjData* d, Deriv* D, int b, const mjtNum p[3],
                             const mjtNum R[9], const mjtNum B[36], mjtNum* g) {
  int nv = m->nv, last = mj_bodyLastDof(m, b);
  if (last < 0 || !derivHas(D, last)) return;
  mjtNum r[3];
  mju_sub3(r, p, d->subtree_com + 3 * m->body_rootid[b]);
  mju_zero(g, 6 * (size_t)nv);
  for (int k = 0; k < 6; k++) {
    mjtNum e[3] = {R[k % 3], R[3 + k % 3], R[6 + k % 3]}, *gk = g + (size_t)k * nv;
    for (int j = last; j >= 0; j = m->dof_parentid[j]) {
      const mjtNum* cdof = d->cdof + 6 * j;
      if (k < 3) {
        gk[j] = mju_dot3(cdof, e);
      } else {
        mjtNum lin[3];
        mju_cross(lin, cdof, r);
        mju_addTo3(lin, cdof + 3);
        gk[j] = mju_dot3(lin, e);
      }
    }
  }
  for (int k = 0; k < 6; k++)
    for (int l = 0; l < 6; l++)
      if (B[6 * k + l]) derivOuter(m, D, B[6 * k + l], g + (size_t)k * nv, g + (size_t)l * nv);
}

// fluid forces, object by object (mj_fluidNext), the ellipsoids' derivatives made symmetric
// under implicitfast but for standalone free bodies (as MuJoCo); g: 6 nv of scratch
static void derivFluid(const mjModel* m, mjData* d, Deriv* D, mjtNum* g) {
  int fast = m->opt.integrator == mjINT_IMPLICITFAST;
  for (int b = 1; b < m->nbody; b++) {
    int type, free = m->body_jntnum[b] == 1 && mj_standaloneFree(m, m->body_jntadr[b]) >= 0;
    int sym = fast && !free;
    for (int o = mj_fluidNext(m, b, -1, &type); o >= 0; o = mj_fluidNext(m, b, o, &type)) {
      const mjtNum *pos, *mat;
      mjtNum lfrc[6], B[36];
      mj_fluidObjectForce(m, d, type, o, lfrc, B);
      mj_objectFrame(m, d, type, o, &pos, &mat);
      for (int k = 0; k < 6 && sym; k++)
        for (int l = 0; l < k; l++) B[6 * k + l] = B[6 * l + k] = (B[6 * k + l] + B[6 * l + k]) / 2;
      derivFluidObject(m, d, D, b, pos, mat, B, g);
    }
  }
}

// -d(qfrc_bias)/d(qvel) into the dense A (as A += h dbias/dv): differentiate
//   cvel_b = cvel_p + sum cdof_j v_j,  cdof_dot_j = cvel_before_j x cdof_j,
//   cacc_b = cacc_p + sum cdof_dot_j v_j,  cfrc_b = I cacc_b + cvel_b x* (I cvel_b)
// wrt the velocities of b's chain (its dofs and its ancestors', ascending: nothing else moves
// b), 6 x nchain per body; as bias_i = cdof_i' sum_{c in subtree(i)} cfrc_c, each body c adds
//   A(i,k) += h cdof_i' dcfrc_c(:,k)   for i, k in its chain
// A body with dofs keeps its columns at 6 dof_Madr[its last dof] (qM's row of that dof is as
// long as the chain, and rows do not overlap); a body without dofs moves with its parent.
// Only the bodies whose last dof is in dofs lo..lo+n-1 add their terms
static void derivRNE(const mjModel* m, mjData* d, Deriv* D, int lo, int n) {
  int nv = m->nv, nbody = m->nbody;
  size_t mark = mj_markStack(d);
  mjtNum* dvel = mj_stackAlloc(d, 6 * (size_t)m->nM);
  mjtNum* dacc = mj_stackAlloc(d, 6 * (size_t)m->nM);
  mjtNum* dfrc = mj_stackAlloc(d, 6 * (size_t)nv);
  mjtNum* dcdd = mj_stackAlloc(d, 6 * (size_t)nv);
  int* chain = (int*)mj_stackAlloc(d, (size_t)nv / 2 + 1);

  for (int b = 1; b < nbody; b++) {
    // the chain's dofs, ascending (column c: the derivative wrt qvel[chain[c]]); the parent's
    // chain is its first np, and b's block starts where its last dof's qM row does
    int last = mj_bodyLastDof(m, b), plast = mj_bodyLastDof(m, m->body_parentid[b]), nb = 0;
    if (last >= 0 && (last < lo || last >= lo + n)) continue;
    for (int j = last; j >= 0; j = m->dof_parentid[j]) nb++;
    for (int j = last, c = nb; j >= 0; j = m->dof_parentid[j]) chain[--c] = j;
    int np = nb - m->body_dofnum[b];
    mjtNum *V = dvel + (last >= 0 ? 6 * (size_t)m->dof_Madr[last] : 0);
    mjtNum *Acc = dacc + (last >= 0 ? 6 * (size_t)m->dof_Madr[last] : 0);

    // a body with dofs: the parent's columns, then zeros for its own (a body without dofs
    // moves with its parent and shares its block)
    if (m->body_dofnum[b]) {
      size_t pblk = plast >= 0 ? 6 * (size_t)m->dof_Madr[plast] : 0;
      mju_copy(V, dvel + pblk, 6 * np);
      mju_copy(Acc, dacc + pblk, 6 * np);
      mju_zero(V + 6 * np, 6 * (nb - np));
      mju_zero(Acc + 6 * np, 6 * (nb - np));
    }

    // this body's joints in order; column of dof j: np + (j - body_dofadr)
    for (int jn = m->body_jntadr[b]; jn < m->body_jntadr[b] + m->body_jntnum[b]; jn++) {
      int adr = m->jnt_dofadr[jn], type = m->jnt_type[jn];
      int n = type == mjJNT_FREE ? 6 : type == mjJNT_BALL ? 3 : 1;
      int nrot = type == mjJNT_HINGE || type == mjJNT_SLIDE ? 1 : 3;
      int col = np + adr - m->body_dofadr[b];

      // free translations: constant axes, velocity only
      for (int i = 0; i < n - nrot; i++) mju_addTo(V + 6 * (col + i), d->cdof + 6 * (adr + i), 6);

      // d cdof_dot_j = dV x cdof_j with V before this joint's rotations: accelerations get
      // d cdof_dot_j v_j, and column j gets cdof_dot_j
      for (int i = n - nrot; i < n; i++) {
        const mjtNum* cdof = d->cdof + 6 * (adr + i);
        for (int k = 0; k < nb; k++) mju_crossMotion(dcdd + 6 * k, V + 6 * k, cdof);
        mju_addToScl(Acc, dcdd, d->qvel[adr + i], 6 * nb);
        mju_addTo(Acc + 6 * (col + i), d->cdof_dot + 6 * (adr + i), 6);
      }
      for (int i = n - nrot; i < n; i++) mju_addTo(V + 6 * (col + i), d->cdof + 6 * (adr + i), 6);
    }

    // d cfrc = I d cacc + dV x* (I cvel) + cvel x* (I dV)
    const mjtNum* inert = d->cinert + 10 * b;
    const mjtNum* cvel = d->cvel + 6 * b;
    mjtNum iv[6];
    mju_mulInertVec(iv, inert, cvel);
    for (int k = 0; k < nb; k++) {
      mjtNum t2[6], t3[6], idv[6], *F = dfrc + 6 * k;
      mju_mulInertVec(F, inert, Acc + 6 * k);
      mju_crossForce(t2, V + 6 * k, iv);
      mju_mulInertVec(idv, inert, V + 6 * k);
      mju_crossForce(t3, cvel, idv);
      for (int r = 0; r < 6; r++) F[r] += t2[r] + t3[r];
    }

    // A(i,k) += h cdof_i' dcfrc(:,k) over the chain
    for (int ci = 0; ci < nb; ci++) {
      const mjtNum* cdof = d->cdof + 6 * chain[ci];
      for (int ck = 0; ck < nb; ck++)
        derivAdd(D, chain[ci], chain[ck], D->h * mju_dot(cdof, dfrc + 6 * ck, 6));
    }
  }
  mj_freeStack(d, mark);
}

// ---- implicit integrators ------------------------------------------------------------------

// LU of a dense matrix without pivoting, eliminating from the last index (on a kinematic tree
// the pattern of M - h D has no fill this way); zero entries are skipped
static void factorLU(mjtNum* A, int n) {
  for (int k = n - 1; k >= 0; k--) {
    const mjtNum* rowk = A + (size_t)k * n;
    mjtNum piv = rowk[k];
    if (fabs(piv) < mjMINVAL) piv = mjMINVAL;
    for (int i = 0; i < k; i++) {
      mjtNum* rowi = A + (size_t)i * n;
      if (!rowi[k]) continue;
      mjtNum l = rowi[k] /= piv;
      for (int j = 0; j < k; j++)
        if (rowk[j]) rowi[j] -= l * rowk[j];
    }
  }
}

// x = inv(A) x with the factor of factorLU: push from the last index, then solve from the
// first
static void solveLU(const mjtNum* A, mjtNum* x, int n) {
  for (int k = n - 1; k >= 0; k--)
    for (int i = 0; i < k; i++) x[i] -= A[(size_t)i * n + k] * x[k];
  for (int k = 0; k < n; k++) {
    const mjtNum* row = A + (size_t)k * n;
    for (int j = 0; j < k; j++) x[k] -= row[j] * x[j];
    x[k] /= fabs(row[k]) < mjMINVAL ? mjMINVAL : row[k];
  }
}

// D's dense window = M - h D over its dofs: M's entries (a dof and its ancestors), then the
// damper, actuator and fluid terms, and the RNE term of the bodies ending in the window
// (rne 1) or only of its standalone free bodies (rne 0: implicitfast's own blocks)
static void derivDense(const mjModel* m, mjData* d, Deriv* D, int rne) {
  int nv = m->nv;
  size_t mark = mj_markStack(d);
  mjtNum* g = mj_stackAlloc(d, 6 * (size_t)nv);
  mju_zero(D->A, (size_t)D->n * D->n);
  for (int i = D->lo; i < D->lo + D->n; i++) {
    const mjtNum* row = d->qM + m->dof_Madr[i];
    for (int j = i, k = 0; j >= 0; j = m->dof_parentid[j], k++) {
      derivAdd(D, i, j, row[k]);
      if (j != i) derivAdd(D, j, i, row[k]);
    }
  }
  derivDamperActuator(m, d, D);
  if (mj_fluidOn(m)) derivFluid(m, d, D, g);
  if (rne) {
    derivRNE(m, d, D, D->lo, D->n);
  } else {
    for (int j = 0; j < m->njnt; j++) {
      int adr = mj_standaloneFree(m, j);
      if (adr >= 0) derivRNE(m, d, D, adr, 6);
    }
  }
  mj_freeStack(d, mark);
}

// dense row-major A = M - h D (nv x nv), D with the RNE term when rne (implicit); without it
// (implicitfast) the matrix its step solves: on qM's sparsity without the off-diagonal entries
// of simple dofs, but the blocks of standalone free bodies whole and with the RNE term
void mj_implicitMatrix(const mjModel* m, mjData* d, mjtNum* A, int rne) {
  int nv = m->nv;
  Deriv D = {A, m->opt.timestep, 1, 0, nv};
  derivDense(m, d, &D, rne);
  for (int i = 0; i < nv && !rne; i++) {
    int own = mj_standaloneFree(m, m->dof_jntid[i]) >= 0;
    for (int j = 0; j < nv; j++) {
      if (own && m->dof_jntid[j] == m->dof_jntid[i]) continue;
      if (i != j && (m->dof_simplenum[i] || m->dof_simplenum[j])) A[(size_t)i * nv + j] = 0;
    }
  }
}

// implicitfast's own solve of each standalone free body: its six rows of qacc from
// A x = qfrc_smooth + qfrc_constraint with A its block of M - h D, the gyroscopic (RNE) term
// included (the block is coupled to nothing else: D is tree-local), replacing the symmetric
// solve's
static void freeBodySolve(const mjModel* m, mjData* d, mjtNum* qacc) {
  for (int j = 0; j < m->njnt; j++) {
    int adr = mj_standaloneFree(m, j);
    if (adr < 0) continue;
    mjtNum A[36];
    Deriv D = {A, m->opt.timestep, 1, adr, 6};
    derivDense(m, d, &D, 1);
    factorLU(A, 6);
    mju_add(qacc + adr, d->qfrc_smooth + adr, d->qfrc_constraint + adr, 6);
    solveLU(A, qacc + adr, 6);
  }
}

// qacc from (M - h D) qacc = qfrc_smooth + qfrc_constraint, then advance
void mj_implicit(const mjModel* m, mjData* d) {
  int nv = m->nv, fast = m->opt.integrator == mjINT_IMPLICITFAST;
  size_t mark = mj_markStack(d);
  mjtNum* qacc = mj_stackAlloc(d, (size_t)nv);
  Deriv D = {NULL, m->opt.timestep, !fast, 0, nv};
  int fluid = mj_fluidOn(m);
  mju_add(qacc, d->qfrc_smooth, d->qfrc_constraint, nv);

  if (fast) {
    // symmetric M - h D on qM's sparsity, factored as L'DL
    mjtNum* g = mj_stackAlloc(d, 6 * (size_t)nv);
    mjtNum* ld = mj_stackAlloc(d, (size_t)m->nM);
    mjtNum* diaginv = mj_stackAlloc(d, (size_t)nv);
    D.A = mj_stackAlloc(d, (size_t)m->nM);
    mju_copy(D.A, d->qM, m->nM);
    derivDamperActuator(m, d, &D);
    if (fluid) derivFluid(m, d, &D, g);
    mj_factorI(m, d, D.A, ld, diaginv, 1);
    mj_solveLD(m, ld, diaginv, qacc, qacc, 1, 1);
    freeBodySolve(m, d, qacc);
  } else {
    // dense M - h D with the RNE term, LU
    D.A = mj_stackAlloc(d, (size_t)nv * nv);
    mj_implicitMatrix(m, d, D.A, 1);
    factorLU(D.A, nv);
    solveLU(D.A, qacc, nv);
  }
  advance(m, d, d->act_dot, qacc, NULL);
  mj_freeStack(d, mark);
}

// ---- Runge-Kutta ----------------------------------------------------------------------------

// the classic 4-stage scheme (MuJoCo has only this tableau; n other than 4 runs Euler): stage
// i starts from the initial state moved by h a_i k_{i-1}, each k = (qvel, qacc, act_dot) of
// mj_forward at time t + a_i h without sensors; the step uses h sum_i b_i k_i
void mj_RungeKutta(const mjModel* m, mjData* d, int n) {
  static const mjtNum A[3] = {0.5, 0.5, 1}, B[4] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};
  int nq = m->nq, nv = m->nv, na = m->na;
  mjtNum h = m->opt.timestep, t0 = d->time;
  if (n != 4) {
    mj_Euler(m, d);
    return;
  }
  size_t mark = mj_markStack(d);
  mjtNum* qpos0 = mj_stackAlloc(d, (size_t)nq);
  mjtNum* qvel0 = mj_stackAlloc(d, (size_t)nv);
  mjtNum* act0 = mj_stackAlloc(d, (size_t)na);
  mjtNum* kvel = mj_stackAlloc(d, 4 * (size_t)nv);
  mjtNum* kacc = mj_stackAlloc(d, 4 * (size_t)nv);
  mjtNum* kact = mj_stackAlloc(d, 4 * (size_t)na);
  mjtNum* sum = mj_stackAlloc(d, 2 * (size_t)nv + na);
  mju_copy(qpos0, d->qpos, nq);
  mju_copy(qvel0, d->qvel, nv);
  mju_copy(act0, d->act, na);

  // stage 0 is the current forward dynamics
  mju_copy(kvel, d->qvel, nv);
  mju_copy(kacc, d->qacc, nv);
  mju_copy(kact, d->act_dot, na);

  // stages 1..3: state = initial + a h k_{i-1} (the tableau is diagonal)
  for (int i = 1; i < 4; i++) {
    mjtNum a = A[i - 1];
    mju_copy(d->qpos, qpos0, nq);
    mj_integratePos(m, d->qpos, kvel + (size_t)(i - 1) * nv, a * h);
    mju_addScl(d->qvel, qvel0, kacc + (size_t)(i - 1) * nv, a * h, nv);
    mju_addScl(d->act, act0, kact + (size_t)(i - 1) * na, a * h, na);
    d->time = t0 + a * h;
    mj_forwardSkip(m, d, mjSTAGE_NONE, 1);
    mju_copy(kvel + (size_t)i * nv, d->qvel, nv);
    mju_copy(kacc + (size_t)i * nv, d->qacc, nv);
    mju_copy(kact + (size_t)i * na, d->act_dot, na);
  }

  // weighted sums of velocity, acceleration and activation rate
  mjtNum *svel = sum, *sacc = sum + nv, *sact = sum + 2 * nv;
  mju_zero(sum, 2 * nv + na);
  for (int i = 0; i < 4; i++) {
    mju_addToScl(svel, kvel + (size_t)i * nv, B[i], nv);
    mju_addToScl(sacc, kacc + (size_t)i * nv, B[i], nv);
    mju_addToScl(sact, kact + (size_t)i * na, B[i], na);
  }

  // the step from the initial state
  mju_copy(d->qpos, qpos0, nq);
  mju_copy(d->qvel, qvel0, nv);
  mju_copy(d->act, act0, na);
  d->time = t0;
  // d->qacc stays the last stage's, as in MuJoCo: it becomes the next warm start (with PGS's
  // few iterations the warm start shapes the answer, so it must be the same one)
  advance(m, d, sact, sacc, svel);
  mj_freeStack(d, mark);
}
