#!/bin/sh
# run.sh: compare every model we compile with MuJoCo's compilation of it (the oracle).
#
#   BIN=/path/to/bin sh t/oracle/run.sh [MODEL.xml...]
#
# Models: models/*.xml, the compiler cases t/oracle/compile/*.xml and the corpus
# ../shared/corpus/*/*.xml with its menagerie robots' scenes ../shared/corpus/menagerie/*/scene*.xml
# (beside the repository; the include fragments in common/ are skipped).  Installs the oracle (npm package mujoco) into
# scripts/node_modules when it is missing.  Exit status: nonzero on any mismatch.
set -eu

cd "$(dirname "$0")/../.."
. t/oracle/lib.sh

# the models: the arguments, or ours and the corpus
if [ $# -eq 0 ]; then
  set --
  for f in models/*.xml t/oracle/compile/*.xml; do
    [ -f "$f" ] && set -- "$@" "$f"
  done
  corpus=../shared/corpus
  if [ -d "$corpus" ]; then
    for f in "$corpus"/*/*.xml "$corpus"/menagerie/*/scene*.xml; do
      case $f in */common/*) continue ;; esac
      set -- "$@" "$f"
    done
  else
    echo "run.sh: no corpus at $corpus; comparing models/ only" >&2
  fi
fi

exec node t/oracle/compare.mjs --mjc "$BIN/mjc" "$@"
