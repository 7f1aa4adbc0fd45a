# lib.sh: what the tool tests share: a scratch directory, and checks of one command's
# stdout, stderr and exit status that count failures instead of stopping.
#   . "$(dirname "$0")/lib.sh"   (from a test run as: BIN=/path/to/bin sh t/tools/x.sh)
: "${BIN:?set BIN to the directory holding the tools}"
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT INT TERM
cd "$T" || exit 2
failures=0

# run CMD (a shell command line) with stdout in out, stderr in err; fail unless it exits WANT
run() {
  want=$1 cmd=$2
  eval "$cmd" >out 2>err
  got=$?
  if [ "$got" -ne "$want" ]; then
    echo "FAIL: $cmd: exit $got, expected $want"
    sed 's/^/  stderr: /' err
    failures=$((failures + 1))
  fi
}

# fail unless file $1 holds exactly the text $2 (plus a final newline when $2 is not empty)
same() {
  if [ -n "$2" ]; then printf '%s\n' "$2" >expected; else : >expected; fi
  if ! cmp -s "$1" expected; then
    echo "FAIL: $cmd: $1 differs from the expected text:"
    diff expected "$1" | sed 's/^/  /'
    failures=$((failures + 1))
  fi
}

# fail unless file $1 has a line matching the basic regular expression $2
has() {
  if ! grep -q -e "$2" "$1"; then
    echo "FAIL: $cmd: $1 lacks a line matching '$2'"
    sed 's/^/  /' "$1"
    failures=$((failures + 1))
  fi
}

# fail unless the shell test $@ holds
holds() {
  if ! test "$@"; then
    echo "FAIL: $cmd: expected test $*"
    failures=$((failures + 1))
  fi
}

# the verdict line of test file $1 and its status: 0 when every check passed
finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$1: $failures failures"
    exit 1
  fi
  echo "$1: all passed"
}

# write arm.xml: a two-joint arm (shoulder, elbow) with one motor on the elbow, the small model
# of the stream tests
twoJointArm() {
  cat >arm.xml <<'XML'
<mujoco model="arm">
  <worldbody>
    <body name="upper" pos="0 0 1">
      <joint name="shoulder" type="hinge" axis="0 1 0"/>
      <geom type="capsule" size="0.05" fromto="0 0 0 0 0 -0.5" mass="1"/>
      <body name="lower" pos="0 0 -0.5">
        <joint name="elbow" type="hinge" axis="0 1 0"/>
        <geom type="capsule" size="0.04" fromto="0 0 0 0 0 -0.4" mass="0.5"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <motor name="motor" joint="elbow"/>
  </actuator>
</mujoco>
XML
}

# the JSON value of array field $2 in mjc info --json of model $1, on one line
field() {
  "$BIN/mjc" info --json "$1" | tr -d ' \n' | sed -n "s/.*\"$2\":\(\[[^]]*\]\).*/\1/p"
  echo
}

# compileFails NAME LINE PATTERN: mjc compile NAME.xml -o NAME.mjb exits 2 with one line on
# stderr matching "mjc: NAME.xml:LINE: PATTERN" and leaves no NAME.mjb
compileFails() {
  run 2 "\"\$BIN/mjc\" compile $1.xml -o $1.mjb"
  has err "^mjc: $1.xml:$2: $3"
  holds "$(wc -l <err)" -eq 1
  holds ! -e "$1.mjb"
}
