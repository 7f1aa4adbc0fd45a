// render.c: the rasterizer's context, camera poses, the scene list of one frame (geoms and
// sites with their materials) and the passes of a frame: shadow maps, the mirrored view of a
// reflective plane, the camera's visibility buffer, shading, transparency, the output images.
#include "render/render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render/render_scene.h"
#include "engine/smooth.h"
#include "util/util.h"

// ---- options and cameras ---------------------------------------------------------------------

// MuJoCo's defaults: 640x480, groups 0, 1, 2 of geoms and sites, every effect but fog on
void mjr_defaultOption(mjrOption* opt) {
  memset(opt, 0, sizeof(*opt));
  opt->width = 640, opt->height = 480, opt->samples = 1;
  opt->output = mjrOUT_COLOR;
  opt->geomgroup = opt->sitegroup = 0x7;
  opt->shadow = opt->reflection = opt->skybox = opt->haze = opt->cull = 1;
}

// mjv_defaultFreeCamera: look at the model's center from 1.5 extents away
void mjr_defaultFreeCamera(const mjModel* m, mjrCamera* cam) {
  memset(cam, 0, sizeof(*cam));
  cam->camid = -1;
  mju_copy3(cam->lookat, m->stat.center);
  cam->distance = 1.5 * m->stat.extent;
  cam->azimuth = m->vis.global_azimuth;
  cam->elevation = m->vis.global_elevation;
}

// the position stages an image needs
void mjr_kinematics(const mjModel* m, mjData* d) {
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_camlight(m, d);
}

// a model camera's pose and lens, or the free camera's: forward
// f = (cos el cos az, cos el sin az, sin el), eye = lookat - distance f, right = f x z, up =
// right x f; fovy and projection from <visual><global>
void mjr_cameraView(const mjModel* m, const mjData* d, const mjrCamera* cam, mjrView* v) {
  memset(v, 0, sizeof(*v));
  v->znear = m->vis.map_znear * m->stat.extent;
  v->zfar = m->vis.map_zfar * m->stat.extent;
  if (cam->camid >= 0) {
    mju_copy3(v->pos, d->cam_xpos + 3 * cam->camid);
    mju_copy9(v->mat, d->cam_xmat + 9 * cam->camid);
    v->fovy = m->cam_fovy[cam->camid];
    v->ortho = m->cam_projection[cam->camid] == 1;
    return;
  }
  double az = cam->azimuth * mjPI / 180, el = cam->elevation * mjPI / 180;
  double f[3] = {cos(el) * cos(az), cos(el) * sin(az), sin(el)}, z[3] = {0, 0, 1}, r[3], u[3];
  mju_cross(r, f, z);
  if (mju_normalize3(r) < 1e-9) r[0] = -sin(az), r[1] = cos(az), r[2] = 0;
  mju_cross(u, r, f);
  for (int k = 0; k < 3; k++) {
    v->pos[k] = cam->lookat[k] - cam->distance * f[k];
    v->mat[3 * k] = r[k], v->mat[3 * k + 1] = u[k], v->mat[3 * k + 2] = -f[k];
  }
  v->fovy = m->vis.global_fovy;
  v->ortho = m->vis.global_orthographic != 0;
}

// ---- the context ------------------------------------------------------------------------------

// free a context and everything it holds
void mjr_freeContext(mjrContext* c) {
  if (!c) return;
  free(c->item), free(c->vert), free(c->tri), free(c->proj), free(c->vcol), free(c->itemdepth), free(c->order);
  for (int i = 0; i < mjrMAXLIGHT; i++) free(c->shadow[i].depth);
  mjrVisBuf* v[2] = {&c->vis, &c->mvis};
  for (int k = 0; k < 2; k++) free(v[k]->depth), free(v[k]->tri), free(v[k]->b1), free(v[k]->b2);
  free(c->color), free(c->rgb), free(c->depth), free(c->circle), free(c->meshclosed);
  for (int i = 0; i < c->ntex; i++)
    for (int l = 0; l < c->tex[i].nlevel; l++) free(c->tex[i].level[l]);
  free(c->tex);
  free(c);
}

// a visibility buffer of n pixels; -1 when out of memory
static int makeVis(mjrVisBuf* v, size_t n) {
  v->depth = malloc(n * sizeof(float));
  v->tri = malloc(n * sizeof(int));
  v->b1 = malloc(n * sizeof(float));
  v->b2 = malloc(n * sizeof(float));
  return v->depth && v->tri && v->b1 && v->b2 ? 0 : -1;
}

// the closed flag of every mesh (scratch keys for the largest mesh); -1 when out of memory
static int makeMeshClosed(mjrContext* c, const mjModel* m) {
  int most = 0;
  for (int i = 0; i < m->nmesh; i++) most = m->mesh_facenum[i] > most ? m->mesh_facenum[i] : most;
  c->meshclosed = malloc(m->nmesh > 0 ? (size_t)m->nmesh : 1);
  unsigned long long* key = malloc((size_t)3 * (most ? most : 1) * sizeof(*key));
  if (!c->meshclosed || !key) {
    free(key);
    return -1;
  }
  for (int i = 0; i < m->nmesh; i++) c->meshclosed[i] = (unsigned char)mjr_meshClosed(m, i, key);
  free(key);
  return 0;
}

// check the option, then allocate every buffer a frame needs
mjrContext* mjr_makeContext(const mjModel* m, const mjrOption* opt, char* err, int errsz) {
  if (opt->width < 1 || opt->height < 1 || opt->width > mjrMAXSIDE || opt->height > mjrMAXSIDE
      || (long long)opt->width * opt->height > mjrMAXPIXELS) {
    snprintf(err, errsz, "image size %dx%d is outside 1..%d pixels a side and %d in all",
             opt->width, opt->height, mjrMAXSIDE, mjrMAXPIXELS);
    return NULL;
  }
  if (opt->samples < 1 || opt->samples > 8) {
    snprintf(err, errsz, "samples %d is outside 1..8", opt->samples);
    return NULL;
  }
  int s = opt->output == mjrOUT_COLOR ? opt->samples : 1;
  if ((long long)opt->width * opt->height * s * s > mjrMAXPIXELS) {
    snprintf(err, errsz, "%dx%d with %dx%d samples exceeds %d pixels", opt->width, opt->height,
             s, s, mjrMAXPIXELS);
    return NULL;
  }
  mjrContext* c = calloc(1, sizeof(mjrContext));
  if (!c) goto nomem;
  c->opt = *opt;
  c->opt.samples = s;
  c->W = opt->width * s, c->H = opt->height * s;
  size_t n = (size_t)c->W * c->H, out = (size_t)opt->width * opt->height;

  // vertex colors in color images: one part for emission and the lights without a shadow map,
  // one per shadow map (mjrContext's ncolor)
  if (opt->output == mjrOUT_COLOR) {
    c->ncolor = 1;
    for (int i = 0; i < m->nlight && c->ncolor <= mjrMAXLIGHT; i++)
      c->ncolor += opt->shadow && m->light_castshadow[i] && m->light_type[i] != mjLIGHT_POINT;
  }

  // items: every geom and site
  c->maxitem = m->ngeom + m->nsite + 1;
  c->item = malloc(c->maxitem * sizeof(mjrItem));
  c->itemdepth = malloc(c->maxitem * sizeof(float));
  c->order = malloc(c->maxitem * sizeof(int));
  if (!c->item || !c->itemdepth || !c->order || mjr_reserve(c, 1 << 16, 1 << 16)) goto nomem;

  // round shapes in the model's slices and stacks, box faces in its quads, as MuJoCo draws
  // them (its lighting at the vertices the same; the default 28 slices: a silhouette within
  // 1 - cos(pi/28) = 0.6%), at least 3 slices, 2 stacks and 1 quad
  c->nslice = m->vis.quality_numslices > 3 ? (int)m->vis.quality_numslices : 3;
  c->nstack = m->vis.quality_numstacks > 2 ? (int)m->vis.quality_numstacks : 2;
  c->nstack += c->nstack % 2;
  c->nquad = m->vis.quality_numquads > 1 ? (int)m->vis.quality_numquads : 1;
  c->circle = malloc(2 * (c->nslice + 1) * sizeof(float));
  if (!c->circle) goto nomem;
  for (int j = 0; j <= c->nslice; j++) {
    double a = 2 * mjPI * (j % c->nslice) / c->nslice;
    c->circle[2 * j] = (float)cos(a), c->circle[2 * j + 1] = (float)sin(a);
  }

  // which meshes are closed (their back faces culled like those of closed primitives)
  if (makeMeshClosed(c, m)) goto nomem;

  // images: the camera's and the mirror's visibility, colors, outputs
  if (makeVis(&c->vis, n) || makeVis(&c->mvis, n)) goto nomem;
  c->color = malloc(3 * n * sizeof(float));
  c->rgb = malloc(3 * out);
  c->depth = malloc(out * sizeof(float));
  if (!c->color || !c->rgb || !c->depth) goto nomem;

  // a shadow map per castshadow light (the side mjr_makeLights uses), and the textures
  if (opt->output == mjrOUT_COLOR) {
    int side = mjr_shadowSide(c, m), k = 0;
    for (int i = 0; i < m->nlight && k < mjrMAXLIGHT; i++)
      if (opt->shadow && m->light_castshadow[i] && m->light_type[i] != mjLIGHT_POINT) {
        c->shadow[k].size = side;
        c->shadow[k].depth = malloc((size_t)side * side * sizeof(float));
        if (!c->shadow[k++].depth) goto nomem;
      }
    if (mjr_makeTextures(c, m)) goto nomem;
  } else {
    c->skybox = -1;
  }
  return c;

nomem:
  mjr_freeContext(c);
  snprintf(err, errsz, "out of memory for %dx%d images", opt->width, opt->height);
  return NULL;
}

// ---- the scene of a frame ---------------------------------------------------------------------

// radius of the bounding sphere of a primitive of type t and size s about its center
static float boundRadius(int t, const float s[3]) {
  switch (t) {
  case mjGEOM_SPHERE:
    return s[0];
  case mjGEOM_CAPSULE:
    return s[0] + s[1];
  case mjGEOM_ELLIPSOID:
    return fmaxf(s[0], fmaxf(s[1], s[2]));
  case mjGEOM_CYLINDER:
    return sqrtf(s[0] * s[0] + s[1] * s[1]);
  default:
    return sqrtf(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
  }
}

// the 2d texture mapping of an item, tex = texperm x + texoff along local x, y; texels per
// meter for the mip level.  A plane as MuJoCo 2.2.2's renderer maps its texture (the render
// oracle's reference; 3.x agrees on infinite planes): s = scl x / 2 - 1/2, t = -scl y / 2 - 1/2
// in the plane's unit coordinates (x / size along a finite side, meters along an infinite
// one), scl = texrepeat (times the size with texuniform, along a finite side): one repetition
// every 2 / texrepeat meters on the Menagerie's floors.  Other items: texrepeat / 2 per meter
// with texuniform, else across the object's 2 size, centered
static void texMapping(const mjrTexture* t, mjrItem* it) {
  for (int k = 0; k < 2; k++) {
    float scl = it->texrepeat[k], sz = it->size[k], sign = k ? -1 : 1;
    if (it->type == mjGEOM_PLANE) {
      int finite = sz > 0;
      it->texperm[k] = 0.5f * scl * sign * (finite && !it->texuniform ? 1 / sz : 1);
      it->texoff[k] = -0.5f;
    } else {
      int uniform = it->texuniform || sz <= 0;
      it->texperm[k] = uniform ? 0.5f * scl : scl / (2 * sz);
      it->texoff[k] = uniform ? 0 : 0.5f * scl;
    }
  }
  float du = fabsf(it->texperm[0]) * t->lw[0], dv = fabsf(it->texperm[1]) * t->lh[0];
  it->texdensity = du > dv ? du : dv;
}

// fill an item's pose, size and material: material color and properties when matid >= 0,
// else the object's rgba with MuJoCo's default specular 0.5 and shininess 0.5; a texture the
// context could not decode is left out
static void setItem(const mjrContext* c, mjrItem* it, const mjModel* m, int type,
                    const mjtNum* pos, const mjtNum* mat, const mjtNum* size, int matid,
                    const float* rgba) {
  memset(it, 0, sizeof(*it));
  it->type = type;
  it->dataid = -1;
  it->texid = -1;
  for (int k = 0; k < 3; k++) it->pos[k] = (float)pos[k], it->size[k] = (float)size[k];
  for (int k = 0; k < 9; k++) it->mat[k] = (float)mat[k];
  it->infinite = type == mjGEOM_PLANE && (size[0] <= 0 || size[1] <= 0);
  if (matid >= 0) {
    memcpy(it->rgba, m->mat_rgba + 4 * matid, 4 * sizeof(float));
    it->emission = m->mat_emission[matid];
    it->specular = m->mat_specular[matid];
    it->shininess = 128 * m->mat_shininess[matid];
    it->reflectance = m->mat_reflectance[matid];
    it->texid = m->mat_texid[mjNTEXROLE * matid + mjTEXROLE_RGB];  // the base color's texture
    if (it->texid >= 0 && (!c->tex || !c->tex[it->texid].nlevel)) it->texid = -1;
    it->texrepeat[0] = m->mat_texrepeat[2 * matid];
    it->texrepeat[1] = m->mat_texrepeat[2 * matid + 1];
    it->texuniform = m->mat_texuniform[matid];
    if (it->texid >= 0) texMapping(c->tex + it->texid, it);
  } else {
    memcpy(it->rgba, rgba, 4 * sizeof(float));
    it->specular = 0.5f;
    it->shininess = 64;
  }
  it->specmin = it->shininess > 0 ? (float)exp2(-10.0 / it->shininess) : 0;
  it->closed = type >= mjGEOM_SPHERE && type <= mjGEOM_BOX;
  for (int k = 0; k < 3; k++) it->center[k] = it->pos[k];
  it->radius = it->infinite ? 1e6f : boundRadius(type, it->size);
}

// the visible geoms (and, in color images, sites) of the state in d, tessellated
static int buildScene(mjrContext* c, const mjModel* m, const mjData* d) {
  c->nitem = c->nvert = c->ntri = 0;
  int color = c->opt.output == mjrOUT_COLOR;
  for (int g = 0; g < m->ngeom; g++) {
    int grp = m->geom_group[g], mat = m->geom_matid[g];
    const float* rgba = mat >= 0 ? m->mat_rgba + 4 * mat : m->geom_rgba + 4 * g;
    if (grp < 0 || grp > 5 || !(c->opt.geomgroup >> grp & 1) || rgba[3] <= 0) continue;
    if (m->geom_type[g] == mjGEOM_SDF) continue;
    mjrItem* it = c->item + c->nitem++;
    setItem(c, it, m, m->geom_type[g], d->geom_xpos + 3 * g, d->geom_xmat + 9 * g,
            m->geom_size + 3 * g, mat, m->geom_rgba + 4 * g);
    it->segid = g + 1;
    it->dataid = m->geom_dataid[g];
    if (it->type == mjGEOM_MESH || it->type == mjGEOM_HFIELD) it->radius = m->geom_rbound[g];
    int mesh = it->type == mjGEOM_MESH && it->dataid >= 0;
    it->hasuv = mesh && m->mesh_texcoordadr[it->dataid] >= 0;
    it->closed |= mesh && c->meshclosed[it->dataid];
    if (!color) it->rgba[3] = 1;  // segmentation and depth draw every geom opaque
  }
  for (int s = 0; color && s < m->nsite; s++) {
    int grp = m->site_group[s], mat = m->site_matid[s];
    const float* rgba = mat >= 0 ? m->mat_rgba + 4 * mat : m->site_rgba + 4 * s;
    if (grp < 0 || grp > 5 || !(c->opt.sitegroup >> grp & 1) || rgba[3] <= 0) continue;
    mjrItem* it = c->item + c->nitem++;
    setItem(c, it, m, m->site_type[s], d->site_xpos + 3 * s, d->site_xmat + 9 * s,
            m->site_size + 3 * s, mat, m->site_rgba + 4 * s);
  }
  for (int i = 0; i < c->nitem; i++)
    if (mjr_tessellate(c, m, c->item + i, &c->cam)) return -1;
  return 0;
}

// the height of point x above item it's plane n.x = d0 (n its local z)
static double planeHeight(const mjrItem* it, const double x[3]) {
  double n[3] = {it->mat[2], it->mat[5], it->mat[8]};
  return mju_dot3(n, x) - (n[0] * it->pos[0] + n[1] * it->pos[1] + n[2] * it->pos[2]);
}

// the camera's pass, the skybox's haze (as MuJoCo draws it: only with an infinite plane of
// size 0 0, the eye above the first one), and the mirrored pass of the first opaque reflective
// plane the eye is above: the eye and axes reflected in the plane n.x = d:
// x' = x - 2 (n.x - d) n
static void setPasses(mjrContext* c, const mjrView* v) {
  mjr_setPass(&c->cam, v->pos, v->mat, v->fovy, v->ortho, v->znear, v->zfar, c->W, c->H);
  c->skyHaze = 0;
  for (int i = 0; i < c->nitem; i++) {
    const mjrItem* it = c->item + i;
    if (it->type != mjGEOM_PLANE || it->size[0] != 0 || it->size[1] != 0) continue;
    c->skyHaze = planeHeight(it, v->pos) >= 0;
    break;
  }
  c->mirrorItem = -1;
  if (c->opt.output != mjrOUT_COLOR || !c->opt.reflection) return;
  for (int i = 0; i < c->nitem; i++) {
    const mjrItem* it = c->item + i;
    if (it->type != mjGEOM_PLANE || it->reflectance <= 0 || it->rgba[3] < 1) continue;
    double n[3] = {it->mat[2], it->mat[5], it->mat[8]}, dist = planeHeight(it, v->pos);
    if (dist <= 0) continue;
    double pos[3], mat[9];
    for (int k = 0; k < 3; k++) pos[k] = v->pos[k] - 2 * dist * n[k];
    for (int col = 0; col < 3; col++) {
      double a = n[0] * v->mat[col] + n[1] * v->mat[3 + col] + n[2] * v->mat[6 + col];
      for (int k = 0; k < 3; k++) mat[3 * k + col] = v->mat[3 * k + col] - 2 * a * n[k];
    }
    mjr_setPass(&c->mirrorPass, pos, mat, v->fovy, v->ortho, v->znear, v->zfar, c->W, c->H);
    c->mirrorPass.mirror = 1;
    c->mirrorItem = i;
    for (int k = 0; k < 3; k++) c->mirrorPlane[k] = (float)n[k];
    c->mirrorPlane[3] = mjr_dot3(c->mirrorPlane, it->pos);
    return;
  }
}

// ---- a frame ----------------------------------------------------------------------------------

// seconds on a monotonic clock
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

// the mirrored view: every opaque item above the mirror plane but the mirror itself
static void rasterMirror(mjrContext* c) {
  int n = 0;
  const float* pl = c->mirrorPlane;
  for (int i = 0; i < c->nitem; i++) {
    const mjrItem* it = c->item + i;
    if (i != c->mirrorItem && it->rgba[3] >= 1 && mjr_dot3(pl, it->center) - pl[3] > -it->radius)
      c->order[n++] = i;
  }
  mjr_clearVis(&c->mvis, c->W * c->H);
  mjr_project(c, &c->mirrorPass);
  mjr_rasterItems(c, &c->mirrorPass, c->order, n, &c->mvis, c->opt.cull);
}

// segmentation colors or depths of the camera's visibility buffer
static void writeIds(mjrContext* c) {
  int n = c->W * c->H;
  for (int i = 0; i < n; i++) {
    int t = c->vis.tri[i], id = t >= 0 ? c->item[c->tri[t].item].segid : 0;
    unsigned char* o = c->rgb + 3 * i;
    o[0] = (unsigned char)(id & 0xff), o[1] = (unsigned char)(id >> 8 & 0xff);
    o[2] = (unsigned char)(id >> 16 & 0xff);
  }
}

// render one frame: scene, shadows, mirror, camera, shading, transparency, output
int mjr_render(mjrContext* c, const mjModel* m, const mjData* d, const mjrCamera* cam,
               char* err, int errsz) {
  if (cam->camid >= m->ncam) {
    snprintf(err, errsz, "camera %d out of range (the model has %d)", cam->camid, m->ncam);
    return -1;
  }
  double t0 = now();
  mjrView v;
  mjr_cameraView(m, d, cam, &v);
  mjr_setPass(&c->cam, v.pos, v.mat, v.fovy, v.ortho, v.znear, v.zfar, c->W, c->H);
  if (buildScene(c, m, d)) {
    snprintf(err, errsz, "out of memory for the scene's triangles");
    return -1;
  }
  setPasses(c, &v);
  int color = c->opt.output == mjrOUT_COLOR;
  double t1 = now();
  if (color) mjr_makeLights(c, m, d);
  double t2 = now();
  if (color) mjr_lightVertices(c, &c->cam);
  if (color && c->mirrorItem >= 0) mjr_lightVertices(c, &c->mirrorPass);
  if (c->mirrorItem >= 0) rasterMirror(c);

  // the camera's view: opaque items (every item in segmentation and depth images)
  int n = 0;
  for (int i = 0; i < c->nitem; i++)
    if (c->item[i].rgba[3] >= 1) c->order[n++] = i;
  mjr_clearVis(&c->vis, c->W * c->H);
  mjr_project(c, &c->cam);
  mjr_rasterItems(c, &c->cam, c->order, n, &c->vis, c->opt.cull);
  double t3 = now();

  // output: colors, ids, and depths (the first sample of each block)
  if (color) {
    mjr_shadeOpaque(c, m);
    mjr_drawTransparent(c, m);
    mjr_resolve(c);
  } else if (c->opt.output == mjrOUT_SEGMENT) {
    writeIds(c);
  }
  int s = c->opt.samples, w = c->opt.width;
  for (int y = 0; y < c->opt.height; y++)
    for (int x = 0; x < w; x++) c->depth[y * w + x] = c->vis.depth[(size_t)y * s * c->W + x * s];
  double t4 = now();
  c->prof.transform += t1 - t0;
  c->prof.shadow += t2 - t1;
  c->prof.raster += t3 - t2;
  c->prof.shade += t4 - t3;
  c->prof.frames++;
  return 0;
}

// the output images and timings
const unsigned char* mjr_rgb(const mjrContext* c) { return c->rgb; }
const float* mjr_depth(const mjrContext* c) { return c->depth; }
const mjrProfile* mjr_profile(const mjrContext* c) { return &c->prof; }
