// mjcf_read.c: MJCF elements into spec records, in MuJoCo's order and with its defaults: the
// built-in defaults and <default> classes, the settings sections (compiler, option, size,
// visual, statistic), the body tree (bodies, joints, geoms, sites, cameras, lights, frames,
// replicate), and the sections outside it (contact, equality, tendon, actuator, sensor,
// custom, keyframe).
#include "compiler/mjcf.h"
#include "engine/forward.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/model.h"
#include "util/util.h"

// ---- built-in defaults and the spec readers ----------------------------------------------------

static const double defSolref[2] = {0.02, 1};
static const double defSolimp[5] = {0.9, 0.95, 0.001, 0.5, 2};

// set n floats
static void setFloats(float* v, int n, double a, double b, double c_, double d) {
  const double src[4] = {a, b, c_, d};
  for (int i = 0; i < n; i++) v[i] = (float)src[i];
}

// MuJoCo's built-in defaults of every spec: the "main" class before any <default>
void mjcf_builtinDefaults(Default* d) {
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
  LightSpec* l = &d->light;
  l->castshadow = l->active = 1;
  l->dir[2] = -1;
  l->bulbradius = 0.02f;
  l->softness = 0.2f;
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
const char* const mjcf_camModes[] = {"fixed", "track", "trackcom", "targetbody",
                                       "targetbodycom", NULL};

// read solimp: 1 to 5 numbers overwrite the leading entries
static void readSolimp(Ctx* c, const mjXNode* e, const char* name, double* v) {
  mjcf_readNums(c, e, name, v, 1, 5);
}

// a solref's leading numbers over v, as MuJoCo reads it (solref="0.05" keeps the damping ratio)
static void readSolref(Ctx* c, const mjXNode* e, const char* name, double* v) {
  mjcf_readNums(c, e, name, v, 1, 2);
}

// the user attribute over u: a list of any length replaces the class's (absent or empty: u
// keeps it, as MuJoCo takes user="" as absent)
static void readUser(Ctx* c, const mjXNode* e, User* u) {
  double* v;
  int n = mjcf_readData(c, e, "user", &v);
  if (n) {
    u->v = v;
    u->n = n;
  }
}

// an element's final user numbers u, of kind k (U_*): more than an explicit <size nuser_*>
// is an error; the longest sets the size otherwise.  Counted as the elements are read, so
// that bodies fusestatic merges and geoms discardvisual drops count, as in MuJoCo
static void countUser(Ctx* c, const mjXNode* e, int k, const User* u) {
  static const char* const sizes[NUSER] = {"body", "jnt", "geom", "site", "cam", "tendon",
                                           "actuator", "sensor"};
  if (c->nuser[k] >= 0 && u->n > c->nuser[k])
    mjcf_fail(c, e, "user has %d numbers, more than nuser_%s (%d)", u->n, sizes[k],
              c->nuser[k]);
  if (u->n > c->usermax[k]) c->usermax[k] = u->n;
}

// a spring's or damper's coefficients: 1 to 1 + mjNPOLY numbers over the first of v (the rest
// keep what the class gave, as in MuJoCo)
static void readPoly(Ctx* c, const mjXNode* e, const char* name, double v[1 + mjNPOLY]) {
  mjcf_readNums(c, e, name, v, 1, 1 + mjNPOLY);
}

static const char* const jointTypes[] = {"free", "ball", "slide", "hinge", NULL};

// joint attributes over s
static void readJoint(Ctx* c, const mjXNode* e, JointSpec* s) {
  mjcf_readKey(c, e, "type", jointTypes, &s->type);
  mjcf_readInt(c, e, "group", &s->group);
  mjcf_readVec(c, e, "pos", s->pos, 3);
  mjcf_readVec(c, e, "axis", s->axis, 3);
  mjcf_readVec(c, e, "range", s->range, 2);
  mjcf_readKey(c, e, "limited", mjcf_limitWords, &s->limited);
  mjcf_readKey(c, e, "actuatorfrclimited", mjcf_limitWords, &s->actfrclimited);
  mjcf_readBool(c, e, "actuatorgravcomp", &s->actgravcomp);
  mjcf_readVec(c, e, "ref", &s->ref, 1);
  mjcf_readVec(c, e, "springref", &s->springref, 1);
  readPoly(c, e, "stiffness", s->stiffness);
  readPoly(c, e, "damping", s->damping);
  mjcf_readVec(c, e, "armature", &s->armature, 1);
  mjcf_readVec(c, e, "frictionloss", &s->frictionloss, 1);
  mjcf_readVec(c, e, "margin", &s->margin, 1);
  readSolref(c, e, "solreflimit", s->solref_lim);
  readSolimp(c, e, "solimplimit", s->solimp_lim);
  readSolref(c, e, "solreffriction", s->solref_fri);
  readSolimp(c, e, "solimpfriction", s->solimp_fri);
  mjcf_readVec(c, e, "actuatorfrcrange", s->actfrcrange, 2);
  if (mjcf_readVec(c, e, "springdamper", s->springdamper, 2) &&
      (s->springdamper[0] < 0 || s->springdamper[1] < 0))
    mjcf_fail(c, e, "springdamper values cannot be negative");
  readUser(c, e, &s->user);
}

// geom attributes over s
static void readGeom(Ctx* c, const mjXNode* e, GeomSpec* s) {
  static const char* const shapes[] = {"none", "ellipsoid", NULL};
  mjcf_readKey(c, e, "type", geomTypes, &s->type);
  mjcf_readInt(c, e, "contype", &s->contype);
  mjcf_readInt(c, e, "conaffinity", &s->conaffinity);
  if (mjcf_readInt(c, e, "condim", &s->condim) && s->condim != 1 && s->condim != 3 &&
      s->condim != 4 && s->condim != 6)
    mjcf_fail(c, e, "condim must be 1, 3, 4 or 6");
  mjcf_readInt(c, e, "group", &s->group);
  mjcf_readInt(c, e, "priority", &s->priority);
  mjcf_readNums(c, e, "size", s->size, 1, 3);
  mjcf_readStr(e, "material", &s->material);
  mjcf_readNums(c, e, "friction", s->friction, 1, 3);
  if (mjcf_readVec(c, e, "mass", &s->mass, 1)) s->hasmass = 1;
  mjcf_readVec(c, e, "density", &s->density, 1);
  int shell = 0;
  if (mjcf_readBool(c, e, "shellinertia", &shell) && shell)
    mjcf_fail(c, e, "shellinertia is not supported yet");
  mjcf_readVec(c, e, "solmix", &s->solmix, 1);
  readSolref(c, e, "solref", s->solref);
  readSolimp(c, e, "solimp", s->solimp);
  mjcf_readVec(c, e, "margin", &s->margin, 1);
  mjcf_readVec(c, e, "gap", &s->gap, 1);
  mjcf_readNums(c, e, "surfacevel", s->surfacevel, 1, 6);
  mjcf_readVec(c, e, "adhesion", &s->adhesion, 1);
  if (mjcf_readVec(c, e, "fromto", s->fromto, 6)) s->hasfromto = 1;
  mjcf_readVec(c, e, "pos", s->pos, 3);
  mjcf_readOrient(c, e, &s->orient);
  mjcf_readStr(e, "mesh", &s->mesh);
  mjcf_readStr(e, "hfield", &s->hfield);
  mjcf_readFloats(c, e, "rgba", s->rgba, 4);
  mjcf_readKey(c, e, "fluidshape", shapes, &s->fluidshape);
  mjcf_readVec(c, e, "fluidcoef", s->fluidcoef, 5);
  mjcf_readVec(c, e, "fitscale", &s->fitscale, 1);
  readUser(c, e, &s->user);
}

// site attributes over s
static void readSite(Ctx* c, const mjXNode* e, SiteSpec* s) {
  mjcf_readKey(c, e, "type", geomTypes, &s->type);
  mjcf_readInt(c, e, "group", &s->group);
  mjcf_readNums(c, e, "size", s->size, 1, 3);
  mjcf_readStr(e, "material", &s->material);
  if (mjcf_readVec(c, e, "fromto", s->fromto, 6)) s->hasfromto = 1;
  mjcf_readVec(c, e, "pos", s->pos, 3);
  mjcf_readOrient(c, e, &s->orient);
  mjcf_readFloats(c, e, "rgba", s->rgba, 4);
  readUser(c, e, &s->user);
}

// camera attributes over s
static void readCamera(Ctx* c, const mjXNode* e, CamSpec* s) {
  mjcf_readKey(c, e, "mode", mjcf_camModes, &s->mode);
  mjcf_readStr(e, "target", &s->target);
  mjcf_readVec(c, e, "pos", s->pos, 3);
  mjcf_readOrient(c, e, &s->orient);
  mjcf_readVec(c, e, "fovy", &s->fovy, 1);
  mjcf_readVec(c, e, "ipd", &s->ipd, 1);
  double res[2];
  if (mjcf_readVec(c, e, "resolution", res, 2)) {
    if (res[0] < 1 || res[1] < 1) mjcf_fail(c, e, "resolution must be positive");
    s->resolution[0] = (int)res[0];
    s->resolution[1] = (int)res[1];
  }
  mjcf_readFloats(c, e, "sensorsize", s->sensorsize, 2);
  mjcf_readFloats(c, e, "focal", s->focal, 2);
  mjcf_readFloats(c, e, "focalpixel", s->focalpixel, 2);
  mjcf_readFloats(c, e, "principal", s->principal, 2);
  mjcf_readFloats(c, e, "principalpixel", s->principalpixel, 2);
  static const char* const projections[] = {"perspective", "orthographic", NULL};
  mjcf_readKey(c, e, "projection", projections, &s->projection);
  readUser(c, e, &s->user);
}

// light attributes over s
static void readLight(Ctx* c, const mjXNode* e, LightSpec* s) {
  static const char* const types[] = {"spot", "directional", "point", "image", NULL};
  mjcf_readKey(c, e, "mode", mjcf_camModes, &s->mode);
  mjcf_readStr(e, "target", &s->target);
  int dir;
  if (mjcf_readBool(c, e, "directional", &dir)) s->type = dir ? mjLIGHT_DIRECTIONAL : mjLIGHT_SPOT;
  mjcf_readKey(c, e, "type", types, &s->type);
  mjcf_readBool(c, e, "castshadow", &s->castshadow);
  mjcf_readBool(c, e, "active", &s->active);
  mjcf_readVec(c, e, "pos", s->pos, 3);
  mjcf_readVec(c, e, "dir", s->dir, 3);
  mjcf_readFloats(c, e, "bulbradius", &s->bulbradius, 1);
  mjcf_readFloats(c, e, "softness", &s->softness, 1);
  mjcf_readFloats(c, e, "intensity", &s->intensity, 1);
  mjcf_readFloats(c, e, "range", &s->range, 1);
  mjcf_readFloats(c, e, "attenuation", s->attenuation, 3);
  mjcf_readFloats(c, e, "cutoff", &s->cutoff, 1);
  mjcf_readFloats(c, e, "exponent", &s->exponent, 1);
  mjcf_readFloats(c, e, "ambient", s->ambient, 3);
  mjcf_readFloats(c, e, "diffuse", s->diffuse, 3);
  mjcf_readFloats(c, e, "specular", s->specular, 3);
  mjcf_readStr(e, "texture", &s->texture);
}

// the <layer> roles, in mjtTextureRole order from mjTEXROLE_RGB (user has no MJCF keyword)
static const char* const texRoles[] = {
  "rgb", "occlusion", "roughness", "metallic", "normal", "opacity", "emissive", "rgba", "orm", NULL
};

// material attributes and <layer> children over s (texture= fills the rgb role; the two are
// exclusive on one element); an empty texture name leaves its role as the class had it, as in
// MuJoCo, and a repeated role takes the last layer's texture
void mjcf_readMaterial(Ctx* c, const mjXNode* e, MatSpec* s) {
  const char* texture = NULL;
  int hastexture = mjcf_readStr(e, "texture", &texture);
  if (hastexture && texture[0]) s->textures[mjTEXROLE_RGB] = texture;
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* l = e->child[i];
    if (strcmp(l->name, "layer")) mjcf_fail(c, l, "unknown element in material");
    if (hastexture) mjcf_fail(c, l, "a material with a texture attribute cannot have layers");
    int role;
    if (!mjcf_readKey(c, l, "role", texRoles, &role)) {
      mjcf_fail(c, l, "attribute 'role' is required");
    }
    if (!mjcf_readStr(l, "texture", &texture)) {
      mjcf_fail(c, l, "attribute 'texture' is required");
    }
    if (texture[0]) s->textures[mjTEXROLE_RGB + role] = texture;
    mjcf_checkAttrs(c, l);
  }
  mjcf_readFloats(c, e, "texrepeat", s->texrepeat, 2);
  mjcf_readBool(c, e, "texuniform", &s->texuniform);
  mjcf_readFloats(c, e, "emission", &s->emission, 1);
  mjcf_readFloats(c, e, "specular", &s->specular, 1);
  mjcf_readFloats(c, e, "shininess", &s->shininess, 1);
  mjcf_readFloats(c, e, "reflectance", &s->reflectance, 1);
  mjcf_readFloats(c, e, "metallic", &s->metallic, 1);
  mjcf_readFloats(c, e, "roughness", &s->roughness, 1);
  mjcf_readFloats(c, e, "rgba", s->rgba, 4);
}

// the mesh inertia keywords, in mjtMeshInertia order
static const char* const meshInertias[] = {"convex", "exact", "legacy", "shell", NULL};

// mesh attributes that classes may set, over s
void mjcf_readMeshDefaults(Ctx* c, const mjXNode* e, MeshSpec* s) {
  mjcf_readVec(c, e, "scale", s->scale, 3);
  mjcf_readKey(c, e, "inertia", meshInertias, &s->inertia);
  mjcf_readInt(c, e, "maxhullvert", &s->maxhullvert);
  mjcf_readBool(c, e, "smoothnormal", &s->smoothnormal);
  if (s->maxhullvert != -1 && s->maxhullvert < 4)
    mjcf_fail(c, e, "maxhullvert must be larger than 3");
}

// tendon attributes over s
static void readTendon(Ctx* c, const mjXNode* e, TendonSpec* s) {
  mjcf_readInt(c, e, "group", &s->group);
  mjcf_readKey(c, e, "limited", mjcf_limitWords, &s->limited);
  mjcf_readKey(c, e, "actuatorfrclimited", mjcf_limitWords, &s->actfrclimited);
  mjcf_readVec(c, e, "range", s->range, 2);
  mjcf_readVec(c, e, "actuatorfrcrange", s->actfrcrange, 2);
  readSolref(c, e, "solreflimit", s->solref_lim);
  readSolimp(c, e, "solimplimit", s->solimp_lim);
  readSolref(c, e, "solreffriction", s->solref_fri);
  readSolimp(c, e, "solimpfriction", s->solimp_fri);
  mjcf_readVec(c, e, "frictionloss", &s->frictionloss, 1);
  // one spring length sets both ends of the dead band
  if (mjcf_readNums(c, e, "springlength", s->springlength, 1, 2) == 1)
    s->springlength[1] = s->springlength[0];
  mjcf_readVec(c, e, "width", &s->width, 1);
  mjcf_readStr(e, "material", &s->material);
  mjcf_readVec(c, e, "margin", &s->margin, 1);
  readPoly(c, e, "stiffness", s->stiffness);
  readPoly(c, e, "damping", s->damping);
  mjcf_readVec(c, e, "armature", &s->armature, 1);
  mjcf_readFloats(c, e, "rgba", s->rgba, 4);
  readUser(c, e, &s->user);
}

// equality attributes common to every type over s
static void readEquality(Ctx* c, const mjXNode* e, EqSpec* s) {
  mjcf_readBool(c, e, "active", &s->active);
  readSolref(c, e, "solref", s->solref);
  readSolimp(c, e, "solimp", s->solimp);
}

// contact pair attributes over s
static void readPair(Ctx* c, const mjXNode* e, PairSpec* s) {
  if (mjcf_readInt(c, e, "condim", &s->condim) && s->condim != 1 && s->condim != 3 &&
      s->condim != 4 && s->condim != 6)
    mjcf_fail(c, e, "condim must be 1, 3, 4 or 6");
  mjcf_readNums(c, e, "friction", s->friction, 1, 5);
  readSolref(c, e, "solref", s->solref);
  readSolref(c, e, "solreffriction", s->solreffriction);
  readSolimp(c, e, "solimp", s->solimp);
  mjcf_readVec(c, e, "margin", &s->margin, 1);
  mjcf_readVec(c, e, "gap", &s->gap, 1);
  mjcf_readVec(c, e, "adhesion", &s->adhesion, 1);
}

// the actuator element names; the index is the shortcut kind
static const char* const actKinds[] = {"general", "motor", "position", "velocity", "intvelocity",
                                       "damper", "cylinder", "muscle", "adhesion", "dcmotor",
                                       NULL};
enum { A_GENERAL, A_MOTOR, A_POSITION, A_VELOCITY, A_INTVELOCITY, A_DAMPER, A_CYLINDER,
       A_MUSCLE, A_ADHESION, A_DCMOTOR };

// index of `name` in the NULL-terminated list, or -1
int mjcf_wordIndex(const char* const* words, const char* name) {
  for (int i = 0; words[i]; i++)
    if (!strcmp(words[i], name)) return i;
  return -1;
}

// the keywords of attribute attr (a sensor's data fields, a DC motor's inputs) in the order of
// fields (NULL-ended), each at most once, as bits (0: none given); *size (when not NULL) gets
// the sum of their fieldSize
static int keywordBits(Ctx* c, const mjXNode* e, const char* attr, const char* const* fields,
                       const int* fieldSize, int* size) {
  static const char* const space = " \t\n\r";
  const char* s = mjcf_getAttr(e, attr);
  int bits = 0, last = -1;
  if (size) *size = 0;
  for (s = s ? s + strspn(s, space) : NULL; s && *s; s += strspn(s, space)) {
    size_t n = strcspn(s, space);
    char word[16] = "", order[128] = "";
    if (n < sizeof(word)) memcpy(word, s, n);
    int f = mjcf_wordIndex(fields, word);
    if (f < 0) mjcf_fail(c, e, "attribute '%s': invalid keyword '%.*s'", attr, (int)n, s);
    if (f <= last) {
      for (int k = 0; fields[k]; k++)
        snprintf(order + strlen(order), sizeof(order) - strlen(order), "%s%s", k ? ", " : "",
                 fields[k]);
      mjcf_fail(c, e, "%s fields must be in the order %s, each once", attr, order);
    }
    bits |= 1 << f;
    if (size) *size += fieldSize[f];
    last = f;
    s += n;
  }
  return bits;
}

// position-like gains: gain kp, bias (., -kp, -kv or +dampratio); kp defaults to gainprm[0]
static void readPositionGains(Ctx* c, const mjXNode* e, ActSpec* s) {
  mjcf_readVec(c, e, "kp", &s->gainprm[0], 1);
  if (s->gainprm[0] < 0) mjcf_fail(c, e, "kp cannot be negative");
  double kv, dampratio;
  int haskv = mjcf_readVec(c, e, "kv", &kv, 1);
  int hasdr = mjcf_readVec(c, e, "dampratio", &dampratio, 1);
  if (haskv && hasdr) mjcf_fail(c, e, "kv and dampratio cannot both be given");
  if ((haskv && kv < 0) || (hasdr && dampratio < 0))
    mjcf_fail(c, e, "kv and dampratio must be >= 0");
  s->biasprm[1] = -s->gainprm[0];
  if (haskv) s->biasprm[2] = -kv;
  if (hasdr) s->biasprm[2] = dampratio;  // positive: a damping ratio, resolved by mj_setConst
  s->gaintype = mjGAIN_FIXED;
  s->biastype = mjBIAS_AFFINE;
  mjcf_readVec(c, e, "inheritrange", &s->inheritrange, 1);
}

// <dcmotor input>: "none" alone, or some of pos, vel, ff, voltage in this order, as
// mjtCtrlInput bits (keywordBits); 0 when absent
static int readInputSpec(Ctx* c, const mjXNode* e) {
  static const char* const words[] = {"pos", "vel", "ff", "voltage", NULL};
  const char* p = mjcf_getAttr(e, "input");
  if (!p) return 0;
  p += strspn(p, " \t\n\r");
  if (!strncmp(p, "none", 4) && !p[4 + strspn(p + 4, " \t\n\r")]) return mjINPUT_NONE;
  return keywordBits(c, e, "input", words, NULL, NULL);
}

// <dcmotor>: a DC motor of resistance R and motor constant K = sqrt(Kt Ke) (or the one given;
// Ke from nominal [V, stall torque, no-load speed] when absent, R = K V / stall torque), as
// MuJoCo 3.12's mjs_setToDCMotor lays it out: gainprm = [R, K, alpha, T0, kp, ki, kd, Vmax],
// dynprm = [te, di/dt max, .., slewmax, Imax], biasprm = [cogging amplitude, periodicity,
// phase], forcerange +-saturation; values of a dcmotor class are inherited.  The current is
// a state (the only activation) when te = L/R or inductance's te is positive.  One control
// only (voltage, or one controller input), and no thermal, LuGre, integral or slew states:
// those are refused
static void readDCMotor(Ctx* c, const mjXNode* e, ActSpec* s) {
  static const char* const extra[] = {"forcelimited", "forcerange", "actlimited", "actrange",
                                      "actdim", "actearly", NULL};
  for (int k = 0; extra[k]; k++)
    if (mjx_attr(e, extra[k])) mjcf_fail(c, e, "unknown attribute '%s'", extra[k]);
  int inh = s->gaintype == mjGAIN_DCMOTOR;
  double *gp = s->gainprm, *dp = s->dynprm, *bp = s->biasprm;
  double mc[2] = {inh ? gp[1] : 0, 0}, R = inh ? gp[0] : 0, nom[3] = {0, 0, 0};
  double sat[3] = {0, 0, inh ? dp[1] : 0}, ind[2] = {0, inh ? dp[0] : 0};
  double ctl[6] = {inh ? gp[4] : 0, inh ? gp[5] : 0, inh ? gp[6] : 0,
                   inh ? dp[7] : 0, inh ? dp[8] : 0, inh ? gp[7] : 0};
  double cog[3] = {inh ? bp[0] : 0, inh ? bp[1] : 0, inh ? bp[2] : 0};
  double th[6] = {inh ? dp[2] : 0, inh ? dp[3] : 0, 0, 0, 0, 0}, lugre[5] = {inh ? dp[5] : 0};
  mjcf_readNums(c, e, "motorconst", mc, 1, 2);
  mjcf_readVec(c, e, "resistance", &R, 1);
  mjcf_readNums(c, e, "nominal", nom, 1, 3);
  mjcf_readNums(c, e, "saturation", sat, 1, 3);
  mjcf_readNums(c, e, "inductance", ind, 1, 2);
  mjcf_readNums(c, e, "cogging", cog, 1, 3);
  mjcf_readNums(c, e, "controller", ctl, 1, 6);
  mjcf_readNums(c, e, "thermal", th, 1, 6);
  mjcf_readNums(c, e, "lugre", lugre, 1, 5);
  // the input signature as written (0: none given, kept so for a class's other shortcuts), and
  // as it resolves (voltage by default)
  int given = readInputSpec(c, e);
  given = given ? given : inh ? s->ctrlspec : 0;
  int spec = given ? given : mjINPUT_VOLTAGE;

  // Ke from nominal: omega0 = V Ke / (Ke^2 + R B) with the damping B, else V / Ke
  double Kt = mc[0], Ke = mc[1], V = nom[0], tau0 = nom[1], w0 = nom[2], B = s->damping[0];
  if (V > 0 && Ke <= 0 && w0 > 0) {
    double disc = V * V - 4 * R * B * w0 * w0, exact = V / w0 - V * B / fmax(tau0, mjMINVAL);
    Ke = V / w0;
    if (B > 0 && R > 0 && disc > 0) Ke = (V + sqrt(disc)) / (2 * w0);
    else if (B > 0 && R <= 0 && tau0 > 0 && exact > 0) Ke = exact;
  }
  double K = Kt > 0 && Ke > 0 ? sqrt(Kt * Ke) : Kt > 0 ? Kt : Ke;
  if (R == 0 && V > 0 && tau0 > 0 && K > 0) R = K * V / tau0;
  if (K <= 0) mjcf_fail(c, e, "motor constant must be positive");
  if (R <= 0) mjcf_fail(c, e, "resistance must be positive");
  if (ind[0] < 0 || ind[1] < 0) mjcf_fail(c, e, "inductance must be non-negative");

  // what is not done yet
  if (th[0] > 0 || th[1] > 0 || th[2] > 0)
    mjcf_fail(c, e, "thermal model not supported yet");
  if (lugre[0] > 0) mjcf_fail(c, e, "LuGre friction not supported yet");
  if (ctl[1] > 0 || ctl[3] > 0)
    mjcf_fail(c, e, "controller integral and slew states not supported yet");
  if (spec == mjINPUT_NONE || (spec & (spec - 1)))
    mjcf_fail(c, e, "several or no controls per actuator not supported yet (input: "
                    "one of pos, vel, ff, voltage)");

  // MuJoCo's checks of the controller
  int controller = spec & (mjINPUT_POS | mjINPUT_VEL | mjINPUT_FF);
  if (!controller && (ctl[0] || ctl[1] || ctl[2]))
    mjcf_fail(c, e, "controller gains require a controller input [pos, vel, ff]");

  // the layout: types, gains, saturation, cogging, the current's time constant
  s->dyntype = mjDYN_DCMOTOR;
  s->gaintype = mjGAIN_DCMOTOR;
  s->biastype = mjBIAS_DCMOTOR;
  gp[0] = R;
  gp[1] = K;
  gp[4] = ctl[0];
  gp[5] = ctl[1];
  gp[6] = ctl[2];
  dp[7] = ctl[3];
  dp[8] = ctl[4];
  if (ctl[5] > 0) gp[7] = ctl[5];
  if (sat[0] > 0 || sat[1] > 0) {
    double tmax = sat[0] > 0 ? sat[0] : K * sat[1];  // torque limit, or K times current limit
    s->forcerange[0] = -tmax;
    s->forcerange[1] = tmax;
    s->forcelimited = 1;
  }
  if (sat[2] > 0) dp[1] = sat[2];
  memcpy(bp, cog, sizeof(cog));
  dp[0] = ind[0] > 0 ? ind[0] / R : ind[1];  // te = L / R
  gp[8] = 0;
  s->ctrlspec = given;
  s->actdim = dp[0] > 0;
  s->actlimited = 0;
  s->actearly = 1;
}

// the history buffer attributes of an actuator (or its class) or a sensor: nsample, interp,
// delay
static void readHistory(Ctx* c, const mjXNode* e, HistSpec* h) {
  static const char* const interp[] = {"zoh", "linear", "cubic", NULL};
  mjcf_readInt(c, e, "nsample", &h->nsample);
  mjcf_readKey(c, e, "interp", interp, &h->interp);
  mjcf_readVec(c, e, "delay", &h->delay, 1);
}

// MuJoCo's checks of an element's history buffer: a delay needs samples, at most 2^24 of them
// (the buffer's cursor is an mjtNum, exact in single precision to 2^24)
static void checkHistory(Ctx* c, const mjXNode* e, const HistSpec* h) {
  if (h->delay > 0 && h->nsample <= 0)
    mjcf_fail(c, e, "setting delay > 0 without a history buffer");
  if (h->nsample > 1 << 24)
    mjcf_fail(c, e, "at most 2^24 samples in history buffer, got %d", h->nsample);
}

// actuator attributes over s for shortcut `kind`: common ones, then the shortcut's own,
// expanded into dyn/gain/bias types and parameters as MuJoCo does
static void readActuator(Ctx* c, const mjXNode* e, ActSpec* s, int kind) {
  static const char* const dyn[] = {"none", "integrator", "filter", "filterexact", "muscle",
                                    "user", NULL};
  static const char* const gain[] = {"fixed", "affine", "muscle", "user", NULL};
  static const char* const bias[] = {"none", "affine", "muscle", "user", NULL};
  mjcf_readInt(c, e, "group", &s->group);
  mjcf_readKey(c, e, "ctrllimited", mjcf_limitWords, &s->ctrllimited);
  mjcf_readKey(c, e, "forcelimited", mjcf_limitWords, &s->forcelimited);
  mjcf_readKey(c, e, "actlimited", mjcf_limitWords, &s->actlimited);
  mjcf_readVec(c, e, "ctrlrange", s->ctrlrange, 2);
  mjcf_readVec(c, e, "forcerange", s->forcerange, 2);
  mjcf_readVec(c, e, "actrange", s->actrange, 2);
  mjcf_readVec(c, e, "lengthrange", s->lengthrange, 2);
  mjcf_readNums(c, e, "gear", s->gear, 1, 6);
  mjcf_readVec(c, e, "cranklength", &s->cranklength, 1);
  readPoly(c, e, "damping", s->damping);
  mjcf_readVec(c, e, "armature", &s->armature, 1);
  mjcf_readInt(c, e, "actdim", &s->actdim);
  mjcf_readBool(c, e, "actearly", &s->actearly);
  readHistory(c, e, &s->hist);
  readUser(c, e, &s->user);
  double x, v[2];
  switch (kind) {
    case A_GENERAL:
      mjcf_readKey(c, e, "dyntype", dyn, &s->dyntype);
      mjcf_readKey(c, e, "gaintype", gain, &s->gaintype);
      mjcf_readKey(c, e, "biastype", bias, &s->biastype);
      mjcf_readNums(c, e, "dynprm", s->dynprm, 1, 10);
      mjcf_readNums(c, e, "gainprm", s->gainprm, 1, 10);
      mjcf_readNums(c, e, "biasprm", s->biasprm, 1, 10);
      break;
    case A_MOTOR:  // unit gain, no bias, no dynamics
      s->gainprm[0] = 1;
      s->dyntype = mjDYN_NONE;
      s->gaintype = mjGAIN_FIXED;
      s->biastype = mjBIAS_NONE;
      break;
    case A_POSITION:  // optional first-order filter of time constant timeconst
      readPositionGains(c, e, s);
      if (mjcf_readVec(c, e, "timeconst", &x, 1)) {
        if (x < 0) mjcf_fail(c, e, "timeconst cannot be negative");
        s->dynprm[0] = x;
        s->dyntype = x > 0 ? mjDYN_FILTEREXACT : mjDYN_NONE;
      }
      break;
    case A_INTVELOCITY:  // position servo on an integrated activation
      readPositionGains(c, e, s);
      s->dyntype = mjDYN_INTEGRATOR;
      break;
    case A_VELOCITY:  // gain kv, bias -kv * velocity
      mjcf_readVec(c, e, "kv", &s->gainprm[0], 1);
      if (s->gainprm[0] < 0) mjcf_fail(c, e, "kv cannot be negative");
      s->biasprm[0] = s->biasprm[1] = 0;
      s->biasprm[2] = -s->gainprm[0];
      s->dyntype = mjDYN_NONE;
      s->gaintype = mjGAIN_FIXED;
      s->biastype = mjBIAS_AFFINE;
      break;
    case A_DAMPER:  // force = -kv * velocity * ctrl
      x = 0;
      mjcf_readVec(c, e, "kv", &x, 1);
      if (x < 0) mjcf_fail(c, e, "kv cannot be negative");
      s->gainprm[0] = s->gainprm[1] = 0;
      s->gainprm[2] = -x;
      s->dyntype = mjDYN_NONE;
      s->gaintype = mjGAIN_AFFINE;
      s->biastype = mjBIAS_NONE;
      break;
    case A_CYLINDER: {  // filtered pressure times area (or pi/4 diameter^2), bias[0]
      mjcf_readVec(c, e, "timeconst", &s->dynprm[0], 1);
      mjcf_readVec(c, e, "area", &s->gainprm[0], 1);
      if (mjcf_readVec(c, e, "diameter", &x, 1)) s->gainprm[0] = mjPI / 4 * x * x;
      double b[3] = {s->biasprm[0], 0, 0};
      if (mjcf_readVec(c, e, "bias", b, 3)) s->biasprm[0] = b[0];
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
      mjcf_readVec(c, e, "timeconst", s->dynprm, 2);
      mjcf_readVec(c, e, "tausmooth", &s->dynprm[2], 1);
      if (mjcf_readVec(c, e, "range", v, 2)) memcpy(s->gainprm, v, sizeof(v));
      for (int i = 2; i < 9; i++) mjcf_readVec(c, e, names[i], &s->gainprm[i], 1);
      memcpy(s->biasprm, s->gainprm, sizeof(double) * 9);
      s->dyntype = mjDYN_MUSCLE;
      s->gaintype = mjGAIN_MUSCLE;
      s->biastype = mjBIAS_MUSCLE;
      break;
    }
    case A_DCMOTOR:
      readDCMotor(c, e, s);
      break;
    case A_ADHESION:  // gain on a body transmission, no bias
      mjcf_readVec(c, e, "gain", &s->gainprm[0], 1);
      if (s->gainprm[0] < 0) mjcf_fail(c, e, "gain cannot be negative");
      s->dyntype = mjDYN_NONE;
      s->gaintype = mjGAIN_FIXED;
      s->biastype = mjBIAS_NONE;
      break;
  }
}

// ---- top-level settings: compiler, option, size, visual, statistic -----------------------------

// <compiler><lengthrange>: the options of the actuator length range computation (mjLROpt)
static void readLengthRange(Ctx* c, const mjXNode* e) {
  static const char* const modes[] = {"none", "muscle", "muscleuser", "all", NULL};
  mjLROpt* o = &c->lropt;
  mjcf_readKey(c, e, "mode", modes, &o->mode);
  mjcf_readBool(c, e, "useexisting", &o->useexisting);
  mjcf_readBool(c, e, "uselimit", &o->uselimit);
  // the numbers, by name
  static const char* const names[] = {"accel", "maxforce", "timeconst", "timestep",
                                      "inttotal", "interval", "tolrange"};
  double* nums[] = {&o->accel, &o->maxforce, &o->timeconst, &o->timestep,
                    &o->inttotal, &o->interval, &o->tolrange};
  for (int i = 0; i < 7; i++) mjcf_readVec(c, e, names[i], nums[i], 1);
  mjcf_checkAttrs(c, e);
  if (e->nchild) mjcf_fail(c, e->child[0], "unsupported element in lengthrange");
}

// <compiler>: angle units, euler sequence, inertia and limit rules, <lengthrange>
void mjcf_readCompiler(Ctx* c, const mjXNode* e) {
  static const char* const angles[] = {"radian", "degree", NULL};
  static const char* const coords[] = {"local", "global", NULL};
  static const char* const ifg[] = {"false", "true", "auto", NULL};
  int coord = 0;
  mjcf_readKey(c, e, "angle", angles, &c->degree);
  if (mjcf_readKey(c, e, "coordinate", coords, &coord) && coord)
    mjcf_fail(c, e, "coordinate=\"global\" is not supported (removed from MuJoCo); use local");
  const char* seq = mjcf_getAttr(e, "eulerseq");
  if (seq) {
    if (strlen(seq) != 3 || strspn(seq, "xyzXYZ") != 3)
      mjcf_fail(c, e, "eulerseq must be 3 characters from xyzXYZ");
    memcpy(c->eulerseq, seq, 4);
  }
  mjcf_readBool(c, e, "autolimits", &c->autolimits);
  mjcf_readKey(c, e, "inertiafromgeom", ifg, &c->inertiafromgeom);
  mjcf_readVec(c, e, "boundmass", &c->boundmass, 1);
  mjcf_readVec(c, e, "boundinertia", &c->boundinertia, 1);
  mjcf_readVec(c, e, "settotalmass", &c->settotalmass, 1);
  mjcf_readBool(c, e, "balanceinertia", &c->balanceinertia);
  double g[2];
  if (mjcf_readVec(c, e, "inertiagrouprange", g, 2)) {
    c->igroup[0] = (int)g[0];
    c->igroup[1] = (int)g[1];
  }
  mjcf_readBool(c, e, "fusestatic", &c->fusestatic);
  mjcf_readBool(c, e, "alignfree", &c->alignfree);
  mjcf_readBool(c, e, "discardvisual", &c->discardvisual);
  // asset directories: assetdir sets both, meshdir and texturedir override it
  const char* assetdir = NULL;
  if (mjcf_readStr(e, "assetdir", &assetdir)) c->meshdir = c->texturedir = assetdir;
  mjcf_readStr(e, "meshdir", &c->meshdir);
  mjcf_readStr(e, "texturedir", &c->texturedir);
  mjcf_readBool(c, e, "strippath", &c->strippath);
  mjcf_readBool(c, e, "fitaabb", &c->fitaabb);
  static const char* const conflicts[] = {"warning", "merge", "error", NULL};
  mjcf_readKey(c, e, "conflict", conflicts, &c->conflict);
  mjcf_ignoreAttrs(e, "usethread exactmeshinertia saveinertial");
  mjcf_checkAttrs(c, e);
  for (int i = 0; i < e->nchild; i++) {
    if (strcmp(e->child[i]->name, "lengthrange"))
      mjcf_fail(c, e->child[i], "unsupported element in compiler");
    readLengthRange(c, e->child[i]);
  }
}

// <option> attributes (the mjOption fields by name) and its <flag> child; the keyword and
// flag names are lib/engine/options.c's
void mjcf_readOption(Ctx* c, const mjXNode* e) {
  mjOption* o = &c->opt;
  // numeric fields by their table names; the keyword and flag fields are read below
#define X(type, name, count, shape)                                                          \
  if (!strcmp(#type, "mjtNum")) mjcf_readVec(c, e, #name, (double*)(void*)&o->name, count);
  MJ_OPTION_FIELDS(X)
#undef X
  mjcf_readInt(c, e, "iterations", &o->iterations);
  mjcf_readInt(c, e, "ls_iterations", &o->ls_iterations);
  mjcf_readInt(c, e, "noslip_iterations", &o->noslip_iterations);
  mjcf_readInt(c, e, "ccd_iterations", &o->ccd_iterations);
  mjcf_readInt(c, e, "sdf_initpoints", &o->sdf_initpoints);
  mjcf_readInt(c, e, "sdf_iterations", &o->sdf_iterations);
  mjcf_readKey(c, e, "integrator", mj_optionKeywords("integrator"), &o->integrator);
  mjcf_readKey(c, e, "cone", mj_optionKeywords("cone"), &o->cone);
  mjcf_readKey(c, e, "jacobian", mj_optionKeywords("jacobian"), &o->jacobian);
  mjcf_readKey(c, e, "solver", mj_optionKeywords("solver"), &o->solver);
  // actuator groups to disable: a list of group numbers 0..30
  double groups[31];
  int ng = mjcf_readNums(c, e, "actuatorgroupdisable", groups, 1, 31);
  for (int i = 0; i < ng; i++) {
    if (groups[i] < 0 || groups[i] > 30 || groups[i] != floor(groups[i]))
      mjcf_fail(c, e, "actuatorgroupdisable: groups are integers 0..30");
    o->disableactuator |= 1 << (int)groups[i];
  }
  mjcf_checkAttrs(c, e);
  char msg[200];
  if (mj_checkOption(o, msg, sizeof(msg))) mjcf_fail(c, e, "%s", msg);
  // <flag name="enable|disable">
  static const char* const onoff[] = {"disable", "enable", NULL};
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* f = e->child[i];
    if (strcmp(f->name, "flag")) mjcf_fail(c, f, "unknown element in option");
    int v;
    for (int b = 0; mj_disableFlagNames[b]; b++) {
      if (!mjcf_readKey(c, f, mj_disableFlagNames[b], onoff, &v)) continue;
      if (v) o->disableflags &= ~(1 << b);
      else o->disableflags |= 1 << b;
    }
    for (int b = 0; mj_enableFlagNames[b]; b++) {
      if (!mjcf_readKey(c, f, mj_enableFlagNames[b], onoff, &v)) continue;
      if (v) o->enableflags |= 1 << b;
      else o->enableflags &= ~(1 << b);
    }
    mjcf_checkAttrs(c, f);
  }
}

// <size>: memory, the preallocation counts and the user numbers' sizes (nuserdata, the size of
// mjData.userdata, is accepted and ignored)
void mjcf_readSize(Ctx* c, const mjXNode* e) {
  mjcf_readInt(c, e, "njmax", &c->njmax);
  mjcf_readInt(c, e, "nconmax", &c->nconmax);
  mjcf_readInt(c, e, "nstack", &c->nstack);
  mjcf_readInt(c, e, "nkey", &c->nkey);
  const char* mem = mjcf_getAttr(e, "memory");
  if (mem) {
    // bytes with an optional K, M or G suffix
    char* end;
    double x = strtod(mem, &end);
    double scale = *end == 'K' || *end == 'k' ? 1024.0 : *end == 'M' || *end == 'm' ? 1048576.0
                 : *end == 'G' || *end == 'g' ? 1073741824.0 : 1;
    if (end == mem || x < 0 || (*end && end[1]) || (*end && scale == 1 && *end != ' '))
      mjcf_fail(c, e, "attribute 'memory': malformed size");
    double n = x * scale / sizeof(mjtNum);
    // beyond an int of mjtNums is beyond the data limit too: refused, not ignored
    if (n >= 1 << 28) mjcf_fail(c, e, "attribute 'memory': %s is too large", mem);
    if (n > c->nstack) c->nstack = (int)n;
  }
  static const char* const nuser[NUSER] = {"nuser_body", "nuser_jnt", "nuser_geom",
                                           "nuser_site", "nuser_cam", "nuser_tendon",
                                           "nuser_actuator", "nuser_sensor"};
  for (int k = 0; k < NUSER; k++)
    if (mjcf_readInt(c, e, nuser[k], &c->nuser[k]) && c->nuser[k] < -1)
      mjcf_fail(c, e, "%s must be >= -1", nuser[k]);
  mjcf_ignoreAttrs(e, "nuserdata");
  mjcf_checkAttrs(c, e);
}

// <visual>: sections named as in mjVisual, attributes as its fields
void mjcf_readVisual(Ctx* c, const mjXNode* e) {
  static const char* const sections[] = {"global", "quality", "headlight", "map", "scale",
                                         "rgba", NULL};
  // the scalar fields MJCF writes as true/false rather than as numbers (rgba's bvactive is a
  // color)
  static const char* const bools[] = {"orthographic", "ellipsoidinertia", "bvactive", NULL};
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* s = e->child[i];
    if (mjcf_wordIndex(sections, s->name) < 0) mjcf_fail(c, s, "unknown element in visual");
    mjVisual* v = &c->vis;
    const char* sec = s->name;
    int b;
#define X(type, section, name, count, shape)                                                 \
  if (!strcmp(sec, #section)) {                                                              \
    if ((count) > 1 || mjcf_wordIndex(bools, #name) < 0)                                         \
      mjcf_readFloats(c, s, #name, (float*)(void*)&v->section##_##name, count);                   \
    else if (mjcf_readBool(c, s, #name, &b))                                                      \
      *(float*)(void*)&v->section##_##name = (float)b;                                       \
  }
    MJ_VISUAL_FIELDS(X)
#undef X
    mjcf_checkAttrs(c, s);
  }
  mjcf_checkAttrs(c, e);
}

// <statistic>: values that override the computed statistics
void mjcf_readStatistic(Ctx* c, const mjXNode* e) {
  int i = 0;
#define X(type, name, count, shape)                                                          \
  c->statset[i++] |= mjcf_readVec(c, e, #name, (double*)(void*)&c->stat.name, count) > 0;
  MJ_STAT_FIELDS(X)
#undef X
  mjcf_checkAttrs(c, e);
}

// ---- default classes ---------------------------------------------------------------------------

// the class called `name`, referenced by element e; error if undefined
static const Default* findClass(Ctx* c, const mjXNode* e, const char* name) {
  for (int i = 0; i < c->classes.n; i++) {
    const Default* d = c->classes.p[i];
    if (!strcmp(d->name, name)) return d;
  }
  mjcf_fail(c, e, "unknown default class '%s'", name);
}

// a new "main" class of the built-in defaults
Default* mjcf_mainClass(Ctx* c) {
  Default* d = mjcf_alloc(c, sizeof(Default));
  mjcf_builtinDefaults(d);
  d->name = "main";
  return d;
}

// the class named by e's "class" attribute, or `inherited` when it has none
const Default* mjcf_elemClass(Ctx* c, const mjXNode* e, const Default* inherited) {
  const char* name = mjcf_getAttr(e, "class");
  return name ? findClass(c, e, name) : inherited;
}

// a <default> element: a new class copied from `parent` (or "main" itself at the top level),
// its element defaults, then its nested classes
void mjcf_readDefault(Ctx* c, const mjXNode* e, Default* parent) {
  const char* name = mjcf_getAttr(e, "class");
  Default* d;
  if (!parent) {
    // top level: the main class
    if (name && strcmp(name, "main")) mjcf_fail(c, e, "top-level default class must be 'main'");
    d = c->classes.p[0];
  } else {
    if (!name) mjcf_fail(c, e, "nested default needs a class name");
    for (int i = 0; i < c->classes.n; i++)
      if (!strcmp(((Default*)c->classes.p[i])->name, name))
        mjcf_fail(c, e, "repeated default class '%s'", name);
    d = mjcf_alloc(c, sizeof(Default));
    *d = *parent;
    d->name = name;
    mjcf_push(c, &c->classes, d);
  }
  mjcf_checkAttrs(c, e);
  // the element defaults in document order
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* ch = e->child[i];
    const char* n = ch->name;
    int kind = mjcf_wordIndex(actKinds, n);
    if (!strcmp(n, "default")) continue;
    if (!strcmp(n, "joint")) readJoint(c, ch, &d->joint);
    else if (!strcmp(n, "geom")) readGeom(c, ch, &d->geom);
    else if (!strcmp(n, "site")) readSite(c, ch, &d->site);
    else if (!strcmp(n, "camera")) readCamera(c, ch, &d->cam);
    else if (!strcmp(n, "light")) readLight(c, ch, &d->light);
    else if (!strcmp(n, "material")) mjcf_readMaterial(c, ch, &d->mat);
    else if (!strcmp(n, "tendon")) readTendon(c, ch, &d->tendon);
    else if (!strcmp(n, "equality")) readEquality(c, ch, &d->eq);
    else if (!strcmp(n, "pair")) readPair(c, ch, &d->pair);
    else if (kind >= 0) readActuator(c, ch, &d->act, kind);
    else if (!strcmp(n, "mesh")) mjcf_readMeshDefaults(c, ch, &d->mesh);
    else mjcf_fail(c, ch, "unknown element in default");
    mjcf_checkAttrs(c, ch);
  }
  // nested classes after this class is complete
  for (int i = 0; i < e->nchild; i++)
    if (!strcmp(e->child[i]->name, "default")) mjcf_readDefault(c, e->child[i], d);
}

// ---- the body tree -----------------------------------------------------------------------------

// a followed by b, in the context's memory
static const char* joined(Ctx* c, const char* a, const char* b) {
  size_t n = strlen(a) + strlen(b) + 1;
  char* s = mjcf_alloc(c, n);
  snprintf(s, n, "%s%s", a, b);
  return s;
}

// `name` with the current prefix (NULL stays NULL)
const char* mjcf_prefixed(Ctx* c, const char* name) {
  return !name || !c->prefix[0] ? name : joined(c, c->prefix, name);
}

// `name` of kind k with the prefix (not an asset's in a model attached to itself), and the
// suffix unless k is an asset's or a key's kind (taken once from a replicated attachment)
const char* mjcf_scoped(Ctx* c, int k, const char* name) {
  int asset = k == K_MESH || k == K_SKIN || k == K_HFIELD || k == K_TEX || k == K_MAT;
  if (!(asset && c->self)) name = mjcf_prefixed(c, name);
  if (!name || asset || k == K_KEY || !c->suffix[0]) return name;
  return joined(c, name, c->suffix);
}

// the name of an element under frame f: its own with the prefix and the frame's suffix (NULL
// when unnamed)
static const char* frameName(Ctx* c, const Frame* f, const char* name) {
  name = mjcf_prefixed(c, name);
  return !name || !f->suffix[0] ? name : joined(c, name, f->suffix);
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
    if (len < mjMINVAL) mjcf_fail(c, e, "fromto points coincide");
    mju_quatZ2Vec(quat, d);
    size[lenidx] = 0.5 * len;
    if (lenidx == 2) size[1] = size[0];  // box, ellipsoid: a square cross-section
  } else {
    mju_copy3(pos, spos);
    mjcf_orientQuat(c, e, o, quat);
  }
}

// the size index that fromto sets for geom type t; -1 when fromto is not allowed
static int fromtoIndex(int t) {
  if (t == mjGEOM_CAPSULE || t == mjGEOM_CYLINDER) return 1;
  if (t == mjGEOM_BOX || t == mjGEOM_ELLIPSOID) return 2;
  return -1;
}

// the size of primitive geom type t fitted to mesh `me`, scaled by fitscale, and its center in
// the mesh frame: the smallest one whose bounding box holds the mesh's (fitaabb; centered on
// that box), else one sized by the mesh's equivalent-inertia box (at the mesh frame's origin)
static void fitGeom(Ctx* c, const mjXNode* e, const mjMesh* me, int t, double scale,
                    double size[3], double center[3]) {
  double box[3];  // half-sizes of the box fitted to the mesh
  mju_zero3(center);
  if (c->fitaabb) {
    mju_copy3(center, me->aabb);
    mju_copy3(box, me->aabb + 3);
  } else {
    // a box of the mesh's volume and principal inertia: I0 = V (b1^2 + b2^2) / 3 for half
    // sizes b, so b0^2 = 3 (I1 + I2 - I0) / (2 V)
    const double* I = me->inertia;
    if (me->volume < mjMINVAL) mjcf_fail(c, e, "mesh has no volume to fit a primitive to");
    for (int k = 0; k < 3; k++)
      box[k] = sqrt(fmax(0, 3 * (I[(k + 1) % 3] + I[(k + 2) % 3] - I[k]) / (2 * me->volume)));
  }
  switch (t) {
    case mjGEOM_SPHERE:
      // the bounding box's largest half size, or the inertia box's mean
      size[0] = c->fitaabb ? fmax(fmax(box[0], box[1]), box[2]) : (box[0] + box[1] + box[2]) / 3;
      break;
    case mjGEOM_CAPSULE:
    case mjGEOM_CYLINDER:
      // radius from the x, y half sizes (the larger, or the mean), half length along z, less
      // the cap for a capsule (the whole radius in the bounding box, half of it otherwise)
      size[0] = c->fitaabb ? fmax(box[0], box[1]) : (box[0] + box[1]) / 2;
      size[1] = box[2];
      if (t == mjGEOM_CAPSULE)
        size[1] = c->fitaabb ? size[1] - size[0] : fmax(0, size[1] - size[0] / 2);
      break;
    case mjGEOM_ELLIPSOID:
    case mjGEOM_BOX: mju_copy3(size, box); break;
    default: mjcf_fail(c, e, "a geom of this type cannot be fitted to a mesh");
  }
  mju_scl3(size, size, scale);
}

// a geom naming a mesh: a mesh geom takes the mesh frame (pose = geom pose * mesh frame),
// a primitive is fitted to the mesh in that frame; the mesh keeps its hull graph when a mesh
// geom of it collides (a fitted primitive collides as itself)
static void meshGeom(Ctx* c, const mjXNode* e, Item* it) {
  GeomSpec* s = &it->s.geom;
  int id = mjcf_mapFind(&c->names[K_MESH], s->mesh);
  if (id < 0) mjcf_fail(c, e, "unknown mesh '%s'", s->mesh);
  const mjMesh* me = &((Obj*)c->obj[K_MESH].p[id])->mesh;
  s->dataid = id;
  s->meshdata = me;
  if (s->type == mjGEOM_MESH && (s->contype || s->conaffinity))
    ((Obj*)c->obj[K_MESH].p[id])->keepgraph = 1;
  // the mesh frame, moved to a fitted primitive's center: pos += q (p_mesh + q_mesh center)
  double center[3] = {0, 0, 0}, off[3], meshpos[3];
  if (s->type != mjGEOM_MESH) fitGeom(c, e, me, s->type, s->fitscale, s->size, center);
  mju_rotVecQuat(meshpos, center, me->quat);
  mju_addTo3(meshpos, me->pos);
  mju_rotVecQuat(off, meshpos, it->quat);
  mju_addTo3(it->pos, off);
  mju_mulQuat(it->quat, it->quat, me->quat);
  // the surface velocity in the new frame: its angular part held about meshpos, v += w x
  // meshpos, then both parts turned by the mesh orientation's inverse
  if (mju_isZero(s->surfacevel, 6)) return;
  double wxp[3], inv[4];
  mju_cross(wxp, s->surfacevel + 3, meshpos);
  mju_addTo3(s->surfacevel, wxp);
  mju_negQuat(inv, me->quat);
  for (int k = 0; k < 6; k += 3) {
    mju_rotVecQuat(off, s->surfacevel + k, inv);
    mju_copy3(s->surfacevel + k, off);
  }
}

// a height field geom: its hfield's id, and the geom size from the hfield's
static void hfieldGeom(Ctx* c, const mjXNode* e, GeomSpec* s) {
  if (!s->hfield) mjcf_fail(c, e, "hfield geom needs an hfield");
  s->dataid = mjcf_mapFind(&c->names[K_HFIELD], s->hfield);
  if (s->dataid < 0) mjcf_fail(c, e, "unknown hfield '%s'", s->hfield);
  mjtNum rbound, aabb[6];
  mj_hfieldGeomBound(((Obj*)c->obj[K_HFIELD].p[s->dataid])->hfield.size, s->size, &rbound, aabb);
}

// 1 when an element of the tree at e names geom `name`: geom, geom1, geom2 (pairs, tendon
// wraps, distance sensors) or objname/refname beside objtype/reftype "geom" (sensors, tuples)
static int geomNamed(const mjXNode* e, const char* name) {
  static const char* const direct[] = {"geom", "geom1", "geom2", NULL};
  const char *objtype = mjx_attr(e, "objtype"), *reftype = mjx_attr(e, "reftype");
  const char *objname = mjx_attr(e, "objname"), *refname = mjx_attr(e, "refname");
  for (int a = 0; a < e->nattr; a++)
    if (mjcf_wordIndex(direct, e->attr[2 * a]) >= 0 && !strcmp(e->attr[2 * a + 1], name))
      return 1;
  if ((objtype && objname && !strcmp(objtype, "geom") && !strcmp(objname, name)) ||
      (reftype && refname && !strcmp(reftype, "geom") && !strcmp(refname, name)))
    return 1;
  for (int i = 0; i < e->nchild; i++)
    if (geomNamed(e->child[i], name)) return 1;
  return 0;
}

// a joint, geom, site, camera or light of body `body` under frame f
static void addItem(Ctx* c, int kind, const mjXNode* e, int body, const Frame* f) {
  Item* it = mjcf_alloc(c, sizeof(Item));
  it->h.e = e;
  it->body = body;
  it->freejoint = !strcmp(e->name, "freejoint");
  const Default* cls = it->freejoint ? NULL : mjcf_elemClass(c, e, f->cls);
  mjcf_readStr(e, "name", &it->h.name);
  it->h.name = frameName(c, f, it->h.name);
  it->degree = c->degree;
  mju_unit4(it->quat);
  switch (kind) {
    case K_JOINT: {
      JointSpec* s = &it->s.joint;
      if (it->freejoint) {
        // a free joint takes no class defaults
        Default builtin;
        mjcf_builtinDefaults(&builtin);
        *s = builtin.joint;
        s->type = mjJNT_FREE;
        mjcf_readInt(c, e, "group", &s->group);
        s->align = 2;
        mjcf_readKey(c, e, "align", mjcf_limitWords, &s->align);
      } else {
        *s = cls->joint;
        readJoint(c, e, s);
      }
      countUser(c, e, U_JNT, &s->user);
      if (body == 0) mjcf_fail(c, e, "joints cannot be attached to the world body");
      // anchor and axis in the body frame
      mju_copy3(it->pos, s->pos);
      mju_rotVecQuat(s->axis, s->axis, f->quat);
      mju_copy4(it->quat, f->quat);
      applyFrame(f, it->pos, it->quat);
      if ((s->type == mjJNT_HINGE || s->type == mjJNT_SLIDE) && mju_norm3(s->axis) < mjMINVAL)
        mjcf_fail(c, e, "axis has zero norm");
      mju_normalize3(s->axis);
      break;
    }
    case K_GEOM: {
      GeomSpec* s = &it->s.geom;
      *s = cls->geom;
      readGeom(c, e, s);
      countUser(c, e, U_GEOM, &s->user);
      s->material = mjcf_scoped(c, K_MAT, s->material);
      s->mesh = mjcf_scoped(c, K_MESH, s->mesh);
      s->hfield = mjcf_scoped(c, K_HFIELD, s->hfield);
      if (s->type == mjGEOM_SDF) mjcf_fail(c, e, "sdf geometry is not supported yet");
      if (s->type == mjGEOM_HFIELD) hfieldGeom(c, e, s);
      int k = fromtoIndex(s->type);
      if (s->hasfromto && k < 0)
        mjcf_fail(c, e, "fromto requires capsule, cylinder, box or ellipsoid");
      elemPose(c, e, s->pos, &s->orient, s->hasfromto, s->fromto, s->size, k, it->pos, it->quat);
      applyFrame(f, it->pos, it->quat);
      if (s->type == mjGEOM_MESH && !s->mesh) mjcf_fail(c, e, "mesh geom needs a mesh");
      if (s->mesh) meshGeom(c, e, it);
      // sizes the type uses must be positive (planes: non-negative)
      static const int nsize[] = {3, 0, 1, 2, 3, 2, 3, 0, 0};
      for (int i = 0; i < nsize[s->type]; i++) {
        if (s->type == mjGEOM_PLANE ? s->size[i] < 0 : s->size[i] <= 0)
          mjcf_fail(c, e, "size %d must be positive", i);
      }
      if (s->hasmass && s->mass < 0) mjcf_fail(c, e, "mass cannot be negative");
      if (!s->hasmass && s->density < 0) mjcf_fail(c, e, "density cannot be negative");
      break;
    }
    case K_SITE: {
      SiteSpec* s = &it->s.site;
      *s = cls->site;
      readSite(c, e, s);
      countUser(c, e, U_SITE, &s->user);
      s->material = mjcf_scoped(c, K_MAT, s->material);
      int k = fromtoIndex(s->type);
      if (s->hasfromto && k < 0)
        mjcf_fail(c, e, "fromto requires capsule, cylinder, box or ellipsoid");
      elemPose(c, e, s->pos, &s->orient, s->hasfromto, s->fromto, s->size, k, it->pos, it->quat);
      applyFrame(f, it->pos, it->quat);
      break;
    }
    case K_CAM: {
      CamSpec* s = &it->s.cam;
      *s = cls->cam;
      readCamera(c, e, s);
      countUser(c, e, U_CAM, &s->user);
      s->target = mjcf_scoped(c, K_BODY, s->target);
      mju_copy3(it->pos, s->pos);
      mjcf_orientQuat(c, e, &s->orient, it->quat);
      applyFrame(f, it->pos, it->quat);
      break;
    }
    case K_LIGHT: {
      LightSpec* s = &it->s.light;
      *s = cls->light;
      readLight(c, e, s);
      s->target = mjcf_scoped(c, K_BODY, s->target);
      s->texture = mjcf_scoped(c, K_TEX, s->texture);
      mju_copy3(it->pos, s->pos);
      applyFrame(f, it->pos, it->quat);
      mju_rotVecQuat(s->dir, s->dir, f->quat);
      if (mju_norm3(s->dir) < mjMINVAL) mjcf_fail(c, e, "dir has zero norm");
      mju_normalize3(s->dir);
      break;
    }
  }
  mjcf_checkAttrs(c, e);
  if (e->nchild) mjcf_fail(c, e->child[0], "unknown element in %s", e->name);
  // visual geoms are dropped when the compiler says so, unless something names them (a pair,
  // a tendon, a sensor, a tuple); their masses still count
  if (kind == K_GEOM) {
    mjcf_push(c, &c->massgeoms, it);
    if (c->discardvisual && !it->s.geom.contype && !it->s.geom.conaffinity &&
        !(it->h.name && geomNamed(c->root, it->h.name)))
      return;
  }
  mjcf_push(c, &c->obj[kind], it);
}

// <inertial> of body b: mass and the principal frame of the given inertia
static void readInertial(Ctx* c, const mjXNode* e, Body* b) {
  if (b->hasinertial) mjcf_fail(c, e, "a body has at most one inertial");
  b->hasinertial = 1;
  double pos[3] = {0, 0, 0}, diag[3] = {0, 0, 0}, full[6];
  Orient o = {0, {0}};
  mjcf_readVec(c, e, "pos", pos, 3);
  mjcf_readOrient(c, e, &o);
  if (!mjcf_readVec(c, e, "mass", &b->mass, 1)) mjcf_fail(c, e, "mass is required");
  if (b->mass < 0) mjcf_fail(c, e, "mass cannot be negative");
  int hasdiag = mjcf_readVec(c, e, "diaginertia", diag, 3);
  int hasfull = mjcf_readVec(c, e, "fullinertia", full, 6);
  if (hasdiag && hasfull) mjcf_fail(c, e, "diaginertia and fullinertia cannot both be given");
  if (!hasdiag && !hasfull) mjcf_fail(c, e, "diaginertia or fullinertia is required");
  mjcf_checkAttrs(c, e);
  mju_copy3(b->ipos, pos);
  mjcf_orientQuat(c, e, &o, b->iquat);
  if (hasfull) {
    // principal axes of the full inertia, composed with the given orientation
    double q[4], t[4];
    if (mju_fullInertia(full, q, diag))
      mjcf_fail(c, e, "fullinertia: inertia must have positive eigenvalues");
    mju_mulQuat(t, b->iquat, q);
    mju_normalize4(t);
    mju_copy4(b->iquat, t);
  }
  for (int i = 0; i < 3; i++)
    if (diag[i] < 0) mjcf_fail(c, e, "inertia cannot be negative");
  mju_copy3(b->inertia, diag);
}

void mjcf_walkBody(Ctx* c, const mjXNode* e, int body, const Frame* f);

// a <body> under body `parent` and frame f, then its contents
static void addBody(Ctx* c, const mjXNode* e, int parent, const Frame* f) {
  Body* b = mjcf_alloc(c, sizeof(Body));
  b->h.e = e;
  mjcf_readStr(e, "name", &b->h.name);
  b->h.name = frameName(c, f, b->h.name);
  b->parent = parent;
  b->id = c->obj[K_BODY].n;
  mjcf_push(c, &c->obj[K_BODY], b);
  // the class of the body's children: its childclass, else the inherited one
  Frame inner = {{0, 0, 0}, {1, 0, 0, 0}, f->cls, f->suffix};
  const char* cc = mjcf_getAttr(e, "childclass");
  if (cc) inner.cls = findClass(c, e, cc);
  // pose in the parent frame
  Orient o = {0, {0}};
  mjcf_readVec(c, e, "pos", b->pos, 3);
  mjcf_readOrient(c, e, &o);
  mjcf_orientQuat(c, e, &o, b->quat);
  mju_copy3(b->wpos, b->pos);
  mju_copy4(b->wquat, b->quat);
  applyFrame(f, b->pos, b->quat);
  mjcf_readBool(c, e, "mocap", &b->mocap);
  mjcf_readVec(c, e, "gravcomp", &b->gravcomp, 1);
  // sleep policy: auto (the compiler decides), never, allowed, init (mjtSleepPolicy's 0, 3-5)
  static const char* const sleeps[] = {"auto", "never", "allowed", "init", NULL};
  if (mjcf_readKey(c, e, "sleep", sleeps, &b->sleep) && b->sleep)
    b->sleep += mjSLEEP_NEVER - 1;
  readUser(c, e, &b->user);
  countUser(c, e, U_BODY, &b->user);
  mjcf_checkAttrs(c, e);
  if (b->mocap && parent != 0) mjcf_fail(c, e, "mocap bodies must be children of the world body");
  mju_unit4(b->iquat);
  mjcf_walkBody(c, e, b->id, &inner);
}

// a <frame> under body `body` and frame f: its pose composed onto f, its childclass (if any)
// the class of its children, then its contents
static void addFrame(Ctx* c, const mjXNode* e, int body, const Frame* f) {
  Frame g = *f;
  Orient o = {0, {0}};
  double pos[3] = {0, 0, 0}, quat[4];
  mjcf_readVec(c, e, "pos", pos, 3);
  mjcf_readOrient(c, e, &o);
  mjcf_orientQuat(c, e, &o, quat);
  mju_mulPose(g.pos, g.quat, f->pos, f->quat, pos, quat);
  const char* cc = mjcf_getAttr(e, "childclass");
  if (cc) g.cls = findClass(c, e, cc);
  mjcf_ignoreAttrs(e, "name");
  mjcf_checkAttrs(c, e);
  mjcf_walkBody(c, e, body, &g);
}

// the most elements all <replicate>s of a model may copy: nested counts multiply, and a few
// digits more would take the machine's memory before any size check
#define MJCF_MAXCOPIES (1 << 20)

// the elements of the subtree under e, e excluded
static double subtreeSize(const mjXNode* e) {
  double n = e->nchild;
  for (int i = 0; i < e->nchild; i++) n += subtreeSize(e->child[i]);
  return n;
}

// <replicate>: count copies of its children, copy i under f * T^i with T = (offset, the
// rotation of euler), names suffixed with sep and i zero-padded to the digits of count (an
// inner replicate's suffix before an outer one's)
static void replicate(Ctx* c, const mjXNode* e, int body, const Frame* f) {
  int count = 0;
  double offset[3] = {0, 0, 0};
  const char* sep = "";
  if (!mjcf_readInt(c, e, "count", &count) || count < 1) mjcf_fail(c, e, "count must be positive");
  mjcf_readVec(c, e, "offset", offset, 3);
  mjcf_readStr(e, "sep", &sep);
  mjcf_ignoreAttrs(e, "prefix");  // MuJoCo 3.14 reads it but names the copies without it
  Orient o = {0, {0}};
  mjcf_readOrient(c, e, &o);
  double rot[4];
  mjcf_orientQuat(c, e, &o, rot);
  mjcf_checkAttrs(c, e);
  c->ncopies += count * subtreeSize(e);
  if (c->ncopies > MJCF_MAXCOPIES)
    mjcf_fail(c, e, "more than %d elements copied in all (count %d)", MJCF_MAXCOPIES,
              count);
  int digits = snprintf(NULL, 0, "%d", count);
  // T^i = (p_i, q_i): p_{i+1} = p_i + q_i offset; q_i the euler angles times i, as MuJoCo
  // rounds it (a product of i rotations rounds differently), else q_{i+1} = q_i rot
  double p[3] = {0, 0, 0}, q[4] = {1, 0, 0, 0};
  for (int i = 0; i < count; i++) {
    size_t n = strlen(sep) + (size_t)digits + strlen(f->suffix) + 1;
    char* suffix = mjcf_alloc(c, n);
    snprintf(suffix, n, "%s%0*d%s", sep, digits, i, f->suffix);
    if (o.type == 3) {
      Orient oi = o;
      for (int k = 0; k < 3; k++) oi.v[k] = i * o.v[k];
      mjcf_orientQuat(c, e, &oi, q);
    }
    Frame g = *f;
    g.suffix = suffix;
    mju_mulPose(g.pos, g.quat, f->pos, f->quat, p, q);
    mjcf_walkBody(c, e, body, &g);
    mju_mulPose(p, q, p, q, offset, rot);
  }
}

// the element of tag `tag` (body or frame) named `name` among the bodies and frames under e,
// or NULL; *cls: the class it defaults to there (from its ancestors' childclass)
static const mjXNode* findNamed(Ctx* c, const mjXNode* e, const char* tag, const char* name,
                                const Default** cls) {
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* ch = e->child[i];
    const char* n = mjx_attr(ch, "name");
    if (!strcmp(ch->name, tag) && n && !strcmp(n, name)) return ch;
    if (strcmp(ch->name, "body") && strcmp(ch->name, "frame")) continue;
    const char* cc = mjx_attr(ch, "childclass");
    const Default* inner = cc ? findClass(c, ch, cc) : *cls;
    const mjXNode* b = findNamed(c, ch, tag, name, &inner);
    if (b) {
      *cls = inner;
      return b;
    }
  }
  return NULL;
}

// ---- option conflicts at <attach> (compiler conflict) ------------------------------------------

// the global fields MuJoCo reconciles when a child model is attached: MJCF element (option, or
// visual's map or global) and attribute, the field in mjOption or mjVisual, its count and type
// (0 mjtNum, 1 int, 2 float), and how two written values merge (1 the minimum, 2 the maximum,
// 0 they do not: a conflict)
static const struct {
  const char *sec, *attr;
  int vis;
  size_t off;
  int n, type, merge;
} conflictFields[] = {
  {"option", "timestep", 0, offsetof(mjOption, timestep), 1, 0, 1},
  {"option", "tolerance", 0, offsetof(mjOption, tolerance), 1, 0, 1},
  {"option", "ls_tolerance", 0, offsetof(mjOption, ls_tolerance), 1, 0, 1},
  {"option", "noslip_tolerance", 0, offsetof(mjOption, noslip_tolerance), 1, 0, 1},
  {"option", "ccd_tolerance", 0, offsetof(mjOption, ccd_tolerance), 1, 0, 1},
  {"option", "sleep_tolerance", 0, offsetof(mjOption, sleep_tolerance), 1, 0, 1},
  {"option", "iterations", 0, offsetof(mjOption, iterations), 1, 1, 2},
  {"option", "ls_iterations", 0, offsetof(mjOption, ls_iterations), 1, 1, 2},
  {"option", "noslip_iterations", 0, offsetof(mjOption, noslip_iterations), 1, 1, 2},
  {"option", "ccd_iterations", 0, offsetof(mjOption, ccd_iterations), 1, 1, 2},
  {"option", "sdf_iterations", 0, offsetof(mjOption, sdf_iterations), 1, 1, 2},
  {"option", "sdf_initpoints", 0, offsetof(mjOption, sdf_initpoints), 1, 1, 2},
  {"option", "impratio", 0, offsetof(mjOption, impratio), 1, 0, 0},
  {"option", "density", 0, offsetof(mjOption, density), 1, 0, 0},
  {"option", "viscosity", 0, offsetof(mjOption, viscosity), 1, 0, 0},
  {"option", "o_margin", 0, offsetof(mjOption, o_margin), 1, 0, 0},
  {"option", "integrator", 0, offsetof(mjOption, integrator), 1, 1, 0},
  {"option", "cone", 0, offsetof(mjOption, cone), 1, 1, 0},
  {"option", "jacobian", 0, offsetof(mjOption, jacobian), 1, 1, 0},
  {"option", "solver", 0, offsetof(mjOption, solver), 1, 1, 0},
  {"option", "gravity", 0, offsetof(mjOption, gravity), 3, 0, 0},
  {"option", "wind", 0, offsetof(mjOption, wind), 3, 0, 0},
  {"option", "magnetic", 0, offsetof(mjOption, magnetic), 3, 0, 0},
  {"option", "o_solref", 0, offsetof(mjOption, o_solref), 2, 0, 0},
  {"option", "o_solimp", 0, offsetof(mjOption, o_solimp), 5, 0, 0},
  {"option", "o_friction", 0, offsetof(mjOption, o_friction), 5, 0, 0},
  {"map", "znear", 1, offsetof(mjVisual, map_znear), 1, 2, 1},
  {"global", "realtime", 1, offsetof(mjVisual, global_realtime), 1, 2, 1},
  {"map", "zfar", 1, offsetof(mjVisual, map_zfar), 1, 2, 2},
};

// whether the model under root writes attribute `attr` of its <option> (sec "option") or of the
// section `sec` of its <visual>
static int writes(const mjXNode* root, const char* sec, const char* attr) {
  for (int i = 0; i < root->nchild; i++) {
    const mjXNode* s = root->child[i];
    if (!strcmp(s->name, "option") && !strcmp(sec, "option") && mjx_attr(s, attr)) return 1;
    for (int j = 0; !strcmp(s->name, "visual") && j < s->nchild; j++)
      if (!strcmp(s->child[j]->name, sec) && mjx_attr(s->child[j], attr)) return 1;
  }
  return 0;
}

// the flag bits the model under root writes in <option><flag>: bit b for flag names[b], or
// (names NULL) the actuator groups of <option actuatorgroupdisable>
static int flagBits(const mjXNode* root, const char* const* names) {
  int bits = 0;
  for (int i = 0; i < root->nchild; i++) {
    const mjXNode* s = root->child[i];
    if (strcmp(s->name, "option")) continue;
    const char* p = names ? NULL : mjx_attr(s, "actuatorgroupdisable");
    char* end;
    for (long g = p ? strtol(p, &end, 10) : 0; p && end != p; p = end, g = strtol(p, &end, 10))
      if (g >= 0 && g < 31) bits |= 1 << g;
    for (int j = 0; names && j < s->nchild; j++)
      for (int b = 0; names[b]; b++)
        if (mjx_attr(s->child[j], names[b])) bits |= 1 << b;
  }
  return bits;
}

// field k's value i in options o and visual v, as a double
static double fieldValue(int k, const mjOption* o, const mjVisual* v, int i) {
  const char* base = (conflictFields[k].vis ? (const char*)v : (const char*)o) +
                     conflictFields[k].off;
  int t = conflictFields[k].type;
  return t == 1 ? ((const int*)base)[i] : t == 2 ? ((const float*)base)[i]
                                               : ((const double*)base)[i];
}

// set field k's value i in o, v to x
static void setField(int k, mjOption* o, mjVisual* v, int i, double x) {
  char* base = (conflictFields[k].vis ? (char*)v : (char*)o) + conflictFields[k].off;
  int t = conflictFields[k].type;
  if (t == 1) ((int*)base)[i] = (int)x;
  else if (t == 2) ((float*)base)[i] = (float)x;
  else ((double*)base)[i] = x;
}

// the child model's options (under root) reconciled with the parent's as MuJoCo's compiler
// conflict policy says (e: the attach element, for messages): merge adopts what only the child
// writes, takes the minimum (tolerances, timestep, znear, realtime) or maximum (iteration
// counts, zfar) of what both write, ORs the flags the child sets, and refuses other values both
// write differently; error refuses any value both write differently.  warning keeps the parent's
static void resolveConflicts(Ctx* c, const mjXNode* e, const mjXNode* root) {
  static const char* const policy[] = {"warning", "merge", "error"};
  if (!c->conflict || c->src) return;  // warning, or a model attached by an attached one
  // the child's options and visual, read on a copy of the context
  Ctx* tmp = mjcf_alloc(c, sizeof(Ctx));
  *tmp = *c;
  mj_defaultOption(&tmp->opt);
  mj_defaultVisual(&tmp->vis);
  for (int i = 0; i < root->nchild; i++) {
    if (!strcmp(root->child[i]->name, "option")) mjcf_readOption(tmp, root->child[i]);
    if (!strcmp(root->child[i]->name, "visual")) mjcf_readVisual(tmp, root->child[i]);
  }
  mjOption d;
  mjVisual dv;
  mj_defaultOption(&d);
  mj_defaultVisual(&dv);
  int merge = c->conflict == 1;
  for (size_t k = 0; k < sizeof conflictFields / sizeof conflictFields[0]; k++) {
    const char *sec = conflictFields[k].sec, *attr = conflictFields[k].attr;
    int n = conflictFields[k].n, same = 1, pdef = 1, cdef = 1;
    for (int i = 0; i < n; i++) {
      double p = fieldValue(k, &c->opt, &c->vis, i), ch = fieldValue(k, &tmp->opt, &tmp->vis, i);
      double dd = fieldValue(k, &d, &dv, i);
      same &= p == ch, pdef &= p == dd, cdef &= ch == dd;
    }
    if (same) continue;
    // authored: written in the file; when neither writes it, differing from the default
    int pa = writes(c->root, sec, attr), ca = writes(root, sec, attr);
    if (!pa && !ca) pa = !pdef, ca = !cdef;
    if (!ca || (!pa && !merge)) continue;
    if (merge && (!pa || conflictFields[k].merge)) {
      for (int i = 0; i < n; i++) {
        double p = fieldValue(k, &c->opt, &c->vis, i), ch = fieldValue(k, &tmp->opt, &tmp->vis, i);
        int m = conflictFields[k].merge;
        setField(k, &c->opt, &c->vis, i, !pa ? ch : m == 1 ? fmin(p, ch) : fmax(p, ch));
      }
      continue;
    }
    mjcf_fail(c, e, "attach conflict (policy '%s'): %s: parent has %g, child has %g",
              policy[c->conflict], attr, fieldValue(k, &c->opt, &c->vis, 0),
              fieldValue(k, &tmp->opt, &tmp->vis, 0));
  }
  // flags: the bits the child writes set; merge ORs them in, error refuses differing bits
  // both write
  int* pv[3] = {&c->opt.disableflags, &c->opt.enableflags, &c->opt.disableactuator};
  const int cv[3] = {tmp->opt.disableflags, tmp->opt.enableflags, tmp->opt.disableactuator};
  const char* const* names[3] = {mj_disableFlagNames, mj_enableFlagNames, NULL};
  for (int f = 0; f < 3; f++) {
    int pauth = flagBits(c->root, names[f]), cauth = flagBits(root, names[f]);
    if (!pauth && !cauth) pauth = cauth = ~0;
    int written = cv[f] & cauth, differ = (*pv[f] ^ cv[f]) & pauth & cauth;
    if (!written) continue;
    if (merge) *pv[f] |= written;
    else if (differ)
      mjcf_fail(c, e, "attach conflict (policy 'error'): %s differ",
                f < 2 ? "flags" : "disabled actuator groups");
  }
}

// attachments one inside another, at most (a body attached to itself from inside itself
// would recurse without end)
#define MJCF_MAXATTACH 64

// the context's per-file settings as a scope (swapped out and back)
static Scope currentScope(Ctx* c) {
  Scope s = {0};
  mjcf_swapScope(c, &s);
  Scope cur = s;
  mjcf_swapScope(c, &s);
  return cur;
}

// the first attachment of model file `file` under prefix `prefix`, NULL when none: an
// <attach> inside a <replicate> is met once per copy, and MuJoCo adds the child's assets,
// classes and keyframes once, its bodies and other objects in every copy with its suffix
static Attach* firstCopy(Ctx* c, const char* file, const char* prefix) {
  for (int i = 0; i < c->attached.n; i++) {
    Attach* a = c->attached.p[i];
    if (a->repeat < 2 && a->prefix && !strcmp(a->file, file) && !strcmp(a->prefix, prefix))
      return a;
  }
  return NULL;
}

// the body `bname` of attachment a's model with its subtree, or its frame `fname` with the
// frame's contents, or (with neither) its world's contents under body `body` in frame f, in
// the attachment's scope (e: the attach element, model: the model's name, for messages)
static void attachTree(Ctx* c, const mjXNode* e, const Attach* a, int body, const Frame* f,
                       const char* model, const char* bname, const char* fname) {
  const mjXNode *root = a->doc->root, *world = NULL;
  for (int i = 0; i < root->nchild && !world; i++)
    if (!strcmp(root->child[i]->name, "worldbody")) world = root->child[i];
  Frame g = *f;
  g.cls = c->classes.p[0];
  const char* part = bname ? bname : fname;
  const mjXNode* b = world && part ? findNamed(c, world, bname ? "body" : "frame", part, &g.cls)
                                   : world;
  if (!b && part)
    mjcf_fail(c, e, "unknown %s '%s' in model '%s'", bname ? "body" : "frame", part, model);
  // counted with the replicates' copies (attachments inside what they attach multiply)
  c->ncopies += b ? subtreeSize(b) : 0;
  if (c->ncopies > MJCF_MAXCOPIES)
    mjcf_fail(c, e, "more than %d elements copied in all", MJCF_MAXCOPIES);
  if (b && bname) addBody(c, b, body, &g);
  else if (b && fname) addFrame(c, b, body, &g);
  else if (b) mjcf_walkBody(c, b, body, &g);
}

// the fresh scope of attachment a's model file, made current: MuJoCo's compiler defaults
// overridden by the file's <compiler>, a main class of its own and the file's classes and
// assets, names under prefix `under` with the copy's suffix
static void openScope(Ctx* c, Attach* a, const char* under, const char* suffix) {
  const mjXNode* root = a->doc->root;
  Scope* s = &a->scope;
  s->degree = s->autolimits = 1;
  memcpy(s->eulerseq, "xyz", 4);
  s->dir = a->doc->dir;
  s->prefix = under;
  s->suffix = suffix;
  s->src = a;
  mjcf_push(c, &s->classes, mjcf_mainClass(c));
  mjcf_swapScope(c, s);
  // its <compiler>, read on a copy of the context: only the per-file settings are kept
  Ctx* tmp = mjcf_alloc(c, sizeof(Ctx));
  for (int i = 0; i < root->nchild; i++) {
    if (strcmp(root->child[i]->name, "compiler")) continue;
    *tmp = *c;
    mjcf_readCompiler(tmp, root->child[i]);
    Scope got = {0};
    mjcf_swapScope(tmp, &got);  // got: the settings read
    mjcf_swapScope(c, &got);    // now the context's
  }
  // its classes and assets (meshes and height fields renamed for the geoms)
  for (int i = 0; i < root->nchild; i++) {
    const mjXNode* ch = root->child[i];
    if (!strcmp(ch->name, "default")) mjcf_readDefault(c, ch, NULL);
    else if (!strcmp(ch->name, "asset")) mjcf_readAssets(c, ch);
  }
  mjcf_buildNames(c, K_MESH);
  mjcf_buildNames(c, K_HFIELD);
}

// <attach model body|frame prefix> under body `body` and frame f: the child model file is
// parsed for this attachment; in its own scope (its compiler's angle units, euler sequence and
// directories, its default classes, names prefixed) its assets are read, then its body `body`
// with the subtree, or its frame `frame` with its contents in the frame's pose, or (with
// neither) its world's contents joins the tree; its other sections are read after the main
// model's (compile.c)
static void attach(Ctx* c, const mjXNode* e, int body, const Frame* f) {
  const char *model = NULL, *bname = NULL, *fname = NULL, *prefix = NULL;
  mjcf_readStr(e, "model", &model);
  if (!mjcf_readStr(e, "prefix", &prefix)) mjcf_fail(c, e, "attribute 'prefix' is required");
  mjcf_readStr(e, "body", &bname);
  mjcf_readStr(e, "frame", &fname);
  mjcf_checkAttrs(c, e);
  if (bname && fname) mjcf_fail(c, e, "attach takes a body or a frame, not both");
  if (!model && !bname && !fname)
    mjcf_fail(c, e, "attaching the model to itself needs a body or a frame");
  if (++c->attachdepth > MJCF_MAXATTACH)
    mjcf_fail(c, e, "attachments nested more than %d deep (circular?)", MJCF_MAXATTACH);
  const Obj* mo = NULL;
  if (model) {
    const char* name = mjcf_prefixed(c, model);
    for (int i = 0; i < c->models.n && !mo; i++)
      if (!strcmp(((Obj*)c->models.p[i])->h.name, name)) mo = c->models.p[i];
    if (!mo) mjcf_fail(c, e, "unknown model '%s'", model);
  }
  // the child file, owned by the attachment from here on (attaching to itself: a copy of the
  // model being read, whose assets and classes serve as they are)
  Attach* a = mjcf_alloc(c, sizeof(Attach));
  a->e = e;
  a->file = mo ? mo->file : "";
  mjcf_push(c, &c->attached, a);
  char msg[512];
  if (mo) {
    a->doc = mjx_parseFile(mo->file, msg, sizeof(msg));
    if (!a->doc) mjcf_fail(c, e, "model '%s': %s", model, msg);
    if (mjcf_replicateRefs(a->doc->root)) mjcf_fail(c, e, "out of memory");
  } else {
    a->doc = calloc(1, sizeof(mjXDoc));
    if (a->doc) a->doc->root = mjx_copyNode(c->src ? c->src->doc->root : c->root);
    if (!a->doc || !a->doc->root) mjcf_fail(c, e, "out of memory");
    a->doc->dir = c->dir;
  }
  const mjXNode* root = a->doc->root;
  if (strcmp(root->name, "mujoco")) mjcf_fail(c, root, "the root element must be mujoco");
  if (mo) resolveConflicts(c, e, root);
  if (!model) model = "(itself)";
  // its scope: MuJoCo's compiler defaults, a main class of its own, names under the prefix
  // (that of an enclosing attachment too) and, in a copy of a <replicate>, the copy's suffix
  Scope* s = &a->scope;
  const char* under = mjcf_prefixed(c, prefix);
  Attach* first = f->suffix[0] ? firstCopy(c, a->file, under) : NULL;
  a->prefix = under;
  if (first || !mo) {
    // a later copy: the first copy's settings, classes and assets; attaching to itself: the
    // current ones, the assets' names unprefixed; the objects prefixed and suffixed
    if (first) *s = first->scope;
    else *s = currentScope(c);
    s->prefix = under;
    s->suffix = f->suffix;
    s->self = !mo;
    s->src = a;
    if (first) first->repeat = 1, a->repeat = 2;
    mjcf_swapScope(c, s);
  } else {
    openScope(c, a, under, f->suffix);
  }
  attachTree(c, e, a, body, f, model, bname, fname);
  mjcf_swapScope(c, s);
  c->attachdepth--;
}

// the children of a body (or frame) element e belonging to body `body`
void mjcf_walkBody(Ctx* c, const mjXNode* e, int body, const Frame* f) {
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
      addFrame(c, ch, body, f);
    } else if (!strcmp(n, "replicate")) {
      replicate(c, ch, body, f);
    } else if (!strcmp(n, "attach")) {
      attach(c, ch, body, f);
    } else if (!strcmp(n, "composite") || !strcmp(n, "flexcomp") || !strcmp(n, "plugin")) {
      mjcf_fail(c, ch, "%s is not supported yet", n);
    } else {
      mjcf_fail(c, ch, "unknown element in %s", e->name);
    }
  }
}

// ---- ordering and kinematics of the collected tree --------------------------------------------

// stable counting sort of the items of vector v by key(item) in [0, nkey)
static void sortItems(Ctx* c, Vec* v, int nkey, int (*key)(const Item*)) {
  int* start = mjcf_alloc(c, sizeof(int) * (nkey + 1));
  for (int i = 0; i < v->n; i++) start[key(v->p[i]) + 1]++;
  for (int b = 0; b < nkey; b++) start[b + 1] += start[b];
  void** sorted = mjcf_alloc(c, sizeof(void*) * (v->n + 1));
  for (int i = 0; i < v->n; i++) sorted[start[key(v->p[i])]++] = v->p[i];
  v->p = sorted;
  v->cap = v->n + 1;
}

// sort keys: the item's body, and the body it was fused from
static int bodyKey(const Item* it) { return it->body; }
static int fusedKey(const Item* it) { return it->fusedfrom; }

// the items of kind k in model order: by body, a body's own items in document order, then
// those of the static bodies fused into it in body order (as MuJoCo appends them)
void mjcf_sortByBody(Ctx* c, int k, int nfused) {
  sortItems(c, &c->obj[k], nfused, fusedKey);
  sortItems(c, &c->obj[k], c->obj[K_BODY].n, bodyKey);
}

// the bodies' world poses in the model configuration (qpos0): xpos, xquat (nbody x 3, 4)
void mjcf_bodyWorld(Ctx* c, double* xpos, double* xquat) {
  mju_zero3(xpos);
  mju_unit4(xquat);
  for (int b = 1; b < c->obj[K_BODY].n; b++) {
    const Body* bd = c->obj[K_BODY].p[b];
    mju_mulPose(xpos + 3 * b, xquat + 4 * b, xpos + 3 * bd->parent, xquat + 4 * bd->parent,
                bd->pos, bd->quat);
  }
}

// a top-level object record for element e with the given class
Obj* mjcf_newObj(Ctx* c, int kind, const mjXNode* e) {
  Obj* o = mjcf_alloc(c, sizeof(Obj));
  o->h.e = e;
  o->src = c->src;
  mjcf_readStr(e, "name", &o->h.name);
  o->h.name = mjcf_scoped(c, kind, o->h.name);
  mjcf_push(c, &c->obj[kind], o);
  return o;
}

// id of the object of kind k named by attribute `attr` of e; -1 when absent (or an error when
// `required`)
static int refId(Ctx* c, const mjXNode* e, int k, const char* attr, int required) {
  const char *raw = mjcf_getAttr(e, attr), *name = mjcf_scoped(c, k, raw);
  if (!name) {
    if (required) mjcf_fail(c, e, "attribute '%s' is required", attr);
    return -1;
  }
  // in a model attached to itself, an object not copied is the original
  if (c->self && mjcf_mapFind(&c->names[k], name) < 0) name = raw;
  return mjcf_findId(c, e, k, name, attr);
}

// body id of geom g
static int geomBody(Ctx* c, int g) { return ((Item*)c->obj[K_GEOM].p[g])->body; }

// <contact>: explicit pairs (sorted by body signature) and excluded body pairs
void mjcf_readContact(Ctx* c, const mjXNode* e) {
  mjcf_checkAttrs(c, e);
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* ch = e->child[i];
    if (!mjcf_keepAttached(c, ch, 0)) continue;
    if (!strcmp(ch->name, "pair")) {
      Obj* o = mjcf_newObj(c, K_PAIR, ch);
      o->pair = mjcf_elemClass(c, ch, c->classes.p[0])->pair;
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
      Obj* o = mjcf_newObj(c, K_EXCLUDE, ch);
      int b1 = refId(c, ch, K_BODY, "body1", 1), b2 = refId(c, ch, K_BODY, "body2", 1);
      o->type = b1 < b2 ? (b1 << 16) + b2 : (b2 << 16) + b1;
    } else {
      mjcf_fail(c, ch, "unknown element in contact");
    }
    mjcf_checkAttrs(c, ch);
  }
}

// sort pairs or excludes by signature, stable (insertion sort: the lists are short)
void mjcf_sortSignatures(Ctx* c, int k) {
  Vec* v = &c->obj[k];
  for (int i = 1; i < v->n; i++) {
    void* p = v->p[i];
    int j = i;
    for (; j > 0 && ((Obj*)v->p[j - 1])->type > ((Obj*)p)->type; j--) v->p[j] = v->p[j - 1];
    v->p[j] = p;
  }
}

// <equality>: connect, weld, joint, tendon with MuJoCo's eq_data layout
void mjcf_readEqualities(Ctx* c, const mjXNode* e, const double* xpos, const double* xquat) {
  static const char* const types[] = {"connect", "weld", "joint", "tendon", NULL};
  mjcf_checkAttrs(c, e);
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* ch = e->child[i];
    if (!mjcf_keepAttached(c, ch, 1)) continue;
    int type = mjcf_wordIndex(types, ch->name);
    if (type < 0) mjcf_fail(c, ch, "unknown or unsupported element in equality");
    Obj* o = mjcf_newObj(c, K_EQ, ch);
    o->type = type;
    o->eq = mjcf_elemClass(c, ch, c->classes.p[0])->eq;
    readEquality(c, ch, &o->eq);
    double* d = o->data;
    d[10] = 1;
    if ((type == mjEQ_CONNECT || type == mjEQ_WELD) &&
        (mjcf_getAttr(ch, "site1") || mjcf_getAttr(ch, "site2"))) {
      // site semantic: the sites' frames held together, eq_data unused but for a weld's
      // torquescale (data[10]) and the 1 MuJoCo stores at data[1]
      static const char* const bodyAttrs[] = {"body1", "body2", "anchor", "relpose"};
      for (int k = 0; k < 4; k++) {
        if (mjcf_getAttr(ch, bodyAttrs[k]))
          mjcf_fail(c, ch, "site1 and site2 exclude attribute '%s'", bodyAttrs[k]);
      }
      o->objtype = mjOBJ_SITE;
      o->id[0] = refId(c, ch, K_SITE, "site1", 1);
      o->id[1] = refId(c, ch, K_SITE, "site2", 1);
      d[10] = 0;
      if (type == mjEQ_WELD) {
        d[1] = d[10] = 1;
        mjcf_readVec(c, ch, "torquescale", d + 10, 1);
      }
    } else if (type == mjEQ_CONNECT || type == mjEQ_WELD) {
      o->objtype = mjOBJ_BODY;
      int b1 = refId(c, ch, K_BODY, "body1", 1), b2 = refId(c, ch, K_BODY, "body2", 0);
      if (b2 < 0) b2 = 0;
      o->id[0] = b1;
      o->id[1] = b2;
      double anchor[3] = {0, 0, 0}, p[3], q[4], ip[3], iq[4];
      if (type == mjEQ_CONNECT && !mjcf_readVec(c, ch, "anchor", anchor, 3))
        mjcf_fail(c, ch, "attribute 'anchor' is required");
      if (type == mjEQ_WELD) mjcf_readVec(c, ch, "anchor", anchor, 3);
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
        // data[3:10] = relpose of body2 in body1's frame, unless given from qpos0: the anchor
        // (body2's frame) in body1's frame, p21 + q21 anchor, and q21, (p21, q21) the pose of
        // body2 in body1's frame
        double rel[7] = {0, 1, 0, 0, 0, 0, 0};
        mjcf_readVec(c, ch, "relpose", rel, 7);
        if (mju_norm(rel + 3, 4) < mjMINVAL) {
          double a[3];
          mju_negPose(d + 3, d + 6, p, q);
          mju_rotVecQuat(a, anchor, d + 6);
          mju_addTo3(d + 3, a);
        } else {
          mju_copy3(d + 3, rel);
          mju_copy4(d + 6, rel + 3);
          mju_normalize4(d + 6);
        }
        mjcf_readVec(c, ch, "torquescale", d + 10, 1);
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
      mjcf_readNums(c, ch, "polycoef", d, 1, 5);
    }
    mjcf_checkAttrs(c, ch);
  }
}

// a new wrap of tendon o
static void addWrap(Ctx* c, Obj* o, int type, int objid, double prm) {
  Wrap* w = mjcf_alloc(c, sizeof(Wrap));
  w->type = type;
  w->objid = objid;
  w->prm = prm;
  mjcf_push(c, &c->obj[K_WRAP], w);
  o->nwrap++;
}

// <tendon>: fixed (joints with coefficients) and spatial (sites, wrapping geoms, pulleys)
void mjcf_readTendons(Ctx* c, const mjXNode* e) {
  mjcf_checkAttrs(c, e);
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* ch = e->child[i];
    if (!mjcf_keepAttached(c, ch, 0)) continue;
    int spatial = !strcmp(ch->name, "spatial");
    if (!spatial && strcmp(ch->name, "fixed")) mjcf_fail(c, ch, "unknown element in tendon");
    Obj* o = mjcf_newObj(c, K_TENDON, ch);
    o->type = spatial;
    o->tendon = mjcf_elemClass(c, ch, c->classes.p[0])->tendon;
    readTendon(c, ch, &o->tendon);
    countUser(c, ch, U_TENDON, &o->tendon.user);
    mjcf_checkAttrs(c, ch);
    o->wrapadr = c->obj[K_WRAP].n;
    for (int j = 0; j < ch->nchild; j++) {
      const mjXNode* w = ch->child[j];
      if (!spatial && !strcmp(w->name, "joint")) {
        double coef = 1;
        int jid = refId(c, w, K_JOINT, "joint", 1);
        mjcf_readVec(c, w, "coef", &coef, 1);
        addWrap(c, o, mjWRAP_JOINT, jid, coef);
      } else if (spatial && !strcmp(w->name, "site")) {
        addWrap(c, o, mjWRAP_SITE, refId(c, w, K_SITE, "site", 1), 0);
      } else if (spatial && !strcmp(w->name, "geom")) {
        int g = refId(c, w, K_GEOM, "geom", 1);
        int side = refId(c, w, K_SITE, "sidesite", 0);
        int t = ((Item*)c->obj[K_GEOM].p[g])->s.geom.type;
        if (t != mjGEOM_SPHERE && t != mjGEOM_CYLINDER)
          mjcf_fail(c, w, "wrapping geom must be a sphere or a cylinder");
        addWrap(c, o, t == mjGEOM_SPHERE ? mjWRAP_SPHERE : mjWRAP_CYLINDER, g, side);
      } else if (spatial && !strcmp(w->name, "pulley")) {
        double div = 0;
        if (!mjcf_readVec(c, w, "divisor", &div, 1) || div <= 0)
          mjcf_fail(c, w, "divisor must be positive");
        addWrap(c, o, mjWRAP_PULLEY, -1, div);
      } else {
        mjcf_fail(c, w, "unknown element in %s tendon", ch->name);
      }
      mjcf_checkAttrs(c, w);
    }
    if (!o->nwrap) mjcf_fail(c, ch, "tendon has no path elements");
    if (spatial) {
      // a spatial path starts and ends at sites; a geom sits between two sites
      const Wrap* const* wr = (const Wrap* const*)c->obj[K_WRAP].p + o->wrapadr;
      if (wr[0]->type != mjWRAP_SITE || wr[o->nwrap - 1]->type != mjWRAP_SITE)
        mjcf_fail(c, ch, "spatial tendon path must start and end at a site");
      for (int j = 1; j < o->nwrap - 1; j++) {
        int t = wr[j]->type;
        if ((t == mjWRAP_SPHERE || t == mjWRAP_CYLINDER) &&
            (wr[j - 1]->type != mjWRAP_SITE || wr[j + 1]->type != mjWRAP_SITE))
          mjcf_fail(c, ch, "a wrapping geom must be between two sites");
        if ((t == mjWRAP_SPHERE || t == mjWRAP_CYLINDER) && o->tendon.armature != 0)
          mjcf_fail(c, ch, "geom wrapping not supported by tendon armature");
      }
    }
  }
}

// <actuator>: each shortcut expanded over its class default, with one transmission target
void mjcf_readActuators(Ctx* c, const mjXNode* e) {
  mjcf_checkAttrs(c, e);
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* ch = e->child[i];
    if (!mjcf_keepAttached(c, ch, 0)) continue;
    int kind = mjcf_wordIndex(actKinds, ch->name);
    if (kind < 0) mjcf_fail(c, ch, "unknown or unsupported element in actuator");
    Obj* o = mjcf_newObj(c, K_ACT, ch);
    o->act = mjcf_elemClass(c, ch, c->classes.p[0])->act;
    readActuator(c, ch, &o->act, kind);
    checkHistory(c, ch, &o->act.hist);
    countUser(c, ch, U_ACT, &o->act.user);
    // the transmission: exactly one target kind; a body only on <general> and <adhesion>, the
    // adhesion's only target (MuJoCo's schema: elsewhere the attribute is unknown)
    static const char* const targets[] = {"joint", "jointinparent", "tendon", "site", "body",
                                          "cranksite"};
    static const int trn[] = {mjTRN_JOINT, mjTRN_JOINTINPARENT, mjTRN_TENDON, mjTRN_SITE,
                              mjTRN_BODY, mjTRN_SLIDERCRANK};
    static const int kinds[] = {K_JOINT, K_JOINT, K_TENDON, K_SITE, K_BODY, K_SITE};
    int n = 0;
    o->id[1] = -1;
    for (int t = 0; t < 6; t++) {
      int isBody = trn[t] == mjTRN_BODY;
      if (kind == A_ADHESION ? !isBody : isBody && kind != A_GENERAL) continue;
      int id = refId(c, ch, kinds[t], targets[t], 0);
      if (id < 0) continue;
      n++;
      o->type = trn[t];
      o->id[0] = id;
    }
    // second ids: the reference site, or the slider site of a slider-crank; an attribute the
    // element does not have (a body on a <motor>) named before the count of targets
    int ref = refId(c, ch, K_SITE, "refsite", 0), slider = refId(c, ch, K_SITE, "slidersite", 0);
    mjcf_checkAttrs(c, ch);
    if (n != 1) mjcf_fail(c, ch, "actuator needs exactly one transmission target");
    if (ref >= 0 && o->type != mjTRN_SITE) mjcf_fail(c, ch, "refsite requires a site transmission");
    if ((slider >= 0) != (o->type == mjTRN_SLIDERCRANK))
      mjcf_fail(c, ch, "cranksite and slidersite go together");
    if (ref >= 0) o->id[1] = ref;
    if (slider >= 0) o->id[1] = slider;
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
  {"contact", NULL, 0, 0, 0, mjSTAGE_ACC},
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
  if (!mjcf_readKey(c, e, attr, words, &t)) mjcf_fail(c, e, "attribute '%s' is required", attr);
  *kind = kinds[t];
  *obj = objs[t];
}

// the geom or body named by attribute geomN / bodyN (exactly one) of a distance-type sensor
static void geomOrBody(Ctx* c, const mjXNode* e, int n, int* objtype, int* id) {
  char ga[8] = "geom1", ba[8] = "body1";
  ga[4] = ba[4] = (char)('0' + n);
  int g = refId(c, e, K_GEOM, ga, 0), b = refId(c, e, K_BODY, ba, 0);
  if ((g >= 0) == (b >= 0)) mjcf_fail(c, e, "exactly one of %s and %s is required", ga, ba);
  *objtype = g >= 0 ? mjOBJ_GEOM : mjOBJ_BODY;
  *id = g >= 0 ? g : b;
}

// the object of one side of a contact sensor: at most one of the n attributes attrs (kinds
// kinds, mjtObj objs); mjOBJ_UNKNOWN and -1 when none is given
static void contactSide(Ctx* c, const mjXNode* e, int n, const char* const* attrs,
                        const int* kinds, const int* objs, int* objtype, int* id) {
  *objtype = mjOBJ_UNKNOWN;
  *id = -1;
  for (int k = 0; k < n; k++) {
    int i = refId(c, e, kinds[k], attrs[k], 0);
    if (i < 0) continue;
    if (*id >= 0) mjcf_fail(c, e, "at most one of %s, %s, %s%s%s can be given", attrs[0],
                            attrs[1], attrs[2], n > 3 ? ", " : "", n > 3 ? attrs[3] : "");
    *objtype = objs[k];
    *id = i;
  }
}

// contact sensor: the matching criteria (side 1 geom1, body1, subtree1 or site; side 2 geom2,
// body2 or subtree2; subtrees as mjOBJ_XBODY), intprm = {data fields as bits in their fixed
// order (none: found), reduce, num} and dim = num x the size of the data fields
static void contactSensor(Ctx* c, const mjXNode* e, Obj* o) {
  static const char* const attrs1[] = {"geom1", "body1", "subtree1", "site"};
  static const char* const attrs2[] = {"geom2", "body2", "subtree2"};
  static const int kinds[] = {K_GEOM, K_BODY, K_BODY, K_SITE};
  static const int objs[] = {mjOBJ_GEOM, mjOBJ_BODY, mjOBJ_XBODY, mjOBJ_SITE};
  static const char* const fields[] = {"found", "force", "torque", "dist", "pos", "normal",
                                       "tangent", NULL};
  static const int fieldSize[] = {1, 3, 3, 1, 3, 3, 3};
  static const char* const reduceWords[] = {"none", "mindist", "maxforce", "netforce", NULL};
  contactSide(c, e, 4, attrs1, kinds, objs, &o->objtype, &o->id[0]);
  contactSide(c, e, 3, attrs2, kinds, objs, &o->reftype, &o->id[1]);

  // data: keywords in the order of fields, each at most once (none: found)
  int size, bits = keywordBits(c, e, "data", fields, fieldSize, &size);
  if (!bits) bits = 1, size = 1;

  // reduce and num
  int reduce = 0, num = 1;
  mjcf_readKey(c, e, "reduce", reduceWords, &reduce);
  mjcf_readInt(c, e, "num", &num);
  if (num <= 0) mjcf_fail(c, e, "attribute 'num' must be positive");
  o->intprm[0] = bits;
  o->intprm[1] = reduce;
  o->intprm[2] = num;
  o->dim = num * size;
}

// the object type keywords of MuJoCo (mjtObj from mjOBJ_BODY on)
static const char* const objTypes[] = {
  "body", "xbody", "joint", "dof", "geom", "site", "camera", "light", "flex", "mesh", "skin",
  "hfield", "texture", "material", "pair", "exclude", "equality", "tendon", "actuator", "sensor",
  "numeric", "text", "tuple", "key", "plugin", NULL};

static int objKind(int t);

// user sensor: dim (required), datatype and needstage, and optionally the object it belongs
// to (objtype and objname together; a type keyword MuJoCo does not know attaches it to none,
// as MuJoCo); its values are its callback's, zeros here
static void userSensor(Ctx* c, const mjXNode* e, Obj* o) {
  static const char* const datatypes[] = {"real", "positive", "axis", "quaternion", NULL};
  static const char* const stages[] = {"none", "pos", "vel", "acc", NULL};  // mjtStage
  if (!mjcf_readInt(c, e, "dim", &o->dim)) mjcf_fail(c, e, "attribute 'dim' is required");
  if (o->dim < 0) mjcf_fail(c, e, "dim cannot be negative");
  mjcf_readKey(c, e, "datatype", datatypes, &o->datatype);
  mjcf_readKey(c, e, "needstage", stages, &o->stage);
  if (o->datatype == mjDATATYPE_AXIS && o->dim != 3)
    mjcf_fail(c, e, "datatype axis requires dim 3");
  if (o->datatype == mjDATATYPE_QUATERNION && o->dim != 4)
    mjcf_fail(c, e, "datatype quaternion requires dim 4");
  const char *type = mjcf_getAttr(e, "objtype"), *name = mjcf_getAttr(e, "objname");
  if (!type != !name) mjcf_fail(c, e, "objtype and objname go together");
  o->objtype = type ? mjcf_wordIndex(objTypes, type) + 1 : mjOBJ_UNKNOWN;
  if (o->objtype != mjOBJ_UNKNOWN) o->objname = mjcf_scoped(c, objKind(o->objtype), name);
}

// a sensor's interval: period [phase], period >= 0 and -period < phase <= 0 when periodic
static void readInterval(Ctx* c, const mjXNode* e, double interval[2]) {
  mjcf_readNums(c, e, "interval", interval, 1, 2);
  if (interval[0] < 0) mjcf_fail(c, e, "negative interval in sensor");
  if (interval[1] > 0) mjcf_fail(c, e, "positive phase in sensor");
  if (interval[0] > 0 && interval[1] <= -interval[0])
    mjcf_fail(c, e, "phase must be greater than -period in sensor");
}

// <sensor>: type, object, reference, dim, datatype, stage, cutoff, noise, history
void mjcf_readSensors(Ctx* c, const mjXNode* e) {
  static const SensorType user = {"user", NULL, 0, 0, mjDATATYPE_REAL, mjSTAGE_ACC};
  mjcf_checkAttrs(c, e);
  int nt = (int)(sizeof(sensorTypes) / sizeof(sensorTypes[0]));
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* ch = e->child[i];
    if (!mjcf_keepAttached(c, ch, 0)) continue;
    int t = 0;
    while (t < nt && strcmp(sensorTypes[t].name, ch->name)) t++;
    if (t == nt && !strcmp(ch->name, "user")) t = mjSENS_USER;
    else if (t == nt) mjcf_fail(c, ch, "unknown or unsupported sensor");
    const SensorType* st = t == mjSENS_USER ? &user : &sensorTypes[t];
    Obj* o = mjcf_newObj(c, K_SENSOR, ch);
    o->type = t;
    o->dim = st->dim;
    o->datatype = st->datatype;
    o->stage = st->stage;
    o->id[0] = o->id[1] = -1;
    mjcf_readVec(c, ch, "cutoff", &o->cutoff, 1);
    mjcf_readVec(c, ch, "noise", &o->noise, 1);
    readHistory(c, ch, &o->hist);
    readInterval(c, ch, o->interval);
    checkHistory(c, ch, &o->hist);
    readUser(c, ch, &o->user);
    countUser(c, ch, U_SENSOR, &o->user);
    if (o->cutoff < 0) mjcf_fail(c, ch, "cutoff cannot be negative");
    // rangefinders: intprm[0] the data fields as bits in their fixed order (none: dist), dim
    // their size per ray; on a site one ray, on a camera one per pixel of its resolution
    // (the camera its object, read here instead of a site)
    int camRay = 0;
    if (t == mjSENS_RANGEFINDER) {
      static const char* const fields[mjNRAY + 1] = {"dist", "dir", "origin", "point",
                                                     "normal", "depth", NULL};
      int bits = keywordBits(c, ch, "data", fields, NULL, NULL);
      o->intprm[0] = bits ? bits : 1 << mjRAY_DIST;
      o->dim = mj_rangefinderDim(o->intprm[0]);
      int site = mjcf_getAttr(ch, "site") != NULL;
      camRay = mjcf_getAttr(ch, "camera") != NULL;
      if (site && camRay) mjcf_fail(c, ch, "at most one of 'site', 'camera' can be specified");
      if (!site && !camRay) mjcf_fail(c, ch, "one of 'site', 'camera' must be specified");
      if (camRay) {
        o->objtype = mjOBJ_CAMERA;
        o->id[0] = refId(c, ch, K_CAM, "camera", 1);
        const int* res = ((Item*)c->obj[K_CAM].p[o->id[0]])->s.cam.resolution;
        o->dim *= res[0] * res[1];
      }
    }
    if (st->attr && !camRay) {
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
      if (mjcf_getAttr(ch, "reftype") || mjcf_getAttr(ch, "refname")) {
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
    } else if (t == mjSENS_CONTACT) {
      contactSensor(c, ch, o);
    } else if (t == mjSENS_USER) {
      userSensor(c, ch, o);
    }
    // the camera of a projection sensor is its reference
    if (t == mjSENS_CAMPROJECTION) {
      o->reftype = mjOBJ_CAMERA;
      o->id[1] = refId(c, ch, K_CAM, "camera", 1);
    }
    // a cutoff clamps real and positive data only (MuJoCo refuses it on the others, but for
    // the collision sensors, whose cutoff bounds the distance searched: the normal's axis)
    int collision = t >= mjSENS_GEOMDIST && t <= mjSENS_GEOMFROMTO;
    if (o->cutoff > 0 && !collision &&
        (o->datatype == mjDATATYPE_AXIS || o->datatype == mjDATATYPE_QUATERNION))
      mjcf_fail(c, ch, "cutoff applied to axis or quaternion datatype");
    // joint and tendon sensors that need a particular joint type or limits
    if (st->kind == K_JOINT) {
      const Item* j = c->obj[K_JOINT].p[o->id[0]];
      int jt = j->s.joint.type;
      int ball = t == mjSENS_BALLQUAT || t == mjSENS_BALLANGVEL;
      if (ball && jt != mjJNT_BALL) mjcf_fail(c, ch, "joint must be a ball joint");
      if (!ball && t != mjSENS_JOINTACTFRC && (jt == mjJNT_FREE || jt == mjJNT_BALL))
        mjcf_fail(c, ch, "joint must be a slide or hinge joint");
    }
    mjcf_checkAttrs(c, ch);
  }
}

// ---- custom fields -----------------------------------------------------------------------------

// the object type keywords of tuple elements, in mjtObj order ("unknown" is refused)
static const char* const objTypeWords[] = {
  "unknown", "body", "xbody", "joint", "dof", "geom", "site", "camera", "light", "flex", "mesh",
  "skin", "hfield", "texture", "material", "pair", "exclude", "equality", "tendon", "actuator",
  "sensor", "numeric", "text", "tuple", "key", "plugin", NULL};

// the object kind holding the names of mjtObj type t; -1 for types without named objects here
// (dofs, and flexes and plugins, which this compiler refuses)
static int objKind(int t) {
  static const int kinds[mjNOBJECT] = {
    [mjOBJ_UNKNOWN] = -1, [mjOBJ_BODY] = K_BODY, [mjOBJ_XBODY] = K_BODY,
    [mjOBJ_JOINT] = K_JOINT, [mjOBJ_DOF] = -1, [mjOBJ_GEOM] = K_GEOM, [mjOBJ_SITE] = K_SITE,
    [mjOBJ_CAMERA] = K_CAM, [mjOBJ_LIGHT] = K_LIGHT, [mjOBJ_FLEX] = -1, [mjOBJ_MESH] = K_MESH,
    [mjOBJ_SKIN] = K_SKIN, [mjOBJ_HFIELD] = K_HFIELD, [mjOBJ_TEXTURE] = K_TEX,
    [mjOBJ_MATERIAL] = K_MAT, [mjOBJ_PAIR] = K_PAIR, [mjOBJ_EXCLUDE] = K_EXCLUDE,
    [mjOBJ_EQUALITY] = K_EQ, [mjOBJ_TENDON] = K_TENDON, [mjOBJ_ACTUATOR] = K_ACT,
    [mjOBJ_SENSOR] = K_SENSOR, [mjOBJ_NUMERIC] = K_NUMERIC, [mjOBJ_TEXT] = K_TEXT,
    [mjOBJ_TUPLE] = K_TUPLE, [mjOBJ_KEY] = K_KEY, [mjOBJ_PLUGIN] = -1};
  return kinds[t];
}

// MuJoCo's bound on the size of a numeric field
#define MJCF_MAXNUMERIC 500

// <numeric name data size>: size defaults to the count of data, which must not exceed it;
// the numbers are padded with zeros to size
static void readNumeric(Ctx* c, const mjXNode* e, Obj* o) {
  double* data = NULL;
  int n = mjcf_readData(c, e, "data", &data);
  o->size = n;
  if (mjcf_readInt(c, e, "size", &o->size) && n > o->size)
    mjcf_fail(c, e, "attribute 'data' has %d numbers, more than size %d", n, o->size);
  if (o->size < 1 || o->size > MJCF_MAXNUMERIC)
    mjcf_fail(c, e, "size must be between 1 and %d (the count of data when not given)",
              MJCF_MAXNUMERIC);
  o->values = mjcf_alloc(c, sizeof(double) * o->size);
  if (n) memcpy(o->values, data, sizeof(double) * n);
}

// <text name data>: the string as written, not empty
static void readText(Ctx* c, const mjXNode* e, Obj* o) {
  if (!mjcf_readStr(e, "data", &o->text) || !o->text[0])
    mjcf_fail(c, e, "attribute 'data' is required and cannot be empty");
  o->size = (int)strlen(o->text) + 1;
}

// <tuple name>: one or more <element objtype objname prm>
static void readTuple(Ctx* c, const mjXNode* e, Obj* o) {
  if (!e->nchild) mjcf_fail(c, e, "a tuple needs at least one element");
  o->size = e->nchild;
  o->elem = mjcf_alloc(c, sizeof(TupleElem) * e->nchild);
  for (int j = 0; j < e->nchild; j++) {
    const mjXNode* el = e->child[j];
    TupleElem* t = o->elem + j;
    if (strcmp(el->name, "element")) mjcf_fail(c, el, "unknown element in tuple");
    t->e = el;
    if (!mjcf_readKey(c, el, "objtype", objTypeWords, &t->objtype))
      mjcf_fail(c, el, "attribute 'objtype' is required");
    if (t->objtype == mjOBJ_UNKNOWN)
      mjcf_fail(c, el, "attribute 'objtype': invalid keyword 'unknown'");
    if (!mjcf_readStr(el, "objname", &t->name))
      mjcf_fail(c, el, "attribute 'objname' is required");
    double* prm;
    int nprm = mjcf_readData(c, el, "prm", &prm);
    if (nprm > 1) mjcf_fail(c, el, "attribute 'prm': more than 1 numbers");
    if (nprm) t->prm = prm[0];
    mjcf_checkAttrs(c, el);
  }
}

// the objects of the user sensors, by name once every kind is named: any kind MuJoCo names
// (dofs, flexes and plugins have no names here, so naming one is an error)
void mjcf_resolveUserSensors(Ctx* c) {
  for (int i = 0; i < c->obj[K_SENSOR].n; i++) {
    Obj* o = c->obj[K_SENSOR].p[i];
    if (o->type != mjSENS_USER || o->objtype == mjOBJ_UNKNOWN) continue;
    int k = objKind(o->objtype), id = -1;
    if (k >= 0) {
      if (!c->names[k].cap) mjcf_buildNames(c, k);
      id = mjcf_mapFind(&c->names[k], o->objname);
    }
    if (id < 0)
      mjcf_fail(c, o->h.e, "%s '%s' in attribute 'objname' not found", objTypes[o->objtype - 1],
                o->objname);
    o->id[0] = id;
  }
}

// <custom>: numeric fields, texts and tuples, each kind named apart
void mjcf_readCustom(Ctx* c, const mjXNode* e) {
  mjcf_checkAttrs(c, e);
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* ch = e->child[i];
    int numeric = !strcmp(ch->name, "numeric"), text = !strcmp(ch->name, "text");
    if (!numeric && !text && strcmp(ch->name, "tuple"))
      mjcf_fail(c, ch, "unknown element in custom");
    Obj* o = mjcf_newObj(c, numeric ? K_NUMERIC : text ? K_TEXT : K_TUPLE, ch);
    if (!o->h.name || !o->h.name[0]) mjcf_fail(c, ch, "attribute 'name' is required");
    if (numeric) readNumeric(c, ch, o);
    else if (text) readText(c, ch, o);
    else readTuple(c, ch, o);
    mjcf_checkAttrs(c, ch);
  }
}

// the ids of the tuples' objects, once every kind of object has its name table
void mjcf_findTupleObjects(Ctx* c) {
  for (int i = 0; i < c->obj[K_TUPLE].n; i++) {
    const Obj* o = c->obj[K_TUPLE].p[i];
    for (int j = 0; j < o->size; j++) {
      TupleElem* t = o->elem + j;
      int k = objKind(t->objtype);
      t->objid = k < 0 ? -1 : mjcf_mapFind(&c->names[k], t->name);
      if (t->objid < 0)
        mjcf_fail(c, t->e, "%s '%s' in attribute 'objname' not found", objTypeWords[t->objtype],
                  t->name);
    }
  }
}

// ---- model composition ------------------------------------------------------------------------

// exchange the context's per-file settings with scope s (twice: back)
void mjcf_swapScope(Ctx* c, Scope* s) {
  Scope t = {c->degree, c->autolimits, c->strippath, c->fitaabb, c->self, {0}, c->dir,
             c->meshdir, c->texturedir, c->prefix, c->suffix, c->classes, c->src};
  memcpy(t.eulerseq, c->eulerseq, 4);
  c->degree = s->degree;
  c->autolimits = s->autolimits;
  c->strippath = s->strippath;
  c->fitaabb = s->fitaabb;
  c->self = s->self;
  memcpy(c->eulerseq, s->eulerseq, 4);
  c->dir = s->dir;
  c->meshdir = s->meshdir;
  c->texturedir = s->texturedir;
  c->prefix = s->prefix;
  c->suffix = s->suffix;
  c->classes = s->classes;
  c->src = s->src;
  *s = t;
}

// the attributes that name objects of the tree, tendons or actuators
static const char* const refAttrs[] = {
  "joint", "jointinparent", "tendon", "site", "body", "cranksite", "refsite", "slidersite",
  "geom1", "geom2", "body1", "body2", "joint1", "joint2", "tendon1", "tendon2", "site1",
  "site2", "objname", "refname", "actuator", "geom", "sidesite", "camera", "subtree1",
  "subtree2", NULL};

// the references of element e and its subtree to objects of the tree, tendons or actuators:
// *found of them name objects that came along with the attachment being read, *missing not
static void attachedRefs(Ctx* c, const mjXNode* e, int* found, int* missing) {
  static const int kinds[] = {K_BODY, K_JOINT, K_GEOM, K_SITE, K_CAM, K_TENDON, K_ACT};
  for (int i = 0; i < e->nattr; i++) {
    if (mjcf_wordIndex(refAttrs, e->attr[2 * i]) < 0) continue;
    const char* name = mjcf_scoped(c, K_BODY, e->attr[2 * i + 1]);
    int here = 0;
    for (int k = 0; k < 7 && !here; k++) here = mjcf_mapFind(&c->names[kinds[k]], name) >= 0;
    *found += here;
    *missing += !here;
  }
  for (int i = 0; i < e->nchild; i++) attachedRefs(c, e->child[i], found, missing);
}

// whether element e of an attached model comes along (always in the main model): MuJoCo
// leaves out the actuators, sensors, ... of parts not attached, and of a model attached to
// itself copies those naming at least one object copied (the others name the originals),
// equalities (`all`) only when every object they name was copied
int mjcf_keepAttached(Ctx* c, const mjXNode* e, int all) {
  if (!c->src) return 1;
  int found = 0, missing = 0;
  attachedRefs(c, e, &found, &missing);
  return c->self && !all ? found > 0 : !missing;
}

// the joint elements of a child model in its order (by body, bodies in document order) with
// their types: pass 0 the joints of body element e (frames included), pass 1 its bodies'
static void childJoints(Ctx* c, const mjXNode* e, const Default* cls, int pass, Vec* out) {
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* ch = e->child[i];
    const char* cc = mjx_attr(ch, "childclass");
    const Default* inner = cc ? findClass(c, ch, cc) : cls;
    if (!strcmp(ch->name, "frame")) {
      childJoints(c, ch, inner, pass, out);
    } else if (pass == 1 && !strcmp(ch->name, "body")) {
      childJoints(c, ch, inner, 0, out);
      childJoints(c, ch, inner, 1, out);
    } else if (pass == 0 && (!strcmp(ch->name, "joint") || !strcmp(ch->name, "freejoint"))) {
      Item* it = mjcf_alloc(c, sizeof(Item));
      it->h.e = ch;
      it->s.joint.type = mjJNT_FREE;
      if (strcmp(ch->name, "freejoint")) {
        const char* t = mjx_attr(ch, "type");
        it->s.joint.type = t ? mjcf_wordIndex(jointTypes, t)
                             : mjcf_elemClass(c, ch, cls)->joint.type;
      }
      mjcf_push(c, out, it);
    }
  }
}

// the index of the object of kind k that element e became, or -1
static int objOf(Ctx* c, int k, const mjXNode* e) {
  for (int i = 0; i < c->obj[k].n; i++)
    if (((const Head*)c->obj[k].p[i])->e == e) return i;
  return -1;
}

// key k of an attached model: its vectors in the child's layout (all of its joints and
// actuators), the values of the parts that came along written into key k of m
void mjcf_fillAttachedKey(Ctx* c, const Obj* o, mjModel* m, int k) {
  const mjXNode* e = o->h.e;
  Scope* s = (Scope*)&o->src->scope;
  const mjXNode* root = o->src->doc->root;
  mjcf_swapScope(c, s);
  // the child's joints and actuators
  Vec jnt = {0}, act = {0};
  for (int i = 0; i < root->nchild; i++) {
    const mjXNode* sec = root->child[i];
    if (!strcmp(sec->name, "worldbody")) childJoints(c, sec, c->classes.p[0], 1, &jnt);
    for (int j = 0; j < sec->nchild && !strcmp(sec->name, "actuator"); j++)
      mjcf_push(c, &act, sec->child[j]);
  }
  int nq = 0, nv = 0;
  for (int j = 0; j < jnt.n; j++) {
    nq += mjcf_jointQpos(((Item*)jnt.p[j])->s.joint.type);
    nv += mjcf_jointDofs(((Item*)jnt.p[j])->s.joint.type);
  }
  double* qpos = mjcf_alloc(c, sizeof(double) * (nq + nv + act.n + 1));
  double *qvel = qpos + nq, *ctrl = qvel + nv;
  int hasq = mjcf_readVec(c, e, "qpos", qpos, nq), hasv = mjcf_readVec(c, e, "qvel", qvel, nv);
  int hasu = mjcf_readVec(c, e, "ctrl", ctrl, act.n);
  mjcf_readVec(c, e, "time", m->key_time + k, 1);
  if (mjcf_getAttr(e, "act") || mjcf_getAttr(e, "mpos") || mjcf_getAttr(e, "mquat"))
    mjcf_fail(c, e, "act, mpos and mquat of an attached model's key are not supported yet");
  mjcf_ignoreAttrs(e, "name");
  mjcf_checkAttrs(c, e);
  // the attached joints' values at their places in the model
  for (int j = 0, qa = 0, va = 0; j < jnt.n; j++) {
    int t = ((Item*)jnt.p[j])->s.joint.type, id = objOf(c, K_JOINT, ((Item*)jnt.p[j])->h.e);
    if (id >= 0 && hasq) {
      mjtNum* q = m->key_qpos + (size_t)k * m->nq + m->jnt_qposadr[id];
      mju_copy(q, qpos + qa, mjcf_jointQpos(t));
      if (t == mjJNT_BALL || t == mjJNT_FREE) mju_normalize4(q + (t == mjJNT_FREE ? 3 : 0));
    }
    if (id >= 0 && hasv)
      mju_copy(m->key_qvel + (size_t)k * m->nv + m->jnt_dofadr[id], qvel + va, mjcf_jointDofs(t));
    qa += mjcf_jointQpos(t);
    va += mjcf_jointDofs(t);
  }
  for (int i = 0; i < act.n && hasu && !o->src->repeat; i++) {
    int id = objOf(c, K_ACT, act.p[i]);
    if (id >= 0) m->key_ctrl[(size_t)k * m->nu + id] = ctrl[i];
  }
  mjcf_swapScope(c, s);
}

// free the model files of the attachments
void mjcf_freeAttached(Ctx* c) {
  for (int i = 0; i < c->attached.n; i++) mjx_free(((Attach*)c->attached.p[i])->doc);
}
