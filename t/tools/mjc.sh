#!/bin/sh
# mjc.sh: tests of mjc: stdout, stderr and exit status of each case.
#
#   BIN=/path/to/bin sh t/tools/mjc.sh        (from the repository root)
#
# Covers help and version, usage errors, compile and info on every model of models/ (with
# masses checked against MuJoCo's numbers), binary round trips, pipes, and malformed MJCF:
# each malformed file must exit 2 with one line on stderr naming the file and the line, and
# leave no output file behind.  Prints each failing case; exits 1 if any failed.
set -u

: "${BIN:?set BIN to the directory holding mjc}"
MJC=$BIN/mjc
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
trap 'exit 2' INT TERM
failed=0
passed=0

# ---- helpers ---------------------------------------------------------------------------------

# run mjc with the arguments; stdout in $T/out, stderr in $T/err, exit status in $status
run() {
  "$MJC" "$@" >"$T/out" 2>"$T/err"
  status=$?
}

# record the outcome of case $1: pass when the remaining arguments (a command) succeed
check() {
  name=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $name: $*"
    sed 's/^/  stderr: /' "$T/err"
  fi
}

# the exit status of the last run is $1
status_is() { [ "$status" -eq "$1" ]; }

# file $1 contains the fixed string $2
has() { grep -qF -- "$2" "$1"; }

# file $1 has exactly one line
one_line() { [ "$(wc -l <"$1")" -eq 1 ]; }

# file $1 is empty
empty() { [ ! -s "$1" ]; }

# file $1 matches the extended regular expression $2
matches() { grep -qE -- "$2" "$1"; }

# ---- help, version, usage errors -------------------------------------------------------------

run --help
check help-status status_is 0
check help-usage has "$T/out" "usage: mjc compile IN.xml|IN.urdf [-o OUT.mjb]"
check help-quiet empty "$T/err"

run -h
check h-status status_is 0
check h-usage has "$T/out" "mjc info MODEL [--json]"

run --version
check version-status status_is 0
check version-line matches "$T/out" '^mjc [0-9]+\.[0-9]+\.[0-9]+ \(libmj [0-9.]+\)$'

run
check noargs-status status_is 2
check noargs-usage has "$T/err" "usage: mjc"
check noargs-stdout empty "$T/out"

run frobnicate
check unknown-command-status status_is 2
check unknown-command-message has "$T/err" "mjc: unknown command 'frobnicate'"

run compile
check compile-noinput-status status_is 2
check compile-noinput-message has "$T/err" "mjc: compile: missing input file"

run compile models/pendulum.xml -x
check compile-badopt-status status_is 2
check compile-badopt-message has "$T/err" "mjc: compile: unknown option '-x'"

run compile models/pendulum.xml models/cartpole.xml
check compile-twoinputs-status status_is 2

run compile models/pendulum.xml -o
check compile-o-noarg-status status_is 2
check compile-o-noarg-message has "$T/err" "option -o needs an argument"

run info
check info-noinput-status status_is 2

run info models/pendulum.xml --yaml
check info-badopt-status status_is 2

run info "$T/nonexistent.mjb"
check info-missing-status status_is 2
check info-missing-message has "$T/err" "$T/nonexistent.mjb"
check info-missing-oneline one_line "$T/err"

# ---- compile and info on every model ---------------------------------------------------------

for xml in models/*.xml; do
  m=$(basename "$xml" .xml)
  run compile "$xml" -o "$T/$m.mjb"
  check "compile-$m-status" status_is 0
  check "compile-$m-quiet" empty "$T/out"
  check "compile-$m-output" test -s "$T/$m.mjb"
  run info "$T/$m.mjb"
  check "info-$m-status" status_is 0
  check "info-$m-bodies" matches "$T/out" '^bodies \([0-9]+\)$'
  # the JSON of the binary model equals the JSON of the XML: the file loses nothing
  run info --json "$T/$m.mjb"
  check "json-$m-status" status_is 0
  cp "$T/out" "$T/$m.mjb.json"
  run info --json "$xml"
  check "json-$m-arrays" has "$T/out" '"arrays": {'
  check "json-$m-roundtrip" cmp -s "$T/out" "$T/$m.mjb.json"
done

# masses and counts against MuJoCo 3.5.1's compilation of the same files
run info models/pendulum.xml
check pendulum-counts matches "$T/out" '^  nq 1 +nv 1 +nu 1 +nbody 2 '
check pendulum-mass matches "$T/out" '^ +1 pole +world +1\.1 '
check pendulum-joint matches "$T/out" '^ +0 hinge +hinge +pole +-$'
run info models/cartpole.xml
check cartpole-cart-mass matches "$T/out" '^ +1 cart +world +6 '
check cartpole-pole-mass matches "$T/out" '^ +2 pole +cart +0\.1 '
check cartpole-slider-range matches "$T/out" '^ +0 slider +slide +cart +-1\.8 1\.8$'
check cartpole-actuator matches "$T/out" '^ +0 push +joint +slider +none +fixed +none +-1 1 +10$'
run info models/biped.xml
check biped-head-mass matches "$T/out" '^ +2 head +torso +4 '
check biped-foot-mass matches "$T/out" '^ +13 foot_left +shin_left +0\.648 '
run info models/chain100.xml
check chain-counts matches "$T/out" 'nbody 101 '
check chain-nM matches "$T/out" 'nM 5050'

# ---- outputs: default name, stdout, stdin, bad destinations, closed pipes -------------------

cp models/pendulum.xml "$T/p.xml"
run compile "$T/p.xml"
check default-output-status status_is 0
check default-output-file test -s "$T/p.mjb"
check default-output-same cmp -s "$T/p.mjb" "$T/pendulum.mjb"

"$MJC" compile models/pendulum.xml -o - >"$T/stdout.mjb" 2>"$T/err"
status=$?
check stdout-status status_is 0
check stdout-same cmp -s "$T/stdout.mjb" "$T/pendulum.mjb"

"$MJC" info - <"$T/pendulum.mjb" >"$T/out" 2>"$T/err"
status=$?
check stdin-status status_is 0
check stdin-mass matches "$T/out" '^ +1 pole +world +1\.1 '

head -c 100 "$T/pendulum.mjb" >"$T/truncated.mjb"
run info "$T/truncated.mjb"
check truncated-status status_is 2
check truncated-message has "$T/err" "truncated.mjb"
check truncated-oneline one_line "$T/err"

run compile models/pendulum.xml -o "$T/no/such/dir/p.mjb"
check baddir-status status_is 2
check baddir-oneline one_line "$T/err"

# a special file (here a FIFO, as /dev/null would be) is written in place, not replaced
mkfifo "$T/fifo"
cat "$T/fifo" >"$T/fifo.out" &
run compile models/pendulum.xml -o "$T/fifo"
wait
check fifo-status status_is 0
check fifo-still-fifo test -p "$T/fifo"
check fifo-content cmp -s "$T/fifo.out" "$T/pendulum.mjb"

(
  "$MJC" info --json models/chain100.xml 2>"$T/err"
  echo $? >"$T/pipestatus"
) | head -c 10 >/dev/null
# quiet either way: exit 0, or the default death by SIGPIPE (status 128 + 13)
check closed-pipe-status grep -qxE '0|141' "$T/pipestatus"
check closed-pipe-quiet empty "$T/err"

# ---- malformed MJCF --------------------------------------------------------------------------

# malformed NAME LINE [FILE]: compile the XML read from stdin, saved as NAME.$ext (ext: xml
# unless set) in a fresh directory; expect exit 2, one line "mjc: ...FILE:LINE: ..." (FILE
# defaults to NAME.$ext), an empty stdout, and no file added to the directory (no .mjb, no
# temporary)
malformed() {
  d=$T/bad/$1
  mkdir -p "$d"
  cat >"$d/$1.${ext:-xml}"
  ls -A "$d" >"$T/before"
  run compile "$d/$1.${ext:-xml}"
  ls -A "$d" >"$T/after"
  check "$1-status" status_is 2
  check "$1-oneline" one_line "$T/err"
  check "$1-prefix" matches "$T/err" '^mjc: '
  check "$1-location" has "$T/err" "${3:-$1.${ext:-xml}}:$2:"
  check "$1-stdout" empty "$T/out"
  check "$1-nothing-left" cmp -s "$T/before" "$T/after"
}

malformed unknown_element 3 <<'EOF'
<mujoco>
  <worldbody>
    <bogus/>
  </worldbody>
</mujoco>
EOF

# a muscle on an unlimited hinge: the lengthrange simulation keeps turning it, so its lengths
# over the last interval spread past tolrange (MuJoCo: "Lengthrange computation did not
# converge in actuator 0: eval (-181.003, -140.808) range (-181.003, 181.003)"); the line
# names the muscle
malformed lengthrange_diverges 9 <<'EOF'
<mujoco>
  <worldbody>
    <body>
      <joint name="j" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/>
    </body>
  </worldbody>
  <actuator>
    <muscle name="spin" joint="j"/>
  </actuator>
</mujoco>
EOF
check lengthrange_diverges-message has "$T/err" \
  "muscle 'spin': lengthrange computation did not converge: eval (-181.003, -140.808), range (-181.003, 181.003)"

# a lengthrange mode that is not one of MuJoCo's
malformed lengthrange_mode 3 <<'EOF'
<mujoco>
  <compiler>
    <lengthrange mode="muscles"/>
  </compiler>
</mujoco>
EOF

malformed light_softness 4 <<'EOF'
<mujoco>
  <default><light softness="1.5"/></default>
  <worldbody>
    <light pos="0 0 3"/>
  </worldbody>
</mujoco>
EOF
check light_softness-message has "$T/err" 'light softness must be in [0, 1]'

# geom surfacevel takes at most six numbers (linear, angular); the line of the geom is named
malformed surfacevel_too_long 4 <<'EOF'
<mujoco>
  <worldbody>
    <geom type="plane" size="1 1 .1"/>
    <geom type="box" size=".1 .1 .1" surfacevel="1 0 0 0 0 1 2"/>
  </worldbody>
</mujoco>
EOF
check surfacevel_too_long-message has "$T/err" "geom: attribute 'surfacevel': more than 6 numbers"

# a pair's adhesion is one force, as MuJoCo reads it ("has too much data"); its line is named
malformed pair_adhesion_two 7 <<'EOF'
<mujoco>
  <worldbody>
    <geom name="a" type="plane" size="1 1 .1"/>
    <body><freejoint/><geom name="b" size=".1"/></body>
  </worldbody>
  <contact>
    <pair geom1="a" geom2="b" adhesion="1 2"/>
  </contact>
</mujoco>
EOF
check pair_adhesion_two-message has "$T/err" "pair: attribute 'adhesion': more than 1 numbers"

# <attach> without a model attaches the model to itself: a body or a frame must be named, and
# a body attached from inside itself is refused, not recursed into without end
malformed attach_self_nothing 4 <<'EOF'
<mujoco>
  <worldbody>
    <body name="b"><geom size="0.1"/></body>
    <attach prefix="x"/>
  </worldbody>
</mujoco>
EOF
check attach_self_nothing-message has "$T/err" "attaching the model to itself needs a body or a frame"
malformed attach_self_circular 3 <<'EOF'
<mujoco>
  <worldbody>
    <body name="b"><geom size="0.1"/><attach body="b" prefix="x"/></body>
  </worldbody>
</mujoco>
EOF
check attach_self_circular-message has "$T/err" "attachments nested more than 64 deep"

malformed poly_too_long 4 <<'EOF'
<mujoco>
  <worldbody>
    <body>
      <joint type="slide" stiffness="1 2 3 4"/>
      <geom size="1" mass="1"/>
    </body>
  </worldbody>
</mujoco>
EOF
check poly_too_long-message has "$T/err" "attribute 'stiffness'"

malformed dcmotor_inputs 4 <<'EOF'
<mujoco>
  <worldbody><body><joint name="j" type="slide"/><geom size="1" mass="1"/></body></worldbody>
  <actuator>
    <dcmotor joint="j" motorconst="1" resistance="1" input="pos vel" controller="1 0 1"/>
  </actuator>
</mujoco>
EOF
check dcmotor_inputs-message has "$T/err" "several or no controls per actuator not supported yet"

malformed dcmotor_lugre 6 <<'EOF'
<mujoco>
  <default><default class="f"><dcmotor motorconst="1" resistance="1"/></default></default>
  <worldbody><body><joint name="j" type="slide"/><geom size="1" mass="1"/></body></worldbody>
  <actuator>
    <dcmotor joint="j" motorconst="1" resistance="1"/>
    <dcmotor joint="j" class="f" lugre="1e4 100 0.005 0.008 0.1"/>
  </actuator>
</mujoco>
EOF
check dcmotor_lugre-message has "$T/err" "dcmotor: LuGre friction not supported yet"

# a DC motor on a slide with attributes $2 is refused (line 4) with message $3
dcmotorBad() {
  malformed "$1" 4 <<EOF
<mujoco>
  <worldbody><body><joint name="j" type="slide"/><geom size="1" mass="1"/></body></worldbody>
  <actuator>
    <dcmotor joint="j" motorconst="1" $2/>
  </actuator>
</mujoco>
EOF
  check "$1-message" has "$T/err" "$3"
}
dcmotorBad dcmotor_resistance '' "dcmotor: resistance must be positive"
dcmotorBad dcmotor_forcerange 'resistance="1" forcerange="-1 1"' "unknown attribute 'forcerange'"
dcmotorBad dcmotor_gains 'resistance="1" controller="5"' \
  "controller gains require a controller input"

# a body transmission only on <general> and <adhesion> (MuJoCo's schema): on a <motor> the
# attribute is unknown, named before the count of targets; on <general> it compiles
malformed motor_body 4 <<EOF
<mujoco>
  <worldbody><body name="b"><freejoint/><geom size="1" mass="1"/></body></worldbody>
  <actuator>
    <motor body="b"/>
  </actuator>
</mujoco>
EOF
check motor_body-message has "$T/err" "motor: unknown attribute 'body'"
cat >"$T/general_body.xml" <<EOF
<mujoco>
  <worldbody><body name="b"><freejoint/><geom size="1" mass="1"/></body></worldbody>
  <actuator><general body="b"/></actuator>
</mujoco>
EOF
run compile "$T/general_body.xml" -o "$T/general_body.mjb"
check general_body-status status_is 0

# a rangefinder on exactly one of a site and a camera (MuJoCo's schema messages)
rangefinderBad() {
  malformed "$1" 6 <<EOF
<mujoco>
  <worldbody>
    <body><joint/><geom size="1" mass="1"/><site name="s"/><camera name="c"/></body>
  </worldbody>
  <sensor>
    <rangefinder $2/>
  </sensor>
</mujoco>
EOF
  check "$1-message" has "$T/err" "$3"
}
rangefinderBad rangefinder_both 'site="s" camera="c"' "at most one of 'site', 'camera' can be specified"
rangefinderBad rangefinder_none 'data="dist"' "one of 'site', 'camera' must be specified"

malformed actuator_armature 5 <<'EOF'
<mujoco>
  <worldbody>
    <body><joint name="j" type="slide"/><geom size="1" mass="1"/><site name="s"/></body>
  </worldbody>
  <actuator><motor site="s" armature="0.5"/></actuator>
</mujoco>
EOF
check actuator_armature-message has "$T/err" "armature requires joint or tendon transmission"

malformed actuator_dampingpoly 11 <<'EOF'
<mujoco>
  <default>
    <default class="d">
      <general damping="0 0 3"/>
    </default>
  </default>
  <worldbody>
    <body name="b"><joint name="j"/><geom size="1" mass="1"/></body>
  </worldbody>
  <actuator>
    <general class="d" body="b"/>
  </actuator>
</mujoco>
EOF
check actuator_dampingpoly-message has "$T/err" "damping requires joint or tendon transmission"

malformed actuator_armature_wrap 8 <<'EOF'
<mujoco>
  <worldbody>
    <site name="a"/><geom name="g" size="0.1" pos="0.5 0 0.5" contype="0"/>
    <body><joint type="slide"/><geom size="0.1" mass="1"/><site name="s" pos="1 0 1"/></body>
  </worldbody>
  <tendon><spatial name="t"><site site="a"/><geom geom="g"/><site site="s"/></spatial></tendon>
  <actuator>
    <motor tendon="t" armature="0.1"/>
  </actuator>
</mujoco>
EOF
check actuator_armature_wrap-message has "$T/err" "geom wrapping not supported by armature"

# sleep policies: only a movable root body takes one (MuJoCo 3.14), a keyword of four, and a
# tree written sleepable may not hang on a tendon with a spring or over three trees
malformed sleep_not_root 4 <<'EOF'
<mujoco>
  <worldbody>
    <body><joint type="hinge"/><geom size="0.1"/>
      <body sleep="never"><joint type="hinge"/><geom size="0.1"/></body>
    </body>
  </worldbody>
</mujoco>
EOF
check sleep_not_root-message has "$T/err" "sleep policy only allowed for movable root bodies"

malformed sleep_static 3 <<'EOF'
<mujoco>
  <worldbody>
    <body sleep="allowed"><geom size="0.1"/></body>
  </worldbody>
</mujoco>
EOF
check sleep_static-message has "$T/err" "sleep policy only allowed for movable root bodies"

malformed sleep_keyword 3 <<'EOF'
<mujoco>
  <worldbody>
    <body sleep="sometimes"><freejoint/><geom size="0.1"/></body>
  </worldbody>
</mujoco>
EOF
check sleep_keyword-message has "$T/err" "attribute 'sleep': invalid keyword 'sometimes'"

malformed sleep_tendon 7 <<'EOF'
<mujoco>
  <worldbody>
    <body sleep="init"><joint name="a" type="slide"/><geom size="0.1"/></body>
    <body pos="1 0 0"><joint name="b" type="slide"/><geom size="0.1"/></body>
  </worldbody>
  <tendon>
    <fixed damping="1"><joint joint="a" coef="1"/><joint joint="b" coef="1"/></fixed>
  </tendon>
</mujoco>
EOF
check sleep_tendon-message has "$T/err" "tree 0 connected to tendon 0 with non-zero stiffness or damping, sleeping not allowed"

# a tree written sleep="init" touching an awake one in qpos0 cannot sleep at reset: MuJoCo 3.14
# refuses the model, naming the root of the first such tree
malformed sleep_init_island 5 <<'EOF'
<mujoco>
  <option><flag sleep="enable"/></option>
  <worldbody>
    <geom type="plane" size="1 1 .01"/>
    <body pos="0 0 .099" sleep="init"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
    <body pos="0 0 .297" sleep="init"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
    <body pos="0 0 .495"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
  </worldbody>
</mujoco>
EOF
check sleep_init_island-message has "$T/err" "2 trees were marked as sleep='init' but only 0 could be slept"

malformed unknown_attribute 3 <<'EOF'
<mujoco>
  <worldbody>
    <geom size="0.1" colour="red"/>
  </worldbody>
</mujoco>
EOF

malformed bad_number 3 <<'EOF'
<mujoco>
  <worldbody>
    <geom size="0.1x"/>
  </worldbody>
</mujoco>
EOF

malformed nan_number 3 <<'EOF'
<mujoco>
  <worldbody>
    <geom size="nan"/>
  </worldbody>
</mujoco>
EOF

malformed too_few_numbers 3 <<'EOF'
<mujoco>
  <worldbody>
    <geom size="0.1" pos="0 0"/>
  </worldbody>
</mujoco>
EOF

malformed too_many_numbers 3 <<'EOF'
<mujoco>
  <worldbody>
    <geom size="0.1" pos="0 0 0 0"/>
  </worldbody>
</mujoco>
EOF

# a color takes all four numbers (solref and keyframes may be short, t/oracle/compile/partial.xml)
malformed short_rgba 3 <<'EOF'
<mujoco>
  <worldbody>
    <geom size="0.1" rgba="1 0 0"/>
  </worldbody>
</mujoco>
EOF

malformed focal_without_sensor 3 <<'EOF'
<mujoco>
  <worldbody>
    <camera focal="0.01 0.01"/>
  </worldbody>
</mujoco>
EOF

malformed long_solref 3 <<'EOF'
<mujoco>
  <worldbody>
    <geom size="0.1" solref="0.02 1 3"/>
  </worldbody>
</mujoco>
EOF

malformed long_key_qpos 6 <<'EOF'
<mujoco>
  <worldbody>
    <body><joint/><geom size="0.1"/></body>
  </worldbody>
  <keyframe>
    <key qpos="0 1"/>
  </keyframe>
</mujoco>
EOF

malformed missing_include 2 <<'EOF'
<mujoco>
  <include file="nonexistent.xml"/>
  <worldbody/>
</mujoco>
EOF

# an error inside an included file names that file and its own line
mkdir -p "$T/bad/error_in_include/inc"
cat >"$T/bad/error_in_include/inc/part.xml" <<'EOF'
<mujoco>
  <worldbody>

    <geom size="-1"/>
  </worldbody>
</mujoco>
EOF
malformed error_in_include 4 part.xml <<'EOF'
<mujoco>
  <include file="inc/part.xml"/>
</mujoco>
EOF

# site-based equalities take both sites and nothing of the body form (as MuJoCo's schema)
malformed site_without_site2 4 <<'EOF'
<mujoco>
  <worldbody><site name="a"/><body><freejoint/><geom size="0.1"/><site name="b"/></body></worldbody>
  <equality>
    <connect site1="b"/>
  </equality>
</mujoco>
EOF
check site_without_site2-says has "$T/err" "attribute 'site2' is required"

malformed site_with_body 4 <<'EOF'
<mujoco>
  <worldbody><site name="a"/><body name="c"><freejoint/><geom size="0.1"/><site name="b"/></body></worldbody>
  <equality>
    <weld site1="b" site2="a" body1="c"/>
  </equality>
</mujoco>
EOF
check site_with_body-says has "$T/err" "site1 and site2 exclude attribute 'body1'"

malformed undefined_class 3 <<'EOF'
<mujoco>
  <worldbody>
    <geom class="nope" size="0.1"/>
  </worldbody>
</mujoco>
EOF

malformed undefined_material 3 <<'EOF'
<mujoco>
  <worldbody>
    <geom material="nope" size="0.1"/>
  </worldbody>
</mujoco>
EOF

# material layers (<layer texture= role=>, one texture per role): MuJoCo's refusals, each
# naming the line of the layer (a texture not found: the material's)
layered() {
  malformed "$1" "$2" <<EOF
<mujoco>
  <asset>
    <texture name="t" type="2d" builtin="flat" width="2" height="2"/>
    $3
  </asset>
</mujoco>
EOF
  check "$1-says" has "$T/err" "$4"
}
layered layer_and_texture 4 \
  '<material name="m" texture="t"><layer texture="t" role="orm"/></material>' \
  "layer: a material with a texture attribute cannot have layers"
layered layer_and_empty_texture 4 \
  '<material name="m" texture=""><layer texture="t" role="orm"/></material>' \
  "layer: a material with a texture attribute cannot have layers"
layered layer_role_unknown 4 '<material name="m"><layer texture="t" role="bump"/></material>' \
  "layer: attribute 'role': invalid keyword 'bump'"
layered layer_role_user 4 '<material name="m"><layer texture="t" role="user"/></material>' \
  "layer: attribute 'role': invalid keyword 'user'"
layered layer_role_missing 4 '<material name="m"><layer texture="t"/></material>' \
  "layer: attribute 'role' is required"
layered layer_texture_missing 4 '<material name="m"><layer role="normal"/></material>' \
  "layer: attribute 'texture' is required"
layered layer_texture_undefined 4 \
  '<material name="m"><layer texture="zz" role="normal"/></material>' \
  "material 'm': texture 'zz' in attribute 'texture' not found"
layered layer_attribute_unknown 4 \
  '<material name="m"><layer texture="t" role="rgb" scale="2"/></material>' \
  "layer: unknown attribute 'scale'"
layered material_child_unknown 4 '<material name="m"><texture name="u"/></material>' \
  "texture 'u': unknown element in material"

# a class's material is held to the same rules as an asset's
malformed default_layer_and_texture 3 <<'EOF'
<mujoco>
  <default>
    <material texture="t"><layer texture="t" role="normal"/></material>
  </default>
</mujoco>
EOF
check default_layer_and_texture-says has "$T/err" \
  "layer: a material with a texture attribute cannot have layers"

# a KTX texture (MuJoCo keeps its raw bytes for the GPU) is refused by name, by its extension
# or its content type, before any file is read
malformed texture_ktx 3 <<'EOF'
<mujoco>
  <asset>
    <texture name="ibl" type="2d" file="ibl.KTX"/>
  </asset>
</mujoco>
EOF
check texture_ktx-says has "$T/err" "texture 'ibl': KTX textures are not supported yet"
malformed texture_ktx_type 3 <<'EOF'
<mujoco>
  <asset>
    <texture name="ibl" type="2d" file="ibl.bin" content_type="image/ktx"/>
  </asset>
</mujoco>
EOF
check texture_ktx_type-says has "$T/err" "texture 'ibl': KTX textures are not supported yet"

malformed negative_mass 4 <<'EOF'
<mujoco>
  <worldbody>
    <body>
      <geom size="0.1" mass="-1"/>
    </body>
  </worldbody>
</mujoco>
EOF

malformed massless_body 3 <<'EOF'
<mujoco>
  <worldbody>
    <body>
      <joint/>
    </body>
  </worldbody>
</mujoco>
EOF

malformed zero_size 3 <<'EOF'
<mujoco>
  <worldbody>
    <geom type="sphere" size="0"/>
  </worldbody>
</mujoco>
EOF

malformed zero_quat 3 <<'EOF'
<mujoco>
  <worldbody>
    <geom size="0.1" quat="0 0 0 0"/>
  </worldbody>
</mujoco>
EOF

malformed duplicate_name 4 <<'EOF'
<mujoco>
  <worldbody>
    <body name="a"><geom size="0.1"/></body>
    <body name="a"><geom size="0.1"/></body>
  </worldbody>
</mujoco>
EOF

malformed bad_enum 3 <<'EOF'
<mujoco>
  <worldbody>
    <geom type="blob" size="0.1"/>
  </worldbody>
</mujoco>
EOF

malformed bad_bool 4 <<'EOF'
<mujoco>
  <worldbody>
    <body>
      <joint limited="maybe"/>
      <geom size="0.1"/>
    </body>
  </worldbody>
</mujoco>
EOF

malformed inverted_range 4 <<'EOF'
<mujoco>
  <worldbody>
    <body>
      <joint limited="true" range="1 -1"/>
      <geom size="0.1"/>
    </body>
  </worldbody>
</mujoco>
EOF

malformed fromto_sphere 3 <<'EOF'
<mujoco>
  <worldbody>
    <geom type="sphere" size="0.1" fromto="0 0 0 0 0 1"/>
  </worldbody>
</mujoco>
EOF

malformed joint_outside_body 3 <<'EOF'
<mujoco>
  <worldbody>
    <joint name="j"/>
  </worldbody>
</mujoco>
EOF

malformed free_not_top 6 <<'EOF'
<mujoco>
  <worldbody>
    <body>
      <geom size="0.1"/>
      <body>
        <freejoint/>
        <geom size="0.1"/>
      </body>
    </body>
  </worldbody>
</mujoco>
EOF

malformed undefined_joint 4 <<'EOF'
<mujoco>
  <worldbody/>
  <actuator>
    <motor joint="nope"/>
  </actuator>
</mujoco>
EOF

malformed motor_no_target 4 <<'EOF'
<mujoco>
  <worldbody/>
  <actuator>
    <motor gear="1"/>
  </actuator>
</mujoco>
EOF

malformed undefined_exclude 4 <<'EOF'
<mujoco>
  <worldbody/>
  <contact>
    <exclude body1="world" body2="nope"/>
  </contact>
</mujoco>
EOF

malformed keyframe_size 4 <<'EOF'
<mujoco>
  <worldbody/>
  <keyframe>
    <key qpos="1 2"/>
  </keyframe>
</mujoco>
EOF

# XML-level errors: the parser reports where it noticed them
malformed unclosed_tag 3 <<'EOF'
<mujoco>
  <worldbody>
</mujoco>
EOF

malformed empty_file 1 </dev/null

malformed not_xml 1 <<'EOF'
this is not XML
EOF

malformed inertia_triangle 3 <<'EOF'
<mujoco>
  <worldbody>
    <body><joint/><inertial pos="0 0 0" mass="1" diaginertia="1 1 2.1"/></body>
  </worldbody>
</mujoco>
EOF

malformed nested_freejoint 4 <<'EOF'
<mujoco>
  <worldbody>
    <body><geom size="0.1"/>
      <body><freejoint/><geom size="0.1"/></body>
    </body>
  </worldbody>
</mujoco>
EOF

malformed rotation_after_ball 3 <<'EOF'
<mujoco>
  <worldbody>
    <body><joint type="ball"/><joint type="hinge"/><geom size="0.1"/></body>
  </worldbody>
</mujoco>
EOF

# custom fields: a numeric's data within its size, a named, non-empty text, tuple elements
# naming objects that exist, field names unique within a kind
malformed numeric_over_size 3 <<'EOF'
<mujoco>
  <custom>
    <numeric name="gains" size="2" data="1 2 3"/>
  </custom>
</mujoco>
EOF
check numeric_over_size-says has "$T/err" \
  "numeric 'gains': attribute 'data' has 3 numbers, more than size 2"

malformed numeric_no_size 3 <<'EOF'
<mujoco>
  <custom>
    <numeric name="none"/>
  </custom>
</mujoco>
EOF
check numeric_no_size-says has "$T/err" "size must be between 1 and 500"

malformed text_empty 3 <<'EOF'
<mujoco>
  <custom>
    <text name="label" data=""/>
  </custom>
</mujoco>
EOF

malformed custom_unnamed 3 <<'EOF'
<mujoco>
  <custom>
    <text data="x"/>
  </custom>
</mujoco>
EOF
check custom_unnamed-says has "$T/err" "attribute 'name' is required"

malformed tuple_unknown_object 5 <<'EOF'
<mujoco>
  <custom>
    <tuple name="parts">
      <element objtype="body" objname="torso"/>
      <element objtype="geom" objname="nope" prm="1"/>
    </tuple>
  </custom>
  <worldbody>
    <body name="torso"><geom size="0.1"/></body>
  </worldbody>
</mujoco>
EOF
check tuple_unknown_object-says has "$T/err" \
  "element: geom 'nope' in attribute 'objname' not found"

malformed tuple_bad_objtype 4 <<'EOF'
<mujoco>
  <custom>
    <tuple name="parts">
      <element objtype="thing" objname="world"/>
    </tuple>
  </custom>
</mujoco>
EOF

malformed tuple_empty 3 <<'EOF'
<mujoco>
  <custom>
    <tuple name="parts"/>
  </custom>
</mujoco>
EOF

malformed custom_repeated_name 4 <<'EOF'
<mujoco>
  <custom>
    <numeric name="a" data="1"/>
    <numeric name="a" data="2"/>
  </custom>
</mujoco>
EOF
check custom_repeated_name-says has "$T/err" "repeated numeric name 'a'"

# a user list longer than the explicit <size nuser_*> (MuJoCo: "user has more values than
# nuser_geom"); without nuser_geom the longest list sets the size
malformed user_too_long 4 <<'EOF'
<mujoco>
  <size nuser_geom="2"/>
  <worldbody>
    <geom size="0.1" user="1 2 3"/>
  </worldbody>
</mujoco>
EOF
check user_too_long-message has "$T/err" "geom: user has 3 numbers, more than nuser_geom (2)"

# ---- URDF ------------------------------------------------------------------------------------

# a robot compiles to robot.mjb beside it, and the tools read the .urdf itself
mkdir -p "$T/urdf"
cat >"$T/urdf/arm.urdf" <<'EOF'
<robot name="arm">
  <link name="base"><collision><geometry><box size="0.2 0.2 0.1"/></geometry></collision></link>
  <joint name="hinge" type="revolute">
    <parent link="base"/><child link="link"/><origin xyz="0 0 0.1"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="5"/>
  </joint>
  <link name="link">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/>
    </inertial>
    <collision><geometry><cylinder radius="0.02" length="0.3"/></geometry></collision>
  </link>
</robot>
EOF
run compile "$T/urdf/arm.urdf"
check urdf-compile status_is 0
check urdf-default-output test -s "$T/urdf/arm.mjb"
run info "$T/urdf/arm.urdf"
check urdf-info has "$T/out" "nq 1"
"$BIN/mjstep" "$T/urdf/arm.urdf" -n 3 -o "$T/urdf/arm.mjt" 2>"$T/err"
check urdf-mjstep test -s "$T/urdf/arm.mjt"

ext=urdf
malformed urdf_missing_link 3 <<'EOF'
<robot name="r">
  <link name="a"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>
EOF

malformed urdf_two_parents 6 <<'EOF'
<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <link name="c"/>
  <joint name="j1" type="fixed"><parent link="a"/><child link="c"/></joint>
  <joint name="j2" type="fixed"><parent link="b"/><child link="c"/></joint>
</robot>
EOF

malformed urdf_cycle 3 <<'EOF'
<robot name="r">
  <link name="root"/>
  <link name="a"/>
  <link name="b"/>
  <joint name="j1" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="j2" type="fixed"><parent link="b"/><child link="a"/></joint>
</robot>
EOF

malformed urdf_joint_type 4 <<'EOF'
<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="hinge"><parent link="a"/><child link="b"/></joint>
</robot>
EOF

malformed urdf_axis_without_xyz 6 <<'EOF'
<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute">
    <parent link="a"/><child link="b"/>
    <axis/>
  </joint>
</robot>
EOF

malformed urdf_bad_number 4 <<'EOF'
<robot name="r">
  <link name="a">
    <collision>
      <origin xyz="0 0 x"/>
      <geometry><sphere radius="0.1"/></geometry>
    </collision>
  </link>
</robot>
EOF

malformed urdf_no_shape 4 <<'EOF'
<robot name="r">
  <link name="a">
    <collision>
      <geometry><cone radius="0.1"/></geometry>
    </collision>
  </link>
</robot>
EOF

malformed urdf_repeated_origin 5 <<'EOF'
<robot name="r">
  <link name="a">
    <collision>
      <origin xyz="0 0 1"/>
      <origin xyz="0 0 2"/>
      <geometry><sphere radius="0.1"/></geometry>
    </collision>
  </link>
</robot>
EOF

malformed urdf_inertial_without_mass 3 <<'EOF'
<robot name="r">
  <link name="a">
    <inertial><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
</robot>
EOF

malformed urdf_repeated_link 3 <<'EOF'
<robot name="r">
  <link name="a"/>
  <link name="a"/>
</robot>
EOF

malformed urdf_massless_moving 3 <<'EOF'
<robot name="r">
  <link name="a"/>
  <link name="b"><visual><geometry><sphere radius="0.1"/></geometry></visual></link>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
</robot>
EOF
ext=

# the corpus's robots that MuJoCo refuses (ASCII STL, the inertia triangle, a moving link
# without mass): one line naming the URDF line, as for MJCF
refused=$(cd "$(dirname "$0")/../.." && pwd)/../shared/corpus/urdf/refused
if [ -d "$refused" ]; then
  for case in simple_humanoid_ascii_stl/simple_humanoid.urdf:24 \
              robotiq_3f_inertia/robotiq-3f-gripper_articulated.urdf:11 \
              puma560_massless/puma560_robot.urdf:26; do
    file=${case%:*}
    run compile "$refused/$file" -o "$T/refused.mjb"
    check "refused-$file-status" status_is 2
    check "refused-$file-oneline" one_line "$T/err"
    check "refused-$file-location" has "$T/err" "${file#*/}:${case##*:}:"
    check "refused-$file-nothing" test ! -e "$T/refused.mjb"
  done
fi

# ---- verdict ---------------------------------------------------------------------------------

echo "mjc.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
