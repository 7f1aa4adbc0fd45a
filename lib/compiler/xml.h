// xml.h: MJCF files as element trees (expat), with <include> resolved.
//
// mjx_parseFile and mjx_parseString read XML into a tree of mjXNode: element name, attributes
// in document order, the file and line each element came from, and children.  Every
// <include file="F"/> element is replaced, in place, by the children of the root element of F
// (a path relative to the directory of the including file); include cycles and missing files
// are errors.  On failure both return NULL and write "file:line: problem" into err.
#ifndef MJ_XML_H
#define MJ_XML_H

#include <stdint.h>

typedef struct mjXNode_ mjXNode;
struct mjXNode_ {
  char* name;         // element name
  const char* file;   // file the element was read from (owned by the document)
  int line;           // line of the element's start tag
  int nattr;          // number of attributes (at most 64)
  char** attr;        // 2*nattr strings: name, value, name, value, ...
  uint64_t used;      // bit i set: attribute i was consumed (the compiler's bookkeeping)
  int nchild;         // number of child elements
  mjXNode** child;    // child elements in document order
};

typedef struct mjXDoc_ mjXDoc;
struct mjXDoc_ {
  mjXNode* root;      // the root element (<mujoco>)
  int nfile;          // number of file names held
  char** files;       // every file name read, for the nodes' `file` pointers
  const char* dir;    // the model's directory with a trailing '/' ("" for the current one):
                      // asset files resolve against it
};

// parse the file `path`; NULL and a message in err on failure
mjXDoc* mjx_parseFile(const char* path, char* err, int errsz);

// parse `xml` held in memory, called `name` in messages; includes resolve relative to `dir`
mjXDoc* mjx_parseString(const char* xml, const char* name, const char* dir,
                        char* err, int errsz);

// free a document (NULL is fine)
void mjx_free(mjXDoc* doc);

// a new element `name` said to come from file:line (file: a string that outlives the node);
// NULL when out of memory
mjXNode* mjx_newNode(const char* name, const char* file, int line);

// append attribute name="value" (copied) to e; 0 when out of memory or e has 64 already
int mjx_addAttr(mjXNode* e, const char* name, const char* value);

// append child c to e (which then owns it); 0 when out of memory
int mjx_addChild(mjXNode* e, mjXNode* c);

// a deep copy of e and its subtree; NULL when out of memory
mjXNode* mjx_copyNode(const mjXNode* e);

// free e and its subtree (NULL is fine)
void mjx_freeNode(mjXNode* e);

// value of attribute `name` of e, or NULL; does not mark it used
const char* mjx_attr(const mjXNode* e, const char* name);

#endif
