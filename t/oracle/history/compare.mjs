#!/usr/bin/env node
// compare.mjs: history buffers (delayed actuators and sensors, periodic sensors) against
// MuJoCo 3.14.0 (the oracle): for every model and integrator, STEPS steps (default 400) from
// the default state and from keyframe 0 when there is one, with the same controls, a sine per
// actuator varying within a few steps (so that a delay of one or more steps changes what the
// actuators read); time, qpos, qvel, act and sensordata of every frame (mjstep's fields, the oracle's mj_forward at each frame)
// compared with the largest relative error |a-b| / max(1, |a|, |b|); bound 1e-10.
//
//   node t/oracle/history/compare.mjs --bin BIN [--steps N] MODEL.xml...
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openOracle } from '../../../scripts/oracle.mjs';

const BOUND = 1e-10;
const INTEGRATORS = ['Euler', 'implicitfast', 'implicit', 'RK4'];

// the arguments: --bin, --steps, the models
const args = process.argv.slice(2);
let bin = null, steps = 400;
const models = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--bin') bin = args[++i];
  else if (args[i] === '--steps') steps = Number(args[++i]);
  else models.push(args[i]);
}
if (!bin || !models.length) {
  console.error('usage: compare.mjs --bin BIN [--steps N] MODEL.xml...');
  process.exit(2);
}

// control row k: actuator i at 0.9 sin(0.3 (i+1) k + i), fast enough that each step differs
function controls(nu) {
  const rows = [];
  for (let k = 0; k <= steps; k++) {
    rows.push(Array.from({ length: nu }, (_, i) => 0.9 * Math.sin(0.3 * (i + 1) * k + i)));
  }
  return rows;
}

// the largest relative error between two lists of rows
function maxErr(a, b) {
  let e = 0;
  for (let k = 0; k < a.length; k++) {
    for (let j = 0; j < a[k].length; j++) {
      const x = a[k][j], y = b[k][j];
      e = Math.max(e, Math.abs(x - y) / Math.max(1, Math.abs(x), Math.abs(y)));
    }
  }
  return e;
}

const oracle = await openOracle({ quiet: true });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'history-'));
let failed = 0;
console.log(`history buffers, ${steps} steps, varying controls: max relative error of time, ` +
            `qpos, qvel, act, sensordata (bound ${BOUND})`);
const heads = INTEGRATORS.map((s) => s.padStart(13)).join('');
console.log('model'.padEnd(36) + 'init'.padEnd(9) + heads + '  verdict');
for (const file of models) {
  const m = oracle.loadModel(file, {});
  const nu = m.nu, nq = m.nq, nv = m.nv, na = m.na, ns = m.nsensordata, nkey = m.nkey;
  m.delete();
  const rows = controls(nu);
  const ctrlFile = path.join(tmp, 'ctrl.txt');
  const text = rows.map((r) => r.map((x) => x.toPrecision(17)).join(' ')).join('\n');
  fs.writeFileSync(ctrlFile, text);
  for (const key of nkey ? [undefined, 0] : [undefined]) {
    const errs = [];
    for (const integ of INTEGRATORS) {
      const set = [`integrator=${integ}`];
      const ref = oracle.trajectory(file, { steps, ctrl: rows, set, key, derivedFrom: 0 });
      const keyArgs = key === undefined ? [] : ['--key', String(key)];
      const csv = execFileSync(path.join(bin, 'mjstep'),
        [file, '-n', String(steps), '--ctrl', ctrlFile, '--set', set[0], ...keyArgs,
         '--fields', 'time,qpos,qvel,act,sensordata'], { maxBuffer: 1 << 28 });
      const out = execFileSync(path.join(bin, 'mjdump'), ['--csv'],
                               { input: csv, maxBuffer: 1 << 28 })
        .toString().trim().split('\n').slice(1).map((l) => l.split(',').map(Number));
      const want = ref.time.map((t, k) => [t, ...ref.qpos[k], ...ref.qvel[k], ...ref.act[k],
                                           ...ref.sensordata[k]]);
      const got = out.map((r) => r.slice(0, 1 + nq + nv + na + ns));
      errs.push(got.length === want.length ? maxErr(want, got) : Infinity);
  }
  const bad = errs.some((e) => !(e <= BOUND));
  failed += bad;
  const cols = errs.map((e) => e.toExponential(1).padStart(13)).join('');
  const init = (key === undefined ? 'default' : `key ${key}`).padEnd(9);
  console.log(path.relative('t/oracle', file).padEnd(36) + init + cols + (bad ? '  FAIL' : '  ok'));
  }
}
fs.rmSync(tmp, { recursive: true });
console.log(`history: ${models.length} models, ${failed} failed`);
process.exit(failed ? 1 : 0);
