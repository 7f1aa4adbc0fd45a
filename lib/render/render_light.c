// render_light.c: the lights of a frame as OpenGL's fixed-function model has them (the
// headlight along the camera axis, the model's directional, spot and point lights) and shadow
// maps: depth images from each castshadow light over the frustum that just holds the shadow
// casters, looked up with 2x2 percentage-closer filtering.
#include <math.h>
#include <string.h>

#include "render/render_scene.h"
#include "util/util.h"

// the shadow map side: vis.quality.shadowsize is a hint, bounded by the image's larger side (the
// map covers only the casters, so a texel stays under a pixel) and at least 64
int mjr_shadowSide(const mjrContext* c, const mjModel* m) {
  int side = (int)m->vis.quality_shadowsize, img = c->W > c->H ? c->W : c->H;
  if (side > img) side = img;
  return side < 64 ? 64 : side;
}

// a light pose looking along dir: columns right, up, backward (backward = -dir)
static void lightFrame(const double dir[3], double mat[9]) {
  double b[3] = {-dir[0], -dir[1], -dir[2]}, up[3] = {0, 0, 1}, r[3], u[3];
  if (fabs(b[2]) > 0.9) up[0] = 1, up[2] = 0;
  mju_cross(r, up, b);
  mju_normalize3(r);
  mju_cross(u, b, r);
  for (int k = 0; k < 3; k++) mat[3 * k] = r[k], mat[3 * k + 1] = u[k], mat[3 * k + 2] = b[k];
}

// the shadow map of light l: fit the view to the bounding spheres of the shadow casters
// (every drawn opaque item but planes), rasterize their depth; 0 when there is nothing to cast
static int makeShadow(mjrContext* c, const mjrLight* l, mjrShadow* s, int size) {
  double dir[3] = {l->dir[0], l->dir[1], l->dir[2]}, mat[9];
  lightFrame(dir, mat);
  int* casters = c->order, n = 0;
  for (int i = 0; i < c->nitem; i++)
    if (c->item[i].type != mjGEOM_PLANE && c->item[i].rgba[3] >= 1 && c->item[i].ntri)
      casters[n++] = i;
  if (!n) return 0;

  if (l->directional) {
    // orthographic: the casters' extent across the light, the eye before the nearest one
    double lo[3] = {1e30, 1e30, 1e30}, hi[3] = {-1e30, -1e30, -1e30};
    for (int k = 0; k < n; k++) {
      const mjrItem* it = c->item + casters[k];
      for (int a = 0; a < 3; a++) {
        double x = 0;
        for (int j = 0; j < 3; j++) x += mat[3 * j + a] * it->center[j];
        lo[a] = fmin(lo[a], x - it->radius), hi[a] = fmax(hi[a], x + it->radius);
      }
    }
    double half = 0.5 * fmax(hi[0] - lo[0], hi[1] - lo[1]), pos[3];
    for (int j = 0; j < 3; j++)
      pos[j] = mat[3 * j] * 0.5 * (lo[0] + hi[0]) + mat[3 * j + 1] * 0.5 * (lo[1] + hi[1])
             + mat[3 * j + 2] * (hi[2] + 1);
    double depth = hi[2] - lo[2] + 2;
    mjr_setPass(&s->pass, pos, mat, 2 * half, 1, 0.5, depth + 1e3, size, size);
  } else {
    // perspective from the light: the cone holding every caster, within the spot's cutoff
    double ang = 0, znear = 1e30, pos[3] = {l->pos[0], l->pos[1], l->pos[2]};
    for (int k = 0; k < n; k++) {
      const mjrItem* it = c->item + casters[k];
      double v[3] = {it->center[0] - pos[0], it->center[1] - pos[1], it->center[2] - pos[2]};
      double dist = mju_norm3(v), along = mju_dot3(v, dir);
      if (dist <= it->radius) {
        ang = 1e9;
        znear = 0.01;
        break;
      }
      double a = acos(fmax(-1, fmin(1, along / dist))) + asin(it->radius / dist);
      ang = fmax(ang, a);
      znear = fmin(znear, along - it->radius);
    }
    double cut = l->spot ? acos(l->cutcos) : mjPI / 2;
    double fovy = 2 * fmin(fmin(ang, cut), 80 * mjPI / 180) * 180 / mjPI;
    mjr_setPass(&s->pass, pos, mat, fovy, 0, fmax(znear, 0.01), 1e4, size, size);
  }

  // depth of the casters (the front faces of closed shapes hide their back faces)
  mjrVisBuf vis = {.depth = s->depth};
  mjr_clearVis(&vis, size * size);
  mjr_project(c, &s->pass);
  mjr_rasterItems(c, &s->pass, casters, n, &vis, 1);
  return 1;
}

// a light's constants for the shader: constant attenuation, a specular color
static void lightConstants(mjrLight* l) {
  l->constatt = l->att[1] == 0 && l->att[2] == 0;
  l->invatt = 1 / l->att[0];
  l->hasspec = l->specular[0] != 0 || l->specular[1] != 0 || l->specular[2] != 0;
}

// the frame's lights: the headlight (a directional light along the camera axis) and each active
// model light (at most mjrMAXLIGHT in all, as OpenGL); with shadows on, a map per castshadow
// directional or spot light
int mjr_makeLights(mjrContext* c, const mjModel* m, const mjData* d) {
  c->nlight = c->nshadow = 0;
  if (m->vis.headlight_active) {
    mjrLight* l = c->light + c->nlight++;
    memset(l, 0, sizeof(*l));
    l->directional = 1;
    for (int k = 0; k < 3; k++) {
      l->dir[k] = c->cam.axis[6 + k];
      l->ambient[k] = m->vis.headlight_ambient[k];
      l->diffuse[k] = m->vis.headlight_diffuse[k];
      l->specular[k] = m->vis.headlight_specular[k];
    }
    l->att[0] = 1;
    l->shadow = -1;
    lightConstants(l);
  }
  int size = mjr_shadowSide(c, m);
  for (int i = 0; i < m->nlight && c->nlight < mjrMAXLIGHT; i++) {
    if (!m->light_active[i]) continue;
    mjrLight* l = c->light + c->nlight++;
    memset(l, 0, sizeof(*l));
    int type = m->light_type[i];
    l->directional = type == mjLIGHT_DIRECTIONAL;
    l->spot = type == mjLIGHT_SPOT;
    for (int k = 0; k < 3; k++) {
      l->pos[k] = (float)d->light_xpos[3 * i + k];
      l->dir[k] = (float)d->light_xdir[3 * i + k];
      l->ambient[k] = m->light_ambient[3 * i + k];
      l->diffuse[k] = m->light_diffuse[3 * i + k];
      l->specular[k] = m->light_specular[3 * i + k];
      l->att[k] = m->light_attenuation[3 * i + k];
    }
    mjr_normalize3(l->dir);
    l->cutcos = cosf(m->light_cutoff[i] * 3.14159265f / 180);
    l->exponent = m->light_exponent[i];
    l->shadow = -1;
    lightConstants(l);

    // a shadow map for directional and spot lights (a point light would need six)
    if (c->opt.shadow && m->light_castshadow[i] && type != mjLIGHT_POINT) {
      mjrShadow* s = c->shadow + c->nshadow;
      if (s->size != size) continue;  // maps are allocated at context creation
      if (makeShadow(c, l, s, size)) l->shadow = c->nshadow++;
    }
  }
  return 0;
}

// the fraction of light reaching each point p of a span (with normal n, where n.L > 0): p offset
// along n by a texel against self-shadowing, compared with the 2x2 nearest map texels, weighted
// bilinearly; 1 in front of the map's near plane and outside the map.  The map coordinates in
// one vector loop, the lookups in a scalar one
mjrVECTOR void mjr_shadowSpan(const mjrShadow* s, mjrSpan* sp) {
  const mjrPass* v = &s->pass;
  const float ex = v->eye[0], ey = v->eye[1], ez = v->eye[2], zn = v->znear;
  const float a0 = v->axis[0], a1 = v->axis[1], a2 = v->axis[2], a3 = v->axis[3];
  const float a4 = v->axis[4], a5 = v->axis[5], a6 = v->axis[6], a7 = v->axis[7];
  const float a8 = v->axis[8], vsx = v->sx, vsy = v->sy, cx = v->cx, cy = v->cy;
  const float last = (float)(s->size - 1);
  const int ortho = v->ortho, n = sp->n;
  float *mx = sp->tmp[0], *my = sp->tmp[1], *zb = sp->tmp[2], *in = sp->tmp[3];
  for (int i = 0; i < n; i++) {
    // z along the light's axis; a map texel's world size there; the offset point's coordinates
    float dx = sp->pos[0][i] - ex, dy = sp->pos[1][i] - ey, dz = sp->pos[2][i] - ez;
    float z = a6 * dx + a7 * dy + a8 * dz;
    float texel = ortho ? 1 / vsx : z / vsx, off = 1.5f * texel;
    float qx = dx + off * sp->nrm[0][i], qy = dy + off * sp->nrm[1][i];
    float qz = dz + off * sp->nrm[2][i];
    float x = a0 * qx + a1 * qy + a2 * qz, y = a3 * qx + a4 * qy + a5 * qz;
    float zq = a6 * qx + a7 * qy + a8 * qz, iw = ortho ? 1 : 1 / zq;
    float sx = cx + vsx * x * iw - 0.5f, sy = cy - vsy * y * iw - 0.5f;
    mx[i] = sx, my[i] = sy, zb[i] = zq - 2 * texel;
    in[i] = (sp->ndl[i] > 0) & (z > zn) & (sx >= 0) & (sy >= 0) & (sx < last) & (sy < last);
  }
  for (int i = 0; i < n; i++) {
    if (!in[i]) {
      sp->lit[i] = sp->ndl[i] > 0;
      continue;
    }
    int ix = (int)mx[i], iy = (int)my[i];
    float fx = mx[i] - ix, fy = my[i] - iy, q = zb[i];
    const float* row = s->depth + iy * s->size + ix;
    float l00 = q <= row[0], l01 = q <= row[1], l10 = q <= row[s->size];
    float l11 = q <= row[s->size + 1];
    sp->lit[i] = (l00 * (1 - fx) + l01 * fx) * (1 - fy) + (l10 * (1 - fx) + l11 * fx) * fy;
  }
}
