#!/bin/sh
# memcheck.sh: the tool tests (t/tools/*.sh, or those named) with every tool run under
# valgrind's memcheck: an invalid read or write, a use of uninitialized memory or a definite
# leak makes the tool exit 99, which fails the test that ran it.  make memcheck runs it.
#
#   BIN=build/bin sh scripts/memcheck.sh [t/tools/x.sh...]     (from the repository root)
set -eu
: "${BIN:?set BIN to the directory holding the tools}"
BIN=$(cd "$BIN" && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT INT TERM

# a wrapper per tool, in a directory the tests take as their BIN
for tool in "$BIN"/*; do
  cat >"$W/${tool##*/}" <<SH
#!/bin/sh
exec valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite \\
  --errors-for-leak-kinds=definite \\
  "$tool" "\$@"
SH
  chmod +x "$W/${tool##*/}"
done

[ $# -gt 0 ] || set -- $(ls t/tools/*.sh | grep -v '/lib\.sh$')
for s in "$@"; do
  echo "== memcheck: $s"
  BIN=$W sh "$s"
done
