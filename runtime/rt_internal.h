/* libstrata_rt internals: the blocked GEMM, its packing sources, the
 * per-ISA microkernels and the thread pool. Not installed. */
#ifndef STRATA_RUNTIME_RT_INTERNAL_H
#define STRATA_RUNTIME_RT_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "kernels.h"
#include "status.h"

/* Monotonic clock in nanoseconds (spin budgets, trace timestamps). */
static inline uint64_t rtNowNs(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Plain C loops the compiler vectorizes for each x86 level, the best
 * picked at load time (winograd.c's transforms). */
#if defined(__x86_64__) && defined(__GNUC__)
#define RT_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define RT_CLONES
#endif

/* A kernel operand decoded from its unranked memref (view.c). */
typedef struct {
  int rank;
  float *data;
  int64_t size[STRATA_RT_MAX_RANK], stride[STRATA_RT_MAX_RANK];
} View;
View rtView(const StrataUnrankedMemRef *m);
/* Strides of v broadcast (numpy, right-aligned) to a shape of `rank` dims:
 * 0 where v lacks the dim or has size 1 (an invariant: it broadcasts). */
void rtBroadcastStrides(const View *v, int rank, const int64_t *size, int64_t *out);
/* dst = the elements of a strided view of `rank` dims (sizes, strides in
 * elements) in row-major order. */
void rtGather(float *dst, const float *src, int rank, const int64_t *size, const int64_t *stride);

/* A strided matrix view: element (i, j) at p[i * rs + j * cs]. `constant`:
 * the compiler guarantees the data never changes while the code is loaded
 * (a weight), so its packed form is cached (rtPackedConstant). */
typedef struct {
  const float *p;
  int64_t rs, cs;
  bool constant;
} RtMat;

/* An epilogue addend, broadcast to the output: element (m, n) at
 * p[m * sm + (n / W) * sh + (n % W) * sw], where W is RtEpilogue.W (conv
 * outputs flatten (oh, ow) into n; matmul uses W = N, sh = 0). */
typedef struct {
  const float *p;
  int64_t sm, sh, sw;
  float beta;
} RtAddend;

typedef struct {
  float alpha;
  int nadd;
  RtAddend add[2];
  int64_t W;
  int act;
  float lo, hi;
} RtEpilogue;

/* Implicit im2col of one image and one channel group: B(k, n) with
 * k = (c, i, j) over C x KH x KW and n = (oh, ow) over OH x OW; with
 * xscale, channel c of the image is scaled by xscale[c * xss]. */
typedef struct {
  const float *x;
  int64_t C, H, W, cs, hs, ws;
  int64_t KH, KW, sh, sw, ph, pw, dh, dw, OH, OW;
  const float *xscale;
  int64_t xss;
} RtConvGeom;

/* The B operand of a GEMM: a strided matrix (its rows optionally scaled),
 * or an image seen through im2col. */
typedef struct {
  RtMat mat;
  const RtConvGeom *conv;
  const float *rowScale; /* with mat: B(k, n) = mat(k, n) * rowScale[k * rss] */
  int64_t rss;
} RtBSrc;

/* C[M, N] (row stride ldc, unit column stride) = epilogue(A[M, K] * B[K, N]),
 * split over the thread pool when `parallel` (serial inside a region). */
void rtGemm(int64_t M, int64_t N, int64_t K, RtMat A, RtBSrc B, float *C, int64_t ldc,
            const RtEpilogue *ep, bool parallel);

/* The same for 2 <= M <= RT_FEW_ROWS rows through the ISA's fewRows
 * (B read unpacked); false, computing nothing, where it does not apply (M
 * out of range: one row is rtGemm's GEMV, im2col or scaled B, a non-constant B without unit column
 * stride). */
bool rtGemmFewRows(int64_t M, int64_t N, int64_t K, RtMat A, RtBSrc B, float *C, int64_t ldc,
                   const RtEpilogue *ep, bool parallel);

/* A microkernel computes the MR x NR tile sum_k a[k*MR + i] * b[k*NR + j]
 * and stores it to c (row stride ldc), adding to c when `accumulate`. With
 * `ep`, the tile is at (m0, n0) and gets the epilogue in registers before
 * the store (only when each addend is per row, a unit-stride run within
 * one addend row, or dense over the tile's rows: see gemm.c). */
typedef void (*RtMicroKernel)(int64_t kc, const float *a, const float *b, float *c, int64_t ldc,
                              int accumulate, const RtEpilogue *ep, int64_t m0, int64_t n0);
/* Applies the epilogue to the mr x nr tile of C at (m0, n0); c points at it. */
typedef void (*RtEpilogueFn)(float *c, int64_t ldc, int64_t m0, int64_t n0, int64_t mr, int64_t nr,
                             const RtEpilogue *ep);
/* One output row of a depthwise window: y[o] = sum over t < ntaps of
 * w[t] * taps[t][o], o < n (each tap a contiguous run). */
typedef void (*RtWindowRowFn)(float *y, const float *const *taps, const float *w, int64_t ntaps,
                              int64_t n);

/* Softmax (logForm: log-softmax) of a contiguous row of n floats. */
typedef void (*RtSoftmaxRowFn)(const float *x, float *y, int64_t n, int logForm);

/* A per-channel sliding window over one image: depthwise convolution (one
 * input channel per output channel; weights [C][KH][KW], strides wcs, whs,
 * wws; ep's addends based at this image with m the channel), max pooling
 * or average pooling (w and ep NULL; peh/pew the trailing pads and
 * countPads count_include_pad, for the divisor). x [C][H][W] (strides xcs,
 * xhs, xws), y [C][OH][OW] with channel stride ycs and dense planes; ph/pw
 * are the leading pads. A group function computes channels [c0, c0 + VW)
 * (fewer at the end), VW being half the ISA's NR. */
enum { RT_WINDOW_CONV = 0, RT_WINDOW_MAX = 1, RT_WINDOW_AVERAGE = 2 };
typedef struct {
  int kind;
  const float *x;
  int64_t C, H, W, xcs, xhs, xws;
  const float *w;
  int64_t wcs, whs, wws, KH, KW, sh, sw, ph, pw, dh, dw;
  float *y;
  int64_t ycs, OH, OW;
  const RtEpilogue *ep;
  int64_t peh, pew;
  bool countPads;
} RtDepthwise;
typedef void (*RtDepthwiseGroupFn)(const RtDepthwise *p, int64_t c0);
void generic_depthwiseGroup(const RtDepthwise *p, int64_t c0);
void avx2_depthwiseGroup(const RtDepthwise *p, int64_t c0);
void avx512_depthwiseGroup(const RtDepthwise *p, int64_t c0);

/* The grouped direct convolution's tile (grouped.c): outputs q in
 * [0, npx) rounded up to the ISA's pixel block (at most RT_GROUPED_MAXR
 * more), of all Mg output channels of one group, tile[q * MgP + m] =
 * sum over c < Cg and t < taps of plane[c * P + toff[t] + q] *
 * w[(c * taps + t) * MgP + m]; plane is a phase-split input (below), w the
 * group's packed weights (MgP: Mg rounded up to the vector width, zeros
 * past Mg). */
enum { RT_GROUPED_MAXR = 16, RT_GROUPED_MAXTAPS = 64 };
typedef void (*RtGroupedTileFn)(const float *plane, int64_t P, int64_t Cg, const int64_t *toff, int64_t taps,
                                const float *w, int64_t MgP, float *tile, int64_t npx);
void generic_groupedTile(const float *plane, int64_t P, int64_t Cg, const int64_t *toff, int64_t taps,
                         const float *w, int64_t MgP, float *tile, int64_t npx);
void avx2_groupedTile(const float *plane, int64_t P, int64_t Cg, const int64_t *toff, int64_t taps,
                      const float *w, int64_t MgP, float *tile, int64_t npx);
void avx512_groupedTile(const float *plane, int64_t P, int64_t Cg, const int64_t *toff, int64_t taps,
                        const float *w, int64_t MgP, float *tile, int64_t npx);

/* C[m, n] (row stride ldc) = A[m, K] (strides ars, acs) * B[K, n] (row
 * stride brs, unit columns) for 1 <= m <= RT_FEW_ROWS (fewrows.c). */
enum { RT_FEW_ROWS = 8 };
typedef void (*RtFewRowsFn)(int64_t m, int64_t n, int64_t K, const float *a, int64_t ars, int64_t acs,
                            const float *b, int64_t brs, float *c, int64_t ldc);
void generic_fewRows(int64_t m, int64_t n, int64_t K, const float *a, int64_t ars, int64_t acs, const float *b,
                     int64_t brs, float *c, int64_t ldc);
void avx2_fewRows(int64_t m, int64_t n, int64_t K, const float *a, int64_t ars, int64_t acs, const float *b,
                  int64_t brs, float *c, int64_t ldc);
void avx512_fewRows(int64_t m, int64_t n, int64_t K, const float *a, int64_t ars, int64_t acs, const float *b,
                    int64_t brs, float *c, int64_t ldc);

typedef struct {
  const char *name;
  int mr, nr;
  RtMicroKernel kernel;
  RtEpilogueFn epilogue;
  RtWindowRowFn windowRow;
  RtSoftmaxRowFn softmaxRow;
  RtDepthwiseGroupFn depthwiseGroup;
  void (*axpy)(float *y, const float *x, float a, int64_t n);   /* y += a * x */
  float (*dot)(const float *a, const float *b, int64_t n);      /* sum a * b */
  /* y = (x - mean) / sqrt(var + eps) * scale (+ bias) over one row. */
  void (*layerNormRow)(const float *x, float *y, const float *scale, const float *bias, int64_t n,
                       float eps);
  RtGroupedTileFn groupedTile;
  /* The sum (max: NaN-propagating) of a contiguous row of n floats. */
  float (*sumRow)(const float *x, int64_t n);
  float (*maxRow)(const float *x, int64_t n);
  RtFewRowsFn fewRows;
  /* The epilogue's activation (ep->act, any) on a contiguous run of n
   * floats, in place. */
  void (*actRow)(float *row, int64_t n, const RtEpilogue *ep);
  /* A full NR-wide B panel of kc unit-stride rows (row stride rs), row k
   * scaled by scale[k * ss]: dst[k * NR + j] = src[k * rs + j] * scale[k * ss]. */
  void (*scaledPanel)(float *dst, const float *src, int64_t rs, int64_t kc, const float *scale, int64_t ss);
  /* dst[t] = src[2 * t] for t < n, reading src[0 .. 2n - 1]. */
  void (*copyStride2)(float *dst, const float *src, int64_t n);
  /* The microkernel's product on a partial tile: its first mr (1..MR)
   * rows and nv (1 or 2) vectors of NR / 2 columns, stored (added to c
   * when `accumulate`) only there; no epilogue. */
  void (*kernelPart)(int64_t kc, const float *a, const float *b, float *c, int64_t ldc, int accumulate, int mr,
                     int nv);
} RtIsa;

const RtIsa *rtIsa(void);

/* A zero-padded input plane split by row and column phase (phases.c):
 * padded row r (counted from a band's first padded row r0) and column q
 * at ((r % sh * sw + q % sw) * Hq + r / sh) * Wq + q / sw, so that output
 * (oh, ow) of the band, placed at oh * Wq + ow, reads window tap (i, j)
 * at a fixed offset (rtPhaseTapOffset(i * dh, j * dw)): each tap is one
 * contiguous run over the outputs (the Wq - OW columns past each row are
 * computed and dropped). */
typedef struct {
  int64_t H, W, hs, ws, sh, sw, ph, pw;
  int64_t Hp, Hq, Wq, size; /* padded rows read; phase extents; floats */
} RtPhasePlane;
/* The plane for `rows` output rows of the convolution g. */
RtPhasePlane rtPhasePlaneOf(const RtConvGeom *g, int64_t rows);
/* Fills pad (pp->size floats) from the input plane x (strides hs, ws),
 * the band starting at padded row r0. */
void rtFillPhasePlane(float *pad, const RtPhasePlane *pp, const float *x, int64_t r0);
int64_t rtPhaseTapOffset(const RtPhasePlane *pp, int64_t r0, int64_t q0);

/* Grouped convolution without im2col (grouped.c), for groups of a few
 * channels: one image, x [G * Cg][H][W] in g (g.C = Cg), weights w
 * [G * Mg][Cg][KH][KW] (dense, constW: cacheable), y [G * Mg][OH][OW]
 * with channel stride ycs and dense planes; ep based at this image with m
 * from 0. rtGroupedPack packs the weights for the current ISA (cached
 * when constant); rtGroupedBand computes output rows [oh0, oh1) of
 * group gi, epilogue included. */
typedef struct {
  RtConvGeom g;
  int64_t G, Mg, MgP;
  const float *w;  /* dense weights */
  bool constW;
  const float *wp; /* packed: [G][Cg][KH * KW][MgP] */
  float *y;
  int64_t ycs;
  const RtEpilogue *ep;
} RtGrouped;
/* Sets p->wp (and MgP); false if out of memory. */
bool rtGroupedPack(RtGrouped *p);
void rtGroupedBand(const RtGrouped *p, int64_t gi, int64_t oh0, int64_t oh1);
/* Output rows per band: a band's input rows fit in the L2 cache. */
int64_t rtGroupedBandRows(const RtConvGeom *g);

/* Winograd F(2x2, 3x3) for one image of a 3x3, stride-1, dilation-1,
 * ungrouped convolution: x [C][H][W] (strides xcs, xhs, xws), dense
 * weights w [M][C][3][3], y [M][OH][OW] with channel stride ycs and dense
 * rows; ep's addends are based at this image with m from 0 and W = OW.
 * False (nothing written) if out of memory. */
typedef struct {
  const float *x;
  int64_t C, H, W, xcs, xhs, xws;
  const float *w;
  bool constW;
  int64_t M;
  float *y;
  int64_t ycs, OH, OW, ph, pw;
  const RtEpilogue *ep;
} RtWinograd;
bool rtWinogradConv3x3(const RtWinograd *p);

/* A buffer of `floats` floats derived from the constant at `src` (kind and
 * key[0..6) say how): fill(dst, ctx) computes it on the first request; later
 * requests get the same buffer until strataRtReleasePackedConstants. NULL if
 * out of memory. */
typedef void (*RtDeriveFn)(float *dst, const void *ctx);
const float *rtConstCacheGet(char kind, const void *src, const int64_t key[6], size_t floats,
                             RtDeriveFn fill, const void *ctx);

/* Thread pool: runs fn(ctx, begin, end) over a split of [0, n) into at
 * most the current environment's number of chunks; serial when nested or
 * single. */
typedef void (*RtTaskFn)(void *ctx, int64_t begin, int64_t end);
void rtParallelFor(int64_t n, RtTaskFn fn, void *ctx);
int rtNumThreads(void);

/* The calling thread's scratch buffer `which` (0..10: GEMM B and A panels,
 * depthwise plane, dense weights, depthwise output, Winograd U, V, M, swapped GEMM result,
 * generated kernels' chunks, grouped weights packed per call) of at least `floats`
 * floats, 64-byte aligned, from the current environment; NULL if out of
 * memory. Asking again for a slot gets the same memory while it is large
 * enough (its contents kept), else new memory. The slots are carved from
 * one buffer per thread, kept between calls (scratch.c): they live until
 * the kernel that took them is over (rtScratchKernelStart of the next
 * one, the end of a parallel region's chunk or of a strataRtCall), so
 * kernels share the buffer and it is as large as the most one kernel
 * takes at once, not the sum of every slot's largest size. */
float *rtScratch(int which, size_t floats);

/* ---- Errors (status.c; status.h lists which sites are which) ---- */
/* Bad data or a failed allocation, printf-style: inside strataRtCall it
 * leaves the compiled code with the message (from a parallel region's
 * chunk, once the region is over); elsewhere it prints the message and
 * aborts (no caller to return to). */
_Noreturn void rtError(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A broken internal invariant (a call the compiler never generates):
 * prints "strata runtime: internal error: ..." and aborts, always. */
_Noreturn void rtInvariant(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* True on a thread running a chunk of a parallel region (threadpool.c). */
bool rtInParallelRegion(void);
/* The buffers compiled code allocates (_mlir_memref_to_llvm_alloc) carry
 * this node in front of their data. While a call is active they are listed
 * on the innermost call's guard, so an error exit frees the ones the code
 * still holds; a call that returns hands what is left to the call around
 * it (or lists it nowhere). Untracking an unlisted node does nothing. */
typedef struct RtBlock {
  struct RtBlock *next, **pprev; /* pprev NULL: listed nowhere */
} RtBlock;
void rtBlockTrack(RtBlock *b);
void rtBlockUntrack(RtBlock *b);

/* ---- Environments (env.c; the public side is in status.h) ---- */
#define RT_MAX_THREADS 64
#define RT_SCRATCH_SLOTS 11

typedef struct {
  void *p;
  int64_t cap;
} RtSlot;

/* One mapped scratch slot: p NULL when unmapped; [at, at + bytes) in the
 * thread's scratch stack (scratch.c). */
typedef struct {
  char *p;
  size_t at, bytes;
} RtScratchSlot;

typedef struct RtScratchExtra RtScratchExtra;

/* The scratch stack's state, also a mark to return to: its top (bytes
 * taken, counting those that did not fit the buffer), the blocks taken
 * beside the buffer when it was too small (newest first) and the slots. */
typedef struct {
  size_t top;
  RtScratchExtra *extra;
  RtScratchSlot slot[RT_SCRATCH_SLOTS];
} RtScratchMark;

/* A thread's scratch: one kept buffer of `cap` bytes, regrown to `high`
 * (the most the stack has held) whenever the stack is empty again. */
typedef struct {
  char *base;
  size_t cap, high;
  RtScratchMark cur;
} RtScratch;

/* One thread's state in one environment: its buffer-arena stack
 * (frames.c) and scratch buffers (threadpool.c), allocated from the
 * environment; freed when the thread exits or the environment is
 * destroyed. */
typedef struct RtThread {
  struct StrataRtEnv *env;
  pthread_t owner;
  struct RtThread *next; /* the environment's list */
  RtSlot *slots;
  int depth, count;
  RtScratch scratch;
} RtThread;

/* An environment's thread pool (threadpool.c): persistent workers, one
 * region at a time. */
typedef struct RtPool {
  pthread_mutex_t mu;
  pthread_cond_t start, finished;
  int threads, started, stop;
  uint64_t generation; /* bumped per region (and to stop): wakes the workers */
  uint64_t ticket;     /* the region's claim word: generation, chunks, next chunk */
  int done;            /* chunks of the region finished */
  int64_t n;
  RtTaskFn fn;
  void *ctx;
  pthread_mutex_t regionMu; /* held by the thread running a region */
  int failed;               /* the region's first chunk error */
  char message[512];
  pthread_t workers[RT_MAX_THREADS];
} RtPool;

struct StrataRtEnv {
  StrataRtAllocator alloc;
  size_t inUse; /* bytes held from alloc (atomic) */
  size_t peak;  /* the most inUse has been since the last reset (atomic) */
  size_t kept;  /* the part of inUse threads keep for reuse (atomic) */
  uint64_t heapBuffers; /* memref.allocs served from the heap (atomic) */
  uint64_t id;  /* unique, never reused */
  pthread_mutex_t mu;
  RtThread *threads;
  struct StrataRtEnv *next; /* the registry of live environments */
  RtPool pool;
  StrataRtShapePlanStats plans; /* shape_plan.c (atomic fields) */
};

/* The calling thread's state in its current environment: set by
 * strataRtCallIn for a call, by a pool worker for its life, and else (the
 * default environment) on first use. */
extern _Thread_local RtThread *rtCurThread;
RtThread *rtEnterDefault(void);
static inline RtThread *rtCur(void) {
  RtThread *t = rtCurThread;
  return __builtin_expect(t != NULL, 1) ? t : rtEnterDefault();
}
static inline StrataRtEnv *rtCurEnv(void) {
  RtThread *t = rtCurThread;
  return t ? t->env : strataRtDefaultEnv();
}
/* The calling thread's state in env, created on first use; NULL if out of
 * memory. */
RtThread *rtThreadFor(StrataRtEnv *env);
/* `bytes` from env's allocator, 64-byte aligned; NULL if out of memory or
 * beyond the cap. Free with rtFree on the same environment. */
void *rtAlloc(StrataRtEnv *env, size_t bytes);
void rtFree(StrataRtEnv *env, void *p);
/* The same for the buffers a thread keeps from call to call for reuse
 * (buffer arena slots, kernel scratch): they also count as kept bytes
 * (strataRtEnvKeptBytes), so a measurement can tell them from what lives
 * longer than a call (packed constants). */
void *rtAllocKept(StrataRtEnv *env, size_t bytes);
void rtFreeKept(StrataRtEnv *env, void *p);
/* The calling thread's buffer-arena stack depth, and a rewind of t's to it
 * (frames.c). */
int rtFrameDepth(void);
void rtFrameRewind(RtThread *t, int depth);
/* The scratch stack (scratch.c): t's state now, to return to with
 * rtScratchRelease (which frees what was taken since and restores the
 * slots); rtScratchKernelStart, at the entry of the kernels compiled code
 * calls, releases what the kernels before it took since the innermost
 * strataRtCall (or chunk) began; rtScratchFree frees t's scratch (its
 * thread exits or its environment goes). */
RtScratchMark rtScratchMarkOf(const RtThread *t);
void rtScratchRelease(RtThread *t, const RtScratchMark *m);
void rtScratchKernelStart(void);
void rtScratchFree(RtThread *t);
/* The scratch mark of the innermost strataRtCall on this thread when it
 * runs on t's state, else NULL (status.c). */
const RtScratchMark *rtGuardScratchMark(const RtThread *t);
/* Pool and cache hooks of an environment's life. */
void rtPoolInit(RtPool *pool, int threads);
void rtPoolStop(RtPool *pool);
void rtConstCacheDropEnv(StrataRtEnv *env);

#endif /* STRATA_RUNTIME_RT_INTERNAL_H */
