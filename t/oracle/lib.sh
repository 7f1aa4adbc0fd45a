# lib.sh: what the oracle tests share, sourced from the repository root (each test cds there
# first): the build to test (BIN, and CC, CFLAGS, LDLIBS for the small C helpers that print
# libmj's side, as make check passes them), and the oracle itself: node and the npm package
# @mujoco/mujoco (MuJoCo 3.14.0, pinned in scripts/package.json), installed into
# scripts/node_modules on first use.
BIN=${BIN:-$PWD/build/bin}
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Ilib}
LDLIBS=${LDLIBS:--lexpat -lz -lm -lccd -lqhull_r -lpng}

command -v node >/dev/null 2>&1 || { echo "$(basename "$0"): node is not installed" >&2; exit 2; }
if [ ! -d scripts/node_modules/@mujoco/mujoco ]; then
  echo "$(basename "$0"): installing the oracle (npm ci --prefix scripts)" >&2
  npm ci --prefix scripts --no-audit --no-fund >&2 ||
    npm install --prefix scripts --no-audit --no-fund >&2
fi

# build the C helper t/oracle/$1 (a path below t/oracle) against BIN/../libmj.a into
# BIN/../t/oracle-NAME (NAME: $1 with / as -, without .c) and print its path
helper() {
  out=$(dirname "$BIN")/t/oracle-$(echo "${1%.c}" | tr / -)
  mkdir -p "$(dirname "$out")"
  # shellcheck disable=SC2086
  $CC $CFLAGS -o "$out" "t/oracle/$1" "$(dirname "$BIN")/libmj.a" $LDLIBS && echo "$out"
}

# the known divergences (t/oracle/known.txt) a suite meets: t/oracle/known.mjs appends each
# known case to the file ORACLE_KNOWN; known_total SUITE prints their count and removes it
ORACLE_KNOWN=$(mktemp)
export ORACLE_KNOWN
known_total() {
  echo "$1: $(wc -l <"$ORACLE_KNOWN") known divergences (t/oracle/known.txt)"
  rm -f "$ORACLE_KNOWN"
}
