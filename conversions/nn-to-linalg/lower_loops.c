/* scf loops and branches carrying values, and scalar tensor accesses: what
 * the lowerings of the data-dependent ops (lower_datadep*.c) are built
 * from, since a count known only at run time cannot be a linalg.generic's
 * iteration space before it is counted. */
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "lower_internal.h"

void lowerForBegin(StrataBuilder *b, LowerLoop *l, MlirLocation loc, MlirValue lb, MlirValue ub,
                   const MlirValue *inits, int n) {
  MlirValue ops[3 + LOWER_MAX_CARRIED];
  MlirType types[1 + LOWER_MAX_CARRIED];
  ops[0] = lb, ops[1] = ub, ops[2] = lowerIndexConst(b, loc, 1);
  types[0] = strataIndexType(b->ctx);
  for (int i = 0; i < n; i++) ops[3 + i] = inits[i], types[1 + i] = mlirValueGetType(inits[i]);
  l->op = strataCreateOp(b, "scf.for", loc, .operands = {ops, 3 + n}, .results = {types + 1, n}, .numRegions = 1);
  l->body = strataAddBlock(l->op, 0, (StrataTypeList){types, 1 + n}, loc);
  l->outer = *b;
  *b = strataBuilderAtEnd(b->ctx, l->body);
}

MlirValue lowerLoopIv(const LowerLoop *l) { return mlirBlockGetArgument(l->body, 0); }
MlirValue lowerLoopArg(const LowerLoop *l, int i) { return mlirBlockGetArgument(l->body, 1 + i); }

void lowerForEnd(StrataBuilder *b, LowerLoop *l, MlirLocation loc, const MlirValue *yields, int n) {
  strataCreateOp(b, "scf.yield", loc, .operands = {yields, n});
  *b = l->outer;
}

void lowerIfBegin(StrataBuilder *b, LowerIf *f, MlirLocation loc, MlirValue cond, const MlirValue *like, int n) {
  MlirType types[LOWER_MAX_CARRIED];
  for (int i = 0; i < n; i++) types[i] = mlirValueGetType(like[i]);
  f->op = strataCreateOp(b, "scf.if", loc, .operands = STRATA_VALUES(cond), .results = {types, n}, .numRegions = 2);
  f->outer = *b;
  *b = strataBuilderAtEnd(b->ctx, strataAddBlock(f->op, 0, (StrataTypeList){NULL, 0}, loc));
}

void lowerIfElse(StrataBuilder *b, LowerIf *f, MlirLocation loc, const MlirValue *yields, int n) {
  strataCreateOp(b, "scf.yield", loc, .operands = {yields, n});
  *b = strataBuilderAtEnd(b->ctx, strataAddBlock(f->op, 1, (StrataTypeList){NULL, 0}, loc));
}

void lowerIfEnd(StrataBuilder *b, LowerIf *f, MlirLocation loc, const MlirValue *yields, int n) {
  strataCreateOp(b, "scf.yield", loc, .operands = {yields, n});
  *b = f->outer;
}

MlirValue lowerInsert(StrataBuilder *b, MlirLocation loc, MlirValue v, MlirValue t, const MlirValue *at, int n) {
  MlirValue ops[2 + STRATA_MAX_RANK];
  ops[0] = v, ops[1] = t;
  for (int i = 0; i < n; i++) ops[2 + i] = at[i];
  return strataResult(
      strataCreateOp(b, "tensor.insert", loc, .operands = {ops, 2 + n}, .results = STRATA_TYPES(mlirValueGetType(t))), 0);
}

MlirValue lowerEmptyTensor(StrataBuilder *b, MlirLocation loc, MlirType t, const MlirValue *dims) {
  MlirValue dyn[STRATA_MAX_RANK];
  int n = 0;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); d++)
    if (mlirShapedTypeIsDynamicDim(t, d)) dyn[n++] = dims[d];
  return strataResult(strataCreateOp(b, "tensor.empty", loc, .operands = {dyn, n}, .results = STRATA_TYPES(t)), 0);
}

MlirValue lowerFlatten(StrataBuilder *b, MlirLocation loc, MlirValue x, MlirValue *count) {
  *count = lowerIndexConst(b, loc, 1);
  int64_t n = 1;
  for (int d = 0; d < lowerRank(x); d++) {
    *count = emitBinary(b, loc, "arith.muli", *count, lowerDimValue(b, loc, x, d));
    n = n < 0 || lowerDim(x, d) < 0 ? -1 : n * lowerDim(x, d);
  }
  MlirType t = strataTensorType(lowerElementType(x), 1, &n);
  return lowerRank(x) == 1 ? x : lowerReshapeTo(b, loc, x, t, count);
}

MlirValue lowerCountTrue(StrataBuilder *b, MlirLocation loc, MlirValue mask, MlirValue n) {
  LowerLoop l;
  MlirValue zero = lowerIndexConst(b, loc, 0), one = lowerIndexConst(b, loc, 1);
  lowerForBegin(b, &l, loc, zero, n, &zero, 1);
  MlirValue iv = lowerLoopIv(&l), m = linalgExtract(b, loc, mask, &iv, 1);
  MlirValue next = emitBinary(b, loc, "arith.addi", lowerLoopArg(&l, 0), emitSelect(b, loc, m, one, zero));
  lowerForEnd(b, &l, loc, &next, 1);
  return strataResult(l.op, 0);
}

/* tensor.extract_slice / insert_slice of one slice along `axis`: the
 * operands after the source (and dest), their segment sizes and the static
 * arrays. */
typedef struct {
  MlirValue operands[2 + 2 * STRATA_MAX_RANK];
  int n;
  int64_t offs[STRATA_MAX_RANK], sizes[STRATA_MAX_RANK], strides[STRATA_MAX_RANK];
  int32_t dynSizes;
} SliceSpec;

static void sliceSpec(StrataBuilder *b, MlirLocation loc, MlirValue whole, int axis, MlirValue offset, SliceSpec *s) {
  int rank = lowerRank(whole);
  s->operands[s->n++] = offset;
  s->dynSizes = 0;
  for (int d = 0; d < rank; d++) {
    s->offs[d] = d == axis ? INT64_MIN : 0; /* INT64_MIN: kDynamic */
    s->strides[d] = 1;
    s->sizes[d] = d == axis ? 1 : lowerDim(whole, d) >= 0 ? lowerDim(whole, d) : INT64_MIN;
    if (s->sizes[d] == INT64_MIN) s->operands[s->n++] = lowerDimValue(b, loc, whole, d), s->dynSizes++;
  }
}

static MlirAttribute arr(StrataBuilder *b, int rank, const int64_t *v) { return mlirDenseI64ArrayGet(b->ctx, rank, v); }

MlirValue lowerSliceAt(StrataBuilder *b, MlirLocation loc, MlirValue x, int axis, MlirValue offset) {
  SliceSpec s = {.n = 1};
  s.operands[0] = x;
  sliceSpec(b, loc, x, axis, offset, &s);
  int rank = lowerRank(x);
  int64_t dims[STRATA_MAX_RANK];
  for (int d = 0; d < rank; d++) dims[d] = d == axis ? 1 : lowerDim(x, d);
  MlirType t = strataTensorType(lowerElementType(x), rank, dims);
  int32_t seg[4] = {1, 1, s.dynSizes, 0};
  return strataResult(strataCreateOp(b, "tensor.extract_slice", loc, .operands = {s.operands, s.n}, .results = STRATA_TYPES(t),
                                     .attrs = STRATA_ATTRS({"static_offsets", arr(b, rank, s.offs)},
                                                           {"static_sizes", arr(b, rank, s.sizes)},
                                                           {"static_strides", arr(b, rank, s.strides)},
                                                           {"operandSegmentSizes", mlirDenseI32ArrayGet(b->ctx, 4, seg)})),
                      0);
}

MlirValue lowerInsertSliceAt(StrataBuilder *b, MlirLocation loc, MlirValue slice, MlirValue dest, int axis,
                             MlirValue offset) {
  SliceSpec s = {.n = 2};
  s.operands[0] = slice, s.operands[1] = dest;
  sliceSpec(b, loc, slice, axis, offset, &s);
  int rank = lowerRank(dest);
  int32_t seg[5] = {1, 1, 1, s.dynSizes, 0};
  return strataResult(strataCreateOp(b, "tensor.insert_slice", loc, .operands = {s.operands, s.n},
                                     .results = STRATA_TYPES(mlirValueGetType(dest)),
                                     .attrs = STRATA_ATTRS({"static_offsets", arr(b, rank, s.offs)},
                                                           {"static_sizes", arr(b, rank, s.sizes)},
                                                           {"static_strides", arr(b, rank, s.strides)},
                                                           {"operandSegmentSizes", mlirDenseI32ArrayGet(b->ctx, 5, seg)})),
                      0);
}

MlirValue lowerInsertSliceUnits(StrataBuilder *b, MlirLocation loc, MlirValue src, MlirValue dest, const bool *unit,
                                const MlirValue *at) {
  int rank = lowerRank(dest), sd = 0;
  MlirValue ops[2 + 2 * STRATA_MAX_RANK];
  int64_t offs[STRATA_MAX_RANK], sizes[STRATA_MAX_RANK], strides[STRATA_MAX_RANK];
  int n = 2, numOffs = 0;
  ops[0] = src, ops[1] = dest;
  for (int d = 0; d < rank; d++) { /* the dynamic offsets first, then the dynamic sizes */
    offs[d] = unit[d] ? INT64_MIN : 0; /* INT64_MIN: kDynamic */
    strides[d] = 1;
    if (unit[d]) ops[n++] = at[d], numOffs++;
  }
  int32_t numSizes = 0;
  for (int d = 0; d < rank; d++) {
    if (unit[d]) {
      sizes[d] = 1;
      continue;
    }
    sizes[d] = lowerDim(src, sd) >= 0 ? lowerDim(src, sd) : INT64_MIN;
    if (sizes[d] == INT64_MIN) ops[n++] = lowerDimValue(b, loc, src, sd), numSizes++;
    sd++;
  }
  int32_t seg[5] = {1, 1, numOffs, numSizes, 0};
  return strataResult(strataCreateOp(b, "tensor.insert_slice", loc, .operands = {ops, n},
                                     .results = STRATA_TYPES(mlirValueGetType(dest)),
                                     .attrs = STRATA_ATTRS({"static_offsets", arr(b, rank, offs)},
                                                           {"static_sizes", arr(b, rank, sizes)},
                                                           {"static_strides", arr(b, rank, strides)},
                                                           {"operandSegmentSizes", mlirDenseI32ArrayGet(b->ctx, 5, seg)})),
                      0);
}
