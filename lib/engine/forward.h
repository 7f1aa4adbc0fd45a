// forward.h: helpers shared by the simulation files (forward.c, passive.c, integrate.c,
// sensor.c); the public functions are declared in mj.h.
#ifndef MJ_FORWARD_H
#define MJ_FORWARD_H

#include "mj.h"

// 1 when x is NaN, infinite or larger in magnitude than 1e10
int mj_isBad(mjtNum x);

// 1 when actuator i is disabled through its group (m->opt.disableactuator)
int mj_actuatorDisabled(const mjModel* m, int i);

// mj_forward without the stages before skipstage (mjtStage: mjSTAGE_POS reuses the position
// stage's results in d, mjSTAGE_VEL the velocity stage's too, as MuJoCo's mj_forwardSkip)
// and with or without the sensors (and energy): RK4's inner stages skip them
void mj_forwardSkip(const mjModel* m, mjData* d, int skipstage, int skipsensor);

// mj_step with mj_forwardSkip's skips: the finite differences reuse the stages a perturbation
// of the velocities, activations or controls leaves as they are
void mj_stepSkip(const mjModel* m, mjData* d, int skipstage, int skipsensor);

// sensor i computed into out (its dim numbers, zeroed first, cut off), whatever its stage:
// the sensor stages' computation, which the history buffers take their samples with
void mj_computeSensor(const mjModel* m, mjData* d, int i, mjtNum* out);

// 1 when sensor s reads mj_rnePostConstraint's outputs (cacc, cfrc_int, cfrc_ext)
int mj_sensorPostConstraint(const mjModel* m, int s);

// warmstart and the main solver of m->opt.solver (mj_fwdConstraint without noslip; d has
// constraint rows): the analytic derivative reruns it for the solution noslip starts from
void mj_solMain(const mjModel* m, mjData* d);

// activation of actuator i's state at address adr after one step with derivative act_dot:
// filterexact integrates exactly, others by Euler; clamped to actrange when actlimited
mjtNum mj_nextActivation(const mjModel* m, const mjData* d, int i, int adr, mjtNum act_dot);

// control of actuator i clamped to its ctrlrange (when limited and clamping is on); *slope
// (NULL: not wanted) 0 where the clamp holds it, else 1
mjtNum mj_actuatorCtrl(const mjModel* m, const mjData* d, int i, mjtNum* slope);

// DC motor i's terminal voltage for its one control u (clamped ctrl): u, or its controller's
// R/K tau + K velocity clamped to +-Vmax; dv (NULL: not wanted) its slopes by u, the length
// and the velocity
mjtNum mj_dcmotorVoltage(const mjModel* m, const mjData* d, int i, mjtNum u, mjtNum dv[3]);

// the input multiplying actuator i's gain: clamped ctrl, or the activation (see actearly)
mjtNum mj_actuatorInput(const mjModel* m, const mjData* d, int i);

// k = d actuator_force / d actuator_velocity of actuator i (0 where forcerange clamps it),
// the velocity slope the implicit integrators hold; dk (NULL: not wanted) its slopes by the
// input it multiplies, by the actuator's length and by its velocity
mjtNum mj_actuatorForceVel(const mjModel* m, const mjData* d, int i, mjtNum dk[3]);

// the same k and dk (NULL: not wanted) of an actuator whose force is not clamped, given its
// muscle's gain slope by velocity gvel and that slope's by length vlen and velocity vvel
// (mj_muscleSlopes; any values for other gains)
mjtNum mj_forceVelFrom(const mjModel* m, const mjData* d, int i, mjtNum gvel, mjtNum vlen,
                       mjtNum vvel, mjtNum dk[3]);

// muscle actuator i's gain at d's actuator_length and velocity (0 where its gain type is not
// mjGAIN_MUSCLE) and the slopes wanted (NULL: not): of the gain by length (glen) and velocity
// (gvel), of the bias by length (blen), of gvel by length (vlen) and velocity (vvel); 0 where
// the gain or bias type is not a muscle's
mjtNum mj_muscleSlopes(const mjModel* m, const mjData* d, int i, mjtNum* glen, mjtNum* gvel,
                       mjtNum* blen, mjtNum* vlen, mjtNum* vvel);

// tendon t's length beyond its spring's dead band (0 inside it); *out (NULL: not wanted) 1
// outside the band or where it is a point (the stretch's slope by length), else 0
mjtNum mj_tendonStretch(const mjModel* m, const mjData* d, int t, mjtNum* out);

// tendon t's passive forces along it (passive.c): f[0] the spring's -x c(x) (x the stretch,
// c = mju_polyCoef of tendon_stiffness and stiffnesspoly), f[1] the damper's -v c(v) (v =
// ten_velocity, odd polynomial of tendon_damping and dampingpoly), each 0 when disabled; slope
// (NULL: not wanted) their slopes -df/dlength (0 inside the dead band) and -df/dvelocity
void mj_tendonSpringDamper(const mjModel* m, const mjData* d, int t, mjtNum f[2],
                           mjtNum slope[2]);

// dof i's damping slope -d qfrc_damper_i / d qvel_i = mju_polySlope(dof_damping,
// dof_dampingpoly, qvel_i) (integrate.c), the damping the implicit integrators hold in D;
// mj_dofDamped: whether some dof has damping (positive) or a damping polynomial, what decides
// Euler's implicit damping (with the disable flags, which the callers check)
mjtNum mj_dofDampingSlope(const mjModel* m, const mjData* d, int i);
int mj_dofDamped(const mjModel* m);

// the slopes of mju_muscleDynamics(ctrl, act, prm) by act and by ctrl
void mj_muscleDynamicsSlopes(mjtNum ctrl, mjtNum act, const mjtNum prm[3], mjtNum* dact,
                             mjtNum* dctrl);

// dense row-major M - h D (nv x nv) of the implicit integrators (integrate.c): D the velocity
// derivative of the smooth forces, with the RNE term when rne (implicit), else without it
// (implicitfast's matrix, keeping the entries among simple dofs that its factor drops)
void mj_implicitMatrix(const mjModel* m, mjData* d, mjtNum* A, int rne);

// the first dof of joint j when it is the free joint of a standalone free body (a tree of
// its six dofs alone, no mass below it), else -1: implicitfast integrates such a body with
// its whole velocity derivative, the gyroscopic term included, as implicit does (MuJoCo 3.11)
int mj_standaloneFree(const mjModel* m, int j);

// the fluid objects of body b one after another: start with obj = -1; the next one's id and
// *objtype (mjOBJ_BODY: b's inertia box; mjOBJ_GEOM: a fluid geom of a body in the ellipsoid
// model, fluidshape), or -1 after the last (and for a body without mass)
int mj_fluidNext(const mjModel* m, int b, int obj, int* objtype);

// whether passive forces act at all: MuJoCo skips every one (gravity compensation and fluid
// forces too) when both springs and dampers are disabled
int mj_passiveOn(const mjModel* m);

// whether fluid forces act: a medium with density or viscosity, and passive forces on
int mj_fluidOn(const mjModel* m);

// a fluid object's torque and force (rot:lin) in its frame (mj_objectFrame) at its velocity
// relative to the wind, and (B not NULL) their derivative by that velocity (6x6 row-major;
// diagonal for a box)
void mj_fluidObjectForce(const mjModel* m, const mjData* d, int objtype, int id,
                         mjtNum lfrc[6], mjtNum B[36]);

// the constraint row a jointlimit* or tendonlimit* sensor s reads (sensor.c), or -1
int mj_sensorLimitRow(const mjModel* m, const mjData* d, int s);

// contact i's normal force when it counts for a touch sensor at the site, else 0 (sensor.c):
// a contact of the site's body with a positive normal force whose normal ray, pointing away
// from the body, meets the site's volume
mjtNum mj_touchContact(const mjModel* m, const mjData* d, int site, int i);

// a rangefinder at the site (sensor.c): the distance along its z axis to the nearest geom not
// on its body, -1 for none; geom (may be NULL) the geom hit, normal (may be NULL) its normal
mjtNum mj_rangefinder(const mjModel* m, const mjData* d, int site, int* geom, mjtNum normal[3]);

// a rangefinder sensor's data fields, the bits of its sensor_intprm[0] in their output order
// (MuJoCo 3.10 on): dist 1, dir 3, origin 3, point 3, normal 3, depth 1 numbers
enum { mjRAY_DIST, mjRAY_DIR, mjRAY_ORIGIN, mjRAY_POINT, mjRAY_NORMAL, mjRAY_DEPTH, mjNRAY };

// the number of outputs of a rangefinder with data fields `bits` (sensor.c)
int mj_rangefinderDim(int bits);

// the distance of geom distance sensor s (its geoms, or its bodies' geoms, against the
// reference's), at most its cutoff: the nearest pair's geoms (-1, -1 when none is nearer
// than the cutoff) and witness points fromto (zero when none)
mjtNum mj_sensorGeomPair(const mjModel* m, const mjData* d, int s, int pair[2],
                         mjtNum fromto[6]);

// the focal lengths f and principal point c (NULL: not wanted) in pixels of perspective camera
// cam, as the camera sensors use them (sensor.c)
void mj_camIntrinsics(const mjModel* m, int cam, mjtNum f[2], mjtNum c[2]);

#endif
