// compile.c: MJCF element tree to mjModel, with MuJoCo's defaults, classes and conventions.
//
// The compiler reads the sections of <mujoco> in MuJoCo's fixed order (compiler, option, size,
// visual, statistic, default, custom, asset, worldbody, contact, equality, tendon, actuator,
// sensor, keyframe), collects every object into a spec record, then sizes the model, fills
// every array and calls mj_setConst.  Errors longjmp back to mj_compileTree with a one-line
// message "file:line: element 'name': problem"; every allocation lives in one arena.
#include "compile.h"

#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hfield.h"
#include "mesh.h"
#include "model.h"
#include "skin.h"
#include "texture.h"
#include "util.h"

// ---- arena, vectors, errors --------------------------------------------------------------------

typedef struct Block_ {
  struct Block_* next;
  size_t used, cap;
  max_align_t data[];
} Block;

// a growable array of pointers
typedef struct {
  void** p;
  int n, cap;
} Vec;

typedef struct Ctx_ Ctx;

// report an error at element e and unwind to mj_compileTree
static void fail(Ctx* c, const mjXNode* e, const char* fmt, ...)
  __attribute__((format(printf, 3, 4), noreturn));

// ---- the spec records: one per defaultable element kind ----------------------------------------

// an orientation as written: 0 none, 1 quat, 2 axisangle, 3 euler, 4 xyaxes, 5 zaxis
typedef struct {
  int type;
  double v[6];
} Orient;

typedef struct {
  int type, group, limited, actfrclimited, actgravcomp;
  double pos[3], axis[3], range[2], ref, springref, stiffness, damping, armature, frictionloss;
  double margin, solref_lim[2], solimp_lim[5], solref_fri[2], solimp_fri[5], actfrcrange[2];
  double springdamper[2];  // (time constant, damping ratio); both positive: set the spring
} JointSpec;

typedef struct {
  int type, contype, conaffinity, condim, group, priority, fluidshape, hasmass, hasfromto;
  double size[3], friction[3], mass, density, solmix, solref[2], solimp[5], margin, gap;
  double fromto[6], pos[3], fluidcoef[5], fitscale;
  int dataid;  // compiled: the mesh or height field id
  Orient orient;
  float rgba[4];
  const char *material, *mesh, *hfield;
} GeomSpec;

typedef struct {
  int type, group, hasfromto;
  double size[3], pos[3], fromto[6];
  Orient orient;
  float rgba[4];
  const char* material;
} SiteSpec;

typedef struct {
  int mode, orthographic, resolution[2];
  double pos[3], fovy, ipd;
  float sensorsize[2], intrinsic[4];
  Orient orient;
  const char* target;
} CamSpec;

typedef struct {
  int mode, type, castshadow, active;
  double pos[3], dir[3];
  float bulbradius, intensity, range, attenuation[3], cutoff, exponent;
  float ambient[3], diffuse[3], specular[3];
  const char *target, *texture;
} LightSpec;

typedef struct {
  int inertia, maxhullvert, smoothnormal;
  double scale[3];
} MeshSpec;

typedef struct {
  int texuniform;
  float texrepeat[2], emission, specular, shininess, reflectance, metallic, roughness, rgba[4];
  const char* texture;
} MatSpec;

typedef struct {
  int limited, actfrclimited, group;
  double range[2], actfrcrange[2], solref_lim[2], solimp_lim[5], solref_fri[2], solimp_fri[5];
  double margin, stiffness, damping, armature, frictionloss, springlength[2], width;
  float rgba[4];
  const char* material;
} TendonSpec;

typedef struct {
  int active;
  double solref[2], solimp[5];
} EqSpec;

typedef struct {
  int condim;
  double friction[5], solref[2], solreffriction[2], solimp[5], margin, gap;
} PairSpec;

typedef struct {
  int ctrllimited, forcelimited, actlimited, dyntype, gaintype, biastype, actdim, actearly;
  int group;
  double ctrlrange[2], forcerange[2], actrange[2], lengthrange[2], gear[6], cranklength;
  double dynprm[10], gainprm[10], biasprm[10], inheritrange;
} ActSpec;

// a default class: one spec of each kind
typedef struct Default_ {
  const char* name;
  JointSpec joint;
  GeomSpec geom;
  SiteSpec site;
  CamSpec cam;
  LightSpec light;
  MatSpec mat;
  MeshSpec mesh;
  TendonSpec tendon;
  EqSpec eq;
  PairSpec pair;
  ActSpec act;
} Default;

// ---- the objects collected from the tree ------------------------------------------------------

// what every object record starts with: its element and name
typedef struct {
  const mjXNode* e;
  const char* name;
} Head;

typedef struct {
  Head h;
  int parent, mocap, hasinertial, explicitfull;
  double pos[3], quat[4], gravcomp;
  double ipos[3], iquat[4], mass, inertia[3];
  int id;
  int fused;     // fusestatic merged this body into its parent
  int nextra;    // mass parts of fused children, in this body's frame
  double *xmass, *xpos, *xquat, *xinertia;
} Body;

// an object attached to a body: joint, geom, site, camera or light
typedef struct {
  Head h;
  int body, freejoint;
  int fusedfrom;  // fusestatic: the original id of the body this came from (0: its own)
  union {
    JointSpec joint;
    GeomSpec geom;
    SiteSpec site;
    CamSpec cam;
    LightSpec light;
  } s;
  double pos[3], quat[4];  // compiled local pose in the body frame
} Item;

// a top-level object (asset, pair, exclude, equality, tendon, actuator, sensor, key) and the
// element it came from; the spec lives in the matching field
typedef struct {
  Head h;
  int type;                  // eq, sensor, texture type; actuator transmission type
  mjMesh mesh;               // a compiled mesh
  double meshscale[3];       // its scale
  int keepgraph;             // its hull graph is stored: a geom collides with it, or its faces
                             // are the hull's
  mjSkin skin;               // a skin's mesh and bones
  float rgba[4], inflate;    // a skin's color and inflation
  int group;                 // a skin's group
  mjHField hfield;           // a compiled height field
  mjTextureSpec texspec;     // a texture's attributes
  mjTexture tex;             // its pixels (data in the arena)
  const char* file;          // an asset's resolved file path, NULL when inline
  MatSpec mat;
  TendonSpec tendon;
  EqSpec eq;
  PairSpec pair;
  ActSpec act;
  int id[2];                 // resolved object ids (geoms, bodies, transmission targets...)
  int objtype, reftype, dim, datatype, stage, wrapadr, nwrap;
  double data[11], cutoff, noise;
} Obj;

// one element of a tendon path
typedef struct {
  int type, objid;
  double prm;
} Wrap;

enum { K_BODY, K_JOINT, K_GEOM, K_SITE, K_CAM, K_LIGHT, K_MESH, K_SKIN, K_HFIELD, K_TEX, K_MAT,
       K_PAIR, K_EXCLUDE, K_EQ, K_TENDON, K_ACT, K_SENSOR, K_CUSTOM, K_KEY, K_WRAP, NKIND };

// object kind: the element word for messages
static const char* const kindWord[NKIND] = {
  "body", "joint", "geom", "site", "camera", "light", "mesh", "skin", "hfield", "texture",
  "material", "pair", "exclude", "equality", "tendon", "actuator", "sensor", "custom", "key",
  "wrap"};

// a name to id hash table (open addressing, power-of-two capacity)
typedef struct {
  const char** key;
  int* val;
  int cap;
} NameMap;

struct Ctx_ {
  jmp_buf jmp;
  char* err;
  int errsz;
  Block* arena;
  const char* modelname;
  const char* dir;  // the model's directory, with a trailing '/' or empty
  // <compiler>
  int degree, autolimits, inertiafromgeom, balanceinertia, discardvisual, igroup[2];
  int strippath, fitaabb, fusestatic;
  const char *meshdir, *texturedir;
  char eulerseq[4];
  double boundmass, boundinertia, settotalmass;
  // <option>, <visual>, <statistic>, <size>
  mjOption opt;
  mjVisual vis;
  mjStatistic stat;
  int statset[5];
  int nconmax, njmax, nstack, nkey;
  // default classes; [0] is "main"
  Vec classes;
  // objects of each kind, in model order once sorted
  Vec obj[NKIND];
  NameMap names[NKIND];
  // assets and objects outside the tree
  Vec paths;        // texture file paths
};

// a new zeroed block of n bytes from the arena
static void* alloc(Ctx* c, size_t n) {
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
static void freeArena(Ctx* c) {
  while (c->arena) {
    Block* b = c->arena;
    c->arena = b->next;
    free(b);
  }
}

// append p to v, doubling its capacity when full
static void push(Ctx* c, Vec* v, void* p) {
  if (v->n == v->cap) {
    int cap = v->cap ? 2 * v->cap : 16;
    void** q = alloc(c, sizeof(void*) * cap);
    if (v->n) memcpy(q, v->p, sizeof(void*) * v->n);
    v->p = q;
    v->cap = cap;
  }
  v->p[v->n++] = p;
}

// "file:line: element 'name': message" into err, then unwind
static void fail(Ctx* c, const mjXNode* e, const char* fmt, ...) {
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
  m->key = alloc(c, sizeof(char*) * m->cap);
  m->val = alloc(c, sizeof(int) * m->cap);
}

// the slot holding `name`, or the empty slot where it would go
static int mapSlot(const NameMap* m, const char* name) {
  unsigned i = hashString(name) & (m->cap - 1);
  while (m->key[i] && strcmp(m->key[i], name)) i = (i + 1) & (m->cap - 1);
  return (int)i;
}

// id of `name`, or -1
static int mapFind(const NameMap* m, const char* name) {
  if (!m->cap || !name) return -1;
  int i = mapSlot(m, name);
  return m->key[i] ? m->val[i] : -1;
}

// build the name table of kind k from its objects' names; duplicates are errors
static void buildNames(Ctx* c, int k) {
  Vec* v = &c->obj[k];
  mapInit(c, &c->names[k], v->n);
  for (int i = 0; i < v->n; i++) {
    const Head* h = v->p[i];
    if (!h->name || !h->name[0]) continue;
    int s = mapSlot(&c->names[k], h->name);
    if (c->names[k].key[s]) fail(c, h->e, "repeated %s name '%s'", kindWord[k], h->name);
    c->names[k].key[s] = h->name;
    c->names[k].val[s] = i;
  }
}

// id of the object of kind k named `name`, referenced by attribute `attr` of e; error if absent
static int findId(Ctx* c, const mjXNode* e, int k, const char* name, const char* attr) {
  int id = mapFind(&c->names[k], name);
  if (id < 0) fail(c, e, "%s '%s' in attribute '%s' not found", kindWord[k], name, attr);
  return id;
}

// ---- attributes ------------------------------------------------------------------------------

// value of attribute `name` of e, marked used; NULL when absent
static const char* getAttr(const mjXNode* e, const char* name) {
  for (int i = 0; i < e->nattr; i++) {
    if (!strcmp(e->attr[2 * i], name)) {
      ((mjXNode*)e)->used |= (uint64_t)1 << i;
      return e->attr[2 * i + 1];
    }
  }
  return NULL;
}

// mark attributes as accepted without effect (space-separated list)
static void ignoreAttrs(const mjXNode* e, const char* list) {
  char word[64];
  while (*list) {
    int n = 0;
    while (*list && *list != ' ' && n < 63) word[n++] = *list++;
    word[n] = 0;
    while (*list == ' ') list++;
    getAttr(e, word);
  }
}

// an error for the first attribute of e that no reader consumed
static void checkAttrs(Ctx* c, const mjXNode* e) {
  for (int i = 0; i < e->nattr; i++)
    if (!(e->used >> i & 1)) fail(c, e, "unknown attribute '%s'", e->attr[2 * i]);
}

// read between nmin and nmax numbers of attribute `name` into v; returns the count, 0 if absent
static int readNums(Ctx* c, const mjXNode* e, const char* name, double* v, int nmin, int nmax) {
  const char* s = getAttr(e, name);
  if (!s) return 0;
  int n = 0;
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == ',') s++;
    if (!*s) break;
    char* end;
    double x = strtod(s, &end);
    if (end == s || !isfinite(x)) fail(c, e, "attribute '%s': malformed number", name);
    if (n >= nmax) fail(c, e, "attribute '%s': more than %d numbers", name, nmax);
    v[n++] = x;
    s = end;
  }
  if (n < nmin) {
    if (nmin == nmax) fail(c, e, "attribute '%s': expected %d numbers, got %d", name, nmin, n);
    fail(c, e, "attribute '%s': expected at least %d numbers, got %d", name, nmin, n);
  }
  return n;
}

// read a list of any length of attribute `name` into a new arena array *v; returns the count
static int readList(Ctx* c, const mjXNode* e, const char* name, double** v) {
  const char* s = mjx_attr(e, name);
  if (!s) return 0;
  // numbers are at most one more than the separators
  int n = 1;
  for (; *s; s++) n += *s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == ',';
  *v = alloc(c, sizeof(double) * n);
  return readNums(c, e, name, *v, 0, n);
}

// read exactly n numbers
static int readVec(Ctx* c, const mjXNode* e, const char* name, double* v, int n) {
  return readNums(c, e, name, v, n, n);
}

// read exactly n numbers into floats
static int readFloats(Ctx* c, const mjXNode* e, const char* name, float* v, int n) {
  double tmp[16];
  int got = readNums(c, e, name, tmp, n, n);
  for (int i = 0; i < got; i++) v[i] = (float)tmp[i];
  return got;
}

// read one integer
static int readInt(Ctx* c, const mjXNode* e, const char* name, int* v) {
  double x;
  if (!readVec(c, e, name, &x, 1)) return 0;
  if (x != floor(x) || fabs(x) > 2e9) fail(c, e, "attribute '%s': expected an integer", name);
  *v = (int)x;
  return 1;
}

// read a keyword from the NULL-terminated list `words`; *v is its index
static int readKey(Ctx* c, const mjXNode* e, const char* name, const char* const* words,
                   int* v) {
  const char* s = getAttr(e, name);
  if (!s) return 0;
  for (int i = 0; words[i]; i++) {
    if (!strcmp(s, words[i])) {
      *v = i;
      return 1;
    }
  }
  fail(c, e, "attribute '%s': invalid keyword '%s'", name, s);
}

static const char* const boolWords[] = {"false", "true", NULL};
static const char* const limitWords[] = {"false", "true", "auto", NULL};  // auto = 2

// read true/false
static int readBool(Ctx* c, const mjXNode* e, const char* name, int* v) {
  return readKey(c, e, name, boolWords, v);
}

// read a string attribute (pointing into the tree, which outlives compilation)
static int readStr(const mjXNode* e, const char* name, const char** v) {
  const char* s = getAttr(e, name);
  if (s) *v = s;
  return s != NULL;
}

// ---- orientation -------------------------------------------------------------------------------

// read whichever orientation attribute e has (at most one) into o
static void readOrient(Ctx* c, const mjXNode* e, Orient* o) {
  static const char* const names[] = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};
  static const int count[] = {4, 4, 3, 6, 3};
  int found = 0;
  for (int i = 0; i < 5; i++) {
    double v[6];
    if (!readVec(c, e, names[i], v, count[i])) continue;
    if (found++) fail(c, e, "multiple orientation specifiers");
    o->type = i + 1;
    memcpy(o->v, v, sizeof(double) * count[i]);
  }
}

// the quaternion of orientation o (identity for none); errors for degenerate input
static void orientQuat(Ctx* c, const mjXNode* e, const Orient* o, double q[4]) {
  double scale = c->degree ? mjPI / 180 : 1;
  mju_unit4(q);
  switch (o->type) {
    case 1:  // quat: normalized
      mju_copy4(q, o->v);
      if (mju_norm(q, 4) < mjMINVAL) fail(c, e, "quaternion has zero norm");
      mju_normalize4(q);
      break;
    case 2: {  // axisangle: unit axis, angle in degrees or radians
      double axis[3] = {o->v[0], o->v[1], o->v[2]};
      if (mju_norm3(axis) < mjMINVAL) fail(c, e, "axisangle axis has zero norm");
      mju_normalize3(axis);
      mju_axisAngle2Quat(q, axis, o->v[3] * scale);
      break;
    }
    case 3:  // euler: successive rotations; lowercase rotating axes, uppercase fixed axes
      for (int i = 0; i < 3; i++) {
        double axis[3] = {0, 0, 0}, r[4], t[4];
        char a = c->eulerseq[i];
        axis[a == 'x' || a == 'X' ? 0 : a == 'y' || a == 'Y' ? 1 : 2] = 1;
        mju_axisAngle2Quat(r, axis, o->v[i] * scale);
        if (a >= 'a') mju_mulQuat(t, q, r);
        else mju_mulQuat(t, r, q);
        mju_copy4(q, t);
      }
      break;
    case 4: {  // xyaxes: x, y orthogonalized against x, z = x cross y
      double m[9], x[3] = {o->v[0], o->v[1], o->v[2]}, y[3] = {o->v[3], o->v[4], o->v[5]}, z[3];
      if (mju_norm3(x) < mjMINVAL) fail(c, e, "xyaxes: x axis has zero norm");
      mju_normalize3(x);
      mju_addToScl3(y, x, -mju_dot3(x, y));
      if (mju_norm3(y) < mjMINVAL) fail(c, e, "xyaxes: y axis is parallel to x");
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
      if (mju_norm3(o->v) < mjMINVAL) fail(c, e, "zaxis has zero norm");
      mju_quatZ2Vec(q, o->v);
      break;
  }
}

// true when |a - b| < 1e-6 componentwise over n numbers (MuJoCo's tolerance for same frames)
static int same(const double* a, const double* b, int n) {
  for (int i = 0; i < n; i++)
    if (fabs(a[i] - b[i]) >= 1e-6) return 0;
  return 1;
}

// ---- built-in defaults and the spec readers ----------------------------------------------------

static const double defSolref[2] = {0.02, 1};
static const double defSolimp[5] = {0.9, 0.95, 0.001, 0.5, 2};

// set n floats
static void setFloats(float* v, int n, double a, double b, double c_, double d) {
  const double src[4] = {a, b, c_, d};
  for (int i = 0; i < n; i++) v[i] = (float)src[i];
}

// MuJoCo's built-in defaults of every spec: the "main" class before any <default>
static void builtinDefaults(Default* d) {
  memset(d, 0, sizeof(*d));
  JointSpec* j = &d->joint;
  j->type = mjJNT_HINGE;
  j->limited = j->actfrclimited = 2;
  j->axis[2] = 1;
  memcpy(j->solref_lim, defSolref, sizeof(defSolref));
  memcpy(j->solref_fri, defSolref, sizeof(defSolref));
  memcpy(j->solimp_lim, defSolimp, sizeof(defSolimp));
  memcpy(j->solimp_fri, defSolimp, sizeof(defSolimp));
  d->mesh.scale[0] = d->mesh.scale[1] = d->mesh.scale[2] = 1;
  d->mesh.maxhullvert = -1;
  d->mesh.inertia = mjMESH_INERTIA_LEGACY;  // MuJoCo 3.5's default
  GeomSpec* g = &d->geom;
  g->type = mjGEOM_SPHERE;
  g->fitscale = 1;
  g->contype = g->conaffinity = 1;
  g->condim = 3;
  g->friction[0] = 1;
  g->friction[1] = 0.005;
  g->friction[2] = 0.0001;
  g->density = 1000;
  g->solmix = 1;
  memcpy(g->solref, defSolref, sizeof(defSolref));
  memcpy(g->solimp, defSolimp, sizeof(defSolimp));
  setFloats(g->rgba, 4, 0.5, 0.5, 0.5, 1);
  const double fluid[5] = {0.5, 0.25, 1.5, 1.0, 1.0};
  memcpy(g->fluidcoef, fluid, sizeof(fluid));
  SiteSpec* s = &d->site;
  s->type = mjGEOM_SPHERE;
  s->size[0] = s->size[1] = s->size[2] = 0.005;
  setFloats(s->rgba, 4, 0.5, 0.5, 0.5, 1);
  CamSpec* cam = &d->cam;
  cam->fovy = 45;
  cam->ipd = 0.068;
  cam->resolution[0] = cam->resolution[1] = 1;
  setFloats(cam->intrinsic, 4, 0.01, 0.01, 0, 0);
  LightSpec* l = &d->light;
  l->castshadow = l->active = 1;
  l->dir[2] = -1;
  l->bulbradius = 0.02f;
  l->range = 10;
  setFloats(l->attenuation, 3, 1, 0, 0, 0);
  l->cutoff = 45;
  l->exponent = 10;
  setFloats(l->diffuse, 3, 0.7, 0.7, 0.7, 0);
  setFloats(l->specular, 3, 0.3, 0.3, 0.3, 0);
  MatSpec* m = &d->mat;
  setFloats(m->texrepeat, 2, 1, 1, 0, 0);
  m->specular = m->shininess = 0.5f;
  m->metallic = m->roughness = -1;
  setFloats(m->rgba, 4, 1, 1, 1, 1);
  TendonSpec* t = &d->tendon;
  t->limited = 2;
  t->actfrclimited = 0;  // MuJoCo 3.5.1: false unless given, even with a range and autolimits
  memcpy(t->solref_lim, defSolref, sizeof(defSolref));
  memcpy(t->solref_fri, defSolref, sizeof(defSolref));
  memcpy(t->solimp_lim, defSolimp, sizeof(defSolimp));
  memcpy(t->solimp_fri, defSolimp, sizeof(defSolimp));
  t->springlength[0] = t->springlength[1] = -1;
  t->width = 0.003;
  setFloats(t->rgba, 4, 0.5, 0.5, 0.5, 1);
  d->eq.active = 1;
  memcpy(d->eq.solref, defSolref, sizeof(defSolref));
  memcpy(d->eq.solimp, defSolimp, sizeof(defSolimp));
  PairSpec* p = &d->pair;
  p->condim = 3;
  const double pf[5] = {1, 1, 0.005, 0.0001, 0.0001};
  memcpy(p->friction, pf, sizeof(pf));
  memcpy(p->solref, defSolref, sizeof(defSolref));
  memcpy(p->solimp, defSolimp, sizeof(defSolimp));
  ActSpec* a = &d->act;
  a->ctrllimited = a->forcelimited = a->actlimited = 2;
  a->dynprm[0] = a->gainprm[0] = a->gear[0] = 1;
  a->actdim = -1;
}

static const char* const geomTypes[] = {"plane", "hfield", "sphere", "capsule", "ellipsoid",
                                        "cylinder", "box", "mesh", "sdf", NULL};
static const char* const camModes[] = {"fixed", "track", "trackcom", "targetbody",
                                       "targetbodycom", NULL};

// read solimp: 1 to 5 numbers overwrite the leading entries
static void readSolimp(Ctx* c, const mjXNode* e, const char* name, double* v) {
  readNums(c, e, name, v, 1, 5);
}

// joint attributes over s
static void readJoint(Ctx* c, const mjXNode* e, JointSpec* s) {
  static const char* const types[] = {"free", "ball", "slide", "hinge", NULL};
  readKey(c, e, "type", types, &s->type);
  readInt(c, e, "group", &s->group);
  readVec(c, e, "pos", s->pos, 3);
  readVec(c, e, "axis", s->axis, 3);
  readVec(c, e, "range", s->range, 2);
  readKey(c, e, "limited", limitWords, &s->limited);
  readKey(c, e, "actuatorfrclimited", limitWords, &s->actfrclimited);
  readBool(c, e, "actuatorgravcomp", &s->actgravcomp);
  readVec(c, e, "ref", &s->ref, 1);
  readVec(c, e, "springref", &s->springref, 1);
  readVec(c, e, "stiffness", &s->stiffness, 1);
  readVec(c, e, "damping", &s->damping, 1);
  readVec(c, e, "armature", &s->armature, 1);
  readVec(c, e, "frictionloss", &s->frictionloss, 1);
  readVec(c, e, "margin", &s->margin, 1);
  readVec(c, e, "solreflimit", s->solref_lim, 2);
  readSolimp(c, e, "solimplimit", s->solimp_lim);
  readVec(c, e, "solreffriction", s->solref_fri, 2);
  readSolimp(c, e, "solimpfriction", s->solimp_fri);
  readVec(c, e, "actuatorfrcrange", s->actfrcrange, 2);
  if (readVec(c, e, "springdamper", s->springdamper, 2) &&
      (s->springdamper[0] < 0 || s->springdamper[1] < 0))
    fail(c, e, "springdamper values cannot be negative");
  ignoreAttrs(e, "user");
}

// geom attributes over s
static void readGeom(Ctx* c, const mjXNode* e, GeomSpec* s) {
  static const char* const shapes[] = {"none", "ellipsoid", NULL};
  readKey(c, e, "type", geomTypes, &s->type);
  readInt(c, e, "contype", &s->contype);
  readInt(c, e, "conaffinity", &s->conaffinity);
  if (readInt(c, e, "condim", &s->condim) && s->condim != 1 && s->condim != 3 &&
      s->condim != 4 && s->condim != 6)
    fail(c, e, "condim must be 1, 3, 4 or 6");
  readInt(c, e, "group", &s->group);
  readInt(c, e, "priority", &s->priority);
  readNums(c, e, "size", s->size, 1, 3);
  readStr(e, "material", &s->material);
  readNums(c, e, "friction", s->friction, 1, 3);
  if (readVec(c, e, "mass", &s->mass, 1)) s->hasmass = 1;
  readVec(c, e, "density", &s->density, 1);
  int shell = 0;
  if (readBool(c, e, "shellinertia", &shell) && shell)
    fail(c, e, "shellinertia is not supported yet");
  readVec(c, e, "solmix", &s->solmix, 1);
  readVec(c, e, "solref", s->solref, 2);
  readSolimp(c, e, "solimp", s->solimp);
  readVec(c, e, "margin", &s->margin, 1);
  readVec(c, e, "gap", &s->gap, 1);
  if (readVec(c, e, "fromto", s->fromto, 6)) s->hasfromto = 1;
  readVec(c, e, "pos", s->pos, 3);
  readOrient(c, e, &s->orient);
  readStr(e, "mesh", &s->mesh);
  readStr(e, "hfield", &s->hfield);
  readFloats(c, e, "rgba", s->rgba, 4);
  readKey(c, e, "fluidshape", shapes, &s->fluidshape);
  readVec(c, e, "fluidcoef", s->fluidcoef, 5);
  readVec(c, e, "fitscale", &s->fitscale, 1);
  ignoreAttrs(e, "user");
}

// site attributes over s
static void readSite(Ctx* c, const mjXNode* e, SiteSpec* s) {
  readKey(c, e, "type", geomTypes, &s->type);
  readInt(c, e, "group", &s->group);
  readNums(c, e, "size", s->size, 1, 3);
  readStr(e, "material", &s->material);
  if (readVec(c, e, "fromto", s->fromto, 6)) s->hasfromto = 1;
  readVec(c, e, "pos", s->pos, 3);
  readOrient(c, e, &s->orient);
  readFloats(c, e, "rgba", s->rgba, 4);
  ignoreAttrs(e, "user");
}

// camera attributes over s
static void readCamera(Ctx* c, const mjXNode* e, CamSpec* s) {
  readKey(c, e, "mode", camModes, &s->mode);
  readStr(e, "target", &s->target);
  readVec(c, e, "pos", s->pos, 3);
  readOrient(c, e, &s->orient);
  readVec(c, e, "fovy", &s->fovy, 1);
  readVec(c, e, "ipd", &s->ipd, 1);
  double res[2];
  if (readVec(c, e, "resolution", res, 2)) {
    if (res[0] < 1 || res[1] < 1) fail(c, e, "resolution must be positive");
    s->resolution[0] = (int)res[0];
    s->resolution[1] = (int)res[1];
  }
  readFloats(c, e, "sensorsize", s->sensorsize, 2);
  readFloats(c, e, "focal", s->intrinsic, 2);
  readFloats(c, e, "principal", s->intrinsic + 2, 2);
  // pixel units scale by sensor size over resolution
  float px[2];
  for (int k = 0; k < 2; k++) {
    if (!readFloats(c, e, k ? "principalpixel" : "focalpixel", px, 2)) continue;
    for (int i = 0; i < 2; i++) s->intrinsic[2 * k + i] = px[i] * s->sensorsize[i] /
                                                          s->resolution[i];
  }
  readBool(c, e, "orthographic", &s->orthographic);
  ignoreAttrs(e, "user");
}

// light attributes over s
static void readLight(Ctx* c, const mjXNode* e, LightSpec* s) {
  static const char* const types[] = {"spot", "directional", "point", "image", NULL};
  readKey(c, e, "mode", camModes, &s->mode);
  readStr(e, "target", &s->target);
  int dir;
  if (readBool(c, e, "directional", &dir)) s->type = dir ? mjLIGHT_DIRECTIONAL : mjLIGHT_SPOT;
  readKey(c, e, "type", types, &s->type);
  readBool(c, e, "castshadow", &s->castshadow);
  readBool(c, e, "active", &s->active);
  readVec(c, e, "pos", s->pos, 3);
  readVec(c, e, "dir", s->dir, 3);
  readFloats(c, e, "bulbradius", &s->bulbradius, 1);
  readFloats(c, e, "intensity", &s->intensity, 1);
  readFloats(c, e, "range", &s->range, 1);
  readFloats(c, e, "attenuation", s->attenuation, 3);
  readFloats(c, e, "cutoff", &s->cutoff, 1);
  readFloats(c, e, "exponent", &s->exponent, 1);
  readFloats(c, e, "ambient", s->ambient, 3);
  readFloats(c, e, "diffuse", s->diffuse, 3);
  readFloats(c, e, "specular", s->specular, 3);
  readStr(e, "texture", &s->texture);
}

// material attributes over s
static void readMaterial(Ctx* c, const mjXNode* e, MatSpec* s) {
  readStr(e, "texture", &s->texture);
  readFloats(c, e, "texrepeat", s->texrepeat, 2);
  readBool(c, e, "texuniform", &s->texuniform);
  readFloats(c, e, "emission", &s->emission, 1);
  readFloats(c, e, "specular", &s->specular, 1);
  readFloats(c, e, "shininess", &s->shininess, 1);
  readFloats(c, e, "reflectance", &s->reflectance, 1);
  readFloats(c, e, "metallic", &s->metallic, 1);
  readFloats(c, e, "roughness", &s->roughness, 1);
  readFloats(c, e, "rgba", s->rgba, 4);
}

// the mesh inertia keywords, in mjtMeshInertia order
static const char* const meshInertias[] = {"convex", "exact", "legacy", "shell", NULL};

// mesh attributes that classes may set, over s
static void readMeshDefaults(Ctx* c, const mjXNode* e, MeshSpec* s) {
  readVec(c, e, "scale", s->scale, 3);
  readKey(c, e, "inertia", meshInertias, &s->inertia);
  readInt(c, e, "maxhullvert", &s->maxhullvert);
  readBool(c, e, "smoothnormal", &s->smoothnormal);
  if (s->maxhullvert != -1 && s->maxhullvert < 4) fail(c, e, "maxhullvert must be larger than 3");
}

// tendon attributes over s
static void readTendon(Ctx* c, const mjXNode* e, TendonSpec* s) {
  readInt(c, e, "group", &s->group);
  readKey(c, e, "limited", limitWords, &s->limited);
  readKey(c, e, "actuatorfrclimited", limitWords, &s->actfrclimited);
  readVec(c, e, "range", s->range, 2);
  readVec(c, e, "actuatorfrcrange", s->actfrcrange, 2);
  readVec(c, e, "solreflimit", s->solref_lim, 2);
  readSolimp(c, e, "solimplimit", s->solimp_lim);
  readVec(c, e, "solreffriction", s->solref_fri, 2);
  readSolimp(c, e, "solimpfriction", s->solimp_fri);
  readVec(c, e, "frictionloss", &s->frictionloss, 1);
  // one spring length sets both ends of the dead band
  if (readNums(c, e, "springlength", s->springlength, 1, 2) == 1)
    s->springlength[1] = s->springlength[0];
  readVec(c, e, "width", &s->width, 1);
  readStr(e, "material", &s->material);
  readVec(c, e, "margin", &s->margin, 1);
  readVec(c, e, "stiffness", &s->stiffness, 1);
  readVec(c, e, "damping", &s->damping, 1);
  readVec(c, e, "armature", &s->armature, 1);
  readFloats(c, e, "rgba", s->rgba, 4);
  ignoreAttrs(e, "user");
}

// equality attributes common to every type over s
static void readEquality(Ctx* c, const mjXNode* e, EqSpec* s) {
  readBool(c, e, "active", &s->active);
  readVec(c, e, "solref", s->solref, 2);
  readSolimp(c, e, "solimp", s->solimp);
}

// contact pair attributes over s
static void readPair(Ctx* c, const mjXNode* e, PairSpec* s) {
  if (readInt(c, e, "condim", &s->condim) && s->condim != 1 && s->condim != 3 &&
      s->condim != 4 && s->condim != 6)
    fail(c, e, "condim must be 1, 3, 4 or 6");
  readNums(c, e, "friction", s->friction, 1, 5);
  readVec(c, e, "solref", s->solref, 2);
  readVec(c, e, "solreffriction", s->solreffriction, 2);
  readSolimp(c, e, "solimp", s->solimp);
  readVec(c, e, "margin", &s->margin, 1);
  readVec(c, e, "gap", &s->gap, 1);
}

// the actuator element names; the index is the shortcut kind
static const char* const actKinds[] = {"general", "motor", "position", "velocity", "intvelocity",
                                       "damper", "cylinder", "muscle", "adhesion", NULL};
enum { A_GENERAL, A_MOTOR, A_POSITION, A_VELOCITY, A_INTVELOCITY, A_DAMPER, A_CYLINDER,
       A_MUSCLE, A_ADHESION };

// index of `name` in the NULL-terminated list, or -1
static int wordIndex(const char* const* words, const char* name) {
  for (int i = 0; words[i]; i++)
    if (!strcmp(words[i], name)) return i;
  return -1;
}

// position-like gains: gain kp, bias (., -kp, -kv or +dampratio); kp defaults to gainprm[0]
static void readPositionGains(Ctx* c, const mjXNode* e, ActSpec* s) {
  readVec(c, e, "kp", &s->gainprm[0], 1);
  if (s->gainprm[0] < 0) fail(c, e, "kp cannot be negative");
  double kv, dampratio;
  int haskv = readVec(c, e, "kv", &kv, 1), hasdr = readVec(c, e, "dampratio", &dampratio, 1);
  if (haskv && hasdr) fail(c, e, "kv and dampratio cannot both be given");
  if ((haskv && kv < 0) || (hasdr && dampratio < 0)) fail(c, e, "kv and dampratio must be >= 0");
  s->biasprm[1] = -s->gainprm[0];
  if (haskv) s->biasprm[2] = -kv;
  if (hasdr) s->biasprm[2] = dampratio;  // positive: a damping ratio, resolved by mj_setConst
  s->gaintype = mjGAIN_FIXED;
  s->biastype = mjBIAS_AFFINE;
  readVec(c, e, "inheritrange", &s->inheritrange, 1);
}

// actuator attributes over s for shortcut `kind`: common ones, then the shortcut's own,
// expanded into dyn/gain/bias types and parameters as MuJoCo does
static void readActuator(Ctx* c, const mjXNode* e, ActSpec* s, int kind) {
  static const char* const dyn[] = {"none", "integrator", "filter", "filterexact", "muscle",
                                    "user", NULL};
  static const char* const gain[] = {"fixed", "affine", "muscle", "user", NULL};
  static const char* const bias[] = {"none", "affine", "muscle", "user", NULL};
  readInt(c, e, "group", &s->group);
  readKey(c, e, "ctrllimited", limitWords, &s->ctrllimited);
  readKey(c, e, "forcelimited", limitWords, &s->forcelimited);
  readKey(c, e, "actlimited", limitWords, &s->actlimited);
  readVec(c, e, "ctrlrange", s->ctrlrange, 2);
  readVec(c, e, "forcerange", s->forcerange, 2);
  readVec(c, e, "actrange", s->actrange, 2);
  readVec(c, e, "lengthrange", s->lengthrange, 2);
  readNums(c, e, "gear", s->gear, 1, 6);
  readVec(c, e, "cranklength", &s->cranklength, 1);
  readInt(c, e, "actdim", &s->actdim);
  readBool(c, e, "actearly", &s->actearly);
  ignoreAttrs(e, "user");
  double x, v[2];
  switch (kind) {
    case A_GENERAL:
      readKey(c, e, "dyntype", dyn, &s->dyntype);
      readKey(c, e, "gaintype", gain, &s->gaintype);
      readKey(c, e, "biastype", bias, &s->biastype);
      readNums(c, e, "dynprm", s->dynprm, 1, 10);
      readNums(c, e, "gainprm", s->gainprm, 1, 10);
      readNums(c, e, "biasprm", s->biasprm, 1, 10);
      break;
    case A_MOTOR:  // unit gain, no bias, no dynamics
      s->gainprm[0] = 1;
      s->dyntype = mjDYN_NONE;
      s->gaintype = mjGAIN_FIXED;
      s->biastype = mjBIAS_NONE;
      break;
    case A_POSITION:  // optional first-order filter of time constant timeconst
      readPositionGains(c, e, s);
      if (readVec(c, e, "timeconst", &x, 1)) {
        if (x < 0) fail(c, e, "timeconst cannot be negative");
        s->dynprm[0] = x;
        s->dyntype = x > 0 ? mjDYN_FILTEREXACT : mjDYN_NONE;
      }
      break;
    case A_INTVELOCITY:  // position servo on an integrated activation
      readPositionGains(c, e, s);
      s->dyntype = mjDYN_INTEGRATOR;
      break;
    case A_VELOCITY:  // gain kv, bias -kv * velocity
      readVec(c, e, "kv", &s->gainprm[0], 1);
      if (s->gainprm[0] < 0) fail(c, e, "kv cannot be negative");
      s->biasprm[0] = s->biasprm[1] = 0;
      s->biasprm[2] = -s->gainprm[0];
      s->dyntype = mjDYN_NONE;
      s->gaintype = mjGAIN_FIXED;
      s->biastype = mjBIAS_AFFINE;
      break;
    case A_DAMPER:  // force = -kv * velocity * ctrl
      x = 0;
      readVec(c, e, "kv", &x, 1);
      if (x < 0) fail(c, e, "kv cannot be negative");
      s->gainprm[0] = s->gainprm[1] = 0;
      s->gainprm[2] = -x;
      s->dyntype = mjDYN_NONE;
      s->gaintype = mjGAIN_AFFINE;
      s->biastype = mjBIAS_NONE;
      break;
    case A_CYLINDER: {  // filtered pressure times area (or pi/4 diameter^2), bias[0]
      readVec(c, e, "timeconst", &s->dynprm[0], 1);
      readVec(c, e, "area", &s->gainprm[0], 1);
      if (readVec(c, e, "diameter", &x, 1)) s->gainprm[0] = mjPI / 4 * x * x;
      double b[3] = {s->biasprm[0], 0, 0};
      if (readVec(c, e, "bias", b, 3)) s->biasprm[0] = b[0];
      s->dyntype = mjDYN_FILTER;
      s->gaintype = mjGAIN_FIXED;
      s->biastype = mjBIAS_AFFINE;
      break;
    }
    case A_MUSCLE: {  // MuJoCo's muscle defaults replace the built-in general defaults
      static const double mdef[9] = {0.75, 1.05, -1, 200, 0.5, 1.6, 1.5, 1.3, 1.2};
      static const double gdef[9] = {1, 0, 0, 0, 0, 0, 0, 0, 0};
      static const char* const names[9] = {NULL, NULL, "force", "scale", "lmin", "lmax",
                                           "vmax", "fpmax", "fvmax"};
      if (s->dynprm[0] == 1) s->dynprm[0] = 0.01;
      if (s->dynprm[1] == 0) s->dynprm[1] = 0.04;
      for (int i = 0; i < 9; i++)
        if (s->gainprm[i] == gdef[i]) s->gainprm[i] = mdef[i];
      readVec(c, e, "timeconst", s->dynprm, 2);
      readVec(c, e, "tausmooth", &s->dynprm[2], 1);
      if (readVec(c, e, "range", v, 2)) memcpy(s->gainprm, v, sizeof(v));
      for (int i = 2; i < 9; i++) readVec(c, e, names[i], &s->gainprm[i], 1);
      memcpy(s->biasprm, s->gainprm, sizeof(double) * 9);
      s->dyntype = mjDYN_MUSCLE;
      s->gaintype = mjGAIN_MUSCLE;
      s->biastype = mjBIAS_MUSCLE;
      break;
    }
    case A_ADHESION:  // gain on a body transmission, no bias
      readVec(c, e, "gain", &s->gainprm[0], 1);
      if (s->gainprm[0] < 0) fail(c, e, "gain cannot be negative");
      s->dyntype = mjDYN_NONE;
      s->gaintype = mjGAIN_FIXED;
      s->biastype = mjBIAS_NONE;
      break;
  }
}

// ---- top-level settings: compiler, option, size, visual, statistic -----------------------------

// <compiler>: angle units, euler sequence, inertia and limit rules
static void readCompiler(Ctx* c, const mjXNode* e) {
  static const char* const angles[] = {"radian", "degree", NULL};
  static const char* const coords[] = {"local", "global", NULL};
  static const char* const ifg[] = {"false", "true", "auto", NULL};
  int coord = 0, v = 0;
  readKey(c, e, "angle", angles, &c->degree);
  if (readKey(c, e, "coordinate", coords, &coord) && coord)
    fail(c, e, "coordinate=\"global\" is not supported (removed from MuJoCo); use local");
  const char* seq = getAttr(e, "eulerseq");
  if (seq) {
    if (strlen(seq) != 3 || strspn(seq, "xyzXYZ") != 3)
      fail(c, e, "eulerseq must be 3 characters from xyzXYZ");
    memcpy(c->eulerseq, seq, 4);
  }
  readBool(c, e, "autolimits", &c->autolimits);
  readKey(c, e, "inertiafromgeom", ifg, &c->inertiafromgeom);
  readVec(c, e, "boundmass", &c->boundmass, 1);
  readVec(c, e, "boundinertia", &c->boundinertia, 1);
  readVec(c, e, "settotalmass", &c->settotalmass, 1);
  readBool(c, e, "balanceinertia", &c->balanceinertia);
  double g[2];
  if (readVec(c, e, "inertiagrouprange", g, 2)) {
    c->igroup[0] = (int)g[0];
    c->igroup[1] = (int)g[1];
  }
  readBool(c, e, "fusestatic", &c->fusestatic);
  if (readBool(c, e, "alignfree", &v) && v) fail(c, e, "alignfree is not supported yet");
  readBool(c, e, "discardvisual", &c->discardvisual);
  // asset directories: assetdir sets both, meshdir and texturedir override it
  const char* assetdir = NULL;
  if (readStr(e, "assetdir", &assetdir)) c->meshdir = c->texturedir = assetdir;
  readStr(e, "meshdir", &c->meshdir);
  readStr(e, "texturedir", &c->texturedir);
  readBool(c, e, "strippath", &c->strippath);
  readBool(c, e, "fitaabb", &c->fitaabb);
  ignoreAttrs(e, "usethread exactmeshinertia saveinertial");
  checkAttrs(c, e);
  if (e->nchild) fail(c, e->child[0], "unsupported element in compiler");
}

// <option> attributes (the mjOption fields by name) and its <flag> child; the keyword and
// flag names are lib/options.c's
static void readOption(Ctx* c, const mjXNode* e) {
  mjOption* o = &c->opt;
  // numeric fields by their table names; the keyword and flag fields are read below
#define X(type, name, count, shape)                                                          \
  if (!strcmp(#type, "mjtNum")) readVec(c, e, #name, (double*)(void*)&o->name, count);
  MJ_OPTION_FIELDS(X)
#undef X
  readInt(c, e, "iterations", &o->iterations);
  readInt(c, e, "ls_iterations", &o->ls_iterations);
  readInt(c, e, "noslip_iterations", &o->noslip_iterations);
  readInt(c, e, "ccd_iterations", &o->ccd_iterations);
  readInt(c, e, "sdf_initpoints", &o->sdf_initpoints);
  readInt(c, e, "sdf_iterations", &o->sdf_iterations);
  readKey(c, e, "integrator", mj_optionKeywords("integrator"), &o->integrator);
  readKey(c, e, "cone", mj_optionKeywords("cone"), &o->cone);
  readKey(c, e, "jacobian", mj_optionKeywords("jacobian"), &o->jacobian);
  readKey(c, e, "solver", mj_optionKeywords("solver"), &o->solver);
  // actuator groups to disable: a list of group numbers 0..30
  double groups[31];
  int ng = readNums(c, e, "actuatorgroupdisable", groups, 1, 31);
  for (int i = 0; i < ng; i++) {
    if (groups[i] < 0 || groups[i] > 30 || groups[i] != floor(groups[i]))
      fail(c, e, "actuatorgroupdisable: groups are integers 0..30");
    o->disableactuator |= 1 << (int)groups[i];
  }
  checkAttrs(c, e);
  // <flag name="enable|disable">
  static const char* const onoff[] = {"disable", "enable", NULL};
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* f = e->child[i];
    if (strcmp(f->name, "flag")) fail(c, f, "unknown element in option");
    int v;
    for (int b = 0; mj_disableFlagNames[b]; b++) {
      if (!readKey(c, f, mj_disableFlagNames[b], onoff, &v)) continue;
      if (v) o->disableflags &= ~(1 << b);
      else o->disableflags |= 1 << b;
    }
    for (int b = 0; mj_enableFlagNames[b]; b++) {
      if (!readKey(c, f, mj_enableFlagNames[b], onoff, &v)) continue;
      if (v) o->enableflags |= 1 << b;
      else o->enableflags &= ~(1 << b);
    }
    checkAttrs(c, f);
  }
}

// <size>: memory and the preallocation counts; user-data sizes are accepted and ignored
static void readSize(Ctx* c, const mjXNode* e) {
  readInt(c, e, "njmax", &c->njmax);
  readInt(c, e, "nconmax", &c->nconmax);
  readInt(c, e, "nstack", &c->nstack);
  readInt(c, e, "nkey", &c->nkey);
  const char* mem = getAttr(e, "memory");
  if (mem) {
    // bytes with an optional K, M or G suffix
    char* end;
    double x = strtod(mem, &end);
    double scale = *end == 'K' || *end == 'k' ? 1024.0 : *end == 'M' || *end == 'm' ? 1048576.0
                 : *end == 'G' || *end == 'g' ? 1073741824.0 : 1;
    if (end == mem || x < 0 || (*end && end[1]) || (*end && scale == 1 && *end != ' '))
      fail(c, e, "attribute 'memory': malformed size");
    double n = x * scale / sizeof(mjtNum);
    if (n > c->nstack && n < 1 << 28) c->nstack = (int)n;
  }
  ignoreAttrs(e, "nuserdata nuser_body nuser_jnt nuser_geom nuser_site nuser_cam "
                 "nuser_tendon nuser_actuator nuser_sensor");
  checkAttrs(c, e);
}

// <visual>: sections named as in mjVisual, attributes as its fields
static void readVisual(Ctx* c, const mjXNode* e) {
  static const char* const sections[] = {"global", "quality", "headlight", "map", "scale",
                                         "rgba", NULL};
  // the fields MJCF writes as true/false rather than as numbers
  static const char* const bools[] = {"orthographic", "ellipsoidinertia", "bvactive", NULL};
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* s = e->child[i];
    if (wordIndex(sections, s->name) < 0) fail(c, s, "unknown element in visual");
    mjVisual* v = &c->vis;
    const char* sec = s->name;
    int b;
#define X(type, section, name, count, shape)                                                 \
  if (!strcmp(sec, #section)) {                                                              \
    if (wordIndex(bools, #name) < 0)                                                         \
      readFloats(c, s, #name, (float*)(void*)&v->section##_##name, count);                   \
    else if (readBool(c, s, #name, &b))                                                      \
      *(float*)(void*)&v->section##_##name = (float)b;                                       \
  }
    MJ_VISUAL_FIELDS(X)
#undef X
    checkAttrs(c, s);
  }
  checkAttrs(c, e);
}

// <statistic>: values that override the computed statistics
static void readStatistic(Ctx* c, const mjXNode* e) {
  int i = 0;
#define X(type, name, count, shape)                                                          \
  c->statset[i++] |= readVec(c, e, #name, (double*)(void*)&c->stat.name, count) > 0;
  MJ_STAT_FIELDS(X)
#undef X
  checkAttrs(c, e);
}

// ---- default classes ---------------------------------------------------------------------------

// the class called `name`, referenced by element e; error if undefined
static const Default* findClass(Ctx* c, const mjXNode* e, const char* name) {
  for (int i = 0; i < c->classes.n; i++) {
    const Default* d = c->classes.p[i];
    if (!strcmp(d->name, name)) return d;
  }
  fail(c, e, "unknown default class '%s'", name);
}

// the class named by e's "class" attribute, or `inherited` when it has none
static const Default* elemClass(Ctx* c, const mjXNode* e, const Default* inherited) {
  const char* name = getAttr(e, "class");
  return name ? findClass(c, e, name) : inherited;
}

// a <default> element: a new class copied from `parent` (or "main" itself at the top level),
// its element defaults, then its nested classes
static void readDefault(Ctx* c, const mjXNode* e, Default* parent) {
  const char* name = getAttr(e, "class");
  Default* d;
  if (!parent) {
    // top level: the main class
    if (name && strcmp(name, "main")) fail(c, e, "top-level default class must be 'main'");
    d = c->classes.p[0];
  } else {
    if (!name) fail(c, e, "nested default needs a class name");
    for (int i = 0; i < c->classes.n; i++)
      if (!strcmp(((Default*)c->classes.p[i])->name, name))
        fail(c, e, "repeated default class '%s'", name);
    d = alloc(c, sizeof(Default));
    *d = *parent;
    d->name = name;
    push(c, &c->classes, d);
  }
  checkAttrs(c, e);
  // the element defaults in document order
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* ch = e->child[i];
    const char* n = ch->name;
    int kind = wordIndex(actKinds, n);
    if (!strcmp(n, "default")) continue;
    if (!strcmp(n, "joint")) readJoint(c, ch, &d->joint);
    else if (!strcmp(n, "geom")) readGeom(c, ch, &d->geom);
    else if (!strcmp(n, "site")) readSite(c, ch, &d->site);
    else if (!strcmp(n, "camera")) readCamera(c, ch, &d->cam);
    else if (!strcmp(n, "light")) readLight(c, ch, &d->light);
    else if (!strcmp(n, "material")) readMaterial(c, ch, &d->mat);
    else if (!strcmp(n, "tendon")) readTendon(c, ch, &d->tendon);
    else if (!strcmp(n, "equality")) readEquality(c, ch, &d->eq);
    else if (!strcmp(n, "pair")) readPair(c, ch, &d->pair);
    else if (kind >= 0) readActuator(c, ch, &d->act, kind);
    else if (!strcmp(n, "mesh")) readMeshDefaults(c, ch, &d->mesh);
    else fail(c, ch, "unknown element in default");
    checkAttrs(c, ch);
  }
  // nested classes after this class is complete
  for (int i = 0; i < e->nchild; i++)
    if (!strcmp(e->child[i]->name, "default")) readDefault(c, e->child[i], d);
}

// ---- assets -----------------------------------------------------------------------------------

// the name of an asset: its name attribute, else its file's name without directory and
// extension (NULL for an unnamed inline asset)
static const char* assetName(Ctx* c, const mjXNode* e) {
  const char* name = getAttr(e, "name");
  const char* file = mjx_attr(e, "file");
  if (name || !file) return name;
  const char* base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
  size_t n = strcspn(base, ".");
  char* s = alloc(c, n + 1);
  memcpy(s, base, n);
  return s;
}

// the path of asset file `file` as MuJoCo resolves it: without its directories under
// strippath; as given when absolute; else under `dir` (meshdir, texturedir), itself under the
// model's directory unless absolute
static const char* assetPath(Ctx* c, const char* dir, const char* file) {
  if (c->strippath && strrchr(file, '/')) file = strrchr(file, '/') + 1;
  if (file[0] == '/') return file;
  const char* top = dir && dir[0] == '/' ? "" : c->dir;
  const char* sep = dir && dir[0] && dir[strlen(dir) - 1] != '/' ? "/" : "";
  size_t n = strlen(top) + (dir ? strlen(dir) : 0) + strlen(sep) + strlen(file) + 1;
  char* path = alloc(c, n);
  snprintf(path, n, "%s%s%s%s", top, dir ? dir : "", sep, file);
  return path;
}

// a float copy of a list attribute of groups of `per` numbers, in the arena; returns the
// count of groups
static int readFloatList(Ctx* c, const mjXNode* e, const char* name, int per, float** out) {
  double* v = NULL;
  int n = readList(c, e, name, &v);
  if (n % per) fail(c, e, "attribute '%s': the count of numbers must be a multiple of %d", name,
                    per);
  *out = alloc(c, sizeof(float) * (n + 1));
  for (int i = 0; i < n; i++) (*out)[i] = (float)v[i];
  return n / per;
}

// a <mesh>: its attributes over its class's mesh defaults, compiled now (geoms need its frame)
static void addMesh(Ctx* c, const mjXNode* e) {
  Obj* o = alloc(c, sizeof(Obj));
  o->h.e = e;
  o->h.name = assetName(c, e);
  push(c, &c->obj[K_MESH], o);  // before compiling, so that the unwind frees the mesh
  MeshSpec ms = elemClass(c, e, c->classes.p[0])->mesh;
  readMeshDefaults(c, e, &ms);
  mjMeshSpec spec = {.refquat = {1, 0, 0, 0}, .inertia = ms.inertia,
                     .maxhullvert = ms.maxhullvert, .smoothnormal = ms.smoothnormal};
  mju_copy3(spec.scale, ms.scale);
  mju_copy3(o->meshscale, ms.scale);
  const char* file = NULL;
  if (readStr(e, "file", &file)) o->file = spec.file = assetPath(c, c->meshdir, file);
  readStr(e, "content_type", &spec.contenttype);
  float *vert, *normal, *texcoord;
  spec.nvert = readFloatList(c, e, "vertex", 3, &vert);
  spec.nnormal = readFloatList(c, e, "normal", 3, &normal);
  spec.ntexcoord = readFloatList(c, e, "texcoord", 2, &texcoord);
  spec.vert = vert;
  spec.normal = normal;
  spec.texcoord = texcoord;
  double* face = NULL;
  int nface = readList(c, e, "face", &face);
  if (nface % 3) fail(c, e, "attribute 'face': the count of numbers must be a multiple of 3");
  int* iface = alloc(c, sizeof(int) * (nface + 1));
  for (int i = 0; i < nface; i++) {
    if (face[i] != floor(face[i]) || face[i] < 0 || face[i] > 2e9)
      fail(c, e, "attribute 'face': expected non-negative integers");
    iface[i] = (int)face[i];
  }
  spec.face = iface;
  spec.nface = nface / 3;
  readVec(c, e, "refpos", spec.refpos, 3);
  readVec(c, e, "refquat", spec.refquat, 4);
  checkAttrs(c, e);
  if (e->nchild) fail(c, e->child[0], "mesh plugins are not supported yet");
  if (file && spec.nvert) fail(c, e, "a mesh takes a file or vertex data, not both");
  o->keepgraph = !file && !spec.nface;
  char msg[512];
  if (mj_meshCompile(&spec, &o->mesh, msg, sizeof(msg))) fail(c, e, "%s", msg);
}

// a <hfield>: compiled now (geoms take their size from it)
static void addHfield(Ctx* c, const mjXNode* e) {
  Obj* o = alloc(c, sizeof(Obj));
  o->h.e = e;
  o->h.name = assetName(c, e);
  push(c, &c->obj[K_HFIELD], o);  // before compiling, so that the unwind frees the data
  mjHFieldSpec spec = {0};
  const char* file = NULL;
  if (readStr(e, "file", &file)) o->file = spec.file = assetPath(c, c->meshdir, file);
  readStr(e, "content_type", &spec.contenttype);
  readInt(c, e, "nrow", &spec.nrow);
  readInt(c, e, "ncol", &spec.ncol);
  float* elev;
  spec.nelevation = readFloatList(c, e, "elevation", 1, &elev);
  spec.elevation = spec.nelevation ? elev : NULL;
  if (readNums(c, e, "size", spec.size, 4, 4) != 4) fail(c, e, "attribute 'size' is required");
  checkAttrs(c, e);
  if (e->nchild) fail(c, e->child[0], "unknown element in hfield");
  char msg[512];
  if (mj_hfieldCompile(&spec, &o->hfield, msg, sizeof(msg))) fail(c, e, "%s", msg);
}

// a <skin>: from an SKN file or inline vertex, texcoord, face and <bone> data; bone bodies are
// resolved when the model is filled
static void addSkin(Ctx* c, const mjXNode* e) {
  Obj* o = alloc(c, sizeof(Obj));
  o->h.e = e;
  o->h.name = assetName(c, e);
  push(c, &c->obj[K_SKIN], o);  // before reading, so that the unwind frees the skin
  o->rgba[0] = o->rgba[1] = o->rgba[2] = 0.5f;
  o->rgba[3] = 1;
  readFloats(c, e, "rgba", o->rgba, 4);
  readFloats(c, e, "inflate", &o->inflate, 1);
  readInt(c, e, "group", &o->group);
  readStr(e, "material", &o->mat.texture);  // the material's name, resolved when filling
  const char* file = NULL;
  char msg[512];
  if (readStr(e, "file", &file)) {
    o->file = assetPath(c, c->meshdir, file);
    if (mj_skinReadSKN(o->file, &o->skin, msg, sizeof(msg))) fail(c, e, "%s", msg);
    checkAttrs(c, e);
    if (e->nchild) fail(c, e->child[0], "a skin from a file has no bone elements");
    if (mj_skinNormalize(&o->skin)) fail(c, e, "out of memory");
    return;
  }
  // inline: the mesh from attributes, one <bone> child per bone
  float *vert, *texcoord;
  double* face = NULL;
  int nvert = readFloatList(c, e, "vertex", 3, &vert);
  int ntex = readFloatList(c, e, "texcoord", 2, &texcoord);
  int nface = readList(c, e, "face", &face);
  if (nface % 3) fail(c, e, "attribute 'face': the count of numbers must be a multiple of 3");
  checkAttrs(c, e);
  double** id = alloc(c, sizeof(double*) * (e->nchild + 1));
  float** weight = alloc(c, sizeof(float*) * (e->nchild + 1));
  int* count = alloc(c, sizeof(int) * (e->nchild + 1));
  int nbonevert = 0;
  for (int b = 0; b < e->nchild; b++) {
    const mjXNode* ch = e->child[b];
    if (strcmp(ch->name, "bone")) fail(c, ch, "unknown element in skin");
    count[b] = readList(c, ch, "vertid", &id[b]);
    if (readFloatList(c, ch, "vertweight", 1, &weight[b]) != count[b])
      fail(c, ch, "vertid and vertweight must have the same length");
    nbonevert += count[b];
  }
  if (mj_skinAlloc(&o->skin, nvert, ntex, nface / 3, e->nchild, nbonevert))
    fail(c, e, "out of memory");
  mjSkin* s = &o->skin;
  memcpy(s->vert, vert, sizeof(float) * 3 * nvert);
  memcpy(s->texcoord, texcoord, sizeof(float) * 2 * ntex);
  for (int i = 0; i < nface; i++) s->face[i] = face[i] == floor(face[i]) ? (int)face[i] : -1;
  int adr = 0;
  for (int b = 0; b < e->nchild; b++) {
    const mjXNode* ch = e->child[b];
    const char* body = NULL;
    if (!readStr(ch, "body", &body)) fail(c, ch, "bone needs a body");
    snprintf(s->bonename[b], sizeof(s->bonename[b]), "%s", body);
    if (!readFloats(c, ch, "bindpos", s->bindpos + 3 * b, 3) ||
        !readFloats(c, ch, "bindquat", s->bindquat + 4 * b, 4))
      fail(c, ch, "bone needs bindpos and bindquat");
    checkAttrs(c, ch);
    s->bonevertadr[b] = adr;
    s->bonevertnum[b] = count[b];
    for (int k = 0; k < count[b]; k++, adr++) {
      s->vertid[adr] = id[b][k] == floor(id[b][k]) && fabs(id[b][k]) < 2e9 ? (int)id[b][k] : -1;
      s->vertweight[adr] = weight[b][k];
    }
  }
  if (mj_skinCheck(s, msg, sizeof(msg))) fail(c, e, "%s", msg);
  if (mj_skinNormalize(s)) fail(c, e, "out of memory");
}

// a <texture>: its attributes (files under texturedir) and its pixels, built now because the
// model's size needs them
static void addTexture(Ctx* c, const mjXNode* e) {
  static const char* const types[] = {"2d", "cube", "skybox", NULL};
  static const char* const builtins[] = {"none", "gradient", "checker", "flat", NULL};
  static const char* const marks[] = {"none", "edge", "cross", "random", NULL};
  static const char* const spaces[] = {"auto", "linear", "sRGB", NULL};
  static const char* const sides[] = {"fileright", "fileleft", "fileup", "filedown",
                                      "filefront", "fileback"};
  Obj* o = alloc(c, sizeof(Obj));
  o->h.e = e;
  o->h.name = assetName(c, e);
  push(c, &c->obj[K_TEX], o);
  mjTextureSpec* s = &o->texspec;
  mj_defaultTextureSpec(s);
  readKey(c, e, "type", types, &s->type);
  readKey(c, e, "builtin", builtins, &s->builtin);
  readKey(c, e, "mark", marks, &s->mark);
  readKey(c, e, "colorspace", spaces, &s->colorspace);
  readVec(c, e, "rgb1", s->rgb1, 3);
  readVec(c, e, "rgb2", s->rgb2, 3);
  readVec(c, e, "markrgb", s->markrgb, 3);
  readVec(c, e, "random", &s->random, 1);
  readInt(c, e, "width", &s->width);
  readInt(c, e, "height", &s->height);
  readInt(c, e, "nchannel", &s->nchannel);
  readBool(c, e, "hflip", &s->hflip);
  readBool(c, e, "vflip", &s->vflip);
  // the grid: two integers, a layout of one symbol per cell
  double grid[2] = {1, 1};
  if (readNums(c, e, "gridsize", grid, 2, 2))
    s->gridsize[0] = (int)grid[0], s->gridsize[1] = (int)grid[1];
  const char *layout = NULL, *file = NULL;
  if (readStr(e, "gridlayout", &layout)) {
    if (strlen(layout) > 12) fail(c, e, "gridlayout has more than 12 symbols");
    if ((int)strlen(layout) != s->gridsize[0] * s->gridsize[1])
      fail(c, e, "gridlayout has %d symbols, gridsize %d x %d cells", (int)strlen(layout),
           s->gridsize[0], s->gridsize[1]);
    memcpy(s->gridlayout, layout, strlen(layout));
  }
  if (readStr(e, "file", &file)) o->file = s->file = assetPath(c, c->texturedir, file);
  for (int k = 0; k < 6; k++)
    if (readStr(e, sides[k], &file)) s->cubefiles[k] = assetPath(c, c->texturedir, file);
  ignoreAttrs(e, "name content_type");
  checkAttrs(c, e);
  if (e->nchild) fail(c, e->child[0], "unknown element in texture");
  if (!o->h.name && s->type != mjTEXTURE_SKYBOX)
    fail(c, e, "texture needs a name (a texture from one file takes the file's)");
  o->type = s->type;
  char msg[512];
  mjTexture t;
  if (mj_makeTexture(s, &t, msg, sizeof(msg))) fail(c, e, "%s", msg);
  // the pixels move into the arena (so that a later failure frees them)
  size_t n = (size_t)t.width * t.height * t.nchannel;
  o->tex = t;
  o->tex.data = alloc(c, n);
  memcpy(o->tex.data, t.data, n);
  free(t.data);
}
// <deformable>: skins (flexes are not supported)
static void readDeformable(Ctx* c, const mjXNode* e) {
  checkAttrs(c, e);
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* a = e->child[i];
    if (!strcmp(a->name, "skin")) addSkin(c, a);
    else if (!strcmp(a->name, "flex")) fail(c, a, "flex is not supported yet");
    else fail(c, a, "unknown element in deformable");
  }
}

// <asset>: meshes, skins, height fields, textures and materials
static void readAssets(Ctx* c, const mjXNode* e) {
  checkAttrs(c, e);
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* a = e->child[i];
    if (!strcmp(a->name, "mesh")) {
      addMesh(c, a);
    } else if (!strcmp(a->name, "hfield")) {
      addHfield(c, a);
    } else if (!strcmp(a->name, "skin")) {
      addSkin(c, a);
    } else if (!strcmp(a->name, "texture")) {
      addTexture(c, a);
    } else if (!strcmp(a->name, "material")) {
      Obj* o = alloc(c, sizeof(Obj));
      o->h.e = a;
      o->h.name = getAttr(a, "name");
      o->mat = elemClass(c, a, c->classes.p[0])->mat;
      readMaterial(c, a, &o->mat);
      checkAttrs(c, a);
      if (a->nchild) fail(c, a->child[0], "material layers are not supported yet");
      push(c, &c->obj[K_MAT], o);
    } else {
      fail(c, a, "unknown element in asset");
    }
  }
}

// ---- the body tree -----------------------------------------------------------------------------

// a frame inside a body: its pose in the body frame, the class its children default to and
// the suffix <replicate> appends to their names ("" outside replicates)
typedef struct {
  double pos[3], quat[4];
  const Default* cls;
  const char* suffix;
} Frame;

// the name of an element under frame f: its own with the frame's suffix (NULL when unnamed)
static const char* frameName(Ctx* c, const Frame* f, const char* name) {
  if (!name || !f->suffix[0]) return name;
  size_t n = strlen(name) + strlen(f->suffix) + 1;
  char* s = alloc(c, n);
  snprintf(s, n, "%s%s", name, f->suffix);
  return s;
}

// (pos, quat) = frame * (pos, quat)
static void applyFrame(const Frame* f, double pos[3], double quat[4]) {
  mju_mulPose(pos, quat, f->pos, f->quat, pos, quat);
}

// the local pose of an element with pos, orientation and optionally fromto: the segment's
// midpoint with +z along from - to, and half its length into size[lenidx]
static void elemPose(Ctx* c, const mjXNode* e, const double spos[3], const Orient* o,
                     int hasfromto, const double ft[6], double* size, int lenidx,
                     double pos[3], double quat[4]) {
  if (hasfromto) {
    double d[3] = {ft[0] - ft[3], ft[1] - ft[4], ft[2] - ft[5]};
    for (int i = 0; i < 3; i++) pos[i] = 0.5 * (ft[i] + ft[i + 3]);
    double len = mju_norm3(d);
    if (len < mjMINVAL) fail(c, e, "fromto points coincide");
    mju_quatZ2Vec(quat, d);
    size[lenidx] = 0.5 * len;
    if (lenidx == 2) size[1] = size[0];  // box, ellipsoid: a square cross-section
  } else {
    mju_copy3(pos, spos);
    orientQuat(c, e, o, quat);
  }
}

// the size index that fromto sets for geom type t; -1 when fromto is not allowed
static int fromtoIndex(int t) {
  if (t == mjGEOM_CAPSULE || t == mjGEOM_CYLINDER) return 1;
  if (t == mjGEOM_BOX || t == mjGEOM_ELLIPSOID) return 2;
  return -1;
}

// the size of primitive geom type t fitted to mesh `me`: to its bounding box (fitaabb) or to
// its equivalent-inertia box, scaled by fitscale
static void fitGeom(Ctx* c, const mjXNode* e, const mjMesh* me, int t, double scale,
                    double size[3]) {
  double box[3];  // half-sizes of the box fitted to the mesh
  if (c->fitaabb) {
    mju_copy3(box, me->aabb + 3);
  } else {
    // a box of the mesh's volume and principal inertia: I0 = V (b1^2 + b2^2) / 3 for half
    // sizes b, so b0^2 = 3 (I1 + I2 - I0) / (2 V)
    const double* I = me->inertia;
    if (me->volume < mjMINVAL) fail(c, e, "mesh has no volume to fit a primitive to");
    for (int k = 0; k < 3; k++)
      box[k] = sqrt(fmax(0, 3 * (I[(k + 1) % 3] + I[(k + 2) % 3] - I[k]) / (2 * me->volume)));
  }
  switch (t) {
    case mjGEOM_SPHERE: size[0] = (box[0] + box[1] + box[2]) / 3; break;
    case mjGEOM_CAPSULE:
    case mjGEOM_CYLINDER:
      // radius from the x, y half sizes, half length along z (less the caps for a capsule)
      size[0] = (box[0] + box[1]) / 2;
      size[1] = t == mjGEOM_CAPSULE ? fmax(0, box[2] - size[0] / 2) : box[2];
      break;
    case mjGEOM_ELLIPSOID:
    case mjGEOM_BOX: mju_copy3(size, box); break;
    default: fail(c, e, "a geom of this type cannot be fitted to a mesh");
  }
  mju_scl3(size, size, scale);
}

// a geom naming a mesh: a mesh geom takes the mesh frame (pose = geom pose * mesh frame),
// a primitive is fitted to the mesh in that frame
static void meshGeom(Ctx* c, const mjXNode* e, Item* it) {
  GeomSpec* s = &it->s.geom;
  int id = mapFind(&c->names[K_MESH], s->mesh);
  if (id < 0) fail(c, e, "unknown mesh '%s'", s->mesh);
  const mjMesh* me = &((Obj*)c->obj[K_MESH].p[id])->mesh;
  s->dataid = id;
  if (s->contype || s->conaffinity) ((Obj*)c->obj[K_MESH].p[id])->keepgraph = 1;
  double off[3];
  mju_rotVecQuat(off, me->pos, it->quat);
  mju_addTo3(it->pos, off);
  mju_mulQuat(it->quat, it->quat, me->quat);
  if (s->type != mjGEOM_MESH) fitGeom(c, e, me, s->type, s->fitscale, s->size);
}

// a height field geom: its hfield's id, and the geom size from the hfield's
static void hfieldGeom(Ctx* c, const mjXNode* e, GeomSpec* s) {
  if (!s->hfield) fail(c, e, "hfield geom needs an hfield");
  s->dataid = mapFind(&c->names[K_HFIELD], s->hfield);
  if (s->dataid < 0) fail(c, e, "unknown hfield '%s'", s->hfield);
  mjtNum rbound, aabb[6];
  mj_hfieldGeomBound(((Obj*)c->obj[K_HFIELD].p[s->dataid])->hfield.size, s->size, &rbound, aabb);
}

// a joint, geom, site, camera or light of body `body` under frame f
static void addItem(Ctx* c, int kind, const mjXNode* e, int body, const Frame* f) {
  Item* it = alloc(c, sizeof(Item));
  it->h.e = e;
  it->body = body;
  it->freejoint = !strcmp(e->name, "freejoint");
  const Default* cls = it->freejoint ? NULL : elemClass(c, e, f->cls);
  readStr(e, "name", &it->h.name);
  it->h.name = frameName(c, f, it->h.name);
  mju_unit4(it->quat);
  switch (kind) {
    case K_JOINT: {
      JointSpec* s = &it->s.joint;
      if (it->freejoint) {
        // a free joint takes no class defaults
        Default builtin;
        builtinDefaults(&builtin);
        *s = builtin.joint;
        s->type = mjJNT_FREE;
        readInt(c, e, "group", &s->group);
        ignoreAttrs(e, "align");
      } else {
        *s = cls->joint;
        readJoint(c, e, s);
      }
      if (body == 0) fail(c, e, "joints cannot be attached to the world body");
      // anchor and axis in the body frame
      mju_copy3(it->pos, s->pos);
      mju_rotVecQuat(s->axis, s->axis, f->quat);
      mju_copy4(it->quat, f->quat);
      applyFrame(f, it->pos, it->quat);
      if ((s->type == mjJNT_HINGE || s->type == mjJNT_SLIDE) && mju_norm3(s->axis) < mjMINVAL)
        fail(c, e, "axis has zero norm");
      mju_normalize3(s->axis);
      break;
    }
    case K_GEOM: {
      GeomSpec* s = &it->s.geom;
      *s = cls->geom;
      readGeom(c, e, s);
      if (s->type == mjGEOM_SDF) fail(c, e, "sdf geometry is not supported yet");
      if (s->type == mjGEOM_HFIELD) hfieldGeom(c, e, s);
      int k = fromtoIndex(s->type);
      if (s->hasfromto && k < 0) fail(c, e, "fromto requires capsule, cylinder, box or ellipsoid");
      elemPose(c, e, s->pos, &s->orient, s->hasfromto, s->fromto, s->size, k, it->pos, it->quat);
      applyFrame(f, it->pos, it->quat);
      if (s->type == mjGEOM_MESH && !s->mesh) fail(c, e, "mesh geom needs a mesh");
      if (s->mesh) meshGeom(c, e, it);
      // sizes the type uses must be positive (planes: non-negative)
      static const int nsize[] = {3, 0, 1, 2, 3, 2, 3, 0, 0};
      for (int i = 0; i < nsize[s->type]; i++) {
        if (s->type == mjGEOM_PLANE ? s->size[i] < 0 : s->size[i] <= 0)
          fail(c, e, "size %d must be positive", i);
      }
      if (s->hasmass && s->mass < 0) fail(c, e, "mass cannot be negative");
      if (!s->hasmass && s->density < 0) fail(c, e, "density cannot be negative");
      if (s->fluidshape) fail(c, e, "fluidshape=\"ellipsoid\" is not supported yet");
      break;
    }
    case K_SITE: {
      SiteSpec* s = &it->s.site;
      *s = cls->site;
      readSite(c, e, s);
      int k = fromtoIndex(s->type);
      if (s->hasfromto && k < 0) fail(c, e, "fromto requires capsule, cylinder, box or ellipsoid");
      elemPose(c, e, s->pos, &s->orient, s->hasfromto, s->fromto, s->size, k, it->pos, it->quat);
      applyFrame(f, it->pos, it->quat);
      break;
    }
    case K_CAM: {
      CamSpec* s = &it->s.cam;
      *s = cls->cam;
      readCamera(c, e, s);
      mju_copy3(it->pos, s->pos);
      orientQuat(c, e, &s->orient, it->quat);
      applyFrame(f, it->pos, it->quat);
      break;
    }
    case K_LIGHT: {
      LightSpec* s = &it->s.light;
      *s = cls->light;
      readLight(c, e, s);
      mju_copy3(it->pos, s->pos);
      applyFrame(f, it->pos, it->quat);
      mju_rotVecQuat(s->dir, s->dir, f->quat);
      if (mju_norm3(s->dir) < mjMINVAL) fail(c, e, "dir has zero norm");
      mju_normalize3(s->dir);
      break;
    }
  }
  checkAttrs(c, e);
  if (e->nchild) fail(c, e->child[0], "unknown element in %s", e->name);
  // visual geoms are dropped when the compiler says so
  if (kind == K_GEOM && c->discardvisual && !it->s.geom.contype && !it->s.geom.conaffinity)
    return;
  push(c, &c->obj[kind], it);
}

// <inertial> of body b: mass and the principal frame of the given inertia
static void readInertial(Ctx* c, const mjXNode* e, Body* b) {
  if (b->hasinertial) fail(c, e, "a body has at most one inertial");
  b->hasinertial = 1;
  double pos[3] = {0, 0, 0}, diag[3] = {0, 0, 0}, full[6];
  Orient o = {0, {0}};
  readVec(c, e, "pos", pos, 3);
  readOrient(c, e, &o);
  if (!readVec(c, e, "mass", &b->mass, 1)) fail(c, e, "mass is required");
  if (b->mass < 0) fail(c, e, "mass cannot be negative");
  int hasdiag = readVec(c, e, "diaginertia", diag, 3);
  int hasfull = readVec(c, e, "fullinertia", full, 6);
  if (hasdiag && hasfull) fail(c, e, "diaginertia and fullinertia cannot both be given");
  if (!hasdiag && !hasfull) fail(c, e, "diaginertia or fullinertia is required");
  checkAttrs(c, e);
  mju_copy3(b->ipos, pos);
  orientQuat(c, e, &o, b->iquat);
  if (hasfull) {
    // principal axes of the full inertia, composed with the given orientation
    double q[4], t[4];
    if (mju_fullInertia(full, q, diag)) fail(c, e, "fullinertia is not positive definite");
    mju_mulQuat(t, b->iquat, q);
    mju_normalize4(t);
    mju_copy4(b->iquat, t);
  }
  for (int i = 0; i < 3; i++)
    if (diag[i] < 0) fail(c, e, "inertia cannot be negative");
  mju_copy3(b->inertia, diag);
}

static void walkBody(Ctx* c, const mjXNode* e, int body, const Frame* f);

// a <body> under body `parent` and frame f, then its contents
static void addBody(Ctx* c, const mjXNode* e, int parent, const Frame* f) {
  Body* b = alloc(c, sizeof(Body));
  b->h.e = e;
  readStr(e, "name", &b->h.name);
  b->h.name = frameName(c, f, b->h.name);
  b->parent = parent;
  b->id = c->obj[K_BODY].n;
  push(c, &c->obj[K_BODY], b);
  // the class of the body's children: its childclass, else the inherited one
  Frame inner = {{0, 0, 0}, {1, 0, 0, 0}, f->cls, f->suffix};
  const char* cc = getAttr(e, "childclass");
  if (cc) inner.cls = findClass(c, e, cc);
  // pose in the parent frame
  Orient o = {0, {0}};
  readVec(c, e, "pos", b->pos, 3);
  readOrient(c, e, &o);
  orientQuat(c, e, &o, b->quat);
  applyFrame(f, b->pos, b->quat);
  readBool(c, e, "mocap", &b->mocap);
  readVec(c, e, "gravcomp", &b->gravcomp, 1);
  ignoreAttrs(e, "user");
  checkAttrs(c, e);
  if (b->mocap && parent != 0) fail(c, e, "mocap bodies must be children of the world body");
  mju_unit4(b->iquat);
  walkBody(c, e, b->id, &inner);
}

// <replicate>: count copies of its children, copy i under f * T^i with T = (offset, the
// rotation of euler), names suffixed with sep and i zero-padded to the digits of count (an
// inner replicate's suffix before an outer one's)
static void replicate(Ctx* c, const mjXNode* e, int body, const Frame* f) {
  int count = 0;
  double offset[3] = {0, 0, 0};
  const char* sep = "";
  if (!readInt(c, e, "count", &count) || count < 1) fail(c, e, "count must be positive");
  readVec(c, e, "offset", offset, 3);
  readStr(e, "sep", &sep);
  Orient o = {0, {0}};
  readOrient(c, e, &o);
  double rot[4];
  orientQuat(c, e, &o, rot);
  checkAttrs(c, e);
  int digits = snprintf(NULL, 0, "%d", count);
  Frame g = *f;  // f * T^i, advanced by T after each copy
  for (int i = 0; i < count; i++) {
    size_t n = strlen(sep) + (size_t)digits + strlen(f->suffix) + 1;
    char* suffix = alloc(c, n);
    snprintf(suffix, n, "%s%0*d%s", sep, digits, i, f->suffix);
    g.suffix = suffix;
    walkBody(c, e, body, &g);
    mju_mulPose(g.pos, g.quat, g.pos, g.quat, offset, rot);
  }
}

// the children of a body (or frame) element e belonging to body `body`
static void walkBody(Ctx* c, const mjXNode* e, int body, const Frame* f) {
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* ch = e->child[i];
    const char* n = ch->name;
    if (!strcmp(n, "body")) addBody(c, ch, body, f);
    else if (!strcmp(n, "joint") || !strcmp(n, "freejoint")) addItem(c, K_JOINT, ch, body, f);
    else if (!strcmp(n, "geom")) addItem(c, K_GEOM, ch, body, f);
    else if (!strcmp(n, "site")) addItem(c, K_SITE, ch, body, f);
    else if (!strcmp(n, "camera")) addItem(c, K_CAM, ch, body, f);
    else if (!strcmp(n, "light")) addItem(c, K_LIGHT, ch, body, f);
    else if (!strcmp(n, "inertial") && !strcmp(e->name, "body"))
      readInertial(c, ch, c->obj[K_BODY].p[body]);
    else if (!strcmp(n, "frame")) {
      // a frame composes its pose onto f and may set the children's class
      Frame g = *f;
      Orient o = {0, {0}};
      double pos[3] = {0, 0, 0}, quat[4];
      readVec(c, ch, "pos", pos, 3);
      readOrient(c, ch, &o);
      orientQuat(c, ch, &o, quat);
      mju_mulPose(g.pos, g.quat, f->pos, f->quat, pos, quat);
      const char* cc = getAttr(ch, "childclass");
      if (cc) g.cls = findClass(c, ch, cc);
      ignoreAttrs(ch, "name");
      checkAttrs(c, ch);
      walkBody(c, ch, body, &g);
    } else if (!strcmp(n, "replicate")) {
      replicate(c, ch, body, f);
    } else if (!strcmp(n, "composite") || !strcmp(n, "flexcomp") || !strcmp(n, "attach") ||
               !strcmp(n, "plugin")) {
      fail(c, ch, "%s is not supported yet", n);
    } else {
      fail(c, ch, "unknown element in %s", e->name);
    }
  }
}

// ---- mass properties ---------------------------------------------------------------------------

// the mass part of geom g (mass, pos, quat, principal inertia in its body's frame) when it has
// mass and its group is in the inertia group range; returns 1 then, else 0
static int geomMass(Ctx* c, const Item* g, double* mass, double pos[3], double quat[4],
                    double inertia[3]) {
  const GeomSpec* s = &g->s.geom;
  if (s->group < c->igroup[0] || s->group > c->igroup[1]) return 0;
  // mass: given, else density * volume
  const mjMesh* me = s->type == mjGEOM_MESH ? &((Obj*)c->obj[K_MESH].p[s->dataid])->mesh : 0;
  double volume = me ? me->volume : mju_geomVolume(s->type, s->size);
  *mass = s->hasmass ? s->mass : s->density * volume;
  if (*mass < mjMINVAL) return 0;  // massless geoms do not count
  // a mesh's inertia per unit density scaled to its mass, in the mesh (= geom) frame
  if (me) mju_scl3(inertia, me->inertia, *mass / volume);
  else mju_geomInertia(s->type, s->size, *mass, inertia);
  mju_copy3(pos, g->pos);
  mju_copy4(quat, g->quat);
  return 1;
}


// add a mass part (mass, pos, quat, principal inertia; in b's frame) to body b's extras
static void addPart(Ctx* c, Body* b, double mass, const double pos[3], const double quat[4],
                    const double inertia[3]) {
  int n = b->nextra;
  double* v[4] = {b->xmass, b->xpos, b->xquat, b->xinertia};
  static const int width[4] = {1, 3, 4, 3};
  const double* add[4] = {&mass, pos, quat, inertia};
  // grow each array by one part (the arena keeps the old copies: parts are few)
  for (int k = 0; k < 4; k++) {
    double* w = alloc(c, sizeof(double) * width[k] * (n + 1));
    if (n) memcpy(w, v[k], sizeof(double) * width[k] * n);
    memcpy(w + width[k] * n, add[k], sizeof(double) * width[k]);
    v[k] = w;
  }
  b->xmass = v[0], b->xpos = v[1], b->xquat = v[2], b->xinertia = v[3];
  b->nextra = n + 1;
}

// the mass parts of body b: its <inertial> or its own geoms (as inertiafromgeom says), then the
// parts of the static bodies fused into it; returns their count, arrays from the arena
static int bodyParts(Ctx* c, const Body* b, double** mass, double** pos, double** quat,
                     double** inertia) {
  const Vec* geoms = &c->obj[K_GEOM];
  int cap = geoms->n + b->nextra + 1, n = 0;
  *mass = alloc(c, sizeof(double) * cap);
  *pos = alloc(c, sizeof(double) * 3 * cap);
  *quat = alloc(c, sizeof(double) * 4 * cap);
  *inertia = alloc(c, sizeof(double) * 3 * cap);
  // true: always from geoms; auto: unless <inertial>; false: only <inertial>
  int fromGeoms = c->inertiafromgeom == 1 || (c->inertiafromgeom == 2 && !b->hasinertial);
  if (fromGeoms) {
    for (int i = 0; i < geoms->n; i++) {
      const Item* g = geoms->p[i];
      if (g->body != b->id || g->fusedfrom) continue;
      n += geomMass(c, g, *mass + n, *pos + 3 * n, *quat + 4 * n, *inertia + 3 * n);
    }
  } else if (b->hasinertial) {
    (*mass)[0] = b->mass;
    mju_copy3(*pos, b->ipos);
    mju_copy4(*quat, b->iquat);
    mju_copy3(*inertia, b->inertia);
    n = 1;
  }
  memcpy(*mass + n, b->xmass, sizeof(double) * b->nextra);
  memcpy(*pos + 3 * n, b->xpos, sizeof(double) * 3 * b->nextra);
  memcpy(*quat + 4 * n, b->xquat, sizeof(double) * 4 * b->nextra);
  memcpy(*inertia + 3 * n, b->xinertia, sizeof(double) * 3 * b->nextra);
  return n + b->nextra;
}

// the total mass properties of n parts into b (one part keeps its own frame, as in MuJoCo)
static void combineParts(Body* b, int n, const double* mass, const double* pos,
                         const double* quat, const double* inertia) {
  b->mass = 0;
  mju_zero3(b->ipos);
  mju_unit4(b->iquat);
  mju_zero3(b->inertia);
  if (n == 1) {
    b->mass = mass[0];
    mju_copy3(b->ipos, pos);
    mju_copy4(b->iquat, quat);
    mju_copy3(b->inertia, inertia);
  } else if (n > 1) {
    mju_combineInertia(n, mass, pos, quat, inertia, &b->mass, b->ipos, b->iquat, b->inertia);
  }
}

// ---- fusestatic ---------------------------------------------------------------------------------

// the attributes that name a body elsewhere in the model
static const char* const bodyRefs[] = {"body", "body1", "body2", "objname", "refname", "target",
                                       NULL};

// 1 when some element of the tree at e (other than a <body>'s own name) names body `name`
static int bodyNamed(const mjXNode* e, const char* name) {
  for (int a = 0; a < e->nattr; a++)
    if (wordIndex(bodyRefs, e->attr[2 * a]) >= 0 && !strcmp(e->attr[2 * a + 1], name)) return 1;
  for (int i = 0; i < e->nchild; i++)
    if (bodyNamed(e->child[i], name)) return 1;
  return 0;
}

// 1 when skin bones name body `name`
static int skinNamed(Ctx* c, const char* name) {
  for (int i = 0; i < c->obj[K_SKIN].n; i++) {
    const mjSkin* sk = &((Obj*)c->obj[K_SKIN].p[i])->skin;
    for (int b = 0; b < sk->nbone; b++)
      if (!strcmp(sk->bonename[b], name)) return 1;
  }
  return 0;
}

// fusestatic: every body without joints, not a mocap body and not named elsewhere (by an
// attribute of bodyRefs or a skin bone) is merged into its parent, deepest first: its geoms and
// sites move to the parent with their poses composed, its child bodies become the parent's, and
// its mass properties join the parent's as one part; then the bodies are renumbered
static void fuseStatic(Ctx* c, const mjXNode* root) {
  Vec* bodies = &c->obj[K_BODY];
  int nbody = bodies->n;
  int* joints = alloc(c, sizeof(int) * nbody);
  for (int i = 0; i < c->obj[K_JOINT].n; i++) joints[((Item*)c->obj[K_JOINT].p[i])->body]++;
  for (int id = nbody - 1; id > 0; id--) {
    Body* b = bodies->p[id];
    if (joints[id] || b->mocap ||
        (b->h.name && (bodyNamed(root, b->h.name) || skinNamed(c, b->h.name))))
      continue;
    Body* p = bodies->p[b->parent];
    // cameras and lights cannot move to the parent (MuJoCo refuses them too)
    for (int k = K_CAM; k <= K_LIGHT; k++)
      for (int i = 0; i < c->obj[k].n; i++)
        if (((Item*)c->obj[k].p[i])->body == id)
          fail(c, ((Item*)c->obj[k].p[i])->h.e, "fusestatic: a static body with a %s cannot "
               "be fused", kindWord[k]);
    // its mass properties as one part of the parent
    double *mass, *pos, *quat, *inertia;
    int n = bodyParts(c, b, &mass, &pos, &quat, &inertia);
    Body whole = {0};
    combineParts(&whole, n, mass, pos, quat, inertia);
    if (whole.mass > 0) {
      // the part at b's position plus its own inertial frame, not turned by b's orientation:
      // MuJoCo places it so (exact only for static bodies not rotated in their parent)
      double ppos[3];
      mju_add3(ppos, b->pos, whole.ipos);
      addPart(c, p, whole.mass, ppos, whole.iquat, whole.inertia);
    }
    // geoms and sites move with their poses composed
    for (int k = K_GEOM; k <= K_SITE; k++) {
      for (int i = 0; i < c->obj[k].n; i++) {
        Item* it = c->obj[k].p[i];
        if (it->body != id) continue;
        mju_mulPose(it->pos, it->quat, b->pos, b->quat, it->pos, it->quat);
        it->body = b->parent;
        if (!it->fusedfrom) it->fusedfrom = id;
      }
    }
    // children follow
    for (int i = id + 1; i < nbody; i++) {
      Body* ch = bodies->p[i];
      if (ch->fused || ch->parent != id) continue;
      mju_mulPose(ch->pos, ch->quat, b->pos, b->quat, ch->pos, ch->quat);
      ch->parent = b->parent;
    }
    b->fused = 1;
  }
  // renumber: the kept bodies in order, every body reference remapped
  int* newid = alloc(c, sizeof(int) * nbody);
  int kept = 0;
  for (int id = 0; id < nbody; id++) {
    Body* b = bodies->p[id];
    newid[id] = b->fused ? -1 : kept;
    if (!b->fused) bodies->p[kept++] = b;
  }
  bodies->n = kept;
  for (int id = 0; id < kept; id++) {
    Body* b = bodies->p[id];
    b->id = id;
    b->parent = id ? newid[b->parent] : 0;
  }
  for (int k = K_JOINT; k <= K_LIGHT; k++)
    for (int i = 0; i < c->obj[k].n; i++) {
      Item* it = c->obj[k].p[i];
      it->body = newid[it->body];
    }
}

// ---- ordering and kinematics of the collected tree --------------------------------------------

// stable counting sort of the items of vector v by key(item) in [0, nkey)
static void sortItems(Ctx* c, Vec* v, int nkey, int (*key)(const Item*)) {
  int* start = alloc(c, sizeof(int) * (nkey + 1));
  for (int i = 0; i < v->n; i++) start[key(v->p[i]) + 1]++;
  for (int b = 0; b < nkey; b++) start[b + 1] += start[b];
  void** sorted = alloc(c, sizeof(void*) * (v->n + 1));
  for (int i = 0; i < v->n; i++) sorted[start[key(v->p[i])]++] = v->p[i];
  v->p = sorted;
  v->cap = v->n + 1;
}

// sort keys: the item's body, and the body it was fused from
static int bodyKey(const Item* it) { return it->body; }
static int fusedKey(const Item* it) { return it->fusedfrom; }

// the items of kind k in model order: by body, a body's own items in document order, then
// those of the static bodies fused into it in body order (as MuJoCo appends them)
static void sortByBody(Ctx* c, int k, int nfused) {
  sortItems(c, &c->obj[k], nfused, fusedKey);
  sortItems(c, &c->obj[k], c->obj[K_BODY].n, bodyKey);
}

// the bodies' world poses in the model configuration (qpos0): xpos, xquat (nbody x 3, 4)
static void bodyWorld(Ctx* c, double* xpos, double* xquat) {
  mju_zero3(xpos);
  mju_unit4(xquat);
  for (int b = 1; b < c->obj[K_BODY].n; b++) {
    const Body* bd = c->obj[K_BODY].p[b];
    mju_mulPose(xpos + 3 * b, xquat + 4 * b, xpos + 3 * bd->parent, xquat + 4 * bd->parent,
                bd->pos, bd->quat);
  }
}

// a top-level object record for element e with the given class
static Obj* newObj(Ctx* c, int kind, const mjXNode* e) {
  Obj* o = alloc(c, sizeof(Obj));
  o->h.e = e;
  readStr(e, "name", &o->h.name);
  push(c, &c->obj[kind], o);
  return o;
}

// id of the object of kind k named by attribute `attr` of e; -1 when absent (or an error when
// `required`)
static int refId(Ctx* c, const mjXNode* e, int k, const char* attr, int required) {
  const char* name = getAttr(e, attr);
  if (!name) {
    if (required) fail(c, e, "attribute '%s' is required", attr);
    return -1;
  }
  return findId(c, e, k, name, attr);
}

// body id of geom g
static int geomBody(Ctx* c, int g) { return ((Item*)c->obj[K_GEOM].p[g])->body; }

// <contact>: explicit pairs (sorted by body signature) and excluded body pairs
static void readContact(Ctx* c, const mjXNode* e) {
  checkAttrs(c, e);
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* ch = e->child[i];
    if (!strcmp(ch->name, "pair")) {
      Obj* o = newObj(c, K_PAIR, ch);
      o->pair = elemClass(c, ch, c->classes.p[0])->pair;
      readPair(c, ch, &o->pair);
      // geom1 on the lower body id; signature = body1 << 16 + body2
      int g1 = refId(c, ch, K_GEOM, "geom1", 1), g2 = refId(c, ch, K_GEOM, "geom2", 1);
      if (geomBody(c, g1) > geomBody(c, g2)) {
        int t = g1;
        g1 = g2;
        g2 = t;
      }
      o->id[0] = g1;
      o->id[1] = g2;
      o->type = (geomBody(c, g1) << 16) + geomBody(c, g2);
    } else if (!strcmp(ch->name, "exclude")) {
      Obj* o = newObj(c, K_EXCLUDE, ch);
      int b1 = refId(c, ch, K_BODY, "body1", 1), b2 = refId(c, ch, K_BODY, "body2", 1);
      o->type = b1 < b2 ? (b1 << 16) + b2 : (b2 << 16) + b1;
    } else {
      fail(c, ch, "unknown element in contact");
    }
    checkAttrs(c, ch);
  }
}

// sort pairs or excludes by signature, stable (insertion sort: the lists are short)
static void sortSignatures(Ctx* c, int k) {
  Vec* v = &c->obj[k];
  for (int i = 1; i < v->n; i++) {
    void* p = v->p[i];
    int j = i;
    for (; j > 0 && ((Obj*)v->p[j - 1])->type > ((Obj*)p)->type; j--) v->p[j] = v->p[j - 1];
    v->p[j] = p;
  }
}

// <equality>: connect, weld, joint, tendon with MuJoCo's eq_data layout
static void readEqualities(Ctx* c, const mjXNode* e, const double* xpos, const double* xquat) {
  static const char* const types[] = {"connect", "weld", "joint", "tendon", NULL};
  checkAttrs(c, e);
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* ch = e->child[i];
    int type = wordIndex(types, ch->name);
    if (type < 0) fail(c, ch, "unknown or unsupported element in equality");
    Obj* o = newObj(c, K_EQ, ch);
    o->type = type;
    o->eq = elemClass(c, ch, c->classes.p[0])->eq;
    readEquality(c, ch, &o->eq);
    double* d = o->data;
    d[10] = 1;
    if (type == mjEQ_CONNECT || type == mjEQ_WELD) {
      if (getAttr(ch, "site1") || getAttr(ch, "site2"))
        fail(c, ch, "site-based equality constraints are not supported yet");
      o->objtype = mjOBJ_BODY;
      int b1 = refId(c, ch, K_BODY, "body1", 1), b2 = refId(c, ch, K_BODY, "body2", 0);
      if (b2 < 0) b2 = 0;
      o->id[0] = b1;
      o->id[1] = b2;
      double anchor[3] = {0, 0, 0}, p[3], q[4], ip[3], iq[4];
      if (type == mjEQ_CONNECT && !readVec(c, ch, "anchor", anchor, 3))
        fail(c, ch, "attribute 'anchor' is required");
      if (type == mjEQ_WELD) readVec(c, ch, "anchor", anchor, 3);
      mju_copy3(d, anchor);
      // pose of body1 relative to body2 at qpos0: inv(x2) * x1
      mju_negPose(ip, iq, xpos + 3 * b2, xquat + 4 * b2);
      mju_mulPose(p, q, ip, iq, xpos + 3 * b1, xquat + 4 * b1);
      if (type == mjEQ_CONNECT) {
        // data[3:6] = the anchor in body2's frame
        double a[3];
        mju_rotVecQuat(a, anchor, q);
        mju_add3(d + 3, a, p);
      } else {
        // data[3:10] = relpose of body2 in body1's frame, from qpos0 unless given
        double rel[7] = {0, 1, 0, 0, 0, 0, 0};
        readVec(c, ch, "relpose", rel, 7);
        if (mju_norm(rel + 3, 4) < mjMINVAL) {
          mju_negPose(d + 3, d + 6, p, q);
        } else {
          mju_copy3(d + 3, rel);
          mju_copy4(d + 6, rel + 3);
          mju_normalize4(d + 6);
        }
        readVec(c, ch, "torquescale", d + 10, 1);
      }
    } else {
      // joint or tendon coupling: polycoef, default (0, 1, 0, 0, 0)
      int k = type == mjEQ_JOINT ? K_JOINT : K_TENDON;
      const char* a1 = k == K_JOINT ? "joint1" : "tendon1";
      const char* a2 = k == K_JOINT ? "joint2" : "tendon2";
      o->objtype = mjOBJ_UNKNOWN;  // MuJoCo records an object type only for body/site pairs
      o->id[0] = refId(c, ch, k, a1, 1);
      o->id[1] = refId(c, ch, k, a2, 0);
      d[1] = 1;
      readNums(c, ch, "polycoef", d, 1, 5);
    }
    checkAttrs(c, ch);
  }
}

// a new wrap of tendon o
static void addWrap(Ctx* c, Obj* o, int type, int objid, double prm) {
  Wrap* w = alloc(c, sizeof(Wrap));
  w->type = type;
  w->objid = objid;
  w->prm = prm;
  push(c, &c->obj[K_WRAP], w);
  o->nwrap++;
}

// <tendon>: fixed (joints with coefficients) and spatial (sites, wrapping geoms, pulleys)
static void readTendons(Ctx* c, const mjXNode* e) {
  checkAttrs(c, e);
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* ch = e->child[i];
    int spatial = !strcmp(ch->name, "spatial");
    if (!spatial && strcmp(ch->name, "fixed")) fail(c, ch, "unknown element in tendon");
    Obj* o = newObj(c, K_TENDON, ch);
    o->type = spatial;
    o->tendon = elemClass(c, ch, c->classes.p[0])->tendon;
    readTendon(c, ch, &o->tendon);
    checkAttrs(c, ch);
    o->wrapadr = c->obj[K_WRAP].n;
    for (int j = 0; j < ch->nchild; j++) {
      const mjXNode* w = ch->child[j];
      if (!spatial && !strcmp(w->name, "joint")) {
        double coef = 1;
        int jid = refId(c, w, K_JOINT, "joint", 1);
        readVec(c, w, "coef", &coef, 1);
        addWrap(c, o, mjWRAP_JOINT, jid, coef);
      } else if (spatial && !strcmp(w->name, "site")) {
        addWrap(c, o, mjWRAP_SITE, refId(c, w, K_SITE, "site", 1), 0);
      } else if (spatial && !strcmp(w->name, "geom")) {
        int g = refId(c, w, K_GEOM, "geom", 1);
        int side = refId(c, w, K_SITE, "sidesite", 0);
        int t = ((Item*)c->obj[K_GEOM].p[g])->s.geom.type;
        if (t != mjGEOM_SPHERE && t != mjGEOM_CYLINDER)
          fail(c, w, "wrapping geom must be a sphere or a cylinder");
        addWrap(c, o, t == mjGEOM_SPHERE ? mjWRAP_SPHERE : mjWRAP_CYLINDER, g, side);
      } else if (spatial && !strcmp(w->name, "pulley")) {
        double div = 0;
        if (!readVec(c, w, "divisor", &div, 1) || div <= 0)
          fail(c, w, "divisor must be positive");
        addWrap(c, o, mjWRAP_PULLEY, -1, div);
      } else {
        fail(c, w, "unknown element in %s tendon", ch->name);
      }
      checkAttrs(c, w);
    }
    if (!o->nwrap) fail(c, ch, "tendon has no path elements");
    if (spatial) {
      // a spatial path starts and ends at sites; a geom sits between two sites
      const Wrap* const* wr = (const Wrap* const*)c->obj[K_WRAP].p + o->wrapadr;
      if (wr[0]->type != mjWRAP_SITE || wr[o->nwrap - 1]->type != mjWRAP_SITE)
        fail(c, ch, "spatial tendon path must start and end at a site");
      for (int j = 1; j < o->nwrap - 1; j++) {
        int t = wr[j]->type;
        if ((t == mjWRAP_SPHERE || t == mjWRAP_CYLINDER) &&
            (wr[j - 1]->type != mjWRAP_SITE || wr[j + 1]->type != mjWRAP_SITE))
          fail(c, ch, "a wrapping geom must be between two sites");
        if ((t == mjWRAP_SPHERE || t == mjWRAP_CYLINDER) && o->tendon.armature != 0)
          fail(c, ch, "geom wrapping not supported by tendon armature");
      }
    }
  }
}

// <actuator>: each shortcut expanded over its class default, with one transmission target
static void readActuators(Ctx* c, const mjXNode* e) {
  checkAttrs(c, e);
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* ch = e->child[i];
    int kind = wordIndex(actKinds, ch->name);
    if (kind < 0) fail(c, ch, "unknown or unsupported element in actuator");
    Obj* o = newObj(c, K_ACT, ch);
    o->act = elemClass(c, ch, c->classes.p[0])->act;
    readActuator(c, ch, &o->act, kind);
    // the transmission: exactly one target kind
    static const char* const targets[] = {"joint", "jointinparent", "tendon", "site", "body",
                                          "cranksite"};
    static const int trn[] = {mjTRN_JOINT, mjTRN_JOINTINPARENT, mjTRN_TENDON, mjTRN_SITE,
                              mjTRN_BODY, mjTRN_SLIDERCRANK};
    static const int kinds[] = {K_JOINT, K_JOINT, K_TENDON, K_SITE, K_BODY, K_SITE};
    int n = 0;
    o->id[1] = -1;
    for (int t = 0; t < 6; t++) {
      int id = refId(c, ch, kinds[t], targets[t], 0);
      if (id < 0) continue;
      n++;
      o->type = trn[t];
      o->id[0] = id;
    }
    if (n != 1) fail(c, ch, "actuator needs exactly one transmission target");
    if (kind == A_ADHESION && o->type != mjTRN_BODY) fail(c, ch, "adhesion needs a body");
    // second ids: the reference site, or the slider site of a slider-crank
    int ref = refId(c, ch, K_SITE, "refsite", 0);
    if (ref >= 0 && o->type != mjTRN_SITE) fail(c, ch, "refsite requires a site transmission");
    int slider = refId(c, ch, K_SITE, "slidersite", 0);
    if ((slider >= 0) != (o->type == mjTRN_SLIDERCRANK))
      fail(c, ch, "cranksite and slidersite go together");
    if (ref >= 0) o->id[1] = ref;
    if (slider >= 0) o->id[1] = slider;
    checkAttrs(c, ch);
  }
}

// one sensor type: element name, object attribute and kind, dim, datatype, stage
typedef struct {
  const char* name;
  const char* attr;   // object attribute; NULL: objtype/objname or none
  int kind, dim, datatype, stage;
} SensorType;

static const SensorType sensorTypes[] = {
  {"touch", "site", K_SITE, 1, mjDATATYPE_POSITIVE, mjSTAGE_ACC},
  {"accelerometer", "site", K_SITE, 3, 0, mjSTAGE_ACC},
  {"velocimeter", "site", K_SITE, 3, 0, mjSTAGE_VEL},
  {"gyro", "site", K_SITE, 3, 0, mjSTAGE_VEL},
  {"force", "site", K_SITE, 3, 0, mjSTAGE_ACC},
  {"torque", "site", K_SITE, 3, 0, mjSTAGE_ACC},
  {"magnetometer", "site", K_SITE, 3, 0, mjSTAGE_POS},
  {"rangefinder", "site", K_SITE, 1, 0, mjSTAGE_POS},
  {"camprojection", "site", K_SITE, 2, 0, mjSTAGE_POS},
  {"jointpos", "joint", K_JOINT, 1, 0, mjSTAGE_POS},
  {"jointvel", "joint", K_JOINT, 1, 0, mjSTAGE_VEL},
  {"tendonpos", "tendon", K_TENDON, 1, 0, mjSTAGE_POS},
  {"tendonvel", "tendon", K_TENDON, 1, 0, mjSTAGE_VEL},
  {"actuatorpos", "actuator", K_ACT, 1, 0, mjSTAGE_POS},
  {"actuatorvel", "actuator", K_ACT, 1, 0, mjSTAGE_VEL},
  {"actuatorfrc", "actuator", K_ACT, 1, 0, mjSTAGE_ACC},
  {"jointactuatorfrc", "joint", K_JOINT, 1, 0, mjSTAGE_ACC},
  {"tendonactuatorfrc", "tendon", K_TENDON, 1, 0, mjSTAGE_ACC},
  {"ballquat", "joint", K_JOINT, 4, mjDATATYPE_QUATERNION, mjSTAGE_POS},
  {"ballangvel", "joint", K_JOINT, 3, 0, mjSTAGE_VEL},
  {"jointlimitpos", "joint", K_JOINT, 1, 0, mjSTAGE_POS},
  {"jointlimitvel", "joint", K_JOINT, 1, 0, mjSTAGE_VEL},
  {"jointlimitfrc", "joint", K_JOINT, 1, 0, mjSTAGE_ACC},
  {"tendonlimitpos", "tendon", K_TENDON, 1, 0, mjSTAGE_POS},
  {"tendonlimitvel", "tendon", K_TENDON, 1, 0, mjSTAGE_VEL},
  {"tendonlimitfrc", "tendon", K_TENDON, 1, 0, mjSTAGE_ACC},
  {"framepos", NULL, 0, 3, 0, mjSTAGE_POS},
  {"framequat", NULL, 0, 4, mjDATATYPE_QUATERNION, mjSTAGE_POS},
  {"framexaxis", NULL, 0, 3, mjDATATYPE_AXIS, mjSTAGE_POS},
  {"frameyaxis", NULL, 0, 3, mjDATATYPE_AXIS, mjSTAGE_POS},
  {"framezaxis", NULL, 0, 3, mjDATATYPE_AXIS, mjSTAGE_POS},
  {"framelinvel", NULL, 0, 3, 0, mjSTAGE_VEL},
  {"frameangvel", NULL, 0, 3, 0, mjSTAGE_VEL},
  {"framelinacc", NULL, 0, 3, 0, mjSTAGE_ACC},
  {"frameangacc", NULL, 0, 3, 0, mjSTAGE_ACC},
  {"subtreecom", "body", K_BODY, 3, 0, mjSTAGE_POS},
  {"subtreelinvel", "body", K_BODY, 3, 0, mjSTAGE_VEL},
  {"subtreeangmom", "body", K_BODY, 3, 0, mjSTAGE_VEL},
  {"insidesite", NULL, 0, 1, mjDATATYPE_POSITIVE, mjSTAGE_POS},
  {"distance", NULL, 0, 1, 0, mjSTAGE_POS},
  {"normal", NULL, 0, 3, mjDATATYPE_AXIS, mjSTAGE_POS},
  {"fromto", NULL, 0, 6, 0, mjSTAGE_POS},
  {"contact", NULL, 0, 0, 0, 0},
  {"e_potential", NULL, 0, 1, 0, mjSTAGE_POS},
  {"e_kinetic", NULL, 0, 1, 0, mjSTAGE_POS},
  {"clock", NULL, 0, 1, 0, mjSTAGE_POS},
};

// the kind and mjtObj of a frame-sensor object type keyword
static void frameObjType(Ctx* c, const mjXNode* e, const char* attr, int* kind, int* obj) {
  static const char* const words[] = {"body", "xbody", "geom", "site", "camera", NULL};
  static const int kinds[] = {K_BODY, K_BODY, K_GEOM, K_SITE, K_CAM};
  static const int objs[] = {mjOBJ_BODY, mjOBJ_XBODY, mjOBJ_GEOM, mjOBJ_SITE, mjOBJ_CAMERA};
  int t;
  if (!readKey(c, e, attr, words, &t)) fail(c, e, "attribute '%s' is required", attr);
  *kind = kinds[t];
  *obj = objs[t];
}

// the geom or body named by attribute geomN / bodyN (exactly one) of a distance-type sensor
static void geomOrBody(Ctx* c, const mjXNode* e, int n, int* objtype, int* id) {
  char ga[8] = "geom1", ba[8] = "body1";
  ga[4] = ba[4] = (char)('0' + n);
  int g = refId(c, e, K_GEOM, ga, 0), b = refId(c, e, K_BODY, ba, 0);
  if ((g >= 0) == (b >= 0)) fail(c, e, "exactly one of %s and %s is required", ga, ba);
  *objtype = g >= 0 ? mjOBJ_GEOM : mjOBJ_BODY;
  *id = g >= 0 ? g : b;
}

// <sensor>: type, object, reference, dim, datatype, stage, cutoff, noise
static void readSensors(Ctx* c, const mjXNode* e) {
  checkAttrs(c, e);
  int nt = (int)(sizeof(sensorTypes) / sizeof(sensorTypes[0]));
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* ch = e->child[i];
    int t = 0;
    while (t < nt && strcmp(sensorTypes[t].name, ch->name)) t++;
    if (t == nt || t == mjSENS_CONTACT) fail(c, ch, "unknown or unsupported sensor");
    const SensorType* st = &sensorTypes[t];
    Obj* o = newObj(c, K_SENSOR, ch);
    o->type = t;
    o->dim = st->dim;
    o->datatype = st->datatype;
    o->stage = st->stage;
    o->id[0] = o->id[1] = -1;
    readVec(c, ch, "cutoff", &o->cutoff, 1);
    readVec(c, ch, "noise", &o->noise, 1);
    ignoreAttrs(ch, "user");
    if (o->cutoff < 0) fail(c, ch, "cutoff cannot be negative");
    // rangefinders on a site measuring distance only (MuJoCo's camera rangefinders and its
    // other data fields need sensor_intprm, which the model does not hold)
    if (t == mjSENS_RANGEFINDER) {
      static const char* const dataWords[] = {"dist", NULL};
      int dw;
      if (getAttr(ch, "camera")) fail(c, ch, "camera rangefinders are not supported yet");
      readKey(c, ch, "data", dataWords, &dw);
    }
    if (st->attr) {
      // a single object named by its attribute
      static const int objOf[NKIND] = {
          [K_BODY] = mjOBJ_BODY, [K_JOINT] = mjOBJ_JOINT, [K_GEOM] = mjOBJ_GEOM,
          [K_SITE] = mjOBJ_SITE, [K_CAM] = mjOBJ_CAMERA, [K_TENDON] = mjOBJ_TENDON,
          [K_ACT] = mjOBJ_ACTUATOR};
      o->objtype = objOf[st->kind];
      o->id[0] = refId(c, ch, st->kind, st->attr, 1);
    } else if (t >= mjSENS_FRAMEPOS && t <= mjSENS_FRAMEANGACC) {
      // a frame of some object, optionally measured in the frame of another
      int k;
      frameObjType(c, ch, "objtype", &k, &o->objtype);
      o->id[0] = refId(c, ch, k, "objname", 1);
      if (getAttr(ch, "reftype") || getAttr(ch, "refname")) {
        frameObjType(c, ch, "reftype", &k, &o->reftype);
        o->id[1] = refId(c, ch, k, "refname", 1);
      }
    } else if (t == mjSENS_INSIDESITE) {
      int k;
      frameObjType(c, ch, "objtype", &k, &o->objtype);
      o->id[0] = refId(c, ch, k, "objname", 1);
      o->reftype = mjOBJ_SITE;
      o->id[1] = refId(c, ch, K_SITE, "site", 1);
    } else if (t >= mjSENS_GEOMDIST && t <= mjSENS_GEOMFROMTO) {
      geomOrBody(c, ch, 1, &o->objtype, &o->id[0]);
      geomOrBody(c, ch, 2, &o->reftype, &o->id[1]);
    }
    // the camera of a projection sensor is its reference
    if (t == mjSENS_CAMPROJECTION) {
      o->reftype = mjOBJ_CAMERA;
      o->id[1] = refId(c, ch, K_CAM, "camera", 1);
    }
    // joint and tendon sensors that need a particular joint type or limits
    if (st->kind == K_JOINT) {
      const Item* j = c->obj[K_JOINT].p[o->id[0]];
      int jt = j->s.joint.type;
      int ball = t == mjSENS_BALLQUAT || t == mjSENS_BALLANGVEL;
      if (ball && jt != mjJNT_BALL) fail(c, ch, "joint must be a ball joint");
      if (!ball && t != mjSENS_JOINTACTFRC && (jt == mjJNT_FREE || jt == mjJNT_BALL))
        fail(c, ch, "joint must be a slide or hinge joint");
    }
    checkAttrs(c, ch);
  }
}

// <custom>: numeric, text and tuple entries are accepted; only their names are kept
static void readCustom(Ctx* c, const mjXNode* e) {
  checkAttrs(c, e);
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* ch = e->child[i];
    if (strcmp(ch->name, "numeric") && strcmp(ch->name, "text") && strcmp(ch->name, "tuple"))
      fail(c, ch, "unknown element in custom");
    newObj(c, K_CUSTOM, ch);
    ignoreAttrs(ch, "data size");
    checkAttrs(c, ch);
    for (int j = 0; j < ch->nchild; j++) ignoreAttrs(ch->child[j], "objtype objname prm");
  }
}

// ---- body inertia ------------------------------------------------------------------------------

// mass properties of every body: <inertial> or geoms per inertiafromgeom and the parts of
// fused static bodies, then balance, bounds and the total mass
static void bodyInertia(Ctx* c) {
  Vec* bodies = &c->obj[K_BODY];
  double total = 0;
  for (int i = 1; i < bodies->n; i++) {
    Body* b = bodies->p[i];
    double *mass, *pos, *quat, *inertia;
    int n = bodyParts(c, b, &mass, &pos, &quat, &inertia);
    combineParts(b, n, mass, pos, quat, inertia);
    // principal moments of a rigid body satisfy the triangle inequality A + B >= C; with
    // balanceinertia a violating inertia becomes its mean, else it is an error
    double* I = b->inertia;
    if (I[0] + I[1] < I[2] || I[0] + I[2] < I[1] || I[1] + I[2] < I[0]) {
      if (!c->balanceinertia)
        fail(c, b->h.e, "inertia must satisfy A + B >= C; use 'balanceinertia' to fix");
      I[0] = I[1] = I[2] = (I[0] + I[1] + I[2]) / 3;
    }
    if (b->mass < c->boundmass) b->mass = c->boundmass;
    for (int k = 0; k < 3; k++)
      if (I[k] < c->boundinertia) I[k] = c->boundinertia;
    total += b->mass;
  }
  // settotalmass scales every mass and inertia
  if (c->settotalmass > 0 && total > mjMINVAL) {
    double scale = c->settotalmass / total;
    for (int i = 1; i < bodies->n; i++) {
      Body* b = bodies->p[i];
      b->mass *= scale;
      mju_scl3(b->inertia, b->inertia, scale);
    }
  }
}

// MuJoCo's same-frame code of a pose against the body frame and the inertial frame, tested
// in this order: 1 body frame, 3 body orientation, 2 inertial frame, 4 inertial orientation,
// else 0
static int sameFrame(const double pos[3], const double quat[4], const double ipos[3],
                     const double iquat[4]) {
  static const double zero[3] = {0, 0, 0}, unit[4] = {1, 0, 0, 0};
  if (same(quat, unit, 4)) return same(pos, zero, 3) ? 1 : 3;
  if (ipos && same(quat, iquat, 4)) return same(pos, ipos, 3) ? 2 : 4;
  return 0;
}

// ---- limits ----------------------------------------------------------------------------------

// resolve a limited flag (0, 1, 2 auto) against its range; checks the range when limited
static int resolveLimited(Ctx* c, const mjXNode* e, int limited, const double range[2],
                          const char* what) {
  int hasrange = range[0] != 0 || range[1] != 0;
  if (limited == 2) {
    if (!c->autolimits && hasrange)
      fail(c, e, "%s is given without limited and autolimits is false", what);
    limited = c->autolimits && hasrange;
  }
  if (limited && range[0] >= range[1]) fail(c, e, "invalid %s: lower must be below upper", what);
  return limited;
}

// ---- the model -------------------------------------------------------------------------------

// 1 for the joints that rotate their body: hinge and ball
static int jointRotates(int type) { return type == mjJNT_HINGE || type == mjJNT_BALL; }

// dofs and qpos numbers of a joint type
static int jointDofs(int type) { return type == mjJNT_FREE ? 6 : type == mjJNT_BALL ? 3 : 1; }
static int jointQpos(int type) { return type == mjJNT_FREE ? 7 : type == mjJNT_BALL ? 4 : 1; }

// material id named by `name` (NULL: -1), referenced by e
static int matId(Ctx* c, const mjXNode* e, const char* name) {
  return name ? findId(c, e, K_MAT, name, "material") : -1;
}

// body id named by `name` (NULL: -1), referenced by e
static int bodyRef(Ctx* c, const mjXNode* e, const char* name) {
  return name ? findId(c, e, K_BODY, name, "target") : -1;
}

// append s (or "" for NULL) to the names buffer at *pos, recording its address
static void putName(char* buf, int* pos, int* adr, const char* s) {
  if (!s) s = "";
  size_t n = strlen(s) + 1;
  if (buf) memcpy(buf + *pos, s, n);
  if (adr) *adr = *pos;
  *pos += (int)n;
}

// every name in MuJoCo's order: model, bodies, joints, geoms, sites, cameras, lights,
// textures, materials, pairs, excludes, equalities, tendons, actuators, sensors, custom
// (numeric, text, tuple), keys; returns the length (buf NULL: just measure)
static int writeNames(Ctx* c, mjModel* m) {
  static const int order[] = {K_BODY, K_JOINT, K_GEOM, K_SITE, K_CAM, K_LIGHT, K_MESH, K_SKIN,
                              K_HFIELD, K_TEX, K_MAT, K_PAIR, K_EXCLUDE, K_EQ, K_TENDON, K_ACT,
                              K_SENSOR, K_CUSTOM, K_KEY};
  int* adr[NKIND] = {NULL};
  if (m) {
    adr[K_BODY] = m->name_bodyadr, adr[K_JOINT] = m->name_jntadr;
    adr[K_GEOM] = m->name_geomadr, adr[K_SITE] = m->name_siteadr;
    adr[K_CAM] = m->name_camadr, adr[K_LIGHT] = m->name_lightadr;
    adr[K_MESH] = m->name_meshadr, adr[K_SKIN] = m->name_skinadr;
    adr[K_HFIELD] = m->name_hfieldadr;
    adr[K_TEX] = m->name_texadr, adr[K_MAT] = m->name_matadr;
    adr[K_PAIR] = m->name_pairadr, adr[K_EXCLUDE] = m->name_excludeadr;
    adr[K_EQ] = m->name_eqadr, adr[K_TENDON] = m->name_tendonadr;
    adr[K_ACT] = m->name_actuatoradr, adr[K_SENSOR] = m->name_sensoradr;
    adr[K_KEY] = m->name_keyadr;
  }
  char* buf = m ? m->names : NULL;
  int pos = 0;
  putName(buf, &pos, NULL, c->modelname);
  for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
    const Vec* v = &c->obj[order[k]];
    // custom entries by kind: numeric, text, tuple
    for (int pass = 0; pass < (order[k] == K_CUSTOM ? 3 : 1); pass++) {
      static const char* const custom[] = {"numeric", "text", "tuple"};
      for (int i = 0; i < v->n; i++) {
        const Head* h = v->p[i];
        if (order[k] == K_CUSTOM && strcmp(h->e->name, custom[pass])) continue;
        putName(buf, &pos, adr[order[k]] ? adr[order[k]] + i : NULL, h->name);
      }
    }
  }
  return pos;
}

// bytes of the mesh, height field and texture file paths, as MuJoCo from offset 0 (one empty
// string when there are none); fills when m is given
static int writePaths(Ctx* c, mjModel* m) {
  static const int kinds[] = {K_MESH, K_SKIN, K_HFIELD, K_TEX};
  int* adr[] = {m ? m->mesh_pathadr : NULL, m ? m->skin_pathadr : NULL,
                m ? m->hfield_pathadr : NULL, m ? m->tex_pathadr : NULL};
  int pos = 0;
  if (m) m->paths[0] = 0;
  for (int k = 0; k < 4; k++) {
    for (int i = 0; i < c->obj[kinds[k]].n; i++) {
      const char* file = mjx_attr(((Obj*)c->obj[kinds[k]].p[i])->h.e, "file");
      if (m) adr[k][i] = -1;
      if (file) putName(m ? m->paths : NULL, &pos, m ? adr[k] + i : NULL, file);
    }
  }
  return pos ? pos : 1;
}

// the height field arrays
static void fillHfields(Ctx* c, mjModel* m) {
  int adr = 0;
  for (int i = 0; i < m->nhfield; i++) {
    const mjHField* hf = &((Obj*)c->obj[K_HFIELD].p[i])->hfield;
    mju_copy(m->hfield_size + 4 * i, hf->size, 4);
    m->hfield_nrow[i] = hf->nrow;
    m->hfield_ncol[i] = hf->ncol;
    m->hfield_adr[i] = adr;
    memcpy(m->hfield_data + adr, hf->data, sizeof(float) * hf->nrow * hf->ncol);
    adr += hf->nrow * hf->ncol;
  }
}

// the texture arrays from the built textures, pixels packed in model order
static void fillTextures(Ctx* c, mjModel* m) {
  int adr = 0;
  for (int i = 0; i < m->ntex; i++) {
    const Obj* o = c->obj[K_TEX].p[i];
    const mjTextureSpec* s = &o->texspec;
    const mjTexture* t = &o->tex;
    m->tex_type[i] = s->type;
    m->tex_builtin[i] = s->builtin;
    m->tex_mark[i] = s->mark;
    m->tex_width[i] = t->width;
    m->tex_height[i] = t->height;
    m->tex_nchannel[i] = t->nchannel;
    m->tex_colorspace[i] = t->colorspace;
    mju_copy3(m->tex_rgb1 + 3 * i, s->rgb1);
    mju_copy3(m->tex_rgb2 + 3 * i, s->rgb2);
    mju_copy3(m->tex_markrgb + 3 * i, s->markrgb);
    m->tex_random[i] = s->random;
    m->tex_adr[i] = adr;
    int n = t->width * t->height * t->nchannel;
    memcpy(m->tex_data + adr, t->data, n);
    adr += n;
  }
}

// the material arrays
static void fillMaterials(Ctx* c, mjModel* m) {
  for (int i = 0; i < m->nmat; i++) {
    const Obj* o = c->obj[K_MAT].p[i];
    const MatSpec* s = &o->mat;
    m->mat_texid[i] = s->texture ? findId(c, o->h.e, K_TEX, s->texture, "texture") : -1;
    m->mat_texuniform[i] = (unsigned char)s->texuniform;
    memcpy(m->mat_texrepeat + 2 * i, s->texrepeat, sizeof(s->texrepeat));
    m->mat_emission[i] = s->emission;
    m->mat_specular[i] = s->specular;
    m->mat_shininess[i] = s->shininess;
    m->mat_reflectance[i] = s->reflectance;
    m->mat_metallic[i] = s->metallic;
    m->mat_roughness[i] = s->roughness;
    memcpy(m->mat_rgba + 4 * i, s->rgba, sizeof(s->rgba));
  }
}

// the body arrays except inertia: tree ids, joint/dof/geom ranges, poses, mocap, simple flags
static void fillBodies(Ctx* c, mjModel* m) {
  int nmocap = 0, ntree = 0;
  for (int b = 0; b < m->nbody; b++) {
    const Body* bd = c->obj[K_BODY].p[b];
    int p = b ? bd->parent : 0;
    m->body_parentid[b] = p;
    m->body_rootid[b] = b == 0 ? 0 : p == 0 ? b : m->body_rootid[p];
    m->body_weldid[b] = b == 0 ? 0 : m->body_jntnum[b] ? b : m->body_weldid[p];
    m->body_mocapid[b] = bd->mocap ? nmocap++ : -1;
    // a tree starts at each moving body whose parent is welded to the world
    m->body_treeid[b] = m->body_weldid[b] == 0 ? -1
                      : m->body_weldid[p] == 0 ? ntree++ : m->body_treeid[p];
    if (b == 0) {
      mju_unit4(m->body_quat);
      mju_unit4(m->body_iquat);
    } else {
      mju_copy3(m->body_pos + 3 * b, bd->pos);
      mju_copy4(m->body_quat + 4 * b, bd->quat);
      mju_normalize4(m->body_quat + 4 * b);
      mju_copy3(m->body_ipos + 3 * b, bd->ipos);
      mju_copy4(m->body_iquat + 4 * b, bd->iquat);
      m->body_mass[b] = bd->mass;
      mju_copy3(m->body_inertia + 3 * b, bd->inertia);
    }
    m->body_gravcomp[b] = bd->gravcomp;
    int sf = sameFrame(m->body_ipos + 3 * b, m->body_iquat + 4 * b, NULL, NULL);
    m->body_sameframe[b] = (unsigned char)(sf == 1 || sf == 3 ? sf : 0);
  }
  // moving bodies must have mass and inertia
  for (int b = 1; b < m->nbody; b++) {
    const mjtNum* I = m->body_inertia + 3 * b;
    if (m->body_dofnum[b] && (m->body_mass[b] < mjMINVAL || I[0] + I[1] + I[2] < mjMINVAL)) {
      // unless a welded child carries the mass, as MuJoCo checks the subtree
      double sub = 0;
      for (int k = b; k < m->nbody; k++)
        if (m->body_weldid[k] == b) sub += m->body_mass[k];
      if (sub < mjMINVAL)
        fail(c, ((Body*)c->obj[K_BODY].p[b])->h.e,
             "mass and inertia of moving bodies must be positive");
    }
  }
}

// body_simple and dof_simplenum: bodies whose dofs give a constant diagonal block of M (after
// the tendons: tendon armature can couple them)
static void fillSimple(mjModel* m) {
  m->body_simple[0] = 1;
  for (int b = 1; b < m->nbody; b++) {
    int simple = m->body_sameframe[b] == 1 && m->body_weldid[m->body_parentid[b]] == 0;
    // no child bodies
    for (int k = b + 1; k < m->nbody && simple; k++)
      if (m->body_parentid[k] == b) simple = 0;
    // joints at the body origin with axes along the body's coordinate axes, and at most one
    // rotation, which comes last (a rotation moves the axes of the joints after it)
    int slides = m->body_jntnum[b] > 0, rotated = 0;
    for (int j = m->body_jntadr[b]; j >= 0 && j < m->body_jntadr[b] + m->body_jntnum[b]; j++) {
      const mjtNum* a = m->jnt_axis + 3 * j;
      int zeros = (fabs(a[0]) < mjMINVAL) + (fabs(a[1]) < mjMINVAL) + (fabs(a[2]) < mjMINVAL);
      int t = m->jnt_type[j];
      if (mju_norm3(m->jnt_pos + 3 * j) > mjMINVAL) simple = 0;
      if ((t == mjJNT_HINGE || t == mjJNT_SLIDE) && zeros != 2) simple = 0;
      if (rotated) simple = 0;
      if (t != mjJNT_SLIDE) slides = 0, rotated = 1;
    }
    m->body_simple[b] = (unsigned char)(simple ? (slides ? 2 : 1) : 0);
  }
  // as in MuJoCo 3.5.1, bodies holding a site of a spatial tendon with armature (world too)
  for (int t = 0; t < m->ntendon; t++) {
    if (m->tendon_armature[t] == 0) continue;
    for (int k = m->tendon_adr[t]; k < m->tendon_adr[t] + m->tendon_num[t]; k++)
      if (m->wrap_type[k] == mjWRAP_SITE) m->body_simple[m->site_bodyid[m->wrap_objid[k]]] = 0;
  }
  // consecutive dofs of simple bodies, counted to the end of each run
  for (int i = m->nv - 1; i >= 0; i--) {
    int simple = m->body_simple[m->dof_bodyid[i]] != 0;
    m->dof_simplenum[i] = simple ? 1 + (i + 1 < m->nv ? m->dof_simplenum[i + 1] : 0) : 0;
  }
}

// joints and dofs: addresses, parameters in radians, qpos0 and qpos_spring, the dof tree and
// the sparse inertia layout (row i holds dof i and its ancestors, diagonal first)
static void fillJoints(Ctx* c, mjModel* m) {
  double scale = c->degree ? mjPI / 180 : 1;
  int qadr = 0, vadr = 0;
  int* lastdof = alloc(c, sizeof(int) * m->nbody);
  int* depth = alloc(c, sizeof(int) * (m->nv + 1));
  lastdof[0] = -1;
  for (int j = 0; j < m->njnt; j++) {
    Item* it = c->obj[K_JOINT].p[j];
    JointSpec* s = &it->s.joint;
    const Body* bd = c->obj[K_BODY].p[it->body];
    int t = s->type, angular = t == mjJNT_HINGE || t == mjJNT_BALL;
    m->jnt_type[j] = t;
    m->jnt_qposadr[j] = qadr;
    m->jnt_dofadr[j] = vadr;
    m->jnt_bodyid[j] = it->body;
    m->jnt_group[j] = s->group;
    // limits: free joints have none; angles of limited joints in radians (MuJoCo leaves the
    // range of an unlimited joint as written)
    double range[2] = {s->range[0], s->range[1]};
    m->jnt_limited[j] = (unsigned char)(t == mjJNT_FREE ? 0
                        : resolveLimited(c, it->h.e, s->limited, range, "joint range"));
    if (angular && m->jnt_limited[j]) range[0] *= scale, range[1] *= scale;
    if (t == mjJNT_BALL && m->jnt_limited[j] && range[0] != 0)
      fail(c, it->h.e, "ball joint range[0] must be 0");
    m->jnt_actfrclimited[j] = (unsigned char)resolveLimited(c, it->h.e, s->actfrclimited,
                                                            s->actfrcrange, "actuatorfrcrange");
    m->jnt_actgravcomp[j] = (unsigned char)s->actgravcomp;
    memcpy(m->jnt_solref + 2 * j, s->solref_lim, sizeof(s->solref_lim));
    memcpy(m->jnt_solimp + 5 * j, s->solimp_lim, sizeof(s->solimp_lim));
    mju_copy3(m->jnt_pos + 3 * j, it->pos);
    mju_copy3(m->jnt_axis + 3 * j, s->axis);
    m->jnt_stiffness[j] = s->stiffness;
    memcpy(m->jnt_range + 2 * j, range, sizeof(range));
    memcpy(m->jnt_actfrcrange + 2 * j, s->actfrcrange, sizeof(s->actfrcrange));
    m->jnt_margin[j] = s->margin;
    // qpos0 and the spring reference
    mjtNum* q0 = m->qpos0 + qadr;
    mjtNum* qs = m->qpos_spring + qadr;
    if (t == mjJNT_FREE) {
      mju_copy3(q0, bd->pos);
      mju_copy4(q0 + 3, m->body_quat + 4 * it->body);
      mju_copy(qs, q0, 7);
    } else if (t == mjJNT_BALL) {
      mju_unit4(q0);
      mju_unit4(qs);
    } else {
      q0[0] = s->ref * (angular ? scale : 1);
      qs[0] = s->springref * (angular ? scale : 1);
    }
    // dofs with the joint's friction and inertia parameters
    for (int k = 0; k < jointDofs(t); k++, vadr++) {
      m->dof_bodyid[vadr] = it->body;
      m->dof_jntid[vadr] = j;
      m->dof_treeid[vadr] = m->body_treeid[it->body];
      memcpy(m->dof_solref + 2 * vadr, s->solref_fri, sizeof(s->solref_fri));
      memcpy(m->dof_solimp + 5 * vadr, s->solimp_fri, sizeof(s->solimp_fri));
      m->dof_frictionloss[vadr] = s->frictionloss;
      m->dof_armature[vadr] = s->armature;
      m->dof_damping[vadr] = s->damping;
    }
    qadr += jointQpos(t);
  }
  // the last dof of each body, or of its nearest ancestor with dofs
  for (int b = 1; b < m->nbody; b++)
    lastdof[b] = m->body_dofnum[b] ? m->body_dofadr[b] + m->body_dofnum[b] - 1
                                   : lastdof[m->body_parentid[b]];
  // dof parent: the previous dof of the body, else the last dof above it; Madr from depths
  for (int i = 0; i < m->nv; i++) {
    int b = m->dof_bodyid[i];
    int parent = i > m->body_dofadr[b] ? i - 1 : lastdof[m->body_parentid[b]];
    m->dof_parentid[i] = parent;
    depth[i] = parent < 0 ? 0 : depth[parent] + 1;
    m->dof_Madr[i] = i ? m->dof_Madr[i - 1] + depth[i - 1] + 1 : 0;
  }
}

// a mesh geom's size (the largest |coordinate| of its vertices per axis), bounding radius
// (|size|) and bounding box (the mesh's)
static void meshBound(const mjMesh* me, double size[3], double* rbound, double aabb[6]) {
  for (int k = 0; k < 3; k++)
    size[k] = fmax(fabs(me->aabb[k] - me->aabb[k + 3]), fabs(me->aabb[k] + me->aabb[k + 3]));
  *rbound = mju_norm3(size);
  memcpy(aabb, me->aabb, sizeof(double) * 6);
}

// the ints of mesh o's hull graph stored in the model: MuJoCo keeps the graph of meshes that
// collide or whose faces are their hull's
static int meshGraphSize(const Obj* o) { return o->keepgraph ? o->mesh.ngraph : 0; }

// the mesh arrays: each compiled mesh appended to the flat vertex, normal, texcoord, face and
// graph arrays
static void fillMeshes(Ctx* c, mjModel* m) {
  int vert = 0, normal = 0, texcoord = 0, face = 0, graph = 0;
  for (int i = 0; i < m->nmesh; i++) {
    const Obj* o = c->obj[K_MESH].p[i];
    const mjMesh* me = &o->mesh;
    int ngraph = meshGraphSize(o);
    m->mesh_vertadr[i] = vert;
    m->mesh_vertnum[i] = me->nvert;
    m->mesh_normaladr[i] = normal;
    m->mesh_normalnum[i] = me->nnormal;
    m->mesh_texcoordadr[i] = me->ntexcoord ? texcoord : -1;
    m->mesh_texcoordnum[i] = me->ntexcoord;
    m->mesh_faceadr[i] = face;
    m->mesh_facenum[i] = me->nface;
    m->mesh_graphadr[i] = ngraph ? graph : -1;
    memcpy(m->mesh_vert + 3 * vert, me->vert, sizeof(float) * 3 * me->nvert);
    memcpy(m->mesh_normal + 3 * normal, me->normal, sizeof(float) * 3 * me->nnormal);
    memcpy(m->mesh_texcoord + 2 * texcoord, me->texcoord, sizeof(float) * 2 * me->ntexcoord);
    memcpy(m->mesh_face + 3 * face, me->face, sizeof(int) * 3 * me->nface);
    memcpy(m->mesh_facenormal + 3 * face, me->facenormal, sizeof(int) * 3 * me->nface);
    if (me->facetexcoord)
      memcpy(m->mesh_facetexcoord + 3 * face, me->facetexcoord, sizeof(int) * 3 * me->nface);
    memcpy(m->mesh_graph + graph, me->graph, sizeof(int) * ngraph);
    mju_copy3(m->mesh_scale + 3 * i, o->meshscale);
    mju_copy3(m->mesh_pos + 3 * i, me->pos);
    mju_copy4(m->mesh_quat + 4 * i, me->quat);
    vert += me->nvert;
    normal += me->nnormal;
    texcoord += me->ntexcoord;
    face += me->nface;
    graph += ngraph;
  }
}

// the skin arrays: each skin's mesh and bones appended, bone bodies resolved by name
static void fillSkins(Ctx* c, mjModel* m) {
  int vert = 0, tex = 0, face = 0, bone = 0, bvert = 0;
  for (int i = 0; i < m->nskin; i++) {
    const Obj* o = c->obj[K_SKIN].p[i];
    const mjSkin* s = &o->skin;
    m->skin_matid[i] = matId(c, o->h.e, o->mat.texture);
    m->skin_group[i] = o->group;
    memcpy(m->skin_rgba + 4 * i, o->rgba, sizeof(o->rgba));
    m->skin_inflate[i] = o->inflate;
    m->skin_vertadr[i] = vert;
    m->skin_vertnum[i] = s->nvert;
    m->skin_texcoordadr[i] = s->ntexcoord ? tex : -1;
    m->skin_faceadr[i] = face;
    m->skin_facenum[i] = s->nface;
    m->skin_boneadr[i] = bone;
    m->skin_bonenum[i] = s->nbone;
    memcpy(m->skin_vert + 3 * vert, s->vert, sizeof(float) * 3 * s->nvert);
    memcpy(m->skin_texcoord + 2 * tex, s->texcoord, sizeof(float) * 2 * s->ntexcoord);
    memcpy(m->skin_face + 3 * face, s->face, sizeof(int) * 3 * s->nface);
    for (int b = 0; b < s->nbone; b++) {
      int id = mapFind(&c->names[K_BODY], s->bonename[b]);
      if (id < 0) fail(c, o->h.e, "skin bone: unknown body '%s'", s->bonename[b]);
      m->skin_bonebodyid[bone + b] = id;
      m->skin_bonevertadr[bone + b] = bvert + s->bonevertadr[b];
      m->skin_bonevertnum[bone + b] = s->bonevertnum[b];
    }
    memcpy(m->skin_bonebindpos + 3 * bone, s->bindpos, sizeof(float) * 3 * s->nbone);
    memcpy(m->skin_bonebindquat + 4 * bone, s->bindquat, sizeof(float) * 4 * s->nbone);
    memcpy(m->skin_bonevertid + bvert, s->vertid, sizeof(int) * s->nbonevert);
    memcpy(m->skin_bonevertweight + bvert, s->vertweight, sizeof(float) * s->nbonevert);
    vert += s->nvert;
    tex += s->ntexcoord;
    face += s->nface;
    bone += s->nbone;
    bvert += s->nbonevert;
  }
}

// geoms, sites, cameras and lights
static void fillItems(Ctx* c, mjModel* m) {
  for (int i = 0; i < m->ngeom; i++) {
    const Item* it = c->obj[K_GEOM].p[i];
    const GeomSpec* s = &it->s.geom;
    int b = it->body;
    m->geom_type[i] = s->type;
    m->geom_contype[i] = s->contype;
    m->geom_conaffinity[i] = s->conaffinity;
    m->geom_condim[i] = s->condim;
    m->geom_bodyid[i] = b;
    m->geom_dataid[i] = s->mesh || s->type == mjGEOM_HFIELD ? s->dataid : -1;
    m->geom_matid[i] = matId(c, it->h.e, s->material);
    m->geom_group[i] = s->group;
    m->geom_priority[i] = s->priority;
    m->geom_sameframe[i] = (unsigned char)sameFrame(it->pos, it->quat, m->body_ipos + 3 * b,
                                                    m->body_iquat + 4 * b);
    m->geom_solmix[i] = s->solmix;
    memcpy(m->geom_solref + 2 * i, s->solref, sizeof(s->solref));
    memcpy(m->geom_solimp + 5 * i, s->solimp, sizeof(s->solimp));
    mju_copy3(m->geom_size + 3 * i, s->size);
    if (s->type == mjGEOM_MESH) meshBound(&((Obj*)c->obj[K_MESH].p[s->dataid])->mesh,
                                          m->geom_size + 3 * i, m->geom_rbound + i,
                                          m->geom_aabb + 6 * i);
    else if (s->type == mjGEOM_HFIELD)
      mj_hfieldGeomBound(((Obj*)c->obj[K_HFIELD].p[s->dataid])->hfield.size,
                         m->geom_size + 3 * i, m->geom_rbound + i, m->geom_aabb + 6 * i);
    else mju_geomBound(s->type, s->size, m->geom_rbound + i, m->geom_aabb + 6 * i);
    mju_copy3(m->geom_pos + 3 * i, it->pos);
    mju_copy4(m->geom_quat + 4 * i, it->quat);
    mju_copy3(m->geom_friction + 3 * i, s->friction);
    m->geom_margin[i] = s->margin;
    m->geom_gap[i] = s->gap;
    memcpy(m->geom_rgba + 4 * i, s->rgba, sizeof(s->rgba));
    // the body's collision summary
    m->body_contype[b] |= s->contype;
    m->body_conaffinity[b] |= s->conaffinity;
    if (s->margin > m->body_margin[b]) m->body_margin[b] = s->margin;
  }
  for (int i = 0; i < m->nsite; i++) {
    const Item* it = c->obj[K_SITE].p[i];
    const SiteSpec* s = &it->s.site;
    int b = it->body;
    m->site_type[i] = s->type;
    m->site_bodyid[i] = b;
    m->site_matid[i] = matId(c, it->h.e, s->material);
    m->site_group[i] = s->group;
    m->site_sameframe[i] = (unsigned char)sameFrame(it->pos, it->quat, m->body_ipos + 3 * b,
                                                    m->body_iquat + 4 * b);
    mju_copy3(m->site_size + 3 * i, s->size);
    mju_copy3(m->site_pos + 3 * i, it->pos);
    mju_copy4(m->site_quat + 4 * i, it->quat);
    memcpy(m->site_rgba + 4 * i, s->rgba, sizeof(s->rgba));
  }
  for (int i = 0; i < m->ncam; i++) {
    const Item* it = c->obj[K_CAM].p[i];
    const CamSpec* s = &it->s.cam;
    m->cam_mode[i] = s->mode;
    m->cam_bodyid[i] = it->body;
    m->cam_targetbodyid[i] = bodyRef(c, it->h.e, s->target);
    if (s->mode >= mjCAMLIGHT_TARGETBODY && !s->target)
      fail(c, it->h.e, "target body is required in mode %s", camModes[s->mode]);
    mju_copy3(m->cam_pos + 3 * i, it->pos);
    mju_copy4(m->cam_quat + 4 * i, it->quat);
    m->cam_orthographic[i] = s->orthographic;
    m->cam_fovy[i] = s->fovy;
    m->cam_ipd[i] = s->ipd;
    memcpy(m->cam_resolution + 2 * i, s->resolution, sizeof(s->resolution));
    memcpy(m->cam_sensorsize + 2 * i, s->sensorsize, sizeof(s->sensorsize));
    memcpy(m->cam_intrinsic + 4 * i, s->intrinsic, sizeof(s->intrinsic));
  }
  for (int i = 0; i < m->nlight; i++) {
    const Item* it = c->obj[K_LIGHT].p[i];
    const LightSpec* s = &it->s.light;
    m->light_mode[i] = s->mode;
    m->light_bodyid[i] = it->body;
    m->light_targetbodyid[i] = bodyRef(c, it->h.e, s->target);
    if (s->mode >= mjCAMLIGHT_TARGETBODY && !s->target)
      fail(c, it->h.e, "target body is required in mode %s", camModes[s->mode]);
    m->light_type[i] = s->type;
    m->light_texid[i] = s->texture ? findId(c, it->h.e, K_TEX, s->texture, "texture") : -1;
    m->light_castshadow[i] = (unsigned char)s->castshadow;
    m->light_bulbradius[i] = s->bulbradius;
    m->light_intensity[i] = s->intensity;
    m->light_range[i] = s->range;
    m->light_active[i] = (unsigned char)s->active;
    mju_copy3(m->light_pos + 3 * i, it->pos);
    mju_copy3(m->light_dir + 3 * i, s->dir);
    memcpy(m->light_attenuation + 3 * i, s->attenuation, sizeof(s->attenuation));
    m->light_cutoff[i] = s->cutoff;
    m->light_exponent[i] = s->exponent;
    memcpy(m->light_ambient + 3 * i, s->ambient, sizeof(s->ambient));
    memcpy(m->light_diffuse + 3 * i, s->diffuse, sizeof(s->diffuse));
    memcpy(m->light_specular + 3 * i, s->specular, sizeof(s->specular));
  }
}

// pairs, excludes and equality constraints
static void fillConstraints(Ctx* c, mjModel* m) {
  for (int i = 0; i < m->npair; i++) {
    const Obj* o = c->obj[K_PAIR].p[i];
    const PairSpec* s = &o->pair;
    m->pair_dim[i] = s->condim;
    m->pair_geom1[i] = o->id[0];
    m->pair_geom2[i] = o->id[1];
    m->pair_signature[i] = o->type;
    memcpy(m->pair_solref + 2 * i, s->solref, sizeof(s->solref));
    memcpy(m->pair_solreffriction + 2 * i, s->solreffriction, sizeof(s->solreffriction));
    memcpy(m->pair_solimp + 5 * i, s->solimp, sizeof(s->solimp));
    m->pair_margin[i] = s->margin;
    m->pair_gap[i] = s->gap;
    memcpy(m->pair_friction + 5 * i, s->friction, sizeof(s->friction));
  }
  for (int i = 0; i < m->nexclude; i++)
    m->exclude_signature[i] = ((Obj*)c->obj[K_EXCLUDE].p[i])->type;
  for (int i = 0; i < m->neq; i++) {
    const Obj* o = c->obj[K_EQ].p[i];
    m->eq_type[i] = o->type;
    m->eq_obj1id[i] = o->id[0];
    m->eq_obj2id[i] = o->id[1];
    m->eq_objtype[i] = o->objtype;
    m->eq_active0[i] = (unsigned char)o->eq.active;
    memcpy(m->eq_solref + 2 * i, o->eq.solref, sizeof(o->eq.solref));
    memcpy(m->eq_solimp + 5 * i, o->eq.solimp, sizeof(o->eq.solimp));
    memcpy(m->eq_data + 11 * i, o->data, sizeof(o->data));
  }
}

// length of a fixed tendon at qpos_spring; -1 for a spatial tendon (mj_setConst computes its
// length at qpos_spring with the position stage, wrapping included)
static double tendonLength(const mjModel* m, int t) {
  double len = 0;
  int adr = m->tendon_adr[t], num = m->tendon_num[t];
  if (m->wrap_type[adr] != mjWRAP_JOINT) return -1;
  for (int k = adr; k < adr + num; k++)
    len += m->wrap_prm[k] * m->qpos_spring[m->jnt_qposadr[m->wrap_objid[k]]];
  return len;
}

// tendons and their paths
static void fillTendons(Ctx* c, mjModel* m) {
  for (int i = 0; i < m->nwrap; i++) {
    const Wrap* w = c->obj[K_WRAP].p[i];
    m->wrap_type[i] = w->type;
    m->wrap_objid[i] = w->objid;
    m->wrap_prm[i] = w->prm;
  }
  for (int i = 0; i < m->ntendon; i++) {
    const Obj* o = c->obj[K_TENDON].p[i];
    const TendonSpec* s = &o->tendon;
    m->tendon_adr[i] = o->wrapadr;
    m->tendon_num[i] = o->nwrap;
    m->tendon_matid[i] = matId(c, o->h.e, s->material);
    m->tendon_group[i] = s->group;
    m->tendon_limited[i] = (unsigned char)resolveLimited(c, o->h.e, s->limited, s->range,
                                                         "tendon range");
    m->tendon_actfrclimited[i] = (unsigned char)resolveLimited(
      c, o->h.e, s->actfrclimited, s->actfrcrange, "actuatorfrcrange");
    m->tendon_width[i] = s->width;
    memcpy(m->tendon_solref_lim + 2 * i, s->solref_lim, sizeof(s->solref_lim));
    memcpy(m->tendon_solimp_lim + 5 * i, s->solimp_lim, sizeof(s->solimp_lim));
    memcpy(m->tendon_solref_fri + 2 * i, s->solref_fri, sizeof(s->solref_fri));
    memcpy(m->tendon_solimp_fri + 5 * i, s->solimp_fri, sizeof(s->solimp_fri));
    memcpy(m->tendon_range + 2 * i, s->range, sizeof(s->range));
    memcpy(m->tendon_actfrcrange + 2 * i, s->actfrcrange, sizeof(s->actfrcrange));
    m->tendon_margin[i] = s->margin;
    m->tendon_stiffness[i] = s->stiffness;
    m->tendon_damping[i] = s->damping;
    m->tendon_armature[i] = s->armature;
    m->tendon_frictionloss[i] = s->frictionloss;
    memcpy(m->tendon_rgba + 4 * i, s->rgba, sizeof(s->rgba));
    // spring length: given, else the length in the spring reference configuration
    memcpy(m->tendon_lengthspring + 2 * i, s->springlength, sizeof(s->springlength));
    if (s->springlength[0] == -1 && s->springlength[1] == -1) {
      double len = tendonLength(m, i);
      m->tendon_lengthspring[2 * i] = m->tendon_lengthspring[2 * i + 1] = len;
    }
  }
}

// actuators: types, parameters, limits, transmission, activation addresses
static void fillActuators(Ctx* c, mjModel* m) {
  int adr = 0;
  for (int i = 0; i < m->nu; i++) {
    const Obj* o = c->obj[K_ACT].p[i];
    ActSpec s = o->act;
    const mjXNode* e = o->h.e;
    m->actuator_trntype[i] = o->type;
    m->actuator_dyntype[i] = s.dyntype;
    m->actuator_gaintype[i] = s.gaintype;
    m->actuator_biastype[i] = s.biastype;
    m->actuator_trnid[2 * i] = o->id[0];
    m->actuator_trnid[2 * i + 1] = o->id[1];
    // activation: actdim when given, else one for stateful dynamics
    int actnum = s.actdim >= 0 ? s.actdim : s.dyntype != mjDYN_NONE;
    if (s.dyntype != mjDYN_NONE && actnum == 0) fail(c, e, "dynamics need activation");
    m->actuator_actnum[i] = actnum;
    m->actuator_actadr[i] = actnum ? adr : -1;
    adr += actnum;
    m->actuator_group[i] = s.group;
    // inheritrange: a position-like range from the joint's limits
    if (s.inheritrange > 0) {
      if (o->type != mjTRN_JOINT || !m->jnt_limited[o->id[0]])
        fail(c, e, "inheritrange needs a limited joint transmission");
      const mjtNum* r = m->jnt_range + 2 * o->id[0];
      double mid = 0.5 * (r[0] + r[1]), half = 0.5 * (r[1] - r[0]) * s.inheritrange;
      double* dst = s.dyntype == mjDYN_INTEGRATOR ? s.actrange : s.ctrlrange;
      dst[0] = mid - half;
      dst[1] = mid + half;
    }
    m->actuator_ctrllimited[i] =
      (unsigned char)resolveLimited(c, e, s.ctrllimited, s.ctrlrange, "ctrlrange");
    m->actuator_forcelimited[i] =
      (unsigned char)resolveLimited(c, e, s.forcelimited, s.forcerange, "forcerange");
    m->actuator_actlimited[i] =
      (unsigned char)resolveLimited(c, e, s.actlimited, s.actrange, "actrange");
    memcpy(m->actuator_dynprm + 10 * i, s.dynprm, sizeof(s.dynprm));
    memcpy(m->actuator_gainprm + 10 * i, s.gainprm, sizeof(s.gainprm));
    memcpy(m->actuator_biasprm + 10 * i, s.biasprm, sizeof(s.biasprm));
    m->actuator_actearly[i] = (unsigned char)s.actearly;
    memcpy(m->actuator_ctrlrange + 2 * i, s.ctrlrange, sizeof(s.ctrlrange));
    memcpy(m->actuator_forcerange + 2 * i, s.forcerange, sizeof(s.forcerange));
    memcpy(m->actuator_actrange + 2 * i, s.actrange, sizeof(s.actrange));
    memcpy(m->actuator_gear + 6 * i, s.gear, sizeof(s.gear));
    m->actuator_cranklength[i] = s.cranklength;
    memcpy(m->actuator_lengthrange + 2 * i, s.lengthrange, sizeof(s.lengthrange));
    if (s.dyntype == mjDYN_MUSCLE && s.lengthrange[0] >= s.lengthrange[1])
      fail(c, e, "muscle lengthrange must be given (its computation is not supported yet)");
  }
}

// sensors, with the joint and tendon limit checks that need resolved limits
static void fillSensors(Ctx* c, mjModel* m) {
  int adr = 0;
  for (int i = 0; i < m->nsensor; i++) {
    const Obj* o = c->obj[K_SENSOR].p[i];
    int t = o->type;
    if (t >= mjSENS_JOINTLIMITPOS && t <= mjSENS_JOINTLIMITFRC && !m->jnt_limited[o->id[0]])
      fail(c, o->h.e, "joint must be limited");
    if (t >= mjSENS_TENDONLIMITPOS && t <= mjSENS_TENDONLIMITFRC &&
        !m->tendon_limited[o->id[0]])
      fail(c, o->h.e, "tendon must be limited");
    m->sensor_type[i] = t;
    m->sensor_datatype[i] = o->datatype;
    m->sensor_needstage[i] = o->stage;
    m->sensor_objtype[i] = o->objtype;
    m->sensor_objid[i] = o->id[0];
    m->sensor_reftype[i] = o->reftype;
    m->sensor_refid[i] = o->id[1];
    m->sensor_dim[i] = o->dim;
    m->sensor_adr[i] = adr;
    m->sensor_cutoff[i] = o->cutoff;
    m->sensor_noise[i] = o->noise;
    adr += o->dim;
  }
}

// keyframes: given values, the rest from qpos0, zeros and the mocap bodies' poses
static void fillKeys(Ctx* c, mjModel* m) {
  for (int k = 0; k < m->nkey; k++) {
    const mjXNode* e = ((Obj*)c->obj[K_KEY].p[k])->h.e;
    mjtNum* qpos = m->key_qpos + (size_t)k * m->nq;
    mjtNum* mpos = m->key_mpos + (size_t)k * 3 * m->nmocap;
    mjtNum* mquat = m->key_mquat + (size_t)k * 4 * m->nmocap;
    mju_copy(qpos, m->qpos0, m->nq);
    for (int b = 0; b < m->nbody; b++) {
      int id = m->body_mocapid[b];
      if (id < 0) continue;
      mju_copy3(mpos + 3 * id, m->body_pos + 3 * b);
      mju_copy4(mquat + 4 * id, m->body_quat + 4 * b);
    }
    if (!e) continue;
    readVec(c, e, "time", m->key_time + k, 1);
    // the quaternions of ball and free joints normalized, as for qpos0
    if (readVec(c, e, "qpos", qpos, m->nq))
      for (int j = 0; j < m->njnt; j++) {
        int t = m->jnt_type[j];
        if (t == mjJNT_BALL || t == mjJNT_FREE)
          mju_normalize4(qpos + m->jnt_qposadr[j] + (t == mjJNT_FREE ? 3 : 0));
      }
    readVec(c, e, "qvel", m->key_qvel + (size_t)k * m->nv, m->nv);
    readVec(c, e, "act", m->key_act + (size_t)k * m->na, m->na);
    readVec(c, e, "ctrl", m->key_ctrl + (size_t)k * m->nu, m->nu);
    readVec(c, e, "mpos", mpos, 3 * m->nmocap);
    if (readVec(c, e, "mquat", mquat, 4 * m->nmocap))
      for (int i = 0; i < m->nmocap; i++) mju_normalize4(mquat + 4 * i);
    ignoreAttrs(e, "name");
    checkAttrs(c, e);
  }
}

// ---- sizes and the whole compilation -----------------------------------------------------------

// the body ranges of joints, dofs and geoms (-1 addresses when empty)
static void fillRanges(Ctx* c, mjModel* m) {
  for (int b = 0; b < m->nbody; b++) {
    m->body_jntadr[b] = m->body_dofadr[b] = m->body_geomadr[b] = -1;
  }
  int vadr = 0;
  for (int j = 0; j < m->njnt; j++) {
    const Item* it = c->obj[K_JOINT].p[j];
    int b = it->body, nd = jointDofs(it->s.joint.type);
    if (m->body_jntadr[b] < 0) m->body_jntadr[b] = j;
    if (m->body_dofadr[b] < 0) m->body_dofadr[b] = vadr;
    m->body_jntnum[b]++;
    m->body_dofnum[b] += nd;
    vadr += nd;
    // a free joint moves a whole tree, and no body has more than 6 dofs
    const Body* bd = c->obj[K_BODY].p[b];
    if (it->s.joint.type == mjJNT_FREE && bd->parent != 0)
      fail(c, it->h.e, "a free joint can only be used in a top-level body");
    if (m->body_dofnum[b] > 6) fail(c, it->h.e, "more than 6 dofs in one body");
    // a ball sets the whole orientation of its body: no rotation may follow it
    for (int k = m->body_jntadr[b]; k < j && jointRotates(it->s.joint.type); k++)
      if (((const Item*)c->obj[K_JOINT].p[k])->s.joint.type == mjJNT_BALL)
        fail(c, it->h.e, "a rotation cannot follow a ball joint in one body");
  }
  for (int g = 0; g < m->ngeom; g++) {
    int b = ((Item*)c->obj[K_GEOM].p[g])->body;
    if (m->body_geomadr[b] < 0) m->body_geomadr[b] = g;
    m->body_geomnum[b]++;
  }
}

// every size of the model from the collected objects (root: where a too-large model fails)
static void modelSizes(Ctx* c, const mjXNode* root, mjModel* sz) {
  memset(sz, 0, sizeof(*sz));
  sz->nbody = c->obj[K_BODY].n;
  sz->njnt = c->obj[K_JOINT].n;
  // dofs above each body give the rows of the sparse inertia: nM = sum(depth + 1)
  int* above = alloc(c, sizeof(int) * sz->nbody);
  int* dofs = alloc(c, sizeof(int) * sz->nbody);
  for (int j = 0; j < sz->njnt; j++) {
    const Item* it = c->obj[K_JOINT].p[j];
    sz->nq += jointQpos(it->s.joint.type);
    sz->nv += jointDofs(it->s.joint.type);
    dofs[it->body] += jointDofs(it->s.joint.type);
  }
  for (int b = 1; b < sz->nbody; b++) {
    int p = ((Body*)c->obj[K_BODY].p[b])->parent;
    above[b] = above[p] + dofs[p];
    for (int k = 0; k < dofs[b]; k++) sz->nM += above[b] + k + 1;
    sz->nmocap += ((Body*)c->obj[K_BODY].p[b])->mocap;
  }
  sz->ngeom = c->obj[K_GEOM].n;
  sz->nsite = c->obj[K_SITE].n;
  sz->ncam = c->obj[K_CAM].n;
  sz->nlight = c->obj[K_LIGHT].n;
  sz->ntex = c->obj[K_TEX].n;
  for (int i = 0; i < sz->ntex; i++) {
    const mjTexture* t = &((Obj*)c->obj[K_TEX].p[i])->tex;
    if (sz->ntexdata > INT_MAX - t->width * t->height * t->nchannel)
      fail(c, root, "model too large: its textures exceed %d bytes", INT_MAX);
    sz->ntexdata += t->width * t->height * t->nchannel;
  }
  sz->nmesh = c->obj[K_MESH].n;
  sz->nskin = c->obj[K_SKIN].n;
  for (int i = 0; i < sz->nskin; i++) {
    const mjSkin* sk = &((Obj*)c->obj[K_SKIN].p[i])->skin;
    sz->nskinvert += sk->nvert;
    sz->nskintexvert += sk->ntexcoord;
    sz->nskinface += sk->nface;
    sz->nskinbone += sk->nbone;
    sz->nskinbonevert += sk->nbonevert;
  }
  sz->nhfield = c->obj[K_HFIELD].n;
  for (int i = 0; i < sz->nhfield; i++) {
    const mjHField* hf = &((Obj*)c->obj[K_HFIELD].p[i])->hfield;
    sz->nhfielddata += hf->nrow * hf->ncol;
  }
  for (int i = 0; i < sz->nmesh; i++) {
    const mjMesh* me = &((Obj*)c->obj[K_MESH].p[i])->mesh;
    sz->nmeshvert += me->nvert;
    sz->nmeshnormal += me->nnormal;
    sz->nmeshtexcoord += me->ntexcoord;
    sz->nmeshface += me->nface;
    sz->nmeshgraph += meshGraphSize(c->obj[K_MESH].p[i]);
  }
  sz->nmat = c->obj[K_MAT].n;
  sz->npair = c->obj[K_PAIR].n;
  sz->nexclude = c->obj[K_EXCLUDE].n;
  sz->neq = c->obj[K_EQ].n;
  sz->ntendon = c->obj[K_TENDON].n;
  sz->nwrap = c->obj[K_WRAP].n;
  sz->nu = c->obj[K_ACT].n;
  for (int i = 0; i < sz->nu; i++) {
    const Obj* o = c->obj[K_ACT].p[i];
    sz->na += o->act.actdim >= 0 ? o->act.actdim : o->act.dyntype != mjDYN_NONE;
    // moment non-zeros: a joint's dofs, at most nv for the other transmissions (mj_momentMax)
    int joint = o->type == mjTRN_JOINT || o->type == mjTRN_JOINTINPARENT;
    if (o->id[0] >= 0)
      sz->nJmom += joint ? jointDofs(((Item*)c->obj[K_JOINT].p[o->id[0]])->s.joint.type) : sz->nv;
  }
  sz->nsensor = c->obj[K_SENSOR].n;
  for (int i = 0; i < sz->nsensor; i++) sz->nsensordata += ((Obj*)c->obj[K_SENSOR].p[i])->dim;
  sz->nkey = c->obj[K_KEY].n;
  sz->nnames = writeNames(c, NULL);
  sz->npaths = writePaths(c, NULL);
  // preallocation for simulation (<size> values are lower bounds): contacts, constraint rows
  // (a contact takes at most the rows of a pyramidal cone of the largest condim of any geom or
  // pair: 2 (condim - 1), 1 for condim 1), and a stack for dense nv x nv and njmax x nv work
  int nconmax = 100 > sz->ngeom ? 100 : sz->ngeom, condim = 1;
  for (int i = 0; i < sz->ngeom; i++) {
    int dim = ((Item*)c->obj[K_GEOM].p[i])->s.geom.condim;
    if (dim > condim) condim = dim;
  }
  for (int i = 0; i < c->obj[K_PAIR].n; i++) {
    int dim = ((Obj*)c->obj[K_PAIR].p[i])->pair.condim;
    if (dim > condim) condim = dim;
  }
  sz->nconmax = c->nconmax > nconmax ? c->nconmax : nconmax;
  int rows = condim > 1 ? 2 * (condim - 1) : 1;
  int njmax = rows * sz->nconmax + 2 * sz->nv + 6 * sz->neq + 2 * sz->ntendon;
  if (njmax < 500) njmax = 500;
  sz->njmax = c->njmax > njmax ? c->njmax : njmax;
  // room for constraint work, at least what the smooth pipeline needs, at least 1 MiB
  double nv = sz->nv, nj = sz->njmax;
  double need = 3 * nj * nv + 6 * nv * nv + 20.0 * (nj + nv + sz->nbody + sz->ngeom);
  if (need < 1 << 17) need = 1 << 17;
  if (need > 1 << 27) need = 1 << 27;
  if (need < mj_stackNeed(sz)) need = mj_stackNeed(sz);
  if (need >= 1 << 28) fail(c, root, "model too large: its data would need %.0f MB of stack",
                             need * sizeof(mjtNum) / 1e6);
  sz->nstack = c->nstack > need ? c->nstack : (int)need;
}

// the sections of <mujoco> in MuJoCo's processing order, and those refused
static const char* const sections[] = {"compiler", "option", "size", "visual", "statistic",
                                       "default", "custom", "asset", "deformable",
                                       "worldbody", "contact",
                                       "equality", "tendon", "actuator", "sensor", "keyframe",
                                       NULL};
static const char* const unsupported[] = {"extension", "plugin", NULL};

// process every top-level child of root called `name` with fn
static void eachSection(Ctx* c, const mjXNode* root, const char* name,
                        void (*fn)(Ctx*, const mjXNode*)) {
  for (int i = 0; i < root->nchild; i++)
    if (!strcmp(root->child[i]->name, name)) fn(c, root->child[i]);
}

// <default> at the top level: the main class
static void readTopDefault(Ctx* c, const mjXNode* e) { readDefault(c, e, NULL); }

// <worldbody>: the world body's contents
static void readWorld(Ctx* c, const mjXNode* e) {
  Frame f = {{0, 0, 0}, {1, 0, 0, 0}, c->classes.p[0], ""};
  checkAttrs(c, e);
  walkBody(c, e, 0, &f);
}

// <tendon>, <actuator>, <keyframe> sections and the name tables they feed
static void readTendonSection(Ctx* c, const mjXNode* e) { readTendons(c, e); }
static void readActuatorSection(Ctx* c, const mjXNode* e) { readActuators(c, e); }
static void readKeySection(Ctx* c, const mjXNode* e) {
  checkAttrs(c, e);
  for (int i = 0; i < e->nchild; i++) {
    if (strcmp(e->child[i]->name, "key")) fail(c, e->child[i], "unknown element in keyframe");
    newObj(c, K_KEY, e->child[i]);
  }
}

// joints with springdamper (tc, dr): a mass-spring-damper of that time constant and damping
// ratio for the joint's inertia at qpos0, mass = 1 / dof_invweight0 (as solref's formula with
// unit impedance): stiffness = mass / (tc^2 dr^2), damping = 2 mass / tc
static void springDampers(Ctx* c, mjModel* m) {
  for (int j = 0; j < m->njnt; j++) {
    const double* sd = ((Item*)c->obj[K_JOINT].p[j])->s.joint.springdamper;
    int dof = m->jnt_dofadr[j];
    if (sd[0] <= 0 || sd[1] <= 0 || m->dof_invweight0[dof] < mjMINVAL) continue;
    double mass = 1 / m->dof_invweight0[dof];
    m->jnt_stiffness[j] = mass / (sd[0] * sd[0] * sd[1] * sd[1]);
    for (int k = 0; k < jointDofs(m->jnt_type[j]); k++) m->dof_damping[dof + k] = 2 * mass / sd[0];
  }
}

// the whole compilation; the model is kept in *out so that errors can free it
static void compile(Ctx* c, const mjXNode* root, mjModel** out) {
  if (strcmp(root->name, "mujoco")) fail(c, root, "the root element must be mujoco");
  c->modelname = getAttr(root, "model");
  if (!c->modelname) c->modelname = "MuJoCo Model";
  checkAttrs(c, root);
  // the compiler's and MuJoCo's defaults
  c->degree = c->autolimits = 1;
  c->inertiafromgeom = 2;
  c->igroup[1] = 5;
  memcpy(c->eulerseq, "xyz", 4);
  mj_defaultOption(&c->opt);
  mj_defaultVisual(&c->vis);
  mj_defaultStatistic(&c->stat);
  Default* main = alloc(c, sizeof(Default));
  builtinDefaults(main);
  main->name = "main";
  push(c, &c->classes, main);
  Body* world = alloc(c, sizeof(Body));
  world->h.e = root;
  world->h.name = "world";
  mju_unit4(world->quat);
  mju_unit4(world->iquat);
  push(c, &c->obj[K_BODY], world);
  // top-level elements must be known sections
  for (int i = 0; i < root->nchild; i++) {
    const mjXNode* s = root->child[i];
    if (wordIndex(unsupported, s->name) >= 0) fail(c, s, "%s is not supported yet", s->name);
    if (wordIndex(sections, s->name) < 0) fail(c, s, "unknown element");
  }
  // settings, classes, assets, then the tree
  eachSection(c, root, "compiler", readCompiler);
  eachSection(c, root, "option", readOption);
  eachSection(c, root, "size", readSize);
  eachSection(c, root, "visual", readVisual);
  eachSection(c, root, "statistic", readStatistic);
  // cameras' default focal length is the near clipping distance
  main->cam.intrinsic[0] = main->cam.intrinsic[1] = c->vis.map_znear;
  eachSection(c, root, "default", readTopDefault);
  eachSection(c, root, "custom", readCustom);
  eachSection(c, root, "asset", readAssets);
  eachSection(c, root, "deformable", readDeformable);
  buildNames(c, K_MESH);  // geoms refer to meshes and height fields as the tree is read
  buildNames(c, K_HFIELD);
  eachSection(c, root, "worldbody", readWorld);
  int nfused = c->obj[K_BODY].n;  // original body ids, the fused items' secondary key
  if (c->fusestatic) fuseStatic(c, root);
  static const int tree[] = {K_JOINT, K_GEOM, K_SITE, K_CAM, K_LIGHT};
  for (int k = 0; k < 5; k++) sortByBody(c, tree[k], nfused);
  static const int named[] = {K_BODY, K_JOINT, K_GEOM, K_SITE, K_CAM, K_LIGHT, K_TEX, K_MAT};
  for (int k = 0; k < 8; k++) buildNames(c, named[k]);
  // objects outside the tree, each kind named before the next refers to it
  int nbody = c->obj[K_BODY].n;
  double* xpos = alloc(c, sizeof(double) * 3 * nbody);
  double* xquat = alloc(c, sizeof(double) * 4 * nbody);
  bodyWorld(c, xpos, xquat);
  eachSection(c, root, "contact", readContact);
  sortSignatures(c, K_PAIR);
  sortSignatures(c, K_EXCLUDE);
  eachSection(c, root, "tendon", readTendonSection);
  buildNames(c, K_TENDON);
  for (int i = 0; i < root->nchild; i++)
    if (!strcmp(root->child[i]->name, "equality"))
      readEqualities(c, root->child[i], xpos, xquat);
  eachSection(c, root, "actuator", readActuatorSection);
  buildNames(c, K_ACT);
  eachSection(c, root, "sensor", readSensors);
  eachSection(c, root, "keyframe", readKeySection);
  // <size nkey> adds unnamed keys at the defaults
  while (c->obj[K_KEY].n < c->nkey) push(c, &c->obj[K_KEY], alloc(c, sizeof(Obj)));
  static const int rest[] = {K_PAIR, K_EXCLUDE, K_EQ, K_SENSOR, K_CUSTOM, K_KEY};
  for (int k = 0; k < 6; k++) buildNames(c, rest[k]);
  // the model: sizes, allocation, arrays
  mjModel sz;
  modelSizes(c, root, &sz);
  mjModel* m = *out = mj_makeModel(&sz);
  if (!m) fail(c, root, "model too large or out of memory");
  m->opt = c->opt;
  m->vis = c->vis;
  fillRanges(c, m);
  bodyInertia(c);
  fillBodies(c, m);
  fillJoints(c, m);
  fillMeshes(c, m);
  fillSkins(c, m);
  fillItems(c, m);
  fillHfields(c, m);
  fillTextures(c, m);
  fillMaterials(c, m);
  fillConstraints(c, m);
  fillTendons(c, m);
  fillSimple(m);
  fillActuators(c, m);
  fillSensors(c, m);
  fillKeys(c, m);
  writeNames(c, m);
  writePaths(c, m);
  // constants that need the model in qpos0, then the statistics given in the file
  mjData* d = mj_makeData(m);
  if (!d) fail(c, root, "out of memory");
  mj_setConst(m, d);
  mj_deleteData(d);
  springDampers(c, m);
  int i = 0;
#define X(type, name, count, shape)                                                          \
  if (c->statset[i++]) memcpy(&m->stat.name, &c->stat.name, sizeof(type) * count);
  MJ_STAT_FIELDS(X)
#undef X
}

// free the compiled meshes, skins and height fields (they live outside the arena)
static void freeMeshes(Ctx* c) {
  for (int i = 0; i < c->obj[K_MESH].n; i++) mj_meshFree(&((Obj*)c->obj[K_MESH].p[i])->mesh);
  for (int i = 0; i < c->obj[K_SKIN].n; i++) mj_skinFree(&((Obj*)c->obj[K_SKIN].p[i])->skin);
  for (int i = 0; i < c->obj[K_HFIELD].n; i++)
    mj_hfieldFree(&((Obj*)c->obj[K_HFIELD].p[i])->hfield);
}

// compile a tree; NULL and a message on failure
mjModel* mj_compileTree(const mjXNode* root, const char* dir, char* err, int errsz) {
  Ctx* c = calloc(1, sizeof(Ctx));
  if (!c) {
    snprintf(err, errsz, "out of memory");
    return NULL;
  }
  c->err = err;
  c->errsz = errsz;
  mjModel* m = NULL;
  mjModel** out = calloc(1, sizeof(mjModel*));
  c->dir = dir;
  if (!out || setjmp(c->jmp)) {
    if (out) mj_deleteModel(*out);
    if (!out) snprintf(err, errsz, "out of memory");
    free(out);
    freeMeshes(c);
    freeArena(c);
    free(c);
    return NULL;
  }
  compile(c, root, out);
  m = *out;
  free(out);
  freeMeshes(c);
  freeArena(c);
  free(c);
  return m;
}

// compile an MJCF file
mjModel* mj_loadXML(const char* filename, char* err, int errsz) {
  mjXDoc* doc = mjx_parseFile(filename, err, errsz);
  if (!doc) return NULL;
  mjModel* m = mj_compileTree(doc->root, doc->dir, err, errsz);
  mjx_free(doc);
  return m;
}

// compile MJCF text held in memory
mjModel* mj_parseXMLString(const char* xml, const char* name, const char* dir,
                           char* err, int errsz) {
  mjXDoc* doc = mjx_parseString(xml, name, dir, err, errsz);
  if (!doc) return NULL;
  mjModel* m = mj_compileTree(doc->root, doc->dir, err, errsz);
  mjx_free(doc);
  return m;
}
