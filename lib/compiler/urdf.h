// urdf.h: a URDF robot as the MJCF element tree that says what MuJoCo makes of it.
//
// MuJoCo compiles a file whose root element is <robot> as URDF: links become bodies (the tree
// of the joints, a link named "world" the world body itself), joints their joints (revolute and
// continuous hinges, prismatic slides, floating free joints, planar two slides and a hinge,
// Bullet's spherical balls, fixed none), <inertial> the bodies' inertials, <collision> (and
// <visual> unless discardvisual) geoms, mesh files assets named by their file names, material
// colors the geoms' rgba; a <mujoco> element may hold <compiler>, <option> and <size>.  The
// compiler defaults for URDF are fusestatic and discardvisual; angles are radians.
#ifndef MJ_URDF_H
#define MJ_URDF_H

#include "compiler/xml.h"

// whether root is a URDF robot (its element is <robot>, in any case)
int mjurdf_isRobot(const mjXNode* root);

// replace doc's <robot> tree by the equivalent <mujoco> tree; 0 and "file:line: problem" in err
// on bad URDF (doc is then unchanged)
int mjurdf_toMjcf(mjXDoc* doc, char* err, int errsz);

#endif
