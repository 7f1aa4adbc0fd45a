// mjcf_asset.c: the asset sections: <mesh> (compiled by mesh.c when read: geoms need its
// frame), <skin> (skin.c), <hfield> (hfield.c), <texture> (texture.c) and <material>, file
// paths under meshdir/texturedir/assetdir, and their arrays of the model.
#include "compiler/mjcf.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "util/util_file.h"

// ---- assets -----------------------------------------------------------------------------------

// the name of an asset: its name attribute, else its file's name without directory and
// extension, from the last dot (link_3.0.stl is link_3.0; NULL for an unnamed inline asset),
// with the prefix
static const char* assetName(Ctx* c, const mjXNode* e) {
  const char* name = mjcf_getAttr(e, "name");
  const char* file = mjx_attr(e, "file");
  if (name || !file) return mjcf_prefixed(c, name);
  const char* base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
  size_t n = strrchr(base, '.') ? (size_t)(strrchr(base, '.') - base) : strlen(base);
  char* s = mjcf_alloc(c, n + 1);
  memcpy(s, base, n);
  return mjcf_prefixed(c, s);
}

// the path of asset file `file` as MuJoCo resolves it: without its directories under
// strippath; as given when absolute; else under `dir` (meshdir, texturedir), itself under the
// model's directory unless absolute
static const char* assetPath(Ctx* c, const char* dir, const char* file) {
  if (c->strippath && strrchr(file, '/')) file = strrchr(file, '/') + 1;
  if (file[0] == '/') return file;
  const char* top = dir && dir[0] == '/' ? "" : c->dir;
  const char* sep = dir && dir[0] && dir[strlen(dir) - 1] != '/' ? "/" : "";
  size_t n = strlen(top) + (dir ? strlen(dir) : 0) + strlen(sep) + strlen(file) + 1;
  char* path = mjcf_alloc(c, n);
  snprintf(path, n, "%s%s%s%s", top, dir ? dir : "", sep, file);
  return path;
}

// a float copy of a list attribute of groups of `per` numbers, in the arena; returns the
// count of groups
static int readFloatList(Ctx* c, const mjXNode* e, const char* name, int per, float** out) {
  double* v = NULL;
  int n = mjcf_readList(c, e, name, &v);
  if (n % per)
    mjcf_fail(c, e, "attribute '%s': the count of numbers must be a multiple of %d", name, per);
  *out = mjcf_alloc(c, sizeof(float) * (n + 1));
  for (int i = 0; i < n; i++) (*out)[i] = (float)v[i];
  return n / per;
}

// the vertices, faces and normals of builtin mesh `type` with params p[np] into spec, in the
// arena; a plate weighs as a shell (MuJoCo sets its inertia so)
static void meshBuiltin(Ctx* c, const mjXNode* e, int type, const double* p, int np,
                        mjMeshSpec* spec) {
  mjMeshData d;
  char msg[300];
  if (mj_meshBuiltin(type, p, np, &d, msg, sizeof msg)) mjcf_fail(c, e, "%s", msg);
  float* vert = mjcf_alloc(c, sizeof(float) * 3 * d.nvert);
  float* normal = mjcf_alloc(c, sizeof(float) * 3 * (d.nnormal + 1));
  int* face = mjcf_alloc(c, sizeof(int) * 3 * (d.nface + 1));
  memcpy(vert, d.vert, sizeof(float) * 3 * d.nvert);
  memcpy(normal, d.normal, sizeof(float) * 3 * d.nnormal);
  memcpy(face, d.face, sizeof(int) * 3 * d.nface);
  spec->vert = vert, spec->nvert = d.nvert;
  spec->normal = normal, spec->nnormal = d.nnormal;
  spec->face = face, spec->nface = d.nface;
  if (type == mjMESH_BUILTIN_PLATE) spec->inertia = mjMESH_INERTIA_SHELL;
  mj_meshDataFree(&d);
}

// a <mesh>: its attributes over its class's mesh defaults, compiled now (geoms need its frame)
static void addMesh(Ctx* c, const mjXNode* e) {
  Obj* o = mjcf_alloc(c, sizeof(Obj));
  o->h.e = e;
  o->h.name = assetName(c, e);
  mjcf_push(c, &c->obj[K_MESH], o);  // before compiling, so that the unwind frees the mesh
  MeshSpec ms = mjcf_elemClass(c, e, c->classes.p[0])->mesh;
  mjcf_readMeshDefaults(c, e, &ms);
  mjMeshSpec spec = {.refquat = {1, 0, 0, 0}, .inertia = ms.inertia,
                     .maxhullvert = ms.maxhullvert, .smoothnormal = ms.smoothnormal};
  mju_copy3(spec.scale, ms.scale);
  mju_copy3(o->meshscale, ms.scale);
  const char* file = NULL;
  if (mjcf_readStr(e, "file", &file)) o->file = spec.file = assetPath(c, c->meshdir, file);
  mjcf_readStr(e, "content_type", &spec.contenttype);
  float *vert, *normal, *texcoord;
  spec.nvert = readFloatList(c, e, "vertex", 3, &vert);
  spec.nnormal = readFloatList(c, e, "normal", 3, &normal);
  spec.ntexcoord = readFloatList(c, e, "texcoord", 2, &texcoord);
  spec.vert = vert;
  spec.normal = normal;
  spec.texcoord = texcoord;
  double* face = NULL;
  int nface = mjcf_readList(c, e, "face", &face);
  if (nface % 3) mjcf_fail(c, e, "attribute 'face': the count of numbers must be a multiple of 3");
  int* iface = mjcf_alloc(c, sizeof(int) * (nface + 1));
  for (int i = 0; i < nface; i++) {
    if (face[i] != floor(face[i]) || face[i] < 0 || face[i] > 2e9)
      mjcf_fail(c, e, "attribute 'face': expected non-negative integers");
    iface[i] = (int)face[i];
  }
  spec.face = iface;
  spec.nface = nface / 3;
  mjcf_readVec(c, e, "refpos", spec.refpos, 3);
  mjcf_readVec(c, e, "refquat", spec.refquat, 4);
  int builtin = mjMESH_BUILTIN_NONE;
  double* params = NULL;  // read (and so accepted) without builtin too, as MuJoCo does
  int nparams = mjcf_readList(c, e, "params", &params);
  mjcf_readKey(c, e, "builtin", mj_meshBuiltinNames, &builtin);
  if (builtin != mjMESH_BUILTIN_NONE) {
    if (file || spec.nvert) mjcf_fail(c, e, "a builtin mesh takes no file or vertex data");
    meshBuiltin(c, e, builtin, params, nparams, &spec);
  }
  mjcf_checkAttrs(c, e);
  if (e->nchild) mjcf_fail(c, e->child[0], "mesh plugins are not supported yet");
  if (file && spec.nvert) mjcf_fail(c, e, "a mesh takes a file or vertex data, not both");
  o->keepgraph = !file && !spec.nface;
  char msg[512];
  if (mj_meshCompile(&spec, &o->mesh, msg, sizeof(msg))) mjcf_fail(c, e, "%s", msg);
}

// a <hfield>: compiled now (geoms take their size from it)
static void addHfield(Ctx* c, const mjXNode* e) {
  Obj* o = mjcf_alloc(c, sizeof(Obj));
  o->h.e = e;
  o->h.name = assetName(c, e);
  mjcf_push(c, &c->obj[K_HFIELD], o);  // before compiling, so that the unwind frees the data
  mjHFieldSpec spec = {0};
  const char* file = NULL;
  if (mjcf_readStr(e, "file", &file)) o->file = spec.file = assetPath(c, c->meshdir, file);
  mjcf_readStr(e, "content_type", &spec.contenttype);
  mjcf_readInt(c, e, "nrow", &spec.nrow);
  mjcf_readInt(c, e, "ncol", &spec.ncol);
  float* elev;
  spec.nelevation = readFloatList(c, e, "elevation", 1, &elev);
  spec.elevation = spec.nelevation ? elev : NULL;
  if (mjcf_readNums(c, e, "size", spec.size, 4, 4) != 4)
    mjcf_fail(c, e, "attribute 'size' is required");
  mjcf_checkAttrs(c, e);
  if (e->nchild) mjcf_fail(c, e->child[0], "unknown element in hfield");
  char msg[512];
  if (mj_hfieldCompile(&spec, &o->hfield, msg, sizeof(msg))) mjcf_fail(c, e, "%s", msg);
}

// a <skin>: from an SKN file or inline vertex, texcoord, face and <bone> data; bone bodies are
// resolved when the model is filled
static void addSkin(Ctx* c, const mjXNode* e) {
  Obj* o = mjcf_alloc(c, sizeof(Obj));
  o->h.e = e;
  o->h.name = assetName(c, e);
  mjcf_push(c, &c->obj[K_SKIN], o);  // before reading, so that the unwind frees the skin
  o->rgba[0] = o->rgba[1] = o->rgba[2] = 0.5f;
  o->rgba[3] = 1;
  mjcf_readFloats(c, e, "rgba", o->rgba, 4);
  mjcf_readFloats(c, e, "inflate", &o->inflate, 1);
  mjcf_readInt(c, e, "group", &o->group);
  mjcf_readStr(e, "material", &o->material);
  o->material = mjcf_prefixed(c, o->material);
  const char* file = NULL;
  char msg[512];
  if (mjcf_readStr(e, "file", &file)) {
    o->file = assetPath(c, c->meshdir, file);
    if (mj_skinReadSKN(o->file, &o->skin, msg, sizeof(msg))) mjcf_fail(c, e, "%s", msg);
    mjcf_checkAttrs(c, e);
    if (e->nchild) mjcf_fail(c, e->child[0], "a skin from a file has no bone elements");
    if (mj_skinNormalize(&o->skin)) mjcf_fail(c, e, "out of memory");
    return;
  }
  // inline: the mesh from attributes, one <bone> child per bone
  float *vert, *texcoord;
  double* face = NULL;
  int nvert = readFloatList(c, e, "vertex", 3, &vert);
  int ntex = readFloatList(c, e, "texcoord", 2, &texcoord);
  int nface = mjcf_readList(c, e, "face", &face);
  if (nface % 3) mjcf_fail(c, e, "attribute 'face': the count of numbers must be a multiple of 3");
  mjcf_checkAttrs(c, e);
  double** id = mjcf_alloc(c, sizeof(double*) * (e->nchild + 1));
  float** weight = mjcf_alloc(c, sizeof(float*) * (e->nchild + 1));
  int* count = mjcf_alloc(c, sizeof(int) * (e->nchild + 1));
  int nbonevert = 0;
  for (int b = 0; b < e->nchild; b++) {
    const mjXNode* ch = e->child[b];
    if (strcmp(ch->name, "bone")) mjcf_fail(c, ch, "unknown element in skin");
    count[b] = mjcf_readList(c, ch, "vertid", &id[b]);
    if (readFloatList(c, ch, "vertweight", 1, &weight[b]) != count[b])
      mjcf_fail(c, ch, "vertid and vertweight must have the mjcf_same length");
    nbonevert += count[b];
  }
  if (mj_skinAlloc(&o->skin, nvert, ntex, nface / 3, e->nchild, nbonevert))
    mjcf_fail(c, e, "out of memory");
  mjSkin* s = &o->skin;
  memcpy(s->vert, vert, sizeof(float) * 3 * nvert);
  memcpy(s->texcoord, texcoord, sizeof(float) * 2 * ntex);
  for (int i = 0; i < nface; i++) s->face[i] = face[i] == floor(face[i]) ? (int)face[i] : -1;
  int adr = 0;
  for (int b = 0; b < e->nchild; b++) {
    const mjXNode* ch = e->child[b];
    const char* body = NULL;
    if (!mjcf_readStr(ch, "body", &body)) mjcf_fail(c, ch, "bone needs a body");
    snprintf(s->bonename[b], sizeof(s->bonename[b]), "%s", mjcf_prefixed(c, body));
    if (!mjcf_readFloats(c, ch, "bindpos", s->bindpos + 3 * b, 3) ||
        !mjcf_readFloats(c, ch, "bindquat", s->bindquat + 4 * b, 4))
      mjcf_fail(c, ch, "bone needs bindpos and bindquat");
    mjcf_checkAttrs(c, ch);
    s->bonevertadr[b] = adr;
    s->bonevertnum[b] = count[b];
    for (int k = 0; k < count[b]; k++, adr++) {
      s->vertid[adr] = id[b][k] == floor(id[b][k]) && fabs(id[b][k]) < 2e9 ? (int)id[b][k] : -1;
      s->vertweight[adr] = weight[b][k];
    }
  }
  if (mj_skinCheck(s, msg, sizeof(msg))) mjcf_fail(c, e, "%s", msg);
  if (mj_skinNormalize(s)) mjcf_fail(c, e, "out of memory");
}

// a <texture>: its attributes (files under texturedir) and its pixels, built now because the
// model's size needs them
static void addTexture(Ctx* c, const mjXNode* e) {
  static const char* const types[] = {"2d", "cube", "skybox", NULL};
  static const char* const builtins[] = {"none", "gradient", "checker", "flat", NULL};
  static const char* const marks[] = {"none", "edge", "cross", "random", NULL};
  static const char* const spaces[] = {"auto", "linear", "sRGB", NULL};
  static const char* const sides[] = {"fileright", "fileleft", "fileup", "filedown",
                                      "filefront", "fileback"};
  Obj* o = mjcf_alloc(c, sizeof(Obj));
  o->h.e = e;
  o->h.name = assetName(c, e);
  mjcf_push(c, &c->obj[K_TEX], o);
  mjTextureSpec* s = &o->texspec;
  mj_defaultTextureSpec(s);
  mjcf_readKey(c, e, "type", types, &s->type);
  mjcf_readKey(c, e, "builtin", builtins, &s->builtin);
  mjcf_readKey(c, e, "mark", marks, &s->mark);
  mjcf_readKey(c, e, "colorspace", spaces, &s->colorspace);
  mjcf_readVec(c, e, "rgb1", s->rgb1, 3);
  mjcf_readVec(c, e, "rgb2", s->rgb2, 3);
  mjcf_readVec(c, e, "markrgb", s->markrgb, 3);
  mjcf_readVec(c, e, "random", &s->random, 1);
  mjcf_readInt(c, e, "width", &s->width);
  mjcf_readInt(c, e, "height", &s->height);
  mjcf_readInt(c, e, "nchannel", &s->nchannel);
  mjcf_readBool(c, e, "hflip", &s->hflip);
  mjcf_readBool(c, e, "vflip", &s->vflip);
  // the grid: two integers, a layout of one symbol per cell
  double grid[2] = {1, 1};
  if (mjcf_readNums(c, e, "gridsize", grid, 2, 2))
    s->gridsize[0] = (int)grid[0], s->gridsize[1] = (int)grid[1];
  const char *layout = NULL, *file = NULL;
  if (mjcf_readStr(e, "gridlayout", &layout)) {
    if (strlen(layout) > 12) mjcf_fail(c, e, "gridlayout has more than 12 symbols");
    if ((int)strlen(layout) != s->gridsize[0] * s->gridsize[1])
      mjcf_fail(c, e, "gridlayout has %d symbols, gridsize %d x %d cells", (int)strlen(layout),
                s->gridsize[0], s->gridsize[1]);
    memcpy(s->gridlayout, layout, strlen(layout));
  }
  if (mjcf_readStr(e, "file", &file)) o->file = s->file = assetPath(c, c->texturedir, file);
  for (int k = 0; k < 6; k++)
    if (mjcf_readStr(e, sides[k], &file)) s->cubefiles[k] = assetPath(c, c->texturedir, file);
  // KTX files (by content_type, else by name), which MuJoCo keeps as their raw bytes for the
  // GPU, are refused: the decoders read PNG only
  const char* ctype = mjcf_getAttr(e, "content_type");
  for (int k = -1; k < 6; k++) {
    const char* f = k < 0 ? s->file : s->cubefiles[k];
    if (f && (ctype ? !strcmp(ctype, "image/ktx") : mj_hasExt(f, ".ktx")))
      mjcf_fail(c, e, "KTX textures are not supported yet");
  }
  mjcf_ignoreAttrs(e, "name");
  mjcf_checkAttrs(c, e);
  if (e->nchild) mjcf_fail(c, e->child[0], "unknown element in texture");
  if (!o->h.name && s->type != mjTEXTURE_SKYBOX)
    mjcf_fail(c, e, "texture needs a name (a texture from one file takes the file's)");
  o->type = s->type;
  char msg[512];
  mjTexture t;
  if (mj_makeTexture(s, &t, msg, sizeof(msg))) mjcf_fail(c, e, "%s", msg);
  // the pixels move into the arena (so that a later failure frees them)
  size_t n = (size_t)t.width * t.height * t.nchannel;
  o->tex = t;
  o->tex.data = mjcf_alloc(c, n);
  memcpy(o->tex.data, t.data, n);
  free(t.data);
}
// <deformable>: skins (flexes are not supported)
void mjcf_readDeformable(Ctx* c, const mjXNode* e) {
  mjcf_checkAttrs(c, e);
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* a = e->child[i];
    if (!strcmp(a->name, "skin")) addSkin(c, a);
    else if (!strcmp(a->name, "flex")) mjcf_fail(c, a, "flex is not supported yet");
    else mjcf_fail(c, a, "unknown element in deformable");
  }
}

// the name a model file gives itself (<mujoco model=...>, MuJoCo's "MuJoCo Model" without one),
// as MuJoCo names a <model> asset that has no name; the file read just for it
static const char* childModelName(Ctx* c, const mjXNode* e, const char* path) {
  char msg[512];
  mjXDoc* doc = mjx_parseFile(path, msg, sizeof msg);
  if (!doc) mjcf_fail(c, e, "could not parse model file: %s", msg);
  const char* own = mjx_attr(doc->root, "model");
  own = own ? own : "MuJoCo Model";
  char* name = mjcf_alloc(c, strlen(own) + 1);
  strcpy(name, own);
  mjx_free(doc);
  return name;
}

// <asset>: meshes, skins, height fields, textures, materials and models to attach
void mjcf_readAssets(Ctx* c, const mjXNode* e) {
  mjcf_checkAttrs(c, e);
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* a = e->child[i];
    if (!strcmp(a->name, "mesh")) {
      addMesh(c, a);
    } else if (!strcmp(a->name, "hfield")) {
      addHfield(c, a);
    } else if (!strcmp(a->name, "skin")) {
      addSkin(c, a);
    } else if (!strcmp(a->name, "texture")) {
      addTexture(c, a);
    } else if (!strcmp(a->name, "material")) {
      Obj* o = mjcf_alloc(c, sizeof(Obj));
      o->h.e = a;
      o->h.name = mjcf_prefixed(c, mjcf_getAttr(a, "name"));
      o->mat = mjcf_elemClass(c, a, c->classes.p[0])->mat;
      mjcf_readMaterial(c, a, &o->mat);
      for (int r = 0; r < mjNTEXROLE; r++) {
        o->mat.textures[r] = mjcf_prefixed(c, o->mat.textures[r]);
      }
      mjcf_checkAttrs(c, a);
      mjcf_push(c, &c->obj[K_MAT], o);
    } else if (!strcmp(a->name, "model")) {
      // a model file to attach: its path under the model's directory and its name (or the
      // child's own, <mujoco model=...>)
      Obj* o = mjcf_alloc(c, sizeof(Obj));
      o->h.e = a;
      const char* file = NULL;
      if (!mjcf_readStr(a, "file", &file)) mjcf_fail(c, a, "attribute 'file' is required");
      o->file = assetPath(c, NULL, file);
      o->h.name = mjcf_getAttr(a, "name");
      if (!o->h.name) o->h.name = childModelName(c, a, o->file);
      o->h.name = mjcf_prefixed(c, o->h.name);
      mjcf_ignoreAttrs(a, "content_type");
      mjcf_checkAttrs(c, a);
      mjcf_push(c, &c->models, o);
    } else {
      mjcf_fail(c, a, "unknown element in asset");
    }
  }
}

// bytes of the height field, mesh, skin and texture file paths, in MuJoCo 3.14's order from
// offset 0 (one empty string when there are none); fills when m is given
int mjcf_writePaths(Ctx* c, mjModel* m) {
  static const int kinds[] = {K_HFIELD, K_MESH, K_SKIN, K_TEX};
  int* adr[] = {m ? m->hfield_pathadr : NULL, m ? m->mesh_pathadr : NULL,
                m ? m->skin_pathadr : NULL, m ? m->tex_pathadr : NULL};
  int pos = 0;
  if (m) m->paths[0] = 0;
  for (int k = 0; k < 4; k++) {
    for (int i = 0; i < c->obj[kinds[k]].n; i++) {
      const char* file = mjx_attr(((Obj*)c->obj[kinds[k]].p[i])->h.e, "file");
      if (m) adr[k][i] = -1;
      if (file) mjcf_putName(m ? m->paths : NULL, &pos, m ? adr[k] + i : NULL, file);
    }
  }
  return pos ? pos : 1;
}

// the height field arrays
void mjcf_fillHfields(Ctx* c, mjModel* m) {
  int adr = 0;
  for (int i = 0; i < m->nhfield; i++) {
    const mjHField* hf = &((Obj*)c->obj[K_HFIELD].p[i])->hfield;
    mju_copy(m->hfield_size + 4 * i, hf->size, 4);
    m->hfield_nrow[i] = hf->nrow;
    m->hfield_ncol[i] = hf->ncol;
    m->hfield_adr[i] = adr;
    memcpy(m->hfield_data + adr, hf->data, sizeof(float) * hf->nrow * hf->ncol);
    adr += hf->nrow * hf->ncol;
  }
}

// the texture arrays from the built textures, pixels packed in model order
void mjcf_fillTextures(Ctx* c, mjModel* m) {
  int adr = 0;
  for (int i = 0; i < m->ntex; i++) {
    const Obj* o = c->obj[K_TEX].p[i];
    const mjTextureSpec* s = &o->texspec;
    const mjTexture* t = &o->tex;
    m->tex_type[i] = s->type;
    m->tex_builtin[i] = s->builtin;
    m->tex_mark[i] = s->mark;
    m->tex_width[i] = t->width;
    m->tex_height[i] = t->height;
    m->tex_nchannel[i] = t->nchannel;
    m->tex_colorspace[i] = t->colorspace;
    mju_copy3(m->tex_rgb1 + 3 * i, s->rgb1);
    mju_copy3(m->tex_rgb2 + 3 * i, s->rgb2);
    mju_copy3(m->tex_markrgb + 3 * i, s->markrgb);
    m->tex_random[i] = s->random;
    m->tex_adr[i] = adr;
    int n = t->width * t->height * t->nchannel;
    memcpy(m->tex_data + adr, t->data, n);
    adr += n;
  }
}

// the material arrays; a texture per role, named by texture= or a <layer> (here or in a class)
void mjcf_fillMaterials(Ctx* c, mjModel* m) {
  for (int i = 0; i < m->nmat; i++) {
    const Obj* o = c->obj[K_MAT].p[i];
    const MatSpec* s = &o->mat;
    for (int r = 0; r < mjNTEXROLE; r++) {
      const char* t = s->textures[r];
      m->mat_texid[mjNTEXROLE * i + r] = t ? mjcf_findId(c, o->h.e, K_TEX, t, "texture") : -1;
    }
    m->mat_texuniform[i] = (unsigned char)s->texuniform;
    memcpy(m->mat_texrepeat + 2 * i, s->texrepeat, sizeof(s->texrepeat));
    m->mat_emission[i] = s->emission;
    m->mat_specular[i] = s->specular;
    m->mat_shininess[i] = s->shininess;
    m->mat_reflectance[i] = s->reflectance;
    m->mat_metallic[i] = s->metallic;
    m->mat_roughness[i] = s->roughness;
    memcpy(m->mat_rgba + 4 * i, s->rgba, sizeof(s->rgba));
  }
}

// a mesh geom's size (the largest |coordinate| of its vertices per axis), bounding radius
// (|size|) and bounding box (the mesh's)
void mjcf_meshBound(const mjMesh* me, double size[3], double* rbound, double aabb[6]) {
  for (int k = 0; k < 3; k++)
    size[k] = fmax(fabs(me->aabb[k] - me->aabb[k + 3]), fabs(me->aabb[k] + me->aabb[k + 3]));
  *rbound = mju_norm3(size);
  memcpy(aabb, me->aabb, sizeof(double) * 6);
}

// the ints of mesh o's hull graph stored in the model: MuJoCo keeps the graph of meshes that
// collide or whose faces are their hull's
int mjcf_meshGraphSize(const Obj* o) { return o->keepgraph ? o->mesh.ngraph : 0; }

// the hull polygons of mesh i (vertices from vert, polygons from *poly, polygon vertices and
// map entries from *pvert): none unless its graph is kept
static void fillPolygons(mjModel* m, int i, const mjMesh* me, int keep, int vert, int* poly,
                         int* pvert) {
  int npoly = keep ? me->npoly : 0;
  m->mesh_polyadr[i] = *poly;
  m->mesh_polynum[i] = npoly;
  for (int p = 0, adr = *pvert; p < npoly; adr += me->polyvertnum[p++]) {
    m->mesh_polyvertadr[*poly + p] = adr;
    m->mesh_polyvertnum[*poly + p] = me->polyvertnum[p];
    mju_copy3(m->mesh_polynormal + 3 * (*poly + p), me->polynormal + 3 * p);
  }
  for (int v = 0, adr = *pvert; v < me->nvert; adr += m->mesh_polymapnum[vert + v++]) {
    m->mesh_polymapadr[vert + v] = adr;
    m->mesh_polymapnum[vert + v] = keep ? me->polymapnum[v] : 0;
  }
  if (!keep) return;
  memcpy(m->mesh_polyvert + *pvert, me->polyvert, sizeof(int) * me->npolyvert);
  memcpy(m->mesh_polymap + *pvert, me->polymap, sizeof(int) * me->npolyvert);
  *poly += me->npoly;
  *pvert += me->npolyvert;
}

// the mesh arrays: each compiled mesh appended to the flat vertex, normal, texcoord, face,
// the 27 seeds of a mesh's support climb (MuJoCo's mesh_extrema): for each direction c in
// {-1, 0, 1}^3 (x slowest), the first hull vertex (graph-local id) whose v'c, in float, is the
// largest; zeros without a hull graph
static void meshExtrema(int* out, const int* graph, const float* vert) {
  memset(out, 0, 27 * sizeof(int));
  if (!graph) return;
  float top[27];
  for (int k = 0; k < 27; k++) top[k] = -FLT_MAX;
  int n = graph[0];
  for (int local = 0; local < n; local++) {
    const float* v = vert + 3 * graph[2 + n + local];
    for (int k = 0; k < 27; k++) {
      int cx = k / 9 - 1, cy = k / 3 % 3 - 1, cz = k % 3 - 1;
      float dot = v[0] * cx + v[1] * cy + v[2] * cz;
      if (dot > top[k]) top[k] = dot, out[k] = local;
    }
  }
}

// graph and polygon arrays
void mjcf_fillMeshes(Ctx* c, mjModel* m) {
  int vert = 0, normal = 0, texcoord = 0, face = 0, graph = 0, poly = 0, pvert = 0;
  for (int i = 0; i < m->nmesh; i++) {
    const Obj* o = c->obj[K_MESH].p[i];
    const mjMesh* me = &o->mesh;
    int ngraph = mjcf_meshGraphSize(o);
    fillPolygons(m, i, me, ngraph > 0, vert, &poly, &pvert);
    m->mesh_vertadr[i] = vert;
    m->mesh_vertnum[i] = me->nvert;
    m->mesh_normaladr[i] = normal;
    m->mesh_normalnum[i] = me->nnormal;
    m->mesh_texcoordadr[i] = me->ntexcoord ? texcoord : -1;
    m->mesh_texcoordnum[i] = me->ntexcoord;
    m->mesh_faceadr[i] = face;
    m->mesh_facenum[i] = me->nface;
    m->mesh_graphadr[i] = ngraph ? graph : -1;
    memcpy(m->mesh_vert + 3 * vert, me->vert, sizeof(float) * 3 * me->nvert);
    memcpy(m->mesh_normal + 3 * normal, me->normal, sizeof(float) * 3 * me->nnormal);
    memcpy(m->mesh_texcoord + 2 * texcoord, me->texcoord, sizeof(float) * 2 * me->ntexcoord);
    memcpy(m->mesh_face + 3 * face, me->face, sizeof(int) * 3 * me->nface);
    memcpy(m->mesh_facenormal + 3 * face, me->facenormal, sizeof(int) * 3 * me->nface);
    if (me->facetexcoord)
      memcpy(m->mesh_facetexcoord + 3 * face, me->facetexcoord, sizeof(int) * 3 * me->nface);
    memcpy(m->mesh_graph + graph, me->graph, sizeof(int) * ngraph);
    meshExtrema(m->mesh_extrema + 27 * i, ngraph ? me->graph : NULL, me->vert);
    mju_copy3(m->mesh_scale + 3 * i, o->meshscale);
    mju_copy3(m->mesh_pos + 3 * i, me->pos);
    mju_copy4(m->mesh_quat + 4 * i, me->quat);
    vert += me->nvert;
    normal += me->nnormal;
    texcoord += me->ntexcoord;
    face += me->nface;
    graph += ngraph;
  }
}

// the skin arrays: each skin's mesh and bones appended, bone bodies resolved by name
void mjcf_fillSkins(Ctx* c, mjModel* m) {
  int vert = 0, tex = 0, face = 0, bone = 0, bvert = 0;
  for (int i = 0; i < m->nskin; i++) {
    const Obj* o = c->obj[K_SKIN].p[i];
    const mjSkin* s = &o->skin;
    m->skin_matid[i] = mjcf_matId(c, o->h.e, o->material);
    m->skin_group[i] = o->group;
    memcpy(m->skin_rgba + 4 * i, o->rgba, sizeof(o->rgba));
    m->skin_inflate[i] = o->inflate;
    m->skin_vertadr[i] = vert;
    m->skin_vertnum[i] = s->nvert;
    m->skin_texcoordadr[i] = s->ntexcoord ? tex : -1;
    m->skin_faceadr[i] = face;
    m->skin_facenum[i] = s->nface;
    m->skin_boneadr[i] = bone;
    m->skin_bonenum[i] = s->nbone;
    memcpy(m->skin_vert + 3 * vert, s->vert, sizeof(float) * 3 * s->nvert);
    memcpy(m->skin_texcoord + 2 * tex, s->texcoord, sizeof(float) * 2 * s->ntexcoord);
    memcpy(m->skin_face + 3 * face, s->face, sizeof(int) * 3 * s->nface);
    for (int b = 0; b < s->nbone; b++) {
      int id = mjcf_mapFind(&c->names[K_BODY], s->bonename[b]);
      if (id < 0) mjcf_fail(c, o->h.e, "skin bone: unknown body '%s'", s->bonename[b]);
      m->skin_bonebodyid[bone + b] = id;
      m->skin_bonevertadr[bone + b] = bvert + s->bonevertadr[b];
      m->skin_bonevertnum[bone + b] = s->bonevertnum[b];
    }
    memcpy(m->skin_bonebindpos + 3 * bone, s->bindpos, sizeof(float) * 3 * s->nbone);
    memcpy(m->skin_bonebindquat + 4 * bone, s->bindquat, sizeof(float) * 4 * s->nbone);
    memcpy(m->skin_bonevertid + bvert, s->vertid, sizeof(int) * s->nbonevert);
    memcpy(m->skin_bonevertweight + bvert, s->vertweight, sizeof(float) * s->nbonevert);
    vert += s->nvert;
    tex += s->ntexcoord;
    face += s->nface;
    bone += s->nbone;
    bvert += s->nbonevert;
  }
}

// free the compiled meshes, skins and height fields (they live outside the arena)
void mjcf_freeMeshes(Ctx* c) {
  for (int i = 0; i < c->obj[K_MESH].n; i++) mj_meshFree(&((Obj*)c->obj[K_MESH].p[i])->mesh);
  for (int i = 0; i < c->dropmeshes.n; i++) mj_meshFree(&((Obj*)c->dropmeshes.p[i])->mesh);
  for (int i = 0; i < c->obj[K_SKIN].n; i++) mj_skinFree(&((Obj*)c->obj[K_SKIN].p[i])->skin);
  for (int i = 0; i < c->obj[K_HFIELD].n; i++)
    mj_hfieldFree(&((Obj*)c->obj[K_HFIELD].p[i])->hfield);
}
