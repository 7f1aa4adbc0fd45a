#!/usr/bin/env node
// oracle.mjs: the official MuJoCo 3.14.0 (npm package `@mujoco/mujoco`, a WebAssembly build) as
// the reference.
//
//   node scripts/oracle.mjs model MODEL.xml    the compiled model as JSON, as mjc info --json
//                                              prints it
//   node scripts/oracle.mjs version            MuJoCo's version string
//   node scripts/oracle.mjs traj MODEL.xml --steps N [--key K] [--ctrl FILE] [--set NAME=VALUE]
//        [--disable FLAG] [--enable FLAG]      a trajectory as JSON: {time, qpos, qvel, act,
//        [--derived-from K]                    nefc, warnStep}, frame 0 the initial state, then
//                                              one frame per step; nefc is the most constraint
//                                              rows seen, warnStep the first step that raised a
//                                              warning (a bad number reset the state), or -1;
//                                              with --derived-from, frames K on also give ncon,
//                                              energy and sensordata (lists from frame K), by
//                                              mj_forward at the frame (as mjstep's fields)
//   node scripts/oracle.mjs forward MODEL.xml --states FILE.json [--set ...] [--disable ...]
//                                              one-step quantities (qfrc_bias, qM, qLD, qacc,
//                                              actuator_force, sensordata; nefc, the number of
//                                              constraint rows) after mj_forward at each state
//                                              of FILE.json: [{qpos, qvel, act, ctrl}, ...]
//                                              (missing fields keep the default); qM is M in
//                                              the layout of the qM MuJoCo dropped (legacyQM)
//
// --ctrl FILE: one row of nu numbers per step (commas or blanks, '#' comments, blank lines
// skipped), row k used for step k, the last row holding after the end: as mjstep --ctrl.
// --set/--disable/--enable: as mjstep's (MJCF keyword and flag names, vectors comma-separated).
//
// The fields dumped are exactly those named in lib/mjxmacro.h, read from the header at run time,
// so the oracle and `mjc info --json` list the same things and nothing is hand-listed here.
// On a MuJoCo compile error `model` prints {"error": "..."} and exits 1.
//
// As a module it exports openOracle(), which the oracle tests use to run every model in one
// process.  New subcommands (trajectories, forward quantities) go into `commands` below.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import load from '@mujoco/mujoco';
import { efcCases } from './oracle_efc.mjs';

const HEADER = fileURLToPath(new URL('../lib/mjxmacro.h', import.meta.url));

// ---- the X-macro tables -----------------------------------------------------------------------

// body of `#define NAME(X)` with continuations joined and comments removed
function macroBody(text, name) {
  const start = text.indexOf(`#define ${name}(X)`);
  if (start < 0) throw new Error(`${HEADER}: no table ${name}`);
  const lines = [];
  for (const line of text.slice(start).split('\n')) {
    lines.push(line.replace(/\\\s*$/, ''));
    if (!/\\\s*$/.test(line)) break;
  }
  return lines.join(' ').replace(/\/\*.*?\*\//g, ' ').replace(/^#define \w+\(X\)/, '');
}

// the argument lists of every X(...) in a table, each split and trimmed
function entries(text, name) {
  return [...macroBody(text, name).matchAll(/X\(([^()]*)\)/g)]
    .map((mt) => mt[1].split(',').map((s) => s.trim()));
}

// the field lists of lib/mjxmacro.h: sizes, arrays (name, type), opt, stat, vis (section, name)
export function parseTables(text) {
  return {
    sizes: entries(text, 'MJ_SIZES').map(([name]) => name),
    arrays: entries(text, 'MJ_MODEL_ARRAYS').map(([type, name]) => ({ type, name })),
    opt: entries(text, 'MJ_OPTION_FIELDS').map(([, name, count]) => ({ name, count: +count })),
    stat: entries(text, 'MJ_STAT_FIELDS').map(([, name, count]) => ({ name, count: +count })),
    vis: entries(text, 'MJ_VISUAL_FIELDS')
      .map(([, section, name, count]) => ({ section, name, count: +count })),
  };
}

// ---- values -----------------------------------------------------------------------------------

// a number as JSON allows: non-finite values become strings, as in mj_printModelJSON
function num(x) {
  if (typeof x === 'bigint') return Number(x);  // mjtSize fields (tex_adr)
  if (Number.isFinite(x)) return x;
  return Number.isNaN(x) ? 'NaN' : (x > 0 ? 'Infinity' : '-Infinity');
}

// a scalar or vector member: bare number when count is 1, list otherwise
function member(v, count) {
  if (ArrayBuffer.isView(v) || Array.isArray(v)) {
    const a = Array.from(v, num);
    return count === 1 ? a[0] : a;
  }
  return num(Number(v));
}

// a char array as one string of its bytes (NULs included), as mj_printModelJSON prints it
function chars(v) {
  let s = '';
  for (const b of v) s += String.fromCharCode(b & 0xff);
  return s;
}

// ---- the model dump ---------------------------------------------------------------------------

// byte arrays longer than this are dumped as "crc32 XXXXXXXX, N bytes", as lib/io/print.c does
const JSON_MAXBYTES = 65536;

// zlib's CRC-32 table (reflected polynomial 0xedb88320)
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

// the digest string of a long byte array
function digest(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  const hex = ((c ^ 0xffffffff) >>> 0).toString(16).padStart(8, '0');
  return `crc32 ${hex}, ${bytes.length} bytes`;
}

// the arrays named in `names` as MuJoCo's own listing prints them (mj_printModel): the
// WebAssembly build cannot hand out its bool arrays (jnt_limited, ...: a BindingError since
// MuJoCo 3.9), but its listing has each object's values on a line "  name  v1 v2 ...", the
// objects in id order
export function printedArrays(mujoco, m, names) {
  const file = '/listing.txt';
  mujoco.mj_printModel(m, file);
  const text = mujoco.FS.readFile(file, { encoding: 'utf8' });
  mujoco.FS.unlink(file);
  const out = Object.fromEntries(names.map((n) => [n, []]));
  for (const line of text.split('\n')) {
    const w = line.trim().split(/\s+/);
    if (out[w[0]]) for (const v of w.slice(1)) out[w[0]].push(Number(v));
  }
  return out;
}

// one compiled MuJoCo model as {sizes, opt, stat, vis, arrays}; fields MuJoCo lacks are left
// out; mujoco (the module) lists the arrays its bindings cannot read
export function modelJSON(m, tables, mujoco) {
  const out = { sizes: {}, opt: {}, stat: {}, vis: {}, arrays: {} };
  for (const name of tables.sizes) if (m[name] !== undefined) out.sizes[name] = m[name];
  for (const { name, count } of tables.opt) {
    if (m.opt[name] !== undefined) out.opt[name] = member(m.opt[name], count);
  }
  for (const { name, count } of tables.stat) {
    if (m.stat[name] !== undefined) out.stat[name] = member(m.stat[name], count);
  }
  for (const { section, name, count } of tables.vis) {
    const sec = m.vis[section];
    if (sec && sec[name] !== undefined) out.vis[`${section}_${name}`] = member(sec[name], count);
  }
  const unreadable = [];
  for (const { type, name } of tables.arrays) {
    let v;
    try {
      v = m[name];
    } catch (e) {
      unreadable.push(name);
      continue;
    }
    if (v === undefined) continue;
    if (type === 'unsigned char' && v.length > JSON_MAXBYTES) out.arrays[name] = digest(v);
    else out.arrays[name] = type === 'char' ? chars(v) : Array.from(v, num);
  }
  if (unreadable.length) Object.assign(out.arrays, printedArrays(mujoco, m, unreadable));
  return out;
}

// every file under host directory `src`, copied to `dst` in the wasm file system
function copyTree(FS, src, dst) {
  FS.mkdir(dst);
  for (const ent of fs.readdirSync(src, { withFileTypes: true })) {
    const s = path.join(src, ent.name);
    const d = `${dst}/${ent.name}`;
    if (ent.isDirectory()) copyTree(FS, s, d);
    else if (ent.isFile()) FS.writeFile(d, fs.readFileSync(s));
  }
}

// a loaded MuJoCo with the tables; model(file) compiles one file and returns its dump;
// quiet drops MuJoCo's own messages (the warnings of unstable simulations)
export async function openOracle({ quiet = false } = {}) {
  // MuJoCo's own messages (warnings) go to stderr, keeping stdout for the JSON
  const toStderr = quiet ? () => {} : (text) => process.stderr.write(`${text}\n`);
  const mujoco = await load({ print: toStderr, printErr: toStderr });
  const tables = parseTables(fs.readFileSync(HEADER, 'utf8'));
  const mounted = new Map();  // host directory -> its copy in the wasm file system
  mujoco.FS.mkdir('/m');

  // the wasm path of a host file, copying its directory tree the first time it is seen
  function place(file) {
    const dir = path.dirname(path.resolve(file));
    if (!mounted.has(dir)) {
      const dst = `/m/${mounted.size}`;
      copyTree(mujoco.FS, dir, dst);
      mounted.set(dir, dst);
    }
    return `${mounted.get(dir)}/${path.basename(file)}`;
  }

  // compile with mj_loadXML; a compile error becomes {error}
  function model(file) {
    let m;
    try {
      m = mujoco.MjModel.mj_loadXML(place(file));
    } catch (e) {
      const msg = String(e && e.message !== undefined ? e.message : e);
      return { error: msg.replace(/\s+/g, ' ').trim() };
    }
    try {
      return modelJSON(m, tables, mujoco);
    } finally {
      m.delete();
    }
  }

  // a compiled MjModel with the option overrides applied (the caller deletes it); throws
  function loadModel(file, opts = {}) {
    const m = mujoco.MjModel.mj_loadXML(place(file));
    try {
      applyOptions(mujoco, m, opts);
    } catch (e) {
      m.delete();
      throw e;
    }
    return m;
  }

  // a trajectory of opts.steps steps from the default state or keyframe opts.key, with the
  // control rows opts.ctrl (arrays of nu numbers; none: zero): frame 0 is the initial state;
  // opts.perturb perturbs the initial qvel relative, by that much (a small number) or by
  // perturb(i) for dof i (a function); from frame
  // opts.derivedFrom on, ncon and energy after mj_forward at the frame (which leaves the
  // trajectory as it is: mj_step runs it again)
  function trajectory(file, opts) {
    const m = loadModel(file, opts);
    const d = new mujoco.MjData(m);
    try {
      if (opts.key !== undefined) mujoco.mj_resetDataKeyframe(m, d, findKey(mujoco, m, opts.key));
      // a relative perturbation of the initial velocities: how the motion amplifies round-off
      if (opts.perturb) {
        const p = typeof opts.perturb === 'function' ? opts.perturb : () => opts.perturb;
        for (let i = 0; i < m.nv; i++) d.qvel[i] += p(i) * Math.max(1, Math.abs(d.qvel[i]));
      }
      const out = { time: [], qpos: [], qvel: [], act: [], nefc: 0, warnStep: -1 };
      const derived = opts.derivedFrom !== undefined;
      if (derived) Object.assign(out, { ncon: [], energy: [], sensordata: [] });
      const ctrl = opts.ctrl || [];
      for (let k = 0; ; k++) {
        if (ctrl.length) d.ctrl.set(ctrl[Math.min(k, ctrl.length - 1)]);
        out.time.push(d.time);
        out.qpos.push(Array.from(d.qpos));
        out.qvel.push(Array.from(d.qvel));
        out.act.push(Array.from(d.act));
        if (derived && k >= opts.derivedFrom) {
          mujoco.mj_forward(m, d);
          out.ncon.push(d.ncon);
          out.energy.push(Array.from(d.energy));
          out.sensordata.push(Array.from(d.sensordata));
        }
        if (k === opts.steps) break;
        mujoco.mj_step(m, d);
        out.nefc = Math.max(out.nefc, d.nefc);
        if (out.warnStep < 0 && warnings(d)) out.warnStep = k;
      }
      return out;
    } finally {
      d.delete();
      m.delete();
    }
  }

  // the one-step quantities after mj_forward at each state ({qpos, qvel, act, ctrl})
  function forward(file, states, opts = {}) {
    const m = loadModel(file, opts);
    const d = new mujoco.MjData(m);
    try {
      return states.map((st) => {
        mujoco.mj_resetData(m, d);
        for (const f of ['qpos', 'qvel', 'act', 'ctrl']) if (st[f]) d[f].set(st[f]);
        mujoco.mj_forward(m, d);
        const r = { nefc: d.nefc };
        for (const f of FORWARD_FIELDS) {
          r[f] = Array.from(f === 'qM' ? legacyQM(m, d.M) : d[f], num);
        }
        return r;
      });
    } finally {
      d.delete();
      m.delete();
    }
  }

  // the center of mass of the whole model (subtree_com of the world body) at each of the
  // positions qposList, by mj_kinematics and mj_comPos
  function centerOfMass(file, qposList, opts = {}) {
    const m = loadModel(file, opts);
    const d = new mujoco.MjData(m);
    try {
      return qposList.map((q) => {
        d.qpos.set(q);
        mujoco.mj_kinematics(m, d);
        mujoco.mj_comPos(m, d);
        return Array.from(d.subtree_com.subarray(0, 3));
      });
    } finally {
      d.delete();
      m.delete();
    }
  }

  return { mujoco, tables, model, loadModel, trajectory, forward, centerOfMass,
           version: () => mujoco.mj_versionString() };
}

// a vector laid out as MuJoCo's sparse inertia M (nC numbers: each dof's row of the lower
// triangle, m.M_rownnz/M_rowadr/M_colind, a simple dof's known zeros left out) in the layout of
// mjData.qM, which MuJoCo dropped in 3.11 and libmj keeps (nM numbers: dof i's row from its
// diagonal at dof_Madr[i] through its ancestors, dof_parentid); the left-out entries are 0
export function legacyQM(m, M) {
  const madr = m.dof_Madr, parent = m.dof_parentid;
  const rownnz = m.M_rownnz, rowadr = m.M_rowadr, colind = m.M_colind;
  const qM = new Float64Array(m.nM), at = new Int32Array(m.nv);
  for (let i = 0; i < m.nv; i++) {
    for (let j = i, adr = madr[i]; j >= 0; j = parent[j]) at[j] = adr++;
    for (let k = rowadr[i]; k < rowadr[i] + rownnz[i]; k++) qM[at[colind[k]]] = M[k];
  }
  return qM;
}

// ---- options, keyframes, controls --------------------------------------------------------------

// the number of warnings raised in d (bad qpos, qvel, qacc, ...: the state was reset)
function warnings(d) {
  let n = 0;
  for (let i = 0; i < d.warning.size(); i++) n += d.warning.get(i).number;
  return n;
}

// the quantities `forward` reports
export const FORWARD_FIELDS = ['qfrc_bias', 'qM', 'qLD', 'qacc', 'actuator_force', 'sensordata'];

// the enum of MuJoCo's bindings behind each keyword option field
const KEYWORD_ENUMS = { integrator: 'mjtIntegrator', cone: 'mjtCone', jacobian: 'mjtJacobian',
                        solver: 'mjtSolver' };

// the value of an enum member whose name ends in _WORD, matched without regard to case
function enumValue(mujoco, enumName, word) {
  const e = mujoco[enumName];
  for (const key of Object.keys(e)) {
    if (key.toLowerCase().endsWith('_' + word.toLowerCase())) return e[key].value;
  }
  return undefined;
}

// apply {set: ["name=value"], disable: [flag], enable: [flag]} to m.opt, as mjstep does
export function applyOptions(mujoco, m, { set = [], disable = [], enable = [] }) {
  for (const a of set) {
    const eq = a.indexOf('=');
    const name = a.slice(0, eq), value = a.slice(eq + 1);
    if (eq <= 0 || m.opt[name] === undefined) throw new Error(`unknown option '${name}'`);
    if (KEYWORD_ENUMS[name]) {
      const v = enumValue(mujoco, KEYWORD_ENUMS[name], value);
      if (v === undefined) throw new Error(`option '${name}': invalid keyword '${value}'`);
      m.opt[name] = v;
    } else if (ArrayBuffer.isView(m.opt[name])) {
      m.opt[name].set(value.split(/[\s,]+/).filter((x) => x).map(Number));
    } else {
      m.opt[name] = Number(value);
    }
  }
  // a flag by name: a disable bit or an enable bit; on = feature on
  const flag = (name, on) => {
    const dis = enumValue(mujoco, 'mjtDisableBit', name);
    const en = enumValue(mujoco, 'mjtEnableBit', name);
    if (dis !== undefined) m.opt.disableflags = on ? m.opt.disableflags & ~dis
                                                   : m.opt.disableflags | dis;
    else if (en !== undefined) m.opt.enableflags = on ? m.opt.enableflags | en
                                                      : m.opt.enableflags & ~en;
    else throw new Error(`unknown flag '${name}'`);
  };
  for (const f of disable) flag(f, false);
  for (const f of enable) flag(f, true);
}

// a keyframe by name, else by index
export function findKey(mujoco, m, key) {
  const id = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_KEY.value, String(key));
  if (id >= 0) return id;
  if (/^\d+$/.test(String(key)) && Number(key) < m.nkey) return Number(key);
  throw new Error(`unknown keyframe '${key}'`);
}

// control rows from text: numbers separated by commas or blanks, '#' comments, blank lines out
export function parseCtrl(text) {
  return text.split('\n').map((l) => l.replace(/#.*/, '').trim()).filter((l) => l)
    .map((l) => l.split(/[\s,]+/).map(Number));
}

// JSON with one member per line down to the sections, each value on one line
export function formatJSON(v, indent = '') {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || indent.length >= 4) {
    return JSON.stringify(v);
  }
  const inner = indent + '  ';
  const body = Object.entries(v)
    .map(([k, x]) => `${inner}${JSON.stringify(k)}: ${formatJSON(x, inner)}`).join(',\n');
  return `{\n${body}\n${indent}}` + (indent ? '' : '\n');
}

// ---- the command line -------------------------------------------------------------------------

const USAGE = 'usage: node scripts/oracle.mjs model MODEL.xml\n' +
              '       node scripts/oracle.mjs version\n' +
              '       node scripts/oracle.mjs traj MODEL.xml --steps N [--key K] [--ctrl FILE]\n' +
              '            [--set NAME=VALUE]... [--disable FLAG]... [--enable FLAG]...\n' +
              '            [--derived-from K]\n' +
              '       node scripts/oracle.mjs forward MODEL.xml --states FILE.json [--set ...]\n' +
              '       node scripts/oracle.mjs efc MODEL.xml [--set ...] (scripts/oracle_efc.mjs)\n';

// the options after MODEL of traj and forward: {steps, key, ctrl, states, set, disable, enable,
// derivedFrom}
function parseRunArgs(args) {
  const opts = { set: [], disable: [], enable: [] };
  for (let i = 0; i < args.length; i += 2) {
    const [flag, v] = [args[i], args[i + 1]];
    if (v === undefined) throw new Error(`missing value for ${flag}`);
    if (flag === '--steps') opts.steps = Number(v);
    else if (flag === '--derived-from') opts.derivedFrom = Number(v);
    else if (flag === '--key') opts.key = v;
    else if (flag === '--ctrl') opts.ctrl = parseCtrl(fs.readFileSync(v, 'utf8'));
    else if (flag === '--states') opts.states = JSON.parse(fs.readFileSync(v, 'utf8'));
    else if (['--set', '--disable', '--enable'].includes(flag)) opts[flag.slice(2)].push(v);
    else throw new Error(`unknown option ${flag}`);
  }
  return opts;
}

// run f(opts) for traj/forward: JSON on stdout, or {"error"} and status 1
function runJSON(args, f) {
  try {
    process.stdout.write(JSON.stringify(f(parseRunArgs(args))) + '\n');
    return 0;
  } catch (e) {
    process.stdout.write(JSON.stringify({ error: String(e && e.message || e) }) + '\n');
    return 1;
  }
}

// subcommands: name -> [number of arguments (-1: the model and options), run(oracle, args)
// returning the exit status]
const commands = {
  traj: [-1, (o, [file, ...args]) => runJSON(args, (opts) => {
    if (!(opts.steps >= 0)) throw new Error('traj needs --steps N');
    return o.trajectory(file, opts);
  })],
  forward: [-1, (o, [file, ...args]) => runJSON(args, (opts) => {
    if (!opts.states) throw new Error('forward needs --states FILE.json');
    return o.forward(file, opts.states, opts);
  })],
  efc: [-1, (o, [file, ...args]) => runJSON(args, (opts) => efcCases(o, file, opts))],
  model: [1, (o, [file]) => {
    const out = o.model(file);
    process.stdout.write(formatJSON(out));
    return out.error === undefined ? 0 : 1;
  }],
  version: [0, (o) => {
    process.stdout.write(o.version() + '\n');
    return 0;
  }],
};

// dispatch when run as a program, not when imported
async function main(argv) {
  const cmd = commands[argv[0]];
  if (!cmd || (cmd[0] >= 0 ? argv.length - 1 !== cmd[0] : argv.length < 2)) {
    process.stderr.write(USAGE);
    return 2;
  }
  return cmd[1](await openOracle(), argv.slice(1));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
