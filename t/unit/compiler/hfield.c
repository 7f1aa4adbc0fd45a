// t/unit/compiler/hfield.c: the height field asset (lib/compiler/hfield.c) and its collisions
// (lib/engine/collision_hfield.c) against numbers read from MuJoCo 3.5.1 and hand computations (the
// oracle comparisons are t/oracle/run.sh and t/oracle/collision/models/hfield.xml).
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "engine/collision.h"
#include "compiler/hfield.h"
#include "mj.h"
#include "engine/smooth.h"

// ---- the asset -----------------------------------------------------------------------------

// inline rows are flipped (their first row is +y) and normalized in float: MuJoCo's numbers
Test(hfield, inline_flip_normalize) {
  static const float elev[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13};
  mjHFieldSpec s = {.nrow = 3, .ncol = 4, .elevation = elev, .nelevation = 12,
                    .size = {1, 2, 0.5, 0.1}};
  mjHField hf;
  char err[200];
  cr_assert_eq(mj_hfieldCompile(&s, &hf, err, sizeof(err)), 0, "%s", err);
  cr_assert_eq(hf.nrow, 3);
  cr_assert_eq(hf.ncol, 4);
  static const float want[12] = {0.6666666865348816f, 0.75f, 0.8333333134651184f, 1,
                                 0.3333333432674408f, 0.4166666567325592f, 0.5f,
                                 0.5833333134651184f, 0, 0.0833333358168602f,
                                 0.1666666716337204f, 0.25f};
  for (int i = 0; i < 12; i++) cr_assert_eq(hf.data[i], want[i], "data[%d] = %.9g", i, hf.data[i]);
  cr_assert_eq(hf.size[3], 0.1);
  mj_hfieldFree(&hf);
}

// a flat grid (no elevation, or all equal) is all zeros
Test(hfield, flat) {
  static const float elev[6] = {2, 2, 2, 2, 2, 2};
  mjHFieldSpec s = {.nrow = 2, .ncol = 3, .elevation = elev, .nelevation = 6,
                    .size = {1, 1, 1, 1}};
  mjHField hf;
  char err[200];
  cr_assert_eq(mj_hfieldCompile(&s, &hf, err, sizeof(err)), 0, "%s", err);
  for (int i = 0; i < 6; i++) cr_assert_eq(hf.data[i], 0);
  mj_hfieldFree(&hf);
}

// malformed specs fail with a message and nothing allocated
Test(hfield, errors) {
  static const float elev[3] = {1, 2, 3};
  mjHField hf;
  char err[200];
  mjHFieldSpec count = {.nrow = 2, .ncol = 2, .elevation = elev, .nelevation = 3,
                        .size = {1, 1, 1, 1}};
  cr_assert_neq(mj_hfieldCompile(&count, &hf, err, sizeof(err)), 0);
  cr_assert(strstr(err, "elevation has 3 numbers"), "%s", err);
  cr_assert_null(hf.data);
  mjHFieldSpec size = {.nrow = 2, .ncol = 2, .size = {1, 1, 1, 0}};
  cr_assert_neq(mj_hfieldCompile(&size, &hf, err, sizeof(err)), 0);
  cr_assert(strstr(err, "size 3 must be positive"), "%s", err);
  mjHFieldSpec file = {.file = "/nonexistent/h.bin", .size = {1, 1, 1, 1}};
  cr_assert_neq(mj_hfieldCompile(&file, &hf, err, sizeof(err)), 0);
  cr_assert(strstr(err, "hfield file '/nonexistent/h.bin': No such"), "%s", err);
}

// geom size, rbound and box of an hfield geom: MuJoCo's numbers for size (1, 2, 0.5, 0.1)
Test(hfield, geom_bound) {
  mjtNum hsize[4] = {1, 2, 0.5, 0.1}, size[3], rbound, aabb[6];
  mj_hfieldGeomBound(hsize, size, &rbound, aabb);
  cr_assert_float_eq(size[2], 0.175, 1e-15);
  cr_assert_float_eq(rbound, 2.29128784747792, 1e-14);
  mjtNum want[6] = {0, 0, 0.2, 1, 2, 0.3};
  for (int i = 0; i < 6; i++) cr_assert_float_eq(aabb[i], want[i], 1e-15);
}

// ---- collisions ----------------------------------------------------------------------------

// the prism's support: the best bottom corner below, the best top corner otherwise
Test(hfield, prism_support) {
  const mjtNum p[6][3] = {{0, 0, -1}, {1, 0, -1}, {0, 1, -1}, {0, 0, 2}, {1, 0, 3}, {0, 1, 1}};
  mjtNum res[3], up[3] = {0.1, 0, 1}, down[3] = {0, 1, -1};
  mjc_prismSupport(p, up, res);
  cr_assert(res[0] == 1 && res[2] == 3);
  mjc_prismSupport(p, down, res);
  cr_assert(res[1] == 1 && res[2] == -1);
}

// a sphere sunk 0.02 into a flat field, over the lower-right triangle of its single cell:
// one contact, dist -0.02, normal +z, at nativeccd off (MPR) and on (GJK/EPA)
Test(hfield, sphere_on_flat) {
  const char* xml =
      "<mujoco><asset><hfield name='h' nrow='2' ncol='2' size='1 1 0.5 0.1'/></asset>"
      "<worldbody><geom type='hfield' hfield='h'/>"
      "<body pos='0.5 -0.5 0.08'><freejoint/><geom type='sphere' size='0.1'/></body>"
      "</worldbody></mujoco>";
  char err[512];
  mjModel* m = mj_parseXMLString(xml, "test.xml", "", err, sizeof(err));
  cr_assert(m, "%s", err);
  mjData* d = mj_makeData(m);
  for (int native = 0; native < 2; native++) {
    if (native) m->opt.disableflags &= ~mjDSBL_NATIVECCD;
    else m->opt.disableflags |= mjDSBL_NATIVECCD;
    mj_kinematics(m, d);
    mj_collision(m, d);
    cr_assert_eq(d->ncon, 1, "native %d: %d contacts", native, d->ncon);
    cr_assert_float_eq(d->contact[0].dist, -0.02, 1e-6);
    cr_assert_float_eq(d->contact[0].frame[2], 1, 1e-6);
    cr_assert_float_eq(d->contact[0].pos[0], 0.5, 1e-4);  // MPR's point is approximate
    cr_assert_float_eq(d->contact[0].pos[1], -0.5, 1e-4);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}
