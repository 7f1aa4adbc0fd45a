#!/bin/sh
# deps.sh: install the Debian packages that building and testing need, only those missing.
#
#   sh scripts/deps.sh
#
# Build: gcc and make (build-essential), expat, zlib.  Tests: Criterion, and Node.js with npm
# for the MuJoCo oracle.  Debian's MuJoCo 2.2.2 (libmujoco-dev; libmujoco-samples for
# mujoco-testspeed) with GLFW and Xvfb for the benchmarks and the render oracle's reference
# pictures (scripts/render_ref.sh: Mesa's software OpenGL under xvfb-run, which needs xauth).
# Fuzzing (make fuzz): clang and its libFuzzer runtime (libclang-rt-14-dev, Debian 12's clang
# being version 14); make memcheck: valgrind.  The Slurm test (t/cluster/slurm.sh): slurm-wlm
# (slurmctld, slurmd, sbatch and the other commands) and munge, its authentication; the test
# runs its own daemons on its own configuration, never the packages' services or /etc files.
# Sharded batches over hosts (scripts/mjparallel.sh, t/cluster/parallel.sh, bench.sh's shard
# part): GNU parallel, and rsync, which parallel needs for --basefile and --return but does not
# depend on.  Node and npm may already come from another repository (NodeSource ships npm
# inside its nodejs, and conflicts with Debian's npm), so Debian's are installed only when the
# commands are absent.  Runs apt-get directly as root, else through sudo; never reads standard
# input.
set -eu

packages="build-essential libexpat1-dev zlib1g-dev libcriterion-dev libccd-dev libqhull-dev
  libpng-dev libmujoco-dev libmujoco-samples libglfw3-dev libgl-dev xvfb xauth clang
  libclang-rt-14-dev valgrind slurm-wlm munge parallel rsync"
missing=
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
[ -n "$missing" ] || exit 0

sudo=
[ "$(id -u)" -eq 0 ] || sudo="sudo -n"
echo "deps: installing$missing"
$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q </dev/null
# shellcheck disable=SC2086  # $missing is a list of words
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
  $missing </dev/null
