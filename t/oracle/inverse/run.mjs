#!/usr/bin/env node
// run.mjs: libmj's inverse dynamics against MuJoCo 3.14.0's (the oracle) from identical states.
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
// exactly.  Bound: 1e-10.  One line per case; a case listed in t/oracle/known.txt (suite
// inverse, MODEL VARIANT KEY) is judged against its entry (t/oracle/known.mjs).  Exit status 1
// on a failure.
import path from 'node:path';
import { openOracle } from '../../../scripts/oracle.mjs';
import { variantOptions, contactNumbers, eachKeyState, runHelper, fieldErr, worstErr }
  from '../cases.mjs';
import { verdict } from '../known.mjs';

const BOUND = 1e-10;

// option variants per model file (basename), each a list of NAME=VALUE / disable:F / enable:F
const CONVERGED = ['tolerance=1e-12', 'iterations=200', 'ls_tolerance=1e-12'];
const VARIANTS = {
  'contacts.xml': [['cone=pyramidal'], ['cone=elliptic'], ['cone=elliptic', 'impratio=1'],
                   ['cone=elliptic', 'jacobian=sparse'], ['cone=elliptic', ...CONVERGED],
                   ['solver=PGS', 'iterations=4']],
  'equality.xml': [[], ['jacobian=sparse'], ['solver=CG', 'iterations=5']],
  'adhesion.xml': [['cone=pyramidal'], ['cone=elliptic'], ['cone=elliptic', ...CONVERGED]],
  'limits.xml': [[], ['jacobian=sparse'], ['disable:frictionloss'], ['disable:constraint']],
  'damped.xml': [['integrator=Euler'], ['integrator=Euler', 'enable:invdiscrete'],
                 ['integrator=Euler', 'enable:invdiscrete', 'disable:eulerdamp'],
                 ['integrator=Euler', 'enable:invdiscrete', 'disable:damper'],
                 ['integrator=implicit', 'enable:invdiscrete'],
                 ['integrator=implicitfast', 'enable:invdiscrete'],
                 ['integrator=implicitfast', 'enable:invdiscrete', 'cone=elliptic'],
                 ['integrator=RK4'], ['enable:energy', 'cone=elliptic', ...CONVERGED]],
  'humanoid.xml': [[], ['cone=elliptic'], ['integrator=Euler', 'enable:invdiscrete']],
  // actuator damping and armature: the discrete inverse of each integrator, Euler's with the
  // actuators' damping implicit (and without: eulerdamp off)
  'actdamp.xml': [[], ['integrator=Euler', 'enable:invdiscrete'],
                  ['integrator=Euler', 'enable:invdiscrete', 'disable:eulerdamp'],
                  ['integrator=implicit', 'enable:invdiscrete'],
                  ['integrator=implicitfast', 'enable:invdiscrete']],
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

// ---- the oracle --------------------------------------------------------------------------------

// the fields of one inverse result
const INV_FIELDS = ['qfrc_inverse', 'qfrc_constraint', 'efc_force', 'efc_state', 'sensordata',
                    'qacc'];

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
    eachKeyState(mujoco, m, d, (k) => {
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
    });
    return cases;
  } finally {
    d.delete();
    m.delete();
  }
}

// ---- libmj -------------------------------------------------------------------------------------

// INV's results for the cases
function ours(file, flags, cases) {
  return runHelper(inv, file, flags, cases.map((c) => [
    ...c.qpos, ...c.qvel, ...c.ctrl, ...c.qfrc_applied, c.ncon, ...c.contact.flat(),
    c.nefc, ...c.efc_force, ...c.qfrc_constraint, ...c.qacc, c.accs.length, ...c.accs.flat()]));
}

// ---- comparison --------------------------------------------------------------------------------

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
  return { ...worstErr(errs), bad };
}

// ---- main --------------------------------------------------------------------------------------

const o = await openOracle({ quiet: true });
let failures = 0, ncase = 0, nknown = 0;
console.log('model            variant                                      key nefc ncon ' +
            ' max err   (field)');
for (const file of models) {
  const variants = VARIANTS[path.basename(file)] || [[]];
  for (const words of variants) {
    const { opts, flags } = variantOptions(words);
    const cases = oracleCases(o, file, opts);
    const mine = ours(file, flags, cases);
    cases.forEach((c, k) => {
      const { err, worst, bad } = compare(mine[k], c);
      const fail = bad.length > 0 || !(err <= BOUND);
      // judged against t/oracle/known.txt (a state that differs: infinite)
      const v = verdict('inverse', `${path.basename(file)} ${words.join(' ') || '-'} ${c.key}`,
                        bad.length ? Infinity : err, !fail);
      if (v.fail) failures++;
      if (v.word === 'known') nknown++;
      ncase++;
      console.log(`${path.basename(file).padEnd(16)} ${(words.join(' ') || '-').padEnd(44)} ` +
                  `${String(c.key).padStart(3)} ${String(c.nefc).padStart(4)} ` +
                  `${String(c.ncon).padStart(4)}  ${err.toExponential(1).padStart(8)} ` +
                  `(${worst})${bad.length ? ' DIFFERS: ' + bad.join(', ') : ''}` +
                  `${v.word === 'ok' ? '' : `  ${v.word}`}${v.note ? ` (${v.note})` : ''}`);
    });
  }
}
console.log(`${ncase} cases, ${nknown} known, ${failures} failures`);
process.exit(failures ? 1 : 0);
