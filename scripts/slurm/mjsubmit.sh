#!/bin/sh
# mjsubmit.sh: run a tool's batch on a Slurm cluster in N shards and merge them.  Queues a job
# array of N tasks (mjshard.sbatch, next to this script: task i runs the command with
# --shard i/N into WORKDIR/shard-i.EXT) and a merge job that starts once every task succeeded
# (mjcat of the shards, in shard order, into MERGED; EXT is MERGED's extension, else mjt), and
# prints their job ids.  If a task fails, Slurm cancels the merge.
#
#   scripts/slurm/mjsubmit.sh -n SHARDS [-c CPUS] [-p PARTITION] [--wait] -d WORKDIR \
#     -o MERGED -- TOOL [ARG...]
#   e.g. scripts/slurm/mjsubmit.sh -n 8 -c 4 --wait -d work -o out.mjt -- \
#          mjstep arm.mjb --batch starts.mjt -n 1000
#
# -c: CPUs of each task, its tool's --threads (default 1).  --wait: return when the merge has
# ended.  Prints "array JOBID" and "merge JOBID"; the logs are WORKDIR/slurm-JOBID_i.out (the
# shards) and WORKDIR/slurm-JOBID.out (the merge).  Other sbatch settings come from its
# environment (SBATCH_TIMELIMIT, SBATCH_ACCOUNT, ...).  The jobs inherit this shell's PATH and
# start in the current directory: every node needs the same binaries (TOOL, mjcat) at the same
# place, and the inputs, WORKDIR and MERGED on a file system they share.
# Exit status: 0 queued (with --wait: merged), 1 the merge did not complete, 2 usage error or
# a refused submission.
set -eu

# print the usage on stderr and exit 2
usage() {
  echo "usage: mjsubmit.sh -n SHARDS [-c CPUS] [-p PARTITION] [--wait] -d WORKDIR -o MERGED" \
    "-- TOOL [ARG...]" >&2
  exit 2
}

# print "mjsubmit.sh: MESSAGE" on stderr and exit 2
die() {
  echo "mjsubmit.sh: $*" >&2
  exit 2
}

# $1 quoted for sh: in single quotes, each of its own single quotes written '\''
quote() {
  printf "'%s'" "$(printf %s "$1" | sed "s/'/'\\\\''/g")"
}

# the options, up to -- and the tool's command line
shards='' cpus='' partition='' wait='' dir='' merged=''
while [ $# -gt 0 ]; do
  case $1 in
    -n) [ $# -ge 2 ] || usage; shards=$2; shift 2 ;;
    -c) [ $# -ge 2 ] || usage; cpus=$2; shift 2 ;;
    -p) [ $# -ge 2 ] || usage; partition=$2; shift 2 ;;
    -d) [ $# -ge 2 ] || usage; dir=$2; shift 2 ;;
    -o) [ $# -ge 2 ] || usage; merged=$2; shift 2 ;;
    --wait) wait=1; shift ;;
    --) shift; break ;;
    *) usage ;;
  esac
done
if [ -z "$shards" ] || [ -z "$dir" ] || [ -z "$merged" ] || [ $# -eq 0 ]; then usage; fi
case $shards in ''|*[!0-9]*|0*) die "-n $shards: not a positive count" ;; esac
case $cpus in *[!0-9]*|0*) die "-c $cpus: not a positive count" ;; esac

# the commands the jobs run must be on this PATH, which they inherit
for c in sbatch scontrol "$1" mjcat; do
  command -v "$c" >/dev/null 2>&1 || die "$c: not found on PATH"
done

# the shards' names, in shard order, ids zero-padded as mjshard.sbatch pads them
case ${merged##*/} in *.*) ext=${merged##*.} ;; *) ext=mjt ;; esac
width=$(printf %s "$((shards - 1))" | wc -c)
files='' i=0
while [ "$i" -lt "$shards" ]; do
  files="$files $(quote "$(printf "%s/shard-%0${width}d.%s" "$dir" "$i" "$ext")")"
  i=$((i + 1))
done
mkdir -p "$dir"

# the array: task i is shard i
array=$(sbatch --parsable --array="0-$((shards - 1))" ${cpus:+--cpus-per-task="$cpus"} \
  ${partition:+--partition="$partition"} --output="$dir/slurm-%A_%a.out" \
  "$(dirname "$0")/mjshard.sbatch" "$dir" "$ext" "$@") || die "sbatch refused the array"
array=${array%%;*}
echo "array $array"

# the merge: after every task ended with status 0; cancelled when one did not
merge=$(sbatch --parsable --job-name=mjcat --dependency="afterok:$array" \
  --kill-on-invalid-dep=yes ${partition:+--partition="$partition"} --output="$dir/slurm-%j.out" \
  --wrap="exec mjcat -o $(quote "$merged")$files") || die "sbatch refused the merge"
merge=${merge%%;*}
echo "merge $merge"
[ -n "$wait" ] || exit 0

# --wait: poll the merge's state each second until it ends (five failed queries give up)
misses=0
while :; do
  job=$(scontrol -o show job "$merge" 2>/dev/null) || job=
  state=$(printf %s "$job" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
  case $state in
    COMPLETED) exit 0 ;;
    PENDING|CONFIGURING|RUNNING|COMPLETING|SUSPENDED|REQUEUED*|RESIZING) misses=0 ;;
    '')
      misses=$((misses + 1))
      [ "$misses" -lt 5 ] || die "merge job $merge: scontrol does not know it" ;;
    *)
      reason=$(printf %s "$job" | sed -n 's/.* Reason=\([^ ]*\).*/\1/p')
      echo "mjsubmit.sh: merge job $merge $state ($reason): see $dir/slurm-${array}_*.out" \
        "and $dir/slurm-$merge.out" >&2
      exit 1 ;;
  esac
  sleep 1
done
