// collision_hfield.c: a height field against a convex geom, as MuJoCo 3.5.1 does it.
//
// Everything happens in the height field's frame.  The geom's bounding sphere, then its box
// (from its support points along the six axes) must reach the field's box [-x, x] x [-y, y] x
// [-z_bottom, z_top] inflated by the margin; the grid cells under the geom's box (columns
// floor..ceil of (x + size_x)/(2 size_x) (ncol - 1), rows alike) are then split into two
// triangles each, (c, r+1), (c, r), (c+1, r+1) and (c, r), (c+1, r+1), (c+1, r), every
// triangle the top of a prism reaching down to -z_bottom, its top raised by the margin.  A
// prism whose three top corners are all below the geom's lowest point is skipped; the others
// go through the convex collider (mjc_ConvexPair: MPR, or GJK/EPA with nativeccd on) with the
// geom inflated by half the margin, so a geom within the margin penetrates.  Each contact
// keeps dist = -depth (not margin - depth: the raised top already holds the margin) and the
// collider's normal (MPR's refined from the geom's surface; with nativeccd, MuJoCo 3.14's
// default, GJK/EPA's witness normal unrefined, as 3.14 leaves it: refining it there put the
// barkour vb's sphere feet 1e-3 off MuJoCo's normals on its height field at every frame); at
// most mjMAXCONPAIR, in row then column order.
//
// The geom enters only through its support function (mjc_geomSupport) and the collider, so
// every convex geom the collider knows, meshes (their hulls) included, works here.
#include <math.h>
#include <stddef.h>

#include "engine/collision.h"
#include "util/util.h"

// ---- prisms ----------------------------------------------------------------------------------

// the support point of a prism: the corner of largest p'dir among the bottom three when
// dir_z < 0, else among the top three (the first of equals)
void mjc_prismSupport(const mjtNum p[6][3], const mjtNum dir[3], mjtNum res[3]) {
  int first = dir[2] < 0 ? 0 : 3, best = first;
  mjtNum top = mju_dot3(p[first], dir);
  for (int i = first + 1; i < first + 3; i++) {
    mjtNum v = mju_dot3(p[i], dir);
    if (v > top) {
      top = v;
      best = i;
    }
  }
  mju_copy3(res, p[best]);
}

// prism t (0, 1) of cell (row, col) of height field hid in its frame (see the top): top
// corners (column, row offsets) (0, 1), (0, 0), (1, 1) or (0, 0), (1, 1), (1, 0), raised by
// margin, over the same corners at -z_bottom
void mjc_hfieldPrism(const mjModel* m, int hid, int row, int col, int t, mjtNum margin,
                     mjtNum prism[6][3]) {
  static const int corner[2][3][2] = {{{0, 1}, {0, 0}, {1, 1}}, {{0, 0}, {1, 1}, {1, 0}}};
  int nrow = m->hfield_nrow[hid], ncol = m->hfield_ncol[hid];
  const mjtNum* size = m->hfield_size + 4 * hid;
  const float* data = m->hfield_data + m->hfield_adr[hid];
  mjtNum dx = 2 * size[0] / (ncol - 1), dy = 2 * size[1] / (nrow - 1);
  for (int i = 0; i < 3; i++) {
    int c = col + corner[t][i][0], r = row + corner[t][i][1];
    prism[i][0] = prism[i + 3][0] = dx * c - size[0];
    prism[i][1] = prism[i + 3][1] = dy * r - size[1];
    prism[i][2] = -size[3];
    prism[i + 3][2] = data[r * ncol + c] * size[2] + margin;
  }
}

// ---- the pair --------------------------------------------------------------------------------

// the geom's box in the field frame from its support points along +-x, +-y, +-z:
// lo[k] = s(-e_k)_k, hi[k] = s(e_k)_k
static void geomBox(const mjModel* m, int g, const mjtNum pos[3], const mjtNum mat[9],
                    int* warm, mjtNum lo[3], mjtNum hi[3]) {
  for (int k = 0; k < 3; k++) {
    mjtNum dir[3] = {0, 0, 0}, s[3];
    dir[k] = 1;
    mjc_geomSupport(m, g, pos, mat, dir, warm, s);
    hi[k] = s[k];
    dir[k] = -1;
    mjc_geomSupport(m, g, pos, mat, dir, warm, s);
    lo[k] = s[k];
  }
}

// x (a whole number, or infinite or NaN) clamped to the grid indices [0, n] as an int
static int gridIndex(double x, int n) { return x > 0 ? (x < n ? (int)x : n) : 0; }

// the contacts of height field g1 and convex geom g2 (see the top)
int mjc_ConvexHField(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                     mjtNum margin) {
  int hid = m->geom_dataid[g1];
  int nrow = m->hfield_nrow[hid], ncol = m->hfield_ncol[hid];
  const mjtNum* size = m->hfield_size + 4 * hid;
  const mjtNum* pos1 = d->geom_xpos + 3 * g1;
  const mjtNum* mat1 = d->geom_xmat + 9 * g1;
  const mjtNum* pos2 = d->geom_xpos + 3 * g2;
  const mjtNum* mat2 = d->geom_xmat + 9 * g2;

  // the geom's pose in the field frame: pos = R1'(p2 - p1), mat = R1' R2
  mjtNum dif[3], pos[3], mat[9];
  mju_sub3(dif, pos2, pos1);
  mju_mulMatTVec3(pos, mat1, dif);
  mju_mulMatTMat(mat, mat1, mat2, 3, 3, 3);

  // bounding sphere against the field's box
  mjtNum r = m->geom_rbound[g2] + margin;
  if (size[0] < pos[0] - r || -size[0] > pos[0] + r || size[1] < pos[1] - r ||
      -size[1] > pos[1] + r || size[2] < pos[2] - r || -size[3] > pos[2] + r)
    return 0;

  // the geom's box against the field's box
  mjtNum lo[3], hi[3];
  int warm[2] = {-1, -1};
  geomBox(m, g2, pos, mat, warm + 1, lo, hi);
  if (lo[0] - margin > size[0] || hi[0] + margin < -size[0] || lo[1] - margin > size[1] ||
      hi[1] + margin < -size[1] || lo[2] - margin > size[2] || hi[2] + margin < -size[3])
    return 0;

  // the cells under the geom's box, clamped to the grid before the conversion to int (an
  // absurd size from a file makes these infinite or NaN)
  int cmin = gridIndex(floor((lo[0] + size[0]) / (2 * size[0]) * (ncol - 1)), ncol - 1);
  int cmax = gridIndex(ceil((hi[0] + size[0]) / (2 * size[0]) * (ncol - 1)), ncol - 1);
  int rmin = gridIndex(floor((lo[1] + size[1]) / (2 * size[1]) * (nrow - 1)), nrow - 1);
  int rmax = gridIndex(ceil((hi[1] + size[1]) / (2 * size[1]) * (nrow - 1)), nrow - 1);

  // each cell's two prisms
  mjtNum prism[6][3], origin[3] = {0, 0, 0}, eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  mjGeomPair local = {{g1, g2}, {origin, pos}, {eye, mat}, {(const mjtNum(*)[3])prism, NULL}};
  int n = 0;
  for (int row = rmin; row < rmax; row++) {
    for (int col = cmin; col < cmax; col++) {
      for (int t = 0; t < 2; t++) {
        // the prism; skipped when its top is below the geom
        mjc_hfieldPrism(m, hid, row, col, t, margin, prism);
        if (!(prism[3][2] >= lo[2] || prism[4][2] >= lo[2] || prism[5][2] >= lo[2])) continue;

        // a contact, back to the world frame: dist = -depth; the normal as the collider gives
        // it (MPR refines its own in the field frame; GJK/EPA's witness normal is kept, as
        // MuJoCo 3.14 keeps it)
        mjContact* c = con + n;
        if (!mjc_ConvexPair(m, &local, c, margin, warm)) continue;
        mjtNum p[3], nrm[3];
        c->dist -= margin;
        mju_mulMatVec3(p, mat1, c->pos);
        mju_add3(c->pos, p, pos1);
        mju_mulMatVec3(nrm, mat1, c->frame);
        mju_copy3(c->frame, nrm);
        mju_zero3(c->frame + 3);
        if (++n == mjMAXCONPAIR) return n;
      }
    }
  }
  return n;
}
