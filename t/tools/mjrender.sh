#!/bin/sh
# mjrender.sh: tests of mjrender: PNG files, raw frames, segmentation and depth outputs, threads,
# cameras, and the errors (exit 2, one line, no file left behind).
#   BIN=/path/to/bin sh t/tools/mjrender.sh
. "$(dirname "$0")/lib.sh"

# ---- inputs: the arm over a floor with a camera, a stream of 5 frames ----------------------
twoJointArm
sed 's|<worldbody>|<worldbody><geom name="floor" type="plane" size="0 0 1"/><light pos="0 0 3"/>\
<camera name="side" pos="0 -2 0.5" xyaxes="1 0 0 0 0 1"/>|' arm.xml >scene.xml
run 0 '"$BIN/mjc" compile scene.xml -o scene.mjb'
run 0 '"$BIN/mjstep" scene.mjb -n 5 -o s.mjt'
cat >other.xml <<'XML'
<mujoco><worldbody><body><joint/><geom size=".1"/></body></worldbody></mujoco>
XML

# the width and height recorded in a PNG's IHDR chunk, "W H"
pngSize() {
  od -A n -t u1 -j 16 -N 8 "$1" | awk '{print $3 * 256 + $4, $7 * 256 + $8}'
}

# ---- PNG frames --------------------------------------------------------------------------------
run 0 '"$BIN/mjrender" scene.mjb s.mjt -o f%03d.png'
same out ''
same err ''
holds "$(ls f*.png | wc -l)" -eq 6
holds "$(head -c 8 f000.png | od -A n -t x1 | tr -d ' ')" = 89504e470d0a1a0a
holds "$(pngSize f005.png)" = "640 480"
# every K-th frame, another size, a model camera; no stream: one image of the initial state
run 0 '"$BIN/mjrender" scene.xml s.mjt -o e%d.png --every 2 --width 64 --height 48 --camera side'
holds "$(ls e*.png | wc -l)" -eq 3
holds "$(pngSize e2.png)" = "64 48"
run 0 '"$BIN/mjrender" scene.mjb -o one.png --width 32 --height 24 --camera 0'
holds "$(pngSize one.png)" = "32 24"
# the free camera and the flags
run 0 '"$BIN/mjrender" scene.mjb -o free.png --width 32 --height 24 --lookat 0,0,0.5 \
  --distance 3 --azimuth 45 --elevation -10 --flag shadow=off,wireframe=on --samples 2'
holds -s free.png

# ---- raw frames, threads -----------------------------------------------------------------------
run 0 '"$BIN/mjrender" scene.mjb s.mjt --raw --width 40 --height 30 >raw1'
holds "$(wc -c <raw1)" -eq $((6 * 40 * 30 * 3))
run 0 '"$BIN/mjrender" scene.mjb - --raw --width 40 --height 30 --threads 2 <s.mjt >raw2'
run 0 'cmp raw1 raw2'
run 0 '"$BIN/mjrender" scene.mjb s.mjt -o t%d.png --threads 3 --width 40 --height 30'
run 0 '"$BIN/mjrender" scene.mjb s.mjt -o u%d.png --threads 1 --width 40 --height 30'
for i in 0 1 2 3 4 5; do run 0 "cmp t$i.png u$i.png"; done

# ---- segmentation and depth ------------------------------------------------------------------
# the floor is geom 0: id 1 in the red byte, the background 0
run 0 '"$BIN/mjrender" scene.mjb --segment --raw --width 8 --height 8 --camera side >seg'
holds "$(od -A n -t u1 -j $((3 * 63)) -N 3 seg | tr -s ' ')" = " 1 0 0"
holds "$(od -A n -t u1 -N 3 seg | tr -s ' ')" = " 0 0 0"
run 0 '"$BIN/mjrender" scene.mjb --depth -o d.npy --width 8 --height 6'
holds "$(wc -c <d.npy)" -eq $((128 + 8 * 6 * 4))
run 0 'head -c 128 d.npy | grep -q "'"'"'shape'"'"': (6, 8)"'
run 0 '"$BIN/mjrender" scene.mjb --depth-png -o d.png --width 8 --height 6'
holds "$(od -A n -t u1 -j 24 -N 2 d.png | tr -s ' ')" = " 16 0"

# ---- material texture roles --------------------------------------------------------------------
# the renderer draws a material's rgb role whether texture= or a <layer> names it, and no other
# role: the same pixels with layers around the rgb one, and a normal map alone is no texture
cat >roles.xml <<'XML'
<mujoco><asset>
<texture name="c" type="2d" builtin="checker" width="16" height="16" rgb1="1 0 0" rgb2="0 0 1"/>
<texture name="n" type="2d" builtin="gradient" width="8" height="8" rgb1="0 1 0"/>
<material name="m" texture="c"/>
</asset><worldbody><light pos="0 0 3"/><geom type="box" size=".5 .5 .5" material="m"/>
</worldbody></mujoco>
XML
sed 's|texture="c"/>|><layer texture="n" role="normal"/><layer texture="c" role="rgb"/>\
<layer texture="n" role="orm"/></material>|' roles.xml >roles_layers.xml
sed 's|texture="c"/>|><layer texture="n" role="normal"/></material>|' roles.xml >roles_normal.xml
sed 's|texture="c"/>|/>|' roles.xml >roles_none.xml
for v in roles roles_layers roles_normal roles_none; do
  run 0 '"$BIN/mjrender" '$v'.xml -o '$v'.png --width 48 --height 36 --distance 3'
done
run 0 'cmp roles.png roles_layers.png'
run 0 'cmp roles_normal.png roles_none.png'
run 1 'cmp -s roles.png roles_none.png'

# ---- errors: exit 2, one line, no file -------------------------------------------------------
fails() {
  run 2 "$1"
  has err "^mjrender: $2"
  holds "$(wc -l <err)" -eq 1
}
rm -f x*.png
fails '"$BIN/mjrender" scene.mjb s.mjt -o x.png' 'several frames, but the output pattern'
fails '"$BIN/mjrender" scene.mjb s.mjt -o x%d.png --camera nosuch' "unknown camera 'nosuch'"
fails '"$BIN/mjrender" scene.mjb s.mjt -o x%d.png --camera 7' "unknown camera '7'"
run 0 '"$BIN/mjc" compile other.xml -o other.mjb'
fails '"$BIN/mjrender" other.mjb s.mjt -o x%d.png' ''
fails '"$BIN/mjrender" scene.mjb -o nodir/x.png' 'nodir/x.png'
fails '"$BIN/mjrender" scene.mjb -o x%d%d.png' 'output pattern: more than one'
fails '"$BIN/mjrender" scene.mjb -o x%s.png' 'output pattern: only'
holds "$(ls x*.png 2>/dev/null | wc -l)" -eq 0
# sizes: zero, too large a side, too many pixels
run 2 '"$BIN/mjrender" scene.mjb -o x.png --width 0'
has err "^mjrender: --width: '0' is not an integer in 1..16384"
run 2 '"$BIN/mjrender" scene.mjb -o x.png --height 20000'
fails '"$BIN/mjrender" scene.mjb -o x.png --width 16384 --height 8192' 'image size'
run 2 '"$BIN/mjrender" scene.mjb'
has err 'give one of -o PATTERN and --raw'
run 2 '"$BIN/mjrender" scene.mjb --raw --flag shadow=maybe'
run 2 '"$BIN/mjrender" scene.mjb --raw --group 9'
holds "$(ls x*.png 2>/dev/null | wc -l)" -eq 0

# ---- help and version ------------------------------------------------------------------------
run 0 '"$BIN/mjrender" --help'
has out '^usage: mjrender'
run 0 '"$BIN/mjrender" --version'
has out '^mjrender '

finish mjrender.sh
