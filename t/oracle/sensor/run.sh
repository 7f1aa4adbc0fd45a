#!/bin/sh
# run.sh: sensors against MuJoCo's (the oracle): the models of t/oracle/sensor (distance,
# normal and fromto sensors between geoms and bodies of every shape, analytic pairs and the
# convex ones MuJoCo measures with GJK; contact sensors under elliptic and pyramidal cones,
# every matching criterion, data field and reduction), sensordata at 300 states of MuJoCo's
# trajectory within 1e-10 relative, through the ray test's helper and comparison
# (t/oracle/ray/).  Models listed in t/oracle/known.txt (suite sensor) are judged against their
# entries.
#
#   BIN=/path/to/bin sh t/oracle/sensor/run.sh [MODEL.xml...]
set -eu

cd "$(dirname "$0")/../../.."
. t/oracle/lib.sh

helper=$(helper ray/rays.c)
[ $# -gt 0 ] || set -- t/oracle/sensor/*.xml
status=0
for f in "$@"; do
  node t/oracle/ray/compare.mjs --bin "$helper" --suite sensor --sensors 300 "$f" || status=1
done
known_total sensor
exit $status
