#!/bin/sh
# run.sh: history buffers (delayed actuators and sensors, periodic sensors; MuJoCo 3.14's
# nsample, interp, delay, interval) against MuJoCo (the oracle): every model's time, qpos,
# qvel, act and sensordata over 400 steps of varying controls under the four integrators,
# within 1e-10 relative (t/oracle/history/compare.mjs).  Models: t/oracle/models/delay.xml,
# or the arguments.  (The compiler's t/oracle/compile/delay.xml is not stepped: its actuator
# with nsample -1, which MuJoCo 3.14 compiles, makes MuJoCo's step write outside its buffer.)
#
#   BIN=/path/to/bin sh t/oracle/history/run.sh [MODEL.xml...]
set -eu

cd "$(dirname "$0")/../../.."
. t/oracle/lib.sh

[ $# -gt 0 ] || set -- t/oracle/models/delay.xml
node t/oracle/history/compare.mjs --bin "$BIN" "$@"
