// collision.h: the internals of collision detection (collision_*.c), shared between the
// driver and the narrow-phase files.
//
// A narrow-phase function collides geoms g1 and g2 (geom_type[g1] <= geom_type[g2]) at their
// current poses (geom_xpos, geom_xmat) and writes up to mjMAXCONPAIR contacts into con: dist
// (negative in penetration), pos (midway between the surfaces) and frame[0..2], the normal
// pointing from g1 to g2.  A function may also set the first tangent frame[3..5]; when it
// leaves it zero the driver completes the frame (mju_makeFrame).  Only contacts with
// dist < margin are returned; the count is the return value.  The driver fills the rest.
#ifndef MJ_COLLISION_H
#define MJ_COLLISION_H

#include "mj.h"

#define mjMAXCONPAIR 50  // most contacts one geom pair may produce

// a narrow-phase function
typedef int (*mjfCollision)(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                            mjtNum margin);

// the dispatch table by geom types (upper triangle: type1 <= type2); NULL: no collision
extern const mjfCollision mj_collisionFunc[mjNGEOMTYPES][mjNGEOMTYPES];

// complete frame[3..8] from the unit normal frame[0..2]: tangent1 is the y axis (or, when the
// normal's |y| >= 0.5, the z axis) made orthogonal to the normal; tangent2 = normal x tangent1
void mju_makeFrame(mjtNum frame[9]);

// ---- analytic pairs (collision_primitive.c) ---------------------------------------------------
int mjc_PlaneSphere(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                    mjtNum margin);
int mjc_PlaneCapsule(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                     mjtNum margin);
int mjc_PlaneEllipsoid(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                       mjtNum margin);
int mjc_PlaneCylinder(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                      mjtNum margin);
int mjc_PlaneBox(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                 mjtNum margin);
int mjc_SphereSphere(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                     mjtNum margin);
int mjc_SphereCapsule(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                      mjtNum margin);
int mjc_SphereCylinder(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                       mjtNum margin);
int mjc_CapsuleCapsule(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                       mjtNum margin);

// one contact between two spheres (centers c1, c2, radii r1, r2) when their surfaces are
// closer than margin; returns 0 or 1
int mjc_sphereSphereRaw(mjContact* con, mjtNum margin, const mjtNum c1[3], mjtNum r1,
                        const mjtNum c2[3], mjtNum r2);

// ---- pairs with boxes (collision_box.c) -------------------------------------------------------
int mjc_SphereBox(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                  mjtNum margin);
int mjc_CapsuleBox(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                   mjtNum margin);
int mjc_BoxBox(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
               mjtNum margin);

// ---- general convex pairs through libccd's MPR (collision_convex.c) -------------------------

// two geoms at given poses (the data's, or multiccd's turned copies): ids, world positions and
// rotations; a side whose prism is set is that triangular prism instead (a height field cell:
// bottom corners 0-2, top corners 3-5 above them, in the frame of pos and mat, no margin added)
typedef struct {
  int g[2];
  const mjtNum* pos[2];
  const mjtNum* mat[2];
  const mjtNum (*prism[2])[3];
} mjGeomPair;

// whether multiccd's turned tries look for more contacts of geoms g1 and g2 with the margin
// (mjc_Convex): multiccd not disabled, no sphere or ellipsoid, and nativeccd disabled or a
// query giving one contact (mjc_queryContacts)
int mjc_multiCCD(const mjModel* m, int g1, int g2, mjtNum margin);

#define mjTURNANGLE 1e-3  // the angle of multiccd's turned tries (mjc_Convex), radians

// the poses of multiccd's turned copy `turn` (mjContact's turn: +-1, +-2) of the pair gp about
// its first contact's point c and unit normal n: g1 turned by rot, the turn by sign(turn)
// mjTURNANGLE about row |turn| of mju_makeFrame(n) (a tangent), about c; g2 by rot' (back);
// pos and mat the storage of the turned poses that turned points into
void mjc_turnPair(const mjGeomPair* gp, const mjtNum c[3], const mjtNum n[3], int turn,
                  mjtNum rot[9], mjtNum pos[2][3], mjtNum mat[2][9], mjGeomPair* turned);

// the pair's contacts: under nativeccd, GJK/EPA's (several for boxes, meshes and cylinders
// touching face or edge on face, mjc_clipContacts); else, or when the query gives one, one
// contact (MPR or GJK/EPA) and, with mjc_multiCCD, up to four more found by turning the geoms
// slightly about it
int mjc_Convex(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
               mjtNum margin);

// one contact of the pair at its poses: MPR with normal refinement (nativeccd off), else
// GJK/EPA; dist = margin - depth of the geoms inflated by half the margin.  warm (2): each
// side's previous mesh support answer (mjc_meshSupport; -1 none), kept across the queries of
// one pair as MuJoCo keeps its support objects
int mjc_ConvexPair(const mjModel* m, const mjGeomPair* gp, mjContact* con, mjtNum margin,
                   int warm[2]);

// replace a contact's normal (from g1 to g2) by the geoms' surface normals at its point where
// the geoms are smooth (sphere, capsule, ellipsoid, cylinder wall), as MuJoCo's mjc_fixNormal
void mjc_refineNormal(const mjModel* m, const mjGeomPair* gp, const mjtNum pos[3],
                      mjtNum normal[3]);

// ---- the same pairs through GJK and EPA, nativeccd on (collision_gjk.c) -----------------------
int mjc_ConvexNative(const mjModel* m, const mjGeomPair* gp, mjContact* con, mjtNum margin,
                     int warm[2]);

// the signed distance of the pair's geoms (not inflated) when below distmax, else distmax;
// fromto (may be NULL) gets the segment from g1's surface to g2's (mj_geomDistance's convex
// pairs: GJK to convergence, EPA when they overlap)
mjtNum mjc_ConvexDistance(const mjModel* m, const mjGeomPair* gp, mjtNum distmax,
                          mjtNum fromto[6]);

// the world support point of geom g at (pos, mat) in the unit direction dir (no margin); warm
// as mjc_meshSupport's
void mjc_geomSupport(const mjModel* m, int g, const mjtNum pos[3], const mjtNum mat[9],
                     const mjtNum dir[3], int* warm, mjtNum res[3]);

// ---- several contacts of boxes, meshes and cylinders from one query (collision_clip.c) ---------

// the contacts of geoms gp (boxes or meshes) touching face on face or edge on face, from the
// support ids (id) and points (pts, 3 x 3 per geom) of EPA's final face and its witness points
// x1, x2: witness pairs w1 (on g1), w2 (on g2) and depths (<= 0) of up to mjMAXCONPAIR
// points, at most four unless maxcon > 4, and their records of how they move (clip: 2 per
// point, clipvec: 9, mjContact's clip and clipvec); their count, 0 when the touch is no such
// pair of features (EPA's one contact stands), -1 when an edge of g1 was clipped to nothing
// (EPA's contact stands turned around: x1 and x2 swapped, as MuJoCo leaves it)
int mjc_clipContacts(const mjModel* m, const mjGeomPair* gp, const int id[2][3],
                     const mjtNum pts[2][9], const mjtNum x1[3], const mjtNum x2[3], int maxcon,
                     mjtNum* w1, mjtNum* w2, mjtNum* depth, int* clip, mjtNum* clipvec);

// four of the n > 4 points p (a convex polygon's vertices in order) spanning a large
// quadrilateral, as MuJoCo 3.14 cuts polygons to four (measured on the oracle), with the
// quadrilateral's true area |(c - a) x (d - b)| / 2: from corners (0, 1, 2, 3), with the first
// corner a at 0, advance the last corner d (cyclically) while that grows the best area found
// so far, after each advance advancing c and then b while they grow it; with every, then the
// same again with a at each later point in turn (b, c, d carried on, b moved one on first
// when it came round to a, then c off b and d off c likewise), so that a quadrilateral
// without point 0 or a triangle with a doubled corner may win; q: the corners of the best, in
// the order a, b, c, d.  MuJoCo's clipped polygons (mjc_clipContacts) take every first
// corner (the Unitree G1 hand's 7-point polygon: 2, 2, 3, 5); the plane polygons of
// collision_mesh.c only point 0 (there rotating picks a doubled corner where MuJoCo keeps
// the first four)
void mjc_polygonQuad(const mjtNum* p, int n, int every, int q[4]);

// the contacts one GJK/EPA query of geoms g1, g2 may give, as MuJoCo 3.14 decides it: 1 with
// a margin; 8 for two boxes; 4 for boxes, meshes and cylinders (1 with multiccd disabled);
// else 1
int mjc_queryContacts(const mjModel* m, int g1, int g2, mjtNum margin);

// ---- height fields against convex geoms (collision_hfield.c) -------------------------------

// the geom against the triangular prisms of the height field cells under its bounding box
int mjc_ConvexHField(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                     mjtNum margin);

// prism t (0, 1) of cell (row, col) of height field hid in the field's frame: bottom corners
// 0-2 at -z_bottom, top corners 3-5 on the surface raised by margin (collision_hfield.c)
void mjc_hfieldPrism(const mjModel* m, int hid, int row, int col, int t, mjtNum margin,
                     mjtNum prism[6][3]);

// the support point of triangular prism p (bottom 0-2, top 3-5) in direction dir: the best
// corner of the bottom (dir_z < 0) or the top, the first of equals
void mjc_prismSupport(const mjtNum p[6][3], const mjtNum dir[3], mjtNum res[3]);

// ---- meshes (collision_mesh.c) ----------------------------------------------------------------

// the support point of mesh geom g in its own frame in the direction dir (any length): the
// vertex farthest along dir, as MuJoCo finds it (hill climbing on the hull graph of a mesh of
// 10 vertices or more, from the better of the previous answer *warm and a seed by direction;
// else a scan of all vertices from the previous answer); *warm (-1: none; NULL: no memory) is
// updated to this answer; returns the vertex's id
int mjc_meshSupport(const mjModel* m, int g, const mjtNum dir[3], int* warm, mjtNum res[3]);

// the hull vertices of mesh geom g whose support v'l (l a unit direction in its frame) is
// within tol of the largest: their count (1 a vertex, 2 an edge, more a face), the first two
// in v (its frame)
int mjc_meshSupportSet(const mjModel* m, int g, const mjtNum l[3], mjtNum tol, mjtNum v[6]);

// the plane against a mesh: its deepest hull vertex and up to 2 of that vertex's neighbours
int mjc_PlaneMesh(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2,
                  mjtNum margin);

#endif
