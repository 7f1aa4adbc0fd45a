// efc.c: libmj's constraint solvers on MuJoCo's own constraint rows, compared with MuJoCo's
// answer.  Reads the output of `node scripts/oracle.mjs efc MODEL.xml [options]` on stdin (a
// JSON list of cases, see scripts/oracle_efc.mjs), loads MODEL with libmj, and for each case
// fills the data with the oracle's qM, qacc_smooth, qfrc_smooth, qacc_warmstart, efc_* rows and
// contacts, runs mj_fwdConstraint with the case's options and prints one line:
//
//   MODEL key K warm W solver S cone C nefc N niter OURS/THEIRS qacc E force E state N stats N
//
// (errors: max |ours - theirs| / max(1, max |theirs|); state: rows whose state differs;
// stats: iterations whose active or changed-state counts differ).
//
//   efc MODEL.xml [--max-err E] [--niter] [--sparse] [--solver S --iterations N] < CASES.json
//
// With EFC_STATS set in the environment, each case also lists the per-iteration statistics
// (libmj | MuJoCo), with EFC_FORCE the forces (libmj, MuJoCo).
// --solver runs libmj's solver S (0 PGS, 1 CG, 2 Newton) for up to N iterations instead of the
// oracle's, to compare with another solver's answer; states are then not compared.
// --sparse stores the rows' non-zeros as compressed rows (jacobian sparse), so that the sparse
// paths of the solvers (the sparse Newton Hessian) run on the same problem.
// Exit status: 1 when an error exceeds --max-err (default 1e-8), with --niter when an
// iteration count or an iteration's counts differ, or when a state differs; 2 on bad input.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/constraint.h"
#include "mj.h"
#include "engine/smooth.h"

// the text after `"name":` inside [p, end), or NULL
static const char* field(const char* p, const char* end, const char* name) {
  char key[64];
  snprintf(key, sizeof(key), "\"%s\":", name);
  const char* q = strstr(p, key);
  return q && q < end ? q + strlen(key) : NULL;
}

// up to n numbers from a JSON number or list at p; returns how many were read
static int numbers(const char* p, double* out, int n) {
  int k = 0;
  while (*p == ' ' || *p == '[') p++;
  while (k < n) {
    char* e;
    double v = strtod(p, &e);
    if (e == p) break;
    out[k++] = v;
    p = e;
    while (*p == ' ' || *p == ',') p++;
    if (*p == ']' || *p == '}') break;
  }
  return k;
}

// one number; exits with status 2 when missing
static double number(const char* p, const char* end, const char* name) {
  double v;
  const char* q = field(p, end, name);
  if (!q || numbers(q, &v, 1) != 1) {
    fprintf(stderr, "efc: case without %s\n", name);
    exit(2);
  }
  return v;
}

// n numbers of the list `name` into out (mjtNum) or iout (int)
static void list(const char* p, const char* end, const char* name, int n, mjtNum* out,
                 int* iout) {
  double* tmp = malloc(sizeof(double) * (n ? n : 1));
  const char* q = field(p, end, name);
  if (!tmp || !q || numbers(q, tmp, n) != n) {
    fprintf(stderr, "efc: case without %d values of %s\n", n, name);
    exit(2);
  }
  for (int i = 0; i < n; i++) {
    if (out) out[i] = tmp[i];
    if (iout) iout[i] = (int)tmp[i];
  }
  free(tmp);
}

// max |a - b| / max(1, max |b|)
static double relErr(const mjtNum* a, const mjtNum* b, int n) {
  double e = 0, s = 1;
  for (int i = 0; i < n; i++) {
    e = fmax(e, fabs(a[i] - b[i]));
    s = fmax(s, fabs(b[i]));
  }
  return e / s;
}

// an arena array of n elements of size sz, or exit
static void* arena(mjData* d, size_t n, size_t sz) {
  void* p = mj_arenaAlloc(d, (n ? n : 1) * sz);
  if (!p) {
    fprintf(stderr, "efc: arena too small\n");
    exit(2);
  }
  return p;
}

// run one case in [p, end); returns 1 when it fails the bounds
static int runCase(mjModel* m, mjData* d, const char* name, const char* p, const char* end,
                   double maxerr, int checkIter, int sparse, int solver, int iterations) {
  int nv = m->nv, nefc = (int)number(p, end, "nefc"), ncon = (int)number(p, end, "ncon");
  if ((int)number(p, end, "nv") != nv || ncon > m->nconmax) {
    fprintf(stderr, "efc: case does not fit model %s\n", name);
    exit(2);
  }
  const char* opt = field(p, end, "opt");
  m->opt.solver = (int)number(opt, end, "solver");
  m->opt.cone = (int)number(opt, end, "cone");
  m->opt.tolerance = number(opt, end, "tolerance");
  m->opt.ls_tolerance = number(opt, end, "ls_tolerance");
  m->opt.iterations = (int)number(opt, end, "iterations");
  m->opt.ls_iterations = (int)number(opt, end, "ls_iterations");
  m->opt.noslip_iterations = (int)number(opt, end, "noslip_iterations");
  m->opt.noslip_tolerance = number(opt, end, "noslip_tolerance");
  m->opt.disableflags = (int)number(opt, end, "disableflags");
  m->opt.jacobian = sparse ? mjJAC_SPARSE : mjJAC_DENSE;
  if (solver >= 0) {
    m->opt.solver = solver;
    m->opt.iterations = iterations;
  }

  // the smooth dynamics: M and its factor, qacc_smooth, qfrc_smooth, the warmstart
  mj_resetData(m, d);
  list(p, end, "qM", m->nM, d->qM, NULL);
  mj_factorM(m, d);
  list(p, end, "qacc_smooth", nv, d->qacc_smooth, NULL);
  list(p, end, "qfrc_smooth", nv, d->qfrc_smooth, NULL);
  list(p, end, "qacc_warmstart", nv, d->qacc_warmstart, NULL);

  // the rows, in the arena as the constraint stage leaves them
  mj_resetArena(d);
  d->nefc = nefc;
  d->nJ = nefc * nv;
  d->efc_type = arena(d, nefc, sizeof(int));
  d->efc_id = arena(d, nefc, sizeof(int));
  d->efc_state = arena(d, nefc, sizeof(int));
  d->efc_J = arena(d, (size_t)nefc * nv, sizeof(mjtNum));
  mjtNum** rows[] = {&d->efc_pos, &d->efc_margin, &d->efc_frictionloss, &d->efc_diagApprox,
                     &d->efc_D, &d->efc_R, &d->efc_vel, &d->efc_aref, &d->efc_b,
                     &d->efc_force};
  for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
    *rows[k] = arena(d, nefc, sizeof(mjtNum));
  }
  list(p, end, "efc_type", nefc, NULL, d->efc_type);
  list(p, end, "efc_id", nefc, NULL, d->efc_id);
  list(p, end, "efc_J", nefc * nv, d->efc_J, NULL);

  // dense rows' lengths as the constraint stage keeps them (lib/engine/constraint.c addRows): to
  // the end of the block of 4 columns holding the last non-zero, nv if that block is short
  if (!sparse && mj_denseRowLengths(m)) {
    d->efc_J_rowlen = arena(d, nefc, sizeof(int));
    for (int i = 0; i < nefc; i++) {
      int last = -1;
      for (int j = 0; j < nv; j++)
        if (d->efc_J[i * nv + j] != 0) last = j;
      int len = last >= 0 ? (last + 4) & ~3 : 0;
      d->efc_J_rowlen[i] = len <= (nv & ~3) ? len : nv;
    }
  }

  // compressed rows: the non-zeros moved to the front of efc_J, row by row
  if (sparse) {
    d->efc_J_rownnz = arena(d, nefc, sizeof(int));
    d->efc_J_rowadr = arena(d, nefc, sizeof(int));
    d->efc_J_colind = arena(d, (size_t)nefc * nv, sizeof(int));
    int nJ = 0;
    for (int i = 0; i < nefc; i++) {
      d->efc_J_rowadr[i] = nJ;
      for (int j = 0; j < nv; j++) {
        mjtNum v = d->efc_J[i * nv + j];
        if (v == 0) continue;
        d->efc_J_colind[nJ] = j;
        d->efc_J[nJ++] = v;
      }
      d->efc_J_rownnz[i] = nJ - d->efc_J_rowadr[i];
    }
    d->nJ = nJ;
  }
  list(p, end, "efc_frictionloss", nefc, d->efc_frictionloss, NULL);
  list(p, end, "efc_D", nefc, d->efc_D, NULL);
  list(p, end, "efc_R", nefc, d->efc_R, NULL);
  list(p, end, "efc_aref", nefc, d->efc_aref, NULL);

  // contacts: dim, mu, friction, efc_address
  d->ncon = ncon;
  const char* c = field(p, end, "contact");
  for (int i = 0; i < ncon; i++) {
    mjContact* con = d->contact + i;
    c = strstr(c, "{\"dim\":");
    const char* cend = strchr(c, '}');
    con->dim = (int)number(c, cend, "dim");
    con->mu = number(c, cend, "mu");
    list(c, cend, "friction", 5, con->friction, NULL);
    con->efc_address = (int)number(c, cend, "efc_address");
    c = cend;
  }

  // solve and compare
  mj_fwdConstraint(m, d);
  mjtNum* ref = malloc(sizeof(mjtNum) * (nefc + nv + 1));
  int* sref = malloc(sizeof(int) * (nefc + 1));
  list(p, end, "qacc", nv, ref, NULL);
  double eq = relErr(d->qacc, ref, nv);
  list(p, end, "efc_force", nefc, ref, NULL);
  double ef = relErr(d->efc_force, ref, nefc);
  if (getenv("EFC_FORCE")) {
    for (int i = 0; i < nefc; i++) printf("  f[%d] %.10g %.10g\n", i, d->efc_force[i], ref[i]);
  }
  list(p, end, "efc_state", nefc, NULL, sref);
  // PGS puts a sliding elliptic contact's friction exactly on the cone, where satisfied and
  // cone states differ by round-off: for it those two count as one (and its per-iteration
  // counts, which such contacts flip, are not compared)
  int dualCone = m->opt.solver == mjSOL_PGS && m->opt.cone == mjCONE_ELLIPTIC, nstate = 0;
  for (int i = 0; i < nefc && solver < 0; i++) {
    int a = sref[i], b = d->efc_state[i];
    if (dualCone && d->efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC) {
      a = a == mjCNSTRSTATE_CONE ? mjCNSTRSTATE_SATISFIED : a;
      b = b == mjCNSTRSTATE_CONE ? mjCNSTRSTATE_SATISFIED : b;
    }
    nstate += a != b;
  }
  int niter = (int)number(p, end, "solver_niter");

  // the per-iteration statistics: active and changed counts compared where both iterated
  int nstat = 0;
  const char* q = strstr(p, "\"solver\":[") + 9;
  double st[mjNSOLVER][7] = {{0}};
  for (int i = 0; i < niter && i < mjNSOLVER && (q = strchr(q + 1, 0x5b)); i++)
    numbers(q, st[i], 7);
  for (int i = 0; i < niter && i < d->solver_niter && i < mjNSOLVER && !dualCone; i++)
    nstat += d->solver[i].nactive != st[i][3] || d->solver[i].nchange != st[i][4];
  printf("%s key %d warm %d solver %d cone %d nefc %d niter %d/%d qacc %.1e force %.1e "
         "state %d stats %d\n", name, (int)number(p, end, "key"), (int)number(p, end, "warm"),
         m->opt.solver, m->opt.cone, nefc, d->solver_niter, niter, eq, ef, nstate, nstat);
  if (getenv("EFC_STATS")) {
    for (int i = 0; (i < d->solver_niter || i < niter) && i < mjNSOLVER; i++) {
      const mjSolverStat* s = d->solver + i;
      printf("  %2d  %.6e %.6e %.3e %d %d %d %d | %.6e %.6e %.3e %g %g %g %g\n", i,
             s->improvement, s->gradient, s->lineslope, s->nactive, s->nchange, s->neval,
             s->nupdate, st[i][0], st[i][1], st[i][2], st[i][3], st[i][4], st[i][5], st[i][6]);
    }
  }
  free(ref);
  free(sref);
  return eq > maxerr || ef > maxerr || nstate ||
         (checkIter && (niter != d->solver_niter || nstat));
}

int main(int argc, char** argv) {
  char err[1024];
  double maxerr = 1e-8;
  int checkIter = 0, sparse = 0, solver = -1, iterations = 100;
  if (argc < 2) {
    fprintf(stderr, "usage: efc MODEL.xml [--max-err E] [--niter] [--sparse]"
                    " [--solver S --iterations N] < CASES.json\n");
    return 2;
  }
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--max-err") && i + 1 < argc) maxerr = atof(argv[++i]);
    else if (!strcmp(argv[i], "--niter")) checkIter = 1;
    else if (!strcmp(argv[i], "--sparse")) sparse = 1;
    else if (!strcmp(argv[i], "--solver") && i + 1 < argc) solver = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--iterations") && i + 1 < argc) iterations = atoi(argv[++i]);
  }
  mjModel* m = mj_loadXML(argv[1], err, sizeof(err));
  if (!m) {
    fprintf(stderr, "efc: %s\n", err);
    return 2;
  }
  mjData* d = mj_makeData(m);

  // all of stdin
  size_t n = 0, cap = 1 << 20;
  char* text = malloc(cap);
  for (size_t r; text && (r = fread(text + n, 1, cap - n - 1, stdin)) > 0;) {
    n += r;
    if (n + 1 == cap) text = realloc(text, cap *= 2);
  }
  if (!text) return 2;
  text[n] = 0;
  if (strstr(text, "\"error\"")) {
    fprintf(stderr, "efc: oracle: %s\n", text);
    return 2;
  }

  // each case from one {"key": to the next
  int fail = 0, ncase = 0;
  for (const char* p = strstr(text, "{\"key\":"); p; ncase++) {
    const char* next = strstr(p + 1, "{\"key\":");
    fail |= runCase(m, d, argv[1], p, next ? next : text + n, maxerr, checkIter, sparse,
                    solver, iterations);
    p = next;
  }
  free(text);
  mj_deleteData(d);
  mj_deleteModel(m);
  if (!ncase) {
    fprintf(stderr, "efc: no cases\n");
    return 2;
  }
  return fail;
}
