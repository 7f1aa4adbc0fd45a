// t/oracle/mesh/mesh.c: compile one mesh with lib/compiler/mesh.c and print its arrays as one JSON
// line with the keys the MuJoCo side (compare.mjs) prints.
//
// usage: mesh [key=value ...]   keys as the <mesh> attributes: file, content_type, vertex,
//        normal, texcoord, face (numbers separated by spaces), scale, refpos, refquat,
//        inertia (convex|exact|legacy|shell), maxhullvert, smoothnormal (true|false).
// Prints {"error": "..."} when the mesh does not compile.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/mesh.h"

// numbers of a space-separated list into a new array (float or int); returns the count
static int parseList(const char* s, float** f, int** i) {
  int n = 0, cap = 16;
  float* fa = malloc(sizeof(float) * cap);
  int* ia = malloc(sizeof(int) * cap);
  char* end;
  for (double x = strtod(s, &end); end != s; x = strtod(s, &end)) {
    if (n == cap) {
      cap *= 2;
      fa = realloc(fa, sizeof(float) * cap);
      ia = realloc(ia, sizeof(int) * cap);
    }
    fa[n] = (float)x, ia[n++] = (int)x;
    s = end;
  }
  if (f) *f = fa; else free(fa);
  if (i) *i = ia; else free(ia);
  return n;
}

// print n floats, ints or doubles as a JSON array under key
static void printF(const char* key, const float* x, int n) {
  printf("\"%s\":[", key);
  for (int i = 0; i < n; i++) printf("%s%.9g", i ? "," : "", x[i]);
  printf("],");
}
static void printI(const char* key, const int* x, int n) {
  printf("\"%s\":[", key);
  for (int i = 0; i < n; i++) printf("%s%d", i ? "," : "", x[i]);
  printf("],");
}
static void printD(const char* key, const double* x, int n, double scl) {
  printf("\"%s\":[", key);
  for (int i = 0; i < n; i++) printf("%s%.17g", i ? "," : "", x[i] * scl);
  printf("]");
}

int main(int argc, char** argv) {
  mjMeshSpec s = {.scale = {1, 1, 1}, .refquat = {1, 0, 0, 0},
                  .inertia = mjMESH_INERTIA_LEGACY, .maxhullvert = -1};
  float *vert = NULL, *normal = NULL, *texcoord = NULL;
  int* face = NULL;
  for (int a = 1; a < argc; a++) {
    char* eq = strchr(argv[a], '=');
    if (!eq) continue;
    *eq = 0;
    const char *k = argv[a], *v = eq + 1;
    if (!strcmp(k, "file")) s.file = v;
    else if (!strcmp(k, "content_type")) s.contenttype = v;
    else if (!strcmp(k, "vertex")) s.nvert = parseList(v, &vert, NULL) / 3;
    else if (!strcmp(k, "normal")) s.nnormal = parseList(v, &normal, NULL) / 3;
    else if (!strcmp(k, "texcoord")) s.ntexcoord = parseList(v, &texcoord, NULL) / 2;
    else if (!strcmp(k, "face")) s.nface = parseList(v, NULL, &face) / 3;
    else if (!strcmp(k, "maxhullvert")) s.maxhullvert = atoi(v);
    else if (!strcmp(k, "smoothnormal")) s.smoothnormal = !strcmp(v, "true");
    else if (!strcmp(k, "inertia"))
      s.inertia = !strcmp(v, "convex") ? 0 : !strcmp(v, "exact") ? 1 : !strcmp(v, "shell") ? 3 : 2;
    else if (!strcmp(k, "scale") || !strcmp(k, "refpos") || !strcmp(k, "refquat")) {
      double* dst = k[0] == 's' ? s.scale : k[3] == 'p' ? s.refpos : s.refquat;
      char* end;
      for (int i = 0; i < (k[3] == 'q' ? 4 : 3); i++, v = end) dst[i] = strtod(v, &end);
    }
  }
  s.vert = vert, s.normal = normal, s.texcoord = texcoord, s.face = face;
  mjMesh m;
  char err[500];
  if (mj_meshCompile(&s, &m, err, sizeof err)) {
    printf("{\"error\":\"");
    for (const char* c = err; *c; c++) printf(*c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
    printf("\"}\n");
  } else {
    printf("{");
    printF("mesh_vert", m.vert, 3 * m.nvert);
    printF("mesh_normal", m.normal, 3 * m.nnormal);
    printF("mesh_texcoord", m.texcoord, 2 * m.ntexcoord);
    printI("mesh_face", m.face, 3 * m.nface);
    printI("mesh_facenormal", m.facenormal, 3 * m.nface);
    printI("mesh_facetexcoord", m.facetexcoord, 3 * m.nface);
    printI("mesh_graph", m.graph, m.ngraph);
    printD("mesh_pos", m.pos, 3, 1), printf(",");
    printD("mesh_quat", m.quat, 4, 1), printf(",");
    printD("body_mass", &m.volume, 1, 1000), printf(",");
    printD("body_inertia", m.inertia, 3, 1000), printf(",");
    printD("geom_aabb", m.aabb, 6, 1);
    printf("}\n");
    mj_meshFree(&m);
  }
  free(vert), free(normal), free(texcoord), free(face);
  return 0;
}
