// stream.c tests: state stream header and frame layout, round trips through files and pipes,
// field lists and element names, and the reader's rejection of damaged streams.
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "bytes.h"
#include "io/io.h"
#include "mj.h"

// ---- fixtures --------------------------------------------------------------------------------

// set names[adr...] and the address of one object
static void addName(mjModel* m, int* adr, int* at, const char* name) {
  *adr = *at;
  strcpy(m->names + *at, name);
  *at += (int)strlen(name) + 1;
}

// a floating torso with an elbow hinge and a rail slider, a mocap target, two actuators (one
// with an activation), two sensors (3 and 2 numbers), two equality constraints
static mjModel* testModel(void) {
  mjModel s;
  memset(&s, 0, sizeof(s));
  s.nq = 9, s.nv = 8, s.na = 1, s.nu = 2, s.nbody = 5, s.njnt = 3, s.nmocap = 1, s.neq = 2;
  s.nsensor = 2, s.nsensordata = 5, s.nnames = 128;
  mjModel* m = mj_makeModel(&s);
  cr_assert_not_null(m);
  // joints: free (qpos 0-6, dofs 0-5), hinge (qpos 7, dof 6), slide (qpos 8, dof 7)
  const int type[3] = {mjJNT_FREE, mjJNT_HINGE, mjJNT_SLIDE}, qadr[3] = {0, 7, 8};
  const int dadr[3] = {0, 6, 7};
  for (int j = 0; j < 3; j++) {
    m->jnt_type[j] = type[j], m->jnt_qposadr[j] = qadr[j], m->jnt_dofadr[j] = dadr[j];
    m->jnt_bodyid[j] = j + 1;
  }
  for (int i = 0; i < 8; i++) m->dof_jntid[i] = i < 6 ? 0 : i - 5;
  for (int b = 0; b < 5; b++) m->body_mocapid[b] = b == 4 ? 0 : -1;
  m->body_pos[3 * 4 + 2] = 1.5;
  m->body_quat[4 * 4] = 1;
  m->actuator_actadr[0] = -1, m->actuator_actnum[0] = 0;
  m->actuator_actadr[1] = 0, m->actuator_actnum[1] = 1;
  m->sensor_adr[0] = 0, m->sensor_dim[0] = 3, m->sensor_adr[1] = 3, m->sensor_dim[1] = 2;
  m->eq_active0[0] = 1;
  int at = 0;
  const char* bodies[5] = {"world", "torso", "arm", "slider", "target"};
  for (int b = 0; b < 5; b++) addName(m, &m->name_bodyadr[b], &at, bodies[b]);
  const char* joints[3] = {"root", "elbow", "rail"};
  for (int j = 0; j < 3; j++) addName(m, &m->name_jntadr[j], &at, joints[j]);
  addName(m, &m->name_actuatoradr[0], &at, "motor");
  addName(m, &m->name_actuatoradr[1], &at, "muscle");
  addName(m, &m->name_sensoradr[0], &at, "acc");
  addName(m, &m->name_sensoradr[1], &at, "pos2");
  addName(m, &m->name_eqadr[0], &at, "weld");
  addName(m, &m->name_eqadr[1], &at, "");
  return m;
}

// numbers per frame of every field, counted by hand from the sizes of testModel:
// time 1, qpos 9, qvel 8, act 1, warmstart 8, ctrl 2, qfrc_applied 8, xfrc_applied 30,
// mocap_pos 3, mocap_quat 4, eq_active 2, qacc 8, sensordata 5, qfrc_inverse 8,
// qfrc_constraint 8, actuator_force 2, energy 2, ncon 1, nefc 1, warning 8
#define NALL 119

// every streamed field of d set to values that depend on the frame k
static void fillData(const mjModel* m, mjData* d, int k) {
  d->time = 0.002 * k + 1e-17;
  for (int i = 0; i < m->nq; i++) d->qpos[i] = sin(k + i) / 3;
  for (int i = 0; i < m->nv; i++) {
    d->qvel[i] = -i * 0.1 - k, d->qacc_warmstart[i] = 1.0 / (i + k + 3);
    d->qfrc_applied[i] = i * k, d->qacc[i] = exp(i - k), d->qfrc_inverse[i] = -1e-300 * i;
    d->qfrc_constraint[i] = 1e300 * k;
  }
  d->act[0] = 0.25 + k;
  for (int i = 0; i < m->nu; i++) d->ctrl[i] = i - 0.5 * k, d->actuator_force[i] = 7.0 * i / 3;
  for (int i = 0; i < 6 * m->nbody; i++) d->xfrc_applied[i] = i + 0.125 * k;
  for (int i = 0; i < 3; i++) d->mocap_pos[i] = i * 1.1 + k;
  for (int i = 0; i < 4; i++) d->mocap_quat[i] = 0.5 + i * 0.01 * k;
  d->eq_active[0] = (unsigned char)(k & 1), d->eq_active[1] = 1;
  for (int i = 0; i < m->nsensordata; i++) d->sensordata[i] = i * 0.3 - k;
  d->energy[0] = 9.81 * k, d->energy[1] = 0.5 * k * k;
  d->ncon = k + 2, d->nefc = 3 * k;
  for (int w = 0; w < mjNWARNING; w++) d->warning[w].number = w * k;
}

// 1 when every streamed field of a and b is equal, bit for bit for the numbers
static int sameStreamed(const mjModel* m, const mjData* a, const mjData* b) {
  size_t nv = sizeof(mjtNum) * m->nv;
  int same = !memcmp(&a->time, &b->time, sizeof(mjtNum));
  same &= !memcmp(a->qpos, b->qpos, sizeof(mjtNum) * m->nq) && !memcmp(a->qvel, b->qvel, nv);
  same &= !memcmp(a->qacc_warmstart, b->qacc_warmstart, nv) && !memcmp(a->qacc, b->qacc, nv);
  same &= !memcmp(a->qfrc_applied, b->qfrc_applied, nv);
  same &= !memcmp(a->qfrc_inverse, b->qfrc_inverse, nv);
  same &= !memcmp(a->qfrc_constraint, b->qfrc_constraint, nv);
  same &= a->act[0] == b->act[0] && !memcmp(a->ctrl, b->ctrl, sizeof(mjtNum) * m->nu);
  same &= !memcmp(a->actuator_force, b->actuator_force, sizeof(mjtNum) * m->nu);
  same &= !memcmp(a->xfrc_applied, b->xfrc_applied, sizeof(mjtNum) * 6 * m->nbody);
  same &= !memcmp(a->mocap_pos, b->mocap_pos, sizeof(mjtNum) * 3);
  same &= !memcmp(a->mocap_quat, b->mocap_quat, sizeof(mjtNum) * 4);
  same &= !memcmp(a->eq_active, b->eq_active, 2);
  same &= !memcmp(a->sensordata, b->sensordata, sizeof(mjtNum) * m->nsensordata);
  same &= !memcmp(a->energy, b->energy, sizeof(a->energy));
  same &= a->ncon == b->ncon && a->nefc == b->nefc;
  for (int w = 0; w < mjNWARNING; w++) same &= a->warning[w].number == b->warning[w].number;
  return same;
}

// a stream of nframe frames of m with mask in a new memory buffer of *n bytes
static unsigned char* writeStream(const mjModel* m, uint32_t mask, int nframe, size_t* n) {
  char* buf = NULL;
  FILE* f = open_memstream(&buf, n);
  mjStreamHeader h;
  mj_streamInit(&h, m, mask, "mem");
  char err[256] = "";
  cr_assert_eq(mj_streamWriteHeader(f, &h, err, sizeof(err)), 0, "%s", err);
  mjData* d = mj_makeData(m);
  for (int k = 0; k < nframe; k++) {
    fillData(m, d, k);
    cr_assert_eq(mj_streamWriteFrame(f, &h, d), 0);
  }
  mj_deleteData(d);
  fclose(f);
  return (unsigned char*)buf;
}

// recompute the header CRC after a deliberate change
static void fixHeaderCrc(unsigned char* b) { put32(b + 60, crc32cRef(b, 60)); }

// read the header of n bytes at b; -1 and the message in err on failure
static int readHeader(const unsigned char* b, size_t n, mjStreamHeader* h, char* err) {
  FILE* f = fmemopen((void*)b, n ? n : 1, "rb");
  if (!n) fgetc(f);  // fmemopen cannot open an empty buffer: start at its end
  int r = mj_streamReadHeader(f, "s.mjt", h, err, 256);
  fclose(f);
  return r;
}

// read the header and every frame: the index of the first failing frame's message in err,
// the frame count on success (with ok set)
static long readAll(const unsigned char* b, size_t n, const mjModel* m, char* err, int* ok) {
  FILE* f = fmemopen((void*)b, n, "rb");
  mjStreamHeader h;
  *ok = 0;
  err[0] = 0;
  if (mj_streamReadHeader(f, "s.mjt", &h, err, 256)) {
    fclose(f);
    return -1;
  }
  mjData* d = mj_makeData(m);
  int r;
  while ((r = mj_streamReadFrame(f, &h, m, d, err, 256)) == 1) continue;
  *ok = r == 0;
  mj_deleteData(d);
  fclose(f);
  return h.frame;
}

// the size of a frame with all fields
#define FRAME (8 + 8 * NALL)

// ---- layout and round trips -------------------------------------------------------------------

Test(stream, header_byte_layout) {
  mjModel* m = testModel();
  size_t n;
  unsigned char* b = writeStream(m, mjSTREAM_ALL, 0, &n);
  cr_assert_eq(n, 64);
  cr_assert(!memcmp(b, "MJSTREAM", 8));
  cr_assert_eq(le32(b + 8), 3);
  cr_assert(!memcmp(b + 12, "\x04\x03\x02\x01", 4));
  cr_assert_eq(le64(b + 16), mj_modelHash(m));
  const int sizes[8] = {9, 8, 1, 2, 5, 1, 2, 5};  // nq nv na nu nbody nmocap neq nsensordata
  for (int i = 0; i < 8; i++) cr_assert_eq((int)le32(b + 24 + 4 * i), sizes[i]);
  cr_assert_eq(le32(b + 56), (1u << 20) - 1);
  cr_assert_eq(le32(b + 60), crc32cRef(b, 60));
  cr_assert_eq(crc32cRef((const unsigned char*)"123456789", 9), 0xe3069283u);  // the check value
  free(b);
  mj_deleteModel(m);
}

Test(stream, fields_without_elements_are_left_out) {
  mjModel* m = testModel();
  mjModel sizes = *m;
  sizes.na = 0, sizes.nmocap = 0;
  mjModel* m0 = mj_makeModel(&sizes);
  mjStreamHeader h;
  mj_streamInit(&h, m0, mjSTREAM_ALL, "x");
  uint32_t gone = 1u << mjSTREAM_act | 1u << mjSTREAM_mocap_pos | 1u << mjSTREAM_mocap_quat;
  cr_assert_eq(h.mask, mjSTREAM_ALL & ~gone);
  cr_assert_eq(h.nvalue, NALL - 1 - 3 - 4);
  mj_deleteModel(m0);
  mj_deleteModel(m);
}

Test(stream, frame_byte_layout) {
  mjModel* m = testModel();
  size_t n;
  uint32_t mask = 1u << mjSTREAM_time | 1u << mjSTREAM_qpos | 1u << mjSTREAM_ncon;
  unsigned char* b = writeStream(m, mask, 2, &n);
  int fr = 8 + 8 * (1 + 9 + 1);
  cr_assert_eq(n, 64 + 2 * (size_t)fr);
  const unsigned char* f1 = b + 64 + fr;
  cr_assert(!memcmp(f1, "MJFR", 4));
  double t, q0, ncon;
  memcpy(&t, f1 + 4, 8);
  memcpy(&q0, f1 + 12, 8);
  memcpy(&ncon, f1 + 4 + 8 * 10, 8);
  cr_assert_eq(t, 0.002 + 1e-17);
  cr_assert_eq(q0, sin(1) / 3);
  cr_assert_eq(ncon, 3);
  cr_assert_eq(le32(f1 + fr - 4), crc32cRef(f1, (size_t)fr - 4));
  free(b);
  mj_deleteModel(m);
}

Test(stream, every_field_round_trips) {
  mjModel* m = testModel();
  size_t n;
  unsigned char* b = writeStream(m, mjSTREAM_ALL, 3, &n);
  cr_assert_eq(n, 64 + 3 * (size_t)FRAME);
  FILE* f = fmemopen(b, n, "rb");
  mjStreamHeader h;
  char err[256] = "";
  cr_assert_eq(mj_streamReadHeader(f, "s.mjt", &h, err, sizeof(err)), 0, "%s", err);
  cr_assert_eq(h.nvalue, NALL);
  cr_assert_eq(mj_streamCheckModel(&h, m, err, sizeof(err)), 0, "%s", err);
  mjData* want = mj_makeData(m);
  mjData* got = mj_makeData(m);
  for (int k = 0; k < 3; k++) {
    fillData(m, want, k);
    cr_assert_eq(mj_streamReadFrame(f, &h, m, got, err, sizeof(err)), 1, "%s", err);
    cr_assert(sameStreamed(m, want, got), "frame %d differs", k);
  }
  cr_assert_eq(mj_streamReadFrame(f, &h, m, got, err, sizeof(err)), 0);
  cr_assert_eq(h.frame, 3);
  fclose(f);
  free(b);
  mj_deleteData(want);
  mj_deleteData(got);
  mj_deleteModel(m);
}

Test(stream, values_round_trip_and_offsets) {
  mjModel* m = testModel();
  size_t n;
  uint32_t mask = 1u << mjSTREAM_qvel | 1u << mjSTREAM_sensordata | 1u << mjSTREAM_warning;
  unsigned char* b = writeStream(m, mask, 2, &n);
  FILE* f = fmemopen(b, n, "rb");
  mjStreamHeader h;
  char err[256];
  cr_assert_eq(mj_streamReadHeader(f, "s.mjt", &h, err, sizeof(err)), 0);
  cr_assert_eq(h.nvalue, 8 + 5 + mjNWARNING);
  cr_assert_eq(mj_streamFieldOffset(&h, mjSTREAM_qvel), 0);
  cr_assert_eq(mj_streamFieldOffset(&h, mjSTREAM_sensordata), 8);
  cr_assert_eq(mj_streamFieldOffset(&h, mjSTREAM_warning), 13);
  cr_assert_eq(mj_streamFieldOffset(&h, mjSTREAM_qpos), -1);
  cr_assert_eq(mj_streamFieldSize(&h, mjSTREAM_xfrc_applied), 30);
  mjtNum v[8 + 5 + mjNWARNING];  // qvel, sensordata, warning
  cr_assert_eq(mj_streamReadValues(f, &h, v, err, sizeof(err)), 1);
  cr_assert_eq(mj_streamReadValues(f, &h, v, err, sizeof(err)), 1);
  cr_assert_eq(v[1], -0.1 - 1);  // qvel[1] of frame 1
  cr_assert_eq(v[8 + 4], 4 * 0.3 - 1);  // sensordata[4]
  cr_assert_eq(v[13 + 6], 6);  // warning[6] of frame 1
  // values written back give the same bytes
  char* buf = NULL;
  size_t n2;
  FILE* g = open_memstream(&buf, &n2);
  mj_streamWriteHeader(g, &h, err, sizeof(err));
  rewind(f);
  mj_streamReadHeader(f, "s.mjt", &h, err, sizeof(err));
  while (mj_streamReadValues(f, &h, v, err, sizeof(err)) == 1) mj_streamWriteValues(g, &h, v);
  fclose(g);
  cr_assert_eq(n2, n);
  cr_assert(!memcmp(buf, b, n));
  free(buf);
  fclose(f);
  free(b);
  mj_deleteModel(m);
}

Test(stream, reads_through_a_pipe) {
  mjModel* m = testModel();
  size_t n;
  unsigned char* b = writeStream(m, mjSTREAM_STATE | mjSTREAM_INPUT, 50, &n);
  int fd[2];
  cr_assert_eq(pipe(fd), 0);
  pid_t pid = fork();
  if (!pid) {  // the writer: the bytes into the pipe in odd-sized pieces
    close(fd[0]);
    for (size_t at = 0; at < n; at += 777) {
      size_t k = n - at < 777 ? n - at : 777;
      if (write(fd[1], b + at, k) != (ssize_t)k) _exit(1);
    }
    _exit(0);
  }
  close(fd[1]);
  FILE* f = fdopen(fd[0], "rb");
  mjStreamHeader h;
  char err[256] = "";
  cr_assert_eq(mj_streamReadHeader(f, "-", &h, err, sizeof(err)), 0, "%s", err);
  cr_assert_str_eq(h.name, "<stdin>");
  mjData* d = mj_makeData(m);
  int r;
  while ((r = mj_streamReadFrame(f, &h, m, d, err, sizeof(err))) == 1) continue;
  cr_assert_eq(r, 0, "%s", err);
  cr_assert_eq(h.frame, 50);
  cr_assert_eq(d->time, 0.002 * 49 + 1e-17);
  fclose(f);
  waitpid(pid, NULL, 0);
  mj_deleteData(d);
  free(b);
  mj_deleteModel(m);
}

// ---- names -------------------------------------------------------------------------------------

Test(stream, field_lists) {
  uint32_t mask;
  char err[256] = "";
  cr_assert_eq(mj_streamParseFields("qpos,qvel", &mask, err, sizeof(err)), 0);
  cr_assert_eq(mask, 1u << 1 | 1u << 2);
  cr_assert_eq(mj_streamParseFields("state", &mask, err, sizeof(err)), 0);
  cr_assert_eq(mask, 0x1f);  // time qpos qvel act warmstart
  cr_assert_eq(mj_streamParseFields("input,time", &mask, err, sizeof(err)), 0);
  cr_assert_eq(mask, 0x7e1);  // ctrl .. eq_active, time
  cr_assert_eq(mj_streamParseFields("output", &mask, err, sizeof(err)), 0);
  cr_assert_eq(mask, 0xff800);
  cr_assert_eq(mj_streamParseFields("all", &mask, err, sizeof(err)), 0);
  cr_assert_eq(mask, 0xfffff);
  cr_assert_eq(mj_streamParseFields("qpos,bogus", &mask, err, sizeof(err)), -1);
  cr_assert(strstr(err, "unknown field 'bogus'"), "%s", err);
  cr_assert_eq(mj_streamParseFields("qpos,,qvel", &mask, err, sizeof(err)), -1);
  cr_assert(strstr(err, "unknown field ''"), "%s", err);
  cr_assert_eq(mj_streamFieldFind("warmstart"), 4);
  cr_assert_str_eq(mj_streamFieldName(mjSTREAM_qfrc_constraint), "qfrc_constraint");
  cr_assert_null(mj_streamFieldName(mjNSTREAMFIELD));
}

// the name of element i of field f
static const char* elName(const mjModel* m, int f, int i, int describe) {
  static char buf[256];
  mj_streamElementName(m, f, i, describe, buf, sizeof(buf));
  return buf;
}

Test(stream, element_names) {
  mjModel* m = testModel();
  cr_assert_str_eq(elName(NULL, mjSTREAM_time, 0, 1), "time");
  cr_assert_str_eq(elName(NULL, mjSTREAM_qpos, 3, 0), "qpos[3]");
  cr_assert_str_eq(elName(NULL, mjSTREAM_qpos, 3, 1), "qpos[3]");
  cr_assert_str_eq(elName(m, mjSTREAM_qpos, 3, 0), "qpos[3]");
  cr_assert_str_eq(elName(m, mjSTREAM_qpos, 3, 1), "qpos[3] (joint 'root' [3])");
  cr_assert_str_eq(elName(m, mjSTREAM_qpos, 7, 1), "qpos[7] (joint 'elbow')");
  cr_assert_str_eq(elName(m, mjSTREAM_warmstart, 7, 1), "warmstart[7] (joint 'rail')");
  cr_assert_str_eq(elName(m, mjSTREAM_qvel, 5, 1), "qvel[5] (joint 'root' [5])");
  cr_assert_str_eq(elName(m, mjSTREAM_act, 0, 1), "act[0] (actuator 'muscle')");
  cr_assert_str_eq(elName(m, mjSTREAM_ctrl, 0, 1), "ctrl[0] (actuator 'motor')");
  cr_assert_str_eq(elName(m, mjSTREAM_xfrc_applied, 10, 1),
                   "xfrc_applied[10] (body 'torso' force y)");
  cr_assert_str_eq(elName(m, mjSTREAM_mocap_quat, 2, 1), "mocap_quat[2] (body 'target' [2])");
  cr_assert_str_eq(elName(m, mjSTREAM_eq_active, 1, 1), "eq_active[1] (equality 1)");
  cr_assert_str_eq(elName(m, mjSTREAM_sensordata, 4, 1), "sensordata[4] (sensor 'pos2' [1])");
  cr_assert_str_eq(elName(NULL, mjSTREAM_energy, 1, 1), "energy[1] (kinetic)");
  cr_assert_str_eq(elName(NULL, mjSTREAM_warning, 4, 1), "warning[4] (badqpos)");
  cr_assert_str_eq(elName(m, mjSTREAM_nefc, 0, 1), "nefc");
  mj_deleteModel(m);
}

Test(stream, element_parsing) {
  int f, i;
  cr_assert_eq(mj_streamParseElement("qpos[12]", &f, &i), 0);
  cr_assert(f == mjSTREAM_qpos && i == 12);
  cr_assert_eq(mj_streamParseElement("time", &f, &i), 0);
  cr_assert(f == mjSTREAM_time && i == 0);
  cr_assert_eq(mj_streamParseElement("ncon", &f, &i), 0);
  cr_assert_eq(f, mjSTREAM_ncon);
  cr_assert_eq(mj_streamParseElement("qpos", &f, &i), -1);
  cr_assert_eq(mj_streamParseElement("time[0]", &f, &i), -1);
  cr_assert_eq(mj_streamParseElement("qpos[x]", &f, &i), -1);
  cr_assert_eq(mj_streamParseElement("qpos[3", &f, &i), -1);
  cr_assert_eq(mj_streamParseElement("qpos[3]x", &f, &i), -1);
  cr_assert_eq(mj_streamParseElement("qpos[]", &f, &i), -1);
  cr_assert_eq(mj_streamParseElement("nope[1]", &f, &i), -1);
  cr_assert_eq(mj_streamParseElement("qpos[99999999999]", &f, &i), -1);
}

// ---- damaged streams ---------------------------------------------------------------------------

// a valid stream of 3 frames with all fields, to damage
static unsigned char* good(size_t* n, mjModel** m) {
  *m = testModel();
  return writeStream(*m, mjSTREAM_ALL, 3, n);
}

// expect the header to be rejected with a message containing want
static void expectHeaderError(const unsigned char* b, size_t n, const char* want) {
  mjStreamHeader h;
  char err[256] = "";
  cr_assert_eq(readHeader(b, n, &h, err), -1, "accepted, expected '%s'", want);
  cr_assert(strstr(err, want), "message '%s' lacks '%s'", err, want);
  cr_assert(!strncmp(err, "s.mjt: ", 7), "message '%s' does not name the file", err);
}

Test(stream, rejects_empty) {
  expectHeaderError((const unsigned char*)"", 0, "s.mjt: empty stream (no header)");
}

Test(stream, rejects_truncated_header) {
  size_t n;
  mjModel* m;
  unsigned char* b = good(&n, &m);
  expectHeaderError(b, 30, "truncated header (30 of 64 bytes)");
  expectHeaderError(b, 63, "truncated header (63 of 64 bytes)");
  free(b);
  mj_deleteModel(m);
}

Test(stream, rejects_bad_magic) {
  size_t n;
  mjModel* m;
  unsigned char* b = good(&n, &m);
  expectHeaderError((const unsigned char*)"MJBMODEL", 8, "not a state stream (bad magic)");
  b[7] = 'X';
  expectHeaderError(b, n, "not a state stream (bad magic)");
  free(b);
  mj_deleteModel(m);
}

Test(stream, rejects_other_version) {
  size_t n;
  mjModel* m;
  unsigned char* b = good(&n, &m);
  put32(b + 8, 7);
  fixHeaderCrc(b);
  expectHeaderError(b, n, "stream format version 7; this build reads versions 1 to 3");
  free(b);
  mj_deleteModel(m);
}

Test(stream, rejects_foreign_endianness) {
  size_t n;
  mjModel* m;
  unsigned char* b = good(&n, &m);
  memcpy(b + 12, "\x01\x02\x03\x04", 4);
  expectHeaderError(b, n, "foreign byte order (big-endian stream)");
  free(b);
  mj_deleteModel(m);
}

Test(stream, rejects_corrupt_header) {
  size_t n;
  mjModel* m;
  unsigned char* b = good(&n, &m);
  b[20] ^= 4;  // inside the model hash
  expectHeaderError(b, n, "corrupt header (bad CRC-32C)");
  free(b);
  mj_deleteModel(m);
}

Test(stream, rejects_negative_size) {
  size_t n;
  mjModel* m;
  unsigned char* b = good(&n, &m);
  put32(b + 28, (uint32_t)-3);  // nv
  fixHeaderCrc(b);
  expectHeaderError(b, n, "header size nv = -3 is negative");
  put32(b + 28, 1u << 30);
  fixHeaderCrc(b);
  expectHeaderError(b, n, "header size nv = 1073741824 is too large");
  free(b);
  mj_deleteModel(m);
}

Test(stream, rejects_unknown_fields) {
  size_t n;
  mjModel* m;
  unsigned char* b = good(&n, &m);
  put32(b + 56, 1u << 25 | 1);
  fixHeaderCrc(b);
  expectHeaderError(b, n, "field mask 0x02000001 names unknown fields");
  free(b);
  mj_deleteModel(m);
}

Test(stream, rejects_stream_of_another_model) {
  size_t n;
  mjModel* m;
  unsigned char* b = good(&n, &m);
  mjStreamHeader h;
  char err[256];
  cr_assert_eq(readHeader(b, n, &h, err), 0);
  // the same sizes but another timestep: only the hash tells
  mjModel* other = mj_copyModel(m);
  other->opt.timestep = 0.001;
  cr_assert_eq(mj_streamCheckModel(&h, other, err, sizeof(err)), -1);
  char want[200];
  snprintf(want, sizeof(want), "s.mjt: stream was written for another model (model hash %016llx,"
           " this model %016llx)", (unsigned long long)mj_modelHash(m),
           (unsigned long long)mj_modelHash(other));
  cr_assert_str_eq(err, want);
  mj_deleteModel(other);
  // other sizes: the message names the size
  mjModel s = *m;
  s.nu = 3;
  other = mj_makeModel(&s);
  cr_assert_eq(mj_streamCheckModel(&h, other, err, sizeof(err)), -1);
  cr_assert_str_eq(err, "s.mjt: stream is for a model with nu = 2, this model has 3");
  // and reading frames into its data is refused, not overrun
  FILE* f = fmemopen(b, n, "rb");
  mj_streamReadHeader(f, "s.mjt", &h, err, sizeof(err));
  mjData* d = mj_makeData(other);
  cr_assert_eq(mj_streamReadFrame(f, &h, other, d, err, sizeof(err)), -1);
  cr_assert_str_eq(err, "s.mjt: stream is for a model with nu = 2, this model has 3");
  fclose(f);
  mj_deleteData(d);
  mj_deleteModel(other);
  free(b);
  mj_deleteModel(m);
}

Test(stream, rejects_truncated_frame) {
  size_t n;
  mjModel* m;
  unsigned char* b = good(&n, &m);
  char err[256], want[128];
  int ok;
  // cut inside the values of the last frame
  cr_assert_eq(readAll(b, n - 100, m, err, &ok), 2);
  cr_assert_not(ok);
  snprintf(want, sizeof(want), "s.mjt: truncated frame 2 (%d of %d bytes)", FRAME - 100, FRAME);
  cr_assert_str_eq(err, want);
  // cut inside the CRC of the last frame
  cr_assert_eq(readAll(b, n - 2, m, err, &ok), 2);
  snprintf(want, sizeof(want), "s.mjt: truncated frame 2 (%d of %d bytes)", FRAME - 2, FRAME);
  cr_assert_str_eq(err, want);
  // cut inside the marker of the second frame
  cr_assert_eq(readAll(b, 64 + FRAME + 3, m, err, &ok), 1);
  snprintf(want, sizeof(want), "s.mjt: truncated frame 1 (3 of %d bytes)", FRAME);
  cr_assert_str_eq(err, want);
  // cut exactly between frames: a clean end
  cr_assert_eq(readAll(b, 64 + 2 * FRAME, m, err, &ok), 2);
  cr_assert(ok, "%s", err);
  free(b);
  mj_deleteModel(m);
}

Test(stream, rejects_corrupt_frame) {
  size_t n;
  mjModel* m;
  unsigned char* b = good(&n, &m);
  char err[256];
  int ok;
  b[64 + FRAME + 200] ^= 0x01;  // a value of frame 1
  cr_assert_eq(readAll(b, n, m, err, &ok), 1);
  cr_assert_not(ok);
  cr_assert_str_eq(err, "s.mjt: corrupt frame 1 (bad CRC-32C)");
  b[64 + FRAME + 200] ^= 0x01;
  b[64 + 2 * FRAME + 1] = 'X';  // the marker of frame 2
  cr_assert_eq(readAll(b, n, m, err, &ok), 2);
  cr_assert_str_eq(err, "s.mjt: corrupt frame 2 (bad frame marker)");
  free(b);
  mj_deleteModel(m);
}

// a version 1 stream (zlib's CRC-32 in the header and the frames, as written until version 2)
// reads as the same frames; its damage is named by its own checksum
Test(stream, reads_version_1) {
  size_t n;
  mjModel* m;
  unsigned char* b = good(&n, &m);
  unsigned char* v1 = malloc(n);
  memcpy(v1, b, n);
  put32(v1 + 8, 1);
  put64(v1 + 16, mj_modelHashFNV(m));  // streams before version 3 hold the FNV-1a model hash
  put32(v1 + 60, (uint32_t)crc32(0, v1, 60));
  for (int k = 0; k < 3; k++) {
    unsigned char* fr = v1 + 64 + (size_t)k * FRAME;
    put32(fr + FRAME - 4, (uint32_t)crc32(0, fr, FRAME - 4));
  }
  char err[256];
  int ok;
  cr_assert_eq(readAll(v1, n, m, err, &ok), 3);
  cr_assert(ok, "%s", err);
  // the values read equal the version 2 stream's
  FILE* f1 = fmemopen(v1, n, "rb");
  FILE* f2 = fmemopen(b, n, "rb");
  mjStreamHeader h1, h2;
  cr_assert_eq(mj_streamReadHeader(f1, "s.mjt", &h1, err, 256), 0);
  cr_assert_eq(mj_streamReadHeader(f2, "s.mjt", &h2, err, 256), 0);
  cr_assert_eq(h1.version, 1);
  cr_assert_eq(h2.version, 3);
  cr_assert_eq(mj_streamCheckModel(&h1, m, err, 256), 0, "%s", err);
  cr_assert_eq(mj_streamCheckModel(&h2, m, err, 256), 0, "%s", err);
  mjtNum x1[NALL], x2[NALL];
  for (int k = 0; k < 3; k++) {
    cr_assert_eq(mj_streamReadValues(f1, &h1, x1, err, 256), 1);
    cr_assert_eq(mj_streamReadValues(f2, &h2, x2, err, 256), 1);
    cr_assert(!memcmp(x1, x2, sizeof(x1)));
  }
  fclose(f1);
  fclose(f2);
  v1[64 + FRAME + 200] ^= 0x01;
  cr_assert_eq(readAll(v1, n, m, err, &ok), 1);
  cr_assert_str_eq(err, "s.mjt: corrupt frame 1 (bad CRC-32)");
  v1[20] ^= 4;
  expectHeaderError(v1, n, "corrupt header (bad CRC-32)");
  free(v1);
  free(b);
  mj_deleteModel(m);
}

// a version 2 stream (CRC-32C, the FNV-1a model hash, as written until version 3) binds to its
// model and reads as the same frames; a version 3 stream with that hash is another model's
Test(stream, reads_version_2) {
  size_t n;
  mjModel* m;
  unsigned char* b = good(&n, &m);
  put32(b + 8, 2);
  put64(b + 16, mj_modelHashFNV(m));
  fixHeaderCrc(b);
  char err[256];
  int ok;
  cr_assert_eq(readAll(b, n, m, err, &ok), 3);
  cr_assert(ok, "%s", err);
  FILE* f = fmemopen(b, n, "rb");
  mjStreamHeader h;
  cr_assert_eq(mj_streamReadHeader(f, "s.mjt", &h, err, 256), 0);
  cr_assert_eq(h.version, 2);
  cr_assert_eq(mj_streamCheckModel(&h, m, err, 256), 0, "%s", err);
  h.version = 3;
  cr_assert_eq(mj_streamCheckModel(&h, m, err, 256), -1);
  cr_assert(strstr(err, "written for another model"), "%s", err);
  fclose(f);
  free(b);
  mj_deleteModel(m);
}

Test(stream, corrupt_frame_leaves_data_unchanged) {
  size_t n;
  mjModel* m;
  unsigned char* b = good(&n, &m);
  b[64 + 50] ^= 0x40;  // frame 0
  FILE* f = fmemopen(b, n, "rb");
  mjStreamHeader h;
  char err[256];
  mj_streamReadHeader(f, "s.mjt", &h, err, sizeof(err));
  mjData* d = mj_makeData(m);
  mjData* ref = mj_makeData(m);
  fillData(m, d, 7);
  fillData(m, ref, 7);
  cr_assert_eq(mj_streamReadFrame(f, &h, m, d, err, sizeof(err)), -1);
  cr_assert(sameStreamed(m, d, ref));
  fclose(f);
  mj_deleteData(d);
  mj_deleteData(ref);
  free(b);
  mj_deleteModel(m);
}

// a count (an int field) that no int holds makes the frame corrupt, not an undefined
// conversion (found by fuzzing: t/fuzz/regress/mjt/)
Test(stream, rejects_count_outside_int) {
  size_t n;
  mjModel* m;
  unsigned char* b = good(&n, &m);
  mjStreamHeader h;
  char err[256];
  int ok;
  cr_assert_eq(readHeader(b, n, &h, err), 0, "%s", err);
  unsigned char* frame1 = b + 64 + FRAME;
  double big = 1e50;
  uint64_t bits;
  memcpy(&bits, &big, 8);
  unsigned char* ncon = frame1 + 4 + 8 * mj_streamFieldOffset(&h, mjSTREAM_ncon);
  put32(ncon, (uint32_t)bits);
  put32(ncon + 4, (uint32_t)(bits >> 32));
  put32(frame1 + FRAME - 4, crc32cRef(frame1, FRAME - 4));
  // frame 1 was read (the count of frames read is 2) and refused
  cr_assert_eq(readAll(b, n, m, err, &ok), 2);
  cr_assert_not(ok);
  cr_assert_str_eq(err, "s.mjt: corrupt frame 1 (ncon[0] = 1e+50 is not an int)");
  free(b);
  mj_deleteModel(m);
}

// ---- ranges of a sharded run -------------------------------------------------------------------

Test(stream, shard_blocks_partition_the_run) {
  // for any total and n the blocks of shards 0..n-1 follow one another from 0 to total, sizes
  // differing by at most one
  for (int64_t total = 0; total <= 40; total++)
    for (int64_t n = 1; n <= 45; n++) {
      int64_t next = 0, lo = total, hi = 0;
      for (int64_t i = 0; i < n; i++) {
        int64_t first, end;
        mj_rangeShard(total, i, n, &first, &end);
        cr_assert_eq(first, next, "total %ld n %ld i %ld", (long)total, (long)n, (long)i);
        cr_assert_geq(end, first);
        lo = end - first < lo ? end - first : lo;
        hi = end - first > hi ? end - first : hi;
        next = end;
      }
      cr_assert_eq(next, total);
      cr_assert_leq(hi - lo, 1);
    }
  // large counts do not overflow: the last block of 2^31 - 1 shards of 2^62 items
  int64_t first, end, total = (int64_t)1 << 62, n = INT32_MAX;
  mj_rangeShard(total, n - 1, n, &first, &end);
  cr_assert_eq(end, total);
  cr_assert_eq(first, (n - 1) * (total / n) + (n - 1) * (total % n) / n);
}

Test(stream, range_record_layout_and_checks) {
  mjStreamRange r = {3, 5, 7, 11, 0x0123456789abcdefull, 0xfedcba9876543210ull}, back;
  unsigned char b[mjRANGE_BYTES];
  char err[256] = "";
  mj_rangeEncode(&r, b);
  cr_assert(!memcmp(b, "MJRANGE1", 8));
  cr_assert_eq(le64(b + 8), 3);
  cr_assert_eq(le64(b + 16), 5);
  cr_assert_eq(le64(b + 24), 7);
  cr_assert_eq(le64(b + 32), 11);
  cr_assert_eq(le64(b + 40), r.run);
  cr_assert_eq(le64(b + 48), r.build);
  cr_assert_eq(le32(b + 56), 0);
  cr_assert_eq(le32(b + 60), crc32cRef(b, 60));
  cr_assert_eq(mj_rangeDecode(b, "p", &back, err, sizeof(err)), 0, "%s", err);
  cr_assert(!memcmp(&back, &r, sizeof(r)));
  // a changed byte, and ranges that are not ranges (with a valid CRC)
  b[20] ^= 1;
  cr_assert_eq(mj_rangeDecode(b, "p", &back, err, sizeof(err)), -1);
  cr_assert_str_eq(err, "p: corrupt range record (bad CRC-32C)");
  mjStreamRange bad[3] = {{5, 3, 7, 1, 0, 0}, {3, 8, 7, 1, 0, 0}, {-1, 3, 7, 1, 0, 0}};
  for (int i = 0; i < 3; i++) {
    mj_rangeEncode(&bad[i], b);
    cr_assert_eq(mj_rangeDecode(b, "p", &back, err, sizeof(err)), -1);
    cr_assert(strstr(err, "is not a range"), "%s", err);
  }
}

Test(stream, ranged_header_round_trips) {
  // a part's header: bit 31 of the mask, then the record; the reader gives both back and
  // the frames follow as usual
  mjModel* m = testModel();
  char* buf = NULL;
  size_t n;
  FILE* f = open_memstream(&buf, &n);
  mjStreamHeader h, back;
  mj_streamInit(&h, m, mjSTREAM_STATE, "mem");
  mjStreamRange r = {0, 2, 2, 1, 42, mj_buildFingerprint()};
  mj_streamSetRange(&h, &r);
  char err[256] = "";
  cr_assert_eq(mj_streamWriteHeader(f, &h, err, sizeof(err)), 0, "%s", err);
  mjData* d = mj_makeData(m);
  fillData(m, d, 1);
  cr_assert_eq(mj_streamWriteFrame(f, &h, d), 0);
  fclose(f);
  cr_assert_eq(n, 64 + 64 + 8 + 8 * (size_t)h.nvalue);
  cr_assert_eq(le32((unsigned char*)buf + 56), mjSTREAM_STATE | mjSTREAM_RANGED);
  cr_assert_eq(readHeader((unsigned char*)buf, n, &back, err), 0, "%s", err);
  cr_assert(back.ranged);
  cr_assert(!memcmp(&back.range, &r, sizeof(r)));
  cr_assert_eq(back.mask, mjSTREAM_STATE);
  int ok;
  cr_assert_eq(readAll((unsigned char*)buf, n, m, err, &ok), 1, "%s", err);
  cr_assert(ok);
  // the record cut short
  cr_assert_eq(readHeader((unsigned char*)buf, 100, &back, err), -1);
  cr_assert_str_eq(err, "s.mjt: truncated range record (36 of 64 bytes)");
  mj_deleteData(d);
  free(buf);
  mj_deleteModel(m);
}
