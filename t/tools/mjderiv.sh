#!/bin/sh
# mjderiv.sh: tests of mjderiv: usage and options, a damped pendulum's Jacobians against its
# linearization, the shapes of the NumPy, CSV and stream outputs, threads giving the same
# bytes, keyframes, and each error with its exit status and no output left behind.
#   BIN=/path/to/bin sh t/tools/mjderiv.sh
. "$(dirname "$0")/lib.sh"

# ---- inputs -------------------------------------------------------------------------------------
# a pendulum hanging from a hinge (Euler, h = 0.01) with a limited motor, a joint position and a
# joint velocity sensor, and a keyframe at 0.5 rad
cat >pend.xml <<'XML'
<mujoco model="pend">
  <option timestep="0.01" integrator="Euler"/>
  <worldbody>
    <body name="bob" pos="0 0 1">
      <joint name="swing" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.05" mass="1"/>
    </body>
  </worldbody>
  <actuator><motor joint="swing" ctrlrange="-1 1"/></actuator>
  <sensor><jointpos joint="swing"/><jointvel joint="swing"/></sensor>
  <keyframe><key name="tilt" qpos="0.5"/></keyframe>
</mujoco>
XML
sed 's/integrator="Euler"/integrator="RK4"/' pend.xml >rk4.xml
sed 's/name="swing"/name="swing2"/; s/joint="swing"/joint="swing2"/g' pend.xml >other.xml
run 0 '"$BIN/mjstep" pend.xml -n 20 --key tilt --fields state,ctrl -o pend.mjt'
run 0 '"$BIN/mjstep" other.xml -n 2 -o other.mjt'

# ---- usage --------------------------------------------------------------------------------------
run 0 '"$BIN/mjderiv" --help'
has out '^usage: mjderiv MODEL'
has out 'npy DIR'
run 0 '"$BIN/mjderiv" --version'
has out '^mjderiv '
run 2 '"$BIN/mjderiv"'
has err '^mjderiv: no model'
run 2 '"$BIN/mjderiv" pend.xml --method exact'
has err "unknown method 'exact'"
run 2 '"$BIN/mjderiv" pend.xml --method fd --eps -1'
has err 'not a positive number'
run 2 '"$BIN/mjderiv" pend.xml --eps 1e-7'
has err 'apply to --method fd and --check'
run 2 '"$BIN/mjderiv" pend.xml --check --csv'
run 2 '"$BIN/mjderiv" pend.xml --check --rtol x'
run 2 '"$BIN/mjderiv" pend.xml --blocks A,E'
has err 'not a list of A, B, C, D'
run 2 '"$BIN/mjderiv" pend.xml --threads 0'
run 2 '"$BIN/mjderiv" pend.xml --npy d --csv'
run 2 '"$BIN/mjderiv" pend.xml --bogus'
# sleeping islands are not simulated, nor differentiated: the flag refused by name
printf '%s\n' '<mujoco><option><flag sleep="enable"/></option><worldbody>' \
  '<body><joint/><geom size=".1"/></body></worldbody></mujoco>' >nap.xml
run 2 '"$BIN/mjderiv" nap.xml'
same err "mjderiv: nap.xml: option flag 'sleep': not supported by this simulator"
# history buffers (delayed actuators and sensors): not differentiated yet, refused by name
printf '%s\n' '<mujoco><worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>' \
  '<actuator><motor joint="j" nsample="2" delay="0.004"/></actuator></mujoco>' >late.xml
run 2 '"$BIN/mjderiv" late.xml'
same err "mjderiv: late.xml: history buffers (nsample, delay): not supported by mjderiv yet"


# ---- values -------------------------------------------------------------------------------------
# at rest at the bottom, semi-implicit Euler: v' = v + h a, q' = q + h v' with
# a = (u - m g c q) / I (m = 1, com at c = 0.25 below the hinge), so B = (h^2, h) / I,
# dv'/dq = -h m g c / I = -m g c B[1], dq'/dq = 1 + h dv'/dq, dq'/dv = h, dv'/dv = 1; the
# sensors are (q, v): C = identity, D = 0
run 0 '"$BIN/mjderiv" pend.xml --csv --method fd --centered'
has out '^frame,block,row,col,value$'
has out '^0,A,0,1,0.01$'
has out '^0,A,1,1,1$'
has out '^0,C,0,0,1$'
has out '^0,C,1,1,1$'
has out '^0,D,0,0,0$'
holds "$(wc -l <out)" -eq 13
awk -F, '{ v[$2 $3 $4] = $5 } END { e1 = v["A10"] + 9.81 * 0.25 * v["B10"];
  e2 = v["A00"] - 1 - 0.01 * v["A10"]; e3 = v["B00"] - 0.01 * v["B10"];
  print (e1 * e1 < 1e-16 && e2 * e2 < 1e-16 && e3 * e3 < 1e-16) ? "ok" : "bad" }' out >v
same v ok

# forward and centered agree to about eps on the smooth pendulum
run 0 '"$BIN/mjderiv" pend.xml --key tilt --csv --method fd'
mv out fwd.csv
run 0 '"$BIN/mjderiv" pend.xml --key tilt --csv --method fd --centered'
paste -d, fwd.csv out | awk -F, 'NR > 1 { d = $5 - $10; if (d < 0) d = -d; if (d > m) m = d }
  END { print (m < 1e-5) ? "ok" : "bad " m }' >v
same v ok

# at the upper bound of the control the difference is one-sided and B is still the gain
printf 'ctrl[0]\n1\n' | "$BIN/mjdump" --from-csv pend.xml >bound.mjt
run 0 '"$BIN/mjderiv" pend.xml bound.mjt --csv --method fd --centered --blocks B'
awk -F, '$2 == "B" && $3 == 1 { print ($5 > 0) ? "ok" : "bad" }' out >v
same v ok

# ---- outputs ------------------------------------------------------------------------------------
# one set per frame: 21 frames; NumPy shapes (frames, rows, cols)
run 0 '"$BIN/mjderiv" pend.xml pend.mjt --npy jac'
has jac/A.npy "'shape': (21, 2, 2)"
has jac/B.npy "'shape': (21, 2, 1)"
has jac/C.npy "'shape': (21, 2, 2)"
has jac/D.npy "'shape': (21, 2, 1)"
holds "$(wc -c <jac/A.npy)" -eq $((128 + 21 * 4 * 8))
run 0 '"$BIN/mjderiv" pend.xml pend.mjt --npy only --blocks A,D'
holds -f only/A.npy -a -f only/D.npy -a ! -e only/B.npy -a ! -e only/C.npy

# the stream: a 64-byte header, then 21 frames of marker, 12 values and CRC; from standard
# input the same bytes; threads give the same bytes as one
run 0 '"$BIN/mjderiv" pend.xml pend.mjt -o one.jac'
holds "$(wc -c <one.jac)" -eq $((64 + 21 * (8 + 12 * 8)))
holds "$(head -c 8 one.jac)" = MJDERIV1
run 0 '"$BIN/mjderiv" pend.xml - <pend.mjt >stdin.jac'
run 0 'cmp one.jac stdin.jac'
run 0 '"$BIN/mjderiv" pend.xml pend.mjt --threads 3 -o three.jac'
run 0 'cmp one.jac three.jac'

# frames go out a chunk of about 8 MB at a time: a chain of 40 hinges (A alone is 80 x 80
# numbers, 51 KB a frame, 163 frames a chunk) over 400 frames crosses two chunk boundaries;
# threads give the same bytes, the NumPy file the stream's values, and frame 399 computed
# alone (a stream of steps 0 and 399) the same Jacobian as in the long run
awk 'BEGIN { print "<mujoco><option timestep=\"0.002\"/><worldbody>"
  for (i = 0; i < 40; i++) print "<body pos=\"0 0 -0.1\"><joint axis=\"0 1 0\" damping=\"0.1\"/>" \
    "<geom type=\"capsule\" fromto=\"0 0 0 0 0 -0.1\" size=\"0.01\"/>"
  for (i = 0; i < 40; i++) print "</body>"
  print "</worldbody></mujoco>" }' >chain.xml
run 0 '"$BIN/mjstep" chain.xml -n 399 -o chain.mjt'
run 0 '"$BIN/mjderiv" chain.xml chain.mjt --blocks A -o chain1.jac'
run 0 '"$BIN/mjderiv" chain.xml chain.mjt --blocks A --threads 3 -o chain3.jac'
run 0 'cmp chain1.jac chain3.jac'
holds "$(wc -c <chain1.jac)" -eq $((64 + 400 * (8 + 6400 * 8)))
run 0 '"$BIN/mjderiv" chain.xml chain.mjt --blocks A --npy chainnpy'
for k in 0 162 163 326 399; do
  run 0 "cmp -n 51200 -i $((128 + k * 51200)):$((64 + k * 51208 + 4)) chainnpy/A.npy chain1.jac"
done
run 0 '"$BIN/mjstep" chain.xml -n 399 --every 399 -o last.mjt'
run 0 '"$BIN/mjderiv" chain.xml last.mjt --blocks A -o last.jac'
run 0 "cmp -n 51208 -i $((64 + 51208)):$((64 + 399 * 51208)) last.jac chain1.jac"

# ---- the analytic method: the same A and B as centered differences, within their error ------
cat >dpend.xml <<'XML'
<mujoco>
  <option><flag contact="disable"/></option>
  <worldbody>
    <body><joint name="a" damping="0.2"/><geom type="capsule" fromto="0 0 0 0 0 -1" size="0.05"/>
      <body pos="0 0 -1"><joint name="b"/><geom type="capsule" fromto="0 0 0 0 0 -1" size="0.05"/>
      </body>
    </body>
  </worldbody>
  <actuator><motor joint="a"/><position joint="b" kp="3"/></actuator>
</mujoco>
XML
# agree MODEL [BLOCKS]: the analytic BLOCKS (default A,B) of MODEL's initial state equal the
# centered differences' within 1e-8 relative (their error): max |e| / max(1, max |entry|)
agree() {
  blocks=${2:-A,B}
  run 0 "\"\$BIN/mjderiv\" $1 --method analytic --blocks $blocks --csv -o exact.csv"
  run 0 "\"\$BIN/mjderiv\" $1 --method fd --centered --blocks $blocks --csv -o fd.csv"
  cmd="analytic $blocks against centered differences on $1"
  paste -d, exact.csv fd.csv | awk -F, 'NR > 1 { e = $5 - $10; if (e < 0) e = -e;
    a = $10 < 0 ? -$10 : $10; if (e > m) m = e; if (a > s) s = a }
    END { if (s < 1) s = 1; print (m / s < 1e-8) ? "close" : "far " m / s }' >out
  same out close
}
agree dpend.xml
run 0 '"$BIN/mjderiv" rk4.xml --method analytic --blocks A -o /dev/null'
# a tilted box pressed into a plane goes through the contact solve (the implicit function
# theorem): again the centered differences' A and B within their error
cat >contact.xml <<'XML'
<mujoco>
  <worldbody>
    <geom type="plane" size="1 1 0.1"/>
    <body pos="0 0 0.098" euler="3 2 0"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>
  </worldbody>
</mujoco>
XML
agree contact.xml
# the sensors of the box (touch, accelerometer, gyro, velocimeter, frame, force, torque and
# subtree sensors, pressed into the plane): analytic C and D against centered differences
cat >sensors.xml <<'XML'
<mujoco>
  <worldbody>
    <geom type="plane" size="1 1 0.1"/>
    <body pos="0 0 0.098" euler="3 2 0"><freejoint/><geom type="box" size="0.1 0.1 0.1"/>
      <site name="s" type="box" size="0.11 0.11 0.11" euler="10 0 20"/></body>
  </worldbody>
  <sensor><touch site="s"/><accelerometer site="s"/><gyro site="s"/><velocimeter site="s"/>
    <framepos objtype="site" objname="s"/><framequat objtype="site" objname="s"/>
    <force site="s"/><torque site="s"/><subtreeangmom body="world"/>
    <subtreelinvel body="world"/></sensor>
</mujoco>
XML
agree sensors.xml C,D
# a contact not differentiated yet (the box on an ellipsoid through libccd's MPR) is refused
# with its reason, nothing written
sed 's|type="plane" size="1 1 0.1"|type="ellipsoid" size="1 1 0.1"|
     s|<mujoco>|<mujoco><option><flag nativeccd="disable"/></option>|' contact.xml >ellipsoid.xml
run 2 '"$BIN/mjderiv" ellipsoid.xml --method analytic --blocks A,B -o bad.jac'
has err 'frame 0: the analytic method cannot differentiate it: .*MPR.*not differentiated'
holds ! -e bad.jac

# a DC motor's current state is not differentiated yet: refused naming the actuator, nothing
# written
cat >dcmotor.xml <<'XML'
<mujoco>
  <worldbody><body><joint name="j"/><geom size="0.1" mass="1"/></body></worldbody>
  <actuator>
    <dcmotor name="dc" joint="j" motorconst="1" resistance="2" inductance="0 0.01"/>
  </actuator>
</mujoco>
XML
run 2 '"$BIN/mjderiv" dcmotor.xml --method analytic --blocks A -o bad.jac'
has err "actuator 'dc': DC motor with a current state or cogging: not differentiated yet"
holds ! -e bad.jac

# --check: both methods on the pendulum's stream (all four blocks) agree within 1e-6 with
# centered differences, exit 0 and a line per block; a zero tolerance finds their error
run 0 '"$BIN/mjderiv" pend.xml pend.mjt --check --centered --rtol 1e-6'
has out '^block  max_rel_diff'
awk '$1 ~ /^[ABCD]$/ { n++; if ($2 > 1e-6) bad = 1 } END { print (n == 4 && !bad) ? "ok" : "bad" }' \
  out >v
same v ok
run 1 '"$BIN/mjderiv" pend.xml pend.mjt --check --centered --rtol 0'
has out '^A  '
# a ball settling on a box's face: a contact of two surface features (no edge, so no lift);
# exact and centered differences agree (frames 5-19, past the first touch), and under make
# memcheck the feature's unused edge direction is not read uninitialized (it was: a
# conditional jump in mjd_constraintAcc)
cat >ballbox.xml <<'XML'
<mujoco model="ballbox">
  <worldbody>
    <geom type="box" size="0.5 0.5 0.1"/>
    <body pos="0 0 0.149"><freejoint/><geom type="sphere" size="0.05" mass="1"/></body>
  </worldbody>
</mujoco>
XML
run 0 '"$BIN/mjstep" ballbox.xml -n 20 -o ballbox.mjt'
run 0 '"$BIN/mjderiv" ballbox.xml ballbox.mjt --range 5:20 --check --centered --rtol 1e-6'
awk '$1 ~ /^[AB]$/ { n++; if ($2 > 1e-6) bad = 1 } END { print (n >= 2 && !bad) ? "ok" : "bad" }' \
  out >v
same v ok
# moving surfaces (geom surfacevel): a ball on a static conveyor box, a capsule whose own
# surface runs lying on a running floor; aref's -B (surface velocity in the contact frame)
# turns with the frame and the capsule: exact and centered differences agree (frames 5-59;
# without that term in the exact one, 0.58)
cat >belt.xml <<'XML'
<mujoco model="belt">
  <worldbody>
    <geom type="plane" size="5 5 .1" surfacevel="0 0.2"/>
    <geom type="box" size="0.6 0.2 0.05" pos="0 0 0.3" euler="0 -6 0" surfacevel="0.4"/>
    <body pos="-0.3 0.02 0.43"><freejoint/><geom size="0.08" mass="0.5"/></body>
    <body pos="-1.5 0.5 0.05" euler="0 80 30">
      <freejoint/>
      <geom type="capsule" size="0.05 0.15" mass="1" surfacevel="0.1 0 -0.3 0 0 0.5"/>
    </body>
  </worldbody>
</mujoco>
XML
run 0 '"$BIN/mjstep" belt.xml -n 60 -o belt.mjt'
run 0 '"$BIN/mjderiv" belt.xml belt.mjt --range 5:61 --check --centered --rtol 1e-6'
awk '$1 ~ /^[AB]$/ { n++; if ($2 > 1e-6) bad = 1 } END { print (n >= 2 && !bad) ? "ok" : "bad" }' \
  out >v
same v ok
# adhesive contacts (geom adhesion): a ball resting on a sticky floor, a capsule caught across a
# sticky ceiling's gap (its normal row alone), a box on the floor; the passive pull -delta
# J_n' turns with the normal and aref's R delta moves with the impedance: exact and centered
# differences agree, the touch and force sensors' too (frames 22-60; without those terms,
# 0.56; frame 21 has a row at its kink within the differences' 1e-6)
cat >sticky.xml <<'XML'
<mujoco model="sticky">
  <worldbody>
    <geom type="plane" size="5 5 .1" adhesion="0.5" gap="0.02"/>
    <geom type="plane" size="5 5 .1" pos="0 0 1" euler="180 0 0" adhesion="2" gap="0.03"/>
    <body pos="0 0 0.049">
      <freejoint/><geom size="0.05" mass="0.5" adhesion="1"/><site name="s" size="0.06"/>
    </body>
    <body pos="1 0 0.95" euler="0 80 30">
      <freejoint/><geom type="capsule" size="0.03 0.1" mass="0.2" adhesion="1"/>
    </body>
    <body pos="-1 0 0.06" euler="10 0 0">
      <freejoint/><geom type="box" size="0.1 0.08 0.05" mass="1" adhesion="0.3"/>
    </body>
  </worldbody>
  <sensor><touch site="s"/><force site="s"/></sensor>
</mujoco>
XML
run 0 '"$BIN/mjstep" sticky.xml -n 60 -o sticky.mjt'
run 0 '"$BIN/mjderiv" sticky.xml sticky.mjt --range 22:61 --check --centered --rtol 1e-6'
awk '$1 ~ /^[AC]$/ { n++; if ($2 > 1e-6) bad = 1 } END { print (n >= 2 && !bad) ? "ok" : "bad" }' \
  out >v
same v ok
# a sensor not differentiated yet (a geom normal) is refused by name; A and B still go
gap='<sensor><normal name="gap" body1="world" body2="box"/></sensor>'
sed "s|</worldbody>|</worldbody>$gap|; s|<body pos|<body name=\"box\" pos|" contact.xml >gap.xml
run 2 '"$BIN/mjderiv" gap.xml --method analytic -o bad.jac'
has err "sensor 'gap': not differentiated yet"
holds ! -e bad.jac
run 0 '"$BIN/mjderiv" gap.xml --method analytic --blocks A,B -o /dev/null'

# ---- errors: one line, exit 2, nothing written --------------------------------------------------
run 2 '"$BIN/mjderiv" pend.xml other.mjt -o bad.jac'
has err '^mjderiv: '
holds "$(wc -l <err)" -eq 1
holds ! -e bad.jac
printf 'qpos[0],qvel[0]\n0.1,nan\n' | "$BIN/mjdump" --from-csv pend.xml >nan.mjt
run 2 '"$BIN/mjderiv" pend.xml nan.mjt --npy nanjac'
has err 'frame 0: qvel\[0\].* is nan: the state must be finite'
holds ! -e nanjac
run 2 '"$BIN/mjderiv" pend.xml --key nosuch -o bad.jac'
has err "unknown keyframe 'nosuch'"
holds ! -e bad.jac
run 2 '"$BIN/mjderiv" pend.xml -o /nonexistent/dir/out.jac'
has err '/nonexistent/dir'
run 2 '"$BIN/mjderiv" rk4.xml --method fd -o bad.jac'
has err 'RK4'
holds ! -e bad.jac
head -c 100 pend.mjt >cut.mjt
run 2 '"$BIN/mjderiv" pend.xml cut.mjt -o bad.jac'
has err 'truncated'
holds ! -e bad.jac

finish mjderiv.sh
