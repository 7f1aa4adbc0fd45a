#!/bin/sh
# run.sh: libmj's finite-difference Jacobians (mjd_transitionFD, mjd_inverseFD) and exact ones
# (mjd_transitionSmooth) against MuJoCo's differences (the oracle) at identical states along
# trajectories; see t/oracle/deriv/run.mjs for what is compared and the bounds.
#
#   BIN=/path/to/bin sh t/oracle/deriv/run.sh [MODEL.xml[:KEY]...]
#
# Models: the project's pendulum and cartpole, the ellipsoid fluid model (its keyframe:
# t/oracle/models/fluid_ellipsoid.xml), the polynomial springs and dampers at rest and at
# their keyframe (t/oracle/models/poly.xml, implicit), actuator damping and armature on joints
# and a fixed tendon at rest and at its keyframe (t/oracle/models/actdamp_fixed.xml, implicit;
# actdamp.xml's armature on a spatial tendon is not differentiated), DC motors without a
# current state at rest and at their keyframe (t/oracle/models/dcmotor_volt.xml, implicit),
# dm_control's pendulum, cartpole,
# humanoid (contacts), fish (fluid forces), ball_in_cup (a spatial tendon) and manipulator
# (capsules on boxes), Menagerie's Skydio X2 (site thrusters, fluid), Unitree A1 at keyframe
# home and TALOS at its keyframe, from ../shared/corpus when present.
# Builds the helper t/oracle/deriv/deriv.c against BIN/../libmj.a with CC, CFLAGS and LDLIBS
# (make check passes its own).  Exit status: nonzero when any block is beyond the bound.
set -eu

cd "$(dirname "$0")/../../.."
. t/oracle/lib.sh

# the helper running libmj's derivatives
deriv=$(helper deriv/deriv.c)

if [ $# -eq 0 ]; then
  set -- models/pendulum.xml models/cartpole.xml t/oracle/models/fluid_ellipsoid.xml:0 \
         t/oracle/models/poly.xml t/oracle/models/poly.xml:0 \
         t/oracle/models/actdamp_fixed.xml t/oracle/models/actdamp_fixed.xml:0 \
         t/oracle/models/dcmotor_volt.xml t/oracle/models/dcmotor_volt.xml:0
  c=../shared/corpus
  for f in dm_control/pendulum.xml dm_control/cartpole.xml dm_control/humanoid.xml \
           dm_control/fish.xml dm_control/ball_in_cup.xml dm_control/manipulator.xml \
           menagerie/skydio_x2/scene.xml menagerie/unitree_a1/scene.xml:home \
           menagerie/pal_talos/scene_motor.xml:0; do
    [ -f "$c/${f%%:*}" ] && set -- "$@" "$c/$f"
  done
fi
status=0
node t/oracle/deriv/run.mjs --deriv "$deriv" "$@" || status=1
known_total deriv
exit $status
