#!/bin/sh
# menagerie.sh: every scene of a MuJoCo Menagerie checkout against MuJoCo 3.14.0 (the oracle):
# the compiled model field by field (t/oracle/compare.mjs) and 200 steps with contacts from
# the default state and keyframe 0 (t/oracle/traj.mjs --contacts, with MuJoCo's own spread).
#
#   BIN=/path/to/bin sh scripts/menagerie.sh DIR [WORK]
#
# DIR: a checkout or snapshot of github.com/google-deepmind/mujoco_menagerie (or a fork).  It
# is copied to WORK (default: a fresh temporary directory, removed at the end); a snapshot may
# lack some binary meshes, and each mesh file our compiler cannot open is replaced in WORK by
# the same small stand-in (a tetrahedron of 1 cm, in the file's format: OBJ or binary STL),
# which both engines then read.  Scenes: every scene*.xml below DIR.  Prints one line per
# scene and per comparison, then a summary; the details go to WORK/compile.log and
# WORK/traj.log.  Needs node (the oracle, installed on first use as for make check); runs
# from the repository root.  Exit status 0 (a report, not a test), 2 on bad usage.
set -eu

[ $# -ge 1 ] && [ -d "$1" ] || { echo "usage: BIN=... sh scripts/menagerie.sh DIR [WORK]" >&2; exit 2; }
src=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."
. t/oracle/lib.sh
work=${2:-}
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
cp -R "$src/." "$work/tree"

# standin FILE: a tetrahedron in FILE's format (OBJ, or binary STL for any other extension)
standin() {
  node -e '
    const fs = require("fs"), f = process.argv[1];
    const v = [[0, 0, 0], [0.01, 0, 0], [0, 0.01, 0], [0, 0, 0.01]];
    const t = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
    if (/\.obj$/i.test(f)) {
      fs.writeFileSync(f, v.map((p) => `v ${p.join(" ")}\n`).join("") +
                          t.map((k) => `f ${k.map((i) => i + 1).join(" ")}\n`).join(""));
    } else {
      const b = Buffer.alloc(84 + 50 * t.length);
      b.writeUInt32LE(t.length, 80);
      t.forEach((k, n) => k.forEach((i, j) => v[i].forEach((x, c) =>
        b.writeFloatLE(x, 84 + 50 * n + 12 + 12 * j + 4 * c))));
      fs.writeFileSync(f, b);
    }' "$1"
}

# the scenes, each compiled until no mesh file is missing (a stand-in per missing file)
find "$work/tree" -name 'scene*.xml' | sort >"$work/scenes"
nstand=0
while read -r scene; do
  for _ in $(seq 1 200); do
    if "$BIN/mjc" compile "$scene" -o "$work/x.mjb" 2>"$work/err"; then break; fi
    missing=$(sed -n "s/.*could not open mesh file '\(.*\)': No such file or directory/\1/p" \
      "$work/err")
    [ -n "$missing" ] && [ ! -e "$missing" ] || break
    standin "$missing"
    echo "$missing" >>"$work/standins"
    nstand=$((nstand + 1))
  done
done <"$work/scenes"
echo "menagerie: $(wc -l <"$work/scenes") scenes, $nstand missing mesh files replaced by stand-ins"

# the compiled models field by field, each scene in a node process of its own (MuJoCo's
# WebAssembly memory holds every scene's directory tree once read: all 85 in one process run
# out of it, and the last ones read fail to allocate), then the trajectories
: >"$work/compile.log"
while read -r scene; do
  node t/oracle/compare.mjs --mjc "$BIN/mjc" "$scene" >>"$work/compile.log" 2>&1 || :
done <"$work/scenes"
grep -E '^(OK|MISMATCH|UNSUPPORTED|FAIL|REFUSED|ERROR)' "$work/compile.log" |
  sed "s|$work/tree/||" | cut -c1-160
# the per-scene summaries ("N models match, K unsupported (...), J known, F mismatch") summed
echo "compile: $(grep "models match" "$work/compile.log" | awk '{ m += $1; u += $4
  for (i = 1; i < NF; i++) { if ($(i + 1) ~ /^known/) k += $i; if ($(i + 1) ~ /^mismatch/) f += $i }
} END { printf "%d models match, %d unsupported, %d known, %d mismatch", m, u, k, f }')"
# the trajectories, also a node process per scene; the per-scene summaries ("traj.mjs
# --contacts: N rows, K known, F failed (T s)") summed
: >"$work/traj.log"
while read -r scene; do
  node t/oracle/traj.mjs --bin "$BIN" --contacts --seconds 0 "$scene" >>"$work/traj.log" 2>&1 || :
done <"$work/scenes"
sed "s|$work/tree/||" "$work/traj.log" | grep -E ' (ok|FAIL|known|unsupported)' | cut -c1-160
echo "trajectories: $(grep -E '^traj.mjs' "$work/traj.log" | awk '{ n += $3; k += $5; f += $7 }
  END { printf "%d rows, %d known, %d failed", n, k, f }')"
