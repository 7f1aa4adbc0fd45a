// distance.mjs: libmj's mj_geomDistance of a convex pair through GJK (lib/engine/collision_gjk.c)
// against MuJoCo 3.14.0's at random poses of a model (t/oracle/collision/models/distance.xml:
// a capsule, an octahedral mesh, a box and a sphere posed by qpos = (x, z, angle) around a
// tetrahedral mesh, ccd_tolerance 1e-13), geom 0 against each other geom.
//
//   node t/oracle/collision/distance.mjs --bin DISTANCES [--states N] MODEL.xml
//
// DISTANCES is the helper t/oracle/collision/distances.c (see run.sh).  Exit status 1 when a
// distance differs from MuJoCo's by more than BOUND (measured: 1.5e-15; before GJK stopped as
// MuJoCo's does, up to 2.4e-1: separated poses read as overlapping).  Poses where MuJoCo's EPA
// runs (its cores overlap, or its GJK ends at the origin) trap in the WebAssembly build when
// ccd_iterations exceeds its static EPA storage: they are skipped and counted.  The worst
// distance is judged against t/oracle/known.txt (suite collision, case "distance MODEL --states
// N") by t/oracle/known.mjs.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { openOracle } from '../../../scripts/oracle.mjs';
import { rng, parseArgs } from './poses.mjs';
import { verdict } from '../known.mjs';

const BOUND = 1e-12;  // largest |ours - MuJoCo|

const { bin, nstate, files } = parseArgs('distance.mjs', 1);
const file = files[0], next = rng(7);

// the poses: x in [-0.2, 0.2], z in [-0.35, 0.05], the angle in [-pi, pi]
const poses = Array.from({ length: nstate }, () =>
  [-0.2 + 0.4 * next(), -0.35 + 0.4 * next(), Math.PI * (2 * next() - 1)]);

// MuJoCo's distances of geoms 0 and g at the poses (NaN where it traps)
const oracle = await openOracle({ quiet: true });
const { mujoco } = oracle;
const m = oracle.loadModel(file), d = new mujoco.MjData(m), ngeom = m.ngeom;
const ref = (g) => poses.map((q) => {
  d.qpos.set(q);
  mujoco.mj_kinematics(m, d);
  try {
    return mujoco.mj_geomDistance(m, d, 0, g, 1, new Float64Array(6));
  } catch {
    return NaN;
  }
});

// ours, compared pair by pair
const input = poses.map((q) => q.join(' ')).join('\n') + '\n';
let worst = 0;
for (let g = 1; g < ngeom; g++) {
  const r = ref(g);
  const ours = execFileSync(bin, [file, '0', String(g), '1'], { input }).toString().trim()
    .split('\n').map(Number);
  let e = 0, at = -1, skipped = 0;
  r.forEach((x, i) => {
    if (Number.isNaN(x)) skipped++;
    else if (!(Math.abs(ours[i] - x) <= e)) [e, at] = [Math.abs(ours[i] - x), i];
  });
  worst = Math.max(worst, e);
  console.log(`distance.mjs: geoms 0-${g}: ${nstate - skipped} poses (${skipped} skipped: ` +
              `MuJoCo traps), max |ours - MuJoCo| ${e.toExponential(2)}` +
              (at >= 0 ? ` at qpos ${poses[at].join(' ')}: ours ${ours[at]} MuJoCo ${r[at]}`
                       : ''));
}
d.delete();
m.delete();
const v = verdict('collision', `distance ${path.basename(file, '.xml')} --states ${nstate}`, worst,
                  worst <= BOUND);
console.log(`distance.mjs: ${v.word}${v.note ? ` (${v.note})` : ''}`);
process.exitCode = v.fail ? 1 : 0;
