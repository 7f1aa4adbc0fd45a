#!/bin/sh
# run.sh: libmj's finite-difference Jacobians (mjd_transitionFD, mjd_inverseFD) against MuJoCo's
# (the oracle) at identical states along trajectories; see t/oracle/deriv/run.mjs for what is
# compared and the bound.
#
#   BIN=/path/to/bin sh t/oracle/deriv/run.sh [MODEL.xml[:KEY]...]
#
# Models: the project's pendulum and cartpole, dm_control's pendulum, cartpole and humanoid
# (contacts) and Menagerie's Unitree A1 at keyframe home, from ../shared/corpus when present.
# Builds the helper t/oracle/deriv/deriv.c against BIN/../libmj.a with CC, CFLAGS and LDLIBS
# (make check passes its own).  Exit status: nonzero when any block is beyond the bound.
set -eu

cd "$(dirname "$0")/../../.."
. t/oracle/lib.sh

# the helper running libmj's derivatives
deriv=$(helper deriv/deriv.c)

if [ $# -eq 0 ]; then
  set -- models/pendulum.xml models/cartpole.xml
  c=../shared/corpus
  for f in dm_control/pendulum.xml dm_control/cartpole.xml dm_control/humanoid.xml; do
    [ -f "$c/$f" ] && set -- "$@" "$c/$f"
  done
  a1=$c/menagerie/unitree_a1/scene.xml
  [ -f "$a1" ] && set -- "$@" "$a1:home"
fi
exec node t/oracle/deriv/run.mjs --deriv "$deriv" "$@"
