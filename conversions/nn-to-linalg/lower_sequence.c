/* nn.reverse_sequence -> one generic over the result that reads x with
 * tensor.extract at the reversed step (t < len ? len - 1 - t : t); a length
 * outside [0, time extent] is a run-time error, as in the interpreter. */
#include <stdio.h>
#include "mlir-c/BuiltinTypes.h"
#include "nn_internal.h"
#include "lower_internal.h"

typedef struct {
  MlirValue x, site, extent; /* extent: the time axis's, run-time where dynamic */
  int rank;
  int64_t batchAxis, timeAxis;
} Reverse;

static MlirValue bodyReverse(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const Reverse *r = u;
  MlirValue at[STRATA_MAX_RANK];
  for (int d = 0; d < r->rank; d++) at[d] = linalgIndex(b, loc, d);
  MlirValue len = emitConvert(b, loc, "arith.index_cast", a[0], strataIndexType(b->ctx));
  MlirValue extent = r->extent;
  lowerShapeCheckAt(b, loc, r->site, emitCmpI(b, loc, CMPI_UGT, len, extent), 14, 1, 0, len, extent);
  MlirValue t = at[r->timeAxis];
  MlirValue rev = emitBinary(b, loc, "arith.subi", emitBinary(b, loc, "arith.subi", len, lowerIndexConst(b, loc, 1)), t);
  at[r->timeAxis] = emitSelect(b, loc, emitCmpI(b, loc, CMPI_SLT, t, len), rev, t);
  return linalgExtract(b, loc, r->x, at, r->rank);
}

static MlirLogicalResult lowerReverseSequence(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  Reverse r = {lowerOperand(op, 0), {NULL}, {NULL}, lowerRank(lowerOperand(op, 0)), 0, 0};
  if (!nnReverseSequenceAxes(op, &r.batchAxis, &r.timeAxis)) return mlirLogicalResultFailure();
  r.extent = lowerDimValue(&rw->builder, mlirOperationGetLocation(op), r.x, (int)r.timeAxis);
  if (
      !lowerRuntimeSite(&rw->builder, op, SHAPE_ERROR_FN, &r.site))
    return mlirLogicalResultFailure();
  MlirValue init = lowerResultInit(&rw->builder, op, 0, 0.0);
  if (!init.ptr) return mlirLogicalResultFailure();
  char lensMap[16], outMap[256], its[STRATA_MAX_RANK + 1];
  snprintf(lensMap, sizeof lensMap, "(d%d)", (int)r.batchAxis);
  lowerIdentityMap(outMap, sizeof outMap, r.rank);
  lowerParallelIterators(its, r.rank);
  const char *maps[] = {lensMap, outMap};
  MlirValue y = linalgBuildGeneric(&rw->builder, mlirOperationGetLocation(op), STRATA_VALUES(lowerOperand(op, 1)), init,
                                   maps, its, bodyReverse, &r);
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

void nnToLinalgSequence(LowerRegistry *r) { lowerRegister(r, "nn.reverse_sequence", lowerReverseSequence, NULL); }
