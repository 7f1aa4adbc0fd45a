// poses.mjs: what the random-pose contact comparison of our GJK/EPA (convex_native.mjs) needs:
// seeded random poses of a model's free bodies, the contacts of MuJoCo and of the helper
// t/oracle/collision/contacts.c at them, and the largest difference of two ranges.
import { spawnSync } from 'node:child_process';

// geom type names by mjtGeom
export const NAMES = ['plane', 'hfield', 'sphere', 'capsule', 'ellipsoid', 'cylinder', 'box',
                      'mesh'];

// a deterministic generator of numbers in [0, 1) (Park-Miller)
export function rng(seed) {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
}

// n states: qpos0 with every free joint moved by up to +-0.08 and given a random rotation
export function makeStates(m, n, rand) {
  const states = [];
  for (let i = 0; i < n; i++) {
    const q = Array.from(m.qpos0);
    for (let j = 0; j < m.njnt; j++) {
      if (m.jnt_type[j] !== 0) continue;
      const a = m.jnt_qposadr[j];
      for (let k = 0; k < 3; k++) q[a + k] += 0.16 * (rand() - 0.5);
      const v = [0, 0, 0, 0].map(() => rand() - 0.5), len = Math.hypot(...v);
      for (let k = 0; k < 4; k++) q[a + 3 + k] = v[k] / len;
    }
    states.push(q);
  }
  return states;
}

// MuJoCo's contacts of file with the options set (NAME=VALUE list) and the flags disable at
// each state: [geom1, geom2, dist, pos(3), normal(3)]
export function oracleContacts(oracle, file, set, disable, states) {
  const m = oracle.loadModel(file, { set, disable, enable: [] });
  const d = new oracle.mujoco.MjData(m);
  try {
    return states.map((q) => {
      oracle.mujoco.mj_resetData(m, d);
      d.qpos.set(q);
      oracle.mujoco.mj_forward(m, d);
      const out = [];
      for (let i = 0; i < d.ncon; i++) {
        const c = d.contact.get(i);
        out.push([c.geom1, c.geom2, c.dist, ...c.pos, ...c.frame.slice(0, 3)]);
      }
      return out;
    });
  } finally {
    d.delete();
    m.delete();
  }
}

// the helper bin's contacts of file with the extra arguments args at each state, in the same
// layout (from its JSON lines)
export function ourContacts(bin, file, args, states) {
  const input = states.map((q) => q.map((x) => x.toPrecision(17)).join(' ')).join('\n') + '\n';
  const r = spawnSync(bin, [file, ...args], { input, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${bin}: ${r.stderr.trim()}`);
  return r.stdout.trim().split('\n')
    .map((l) => JSON.parse(l).contact.map((c) => [c[0], c[1], ...c.slice(3, 10)]));
}

// largest |a[k] - b[k]| over k in [lo, hi)
export function maxDiff(a, b, lo, hi) {
  let e = 0;
  for (let k = lo; k < hi; k++) e = Math.max(e, Math.abs(a[k] - b[k]));
  return e;
}

// contact by contact where the contact sets agree (same geom pairs in the same order): the
// differences {ed, ep, en} of dist, pos and normal grouped by pair type name, and the count
// of states whose sets differ (each listed when verbose)
export function pairErrors(ours, ref, types, verbose) {
  const pairs = {};
  let sets = 0;
  const ids = (l) => l.map((c) => `${c[0]}-${c[1]}`).join(' ');
  for (let s = 0; s < ref.length; s++) {
    if (ids(ours[s]) !== ids(ref[s])) {
      sets++;
      if (verbose) console.log(`  state ${s}: ours [${ids(ours[s])}] MuJoCo [${ids(ref[s])}]`);
      continue;
    }
    ref[s].forEach((b, i) => {
      const a = ours[s][i], name = `${NAMES[types[b[0]]]}-${NAMES[types[b[1]]]}`;
      const e = { ed: maxDiff(a, b, 2, 3), ep: maxDiff(a, b, 3, 6), en: maxDiff(a, b, 6, 9) };
      if (verbose && e.ed > 1e-6) console.log(`  state ${s} ${name}: ours ${a} MuJoCo ${b}`);
      (pairs[name] ||= []).push(e);
    });
  }
  return { pairs, sets };
}

// the largest of f(e) over the errors es
export const largest = (es, f) => es.reduce((x, e) => Math.max(x, f(e)), 0);

// x in 9 columns, 1 significant digit
export const fmt = (x) => (x === 0 ? '0' : x.toExponential(1)).padStart(9);

// the command line --bin CONTACTS [--states N] [--verbose] MODEL.xml... as {bin, nstate,
// verbose, files}; without --bin or with a model count outside [1, most], the usage and exit 2
export function parseArgs(script, most) {
  const argv = process.argv.slice(2), o = { bin: null, nstate: 300, verbose: false, files: [] };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--bin') o.bin = argv[++i];
    else if (argv[i] === '--states') o.nstate = +argv[++i];
    else if (argv[i] === '--verbose') o.verbose = true;
    else o.files.push(argv[i]);
  }
  if (!o.bin || !o.files.length || o.files.length > most) {
    process.stderr.write(`usage: ${script} --bin CONTACTS [--states N] [--verbose] ` +
                         `MODEL.xml${most > 1 ? '...' : ''}\n`);
    process.exit(2);
  }
  return o;
}
