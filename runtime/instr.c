/* libstrata_rt instrumentation sinks (see instr.h): in-memory trace records
 * and profile events, written as one JSON file. Probes never fail the
 * program: a record that cannot be stored is counted as dropped. */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "grow.h"
#include "instr.h"
#include "memref.h"
#include "outfile.h"
#include "rt_internal.h"

#define NAME_MAX_LEN 127

typedef struct {
  int64_t run, opId, index, point;
  char name[NAME_MAX_LEN + 1];
  int rank;
  int64_t dims[STRATA_RT_MAX_RANK];
  double min, max, mean; /* over finite values; NAN when there are none */
  int64_t nan, inf;
} TraceRecord;

typedef struct {
  int64_t run, opId;
  char name[NAME_MAX_LEN + 1];
  double ts, dur; /* microseconds */
  /* An event strataRtInstrAddEvent added: its category, track and args
   * (malloc'ed JSON members); NULL args for the profile sink's op events. */
  char cat[16];
  int tid;
  char *args;
} ProfileEvent;

typedef struct {
  int64_t opId;
  double start;
} OpenOp;

/* The last value a `dump` probe saw, dense. */
typedef struct {
  int64_t opId, index;
  int rank;
  int64_t dims[STRATA_RT_MAX_RANK];
  float *data;
} Dump;

static struct {
  pthread_mutex_t lock;
  int64_t runs;
  TraceRecord *trace;
  size_t numTrace, capTrace;
  ProfileEvent *events;
  size_t numEvents, capEvents;
  OpenOp *open;
  size_t numOpen, capOpen;
  Dump *dumps;
  size_t numDumps, capDumps;
  int64_t dropped;
  double epoch; /* microseconds of the first profile probe */
  char *exitPath;
  int atexitRegistered;
} g = {.lock = PTHREAD_MUTEX_INITIALIZER};

static double nowUs(void) { return (double)rtNowNs() / 1e3; }

static void copyName(char *dst, const StrataUnrankedMemRef *name) {
  const StrataMemRefDesc *d = name ? name->descriptor : NULL;
  int64_t len = d && name->rank == 1 ? d->sizesAndStrides[0] : 0;
  if (len > NAME_MAX_LEN) len = NAME_MAX_LEN;
  const char *src = len > 0 ? (const char *)d->aligned + d->offset : "";
  for (int64_t i = 0; i < len; i++) /* JSON-safe: no quotes, backslashes or controls */
    dst[i] = src[i] == '"' || src[i] == '\\' || (unsigned char)src[i] < 0x20 ? '?' : src[i];
  dst[len > 0 ? len : 0] = '\0';
}

static int64_t currentRun(void) { return g.runs > 0 ? g.runs - 1 : 0; }

void _mlir_ciface_strata_rt_instr_run_begin(void) {
  pthread_mutex_lock(&g.lock);
  g.runs++;
  pthread_mutex_unlock(&g.lock);
}

/* The elements of an f32 memref in row-major order (any strides), as runs
 * of `row` contiguous elements: the trailing dimensions laid out densely
 * (unit innermost stride; a dimension of size 1 has any stride) fold into
 * one run. A tensor the code made is one run; a view strided in its outer
 * dimensions (a slice) one run per row; a strided innermost dimension
 * gives runs of one element. */
typedef struct {
  const float *base;
  int rank; /* the dimensions outside the run */
  const int64_t *size, *stride;
  int64_t idx[STRATA_RT_MAX_RANK], total, row;
} Elements;

/* Writes the memref's rank and dims. */
static void elementsInit(Elements *e, const StrataUnrankedMemRef *x, int *rank, int64_t *dims) {
  const StrataMemRefDesc *d = x->descriptor;
  *rank = x->rank >= 0 && x->rank <= STRATA_RT_MAX_RANK ? (int)x->rank : 0;
  *e = (Elements){(const float *)d->aligned + d->offset, *rank, d->sizesAndStrides,
                  d->sizesAndStrides + *rank, {0}, 1, 1};
  for (int i = 0; i < *rank; i++) dims[i] = e->size[i], e->total *= e->size[i];
  while (e->rank > 0 && (e->size[e->rank - 1] == 1 || e->stride[e->rank - 1] == e->row))
    e->row *= e->size[--e->rank];
}

/* The next run (call total / row times). */
static const float *elementsNextRun(Elements *e) {
  int64_t off = 0;
  for (int i = 0; i < e->rank; i++) off += e->idx[i] * e->stride[i];
  for (int i = e->rank - 1; i >= 0 && ++e->idx[i] == e->size[i]; i--) e->idx[i] = 0;
  return e->base + off;
}

/* ---- Tensor statistics (`trace`) ----
 * Over the finite values: min, max and a sum for the mean; NaN and Inf
 * (either sign) are counted and take no part in the others. */
typedef struct {
  double lo, hi, sum;
  int64_t finite, nan, inf;
} Stats;

static void statsAdd(Stats *s, float v) {
  if (isnan(v)) s->nan++;
  else if (isinf(v)) s->inf++;
  else {
    s->lo = v < s->lo ? v : s->lo;
    s->hi = v > s->hi ? v : s->hi;
    s->sum += v;
    s->finite++;
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
#define STATS_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define STATS_CLONES
#endif

/* STATS_LANES independent accumulators (one vector of the widest ISA), so
 * the loop vectorizes without reassociating anything: the sums stay in
 * float over a block (each lane adds STATS_BLOCK / STATS_LANES = 64
 * values) and go to the double sum block by block, which keeps the mean
 * of a large tensor as accurate as the float inputs. */
enum { STATS_LANES = 16, STATS_BLOCK = 1024 };

/* Adds x[0..n), n a multiple of STATS_LANES and at most STATS_BLOCK. */
STATS_CLONES static void statsBlock(Stats *s, const float *restrict x, int64_t n) {
  float sum[STATS_LANES], lo[STATS_LANES], hi[STATS_LANES];
  int32_t bad[STATS_LANES], nan[STATS_LANES];
  for (int l = 0; l < STATS_LANES; l++)
    sum[l] = 0, lo[l] = INFINITY, hi[l] = -INFINITY, bad[l] = nan[l] = 0;
  for (int64_t i = 0; i < n; i += STATS_LANES)
    for (int l = 0; l < STATS_LANES; l++) {
      float v = x[i + l];
      int32_t finite = fabsf(v) <= FLT_MAX; /* false for Inf and NaN */
      bad[l] += !finite;
      nan[l] += v != v;
      float low = finite ? v : INFINITY, high = finite ? v : -INFINITY;
      sum[l] += finite ? v : 0.0f;
      lo[l] = low < lo[l] ? low : lo[l];
      hi[l] = high > hi[l] ? high : hi[l];
    }
  double blockSum = 0;
  int64_t blockBad = 0, blockNan = 0;
  for (int l = 0; l < STATS_LANES; l++) {
    blockSum += sum[l];
    blockBad += bad[l];
    blockNan += nan[l];
    s->lo = lo[l] < s->lo ? lo[l] : s->lo;
    s->hi = hi[l] > s->hi ? hi[l] : s->hi;
  }
  s->sum += blockSum;
  s->nan += blockNan;
  s->inf += blockBad - blockNan;
  s->finite += n - blockBad;
}

/* Adds n contiguous values: whole blocks vectorized, the rest one by one. */
static void statsRun(Stats *s, const float *x, int64_t n) {
  int64_t i = 0;
  for (int64_t len; (len = (n - i < STATS_BLOCK ? n - i : STATS_BLOCK) / STATS_LANES * STATS_LANES) > 0; i += len)
    statsBlock(s, x + i, len);
  for (; i < n; i++) statsAdd(s, x[i]);
}

/* The statistics of x, whose dims are written to dims (rank to *rank). */
static void tensorStats(const StrataUnrankedMemRef *x, int64_t *dims, int *rank, Stats *s) {
  *s = (Stats){INFINITY, -INFINITY, 0, 0, 0, 0};
  Elements e;
  elementsInit(&e, x, rank, dims);
  for (int64_t n = 0; n < e.total; n += e.row) statsRun(s, elementsNextRun(&e), e.row);
}

void _mlir_ciface_strata_rt_instr_trace(StrataUnrankedMemRef *x, int64_t opId, int64_t index,
                                        int64_t point, StrataUnrankedMemRef *name) {
  TraceRecord r = {.opId = opId, .index = index, .point = point};
  copyName(r.name, name);
  Stats st;
  tensorStats(x, r.dims, &r.rank, &st);
  r.nan = st.nan;
  r.inf = st.inf;
  r.min = st.finite ? st.lo : NAN;
  r.max = st.finite ? st.hi : NAN;
  r.mean = st.finite ? st.sum / (double)st.finite : NAN;
  pthread_mutex_lock(&g.lock);
  r.run = currentRun();
  TraceRecord *trace = strataGrow(g.trace, &g.capTrace, g.numTrace + 1, sizeof *trace);
  if (trace) (g.trace = trace)[g.numTrace++] = r;
  else g.dropped++;
  pthread_mutex_unlock(&g.lock);
}

void _mlir_ciface_strata_rt_instr_profile(int64_t opId, int64_t index, int64_t point,
                                          StrataUnrankedMemRef *name) {
  (void)index;
  double t = nowUs();
  pthread_mutex_lock(&g.lock);
  if (g.epoch == 0) g.epoch = t;
  if (point == STRATA_RT_INSTR_BEFORE) {
    OpenOp *open = strataGrow(g.open, &g.capOpen, g.numOpen + 1, sizeof *open);
    if (open) (g.open = open)[g.numOpen++] = (OpenOp){opId, t};
    else g.dropped++;
  } else {
    size_t i = g.numOpen;
    while (i > 0 && g.open[i - 1].opId != opId) i--;
    if (i > 0) {
      ProfileEvent e = {currentRun(), opId, "", g.open[i - 1].start - g.epoch, t - g.open[i - 1].start, "op", 1, NULL};
      copyName(e.name, name);
      g.open[i - 1] = g.open[--g.numOpen];
      ProfileEvent *events = strataGrow(g.events, &g.capEvents, g.numEvents + 1, sizeof *events);
      if (events) (g.events = events)[g.numEvents++] = e;
      else g.dropped++;
    }
  }
  pthread_mutex_unlock(&g.lock);
}

void _mlir_ciface_strata_rt_instr_dump(StrataUnrankedMemRef *x, int64_t opId, int64_t index,
                                       int64_t point, StrataUnrankedMemRef *name) {
  (void)point, (void)name;
  Dump d = {.opId = opId, .index = index};
  Elements e;
  elementsInit(&e, x, &d.rank, d.dims);
  d.data = malloc((size_t)(e.total ? e.total : 1) * sizeof *d.data);
  for (int64_t n = 0; d.data && n < e.total; n += e.row)
    memcpy(d.data + n, elementsNextRun(&e), (size_t)e.row * sizeof *d.data);
  pthread_mutex_lock(&g.lock);
  size_t i = 0;
  while (i < g.numDumps && (g.dumps[i].opId != opId || g.dumps[i].index != index)) i++;
  Dump *dumps = i < g.numDumps ? g.dumps : strataGrow(g.dumps, &g.capDumps, g.numDumps + 1, sizeof *dumps);
  if (dumps && d.data) {
    g.dumps = dumps;
    if (i < g.numDumps) free(g.dumps[i].data); /* the last run's value wins */
    else g.numDumps++;
    g.dumps[i] = d;
  } else {
    free(d.data);
    g.dropped++;
  }
  pthread_mutex_unlock(&g.lock);
}

double strataRtInstrNowUs(void) { return nowUs(); }

int64_t strataRtInstrRunBegin(void) {
  double t = nowUs();
  pthread_mutex_lock(&g.lock);
  if (g.epoch == 0) g.epoch = t;
  int64_t run = g.runs++;
  pthread_mutex_unlock(&g.lock);
  return run;
}

/* Copies `src` into dst[size] as JSON string content: quotes, backslashes
 * and control characters become '?'. */
static void copyJsonSafe(char *dst, size_t size, const char *src) {
  size_t i = 0;
  for (; src && src[i] && i + 1 < size; i++)
    dst[i] = src[i] == '"' || src[i] == '\\' || (unsigned char)src[i] < 0x20 ? '?' : src[i];
  dst[i] = '\0';
}

void strataRtInstrAddEvent(const char *name, const char *cat, int tid, double ts, double dur, const char *args) {
  ProfileEvent e = {.opId = -1, .tid = tid, .dur = dur};
  copyJsonSafe(e.name, sizeof e.name, name);
  copyJsonSafe(e.cat, sizeof e.cat, cat);
  e.args = strdup(args ? args : "");
  pthread_mutex_lock(&g.lock);
  if (g.epoch == 0) g.epoch = ts;
  e.run = currentRun();
  e.ts = ts - g.epoch;
  ProfileEvent *events = e.args ? strataGrow(g.events, &g.capEvents, g.numEvents + 1, sizeof *events) : NULL;
  if (events) (g.events = events)[g.numEvents++] = e;
  else free(e.args), g.dropped++;
  pthread_mutex_unlock(&g.lock);
}

const float *strataRtInstrGetDump(int64_t opId, int64_t index, int *rank, int64_t *dims) {
  for (size_t i = 0; i < g.numDumps; i++)
    if (g.dumps[i].opId == opId && g.dumps[i].index == index) {
      *rank = g.dumps[i].rank;
      memcpy(dims, g.dumps[i].dims, sizeof g.dumps[i].dims);
      return g.dumps[i].data;
    }
  return NULL;
}

/* ---- Writing ---- */

static void number(FILE *f, double v) {
  if (isfinite(v)) fprintf(f, "%.9g", v);
  else fputs("null", f);
}

static void writeJson(FILE *f) {
  fputs("{\"traceEvents\": [", f);
  for (size_t i = 0; i < g.numEvents; i++) {
    const ProfileEvent *e = &g.events[i];
    fprintf(f, "%s\n  {\"name\": \"%s\", \"cat\": \"%s\", \"ph\": \"X\", \"ts\": %.3f, \"dur\": %.3f, "
            "\"pid\": 1, \"tid\": %d, \"args\": {", i ? "," : "", e->name, e->cat, e->ts, e->dur, e->tid);
    if (e->args) fprintf(f, "%s}}", e->args);
    else fprintf(f, "\"op_id\": %lld, \"run\": %lld}}", (long long)e->opId, (long long)e->run);
  }
  fprintf(f, "],\n \"displayTimeUnit\": \"ms\",\n \"strataTrace\": {\"runs\": %lld, \"dropped\": %lld, "
          "\"records\": [", (long long)g.runs, (long long)g.dropped);
  for (size_t i = 0; i < g.numTrace; i++) {
    const TraceRecord *r = &g.trace[i];
    fprintf(f, "%s\n  {\"run\": %lld, \"op_id\": %lld, \"op\": \"%s\", \"point\": \"%s\", \"index\": %lld, "
            "\"shape\": [", i ? "," : "", (long long)r->run, (long long)r->opId, r->name,
            r->point == STRATA_RT_INSTR_BEFORE ? "before" : "after", (long long)r->index);
    for (int k = 0; k < r->rank; k++) fprintf(f, "%s%lld", k ? ", " : "", (long long)r->dims[k]);
    fputs("], \"min\": ", f);
    number(f, r->min);
    fputs(", \"max\": ", f);
    number(f, r->max);
    fputs(", \"mean\": ", f);
    number(f, r->mean);
    fprintf(f, ", \"nan\": %lld, \"inf\": %lld}", (long long)r->nan, (long long)r->inf);
  }
  fputs("]}}\n", f);
}

int strataRtInstrWrite(const char *path) {
  if (!path) return -1;
  StrataRtOutFile out;
  char err[512];
  if (strataRtOutFileOpen(&out, path, err, sizeof err) != 0) return -1;
  pthread_mutex_lock(&g.lock);
  writeJson(out.f);
  pthread_mutex_unlock(&g.lock);
  return strataRtOutFileCommit(&out, err, sizeof err);
}

static void writeAtExit(void) {
  if (g.exitPath) strataRtInstrWrite(g.exitPath);
  free(g.exitPath);
  g.exitPath = NULL;
}

int strataRtInstrSetOutput(const char *path) {
  char *copy = path ? strdup(path) : NULL;
  if (path && !copy) return -1;
  pthread_mutex_lock(&g.lock);
  free(g.exitPath);
  g.exitPath = copy;
  if (copy && !g.atexitRegistered) g.atexitRegistered = atexit(writeAtExit) == 0;
  pthread_mutex_unlock(&g.lock);
  return 0;
}

void strataRtInstrReset(void) {
  pthread_mutex_lock(&g.lock);
  free(g.trace);
  for (size_t i = 0; i < g.numEvents; i++) free(g.events[i].args);
  free(g.events);
  free(g.open);
  for (size_t i = 0; i < g.numDumps; i++) free(g.dumps[i].data);
  free(g.dumps);
  g.trace = NULL, g.events = NULL, g.open = NULL, g.dumps = NULL;
  g.numTrace = g.capTrace = g.numEvents = g.capEvents = g.numOpen = g.capOpen = 0;
  g.numDumps = g.capDumps = 0;
  g.runs = g.dropped = 0;
  g.epoch = 0;
  pthread_mutex_unlock(&g.lock);
}

int64_t strataRtInstrNumRuns(void) { return g.runs; }
size_t strataRtInstrNumTraceRecords(void) { return g.numTrace; }
size_t strataRtInstrNumProfileEvents(void) { return g.numEvents; }
