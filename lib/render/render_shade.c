// render_shade.c: per-pixel shading of the visibility buffer: materials and textures (2d with
// mip levels, cube), OpenGL's fixed-function lighting per pixel (Blinn-Phong), shadows, the
// planar reflection, fog and haze, the skybox, transparent items back to front, and the final
// average of the supersamples into 8-bit RGB.
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/render_scene.h"

// ---- textures ------------------------------------------------------------------------------

// copy n pixels of nch channels to RGB (gray repeats, alpha dropped)
static void toRGB(unsigned char* dst, const unsigned char* src, size_t n, int nch) {
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 3; k++) dst[3 * i + k] = src[nch * i + (nch >= 3 ? k : 0)];
}

// level l+1 of a 2d texture: 2x2 box averages of level l (odd sides clamp)
static void halve(mjrTexture* t, int l) {
  int w = t->lw[l], h = t->lh[l], w2 = w > 1 ? w / 2 : 1, h2 = h > 1 ? h / 2 : 1;
  const unsigned char* s = t->level[l];
  unsigned char* d = t->level[l + 1];
  for (int r = 0; r < h2; r++)
    for (int q = 0; q < w2; q++) {
      int r0 = 2 * r < h ? 2 * r : h - 1, r1 = 2 * r + 1 < h ? 2 * r + 1 : r0;
      int q0 = 2 * q < w ? 2 * q : w - 1, q1 = 2 * q + 1 < w ? 2 * q + 1 : q0;
      for (int k = 0; k < 3; k++)
        d[3 * (r * w2 + q) + k] = (unsigned char)((s[3 * (r0 * w + q0) + k]
          + s[3 * (r0 * w + q1) + k] + s[3 * (r1 * w + q0) + k] + s[3 * (r1 * w + q1) + k]
          + 2) / 4);
    }
  t->lw[l + 1] = w2, t->lh[l + 1] = h2;
}

// the model's textures as RGB bytes: 2d with mip levels down to 1x1, cubes by face
int mjr_makeTextures(mjrContext* c, const mjModel* m) {
  c->ntex = m->ntex;
  c->tex = calloc(m->ntex ? m->ntex : 1, sizeof(mjrTexture));
  if (!c->tex) return -1;
  c->skybox = -1;
  for (int i = 0; i < m->ntex; i++) {
    mjrTexture* t = c->tex + i;
    int w = m->tex_width[i], h = m->tex_height[i], nch = m->tex_nchannel[i];
    t->type = m->tex_type[i];

    // an image of no pixels, or a cube neither one face nor six, is not drawn (nlevel 0)
    int cube = t->type != mjTEXTURE_2D;
    if (w < 1 || h < 1 || nch < 1 || (cube && h != w && h != 6 * w)) continue;
    if (t->type == mjTEXTURE_SKYBOX && c->skybox < 0) c->skybox = i;
    t->nface = !cube || h == w ? 1 : 6;
    t->lw[0] = w, t->lh[0] = t->type == mjTEXTURE_2D ? h : w;
    t->nlevel = 1;
    t->level[0] = malloc((size_t)w * h * 3);
    if (!t->level[0]) return -1;
    toRGB(t->level[0], m->tex_data + m->tex_adr[i], (size_t)w * h, nch);
    while (t->type == mjTEXTURE_2D && t->nlevel < mjrMAXMIP
           && (t->lw[t->nlevel - 1] > 1 || t->lh[t->nlevel - 1] > 1)) {
      int l = t->nlevel - 1, w2 = t->lw[l] > 1 ? t->lw[l] / 2 : 1;
      int h2 = t->lh[l] > 1 ? t->lh[l] / 2 : 1;
      t->level[l + 1] = malloc((size_t)w2 * h2 * 3);
      if (!t->level[l + 1]) return -1;
      halve(t, l);
      t->nlevel++;
    }
  }
  return 0;
}

// x - floor(x), without a library call or a branch (it runs in vector loops): floats of
// magnitude 2^23 and more (and NaN) are whole
static inline float fract(float x) {
  // a = x, or 0 where |x| >= 2^23 or NaN: a mask on the bits (GCC's AVX2 loops would branch
  // on a float select here)
  union { float f; uint32_t u; } v = {x};
  v.u &= -(uint32_t)(fabsf(x) < 8388608.0f);
  float a = v.f;
  int i = (int)a;
  return a - (float)(i - (a < (float)i));
}

// the byte offsets o of the 2x2 texels of a w x h RGB image around texel coordinates (x, y) in
// [0, w] x [0, h] (texel centers at +0.5), repeating (wrap) or clamped at the border, and the
// weights ax, ay of the right and lower ones in 1/256ths (so that the blend of the bytes stays
// in integers)
static inline void bilinearTaps(int w, int h, float x, float y, int wrap, int o[4], int* ax,
                                int* ay) {
  // 24.8 fixed point of (x - 0.5, y - 0.5), shifted by a texel so that the floor is a shift
  int fx = (int)((x + 0.5f) * 256), fy = (int)((y + 0.5f) * 256);
  int x0 = (fx >> 8) - 1, y0 = (fy >> 8) - 1, x1 = x0 + 1, y1 = y0 + 1;
  *ax = fx & 255, *ay = fy & 255;
  if (wrap) {
    x0 = x0 < 0 ? x0 + w : x0, x1 = x1 >= w ? x1 - w : x1;
    y0 = y0 < 0 ? y0 + h : y0, y1 = y1 >= h ? y1 - h : y1;
  } else {
    x0 = x0 < 0 ? 0 : x0, x1 = x1 >= w ? w - 1 : x1;
    y0 = y0 < 0 ? 0 : y0, y1 = y1 >= h ? h - 1 : y1;
  }
  o[0] = 3 * (y0 * w + x0), o[1] = 3 * (y0 * w + x1), o[2] = 3 * (y1 * w + x0);
  o[3] = 3 * (y1 * w + x1);
}

// the bilinear blend of one channel's bytes c00, c01 (top row), c10, c11 with the weights ax,
// ay of bilinearTaps, in [0, 1]
static inline float bilinearMix(int c00, int c01, int c10, int c11, int ax, int ay) {
  int top = c00 * (256 - ax) + c01 * ax, bot = c10 * (256 - ax) + c11 * ax;
  return (float)(top * (256 - ay) + bot * ay) * (1.0f / (255 * 65536));
}

// bilinear sample of an RGB image at texel coordinates (x, y) (bilinearTaps)
static void bilinear(const unsigned char* img, int w, int h, float x, float y, int wrap,
                     float out[3]) {
  int o[4], ax, ay;
  bilinearTaps(w, h, x, y, wrap, o, &ax, &ay);
  for (int k = 0; k < 3; k++)
    out[k] = bilinearMix(img[o[0] + k], img[o[1] + k], img[o[2] + k], img[o[3] + k], ax, ay);
}

// the pixels i0..i1-1 of a span minified (lod > 0): the nearest texel of the mip level
// nearest to each one's lod (a texel then covers no more than a pixel, so filtering within the
// level adds little); levels and offsets in a vector loop, then the bytes one by one
mjrINLINE void minifyRun(const mjrTexture* t, const float* u, const float* v, const float* lod,
                         int i0, int i1, mjrSpan* s) {
  const int top = t->nlevel - 1;
  for (int i = i0; i < i1; i++) {
    // level l's sides (halve's): max(side_0 >> l, 1)
    int l = (int)(lod[i] + 0.5f);
    l = l < top ? l : top;
    int w = t->lw[0] >> l, h = t->lh[0] >> l;
    w = w > 0 ? w : 1, h = h > 0 ? h : 1;
    int x = (int)(u[i] * w), y = (int)(v[i] * h);
    s->texlevel[i] = l;
    s->texel[i] = 3 * ((y < h ? y : h - 1) * w + (x < w ? x : w - 1));
  }
  for (int i = i0; i < i1; i++) {
    const unsigned char* q = t->level[s->texlevel[i]] + s->texel[i];
    for (int k = 0; k < 3; k++) s->base[k][i] = q[k] * (1.0f / 255);
  }
}

// the pixels i0..i1-1 of a span magnified (lod <= 0, the floor near the eye): bilinear in
// level 0 (bilinear's taps and blend), the taps in a vector loop, each channel's bytes one by
// one, its blends in a vector loop
mjrINLINE void magnifyRun(const mjrTexture* t, const float* u, const float* v, int i0, int i1,
                          mjrSpan* s) {
  const int w = t->lw[0], h = t->lh[0];
  const unsigned char* img = t->level[0];
  int o[4][mjrSPAN], ax[mjrSPAN], ay[mjrSPAN], q[4][mjrSPAN];
  for (int i = i0; i < i1; i++) {
    int oi[4];
    bilinearTaps(w, h, u[i] * w, v[i] * h, 1, oi, ax + i, ay + i);
    o[0][i] = oi[0], o[1][i] = oi[1], o[2][i] = oi[2], o[3][i] = oi[3];
  }
  for (int k = 0; k < 3; k++) {
    for (int i = i0; i < i1; i++)
      for (int j = 0; j < 4; j++) q[j][i] = img[o[j][i] + k];
    for (int i = i0; i < i1; i++)
      s->base[k][i] = bilinearMix(q[0][i], q[1][i], q[2][i], q[3][i], ax[i], ay[i]);
  }
}

// sample a cube texture in direction d (OpenGL's face selection and face coordinates; faces
// +X, -X, +Y, -Y, +Z, -Z with their top rows toward +Y, the +Y face's toward -Z)
static void sampleCube(const mjrTexture* t, const float d[3], float out[3]) {
  float ax = fabsf(d[0]), ay = fabsf(d[1]), az = fabsf(d[2]), sc, tc, ma;
  int f;
  if (ax >= ay && ax >= az) {
    f = d[0] > 0 ? 0 : 1, ma = ax, sc = d[0] > 0 ? -d[2] : d[2], tc = -d[1];
  } else if (ay >= az) {
    f = d[1] > 0 ? 2 : 3, ma = ay, sc = d[0], tc = d[1] > 0 ? d[2] : -d[2];
  } else {
    f = d[2] > 0 ? 4 : 5, ma = az, sc = d[2] > 0 ? d[0] : -d[0], tc = -d[1];
  }
  if (ma <= 0) {
    out[0] = out[1] = out[2] = 0;
    return;
  }
  int w = t->lw[0];
  const unsigned char* face = t->level[0] + (t->nface == 6 ? (size_t)3 * w * w * f : 0);
  bilinear(face, w, w, 0.5f * (sc / ma + 1) * w, 0.5f * (tc / ma + 1) * w, 0, out);
}

// ---- spans: surfaces ------------------------------------------------------------------------

// the visibility buffer's triangle, barycentrics (b0 = 1 - b1 - b2) and depth at each pixel of
// a span (a row's run as plain copies, the pixels of the mirror's spans one by one), and the
// span's runs of pixels on one triangle
static void gatherSpan(const mjrVisBuf* vis, mjrSpan* s) {
  const int n = s->n, j0 = s->pix[0];
  if (s->pix[n - 1] - j0 == n - 1)
    for (int i = 0; i < n; i++) {
      s->tri[i] = vis->tri[j0 + i], s->b1[i] = vis->b1[j0 + i], s->b2[i] = vis->b2[j0 + i];
      s->depth[i] = vis->depth[j0 + i];
    }
  else
    for (int i = 0; i < n; i++) {
      int j = s->pix[i];
      s->tri[i] = vis->tri[j], s->b1[i] = vis->b1[j], s->b2[i] = vis->b2[j];
      s->depth[i] = vis->depth[j];
    }
  for (int i = 0; i < n; i++) s->b0[i] = 1 - s->b1[i] - s->b2[i];
  // the runs of pixels on one triangle (the humanoid's cover a few pixels each): each pixel
  // stored as the next run's start, kept where its triangle changes (no branch to mispredict)
  int nrun = 1;
  s->run[0] = 0;
  for (int i = 1; i < n; i++) s->run[nrun] = i, nrun += s->tri[i] != s->tri[i - 1];
  s->run[nrun] = n;
  s->nrun = nrun;
}

// the surface at each pixel of a span seen in pass p: position, normal, uv interpolated at the
// barycentrics (1 - b1 - b2, b1, b2) of its triangle (a run of pixels on one triangle at a
// time), the unit normal turned toward the eye (two-sided lighting), the unit view direction
mjrVECTOR static void surfaceSpan(const mjrContext* c, const mjrPass* p, mjrSpan* s) {
  _Static_assert(sizeof(mjrVertex) == 8 * sizeof(float), "a vertex is 8 floats");
  float* out[8] = {s->pos[0], s->pos[1], s->pos[2], s->nrm[0], s->nrm[1], s->nrm[2],
                   s->uv[0], s->uv[1]};
  const int n = s->n;
  for (int r = 0; r < s->nrun; r++) {
    const int i = s->run[r], e = s->run[r + 1], t = s->tri[i];
    // attribute a = b0 a0 + b1 a1 + b2 a2 for pos, nrm, uv (a vertex's 8 floats)
    float a[3][8];
    for (int k = 0; k < 3; k++) memcpy(a[k], c->vert + c->tri[t].v[k], sizeof(a[k]));
    for (int k = 0; k < 8; k++) {
      const float a0 = a[0][k], a1 = a[1][k], a2 = a[2][k];
      float* o = out[k];
      for (int j = i; j < e; j++) o[j] = s->b0[j] * a0 + s->b1[j] * a1 + s->b2[j] * a2;
    }
  }

  // unit normals and view directions (orthographic: the reversed axis), n.v >= 0
  const float ex = p->eye[0], ey = p->eye[1], ez = p->eye[2];
  const float ox = -p->axis[6], oy = -p->axis[7], oz = -p->axis[8];
  const int ortho = p->ortho;
  for (int i = 0; i < n; i++) {
    float nx = s->nrm[0][i], ny = s->nrm[1][i], nz = s->nrm[2][i];
    float nn = nx * nx + ny * ny + nz * nz, ni = nn > 0 ? mjr_rsqrt(nn) : 1;
    nx *= ni, ny *= ni, nz *= ni;
    float vx = ex - s->pos[0][i], vy = ey - s->pos[1][i], vz = ez - s->pos[2][i];
    float vv = vx * vx + vy * vy + vz * vz, vi = vv > 0 ? mjr_rsqrt(vv) : 1;
    vx = ortho ? ox : vx * vi, vy = ortho ? oy : vy * vi, vz = ortho ? oz : vz * vi;
    float sg = nx * vx + ny * vy + nz * vz < 0 ? -1.0f : 1.0f;
    s->nrm[0][i] = sg * nx, s->nrm[1][i] = sg * ny, s->nrm[2][i] = sg * nz;
    s->view[0][i] = vx, s->view[1][i] = vy, s->view[2][i] = vz;
  }
}

// the texture color of each pixel of a span (1 without a texture; OpenGL's GL_MODULATE
// multiplies the interpolated vertex color by it).  The texture is looked up at the mesh texcoords, or at the local position mapped as MuJoCo maps 2d
// textures (per meter with texuniform, else across the object's size) or cube textures (the
// direction from the frame origin); 2d levels chosen from the pixel's footprint.  The
// vertices' uv hold their local x, y when the mesh has no texcoords: on a flat triangle the
// interpolated uv is the point's local x, y.  Coordinates in vector loops, texels one by one
mjrVECTOR static void baseSpan(const mjrContext* c, const mjrPass* p, mjrSpan* s) {
  const mjrItem* it = s->it;
  const int n = s->n;
  if (it->texid < 0) {
    for (int k = 0; k < 3; k++)
      for (int i = 0; i < n; i++) s->base[k][i] = 1;
    return;
  }
  const mjrTexture* t = c->tex + it->texid;
  if (t->type != mjTEXTURE_2D) {
    for (int i = 0; i < n; i++) {
      // local = mat' (pos - item pos), per size unless uniform
      float d[3] = {s->pos[0][i] - it->pos[0], s->pos[1][i] - it->pos[1],
                    s->pos[2][i] - it->pos[2]};
      float loc[3] = {it->mat[0] * d[0] + it->mat[3] * d[1] + it->mat[6] * d[2],
                      it->mat[1] * d[0] + it->mat[4] * d[1] + it->mat[7] * d[2],
                      it->mat[2] * d[0] + it->mat[5] * d[1] + it->mat[8] * d[2]};
      if (!it->texuniform)
        for (int k = 0; k < 3; k++) loc[k] /= it->size[k] > 0 ? it->size[k] : 1;
      float tc[3];
      sampleCube(t, loc, tc);
      for (int k = 0; k < 3; k++) s->base[k][i] = tc[k];
    }
    return;
  }

  // 2d: mesh texcoords at level 0, else repetitions (mjrItem's texperm, texoff) and the
  // level from a pixel's footprint in texels, (depth / f) / |cos| meters times texels per meter
  // (texdensity)
  float *u = s->tmp[0], *v = s->tmp[1], *lod = s->tmp[2];
  const float pu = it->texperm[0], pv = it->texperm[1], ou = it->texoff[0], ov = it->texoff[1];
  const float sy = p->sy, dens = it->texdensity;
  const int ortho = p->ortho;
  if (it->hasuv)
    for (int i = 0; i < n; i++) u[i] = fract(s->uv[0][i]), v[i] = fract(s->uv[1][i]), lod[i] = 0;
  else
    for (int i = 0; i < n; i++) {
      float cosv = fabsf(s->nrm[0][i] * s->view[0][i] + s->nrm[1][i] * s->view[1][i]
                         + s->nrm[2][i] * s->view[2][i]);
      float z = s->depth[i];
      float meters = (ortho ? 1 : z) / sy / (cosv > 0.02f ? cosv : 0.02f);
      float texels = meters * dens, l2 = mjr_log2(texels);
      u[i] = fract(s->uv[0][i] * pu + ou), v[i] = fract(s->uv[1][i] * pv + ov);
      lod[i] = texels > 1 ? l2 : 0;
    }

  // runs of minified and of magnified pixels (a span is one run but where the floor's
  // footprint crosses a texel a pixel)
  for (int i = 0; i < n;) {
    int mag = lod[i] <= 0, e = i + 1;
    while (e < n && (lod[e] <= 0) == mag) e++;
    if (mag) magnifyRun(t, u, v, i, e, s);
    else minifyRun(t, u, v, lod, i, e, s);
    i = e;
  }
}

// ---- spans: lights ----------------------------------------------------------------------------

// out = x^e for each x in [0, 1] of n (0 where x <= 0): by repeated squaring for whole exponents
// up to 255 (the usual case: 10, 64; the eight bits' steps unrolled, each a multiply chosen by
// the bit), else through log2 and exp2 (to about 1%)
mjrVECTOR static void powSpan(const float* x, float e, int n, float* out) {
  int k = (int)e;
  if (k != e || k < 0 || k > 255) {
    for (int i = 0; i < n; i++) {
      float y = mjr_exp2(e * mjr_log2(x[i]));
      out[i] = x[i] > 0 ? y : 0;
    }
    return;
  }
  for (int i = 0; i < n; i++) {
    float r = 1, q = x[i];
    for (int b = 0; b < 8; b++, q *= q) r = k >> b & 1 ? r * q : r;
    out[i] = x[i] > 0 ? r : 0;
  }
}

// light l at each point of a span: the unit direction L to it and the factor f = attenuation
// 1 / (a0 + a1 d + a2 d^2) times the spot's (L.-dir)^exponent, 0 outside the cone; directional
// lights: L = -dir, f = 1.  0 when the whole span is outside a spot's cone (the light adds
// nothing there), else 1
mjrVECTOR static int lightDirSpan(const mjrLight* l, mjrSpan* s) {
  const int n = s->n;
  const float dx = l->dir[0], dy = l->dir[1], dz = l->dir[2];
  if (l->directional) {
    for (int i = 0; i < n; i++) s->L[0][i] = -dx, s->L[1][i] = -dy, s->L[2][i] = -dz, s->f[i] = 1;
    return 1;
  }
  const float lx = l->pos[0], ly = l->pos[1], lz = l->pos[2];
  const float a0 = l->att[0], a1 = l->att[1], a2 = l->att[2], invatt = l->invatt;
  const int constatt = l->constatt;
  float* sc = s->tmp[1];
  for (int i = 0; i < n; i++) {
    float x = lx - s->pos[0][i], y = ly - s->pos[1][i], z = lz - s->pos[2][i];
    float d2 = x * x + y * y + z * z, inv = d2 > 0 ? mjr_rsqrt(d2) : 0, dist = d2 * inv;
    x *= inv, y *= inv, z *= inv;
    s->L[0][i] = x, s->L[1][i] = y, s->L[2][i] = z;
    float att = 1 / (a0 + a1 * dist + a2 * dist * dist);
    s->f[i] = constatt ? invatt : att;
    sc[i] = -(x * dx + y * dy + z * dz);
  }
  if (!l->spot) return 1;
  float* w = s->tmp[2];
  const float cut = l->cutcos;
  int inside = 0;
  for (int i = 0; i < n; i++) inside |= sc[i] >= cut;
  if (!inside) return 0;
  powSpan(sc, l->exponent, n, w);
  for (int i = 0; i < n; i++) {
    float fw = s->f[i] * w[i];
    s->f[i] = sc[i] < cut ? 0 : fw;
  }
  return 1;
}

// the specular factor of light l at each point of a span into spec:
// lit specular max(n.h, 0)^shininess with h the unit half vector of L and the view, 0 where
// n.h is at most the item's specmin (the highlight under 1/1024)
mjrVECTOR static void specSpan(const mjrItem* it, mjrSpan* s, float* spec) {
  const int n = s->n;
  const float specmin = it->specmin, spec0 = it->specular;
  float *ndh = s->tmp[1], *pw = s->tmp[2];
  for (int i = 0; i < n; i++) {
    float hx = s->L[0][i] + s->view[0][i], hy = s->L[1][i] + s->view[1][i];
    float hz = s->L[2][i] + s->view[2][i];
    float hh = hx * hx + hy * hy + hz * hz, hi = hh > 0 ? mjr_rsqrt(hh) : 1;
    hx *= hi, hy *= hi, hz *= hi;
    ndh[i] = s->nrm[0][i] * hx + s->nrm[1][i] * hy + s->nrm[2][i] * hz;
  }

  // no highlight anywhere in the span: no powers
  int any = 0;
  for (int i = 0; i < n; i++) any |= ndh[i] > specmin;
  if (!any) {
    for (int i = 0; i < n; i++) spec[i] = 0;
    return;
  }
  powSpan(ndh, it->shininess, n, pw);
  for (int i = 0; i < n; i++) {
    float sp = s->lit[i] * spec0 * pw[i];
    spec[i] = ndh[i] > specmin ? sp : 0;
  }
}

// OpenGL's fixed-function color of each vertex of a span (material color base, normal nrm,
// direction to the eye view) in parts: part 0 emission base + the global ambient (0.3 base when
// there is no light) + the lights without a shadow map, part 1 + k the light of shadow map k
// (with split; else every light in part 0), each light adding f (ambient base + diffuse base
// max(n.l, 0) + specular spec); each part clamped to [0, 1] as OpenGL clamps a vertex's color
// (MuJoCo draws each shadow-mapped light in a pass of its own, added to the image)
mjrVECTOR static void lightSpan(const mjrContext* c, mjrSpan* s, int split) {
  const mjrItem* it = s->it;
  const int n = s->n, nparts = split ? c->ncolor : 1;
  const float em = it->emission + (c->nlight ? 0 : 0.3f);
  for (int k = 0; k < 3; k++) {
    for (int i = 0; i < n; i++) s->lcol[0][k][i] = em * s->base[k][i];
    for (int j = 1; j < nparts; j++)
      for (int i = 0; i < n; i++) s->lcol[j][k][i] = 0;
  }
  for (int li = 0; li < c->nlight; li++) {
    const mjrLight* l = c->light + li;
    if (!lightDirSpan(l, s)) continue;
    for (int i = 0; i < n; i++) {
      s->ndl[i] = s->nrm[0][i] * s->L[0][i] + s->nrm[1][i] * s->L[1][i]
                + s->nrm[2][i] * s->L[2][i];
      s->lit[i] = s->ndl[i] > 0;
    }
    float* spec = s->tmp[0];
    if (it->specular > 0 && l->hasspec) specSpan(it, s, spec);
    else
      for (int i = 0; i < n; i++) spec[i] = 0;

    // the sums, into the light's part
    float(*part)[mjrSPAN] = s->lcol[split && l->shadow >= 0 ? 1 + l->shadow : 0];
    for (int k = 0; k < 3; k++) {
      const float am = l->ambient[k], df = l->diffuse[k], sp = l->specular[k];
      float *col = part[k], *base = s->base[k];
      for (int i = 0; i < n; i++) {
        float diff = s->ndl[i] > 0 ? s->ndl[i] : 0;
        col[i] += s->f[i] * ((am + df * diff) * base[i] + sp * spec[i]);
      }
    }
  }
  for (int j = 0; j < nparts; j++)
    for (int k = 0; k < 3; k++)
      for (int i = 0; i < n; i++) {
        float v = s->lcol[j][k][i];
        s->lcol[j][k][i] = v < 0 ? 0 : v > 1 ? 1 : v;
      }
}

// the lit colors of the scene's vertices seen from pass p into c->vcol: each item's vertices
// in spans, viewed from p's eye (OpenGL's local viewer; no two-sided lighting: the normals as
// they are).  The mirrored view's colors in one part with the material colors times the
// mirror's reflectance, as MuJoCo draws reflections (every light on, none shadowed)
void mjr_lightVertices(mjrContext* c, const mjrPass* p) {
  const int nc = 3 * c->ncolor, off = p->mirror ? nc : 0, ortho = p->ortho;
  const float scale = p->mirror ? c->item[c->mirrorItem].reflectance : 1;
  const float ex = p->eye[0], ey = p->eye[1], ez = p->eye[2];
  mjrSpan s;
  for (int it = 0; it < c->nitem; it++) {
    s.it = c->item + it;
    const int v1 = s.it->vert0 + s.it->nvert;
    for (int v0 = s.it->vert0; v0 < v1; v0 += mjrSPAN) {
      s.n = v1 - v0 < mjrSPAN ? v1 - v0 : mjrSPAN;
      for (int i = 0; i < s.n; i++) {
        // position, normal, unit direction to the eye (orthographic: the reversed axis)
        const mjrVertex* v = c->vert + v0 + i;
        float d[3] = {ex - v->pos[0], ey - v->pos[1], ez - v->pos[2]};
        if (ortho)
          for (int k = 0; k < 3; k++) d[k] = -p->axis[6 + k];
        mjr_normalize3(d);
        for (int k = 0; k < 3; k++) {
          s.pos[k][i] = v->pos[k], s.nrm[k][i] = v->nrm[k], s.view[k][i] = d[k];
          s.base[k][i] = scale * s.it->rgba[k];
        }
      }
      lightSpan(c, &s, !p->mirror);
      for (int i = 0; i < s.n; i++) {
        float* out = c->vcol + (size_t)2 * nc * (v0 + i) + off;
        for (int j = 0; j < (p->mirror ? 1 : c->ncolor); j++)
          for (int k = 0; k < 3; k++) out[3 * j + k] = s.lcol[j][k][i];
      }
    }
  }
}

// the color of each pixel of a span seen in pass p: its vertices' colors interpolated at the
// (perspective-correct) barycentrics as OpenGL's smooth shading does, a run of pixels on one
// triangle at a time; part 0 plus each shadow-mapped light's part times the light's
// visibility at the pixel (1: lit; the map's test for every pixel, MuJoCo's shadow pass
// drops the light's ambient too), times the texture color (GL_MODULATE)
mjrVECTOR static void colorSpan(const mjrContext* c, const mjrPass* p, mjrSpan* s) {
  const int nc = 3 * c->ncolor, off = p->mirror ? nc : 0, n = s->n;
  const int nparts = p->mirror ? 1 : 1 + c->nshadow;
  for (int r = 0; r < s->nrun; r++) {
    const int i = s->run[r], e = s->run[r + 1], t = s->tri[i];
    const float* a[3];
    for (int v = 0; v < 3; v++) a[v] = c->vcol + (size_t)2 * nc * c->tri[t].v[v] + off;
    for (int j = 0; j < nparts; j++)
      for (int k = 0; k < 3; k++) {
        const float a0 = a[0][3 * j + k], a1 = a[1][3 * j + k], a2 = a[2][3 * j + k];
        float* o = s->lcol[j][k];
        for (int q = i; q < e; q++) o[q] = s->b0[q] * a0 + s->b1[q] * a1 + s->b2[q] * a2;
      }
  }
  for (int j = 1; j < nparts; j++) {
    for (int i = 0; i < n; i++) s->ndl[i] = 1;
    mjr_shadowSpan(c->shadow + j - 1, s);
    for (int k = 0; k < 3; k++)
      for (int i = 0; i < n; i++) s->lcol[0][k][i] += s->lit[i] * s->lcol[j][k][i];
  }
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < n; i++) s->col[k][i] = s->base[k][i] * s->lcol[0][k][i];
}

// the lit colors of a span of pixels of visibility buffer vis seen in pass p (before the
// reflection, fog and haze)
mjrVECTOR static void shadeSpan(const mjrContext* c, const mjrPass* p, const mjrVisBuf* vis,
                                 mjrSpan* s) {
  gatherSpan(vis, s);
  surfaceSpan(c, p, s);
  baseSpan(c, p, s);
  colorSpan(c, p, s);
}

// ---- background, fog, haze -------------------------------------------------------------------

// the world direction of the ray through pixel (x, y) of pass p (x, y at pixel centers)
static void rayDir(const mjrPass* p, float x, float y, float d[3]) {
  float a = (x - p->cx) / p->sx, b = (p->cy - y) / p->sy;
  if (p->ortho) a = b = 0;
  for (int k = 0; k < 3; k++) d[k] = p->axis[6 + k] + a * p->axis[k] + b * p->axis[3 + k];
  mjr_normalize3(d);
}

// what a ray meeting nothing sees: the skybox (its +Y toward world +Z) with the haze color
// near the horizon, the fog color, or black
static void background(const mjrContext* c, const mjModel* m, const float d[3], float out[3]) {
  if (c->opt.skybox && c->skybox >= 0) {
    float td[3] = {d[0], d[2], -d[1]};
    sampleCube(c->tex + c->skybox, td, out);
    float haze = m->vis.map_haze, w = haze > 0 ? 1 - fabsf(d[2]) / haze : 0;
    if (c->opt.haze && c->skyHaze && w > 0)
      for (int k = 0; k < 3; k++) out[k] += w * w * (m->vis.rgba_haze[k] - out[k]);
    return;
  }
  for (int k = 0; k < 3; k++) out[k] = c->opt.fog ? m->vis.rgba_fog[k] : 0;
}

// OpenGL's linear fog between fogstart and fogend (times the extent) over a span's colors;
// infinite planes also fade into the haze color over the last `haze` fraction of the far
// distance
mjrVECTOR static void fogSpan(const mjrContext* c, const mjModel* m, mjrSpan* s) {
  const int n = s->n;
  if (c->opt.fog) {
    float ext = (float)m->stat.extent;
    float z0 = m->vis.map_fogstart * ext, z1 = m->vis.map_fogend * ext;
    for (int k = 0; k < 3; k++) {
      const float fog = m->vis.rgba_fog[k];
      for (int i = 0; i < n; i++) {
        float f = z1 > z0 ? (z1 - s->depth[i]) / (z1 - z0) : 1;
        f = f < 0 ? 0 : f > 1 ? 1 : f;
        s->col[k][i] = f * s->col[k][i] + (1 - f) * fog;
      }
    }
  }
  if (c->opt.haze && s->it->infinite && c->skybox >= 0 && c->opt.skybox) {
    float zf = c->cam.zfar, h = m->vis.map_haze * zf;
    for (int k = 0; k < 3; k++) {
      const float haze = m->vis.rgba_haze[k];
      for (int i = 0; i < n; i++) {
        float w = h > 0 ? (s->depth[i] - (zf - h)) / h : 0;
        w = w < 0 ? 0 : w > 1 ? 1 : w;
        s->col[k][i] += w * (haze - s->col[k][i]);
      }
    }
  }
}

// ---- the opaque image ------------------------------------------------------------------------

// the pixels of vis from i on (before end) that show item, at most a span, into s; the pixel
// after them
static int takeRun(const mjrContext* c, const mjrVisBuf* vis, int i, int end, int item,
                   mjrSpan* s) {
  s->n = 0;
  s->it = c->item + item;
  for (int last = -1; i < end && s->n < mjrSPAN; i++) {
    // (the item looked up only when the triangle changes)
    int t = vis->tri[i];
    if (t != last && (t < 0 || c->tri[t].item != item)) break;
    last = t;
    s->pix[s->n++] = i;
  }
  return i;
}

// a span's colors into the image: alpha color + (1 - alpha) behind (alpha 1: replaced)
mjrVECTOR static void putSpan(mjrContext* c, const mjrSpan* s, float a) {
  // (takeRun's spans: consecutive pixels from pix[0] on)
  float* dst = c->color + 3 * s->pix[0];
  const int n = s->n;
  if (a >= 1)
    for (int i = 0; i < n; i++)
      dst[3 * i] = s->col[0][i], dst[3 * i + 1] = s->col[1][i], dst[3 * i + 2] = s->col[2][i];
  else
    for (int i = 0; i < n; i++)
      for (int k = 0; k < 3; k++) dst[3 * i + k] = a * s->col[k][i] + (1 - a) * dst[3 * i + k];
}

// add the mirrored view to a span of the reflective plane, as MuJoCo's renderer does (the
// mirrored items drawn first with their colors times the reflectance, the plane added over
// them at full color): plane + mirror (its vertex colors hold the reflectance), the mirror's surfaces shaded in spans of
// one item (ms), nothing where the mirrored view sees nothing
mjrVECTOR static void reflectSpan(const mjrContext* c, mjrSpan* s, mjrSpan* ms) {
  const mjrVisBuf* mv = &c->mvis;
  float(*mc)[mjrSPAN] = s->tmp;
  int slot[mjrSPAN];
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < s->n; i++) mc[k][i] = 0;
  for (int i = 0; i < s->n;) {
    int t = mv->tri[s->pix[i]];
    if (t < 0) {
      i++;
      continue;
    }
    // the next pixels whose mirrored view shows the same item (those seeing nothing skipped)
    int item = c->tri[t].item;
    ms->n = 0;
    ms->it = c->item + item;
    for (; i < s->n; i++) {
      int mt = mv->tri[s->pix[i]];
      if (mt >= 0 && c->tri[mt].item != item) break;
      if (mt >= 0) slot[ms->n] = i, ms->pix[ms->n++] = s->pix[i];
    }
    shadeSpan(c, &c->mirrorPass, mv, ms);
    for (int k = 0; k < 3; k++)
      for (int j = 0; j < ms->n; j++) mc[k][slot[j]] = ms->col[k][j];
  }
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < s->n; i++) s->col[k][i] += mc[k][i];
}

// shade the camera's visibility buffer into c->color, span by span of pixels of one item along
// each row (the background pixel by pixel); on the reflective plane, the mirrored view blended
// in, then fog and haze
mjrVECTOR void mjr_shadeOpaque(mjrContext* c, const mjModel* m) {
  const mjrPass* p = &c->cam;
  mjrSpan s, ms;
  for (int y = 0; y < c->H; y++) {
    int end = (y + 1) * c->W;
    for (int i = y * c->W; i < end;) {
      int t = c->vis.tri[i];
      if (t < 0) {
        float d[3];
        rayDir(p, i - y * c->W + 0.5f, y + 0.5f, d);
        background(c, m, d, c->color + 3 * i);
        i++;
        continue;
      }
      int item = c->tri[t].item;
      i = takeRun(c, &c->vis, i, end, item, &s);
      shadeSpan(c, p, &c->vis, &s);
      if (item == c->mirrorItem) reflectSpan(c, &s, &ms);
      fogSpan(c, m, &s);
      putSpan(c, &s, 1);
    }
  }
}

// ---- transparency ---------------------------------------------------------------------------

// ascending order of keys (insertion sort: a frame has few transparent items)
static void sortByKey(int* idx, const float* key, int n) {
  for (int i = 1; i < n; i++) {
    int v = idx[i], j = i - 1;
    while (j >= 0 && key[v] < key[idx[j]]) idx[j + 1] = idx[j], j--;
    idx[j + 1] = v;
  }
}

// the pixel rectangle an item covers in the camera's projection (the whole image when a vertex
// is behind the eye); 0 when empty
static int itemRect(const mjrContext* c, const mjrItem* it, int r[4]) {
  float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
  for (int t = it->tri0; t < it->tri0 + it->ntri; t++)
    for (int k = 0; k < 3; k++) {
      const mjrProj* q = c->proj + c->tri[t].v[k];
      if (q->zv < c->cam.znear) {
        x0 = y0 = 0, x1 = (float)c->W, y1 = (float)c->H;
        t = it->tri0 + it->ntri;
        break;
      }
      x0 = fminf(x0, q->sx), x1 = fmaxf(x1, q->sx), y0 = fminf(y0, q->sy), y1 = fmaxf(y1, q->sy);
    }
  r[0] = x0 < 0 ? 0 : (int)x0, r[1] = y0 < 0 ? 0 : (int)y0;
  r[2] = x1 >= c->W ? c->W - 1 : (int)x1, r[3] = y1 >= c->H ? c->H - 1 : (int)y1;
  return r[0] <= r[2] && r[1] <= r[3];
}

// transparent items from the farthest to the nearest: each one's nearest surface (back faces of
// closed shapes culled), depth-tested against the opaque image, shaded in spans along its rows
// and blended as alpha color + (1 - alpha) behind; the mirrored view's buffer serves as scratch
mjrVECTOR void mjr_drawTransparent(mjrContext* c, const mjModel* m) {
  int n = 0;
  for (int i = 0; i < c->nitem; i++) {
    const mjrItem* it = c->item + i;
    if (it->rgba[3] >= 1 || !it->ntri) continue;
    float d[3] = {it->center[0] - c->cam.eye[0], it->center[1] - c->cam.eye[1],
                  it->center[2] - c->cam.eye[2]};
    c->itemdepth[i] = -mjr_dot3(c->cam.axis + 6, d);
    c->order[n++] = i;
  }
  sortByKey(c->order, c->itemdepth, n);
  mjrSpan s;
  for (int k = 0; k < n; k++) {
    int i = c->order[k], r[4];
    const mjrItem* it = c->item + i;
    if (!itemRect(c, it, r)) continue;
    for (int y = r[1]; y <= r[3]; y++)
      for (int x = r[0]; x <= r[2]; x++) {
        int j = y * c->W + x;
        c->mvis.depth[j] = c->vis.depth[j];
        c->mvis.tri[j] = -1;
      }
    mjr_rasterItems(c, &c->cam, &i, 1, &c->mvis, c->opt.cull);
    for (int y = r[1]; y <= r[3]; y++) {
      int end = y * c->W + r[2] + 1;
      for (int j = y * c->W + r[0]; j < end;) {
        if (c->mvis.tri[j] < 0) {
          j++;
          continue;
        }
        j = takeRun(c, &c->mvis, j, end, i, &s);
        shadeSpan(c, &c->cam, &c->mvis, &s);
        fogSpan(c, m, &s);
        putSpan(c, &s, it->rgba[3]);
      }
    }
  }
}

// ---- output ---------------------------------------------------------------------------------

// a linear color in [0, 1] (clamped) times 255, rounded to a byte: y = 255 v + 0.5 clamped to
// [0, 255] on its bits as an integer (floats of the sign bit 0 order as their bits, negative ones
// are negative integers), which vector loops compare in one instruction where float selects
// keep NaN's order; through int (SSE2 converts floats to 32-bit integers only)
static inline unsigned char toByte(float v) {
  const int32_t top = 0x437f0000;  // 255.0f
  float y = v * 255 + 0.5f;
  int32_t b;
  memcpy(&b, &y, sizeof(b));
  b = b < 0 ? 0 : b < top ? b : top;
  memcpy(&y, &b, sizeof(y));
  return (unsigned char)(int)y;
}

// the output pixel (x, y): the mean of its samples x samples block, clamped to [0, 1], in bytes
// (one sample: each color converted on its own, in one loop)
mjrVECTOR void mjr_resolve(mjrContext* c) {
  int s = c->opt.samples, w = c->opt.width, h = c->opt.height;
  if (s == 1) {
    size_t n = (size_t)3 * w * h;
    const float* color = c->color;
    unsigned char* rgb = c->rgb;
    for (size_t i = 0; i < n; i++) rgb[i] = toByte(color[i]);
    return;
  }
  float scl = 255.0f / (s * s);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float sum[3] = {0, 0, 0};
      for (int sy = 0; sy < s; sy++) {
        const float* row = c->color + 3 * ((size_t)(y * s + sy) * c->W + x * s);
        for (int sx = 0; sx < s; sx++)
          for (int k = 0; k < 3; k++) {
            float v = row[3 * sx + k];
            sum[k] += v < 0 ? 0 : v > 1 ? 1 : v;
          }
      }
      unsigned char* o = c->rgb + 3 * ((size_t)y * w + x);
      for (int k = 0; k < 3; k++) o[k] = (unsigned char)(sum[k] * scl + 0.5f);
    }
}
