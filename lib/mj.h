// mj.h: the public interface of libmj, a from-scratch engine for MuJoCo's physics.
//
// The model (mjModel) is one read-only buffer compiled from MJCF (mj_loadXML) or read from a
// binary model file (mj_loadModel).  The data (mjData) holds one simulation state and every
// quantity computed from it; make one per thread with mj_makeData.  Both are flat structs of
// arrays listed once in mjxmacro.h.
//
// Errors: functions that read user input return NULL (or nonzero) on failure and write a
// one-line message into the caller's buffer `err` of size `errsz`; they never print and never
// exit.  Messages name the file, line or field: "humanoid.xml:42: geom 'thigh': size must be
// positive".
#ifndef MJ_H
#define MJ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mjxmacro.h"

#define MJ_VERSION_STRING "0.1.0"

typedef double mjtNum;

// ---- enums: values equal MuJoCo's, so files and oracle dumps compare directly -------------
typedef enum mjtGeom_ {
  mjGEOM_PLANE = 0, mjGEOM_HFIELD, mjGEOM_SPHERE, mjGEOM_CAPSULE, mjGEOM_ELLIPSOID,
  mjGEOM_CYLINDER, mjGEOM_BOX, mjGEOM_MESH, mjGEOM_SDF, mjNGEOMTYPES
} mjtGeom;

typedef enum mjtJoint_ { mjJNT_FREE = 0, mjJNT_BALL, mjJNT_SLIDE, mjJNT_HINGE } mjtJoint;

typedef enum mjtIntegrator_ {
  mjINT_EULER = 0, mjINT_RK4, mjINT_IMPLICIT, mjINT_IMPLICITFAST
} mjtIntegrator;

typedef enum mjtCone_ { mjCONE_PYRAMIDAL = 0, mjCONE_ELLIPTIC } mjtCone;
typedef enum mjtJacobian_ { mjJAC_DENSE = 0, mjJAC_SPARSE, mjJAC_AUTO } mjtJacobian;
typedef enum mjtSolver_ { mjSOL_PGS = 0, mjSOL_CG, mjSOL_NEWTON } mjtSolver;

typedef enum mjtDisableBit_ {
  mjDSBL_CONSTRAINT = 1<<0, mjDSBL_EQUALITY = 1<<1, mjDSBL_FRICTIONLOSS = 1<<2,
  mjDSBL_LIMIT = 1<<3, mjDSBL_CONTACT = 1<<4, mjDSBL_SPRING = 1<<5, mjDSBL_DAMPER = 1<<6,
  mjDSBL_GRAVITY = 1<<7, mjDSBL_CLAMPCTRL = 1<<8, mjDSBL_WARMSTART = 1<<9,
  mjDSBL_FILTERPARENT = 1<<10, mjDSBL_ACTUATION = 1<<11, mjDSBL_REFSAFE = 1<<12,
  mjDSBL_SENSOR = 1<<13, mjDSBL_MIDPHASE = 1<<14, mjDSBL_EULERDAMP = 1<<15,
  mjDSBL_AUTORESET = 1<<16, mjDSBL_NATIVECCD = 1<<17, mjDSBL_ISLAND = 1<<18, mjNDISABLE = 19
} mjtDisableBit;

typedef enum mjtEnableBit_ {
  mjENBL_OVERRIDE = 1<<0, mjENBL_ENERGY = 1<<1, mjENBL_FWDINV = 1<<2,
  mjENBL_INVDISCRETE = 1<<3, mjENBL_MULTICCD = 1<<4, mjENBL_SLEEP = 1<<5, mjNENABLE = 6
} mjtEnableBit;

typedef enum mjtObj_ {
  mjOBJ_UNKNOWN = 0, mjOBJ_BODY, mjOBJ_XBODY, mjOBJ_JOINT, mjOBJ_DOF, mjOBJ_GEOM, mjOBJ_SITE,
  mjOBJ_CAMERA, mjOBJ_LIGHT, mjOBJ_FLEX, mjOBJ_MESH, mjOBJ_SKIN, mjOBJ_HFIELD, mjOBJ_TEXTURE,
  mjOBJ_MATERIAL, mjOBJ_PAIR, mjOBJ_EXCLUDE, mjOBJ_EQUALITY, mjOBJ_TENDON, mjOBJ_ACTUATOR,
  mjOBJ_SENSOR, mjOBJ_NUMERIC, mjOBJ_TEXT, mjOBJ_TUPLE, mjOBJ_KEY, mjOBJ_PLUGIN, mjNOBJECT
} mjtObj;

typedef enum mjtTrn_ {
  mjTRN_JOINT = 0, mjTRN_JOINTINPARENT, mjTRN_SLIDERCRANK, mjTRN_TENDON, mjTRN_SITE,
  mjTRN_BODY, mjTRN_UNDEFINED = 1000
} mjtTrn;

typedef enum mjtDyn_ {
  mjDYN_NONE = 0, mjDYN_INTEGRATOR, mjDYN_FILTER, mjDYN_FILTEREXACT, mjDYN_MUSCLE, mjDYN_USER
} mjtDyn;

typedef enum mjtGain_ { mjGAIN_FIXED = 0, mjGAIN_AFFINE, mjGAIN_MUSCLE, mjGAIN_USER } mjtGain;
typedef enum mjtBias_ { mjBIAS_NONE = 0, mjBIAS_AFFINE, mjBIAS_MUSCLE, mjBIAS_USER } mjtBias;

typedef enum mjtEq_ {
  mjEQ_CONNECT = 0, mjEQ_WELD, mjEQ_JOINT, mjEQ_TENDON, mjEQ_FLEX, mjEQ_FLEXVERT, mjEQ_DISTANCE
} mjtEq;

typedef enum mjtWrap_ {
  mjWRAP_NONE = 0, mjWRAP_JOINT, mjWRAP_PULLEY, mjWRAP_SITE, mjWRAP_SPHERE, mjWRAP_CYLINDER
} mjtWrap;

typedef enum mjtSensor_ {
  mjSENS_TOUCH = 0, mjSENS_ACCELEROMETER, mjSENS_VELOCIMETER, mjSENS_GYRO, mjSENS_FORCE,
  mjSENS_TORQUE, mjSENS_MAGNETOMETER, mjSENS_RANGEFINDER, mjSENS_CAMPROJECTION,
  mjSENS_JOINTPOS, mjSENS_JOINTVEL, mjSENS_TENDONPOS, mjSENS_TENDONVEL, mjSENS_ACTUATORPOS,
  mjSENS_ACTUATORVEL, mjSENS_ACTUATORFRC, mjSENS_JOINTACTFRC, mjSENS_TENDONACTFRC,
  mjSENS_BALLQUAT, mjSENS_BALLANGVEL, mjSENS_JOINTLIMITPOS, mjSENS_JOINTLIMITVEL,
  mjSENS_JOINTLIMITFRC, mjSENS_TENDONLIMITPOS, mjSENS_TENDONLIMITVEL, mjSENS_TENDONLIMITFRC,
  mjSENS_FRAMEPOS, mjSENS_FRAMEQUAT, mjSENS_FRAMEXAXIS, mjSENS_FRAMEYAXIS, mjSENS_FRAMEZAXIS,
  mjSENS_FRAMELINVEL, mjSENS_FRAMEANGVEL, mjSENS_FRAMELINACC, mjSENS_FRAMEANGACC,
  mjSENS_SUBTREECOM, mjSENS_SUBTREELINVEL, mjSENS_SUBTREEANGMOM, mjSENS_INSIDESITE,
  mjSENS_GEOMDIST, mjSENS_GEOMNORMAL, mjSENS_GEOMFROMTO, mjSENS_CONTACT, mjSENS_E_POTENTIAL,
  mjSENS_E_KINETIC, mjSENS_CLOCK, mjSENS_TACTILE, mjSENS_PLUGIN, mjSENS_USER
} mjtSensor;

typedef enum mjtStage_ { mjSTAGE_NONE = 0, mjSTAGE_POS, mjSTAGE_VEL, mjSTAGE_ACC } mjtStage;

typedef enum mjtDataType_ {
  mjDATATYPE_REAL = 0, mjDATATYPE_POSITIVE, mjDATATYPE_AXIS, mjDATATYPE_QUATERNION
} mjtDataType;

typedef enum mjtTexture_ { mjTEXTURE_2D = 0, mjTEXTURE_CUBE, mjTEXTURE_SKYBOX } mjtTexture;

typedef enum mjtCamLight_ {
  mjCAMLIGHT_FIXED = 0, mjCAMLIGHT_TRACK, mjCAMLIGHT_TRACKCOM, mjCAMLIGHT_TARGETBODY,
  mjCAMLIGHT_TARGETBODYCOM
} mjtCamLight;

typedef enum mjtLightType_ {
  mjLIGHT_SPOT = 0, mjLIGHT_DIRECTIONAL, mjLIGHT_POINT, mjLIGHT_IMAGE
} mjtLightType;

// ---- option, statistic, visual: plain structs generated from mjxmacro.h --------------------
#define MJ_X_MEMBER(type, name, count, shape) type name shape;
typedef struct mjOption_ { MJ_OPTION_FIELDS(MJ_X_MEMBER) } mjOption;
typedef struct mjStatistic_ { MJ_STAT_FIELDS(MJ_X_MEMBER) } mjStatistic;
#undef MJ_X_MEMBER

#define MJ_X_VISMEMBER(type, section, name, count, shape) type section##_##name shape;
typedef struct mjVisual_ { MJ_VISUAL_FIELDS(MJ_X_VISMEMBER) } mjVisual;
#undef MJ_X_VISMEMBER

// ---- the model -------------------------------------------------------------------------------
typedef struct mjModel_ {
#define MJ_X_SIZE(name) int name;
  MJ_SIZES(MJ_X_SIZE)
#undef MJ_X_SIZE
  mjOption opt;              // physics options
  mjVisual vis;              // visualization options
  mjStatistic stat;          // model statistics
  size_t nbuffer;            // bytes in buffer
  void* buffer;              // the one allocation holding every array
#define MJ_X_PTR(type, name, rows, cols) type* name;
  MJ_MODEL_ARRAYS(MJ_X_PTR)
#undef MJ_X_PTR
} mjModel;

// ---- per-contact and per-warning records of the data ----------------------------------------
typedef enum mjtWarning_ {
  mjWARN_INERTIA = 0,   // (near) singular inertia matrix
  mjWARN_CONTACTFULL,   // too many contacts in contact list
  mjWARN_CNSTRFULL,     // too many constraints
  mjWARN_BADQPOS,       // bad number in qpos
  mjWARN_BADQVEL,       // bad number in qvel
  mjWARN_BADQACC,       // bad number in qacc
  mjWARN_BADCTRL,       // bad number in ctrl
  mjNWARNING
} mjtWarning;

typedef struct mjWarningStat_ {
  int lastinfo;   // info from last warning
  int number;     // how many times it was raised
} mjWarningStat;

// ---- the data --------------------------------------------------------------------------------
typedef struct mjData_ {
  size_t nbuffer;            // bytes in buffer (arrays and stack)
  void* buffer;              // the one allocation
  size_t pstack;             // first free mjtNum of the stack
  size_t maxstack;           // most of the stack ever used
  mjtNum* stack;             // scratch space of m->nstack mjtNums
  mjtNum time;               // simulation time
  mjtNum energy[2];          // potential, kinetic energy
  int ncon;                  // number of detected contacts
  int nefc;                  // number of constraint rows
  mjWarningStat warning[mjNWARNING];
#define MJ_X_PTR(type, name, rows, cols) type* name;
  MJ_DATA_ARRAYS(MJ_X_PTR)
#undef MJ_X_PTR
} mjData;

// declare every size of the model `m_` in scope as a local int, so that the rows and cols
// expressions of the tables evaluate:  const mjModel* m_ = m; MJ_SIZES(MJ_X_SIZE_LOCAL)
#define MJ_X_SIZE_LOCAL(name) int name = m_->name; (void)name;

// ---- model: create, free, compile, load, save -----------------------------------------------
// allocate a model whose sizes are already set in *sizes (arrays zeroed); NULL on failure
mjModel* mj_makeModel(const mjModel* sizes);

// free a model (NULL is fine)
void mj_deleteModel(mjModel* m);

// deep copy of a model; NULL on allocation failure
mjModel* mj_copyModel(const mjModel* m);

// set the defaults of option, visual and statistic (MuJoCo's defaults)
void mj_defaultOption(mjOption* opt);
void mj_defaultVisual(mjVisual* vis);
void mj_defaultStatistic(mjStatistic* stat);

// compile an MJCF file into a model; NULL and a message in err on failure
mjModel* mj_loadXML(const char* filename, char* err, int errsz);

// compile MJCF text held in memory; dir resolves relative includes and assets ("" for cwd)
mjModel* mj_parseXMLString(const char* xml, const char* name, const char* dir,
                           char* err, int errsz);

// read a binary model file ("-" for stdin); NULL and a message in err on failure
mjModel* mj_loadModel(const char* filename, char* err, int errsz);

// read a model of either kind: .xml compiles, anything else loads as binary
mjModel* mj_loadAny(const char* filename, char* err, int errsz);

// write a binary model atomically (temporary file + rename), or to stdout for "-";
// returns 0 on success, -1 and a message in err on failure
int mj_saveModel(const mjModel* m, const char* filename, char* err, int errsz);

// the bytes of a binary model file in a new malloc'd buffer of *size bytes; NULL on failure
void* mj_modelToBuffer(const mjModel* m, size_t* size);

// a model from the bytes of a binary model file; NULL and a message in err on failure
mjModel* mj_modelFromBuffer(const void* buf, size_t size, const char* name, char* err, int errsz);

// 64-bit FNV-1a hash of the model's binary form: binds state streams to one model
uint64_t mj_modelHash(const mjModel* m);

// ---- data -------------------------------------------------------------------------------------
// allocate data for model m and reset it; NULL on allocation failure
mjData* mj_makeData(const mjModel* m);

// free data (NULL is fine)
void mj_deleteData(mjData* d);

// reset data to the model defaults (qpos0, zero velocity, mocap from body frames)
void mj_resetData(const mjModel* m, mjData* d);

// reset data, then set the state of keyframe `key`
void mj_resetDataKeyframe(const mjModel* m, mjData* d, int key);

// ---- names --------------------------------------------------------------------------------
// id of the object of type `type` called `name`, or -1
int mj_name2id(const mjModel* m, int type, const char* name);

// name of object `id` of type `type`, or NULL when unnamed or out of range
const char* mj_id2name(const mjModel* m, int type, int id);

// ---- the compile-time constants ------------------------------------------------------------
// compute the quantities that depend on qpos0: invweight0, length0, acc0, cam/light 0-poses,
// statistics not given in the file; d is scratch data for m
void mj_setConst(mjModel* m, mjData* d);

// ---- listing ------------------------------------------------------------------------------
// print a readable summary of a model: counts, options, and each object with its parameters
void mj_printModelSummary(const mjModel* m, FILE* f);

// ---- warnings -------------------------------------------------------------------------------
// count warning `w` with its info (never prints; tools report the counts)
void mj_warning(mjData* d, int w, int info);

// ---- the data stack ----------------------------------------------------------------------
// mark, allocate and free scratch mjtNums on the data stack (LIFO, never malloc)
size_t mj_markStack(const mjData* d);
mjtNum* mj_stackAlloc(mjData* d, size_t n);
void mj_freeStack(mjData* d, size_t mark);

// ---- math and dynamics used by the compiler (lib/smooth.c, lib/inertia.c) --------------------
// (section owned by the dynamics work; declarations only)

// ---- model listings (lib/print.c) ---------------------------------------------------------
// (section owned by the listing/oracle work; declarations only)

// ---- state streams (lib/stream.c) ------------------------------------------------------------
// (section owned by the file-format work; declarations only)

#endif
