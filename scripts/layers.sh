#!/bin/sh
# layers.sh: lib/'s folders call one way only.  Fails, naming the file and what it reaches,
# when a file of lib/ includes a header of a folder it may not use, or when an object of
# the built library calls a function or reads a variable defined in such a folder (the
# public mj.h declares functions of every folder, so the includes alone cannot tell).
#
#   sh scripts/layers.sh [LIB [OBJ]]    LIB: the sources (lib), OBJ: their objects (build/lib)
#
# The order, each folder above the ones it may use (lib/*/README say the same):
#   util        math kernels, bytes and files                     uses nothing
#   engine      the simulation pipeline                           uses util
#   compiler    MJCF to a model                                   uses engine, util
#   derivative  the Jacobians of a step                           uses engine, util
#   render      the CPU renderer                                  uses engine, util
#   plan        iLQG and costs on the Jacobians                   uses derivative, engine, util
#   io          the file formats, loading either kind of model    uses compiler, engine, util
# lib/mj.h and lib/mjxmacro.h, the public interface, may be included anywhere.
set -eu
export LC_ALL=C
lib=${1:-lib}
obj=${2:-build/lib}

# the folders a folder may use, besides itself
uses() {
  case $1 in
    util) echo "" ;;
    engine) echo "util" ;;
    compiler | derivative | render) echo "engine util" ;;
    plan) echo "derivative engine util" ;;
    io) echo "compiler engine util" ;;
    *) echo "?" ;;
  esac
}

bad=0
# every file's quoted includes: "mj.h", "mjxmacro.h" or "FOLDER/name.h" of an allowed folder
for dir in "$lib"/*/; do
  d=$(basename "$dir")
  if [ "$(uses "$d")" = "?" ]; then
    echo "layers: $lib/$d: a folder not in the order"
    bad=1
    continue
  fi
  for f in "$dir"*.c "$dir"*.h; do
    [ -e "$f" ] || continue
    out=$(awk -v d="$d" -v ok=" $(uses "$d") $d " '
      /^[ \t]*#[ \t]*include[ \t]*"/ {
        split($0, q, "\""); h = q[2]
        if (h == "mj.h" || h == "mjxmacro.h") next
        n = index(h, "/")
        to = n ? substr(h, 1, n - 1) : ""
        if (to == "" || index(ok, " " to " ") == 0)
          printf "layers: %s:%d: %s may not include \"%s\"\n", FILENAME, FNR, d, h
      }' "$f")
    [ -z "$out" ] || { echo "$out"; bad=1; }
  done
done

# every object's undefined symbols, resolved among the library's objects: from an allowed
# folder, or from outside the library (libc, libm, expat, ...)
if [ -d "$obj" ]; then
  defs=$(mktemp) && uses=$(mktemp)
  trap 'rm -f "$defs" "$uses"' EXIT
  for o in "$obj"/*/*.o; do
    [ -e "$o" ] || continue
    d=$(basename "$(dirname "$o")")
    nm --defined-only -g "$o" | awk -v d="$d" 'NF == 3 { print $3, d }'
  done | sort -u -k1,1 >"$defs"
  for o in "$obj"/*/*.o; do
    [ -e "$o" ] || continue
    d=$(basename "$(dirname "$o")")
    nm -u "$o" | awk -v o="$o" -v d="$d" -v ok=" $(uses "$d") " '{ print $NF, o, d, ok }'
  done | sort -k1,1 >"$uses"
  out=$(join "$uses" "$defs" | awk '{
      from = $3; to = $NF; ok = " "
      for (i = 4; i < NF; i++) ok = ok $i " "
      if (from != to && index(ok, " " to " ") == 0)
        printf "layers: %s (%s) uses %s of %s\n", $2, from, $1, to
    }')
  [ -z "$out" ] || { echo "$out"; bad=1; }
fi

if [ "$bad" -ne 0 ]; then
  echo "layers: a file of lib/ reaches a folder above it (scripts/layers.sh)"
  exit 1
fi
echo "layers: lib/ calls one way (util < engine < compiler, derivative, render < plan, io)"
