// print.c: model listings: a readable summary and a JSON dump, both driven by mjxmacro.h.
//
// The JSON dump is what the oracle test compares field by field with MuJoCo's compiled model
// (t/oracle/compare.mjs), so every field of the X-macro tables appears in it and nothing is
// listed by hand here: adding a field to a table adds it to the dump.
#include "mj.h"

#include <math.h>
#include <string.h>

#include "io/io.h"

// ---- JSON ------------------------------------------------------------------------------------

// one real: %.17g round-trips a double exactly; non-finite values become JSON strings
static void jsonReal(FILE* f, double x) {
  if (isnan(x)) fputs("\"NaN\"", f);
  else if (isinf(x)) fputs(x > 0 ? "\"Infinity\"" : "\"-Infinity\"", f);
  else fprintf(f, "%.17g", x);
}

// a char buffer as one JSON string: printable ASCII as is, everything else as \u00XX
static void jsonChars(FILE* f, const char* s, size_t n) {
  fputc('"', f);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

// an integer element (int or flag byte) of a JSON list
static void jsonInt(FILE* f, int x) { fprintf(f, "%d", x); }

// one list printer per element type from one body: n elements as a JSON list, or the bare
// value when the field is a scalar; floats print as the doubles they convert to exactly
#define JSON_LIST(fname, type, put)                                                              \
  static void fname(FILE* f, const type* v, size_t n, int scalar) {                              \
    if (scalar) {                                                                                \
      put(f, v[0]);                                                                              \
      return;                                                                                    \
    }                                                                                            \
    fputc('[', f);                                                                               \
    for (size_t i = 0; i < n; i++) {                                                             \
      if (i) fputs(", ", f);                                                                     \
      put(f, v[i]);                                                                              \
    }                                                                                            \
    fputc(']', f);                                                                               \
  }
JSON_LIST(jsonDoubles, double, jsonReal)
JSON_LIST(jsonFloats, float, jsonReal)
JSON_LIST(jsonInts, int, jsonInt)
JSON_LIST(jsonByteList, unsigned char, jsonInt)
#undef JSON_LIST

// byte arrays (texture pixels) longer than this print as their CRC-32 and length
#define JSON_MAXBYTES 65536

// a byte array: a list, or when longer than JSON_MAXBYTES the string "crc32 XXXXXXXX, N bytes"
// (zlib's CRC-32; the oracle prints MuJoCo's arrays the same way)
static void jsonBytes(FILE* f, const unsigned char* v, size_t n, int scalar) {
  if (n <= JSON_MAXBYTES) jsonByteList(f, v, n, scalar);
  else fprintf(f, "\"crc32 %08x, %zu bytes\"", (unsigned)mj_crc32(0, v, n), n);
}

// char buffers are strings whatever their length
static void jsonText(FILE* f, const char* v, size_t n, int scalar) {
  (void)scalar;
  jsonChars(f, v, n);
}

// the printer for the element type of pointer p
#define JSON_VALUE(f, p, n, scalar)                                                              \
  _Generic((p), double*: jsonDoubles, float*: jsonFloats, int*: jsonInts,                        \
           unsigned char*: jsonBytes, char*: jsonText)(f, p, n, scalar)

// `"key": ` with the separator that precedes every member but the first of an object
static void jsonKey(FILE* f, int* first, const char* key) {
  fprintf(f, "%s\n    \"%s\": ", *first ? "" : ",", key);
  *first = 0;
}

// the model as one JSON object, section by section, each from its X-macro table
void mj_printModelJSON(const mjModel* m, FILE* f) {
  int first;

  // sizes
  fputs("{\n  \"sizes\": {", f);
  first = 1;
#define X(name)                                                                                  \
  jsonKey(f, &first, #name);                                                                     \
  fprintf(f, "%d", m->name);
  MJ_SIZES(X)
#undef X

  // options: vectors print as lists, scalars as numbers
  fputs("\n  },\n  \"opt\": {", f);
  first = 1;
#define X(type, name, count, shape)                                                              \
  jsonKey(f, &first, #name);                                                                     \
  JSON_VALUE(f, (type*)&m->opt.name, count, sizeof(m->opt.name) == sizeof(type));
  MJ_OPTION_FIELDS(X)
#undef X

  // statistics
  fputs("\n  },\n  \"stat\": {", f);
  first = 1;
#define X(type, name, count, shape)                                                              \
  jsonKey(f, &first, #name);                                                                     \
  JSON_VALUE(f, (type*)&m->stat.name, count, sizeof(m->stat.name) == sizeof(type));
  MJ_STAT_FIELDS(X)
#undef X

  // visual: keys are section_name, as the mjVisual members are called
  fputs("\n  },\n  \"vis\": {", f);
  first = 1;
#define X(type, section, name, count, shape)                                                     \
  jsonKey(f, &first, #section "_" #name);                                                        \
  JSON_VALUE(f, (type*)&m->vis.section##_##name, count,                                          \
             sizeof(m->vis.section##_##name) == sizeof(type));
  MJ_VISUAL_FIELDS(X)
#undef X

  // arrays: rows x cols elements, flat in row-major order
  fputs("\n  },\n  \"arrays\": {", f);
  first = 1;
  const mjModel* m_ = m;
  MJ_SIZES(MJ_X_SIZE_LOCAL)
#define X(type, name, rows, cols)                                                                \
  jsonKey(f, &first, #name);                                                                     \
  JSON_VALUE(f, m->name, (size_t)(rows) * (size_t)(cols), 0);
  MJ_MODEL_ARRAYS(X)
#undef X
  fputs("\n  }\n}\n", f);
}

// ---- readable summary ------------------------------------------------------------------------

// name of enum value v from a table of n names, or "?" when out of range
static const char* enumName(const char* const* names, int n, int v) {
  return v >= 0 && v < n ? names[v] : "?";
}

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const char* const geomNames[] = {
  "plane", "hfield", "sphere", "capsule", "ellipsoid", "cylinder", "box", "mesh", "sdf"
};
static const char* const jointNames[] = {"free", "ball", "slide", "hinge"};
static const char* const integratorNames[] = {"Euler", "RK4", "implicit", "implicitfast"};
static const char* const coneNames[] = {"pyramidal", "elliptic"};
static const char* const solverNames[] = {"PGS", "CG", "Newton"};
static const char* const trnNames[] = {
  "joint", "jointinparent", "slidercrank", "tendon", "site", "body"
};
static const char* const dynNames[] = {
  "none", "integrator", "filter", "filterexact", "muscle", "dcmotor", "user"
};
static const char* const gainNames[] = {"fixed", "affine", "muscle", "dcmotor", "user"};
static const char* const biasNames[] = {"none", "affine", "muscle", "dcmotor", "user"};
static const char* const sensorNames[] = {
  "touch", "accelerometer", "velocimeter", "gyro", "force", "torque", "magnetometer",
  "rangefinder", "camprojection", "jointpos", "jointvel", "tendonpos", "tendonvel",
  "actuatorpos", "actuatorvel", "actuatorfrc", "jointactuatorfrc", "tendonactuatorfrc",
  "ballquat", "ballangvel", "jointlimitpos", "jointlimitvel", "jointlimitfrc",
  "tendonlimitpos", "tendonlimitvel", "tendonlimitfrc", "framepos", "framequat",
  "framexaxis", "frameyaxis", "framezaxis", "framelinvel", "frameangvel", "framelinacc",
  "frameangacc", "subtreecom", "subtreelinvel", "subtreeangmom", "insidesite", "distance",
  "normal", "fromto", "contact", "e_potential", "e_kinetic", "clock", "tactile", "plugin",
  "user"
};
static const char* const objNames[] = {
  "unknown", "body", "xbody", "joint", "dof", "geom", "site", "camera", "light", "flex",
  "mesh", "skin", "hfield", "texture", "material", "pair", "exclude", "equality", "tendon",
  "actuator", "sensor", "numeric", "text", "tuple", "key", "plugin"
};

// object name for listings: the name, or "#id" when unnamed
static const char* label(const mjModel* m, int type, int id, char* buf, size_t n) {
  const char* s = mj_id2name(m, type, id);
  if (s) return s;
  snprintf(buf, n, "#%d", id);
  return buf;
}

// n reals separated by spaces, %g
static void printReals(FILE* f, const double* v, int n) {
  for (int i = 0; i < n; i++) fprintf(f, i ? " %g" : "%g", v[i]);
}

// the object type a transmission of type trn points at
static int trnObject(int trn) {
  switch (trn) {
    case mjTRN_JOINT: case mjTRN_JOINTINPARENT: return mjOBJ_JOINT;
    case mjTRN_TENDON: return mjOBJ_TENDON;
    case mjTRN_SITE: case mjTRN_SLIDERCRANK: return mjOBJ_SITE;
    case mjTRN_BODY: return mjOBJ_BODY;
    default: return mjOBJ_UNKNOWN;
  }
}

// counts: every non-zero size as "name value", five to a line, padded to columns
static void summarySizes(const mjModel* m, FILE* f) {
#define X(size) +1
  enum { NSIZES = 0 MJ_SIZES(X) };
#undef X
  const char* name[NSIZES];
  int value[NSIZES], n = 0;
#define X(size)                                                                                  \
  if (m->size) {                                                                                 \
    name[n] = #size;                                                                             \
    value[n++] = m->size;                                                                        \
  }
  MJ_SIZES(X)
#undef X
  fputs("sizes", f);
  for (int i = 0; i < n; i++) {
    char cell[40];
    snprintf(cell, sizeof(cell), "%s %d", name[i], value[i]);
    int last = i % 5 == 4 || i == n - 1;
    fprintf(f, i % 5 ? (last ? "%s" : "%-20s") : (last ? "\n  %s" : "\n  %-20s"), cell);
  }
  fputc('\n', f);
}

// options: the solver choices by name, then every option field from the table
static void summaryOptions(const mjModel* m, FILE* f) {
  const mjOption* o = &m->opt;
  fprintf(f, "options\n  integrator %s  cone %s  solver %s\n",
          enumName(integratorNames, NELEM(integratorNames), o->integrator),
          enumName(coneNames, NELEM(coneNames), o->cone),
          enumName(solverNames, NELEM(solverNames), o->solver));
  // every field, numbers as %g
#define X(type, name, count, shape)                                                              \
  {                                                                                              \
    const type* v = (const type*)&o->name;                                                       \
    fprintf(f, "  %-18s", #name);                                                                \
    for (int i = 0; i < (count); i++) fprintf(f, " %g", (double)v[i]);                          \
    fputc('\n', f);                                                                              \
  }
  MJ_OPTION_FIELDS(X)
#undef X
}

// bodies: name, parent, mass, and the joint/geom counts
static void summaryBodies(const mjModel* m, FILE* f) {
  char a[32], b[32];
  fprintf(f, "bodies (%d)\n  %4s %-20s %-20s %12s %5s %5s\n", m->nbody, "id", "name", "parent",
          "mass", "jnt", "geom");
  for (int i = 0; i < m->nbody; i++)
    fprintf(f, "  %4d %-20s %-20s %12g %5d %5d\n", i, label(m, mjOBJ_BODY, i, a, sizeof(a)),
            i ? label(m, mjOBJ_BODY, m->body_parentid[i], b, sizeof(b)) : "-",
            m->body_mass[i], m->body_jntnum[i], m->body_geomnum[i]);
}

// joints: name, type, body, range when limited
static void summaryJoints(const mjModel* m, FILE* f) {
  char a[32], b[32];
  if (!m->njnt) return;
  fprintf(f, "joints (%d)\n  %4s %-20s %-6s %-20s %s\n", m->njnt, "id", "name", "type", "body",
          "range");
  for (int i = 0; i < m->njnt; i++) {
    fprintf(f, "  %4d %-20s %-6s %-20s ", i, label(m, mjOBJ_JOINT, i, a, sizeof(a)),
            enumName(jointNames, NELEM(jointNames), m->jnt_type[i]),
            label(m, mjOBJ_BODY, m->jnt_bodyid[i], b, sizeof(b)));
    if (m->jnt_limited[i]) printReals(f, m->jnt_range + 2*i, 2);
    else fputs("-", f);
    fputc('\n', f);
  }
}

// geoms: name, type, body, size
static void summaryGeoms(const mjModel* m, FILE* f) {
  char a[32], b[32];
  if (!m->ngeom) return;
  fprintf(f, "geoms (%d)\n  %4s %-20s %-9s %-20s %s\n", m->ngeom, "id", "name", "type", "body",
          "size");
  for (int i = 0; i < m->ngeom; i++) {
    fprintf(f, "  %4d %-20s %-9s %-20s ", i, label(m, mjOBJ_GEOM, i, a, sizeof(a)),
            enumName(geomNames, NELEM(geomNames), m->geom_type[i]),
            label(m, mjOBJ_BODY, m->geom_bodyid[i], b, sizeof(b)));
    printReals(f, m->geom_size + 3*i, 3);
    fputc('\n', f);
  }
}

// the texture roles of a material, in mjtTextureRole order
static const char* const texRoleNames[] = {
  "user", "rgb", "occlusion", "roughness", "metallic", "normal", "opacity", "emissive", "rgba",
  "orm"
};

// materials: name, then each role that has a texture as "role texture" ("-": none)
static void summaryMaterials(const mjModel* m, FILE* f) {
  char a[32], b[32];
  if (!m->nmat) return;
  fprintf(f, "materials (%d)\n  %4s %-20s %s\n", m->nmat, "id", "name", "textures");
  for (int i = 0; i < m->nmat; i++) {
    fprintf(f, "  %4d %-20s", i, label(m, mjOBJ_MATERIAL, i, a, sizeof(a)));
    int any = 0;
    for (int r = 0; r < mjNTEXROLE; r++) {
      int t = m->mat_texid[mjNTEXROLE * i + r];
      if (t < 0) continue;
      fprintf(f, "%s%s %s", any ? ", " : " ", texRoleNames[r],
              label(m, mjOBJ_TEXTURE, t, b, sizeof(b)));
      any = 1;
    }
    fputs(any ? "\n" : " -\n", f);
  }
}

// actuators: name, transmission and target, dynamics/gain/bias types, control range, gear
static void summaryActuators(const mjModel* m, FILE* f) {
  char a[32], b[32];
  if (!m->nu) return;
  fprintf(f, "actuators (%d)\n  %4s %-20s %-14s %-20s %-11s %-7s %-7s %-16s %s\n", m->nu, "id",
          "name", "transmission", "target", "dyn", "gain", "bias", "ctrlrange", "gear");
  for (int i = 0; i < m->nu; i++) {
    int trn = m->actuator_trntype[i];
    char range[40] = "-";
    if (m->actuator_ctrllimited[i])
      snprintf(range, sizeof(range), "%g %g", m->actuator_ctrlrange[2*i],
               m->actuator_ctrlrange[2*i+1]);
    fprintf(f, "  %4d %-20s %-14s %-20s %-11s %-7s %-7s %-16s %g\n", i,
            label(m, mjOBJ_ACTUATOR, i, a, sizeof(a)), enumName(trnNames, NELEM(trnNames), trn),
            label(m, trnObject(trn), m->actuator_trnid[2*i], b, sizeof(b)),
            enumName(dynNames, NELEM(dynNames), m->actuator_dyntype[i]),
            enumName(gainNames, NELEM(gainNames), m->actuator_gaintype[i]),
            enumName(biasNames, NELEM(biasNames), m->actuator_biastype[i]), range,
            m->actuator_gear[6*i]);
  }
}

// sensors: name, type, the sensed object, dimension and address
static void summarySensors(const mjModel* m, FILE* f) {
  char a[32], b[32];
  if (!m->nsensor) return;
  fprintf(f, "sensors (%d)\n  %4s %-20s %-16s %-9s %-20s %4s %4s\n", m->nsensor, "id", "name",
          "type", "objtype", "object", "dim", "adr");
  for (int i = 0; i < m->nsensor; i++) {
    int ot = m->sensor_objtype[i];
    fprintf(f, "  %4d %-20s %-16s %-9s %-20s %4d %4d\n", i,
            label(m, mjOBJ_SENSOR, i, a, sizeof(a)),
            enumName(sensorNames, NELEM(sensorNames), m->sensor_type[i]),
            enumName(objNames, NELEM(objNames), ot),
            ot == mjOBJ_UNKNOWN ? "-" : label(m, ot, m->sensor_objid[i], b, sizeof(b)),
            m->sensor_dim[i], m->sensor_adr[i]);
  }
}

// a text's n chars, control characters as '?' so that each text stays on its line
static void printText(FILE* f, const char* s, int n) {
  for (int i = 0; i < n; i++) fputc((unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i], f);
}

// custom fields: each numeric with its numbers, each text, each tuple's objects (type, name,
// parameter)
static void summaryCustom(const mjModel* m, FILE* f) {
  char a[32], b[32];
  if (m->nnumeric) fprintf(f, "numeric (%d)\n  %4s %-20s %4s %s\n", m->nnumeric, "id", "name",
                           "size", "data");
  for (int i = 0; i < m->nnumeric; i++) {
    fprintf(f, "  %4d %-20s %4d ", i, label(m, mjOBJ_NUMERIC, i, a, sizeof(a)),
            m->numeric_size[i]);
    printReals(f, m->numeric_data + m->numeric_adr[i], m->numeric_size[i]);
    fputc('\n', f);
  }
  if (m->ntext) fprintf(f, "text (%d)\n  %4s %-20s %s\n", m->ntext, "id", "name", "data");
  for (int i = 0; i < m->ntext; i++) {
    fprintf(f, "  %4d %-20s ", i, label(m, mjOBJ_TEXT, i, a, sizeof(a)));
    printText(f, m->text_data + m->text_adr[i], m->text_size[i] - 1);
    fputc('\n', f);
  }
  if (m->ntuple) fprintf(f, "tuple (%d)\n  %4s %-20s %s\n", m->ntuple, "id", "name",
                         "objects (type name prm)");
  for (int i = 0; i < m->ntuple; i++) {
    fprintf(f, "  %4d %-20s", i, label(m, mjOBJ_TUPLE, i, a, sizeof(a)));
    for (int k = m->tuple_adr[i]; k < m->tuple_adr[i] + m->tuple_size[i]; k++) {
      int t = m->tuple_objtype[k];
      fprintf(f, "%s%s %s %g", k > m->tuple_adr[i] ? ", " : " ",
              enumName(objNames, NELEM(objNames), t), label(m, t, m->tuple_objid[k], b, sizeof(b)),
              m->tuple_objprm[k]);
    }
    fputc('\n', f);
  }
}

// the readable listing: counts, options, then each kind of object
void mj_printModelSummary(const mjModel* m, FILE* f) {
  // the model name, when stored ahead of the world body's name as MuJoCo does
  const char* name = m->nnames && (!m->nbody || m->name_bodyadr[0] > 0) ? m->names : "";
  fprintf(f, "model %s\n", name[0] ? name : "(unnamed)");
  summarySizes(m, f);
  summaryOptions(m, f);
  summaryBodies(m, f);
  summaryJoints(m, f);
  summaryGeoms(m, f);
  summaryMaterials(m, f);
  summaryActuators(m, f);
  summarySensors(m, f);
  summaryCustom(m, f);
}
