#!/bin/sh
# mjparallel.sh: run a batch tool's command line as N shards over GNU parallel's hosts and merge
# the shards' outputs with mjcat into one file, byte for byte the single run's output.
#
#   sh scripts/mjparallel.sh -n SHARDS [--sshloginfile FILE | -S LOGINS]... [--ssh CMD] [-j JOBS]
#       [--basefile FILE]... [--joblog LOG] [--resume-failed] [--files] -o OUT -- TOOL ARG...
#
#   sh scripts/mjparallel.sh -n 8 --sshloginfile hosts --basefile model.mjb \
#       --basefile starts.mjt --joblog shards.log --files -o merged.mjt -- \
#       mjstep model.mjb --batch starts.mjt -n 1000
#
# Shard i (0 to SHARDS-1) runs TOOL ARG... --shard i/SHARDS on one of the hosts (-S : or no host:
# this machine), JOBS shards at a time per host (default 1: mjstep --batch fills a host's cores
# with its own threads).  The tools must be on each host's PATH (mjcat on this machine's);
# relative paths in the command are relative to the login directory there, where --basefile
# puts the files it ships (by rsync) before the first shard.  Two routes bring the outputs back:
# - stdout (the default): `parallel -k` prints each shard's output whole, in shard order, into
#   `mjcat -o OUT`.  parallel keeps each shard's output in a temporary file ($TMPDIR) until its
#   turn, so this machine needs room for the whole output twice.  A failed shard fails the
#   whole run and the next run redoes every shard.
# - files (--files): shard i writes shard-i (-o shard-i) on its host, parallel brings it back
#   into this directory (--return) and removes the host's copies and the base files (--cleanup);
#   then `mjcat -o OUT shard-0 ... shard-(N-1)`, and the shard files are removed once OUT is
#   whole.  An interrupted or failed shard leaves no shard file (the tools rename their output
#   into place only when whole) and a non-zero exit in the --joblog; --resume-failed with the
#   same command line and joblog reruns only those shards and merges again.
# --resume-failed needs --files and --joblog (the stdout route cannot keep the shards that
# succeeded, so it reruns everything).  On hosts that share one home directory (NFS) use the
# stdout route without --basefile: --cleanup on one host would remove files the others still
# read.  Exit status: 0 when OUT is whole; 2 on a usage error, a failed shard (OUT not written)
# or a failed merge, with a one-line message.
set -eu

me=mjparallel

# the usage message on stderr, exit 2
usage() {
  [ $# -eq 0 ] || echo "$me: $*" >&2
  echo "usage: $me -n SHARDS [--sshloginfile FILE | -S LOGINS]... [--ssh CMD] [-j JOBS]" >&2
  echo "         [--basefile FILE]... [--joblog LOG] [--resume-failed] [--files] -o OUT --" \
    "TOOL ARG..." >&2
  exit 2
}

# a one-line error on stderr, exit 2
die() {
  echo "$me: $*" >&2
  exit 2
}

# what parallel's exit status $1 (not 0) says: the number of failed jobs up to 100, 101 for more
failed() {
  if [ "$1" -le 100 ]; then
    echo "$1 of $shards shards failed${joblog:+ (joblog $joblog)}"
  elif [ "$1" -eq 101 ]; then
    echo "more than 100 of $shards shards failed${joblog:+ (joblog $joblog)}"
  else
    echo "GNU parallel failed (exit $1)"
  fi
}

# $1 quoted for the shell (single quotes, each ' written '\'')
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

# the options: parallel's own as quoted words in $popts, ours in variables
shards='' out='' files='' resume='' joblog='' remote='' jobs=1 popts=''
while [ $# -gt 0 ]; do
  case $1 in
    -n) [ $# -ge 2 ] || usage "-n needs a number"; shards=$2; shift ;;
    -o) [ $# -ge 2 ] || usage "-o needs a file"; out=$2; shift ;;
    -j) [ $# -ge 2 ] || usage "-j needs a number"; jobs=$2; shift ;;
    --files) files=1 ;;
    --resume-failed) resume=1 ;;
    --joblog) [ $# -ge 2 ] || usage "--joblog needs a file"; joblog=$2; shift ;;
    -S | --sshlogin)
      [ $# -ge 2 ] || usage "$1 needs logins"
      [ "$2" = : ] || remote=1
      popts="$popts -S $(q "$2")"
      shift ;;
    --sshloginfile | --slf)
      [ $# -ge 2 ] || usage "$1 needs a file"
      remote=1
      popts="$popts --sshloginfile $(q "$2")"
      shift ;;
    --ssh | --basefile | --bf)
      [ $# -ge 2 ] || usage "$1 needs an argument"
      popts="$popts $1 $(q "$2")"
      shift ;;
    --) shift; break ;;
    *) usage "unknown option $1" ;;
  esac
  shift
done

# the checks: a shard count, an output, a command without its own --shard or -o
case $shards in '' | *[!0-9]* | 0*) usage "-n needs a number of shards above 0" ;; esac
case $jobs in '' | *[!0-9]* | 0*) usage "-j needs a number of jobs above 0" ;; esac
[ -n "$out" ] || usage "no output: -o OUT"
[ $# -gt 0 ] || usage "no command after --"
for a in "$@"; do
  case $a in -o | --shard | --range) usage "the command may not have $a (added per shard)" ;; esac
done
if [ -n "$resume" ]; then
  [ -n "$files" ] || usage "--resume-failed needs --files (the stdout route reruns every shard)"
  [ -n "$joblog" ] || usage "--resume-failed needs --joblog"
fi
command -v parallel >/dev/null 2>&1 || die "GNU parallel not found (apt-get install parallel)"
command -v mjcat >/dev/null 2>&1 || die "mjcat not found on PATH"

# parallel's fixed options: no citation notice, the command's words quoted as given, print in
# shard order, run every shard even after a failure, the joblog (appended to on a resume)
popts="--will-cite -q -k --halt never -j $jobs$popts"
[ -z "$joblog" ] || popts="$popts --joblog $(q "$joblog")"
[ -z "$resume" ] || popts="$popts --resume-failed"
# the base files removed from the hosts at the end (parallel warns about it on this machine)
[ -z "$remote" ] || popts="$popts --cleanup"

# rsync without parallel's default compression (-z, zlib's under its --protocol 30): a
# stream's f64 frames shrink by under 10% (the humanoid's: 8%) for about 1 s of CPU per 100 MB
# on the sending host, the time a gigabit link takes to carry them whole; a PARALLEL_RSYNC_OPTS
# of the user's own stands (-rlDzR, parallel's default, for a slow link)
export PARALLEL_RSYNC_OPTS="${PARALLEL_RSYNC_OPTS:--rlDR}"

# the command per shard, quoted word by word: TOOL ARG... --shard {}/N (parallel fills {})
cmd=
for a in "$@"; do cmd="$cmd $(q "$a")"; done
cmd="$cmd --shard '{}/$shards'"
ids=$(seq -s " " 0 $((shards - 1)))
names=$(for i in $ids; do printf 'shard-%s ' "$i"; done)

# files route: shard-ID written on the host, returned and removed there (only from a remote
# host), then merged here in shard order
if [ -n "$files" ]; then
  [ -z "$remote" ] || popts="$popts --return 'shard-{}'"
  status=0
  eval "parallel $popts $cmd -o 'shard-{}' ::: $ids" || status=$?
  if [ "$status" -ne 0 ]; then
    [ -z "$joblog" ] || die "$(failed "$status"); rerun with --resume-failed to run only those"
    die "$(failed "$status")"
  fi
  # shellcheck disable=SC2086  # $names is a list of words
  mjcat -o "$out" $names || die "merge failed; the shard files are kept"
  # shellcheck disable=SC2086
  rm -f $names
  exit 0
fi

# stdout route: parallel -k prints the shards in order into mjcat; parallel's status goes through
# a file, since a pipeline's status is its last command's
st=$(mktemp)
trap 'rm -f "$st"' EXIT
trap 'exit 2' INT TERM HUP
mstatus=0
{
  status=0
  eval "parallel $popts $cmd ::: $ids" || status=$?
  echo "$status" >"$st"
} | mjcat -o "$out" - || mstatus=$?
status=$(cat "$st")
# a failed shard: whatever mjcat made of the rest is not the run's output
if [ "$status" -ne 0 ]; then
  rm -f "$out"
  die "$(failed "$status"); $out not written"
fi
[ "$mstatus" -eq 0 ] || die "merge failed; $out not written"
