// island.h: constraint islands (lib/engine/island.c), found from the step's constraint rows
// and handed to the solvers (lib/engine/solver.c) one at a time.
#ifndef MJ_ISLAND_H
#define MJ_ISLAND_H

#include "mj.h"

// the islands of a step: kinematic trees joined by constraint rows, numbered by their lowest
// tree; each island's dofs and rows in ascending order, island after island
typedef struct {
  int nisland;   // number of islands (0: no row touches a tree that moves)
  int nidof;     // dofs in some island
  int* dofadr;   // first position in dof of each island, and nidof last   (nisland + 1)
  int* dof;      // the dofs, island by island; the unconstrained ones last (nv)
  int* efcadr;   // first position in efc of each island, and nefc last    (nisland + 1)
  int* efc;      // the rows, island by island                              (nefc)
  int* local;    // each dof's position within its island, -1 if none       (nv)
} mjIslands;

// the islands of d's constraint rows, in arrays on d's stack (freed with it); 1, or 0 when a row
// touches no tree that moves, -1 when the stack is too small (the solvers then solve all rows
// at once)
int mj_islandFind(const mjModel* m, mjData* d, mjIslands* isl);

// 1 when d's rows make one island of every dof (one kinematic tree, every row touching it):
// what mj_islandFind would find, without its arrays; else 0 (then mj_islandFind tells)
int mj_islandWhole(const mjModel* m, const mjData* d);

// island k as a model and data of their own, for the solvers: shallow copies of m and d whose
// dof and row arrays are the island's, gathered onto d's stack (dofs and rows ascending, so that
// every product and solve sums as over the whole; the contacts and the rest are d's); di's stack
// starts above them.  0 when d's stack is too small
int mj_islandView(const mjModel* m, mjData* d, const mjIslands* isl, int k, mjModel* mi,
                  mjData* di);

// what the solvers wrote into island k's view, back into d: qacc, qfrc_constraint, efc_force,
// efc_state; the view's warnings and stack use
void mj_islandScatter(mjData* d, const mjData* di, const mjIslands* isl, int k);

#endif
