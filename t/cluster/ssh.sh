#!/bin/sh
# ssh.sh: a stand-in for ssh that makes hosts out of directories on this machine, for testing
# GNU parallel's remote runs without an sshd (parallel --ssh t/cluster/ssh.sh, and rsync through
# it for --basefile and --return).
#
#   HOSTS=/path/to/hosts sh t/cluster/ssh.sh [OPTION]... [USER@]HOST[.DOMAIN] [--] COMMAND...
#
# Runs COMMAND (its words joined by spaces, as ssh sends them) with sh -c in $HOSTS/HOST, made on
# first use, which is also HOME there: the login directory of host HOST.  The user and the
# network part of the name are ignored (bob@beta.example.org is host beta).  ssh's options are
# skipped, with the argument of those that take one.  SHELL is the login shell from the password
# database, as sshd sets it (GNU parallel's remote wrapper runs the command with $SHELL: unset,
# as under a CI runner, it runs nothing and succeeds).
set -eu
: "${HOSTS:?set HOSTS to the directory of the host directories}"

# ssh's options, up to the host name
while [ $# -gt 0 ]; do
  case $1 in
    -[BbcDEeFIiJLlmOopQRSWw]) shift 2 ;;
    -*) shift ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || { echo "ssh.sh: usage: ssh.sh [OPTION]... HOST COMMAND..." >&2; exit 255; }

# the host's directory: the name without user and domain
host=${1#*@}
host=${host%%.*}
shift
[ "$1" != -- ] || shift
mkdir -p "$HOSTS/$host"
cd "$HOSTS/$host"
SHELL=$(getent passwd "$(id -u)" | cut -d: -f7)
HOME=$PWD SHELL=${SHELL:-/bin/sh} exec sh -c "$*"
