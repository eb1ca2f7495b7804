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

#include <stdint.h>
#include "memref.h"

typedef struct {
  int64_t rank;
  void *descriptor; /* StrataMemRefDesc with `rank` sizes and strides */
} StrataUnrankedMemRef;

enum { STRATA_RT_ACT_NONE = 0, STRATA_RT_ACT_RELU = 1, STRATA_RT_ACT_CLIP = 2 };

/* `constant` (bit 0: a or x's weights w; bit 1: b) promises that operand's
 * data is fixed while the code is loaded (a weight): it is packed into the
 * kernel's layout once and the packed copy is reused by later calls until
 * strataRtReleasePackedConstants. */

/* numpy.matmul (batched, broadcast batch dims, 1-D operands promoted), with
 * optional transposes of the last two dims of a and b (Gemm). */
void _mlir_ciface_strata_rt_matmul_f32(StrataUnrankedMemRef *a, StrataUnrankedMemRef *b,
                                       StrataUnrankedMemRef *y, StrataUnrankedMemRef *add0,
                                       StrataUnrankedMemRef *add1, int64_t transA, int64_t transB,
                                       int64_t constant, int64_t nadd, float alpha, float beta0, float beta1,
                                       int64_t act, float lo, float hi);

/* 2-D convolution, NCHW input x, weights [M, C/group, kh, kw], output y
 * [N, M, OH, OW]; pads are the leading pads (the trailing ones follow from
 * y's shape). Depthwise (C/group == 1) runs a direct kernel; every other
 * shape an implicit-im2col GEMM per group. */
void _mlir_ciface_strata_rt_conv2d_f32(StrataUnrankedMemRef *x, StrataUnrankedMemRef *w,
                                       StrataUnrankedMemRef *y, StrataUnrankedMemRef *add0,
                                       StrataUnrankedMemRef *add1, int64_t strideH, int64_t strideW,
                                       int64_t padH, int64_t padW, int64_t dilH, int64_t dilW,
                                       int64_t group, int64_t constant, int64_t nadd, float beta0, float beta1,
                                       int64_t act, float lo, float hi);

/* 2-D (or 1-D: NCW) max (kind 1, NaN-propagating) or average (kind 2)
 * pooling, NCHW, ONNX semantics: leading pads padH/padW, trailing pads
 * padEndH/padEndW for the average's count_include_pad divisor (windows
 * past the trailing pad, from ceil_mode, never count); y's shape gives the
 * output extent. At most 64 window positions. */
void _mlir_ciface_strata_rt_pool2d_f32(StrataUnrankedMemRef *x, StrataUnrankedMemRef *y, int64_t kind,
                                       int64_t kernelH, int64_t kernelW, int64_t strideH, int64_t strideW,
                                       int64_t padH, int64_t padW, int64_t padEndH, int64_t padEndW,
                                       int64_t dilH, int64_t dilW, int64_t countIncludePad);

/* Layer normalization of x over its dims [axis, rank) (ONNX
 * LayerNormalization, stash_type float): y = (x - mean) / sqrt(var + eps)
 * * scale (+ bias when hasBias), scale and bias broadcasting over the
 * normalized dims; y dense, of x's shape. */
void _mlir_ciface_strata_rt_layernorm_f32(StrataUnrankedMemRef *x, StrataUnrankedMemRef *scale,
                                          StrataUnrankedMemRef *bias, StrataUnrankedMemRef *y, int64_t axis,
                                          int64_t hasBias, float eps);

/* The per-thread frame stack behind strata-buffer-arena: push returns a
 * 64-byte aligned 1-D i8 buffer of `bytes` (kept for the next push at the
 * same depth); pop releases the most recent one. */
void _mlir_ciface_strata_rt_frame_push(StrataMemRefDesc *out, int64_t bytes);
void _mlir_ciface_strata_rt_frame_pop(StrataMemRefDesc *arena);
/* The `bytes` at `offset` of an arena, as their own buffer. Compiled code
 * takes each of its buffers through this call (opaque to LLVM) rather than
 * as a view of the arena: to LLVM's loop vectorizer, accesses to one
 * underlying object need a provable distance, while distinct objects get
 * runtime overlap checks, so loops mixing several arena buffers still
 * vectorize. */
void _mlir_ciface_strata_rt_frame_slot(StrataMemRefDesc *out, StrataMemRefDesc *arena, int64_t offset,
                                       int64_t bytes);

/* memref.copy of non-contiguous memrefs (the name MLIR's lowering calls). */
void memrefCopy(int64_t elemSize, StrataUnrankedMemRef *src, StrataUnrankedMemRef *dst);

/* Frees the packed constants; call it when code that passed `constant`
 * operands is unloaded (strataJitDestroy does). */
void strataRtReleasePackedConstants(void);

/* Softmax (logForm: log-softmax) of x along `axis` into y (same shape;
 * ONNX opset-13 semantics: exp(x - max) / sum, NaN-propagating). */
void _mlir_ciface_strata_rt_softmax_f32(StrataUnrankedMemRef *x, StrataUnrankedMemRef *y,
                                        int64_t axis, int64_t logForm);

/* Threads the kernels use (>= 1; default 1). Returns the previous value. */
int strataRtSetNumThreads(int n);
int strataRtGetNumThreads(void);

/* Kernel ISA: "auto" (default: the widest the host CPU has), "avx512",
 * "avx2" or "generic". Also read once from STRATA_RT_ISA. Returns 0, or -1
 * if the name is unknown or the host lacks it. */
int strataRtSetIsa(const char *name);
const char *strataRtGetIsa(void);

#endif /* STRATA_RUNTIME_KERNELS_H */
