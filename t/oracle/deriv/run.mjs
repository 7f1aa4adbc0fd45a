#!/usr/bin/env node
// run.mjs: libmj's finite-difference Jacobians against MuJoCo 3.14.0's mjd_transitionFD and
// mjd_inverseFD (the oracle) at identical states.
//
//   node t/oracle/deriv/run.mjs --deriv DERIV [--steps N] MODEL.xml[:KEY]...
//
// For every model (from keyframe KEY when given, else the default state), under each option
// variant (a model integrating with RK4, which mjd_transitionFD refuses, runs as Euler and as
// implicitfast instead): MuJoCo simulates N steps (default 240) with ctrl_i = the middle of its
// range + 0.7 half-range sin(0.05 t + i) (0.5 sin(...) when unlimited).  At four states along
// the way (steps 0, N/3, 2N/3, N) and at a state near each (qvel + 0.05 sin(3.1 j + t), ctrl
// pushed to an upper bound on actuator 0 and to a lower one on the last, where limited, so
// that the one-sided differences at the bounds are exercised), both sides compute
// mjd_transitionFD (centered at the first states, forward at the near ones; eps 1e-6) and
// mjd_inverseFD (eps 1e-6, flg_actuation alternating) at qacc of mj_forward, from the same
// qpos, qvel, act, ctrl and warm start.  Each block is compared by
// max |ours - theirs| / max(1, max |theirs|); bound 1e-6.  libmj must also leave the state
// as given.  At the centered states libmj's exact A, B, C, D (mjd_transitionSmooth) are
// compared with MuJoCo's centered differences the same way, bound 1e-5 (the differences' own
// error; "-" where the analytic path refuses the state, "event" where a state eps away has
// other constraint rows or row states: there the step has no derivative and differences
// straddle a kink; a state beyond the bound passes, marked k, when libmj's centered
// differences converge to the exact Jacobians as eps shrinks: the differences' own error, as
// at a kink of the fluid drag |v| v at rest; all counted).  One line per state; a state listed
// in t/oracle/known.txt (suite deriv, DIR/MODEL[:KEY] VARIANT STEP NEAR) is judged against its
// entry (t/oracle/known.mjs).  Exit status 1 on a failure.
//
// MuJoCo's centered D has the wrong sign (3.5.1 to 3.14.0): at every state its centered D is
// the negative of its own forward D (and of the derivative: its centered B, forward B and forward
// D agree with each other and with libmj), so a centered D is compared with the negated oracle.
// MuJoCo's DmDq (since 3.11 the derivative of its sparse M, nC columns) is compared in libmj's
// qM layout (legacyQM).
import path from 'node:path';
import { openOracle, printedArrays, legacyQM } from '../../../scripts/oracle.mjs';
import { variantOptions, runHelper } from '../cases.mjs';
import { verdict } from '../known.mjs';

const BOUND = 1e-6;
const EXACT_BOUND = 1e-5;
const EPS = 1e-6;
const BLOCKS = ['A', 'B', 'C', 'D', 'DfDq', 'DfDv', 'DfDa', 'DsDq', 'DsDv', 'DsDa', 'DmDq'];

// ---- arguments --------------------------------------------------------------------------------

const args = process.argv.slice(2);
let deriv = null, steps = 240;
const models = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--deriv') deriv = args[++i];
  else if (args[i] === '--steps') steps = +args[++i];
  else models.push(args[i]);
}
if (!deriv || !models.length) {
  process.stderr.write('usage: node t/oracle/deriv/run.mjs --deriv DERIV [--steps N] ' +
                       'MODEL.xml[:KEY]...\n');
  process.exit(2);
}

// ---- the oracle --------------------------------------------------------------------------------

// ctrl of actuator i at step t: a sine about the middle of its range (limited: m's
// actuator_ctrllimited)
function control(m, limited, i, t) {
  const s = Math.sin(0.05 * t + i);
  if (!limited[i]) return 0.5 * s;
  const lo = m.actuator_ctrlrange[2 * i], hi = m.actuator_ctrlrange[2 * i + 1];
  return 0.5 * (lo + hi) + 0.35 * (hi - lo) * s;
}

// MuJoCo's Jacobians at d's state (d's state is left as it was), centered D sign-corrected
function jacobians(mujoco, m, d, centered, actuation) {
  const ndx = 2 * m.nv + m.na, ns = m.nsensordata, nv = m.nv;
  const size = [ndx * ndx, ndx * m.nu, ns * ndx, ns * m.nu, nv * nv, nv * nv, nv * nv,
                nv * ns, nv * ns, nv * ns, nv * m.nC];
  const buf = size.map((n) => (n ? new mujoco.DoubleBuffer(n) : null));
  try {
    mujoco.mjd_transitionFD(m, d, EPS, centered, ...buf.slice(0, 4));
    const sign = centered ? -1 : 1;
    const warm = Float64Array.from(d.qacc_warmstart);
    mujoco.mj_forward(m, d);
    d.qacc_warmstart.set(warm);
    mujoco.mjd_inverseFD(m, d, EPS, actuation, ...buf.slice(4));
    const r = {};
    BLOCKS.forEach((b, k) => { r[b] = buf[k] ? Array.from(buf[k].GetView()) : []; });
    r.D = r.D.map((x) => sign * x);
    r.DmDq = Array.from({ length: nv }, (_, i) =>
      Array.from(legacyQM(m, r.DmDq.slice(i * m.nC, (i + 1) * m.nC)))).flat();
    return r;
  } finally {
    buf.forEach((b) => b && b.delete());
  }
}

// the cases of one model under opts: states along a trajectory and near it, with MuJoCo's
// Jacobians
function oracleCases(o, file, key, opts) {
  const { mujoco } = o;
  const m = o.loadModel(file, opts);
  const d = new mujoco.MjData(m);
  try {
    if (key !== null) {
      // by name, else by index
      let k = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_KEY.value, key);
      if (k < 0 && /^[0-9]+$/.test(key) && +key < m.nkey) k = +key;
      if (k < 0) throw new Error(`${file}: no keyframe ${key}`);
      mujoco.mj_resetDataKeyframe(m, d, k);
    }
    const marks = [0, Math.round(steps / 3), Math.round(2 * steps / 3), steps];
    const limited = printedArrays(mujoco, m, ['actuator_ctrllimited']).actuator_ctrllimited;
    const cases = [];
    for (let t = 0; t <= steps; t++) {
      for (let i = 0; i < m.nu; i++) d.ctrl[i] = control(m, limited, i, t);
      if (marks.includes(t)) {
        const base = { t, qpos: Array.from(d.qpos), qvel: Array.from(d.qvel),
                       act: Array.from(d.act), ctrl: Array.from(d.ctrl),
                       warm: Array.from(d.qacc_warmstart) };
        const near = { ...base, qvel: base.qvel.map((v, j) => v + 0.05 * Math.sin(3.1 * j + t)),
                       ctrl: base.ctrl.slice(), near: 1 };
        if (m.nu && limited[0]) near.ctrl[0] = m.actuator_ctrlrange[1];
        const last = m.nu - 1;
        if (m.nu > 1 && limited[last]) {
          near.ctrl[last] = m.actuator_ctrlrange[2 * last];
        }
        for (const [c, centered] of [[base, 1], [near, 0]]) {
          d.qpos.set(c.qpos), d.qvel.set(c.qvel), d.act.set(c.act), d.ctrl.set(c.ctrl);
          d.qacc_warmstart.set(c.warm);
          c.centered = centered;
          c.actuation = cases.length % 2;
          c.theirs = jacobians(mujoco, m, d, centered, c.actuation);
          c.qacc = Array.from(d.qacc);
          c.ncon = d.ncon;
          cases.push(c);
        }
        d.qpos.set(base.qpos), d.qvel.set(base.qvel), d.ctrl.set(base.ctrl);
        d.qacc_warmstart.set(base.warm);
      }
      mujoco.mj_step(m, d);
    }
    return cases;
  } finally {
    d.delete();
    m.delete();
  }
}

// ---- comparison --------------------------------------------------------------------------------

// max |a - b| / max(1, max |b|); a length mismatch or a NaN is infinite
function blockErr(a, b) {
  if (a.length !== b.length) return Infinity;
  let diff = 0, top = 0;
  for (let i = 0; i < a.length; i++) {
    const e = Math.abs(a[i] - b[i]);
    if (Number.isNaN(e)) return Infinity;
    diff = Math.max(diff, e);
    top = Math.max(top, Math.abs(b[i]));
  }
  return diff / Math.max(1, top);
}

// ---- main --------------------------------------------------------------------------------------

const o = await openOracle({ quiet: true });
let failures = 0, ncase = 0;
const worstOf = {};
let refused = 0, events = 0, kinks = 0, exactWorst = 0;
console.log('model            variant              step near ncon  A        B        C        ' +
            'D        inverse  exact    (worst)');
for (const spec of models) {
  const [file, key = null] = spec.split(':');
  const probe = o.loadModel(file, { set: [], disable: [], enable: [] });
  const rk4 = probe.opt.integrator === o.mujoco.mjtIntegrator.mjINT_RK4.value;
  probe.delete();
  const variants = rk4 ? [['integrator=Euler'], ['integrator=implicitfast']] : [[]];
  for (const words of variants) {
    const { opts, flags } = variantOptions(words);
    const cases = oracleCases(o, file, key, opts);
    const mine = runHelper(deriv, file, flags, cases.map((c) => [
      c.centered, EPS, c.actuation, ...c.qpos, ...c.qvel, ...c.act, ...c.ctrl, ...c.warm,
      ...c.qacc]));
    cases.forEach((c, k) => {
      const errs = Object.fromEntries(BLOCKS.map((b) => [b, blockErr(mine[k][b], c.theirs[b])]));
      let worst = 'A';
      for (const b of BLOCKS) if (!(errs[b] <= errs[worst])) worst = b;
      const inv = Math.max(...BLOCKS.slice(4).map((b) => errs[b]));
      const event = mine[k].event === 1;
      const ex = mine[k].exact && !event ? Math.max(...BLOCKS.slice(0, 4).map((b) =>
        blockErr(mine[k].exact[b], c.theirs[b]))) : null;
      const kink = ex !== null && !(ex <= EXACT_BOUND) && mine[k].kink === 1;
      if (mine[k].refused) refused++;
      if (event) events++;
      if (kink) kinks++;
      else if (ex !== null) exactWorst = Math.max(exactWorst, ex);
      const fail = !(errs[worst] <= BOUND) || !mine[k].same ||
                   (ex !== null && !(ex <= EXACT_BOUND) && !kink);
      // judged against t/oracle/known.txt: the error the largest of the differences' and the
      // exact Jacobians' (not at a kink), infinite when the state changed
      const v = verdict('deriv', `${path.basename(path.dirname(file))}/${path.basename(file)}` +
                        `${key === null ? '' : `:${key}`} ${words.join(' ') || '-'} ${c.t} ` +
                        `${c.near ? 1 : 0}`,
                        mine[k].same ? Math.max(errs[worst], kink ? 0 : ex ?? 0) : Infinity, !fail);
      for (const b of BLOCKS) worstOf[b] = Math.max(worstOf[b] || 0, errs[b]);
      if (v.fail) failures++;
      ncase++;
      const e = (x) => x.toExponential(1).padStart(8);
      console.log(`${path.basename(path.dirname(file)).slice(0, 7)}/${path.basename(file)}`
                  .slice(0, 16).padEnd(16) + ` ${(words.join(' ') || '-').padEnd(20)} ` +
                  `${String(c.t).padStart(4)} ${c.near ? '   1' : '   0'} ` +
                  `${String(c.ncon).padStart(4)} ${e(errs.A)} ${e(errs.B)} ${e(errs.C)} ` +
                  `${e(errs.D)} ${e(inv)} ` +
                  `${event ? '   event' : ex === null ? '       -' : e(ex)}${kink ? 'k' : ''}` +
                  ` (${worst})` +
                  `${mine[k].same ? '' : ' STATE CHANGED'}` +
                  `${v.word === 'ok' ? '' : `  ${v.word}`}${v.note ? ` (${v.note})` : ''}`);
    });
  }
}
console.log(`worst per block: ${BLOCKS.map((b) => `${b} ${worstOf[b].toExponential(1)}`)
  .join(', ')}`);
console.log(`exact against MuJoCo's centered differences: worst ${exactWorst.toExponential(1)}, ` +
            `${refused} states refused, ${events} beside an event, ${kinks} beyond the bound ` +
            'where the differences converge to them (k)');
console.log(`${ncase} cases, ${failures} failures`);
process.exit(failures ? 1 : 0);
