#!/bin/sh
# run.sh: libmj's constraint rows against MuJoCo's (the oracle) from identical states and
# contacts; see t/oracle/constraint/run.mjs for what is compared and the bound.
#
#   BIN=/path/to/bin sh t/oracle/constraint/run.sh [MODEL.xml...]
#
# Models: t/oracle/constraint/models/*.xml.  Builds the helper t/oracle/constraint/efc.c
# against BIN/../libmj.a with CC, CFLAGS and LDLIBS (make check passes its own).  Exit status:
# nonzero when any case differs or is beyond the bound.
set -eu

cd "$(dirname "$0")/../../.."
. t/oracle/lib.sh

# the helper printing libmj's rows
efc=$(helper constraint/efc.c)

[ $# -eq 0 ] && set -- t/oracle/constraint/models/*.xml
status=0
node t/oracle/constraint/run.mjs --efc "$efc" "$@" || status=1
known_total constraint
exit $status
