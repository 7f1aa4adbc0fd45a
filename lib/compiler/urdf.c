// urdf.c: URDF robots into MJCF element trees, read as MuJoCo's URDF reader reads them.
//
// The reader makes, for each <link>, a <body> with its <inertial> and geoms, places the bodies
// in the tree the joints draw (depth first from the roots in link order, children in joint
// order), gives each child body its joint's origin and joint elements, and collects the mesh
// files as assets.  Every new element carries the file and line of the URDF element it comes
// from, so that the MJCF compiler's messages point into the URDF.  Numbers are checked here
// (URDF's attribute names in the messages) and written with 17 digits, which read back exact.
#include "compiler/urdf.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"

// the translation of one robot
typedef struct {
  jmp_buf jmp;
  char* err;
  int errsz;
  const mjXNode* robot;
  mjXNode* out;             // the <mujoco> tree being built
  mjXNode *asset, *world;   // its <asset> and <worldbody>
  int discardvisual, strippath;
  mjXNode* equality;        // the <equality> of mimic joints (NULL until one)
  int nlink;
  const mjXNode** link;     // the <link> elements in document order
  const char** linkname;
  int* parent;              // each link's parent link (-1: a root of the tree)
  int nchild;               // the joints' child links in joint order
  int* child;
  mjXNode** body;           // its <body> (the world body for a link named "world")
  int* placed;              // its body is in the tree (out owns it)
  int nmat;                 // material colors by name, the first definition of a name kept
  const char** matname;
  float (*matrgba)[4];
  int nmesh;                // mesh assets (the children of <asset>)
  int* meshstem;            // the length of the file name stem each one's name begins with
  double (*meshscale)[3];   // each one's scale
  int ngeomname;            // geom names taken (a repeated name leaves the geom unnamed)
  const char** geomname;
} Urdf;

// report "file:line: message" at element e and unwind to mjurdf_toMjcf
static void fail(Urdf* u, const mjXNode* e, const char* fmt, ...)
  __attribute__((format(printf, 3, 4), noreturn));
static void fail(Urdf* u, const mjXNode* e, const char* fmt, ...) {
  int n = snprintf(u->err, u->errsz, "%s:%d: ", e->file, e->line);
  if (n >= 0 && n < u->errsz) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(u->err + n, u->errsz - n, fmt, ap);
    va_end(ap);
  }
  longjmp(u->jmp, 1);
}

// ---- reading URDF ------------------------------------------------------------------------------

// the only child of e named `name`, NULL when there is none; an error when it is repeated or
// required and absent
static const mjXNode* sub(Urdf* u, const mjXNode* e, const char* name, int required) {
  const mjXNode* found = NULL;
  for (int i = 0; i < e->nchild; i++) {
    if (strcmp(e->child[i]->name, name)) continue;
    if (found) fail(u, e->child[i], "repeated element '%s' in %s", name, e->name);
    found = e->child[i];
  }
  if (required && !found) fail(u, e, "element '%s' needs a '%s' element", e->name, name);
  return found;
}

// attribute `name` of e, NULL when absent (an error when required)
static const char* text(Urdf* u, const mjXNode* e, const char* name, int required) {
  const char* s = mjx_attr(e, name);
  if (!s && required) fail(u, e, "element '%s' needs attribute '%s'", e->name, name);
  return s;
}

// exactly n numbers of attribute `name` into v; 0 when absent (an error when required)
static int nums(Urdf* u, const mjXNode* e, const char* name, double* v, int n, int required) {
  const char* s = text(u, e, name, required);
  if (!s) return 0;
  int k = 0;
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    if (!*s) break;
    char* end;
    double x = strtod(s, &end);
    if (end == s) fail(u, e, "bad number in attribute '%s' of %s", name, e->name);
    if (k == n) fail(u, e, "attribute '%s' of %s has more than %d numbers", name, e->name, n);
    v[k++] = x;
    s = end;
  }
  if (k < n) fail(u, e, "attribute '%s' of %s needs %d numbers", name, e->name, n);
  return 1;
}

// the pose of e's <origin>: position and roll-pitch-yaw (zero when absent); whether rpy is given
static int origin(Urdf* u, const mjXNode* e, double pos[3], double rpy[3]) {
  pos[0] = pos[1] = pos[2] = 0;
  const mjXNode* o = sub(u, e, "origin", 0);
  if (!o) return 0;
  nums(u, o, "xyz", pos, 3, 0);
  return nums(u, o, "rpy", rpy, 3, 0);
}

// index of the link named `name`, or -1
static int findLink(const Urdf* u, const char* name) {
  for (int i = 0; i < u->nlink; i++)
    if (!strcmp(u->linkname[i], name)) return i;
  return -1;
}

// every named <material> with a <color> under e, in document order: the first of a name wins
static void materials(Urdf* u, const mjXNode* e) {
  const char* name = strcmp(e->name, "material") ? NULL : mjx_attr(e, "name");
  const mjXNode* color = name ? sub(u, e, "color", 0) : NULL;
  int known = 0;
  for (int i = 0; color && i < u->nmat; i++) known |= !strcmp(u->matname[i], name);
  if (color && !known) {
    double v[4];
    nums(u, color, "rgba", v, 4, 1);
    u->matname[u->nmat] = name;
    for (int k = 0; k < 4; k++) u->matrgba[u->nmat][k] = (float)v[k];
    u->nmat++;
  }
  for (int i = 0; i < e->nchild; i++) materials(u, e->child[i]);
}

// ---- writing MJCF ------------------------------------------------------------------------------

// a new element `name` for URDF element from (its file and line), appended to parent
static mjXNode* node(Urdf* u, mjXNode* parent, const char* name, const mjXNode* from) {
  mjXNode* e = mjx_newNode(name, from->file, from->line);
  if (!e) fail(u, from, "out of memory");
  if (parent && !mjx_addChild(parent, e)) {
    mjx_freeNode(e);
    fail(u, from, "out of memory");
  }
  return e;
}

// attribute name="value" of e
static void attr(Urdf* u, mjXNode* e, const char* name, const char* value) {
  if (!mjx_addAttr(e, name, value)) fail(u, e, "out of memory");
}

// attribute `name` of e: n numbers written with 17 significant digits (exact on reading)
static void attrNums(Urdf* u, mjXNode* e, const char* name, const double* v, int n) {
  char buf[16 * 26];
  int len = 0;
  for (int i = 0; i < n; i++) len += snprintf(buf + len, 26, i ? " %.17g" : "%.17g", v[i]);
  attr(u, e, name, buf);
}

// the pose attributes of e (pos, and euler when rpy is given) from URDF element from's <origin>
static void pose(Urdf* u, mjXNode* e, const mjXNode* from) {
  double pos[3], rpy[3];
  int hasrpy = origin(u, from, pos, rpy);
  attrNums(u, e, "pos", pos, 3);
  if (hasrpy) attrNums(u, e, "euler", rpy, 3);
}

// ---- links -------------------------------------------------------------------------------------

// the asset name of a mesh file at a scale: the file name without folders and extension, with
// the count of earlier scales appended when the same name came with another scale; a new
// <mesh> asset unless one of that name and scale exists (its file without folders under
// strippath)
static const char* meshName(Urdf* u, const mjXNode* e, const char* file, const double scale[3]) {
  const char* base = file;
  for (const char* p = file; *p; p++)
    if (*p == '/' || *p == '\\') base = p + 1;
  const char* dot = strrchr(base, '.');
  int n = dot ? (int)(dot - base) : (int)strlen(base);
  char name[1024];
  if (n >= (int)sizeof(name) - 16) fail(u, e, "mesh file name too long");
  memcpy(name, base, n);
  name[n] = 0;
  // the assets of this stem so far (an asset's stem: the first meshstem[i] bytes of its name)
  int count = 0;
  for (int i = 0; i < u->nmesh; i++) {
    const char* other = mjx_attr(u->asset->child[i], "name");
    if (u->meshstem[i] != n || strncmp(other, name, n)) continue;
    if (!memcmp(u->meshscale[i], scale, sizeof(double) * 3)) return other;
    count++;
  }
  if (count) snprintf(name + n, 16, "%d", count);
  mjXNode* m = node(u, u->asset, "mesh", e);
  attr(u, m, "name", name);
  attr(u, m, "file", u->strippath ? base : file);
  attrNums(u, m, "scale", scale, 3);
  u->meshstem[u->nmesh] = n;
  memcpy(u->meshscale[u->nmesh], scale, sizeof(double) * 3);
  u->nmesh++;
  return mjx_attr(m, "name");
}

// a geom in body b from a <visual> or <collision> element e, colored rgba (rgba[0] < 0: none)
static void geom(Urdf* u, mjXNode* b, const mjXNode* e, int collision, const float rgba[4]) {
  const mjXNode* g = sub(u, e, "geometry", 1);
  mjXNode* out = node(u, b, "geom", e);
  const mjXNode* s;
  double size[3];
  if ((s = sub(u, g, "box", 0))) {
    nums(u, s, "size", size, 3, 1);
    for (int i = 0; i < 3; i++) size[i] /= 2;  // MuJoCo's sizes are half lengths
    attr(u, out, "type", "box");
    attrNums(u, out, "size", size, 3);
  } else if ((s = sub(u, g, "cylinder", 0)) || (s = sub(u, g, "capsule", 0))) {
    nums(u, s, "radius", size, 1, 1);
    nums(u, s, "length", size + 1, 1, 1);
    size[1] /= 2;
    attr(u, out, "type", s->name);
    attrNums(u, out, "size", size, 2);
  } else if ((s = sub(u, g, "sphere", 0))) {
    nums(u, s, "radius", size, 1, 1);
    attr(u, out, "type", "sphere");
    attrNums(u, out, "size", size, 1);
  } else if ((s = sub(u, g, "mesh", 0))) {
    double scale[3] = {1, 1, 1};
    const char* file = text(u, s, "filename", 1);
    nums(u, s, "scale", scale, 3, 0);
    attr(u, out, "type", "mesh");
    attr(u, out, "mesh", meshName(u, s, file, scale));
  } else {
    fail(u, g, "geometry needs a box, cylinder, sphere, capsule or mesh");
  }
  pose(u, out, e);
  // visual geoms neither collide nor weigh
  if (!collision) {
    attr(u, out, "contype", "0");
    attr(u, out, "conaffinity", "0");
    attr(u, out, "group", "1");
    attr(u, out, "density", "0");
  }
  if (rgba[0] >= 0) {
    char buf[80];
    snprintf(buf, sizeof(buf), "%.9g %.9g %.9g %.9g", rgba[0], rgba[1], rgba[2], rgba[3]);
    attr(u, out, "rgba", buf);
  }
  // the name, unless an earlier geom has it
  const char* name = mjx_attr(e, "name");
  for (int i = 0; name && i < u->ngeomname; i++)
    if (!strcmp(u->geomname[i], name)) name = NULL;
  if (name) {
    attr(u, out, "name", name);
    u->geomname[u->ngeomname++] = name;
  }
}

// <inertial> of link e into body b: the mass at the origin, the full inertia matrix given in
// the origin's frame turned into the link's; an all-zero matrix counts as none (zero principal
// moments in the origin's frame)
static void inertial(Urdf* u, mjXNode* b, const mjXNode* e) {
  const mjXNode* in = sub(u, e, "inertial", 0);
  if (!in) return;
  double pos[3], rpy[3], mass, full[6];
  int hasrpy = origin(u, in, pos, rpy);
  nums(u, sub(u, in, "mass", 1), "value", &mass, 1, 1);
  const mjXNode* I = sub(u, in, "inertia", 1);
  static const char* const names[6] = {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"};
  int zero = 1;
  for (int i = 0; i < 6; i++) {
    nums(u, I, names[i], full + i, 1, 1);
    zero &= full[i] == 0;
  }
  mjXNode* out = node(u, b, "inertial", in);
  attrNums(u, out, "pos", pos, 3);
  attrNums(u, out, "mass", &mass, 1);
  if (zero) {
    if (hasrpy) attrNums(u, out, "euler", rpy, 3);
    attr(u, out, "diaginertia", "0 0 0");
    return;
  }
  // the matrix in the link's axes, R I R^T (R: fixed-axis roll, pitch, yaw)
  if (hasrpy) {
    double q[4] = {1, 0, 0, 0}, r[9], RI[9], RIRt[9];
    for (int i = 0; i < 3; i++) {
      double axis[3] = {0, 0, 0}, qi[4], t[4];
      axis[i] = 1;
      mju_axisAngle2Quat(qi, axis, rpy[i]);
      mju_mulQuat(t, qi, q);
      mju_copy4(q, t);
    }
    mju_quat2Mat(r, q);
    double I[9] = {full[0], full[3], full[4], full[3], full[1], full[5], full[4], full[5], full[2]};
    mju_mulMatMat(RI, r, I, 3, 3, 3);
    mju_mulMatMatT(RIRt, RI, r, 3, 3, 3);
    double rotated[6] = {RIRt[0], RIRt[4], RIRt[8], RIRt[1], RIRt[2], RIRt[5]};
    mju_copy(full, rotated, 6);
  }
  attrNums(u, out, "fullinertia", full, 6);
}

// link i: its body (the world body for "world") with inertial and geoms; a <visual>'s material
// colors it and the geoms after it in the link
static void readLink(Urdf* u, int i) {
  const mjXNode* e = u->link[i];
  mjXNode* b = u->world;
  if (strcmp(u->linkname[i], "world")) {
    b = u->body[i] = node(u, NULL, "body", e);
    attr(u, b, "name", u->linkname[i]);
    inertial(u, b, e);
  }
  float rgba[4] = {-1, 0, 0, 0};
  for (int k = 0; k < e->nchild; k++) {
    const mjXNode* g = e->child[k];
    int collision = !strcmp(g->name, "collision");
    if (!collision && strcmp(g->name, "visual")) continue;
    const mjXNode* mat = collision ? NULL : sub(u, g, "material", 0);
    const mjXNode* color = mat ? sub(u, mat, "color", 0) : NULL;
    double v[4];
    if (color) {
      nums(u, color, "rgba", v, 4, 1);
      for (int j = 0; j < 4; j++) rgba[j] = (float)v[j];
    } else if (mat) {
      const char* name = text(u, mat, "name", 1);
      for (int j = 0; j < u->nmat; j++)
        if (!strcmp(u->matname[j], name)) memcpy(rgba, u->matrgba[j], sizeof(rgba));
    }
    if (collision || !u->discardvisual) geom(u, b, g, collision, rgba);
  }
}

// ---- joints ------------------------------------------------------------------------------------

// the link of a joint's <parent> or <child> element
static int jointLink(Urdf* u, const mjXNode* joint, const char* which) {
  const char* name = text(u, sub(u, joint, which, 1), "link", 1);
  int i = findLink(u, name);
  if (i < 0) fail(u, joint, "joint's %s link '%s' does not exist", which, name);
  return i;
}

// a <joint> element of the given MJCF type in body b, named name + suffix, along axis
static mjXNode* addJoint(Urdf* u, mjXNode* b, const mjXNode* e, const char* type,
                         const char* suffix, const double* axis) {
  char name[1024];
  snprintf(name, sizeof(name), "%s%s", text(u, e, "name", 1), suffix);
  mjXNode* j = node(u, b, "joint", e);
  attr(u, j, "name", name);
  attr(u, j, "type", type);
  if (axis) attrNums(u, j, "axis", axis, 3);
  return j;
}

// URDF <joint> e: its origin is the child body's pose; the joints it makes in the child body
// (planar: slides along the x and y of a frame whose z is the axis, then a hinge about it) with
// dynamics on each, limits and a mimic's equality on the first
static void readJoint(Urdf* u, const mjXNode* e) {
  static const char* const types[] = {"revolute", "continuous", "prismatic", "fixed",
                                      "floating", "planar", "spherical", NULL};
  const char* tname = text(u, e, "type", 1);
  int type = 0;
  while (types[type] && strcmp(types[type], tname)) type++;
  if (!types[type]) fail(u, e, "unknown joint type '%s'", tname);
  text(u, e, "name", 1);
  mjXNode* b = u->body[jointLink(u, e, "child")];
  pose(u, b, e);
  double axis[3] = {1, 0, 0};
  const mjXNode* ax = sub(u, e, "axis", 0);
  if (ax) nums(u, ax, "xyz", axis, 3, 1);
  mjXNode* j[3] = {NULL, NULL, NULL};
  switch (type) {
    case 0:
    case 1:
      j[0] = addJoint(u, b, e, "hinge", "", axis);
      break;
    case 2:
      j[0] = addJoint(u, b, e, "slide", "", axis);
      break;
    case 3:
      return;
    case 4:
      j[0] = addJoint(u, b, e, "free", "", NULL);
      break;
    case 5: {
      double q[4], r[9], x[3], y[3];
      mju_quatZ2Vec(q, axis);
      mju_quat2Mat(r, q);
      for (int k = 0; k < 3; k++) {
        x[k] = r[3 * k];
        y[k] = r[3 * k + 1];
      }
      j[0] = addJoint(u, b, e, "slide", "_TX", x);
      j[1] = addJoint(u, b, e, "slide", "_TY", y);
      j[2] = addJoint(u, b, e, "hinge", "_RZ", axis);
      break;
    }
    case 6:
      j[0] = addJoint(u, b, e, "ball", "", axis);
      break;
  }
  // a mimic joint follows another: a joint equality q1 = offset + multiplier q2
  const mjXNode* mimic = sub(u, e, "mimic", 0);
  if (mimic) {
    double coef[5] = {0, 1, 0, 0, 0};
    const char* other = text(u, mimic, "joint", 1);
    nums(u, mimic, "offset", coef, 1, 0);
    nums(u, mimic, "multiplier", coef + 1, 1, 0);
    if (!u->equality) u->equality = node(u, u->out, "equality", u->robot);
    mjXNode* q = node(u, u->equality, "joint", mimic);
    attr(u, q, "joint1", mjx_attr(j[0], "name"));
    attr(u, q, "joint2", other);
    attrNums(u, q, "polycoef", coef, 5);
  }
  const mjXNode* dyn = sub(u, e, "dynamics", 0);
  double v;
  for (int k = 0; dyn && k < 3 && j[k]; k++) {
    if (nums(u, dyn, "damping", &v, 1, 0)) attrNums(u, j[k], "damping", &v, 1);
    if (nums(u, dyn, "friction", &v, 1, 0)) attrNums(u, j[k], "frictionloss", &v, 1);
  }
  // limits: a range only with both ends in order, the effort a symmetric actuator force range
  const mjXNode* lim = sub(u, e, "limit", 0);
  if (!lim) return;
  double range[2] = {0, 0}, effort = 0;
  int lower = nums(u, lim, "lower", range, 1, 0);
  int upper = nums(u, lim, "upper", range + 1, 1, 0);
  if (lower || upper) {
    attrNums(u, j[0], "range", range, 2);
    attr(u, j[0], "limited", lower && upper && range[0] < range[1] ? "true" : "false");
  }
  nums(u, lim, "effort", &effort, 1, 0);
  effort = effort < 0 ? -effort : effort;
  if (effort > 0) {
    double r[2] = {-effort, effort};
    attrNums(u, j[0], "actuatorfrcrange", r, 2);
    attr(u, j[0], "actuatorfrclimited", "true");
  }
}

// ---- the tree ----------------------------------------------------------------------------------

// the deepest link tree placed (the compiler walks bodies recursively)
enum { MAXDEPTH = 1000 };

// link i's body into element parent (the world link's children into the world body), then its
// children's, depth first in joint order
static void place(Urdf* u, int i, mjXNode* parent, int depth) {
  mjXNode* b = u->body[i] ? u->body[i] : u->world;
  if (depth > MAXDEPTH) fail(u, u->link[i], "links nested deeper than %d", MAXDEPTH);
  if (u->body[i]) {
    if (!mjx_addChild(parent, b)) fail(u, u->link[i], "out of memory");
    u->placed[i] = 1;
  }
  for (int k = 0; k < u->nchild; k++)
    if (u->parent[u->child[k]] == i) place(u, u->child[k], b, depth + 1);
}

// the <compiler> of URDF (fusestatic, discardvisual, radians, roll-pitch-yaw) with the settings
// of the robot's <mujoco><compiler> over it, and copies of its <option> and <size>
static void settings(Urdf* u) {
  const mjXNode* mj = sub(u, u->robot, "mujoco", 0);
  const mjXNode* given = mj ? sub(u, mj, "compiler", 0) : NULL;
  mjXNode* c = node(u, u->out, "compiler", given ? given : u->robot);
  int fuse = 0;
  u->discardvisual = 1;
  for (int i = 0; given && i < given->nattr; i++) {
    const char *name = given->attr[2 * i], *value = given->attr[2 * i + 1];
    if (!strcmp(name, "angle") || !strcmp(name, "eulerseq")) continue;
    attr(u, c, name, value);
    fuse |= !strcmp(name, "fusestatic");
    if (!strcmp(name, "discardvisual")) u->discardvisual = strcmp(value, "false") != 0;
    if (!strcmp(name, "strippath")) u->strippath = !strcmp(value, "true");
  }
  for (int i = 0; given && i < given->nchild; i++) {
    mjXNode* k = mjx_copyNode(given->child[i]);
    if (!k || !mjx_addChild(c, k)) {
      mjx_freeNode(k);
      fail(u, given, "out of memory");
    }
  }
  if (!fuse) attr(u, c, "fusestatic", "true");
  if (!mjx_attr(c, "discardvisual")) attr(u, c, "discardvisual", "true");
  attr(u, c, "angle", "radian");
  attr(u, c, "eulerseq", "XYZ");
  static const char* const copied[] = {"option", "size"};
  for (int i = 0; mj && i < 2; i++) {
    const mjXNode* s = sub(u, mj, copied[i], 0);
    mjXNode* k = s ? mjx_copyNode(s) : NULL;
    if (s && (!k || !mjx_addChild(u->out, k))) {
      mjx_freeNode(k);
      fail(u, s, "out of memory");
    }
  }
}

// the links, their joints and the tree
static void translate(Urdf* u) {
  const mjXNode* r = u->robot;
  u->out = node(u, NULL, "mujoco", r);
  const char* model = mjx_attr(r, "name");
  if (model) attr(u, u->out, "model", model);
  settings(u);
  u->asset = node(u, u->out, "asset", r);
  u->world = node(u, u->out, "worldbody", r);
  materials(u, r);
  // the links, named once each
  for (int i = 0; i < r->nchild; i++) {
    const mjXNode* e = r->child[i];
    if (strcmp(e->name, "link")) continue;
    const char* name = text(u, e, "name", 1);
    if (findLink(u, name) >= 0) fail(u, e, "link name '%s' repeated", name);
    u->link[u->nlink] = e;
    u->linkname[u->nlink] = name;
    u->parent[u->nlink++] = -1;
  }
  // the tree the joints draw: one parent per link, the world link none
  for (int i = 0; i < r->nchild; i++) {
    const mjXNode* e = r->child[i];
    if (strcmp(e->name, "joint")) continue;
    int p = jointLink(u, e, "parent"), k = jointLink(u, e, "child");
    if (!strcmp(u->linkname[k], "world")) fail(u, e, "link 'world' cannot be a joint's child");
    if (u->parent[k] >= 0) fail(u, e, "link '%s' has more than one parent", u->linkname[k]);
    u->parent[k] = p;
    u->child[u->nchild++] = k;
  }
  for (int i = 0; i < u->nlink; i++) readLink(u, i);
  for (int i = 0; i < r->nchild; i++)
    if (!strcmp(r->child[i]->name, "joint")) readJoint(u, r->child[i]);
  for (int i = 0; i < u->nlink; i++)
    if (u->parent[i] < 0) place(u, i, u->world, 1);
  for (int i = 0; i < u->nlink; i++)
    if (u->body[i] && !u->placed[i])
      fail(u, u->link[i], "link '%s' is on a cycle of joints", u->linkname[i]);
}

// the elements of the tree under e, e included
static int countNodes(const mjXNode* e) {
  int n = 1;
  for (int i = 0; i < e->nchild; i++) n += countNodes(e->child[i]);
  return n;
}

// free the translation's tables, and on failure what it built
static void freeUrdf(Urdf* u, int failed) {
  for (int i = 0; failed && i < u->nlink; i++)
    if (!u->placed[i]) mjx_freeNode(u->body[i]);
  if (failed) mjx_freeNode(u->out);
  free(u->link);
  free(u->linkname);
  free(u->parent);
  free(u->child);
  free(u->body);
  free(u->placed);
  free(u->matname);
  free(u->matrgba);
  free(u->meshstem);
  free(u->meshscale);
  free(u->geomname);
  free(u);
}

// whether root is a URDF robot
int mjurdf_isRobot(const mjXNode* root) { return !strcasecmp(root->name, "robot"); }

// replace doc's <robot> tree by the equivalent <mujoco> tree
int mjurdf_toMjcf(mjXDoc* doc, char* err, int errsz) {
  Urdf* u = calloc(1, sizeof(Urdf));
  if (!u) {
    snprintf(err, errsz, "%s: out of memory", doc->root->file);
    return 0;
  }
  // every table sized by the robot's element count, a bound on links, joints, materials, geoms
  size_t n = countNodes(doc->root) + 1;
  u->link = calloc(n, sizeof(*u->link));
  u->linkname = calloc(n, sizeof(*u->linkname));
  u->parent = calloc(n, sizeof(*u->parent));
  u->child = calloc(n, sizeof(*u->child));
  u->body = calloc(n, sizeof(*u->body));
  u->placed = calloc(n, sizeof(*u->placed));
  u->matname = calloc(n, sizeof(*u->matname));
  u->matrgba = calloc(n, sizeof(*u->matrgba));
  u->meshstem = calloc(n, sizeof(*u->meshstem));
  u->meshscale = calloc(n, sizeof(*u->meshscale));
  u->geomname = calloc(n, sizeof(*u->geomname));
  if (!u->link || !u->linkname || !u->parent || !u->child || !u->body || !u->placed ||
      !u->matname || !u->matrgba || !u->meshstem || !u->meshscale || !u->geomname) {
    snprintf(err, errsz, "%s: out of memory", doc->root->file);
    freeUrdf(u, 1);
    return 0;
  }
  u->err = err;
  u->errsz = errsz;
  u->robot = doc->root;
  if (setjmp(u->jmp)) {
    freeUrdf(u, 1);
    return 0;
  }
  translate(u);
  mjx_freeNode(doc->root);
  doc->root = u->out;
  freeUrdf(u, 0);
  return 1;
}
