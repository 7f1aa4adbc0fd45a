#!/usr/bin/env node
// run.mjs: libmj's constraint rows against MuJoCo 3.14.0's (the oracle) from identical states.
//
//   node t/oracle/constraint/run.mjs --efc EFC [--native] MODEL.xml...
//
// For every model, under each option variant of VARIANTS (default: as written), at every
// keyframe (qpos, qvel; a zero qvel is replaced by 0.3 sin(1.7 i + 0.5) so that efc_vel and
// efc_aref are exercised): MuJoCo's mj_forward with a dense Jacobian gives the contacts and
// the rows; EFC (t/oracle/constraint/efc.c, libmj) is given the same state and MuJoCo's
// contacts, so the rows are compared independently of collision detection.  Compared: nefc,
// efc_type, efc_id, contact efc_address exactly; efc_J (dense), efc_pos, efc_margin,
// efc_frictionloss, efc_diagApprox (MuJoCo's efc_diagA), efc_R, efc_D, the four columns of
// efc_KBIP, efc_vel, efc_aref and contact mu, each by max |ours - theirs| / max |theirs| over
// the field (absolute when the field is all zero).  Then, given MuJoCo's efc_force and qacc
// instead of a solve, cfrc_ext (contact, connect and weld forces on the bodies) and sensordata
// (touch, limit, force and torque sensors) the same way.  Bound: 1e-10.  One line per case;
// a case listed in t/oracle/known.txt (suite constraint, MODEL VARIANT KEY) is judged against
// its entry (t/oracle/known.mjs).  Exit status 1 on a failure.
//
// --native: the same once more with libmj's own collision detection (contacts compared by
// count, dim, geoms and dist as well); reported, and failing only with --strict-native.
import path from 'node:path';
import { openOracle, applyOptions } from '../../../scripts/oracle.mjs';
import { variantOptions, contactNumbers, eachKeyState, runHelper, fieldErr, worstErr }
  from '../cases.mjs';
import { verdict } from '../known.mjs';

const BOUND = 1e-10;

// option variants per model file (basename), each a list of --set NAME=VALUE / flags
const VARIANTS = {
  'contacts.xml': [['cone=pyramidal'], ['cone=elliptic'], ['cone=elliptic', 'impratio=1'],
                   ['cone=pyramidal', 'jacobian=sparse'], ['cone=elliptic', 'jacobian=sparse']],
  'pairs.xml': [['cone=pyramidal'], ['cone=elliptic']],
  'adhesion.xml': [['cone=pyramidal'], ['cone=elliptic']],
  'equality.xml': [[], ['jacobian=sparse'], ['disable:equality'], ['disable:refsafe']],
  'limits.xml': [[], ['jacobian=sparse'], ['disable:limit'], ['disable:frictionloss'],
                 ['disable:constraint']],
};

// reals compared, as named in both dumps
const REALS = ['efc_J', 'efc_pos', 'efc_margin', 'efc_frictionloss', 'efc_diagApprox', 'efc_R',
               'efc_D', 'efc_vel', 'efc_aref', 'mu'];
const INTS = ['efc_type', 'efc_id', 'efc_address'];

// our names of fields MuJoCo renamed: efc_diagApprox became efc_diagA in MuJoCo 3.10
const THEIRS = { efc_diagApprox: 'efc_diagA' };

// ---- arguments --------------------------------------------------------------------------------

const args = process.argv.slice(2);
let efc = null, native = false, strictNative = false;
const models = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--efc') efc = args[++i];
  else if (args[i] === '--native') native = true;
  else if (args[i] === '--strict-native') native = strictNative = true;
  else models.push(args[i]);
}
if (!efc || !models.length) {
  process.stderr.write('usage: node t/oracle/constraint/run.mjs --efc EFC [--native] ' +
                       '[--strict-native] MODEL.xml...\n');
  process.exit(2);
}

// ---- the oracle ---------------------------------------------------------------------------------

// MuJoCo's states and rows at every keyframe of file under opts (the Jacobian dense)
function oracleCases(o, file, opts) {
  const { mujoco } = o;
  const m = o.loadModel(file, opts);
  const d = new mujoco.MjData(m);
  try {
    applyOptions(mujoco, m, { set: ['jacobian=dense'] });
    const cases = [];
    eachKeyState(mujoco, m, d, (k) => {
      mujoco.mj_forward(m, d);
      mujoco.mj_rnePostConstraint(m, d);
      const c = { key: k, qpos: Array.from(d.qpos), qvel: Array.from(d.qvel), nefc: d.nefc,
                  ncon: d.ncon, contact: [], mu: [], efc_address: [],
                  efc_force: Array.from(d.efc_force).slice(0, d.nefc), qacc: Array.from(d.qacc),
                  cfrc_ext: Array.from(d.cfrc_ext), sensordata: Array.from(d.sensordata) };
      for (const f of ['efc_type', 'efc_id', 'efc_pos', 'efc_margin', 'efc_frictionloss',
                       'efc_diagApprox', 'efc_R', 'efc_D', 'efc_vel', 'efc_aref']) {
        c[f] = Array.from(d[THEIRS[f] ?? f]).slice(0, d.nefc);
      }
      c.efc_KBIP = Array.from(d.efc_KBIP).slice(0, 4 * d.nefc);
      c.efc_J = Array.from(d.efc_J).slice(0, d.nefc * m.nv);
      for (let i = 0; i < d.ncon; i++) {
        const x = d.contact.get(i);
        const con = { dist: x.dist, pos: Array.from(x.pos), frame: Array.from(x.frame),
                      includemargin: x.includemargin, friction: Array.from(x.friction),
                      solref: Array.from(x.solref), solreffriction: Array.from(x.solreffriction),
                      solimp: Array.from(x.solimp), adhesion: x.adhesion, dim: x.dim,
                      geom1: x.geom1, geom2: x.geom2, exclude: x.exclude };
        c.contact.push(con);
        c.mu.push(x.mu);
        c.efc_address.push(x.efc_address);
      }
      cases.push(c);
    });
    return cases;
  } finally {
    d.delete();
    m.delete();
  }
}

// ---- libmj ----------------------------------------------------------------------------------------

// EFC's rows for the cases (given contacts, or its own with native)
function ours(file, flags, cases, withContacts) {
  return runHelper(efc, file, flags, cases.map((c) => {
    const con = withContacts ? [c.contact.length, ...c.contact.flatMap(contactNumbers)] : [-1];
    const frc = withContacts ? [c.efc_force.length, ...c.efc_force, ...c.qacc] : [-1];
    return [...c.qpos, ...c.qvel, ...con, ...frc];
  }));
}

// ---- comparison -----------------------------------------------------------------------------------

// column c of the 4-wide KBIP rows
const kbip = (v, c) => v.filter((_, i) => i % 4 === c);

// {err, worst, bad} of one case: the worst real field and the integer fields that differ
function compare(mine, theirs, native) {
  const bad = [];
  if (mine.nefc !== theirs.nefc) bad.push(`nefc ${mine.nefc}/${theirs.nefc}`);
  if (mine.ncon !== theirs.ncon) bad.push(`ncon ${mine.ncon}/${theirs.ncon}`);
  for (const f of INTS) {
    if (JSON.stringify(mine[f]) !== JSON.stringify(theirs[f])) bad.push(f);
  }
  const errs = {};
  for (const f of REALS) errs[f] = fieldErr(mine[f], theirs[f]);
  if (!native) {
    for (const f of ['cfrc_ext', 'sensordata']) errs[f] = fieldErr(mine[f], theirs[f]);
  }
  for (const [c, name] of ['K', 'B', 'I', 'P'].entries()) {
    errs[`KBIP.${name}`] = fieldErr(kbip(mine.efc_KBIP, c), kbip(theirs.efc_KBIP, c));
  }
  if (native) {
    const pick = (cs, f) => cs.map((x) => (Array.isArray(x) ? x : contactNumbers(x))[f]);
    for (const [f, name] of [[29, 'dim'], [30, 'geom1'], [31, 'geom2']]) {
      if (JSON.stringify(pick(mine.contact, f)) !== JSON.stringify(pick(theirs.contact, f))) {
        bad.push(`contact ${name}`);
      }
    }
    errs['contact dist'] = fieldErr(pick(mine.contact, 0), pick(theirs.contact, 0));
  }
  return { ...worstErr(errs), bad };
}

// ---- main -------------------------------------------------------------------------------------------

const o = await openOracle({ quiet: true });
let failures = 0, nativeFailures = 0, ncase = 0, nknown = 0;
console.log('model                variant                        key nefc ncon  ' +
            'max err   (field)');
for (const file of models) {
  const variants = VARIANTS[path.basename(file)] || [[]];
  for (const words of variants) {
    const { opts, flags } = variantOptions(words);
    const cases = oracleCases(o, file, opts);
    const modes = native ? [true, false] : [true];
    for (const given of modes) {
      const mine = ours(file, flags, cases, given);
      cases.forEach((c, k) => {
        const { err, worst, bad } = compare(mine[k], c, !given);
        const fail = bad.length > 0 || !(err <= BOUND);
        // given contacts, judged against t/oracle/known.txt (a count that differs: infinite)
        const v = given ? verdict('constraint', `${path.basename(file)} ` +
                                  `${words.join(' ') || '-'} ${c.key}`,
                                  bad.length ? Infinity : err, !fail)
                        : { fail, word: fail ? 'native mismatch' : 'ok', note: '' };
        if (v.fail && given) failures++;
        if (v.fail && !given) nativeFailures++;
        if (v.word === 'known') nknown++;
        ncase++;
        const name = path.basename(file) + (given ? '' : ' (native)');
        console.log(`${name.padEnd(20)} ${(words.join(' ') || '-').padEnd(30)} ` +
                    `${String(c.key).padStart(3)} ${String(c.nefc).padStart(4)} ` +
                    `${String(c.ncon).padStart(4)}  ${err.toExponential(1).padStart(8)} ` +
                    `(${worst})${bad.length ? ' DIFFERS: ' + bad.join(', ') : ''}` +
                    `${v.word === 'ok' ? '' : `  ${v.word}`}${v.note ? ` (${v.note})` : ''}`);
      });
    }
  }
}
console.log(`${ncase} cases, ${nknown} known, ${failures} failures` +
            (native ? `, ${nativeFailures} native mismatches` : ''));
process.exit(failures || (strictNative && nativeFailures) ? 1 : 0);
