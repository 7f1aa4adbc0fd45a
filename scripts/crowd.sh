#!/bin/sh
# crowd.sh: writes models/crowd100.xml, a humanoid100-like scene for the benchmarks: N x N
# copies (default 10 x 10) of models/biped.xml's body tree standing on its plane, in a grid
# SPACING metres apart (default 2), each copy's names suffixed with _I (bodies, joints, geoms,
# sites, cameras; the motors follow their joints).  Sensors and the keyframe are left out.
# MuJoCo 2.2.2 needs <size nconmax="1500" njmax="5000"/> added for it (scripts/bench.sh does).
#
#   sh scripts/crowd.sh [N [SPACING]] > models/crowd100.xml   (from the repository root)
set -eu

N=${1:-10}
SPACING=${2:-2}
awk -v n="$N" -v sp="$SPACING" '
  # the torso body and the actuator list are replicated; sensors and keyframes are dropped
  /<body name="torso"/ { intree = 1 }
  intree { tree = tree $0 "\n"; if ($0 ~ /^    <\/body>/) { intree = 0; emitTree() } ; next }
  /<actuator>/ { inact = 1; print; next }
  inact && /<\/actuator>/ { inact = 0; emitActuators(); print; next }
  inact { if ($0 ~ /<motor/) act = act $0 "\n"; next }
  /<!-- standing/ { skip = 1 }
  /<sensor>/ { skip = 1 }
  /<keyframe>/ { skip = 1 }
  skip { if ($0 ~ /<\/sensor>|<\/keyframe>|-->/) skip = 0; next }
  /<mujoco model="biped">/ {
    print "<!-- crowd100.xml: written by scripts/crowd.sh from models/biped.xml:"
    print "     " n * n " bipeds in a " n " x " n " grid, " sp " m apart -->"
    print "<mujoco model=\"crowd100\">"
    next
  }
  /^<!-- biped.xml/ { incomment = 1 }
  incomment { if ($0 ~ /-->/) incomment = 0; next }
  /<camera name="track"/ { next }
  { print }

  # copy k of s: every name="X" (and joint="X") becomes X_k
  function suffix(s, k,   out) {
    out = s
    gsub(/name="[^"]*"/, "&@", out)
    gsub(/"@/, "_" k "\"", out)
    gsub(/joint="[^"]*"/, "&@", out)
    gsub(/"@/, "_" k "\"", out)
    return out
  }
  function emitTree(   i, j, k, t, x, y) {
    for (i = 0; i < n; i++) for (j = 0; j < n; j++) {
      k = i * n + j
      x = (i - (n - 1) / 2) * sp
      y = (j - (n - 1) / 2) * sp
      t = suffix(tree, k)
      sub(/pos="0 0 1.25"/, "pos=\"" x " " y " 1.25\"", t)
      printf "%s", t
    }
  }
  function emitActuators(   k) {
    for (k = 0; k < n * n; k++) printf "%s", suffix(act, k)
  }
' models/biped.xml
