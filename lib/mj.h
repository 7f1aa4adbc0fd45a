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
  mjDSBL_AUTORESET = 1<<16, mjDSBL_NATIVECCD = 1<<17, mjDSBL_ISLAND = 1<<18,
  mjDSBL_MULTICCD = 1<<19, mjNDISABLE = 20
} mjtDisableBit;

typedef enum mjtEnableBit_ {
  mjENBL_OVERRIDE = 1<<0, mjENBL_ENERGY = 1<<1, mjENBL_FWDINV = 1<<2,
  mjENBL_INVDISCRETE = 1<<3, mjENBL_SLEEP = 1<<4, mjENBL_DIAGEXACT = 1<<5, mjENBL_IPC = 1<<6,
  mjNENABLE = 7
} mjtEnableBit;

// a kinematic tree's sleep policy (tree_sleep_policy): the compiler resolves AUTO to AUTO_NEVER
// (actuated trees, trees joined by a tendon with springs or dampers or spanning 3+ trees) or
// AUTO_ALLOWED; a root body's sleep attribute gives NEVER, ALLOWED or INIT (asleep at reset)
typedef enum mjtSleepPolicy_ {
  mjSLEEP_AUTO = 0, mjSLEEP_AUTO_NEVER, mjSLEEP_AUTO_ALLOWED, mjSLEEP_NEVER, mjSLEEP_ALLOWED,
  mjSLEEP_INIT
} mjtSleepPolicy;

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
  mjDYN_NONE = 0, mjDYN_INTEGRATOR, mjDYN_FILTER, mjDYN_FILTEREXACT, mjDYN_MUSCLE,
  mjDYN_DCMOTOR, mjDYN_USER
} mjtDyn;

typedef enum mjtGain_ {
  mjGAIN_FIXED = 0, mjGAIN_AFFINE, mjGAIN_MUSCLE, mjGAIN_DCMOTOR, mjGAIN_USER
} mjtGain;
typedef enum mjtBias_ {
  mjBIAS_NONE = 0, mjBIAS_AFFINE, mjBIAS_MUSCLE, mjBIAS_DCMOTOR, mjBIAS_USER
} mjtBias;

// an actuator's input signature (actuator_ctrlspec), bits of its controls in this order; 0 for
// the actuators with one plain control
typedef enum mjtCtrlInput_ {
  mjINPUT_POS = 1, mjINPUT_VEL = 2, mjINPUT_FF = 4, mjINPUT_VOLTAGE = 8, mjINPUT_NONE = 16
} mjtCtrlInput;

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

// the role a material gives a texture: the columns of mat_texid (MJCF <layer role=...>; the
// material's texture= attribute fills the rgb role; user is not reachable from MJCF)
typedef enum mjtTextureRole_ {
  mjTEXROLE_USER = 0, mjTEXROLE_RGB, mjTEXROLE_OCCLUSION, mjTEXROLE_ROUGHNESS, mjTEXROLE_METALLIC,
  mjTEXROLE_NORMAL, mjTEXROLE_OPACITY, mjTEXROLE_EMISSIVE, mjTEXROLE_RGBA, mjTEXROLE_ORM,
  mjNTEXROLE
} mjtTextureRole;

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
  mjWARN_VGEOMFULL,     // too many visual geoms (kept so the numbers equal MuJoCo's)
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

// pipeline timers (accumulated only while mjcb_time is set): the whole step, each forward pass
// (RK4 makes four a step), and within the passes the stages and the sensors (with energy)
typedef enum mjtTimer_ {
  mjTIMER_STEP = 0,     // mj_step, mj_step1 + mj_step2
  mjTIMER_FORWARD,      // mj_forward and RK4's inner passes
  mjTIMER_POSITION,     // mj_fwdPosition
  mjTIMER_VELOCITY,     // mj_fwdVelocity
  mjTIMER_ACTUATION,    // mj_fwdActuation
  mjTIMER_ACCELERATION, // mj_fwdAcceleration
  mjTIMER_CONSTRAINT,   // mj_fwdConstraint
  mjTIMER_SENSOR,       // mj_sensorPos/Vel/Acc, mj_energyPos/Vel
  mjNTIMER
} mjtTimer;

typedef struct mjTimerStat_ {
  double duration;  // total seconds
  long number;      // number of timed calls
} mjTimerStat;

// one detected contact (collision detection fills all but efc_address and H)
typedef struct mjContact_ {
  mjtNum dist;               // distance between the surfaces; negative: penetration
  mjtNum pos[3];             // position of the contact point: midpoint between the surfaces
  mjtNum frame[9];           // contact frame, rows: normal (from geom1 to geom2), 2 tangents
  mjtNum includemargin;      // include in the solver if dist < includemargin = margin - gap
  mjtNum friction[5];        // tangent1, tangent2, spin, roll1, roll2
  mjtNum solref[2];          // constraint solver reference, normal direction
  mjtNum solreffriction[2];  // constraint solver reference, frictional directions
  mjtNum solimp[5];          // constraint solver impedance
  mjtNum adhesion;           // adhesive force along the normal: the pull before breaking
  mjtNum mu;                 // friction of the regularized cone, set by the constraint stage
  mjtNum H[36];              // cone Hessian, set by the solver (elliptic cones)
  mjtNum clipvec[9];         // clipped (clip[0] > 0), in world: the clipping face's normal, the
                             // direction of the line the point is on and the normal of the
                             // plane cutting that line (clip[1] 1, 2; else zeros)
  mjtNum turndist;           // a multiccd turned copy's (turn != 0) distance at its turned
                             // poses, where its point and normal are (its dist: the first's)
  int dim;                   // contact space dimensionality: 1, 3, 4 or 6
  int geom1, geom2;          // geom ids (-1 for flex); geom1 < geom2 unless a pair says so
  int geom[2];               // geom ids, as geom1 and geom2
  int flex[2], elem[2], vert[2];  // flex ids, elements and vertices (-1: none)
  int exclude;               // 0: include, 1: in the gap, 2: fused, 3: no dofs
  int efc_address;           // address of the first constraint row; -1: not in the solver
  int clip[2];               // a contact of clipped faces (collision_clip.c), else clip[0] = 0:
                             // [0] 1 geom2's face clipped by geom1's, 2 geom2's edge by geom1's
                             // face, 3 geom1's edge by geom2's face; [1] the point (the witness
                             // on the clipped geom): 0 a corner of the clipped face or edge, 1
                             // on an edge of it where a side plane of the clipping face cuts
                             // it, 2 on a corner line of the clipping face (along its normal)
                             // where the clipped face's plane cuts it; -1 on a cylinder's side
                             // line (EPA's rim point), -2 on an edge through a corner line
  int turn;                  // multiccd's turned copy (mjc_Convex): 0 none, else +-1, +-2 the
                             // tangent row of the pair's first contact's frame that geom1 was
                             // turned about (geom2 back) times the sign of the turn
} mjContact;

// constraint row types, in the order the rows are made
typedef enum mjtConstraint_ {
  mjCNSTR_EQUALITY = 0, mjCNSTR_FRICTION_DOF, mjCNSTR_FRICTION_TENDON, mjCNSTR_LIMIT_JOINT,
  mjCNSTR_LIMIT_TENDON, mjCNSTR_CONTACT_FRICTIONLESS, mjCNSTR_CONTACT_PYRAMIDAL,
  mjCNSTR_CONTACT_ELLIPTIC
} mjtConstraint;

// state of a constraint row at the solution
typedef enum mjtConstraintState_ {
  mjCNSTRSTATE_SATISFIED = 0, mjCNSTRSTATE_QUADRATIC, mjCNSTRSTATE_LINEARNEG,
  mjCNSTRSTATE_LINEARPOS, mjCNSTRSTATE_CONE
} mjtConstraintState;

#define mjNSOLVER 200        // solver iterations whose statistics are kept
#define mjNFLUID 12          // geom_fluid values per geom
#define mjNPOLY 2            // higher-order spring and damper coefficients (*_stiffnesspoly)

// statistics of one solver iteration
typedef struct mjSolverStat_ {
  mjtNum improvement;        // cost reduction, scaled by 1/trace(M(qpos0))
  mjtNum gradient;           // gradient norm (primal only, scaled)
  mjtNum lineslope;          // slope in the line search
  int nactive;               // number of active constraints
  int nchange;               // number of constraint state changes
  int neval;                 // number of cost evaluations in the line search
  int nupdate;               // number of Cholesky updates in the line search
} mjSolverStat;

// ---- the data --------------------------------------------------------------------------------
typedef struct mjData_ {
  size_t nbuffer;            // bytes in buffer (arrays and stack)
  void* buffer;              // the one allocation
  size_t pstack;             // first free mjtNum of the stack
  size_t maxstack;           // most of the stack ever used
  mjtNum* stack;             // scratch space: m->nstack mjtNums, more after mj_growData
  mjtNum time;               // simulation time
  mjtNum energy[2];          // potential, kinetic energy
  int ncon;                  // number of detected contacts
  int nefc;                  // number of constraint rows
  int nconmax;               // room for contacts: the model's, more after mj_growData
  int njmax;                 // room for constraint rows: the model's, more after mj_growData
  mjtNum* undo;              // the state before a pass of mj_passGrow
  int nJ;                    // non-zeros of efc_J (nefc nv when dense)
  size_t parena;             // bytes of the arena, taken from the top of the stack region
  size_t stackreserve;       // mjtNums at the bottom of the region the arena leaves alone
  size_t maxarena;           // most arena bytes ever used
  mjWarningStat warning[mjNWARNING];
  mjTimerStat timer[mjNTIMER];  // stage times while mjcb_time is set
  int nisland;               // constraint islands of the last step (0: its rows solved at once)
  int* island_niter;         // each island's solver iterations, noslip's sweeps included (nisland,
                             // in the arena with the step's constraint rows)
  int solver_niter;          // solver iterations of the last step (of island 0 with islands)
  mjSolverStat solver[mjNSOLVER];  // per-iteration statistics of the last step (island 0's)
  mjtNum solver_fwdinv[2];   // forward-inverse comparison: qfrc, efc (fwdinv flag)

  // constraint rows of the current step, in the arena: valid from mj_fwdPosition until the
  // next one.  efc_J is dense (nefc x nv, row-major) when the model's Jacobian is dense, else
  // compressed rows: row r holds efc_J_rownnz[r] values from efc_J_rowadr[r], in the columns
  // efc_J_colind[efc_J_rowadr[r] + k] (ascending)
  int* efc_type;             // constraint type (mjtConstraint)                      (nefc)
  int* efc_id;               // id of the equality, dof, joint, tendon or contact    (nefc)
  int* efc_J_rownnz;         // non-zeros per row (sparse)                           (nefc)
  int* efc_J_rowadr;         // row start in efc_J and efc_J_colind (sparse)         (nefc)
  int* efc_J_colind;         // column indices (sparse)                              (nJ)
  mjtNum* efc_J;             // constraint Jacobian                                  (nJ)
  int* efc_J_rowlen;         // dense, nv >= 12: columns of a row to the end of the  (nefc)
                             // 4-column block of its last non-zero, nv if it is short
  mjtNum* efc_pos;           // constraint position (equality, contact distance)     (nefc)
  mjtNum* efc_margin;        // inclusion margin (contact)                           (nefc)
  mjtNum* efc_frictionloss;  // frictionloss (friction rows)                         (nefc)
  mjtNum* efc_diagApprox;    // approximation to the diagonal of A = J inv(M) J'     (nefc)
  mjtNum* efc_KBIP;          // stiffness, damping, impedance, impedance' (nefc x 4)
  mjtNum* efc_D;             // constraint mass: 1 / R                               (nefc)
  mjtNum* efc_R;             // inverse constraint mass (regularizer)                (nefc)
  mjtNum* efc_vel;           // velocity in constraint space: J qvel                 (nefc)
  mjtNum* efc_aref;          // reference pseudo-acceleration                        (nefc)
  mjtNum* efc_b;             // linear cost term: J qacc_smooth - aref               (nefc)
  mjtNum* efc_force;         // constraint force in constraint space                 (nefc)
  int* efc_state;            // constraint state (mjtConstraintState)                (nefc)
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

// compile an MJCF file, or a URDF robot (root element <robot>, read as MuJoCo reads URDF), into
// a model; NULL and a message in err on failure
mjModel* mj_loadXML(const char* filename, char* err, int errsz);

// compile MJCF (or URDF) text held in memory; dir resolves relative includes and assets (""
// for the current directory)
mjModel* mj_parseXMLString(const char* xml, const char* name, const char* dir,
                           char* err, int errsz);

// read a binary model file ("-" for stdin); NULL and a message in err on failure
mjModel* mj_loadModel(const char* filename, char* err, int errsz);

// whether a file name is a model source: .xml or .urdf, in any case
int mj_isSource(const char* filename);

// read a model of either kind: a source (.xml, .urdf) compiles, anything else loads as binary
mjModel* mj_loadAny(const char* filename, char* err, int errsz);

// write a binary model atomically (temporary file + rename), or to stdout for "-";
// returns 0 on success, -1 and a message in err on failure
int mj_saveModel(const mjModel* m, const char* filename, char* err, int errsz);

// the bytes of a binary model file in a new malloc'd buffer of *size bytes; NULL on failure
void* mj_modelToBuffer(const mjModel* m, size_t* size);

// a model from the bytes of a binary model file; NULL and a message in err on failure
mjModel* mj_modelFromBuffer(const void* buf, size_t size, const char* name, char* err, int errsz);

// 0 when every id, address and count of m is in range and consistent with the body tree, the
// joint layout and the sparse inertia, enums are known, names and paths are terminated and
// reals finite (lib/io/validate.c); else -1 and "field[index] = value ..." in err.  Run on every
// model read from a file, so no stage can index out of bounds on it
int mj_validateModel(const mjModel* m, char* err, int errsz);

// 64-bit hash of the model's binary form (man 5 mjb): binds state streams to one model
uint64_t mj_modelHash(const mjModel* m);

// ---- data -------------------------------------------------------------------------------------
// allocate data for model m and reset it; NULL on allocation failure or when the data would
// exceed 1.5 GiB (the compiler and mj_validateModel refuse such models with a message)
mjData* mj_makeData(const mjModel* m);

// free data (NULL is fine)
void mj_deleteData(mjData* d);

// give d room for at least nconmax contacts and njmax constraint rows, with the stack they
// need (never less than before), keeping every array, the stack's top and the last step's
// constraint rows: a new buffer, the old one freed.  Outside a step only (mj_passGrow uses
// it).  0, or -1 when the data would exceed 1.5 GiB or memory is short (d unchanged)
int mj_growData(const mjModel* m, mjData* d, int nconmax, int njmax);

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

// which actuators get a computed length range (<compiler><lengthrange mode>)
typedef enum mjtLRMode_ {
  mjLRMODE_NONE = 0, mjLRMODE_MUSCLE, mjLRMODE_MUSCLEUSER, mjLRMODE_ALL
} mjtLRMode;

// options of the actuator length range computation (<compiler><lengthrange>)
typedef struct mjLROpt_ {
  int mode;          // the actuators computed (mjtLRMode): muscles, muscles and user, all
  int useexisting;   // keep a range already given (lengthrange[0] < lengthrange[1])
  int uselimit;      // take the range of a limited joint or tendon transmission as it is
  mjtNum accel;      // acceleration pushing along the transmission
  mjtNum maxforce;   // largest norm of the force doing it; 0: no bound
  mjtNum timeconst;  // time constant of the velocity damping (0.01 at least)
  mjtNum timestep;   // the simulation's timestep; 0: the model's
  mjtNum inttotal;   // simulated time in each direction
  mjtNum interval;   // the end of it over which the lengths are taken
  mjtNum tolrange;   // largest spread of the lengths in the interval, relative to the range
} mjLROpt;

// MuJoCo's defaults: muscles, useexisting, accel 20, no maxforce, timeconst 1, timestep
// 0.01, inttotal 10, interval 2, tolrange 0.05
void mj_defaultLROpt(mjLROpt* opt);

// actuator_lengthrange of the actuators opt selects, each by simulating the model pushed to
// either end of its transmission (see lib/engine/setconst.c); d is scratch data for m, m->opt
// is restored.  -1, or the index of the actuator whose computation failed, its reason in err
int mj_setLengthRanges(mjModel* m, mjData* d, const mjLROpt* opt, char* err, int errsz);

// ---- listing ------------------------------------------------------------------------------
// print a readable summary of a model: counts, options, and each object with its parameters
void mj_printModelSummary(const mjModel* m, FILE* f);

// ---- warnings -------------------------------------------------------------------------------
// count warning `w` with its info (never prints; tools report the counts)
void mj_warning(mjData* d, int w, int info);

// ---- the data stack and arena ---------------------------------------------------------------
// mark, allocate and free scratch mjtNums on the data stack (LIFO, never malloc); the stack
// grows up from the bottom of the stack region, the arena down from its top
size_t mj_markStack(const mjData* d);
mjtNum* mj_stackAlloc(mjData* d, size_t n);
void mj_freeStack(mjData* d, size_t mark);

// the per-step arena (contacts, constraint rows): reset at the start of mj_fwdPosition, then
// allocations of `bytes` (8-aligned) that live until the next reset; NULL when the arena
// would meet the stack (callers raise mjWARN_CONTACTFULL / mjWARN_CNSTRFULL and drop rows)
void mj_resetArena(mjData* d);
void* mj_arenaAlloc(mjData* d, size_t bytes);

// ---- math and dynamics used by the compiler (lib/engine/smooth.c, lib/util/inertia.c) -----------
// (section owned by the dynamics work; declarations only)

// ---- model listings (lib/io/print.c) ---------------------------------------------------------
// (section owned by the listing/oracle work; declarations only)

// print the model as one JSON object driven by the X-macro tables:
//   {"sizes": {...}, "opt": {...}, "stat": {...}, "vis": {"global_fovy": ...}, "arrays": {...}}
// arrays are flat row-major lists, char arrays one string (NULs as \u0000), reals %.17g,
// non-finite reals the strings "Infinity", "-Infinity", "NaN"
void mj_printModelJSON(const mjModel* m, FILE* f);

// ---- state streams (lib/io/stream.c) ------------------------------------------------------------
// (section owned by the file-format work; declarations only)
//
// A state stream (.mjt, man 5 mjt) is a 64-byte header binding it to one model (the model hash
// and the sizes of MJ_STREAM_SIZES) and naming the fields its frames carry, then frames: a
// marker, the present fields in table order as little-endian float64, a CRC-32C.  It is written
// and read strictly in sequence, so it flows through pipes; a reader detects a truncated or a
// corrupt frame and names it by index (frames count from 0).
//
// Writing:  mjStreamHeader h;  mj_streamInit(&h, m, mjSTREAM_STATE, "out.mjt");
//           mj_streamWriteHeader(f, &h, err, errsz);  per step: mj_streamWriteFrame(f, &h, d);
// Reading:  mj_streamReadHeader(f, "in.mjt", &h, err, errsz);
//           mj_streamCheckModel(&h, m, err, errsz);
//           while ((r = mj_streamReadFrame(f, &h, m, d, err, errsz)) == 1) ...;  r < 0: error

// the model sizes a stream depends on, in file order
#define MJ_STREAM_SIZES(X) X(nq) X(nv) X(na) X(nu) X(nbody) X(nmocap) X(neq) X(nsensordata)

// how a field is stored in mjData and how its elements are named
typedef enum mjtStreamKind_ {
  mjSK_SCALAR = 0,  // one mjtNum, no index in its name
  mjSK_INT,         // one int, no index
  mjSK_QPOS,        // mjtNum per qpos coordinate, named by joint
  mjSK_DOF,         // mjtNum per dof, named by joint
  mjSK_ACT,         // mjtNum per activation, named by actuator
  mjSK_ACTUATOR,    // mjtNum per actuator
  mjSK_BODY6,       // 6 mjtNum per body
  mjSK_MOCAP3,      // 3 mjtNum per mocap body
  mjSK_MOCAP4,      // 4 mjtNum per mocap body
  mjSK_EQ,          // unsigned char per equality constraint
  mjSK_SENSOR,      // mjtNum per sensor output, named by sensor
  mjSK_ENERGY,      // potential, kinetic
  mjSK_WARNING      // mjWarningStat.number per warning type
} mjtStreamKind;

// every field a frame may carry, in frame order: X(name, count, source in mjData d, kind);
// count is an expression in the MJ_STREAM_SIZES names.  Keep the groups contiguous: the masks
// mjSTREAM_STATE, _INPUT and _OUTPUT below are ranges of this table.
#define MJ_STREAM_FIELDS(X)                                                                     \
  /* integration state */                                                                      \
  X(time,            1,           &d->time,          mjSK_SCALAR)                              \
  X(qpos,            nq,          d->qpos,           mjSK_QPOS)                                \
  X(qvel,            nv,          d->qvel,           mjSK_DOF)                                 \
  X(act,             na,          d->act,            mjSK_ACT)                                 \
  X(warmstart,       nv,          d->qacc_warmstart, mjSK_DOF)                                 \
  /* user inputs */                                                                            \
  X(ctrl,            nu,          d->ctrl,           mjSK_ACTUATOR)                            \
  X(qfrc_applied,    nv,          d->qfrc_applied,   mjSK_DOF)                                 \
  X(xfrc_applied,    nbody*6,     d->xfrc_applied,   mjSK_BODY6)                               \
  X(mocap_pos,       nmocap*3,    d->mocap_pos,      mjSK_MOCAP3)                              \
  X(mocap_quat,      nmocap*4,    d->mocap_quat,     mjSK_MOCAP4)                              \
  X(eq_active,       neq,         d->eq_active,      mjSK_EQ)                                  \
  /* derived outputs */                                                                        \
  X(qacc,            nv,          d->qacc,           mjSK_DOF)                                 \
  X(sensordata,      nsensordata, d->sensordata,     mjSK_SENSOR)                              \
  X(qfrc_inverse,    nv,          d->qfrc_inverse,   mjSK_DOF)                                 \
  X(qfrc_constraint, nv,          d->qfrc_constraint, mjSK_DOF)                                \
  X(actuator_force,  nu,          d->actuator_force, mjSK_ACTUATOR)                            \
  X(energy,          2,           d->energy,         mjSK_ENERGY)                              \
  X(ncon,            1,           &d->ncon,          mjSK_INT)                                 \
  X(nefc,            1,           &d->nefc,          mjSK_INT)                                 \
  X(warning,         mjNWARNING,  d->warning,        mjSK_WARNING)

// field ids: mjSTREAM_time, mjSTREAM_qpos, ...; bit f of a mask selects field f
typedef enum mjtStreamField_ {
#define MJ_X_STREAMID(name, count, src, kind) mjSTREAM_##name,
  MJ_STREAM_FIELDS(MJ_X_STREAMID)
#undef MJ_X_STREAMID
  mjNSTREAMFIELD
} mjtStreamField;

// field groups: the integration state, the user inputs, the derived outputs, everything
#define mjSTREAM_STATE  ((1u << mjSTREAM_ctrl) - 1)
#define mjSTREAM_INPUT  ((1u << mjSTREAM_qacc) - (1u << mjSTREAM_ctrl))
#define mjSTREAM_OUTPUT ((1u << mjNSTREAMFIELD) - (1u << mjSTREAM_qacc))
#define mjSTREAM_ALL    ((1u << mjNSTREAMFIELD) - 1)

// A run over independent items (mjstep --batch: trajectories, mjderiv: input frames) may be
// split in shards, each writing the items first..end-1 of total, `frames` frames per item.
// A shard's stream says so by bit 31 of the u32 at header offset 56 (a state stream's field
// mask, a Jacobian stream's flags), and a 64-byte range record follows the header:
//   0 magic "MJRANGE1" | 8 i64 first | 16 i64 end | 24 i64 total | 32 i64 frames per item |
//   40 u64 run fingerprint | 48 u64 build fingerprint | 56 u32 zero | 60 u32 CRC-32C of 0..59
// A stream written whole (not as a part) has no record: the parts' streams merged (mjcat)
// are byte for byte the stream of one run.
#define mjSTREAM_RANGED (1u << 31)
#define mjRANGE_BYTES 64

typedef struct mjStreamRange_ {
  int64_t first, end;        // the items written: first..end-1
  int64_t total;             // the items of the whole run
  int64_t frames;            // frames per item
  uint64_t run;              // fingerprint of what the output depends on: tool, options, inputs
  uint64_t build;            // mj_buildFingerprint() of the writer
} mjStreamRange;

// the record's bytes
void mj_rangeEncode(const mjStreamRange* r, unsigned char b[mjRANGE_BYTES]);

// a record from its bytes (name for messages); 0, or -1 and a message (bad magic or CRC,
// first > end, end > total, negative counts)
int mj_rangeDecode(const unsigned char b[mjRANGE_BYTES], const char* name, mjStreamRange* r,
                   char* err, int errsz);

// items first..end-1 of total for shard i of n (0 <= i < n): the i-th of n contiguous blocks,
// floor(i total / n) .. floor((i+1) total / n) - 1, so that the blocks of 0..n-1 in order are
// 0..total-1 for any n (empty blocks when n > total)
void mj_rangeShard(int64_t total, int64_t i, int64_t n, int64_t* first, int64_t* end);

// a fingerprint of what makes this build's numbers: the library version, the compiler, the
// arithmetic options it was given (-ffast-math, FMA, vector extensions) and the C library it
// runs on; the same binary on the same C library gives the same bytes
uint64_t mj_buildFingerprint(void);

// a stream's header as read or about to be written, and the reading position
typedef struct mjStreamHeader_ {
  uint64_t hash;             // mj_modelHash of the model the stream belongs to
#define MJ_X_STREAMSIZE(name) int name;
  MJ_STREAM_SIZES(MJ_X_STREAMSIZE)
#undef MJ_X_STREAMSIZE
  int version;               // format version: of a stream read, 1 or 2; written: 2
  uint32_t mask;             // bit f set: frames carry field f (mjtStreamField)
  int nvalue;                // numbers per frame
  long frame;                // frames read so far: the index of the next frame
  char name[256];            // file name used in messages
  int ranged;                // a shard's stream: the range record follows the header
  mjStreamRange range;       // its items (ranged only)
} mjStreamHeader;

// a header for frames of model m carrying the fields of mask, less those without elements in
// m (act when na = 0); name is for messages ("-" shows as <stdout>)
void mj_streamInit(mjStreamHeader* h, const mjModel* m, uint32_t mask, const char* name);

// make h the stream of a part: items r->first..r->end-1 of a run of r->total (ranged, even
// when that is the whole run)
void mj_streamSetRange(mjStreamHeader* h, const mjStreamRange* r);

// write the 64-byte header (and the range record when ranged); 0 on success, -1 and a
// message on failure
int mj_streamWriteHeader(FILE* f, const mjStreamHeader* h, char* err, int errsz);

// write one frame from d (data of the model h was made for); 0 on success, -1 (errno) on failure
int mj_streamWriteFrame(FILE* f, const mjStreamHeader* h, const mjData* d);

// write one frame of h->nvalue numbers (the present fields, concatenated in table order)
int mj_streamWriteValues(FILE* f, const mjStreamHeader* h, const mjtNum* values);

// read and check a header (and a range record); name is for messages ("-" shows as <stdin>); 0 or -1 and a message
int mj_streamReadHeader(FILE* f, const char* name, mjStreamHeader* h, char* err, int errsz);

// 0 when the stream belongs to model m; else -1 and a message naming the differing size or hash
int mj_streamCheckModel(const mjStreamHeader* h, const mjModel* m, char* err, int errsz);

// read the next frame into values (h->nvalue numbers): 1 frame read, 0 clean end of stream,
// -1 error (truncated frame k, corrupt frame k, read error) with a message
int mj_streamReadValues(FILE* f, mjStreamHeader* h, mjtNum* values, char* err, int errsz);

// read the next frame into the fields of d it carries (m must have the stream's sizes);
// returns as mj_streamReadValues; d is unchanged unless a whole, valid frame was read
int mj_streamReadFrame(FILE* f, mjStreamHeader* h, const mjModel* m, mjData* d,
                       char* err, int errsz);

// the name of field f ("qpos"), NULL when out of range
const char* mj_streamFieldName(int f);

// the id of the field called name, or -1
int mj_streamFieldFind(const char* name);

// the kind of field f (mjtStreamKind)
int mj_streamFieldKind(int f);

// the number of elements of field f under h's sizes (present or not)
int mj_streamFieldSize(const mjStreamHeader* h, int f);

// the offset of field f in a frame's values, -1 when frames do not carry it
int mj_streamFieldOffset(const mjStreamHeader* h, int f);

// a mask from a comma-separated list of field names and groups (state, input, output, all);
// 0 or -1 and a message naming the unknown field
int mj_streamParseFields(const char* list, uint32_t* mask, char* err, int errsz);

// the name of element i of field f: "qpos[3]" ("time" for scalars); with describe, add what
// it is where known: "qpos[3] (joint 'elbow')" from model m (may be NULL), "energy[1] (kinetic)"
void mj_streamElementName(const mjModel* m, int f, int i, int describe, char* buf, int bufsz);

// parse an element name ("qpos[3]", "time") into field and index; 0 or -1 when malformed
int mj_streamParseElement(const char* s, int* f, int* i);

// ---- atomic output files (lib/io/io.c) -------------------------------------------------------
// Output goes to a temporary file in the target's directory, renamed over the target when
// complete, so readers never see a partial file; "-" writes to standard output instead.
typedef struct mjOutFile_ {
  FILE* f;                   // write here
  char path[4096];           // the target ("-": stdout)
  char tmp[4096];            // the temporary file ("" for stdout and special files)
  int direct;                // 1: the target is not a regular file (/dev/null, a FIFO), so it
                             // is written in place: a rename would replace the device
  char* buf;                 // f's buffer (a file's: MJ_OUTBUF bytes; NULL: stdio's own)
} mjOutFile;

// the buffer of an output file: large writes cost the kernel less than stdio's 4 KB ones
#define MJ_OUTBUF (1 << 20)

// open an output; 0 on success, -1 and a message on failure
int mj_outOpen(mjOutFile* o, const char* path, char* err, int errsz);

// commit (nonzero): flush, close, rename into place; else discard the temporary file;
// 0 on success (a discard always succeeds), -1 and a message; the temporary file is removed
// on any failure
int mj_outClose(mjOutFile* o, int commit, char* err, int errsz);

// ---- bytes of the binary formats (lib/util/util_file.c) ----------------------------------------

// copy count elements of size bytes from host order to little-endian or back (the same
// operation both ways); dst may equal src
void mj_copyLE(void* dst, const void* src, size_t size, size_t count);

// CRC-32C (Castagnoli's polynomial, the one processors compute: SSE4.2 when present) of n
// bytes continuing from crc (0 to start); crc32c("123456789") = 0xe3069283
uint32_t mj_crc32c(uint32_t crc, const void* p, size_t n);

// a 64-bit hash of n bytes continuing from h (0 to start): fingerprints of inputs
uint64_t mj_hashBytes(uint64_t h, const void* p, size_t n);

// ---- counter-based random numbers (lib/util/random.c) -------------------------------------------
// Number j of stream `key` depends on (key, j) only, never on what was drawn before: batch
// item k draws from key mj_randomKey(seed, k, channel) wherever and in whatever order it runs.

// the key of item k's channel c under seed
uint64_t mj_randomKey(uint64_t seed, uint64_t k, uint64_t c);

// 64 random bits: number j of stream key (splitmix64's mixing of key + golden ratio (j+1))
uint64_t mj_randomBits(uint64_t key, uint64_t j);

// a uniform number in (0, 1): 53 random bits, never 0 or 1
double mj_randomUniform(uint64_t key, uint64_t j);

// a standard normal number: Box-Muller from numbers 2j and 2j+1 of the stream
double mj_randomNormal(uint64_t key, uint64_t j);

// ---- runtime options (lib/engine/options.c) -----------------------------------------------------
// The options of a loaded model by name, as the MJCF compiler reads them and the tools'
// --set, --disable and --enable override them:
//   mj_setOptionString(m, "integrator=RK4", err, sizeof(err));  mj_setFlag(m, "contact", 0, ...)

// the <flag> names, NULL-terminated: disable bits in bit order (mjtDisableBit), and enable bits
// (mjtEnableBit)
extern const char* const mj_disableFlagNames[];
extern const char* const mj_enableFlagNames[];

// the keywords of an enum-valued option field ("integrator", "cone", "jacobian", "solver"),
// NULL-terminated and indexed by value ("Euler", "RK4", ...); NULL for any other field
const char* const* mj_optionKeywords(const char* name);

// set one field of m->opt from "name=value": any field of MJ_OPTION_FIELDS by its name; reals
// as numbers (vectors space- or comma-separated, all elements), enum fields by keyword, the
// others as integers; 0, or -1 and a message naming the option (m unchanged)
int mj_setOptionString(mjModel* m, const char* assignment, char* err, int errsz);

// 0 when the enum fields of opt are valid values and the iteration counts lie in [0, 100000];
// else -1 and a message naming the field (the compiler, mj_validateModel and
// mj_setOptionString refuse such options)
int mj_checkOption(const mjOption* opt, char* err, int errsz);

// switch a feature by its <flag> name: enable = 0 sets a disable bit ("contact") or clears an
// enable bit ("energy"), enable = 1 the reverse; 0, or -1 and a message for an unknown flag
int mj_setFlag(mjModel* m, const char* flag, int enable, char* err, int errsz);

// ---- simulation (lib/engine/: forward.c, passive.c, integrate.c, sensor.c, smooth.c) ------------
// One step of MuJoCo's pipeline without collisions and constraints (the constraint stage is
// a slot, mj_fwdConstraint, that sets qacc = qacc_smooth until constraints exist).  Typical:
//
//   mjModel* m = mj_loadXML("arm.xml", err, sizeof(err));   mjData* d = mj_makeData(m);
//   for (...) { set d->ctrl, d->qfrc_applied, d->xfrc_applied;  mj_step(m, d); }
//
// mj_forward computes every derived quantity of the current state (time, qpos, qvel, act,
// ctrl, applied forces) without changing the state; mj_step advances the state by
// m->opt.timestep with m->opt.integrator.  Nothing here allocates: temporaries live on the
// data stack (m->nstack mjtNums, enough for any model the compiler produces).
//
// Stages (each reads earlier stages' outputs in d, writes its own):
//   mj_fwdPosition   kinematics, com quantities, cameras/lights, tendons, transmissions,
//                    composite inertia qM and its factor qLD
//   mj_fwdVelocity   ten_velocity, actuator_velocity, cvel, cdof_dot, passive forces
//                    (qfrc_spring, _damper, _gravcomp, _fluid, sum qfrc_passive), qfrc_bias
//   mj_fwdActuation  act_dot, actuator_force, qfrc_actuator
//   mj_fwdAcceleration  qfrc_smooth = passive - bias + applied + actuator + xfrc_applied;
//                    qacc_smooth = inv(M) qfrc_smooth
//   mj_fwdConstraint qacc (= qacc_smooth without constraints), qfrc_constraint
//   sensors          mj_sensorPos / Vel / Acc after the stage each needs
// Numerical trouble: a NaN, Inf or |x| > 1e10 in qpos, qvel or qacc counts warning
// mjWARN_BADQPOS / BADQVEL / BADQACC (info: the index) and, unless mjDSBL_AUTORESET, resets
// the data; as in MuJoCo the reset clears all warnings and the bad one is then counted again
// (count 1 after a reset, +2 without).  A bad ctrl counts mjWARN_BADCTRL and that step's
// actuation uses zero for every control (d->ctrl is left as it is).

// the clock of the pipeline timers d->timer: seconds on a monotonic clock; NULL (the default)
// turns timing off, leaving the steps without any clock reading
extern double (*mjcb_time)(void);

// the whole forward dynamics of the current state (sensors and energy included)
void mj_forward(const mjModel* m, mjData* d);

// one step: checks, mj_forward, then the integrator of m->opt.integrator
void mj_step(const mjModel* m, mjData* d);

// mj_step without the sensors (d->sensordata keeps its values; the state that follows is the
// same, since nothing in a step reads a sensor): for loops that read no sensor of a step.  A
// model whose sensors keep history buffers (nsample) computes them: they are its samples
void mj_stepNoSensor(const mjModel* m, mjData* d);

// a pass over d (mj_step, mj_forward, mj_inverse, ...) that drops no contact and no
// constraint row for want of room: when it raised mjWARN_CONTACTFULL or mjWARN_CNSTRFULL,
// the state before it (time, qpos, qvel, act, the warm start, the warnings) is put back, d
// grown by mj_growData (twice the room that ran out) and the pass run again until it fits:
// the result of data made with that room from the start.  Allocates between tries: for
// tools and loops, not for code that must not allocate.  0, or -1 when d cannot grow (the
// pass then stands, with its warning)
int mj_passGrow(const mjModel* m, mjData* d, void (*pass)(const mjModel*, mjData*));

// one step that shows d to visit(m, d, arg) between its forward pass (sensors and energy
// included: all that mj_forward computes at the state the step starts from) and its
// integration, growing d as mj_passGrow does (a pass that ran out of room runs again before
// the visit).  A recorder writing frames there writes what mj_forward before mj_step would
// show, without the second forward pass; the state that follows is mj_step's.  The visit is
// not in the step's timer.  0, or -1 when d cannot grow (the step then stands)
int mj_stepVisit(const mjModel* m, mjData* d,
                 void (*visit)(const mjModel* m, const mjData* d, void* arg), void* arg);

// after passes that raised mjWARN_CONTACTFULL or mjWARN_CNSTRFULL more often than the
// counts `before` (mjNWARNING of them) say: d grown by mj_growData to twice the room that
// ran out (constraint rows too when contacts did); 1 when it grew, 0 when nothing ran out,
// -1 when d cannot grow.  The passes must then be run again (mj_passGrow does)
int mj_growFull(const mjModel* m, mjData* d, const mjWarningStat* before);

// the most non-zeros actuator a's moment row can have, as MuJoCo counts them: its joint's dofs
// (1, 3 or 6), the dofs a tendon can move, the dofs on a slider-crank's two site chains, the
// dofs on a site's chain and its reference site's but not on both, nv for a body; 0 without
// a target; m->nJmom is their sum
int mj_momentMax(const mjModel* m, int a);

// row(nv) = actuator a's moment (d->actuator_moment holds compressed rows: moment_rownnz,
// moment_rowadr, moment_colind) as a dense row
void mj_momentRow(const mjModel* m, const mjData* d, int a, mjtNum* row);

// a step in two halves, to set ctrl from position and velocity quantities in between:
// mj_step1 runs the checks and the position and velocity stages (with their sensors),
// mj_step2 the rest and the integrator (RK4 falls back to Euler in this split, as in MuJoCo)
void mj_step1(const mjModel* m, mjData* d);
void mj_step2(const mjModel* m, mjData* d);

// the stages, in order
void mj_fwdPosition(const mjModel* m, mjData* d);
void mj_fwdVelocity(const mjModel* m, mjData* d);
void mj_fwdActuation(const mjModel* m, mjData* d);
void mj_fwdAcceleration(const mjModel* m, mjData* d);
void mj_fwdConstraint(const mjModel* m, mjData* d);

// the integrators, run after mj_forward: semi-implicit Euler with implicit dof damping
// (unless mjDSBL_EULERDAMP); implicit (m->opt.integrator mjINT_IMPLICIT: LU of M - h D, D the
// velocity derivative of all smooth forces, RNE included) and implicitfast (Cholesky of the
// symmetrized M - h D without the RNE term); RK4 with n = 4 stages (other n: Euler)
void mj_Euler(const mjModel* m, mjData* d);
void mj_implicit(const mjModel* m, mjData* d);
void mj_RungeKutta(const mjModel* m, mjData* d, int n);

// qpos += scl * qvel on the joint manifold (quaternions rotate and stay normalized)
void mj_integratePos(const mjModel* m, mjtNum* qpos, const mjtNum* qvel, mjtNum scl);

// the checks of mj_step (see above)
void mj_checkPos(const mjModel* m, mjData* d);
void mj_checkVel(const mjModel* m, mjData* d);
void mj_checkAcc(const mjModel* m, mjData* d);

// passive forces: joint and tendon springs and dampers, gravity compensation, fluid forces
void mj_passive(const mjModel* m, mjData* d);

// cvel and cdof_dot
void mj_comVel(const mjModel* m, mjData* d);

// result(nv) = RNE inverse dynamics with qacc (flg_acc) or zero acceleration (the bias force)
void mj_rne(const mjModel* m, mjData* d, int flg_acc, mjtNum* result);

// cacc, cfrc_int, cfrc_ext of every body after the constraint stage (mj_forward's sensors
// compute them only for the bodies acceleration, force and torque sensors read, zeros
// elsewhere; run this for all)
void mj_rnePostConstraint(const mjModel* m, mjData* d);

// subtree_linvel and subtree_angmom (mj_forward's sensors compute subtree_angmom only for a
// subtreeangmom or user sensor, zeros otherwise)
void mj_subtreeVel(const mjModel* m, mjData* d);

// 6D velocity / acceleration (rot:lin) of an object (mjOBJ_BODY: com frame, XBODY, GEOM, SITE,
// CAMERA) in the world frame or, with flg_local, in the object's frame
void mj_objectVelocity(const mjModel* m, const mjData* d, int objtype, int id, mjtNum res[6],
                       int flg_local);
void mj_objectAcceleration(const mjModel* m, const mjData* d, int objtype, int id,
                           mjtNum res[6], int flg_local);

// res(nv) += generalized force of a force and torque applied at a world point of a body
void mj_applyFT(const mjModel* m, const mjData* d, const mjtNum force[3],
                const mjtNum torque[3], const mjtNum point[3], int body, mjtNum* res);

// potential (gravity, springs) into d->energy[0]; kinetic 0.5 v'Mv into d->energy[1]
void mj_energyPos(const mjModel* m, mjData* d);
void mj_energyVel(const mjModel* m, mjData* d);

// sensors of each stage into sensordata (contact-based types are left at zero)
void mj_sensorPos(const mjModel* m, mjData* d);
void mj_sensorVel(const mjModel* m, mjData* d);
void mj_sensorAcc(const mjModel* m, mjData* d);

// MuJoCo's muscle model: active force gain, passive force bias and activation dynamics;
// prm = gainprm/biasprm (range[2], force, scale, lmin, lmax, vmax, fpmax, fvmax), dynprm
// (tau_act, tau_deact, tausmooth)
mjtNum mju_muscleGain(mjtNum len, mjtNum vel, const mjtNum lengthrange[2], mjtNum acc0,
                      const mjtNum prm[9]);
mjtNum mju_muscleBias(mjtNum len, const mjtNum lengthrange[2], mjtNum acc0,
                      const mjtNum prm[9]);
mjtNum mju_muscleDynamics(mjtNum ctrl, mjtNum act, const mjtNum prm[3]);

// ---- constraint solvers (lib/engine/solver.c) ---------------------------------------------------
// (section owned by the solver work)
// mj_fwdConstraint runs mj_solWarmstart, then the solver of m->opt.solver (mjSOL_NEWTON by
// default) for m->opt.iterations, on the constraint rows d->efc_* of the step; they write
// qacc, efc_force, efc_state, qfrc_constraint, the cone Hessians contact[i].H (Newton,
// elliptic cones), solver_niter and the per-iteration statistics solver[].  The primal solvers
// (CG, Newton) start from qacc; PGS starts from efc_force.  Temporaries live on d's stack; when
// it is too small the solvers count mjWARN_CNSTRFULL and leave qacc = qacc_smooth.

// forces efc_force, states efc_state and the total constraint cost (when cost is not NULL) at
// jar = J qacc - aref, and qfrc_constraint = J' efc_force; with flg_coneHessian the Hessian
// of the cone cost (dim x dim, in jar coordinates) into contact[i].H of each contact in the
// cone state
void mj_constraintUpdate(const mjModel* m, mjData* d, const mjtNum* jar, mjtNum cost[1],
                         int flg_coneHessian);

// efc_b = J qacc_smooth - aref, then the solver's start from qacc_warmstart or qacc_smooth
void mj_solWarmstart(const mjModel* m, mjData* d);

// the solvers: projected Gauss-Seidel on the dual, conjugate gradient and Newton on the primal
void mj_solPGS(const mjModel* m, mjData* d, int maxiter);
void mj_solCG(const mjModel* m, mjData* d, int maxiter);
void mj_solNewton(const mjModel* m, mjData* d, int maxiter);

// warmstart, then the solver of m->opt.solver and, with noslip, noslip after it; with the
// island flag on (MuJoCo's default) each constraint island alone (its trees joined by rows),
// CG and Newton scaling improvement and gradient by 1 / (the trace of the island's M)
void mj_solConstraint(const mjModel* m, mjData* d, int noslip);

// noslip (run by mj_fwdConstraint after the solver when opt.noslip_iterations > 0): PGS
// sweeps over the friction rows alone (friction loss, contact friction), unregularized, the
// normal and other forces held, until the scaled improvement is below opt.noslip_tolerance
// or maxiter sweeps; then qfrc_constraint, qacc and efc_state from the new forces
void mj_solNoSlip(const mjModel* m, mjData* d, int maxiter);

// ---- collision detection (lib/engine/collision_*.c) ---------------------------------------------
// (section owned by the collision work)
// mj_collision fills d->contact[0 .. ncon) from the geom poses of the position stage, as
// MuJoCo 3.5.1 does: the same contacts in the same order (by body pair, explicit <pair>s of a
// body pair before its other geom pairs) with the same numbers: dist (< 0 in penetration),
// pos midway between the surfaces, frame (normal from geom1 to geom2, then two tangents),
// includemargin = margin - gap, and the mixed friction, solref, solreffriction, solimp, dim
// and adhesion (an adhesive contact in the gap, dist >= includemargin, keeps the normal alone:
// dim 1).
// Nothing when contacts or constraints are disabled.  A full list (nconmax) counts
// mjWARN_CONTACTFULL and drops the rest.  Convex pairs without an analytic function go
// through libccd (MPR, opt.ccd_tolerance, opt.ccd_iterations).
void mj_collision(const mjModel* m, mjData* d);

// the smallest signed distance between the surfaces of geoms g1 and g2, bounded above by
// distmax (returned when they are farther apart), from their collision function with margin
// distmax; fromto (may be NULL) receives the segment from g1's surface to g2's, zero when
// they are farther than distmax (MuJoCo's mj_geomDistance; the distance sensors use it)
mjtNum mj_geomDistance(const mjModel* m, const mjData* d, int g1, int g2, mjtNum distmax,
                       mjtNum fromto[6]);

// ---- constraint rows (lib/engine/constraint.c) --------------------------------------------------
// (section owned by the constraint work)
// mj_makeConstraint (position stage, after mj_collision) allocates the d->efc_* arrays of the
// step from the arena and fills the rows in MuJoCo's order: active equalities (connect 3
// rows, weld 6, joint and tendon couplings 1), friction loss (dofs, then tendons), limits
// (hinge and slide: a row per side within margin; ball: one; tendons), contacts with
// dist < includemargin that are not excluded (condim 1: one row; pyramidal: 2 (dim-1);
// elliptic: dim), honouring the constraint, equality, frictionloss, limit and contact
// disable flags.  It sets efc_type, _id, _J (dense, or compressed rows when mj_isSparse:
// opt.jacobian sparse, or auto with nv >= 60), _pos, _margin, _frictionloss, _diagApprox,
// _R, _D, _KBIP (mj_makeImpedance), contact[i].efc_address (-1: no rows) and contact[i].mu.
// Rows past njmax are dropped whole (a constraint at a time) and counted as mjWARN_CNSTRFULL
// (info: the rows wanted); if the arena cannot hold the rows, all are dropped the same way.
void mj_makeConstraint(const mjModel* m, mjData* d);

// efc_R = (1-d)/d diagApprox, efc_D = 1/R and efc_KBIP = (K, B, d, d') of every row from its
// solref and solimp (contacts: the contact's, solreffriction on elliptic friction rows)
void mj_makeImpedance(const mjModel* m, mjData* d);

// velocity stage: efc_vel = J qvel, efc_aref = -B efc_vel - K d (efc_pos - efc_margin)
void mj_referenceConstraint(const mjModel* m, mjData* d);

// res (nefc) = efc_J vec (nv), and res (nv) = efc_J' vec (nefc), dense or sparse
void mj_mulJacVec(const mjModel* m, const mjData* d, mjtNum* res, const mjtNum* vec);
void mj_mulJacTVec(const mjModel* m, const mjData* d, mjtNum* res, const mjtNum* vec);

// the force of contact id in its frame, (normal, tangent1, tangent2, spin, roll1, roll2), from
// efc_force (a pyramid's edges combined); zero when the contact has no rows
void mj_contactForce(const mjModel* m, const mjData* d, int id, mjtNum result[6]);

// ---- inverse dynamics (lib/engine/inverse.c) ----------------------------------------------------
// (section owned by the inverse-dynamics work)
// mj_inverse: from qpos, qvel and qacc (and ctrl, act for the sensors), the position and
// velocity stages with their sensors (and energy), then the constraint forces of the soft
// model's unique inverse: efc_force and efc_state minimize each row's cost at jar = J qacc -
// aref (elliptic cones as one block), qfrc_constraint = J' efc_force; then
//   qfrc_inverse = M qacc + qfrc_bias - qfrc_passive - qfrc_constraint
// (what qfrc_applied + qfrc_actuator + J' xfrc_applied must be), and the acceleration
// sensors.  With the invdiscrete enable flag, qacc is taken as the discrete-time
// acceleration of the integrator's step (qvel_next = qvel + h qacc) and converted first
// (mj_discreteAcc); d->qacc is left as it was given.  Typical:
//   set d->qpos, d->qvel, d->qacc;  mj_inverse(m, d);  read d->qfrc_inverse

// inverse dynamics of the current state and qacc
void mj_inverse(const mjModel* m, mjData* d);

// the same, skipping the stages before skipstage (mjtStage: mjSTAGE_VEL reuses position and
// velocity results already in d) and, with skipsensor, the sensors
void mj_inverseSkip(const mjModel* m, mjData* d, int skipstage, int skipsensor);

// efc_force, efc_state and qfrc_constraint from qacc (zero qfrc_constraint without rows)
void mj_invConstraint(const mjModel* m, mjData* d);

// d->qacc from discrete to continuous time: qacc = inv(M) A qacc with the integrator's matrix
// A = M + h diag(b) (b the dof dampers' slopes at qvel; Euler with implicit damping: some dof
// damping and eulerdamp not disabled; as in MuJoCo a disabled damper still counts here),
// M - h D (implicit, with the RNE term; implicitfast, without, and without the entries among
// simple dofs its factor drops); unchanged for undamped Euler and for RK4 (which MuJoCo
// refuses: callers should reject invdiscrete with RK4)
void mj_discreteAcc(const mjModel* m, mjData* d);

// forward against inverse (mj_step runs it after mj_forward when the fwdinv flag is on):
// solver_fwdinv[0] = |qfrc_constraint forward - inverse|, [1] = |qfrc_inverse - applied
// forces| (2-norms; both 0 without constraint rows, then nothing else changes); efc_force
// and qfrc_constraint keep the forward's values, qfrc_inverse and efc_state the inverse's
void mj_compareFwdInv(const mjModel* m, mjData* d);

// ---- finite-difference derivatives (lib/derivative/derivative_fd.c) -----------------------------
// (section owned by the derivatives work)
// MuJoCo 3.5.1's mjd_transitionFD and mjd_inverseFD.  The state of a step is the tangent
// vector x = (dqpos, qvel, act) of size ndx = 2 nv + na: positions move by mj_integratePos
// along a dof (quaternions rotate about a local axis) and are measured by mj_differentiatePos;
// the controls are u = ctrl (nu); the sensors s = sensordata (nsensordata) are those computed
// during the step, at x.  Forward differences, or centered with flg_centered; every evaluation
// starts from the given time, qpos, qvel, act, ctrl and warm start, and these (with qacc and the
// warning counts) are restored on return; the other derived quantities of d are those of the
// last evaluation, as MuJoCo leaves them.  Temporaries live on d's stack.  Typical:
//   mjd_transitionFD(m, d, 1e-6, 1, A, B, NULL, NULL);   x' - x0' ~ A (x - x0) + B (u - u0)

// qvel (nv) = (qpos2 - qpos1) / dt on the joint manifold, the inverse of mj_integratePos:
// quaternions give the local rotation vector r with qpos1 * exp(r) = qpos2
void mj_differentiatePos(const mjModel* m, mjtNum* qvel, mjtNum dt, const mjtNum* qpos1,
                         const mjtNum* qpos2);

// the Jacobians of one mj_step, row-major, any of them NULL: A = dx'/dx (ndx x ndx),
// B = dx'/du (ndx x nu), C = ds/dx (nsensordata x ndx), D = ds/du (nsensordata x nu).  A
// control of a ctrllimited actuator moves only inside ctrlrange: one-sided at a bound, a zero
// column outside the range.  0, or -1 with nothing written for the RK4 integrator or a model
// with history buffers (delays; MuJoCo refuses both too) or when d's stack cannot hold the
// temporaries
int mjd_transitionFD(const mjModel* m, mjData* d, mjtNum eps, int flg_centered, mjtNum* A,
                     mjtNum* B, mjtNum* C, mjtNum* D);

// forward differences of mj_inverse, transposed (row j: the derivative by dof j of qpos in the
// tangent space, of qvel or of qacc): f = qfrc_inverse, less qfrc_actuator with flg_actuation
// (the force left for qfrc_applied and xfrc_applied); DfDq, DfDv, DfDa (nv x nv), DsDq, DsDv,
// DsDa (nv x nsensordata), DmDq (nv x nM: the sparse inertia qM); any may be NULL.  0, or -1
// for a model with history buffers (delays, as MuJoCo) or when d's stack cannot hold the
// temporaries
int mjd_inverseFD(const mjModel* m, mjData* d, mjtNum eps, int flg_actuation, mjtNum* DfDq,
                  mjtNum* DfDv, mjtNum* DfDa, mjtNum* DsDq, mjtNum* DsDv, mjtNum* DsDa,
                  mjtNum* DmDq);

// ---- ray casting (lib/engine/ray.c) -------------------------------------------------------------
// (section owned by the ray-casting work)
// A ray is pnt + x vec, x >= 0; distances are that x (in units of |vec|: lengths when vec is
// unit), -1 when nothing is hit.  The surface hit first is reported, so a ray starting inside
// a solid reports where it leaves it; planes are one-sided (seen only from the side their
// normal points to; finite in x, y when size[0], size[1] > 0).  normal (may be NULL) receives
// the unit outward normal of the surface at the hit in world coordinates (zero on a miss);
// mesh triangles and height-field tops are two-sided, their normal (b - a) x (c - a) of the
// triangle (a, b, c).  As MuJoCo 3.5.1's functions of the same names.

// the nearest geom the ray meets, its id in geomid[0] (-1: none; geomid may be NULL).  Geoms
// are skipped when on body bodyexclude (-1: none), in a group g in [0, 6) with
// geomgroup[g] == 0 (geomgroup NULL: every group), on a static body (welded to the world) when
// flg_static is 0, or fully transparent (alpha 0 of the material, else of geom_rgba)
mjtNum mj_ray(const mjModel* m, const mjData* d, const mjtNum pnt[3], const mjtNum vec[3],
              const unsigned char* geomgroup, int flg_static, int bodyexclude, int geomid[1],
              mjtNum normal[3]);

// a primitive geom (plane, sphere, capsule, ellipsoid, cylinder, box) of type geomtype and
// size at position pos, orientation mat; -1 for other types
mjtNum mju_rayGeom(const mjtNum pos[3], const mjtNum mat[9], const mjtNum size[3],
                   const mjtNum pnt[3], const mjtNum vec[3], int geomtype, mjtNum normal[3]);

// the triangles of mesh geom geomid (d->geom_xpos, geom_xmat) ; -1 for another type
mjtNum mj_rayMesh(const mjModel* m, const mjData* d, int geomid, const mjtNum pnt[3],
                  const mjtNum vec[3], mjtNum normal[3]);

// height field geom geomid: the solid between the base z = -size[3] and the elevation surface
// (two triangles a grid cell, split along the (r, c) - (r+1, c+1) diagonal) over
// |x| <= size[0], |y| <= size[1], in the geom frame; -1 for another type
mjtNum mj_rayHfield(const mjModel* m, const mjData* d, int geomid, const mjtNum pnt[3],
                    const mjtNum vec[3], mjtNum normal[3]);

// ---- supported features (lib/engine/support.c) --------------------------------------------------
// (section owned by the tendon/transmission work)
// 0 when the simulation implements every feature model m uses; else nonzero and a one-line
// message naming the first feature it does not (and its object: "actuator 'grip': body
// transmission (adhesion): not supported by this simulator").  Checked: the sleep flag, height
// field / mesh
// / sdf geoms, flex and distance equalities, tendon armature with geom wrapping, body
// transmissions, user actuator dynamics / gain / bias, and the sensors left at zero
// (distance, normal, fromto, contact, tactile, plugin, user).  Tools call it after loading a
// model they are to simulate.
int mj_checkSupported(const mjModel* m, char* err, int errsz);

// ---- analytic derivatives (lib/derivative/derivative.c) -----------------------------------------
// (section owned by the analytic-derivative work)
// Exact Jacobians of the smooth dynamics and of one step, with no finite difference: the RNE
// derivative by a forward/backward sweep (perturbing dof k moves everything after it by
// cdof_k), passive and actuator force slopes, the constraint solve by the implicit function
// theorem at its solution (M + J'HJ) da = ..., H the Hessian of each row's cost at its state,
// the integrator's matrix differentiated as the engine builds it, and SO(3)'s right Jacobian
// for quaternions.  The state is MuJoCo's tangent x = (dqpos, qvel, act) of size ndx = 2 nv +
// na and u = ctrl, as for mjd_transitionFD.
// Differentiated: hinge, slide, ball and free joints; gravity; joint springs (quaternion
// springs included), dof damping, fixed-tendon springs and dampers; actuators on hinge/slide
// joints and fixed tendons with fixed or affine gain, none or affine bias, dynamics none,
// integrator, filter, filterexact (actearly, ctrl and act clamping, forcerange); constraint
// rows of dof and fixed-tendon friction loss, hinge, slide, ball and fixed-tendon limits,
// joint, fixed-tendon, connect and weld equalities, contacts (frictionless, pyramidal,
// elliptic, condim 1 to 6, impedance slope included) of a sphere, capsule, cylinder, box,
// mesh or ellipsoid on a plane, between spheres and capsules, of spheres, capsules and boxes
// on boxes, of spheres on cylinders and of the general convex solver's GJK/EPA (by the
// witness points' features: exact between polytopes, the ideal contact's on curved geoms;
// multiccd's clipped faces of boxes, meshes and cylinder caps by the lines their points lie on,
// its turned copies as contacts of the turned poses),
// whatever solver found the solution; the Euler (implicit damping), implicit and
// implicitfast integrators, RK4 by the chain rule through its stages; the inertia-box fluid
// forces (Euler, RK4), site transmissions, joint actfrcrange, rows of site-to-site spatial
// tendons, gravity compensation (passive or through actuators), xfrc_applied and noslip
// (through the sweeps it took).  Refused with a message: rows of spatial tendons wrapping
// geoms or over pulleys, libccd's MPR contacts, multiccd's clipped cylinder side lines, a
// face or an edge on a face (EPA's single contact),
// height fields, fluid forces under the implicit integrators, armature on spatial tendons
// (their own or their actuators'), spatial tendons with forces, slider-crank, body and
// reference-site transmissions, site transmissions with length or velocity terms, muscle and
// user actuators, tendon actfrcrange.
// The result is the derivative at the solution the solver returned (tight solver tolerances
// make it the derivative of the exact step); at a contact event (a row changing state) the
// step has none.  Typical:
//   if (mjd_transitionSmooth(m, d, A, B, C, D, err, sizeof(err))) fall back to mjd_transitionFD

// finite-difference (perturbed pipeline) evaluations made inside the analytic path since the
// program started: the analytic functions make none, so it stays 0 (the tests assert it, and
// that mjd_transitionSmooth runs exactly one mj_forward, the nominal one, for every
// integrator but RK4, whose three further stages are evaluated once each as mj_step does)
extern _Atomic long mjd_analyticFD;

// 0 when the analytic path differentiates everything model m and the state of d (after
// mj_forward: its constraint rows) use; else -1 and a one-line message naming the first
// feature it does not ("actuator 'grip': muscle or user gain: not differentiated yet",
// "contact 3, box against box: not differentiated yet")
int mjd_checkAnalytic(const mjModel* m, const mjData* d, char* err, int errsz);

// d qacc / d(qpos tangent, qvel, act, ctrl) of the forward dynamics (through the constraint
// solve when d has constraint rows) at the state of d after mj_forward, row-major nv x nv,
// nv x nv, nv x na, nv x nu, any of them NULL; 0, or -1 with a message (mjd_checkAnalytic, or
// a stack too small) and nothing written
int mjd_smoothAcc(const mjModel* m, mjData* d, mjtNum* DaDq, mjtNum* DaDv, mjtNum* DaDact,
                  mjtNum* DaDu, char* err, int errsz);

// the Jacobians of one mj_step from the state of d, row-major as mjd_transitionFD's:
// A = dx'/dx (ndx x ndx), B = dx'/du (ndx x nu), C = ds/dx (nsensordata x ndx), D = ds/du
// (nsensordata x nu) of the sensors the step's forward pass computes, any of them NULL
// (C or D also refused for a sensor not differentiated).  Runs mj_forward at the state
// (d then holds its outputs, contact.H the cone Hessians at the solution; the state is not
// advanced; RK4 also evaluates its stage states, each of which must pass mjd_checkAnalytic).
// 0, or -1 with a message and nothing written
int mjd_transitionSmooth(const mjModel* m, mjData* d, mjtNum* A, mjtNum* B, mjtNum* C,
                         mjtNum* D, char* err, int errsz);

// as mjd_transitionSmooth, without its mj_forward when skip is 1: d already holds the outputs
// of mj_forward at its state (time, qpos, qvel, act, qacc_warmstart, ctrl, mocap, applied
// forces as they were then), as mj_step leaves them under Euler and the implicit integrators
// once the state it advanced is set back (a planner's rollout reused), in a model without
// history buffers (mj_step advances them).  RK4 runs the forward pass anyway.  (With fwdinv
// enabled, mj_step leaves efc_state and qfrc_inverse as the inverse's: not read here)
int mjd_transitionSmoothSkip(const mjModel* m, mjData* d, int skip, mjtNum* A, mjtNum* B,
                             mjtNum* C, mjtNum* D, char* err, int errsz);

// ---- planning (lib/plan) -----------------------------------------------------------------------
// (section owned by the planning work)
// A cost (man 5 mjcost) is a list of terms, each a weight times a norm (MuJoCo MPC's) of a
// vector of residual rows; a row is an affine combination of engine quantities (sensors by
// name and component, qpos, qvel, act, ctrl, actuator forces) and of values of time
// (constants, keyframe entries, mocap positions, tables, gaits), zero where its mask is.  The
// stage cost is sum_k w_k norm_k(r_k), with MuJoCo MPC's risk transform.  A task's leading
// user sensors name its terms and give their norms, weights and parameters (user="norm
// weight lo hi params...").  The planner is iLQG on the exact Jacobians of the step (or
// MuJoCo's finite differences), as MuJoCo MPC's: see lib/plan/ilqg.c.
typedef struct mjCost_ mjCost;
typedef struct mjPlanner_ mjPlanner;

// where a residual is evaluated: a state, its controls and time, the sensors of the forward
// pass at them, and the mocap positions
typedef struct mjpPoint_ {
  mjtNum time;
  const mjtNum* qpos, *qvel, *act, *ctrl, *sensordata, *mocap_pos;
} mjpPoint;

// one planning iteration: timings (seconds) and results
typedef struct mjpStats_ {
  double t_nominal;          // the nominal rollouts
  double t_deriv;            // A, B, C, D at every knot
  double t_costderiv;        // the cost's derivatives
  double t_backward;         // the backward pass
  double t_line;             // the line search's rollouts
  double t_total;            // the whole iteration
  mjtNum cost_nominal;       // the nominal trajectory's return
  mjtNum cost;               // the new policy's return
  mjtNum improvement;        // nominal less new return
  mjtNum expected;           // the improvement the backward pass predicted
  mjtNum mu;                 // the regularization after the iteration
  mjtNum alpha;              // the step size taken (0: none)
  int failed;                // derivatives refused
} mjpStats;

// parse the cost file path; NULL and a one-line message ("file:line: ...") on failure
mjCost* mjp_parseCost(const char* path, char* err, int errsz);
void mjp_deleteCost(mjCost* c);

// the MJCF sensor elements the cost adds to the planning model (its `sensor` lines and an
// actuatorfrc sensor per actuator whose force it reads), one a line, malloc'd ("" when none);
// NULL and a message when an actuator is unknown or unnamed
char* mjp_costSensors(const mjCost* c, const mjModel* m, char* err, int errsz);

// bind the cost to m (with the added sensors compiled in); 0 or -1 and a message
int mjp_bindCost(mjCost* c, const mjModel* m, char* err, int errsz);

// sizes and names of a bound cost: residual rows, terms, a term's name and its rows (the
// count; the first in *row0), the risk
int mjp_costResiduals(const mjCost* c);
int mjp_costTerms(const mjCost* c);
const char* mjp_costTermName(const mjCost* c, int t);
int mjp_costTermRows(const mjCost* c, int t, int* row0);
mjtNum mjp_costRisk(const mjCost* c);

// the point of d (its time, state, controls, sensors and mocap)
void mjp_pointData(mjpPoint* pt, const mjData* d);

// one physics step's transition of the cost's gait schedules (man 5 mjcost: schedule, switch;
// MuJoCo MPC's automatic gait switching) at pt: its time and the sensors of its forward pass.
// Called between plans, never inside rollouts.  The number of gait changes
int mjp_costTransition(mjCost* c, const mjpPoint* pt);

// schedule s's name, and its gait's name, its phase (radians) at time t and its filtered
// speed, each when not NULL; NULL when the cost has no schedule s
const char* mjp_costSchedule(const mjCost* c, int s, mjtNum t, const char** gait, mjtNum* phase,
                             mjtNum* speed);

// the residual r (mjp_costResiduals) at pt
void mjp_residual(const mjCost* c, const mjModel* m, const mjpPoint* pt, mjtNum* r);

// dr/dx (nr x (2nv+na)) and dr/du (nr x nu) from the sensors' C and D at pt
void mjp_residualJacobian(const mjCost* c, const mjModel* m, const mjpPoint* pt,
                          const mjtNum* C, const mjtNum* D, mjtNum* Rx, mjtNum* Ru);

// the stage cost of r (risk included), and each term's w_k norm_k(r_k) (nterm) before it
mjtNum mjp_costValue(const mjCost* c, const mjtNum* r);
void mjp_costTermValues(const mjCost* c, const mjtNum* r, mjtNum* values);

// doubles of scratch for mjp_costDerivatives
int mjp_costScratch(const mjCost* c);

// scale times the stage cost's Gauss-Newton derivatives at r: cx, cu, cxx (nx x nx),
// cxu (nx x nu), cuu (nu x nu), overwritten
void mjp_costDerivatives(const mjCost* c, const mjtNum* r, const mjtNum* Rx, const mjtNum* Ru,
                         mjtNum scale, mjtNum* cx, mjtNum* cu, mjtNum* cxx, mjtNum* cxu,
                         mjtNum* cuu, mjtNum* scratch);

// a planner of T knots (the planning model m's timestep apart) for cost c bound to m:
// nrollout rollouts (MuJoCo MPC: 10) on nthread threads; fd: MuJoCo's finite differences
// (centered, eps) instead of the exact Jacobians.  It starts from m's default state with zero
// actions.  NULL and a message on failure
mjPlanner* mjp_makePlanner(const mjModel* m, const mjCost* c, int T, int nrollout, int nthread,
                           int fd, int centered, mjtNum eps, char* err, int errsz);
void mjp_deletePlanner(mjPlanner* p);

// the start of the next iterations: d's time, qpos, qvel, act, warm start and mocap
void mjp_setState(mjPlanner* p, const mjData* d);

// the policy's actions (T x nu) at the knots from the start time, without feedback
void mjp_setActions(mjPlanner* p, const mjtNum* u);

// one iLQG iteration from the start state (the policy shifted in time to it); 0, or -1 and a
// message when the derivatives are refused
int mjp_optimize(mjPlanner* p, char* err, int errsz);

// the last iteration's statistics
const mjpStats* mjp_stats(const mjPlanner* p);

// the plan: its knots' times (T), states (T x (nq+nv+na)) and actions (T x nu); its return
mjtNum mjp_plan(const mjPlanner* p, const mjtNum** times, const mjtNum** x, const mjtNum** u);

// the number of knots T, and the plan's residual at knot t (mjp_costResiduals values)
int mjp_planKnots(const mjPlanner* p);
void mjp_planResidual(const mjPlanner* p, int t, mjtNum* r);

// the return J of the open-loop actions u (T-1 x nu) from the start state and, when grad is
// not NULL, its exact gradient dJ/du (T-1 x nu) through the step's Jacobians (a risk-neutral
// cost); 0, or -1 and a message when the derivatives are refused
int mjp_evaluate(mjPlanner* p, const mjtNum* u, mjtNum* J, mjtNum* grad, char* err, int errsz);

// at knot t of the last iteration's nominal trajectory, per cost term k: the largest
// |dr/dx| and |dr/du| difference between the residual's Jacobians from MuJoCo's forward
// differences and from the exact ones, in dx[k] and du[k]; 0, or -1 and a message
int mjp_compareDerivatives(mjPlanner* p, int t, mjtNum* dx, mjtNum* du, char* err, int errsz);

// ---- predictive sampling (lib/plan/sampling.c): MuJoCo MPC's sampling planner ----------------
// The policy is a spline of `points` values per actuator over the horizon (from the start time
// to the last knot), interpolated by mjSPLINE_ZERO (hold), _LINEAR or _CUBIC (Hermite, the
// tangents finite differences of the neighbours).  An iteration (mjp_sample) shifts it to the
// start time (resampled), rolls out the nominal and N-1 candidates whose values carry normal
// noise of standard deviation exploration x half the control range (exploration alone for
// unlimited actuators; values clamped to ctrlrange), drawn from counter-based streams keyed by
// (seed, iteration, candidate), and keeps the one of the lowest return as the policy (no
// feedback).  The planner's own iLQG settings (derivatives, regularization) are not used.
enum { mjSPLINE_ZERO = 0, mjSPLINE_LINEAR = 1, mjSPLINE_CUBIC = 2 };

// make p a sampling planner (points >= 1, interp mjSPLINE_*, exploration >= 0); its spline
// starts from the current policy's actions at the next iteration; 0, or -1 and a message
int mjp_setSampling(mjPlanner* p, int points, int interp, mjtNum exploration, uint64_t seed,
                    char* err, int errsz);

// one predictive sampling iteration from the start state (mjp_stats: t_nominal the rollouts,
// cost_nominal the nominal's return, cost the winner's, improvement their difference)
void mjp_sample(mjPlanner* p);

// the policy's action at d's state and time: actions, reference states and feedback gains
// linear in time between the knots, clamped to ctrlrange
void mjp_action(const mjPlanner* p, const mjData* d, mjtNum* u);

#endif
