/* nn.det -> scf.for loops: for each matrix (the batch flattened), a copy in
 * f64, then LU with partial pivoting as dialects/nn/ops_det.c does it: per
 * column k the pivot row of largest magnitude (a strict > keeps the first),
 * a row swap negating the determinant, the pivot multiplied in, and the
 * rows below eliminated (a zero pivot eliminates nothing: the determinant
 * is 0 already). Static shapes (dynamic ones are refused before). */
#include "mlir-c/BuiltinTypes.h"
#include "nn_internal.h"
#include "lower_internal.h"

typedef struct {
  StrataBuilder *b;
  MlirLocation loc;
  MlirType f64;
} Det;

static MlirValue idx(const Det *d, int64_t v) { return lowerIndexConst(d->b, d->loc, v); }
static MlirValue bin(const Det *d, const char *name, MlirValue x, MlirValue y) {
  return emitBinary(d->b, d->loc, name, x, y);
}
static MlirValue at2(const Det *d, MlirValue a, MlirValue i, MlirValue j) {
  return linalgExtract(d->b, d->loc, a, (MlirValue[]){i, j}, 2);
}

/* The row in [k, m) whose element in column k has the largest magnitude. */
static MlirValue pivotRow(const Det *d, MlirValue a, MlirValue k, MlirValue m) {
  LowerLoop l;
  MlirValue best = emitUnary(d->b, d->loc, "math.absf", at2(d, a, k, k));
  lowerForBegin(d->b, &l, d->loc, bin(d, "arith.addi", k, idx(d, 1)), m, (MlirValue[]){k, best}, 2);
  MlirValue i = lowerLoopIv(&l), v = emitUnary(d->b, d->loc, "math.absf", at2(d, a, i, k));
  MlirValue better = emitCmpF(d->b, d->loc, CMPF_OGT, v, lowerLoopArg(&l, 1));
  lowerForEnd(d->b, &l, d->loc,
              (MlirValue[]){emitSelect(d->b, d->loc, better, i, lowerLoopArg(&l, 0)),
                            emitSelect(d->b, d->loc, better, v, lowerLoopArg(&l, 1))},
              2);
  return strataResult(l.op, 0);
}

/* Rows k and p of a swapped (nothing changes when p == k). */
static MlirValue swapRows(const Det *d, MlirValue a, MlirValue k, MlirValue p, MlirValue m) {
  LowerLoop l;
  lowerForBegin(d->b, &l, d->loc, idx(d, 0), m, &a, 1);
  MlirValue j = lowerLoopIv(&l), t = lowerLoopArg(&l, 0);
  MlirValue rk = at2(d, t, k, j), rp = at2(d, t, p, j);
  t = lowerInsert(d->b, d->loc, rp, t, (MlirValue[]){k, j}, 2);
  t = lowerInsert(d->b, d->loc, rk, t, (MlirValue[]){p, j}, 2);
  lowerForEnd(d->b, &l, d->loc, &t, 1);
  return strataResult(l.op, 0);
}

/* Rows below k minus their multiple of row k (factor 0 for a zero pivot). */
static MlirValue eliminate(const Det *d, MlirValue a, MlirValue k, MlirValue m, MlirValue pivot) {
  LowerLoop li, lj;
  MlirValue next = bin(d, "arith.addi", k, idx(d, 1)), zero = emitConst(d->b, d->loc, d->f64, 0);
  MlirValue isZero = emitCmpF(d->b, d->loc, CMPF_OEQ, pivot, zero);
  MlirValue safe = emitSelect(d->b, d->loc, isZero, emitConst(d->b, d->loc, d->f64, 1), pivot);
  lowerForBegin(d->b, &li, d->loc, next, m, &a, 1);
  MlirValue i = lowerLoopIv(&li), t = lowerLoopArg(&li, 0);
  MlirValue f = emitSelect(d->b, d->loc, isZero, zero, bin(d, "arith.divf", at2(d, t, i, k), safe));
  lowerForBegin(d->b, &lj, d->loc, next, m, &t, 1);
  MlirValue j = lowerLoopIv(&lj), u = lowerLoopArg(&lj, 0);
  MlirValue v = bin(d, "arith.subf", at2(d, u, i, j), bin(d, "arith.mulf", f, at2(d, u, k, j)));
  u = lowerInsert(d->b, d->loc, v, u, (MlirValue[]){i, j}, 2);
  lowerForEnd(d->b, &lj, d->loc, &u, 1);
  MlirValue rows = strataResult(lj.op, 0);
  lowerForEnd(d->b, &li, d->loc, &rows, 1);
  return strataResult(li.op, 0);
}

/* The determinant (f64) of the m x m f64 matrix a. */
static MlirValue determinant(const Det *d, MlirValue a, int64_t m) {
  LowerLoop l;
  MlirValue mv = idx(d, m);
  lowerForBegin(d->b, &l, d->loc, idx(d, 0), mv, (MlirValue[]){a, emitConst(d->b, d->loc, d->f64, 1)}, 2);
  MlirValue k = lowerLoopIv(&l), t = lowerLoopArg(&l, 0), det = lowerLoopArg(&l, 1);
  MlirValue p = pivotRow(d, t, k, mv);
  MlirValue swapped = emitCmpI(d->b, d->loc, CMPI_NE, p, k);
  det = emitSelect(d->b, d->loc, swapped, emitUnary(d->b, d->loc, "arith.negf", det), det);
  t = swapRows(d, t, k, p, mv);
  MlirValue pivot = at2(d, t, k, k);
  det = bin(d, "arith.mulf", det, pivot);
  t = eliminate(d, t, k, mv, pivot);
  lowerForEnd(d->b, &l, d->loc, (MlirValue[]){t, det}, 2);
  return strataResult(l.op, 1);
}

static MlirLogicalResult lowerDet(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  StrataBuilder *b = &rw->builder;
  Det d = {b, mlirOperationGetLocation(op), mlirF64TypeGet(b->ctx)};
  MlirValue x = lowerOperand(op, 0);
  MlirType rt = lowerResultType(op, 0), et = lowerElementType(x);
  int r = lowerRank(x), br = r - 2;
  int64_t m = lowerDim(x, r - 1), count = 1;
  for (int i = 0; i < br; i++) count *= lowerDim(x, i);
  MlirType mt = strataTensorType(d.f64, 2, (int64_t[]){m, m});
  MlirValue out = lowerEmptyTensor(b, d.loc, rt, NULL);
  LowerLoop lb, li, lj;
  lowerForBegin(b, &lb, d.loc, idx(&d, 0), idx(&d, count), &out, 1);
  /* the batch index's digits, row-major */
  MlirValue bi = lowerLoopIv(&lb), at[STRATA_MAX_RANK], rest = bi;
  for (int i = br - 1; i >= 0; i--) {
    at[i] = bin(&d, "arith.remui", rest, idx(&d, lowerDim(x, i)));
    rest = bin(&d, "arith.divui", rest, idx(&d, lowerDim(x, i)));
  }
  /* the matrix, copied into f64 */
  lowerForBegin(b, &li, d.loc, idx(&d, 0), idx(&d, m), (MlirValue[]){lowerEmptyTensor(b, d.loc, mt, NULL)}, 1);
  at[br] = lowerLoopIv(&li);
  lowerForBegin(b, &lj, d.loc, idx(&d, 0), idx(&d, m), (MlirValue[]){lowerLoopArg(&li, 0)}, 1);
  at[br + 1] = lowerLoopIv(&lj);
  MlirValue v = linalgExtract(b, d.loc, x, at, r);
  if (!mlirTypeEqual(et, d.f64)) v = emitConvert(b, d.loc, "arith.extf", v, d.f64);
  MlirValue a = lowerInsert(b, d.loc, v, lowerLoopArg(&lj, 0), (MlirValue[]){at[br], at[br + 1]}, 2);
  lowerForEnd(b, &lj, d.loc, &a, 1);
  a = strataResult(lj.op, 0);
  lowerForEnd(b, &li, d.loc, &a, 1);
  MlirValue det = determinant(&d, strataResult(li.op, 0), m);
  if (!mlirTypeEqual(et, d.f64)) det = emitConvert(b, d.loc, "arith.truncf", det, et);
  MlirValue o = lowerInsert(b, d.loc, det, lowerLoopArg(&lb, 0), at, br);
  lowerForEnd(b, &lb, d.loc, &o, 1);
  strataReplaceOp(rw, op, STRATA_VALUES(strataResult(lb.op, 0)));
  return mlirLogicalResultSuccess();
}

void nnToLinalgDet(LowerRegistry *r) { lowerRegister(r, "nn.det", lowerDet, NULL); }
