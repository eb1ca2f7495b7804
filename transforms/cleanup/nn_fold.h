/* transforms/cleanup internals: the --nn-fold patterns. */
#ifndef STRATA_NN_FOLD_H
#define STRATA_NN_FOLD_H

#include "strata/dialect.h"
#include "strata/pattern.h"

typedef struct {
  StrataContext *ctx;
  int64_t foldLimit;
  bool keepDequantize; /* keep-dequantize: leave nn.dequantize_linear unfolded */
} NnFoldState;

MlirLogicalResult nnFoldNoOp(StrataRewrite *rw, MlirOperation op, void *user);
MlirLogicalResult nnFoldReluRelu(StrataRewrite *rw, MlirOperation op, void *user);
MlirLogicalResult nnFoldReshapeChain(StrataRewrite *rw, MlirOperation op, void *user);
MlirLogicalResult nnFoldTransposeChain(StrataRewrite *rw, MlirOperation op, void *user);
MlirLogicalResult nnFoldShapeOfTranspose(StrataRewrite *rw, MlirOperation op, void *user);
MlirLogicalResult nnFoldCse(StrataRewrite *rw, MlirOperation op, void *user);
MlirLogicalResult nnFoldRefineTypes(StrataRewrite *rw, MlirOperation op, void *user);

/* True if both ops carry the same attributes (names and values); CSE and
 * --nn-algebraic-rewrite's equal-subexpression test use it. */
bool nnSameAttributes(MlirOperation a, MlirOperation b);

#endif
