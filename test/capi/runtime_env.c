/* libstrata_rt environments (runtime/status.h): memory from a host
 * allocator (counted here), a cap that turns a buffer arena beyond it into
 * an error message, per-environment thread pools of different sizes, calls
 * nested across environments, a thread's state freed when it exits, and
 * everything returned to the allocator when the environment is destroyed
 * (ASan's leak check sees the rest).
 * RUN: %capi/runtime_env 2>&1 | FileCheck %s
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "kernels.h"
#include "memref.h"
#include "rt_internal.h"
#include "status.h"

typedef struct {
  long allocs, frees;
  size_t live;
} Counter;

static void *countingAlloc(void *user, void *ptr, size_t oldSize, size_t newSize) {
  Counter *c = user;
  if (newSize == 0) {
    __atomic_add_fetch(&c->frees, 1, __ATOMIC_RELAXED);
    __atomic_sub_fetch(&c->live, oldSize, __ATOMIC_RELAXED);
    free(ptr);
    return NULL;
  }
  void *p = malloc(newSize);
  if (p) {
    __atomic_add_fetch(&c->allocs, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&c->live, newSize, __ATOMIC_RELAXED);
  }
  return p;
}

static void pushPop(void *arg) {
  StrataMemRefDesc arena;
  _mlir_ciface_strata_rt_frame_push(&arena, *(int64_t *)arg);
  memset(arena.aligned, 1, (size_t)*(int64_t *)arg);
  _mlir_ciface_strata_rt_frame_pop(&arena);
}

/* Records which threads ran chunks of a region (up to 64 distinct). Chunks
 * are claimed, so a fast caller could run them all: each chunk waits (up to
 * two seconds) until `*want` threads have shown up, which gives every
 * worker time to claim one. */
static pthread_t seen[64];
static int numSeen;
static pthread_mutex_t seenMu = PTHREAD_MUTEX_INITIALIZER;
static void noteThread(void *ctx, int64_t b, int64_t e) {
  (void)b, (void)e;
  float *s = rtScratch(0, 4096); /* from the worker's environment */
  if (!s) rtError("no scratch");
  s[0] = 1;
  pthread_mutex_lock(&seenMu);
  int known = 0;
  for (int i = 0; i < numSeen; i++) known |= pthread_equal(seen[i], pthread_self());
  if (!known && numSeen < 64) seen[numSeen++] = pthread_self();
  pthread_mutex_unlock(&seenMu);
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do {
    sched_yield();
    clock_gettime(CLOCK_MONOTONIC, &t);
  } while (__atomic_load_n(&numSeen, __ATOMIC_ACQUIRE) < *(const int *)ctx && t.tv_sec - t0.tv_sec < 2);
}
static void region(void *arg) {
  (void)arg;
  numSeen = 0;
  int want = rtNumThreads();
  rtParallelFor(64, noteThread, &want);
  printf("threads %d, distinct chunk threads %d\n", rtNumThreads(), numSeen);
}

/* A constant-B matmul: its packed B lands in the constant cache, from the
 * calling environment. */
static void matmul(void *arg) {
  (void)arg;
  static float a[32 * 32], b[32 * 32], y[32 * 32];
  for (int i = 0; i < 32 * 32; i++) a[i] = 1.0f, b[i] = 0.5f;
  StrataMemRefDesc da, db, dy;
  int64_t dims[2] = {32, 32};
  strataRtMemRefInit(&da, a, 2, dims);
  strataRtMemRefInit(&db, b, 2, dims);
  strataRtMemRefInit(&dy, y, 2, dims);
  StrataUnrankedMemRef ua = {2, &da}, ub = {2, &db}, uy = {2, &dy};
  _mlir_ciface_strata_rt_matmul_f32(&ua, &ub, &uy, &uy, &uy, 0, 0, 2, 0, 1.0f, 0.0f, 0.0f, 0, 0.0f, 0.0f);
  printf("matmul y[0] = %g\n", y[0]);
}

static StrataRtEnv *failEnv;
static void failInner(void *arg) {
  (void)arg;
  rtError("inner error in a %d-thread environment", rtNumThreads());
}
static void outer(void *arg) {
  (void)arg;
  char err[128];
  int rc = strataRtCallIn(failEnv, failInner, NULL, err, sizeof err);
  printf("inner: %d %s\n", rc, err);
  printf("outer threads after the inner call: %d\n", rtNumThreads());
}

/* What compiled code does with buffers of dynamic size: allocate, free
 * some, and (here) stop with an error while it holds the others. */
static void allocThenFail(void *arg) {
  void *a = _mlir_memref_to_llvm_alloc(1000), *b = _mlir_memref_to_llvm_alloc(3000);
  _mlir_memref_to_llvm_alloc(5000);
  memset(a, 1, 1000);
  _mlir_memref_to_llvm_free(a);
  if (arg) rtError("stopped holding %d buffers", 2);
  _mlir_memref_to_llvm_free(b);
}
/* An inner call that returns still holding a block hands it to the outer
 * call, whose error exit frees it. */
static void *handed;
static void allocKeep(void *arg) {
  (void)arg;
  handed = _mlir_memref_to_llvm_alloc(7000);
}
static void nestedThenFail(void *arg) {
  char err[64];
  int rc = strataRtCall(allocKeep, NULL, err, sizeof err);
  if (arg) rtError("outer stopped after the inner call returned %d", rc);
  _mlir_memref_to_llvm_free(handed);
}
/* A chunk of a parallel region allocating and failing. */
static void chunkAllocFail(void *ctx, int64_t b, int64_t e) {
  void *p = _mlir_memref_to_llvm_alloc(4096);
  if (ctx && b <= 1 && 1 < e) rtError("the chunk of item 1 stopped");
  _mlir_memref_to_llvm_free(p);
}
static void regionAllocFail(void *arg) { rtParallelFor(4, chunkAllocFail, arg); }

static void *threadBody(void *env) {
  int64_t bytes = 1 << 20;
  char err[128];
  if (strataRtCallIn(env, pushPop, &bytes, err, sizeof err) != 0) printf("thread: %s\n", err);
  return NULL;
}

int main(void) {
  char err[256];
  Counter c = {0};
  StrataRtAllocator alloc = {countingAlloc, &c, 0};
  StrataRtEnv *env = strataRtEnvCreate(&alloc, 1);
  // CHECK: env allocated through the hook: 1
  printf("env allocated through the hook: %d\n", c.allocs > 0 && c.live == strataRtEnvBytesInUse(env));
  int64_t bytes = 1 << 20;
  // CHECK: push/pop 1 MiB: 0, arena from the hook: 1
  long before = c.allocs;
  int rc = strataRtCallIn(env, pushPop, &bytes, err, sizeof err);
  printf("push/pop 1 MiB: %d, arena from the hook: %d\n", rc, c.live >= (size_t)bytes && c.allocs > before);
  // The default environment did not pay for it.
  // CHECK: default env holds under 1 MiB: 1
  printf("default env holds under 1 MiB: %d\n", strataRtEnvBytesInUse(strataRtDefaultEnv()) < (size_t)bytes);

  // A thread using env and exiting gives its state back.
  // CHECK: thread state freed at exit: 1
  size_t held = strataRtEnvBytesInUse(env);
  pthread_t th;
  pthread_create(&th, NULL, threadBody, env);
  pthread_join(th, NULL);
  printf("thread state freed at exit: %d\n", strataRtEnvBytesInUse(env) == held);

  // CHECK: matmul y[0] = 16
  // CHECK: packed constant from the hook: 1
  held = strataRtEnvBytesInUse(env);
  rc = strataRtCallIn(env, matmul, NULL, err, sizeof err);
  printf("packed constant from the hook: %d\n", rc == 0 && strataRtEnvBytesInUse(env) > held);

  // Buffers compiled code holds when an error stops it are freed; what a
  // successful call frees itself is unchanged.
  held = strataRtEnvBytesInUse(env);
  // CHECK: error exit: -1 stopped holding 2 buffers, bytes back: 1
  rc = strataRtCallIn(env, allocThenFail, &rc, err, sizeof err);
  printf("error exit: %d %s, bytes back: %d\n", rc, err, strataRtEnvBytesInUse(env) == held);
  // CHECK: nested error exit: -1 outer stopped after the inner call returned 0, bytes back: 1
  rc = strataRtCallIn(env, nestedThenFail, &rc, err, sizeof err);
  printf("nested error exit: %d %s, bytes back: %d\n", rc, err, strataRtEnvBytesInUse(env) == held);
  // CHECK: nested, no error: 0, bytes back: 1
  rc = strataRtCallIn(env, nestedThenFail, NULL, err, sizeof err);
  printf("nested, no error: %d, bytes back: %d\n", rc, strataRtEnvBytesInUse(env) == held);
  strataRtEnvDestroy(env);
  // CHECK: destroyed: every allocation freed: 1, bytes live 0
  printf("destroyed: every allocation freed: %d, bytes live %zu\n", c.allocs == c.frees, c.live);

  // A cap: an arena beyond it is an error, and the call after it works.
  Counter capped = {0};
  StrataRtAllocator capAlloc = {countingAlloc, &capped, 1 << 20};
  env = strataRtEnvCreate(&capAlloc, 1);
  bytes = 4 << 20;
  // CHECK: beyond the cap: -1 out of memory for a buffer arena of 4194304 bytes
  rc = strataRtCallIn(env, pushPop, &bytes, err, sizeof err);
  printf("beyond the cap: %d %s\n", rc, err);
  // CHECK: last error: out of memory for a buffer arena of 4194304 bytes
  printf("last error: %s\n", strataRtLastError());
  // CHECK: within the cap: 0, held <= cap: 1
  bytes = 256 << 10;
  rc = strataRtCallIn(env, pushPop, &bytes, err, sizeof err);
  printf("within the cap: %d, held <= cap: %d\n", rc, strataRtEnvBytesInUse(env) <= (1 << 20));
  // A cap too small for the environment itself.
  StrataRtAllocator tiny = {countingAlloc, &capped, 64};
  // CHECK: env beyond its cap: NULL
  printf("env beyond its cap: %s\n", strataRtEnvCreate(&tiny, 1) ? "created" : "NULL");
  strataRtEnvDestroy(env);
  // CHECK: capped env destroyed: 1
  printf("capped env destroyed: %d\n", capped.allocs == capped.frees && capped.live == 0);

  // Per-environment pools: one and three threads, used at once.
  Counter pc = {0};
  StrataRtAllocator poolAlloc = {countingAlloc, &pc, 0};
  StrataRtEnv *one = strataRtEnvCreate(&poolAlloc, 1), *three = strataRtEnvCreate(&poolAlloc, 3);
  // CHECK: threads 1, distinct chunk threads 1
  strataRtCallIn(one, region, NULL, err, sizeof err);
  // CHECK: threads 3, distinct chunk threads 3
  strataRtCallIn(three, region, NULL, err, sizeof err);
  // CHECK: counts: one 1, three 3, default 1
  printf("counts: one %d, three %d, default %d\n", strataRtEnvGetNumThreads(one),
         strataRtEnvGetNumThreads(three), strataRtGetNumThreads());
  // Nested across environments: the inner error stays inside.
  failEnv = three;
  // CHECK: inner: -1 inner error in a 3-thread environment
  // CHECK: outer threads after the inner call: 1
  rc = strataRtCallIn(one, outer, NULL, err, sizeof err);
  // CHECK: outer: 0
  printf("outer: %d\n", rc);
  strataRtEnvDestroy(three);
  strataRtEnvDestroy(one);
  // CHECK: pool envs destroyed, workers' scratch freed: 1
  printf("pool envs destroyed, workers' scratch freed: %d\n", pc.allocs == pc.frees && pc.live == 0);

  // A failing chunk of a parallel region: its block is freed too (after a
  // first region has set up the workers' state).
  StrataRtEnv *two = strataRtEnvCreate(&poolAlloc, 2);
  rc = strataRtCallIn(two, regionAllocFail, NULL, err, sizeof err);
  held = strataRtEnvBytesInUse(two);
  // CHECK: region error: -1 the chunk of item 1 stopped, bytes back: 1
  int rc3 = strataRtCallIn(two, regionAllocFail, &rc, err, sizeof err);
  printf("region error: %d %s, bytes back: %d\n", rc3, err, rc == 0 && strataRtEnvBytesInUse(two) == held);
  strataRtEnvDestroy(two);

  // The default environment still works (strataRtCall, two threads).
  // CHECK: threads 2, distinct chunk threads 2
  strataRtSetNumThreads(2);
  rc = strataRtCall(region, NULL, err, sizeof err);
  strataRtSetNumThreads(1);
  return rc;
}
