import load from '@mujoco/mujoco';
import fs from 'node:fs';
const mujoco = await load({print:()=>{}, printErr:()=>{}});
for (const f of process.argv.slice(2)) {
  mujoco.FS.writeFile('/x.xml', fs.readFileSync(f));
  try { const m = mujoco.MjModel.mj_loadXML('/x.xml');
    console.log(f, 'nmat', m.nmat, Array.from(m.mat_texid).join(' '), 'texcs', Array.from(m.tex_colorspace), 'nch', Array.from(m.tex_nchannel)); m.delete(); }
  catch (e) { console.log(f, 'ERR', String(e.message ?? e)); }
}
