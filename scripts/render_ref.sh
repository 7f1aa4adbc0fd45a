#!/bin/sh
# render_ref.sh: run scripts/render_ref.c (MuJoCo 2.2.2's offscreen renderer, the reference of
# mjrender's tests and benchmark) under a virtual X server with Mesa's software OpenGL.
#
#   BIN=/path/to/bin sh scripts/render_ref.sh ARGS...   (render_ref's arguments; see render_ref.c)
#
# Builds render_ref into BIN/../t/render_ref when it is missing or older than its source, with
# Debian's libmujoco-dev, libglfw3-dev and libpng-dev (scripts/deps.sh installs them and xvfb),
# and runs it through xvfb-run on a 24-bit screen with LIBGL_ALWAYS_SOFTWARE=1.  Exit status:
# 77 with the reason on stderr when a dependency is missing (the skip of automake's tests;
# render_ref's own when it gets no display or OpenGL context), else render_ref's.
set -eu

BIN=${BIN:-build/bin}
ref=$(dirname "$BIN")/t/render_ref
src=$(dirname "$0")/render_ref.c

command -v xvfb-run >/dev/null 2>&1 || { echo "xvfb-run is not installed (xvfb)" >&2; exit 77; }
if [ ! -x "$ref" ] || [ "$src" -nt "$ref" ]; then
  mkdir -p "$(dirname "$ref")"
  cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -o "$ref" "$src" \
    -lmujoco -lglfw -lGL -lpng -lm 2>"$ref.err" || {
    echo "render_ref does not build (libmujoco-dev, libglfw3-dev?): $(head -n 1 "$ref.err")" >&2
    exit 77
  }
fi
LIBGL_ALWAYS_SOFTWARE=1 exec xvfb-run -a -s "-screen 0 640x480x24" "$ref" "$@"
