#!/bin/sh
# run.sh: libmj's mesh pipeline (lib/compiler/mesh.c) against MuJoCo's compiled mesh arrays.
#
#   BIN=/path/to/bin sh t/oracle/mesh/run.sh [CASEFILE]
#
# Cases: t/oracle/mesh/cases.txt (inline meshes and attribute variants), two MSH files written
# here, and every STL and OBJ file of the corpus beside the repository (/work/shared/corpus or
# $CORPUS) with the default (legacy) inertia, a sample of them also with convex, exact and shell
# inertia, scale, refpos/refquat and maxhullvert.  Each case is compiled by the helper mesh.c
# (built against BIN/../libmj.a) and by MuJoCo; compare.mjs compares every array and prints a
# summary per format.  Cases listed in t/oracle/known.txt (suite mesh) are judged against their
# entries.  Exits 1 when any case differs beyond them.
set -eu

cd "$(dirname "$0")/../../.."
. t/oracle/lib.sh

helper=$(helper mesh/mesh.c)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ $# -gt 0 ]; then
  cases=$1
else
  # two legacy MSH tetrahedra: positions and faces only; with normals and texcoords
  node -e '
    const fs = require("fs"), dir = process.argv[1];
    const i32 = a => Buffer.from(new Int32Array(a).buffer);
    const f32 = a => Buffer.from(new Float32Array(a).buffer);
    const v = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], f = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3];
    fs.writeFileSync(dir + "/tet.msh", Buffer.concat([i32([4, 0, 0, 4]), f32(v), i32(f)]));
    fs.writeFileSync(dir + "/tetn.msh", Buffer.concat([i32([4, 4, 4, 4]), f32(v),
      f32([-1, -1, -1, 1, 0, 0, 0, 1, 0, 0, 0, 1]), f32([0, 0, 1, 0, 0, 1, 1, 1]), i32(f)]));
  ' "$tmp"
  cases=$tmp/cases.txt
  cp t/oracle/mesh/cases.txt "$cases"
  printf 'file=%s\nfile=%s\n' "$tmp/tet.msh" "$tmp/tetn.msh" >>"$cases"
  corpus=${CORPUS:-/work/shared/corpus}
  find "$corpus/menagerie" "$corpus/dm_control" -type f \( -iname '*.stl' -o -iname '*.obj' \) \
    2>/dev/null | sort >"$tmp/files"
  sed 's/^/file=/' "$tmp/files" >>"$cases"
  # every 10th file with the other inertia modes and attributes
  awk 'NR % 10 == 1' "$tmp/files" | while read -r f; do
    for a in 'inertia=convex' 'inertia=exact' 'inertia=shell' 'scale=0.5 2 -1' \
             'refpos=0.01 -0.02 0.03	refquat=0.9 0.1 -0.2 0.3' 'maxhullvert=16' \
             'smoothnormal=true'; do
      printf 'file=%s\t%s\n' "$f" "$a"
    done
  done >>"$cases"
fi
status=0
node t/oracle/mesh/compare.mjs "$helper" "$cases" || status=1
known_total mesh
exit $status
