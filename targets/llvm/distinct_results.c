/* --strata-distinct-results: after bufferization, every memref a public
 * function returns is a buffer of its own. upstream's
 * buffer-results-to-out-params (next in the CPU pipeline) crashes on a
 * returned function argument (an identity model: the graph output is its
 * input) and on one buffer returned twice (two graph outputs naming the same
 * value); here each such result is copied into a fresh allocation first. */
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/support.h"

/* True if return operand `i` needs a buffer of its own. */
static bool needsCopy(MlirOperation ret, intptr_t i) {
  MlirValue v = mlirOperationGetOperand(ret, i);
  if (!mlirTypeIsAMemRef(mlirValueGetType(v))) return false;
  if (mlirValueIsABlockArgument(v)) return true;
  for (intptr_t j = 0; j < i; j++)
    if (mlirValueEqual(mlirOperationGetOperand(ret, j), v)) return true;
  return false;
}

static void copyResults(MlirOperation ret) {
  MlirLocation loc = mlirOperationGetLocation(ret);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); i++) {
    if (!needsCopy(ret, i)) continue;
    MlirValue v = mlirOperationGetOperand(ret, i);
    MlirType t = mlirValueGetType(v);
    StrataBuilder b = strataBuilderBefore(ret, (MlirRewriterBase){NULL});
    intptr_t rank = mlirShapedTypeGetRank(t);
    int64_t shape[rank ? rank : 1];
    for (intptr_t d = 0; d < rank; d++) shape[d] = mlirShapedTypeGetDimSize(t, d);
    /* A fresh buffer of the same shape and element type, identity layout. */
    MlirType fresh = mlirMemRefTypeGet(mlirShapedTypeGetElementType(t), rank, shape,
                                       mlirAttributeGetNull(), mlirMemRefTypeGetMemorySpace(t));
    MlirValue dynSizes[rank ? rank : 1];
    intptr_t numDyn = 0;
    for (intptr_t d = 0; d < rank; d++) {
      if (!mlirShapedTypeIsDynamicDim(t, d)) continue;
      MlirValue idx = strataConstInt(&b, loc, strataIndexType(b.ctx), d);
      dynSizes[numDyn++] = strataResult(strataCreateOp(&b, "memref.dim", loc, .operands = STRATA_VALUES(v, idx),
                                                       .results = STRATA_TYPES(strataIndexType(b.ctx))),
                                        0);
    }
    int32_t segments[2] = {(int32_t)numDyn, 0};
    MlirValue copy = strataResult(
        strataCreateOp(&b, "memref.alloc", loc, .operands = {dynSizes, numDyn}, .results = STRATA_TYPES(fresh),
                       .attrs = STRATA_ATTRS({"operandSegmentSizes", mlirDenseI32ArrayGet(b.ctx, 2, segments)})),
        0);
    strataCreateOp(&b, "memref.copy", loc, .operands = STRATA_VALUES(v, copy));
    if (!mlirTypeEqual(fresh, t))
      copy = strataResult(strataCreateOp(&b, "memref.cast", loc, .operands = STRATA_VALUES(copy),
                                         .results = STRATA_TYPES(t)),
                          0);
    mlirOperationSetOperand(ret, i, copy);
  }
}

static MlirWalkResult visit(MlirOperation op, void *user) {
  (void)user;
  if (strataOpIsNamed(op, "func.return")) copyResults(op);
  return MlirWalkResultAdvance;
}

static void runDistinctResults(StrataPassRun *run, MlirOperation module) {
  (void)run;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f)) {
    if (!strataOpIsNamed(f, "func.func")) continue;
    mlirOperationWalk(f, visit, NULL, MlirWalkPostOrder);
  }
}

const StrataPassDef strataDistinctResultsPass = {
    .name = "strata-distinct-results",
    .summary = "Copy a returned function argument or a buffer returned twice into a buffer of its own "
               "(before buffer-results-to-out-params, which crashes on them)",
    .anchor = "builtin.module",
    .run = runDistinctResults,
};
