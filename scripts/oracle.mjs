#!/usr/bin/env node
// oracle.mjs: the official MuJoCo (npm package `mujoco`, a WebAssembly build) as a reference.
//
//   node scripts/oracle.mjs model MODEL.xml    the compiled model as JSON, as mjc info --json
//                                              prints it
//   node scripts/oracle.mjs version            MuJoCo's version string
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
import load from 'mujoco';

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

// MuJoCo arrays whose layout differs from our table's, mapped to the table's declared shape
const ADAPT = {
  // MuJoCo keeps one texture per role (nmat x mjNTEXROLE); the table holds the rgb role (1)
  mat_texid: (v, m) => {
    const roles = m.nmat ? v.length / m.nmat : 0;
    return Array.from({ length: m.nmat }, (_, i) => v[i * roles + 1]);
  },
};

// one compiled MuJoCo model as {sizes, opt, stat, vis, arrays}; fields MuJoCo lacks are left out
export function modelJSON(m, tables) {
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
  for (const { type, name } of tables.arrays) {
    const v = m[name];
    if (v === undefined) continue;
    if (ADAPT[name]) out.arrays[name] = ADAPT[name](v, m);
    else out.arrays[name] = type === 'char' ? chars(v) : Array.from(v, num);
  }
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

// a loaded MuJoCo with the tables; model(file) compiles one file and returns its dump
export async function openOracle() {
  // MuJoCo's own messages (warnings) go to stderr, keeping stdout for the JSON
  const toStderr = (text) => process.stderr.write(`${text}\n`);
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
      return modelJSON(m, tables);
    } finally {
      m.delete();
    }
  }

  return { mujoco, tables, model, version: () => mujoco.mj_versionString() };
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
              '       node scripts/oracle.mjs version\n';

// subcommands: name -> [number of arguments, run(oracle, args) returning the exit status]
const commands = {
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
  if (!cmd || argv.length - 1 !== cmd[0]) {
    process.stderr.write(USAGE);
    return 2;
  }
  return cmd[1](await openOracle(), argv.slice(1));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
