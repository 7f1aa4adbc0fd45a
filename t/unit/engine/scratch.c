// scratch.c: the data stack and arena are scratch: no stage reads what it has not written
// there.  mj_makeData leaves that region zero; each test fills it with 0xff bytes (NaN as
// numbers, -1 as ints) in one of two copies of the data, runs both, and asks for the same
// bits in the outputs.  A read of an unwritten stack or arena value would show as a NaN or
// another number in the poisoned run (valgrind cannot see such a read: the region is
// allocated zeroed).
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "mj.h"

// fill d's stack and arena (from d->stack to the end of its buffer) with 0xff bytes
static void poison(mjData* d) {
  char* end = (char*)d->buffer + d->nbuffer;
  memset(d->stack, 0xff, (size_t)(end - (char*)d->stack));
}

// 1 when the n numbers at a and b have the same bits
static int same(const mjtNum* a, const mjtNum* b, int n) {
  return !memcmp(a, b, sizeof(mjtNum) * (size_t)n);
}

// model `path` with the options `set` (NULL: none), asserted to load
static mjModel* load(const char* path, const char* const* set) {
  char err[512];
  mjModel* m = mj_loadXML(path, err, sizeof(err));
  cr_assert(m, "%s", err);
  for (; set && *set; set++)
    cr_assert_eq(mj_setOptionString(m, *set, err, sizeof(err)), 0, "%s", err);
  return m;
}

// `steps` steps of model `path` (options `set`) under varying controls, clean and poisoned:
// the states, accelerations, constraint forces and sensors agree bit for bit at every step
static void stepBoth(const char* path, const char* const* set, int steps) {
  mjModel* m = load(path, set);
  mjData* d[2] = {mj_makeData(m), mj_makeData(m)};
  cr_assert(d[0] && d[1]);
  poison(d[1]);
  for (int k = 0; k < steps; k++) {
    for (int j = 0; j < 2; j++) {
      for (int i = 0; i < m->nu; i++) d[j]->ctrl[i] = 0.7 * ((k + i) % 5 - 2) / 2.0;
      mj_step(m, d[j]);
    }
    cr_assert_eq(d[0]->nefc, d[1]->nefc, "%s step %d", path, k);
    cr_assert(same(d[0]->qpos, d[1]->qpos, m->nq), "%s step %d: qpos", path, k);
    cr_assert(same(d[0]->qvel, d[1]->qvel, m->nv), "%s step %d: qvel", path, k);
    cr_assert(same(d[0]->act, d[1]->act, m->na), "%s step %d: act", path, k);
    cr_assert(same(d[0]->qacc, d[1]->qacc, m->nv), "%s step %d: qacc", path, k);
    cr_assert(same(d[0]->efc_force, d[1]->efc_force, d[0]->nefc), "%s step %d: efc_force",
              path, k);
    cr_assert(same(d[0]->sensordata, d[1]->sensordata, m->nsensordata), "%s step %d: sensors",
              path, k);
  }
  mj_deleteData(d[0]);
  mj_deleteData(d[1]);
  mj_deleteModel(m);
}

// the poison shows: a value read from the poisoned stack before it is written is a NaN
Test(scratch, the_poison_is_nan) {
  mjModel* m = load("models/pendulum.xml", NULL);
  mjData* d = mj_makeData(m);
  cr_assert(d);
  poison(d);
  size_t mark = mj_markStack(d);
  mjtNum* x = mj_stackAlloc(d, 4);
  cr_assert(x[0] != x[0], "the poisoned stack reads %g", x[0]);
  mj_freeStack(d, mark);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// contacts, limits and tendons under each integrator, Newton and pyramidal cones
Test(scratch, integrators_read_only_what_they_write) {
  const char* integrators[][2] = {{"integrator=Euler", NULL}, {"integrator=implicit", NULL},
                                  {"integrator=implicitfast", NULL}, {"integrator=RK4", NULL}};
  for (int i = 0; i < 4; i++) stepBoth("models/biped.xml", integrators[i], 150);
  stepBoth("models/arm.xml", NULL, 150);
}

// every solver with both cones, noslip after it
Test(scratch, solvers_read_only_what_they_write) {
  const char* solvers[] = {"solver=PGS", "solver=CG", "solver=Newton"};
  const char* cones[] = {"cone=pyramidal", "cone=elliptic"};
  for (int s = 0; s < 3; s++)
    for (int c = 0; c < 2; c++) {
      const char* set[] = {solvers[s], cones[c], "noslip_iterations=4", NULL};
      stepBoth("models/quadruped.xml", set, 120);
    }
}

// the analytic Jacobians of a step with contacts, from a clean and a poisoned stack
Test(scratch, derivatives_read_only_what_they_write) {
  mjModel* m = load("models/quadruped.xml", NULL);
  mjData* d[2] = {mj_makeData(m), mj_makeData(m)};
  cr_assert(d[0] && d[1]);
  poison(d[1]);
  int ndx = 2 * m->nv + m->na, n = ndx * ndx;
  mjtNum* A = malloc(sizeof(mjtNum) * 2 * (size_t)n);
  cr_assert(A);
  for (int k = 0; k < 200; k++)
    for (int j = 0; j < 2; j++) mj_step(m, d[j]);
  cr_assert_gt(d[0]->ncon, 0, "the quadruped should stand on the floor");
  char err[512];
  for (int j = 0; j < 2; j++)
    cr_assert_eq(mjd_transitionSmooth(m, d[j], A + (size_t)j * n, NULL, NULL, NULL, err,
                                      sizeof(err)),
                 0, "%s", err);
  cr_assert(same(A, A + n, n), "A differs with a poisoned stack");
  free(A);
  mj_deleteData(d[0]);
  mj_deleteData(d[1]);
  mj_deleteModel(m);
}
