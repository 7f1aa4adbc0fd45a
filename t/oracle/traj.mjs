#!/usr/bin/env node
// traj.mjs: trajectories and one-step quantities of mjstep against MuJoCo 3.14.0 (the oracle).
//
//   node t/oracle/traj.mjs --bin BIN --fwd FWD [--steps N] MODEL.xml...
//   node t/oracle/traj.mjs --bin BIN --contacts [--steps N] [--seconds S] MODEL.xml...
//
// For every model, with contacts disabled in both engines, under each integrator: N steps
// (default 1000) from the default state and from keyframe 0 when there is one, with the same
// deterministic controls (a sine per actuator inside its ctrlrange); the largest relative
// error |a-b| / max(1, |a|, |b|) over the run of time, qpos, qvel and act is printed per
// model x integrator.  When MuJoCo's run has constraint rows (joint or tendon limits,
// equality constraints), both are run again with all constraints disabled and the row is
// marked '*': this run checks the smooth dynamics alone, --contacts the constrained one.
//
// Then, at three random states per model (seeded: the same every run), the one-step
// quantities of FWD (t/oracle/fwd.c, libmj) and of the oracle's `forward`: qfrc_bias, qM
// (MuJoCo's sparse M in qM's layout), qLD, qacc, actuator_force, sensordata, with the same
// error measure.
//
// Bounds (the run fails above them):
//   Euler, implicitfast, RK4   1e-9: the same operations as MuJoCo in another order; round-off
//                              of 1e-16 per step stays far below 1e-9 over 1000 steps unless
//                              the motion itself amplifies it (below)
//   implicit                   1e-8: the LU factorization of the nonsymmetric M - hD may
//                              eliminate in another order than MuJoCo's; its round-off is
//                              that of a dense solve, a few hundred eps per step
//   one-step quantities        1e-10
//
// --contacts: everything on, each model with its own integrator, solver, cone and iterations
// (MuJoCo's defaults: nativeccd on, GJK/EPA and its multi-contact for the pairs without an
// analytic function; constraint islands on, each island solved alone; the environment
// variable FLAGS, a comma-separated list of flags to disable, e.g. FLAGS=nativeccd for
// libccd's MPR, is passed to both engines).  With TRAJ_FIRST=E, the first frame of each run
// beyond E is printed to stderr.  N steps (default 200) from the
// default state and keyframe 0, the same controls, the same error measure; bound 1e-6 (the
// issue's): both engines take the same solver iterations, so they differ by round-off (1e-12
// here), but a solve that stops one iteration earlier in one of them, its improvement or
// gradient within round-off of the tolerance, differs by up to that tolerance (1e-8 by
// default), which the following steps may grow a little.  Then a long run of S simulated
// seconds (default 10) with zero controls and the energy flag on, to compare what a user looks
// at once the model has settled:
//   COM height   the mean over the last second of the z of the whole model's center of mass
//                (subtree_com of the world body; both engines' positions go through the same
//                function, the oracle's mj_kinematics + mj_comPos, so that the statistic
//                compares the motions alone): within COM_ABS = 0.5 mm, or COM_REL = 0.1% of the
//                larger height when that is more.  A resting body sinks into the ground by its
//                soft contacts' penetration, about a millimetre with MuJoCo's default solref,
//                so wrong contact softness (solref, solimp, R, aref) shows at that scale (a
//                contact time constant of 0.03 instead of 0.02 lowers the resting cheetah by
//                1 mm), while a model that topples or lands differently moves by centimetres;
//                the relative part covers the round-off of the 5 m heights here
//   contacts     the mean contact count over the last second: within CON_TOL = 10% of the
//                larger mean, and at least CON_MIN = half a contact.  Resting contacts flicker
//                when a geom hovers at its margin: one present half of the second shifts the
//                mean by 0.5; a model resting on another face changes it by whole contacts
//   energy       potential + kinetic at the last frame: within the potential energy of COM_ABS
//                of height (moving mass x |gravity| x COM_ABS), or ENERGY_TOL = 0.1% of the
//                larger magnitude, or ENERGY_MIN = 1e-6 J, whichever is most: a settled model's
//                energy is its potential energy, M g z_com plus springs, so its bound follows
//                the COM's
//   blow-up      neither engine raises a warning (bad qpos, qvel, qacc: a state reset)
// Chaotic runs (bodies bouncing, rolling, toppling over edges) magnify any difference into a
// different outcome: MuJoCo is run again with its initial qvel perturbed by +-1e-15 (relative),
// and a statistic beyond its bound is explained ('~') when the perturbed runs of MuJoCo itself
// spread at least half as far (LONG_SPREAD: two perturbed runs sample the spread of outcomes,
// which our one run may exceed by a little).
//
// Amplified round-off: chaotic motion (multi-link bodies flailing freely with their limits
// off, contacts made and broken) and numerically unstable integration (RK4 with stiff explicit
// damping at a large step) grow any difference exponentially, so two correct engines that
// round differently drift apart.  To tell that from a bug, MuJoCo is run again with its initial
// qvel perturbed (relative) by +-1e-15 and by +-1e-11: the motion's sensitivity is how far a
// 1e-15 perturbation moves the run, measured directly and extrapolated linearly from 1e-11
// (round-off may swallow the small one before it grows).  Both signs: a contact whose distance
// crosses its margin at a step within round-off (a body landing flat) is made in one engine
// and not in the other, and only the perturbation towards it shows that.  And by random signs
// (each qvel by up to +-1e-14, eight seeded runs; the contact issue's measure of MuJoCo's own
// spread): a tie between two contact sets at one step (the Menagerie's G1 with hands near
// frame 135, where 2 of the first 12 seeds part MuJoCo from itself by 4e-2 in qpos, 0.6 in
// qvel) may go one way under every perturbation that moves all dofs alike and the other way
// under a few of these.  A cell above its bound but within AMPLIFY times that sensitivity
// (10x the spread at 1e-14) is marked '~' (explained) and listed with it; above both it is
// '!' (a failure).  A run that blows up (MuJoCo warns of a bad number at step k and resets)
// is compared up to frame k - 1, the last before the bad values: after it both engines
// restart arbitrarily.
//
// Every row is judged against t/oracle/known.txt (suite traj; t/oracle/known.mjs): its case
// "TABLE MODEL INIT" (TABLE smooth, contacts, long or forward; INIT default or key0, none for
// forward), its error the largest of its cells (a long run's: the largest |difference| /
// tolerance; infinite when a run failed or warned).  A known divergence is reported with its
// reason and does not fail the run; a listed row that passes fails, its entry stale.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openOracle, FORWARD_FIELDS, printedArrays } from '../../scripts/oracle.mjs';
import { controlRows, rng } from './cases.mjs';
import { verdict } from './known.mjs';

// the message of a model feature our engine rejects on purpose, for now
const UNSUPPORTED = /not supported yet/;
const INTEGRATORS = ['Euler', 'implicitfast', 'implicit', 'RK4'];
const BOUND = { Euler: 1e-9, implicitfast: 1e-9, implicit: 1e-8, RK4: 1e-9 };
const FORWARD_BOUND = 1e-10;
const PERTURB = [1e-15, -1e-15, 1e-11, -1e-11];
const AMPLIFY = 100;
// and the issue's measure of MuJoCo's own spread: every initial qvel moved by a random amount
// within +-RANDOM_PERTURB (relative), RANDOM_RUNS seeded runs
const RANDOM_PERTURB = 1e-14, RANDOM_RUNS = 8;
// --contacts: the bound of the first steps, the flags both engines run with, the long run's
// tolerances and the perturbations explaining a statistic beyond them (header)
const CONTACT_BOUND = 1e-6;
const CONTACT_FLAGS = (process.env.FLAGS ?? '').split(',').filter(Boolean);
const COM_REL = 1e-3, COM_ABS = 5e-4, CON_TOL = 0.1, CON_MIN = 0.5;
const ENERGY_TOL = 1e-3, ENERGY_MIN = 1e-6;
const LONG_PERTURB = [1e-15, -1e-15];
const LONG_SPREAD = 2;

// ---- arguments --------------------------------------------------------------------------------

const args = process.argv.slice(2);
let bin = null, fwd = null, steps, contacts = false, seconds = 10;
const models = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--bin') bin = args[++i];
  else if (args[i] === '--fwd') fwd = args[++i];
  else if (args[i] === '--steps') steps = Number(args[++i]);
  else if (args[i] === '--contacts') contacts = true;
  else if (args[i] === '--seconds') seconds = Number(args[++i]);
  else models.push(args[i]);
}
if (!bin || !(fwd || contacts) || !models.length) {
  process.stderr.write('usage: node t/oracle/traj.mjs --bin BIN --fwd FWD [--steps N] ' +
                       'MODEL.xml...\n' +
                       '       node t/oracle/traj.mjs --bin BIN --contacts [--steps N] ' +
                       '[--seconds S] MODEL.xml...\n');
  process.exit(2);
}
steps ??= contacts ? 200 : 1000;
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
          ...opts.disable.flatMap((f) => ['--disable', f]),
          ...(opts.enable || []).flatMap((f) => ['--enable', f])];
}

// a NumPy file of float64 rows, as mjdump --npy writes them: a list of rows
function readNpy(file) {
  const buf = fs.readFileSync(file);
  // magic and version (8 bytes), the header's length (2 bytes in version 1, else 4), header
  const v1 = buf[6] === 1;
  const start = (v1 ? 10 : 12) + (v1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8));
  const header = buf.toString('latin1', v1 ? 10 : 12, start);
  if (!/'descr':\s*'<f8'/.test(header) || !/'fortran_order':\s*False/.test(header)) {
    throw new Error(`${file}: not little-endian float64 rows: ${header.trim()}`);
  }
  const shape = header.match(/'shape':\s*\(([^)]*)\)/)[1].split(',').filter((x) => x.trim())
    .map(Number);
  const cols = shape.length > 1 ? shape[1] : 1;
  const data = new Float64Array(buf.buffer.slice(buf.byteOffset + start,
                                                 buf.byteOffset + start + 8 * shape[0] * cols));
  return Array.from({ length: shape[0] }, (_, k) => Array.from(data.subarray(k * cols,
                                                                             (k + 1) * cols)));
}

// mjstep's run of opts.steps steps as {field: list of frames} for the stream fields named
// (time: a list of numbers; fields without elements, as act when na = 0: empty frames)
function mjstepRun(file, opts, fields = ['time', 'qpos', 'qvel', 'act']) {
  const out = path.join(tmp, 'run.mjt'), dir = path.join(tmp, 'npy');
  const argv = [file, '-n', String(opts.steps), ...optionArgs(opts), '--fields',
                fields.join(','), '-o', out];
  if (opts.key !== undefined) argv.push('--key', String(opts.key));
  if (opts.ctrlFile) argv.push('--ctrl', opts.ctrlFile);
  exec(path.join(bin, 'mjstep'), argv);
  fs.rmSync(dir, { recursive: true, force: true });
  exec(path.join(bin, 'mjdump'), ['--npy', dir, out]);
  const run = {};
  for (const f of fields) {
    const npy = path.join(dir, `${f}.npy`);
    run[f] = fs.existsSync(npy) ? readNpy(npy) : null;
  }
  const n = run.time.length;
  for (const f of fields) run[f] ??= Array.from({ length: n }, () => []);
  run.time = run.time.map((r) => r[0]);
  return run;
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

// with TRAJ_FIRST=E set: the first frame where the runs part by more than E (to stderr), to
// find where a divergence starts
function firstDeparture(name, a, b, upto) {
  const bound = Number(process.env.TRAJ_FIRST);
  for (let k = 0; k <= upto && k < a.time.length; k++) {
    const e = trajErr(a, b, k);
    if (e > bound) {
      process.stderr.write(`${name}: first departure beyond ${bound} at frame ${k}: ${fmt(e)}\n`);
      return;
    }
  }
}

// ---- inputs ------------------------------------------------------------------------------------

// a random state {qpos, qvel, act, ctrl}: joints near qpos0 (unit quaternions for ball and free
// joints), velocities in -1..1, activations and controls inside their ranges; bools: m's bool
// arrays
function randomState(mujoco, m, bools, rand) {
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
  for (let i = 0; i < m.nactuator; i++) {
    const muscle = m.actuator_dyntype[i] === mujoco.mjtDyn.mjDYN_MUSCLE.value;
    for (let k = 0; k < m.actuator_actnum[i]; k++) {
      if (bools.actuator_actlimited[i]) {
        act.push(u(m.actuator_actrange[2 * i], m.actuator_actrange[2 * i + 1]));
      } else {
        act.push(muscle ? u(0, 1) : u(-1, 1));
      }
    }
  }
  const ctrl = Array.from({ length: m.nu }, (_, i) => (bools.actuator_ctrllimited[i]
    ? u(m.actuator_ctrlrange[2 * i], m.actuator_ctrlrange[2 * i + 1]) : u(-1, 1)));
  return { qpos, qvel, act, ctrl };
}

// a state with every number x moved by p max(1, |x|)
function perturbState(s, p) {
  const move = (v) => v.map((x) => x + p * Math.max(1, Math.abs(x)));
  return { qpos: move(s.qpos), qvel: move(s.qvel), act: move(s.act), ctrl: move(s.ctrl) };
}

// ---- one model ---------------------------------------------------------------------------------

// the runs compared from each initial state: without contacts, the four integrators (limits
// and equalities dropped again when MuJoCo has rows); with them, the model's own options
const CELLS = contacts
  ? [{ label: 'error', bound: CONTACT_BOUND, set: [], disable: CONTACT_FLAGS }]
  : INTEGRATORS.map((i) => ({ label: i, bound: BOUND[i], set: [`integrator=${i}`],
                              disable: ['contact'], unconstrained: true }));

// the names of the option values a contact row shows, indexed as MuJoCo's enums
const INTEGRATOR_NAMES = ['Euler', 'RK4', 'implicit', 'implicitfast'];
const SOLVER_NAMES = ['PGS', 'CG', 'Newton'];
const CONE_NAMES = ['pyramidal', 'elliptic'];

// what the runs of one model need, from MuJoCo's compilation: {name, nu, inits, ctrl rows and
// their file, random states, options (the model's integrator/solver/cone), h, the moving mass
// (bodies not welded to the world) and |gravity|}; or {skipped}
function modelInfo(oracle, file) {
  let m;
  try {
    m = oracle.loadModel(file);
  } catch (e) {
    return { skipped: `MuJoCo cannot compile it: ${String(e.message || e).split('\n')[0]}` };
  }
  const bools = printedArrays(oracle.mujoco, m, ['actuator_ctrllimited', 'actuator_actlimited']);
  const info = { name: path.basename(path.dirname(file)) + '/' + path.basename(file, '.xml'),
                 nu: m.nu, inits: m.nkey ? [undefined, 0] : [undefined],
                 ctrl: controlRows(m, bools, steps), ctrlFile: path.join(tmp, 'ctrl.txt'),
                 options: `${INTEGRATOR_NAMES[m.opt.integrator]}/${SOLVER_NAMES[m.opt.solver]}/` +
                          CONE_NAMES[m.opt.cone],
                 h: m.opt.timestep,
                 gravity: Math.hypot(...m.opt.gravity), mass: 0 };
  for (let b = 1; b < m.nbody; b++) if (m.body_weldid[b] !== 0) info.mass += m.body_mass[b];
  fs.writeFileSync(info.ctrlFile, info.ctrl.map((r) => r.join(' ')).join('\n') + '\n');
  const rand = rng(12345);
  info.states = [0, 1, 2].map(() => randomState(oracle.mujoco, m, bools, rand));
  m.delete();
  return info;
}

// the error of mjstep's run from initial state `key` in every cell, with the sensitivities
// of the cells beyond their bounds: one row of the trajectory table
function trajectoryRow(oracle, file, info, key) {
  const row = { name: info.name, init: key === undefined ? 'default' : 'key 0', err: {},
                sens: {}, explained: {}, blowup: {}, note: '', options: info.options, nefc: 0 };
  for (const cell of CELLS) {
    const i = cell.label;
    let opts = { set: cell.set, disable: cell.disable, enable: [], steps, key,
                 ctrlFile: info.nu ? info.ctrlFile : undefined,
                 ctrl: info.nu ? info.ctrl : undefined };
    try {
      let ref = oracle.trajectory(file, opts);
      row.nefc = Math.max(row.nefc, ref.nefc);
      if (cell.unconstrained && ref.nefc > 0) {
        opts = { ...opts, disable: [...cell.disable, 'constraint'] };
        ref = oracle.trajectory(file, opts);
        row.constrained = true;
      }
      const ours = mjstepRun(file, opts);
      const upto = ref.warnStep >= 0 ? ref.warnStep - 1 : steps;
      if (ref.warnStep >= 0) row.blowup[i] = ref.warnStep;
      const e = row.err[i] = trajErr(ours, ref, upto);
      if (process.env.TRAJ_FIRST) firstDeparture(info.name, ours, ref, upto);
      if (e > cell.bound && e !== Infinity) {
        // each perturbation's effect, scaled to a perturbation of PERTURB[0]
        const moved = (perturb, size) => trajErr(oracle.trajectory(file, { ...opts, perturb }),
                                                 ref, upto) * PERTURB[0] / size;
        const sens = PERTURB.map((p) => moved(p, Math.abs(p)));
        for (let r = 0; r < RANDOM_RUNS; r++) {
          const u = rng(r + 1);
          sens.push(moved(() => RANDOM_PERTURB * (2 * u() - 1), RANDOM_PERTURB));
        }
        row.sens[i] = Math.max(...sens);
        row.explained[i] = e <= AMPLIFY * row.sens[i];
      }
      row.pass = (row.pass ?? true) && (e <= cell.bound || row.explained[i]);
      row.worst = Math.max(row.worst ?? 0, e);
    } catch (e) {
      row.err[i] = row.worst = Infinity;
      row.note = String(e.message || e);
      row.unsupported = UNSUPPORTED.test(row.note);
      row.pass = row.unsupported;
    }
  }
  return row;
}

// libmj's one-step quantities (FWD) against the oracle's at the random states: one row
function forwardRow(oracle, file, info) {
  const base = { set: [], disable: ['contact'], enable: [] };
  const states = info.states;
  const fw = { name: info.name, err: {}, sens: {}, explained: {}, pass: true, note: '' };
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
    if (FORWARD_FIELDS.some((f) => fw.err[f] > FORWARD_BOUND)) {
      const sens = PERTURB.map((p) => errs(ref, p));
      for (const f of FORWARD_FIELDS) {
        if (!(fw.err[f] > FORWARD_BOUND)) continue;
        fw.sens[f] = Math.max(...sens.map((e, i) => e[f] * PERTURB[0] / Math.abs(PERTURB[i])));
        fw.explained[f] = fw.err[f] <= AMPLIFY * fw.sens[f];
      }
    }
    fw.pass = FORWARD_FIELDS.every((f) => fw.err[f] <= FORWARD_BOUND || fw.explained[f]);
    fw.worst = Math.max(...FORWARD_FIELDS.map((f) => fw.err[f]));
  } catch (e) {
    fw.worst = Infinity;
    fw.note = String(e.message || e);
    fw.unsupported = UNSUPPORTED.test(fw.note);
    fw.pass = fw.unsupported;
  }
  return fw;
}

// ---- long runs (--contacts) -------------------------------------------------------------------

const STATS = ['com', 'ncon', 'energy'];

// the statistics of a run's last second (frames `from` on): mean COM height, mean contact
// count, the last frame's total energy
function lastSecond(oracle, file, qpos, ncon, energy) {
  const com = oracle.centerOfMass(file, qpos);
  const mean = (v) => v.reduce((a, x) => a + x, 0) / v.length;
  return { com: mean(com.map((c) => c[2])), ncon: mean(ncon),
           energy: energy[energy.length - 1][0] + energy[energy.length - 1][1] };
}

// the tolerance of each statistic for the values a and b (header)
function tolerance(info, stat, a, b) {
  const big = Math.max(Math.abs(a), Math.abs(b));
  if (stat === 'com') return Math.max(COM_REL * big, COM_ABS);
  if (stat === 'ncon') return Math.max(CON_TOL * big, CON_MIN);
  return Math.max(ENERGY_TOL * big, info.mass * info.gravity * COM_ABS, ENERGY_MIN);
}

// MuJoCo's statistics over `seconds` from initial state `key`, zero controls, its initial qvel
// perturbed by p (0: none); with its warnings
function oracleLong(oracle, file, opts, from, p) {
  const ref = oracle.trajectory(file, { ...opts, derivedFrom: from, perturb: p });
  return { ...lastSecond(oracle, file, ref.qpos.slice(from), ref.ncon, ref.energy),
           warn: ref.warnStep >= 0 ? `MuJoCo warned at step ${ref.warnStep}` : '' };
}

// the long run from initial state `key` in both engines: one row of the long-run table
function longRow(oracle, file, info, key) {
  const n = Math.round(seconds / info.h), from = n + 1 - Math.max(1, Math.round(1 / info.h));
  const opts = { set: [], disable: CONTACT_FLAGS, enable: ['energy'], steps: n, key };
  const row = { name: info.name, init: key === undefined ? 'default' : 'key 0', steps: n,
                ours: {}, ref: {}, spread: {}, mark: {}, note: '' };
  try {
    const run = mjstepRun(file, opts, ['time', 'qpos', 'energy', 'ncon', 'warning']);
    row.ours = lastSecond(oracle, file, run.qpos.slice(from),
                          run.ncon.slice(from).map((r) => r[0]), run.energy);
    const warnings = run.warning[n].reduce((a, x) => a + x, 0);
    row.ref = oracleLong(oracle, file, opts, from, 0);
    row.note = [warnings ? `mjstep warned ${warnings} times` : '', row.ref.warn]
      .filter((x) => x).join('; ');
    const beyond = STATS.filter((f) => Math.abs(row.ours[f] - row.ref[f]) >
                                       tolerance(info, f, row.ours[f], row.ref[f]));
    if (beyond.length) {
      const runs = LONG_PERTURB.map((p) => oracleLong(oracle, file, opts, from, p));
      for (const f of beyond) {
        row.spread[f] = Math.max(...runs.map((r) => Math.abs(r[f] - row.ref[f])));
      }
    }
    for (const f of STATS) {
      row.mark[f] = !beyond.includes(f) ? ' '
        : Math.abs(row.ours[f] - row.ref[f]) <= LONG_SPREAD * row.spread[f] ? '~' : '!';
    }
    row.pass = !row.note && STATS.every((f) => row.mark[f] !== '!');
    row.worst = row.note ? Infinity : Math.max(...STATS.map((f) => Math.abs(row.ours[f] -
      row.ref[f]) / tolerance(info, f, row.ours[f], row.ref[f])));
  } catch (e) {
    row.worst = Infinity;
    row.note = String(e.message || e);
    row.unsupported = UNSUPPORTED.test(row.note);
    row.pass = row.unsupported;
  }
  return row;
}

// ---- main --------------------------------------------------------------------------------------

const oracle = await openOracle({ quiet: true });
const trajRows = [], fwRows = [], longRows = [], skipped = [];
const t0 = Date.now();
for (const file of models) {
  const info = modelInfo(oracle, file);
  if (info.skipped) {
    skipped.push(`${file}: ${info.skipped}`);
    continue;
  }
  const rows = info.inits.map((key) => trajectoryRow(oracle, file, info, key));
  const long = contacts && seconds > 0 && !rows.some((r) => r.unsupported)
    ? info.inits.map((key) => longRow(oracle, file, info, key)) : [];
  const fw = contacts ? [] : [forwardRow(oracle, file, info)];
  // each row judged against t/oracle/known.txt
  const init = (r) => (r.init === 'key 0' ? ' key0' : r.init ? ` ${r.init}` : '');
  // long runs by their length (make check's 10 s and SAN's 2 s differ by how far they drift)
  for (const [table, list] of [[contacts ? 'contacts' : 'smooth', rows],
                               [`long${seconds}s`, long], ['forward', fw]]) {
    for (const r of list) {
      if (r.unsupported) continue;
      r.judged = verdict('traj', `${table} ${r.name}${init(r)}`, r.worst, r.pass);
    }
  }
  trajRows.push(...rows);
  longRows.push(...long);
  fwRows.push(...fw);
}

// the verdict of a row: a model our compiler rejects as "not supported yet" is reported, not
// failed (t/oracle/run.sh counts those features); one that is not ok with its error (the
// number t/oracle/known.txt bounds) and a listed one with its entry's note
function rowVerdict(r) {
  if (r.unsupported) return '  UNSUPPORTED';
  const err = r.judged.word === 'ok' ? '' : ` error ${fmt(r.worst)}`;
  return `  ${r.judged.word}${err}${r.judged.note ? ` (${r.judged.note})` : ''}`;
}
let failed = 0, nknown = 0;
const count = (r) => {
  if (r.judged?.fail) failed++;
  if (r.judged?.word === 'known') nknown++;
};

// the trajectory table
const pad = (s, n) => String(s).padEnd(n);
const padl = (s, n) => String(s).padStart(n);
if (contacts) {
  console.log(`trajectories with contacts, ${steps} steps, each model's options ` +
              `(integrator/solver/cone), MuJoCo with [${CONTACT_FLAGS}] disabled: ` +
              'max |a-b|/max(1,|a|,|b|) of time, qpos, qvel, act');
  console.log(`bound ${CONTACT_BOUND}; nefc = MuJoCo's most constraint rows in a step;`);
} else {
  console.log(`trajectories, ${steps} steps, contacts disabled: max |a-b|/max(1,|a|,|b|) of ` +
              'time, qpos, qvel, act');
  console.log(`bounds: ${INTEGRATORS.map((i) => `${i} ${BOUND[i]}`).join(', ')}; ` +
              '* = MuJoCo had constraint rows, both rerun with constraints disabled;');
}
console.log(`! = beyond the bound; ~ = beyond it, but within ${AMPLIFY}x the growth of a ` +
            `+-${PERTURB[0]} perturbation in MuJoCo itself (amplified round-off, listed ` +
            'below); b = MuJoCo blew up (compared up to the blow-up)');
console.log(pad('model', 36) + pad('init', 9) +
            (contacts ? pad('options', 30) + padl('nefc', 5) : '') +
            CELLS.map((c) => padl(c.label, 13)).join('') + '  verdict');
for (const r of trajRows) {
  const mark = (c) => (!(r.err[c.label] > c.bound) ? ' ' : r.explained[c.label] ? '~' : '!');
  const cells = CELLS.map((c) => padl((r.blowup[c.label] !== undefined ? 'b ' : '') +
                                      fmt(r.err[c.label]) + mark(c), 13)).join('');
  console.log(pad(r.name + (r.constrained ? ' *' : ''), 36) + pad(r.init, 9) +
              (contacts ? pad(r.options, 30) + padl(r.nefc, 5) : '') + cells +
              rowVerdict(r) + (r.note ? `  (${r.note})` : ''));
  count(r);
}

// the sensitivities behind the cells beyond their bounds
const amplified = trajRows.flatMap((r) => CELLS.filter((c) => r.sens[c.label] !== undefined)
  .map(({ label: i }) => `  ${pad(`${r.name} ${r.init} ${i}:`, 52)} error ${fmt(r.err[i])}, ` +
       `MuJoCo's own sensitivity ${fmt(r.sens[i])}` +
       (r.explained[i] ? '' : '  (not explained: a bug)')));
if (amplified.length) {
  console.log('\nbeyond the bounds: our error, and how far MuJoCo\'s run moves when its ' +
              `initial qvel is perturbed by +-${PERTURB[0]}`);
  for (const line of amplified) console.log(line);
}

// the long-run table
if (longRows.length) {
  const g = (x) => (x === undefined ? '-' : Number(x.toPrecision(4)).toString());
  const dg = (x) => (Number.isNaN(x) ? '' : x === 0 ? '0' : (x > 0 ? '+' : '') +
                    x.toExponential(1));
  console.log(`\nlong runs, ${seconds} s, zero controls: mean COM height (m) and contact count ` +
              'over the last second, total energy (J) at the end: MuJoCo\'s, and mjstep\'s ' +
              'minus MuJoCo\'s');
  console.log(`bounds: COM ${COM_REL} relative or ${COM_ABS} m; contacts ${CON_TOL} relative ` +
              `or ${CON_MIN}; energy ${ENERGY_TOL} relative or ${COM_ABS} m of potential ` +
              `energy; no warnings; ~ = beyond, but MuJoCo's own runs perturbed by ` +
              `+-${LONG_PERTURB[0]} spread at least 1/${LONG_SPREAD} as far`);
  console.log(pad('model', 36) + pad('init', 9) + padl('steps', 6) +
              STATS.map((f) => padl(f, 11) + padl('diff', 9) + ' ').join('') + ' verdict');
  for (const r of longRows) {
    const cells = STATS.map((f) => padl(g(r.ref[f]), 11) + padl(dg(r.ours[f] - r.ref[f]), 9) +
                                   (r.mark[f] || ' ')).join('');
    console.log(pad(r.name, 36) + pad(r.init, 9) + padl(r.steps, 6) + cells + rowVerdict(r) +
                (r.note ? `  (${r.note})` : ''));
    count(r);
  }
  const spread = longRows.flatMap((r) => STATS.filter((f) => r.spread[f] !== undefined)
    .map((f) => `  ${pad(`${r.name} ${r.init} ${f}:`, 52)} difference ` +
         `${g(Math.abs(r.ours[f] - r.ref[f]))}, MuJoCo's own spread ${g(r.spread[f])}` +
         (r.mark[f] === '~' ? '' : '  (not explained: a bug)')));
  if (spread.length) {
    console.log('\nbeyond the bounds: our difference, and how far MuJoCo\'s statistic moves ' +
                `when its initial qvel is perturbed by +-${LONG_PERTURB[0]}`);
    for (const line of spread) console.log(line);
  }
}

// the one-step table
if (fwRows.length) {
  console.log('\none-step quantities at 3 random states: max relative error ' +
              `(bound ${FORWARD_BOUND}; * = constraints disabled as above)`);
  console.log(pad('model', 36) + FORWARD_FIELDS.map((f) => padl(f, 15)).join('') + '  verdict');
  for (const r of fwRows) {
    const mark = (f) => (!(r.err[f] > FORWARD_BOUND) ? ' ' : r.explained[f] ? '~' : '!');
    const cells = FORWARD_FIELDS.map((f) => padl(fmt(r.err[f]) + mark(f), 15)).join('');
    console.log(pad(r.name + (r.constrained ? ' *' : ''), 36) + cells +
                rowVerdict(r) + (r.note ? `  (${r.note})` : ''));
    count(r);
  }
  const amplifiedFw = fwRows.flatMap((r) => FORWARD_FIELDS.filter((f) => r.sens[f] !== undefined)
    .map((f) => `  ${pad(`${r.name} ${f}:`, 52)} error ${fmt(r.err[f])}, ` +
                `MuJoCo's own sensitivity ${fmt(r.sens[f])}` +
                (r.explained[f] ? '' : '  (not explained: a bug)')));
  if (amplifiedFw.length) {
    console.log('\nbeyond the bound: our error, and how far MuJoCo\'s value moves when the ' +
                `state is perturbed by +-${PERTURB[0]} (ill-conditioning)`);
    for (const line of amplifiedFw) console.log(line);
  }
}
for (const s of skipped) console.log(`skipped ${s}`);
const secs = ((Date.now() - t0) / 1000).toFixed(1);
const nrows = trajRows.length + fwRows.length + longRows.length;
console.log(`\ntraj.mjs${contacts ? ' --contacts' : ''}: ${nrows} rows, ${nknown} known, ` +
            `${failed} failed ` +
            `(${secs} s)`);
process.exitCode = failed ? 1 : 0;
