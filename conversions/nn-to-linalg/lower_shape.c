/* Constants and shape computation -> arith constants and generics. With
 * static shapes, Shape, Size and ConstantOfShape are compile-time
 * constants; Shape of a dynamic tensor reads its run-time extents. */
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "lower_internal.h"

static MlirLogicalResult replaceWithConstant(StrataRewrite *rw, MlirOperation op, MlirAttribute value) {
  MlirOperation c = strataCreateOp(&rw->builder, "arith.constant", mlirOperationGetLocation(op),
                                   .results = STRATA_TYPES(lowerResultType(op, 0)),
                                   .attrs = STRATA_ATTRS({"value", value}));
  strataReplaceOp(rw, op, STRATA_VALUES(strataResult(c, 0)));
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult lowerConstant(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  return replaceWithConstant(rw, op, mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("value")));
}

static MlirLogicalResult lowerShape(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirType t = lowerResultType(op, 0);
  MlirValue x = lowerOperand(op, 0);
  int64_t n = mlirShapedTypeGetDimSize(t, 0), start = 0, dims[STRATA_MAX_RANK];
  MlirAttribute s = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("start"));
  if (!mlirAttributeIsNull(s)) start = mlirIntegerAttrGetValueInt(s);
  if (start < 0) start += lowerRank(x);
  if (start < 0) start = 0;
  for (int64_t i = 0; i < n; i++) dims[i] = lowerDim(x, (int)(start + i));
  if (mlirShapedTypeHasStaticShape(mlirValueGetType(x)))
    return replaceWithConstant(rw, op, mlirDenseElementsAttrInt64Get(t, n, dims));
  /* dynamic dims: the extents at run time */
  StrataBuilder *b = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue v[STRATA_MAX_RANK];
  for (int64_t i = 0; i < n; i++)
    v[i] = emitConvert(b, loc, "arith.index_cast", lowerDimValue(b, loc, x, (int)(start + i)),
                       mlirShapedTypeGetElementType(t));
  strataReplaceOp(rw, op, STRATA_VALUES(strataResult(strataCreateOp(b, "tensor.from_elements", loc,
                                                                    .operands = {v, (intptr_t)n},
                                                                    .results = STRATA_TYPES(t)),
                                                     0)));
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult lowerSize(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirValue x = lowerOperand(op, 0);
  MlirType xt = mlirValueGetType(x), t = lowerResultType(op, 0);
  if (mlirShapedTypeHasStaticShape(xt)) {
    int64_t n = 1;
    for (intptr_t i = 0; i < mlirShapedTypeGetRank(xt); i++) n *= mlirShapedTypeGetDimSize(xt, i);
    return replaceWithConstant(rw, op, mlirDenseElementsAttrInt64Get(t, 1, &n));
  }
  /* dynamic dims: the product of the run-time extents */
  StrataBuilder *b = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue n = lowerIndexConst(b, loc, 1);
  for (int d = 0; d < lowerRank(x); d++) n = emitBinary(b, loc, "arith.muli", n, lowerDimValue(b, loc, x, d));
  n = emitConvert(b, loc, "arith.index_cast", n, mlirShapedTypeGetElementType(t));
  strataReplaceOp(rw, op, STRATA_VALUES(strataResult(strataCreateOp(b, "tensor.from_elements", loc,
                                                                    .operands = STRATA_VALUES(n),
                                                                    .results = STRATA_TYPES(t)),
                                                     0)));
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult lowerConstantOfShape(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirType t = lowerResultType(op, 0), et = mlirShapedTypeGetElementType(t);
  MlirAttribute v = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("value"));
  MlirAttribute scalar = mlirAttributeIsNull(v)
                             ? (mlirTypeIsAFloat(et) ? mlirFloatAttrDoubleGet(rw->builder.ctx, et, 0.0)
                                                     : mlirIntegerAttrGet(et, 0))
                             : mlirDenseElementsAttrGetSplatValue(v);
  if (!mlirAttributeIsNull(v) && !mlirDenseElementsAttrIsSplat(v))
    scalar = mlirElementsAttrGetValue(v, 0, NULL);
  if (mlirShapedTypeHasStaticShape(t)) return replaceWithConstant(rw, op, mlirDenseElementsAttrSplatGet(t, scalar));
  /* a shape known at run time only: the extents are the input's elements */
  StrataBuilder *b = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue dims[STRATA_MAX_RANK];
  if (!lowerResultDims(b, op, 0, dims)) return mlirLogicalResultFailure();
  MlirValue s = strataResult(strataCreateOp(b, "arith.constant", loc, .results = STRATA_TYPES(et),
                                            .attrs = STRATA_ATTRS({"value", scalar})),
                             0);
  strataReplaceOp(rw, op, STRATA_VALUES(lowerFillDims(b, loc, t, dims, s)));
  return mlirLogicalResultSuccess();
}

/* Range: y[i] = start + i * delta, with start and delta read from their
 * rank-0 tensors inside the body. */
typedef struct {
  MlirValue start, delta;
} RangeOperands;

static MlirValue bodyRange(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const RangeOperands *r = u;
  MlirType et = mlirValueGetType(a[0]);
  MlirValue i = linalgIndex(b, loc, 0);
  MlirValue s = linalgExtract(b, loc, r->start, NULL, 0), d = linalgExtract(b, loc, r->delta, NULL, 0);
  if (lowerIsFloat(et)) {
    MlirValue fi = emitConvert(b, loc, "arith.uitofp",
                               emitConvert(b, loc, "arith.index_cast", i, mlirIntegerTypeGet(b->ctx, 64)), et);
    return emitBinary(b, loc, "arith.addf", s, emitBinary(b, loc, "arith.mulf", fi, d));
  }
  MlirValue ii = emitConvert(b, loc, "arith.index_cast", i, et);
  return emitBinary(b, loc, "arith.addi", s, emitBinary(b, loc, "arith.muli", ii, d));
}

static MlirLogicalResult lowerRange(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirLocation loc = mlirOperationGetLocation(op);
  RangeOperands r = {lowerOperand(op, 0), lowerOperand(op, 2)};
  /* a run-time count (lower_dims.c's range rule) or the type's */
  MlirValue init = lowerResultInit(&rw->builder, op, 0, 0.0);
  if (!init.ptr) return mlirLogicalResultFailure();
  const char *maps[] = {"(d0)"};
  MlirValue y = linalgBuildGeneric(&rw->builder, loc, (StrataValueList){NULL, 0}, init, maps, "p",
                                   bodyRange, &r);
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

void nnToLinalgShape(LowerRegistry *r) {
  lowerRegister(r, "nn.constant", lowerConstant, NULL);
  lowerRegister(r, "nn.shape", lowerShape, NULL);
  lowerRegister(r, "nn.size", lowerSize, NULL);
  lowerRegister(r, "nn.constant_of_shape", lowerConstantOfShape, NULL);
  lowerRegister(r, "nn.range", lowerRange, NULL);
}
