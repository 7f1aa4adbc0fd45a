// mjcat: merge the streams of a sharded run's parts into the stream of the whole run.
//
//   mjcat [-o OUT] [FILE... | -]
//   mjcat --help | --version
//
// The parts are the outputs of mjstep --batch/--random or mjderiv with --shard i/n or
// --range a:b (state streams, man 5 mjt, or Jacobian streams, man 1 mjderiv): each carries a
// range record saying which items of the run it holds.  They come as files, or following one
// another on standard input (as `parallel -k` prints them), in the order of their items.  mjcat
// checks that they are parts of one run (the same header: model, fields, sizes; the same run
// and build fingerprints, item count and frames per item), that their ranges follow one
// another without gap or overlap and cover the whole run, and every frame (marker, length,
// CRC-32C); then it writes the header without the range record and the frames: byte for byte
// the stream that one run writes.  A lone stream of a whole run (no range record) passes
// through, checked.
//
// Exit status: 0 success, 2 usage or data error (a one-line message naming the part; an OUT
// file is not written; a stream on standard output is cut inside a frame, so that readers
// report it truncated).
#include "tool.h"

#include <stdlib.h>
#include <string.h>

static const char usageLines[] =
  "usage: mjcat [-o OUT] [FILE... | -]\n"
  "       mjcat --help | --version\n";

// what --help prints after the usage text
static const char helpText[] =
  "\n"
  "Merge the parts of a sharded run (mjstep or mjderiv with --shard i/n or --range a:b),\n"
  "given as files or one after another on standard input, in the order of their items,\n"
  "into the stream one run writes.  The parts must be of one model, one set of options and\n"
  "one build, and cover the run's items without gap or overlap.\n"
  "options:\n"
  "  -o OUT    the merged stream into OUT (written whole or not at all) instead of stdout\n"
  "  -h, --help, --version\n";

#define HEADER 64

// the stream kinds mjcat merges: their magic and the version written today
static const struct {
  const char* magic;
  uint32_t version;
  const char* what;
} kinds[] = {{"MJSTREAM", 3, "state stream"}, {"MJDERIV1", 2, "Jacobian stream"}};

// a part as read: its header bytes, range and frame length
typedef struct {
  unsigned char header[HEADER];
  int ranged;
  mjStreamRange range;
  size_t frameBytes;     // marker, values and CRC
  char name[300];        // for messages: the input, and the part's place in it
} Part;

// an input: parts one after another; a part's end is seen by reading the next one's first
// bytes, which are put back
typedef struct {
  FILE* f;
  unsigned char back[4];
  size_t nback;
} Input;

// the merge: the output, the first part (the reference), the last one, the next item expected
static struct {
  mjOutFile* out;
  Part first;
  char last[300];
  int nparts;
  long long next;
  unsigned char* frame;  // one frame
} run;

// up to n bytes of the input, the put-back ones first; fewer only at its end (or an error)
static size_t inRead(Input* in, void* buf, size_t n) {
  size_t k = in->nback < n ? in->nback : n;
  memcpy(buf, in->back, k);
  memmove(in->back, in->back + k, in->nback - k);
  in->nback -= k;
  return k + fread((unsigned char*)buf + k, 1, n - k, in->f);
}

// discard an uncommitted output (at exit, also after eprintf); a stream cut short on standard
// output ends inside a frame
static void cleanup(void) {
  if (run.out && !run.out->tmp[0]) fputc('M', run.out->f);
  if (run.out) mj_outClose(run.out, 0, NULL, 0);
  free(run.out);
  free(run.frame);
}

// ---- headers ------------------------------------------------------------------------------------

// a u32 or i32 of the header at offset at
static uint32_t u32At(const unsigned char* b, int at) {
  uint32_t v;
  mj_copyLE(&v, b + at, 4, 1);
  return v;
}

// the numbers of a Jacobian stream's frame (man 1 mjderiv, FORMAT): A nx x nx, B nx x nu,
// C ns x nx, D ns x nu for the blocks present, nx = 2 nv + na
static size_t jacobianValues(const unsigned char* b) {
  size_t nv = u32At(b, 24), na = u32At(b, 28), nu = u32At(b, 32), ns = u32At(b, 36);
  size_t nx = 2 * nv + na, rows[4] = {nx, nx, ns, ns}, cols[4] = {nx, nu, nx, nu}, n = 0;
  uint32_t blocks = u32At(b, 40);
  for (int k = 0; k < 4; k++)
    if (blocks >> k & 1) n += rows[k] * cols[k];
  return n;
}

// header h of a part as the whole run's: the range flag cleared, the CRC-32C recomputed
static void wholeHeader(unsigned char* b, const unsigned char* h) {
  memcpy(b, h, HEADER);
  uint32_t mask = u32At(b, 56) & ~mjSTREAM_RANGED, crc;
  mj_copyLE(b + 56, &mask, 4, 1);
  crc = mj_crc32c(0, b, 60);
  mj_copyLE(b + 60, &crc, 4, 1);
}

// the length of a frame of a state stream, by the library's own reading of the header
static size_t stateFrameBytes(const Part* p) {
  unsigned char b[HEADER];
  wholeHeader(b, p->header);
  FILE* f = fmemopen(b, HEADER, "rb");
  if (!f) eprintf("%s:", p->name);
  mjStreamHeader h;
  char err[512];
  int bad = mj_streamReadHeader(f, p->name, &h, err, sizeof(err));
  fclose(f);
  if (bad) eprintf("%s", err);
  return 8 + 8 * (size_t)h.nvalue;
}

// read the header of the input's next part into p: 1 read, 0 at the end of the input
static int readPart(Input* in, Part* p) {
  size_t got = inRead(in, p->header, HEADER);
  if (ferror(in->f)) eprintf("%s: read error:", p->name);
  if (!got) return 0;
  int k = 0;
  while (k < 2 && memcmp(p->header, kinds[k].magic, got < 8 ? got : 8)) k++;
  if (k == 2) eprintf("%s: not a state or Jacobian stream (bad magic)", p->name);
  if (got < HEADER) eprintf("%s: truncated header (%zu of %d bytes)", p->name, got, HEADER);
  if (u32At(p->header, 60) != mj_crc32c(0, p->header, 60))
    eprintf("%s: corrupt header (bad CRC-32C)", p->name);
  if (u32At(p->header, 8) != kinds[k].version)
    eprintf("%s: %s format version %u; parts are written in version %u", p->name,
            kinds[k].what, (unsigned)u32At(p->header, 8), (unsigned)kinds[k].version);

  // the range record, when the header announces one
  p->ranged = (u32At(p->header, 56) & mjSTREAM_RANGED) != 0;
  if (p->ranged) {
    unsigned char r[mjRANGE_BYTES];
    char err[512];
    got = inRead(in, r, mjRANGE_BYTES);
    if (got < mjRANGE_BYTES) eprintf("%s: truncated range record (%zu of %d bytes)", p->name,
                                     got, mjRANGE_BYTES);
    if (mj_rangeDecode(r, p->name, &p->range, err, sizeof(err))) eprintf("%s", err);
  }
  p->frameBytes = k == 0 ? stateFrameBytes(p) : 8 + 8 * jacobianValues(p->header);
  return 1;
}

// the items a..b-1 in messages
static const char* items(long long a, long long b) {
  static char buf[2][64];
  static int turn;
  char* s = buf[turn ^= 1];
  if (b - a == 1) snprintf(s, 64, "item %lld", a);
  else snprintf(s, 64, "items %lld..%lld", a, b - 1);
  return s;
}

// p belongs after the parts merged so far: the first part's run, and the next items
static void checkPart(const Part* p) {
  const Part* q = &run.first;
  if (run.nparts && (!p->ranged || !q->ranged))
    eprintf("%s: a whole run's stream (no range record) merges with no other part",
            p->ranged ? q->name : p->name);
  if (memcmp(p->header, q->header, 8))
    eprintf("%s: a %s, the first part (%s) a %s", p->name,
            kinds[memcmp(p->header, kinds[0].magic, 8) != 0].what, q->name,
            kinds[memcmp(q->header, kinds[0].magic, 8) != 0].what);
  uint64_t hp, hq;
  mj_copyLE(&hp, p->header + 16, 8, 1);
  mj_copyLE(&hq, q->header + 16, 8, 1);
  if (hp != hq)
    eprintf("%s: a part of another model than %s (model hash %016llx, there %016llx)",
            p->name, q->name, (unsigned long long)hp, (unsigned long long)hq);
  if (memcmp(p->header, q->header, HEADER))
    eprintf("%s: other fields, sizes or options than %s (the headers differ)", p->name,
            q->name);
  if (!p->ranged) return;
  const mjStreamRange *r = &p->range, *s = &q->range;
  if (r->build != s->build)
    eprintf("%s: written by another build than %s (another binary or C library: the numbers "
            "may differ)", p->name, q->name);
  if (r->run != s->run || r->frames != s->frames)
    eprintf("%s: a part of another run than %s (other options or inputs)", p->name, q->name);
  if (r->total != s->total)
    eprintf("%s: a part of a run of %lld items, %s of one of %lld", p->name,
            (long long)r->total, q->name, (long long)s->total);
  if (r->first > run.next)
    eprintf("%s: %s missing before it (the part holds %s)", p->name,
            items(run.next, r->first), items(r->first, r->end));
  if (r->first < run.next && r->end > r->first)
    eprintf("%s: its %s overlap the parts before it (which end at item %lld)", p->name,
            items(r->first, r->end), run.next - 1);
  if (r->first < run.next)
    eprintf("%s: an empty part at item %lld, out of order (the parts before it end at item "
            "%lld)", p->name, (long long)r->first, run.next - 1);
}

// ---- frames -------------------------------------------------------------------------------------

// copy the part's frames to the output, each checked: nframe of them when ranged, else all
// until the next part or the end of the input
static void copyFrames(Input* in, const Part* p, long long nframe) {
  size_t n = p->frameBytes;
  for (long long k = 0;; k++) {
    size_t got = inRead(in, run.frame, 4);
    if (ferror(in->f)) eprintf("%s: read error in frame %lld:", p->name, k);
    if (!got || (got == 4 && memcmp(run.frame, "MJFR", 4))) {
      // the end of the part: the end of the input, or the next part's magic (put back)
      if (p->ranged && k < nframe)
        eprintf("%s: %lld frames, its %s need %lld (truncated)", p->name, k,
                items(p->range.first, p->range.end), nframe);
      memcpy(in->back, run.frame, got);
      in->nback = got;
      return;
    }
    if (p->ranged && k == nframe)
      eprintf("%s: more frames than its %s hold (%lld)", p->name,
              items(p->range.first, p->range.end), nframe);
    if (got == 4) got += inRead(in, run.frame + 4, n - 4);
    if (got < n) eprintf("%s: truncated frame %lld (%zu of %zu bytes)", p->name, k, got, n);
    uint32_t crc;
    mj_copyLE(&crc, run.frame + n - 4, 4, 1);
    if (crc != mj_crc32c(0, run.frame, n - 4))
      eprintf("%s: corrupt frame %lld (bad CRC-32C)", p->name, k);
    if (fwrite(run.frame, 1, n, run.out->f) != n) eprintf("%s: write error:", run.out->path);
  }
}

// the header of the whole run: the first part's, without the range record
static void writeHeader(void) {
  unsigned char b[HEADER];
  wholeHeader(b, run.first.header);
  if (fwrite(b, 1, HEADER, run.out->f) != HEADER) eprintf("%s: write error:", run.out->path);
}

// every part of input `path` in turn
static void mergeInput(const char* path) {
  Input in = {strcmp(path, "-") ? fopen(path, "rb") : stdin, {0}, 0};
  if (!in.f) eprintf("%s:", path);
  const char* name = strcmp(path, "-") ? path : "<stdin>";
  Part p = {0};  // zeroed: a whole run's part leaves its range unset
  for (int j = 0;; j++) {
    if (j) snprintf(p.name, sizeof(p.name), "%s (part %d of the input)", name, j + 1);
    else snprintf(p.name, sizeof(p.name), "%s", name);
    if (!readPart(&in, &p)) {
      if (!j) eprintf("%s: empty input (no stream)", p.name);
      break;
    }

    // checked against the parts before it, then its frames out
    if (!run.nparts) {
      run.first = p;
      run.frame = emalloc(p.frameBytes);
      writeHeader();
    }
    checkPart(&p);
    run.nparts++;
    snprintf(run.last, sizeof(run.last), "%s", p.name);
    copyFrames(&in, &p, p.ranged ? (p.range.end - p.range.first) * p.range.frames : 0);
    if (p.ranged) run.next = p.range.end;
  }
  if (in.f != stdin) fclose(in.f);
}

int main(int argc, char** argv) {
  tool_init("mjcat", usageLines);
  atexit(cleanup);
  const char* out = "-";
  const char** in = emalloc(sizeof(char*) * (size_t)argc);
  int nin = 0;
  for (int i = 1; i < argc; i++) {
    const char* s = argv[i];
    if (!strcmp(s, "-h") || !strcmp(s, "--help")) help(helpText);
    else if (!strcmp(s, "--version")) version();
    else if (!strcmp(s, "-o") && i + 1 < argc) out = argv[++i];
    else if (s[0] == '-' && s[1]) usageError("unknown option or missing value: %s", s);
    else in[nin++] = s;
  }
  if (!nin) in[nin++] = "-";
  for (int i = 0, stdinSeen = 0; i < nin; i++)
    if (!strcmp(in[i], "-") && stdinSeen++) usageError("standard input given twice");

  // the output, then every input's parts in order, then the coverage of the run
  run.out = tool_outOpen(out);
  for (int i = 0; i < nin; i++) mergeInput(in[i]);
  free(in);
  if (run.first.ranged && run.next < run.first.range.total)
    eprintf("%s missing after the last part (%s), of a run of %lld",
            items(run.next, run.first.range.total), run.last, (long long)run.first.range.total);

  tool_outCommit(&run.out);
  return EXIT_OK;
}
