// mjrender: state streams to images on the CPU (no GPU, no OpenGL).
//
//   mjrender MODEL [STREAM | -] (-o PATTERN | --raw) [--width W] [--height H] [--every K]
//            [--threads N] [--camera NAME|INDEX | --lookat X,Y,Z --distance D --azimuth A
//            --elevation E] [--segment | --depth | --depth-png] [--group LIST]
//            [--flag NAME=on|off,...] [--samples N] [--key K] [--shard i/n | --range a:b]
//            [--profile]
//   mjrender --help | --version
//
// One image per frame of the stream (every K-th with --every), the kinematics recomputed from
// the frame's qpos and mocap poses; without a stream, one image of the model's initial state
// (or keyframe K).  -o PATTERN names the files with the printf conversion %d (e.g.
// frames/f%05d.png) counting the written images from 0; each file is written atomically.
// --raw writes the images back to back on standard output instead.  Frames are rendered by N
// threads in parallel; the output is the same for every N.  --shard i/n renders the i-th of n
// contiguous blocks of the images, --range a:b the images a..b-1, numbered as in the whole
// run: the shards' files together are the whole run's (the stream is read twice: a file).  Exit status: 0 success, 2 usage or
// data error (no partial file is left behind).
#include "tool.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler/image.h"
#include "render/render.h"

static const char usageLines[] =
  "usage: mjrender MODEL [STREAM | -] (-o PATTERN | --raw) [--width W] [--height H]\n"
  "                [--every K] [--threads N] [--camera NAME|INDEX]\n"
  "                [--lookat X,Y,Z] [--distance D] [--azimuth A] [--elevation E]\n"
  "                [--segment | --depth | --depth-png] [--group LIST]\n"
  "                [--flag NAME=on|off,...] [--samples N] [--key K]\n"
  "                [--shard i/n | --range a:b] [--profile]\n"
  "       mjrender --help | --version\n";

// what --help prints after the usage text
static const char helpText[] =
  "\n"
  "Render a state stream (or the initial state) into PNG frames or raw video.\n"
  "options:\n"
  "  -o PATTERN       output files, a printf %d pattern counting images from 0\n"
  "                   (frames/f%05d.png); no %d: a single image\n"
  "  --raw            images back to back on standard output (rgb24; depth: float32,\n"
  "                   depth-png: uint16 little-endian)\n"
  "  --width W, --height H   image size (default 640x480)\n"
  "  --every K        render every K-th frame (default 1)\n"
  "  --threads N      frames rendered in parallel (default 1)\n"
  "  --camera C       a model camera by name or index\n"
  "  --lookat X,Y,Z --distance D --azimuth A --elevation E\n"
  "                   the free camera (defaults: the model's center, 1.5 extents,\n"
  "                   <visual><global> azimuth and elevation)\n"
  "  --segment        geom id + 1 as R + 256 G + 65536 B, 0 for the background\n"
  "  --depth          distance along the camera axis (m), float32 .npy (H, W), +inf background\n"
  "  --depth-png      the same in millimeters as a 16-bit gray PNG, 0 for the background\n"
  "  --group LIST     visible geom and site groups (default 0,1,2)\n"
  "  --flag LIST      shadow, reflection, skybox, fog, haze, wireframe, cull, site =on|off\n"
  "  --samples N      N x N supersamples per pixel (default 1)\n"
  "  --key K          without a stream: keyframe K (name or index)\n"
  "  --shard i/n      only the i-th of n contiguous blocks of the images (0-based), numbered\n"
  "                   as in the whole run\n"
  "  --range a:b      only the images a..b-1\n"
  "  --profile        time per stage on standard error\n"
  "  -h, --help, --version\n";

// ---- the run: settings shared read-only by the threads -------------------------------------

enum { FMT_PNG = 0, FMT_NPY, FMT_DEPTHPNG };

static struct {
  const mjModel* m;
  mjrOption opt;
  mjrCamera cam;
  const char* pattern;      // -o PATTERN, or NULL for --raw
  int format;               // FMT_*
  size_t nstate;            // mjtNums of one frame's state: time, qpos, mocap_pos, mocap_quat
  size_t nbytes;            // bytes of one image's payload
} run;

// one frame of a batch: its state in, its image's bytes or an error out
typedef struct {
  mjtNum* state;
  long index;               // the image's number
  unsigned char* payload;   // raw output (nbytes)
  char err[512];            // "" when fine
} Slot;

// a worker: its own data and render context, and the slots it takes (every nthread-th)
typedef struct {
  mjData* d;
  mjrContext* ctx;
  Slot* slots;
  int nslot, first, step;
  double encode;            // seconds spent encoding and writing
} Worker;

// ---- options ---------------------------------------------------------------------------------

// a positive integer option value within [lo, hi]
static long intArg(const char* opt, const char* s, long lo, long hi) {
  char* end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || *end || errno || v < lo || v > hi)
    usageError("%s: '%s' is not an integer in %ld..%ld", opt, s, lo, hi);
  return v;
}

// a finite real option value
static double realArg(const char* opt, const char* s) {
  char* end;
  double v = strtod(s, &end);
  if (end == s || *end || !isfinite(v)) usageError("%s: '%s' is not a number", opt, s);
  return v;
}

// "X,Y,Z"
static void vec3Arg(const char* opt, const char* s, double v[3]) {
  char* end;
  const char* p = s;
  for (int k = 0; k < 3; k++) {
    v[k] = strtod(p, &end);
    if (end == p || !isfinite(v[k]) || (k < 2 ? *end != ',' : *end != 0))
      usageError("%s: '%s' is not X,Y,Z", opt, s);
    p = end + 1;
  }
}

// "0,1,2": the group mask
static unsigned groupArg(const char* s) {
  unsigned mask = 0;
  char buf[256];
  snprintf(buf, sizeof(buf), "%s", s);
  for (char* t = strtok(buf, ","); t; t = strtok(NULL, ","))
    mask |= 1u << intArg("--group", t, 0, 5);
  return mask;
}

// "shadow=off,wireframe=on": each flag of the option set or cleared; site draws sites
static void flagArg(const char* s, mjrOption* o, int* sites) {
  char buf[512];
  snprintf(buf, sizeof(buf), "%s", s);
  for (char* t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
    char* eq = strchr(t, '=');
    if (!eq || (strcmp(eq + 1, "on") && strcmp(eq + 1, "off")))
      usageError("--flag: '%s' is not NAME=on or NAME=off", t);
    *eq = 0;
    int on = !strcmp(eq + 1, "on");
    int* f = !strcmp(t, "shadow") ? &o->shadow : !strcmp(t, "reflection") ? &o->reflection
           : !strcmp(t, "skybox") ? &o->skybox : !strcmp(t, "fog") ? &o->fog
           : !strcmp(t, "haze") ? &o->haze : !strcmp(t, "wireframe") ? &o->wireframe
           : !strcmp(t, "cull") ? &o->cull : !strcmp(t, "site") ? sites : NULL;
    if (!f) usageError("--flag: unknown flag '%s'", t);
    *f = on;
  }
}

// the number of %d conversions of an output pattern (%% is a percent sign, %0Nd and %Nd are
// allowed); exits on any other conversion or more than one %d
static int patternCount(const char* p) {
  int n = 0;
  for (; *p; p++) {
    if (*p != '%') continue;
    if (p[1] == '%') {
      p++;
      continue;
    }
    const char* q = p + 1;
    while (*q >= '0' && *q <= '9') q++;
    if (*q != 'd' || q - p > 4) eprintf("output pattern: only %%d (with a width) is allowed");
    n++;
    p = q;
  }
  if (n > 1) eprintf("output pattern: more than one %%d");
  return n;
}

// ---- output ---------------------------------------------------------------------------------

// the image's bytes as written: RGB, float32 depths, or uint16 millimeters (0: background;
// past 65.535 m: 65535)
static void payload(const mjrContext* ctx, unsigned char* out) {
  size_t n = (size_t)run.opt.width * run.opt.height;
  if (run.format == FMT_PNG) {
    memcpy(out, mjr_rgb(ctx), 3 * n);
    return;
  }
  const float* z = mjr_depth(ctx);
  if (run.format == FMT_NPY) {
    memcpy(out, z, n * sizeof(float));
    return;
  }
  uint16_t* mm = (uint16_t*)out;
  for (size_t i = 0; i < n; i++) {
    float v = isfinite(z[i]) ? z[i] * 1000 + 0.5f : 0;
    mm[i] = (uint16_t)(v > 65535 ? 65535 : v);
  }
}

// write one image file atomically: PNG, 16-bit PNG, or NumPy 1.0 '<f4' of shape (H, W) with
// a 128-byte header
static int writeImage(const char* path, const unsigned char* bytes, char* err, int errsz) {
  mjOutFile o;
  if (mj_outOpen(&o, path, err, errsz)) return -1;
  int w = run.opt.width, h = run.opt.height, res = 0;
  if (run.format == FMT_NPY) {
    char dict[118];
    int n = snprintf(dict, sizeof(dict), "{'descr': '<f4', 'fortran_order': False, "
                     "'shape': (%d, %d), }", h, w);
    memset(dict + n, ' ', sizeof(dict) - (size_t)n);
    dict[sizeof(dict) - 1] = '\n';
    if (fwrite("\x93NUMPY\x01\x00\x76\x00", 1, 10, o.f) != 10
        || fwrite(dict, 1, sizeof(dict), o.f) != sizeof(dict)
        || fwrite(bytes, 1, run.nbytes, o.f) != run.nbytes) {
      snprintf(err, errsz, "%.400s: write error: %s", path, strerror(errno));
      res = -1;
    }
  } else {
    res = mj_writePNG(o.f, path, bytes, w, h, run.format == FMT_DEPTHPNG, err, errsz);
  }
  if (res) {
    mj_outClose(&o, 0, NULL, 0);
    return -1;
  }
  return mj_outClose(&o, 1, err, errsz);
}

// ---- rendering ------------------------------------------------------------------------------

// seconds on clock `id` (CLOCK_MONOTONIC: wall time; CLOCK_PROCESS_CPUTIME_ID: every thread's
// processor time)
static double seconds(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

// copy the state parts that place bodies: time, qpos, mocap poses (into or out of a slot)
static void packState(const mjModel* m, mjtNum* s, mjData* d, int toData) {
  size_t nq = m->nq, nm = (size_t)m->nmocap;
  mjtNum* parts[4] = {&d->time, d->qpos, d->mocap_pos, d->mocap_quat};
  size_t size[4] = {1, nq, 3 * nm, 4 * nm};
  for (int k = 0; k < 4; k++) {
    if (toData) memcpy(parts[k], s, size[k] * sizeof(mjtNum));
    else memcpy(s, parts[k], size[k] * sizeof(mjtNum));
    s += size[k];
  }
}

// a worker's share of a batch: render, then write the file (or keep the raw bytes)
static void* work(void* arg) {
  Worker* w = arg;
  unsigned char* bytes = NULL;
  if (run.pattern) bytes = malloc(run.nbytes);
  for (int i = w->first; i < w->nslot; i += w->step) {
    Slot* s = w->slots + i;
    packState(run.m, s->state, w->d, 1);
    mjr_kinematics(run.m, w->d);
    if (mjr_render(w->ctx, run.m, w->d, &run.cam, s->err, sizeof(s->err))) continue;
    double t0 = tool_seconds();
    unsigned char* out = run.pattern ? bytes : s->payload;
    if (!out) {
      snprintf(s->err, sizeof(s->err), "out of memory");
      continue;
    }
    payload(w->ctx, out);
    if (run.pattern) {
      char path[4096];
      snprintf(path, sizeof(path), run.pattern, (int)s->index);
      writeImage(path, out, s->err, sizeof(s->err));
    }
    w->encode += tool_seconds() - t0;
  }
  free(bytes);
  return NULL;
}

// render a batch of slots with n workers, then report the first error or write the raw bytes
static void renderBatch(Worker* w, int n, Slot* slots, int nslot) {
  pthread_t th[64];
  for (int i = 0; i < n; i++) {
    w[i].slots = slots, w[i].nslot = nslot, w[i].first = i, w[i].step = n;
    if (n > 1 && pthread_create(th + i, NULL, work, w + i))
      eprintf("cannot start thread %d", i);
  }
  if (n == 1) work(w);
  else
    for (int i = 0; i < n; i++) pthread_join(th[i], NULL);
  for (int i = 0; i < nslot; i++)
    if (slots[i].err[0]) eprintf("frame %ld: %s", slots[i].index, slots[i].err);
  if (!run.pattern)
    for (int i = 0; i < nslot; i++) {
      if (fwrite(slots[i].payload, 1, run.nbytes, stdout) != run.nbytes) efflush();
    }
  efflush();
}

// ---- main -----------------------------------------------------------------------------------

// the images of the whole stream (every `every`-th frame from 0) for the shard option opt: the
// frames are read, then the stream is rewound to its first frame
static long long countImages(FILE* f, mjStreamHeader* h, int every, const char* opt) {
  char err[1024];
  long at = ftell(f);
  if (at < 0 || fseek(f, at, SEEK_SET))
    eprintf("%s: %s counts the stream's frames first: give a file, not a pipe", h->name, opt);
  mjtNum* v = emalloc(sizeof(mjtNum) * ((size_t)h->nvalue + 1));
  long long nframe = 0;
  int r;
  while ((r = mj_streamReadValues(f, h, v, err, sizeof(err))) == 1) nframe++;
  free(v);
  if (r < 0) eprintf("%s", err);
  if (fseek(f, at, SEEK_SET)) eprintf("%s: cannot rewind:", h->name);
  h->frame = 0;
  return (nframe + every - 1) / every;
}

int main(int argc, char** argv) {
  tool_init("mjrender", usageLines);
  const char *model = NULL, *in = NULL, *camera = NULL, *key = NULL;
  int raw = 0, every = 1, threads = 1, profile = 0, sites = 1, nfree = 0;
  double lookat[3], dist = NAN, az = NAN, el = NAN;
  int haveLookat = 0;
  ToolShard shard = {0, 0, 0, NULL};
  mjr_defaultOption(&run.opt);
  unsigned groups = 0x7;
  for (int i = 1; i < argc; i++) {
    const char* s = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(s, "-h") || !strcmp(s, "--help")) help(helpText);
    else if (!strcmp(s, "--version")) version();
    else if (!strcmp(s, "-o") && more) run.pattern = argv[++i];
    else if (!strcmp(s, "--raw")) raw = 1;
    else if (!strcmp(s, "--width") && more)
      run.opt.width = (int)intArg(s, argv[++i], 1, mjrMAXSIDE);
    else if (!strcmp(s, "--height") && more)
      run.opt.height = (int)intArg(s, argv[++i], 1, mjrMAXSIDE);
    else if (!strcmp(s, "--every") && more) every = (int)intArg(s, argv[++i], 1, 1 << 30);
    else if (!strcmp(s, "--threads") && more) threads = (int)intArg(s, argv[++i], 1, 64);
    else if (!strcmp(s, "--camera") && more) camera = argv[++i];
    else if (!strcmp(s, "--lookat") && more) vec3Arg(s, argv[++i], lookat), haveLookat = 1;
    else if (!strcmp(s, "--distance") && more) dist = realArg(s, argv[++i]), nfree++;
    else if (!strcmp(s, "--azimuth") && more) az = realArg(s, argv[++i]), nfree++;
    else if (!strcmp(s, "--elevation") && more) el = realArg(s, argv[++i]), nfree++;
    else if (!strcmp(s, "--segment")) run.opt.output = mjrOUT_SEGMENT;
    else if (!strcmp(s, "--depth")) run.opt.output = mjrOUT_DEPTH, run.format = FMT_NPY;
    else if (!strcmp(s, "--depth-png"))
      run.opt.output = mjrOUT_DEPTH, run.format = FMT_DEPTHPNG;
    else if (!strcmp(s, "--group") && more) groups = groupArg(argv[++i]);
    else if (!strcmp(s, "--flag") && more) flagArg(argv[++i], &run.opt, &sites);
    else if (!strcmp(s, "--samples") && more) run.opt.samples = (int)intArg(s, argv[++i], 1, 8);
    else if (!strcmp(s, "--key") && more) key = argv[++i];
    else if (!strcmp(s, "--profile")) profile = 1;
    else if ((!strcmp(s, "--shard") || !strcmp(s, "--range")) && more)
      tool_parseShard(&shard, s, argv[++i]);
    else if (s[0] == '-' && s[1]) usageError("unknown option '%s'", s);
    else if (!model) model = s;
    else if (!in) in = s;
    else usageError("too many arguments");
  }
  if (!model) usageError("no model given");
  if (!run.pattern == !raw) usageError("give one of -o PATTERN and --raw");
  if (camera && (haveLookat || nfree)) usageError("--camera excludes the free camera's options");
  if (key && in) usageError("--key applies only without a stream");
  if (dist <= 0) usageError("--distance must be positive");
  if (run.opt.width * (long long)run.opt.height > mjrMAXPIXELS)
    eprintf("image size %dx%d exceeds %d pixels", run.opt.width, run.opt.height, mjrMAXPIXELS);
  run.opt.geomgroup = groups;
  run.opt.sitegroup = sites ? groups : 0;
  int single = run.pattern && patternCount(run.pattern) == 0;

  // the model, the camera
  mjModel* m = eloadmodel(model);
  run.m = m;
  mjr_defaultFreeCamera(m, &run.cam);
  if (camera) {
    int id = mj_name2id(m, mjOBJ_CAMERA, camera);
    char* end;
    long i = strtol(camera, &end, 10);
    if (id < 0 && (end == camera || *end || i < 0 || i >= m->ncam))
      eprintf("unknown camera '%s' (the model has %d cameras)", camera, m->ncam);
    run.cam.camid = id >= 0 ? id : (int)i;
  }
  if (haveLookat) memcpy(run.cam.lookat, lookat, sizeof(lookat));
  if (!isnan(dist)) run.cam.distance = dist;
  if (!isnan(az)) run.cam.azimuth = az;
  if (!isnan(el)) run.cam.elevation = el;
  size_t npix = (size_t)run.opt.width * run.opt.height;
  run.nbytes = run.format == FMT_PNG ? 3 * npix : run.format == FMT_NPY ? 4 * npix : 2 * npix;
  run.nstate = 1 + m->nq + 7 * (size_t)m->nmocap;

  // the input: a stream, or the initial state
  mjData* rd = mj_makeData(m);
  if (!rd) eprintf("out of memory");
  FILE* f = NULL;
  mjStreamHeader h;
  char err[1024];
  if (in) {
    f = strcmp(in, "-") ? fopen(in, "rb") : stdin;
    if (!f) eprintf("%s:", in);
    if (mj_streamReadHeader(f, strcmp(in, "-") ? in : "stdin", &h, err, sizeof(err))
        || mj_streamCheckModel(&h, m, err, sizeof(err)))
      eprintf("%s", err);
  } else if (key) {
    mj_resetDataKeyframe(m, rd, efindkey(m, key));
  }

  // a shard's images: of all the run's, counted by reading the stream once
  long long first = 0, end = LLONG_MAX;
  if (shard.kind) tool_shardRange(&shard, in ? countImages(f, &h, every, shard.opt) : 1, &first,
                                  &end);

  // workers: data and a context each
  Worker w[64];
  for (int i = 0; i < threads; i++) {
    memset(w + i, 0, sizeof(Worker));
    w[i].d = mj_makeData(m);
    w[i].ctx = mjr_makeContext(m, &run.opt, err, sizeof(err));
    if (!w[i].d || !w[i].ctx) eprintf("%s", w[i].d ? err : "out of memory");
  }

  // an unwritable output fails before any work
  if (run.pattern) {
    char path[4096];
    mjOutFile o;
    snprintf(path, sizeof(path), run.pattern, 0);
    if (mj_outOpen(&o, path, err, sizeof(err))) eprintf("%s", err);
    mj_outClose(&o, 0, NULL, 0);
  }

  // batches of frames: read, render in parallel, write
  int nbatch = threads * 4 > 2 ? threads * 4 : 2;
  Slot* slots = emalloc(nbatch * sizeof(Slot));
  for (int i = 0; i < nbatch; i++) {
    slots[i].state = emalloc(run.nstate * sizeof(mjtNum));
    slots[i].payload = run.pattern ? NULL : emalloc(run.nbytes);
  }
  long frame = 0, image = 0;
  double t0 = tool_seconds(), cpu0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
  for (int done = 0; !done;) {
    int n = 0;
    while (n < nbatch) {
      if (f) {
        int r = mj_streamReadFrame(f, &h, m, rd, err, sizeof(err));
        if (r < 0) eprintf("%s", err);
        if (r == 0) {
          done = 1;
          break;
        }
      } else if (frame > 0) {
        done = 1;
        break;
      }
      if (frame++ % every) continue;
      // a shard: the images before its block are skipped, the first after it ends the run
      if (image >= end) {
        done = 1;
        break;
      }
      if (image < first) {
        image++;
        continue;
      }
      packState(m, slots[n].state, rd, 0);
      slots[n].err[0] = 0;
      slots[n++].index = image++;
    }
    if (single && image > 1) eprintf("several frames, but the output pattern has no %%d");
    if (n) renderBatch(w, threads, slots, n);
  }
  double total = tool_seconds() - t0, cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu0;

  // where the time went: the workers' stage times summed (threads overlap)
  if (profile) {
    mjrProfile sum = {0};
    double enc = 0;
    for (int i = 0; i < threads; i++) {
      const mjrProfile* p = mjr_profile(w[i].ctx);
      sum.transform += p->transform, sum.raster += p->raster, sum.shadow += p->shadow;
      sum.shade += p->shade;
      enc += w[i].encode;
    }
    double all = sum.transform + sum.raster + sum.shadow + sum.shade + enc;
    // processor time per image: the rate an unshared machine would reach is threads / cpu
    fprintf(stderr, "mjrender: %ld images in %.3f s: %.1f images/s (%d threads), "
            "%.2f ms processor time per image\n", image, total, image / (total > 0 ? total : 1),
            threads, 1e3 * cpu / (image ? image : 1));
    fprintf(stderr, "mjrender: ms per image: transform %.2f, shadow %.2f, raster %.2f, "
            "shade %.2f, encode+write %.2f (sum %.2f)\n", 1e3 * sum.transform / image,
            1e3 * sum.shadow / image, 1e3 * sum.raster / image, 1e3 * sum.shade / image,
            1e3 * enc / image, 1e3 * all / image);
  }

  // release everything (a leak checker sees a clean exit)
  for (int i = 0; i < threads; i++) mjr_freeContext(w[i].ctx), mj_deleteData(w[i].d);
  for (int i = 0; i < nbatch; i++) free(slots[i].state), free(slots[i].payload);
  free(slots);
  if (f && f != stdin) fclose(f);
  mj_deleteData(rd);
  mj_deleteModel(m);
  return EXIT_OK;
}
