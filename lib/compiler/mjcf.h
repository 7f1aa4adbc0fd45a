// mjcf.h: the internals of the MJCF compiler, shared by its files:
//
//   mjcf_attr.c    the arena, errors, name tables, and reading attributes (numbers, keywords,
//                  orientations) off the element tree of xml.c
//   mjcf_read.c    MJCF into spec records: built-in defaults and default classes, the settings
//                  sections, the body tree (frames, replicate), contacts, equalities, tendons,
//                  actuators, sensors and keyframes
//   mjcf_asset.c   <asset> and <deformable>: meshes (mesh.c), skins (skin.c), height fields
//                  (hfield.c), textures (texture.c) and materials, and their model arrays
//   mjcf_mass.c    mass properties of bodies from geoms and meshes, and fusestatic
//   compile.c      the model build: sizes, every array, mj_setConst, mj_compileTree
//
// Errors unwind through mjcf_fail (longjmp to mj_compileTree) with "file:line: element
// 'name': problem"; every allocation but the meshes, skins and height fields (freed by
// mjcf_freeMeshes) lives in the context's arena.
#ifndef MJ_MJCF_H
#define MJ_MJCF_H

#include <setjmp.h>
#include <stddef.h>

#include "compiler/hfield.h"
#include "compiler/mesh.h"
#include "mj.h"
#include "compiler/skin.h"
#include "compiler/texture.h"
#include "compiler/xml.h"

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
void mjcf_fail(Ctx* c, const mjXNode* e, const char* fmt, ...)
  __attribute__((format(printf, 3, 4), noreturn));

// ---- the spec records: one per defaultable element kind ----------------------------------------

// an element's user numbers (the user attribute; in the arena), as written or inherited
typedef struct {
  const double* v;
  int n;
} User;

// the element kinds with user numbers, in the order of the nuser_* sizes
enum { U_BODY, U_JNT, U_GEOM, U_SITE, U_CAM, U_TENDON, U_ACT, U_SENSOR, NUSER };

// an orientation as written: 0 none, 1 quat, 2 axisangle, 3 euler, 4 xyaxes, 5 zaxis
typedef struct {
  int type;
  double v[6];
} Orient;

typedef struct {
  int type, group, limited, actfrclimited, actgravcomp;
  int align;  // a free joint's: 0 false, 1 true, 2 auto (compiler alignfree)
  double pos[3], axis[3], range[2], ref, springref, armature, frictionloss;
  double stiffness[1 + mjNPOLY], damping[1 + mjNPOLY];  // linear coefficient, then higher terms
  double margin, solref_lim[2], solimp_lim[5], solref_fri[2], solimp_fri[5], actfrcrange[2];
  double springdamper[2];  // (time constant, damping ratio); both positive: set the spring
  User user;
} JointSpec;

typedef struct {
  int type, contype, conaffinity, condim, group, priority, fluidshape, hasmass, hasfromto;
  double size[3], friction[3], mass, density, solmix, solref[2], solimp[5], margin, gap;
  double fromto[6], pos[3], fluidcoef[5], fitscale;
  double surfacevel[6];  // the surface's velocity field in the geom frame: linear, angular
  double adhesion;       // the pull its contacts may exert before breaking
  int dataid;  // compiled: the mesh or height field id
  const mjMesh* meshdata;  // compiled: the mesh named (its mass, kept by discardvisual)
  Orient orient;
  float rgba[4];
  const char *material, *mesh, *hfield;
  User user;
} GeomSpec;

typedef struct {
  int type, group, hasfromto;
  double size[3], pos[3], fromto[6];
  Orient orient;
  float rgba[4];
  const char* material;
  User user;
} SiteSpec;

typedef struct {
  int mode, projection, resolution[2];  // projection: 0 perspective, 1 orthographic
  double pos[3], fovy, ipd;
  float sensorsize[2];
  float focal[2], focalpixel[2], principal[2], principalpixel[2];  // as given (0: not)
  Orient orient;
  const char* target;
  User user;
} CamSpec;

typedef struct {
  int mode, type, castshadow, active;
  double pos[3], dir[3];
  float bulbradius, intensity, range, attenuation[3], cutoff, exponent, softness;
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
  const char* textures[mjNTEXROLE];  // texture name per role (mjtTextureRole); NULL: none
} MatSpec;

typedef struct {
  int limited, actfrclimited, group;
  double range[2], actfrcrange[2], solref_lim[2], solimp_lim[5], solref_fri[2], solimp_fri[5];
  double margin, armature, frictionloss, springlength[2], width;
  double stiffness[1 + mjNPOLY], damping[1 + mjNPOLY];  // linear coefficient, then higher terms
  float rgba[4];
  const char* material;
  User user;
} TendonSpec;

typedef struct {
  int active;
  double solref[2], solimp[5];
} EqSpec;

typedef struct {
  int condim;
  double friction[5], solref[2], solreffriction[2], solimp[5], margin, gap, adhesion;
} PairSpec;

// a history buffer of an actuator's control or a sensor's values (nsample, interp, delay)
typedef struct {
  int nsample, interp;  // samples kept (<= 0: no buffer), interpolation (0 zoh, 1 linear, 2 cubic)
  double delay;         // the read's delay in seconds (0: none)
} HistSpec;

typedef struct {
  int ctrllimited, forcelimited, actlimited, dyntype, gaintype, biastype, actdim, actearly;
  int group, ctrlspec;  // ctrlspec: the input signature (mjtCtrlInput bits; 0: one plain ctrl)
  double ctrlrange[2], forcerange[2], actrange[2], lengthrange[2], gear[6], cranklength;
  double dynprm[10], gainprm[10], biasprm[10], inheritrange;
  double damping[1 + mjNPOLY], armature;  // added to the joint's or tendon's (linear, then higher)
  HistSpec hist;
  User user;
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
  int sleep;  // its sleep policy as written (mjtSleepPolicy: AUTO, NEVER, ALLOWED or INIT)
  double pos[3], quat[4], gravcomp;
  double wpos[3], wquat[4];  // pose as written, before its frames (a massless body's ipose)
  double ipos[3], iquat[4], mass, inertia[3];
  int id;
  int fused;     // fusestatic merged this body into its parent
  int nextra;    // mass parts of fused children, in this body's frame
  double *xmass, *xpos, *xquat, *xinertia;
  User user;
} Body;

// an object attached to a body: joint, geom, site, camera or light
typedef struct {
  Head h;
  int body, freejoint;
  int fusedfrom;  // fusestatic: the original id of the body this came from (0: its own)
  int degree;     // the angle unit of the model file it was read from (joints: 1 degrees)
  union {
    JointSpec joint;
    GeomSpec geom;
    SiteSpec site;
    CamSpec cam;
    LightSpec light;
  } s;
  double pos[3], quat[4];  // compiled local pose in the body frame
} Item;

// one element of a tuple: the object objtype/objname names (its id found once every name is
// known) and its parameter
typedef struct {
  const mjXNode* e;
  const char* name;
  int objtype, objid;  // mjtObj, id
  double prm;
} TupleElem;

// a top-level object (asset, pair, exclude, equality, tendon, actuator, sensor, custom field,
// key) and the element it came from; the spec lives in the matching field
typedef struct Attach_ Attach;

typedef struct {
  Head h;
  const Attach* src;         // the attachment it came from (NULL: the main model)
  int type;                  // eq, sensor, texture type; actuator transmission type
  mjMesh mesh;               // a compiled mesh
  double meshscale[3];       // its scale
  int keepgraph;             // its hull graph is stored: a geom collides with it, or its faces
                             // are the hull's
  mjSkin skin;               // a skin's mesh and bones
  float rgba[4], inflate;    // a skin's color and inflation
  int group;                 // a skin's group
  const char* material;      // a skin's material name, resolved when filling
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
  int intprm[3];             // a sensor's integer parameters
  double data[11], cutoff, noise;
  HistSpec hist;             // a sensor's history buffer
  double interval[2];        // a sensor's period and phase
  int size;                  // a custom field's size: numbers, chars and terminator, elements
  double* values;            // a numeric's numbers, zero-padded to size
  const char* text;          // a text's string
  TupleElem* elem;           // a tuple's elements
  User user;                 // a sensor's user numbers
  const char* objname;       // a user sensor's object, found once every kind is named
} Obj;

// one element of a tendon path
typedef struct {
  int type, objid;
  double prm;
} Wrap;

enum { K_BODY, K_JOINT, K_GEOM, K_SITE, K_CAM, K_LIGHT, K_MESH, K_SKIN, K_HFIELD, K_TEX, K_MAT,
       K_PAIR, K_EXCLUDE, K_EQ, K_TENDON, K_ACT, K_SENSOR, K_NUMERIC, K_TEXT, K_TUPLE, K_KEY,
       K_WRAP, NKIND };

// object kind: the element word for messages
extern const char* const mjcf_kindWord[NKIND];

// a name to id hash table (open addressing, power-of-two capacity)
typedef struct {
  const char** key;
  int* val;
  int cap;
} NameMap;

// the settings that belong to one model file, exchanged with the context's (mjcf_swapScope)
// while an attached model is read: angle units, euler sequence, limits, asset directories,
// default classes, the prefix of its names, the suffix of an enclosing <replicate>'s copy and
// the attachment itself
typedef struct {
  int degree, autolimits, strippath, fitaabb;
  int self;  // a model attached to itself: its assets keep their names
  char eulerseq[4];
  const char *dir, *meshdir, *texturedir, *prefix, *suffix;
  Vec classes;
  const Attach* src;
} Scope;

// an <attach>: the child model file (parsed once for each attachment, so that its elements
// identify the objects it adds) and its scope
struct Attach_ {
  const mjXNode* e;
  const char *file, *prefix;  // the model file's path, the prefix of its names
  mjXDoc* doc;
  Scope scope;
  int repeat;  // in a <replicate>: 1 the first copy (its keys without ctrl, as MuJoCo's), 2 a
               // later copy (the first copy's assets, classes and keys)
};

struct Ctx_ {
  jmp_buf jmp;
  char* err;
  int errsz;
  Block* arena;
  const char* modelname;
  const char* dir;  // the model's directory, with a trailing '/' or empty
  // <compiler>
  int degree, autolimits, inertiafromgeom, balanceinertia, discardvisual, igroup[2];
  int strippath, fitaabb, fusestatic, alignfree;
  int conflict;  // options a child model brings at <attach>: 0 warning (keep), 1 merge, 2 error
  const char *meshdir, *texturedir;
  char eulerseq[4];
  double boundmass, boundinertia, settotalmass;
  mjLROpt lropt;  // <compiler><lengthrange>
  // <option>, <visual>, <statistic>, <size>
  mjOption opt;
  mjVisual vis;
  mjStatistic stat;
  int statset[5];
  int nconmax, njmax, nstack, nkey;
  // user numbers per element kind (U_*): <size nuser_*> (-1: the longest), the longest seen
  int nuser[NUSER], usermax[NUSER];
  // default classes; [0] is "main"
  Vec classes;
  // objects of each kind, in model order once sorted
  Vec obj[NKIND];
  // every geom in document order, the visual ones discardvisual drops included: the bodies'
  // masses count them all, as MuJoCo computes inertia before it discards
  Vec massgeoms;
  Vec dropmeshes;  // meshes discardvisual drops (Obj): their geoms' masses still count
  const mjXNode* root;  // the main model's <mujoco>
  NameMap names[NKIND];
  // assets and objects outside the tree
  Vec paths;        // texture file paths
  // model composition: <model> assets, attachments, the scope being read (prefix: prepended
  // to every name and reference; suffix: appended to those of objects other than assets in a
  // copy of a <replicate>; src: its attachment, NULL in the main model)
  Vec models, attached;
  const char *prefix, *suffix;
  int self;         // the scope is a model attached to itself (Scope)
  int attachdepth;  // attachments being read, one inside the other (MJCF_MAXATTACH at most)
  const Attach* src;
  double *xpos, *xquat;  // the bodies' world poses at qpos0, for equality data
  double ncopies;        // elements <replicate> has copied so far (bounded: MJCF_MAXCOPIES)
};

// a frame inside a body: its pose in the body frame, the class its children default to and
// the suffix <replicate> appends to their names ("" outside replicates)
typedef struct {
  double pos[3], quat[4];
  const Default* cls;
  const char* suffix;
} Frame;

// ---- arena, errors, names and attributes (mjcf_attr.c) -----------------------------------------

// a new zeroed block of n bytes from the arena
void* mjcf_alloc(Ctx* c, size_t n);

// free every block of the arena
void mjcf_freeArena(Ctx* c);

// append p to v, doubling its capacity when full
void mjcf_push(Ctx* c, Vec* v, void* p);

// id of `name`, or -1
int mjcf_mapFind(const NameMap* m, const char* name);

// build the name table of kind k from its objects' names; duplicates are errors
void mjcf_buildNames(Ctx* c, int k);

// id of the object of kind k named `name`, referenced by attribute `attr` of e; error if absent
int mjcf_findId(Ctx* c, const mjXNode* e, int k, const char* name, const char* attr);

// value of attribute `name` of e, marked used; NULL when absent
const char* mjcf_getAttr(const mjXNode* e, const char* name);

// mark attributes as accepted without effect (space-separated list)
void mjcf_ignoreAttrs(const mjXNode* e, const char* list);

// an error for the first attribute of e that no reader consumed
void mjcf_checkAttrs(Ctx* c, const mjXNode* e);

// read between nmin and nmax numbers of attribute `name` into v; returns the count, 0 if absent
// or empty (no numbers: MuJoCo takes rgba="" as absent)
int mjcf_readNums(Ctx* c, const mjXNode* e, const char* name, double* v, int nmin, int nmax);

// read a list of any length of attribute `name` into a new arena array *v; returns the count
int mjcf_readList(Ctx* c, const mjXNode* e, const char* name, double** v);

// the same for user data (user attributes, <numeric> data, <tuple> prm), where MuJoCo takes
// inf and nan as numbers
int mjcf_readData(Ctx* c, const mjXNode* e, const char* name, double** v);

// read exactly n numbers
int mjcf_readVec(Ctx* c, const mjXNode* e, const char* name, double* v, int n);

// read exactly n numbers into floats
int mjcf_readFloats(Ctx* c, const mjXNode* e, const char* name, float* v, int n);

// read one integer
int mjcf_readInt(Ctx* c, const mjXNode* e, const char* name, int* v);

// read a keyword from the NULL-terminated list `words`; *v is its index
int mjcf_readKey(Ctx* c, const mjXNode* e, const char* name, const char* const* words,
                 int* v);

extern const char* const mjcf_limitWords[];

// read true/false
int mjcf_readBool(Ctx* c, const mjXNode* e, const char* name, int* v);

// read a string attribute (pointing into the tree, which outlives compilation)
int mjcf_readStr(const mjXNode* e, const char* name, const char** v);

// read whichever orientation attribute e has (at most one) into o
void mjcf_readOrient(Ctx* c, const mjXNode* e, Orient* o);

// the quaternion of orientation o (identity for none); errors for degenerate input
void mjcf_orientQuat(Ctx* c, const mjXNode* e, const Orient* o, double q[4]);

// true when |a - b| < 1e-6 componentwise over n numbers (MuJoCo's tolerance for same frames)
int mjcf_same(const double* a, const double* b, int n);

// ---- MJCF into specs (mjcf_read.c) -------------------------------------------------------------

// MuJoCo's built-in defaults of every spec: the "main" class before any <default>
void mjcf_builtinDefaults(Default* d);

extern const char* const mjcf_camModes[];

// material attributes and <layer> children over s (texture= fills the rgb role; the two are
// exclusive on one element)
void mjcf_readMaterial(Ctx* c, const mjXNode* e, MatSpec* s);

// mesh attributes that classes may set, over s
void mjcf_readMeshDefaults(Ctx* c, const mjXNode* e, MeshSpec* s);

// index of `name` in the NULL-terminated list, or -1
int mjcf_wordIndex(const char* const* words, const char* name);

// ---- replicate.c ------------------------------------------------------------------------------

// the copies <replicate> makes of the pairs, excludes, tendons, equalities, actuators and
// sensors naming replicated elements, written into the document's sections (originals that
// named the template removed), as MuJoCo makes them; nonzero when out of memory
int mjcf_replicateRefs(mjXNode* root);

// <compiler>: angle units, euler sequence, inertia and limit rules
void mjcf_readCompiler(Ctx* c, const mjXNode* e);

// <option> attributes (the mjOption fields by name) and its <flag> child; the keyword and
// flag names are lib/engine/options.c's
void mjcf_readOption(Ctx* c, const mjXNode* e);

// <size>: memory, the preallocation counts and the user numbers' sizes (nuserdata, the size of
// mjData.userdata, is accepted and ignored)
void mjcf_readSize(Ctx* c, const mjXNode* e);

// <visual>: sections named as in mjVisual, attributes as its fields
void mjcf_readVisual(Ctx* c, const mjXNode* e);

// <statistic>: values that override the computed statistics
void mjcf_readStatistic(Ctx* c, const mjXNode* e);

// a new "main" class of the built-in defaults; cameras' default focal length is the near
// clipping distance of <visual>
Default* mjcf_mainClass(Ctx* c);

// the class named by e's "class" attribute, or `inherited` when it has none
const Default* mjcf_elemClass(Ctx* c, const mjXNode* e, const Default* inherited);

// a <default> element: a new class copied from `parent` (or "main" itself at the top level),
// its element defaults, then its nested classes
void mjcf_readDefault(Ctx* c, const mjXNode* e, Default* parent);

// the children of a body (or frame) element e belonging to body `body`
void mjcf_walkBody(Ctx* c, const mjXNode* e, int body, const Frame* f);

// exchange the context's per-file settings with scope s (twice: back)
void mjcf_swapScope(Ctx* c, Scope* s);

// `name` with the current prefix (NULL stays NULL)
const char* mjcf_prefixed(Ctx* c, const char* name);

// `name` of an object of kind k with the current prefix, and the current suffix unless k is
// an asset's or a key's kind (NULL stays NULL)
const char* mjcf_scoped(Ctx* c, int k, const char* name);

// whether element e of an attached model comes along (always in the main model): when every
// object it names came along, or, in a model attached to itself, at least one (`all`: every)
int mjcf_keepAttached(Ctx* c, const mjXNode* e, int all);

// key k of an attached model: its vectors in the child's layout (all of its joints and
// actuators), the values of the parts that came along written into key k of m
void mjcf_fillAttachedKey(Ctx* c, const Obj* o, mjModel* m, int k);

// free the model files of the attachments
void mjcf_freeAttached(Ctx* c);

// the items of kind k in model order: by body, a body's own items in document order, then
// those of the static bodies fused into it in body order (as MuJoCo appends them)
void mjcf_sortByBody(Ctx* c, int k, int nfused);

// the bodies' world poses in the model configuration (qpos0): xpos, xquat (nbody x 3, 4)
void mjcf_bodyWorld(Ctx* c, double* xpos, double* xquat);

// a top-level object record for element e with the given class
Obj* mjcf_newObj(Ctx* c, int kind, const mjXNode* e);

// <contact>: explicit pairs (sorted by body signature) and excluded body pairs
void mjcf_readContact(Ctx* c, const mjXNode* e);

// sort pairs or excludes by signature, stable (insertion sort: the lists are short)
void mjcf_sortSignatures(Ctx* c, int k);

// <equality>: connect, weld, joint, tendon with MuJoCo's eq_data layout
void mjcf_readEqualities(Ctx* c, const mjXNode* e, const double* xpos, const double* xquat);

// <tendon>: fixed (joints with coefficients) and spatial (sites, wrapping geoms, pulleys)
void mjcf_readTendons(Ctx* c, const mjXNode* e);

// <actuator>: each shortcut expanded over its class default, with one transmission target
void mjcf_readActuators(Ctx* c, const mjXNode* e);

// <sensor>: type, object, reference, dim, datatype, stage, cutoff, noise
void mjcf_readSensors(Ctx* c, const mjXNode* e);

// the objects of the user sensors, by name once every kind is named
void mjcf_resolveUserSensors(Ctx* c);

// <custom>: numeric fields (data zero-padded to size), texts and tuples (their objects named,
// found by mjcf_findTupleObjects)
void mjcf_readCustom(Ctx* c, const mjXNode* e);

// the ids of the tuples' objects, once every kind of object has its name table
void mjcf_findTupleObjects(Ctx* c);

// ---- assets (mjcf_asset.c) ---------------------------------------------------------------------

// <deformable>: skins (flexes are not supported)
void mjcf_readDeformable(Ctx* c, const mjXNode* e);

// <asset>: meshes, skins, height fields, textures and materials
void mjcf_readAssets(Ctx* c, const mjXNode* e);

// bytes of the mesh, height field and texture file paths, as MuJoCo from offset 0 (one empty
// string when there are none); fills when m is given
int mjcf_writePaths(Ctx* c, mjModel* m);

// the height field arrays
void mjcf_fillHfields(Ctx* c, mjModel* m);

// the texture arrays from the built textures, pixels packed in model order
void mjcf_fillTextures(Ctx* c, mjModel* m);

// the material arrays
void mjcf_fillMaterials(Ctx* c, mjModel* m);

// a mesh geom's size (the largest |coordinate| of its vertices per axis), bounding radius
// (|size|) and bounding box (the mesh's)
void mjcf_meshBound(const mjMesh* me, double size[3], double* rbound, double aabb[6]);

// the ints of mesh o's hull graph stored in the model: MuJoCo keeps the graph of meshes that
// collide or whose faces are their hull's
int mjcf_meshGraphSize(const Obj* o);

// the mesh arrays: each compiled mesh appended to the flat vertex, normal, texcoord, face and
// graph arrays
void mjcf_fillMeshes(Ctx* c, mjModel* m);

// the skin arrays: each skin's mesh and bones appended, bone bodies resolved by name
void mjcf_fillSkins(Ctx* c, mjModel* m);

// free the compiled meshes, skins and height fields (they live outside the arena)
void mjcf_freeMeshes(Ctx* c);

// ---- mass properties and fusestatic (mjcf_mass.c) ----------------------------------------------

// fusestatic: every body without joints, not a mocap body and not named elsewhere (by an
// attribute of bodyRefs or a skin bone) is merged into its parent, deepest first: its geoms and
// sites move to the parent with their poses composed, its child bodies become the parent's, and
// its mass properties join the parent's as one part; then the bodies are renumbered
void mjcf_fuseStatic(Ctx* c, const mjXNode* root);

// mass properties of every body: <inertial> or geoms per inertiafromgeom and the parts of
// fused static bodies, then balance, bounds and the total mass
void mjcf_bodyInertia(Ctx* c);

// free bodies that ask for it (<freejoint align>, compiler alignfree) moved onto their
// inertial frames, their geoms, sites, cameras and lights re-expressed in them
void mjcf_alignFree(Ctx* c);

// geom_fluid of a geom with fluidshape="ellipsoid" (compiled size, its fluidcoef): the flag, the
// coefficients, and the virtual mass and inertia of its ellipsoid in a fluid of unit density
void mjcf_geomFluid(int type, const double size[3], const double coef[5], double fluid[12]);

// ---- the model build (compile.c) ---------------------------------------------------------------

// qpos and dof counts of a joint type
int mjcf_jointQpos(int type);
int mjcf_jointDofs(int type);

// material id named by `name` (NULL: -1), referenced by e
int mjcf_matId(Ctx* c, const mjXNode* e, const char* name);

// append s (or "" for NULL) to the names buffer at *pos, recording its address
void mjcf_putName(char* buf, int* pos, int* adr, const char* s);

#endif
