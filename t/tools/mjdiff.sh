#!/bin/sh
# mjdiff.sh: tests of mjdiff on state streams and models: the report, tolerances, NaN, frame
# counts, element names, stdin, and the errors, each case checking stdout, stderr and status.
#   BIN=/path/to/bin sh t/tools/mjdiff.sh
. "$(dirname "$0")/lib.sh"

# ---- inputs: a two-joint arm, and streams made from CSV with mjdump ---------------------------
twoJointArm
run 0 '"$BIN/mjc" compile arm.xml -o arm.mjb'
# B is the reference; A differs in qpos[0] of frame 1 by 0.001 and in qpos[1] of frame 2 by 0.5
printf 'time,qpos[0],qpos[1],ctrl[0]\n0,0.1,0.2,1\n0.002,1,nan,0\n0.004,0.5,-2,inf\n' >a.csv
printf 'time,qpos[0],qpos[1],ctrl[0]\n0,0.1,0.2,1\n0.002,1.001,nan,0\n0.004,0.5,-2.5,inf\n' >b.csv
# C has one frame more than A; D has NaN where A has a number and no ctrl
{ cat a.csv; echo 1,1,1,1; } >c.csv
printf 'time,qpos[0],qpos[1]\n0,nan,0.2\n0.002,1,nan\n0.004,0.5,-2\n' >d.csv
for s in a b c d; do run 0 '"$BIN/mjdump" --from-csv arm.mjb $s.csv -o $s.mjt'; done

# ---- streams -----------------------------------------------------------------------------------
title='field                     max_abs      max_rel  first beyond tolerance'
run 0 '"$BIN/mjdiff" a.mjt a.mjt'
same out "$title
time                            0            0  ok
qpos                            0            0  ok
ctrl                            0            0  ok"
same err ''
# largest |a-b| 0.5 (frame 2), largest |a-b|/|b| 0.5/2.5; the first beyond 0 is in frame 1
run 1 '"$BIN/mjdiff" a.mjt b.mjt'
same out "$title
time                            0            0  ok
qpos                          0.5          0.2  frame 1 (time 0.002) qpos[0]: \
1 vs 1.0009999999999999
ctrl                            0            0  ok"
same err ''
# element names from a model
run 1 '"$BIN/mjdiff" --model arm.mjb --fields qpos a.mjt b.mjt'
same out "$title
qpos                          0.5          0.2  frame 1 (time 0.002) \
qpos[0] (joint 'shoulder'): 1 vs 1.0009999999999999"
# absolute tolerance: 0.001 passes frame 1, not frame 2
run 1 '"$BIN/mjdiff" --atol 0.0011 --fields qpos --model arm.xml a.mjt b.mjt'
same out "$title
qpos                          0.5          0.2  frame 2 (time 0.0040000000000000001) qpos[1] \
(joint 'elbow'): -2 vs -2.5"
# relative tolerance: |-2 - -2.5| = 0.5 = 0.2*|-2.5| is within, 0.19 is not
run 0 '"$BIN/mjdiff" --rtol 0.2 a.mjt b.mjt'
run 1 '"$BIN/mjdiff" --rtol 0.19 --fields qpos a.mjt b.mjt'
has out '^qpos .* frame 2 (time 0.0040000000000000001) qpos\[1\]: -2 vs -2.5$'
# both tolerances add: 0.4 + 0.04*2.5 = 0.5
run 0 '"$BIN/mjdiff" --atol 0.4 --rtol 0.04 a.mjt b.mjt'
run 1 '"$BIN/mjdiff" --atol 0.4 --rtol 0.039 a.mjt b.mjt'
# NaN equals NaN only; a NaN against a number is an infinite difference
run 1 '"$BIN/mjdiff" --atol 1e300 d.mjt a.mjt'
same out "$title
time                            0            0  ok
qpos                          inf          inf  frame 0 (time 0) \
qpos[0]: nan vs 0.10000000000000001"
same err "mjdiff: note: field ctrl is only in a.mjt"
# another frame count is a difference, reported after the fields
run 1 '"$BIN/mjdiff" a.mjt c.mjt'
same out "$title
time                            0            0  ok
qpos                            0            0  ok
ctrl                            0            0  ok
frames: 3 in A, 4 in B"
# stdin for either side; -q prints nothing
run 1 '"$BIN/mjdiff" --fields time,qpos - b.mjt <a.mjt'
has out '^qpos .* frame 1 '
run 0 '"$BIN/mjdump" a.mjt | "$BIN/mjdump" --from-csv arm.mjb | "$BIN/mjdiff" a.mjt -'
run 1 '"$BIN/mjdiff" -q a.mjt b.mjt'
same out ''
same err ''
# fields: groups, and a field neither carries
run 0 '"$BIN/mjdiff" --fields input a.mjt b.mjt'
same out "$title
ctrl                            0            0  ok"
run 2 '"$BIN/mjdiff" --fields qvel a.mjt b.mjt'
same err 'mjdiff: a.mjt and b.mjt have no wanted field in common'
# damaged and foreign inputs
run 2 'head -c 150 b.mjt | "$BIN/mjdiff" a.mjt -'
same err 'mjdiff: <stdin>: truncated frame 2 (6 of 40 bytes)'
run 2 '{ head -c 100 b.mjt; printf X; tail -c +102 b.mjt; } >bad.mjt; "$BIN/mjdiff" a.mjt bad.mjt'
same err 'mjdiff: bad.mjt: corrupt frame 0 (bad CRC-32C)'
run 2 '"$BIN/mjdiff" a.mjt arm.mjb'
same err 'mjdiff: a.mjt and arm.mjb are not of one kind (a stream and a model)'
run 2 '"$BIN/mjdiff" a.mjt a.csv'
same err 'mjdiff: a.csv: neither a state stream nor a binary model (bad magic)'
run 2 '"$BIN/mjdiff" a.mjt nope.mjt'
same err 'mjdiff: nope.mjt: No such file or directory'

# ---- models ------------------------------------------------------------------------------------
run 0 '"$BIN/mjdiff" arm.xml arm.mjb'
same out ''
same err ''
run 0 '"$BIN/mjdiff" arm.mjb - <arm.mjb'
sed 's/mass="0.5"/mass="0.6"/' arm.xml >heavy.xml
run 1 '"$BIN/mjdiff" --fields body_mass,jnt_type arm.xml heavy.xml'
same out "$title
body_mass                     0.1       0.1667  body_mass[2] ('lower'): 0.5 vs 0.59999999999999998"
run 0 '"$BIN/mjdiff" --atol 0.1000001 --fields body_mass arm.xml heavy.xml'
same out "$title
body_mass                     0.1       0.1667  ok"
sed 's/<worldbody>/<option timestep="0.001" gravity="0 0 -9"\/><worldbody>/' arm.xml >opt.xml
run 1 '"$BIN/mjdiff" --fields opt arm.mjb opt.xml'
same out "$title
opt.timestep                0.001            1  opt.timestep: 0.002 vs 0.001
opt.gravity                  0.81         0.09  opt.gravity[2]: -9.8100000000000005 vs -9"
# another size: the size and the arrays it counts
sed 's/<motor name="motor" joint="elbow"\/>/&<motor joint="shoulder"\/>/' arm.xml >two.xml
run 1 '"$BIN/mjdiff" --fields sizes,actuator_gear arm.xml two.xml'
has out '^size nu  *1 vs 2$'
has out '^actuator_gear  *6 vs 12 elements$'
run 2 '"$BIN/mjdiff" arm.mjb broken.xml'
has err "^mjdiff: .*broken.xml"
run 2 'head -c 2000 arm.mjb >short.mjb; "$BIN/mjdiff" arm.mjb short.mjb'
same err "mjdiff: short.mjb: truncated (2000 bytes, its sizes need $(wc -c <arm.mjb | tr -d ' '))"
run 2 'head -c 500 arm.mjb >short.mjb; "$BIN/mjdiff" short.mjb arm.mjb'
has err '^mjdiff: short.mjb: truncated header (500 bytes, the header needs [0-9]*)$'

# ---- usage -------------------------------------------------------------------------------------
run 2 '"$BIN/mjdiff" a.mjt'
has err '^usage: mjdiff'
run 2 '"$BIN/mjdiff" --atol -1 a.mjt b.mjt'
has err "^mjdiff: --atol: not a non-negative number: '-1'$"
has err '^usage: mjdiff'
run 2 '"$BIN/mjdiff" --rtol x a.mjt b.mjt'
has err "^mjdiff: --rtol: not a non-negative number: 'x'$"
run 2 '"$BIN/mjdiff" --fields bogus a.mjt b.mjt'
has err "^mjdiff: unknown field 'bogus'"
run 2 '"$BIN/mjdiff" - - <a.mjt'
same err 'mjdiff: only one input can be stdin'
run 2 '"$BIN/mjdiff" --frobnicate a.mjt b.mjt'
has err '^mjdiff: unknown option or missing value: --frobnicate$'
run 0 '"$BIN/mjdiff" --help'
has out '^usage: mjdiff'
has out 'atol + rtol\*|b|'
run 0 '"$BIN/mjdiff" --version'
same out 'mjdiff 0.1.0 (libmj 0.1.0)'

finish mjdiff.sh
