// compile.h: the MJCF compiler: an element tree (xml.h) into a model (mj.h).
//
// mj_loadXML and mj_parseXMLString (declared in mj.h) parse with xml.c and compile with
// mj_compileTree.  Compilation follows MuJoCo's XML reference: default classes, the body tree
// walk, then every model array; mj_setConst fills the quantities that need the model in qpos0,
// and <statistic> values given in the file override the computed statistics.
#ifndef MJ_COMPILE_H
#define MJ_COMPILE_H

#include "mj.h"
#include "compiler/xml.h"

// compile the tree rooted at `root` (a <mujoco> element) whose asset files resolve against
// directory `dir` (with a trailing '/', or ""); NULL and "file:line: ..." in err
mjModel* mj_compileTree(const mjXNode* root, const char* dir, char* err, int errsz);

#endif
