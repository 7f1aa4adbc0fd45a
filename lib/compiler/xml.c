// xml.c: expat into an element tree, with <include> replaced by the included file's elements.
#define _XOPEN_SOURCE 700  // realpath
#include "compiler/xml.h"

#include <expat.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXDEPTH = 1000, MAXATTR = 64, MAXINCLUDE = 32 };

// the state of one file's parse
typedef struct {
  mjXDoc* doc;
  XML_Parser parser;
  const char* file;          // this file's name (owned by doc)
  const char* dir;           // directory that relative includes resolve against
  mjXNode* root;             // the file's root element
  mjXNode* stack[MAXDEPTH];  // open elements
  int depth;
  char** chain;              // resolved paths of the files being parsed (include cycle check)
  int nchain;
  char* err;
  int errsz;
  int failed;
} Builder;

// report "file:line: message" into b->err and stop the parse
static void fail(Builder* b, int line, const char* fmt, ...) {
  if (b->failed) return;
  b->failed = 1;
  int n = snprintf(b->err, b->errsz, "%s:%d: ", b->file, line);
  if (n >= 0 && n < b->errsz) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->err + n, b->errsz - n, fmt, ap);
    va_end(ap);
  }
  if (b->parser) XML_StopParser(b->parser, XML_FALSE);
}

// a malloc'd copy of s (NULL when out of memory)
static char* dupString(const char* s) {
  size_t n = strlen(s) + 1;
  char* d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

// free a node and its subtree
void mjx_freeNode(mjXNode* e) {
  if (!e) return;
  for (int i = 0; i < e->nchild; i++) mjx_freeNode(e->child[i]);
  for (int i = 0; i < 2 * e->nattr; i++) free(e->attr[i]);
  free(e->attr);
  free(e->child);
  free(e->name);
  free(e);
}

// free a document, its tree and its file names
void mjx_free(mjXDoc* doc) {
  if (!doc) return;
  mjx_freeNode(doc->root);
  for (int i = 0; i < doc->nfile; i++) free(doc->files[i]);
  free(doc->files);
  free(doc);
}

// keep a copy of a file name in the document; NULL when out of memory
static const char* addFile(mjXDoc* doc, const char* name) {
  char** f = realloc(doc->files, sizeof(char*) * (doc->nfile + 1));
  if (!f) return NULL;
  doc->files = f;
  char* s = dupString(name);
  if (s) doc->files[doc->nfile++] = s;
  return s;
}

// append child c to e; 0 when out of memory
int mjx_addChild(mjXNode* e, mjXNode* c) {
  // grow the child array in powers of two
  if ((e->nchild & (e->nchild - 1)) == 0) {
    int cap = e->nchild ? 2 * e->nchild : 1;
    mjXNode** p = realloc(e->child, sizeof(mjXNode*) * cap);
    if (!p) return 0;
    e->child = p;
  }
  e->child[e->nchild++] = c;
  return 1;
}

// value of attribute `name`, or NULL
const char* mjx_attr(const mjXNode* e, const char* name) {
  for (int i = 0; i < e->nattr; i++)
    if (!strcmp(e->attr[2 * i], name)) return e->attr[2 * i + 1];
  return NULL;
}

// a new element `name` with no attributes or children, said to come from file:line; NULL when
// out of memory
mjXNode* mjx_newNode(const char* name, const char* file, int line) {
  mjXNode* e = calloc(1, sizeof(mjXNode));
  if (!e) return NULL;
  e->file = file;
  e->line = line;
  e->name = dupString(name);
  e->attr = calloc(1, sizeof(char*));
  if (!e->name || !e->attr) {
    mjx_freeNode(e);
    return NULL;
  }
  return e;
}

// append attribute name="value" to e; 0 when out of memory or e has MAXATTR already
int mjx_addAttr(mjXNode* e, const char* name, const char* value) {
  if (e->nattr >= MAXATTR) return 0;
  char** a = realloc(e->attr, sizeof(char*) * (2 * e->nattr + 3));
  if (!a) return 0;
  e->attr = a;
  a[2 * e->nattr] = dupString(name);
  a[2 * e->nattr + 1] = dupString(value);
  a[2 * e->nattr + 2] = NULL;
  e->nattr++;
  return a[2 * e->nattr - 2] && a[2 * e->nattr - 1];
}

// a deep copy of e and its subtree (usage marks cleared); NULL when out of memory
mjXNode* mjx_copyNode(const mjXNode* e) {
  mjXNode* c = mjx_newNode(e->name, e->file, e->line);
  int ok = c != NULL;
  for (int i = 0; ok && i < e->nattr; i++) ok = mjx_addAttr(c, e->attr[2 * i], e->attr[2 * i + 1]);
  for (int i = 0; ok && i < e->nchild; i++) {
    mjXNode* k = mjx_copyNode(e->child[i]);
    ok = k && mjx_addChild(c, k);
    if (!ok) mjx_freeNode(k);
  }
  if (!ok) {
    mjx_freeNode(c);
    return NULL;
  }
  return c;
}

// expat start tag: a new node, attached to the open element
static void XMLCALL onStart(void* data, const XML_Char* name, const XML_Char** atts) {
  Builder* b = data;
  int line = (int)XML_GetCurrentLineNumber(b->parser);
  if (b->failed) return;
  if (b->depth >= MAXDEPTH) {
    fail(b, line, "elements nested deeper than %d", MAXDEPTH);
    return;
  }
  int na = 0;
  while (atts[2 * na]) na++;
  if (na > MAXATTR) {
    fail(b, line, "element '%s': more than %d attributes", name, MAXATTR);
    return;
  }
  // the node with copies of its name and attributes
  mjXNode* e = mjx_newNode(name, b->file, line);
  int ok = e != NULL;
  for (int i = 0; ok && i < na; i++) ok = mjx_addAttr(e, atts[2 * i], atts[2 * i + 1]);
  // attach it: the root, or the last child of the open element
  if (ok && b->depth == 0) b->root = e;
  else if (ok) ok = mjx_addChild(b->stack[b->depth - 1], e);
  if (!ok) {
    mjx_freeNode(e);
    fail(b, line, "out of memory");
    return;
  }
  b->stack[b->depth++] = e;
}

static mjXNode* parseFileInto(mjXDoc* doc, const char* path, const char* shown, char** chain,
                              int nchain, char* err, int errsz);

// the directory part of path with its trailing '/', in out ("" when path has none)
static void dirName(char* out, size_t n, const char* path) {
  const char* slash = strrchr(path, '/');
  size_t len = slash ? (size_t)(slash - path + 1) : 0;
  if (len >= n) len = n - 1;
  memcpy(out, path, len);
  out[len] = 0;
}

// replace the just-closed <include> element e (the last child of the open element) by the
// children of the included file's root
static void expandInclude(Builder* b, mjXNode* e) {
  mjXNode* parent = b->stack[b->depth - 1];
  const char* file = mjx_attr(e, "file");
  if (!file || e->nattr != 1 || e->nchild) {
    fail(b, e->line, "include: needs exactly one attribute, file, and no children");
    return;
  }
  if (b->nchain >= MAXINCLUDE) {
    fail(b, e->line, "include: nested deeper than %d files", MAXINCLUDE);
    return;
  }
  // the included path: absolute, or relative to the including file's directory
  char path[PATH_MAX];
  int n = file[0] == '/' ? snprintf(path, sizeof(path), "%s", file)
                         : snprintf(path, sizeof(path), "%s%s", b->dir, file);
  if (n < 0 || n >= (int)sizeof(path)) {
    fail(b, e->line, "include: path too long");
    return;
  }
  char sub[1024];
  mjXNode* root = parseFileInto(b->doc, path, NULL, b->chain, b->nchain, sub, sizeof(sub));
  if (!root) {
    // the included file's own message when it was read, else where it was included
    if (sub[0] == '!') fail(b, e->line, "include: %s", sub + 1);
    else {
      snprintf(b->err, b->errsz, "%s", sub);
      b->failed = 1;
      XML_StopParser(b->parser, XML_FALSE);
    }
    return;
  }
  // splice: drop the include node, append the included root's children
  parent->nchild--;
  mjx_freeNode(e);
  for (int i = 0; i < root->nchild; i++) {
    if (!mjx_addChild(parent, root->child[i])) {
      for (int j = i; j < root->nchild; j++) mjx_freeNode(root->child[j]);
      root->nchild = 0;
      mjx_freeNode(root);
      fail(b, parent->line, "out of memory");
      return;
    }
  }
  root->nchild = 0;
  mjx_freeNode(root);
}

// expat end tag: close the element; an <include> is expanded in place
static void XMLCALL onEnd(void* data, const XML_Char* name) {
  Builder* b = data;
  (void)name;
  if (b->failed || b->depth == 0) return;
  mjXNode* e = b->stack[--b->depth];
  if (!strcmp(e->name, "include")) {
    if (b->depth == 0) fail(b, e->line, "include cannot be the root element");
    else expandInclude(b, e);
  }
}

// parse text into a root node; the Builder holds the file's name, directory and include chain
static mjXNode* parseText(Builder* b, const char* text, size_t len) {
  b->parser = XML_ParserCreate(NULL);
  if (!b->parser) {
    snprintf(b->err, b->errsz, "%s: out of memory", b->file);
    return NULL;
  }
  XML_SetUserData(b->parser, b);
  XML_SetElementHandler(b->parser, onStart, onEnd);
  // one call with the whole text; a syntax error names its line
  if (XML_Parse(b->parser, text, (int)len, XML_TRUE) == XML_STATUS_ERROR && !b->failed) {
    int line = (int)XML_GetCurrentLineNumber(b->parser);
    fail(b, line, "XML error: %s", XML_ErrorString(XML_GetErrorCode(b->parser)));
  }
  XML_ParserFree(b->parser);
  b->parser = NULL;
  if (!b->failed && !b->root) {
    snprintf(b->err, b->errsz, "%s: no root element", b->file);
    b->failed = 1;
  }
  if (b->failed) {
    mjx_freeNode(b->root);
    return NULL;
  }
  return b->root;
}

// the largest XML file read (bytes): an endless one (an include of /dev/zero) stops here
#define MAXXML (1 << 26)

// the whole file in a malloc'd buffer of *len bytes; NULL when it cannot be read or is
// larger than MAXXML (then *len is MAXXML)
static char* readFile(const char* path, size_t* len) {
  *len = 0;
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  char* buf = NULL;
  size_t n = 0, cap = 0;
  // read in growing chunks until end of file, or one byte past the limit
  while (n <= MAXXML) {
    if (n == cap) {
      cap = cap ? 2 * cap : 65536;
      if (cap > MAXXML + 1) cap = MAXXML + 1;
      char* p = realloc(buf, cap);
      if (!p) break;
      buf = p;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  int bad = ferror(f) || !buf || n == cap || n > MAXXML;
  fclose(f);
  if (bad) {
    free(buf);
    if (n > MAXXML) *len = MAXXML;
    return NULL;
  }
  *len = n;
  return buf;
}

// parse file `path` (shown in messages as `shown`, or path) under the include chain; a message
// starting with '!' means the file itself could not be opened (the includer adds its line)
static mjXNode* parseFileInto(mjXDoc* doc, const char* path, const char* shown, char** chain,
                              int nchain, char* err, int errsz) {
  // the resolved path, compared with the files being parsed to detect cycles
  char real[PATH_MAX];
  if (!realpath(path, real)) {
    snprintf(err, errsz, "!cannot open file '%s'", path);
    return NULL;
  }
  for (int i = 0; i < nchain; i++) {
    if (!strcmp(chain[i], real)) {
      snprintf(err, errsz, "!include cycle: '%s' includes itself", path);
      return NULL;
    }
  }
  size_t len;
  char* text = readFile(path, &len);
  if (!text) {
    if (len) snprintf(err, errsz, "!file '%s' is larger than %zu bytes", path, len);
    else snprintf(err, errsz, "!cannot read file '%s'", path);
    return NULL;
  }
  // the chain with this file appended
  char* newchain[MAXINCLUDE + 1];
  for (int i = 0; i < nchain; i++) newchain[i] = chain[i];
  newchain[nchain] = real;
  char dir[PATH_MAX];
  dirName(dir, sizeof(dir), path);
  Builder b = {.doc = doc, .dir = dir, .chain = newchain, .nchain = nchain + 1,
               .err = err, .errsz = errsz};
  b.file = addFile(doc, shown ? shown : path);
  mjXNode* root = NULL;
  if (!b.file) snprintf(err, errsz, "%s: out of memory", path);
  else root = parseText(&b, text, len);
  free(text);
  return root;
}

// parse the file `path` into a new document
mjXDoc* mjx_parseFile(const char* path, char* err, int errsz) {
  mjXDoc* doc = calloc(1, sizeof(mjXDoc));
  if (!doc) {
    snprintf(err, errsz, "%s: out of memory", path);
    return NULL;
  }
  char sub[1024], dir[PATH_MAX];
  dirName(dir, sizeof(dir), path);
  doc->dir = addFile(doc, dir);
  doc->root = doc->dir ? parseFileInto(doc, path, NULL, NULL, 0, sub, sizeof(sub)) : NULL;
  if (!doc->dir) snprintf(sub, sizeof(sub), "%s: out of memory", path);
  if (!doc->root) {
    snprintf(err, errsz, "%s", sub[0] == '!' ? sub + 1 : sub);
    mjx_free(doc);
    return NULL;
  }
  return doc;
}

// parse XML text into a new document; includes resolve against dir
mjXDoc* mjx_parseString(const char* xml, const char* name, const char* dir,
                        char* err, int errsz) {
  mjXDoc* doc = calloc(1, sizeof(mjXDoc));
  if (!doc) {
    snprintf(err, errsz, "%s: out of memory", name);
    return NULL;
  }
  // the directory with a trailing '/' (empty: the current directory)
  char d[PATH_MAX];
  size_t n = dir ? strlen(dir) : 0;
  if (n + 2 > sizeof(d)) n = 0;
  if (n) memcpy(d, dir, n);
  if (n && d[n - 1] != '/') d[n++] = '/';
  d[n] = 0;
  Builder b = {.doc = doc, .dir = d, .err = err, .errsz = errsz};
  b.file = addFile(doc, name && name[0] ? name : "<string>");
  doc->dir = addFile(doc, d);
  if (!b.file || !doc->dir) {
    snprintf(err, errsz, "out of memory");
    mjx_free(doc);
    return NULL;
  }
  doc->root = parseText(&b, xml, strlen(xml));
  if (!doc->root) {
    mjx_free(doc);
    return NULL;
  }
  return doc;
}
