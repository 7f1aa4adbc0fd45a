#!/usr/bin/env node
// mjb_relayout.mjs: carry binary model files (.mjb) over to a new layout of lib/mjxmacro.h
// when the new tables only add sizes, options and model arrays: the file's sizes get the new
// ones in table order (0, or derived from the old arrays: DERIVED), a new option or array is
// written as zeros where the new table places it (an int array of FILL its value: -1 for the
// actuator ids and the history buffers' addresses, none), the size count and schema hash are
// replaced, the CRC of the file's version recomputed (1: zlib's CRC-32, 2: CRC-32C).  It
// refuses anything else (a size or an array gone, another sizeof(mjtNum)).  For inputs that cannot be recompiled from MJCF,
// such as the fuzz regressions t/fuzz/regress/mjb/, which must keep reaching the code they
// once broke.
//
//   node scripts/mjb_relayout.mjs OLD_MJXMACRO_H SCHEMA_HASH FILE.mjb...
//
// OLD_MJXMACRO_H: the header the files were written with (git show REV:lib/mjxmacro.h > f);
// the new one is this repository's.  SCHEMA_HASH: the new schema hash in hex, bytes 24-31 of
// any file written by the new build (mjc compile models/pendulum.xml -o x.mjb; od -A d -t x8
// -j 24 -N 8 x.mjb).  Rewrites the files in place.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

// the body of table `name` in a header's text: continuations joined, comments removed
function macroBody(text, name) {
  const start = text.indexOf(`#define ${name}(X)`);
  const lines = [];
  for (const line of text.slice(start).split('\n')) {
    lines.push(line.replace(/\\\s*$/, ''));
    if (!/\\\s*$/.test(line)) break;
  }
  return lines.join(' ').replace(/\/\*.*?\*\//g, ' ').replace(`#define ${name}(X)`, '');
}

// the names of MJ_SIZES in a header's text
function sizeNames(text) {
  return [...macroBody(text, 'MJ_SIZES').matchAll(/X\((\w+)\)/g)].map((m) => m[1]);
}

// the model arrays of a header's text: type, name, rows and cols (each a size name or a number)
function arrayList(text) {
  return [...macroBody(text, 'MJ_MODEL_ARRAYS').matchAll(/X\(([^()]*)\)/g)].map((m) => {
    const [type, name, rows, cols] = m[1].split(',').map((x) => x.trim());
    return { type, name, rows, cols };
  });
}

// the option fields of a header's text: type, name and count
function optionList(text) {
  return [...macroBody(text, 'MJ_OPTION_FIELDS').matchAll(/X\(([^()]*)\)/g)].map((m) => {
    const [type, name, count] = m[1].split(',').map((x) => x.trim());
    return { type, name, count: +count };
  });
}

// new sizes that follow from the old arrays (else 0), and the value a new int array is filled
// with (else zeros): the kinematic trees (one more than the largest body_treeid), each tree's
// sleep policy AUTO_ALLOWED (what the compiler makes of a tree without actuators or tendons),
// no history buffers
const DERIVED = { ntree: (arr) => Math.max(-1, ...arr('body_treeid')) + 1 };
const FILL = { tree_sleep_policy: 2, jnt_actuatorid: -1, tendon_actuatorid: -1,
               actuator_historyadr: -1, sensor_historyadr: -1 };

// bytes of one element of a table type
const TYPE_BYTES = { mjtNum: 8, float: 4, int: 4, 'unsigned char': 1, char: 1 };

// a reflected CRC-32 with polynomial poly (initial value and final XOR 0xffffffff)
function crc32(bytes, poly) {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ poly : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

const [oldHeader, hash, ...files] = process.argv.slice(2);
if (!oldHeader || !/^[0-9a-f]{16}$/i.test(hash || '') || !files.length) {
  console.error('usage: node scripts/mjb_relayout.mjs OLD_MJXMACRO_H SCHEMA_HASH FILE.mjb...');
  process.exit(2);
}
const HEADER = fileURLToPath(new URL('../lib/mjxmacro.h', import.meta.url));
const oldText = fs.readFileSync(oldHeader, 'utf8'), newText = fs.readFileSync(HEADER, 'utf8');
const before = sizeNames(oldText);
const after = sizeNames(newText);
const gone = before.filter((n) => !after.includes(n));
if (gone.length) throw new Error(`sizes removed (${gone.join(', ')}): recompile instead`);
const oldArrays = arrayList(oldText), newArrays = arrayList(newText);
const goneArrays = oldArrays.filter((a) => !newArrays.some((b) => b.name === a.name));
if (goneArrays.length) throw new Error(`arrays removed (${goneArrays[0].name}): recompile instead`);
const oldOptions = optionList(oldText), newOptions = optionList(newText);
const goneOptions = oldOptions.filter((a) => !newOptions.some((b) => b.name === a.name));
if (goneOptions.length) throw new Error(`options removed (${goneOptions[0].name}): recompile`);

for (const file of files) {
  const b = fs.readFileSync(file);
  const version = b.readUInt32LE(8);
  if (b.toString('latin1', 0, 8) !== 'MJBMODEL' || (version !== 1 && version !== 2) ||
      b.readUInt32LE(16) !== 8 || b.readUInt32LE(20) !== before.length) {
    throw new Error(`${file}: not a version 1 or 2 file of the old layout`);
  }
  const value = new Map(before.map((n, i) => [n, b.readInt32LE(32 + 4 * i)]));
  const head = Buffer.alloc(32 + 4 * after.length);
  b.copy(head, 0, 0, 20);
  head.writeUInt32LE(after.length, 20);
  head.writeBigUInt64LE(BigInt(`0x${hash}`), 24);
  // the old arrays' bytes by name (their sizes are the old ones)
  const dim = (s) => (/^\d+$/.test(s) ? +s : value.get(s) ?? 0);
  const bytes = (a) => TYPE_BYTES[a.type] * dim(a.rows) * dim(a.cols);
  let at = b.length - 4 - oldArrays.reduce((n, a) => n + bytes(a), 0);
  const optBytes = (a) => TYPE_BYTES[a.type] * a.count;
  let optAt = 32 + 4 * before.length;
  const options = new Map();
  for (const a of oldOptions) {
    options.set(a.name, b.subarray(optAt, optAt + optBytes(a)));
    optAt += optBytes(a);
  }
  const fixed = b.subarray(optAt, at);  // visual and statistic fields
  const old = new Map();
  for (const a of oldArrays) {
    old.set(a.name, b.subarray(at, at + bytes(a)));
    at += bytes(a);
  }
  // new sizes: derived from the old int arrays, else 0
  const ints = (name) => {
    const v = old.get(name);
    return v ? Array.from({ length: v.length / 4 }, (_, i) => v.readInt32LE(4 * i)) : [];
  };
  for (const n of after) if (!value.has(n)) value.set(n, DERIVED[n] ? DERIVED[n](ints) : 0);
  after.forEach((n, i) => head.writeInt32LE(value.get(n), 32 + 4 * i));
  // options and arrays in the new tables' order: the old ones' bytes, each new one zeros (an
  // int array of FILL its value)
  const opts = newOptions.map((a) => options.get(a.name) ?? Buffer.alloc(optBytes(a)));
  const arrays = newArrays.map((a) => {
    if (old.has(a.name)) return old.get(a.name);
    const z = Buffer.alloc(bytes(a)), fill = FILL[a.name];
    for (let k = 0; fill !== undefined && k < z.length; k += 4) z.writeInt32LE(fill, k);
    return z;
  });
  const body = Buffer.concat([head, ...opts, fixed, ...arrays]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32LE(crc32(body, version === 1 ? 0xedb88320 : 0x82f63b78));
  fs.writeFileSync(file, Buffer.concat([body, crc]));
  console.log(`${file}: ${b.length} -> ${body.length + 4} bytes`);
}
