/* Reductions -> linalg.generic with reduction iterators. Results are built
 * without the kept unit dims and reshaped to the declared type. Softmax is
 * max, exp-sum and a normalizing generic; ArgMax/ArgMin carry (value, index)
 * in a two-output reduction; CumSum is a masked reduction over the axis;
 * TopK ranks every element (its count of "better" elements, ties broken by
 * index) and then gathers the element of each rank. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "nn_internal.h"
#include "lower_internal.h"

typedef enum { R_SUM, R_MEAN, R_MAX, R_MIN, R_PROD, R_L1, R_L2, R_SUMSQ, R_LOGSUM, R_LOGSUMEXP } Kind;

static const char *const kNames[] = {"nn.reduce_sum", "nn.reduce_mean", "nn.reduce_max",
                                     "nn.reduce_min", "nn.reduce_prod", "nn.reduce_l1",
                                     "nn.reduce_l2", "nn.reduce_sum_square", "nn.reduce_log_sum",
                                     "nn.reduce_log_sum_exp"};

typedef struct {
  Kind kind;
  bool isFloat, isUnsigned;
} ReduceCtx;

static MlirValue bodyReduce(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const ReduceCtx *c = u;
  MlirValue x = a[0], acc = a[1];
  const char *add = c->isFloat ? "arith.addf" : "arith.addi", *mul = c->isFloat ? "arith.mulf" : "arith.muli";
  switch (c->kind) {
  case R_MAX: return emitBinary(b, loc, c->isFloat ? "arith.maximumf" : c->isUnsigned ? "arith.maxui" : "arith.maxsi", acc, x);
  case R_MIN: return emitBinary(b, loc, c->isFloat ? "arith.minimumf" : c->isUnsigned ? "arith.minui" : "arith.minsi", acc, x);
  case R_PROD: return emitBinary(b, loc, mul, acc, x);
  case R_L1:
    if (c->isFloat) return emitBinary(b, loc, add, acc, emitUnary(b, loc, "math.absf", x));
    if (!c->isUnsigned) {
      MlirValue zero = emitConst(b, loc, mlirValueGetType(x), 0);
      x = emitSelect(b, loc, emitCmpI(b, loc, CMPI_SLT, x, zero), emitBinary(b, loc, "arith.subi", zero, x), x);
    }
    return emitBinary(b, loc, add, acc, x);
  case R_L2: case R_SUMSQ: return emitBinary(b, loc, add, acc, emitBinary(b, loc, mul, x, x));
  default: return emitBinary(b, loc, add, acc, x);
  }
}

static double identityOf(Kind k, bool isFloat, MlirType et) {
  if (k == R_PROD) return 1;
  if (k == R_MAX) return isFloat ? -INFINITY : lowerIsUnsigned(et) ? 0 : -pow(2, mlirIntegerTypeGetWidth(et) - 1);
  if (k == R_MIN) return isFloat ? INFINITY : lowerIsUnsigned(et) ? pow(2, mlirIntegerTypeGetWidth(et)) - 1 : pow(2, mlirIntegerTypeGetWidth(et) - 1) - 1;
  return 0;
}


/* One reduction generic of x over mask into a kept-dims tensor. */
static MlirValue reduceGeneric(StrataBuilder *b, MlirLocation loc, MlirValue x, const bool *mask,
                               ReduceCtx *c, MlirValue extraInput, LinalgBodyFn body) {
  int rank = lowerRank(x);
  char mx[256], mo[256], its[STRATA_MAX_RANK + 1];
  lowerReductionMaps(rank, mask, mx, mo, its);
  MlirType et = lowerElementType(x), t = lowerKeptType(x, mask, et);
  MlirValue kept[STRATA_MAX_RANK];
  for (int d = 0, n = 0; d < rank; d++)
    if (!mask[d]) kept[n++] = lowerDimValue(b, loc, x, d);
  MlirValue init = lowerInitDims(b, loc, t, kept, identityOf(c->kind, c->isFloat, et));
  if (mlirValueIsNull(extraInput)) {
    const char *maps[] = {mx, mo};
    return linalgBuildGeneric(b, loc, STRATA_VALUES(x), init, maps, its, body, c);
  }
  const char *maps[] = {mx, mo, mo};
  return linalgBuildGeneric(b, loc, STRATA_VALUES(x, extraInput), init, maps, its, body, c);
}

/* logsumexp's second pass: acc + exp(x - max). */
static MlirValue bodySumExpShifted(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  (void)u;
  MlirValue d = emitBinary(b, loc, "arith.subf", a[0], a[1]);
  return emitBinary(b, loc, "arith.addf", a[2], emitUnary(b, loc, "math.exp", d));
}

typedef struct {
  Kind kind;
  double count;
  MlirValue runCount; /* the count as a run-time value, when a reduced dim is dynamic */
} Finish;

static MlirValue bodyFinish(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const Finish *f = u;
  MlirType t = mlirValueGetType(a[0]);
  switch (f->kind) {
  case R_MEAN:
    return emitBinary(b, loc, "arith.divf", a[0], f->runCount.ptr ? f->runCount : emitConst(b, loc, t, f->count));
  case R_L2: return emitUnary(b, loc, "math.sqrt", a[0]);
  case R_LOGSUM: return emitUnary(b, loc, "math.log", a[0]);
  default: { /* logsumexp: log(s) + m, with m = 0 where m is infinite */
    MlirValue m = a[1], inf = emitConst(b, loc, t, INFINITY);
    MlirValue isInf = emitCmpF(b, loc, CMPF_OEQ, emitUnary(b, loc, "math.absf", m), inf);
    m = emitSelect(b, loc, isInf, emitConst(b, loc, t, 0), m);
    return emitBinary(b, loc, "arith.addf", emitUnary(b, loc, "math.log", a[0]), m);
  }
  }
}

/* An elementwise generic over ins (of one shape, ins.values[0]'s). */
static MlirValue elementwiseOn(StrataBuilder *b, MlirLocation loc, StrataValueList ins, MlirType t,
                               LinalgBodyFn body, void *user) {
  int rank = (int)mlirShapedTypeGetRank(t);
  char id[256], its[STRATA_MAX_RANK + 1];
  lowerIdentityMap(id, sizeof id, rank);
  lowerParallelIterators(its, rank);
  const char *maps[] = {id, id, id};
  MlirValue dims[STRATA_MAX_RANK];
  for (int d = 0; d < rank; d++) dims[d] = lowerDimValue(b, loc, ins.data[0], d);
  return linalgBuildGeneric(b, loc, ins, lowerInitDims(b, loc, t, dims, 0), maps, its, body, user);
}

/* The run-time count of the flagged dims' elements, as a float of type et. */
static MlirValue flaggedCount(StrataBuilder *b, MlirLocation loc, MlirValue x, const MlirValue *isAxis, MlirType et) {
  MlirValue n = lowerIndexConst(b, loc, 1);
  for (int d = 0; d < lowerRank(x); d++)
    n = emitBinary(b, loc, "arith.muli", n,
                   emitSelect(b, loc, isAxis[d], lowerDimValue(b, loc, x, d), lowerIndexConst(b, loc, 1)));
  return lowerIndexToFloat(b, loc, n, et);
}

/* L1/L2/SumSquare's per-element term (|x| or x*x): the running passes then sum. */
static MlirValue bodyTerm(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  MlirValue args[2] = {a[0], emitConst(b, loc, mlirValueGetType(a[0]), 0)};
  return bodyReduce(b, loc, args, u);
}

/* y reduced along dim d into its own rank (extent 1 at d) when isAxis
 * holds at run time, else y: one scf.if per dim, so the static structure
 * covers every choice of axes. */
static MlirValue reduceIfAxis(StrataBuilder *b, MlirLocation loc, MlirValue y, int d, MlirValue isAxis, ReduceCtx *c) {
  int rank = lowerRank(y);
  int64_t dims[STRATA_MAX_RANK];
  for (int e = 0; e < rank; e++) dims[e] = e == d && lowerDim(y, e) != 1 ? -1 : lowerDim(y, e);
  MlirType t = strataTensorType(lowerElementType(y), rank, dims);
  MlirOperation ifOp = strataCreateOp(b, "scf.if", loc, .operands = STRATA_VALUES(isAxis), .results = STRATA_TYPES(t),
                                      .numRegions = 2);
  StrataBuilder then = strataBuilderAtEnd(b->ctx, strataAddBlock(ifOp, 0, (StrataTypeList){NULL, 0}, loc));
  StrataBuilder other = strataBuilderAtEnd(b->ctx, strataAddBlock(ifOp, 1, (StrataTypeList){NULL, 0}, loc));
  bool mask[STRATA_MAX_RANK] = {false};
  mask[d] = true;
  MlirValue kept[STRATA_MAX_RANK];
  for (int e = 0; e < rank; e++) kept[e] = e == d ? lowerIndexConst(&then, loc, 1) : lowerDimValue(&then, loc, y, e);
  MlirValue r = reduceGeneric(&then, loc, y, mask, c, (MlirValue){NULL}, bodyReduce);
  int64_t rdims[STRATA_MAX_RANK];
  for (int e = 0; e < rank; e++) rdims[e] = e == d ? 1 : lowerDim(y, e);
  r = lowerReshapeTo(&then, loc, r, strataTensorType(lowerElementType(y), rank, rdims), kept);
  MlirValue branches[2] = {r, y};
  StrataBuilder *bs[2] = {&then, &other};
  for (int i = 0; i < 2; i++) {
    MlirValue v = branches[i];
    if (!mlirTypeEqual(mlirValueGetType(v), t))
      v = strataResult(strataCreateOp(bs[i], "tensor.cast", loc, .operands = STRATA_VALUES(v), .results = STRATA_TYPES(t)), 0);
    strataCreateOp(bs[i], "scf.yield", loc, .operands = STRATA_VALUES(v));
  }
  return strataResult(ifOp, 0);
}

/* A reduction whose axes (operand #1) are run-time values: the axes are
 * checked, x passes through one reduceIfAxis per dim (after L1/L2/
 * SumSquare's per-element term), the mean divides by the run-time count,
 * and without keepdims the reduced unit dims are squeezed at run time. */
static MlirLogicalResult lowerReduceRuntimeAxes(StrataRewrite *rw, MlirOperation op, Kind kind) {
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  MlirValue x = lowerOperand(op, 0), site = {NULL}, isAxis[STRATA_MAX_RANK];
  int rank = lowerRank(x);
  if (kind == R_LOGSUMEXP) {
    strataEmitError(loc, "nn-to-linalg: 'nn.reduce_log_sum_exp' with run-time axes is not compiled");
    return mlirLogicalResultFailure();
  }
  if (!lowerRuntimeAxes(b, op, &site, rank, isAxis)) return mlirLogicalResultFailure();
  MlirType et = lowerElementType(x);
  ReduceCtx c = {kind, lowerIsFloat(et), lowerIsUnsigned(et)};
  MlirValue y = x;
  if (kind == R_L1 || kind == R_L2 || kind == R_SUMSQ) y = elementwiseOn(b, loc, STRATA_VALUES(x), mlirValueGetType(x), bodyTerm, &c);
  if (kind != R_MAX && kind != R_MIN && kind != R_PROD) c.kind = R_SUM;
  for (int d = 0; d < rank; d++) y = reduceIfAxis(b, loc, y, d, isAxis[d], &c);
  if (kind == R_MEAN || kind == R_L2 || kind == R_LOGSUM) {
    Finish f = {kind, 1, kind == R_MEAN ? flaggedCount(b, loc, x, isAxis, et) : (MlirValue){NULL}};
    y = elementwiseOn(b, loc, STRATA_VALUES(y), mlirValueGetType(y), bodyFinish, &f);
  }
  int64_t keep = 1;
  nnAttrInt(op, "keepdims", 1, &keep);
  MlirType rt = lowerResultType(op, 0);
  if (!keep) {
    MlirValue dims[STRATA_MAX_RANK];
    if (!lowerSqueezeByFlags(b, op, &site, false, y, isAxis, (int)mlirShapedTypeGetRank(rt), dims))
      return mlirLogicalResultFailure();
    y = lowerReshapeTo(b, loc, y, rt, dims);
  }
  if (!mlirTypeEqual(mlirValueGetType(y), rt))
    y = strataResult(strataCreateOp(b, "tensor.cast", loc, .operands = STRATA_VALUES(y), .results = STRATA_TYPES(rt)), 0);
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult lowerReduce(StrataRewrite *rw, MlirOperation op, void *user) {
  Kind kind = (Kind)((const char *const *)user - kNames);
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  MlirValue x = lowerOperand(op, 0);
  int64_t axes[STRATA_MAX_RANK];
  int n;
  if (nnIntsArg(op, 1, NULL, "axes", axes, STRATA_MAX_RANK, &n) == 0) return lowerReduceRuntimeAxes(rw, op, kind);
  bool mask[STRATA_MAX_RANK], identity;
  if (!nnReduceAxes(op, NULL, lowerRank(x), mask, &identity)) return mlirLogicalResultFailure();
  if (identity) {
    strataReplaceOp(rw, op, STRATA_VALUES(x));
    return mlirLogicalResultSuccess();
  }
  MlirType et = lowerElementType(x);
  ReduceCtx c = {kind, lowerIsFloat(et), lowerIsUnsigned(et)};
  MlirValue y, maxv = {NULL};
  if (kind == R_LOGSUMEXP) {
    ReduceCtx cm = {R_MAX, true, false};
    maxv = reduceGeneric(b, loc, x, mask, &cm, (MlirValue){NULL}, bodyReduce);
    ReduceCtx cs = {R_SUM, true, false};
    y = reduceGeneric(b, loc, x, mask, &cs, maxv, bodySumExpShifted);
  } else {
    y = reduceGeneric(b, loc, x, mask, &c, (MlirValue){NULL}, bodyReduce);
  }
  if (kind == R_MEAN || kind == R_L2 || kind == R_LOGSUM || kind == R_LOGSUMEXP) {
    Finish f = {kind, 1, {NULL}};
    bool dynamic = false;
    for (int d = 0; d < lowerRank(x); d++)
      if (mask[d]) f.count *= (double)lowerDim(x, d), dynamic |= lowerDim(x, d) < 0;
    if (dynamic) {
      MlirValue n = lowerIndexConst(b, loc, 1);
      for (int d = 0; d < lowerRank(x); d++)
        if (mask[d]) n = emitBinary(b, loc, "arith.muli", n, lowerDimValue(b, loc, x, d));
      f.runCount = lowerIndexToFloat(b, loc, n, et);
    }
    StrataValueList ins = kind == R_LOGSUMEXP ? STRATA_VALUES(y, maxv) : STRATA_VALUES(y);
    y = elementwiseOn(b, loc, ins, mlirValueGetType(y), bodyFinish, &f);
  }
  MlirValue dims[STRATA_MAX_RANK];
  if (!lowerResultDims(b, op, 0, dims)) return mlirLogicalResultFailure();
  strataReplaceOp(rw, op, STRATA_VALUES(lowerReshapeTo(b, loc, y, lowerResultType(op, 0), dims)));
  return mlirLogicalResultSuccess();
}

/* ---- ArgMax / ArgMin ---- */

typedef struct {
  int axis;
  bool isMax, last, isFloat, isUnsigned;
} ArgCtx;

static void bodyArg(StrataBuilder *b, MlirLocation loc, const MlirValue *a, MlirValue *y, void *u) {
  const ArgCtx *c = u;
  MlirValue x = a[0], best = a[1], bestIdx = a[2];
  int pred = c->isFloat ? (c->isMax ? (c->last ? CMPF_OGE : CMPF_OGT) : (c->last ? CMPF_OLE : CMPF_OLT))
                        : c->isUnsigned ? (c->isMax ? (c->last ? CMPI_UGE : CMPI_UGT) : (c->last ? CMPI_ULE : CMPI_ULT))
                                        : (c->isMax ? (c->last ? CMPI_SGE : CMPI_SGT) : (c->last ? CMPI_SLE : CMPI_SLT));
  MlirValue idx = emitConvert(b, loc, "arith.index_cast", linalgIndex(b, loc, c->axis), mlirIntegerTypeGet(b->ctx, 64));
  MlirValue better = c->isFloat ? emitCmpF(b, loc, pred, x, best) : emitCmpI(b, loc, pred, x, best);
  /* The first element always wins, so the identity value never leaks out. */
  MlirValue first = emitCmpI(b, loc, CMPI_EQ, idx, emitConst(b, loc, mlirValueGetType(idx), 0));
  better = emitBinary(b, loc, "arith.ori", better, first);
  y[0] = emitSelect(b, loc, better, x, best);
  y[1] = emitSelect(b, loc, better, idx, bestIdx);
}

static MlirLogicalResult lowerArg(StrataRewrite *rw, MlirOperation op, void *user) {
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  MlirValue x = lowerOperand(op, 0);
  int64_t axis, last;
  nnAttrInt(op, "axis", 0, &axis);
  nnAttrInt(op, "select_last_index", 0, &last);
  nnNormalizeAxis(op, "axis", &axis, lowerRank(x));
  bool mask[STRATA_MAX_RANK] = {false};
  mask[axis] = true;
  MlirType et = lowerElementType(x);
  ArgCtx c = {(int)axis, user != NULL, last != 0, lowerIsFloat(et), lowerIsUnsigned(et)};
  int rank = lowerRank(x);
  char mx[256], mo[256], its[STRATA_MAX_RANK + 1];
  lowerReductionMaps(rank, mask, mx, mo, its);
  MlirValue kept[STRATA_MAX_RANK], dims[STRATA_MAX_RANK]; /* run-time extents where dynamic */
  for (int d = 0, k = 0; d < rank; d++)
    if (d != axis) kept[k++] = lowerDimValue(b, loc, x, d);
  if (!lowerResultDims(b, op, 0, dims)) return mlirLogicalResultFailure();
  MlirValue inits[2] = {lowerInitDims(b, loc, lowerKeptType(x, mask, et), kept, 0),
                        lowerInitDims(b, loc, lowerKeptType(x, mask, mlirIntegerTypeGet(b->ctx, 64)), kept, 0)};
  const char *maps[] = {mx, mo, mo};
  MlirValue res[2];
  linalgBuildGenericN(b, loc, STRATA_VALUES(x), (StrataValueList){inits, 2}, maps, its, bodyArg, &c, res);
  strataReplaceOp(rw, op, STRATA_VALUES(lowerReshapeTo(b, loc, res[1], lowerResultType(op, 0), dims)));
  return mlirLogicalResultSuccess();
}

/* ---- Softmax / LogSoftmax ---- */

static MlirValue bodyExpShifted(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  (void)u;
  return emitUnary(b, loc, "math.exp", emitBinary(b, loc, "arith.subf", a[0], a[1]));
}

typedef struct {
  bool logForm;
} SoftmaxCtx;

static MlirValue bodySoftmaxOut(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const SoftmaxCtx *c = u;
  if (!c->logForm) return emitBinary(b, loc, "arith.divf", a[0], a[1]);
  /* (x - max) - log(sum) */
  return emitBinary(b, loc, "arith.subf", emitBinary(b, loc, "arith.subf", a[0], a[2]), emitUnary(b, loc, "math.log", a[1]));
}

static MlirLogicalResult lowerSoftmax(StrataRewrite *rw, MlirOperation op, void *user) {
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  MlirValue x = lowerOperand(op, 0);
  int rank = lowerRank(x);
  int64_t axis;
  nnAttrInt(op, "axis", -1, &axis);
  nnNormalizeAxis(op, "axis", &axis, rank);
  bool mask[STRATA_MAX_RANK] = {false};
  mask[axis] = true;
  ReduceCtx cm = {R_MAX, true, false}, cs = {R_SUM, true, false};
  MlirValue m = reduceGeneric(b, loc, x, mask, &cm, (MlirValue){NULL}, bodyReduce);
  char id[256], kept[256], its[STRATA_MAX_RANK + 1];
  lowerReductionMaps(rank, mask, id, kept, its);
  lowerParallelIterators(its, rank);
  const char *mapsE[] = {id, kept, id};
  MlirValue e = linalgBuildGeneric(b, loc, STRATA_VALUES(x, m), lowerResultEmpty(b, op, 0), mapsE, its, bodyExpShifted, NULL);
  MlirValue s = reduceGeneric(b, loc, e, mask, &cs, (MlirValue){NULL}, bodyReduce);
  SoftmaxCtx c = {user != NULL};
  MlirValue y;
  if (c.logForm) {
    const char *maps[] = {id, kept, kept, id};
    y = linalgBuildGeneric(b, loc, STRATA_VALUES(x, s, m), lowerResultEmpty(b, op, 0), maps, its, bodySoftmaxOut, &c);
  } else {
    const char *maps[] = {id, kept, id};
    y = linalgBuildGeneric(b, loc, STRATA_VALUES(e, s), lowerResultEmpty(b, op, 0), maps, its, bodySoftmaxOut, &c);
  }
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

/* ---- CumSum: y[i] = sum over j of x[j] where j is before/at i ---- */

typedef struct {
  int axis, j;
  bool exclusive, reverse, isFloat;
} CumCtx;

static MlirValue bodyCum(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const CumCtx *c = u;
  MlirValue i = linalgIndex(b, loc, c->axis), j = linalgIndex(b, loc, c->j);
  int pred = c->reverse ? (c->exclusive ? CMPI_SGT : CMPI_SGE) : (c->exclusive ? CMPI_SLT : CMPI_SLE);
  MlirValue take = emitCmpI(b, loc, pred, j, i);
  MlirValue v = emitSelect(b, loc, take, a[0], emitConst(b, loc, mlirValueGetType(a[0]), 0));
  return emitBinary(b, loc, c->isFloat ? "arith.addf" : "arith.addi", a[1], v);
}

static MlirValue cumSumAlong(StrataBuilder *b, MlirLocation loc, MlirValue x, MlirValue init, int64_t axis, bool ex,
                             bool rev) {
  int rank = lowerRank(x);
  CumCtx c = {(int)axis, rank, ex, rev, lowerIsFloat(lowerElementType(x))};
  char mx[256], mo[256], its[STRATA_MAX_RANK + 2];
  size_t off = (size_t)snprintf(mx, sizeof mx, "(");
  for (int d = 0; d < rank; d++) off += (size_t)snprintf(mx + off, sizeof mx - off, "%sd%d", d ? ", " : "", d == axis ? rank : d);
  snprintf(mx + off, sizeof mx - off, ")");
  lowerIdentityMap(mo, sizeof mo, rank);
  lowerParallelIterators(its, rank);
  its[rank] = 'r';
  its[rank + 1] = '\0';
  const char *maps[] = {mx, mo};
  return linalgBuildGeneric(b, loc, STRATA_VALUES(x), init, maps, its, bodyCum, &c);
}

/* A run-time axis: checked, then an scf.index_switch with one case per
 * axis, each the static lowering along it. */
static MlirValue cumSumRuntimeAxis(StrataBuilder *b, MlirOperation op, MlirValue x, MlirValue init, bool ex, bool rev) {
  MlirLocation loc = mlirOperationGetLocation(op);
  int rank = lowerRank(x);
  MlirValue site = {NULL}, axis = lowerRuntimeAxis(b, op, &site, mlirOperationGetOperand(op, 1), 0, rank);
  if (!axis.ptr) return axis;
  int64_t cases[STRATA_MAX_RANK];
  for (int d = 0; d < rank; d++) cases[d] = d;
  MlirType t = mlirValueGetType(init);
  MlirOperation sw = strataCreateOp(b, "scf.index_switch", loc, .operands = STRATA_VALUES(axis),
                                    .results = STRATA_TYPES(t), .numRegions = 1 + rank,
                                    .attrs = STRATA_ATTRS({"cases", mlirDenseI64ArrayGet(b->ctx, rank, cases)}));
  for (int r = 0; r <= rank; r++) { /* region 0 is the default, unreachable after the check */
    StrataBuilder in = strataBuilderAtEnd(b->ctx, strataAddBlock(sw, r, (StrataTypeList){NULL, 0}, loc));
    MlirValue y = r == 0 ? init : cumSumAlong(&in, loc, x, init, r - 1, ex, rev);
    strataCreateOp(&in, "scf.yield", loc, .operands = STRATA_VALUES(y));
  }
  return strataResult(sw, 0);
}

static MlirLogicalResult lowerCumSum(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  StrataBuilder *b = &rw->builder;
  MlirValue x = lowerOperand(op, 0);
  int64_t axis, ex, rev;
  nnAttrInt(op, "axis", 0, &axis);
  nnAttrInt(op, "exclusive", 0, &ex);
  nnAttrInt(op, "reverse", 0, &rev);
  MlirValue init = lowerResultInit(b, op, 0, 0), y;
  if (!init.ptr) return mlirLogicalResultFailure();
  if (mlirOperationGetNumOperands(op) > 1 && nnConstInts(mlirOperationGetOperand(op, 1), &axis, 1) != 1) {
    y = cumSumRuntimeAxis(b, op, x, init, ex != 0, rev != 0);
  } else {
    nnNormalizeAxis(op, "axis", &axis, lowerRank(x));
    y = cumSumAlong(b, mlirOperationGetLocation(op), x, init, axis, ex != 0, rev != 0);
  }
  if (!y.ptr) return mlirLogicalResultFailure();
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

/* ---- TopK ---- */

typedef struct {
  int axis, j;
  bool largest, isFloat, isUnsigned;
} TopKCtx;

/* rank[i] += (x[j] beats x[i]): better value, or equal value at a lower index. */
static MlirValue bodyRank(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const TopKCtx *c = u;
  MlirValue xi = a[0], xj = a[1];
  MlirValue i = linalgIndex(b, loc, c->axis), j = linalgIndex(b, loc, c->j);
  MlirValue better = c->isFloat ? emitCmpF(b, loc, c->largest ? CMPF_OGT : CMPF_OLT, xj, xi)
                                : emitCmpI(b, loc, c->largest ? (c->isUnsigned ? CMPI_UGT : CMPI_SGT)
                                                              : (c->isUnsigned ? CMPI_ULT : CMPI_SLT),
                                           xj, xi);
  MlirValue equal = c->isFloat ? emitCmpF(b, loc, CMPF_OEQ, xj, xi) : emitCmpI(b, loc, CMPI_EQ, xj, xi);
  MlirValue tie = emitBinary(b, loc, "arith.andi", equal, emitCmpI(b, loc, CMPI_SLT, j, i));
  MlirValue beats = emitBinary(b, loc, "arith.ori", better, tie);
  MlirValue one = emitConvert(b, loc, "arith.extui", beats, mlirIntegerTypeGet(b->ctx, 64));
  return emitBinary(b, loc, "arith.addi", a[2], one);
}

/* values[r], indices[r] = the element whose rank is r. */
static void bodyPick(StrataBuilder *b, MlirLocation loc, const MlirValue *a, MlirValue *y, void *u) {
  const TopKCtx *c = u;
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64);
  MlirValue r = emitConvert(b, loc, "arith.index_cast", linalgIndex(b, loc, c->axis), i64);
  MlirValue j = emitConvert(b, loc, "arith.index_cast", linalgIndex(b, loc, c->j), i64);
  MlirValue hit = emitCmpI(b, loc, CMPI_EQ, a[1], r);
  y[0] = emitSelect(b, loc, hit, a[0], a[2]);
  y[1] = emitSelect(b, loc, hit, j, a[3]);
}

static MlirLogicalResult lowerTopK(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  MlirValue x = lowerOperand(op, 0);
  int rank = lowerRank(x);
  int64_t axis, largest;
  nnAttrInt(op, "axis", -1, &axis);
  nnAttrInt(op, "largest", 1, &largest);
  nnNormalizeAxis(op, "axis", &axis, rank);
  TopKCtx c = {(int)axis, rank, largest != 0, lowerIsFloat(lowerElementType(x)), lowerIsUnsigned(lowerElementType(x))};
  char id[256], mj[256], its[STRATA_MAX_RANK + 2];
  lowerIdentityMap(id, sizeof id, rank);
  size_t off = (size_t)snprintf(mj, sizeof mj, "(");
  for (int d = 0; d < rank; d++) off += (size_t)snprintf(mj + off, sizeof mj - off, "%sd%d", d ? ", " : "", d == axis ? rank : d);
  snprintf(mj + off, sizeof mj - off, ")");
  lowerParallelIterators(its, rank);
  its[rank] = 'r';
  its[rank + 1] = '\0';
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64);
  int64_t dims[STRATA_MAX_RANK];
  MlirValue xDims[STRATA_MAX_RANK], kDims[STRATA_MAX_RANK];
  for (int d = 0; d < rank; d++) dims[d] = lowerDim(x, d), xDims[d] = lowerDimValue(b, loc, x, d);
  /* the result extents (a run-time k is checked in [0, extent]) */
  if (!lowerResultDims(b, op, 0, kDims)) return mlirLogicalResultFailure();
  const char *mapsRank[] = {id, mj, id};
  MlirValue ranks = linalgBuildGeneric(b, loc, STRATA_VALUES(x, x), lowerInitDims(b, loc, strataTensorType(i64, rank, dims), xDims, 0),
                                       mapsRank, its, bodyRank, &c);
  MlirValue inits[2] = {lowerInitDims(b, loc, lowerResultType(op, 0), kDims, 0), lowerInitDims(b, loc, lowerResultType(op, 1), kDims, 0)};
  const char *mapsPick[] = {mj, mj, id, id};
  MlirValue res[2];
  linalgBuildGenericN(b, loc, STRATA_VALUES(x, ranks), (StrataValueList){inits, 2}, mapsPick, its, bodyPick, &c, res);
  strataReplaceOp(rw, op, STRATA_VALUES(res[0], res[1]));
  return mlirLogicalResultSuccess();
}

void nnToLinalgReduce(LowerRegistry *r) {
  for (size_t i = 0; i < sizeof kNames / sizeof kNames[0]; i++)
    lowerRegister(r, kNames[i], lowerReduce, (void *)&kNames[i]);
  static const int kMax = 1;
  lowerRegister(r, "nn.arg_max", lowerArg, (void *)&kMax);
  lowerRegister(r, "nn.arg_min", lowerArg, NULL);
  lowerRegister(r, "nn.softmax", lowerSoftmax, NULL);
  lowerRegister(r, "nn.log_softmax", lowerSoftmax, (void *)&kMax);
  lowerRegister(r, "nn.cum_sum", lowerCumSum, NULL);
  lowerRegister(r, "nn.top_k", lowerTopK, NULL);
}
