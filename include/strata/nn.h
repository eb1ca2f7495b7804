/* The `nn` dialect: tensor-level DNN operators with ONNX semantics.
 * Shape inference is exposed so builders and importers can compute result
 * types; the dialect's verifiers use the same functions. Dims are -1 for '?'. */
#ifndef STRATA_NN_H
#define STRATA_NN_H

#include <stdbool.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "strata/dialect.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const StrataDialectDef strataNnDialect;

/* Multidirectional (numpy) broadcasting of two shapes. On failure returns
 * false and writes the offending output dim index to *badDim. */
bool nn_infer_broadcast_shape(const int64_t *a, int rankA, const int64_t *b, int rankB,
                              int64_t *out, int *rankOut, int *badDim);

/* numpy.matmul shapes (1-D promotion, broadcast batch dims). On failure
 * returns false with a reason in `why`. */
bool nn_infer_matmul_shape(const int64_t *a, int rankA, const int64_t *b, int rankB,
                           int64_t *out, int *rankOut, const char **why);

typedef struct {
  int64_t strides[2];   /* sh, sw; default 1 */
  int64_t pads[4];      /* top, left, bottom, right; default 0 */
  int64_t dilations[2]; /* dh, dw; default 1 */
  int64_t groups;       /* default 1 */
} NnConv2dParams;

/* Reads nn.conv2d attributes with ONNX defaults; emits a located error and
 * returns false if an attribute has the wrong form or value. */
bool nn_get_conv2d_params(MlirOperation op, NnConv2dParams *p);

/* NCHW input, FCHW filter -> NCHW output. False with `why` on mismatch. */
bool nn_infer_conv2d_shape(const int64_t x[4], const int64_t w[4], const NnConv2dParams *p,
                           int64_t out[4], const char **why);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_NN_H */
