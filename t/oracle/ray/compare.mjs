// compare.mjs: libmj's mj_ray against MuJoCo's (the oracle) for the same positions and rays.
//
//   node t/oracle/ray/compare.mjs --bin RAYS [--verbose] [--states S] [--rays R] MODEL.xml...
//   node t/oracle/ray/compare.mjs --bin RAYS --sensors N MODEL.xml...
//
// For each model: S states (qpos0, then random positions: free joints' centers moved by up to
// 0.5 and random rotations, hinges and slides by up to 1), and at each state R rays from points
// in the box [-3, 3]^3: half in random directions, half aimed at a random geom's center (with
// some spread), of lengths 0.5 to 2 (distances are in units of |vec|); a quarter of them with a
// random geom-group filter, a quarter with flg_static 0, a quarter excluding a random body.
// RAYS (the helper t/oracle/ray/rays.c) gives libmj's distance, geom id and normal; they must
// match MuJoCo's mj_ray: the same geom (-1 included), the distance and the normal within BOUND
// (relative to max(1, distance)).  With --sensors: MuJoCo steps N times from keyframe 0 (or the
// default state), and at each step's qpos (qvel zero) both engines' mj_forward give sensordata,
// which must agree within BOUND (relative to max(1, |value|)).  Exit status 1 when some ray or
// sensor value of a model is beyond the bound and beyond its entry in t/oracle/known.txt (suite
// NAME, default ray; the case: the model's path; the error the worst, infinite when a ray hits
// another geom), judged by t/oracle/known.mjs.
import { spawnSync } from 'node:child_process';
import { openOracle } from '../../../scripts/oracle.mjs';
import { rng } from '../cases.mjs';
import { verdict } from '../known.mjs';

const BOUND = 1e-10;

// ---- arguments --------------------------------------------------------------------------------
const argv = process.argv.slice(2);
let bin = null, verbose = false, nstate = 20, nray = 200, nstep = 0, suite = 'ray';
const files = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--bin') bin = argv[++i];
  else if (argv[i] === '--verbose') verbose = true;
  else if (argv[i] === '--states') nstate = +argv[++i];
  else if (argv[i] === '--rays') nray = +argv[++i];
  else if (argv[i] === '--sensors') nstep = +argv[++i];
  else if (argv[i] === '--suite') suite = argv[++i];
  else files.push(argv[i]);
}
if (!bin || !files.length) {
  process.stderr.write('usage: compare.mjs --bin RAYS [--suite NAME] [--verbose] [--states S] ' +
                       '[--rays R] MODEL.xml...\n');
  process.exit(2);
}

// ---- states and rays --------------------------------------------------------------------------

// qpos0 moved at random: free joints' centers by +-0.5 and random rotations, ball joints random
// rotations, hinges and slides by +-1
function randomQpos(m, rand) {
  const q = Float64Array.from(m.qpos0);
  for (let j = 0; j < m.njnt; j++) {
    const a = m.jnt_qposadr[j], type = m.jnt_type[j];
    if (type === 0) for (let k = 0; k < 3; k++) q[a + k] += rand() - 0.5;
    if (type <= 1) {
      const r = type === 0 ? 3 : 0;
      const v = [0, 0, 0, 0].map(() => rand() - 0.5);
      const n = Math.hypot(...v);
      for (let k = 0; k < 4; k++) q[a + r + k] = v[k] / n;
    } else {
      q[a] += 2 * rand() - 1;
    }
  }
  return q;
}

// a random unit vector
function unit(rand) {
  for (;;) {
    const v = [0, 0, 0].map(() => 2 * rand() - 1);
    const n = Math.hypot(...v);
    if (n > 0.1 && n <= 1) return v.map((x) => x / n);
  }
}

// one ray at the current positions of d: [pnt, vec, groups mask (-1: none), flg_static,
// bodyexclude]
function randomRay(m, d, rand) {
  const pnt = [0, 0, 0].map(() => 6 * rand() - 3);
  let dir = unit(rand);
  if (rand() < 0.5) {
    const g = Math.floor(rand() * m.ngeom), s = unit(rand), spread = 0.3 * rand();
    const to = [0, 1, 2].map((k) => d.geom_xpos[3 * g + k] + spread * s[k] - pnt[k]);
    const n = Math.hypot(...to);
    if (n > 1e-6) dir = to.map((x) => x / n);
  }
  const len = 0.5 + 1.5 * rand();
  const groups = rand() < 0.25 ? Math.floor(rand() * 64) : -1;
  const stat = rand() < 0.25 ? 0 : 1;
  const exclude = rand() < 0.25 ? Math.floor(rand() * m.nbody) : -1;
  return [pnt, dir.map((x) => x * len), groups, stat, exclude];
}

// ---- the comparison ---------------------------------------------------------------------------

// MuJoCo's answers and the input lines for the helper, for every state and ray of a model
function oracleRays(mj, m, seed) {
  const d = new mj.MjData(m);
  const gid = new mj.IntBuffer(1), nrm = new mj.DoubleBuffer(3);
  const rand = rng(seed), lines = [], ref = [];
  try {
    for (let s = 0; s < nstate; s++) {
      const q = s ? randomQpos(m, rand) : m.qpos0;
      d.qpos.set(q);
      mj.mj_forward(m, d);
      lines.push(`q ${Array.from(q, (x) => x.toPrecision(17)).join(' ')}`);
      for (let r = 0; r < nray; r++) {
        const [pnt, vec, groups, stat, exclude] = randomRay(m, d, rand);
        const filter = groups < 0 ? null : [0, 1, 2, 3, 4, 5].map((g) => (groups >> g) & 1);
        const x = mj.mj_ray(m, d, pnt, vec, filter, stat, exclude, gid, nrm);
        ref.push([x, gid.GetView()[0], ...nrm.GetView()]);
        lines.push(`r ${[...pnt, ...vec].map((v) => v.toPrecision(17)).join(' ')} ` +
                   `${groups} ${stat} ${exclude}`);
      }
    }
  } finally {
    d.delete();
    gid.delete();
    nrm.delete();
  }
  return { lines, ref };
}

// MuJoCo's sensordata at each of nstep states along its trajectory, and the helper's input
function oracleSensors(mj, m) {
  const d = new mj.MjData(m);
  const lines = [], ref = [];
  try {
    if (m.nkey) mj.mj_resetDataKeyframe(m, d, 0);
    for (let s = 0; s < nstep; s++) {
      mj.mj_step(m, d);
      const q = Float64Array.from(d.qpos), v = Float64Array.from(d.qvel);
      d.qvel.fill(0);
      mj.mj_forward(m, d);
      ref.push(Array.from(d.sensordata));
      lines.push(`q ${Array.from(q, (x) => x.toPrecision(17)).join(' ')}`, 's');
      d.qvel.set(v);
    }
  } finally {
    d.delete();
  }
  return { lines, ref };
}

// a model's verdict against t/oracle/known.txt (suite NAME, its label the path): the word
// printed first on its line, and the note that ends it
function judge(file, err, passed) {
  const v = verdict(suite, file, err, passed);
  return { ok: !v.fail, word: v.word === 'ok' ? 'ok  ' : v.word, note: v.note ? `  (${v.note})` : '' };
}

// the helper's output lines for the input lines, as arrays of numbers; null on failure
function runHelper(file, lines) {
  const run = spawnSync(bin, [file], { input: lines.join('\n') + '\n', maxBuffer: 1 << 28 });
  if (run.status !== 0) {
    process.stdout.write(`FAIL ${file}: helper exit ${run.status}: ${run.stderr}\n`);
    return null;
  }
  return run.stdout.toString().trim().split('\n').map((l) => l.split(' ').map(Number));
}

// compare the sensors of one model along MuJoCo's trajectory; 1 when within bounds
function compareSensors(oracle, file) {
  const m = oracle.loadModel(file);
  let ref, lines;
  try {
    ({ ref, lines } = oracleSensors(oracle.mujoco, m));
  } finally {
    m.delete();
  }
  const ours = runHelper(file, lines);
  if (!ours) return 0;
  let worst = 0, at = -1;
  for (let s = 0; s < ref.length; s++) {
    for (let i = 0; i < ref[s].length; i++) {
      const a = ref[s][i], b = (ours[s] || [])[i];
      const err = Math.abs(a - b) / Math.max(1, Math.abs(a));
      if (!(err <= worst)) worst = err, at = i;
      if (verbose && !(err <= BOUND)) process.stdout.write(`  step ${s} value ${i}: ${b}, ` +
                                                           `MuJoCo ${a}\n`);
    }
  }
  const v = judge(file, worst, worst <= BOUND);
  process.stdout.write(`${v.word} ${file}: sensordata at ${ref.length} states, ` +
                       `worst error ${worst.toExponential(2)} (value ${at})${v.note}\n`);
  return v.ok;
}

// compare the rays of one model; 1 when within bounds
function compareModel(oracle, file, seed) {
  const m = oracle.loadModel(file);
  let ref, lines;
  try {
    ({ ref, lines } = oracleRays(oracle.mujoco, m, seed));
  } finally {
    m.delete();
  }
  const ours = runHelper(file, lines);
  if (!ours) return 0;
  let worst = 0, wrongGeom = 0, hits = 0;
  const types = new Map();
  for (let i = 0; i < ref.length; i++) {
    const a = ref[i], b = ours[i] || [];
    if (a[1] >= 0) hits++;
    if (a[1] !== b[1]) {
      wrongGeom++;
      if (verbose) process.stdout.write(`  ray ${i}: geom ${b[1]} (${b[0]}), MuJoCo ${a[1]} ` +
                                        `(${a[0]}): ${lines.filter((l) => l[0] === 'r')[i]}\n`);
      continue;
    }
    let err = Math.abs(a[0] - b[0]) / Math.max(1, Math.abs(a[0]));
    for (let k = 2; k < 5; k++) err = Math.max(err, Math.abs(a[k] - b[k]));
    if (verbose && err > BOUND) {
      process.stdout.write(`  ray ${i}: error ${err.toExponential(2)}\n`);
    }
    worst = Math.max(worst, err);
    types.set(a[1], (types.get(a[1]) || 0) + 1);
  }
  const v = judge(file, wrongGeom ? Infinity : worst, wrongGeom === 0 && worst <= BOUND);
  process.stdout.write(`${v.word} ${file}: ${ref.length} rays, ${hits} hits on ` +
                       `${types.size - (types.has(-1) ? 1 : 0)} geoms, ${wrongGeom} other geom, ` +
                       `worst error ${worst.toExponential(2)}${v.note}\n`);
  return v.ok;
}

const oracle = await openOracle({ quiet: true });
let status = 0;
files.forEach((f, i) => {
  if (!(nstep ? compareSensors(oracle, f) : compareModel(oracle, f, 1234 + i))) status = 1;
});
process.exit(status);
