#!/bin/sh
# slurm.sh: sharded mjstep batches on a real Slurm cluster of one node (this machine): starts
# munged, slurmctld and slurmd with every file in a scratch directory and ports nobody uses,
# runs scripts/slurm/mjsubmit.sh (a job array of 3 shards and the mjcat merge) on a batch from
# a stream and on a generated one with 2 CPUs a task, and checks each merged stream byte for
# byte against the single run; a failing shard cancels the merge.  Stops the jobs and the
# daemons and removes the directory on every exit.  Needs root (slurmd starts the jobs as
# their submitter) and Debian's slurm-wlm and munge (scripts/deps.sh): without them it fails,
# it does not skip.
#
#   BIN=/path/to/bin sh t/cluster/slurm.sh        (as root; about 15 s)
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
. "$root/t/tools/lib.sh"
PATH=$PATH:/usr/sbin:/sbin

# ---- the cluster: munged, slurmctld and slurmd under $T --------------------------------------
for c in setsid munge munged slurmctld slurmd sbatch sinfo squeue scancel scontrol; do
  if ! command -v "$c" >/dev/null 2>&1; then
    echo "FAIL: t/cluster/slurm.sh: $c not found: install slurm-wlm and munge (scripts/deps.sh)"
    exit 1
  fi
done
if [ "$(id -u)" -ne 0 ]; then
  echo "FAIL: t/cluster/slurm.sh: needs root (slurmd runs the jobs as their submitter)"
  exit 1
fi

# the clients talk to this cluster only: its slurm.conf, none of an enclosing job's settings
export SLURM_CONF="$T/slurm.conf"
# shellcheck disable=SC2046  # the variables' names, one a word
unset MJSHARD_COUNT $(env | awk -F= '/^(SLURM|SBATCH)_/ && $1 != "SLURM_CONF" { print $1 }')

# whether a job step runs: its slurmstepd holds a socket in slurmd's spool until it ends
steps() {
  for f in "$T"/spool/*; do
    [ ! -S "$f" ] || return 0
  done
  return 1
}

# kill what is left of this cluster when a daemon died before its jobs (a slurmstepd that
# cannot report, ignoring SIGTERM, and its tool): the processes but this shell whose
# environment names this run's slurm.conf, which every daemon and job inherits
sweep() {
  for e in /proc/[0-9]*/environ; do
    p=${e#/proc/} && p=${p%/environ}
    [ "$p" != $$ ] || continue
    if tr '\0' '\n' 2>/dev/null <"$e" | grep -Fqx "SLURM_CONF=$SLURM_CONF"; then
      kill -KILL "$p" 2>/dev/null
    fi
  done
}

# stop the jobs while slurmctld runs and wait for their steps (10 s at most), then the
# daemons (this shell's children), then any straggler; remove $T
pids='' ctld=''
stop() {
  if [ -n "$ctld" ] && kill -0 "$ctld" 2>/dev/null; then
    scancel --user="$(id -un)" 2>/dev/null
    i=0
    while { [ -n "$(squeue -h -o %A 2>/dev/null)" ] || steps; } && [ $i -lt 50 ]; do
      sleep 0.2
      i=$((i + 1))
    done
  fi
  # shellcheck disable=SC2086  # $pids is a list of process ids
  [ -z "$pids" ] || { kill $pids; wait $pids; } 2>/dev/null
  sweep
  cd / && rm -rf "$T"
}
# on a signal, say so on the test's standard output (fd 3: run's commands redirect 1 and 2)
exec 3>&1
trap stop EXIT
trap 'echo "t/cluster/slurm.sh: interrupted" >&3; exit 1' INT TERM

# print the daemons' logs and fail: the cluster did not come up
broken() {
  echo "FAIL: t/cluster/slurm.sh: $1"
  for f in "$T"/log/*; do sed "s|^|  ${f##*/}: |" "$f" | tail -n 15; done
  exit 1
}

# the first of two consecutive TCP ports from $1 up that no socket of /proc/net/tcp{,6} holds
freePorts() {
  p=$1
  while awk -v a="$(printf %04X "$p")" -v b="$(printf %04X $((p + 1)))" \
      '$2 ~ ":(" a "|" b ")$" { used = 1 } END { exit !used }' /proc/net/tcp /proc/net/tcp6; do
    p=$((p + 2))
  done
  echo "$p"
}

# munged on its own key and socket: the socket's directories must be searchable by all.  The
# daemons run in sessions of their own, so that a ^C of the test reaches the jobs (stopped
# first, through slurmctld) and not the daemons
chmod 755 "$T"
mkdir -m 755 munge log ctld spool
dd if=/dev/urandom of=munge/key bs=1024 count=1 2>/dev/null
chmod 400 munge/key
setsid munged -F --socket="$T/munge/socket" --key-file="$T/munge/key" --pid-file="$T/munge/pid" \
  --seed-file="$T/munge/seed" --log-file="$T/log/munged" >log/munged.out 2>&1 &
pids=$!

# slurm.conf: this machine as the one node (its CPUs and memory as slurmd -C counts them),
# one partition, no cgroups and no accounting, batch jobs scheduled as soon as they can run
# (not at most every 3 s: the test takes 12 s instead of 30); the ports start at
# 20000 + 2 * (pid mod 5000)
node=$(slurmd -C | head -n 1)
name=$(printf %s "$node" | sed 's/^NodeName=\([^ ]*\).*/\1/')
port=$(freePorts $((20000 + 2 * ($$ % 5000))))
cat >"$SLURM_CONF" <<EOF
ClusterName=mjtest
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$(id -un)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/socket
StateSaveLocation=$T/ctld
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/ctld/pid
SlurmdPidFile=$T/spool/pid
SlurmctldLogFile=$T/log/slurmctld
SlurmdLogFile=$T/log/slurmd
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerParameters=batch_sched_delay=0
ReturnToService=2
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=mjtest Nodes=$name Default=YES MaxTime=INFINITE State=UP
EOF

# the daemons in the foreground, as children of this shell, once munged answers
i=0
until munge -S "$T/munge/socket" -n </dev/null >/dev/null 2>&1; do
  [ $i -lt 50 ] || broken "munged did not start"
  sleep 0.1
  i=$((i + 1))
done
setsid slurmctld -D -f "$SLURM_CONF" >log/slurmctld.out 2>&1 &
pids="$pids $!" ctld=$!
setsid slurmd -D -f "$SLURM_CONF" -N "$name" >log/slurmd.out 2>&1 &
pids="$pids $!"

# wait (at most 30 s) until the node is idle
i=0
until [ "$(sinfo -h -N -o %t 2>/dev/null)" = idle ]; do
  [ $i -lt 150 ] || broken "node $name not idle after 30 s: $(sinfo -h -N -o %t 2>&1)"
  sleep 0.2
  i=$((i + 1))
done

# ---- the jobs: 7 starts of the arm in 3 shards -----------------------------------------------
twoJointArm
"$BIN/mjc" compile arm.xml -o arm.mjb || exit 2
"$BIN/mjstep" arm.mjb -n 6 -o starts.mjt || exit 2
"$BIN/mjstep" arm.mjb --batch starts.mjt -n 200 -o single.mjt || exit 2
PATH=$BIN:$PATH
submit="sh $root/scripts/slurm/mjsubmit.sh"

# the shards merged are the single run, byte for byte
run 0 "$submit -n 3 --wait -d work -o merged.mjt -- mjstep arm.mjb --batch starts.mjt -n 200"
has out '^array [0-9][0-9]*$'
has out '^merge [0-9][0-9]*$'
holds -f work/shard-0.mjt -a -f work/shard-1.mjt -a -f work/shard-2.mjt
run 0 'cmp merged.mjt single.mjt'

# a generated batch (no input file) on 2 CPUs a task: each shard's mjstep runs 2 threads
run 0 "$submit -n 3 -c 2 --wait -d random -o random.mjt -- mjstep arm.mjb --random 7 --seed 3 \
  --qpos-noise 0.1 -n 200"
has random/slurm-*_2.out ' --shard 2/3 --threads 2 -o random/shard-2.mjt$'
"$BIN/mjstep" arm.mjb --random 7 --seed 3 --qpos-noise 0.1 -n 200 -o random1.mjt || exit 2
run 0 'cmp random.mjt random1.mjt'

# a failing shard (no such stream) cancels the merge: exit 1, no merged file
run 1 "$submit -n 3 --wait -d bad -o bad.mjt -- mjstep arm.mjb --batch none.mjt -n 200"
has err '^mjsubmit.sh: merge job [0-9]* CANCELLED (DependencyNeverSatisfied)'
holds ! -e bad.mjt
has bad/slurm-*_1.out 'none.mjt'

finish t/cluster/slurm.sh
