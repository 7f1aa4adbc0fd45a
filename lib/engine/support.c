// support.c: the model features the simulation does not implement (mj_checkSupported,
// declared in mj.h), so that a tool refuses such a model instead of simulating it wrongly.
#include <stdio.h>

#include "mj.h"
#include "engine/model.h"

// the message "kind 'name': what" (or "kind id: what" when unnamed) into err; returns 1
static int unsupported(const mjModel* m, char* err, int errsz, int type, int id,
                       const char* what) {
  static const char* const kinds[mjNOBJECT] = {
    [mjOBJ_GEOM] = "geom", [mjOBJ_EQUALITY] = "equality", [mjOBJ_TENDON] = "tendon",
    [mjOBJ_ACTUATOR] = "actuator", [mjOBJ_SENSOR] = "sensor"};
  const char* name = mj_id2name(m, type, id);
  if (name) snprintf(err, errsz, "%s '%s': %s: not supported by this simulator", kinds[type],
                     name, what);
  else snprintf(err, errsz, "%s %d: %s: not supported by this simulator", kinds[type], id, what);
  return 1;
}

// 1 for sensor types sensor.c leaves at zero where MuJoCo computes them (user sensors are
// zeros in MuJoCo too, which fills them only through a callback)
static int sensorMissing(int type) {
  switch (type) {
    case mjSENS_TACTILE: case mjSENS_PLUGIN: return 1;
    default: return 0;
  }
}

// the first unsupported feature of m, in model order: options, geoms, equalities, tendons,
// actuators, sensors
int mj_checkSupported(const mjModel* m, char* err, int errsz) {
  static const char* const sensorNames[] = {
    [mjSENS_TACTILE] = "tactile", [mjSENS_PLUGIN] = "plugin"};
  char what[128];

  // sleeping islands, the exact constraint diagonal and IPC contacts: simulating without
  // them would quietly give other motions than MuJoCo's
  static const struct { int bit; const char* name; } flags[] = {
    {mjENBL_SLEEP, "sleep"}, {mjENBL_DIAGEXACT, "diagexact"}, {mjENBL_IPC, "ipc"}};
  for (int i = 0; i < 3; i++) {
    if (m->opt.enableflags & flags[i].bit) {
      snprintf(err, errsz, "option flag '%s': not supported by this simulator", flags[i].name);
      return 1;
    }
  }

  // geoms without collision functions
  for (int g = 0; g < m->ngeom; g++)
    if (m->geom_type[g] == mjGEOM_SDF) return unsupported(m, err, errsz, mjOBJ_GEOM, g, "sdf");

  // equality constraints of flexes and distance
  for (int i = 0; i < m->neq; i++) {
    int t = m->eq_type[i];
    if (t != mjEQ_CONNECT && t != mjEQ_WELD && t != mjEQ_JOINT && t != mjEQ_TENDON)
      return unsupported(m, err, errsz, mjOBJ_EQUALITY, i, "flex or distance equality");
  }

  // tendon armature with geom wrapping (MuJoCo's compiler refuses it too)
  for (int t = 0; t < m->ntendon; t++) {
    if (mj_armature(m, mjOBJ_TENDON, t) == 0) continue;
    for (int k = m->tendon_adr[t]; k < m->tendon_adr[t] + m->tendon_num[t]; k++)
      if (m->wrap_type[k] == mjWRAP_SPHERE || m->wrap_type[k] == mjWRAP_CYLINDER)
        return unsupported(m, err, errsz, mjOBJ_TENDON, t, "armature with geom wrapping");
  }

  // actuators: user callbacks
  for (int i = 0; i < m->nu; i++) {
    if (m->actuator_dyntype[i] == mjDYN_USER || m->actuator_gaintype[i] == mjGAIN_USER ||
        m->actuator_biastype[i] == mjBIAS_USER)
      return unsupported(m, err, errsz, mjOBJ_ACTUATOR, i, "user dynamics, gain or bias");
  }

  // sensors that are not computed
  for (int s = 0; s < m->nsensor; s++) {
    if (!sensorMissing(m->sensor_type[s])) continue;
    snprintf(what, sizeof(what), "%s sensor", sensorNames[m->sensor_type[s]]);
    return unsupported(m, err, errsz, mjOBJ_SENSOR, s, what);
  }
  return 0;
}
