// island.c: constraint islands, as MuJoCo finds them (the option flag island, on unless
// disabled).  A kinematic tree is a child of the world with its subtree; a constraint row
// touches the trees of its objects (a dof's or joint's tree, a contact's or a connect or weld's
// two bodies' trees, else the trees of its Jacobian's columns), and trees that rows join, by
// union-find, form an island.  Islands are numbered by their lowest tree, their dofs and rows
// kept in ascending order.  The solvers then solve island after island (solver.c): each its own
// problem with its own line searches and stopping test, handed to them as a model and data of
// its own (mj_islandView).
#include "engine/island.h"

#include <string.h>

#include "engine/constraint.h"
#include "engine/model.h"
#include "engine/smooth.h"
#include "util/util.h"

// the root of tree t's set, halving the path on the way
static int treeRoot(int* parent, int t) {
  while (parent[t] != t) t = parent[t] = parent[parent[t]];
  return t;
}

// trees a and b (-1: the world, which joins nothing) in one set, the lower root the root;
// a tree first met becomes a set of its own
static void treeJoin(int* parent, int a, int b) {
  if (a < 0) a = b;
  if (b < 0) b = a;
  if (parent[a] < 0) parent[a] = a;
  if (parent[b] < 0) parent[b] = b;
  int ra = treeRoot(parent, a), rb = treeRoot(parent, b);
  if (ra < rb) parent[rb] = ra;
  else parent[ra] = rb;
}

// join the trees row i touches; returns one of them, -1 when it touches none that moves
static int rowTrees(const mjModel* m, const mjData* d, int i, int* parent) {
  int type = d->efc_type[i], id = d->efc_id[i], t1 = -1, t2 = -1;

  // a dof's friction, a joint's limit: its tree
  if (type == mjCNSTR_FRICTION_DOF) {
    t1 = m->dof_treeid[id];
  } else if (type == mjCNSTR_LIMIT_JOINT) {
    t1 = m->dof_treeid[m->jnt_dofadr[id]];
  }

  // a contact, a connect or a weld: its two bodies' trees
  else if ((type == mjCNSTR_CONTACT_FRICTIONLESS || type == mjCNSTR_CONTACT_PYRAMIDAL ||
            type == mjCNSTR_CONTACT_ELLIPTIC) &&
           d->contact[id].geom1 >= 0 && d->contact[id].geom2 >= 0) {
    const mjContact* con = d->contact + id;
    t1 = m->body_treeid[m->geom_bodyid[con->geom1]];
    t2 = m->body_treeid[m->geom_bodyid[con->geom2]];
  } else if (type == mjCNSTR_EQUALITY &&
             (m->eq_type[id] == mjEQ_CONNECT || m->eq_type[id] == mjEQ_WELD)) {
    int b1 = m->eq_obj1id[id], b2 = m->eq_obj2id[id];
    if (m->eq_objtype[id] == mjOBJ_SITE) b1 = m->site_bodyid[b1], b2 = m->site_bodyid[b2];
    t1 = m->body_treeid[b1];
    t2 = m->body_treeid[b2];
  }

  // anything else (a contact without two geoms too): the trees of its Jacobian's columns (a
  // sparse row's stored ones, a dense row's non-zeros)
  else {
    int nv = m->nv, sparse = mj_isSparse(m);
    int n = sparse ? d->efc_J_rownnz[i] : nv;
    const int* col = sparse ? d->efc_J_colind + d->efc_J_rowadr[i] : NULL;
    const mjtNum* row = d->efc_J + (sparse ? (size_t)d->efc_J_rowadr[i] : (size_t)i * nv);
    for (int k = 0; k < n; k++) {
      if (!sparse && row[k] == 0) continue;
      int t = m->dof_treeid[sparse ? col[k] : k];
      if (t1 < 0) t1 = t;
      else if (t != t1) treeJoin(parent, t1, t);
    }
  }
  if (t1 < 0 && t2 < 0) return -1;
  treeJoin(parent, t1, t2);
  return t1 >= 0 ? t1 : t2;
}

// whether the rows make one island of every dof, as mj_islandFind would find it (island.h)
int mj_islandWhole(const mjModel* m, const mjData* d) {
  if (m->ntree != 1) return 0;
  // one tree: every row joins it unless it touches no tree that moves
  int parent[1] = {-1};
  for (int i = 0; i < d->nefc; i++) {
    if (i && d->efc_type[i] == d->efc_type[i - 1] && d->efc_id[i] == d->efc_id[i - 1]) continue;
    if (rowTrees(m, d, i, parent) < 0) return 0;
  }
  return 1;
}

// the islands of d's constraint rows (island.h)
int mj_islandFind(const mjModel* m, mjData* d, mjIslands* isl) {
  int nv = m->nv, nefc = d->nefc, ntree = m->ntree;
  int *parent = mj_stackInt(d, ntree), *island = mj_stackInt(d, ntree);
  int* efctree = mj_stackInt(d, nefc);
  isl->dofadr = mj_stackInt(d, ntree + 1);
  isl->efcadr = mj_stackInt(d, ntree + 1);
  isl->dof = mj_stackInt(d, nv);
  isl->local = mj_stackInt(d, nv);
  isl->efc = mj_stackInt(d, nefc);
  if (!parent || !island || !efctree || !isl->dofadr || !isl->efcadr || !isl->dof ||
      !isl->local || !isl->efc)
    return -1;

  // join the trees of each constraint (its rows touch the same ones)
  for (int t = 0; t < ntree; t++) parent[t] = -1;
  for (int i = 0; i < nefc; i++) {
    if (i && d->efc_type[i] == d->efc_type[i - 1] && d->efc_id[i] == d->efc_id[i - 1]) {
      efctree[i] = efctree[i - 1];
    } else if ((efctree[i] = rowTrees(m, d, i, parent)) < 0) {
      return 0;
    }
  }

  // islands numbered by their lowest tree
  int n = 0;
  for (int t = 0; t < ntree; t++)
    island[t] = parent[t] < 0 ? -1 : parent[t] == t ? n++ : island[treeRoot(parent, t)];
  isl->nisland = n;

  // dofs and rows island by island, ascending within each (counted, then placed); the dofs
  // of no island last
  memset(isl->dofadr, 0, sizeof(int) * (n + 1));
  memset(isl->efcadr, 0, sizeof(int) * (n + 1));
  for (int j = 0; j < nv; j++) {
    int k = island[m->dof_treeid[j]];
    if (k >= 0) isl->dofadr[k + 1]++;
  }
  for (int i = 0; i < nefc; i++) isl->efcadr[island[efctree[i]] + 1]++;
  for (int k = 0; k < n; k++) {
    isl->dofadr[k + 1] += isl->dofadr[k];
    isl->efcadr[k + 1] += isl->efcadr[k];
  }
  isl->nidof = isl->dofadr[n];
  int *next = mj_stackInt(d, n), rest = isl->nidof;
  if (!next) return -1;
  memcpy(next, isl->dofadr, sizeof(int) * n);
  for (int j = 0; j < nv; j++) {
    int k = island[m->dof_treeid[j]];
    isl->local[j] = k < 0 ? -1 : next[k] - isl->dofadr[k];
    isl->dof[k < 0 ? rest++ : next[k]++] = j;
  }
  memcpy(next, isl->efcadr, sizeof(int) * n);
  for (int i = 0; i < nefc; i++) isl->efc[next[island[efctree[i]]]++] = i;
  return 1;
}

// island k as a model and data of their own (island.h)
int mj_islandView(const mjModel* m, mjData* d, const mjIslands* isl, int k, mjModel* mi,
                  mjData* di) {
  int nv = isl->dofadr[k + 1] - isl->dofadr[k], nefc = isl->efcadr[k + 1] - isl->efcadr[k];
  const int *dof = isl->dof + isl->dofadr[k], *efc = isl->efc + isl->efcadr[k];
  int sparse = mj_isSparse(m);
  *mi = *m;
  *di = *d;
  mi->opt.jacobian = sparse ? mjJAC_SPARSE : mjJAC_DENSE;

  // the inertia and the dof vectors
  mi->dof_parentid = mj_stackInt(d, nv);
  mi->dof_Madr = mj_stackInt(d, nv);
  mi->dof_simplenum = mj_stackInt(d, nv);
  di->qM = mj_stackAlloc(d, m->nM);
  di->qLD = mj_stackAlloc(d, m->nM);
  di->qLDiagInv = mj_stackAlloc(d, nv);
  di->qacc = mj_stackAlloc(d, nv);
  di->qacc_smooth = mj_stackAlloc(d, nv);
  di->qfrc_smooth = mj_stackAlloc(d, nv);
  di->qfrc_constraint = mj_stackAlloc(d, nv);
  if (!mi->dof_parentid || !mi->dof_Madr || !mi->dof_simplenum || !di->qM || !di->qLD ||
      !di->qLDiagInv || !di->qacc || !di->qacc_smooth || !di->qfrc_smooth ||
      !di->qfrc_constraint)
    return 0;
  mj_inertiaView(m, d, dof, nv, isl->local, mi, di);
  for (int j = 0; j < nv; j++) {
    di->qacc[j] = d->qacc[dof[j]];
    di->qacc_smooth[j] = d->qacc_smooth[dof[j]];
    di->qfrc_smooth[j] = d->qfrc_smooth[dof[j]];
    di->qfrc_constraint[j] = d->qfrc_constraint[dof[j]];
  }

  // the rows: their numbers, and their Jacobian over the island's dofs, sparse (columns
  // renumbered) or dense as d's (a dense row's length all of it)
  int nJ = 0;
  for (int i = 0; i < nefc; i++) nJ += sparse ? d->efc_J_rownnz[efc[i]] : nv;
  di->nefc = nefc;
  di->nJ = nJ;
  di->efc_type = mj_stackInt(d, nefc);
  di->efc_id = mj_stackInt(d, nefc);
  di->efc_state = mj_stackInt(d, nefc);
  di->efc_D = mj_stackAlloc(d, nefc);
  di->efc_R = mj_stackAlloc(d, nefc);
  di->efc_frictionloss = mj_stackAlloc(d, nefc);
  di->efc_aref = mj_stackAlloc(d, nefc);
  di->efc_b = mj_stackAlloc(d, nefc);
  di->efc_force = mj_stackAlloc(d, nefc);
  di->efc_J = mj_stackAlloc(d, nJ);
  di->efc_J_rownnz = di->efc_J_rowadr = di->efc_J_colind = di->efc_J_rowlen = NULL;
  if (sparse) {
    di->efc_J_rownnz = mj_stackInt(d, nefc);
    di->efc_J_rowadr = mj_stackInt(d, nefc);
    di->efc_J_colind = mj_stackInt(d, nJ);
  } else if (mj_denseRowLengths(mi)) {
    di->efc_J_rowlen = mj_stackInt(d, nefc);
  }
  if (!di->efc_type || !di->efc_id || !di->efc_state || !di->efc_D || !di->efc_R ||
      !di->efc_frictionloss || !di->efc_aref || !di->efc_b || !di->efc_force || !di->efc_J ||
      (sparse && (!di->efc_J_rownnz || !di->efc_J_rowadr || !di->efc_J_colind)) ||
      (!sparse && mj_denseRowLengths(mi) && !di->efc_J_rowlen))
    return 0;
  for (int i = 0, adr = 0; i < nefc; i++) {
    int r = efc[i];
    di->efc_type[i] = d->efc_type[r];
    di->efc_id[i] = d->efc_id[r];
    di->efc_state[i] = d->efc_state[r];
    di->efc_D[i] = d->efc_D[r];
    di->efc_R[i] = d->efc_R[r];
    di->efc_frictionloss[i] = d->efc_frictionloss[r];
    di->efc_aref[i] = d->efc_aref[r];
    di->efc_b[i] = d->efc_b[r];
    di->efc_force[i] = d->efc_force[r];
    if (sparse) {
      int n = d->efc_J_rownnz[r], from = d->efc_J_rowadr[r];
      di->efc_J_rownnz[i] = n;
      di->efc_J_rowadr[i] = adr;
      for (int c = 0; c < n; c++) di->efc_J_colind[adr + c] = isl->local[d->efc_J_colind[from + c]];
      mju_copy(di->efc_J + adr, d->efc_J + from, n);
      adr += n;
    } else {
      mjtNum* to = di->efc_J + (size_t)i * nv;
      const mjtNum* from = d->efc_J + (size_t)r * m->nv;
      for (int j = 0; j < nv; j++) to[j] = from[dof[j]];
      if (di->efc_J_rowlen) di->efc_J_rowlen[i] = nv;
    }
  }

  // the view's stack starts above its arrays
  di->pstack = d->pstack;
  return 1;
}

// the view's results back into d (island.h)
void mj_islandScatter(mjData* d, const mjData* di, const mjIslands* isl, int k) {
  const int *dof = isl->dof + isl->dofadr[k], *efc = isl->efc + isl->efcadr[k];
  for (int j = 0; j < isl->dofadr[k + 1] - isl->dofadr[k]; j++) {
    d->qacc[dof[j]] = di->qacc[j];
    d->qfrc_constraint[dof[j]] = di->qfrc_constraint[j];
  }
  for (int i = 0; i < di->nefc; i++) {
    d->efc_force[efc[i]] = di->efc_force[i];
    d->efc_state[efc[i]] = di->efc_state[i];
  }
  memcpy(d->warning, di->warning, sizeof(d->warning));
  if (di->maxstack > d->maxstack) d->maxstack = di->maxstack;
}
