#!/bin/sh
# run.sh: libmj's ray casting against MuJoCo's (the oracle): mj_ray on random rays at random
# positions (t/oracle/ray/compare.mjs; distance and normal within 1e-10, the same geom); then
# the ray sensors' model t/oracle/ray/traj/sensors.xml (rangefinders, camprojection,
# insidesite): sensordata at 500 states of MuJoCo's trajectory within 1e-10, and the model's
# trajectories and one-step quantities through t/oracle/traj.sh.
#
#   BIN=/path/to/bin sh t/oracle/ray/run.sh [MODEL.xml...]
#
# Models for the rays: the arguments (then nothing else runs), or those of
# t/oracle/ray/models.  Builds the helper t/oracle/ray/rays.c against BIN/../libmj.a with CC,
# CFLAGS and LDLIBS.  Models listed in t/oracle/known.txt (suite ray; traj.sh's rows: traj) are
# judged against their entries.
set -eu

cd "$(dirname "$0")/../../.."
. t/oracle/lib.sh

helper=$(helper ray/rays.c)
sensors=
if [ $# -eq 0 ]; then
  set -- t/oracle/ray/models/*.xml
  sensors=t/oracle/ray/traj/sensors.xml
fi

status=0
node t/oracle/ray/compare.mjs --bin "$helper" --suite ray --states 50 --rays 200 "$@" || status=1
if [ -n "$sensors" ]; then
  node t/oracle/ray/compare.mjs --bin "$helper" --suite ray --sensors 500 "$sensors" || status=1
  sh t/oracle/traj.sh "$sensors" || status=1
fi
known_total ray
exit $status
