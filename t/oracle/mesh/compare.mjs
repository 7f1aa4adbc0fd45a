// t/oracle/mesh/compare.mjs: compile each mesh case with MuJoCo 3.14.0 (npm `@mujoco/mujoco`)
// and with the C harness (mesh.c), and compare every array: ints exactly, floats to 2 float
// ulps of the array's scale, doubles to 1e-10 of the array's scale; counts the compiled cases
// whose frame (mesh_pos, mesh_quat) and volume (body_mass) are bit-identical (-v names the
// others).
//
// usage: node compare.mjs HARNESS CASEFILE [-v]
//   CASEFILE: one case per line, the <mesh> attributes as key=value separated by tabs
//   (file=PATH is copied into MuJoCo's virtual file system).  Prints one line per case
//   (ok / DIFF / both-error / ERR) and a summary per format.  A case listed in
//   t/oracle/known.txt (suite mesh; its label the line, a file named from the corpus directory
//   on) is judged against its entry (t/oracle/known.mjs), its error the largest difference /
//   tolerance (infinite when one side refuses it).  Exits 1 on any difference beyond those.
import load from '../../../scripts/node_modules/@mujoco/mujoco/mujoco.js';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { verdict } from '../known.mjs';

const [harness, casefile, verbose] = process.argv.slice(2);
const mj = await load();
const fields = ['mesh_vert', 'mesh_normal', 'mesh_texcoord', 'mesh_face', 'mesh_facenormal',
  'mesh_facetexcoord', 'mesh_graph', 'mesh_pos', 'mesh_quat', 'body_mass', 'body_inertia',
  'geom_aabb'];
const kind = { mesh_vert: 'f', mesh_normal: 'f', mesh_texcoord: 'f', mesh_face: 'i',
  mesh_facenormal: 'i', mesh_facetexcoord: 'i', mesh_graph: 'i', mesh_pos: 'd', mesh_quat: 'd',
  body_mass: 'd', body_inertia: 'd', geom_aabb: 'f' };

// MuJoCo's arrays for one case: body 1 holds one mesh geom of density 1000
function oracle(attrs) {
  let el = '<mesh name="m"';
  for (const [k, v] of Object.entries(attrs)) {
    let val = v;
    if (k === 'file') {
      const dir = '/c' + (oracle.n = (oracle.n ?? 0) + 1);
      mj.FS.mkdir(dir);
      const base = dir + '/' + v.split('/').pop();
      mj.FS.writeFile(base, fs.readFileSync(v));
      val = base;
    }
    el += ` ${k}="${val}"`;
  }
  const xml = `<mujoco><asset>${el}/></asset><worldbody><body><freejoint/>` +
    `<geom type="mesh" mesh="m"/></body></worldbody></mujoco>`;
  mj.FS.writeFile('/m.xml', xml);
  let m;
  try { m = mj.MjModel.mj_loadXML('/m.xml'); } catch (e) {
    return { error: String(e.message || e).split('\n')[0] };
  }
  const out = {};
  for (const k of fields) out[k] = Array.from(m[k]);
  out.body_mass = out.body_mass.slice(1);
  out.body_inertia = out.body_inertia.slice(3);
  m.delete();
  return out;
}

// largest difference of two arrays relative to the allowed tolerance (<= 1 passes)
function compare(k, a, b) {
  if (a.length !== b.length) return { bad: Infinity, why: `length ${a.length} vs ${b.length}` };
  let scale = 0, worst = 0, at = -1;
  for (const x of a) scale = Math.max(scale, Math.abs(x));
  const tol = kind[k] === 'i' ? 0 : kind[k] === 'f' ? 2 * 2 ** -23 * Math.max(scale, 1e-30)
    : 1e-10 * Math.max(scale, 1e-300);
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    const r = tol ? d / tol : (d ? Infinity : 0);
    if (r > worst) worst = r, at = i;
  }
  return { bad: worst, why: at < 0 ? '' : `[${at}] ${a[at]} vs ${b[at]}` };
}

// a case's label in t/oracle/known.txt: its line, a file named from the corpus directory on (or
// by its base name when outside the corpus)
const caseLabel = (line) => line.replace(/\t/g, ' ').replace(/^file=(\S+)/, (_, f) =>
  `file=${f.includes('/corpus/') ? f.slice(f.lastIndexOf('/corpus/') + 8) : f.split('/').pop()}`);

// a case's verdict against t/oracle/known.txt (suite mesh), counted; the note to print or ''
let fails = 0, nknown = 0;
function judge(line, err, passed) {
  const v = verdict('mesh', caseLabel(line), err, passed);
  if (v.fail) fails++;
  if (v.word === 'known') nknown++;
  return v.note ? `  ${v.word} (${v.note})` : '';
}

const lines = fs.readFileSync(casefile, 'utf8').split('\n').filter(l => l.trim());
const summary = {};
for (const line of lines) {
  const attrs = {};
  for (const kv of line.split('\t')) {
    const i = kv.indexOf('=');
    attrs[kv.slice(0, i)] = kv.slice(i + 1);
  }
  const fmt = attrs.file ? attrs.file.split('.').pop().toLowerCase() : 'inline';
  const s = summary[fmt] ??= { n: 0, ok: 0, built: 0, frame: 0, mass: 0, worst: {} };
  s.n++;
  const want = oracle(attrs);
  const args = Object.entries(attrs).map(([k, v]) => `${k}=${v}`);
  const got = JSON.parse(execFileSync(harness, args, { maxBuffer: 1 << 30 }).toString());
  const name = line.replace(/\t/g, ' ');
  if (want.error || got.error) {
    if (want.error && got.error) {
      s.ok++;
      console.log(`both-error ${name}${judge(line, 0, true)}`);
    } else {
      console.log(`ERR ${name}: mujoco ${want.error || 'ok'}; ours ${got.error || 'ok'}` +
                  judge(line, Infinity, false));
    }
    if (verbose) console.log(`  mujoco: ${want.error}\n  ours:   ${got.error}`);
    continue;
  }
  const diffs = [];
  let err = 0;  // the largest difference / tolerance
  const exact = ks => ks.every(k => want[k].length === got[k].length &&
    want[k].every((x, i) => x === got[k][i]));
  s.built++;
  if (exact(['mesh_pos', 'mesh_quat'])) s.frame++;
  else if (verbose) console.log(`inexact frame ${name}`);
  if (exact(['body_mass'])) s.mass++;
  else if (verbose) console.log(`inexact volume ${name}`);
  for (const k of fields) {
    const r = compare(k, want[k], got[k]);
    s.worst[k] = Math.max(s.worst[k] ?? 0, r.bad);
    err = Math.max(err, r.bad);
    if (r.bad > 1) diffs.push(`${k} x${r.bad.toPrecision(3)} ${r.why}`);
  }
  const note = judge(line, err, !diffs.length);
  if (diffs.length) console.log(`DIFF ${name}${note}\n  ${diffs.join('\n  ')}`);
  else {
    s.ok++;
    if (verbose || note) console.log(`ok ${name}${note}`);
  }
}
for (const [fmt, s] of Object.entries(summary)) {
  const w = Object.entries(s.worst).map(([k, v]) => `${k} ${v.toPrecision(2)}`).join(', ');
  console.log(`${fmt}: ${s.ok}/${s.n} match; worst difference / tolerance: ${w}`);
  console.log(`${fmt}: bit-exact of ${s.built} compiled: frames ${s.frame}, volumes ${s.mass}`);
}
console.log(`${nknown} known, ${fails} failed`);
process.exit(fails ? 1 : 0);
