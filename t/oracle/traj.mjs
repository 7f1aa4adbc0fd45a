#!/usr/bin/env node
// traj.mjs: trajectories and one-step quantities of mjstep against MuJoCo 3.5.1 (the oracle).
//
//   node t/oracle/traj.mjs --bin BIN --fwd FWD [--steps N] MODEL.xml...
//
// For every model, with contacts disabled in both engines, under each integrator: N steps
// (default 1000) from the default state and from keyframe 0 when there is one, with the same
// deterministic controls (a sine per actuator inside its ctrlrange); the largest relative
// error |a-b| / max(1, |a|, |b|) over the run of time, qpos, qvel and act is printed per
// model x integrator.  When MuJoCo's run has constraint rows (joint or tendon limits,
// equality constraints: libmj has no constraints yet), both are run again with all
// constraints disabled and the row is marked '*'.
//
// Then, at three random states per model (seeded: the same every run), the one-step
// quantities of FWD (t/oracle/fwd.c, libmj) and of the oracle's `forward`: qfrc_bias, qM,
// qLD, qacc, actuator_force, sensordata, with the same error measure.
//
// Bounds (the run fails above them):
//   Euler, implicitfast, RK4   1e-9: the same operations as MuJoCo in another order; round-off
//                              of 1e-16 per step stays far below 1e-9 over 1000 steps unless
//                              the motion itself amplifies it (below)
//   implicit                   1e-8: the LU factorization of the nonsymmetric M - hD may
//                              eliminate in another order than MuJoCo's; its round-off is
//                              that of a dense solve, a few hundred eps per step
//   one-step quantities        1e-10
// Amplified round-off: chaotic motion (multi-link bodies flailing freely with their limits
// off) and numerically unstable integration (RK4 with stiff explicit damping at a large step)
// grow any difference exponentially, so two correct engines that round differently drift
// apart.  To tell that from a bug, MuJoCo is run again with its initial qvel perturbed
// (relative) by 1e-15 and by 1e-11: the motion's sensitivity is how far a 1e-15 perturbation
// moves the run, measured directly and extrapolated linearly from 1e-11 (round-off may swallow
// the small one before it grows).  A cell above its bound but within AMPLIFY times that
// sensitivity is marked '~' (explained) and listed with it; above both it is '!' (a failure).
// A run that blows up (MuJoCo warns of a bad number at step k and resets) is compared up to
// frame k - 1, the last before the bad values: after it both engines restart arbitrarily.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openOracle, FORWARD_FIELDS } from '../../scripts/oracle.mjs';

// the message of a model feature our engine rejects on purpose, for now
const UNSUPPORTED = /not supported yet/;
const INTEGRATORS = ['Euler', 'implicitfast', 'implicit', 'RK4'];
const BOUND = { Euler: 1e-9, implicitfast: 1e-9, implicit: 1e-8, RK4: 1e-9 };
const FORWARD_BOUND = 1e-10;
const PERTURB = [1e-15, 1e-11];
const AMPLIFY = 100;

// ---- arguments --------------------------------------------------------------------------------

const args = process.argv.slice(2);
let bin = null, fwd = null, steps = 1000;
const models = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--bin') bin = args[++i];
  else if (args[i] === '--fwd') fwd = args[++i];
  else if (args[i] === '--steps') steps = Number(args[++i]);
  else models.push(args[i]);
}
if (!bin || !fwd || !models.length) {
  process.stderr.write('usage: node t/oracle/traj.mjs --bin BIN --fwd FWD [--steps N] ' +
                       'MODEL.xml...\n');
  process.exit(2);
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'traj-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

// ---- numbers ----------------------------------------------------------------------------------

// the relative error of two numbers; NaN against a number is infinite
function relErr(a, b) {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b) ? 0 : Infinity;
  if (a === b) return 0;
  return Math.abs(a - b) / Math.max(1, Math.abs(a), Math.abs(b));
}

// the largest relative error of two flat arrays; a length mismatch is infinite
function maxErr(a, b) {
  if (a.length !== b.length) return Infinity;
  let e = 0;
  for (let i = 0; i < a.length; i++) e = Math.max(e, relErr(a[i], b[i]));
  return e;
}

// an error for the table
function fmt(e) {
  if (e === undefined) return '-';
  if (e === Infinity) return 'inf';
  return e === 0 ? '0' : e.toExponential(1);
}

// a seeded uniform generator on [0, 1) (mulberry32)
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---- the two engines ---------------------------------------------------------------------------

// run a program; its stdout, or an Error with its stderr
function exec(cmd, argv, input) {
  const r = spawnSync(cmd, argv, { input, maxBuffer: 1 << 30, encoding: 'utf8' });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error((r.stderr || `${cmd} failed`).trim().split('\n')[0]);
  return r.stdout;
}

// the option arguments shared by mjstep, fwd and the oracle
function optionArgs(opts) {
  return [...opts.set.flatMap((s) => ['--set', s]),
          ...opts.disable.flatMap((f) => ['--disable', f])];
}

// mjstep's trajectory as {time, qpos, qvel, act}: lists of frames
function mjstepTrajectory(file, opts) {
  const out = path.join(tmp, 'run.mjt');
  const argv = [file, '-n', String(opts.steps), ...optionArgs(opts), '-o', out];
  if (opts.key !== undefined) argv.push('--key', String(opts.key));
  if (opts.ctrlFile) argv.push('--ctrl', opts.ctrlFile);
  exec(path.join(bin, 'mjstep'), argv);
  const lines = exec(path.join(bin, 'mjdump'), ['--csv', out]).trim().split('\n');
  const cols = lines[0].split(',').map((c) => c.replace(/\[.*/, ''));
  const traj = { time: [], qpos: [], qvel: [], act: [] };
  for (const line of lines.slice(1)) {
    const v = line.split(',').map(Number);
    const frame = { qpos: [], qvel: [], act: [] };
    cols.forEach((c, i) => (c === 'time' ? traj.time.push(v[i]) : frame[c].push(v[i])));
    for (const f of ['qpos', 'qvel', 'act']) traj[f].push(frame[f]);
  }
  return traj;
}

// libmj's qLD has nM entries, its rows packed from the start and the tail zero; MuJoCo's has
// only the packed rows (nC): the packed part, when the tail is zero (else left as is to fail)
function packed(field, ours, ref) {
  if (field !== 'qLD' || ours.length <= ref.length) return ours;
  return ours.slice(ref.length).every((x) => x === 0) ? ours.slice(0, ref.length) : ours;
}

// the largest error between two trajectories over frames 0 ... upto
function trajErr(a, b, upto) {
  const n = Math.min(a.time.length, b.time.length, upto + 1);
  if (a.time.length !== b.time.length) return Infinity;
  let e = 0;
  for (let k = 0; k < n; k++) {
    e = Math.max(e, relErr(a.time[k], b.time[k]));
    for (const f of ['qpos', 'qvel', 'act']) e = Math.max(e, maxErr(a[f][k], b[f][k]));
  }
  return e;
}

// ---- inputs ------------------------------------------------------------------------------------

// deterministic controls: actuator i follows mid + 0.8 half-range sin(2 pi f_i t + phase_i)
// inside its ctrlrange (unlimited: range -1..1); one row per step
function controlRows(m, n) {
  const h = m.opt.timestep, rows = [];
  for (let k = 0; k <= n; k++) {
    const row = [];
    for (let i = 0; i < m.nu; i++) {
      const limited = m.actuator_ctrllimited[i];
      const lo = limited ? m.actuator_ctrlrange[2 * i] : -1;
      const hi = limited ? m.actuator_ctrlrange[2 * i + 1] : 1;
      const phase = 0.7 * i, f = 0.5 + 0.37 * i;
      row.push(0.5 * (lo + hi) + 0.4 * (hi - lo) * Math.sin(2 * Math.PI * f * k * h + phase));
    }
    rows.push(row);
  }
  return rows;
}

// a random state {qpos, qvel, act, ctrl}: joints near qpos0 (unit quaternions for ball and free
// joints), velocities in -1..1, activations and controls inside their ranges
function randomState(mujoco, m, rand) {
  const u = (lo, hi) => lo + (hi - lo) * rand();
  const qpos = Array.from(m.qpos0);
  const quat = (adr) => {
    const q = [u(-1, 1), u(-1, 1), u(-1, 1), u(-1, 1)];
    const n = Math.hypot(...q);
    for (let j = 0; j < 4; j++) qpos[adr + j] = q[j] / n;
  };
  for (let j = 0; j < m.njnt; j++) {
    const adr = m.jnt_qposadr[j], type = m.jnt_type[j];
    if (type === mujoco.mjtJoint.mjJNT_FREE.value) {
      for (let k = 0; k < 3; k++) qpos[adr + k] += u(-0.5, 0.5);
      quat(adr + 3);
    } else if (type === mujoco.mjtJoint.mjJNT_BALL.value) {
      quat(adr);
    } else {
      qpos[adr] += u(-1, 1);
    }
  }
  const qvel = Array.from({ length: m.nv }, () => u(-1, 1));
  const act = [];
  for (let i = 0; i < m.nu; i++) {
    const muscle = m.actuator_dyntype[i] === mujoco.mjtDyn.mjDYN_MUSCLE.value;
    for (let k = 0; k < m.actuator_actnum[i]; k++) {
      if (m.actuator_actlimited[i]) {
        act.push(u(m.actuator_actrange[2 * i], m.actuator_actrange[2 * i + 1]));
      } else {
        act.push(muscle ? u(0, 1) : u(-1, 1));
      }
    }
  }
  const ctrl = Array.from({ length: m.nu }, (_, i) => (m.actuator_ctrllimited[i]
    ? u(m.actuator_ctrlrange[2 * i], m.actuator_ctrlrange[2 * i + 1]) : u(-1, 1)));
  return { qpos, qvel, act, ctrl };
}

// a state with every number x moved by p max(1, |x|)
function perturbState(s, p) {
  const move = (v) => v.map((x) => x + p * Math.max(1, Math.abs(x)));
  return { qpos: move(s.qpos), qvel: move(s.qvel), act: move(s.act), ctrl: move(s.ctrl) };
}

// ---- one model ---------------------------------------------------------------------------------

// every integrator from every initial state, and the one-step quantities: rows for the tables
function checkModel(oracle, file) {
  const base = { set: [], disable: ['contact'], enable: [] };
  let m;
  try {
    m = oracle.loadModel(file, base);
  } catch (e) {
    return { skipped: `MuJoCo cannot compile it: ${String(e.message || e).split('\n')[0]}` };
  }
  const name = path.basename(path.dirname(file)) + '/' + path.basename(file, '.xml');
  const ctrlFile = path.join(tmp, 'ctrl.txt');
  const ctrl = controlRows(m, steps);
  fs.writeFileSync(ctrlFile, ctrl.map((r) => r.join(' ')).join('\n') + '\n');
  const rand = rng(12345);
  const states = [0, 1, 2].map(() => randomState(oracle.mujoco, m, rand));
  const inits = m.nkey ? [undefined, 0] : [undefined];
  const nu = m.nu;
  m.delete();

  // trajectories
  const rows = [];
  for (const key of inits) {
    const row = { name, init: key === undefined ? 'default' : 'key 0', err: {}, sens: {},
                  explained: {}, blowup: {}, note: '' };
    for (const integ of INTEGRATORS) {
      let opts = { ...base, set: [`integrator=${integ}`], steps, key,
                   ctrlFile: nu ? ctrlFile : undefined, ctrl: nu ? ctrl : undefined };
      try {
        let ref = oracle.trajectory(file, opts);
        if (ref.nefc > 0) {
          opts = { ...opts, disable: ['contact', 'constraint'] };
          ref = oracle.trajectory(file, opts);
          row.constrained = true;
        }
        const ours = mjstepTrajectory(file, opts);
        const upto = ref.warnStep >= 0 ? ref.warnStep - 1 : steps;
        if (ref.warnStep >= 0) row.blowup[integ] = ref.warnStep;
        const e = row.err[integ] = trajErr(ours, ref, upto);
        if (e > BOUND[integ] && e !== Infinity) {
          const sens = PERTURB.map((p) => trajErr(oracle.trajectory(file, { ...opts, perturb: p }),
                                                  ref, upto) * PERTURB[0] / p);
          row.sens[integ] = Math.max(...sens);
          row.explained[integ] = e <= AMPLIFY * row.sens[integ];
        }
        row.pass = (row.pass ?? true) && (e <= BOUND[integ] || row.explained[integ]);
      } catch (e) {
        row.err[integ] = Infinity;
        row.note = String(e.message || e);
        row.unsupported = UNSUPPORTED.test(row.note);
        row.pass = row.unsupported;
      }
    }
    rows.push(row);
  }

  // one-step quantities
  const fw = { name, err: {}, sens: {}, explained: {}, pass: true, note: '' };
  try {
    let opts = base;
    let ref = oracle.forward(file, states, opts);
    if (ref.some((r) => r.nefc > 0)) {
      opts = { ...base, disable: ['contact', 'constraint'] };
      ref = oracle.forward(file, states, opts);
      fw.constrained = true;
    }
    const input = states.map((s) => [...s.qpos, ...s.qvel, ...s.act, ...s.ctrl].join(' '))
      .join('\n') + '\n';
    const ours = exec(fwd, [file, ...optionArgs(opts)], input).trim().split('\n')
      .map((l) => JSON.parse(l));
    // the error of each field over the states, against MuJoCo at the states perturbed by p
    const errs = (mine, p) => {
      const theirs = p ? oracle.forward(file, states.map((s) => perturbState(s, p)), opts) : ref;
      return Object.fromEntries(FORWARD_FIELDS.map((f) => [f, Math.max(...states.map((_, k) =>
        maxErr(packed(f, mine[k][f], theirs[k][f]), theirs[k][f])))]));
    };
    fw.err = errs(ours, 0);
    fw.sens = {};
    fw.explained = {};
    if (FORWARD_FIELDS.some((f) => fw.err[f] > FORWARD_BOUND)) {
      const sens = PERTURB.map((p) => errs(ref, p));
      for (const f of FORWARD_FIELDS) {
        if (!(fw.err[f] > FORWARD_BOUND)) continue;
        fw.sens[f] = Math.max(...sens.map((e, i) => e[f] * PERTURB[0] / PERTURB[i]));
        fw.explained[f] = fw.err[f] <= AMPLIFY * fw.sens[f];
      }
    }
    fw.pass = FORWARD_FIELDS.every((f) => fw.err[f] <= FORWARD_BOUND || fw.explained[f]);
  } catch (e) {
    fw.note = String(e.message || e);
    fw.unsupported = UNSUPPORTED.test(fw.note);
    fw.pass = fw.unsupported;
  }
  return { rows, fw };
}

// ---- main --------------------------------------------------------------------------------------

const oracle = await openOracle({ quiet: true });
const trajRows = [], fwRows = [], skipped = [];
const t0 = Date.now();
for (const file of models) {
  const r = checkModel(oracle, file);
  if (r.skipped) {
    skipped.push(`${file}: ${r.skipped}`);
    continue;
  }
  trajRows.push(...r.rows);
  fwRows.push(r.fw);
}

// the verdict of a row: a model our compiler rejects as "not supported yet" is reported,
// not failed (t/oracle/run.sh counts those features)
function verdict(r) {
  return r.unsupported ? '  UNSUPPORTED' : r.pass ? '  ok' : '  FAIL';
}

// the trajectory table
const pad = (s, n) => String(s).padEnd(n);
const padl = (s, n) => String(s).padStart(n);
console.log(`trajectories, ${steps} steps, contacts disabled: max |a-b|/max(1,|a|,|b|) of ` +
            'time, qpos, qvel, act');
console.log(`bounds: ${INTEGRATORS.map((i) => `${i} ${BOUND[i]}`).join(', ')}; ` +
            '* = MuJoCo had constraint rows, both rerun with constraints disabled;');
console.log(`! = beyond the bound; ~ = beyond it, but within ${AMPLIFY}x the growth of a ` +
            `${PERTURB[0]} perturbation in MuJoCo itself (amplified round-off, listed below); ` +
            'b = MuJoCo blew up (compared up to the blow-up)');
console.log(pad('model', 34) + pad('init', 9) + INTEGRATORS.map((i) => padl(i, 13)).join('') +
            '  verdict');
let failed = 0;
for (const r of trajRows) {
  const mark = (i) => (!(r.err[i] > BOUND[i]) ? ' ' : r.explained[i] ? '~' : '!');
  const cells = INTEGRATORS.map((i) => padl((r.blowup[i] !== undefined ? 'b ' : '') +
                                            fmt(r.err[i]) + mark(i), 13)).join('');
  console.log(pad(r.name + (r.constrained ? ' *' : ''), 34) + pad(r.init, 9) + cells +
              verdict(r) + (r.note ? `  (${r.note})` : ''));
  if (!r.pass) failed++;
}

// the sensitivities behind the cells beyond their bounds
const amplified = trajRows.flatMap((r) => INTEGRATORS.filter((i) => r.sens[i] !== undefined)
  .map((i) => `  ${pad(`${r.name} ${r.init} ${i}:`, 52)} error ${fmt(r.err[i])}, ` +
              `MuJoCo's own sensitivity ${fmt(r.sens[i])}` +
              (r.explained[i] ? '' : '  (not explained: a bug)')));
if (amplified.length) {
  console.log('\nbeyond the bounds: our error, and how far MuJoCo\'s run moves when its ' +
              `initial qvel is perturbed by ${PERTURB[0]}`);
  for (const line of amplified) console.log(line);
}

// the one-step table
console.log('\none-step quantities at 3 random states: max relative error ' +
            `(bound ${FORWARD_BOUND}; ` +
            '* = constraints disabled as above)');
console.log(pad('model', 34) + FORWARD_FIELDS.map((f) => padl(f, 15)).join('') + '  verdict');
for (const r of fwRows) {
  const mark = (f) => (!(r.err[f] > FORWARD_BOUND) ? ' ' : r.explained[f] ? '~' : '!');
  const cells = FORWARD_FIELDS.map((f) => padl(fmt(r.err[f]) + mark(f), 15)).join('');
  console.log(pad(r.name + (r.constrained ? ' *' : ''), 34) + cells +
              verdict(r) + (r.note ? `  (${r.note})` : ''));
  if (!r.pass) failed++;
}
const amplifiedFw = fwRows.flatMap((r) => FORWARD_FIELDS.filter((f) => r.sens[f] !== undefined)
  .map((f) => `  ${pad(`${r.name} ${f}:`, 52)} error ${fmt(r.err[f])}, ` +
              `MuJoCo's own sensitivity ${fmt(r.sens[f])}` +
              (r.explained[f] ? '' : '  (not explained: a bug)')));
if (amplifiedFw.length) {
  console.log('\nbeyond the bound: our error, and how far MuJoCo\'s value moves when the state ' +
              `is perturbed by ${PERTURB[0]} (ill-conditioning)`);
  for (const line of amplifiedFw) console.log(line);
}
for (const s of skipped) console.log(`skipped ${s}`);
const secs = ((Date.now() - t0) / 1000).toFixed(1);
console.log(`\ntraj.mjs: ${trajRows.length + fwRows.length} rows, ${failed} failed (${secs} s)`);
process.exitCode = failed ? 1 : 0;
