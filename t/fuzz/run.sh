#!/bin/sh
# run.sh: run each fuzz harness for FUZZ_TIME seconds (default 60) on its seeds and the corpus
# it has grown in earlier runs, one harness at a time, and print a line per harness:
# executions, seconds, findings.  Limits: 2048 MB of memory (RSS and any one malloc),
# FUZZ_TIMEOUT (default 30) s of wall clock per input; a crash, a leak, a sanitizer report, an
# out-of-memory or a slow input is a finding.  (Long runs at low priority beside other work
# need a longer FUZZ_TIMEOUT: a starved process's input takes many times its own time.)
# Exits 1 when any harness found something, its input left in DIR/crash/HARNESS/.
#
#   FUZZ_TIME=60 sh t/fuzz/run.sh DIR HARNESS...     (DIR: build-fuzz, holding bin/ and seeds/)
set -u
dir=$1
shift
time=${FUZZ_TIME:-60}
found=0
for h in "$@"; do
  mkdir -p "$dir/corpus/$h" "$dir/crash/$h" "$dir/log"
  dict=
  [ "$h" = mjcf ] && dict=-dict=$dir/seeds/mjcf.dict
  # shellcheck disable=SC2086  # $dict is one word or none
  "$dir/bin/$h" -max_total_time="$time" -rss_limit_mb=2048 -malloc_limit_mb=2048 \
    -timeout="${FUZZ_TIMEOUT:-30}" \
    -print_final_stats=1 -artifact_prefix="$dir/crash/$h/" $dict \
    "$dir/corpus/$h" "$dir/seeds/$h" >"$dir/log/$h.txt" 2>&1
  status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log/$h.txt")
  secs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log/$h.txt")
  if [ "$status" -eq 0 ]; then
    printf 'fuzz: %-7s %10s executions in %s s (%s/s), no finding\n' "$h" "$execs" "$time" "$secs"
  else
    found=1
    printf 'fuzz: %-7s FINDING (exit %s), input in %s:\n' "$h" "$status" "$dir/crash/$h/"
    grep -E '^(==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)' "$dir/log/$h.txt" |
      sed 's/^/  /'
  fi
done
exit $found
