// cost.c: the planner's cost (man 5 mjcost): residual terms, each a weighted norm of a
// vector of rows, each row an affine combination of engine quantities (sensors, qpos, qvel,
// act, ctrl, actuator forces) and of values of time (constants, keyframe entries, mocap
// positions, tables, gaits, gait schedules), optionally masked by a value of time.  Parsing,
// binding to a model (names to addresses, the task's user sensors to norms and weights), the
// schedules' transitions between plans (MuJoCo MPC's automatic gait switching), the residual,
// its Jacobians from the sensors' C and D, and the cost's value and derivatives (MuJoCo MPC's
// conventions: stage cost sum_k w_k norm_k(r_k), the risk transform, Gauss-Newton Hessians).
#include "plan/plan.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "util/util_file.h"

#define NAMELEN 64
#define MAXPARAM 8
#define MAXFOOT 8
#define MAXSET 8

// what an atom reads: state-dependent quantities, then values of time only
enum {
  Q_SENSOR, Q_QPOS, Q_QVEL, Q_ACT, Q_CTRL, Q_FORCE,   // of the state and the controls
  T_CONST, T_KEY, T_MOCAP, T_TABLE, T_GAIT, T_SCHED, T_TIME  // of time (and the model) only
};

// coef * quantity
typedef struct {
  int kind;                 // Q_ or T_
  mjtNum coef;              // the factor
  char name[NAMELEN];       // sensor, keyframe, mocap body, table or gait name
  int index;                // [k], -1 when absent
  char iname[NAMELEN];      // [NAME]: a joint or an actuator
  int id;                   // bound: sensordata address, qpos address, dof, act, actuator,
                            // key qpos value index, mocap component, table, gait foot
  int aux;                  // bound: the gait or schedule, the qpos's joint
} Atom;

// one residual row: the sum of its atoms, zero where its mask (a value of time) is zero
typedef struct {
  int atom0, natom;         // its atoms in the cost's list
  int mask;                 // atom index of the mask, -1: none
  int line;
} Row;

// one term: weight * norm(rows)
typedef struct {
  char name[NAMELEN];
  int norm;                 // mjNORM_, -2 until known
  mjtNum weight;
  mjtNum param[MAXPARAM];
  int given;                // bits: 1 norm, 2 weight, 4 params given in the cost file
  int row0, nrow;
  int line;
} Term;

// a piecewise-linear function of time, constant beyond its ends
typedef struct {
  char name[NAMELEN];
  int n;
  mjtNum* t, *v;
} Table;

// a periodic gait: step heights of its feet (MuJoCo MPC's quadruped schedule)
typedef struct {
  char name[NAMELEN];
  int nfoot;
  mjtNum phase[MAXFOOT];    // each foot's offset, a fraction of a cycle
  mjtNum duty, cadence, amplitude;
} Gait;

// a gait schedule (MuJoCo MPC's automatic gait switching): one gait at a time, its feet at a
// phase continuous in time, switched between plans by the filtered horizontal speed of a sensor
typedef struct {
  char name[NAMELEN];
  char sensor[NAMELEN];     // the speed's sensor: its components 0 and 1
  int adr;                  // bound: its sensordata address
  mjtNum tau, hold;         // the filter's time constant; seconds between choices
  int line;
  // the values in force: the gait (its feet's offsets), duty, cadence, amplitude
  int gait;
  mjtNum duty, cadence, amplitude;
  // the state: phase = phase0 + omega (t - time0); the filtered velocity, the last
  // transition's time, the last choice's time
  mjtNum phase0, time0, omega;
  mjtNum vel[2], last, chosen;
  int started;
} Schedule;

// a band (above, upto] of a schedule's filtered speed choosing a gait, and the term weights
// set when the choice changes the gait
typedef struct {
  int sched, gait;
  mjtNum above, upto;
  int nset;
  char tname[MAXSET][NAMELEN];
  int term[MAXSET];         // resolved at the end of the parse
  mjtNum weight[MAXSET];
  int line;
} Switch;

struct mjCost_ {
  char file[256];           // for messages
  Atom* atom; int natom;
  Row* row; int nrow;
  Term* term; int nterm;
  Table* table; int ntable;
  Gait* gait; int ngait;
  Schedule* sched; int nsched;
  Switch* sw; int nsw;
  char* sensors;            // the added sensors' MJCF elements, one a line
  int risk_given;
  mjtNum risk;
  int maxdim;               // the largest term dimension
  int nx, nu, nq;           // bound model's sizes
};

// ---- parsing -------------------------------------------------------------------------------------

// a message "file:line: ..." into err; returns -1
static int costError(const mjCost* c, int line, char* err, int errsz, const char* fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  if (line > 0) mj_ioError(err, errsz, "%s:%d: %s", c->file, line, msg);
  else mj_ioError(err, errsz, "%s: %s", c->file, msg);
  return -1;
}

// grow *p (of *n elements of size sz) by one zeroed element; NULL when out of memory
static void* growOne(void** p, int* n, size_t sz) {
  void* q = realloc(*p, sz * (size_t)(*n + 1));
  if (!q) return NULL;
  *p = q;
  memset((char*)q + sz * (size_t)*n, 0, sz);
  return (char*)q + sz * (size_t)(*n)++;
}

// the scanner of one line
typedef struct {
  const char* s;
  int line;
} Scan;

static void skipSpace(Scan* s) { while (*s->s == ' ' || *s->s == '\t') s->s++; }

// an identifier into buf, 0 when none is next
static int scanIdent(Scan* s, char* buf) {
  skipSpace(s);
  const char* p = s->s;
  if (!(isalpha((unsigned char)*p) || *p == '_')) return 0;
  int n = 0;
  while (isalnum((unsigned char)p[n]) || p[n] == '_') n++;
  if (n >= NAMELEN) return 0;
  memcpy(buf, p, (size_t)n);
  buf[n] = 0;
  s->s = p + n;
  return 1;
}

// a number into *v, 0 when none is next
static int scanNumber(Scan* s, mjtNum* v) {
  skipSpace(s);
  const char* p = s->s;
  if (!(isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1])))) return 0;
  char* end;
  *v = strtod(p, &end);
  s->s = end;
  return 1;
}

// the character c next (consumed), 0 otherwise
static int scanChar(Scan* s, char c) {
  skipSpace(s);
  if (*s->s != c) return 0;
  s->s++;
  return 1;
}

// an atom's name part: IDENT ['(' IDENT ')'] ['.' IDENT] ['[' INT | IDENT ']']; the kind from
// the leading word: qpos, qvel, act, ctrl, force, key(K).qpos, mocap(B), table(T), gait(G),
// time, else a sensor's name
static int scanAtom(mjCost* c, Scan* s, Atom* a, char* err, int errsz) {
  char word[NAMELEN], field[NAMELEN] = "";
  if (!scanIdent(s, word)) return costError(c, s->line, err, errsz, "expected a quantity at '%s'", s->s);
  a->index = -1;
  if (scanChar(s, '(')) {
    if (!scanIdent(s, a->name) || !scanChar(s, ')'))
      return costError(c, s->line, err, errsz, "%s(...): expected a name in parentheses", word);
    if (scanChar(s, '.') && !scanIdent(s, field))
      return costError(c, s->line, err, errsz, "%s(%s).: expected a field", word, a->name);
  }
  if (scanChar(s, '[')) {
    mjtNum v;
    if (scanNumber(s, &v)) {
      if (v != floor(v) || v < 0 || v > 1e9)
        return costError(c, s->line, err, errsz, "%s: bad index %g", word, v);
      a->index = (int)v;
    } else if (!scanIdent(s, a->iname)) {
      return costError(c, s->line, err, errsz, "%s[...]: expected an index or a name", word);
    }
    if (!scanChar(s, ']')) return costError(c, s->line, err, errsz, "%s[...: expected ']'", word);
  }
  static const struct { const char* word; int kind, paren, indexed; } kinds[] = {
    {"qpos", Q_QPOS, 0, 1}, {"qvel", Q_QVEL, 0, 1}, {"act", Q_ACT, 0, 1}, {"ctrl", Q_CTRL, 0, 1},
    {"force", Q_FORCE, 0, 1}, {"key", T_KEY, 1, 1}, {"mocap", T_MOCAP, 1, 1},
    {"table", T_TABLE, 1, 0}, {"gait", T_GAIT, 1, 1}, {"time", T_TIME, 0, 0}};
  a->kind = Q_SENSOR;
  for (int k = 0; k < (int)(sizeof(kinds) / sizeof(kinds[0])); k++) {
    if (strcmp(word, kinds[k].word)) continue;
    a->kind = kinds[k].kind;
    if (kinds[k].paren != (a->name[0] != 0))
      return costError(c, s->line, err, errsz, kinds[k].paren ? "%s: expected %s(NAME)" :
                       "%s: unexpected (NAME)", word, word);
    if (kinds[k].indexed != (a->index >= 0 || a->iname[0]))
      return costError(c, s->line, err, errsz, kinds[k].indexed ? "%s: expected an index [k]" :
                       "%s: unexpected index", word);
    if (a->kind == T_KEY && strcmp(field, "qpos"))
      return costError(c, s->line, err, errsz, "key(%s): expected key(%s).qpos[k]", a->name, a->name);
    if (a->kind != T_KEY && field[0])
      return costError(c, s->line, err, errsz, "%s: unexpected .%s", word, field);
    if ((a->kind == T_MOCAP || a->kind == T_GAIT || a->kind == Q_ACT) && a->iname[0])
      return costError(c, s->line, err, errsz, "%s: expected a numeric index", word);
    return 0;
  }
  if (a->name[0] || field[0] || a->iname[0])
    return costError(c, s->line, err, errsz, "unknown quantity '%s'", word);
  snprintf(a->name, sizeof(a->name), "%s", word);
  return 0;
}

// a product of numbers and at most one atom, appended to the cost's atoms with sign
static int scanProduct(mjCost* c, Scan* s, mjtNum sign, char* err, int errsz) {
  mjtNum coef = sign, v;
  Atom a = {.kind = T_CONST, .index = -1};
  int have = 0;
  do {
    if (scanNumber(s, &v)) {
      coef *= v;
    } else {
      if (have) return costError(c, s->line, err, errsz, "a product of two quantities is not affine");
      if (scanAtom(c, s, &a, err, errsz)) return -1;
      have = 1;
    }
  } while (scanChar(s, '*'));
  a.coef = coef;
  Atom* p = growOne((void**)&c->atom, &c->natom, sizeof(Atom));
  if (!p) return costError(c, s->line, err, errsz, "out of memory");
  *p = a;
  return 0;
}

// "r EXPR [if MASK]": a row of the last term
static int parseRow(mjCost* c, Scan* s, char* err, int errsz) {
  if (!c->nterm) return costError(c, s->line, err, errsz, "a row before any term");
  Row* r = growOne((void**)&c->row, &c->nrow, sizeof(Row));
  if (!r) return costError(c, s->line, err, errsz, "out of memory");
  r->line = s->line;
  r->atom0 = c->natom;
  r->mask = -1;
  mjtNum sign = scanChar(s, '-') ? -1 : (scanChar(s, '+'), 1);
  for (;;) {
    if (scanProduct(c, s, sign, err, errsz)) return -1;
    if (scanChar(s, '+')) sign = 1;
    else if (scanChar(s, '-')) sign = -1;
    else break;
  }
  r = c->row + c->nrow - 1;
  r->natom = c->natom - r->atom0;
  char word[NAMELEN];
  const char* at = s->s;
  if (scanIdent(s, word)) {
    if (strcmp(word, "if")) {
      s->s = at;
    } else {
      Atom* a = growOne((void**)&c->atom, &c->natom, sizeof(Atom));
      if (!a) return costError(c, s->line, err, errsz, "out of memory");
      if (scanAtom(c, s, a, err, errsz)) return -1;
      if (a->kind < T_CONST) return costError(c, s->line, err, errsz, "if: a mask is a value of time (key, mocap, table, gait, time)");
      a->coef = 1;
      r->mask = c->natom - 1;
    }
  }
  skipSpace(s);
  if (*s->s) return costError(c, s->line, err, errsz, "unexpected '%s'", s->s);
  c->term[c->nterm - 1].nrow++;
  return 0;
}

// a list of numbers "a,b,c" into v (at most max); the count or -1
static int scanList(Scan* s, mjtNum* v, int max) {
  int n = 0;
  do {
    if (n == max || !scanNumber(s, v + n)) return -1;
    n++;
  } while (scanChar(s, ','));
  return n;
}

// "term NAME [norm N] [weight W] [params P,Q]"
static int parseTerm(mjCost* c, Scan* s, char* err, int errsz) {
  Term* t = growOne((void**)&c->term, &c->nterm, sizeof(Term));
  if (!t) return costError(c, s->line, err, errsz, "out of memory");
  t->line = s->line;
  t->norm = -2;
  t->row0 = c->nrow;
  if (!scanIdent(s, t->name)) return costError(c, s->line, err, errsz, "term: expected a name");
  for (int i = 0; i < c->nterm - 1; i++)
    if (!strcmp(c->term[i].name, t->name)) return costError(c, s->line, err, errsz, "term '%s' repeated", t->name);
  char key[NAMELEN], val[NAMELEN];
  while (scanIdent(s, key)) {
    if (!strcmp(key, "norm")) {
      skipSpace(s);
      int n = 0;
      while (s->s[n] && !isspace((unsigned char)s->s[n]) && n < NAMELEN - 1) n++;
      memcpy(val, s->s, (size_t)n);
      val[n] = 0;
      s->s += n;
      if ((t->norm = mjp_normFind(val)) < -1)
        return costError(c, s->line, err, errsz, "term '%s': unknown norm '%s'", t->name, val);
      t->given |= 1;
    } else if (!strcmp(key, "weight")) {
      if (!scanNumber(s, &t->weight) && !(scanChar(s, '-') && scanNumber(s, &t->weight) && (t->weight = -t->weight, 1)))
        return costError(c, s->line, err, errsz, "term '%s': weight: expected a number", t->name);
      t->given |= 2;
    } else if (!strcmp(key, "params")) {
      if (scanList(s, t->param, MAXPARAM) < 0)
        return costError(c, s->line, err, errsz, "term '%s': params: expected numbers a,b,...", t->name);
      t->given |= 4;
    } else {
      return costError(c, s->line, err, errsz, "term '%s': unknown setting '%s'", t->name, key);
    }
  }
  skipSpace(s);
  if (*s->s) return costError(c, s->line, err, errsz, "term '%s': unexpected '%s'", t->name, s->s);
  return 0;
}

// "table NAME t0 v0 t1 v1 ...", times increasing; a table named again continues
static int parseTable(mjCost* c, Scan* s, char* err, int errsz) {
  char name[NAMELEN];
  if (!scanIdent(s, name)) return costError(c, s->line, err, errsz, "table: expected a name");
  Table* t = c->table;
  while (t < c->table + c->ntable && strcmp(t->name, name)) t++;
  if (t == c->table + c->ntable) {
    if (!(t = growOne((void**)&c->table, &c->ntable, sizeof(Table))))
      return costError(c, s->line, err, errsz, "out of memory");
    memcpy(t->name, name, sizeof(name));
  }
  mjtNum v[2];
  for (;;) {
    int k = 0;
    for (; k < 2; k++) {
      int neg = scanChar(s, '-');
      if (!scanNumber(s, v + k)) break;
      if (neg) v[k] = -v[k];
    }
    if (k == 0) break;
    if (k == 1) return costError(c, s->line, err, errsz, "table '%s': a time without a value", t->name);
    if (t->n && v[0] <= t->t[t->n - 1])
      return costError(c, s->line, err, errsz, "table '%s': times must increase", t->name);
    mjtNum* nt = realloc(t->t, sizeof(mjtNum) * (size_t)(t->n + 1));
    if (nt) t->t = nt;
    mjtNum* nv = realloc(t->v, sizeof(mjtNum) * (size_t)(t->n + 1));
    if (nv) t->v = nv;
    if (!nt || !nv) return costError(c, s->line, err, errsz, "out of memory");
    t->t[t->n] = v[0], t->v[t->n++] = v[1];
  }
  skipSpace(s);
  if (*s->s || !t->n) return costError(c, s->line, err, errsz, "table '%s': expected pairs 'time value'", t->name);
  return 0;
}

// the index of the gait named name, -1 when none
static int findGait(const mjCost* c, const char* name) {
  for (int g = 0; g < c->ngait; g++)
    if (!strcmp(c->gait[g].name, name)) return g;
  return -1;
}

// the index of the schedule named name, -1 when none
static int findSchedule(const mjCost* c, const char* name) {
  for (int k = 0; k < c->nsched; k++)
    if (!strcmp(c->sched[k].name, name)) return k;
  return -1;
}

// "gait NAME phase a,b,.. duty D cadence C amplitude A"
static int parseGait(mjCost* c, Scan* s, char* err, int errsz) {
  Gait* g = growOne((void**)&c->gait, &c->ngait, sizeof(Gait));
  if (!g) return costError(c, s->line, err, errsz, "out of memory");
  if (!scanIdent(s, g->name)) return costError(c, s->line, err, errsz, "gait: expected a name");
  if (findGait(c, g->name) < c->ngait - 1 || findSchedule(c, g->name) >= 0)
    return costError(c, s->line, err, errsz, "gait '%s': the name is taken by a gait or schedule",
                     g->name);
  char key[NAMELEN];
  int have = 0;
  while (scanIdent(s, key)) {
    if (!strcmp(key, "phase")) {
      if ((g->nfoot = scanList(s, g->phase, MAXFOOT)) < 0)
        return costError(c, s->line, err, errsz, "gait '%s': phase: expected at most %d numbers a,b,...", g->name, MAXFOOT);
      have |= 1;
      continue;
    }
    mjtNum* v = !strcmp(key, "duty") ? &g->duty : !strcmp(key, "cadence") ? &g->cadence :
                !strcmp(key, "amplitude") ? &g->amplitude : NULL;
    if (!v) return costError(c, s->line, err, errsz, "gait '%s': unknown setting '%s'", g->name, key);
    if (!scanNumber(s, v)) return costError(c, s->line, err, errsz, "gait '%s': %s: expected a number", g->name, key);
    have |= v == &g->duty ? 2 : v == &g->cadence ? 4 : 8;
  }
  skipSpace(s);
  if (*s->s) return costError(c, s->line, err, errsz, "gait '%s': unexpected '%s'", g->name, s->s);
  if (have != 15) return costError(c, s->line, err, errsz, "gait '%s': needs phase, duty, cadence and amplitude", g->name);
  return 0;
}

// a number >= 0 after setting `key` of what (for the message) into *v
static int scanSetting(mjCost* c, Scan* s, const char* what, const char* key, mjtNum* v,
                       char* err, int errsz) {
  if (!scanNumber(s, v)) return costError(c, s->line, err, errsz,
      "%s: %s: expected a number >= 0", what, key);
  return 0;
}

// "schedule NAME gait G speed SENSOR filter TAU hold H [duty D] [cadence C] [amplitude A]":
// gait G's feet at first, with G's duty, cadence and amplitude unless given
static int parseSchedule(mjCost* c, Scan* s, char* err, int errsz) {
  Schedule* k = growOne((void**)&c->sched, &c->nsched, sizeof(Schedule));
  if (!k) return costError(c, s->line, err, errsz, "out of memory");
  k->line = s->line;
  if (!scanIdent(s, k->name)) return costError(c, s->line, err, errsz,
      "schedule: expected a name");
  char what[NAMELEN + 16], key[NAMELEN], name[NAMELEN];
  snprintf(what, sizeof(what), "schedule '%s'", k->name);
  if (findGait(c, k->name) >= 0 || findSchedule(c, k->name) < c->nsched - 1)
    return costError(c, s->line, err, errsz, "%s: the name is taken by a gait or schedule", what);
  int have = 0;
  mjtNum given[3] = {0, 0, 0};
  while (scanIdent(s, key)) {
    if (!strcmp(key, "gait") || !strcmp(key, "speed")) {
      if (!scanIdent(s, name)) return costError(c, s->line, err, errsz,
          "%s: %s: expected a name", what, key);
      if (key[0] == 'g' && (k->gait = findGait(c, name)) < 0)
        return costError(c, s->line, err, errsz,
            "%s: gait: no gait named '%s' before it", what, name);
      if (key[0] == 's') memcpy(k->sensor, name, sizeof(name));
      have |= key[0] == 'g' ? 1 : 2;
      continue;
    }
    static const char* keys[] = {"filter", "hold", "duty", "cadence", "amplitude"};
    int i = 0;
    while (i < 5 && strcmp(key, keys[i])) i++;
    if (i == 5) return costError(c, s->line, err, errsz, "%s: unknown setting '%s'", what, key);
    mjtNum v = 0;
    if (scanSetting(c, s, what, key, &v, err, errsz)) return -1;
    if (i == 0 && !(v > 0)) return costError(c, s->line, err, errsz,
        "%s: filter: expected a time > 0", what);
    if (i == 0) k->tau = v;
    else if (i == 1) k->hold = v;
    else given[i - 2] = v;
    have |= 4 << i;
  }
  skipSpace(s);
  if (*s->s) return costError(c, s->line, err, errsz, "%s: unexpected '%s'", what, s->s);
  if ((have & 15) != 15) return costError(c, s->line, err, errsz,
      "%s: needs gait, speed, filter and hold", what);
  const Gait* g = c->gait + k->gait;
  k->duty = have & 16 ? given[0] : g->duty;
  k->cadence = have & 32 ? given[1] : g->cadence;
  k->amplitude = have & 64 ? given[2] : g->amplitude;
  k->omega = 2 * mjPI * k->cadence;   // the phase 2 pi cadence t, a fixed gait's, until a change
  return 0;
}

// "switch NAME gait G above LO [upto HI] [weight TERM W ...]": schedule NAME chooses gait G
// when its filtered speed is in (LO, HI] (HI infinite when absent); the bands of a schedule
// are disjoint; the terms are resolved at the end of the file
static int parseSwitch(mjCost* c, Scan* s, char* err, int errsz) {
  Switch* w = growOne((void**)&c->sw, &c->nsw, sizeof(Switch));
  if (!w) return costError(c, s->line, err, errsz, "out of memory");
  w->line = s->line;
  w->upto = INFINITY;
  char name[NAMELEN], key[NAMELEN], what[NAMELEN + 16];
  if (!scanIdent(s, name)) return costError(c, s->line, err, errsz,
      "switch: expected a schedule's name");
  if ((w->sched = findSchedule(c, name)) < 0)
    return costError(c, s->line, err, errsz, "switch: no schedule named '%s' before it", name);
  snprintf(what, sizeof(what), "switch %s", name);
  int have = 0;
  while (!(have & 8) && scanIdent(s, key)) {
    if (!strcmp(key, "gait")) {
      if (!scanIdent(s, name)) return costError(c, s->line, err, errsz,
          "%s: gait: expected a name", what);
      if ((w->gait = findGait(c, name)) < 0)
        return costError(c, s->line, err, errsz,
            "%s: gait: no gait named '%s' before it", what, name);
      if (c->gait[w->gait].nfoot != c->gait[c->sched[w->sched].gait].nfoot)
        return costError(c, s->line, err, errsz, "%s: gait: '%s' has %d feet, the schedule's %d",
                         what, name, c->gait[w->gait].nfoot,
                         c->gait[c->sched[w->sched].gait].nfoot);
      have |= 1;
    } else if (!strcmp(key, "above") || !strcmp(key, "upto")) {
      mjtNum* v = key[0] == 'a' ? &w->above : &w->upto;
      if (scanSetting(c, s, what, key, v, err, errsz)) return -1;
      have |= key[0] == 'a' ? 2 : 4;
    } else if (!strcmp(key, "weight")) {
      // TERM W pairs to the end of the line
      do {
        if (w->nset == MAXSET) return costError(c, s->line, err, errsz,
            "%s: weight: at most %d terms", what, MAXSET);
        if (!scanIdent(s, w->tname[w->nset]))
          return costError(c, s->line, err, errsz, "%s: weight: expected pairs 'TERM W'", what);
        if (scanSetting(c, s, what, "weight", w->weight + w->nset, err, errsz)) return -1;
        w->nset++;
      } while ((skipSpace(s), *s->s));
      have |= 8;
    } else {
      return costError(c, s->line, err, errsz, "%s: unknown setting '%s'", what, key);
    }
  }
  skipSpace(s);
  if (*s->s) return costError(c, s->line, err, errsz, "%s: unexpected '%s'", what, s->s);
  if ((have & 3) != 3) return costError(c, s->line, err, errsz, "%s: needs gait and above", what);
  if (!(w->upto > w->above)) return costError(c, s->line, err, errsz,
      "%s: upto: expected more than above %g", what, w->above);
  for (const Switch* o = c->sw; o < w; o++)
    if (o->sched == w->sched && o->above < w->upto && w->above < o->upto)
      return costError(c, s->line, err, errsz, "%s: above: the band (%g, %g] overlaps line %d's",
                       what, w->above, w->upto, o->line);
  return 0;
}

// "sensor <element .../>": an MJCF sensor added to the planning model
static int parseSensor(mjCost* c, Scan* s, char* err, int errsz) {
  skipSpace(s);
  size_t n = strlen(s->s), have = c->sensors ? strlen(c->sensors) : 0;
  while (n && isspace((unsigned char)s->s[n - 1])) n--;
  if (n < 3 || s->s[0] != '<' || s->s[n - 1] != '>' || s->s[n - 2] != '/')
    return costError(c, s->line, err, errsz, "sensor: expected one MJCF element <type .../>");
  char* p = realloc(c->sensors, have + n + 2);
  if (!p) return costError(c, s->line, err, errsz, "out of memory");
  memcpy(p + have, s->s, n);
  p[have + n] = '\n';
  p[have + n + 1] = 0;
  c->sensors = p;
  return 0;
}

// release a cost
void mjp_deleteCost(mjCost* c) {
  if (!c) return;
  for (int i = 0; i < c->ntable; i++) free(c->table[i].t), free(c->table[i].v);
  free(c->atom), free(c->row), free(c->term), free(c->table), free(c->gait), free(c->sensors);
  free(c->sched), free(c->sw);
  free(c);
}

// parse the cost file path (man 5 mjcost); NULL and a one-line message on failure
mjCost* mjp_parseCost(const char* path, char* err, int errsz) {
  long len;
  char* text = (char*)mj_readFile(path, "cost file", 1 << 24, &len, err, errsz);
  if (!text) return NULL;
  mjCost* c = calloc(1, sizeof(mjCost));
  if (!c) {
    free(text);
    mj_ioError(err, errsz, "%s: out of memory", path);
    return NULL;
  }
  snprintf(c->file, sizeof(c->file), "%s", path);
  int line = 0, bad = 0;
  for (char* p = text; *p && !bad; line++) {
    char* end = strchr(p, '\n');
    if (end) *end = 0;
    char* hash = strchr(p, '#');
    if (hash && strncmp(p + strspn(p, " \t"), "sensor", 6)) *hash = 0;
    Scan s = {p, line + 1};
    char word[NAMELEN];
    if (scanIdent(&s, word)) {
      if (!strcmp(word, "term")) bad = parseTerm(c, &s, err, errsz);
      else if (!strcmp(word, "r")) bad = parseRow(c, &s, err, errsz);
      else if (!strcmp(word, "table")) bad = parseTable(c, &s, err, errsz);
      else if (!strcmp(word, "gait")) bad = parseGait(c, &s, err, errsz);
      else if (!strcmp(word, "schedule")) bad = parseSchedule(c, &s, err, errsz);
      else if (!strcmp(word, "switch")) bad = parseSwitch(c, &s, err, errsz);
      else if (!strcmp(word, "sensor")) bad = parseSensor(c, &s, err, errsz);
      else if (!strcmp(word, "risk")) {
        int neg = scanChar(&s, '-');
        skipSpace(&s);
        if (!scanNumber(&s, &c->risk) || (skipSpace(&s), *s.s))
          bad = costError(c, s.line, err, errsz, "risk: expected a number");
        if (neg) c->risk = -c->risk;
        c->risk_given = 1;
      } else bad = costError(c, s.line, err, errsz, "unknown directive '%s'", word);
    } else {
      skipSpace(&s);
      if (*s.s && *s.s != '\r') bad = costError(c, s.line, err, errsz, "expected a directive at '%s'", s.s);
    }
    p = end ? end + 1 : p + strlen(p);
  }
  free(text);
  if (!bad && !c->nterm) bad = costError(c, 0, err, errsz, "no term");
  for (int i = 0; i < c->nterm && !bad; i++)
    if (!c->term[i].nrow) bad = costError(c, c->term[i].line, err, errsz, "term '%s' has no row", c->term[i].name);
  // the switches' terms
  for (int i = 0; i < c->nsw && !bad; i++) {
    Switch* w = c->sw + i;
    for (int k = 0; k < w->nset && !bad; k++) {
      w->term[k] = 0;
      while (w->term[k] < c->nterm && strcmp(c->term[w->term[k]].name, w->tname[k])) w->term[k]++;
      if (w->term[k] == c->nterm)
        bad = costError(c, w->line, err, errsz, "switch %s: weight: no term named '%s'",
                        c->sched[w->sched].name, w->tname[k]);
    }
  }
  if (bad) {
    mjp_deleteCost(c);
    return NULL;
  }
  return c;
}

// the MJCF sensor elements the cost adds to the planning model (its own and one actuatorfrc
// per actuator whose force it reads, named mjplan_force_<actuator>), one a line, in a
// malloc'd string; NULL and a message when an actuator is not found or has no name
char* mjp_costSensors(const mjCost* c, const mjModel* m, char* err, int errsz) {
  size_t cap = (c->sensors ? strlen(c->sensors) : 0) + 1;
  for (int i = 0; i < c->natom; i++) cap += c->atom[i].kind == Q_FORCE ? 2 * NAMELEN + 64 : 0;
  char* xml = malloc(cap);
  if (!xml) {
    mj_ioError(err, errsz, "out of memory");
    return NULL;
  }
  snprintf(xml, cap, "%s", c->sensors ? c->sensors : "");
  for (int i = 0; i < c->natom; i++) {
    const Atom* a = c->atom + i;
    if (a->kind != Q_FORCE) continue;
    const char* name = a->iname[0] ? a->iname : a->index < m->nu ? mj_id2name(m, mjOBJ_ACTUATOR, a->index) : NULL;
    if (!name || mj_name2id(m, mjOBJ_ACTUATOR, name) < 0) {
      free(xml);
      if (a->iname[0]) costError(c, 0, err, errsz, "force[%s]: no such actuator", a->iname);
      else costError(c, 0, err, errsz, "force[%d]: no such actuator, or it has no name", a->index);
      return NULL;
    }
    char el[2 * NAMELEN + 64];
    snprintf(el, sizeof(el), "<actuatorfrc name=\"mjplan_force_%s\" actuator=\"%s\"/>\n", name, name);
    if (!strstr(xml, el)) strcat(xml, el);
  }
  return xml;
}

// ---- binding -------------------------------------------------------------------------------------

// a joint or actuator index from [k] or [NAME]; -1 when out of range or unknown
static int indexOf(const mjModel* m, const Atom* a, int type, int n) {
  if (a->iname[0]) return mj_name2id(m, type, a->iname);
  return a->index < n ? a->index : -1;
}

// resolve the atom's names against m: its id (and aux); 0 or -1 with a message
static int bindAtom(mjCost* c, const mjModel* m, Atom* a, int line, char* err, int errsz) {
  char what[2 * NAMELEN + 8];
  snprintf(what, sizeof(what), "%s%s%s", a->name, a->iname[0] ? "[" : "", a->iname[0] ? a->iname : "");
  int j;
  switch (a->kind) {
    case Q_SENSOR: {
      int s = mj_name2id(m, mjOBJ_SENSOR, a->name);
      if (s < 0) return costError(c, line, err, errsz, "no sensor named '%s'", a->name);
      int k = a->index < 0 ? 0 : a->index;
      if (a->index < 0 && m->sensor_dim[s] > 1)
        return costError(c, line, err, errsz, "sensor '%s' has %d components: say which, %s[k]", a->name, m->sensor_dim[s], a->name);
      if (k >= m->sensor_dim[s])
        return costError(c, line, err, errsz, "sensor '%s' has %d components, not %d", a->name, m->sensor_dim[s], k + 1);
      if (m->sensor_type[s] == mjSENS_USER)
        return costError(c, line, err, errsz, "sensor '%s' is a user sensor (the residual itself)", a->name);
      a->id = m->sensor_adr[s] + k;
      return 0;
    }
    case Q_QPOS: case Q_QVEL:
      if (a->iname[0]) {
        if ((j = mj_name2id(m, mjOBJ_JOINT, a->iname)) < 0)
          return costError(c, line, err, errsz, "no joint named '%s'", a->iname);
        a->id = a->kind == Q_QPOS ? m->jnt_qposadr[j] : m->jnt_dofadr[j];
      } else {
        a->id = a->index;
        if (a->id >= (a->kind == Q_QPOS ? m->nq : m->nv))
          return costError(c, line, err, errsz, "%s[%d]: out of range (%d)", a->kind == Q_QPOS ? "qpos" : "qvel",
                           a->index, a->kind == Q_QPOS ? m->nq : m->nv);
      }
      if (a->kind == Q_QPOS) {  // the joint holding the coordinate
        for (j = 0; j < m->njnt; j++)
          if (m->jnt_qposadr[j] <= a->id && (j + 1 == m->njnt || m->jnt_qposadr[j + 1] > a->id)) break;
        a->aux = j;
      }
      return 0;
    case Q_ACT:
      if ((a->id = a->index) >= m->na) return costError(c, line, err, errsz, "act[%d]: out of range (%d)", a->index, m->na);
      return 0;
    case Q_CTRL: case Q_FORCE: {
      if ((j = indexOf(m, a, mjOBJ_ACTUATOR, m->nu)) < 0)
        return costError(c, line, err, errsz, "%s[%s]: no such actuator", a->kind == Q_CTRL ? "ctrl" : "force",
                         a->iname[0] ? a->iname : (snprintf(what, sizeof(what), "%d", a->index), what));
      a->id = j;
      if (a->kind == Q_FORCE) {
        char name[2 * NAMELEN];
        snprintf(name, sizeof(name), "mjplan_force_%s", mj_id2name(m, mjOBJ_ACTUATOR, j));
        int s = mj_name2id(m, mjOBJ_SENSOR, name);
        if (s < 0) return costError(c, line, err, errsz, "force: the model lacks sensor %s (mjp_costSensors)", name);
        a->id = m->sensor_adr[s];
      }
      return 0;
    }
    case T_KEY: {
      int k = mj_name2id(m, mjOBJ_KEY, a->name);
      if (k < 0) return costError(c, line, err, errsz, "no keyframe named '%s'", a->name);
      if (a->iname[0]) {
        if ((j = mj_name2id(m, mjOBJ_JOINT, a->iname)) < 0)
          return costError(c, line, err, errsz, "no joint named '%s'", a->iname);
        j = m->jnt_qposadr[j];
      } else if ((j = a->index) >= m->nq) {
        return costError(c, line, err, errsz, "key(%s).qpos[%d]: out of range (%d)", a->name, a->index, m->nq);
      }
      a->id = k * m->nq + j;
      return 0;
    }
    case T_MOCAP: {
      int b = mj_name2id(m, mjOBJ_BODY, a->name);
      if (b < 0 || m->body_mocapid[b] < 0)
        return costError(c, line, err, errsz, "no mocap body named '%s'", a->name);
      if (a->index > 2) return costError(c, line, err, errsz, "mocap(%s)[%d]: a position has 3 components", a->name, a->index);
      a->id = 3 * m->body_mocapid[b] + a->index;
      return 0;
    }
    case T_TABLE:
      for (a->id = 0; a->id < c->ntable; a->id++)
        if (!strcmp(c->table[a->id].name, a->name)) return 0;
      return costError(c, line, err, errsz, "no table named '%s'", a->name);
    case T_GAIT: case T_SCHED:
      // a gait, or a schedule (the feet of its gaits)
      a->kind = T_GAIT;
      if ((a->aux = findGait(c, a->name)) < 0) {
        if ((a->aux = findSchedule(c, a->name)) < 0)
          return costError(c, line, err, errsz, "no gait or schedule named '%s'", a->name);
        a->kind = T_SCHED;
      }
      j = c->gait[a->kind == T_GAIT ? a->aux : c->sched[a->aux].gait].nfoot;
      if ((a->id = a->index) >= j)
        return costError(c, line, err, errsz,
            "gait(%s)[%d]: it has %d feet", a->name, a->index, j);
      return 0;
    default: return 0;
  }
}

// bind the cost to model m (the planning model: the added sensors compiled in): names to
// addresses; the task's user sensors give the terms' norms, weights and parameters (a term's
// own settings override them), and each must have its term; 0 or -1 with a message
int mjp_bindCost(mjCost* c, const mjModel* m, char* err, int errsz) {
  for (int i = 0; i < c->nrow; i++) {
    const Row* r = c->row + i;
    for (int k = 0; k < r->natom; k++)
      if (bindAtom(c, m, c->atom + r->atom0 + k, r->line, err, errsz)) return -1;
    if (r->mask >= 0 && bindAtom(c, m, c->atom + r->mask, r->line, err, errsz)) return -1;
  }

  // the schedules' speed sensors: components 0 and 1
  for (int k = 0; k < c->nsched; k++) {
    Schedule* sc = c->sched + k;
    int s = mj_name2id(m, mjOBJ_SENSOR, sc->sensor);
    if (s < 0) return costError(c, sc->line, err, errsz,
        "schedule '%s': speed: no sensor named '%s'", sc->name, sc->sensor);
    if (m->sensor_dim[s] < 2)
      return costError(c, sc->line, err, errsz,
                       "schedule '%s': speed: sensor '%s' has %d component, not 2 or more",
                       sc->name, sc->sensor, m->sensor_dim[s]);
    sc->adr = m->sensor_adr[s];
  }

  // the task's terms: its leading user sensors
  int nuser = 0;
  while (nuser < m->nsensor && m->sensor_type[nuser] == mjSENS_USER) nuser++;
  for (int s = 0; s < nuser; s++) {
    const char* name = mj_id2name(m, mjOBJ_SENSOR, s);
    int t = 0;
    while (t < c->nterm && (!name || strcmp(c->term[t].name, name))) t++;
    if (t == c->nterm)
      return costError(c, 0, err, errsz, "the task's term '%s' (user sensor %d) has no rows here", name ? name : "", s);
    Term* tm = c->term + t;
    if (tm->nrow != m->sensor_dim[s])
      return costError(c, tm->line, err, errsz, "term '%s': %d rows, the task's user sensor has dim %d", tm->name, tm->nrow, m->sensor_dim[s]);
    const mjtNum* u = m->sensor_user + s * m->nuser_sensor;
    int nu = m->nuser_sensor;
    if (!(tm->given & 1)) {
      tm->norm = nu > 0 ? (int)u[0] : 0;
      if (mjp_normParams(tm->norm) < 0)
        return costError(c, tm->line, err, errsz, "term '%s': the task's norm %g is unknown", tm->name, nu > 0 ? u[0] : 0);
    }
    if (!(tm->given & 2)) tm->weight = nu > 1 ? u[1] : 0;
    if (!(tm->given & 4)) {
      int np = mjp_normParams(tm->norm);
      for (int k = 0; k < np; k++) {
        tm->param[k] = 4 + k < nu ? u[4 + k] : 0;
        if (!(tm->param[k] > 0))
          return costError(c, tm->line, err, errsz, "term '%s': the task's user sensor lacks norm parameter %d", tm->name, k + 1);
      }
    }
    tm->given |= 8;
  }
  for (int t = 0; t < c->nterm; t++) {
    Term* tm = c->term + t;
    if (!(tm->given & 8) && (tm->given & 3) != 3)
      return costError(c, tm->line, err, errsz, "term '%s': not a term of the task: give its norm and weight", tm->name);
    int np = mjp_normParams(tm->norm);
    if (np < 0) return costError(c, tm->line, err, errsz, "term '%s': unknown norm", tm->name);
    for (int k = 0; k < np; k++)
      if (!(tm->param[k] > 0)) return costError(c, tm->line, err, errsz, "term '%s': norm %s needs %d positive parameters", tm->name, mjp_normName(tm->norm), np);
    if (tm->norm == mjNORM_NULL && tm->nrow != 1)
      return costError(c, tm->line, err, errsz, "term '%s': the null norm takes one row", tm->name);
    if (tm->nrow > c->maxdim) c->maxdim = tm->nrow;
  }

  // risk: the cost file's, else the task's task_risk
  if (!c->risk_given) {
    c->risk = 0;
    int id = mj_name2id(m, mjOBJ_NUMERIC, "task_risk");
    if (id >= 0 && m->numeric_size[id] > 0) c->risk = m->numeric_data[m->numeric_adr[id]];
  }
  c->nx = 2 * m->nv + m->na, c->nu = m->nu, c->nq = m->nq;
  return 0;
}

// ---- evaluation ----------------------------------------------------------------------------------

int mjp_costResiduals(const mjCost* c) { return c->nrow; }
int mjp_costTerms(const mjCost* c) { return c->nterm; }
const char* mjp_costTermName(const mjCost* c, int t) { return c->term[t].name; }

// the residual rows of term t: their count, the first in *row0
int mjp_costTermRows(const mjCost* c, int t, int* row0) {
  *row0 = c->term[t].row0;
  return c->term[t].nrow;
}
mjtNum mjp_costRisk(const mjCost* c) { return c->risk; }

// the step height of a foot of offset off (a fraction of a cycle) at phase phi (MuJoCo MPC's
// schedule): a = fmod(phi + pi - 2 pi off, 2 pi) - pi, stretched by 0.5/(1 - duty) and clipped
// to [-pi/2, pi/2]: amplitude cos(a); zero when duty >= 1 or |cos| < 1e-6
static mjtNum stepHeight(mjtNum phi, mjtNum off, mjtNum duty, mjtNum amplitude) {
  if (duty >= 1) return 0;
  mjtNum a = fmod(phi + mjPI - 2 * mjPI * off, 2 * mjPI) - mjPI;
  a *= 0.5 / (1 - duty);
  a = a < -mjPI / 2 ? -mjPI / 2 : a > mjPI / 2 ? mjPI / 2 : a;
  mjtNum h = cos(a);
  return fabs(h) < 1e-6 ? 0 : amplitude * h;
}

// a schedule's phase at time t: phase0 + omega (t - time0)
static mjtNum schedulePhase(const Schedule* k, mjtNum t) {
  return k->phase0 + k->omega * (t - k->time0);
}

// one physics step's transition of the schedules at the point (its time, and the sensors of
// its forward pass), MuJoCo MPC's Transition in its order: the phase rebased when the cadence
// differs from its rate (continuous); the velocity filtered, v = beta v + (1 - beta) s with
// beta = exp(-(t - t_last)/tau); when more than `hold` has passed since the last choice (the
// first transition counts as one), the band holding |v| > 0 chooses its gait (the choice's
// time kept even when the gait is the same), and a new gait sets its feet, duty, cadence,
// amplitude and its switch's weights.  The number of gait changes
int mjp_costTransition(mjCost* c, const mjpPoint* pt) {
  int changes = 0;
  mjtNum t = pt->time;
  for (int i = 0; i < c->nsched; i++) {
    Schedule* k = c->sched + i;
    if (!k->started) k->started = 1, k->last = k->chosen = t;
    if (2 * mjPI * k->cadence != k->omega) {
      k->phase0 = schedulePhase(k, t);
      k->time0 = t;
      k->omega = 2 * mjPI * k->cadence;
    }
    mjtNum beta = exp(-(t - k->last) / k->tau);
    for (int j = 0; j < 2; j++)
      k->vel[j] = beta * k->vel[j] + (1 - beta) * pt->sensordata[k->adr + j];
    k->last = t;
    if (!(fabs(t - k->chosen) > k->hold)) continue;
    mjtNum v = sqrt(k->vel[0] * k->vel[0] + k->vel[1] * k->vel[1]);
    const Switch* w = c->sw;
    while (w < c->sw + c->nsw && !(w->sched == i && v > w->above && v <= w->upto)) w++;
    if (w == c->sw + c->nsw) continue;
    k->chosen = t;
    if (w->gait == k->gait) continue;
    const Gait* g = c->gait + w->gait;
    k->gait = w->gait;
    k->duty = g->duty, k->cadence = g->cadence, k->amplitude = g->amplitude;
    for (int j = 0; j < w->nset; j++) c->term[w->term[j]].weight = w->weight[j];
    changes++;
  }
  return changes;
}

// schedule s's name, its gait's, its phase at time t and its filtered speed (either may be
// NULL); NULL when there is no schedule s
const char* mjp_costSchedule(const mjCost* c, int s, mjtNum t, const char** gait, mjtNum* phase,
                             mjtNum* speed) {
  if (s < 0 || s >= c->nsched) return NULL;
  const Schedule* k = c->sched + s;
  if (gait) *gait = c->gait[k->gait].name;
  if (phase) *phase = schedulePhase(k, t);
  if (speed) *speed = sqrt(k->vel[0] * k->vel[0] + k->vel[1] * k->vel[1]);
  return k->name;
}

// the value of a table at time t: linear between its points, constant beyond them
static mjtNum tableValue(const Table* tb, mjtNum t) {
  if (t <= tb->t[0]) return tb->v[0];
  for (int i = 1; i < tb->n; i++)
    if (t < tb->t[i]) return tb->v[i - 1] + (tb->v[i] - tb->v[i - 1]) * (t - tb->t[i - 1]) / (tb->t[i] - tb->t[i - 1]);
  return tb->v[tb->n - 1];
}

// the point of d: its time, state, controls, sensors and mocap positions
void mjp_pointData(mjpPoint* pt, const mjData* d) {
  pt->time = d->time;
  pt->qpos = d->qpos, pt->qvel = d->qvel, pt->act = d->act, pt->ctrl = d->ctrl;
  pt->sensordata = d->sensordata, pt->mocap_pos = d->mocap_pos;
}

// the atom's value (without its factor) at the point
static mjtNum atomValue(const mjCost* c, const mjModel* m, const mjpPoint* pt, const Atom* a) {
  switch (a->kind) {
    case Q_SENSOR: case Q_FORCE: return pt->sensordata[a->id];
    case Q_QPOS: return pt->qpos[a->id];
    case Q_QVEL: return pt->qvel[a->id];
    case Q_ACT: return pt->act[a->id];
    case Q_CTRL: return pt->ctrl[a->id];
    case T_CONST: return 1;
    case T_KEY: return m->key_qpos[a->id];
    case T_MOCAP: return pt->mocap_pos[a->id];
    case T_TABLE: return tableValue(c->table + a->id, pt->time);
    case T_GAIT: {
      const Gait* g = c->gait + a->aux;
      return stepHeight(2 * mjPI * g->cadence * pt->time, g->phase[a->id], g->duty, g->amplitude);
    }
    case T_SCHED: {
      const Schedule* k = c->sched + a->aux;
      return stepHeight(schedulePhase(k, pt->time), c->gait[k->gait].phase[a->id], k->duty,
                        k->amplitude);
    }
    case T_TIME: return pt->time;
    default: return 0;
  }
}

// the residual r (mjp_costResiduals) at the point
void mjp_residual(const mjCost* c, const mjModel* m, const mjpPoint* pt, mjtNum* r) {
  for (int i = 0; i < c->nrow; i++) {
    const Row* w = c->row + i;
    mjtNum v = 0;
    if (w->mask < 0 || atomValue(c, m, pt, c->atom + w->mask) != 0)
      for (int k = 0; k < w->natom; k++) {
        const Atom* a = c->atom + w->atom0 + k;
        v += a->coef * atomValue(c, m, pt, a);
      }
    r[i] = v;
  }
}

// the residual's Jacobians Rx = dr/dx (nr x nx) and Ru = dr/du (nr x nu) from the sensors'
// C (nsensordata x nx) and D (nsensordata x nu) at the point (qpos for the quaternions: a
// coordinate of a unit quaternion q turned by the local rotation e: dq = 0.5 q (0, e))
void mjp_residualJacobian(const mjCost* c, const mjModel* m, const mjpPoint* pt, const mjtNum* C,
                          const mjtNum* D, mjtNum* Rx, mjtNum* Ru) {
  int nx = c->nx, nu = c->nu;
  mju_zero(Rx, c->nrow * nx);
  mju_zero(Ru, c->nrow * nu);
  for (int i = 0; i < c->nrow; i++) {
    const Row* w = c->row + i;
    if (w->mask >= 0 && atomValue(c, m, pt, c->atom + w->mask) == 0) continue;
    mjtNum* rx = Rx + i * nx, *ru = Ru + i * nu;
    for (int k = 0; k < w->natom; k++) {
      const Atom* a = c->atom + w->atom0 + k;
      switch (a->kind) {
        case Q_SENSOR: case Q_FORCE:
          mju_addToScl(rx, C + a->id * nx, a->coef, nx);
          mju_addToScl(ru, D + a->id * nu, a->coef, nu);
          break;
        case Q_QVEL: rx[m->nv + a->id] += a->coef; break;
        case Q_ACT: rx[2 * m->nv + a->id] += a->coef; break;
        case Q_CTRL: ru[a->id] += a->coef; break;
        case Q_QPOS: {
          int j = a->aux, type = m->jnt_type[j], off = a->id - m->jnt_qposadr[j], dof = m->jnt_dofadr[j];
          if (type == mjJNT_FREE && off < 3) {
            rx[dof + off] += a->coef;
          } else if (type == mjJNT_FREE || type == mjJNT_BALL) {
            // quaternion coordinate off (0..3) of q = qpos[adr..]: dq/de_k = 0.5 q (0, e_k)
            int q0 = m->jnt_qposadr[j] + (type == mjJNT_FREE ? 3 : 0), rot = dof + (type == mjJNT_FREE ? 3 : 0);
            int c4 = a->id - q0;
            for (int e = 0; e < 3; e++) {
              mjtNum v[4] = {0, 0, 0, 0}, dq[4];
              v[e + 1] = 0.5;
              mju_mulQuat(dq, pt->qpos + q0, v);
              rx[rot + e] += a->coef * dq[c4];
            }
          } else {
            rx[dof] += a->coef;
          }
          break;
        }
        default: break;
      }
    }
  }
}

// the stage cost of residual r: c = sum_k w_k norm_k(r_k), risk-transformed when |risk| >=
// 1e-6: (exp(risk c) - 1)/risk
mjtNum mjp_costValue(const mjCost* c, const mjtNum* r) {
  mjtNum v = 0;
  for (int t = 0; t < c->nterm; t++) {
    const Term* tm = c->term + t;
    v += tm->weight * mjp_norm(tm->norm, r + tm->row0, tm->nrow, tm->param, NULL, NULL);
  }
  return fabs(c->risk) < 1e-6 ? v : (exp(c->risk * v) - 1) / c->risk;
}

// the terms' values w_k norm_k(r_k) (nterm), before the risk transform
void mjp_costTermValues(const mjCost* c, const mjtNum* r, mjtNum* values) {
  for (int t = 0; t < c->nterm; t++) {
    const Term* tm = c->term + t;
    values[t] = tm->weight * mjp_norm(tm->norm, r + tm->row0, tm->nrow, tm->param, NULL, NULL);
  }
}

// doubles of scratch mjp_costDerivatives needs
int mjp_costScratch(const mjCost* c) {
  int n = c->maxdim, w = c->nx + c->nu;
  return n + n * n + n * w;
}

// Gauss-Newton derivatives of scale * (stage cost) at r with the residual's Jacobians Rx, Ru:
// per term k, J = its rows of [Rx Ru], g and H its norm's gradient and Hessian:
// [cx cu] += scale w_k J'g, [cxx cxu; . cuu] += scale w_k J'HJ.  With risk rho, MuJoCo MPC's
// form: s = exp(rho cbar), cbar = scale sum_k w_k norm_k; the gradients scaled by s, the
// Hessians s H + rho s g g' with the scaled gradients.  cxx (nx x nx), cxu (nx x nu),
// cuu (nu x nu) row-major; all overwritten
void mjp_costDerivatives(const mjCost* c, const mjtNum* r, const mjtNum* Rx, const mjtNum* Ru,
                         mjtNum scale, mjtNum* cx, mjtNum* cu, mjtNum* cxx, mjtNum* cxu,
                         mjtNum* cuu, mjtNum* scratch) {
  int nx = c->nx, nu = c->nu, w = nx + nu;
  mju_zero(cx, nx), mju_zero(cu, nu);
  mju_zero(cxx, nx * nx), mju_zero(cxu, nx * nu), mju_zero(cuu, nu * nu);
  mjtNum cbar = 0;
  for (int t = 0; t < c->nterm; t++) {
    const Term* tm = c->term + t;
    int n = tm->nrow;
    mjtNum* g = scratch, *H = g + n, *HJ = H + n * n;
    mjtNum wk = scale * tm->weight;
    if (wk == 0) continue;
    cbar += wk * mjp_norm(tm->norm, r + tm->row0, n, tm->param, g, H);

    // the term's Jacobian rows J_i = [Rx_i Ru_i]; HJ = H J (n x w)
    for (int i = 0; i < n; i++) {
      const mjtNum* jx = Rx + (tm->row0 + i) * nx, *ju = Ru + (tm->row0 + i) * nu;
      mju_addToScl(cx, jx, wk * g[i], nx);
      mju_addToScl(cu, ju, wk * g[i], nu);
    }
    mju_zero(HJ, n * w);
    for (int i = 0; i < n; i++)
      for (int k = 0; k < n; k++) {
        mjtNum h = H[i * n + k];
        if (h == 0) continue;
        mju_addToScl(HJ + i * w, Rx + (tm->row0 + k) * nx, h, nx);
        mju_addToScl(HJ + i * w + nx, Ru + (tm->row0 + k) * nu, h, nu);
      }
    // J'HJ: rows of J weighted by HJ's rows
    for (int i = 0; i < n; i++) {
      const mjtNum* jx = Rx + (tm->row0 + i) * nx, *ju = Ru + (tm->row0 + i) * nu;
      const mjtNum* hx = HJ + i * w, *hu = hx + nx;
      for (int a = 0; a < nx; a++) {
        if (jx[a] == 0) continue;
        mju_addToScl(cxx + a * nx, hx, wk * jx[a], nx);
        mju_addToScl(cxu + a * nu, hu, wk * jx[a], nu);
      }
      for (int a = 0; a < nu; a++)
        if (ju[a] != 0) mju_addToScl(cuu + a * nu, hu, wk * ju[a], nu);
    }
  }
  if (fabs(c->risk) < 1e-6) return;

  // risk: s = exp(rho cbar); gradients scaled, then Hessians s H + rho s g g'
  mjtNum rho = c->risk, s = exp(rho * cbar);
  mju_scl(cx, cx, s, nx), mju_scl(cu, cu, s, nu);
  for (int a = 0; a < nx; a++) {
    for (int b = 0; b < nx; b++) cxx[a * nx + b] = s * cxx[a * nx + b] + rho * s * cx[a] * cx[b];
    for (int b = 0; b < nu; b++) cxu[a * nu + b] = s * cxu[a * nu + b] + rho * s * cx[a] * cu[b];
  }
  for (int a = 0; a < nu; a++)
    for (int b = 0; b < nu; b++) cuu[a * nu + b] = s * cuu[a * nu + b] + rho * s * cu[a] * cu[b];
}
