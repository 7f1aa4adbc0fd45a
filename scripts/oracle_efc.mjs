// oracle_efc.mjs: MuJoCo's constraint rows and its solver's answer, for the solver tests
// (t/oracle/solver); the `efc` subcommand of scripts/oracle.mjs.
//
//   node scripts/oracle.mjs efc MODEL.xml [--set NAME=VALUE]... [--disable F]... [--enable F]...
//
// For every keyframe of MODEL (or the default state when it has none), two cases, each one line
// of JSON: mj_forward from qacc_warmstart = 0 ("warm": 0), then again from a warmstart near that
// solution, qacc_warmstart = qacc + 0.1 (qacc_smooth - qacc) cos(i) ("warm": 1).  Each line holds
// the sizes, the options the solver reads, the dense efc_J (the jacobian option is forced to
// dense) and every efc_* array, the contacts (dim, mu, friction, efc_address, H), qM in its
// sparse layout (legacyQM: MuJoCo 3.11 dropped d.qM), qacc_smooth, qfrc_smooth, qacc_warmstart,
// and MuJoCo's results: efc_force, efc_state, qacc, qfrc_constraint, solver_niter (island 0 or
// the whole problem), the statistics of those iterations, and nisland.
import { applyOptions, findKey, legacyQM } from './oracle.mjs';

// the efc_* arrays dumped, nefc or nefc x nv long
const EFC = ['efc_type', 'efc_id', 'efc_J', 'efc_pos', 'efc_margin', 'efc_frictionloss',
             'efc_diagA', 'efc_D', 'efc_R', 'efc_vel', 'efc_aref', 'efc_b', 'efc_force',
             'efc_state'];

// the nv arrays dumped
const DOF = ['qacc_smooth', 'qfrc_smooth', 'qacc_warmstart', 'qacc', 'qfrc_constraint'];

// the options the solver reads
const OPT = ['solver', 'cone', 'tolerance', 'ls_tolerance', 'noslip_tolerance', 'iterations',
             'ls_iterations', 'noslip_iterations', 'impratio', 'disableflags', 'enableflags'];

// one case of the current state of d as a plain object
function dumpCase(mujoco, m, d, key, warm) {
  const out = { key, warm, nv: m.nv, nefc: d.nefc, ncon: d.ncon, nisland: d.nisland,
                meaninertia: m.stat.meaninertia, opt: {} };
  for (const f of OPT) out.opt[f] = m.opt[f];
  for (const f of EFC) out[f] = Array.from(d[f]).slice(0, f === 'efc_J' ? d.nefc * m.nv : d.nefc);
  for (const f of DOF) out[f] = Array.from(d[f]);
  out.qM = Array.from(legacyQM(m, d.M));
  out.contact = [];
  for (let i = 0; i < d.ncon; i++) {
    const c = d.contact.get(i);
    out.contact.push({ dim: c.dim, mu: c.mu, friction: Array.from(c.friction),
                       efc_address: c.efc_address, H: Array.from(c.H) });
  }
  const niter = d.solver_niter[0];
  out.solver_niter = niter;
  out.solver = [];
  for (let i = 0; i < niter; i++) {
    const s = d.solver.get(i);
    out.solver.push([s.improvement, s.gradient, s.lineslope, s.nactive, s.nchange, s.neval,
                     s.nupdate]);
  }
  return out;
}

// the cases of one model file as an array of objects (see the header)
export function efcCases(o, file, opts) {
  const { mujoco } = o;
  const m = o.loadModel(file, opts);
  const d = new mujoco.MjData(m);
  try {
    applyOptions(mujoco, m, { set: ['jacobian=dense'] });
    const keys = m.nkey ? Array.from({ length: m.nkey }, (_, k) => k) : [-1];
    const cases = [];
    for (const k of keys) {
      if (k >= 0) mujoco.mj_resetDataKeyframe(m, d, findKey(mujoco, m, k));
      else mujoco.mj_resetData(m, d);
      mujoco.mj_forward(m, d);
      cases.push(dumpCase(mujoco, m, d, k, 0));
      for (let i = 0; i < m.nv; i++) {
        d.qacc_warmstart[i] = d.qacc[i] + 0.1 * (d.qacc_smooth[i] - d.qacc[i]) * Math.cos(i);
      }
      mujoco.mj_forward(m, d);
      cases.push(dumpCase(mujoco, m, d, k, 1));
    }
    return cases;
  } finally {
    d.delete();
    m.delete();
  }
}
