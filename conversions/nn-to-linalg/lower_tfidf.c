/* nn.tf_idf_vectorizer -> loops over the rows of x (viewed as [rows, C])
 * and the pool's n-grams, read from constant tables (each n-gram's start in
 * the pool, length and output column): per skip distance d and start p,
 * an inner loop compares x[r, p + j d] with the pool; the count is added
 * to the row's column. A last loop per row weighs the counts (TF, IDF,
 * TFIDF with the per-column weights), as the interpreter does
 * (ops_tfidf.c). Static shapes. */
#include <stdlib.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "nn_internal.h"
#include "lower_internal.h"

static MlirValue i64Table(StrataBuilder *b, MlirLocation loc, const int64_t *v, int64_t n) {
  int64_t len = n ? n : 1, zero = 0;
  MlirType t = strataTensorType(mlirIntegerTypeGet(b->ctx, 64), 1, &len);
  MlirAttribute value = mlirDenseElementsAttrInt64Get(t, (intptr_t)len, n ? v : &zero);
  return strataResult(strataCreateOp(b, "arith.constant", loc, .results = STRATA_TYPES(t),
                                     .attrs = STRATA_ATTRS({"value", value})),
                      0);
}

static MlirValue at1(StrataBuilder *b, MlirLocation loc, MlirValue t, MlirValue i) {
  return emitConvert(b, loc, "arith.index_cast", linalgExtract(b, loc, t, &i, 1), strataIndexType(b->ctx));
}

static MlirValue idx(StrataBuilder *b, MlirLocation loc, int64_t v) { return lowerIndexConst(b, loc, v); }

static MlirValue add(StrataBuilder *b, MlirLocation loc, MlirValue x, MlirValue y) {
  return emitBinary(b, loc, "arith.addi", x, y);
}

static MlirValue mul(StrataBuilder *b, MlirLocation loc, MlirValue x, MlirValue y) {
  return emitBinary(b, loc, "arith.muli", x, y);
}

/* The count (i64) of n-gram g in row r of x2 ([rows, C]). */
static MlirValue gramCount(StrataBuilder *b, MlirLocation loc, const NnTfIdf *t, MlirValue x2, int64_t C,
                           MlirValue r, MlirValue g, MlirValue pool, MlirValue starts, MlirValue lens) {
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64), i1 = mlirIntegerTypeGet(b->ctx, 1);
  MlirValue len = at1(b, loc, lens, g), start = at1(b, loc, starts, g), one = idx(b, loc, 1);
  /* lengths outside [min, max] count nothing: no skip distances */
  MlirValue counted = emitBinary(b, loc, "arith.andi", emitCmpI(b, loc, CMPI_SGE, len, idx(b, loc, t->minLen)),
                                 emitCmpI(b, loc, CMPI_SLE, len, idx(b, loc, t->maxLen)));
  MlirValue dMax = emitSelect(b, loc, emitCmpI(b, loc, CMPI_EQ, len, one), one, idx(b, loc, t->maxSkip + 1));
  dMax = emitSelect(b, loc, counted, dMax, idx(b, loc, 0));
  MlirValue zero64 = emitConst(b, loc, i64, 0);
  LowerLoop ld, lp, lj;
  lowerForBegin(b, &ld, loc, idx(b, loc, 0), dMax, &zero64, 1);
  MlirValue d = add(b, loc, lowerLoopIv(&ld), one);
  /* starts p with p + (len - 1) d < C */
  MlirValue span = mul(b, loc, emitBinary(b, loc, "arith.subi", len, one), d);
  MlirValue nPos = emitBinary(b, loc, "arith.maxsi", emitBinary(b, loc, "arith.subi", idx(b, loc, C), span), idx(b, loc, 0));
  MlirValue acc = lowerLoopArg(&ld, 0);
  lowerForBegin(b, &lp, loc, idx(b, loc, 0), nPos, &acc, 1);
  MlirValue p = lowerLoopIv(&lp), yes = emitConst(b, loc, i1, 1);
  lowerForBegin(b, &lj, loc, idx(b, loc, 0), len, &yes, 1);
  MlirValue j = lowerLoopIv(&lj);
  MlirValue at[2] = {r, add(b, loc, p, mul(b, loc, j, d))}, k = add(b, loc, start, j);
  MlirValue v = linalgExtract(b, loc, x2, at, 2);
  if (!mlirTypeEqual(mlirValueGetType(v), i64)) v = emitConvert(b, loc, "arith.extsi", v, i64);
  MlirValue same = emitCmpI(b, loc, CMPI_EQ, v, linalgExtract(b, loc, pool, &k, 1));
  MlirValue match = emitBinary(b, loc, "arith.andi", lowerLoopArg(&lj, 0), same);
  lowerForEnd(b, &lj, loc, &match, 1);
  MlirValue hit = emitConvert(b, loc, "arith.extui", strataResult(lj.op, 0), i64);
  MlirValue next = add(b, loc, lowerLoopArg(&lp, 0), hit);
  lowerForEnd(b, &lp, loc, &next, 1);
  next = strataResult(lp.op, 0);
  lowerForEnd(b, &ld, loc, &next, 1);
  return strataResult(ld.op, 0);
}

static MlirLogicalResult lowerTfIdf(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  NnTfIdf t;
  if (!nnTfIdfParams(op, &t)) return mlirLogicalResultFailure();
  MlirValue x = lowerOperand(op, 0);
  MlirType xt = mlirValueGetType(x), f32 = mlirF32TypeGet(b->ctx), rt = lowerResultType(op, 0);
  int rank = (int)mlirShapedTypeGetRank(xt);
  int64_t C = mlirShapedTypeGetDimSize(xt, rank - 1), rows = rank == 2 ? mlirShapedTypeGetDimSize(xt, 0) : 1;
  int64_t xShape[2] = {rows, C}, yShape[2] = {rows, t.numCols};
  MlirValue x2 = linalgReshape(b, loc, x, strataTensorType(mlirShapedTypeGetElementType(xt), 2, xShape));
  MlirValue pool = i64Table(b, loc, t.pool, t.numGrams ? t.gramStart[t.numGrams - 1] + t.gramLen[t.numGrams - 1] : 0);
  MlirValue starts = i64Table(b, loc, t.gramStart, t.numGrams), lens = i64Table(b, loc, t.gramLen, t.numGrams);
  MlirValue cols = i64Table(b, loc, t.gramCol, t.numGrams);
  double *w = malloc(sizeof(double) * (size_t)(t.numCols ? t.numCols : 1));
  if (!w) {
    nnTfIdfFree(&t);
    strataEmitError(loc, "nn-to-linalg: out of memory");
    return mlirLogicalResultFailure();
  }
  for (int64_t c = 0; c < t.numCols; c++) w[c] = t.weights ? t.weights[c] : 1.0;
  int64_t wLen = t.numCols ? t.numCols : 1;
  MlirType wt = strataTensorType(f32, 1, &wLen);
  float *wf = malloc(sizeof(float) * (size_t)wLen);
  for (int64_t c = 0; wf && c < wLen; c++) wf[c] = c < t.numCols ? (float)w[c] : 0.0f;
  MlirValue weights = strataResult(
      strataCreateOp(b, "arith.constant", loc, .results = STRATA_TYPES(wt),
                     .attrs = STRATA_ATTRS({"value", mlirDenseElementsAttrFloatGet(wt, (intptr_t)wLen, wf)})),
      0);
  free(w), free(wf);
  MlirValue y = linalgSplatConstant(b, loc, strataTensorType(f32, 2, yShape), 0);
  LowerLoop lr, lg, lc;
  lowerForBegin(b, &lr, loc, idx(b, loc, 0), idx(b, loc, rows), &y, 1);
  MlirValue r = lowerLoopIv(&lr), yr = lowerLoopArg(&lr, 0);
  lowerForBegin(b, &lg, loc, idx(b, loc, 0), idx(b, loc, t.numGrams), &yr, 1);
  MlirValue g = lowerLoopIv(&lg);
  MlirValue count = gramCount(b, loc, &t, x2, C, r, g, pool, starts, lens);
  MlirValue cell[2] = {r, at1(b, loc, cols, g)};
  MlirValue sum = emitBinary(b, loc, "arith.addf", linalgExtract(b, loc, lowerLoopArg(&lg, 0), cell, 2),
                             emitConvert(b, loc, "arith.sitofp", count, f32));
  MlirValue next = lowerInsert(b, loc, sum, lowerLoopArg(&lg, 0), cell, 2);
  lowerForEnd(b, &lg, loc, &next, 1);
  /* the weighting, per column */
  MlirValue counted = strataResult(lg.op, 0);
  lowerForBegin(b, &lc, loc, idx(b, loc, 0), idx(b, loc, t.numCols), &counted, 1);
  MlirValue c = lowerLoopIv(&lc), here[2] = {r, c};
  MlirValue n = linalgExtract(b, loc, lowerLoopArg(&lc, 0), here, 2), wc = linalgExtract(b, loc, weights, &c, 1);
  MlirValue zero = emitConst(b, loc, f32, 0), v = n;
  if (t.mode == NN_TFIDF_IDF) v = emitSelect(b, loc, emitCmpF(b, loc, CMPF_OGT, n, zero), wc, zero);
  if (t.mode == NN_TFIDF_TFIDF) v = emitBinary(b, loc, "arith.mulf", n, wc);
  next = lowerInsert(b, loc, v, lowerLoopArg(&lc, 0), here, 2);
  lowerForEnd(b, &lc, loc, &next, 1);
  next = strataResult(lc.op, 0);
  lowerForEnd(b, &lr, loc, &next, 1);
  nnTfIdfFree(&t);
  strataReplaceOp(rw, op, STRATA_VALUES(linalgReshape(b, loc, strataResult(lr.op, 0), rt)));
  return mlirLogicalResultSuccess();
}

void nnToLinalgTfIdf(LowerRegistry *r) { lowerRegister(r, "nn.tf_idf_vectorizer", lowerTfIdf, NULL); }
