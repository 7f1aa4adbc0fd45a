// mjcf_attr.c: the MJCF compiler's plumbing: the arena that holds every record, the one-line
// errors that unwind compilation, name tables, and the readers of attributes (numbers,
// integers, keywords, booleans, strings, orientations) that mark each attribute as used.
#include "compiler/mjcf.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

// object kind: the element word for messages
const char* const mjcf_kindWord[NKIND] = {
  "body", "joint", "geom", "site", "camera", "light", "mesh", "skin", "hfield", "texture",
  "material", "pair", "exclude", "equality", "tendon", "actuator", "sensor", "numeric", "text",
  "tuple", "key", "wrap"};

// a new zeroed block of n bytes from the arena
void* mjcf_alloc(Ctx* c, size_t n) {
  n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
  Block* b = c->arena;
  if (!b || b->used + n > b->cap) {
    size_t cap = n > 65536 ? n : 65536;
    b = malloc(sizeof(Block) + cap);
    if (!b) {
      snprintf(c->err, c->errsz, "out of memory");
      longjmp(c->jmp, 1);
    }
    b->next = c->arena;
    b->used = 0;
    b->cap = cap;
    c->arena = b;
  }
  void* p = (char*)b->data + b->used;
  b->used += n;
  memset(p, 0, n);
  return p;
}

// free every block of the arena
void mjcf_freeArena(Ctx* c) {
  while (c->arena) {
    Block* b = c->arena;
    c->arena = b->next;
    free(b);
  }
}

// append p to v, doubling its capacity when full
void mjcf_push(Ctx* c, Vec* v, void* p) {
  if (v->n == v->cap) {
    int cap = v->cap ? 2 * v->cap : 16;
    void** q = mjcf_alloc(c, sizeof(void*) * cap);
    if (v->n) memcpy(q, v->p, sizeof(void*) * v->n);
    v->p = q;
    v->cap = cap;
  }
  v->p[v->n++] = p;
}

// "file:line: element 'name': message" into err, then unwind
void mjcf_fail(Ctx* c, const mjXNode* e, const char* fmt, ...) {
  int n = 0;
  if (e) {
    const char* name = mjx_attr(e, "name");
    n = name ? snprintf(c->err, c->errsz, "%s:%d: %s '%s': ", e->file, e->line, e->name, name)
             : snprintf(c->err, c->errsz, "%s:%d: %s: ", e->file, e->line, e->name);
  }
  if (n >= 0 && n < c->errsz) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err + n, c->errsz - n, fmt, ap);
    va_end(ap);
  }
  longjmp(c->jmp, 1);
}

// ---- name tables -------------------------------------------------------------------------------

// FNV-1a hash of a string
static unsigned hashString(const char* s) {
  unsigned h = 2166136261u;
  while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
  return h;
}

// a table with room for n names
static void mapInit(Ctx* c, NameMap* m, int n) {
  m->cap = 16;
  while (m->cap < 2 * n) m->cap *= 2;
  m->key = mjcf_alloc(c, sizeof(char*) * m->cap);
  m->val = mjcf_alloc(c, sizeof(int) * m->cap);
}

// the slot holding `name`, or the empty slot where it would go
static int mapSlot(const NameMap* m, const char* name) {
  unsigned i = hashString(name) & (m->cap - 1);
  while (m->key[i] && strcmp(m->key[i], name)) i = (i + 1) & (m->cap - 1);
  return (int)i;
}

// id of `name`, or -1
int mjcf_mapFind(const NameMap* m, const char* name) {
  if (!m->cap || !name) return -1;
  int i = mapSlot(m, name);
  return m->key[i] ? m->val[i] : -1;
}

// build the name table of kind k from its objects' names; duplicates are errors
void mjcf_buildNames(Ctx* c, int k) {
  Vec* v = &c->obj[k];
  mapInit(c, &c->names[k], v->n);
  for (int i = 0; i < v->n; i++) {
    const Head* h = v->p[i];
    if (!h->name || !h->name[0]) continue;
    int s = mapSlot(&c->names[k], h->name);
    if (c->names[k].key[s]) mjcf_fail(c, h->e, "repeated %s name '%s'", mjcf_kindWord[k], h->name);
    c->names[k].key[s] = h->name;
    c->names[k].val[s] = i;
  }
}

// id of the object of kind k named `name`, referenced by attribute `attr` of e; error if absent
int mjcf_findId(Ctx* c, const mjXNode* e, int k, const char* name, const char* attr) {
  int id = mjcf_mapFind(&c->names[k], name);
  if (id < 0) mjcf_fail(c, e, "%s '%s' in attribute '%s' not found", mjcf_kindWord[k], name, attr);
  return id;
}

// ---- attributes ------------------------------------------------------------------------------

// value of attribute `name` of e, marked used; NULL when absent
const char* mjcf_getAttr(const mjXNode* e, const char* name) {
  for (int i = 0; i < e->nattr; i++) {
    if (!strcmp(e->attr[2 * i], name)) {
      ((mjXNode*)e)->used |= (uint64_t)1 << i;
      return e->attr[2 * i + 1];
    }
  }
  return NULL;
}

// mark attributes as accepted without effect (space-separated list)
void mjcf_ignoreAttrs(const mjXNode* e, const char* list) {
  char word[64];
  while (*list) {
    int n = 0;
    while (*list && *list != ' ' && n < 63) word[n++] = *list++;
    word[n] = 0;
    while (*list == ' ') list++;
    mjcf_getAttr(e, word);
  }
}

// an error for the first attribute of e that no reader consumed
void mjcf_checkAttrs(Ctx* c, const mjXNode* e) {
  for (int i = 0; i < e->nattr; i++)
    if (!(e->used >> i & 1)) mjcf_fail(c, e, "unknown attribute '%s'", e->attr[2 * i]);
}

// read between nmin and nmax numbers of attribute `name` into v, finite ones unless `any`;
// returns the count, 0 if absent or empty (MuJoCo takes an attribute without numbers, rgba="",
// as absent)
static int readNumbers(Ctx* c, const mjXNode* e, const char* name, double* v, int nmin,
                       int nmax, int any) {
  const char* s = mjcf_getAttr(e, name);
  if (!s) return 0;
  int n = 0;
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == ',') s++;
    if (!*s) break;
    char* end;
    double x = strtod(s, &end);
    if (end == s || (!any && !isfinite(x)))
      mjcf_fail(c, e, "attribute '%s': malformed number", name);
    if (n >= nmax) mjcf_fail(c, e, "attribute '%s': more than %d numbers", name, nmax);
    v[n++] = x;
    s = end;
  }
  if (n && n < nmin) {
    if (nmin == nmax) mjcf_fail(c, e, "attribute '%s': expected %d numbers, got %d", name, nmin, n);
    mjcf_fail(c, e, "attribute '%s': expected at least %d numbers, got %d", name, nmin, n);
  }
  return n;
}

int mjcf_readNums(Ctx* c, const mjXNode* e, const char* name, double* v, int nmin, int nmax) {
  return readNumbers(c, e, name, v, nmin, nmax, 0);
}

// a list of any length of attribute `name` (non-finite numbers too with any) in a new arena
// array *v; returns the count
static int readAnyList(Ctx* c, const mjXNode* e, const char* name, double** v, int any) {
  const char* s = mjx_attr(e, name);
  if (!s) return 0;
  // numbers are at most one more than the separators
  int n = 1;
  for (; *s; s++) n += *s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == ',';
  *v = mjcf_alloc(c, sizeof(double) * n);
  return readNumbers(c, e, name, *v, 0, n, any);
}

int mjcf_readList(Ctx* c, const mjXNode* e, const char* name, double** v) {
  return readAnyList(c, e, name, v, 0);
}

int mjcf_readData(Ctx* c, const mjXNode* e, const char* name, double** v) {
  return readAnyList(c, e, name, v, 1);
}

// read exactly n numbers
int mjcf_readVec(Ctx* c, const mjXNode* e, const char* name, double* v, int n) {
  return mjcf_readNums(c, e, name, v, n, n);
}

// read exactly n numbers into floats
int mjcf_readFloats(Ctx* c, const mjXNode* e, const char* name, float* v, int n) {
  double tmp[16];
  int got = mjcf_readNums(c, e, name, tmp, n, n);
  for (int i = 0; i < got; i++) v[i] = (float)tmp[i];
  return got;
}

// read one integer
int mjcf_readInt(Ctx* c, const mjXNode* e, const char* name, int* v) {
  double x;
  if (!mjcf_readVec(c, e, name, &x, 1)) return 0;
  if (x != floor(x) || fabs(x) > 2e9) mjcf_fail(c, e, "attribute '%s': expected an integer", name);
  *v = (int)x;
  return 1;
}

// read a keyword from the NULL-terminated list `words`; *v is its index
int mjcf_readKey(Ctx* c, const mjXNode* e, const char* name, const char* const* words,
                 int* v) {
  const char* s = mjcf_getAttr(e, name);
  if (!s) return 0;
  for (int i = 0; words[i]; i++) {
    if (!strcmp(s, words[i])) {
      *v = i;
      return 1;
    }
  }
  mjcf_fail(c, e, "attribute '%s': invalid keyword '%s'", name, s);
}

static const char* const boolWords[] = {"false", "true", NULL};
const char* const mjcf_limitWords[] = {"false", "true", "auto", NULL};  // auto = 2

// read true/false
int mjcf_readBool(Ctx* c, const mjXNode* e, const char* name, int* v) {
  return mjcf_readKey(c, e, name, boolWords, v);
}

// read a string attribute (pointing into the tree, which outlives compilation)
int mjcf_readStr(const mjXNode* e, const char* name, const char** v) {
  const char* s = mjcf_getAttr(e, name);
  if (s) *v = s;
  return s != NULL;
}

// ---- orientation -------------------------------------------------------------------------------

// read whichever orientation attribute e has (at most one) into o
void mjcf_readOrient(Ctx* c, const mjXNode* e, Orient* o) {
  static const char* const names[] = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};
  static const int count[] = {4, 4, 3, 6, 3};
  int found = 0;
  for (int i = 0; i < 5; i++) {
    double v[6];
    if (!mjcf_readVec(c, e, names[i], v, count[i])) continue;
    if (found++) mjcf_fail(c, e, "multiple orientation specifiers");
    o->type = i + 1;
    memcpy(o->v, v, sizeof(double) * count[i]);
  }
}

// an angle of the file in radians: degrees as MuJoCo's compiler converts them, v / 180 * pi
// (v * (pi / 180) differs in the last bit)
static double toRadians(const Ctx* c, double v) { return c->degree ? v / 180 * mjPI : v; }

// the quaternion of orientation o (identity for none); errors for degenerate input
void mjcf_orientQuat(Ctx* c, const mjXNode* e, const Orient* o, double q[4]) {
  mju_unit4(q);
  switch (o->type) {
    case 1: {  // quat: divided by its norm (as MuJoCo's compiler, not times the inverse)
      double norm = mju_norm(o->v, 4);
      if (norm < mjMINVAL) mjcf_fail(c, e, "quaternion has zero norm");
      for (int k = 0; k < 4; k++) q[k] = o->v[k] / norm;
      break;
    }
    case 2: {  // axisangle: unit axis, angle in degrees or radians
      double axis[3] = {o->v[0], o->v[1], o->v[2]};
      if (mju_norm3(axis) < mjMINVAL) mjcf_fail(c, e, "axisangle axis has zero norm");
      mju_normalize3(axis);
      mju_axisAngle2Quat(q, axis, toRadians(c, o->v[3]));
      break;
    }
    case 3:  // euler: successive rotations; lowercase rotating axes, uppercase fixed axes
      for (int i = 0; i < 3; i++) {
        double axis[3] = {0, 0, 0}, r[4], t[4];
        char a = c->eulerseq[i];
        axis[a == 'x' || a == 'X' ? 0 : a == 'y' || a == 'Y' ? 1 : 2] = 1;
        mju_axisAngle2Quat(r, axis, toRadians(c, o->v[i]));
        if (a >= 'a') mju_mulQuat(t, q, r);
        else mju_mulQuat(t, r, q);
        mju_copy4(q, t);
      }
      break;
    case 4: {  // xyaxes: x, y orthogonalized against x, z = x cross y
      double m[9], x[3] = {o->v[0], o->v[1], o->v[2]}, y[3] = {o->v[3], o->v[4], o->v[5]}, z[3];
      if (mju_norm3(x) < mjMINVAL) mjcf_fail(c, e, "xyaxes: x axis has zero norm");
      mju_normalize3(x);
      mju_addToScl3(y, x, -mju_dot3(x, y));
      if (mju_norm3(y) < mjMINVAL) mjcf_fail(c, e, "xyaxes: y axis is parallel to x");
      mju_normalize3(y);
      mju_cross(z, x, y);
      for (int i = 0; i < 3; i++) {
        m[3 * i] = x[i];
        m[3 * i + 1] = y[i];
        m[3 * i + 2] = z[i];
      }
      mju_mat2Quat(q, m);
      break;
    }
    case 5:  // zaxis: minimal rotation of +z onto the axis
      if (mju_norm3(o->v) < mjMINVAL) mjcf_fail(c, e, "zaxis has zero norm");
      mju_quatZ2Vec(q, o->v);
      break;
  }
}

// true when |a - b| < 1e-6 componentwise over n numbers (MuJoCo's tolerance for same frames)
int mjcf_same(const double* a, const double* b, int n) {
  for (int i = 0; i < n; i++)
    if (fabs(a[i] - b[i]) >= 1e-6) return 0;
  return 1;
}
