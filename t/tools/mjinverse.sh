#!/bin/sh
# mjinverse.sh: tests of mjinverse: the applied forces come back from a simulation (controls
# through the actuators' gears plus qfrc_applied) with contacts, limits and damping, for a box
# pushed on a plane with an arm hitting the floor and for the biped of models/ falling, from
# streams carrying qacc and with --from-trajectory under each integrator that can be inverted;
# the constraint forces of the forward dynamics come back too; --efc; and the errors with
# their exit status and no output file left behind.
#   BIN=/path/to/bin sh t/tools/mjinverse.sh
REPO=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"

# ---- inputs -------------------------------------------------------------------------------------
# a box pushed sideways on a plane (friction holds it) and a damped two-link arm, limited at
# the shoulder, falling onto the floor; the motors in another order than their joints
cat >push.xml <<'XML'
<mujoco model="push">
  <option timestep="0.005"/>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1"/>
    <body name="box" pos="0 0 0.1">
      <freejoint/>
      <geom type="box" size="0.1 0.1 0.1"/>
    </body>
    <body name="arm" pos="1 0 0.3">
      <joint name="h1" axis="0 1 0" damping="0.5" range="-60 60"/>
      <geom type="capsule" fromto="0 0 0 0.25 0 0" size="0.04"/>
      <body pos="0.25 0 0">
        <joint name="h2" axis="0 1 0" damping="0.2"/>
        <geom type="capsule" fromto="0 0 0 0.25 0 0" size="0.04"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <motor joint="h2" gear="0.5"/>
    <motor joint="h1" gear="2"/>
  </actuator>
</mujoco>
XML
run 0 '"$BIN/mjc" compile push.xml -o push.mjb'
cp "$REPO/models/biped.xml" biped.xml
run 0 '"$BIN/mjc" compile biped.xml -o biped.mjb'

# a converged solver for the forward dynamics: tolerance 0 asks for an exact solve (as in
# MuJoCo since 3.11, any tolerance lets the Newton decrement stop it short)
SOLVE='--set tolerance=0 --set iterations=200 --set ls_tolerance=1e-12'

# controls: row k of nu columns, a slow sine per actuator within [-1, 1]
controls() {
  awk -v nu="$1" -v n="$2" 'BEGIN { for (k = 0; k < n; k++) { s = "";
    for (a = 0; a < nu; a++) s = s (a ? "," : "") sprintf("%.6f", 0.9 * sin(0.05 * k + a));
    print s } }'
}
controls 2 301 >push.ctrl
controls 20 301 >biped.ctrl

# an initial-state stream holding qfrc_applied = 0.3 cos(1.3 i) for the nv dofs of $1
applied() {
  awk -v nv="$2" 'BEGIN { s = ""; t = "";
    for (i = 0; i < nv; i++) { s = s (i ? "," : "") "qfrc_applied[" i "]";
                               t = t (i ? "," : "") sprintf("%.17g", 0.3 * cos(1.3 * i)) }
    print s; print t }' | "$BIN/mjdump" --from-csv "$1" >"$1.init"
}
applied push.mjb 8
applied biped.mjb 26

# the dof and gear of every actuator of model $1, from mjc info: "dof gear" lines in actuator
# order (joint transmissions: free 6 dofs, ball 3, others 1, in joint order)
gears() {
  "$BIN/mjc" info "$1" | awk '
    /^[a-z]/ { sec = $1; next }
    sec == "joints" && $1 ~ /^[0-9]+$/ {
      dof[$2] = n; n += $3 == "free" ? 6 : $3 == "ball" ? 3 : 1 }
    sec == "actuators" && $1 ~ /^[0-9]+$/ { print dof[$4], $NF }'
}

# the worst error of CSV $1 (time, qfrc_inverse (nv), qfrc_constraint (nv)) against
# qfrc_inverse = qfrc_applied + gear * ctrl (row k of control file $2, the actuators of model
# $3), relative to the largest force of the row; the rows start at step 0
worst() {
  gears "$3" >gears.txt
  awk -F, -v nv="$nv" -v app="0.3" '
    BEGIN { na = nc = 0 }
    FILENAME == ARGV[1] { split($0, g, " "); dof[na] = g[1]; gear[na++] = g[2]; next }
    FILENAME == ARGV[2] { ctrl[nc++] = $0; next }
    FNR == 1 { next }
    { k = FNR - 2; split(ctrl[k < nc ? k : nc - 1], c, ",")
      for (i = 0; i < nv; i++) want[i] = app * cos(1.3 * i)
      for (a = 0; a < na; a++) want[dof[a]] += gear[a] * c[a + 1]
      scale = 1; err = 0
      for (i = 0; i < nv; i++) {
        f = $(i + 2); q = $(i + 2 + nv); d = f - want[i]
        if (d < 0) d = -d; if (f < 0) f = -f; if (q < 0) q = -q
        if (f > scale) scale = f; if (q > scale) scale = q; if (d > err) err = d }
      if (err / scale > w) w = err / scale }
    END { printf "%.3g\n", w }' gears.txt "$2" "$1"
}

# fail unless the forces of CSV $1 come back (worst below 1e-8) in $4 rows
recovers() {
  holds "$(($(wc -l <"$1") - 1))" -eq "$4"
  w=$(worst "$1" "$2" "$3")
  if ! awk -v w="$w" 'BEGIN { exit !(w < 1e-8) }'; then
    echo "FAIL: $cmd: the applied forces do not come back: worst relative error $w"
    failures=$((failures + 1))
  fi
}

# the largest difference between the numbers of CSV files $1 and $2 (same shape)
maxdiff() {
  paste -d, "$1" "$2" | awk -F, 'NR > 1 { n = NF / 2; for (i = 1; i <= n; i++) {
    d = $i - $(i + n); if (d < 0) d = -d; if (d > e) e = d } } END { print e + 0 }'
}

# ---- the applied forces come back ---------------------------------------------------------------
# streams carrying qacc (continuous time: any integrator, RK4 included)
nv=8
for integ in Euler implicit implicitfast RK4; do
  run 0 '"$BIN/mjstep" push.mjb -n 300 --ctrl push.ctrl push.mjb.init $SOLVE \
           --set integrator=$integ --fields time,qpos,qvel,qacc >s.mjt &&
         "$BIN/mjinverse" push.mjb --fields time,qfrc_inverse,qfrc_constraint s.mjt |
         "$BIN/mjdump" >inv.csv'
  same err ''
  recovers inv.csv push.ctrl push.mjb 301
done
# the contacts and the limit were active: the constraint forces are not all zero
has inv.csv ',[1-9][0-9]*\.[0-9]*[1-9]'

# under both cones the applied forces of model $1 (controls $2, mjstep's further arguments $3)
# come back from 300 steps, and the forward's constraint forces as well
bothCones() {
  model=$1 ctrl=$2 more=$3
  for cone in pyramidal elliptic; do
    run 0 '"$BIN/mjstep" $model -n 300 $more --ctrl $ctrl $model.init $SOLVE \
             --set cone=$cone --fields time,qpos,qvel,qacc,qfrc_constraint >b.mjt &&
           "$BIN/mjinverse" $model --set cone=$cone --fields time,qfrc_inverse,qfrc_constraint \
             b.mjt | "$BIN/mjdump" >inv.csv'
    recovers inv.csv "$ctrl" "$model" 301
    run 0 '"$BIN/mjdump" --fields qfrc_constraint b.mjt >fwd.csv &&
           "$BIN/mjinverse" $model --set cone=$cone --fields qfrc_constraint b.mjt |
           "$BIN/mjdump" >back.csv'
    holds "$(awk -v e="$(maxdiff fwd.csv back.csv)" 'BEGIN { print (e < 1e-7) }')" -eq 1
  done
}

# the biped falls from its crouch onto the floor, with controls
nv=26
bothCones biped.mjb biped.ctrl '--key crouch'

# adhesive contacts (geom adhesion: the pull in qfrc_passive, R delta in aref): the box held to
# a sticky floor, the arm's hand caught across the floor's gap; both cones
sed 's|size="5 5 0.1"/>|size="5 5 0.1" adhesion="2" gap="0.05"/>|' push.xml >sticky.xml
run 0 '"$BIN/mjc" compile sticky.xml -o sticky.mjb'
applied sticky.mjb 8
nv=8
bothCones sticky.mjb push.ctrl ''

# from positions and velocities only, as the integrator made them: Euler (implicit damping),
# implicit and implicitfast
nv=8
for integ in Euler implicit implicitfast; do
  run 0 '"$BIN/mjstep" push.mjb -n 300 --ctrl push.ctrl push.mjb.init $SOLVE \
           --set integrator=$integ --fields time,qpos,qvel >t.mjt &&
         "$BIN/mjinverse" push.mjb --from-trajectory --set integrator=$integ \
           --fields time,qfrc_inverse,qfrc_constraint t.mjt | "$BIN/mjdump" >inv.csv'
  recovers inv.csv push.ctrl push.mjb 300
done
# Euler with the damper disabled integrates without implicit damping
run 0 '"$BIN/mjstep" push.mjb -n 100 --ctrl push.ctrl push.mjb.init $SOLVE --disable damper \
         --fields time,qpos,qvel >t.mjt &&
       "$BIN/mjinverse" push.mjb --from-trajectory --disable damper \
         --fields time,qfrc_inverse,qfrc_constraint t.mjt | "$BIN/mjdump" >inv.csv'
recovers inv.csv push.ctrl push.mjb 100
# the same trajectory inverted as if damped misses the damping
run 0 '"$BIN/mjinverse" push.mjb --from-trajectory --fields time,qfrc_inverse,qfrc_constraint \
         t.mjt | "$BIN/mjdump" >inv.csv'
w=$(worst inv.csv push.ctrl push.mjb)
holds "$(awk -v w="$w" 'BEGIN { print (w > 1e-4) }')" -eq 1

# ---- output: default fields, frame times, --efc -------------------------------------------------
run 0 '"$BIN/mjstep" push.mjb -n 4 --fields time,qpos,qvel,qacc >s.mjt &&
       "$BIN/mjinverse" push.mjb <s.mjt | "$BIN/mjdump" --fields time'
same out 'time
0
0.0050000000000000001
0.01
0.014999999999999999
0.02'
run 0 '"$BIN/mjinverse" push.mjb s.mjt | "$BIN/mjdump" | head -n 1 | tr , "\n"'
same out "time
$(for i in 0 1 2 3 4 5 6 7; do echo "qfrc_inverse[$i]"; done)"
# -o writes the same stream as standard output
run 0 '"$BIN/mjinverse" push.mjb s.mjt -o o.mjt && "$BIN/mjinverse" push.mjb s.mjt | cmp - o.mjt'
# the constraint rows: a header, then the box's four corner contacts (pyramidal, 4 rows each)
run 0 '"$BIN/mjinverse" push.mjb --efc rows.csv s.mjt >/dev/null'
has rows.csv '^frame,time,row,type,id,force,state$'
has rows.csv '^1,0.005[0-9]*,0,contact_pyramidal,0,[0-9.e-]*,quadratic$'
holds "$(grep -c '^4,' rows.csv)" -eq 16

# ---- errors: one line, status 2, no output file -------------------------------------------------
run 2 '"$BIN/mjinverse"'
has err 'no model'
run 2 '"$BIN/mjinverse" push.mjb --frobnicate s.mjt'
has err 'unknown option'
run 2 '"$BIN/mjinverse" push.mjb --fields qpos,nonsense s.mjt -o x.mjt'
has err 'nonsense'
holds ! -e x.mjt
# no qacc in the stream
run 2 '"$BIN/mjstep" push.mjb -n 3 | "$BIN/mjinverse" push.mjb -o x.mjt'
same err 'mjinverse: <stdin>: the stream carries no qacc (mjstep --fields time,qpos,qvel,qacc; '\
'or --from-trajectory)'
holds ! -e x.mjt
# sleeping islands (the flag enabled here or in the model): not simulated, refused by name
run 2 '"$BIN/mjinverse" push.mjb --enable sleep s.mjt -o x.mjt'
same err 'mjinverse: push.mjb: option flag '"'sleep'"': not supported by this simulator'
holds ! -e x.mjt
# history buffers (delays): refused by name
printf '%s\n' '<mujoco><worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>' \
  '<actuator><motor joint="j" nsample="2" delay="0.004"/></actuator></mujoco>' >late.xml
run 0 '"$BIN/mjstep" late.xml -n 2 --fields time,qpos,qvel,qacc -o late.mjt'
run 2 '"$BIN/mjinverse" late.xml late.mjt -o x.mjt'
same err 'mjinverse: late.xml: history buffers (nsample, delay): not supported by mjinverse yet'
holds ! -e x.mjt
# a stream of another model
run 2 '"$BIN/mjinverse" biped.mjb s.mjt -o x.mjt'
has err 'mjinverse: s.mjt: '
holds "$(wc -l <err)" -eq 1
holds ! -e x.mjt
# a truncated stream: the frame is named; nothing is left behind
run 0 'head -c 300 s.mjt >cut.mjt'
run 2 '"$BIN/mjinverse" push.mjb cut.mjt -o x.mjt --efc rows2.csv'
has err 'frame 1'
holds ! -e x.mjt
holds ! -e rows2.csv
# a non-finite number in a frame, named by element
# (a zero state but for qpos[2] = 0.1, qpos[3] = 1 and qvel[7] = nan)
awk 'BEGIN { for (i = 0; i < 9; i++) printf "qpos[%d],", i
             for (i = 0; i < 8; i++) printf "qvel[%d],qacc[%d]%s", i, i, i < 7 ? "," : "\n"
             printf "0,0,0.1,1,0,0,0,0,0,"
             for (i = 0; i < 8; i++) printf "%s,0%s", i < 7 ? 0 : "nan", i < 7 ? "," : "\n" }' \
  >nan.csv
run 0 '"$BIN/mjdump" --from-csv push.mjb nan.csv >nan.mjt'
run 2 '"$BIN/mjinverse" push.mjb nan.mjt'
same err "mjinverse: nan.mjt: frame 0: qvel[7] (joint 'h2') is nan: the state must be finite"
# --from-trajectory needs every step, and not RK4
run 0 '"$BIN/mjstep" push.mjb -n 6 --every 2 >e.mjt'
run 2 '"$BIN/mjinverse" push.mjb --from-trajectory e.mjt -o x.mjt'
has err 'frames 0 and 1 are 0.01.* s apart, not one timestep (0.005 s)'
holds ! -e x.mjt
run 2 '"$BIN/mjinverse" push.mjb --from-trajectory --set integrator=RK4 t.mjt'
same err "mjinverse: --from-trajectory: the RK4 integrator's discrete accelerations cannot be \
inverted (Euler, implicit and implicitfast can)"
run 2 '"$BIN/mjinverse" push.mjb --enable invdiscrete --set integrator=RK4 s.mjt'
has err '^mjinverse: invdiscrete: the RK4'
run 2 '"$BIN/mjinverse" push.mjb --disable nonsense s.mjt'
has err 'nonsense'
# help and version
run 0 '"$BIN/mjinverse" --help'
has out '^usage: mjinverse MODEL'
run 0 '"$BIN/mjinverse" --version'
has out '^mjinverse '

finish mjinverse.sh
