#!/bin/sh
# bench.sh: compile-time benchmark of mjc: median wall time of `mjc compile` per model.
#
#   BIN=/path/to/bin sh scripts/bench.sh [RUNS]      (from the repository root; make bench)
#
# Models: models/chain100.xml (the 100-body chain, target under 50 ms), models/biped.xml and
# the largest corpus models (../shared/corpus beside the repository).  A model mjc cannot
# compile yet is reported and skipped.  Each time is one whole process, start to exit,
# measured with date +%s%N (GNU date); the median of RUNS runs (default 11) is printed.
set -eu

BIN=${BIN:-build/bin}
RUNS=${1:-11}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
corpus=../shared/corpus

# milliseconds since the epoch, with microseconds
now() { date +%s%N | awk '{ printf "%.3f\n", $1 / 1e6 }'; }

# the median of the numbers on stdin
median() {
  sort -n | awk '{ v[NR] = $1 }
                 END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# the median time of compiling $1, in ms, on stdout; nothing (and a note) if it fails
timeit() {
  if ! "$BIN/mjc" compile "$1" -o "$T/out.mjb" 2>"$T/err"; then
    printf '%-32s does not compile: %s\n' "${1#"$corpus"/}" "$(cat "$T/err")" >&2
    return 1
  fi
  i=0
  while [ "$i" -lt "$RUNS" ]; do
    t0=$(now)
    "$BIN/mjc" compile "$1" -o "$T/out.mjb"
    t1=$(now)
    echo "$t0 $t1" | awk '{ print $2 - $1 }'
    i=$((i + 1))
  done | median
}

echo "mjc compile, median of $RUNS runs (ms):"
chain=
for xml in models/chain100.xml models/biped.xml \
           "$corpus/dm_control/humanoid_CMU.xml" "$corpus/dm_control/dog.xml" \
           "$corpus/dm_control/humanoid.xml" "$corpus/dm_control/quadruped.xml" \
           "$corpus/gymnasium/humanoid.xml" "$corpus/gymnasium/ant.xml"; do
  [ -f "$xml" ] || continue
  ms=$(timeit "$xml") || continue
  printf '%-32s %8.2f\n' "${xml#"$corpus"/}" "$ms"
  [ "$xml" = models/chain100.xml ] && chain=$ms
done

# the target: the 100-body chain compiles in under 50 ms
if [ -n "$chain" ]; then
  verdict=$(echo "$chain" | awk '{ print ($1 < 50) ? "yes" : "NO" }')
  echo "chain100 under 50 ms: $verdict ($chain ms)"
else
  echo "chain100 under 50 ms: not measured (does not compile)"
fi
