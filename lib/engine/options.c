// options.c: the physics options by name: MJCF's keyword names of the option enums and of the
// <flag> bits (shared with the compiler), and runtime overrides of a loaded model's options
// ("timestep=0.001", "integrator=RK4", flag "contact" off) as the tools' --set, --disable and
// --enable apply them.
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util_file.h"
#include "mj.h"

// the <flag> names: disable bits in bit order (mjtDisableBit), then enable bits (mjtEnableBit)
const char* const mj_disableFlagNames[] = {
  "constraint", "equality", "frictionloss", "limit", "contact", "spring", "damper", "gravity",
  "clampctrl", "warmstart", "filterparent", "actuation", "refsafe", "sensor", "midphase",
  "eulerdamp", "autoreset", "nativeccd", "island", "multiccd", NULL};
const char* const mj_enableFlagNames[] = {"override", "energy",    "fwdinv", "invdiscrete",
                                          "sleep",    "diagexact", "ipc",    NULL};

// the keywords of the enum-valued option fields, indexed by value, as MJCF spells them
static const char* const integratorWords[] = {"Euler", "RK4", "implicit", "implicitfast", NULL};
static const char* const coneWords[] = {"pyramidal", "elliptic", NULL};
static const char* const jacobianWords[] = {"dense", "sparse", "auto", NULL};
static const char* const solverWords[] = {"PGS", "CG", "Newton", NULL};

// the keyword list of option field `name`, NULL for fields that are not keywords
const char* const* mj_optionKeywords(const char* name) {
  static const struct { const char* field; const char* const* words; } table[] = {
    {"integrator", integratorWords}, {"cone", coneWords}, {"jacobian", jacobianWords},
    {"solver", solverWords}};
  for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
    if (!strcmp(name, table[i].field)) return table[i].words;
  return NULL;
}

// index of `word` in the NULL-terminated list `words`, or -1
static int findWord(const char* const* words, const char* word) {
  for (int i = 0; words[i]; i++)
    if (!strcmp(words[i], word)) return i;
  return -1;
}

// the words of a list joined by ", " into buf (for messages)
static void joinWords(const char* const* words, char* buf, int bufsz) {
  int n = 0;
  buf[0] = 0;
  for (int i = 0; words[i] && n < bufsz; i++)
    n += snprintf(buf + n, bufsz - n, "%s%s", i ? ", " : "", words[i]);
}

// parse exactly `count` finite numbers separated by spaces or commas; 0 or -1
static int parseNumbers(const char* s, double* v, int count) {
  int n = 0;
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == ',') s++;
    if (!*s) break;
    char* end;
    double x = strtod(s, &end);
    if (end == s || !isfinite(x) || n == count) return -1;
    if (*end && *end != ' ' && *end != '\t' && *end != ',') return -1;
    v[n++] = x;
    s = end;
  }
  return n == count ? 0 : -1;
}

// parse one integer (decimal or 0x hex) that fits an int; 0 or -1
static int parseInt(const char* s, int* v) {
  while (isspace((unsigned char)*s)) s++;
  char* end;
  long x = strtol(s, &end, 0);
  while (isspace((unsigned char)*end)) end++;
  if (end == s || *end || x < -2147483647L - 1 || x > 2147483647L) return -1;
  *v = (int)x;
  return 0;
}

// set the int option `name` at p from text: a keyword where the field has them, else an integer
static int setIntField(const char* name, int* p, const char* value, char* err, int errsz) {
  const char* const* words = mj_optionKeywords(name);
  if (words) {
    int k = findWord(words, value);
    if (k < 0) {
      char list[128];
      joinWords(words, list, sizeof(list));
      mj_ioError(err, errsz, "option '%s': invalid keyword '%s' (one of %s)", name, value, list);
      return -1;
    }
    *p = k;
    return 0;
  }
  if (parseInt(value, p)) {
    mj_ioError(err, errsz, "option '%s': expected an integer, got '%s'", name, value);
    return -1;
  }
  return 0;
}

// set the mjtNum option `name` (count numbers at p) from text
static int setNumField(const char* name, mjtNum* p, int count, const char* value,
                       char* err, int errsz) {
  double v[8];
  if (parseNumbers(value, v, count)) {
    mj_ioError(err, errsz, "option '%s': expected %d number%s, got '%s'", name, count,
               count > 1 ? "s" : "", value);
    return -1;
  }
  if (!strcmp(name, "timestep") && !(v[0] > 0)) {
    mj_ioError(err, errsz, "option 'timestep': must be positive, got '%s'", value);
    return -1;
  }
  for (int i = 0; i < count; i++) p[i] = v[i];
  return 0;
}

// the largest iteration or point count an option may ask for: more is a damaged file (a step
// would take hours), not a model
#define MAXITER 100000

// the enum fields index their keyword lists, the counts are within [0, MAXITER]
int mj_checkOption(const mjOption* o, char* err, int errsz) {
  const struct { const char* name; int value; } fields[] = {
    {"integrator", o->integrator}, {"cone", o->cone}, {"jacobian", o->jacobian},
    {"solver", o->solver}, {"iterations", o->iterations}, {"ls_iterations", o->ls_iterations},
    {"noslip_iterations", o->noslip_iterations}, {"ccd_iterations", o->ccd_iterations},
    {"sdf_initpoints", o->sdf_initpoints}, {"sdf_iterations", o->sdf_iterations}};
  for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
    // an enum's largest value is its last keyword's index
    const char* const* words = mj_optionKeywords(fields[i].name);
    int hi = words ? -1 : MAXITER;
    while (words && words[hi + 1]) hi++;
    if (fields[i].value < 0 || fields[i].value > hi) {
      mj_ioError(err, errsz, "option '%s' = %d out of range [0, %d]", fields[i].name,
                 fields[i].value, hi);
      return -1;
    }
  }
  return 0;
}

// "name=value" over the fields of MJ_OPTION_FIELDS, into o
static int setOption(mjOption* o, const char* assignment, char* err, int errsz) {
  const char* eq = strchr(assignment, '=');
  if (!eq || eq == assignment) {
    mj_ioError(err, errsz, "option '%s': expected name=value", assignment);
    return -1;
  }
  char name[64];
  snprintf(name, sizeof(name), "%.*s", (int)(eq - assignment < 63 ? eq - assignment : 63),
           assignment);
  const char* value = eq + 1;

  // the field of that name, by its type in the table
#define X(type, fname, count, shape)                                                          \
  if (!strcmp(name, #fname)) {                                                                 \
    if (!strcmp(#type, "mjtNum"))                                                              \
      return setNumField(name, (mjtNum*)(void*)&o->fname, count, value, err, errsz);           \
    return setIntField(name, (int*)(void*)&o->fname, value, err, errsz);                      \
  }
  MJ_OPTION_FIELDS(X)
#undef X
  mj_ioError(err, errsz, "unknown option '%s'", name);
  return -1;
}

// set the option, then check the whole; m unchanged on failure
int mj_setOptionString(mjModel* m, const char* assignment, char* err, int errsz) {
  mjOption o = m->opt;
  if (setOption(&o, assignment, err, errsz) || mj_checkOption(&o, err, errsz)) return -1;
  m->opt = o;
  return 0;
}

// a disable bit cleared or set by enable, or an enable bit set or cleared, by <flag> name
int mj_setFlag(mjModel* m, const char* flag, int enable, char* err, int errsz) {
  int b = findWord(mj_disableFlagNames, flag);
  if (b >= 0) {
    if (enable) m->opt.disableflags &= ~(1 << b);
    else m->opt.disableflags |= 1 << b;
    return 0;
  }
  b = findWord(mj_enableFlagNames, flag);
  if (b >= 0) {
    if (enable) m->opt.enableflags |= 1 << b;
    else m->opt.enableflags &= ~(1 << b);
    return 0;
  }
  mj_ioError(err, errsz, "unknown flag '%s'", flag);
  return -1;
}
