#!/bin/sh
# mjstep.sh: tests of mjstep: trajectories checked against closed-form motion, frame counts of
# --every and --duration, initial states (keyframes, streams), controls (text and streams),
# option overrides, --batch byte-identity, warnings (with contacts too), --strict, and the errors
# with their exit status and no output file left behind.
#   BIN=/path/to/bin sh t/tools/mjstep.sh
models=$(cd "$(dirname "$0")/../../models" && pwd) || exit 2
. "$(dirname "$0")/lib.sh"

# ---- inputs: a body falling along a slide joint, with a motor on it -----------------------------
# Semi-implicit Euler with h = 0.01 and g = -10 from rest: v_k = -0.1 k, x_k = -0.0005 k (k+1).
cat >fall.xml <<'XML'
<mujoco model="fall">
  <option timestep="0.01" gravity="0 0 -10" integrator="Euler"/>
  <worldbody>
    <body name="ball">
      <joint name="z" type="slide" axis="0 0 1"/>
      <geom type="sphere" size="0.1" mass="1"/>
    </body>
  </worldbody>
  <actuator>
    <motor name="lift" joint="z"/>
  </actuator>
  <keyframe>
    <key name="up" qpos="2" qvel="1"/>
  </keyframe>
</mujoco>
XML
run 0 '"$BIN/mjc" compile fall.xml -o fall.mjb'
# an unrelated model, for streams that do not belong
sed 's/mass="1"/mass="2"/' fall.xml >heavy.xml

# fail unless column $2 of CSV file $1 at data row $3 (0 = first frame) is $4 within 1e-12
near() {
  got=$(awk -F, -v c="$2" -v r="$3" 'NR == r + 2 { print $c }' "$1")
  if ! awk -v a="$got" -v b="$4" 'BEGIN { d = a - b; exit !(d < 1e-12 && d > -1e-12) }'; then
    echo "FAIL: $cmd: $1 row $3 column $2 is '$got', expected $4"
    failures=$((failures + 1))
  fi
}

# ---- trajectories -------------------------------------------------------------------------------
run 0 '"$BIN/mjstep" fall.mjb -n 10 -o run.mjt && "$BIN/mjdump" run.mjt >run.csv'
same err ''
holds "$(wc -l <run.csv)" -eq 12
has run.csv '^time,qpos\[0\],qvel\[0\]$'
near run.csv 2 10 -0.055
near run.csv 3 10 -1
near run.csv 1 10 0.1
near run.csv 2 1 -0.001
# the XML compiles on the fly to the same stream, bound to the same model
run 0 '"$BIN/mjstep" fall.xml -n 10 | cmp - run.mjt'
# derived fields belong to their frame's state: qacc = g; sensordata-free model
run 0 '"$BIN/mjstep" fall.mjb -n 3 --fields time,qacc,actuator_force | "$BIN/mjdump"'
same out 'time,qacc[0],actuator_force[0]
0,-10,0
0.01,-10,0
0.02,-10,0
0.029999999999999999,-10,0'
# options: gravity 0 0 -20 doubles the fall; without gravity nothing moves
run 0 '"$BIN/mjstep" fall.mjb -n 10 --set gravity=0,0,-20 | "$BIN/mjdump" >g.csv'
near g.csv 2 10 -0.11
run 0 '"$BIN/mjstep" fall.mjb -n 10 --disable gravity --fields qpos | "$BIN/mjdump" | tail -n 1'
same out '0'
run 0 '"$BIN/mjstep" fall.mjb -n 10 --disable gravity --enable gravity | cmp - run.mjt'
# timestep 0.02: x_5 = -0.02 * 0.2 * 15 = -0.06
run 0 '"$BIN/mjstep" fall.mjb -n 5 --set timestep=0.02 | "$BIN/mjdump" >t.csv'
near t.csv 2 5 -0.06
# RK4 integrates constant acceleration exactly: x = -5 t^2
run 0 '"$BIN/mjstep" fall.mjb -n 10 --set integrator=RK4 | "$BIN/mjdump" >rk.csv'
near rk.csv 2 10 -0.05

# ---- --every and --duration ---------------------------------------------------------------------
# frames at steps 0, 3, 6, 9 of 10
run 0 '"$BIN/mjstep" fall.mjb -n 10 --every 3 --fields time | "$BIN/mjdump"'
same out 'time
0
0.029999999999999999
0.060000000000000005
0.089999999999999997'
# 0.1 s at h = 0.01 is 10 steps (11 frames); 0.105 s needs 11
run 0 '"$BIN/mjstep" fall.mjb --duration 0.1 --fields time | "$BIN/mjdump" | wc -l'
same out '12'
run 0 '"$BIN/mjstep" fall.mjb --duration 0.105 --every 11 --fields time | "$BIN/mjdump"'
same out 'time
0
0.10999999999999999'
run 0 '"$BIN/mjstep" fall.mjb -n 0 | "$BIN/mjdump"'
same out 'time,qpos[0],qvel[0]
0,0,0'

# ---- initial states -----------------------------------------------------------------------------
# keyframe by name and by index: x = 2, v = 1 - 0.1 k
run 0 '"$BIN/mjstep" fall.mjb -n 10 --key up | "$BIN/mjdump" >key.csv'
near key.csv 2 0 2
near key.csv 3 10 0
near key.csv 2 10 2.045
run 0 '"$BIN/mjstep" fall.mjb -n 10 --key 0 | "$BIN/mjdump" | cmp - key.csv'
run 2 '"$BIN/mjstep" fall.mjb -n 10 --key down -o no.mjt'
same err "mjstep: unknown keyframe 'down'"
holds ! -e no.mjt
run 2 '"$BIN/mjstep" fall.mjb -n 10 --key 3'
same err 'mjstep: keyframe index 3 out of range (the model has 1 keyframes)'
# a stream: its last frame is the initial state, fields it lacks come from the model (or --key)
printf 'time,qpos[0]\n0,5\n1,3\n' | "$BIN/mjdump" --from-csv fall.mjb -o init.mjt
run 0 '"$BIN/mjstep" fall.mjb -n 1 init.mjt | "$BIN/mjdump"'
same out 'time,qpos[0],qvel[0]
1,3,0
1.01,2.9990000000000001,-0.10000000000000001'
run 0 '"$BIN/mjstep" fall.mjb -n 1 --key up --init - <init.mjt | "$BIN/mjdump" | tail -n 1'
same out '1.01,3.0089999999999999,0.90000000000000002'
# the README pipeline: CSV -> stream -> mjstep
run 0 'printf "time,qpos[0],qvel[0]\n0,1,0\n" | "$BIN/mjdump" --from-csv fall.mjb |
       "$BIN/mjstep" fall.mjb -n 10 - | "$BIN/mjdump" >pipe.csv'
near pipe.csv 2 10 0.945

# ---- controls -----------------------------------------------------------------------------------
# 5 N on step 0, then 0 (the last row holds): a = -5, then -10
printf '# force\n5\n\n0\n' >ctrl.txt
run 0 '"$BIN/mjstep" fall.mjb -n 3 --ctrl ctrl.txt --fields qvel,ctrl | "$BIN/mjdump" >c.csv'
near c.csv 1 1 -0.05
near c.csv 1 3 -0.25
near c.csv 2 0 5
near c.csv 2 3 0
# the same controls as a state stream carrying ctrl, and as mjdump's CSV with its header row
printf 'ctrl[0]\n5\n0\n' >ctrl.csv
run 0 '"$BIN/mjdump" --from-csv fall.mjb ctrl.csv -o ctrl.mjt'
for f in ctrl.mjt ctrl.csv; do
  run 0 '"$BIN/mjstep" fall.mjb -n 3 --ctrl $f --fields qvel,ctrl | "$BIN/mjdump" | cmp - c.csv'
done
# ctrl carried by the initial state holds for every step: 20 N gives a = +10
printf 'ctrl[0]\n20\n' | "$BIN/mjdump" --from-csv fall.mjb -o up.mjt
run 0 '"$BIN/mjstep" fall.mjb -n 10 up.mjt | "$BIN/mjdump" >u.csv'
near u.csv 3 10 1
# bad control files: each a one-line error naming the line, no output file
printf '1\n2 3\n' >two.txt
run 2 '"$BIN/mjstep" fall.mjb -n 3 --ctrl two.txt -o no.mjt'
same err 'mjstep: two.txt:2: 2 numbers, expected 1 (one per actuator)'
holds ! -e no.mjt
printf '1\nx\n' >nan.txt
run 2 '"$BIN/mjstep" fall.mjb -n 3 --ctrl nan.txt -o no.mjt'
same err "mjstep: nan.txt:2: column 1: 'x' is not a finite number"
holds ! -e no.mjt
printf '# nothing\n' >empty.txt
run 2 '"$BIN/mjstep" fall.mjb -n 3 --ctrl empty.txt'
same err 'mjstep: empty.txt: no control rows'
run 2 '"$BIN/mjstep" fall.mjb -n 3 --ctrl init.mjt'
same err 'mjstep: init.mjt: the stream carries no ctrl'

# ---- bad initial states -------------------------------------------------------------------------
run 2 '"$BIN/mjstep" heavy.xml -n 3 -o no.mjt init.mjt'
has err '^mjstep: init.mjt: stream was written for another model'
holds ! -e no.mjt
printf 'time,qpos[0]\n0,nan\n' | "$BIN/mjdump" --from-csv fall.mjb -o nan.mjt
run 2 '"$BIN/mjstep" fall.mjb -n 3 -o no.mjt nan.mjt'
same err "mjstep: nan.mjt: frame 0: qpos[0] (joint 'z') is nan: the initial state must be finite"
holds ! -e no.mjt
run 2 'head -c 80 init.mjt | "$BIN/mjstep" fall.mjb -n 3 -'
same err 'mjstep: <stdin>: truncated frame 0 (16 of 24 bytes)'
run 2 '"$BIN/mjstep" fall.mjb -n 3 --init fall.xml'
has err '^mjstep: fall.xml: not a state stream'

# ---- sleeping islands: a body's sleep policy alone simulates (the flag is off); the flag is
# refused by name, as not simulated yet
cat >nap.xml <<'XML'
<mujoco>
  <option sleep_tolerance="0.01"/>
  <worldbody>
    <geom type="plane" size="1 1 .1"/>
    <body pos="0 0 .5" sleep="allowed"><freejoint/><geom size=".1"/></body>
  </worldbody>
</mujoco>
XML
run 0 '"$BIN/mjstep" nap.xml -n 3 -o nap.mjt'
sed 's|<option sleep_tolerance="0.01"/>|<option><flag sleep="enable"/></option>|' nap.xml >nap2.xml
run 2 '"$BIN/mjstep" nap2.xml -n 3 -o no.mjt'
same err "mjstep: nap2.xml: option flag 'sleep': not supported by this simulator"
holds ! -e no.mjt
run 2 '"$BIN/mjstep" nap.xml --enable sleep -n 3 -o no.mjt'
same err "mjstep: nap.xml: option flag 'sleep': not supported by this simulator"

# ---- history buffers (delays): a run from the model's reset; a stream does not carry them yet,
# so continuing from one is refused by name
printf '%s\n' '<mujoco><worldbody><body><joint name="j" type="slide" axis="1 0 0"/>' \
  '<geom size=".1"/></body></worldbody><actuator><motor joint="j" nsample="2" delay="0.004"/></actuator></mujoco>' >late.xml
printf '1\n' >one.csv
run 0 '"$BIN/mjstep" late.xml -n 4 --ctrl one.csv --fields time,qvel -o late.mjt'
# qvel: 0 while the ctrl read is the buffer's initial 0 (steps 0, 1), then h u / m each step
# (h 0.002, u 1, m 4.18879: 4.7746e-4)
run 0 '"$BIN/mjdump" --csv late.mjt | cut -d, -f2'
same out "$(printf 'qvel[0]\n0\n0\n0\n0.00047746482927568597\n0.00095492965855137194')"
run 2 '"$BIN/mjstep" late.xml -n 1 late.mjt -o no.mjt'
same err 'mjstep: late.mjt: continuing from a stream with history buffers (nsample, delay): '\
'not supported yet'
holds ! -e no.mjt

# ---- --batch: one trajectory per initial state, as if run one at a time -------------------------
printf 'time,qpos[0],qvel[0],ctrl[0]\n0,0,0,0\n0,1,2,3\n0.5,-1,0.5,20\n2,0,-3,1\n0,4,4,-4\n' |
  "$BIN/mjdump" --from-csv fall.mjb -o many.mjt
: >one.bin
for k in 1 2 3 4 5; do
  printf 'time,qpos[0],qvel[0],ctrl[0]\n0,0,0,0\n0,1,2,3\n0.5,-1,0.5,20\n2,0,-3,1\n0,4,4,-4\n' |
    sed -n "1p;$((k + 1))p" | "$BIN/mjdump" --from-csv fall.mjb -o s.mjt
  "$BIN/mjstep" fall.mjb -n 7 --every 2 --fields all s.mjt | tail -c +65 >>one.bin
done
run 0 '"$BIN/mjstep" fall.mjb -n 7 --every 2 --fields all --batch --threads 1 many.mjt -o b1.mjt'
run 0 'tail -c +65 b1.mjt | cmp - one.bin'
run 0 '"$BIN/mjstep" fall.mjb -n 7 --every 2 --fields all --batch --threads 4 many.mjt |
       cmp - b1.mjt'
run 0 '"$BIN/mjstep" fall.mjb -n 7 --every 2 --fields all --batch many.mjt | cmp - b1.mjt'
# 5 trajectories of 4 frames
run 0 '"$BIN/mjdump" b1.mjt | wc -l'
same out '21'
run 2 '"$BIN/mjstep" fall.mjb -n 3 --batch'
has err '^mjstep: --batch needs initial states'

# ---- warnings -----------------------------------------------------------------------------------
# a stiff spring at a huge step diverges: bad qvel/qacc warnings reset the state
sed 's/axis="0 0 1"\/>/axis="0 0 1" stiffness="1e9"\/>/' fall.xml >stiff.xml
run 0 '"$BIN/mjstep" stiff.xml -n 200 --key up -o w.mjt'
has err '^mjstep: warning: bad number in q[a-z]*: [0-9]* times'
holds -s w.mjt
run 2 '"$BIN/mjstep" stiff.xml -n 200 --key up --strict -o no.mjt'
has err '^mjstep: step [0-9]* (time [0-9.e-]*): warning: bad number in q'
holds ! -e no.mjt
# on standard output the frames before the error stay, and the stream ends truncated
run 2 '"$BIN/mjstep" stiff.xml -n 200 --key up --strict >part.mjt'
run 2 '"$BIN/mjdump" part.mjt'
same err 'mjdump: part.mjt: truncated frame 2 (1 of 32 bytes)'
# in a batch the error names the initial state; the summary adds up every trajectory
printf 'qvel[0]\n0\n1\n' | "$BIN/mjdump" --from-csv stiff.xml -o stiff.mjt
run 2 '"$BIN/mjstep" stiff.xml -n 200 --batch --threads 2 --strict stiff.mjt -o no.mjt'
has err '^mjstep: initial state 0: step [0-9]* (time [0-9.e-]*): warning: bad number in q'
holds ! -e no.mjt
run 0 '"$BIN/mjstep" stiff.xml -n 2 --key up --batch --threads 2 stiff.mjt --fields time,warning |
       "$BIN/mjdump" --fields warning | tail -n 1'
same out '0,0,0,0,0,0,1,0'
same err 'mjstep: warning: bad number in qacc: 2 times (last index 0)'
# with contacts: a box resting on the floor (4 contacts) is driven by a position servo whose
# gain makes explicit integration explode (kp h^2 / m = 100).  As MuJoCo 3.5.1 does: bad qacc
# at step 3 (after x = -4.9e4 at frame 3), a reset to the model default (not the keyframe), and
# that step then taken from it: frame 4 is one step of free fall from qpos0, z = -g h^2
cat >slam.xml <<'XML'
<mujoco model="slam">
  <option timestep="0.01"/>
  <worldbody>
    <geom name="floor" type="plane" size="1 1 0.1"/>
    <body name="box" pos="0 0 0.1">
      <joint name="x" type="slide" axis="1 0 0"/>
      <joint name="z" type="slide" axis="0 0 1"/>
      <joint name="tilt" type="hinge" axis="0 1 0"/>
      <geom type="box" size="0.1 0.1 0.1" mass="1"/>
    </body>
  </worldbody>
  <actuator>
    <position joint="x" kp="1e6"/>
  </actuator>
  <keyframe>
    <key name="off" qpos="0.1 0 0"/>
  </keyframe>
</mujoco>
XML
run 0 '"$BIN/mjstep" slam.xml -n 6 --key off --fields time,qpos,ncon,warning | "$BIN/mjdump"'
has out '^0,0.10000000000000001,0,0,4,0,0,0,0,0,0,0,0$'
has out '^0.029999999999999999,-48668\.[0-9]*,[-0-9.e]*,[-0-9.e]*,0,0,0,0,0,0,0,0,0$'
has out '^0.01,0,-0.0009810000000000001,0,4,0,0,0,0,0,0,1,0$'
same err 'mjstep: warning: bad number in qacc: 1 times (last index 0)'
run 2 '"$BIN/mjstep" slam.xml -n 6 --key off --strict -o no.mjt'
same err 'mjstep: step 3 (time 0.01): warning: bad number in qacc (index 0)'
holds ! -e no.mjt
run 2 '"$BIN/mjstep" fall.mjb -n 3 init.mjt init.mjt'
has err '^mjstep: too many arguments: init.mjt$'

# ---- pipes, benchmark, usage --------------------------------------------------------------------
run 0 '"$BIN/mjstep" fall.mjb -n 1000000 | head -c 100 >/dev/null'
same err ''
run 0 '"$BIN/mjstep" fall.mjb -n 20000 --bench'
same out ''
has err '^mjstep: 20000 steps in [0-9.]* s: [0-9]* steps/s$'
# --profile: one row per stage; the shares add up to the step (less the gaps between timers:
# on a step of a fraction of a microsecond the timers' own calls are a fifth of it, so a chain
# of 100 bodies, 100-200 us a step, where they are below 1%)
run 0 '"$BIN/mjstep" "$models/chain100.xml" -n 300 --bench --profile'
has err '^profile: 300 steps, [0-9.]* s in mj_step, [0-9.]* us a step, forward passes a step: 1$'
for stage in position velocity actuation acceleration constraint integration; do
  has err "^  $stage  *[0-9.]*  *[0-9.]*%$"
done
awk '/%$/ { sub(/%/, "", $3); sum += $3 } END { exit !(sum > 80 && sum < 100.5) }' err ||
  { echo "FAIL: --profile shares do not add up: $(tr '\n' '|' <err)"; failures=$((failures + 1)); }
# the steps compute no sensor (no output reads them): a sensor stage only with energy, or
# with frames of derived fields (their steps' sensors); the rate line as --bench prints it
grep -q '^  sensors ' err &&
  { echo "FAIL: --profile: a sensors row without sensors"; failures=$((failures + 1)); }
run 0 '"$BIN/mjstep" fall.mjb -n 2000 --bench --profile --enable energy'
has err "^  sensors  *[0-9.]*  *[0-9.]*%$"
run 0 '"$BIN/mjstep" fall.mjb -n 2000 --profile --fields time,qacc -o prof.mjt'
has err "^  sensors  *[0-9.]*  *[0-9.]*%$"
has err '^mjstep: 2000 steps in [0-9.]* s: [0-9]* steps/s$'
run 0 '"$BIN/mjstep" fall.mjb -n 2000 --profile --fields time,qpos -o prof.mjt'
grep -q '^  sensors ' err &&
  { echo "FAIL: --profile: a sensors row for state frames"; failures=$((failures + 1)); }
run 0 '"$BIN/mjstep" fall.mjb -n 50 --set integrator=RK4 --profile --fields qacc'
has err 'forward passes a step: 4$'
run 2 '"$BIN/mjstep" fall.mjb -n 3 --set timestep=-1'
same err "mjstep: --set timestep=-1: option 'timestep': must be positive, got '-1'"
run 2 '"$BIN/mjstep" fall.mjb -n 3 --set integrator=rk4'
same err "mjstep: --set integrator=rk4: option 'integrator': invalid keyword 'rk4' \
(one of Euler, RK4, implicit, implicitfast)"
run 2 '"$BIN/mjstep" fall.mjb -n 3 --set gravity=1,2'
same err "mjstep: --set gravity=1,2: option 'gravity': expected 3 numbers, got '1,2'"
run 2 '"$BIN/mjstep" fall.mjb -n 3 --set warp=9'
same err "mjstep: --set warp=9: unknown option 'warp'"
run 2 '"$BIN/mjstep" fall.mjb -n 3 --disable friction'
same err "mjstep: --disable friction: unknown flag 'friction'"
run 2 '"$BIN/mjstep" fall.mjb'
has err '^mjstep: give one of -n STEPS and --duration$'
has err '^usage: mjstep'
run 2 '"$BIN/mjstep" fall.mjb -n 3 --every 0'
has err "^mjstep: --every: expected an integer >= 1, got '0'$"
run 2 '"$BIN/mjstep" fall.mjb -n 3 --fields qpos,bogus'
has err "^mjstep: --fields: unknown field 'bogus'"
run 2 '"$BIN/mjstep" nope.mjb -n 3'
has err '^mjstep: nope.mjb'
run 0 '"$BIN/mjstep" --help'
has out '^usage: mjstep'
run 0 '"$BIN/mjstep" --version'
same out 'mjstep 0.1.0 (libmj 0.1.0)'

finish mjstep.sh
