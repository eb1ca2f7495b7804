/* Pooling and normalization: MaxPool, AveragePool, GlobalAveragePool,
 * GlobalMaxPool, BatchNormalization (inference), LayerNormalization,
 * InstanceNormalization, GroupNormalization. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nn_internal.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }
static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

static int64_t product(const int64_t *d, int n) {
  int64_t p = 1;
  for (int i = 0; i < n; i++) p *= d[i];
  return p;
}

/* ---- MaxPool / AveragePool ---- */

static MlirLogicalResult inferPool(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  NnWindow w;
  bool isMax = !strncmp(def->name, "nn.max_pool", 11); /* and nn.max_pool_with_indices */
  if (!nnOperand(def, op, "x", &x) ||
      !nnCheckType(op, "x", &x, isMax ? NN_FLOAT | NN_T(STRATA_DTYPE_I8) | NN_U8 : NN_FLOAT))
    return fail();
  if (x.rank < 3 || x.rank > 2 + NN_MAX_SPATIAL) {
    char d[300];
    nnError(op, "%s must have rank 3 to 5 (N x C x spatial...)", nnDescribe("x", &x, d, sizeof d));
    return fail();
  }
  int64_t cip;
  if (!nn_get_window(op, x.rank - 2, NULL, &w) || !nnAttrInt(op, "count_include_pad", 0, &cip))
    return fail();
  if (w.group != 1) {
    nnError(op, "pooling takes no 'group' attribute");
    return fail();
  }
  if (!isMax)
    for (int i = 0; i < w.spatial; i++)
      if (w.dilations[i] != 1) {
        nnError(op, "attribute 'dilations' must be 1 for average pooling");
        return fail();
      }
  const char *why;
  int64_t out[STRATA_MAX_RANK] = {x.dims[0], x.dims[1]};
  if (!nn_infer_window_output(&w, &x.dims[2], &out[2], &why)) {
    char d[300];
    nnError(op, "%s: %s", nnDescribe("x", &x, d, sizeof d), why);
    return fail();
  }
  nnSetShape(res, x.rank, out, x.elementType);
  return ok();
}

/* MaxPool's Indices output beside Y: flat indices into x, row-major
 * (storage_order 0) or with the spatial dims column-major (1). */
static MlirLogicalResult inferPoolIndices(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  int64_t order;
  if (mlirLogicalResultIsFailure(inferPool(def, op, res)) || !nnAttrInt(op, "storage_order", 0, &order)) return fail();
  if (order != 0 && order != 1) {
    nnError(op, "attribute 'storage_order' must be 0 or 1, not %lld", (long long)order);
    return fail();
  }
  res[1] = res[0];
  res[1].elementType = mlirIntegerTypeGet(mlirOperationGetContext(op), 64);
  return ok();
}

/* Flat index into x (n*C + c = nc) of spatial position p, in storage order. */
static int64_t poolIndex(const StrataTensor *X, int64_t nc, const int64_t *p, bool columnMajor) {
  int sp = X->rank - 2;
  int64_t flat = 0, scale = 1;
  for (int d = 0; d < sp; d++) {
    int e = columnMajor ? d : sp - 1 - d;
    flat += p[e] * scale;
    scale *= X->dims[2 + e];
  }
  return nc * scale + flat;
}

/* Visits the window of output position `o` (spatial multi-index) and calls
 * back with in-range input offsets; returns how many positions the average
 * divides by (count_include_pad counts the pads but not ceil_mode overhang). */
static MlirLogicalResult interpPool(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                    StrataTensor **y) {
  (void)in;
  const StrataTensor *X = x[0];
  int sp = X->rank - 2;
  NnWindow w;
  int64_t cip, outSp[NN_MAX_SPATIAL];
  const char *why;
  if (!nn_get_window(op, sp, NULL, &w) || !nnAttrInt(op, "count_include_pad", 0, &cip)) return fail();
  nn_infer_window_output(&w, &X->dims[2], outSp, &why);
  bool isMax = mlirIdentifierStr(mlirOperationGetName(op)).data[3] == 'm';
  /* With Indices, Y is the element at the index: the first in-range one in
   * window order, replaced only by a strictly larger one (ONNX Runtime's
   * comparison; a NaN never replaces it). */
  bool indices = mlirOperationGetNumResults(op) == 2;
  int64_t order = 0;
  nnAttrInt(op, "storage_order", 0, &order);
  int64_t NC = X->dims[0] * X->dims[1], inSize = product(&X->dims[2], sp), outSize = product(outSp, sp),
          kSize = product(w.kernel, sp);
  for (int64_t nc = 0; nc < NC; nc++)
    for (int64_t o = 0; o < outSize; o++) {
      int64_t oi[NN_MAX_SPATIAL], rem = o;
      for (int d = sp - 1; d >= 0; d--) oi[d] = rem % outSp[d], rem /= outSp[d];
      double acc = isMax ? -INFINITY : 0.0;
      int64_t count = 0, padCount = 0, best = -1;
      for (int64_t k = 0; k < kSize; k++) {
        int64_t ki[NN_MAX_SPATIAL], kr = k, flat = 0, pos[NN_MAX_SPATIAL];
        bool inside = true, insidePadded = true;
        for (int d = sp - 1; d >= 0; d--) ki[d] = kr % w.kernel[d], kr /= w.kernel[d];
        for (int d = 0; d < sp; d++) {
          int64_t p = oi[d] * w.strides[d] + ki[d] * w.dilations[d] - w.pads[d];
          inside = inside && p >= 0 && p < X->dims[2 + d];
          insidePadded = insidePadded && p >= -w.pads[d] && p < X->dims[2 + d] + w.pads[sp + d];
          flat = flat * X->dims[2 + d] + p;
          pos[d] = p;
        }
        padCount += insidePadded;
        if (!inside) continue;
        double v = strataTensorGetDouble(X, nc * inSize + flat);
        if (indices) {
          if (best < 0 || v > acc) acc = v, best = poolIndex(X, nc, pos, order == 1);
          continue;
        }
        acc = isMax ? (isnan(v) || isnan(acc) ? NAN : fmax(acc, v)) : acc + v;
        count++;
      }
      if (!isMax) acc /= (double)(cip ? padCount : count);
      if (indices) nnSetInt(y[1], nc * outSize + o, best);
      if (nnIsFloatDType(y[0]->dtype)) strataTensorSetDouble(y[0], nc * outSize + o, acc);
      else nnSetInt(y[0], nc * outSize + o, strataDoubleToInt64Saturated(acc));
    }
  return ok();
}

static double flopsPool(MlirOperation op) {
  int64_t out = nnNumElements(mlirValueGetType(mlirOperationGetResult(op, 0)));
  int64_t k[NN_MAX_SPATIAL];
  int n = strataGetI64Array(op, "kernel_shape", k, NN_MAX_SPATIAL);
  double flops = out < 0 || n < 0 ? 0 : (double)out;
  for (int i = 0; i < n; i++) flops *= (double)k[i]; /* in double: a count, not a size */
  return flops;
}

/* ---- Global pools ---- */

static MlirLogicalResult inferGlobal(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  if (!nnOperand(def, op, "x", &x) || !nnCheckType(op, "x", &x, NN_FLOAT)) return fail();
  if (x.rank < 3) {
    char d[300];
    nnError(op, "%s must have rank >= 3 (N x C x spatial...)", nnDescribe("x", &x, d, sizeof d));
    return fail();
  }
  *res = x;
  for (int i = 2; i < x.rank; i++) res->dims[i] = 1;
  return ok();
}

static MlirLogicalResult interpGlobal(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                      StrataTensor **y) {
  (void)in;
  bool isMax = mlirIdentifierStr(mlirOperationGetName(op)).data[10] == 'm'; /* nn.global_max_pool */
  int64_t NC = x[0]->dims[0] * x[0]->dims[1], S = product(&x[0]->dims[2], x[0]->rank - 2);
  for (int64_t nc = 0; nc < NC; nc++) {
    double acc = isMax ? -INFINITY : 0;
    for (int64_t s = 0; s < S; s++) {
      double v = strataTensorGetDouble(x[0], nc * S + s);
      acc = isMax ? (isnan(v) || isnan(acc) ? NAN : fmax(acc, v)) : acc + v;
    }
    strataTensorSetDouble(y[0], nc, isMax ? acc : acc / (double)S);
  }
  return ok();
}

static double flopsGlobal(MlirOperation op) {
  int64_t n = nnNumElements(mlirValueGetType(mlirOperationGetOperand(op, 0)));
  return n < 0 ? 0 : (double)n;
}

/* ---- Normalizations ---- */

/* A per-channel parameter: 1-D of length `len`. */
static bool channelParam(const StrataOpDef *def, MlirOperation op, const char *name,
                         const StrataShape *x, int64_t len) {
  StrataShape p;
  if (!nnOperand(def, op, name, &p) || !nnSameType(op, "x", x, name, &p)) return false;
  if (p.rank != 1 || (p.dims[0] != -1 && len != -1 && p.dims[0] != len)) {
    char d[300], want[64];
    strataShapeToString(&len, 1, x->elementType, want, sizeof want);
    nnError(op, "%s, expected %s", nnDescribe(name, &p, d, sizeof d), want);
    return false;
  }
  return true;
}

static bool normInput(const StrataOpDef *def, MlirOperation op, StrataShape *x, int minRank) {
  if (!nnOperand(def, op, "x", x) || !nnCheckType(op, "x", x, NN_FLOAT)) return false;
  if (x->rank < minRank) {
    char d[300];
    nnError(op, "%s must have rank >= %d", nnDescribe("x", x, d, sizeof d), minRank);
    return false;
  }
  double eps;
  return nnAttrFloat(op, "epsilon", 1e-5, &eps);
}

static MlirLogicalResult inferBatchNorm(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  int64_t training;
  if (!normInput(def, op, &x, 2) || !nnAttrInt(op, "training_mode", 0, &training)) return fail();
  if (training) {
    nnError(op, "training_mode = 1 is not supported (inference only)");
    return fail();
  }
  static const char *const params[] = {"scale", "b", "input_mean", "input_var"};
  for (int i = 0; i < 4; i++)
    if (!channelParam(def, op, params[i], &x, x.dims[1])) return fail();
  *res = x;
  return ok();
}

static MlirLogicalResult interpBatchNorm(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                         StrataTensor **y) {
  (void)in;
  double eps;
  nnAttrFloat(op, "epsilon", 1e-5, &eps);
  int64_t N = x[0]->dims[0], C = x[0]->dims[1], S = product(&x[0]->dims[2], x[0]->rank - 2);
  for (int64_t n = 0; n < N; n++)
    for (int64_t c = 0; c < C; c++) {
      double scale = strataTensorGetDouble(x[1], c), b = strataTensorGetDouble(x[2], c);
      double mean = strataTensorGetDouble(x[3], c), var = strataTensorGetDouble(x[4], c);
      for (int64_t s = 0; s < S; s++) {
        int64_t e = (n * C + c) * S + s;
        strataTensorSetDouble(y[0], e, (strataTensorGetDouble(x[0], e) - mean) / sqrt(var + eps) * scale + b);
      }
    }
  return ok();
}

/* Normalizes groups of `len` consecutive elements: y = (x - mean) /
 * sqrt(var + eps) (population variance), before any affine transform. */
static void normalizeGroups(const StrataTensor *x, StrataTensor *y, int64_t groups, int64_t len, double eps) {
  for (int64_t g = 0; g < groups; g++) {
    double mean = 0, var = 0;
    for (int64_t i = 0; i < len; i++) mean += strataTensorGetDouble(x, g * len + i);
    mean /= (double)len;
    for (int64_t i = 0; i < len; i++) {
      double d = strataTensorGetDouble(x, g * len + i) - mean;
      var += d * d;
    }
    var /= (double)len;
    for (int64_t i = 0; i < len; i++)
      strataTensorSetDouble(y, g * len + i, (strataTensorGetDouble(x, g * len + i) - mean) / sqrt(var + eps));
  }
}

static MlirLogicalResult inferLayerNorm(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, s;
  int64_t axis;
  if (!normInput(def, op, &x, 1) || !nnAttrInt(op, "axis", -1, &axis) ||
      !nnNormalizeAxis(op, "axis", &axis, x.rank))
    return fail();
  static const char *const params[] = {"scale", "b"};
  for (int i = 0; i < 2; i++) {
    if (i == 1 && !nnHasOperand(def, op, "b")) break;
    if (!nnOperand(def, op, params[i], &s) || !nnSameType(op, "x", &x, params[i], &s)) return fail();
    int64_t out[STRATA_MAX_RANK];
    int rank, bad;
    bool fits = s.rank <= x.rank - axis &&
                nn_infer_broadcast_shape(x.dims, x.rank, s.dims, s.rank, out, &rank, &bad) && rank == x.rank;
    for (int d = 0; fits && d < rank; d++) fits = out[d] == x.dims[d] || x.dims[d] == -1;
    if (!fits) {
      char ds[300], dx[300];
      nnError(op, "%s does not broadcast to the normalized dims (from axis %lld) of %s",
              nnDescribe(params[i], &s, ds, sizeof ds), (long long)axis, nnDescribe("x", &x, dx, sizeof dx));
      return fail();
    }
  }
  *res = x;
  return ok();
}

static MlirLogicalResult interpLayerNorm(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                         StrataTensor **y) {
  (void)in;
  double eps;
  int64_t axis;
  nnAttrFloat(op, "epsilon", 1e-5, &eps);
  nnAttrInt(op, "axis", -1, &axis);
  nnNormalizeAxis(op, "axis", &axis, x[0]->rank);
  int64_t len = product(&x[0]->dims[axis], x[0]->rank - (int)axis);
  int64_t n = strataTensorNumElements(x[0]);
  normalizeGroups(x[0], y[0], len ? n / len : 0, len, eps);
  bool hasB = mlirOperationGetNumOperands(op) == 3;
  int64_t idx[STRATA_MAX_RANK] = {0};
  for (int64_t e = 0; e < n; e++, nnNextIndex(idx, x[0]->dims, x[0]->rank)) {
    double v = strataTensorGetDouble(y[0], e) * strataTensorGetDouble(x[1], nnBroadcastIndex(x[1], idx, x[0]->rank));
    if (hasB) v += strataTensorGetDouble(x[2], nnBroadcastIndex(x[2], idx, x[0]->rank));
    strataTensorSetDouble(y[0], e, v);
  }
  return ok();
}

static MlirLogicalResult inferInstanceNorm(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  if (!normInput(def, op, &x, 3) || !channelParam(def, op, "scale", &x, x.dims[1]) ||
      !channelParam(def, op, "b", &x, x.dims[1]))
    return fail();
  *res = x;
  return ok();
}

/* Per-channel affine transform after normalization (instance and group norm). */
static void channelAffine(StrataTensor *y, const StrataTensor *scale, const StrataTensor *b,
                          int64_t groupsPerParam) {
  int64_t N = y->dims[0], C = y->dims[1], S = product(&y->dims[2], y->rank - 2);
  for (int64_t n = 0; n < N; n++)
    for (int64_t c = 0; c < C; c++) {
      int64_t p = c / groupsPerParam;
      double sc = strataTensorGetDouble(scale, p), bb = strataTensorGetDouble(b, p);
      for (int64_t s = 0; s < S; s++) {
        int64_t e = (n * C + c) * S + s;
        strataTensorSetDouble(y, e, strataTensorGetDouble(y, e) * sc + bb);
      }
    }
}

static MlirLogicalResult interpInstanceNorm(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                            StrataTensor **y) {
  (void)in;
  double eps;
  nnAttrFloat(op, "epsilon", 1e-5, &eps);
  int64_t S = product(&x[0]->dims[2], x[0]->rank - 2);
  normalizeGroups(x[0], y[0], x[0]->dims[0] * x[0]->dims[1], S, eps);
  channelAffine(y[0], x[1], x[2], 1);
  return ok();
}

static MlirLogicalResult inferGroupNorm(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, s;
  int64_t groups;
  if (!normInput(def, op, &x, 3) || !nnAttrInt(op, "num_groups", 0, &groups)) return fail();
  if (groups < 1 || (x.dims[1] != -1 && x.dims[1] % groups)) {
    nnError(op, "attribute 'num_groups' = %lld must be positive and divide the %lld channels",
            (long long)groups, (long long)x.dims[1]);
    return fail();
  }
  /* scale/bias per channel (opset 21) or per group (opset 18). */
  if (!nnOperand(def, op, "scale", &s)) return fail();
  int64_t len = s.rank == 1 && s.dims[0] == groups && groups != x.dims[1] ? groups : x.dims[1];
  if (!channelParam(def, op, "scale", &x, len) || !channelParam(def, op, "bias", &x, len)) return fail();
  *res = x;
  return ok();
}

static MlirLogicalResult interpGroupNorm(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                         StrataTensor **y) {
  (void)in;
  double eps;
  int64_t G;
  nnAttrFloat(op, "epsilon", 1e-5, &eps);
  nnAttrInt(op, "num_groups", 1, &G);
  int64_t N = x[0]->dims[0], C = x[0]->dims[1], S = product(&x[0]->dims[2], x[0]->rank - 2);
  normalizeGroups(x[0], y[0], N * G, C / G * S, eps);
  channelAffine(y[0], x[1], x[2], x[1]->dims[0] == C ? 1 : C / G);
  return ok();
}

static double flopsNorm(MlirOperation op) { return 6 * flopsGlobal(op); }

static const StrataOpDef kOps[] = {
    {.name = "nn.max_pool",
     .summary = "max over sliding windows: kernel_shape, strides, pads, dilations, auto_pad, " "ceil_mode (no Indices output)",
     .operands = "x",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferPool,
     .interpret = interpPool,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsPool,
     .types = "f16 bf16 f32 f64 i8 ui8"},
    {.name = "nn.max_pool_with_indices",
     .summary = "MaxPool with its Indices output: Y and the i64 flat index into x of each maximum (the first "
                "in window order on ties; `storage_order` 0 row-major, 1 spatial dims column-major)",
     .operands = "x",
     .results = "y, indices",
     .flags = STRATA_OP_PURE,
     .infer = inferPoolIndices,
     .interpret = interpPool,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsPool,
     .types = "f16 bf16 f32 f64 i8 ui8 -> f16 f32 f64 i8 ui8, i64"},
    {.name = "nn.average_pool",
     .summary = "mean over sliding windows: kernel_shape, strides, pads, auto_pad, " "ceil_mode, count_include_pad",
     .operands = "x",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferPool,
     .interpret = interpPool,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsPool,
     .types = "f16 bf16 f32 f64"},
    {.name = "nn.global_average_pool",
     .summary = "mean over all spatial dims (kept as size 1)",
     .operands = "x",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferGlobal,
     .interpret = interpGlobal,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsGlobal,
     .types = "f16 bf16 f32 f64"},
    {.name = "nn.global_max_pool",
     .summary = "max over all spatial dims (kept as size 1)",
     .operands = "x",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferGlobal,
     .interpret = interpGlobal,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsGlobal,
     .types = "f16 bf16 f32 f64"},
    {.name = "nn.batch_normalization",
     .summary = "inference: (x - mean) / sqrt(var + epsilon) * scale + b, per " "channel (dim 1)",
     .operands = "x, scale, b, input_mean, input_var",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferBatchNorm,
     .interpret = interpBatchNorm,
     .mapping = nnMapOneToOne,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsNorm,
     .types = "f16 bf16 f32 f64"},
    {.name = "nn.layer_normalization",
     .summary = "normalize over dims axis.. (default -1), then * scale (+ b); " "epsilon",
     .operands = "x, scale, b?",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferLayerNorm,
     .interpret = interpLayerNorm,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsNorm,
     .types = "f16 bf16 f32 f64"},
    {.name = "nn.instance_normalization",
     .summary = "normalize each (n, c) over spatial dims, then per-channel " "scale and b; epsilon",
     .operands = "x, scale, b",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferInstanceNorm,
     .interpret = interpInstanceNorm,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsNorm,
     .types = "f16 bf16 f32 f64"},
    {.name = "nn.group_normalization",
     .summary = "normalize each (n, group of channels), then scale and bias per " "channel (or per group); num_groups, epsilon",
     .operands = "x, scale, bias",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferGroupNorm,
     .interpret = interpGroupNorm,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISVDOS,
     .flops = flopsNorm,
     .types = "f16 bf16 f32 f64"},
};

const StrataOpTable nnPoolNormTable = {kOps, sizeof kOps / sizeof kOps[0]};
