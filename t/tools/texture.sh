#!/bin/sh
# texture.sh: mjc on malformed textures and PNG files: each case must exit 2 with one line on
# stderr naming the model file and the <texture> line, print nothing on stdout, and leave no
# .mjb behind.
#
#   BIN=/path/to/bin sh t/tools/texture.sh        (from the repository root)
set -u
PNG=$(cd "$(dirname "$0")/../oracle/texture/png" && pwd)
. "$(dirname "$0")/lib.sh"

# good images to break: a 6x4 RGB file and its bytes
cp "$PNG/rgb.png" "$PNG/square.png" "$PNG/nonsquare.png" "$PNG/right.png" .
size=$(wc -c <rgb.png)
head -c $((size - 30)) rgb.png >truncated.png
printf 'this is not an image\n' >notpng.png
: >empty.png
# a valid header claiming 100000 x 100000 pixels, refused before any pixel is read
printf '\211\120\116\107\015\012\032\012\000\000\000\015\111\110\104\122\000\001\206\240' >huge.png
printf '\000\001\206\240\010\002\000\000\000\047\060\234\237' >>huge.png
# the IHDR's width changed without its CRC
{ head -c 18 rgb.png; printf '\001'; tail -c +20 rgb.png; } >badcrc.png

# bad NAME MESSAGE TEXTURE: a model whose line 3 is the texture element TEXTURE must fail with
# one line on stderr holding NAME.xml:3: and MESSAGE
bad() {
  printf '<mujoco>\n  <asset>\n    %s\n  </asset>\n</mujoco>\n' "$3" >"$1.xml"
  run 2 "\$BIN/mjc compile $1.xml"
  holds "$(wc -l <err)" -eq 1
  has err "^mjc: .*$1.xml:3: .*$2"
  holds ! -s out
  holds ! -e "$1.mjb"
}

bad truncated 'truncated.png: truncated PNG file' \
  '<texture name="t" type="2d" file="truncated.png"/>'
bad notpng 'notpng.png: not a PNG file' '<texture name="t" type="2d" file="notpng.png"/>'
bad empty 'empty.png: empty file' '<texture name="t" type="2d" file="empty.png"/>'
bad missing "nothere.png': No such file" '<texture name="t" type="2d" file="nothere.png"/>'
bad badcrc 'badcrc.png: corrupt PNG file' '<texture name="t" type="2d" file="badcrc.png"/>'
bad huge 'huge.png: PNG image size 100000x100000' '<texture name="t" type="2d" file="huge.png"/>'
bad zerosize 'builtin texture size 0x3' \
  '<texture name="t" type="2d" builtin="checker" width="0" height="3"/>'
bad grid 'not a grid of 2x4 square cells' \
  '<texture name="t" file="rgb.png" gridsize="2 4" gridlayout=".U..LFRB"/>'
bad layoutlength 'gridlayout has 11 symbols' \
  '<texture name="t" file="rgb.png" gridsize="3 4" gridlayout=".U..LFRB.D."/>'
bad symbol "symbol 'X' is not among" \
  '<texture name="t" file="rgb.png" gridsize="2 3" gridlayout="RLUDFX"/>'
bad nonsquare 'nonsquare.png: cube face is not square' \
  '<texture name="t" fileright="right.png" fileleft="nonsquare.png"/>'
bad facesize 'square.png: cube face is 4x4, the first face is 3x3' \
  '<texture name="t" fileright="right.png" fileleft="square.png"/>'
bad channels 'texture file with 2 channels' \
  '<texture name="t" type="2d" file="rgb.png" nchannel="2"/>'
bad nofile '2d texture needs a file or a builtin' '<texture name="t" type="2d"/>'
bad noname 'texture needs a name' '<texture type="cube" builtin="flat" width="3"/>'

finish texture.sh
