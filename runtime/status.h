/* Runtime errors that return instead of taking the process down, and the
 * runtime environment code runs in (memory and threads).
 *
 *   char err[512];
 *   if (strataRtCall(runCompiledCode, &args, err, sizeof err) != 0)
 *     report(err);   // e.g. "out of memory for a buffer arena"
 *
 * Compiled code and the kernels it calls report bad data (an index out of
 * range) and failed allocations through the runtime; inside strataRtCall
 * (or strataRtCallIn) the call then stops at once and returns -1 with the
 * message. The compiled code is left with a longjmp (it holds no locks and
 * frees nothing itself: the runtime's buffer arenas are rewound, and the
 * buffers the code had allocated through _mlir_memref_to_llvm_alloc and
 * still holds are freed). An error in a chunk of a parallel region
 * of the kernels' thread pool stops that chunk; the region finishes its
 * other chunks and then raises the first message on the calling thread.
 *
 * Where no call is active on the calling thread (compiled code called
 * through its `_mlir_ciface_` symbol directly, not through the AOT header's
 * wrappers, which use strataRtCall) an error has nowhere to return to: the
 * runtime prints it and aborts.
 *
 * Broken internal invariants. These abort (with "strata runtime: internal
 * error: ..." on stderr) whether or not a call is active: they mean the
 * compiler generated a call it never generates, so the state of the
 * compiled code is not trusted to continue or unwind:
 *   - a buffer arena popped out of order, an arena slot outside its arena
 *     (frames.c: strata-buffer-arena's push/pop/slot pairing);
 *   - kernel operands of the wrong rank or layout, or that do not
 *     broadcast: matmul rank < 1 or a non-dense result, conv/pool operands
 *     that are not NCHW/NCW of one rank, group < 1, a bad pool kind or
 *     window, a non-dense conv/pool/softmax/layer-norm result, a bad
 *     softmax/layer-norm axis, scale/bias broadcasting beyond the
 *     normalized dims, an epilogue operand count outside 0..2 or an
 *     addend that does not broadcast to the result, a depthwise or pooling
 *     window over 64 taps (nn-to-kernels checks every one of these before
 *     it emits a call: abi.c, norm.c, view.c);
 *   - im2col packing of an image its windows leave (gemm.c: the
 *     convolution pads a copy first);
 *   - a generated kernel's operands that are not dense, or a negative item
 *     count or scratch size (chunks.c: sparse-to-vector passes its own
 *     allocations and constants).
 * Everything else is an error through the call: bad data, an out-of-range
 * index, a memref rank above STRATA_RT_MAX_RANK, and every failed
 * allocation (arenas, scratch and packing buffers, packed constants, the
 * runtime's per-thread state). */
#ifndef STRATA_RUNTIME_STATUS_H
#define STRATA_RUNTIME_STATUS_H

#include <stddef.h>
#include <stdint.h>
#include "kernels.h"

/* ---- Calls ---- */

/* Runs fn(arg) in the calling thread's current environment (the default
 * environment unless inside strataRtCallIn). Returns 0, or -1 with the
 * runtime's message in `err` (truncated to errSize; `err` may be NULL when
 * errSize is 0) if the code it ran reported an error (an error raised at
 * an op's site starts with the op's location as text and a tab). The
 * message is also kept for strataRtLastError. Calls nest. */
int strataRtCall(void (*fn)(void *), void *arg, char *err, size_t errSize);

/* The message of the most recent failed strataRtCall/strataRtCallIn on the
 * calling thread ("" if none failed yet). Thread-local storage owned by the
 * runtime: valid until the thread's next failed call. */
const char *strataRtLastError(void);

/* The messages of compiled code's run-time checks (strata_rt_index_error,
 * strata_rt_shape_error and its kinds), written into buf: `text` (n bytes)
 * is the check's site, its op's location and a tab. The GPU targets, whose
 * kernels leave the same check's arguments in an error record, report
 * through these, so every target words a failed check alike. */
void strataRtIndexErrorText(char *buf, size_t size, const char *text, int n, int64_t index, int64_t axis,
                            int64_t extent);
void strataRtShapeErrorText(char *buf, size_t size, const char *text, int n, int64_t kind, int64_t operand,
                            int64_t dim, int64_t got, int64_t want);

/* ---- Environments ----
 * An environment owns the memory the runtime allocates for code running
 * in it (buffer arenas, scratch and packing buffers, packed constants, its
 * per-thread state) and the thread pool its kernels use. A process starts
 * with a default environment (malloc, one thread): code run outside any
 * strataRtCallIn, strataRtCall at top level, strataRtSetNumThreads and AOT
 * code all use it. */
typedef struct StrataRtEnv StrataRtEnv;

/* A host allocator in the style of Lua's lua_Alloc: fn(user, NULL, 0, n)
 * allocates n bytes (NULL on failure), fn(user, p, n, 0) frees p, which
 * was allocated with size n (the return value is ignored). The runtime
 * never asks for a resize (ptr and newSize both non-zero). Blocks need
 * only malloc's alignment: the runtime aligns its buffers itself. fn is
 * called from any thread running code in the environment, concurrently:
 * it must be thread-safe. */
typedef void *(*StrataRtAllocFn)(void *user, void *ptr, size_t oldSize, size_t newSize);
typedef struct {
  StrataRtAllocFn fn; /* NULL: malloc and free */
  void *user;
  /* At most this many bytes held from fn at once (0: no cap). A request
   * that would go beyond it fails as out of memory. */
  size_t limit;
} StrataRtAllocator;

/* A new environment allocating through `a` (copied; NULL: malloc, no cap)
 * with `numThreads` threads for the kernels (clamped to 1..64; workers
 * start on first use). The environment itself is allocated through `a`.
 * NULL if out of memory. Destroy it with strataRtEnvDestroy. */
StrataRtEnv *strataRtEnvCreate(const StrataRtAllocator *a, int numThreads);

/* Stops the environment's workers and frees everything it allocated
 * (every thread's arenas and scratch, its packed constants). No call may
 * be running in it. NULL and the default environment are ignored. */
void strataRtEnvDestroy(StrataRtEnv *env);

/* The default environment (process-lifetime; never destroyed). */
StrataRtEnv *strataRtDefaultEnv(void);

/* Like strataRtCall, with `env` the calling thread's environment for the
 * call (restored afterwards; calls nest, also across environments).
 * Returns -1 with a message, without running fn, if the runtime cannot
 * allocate its state for this thread in env. */
int strataRtCallIn(StrataRtEnv *env, void (*fn)(void *), void *arg, char *err, size_t errSize);

/* The kernels' threads in env (>= 1). Set returns the previous value;
 * regions started after it use the new count. */
int strataRtEnvSetNumThreads(StrataRtEnv *env, int n);
int strataRtEnvGetNumThreads(const StrataRtEnv *env);

/* Bytes env currently holds from its allocator. */
size_t strataRtEnvBytesInUse(const StrataRtEnv *env);
/* The most bytes env has held at once since its creation or the last
 * strataRtEnvResetPeak, which sets it to the bytes held now: run code
 * between the two to measure its peak (buffer arenas, the buffers of
 * dynamic size compiled code allocates, scratch). */
size_t strataRtEnvPeakBytes(const StrataRtEnv *env);
void strataRtEnvResetPeak(StrataRtEnv *env);
/* The buffers compiled code has taken from the heap (its memref.allocs
 * that no arena or shape plan serves) since env's creation: their count. */
uint64_t strataRtEnvHeapBuffers(const StrataRtEnv *env);
/* The part of the bytes in use that threads keep from call to call to
 * reuse (buffer arenas, kernel scratch): a call's working memory, though it
 * outlives the call. What is held and not kept (packed constants) lives as
 * long as the environment. */
size_t strataRtEnvKeptBytes(const StrataRtEnv *env);

/* Shape plans (strata-shape-plan, shape_plan.c): a function compiled for
 * dynamic shapes plans the arena of its intermediates once per shape class
 * (the extents of its dynamic arguments) and serves every later call of
 * that class from it. Counted per environment since its creation (or the
 * last reset): plans computed (a call of a class the function had not
 * kept a plan for: it runs on the heap and plans at its end), calls served
 * by a kept plan, buffers such a call still took from the heap (larger
 * than planned: sizes that depend on data), plans evicted from a full
 * cache, and the arena bytes of the last plan computed or used, with the
 * most bytes its buffers have live at one step (the arena's lower bound).
 * Of the plans computed, `rebased` re-evaluated the structure of the
 * function's last searched plan with the class's sizes (no search:
 * strataMemPlanReuse); the others searched (strataMemPlanBest): a
 * function's first class, and a class whose re-evaluated arena would be
 * more than twice its lower bound. `atEntry`
 * were made at a call's entry from the sizes its code computed there
 * (every size following from the class), so that call took its buffers
 * from the plan too; the others at the end of a call that ran on the heap. */
typedef struct {
  uint64_t computed, reused, heapBuffers, evicted, rebased, atEntry;
  int64_t lastArenaBytes, lastLiveBytes;
} StrataRtShapePlanStats;
void strataRtEnvShapePlanStats(const StrataRtEnv *env, StrataRtShapePlanStats *out);
void strataRtEnvResetShapePlanStats(StrataRtEnv *env);
/* Frees the plans kept for the functions of one loaded module: `table` is
 * its `__strata_shape_plans` global (the count, then one cache per
 * function). The JIT calls it before it unloads the code; AOT code that is
 * unloaded should too. NULL is ignored. */
void strataRtShapePlansRelease(int64_t *table);

#endif /* STRATA_RUNTIME_STATUS_H */
