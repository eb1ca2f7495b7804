/* nn.slice with dynamic dims or run-time starts/ends (issue 19): one
 * tensor.extract_slice whose offsets and sizes are computed at run time
 * with ONNX's clamping (a negative start or end counts from the end; both
 * clamp to [0, dim]; the count is ceil((end - start) / step), at least 0),
 * so no run-time value can read outside the input. Axes and steps must be
 * constants, and steps positive: where a dim is dynamic or a start or end
 * is a run-time value, a negative step is refused (located). */
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "nn_internal.h"
#include "nn_movement_params.h"
#include "lower_internal.h"

/* Element i of a 1-D integer operand as an index value. */
static MlirValue element(StrataBuilder *b, MlirLocation loc, MlirValue v, int i) {
  MlirValue e = linalgExtract(b, loc, v, (MlirValue[]){lowerIndexConst(b, loc, i)}, 1);
  return emitConvert(b, loc, "arith.index_cast", e, strataIndexType(b->ctx));
}

/* A start or end read as ONNX does: from the end when negative, clamped to
 * [0, dim]. */
static MlirValue clampBound(StrataBuilder *b, MlirLocation loc, MlirValue v, MlirValue dim) {
  MlirValue zero = lowerIndexConst(b, loc, 0);
  MlirValue neg = emitCmpI(b, loc, CMPI_SLT, v, zero);
  v = emitSelect(b, loc, neg, emitBinary(b, loc, "arith.addi", v, dim), v);
  v = emitBinary(b, loc, "arith.maxsi", v, zero);
  return emitBinary(b, loc, "arith.minsi", v, dim);
}

static MlirLogicalResult lowerSliceDynamic(StrataRewrite *rw, MlirOperation op, void *u) {
  const StrataOpDef *def = u;
  StrataBuilder *b = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue x = lowerOperand(op, 0);
  int rank = lowerRank(x);
  int64_t axes[STRATA_MAX_RANK], steps[STRATA_MAX_RANK], cs[STRATA_MAX_RANK], ce[STRATA_MAX_RANK];
  int na = -1, nt = -1, ns, ne;
  MlirValue starts = strataNamedOperand(def, op, "starts"), ends = strataNamedOperand(def, op, "ends");
  int n = (int)mlirShapedTypeGetDimSize(mlirValueGetType(starts), 0);
  if ((nnHasOperand(def, op, "axes") && !nnConstOperand(def, op, "axes", axes, STRATA_MAX_RANK, &na)) ||
      (nnHasOperand(def, op, "steps") && !nnConstOperand(def, op, "steps", steps, STRATA_MAX_RANK, &nt)) || n < 0 ||
      n > rank) {
    strataEmitError(loc, "nn-to-linalg: a dynamic 'nn.slice' needs constant axes and steps and static-length starts");
    return mlirLogicalResultFailure();
  }
  bool constStarts = nnConstOperand(def, op, "starts", cs, STRATA_MAX_RANK, &ns);
  bool constEnds = nnConstOperand(def, op, "ends", ce, STRATA_MAX_RANK, &ne);
  MlirValue offsets[STRATA_MAX_RANK], sizes[STRATA_MAX_RANK];
  int64_t strides[STRATA_MAX_RANK], sOff[STRATA_MAX_RANK], sSize[STRATA_MAX_RANK];
  for (int d = 0; d < rank; d++) { /* INT64_MIN: a dynamic offset or size (MLIR's kDynamic) */
    strides[d] = 1, sOff[d] = 0, sSize[d] = lowerDim(x, d) >= 0 ? lowerDim(x, d) : INT64_MIN;
    if (sSize[d] == INT64_MIN) sizes[d] = lowerDimValue(b, loc, x, d);
  }
  for (int i = 0; i < n; i++) {
    int64_t axis = na >= 0 ? axes[i] : i, step = nt >= 0 ? steps[i] : 1;
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank || step == 0) return mlirLogicalResultFailure(); /* the verifier's */
    strides[axis] = step;
    int64_t dim = lowerDim(x, (int)axis);
    if (dim >= 0 && constStarts && constEnds) { /* static on this axis */
      nnSliceAxis(dim, cs[i], ce[i], step, &sOff[axis], &sSize[axis]);
      continue;
    }
    if (step < 0) {
      strataEmitError(loc, "nn-to-linalg: 'nn.slice' with a negative step over a dynamic dim or run-time "
                      "bounds is not compiled");
      return mlirLogicalResultFailure();
    }
    MlirValue dv = lowerDimValue(b, loc, x, (int)axis);
    MlirValue s = clampBound(b, loc, constStarts ? lowerIndexConst(b, loc, cs[i]) : element(b, loc, starts, i), dv);
    MlirValue e = clampBound(b, loc, constEnds ? lowerIndexConst(b, loc, ce[i]) : element(b, loc, ends, i), dv);
    MlirValue span = emitBinary(b, loc, "arith.maxsi", emitBinary(b, loc, "arith.subi", e, s), lowerIndexConst(b, loc, 0));
    sOff[axis] = sSize[axis] = INT64_MIN; /* dynamic */
    offsets[axis] = s;
    sizes[axis] = emitBinary(b, loc, "arith.ceildivsi", span, lowerIndexConst(b, loc, step));
  }
  MlirValue dynOff[STRATA_MAX_RANK], dynSize[STRATA_MAX_RANK];
  int32_t segments[4] = {1, 0, 0, 0};
  int64_t resultDims[STRATA_MAX_RANK];
  for (int d = 0; d < rank; d++) {
    if (sOff[d] == INT64_MIN) dynOff[segments[1]++] = offsets[d];
    if (sSize[d] == INT64_MIN) dynSize[segments[2]++] = sizes[d];
    resultDims[d] = sSize[d];
  }
  MlirValue operands[1 + 2 * STRATA_MAX_RANK];
  int no = 0;
  operands[no++] = x;
  for (int i = 0; i < segments[1]; i++) operands[no++] = dynOff[i];
  for (int i = 0; i < segments[2]; i++) operands[no++] = dynSize[i];
  MlirType rt = mlirRankedTensorTypeGet(rank, resultDims, lowerElementType(x), mlirAttributeGetNull());
  MlirValue y = strataResult(
      strataCreateOp(b, "tensor.extract_slice", loc, .operands = {operands, no}, .results = STRATA_TYPES(rt),
                     .attrs = STRATA_ATTRS({"static_offsets", mlirDenseI64ArrayGet(b->ctx, rank, sOff)},
                                           {"static_sizes", mlirDenseI64ArrayGet(b->ctx, rank, sSize)},
                                           {"static_strides", mlirDenseI64ArrayGet(b->ctx, rank, strides)},
                                           {"operandSegmentSizes", mlirDenseI32ArrayGet(b->ctx, 4, segments)})),
      0);
  MlirType declared = lowerResultType(op, 0);
  if (!mlirTypeEqual(rt, declared))
    y = strataResult(strataCreateOp(b, "tensor.cast", loc, .operands = STRATA_VALUES(y), .results = STRATA_TYPES(declared)), 0);
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

bool lowerSliceIsDynamic(const StrataOpDef *def, MlirOperation op) {
  if (lowerHasDynamicDims(op)) return true;
  int64_t v[STRATA_MAX_RANK];
  int n;
  return !nnConstOperand(def, op, "starts", v, STRATA_MAX_RANK, &n) ||
         !nnConstOperand(def, op, "ends", v, STRATA_MAX_RANK, &n);
}

MlirLogicalResult lowerSliceDynamicPattern(StrataRewrite *rw, MlirOperation op, const StrataOpDef *def) {
  return lowerSliceDynamic(rw, op, (void *)def);
}
