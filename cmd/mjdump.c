// mjdump: state streams to text or NumPy arrays, and text back to a state stream.
//
//   mjdump [--csv | --tsv] [--fields LIST] [-o OUT] [STREAM | -]
//   mjdump --npy DIR [--fields LIST] [STREAM | -]
//   mjdump --from-csv MODEL [-o OUT] [FILE | -]
//   mjdump --help | --version
//
// Text: a header row of element names (time,qpos[0],qpos[1],...), then one row per frame,
// every number printed with %.17g so that it reads back exactly.  --npy writes one NumPy file
// (format 1.0, '<f8', shape (frames, elements)) per field into DIR, created when missing.
// --from-csv reads such a CSV or TSV (a tab in the header row selects TSV): the header row
// names the fields present, each complete, in any order; the result is a stream bound to MODEL.
// stream -> CSV -> stream gives back the same bytes.
//
// Outputs are written atomically: no partial file is left behind on failure.  "-" is stdin
// or stdout.  Exit status: 0 success, 2 usage or data error.
#include "tool.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usageLines[] =
  "usage: mjdump [--csv | --tsv] [--fields LIST] [-o OUT] [STREAM | -]\n"
  "       mjdump --npy DIR [--fields LIST] [STREAM | -]\n"
  "       mjdump --from-csv MODEL [-o OUT] [FILE | -]\n"
  "       mjdump --help | --version\n";

// what --help prints after the usage text
static const char helpText[] =
  "\n"
  "Print a state stream (.mjt) as CSV/TSV or NumPy arrays, or make a stream from CSV.\n"
  "options:\n"
  "  --csv            comma-separated text (the default)\n"
  "  --tsv            tab-separated text\n"
  "  --npy DIR        one DIR/FIELD.npy per field, float64, shape (frames, elements)\n"
  "  --fields LIST    only these fields (names, or state, input, output, all)\n"
  "  --from-csv MODEL read CSV/TSV and write a state stream bound to MODEL\n"
  "  -o OUT           output file instead of standard output\n"
  "  -h, --help, --version\n";

// ---- outputs that vanish on failure -----------------------------------------------------------

static mjOutFile* pending[mjNSTREAMFIELD];  // outputs to discard if the tool exits early
static int npending;
static const char* createdDir;  // the --npy directory when this run created it

// discard every output still pending, and a directory made for them (eprintf's exit runs this)
static void discardPending(void) {
  for (int i = 0; i < npending; i++)
    if (pending[i]) mj_outClose(pending[i], 0, NULL, 0);
  if (createdDir) rmdir(createdDir);
}

// open an output and register it for discarding
static mjOutFile* openOut(const char* path) {
  mjOutFile* o = tool_outOpen(path);
  pending[npending++] = o;
  return o;
}

// commit every pending output, in order
static void commitAll(void) {
  for (int i = 0; i < npending; i++) tool_outCommit(&pending[i]);
  npending = 0;
}

// a write error on output o ends the tool
static void checkOut(const mjOutFile* o) {
  if (!ferror(o->f)) return;
  if (!strcmp(o->path, "-")) efflush();
  eprintf("%s: write error:", o->path);
}

// ---- heap blocks -------------------------------------------------------------------------------

// the heap blocks of the running command, at file scope and freed at exit, also after an error
// exit (eprintf): the leak checker of SAN=1 builds then finds nothing lost
static struct {
  mjModel* model;   // --from-csv
  mjtNum* values;   // one frame
  char* line;       // a text line
  char** cell;      // its cells
  int ncol;         // the header row: number of columns, name, field and index of each
  char** colName;
  int* colField;
  int* colIndex;
  int* column;      // the column of each value of a frame
} heap;

// free the heap blocks (at exit)
static void freeHeap(void) {
  for (int c = 0; heap.colName && c < heap.ncol; c++) free(heap.colName[c]);
  free(heap.colName), free(heap.colField), free(heap.colIndex), free(heap.column);
  free(heap.values), free(heap.line), free(heap.cell);
  mj_deleteModel(heap.model);
}

// ---- stream to text and arrays ---------------------------------------------------------------

// a stream file or stdin with its header read
static FILE* openStream(const char* path, mjStreamHeader* h) {
  FILE* f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
  if (!f) eprintf("%s:", path);
  char err[512];
  if (mj_streamReadHeader(f, path, h, err, sizeof(err))) eprintf("%s", err);
  return f;
}

// the fields to print: the stream's, narrowed by --fields (each must be in the stream)
static uint32_t selectFields(const mjStreamHeader* h, const char* fields, const char* path) {
  if (!fields) return h->mask;
  uint32_t want;
  char err[256];
  if (mj_streamParseFields(fields, &want, err, sizeof(err))) eprintf("%s", err);
  // names must be present; groups take what the stream has
  for (const char* p = fields; *p;) {
    size_t n = strcspn(p, ",");
    char name[64];
    snprintf(name, sizeof(name), "%.*s", (int)(n < 63 ? n : 63), p);
    int f = mj_streamFieldFind(name);
    if (f >= 0 && !(h->mask >> f & 1)) eprintf("%s: the stream has no field %s", path, name);
    p += n + (p[n] == ',');
  }
  return want & h->mask;
}

// CSV or TSV: header row, then one row per frame
static void dumpText(const char* path, const char* fields, char sep, const char* out) {
  mjStreamHeader h;
  FILE* f = openStream(path, &h);
  uint32_t mask = selectFields(&h, fields, path);
  mjOutFile* o = openOut(out);

  // the header row
  int first = 1;
  for (int g = 0; g < mjNSTREAMFIELD; g++) {
    if (!(mask >> g & 1)) continue;
    for (int i = 0, n = mj_streamFieldSize(&h, g); i < n; i++) {
      char name[64];
      mj_streamElementName(NULL, g, i, 0, name, sizeof(name));
      if (!first) fputc(sep, o->f);
      fputs(name, o->f);
      first = 0;
    }
  }
  fputc('\n', o->f);

  // the rows
  mjtNum* v = heap.values = emalloc(sizeof(mjtNum) * (size_t)(h.nvalue + 1));
  char err[512];
  int r;
  while ((r = mj_streamReadValues(f, &h, v, err, sizeof(err))) == 1) {
    first = 1;
    for (int g = 0; g < mjNSTREAMFIELD; g++) {
      if (!(mask >> g & 1)) continue;
      const mjtNum* x = v + mj_streamFieldOffset(&h, g);
      for (int i = 0, n = mj_streamFieldSize(&h, g); i < n; i++) {
        if (!first) fputc(sep, o->f);
        fprintf(o->f, "%.17g", x[i]);
        first = 0;
      }
    }
    fputc('\n', o->f);
    checkOut(o);
  }
  if (r < 0) eprintf("%s", err);
  if (f != stdin) fclose(f);
  checkOut(o);
  commitAll();
}

// the 128-byte NumPy 1.0 header of a float64 (rows x cols) C-order array
static void npyHeader(FILE* f, long rows, int cols) {
  char dict[118];
  int n = snprintf(dict, sizeof(dict), "{'descr': '<f8', 'fortran_order': False, "
                   "'shape': (%ld, %d), }", rows, cols);
  memset(dict + n, ' ', sizeof(dict) - (size_t)n);
  dict[sizeof(dict) - 1] = '\n';
  fwrite("\x93NUMPY\x01\x00", 1, 8, f);
  const unsigned char len[2] = {sizeof(dict) & 0xff, sizeof(dict) >> 8};
  fwrite(len, 1, 2, f);
  fwrite(dict, 1, sizeof(dict), f);
}

// one float64, little-endian
static void putF64(FILE* f, double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  unsigned char b[8];
  for (int i = 0; i < 8; i++) b[i] = (unsigned char)(u >> (8 * i));
  fwrite(b, 1, 8, f);
}

// DIR/FIELD.npy per field: rows appended as frames arrive, the header rewritten at the end
static void dumpNpy(const char* path, const char* fields, const char* dir) {
  mjStreamHeader h;
  FILE* f = openStream(path, &h);
  uint32_t mask = selectFields(&h, fields, path);
  if (!mkdir(dir, 0777)) createdDir = dir;
  else if (errno != EEXIST) eprintf("%s:", dir);

  // one output per field, its header a placeholder until the frame count is known
  mjOutFile* o[mjNSTREAMFIELD] = {NULL};
  for (int g = 0; g < mjNSTREAMFIELD; g++) {
    if (!(mask >> g & 1)) continue;
    char p[4096];
    snprintf(p, sizeof(p), "%s/%s.npy", dir, mj_streamFieldName(g));
    o[g] = openOut(p);
    npyHeader(o[g]->f, 0, mj_streamFieldSize(&h, g));
  }

  // the rows
  mjtNum* v = heap.values = emalloc(sizeof(mjtNum) * (size_t)(h.nvalue + 1));
  char err[512];
  int r;
  while ((r = mj_streamReadValues(f, &h, v, err, sizeof(err))) == 1) {
    for (int g = 0; g < mjNSTREAMFIELD; g++) {
      if (!o[g]) continue;
      const mjtNum* x = v + mj_streamFieldOffset(&h, g);
      for (int i = 0, n = mj_streamFieldSize(&h, g); i < n; i++) putF64(o[g]->f, x[i]);
    }
  }
  if (r < 0) eprintf("%s", err);

  // the final shapes
  for (int g = 0; g < mjNSTREAMFIELD; g++) {
    if (!o[g]) continue;
    if (fseek(o[g]->f, 0, SEEK_SET)) eprintf("%s:", o[g]->path);
    npyHeader(o[g]->f, h.frame, mj_streamFieldSize(&h, g));
    checkOut(o[g]);
  }
  if (f != stdin) fclose(f);
  commitAll();
  createdDir = NULL;
}

// ---- text to stream ----------------------------------------------------------------------------

// the number of cells of line: one more than its separators (cells are never quoted)
static int countCells(const char* line, char sep) {
  int n = 1;
  for (const char* p = line; *p; p++) n += *p == sep;
  return n;
}

// split line (modified in place) at sep into its cells; the number of cells, at most max stored
static int splitCells(char* line, char sep, char** cell, int max) {
  int n = 0;
  for (char* p = line;; p++) {
    if (n < max) cell[n] = p;
    n++;
    p = strchr(p, sep);
    if (!p) return n;
    *p = 0;
  }
}

// read a CSV/TSV with a header row and write a stream bound to the model
static void fromCsv(const char* modelPath, const char* path, const char* out) {
  mjModel* m = heap.model = eloadmodel(modelPath);
  const char* name = strcmp(path, "-") ? path : "<stdin>";
  FILE* f = strcmp(path, "-") ? fopen(path, "r") : stdin;
  if (!f) eprintf("%s:", path);

  // the header row: delimiter, columns, fields
  size_t cap = 0;
  ssize_t len = getline(&heap.line, &cap, f);
  char* line = heap.line;
  if (len <= 0) eprintf("%s: empty input (no header row)", name);
  line[strcspn(line, "\r\n")] = 0;
  char sep = strchr(line, '\t') ? '\t' : ',';
  int ncol = heap.ncol = countCells(line, sep);
  char** cell = heap.cell = emalloc(sizeof(char*) * (size_t)ncol);
  char** colName = heap.colName = calloc((size_t)ncol, sizeof(char*));
  if (!colName) eprintf("out of memory");
  int* colField = heap.colField = emalloc(sizeof(int) * (size_t)ncol);
  int* colIndex = heap.colIndex = emalloc(sizeof(int) * (size_t)ncol);
  splitCells(line, sep, cell, ncol);
  mjStreamHeader sizes;
  mj_streamInit(&sizes, m, mjSTREAM_ALL, "-");
  uint32_t mask = 0;
  for (int c = 0; c < ncol; c++) {
    colName[c] = strdup(cell[c]);
    if (mj_streamParseElement(cell[c], &colField[c], &colIndex[c]))
      eprintf("%s:1: column %d: unknown column '%s'", name, c + 1, cell[c]);
    int n = mj_streamFieldSize(&sizes, colField[c]);
    if (colIndex[c] >= n)
      eprintf("%s:1: column %d: '%s' is out of range: %s has %d elements for this model", name,
              c + 1, cell[c], mj_streamFieldName(colField[c]), n);
    mask |= 1u << colField[c];
  }

  // every present field complete, no element twice
  mjStreamHeader h;
  mj_streamInit(&h, m, mask, out);
  int* column = heap.column = emalloc(sizeof(int) * (size_t)(h.nvalue + 1));
  for (int i = 0; i < h.nvalue; i++) column[i] = -1;
  for (int c = 0; c < ncol; c++) {
    int at = mj_streamFieldOffset(&h, colField[c]) + colIndex[c];
    if (column[at] >= 0) eprintf("%s:1: column %d: duplicate column '%s'", name, c + 1, cell[c]);
    column[at] = c;
  }
  for (int g = 0; g < mjNSTREAMFIELD; g++) {
    if (!(mask >> g & 1)) continue;
    for (int i = 0, n = mj_streamFieldSize(&h, g); i < n; i++) {
      if (column[mj_streamFieldOffset(&h, g) + i] >= 0) continue;
      char el[64];
      mj_streamElementName(NULL, g, i, 0, el, sizeof(el));
      eprintf("%s:1: %s given partially: column %s is missing", name, mj_streamFieldName(g), el);
    }
  }

  // the stream: header, then one frame per row
  mjOutFile* o = openOut(out);
  char err[512];
  if (mj_streamWriteHeader(o->f, &h, err, sizeof(err))) eprintf("%s", err);
  mjtNum* v = heap.values = emalloc(sizeof(mjtNum) * (size_t)(h.nvalue + 1));
  long lineno = 1;
  while ((len = getline(&heap.line, &cap, f)) > 0) {
    line = heap.line;
    lineno++;
    line[strcspn(line, "\r\n")] = 0;
    if (!line[0]) continue;
    int n = splitCells(line, sep, cell, ncol);
    if (n != ncol)
      eprintf("%s:%ld: %d columns, the header row has %d", name, lineno, n, ncol);
    for (int i = 0; i < h.nvalue; i++) {
      int c = column[i];
      char* end;
      errno = 0;
      double x = strtod(cell[c], &end);
      if (!cell[c][0] || *end || (errno == ERANGE && isinf(x)))
        eprintf("%s:%ld: column %d (%s): bad number '%s'", name, lineno, c + 1, colName[c],
                cell[c]);
      v[i] = x;
    }
    if (mj_streamWriteValues(o->f, &h, v)) checkOut(o);
  }
  if (ferror(f)) eprintf("%s: read error:", name);
  if (f != stdin) fclose(f);
  checkOut(o);
  commitAll();
}

// ---- main --------------------------------------------------------------------------------------

int main(int argc, char** argv) {
  tool_init("mjdump", usageLines);
  atexit(freeHeap);
  atexit(discardPending);
  const char *in = NULL, *out = "-", *fields = NULL, *npy = NULL, *model = NULL;
  char sep = ',';
  for (int i = 1; i < argc; i++) {
    const char* s = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(s, "-h") || !strcmp(s, "--help")) help(helpText);
    else if (!strcmp(s, "--version")) version();
    else if (!strcmp(s, "--csv")) sep = ',';
    else if (!strcmp(s, "--tsv")) sep = '\t';
    else if (!strcmp(s, "--npy") && more) npy = argv[++i];
    else if (!strcmp(s, "--fields") && more) fields = argv[++i];
    else if (!strcmp(s, "--from-csv") && more) model = argv[++i];
    else if (!strcmp(s, "-o") && more) out = argv[++i];
    else if (s[0] == '-' && s[1]) {
      weprintf("unknown option or missing value: %s", s);
      usage();
    } else if (!in) in = s;
    else usage();
  }
  if (!in) in = "-";
  if (npy && model) eprintf("--npy and --from-csv exclude each other");
  if (npy && strcmp(out, "-")) eprintf("-o does not apply to --npy (the files go into DIR)");
  if (model && fields) eprintf("--fields does not apply to --from-csv (the header row selects)");

  if (model) fromCsv(model, in, out);
  else if (npy) dumpNpy(in, fields, npy);
  else dumpText(in, fields, sep, out);
  efflush();
  return EXIT_OK;
}
