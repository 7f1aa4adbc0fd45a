// along.mjs: libmj's contacts along MuJoCo's own trajectory, to find the first step where a
// trajectory run (t/oracle/traj.mjs --contacts) parts because of the contacts.
//
//   node t/oracle/collision/along.mjs --bin CONTACTS [--steps N] [--key K] [--show S] [--zero]
//        [--set NAME=VALUE | --disable FLAG]... MODEL.xml
//
// MuJoCo (the oracle) runs N steps (default 200) from the default state or keyframe K with
// traj.mjs's controls (--zero: zero controls, as its long runs) and the options given, in both engines applied to MuJoCo's defaults
// (nativeccd and multiccd on: unlike compare.mjs, nothing is disabled unless asked).  At each
// frame both engines' contacts at MuJoCo's qpos are compared (poses.mjs): MuJoCo's after
// mj_forward and the helper's (CONTACTS, t/oracle/collision/contacts.c) must agree in number
// and geoms, and dist, pos and normal within BOUND.  Each state is MuJoCo's, so a difference
// at one frame does not carry into the next.  Prints the count of differing frames and the
// first S (default 1) of them with both contact lists and the qpos; exit status 1 when any
// differs.
import { openOracle, printedArrays } from '../../../scripts/oracle.mjs';
import { controlRows } from '../cases.mjs';
import { maxDiff, oracleContacts, ourContacts } from './poses.mjs';

const BOUND = 1e-10;

// ---- arguments ---------------------------------------------------------------------------------
const argv = process.argv.slice(2);
let bin = null, file = null, steps = 200, key = -1, show = 1, zero = false;
const opts = { set: [], disable: [] };
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--bin') bin = argv[++i];
  else if (argv[i] === '--steps') steps = +argv[++i];
  else if (argv[i] === '--key') key = +argv[++i];
  else if (argv[i] === '--show') show = +argv[++i];
  else if (argv[i] === '--zero') zero = true;
  else if (['--set', '--disable'].includes(argv[i])) {
    opts[argv[i].slice(2)].push(argv[++i]);
  } else file = argv[i];
}
if (!bin || !file) {
  process.stderr.write('usage: along.mjs --bin CONTACTS [--steps N] [--key K] [--zero] MODEL.xml\n');
  process.exit(2);
}
const optArgs = Object.entries(opts).flatMap(([k, l]) => l.flatMap((v) => [`--${k}`, v]));

// ---- MuJoCo's run ------------------------------------------------------------------------------
const oracle = await openOracle({ quiet: true });
const { mujoco } = oracle;
const m = oracle.loadModel(file, opts);
const d = new mujoco.MjData(m);
let states;
try {
  const ctrl = controlRows(m, printedArrays(mujoco, m, ['actuator_ctrllimited']), steps);
  if (key >= 0) mujoco.mj_resetDataKeyframe(m, d, key);
  states = [];
  for (let k = 0; k <= steps; k++) {
    states.push(Array.from(d.qpos));
    if (!zero) d.ctrl.set(ctrl[k]);
    if (k < steps) mujoco.mj_step(m, d);
  }
} finally {
  d.delete();
  m.delete();
}

// ---- both engines' contacts at MuJoCo's positions, frame by frame ------------------------------
const ref = oracleContacts(oracle, file, opts.set, opts.disable, states);
const ours = ourContacts(bin, file, optArgs, states);
const ids = (l) => l.map((c) => `${c[0]}-${c[1]}`).join(' ');
const brief = (c) => [...c.slice(0, 2), ...c.slice(2).map((x) => x.toPrecision(9))].join(' ');
let ndiff = 0;
for (let k = 0; k <= steps; k++) {
  // the frame's error: infinite when the contact lists differ in geoms
  const a = ours[k], b = ref[k];
  let err = ids(a) === ids(b) ? 0 : Infinity;
  for (let i = 0; i < b.length && err < Infinity; i++) {
    err = Math.max(err, maxDiff(a[i], b[i], 2, b[i].length));
  }
  if (err <= BOUND) continue;
  if (ndiff++ < show) {
    console.log(`frame ${k}: max |ours - MuJoCo| ${err.toExponential(1)}, ${a.length} contacts ` +
                `(MuJoCo ${b.length}); qpos ${states[k].map((x) => x.toPrecision(17)).join(' ')}`);
    for (const c of b) console.log(`  MuJoCo ${brief(c)}`);
    for (const c of a) console.log(`  ours   ${brief(c)}`);
  }
}
console.log(`along.mjs: ${file}: ${ndiff} of ${steps + 1} frames differ`);
process.exitCode = ndiff ? 1 : 0;
