// diagnostic: per-step error growth between mjstep and the oracle
import { spawnSync } from 'node:child_process';
import { openOracle } from './oracle.mjs';
const [file, integ, steps = '1000', extra = ''] = process.argv.slice(2);
const o = await openOracle();
const dis = ['contact', 'constraint'];
const opts = { set: [`integrator=${integ}`], disable: dis, enable: [], steps: +steps };
const m = o.loadModel(file, opts); const nu = m.nu, h = m.opt.timestep; m.delete();
const ctrl = Array.from({length: +steps + 1}, (_, k) => Array.from({length: nu}, (_, i) => 0.8*Math.sin(2*Math.PI*(0.5+0.37*i)*k*h + 0.7*i)));
import fs from 'node:fs'; fs.writeFileSync('/tmp/st/diag/c.txt', ctrl.map(r => r.join(' ')).join('\n') + '\n');
opts.ctrl = nu ? ctrl : undefined;
const ref = o.trajectory(file, opts);
const r = spawnSync('sh', ['-c', `/work/main/build/bin/mjstep ${file} -n ${steps} --set integrator=${integ} --disable contact --disable constraint ${nu ? '--ctrl /tmp/st/diag/c.txt' : ''} | /work/main/build/bin/mjdump`], {encoding: 'utf8', maxBuffer: 1<<30});
const lines = r.stdout.trim().split('\n'); const cols = lines[0].split(',');
let last = 0;
for (let k = 1; k < lines.length; k++) {
  const v = lines[k].split(',').map(Number);
  const flat = [ref.time[k-1], ...ref.qpos[k-1], ...ref.qvel[k-1], ...ref.act[k-1]];
  let e = 0, at = -1;
  v.forEach((x, i) => { const d = Math.abs(x - flat[i]) / Math.max(1, Math.abs(x), Math.abs(flat[i])); if (d > e) { e = d; at = i; } });
  if (e > 10 * last && e > 1e-14 || k % 100 == 1) { console.log(k-1, e.toExponential(2), cols[at], v[at], flat[at]); last = Math.max(e, last); }
}
