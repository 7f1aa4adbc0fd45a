#!/bin/sh
# seeds.sh: collect the seed inputs of the fuzz harnesses and the MJCF dictionary (make fuzz
# runs it; nothing here is committed): models/ and ../shared/corpus files (MJCF and URDF: the
# mjcf harness compiles both) under a size limit,
# binary models and state streams made with the tools, and small MSH, SKN and height field
# files written byte by byte.
#
#   BIN=build/bin sh t/fuzz/seeds.sh OUTDIR      (from the repository root)
set -eu
: "${BIN:?set BIN to the directory holding the tools}"
out=$1
corpus=../shared/corpus
rm -rf "$out"
for h in mjcf mjb mjt stl obj msh png hfield skin; do mkdir -p "$out/$h"; done

# copy FILES... smaller than LIMIT bytes into harness directory DIR, named by their path
take() {
  dir=$1 limit=$2
  shift 2
  for f in "$@"; do
    [ -f "$f" ] && [ "$(wc -c <"$f")" -lt "$limit" ] || continue
    cp "$f" "$out/$dir/$(echo "$f" | sed 's,^\.\./shared/,,' | tr / _)"
  done
}

# bytes from a list of little-endian int32 (decimal) or float32 (f0, f1: 0.0, 1.0) words
words() {
  for w in "$@"; do
    case $w in
      f0) printf '\000\000\000\000' ;;
      f1) printf '\000\000\200\077' ;;
      *) printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((w & 255)) $((w >> 8 & 255)) \
           $((w >> 16 & 255)) $((w >> 24 & 255)))" ;;
    esac
  done
}

# text and image files of the repository and the corpus
take mjcf 65536 models/*.xml t/fuzz/*.xml t/fuzz/assets/*.xml t/oracle/compile/*.urdf \
  $(find "$corpus" -name '*.xml' ! -path '*/common/*' | sort) \
  $(find "$corpus" -name '*.urdf' | sort)
# builtin textures shrunk to 8 x 8: an 800 x 800 skybox takes a second under the sanitizers
sed -i -e 's/\(<texture[^>]*\)width="[0-9]*"/\1width="8"/' \
  -e 's/\(<texture[^>]*\)height="[0-9]*"/\1height="8"/' "$out"/mjcf/*
take stl 20000 $(find "$corpus" -name '*.stl' | sort)
take obj 20000 $(find "$corpus" -name '*.obj' | sort)
take png 65536 t/oracle/texture/png/*.png $(find "$corpus" -name '*.png' | sort)
take hfield 4096 t/oracle/texture/png/gray.png

# binary models of the small models, and streams of the stream harness's model
for f in models/pendulum.xml models/cartpole.xml models/arm.xml t/fuzz/stream.xml \
         $(find "$corpus/gymnasium" -name '*.xml' | sort); do
  b=$(basename "$f" .xml)
  "$BIN/mjc" compile "$f" -o "$out/$b.mjb" 2>/dev/null || rm -f "$out/$b.mjb"
done
for f in "$out"/*.mjb; do
  [ "$(wc -c <"$f")" -lt 200000 ] && mv "$f" "$out/mjb/"
done
for fields in state all time,qpos,ctrl,sensordata; do
  "$BIN/mjstep" "$out/mjb/stream.mjb" -n 3 --fields "$fields" -o "$out/mjt/$fields.mjt"
done
rm -f "$out"/*.mjb

# a tetrahedron as MSH (4 vertices, no normals or texcoords, 4 faces), a skin of it with one
# bone moving every vertex, and a 2 x 2 binary height field
tet="f0 f0 f0 f1 f0 f0 f0 f1 f0 f0 f0 f1"
faces="0 2 1 0 1 3 0 3 2 1 2 3"
words 4 0 0 4 $tet $faces >"$out/msh/tet.msh"
{
  words 4 0 4 1 $tet $faces
  printf 'torso%035d' 0 | tr 0 '\000'
  words f0 f0 f0 f1 f0 f0 f0 4 0 1 2 3 f1 f1 f1 f1
} >"$out/skin/tet.skn"
words 2 2 f0 f1 f1 f0 >"$out/hfield/grid.bin"

# the dictionary: element and attribute names of the corpus and the compiler's strings
{
  cat models/*.xml $(find "$corpus" -name '*.xml' -o -name '*.urdf') | grep -o '<[a-z_]*' |
    tr -d '<'
  cat models/*.xml $(find "$corpus" -name '*.xml' -o -name '*.urdf') | grep -o ' [a-z_]*=' |
    tr -d ' ='
  grep -oh '"[a-z_][a-z_0-9]*"' lib/compiler/mjcf_*.c lib/compiler/urdf.c lib/engine/options.c |
    tr -d '"'
} | grep . | sort -u | sed 's/.*/"&"/' >"$out/mjcf.dict"
