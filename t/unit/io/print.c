// print.c tests: the JSON dump and the summary of a small hand-built model.
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mj.h"

// a two-body model: world and a 1.5 kg body with one hinge, one sphere and a name buffer
static mjModel* tiny(void) {
  mjModel sizes;
  memset(&sizes, 0, sizeof(sizes));
  sizes.nq = sizes.nv = sizes.njnt = 1;
  sizes.nbody = 2;
  sizes.ngeom = 1;
  sizes.nnames = 17;  // "tiny\0world\0arm\0j\0"
  mjModel* m = mj_makeModel(&sizes);
  cr_assert_not_null(m);
  memcpy(m->names, "tiny\0world\0arm\0j\0", 17);
  m->name_bodyadr[0] = 5;
  m->name_bodyadr[1] = 11;
  m->name_jntadr[0] = 15;
  m->name_geomadr[0] = -1;
  m->body_parentid[1] = 0;
  m->body_mass[1] = 1.5;
  m->body_quat[0] = m->body_quat[4] = 1;
  m->body_jntnum[1] = 1;
  m->body_geomnum[1] = 1;
  m->jnt_type[0] = mjJNT_HINGE;
  m->jnt_bodyid[0] = 1;
  m->jnt_limited[0] = 1;
  m->jnt_range[0] = -0.5;
  m->jnt_range[1] = 0.25;
  m->geom_type[0] = mjGEOM_SPHERE;
  m->geom_bodyid[0] = 1;
  m->geom_size[0] = 0.1 + 0.2;  // 0.30000000000000004: needs all 17 digits
  m->geom_margin[0] = INFINITY;
  m->geom_gap[0] = NAN;
  return m;
}

// the text a printer writes for m, in a malloc'd string
static char* printed(void (*print)(const mjModel*, FILE*), const mjModel* m) {
  char* buf = NULL;
  size_t n = 0;
  FILE* f = open_memstream(&buf, &n);
  cr_assert_not_null(f);
  print(m, f);
  fclose(f);
  return buf;
}

// the number of times needle occurs in s
static int count(const char* s, const char* needle) {
  int k = 0;
  for (const char* p = strstr(s, needle); p; p = strstr(p + 1, needle)) k++;
  return k;
}

// the value of "key": in s, parsed as a double (the first number of a list)
static double value(const char* s, const char* key) {
  char pat[80];
  snprintf(pat, sizeof(pat), "\"%s\": ", key);
  const char* p = strstr(s, pat);
  cr_assert_not_null(p, "no key %s", key);
  p += strlen(pat);
  if (*p == '[') p++;
  return strtod(p, NULL);
}

Test(print, json_has_every_table_entry_once) {
  mjModel* m = tiny();
  char* s = printed(mj_printModelJSON, m);
  // every size, option, statistic, visual member and array is a key exactly once
#define X(name) cr_expect_eq(count(s, "\"" #name "\": "), 1, "%s", #name);
  MJ_SIZES(X)
#undef X
#define X(type, name, count_, shape) cr_expect_eq(count(s, "\"" #name "\": "), 1, "%s", #name);
  MJ_OPTION_FIELDS(X)
  MJ_STAT_FIELDS(X)
#undef X
#define X(type, sec, name, count_, shape)                                                        \
  cr_expect_eq(count(s, "\"" #sec "_" #name "\": "), 1, "%s_%s", #sec, #name);
  MJ_VISUAL_FIELDS(X)
#undef X
#define X(type, name, rows, cols) cr_expect_eq(count(s, "\"" #name "\": "), 1, "%s", #name);
  MJ_MODEL_ARRAYS(X)
#undef X
  free(s);
  mj_deleteModel(m);
}

Test(print, json_values) {
  mjModel* m = tiny();
  char* s = printed(mj_printModelJSON, m);
  // sizes and scalar options are bare numbers, vectors lists, in table order
  cr_expect_eq(value(s, "nbody"), 2);
  cr_expect_eq(value(s, "timestep"), 0.002);
  cr_expect_not_null(strstr(s, "\"gravity\": [0, 0, -9.8100000000000005]"));
  cr_expect_not_null(strstr(s, "\"body_mass\": [0, 1.5]"));
  cr_expect_not_null(strstr(s, "\"jnt_range\": [-0.5, 0.25]"));
  cr_expect_not_null(strstr(s, "\"jnt_type\": [3]"));
  cr_expect_not_null(strstr(s, "\"body_quat\": [1, 0, 0, 0, 1, 0, 0, 0]"));
  // %.17g round-trips a double bit for bit
  cr_expect_eq(value(s, "geom_size"), 0.1 + 0.2);
  // a float prints as the double it converts to: 0.3f is 0.30000001192092896
  cr_expect_eq(value(s, "global_glow"), (double)0.3f);
  cr_expect_not_null(strstr(s, "\"global_glow\": 0.30000001192092896"));
  // non-finite reals are strings, so the output stays JSON
  cr_expect_not_null(strstr(s, "\"geom_margin\": [\"Infinity\"]"));
  cr_expect_not_null(strstr(s, "\"geom_gap\": [\"NaN\"]"));
  // the names buffer is one string with its NULs escaped
  cr_expect_not_null(strstr(s, "\"names\": \"tiny\\u0000world\\u0000arm\\u0000j\\u0000\""));
  cr_expect_not_null(strstr(s, "\"name_geomadr\": [-1]"));
  // an empty array is an empty list
  cr_expect_not_null(strstr(s, "\"site_pos\": []"));
  free(s);
  mj_deleteModel(m);
}

Test(print, summary) {
  mjModel* m = tiny();
  char* s = printed(mj_printModelSummary, m);
  // model name, counts, options, then one row per body, joint and geom
  cr_expect_not_null(strstr(s, "model tiny\n"));
  cr_expect_not_null(strstr(s, "  nq 1                nv 1 "));
  cr_expect_not_null(strstr(s, "nbody 2"));
  cr_expect_not_null(strstr(s, "integrator Euler  cone pyramidal  solver Newton"));
  cr_expect_not_null(strstr(s, "timestep           0.002\n"));
  cr_expect_not_null(strstr(s, "bodies (2)"));
  cr_expect(count(s, "arm ") >= 1);
  cr_expect_not_null(strstr(s, "hinge"));
  cr_expect_not_null(strstr(s, "-0.5 0.25"));
  // the unnamed geom is listed by id, with its type and size
  cr_expect_not_null(strstr(s, "#0"));
  cr_expect_not_null(strstr(s, "sphere"));
  cr_expect_not_null(strstr(s, "0.3 0 0"));
  free(s);
  mj_deleteModel(m);
}

// custom fields: each numeric with its numbers, each text on its line, each tuple's objects by
// type and name; in the JSON the texts are one string with their terminators escaped
Test(print, custom_fields) {
  char err[512] = "";
  mjModel* m = mj_parseXMLString(
    "<mujoco><custom><numeric name='gains' data='1 2.5' size='3'/>"
    "<text name='modes' data='Stand|Walk'/><text name='two' data='a&#10;b'/>"
    "<tuple name='parts'><element objtype='body' objname='arm' prm='0.5'/>"
    "<element objtype='numeric' objname='gains'/></tuple></custom>"
    "<worldbody><body name='arm'><geom size='.1'/></body></worldbody></mujoco>",
    "t.xml", "", err, sizeof(err));
  cr_assert_not_null(m, "%s", err);
  char* s = printed(mj_printModelSummary, m);
  cr_expect_not_null(strstr(s, "numeric (1)\n"));
  cr_expect_not_null(strstr(s, " gains                   3 1 2.5 0\n"));
  cr_expect_not_null(strstr(s, " modes                Stand|Walk\n"));
  cr_expect_not_null(strstr(s, " two                  a?b\n"));
  cr_expect_not_null(strstr(s, " parts                body arm 0.5, numeric gains 0\n"));
  free(s);
  s = printed(mj_printModelJSON, m);
  cr_expect_not_null(strstr(s, "\"text_data\": \"Stand|Walk\\u0000a\\u000ab\\u0000\""));
  cr_expect_not_null(strstr(s, "\"numeric_data\": [1, 2.5, 0]"));
  free(s);
  mj_deleteModel(m);
}

// materials list their textures by role; in the JSON mat_texid is nmat x mjNTEXROLE, -1 where
// a role has none
Test(print, material_roles) {
  char err[512] = "";
  mjModel* m = mj_parseXMLString(
    "<mujoco><asset><texture name='c' type='2d' builtin='checker' width='4' height='4'/>"
    "<texture name='n' type='2d' builtin='flat' width='2' height='2'/>"
    "<material name='plain'/><material name='one' texture='c'/>"
    "<material name='pbr'><layer texture='n' role='normal'/><layer texture='c' role='rgb'/>"
    "<layer texture='n' role='orm'/></material></asset>"
    "<worldbody><geom size='.1' material='pbr'/></worldbody></mujoco>",
    "t.xml", "", err, sizeof(err));
  cr_assert_not_null(m, "%s", err);
  char* s = printed(mj_printModelSummary, m);
  cr_expect_not_null(strstr(s, "materials (3)\n"));
  cr_expect_not_null(strstr(s, " plain                -\n"));
  cr_expect_not_null(strstr(s, " one                  rgb c\n"));
  cr_expect_not_null(strstr(s, " pbr                  rgb c, normal n, orm n\n"));
  free(s);
  s = printed(mj_printModelJSON, m);
  cr_expect_not_null(strstr(s, "\"mat_texid\": [-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, "
                               "-1, 0, -1, -1, -1, -1, -1, -1, -1, -1, "
                               "-1, 0, -1, -1, -1, 1, -1, -1, -1, 1]"));
  free(s);
  mj_deleteModel(m);
}
