#!/bin/sh
# run.sh: mjrender's segmentation, depth and colors against MuJoCo 2.2.2's renderer (Debian's
# libmujoco, offscreen under Xvfb with Mesa's software GL: scripts/render_ref.sh), view by view.
#
#   BIN=/path/to/bin sh t/oracle/render/run.sh [VIEW...]
#
# A VIEW is MODEL:CAMERA:STEPS[:KEY]: a model of the corpus beside the repository
# (../shared/corpus or $CORPUS; path relative to it), a camera ("free": both renderers' default
# free camera; else a model camera's name, passed to mjrender as --camera), and the state:
# mjstep's state after STEPS steps from the default state or keyframe KEY.  That one state is a
# one-frame stream for mjrender and its qpos a text file for render_ref (which reads a copy of
# the model without the attributes 2.2.2 does not know: scripts/native.sh).  Images are
# WIDTH x HEIGHT (environment; default 640x480).  Each view is compared by
# t/oracle/render/compare.c (per-geom IoU >= 0.98 for geoms of >= 1000 pixels, >= 0.90 for
# >= 50; median and 99th percentile of the relative depth error inside the geoms <= 1%; see
# there), after a self-test showing that it fails on a shifted image and a scaled depth.  The
# RGB pictures are compared per region (floor: the model's planes; robot: the other geoms;
# background), silhouettes' antialiased edges left out: on the Menagerie's scenes the floor, the
# robot and the background need PSNR >= MIN_DB (environment, default 30 dB; mjrender lights
# each vertex and interpolates the colors as MuJoCo's OpenGL fixed function does, and draws
# planes as MuJoCo's grids, so that the light falls the same on coarse meshes and on the
# floor).  Both pictures are antialiased: MuJoCo 2.2.2 multisamples (its default offsamples,
# 4 samples a pixel) and mjrender's RGB picture is drawn with --samples SAMPLES (environment,
# default 4: 4 x 4 supersamples a pixel), so that the edges inside a geom (a mesh folding over
# itself, Cassie's dense pelvis: 24.7 dB drawn with one sample, 31.7 with 4 x 4) are smoothed
# on both sides; segmentation and depth are drawn with one sample.  On dm_control's scenes only
# the background is judged, at
# STARS_DB (default 20 dB): their skybox is random stars, drawn from another generator than
# MuJoCo's, which keeps it near 23 dB where the colors agree (a haze band at the horizon
# MuJoCo does not draw took it to 10-20 dB).
#
# Skips (a line saying why, exit 0) when BIN/mjrender is missing, there is no corpus, or the
# reference cannot run (no xvfb-run, libmujoco-dev, libglfw3-dev: scripts/deps.sh installs
# them).  Exit status: 1 when any view is out of bounds or mjrender fails on it.
set -eu

cd "$(dirname "$0")/../../.."
BIN=${BIN:-$PWD/build/bin}
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror}
WIDTH=${WIDTH:-640}
HEIGHT=${HEIGHT:-480}
MIN_DB=${MIN_DB:-30}
SAMPLES=${SAMPLES:-4}
STARS_DB=${STARS_DB:-20}
corpus=${CORPUS:-../shared/corpus}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
. scripts/native.sh

# print why the test is skipped and exit 0
skip() {
  echo "render: skipped ($1)"
  exit 0
}

[ -x "$BIN/mjrender" ] || skip "no $BIN/mjrender"
[ -d "$corpus" ] || skip "no corpus at $corpus"
[ $# -gt 0 ] || set -- dm_control/humanoid.xml:free:150 dm_control/humanoid.xml:side:150 \
  dm_control/humanoid.xml:egocentric:150 dm_control/cartpole.xml:free:100 \
  dm_control/cartpole.xml:fixed:100 dm_control/cartpole.xml:lookatcart:100 \
  dm_control/cheetah.xml:free:200 dm_control/cheetah.xml:back:200 \
  dm_control/walker.xml:side:150 menagerie/pal_talos/scene_motor.xml:free:1 \
  menagerie/unitree_a1/scene.xml:free:1:home menagerie/agility_cassie/scene.xml:track:1:home \
  menagerie/shadow_hand/scene_right.xml:free:1 menagerie/franka_emika_panda/scene.xml:free:1 \
  menagerie/skydio_x2/scene.xml:free:1
# shellcheck disable=SC2086  # CFLAGS is a list of words
$CC $CFLAGS -o "$T/compare" t/oracle/render/compare.c -lpng -lm

# the state of view $1 into directory $2: state.mjt (one frame) and qpos.txt
state() {
  model=$corpus/$(echo "$1" | cut -d: -f1)
  steps=$(echo "$1" | cut -d: -f3)
  key=$(echo "$1" | cut -d: -f4)
  # shellcheck disable=SC2046  # the --key option, when given, is two words
  "$BIN/mjstep" "$model" -n "$steps" --every "$steps" $([ -n "$key" ] && echo --key "$key") \
    -o "$2/run.mjt"
  "$BIN/mjdump" --csv "$2/run.mjt" | sed -n '1p;$p' >"$2/state.csv"
  "$BIN/mjdump" --from-csv "$model" -o "$2/state.mjt" "$2/state.csv"
  "$BIN/mjdump" --csv --fields qpos "$2/state.mjt" | tail -n 1 >"$2/qpos.txt"
}

# the comparator must fail on a picture moved by 2 pixels, on depth 2% too far and on colors
# 20% too dark (the error of a reflective floor blended at 1 - reflectance)
selfTest() {
  rgb="$1/rgb.png,$1/rgb.png"
  set -- "$1/segment.png" "$1/depth.npy"
  "$T/compare" --rgb "$rgb" --min-db "$MIN_DB" "$@" "$@" >/dev/null ||
    { echo "render: compare fails on identical views"; exit 1; }
  if "$T/compare" --shift 2,0 "$@" "$@" >/dev/null ||
     "$T/compare" --depth-scale 1.02 "$@" "$@" >/dev/null ||
     "$T/compare" --rgb "$rgb" --min-db "$MIN_DB" --gain 0.8 "$@" "$@" >/dev/null; then
    echo "render: compare passes a shifted picture, a scaled depth or darkened colors"
    exit 1
  fi
}

status=0 views=0 bad=0
for v in "$@"; do
  views=$((views + 1))
  dir=$T/view$views
  mkdir -p "$dir/ref"
  model=$corpus/$(echo "$v" | cut -d: -f1)
  cam=$(echo "$v" | cut -d: -f2)
  echo "== $v (${WIDTH}x$HEIGHT)"
  if [ ! -f "$model" ]; then
    echo "no such model: $model"
    status=1 bad=$((bad + 1))
    continue
  fi
  state "$v" "$dir"

  # MuJoCo 2.2.2's view; 77: it cannot run here
  rc=0
  BIN=$BIN sh scripts/render_ref.sh "$(nativeCopy "$model")" "$WIDTH" "$HEIGHT" "$cam" \
    "$dir/ref" "$dir/qpos.txt" 2>"$dir/ref.err" || rc=$?
  [ "$rc" -eq 77 ] && skip "$(cat "$dir/ref.err")"
  if [ "$rc" -ne 0 ]; then
    echo "render_ref failed: $(tail -n 1 "$dir/ref.err")"
    status=1 bad=$((bad + 1))
    continue
  fi
  [ "$views" -eq 1 ] && selfTest "$dir/ref"

  # mjrender's view: segmentation and depth of the one frame
  set -- --width "$WIDTH" --height "$HEIGHT"
  [ "$cam" = free ] || set -- "$@" --camera "$cam"
  if ! "$BIN/mjrender" "$model" "$dir/state.mjt" "$@" --segment -o "$dir/seg%05d.png" ||
     ! "$BIN/mjrender" "$model" "$dir/state.mjt" "$@" --depth -o "$dir/depth%05d.npy" ||
     ! "$BIN/mjrender" "$model" "$dir/state.mjt" "$@" --samples "$SAMPLES" \
       -o "$dir/rgb%05d.png"; then
    echo "mjrender failed"
    status=1 bad=$((bad + 1))
    continue
  fi
  # the floor: the model's planes (geom type 0); colors judged on the Menagerie's scenes
  floor=$("$BIN/mjc" info "$model" --json | grep -o '"geom_type": *\[[^]]*\]' |
    tr -d '[] ' | cut -d: -f2 | tr ',' '\n' | awk '$1 == 0 { printf "%s%d", n++ ? "," : "", NR - 1 }')
  case $v in
    menagerie/*) min=$MIN_DB judge=floor,robot,background ;;
    *) min=$STARS_DB judge=background ;;
  esac
  if ! "$T/compare" --rgb "$dir/ref/rgb.png,$(echo "$dir"/rgb*.png)" --floor "$floor" \
       --min-db "$min" --judge "$judge" "$dir/ref/segment.png" "$dir/ref/depth.npy" \
       "$dir"/seg*.png "$dir"/depth*.npy; then
    status=1 bad=$((bad + 1))
  fi
done
echo "render: $views views, $((views - bad)) within bounds, $bad not"
exit $status
