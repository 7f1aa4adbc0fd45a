#!/bin/sh
# hfield.sh: height fields through mjc: inline, binary-file and PNG fields compile, with the
# normalized elevations MuJoCo 3.5.1 stores (rows flipped for inline data and images); each
# malformed field exits 2 with one line on stderr naming the file, the line and the hfield.
#
#   BIN=/path/to/bin sh t/tools/hfield.sh        (from the repository root)
set -u
. "$(dirname "$0")/lib.sh"

# ---- data files ---------------------------------------------------------------------------------

# MuJoCo's binary format: int32 nrow 2, int32 ncol 2, float32 elevations 1 2 3 5
printf "$(cat <<'EOF'
\002\000\000\000\002\000\000\000\000\000\200\077\000\000\000\100\000\000\100\100\000\000\240\100
EOF
)" >grid.bin
head -c 20 grid.bin >short.bin

# a 3 x 2 gray PNG: rows (0 100 200) and (50 150 250)
printf "$(tr -d '\n' <<'EOF'
\211\120\116\107\015\012\032\012\000\000\000\015\111\110\104\122\000\000\000\003\000\000
\000\002\010\000\000\000\000\270\037\071\306\000\000\000\020\111\104\101\124\170\234\143
\140\110\071\301\140\064\355\027\000\011\004\002\357\274\354\062\152\000\000\000\000\111
\105\116\104\256\102\140\202
EOF
)" >gray.png
printf '\211PNG\r\n\032\nnot a png at all' >bad.png

# model FILE HFIELD-ATTRIBUTES: a world with one hfield h (line 3) and a geom showing it
model() {
  cat >"$1" <<EOF
<mujoco>
  <asset>
    <hfield name="h" $2/>
  </asset>
  <worldbody><geom type="hfield" hfield="h"/></worldbody>
</mujoco>
EOF
}

# ---- good fields ------------------------------------------------------------------------------

model inline.xml 'nrow="2" ncol="3" elevation="1 2 3 4 5 7" size="1 2 0.5 0.1"'
run 0 '"$BIN/mjc" compile inline.xml -o inline.mjb'
field inline.xml hfield_data >out
cmd='inline hfield_data'
same out '[0.5,0.66666668653488159,1,0,0.1666666716337204,0.3333333432674408]'

model binary.xml 'file="grid.bin" size="1 1 1 1"'
run 0 '"$BIN/mjc" compile binary.xml -o binary.mjb'
field binary.xml hfield_data >out
cmd='binary hfield_data'
same out '[0,0.25,0.5,1]'

model image.xml 'file="gray.png" size="1 1 1 1"'
run 0 '"$BIN/mjc" compile image.xml -o image.mjb'
field image.xml hfield_data >out
cmd='png hfield_data'
same out \
  '[0.20000000298023224,0.60000002384185791,1,0,0.40000000596046448,0.80000001192092896]'

# ---- malformed fields: exit 2, one line "FILE:3: hfield 'h': ..." ------------------------------

# bad NAME ATTRIBUTES PATTERN: the model with those attributes must fail on the hfield's line
bad() {
  model "$1.xml" "$2"
  compileFails "$1" 3 "hfield 'h': $3"
}

bad count 'nrow="2" ncol="2" elevation="1 2 3" size="1 1 1 1"' 'elevation has 3 numbers'
bad truncated 'file="short.bin" size="1 1 1 1"' '.*short.bin: unexpected file size'
bad badpng 'file="bad.png" size="1 1 1 1"' '.*bad.png: '
bad zerosize 'nrow="2" ncol="2" size="1 1 0 1"' 'size 2 must be positive'
bad negsize 'nrow="2" ncol="2" size="-1 1 1 1"' 'size 0 must be positive'
bad missing 'file="none.bin" size="1 1 1 1"' "could not open hfield file '.*none.bin': No such file"
bad nodata 'nrow="0" ncol="2" size="1 1 1 1"' 'no data'
bad contenttype 'file="grid.bin" content_type="image/jpeg" size="1 1 1 1"' 'unsupported content'

finish hfield.sh
