#!/bin/sh
# layers.sh: tests of scripts/layers.sh, the check that lib/'s folders call one way: the real
# tree and its built objects pass; an upward include and an upward call each fail, named.
#   BIN=/path/to/build/bin sh t/tools/layers.sh   (the objects are BIN/../lib)
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
check="sh $root/scripts/layers.sh"

# ---- the project itself: sources and the objects of this build --------------------------------
run 0 '$check "$root/lib" "$BIN/../lib"'
has out '^layers: lib/ calls one way'

# ---- a tree with one file of each folder, and objects that call across ----------------------
mkdir -p src/util src/engine src/compiler src/io obj/util obj/engine obj/compiler
printf '#include "mj.h"\n#include "util/util.h"\n' >src/engine/forward.c
printf '#include "engine/forward.h"\n#include "util/util.h"\n' >src/compiler/compile.c
printf '#include "compiler/compile.h"\n' >src/io/io.c
printf 'int util_f(void) { return 1; }\n' >a.c
printf 'int util_f(void);\nint engine_f(void) { return util_f(); }\n' >b.c
printf 'int engine_f(void);\nint compiler_f(void) { return engine_f(); }\n' >c.c
cc -c -o obj/util/a.o a.c && cc -c -o obj/engine/b.o b.c && cc -c -o obj/compiler/c.o c.c
run 0 '$check src obj'

# the engine including a header of the compiler, and one without its folder
printf '#include "compiler/mjcf.h"\n' >>src/engine/forward.c
printf '  #include "smooth.h"\n' >src/engine/smooth.h
run 1 '$check src obj'
has out '^layers: src/engine/forward.c:3: engine may not include "compiler/mjcf.h"$'
has out '^layers: src/engine/smooth.h:1: engine may not include "smooth.h"$'
has out '^layers: a file of lib/ reaches a folder above it'
rm src/engine/smooth.h
printf '#include "mj.h"\n' >src/engine/forward.c

# util calling the engine: an upward call no include shows
printf 'int engine_f(void);\nint util_g(void) { return engine_f(); }\n' >d.c
cc -c -o obj/util/d.o d.c
run 1 '$check src obj'
has out '^layers: obj/util/d.o (util) uses engine_f of engine$'
rm obj/util/d.o

# a folder the order does not name
mkdir src/extra
run 1 '$check src obj'
has out '^layers: src/extra: a folder not in the order$'

finish layers.sh
