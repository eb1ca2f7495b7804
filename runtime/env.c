/* libstrata_rt environments: the host allocator, per-thread state (arenas,
 * scratch) and the thread pool code runs with. A registry of live
 * environments lets a thread's exit free its state in each of them. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "rt_internal.h"
#include "status.h"

static StrataRtEnv defaultEnv = {
    .id = 1,
    .mu = PTHREAD_MUTEX_INITIALIZER,
    .pool = {.mu = PTHREAD_MUTEX_INITIALIZER,
             .start = PTHREAD_COND_INITIALIZER,
             .finished = PTHREAD_COND_INITIALIZER,
             .threads = 1,
             .started = 1,
             .regionMu = PTHREAD_MUTEX_INITIALIZER},
};

static pthread_mutex_t registryMu = PTHREAD_MUTEX_INITIALIZER;
static StrataRtEnv *registry = &defaultEnv;
static uint64_t nextId = 2;

_Thread_local RtThread *rtCurThread;
/* The last rtThreadFor answer (by id: an environment's address may be
 * reused after it is destroyed, its id never is). */
static _Thread_local uint64_t lastId;
static _Thread_local RtThread *lastThread;

static pthread_key_t exitKey;
static pthread_once_t exitOnce = PTHREAD_ONCE_INIT;

StrataRtEnv *strataRtDefaultEnv(void) { return &defaultEnv; }

/* ---- Memory ---- */

static void *rawAlloc(StrataRtEnv *env, size_t bytes) {
  size_t limit = env->alloc.limit;
  size_t held = __atomic_add_fetch(&env->inUse, bytes, __ATOMIC_RELAXED);
  if ((limit && held > limit) || held < bytes) {
    __atomic_sub_fetch(&env->inUse, bytes, __ATOMIC_RELAXED);
    return NULL;
  }
  void *p = env->alloc.fn ? env->alloc.fn(env->alloc.user, NULL, 0, bytes) : malloc(bytes);
  if (!p) {
    __atomic_sub_fetch(&env->inUse, bytes, __ATOMIC_RELAXED);
    return NULL;
  }
  size_t peak = __atomic_load_n(&env->peak, __ATOMIC_RELAXED);
  while (held > peak && !__atomic_compare_exchange_n(&env->peak, &peak, held, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return p;
}

static void rawFree(StrataRtEnv *env, void *p, size_t bytes) {
  if (env->alloc.fn) env->alloc.fn(env->alloc.user, p, bytes, 0);
  else free(p);
  __atomic_sub_fetch(&env->inUse, bytes, __ATOMIC_RELAXED);
}

/* Each block: [raw ... | raw pointer | total size | 64-byte aligned data]. */
enum { HEADER = 2 * sizeof(void *), SLACK = HEADER + 63 };

void *rtAlloc(StrataRtEnv *env, size_t bytes) {
  if (bytes > SIZE_MAX - SLACK) return NULL;
  size_t total = bytes + SLACK;
  char *raw = rawAlloc(env, total);
  if (!raw) return NULL;
  uintptr_t a = ((uintptr_t)raw + HEADER + 63) & ~(uintptr_t)63;
  void **h = (void **)a;
  h[-2] = raw;
  h[-1] = (void *)(uintptr_t)total;
  return (void *)a;
}

void rtFree(StrataRtEnv *env, void *p) {
  if (!p) return;
  void **h = p;
  rawFree(env, h[-2], (size_t)(uintptr_t)h[-1]);
}

static size_t blockBytes(const void *p) { return p ? (size_t)(uintptr_t)((void *const *)p)[-1] : 0; }

void *rtAllocKept(StrataRtEnv *env, size_t bytes) {
  void *p = rtAlloc(env, bytes);
  __atomic_add_fetch(&env->kept, blockBytes(p), __ATOMIC_RELAXED);
  return p;
}

void rtFreeKept(StrataRtEnv *env, void *p) {
  __atomic_sub_fetch(&env->kept, blockBytes(p), __ATOMIC_RELAXED);
  rtFree(env, p);
}

size_t strataRtEnvKeptBytes(const StrataRtEnv *env) {
  return __atomic_load_n(&(env ? env : &defaultEnv)->kept, __ATOMIC_RELAXED);
}

size_t strataRtEnvBytesInUse(const StrataRtEnv *env) {
  return __atomic_load_n(&(env ? env : &defaultEnv)->inUse, __ATOMIC_RELAXED);
}

size_t strataRtEnvPeakBytes(const StrataRtEnv *env) {
  return __atomic_load_n(&(env ? env : &defaultEnv)->peak, __ATOMIC_RELAXED);
}

uint64_t strataRtEnvHeapBuffers(const StrataRtEnv *env) {
  return __atomic_load_n(&(env ? env : &defaultEnv)->heapBuffers, __ATOMIC_RELAXED);
}

void strataRtEnvResetPeak(StrataRtEnv *env) {
  if (!env) env = &defaultEnv;
  __atomic_store_n(&env->peak, __atomic_load_n(&env->inUse, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
}

/* ---- Buffers compiled code allocates ----
 * finalize-memref-to-llvm{use-generic-functions} makes memref.alloc and
 * memref.dealloc call these instead of malloc and free: the buffers the
 * buffer arena does not plan (dynamic sizes, allocations in loops) come
 * from the current environment, within its cap, and an allocation that
 * fails stops the call with an error instead of a null dereference. */
/* The node sits in a 64-byte prefix, so the data stays 64-byte aligned. */
enum { BLOCK_PREFIX = 64 };
_Static_assert(sizeof(RtBlock) <= BLOCK_PREFIX, "RtBlock fits its prefix");

void *_mlir_memref_to_llvm_alloc(size_t bytes) {
  char *p = bytes <= SIZE_MAX - BLOCK_PREFIX ? rtAlloc(rtCurEnv(), (bytes ? bytes : 1) + BLOCK_PREFIX) : NULL;
  if (!p) rtError("out of memory for a buffer of %zu bytes", bytes);
  rtBlockTrack((RtBlock *)p);
  __atomic_add_fetch(&rtCurEnv()->heapBuffers, 1, __ATOMIC_RELAXED);
  return p + BLOCK_PREFIX;
}

void _mlir_memref_to_llvm_free(void *p) {
  if (!p) return;
  RtBlock *b = (RtBlock *)((char *)p - BLOCK_PREFIX);
  rtBlockUntrack(b);
  rtFree(rtCurEnv(), b);
}

/* ---- Per-thread state ---- */

static void freeThread(StrataRtEnv *env, RtThread *t) {
  for (int i = 0; i < t->count; i++) rtFreeKept(env, t->slots[i].p);
  rtFree(env, t->slots);
  rtScratchFree(t);
  rtFree(env, t);
}

/* A thread exits: its state in every live environment goes. */
static void threadExit(void *unused) {
  (void)unused;
  pthread_t self = pthread_self();
  pthread_mutex_lock(&registryMu);
  for (StrataRtEnv *env = registry; env; env = env->next) {
    pthread_mutex_lock(&env->mu);
    for (RtThread **p = &env->threads; *p;) {
      RtThread *t = *p;
      if (pthread_equal(t->owner, self)) {
        *p = t->next;
        freeThread(env, t);
      } else {
        p = &t->next;
      }
    }
    pthread_mutex_unlock(&env->mu);
  }
  pthread_mutex_unlock(&registryMu);
  rtCurThread = lastThread = NULL;
  lastId = 0;
}

static void makeExitKey(void) { pthread_key_create(&exitKey, threadExit); }

RtThread *rtThreadFor(StrataRtEnv *env) {
  if (lastId == env->id) return lastThread;
  pthread_t self = pthread_self();
  pthread_mutex_lock(&env->mu);
  RtThread *t = env->threads;
  while (t && !pthread_equal(t->owner, self)) t = t->next;
  if (!t && (t = rtAlloc(env, sizeof *t))) {
    memset(t, 0, sizeof *t);
    t->env = env;
    t->owner = self;
    t->next = env->threads;
    env->threads = t;
  }
  pthread_mutex_unlock(&env->mu);
  if (!t) return NULL;
  pthread_once(&exitOnce, makeExitKey);
  pthread_setspecific(exitKey, &exitKey); /* any non-NULL value: the destructor runs */
  lastId = env->id;
  lastThread = t;
  return t;
}

RtThread *rtEnterDefault(void) {
  RtThread *t = rtThreadFor(&defaultEnv);
  if (!t) rtError("out of memory for the runtime's state of this thread");
  return rtCurThread = t;
}

/* ---- Environments ---- */

StrataRtEnv *strataRtEnvCreate(const StrataRtAllocator *a, int numThreads) {
  StrataRtEnv boot = {0};
  if (a) boot.alloc = *a;
  StrataRtEnv *env = rawAlloc(&boot, sizeof *env);
  if (!env) return NULL;
  memset(env, 0, sizeof *env);
  env->alloc = boot.alloc;
  env->inUse = boot.inUse;
  pthread_mutex_init(&env->mu, NULL);
  rtPoolInit(&env->pool, numThreads);
  pthread_mutex_lock(&registryMu);
  env->id = nextId++;
  env->next = registry;
  registry = env;
  pthread_mutex_unlock(&registryMu);
  return env;
}

void strataRtEnvDestroy(StrataRtEnv *env) {
  if (!env || env == &defaultEnv) return;
  rtPoolStop(&env->pool); /* the workers' exits free their own state */
  pthread_mutex_lock(&registryMu);
  for (StrataRtEnv **p = &registry; *p; p = &(*p)->next)
    if (*p == env) {
      *p = env->next;
      break;
    }
  pthread_mutex_unlock(&registryMu);
  rtConstCacheDropEnv(env);
  pthread_mutex_lock(&env->mu);
  for (RtThread *t = env->threads, *next; t; t = next) {
    next = t->next;
    freeThread(env, t);
  }
  env->threads = NULL;
  pthread_mutex_unlock(&env->mu);
  pthread_mutex_destroy(&env->mu);
  if (lastId == env->id) lastId = 0, lastThread = NULL;
  StrataRtEnv boot = *env;
  rawFree(&boot, env, sizeof *env);
}
