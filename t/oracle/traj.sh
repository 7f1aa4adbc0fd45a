#!/bin/sh
# traj.sh: mjstep's trajectories and libmj's one-step quantities against MuJoCo (the oracle):
# contacts disabled, the four integrators, 1000 steps; then with contacts, each model's own
# options, 200 steps and the statistics of a run of TRAJ_SECONDS (default 10) seconds
# (traj.mjs --contacts); see t/oracle/traj.mjs for the bounds.
#
#   BIN=/path/to/bin sh t/oracle/traj.sh [MODEL.xml...]
#
# Models: the arguments (both runs), or t/oracle/models/*.xml (without contacts only),
# models/*.xml but crowd100, and the corpus models named below (beside the repository; the
# contact run adds the contact-rich ones of `extra` and a box stack; both engines run with
# MuJoCo's default options, nativeccd on; the A1 runs once more with nativeccd off, libccd's
# MPR).  Builds the helper t/oracle/fwd.c against
# BIN/../libmj.a with CC, CFLAGS and LDLIBS (make check passes its own) into a temporary
# directory.  Rows listed in t/oracle/known.txt (suite traj) are judged against their entries.
# Exit status: nonzero when any row of either run is beyond its bound and its entry's.
set -eu

cd "$(dirname "$0")/../.."
. t/oracle/lib.sh

# the tools, copied so that a rebuild during the run cannot pull them away, and the helper
# printing libmj's one-step quantities
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cp "$BIN/mjstep" "$BIN/mjdump" "$tmp/"
# shellcheck disable=SC2086
$CC $CFLAGS -o "$tmp/fwd" t/oracle/fwd.c "$(dirname "$BIN")/libmj.a" $LDLIBS

# the models: the arguments, or ours and the corpus list; the run without contacts adds the
# test models ($smooth), the one with them the contact-rich corpus models ($extra)
smooth= extra=
if [ $# -eq 0 ]; then
  smooth=$(echo t/oracle/models/*.xml)
  # models/, but crowd100: 100 copies of the biped (tested itself), a benchmark scene whose
  # 1000 oracle steps would take minutes under WebAssembly
  for f in models/*.xml; do
    [ "$f" = models/crowd100.xml ] || set -- "$@" "$f"
  done
  corpus=../shared/corpus
  for f in dm_control/humanoid dm_control/humanoid_CMU dm_control/cheetah dm_control/hopper \
           dm_control/walker dm_control/acrobot dm_control/cartpole dm_control/pendulum \
           dm_control/reacher dm_control/finger dm_control/fish dm_control/swimmer \
           dm_control/quadruped gymnasium/ant gymnasium/half_cheetah gymnasium/humanoid \
           gymnasium/hopper gymnasium/walker2d gymnasium/inverted_double_pendulum \
           gymnasium/inverted_pendulum gymnasium/reacher gymnasium/swimmer gymnasium/pusher; do
    [ -f "$corpus/$f.xml" ] && set -- "$@" "$corpus/$f.xml"
  done
  for f in dm_control/ball_in_cup dm_control/manipulator dm_control/stacker \
           dm_control/point_mass gymnasium/humanoidstandup gymnasium/point; do
    [ -f "$corpus/$f.xml" ] && extra="$extra $corpus/$f.xml"
  done
  # the robots: meshes (plane-mesh, mesh-primitive, mesh-mesh), equality loops (cassie),
  # elliptic cones (a1, shadow hand, anymal), and the dog's many capsule contacts; the CG
  # scene of bodies dropped on elliptic cones, up to five islands (3.7e-7 from MuJoCo with
  # islands off in both, 4.8e-9 with them, where its own spread is 2.6e-9); ANYmal C's MJX
  # scene, one Newton iteration of at most four line-search evaluations a step; the Tetheria
  # hand (5 Newton iterations, 8 evaluations), whose line search at step 60 from keyframe 0
  # runs out of evaluations with both bracket ends uphill: no step, 0 iterations (issue 25)
  for f in menagerie/unitree_a1/scene menagerie/franka_emika_panda/scene \
           menagerie/pal_talos/scene_motor menagerie/shadow_hand/scene_right \
           menagerie/skydio_x2/scene menagerie/agility_cassie/scene \
           menagerie/anybotics_anymal_c/scene menagerie/anybotics_anymal_c/scene_mjx \
           menagerie/tetheria_aero_hand_open/scene_right dm_control/dog solver/cg_elliptic_drops; do
    [ -f "$corpus/$f.xml" ] && extra="$extra $corpus/$f.xml"
  done
  # a falling, settling stack of four boxes (box-box face and edge contacts)
  extra="$extra t/oracle/collision/models/box_stack.xml"
  # issue 12's CG scene: a condim-6 box landing among four free bodies (elliptic cones)
  extra="$extra t/oracle/solver/cg_box.xml"
fi

status=0
# shellcheck disable=SC2086
node t/oracle/traj.mjs --bin "$tmp" --fwd "$tmp/fwd" $smooth "$@" || status=1
# shellcheck disable=SC2086
node t/oracle/traj.mjs --bin "$tmp" --contacts --seconds "${TRAJ_SECONDS:-10}" "$@" $extra ||
  status=1
# moving surfaces (geom surfacevel) under both cones, the three solvers, noslip and the four
# integrators, 1000 steps
if [ -n "$smooth" ]; then
  node t/oracle/traj.mjs --bin "$tmp" --contacts --steps 1000 --seconds "${TRAJ_SECONDS:-10}" \
    t/oracle/traj/surfacevel_*.xml || status=1
  # adhesive contacts (geom and pair adhesion): held under a ceiling and on a wall, captured
  # across the gap, a pair's override, a motor sliding a paddle on a sticky post
  node t/oracle/traj.mjs --bin "$tmp" --contacts --steps 1000 --seconds "${TRAJ_SECONDS:-10}" \
    t/oracle/traj/geomadh_*.xml || status=1
fi
# the A1 with nativeccd off: its legs touch each other, capsule-cylinder contacts by libccd's
# MPR
a1=../shared/corpus/menagerie/unitree_a1/scene.xml
if [ -n "$smooth" ] && [ -f "$a1" ]; then
  FLAGS=nativeccd node t/oracle/traj.mjs --bin "$tmp" --contacts --seconds "${TRAJ_SECONDS:-10}" \
    "$a1" || status=1
fi
known_total traj
exit $status
