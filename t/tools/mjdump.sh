#!/bin/sh
# mjdump.sh: tests of mjdump: stream to CSV/TSV/NumPy, CSV back to a stream, and the errors,
# each case checking stdout, stderr and the exit status.
#   BIN=/path/to/bin sh t/tools/mjdump.sh
. "$(dirname "$0")/lib.sh"

# ---- inputs: a two-joint arm and a stream of time, qpos and ctrl -----------------------------
twoJointArm
run 0 '"$BIN/mjc" compile arm.xml -o arm.mjb'
cat >in.csv <<'CSV'
time,qpos[0],qpos[1],ctrl[0]
0,0.1,-0,1e-300
0.002,4.9406564584124654e-324,nan,-inf
0.004,1.7976931348623157e308,0.30000000000000004,2
CSV

# ---- CSV to stream ---------------------------------------------------------------------------
run 0 '"$BIN/mjdump" --from-csv arm.mjb in.csv -o s.mjt'
same out ''
same err ''
# 64-byte header and 3 frames of marker, 4 values, CRC
holds "$(wc -c <s.mjt)" -eq $((64 + 3 * (8 + 8 * 4)))
holds "$(head -c 8 s.mjt)" = MJSTREAM
# the header records the mask: time, qpos, ctrl = bits 0, 1, 5 = 0x23 at offset 56
holds "$(od -A n -t x1 -j 56 -N 4 s.mjt | tr -d ' ')" = 23000000
# the same stream from the MJCF source (same compiled model, same hash)
run 0 '"$BIN/mjdump" --from-csv arm.xml <in.csv | cmp - s.mjt'

# ---- stream to text --------------------------------------------------------------------------
run 0 '"$BIN/mjdump" s.mjt'
same out 'time,qpos[0],qpos[1],ctrl[0]
0,0.10000000000000001,-0,1e-300
0.002,4.9406564584124654e-324,nan,-inf
0.0040000000000000001,1.7976931348623157e+308,0.30000000000000004,2'
same err ''
run 0 '"$BIN/mjdump" --tsv --fields ctrl,time - <s.mjt'
tab=$(printf '\t')
same out "time${tab}ctrl[0]
0${tab}1e-300
0.002${tab}-inf
0.0040000000000000001${tab}2"
run 0 '"$BIN/mjdump" --fields state -o st.csv s.mjt'
same out ''
same st.csv 'time,qpos[0],qpos[1]
0,0.10000000000000001,-0
0.002,4.9406564584124654e-324,nan
0.0040000000000000001,1.7976931348623157e+308,0.30000000000000004'

# ---- round trips: stream -> text -> stream gives the same bytes ------------------------------
run 0 '"$BIN/mjdump" s.mjt | "$BIN/mjdump" --from-csv arm.mjb | cmp - s.mjt'
run 0 '"$BIN/mjdump" --tsv s.mjt | "$BIN/mjdump" --from-csv arm.mjb - | cmp - s.mjt'
# columns in another order give the same stream
printf 'ctrl[0],qpos[1],time,qpos[0]\r\n2,3,0.5,1\r\n' >perm.csv
printf 'time,qpos[0],qpos[1],ctrl[0]\n0.5,1,3,2\n' >sorted.csv
run 0 '"$BIN/mjdump" --from-csv arm.mjb perm.csv >p.mjt &&
       "$BIN/mjdump" --from-csv arm.mjb sorted.csv | cmp - p.mjt'

# every field the arm has (no act, mocap, equality or sensor), in table order
awk 'BEGIN {
  n = split("time 1 qpos 2 qvel 2 warmstart 2 ctrl 1 qfrc_applied 2 xfrc_applied 18 " \
            "qacc 2 qfrc_inverse 2 qfrc_constraint 2 actuator_force 1 energy 2 ncon 1 " \
            "nefc 1 warning 8", f)
  for (k = 1; k < n; k += 2)
    for (i = 0; i < f[k + 1]; i++) {
      head = head sep (f[k + 1] == 1 && f[k] != "ctrl" && f[k] != "actuator_force" ? \
             f[k] : f[k] "[" i "]")
      row = row sep (ncol++ * 0.25 - 3)
      sep = ","
    }
  print head; print row; print row
}' >all.csv
run 0 '"$BIN/mjdump" --from-csv arm.mjb all.csv -o all.mjt'
# mask bits 0 1 2 4 5 6 7 11 13 14 15 16 17 18 19 = 0x000fe8f7; frames of 46 values
holds "$(od -A n -t x1 -j 56 -N 4 all.mjt | tr -d ' ')" = f7e80f00
holds "$(wc -c <all.mjt)" -eq $((64 + 2 * (8 + 8 * 47)))
run 0 '"$BIN/mjdump" all.mjt | cmp - all.csv'
run 0 '"$BIN/mjdump" all.mjt | "$BIN/mjdump" --from-csv arm.mjb | cmp - all.mjt'

# ---- NumPy -----------------------------------------------------------------------------------
run 0 '"$BIN/mjdump" --npy np s.mjt'
same out ''
holds "$(ls np | tr '\n' ' ')" = "ctrl.npy qpos.npy time.npy "
holds "$(wc -c <np/qpos.npy)" -eq $((128 + 3 * 2 * 8))
holds "$(head -c 6 np/qpos.npy | tail -c 5)" = NUMPY
run 0 "grep -c \"{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }\" np/qpos.npy"
same out 1
# the first value of qpos is 0.1: little-endian 9a 99 99 99 99 99 b9 3f right after the header
holds "$(od -A n -t x1 -j 128 -N 8 np/qpos.npy | tr -d ' ')" = 9a9999999999b93f
# a zero-frame stream gives arrays of shape (0, n)
head -c 64 s.mjt >empty.mjt
run 0 '"$BIN/mjdump" --npy np0 --fields time empty.mjt'
run 0 "grep -c \"'shape': (0, 1)\" np0/time.npy"
same out 1

# ---- damaged streams -------------------------------------------------------------------------
run 2 'head -c 150 s.mjt | "$BIN/mjdump"'
same err 'mjdump: <stdin>: truncated frame 2 (6 of 40 bytes)'
run 2 '{ head -c 100 s.mjt; printf X; tail -c +102 s.mjt; } | "$BIN/mjdump" -o bad.csv'
same err 'mjdump: <stdin>: corrupt frame 0 (bad CRC-32C)'
holds ! -e bad.csv
run 2 'head -c 30 s.mjt | "$BIN/mjdump"'
same err 'mjdump: <stdin>: truncated header (30 of 64 bytes)'
run 2 '"$BIN/mjdump" arm.mjb'
same err 'mjdump: arm.mjb: not a state stream (bad magic)'
run 2 '"$BIN/mjdump" nope.mjt'
same err 'mjdump: nope.mjt: No such file or directory'
# a stream cut between frames is a shorter stream
run 0 'head -c 144 s.mjt | "$BIN/mjdump" --npy np2'
same err ''
run 0 "grep -c \"'shape': (2, 2)\" np2/qpos.npy"
same out 1
run 2 'head -c 150 s.mjt | "$BIN/mjdump" --npy np3'
same err 'mjdump: <stdin>: truncated frame 2 (6 of 40 bytes)'
holds ! -e np3

# ---- bad text --------------------------------------------------------------------------------
before=$(ls -A | wc -l)
run 2 'printf "time,qpos[0],qpos[1]\n0,1,2\n0,1,x\n" | "$BIN/mjdump" --from-csv arm.mjb -o x.mjt'
same err "mjdump: <stdin>:3: column 3 (qpos[1]): bad number 'x'"
holds ! -e x.mjt
holds "$(ls -A | wc -l)" -eq "$before"
run 2 'printf "time,qpos[0],qpos[1]\n0,1\n" | "$BIN/mjdump" --from-csv arm.mjb'
same err 'mjdump: <stdin>:2: 2 columns, the header row has 3'
run 2 'printf "time,qpos[0],qpos[1]\n0,1,2,3\n" | "$BIN/mjdump" --from-csv arm.mjb'
same err 'mjdump: <stdin>:2: 4 columns, the header row has 3'
run 2 'printf "time,qpos[0]\n0,1\n" | "$BIN/mjdump" --from-csv arm.mjb'
same err 'mjdump: <stdin>:1: qpos given partially: column qpos[1] is missing'
run 2 'printf "time,qpos[2]\n" | "$BIN/mjdump" --from-csv arm.mjb'
same err "mjdump: <stdin>:1: column 2: 'qpos[2]' is out of range: qpos has 2 elements for \
this model"
run 2 'printf "time,speed\n" | "$BIN/mjdump" --from-csv arm.mjb'
same err "mjdump: <stdin>:1: column 2: unknown column 'speed'"
run 2 'printf "ctrl[0],ctrl[0]\n" | "$BIN/mjdump" --from-csv arm.mjb'
same err "mjdump: <stdin>:1: column 2: duplicate column 'ctrl[0]'"
run 2 'printf "time\n1e999\n" | "$BIN/mjdump" --from-csv arm.mjb'
same err "mjdump: <stdin>:2: column 1 (time): bad number '1e999'"
run 2 'printf "time\n\n7,\n" | "$BIN/mjdump" --from-csv arm.mjb'
same err 'mjdump: <stdin>:3: 2 columns, the header row has 1'
run 2 '"$BIN/mjdump" --from-csv arm.mjb </dev/null'
same err 'mjdump: <stdin>: empty input (no header row)'
run 2 '"$BIN/mjdump" --from-csv nope.mjb in.csv'
same err 'mjdump: nope.mjb: No such file or directory'

# ---- options ---------------------------------------------------------------------------------
run 2 '"$BIN/mjdump" --fields qvel s.mjt'
same err 'mjdump: s.mjt: the stream has no field qvel'
run 2 '"$BIN/mjdump" --fields qpos,speed s.mjt'
same err "mjdump: unknown field 'speed' (fields: time, qpos, ... or state, input, output, all; \
see mjt(5))"
run 2 '"$BIN/mjdump" --bogus s.mjt'
has err '^mjdump: unknown option or missing value: --bogus$'
has err '^usage: mjdump'
same out ''
run 2 '"$BIN/mjdump" s.mjt extra.mjt'
has err '^usage: mjdump'
run 2 '"$BIN/mjdump" --npy'
has err '^mjdump: unknown option or missing value: --npy$'
run 2 '"$BIN/mjdump" --npy d -o x s.mjt'
same err 'mjdump: -o does not apply to --npy (the files go into DIR)'
run 0 '"$BIN/mjdump" --help'
has out '^usage: mjdump'
same err ''
run 0 '"$BIN/mjdump" --version'
same out 'mjdump 0.1.0 (libmj 0.1.0)'

# ---- a closed pipe ends mjdump quietly -------------------------------------------------------
awk -v OFS=, 'BEGIN {
  print "time,qpos[0],qpos[1]"
  for (i = 0; i < 50000; i++) print i, i / 7, -i
}' >big.csv
run 0 '"$BIN/mjdump" --from-csv arm.mjb big.csv -o big.mjt'
run 0 '{ "$BIN/mjdump" big.mjt 2>pipe.err; } | head -n 2'
same out 'time,qpos[0],qpos[1]
0,0,0'
same pipe.err ''
run 0 '"$BIN/mjdump" big.mjt | tail -n 1'
same out '49999,7142.71,-49999'

finish mjdump.sh
