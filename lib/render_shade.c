// render_shade.c: per-pixel shading of the visibility buffer: materials and textures (2d with
// mip levels, cube), OpenGL's fixed-function lighting per pixel (Blinn-Phong), shadows, the
// planar reflection, fog and haze, the skybox, transparent items back to front, and the final
// average of the supersamples into 8-bit RGB.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_scene.h"

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

// x - floor(x), without a library call: floats of magnitude 2^23 and more (and NaN) are whole
static inline float fract(float x) {
  if (!(fabsf(x) < 8388608.0f)) return 0;
  int i = (int)x;
  return x - (float)(i - (x < (float)i));
}

// bilinear sample of an RGB image at texel coordinates (x, y) in [0, w] x [0, h] (texel
// centers at +0.5), repeating (wrap) or clamped at the border; the weights in 1/256ths so that
// the blend of the bytes stays in integers
static void bilinear(const unsigned char* img, int w, int h, float x, float y, int wrap,
                     float out[3]) {
  // 24.8 fixed point of (x - 0.5, y - 0.5), shifted by a texel so that the floor is a shift
  int fx = (int)((x + 0.5f) * 256), fy = (int)((y + 0.5f) * 256);
  int x0 = (fx >> 8) - 1, y0 = (fy >> 8) - 1, x1 = x0 + 1, y1 = y0 + 1;
  int ax = fx & 255, ay = fy & 255;
  if (wrap) {
    x0 = x0 < 0 ? x0 + w : x0, x1 = x1 >= w ? x1 - w : x1;
    y0 = y0 < 0 ? y0 + h : y0, y1 = y1 >= h ? y1 - h : y1;
  } else {
    x0 = x0 < 0 ? 0 : x0, x1 = x1 >= w ? w - 1 : x1;
    y0 = y0 < 0 ? 0 : y0, y1 = y1 >= h ? h - 1 : y1;
  }
  const unsigned char *p00 = img + 3 * (y0 * w + x0), *p01 = img + 3 * (y0 * w + x1);
  const unsigned char *p10 = img + 3 * (y1 * w + x0), *p11 = img + 3 * (y1 * w + x1);
  for (int k = 0; k < 3; k++) {
    int top = p00[k] * (256 - ax) + p01[k] * ax, bot = p10[k] * (256 - ax) + p11[k] * ax;
    out[k] = (float)(top * (256 - ay) + bot * ay) * (1.0f / (255 * 65536));
  }
}

// sample a 2d texture at (u, v) in repetitions: magnified (lod <= 0) bilinear in level 0,
// minified the nearest texel of the mip level nearest to lod (a texel then covers no more
// than a pixel, so filtering within the level adds little)
static void sample2d(const mjrTexture* t, float u, float v, float lod, float out[3]) {
  // wrap into [0, 1) first so that large coordinates keep their float precision
  u = fract(u), v = fract(v);
  if (lod <= 0) {
    bilinear(t->level[0], t->lw[0], t->lh[0], u * t->lw[0], v * t->lh[0], 1, out);
    return;
  }
  int l = (int)(lod + 0.5f);
  l = l < t->nlevel ? l : t->nlevel - 1;
  int w = t->lw[l], h = t->lh[l], x = (int)(u * w), y = (int)(v * h);
  const unsigned char* p = t->level[l] + 3 * ((y < h ? y : h - 1) * w + (x < w ? x : w - 1));
  for (int k = 0; k < 3; k++) out[k] = p[k] * (1.0f / 255);
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

// ---- surfaces --------------------------------------------------------------------------------

// a surface point of the visibility buffer: position, normal (toward the eye), view direction
typedef struct {
  float pos[3], nrm[3], view[3], uv[2];
  float depth;
  const mjrItem* it;
} Surface;

// reconstruct the surface at barycentrics (1 - b1 - b2, b1, b2) of triangle t seen in pass p
// (the vertices are read before any store into s)
static void surfaceAt(const mjrContext* c, const mjrPass* p, int t, float b1, float b2,
                      float depth, Surface* s) {
  const mjrTri* tr = c->tri + t;
  const mjrVertex *v0 = c->vert + tr->v[0], *v1 = c->vert + tr->v[1], *v2 = c->vert + tr->v[2];
  float b0 = 1 - b1 - b2, pos[3], nrm[3], view[3];
  for (int k = 0; k < 3; k++) {
    pos[k] = b0 * v0->pos[k] + b1 * v1->pos[k] + b2 * v2->pos[k];
    nrm[k] = b0 * v0->nrm[k] + b1 * v1->nrm[k] + b2 * v2->nrm[k];
  }
  s->uv[0] = b0 * v0->uv[0] + b1 * v1->uv[0] + b2 * v2->uv[0];
  s->uv[1] = b0 * v0->uv[1] + b1 * v1->uv[1] + b2 * v2->uv[1];
  mjr_normalize3(nrm);
  if (p->ortho) {
    for (int k = 0; k < 3; k++) view[k] = -p->axis[6 + k];
  } else {
    for (int k = 0; k < 3; k++) view[k] = p->eye[k] - pos[k];
    mjr_normalize3(view);
  }
  // two-sided lighting: the normal turned toward the viewer
  float sg = mjr_dot3(nrm, view) < 0 ? -1.0f : 1.0f;
  for (int k = 0; k < 3; k++) s->pos[k] = pos[k], s->nrm[k] = sg * nrm[k], s->view[k] = view[k];
  s->depth = depth;
  s->it = c->item + tr->item;
}

// the texture color at a surface point: mesh texcoords, or the local position mapped as MuJoCo
// maps 2d textures (per meter with texuniform, else across the object's size) or cube textures
// (the direction from the frame origin); 2d levels chosen from the pixel's footprint.  The
// vertices' uv hold their local x, y when the mesh has no texcoords: on a flat triangle the
// interpolated uv is the point's local x, y
static void texColor(const mjrContext* c, const mjrPass* p, const Surface* s, float out[3]) {
  const mjrItem* it = s->it;
  const mjrTexture* t = c->tex + it->texid;
  if (t->type != mjTEXTURE_2D) {
    // local = mat' (pos - item pos)
    float d[3] = {s->pos[0] - it->pos[0], s->pos[1] - it->pos[1], s->pos[2] - it->pos[2]};
    float loc[3] = {it->mat[0] * d[0] + it->mat[3] * d[1] + it->mat[6] * d[2],
                    it->mat[1] * d[0] + it->mat[4] * d[1] + it->mat[7] * d[2],
                    it->mat[2] * d[0] + it->mat[5] * d[1] + it->mat[8] * d[2]};
    if (!it->texuniform)
      for (int k = 0; k < 3; k++) loc[k] /= it->size[k] > 0 ? it->size[k] : 1;
    sampleCube(t, loc, out);
    return;
  }
  if (it->hasuv) {
    sample2d(t, s->uv[0], s->uv[1], 0, out);
    return;
  }

  // repetitions and the texels a meter spans (mjrItem's texperm, texoff, texdensity)
  float u = s->uv[0] * it->texperm[0] + it->texoff[0];
  float v = s->uv[1] * it->texperm[1] + it->texoff[1];

  // footprint of a pixel in texels: (depth / f) / |cos| meters times texels per meter
  float cosv = fabsf(mjr_dot3(s->nrm, s->view));
  float meters = (p->ortho ? 1 : s->depth) / p->sy / (cosv > 0.02f ? cosv : 0.02f);
  float texels = meters * it->texdensity;
  sample2d(t, u, v, texels > 1 ? mjr_log2(texels) : 0, out);
}

// x^e for x in [0, 1] (specular highlights, spot falloff): by repeated squaring for whole
// exponents up to 255 (the usual case: 10, 64), else through log2 and exp2 (to about 1%)
static inline float powUnit(float x, float e) {
  if (x <= 0) return 0;
  int n = (int)e;
  if (n != e || n > 255) return mjr_exp2(e * mjr_log2(x));
  float r = 1;
  for (; n; n >>= 1, x *= x)
    if (n & 1) r *= x;
  return r;
}

// OpenGL's fixed-function color of a surface point: emission + sum over lights of
// att spot (ambient + diffuse max(n.l, 0) + specular max(n.h, 0)^shininess), diffuse and
// specular scaled by the light's shadow factor; the ambient and diffuse material colors are the
// base color, the specular one is white x specular.  Sums in locals: a store to out could alias
// the lights' floats and would make the compiler reload them
static void lightSurface(const mjrContext* c, const Surface* s, const float base[3],
                         float out[3]) {
  const mjrItem* it = s->it;
  const float nx = s->nrm[0], ny = s->nrm[1], nz = s->nrm[2];
  const float px = s->pos[0], py = s->pos[1], pz = s->pos[2];
  const float spec0 = it->specular, specmin = it->specmin, shin = it->shininess;
  float r = it->emission * base[0], g = it->emission * base[1], b = it->emission * base[2];
  for (int i = 0; i < c->nlight; i++) {
    const mjrLight* l = c->light + i;
    float L[3], f = 1;
    if (l->directional) {
      L[0] = -l->dir[0], L[1] = -l->dir[1], L[2] = -l->dir[2];
    } else {
      L[0] = l->pos[0] - px, L[1] = l->pos[1] - py, L[2] = l->pos[2] - pz;
      float d2 = mjr_dot3(L, L), inv = d2 > 0 ? mjr_rsqrt(d2) : 0, dist = d2 * inv;
      L[0] *= inv, L[1] *= inv, L[2] *= inv;
      f = l->constatt ? l->invatt : 1 / (l->att[0] + l->att[1] * dist + l->att[2] * dist * dist);
      if (l->spot) {
        float sc = -mjr_dot3(L, l->dir);
        if (sc < l->cutcos) continue;
        f *= powUnit(sc, l->exponent);
      }
    }
    float ndl = nx * L[0] + ny * L[1] + nz * L[2], lit = 0, spec = 0;
    if (ndl > 0) {
      lit = l->shadow >= 0 ? mjr_shadowFactor(c->shadow + l->shadow, s->pos, s->nrm) : 1;
      if (spec0 > 0 && l->hasspec) {
        float h[3] = {L[0] + s->view[0], L[1] + s->view[1], L[2] + s->view[2]};
        mjr_normalize3(h);
        float ndh = nx * h[0] + ny * h[1] + nz * h[2];
        if (ndh > specmin) spec = lit * spec0 * powUnit(ndh, shin);
      }
    }
    float diff = lit * (ndl > 0 ? ndl : 0);
    r += f * ((l->ambient[0] + l->diffuse[0] * diff) * base[0] + l->specular[0] * spec);
    g += f * ((l->ambient[1] + l->diffuse[1] * diff) * base[1] + l->specular[1] * spec);
    b += f * ((l->ambient[2] + l->diffuse[2] * diff) * base[2] + l->specular[2] * spec);
  }
  out[0] = r, out[1] = g, out[2] = b;
}

// the lit color of a surface point, before reflection, fog and haze
static void shadeSurface(const mjrContext* c, const mjrPass* p, const Surface* s, float out[3]) {
  const mjrItem* it = s->it;
  float base[3] = {it->rgba[0], it->rgba[1], it->rgba[2]};
  if (it->texid >= 0) {
    float t[3];
    texColor(c, p, s, t);
    for (int k = 0; k < 3; k++) base[k] *= t[k];
  }
  lightSurface(c, s, base, out);
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
    if (c->opt.haze && w > 0)
      for (int k = 0; k < 3; k++) out[k] += w * w * (m->vis.rgba_haze[k] - out[k]);
    return;
  }
  for (int k = 0; k < 3; k++) out[k] = c->opt.fog ? m->vis.rgba_fog[k] : 0;
}

// OpenGL's linear fog between fogstart and fogend (times the extent); infinite planes also fade
// into the haze color over the last `haze` fraction of the far distance
static void fogAndHaze(const mjrContext* c, const mjModel* m, const Surface* s, float col[3]) {
  if (c->opt.fog) {
    float ext = (float)m->stat.extent;
    float z0 = m->vis.map_fogstart * ext, z1 = m->vis.map_fogend * ext;
    float f = z1 > z0 ? (z1 - s->depth) / (z1 - z0) : 1;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    for (int k = 0; k < 3; k++) col[k] = f * col[k] + (1 - f) * m->vis.rgba_fog[k];
  }
  if (c->opt.haze && s->it->infinite && c->skybox >= 0 && c->opt.skybox) {
    float zf = c->cam.zfar, h = m->vis.map_haze * zf;
    float w = h > 0 ? (s->depth - (zf - h)) / h : 0;
    w = w < 0 ? 0 : w > 1 ? 1 : w;
    for (int k = 0; k < 3; k++) col[k] += w * (m->vis.rgba_haze[k] - col[k]);
  }
}

// ---- the opaque image ------------------------------------------------------------------------

// shade every pixel of the camera's visibility buffer; on the reflective plane, blend in the
// mirrored view's surface: (1 - reflectance) plane + reflectance mirror
void mjr_shadeOpaque(mjrContext* c, const mjModel* m) {
  const mjrPass* p = &c->cam;
  for (int y = 0; y < c->H; y++)
    for (int x = 0; x < c->W; x++) {
      int i = y * c->W + x, t = c->vis.tri[i];
      float* col = c->color + 3 * i;
      if (t < 0) {
        float d[3];
        rayDir(p, x + 0.5f, y + 0.5f, d);
        background(c, m, d, col);
        continue;
      }
      Surface s;
      surfaceAt(c, p, t, c->vis.b1[i], c->vis.b2[i], c->vis.depth[i], &s);
      shadeSurface(c, p, &s, col);
      if (c->tri[t].item == c->mirrorItem) {
        float r = s.it->reflectance, mc[3] = {0, 0, 0};
        int mt = c->mvis.tri[i];
        if (mt >= 0) {
          Surface ms;
          surfaceAt(c, &c->mirrorPass, mt, c->mvis.b1[i], c->mvis.b2[i], c->mvis.depth[i], &ms);
          shadeSurface(c, &c->mirrorPass, &ms, mc);
        }
        for (int k = 0; k < 3; k++) col[k] = (1 - r) * col[k] + r * mc[k];
      }
      fogAndHaze(c, m, &s, col);
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
// closed shapes culled), depth-tested against the opaque image, blended as
// alpha color + (1 - alpha) behind; the mirrored view's buffer serves as scratch
void mjr_drawTransparent(mjrContext* c, const mjModel* m) {
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
    float a = it->rgba[3];
    for (int y = r[1]; y <= r[3]; y++)
      for (int x = r[0]; x <= r[2]; x++) {
        int j = y * c->W + x, t = c->mvis.tri[j];
        if (t < 0) continue;
        Surface s;
        float col[3], *dst = c->color + 3 * j;
        surfaceAt(c, &c->cam, t, c->mvis.b1[j], c->mvis.b2[j], c->mvis.depth[j], &s);
        shadeSurface(c, &c->cam, &s, col);
        fogAndHaze(c, m, &s, col);
        for (int q = 0; q < 3; q++) dst[q] = a * col[q] + (1 - a) * dst[q];
      }
  }
}

// ---- output ---------------------------------------------------------------------------------

// a linear color in [0, 1] (clamped) times scl, rounded to a byte
static inline unsigned char toByte(float v, float scl) {
  return (unsigned char)((v < 0 ? 0 : v > 1 ? 1 : v) * scl + 0.5f);
}

// the output pixel (x, y): the mean of its samples x samples block, clamped to [0, 1], in bytes
// (one sample: each color converted on its own, in one loop)
void mjr_resolve(mjrContext* c) {
  int s = c->opt.samples, w = c->opt.width, h = c->opt.height;
  if (s == 1) {
    size_t n = (size_t)3 * w * h;
    for (size_t i = 0; i < n; i++) c->rgb[i] = toByte(c->color[i], 255);
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
