/* libstrata_rt thread pool: persistent workers started on first use, one
 * parallel region at a time, the caller running chunk 0. Nested regions
 * run serially on the calling thread. A model runs many short regions back
 * to back, so workers spin for a while on the region counter before they
 * sleep on the condition variable, and the caller spins before it waits:
 * a condvar wake-up per region cost more than the regions on small layers. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernels.h"
#include "rt_internal.h"
#include "status.h"

#define RT_MAX_THREADS 64
#define RT_SCRATCH_SLOTS 9

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

static _Thread_local int inRegion;
/* One parallel region at a time: a second application thread arriving
 * while the pool is busy runs its region serially instead of waiting. */
static pthread_mutex_t regionMu = PTHREAD_MUTEX_INITIALIZER;

bool rtInParallelRegion(void) { return inRegion; }

/* A chunk that reports an error (rtFatal) stops there, through its own
 * strataRtCall; the region's first message is kept and raised again on the
 * calling thread once every chunk is done, so the error leaves through the
 * caller's strataRtCall and no thread is left inside the region. Written by
 * the first failing chunk only; read after `pending` reaches zero. */
static struct {
  int failed;
  char message[512];
} regionError;

typedef struct {
  int64_t b, e;
} Chunk;

static void chunkBody(void *p) {
  const Chunk *c = p;
  pool.fn(pool.ctx, c->b, c->e);
}

static void runChunk(int tid) {
  Chunk c = {pool.n * tid / pool.chunks, pool.n * (tid + 1) / pool.chunks};
  if (c.b >= c.e) return;
  char err[sizeof regionError.message];
  if (strataRtCall(chunkBody, &c, err, sizeof err) != 0 &&
      !__atomic_exchange_n(&regionError.failed, 1, __ATOMIC_ACQ_REL))
    memcpy(regionError.message, err, sizeof err);
}

enum { SPIN = 1 << 15 }; /* polls before sleeping: a few hundred microseconds */

static void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

static void *worker(void *arg) {
  int tid = (int)(intptr_t)arg;
  uint64_t seen = 0;
  inRegion = 1;
  for (;;) {
    uint64_t g = __atomic_load_n(&pool.generation, __ATOMIC_ACQUIRE);
    for (int i = 0; g == seen && i < SPIN; i++) {
      relax();
      g = __atomic_load_n(&pool.generation, __ATOMIC_ACQUIRE);
    }
    if (g == seen) {
      pthread_mutex_lock(&pool.mu);
      while ((g = __atomic_load_n(&pool.generation, __ATOMIC_ACQUIRE)) == seen)
        pthread_cond_wait(&pool.start, &pool.mu);
      pthread_mutex_unlock(&pool.mu);
    }
    seen = g;
    /* Every worker acknowledges every region (pending counts them all), so
     * none can still be reading a region's fields when the next starts. */
    if (tid < pool.chunks) runChunk(tid);
    if (__atomic_sub_fetch(&pool.pending, 1, __ATOMIC_ACQ_REL) == 0) {
      pthread_mutex_lock(&pool.mu);
      pthread_cond_signal(&pool.finished);
      pthread_mutex_unlock(&pool.mu);
    }
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
    if (n > 0) fn(ctx, 0, n);
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
  __atomic_store_n(&pool.pending, pool.started - 1, __ATOMIC_RELEASE);
  __atomic_add_fetch(&pool.generation, 1, __ATOMIC_RELEASE); /* publishes the fields above */
  pthread_cond_broadcast(&pool.start);
  pthread_mutex_unlock(&pool.mu);
  inRegion = 1;
  runChunk(0);
  inRegion = 0;
  for (int i = 0; __atomic_load_n(&pool.pending, __ATOMIC_ACQUIRE) > 0 && i < SPIN; i++) relax();
  if (__atomic_load_n(&pool.pending, __ATOMIC_ACQUIRE) > 0) {
    pthread_mutex_lock(&pool.mu);
    while (__atomic_load_n(&pool.pending, __ATOMIC_ACQUIRE) > 0)
      pthread_cond_wait(&pool.finished, &pool.mu);
    pthread_mutex_unlock(&pool.mu);
  }
  char err[sizeof regionError.message];
  bool failed = regionError.failed;
  if (failed) memcpy(err, regionError.message, sizeof err), regionError.failed = 0;
  pthread_mutex_unlock(&regionMu);
  if (failed) rtFatal("%s", err);
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
