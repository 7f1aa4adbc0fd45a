#!/bin/sh
# interrupt.sh: SIGINT or SIGTERM during a long mjstep: a stream on standard output (a file or
# a pipe) ends on a frame boundary and reads back whole with mjdump; an output file (-o) is
# removed, leaving neither it nor its temporary; with --batch on threads the stream holds whole
# trajectories; mjstep dies of the signal (status 128 + signal number).
#
#   BIN=/path/to/bin sh t/tools/interrupt.sh        (from the repository root)
. "$(dirname "$0")/lib.sh"

twoJointArm
"$BIN/mjc" compile arm.xml -o arm.mjb || exit 2
frame=$((8 + 8 * 5))  # time, 2 qpos, 2 qvel: marker, values, CRC

# perl -e "$dfl" CMD...: CMD with SIGINT at its default action (the shell starts background
# jobs with SIGINT ignored, which the tools respect; perl is part of every Debian system)
dfl='$SIG{INT} = "DEFAULT"; exec @ARGV or die "$ARGV[0]: $!\n"'

# wait until file $1 holds more than $2 bytes (at most 20 s)
grown() {
  i=0
  while [ "$(cat "$1" 2>/dev/null | wc -c)" -le "$2" ] && [ $i -lt 200 ]; do
    sleep 0.1
    i=$((i + 1))
  done
}

# interrupt SIGNAL STATUS: mjstep (pid $pid) got SIGNAL once its output $out grew; it must
# end with STATUS
interrupt() {
  grown "$out" 64
  kill -"$1" "$pid"
  # a tool that ignores the signal is killed after 10 s (and the status check fails)
  i=0
  while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
  done
  kill -KILL "$pid" 2>/dev/null
  # (the shell's "Terminated" notice of its job is not the tool's output)
  { wait "$pid"; } 2>/dev/null
  got=$?
  cmd="mjstep killed by SIG$1 while writing $out"
  holds "$got" -eq "$2"
}

# ends STREAM N: STREAM is a header and whole frames of N values (no trailing bytes) that
# mjdump reads back, one CSV line per frame after its header line
ends() {
  bytes=$(wc -c <"$1")
  holds $(((bytes - 64) % (8 + 8 * $2))) -eq 0
  run 0 "\$BIN/mjdump --csv $1"
  holds "$(wc -l <out)" -eq $(((bytes - 64) / (8 + 8 * $2) + 1))
}

# standard output redirected to a file, SIGTERM
"$BIN/mjstep" arm.mjb -n 1000000000 >stdout.mjt &
pid=$! out=stdout.mjt
interrupt TERM 143
ends stdout.mjt 5

# a pipe (through a FIFO into cat), SIGINT
mkfifo fifo
cat fifo >pipe.mjt &
catpid=$!
perl -e "$dfl" "$BIN/mjstep" arm.mjb -n 1000000000 >fifo &
pid=$! out=pipe.mjt
interrupt INT 130
wait "$catpid"
ends pipe.mjt 5

# -o FILE: neither the file nor a temporary remains
perl -e "$dfl" "$BIN/mjstep" arm.mjb -n 1000000000 -o file.mjt &
pid=$!
i=0
while [ -z "$(ls -A | grep '^\.file\.mjt\.')" ] && [ $i -lt 200 ]; do
  sleep 0.1
  i=$((i + 1))
done
out=$(ls -A | grep '^\.file\.mjt\.')
interrupt INT 130
holds ! -e file.mjt
holds -z "$(ls -A | grep '^\.file')"

# --batch on two threads: 80004 initial states (4 trajectories of 20001 frames), each a
# trajectory of 20001 frames, the stream interrupted somewhere among them
"$BIN/mjstep" arm.mjb -n 3 >init.mjt
"$BIN/mjstep" arm.mjb -n 20000 --batch init.mjt >inits.mjt
"$BIN/mjstep" arm.mjb -n 20000 --batch --threads 2 inits.mjt >batch.mjt &
pid=$! out=batch.mjt
interrupt TERM 143
ends batch.mjt 5
holds $((($(wc -c <batch.mjt) - 64) % (20001 * frame))) -eq 0

finish interrupt.sh
