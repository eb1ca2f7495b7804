/* libstrata_rt thread pool: persistent workers started on first use, one
 * parallel region at a time, the caller running chunk 0. Nested regions
 * run serially on the calling thread. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "kernels.h"
#include "rt_internal.h"

#define RT_MAX_THREADS 64
#define RT_SCRATCH_SLOTS 8

static struct {
  pthread_mutex_t mu;
  pthread_cond_t start, finished;
  int threads, started;
  uint64_t generation;
  int pending;
  int64_t n, chunks;
  RtTaskFn fn;
  void *ctx;
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, 1, 1,
          0, 0, 0, 0, NULL, NULL};

static _Thread_local int inRegion, curTid;
/* One parallel region at a time: a second application thread arriving
 * while the pool is busy runs its region serially instead of waiting. */
static pthread_mutex_t regionMu = PTHREAD_MUTEX_INITIALIZER;

_Noreturn void rtFatal(const char *what) {
  fprintf(stderr, "strata runtime: %s\n", what);
  abort();
}

static void runChunk(int tid) {
  int64_t b = pool.n * tid / pool.chunks, e = pool.n * (tid + 1) / pool.chunks;
  if (b < e) pool.fn(pool.ctx, tid, b, e);
}

static void *worker(void *arg) {
  int tid = (int)(intptr_t)arg;
  uint64_t seen = 0;
  inRegion = 1;
  curTid = tid;
  pthread_mutex_lock(&pool.mu);
  for (;;) {
    while (pool.generation == seen) pthread_cond_wait(&pool.start, &pool.mu);
    seen = pool.generation;
    if (tid >= pool.chunks) continue;
    pthread_mutex_unlock(&pool.mu);
    runChunk(tid);
    pthread_mutex_lock(&pool.mu);
    if (--pool.pending == 0) pthread_cond_signal(&pool.finished);
  }
  return NULL;
}

int strataRtSetNumThreads(int n) {
  if (n < 1) n = 1;
  if (n > RT_MAX_THREADS) n = RT_MAX_THREADS;
  pthread_mutex_lock(&pool.mu);
  int old = pool.threads;
  pool.threads = n;
  pthread_mutex_unlock(&pool.mu);
  return old;
}

int strataRtGetNumThreads(void) { return pool.threads; }
int rtNumThreads(void) { return inRegion ? 1 : pool.threads; }

void rtParallelFor(int64_t n, RtTaskFn fn, void *ctx) {
  int t = rtNumThreads();
  if (t > n) t = (int)n;
  if (t <= 1 || pthread_mutex_trylock(&regionMu) != 0) {
    if (n > 0) fn(ctx, curTid, 0, n);
    return;
  }
  pthread_mutex_lock(&pool.mu);
  while (pool.started < t) {
    pthread_t th;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int err = pthread_create(&th, &attr, worker, (void *)(intptr_t)pool.started);
    pthread_attr_destroy(&attr);
    if (err) break;
    pool.started++;
  }
  if (pool.started < t) t = pool.started; /* could not start more: use what runs */
  pool.fn = fn;
  pool.ctx = ctx;
  pool.n = n;
  pool.chunks = t;
  pool.pending = t - 1;
  pool.generation++;
  pthread_cond_broadcast(&pool.start);
  pthread_mutex_unlock(&pool.mu);
  inRegion = 1;
  runChunk(0);
  inRegion = 0;
  pthread_mutex_lock(&pool.mu);
  while (pool.pending > 0) pthread_cond_wait(&pool.finished, &pool.mu);
  pthread_mutex_unlock(&pool.mu);
  pthread_mutex_unlock(&regionMu);
}

/* Scratch buffers live in thread-local storage: pool workers and every
 * application thread calling compiled code get their own. */
typedef struct {
  float *p;
  size_t floats;
} Scratch;

static _Thread_local Scratch scratch[RT_SCRATCH_SLOTS];
static pthread_key_t scratchKey;
static pthread_once_t scratchOnce = PTHREAD_ONCE_INIT;

static void freeScratch(void *arg) {
  Scratch *s = arg;
  for (int w = 0; w < RT_SCRATCH_SLOTS; w++) free(s[w].p), s[w] = (Scratch){NULL, 0};
}
static void freeExitingThreadScratch(void) { freeScratch(scratch); }
static void makeScratchKey(void) {
  pthread_key_create(&scratchKey, freeScratch);
  atexit(freeExitingThreadScratch);
}

float *rtScratch(int which, size_t floats) {
  if (which < 0 || which >= RT_SCRATCH_SLOTS) return NULL;
  Scratch *s = &scratch[which];
  if (s->p && s->floats >= floats) return s->p;
  pthread_once(&scratchOnce, makeScratchKey);
  pthread_setspecific(scratchKey, scratch);
  size_t bytes = (floats * sizeof(float) + 63) / 64 * 64;
  float *p = aligned_alloc(64, bytes ? bytes : 64);
  if (!p) return NULL;
  free(s->p);
  s->p = p;
  s->floats = floats;
  return p;
}
