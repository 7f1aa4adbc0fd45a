// replicate.c: what <replicate> does beyond the body tree.  MuJoCo reads the world body last,
// so that each replicate (innermost first, then in document order) finds every pair, exclude,
// tendon, equality, actuator and sensor already there; for each copy i (suffix S_i: sep and
// i zero-padded) it copies each of them, in list order, whose references resolve with S_i
// appended (named copies named name + S_i), then drops those that named an element of the
// replicated template.  A reference resolves with the suffix when it names an element of the
// template (tree elements), or when name + S_i is a tendon or actuator by then.  Pairs,
// excludes, sensors and each wrap of a tendon keep the plain names of references that do not
// resolve so, as long as one does (a tendon from a shared site to replicated ones is
// replicated); equalities and actuators need all of them.  This file applies that to the
// document before it is read, so that the readers see the copies as written elements.
#include "compiler/mjcf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MuJoCo's element lists, in the order it copies them
enum { L_PAIR, L_EXCLUDE, L_TENDON, L_EQ, L_ACT, L_SENSOR, NLIST };

// the section of each list (NULL-terminated)
static const char* const listSection[NLIST + 1] = {"contact", "contact", "tendon", "equality",
                                                   "actuator", "sensor", NULL};

// a growable array of nodes
typedef struct {
  mjXNode** p;
  int n, cap;
} Nodes;

// the state of one document's pass
typedef struct {
  Nodes list[NLIST];   // the elements of each list, in MuJoCo's order
  Nodes copies;        // every copy made (owned here until placed)
  Nodes dead;          // elements dropped (freed at the end)
  Nodes gone;          // tendons and actuators dropped by the current replicate
  const mjXNode* rep;  // the replicate being applied
  char suffix[64];     // the suffix of the copy being made
  int oom;             // an allocation failed
} Pass;

// append p to v (sets oom on failure)
static void push(Pass* s, Nodes* v, mjXNode* p) {
  if (v->n == v->cap) {
    int cap = v->cap ? 2 * v->cap : 16;
    mjXNode** q = realloc(v->p, sizeof(void*) * cap);
    if (!q) {
      s->oom = 1;
      return;
    }
    v->p = q, v->cap = cap;
  }
  v->p[v->n++] = p;
}

// whether v holds p
static int holds(const Nodes* v, const void* p) {
  for (int i = 0; i < v->n; i++)
    if (v->p[i] == p) return 1;
  return 0;
}

// ---- references -------------------------------------------------------------------------------

// the attributes that reference another element: the tree element's tag (NULL: any) or the list
// (tendons, actuators) they name; objname and refname take their kind from objtype and reftype
static const struct {
  const char *attr, *tag;
  int list;
} refs[] = {
  {"joint", "joint", -1},     {"jointinparent", "joint", -1}, {"joint1", "joint", -1},
  {"joint2", "joint", -1},    {"site", "site", -1},           {"cranksite", "site", -1},
  {"refsite", "site", -1},    {"slidersite", "site", -1},     {"site1", "site", -1},
  {"site2", "site", -1},      {"sidesite", "site", -1},       {"body", "body", -1},
  {"body1", "body", -1},      {"body2", "body", -1},          {"subtree1", "body", -1},
  {"subtree2", "body", -1},   {"geom", "geom", -1},           {"geom1", "geom", -1},
  {"geom2", "geom", -1},      {"camera", "camera", -1},       {"tendon", NULL, L_TENDON},
  {"tendon1", NULL, L_TENDON}, {"tendon2", NULL, L_TENDON},   {"actuator", NULL, L_ACT},
  {"objname", NULL, -1},      {"refname", NULL, -1},
};

// whether attribute i of e is a reference; its kind in *tag, *list
static int isRef(const mjXNode* e, int i, const char** tag, int* list) {
  const char* a = e->attr[2 * i];
  for (size_t k = 0; k < sizeof refs / sizeof refs[0]; k++) {
    if (strcmp(a, refs[k].attr)) continue;
    *tag = refs[k].tag, *list = refs[k].list;
    if (refs[k].tag || refs[k].list >= 0) return 1;
    // objname, refname: the kind from objtype, reftype
    const char* t = mjx_attr(e, a[0] == 'o' ? "objtype" : "reftype");
    if (t && !strcmp(t, "tendon")) *list = L_TENDON;
    else if (t && !strcmp(t, "actuator")) *list = L_ACT;
    else if (t && !strcmp(t, "xbody")) *tag = "body";
    else if (t && strcmp(t, "body") && strcmp(t, "joint") && strcmp(t, "geom") &&
             strcmp(t, "site") && strcmp(t, "camera"))
      return 0;  // a kind no replicate makes (meshes, the world, ...)
    else *tag = t;
    return 1;
  }
  return 0;
}

// whether tree element tag `name` (joint: joint or freejoint) is of kind `tag` (NULL: any)
static int tagIs(const char* name, const char* tag) {
  static const char* const tree[] = {"body", "joint", "freejoint", "geom", "site", "camera",
                                     "light", NULL};
  if (tag) return !strcmp(name, tag) || (!strcmp(tag, "joint") && !strcmp(name, "freejoint"));
  return mjcf_wordIndex(tree, name) >= 0;
}

// the count and separator of replicate e (count 0 when unreadable: the tree reader reports it)
static int repCount(const mjXNode* e, const char** sep) {
  const char* n = mjx_attr(e, "count");
  *sep = mjx_attr(e, "sep") ? mjx_attr(e, "sep") : "";
  int count = n ? atoi(n) : 0;
  return count > 0 && count <= (1 << 20) ? count : 0;
}

// copy i's suffix of a replicate of `count` copies: sep, then i zero-padded to count's digits
static void repSuffix(char* out, size_t n, const char* sep, int count, int i) {
  snprintf(out, n, "%s%0*d", sep, snprintf(NULL, 0, "%d", count), i);
}

// whether the template under e (bodies, frames, nested replicates with their suffixes) has a
// tree element of kind tag named `name`
static int templateHas(const mjXNode* e, const char* tag, const char* name) {
  for (int i = 0; i < e->nchild; i++) {
    const mjXNode* ch = e->child[i];
    const char* n = mjx_attr(ch, "name");
    if (n && tagIs(ch->name, tag) && !strcmp(n, name)) return 1;
    if ((!strcmp(ch->name, "body") || !strcmp(ch->name, "frame")) && templateHas(ch, tag, name))
      return 1;
    if (strcmp(ch->name, "replicate")) continue;
    // a nested replicate's elements carry its suffixes
    const char* sep;
    int count = repCount(ch, &sep);
    size_t len = strlen(name);
    for (int k = 0; k < count; k++) {
      char sfx[64];
      repSuffix(sfx, sizeof sfx, sep, count, k);
      size_t ls = strlen(sfx);
      if (ls > len || strcmp(name + len - ls, sfx)) continue;
      char* base = malloc(len - ls + 1);
      if (!base) return 0;
      memcpy(base, name, len - ls);
      base[len - ls] = 0;
      int has = templateHas(ch, tag, base);
      free(base);
      if (has) return 1;
    }
  }
  return 0;
}

// whether list `list` has an element named a + b
static int listHas(const Pass* s, int list, const char* a, const char* b) {
  size_t la = strlen(a);
  for (int i = 0; i < s->list[list].n; i++) {
    const char* n = mjx_attr(s->list[list].p[i], "name");
    if (n && !strncmp(n, a, la) && !strcmp(n + la, b)) return 1;
  }
  return 0;
}

// the references of e (only attribute `only` when >= 0): their count, and in *found how many
// resolve with the current suffix
static int refsFound(const Pass* s, const mjXNode* e, int only, int* found) {
  int n = 0;
  *found = 0;
  for (int i = 0; i < e->nattr; i++) {
    const char* tag;
    int list;
    if ((only >= 0 && i != only) || !isRef(e, i, &tag, &list)) continue;
    const char* v = e->attr[2 * i + 1];
    n++;
    *found += list >= 0 ? listHas(s, list, v, s->suffix) : templateHas(s->rep, tag, v);
  }
  return n;
}

// append the suffix to the references of e (all for only = -1, attribute `only` when >= 0, none
// for -2), and to its name when `rename`; 0 when out of memory
static int addSuffix(const char* suffix, mjXNode* e, int only, int rename) {
  for (int i = 0; i < e->nattr; i++) {
    const char* tag;
    int list;
    int ref = (only == -1 || i == only) && isRef(e, i, &tag, &list);
    if (!ref && !(rename && !strcmp(e->attr[2 * i], "name"))) continue;
    size_t n = strlen(e->attr[2 * i + 1]) + strlen(suffix) + 1;
    char* v = malloc(n);
    if (!v) return 0;
    snprintf(v, n, "%s%s", e->attr[2 * i + 1], suffix);
    free(e->attr[2 * i + 1]);
    e->attr[2 * i + 1] = v;
  }
  return 1;
}

// ---- copies -----------------------------------------------------------------------------------

// the copy of element e of list `list` for the current suffix, or NULL when it does not resolve:
// a tendon's wraps each all-or-nothing, one at least; equalities and actuators every reference;
// the rest one reference at least (or none at all)
static mjXNode* copyOf(Pass* s, const mjXNode* e, int list) {
  int tendon = list == L_TENDON, all = list == L_EQ || list == L_ACT;
  int ngroup = tendon ? e->nchild : e->nattr, nref = 0, nhit = 0;
  char* hit = calloc(ngroup + 1, 1);  // the groups (wraps, or attributes) that resolve
  if (!hit) {
    s->oom = 1;
    return NULL;
  }
  for (int g = 0; g < ngroup; g++) {
    int found, n = tendon ? refsFound(s, e->child[g], -1, &found) : refsFound(s, e, g, &found);
    if (!n) continue;
    nref++;
    hit[g] = found == n;
    nhit += hit[g];
  }
  mjXNode* c = NULL;
  if (all ? nhit == nref : !nref || nhit) {
    c = mjx_copyNode(e);
    int ok = c && addSuffix(s->suffix, c, -2, 1);
    for (int g = 0; ok && g < ngroup; g++)
      if (hit[g]) ok = tendon ? addSuffix(s->suffix, c->child[g], -1, 0)
                              : addSuffix(s->suffix, c, g, 0);
    if (!ok) {
      mjx_freeNode(c);
      c = NULL;
      s->oom = 1;
    }
  }
  free(hit);
  return c;
}

// whether e (and its wraps) names an element of the template, or a tendon or actuator the
// current replicate dropped
static int namesTemplate(const Pass* s, const mjXNode* e) {
  for (int i = 0; i < e->nattr; i++) {
    const char* tag;
    int list;
    if (!isRef(e, i, &tag, &list)) continue;
    const char* v = e->attr[2 * i + 1];
    if (list < 0 && templateHas(s->rep, tag, v)) return 1;
    for (int k = 0; list >= 0 && k < s->gone.n; k++) {
      const char* name = mjx_attr(s->gone.p[k], "name");
      if (name && !strcmp(name, v)) return 1;
    }
  }
  for (int i = 0; i < e->nchild; i++)
    if (namesTemplate(s, e->child[i])) return 1;
  return 0;
}

// apply replicate r: the copies for each suffix, then the elements naming its template dropped
static void applyReplicate(Pass* s, const mjXNode* r) {
  const char* sep;
  int count = repCount(r, &sep);
  s->rep = r;
  for (int i = 0; i < count && !s->oom; i++) {
    repSuffix(s->suffix, sizeof s->suffix, sep, count, i);
    for (int k = 0; k < NLIST; k++) {
      int n0 = s->list[k].n;
      for (int j = 0; j < n0 && !s->oom; j++) {
        mjXNode* c = copyOf(s, s->list[k].p[j], k);
        if (!c) continue;
        push(s, &s->list[k], c);
        push(s, &s->copies, c);
      }
    }
  }
  s->gone.n = 0;
  for (int k = 0; k < NLIST; k++) {
    int n = 0;
    for (int j = 0; j < s->list[k].n; j++) {
      mjXNode* e = s->list[k].p[j];
      if (!namesTemplate(s, e)) {
        s->list[k].p[n++] = e;
        continue;
      }
      push(s, &s->dead, e);
      if (k == L_TENDON || k == L_ACT) push(s, &s->gone, e);
    }
    s->list[k].n = n;
  }
}

// the replicates under e in MuJoCo's order: nested ones before the one holding them
static void collectReplicates(Pass* s, const mjXNode* e, Nodes* out) {
  for (int i = 0; i < e->nchild; i++) {
    mjXNode* ch = e->child[i];
    int rep = !strcmp(ch->name, "replicate");
    if (rep || !strcmp(ch->name, "body") || !strcmp(ch->name, "frame"))
      collectReplicates(s, ch, out);
    if (rep) push(s, out, ch);
  }
}

// the list an element of section `sec` belongs to, or -1
static int listOf(const char* sec, const mjXNode* e) {
  if (!strcmp(sec, "contact"))
    return !strcmp(e->name, "pair") ? L_PAIR : !strcmp(e->name, "exclude") ? L_EXCLUDE : -1;
  for (int k = L_TENDON; k < NLIST; k++)
    if (!strcmp(sec, listSection[k])) return k;
  return -1;
}

// whether a section of root holds e
static int placed(const mjXNode* root, const mjXNode* e) {
  for (int i = 0; i < root->nchild; i++)
    for (int j = 0; j < root->child[i]->nchild; j++)
      if (root->child[i]->child[j] == e) return 1;
  return 0;
}

// the sections rewritten: each keeps its live elements in place; the last section of each name
// takes the copies of its lists, in list order
static void placeCopies(Pass* s, mjXNode* root) {
  for (int i = 0; i < root->nchild && !s->oom; i++) {
    mjXNode* sec = root->child[i];
    if (mjcf_wordIndex(listSection, sec->name) < 0) continue;
    int last = 1, n = 0;
    for (int j = i + 1; j < root->nchild; j++) last &= !!strcmp(root->child[j]->name, sec->name);
    for (int j = 0; j < sec->nchild; j++)
      if (!holds(&s->dead, sec->child[j])) sec->child[n++] = sec->child[j];
    sec->nchild = n;
    for (int k = 0; last && k < NLIST; k++) {
      if (strcmp(listSection[k], sec->name)) continue;
      for (int j = 0; j < s->list[k].n && !s->oom; j++)
        if (holds(&s->copies, s->list[k].p[j]) && !mjx_addChild(sec, s->list[k].p[j]))
          s->oom = 1;
    }
  }
}

int mjcf_replicateRefs(mjXNode* root) {
  Pass s = {0};
  Nodes reps = {0};
  for (int i = 0; i < root->nchild; i++)
    if (!strcmp(root->child[i]->name, "worldbody")) collectReplicates(&s, root->child[i], &reps);
  if (reps.n) {
    for (int i = 0; i < root->nchild; i++) {
      const mjXNode* sec = root->child[i];
      for (int j = 0; j < sec->nchild; j++) {
        int k = listOf(sec->name, sec->child[j]);
        if (k >= 0) push(&s, &s.list[k], sec->child[j]);
      }
    }
    for (int i = 0; i < reps.n && !s.oom; i++) applyReplicate(&s, reps.p[i]);
    if (!s.oom) placeCopies(&s, root);
  }
  // free the dropped elements and the copies that no section holds (each once)
  for (int i = 0; i < s.dead.n; i++)
    if (!holds(&s.copies, s.dead.p[i]) && !placed(root, s.dead.p[i])) mjx_freeNode(s.dead.p[i]);
  for (int i = 0; i < s.copies.n; i++)
    if (!placed(root, s.copies.p[i])) mjx_freeNode(s.copies.p[i]);
  for (int k = 0; k < NLIST; k++) free(s.list[k].p);
  free(s.copies.p), free(s.dead.p), free(s.gone.p), free(reps.p);
  return s.oom;
}
