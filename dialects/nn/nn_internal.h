/* dialects/nn internals shared by the verifier, interpreter and op table. */
#ifndef STRATA_NN_INTERNAL_H
#define STRATA_NN_INTERNAL_H

#include <stdbool.h>
#include "strata/nn.h"
#include "strata/tensor.h"

typedef struct {
  int rank;
  int64_t dims[STRATA_MAX_RANK];
  MlirType elementType;
} NnShape;

/* ---- Verification helpers and verifiers (nn_verify.c) ---- */
bool nnIsSupportedFloat(MlirType t);
bool nnOperandShape(MlirOperation op, intptr_t i, const char *name, NnShape *s);
bool nnSameElementType(MlirOperation op, const NnShape *a, const NnShape *b, const char *nameB);
bool nnCheckResult(MlirOperation op, const int64_t *dims, int rank, MlirType elementType);
MlirLogicalResult nnVerifyElementwiseUnary(MlirOperation op);
MlirLogicalResult nnVerifyBroadcastBinary(MlirOperation op);
MlirLogicalResult nnVerifyMatmul(MlirOperation op);
MlirLogicalResult nnVerifyConv2d(MlirOperation op);
MlirLogicalResult nnVerifyConstant(MlirOperation op);

/* ---- Reference kernels (nn_interp.c) ---- */
MlirLogicalResult nnInterpConstant(StrataInterp *, MlirOperation, StrataTensor *const *,
                                   StrataTensor *const *);
MlirLogicalResult nnInterpRelu(StrataInterp *, MlirOperation, StrataTensor *const *,
                               StrataTensor *const *);
MlirLogicalResult nnInterpAdd(StrataInterp *, MlirOperation, StrataTensor *const *,
                              StrataTensor *const *);
MlirLogicalResult nnInterpMatmul(StrataInterp *, MlirOperation, StrataTensor *const *,
                                 StrataTensor *const *);
MlirLogicalResult nnInterpConv2d(StrataInterp *, MlirOperation, StrataTensor *const *,
                                 StrataTensor *const *);

#endif /* STRATA_NN_INTERNAL_H */
