// known.mjs: the known divergences from MuJoCo 3.14.0 (t/oracle/known.txt) and the verdict of
// a case against them, for every oracle suite.
//
//   import { known, verdict } from '../known.mjs';
//   node t/oracle/known.mjs judge SUITE FILE   (FILE: lines CASE<TAB>ERR<TAB>PASSED(1/0))
//
// known.txt lists one case per line, SUITE<TAB>CASE<TAB>BOUND<TAB>REASON ('#' starts a
// comment line).  verdict(suite, key, err, passed) gives {fail, word, note}: a passing case not
// listed is ok, a failing one FAIL, as without the list; a failing listed case is "known" when
// err <= BOUND (BOUND '-': any error, as for a count that differs), FAIL when worse; a passing
// listed case is FAIL, its entry stale.  A non-numeric mismatch is passed as err = Infinity.
// Every known case is appended to the file ORACLE_KNOWN names (t/oracle/lib.sh sets it), which
// the suite's shell counts at its end.  The judge command runs the verdicts of a file of cases
// (from a shell runner, t/oracle/solver/run.sh), one line each, exit status 1 on a failure.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

const FILE = new URL('known.txt', import.meta.url);
const SUITES = new Set(['compile', 'traj', 'constraint', 'collision', 'inverse', 'solver', 'mesh',
                        'texture', 'ray', 'sensor', 'deriv', 'render']);
let entries = null;  // suite -> Map(case -> {bound, reason}), read on first use

// every entry of known.txt by suite; a malformed or repeated line throws
function readAll() {
  const all = new Map([...SUITES].map((s) => [s, new Map()]));
  fs.readFileSync(FILE, 'utf8').split('\n').forEach((line, i) => {
    if (!line.trim() || line.startsWith('#')) return;
    const [suite, key, bound, reason, extra] = line.split('\t');
    const where = `t/oracle/known.txt:${i + 1}`;
    if (!SUITES.has(suite) || !key || !reason || extra !== undefined ||
        !(bound === '-' || Number(bound) >= 0)) {
      throw new Error(`${where}: not SUITE<TAB>CASE<TAB>BOUND<TAB>REASON: ${line}`);
    }
    if (all.get(suite).has(key)) throw new Error(`${where}: ${suite} ${key} listed twice`);
    all.get(suite).set(key, { bound: bound === '-' ? Infinity : Number(bound), reason });
  });
  return all;
}

// the known divergences of a suite: Map(case -> {bound (Infinity for '-'), reason})
export function known(suite) {
  entries ??= readAll();
  if (!entries.has(suite)) throw new Error(`known.mjs: no suite ${suite}`);
  return entries.get(suite);
}

// the verdict of a case that measured err and did (passed) or did not pass its tolerance:
// {fail, word: 'ok' | 'known' | 'FAIL', note: '' or why}
export function verdict(suite, key, err, passed) {
  const entry = known(suite).get(key);
  if (!entry) return { fail: !passed, word: passed ? 'ok' : 'FAIL', note: '' };
  const bound = entry.bound === Infinity ? '-' : entry.bound;
  if (passed) {
    return { fail: true, word: 'FAIL',
             note: 'passes: stale entry in t/oracle/known.txt: remove it' };
  }
  if (!(err <= entry.bound)) {
    return { fail: true, word: 'FAIL',
             note: `worse than the known divergence (bound ${bound}: ${entry.reason})` };
  }
  if (process.env.ORACLE_KNOWN) fs.appendFileSync(process.env.ORACLE_KNOWN, `${suite}\t${key}\n`);
  return { fail: false, word: 'known', note: `known divergence, bound ${bound}: ${entry.reason}` };
}

// the judge command: the verdict of each line CASE<TAB>ERR<TAB>PASSED of a file; 1 on a failure
function judge(suite, file) {
  let failed = 0;
  for (const line of fs.readFileSync(file, 'utf8').split('\n').filter((l) => l)) {
    const [key, err, passed] = line.split('\t');
    const v = verdict(suite, key, Number(err), passed === '1');
    if (v.fail) failed++;
    console.log(`${v.word.padEnd(5)} ${key}: ${Number(err).toExponential(1)}` +
                (v.note ? `  (${v.note})` : ''));
  }
  return failed ? 1 : 0;
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const [cmd, suite, file] = process.argv.slice(2);
  if (cmd !== 'judge' || !suite || !file) {
    process.stderr.write('usage: node t/oracle/known.mjs judge SUITE FILE\n');
    process.exit(2);
  }
  process.exitCode = judge(suite, file);
}
