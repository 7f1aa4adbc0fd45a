// options.c tests: setting physics options by name ("timestep=0.001", "integrator=RK4",
// vectors, integers), the flag bits by their MJCF names, the errors, and the compiler reading
// the same keyword tables.
#include <criterion/criterion.h>
#include <string.h>

#include "mj.h"

// a model with no objects: only its options matter here
static mjModel* emptyModel(void) {
  char err[256];
  mjModel* m = mj_parseXMLString("<mujoco/>", "empty.xml", "", err, sizeof(err));
  cr_assert_not_null(m, "%s", err);
  return m;
}

Test(options, reals_and_vectors) {
  mjModel* m = emptyModel();
  char err[256];
  cr_expect_eq(mj_setOptionString(m, "timestep=0.001", err, sizeof(err)), 0, "%s", err);
  cr_expect_eq(m->opt.timestep, 0.001);
  cr_expect_eq(mj_setOptionString(m, "gravity=1, 2,-3.5", err, sizeof(err)), 0, "%s", err);
  cr_expect(m->opt.gravity[0] == 1 && m->opt.gravity[1] == 2 && m->opt.gravity[2] == -3.5);
  cr_expect_eq(mj_setOptionString(m, "o_solimp=0.9 0.95 0.001 0.5 2", err, sizeof(err)), 0);
  cr_expect_eq(m->opt.o_solimp[4], 2);
  mj_deleteModel(m);
}

Test(options, keywords_and_integers) {
  mjModel* m = emptyModel();
  char err[256];
  // the MJCF keywords, indexed as the enums
  cr_expect_eq(mj_setOptionString(m, "integrator=RK4", err, sizeof(err)), 0);
  cr_expect_eq(m->opt.integrator, mjINT_RK4);
  cr_expect_eq(mj_setOptionString(m, "integrator=implicitfast", err, sizeof(err)), 0);
  cr_expect_eq(m->opt.integrator, mjINT_IMPLICITFAST);
  cr_expect_eq(mj_setOptionString(m, "cone=elliptic", err, sizeof(err)), 0);
  cr_expect_eq(m->opt.cone, mjCONE_ELLIPTIC);
  cr_expect_eq(mj_setOptionString(m, "solver=CG", err, sizeof(err)), 0);
  cr_expect_eq(m->opt.solver, mjSOL_CG);
  cr_expect_eq(mj_setOptionString(m, "jacobian=sparse", err, sizeof(err)), 0);
  cr_expect_eq(m->opt.jacobian, mjJAC_SPARSE);
  cr_expect_eq(mj_setOptionString(m, "iterations=7", err, sizeof(err)), 0);
  cr_expect_eq(m->opt.iterations, 7);
  cr_expect_eq(mj_setOptionString(m, "disableflags=0x11", err, sizeof(err)), 0);
  cr_expect_eq(m->opt.disableflags, mjDSBL_CONTACT | mjDSBL_CONSTRAINT);
  cr_expect_str_eq(mj_optionKeywords("integrator")[mjINT_IMPLICIT], "implicit");
  cr_expect_null(mj_optionKeywords("timestep"));
  mj_deleteModel(m);
}

Test(options, errors_leave_the_model_unchanged) {
  mjModel* m = emptyModel();
  char err[256];
  mjOption before = m->opt;
  cr_expect_eq(mj_setOptionString(m, "integrator=rk4", err, sizeof(err)), -1);
  cr_expect_str_eq(err, "option 'integrator': invalid keyword 'rk4' "
                        "(one of Euler, RK4, implicit, implicitfast)");
  cr_expect_eq(mj_setOptionString(m, "gravity=1 2", err, sizeof(err)), -1);
  cr_expect_str_eq(err, "option 'gravity': expected 3 numbers, got '1 2'");
  cr_expect_eq(mj_setOptionString(m, "gravity=1 2 3 4", err, sizeof(err)), -1);
  cr_expect_eq(mj_setOptionString(m, "timestep=0", err, sizeof(err)), -1);
  cr_expect_str_eq(err, "option 'timestep': must be positive, got '0'");
  cr_expect_eq(mj_setOptionString(m, "timestep=1x", err, sizeof(err)), -1);
  cr_expect_eq(mj_setOptionString(m, "iterations=2.5", err, sizeof(err)), -1);
  cr_expect_str_eq(err, "option 'iterations': expected an integer, got '2.5'");
  cr_expect_eq(mj_setOptionString(m, "warp=9", err, sizeof(err)), -1);
  cr_expect_str_eq(err, "unknown option 'warp'");
  cr_expect_eq(mj_setOptionString(m, "timestep", err, sizeof(err)), -1);
  cr_expect_str_eq(err, "option 'timestep': expected name=value");
  cr_expect_eq(memcmp(&before, &m->opt, sizeof(mjOption)), 0);
  mj_deleteModel(m);
}

Test(options, flags) {
  mjModel* m = emptyModel();
  char err[256];
  // disable bits: "disable" sets, "enable" clears; enable bits the reverse
  cr_expect_eq(mj_setFlag(m, "contact", 0, err, sizeof(err)), 0);
  cr_expect_eq(mj_setFlag(m, "eulerdamp", 0, err, sizeof(err)), 0);
  cr_expect_eq(m->opt.disableflags, mjDSBL_CONTACT | mjDSBL_EULERDAMP);
  cr_expect_eq(mj_setFlag(m, "contact", 1, err, sizeof(err)), 0);
  cr_expect_eq(m->opt.disableflags, mjDSBL_EULERDAMP);
  cr_expect_eq(mj_setFlag(m, "energy", 1, err, sizeof(err)), 0);
  cr_expect_eq(m->opt.enableflags, mjENBL_ENERGY);
  cr_expect_eq(mj_setFlag(m, "energy", 0, err, sizeof(err)), 0);
  cr_expect_eq(m->opt.enableflags, 0);
  cr_expect_eq(mj_setFlag(m, "friction", 0, err, sizeof(err)), -1);
  cr_expect_str_eq(err, "unknown flag 'friction'");
  // every bit has a name
  int n = 0;
  while (mj_disableFlagNames[n]) n++;
  cr_expect_eq(n, mjNDISABLE);
  n = 0;
  while (mj_enableFlagNames[n]) n++;
  cr_expect_eq(n, mjNENABLE);
  mj_deleteModel(m);
}

Test(options, compiler_reads_the_same_names) {
  char err[256];
  mjModel* m = mj_parseXMLString(
    "<mujoco><option integrator=\"implicit\" cone=\"elliptic\">"
    "<flag gravity=\"disable\" energy=\"enable\"/></option></mujoco>", "o.xml", "", err,
    sizeof(err));
  cr_assert_not_null(m, "%s", err);
  cr_expect_eq(m->opt.integrator, mjINT_IMPLICIT);
  cr_expect_eq(m->opt.cone, mjCONE_ELLIPTIC);
  cr_expect_eq(m->opt.disableflags, mjDSBL_GRAVITY);
  cr_expect_eq(m->opt.enableflags, mjENBL_ENERGY);
  mj_deleteModel(m);
  cr_expect_null(mj_parseXMLString("<mujoco><option integrator=\"rk4\"/></mujoco>", "o.xml", "",
                                   err, sizeof(err)));
}

// enum values beyond their keywords and iteration counts past 100000 are refused by the
// check, by --set (model unchanged), by mj_validateModel and by the compiler (a fuzzed .mjb
// asked for 12.5 million noslip iterations and integrator 4196352: t/fuzz/regress/mjb/)
Test(options, checked_ranges) {
  mjModel* m = emptyModel();
  char err[200];
  cr_assert_eq(mj_checkOption(&m->opt, err, sizeof(err)), 0, "%s", err);
  cr_assert_eq(mj_setOptionString(m, "noslip_iterations=100000", err, sizeof(err)), 0);
  cr_assert_neq(mj_setOptionString(m, "noslip_iterations=100001", err, sizeof(err)), 0);
  cr_assert_str_eq(err, "option 'noslip_iterations' = 100001 out of range [0, 100000]");
  cr_assert_eq(m->opt.noslip_iterations, 100000);
  cr_assert_neq(mj_setOptionString(m, "ls_iterations=-1", err, sizeof(err)), 0);
  m->opt.integrator = 4;
  cr_assert_neq(mj_checkOption(&m->opt, err, sizeof(err)), 0);
  cr_assert_str_eq(err, "option 'integrator' = 4 out of range [0, 3]");
  cr_assert_neq(mj_validateModel(m, err, sizeof(err)), 0);
  cr_assert(strstr(err, "option 'integrator' = 4"), "%s", err);
  mj_deleteModel(m);
  cr_assert_null(mj_parseXMLString("<mujoco><option iterations='200000'/></mujoco>",
                                   "o.xml", "", err, sizeof(err)));
  cr_assert(strstr(err, "option 'iterations' = 200000 out of range"), "%s", err);
}
