#!/bin/sh
# run.sh: compare every model we compile with MuJoCo's compilation of it (the oracle).
#
#   BIN=/path/to/bin sh t/oracle/run.sh [MODEL.xml...]
#
# Models: models/*.xml, the compiler cases t/oracle/compile/*.xml and *.urdf, and the corpus
# ../shared/corpus/*/*.xml with its menagerie robots' scenes ../shared/corpus/menagerie/*/scene*.xml
# and its URDF robots ../shared/corpus/urdf/*/*.urdf and refused/*/*.urdf (beside the
# repository; the include fragments in common/ are skipped), ours and the robots each in its
# own node process.  Installs the oracle (npm package @mujoco/mujoco, MuJoCo 3.14.0) into
# scripts/node_modules when it is missing.  Models listed in t/oracle/known.txt (suite compile)
# are judged against their entries.  Exit status: nonzero on any mismatch beyond them.
set -eu

cd "$(dirname "$0")/../.."
. t/oracle/lib.sh

# the models: the arguments, or ours and the corpus
if [ $# -gt 0 ]; then
  status=0
  node t/oracle/compare.mjs --mjc "$BIN/mjc" "$@" || status=1
  known_total compile
  exit $status
fi
set --
for f in models/*.xml t/oracle/compile/*.xml t/oracle/compile/*.urdf; do
  [ -f "$f" ] && set -- "$@" "$f"
done
corpus=../shared/corpus
robots=
others=
if [ -d "$corpus" ]; then
  for f in "$corpus"/*/*.xml "$corpus"/urdf/*/*.urdf "$corpus"/urdf/refused/*/*.urdf; do
    case $f in */common/*) continue ;; esac
    [ -f "$f" ] && others="$others $f"
  done
  robots=$(echo "$corpus"/menagerie/*/scene*.xml)
else
  echo "run.sh: no corpus at $corpus; comparing models/ only" >&2
fi

# ours each in a node process of its own (a third of a second each: one WebAssembly instance
# running all 79 aborted inside MuJoCo on the 78th, "native code called abort()", each
# running clean alone), the corpus in one (one instance running it with ours failed on two
# corpus URDFs, "invalid index into function table"), the robots one each: their meshes and
# textures (up to 250 MB of pixels) would grow one WebAssembly heap past its limit
status=0
for f in "$@"; do
  out=$(node t/oracle/compare.mjs --mjc "$BIN/mjc" "$f" 2>&1) || status=1
  printf '%s\n' "$out" | grep -v 'models match' || :
done
echo "ours: $# models compared, each alone"
[ -z "$others" ] || node t/oracle/compare.mjs --mjc "$BIN/mjc" $others || status=1
for f in $robots; do
  node t/oracle/compare.mjs --mjc "$BIN/mjc" "$f" || status=1
done
known_total compile
exit $status
