# native.sh: sourced by the scripts that hand corpus models to Debian's MuJoCo 2.2.2
# (scripts/bench.sh, t/oracle/render/run.sh), which sets T, its temporary directory.

# the path of a copy of model $1 that MuJoCo 2.2.2 reads: its directory copied under
# $T/native with what 2.2.2 does not know taken out or spelled as it knows it
# (actuatorfrcrange and ellipsoidinertia attributes, the implicitfast integrator read as
# implicit, assetdir as meshdir and texturedir); made once per directory
nativeCopy() {
  dir=$T/native$(cd "$(dirname "$1")" && pwd)
  if [ ! -d "$dir" ]; then
    mkdir -p "$(dirname "$dir")"
    cp -r "$(dirname "$1")" "$dir"
    sed -i 's/ actuatorfrcrange="[^"]*"//g; s/ ellipsoidinertia="[^"]*"//g
      s/"implicitfast"/"implicit"/g; s/ assetdir="\([^"]*\)"/ meshdir="\1" texturedir="\1"/g' "$dir"/*.xml
  fi
  echo "$dir/$(basename "$1")"
}
