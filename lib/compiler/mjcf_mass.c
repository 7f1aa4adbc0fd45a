// mjcf_mass.c: the mass properties of bodies (an <inertial>, or the geoms' and meshes' by
// inertiafromgeom, and the parts of fused bodies; balance and bounds), and fusestatic.
#include "compiler/mjcf.h"

#include <math.h>
#include <string.h>

#include "util/util.h"

// ---- mass properties ---------------------------------------------------------------------------

// the mass part of geom g (mass, pos, quat, principal inertia in its body's frame) when it has
// mass and its group is in the inertia group range; returns 1 then, else 0
static int geomMass(Ctx* c, const Item* g, double* mass, double pos[3], double quat[4],
                    double inertia[3]) {
  const GeomSpec* s = &g->s.geom;
  if (s->group < c->igroup[0] || s->group > c->igroup[1]) return 0;
  // mass: given, else density * volume
  const mjMesh* me = s->type == mjGEOM_MESH ? s->meshdata : 0;
  double volume = me ? me->volume : mju_geomVolume(s->type, s->size);
  *mass = s->hasmass ? s->mass : s->density * volume;
  if (*mass <= mjMINMASS) return 0;  // massless geoms do not count
  // a mesh: the inertia of its equivalent box, in the mesh (= geom) frame, as MuJoCo computes
  // it: half sizes b_i = sqrt(6 (I_j + I_k - I_i) / V) / 2 from the principal inertia per unit
  // density, then I_i = mass (b_j^2 + b_k^2) / 3
  if (me) {
    double b[3];
    const double* I = me->inertia;
    for (int i = 0; i < 3; i++)
      b[i] = 0.5 * sqrt(fmax(0, 6 * (I[(i + 1) % 3] + I[(i + 2) % 3] - I[i]) / volume));
    for (int i = 0; i < 3; i++) {
      double bj = b[(i + 1) % 3], bk = b[(i + 2) % 3];
      inertia[i] = *mass * (bj * bj + bk * bk) / 3;
    }
  } else {
    mju_geomInertia(s->type, s->size, *mass, inertia);
  }
  mju_copy3(pos, g->pos);
  mju_copy4(quat, g->quat);
  return 1;
}

// add a mass part (mass, pos, quat, principal inertia; in b's frame) to body b's extras
static void addPart(Ctx* c, Body* b, double mass, const double pos[3], const double quat[4],
                    const double inertia[3]) {
  int n = b->nextra;
  double* v[4] = {b->xmass, b->xpos, b->xquat, b->xinertia};
  static const int width[4] = {1, 3, 4, 3};
  const double* add[4] = {&mass, pos, quat, inertia};
  // grow each array by one part (the arena keeps the old copies: parts are few)
  for (int k = 0; k < 4; k++) {
    double* w = mjcf_alloc(c, sizeof(double) * width[k] * (n + 1));
    if (n) memcpy(w, v[k], sizeof(double) * width[k] * n);
    memcpy(w + width[k] * n, add[k], sizeof(double) * width[k]);
    v[k] = w;
  }
  b->xmass = v[0], b->xpos = v[1], b->xquat = v[2], b->xinertia = v[3];
  b->nextra = n + 1;
}

// the mass parts of body b: its <inertial> or its own geoms (as inertiafromgeom says), then the
// parts of the static bodies fused into it; returns their count, arrays from the arena
static int bodyParts(Ctx* c, const Body* b, double** mass, double** pos, double** quat,
                     double** inertia) {
  const Vec* geoms = &c->massgeoms;
  int cap = geoms->n + b->nextra + 1, n = 0;
  *mass = mjcf_alloc(c, sizeof(double) * cap);
  *pos = mjcf_alloc(c, sizeof(double) * 3 * cap);
  *quat = mjcf_alloc(c, sizeof(double) * 4 * cap);
  *inertia = mjcf_alloc(c, sizeof(double) * 3 * cap);
  // true: always from geoms; auto: unless <inertial>; false: only <inertial>
  int fromGeoms = c->inertiafromgeom == 1 || (c->inertiafromgeom == 2 && !b->hasinertial);
  if (fromGeoms) {
    for (int i = 0; i < geoms->n; i++) {
      const Item* g = geoms->p[i];
      if (g->body != b->id || g->fusedfrom) continue;
      n += geomMass(c, g, *mass + n, *pos + 3 * n, *quat + 4 * n, *inertia + 3 * n);
    }
  } else if (b->hasinertial) {
    (*mass)[0] = b->mass;
    mju_copy3(*pos, b->ipos);
    mju_copy4(*quat, b->iquat);
    mju_copy3(*inertia, b->inertia);
    n = 1;
  }
  if (b->nextra) {
    memcpy(*mass + n, b->xmass, sizeof(double) * b->nextra);
    memcpy(*pos + 3 * n, b->xpos, sizeof(double) * 3 * b->nextra);
    memcpy(*quat + 4 * n, b->xquat, sizeof(double) * 4 * b->nextra);
    memcpy(*inertia + 3 * n, b->xinertia, sizeof(double) * 3 * b->nextra);
  }
  return n + b->nextra;
}

// the total mass properties of n parts into b (one part keeps its own frame, as in MuJoCo);
// several parts are refused as MuJoCo refuses them: a total mass below mjMINMASS (no center of
// mass) or a principal moment below mjMINMASS (`what` names the step in the message)
static void combineParts(Ctx* c, Body* b, int n, const double* mass, const double* pos,
                         const double* quat, const double* inertia, const char* what) {
  b->mass = 0;
  mju_zero3(b->ipos);
  mju_unit4(b->iquat);
  mju_zero3(b->inertia);
  if (n == 1) {
    b->mass = mass[0];
    mju_copy3(b->ipos, pos);
    mju_copy4(b->iquat, quat);
    mju_copy3(b->inertia, inertia);
  } else if (n > 1) {
    mju_combineInertia(n, mass, pos, quat, inertia, &b->mass, b->ipos, b->iquat, b->inertia);
    if (b->mass < mjMINMASS) mjcf_fail(c, b->h.e, "%s: body mass is too small", what);
    if (b->inertia[2] < mjMINMASS)
      mjcf_fail(c, b->h.e, "%s: inertia must have positive eigenvalues", what);
  }
}

// ---- fusestatic ---------------------------------------------------------------------------------

// 1 when attribute k of e names a body: body, body1, body2 and target always, objname and
// refname when their objtype or reftype is body or xbody (a tuple's element, a sensor's object)
static int bodyRefAttr(const mjXNode* e, int k) {
  static const char* const always[] = {"body", "body1", "body2", "target", NULL};
  const char* a = e->attr[2 * k];
  if (mjcf_wordIndex(always, a) >= 0) return 1;
  const char* typeAttr = !strcmp(a, "objname") ? "objtype" : !strcmp(a, "refname") ? "reftype" : NULL;
  for (int j = 0; typeAttr && j < e->nattr; j++)
    if (!strcmp(e->attr[2 * j], typeAttr))
      return !strcmp(e->attr[2 * j + 1], "body") || !strcmp(e->attr[2 * j + 1], "xbody");
  return 0;
}

// the bodies named by references (1 each) and the largest index among them
typedef struct {
  char* named;
  int last;
} BodyRefs;

// a reference to the body called name: marked, and the largest index kept
static void noteBodyRef(Ctx* c, const char* name, BodyRefs* r) {
  for (int id = 1; id < c->obj[K_BODY].n; id++) {
    const Body* b = c->obj[K_BODY].p[id];
    if (!b->h.name || strcmp(b->h.name, name)) continue;
    r->named[id] = 1;
    if (id > r->last) r->last = id;
  }
}

// every body reference of the tree at e (bodyRefAttr) noted in r
static void noteBodyRefs(Ctx* c, const mjXNode* e, BodyRefs* r) {
  for (int a = 0; a < e->nattr; a++)
    if (bodyRefAttr(e, a)) noteBodyRef(c, e->attr[2 * a + 1], r);
  for (int i = 0; i < e->nchild; i++) noteBodyRefs(c, e->child[i], r);
}

// the items of kind k in the body tree: for geoms every one, the visual geoms discardvisual
// dropped included (their masses count in their bodies)
static const Vec* treeItems(Ctx* c, int k) { return k == K_GEOM ? &c->massgeoms : &c->obj[k]; }

// fusestatic: the bodies MuJoCo fuses are those without joints, not mocap bodies and, when
// named, neither named by a body reference (bodyRefAttr, skin bones) nor passed while a reference's
// name-to-index map is stale: MuJoCo visits the bodies in order, resolves every reference
// with the fused body's name removed from a map of the original indices, and keeps a body
// whose references fail; after f fusions the list has nbody - f bodies, so a reference to a
// body of original index beyond nbody - f - 1 (not yet visited) fails.  Those are merged into
// their parents, deepest first: their geoms and sites move to the parent with their poses
// composed, their child bodies become the parent's, and their mass properties join the
// parent's as one part; then the bodies are renumbered
void mjcf_fuseStatic(Ctx* c, const mjXNode* root) {
  Vec* bodies = &c->obj[K_BODY];
  int nbody = bodies->n;
  int* joints = mjcf_alloc(c, sizeof(int) * nbody);
  for (int i = 0; i < c->obj[K_JOINT].n; i++) joints[((Item*)c->obj[K_JOINT].p[i])->body]++;
  BodyRefs refs = {mjcf_alloc(c, (size_t)nbody), 0};
  memset(refs.named, 0, (size_t)nbody);
  noteBodyRefs(c, root, &refs);
  for (int i = 0; i < c->obj[K_SKIN].n; i++) {
    const mjSkin* sk = &((Obj*)c->obj[K_SKIN].p[i])->skin;
    for (int b = 0; b < sk->nbone; b++) noteBodyRef(c, sk->bonename[b], &refs);
  }
  char* fuse = mjcf_alloc(c, (size_t)nbody);
  for (int id = 1, f = 0; id < nbody; id++) {
    const Body* b = bodies->p[id];
    int stale = refs.last > id && refs.last > nbody - 1 - f;
    fuse[id] = !joints[id] && !b->mocap && !(b->h.name && (refs.named[id] || stale));
    f += fuse[id];
  }
  for (int id = nbody - 1; id > 0; id--) {
    Body* b = bodies->p[id];
    if (!fuse[id]) continue;
    Body* p = bodies->p[b->parent];
    // cameras and lights cannot move to the parent (MuJoCo refuses them too)
    for (int k = K_CAM; k <= K_LIGHT; k++)
      for (int i = 0; i < c->obj[k].n; i++)
        if (((Item*)c->obj[k].p[i])->body == id)
          mjcf_fail(c, ((Item*)c->obj[k].p[i])->h.e, "fusestatic: a static body with a %s cannot "
                    "be fused", mjcf_kindWord[k]);
    // its mass properties as one part of the parent
    double *mass, *pos, *quat, *inertia;
    int n = bodyParts(c, b, &mass, &pos, &quat, &inertia);
    Body whole = {.h = b->h};
    combineParts(c, &whole, n, mass, pos, quat, inertia, "fusing static body inertias");
    if (whole.mass > 0) {
      // the part's inertial frame in the parent: b's pose times its own inertial frame
      double ppos[3], pquat[4];
      mju_mulPose(ppos, pquat, b->pos, b->quat, whole.ipos, whole.iquat);
      addPart(c, p, whole.mass, ppos, pquat, whole.inertia);
    }
    // geoms and sites move with their poses composed
    for (int k = K_GEOM; k <= K_SITE; k++) {
      const Vec* items = treeItems(c, k);
      for (int i = 0; i < items->n; i++) {
        Item* it = items->p[i];
        if (it->body != id) continue;
        mju_mulPose(it->pos, it->quat, b->pos, b->quat, it->pos, it->quat);
        it->body = b->parent;
        if (!it->fusedfrom) it->fusedfrom = id;
      }
    }
    // children follow
    for (int i = id + 1; i < nbody; i++) {
      Body* ch = bodies->p[i];
      if (ch->fused || ch->parent != id) continue;
      mju_mulPose(ch->pos, ch->quat, b->pos, b->quat, ch->pos, ch->quat);
      ch->parent = b->parent;
    }
    b->fused = 1;
  }
  // renumber: the kept bodies in order, every body reference remapped
  int* newid = mjcf_alloc(c, sizeof(int) * nbody);
  int kept = 0;
  for (int id = 0; id < nbody; id++) {
    Body* b = bodies->p[id];
    newid[id] = b->fused ? -1 : kept;
    if (!b->fused) bodies->p[kept++] = b;
  }
  bodies->n = kept;
  for (int id = 0; id < kept; id++) {
    Body* b = bodies->p[id];
    b->id = id;
    b->parent = id ? newid[b->parent] : 0;
  }
  for (int k = K_JOINT; k <= K_LIGHT; k++) {
    const Vec* items = treeItems(c, k);
    for (int i = 0; i < items->n; i++) {
      Item* it = items->p[i];
      it->body = newid[it->body];
    }
  }
}

// ---- body inertia ------------------------------------------------------------------------------

// mass properties of every body: <inertial> or geoms per inertiafromgeom and the parts of
// fused static bodies, then balance, bounds and the total mass
void mjcf_bodyInertia(Ctx* c) {
  Vec* bodies = &c->obj[K_BODY];
  double total = 0;
  for (int i = 1; i < bodies->n; i++) {
    Body* b = bodies->p[i];
    double *mass, *pos, *quat, *inertia;
    int n = bodyParts(c, b, &mass, &pos, &quat, &inertia);
    combineParts(c, b, n, mass, pos, quat, inertia, "principal axes of its parts");
    // a body without mass parts (a dummy holding sites or cameras) takes its own pose in the
    // parent as its inertial frame, as MuJoCo copies it: the pose as written, before the
    // <frame>s and <replicate>s around it (it moves the body's sameframe, com and invweight0,
    // not its dynamics: the mass is zero)
    if (!n) {
      mju_copy3(b->ipos, b->wpos);
      mju_copy4(b->iquat, b->wquat);
    }
    // principal moments of a rigid body satisfy the triangle inequality A + B >= C; with
    // balanceinertia a violating inertia becomes its mean, else it is an error
    double* I = b->inertia;
    if (I[0] + I[1] < I[2] || I[0] + I[2] < I[1] || I[1] + I[2] < I[0]) {
      if (!c->balanceinertia)
        mjcf_fail(c, b->h.e, "inertia must satisfy A + B >= C; use 'balanceinertia' to fix");
      I[0] = I[1] = I[2] = (I[0] + I[1] + I[2]) / 3;
    }
    if (b->mass < c->boundmass) b->mass = c->boundmass;
    for (int k = 0; k < 3; k++)
      if (I[k] < c->boundinertia) I[k] = c->boundinertia;
    total += b->mass;
  }
  // settotalmass scales every mass and inertia
  if (c->settotalmass > 0 && total > mjMINVAL) {
    double scale = c->settotalmass / total;
    for (int i = 1; i < bodies->n; i++) {
      Body* b = bodies->p[i];
      b->mass *= scale;
      mju_scl3(b->inertia, b->inertia, scale);
    }
  }
}

// ---- free-joint alignment ----------------------------------------------------------------------

// a body whose one joint is free, with no child bodies, and whose joint asks for alignment
// (align true, or auto under compiler alignfree) moves its frame onto its inertial frame:
// pose = pose * ipose, ipose = identity, and its geoms, sites, cameras and lights (their
// positions; a light's direction turned) re-expressed in the new frame by inv(ipose), as
// MuJoCo aligns them
void mjcf_alignFree(Ctx* c) {
  Vec* bodies = &c->obj[K_BODY];
  for (int id = 1; id < bodies->n; id++) {
    Body* b = bodies->p[id];
    int njoint = 0, children = 0;
    const JointSpec* free = NULL;
    for (int i = 0; i < c->obj[K_JOINT].n; i++) {
      const Item* j = c->obj[K_JOINT].p[i];
      if (j->body != id) continue;
      njoint++;
      if (j->s.joint.type == mjJNT_FREE) free = &j->s.joint;
    }
    for (int i = id + 1; i < bodies->n; i++) children += ((Body*)bodies->p[i])->parent == id;
    int align = free && (free->align == 1 || (free->align == 2 && c->alignfree));
    if (njoint != 1 || children || !align) continue;
    double ipos[3], iquat[4];
    mju_negPose(ipos, iquat, b->ipos, b->iquat);
    mju_mulPose(b->pos, b->quat, b->pos, b->quat, b->ipos, b->iquat);
    mju_zero3(b->ipos);
    mju_unit4(b->iquat);
    for (int k = K_GEOM; k <= K_LIGHT; k++)
      for (int i = 0; i < c->obj[k].n; i++) {
        Item* it = c->obj[k].p[i];
        if (it->body != id) continue;
        if (k == K_LIGHT) {
          double p[3];
          mju_rotVecQuat(p, it->pos, iquat);
          mju_add3(it->pos, p, ipos);
          mju_rotVecQuat(it->s.light.dir, it->s.light.dir, iquat);
        } else {
          mju_mulPose(it->pos, it->quat, ipos, iquat, it->pos, it->quat);
        }
      }
  }
}

// ---- the ellipsoid fluid model's added mass ---------------------------------------------------

// kappa_x = dx dy dz Int_0^inf dl / sqrt((dx^2 + l)^3 (dy^2 + l) (dz^2 + l)), the added-mass
// coefficient along the first axis of an ellipsoid of semi-axes (dx, dy, dz) (Lamb's
// integral), as MuJoCo's compiler evaluates it: 15-point Gauss-Kronrod on x in [0, 1] with
// l = s x^3 / (1 - x)^2, s = (dx^3 dy dz)^(2/5) (the tables: l/s and dl/dx at the nodes, the
// weights), the integrand written 1/dx^2 / ((1 + l/dx^2) sqrt(prod_i (1 + l/di^2)))
static double addedMassKappa(double dx, double dy, double dz) {
  static const double w[15] = {
      0.01146766, 0.03154605, 0.05239501, 0.07032663, 0.08450236,
      0.09517529, 0.10221647, 0.10474107, 0.10221647, 0.09517529,
      0.08450236, 0.07032663, 0.05239501, 0.03154605, 0.01146766};
  static const double l[15] = {
      7.865151709349917e-08, 1.7347976913907274e-05, 0.0003548008144506193,
      0.002846636252924549, 0.014094260903596077, 0.053063261727396636,
      0.17041978741317773, 0.5, 1.4036301548686991, 3.9353484827022642,
      11.644841677041734, 39.53187807410903, 177.5711362220801,
      1429.4772912937397, 54087.416549217705};
  static const double dl[15] = {
      5.538677720489877e-05, 0.002080868285293228, 0.016514126520723166,
      0.07261900344370877, 0.23985243401862602, 0.6868318249020725,
      1.8551129519182894, 5.0, 14.060031152313941, 43.28941239611009,
      156.58546376397112, 747.9826085305024, 5827.4042950027115,
      116754.0197944512, 25482945.327264845};
  double ix = 1 / (dx * dx), iy = 1 / (dy * dy), iz = 1 / (dz * dz);
  double s = pow(dx * dx * dx * dy * dz, 0.4), kappa = 0;
  for (int i = 0; i < 15; i++) {
    double lam = s * l[i];
    double ax = 1 + lam * ix;
    kappa += s * dl[i] / (ax * sqrt(ax * (1 + lam * iy) * (1 + lam * iz))) * w[i];
  }
  return kappa * ix;
}

// geom_fluid of a geom with fluidshape="ellipsoid": {1, the five fluidcoef, virtual mass[3],
// virtual inertia[3]} for the ellipsoid of semi-axes d of volume V = 4/3 pi d0 d1 d2:
//   mass_i = V k_i / (2 - k_i),
//   inertia_x = V/5 (dy^2 - dz^2)^2 |kz - ky| / |2 (dy^2 - dz^2) + (dy^2 + dz^2)(ky - kz)|
// (and cyclically), denominators at least mjMINMASS (MuJoCo's mjEPS)
void mjcf_geomFluid(int type, const double size[3], const double coef[5], double fluid[12]) {
  double d[3], k[3];
  mju_geomSemiAxes(type, size, d);
  double volume = 4.0 / 3.0 * mjPI * d[0] * d[1] * d[2];
  for (int i = 0; i < 3; i++) k[i] = addedMassKappa(d[i], d[(i + 1) % 3], d[(i + 2) % 3]);
  fluid[0] = 1;
  memcpy(fluid + 1, coef, 5 * sizeof(double));
  for (int i = 0; i < 3; i++) {
    int j = (i + 1) % 3, n = (i + 2) % 3;
    double dj = d[j] * d[j], dn = d[n] * d[n];
    double fac = (dj - dn) * (dj - dn) * fabs(k[n] - k[j]) /
                 fmax(mjMINMASS, fabs(2 * (dj - dn) + (dj + dn) * (k[j] - k[n])));
    fluid[6 + i] = volume * k[i] / fmax(mjMINMASS, 2 - k[i]);
    fluid[9 + i] = volume * fac / 5;
  }
}
