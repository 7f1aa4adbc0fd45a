// t/unit/engine/solver.c: the constraint solvers (lib/engine/solver.c) against closed forms, finite
// differences, brute force and MuJoCo 3.5.1.
//
// Oracle numbers: MuJoCo 3.5.1 (npm `mujoco`), `node scripts/oracle.mjs forward` on BOX below
// (t/oracle/solver/box.xml) at qpos (0 0 0.098 1 0 0 0), qvel (0.3 -0.2 -0.1 0.5 1 -2), with
// tolerance 1e-12 and each cone: qacc after mj_forward.
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mj.h"
#include "engine/island.h"
#include "engine/solver.h"

static const char* BOX =
  "<mujoco><worldbody><geom type='plane' size='5 5 .1'/><body pos='0 0 0.099'><freejoint/>"
  "<geom type='box' size='.1 .1 .1' condim='3'/></body></worldbody></mujoco>";

// a slider of mass 2 under gravity (qacc_smooth = -9.81)
static const char* SLIDER =
  "<mujoco><worldbody><body><joint type='slide' axis='0 0 1'/>"
  "<geom type='sphere' size='.1' mass='2'/></body></worldbody></mujoco>";

static mjModel* load(const char* xml) {
  char err[512];
  mjModel* m = mj_parseXMLString(xml, "t.xml", "", err, sizeof(err));
  cr_assert(m, "%s", err);
  return m;
}

// an arena array of n elements of size sz
static void* arena(mjData* d, size_t n, size_t sz) {
  void* p = mj_arenaAlloc(d, n * sz);
  cr_assert(p);
  return p;
}

// nefc dense rows in the arena, every array allocated, types given, J zero
static void makeRows(const mjModel* m, mjData* d, int nefc, const int* type) {
  mj_resetArena(d);
  d->nefc = nefc;
  d->nJ = nefc * m->nv;
  d->efc_type = arena(d, nefc, sizeof(int));
  d->efc_id = arena(d, nefc, sizeof(int));
  d->efc_state = arena(d, nefc, sizeof(int));
  d->efc_J = arena(d, (size_t)nefc * m->nv, sizeof(mjtNum));
  mjtNum** rows[] = {&d->efc_pos, &d->efc_margin, &d->efc_frictionloss, &d->efc_diagApprox,
                     &d->efc_D, &d->efc_R, &d->efc_vel, &d->efc_aref, &d->efc_b,
                     &d->efc_force};
  for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
    *rows[k] = arena(d, nefc, sizeof(mjtNum));
    memset(*rows[k], 0, nefc * sizeof(mjtNum));
  }
  memset(d->efc_J, 0, sizeof(mjtNum) * nefc * m->nv);
  memcpy(d->efc_type, type, sizeof(int) * nefc);
  memset(d->efc_id, 0, sizeof(int) * nefc);
}

// ---- dense algebra and the small conic problems ----------------------------------------------

Test(solver, cholesky_solves_spd_system) {
  mjtNum A[16] = {4, 1, 0.5, 0, 1, 3, 0.2, 0.1, 0.5, 0.2, 2, 0.3, 0, 0.1, 0.3, 1};
  mjtNum L[16], b[4] = {1, -2, 3, 0.5}, x[4];
  memcpy(L, A, sizeof(A));
  cr_expect_eq(mju_cholFactor(L, 4, 1e-15), 0);
  mju_cholSolve(x, L, b, 4);
  for (int i = 0; i < 4; i++) {
    mjtNum r = -b[i];
    for (int j = 0; j < 4; j++) r += A[i * 4 + j] * x[j];
    cr_expect(fabs(r) < 1e-14, "residual %d: %g", i, r);
  }
}

// a symmetric positive definite n x n matrix with the given zeros (mask 0), diagonally dominant
static void spdMatrix(mjtNum* A, const int* mask, int n) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++) {
      mjtNum v = i == j ? n + 1 + 0.1 * i : (mask[i * n + j] ? 0.3 + 0.07 * (i - j) : 0);
      A[i * n + j] = A[j * n + i] = v;
    }
  }
}

// max |A x - b| for the dense n x n A
static mjtNum residual(const mjtNum* A, const mjtNum* x, const mjtNum* b, int n) {
  mjtNum e = 0;
  for (int i = 0; i < n; i++) {
    mjtNum r = -b[i];
    for (int j = 0; j < n; j++) r += A[i * n + j] * x[j];
    e = fmax(e, fabs(r));
  }
  return e;
}

Test(solver, cholesky_rank_one_update_and_downdate) {
  enum { N = 5 };
  int mask[N * N];
  for (int k = 0; k < N * N; k++) mask[k] = 1;
  mjtNum A[N * N], Ax[N * N], L[N * N], x[N] = {0, 0.5, -1, 2, 0.3}, w[N];
  mjtNum b[N] = {1, -2, 0.5, 3, -1}, sol[N];
  spdMatrix(A, mask, N);
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) Ax[i * N + j] = A[i * N + j] + x[i] * x[j];
  }

  // factor of A, plus x x': solves A + x x'; minus x x': A again
  memcpy(L, A, sizeof(A));
  mju_cholFactor(L, N, 1e-15);
  memcpy(w, x, sizeof(x));
  cr_assert(mju_cholUpdate(L, w, N, 1));
  mju_cholSolve(sol, L, b, N);
  cr_expect(residual(Ax, sol, b, N) < 1e-13, "update: %g", residual(Ax, sol, b, N));
  memcpy(w, x, sizeof(x));
  cr_assert(mju_cholUpdate(L, w, N, 0));
  mju_cholSolve(sol, L, b, N);
  cr_expect(residual(A, sol, b, N) < 1e-13, "downdate: %g", residual(A, sol, b, N));

  // a downdate past positive definiteness is refused
  mjtNum big[N] = {0, 0, 10, 0, 0};
  cr_expect_eq(mju_cholUpdate(L, big, N, 0), 0);
}

Test(solver, sparse_ldl_factor_solve_update) {
  // a tree (parents 0 <- 1 <- 2, 0 <- 3 <- 4, 0 <- 5) plus the coupling (4, 2): eliminating
  // 4 fills (3, 2) and (2, 0) is already there; rows of L (columns below the diagonal)
  enum { N = 6 };
  static const int rownnz[N] = {0, 1, 2, 3, 4, 1};
  static const int rowadr[N] = {0, 0, 1, 3, 6, 10};
  static const int colind[11] = {0, 0, 1, 0, 1, 2, 0, 1, 2, 3, 0};
  int mask[N * N] = {0}, work[2 * N] = {0};
  const int pairs[][2] = {{1, 0}, {2, 1}, {2, 0}, {3, 0}, {4, 3}, {4, 0}, {5, 0}, {4, 2}};
  for (size_t k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++) {
    mask[pairs[k][0] * N + pairs[k][1]] = mask[pairs[k][1] * N + pairs[k][0]] = 1;
  }
  mjtNum A[N * N], L[11], D[N], b[N] = {1, -2, 0.5, 3, -1, 2}, sol[N];
  spdMatrix(A, mask, N);
  for (int k = 0; k < N; k++) {
    D[k] = A[k * N + k];
    for (int q = 0; q < rownnz[k]; q++) L[rowadr[k] + q] = A[k * N + colind[rowadr[k] + q]];
  }
  cr_expect_eq(mju_factorLDL(L, D, N, rownnz, rowadr, colind, 1e-15), 0);
  mju_solveLDL(sol, L, D, b, N, rownnz, rowadr, colind);
  cr_expect(residual(A, sol, b, N) < 1e-13, "factor: %g", residual(A, sol, b, N));

  // update with a row touching dofs 2 and 4 (its pattern fills along the elimination tree)
  int ind[2] = {2, 4};
  mjtNum x[N] = {0, 0, 0.7, 0, -1.2, 0}, w[N], Ax[N * N];
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) Ax[i * N + j] = A[i * N + j] + x[i] * x[j];
  }
  memcpy(w, x, sizeof(x));
  cr_assert(mju_updateLDL(L, D, w, 1, ind, 2, N, rownnz, rowadr, colind, work));
  for (int i = 0; i < N; i++) cr_expect(w[i] == 0 && work[i] == 0 && work[N + i] >= 0);
  mju_solveLDL(sol, L, D, b, N, rownnz, rowadr, colind);
  cr_expect(residual(Ax, sol, b, N) < 1e-13, "update: %g", residual(Ax, sol, b, N));
  memcpy(w, x, sizeof(x));
  cr_assert(mju_updateLDL(L, D, w, 0, ind, 2, N, rownnz, rowadr, colind, work));
  mju_solveLDL(sol, L, D, b, N, rownnz, rowadr, colind);
  cr_expect(residual(A, sol, b, N) < 1e-13, "downdate: %g", residual(A, sol, b, N));
}

Test(solver, qcqp_inside_and_on_the_ellipse) {
  mjtNum A[4] = {2, 0.5, 0.5, 1}, d[2] = {0.5, 2}, x[2], lambda;

  // unconstrained minimizer -inv(A) b = (0.2, -0.6) inside radius 1
  mjtNum b1[2] = {-0.1, 0.5};
  cr_expect_eq(mju_QCQP(x, A, b1, d, 1, 2, &lambda), 0);
  cr_expect(fabs(x[0] - 0.2) < 1e-14 && fabs(x[1] + 0.6) < 1e-14);

  // active: on the ellipse, and A x + b = -lambda x ./ d^2 with lambda > 0 (KKT)
  mjtNum b2[2] = {-3, 4};
  cr_expect_eq(mju_QCQP(x, A, b2, d, 1, 2, &lambda), 1);
  cr_expect(fabs(hypot(x[0] / d[0], x[1] / d[1]) - 1) < 1e-12);
  cr_expect(lambda > 0);
  for (int i = 0; i < 2; i++) {
    mjtNum g = A[i * 2] * x[0] + A[i * 2 + 1] * x[1] + b2[i];
    cr_expect(fabs(g + lambda * x[i] / (d[i] * d[i])) < 1e-9, "KKT %d: %g", i, g);
  }
}

// MuJoCo 3.5.1's PGS on elliptic cones (box.xml of t/oracle/solver, impratio 1, no warmstart):
// its forces of a contact after a sweep, from the contact's block of its efc_AR and its residual
// at the contact's turn in the sweep (the forces before the update as MuJoCo left them)
Test(solver, elliptic_pgs_update_as_mujoco) {
  mjtNum mu[2] = {1, 1};
  mjtNum A0[9] = {0.5065789473684209,   -0.18562499999999996, 0.18562499999999996,
                  -0.18562499999999996, 0.5028476973684209,   0.18749999999999997,
                  0.18562499999999996,  0.18749999999999997,  0.5028476973684209};
  mjtNum A2[9] = {0.5065789473684209,  0.18562499999999996,  0.18562499999999996,
                  0.18562499999999996, 0.5028476973684209,   -0.18749999999999997,
                  0.18562499999999996, -0.18749999999999997, 0.5028476973684209};
  struct {
    const mjtNum* A;
    mjtNum f[3], res[3], want[3];
  } cases[3] = {
      // first sweep, no force yet: the normal alone, then the friction inside the cone
      {A0, {0, 0, 0}, {-20.33631578947369, 5.210526315789473, -0.10526315789473137},
       {40.14441558441561, 11.504386768771464, -18.89959236930553}},
      // second sweep: the block scaled along its force, then the friction
      {A0,
       {40.14441558441561, 11.504386768771464, -18.89959236930553},
       {-3.7123206277251555, 0.8472522879762598, -11.191678145756528},
       {34.65108062766954, -3.325346087298583, 10.914511257048577}},
      // another contact's third sweep: the normal force would turn negative, all forces 0
      {A2,
       {2.1673028937991834, -0.48548856198444507, 2.1122269503186892},
       {16.107168398181393, 2.1843048345411624, -5.748908735541129},
       {0, 0, 0}}};
  for (int k = 0; k < 3; k++) {
    mju_ellipticPGS(cases[k].f, cases[k].A, cases[k].res, mu, 3);
    for (int j = 0; j < 3; j++) {
      mjtNum want = cases[k].want[j];
      cr_expect(fabs(cases[k].f[j] - want) <= 1e-12 * (1 + fabs(want)), "case %d row %d: %.17g",
                k, j, cases[k].f[j]);
    }
  }
}

// ---- the constraint cost: forces are -grad, cone Hessians are grad of -force ------------------

Test(solver, constraint_update_derivatives) {
  mjModel* m = load(BOX);
  mjData* d = mj_makeData(m);
  int nv = m->nv;
  int type[13] = {mjCNSTR_EQUALITY, mjCNSTR_FRICTION_DOF, mjCNSTR_FRICTION_DOF,
                  mjCNSTR_FRICTION_DOF, mjCNSTR_LIMIT_JOINT, mjCNSTR_CONTACT_FRICTIONLESS,
                  mjCNSTR_CONTACT_PYRAMIDAL};
  for (int i = 7; i < 13; i++) type[i] = mjCNSTR_CONTACT_ELLIPTIC;
  makeRows(m, d, 13, type);
  for (int i = 0; i < 13; i++) {
    d->efc_R[i] = 0.01 * (1 + i);
    d->efc_D[i] = 1 / d->efc_R[i];
    d->efc_frictionloss[i] = 0.5;
    for (int j = 0; j < nv; j++) d->efc_J[i * nv + j] = sin(1 + i * nv + j);
  }

  // one elliptic condim-6 contact at row 7: mu 0.8, friction (1, 0.9, 0.05, 0.01, 0.02)
  d->ncon = 1;
  mjContact* con = d->contact;
  con->dim = 6;
  con->mu = 0.8;
  mjtNum fr[5] = {1, 0.9, 0.05, 0.01, 0.02};
  memcpy(con->friction, fr, sizeof(fr));
  con->efc_address = 7;
  for (int i = 7; i < 13; i++) d->efc_id[i] = 0;

  // jar samples: each row type in each of its zones, the cone in its middle zone
  mjtNum jars[3][13] = {
    {0.3, -0.2, 0.001, 0.04, -0.5, 0.2, -0.1, -0.5, 0.5, -0.4, 0.3, 0.2, -0.1},
    {-0.3, 0.2, -0.003, -0.04, 0.5, -0.2, 0.1, -10, 1.5, -0.4, 10, 20, -30},
    {0.1, 0.02, 0.01, 0.08, -0.05, 0.01, -0.01, 1, 0.1, 0.1, 0.1, 0.1, 0.1}};
  int zones[3] = {mjCNSTRSTATE_CONE, mjCNSTRSTATE_QUADRATIC, mjCNSTRSTATE_SATISFIED};
  for (int s = 0; s < 3; s++) {
    mjtNum* jar = jars[s], cost, cp, cm, f[13], H[36], qfrc[6];
    mj_constraintUpdate(m, d, jar, &cost, 1);
    memcpy(f, d->efc_force, sizeof(f));
    memcpy(H, con->H, sizeof(H));
    memcpy(qfrc, d->qfrc_constraint, sizeof(qfrc));
    cr_expect_eq(d->efc_state[7], zones[s], "sample %d: cone state %d", s, d->efc_state[7]);

    // qfrc_constraint = J' f
    for (int j = 0; j < nv; j++) {
      mjtNum q = 0;
      for (int i = 0; i < 13; i++) q += d->efc_J[i * nv + j] * f[i];
      cr_expect(fabs(q - qfrc[j]) < 1e-12);
    }

    // force = -d cost / d jar (central differences)
    for (int i = 0; i < 13; i++) {
      mjtNum h = 1e-5, save = jar[i];
      jar[i] = save + h;
      mj_constraintUpdate(m, d, jar, &cp, 0);
      jar[i] = save - h;
      mj_constraintUpdate(m, d, jar, &cm, 0);
      jar[i] = save;
      // bound: truncation (exact for quadratics) and round-off in the total cost
      cr_expect(fabs(-(cp - cm) / (2 * h) - f[i]) < 1e-5 * (1 + fabs(f[i])) + 1e-14 * cost / h,
                "sample %d row %d: fd %g force %g", s, i, -(cp - cm) / (2 * h), f[i]);
    }

    // cone Hessian = -d force / d jar on the contact's rows
    if (zones[s] != mjCNSTRSTATE_CONE) continue;
    for (int b = 0; b < 6; b++) {
      mjtNum h = 1e-6, save = jar[7 + b], fp[6], fm[6];
      jar[7 + b] = save + h;
      mj_constraintUpdate(m, d, jar, NULL, 0);
      memcpy(fp, d->efc_force + 7, sizeof(fp));
      jar[7 + b] = save - h;
      mj_constraintUpdate(m, d, jar, NULL, 0);
      memcpy(fm, d->efc_force + 7, sizeof(fm));
      jar[7 + b] = save;
      for (int a = 0; a < 6; a++) {
        mjtNum fd = -(fp[a] - fm[a]) / (2 * h);
        cr_expect(fabs(fd - H[a * 6 + b]) < 1e-5 * (1 + fabs(fd)), "H[%d,%d]: fd %g H %g", a,
                  b, fd, H[a * 6 + b]);
      }
    }
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}

// ---- closed forms on one degree of freedom ---------------------------------------------------

// the slider's qacc after mj_fwdConstraint with one row of `type` (J = 1, R, aref, friction
// loss fl) under `solver`
static mjtNum sliderSolve(int type, mjtNum R, mjtNum aref, mjtNum fl, int solver) {
  mjModel* m = load(SLIDER);
  m->opt.solver = solver;
  m->opt.tolerance = 1e-14;
  m->opt.iterations = 1000;
  mjData* d = mj_makeData(m);
  mj_forward(m, d);
  makeRows(m, d, 1, &type);
  d->efc_J[0] = 1;
  d->efc_R[0] = R;
  d->efc_D[0] = 1 / R;
  d->efc_aref[0] = aref;
  d->efc_frictionloss[0] = fl;
  mj_fwdConstraint(m, d);
  mjtNum qacc = d->qacc[0];

  // the force is the row's force, and qacc = qacc_smooth + inv(M) J' f
  cr_expect(fabs(qacc - (d->qacc_smooth[0] + d->efc_force[0] / d->qM[0])) < 1e-9);
  mj_deleteData(d);
  mj_deleteModel(m);
  return qacc;
}

Test(solver, closed_forms_for_each_solver) {
  mjtNum g = -9.81, M = 2, R = 0.05, D = 1 / R;
  for (int s = mjSOL_PGS; s <= mjSOL_NEWTON; s++) {
    // equality: minimize 0.5 M (a - g)^2 + 0.5 D (a - aref)^2
    mjtNum a = sliderSolve(mjCNSTR_EQUALITY, R, 3, 0, s);
    cr_expect(fabs(a - (M * g + D * 3) / (M + D)) < 1e-9, "solver %d: %.15g", s, a);

    // a limit pushing up is active, one pulling down is not
    a = sliderSolve(mjCNSTR_LIMIT_JOINT, R, 3, 0, s);
    cr_expect(fabs(a - (M * g + D * 3) / (M + D)) < 1e-9, "solver %d: %.15g", s, a);
    a = sliderSolve(mjCNSTR_LIMIT_JOINT, R, -20, 0, s);
    cr_expect(fabs(a - g) < 1e-9, "solver %d: %.15g", s, a);

    // friction loss 5 on the falling slider: linear zone, a = g + fl / M
    a = sliderSolve(mjCNSTR_FRICTION_DOF, R, 0, 5, s);
    cr_expect(fabs(a - (g + 5 / M)) < 1e-9, "solver %d: %.15g", s, a);

    // friction loss 50: sticks in the quadratic zone, a = M g / (M + D)
    a = sliderSolve(mjCNSTR_FRICTION_DOF, R, 0, 50, s);
    cr_expect(fabs(a - M * g / (M + D)) < 1e-9, "solver %d: %.15g", s, a);
  }
}

// ---- the whole pipeline against MuJoCo -----------------------------------------------------

Test(solver, box_on_plane_matches_mujoco) {
  static const mjtNum ref[2][6] = {
    {-21.011632863537546, 13.319380785608807, 24.521013649146362, -21.602992169380752,
     -97.890439449511831, 180.18562673259262},
    {-23.543731057998254, 17.956429069789611, 23.001479168373233, -11.25004800696516,
     -85.425846224286289, 173.68155422137662}};
  static const mjtNum qpos[7] = {0, 0, 0.098, 1, 0, 0, 0}, qvel[6] = {0.3, -0.2, -0.1, 0.5, 1, -2};
  mjModel* m = load(BOX);
  mjData* d = mj_makeData(m);
  m->opt.tolerance = 1e-12;
  for (int cone = 0; cone < 2; cone++) {
    for (int s = mjSOL_PGS; s <= mjSOL_NEWTON; s++) {
      m->opt.cone = cone;
      m->opt.solver = s;
      m->opt.iterations = s == mjSOL_NEWTON ? 100 : 10000;
      mj_resetData(m, d);
      memcpy(d->qpos, qpos, sizeof(qpos));
      memcpy(d->qvel, qvel, sizeof(qvel));
      mj_forward(m, d);
      cr_expect_eq(d->nefc, cone ? 12 : 16);
      mjtNum tol = s == mjSOL_NEWTON ? 1e-10 : 1e-5;
      for (int i = 0; i < 6; i++) {
        cr_expect(fabs(d->qacc[i] - ref[cone][i]) < tol * fabs(ref[cone][5]),
                  "cone %d solver %d qacc[%d] = %.15g, MuJoCo %.15g", cone, s, i, d->qacc[i],
                  ref[cone][i]);
      }
    }
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}

// a stack of three boxes and a ball in a bowl of capsules: contacts between free bodies
static const char* STACK =
  "<mujoco><worldbody><geom type='plane' size='5 5 .1'/>"
  "<body pos='0 0 0.1'><freejoint/><geom type='box' size='.1 .1 .1'/></body>"
  "<body pos='0.02 0.01 0.298'><freejoint/><geom type='box' size='.1 .1 .1'/></body>"
  "<body pos='0.03 -0.02 0.496'><freejoint/><geom type='box' size='.1 .1 .1' condim='4'/>"
  "</body></worldbody></mujoco>";

Test(solver, sparse_and_dense_newton_agree) {
  mjModel* m = load(STACK);
  mjData* d = mj_makeData(m);
  m->opt.tolerance = 1e-12;
  for (int cone = 0; cone < 2; cone++) {
    mjtNum qacc[2][18];
    int niter[2];
    for (int jac = mjJAC_DENSE; jac <= mjJAC_SPARSE; jac++) {
      m->opt.cone = cone;
      m->opt.jacobian = jac;
      mj_resetData(m, d);
      for (int k = 0; k < 20; k++) mj_step(m, d);
      mj_forward(m, d);
      cr_assert(d->nefc > 20);
      memcpy(qacc[jac], d->qacc, sizeof(mjtNum) * m->nv);
      niter[jac] = d->solver_niter;
    }
    cr_expect_eq(niter[0], niter[1], "cone %d: %d %d iterations", cone, niter[0], niter[1]);
    for (int i = 0; i < m->nv; i++) {
      cr_expect(fabs(qacc[0][i] - qacc[1][i]) < 1e-9 * (1 + fabs(qacc[0][i])),
                "cone %d qacc[%d]: dense %.15g sparse %.15g", cone, i, qacc[0][i], qacc[1][i]);
    }
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}

// a slider of mass 2 pushed by F along x against friction loss 3, at rest: noslip makes the
// friction exact, qacc = 0 below the loss and (F - 3) / 2 above it; without noslip the soft
// friction lets it creep
Test(solver, noslip_makes_friction_loss_exact) {
  mjModel* m = load("<mujoco><option gravity='0 0 0'/><worldbody><body>"
                    "<joint type='slide' axis='1 0 0' frictionloss='3'/>"
                    "<geom type='sphere' size='.1' mass='2'/></body></worldbody></mujoco>");
  mjData* d = mj_makeData(m);
  for (int solver = mjSOL_PGS; solver <= mjSOL_NEWTON; solver++) {
    for (int k = 0; k < 2; k++) {
      mjtNum F = k ? 5 : 2;
      m->opt.solver = solver;
      m->opt.noslip_iterations = 0;
      mj_resetData(m, d);
      d->qfrc_applied[0] = F;
      mj_forward(m, d);
      if (!k) cr_expect(d->qacc[0] > 1e-3, "soft friction creeps: %g", d->qacc[0]);
      m->opt.noslip_iterations = 10;
      mj_forward(m, d);
      mjtNum want = k ? (F - 3) / 2 : 0;
      cr_expect(fabs(d->qacc[0] - want) < 1e-12, "solver %d F %g: qacc %.15g, want %g", solver,
                F, d->qacc[0], want);
      cr_expect(fabs(d->efc_force[0] - (k ? -3 : -F)) < 1e-12, "force %g", d->efc_force[0]);
    }
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}

// a pit of 12 two-link bodies (free joint, then a hinge: 84 dofs, sparse under jacobian auto)
// piled on each other, condim 6: many contacts between chains (room for 600), with the
// options given
static mjModel* pile(const char* option) {
  char xml[8192];
  int n = snprintf(xml, sizeof(xml),
                   "<mujoco><option %s/><size nconmax='600'/>"
                   "<default><geom condim='6'/></default><worldbody>"
                   "<geom type='plane' size='1 1 .1'/>"
                   "<geom type='box' size='.05 .4 .4' pos='.35 0 0'/>"
                   "<geom type='box' size='.05 .4 .4' pos='-.35 0 0'/>"
                   "<geom type='box' size='.4 .05 .4' pos='0 .35 0'/>"
                   "<geom type='box' size='.4 .05 .4' pos='0 -.35 0'/>",
                   option);
  for (int i = 0; i < 12; i++) {
    n += snprintf(xml + n, sizeof(xml) - n,
                  "<body pos='%g %g %g'><freejoint/><geom type='box' size='.1 .08 .06'/>"
                  "<body pos='.1 0 0'><joint type='hinge' axis='0 1 0'/>"
                  "<geom type='capsule' size='.04 .08' euler='0 90 0'/></body></body>",
                  0.12 * (i % 3 - 1), 0.15 * (i / 3 % 2) - 0.07, 0.08 + 0.1 * (i / 6));
  }
  snprintf(xml + n, sizeof(xml) - n, "</worldbody></mujoco>");
  return load(xml);
}

Test(solver, stack_holds_every_solver_on_a_pile) {
  // the stack sized at compile time for the compressed rows (or the dense ones when the
  // model asks for them) holds every solver, cone and noslip: no row is ever dropped
  const char* jacobian[] = {"jacobian='auto'", "jacobian='dense'"};
  for (int jac = 0; jac < 2; jac++) {
    mjModel* m = pile(jacobian[jac]);
    mjData* d = mj_makeData(m);
    for (int solver = mjSOL_PGS; solver <= mjSOL_NEWTON; solver++) {
      for (int cone = 0; cone < 2; cone++) {
        m->opt.solver = solver;
        m->opt.cone = cone;
        m->opt.noslip_iterations = cone ? 0 : 3;
        mj_resetData(m, d);
        int most = 0;
        for (int k = 0; k < 150; k++) {
          mj_step(m, d);
          if (d->nefc > most) most = d->nefc;
        }
        cr_expect_eq(d->warning[mjWARN_CNSTRFULL].number, 0, "%s solver %d cone %d: %d rows",
                     jacobian[jac], solver, cone, most);
        cr_expect_eq(d->warning[mjWARN_CONTACTFULL].number, 0);
        cr_expect_gt(most, 200, "a pile: %d rows", most);
      }
    }
    mj_deleteData(d);
    mj_deleteModel(m);
  }
}

Test(solver, crowd_stack_is_sized_by_compressed_rows) {
  // crowd100 (nv 2600, njmax 11604): its data, stack included, within 150 MB, and its steps
  // drop no rows
  char err[512];
  mjModel* m = mj_loadXML("models/crowd100.xml", err, sizeof(err));
  cr_assert(m, "%s", err);
  mjData* d = mj_makeData(m);
  cr_expect_leq(d->nbuffer, 150e6, "mjData %zu bytes", d->nbuffer);
  for (int k = 0; k < 20; k++) mj_step(m, d);
  cr_expect_eq(d->warning[mjWARN_CNSTRFULL].number, 0);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// ---- constraint islands ------------------------------------------------------------------------

// four free bodies on a plane: a box alone (tree 0), a sphere in the air (tree 1, no rows), a
// box (tree 2) with another sunk a little into its top (tree 3)
static const char* ISLANDS =
  "<mujoco><worldbody><geom type='plane' size='5 5 .1'/>"
  "<body pos='-1 0 0.099'><freejoint/><geom type='box' size='.1 .1 .1'/></body>"
  "<body pos='0 0 2'><freejoint/><geom type='sphere' size='.1'/></body>"
  "<body pos='1 0 0.099'><freejoint/><geom type='box' size='.1 .1 .1'/></body>"
  "<body pos='1.02 0 0.297'><freejoint/><geom type='box' size='.1 .1 .1'/></body>"
  "</worldbody></mujoco>";

// the islands found: two, numbered by their lowest tree, dofs and rows ascending in each, the
// sphere's dofs in none (last)
Test(solver, islands_are_trees_joined_by_rows) {
  mjModel* m = load(ISLANDS);
  mjData* d = mj_makeData(m);
  mj_forward(m, d);
  cr_assert_eq(d->nisland, 2);
  size_t mark = mj_markStack(d);
  mjIslands isl;
  cr_assert_eq(mj_islandFind(m, d, &isl), 1);
  cr_assert_eq(isl.nisland, 2);
  cr_assert_eq(isl.nidof, 18);
  int dof[24], local[24];
  for (int j = 0; j < 6; j++) {
    dof[j] = j, dof[6 + j] = 12 + j, dof[12 + j] = 18 + j, dof[18 + j] = 6 + j;
    local[j] = j, local[6 + j] = -1, local[12 + j] = j, local[18 + j] = 6 + j;
  }
  cr_assert_arr_eq(isl.dof, dof, sizeof(dof));
  cr_assert_arr_eq(isl.local, local, sizeof(local));
  cr_assert_eq(isl.dofadr[1], 6);
  for (int k = 0; k < 2; k++) {
    for (int e = isl.efcadr[k]; e < isl.efcadr[k + 1]; e++) {
      int r = isl.efc[e], b = m->geom_bodyid[d->contact[d->efc_id[r]].geom2];
      cr_assert(k == 0 ? b == 1 : b == 3 || b == 4, "row %d of island %d: body %d", r, k, b);
      cr_assert(e == isl.efcadr[k] || r > isl.efc[e - 1]);
    }
  }
  mj_freeStack(d, mark);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// solved island by island or all at once, the same minimum (tolerance 1e-14): each solver, cone
// and Jacobian, noslip after Newton (within 1e-7; CG within 1e-5: on the boxes' degenerate
// corners it stalls in round-off with forces 1e-6 from the minimum, alone or not); the sphere, in no island, keeps qacc_smooth exactly (with a
// warm start far from it) and no constraint force
Test(solver, islands_reach_the_whole_problems_minimum) {
  mjModel* m = load(ISLANDS);
  mjData* d = mj_makeData(m);
  m->opt.tolerance = 1e-14;
  m->opt.iterations = 1000;
  for (int c = 0; c < 8; c++) {
    m->opt.solver = c % 2 ? mjSOL_CG : mjSOL_NEWTON;
    m->opt.cone = c / 2 % 2;
    m->opt.jacobian = c / 4 ? mjJAC_SPARSE : mjJAC_DENSE;
    m->opt.noslip_iterations = c == 0 ? 20 : 0;
    mjtNum qacc[2][24], force[2][100];
    for (int whole = 0; whole < 2; whole++) {
      m->opt.disableflags = whole ? mjDSBL_ISLAND : 0;
      mj_resetData(m, d);
      for (int j = 0; j < 24; j++) d->qacc_warmstart[j] = 5 * sin(j);
      mj_forward(m, d);
      cr_assert_eq(d->nisland, whole ? 0 : 2);
      cr_assert(d->nefc > 8 && d->nefc <= 100);
      memcpy(qacc[whole], d->qacc, sizeof(mjtNum) * 24);
      memcpy(force[whole], d->efc_force, sizeof(mjtNum) * d->nefc);
      if (!whole) {
        for (int j = 6; j < 12; j++) {
          cr_assert_eq(d->qacc[j], d->qacc_smooth[j], "case %d dof %d", c, j);
          cr_assert_eq(d->qfrc_constraint[j], 0);
        }
      }
    }
    mjtNum tol = m->opt.solver == mjSOL_CG ? 1e-5 : 1e-7;
    for (int j = 0; j < 24; j++)
      cr_expect(fabs(qacc[0][j] - qacc[1][j]) < tol * (1 + fabs(qacc[1][j])),
                "case %d qacc[%d]: islands %.15g whole %.15g", c, j, qacc[0][j], qacc[1][j]);
    for (int i = 0; i < d->nefc; i++)
      cr_expect(fabs(force[0][i] - force[1][i]) < tol * (1 + fabs(force[1][i])),
                "case %d force[%d]: islands %.15g whole %.15g", c, i, force[0][i], force[1][i]);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}
