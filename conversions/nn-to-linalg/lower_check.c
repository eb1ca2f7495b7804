/* nn.check_range -> an scf.for over x's elements, each checked against
 * [min, max] (strata_rt_shape_error kind 15 when outside), then x itself. */
#include <limits.h>
#include "mlir-c/BuiltinTypes.h"
#include "nn_internal.h"
#include "lower_internal.h"

static MlirLogicalResult lowerCheckRange(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  int64_t lo, hi;
  nnAttrInt(op, "min", INT64_MIN, &lo);
  nnAttrInt(op, "max", INT64_MAX, &hi);
  if (lo < INT_MIN || lo > INT_MAX) { /* the error's text carries min as an int */
    strataEmitError(loc, "nn-to-linalg: 'nn.check_range' with 'min' outside the 32-bit range is not compiled");
    return mlirLogicalResultFailure();
  }
  MlirValue x = lowerOperand(op, 0), n;
  MlirValue flat = lowerFlatten(b, loc, x, &n);
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64);
  LowerLoop l;
  lowerForBegin(b, &l, loc, lowerIndexConst(b, loc, 0), n, NULL, 0);
  MlirValue i = lowerLoopIv(&l);
  MlirValue v = linalgExtract(b, loc, flat, &i, 1);
  if (!mlirTypeEqual(mlirValueGetType(v), i64)) v = emitConvert(b, loc, "arith.extsi", v, i64);
  MlirValue bad = emitBinary(b, loc, "arith.ori", emitCmpI(b, loc, CMPI_SLT, v, strataConstInt(b, loc, i64, lo)),
                             emitCmpI(b, loc, CMPI_SGT, v, strataConstInt(b, loc, i64, hi)));
  MlirType index = strataIndexType(b->ctx);
  if (!lowerCheck(b, op, &(MlirValue){NULL}, bad, 15, 0, (int)lo, emitConvert(b, loc, "arith.index_cast", v, index),
                  lowerIndexConst(b, loc, hi)))
    return mlirLogicalResultFailure();
  lowerForEnd(b, &l, loc, NULL, 0);
  strataReplaceOp(rw, op, STRATA_VALUES(x));
  return mlirLogicalResultSuccess();
}

void nnToLinalgCheck(LowerRegistry *r) { lowerRegister(r, "nn.check_range", lowerCheckRange, NULL); }
