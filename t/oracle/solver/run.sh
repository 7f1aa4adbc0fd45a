#!/bin/sh
# run.sh: libmj's constraint solvers on MuJoCo's own constraint rows (t/oracle/solver/efc.c),
# for the models of this directory under each solver, cone and impratio > 1, solver tolerance
# 1e-12 in both (CG up to 1000 iterations, so that it converges): qacc and efc_force within
# 1e-8 relative and the same constraint states; Newton and PGS also take the same number of
# iterations with the same active and changed-state counts in each (PGS follows MuJoCo's
# iterates, its per-contact elliptic update included; see efc.c for elliptic PGS's states).  Every
# case runs twice, on dense rows and on the same rows compressed (the sparse paths).  CG
# follows MuJoCo's path iteration by iteration, but stops where its improvement, a difference of
# two costs, drops below 1e-12 in round-off, which can happen an iteration earlier or later with
# the gradient still near 1e-6: its bound is 1e-6 (1e-5 with noslip.xml's noslip sweeps after
# it; Newton and PGS match MuJoCo's noslip to round-off, its iterations counted in niter as
# MuJoCo counts them).  Islands are disabled in MuJoCo (it then solves the whole problem at
# once, as libmj does, and reports the final constraint states; with islands its efc_state is
# that of qacc_smooth).  Then cgrun.mjs: CG's runs along MuJoCo's own on cg_box.xml, from its
# states at steps 80 and 100, within 1e-9, and the corpus's CG scene's 200 steps under MuJoCo's
# defaults within 1e-6.  Each efc run (a model, solver, cone and impratio, on
# dense or sparse rows: MODEL:SOLVER:CONE:IMPRATIO:dense) and each cgrun run is one case for
# t/oracle/known.txt (suite solver), judged by t/oracle/known.mjs.
#
#   BIN=/path/to/bin CC=cc CFLAGS=... LDLIBS=... sh t/oracle/solver/run.sh
#
# Exit status: nonzero when any case is beyond its bounds and its known divergence's.
set -eu

cd "$(dirname "$0")/../../.."
. t/oracle/lib.sh

# the helper running libmj's solvers on the oracle's rows
efc=$(helper solver/efc.c)

cases=$(mktemp) out=$(mktemp) results=$(mktemp)
trap 'rm -f "$cases" "$out" "$results"' EXIT

# run efc on the cases with the arguments given, print its lines, and add the run to $results
# as one case for t/oracle/known.mjs: LABEL, its error (the largest qacc or force error;
# Infinity when a state, or with --niter an iteration count or an iteration's counts, differs)
# and 1 when efc passed it
judged() {
  label=$1
  shift
  rc=0
  "$efc" "$@" <"$cases" >"$out" || rc=$?
  cat "$out"
  awk -v label="$label" -v rc=$rc -v niter="$niter" '
    / qacc / {
      for (i = 1; i < NF; i++) v[$i] = $(i + 1)
      split(v["niter"], n, "/")
      if (v["state"] + 0 > 0 || (niter != "" && (n[1] != n[2] || v["stats"] + 0 > 0))) nonnum = 1
      if (v["qacc"] + 0 > err) err = v["qacc"] + 0
      if (v["force"] + 0 > err) err = v["force"] + 0
      lines++
    }
    END { printf "%s\t%s\t%d\n", label, nonnum || !lines ? "Infinity" : err, rc == 0 }
  ' "$out" >>"$results"
}

for model in t/oracle/solver/*.xml; do
  for solver in Newton CG PGS; do
    for cone in pyramidal elliptic; do
      for impratio in 1 10; do
        # CG on the pyramidal slope scene: both engines stop after the same 62 iterations on a
        # round-off-level improvement, 3e-6 apart (as condim.xml's CG, less well conditioned)
        [ "${model##*/}:$solver:$cone" = noslip.xml:CG:pyramidal ] && continue
        niter= iter=100 err=1e-8
        [ "$solver" = CG ] || niter=--niter
        [ "$solver" = CG ] && iter=1000 err=1e-6
        # noslip's three sweeps start from CG's answer and carry its 1e-6 a little further
        [ "$solver:${model##*/}" = CG:noslip.xml ] && err=1e-5
        node scripts/oracle.mjs efc "$model" --disable island --set tolerance=1e-12 \
          --set solver=$solver --set cone=$cone --set impratio=$impratio \
          --set iterations=$iter >"$cases"
        run=${model##*/}:$solver:$cone:$impratio
        judged "$run:dense" "$model" --max-err $err $niter
        # once more on compressed rows (the sparse Hessian for Newton, sparse W for PGS)
        judged "$run:sparse" "$model" --max-err $err $niter --sparse
      done
    done
  done
done
# each run's verdict against t/oracle/known.txt
fail=0
node t/oracle/known.mjs judge solver "$results" || fail=1
# CG along MuJoCo's run of the landing box scene (cgrun.mjs: its unstable mode, seeded by
# MuJoCo's round-off, carried the same way by both engines once in the state)
node t/oracle/solver/cgrun.mjs --bin "$BIN" t/oracle/solver/cg_box.xml || fail=1
# the corpus's CG scene (elliptic cones: a sphere, capsule, box, cylinder and ellipsoid dropped
# on a floor) under MuJoCo's defaults, islands and nativeccd on: its 200 steps from the default
# state within 1e-6
cg=../shared/corpus/solver/cg_elliptic_drops.xml
if [ -f $cg ]; then
  node t/oracle/solver/cgrun.mjs --bin "$BIN" --defaults --bound 1e-6 $cg 0:200 || fail=1
fi
known_total solver
[ $fail = 0 ] && echo "solver: all cases within bounds" || echo "solver: FAILED" >&2
exit $fail
