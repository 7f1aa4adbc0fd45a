// compare.mjs: libmj's contacts against MuJoCo's (the oracle) at identical positions.
//
//   node t/oracle/collision/compare.mjs --bin CONTACTS [--verbose] [--random N] [--same-frames]
//        [--set NAME=VALUE | --disable FLAG | --enable FLAG]... MODEL.xml...
//
// The options (as mjstep's) apply to both engines, after nativeccd is disabled.
// --same-frames hands MuJoCo's compiled frames (FRAMES below) to the helper, which collides
// with them instead of its own: the compilers' frames may differ in the last bit (degrees
// to radians, libm's sin and cos, a mesh's principal axes), and MPR on polytopes and
// cylinders is chaotic in its input (near-equal support points on a face, a cylinder's rim
// against its cap), so a 1e-16 change of a pose moves a contact's depth by up to 1e-2.
// For each model the states are: qpos0 and every keyframe; RANDOM (or N) positions jittered
// around them (free and ball joints get random rotations); and snapshots of MuJoCo falling and
// settling from qpos0 (and keyframe 0) for FALL steps.  At each state MuJoCo's mj_forward
// and our mj_fwdPosition (CONTACTS, the helper t/oracle/collision/contacts.c, reading qpos
// lines) give the contacts; they must agree in number, order, geom ids and dim exactly, and in
// every number (dist, pos, frame, friction, solref, solreffriction, solimp, includemargin)
// within BOUND for analytic pairs and CCD_BOUND for pairs that go through libccd (MuJoCo runs
// with nativeccd disabled so that it uses libccd's MPR as well; with the same support functions
// and normal refinement MPR takes the same steps, so the bound is the same).  A model listed in
// t/oracle/known.txt (suite collision; the case: the model's directory and name, and the
// options above as given) is judged against its entry (t/oracle/known.mjs), its error the largest field's
// (infinite when the contacts differ in number, order, geoms or dim).  Exit status 1 when a
// model is beyond its bounds and its entry's.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openOracle } from '../../../scripts/oracle.mjs';
import { rng } from '../cases.mjs';
import { verdict } from '../known.mjs';

const BOUND = 1e-10;
const CCD_BOUND = 1e-10;
let RANDOM = 40;
const FALL = 400;
const EVERY = 20;
const FRAMES = ['body_pos', 'body_quat', 'body_ipos', 'body_iquat', 'geom_pos', 'geom_quat'];

// geom type pairs (type1 <= type2) with an analytic function; the other convex pairs use libccd
const PLANE = 0, SPHERE = 2, CAPSULE = 3, ELLIPSOID = 4, CYLINDER = 5, BOX = 6;
const ANALYTIC = new Set([[PLANE, SPHERE], [PLANE, CAPSULE], [PLANE, ELLIPSOID],
  [PLANE, CYLINDER], [PLANE, BOX], [SPHERE, SPHERE], [SPHERE, CAPSULE], [SPHERE, CYLINDER],
  [SPHERE, BOX],
  [CAPSULE, CAPSULE], [CAPSULE, BOX], [BOX, BOX]].map(([a, b]) => a * 16 + b));

// ---- arguments --------------------------------------------------------------------------------
const argv = process.argv.slice(2);
let bin = null, verbose = false, sameFrames = false;
const files = [], opts = { set: [], disable: ['nativeccd'], enable: [] };
const runWords = [];  // the options that change the cases, for their labels
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--bin') bin = argv[++i];
  else if (argv[i] === '--verbose') verbose = true;
  else if (argv[i] === '--random') runWords.push(argv[i], RANDOM = +argv[++i]);
  else if (argv[i] === '--same-frames') runWords.push(argv[i]), sameFrames = true;
  else if (['--set', '--disable', '--enable'].includes(argv[i])) {
    runWords.push(argv[i], argv[i + 1]);
    opts[argv[i].slice(2)].push(argv[++i]);
  }
  else files.push(argv[i]);
}
const optArgs = Object.entries(opts).flatMap(([k, l]) => l.flatMap((v) => [`--${k}`, v]));
if (!bin || !files.length) {
  process.stderr.write('usage: compare.mjs --bin CONTACTS [--verbose] MODEL.xml...\n');
  process.exit(2);
}

// ---- states -----------------------------------------------------------------------------------

// qpos jittered around base: positions by +-0.1 (free joints' centers in x, y and down by up
// to 0.1), hinges and slides by +-0.5, free and ball rotations random
function jitter(m, base, rand) {
  const q = Float64Array.from(base);
  for (let j = 0; j < m.njnt; j++) {
    const a = m.jnt_qposadr[j], type = m.jnt_type[j];
    if (type === 0) {
      for (let k = 0; k < 3; k++) q[a + k] += 0.2 * (rand() - 0.5) - (k === 2 ? 0.05 : 0);
    }
    if (type <= 1) {
      const r = type === 0 ? 3 : 0;
      const v = [0, 0, 0, 0].map(() => rand() - 0.5);
      const n = Math.hypot(...v);
      for (let k = 0; k < 4; k++) q[a + r + k] = v[k] / n;
    } else {
      q[a] += rand() - 0.5;
    }
  }
  return q;
}

// the states of a model: defaults and keyframes, jittered copies, snapshots of falls
function makeStates(mujoco, m, seed) {
  const bases = [Float64Array.from(m.qpos0)];
  for (let k = 0; k < m.nkey; k++) bases.push(Float64Array.from(m.key_qpos.slice(k * m.nq,
                                                                               (k + 1) * m.nq)));
  const states = bases.map((b) => Array.from(b));
  const rand = rng(seed);
  for (let i = 0; i < RANDOM; i++) states.push(Array.from(jitter(m, bases[i % bases.length],
                                                                 rand)));
  const d = new mujoco.MjData(m);
  try {
    for (let b = 0; b < Math.min(2, bases.length); b++) {
      mujoco.mj_resetData(m, d);
      d.qpos.set(bases[b]);
      for (let s = 1; s <= FALL; s++) {
        mujoco.mj_step(m, d);
        if (s % EVERY === 0) states.push(Array.from(d.qpos));
      }
    }
  } finally {
    d.delete();
  }
  return states;
}

// MuJoCo's contacts at each state, as the helper prints them
function oracleContacts(mujoco, m, states) {
  const d = new mujoco.MjData(m);
  try {
    return states.map((q) => {
      mujoco.mj_resetData(m, d);
      d.qpos.set(q);
      mujoco.mj_forward(m, d);
      const out = [];
      for (let i = 0; i < d.ncon; i++) {
        const c = d.contact.get(i);
        out.push([c.geom1, c.geom2, c.dim, c.dist, ...c.pos, ...c.frame, ...c.friction,
          ...c.solref, ...c.solreffriction, ...c.solimp, c.includemargin]);
      }
      return out;
    });
  } finally {
    d.delete();
  }
}

// ---- one model ---------------------------------------------------------------------------------

const FIELDS = [['dist', 3, 4], ['pos', 4, 7], ['frame', 7, 16], ['param', 16, 31]];

// a model's name in the table and in its case label: its directory and name (models/boxes)
const caseName = (file) => `${path.basename(path.dirname(file))}/${path.basename(file, '.xml')}`;

// compare one model; returns its row
function checkModel(oracle, file, seed) {
  const row = { name: caseName(file), states: 0, contacts: 0, ccd: 0,
                err: {}, ccdErr: {}, beyond: 0, bad: [], pass: true };
  const m = oracle.loadModel(file, opts);
  const frameArgs = [];
  let states, ref;
  try {
    states = makeStates(oracle.mujoco, m, seed);
    ref = oracleContacts(oracle.mujoco, m, states);
    if (sameFrames) {
      // MuJoCo's frames into a file for the helper's --frames
      const name = path.join(os.tmpdir(), `frames-${process.pid}-${seed}.txt`);
      fs.writeFileSync(name, FRAMES.map((f) => `${f} ${Array.from(m[f]).map((x) =>
        x.toPrecision(17)).join(' ')}\n`).join(''));
      frameArgs.push('--frames', name);
    }
  } finally {
    var types = Array.from(m.geom_type);
    m.delete();
  }
  const input = states.map((q) => q.map((x) => x.toPrecision(17)).join(' ')).join('\n') + '\n';
  const r = spawnSync(bin, [file, ...frameArgs, ...optArgs], { input, encoding: 'utf8',
                                                                 maxBuffer: 1 << 30 });
  if (frameArgs.length) fs.unlinkSync(frameArgs[1]);
  if (r.status !== 0) throw new Error(`${bin}: ${r.stderr.trim()}`);
  const ours = r.stdout.trim().split('\n').map((l) => JSON.parse(l).contact);
  row.states = states.length;
  for (const [name] of FIELDS) row.err[name] = row.ccdErr[name] = 0;

  // state by state, contact by contact
  for (let s = 0; s < states.length; s++) {
    const a = ours[s], b = ref[s];
    row.contacts += b.length;
    const ids = (l) => l.map((c) => `${c[0]}-${c[1]}/${c[2]}`).join(' ');
    if (a.length !== b.length || ids(a) !== ids(b)) {
      row.bad.push(`state ${s}: ours [${ids(a)}] MuJoCo [${ids(b)}]`);
      continue;
    }
    for (let i = 0; i < b.length; i++) {
      const t1 = types[b[i][0]], t2 = types[b[i][1]];
      const ccd = !ANALYTIC.has(Math.min(t1, t2) * 16 + Math.max(t1, t2));
      if (ccd) row.ccd++;
      let beyond = 0;
      for (const [name, lo, hi] of FIELDS) {
        let e = 0;
        for (let k = lo; k < hi; k++) e = Math.max(e, Math.abs(a[i][k] - b[i][k]));
        const tab = ccd ? row.ccdErr : row.err;
        tab[name] = Math.max(tab[name], e);
        if (e > (ccd ? CCD_BOUND : BOUND)) beyond = 1;
        if (e > (ccd ? CCD_BOUND : BOUND) && verbose) {
          row.bad.push(`state ${s} contact ${i} (${b[i][0]}-${b[i][1]}) ${name}: ours ` +
                       `${a[i].slice(lo, hi).map((x) => x.toPrecision(8))} MuJoCo ` +
                       `${b[i].slice(lo, hi).map((x) => x.toPrecision(8))}`);
        }
      }
      row.beyond += beyond;
    }
  }
  row.pass = !row.bad.some((l) => !l.includes(' contact ')) &&
    FIELDS.every(([n]) => row.err[n] <= BOUND && row.ccdErr[n] <= CCD_BOUND);
  return row;
}

// ---- all models --------------------------------------------------------------------------------

const fmt = (x) => (x === 0 ? '0' : x.toExponential(1));
const pad = (s, n) => String(s).padEnd(n);
const padl = (s, n) => String(s).padStart(n);
const oracle = await openOracle({ quiet: true });
console.log(`contacts at identical positions: max |ours - MuJoCo| (bounds: analytic ${BOUND}, ` +
            `libccd ${CCD_BOUND}, MuJoCo with nativeccd disabled)`);
console.log(pad('model', 24) + padl('states', 7) + padl('contacts', 9) + padl('ccd', 6) +
            FIELDS.map(([n]) => padl(n, 9)).join('') + FIELDS.map(([n]) => padl(`ccd ${n}`, 11))
              .join('') + '  verdict');
let failed = 0, nknown = 0;
for (let f = 0; f < files.length; f++) {
  // the case: the model and the run's options, judged against t/oracle/known.txt
  const name = caseName(files[f]);
  const judge = (err, passed) => {
    const v = verdict('collision', [name, ...runWords].join(' '), err, passed);
    if (v.fail) failed++;
    if (v.word === 'known') nknown++;
    return `  ${v.word}${v.note ? ` (${v.note})` : ''}`;
  };
  let row;
  try {
    row = checkModel(oracle, files[f], 1234 + f);
  } catch (e) {
    console.log(pad(name, 24) + judge(Infinity, false) + ` (${e.message || e})`);
    continue;
  }
  // the error: the largest field's, infinite when contact sets differ
  const err = row.bad.some((l) => !l.includes(' contact ')) ? Infinity
    : Math.max(...FIELDS.flatMap(([n]) => [row.err[n], row.ccdErr[n]]));
  console.log(pad(row.name, 24) + padl(row.states, 7) + padl(row.contacts, 9) +
              padl(row.ccd, 6) + FIELDS.map(([n]) => padl(fmt(row.err[n]), 9)).join('') +
              FIELDS.map(([n]) => padl(fmt(row.ccdErr[n]), 11)).join('') +
              judge(err, row.pass));
  if (row.beyond) console.log(`    ${row.beyond} contacts beyond the bounds`);
  for (const l of row.bad.slice(0, verbose ? 20 : 3)) console.log(`    ${l}`);
}
console.log(`\ncompare.mjs: ${files.length} models, ${nknown} known, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
