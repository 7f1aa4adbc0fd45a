// convex_native.mjs: libmj's GJK/EPA contacts (lib/engine/collision_gjk.c) against MuJoCo 3.14.0's
// native ones (nativeccd on, its default), pair type by pair type, at random poses of the free
// bodies of a model (t/oracle/collision/models/convex_native.xml).
//
//   node t/oracle/collision/convex_native.mjs --bin CONTACTS [--states N] [--verbose] MODEL.xml
//
// CONTACTS is the helper t/oracle/collision/contacts.c (see run.sh).  Three runs: (1) both
// engines with ccd_iterations=ITER and ccd_tolerance=TOL, where both EPAs converge to the true
// penetration of the margin-inflated geoms; (2) MuJoCo's defaults (35 iterations, 1e-6), where
// its EPA stops short of convergence on smooth geoms (its dist off the true one by up to
// ~1e-3), so that agreeing needs its exact expansion order, which ours follows.  Both are
// asserted: exit status 1 when a contact of a state whose sets agree differs by more than GOOD
// in dist, pos or normal, or the contact sets differ in any state (measured 2026-12-01: none
// in 1000 states of convex_native.xml, mesh_pairs.xml and hfield.xml; dist, pos and normal
// within 1.2e-15, multiccd's reversed normals and cylinder caps included).  (3) for
// comparison, libmj's libccd path (nativeccd disabled in libmj only) against MuJoCo's native
// defaults, reported.  Per pair: contacts, max |dist|, |pos|, |normal|, the median |dist| and
// the share of good contacts.  The asserted numbers are judged against t/oracle/known.txt
// (suite collision, cases "convex_native MODEL --states N RUN sets" and "... RUN PAIR", RUN
// converged or defaults, the error the share of differing states and of contacts not good)
// by t/oracle/known.mjs.
import { openOracle } from '../../../scripts/oracle.mjs';
import path from 'node:path';
import { rng, makeStates, oracleContacts, ourContacts, pairErrors, largest, fmt, parseArgs }
  from './poses.mjs';
import { verdict } from '../known.mjs';

// the converged run's options (environment ITER and TOL override)
const ITER = +(process.env.ITER || 200), TOL = +(process.env.TOL || 1e-11);
const GOOD = 1e-10;              // a good contact: dist, pos and normal each within this
// ---- arguments --------------------------------------------------------------------------------
const { bin, nstate, verbose, files } = parseArgs('convex_native.mjs', 1);
const file = files[0];

// one run: the table by pair type; returns the rows and the count of differing sets
function compare(title, ours, ref, types) {
  const { pairs, sets } = pairErrors(ours, ref, types, verbose);
  console.log(`\n${title}: contact sets differ in ${sets} of ${ref.length} states`);
  console.log(`  ${'pair'.padEnd(20)}${'n'.padStart(6)}${'dist'.padStart(9)}${'pos'.padStart(9)}` +
              `${'normal'.padStart(9)}${'med dist'.padStart(9)}${'good'.padStart(7)}`);
  const shares = {};
  for (const [name, es] of Object.entries(pairs).sort()) {
    const dists = es.map((e) => e.ed).sort((x, y) => x - y);
    shares[name] = es.filter((e) => e.ed <= GOOD && e.ep <= GOOD && e.en <= GOOD).length /
                   es.length;
    console.log(`  ${name.padEnd(20)}${String(es.length).padStart(6)}${fmt(dists.at(-1))}` +
                `${fmt(largest(es, (e) => e.ep))}${fmt(largest(es, (e) => e.en))}` +
                `${fmt(dists[dists.length >> 1])}${shares[name].toFixed(3).padStart(7)}`);
  }
  return { shares, sets };
}

const oracle = await openOracle({ quiet: true });
const probe = oracle.loadModel(file, { set: [], disable: [], enable: [] });
const types = Array.from(probe.geom_type);
const states = makeStates(probe, nstate, rng(99));
probe.delete();

// each asserted number judged against t/oracle/known.txt: the share of states whose sets
// differ, and per pair the share of contacts that are not good
const label = `convex_native ${path.basename(file, '.xml')} --states ${nstate}`;
let pass = true, nknown = 0;
const judge = (what, err, line) => {
  const v = verdict('collision', `${label} ${what}`, err, err === 0);
  if (v.fail) pass = false;
  if (v.word === 'known') nknown++;
  if (v.word !== 'ok') console.log(`  ${line}: ${v.word}${v.note ? ` (${v.note})` : ''}`);
};
const assert = (run, { shares, sets }) => {
  judge(`${run} sets`, sets / states.length, `${run}: contact sets differ in ${sets} states`);
  for (const [name, share] of Object.entries(shares))
    judge(`${run} ${name}`, 1 - share, `${run} ${name}: ${(1 - share).toFixed(3)} of its contacts ` +
          `beyond ${GOOD}`);
};

// (1) converged and (2) the defaults: asserted; (3) libccd: reported
const conv = [`ccd_iterations=${ITER}`, `ccd_tolerance=${TOL}`];
assert('converged', compare(`converged (ccd_iterations ${ITER}, ccd_tolerance ${TOL}), GJK/EPA vs native`,
                            ourContacts(bin, file, conv.flatMap((x) => ['--set', x]), states),
                            oracleContacts(oracle, file, conv, [], states), types));
const ref = oracleContacts(oracle, file, [], [], states);
assert('defaults', compare('defaults, GJK/EPA vs native', ourContacts(bin, file, [], states), ref,
                           types));
compare('defaults, libccd (ours) vs native',
        ourContacts(bin, file, ['--disable', 'nativeccd'], states), ref, types);
console.log(`\nconvex_native.mjs: ${nknown} known, ${pass ? 'ok' : 'FAIL'}`);
process.exitCode = pass ? 0 : 1;
