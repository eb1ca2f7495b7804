/* Pooling and normalization -> linalg.generic. Pools pad explicitly (with
 * -inf/min for max, 0 for average; ceil_mode overhang included), reduce over
 * the window (a small constant "window" operand gives the kernel loops their
 * extent), and average pooling divides by a per-position count computed
 * here, since shapes are static. Normalizations compute mean and variance
 * with reduction generics, then one elementwise generic applies the affine
 * transform. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "nn_internal.h"
#include "lower_internal.h"

static MlirValue splat(StrataBuilder *b, MlirLocation loc, MlirType t, double v) {
  return linalgSplatConstant(b, loc, t, v);
}

/* Zeros of x's type, of x's run-time extents where it is dynamic. */
static MlirValue zerosLike(StrataBuilder *b, MlirLocation loc, MlirValue x) {
  MlirValue dims[STRATA_MAX_RANK];
  for (int d = 0; d < lowerRank(x); d++) dims[d] = lowerDimValue(b, loc, x, d);
  return lowerInitDims(b, loc, mlirValueGetType(x), dims, 0);
}

static int64_t product(const int64_t *d, int n) {
  int64_t p = 1;
  for (int i = 0; i < n; i++) p *= d[i];
  return p;
}

/* ---- MaxPool / AveragePool ---- */

typedef struct {
  bool isMax, isFloat, isUnsigned;
} PoolCtx;

static MlirValue bodyPool(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const PoolCtx *c = u;
  if (!c->isMax) return emitBinary(b, loc, "arith.addf", a[2], a[0]);
  return emitBinary(b, loc, c->isFloat ? "arith.maximumf" : c->isUnsigned ? "arith.maxui" : "arith.maxsi", a[2], a[0]);
}

static MlirValue bodyDivide(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  (void)u;
  return emitBinary(b, loc, "arith.divf", a[0], a[1]);
}

static MlirLogicalResult lowerPool(StrataRewrite *rw, MlirOperation op, void *user) {
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  MlirValue x = lowerOperand(op, 0);
  MlirType t = lowerResultType(op, 0), et = lowerElementType(x);
  int rank = lowerRank(x), sp = rank - 2;
  NnWindow w;
  int64_t in[NN_MAX_SPATIAL], out[NN_MAX_SPATIAL], cip;
  const char *why;
  for (int i = 0; i < sp; i++) in[i] = lowerDim(x, 2 + i);
  if (!nn_get_window(op, sp, NULL, &w) || !nn_infer_window_output(&w, in, out, &why) ||
      !nnAttrInt(op, "count_include_pad", 0, &cip))
    return mlirLogicalResultFailure();
  PoolCtx c = {user != NULL, lowerIsFloat(et), lowerIsUnsigned(et)};
  double padValue = 0;
  if (c.isMax) {
    unsigned width = c.isFloat ? 0 : mlirIntegerTypeGetWidth(et);
    padValue = c.isFloat ? -INFINITY : c.isUnsigned ? 0 : -pow(2, width - 1);
  }
  /* Padded extents: begin pads, and at the end enough for every window
   * (ceil_mode may reach past the explicit end pad). */
  int64_t padded[STRATA_MAX_RANK] = {lowerDim(x, 0), lowerDim(x, 1)}, offsets[STRATA_MAX_RANK] = {0, 0};
  bool needPad = false;
  for (int i = 0; i < sp; i++) {
    int64_t span = (w.kernel[i] - 1) * w.dilations[i] + 1, need = (out[i] - 1) * w.strides[i] + span;
    int64_t end = in[i] + w.pads[i] + w.pads[sp + i];
    padded[2 + i] = need > end ? need : end;
    offsets[2 + i] = w.pads[i];
    needPad |= padded[2 + i] != in[i] || w.pads[i] != 0;
  }
  if (needPad) x = linalgInsertSlice(b, loc, x, splat(b, loc, strataTensorType(et, rank, padded), padValue), offsets);
  char mx[512], mk[128], mo[256], its[2 * NN_MAX_SPATIAL + 3];
  size_t ox = (size_t)snprintf(mx, sizeof mx, "(d0, d1"), ok = (size_t)snprintf(mk, sizeof mk, "(");
  for (int i = 0; i < sp; i++) {
    ox += (size_t)snprintf(mx + ox, sizeof mx - ox, ", d%d * %lld + d%d * %lld", 2 + i,
                           (long long)w.strides[i], 2 + sp + i, (long long)w.dilations[i]);
    ok += (size_t)snprintf(mk + ok, sizeof mk - ok, "%sd%d", i ? ", " : "", 2 + sp + i);
  }
  snprintf(mx + ox, sizeof mx - ox, ")");
  snprintf(mk + ok, sizeof mk - ok, ")");
  lowerIdentityMap(mo, sizeof mo, rank);
  for (int i = 0; i < 2 + 2 * sp; i++) its[i] = i < 2 + sp ? 'p' : 'r';
  its[2 + 2 * sp] = '\0';
  MlirValue window = splat(b, loc, strataTensorType(et, sp, w.kernel), 0);
  const char *maps[] = {mx, mk, mo};
  MlirValue y = linalgBuildGeneric(b, loc, STRATA_VALUES(x, window), splat(b, loc, t, padValue), maps,
                                   its, bodyPool, &c);
  if (!c.isMax) {
    /* The divisor of each output position: window positions inside the
     * input (or, with count_include_pad, inside the explicitly padded input;
     * never the ceil_mode overhang). Static shapes make it a constant. */
    StrataTensor *counts = strataTensorCreate(strataDTypeFromMlir(et), sp, out);
    if (!counts) return mlirLogicalResultFailure();
    for (int64_t o = 0; o < product(out, sp); o++) {
      int64_t rem = o;
      double count = 1;
      for (int d = sp - 1; d >= 0; d--) {
        int64_t oi = rem % out[d], hits = 0;
        rem /= out[d];
        for (int64_t k = 0; k < w.kernel[d]; k++) {
          int64_t p = oi * w.strides[d] + k - w.pads[d];
          hits += cip ? (p >= -w.pads[d] && p < in[d] + w.pads[sp + d]) : (p >= 0 && p < in[d]);
        }
        count *= (double)hits;
      }
      strataTensorSetDouble(counts, o, count);
    }
    MlirType ct = strataTensorType(et, sp, out);
    MlirAttribute attr = strataTensorToAttr(ct, counts);
    strataTensorDestroy(counts);
    MlirValue countV = strataResult(strataCreateOp(b, "arith.constant", loc, .results = STRATA_TYPES(ct),
                                                   .attrs = STRATA_ATTRS({"value", attr})), 0);
    char md[128], itsD[STRATA_MAX_RANK + 1];
    size_t od = (size_t)snprintf(md, sizeof md, "(");
    for (int i = 0; i < sp; i++) od += (size_t)snprintf(md + od, sizeof md - od, "%sd%d", i ? ", " : "", 2 + i);
    snprintf(md + od, sizeof md - od, ")");
    lowerParallelIterators(itsD, rank);
    const char *dm[] = {mo, md, mo};
    y = linalgBuildGeneric(b, loc, STRATA_VALUES(y, countV), splat(b, loc, t, 0), dm, itsD, bodyDivide, NULL);
  }
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

/* ---- Global pools: reduce all spatial dims, reshape to N x C x 1... ---- */

static MlirValue bodyGlobal(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const PoolCtx *c = u;
  return emitBinary(b, loc, c->isMax ? "arith.maximumf" : "arith.addf", a[1], a[0]);
}

static MlirLogicalResult lowerGlobal(StrataRewrite *rw, MlirOperation op, void *user) {
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  MlirValue x = lowerOperand(op, 0);
  int rank = lowerRank(x);
  PoolCtx c = {user != NULL, true, false};
  int64_t nc[2] = {lowerDim(x, 0), lowerDim(x, 1)};
  MlirType rt = strataTensorType(lowerElementType(x), 2, nc);
  char mx[256], its[STRATA_MAX_RANK + 1];
  lowerIdentityMap(mx, sizeof mx, rank);
  for (int i = 0; i < rank; i++) its[i] = i < 2 ? 'p' : 'r';
  its[rank] = '\0';
  const char *maps[] = {mx, "(d0, d1)"};
  /* N and C may be dynamic (issue 19), and the window count with them */
  MlirValue dims[STRATA_MAX_RANK], n = lowerIndexConst(b, loc, 1);
  for (int i = 0; i < rank; i++) dims[i] = lowerDimValue(b, loc, x, i);
  for (int i = 2; i < rank; i++) n = emitBinary(b, loc, "arith.muli", n, dims[i]);
  MlirValue y = linalgBuildGeneric(b, loc, STRATA_VALUES(x), lowerInitDims(b, loc, rt, dims, c.isMax ? -INFINITY : 0),
                                   maps, its, bodyGlobal, &c);
  if (!c.isMax) {
    MlirType et = lowerElementType(x);
    n = lowerIndexToFloat(b, loc, n, et);
    const char *dm[] = {"(d0, d1)", "(d0, d1)", "(d0, d1)"};
    y = linalgBuildGeneric(b, loc, STRATA_VALUES(y, lowerFillDims(b, loc, rt, dims, n)), lowerInitDims(b, loc, rt, dims, 0),
                           dm, "pp", bodyDivide, NULL);
  }
  MlirValue out[STRATA_MAX_RANK];
  for (int i = 0; i < rank; i++) out[i] = i < 2 ? dims[i] : lowerIndexConst(b, loc, 1);
  strataReplaceOp(rw, op, STRATA_VALUES(lowerReshapeTo(b, loc, y, lowerResultType(op, 0), out)));
  return mlirLogicalResultSuccess();
}

/* ---- Normalizations ---- */

static MlirValue bodySum(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  (void)u;
  return emitBinary(b, loc, "arith.addf", a[1], a[0]);
}

static MlirValue bodySquaredDeviation(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  (void)u;
  MlirValue d = emitBinary(b, loc, "arith.subf", a[0], a[1]);
  return emitBinary(b, loc, "arith.addf", a[2], emitBinary(b, loc, "arith.mulf", d, d));
}

/* Population mean and variance of x over the `mask` dims (kept-dims tensors). */
static void meanVar(StrataBuilder *b, MlirLocation loc, MlirValue x, const bool *mask, MlirValue *mean,
                    MlirValue *var) {
  int rank = lowerRank(x), nk = 0;
  char id[256], km[256], its[STRATA_MAX_RANK + 1], kid[256], kits[STRATA_MAX_RANK + 1];
  /* the kept extents and the count, at run time where x is dynamic */
  MlirValue kept[STRATA_MAX_RANK], count = lowerIndexConst(b, loc, 1);
  for (int d = 0; d < rank; d++) {
    MlirValue e = lowerDimValue(b, loc, x, d);
    if (mask[d]) count = emitBinary(b, loc, "arith.muli", count, e);
    else kept[nk++] = e;
  }
  lowerReductionMaps(rank, mask, id, km, its);
  lowerIdentityMap(kid, sizeof kid, nk);
  lowerParallelIterators(kits, nk);
  MlirType et = lowerElementType(x), kt = lowerKeptType(x, mask, et);
  count = lowerIndexToFloat(b, loc, count, et);
  MlirValue n = lowerFillDims(b, loc, kt, kept, count);
#define ZEROS lowerInitDims(b, loc, kt, kept, 0)
  const char *sumMaps[] = {id, km}, *divMaps[] = {kid, kid, kid}, *devMaps[] = {id, km, km};
  MlirValue sum = linalgBuildGeneric(b, loc, STRATA_VALUES(x), ZEROS, sumMaps, its, bodySum, NULL);
  *mean = linalgBuildGeneric(b, loc, STRATA_VALUES(sum, n), ZEROS, divMaps, kits, bodyDivide, NULL);
  MlirValue dev = linalgBuildGeneric(b, loc, STRATA_VALUES(x, *mean), ZEROS, devMaps, its, bodySquaredDeviation, NULL);
  *var = linalgBuildGeneric(b, loc, STRATA_VALUES(dev, n), ZEROS, divMaps, kits, bodyDivide, NULL);
#undef ZEROS
}

typedef struct {
  double eps;
  bool hasBias;
} NormCtx;

/* (x - mean) / sqrt(var + eps) * scale (+ bias); args: x, mean, var, scale[, bias]. */
static MlirValue bodyNormalize(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const NormCtx *c = u;
  MlirType t = mlirValueGetType(a[0]);
  MlirValue den = emitUnary(b, loc, "math.sqrt", emitBinary(b, loc, "arith.addf", a[2], emitConst(b, loc, t, c->eps)));
  MlirValue y = emitBinary(b, loc, "arith.divf", emitBinary(b, loc, "arith.subf", a[0], a[1]), den);
  y = emitBinary(b, loc, "arith.mulf", y, a[3]);
  return c->hasBias ? emitBinary(b, loc, "arith.addf", y, a[4]) : y;
}

/* Normalizes x over `mask`, then applies scale/bias read through the given
 * maps; returns a tensor of x's type. */
static MlirValue normalize(StrataBuilder *b, MlirLocation loc, MlirValue x, const bool *mask, double eps,
                           MlirValue scale, const char *scaleMap, MlirValue bias, const char *biasMap) {
  MlirValue mean, var;
  meanVar(b, loc, x, mask, &mean, &var);
  int rank = lowerRank(x);
  char id[256], km[256], its[STRATA_MAX_RANK + 1];
  lowerReductionMaps(rank, mask, id, km, its);
  lowerParallelIterators(its, rank);
  NormCtx c = {eps, !mlirValueIsNull(bias)};
  MlirValue init = zerosLike(b, loc, x);
  if (c.hasBias) {
    const char *maps[] = {id, km, km, scaleMap, biasMap, id};
    return linalgBuildGeneric(b, loc, STRATA_VALUES(x, mean, var, scale, bias), init, maps, its, bodyNormalize, &c);
  }
  const char *maps[] = {id, km, km, scaleMap, id};
  return linalgBuildGeneric(b, loc, STRATA_VALUES(x, mean, var, scale), init, maps, its, bodyNormalize, &c);
}

/* With dynamic dims, the run-time checks that scale and bias fit x. */
static bool checkOperands(StrataBuilder *b, MlirOperation op) {
  MlirValue dims[STRATA_MAX_RANK];
  return !lowerHasDynamicDims(op) || lowerResultDims(b, op, 0, dims);
}

static MlirLogicalResult lowerBatchNorm(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  if (!checkOperands(b, op)) return mlirLogicalResultFailure();
  MlirValue x = lowerOperand(op, 0);
  int rank = lowerRank(x);
  NormCtx c = {1e-5, true};
  nnAttrFloat(op, "epsilon", 1e-5, &c.eps);
  char id[256], its[STRATA_MAX_RANK + 1];
  lowerIdentityMap(id, sizeof id, rank);
  lowerParallelIterators(its, rank);
  /* bodyNormalize wants x, mean, var, scale, bias. */
  const char *maps[] = {id, "(d1)", "(d1)", "(d1)", "(d1)", id};
  MlirValue y = linalgBuildGeneric(b, loc, STRATA_VALUES(x, lowerOperand(op, 3), lowerOperand(op, 4), lowerOperand(op, 1), lowerOperand(op, 2)),
                                   zerosLike(b, loc, x), maps, its, bodyNormalize, &c);
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult lowerLayerNorm(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  if (!checkOperands(b, op)) return mlirLogicalResultFailure();
  MlirValue x = lowerOperand(op, 0);
  int rank = lowerRank(x);
  int64_t axis;
  double eps;
  nnAttrInt(op, "axis", -1, &axis);
  nnAttrFloat(op, "epsilon", 1e-5, &eps);
  nnNormalizeAxis(op, "axis", &axis, rank);
  bool mask[STRATA_MAX_RANK];
  for (int d = 0; d < rank; d++) mask[d] = d >= axis;
  char sm[256], bm[256];
  MlirValue scale = lowerOperand(op, 1), bias = {NULL};
  lowerBroadcastMap(sm, sizeof sm, scale, mlirValueGetType(x));
  if (mlirOperationGetNumOperands(op) == 3) {
    bias = lowerOperand(op, 2);
    lowerBroadcastMap(bm, sizeof bm, bias, mlirValueGetType(x));
  }
  strataReplaceOp(rw, op, STRATA_VALUES(normalize(b, loc, x, mask, eps, scale, sm, bias, bm)));
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult lowerInstanceNorm(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  MlirLocation loc = mlirOperationGetLocation(op);
  if (!checkOperands(&rw->builder, op)) return mlirLogicalResultFailure();
  MlirValue x = lowerOperand(op, 0);
  double eps;
  nnAttrFloat(op, "epsilon", 1e-5, &eps);
  bool mask[STRATA_MAX_RANK];
  for (int d = 0; d < lowerRank(x); d++) mask[d] = d >= 2;
  MlirValue y = normalize(&rw->builder, loc, x, mask, eps, lowerOperand(op, 1), "(d1)", lowerOperand(op, 2), "(d1)");
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

/* GroupNorm: view x as [N, G, C/G, spatial...], normalize over dims >= 2. */
static MlirLogicalResult lowerGroupNorm(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  MlirValue x = lowerOperand(op, 0), scale = lowerOperand(op, 1);
  int rank = lowerRank(x);
  int64_t G;
  double eps;
  nnAttrInt(op, "num_groups", 1, &G);
  nnAttrFloat(op, "epsilon", 1e-5, &eps);
  /* C is static (lowerDynamicSupported); N and the spatial dims may not be */
  int64_t C = lowerDim(x, 1), Cg = C / G, dims[STRATA_MAX_RANK] = {lowerDim(x, 0), G, Cg};
  MlirValue grouped[STRATA_MAX_RANK] = {lowerDimValue(b, loc, x, 0), lowerIndexConst(b, loc, G),
                                        lowerIndexConst(b, loc, Cg)}, flat[STRATA_MAX_RANK];
  for (int d = 2; d < rank; d++) dims[d + 1] = lowerDim(x, d), grouped[d + 1] = lowerDimValue(b, loc, x, d);
  for (int d = 0; d < rank; d++) flat[d] = lowerDimValue(b, loc, x, d);
  MlirValue xg = lowerReshapeTo(b, loc, x, strataTensorType(lowerElementType(x), rank + 1, dims), grouped);
  bool mask[STRATA_MAX_RANK];
  for (int d = 0; d < rank + 1; d++) mask[d] = d >= 2;
  char pm[64];
  if (lowerDim(scale, 0) == C && G != C) snprintf(pm, sizeof pm, "(d1 * %lld + d2)", (long long)Cg);
  else snprintf(pm, sizeof pm, "(d1)");
  MlirValue y = normalize(b, loc, xg, mask, eps, scale, pm, lowerOperand(op, 2), pm);
  strataReplaceOp(rw, op, STRATA_VALUES(lowerReshapeTo(b, loc, y, lowerResultType(op, 0), flat)));
  return mlirLogicalResultSuccess();
}

void nnToLinalgPoolNorm(LowerRegistry *r) {
  static const int kMax = 1;
  lowerRegister(r, "nn.max_pool", lowerPool, (void *)&kMax);
  lowerRegister(r, "nn.average_pool", lowerPool, NULL);
  lowerRegister(r, "nn.global_max_pool", lowerGlobal, (void *)&kMax);
  lowerRegister(r, "nn.global_average_pool", lowerGlobal, NULL);
  lowerRegister(r, "nn.batch_normalization", lowerBatchNorm, NULL);
  lowerRegister(r, "nn.layer_normalization", lowerLayerNorm, NULL);
  lowerRegister(r, "nn.instance_normalization", lowerInstanceNorm, NULL);
  lowerRegister(r, "nn.group_normalization", lowerGroupNorm, NULL);
}
