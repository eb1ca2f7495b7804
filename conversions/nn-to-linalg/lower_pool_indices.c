/* MaxPool's indices and their inverse.
 *
 * nn.max_pool_with_indices -> one linalg.generic with two outputs (Y and
 * the i64 index), reducing over the window: each in-range input element
 * (read with tensor.extract at its computed position; positions in the
 * padding are skipped, not padded) replaces the current pick when there is
 * none yet or it is strictly larger, as the interpreter does
 * (ops_pool_norm.c). Static shapes only (the pooling window rule of
 * lower_dims.c compiles dynamic dims through the runtime kernels, which
 * have no indices). */
#include <math.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "nn_internal.h"
#include "lower_internal.h"

typedef struct {
  MlirValue x; /* signless elements */
  NnWindow w;
  int sp;
  int64_t in[NN_MAX_SPATIAL], C;
  bool columnMajor, isFloat, isUnsigned;
} PoolIdx;

static void bodyPoolIndex(StrataBuilder *b, MlirLocation loc, const MlirValue *a, MlirValue *yields, void *u) {
  const PoolIdx *c = u;
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64);
  MlirValue zero = lowerIndexConst(b, loc, 0), at[STRATA_MAX_RANK], inside = {NULL}, p[NN_MAX_SPATIAL];
  at[0] = linalgIndex(b, loc, 0), at[1] = linalgIndex(b, loc, 1);
  for (int d = 0; d < c->sp; d++) {
    MlirValue o = emitBinary(b, loc, "arith.muli", linalgIndex(b, loc, 2 + d), lowerIndexConst(b, loc, c->w.strides[d]));
    MlirValue k = emitBinary(b, loc, "arith.muli", linalgIndex(b, loc, 2 + c->sp + d),
                             lowerIndexConst(b, loc, c->w.dilations[d]));
    p[d] = emitBinary(b, loc, "arith.subi", emitBinary(b, loc, "arith.addi", o, k), lowerIndexConst(b, loc, c->w.pads[d]));
    MlirValue ok = emitBinary(b, loc, "arith.andi", emitCmpI(b, loc, CMPI_SGE, p[d], zero),
                              emitCmpI(b, loc, CMPI_SLT, p[d], lowerIndexConst(b, loc, c->in[d])));
    inside = inside.ptr ? emitBinary(b, loc, "arith.andi", inside, ok) : ok;
  }
  for (int d = 0; d < c->sp; d++) at[2 + d] = p[d] = emitSelect(b, loc, inside, p[d], zero);
  MlirValue v = linalgExtract(b, loc, c->x, at, 2 + c->sp);
  /* flat index: (n * C + c) * spatial size + the position in storage order */
  MlirValue flat = emitBinary(b, loc, "arith.addi", emitBinary(b, loc, "arith.muli", at[0], lowerIndexConst(b, loc, c->C)), at[1]);
  MlirValue pos = zero;
  int64_t scale = 1;
  for (int i = 0; i < c->sp; i++) {
    int d = c->columnMajor ? i : c->sp - 1 - i;
    pos = emitBinary(b, loc, "arith.addi", pos, emitBinary(b, loc, "arith.muli", p[d], lowerIndexConst(b, loc, scale)));
    scale *= c->in[d];
  }
  flat = emitBinary(b, loc, "arith.addi", emitBinary(b, loc, "arith.muli", flat, lowerIndexConst(b, loc, scale)), pos);
  MlirValue cur = a[1], curIdx = a[2];
  MlirValue larger = c->isFloat ? emitCmpF(b, loc, CMPF_OGT, v, cur)
                                : emitCmpI(b, loc, c->isUnsigned ? CMPI_UGT : CMPI_SGT, v, cur);
  MlirValue none = emitCmpI(b, loc, CMPI_SLT, curIdx, strataConstInt(b, loc, i64, 0));
  MlirValue take = emitBinary(b, loc, "arith.andi", inside, emitBinary(b, loc, "arith.ori", none, larger));
  yields[0] = emitSelect(b, loc, take, v, cur);
  yields[1] = emitSelect(b, loc, take, emitConvert(b, loc, "arith.index_cast", flat, i64), curIdx);
}

static MlirLogicalResult lowerPoolIndices(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  MlirValue x = lowerOperand(op, 0);
  MlirType t = lowerResultType(op, 0), it = lowerResultType(op, 1), et = lowerElementType(x);
  int rank = lowerRank(x);
  PoolIdx c = {.sp = rank - 2, .C = lowerDim(x, 1), .isFloat = lowerIsFloat(et), .isUnsigned = lowerIsUnsigned(et)};
  int64_t out[NN_MAX_SPATIAL], order = 0;
  const char *why;
  for (int i = 0; i < c.sp; i++) c.in[i] = lowerDim(x, 2 + i);
  if (!nn_get_window(op, c.sp, NULL, &c.w) || !nn_infer_window_output(&c.w, c.in, out, &why) ||
      !nnAttrInt(op, "storage_order", 0, &order))
    return mlirLogicalResultFailure();
  c.columnMajor = order == 1;
  /* x with signless elements, as the body compares them */
  char id[256], its[2 * NN_MAX_SPATIAL + 3], mk[128], mo[256];
  lowerIdentityMap(id, sizeof id, rank);
  lowerParallelIterators(its, rank);
  const char *same[] = {id, id};
  int64_t dims[STRATA_MAX_RANK];
  for (int d = 0; d < rank; d++) dims[d] = lowerDim(x, d);
  c.x = linalgBuildGeneric(b, loc, STRATA_VALUES(x), linalgSplatConstant(b, loc, strataTensorType(lowerSignless(et), rank, dims), 0),
                           same, its, bodyYieldInput, NULL);
  /* loops: n, c, output spatial (parallel), window (reduction) */
  int loops = 2 + 2 * c.sp;
  int kd[NN_MAX_SPATIAL], od[STRATA_MAX_RANK];
  for (int i = 0; i < c.sp; i++) kd[i] = 2 + c.sp + i;
  for (int i = 0; i < 2 + c.sp; i++) od[i] = i;
  linalgFormatDims(mk, sizeof mk, kd, c.sp);
  linalgFormatDims(mo, sizeof mo, od, 2 + c.sp);
  for (int i = 0; i < loops; i++) its[i] = i < 2 + c.sp ? 'p' : 'r';
  its[loops] = '\0';
  double lowest = c.isFloat ? -INFINITY : c.isUnsigned ? 0 : -pow(2, mlirIntegerTypeGetWidth(et) - 1);
  MlirValue window = linalgSplatConstant(b, loc, strataTensorType(et, c.sp, c.w.kernel), 0);
  MlirValue inits[2] = {linalgSplatConstant(b, loc, t, lowest), linalgSplatConstant(b, loc, it, -1)}, results[2];
  const char *maps[] = {mk, mo, mo};
  linalgBuildGenericN(b, loc, STRATA_VALUES(window), (StrataValueList){inits, 2}, maps, its, bodyPoolIndex, &c, results);
  strataReplaceOp(rw, op, (StrataValueList){results, 2});
  return mlirLogicalResultSuccess();
}

/* nn.max_unpool -> zeros of the flattened default output, an scf.for
 * writing x[i] at indices[i] (each checked to be inside it: a located
 * run-time error otherwise), reshaped to the default output; with an
 * output_shape larger than it, inserted at the origin of zeros of
 * output_shape (run-time extents read from the operand and checked to be
 * at least the default's). */
static MlirLogicalResult lowerUnpool(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  MlirType t = lowerResultType(op, 0), xt = mlirValueGetType(lowerOperand(op, 0));
  int rank = (int)mlirShapedTypeGetRank(xt);
  if (!mlirShapedTypeHasStaticShape(xt)) {
    strataEmitError(loc, "nn-to-linalg: 'nn.max_unpool' with dynamic dims of operand 'x' is not compiled");
    return mlirLogicalResultFailure();
  }
  StrataShape xs = {.rank = rank};
  int64_t dflt[STRATA_MAX_RANK], size = 1;
  for (int d = 0; d < rank; d++) xs.dims[d] = mlirShapedTypeGetDimSize(xt, d);
  if (!nnUnpoolDims(op, &xs, dflt)) return mlirLogicalResultFailure();
  for (int d = 0; d < rank; d++) size *= dflt[d];
  MlirType et = mlirShapedTypeGetElementType(t), dt = strataTensorType(et, rank, dflt);
  MlirValue n, total = lowerIndexConst(b, loc, size);
  MlirValue x = lowerFlatten(b, loc, lowerOperand(op, 0), &n), ind = lowerFlatten(b, loc, lowerOperand(op, 1), &n);
  MlirValue y = linalgSplatConstant(b, loc, strataTensorType(et, 1, &size), 0);
  LowerLoop l;
  lowerForBegin(b, &l, loc, lowerIndexConst(b, loc, 0), n, &y, 1);
  MlirValue i = lowerLoopIv(&l);
  MlirValue at = emitConvert(b, loc, "arith.index_cast", linalgExtract(b, loc, ind, &i, 1), strataIndexType(b->ctx));
  MlirValue bad = emitBinary(b, loc, "arith.ori", emitCmpI(b, loc, CMPI_SLT, at, lowerIndexConst(b, loc, 0)),
                             emitCmpI(b, loc, CMPI_SGE, at, total));
  if (!lowerCheck(b, op, &(MlirValue){NULL}, bad, 13, 1, 0, at, total)) return mlirLogicalResultFailure();
  MlirValue next = lowerInsert(b, loc, linalgExtract(b, loc, x, &i, 1), lowerLoopArg(&l, 0), &at, 1);
  lowerForEnd(b, &l, loc, &next, 1);
  MlirValue dims[STRATA_MAX_RANK];
  for (int d = 0; d < rank; d++) dims[d] = lowerIndexConst(b, loc, dflt[d]);
  MlirValue out = lowerReshapeTo(b, loc, strataResult(l.op, 0), dt, dims);
  if (!mlirTypeEqual(dt, t)) { /* at the origin of zeros of output_shape */
    MlirValue site = {NULL}, shape = lowerOperand(op, 2);
    for (int d = 0; d < rank; d++) {
      if (!mlirShapedTypeIsDynamicDim(t, d)) {
        dims[d] = lowerIndexConst(b, loc, mlirShapedTypeGetDimSize(t, d));
        continue;
      }
      MlirValue k = lowerIndexConst(b, loc, d);
      dims[d] = emitConvert(b, loc, "arith.index_cast", linalgExtract(b, loc, shape, &k, 1), strataIndexType(b->ctx));
      MlirValue below = emitCmpI(b, loc, CMPI_SLT, dims[d], lowerIndexConst(b, loc, dflt[d]));
      if (!lowerCheck(b, op, &site, below, 3, 2, d, dims[d], lowerIndexConst(b, loc, dflt[d])))
        return mlirLogicalResultFailure();
    }
    int64_t zero[STRATA_MAX_RANK] = {0};
    out = linalgInsertSlice(b, loc, out, lowerInitDims(b, loc, t, dims, 0), zero);
  }
  strataReplaceOp(rw, op, STRATA_VALUES(out));
  return mlirLogicalResultSuccess();
}

void nnToLinalgPoolIndices(LowerRegistry *r) {
  lowerRegister(r, "nn.max_pool_with_indices", lowerPoolIndices, NULL);
  lowerRegister(r, "nn.max_unpool", lowerUnpool, NULL);
}
