// render.h: a CPU rasterizer (mjr_ prefix): the model's geoms at one state, seen from a camera,
// into an RGB image, a segmentation image or a depth image.  No GPU, no OpenGL.
//
//   mjrOption o;  mjr_defaultOption(&o);  o.width = 640, o.height = 480;
//   mjrContext* c = mjr_makeContext(m, &o, err, sizeof(err));   // NULL + message on failure
//   mjrCamera cam;  mjr_defaultFreeCamera(m, &cam);             // or cam.camid = a model camera
//   per frame:  mj_kinematics-like stages on d (mjr_kinematics),  mjr_render(c, m, d, &cam);
//               read mjr_rgb(c) (width x height x 3 bytes, top row first) or mjr_depth(c)
//   mjr_freeContext(c);
//
// One context per thread: it owns every buffer of a frame (vertices, triangles, the visibility,
// shadow and reflection buffers), allocated at creation and grown only when a frame needs more
// triangles than any before; the model is only read, so threads share it.
//
// The picture follows MuJoCo's visual model: geoms of the visible groups (sites too, in color
// images), materials (rgba, emission, specular, shininess, reflectance, textures), the model's
// lights and the headlight with OpenGL's fixed-function lighting evaluated per pixel
// (Blinn-Phong), shadow maps for castshadow lights, planar reflections on reflective planes, the
// skybox, fog, and transparency drawn back to front.  Curved surfaces are tessellated finely
// enough that a silhouette is within 0.5% of the analytic one.
#ifndef MJ_RENDER_H
#define MJ_RENDER_H

#include "mj.h"

// what an image holds
typedef enum mjtRenderOutput_ {
  mjrOUT_COLOR = 0,  // lit RGB
  mjrOUT_SEGMENT,    // geom id + 1 as R + 256 G + 65536 B, 0 for the background
  mjrOUT_DEPTH       // distance along the camera axis in meters, +inf for the background
} mjtRenderOutput;

// the largest image side and pixel count a context accepts
#define mjrMAXSIDE   16384
#define mjrMAXPIXELS (1 << 26)

// what to draw and how
typedef struct mjrOption_ {
  int width, height;          // image size in pixels
  int samples;                // supersampling: samples x samples per pixel (color only)
  int output;                 // mjtRenderOutput
  unsigned geomgroup;         // bit g: geoms of group g are visible (groups 0..5)
  unsigned sitegroup;         // bit g: sites of group g are drawn (color images)
  int shadow;                 // shadow maps for lights with castshadow
  int reflection;             // planar reflections on planes with reflectance > 0
  int skybox;                 // the skybox texture behind everything
  int fog;                    // <visual><map> fog
  int haze;                   // infinite planes fade into the haze color at the horizon
  int wireframe;              // triangle edges only
  int cull;                   // skip back faces of closed primitives
} mjrOption;

// a camera: a model camera (camid >= 0) or the free camera orbiting lookat (camid -1)
typedef struct mjrCamera_ {
  int camid;                  // model camera id; -1: free camera
  double lookat[3];           // free camera: the point looked at
  double distance;            // free camera: distance from lookat
  double azimuth, elevation;  // free camera: degrees
} mjrCamera;

// a camera pose and lens, as the rasterizer uses it
typedef struct mjrView_ {
  double pos[3];              // eye position
  double mat[9];              // columns: right, up, backward (the camera looks along -column 2)
  double fovy;                // degrees (perspective) or the image height in meters (ortho)
  int ortho;                  // orthographic projection
  double znear, zfar;         // clip distances along the axis
} mjrView;

// seconds spent per stage, summed over the frames a context rendered
typedef struct mjrProfile_ {
  double transform;           // scene list, tessellation, vertex projection
  double raster;              // triangle setup and rasterization (camera and mirror views)
  double shadow;              // shadow maps
  double shade;               // per-pixel lighting, textures, blending, downsampling
  long frames;
} mjrProfile;

typedef struct mjrContext_ mjrContext;

// MuJoCo's defaults: 640x480, 1 sample, color, groups 0-2 visible, every effect on, no wireframe
void mjr_defaultOption(mjrOption* opt);

// the free camera as MuJoCo's mjv_defaultFreeCamera makes it: lookat = stat.center,
// distance = 1.5 stat.extent, azimuth and elevation from <visual><global>
void mjr_defaultFreeCamera(const mjModel* m, mjrCamera* cam);

// a context for images of opt's size of model m; NULL and a message for a bad size or option,
// or when memory runs out
mjrContext* mjr_makeContext(const mjModel* m, const mjrOption* opt, char* err, int errsz);

// free a context (NULL is fine)
void mjr_freeContext(mjrContext* c);

// the stages of the position pipeline a picture needs: body, geom, site poses, subtree coms,
// cameras and lights (mj_kinematics, mj_comPos, mj_camlight, and mj_tendon for tendons)
void mjr_kinematics(const mjModel* m, mjData* d);

// the pose and lens of cam for the state in d (after mjr_kinematics); near/far clip =
// <visual><map> znear/zfar times stat.extent
void mjr_cameraView(const mjModel* m, const mjData* d, const mjrCamera* cam, mjrView* v);

// render the state in d (after mjr_kinematics) from cam; 0, or -1 and a message (camera id out
// of range; memory)
int mjr_render(mjrContext* c, const mjModel* m, const mjData* d, const mjrCamera* cam,
               char* err, int errsz);

// the last image: width x height x 3 bytes, top row first (color and segmentation)
const unsigned char* mjr_rgb(const mjrContext* c);

// the last depth image: width x height floats, top row first (every output kind)
const float* mjr_depth(const mjrContext* c);

// the stage times of the frames rendered so far
const mjrProfile* mjr_profile(const mjrContext* c);

#endif
