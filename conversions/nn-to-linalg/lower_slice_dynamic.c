/* nn.slice with dynamic dims or run-time starts/ends (issue 19): one
 * tensor.extract_slice whose offsets and sizes are computed at run time
 * with ONNX's clamping (a negative start or end counts from the end; both
 * clamp to [0, dim]; the count is ceil((end - start) / step), at least 0),
 * so no run-time value can read outside the input. With constant axes and
 * steps; a negative step where a dim is dynamic or a start or end is a
 * run-time value is refused (located). Axes or steps known only at run time
 * make a gather generic instead (lowerSliceRuntime), any sign of step. */
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

/* ---- Run-time axes or steps: a gather generic, out[i] = x[first + i * step]
 * per dim, with first, step and count computed at run time as nnSliceAxis
 * does (either sign of step). ---- */

typedef struct {
  MlirValue x, first[STRATA_MAX_RANK], step[STRATA_MAX_RANK];
  int rank;
} Strided;

static MlirValue bodyStrided(StrataBuilder *b, MlirLocation loc, const MlirValue *args, void *u) {
  (void)args;
  const Strided *c = u;
  MlirValue at[STRATA_MAX_RANK];
  for (int d = 0; d < c->rank; d++)
    at[d] = emitBinary(b, loc, "arith.addi", c->first[d], emitBinary(b, loc, "arith.muli", linalgIndex(b, loc, d), c->step[d]));
  return linalgExtract(b, loc, c->x, at, c->rank);
}

static MlirValue clampTo(StrataBuilder *b, MlirLocation loc, MlirValue v, MlirValue lo, MlirValue hi) {
  return emitBinary(b, loc, "arith.minsi", emitBinary(b, loc, "arith.maxsi", v, lo), hi);
}

/* first and count along one dim of extent n for a run-time start, end and
 * (non-zero) step: nnSliceAxis's arithmetic. */
static MlirValue sliceAxis(StrataBuilder *b, MlirLocation loc, MlirValue n, MlirValue s, MlirValue e, MlirValue st,
                           MlirValue *first) {
  MlirValue zero = lowerIndexConst(b, loc, 0), one = lowerIndexConst(b, loc, 1), minusOne = lowerIndexConst(b, loc, -1);
  s = emitSelect(b, loc, emitCmpI(b, loc, CMPI_SLT, s, zero), emitBinary(b, loc, "arith.addi", s, n), s);
  e = emitSelect(b, loc, emitCmpI(b, loc, CMPI_SLT, e, zero), emitBinary(b, loc, "arith.addi", e, n), e);
  MlirValue up = emitCmpI(b, loc, CMPI_SGT, st, zero), last = emitBinary(b, loc, "arith.subi", n, one);
  MlirValue s1 = clampTo(b, loc, s, zero, n), e1 = clampTo(b, loc, e, zero, n);
  MlirValue s2 = clampTo(b, loc, s, zero, last), e2 = clampTo(b, loc, e, minusOne, last);
  MlirValue cUp = emitBinary(b, loc, "arith.addi",
                             emitBinary(b, loc, "arith.divsi", emitBinary(b, loc, "arith.subi", emitBinary(b, loc, "arith.subi", e1, s1), one), st), one);
  cUp = emitSelect(b, loc, emitCmpI(b, loc, CMPI_SGT, e1, s1), cUp, zero);
  MlirValue cDown = emitBinary(b, loc, "arith.subi", one,
                               emitBinary(b, loc, "arith.divsi", emitBinary(b, loc, "arith.subi", emitBinary(b, loc, "arith.subi", s2, e2), one), st));
  cDown = emitSelect(b, loc, emitCmpI(b, loc, CMPI_SGT, s2, e2), cDown, zero);
  *first = emitSelect(b, loc, up, s1, s2);
  return emitSelect(b, loc, up, cUp, cDown);
}

static MlirLogicalResult lowerSliceRuntime(StrataRewrite *rw, MlirOperation op, const StrataOpDef *def, int n) {
  StrataBuilder *b = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(op);
  Strided c = {.x = lowerOperand(op, 0), .rank = lowerRank(lowerOperand(op, 0))};
  bool hasAxes = nnHasOperand(def, op, "axes"), hasSteps = nnHasOperand(def, op, "steps");
  MlirValue starts = strataNamedOperand(def, op, "starts"), ends = strataNamedOperand(def, op, "ends"), site = {NULL};
  MlirValue axis[STRATA_MAX_RANK], start[STRATA_MAX_RANK], end[STRATA_MAX_RANK], step[STRATA_MAX_RANK];
  MlirValue zero = lowerIndexConst(b, loc, 0), one = lowerIndexConst(b, loc, 1);
  for (int i = 0; i < n; i++) {
    axis[i] = hasAxes ? lowerRuntimeAxis(b, op, &site, strataNamedOperand(def, op, "axes"), i, c.rank) : lowerIndexConst(b, loc, i);
    if (!axis[i].ptr) return mlirLogicalResultFailure();
    start[i] = element(b, loc, starts, i), end[i] = element(b, loc, ends, i);
    step[i] = hasSteps ? element(b, loc, strataNamedOperand(def, op, "steps"), i) : one;
    if (hasSteps && !lowerCheck(b, op, &site, emitCmpI(b, loc, CMPI_EQ, step[i], zero), 4, 4, i, zero, zero))
      return mlirLogicalResultFailure();
  }
  MlirValue counts[STRATA_MAX_RANK];
  for (int d = 0; d < c.rank; d++) { /* the axis naming d (at most one) gives its start, end and step */
    MlirValue dim = lowerDimValue(b, loc, c.x, d), s = zero, e = dim, st = one, hits = zero;
    for (int i = 0; i < n; i++) {
      MlirValue hit = emitCmpI(b, loc, CMPI_EQ, axis[i], lowerIndexConst(b, loc, d));
      s = emitSelect(b, loc, hit, start[i], s), e = emitSelect(b, loc, hit, end[i], e), st = emitSelect(b, loc, hit, step[i], st);
      hits = emitBinary(b, loc, "arith.addi", hits, emitSelect(b, loc, hit, one, zero));
    }
    if (!lowerCheck(b, op, &site, emitCmpI(b, loc, CMPI_SGT, hits, one), 7, 3, d, hits, one)) return mlirLogicalResultFailure();
    counts[d] = sliceAxis(b, loc, dim, s, e, st, &c.first[d]);
    c.step[d] = st;
  }
  MlirValue r = lowerGenerateChecked(b, op, &site, 0, counts, bodyStrided, &c);
  if (!r.ptr) return mlirLogicalResultFailure();
  strataReplaceOp(rw, op, STRATA_VALUES(r));
  return mlirLogicalResultSuccess();
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
  if (n < 0 || n > rank) {
    strataEmitError(loc, "nn-to-linalg: a dynamic 'nn.slice' needs starts of a static length");
    return mlirLogicalResultFailure();
  }
  if ((nnHasOperand(def, op, "axes") && !nnConstOperand(def, op, "axes", axes, STRATA_MAX_RANK, &na)) ||
      (nnHasOperand(def, op, "steps") && !nnConstOperand(def, op, "steps", steps, STRATA_MAX_RANK, &nt)))
    return lowerSliceRuntime(rw, op, def, n);
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
