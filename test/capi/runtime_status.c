/* libstrata_rt's error status (runtime/status.h): an error raised in code
 * run through strataRtCall comes back as -1 and a message instead of an
 * abort, from the calling thread, from a chunk of a parallel region on a
 * pool worker or on the caller, and from nested calls; afterwards the
 * buffer arenas are rewound and the pool runs regions again.
 * RUN: %capi/runtime_status 2>&1 | FileCheck %s
 */
#include <stdio.h>
#include <string.h>
#include "kernels.h"
#include "memref.h"
#include "rt_internal.h"
#include "status.h"

void _mlir_ciface_strata_rt_frame_push(StrataMemRefDesc *out, int64_t bytes);
void _mlir_ciface_strata_rt_frame_pop(StrataMemRefDesc *arena);

static void failDirectly(void *arg) {
  StrataMemRefDesc arena;
  _mlir_ciface_strata_rt_frame_push(&arena, 256); /* never popped: the error leaves first */
  rtError("bad data: %d", *(int *)arg);
}

/* Fails in the chunk holding element `*arg` (of 64). */
static void failChunk(void *ctx, int64_t b, int64_t e) {
  int64_t bad = *(const int64_t *)ctx;
  if (bad >= b && bad < e) rtError("chunk [%lld, %lld) failed", (long long)b, (long long)e);
}

static int64_t sum;
static void addChunk(void *ctx, int64_t b, int64_t e) {
  (void)ctx;
  __atomic_add_fetch(&sum, e - b, __ATOMIC_RELAXED);
}

static void region(void *arg) { rtParallelFor(64, failChunk, arg); }

static void nested(void *arg) {
  char err[128];
  int rc = strataRtCall(failDirectly, arg, err, sizeof err);
  printf("inner: %d %s\n", rc, err);
  rtError("outer failed after the inner call returned");
}

static void fine(void *arg) { ++*(int *)arg; }

int main(void) {
  char err[128];
  int value = 7, counter = 0;
  // CHECK: direct: -1 bad data: 7
  int rc = strataRtCall(failDirectly, &value, err, sizeof err);
  printf("direct: %d %s\n", rc, err);
  // The arena pushed by the failed call was rewound: depth 0 again.
  // CHECK: frame depth: 0
  printf("frame depth: %d\n", rtFrameDepth());
  // CHECK: fine: 0 1
  rc = strataRtCall(fine, &counter, err, sizeof err);
  printf("fine: %d %d\n", rc, counter);

  strataRtSetNumThreads(2);
  // Chunk 1 runs on a pool worker, chunk 0 on the caller.
  // CHECK: worker chunk: -1 chunk [32, 64) failed
  int64_t bad = 40;
  rc = strataRtCall(region, &bad, err, sizeof err);
  printf("worker chunk: %d %s\n", rc, err);
  // CHECK: caller chunk: -1 chunk [0, 32) failed
  bad = 3;
  rc = strataRtCall(region, &bad, err, sizeof err);
  printf("caller chunk: %d %s\n", rc, err);
  // CHECK: region after errors: 64
  rtParallelFor(64, addChunk, NULL);
  printf("region after errors: %lld\n", (long long)sum);

  // CHECK: inner: -1 bad data: 7
  // CHECK: outer: -1 outer failed after the inner call returned
  rc = strataRtCall(nested, &value, err, sizeof err);
  printf("outer: %d %s\n", rc, err);
  return 0;
}
