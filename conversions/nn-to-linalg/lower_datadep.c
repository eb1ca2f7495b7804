/* The data-dependent ops (issue 19) whose results are selections of their
 * input: NonZero and Compress. Each lowering counts first (a loop over an
 * i1 mask), allocates the result at that run-time count, then fills it in
 * a second loop; lower_unique.c and lower_nms.c do the same for Unique and
 * NonMaxSuppression. */
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "nn_datadep.h"
#include "lower_internal.h"

static MlirValue bodyNonZero(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  (void)u;
  MlirType t = mlirValueGetType(a[0]);
  if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 1) return a[0];
  MlirValue zero = emitConst(b, loc, t, 0);
  /* NaN counts as non-zero (numpy's, ONNX's nonzero) */
  return lowerIsFloat(t) ? emitCmpF(b, loc, CMPF_UNE, a[0], zero) : emitCmpI(b, loc, CMPI_NE, a[0], zero);
}

/* NonZero: the flattened input's mask; count; then, for every set element
 * in row-major order, its coordinates (the flat index divided down by the
 * run-time extents) into column `pos` of the [rank, count] result. */
static MlirLogicalResult lowerNonZero(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  StrataBuilder *b = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue x = lowerOperand(op, 0), n;
  int rank = lowerRank(x);
  MlirValue flat = lowerFlatten(b, loc, x, &n);
  MlirType maskType = strataTensorType(mlirIntegerTypeGet(b->ctx, 1), 1, (int64_t[]){lowerDim(flat, 0)});
  const char *maps[] = {"(d0)", "(d0)"};
  MlirValue mask = linalgBuildGeneric(b, loc, STRATA_VALUES(flat), lowerEmptyTensor(b, loc, maskType, &n), maps, "p",
                                      bodyNonZero, NULL);
  MlirValue count = lowerCountTrue(b, loc, mask, n), zero = lowerIndexConst(b, loc, 0), one = lowerIndexConst(b, loc, 1);
  MlirType rt = lowerResultType(op, 0), i64 = mlirShapedTypeGetElementType(rt);
  MlirValue out = lowerEmptyTensor(b, loc, rt, (MlirValue[]){lowerIndexConst(b, loc, rank), count});
  LowerLoop l;
  lowerForBegin(b, &l, loc, zero, n, (MlirValue[]){zero, out}, 2);
  MlirValue e = lowerLoopIv(&l), pos = lowerLoopArg(&l, 0), acc = lowerLoopArg(&l, 1);
  LowerIf f;
  lowerIfBegin(b, &f, loc, linalgExtract(b, loc, mask, &e, 1), (MlirValue[]){pos, acc}, 2);
  MlirValue rest = e, filled = acc;
  for (int d = rank - 1; d >= 0; d--) {
    MlirValue extent = lowerDimValue(b, loc, x, d);
    MlirValue coord = d ? emitBinary(b, loc, "arith.remui", rest, extent) : rest;
    if (d) rest = emitBinary(b, loc, "arith.divui", rest, extent);
    filled = lowerInsert(b, loc, emitConvert(b, loc, "arith.index_cast", coord, i64), filled,
                         (MlirValue[]){lowerIndexConst(b, loc, d), pos}, 2);
  }
  lowerIfElse(b, &f, loc, (MlirValue[]){emitBinary(b, loc, "arith.addi", pos, one), filled}, 2);
  lowerIfEnd(b, &f, loc, (MlirValue[]){pos, acc}, 2);
  lowerForEnd(b, &l, loc, (MlirValue[]){strataResult(f.op, 0), strataResult(f.op, 1)}, 2);
  strataReplaceOp(rw, op, STRATA_VALUES(strataResult(l.op, 1)));
  return mlirLogicalResultSuccess();
}

/* Compress: count the true elements of the condition, then copy slice k
 * (along the axis, or element k of the flattened input) to slot `pos` for
 * each true condition[k]. A condition longer than the axis is a run-time
 * error where a length is dynamic (the verifier refuses it statically). */
static MlirLogicalResult lowerCompress(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  StrataBuilder *b = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(op);
  bool hasAxis;
  int64_t axis = 0;
  if (!nnCompressParams(nnDataDepDef(op), op, &hasAxis, &axis)) return mlirLogicalResultFailure();
  MlirValue x = lowerOperand(op, 0), cond = lowerOperand(op, 1), n;
  if (!hasAxis) x = lowerFlatten(b, loc, x, &n);
  int ax = hasAxis ? (int)axis : 0, rank = lowerRank(x);
  MlirValue len = lowerDimValue(b, loc, cond, 0), extent = lowerDimValue(b, loc, x, ax);
  if ((lowerDim(cond, 0) < 0 || lowerDim(x, ax) < 0) &&
      !lowerCheck(b, op, &(MlirValue){NULL}, emitCmpI(b, loc, CMPI_SGT, len, extent), 11, 1, 0, len, extent))
    return mlirLogicalResultFailure();
  MlirValue count = lowerCountTrue(b, loc, cond, len), zero = lowerIndexConst(b, loc, 0);
  MlirValue dims[STRATA_MAX_RANK];
  for (int d = 0; d < rank; d++) dims[d] = d == ax ? count : lowerDimValue(b, loc, x, d);
  MlirValue out = lowerEmptyTensor(b, loc, lowerResultType(op, 0), dims);
  LowerLoop l;
  lowerForBegin(b, &l, loc, zero, len, (MlirValue[]){zero, out}, 2);
  MlirValue k = lowerLoopIv(&l), pos = lowerLoopArg(&l, 0), acc = lowerLoopArg(&l, 1);
  LowerIf f;
  lowerIfBegin(b, &f, loc, linalgExtract(b, loc, cond, &k, 1), (MlirValue[]){pos, acc}, 2);
  MlirValue filled = lowerInsertSliceAt(b, loc, lowerSliceAt(b, loc, x, ax, k), acc, ax, pos);
  lowerIfElse(b, &f, loc, (MlirValue[]){emitBinary(b, loc, "arith.addi", pos, lowerIndexConst(b, loc, 1)), filled}, 2);
  lowerIfEnd(b, &f, loc, (MlirValue[]){pos, acc}, 2);
  lowerForEnd(b, &l, loc, (MlirValue[]){strataResult(f.op, 0), strataResult(f.op, 1)}, 2);
  strataReplaceOp(rw, op, STRATA_VALUES(strataResult(l.op, 1)));
  return mlirLogicalResultSuccess();
}

void nnToLinalgDataDep(LowerRegistry *r) {
  lowerRegister(r, "nn.non_zero", lowerNonZero, NULL);
  lowerRegister(r, "nn.compress", lowerCompress, NULL);
  nnToLinalgUnique(r);
  nnToLinalgNms(r);
}
