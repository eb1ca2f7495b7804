/* Movement ops with dynamic dims (issue 19): the lowerings whose static
 * forms bake extents into the IR (insert_slice offsets, `mod` in an
 * indexing map). Their result extents and the run-time checks come from
 * lower_dims.c (the concat and tile rules); here the copies use run-time
 * offsets and extents. */
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "nn_internal.h"
#include "lower_internal.h"

/* tensor.insert_slice of all of `src` into `dest` at `offset` along `axis`
 * (0 elsewhere); `src`'s dynamic extents are read at run time. */
static MlirValue insertAlong(StrataBuilder *b, MlirLocation loc, MlirValue src, MlirValue dest, int axis,
                             MlirValue offset) {
  int rank = lowerRank(src);
  int64_t offs[STRATA_MAX_RANK], sizes[STRATA_MAX_RANK], strides[STRATA_MAX_RANK];
  MlirValue operands[2 + 2 * STRATA_MAX_RANK];
  int n = 0;
  operands[n++] = src, operands[n++] = dest;
  for (int d = 0; d < rank; d++) offs[d] = d == axis ? INT64_MIN : 0, strides[d] = 1; /* INT64_MIN: kDynamic */
  operands[n++] = offset;
  int32_t segments[5] = {1, 1, 1, 0, 0};
  for (int d = 0; d < rank; d++) {
    sizes[d] = lowerDim(src, d) >= 0 ? lowerDim(src, d) : INT64_MIN;
    if (sizes[d] == INT64_MIN) operands[n++] = lowerDimValue(b, loc, src, d), segments[3]++;
  }
  MlirOperation op = strataCreateOp(
      b, "tensor.insert_slice", loc, .operands = {operands, n}, .results = STRATA_TYPES(mlirValueGetType(dest)),
      .attrs = STRATA_ATTRS({"static_offsets", mlirDenseI64ArrayGet(b->ctx, rank, offs)},
                            {"static_sizes", mlirDenseI64ArrayGet(b->ctx, rank, sizes)},
                            {"static_strides", mlirDenseI64ArrayGet(b->ctx, rank, strides)},
                            {"operandSegmentSizes", mlirDenseI32ArrayGet(b->ctx, 5, segments)}));
  return strataResult(op, 0);
}

/* Concat: a at 0, b at a's run-time extent along the axis. */
MlirValue lowerConcatDynamic(StrataBuilder *b, MlirOperation op) {
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue a = lowerOperand(op, 0), c = lowerOperand(op, 1);
  int64_t axis;
  nnAttrInt(op, "axis", 0, &axis);
  nnNormalizeAxis(op, "axis", &axis, lowerRank(a));
  MlirValue dims[STRATA_MAX_RANK];
  if (!lowerResultDims(b, op, 0, dims)) return (MlirValue){NULL};
  /* the two slices cover the result: no fill */
  MlirValue y = lowerEmptyTensor(b, loc, lowerResultType(op, 0), dims);
  y = insertAlong(b, loc, a, y, (int)axis, lowerIndexConst(b, loc, 0));
  return insertAlong(b, loc, c, y, (int)axis, lowerDimValue(b, loc, a, (int)axis));
}

/* Split: result i is the slice at its run-time offset and extent along the
 * axis (lowerSplitChunk), whole off it. */
MlirLogicalResult lowerSplitDynamic(StrataRewrite *rw, MlirOperation op) {
  StrataBuilder *b = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue x = lowerOperand(op, 0);
  int rank = lowerRank(x), outputs = (int)mlirOperationGetNumResults(op);
  int64_t axis;
  nnAttrInt(op, "axis", 0, &axis);
  nnNormalizeAxis(op, "axis", &axis, rank);
  MlirValue results[64];
  if (outputs > 64) return mlirLogicalResultFailure();
  for (int k = 0; k < outputs; k++) {
    MlirValue offset, extent;
    if (!lowerSplitChunk(b, op, k, &offset, &extent)) return mlirLogicalResultFailure();
    MlirType t = lowerResultType(op, k);
    int64_t offs[STRATA_MAX_RANK], sizes[STRATA_MAX_RANK], strides[STRATA_MAX_RANK];
    MlirValue operands[1 + 2 * STRATA_MAX_RANK];
    int n = 0;
    int32_t segments[4] = {1, 1, 0, 0};
    operands[n++] = x, operands[n++] = offset;
    for (int d = 0; d < rank; d++) offs[d] = d == axis ? INT64_MIN : 0, strides[d] = 1; /* INT64_MIN: kDynamic */
    for (int d = 0; d < rank; d++) {
      sizes[d] = mlirShapedTypeGetDimSize(t, d) >= 0 ? mlirShapedTypeGetDimSize(t, d) : INT64_MIN;
      if (sizes[d] != INT64_MIN) continue;
      operands[n++] = d == axis ? extent : lowerDimValue(b, loc, x, d);
      segments[2]++;
    }
    results[k] = strataResult(
        strataCreateOp(b, "tensor.extract_slice", loc, .operands = {operands, n}, .results = STRATA_TYPES(t),
                       .attrs = STRATA_ATTRS({"static_offsets", mlirDenseI64ArrayGet(b->ctx, rank, offs)},
                                             {"static_sizes", mlirDenseI64ArrayGet(b->ctx, rank, sizes)},
                                             {"static_strides", mlirDenseI64ArrayGet(b->ctx, rank, strides)},
                                             {"operandSegmentSizes", mlirDenseI32ArrayGet(b->ctx, 4, segments)})),
        0);
  }
  strataReplaceOp(rw, op, (StrataValueList){results, outputs});
  return mlirLogicalResultSuccess();
}

/* Tile: out[i] = x[i mod extent], with the extents read at run time (an
 * indexing map's `mod` needs a constant). */
typedef struct {
  MlirValue x, extents[STRATA_MAX_RANK];
  int rank;
} TileCtx;

static MlirValue bodyTile(StrataBuilder *b, MlirLocation loc, const MlirValue *args, void *u) {
  (void)args;
  const TileCtx *c = u;
  MlirValue at[STRATA_MAX_RANK];
  for (int d = 0; d < c->rank; d++) at[d] = emitBinary(b, loc, "arith.remui", linalgIndex(b, loc, d), c->extents[d]);
  return linalgExtract(b, loc, c->x, at, c->rank);
}

MlirValue lowerTileDynamic(StrataBuilder *b, MlirOperation op) {
  MlirLocation loc = mlirOperationGetLocation(op);
  TileCtx c = {lowerOperand(op, 0), {{NULL}}, 0};
  c.rank = lowerRank(c.x);
  MlirValue init = lowerResultEmpty(b, op, 0);
  if (!init.ptr) return init;
  for (int d = 0; d < c.rank; d++) c.extents[d] = lowerDimValue(b, loc, c.x, d);
  char id[256], its[STRATA_MAX_RANK + 1];
  lowerIdentityMap(id, sizeof id, c.rank);
  lowerParallelIterators(its, c.rank);
  const char *maps[] = {id};
  return linalgBuildGeneric(b, loc, (StrataValueList){NULL, 0}, init, maps, its, bodyTile, &c);
}
