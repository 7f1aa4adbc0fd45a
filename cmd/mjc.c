// mjc: compile MJCF models and URDF robots to binary model files and describe models.
//
//   mjc compile IN.xml [-o OUT.mjb]   compile IN (.xml or .urdf); OUT defaults to IN with .mjb
//                                     ("-": stdout)
//   mjc info MODEL [--json]           summary of MODEL (.xml, .urdf or .mjb); --json: every field
//   mjc --help | --version
//
// Exit status: 0 success, 2 usage or data error (message "mjc: file:line: ..." on stderr).
// The output file is written atomically: on failure no partial file is left behind.
#include "tool.h"

#include <stdlib.h>
#include <string.h>

static const char usageLines[] =
  "usage: mjc compile IN.xml|IN.urdf [-o OUT.mjb]\n"
  "       mjc info MODEL [--json]\n"
  "       mjc --help | --version\n";

// what --help prints after the usage text
static const char helpText[] =
  "\n"
  "commands:\n"
  "  compile   compile an MJCF file or a URDF robot into a binary model file\n"
  "  info      print a summary of a model (.xml and .urdf compile, anything else loads as\n"
  "            binary); --json prints every field of the compiled model as JSON\n"
  "options:\n"
  "  -o OUT    output file of compile; - writes to standard output\n"
  "  --json    JSON listing instead of the summary\n"
  "  -h, --help, --version\n";

// IN with its .xml or .urdf extension replaced by .mjb (appended when IN has neither)
static char* defaultOutput(const char* in) {
  size_t n = strlen(in);
  if (mj_isSource(in)) n = strrchr(in, '.') - in;
  char* out = emalloc(n + 5);
  memcpy(out, in, n);
  memcpy(out + n, ".mjb", 5);
  return out;
}

// mjc compile: parse arguments, compile, save atomically
static int cmdCompile(int argc, char** argv) {
  const char* in = NULL;
  const char* out = NULL;
  // arguments: one input and an optional -o OUT, in any order
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "-o")) {
      if (i + 1 >= argc) usageError("option -o needs an argument");
      if (out) usageError("option -o given twice");
      out = argv[++i];
    } else if (argv[i][0] == '-' && argv[i][1]) {
      usageError("compile: unknown option '%s'", argv[i]);
    } else if (in) {
      usageError("compile: unexpected argument '%s'", argv[i]);
    } else {
      in = argv[i];
    }
  }
  if (!in) usageError("compile: missing input file");

  // compile, then write; the library's messages already name the file and line
  char err[1024] = "";
  mjModel* m = mj_loadXML(in, err, sizeof(err));
  if (!m) eprintf("%s", err);
  char* path = out ? NULL : defaultOutput(in);
  int rc = mj_saveModel(m, out ? out : path, err, sizeof(err));
  mj_deleteModel(m);
  free(path);
  if (rc) eprintf("%s", err);
  efflush();
  return EXIT_OK;
}

// mjc info: parse arguments, load, print the summary or the JSON listing
static int cmdInfo(int argc, char** argv) {
  const char* in = NULL;
  int json = 0;
  // arguments: one model and an optional --json
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--json")) json = 1;
    else if (argv[i][0] == '-' && argv[i][1]) usageError("info: unknown option '%s'", argv[i]);
    else if (in) usageError("info: unexpected argument '%s'", argv[i]);
    else in = argv[i];
  }
  if (!in) usageError("info: missing model file");

  // load either kind, list, check that stdout took it
  mjModel* m = eloadmodel(in);
  if (json) mj_printModelJSON(m, stdout);
  else mj_printModelSummary(m, stdout);
  mj_deleteModel(m);
  efflush();
  return EXIT_OK;
}

// dispatch on the command word
int main(int argc, char** argv) {
  tool_init("mjc", usageLines);
  if (argc < 2) usage();
  const char* cmd = argv[1];
  if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) help(helpText);
  if (!strcmp(cmd, "--version")) version();
  if (!strcmp(cmd, "compile")) return cmdCompile(argc - 2, argv + 2);
  if (!strcmp(cmd, "info")) return cmdInfo(argc - 2, argv + 2);
  usageError("unknown command '%s'", cmd);
}
