#!/bin/sh
# mesh.sh: meshes and skins through mjc: binary STL, OBJ and inline meshes compile into mesh
# geoms (with meshdir, strippath and class defaults), and each malformed mesh or skin exits 2
# with one line on stderr naming the model file, the line, the element and the asset file,
# leaving no output behind.
#
#   BIN=/path/to/bin sh t/tools/mesh.sh        (from the repository root)
set -u
. "$(dirname "$0")/lib.sh"

# ---- data files ---------------------------------------------------------------------------------

# stl NAME: a binary STL of the unit tetrahedron (80-byte header, 4 triangles of 50 bytes)
stl() {
  python3 - "$1" <<'EOF'
import struct, sys
v = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
faces = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]
out = b'tetrahedron'.ljust(80, b' ') + struct.pack('<I', len(faces))
for f in faces:
    out += struct.pack('<3f', 0, 0, 0)
    for i in f:
        out += struct.pack('<3f', *v[i])
    out += b'\0\0'
open(sys.argv[1], 'wb').write(out)
EOF
}
mkdir -p assets
stl assets/tet.stl
head -c 200 assets/tet.stl >assets/short.stl
printf 'solid tet\n facet normal 0 0 1\n  outer loop\n' >assets/ascii.stl
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n' >assets/tet.obj
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n' >assets/range.obj
printf 'v 0 0 0\nv 1 nan 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n' \
  >assets/nan.obj
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n' >assets/flat.obj
printf 'not a mesh' >assets/tet.ply
printf '\001\000\000\000' >assets/short.skn

# model FILE ASSET: a model (meshdir assets) whose asset on line 4 is ASSET, and a body with
# a mesh geom of mesh m when ASSET defines it
model() {
  cat >"$1" <<EOF
<mujoco>
  <compiler meshdir="assets"/>
  <asset>
    $2
  </asset>
  <worldbody><body><freejoint/><geom type="mesh" mesh="m"/></body></worldbody>
</mujoco>
EOF
}

# ---- good meshes --------------------------------------------------------------------------------

# the unit tetrahedron, 1000 kg/m^3: volume 1/6, its center of mass (1/4, 1/4, 1/4)
for f in stl obj; do
  model tet_$f.xml "<mesh name=\"m\" file=\"tet.$f\"/>"
  run 0 "\"\$BIN/mjc\" compile tet_$f.xml -o tet_$f.mjb"
  field tet_$f.xml body_mass >out
  cmd="$f body_mass"
  has out '^\[0,166\.666666666666[0-9]*\]$'
  field tet_$f.xml mesh_pos >out
  cmd="$f mesh_pos"
  same out '[0.25,0.24999999999999994,0.24999999999999994]'
done

# scale and class defaults: a tetrahedron twice as large has 8 times the mass
model scaled.xml '<mesh name="m" file="tet.stl" class="big"/>'
sed -i 's|<compiler meshdir="assets"/>|&<default><default class="big"><mesh scale="2 2 2"/></default></default>|' scaled.xml
run 0 '"$BIN/mjc" compile scaled.xml -o scaled.mjb'
field scaled.xml body_mass >out
cmd='scaled body_mass'
has out '^\[0,1333\.33333333333[0-9]*\]$'

# inline vertices with no faces take the hull's faces
model inline.xml '<mesh name="m" vertex="0 0 0  1 0 0  0 1 0  0 0 1"/>'
run 0 '"$BIN/mjc" compile inline.xml -o inline.mjb'
field inline.xml mesh_face >out
cmd='inline mesh_face'
same out '[2,1,0,1,3,0,3,2,0,2,3,1]'

# strippath: directories in file names are dropped before meshdir applies
model strip.xml '<mesh name="m" file="some/where/tet.obj"/>'
sed -i 's|meshdir="assets"|& strippath="true"|' strip.xml
run 0 '"$BIN/mjc" compile strip.xml -o strip.mjb'

# ---- malformed meshes and skins: exit 2, one line "FILE:4: ...", no output -------------------

# bad NAME ASSET PATTERN: the model with that asset must fail on line 4 with PATTERN
bad() {
  model "$1.xml" "$2"
  compileFails "$1" 4 "$3"
}

bad missing '<mesh name="m" file="none.stl"/>' "mesh 'm': .*assets/none.stl.*No such file"
bad truncated '<mesh name="m" file="short.stl"/>' "mesh 'm': .*short.stl.* wrong size"
bad ascii '<mesh name="m" file="ascii.stl"/>' "mesh 'm': invalid header in STL file .*ascii.stl"
bad format '<mesh name="m" file="tet.ply"/>' "mesh 'm': unsupported mesh type: .*tet.ply"
bad range '<mesh name="m" file="range.obj"/>' "mesh 'm': .*range.obj.*index out of range"
bad nan '<mesh name="m" file="nan.obj"/>' "mesh 'm': .*nan.obj"
bad flat '<mesh name="m" file="flat.obj"/>' "mesh 'm': .*flat.obj: .*coplanar"
bad vertexcount '<mesh name="m" vertex="0 0 0 1 0"/>' "mesh 'm': attribute 'vertex'"
bad fewverts '<mesh name="m" vertex="0 0 0 1 0 0 0 1 0"/>' "mesh 'm': "
bad facerange '<mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1" face="0 1 7"/>' "mesh 'm': "
bad both '<mesh name="m" file="tet.stl" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/>' \
  "mesh 'm': a mesh takes a file or vertex data"
bad hullvert '<mesh name="m" file="tet.stl" maxhullvert="3"/>' "mesh 'm': maxhullvert"
bad builtinparams '<mesh name="m" builtin="sphere" params="1 2"/>' \
  "mesh 'm': sphere mesh requires 1 parameter$"
bad builtinsubdiv '<mesh name="m" builtin="sphere" params="5"/>' "mesh 'm': sphere subdivision"
bad builtintorus '<mesh name="m" builtin="supertorus" params="8 1.5 1 1"/>' \
  "mesh 'm': supertorus radius must be in (0, 1\]"
bad builtinwedge '<mesh name="m" builtin="wedge" params="4 0 30 30 0"/>' \
  "mesh 'm': horizontal and vertical resolutions must be positive"
bad builtinhuge '<mesh name="m" builtin="supersphere" params="1e9 1 1"/>' \
  "mesh 'm': resolution too large"
bad builtinfile '<mesh name="m" file="tet.stl" builtin="cone" params="5 1"/>' \
  "mesh 'm': a builtin mesh takes no file or vertex data"
bad builtinflat '<mesh name="m" builtin="plate" params="3 2"/>' "mesh 'm': .*coplanar"
bad skinfile '<mesh name="m" file="tet.stl"/><skin file="short.skn"/>' \
  "skin: .*short.skn: shorter than its header"
bad skinbone '<mesh name="m" file="tet.stl"/><skin name="s" vertex="0 0 0 1 0 0 0 1 0" face="0 1 2"><bone body="nobody" bindpos="0 0 0" bindquat="1 0 0 0" vertid="0" vertweight="1"/></skin>' \
  "skin 's': skin bone: unknown body 'nobody'"

# a mesh geom naming no mesh, or an unknown one
model nomesh.xml '<mesh name="m" file="tet.stl"/>'
sed -i 's|mesh="m"|mesh="x"|' nomesh.xml
run 2 '"$BIN/mjc" compile nomesh.xml -o nomesh.mjb'
has err "^mjc: nomesh.xml:6: geom: unknown mesh 'x'"
holds ! -e nomesh.mjb

finish mesh.sh
