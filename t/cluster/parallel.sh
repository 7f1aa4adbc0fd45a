#!/bin/sh
# parallel.sh: scripts/mjparallel.sh over GNU parallel: mjstep --batch sharded across two hosts
# and merged by mjcat is byte for byte the single run, by the stdout route and the file route,
# with more shards than trajectories too; a shard killed with SIGTERM leaves no file, fails the
# run, and --resume-failed reruns only it.  The hosts are directories on this machine reached
# through t/cluster/ssh.sh (no sshd), the files shipped and returned by parallel's rsync.
# GNU parallel and rsync must be installed (scripts/deps.sh): their absence is a failure.
#
#   BIN=/path/to/bin sh t/cluster/parallel.sh   (from the repository root; about 20 s)
root=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$(cd "${BIN:?set BIN to the directory holding the tools}" && pwd)
. "$root/t/tools/lib.sh"

# the tools needed: GNU parallel and rsync here, ours on the PATH (the hosts run them by name)
for tool in parallel rsync; do
  command -v $tool >/dev/null 2>&1 || {
    echo "FAIL: $tool is not installed (sh scripts/deps.sh installs it)"
    exit 1
  }
done
PATH=$BIN:$PATH
mjp="sh $root/scripts/mjparallel.sh"
ssh="--ssh $root/t/cluster/ssh.sh"
# a home of our own (parallel keeps state in ~/.parallel), the hosts' directories
HOME=$T/home HOSTS=$T/hosts
export PATH HOME HOSTS
mkdir home

# the model, 7 initial states (6 steps' frames and the start), the single run's output
twoJointArm
mjc compile arm.xml -o arm.mjb
mjstep arm.mjb -n 6 -o starts.mjt
mjstep arm.mjb --batch starts.mjt -n 200 -o single.mjt
# two hosts, with a user and a network part that ssh.sh ignores
printf '%s\n' alpha.example.org bob@beta.example.org >hostlist
ship="--sshloginfile hostlist $ssh --basefile arm.mjb --basefile starts.mjt"
batch="mjstep arm.mjb --batch starts.mjt"

# both routes, 3 shards and 8 (one shard empty): the merge is the single run; both hosts ran
# shards; nothing is left on the hosts (--cleanup) nor here but the output
for route in stdout files; do
  flag=
  [ $route = files ] && flag=--files
  for n in 3 8; do
    rm -rf hosts merged.mjt
    run 0 "$mjp -n $n $ship --joblog log.$route.$n $flag -o merged.mjt -- $batch -n 200"
    same err ""
    run 0 "cmp merged.mjt single.mjt"
    has "log.$route.$n" "	alpha\.example\.org	"
    has "log.$route.$n" "	bob@beta\.example\.org	"
    holds "$(awk -F'\t' 'NR > 1 && $7 == 0' "log.$route.$n" | wc -l)" -eq "$n"
    run 0 "find hosts -type f"
    same out ""
    run 0 "find . -name 'shard-*'"
    same out ""
  done
done

# this machine alone (-S :): no shipping, the same bytes, no warning from parallel
run 0 "$mjp -n 3 -S : -o merged.mjt -- $batch -n 200"
run 0 "cmp merged.mjt single.mjt"
run 0 "$mjp -n 3 -S : --files -o merged.mjt -- $batch -n 200"
same err ""
run 0 "cmp merged.mjt single.mjt"

# generated batches (no input file but the model): 10 noisy starts in 4 shards
mjstep arm.mjb --random 10 --seed 3 --qpos-noise 0.1 -n 100 -o random.mjt
run 0 "$mjp -n 4 --sshloginfile hostlist $ssh --basefile arm.mjb -o merged.mjt -- \
  mjstep arm.mjb --random 10 --seed 3 --qpos-noise 0.1 -n 100"
run 0 "cmp merged.mjt random.mjt"

# usage errors: exit 2, one line
run 2 "$mjp -n 3 --resume-failed --joblog log -o merged.mjt -- $batch -n 200"
has err "^mjparallel: --resume-failed needs --files"
run 2 "$mjp -n 3 -o merged.mjt -- $batch -n 200 --shard 0/2"
has err "^mjparallel: the command may not have --shard"
run 2 "$mjp -n 0 -o merged.mjt -- $batch -n 200"
has err "^mjparallel: -n needs a number of shards above 0"

# the pid of the mjstep running shard $1 (i/n) on one of our hosts (its directory is its cwd),
# once it runs; nothing after 20 s.  Only processes named mjstep are looked at closer.
shardPid() {
  i=0
  while [ $i -lt 200 ]; do
    for p in /proc/[0-9]*; do
      comm=
      read -r comm 2>/dev/null <"$p/comm"
      [ "$comm" = mjstep ] || continue
      case $(readlink "$p/cwd" 2>/dev/null) in "$HOSTS"/*) ;; *) continue ;; esac
      tr '\0' ' ' 2>/dev/null <"$p/cmdline" | grep -q -- "--shard $1 " &&
        { echo "${p#/proc/}"; return; }
    done
    sleep 0.1
    i=$((i + 1))
  done
}

# run $cmd in the background, kill shard $1 (i/n) with SIGTERM once it runs, wait: the run
# fails with exit 2
killShard() {
  eval "$cmd" >out 2>err &
  job=$!
  pid=$(shardPid "$1")
  holds -n "$pid"
  [ -z "$pid" ] || kill -TERM "$pid"
  wait $job
  holds $? -eq 2
}

# a long run (1e6 steps, every 10^5th frame kept), 3 shards by the file route; shard 1 killed
# with SIGTERM mid-way: the run fails naming it, no shard-1 here or on a host, the others kept
long="$batch -n 1000000 --every 100000 --threads 1"
mjstep arm.mjb --batch starts.mjt -n 1000000 --every 100000 -o single.long.mjt
rm -rf hosts log merged.mjt
cmd="$mjp -n 3 $ship --joblog log --files -o merged.mjt -- $long"
killShard 1/3
has err "^mjparallel: 1 of 3 shards failed (joblog log); rerun with --resume-failed"
holds ! -e merged.mjt
holds ! -e shard-1
holds -s shard-0
holds -s shard-2
run 0 "find hosts -type f"
same out ""
# the resume runs shard 1 alone (one more joblog line) and the merge is the single run
run 0 "$mjp -n 3 $ship --joblog log --resume-failed --files -o merged.mjt -- $long"
run 0 "cmp merged.mjt single.long.mjt"
holds "$(grep -c -- '--shard 1/3' log)" -eq 2
holds "$(grep -c -- '--shard [02]/3' log)" -eq 2
holds ! -e shard-0

# the stdout route loses a killed shard's run: exit 2 and no output
rm -f merged.mjt
cmd="$mjp -n 3 $ship -o merged.mjt -- $long"
killShard 2/3
has err "^mjparallel: 1 of 3 shards failed; merged.mjt not written"
holds ! -e merged.mjt

finish parallel.sh
