/* Shared by the quantized nn ops (ops_qlinear.c), their lowering
 * (conversions/nn-to-linalg/lower_qlinear.c) and ops_linear.c, whose
 * MatMul and Conv arithmetic the integer ops reuse. Not public API. */
#ifndef STRATA_NN_QUANT_H
#define STRATA_NN_QUANT_H

#include "nn_internal.h"

/* int8 or uint8: the element types of quantized tensors. */
#define NN_Q8 (NN_T(STRATA_DTYPE_I8) | NN_U8)

/* How a quantization parameter (scale or zero point) spreads over its
 * tensor. Every kind accepts one value (a scalar or [1]: per tensor).
 * ROWS (MatMul's a and y): a 1-D [M] for a rank-2 tensor, or a tensor of
 * its rank with last dim 1 (ONNX's [D1, D2, M, 1]). COLUMNS (MatMul's b):
 * a 1-D [N] (rank >= 2), or its rank with dim -2 equal to 1. CHANNELS
 * (Conv's w): a 1-D [M] along dim 0. OUT_CHANNELS: the same values along
 * dim 1 of the convolution's result. */
typedef enum { NN_QP_TENSOR, NN_QP_ROWS, NN_QP_COLUMNS, NN_QP_CHANNELS, NN_QP_OUT_CHANNELS } NnQuantParamKind;

/* The shape the parameter (prank, pdims) broadcasts from onto the tensor
 * (trank, tdims) by numpy rules: rank 0 for one value, else trank dims,
 * each 1 or the tensor's. Returns NULL, or why the parameter does not fit
 * (-1 dims, unknown, always fit). */
const char *nnQuantParamShape(NnQuantParamKind kind, int prank, const int64_t *pdims, int trank,
                              const int64_t *tdims, int *rank, int64_t *dims);

/* The operand index of optional operand group g (by position in the op's
 * spec) of a quantized op, -1 if it is absent. */
int nnQuantOptionalOperand(MlirOperation op, int g);

/* ops_linear.c: numpy.matmul and the convolution of op's window attributes
 * (B may be NULL), accumulating in double, into y of its result shape. */
void nnMatmulCompute(const StrataTensor *a, const StrataTensor *b, StrataTensor *y);
bool nnConvCompute(MlirOperation op, const StrataTensor *X, const StrataTensor *W, const StrataTensor *B,
                   StrataTensor *Y);
/* The numpy.matmul shape of a and b (element type a's); false after an error. */
bool nnInferMatmulShape(MlirOperation op, const StrataShape *a, const StrataShape *b, StrataShape *res);
/* Reads x and w (rank 3-5, elements of `types`; with NN_FLOAT both of one
 * type) and infers the result shape of op's window; false after an error. */
bool nnInferConvShape(const StrataOpDef *def, MlirOperation op, unsigned types, StrataShape *x,
                      StrataShape *w, StrataShape *res);

#endif
