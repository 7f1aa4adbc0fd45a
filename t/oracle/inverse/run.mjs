#!/usr/bin/env node
// run.mjs: libmj's inverse dynamics against MuJoCo 3.5.1's (the oracle) from identical states.
//
//   node t/oracle/inverse/run.mjs --inv INV MODEL.xml...
//
// For every model, under each option variant of VARIANTS (default: as written), at every
// keyframe (or the default state): qvel from the keyframe (a zero qvel is replaced by
// 0.3 sin(1.7 i + 0.5)), ctrl 0.8 sin(i + 1), qfrc_applied 0.2 cos(1.3 i).  MuJoCo runs
// mj_forward, then mj_compareFwdInv (fwdinv and the qfrc_inverse it leaves), then mj_inverse
// at two accelerations: the forward's qacc, and that qacc perturbed by 5 (1 + |qacc_i|)
// sin(2.1 i + k) (constraint rows then change state: a contact leaves or enters its cone).
// INV (t/oracle/inverse/inv.c, libmj) is given the same state, MuJoCo's contacts (so that
// collision detection is not under test here), MuJoCo's forward solution (efc_force,
// qfrc_constraint, qacc) for its mj_compareFwdInv, and the same accelerations.  Compared, each by
// max |ours - theirs| / scale: qfrc_inverse (scale: the largest of |qfrc_inverse|,
// |qfrc_constraint| and |M qacc + bias - passive|, since qfrc_inverse is their difference),
// qfrc_constraint, efc_force, sensordata, qacc (restored after invdiscrete), each scaled by its
// own largest magnitude (absolute when all zero); fwdinv scaled like qfrc_inverse; efc_state
// exactly.  Bound: 1e-10.  One line per case; exit status 1 on a failure.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { openOracle } from '../../../scripts/oracle.mjs';

const BOUND = 1e-10;

// option variants per model file (basename), each a list of NAME=VALUE / disable:F / enable:F
const CONVERGED = ['tolerance=1e-12', 'iterations=200', 'ls_tolerance=1e-12'];
const VARIANTS = {
  'contacts.xml': [['cone=pyramidal'], ['cone=elliptic'], ['cone=elliptic', 'impratio=1'],
                   ['cone=elliptic', 'jacobian=sparse'], ['cone=elliptic', ...CONVERGED],
                   ['solver=PGS', 'iterations=4']],
  'equality.xml': [[], ['jacobian=sparse'], ['solver=CG', 'iterations=5']],
  'limits.xml': [[], ['jacobian=sparse'], ['disable:frictionloss'], ['disable:constraint']],
  'damped.xml': [['integrator=Euler'], ['integrator=Euler', 'enable:invdiscrete'],
                 ['integrator=Euler', 'enable:invdiscrete', 'disable:eulerdamp'],
                 ['integrator=Euler', 'enable:invdiscrete', 'disable:damper'],
                 ['integrator=implicit', 'enable:invdiscrete'],
                 ['integrator=implicitfast', 'enable:invdiscrete'],
                 ['integrator=implicitfast', 'enable:invdiscrete', 'cone=elliptic'],
                 ['integrator=RK4'], ['enable:energy', 'cone=elliptic', ...CONVERGED]],
  'humanoid.xml': [[], ['cone=elliptic'], ['integrator=Euler', 'enable:invdiscrete']],
};

// ---- arguments --------------------------------------------------------------------------------

const args = process.argv.slice(2);
let inv = null;
const models = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--inv') inv = args[++i];
  else models.push(args[i]);
}
if (!inv || !models.length) {
  process.stderr.write('usage: node t/oracle/inverse/run.mjs --inv INV MODEL.xml...\n');
  process.exit(2);
}

// a variant's words as {set, disable, enable} and as command-line flags for INV
function options(words) {
  const opts = { set: [], disable: [], enable: [] }, flags = [];
  for (const w of words) {
    const [kind, name] = w.includes(':') ? w.split(':') : ['set', w];
    opts[kind].push(name);
    flags.push(`--${kind}`, name);
  }
  return { opts, flags };
}

// ---- the oracle --------------------------------------------------------------------------------

// the fields of one inverse result
const INV_FIELDS = ['qfrc_inverse', 'qfrc_constraint', 'efc_force', 'efc_state', 'sensordata',
                    'qacc'];

// a contact's 32 numbers in INV's input order
function contactNumbers(x) {
  return [x.dist, ...x.pos, ...x.frame, x.includemargin, ...x.friction, ...x.solref,
          ...x.solreffriction, ...x.solimp, x.dim, x.geom1, x.geom2, x.exclude];
}

// one inverse result of d, with the scale of qfrc_inverse's terms
function inverseResult(m, d) {
  const r = {};
  for (const f of INV_FIELDS) {
    r[f] = Array.from(d[f]).slice(0, f.startsWith('efc') ? d.nefc : d[f].length);
  }
  r.scale = Math.max(...r.qfrc_inverse.map((x, i) => Math.abs(x + d.qfrc_constraint[i])),
                     ...r.qfrc_inverse.map(Math.abs), ...r.qfrc_constraint.map(Math.abs));
  return r;
}

// MuJoCo's cases at every keyframe of file under opts
function oracleCases(o, file, opts) {
  const { mujoco } = o;
  const m = o.loadModel(file, opts);
  const d = new mujoco.MjData(m);
  try {
    const cases = [];
    for (let k = 0; k < Math.max(1, m.nkey); k++) {
      mujoco.mj_resetData(m, d);
      if (m.nkey) mujoco.mj_resetDataKeyframe(m, d, k);
      if (d.qvel.every((v) => v === 0)) {
        for (let i = 0; i < m.nv; i++) d.qvel[i] = 0.3 * Math.sin(1.7 * i + 0.5);
      }
      for (let i = 0; i < m.nu; i++) d.ctrl[i] = 0.8 * Math.sin(i + 1);
      for (let i = 0; i < m.nv; i++) d.qfrc_applied[i] = 0.2 * Math.cos(1.3 * i);
      const c = { key: k, qpos: Array.from(d.qpos), qvel: Array.from(d.qvel),
                  ctrl: Array.from(d.ctrl), qfrc_applied: Array.from(d.qfrc_applied) };

      // forward, and the comparison with the inverse
      mujoco.mj_forward(m, d);
      c.nefc = d.nefc;
      c.ncon = d.ncon;
      c.contact = [];
      for (let i = 0; i < d.ncon; i++) c.contact.push(contactNumbers(d.contact.get(i)));
      c.efc_force = Array.from(d.efc_force).slice(0, d.nefc);
      c.qfrc_constraint = Array.from(d.qfrc_constraint);
      c.qacc = Array.from(d.qacc);
      mujoco.mj_compareFwdInv(m, d);
      c.fwdinv = Array.from(d.solver_fwdinv);
      c.fwd_qfrc_inverse = Array.from(d.qfrc_inverse);
      c.fwdscale = Math.max(...c.qfrc_constraint.map(Math.abs), ...c.qfrc_applied.map(Math.abs));

      // the inverse at the forward's qacc and at a perturbed one
      c.accs = [c.qacc, c.qacc.map((a, i) => a + 5 * (1 + Math.abs(a)) * Math.sin(2.1 * i + k))];
      c.inv = c.accs.map((acc) => {
        d.qacc.set(acc);
        mujoco.mj_inverse(m, d);
        return inverseResult(m, d);
      });
      cases.push(c);
    }
    return cases;
  } finally {
    d.delete();
    m.delete();
  }
}

// ---- libmj -------------------------------------------------------------------------------------

// INV's results for the cases
function ours(file, flags, cases) {
  const input = cases.map((c) => [
    ...c.qpos, ...c.qvel, ...c.ctrl, ...c.qfrc_applied, c.ncon, ...c.contact.flat(),
    c.nefc, ...c.efc_force, ...c.qfrc_constraint, ...c.qacc,
    c.accs.length, ...c.accs.flat()].map((x) => String(x)).join(' ')).join('\n') + '\n';
  const r = spawnSync(inv, [file, ...flags], { input, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`inv ${file}: ${(r.stderr || '').trim()}`);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l));
}

// ---- comparison --------------------------------------------------------------------------------

// max |a - b| / scale (default: max |b|, absolute when zero); a length mismatch is infinite
function fieldErr(a, b, scale) {
  if (a.length !== b.length) return Infinity;
  let diff = 0, top = 0;
  for (let i = 0; i < a.length; i++) {
    if (Number.isNaN(a[i]) !== Number.isNaN(b[i])) return Infinity;
    diff = Math.max(diff, Math.abs(a[i] - b[i]));
    top = Math.max(top, Math.abs(b[i]));
  }
  const s = scale !== undefined ? Math.max(scale, top) : top;
  return s > 0 ? diff / s : diff;
}

// {err, worst, bad} of one case
function compare(mine, theirs) {
  const bad = [];
  if (mine.nefc !== theirs.nefc) bad.push(`nefc ${mine.nefc}/${theirs.nefc}`);
  if (mine.ncon !== theirs.ncon) bad.push(`ncon ${mine.ncon}/${theirs.ncon}`);
  const errs = {
    fwdinv: fieldErr(mine.fwdinv, theirs.fwdinv, theirs.fwdscale),
    fwd_qfrc_inverse: fieldErr(mine.fwd_qfrc_inverse, theirs.fwd_qfrc_inverse, theirs.fwdscale),
  };
  theirs.inv.forEach((t, k) => {
    const o = mine.inv[k];
    if (JSON.stringify(o.efc_state) !== JSON.stringify(t.efc_state)) bad.push(`efc_state[${k}]`);
    errs[`qfrc_inverse[${k}]`] = fieldErr(o.qfrc_inverse, t.qfrc_inverse, t.scale);
    for (const f of ['qfrc_constraint', 'efc_force', 'sensordata', 'qacc']) {
      errs[`${f}[${k}]`] = fieldErr(o[f], t[f]);
    }
  });
  let worst = '', err = 0;
  for (const [f, e] of Object.entries(errs)) {
    if (!(e <= err)) [worst, err] = [f, e];
  }
  return { err, worst, bad };
}

// ---- main --------------------------------------------------------------------------------------

const o = await openOracle({ quiet: true });
let failures = 0, ncase = 0;
console.log('model            variant                                      key nefc ncon ' +
            ' max err   (field)');
for (const file of models) {
  const variants = VARIANTS[path.basename(file)] || [[]];
  for (const words of variants) {
    const { opts, flags } = options(words);
    const cases = oracleCases(o, file, opts);
    const mine = ours(file, flags, cases);
    cases.forEach((c, k) => {
      const { err, worst, bad } = compare(mine[k], c);
      const fail = bad.length > 0 || !(err <= BOUND);
      if (fail) failures++;
      ncase++;
      console.log(`${path.basename(file).padEnd(16)} ${(words.join(' ') || '-').padEnd(44)} ` +
                  `${String(c.key).padStart(3)} ${String(c.nefc).padStart(4)} ` +
                  `${String(c.ncon).padStart(4)}  ${err.toExponential(1).padStart(8)} ` +
                  `(${worst})${bad.length ? ' DIFFERS: ' + bad.join(', ') : ''}` +
                  `${fail ? '  FAIL' : ''}`);
    });
  }
}
console.log(`${ncase} cases, ${failures} failures`);
process.exit(failures ? 1 : 0);
