// noalloc.c: no heap allocation inside a step.  Linked with -Wl,--wrap=malloc (and calloc,
// realloc): the wrappers count calls while `counting` is set, around mj_step only.
#include <criterion/criterion.h>
#include <stdlib.h>

#include "mj.h"

void* __real_malloc(size_t n);
void* __real_calloc(size_t n, size_t size);
void* __real_realloc(void* p, size_t n);

static volatile int counting;  // 1 while a step runs (volatile: malloc is a builtin to gcc)
static volatile int calls;  // allocations seen while counting

// malloc, calloc and realloc that count the calls made while counting
void* __wrap_malloc(size_t n) {
  calls += counting;
  return __real_malloc(n);
}
void* __wrap_calloc(size_t n, size_t size) {
  calls += counting;
  return __real_calloc(n, size);
}
void* __wrap_realloc(void* p, size_t n) {
  calls += counting;
  return __real_realloc(p, n);
}

// steps of `path` under `integrator` with a varying control; the allocations made by mj_step
static int stepAllocations(const char* path, const char* integrator) {
  char err[512];
  mjModel* m = mj_loadXML(path, err, sizeof(err));
  cr_assert(m, "%s", err);
  cr_assert_eq(mj_setOptionString(m, integrator, err, sizeof(err)), 0, "%s", err);
  mjData* d = mj_makeData(m);
  cr_assert(d);
  calls = 0;
  for (int k = 0; k < 300; k++) {
    for (int i = 0; i < m->nu; i++) d->ctrl[i] = 0.5 * ((k + i) % 3 - 1);
    counting = 1;
    mj_step(m, d);
    counting = 0;
  }
  mj_deleteData(d);
  mj_deleteModel(m);
  return calls;
}

// a humanoid falling onto the floor (contacts, limits, the Newton solver) under each integrator
Test(noalloc, humanoid_steps_allocate_nothing) {
  const char* integrators[] = {"integrator=Euler", "integrator=implicit",
                               "integrator=implicitfast", "integrator=RK4"};
  for (int i = 0; i < 4; i++)
    cr_expect_eq(stepAllocations("models/biped.xml", integrators[i]), 0, "%s", integrators[i]);
}

// the other solvers, cones and the arm's tendons, equality and actuator dynamics
Test(noalloc, arm_and_solvers_allocate_nothing) {
  cr_expect_eq(stepAllocations("models/arm.xml", "solver=CG"), 0);
  cr_expect_eq(stepAllocations("models/arm.xml", "solver=PGS"), 0);
  cr_expect_eq(stepAllocations("models/quadruped.xml", "cone=elliptic"), 0);
}

// the counter works: an allocation while counting is seen
Test(noalloc, the_counter_counts) {
  calls = 0;
  counting = 1;
  void* p = malloc(16);
  counting = 0;
  free(p);
  cr_assert_eq(calls, 1);
}
