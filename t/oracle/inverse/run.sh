#!/bin/sh
# run.sh: libmj's inverse dynamics against MuJoCo's (the oracle) from identical states; see
# t/oracle/inverse/run.mjs for what is compared and the bound.
#
#   BIN=/path/to/bin sh t/oracle/inverse/run.sh [MODEL.xml...]
#
# Models: t/oracle/inverse/models/*.xml, the contact, equality, limit and adhesion models of
# t/oracle/constraint/models, actuator damping and armature (t/oracle/models/actdamp.xml), DC
# motors (t/oracle/models/dcmotor.xml), and the corpus humanoid (../shared/corpus) when
# present.  Builds the helper t/oracle/inverse/inv.c against BIN/../libmj.a with CC, CFLAGS
# and LDLIBS (make check passes its own).  Exit status: nonzero when any case differs or is
# beyond the bound.
set -eu

cd "$(dirname "$0")/../../.."
. t/oracle/lib.sh

# the helper running libmj's inverse
inv=$(helper inverse/inv.c)

if [ $# -eq 0 ]; then
  set -- t/oracle/inverse/models/*.xml t/oracle/constraint/models/contacts.xml \
    t/oracle/constraint/models/equality.xml t/oracle/constraint/models/limits.xml \
    t/oracle/constraint/models/adhesion.xml t/oracle/models/actdamp.xml \
    t/oracle/models/dcmotor.xml
  corpus=../shared/corpus/gymnasium/humanoid.xml
  [ -f "$corpus" ] && set -- "$@" "$corpus"
fi
status=0
node t/oracle/inverse/run.mjs --inv "$inv" "$@" || status=1
known_total inverse
exit $status
