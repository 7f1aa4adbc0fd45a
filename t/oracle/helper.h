// helper.h: what the small C helpers of the oracle tests share (each includes it once): the
// model named on the command line with its option overrides.
#ifndef ORACLE_HELPER_H
#define ORACLE_HELPER_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mj.h"

// the model of `name MODEL [--set NAME=VALUE | --disable FLAG | --enable FLAG]... < input`,
// overrides applied; on a usage or model error a message on stderr and exit status 2
static mjModel* helperModel(const char* name, const char* input, int argc, char** argv) {
  char err[1024];
  if (argc < 2) {
    fprintf(stderr, "usage: %s MODEL [--set NAME=VALUE | --disable F | --enable F]... < %s\n",
            name, input);
    exit(2);
  }
  mjModel* m = mj_loadAny(argv[1], err, sizeof(err));
  if (!m) {
    fprintf(stderr, "%s: %s\n", name, err);
    exit(2);
  }
  for (int i = 2; i < argc; i += 2) {
    int r = i + 1 >= argc ? (snprintf(err, sizeof(err), "%s needs a value", argv[i]), -1)
            : !strcmp(argv[i], "--set")
                ? mj_setOptionString(m, argv[i + 1], err, sizeof(err))
                : mj_setFlag(m, argv[i + 1], !strcmp(argv[i], "--enable"), err, sizeof(err));
    if (r) {
      fprintf(stderr, "%s: %s\n", name, err);
      exit(2);
    }
  }
  return m;
}

#endif
