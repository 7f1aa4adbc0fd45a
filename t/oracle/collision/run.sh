#!/bin/sh
# run.sh: libmj's contacts against MuJoCo's (the oracle) at identical positions; see
# t/oracle/collision/compare.mjs for the states and bounds.
#
#   BIN=/path/to/bin sh t/oracle/collision/run.sh [MODEL.xml...]
#
# Models: the analytic test models of t/oracle/collision/models and the corpus models named
# below (beside the repository).  Builds the helper t/oracle/collision/contacts.c against
# BIN/../libmj.a with CC, CFLAGS and LDLIBS (make check passes its own).  box_pairs.xml,
# aligned.xml and convex.xml are compared at 1000 random poses each, convex.xml also with a
# margin: box-box and capsule-box contacts follow MuJoCo's rules exactly (ties included), and
# the pairs without analytic functions go through libccd's MPR with MuJoCo's support functions
# and normal refinement (nativeccd off in both), so every pose must agree.  Meshes:
# mesh_plane.xml and mesh_plane_hex.xml (plane-mesh, MuJoCo's vertex rule; hexagonal prisms
# landing flat, cut to four corners as MuJoCo cuts them; mesh_plane_quad.xml: hexagons and a
# prism with a near-doubled corner, where only a search from the deepest corner agrees) and
# mesh_round.xml (sphere, capsule
# and ellipsoid against meshes through MPR), mesh_pairs.xml (every pair with a mesh), hfield.xml
# and hfield_mesh.xml through MPR at 1000 random poses, exactly (MPR on polytopes and
# cylinders turns last-bit differences of the compiled frames into visible ones: the frames are
# MuJoCo's bit for bit; compare.mjs --same-frames substitutes MuJoCo's to tell the two causes
# apart).  Our GJK/EPA and multiccd (nativeccd on, MuJoCo's default) are compared with
# MuJoCo's per pair type by convex_native.mjs at 1000 random poses of convex_native.xml (the
# curved primitives, cylinders and boxes), mesh_pairs.xml (every pair with a mesh) and
# hfield.xml (a bumpy height field under the convex primitives) and hfield_deep.xml (the same
# sunk into the field: EPA's normals, unrefined), converged and at MuJoCo's
# default iterations and tolerance: the same contact sets, every contact within 1e-10.  distance.mjs compares mj_geomDistance through GJK of a mesh against a
# capsule, a mesh, a box and a sphere (distance.xml, ccd_tolerance 1e-13) at 3000 random poses
# within 1e-12.  Cases listed in t/oracle/known.txt (suite collision) are judged against their
# entries.
set -eu

cd "$(dirname "$0")/../../.."
. t/oracle/lib.sh

# the helper printing libmj's contacts
helper=$(helper collision/contacts.c)

# the models: the arguments, or ours and the corpus list, then ours again with the override
# option (margin, solref, solimp, friction of every contact)
override=
if [ $# -eq 0 ]; then
  override=1
  m=t/oracle/collision/models
  set -- $m/plane_primitives.xml $m/tilted_plane.xml $m/round.xml $m/filters.xml $m/params.xml \
    $m/capsule_box.xml $m/boxes.xml $m/box_stack.xml $m/touch.xml $m/box_deep.xml
  corpus=../shared/corpus
  for f in dm_control/humanoid dm_control/humanoid_CMU dm_control/hopper dm_control/walker \
           dm_control/cheetah gymnasium/ant gymnasium/humanoid gymnasium/half_cheetah \
           gymnasium/hopper gymnasium/walker2d menagerie/unitree_a1/scene; do
    [ -f "$corpus/$f.xml" ] && set -- "$@" "$corpus/$f.xml"
  done
fi

status=0
node t/oracle/collision/compare.mjs --bin "$helper" "$@" || status=1
if [ -n "$override" ]; then
  node t/oracle/collision/compare.mjs --bin "$helper" --random 1000 $m/box_pairs.xml \
    $m/aligned.xml $m/convex.xml $m/multiccd.xml $m/mesh_plane.xml $m/mesh_round.xml \
    $m/mesh_pairs.xml $m/hfield.xml $m/hfield_mesh.xml $m/mesh_plane_hex.xml \
    $m/mesh_plane_quad.xml || status=1
  node t/oracle/collision/compare.mjs --bin "$helper" --random 1000 --enable override \
    --set o_margin=0.02 $m/convex.xml || status=1
  node t/oracle/collision/compare.mjs --bin "$helper" --enable override --set o_margin=0.02 \
    --set o_solref=0.05,0.7 --set o_solimp=0.8,0.9,0.01,0.4,3 \
    --set o_friction=0.3,0.3,0.01,0.001,0.002 $m/params.xml $m/filters.xml $m/round.xml || status=1
  for f in convex_native mesh_pairs hfield hfield_deep; do
    node t/oracle/collision/convex_native.mjs --bin "$helper" --states 1000 $m/$f.xml || status=1
  done
  node t/oracle/collision/distance.mjs --bin "$(helper collision/distances.c)" --states 3000 \
    $m/distance.xml || status=1
  # multiccd under MuJoCo's defaults along MuJoCo's own 200 steps from the default state and
  # keyframe 0: pal_talos' thin leg meshes let EPA end on an edge whose faces both look away
  # from the other geom (frames 3 and 112-114, geoms 78 and 86 against 98), where MuJoCo clips
  # by no face and keeps EPA's single contact; an edge clipped down to two copies of one point
  # gives two equal contacts (frames 141 and 156 from keyframe 0); and 1100 steps from keyframe
  # 0 with zero controls, as traj.mjs's long run: at frame 1039 EPA ends on two edges (geoms 52
  # and 100) whose four faces all look away from the other mesh, and MuJoCo clips two facing
  # ones
  talos=$corpus/menagerie/pal_talos/scene_motor.xml
  if [ -f "$talos" ]; then
    node t/oracle/collision/along.mjs --bin "$helper" --show 0 "$talos" || status=1
    node t/oracle/collision/along.mjs --bin "$helper" --key 0 --show 0 "$talos" || status=1
    node t/oracle/collision/along.mjs --bin "$helper" --key 0 --zero --steps 1100 --show 0 \
      "$talos" || status=1
  fi
fi
known_total collision
exit $status
