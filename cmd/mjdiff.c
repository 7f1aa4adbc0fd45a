// mjdiff: compare two state streams, or two models, within a tolerance.
//
//   mjdiff [-q] [--atol X] [--rtol Y] [--fields LIST] [--model M] A B
//   mjdiff --help | --version
//
// A and B are both state streams (.mjt) or both models (.mjb, or .xml compiled on the fly);
// "-" reads one of them from standard input (its kind is the other's).  A value a of A agrees
// with the value b of B when
//     a == b,  or both are NaN,  or  |a - b| <= atol + rtol*|b|
// (B is the reference; the defaults atol = 0, rtol = 0 ask for exact equality).
//
// Streams: the fields both carry (or those of --fields) are compared frame by frame; a
// different number of frames is a difference.  For each field one line gives the largest
// absolute and relative difference and where it first exceeds the tolerance: frame, time,
// element, both values; element names come from the model M of --model, else are indices.
// Models: the sizes, every field of option, visual and statistic and every array of the
// model tables; only fields that differ are listed.
//
// Exit status: 0 within tolerance, 1 differences found, 2 usage or data error.
#include "tool.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char usageLines[] =
  "usage: mjdiff [-q] [--atol X] [--rtol Y] [--fields LIST] [--model M] A B\n"
  "       mjdiff --help | --version\n";

// what --help prints after the usage text
static const char helpText[] =
  "\n"
  "Compare two state streams (.mjt) or two models (.mjb, .xml); - is stdin.\n"
  "a agrees with b when a == b, both are NaN, or |a-b| <= atol + rtol*|b|.\n"
  "options:\n"
  "  --atol X       absolute tolerance (default 0)\n"
  "  --rtol Y       relative tolerance (default 0)\n"
  "  --fields LIST  compare only these fields: stream fields and groups (state,\n"
  "                 input, output, all), or model arrays and opt, vis, stat, sizes\n"
  "  --model M      name stream elements by the objects of model M\n"
  "  -q, --quiet    print nothing; the exit status tells\n"
  "  -h, --help, --version\n"
  "exit status: 0 within tolerance, 1 differences, 2 error\n";

// ---- comparing numbers -------------------------------------------------------------------------

static double atol_ = 0, rtol_ = 0;  // the tolerance

// the comparison of one field: extremes and the first value beyond tolerance
typedef struct {
  char name[64];     // field name
  int id;            // stream field id or model table index, for element names
  long n;            // values compared
  double maxabs;     // largest |a - b|
  double maxrel;     // largest |a - b| / |b|
  int bad;           // a value beyond tolerance was seen
  long frame;        // where the first was: frame (streams), time, element
  double time;
  int index;
  double a, b;       // and its values
  long cols;         // row length of a model array, for element names
} Cmp;

// a fresh comparison of field `name`
static void cmpInit(Cmp* c, const char* name, int id) {
  memset(c, 0, sizeof(*c));
  snprintf(c->name, sizeof(c->name), "%s", name);
  c->id = id;
}

// fold the pair (a, b) at element index of frame into c
static void cmpValue(Cmp* c, double a, double b, long frame, double time, int index) {
  double abs, rel;
  int ok;
  if (isnan(a) || isnan(b)) {
    ok = isnan(a) && isnan(b);
    abs = rel = ok ? 0 : INFINITY;
  } else if (a == b) {
    ok = 1;
    abs = rel = 0;
  } else {
    abs = fabs(a - b);
    rel = b != 0 ? abs / fabs(b) : INFINITY;
    ok = abs <= atol_ + rtol_ * fabs(b);
  }
  c->n++;
  if (abs > c->maxabs) c->maxabs = abs;
  if (rel > c->maxrel) c->maxrel = rel;
  if (ok || c->bad) return;
  c->bad = 1, c->frame = frame, c->time = time, c->index = index, c->a = a, c->b = b;
}

static int quiet;  // -q: no report

// the column titles of the report, once, before its first line
static void printTitles(void) {
  static int done;
  if (quiet || done) return;
  done = 1;
  printf("%-20s %12s %12s  %s\n", "field", "max_abs", "max_rel", "first beyond tolerance");
}

// one report line; where is the element description of the first bad value
static void printCmp(const Cmp* c, const char* where, int stream) {
  if (quiet) return;
  printTitles();
  printf("%-20s %12.4g %12.4g  ", c->name, c->maxabs, c->maxrel);
  if (!c->bad) printf("ok\n");
  else if (stream) printf("frame %ld (time %.17g) %s: %.17g vs %.17g\n", c->frame, c->time,
                          where, c->a, c->b);
  else printf("%s: %.17g vs %.17g\n", where, c->a, c->b);
}

// a number option's value: finite and not negative
static double tolerance(const char* opt, const char* s) {
  char* end;
  double v = strtod(s, &end);
  if (!*s || *end || !isfinite(v) || v < 0) {
    weprintf("%s: not a non-negative number: '%s'", opt, s);
    usage();
  }
  return v;
}

// ---- inputs ------------------------------------------------------------------------------------

enum { KIND_STREAM, KIND_MODEL };

// the kind of file path: a model source (.xml, .urdf) is a model, else the magic decides; -1
// for stdin
static int kindOf(const char* path) {
  if (!strcmp(path, "-")) return -1;
  if (mj_isSource(path)) return KIND_MODEL;
  FILE* f = fopen(path, "rb");
  if (!f) eprintf("%s:", path);
  char magic[8] = {0};
  size_t got = fread(magic, 1, 8, f);
  fclose(f);
  if (got == 8 && !memcmp(magic, "MJSTREAM", 8)) return KIND_STREAM;
  if (got == 8 && !memcmp(magic, "MJBMODEL", 8)) return KIND_MODEL;
  eprintf("%s: neither a state stream nor a binary model (bad magic)", path);
}

// a stream file or stdin, its header read
static FILE* openStream(const char* path, mjStreamHeader* h) {
  FILE* f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
  if (!f) eprintf("%s:", path);
  char err[512];
  if (mj_streamReadHeader(f, path, h, err, sizeof(err))) eprintf("%s", err);
  return f;
}

// ---- streams ----------------------------------------------------------------------------------

static mjModel* names_;  // --model, for element names

// the frames of A and B, at file scope and freed at exit, also after an error exit (eprintf):
// the leak checker of SAN=1 builds then finds nothing lost
static mjtNum* frame_[2];

// "qpos[3] (joint 'elbow')" for the first bad element of stream field c
static void streamWhere(const Cmp* c, char* buf, int n) {
  mj_streamElementName(names_, c->id, c->index, 1, buf, n);
}

// frames of f counted to the end (the rest of the longer stream)
static long drain(FILE* f, mjStreamHeader* h, mjtNum* v) {
  char err[512];
  int r;
  while ((r = mj_streamReadValues(f, h, v, err, sizeof(err))) == 1) continue;
  if (r < 0) eprintf("%s", err);
  return h->frame;
}

// compare the common fields of two streams frame by frame; 1 when they differ
static int diffStreams(const char* pa, const char* pb, uint32_t want, const char* model) {
  mjStreamHeader ha, hb;
  FILE* fa = openStream(pa, &ha);
  FILE* fb = openStream(pb, &hb);
  if (model) {
    names_ = eloadmodel(model);
    char err[512];
    if (mj_streamCheckModel(&ha, names_, err, sizeof(err))) weprintf("note: %s", err);
  }
  // streams before version 3 hold another model hash: comparable only within one kind
  if ((ha.version < 3) == (hb.version < 3) && ha.hash != hb.hash)
    weprintf("note: %s and %s were written for different models", pa, pb);

  // the fields to compare: present in both and wanted; same sizes, or a difference
  int differ = 0;
  uint32_t both = ha.mask & hb.mask & want;
  for (int f = 0; f < mjNSTREAMFIELD; f++) {
    uint32_t bit = 1u << f;
    if ((want & bit) && !(both & bit) && (ha.mask | hb.mask) & bit) {
      weprintf("note: field %s is only in %s", mj_streamFieldName(f),
               ha.mask & bit ? pa : pb);
    }
    if ((both & bit) && mj_streamFieldSize(&ha, f) != mj_streamFieldSize(&hb, f)) {
      if (!quiet) printf("%s: %d elements in A, %d in B\n", mj_streamFieldName(f),
                         mj_streamFieldSize(&ha, f), mj_streamFieldSize(&hb, f));
      both &= ~bit;
      differ = 1;
    }
  }

  if (!both && !differ) eprintf("%s and %s have no wanted field in common", pa, pb);

  // frame by frame, field by field
  Cmp cmp[mjNSTREAMFIELD];
  for (int f = 0; f < mjNSTREAMFIELD; f++) cmpInit(&cmp[f], mj_streamFieldName(f), f);
  mjtNum* va = frame_[0] = emalloc(sizeof(mjtNum) * (size_t)(ha.nvalue + 1));
  mjtNum* vb = frame_[1] = emalloc(sizeof(mjtNum) * (size_t)(hb.nvalue + 1));
  int toa = mj_streamFieldOffset(&ha, mjSTREAM_time);
  long na = 0, nb = 0;  // frames in A and B
  char err[512];
  for (;;) {
    int ra = mj_streamReadValues(fa, &ha, va, err, sizeof(err));
    if (ra < 0) eprintf("%s", err);
    int rb = mj_streamReadValues(fb, &hb, vb, err, sizeof(err));
    if (rb < 0) eprintf("%s", err);
    if (!ra || !rb) {
      na = ra ? drain(fa, &ha, va) : ha.frame, nb = rb ? drain(fb, &hb, vb) : hb.frame;
      break;
    }
    long k = ha.frame - 1;
    double t = toa >= 0 ? va[toa] : NAN;
    for (int f = 0; f < mjNSTREAMFIELD; f++) {
      if (!(both >> f & 1)) continue;
      const mjtNum* a = va + mj_streamFieldOffset(&ha, f);
      const mjtNum* b = vb + mj_streamFieldOffset(&hb, f);
      int n = mj_streamFieldSize(&ha, f);
      for (int i = 0; i < n; i++) cmpValue(&cmp[f], a[i], b[i], k, t, i);
    }
  }

  // the report
  for (int f = 0; f < mjNSTREAMFIELD; f++) {
    if (!(both >> f & 1)) continue;
    char where[256] = "";
    if (cmp[f].bad) streamWhere(&cmp[f], where, sizeof(where));
    printCmp(&cmp[f], where, 1);
    differ |= cmp[f].bad;
  }
  if (na != nb) {
    if (!quiet) printf("frames: %ld in A, %ld in B\n", na, nb);
    differ = 1;
  }
  if (fa != stdin) fclose(fa);
  if (fb != stdin) fclose(fb);
  return differ;
}

// ---- models ------------------------------------------------------------------------------------

static const char* fieldList_;  // --fields for models: array names and opt, vis, stat, sizes

// 1 when the model field `name` (in group `group`) is to be compared
static int selected(const char* name, const char* group) {
  if (!fieldList_) return 1;
  size_t n = strlen(name), g = strlen(group);
  for (const char* p = fieldList_; *p;) {
    size_t k = strcspn(p, ",");
    if ((k == n && !strncmp(p, name, n)) || (k == g && !strncmp(p, group, g))) return 1;
    p += k + (p[k] == ',');
  }
  return 0;
}

// object type of the rows of a model array (by the size that counts them), 0 when none
static int rowObject(const char* rows) {
  static const struct {
    const char* size;
    int type;
  } map[] = {{"nbody", mjOBJ_BODY}, {"njnt", mjOBJ_JOINT}, {"ngeom", mjOBJ_GEOM},
             {"nsite", mjOBJ_SITE}, {"ncam", mjOBJ_CAMERA}, {"nlight", mjOBJ_LIGHT},
             {"nmesh", mjOBJ_MESH}, {"nhfield", mjOBJ_HFIELD}, {"ntex", mjOBJ_TEXTURE},
             {"nmat", mjOBJ_MATERIAL}, {"npair", mjOBJ_PAIR}, {"nexclude", mjOBJ_EXCLUDE},
             {"neq", mjOBJ_EQUALITY}, {"ntendon", mjOBJ_TENDON}, {"nu", mjOBJ_ACTUATOR},
             {"nsensor", mjOBJ_SENSOR}, {"nnumeric", mjOBJ_NUMERIC}, {"ntext", mjOBJ_TEXT},
             {"ntuple", mjOBJ_TUPLE}, {"nkey", mjOBJ_KEY}};
  for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
    if (!strcmp(rows, map[i].size)) return map[i].type;
  return 0;
}

// the rows expressions of the model arrays, in table order
static const char* const arrayRows[] = {
#define X(type, name, rows, cols) #rows,
  MJ_MODEL_ARRAYS(X)
#undef X
};

static const mjModel* modelB_;  // the reference model, for element names
static mjModel* models_[2];     // both models, at file scope like frame_

// free the frames and the models (at exit)
static void freeAll(void) {
  free(frame_[0]), free(frame_[1]);
  mj_deleteModel(models_[0]), mj_deleteModel(models_[1]), mj_deleteModel(names_);
}

// "body_pos[2,1] ('arm')" for the first bad element of model array c, "opt.timestep" or
// "opt.gravity[2]" for a field of option, visual or statistic (id < 0)
static void modelWhere(const Cmp* c, char* buf, int n) {
  long cols = c->cols > 0 ? c->cols : 1;
  int row = (int)(c->index / cols), col = (int)(c->index % cols);
  int len;
  if (c->id < 0 && c->n == 1) len = snprintf(buf, (size_t)n, "%s", c->name);
  else if (cols > 1) len = snprintf(buf, (size_t)n, "%s[%d,%d]", c->name, row, col);
  else len = snprintf(buf, (size_t)n, "%s[%d]", c->name, row);
  int type = c->id >= 0 ? rowObject(arrayRows[c->id]) : 0;
  const char* nm = type ? mj_id2name(modelB_, type, row) : NULL;
  if (nm && len > 0 && len < n) snprintf(buf + len, (size_t)(n - len), " ('%s')", nm);
}

// compare count values of one model field; report it when not identical; 1 when beyond
static int modelField(const char* name, int id, const double* a, const double* b, long count,
                      long cols) {
  Cmp c;
  cmpInit(&c, name, id);
  for (long i = 0; i < count; i++) cmpValue(&c, a[i], b[i], 0, 0, (int)i);
  c.cols = cols;
  if (c.maxabs == 0 && !c.bad) return 0;
  char where[256] = "";
  if (c.bad) modelWhere(&c, where, sizeof(where));
  printCmp(&c, where, 0);
  return c.bad;
}

// count values of any type as doubles in a new buffer
#define TO_DOUBLES(dst, type, src, count)                                                        \
  do {                                                                                           \
    dst = emalloc(sizeof(double) * (size_t)((count) + 1));                                       \
    for (long i_ = 0; i_ < (long)(count); i_++) dst[i_] = (double)((const type*)(src))[i_];      \
  } while (0)

// the number of elements and the row length of model array id under m's sizes
static long arrayCount(const mjModel* m, int id, long* ncol) {
  const mjModel* m_ = m;
  MJ_SIZES(MJ_X_SIZE_LOCAL)
  int k = 0;
#define X(type, name, rows, cols)                                                                \
  if (k++ == id) {                                                                               \
    *ncol = (cols);                                                                              \
    return (long)(rows) * (cols);                                                                \
  }
  MJ_MODEL_ARRAYS(X)
#undef X
  *ncol = 1;
  return 0;
}

// compare the sizes, the option/visual/statistic fields and the arrays; 1 when they differ
static int diffModels(const char* pa, const char* pb) {
  mjModel* ma = models_[0] = eloadmodel(pa);
  mjModel* mb = models_[1] = eloadmodel(pb);
  modelB_ = mb;
  int differ = 0;

  // sizes: a differing size is a difference, and its arrays cannot be compared
  if (selected("sizes", "sizes")) {
#define X(sz)                                                                                    \
    if (ma->sz != mb->sz) {                                                                     \
      if (!quiet) printf("%-20s %d vs %d\n", "size " #sz, ma->sz, mb->sz);                       \
      differ = 1;                                                                               \
    }
    MJ_SIZES(X)
#undef X
  }

  // option, visual, statistic: field by field
  double *a, *b;
#define X(type, name, count, shape)                                                              \
  if (selected("opt." #name, "opt")) {                                                          \
    TO_DOUBLES(a, type, &ma->opt.name, count);                                                  \
    TO_DOUBLES(b, type, &mb->opt.name, count);                                                  \
    differ |= modelField("opt." #name, -1, a, b, count, 1);                                   \
    free(a), free(b);                                                                           \
  }
  MJ_OPTION_FIELDS(X)
#undef X
#define X(type, section, name, count, shape)                                                     \
  if (selected("vis." #section "." #name, "vis")) {                                             \
    TO_DOUBLES(a, type, &ma->vis.section##_##name, count);                                      \
    TO_DOUBLES(b, type, &mb->vis.section##_##name, count);                                      \
    differ |= modelField("vis." #section "." #name, -1, a, b, count, 1);                      \
    free(a), free(b);                                                                           \
  }
  MJ_VISUAL_FIELDS(X)
#undef X
#define X(type, name, count, shape)                                                              \
  if (selected("stat." #name, "stat")) {                                                        \
    TO_DOUBLES(a, type, &ma->stat.name, count);                                                 \
    TO_DOUBLES(b, type, &mb->stat.name, count);                                                 \
    differ |= modelField("stat." #name, -1, a, b, count, 1);                                  \
    free(a), free(b);                                                                           \
  }
  MJ_STAT_FIELDS(X)
#undef X

  // arrays: element counts from each model's sizes
  int id = 0;
#define X(type, name, rows, cols)                                                                \
  if (selected(#name, #name)) {                                                                  \
    long ca, cb, na = arrayCount(ma, id, &ca), nb = arrayCount(mb, id, &cb);                     \
    if (na != nb) {                                                                              \
      if (!quiet) printf("%-20s %ld vs %ld elements\n", #name, na, nb);                          \
      differ = 1;                                                                                \
    } else {                                                                                     \
      TO_DOUBLES(a, type, ma->name, na);                                                         \
      TO_DOUBLES(b, type, mb->name, nb);                                                         \
      differ |= modelField(#name, id, a, b, na, ca);                                             \
      free(a), free(b);                                                                          \
    }                                                                                            \
  }                                                                                              \
  id++;
  MJ_MODEL_ARRAYS(X)
#undef X
  return differ;
}

// ---- main --------------------------------------------------------------------------------------

int main(int argc, char** argv) {
  tool_init("mjdiff", usageLines);
  atexit(freeAll);
  const char *path[2] = {NULL, NULL}, *fields = NULL, *model = NULL;
  int npath = 0;
  for (int i = 1; i < argc; i++) {
    const char* s = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(s, "-h") || !strcmp(s, "--help")) help(helpText);
    else if (!strcmp(s, "--version")) version();
    else if (!strcmp(s, "-q") || !strcmp(s, "--quiet")) quiet = 1;
    else if (!strcmp(s, "--atol") && more) atol_ = tolerance(s, argv[++i]);
    else if (!strcmp(s, "--rtol") && more) rtol_ = tolerance(s, argv[++i]);
    else if (!strcmp(s, "--fields") && more) fields = argv[++i];
    else if (!strcmp(s, "--model") && more) model = argv[++i];
    else if (s[0] == '-' && s[1]) {
      weprintf("unknown option or missing value: %s", s);
      usage();
    } else if (npath < 2) path[npath++] = s;
    else usage();
  }
  if (npath != 2) usage();
  if (!strcmp(path[0], "-") && !strcmp(path[1], "-")) eprintf("only one input can be stdin");

  // both inputs of one kind; stdin takes the other's
  int ka = kindOf(path[0]), kb = kindOf(path[1]);
  if (ka < 0) ka = kb;
  if (kb < 0) kb = ka;
  if (ka != kb) eprintf("%s and %s are not of one kind (a stream and a model)", path[0], path[1]);

  int differ;
  if (ka == KIND_STREAM) {
    uint32_t want = mjSTREAM_ALL;
    char err[256];
    if (fields && mj_streamParseFields(fields, &want, err, sizeof(err))) eprintf("%s", err);
    differ = diffStreams(path[0], path[1], want, model);
  } else {
    fieldList_ = fields;
    differ = diffModels(path[0], path[1]);
  }
  efflush();
  return differ ? EXIT_DIFF : EXIT_OK;
}
