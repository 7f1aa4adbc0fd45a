#!/bin/sh
# soak.sh: long runs must stay clean and reproducible: 10^6 steps of the dm_control humanoid and
# 10^4 of crowd100 (models/crowd100.xml, 100 bipeds), each from two initial states (the
# model's default and 50 steps later) as one --batch run, under --strict (a warning is an
# error); no NaN or infinity in any frame; the stream bitwise identical when repeated and on
# one or two threads.  make soak runs it (a few minutes: it is not part of make check).
# SOAK_STEPS sets the humanoid's steps (default 10^6) for a quicker look.
#
#   BIN=build/bin sh scripts/soak.sh        (from the repository root)
set -eu
: "${BIN:?set BIN to the directory holding the tools}"
BIN=$(cd "$BIN" && pwd)
root=$(pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
cd "$T"

# soak NAME MODEL STEPS EVERY: the runs and the checks of one model
soak() {
  name=$1 model=$2 steps=$3 every=$4
  "$BIN/mjc" compile "$model" -o "$name.mjb"
  "$BIN/mjstep" "$name.mjb" -n 50 --every 50 --fields state >"$name.init.mjt"
  start=$(date +%s)
  for run in 1 2 2b; do
    "$BIN/mjstep" "$name.mjb" -n "$steps" --every "$every" --fields all --strict --batch \
      --threads "${run%b}" "$name.init.mjt" -o "$name.$run.mjt"
  done
  secs=$(($(date +%s) - start))
  # every number finite: no nan or inf in the text of any frame
  if "$BIN/mjdump" --csv "$name.1.mjt" | grep -qi 'nan\|inf'; then
    echo "soak: $name: a frame holds NaN or infinity"
    exit 1
  fi
  cmp "$name.1.mjt" "$name.2.mjt" || { echo "soak: $name: 1 and 2 threads differ"; exit 1; }
  cmp "$name.2.mjt" "$name.2b.mjt" || { echo "soak: $name: a repeated run differs"; exit 1; }
  frames=$("$BIN/mjdump" --csv "$name.1.mjt" | tail -n +2 | wc -l)
  echo "soak: $name: 2 x $steps steps, 3 runs in $secs s, $frames frames identical, finite," \
       "no warning"
}

soak humanoid "$root/../shared/corpus/dm_control/humanoid.xml" ${SOAK_STEPS:-1000000} 1000
soak crowd100 "$root/models/crowd100.xml" 10000 100
