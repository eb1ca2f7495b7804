/* libstrata_rt thread pool: persistent workers started on first use, one
 * parallel region at a time, split into one chunk per thread. Chunks are
 * claimed, not assigned: the caller and the workers take the next chunk
 * from the region's ticket (one atomic word holding the region's
 * generation, its chunk count and the next chunk) until none is left, and
 * the caller waits only for chunks someone took. A worker the OS has not
 * scheduled (the second core busy with another program) therefore costs
 * nothing: the caller runs its chunk too, where a fixed split made every
 * region wait a scheduler time slice for it. A model runs many short
 * regions back to back, so an idle worker spins a short while (about
 * 100 us, yielding the core now and then) before it sleeps on the
 * condition variable, and so does the caller before it waits: a condvar
 * wake-up per region cost more than the regions on small layers. Nested
 * regions run serially on the calling thread. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include "kernels.h"
#include "rt_internal.h"
#include "status.h"

static _Thread_local int inRegion;

bool rtInParallelRegion(void) { return inRegion; }

/* A chunk that reports an error (rtError) stops there, through its own
 * strataRtCall; the region's first message is kept (pool->failed,
 * pool->message) and raised again on the calling thread once every chunk
 * is done, so the error leaves through the caller's strataRtCall and no
 * thread is left inside the region. Written by the first failing chunk
 * only; read after `done` reaches the chunk count. */
typedef struct {
  RtPool *pool;
  int64_t b, e;
} Chunk;

static void chunkBody(void *p) {
  const Chunk *c = p;
  c->pool->fn(c->pool->ctx, c->b, c->e);
}

static void chunkFailed(RtPool *pool, const char *err) {
  if (!__atomic_exchange_n(&pool->failed, 1, __ATOMIC_ACQ_REL))
    memcpy(pool->message, err, sizeof pool->message);
}

static void runChunk(RtPool *pool, int64_t chunk, int64_t chunks) {
  Chunk c = {pool, pool->n * chunk / chunks, pool->n * (chunk + 1) / chunks};
  if (c.b >= c.e) return;
  char err[sizeof pool->message] = "out of memory for the runtime's state of a pool worker";
  if (!rtCurThread || strataRtCall(chunkBody, &c, err, sizeof err) != 0) chunkFailed(pool, err);
}

/* The ticket: generation (low 32 bits) << 32 | chunks << 16 | next chunk. */
static uint64_t ticketOf(uint64_t gen, int chunks) { return (gen & 0xffffffffu) << 32 | (uint64_t)chunks << 16; }

/* Claims and runs chunks of region `gen` until none is left (or the
 * region is another's). A claimed chunk keeps its region open until it is
 * counted done, so the region's fields stay as they were when it was
 * claimed. */
static void claimChunks(RtPool *pool, uint64_t gen) {
  uint64_t t = __atomic_load_n(&pool->ticket, __ATOMIC_ACQUIRE);
  for (;;) {
    int chunks = (int)(t >> 16 & 0xffff), next = (int)(t & 0xffff);
    if (t >> 32 != (gen & 0xffffffffu) || next >= chunks) return;
    if (!__atomic_compare_exchange_n(&pool->ticket, &t, t + 1, true, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      continue; /* t now holds the current ticket */
    runChunk(pool, next, chunks);
    if (__atomic_add_fetch(&pool->done, 1, __ATOMIC_ACQ_REL) == chunks) {
      pthread_mutex_lock(&pool->mu);
      pthread_cond_signal(&pool->finished);
      pthread_mutex_unlock(&pool->mu);
    }
    t = __atomic_load_n(&pool->ticket, __ATOMIC_ACQUIRE);
  }
}

void rtPoolInit(RtPool *pool, int threads) {
  memset(pool, 0, sizeof *pool);
  pthread_mutex_init(&pool->mu, NULL);
  pthread_cond_init(&pool->start, NULL);
  pthread_cond_init(&pool->finished, NULL);
  pthread_mutex_init(&pool->regionMu, NULL);
  pool->threads = threads < 1 ? 1 : threads > RT_MAX_THREADS ? RT_MAX_THREADS : threads;
  pool->started = 1; /* the caller runs chunk 0 */
}

enum { SPIN_NS = 100000 }; /* how long an idle thread polls before it sleeps */

static void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/* Polls until *word differs from `seen` (returned: its value) or SPIN_NS
 * pass (returns `seen`), giving the core away now and then. */
static uint64_t spinWhile64(const uint64_t *word, uint64_t seen) {
  uint64_t start = rtNowNs(), v;
  for (int i = 1; (v = __atomic_load_n(word, __ATOMIC_ACQUIRE)) == seen; i++) {
    relax();
    if (i % 64 == 0) {
      if (rtNowNs() - start > SPIN_NS) break;
      if (i % 1024 == 0) sched_yield();
    }
  }
  return v;
}

typedef struct {
  StrataRtEnv *env;
  int tid;
} WorkerArg;

static void *worker(void *arg) {
  WorkerArg w = *(WorkerArg *)arg;
  rtFree(w.env, arg);
  RtPool *pool = &w.env->pool;
  rtCurThread = rtThreadFor(w.env); /* NULL if out of memory: its chunks fail */
  uint64_t seen = 0;
  inRegion = 1;
  for (;;) {
    uint64_t g = spinWhile64(&pool->generation, seen);
    if (g == seen) {
      pthread_mutex_lock(&pool->mu);
      while ((g = __atomic_load_n(&pool->generation, __ATOMIC_ACQUIRE)) == seen)
        pthread_cond_wait(&pool->start, &pool->mu);
      pthread_mutex_unlock(&pool->mu);
    }
    seen = g;
    if (__atomic_load_n(&pool->stop, __ATOMIC_ACQUIRE)) break;
    claimChunks(pool, g);
  }
  return NULL;
}

/* Stops and joins the workers (no region may be running). */
void rtPoolStop(RtPool *pool) {
  pthread_mutex_lock(&pool->mu);
  __atomic_store_n(&pool->stop, 1, __ATOMIC_RELEASE);
  __atomic_add_fetch(&pool->generation, 1, __ATOMIC_RELEASE);
  pthread_cond_broadcast(&pool->start);
  int started = pool->started;
  pthread_mutex_unlock(&pool->mu);
  for (int i = 1; i < started; i++) pthread_join(pool->workers[i], NULL);
  pthread_mutex_destroy(&pool->mu);
  pthread_cond_destroy(&pool->start);
  pthread_cond_destroy(&pool->finished);
  pthread_mutex_destroy(&pool->regionMu);
}

int strataRtEnvSetNumThreads(StrataRtEnv *env, int n) {
  RtPool *pool = &(env ? env : strataRtDefaultEnv())->pool;
  if (n < 1) n = 1;
  if (n > RT_MAX_THREADS) n = RT_MAX_THREADS;
  pthread_mutex_lock(&pool->mu);
  int old = pool->threads;
  __atomic_store_n(&pool->threads, n, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&pool->mu);
  return old;
}

int strataRtEnvGetNumThreads(const StrataRtEnv *env) {
  return __atomic_load_n(&(env ? env : strataRtDefaultEnv())->pool.threads, __ATOMIC_RELAXED);
}

int strataRtSetNumThreads(int n) { return strataRtEnvSetNumThreads(rtCurEnv(), n); }
int strataRtGetNumThreads(void) { return strataRtEnvGetNumThreads(rtCurEnv()); }
int rtNumThreads(void) {
  return inRegion ? 1 : __atomic_load_n(&rtCurEnv()->pool.threads, __ATOMIC_RELAXED);
}

void rtParallelFor(int64_t n, RtTaskFn fn, void *ctx) {
  int t = rtNumThreads();
  if (t > n) t = (int)n;
  if (t <= 1) {
    if (n > 0) fn(ctx, 0, n);
    return;
  }
  StrataRtEnv *env = rtCur()->env; /* the caller's state exists for chunk 0 */
  RtPool *pool = &env->pool;
  if (pthread_mutex_trylock(&pool->regionMu) != 0) {
    fn(ctx, 0, n);
    return;
  }
  pthread_mutex_lock(&pool->mu);
  while (pool->started < t) {
    WorkerArg *arg = rtAlloc(env, sizeof *arg); /* the worker's copy, freed at its start */
    if (!arg) break;
    *arg = (WorkerArg){env, pool->started};
    int err = pthread_create(&pool->workers[pool->started], NULL, worker, arg);
    if (err) {
      rtFree(env, arg);
      break;
    }
    if (env == strataRtDefaultEnv()) pthread_detach(pool->workers[pool->started]); /* never joined */
    pool->started++;
  }
  if (pool->started < t) t = pool->started; /* could not start more: use what runs */
  pool->fn = fn;
  pool->ctx = ctx;
  pool->n = n;
  __atomic_store_n(&pool->done, 0, __ATOMIC_RELAXED);
  /* the ticket first: a worker woken by the generation finds it */
  uint64_t gen = pool->generation + 1;
  __atomic_store_n(&pool->ticket, ticketOf(gen, t), __ATOMIC_RELEASE);
  __atomic_store_n(&pool->generation, gen, __ATOMIC_RELEASE);
  pthread_cond_broadcast(&pool->start);
  pthread_mutex_unlock(&pool->mu);
  inRegion = 1;
  claimChunks(pool, gen);
  inRegion = 0;
  for (uint64_t start = rtNowNs(); __atomic_load_n(&pool->done, __ATOMIC_ACQUIRE) < t && rtNowNs() - start < SPIN_NS;)
    for (int i = 0; i < 64; i++) relax();
  if (__atomic_load_n(&pool->done, __ATOMIC_ACQUIRE) < t) {
    pthread_mutex_lock(&pool->mu);
    while (__atomic_load_n(&pool->done, __ATOMIC_ACQUIRE) < t) pthread_cond_wait(&pool->finished, &pool->mu);
    pthread_mutex_unlock(&pool->mu);
  }
  char err[sizeof pool->message];
  bool failed = pool->failed;
  if (failed) memcpy(err, pool->message, sizeof err), pool->failed = 0;
  pthread_mutex_unlock(&pool->regionMu);
  if (failed) rtError("%s", err);
}
