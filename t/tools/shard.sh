#!/bin/sh
# shard.sh: tests of sharded runs: mjstep --batch and --random, mjderiv and mjrender with
# --shard i/n and --range a:b, merged by mjcat (or put together) into the bytes of one run for
# N items in {0, 1, 7, 100} and n shards in {1, 2, 3, N, N+1}, on 1 and 2 threads; trajectory
# k's independence of everything but (model, options, seed, k); a shard killed by SIGTERM and
# run again; and each error with exit status 2, one line and no output file.
#   BIN=/path/to/bin sh t/tools/shard.sh
. "$(dirname "$0")/lib.sh"

# ---- inputs -------------------------------------------------------------------------------------
# a box dropped on a plane (a free joint: qpos noise moves its quaternion along the tangent
# space) and a damped arm with a motor
cat >drop.xml <<'XML'
<mujoco model="drop">
  <option timestep="0.005"/>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1"/>
    <body name="box" pos="0 0 0.3">
      <freejoint/>
      <geom type="box" size="0.05 0.05 0.05" mass="0.2"/>
    </body>
    <body name="arm" pos="0.5 0 0.5">
      <joint name="hinge" axis="0 1 0" damping="0.1"/>
      <geom type="capsule" fromto="0 0 0 0 0 -0.3" size="0.03"/>
    </body>
  </worldbody>
  <actuator><motor joint="hinge" ctrlrange="-1 1"/></actuator>
  <sensor><framepos objtype="body" objname="box"/></sensor>
</mujoco>
XML
run 0 '"$BIN/mjc" compile drop.xml -o drop.mjb'
sed 's/damping="0.1"/damping="0.2"/' drop.xml >other.xml

# N initial states: the default state with noise, one frame each (N = 0: an empty stream)
for N in 0 1 7 100; do
  run 0 '"$BIN/mjstep" drop.mjb --random $N -n 0 --qpos-noise 0.1 --qvel-noise 0.5 --seed 9 \
    -o starts$N.mjt'
done
run 0 '"$BIN/mjdump" starts7.mjt'
holds "$(wc -l <out)" -eq 8

# the shard counts for N items: 1, 2, 3, N, N+1 (without repeats, n >= 1)
counts() {
  for n in 1 2 3 "$1" $(($1 + 1)); do [ "$n" -ge 1 ] && echo "$n"; done | sort -nu
}

# parts N WHOLE CMD: shards 0..N-1 of the tool command line CMD (its -o part.i added; the
# odd ones on 2 threads when CMD ends in --threads), merged by mjcat: fail unless the merge is
# the file WHOLE
parts() {
  nparts=$1 whole=$2 tool=$3 files= i=0
  while [ "$i" -lt "$nparts" ]; do
    run 0 "$tool$((i % 2 + 1)) --shard $i/$nparts -o part.$i"
    files="$files part.$i" i=$((i + 1))
  done
  run 0 '"$BIN/mjcat" $files -o part.merged'
  cmp -s part.merged "$whole" || { echo "FAIL: $tool: $nparts parts merged differ from one run"; failures=$((failures + 1)); }
  rm -f part.*
}

# ---- mjstep --batch: merged shards are the single run, whatever n and the threads -------------
# (control noise too: every step's controls are drawn from (seed, trajectory, step))
opts="-n 20 --every 5 --ctrl-noise 0.3 --seed 4"
for N in 0 1 7 100; do
  run 0 '"$BIN/mjstep" drop.mjb --batch starts$N.mjt $opts --threads 1 -o whole$N.mjt'
  run 0 '"$BIN/mjstep" drop.mjb --batch starts$N.mjt $opts --threads 2 -o whole$N.t2'
  cmd="threads 1 and 2, N=$N"
  holds -s whole$N.mjt -a -s whole$N.t2
  cmp -s whole$N.mjt whole$N.t2 || { echo "FAIL: $cmd: the outputs differ"; failures=$((failures + 1)); }
  for n in $(counts $N); do
    parts "$n" whole$N.mjt "\"\$BIN/mjstep\" drop.mjb --batch starts$N.mjt $opts --threads "
  done
done
# the frames: N trajectories of 20/5 + 1 = 5 frames
run 0 '"$BIN/mjdump" whole7.mjt'
holds "$(wc -l <out)" -eq 36

# the stdout route: the parts one after another on one input, as parallel -k prints them
run 0 '"$BIN/mjstep" drop.mjb --batch starts7.mjt $opts --shard 0/3 >p.0 &&
  "$BIN/mjstep" drop.mjb --batch starts7.mjt $opts --shard 1/3 >p.1 &&
  "$BIN/mjstep" drop.mjb --batch starts7.mjt $opts --shard 2/3 >p.2 &&
  cat p.0 p.1 p.2 | "$BIN/mjcat" >stdin.mjt'
cmp -s stdin.mjt whole7.mjt || { echo "FAIL: mjcat of one input: differs from one run"; failures=$((failures + 1)); }

# --range a:b is the same as the shard that holds a..b-1: shard 1 of 3 of 7 is items 2..3
run 0 '"$BIN/mjstep" drop.mjb --batch starts7.mjt $opts --range 2:4 -o r.mjt'
cmp -s r.mjt p.1 || { echo "FAIL: --range 2:4 differs from --shard 1/3"; failures=$((failures + 1)); }
# --shard 0/1 is a part too, merged alone into the whole run; a whole run passes mjcat as it is
run 0 '"$BIN/mjstep" drop.mjb --batch starts7.mjt $opts --shard 0/1 | "$BIN/mjcat" >s01.mjt'
cmp -s s01.mjt whole7.mjt || { echo "FAIL: --shard 0/1 merged differs from one run"; failures=$((failures + 1)); }
run 0 '"$BIN/mjcat" whole7.mjt >w.mjt'
cmp -s w.mjt whole7.mjt || { echo "FAIL: mjcat of a whole run changed it"; failures=$((failures + 1)); }

# ---- mjstep --random: trajectory k depends on (model, options, seed, k) only -----------------
ropts="-n 20 --every 4 --qpos-noise 0.05 --qvel-noise 0.2 --act-noise 0.1 --ctrl-noise 0.5"
run 0 '"$BIN/mjstep" drop.mjb --random 7 $ropts --seed 11 -o rand7.mjt'
run 0 '"$BIN/mjstep" drop.mjb --random 9 $ropts --seed 11 --threads 2 -o rand9.mjt'
for n in 2 3 8; do
  parts "$n" rand7.mjt "\"\$BIN/mjstep\" drop.mjb --random 7 $ropts --seed 11 --threads "
done
# the 7 trajectories of a run of 9 are those of the run of 7: the same frames after the header
# (a state frame: 4 + 8 (1 + 8 + 7) + 4 bytes, 6 frames a trajectory)
tail -c +65 rand7.mjt >body7
head -c $((64 + 7 * 6 * 136)) rand9.mjt | tail -c +65 >body9
cmd="--random 9's first 7 trajectories"
holds "$(wc -c <body7)" -eq $((7 * 6 * 136))
cmp -s body7 body9 || { echo "FAIL: $cmd differ from --random 7's"; failures=$((failures + 1)); }
# another seed: other trajectories
run 0 '"$BIN/mjstep" drop.mjb --random 7 $ropts --seed 12 -o seed12.mjt'
cmd="--seed 12 against --seed 11"
holds "$(cmp seed12.mjt rand7.mjt | wc -l)" -eq 1

# ---- mjderiv: frames as items -----------------------------------------------------------------
run 0 '"$BIN/mjstep" drop.mjb -n 6 --fields state,ctrl -o traj.mjt'
run 0 '"$BIN/mjderiv" drop.mjb traj.mjt --threads 2 -o whole.jac'
for n in 1 2 3 7 8; do
  parts "$n" whole.jac "\"\$BIN/mjderiv\" drop.mjb traj.mjt --threads "
done
run 0 '"$BIN/mjderiv" drop.mjb traj.mjt --method fd --range 0:3 -o fd.0'
run 0 '"$BIN/mjderiv" drop.mjb traj.mjt --method fd --range 3:7 -o fd.1'
run 0 '"$BIN/mjderiv" drop.mjb traj.mjt --method fd -o fd.whole'
run 0 '"$BIN/mjcat" fd.0 fd.1 -o fd.merged'
cmp -s fd.merged fd.whole || { echo "FAIL: mjderiv --method fd: merged ranges differ"; failures=$((failures + 1)); }
# parts of the two methods do not merge: their headers differ
run 2 '"$BIN/mjcat" fd.0 part.1 -o no.jac'
run 0 '"$BIN/mjderiv" drop.mjb traj.mjt --range 3:7 -o an.1'
run 2 '"$BIN/mjcat" fd.0 an.1 -o no.jac'
has err '^mjcat: an.1: other fields, sizes or options than fd.0'
holds ! -e no.jac

# ---- mjrender: the shards' directories together are the single run's ---------------------------
mkdir all s0 s1 s2
run 0 '"$BIN/mjrender" drop.mjb traj.mjt --width 32 --height 24 --every 2 -o all/f%02d.png'
for i in 0 1 2; do
  run 0 '"$BIN/mjrender" drop.mjb traj.mjt --width 32 --height 24 --every 2 --shard $i/3 \
    -o s$i/f%02d.png'
done
cmd="mjrender shards"
holds "$(ls all | tr '\n' ' ')" = "f00.png f01.png f02.png f03.png "
holds "$(ls s0 s1 s2 | grep png | tr '\n' ' ')" = "f00.png f01.png f02.png f03.png "
for f in all/*.png; do
  cmp -s "$f" s*/"$(basename "$f")" || { echo "FAIL: $cmd: $f differs"; failures=$((failures + 1)); }
done
run 0 '"$BIN/mjrender" drop.mjb traj.mjt --width 8 --height 6 --raw >raw.all &&
  for i in 0 1 2 3 4; do "$BIN/mjrender" drop.mjb traj.mjt --width 8 --height 6 --raw \
    --shard $i/5; done >raw.parts'
cmp -s raw.all raw.parts || { echo "FAIL: mjrender --raw shards differ"; failures=$((failures + 1)); }

# ---- a shard killed by SIGTERM leaves no file; run again, the merge is the single run --------
kopts="--random 2 -n 100000 --every 5000"
run 0 '"$BIN/mjstep" drop.mjb $kopts -o kwhole.mjt'
# (in a shell of its own, whose report of the killed job goes to /dev/null)
status=$(sh -c '"$0" drop.mjb $1 --shard 1/2 -o k.1 & pid=$!; sleep 0.2; kill -TERM $pid
  wait $pid; echo $?' "$BIN/mjstep" "$kopts" 2>/dev/null)
cmd="killed shard"
holds "$status" -eq 143
holds "$(ls -a | grep -c '^k\.1')" -eq 0
run 0 '"$BIN/mjstep" drop.mjb $kopts --shard 0/2 -o k.0 && "$BIN/mjstep" drop.mjb $kopts --shard 1/2 -o k.1'
run 0 '"$BIN/mjcat" k.0 k.1 -o k.merged'
cmp -s k.merged kwhole.mjt || { echo "FAIL: $cmd: the merge after a re-run differs"; failures=$((failures + 1)); }

# ---- bad shard specifications: exit 2, one line, nothing written --------------------------------
for spec in "--shard 3/3" "--shard 0/0" "--shard 1" "--shard -1/2" "--shard a/b" "--range 5:3" \
            "--range 2" "--range 0:8" "--shard 0/2 --range 0:1"; do
  run 2 '"$BIN/mjstep" drop.mjb --batch starts7.mjt -n 2 $spec -o bad.mjt'
  has err "^mjstep: --\(shard\|range\)"
  holds ! -e bad.mjt
done
run 2 '"$BIN/mjstep" drop.mjb -n 2 --shard 0/2 -o bad.mjt'
has err '^mjstep: --shard 0/2 applies to --batch and --random only'
run 2 '"$BIN/mjstep" drop.mjb --batch starts7.mjt --random 3 -n 2 -o bad.mjt'
has err '^mjstep: give one of --batch and --random'
run 2 '"$BIN/mjstep" drop.mjb --random 3 -n 2 --qpos-noise -1 -o bad.mjt'
has err '^mjstep: --qpos-noise: expected a standard deviation >= 0'
run 2 '"$BIN/mjstep" drop.mjb --random 3 -n 2 --seed x -o bad.mjt'
has err '^mjstep: --seed: expected an unsigned 64-bit integer'
run 2 '"$BIN/mjderiv" drop.mjb traj.mjt --range 0:8 -o bad.jac'
has err '^mjderiv: --range 0:8: the run has 7 items (0..6)'
run 2 '"$BIN/mjderiv" drop.mjb traj.mjt --shard 0/2 --csv -o bad.jac'
has err '^mjderiv: --shard 0/2: parts are Jacobian streams for mjcat'
run 2 'cat traj.mjt | "$BIN/mjrender" drop.mjb - --raw --shard 0/2'
has err "^mjrender: stdin: --shard 0/2 counts the stream's frames first: give a file"
holds ! -e bad.mjt -a ! -e bad.jac

# ---- bad merges: exit 2, one line naming the part, no output file --------------------------------
s="drop.mjb --batch starts7.mjt $opts"
run 0 '"$BIN/mjstep" $s --shard 0/3 -o a.0 && "$BIN/mjstep" $s --shard 1/3 -o a.1 &&
  "$BIN/mjstep" $s --shard 2/3 -o a.2'
run 0 '"$BIN/mjstep" $s --shard 1/3 --fields time,qpos -o fields.1'
run 0 '"$BIN/mjstep" drop.mjb --batch starts7.mjt -n 20 --every 5 --ctrl-noise 0.3 --seed 5 \
  --shard 1/3 -o seed.1'
run 0 '"$BIN/mjstep" drop.mjb --batch starts100.mjt $opts --shard 1/3 -o total.1'
head -c 1000 a.1 >trunc.1
head -c 100 a.1 >record.1
# mergefails PARTS PATTERN: mjcat PARTS -o out.mjt fails with one line matching PATTERN
mergefails() {
  parts=$1
  run 2 '"$BIN/mjcat" $parts -o out.mjt'
  has err "^mjcat: $2"
  holds "$(wc -l <err)" -eq 1
  holds ! -e out.mjt
}
mergefails "a.0 a.2" 'a.2: items 2..3 missing before it (the part holds items 4..6)'
mergefails "a.0 a.1" 'items 4..6 missing after the last part (a.1), of a run of 7'
mergefails "a.1 a.2" 'a.1: items 0..1 missing before it'
mergefails "a.0 a.1 a.1 a.2" 'a.1: its items 2..3 overlap the parts before it'
mergefails "a.0 a.2 a.1" 'a.2: items 2..3 missing before it'
mergefails "a.0 fields.1 a.2" 'fields.1: other fields, sizes or options than a.0'
mergefails "a.0 seed.1 a.2" 'seed.1: a part of another run than a.0 (other options or inputs)'
mergefails "a.0 total.1 a.2" 'total.1: a part of another run than a.0'
mergefails "a.0 trunc.1 a.2" 'trunc.1: truncated frame 6 (56 of 136 bytes)'
mergefails "a.0 record.1 a.2" 'record.1: truncated range record (36 of 64 bytes)'
mergefails "a.0 whole7.mjt" 'whole7.mjt: a whole run.s stream (no range record) merges with no other part'
mergefails "a.0 traj.mjt" 'traj.mjt: a whole run.s stream'
mergefails "a.0 drop.xml" 'drop.xml: not a state or Jacobian stream (bad magic)'
mergefails "a.0 a.1 a.2 a.2" 'a.2: its items 4..6 overlap'
mergefails "nothere" 'nothere: No such file'
run 0 '"$BIN/mjstep" drop.mjb --random 7 $ropts --shard 0/3 -o m.0'
run 0 '"$BIN/mjstep" other.xml --random 7 $ropts --shard 1/3 -o model.1'
mergefails "m.0 model.1" 'model.1: a part of another model than m.0'
# a part's extra frames: a part followed by a frame of another
{ cat a.0; tail -c 136 a.1; } >extra.0
mergefails "extra.0 a.1 a.2" 'extra.0: more frames than its items 0..1 hold (10)'
: >empty
mergefails "a.0 empty" 'empty: empty input (no stream)'

# ---- usage --------------------------------------------------------------------------------------
run 0 '"$BIN/mjcat" --help'
has out '^usage: mjcat'
run 0 '"$BIN/mjcat" --version'
has out '^mjcat '
run 2 '"$BIN/mjcat" --frobnicate'
has err '^mjcat: unknown option'
run 2 '"$BIN/mjcat" - -'
has err '^mjcat: standard input given twice'

finish shard.sh
