#!/bin/sh
# mjplan.sh: tests of mjplan on MuJoCo MPC's tasks (../shared/corpus/mpc) and the cost files of
# models/mpc: MuJoCo MPC's iLQG test on the particle (final position within 1e-2 of the goal,
# velocity within 0.1, controls within limits); the plan's cost recomputed from a replay of its
# controls by mjstep (an independent evaluation); the exact and the finite-difference
# Jacobians converging to the same cost; threads giving the same bytes; the cartpole brought
# to its goal and held under MPC, whose output mjstep replays byte for byte; the acrobot swung
# up from hanging down and held, its stage cost recomputed by hand; the A1 kept up under MuJoCo
# MPC's default gait schedule; usage and errors.
#   BIN=/path/to/bin sh t/tools/mjplan.sh
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
mpc=$root/../shared/corpus/mpc
costs=$root/models/mpc
[ -d "$mpc" ] || { echo "mjplan.sh: $mpc missing"; exit 1; }

# ---- usage --------------------------------------------------------------------------------------
run 0 '"$BIN/mjplan" --help'
has out '^usage: mjplan MODEL COST'
run 0 '"$BIN/mjplan" --version'
has out '^mjplan '
run 2 '"$BIN/mjplan"'
has err 'expected MODEL and COST'
run 2 '"$BIN/mjplan" "$mpc/particle/task.xml" "$costs/particle.cost" --mpc'
has err 'mpc needs -n STEPS'
run 2 '"$BIN/mjplan" "$mpc/particle/task.xml" "$costs/particle.cost" --deriv exact'
has err "analytic or fd, not 'exact'"
run 2 '"$BIN/mjplan" "$mpc/particle/task.xml" "$costs/particle.cost" --centered'
has err 'are for --deriv fd'
run 2 '"$BIN/mjplan" "$mpc/particle/task.xml" "$costs/particle.cost" --threads 0'
run 2 '"$BIN/mjplan" "$mpc/particle/task.xml" "$costs/particle.cost" --bogus'
# history buffers (delayed actuators and sensors): not differentiated, refused by name
printf '%s\n' '<mujoco><worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>' \
  '<actuator><motor joint="j" nsample="2" delay="0.004"/></actuator></mujoco>' >late.xml
printf 'term Q\n  r qpos[0]\n' >late.cost
run 2 '"$BIN/mjplan" late.xml late.cost'
same err 'mjplan: late.xml: history buffers (nsample, delay): not supported by mjplan yet'

# ---- MuJoCo MPC's iLQG test: the particle to the goal (horizon 2.5 s at 0.1 s, 25 iterations) --
cat >ilqg.cost <<'EOF'
# MuJoCo MPC's test residual: qpos - goal, qvel (the task's norms and weights)
term Position
  r qpos[0] - mocap(goal)[0]
  r qpos[1] - mocap(goal)[1]
term Velocity
  r qvel[0]
  r qvel[1]
EOF
run 0 '"$BIN/mjplan" "$mpc/particle/ilqg_test/particle_task.xml" ilqg.cost --horizon 2.5 --timestep 0.1 --iterations 25 --tol 0 --quiet -o ilqg.mjt'
run 0 '"$BIN/mjdump" ilqg.mjt'
cp out ilqg.csv
holds "$(wc -l <ilqg.csv)" -eq 27
# the last knot within 1e-2 of the goal (0.25, 0), its velocity within 0.1; every control in [-1, 1]
holds "$(awk -F, 'END { print ($2 - 0.25)^2 < 1e-4 && $3^2 < 1e-4 && $4^2 < 0.01 && $5^2 < 0.01 }' ilqg.csv)" = 1
holds "$(awk -F, 'NR > 1 && ($6 < -1 || $6 > 1 || $7 < -1 || $7 > 1) { bad++ } END { print bad + 0 }' ilqg.csv)" = 0

# ---- the plan's cost recomputed from mjstep's replay of its controls ---------------------------
# particle.cost: 5 * 0.5 |tip - goal|^2 + 0.1 * 0.5 |tip velocity|^2 + 0.1 * 0.5 |ctrl|^2 with
# task_risk 1: exp(c) - 1, the mean over the 51 knots (sensors: 9-11 position, 12-14 velocity,
# 15-17 the goal body)
run 0 '"$BIN/mjplan" "$mpc/particle/task.xml" "$costs/particle.cost" --quiet --log plan.csv -o plan.mjt'
planned=$(tail -n 1 plan.csv | cut -d, -f13)
run 0 '"$BIN/mjstep" "$mpc/particle/task.xml" --ctrl plan.mjt -n 50 --fields sensordata,ctrl | "$BIN/mjdump" -'
recomputed=$(awk -F, 'NR > 1 { c = 2.5 * (($12 - $18)^2 + ($13 - $19)^2) + 0.05 * ($15^2 + $16^2) + 0.05 * ($1^2 + $2^2); J += exp(c) - 1; n++ } END { printf "%.17g", J / n }' out)
holds "$(awk -v a="$planned" -v b="$recomputed" 'BEGIN { d = a - b; print (d < 0 ? -d : d) <= 1e-12 * b }')" = 1

# ---- exact and finite-difference Jacobians reach the same cost (contact-free tasks) ------------
for task in particle cartpole; do
  key=$([ "$task" = cartpole ] && echo "--key home" || echo "")
  for m in analytic fd; do
    run 0 '"$BIN/mjplan" "$mpc/$task/task.xml" "$costs/$task.cost" $key --horizon 1 --timestep 0.01 --deriv $m --log $task-$m.csv -o /dev/null --quiet'
  done
  a=$(tail -n 1 "$task-analytic.csv" | cut -d, -f13)
  f=$(tail -n 1 "$task-fd.csv" | cut -d, -f13)
  holds "$(awk -v a="$a" -v b="$f" 'BEGIN { d = a - b; print (d < 0 ? -d : d) <= 1e-6 * b }')" = 1
done

# ---- attribution: forward differences of the residual's Jacobians within 1e-4 of the exact ones
run 0 '"$BIN/mjplan" "$mpc/cartpole/task.xml" "$costs/cartpole.cost" --key home --horizon 1 --timestep 0.01 --iterations 2 --attribution attr.csv -o /dev/null --quiet'
has attr.csv '^iteration,step,knot,term,max_dx,max_du$'
# 2 iterations x knots 0, 5, ..., 95 x 4 terms
holds "$(wc -l <attr.csv)" -eq 161
holds "$(awk -F, 'NR > 1 && ($5 > 1e-4 || $6 > 1e-4) { bad++ } END { print bad + 0 }' attr.csv)" = 0

# ---- threads: the same bytes -------------------------------------------------------------------
run 0 '"$BIN/mjplan" "$mpc/cartpole/task.xml" "$costs/cartpole.cost" --key home --mpc -n 200 --threads 1 --quiet -o mpc1.mjt'
run 0 '"$BIN/mjplan" "$mpc/cartpole/task.xml" "$costs/cartpole.cost" --key home --mpc -n 200 --threads 2 --quiet -o mpc2.mjt'
run 0 'cmp mpc1.mjt mpc2.mjt'

# ---- MPC: the cartpole from x = 1 to the center, the pole held up; mjstep replays it -------------
run 0 '"$BIN/mjplan" "$mpc/cartpole/task.xml" "$costs/cartpole.cost" --key home --mpc -n 3000 --costs steps.csv -o cart.mjt'
has err 'mjplan: 3000 steps, 750 plans, average cost per step'
run 0 '"$BIN/mjdump" cart.mjt'
holds "$(wc -l <out)" -eq 3002
# the last second: the cart within 1 cm of 0, the pole within 0.01 rad of upright
holds "$(awk -F, 'NR > 2002 && ($2^2 > 1e-4 || $3^2 > 1e-4) { bad++ } END { print bad + 0 }' out)" = 0
holds "$(wc -l <steps.csv)" -eq 3001
has steps.csv '^step,time,cost,Vertical,Centered,Velocity,Control$'
run 0 '"$BIN/mjstep" "$mpc/cartpole/task.xml" --key home --ctrl cart.mjt -n 3000 --fields time,qpos,qvel,act,ctrl -o replay.mjt'
run 0 'cmp cart.mjt replay.mjt'

# ---- MPC: the acrobot swung up from hanging down and held ------------------------------------
# iLQG with a 4 s horizon, one iteration every step, planned before each step's action (the
# task's 2 s horizon settles with the lower link up, tip 2 from the target): from step 1858 on
# the tip stays within 0.1 of the target site (0, 0, 4); tip = (0, 0, 2) + (sin q0, cos q0)
# + (sin(q0 + q1), cos(q0 + q1)) in x, z
run 0 '"$BIN/mjplan" "$mpc/acrobot/task.xml" "$costs/acrobot.cost" --key home --mpc -n 2400 --horizon 4 --replan 1 --plan-first --threads 2 --costs acro.csv --quiet -o acro.mjt'
run 0 '"$BIN/mjdump" acro.mjt'
tip='function d(q0, q1) { return sqrt((2 - cos(q0) - cos(q0 + q1))^2 + (sin(q0) + sin(q0 + q1))^2) }'
# hanging at the start (4 from the target), within 0.1 for the last 4 s
holds "$(awk -F, "$tip"' NR == 2 { print (d($2, $3) > 3.99) }' out)" = 1
holds "$(awk -F, "$tip"' NR > 2002 && d($2, $3) > 0.1 { bad++ } END { print bad + 0 }' out)" = 0
# the stage cost of every step by hand: 50 * 0.5 d^2 + 0.5 |qvel|^2 + 0.05 * 0.5 ctrl^2
# (hanging: 400), within 1e-9 of mjplan's
holds "$(paste -d, out acro.csv | awk -F, "$tip"' NR > 1 && $7 != "" { c = 25 * d($2, $3)^2 + 0.5 * ($4^2 + $5^2) + 0.025 * $6^2; e = c - $9; if (e * e > 1e-18 * (1 + c * c)) bad++; n++ } END { print n, bad + 0 }')" = "2400 0"

# ---- MPC: the A1 under MuJoCo MPC's default schedule (quadruped_flat_default.cost) ---------------
# the hop for the first second, then the filtered speed, within trot's band (0.02, 0.6] m/s,
# picks trot at the first step past t = 1 s (step 500: 500 x 0.002 in floating point is just
# above 1), and no other change within 2 s; the trunk still up at the end (above 0.15 m).  The
# hop's closed loop is chaotic: the speed at step 500 moves with the plans' round-off (0.20
# before the exact Jacobians' summation order changed in the last bits, 0.06 after)
run 0 '"$BIN/mjplan" "$mpc/quadruped_flat/task.xml" "$costs/quadruped_flat_default.cost" --key home --mpc -n 1000 -o a1.mjt'
has err '^mjplan: step 500, time 1.0000: schedule auto: gait trot (speed 0\.[0-9]*)$'
holds "$(sed -n 's/^mjplan: step 500, .*gait trot (speed \([0-9.]*\))$/\1/p' err |
  awk '{ print ($1 > 0.02 && $1 <= 0.6) }')" = 1
holds "$(grep -c 'schedule auto' err)" -eq 1
run 0 '"$BIN/mjdump" a1.mjt'
holds "$(wc -l <out)" -eq 1002
holds "$(awk -F, 'END { print ($4 > 0.15) }' out)" = 1

# ---- predictive sampling: the cartpole held near the center, upright; threads and seeds ---------
run 0 '"$BIN/mjplan" "$mpc/cartpole/task.xml" "$costs/cartpole.cost" --key home --mpc -n 3000 --planner sampling --quiet -o samp.mjt'
run 0 '"$BIN/mjdump" samp.mjt'
# the last second: the cart within 0.15 of 0, the pole within 0.1 rad of upright (the spline
# of 10 points and the task's noise hold it less tightly than iLQG's feedback)
holds "$(awk -F, 'NR > 2002 && ($2^2 > 0.0225 || $3^2 > 0.01) { bad++ } END { print bad + 0 }' out)" = 0
run 0 '"$BIN/mjplan" "$mpc/cartpole/task.xml" "$costs/cartpole.cost" --key home --mpc -n 200 --planner sampling --threads 2 --quiet -o samp2.mjt'
run 0 '"$BIN/mjplan" "$mpc/cartpole/task.xml" "$costs/cartpole.cost" --key home --mpc -n 200 --planner sampling --quiet -o samp1.mjt'
run 0 'cmp samp1.mjt samp2.mjt'
run 0 '"$BIN/mjplan" "$mpc/cartpole/task.xml" "$costs/cartpole.cost" --key home --mpc -n 200 --planner sampling --seed 1 --quiet -o samp3.mjt'
run 1 'cmp -s samp1.mjt samp3.mjt'
run 0 '"$BIN/mjstep" "$mpc/cartpole/task.xml" --key home --ctrl samp1.mjt -n 200 --fields time,qpos,qvel,act,ctrl -o sreplay.mjt'
run 0 'cmp samp1.mjt sreplay.mjt'
# --iterations in --mpc: that many iterations at each re-plan (8 steps, every 4th: 2 x 3 rows)
run 0 '"$BIN/mjplan" "$mpc/cartpole/task.xml" "$costs/cartpole.cost" --key home --mpc -n 8 --iterations 3 --planner sampling --log slog.csv --quiet -o /dev/null'
holds "$(wc -l <slog.csv)" -eq 7
holds "$(cut -d, -f2 slog.csv | tr '\n' ' ')" = "step 0 0 0 4 4 4 "
# --plan-first: step 0's action from a plan started at its state (not the initial zero policy)
run 0 '"$BIN/mjplan" "$mpc/cartpole/task.xml" "$costs/cartpole.cost" --key home --mpc -n 4 --quiet -o - | "$BIN/mjdump" -'
holds "$(awk -F, 'NR == 2 { print ($6 == 0) }' out)" = 1
run 0 '"$BIN/mjplan" "$mpc/cartpole/task.xml" "$costs/cartpole.cost" --key home --mpc -n 4 --plan-first --log flog.csv --quiet -o - | "$BIN/mjdump" -'
holds "$(awk -F, 'NR == 2 { print ($6 != 0) }' out)" = 1
holds "$(cut -d, -f2 flog.csv | tr '\n' ' ')" = "step 0 "
run 2 '"$BIN/mjplan" "$mpc/cartpole/task.xml" "$costs/cartpole.cost" --plan-first -o none.mjt'
has err '^mjplan: --plan-first is for --mpc$'
run 2 '"$BIN/mjplan" "$mpc/cartpole/task.xml" "$costs/cartpole.cost" --seed 1 -o none.mjt'
has err '^mjplan: --seed is for --planner sampling$'
run 2 '"$BIN/mjplan" "$mpc/cartpole/task.xml" "$costs/cartpole.cost" --planner sampling --deriv fd -o none.mjt'
has err '^mjplan: --deriv and --attribution are for iLQG'
run 2 '"$BIN/mjplan" "$mpc/cartpole/task.xml" "$costs/cartpole.cost" --planner cem -o none.mjt'
has err "^mjplan: --planner: ilqg or sampling, not 'cem'$"
holds ! -e none.mjt

# ---- errors: one line naming the file and line, exit 2, no output -------------------------------
printf 'term Vertical\n  r pole_zaxis[2] * qpos[0]\n' >bad.cost
run 2 '"$BIN/mjplan" "$mpc/cartpole/task.xml" bad.cost -o none.mjt'
has err '^mjplan: bad.cost:2: a product of two quantities is not affine$'
holds ! -e none.mjt
printf 'term Vertical\n  r qpos[0]\n' >missing.cost
run 2 '"$BIN/mjplan" "$mpc/cartpole/task.xml" missing.cost -o none.mjt'
has err "the task's term 'Centered' (user sensor 1) has no rows here"
holds ! -e none.mjt
printf 'sensor <framepos name="p" objtype="site" objname="nosuch"/>\nterm A norm quadratic weight 1\n  r p[0]\n' >site.cost
run 2 '"$BIN/mjplan" "$mpc/cartpole/task.xml" site.cost -o none.mjt'
has err "with the cost file's sensors"
holds ! -e none.mjt
run 0 '"$BIN/mjc" compile "$mpc/cartpole/task.xml" -o cart.mjb'
run 2 '"$BIN/mjplan" cart.mjb "$costs/cartpole.cost" -o none.mjt'
has err 'the cost file adds sensors: MODEL must be an MJCF file'
holds ! -e none.mjt
printf 'gait g phase 0 duty 0 cadence 1 amplitude 1\nschedule s gait g speed v filter 0 hold 1\n' >sched.cost
run 2 '"$BIN/mjplan" "$mpc/cartpole/task.xml" sched.cost -o none.mjt'
same err "mjplan: sched.cost:2: schedule 's': filter: expected a time > 0"
holds ! -e none.mjt
run 2 '"$BIN/mjplan" "$mpc/cartpole/task.xml" nosuch.cost -o none.mjt'
has err "could not open cost file 'nosuch.cost'"
holds "$(wc -l <err)" -eq 1

finish mjplan.sh
