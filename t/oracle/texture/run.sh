#!/bin/sh
# run.sh: texture images against MuJoCo's (the oracle), byte for byte: every procedural
# texture and mark, PNG files of every color type, cube and skybox layouts.
#
#   BIN=/path/to/bin sh t/oracle/texture/run.sh
#
# The PNG files in png/ are the output of mkpng.mjs (node t/oracle/texture/mkpng.mjs png).
set -eu

cd "$(dirname "$0")/../../.."
. t/oracle/lib.sh

status=0
node t/oracle/compare.mjs --mjc "$BIN/mjc" --suite texture t/oracle/texture/*.xml || status=1
known_total texture
exit $status
