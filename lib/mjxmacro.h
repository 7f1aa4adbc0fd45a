// mjxmacro.h: the one list of every model and data field.
//
// Each table is an X-macro.  A consumer defines X (and the others it needs), expands the
// table, and undefines them.  Allocation, the binary model file, the text listing, the
// field-by-field comparison and the oracle dump are all driven from these lists, so adding
// a field is one line here.
//
//   MJ_SIZES(X)          X(name)                              int counts in mjModel
//   MJ_MODEL_ARRAYS(X)   X(type, name, rows, cols)            arrays of mjModel, rows is a size
//   MJ_DATA_ARRAYS(X)    X(type, name, rows, cols)            arrays of mjData
//   MJ_OPTION_FIELDS(X)  X(type, name, count, shape)          members of mjOption
//   MJ_STAT_FIELDS(X)    X(type, name, count, shape)          members of mjStatistic
//   MJ_VISUAL_FIELDS(X)  X(type, section, name, count, shape) members of mjVisual
//
// shape is empty for scalars and [count] for vectors, so the member is `type name shape;`
// and (type*)&s->name addresses both alike.
//
// rows and cols are expressions in the size names (nbody, nmocap*3, 6): a consumer declares
// the sizes as locals with MJ_SIZES before expanding a table (see MJ_SIZE_LOCALS in mj.h).
// Comments give the meaning and the shape.
#ifndef MJ_XMACRO_H
#define MJ_XMACRO_H

// ---- sizes of the model ----------------------------------------------------------------------
#define MJ_SIZES(X)                                                                              \
  X(nq)          /* number of generalized coordinates */                                        \
  X(nv)          /* number of degrees of freedom */                                             \
  X(nu)          /* number of actuators / controls */                                           \
  X(na)          /* number of activation states */                                              \
  X(nbody)       /* number of bodies, world included */                                         \
  X(nbvh)        /* number of bounding volumes in all bodies' hierarchies */                    \
  X(nbvhstatic)  /* of them static (all: flexes have the dynamic ones) */                       \
  X(njnt)        /* number of joints */                                                         \
  X(ntree)       /* number of kinematic trees (bodies with dofs below static ones) */           \
  X(ngeom)       /* number of geoms */                                                          \
  X(nsite)       /* number of sites */                                                          \
  X(ncam)        /* number of cameras */                                                        \
  X(nlight)      /* number of lights */                                                         \
  X(nmesh)       /* number of meshes */                                                         \
  X(nhfield)     /* number of height fields */                                                  \
  X(ntex)        /* number of textures */                                                       \
  X(nmeshvert)   /* number of vertices in all meshes */                                         \
  X(nmeshnormal) /* number of normals in all meshes */                                          \
  X(nmeshtexcoord) /* number of texture coordinates in all meshes */                            \
  X(nmeshface)   /* number of triangular faces in all meshes */                                 \
  X(nmeshgraph)  /* number of ints in all convex-hull graphs */                                 \
  X(nmeshpoly)   /* number of polygons (flat hull faces) in all meshes */                        \
  X(nmeshpolyvert) /* number of vertices in all polygons */                                     \
  X(nmeshpolymap) /* number of polygons in all vertex-to-polygon maps */                        \
  X(nhfielddata) /* number of elevation points in all height fields */                          \
  X(ntexdata)    /* number of bytes in all texture images */                                    \
  X(nskin)       /* number of skins */                                                          \
  X(nskinvert)   /* number of vertices in all skins */                                          \
  X(nskintexvert) /* number of vertex texture coordinates in all skins */                       \
  X(nskinface)   /* number of triangular faces in all skins */                                  \
  X(nskinbone)   /* number of bones in all skins */                                             \
  X(nskinbonevert) /* number of vertices in all skin bones */                                   \
  X(nmat)        /* number of materials */                                                      \
  X(npair)       /* number of predefined geom pairs */                                          \
  X(nexclude)    /* number of excluded body pairs */                                            \
  X(neq)         /* number of equality constraints */                                           \
  X(ntendon)     /* number of tendons */                                                        \
  X(nwrap)       /* number of wrap objects in all tendon paths */                               \
  X(nsensor)     /* number of sensors */                                                        \
  X(nsensordata) /* number of numbers in sensor data */                                         \
  X(nhistory)    /* number of mjtNums in all history buffers (delays) */                        \
  X(nnumeric)    /* number of numeric custom fields */                                          \
  X(nnumericdata) /* number of mjtNums in all numeric fields */                                 \
  X(ntext)       /* number of text custom fields */                                             \
  X(ntextdata)   /* number of chars in all text fields, terminators included */                 \
  X(ntuple)      /* number of tuple custom fields */                                            \
  X(ntupledata)  /* number of objects in all tuple fields */                                    \
  X(nkey)        /* number of keyframes */                                                      \
  X(nmocap)      /* number of mocap bodies */                                                   \
  X(nuser_body)    /* user numbers of each body (the user attribute) */                         \
  X(nuser_jnt)     /* user numbers of each joint (the user attribute) */                        \
  X(nuser_geom)    /* user numbers of each geom (the user attribute) */                         \
  X(nuser_site)    /* user numbers of each site (the user attribute) */                         \
  X(nuser_cam)     /* user numbers of each camera (the user attribute) */                       \
  X(nuser_tendon)  /* user numbers of each tendon (the user attribute) */                       \
  X(nuser_actuator)/* user numbers of each actuator (the user attribute) */                     \
  X(nuser_sensor)  /* user numbers of each sensor (the user attribute) */                       \
  X(nM)          /* number of non-zeros in the sparse inertia matrix */                         \
  X(nJmom)       /* most non-zeros of all actuator moment rows together */                      \
  X(nnames)      /* number of chars in all names */                                             \
  X(npaths)      /* number of chars in all file paths */                                        \
  X(nconmax)     /* contacts preallocated per data (grows outside a step) */                    \
  X(njmax)       /* constraint rows preallocated per data */                                    \
  X(nstack)      /* mjtNums on the data stack */

// ---- model arrays ----------------------------------------------------------------------------
#define MJ_MODEL_ARRAYS(X)                                                                       \
  /* default generalized coordinates */                                                         \
  X(mjtNum, qpos0,              nq,       1) /* qpos at reset */                                \
  X(mjtNum, qpos_spring,        nq,       1) /* reference pose of joint springs */              \
  /* bodies */                                                                                  \
  X(int,    body_parentid,      nbody,    1) /* id of parent body */                            \
  X(int,    body_rootid,        nbody,    1) /* id of root above body */                        \
  X(int,    body_weldid,        nbody,    1) /* id of body this body is welded to */            \
  X(int,    body_mocapid,       nbody,    1) /* id of mocap data; -1: none */                   \
  X(int,    body_jntnum,        nbody,    1) /* number of joints of this body */                \
  X(int,    body_jntadr,        nbody,    1) /* first joint address; -1: none */                \
  X(int,    body_dofnum,        nbody,    1) /* number of dofs of this body */                  \
  X(int,    body_dofadr,        nbody,    1) /* first dof address; -1: none */                  \
  X(int,    body_treeid,        nbody,    1) /* id of the kinematic tree; -1: static */         \
  X(int,    body_geomnum,       nbody,    1) /* number of geoms */                              \
  X(int,    body_geomadr,       nbody,    1) /* first geom address; -1: none */                 \
  X(unsigned char, body_simple, nbody,    1) /* 1: diagonal M, sliders only 2 */                \
  X(unsigned char, body_sameframe, nbody, 1) /* inertial frame equals body frame */             \
  X(mjtNum, body_pos,           nbody,    3) /* position offset rel. to parent body */          \
  X(mjtNum, body_quat,          nbody,    4) /* orientation offset rel. to parent body */       \
  X(mjtNum, body_ipos,          nbody,    3) /* local position of center of mass */             \
  X(mjtNum, body_iquat,         nbody,    4) /* local orientation of inertia ellipsoid */       \
  X(mjtNum, body_mass,          nbody,    1) /* mass */                                         \
  X(mjtNum, body_subtreemass,   nbody,    1) /* mass of subtree starting at this body */        \
  X(mjtNum, body_inertia,       nbody,    3) /* diagonal inertia in ipos/iquat frame */         \
  X(mjtNum, body_invweight0,    nbody,    2) /* mean inv inert in qpos0 (trn, rot) */           \
  X(mjtNum, body_gravcomp,      nbody,    1) /* antigravity force, units of body weight */      \
  X(int,    body_contype,       nbody,    1) /* OR over the body's geom contypes */             \
  X(int,    body_conaffinity,   nbody,    1) /* OR over the body's geom conaffinities */        \
  X(mjtNum, body_margin,        nbody,    1) /* MAX over the body's geom margins */             \
  X(int,    body_bvhadr,        nbody,    1) /* first bounding volume address; -1: none */      \
  X(int,    body_bvhnum,        nbody,    1) /* number of bounding volumes */                   \
  X(mjtNum, body_user,          nbody,    nuser_body) /* user numbers, zero-padded */           \
  /* bounding volume hierarchies: per body, boxes of its collidable geoms in its inertial    \
     frame, depth first; children relative to the body's first volume */                      \
  X(int,    bvh_depth,          nbvh,     1) /* depth in the hierarchy */                       \
  X(int,    bvh_child,          nbvh,     2) /* left and right children; -1: leaf */           \
  X(int,    bvh_nodeid,         nbvh,     1) /* geom id of a leaf; -1: inner node */           \
  X(mjtNum, bvh_aabb,           nbvh,     6) /* box: center and half sizes */                  \
  /* joints */                                                                                  \
  X(int,    jnt_type,           njnt,     1) /* type of joint (mjtJoint) */                     \
  X(int,    jnt_qposadr,        njnt,     1) /* start addr in qpos for joint's data */          \
  X(int,    jnt_dofadr,         njnt,     1) /* start addr in qvel for joint's data */          \
  X(int,    jnt_bodyid,         njnt,     1) /* id of joint's body */                           \
  X(int,    jnt_actuatorid,     njnt,     1) /* actuator adding damping; -1 none, -2 some */    \
  X(int,    jnt_group,          njnt,     1) /* group for visibility */                         \
  X(unsigned char, jnt_limited, njnt,     1) /* does joint have limits */                       \
  X(unsigned char, jnt_actfrclimited, njnt, 1) /* does joint have actuator force limits */      \
  X(unsigned char, jnt_actgravcomp, njnt, 1) /* is gravcomp force applied via actuators */      \
  X(mjtNum, jnt_solref,         njnt,     2) /* constraint solver reference: limit */           \
  X(mjtNum, jnt_solimp,         njnt,     5) /* constraint solver impedance: limit */           \
  X(mjtNum, jnt_pos,            njnt,     3) /* local anchor position */                        \
  X(mjtNum, jnt_axis,           njnt,     3) /* local joint axis */                             \
  X(mjtNum, jnt_stiffness,      njnt,     1) /* stiffness coefficient */                        \
  X(mjtNum, jnt_stiffnesspoly, njnt,     2) /* stiffness x, x^2 terms (mjNPOLY) */              \
  X(mjtNum, jnt_range,          njnt,     2) /* joint limits */                                 \
  X(mjtNum, jnt_actfrcrange,    njnt,     2) /* range of total actuator force */                \
  X(mjtNum, jnt_margin,         njnt,     1) /* min distance for limit detection */             \
  X(mjtNum, jnt_user,           njnt,     nuser_jnt) /* user numbers, zero-padded */            \
  /* degrees of freedom */                                                                      \
  X(int,    dof_bodyid,         nv,       1) /* id of dof's body */                             \
  X(int,    dof_jntid,          nv,       1) /* id of dof's joint */                            \
  X(int,    dof_parentid,       nv,       1) /* id of dof's parent; -1: none */                 \
  X(int,    dof_treeid,         nv,       1) /* id of dof's kinematic tree */                   \
  X(int,    dof_Madr,           nv,       1) /* dof address in M-diagonal */                    \
  X(int,    dof_simplenum,      nv,       1) /* number of consecutive simple dofs */            \
  X(mjtNum, dof_solref,         nv,       2) /* constraint solver reference: frictionloss */    \
  X(mjtNum, dof_solimp,         nv,       5) /* constraint solver impedance: frictionloss */    \
  X(mjtNum, dof_frictionloss,   nv,       1) /* dof friction loss */                            \
  X(mjtNum, dof_armature,       nv,       1) /* dof armature inertia/mass */                    \
  X(mjtNum, dof_damping,        nv,       1) /* damping coefficient */                          \
  X(mjtNum, dof_dampingpoly,   nv,       2) /* damping |v|, v^2 terms (mjNPOLY) */              \
  X(mjtNum, dof_invweight0,     nv,       1) /* diag. inverse inertia in qpos0 */               \
  X(mjtNum, dof_M0,             nv,       1) /* diag. inertia in qpos0 */                       \
  /* kinematic trees */                                                                         \
  X(int,    tree_sleep_policy,  ntree,    1) /* sleep policy (mjtSleepPolicy) */                \
  /* geoms */                                                                                   \
  X(int,    geom_type,          ngeom,    1) /* geometric type (mjtGeom) */                     \
  X(int,    geom_contype,       ngeom,    1) /* geom contact type */                            \
  X(int,    geom_conaffinity,   ngeom,    1) /* geom contact affinity */                        \
  X(int,    geom_condim,        ngeom,    1) /* contact dimensionality (1, 3, 4, 6) */          \
  X(int,    geom_bodyid,        ngeom,    1) /* id of geom's body */                            \
  X(int,    geom_dataid,        ngeom,    1) /* id of geom's mesh/hfield; -1: none */           \
  X(int,    geom_matid,         ngeom,    1) /* material id for rendering; -1: none */          \
  X(int,    geom_group,         ngeom,    1) /* group for visibility */                         \
  X(int,    geom_priority,      ngeom,    1) /* geom contact priority */                        \
  X(unsigned char, geom_sameframe, ngeom, 1) /* same frame as body: 1 body, 2 inertia, 0 no */  \
  X(mjtNum, geom_solmix,        ngeom,    1) /* mixing coef for solref/imp in geom pair */      \
  X(mjtNum, geom_solref,        ngeom,    2) /* constraint solver reference: contact */         \
  X(mjtNum, geom_solimp,        ngeom,    5) /* constraint solver impedance: contact */         \
  X(mjtNum, geom_size,          ngeom,    3) /* geom-specific size parameters */                \
  X(mjtNum, geom_aabb,          ngeom,    6) /* bounding box, (center, size) in geom frame */   \
  X(mjtNum, geom_rbound,        ngeom,    1) /* radius of bounding sphere */                    \
  X(mjtNum, geom_pos,           ngeom,    3) /* local position offset rel. to body */           \
  X(mjtNum, geom_quat,          ngeom,    4) /* local orientation offset rel. to body */        \
  X(mjtNum, geom_friction,      ngeom,    3) /* friction (slide, spin, roll) */                 \
  X(mjtNum, geom_margin,        ngeom,    1) /* detect contact if dist<margin */                \
  X(mjtNum, geom_gap,           ngeom,    1) /* include in solver if dist<margin-gap */         \
  X(mjtNum, geom_surfacevel,    ngeom,    6) /* surface velocity in geom frame: lin, ang */     \
  X(mjtNum, geom_adhesion,      ngeom,    1) /* adhesive force of contacts */                   \
  X(mjtNum, geom_fluid,         ngeom,   12) /* fluid interaction parameters */                 \
  X(float,  geom_rgba,          ngeom,    4) /* rgba when material is omitted */                \
  X(mjtNum, geom_user,          ngeom,    nuser_geom) /* user numbers, zero-padded */           \
  /* sites */                                                                                   \
  X(int,    site_type,          nsite,    1) /* geom type for rendering (mjtGeom) */            \
  X(int,    site_bodyid,        nsite,    1) /* id of site's body */                            \
  X(int,    site_matid,         nsite,    1) /* material id for rendering; -1: none */          \
  X(int,    site_group,         nsite,    1) /* group for visibility */                         \
  X(unsigned char, site_sameframe, nsite, 1) /* same frame as body: 1 body, 2 inertia, 0 no */  \
  X(mjtNum, site_size,          nsite,    3) /* geom size for rendering */                      \
  X(mjtNum, site_pos,           nsite,    3) /* local position offset rel. to body */           \
  X(mjtNum, site_quat,          nsite,    4) /* local orientation offset rel. to body */        \
  X(float,  site_rgba,          nsite,    4) /* rgba when material is omitted */                \
  X(mjtNum, site_user,          nsite,    nuser_site) /* user numbers, zero-padded */           \
  /* cameras */                                                                                 \
  X(int,    cam_mode,           ncam,     1) /* camera tracking mode (mjtCamLight) */           \
  X(int,    cam_bodyid,         ncam,     1) /* id of camera's body */                          \
  X(int,    cam_targetbodyid,   ncam,     1) /* id of targeted body; -1: none */                \
  X(mjtNum, cam_pos,            ncam,     3) /* position rel. to body frame */                  \
  X(mjtNum, cam_quat,           ncam,     4) /* orientation rel. to body frame */               \
  X(mjtNum, cam_poscom0,        ncam,     3) /* global position rel. to sub-com in qpos0 */     \
  X(mjtNum, cam_pos0,           ncam,     3) /* global position rel. to body in qpos0 */        \
  X(mjtNum, cam_mat0,           ncam,     9) /* global orientation in qpos0 */                  \
  X(int,    cam_projection,     ncam,     1) /* 0: perspective, 1: orthographic */              \
  X(mjtNum, cam_fovy,           ncam,     1) /* y field-of-view (deg or length) */              \
  X(mjtNum, cam_ipd,            ncam,     1) /* inter-pupilary distance */                      \
  X(int,    cam_resolution,     ncam,     2) /* resolution: pixels [width, height] */           \
  X(float,  cam_sensorsize,     ncam,     2) /* sensor size: length [width, height] */          \
  X(float,  cam_intrinsic,      ncam,     4) /* [focal length; principal point] */              \
  X(mjtNum, cam_user,           ncam,     nuser_cam) /* user numbers, zero-padded */            \
  /* lights */                                                                                  \
  X(int,    light_mode,         nlight,   1) /* light tracking mode (mjtCamLight) */            \
  X(int,    light_bodyid,       nlight,   1) /* id of light's body */                           \
  X(int,    light_targetbodyid, nlight,   1) /* id of targeted body; -1: none */                \
  X(int,    light_type,         nlight,   1) /* spot, directional, ... (mjtLightType) */        \
  X(int,    light_texid,        nlight,   1) /* texture id for image lights; -1: none */        \
  X(unsigned char, light_castshadow, nlight, 1) /* does light cast shadows */                   \
  X(float,  light_bulbradius,   nlight,   1) /* light radius for soft shadows */                \
  X(float,  light_intensity,    nlight,   1) /* intensity, in candela */                        \
  X(float,  light_range,        nlight,   1) /* range of effectiveness */                       \
  X(unsigned char, light_active, nlight,  1) /* is light on */                                  \
  X(mjtNum, light_pos,          nlight,   3) /* position rel. to body frame */                  \
  X(mjtNum, light_dir,          nlight,   3) /* direction rel. to body frame */                 \
  X(mjtNum, light_poscom0,      nlight,   3) /* global position rel. to sub-com in qpos0 */     \
  X(mjtNum, light_pos0,         nlight,   3) /* global position rel. to body in qpos0 */        \
  X(mjtNum, light_dir0,         nlight,   3) /* global direction in qpos0 */                    \
  X(float,  light_attenuation,  nlight,   3) /* OpenGL attenuation (quadratic model) */         \
  X(float,  light_cutoff,       nlight,   1) /* OpenGL cutoff */                                \
  X(float,  light_softness,     nlight,   1) /* spotlight edge softness, in [0, 1] */           \
  X(float,  light_exponent,     nlight,   1) /* OpenGL exponent */                              \
  X(float,  light_ambient,      nlight,   3) /* ambient rgb (alpha=1) */                        \
  X(float,  light_diffuse,      nlight,   3) /* diffuse rgb (alpha=1) */                        \
  X(float,  light_specular,     nlight,   3) /* specular rgb (alpha=1) */                       \
  /* meshes: vertices in the mesh frame (centered at the mesh's center of mass, principal    \
     axes), faces indexing vertices, normals and texcoords separately, the convex hull graph */ \
  X(int,   mesh_vertadr,       nmesh,    1) /* first vertex address */                           \
  X(int,   mesh_vertnum,       nmesh,    1) /* number of vertices */                             \
  X(int,   mesh_faceadr,       nmesh,    1) /* first face address */                             \
  X(int,   mesh_facenum,       nmesh,    1) /* number of faces */                                \
  X(int,   mesh_normaladr,     nmesh,    1) /* first normal address */                           \
  X(int,   mesh_normalnum,     nmesh,    1) /* number of normals */                              \
  X(int,   mesh_texcoordadr,   nmesh,    1) /* texcoord address; -1: no texcoords */             \
  X(int,   mesh_texcoordnum,   nmesh,    1) /* number of texcoords */                            \
  X(int,   mesh_graphadr,      nmesh,    1) /* graph address; -1: no graph */                    \
  X(int,   mesh_extrema,       nmesh,   27) /* climb seeds: hull vertex farthest per cell */       \
  X(float, mesh_vert,          nmeshvert, 3) /* vertex positions */                              \
  X(float, mesh_normal,        nmeshnormal, 3) /* normals */                                     \
  X(float, mesh_texcoord,      nmeshtexcoord, 2) /* texture coordinates */                       \
  X(int,   mesh_face,          nmeshface, 3) /* vertex ids of each face */                       \
  X(int,   mesh_facenormal,    nmeshface, 3) /* normal ids of each face */                       \
  X(int,   mesh_facetexcoord,  nmeshface, 3) /* texcoord ids of each face */                     \
  X(int,   mesh_graph,         nmeshgraph, 1) /* convex hull graph (see mesh.h) */               \
  X(int,   mesh_polynum,       nmesh,    1) /* number of hull polygons */                        \
  X(int,   mesh_polyadr,       nmesh,    1) /* first polygon address */                          \
  X(mjtNum, mesh_polynormal,    nmeshpoly, 3) /* outward unit normal of each polygon */          \
  X(int,   mesh_polyvertadr,   nmeshpoly, 1) /* first vertex address in mesh_polyvert */         \
  X(int,   mesh_polyvertnum,   nmeshpoly, 1) /* number of vertices of each polygon */            \
  X(int,   mesh_polyvert,      nmeshpolyvert, 1) /* polygon vertices (mesh vertex ids) */        \
  X(int,   mesh_polymapadr,    nmeshvert, 1) /* first address in mesh_polymap per vertex */      \
  X(int,   mesh_polymapnum,    nmeshvert, 1) /* number of polygons through each vertex */        \
  X(int,   mesh_polymap,       nmeshpolymap, 1) /* polygon ids (within the mesh) by vertex */    \
  X(mjtNum, mesh_scale,         nmesh,    3) /* scaling applied to asset vertices */              \
  X(mjtNum, mesh_pos,           nmesh,    3) /* translation applied to asset vertices */          \
  X(mjtNum, mesh_quat,          nmesh,    4) /* rotation applied to asset vertices */             \
  X(int,   mesh_pathadr,       nmesh,    1) /* address of asset path; -1: none */                \
  /* height fields: elevations in [0, 1], row-major, row 0 at -y */                          \
  X(mjtNum, hfield_size,        nhfield,  4) /* (x, y, z_top, z_bottom) */                        \
  X(int,   hfield_nrow,        nhfield,  1) /* number of rows in grid */                         \
  X(int,   hfield_ncol,        nhfield,  1) /* number of columns in grid */                      \
  X(int,   hfield_adr,         nhfield,  1) /* address in hfield_data */                         \
  X(float, hfield_data,        nhfielddata, 1) /* elevation data */                              \
  X(int,   hfield_pathadr,     nhfield,  1) /* address of asset path; -1: none */                \
  /* skins: visual surfaces moved by bodies (bones) */                                           \
  X(int,    skin_matid,         nskin,    1) /* material id; -1: none */                       \
  X(int,    skin_group,         nskin,    1) /* group for visibility */                        \
  X(float,  skin_rgba,          nskin,    4) /* skin rgba */                                   \
  X(float,  skin_inflate,       nskin,    1) /* inflate skin in normal direction */            \
  X(int,    skin_vertadr,       nskin,    1) /* first vertex address */                        \
  X(int,    skin_vertnum,       nskin,    1) /* number of vertices */                          \
  X(int,    skin_texcoordadr,   nskin,    1) /* texcoord data address; -1: no texcoords */     \
  X(int,    skin_faceadr,       nskin,    1) /* first face address */                          \
  X(int,    skin_facenum,       nskin,    1) /* number of faces */                             \
  X(int,    skin_boneadr,       nskin,    1) /* first bone in skin */                          \
  X(int,    skin_bonenum,       nskin,    1) /* number of bones in skin */                     \
  X(float,  skin_vert,          nskinvert, 3) /* vertex positions */                           \
  X(float,  skin_texcoord,      nskintexvert, 2) /* vertex texture coordinates */              \
  X(int,    skin_face,          nskinface, 3) /* triangle vertex ids */                        \
  X(int,    skin_bonevertadr,   nskinbone, 1) /* first vertex in each bone */                  \
  X(int,    skin_bonevertnum,   nskinbone, 1) /* number of vertices in each bone */            \
  X(float,  skin_bonebindpos,   nskinbone, 3) /* bind pos of each bone */                      \
  X(float,  skin_bonebindquat,  nskinbone, 4) /* bind quat of each bone */                     \
  X(int,    skin_bonebodyid,    nskinbone, 1) /* body id of each bone */                       \
  X(int,    skin_bonevertid,    nskinbonevert, 1) /* mesh ids of vertices in each bone */      \
  X(float,  skin_bonevertweight, nskinbonevert, 1) /* weights of vertices in each bone */      \
  X(int,    skin_pathadr,       nskin,    1) /* address of asset path; -1: none */             \
  /* textures */                                                                                \
  X(int,    tex_type,           ntex,     1) /* texture type (mjtTexture) */                    \
  X(int,    tex_builtin,        ntex,     1) /* 0 none/file, 1 gradient, 2 checker, 3 flat */   \
  X(int,    tex_mark,           ntex,     1) /* 0 none, 1 edge, 2 cross, 3 random */            \
  X(int,    tex_height,         ntex,     1) /* number of rows in texture image */              \
  X(int,    tex_width,          ntex,     1) /* number of columns in texture image */           \
  X(int,    tex_nchannel,       ntex,     1) /* number of channels in texture image */          \
  X(mjtNum, tex_rgb1,           ntex,     3) /* first builtin color */                          \
  X(mjtNum, tex_rgb2,           ntex,     3) /* second builtin color */                         \
  X(mjtNum, tex_markrgb,        ntex,     3) /* color of builtin marks */                       \
  X(mjtNum, tex_random,         ntex,     1) /* probability of random dots */                   \
  X(int,    tex_pathadr,        ntex,     1) /* address of file path; -1: none */               \
  X(int,    tex_colorspace,     ntex,     1) /* 0 auto, 1 linear, 2 sRGB */                     \
  X(int,    tex_adr,            ntex,     1) /* start address in tex_data */                    \
  X(unsigned char, tex_data,    ntexdata, 1) /* pixels, row-major, nchannel bytes each */      \
  /* materials */                                                                               \
  X(int,    mat_texid,          nmat,    10) /* texture id per role (mjNTEXROLE); -1: none */   \
  X(unsigned char, mat_texuniform, nmat,  1) /* make texture cube uniform */                    \
  X(float,  mat_texrepeat,      nmat,     2) /* texture repetition for 2d mapping */            \
  X(float,  mat_emission,       nmat,     1) /* emission (x rgb) */                             \
  X(float,  mat_specular,       nmat,     1) /* specular (x white) */                           \
  X(float,  mat_shininess,      nmat,     1) /* shininess coef */                               \
  X(float,  mat_reflectance,    nmat,     1) /* reflectance (0: disable) */                     \
  X(float,  mat_metallic,       nmat,     1) /* metallic coef */                                \
  X(float,  mat_roughness,      nmat,     1) /* roughness coef */                               \
  X(float,  mat_rgba,           nmat,     4) /* rgba */                                         \
  /* predefined geom pairs */                                                                   \
  X(int,    pair_dim,           npair,    1) /* contact dimensionality */                       \
  X(int,    pair_geom1,         npair,    1) /* id of geom1 */                                  \
  X(int,    pair_geom2,         npair,    1) /* id of geom2 */                                  \
  X(int,    pair_signature,     npair,    1) /* body1 << 16 + body2 */                          \
  X(mjtNum, pair_solref,        npair,    2) /* solver reference: contact normal */             \
  X(mjtNum, pair_solreffriction, npair,   2) /* solver reference: contact friction */           \
  X(mjtNum, pair_solimp,        npair,    5) /* solver impedance: contact */                    \
  X(mjtNum, pair_margin,        npair,    1) /* detect contact if dist<margin */                \
  X(mjtNum, pair_gap,           npair,    1) /* include in solver if dist<margin-gap */         \
  X(mjtNum, pair_adhesion,      npair,    1) /* adhesive force of contacts */                   \
  X(mjtNum, pair_friction,      npair,    5) /* tangent1, 2, spin, roll1, 2 */                  \
  /* excluded body pairs */                                                                     \
  X(int,    exclude_signature,  nexclude, 1) /* body1 << 16 + body2 */                          \
  /* equality constraints */                                                                    \
  X(int,    eq_type,            neq,      1) /* constraint type (mjtEq) */                      \
  X(int,    eq_obj1id,          neq,      1) /* id of object 1 */                               \
  X(int,    eq_obj2id,          neq,      1) /* id of object 2 */                               \
  X(int,    eq_objtype,         neq,      1) /* type of both objects (mjtObj) */                \
  X(unsigned char, eq_active0,  neq,      1) /* initial enable/disable state */                 \
  X(mjtNum, eq_solref,          neq,      2) /* constraint solver reference */                  \
  X(mjtNum, eq_solimp,          neq,      5) /* constraint solver impedance */                  \
  X(mjtNum, eq_data,            neq,     11) /* numeric data for constraint */                  \
  /* tendons */                                                                                 \
  X(int,    tendon_adr,         ntendon,  1) /* address of first object in tendon's path */     \
  X(int,    tendon_num,         ntendon,  1) /* number of objects in tendon's path */           \
  X(int,    tendon_matid,       ntendon,  1) /* material id for rendering; -1: none */          \
  X(int,    tendon_actuatorid,  ntendon,  1) /* actuator adding damping; -1 none, -2 some */    \
  X(int,    tendon_group,       ntendon,  1) /* group for visibility */                         \
  X(unsigned char, tendon_limited, ntendon, 1) /* does tendon have length limits */             \
  X(unsigned char, tendon_actfrclimited, ntendon, 1) /* does tendon have actuator force limits */ \
  X(mjtNum, tendon_width,       ntendon,  1) /* width for rendering */                          \
  X(mjtNum, tendon_solref_lim,  ntendon,  2) /* constraint solver reference: limit */           \
  X(mjtNum, tendon_solimp_lim,  ntendon,  5) /* constraint solver impedance: limit */           \
  X(mjtNum, tendon_solref_fri,  ntendon,  2) /* constraint solver reference: friction */        \
  X(mjtNum, tendon_solimp_fri,  ntendon,  5) /* constraint solver impedance: friction */        \
  X(mjtNum, tendon_range,       ntendon,  2) /* tendon length limits */                         \
  X(mjtNum, tendon_actfrcrange, ntendon,  2) /* range of total actuator force */                \
  X(mjtNum, tendon_margin,      ntendon,  1) /* min distance for limit detection */             \
  X(mjtNum, tendon_stiffness,   ntendon,  1) /* stiffness coefficient */                        \
  X(mjtNum, tendon_stiffnesspoly, ntendon,  2) /* stiffness x, x^2 terms (mjNPOLY) */           \
  X(mjtNum, tendon_damping,     ntendon,  1) /* damping coefficient */                          \
  X(mjtNum, tendon_dampingpoly, ntendon,  2) /* damping |v|, v^2 terms (mjNPOLY) */             \
  X(mjtNum, tendon_armature,    ntendon,  1) /* inertia associated with tendon velocity */      \
  X(mjtNum, tendon_frictionloss, ntendon, 1) /* loss due to friction */                         \
  X(mjtNum, tendon_lengthspring, ntendon, 2) /* spring resting length range */                  \
  X(mjtNum, tendon_length0,     ntendon,  1) /* tendon length in qpos0 */                       \
  X(mjtNum, tendon_invweight0,  ntendon,  1) /* inv. weight in qpos0 */                         \
  X(float,  tendon_rgba,        ntendon,  4) /* rgba when material is omitted */                \
  X(mjtNum, tendon_user,        ntendon,  nuser_tendon) /* user numbers, zero-padded */         \
  /* tendon path elements */                                                                    \
  X(int,    wrap_type,          nwrap,    1) /* wrap object type (mjtWrap) */                   \
  X(int,    wrap_objid,         nwrap,    1) /* object id: geom, site, joint */                 \
  X(mjtNum, wrap_prm,           nwrap,    1) /* divisor, joint coef, or site id */              \
  /* actuators */                                                                               \
  X(int,    actuator_trntype,   nu,       1) /* transmission type (mjtTrn) */                   \
  X(int,    actuator_dyntype,   nu,       1) /* dynamics type (mjtDyn) */                       \
  X(int,    actuator_gaintype,  nu,       1) /* gain type (mjtGain) */                          \
  X(int,    actuator_biastype,  nu,       1) /* bias type (mjtBias) */                          \
  X(int,    actuator_ctrlspec,  nu,       1) /* input signature (mjtCtrlInput); 0: one ctrl */  \
  X(int,    actuator_trnid,     nu,       2) /* transmission id: joint, tendon, site */         \
  X(int,    actuator_actadr,    nu,       1) /* first activation address; -1: stateless */      \
  X(int,    actuator_actnum,    nu,       1) /* number of activation variables */               \
  X(int,    actuator_group,     nu,       1) /* group for visibility */                         \
  X(unsigned char, actuator_ctrllimited, nu, 1) /* is control limited */                        \
  X(unsigned char, actuator_forcelimited, nu, 1) /* is force limited */                         \
  X(unsigned char, actuator_actlimited, nu, 1) /* is activation limited */                      \
  X(mjtNum, actuator_dynprm,    nu,      10) /* dynamics parameters */                          \
  X(mjtNum, actuator_gainprm,   nu,      10) /* gain parameters */                              \
  X(mjtNum, actuator_biasprm,   nu,      10) /* bias parameters */                              \
  X(unsigned char, actuator_actearly, nu, 1) /* step activation before force */                 \
  X(mjtNum, actuator_ctrlrange, nu,       2) /* range of controls */                            \
  X(mjtNum, actuator_forcerange, nu,      2) /* range of forces */                              \
  X(mjtNum, actuator_actrange,  nu,       2) /* range of activations */                         \
  X(mjtNum, actuator_gear,      nu,       6) /* scale length and transmitted force */           \
  X(mjtNum, actuator_cranklength, nu,     1) /* crank length for slider-crank */                \
  X(mjtNum, actuator_acc0,      nu,       1) /* acceleration from unit force in qpos0 */        \
  X(mjtNum, actuator_length0,   nu,       1) /* actuator length in qpos0 */                     \
  X(mjtNum, actuator_lengthrange, nu,     2) /* feasible actuator length range */               \
  X(mjtNum, actuator_damping,   nu,       1) /* damping added to the joint or tendon */         \
  X(mjtNum, actuator_dampingpoly, nu,     2) /* damping |v|, v^2 terms (mjNPOLY) */             \
  X(mjtNum, actuator_armature,  nu,       1) /* armature added to the joint or tendon */        \
  X(mjtNum, actuator_user,      nu,       nuser_actuator) /* user numbers, zero-padded */       \
  X(int,    actuator_history,   nu,       2) /* nsample, interp (0 zoh, 1 linear, 2 cubic) */   \
  X(int,    actuator_historyadr, nu,      1) /* address in the history buffer; -1: none */      \
  X(mjtNum, actuator_delay,     nu,       1) /* delay of the control read; 0: none */           \
  /* sensors */                                                                                 \
  X(int,    sensor_type,        nsensor,  1) /* sensor type (mjtSensor) */                      \
  X(int,    sensor_datatype,    nsensor,  1) /* numeric data type (mjtDataType) */              \
  X(int,    sensor_needstage,   nsensor,  1) /* required compute stage (mjtStage) */            \
  X(int,    sensor_objtype,     nsensor,  1) /* type of sensorized object (mjtObj) */           \
  X(int,    sensor_objid,       nsensor,  1) /* id of sensorized object */                      \
  X(int,    sensor_reftype,     nsensor,  1) /* type of reference frame (mjtObj) */             \
  X(int,    sensor_refid,       nsensor,  1) /* id of reference frame; -1: global frame */      \
  X(int,    sensor_dim,         nsensor,  1) /* number of scalar outputs */                     \
  X(int,    sensor_adr,         nsensor,  1) /* address in sensor array */                      \
  X(mjtNum, sensor_cutoff,      nsensor,  1) /* cutoff for real and positive; 0: ignore */      \
  X(mjtNum, sensor_noise,       nsensor,  1) /* noise standard deviation */                     \
  X(int,    sensor_intprm,      nsensor,  3) /* parameters (contact: data, reduce, num) */       \
  X(mjtNum, sensor_user,        nsensor,  nuser_sensor) /* user numbers, zero-padded */         \
  X(int,    sensor_history,     nsensor,  2) /* nsample, interp (as actuator_history) */    \
  X(int,    sensor_historyadr,  nsensor,  1) /* address in the history buffer; -1: none */      \
  X(mjtNum, sensor_delay,       nsensor,  1) /* delay of the reading; 0: none */                \
  X(mjtNum, sensor_interval,    nsensor,  2) /* period, phase of computation; 0: each step */ \
  /* keyframes */                                                                               \
  X(mjtNum, key_time,           nkey,     1) /* key time */                                     \
  X(mjtNum, key_qpos,           nkey,    nq) /* key position */                                 \
  X(mjtNum, key_qvel,           nkey,    nv) /* key velocity */                                 \
  X(mjtNum, key_act,            nkey,    na) /* key activation */                               \
  X(mjtNum, key_mpos,           nkey, nmocap*3) /* key mocap position */                         \
  X(mjtNum, key_mquat,          nkey, nmocap*4) /* key mocap quaternion */                       \
  X(mjtNum, key_ctrl,           nkey,    nu) /* key control */                                  \
  /* custom fields (<custom>): numbers, texts and tuples of objects, each field a block of   \
     its data array, in document order per kind; their names' offsets into names[] */         \
  X(int,    numeric_adr,        nnumeric, 1) /* address of field in numeric_data */             \
  X(int,    numeric_size,       nnumeric, 1) /* size of numeric field */                        \
  X(mjtNum, numeric_data,       nnumericdata, 1) /* array of all numeric fields */              \
  X(int,    text_adr,           ntext,    1) /* address of text in text_data */                 \
  X(int,    text_size,          ntext,    1) /* size of text field (strlen + 1) */              \
  X(char,   text_data,          ntextdata, 1) /* array of all text fields (0-terminated) */     \
  X(int,    tuple_adr,          ntuple,   1) /* address of tuple in tuple_objtype, ... */     \
  X(int,    tuple_size,         ntuple,   1) /* number of objects in tuple */                   \
  X(int,    tuple_objtype,      ntupledata, 1) /* array of object types in all tuples */        \
  X(int,    tuple_objid,        ntupledata, 1) /* array of object ids in all tuples */          \
  X(mjtNum, tuple_objprm,       ntupledata, 1) /* array of object params in all tuples */       \
  X(int,    name_numericadr,    nnumeric, 1) /* name offsets of the custom fields */            \
  X(int,    name_textadr,       ntext,    1)                                                    \
  X(int,    name_tupleadr,      ntuple,   1)                                                    \
  /* names: offsets into names[], one per object, and the name buffer */                        \
  X(int,    name_bodyadr,       nbody,    1)                                                    \
  X(int,    name_jntadr,        njnt,     1)                                                    \
  X(int,    name_geomadr,       ngeom,    1)                                                    \
  X(int,    name_siteadr,       nsite,    1)                                                    \
  X(int,    name_camadr,        ncam,     1)                                                    \
  X(int,    name_lightadr,      nlight,   1)                                                    \
  X(int,    name_meshadr,       nmesh,    1)                                                    \
  X(int,    name_skinadr,       nskin,    1)                                                    \
  X(int,    name_hfieldadr,     nhfield,  1)                                                    \
  X(int,    name_texadr,        ntex,     1)                                                    \
  X(int,    name_matadr,        nmat,     1)                                                    \
  X(int,    name_pairadr,       npair,    1)                                                    \
  X(int,    name_excludeadr,    nexclude, 1)                                                    \
  X(int,    name_eqadr,         neq,      1)                                                    \
  X(int,    name_tendonadr,     ntendon,  1)                                                    \
  X(int,    name_actuatoradr,   nu,       1)                                                    \
  X(int,    name_sensoradr,     nsensor,  1)                                                    \
  X(int,    name_keyadr,        nkey,     1)                                                    \
  X(char,   names,              nnames,   1) /* names of all objects, 0-terminated */           \
  X(char,   paths,              npaths,   1) /* paths to assets, 0-terminated */

// ---- data arrays (one mjData per simulation thread) -----------------------------------------
// Rows may name any model size; nefc-sized arrays use njmax and contacts use nconmax.
#define MJ_DATA_ARRAYS(X)                                                                        \
  /* state */                                                                                   \
  X(mjtNum, qpos,               nq,       1) /* position */                                     \
  X(mjtNum, qvel,               nv,       1) /* velocity */                                     \
  X(mjtNum, act,                na,       1) /* actuator activation */                          \
  X(mjtNum, qacc_warmstart,     nv,       1) /* acceleration used for warmstart */              \
  X(mjtNum, history,            nhistory, 1) /* history buffers: per actuator, then sensor */  \
  /* controls and applied forces */                                                             \
  X(mjtNum, ctrl,               nu,       1) /* control */                                      \
  X(mjtNum, qfrc_applied,       nv,       1) /* applied generalized force */                    \
  X(mjtNum, xfrc_applied,       nbody,    6) /* applied Cartesian force/torque */               \
  X(unsigned char, eq_active,   neq,      1) /* enable/disable constraints */                   \
  X(mjtNum, mocap_pos,          nmocap,   3) /* positions of mocap bodies */                    \
  X(mjtNum, mocap_quat,         nmocap,   4) /* orientations of mocap bodies */                 \
  /* dynamics */                                                                                \
  X(mjtNum, qacc,               nv,       1) /* acceleration */                                 \
  X(mjtNum, act_dot,            na,       1) /* time-derivative of actuator activation */       \
  /* position-dependent: kinematics */                                                          \
  X(mjtNum, xpos,               nbody,    3) /* Cartesian position of body frame */             \
  X(mjtNum, xquat,              nbody,    4) /* Cartesian orientation of body frame */          \
  X(mjtNum, xmat,               nbody,    9) /* Cartesian orientation of body frame */          \
  X(mjtNum, xipos,              nbody,    3) /* Cartesian position of body com */               \
  X(mjtNum, ximat,              nbody,    9) /* Cartesian orientation of body inertia */        \
  X(mjtNum, xanchor,            njnt,     3) /* Cartesian position of joint anchor */           \
  X(mjtNum, xaxis,              njnt,     3) /* Cartesian joint axis */                         \
  X(mjtNum, geom_xpos,          ngeom,    3) /* Cartesian geom position */                      \
  X(mjtNum, geom_xmat,          ngeom,    9) /* Cartesian geom orientation */                   \
  X(mjtNum, site_xpos,          nsite,    3) /* Cartesian site position */                      \
  X(mjtNum, site_xmat,          nsite,    9) /* Cartesian site orientation */                   \
  X(mjtNum, cam_xpos,           ncam,     3) /* Cartesian camera position */                    \
  X(mjtNum, cam_xmat,           ncam,     9) /* Cartesian camera orientation */                 \
  X(mjtNum, light_xpos,         nlight,   3) /* Cartesian light position */                     \
  X(mjtNum, light_xdir,         nlight,   3) /* Cartesian light direction */                    \
  /* position-dependent: com-based quantities */                                                \
  X(mjtNum, subtree_com,        nbody,    3) /* center of mass of each subtree */               \
  X(mjtNum, cdof,               nv,       6) /* com-based motion axis of each dof (rot:lin) */  \
  X(mjtNum, cinert,             nbody,   10) /* com-based body inertia and mass */              \
  /* position-dependent: tendons and actuators */                                               \
  X(mjtNum, ten_length,         ntendon,  1) /* tendon lengths */                               \
  X(mjtNum, ten_J,              ntendon, nv) /* tendon Jacobian (dense) */                      \
  X(int,    ten_wrapadr,        ntendon,  1) /* first path point in wrap_obj, wrap_xpos */      \
  X(int,    ten_wrapnum,        ntendon,  1) /* number of path points */                        \
  X(int,    wrap_obj,           nwrap,    2) /* point's geom id; -1: site; -2: pulley */        \
  X(mjtNum, wrap_xpos,          nwrap,    6) /* Cartesian 3D points of all paths */             \
  X(mjtNum, actuator_length,    nu,       1) /* actuator lengths */                             \
  X(int,    moment_rownnz,      nu,       1) /* non-zeros in each actuator's moment row */       \
  X(int,    moment_rowadr,      nu,       1) /* its first entry in moment_colind, _moment */   \
  X(int,    moment_colind,      nJmom,    1) /* dof of each entry (rows packed, ascending) */  \
  X(mjtNum, actuator_moment,    nJmom,    1) /* actuator moments (compressed rows) */          \
  /* position-dependent: inertia */                                                             \
  X(mjtNum, crb,                nbody,   10) /* com-based composite inertia and mass */         \
  X(mjtNum, qM,                 nM,       1) /* total inertia (sparse, dof_Madr layout) */      \
  X(mjtNum, qLD,                nM,       1) /* L'*D*L factorization of M (sparse) */           \
  X(mjtNum, qLDiagInv,          nv,       1) /* 1/diag(D) */                                    \
  /* velocity-dependent */                                                                      \
  X(mjtNum, cvel,               nbody,    6) /* com-based velocity (rot:lin) */                 \
  X(mjtNum, cdof_dot,           nv,       6) /* time-derivative of cdof (rot:lin) */            \
  X(mjtNum, qfrc_bias,          nv,       1) /* C(qpos,qvel) */                                 \
  X(mjtNum, qfrc_passive,       nv,       1) /* passive force */                                \
  X(mjtNum, qfrc_spring,        nv,       1) /* passive spring force */                         \
  X(mjtNum, qfrc_damper,        nv,       1) /* passive damper force */                         \
  X(mjtNum, qfrc_gravcomp,      nv,       1) /* passive gravity compensation force */           \
  X(mjtNum, qfrc_fluid,         nv,       1) /* passive fluid force */                          \
  X(mjtNum, qfrc_adhesion,      nv,       1) /* passive contact adhesion force */               \
  X(mjtNum, subtree_linvel,     nbody,    3) /* linear velocity of subtree com */               \
  X(mjtNum, subtree_angmom,     nbody,    3) /* angular momentum about subtree com */           \
  X(mjtNum, ten_velocity,       ntendon,  1) /* tendon velocities */                            \
  X(mjtNum, actuator_velocity,  nu,       1) /* actuator velocities */                          \
  /* acceleration/force-dependent */                                                            \
  X(mjtNum, actuator_force,     nu,       1) /* actuator force in actuation space */            \
  X(mjtNum, qfrc_actuator,      nv,       1) /* actuator force */                               \
  X(mjtNum, qfrc_smooth,        nv,       1) /* net unconstrained force */                      \
  X(mjtNum, qacc_smooth,        nv,       1) /* unconstrained acceleration */                   \
  X(mjtNum, qfrc_constraint,    nv,       1) /* constraint force */                             \
  X(mjtNum, qfrc_inverse,       nv,       1) /* net external force; should equal applied */     \
  X(mjtNum, cacc,               nbody,    6) /* com-based acceleration */                       \
  X(mjtNum, cfrc_int,           nbody,    6) /* com-based interaction force with parent */      \
  X(mjtNum, cfrc_ext,           nbody,    6) /* com-based external force on body */             \
  X(mjtNum, sensordata,         nsensordata, 1) /* sensor data array */                   \
  /* collisions */                                                                              \
  X(mjContact, contact,         nconmax,  1) /* detected contacts (first ncon) */

// ---- mjOption members, also the <option> attributes of the same name -----------------------
#define MJ_OPTION_FIELDS(X)                                                                      \
  X(mjtNum, timestep, 1, ) /* timestep */                                                \
  X(mjtNum, impratio, 1, ) /* ratio of friction-to-normal contact impedance */           \
  X(mjtNum, tolerance, 1, ) /* main solver tolerance */                                   \
  X(mjtNum, ls_tolerance, 1, ) /* CG/Newton linesearch tolerance */                          \
  X(mjtNum, noslip_tolerance, 1, ) /* noslip solver tolerance */                                 \
  X(mjtNum, ccd_tolerance, 1, ) /* convex collision solver tolerance */                       \
  X(mjtNum, sleep_tolerance, 1, ) /* sleep velocity tolerance */                              \
  X(mjtNum, gravity, 3, [3]) /* gravitational acceleration */                              \
  X(mjtNum, wind, 3, [3]) /* wind (for lift, drag and viscosity) */                     \
  X(mjtNum, magnetic, 3, [3]) /* global magnetic flux */                                    \
  X(mjtNum, density, 1, ) /* density of medium */                                       \
  X(mjtNum, viscosity, 1, ) /* viscosity of medium */                                     \
  X(mjtNum, o_margin, 1, ) /* margin (override) */                                       \
  X(mjtNum, o_solref, 2, [2]) /* solref (override) */                                       \
  X(mjtNum, o_solimp, 5, [5]) /* solimp (override) */                                       \
  X(mjtNum, o_friction, 5, [5]) /* friction (override) */                                     \
  X(int, integrator, 1, ) /* integration mode (mjtIntegrator) */                        \
  X(int, cone, 1, ) /* type of friction cone (mjtCone) */                         \
  X(int, jacobian, 1, ) /* type of Jacobian (mjtJacobian) */                          \
  X(int, solver, 1, ) /* solver algorithm (mjtSolver) */                            \
  X(int, iterations, 1, ) /* maximum number of main solver iterations */                \
  X(int, ls_iterations, 1, ) /* maximum number of CG/Newton linesearch iterations */       \
  X(int, noslip_iterations, 1, ) /* maximum number of noslip solver iterations */              \
  X(int, ccd_iterations, 1, ) /* maximum number of convex collision solver iterations */    \
  X(int, disableflags, 1, ) /* bit flags for disabling standard features */               \
  X(int, enableflags, 1, ) /* bit flags for enabling optional features */                \
  X(int, disableactuator, 1, ) /* bit flags for disabling actuators by group id */           \
  X(int, sdf_initpoints, 1, ) /* number of starting points for gradient descent */          \
  X(int, sdf_iterations, 1, ) /* max number of iterations for gradient descent */

// ---- mjStatistic members, also the <statistic> attributes ---------------------------------
#define MJ_STAT_FIELDS(X)                                                                        \
  X(mjtNum, meaninertia, 1, ) /* mean diagonal inertia */                                         \
  X(mjtNum, meanmass, 1, ) /* mean body mass */                                                \
  X(mjtNum, meansize, 1, ) /* mean body size */                                                \
  X(mjtNum, extent, 1, ) /* spatial extent */                                                \
  X(mjtNum, center, 3, [3]) /* center of model */

// ---- mjVisual members: the <visual> children (section) and their attributes (name) --------
#define MJ_VISUAL_FIELDS(X)                                                                      \
  X(float, global, cameraid, 1, ) X(float, global, orthographic, 1, )                         \
  X(float, global, fovy, 1, ) X(float, global, ipd, 1, )                         \
  X(float, global, azimuth, 1, ) X(float, global, elevation, 1, )                         \
  X(float, global, linewidth, 1, ) X(float, global, glow, 1, )                         \
  X(float, global, realtime, 1, ) X(float, global, offwidth, 1, )                         \
  X(float, global, offheight, 1, ) X(float, global, ellipsoidinertia, 1, )                      \
  X(float, global, bvactive, 1, )                                                            \
  X(float, quality, shadowsize, 1, ) X(float, quality, offsamples, 1, )                         \
  X(float, quality, numslices, 1, ) X(float, quality, numstacks, 1, )                         \
  X(float, quality, numquads, 1, )                                                            \
  X(float, headlight, ambient, 3, [3]) X(float, headlight, diffuse, 3, [3])                         \
  X(float, headlight, specular, 3, [3]) X(float, headlight, active, 1, )                         \
  X(float, map, stiffness, 1, ) X(float, map, stiffnessrot, 1, )                         \
  X(float, map, force, 1, ) X(float, map, torque, 1, )                         \
  X(float, map, alpha, 1, ) X(float, map, fogstart, 1, )                         \
  X(float, map, fogend, 1, ) X(float, map, znear, 1, )                         \
  X(float, map, zfar, 1, ) X(float, map, haze, 1, )                         \
  X(float, map, shadowclip, 1, ) X(float, map, shadowscale, 1, )                         \
  X(float, map, actuatortendon, 1, )                                                            \
  X(float, scale, forcewidth, 1, ) X(float, scale, contactwidth, 1, )                         \
  X(float, scale, contactheight, 1, ) X(float, scale, connect, 1, )                         \
  X(float, scale, com, 1, ) X(float, scale, camera, 1, )                         \
  X(float, scale, light, 1, ) X(float, scale, selectpoint, 1, )                         \
  X(float, scale, jointlength, 1, ) X(float, scale, jointwidth, 1, )                         \
  X(float, scale, actuatorlength, 1, ) X(float, scale, actuatorwidth, 1, )                         \
  X(float, scale, framelength, 1, ) X(float, scale, framewidth, 1, )                         \
  X(float, scale, constraint, 1, ) X(float, scale, slidercrank, 1, )                         \
  X(float, scale, frustum, 1, )                                                            \
  X(float, rgba, fog, 4, [4]) X(float, rgba, haze, 4, [4])                         \
  X(float, rgba, force, 4, [4]) X(float, rgba, inertia, 4, [4])                         \
  X(float, rgba, joint, 4, [4]) X(float, rgba, actuator, 4, [4])                         \
  X(float, rgba, actuatornegative, 4, [4]) X(float, rgba, actuatorpositive, 4, [4])                       \
  X(float, rgba, com, 4, [4]) X(float, rgba, camera, 4, [4])                         \
  X(float, rgba, light, 4, [4]) X(float, rgba, selectpoint, 4, [4])                         \
  X(float, rgba, connect, 4, [4]) X(float, rgba, contactpoint, 4, [4])                         \
  X(float, rgba, contactforce, 4, [4]) X(float, rgba, contactfriction, 4, [4])                         \
  X(float, rgba, contacttorque, 4, [4]) X(float, rgba, contactgap, 4, [4])                         \
  X(float, rgba, rangefinder, 4, [4]) X(float, rgba, constraint, 4, [4])                         \
  X(float, rgba, slidercrank, 4, [4]) X(float, rgba, crankbroken, 4, [4])                         \
  X(float, rgba, frustum, 4, [4]) X(float, rgba, bv, 4, [4])                         \
  X(float, rgba, bvactive, 4, [4])

#endif
