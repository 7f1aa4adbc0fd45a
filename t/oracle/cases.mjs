// cases.mjs: what the oracle comparisons share (t/oracle/constraint/run.mjs,
// t/oracle/inverse/run.mjs, deriv/run.mjs; the seeded generator also collision/compare.mjs,
// ray/compare.mjs and traj.mjs): option variants, the keyframe states, a contact's numbers, the
// helper program's run, the relative error of a field, random numbers, and traj.mjs's controls
// (also collision/along.mjs).

import { spawnSync } from 'node:child_process';

// a variant's words (NAME=VALUE, disable:FLAG, enable:FLAG) as {set, disable, enable} for the
// oracle and as command-line flags for a libmj helper
export function variantOptions(words) {
  const opts = { set: [], disable: [], enable: [] }, flags = [];
  for (const w of words) {
    const [kind, name] = w.includes(':') ? w.split(':') : ['set', w];
    opts[kind].push(name);
    flags.push(`--${kind}`, name);
  }
  return { opts, flags };
}

// a contact's 33 numbers in the helpers' input order
export function contactNumbers(x) {
  return [x.dist, ...x.pos, ...x.frame, x.includemargin, ...x.friction, ...x.solref,
          ...x.solreffriction, ...x.solimp, x.adhesion, x.dim, x.geom1, x.geom2, x.exclude];
}

// call fn(k) with d reset to each keyframe k of m (or to the default state, k = 0), a zero
// qvel replaced by 0.3 sin(1.7 i + 0.5) so that velocity terms are exercised
export function eachKeyState(mujoco, m, d, fn) {
  for (let k = 0; k < Math.max(1, m.nkey); k++) {
    mujoco.mj_resetData(m, d);
    if (m.nkey) mujoco.mj_resetDataKeyframe(m, d, k);
    if (d.qvel.every((v) => v === 0)) {
      for (let i = 0; i < m.nv; i++) d.qvel[i] = 0.3 * Math.sin(1.7 * i + 0.5);
    }
    fn(k);
  }
}

// the JSON lines the helper `bin` prints for model file with flags, given lines of numbers
export function runHelper(bin, file, flags, lines) {
  const input = lines.map((l) => l.map((x) => String(x)).join(' ')).join('\n') + '\n';
  const r = spawnSync(bin, [file, ...flags], { input, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`${bin} ${file}: ${(r.stderr || '').trim()}`);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l));
}

// max |a - b| / scale (by default max |b|, absolute when that is zero); a length or NaN
// mismatch is infinite
export function fieldErr(a, b, scale) {
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

// {err, worst}: the largest error of {field: err} (NaN counts as the largest) and its field
export function worstErr(errs) {
  let worst = '', err = 0;
  for (const [f, e] of Object.entries(errs)) {
    if (!(e <= err)) [worst, err] = [f, e];
  }
  return { err, worst };
}

// a seeded uniform generator on [0, 1) (mulberry32): the same states on every run
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// deterministic controls: actuator i follows mid + 0.8 half-range sin(2 pi f_i t + phase_i)
// inside its ctrlrange (unlimited: range -1..1); one row per step; bools: m's bool arrays
export function controlRows(m, bools, n) {
  const h = m.opt.timestep, rows = [];
  for (let k = 0; k <= n; k++) {
    const row = [];
    for (let i = 0; i < m.nu; i++) {
      const limited = bools.actuator_ctrllimited[i];
      const lo = limited ? m.actuator_ctrlrange[2 * i] : -1;
      const hi = limited ? m.actuator_ctrlrange[2 * i + 1] : 1;
      const phase = 0.7 * i, f = 0.5 + 0.37 * i;
      row.push(0.5 * (lo + hi) + 0.4 * (hi - lo) * Math.sin(2 * Math.PI * f * k * h + phase));
    }
    rows.push(row);
  }
  return rows;
}
