/* libstrata_rt compute kernels: what `--nn-to-kernels` calls from compiled
 * code (JIT and AOT). Every tensor argument is an unranked memref (MLIR's
 * C interface: {rank, descriptor*}, passed by pointer), so one entry point
 * serves every rank, layout and broadcast. f32 only.
 *
 * Epilogue, fused into the kernels' output tiles:
 *   y = act(alpha * acc + beta0 * add0 + beta1 * add1)
 * where add0/add1 (the first `nadd` of them) broadcast to y numpy-style and
 * act is STRATA_RT_ACT_*; clip uses [lo, hi]. */
#ifndef STRATA_RUNTIME_KERNELS_H
#define STRATA_RUNTIME_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "memref.h"
#include "kernel_abi.h"

typedef struct {
  int64_t rank;
  void *descriptor; /* StrataMemRefDesc with `rank` sizes and strides */
} StrataUnrankedMemRef;

/* A generated kernel's chunk (strata_rt_parallel_chunks): MLIR's expanded
 * calling convention for (memref<?xf32> x 4, index, index) -> (), each
 * 1-D memref as {allocated, aligned, offset, size, stride}. */
typedef void (*StrataRtChunkFn)(float *, float *, int64_t, int64_t, int64_t, float *, float *, int64_t, int64_t,
                                int64_t, float *, float *, int64_t, int64_t, int64_t, float *, float *, int64_t,
                                int64_t, int64_t, int64_t, int64_t);

/* relu: v <= 0 ? 0 : v; clip: to [lo, hi]; sigmoid: 1 / (1 + e^-v); silu:
 * v * sigmoid(v); hard-swish: v * clip(v / 6 + 1/2, 0, 1); gelu:
 * v/2 * (1 + erf(v / sqrt 2)); gelu-tanh: v/2 * (1 + tanh(sqrt(2/pi) *
 * (v + 0.044715 v^3))) (NaN propagates through each). */
enum {
  STRATA_RT_ACT_NONE = 0,
  STRATA_RT_ACT_RELU = 1,
  STRATA_RT_ACT_CLIP = 2,
  STRATA_RT_ACT_SIGMOID = 3,
  STRATA_RT_ACT_SILU = 4,
  STRATA_RT_ACT_HARDSWISH = 5,
  STRATA_RT_ACT_GELU = 6,
  STRATA_RT_ACT_GELU_TANH = 7
};

/* The integer kernels' flags (strata_rt_qmatmul_*, strata_rt_qconv2d_*):
 * which operands are unsigned (a/x, b/w, y), which optional ones are
 * present, a fused Relu (max(q, y_zero_point)), which operand is constant
 * (its packed form is cached), a fused clamp of the 8-bit result
 * (min(max(q, lo), hi) after the Relu: nn-qdq-to-qlinear's Clip), its bounds
 * the result type's 8-bit values in bits 16-23 (lo) and 24-31 (hi). */
enum {
  STRATA_RT_Q_A_UNSIGNED = 1,
  STRATA_RT_Q_B_UNSIGNED = 2,
  STRATA_RT_Q_Y_UNSIGNED = 4,
  STRATA_RT_Q_HAS_AZP = 8,
  STRATA_RT_Q_HAS_BZP = 16,
  STRATA_RT_Q_HAS_BIAS = 32,
  STRATA_RT_Q_RELU = 64,
  STRATA_RT_Q_CONST_A = 128,
  STRATA_RT_Q_CONST_B = 256,
  STRATA_RT_Q_CLAMP = 512,
  STRATA_RT_Q_CLAMP_LO_SHIFT = 16,
  STRATA_RT_Q_CLAMP_HI_SHIFT = 24
};

/* The activations computed through exp or erf, on whole vectors after the
 * tile is out (sigmoid, SiLU, the GELUs). */
static inline int strataRtActIsGate(int64_t act) {
  return act == STRATA_RT_ACT_SIGMOID || act == STRATA_RT_ACT_SILU || act == STRATA_RT_ACT_GELU ||
         act == STRATA_RT_ACT_GELU_TANH;
}

/* `constant` (bit 0: a or x's weights w; bit 1: b) promises that operand's
 * data is fixed while the code is loaded (a weight): it is packed into the
 * kernel's layout once and the packed copy is reused by later calls until
 * strataRtReleasePackedConstants. */

/* The entry points compiled code calls (matmul, conv2d, pool2d, layernorm,
 * softmax, index_error, the instr sinks, the buffer arenas' frame
 * push/pop/slot): declared from the one table, kernel_abi.def, which
 * documents each. */
#define STRATA_RT_ARG STRATA_RT_C_ARG
#define STRATA_RT_ABI STRATA_RT_C_PROTOTYPE
#include "kernel_abi.def"
#undef STRATA_RT_ARG
#undef STRATA_RT_ABI

/* memref.copy of non-contiguous memrefs (the name MLIR's lowering calls). */
void memrefCopy(int64_t elemSize, StrataUnrankedMemRef *src, StrataUnrankedMemRef *dst);
/* memref.alloc and memref.dealloc of compiled code (the names
 * finalize-memref-to-llvm{use-generic-functions} calls): buffers from the
 * current environment (env.c); an allocation that fails is an error. */
void *_mlir_memref_to_llvm_alloc(size_t bytes);
void _mlir_memref_to_llvm_free(void *p);

/* Frees the packed constants; call it when code that passed `constant`
 * operands is unloaded (strataJitDestroy does). */
void strataRtReleasePackedConstants(void);

/* The packed constants, for a cache that keeps them across processes (the
 * model cache, targets/llvm/modelcache.c): the form of constant `src`
 * derived as `kind` with parameters `key`, `floats` 4-byte words at
 * `data`. List copies up to `max` entries into `out` and returns how many
 * there are. Add records one whose data the caller owns (mapped from a
 * file): it is never freed and must outlive the code (false if out of
 * memory). Both are valid only between processes of one build of
 * libstrata_rt on one CPU with the same instruction set chosen
 * (strataRtIsaName). */
typedef struct {
  char kind;
  const void *src;
  int64_t key[6];
  const float *data;
  size_t floats;
} StrataRtPacked;
size_t strataRtPackedConstantsList(StrataRtPacked *out, size_t max);
bool strataRtPackedConstantsAdd(const StrataRtPacked *p);
/* The instruction set the kernels run ("avx512", ...). */
const char *strataRtIsaName(void);

/* Threads the kernels use in the calling thread's current environment
 * (the default one outside strataRtCallIn; status.h) (>= 1; default 1).
 * Returns the previous value. */
int strataRtSetNumThreads(int n);
int strataRtGetNumThreads(void);

/* Kernel ISA: "auto" (default: the widest the host CPU has), "avx512",
 * "avx2" or "generic". Also read once from STRATA_RT_ISA. Returns 0, or -1
 * if the name is unknown or the host lacks it. */
int strataRtSetIsa(const char *name);
const char *strataRtGetIsa(void);

#endif /* STRATA_RUNTIME_KERNELS_H */
