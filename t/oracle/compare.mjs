// compare.mjs: our compiled models against MuJoCo's, field by field, in one node process.
//
//   node t/oracle/compare.mjs --mjc BIN/mjc [--suite NAME] [-v] MODEL.xml...
//
// For each model it runs `mjc info --json MODEL` and the oracle (scripts/oracle.mjs), and
// compares every field of lib/mjxmacro.h (a field missing from either dump is a mismatch, but
// for those MuJoCo lacks by design, OURS_ONLY): integers exactly, reals to 1e-10 relative,
//   |a - b| <= 1e-10 * max(1, |a|, |b|).
// Quantities that are legitimately ambiguous are compared in a canonical form:
//   - quaternions (fields ending in "quat") up to sign, per quaternion;
//   - body_iquat with body_inertia as the inertia tensor R diag(I) R^T, since equal principal
//     moments leave the principal frame arbitrary;
//   - the names and paths buffers as lists of strings, and the name_*adr / *_pathadr offsets
//     as the string each one addresses.
// Prints OK, UNSUPPORTED (our compiler says "not supported yet") or MISMATCH/FAIL per model,
// then "N models match, K unsupported (...), J known, F mismatch".  A model listed in
// t/oracle/known.txt under suite NAME (default compile; its label: the path from the current
// directory) is judged against its entry (t/oracle/known.mjs) and its line gets the verdict.
// Exit status 1 when any model mismatches (beyond a known divergence, or a stale entry) or our
// compiler rejects a model MuJoCo accepts for another reason.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { openOracle } from '../../scripts/oracle.mjs';
import { verdict } from './known.mjs';

const RTOL = 1e-10;

// entries of inv(M) carry round-off that grows with the condition number of M: on chain100
// (a hanging 100-link chain) a long-double inverse of the same M differs from both engines by
// up to 1.3e-10, and the engines from each other by 3.1e-10.  These fields get 1e-9.
const INVM_RTOL = 1e-9;
const INVM_FIELDS = new Set(['dof_invweight0', 'body_invweight0', 'tendon_invweight0',
                             'actuator_acc0']);
let tol = RTOL;  // the tolerance of the field being compared
const SHOWN = 4;  // mismatching fields printed per model

// sizes whose meaning differs by design: MuJoCo's -1 "grow as needed" versus our preallocation
const SKIP = new Set(['nconmax', 'njmax', 'nstack']);

// the fields of lib/mjxmacro.h that MuJoCo's model lacks: the stack we preallocate and the
// builtin texture parameters we keep (MuJoCo keeps only the pixels).  Any other field missing
// from either dump is a mismatch, so that a field misnamed in the table is never skipped
const OURS_ONLY = new Set(['nstack', 'tex_builtin', 'tex_mark', 'tex_rgb1', 'tex_rgb2',
                           'tex_markrgb', 'tex_random']);

// ---- elementwise comparison -------------------------------------------------------------------

// scaled error of two values: reals relative to max(1,|a|,|b|); strings and ints exact (0 or inf)
function err(a, b, exact) {
  if (typeof a !== 'number' || typeof b !== 'number') return a === b ? 0 : Infinity;
  if (exact) return a === b ? 0 : Infinity;
  return Math.abs(a - b) / Math.max(1, Math.abs(a), Math.abs(b));
}

// a mismatch record of two equal-length lists, or null when they agree; group > 1 compares
// groups of that many elements with the groupwise error function gerr(ours, theirs)
function diffLists(ours, theirs, exact, group = 1, gerr = null) {
  if (!Array.isArray(ours) || !Array.isArray(theirs)) {
    const e = err(ours, theirs, exact);
    return e > tol ? { max: e, bad: 1, total: 1, at: 0, ours, theirs } : null;
  }
  if (ours.length !== theirs.length) {
    return { length: [ours.length, theirs.length] };
  }
  let max = 0;
  let bad = 0;
  let at = -1;
  for (let i = 0; i < ours.length; i += group) {
    let e = 0;
    if (gerr) e = gerr(ours.slice(i, i + group), theirs.slice(i, i + group));
    else e = err(ours[i], theirs[i], exact);
    if (e > tol) {
      bad++;
      if (at < 0) at = i;
    }
    max = Math.max(max, e);
  }
  if (!bad) return null;
  const n = ours.length / group;
  return { max, bad, total: n, at: at / group, ours: ours.slice(at, at + group),
           theirs: theirs.slice(at, at + group) };
}

// error of two quaternions up to sign
// a hull polygon's normal is the unit (v1 - v0) x (v2 - v0) of its first three vertices, in
// the double vertices before they are stored as float: a sliver (two of them 1e-8 apart on
// TALOS) turns their last-bit differences into visible ones.  Each normal's error over its
// own bound 1e-10 + 1e-14 k, k = |v|max |e|max / |(v1 - v0) x (v2 - v0)| (from our float
// vertices): 2.8e-9 on TALOS where k = 2e7, twice 1e-15 k on one of Aloha's
function polyNormalErrors(A, B) {
  const out = [];
  for (let mesh = 0; mesh < A.mesh_polyadr.length; mesh++) {
    const va = A.mesh_vertadr[mesh];
    for (let p = A.mesh_polyadr[mesh]; p < A.mesh_polyadr[mesh] + A.mesh_polynum[mesh]; p++) {
      const ids = [0, 1, 2].map((k) => A.mesh_polyvert[A.mesh_polyvertadr[p] + k]);
      const v = ids.map((i) => A.mesh_vert.slice(3 * (va + i), 3 * (va + i) + 3));
      const e1 = v[1].map((x, k) => x - v[0][k]), e2 = v[2].map((x, k) => x - v[0][k]);
      const c = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                 e1[0] * e2[1] - e1[1] * e2[0]];
      const big = Math.max(...v.map((w) => Math.hypot(...w)));
      const k = big * Math.max(Math.hypot(...e1), Math.hypot(...e2)) / Math.hypot(...c);
      const bound = 1e-10 + 1e-14 * k;
      for (let j = 3 * p; j < 3 * p + 3; j++) {
        out.push(err(A.mesh_polynormal[j], B.mesh_polynormal[j]) / bound * RTOL);
      }
    }
  }
  return out;
}

function quatErr(p, q) {
  let plus = 0;
  let minus = 0;
  for (let k = 0; k < 4; k++) {
    plus = Math.max(plus, err(p[k], q[k]));
    minus = Math.max(minus, err(p[k], -q[k]));
  }
  return Math.min(plus, minus);
}

// the inertia tensors R diag(I) R^T of every body, R from body_iquat (w, x, y, z)
function inertiaTensors(iquat, inertia) {
  const out = [];
  for (let b = 0; b < inertia.length / 3; b++) {
    const [w, x, y, z] = iquat.slice(4 * b, 4 * b + 4);
    const I = inertia.slice(3 * b, 3 * b + 3);
    // rotation matrix of a unit quaternion, row-major
    const R = [
      1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
      2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
      2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
    ];
    // T_ij = sum_k R_ik I_k R_jk
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        let s = 0;
        for (let k = 0; k < 3; k++) s += R[3 * i + k] * I[k] * R[3 * j + k];
        out.push(s);
      }
    }
  }
  return out;
}

// the strings of a NUL-separated buffer, without the empty tail after the last terminator
function splitBuffer(buf) {
  const parts = buf.split('\0');
  if (parts.length && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

// the string each offset addresses in buffer buf (null for -1)
function addressed(adr, buf) {
  return adr.map((a) => {
    if (a < 0) return null;
    const end = buf.indexOf('\0', a);
    return buf.slice(a, end < 0 ? buf.length : end);
  });
}

// MuJoCo's bvh arrays hold the meshes' hierarchies after the bodies'; ours hold the bodies' only
// (mesh hierarchies are not built yet), so MuJoCo's are cut to the bodies' nodes, which come
// first
function bodyVolumes(theirs) {
  const B = theirs.arrays;
  const nbvh = theirs.sizes.nbvh;
  if (!B.body_bvhnum || !nbvh) return;
  const n = B.body_bvhnum.reduce((s, x) => s + x, 0);
  for (const name of Object.keys(B)) {
    if (name.startsWith('bvh_')) B[name] = B[name].slice(0, (n * B[name].length) / nbvh);
  }
  theirs.sizes.nbvh = n;
  // with fusestatic MuJoCo leaves stale ids in the inner nodes (and nbvh counts the fused
  // bodies' nodes, left as zeros at the end): inner nodes hold no geom, -1
  B.bvh_nodeid = B.bvh_nodeid.map((id, i) => (B.bvh_child[2 * i] >= 0 ? -1 : id));
  if ('nbvhstatic' in theirs.sizes) theirs.sizes.nbvhstatic -= nbvh - n;
}

// ---- one model --------------------------------------------------------------------------------

// every mismatch between our dump and MuJoCo's, as [field, record] pairs
function compareModel(ours, theirs, tables) {
  const out = [];
  const push = (field, d) => { if (d) out.push([field, d]); };
  bodyVolumes(theirs);

  // a table field missing from a dump (but those MuJoCo lacks by design)
  const absent = (name, a, b) => {
    if (!(name in a)) push(name, { absent: 'ours' });
    else if (!(name in b) && !OURS_ONLY.has(name)) push(name, { absent: 'MuJoCo\'s' });
    return !(name in a) || !(name in b);
  };

  // sizes exactly; options, statistics, visual by their declared type
  for (const name of tables.sizes) {
    if (absent(name, ours.sizes, theirs.sizes) || SKIP.has(name)) continue;
    push(name, diffLists(ours.sizes[name], theirs.sizes[name], true));
  }
  const typed = (sec, list, key) => {
    for (const f of list) {
      const k = key(f);
      if (!(k in ours[sec]) || !(k in theirs[sec])) continue;
      push(`${sec}.${k}`, diffLists(ours[sec][k], theirs[sec][k], f.type === 'int'));
    }
  };
  typed('opt', tables.opt, (f) => f.name);
  typed('stat', tables.stat, (f) => f.name);
  typed('vis', tables.vis, (f) => `${f.section}_${f.name}`);

  // arrays, with the canonical forms of the ambiguous ones
  const A = ours.arrays;
  const B = theirs.arrays;
  for (const { type, name } of tables.arrays) {
    if (absent(name, A, B)) continue;
    if (name === 'body_iquat') continue;
    if (name === 'body_inertia' && 'body_iquat' in A && 'body_iquat' in B) {
      push('body_inertia (tensor)',
           diffLists(inertiaTensors(A.body_iquat, A.body_inertia),
                     inertiaTensors(B.body_iquat, B.body_inertia), false, 9,
                     (p, q) => Math.max(...p.map((x, i) => err(x, q[i])))));
    } else if (type === 'char') {
      push(name, diffLists(splitBuffer(A[name]), splitBuffer(B[name]), true));
    } else if (/^name_\w+adr$/.test(name)) {
      push(name, diffLists(addressed(A[name], A.names), addressed(B[name], B.names), true));
    } else if (/_pathadr$/.test(name)) {
      push(name, diffLists(addressed(A[name], A.paths), addressed(B[name], B.paths), true));
    } else if (name === 'mesh_polynormal' &&
               A.mesh_polynormal.length === B.mesh_polynormal.length) {
      // scaled errors against RTOL (polyNormalErrors)
      push(name, diffLists(polyNormalErrors(A, B), A.mesh_polynormal.map(() => 0), false));
    } else if (/quat$/.test(name)) {
      push(name, diffLists(A[name], B[name], false, 4, quatErr));
    } else {
      tol = INVM_FIELDS.has(name) ? INVM_RTOL : RTOL;
      push(name, diffLists(A[name], B[name], type !== 'mjtNum' && type !== 'float'));
      tol = RTOL;
    }
  }
  return out;
}

// one line describing a mismatch record
function describe(field, d) {
  if (d.absent) return `${field}: not in ${d.absent} model`;
  if (d.length) return `${field}: length ${d.length[0]} vs MuJoCo ${d.length[1]}`;
  const max = Number.isFinite(d.max) ? `max err ${d.max.toExponential(2)}` : 'not equal';
  const show = (v) => JSON.stringify(v).slice(0, 80);
  return `${field}: ${d.bad}/${d.total} differ, ${max}; ` +
         `[${d.at}] ours ${show(d.ours)} MuJoCo ${show(d.theirs)}`;
}

// the feature named in a "... not supported yet" message
function feature(msg) {
  const m = /([^:]*?)\s*(?:is |are )?not supported yet/.exec(msg);
  return m ? m[1].trim() : msg;
}

// ---- main -------------------------------------------------------------------------------------

// parse arguments, run every model, print the verdicts and the counts
async function main(argv) {
  let mjc = 'mjc';
  let verbose = false;
  let suite = 'compile';
  const files = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--mjc') mjc = argv[++i];
    else if (argv[i] === '--suite') suite = argv[++i];
    else if (argv[i] === '-v') verbose = true;
    else files.push(argv[i]);
  }
  const oracle = await openOracle();
  const counts = { ok: 0, unsupported: 0, known: 0, mismatch: 0 };
  const features = new Map();
  const root = process.cwd();

  // a model's verdict against the known divergences: its line, with the note of a listed case
  const judge = (label, err, passed, line) => {
    const v = verdict(suite, label, err, passed);
    counts[v.fail ? 'mismatch' : v.word === 'known' ? 'known' : 'ok']++;
    console.log(line + (v.note ? `  ${v.word} (${v.note})` : ''));
  };

  for (const file of files) {
    const label = path.relative(root, file);
    const run = spawnSync(mjc, ['info', '--json', file], { encoding: 'utf8',
                                                          maxBuffer: 1 << 30 });
    if (run.error) throw new Error(`cannot run ${mjc}: ${run.error.message}`);
    const stderr = run.stderr.trim();

    // our compiler rejected the model: unsupported feature, or a failure
    if (run.status !== 0) {
      if (/not supported yet/.test(stderr)) {
        counts.unsupported++;
        const feat = feature(stderr);
        features.set(feat, (features.get(feat) || 0) + 1);
        console.log(`UNSUPPORTED ${label}: ${stderr}`);
        continue;
      }
      const theirs = oracle.model(file);
      if (theirs.error !== undefined) {
        judge(label, 0, true, `OK ${label} (both reject)`);
      } else {
        judge(label, Infinity, false,
              `FAIL ${label}: MuJoCo accepts it, mjc says: ${stderr || run.status}`);
      }
      continue;
    }

    // both compiled: compare every field present in both
    const ours = JSON.parse(run.stdout);
    const theirs = oracle.model(file);
    if (theirs.error !== undefined) {
      judge(label, Infinity, false, `FAIL ${label}: mjc accepts it, MuJoCo says: ${theirs.error}`);
      continue;
    }
    const diffs = compareModel(ours, theirs, oracle.tables);
    if (!diffs.length) {
      judge(label, 0, true, `OK ${label}`);
      continue;
    }
    // the error: the largest field's (a length mismatch is infinite)
    const err = Math.max(...diffs.map(([, d]) => (d.length || d.absent ? Infinity : d.max)));
    judge(label, err, false, `MISMATCH ${label}: ${diffs.length} field` +
                             `${diffs.length > 1 ? 's' : ''}, max err ${err.toExponential(1)}`);
    const shown = verbose ? diffs : diffs.slice(0, SHOWN);
    for (const [field, d] of shown) console.log(`  ${describe(field, d)}`);
    if (shown.length < diffs.length) console.log(`  ... and ${diffs.length - shown.length} more`);
  }

  // the totals
  const feats = [...features].map(([f, n]) => (n > 1 ? `${f} x${n}` : f)).join('; ');
  console.log(`${counts.ok} models match, ${counts.unsupported} unsupported` +
              `${feats ? ` (${feats})` : ''}, ${counts.known} known, ${counts.mismatch} mismatch`);
  return counts.mismatch ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
