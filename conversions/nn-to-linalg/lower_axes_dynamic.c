/* Axes known only at run time (ONNX's Squeeze/Unsqueeze/Reduce* `axes`
 * and CumSum's `axis` as graph inputs): the static structure of the
 * generated code is per position (one i1 "is an axis" flag per dim), the
 * choice among positions is made at run time, and every axis is checked
 * first: in [-rank, rank), not repeated (located run-time errors through
 * strata_rt_shape_error, lower_dims.c's kinds 6 and 7). */
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "nn_internal.h"
#include "lower_internal.h"

static MlirValue idx(StrataBuilder *b, MlirLocation loc, int64_t v) { return lowerIndexConst(b, loc, v); }

MlirValue lowerRuntimeAxis(StrataBuilder *b, MlirOperation op, MlirValue *site, MlirValue axes, int i, int rank) {
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue e = linalgExtract(b, loc, axes, (MlirValue[]){idx(b, loc, i)}, lowerRank(axes));
  MlirValue a = emitConvert(b, loc, "arith.index_cast", e, strataIndexType(b->ctx));
  MlirValue outside = emitBinary(b, loc, "arith.ori", emitCmpI(b, loc, CMPI_SLT, a, idx(b, loc, -rank)),
                                 emitCmpI(b, loc, CMPI_SGE, a, idx(b, loc, rank)));
  int operand = 1; /* for the message: which operand of op holds the axes */
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); k++)
    if (mlirValueEqual(mlirOperationGetOperand(op, k), axes)) operand = (int)k;
  if (!lowerCheck(b, op, site, outside, 6, operand, i, a, idx(b, loc, rank))) return (MlirValue){NULL};
  MlirValue neg = emitCmpI(b, loc, CMPI_SLT, a, idx(b, loc, 0));
  return emitSelect(b, loc, neg, emitBinary(b, loc, "arith.addi", a, idx(b, loc, rank)), a);
}

bool lowerRuntimeAxes(StrataBuilder *b, MlirOperation op, MlirValue *site, int rank, MlirValue *isAxis) {
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue axes = mlirOperationGetOperand(op, 1);
  int n = lowerRank(axes) == 1 ? (int)lowerDim(axes, 0) : -1;
  if (n < 0 || n > rank) { /* more axes than dims would repeat one */
    strataEmitError(loc, "nn-to-linalg: run-time axes need a static count of at most the rank (%d)", rank);
    return false;
  }
  MlirValue a[STRATA_MAX_RANK];
  for (int i = 0; i < n; i++)
    if (!(a[i] = lowerRuntimeAxis(b, op, site, axes, i, rank)).ptr) return false;
  for (int d = 0; d < rank; d++) {
    MlirValue count = idx(b, loc, 0), one = idx(b, loc, 1), zero = idx(b, loc, 0);
    for (int i = 0; i < n; i++)
      count = emitBinary(b, loc, "arith.addi", count,
                         emitSelect(b, loc, emitCmpI(b, loc, CMPI_EQ, a[i], idx(b, loc, d)), one, zero));
    if (!lowerCheck(b, op, site, emitCmpI(b, loc, CMPI_SGT, count, one), 7, 1, d, count, one)) return false;
    isAxis[d] = emitCmpI(b, loc, CMPI_EQ, count, one);
  }
  return true;
}

/* values[at] for a run-time `at` in [0, n): a chain of selects. */
static MlirValue pick(StrataBuilder *b, MlirLocation loc, const MlirValue *values, int n, MlirValue at) {
  MlirValue v = values[n - 1];
  for (int i = n - 2; i >= 0; i--) v = emitSelect(b, loc, emitCmpI(b, loc, CMPI_EQ, at, idx(b, loc, i)), values[i], v);
  return v;
}

/* The number of flags set among isAxis[0..d). */
static MlirValue countBefore(StrataBuilder *b, MlirLocation loc, const MlirValue *isAxis, int d) {
  MlirValue n = idx(b, loc, 0);
  for (int e = 0; e < d; e++)
    n = emitBinary(b, loc, "arith.addi", n, emitSelect(b, loc, isAxis[e], idx(b, loc, 1), idx(b, loc, 0)));
  return n;
}

bool lowerRuntimeSqueezeDims(StrataBuilder *b, MlirOperation op, MlirValue *site, bool unsqueeze, MlirValue *out) {
  MlirValue x = mlirOperationGetOperand(op, 0), isAxis[STRATA_MAX_RANK];
  int rx = lowerRank(x), r = (int)mlirShapedTypeGetRank(mlirValueGetType(mlirOperationGetResult(op, 0)));
  return lowerRuntimeAxes(b, op, site, unsqueeze ? r : rx, isAxis) &&
         lowerSqueezeByFlags(b, op, site, unsqueeze, x, isAxis, r, out);
}

bool lowerSqueezeByFlags(StrataBuilder *b, MlirOperation op, MlirValue *site, bool unsqueeze, MlirValue x,
                         const MlirValue *isAxis, int r, MlirValue *out) {
  MlirLocation loc = mlirOperationGetLocation(op);
  int rx = lowerRank(x);
  MlirValue dims[STRATA_MAX_RANK];
  for (int d = 0; d < rx; d++) dims[d] = lowerDimValue(b, loc, x, d);
  if (unsqueeze) { /* result dim d: 1 at an axis, else x's dim (d - axes before d) */
    for (int d = 0; d < r; d++)
      out[d] = rx == 0 ? idx(b, loc, 1)
                       : emitSelect(b, loc, isAxis[d], idx(b, loc, 1),
                                    pick(b, loc, dims, rx, emitBinary(b, loc, "arith.subi", idx(b, loc, d),
                                                                      countBefore(b, loc, isAxis, d))));
    return true;
  }
  /* squeeze: x's dim d (which must be 1 at an axis) lands at d - axes before d */
  for (int j = 0; j < r; j++) out[j] = idx(b, loc, 1);
  for (int d = 0; d < rx; d++) {
    MlirValue bad = emitBinary(b, loc, "arith.andi", isAxis[d], emitCmpI(b, loc, CMPI_NE, dims[d], idx(b, loc, 1)));
    if (!lowerCheck(b, op, site, bad, 0, 0, d, dims[d], idx(b, loc, 1))) return false;
    MlirValue at = emitBinary(b, loc, "arith.subi", idx(b, loc, d), countBefore(b, loc, isAxis, d));
    for (int j = 0; j < r && j <= d; j++) {
      MlirValue here = emitBinary(b, loc, "arith.andi", emitCmpI(b, loc, CMPI_EQ, at, idx(b, loc, j)),
                                  emitBinary(b, loc, "arith.xori", isAxis[d], emitConst(b, loc, mlirIntegerTypeGet(b->ctx, 1), 1)));
      out[j] = emitSelect(b, loc, here, dims[d], out[j]);
    }
  }
  return true;
}
