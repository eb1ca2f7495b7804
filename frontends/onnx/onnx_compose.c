/* ONNX operators that import as compositions of nn ops, the way ONNX
 * defines many of them as functions: CastLike, Trilu, Hardmax, EyeLike, Softsign,
 * MeanVarianceNormalization, LRN, NegativeLogLikelihoodLoss and
 * SoftmaxCrossEntropyLoss, Pow with an integer exponent, and the outputs or
 * operands an nn op does not have (LayerNormalization's Mean and
 * InvStdDev, Dropout's mask, Clip bounds known only at run time). Each is
 * exact: what it cannot build (a dynamic dim a constant needs) is a
 * located error. The index-based ones (OneHot, GatherND, ScatterND) are in
 * onnx_indexing.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "onnx_internal.h"
#include "strata/builder.h"
#include "strata/support.h"


bool onnxStaticShape(Node *x, MlirValue v, int *rank, int64_t *dims, const char *why) {
  MlirType t = mlirValueGetType(v);
  if (!strataGetShape(t, rank, dims) || !mlirShapedTypeHasStaticShape(t)) {
    NODE_ERROR(x->im, x->loc, x->n, "%s needs a static input shape", why);
    return false;
  }
  return true;
}

/* A constant of `type` from a zero tensor that `fill` sets; null after an error. */
static MlirValue tensorConst(Node *x, StrataDType dt, int rank, const int64_t *dims,
                             void (*fill)(StrataTensor *t, const void *arg), const void *arg) {
  StrataTensor *t = strataTensorCreate(dt, rank, dims);
  if (!t) {
    NODE_ERROR(x->im, x->loc, x->n, "the constant it needs is too large");
    return (MlirValue){NULL};
  }
  fill(t, arg);
  MlirAttribute a = strataTensorToAttr(strataTensorType(strataDTypeToMlir(x->im->mc, dt), rank, dims), t);
  strataTensorDestroy(t);
  return onnxConstant(x->im, x->loc, a);
}

bool onnxBindValueAt(Node *x, size_t i, MlirValue v) { return !mlirValueIsNull(v) && onnxBindOutput(x, i, v); }

/* ---- CastLike ---- */

static bool importCastLike(Node *x) {
  if (x->nIn < 2 || mlirValueIsNull(x->in[1])) {
    NODE_ERROR(x->im, x->loc, x->n, "needs input #1 ('target_type')");
    return false;
  }
  return onnxBindValueAt(x, 0, onnxCast(x, x->in[0], onnxElemOf(x->in[1])));
}

/* ---- Trilu: where(col - row >= k (upper) or <= k (lower), x, 0) over the
 * last two dims; k may be a runtime scalar ---- */

static bool importTrilu(Node *x) {
  int rank;
  int64_t dims[STRATA_MAX_RANK];
  const Onnx__AttributeProto *up = onnxFindAttr(x->n, "upper");
  bool upper = !up || up->i != 0;
  if (!strataGetShape(mlirValueGetType(x->in[0]), &rank, dims) || rank < 2 || dims[rank - 2] < 0 || dims[rank - 1] < 0) {
    NODE_ERROR(x->im, x->loc, x->n, "needs an input of rank >= 2 with static last two dims");
    return false;
  }
  MlirValue k;
  if (x->nIn > 1 && !mlirValueIsNull(x->in[1])) {
    MlirType kt = mlirValueGetType(x->in[1]);
    if (!mlirShapedTypeHasRank(kt) || mlirShapedTypeGetRank(kt) > 1 || !mlirTypeIsAInteger(onnxElemOf(x->in[1])) ||
        (mlirShapedTypeGetRank(kt) == 1 && mlirShapedTypeGetDimSize(kt, 0) != 1)) {
      NODE_ERROR(x->im, x->loc, x->n, "input #1 ('k') must be an int64 scalar");
      return false;
    }
    k = onnxCast(x, x->in[1], mlirIntegerTypeGet(x->im->mc, 64));
  } else {
    k = onnxScalarConst(x, mlirIntegerTypeGet(x->im->mc, 64), 0);
  }
  MlirValue diff = onnxBinary(x, "nn.sub", onnxIota(x, 2, 1, dims[rank - 1]), onnxIota(x, 2, 0, dims[rank - 2]), NULL, 0);
  MlirValue mask = onnxBinary(x, upper ? "nn.greater_or_equal" : "nn.less_or_equal", diff, k, NULL, 0);
  /* A [1]-shaped k would make the mask [N, M] still (it broadcasts). */
  return onnxBindValueAt(x, 0, onnxWhere(x, mask, x->in[0], onnxScalarConst(x, onnxElemOf(x->in[0]), 0)));
}

/* ---- Softsign: x / (1 + |x|) ---- */

static bool importSoftsign(Node *x) {
  MlirValue in = x->in[0];
  if (!mlirTypeIsAFloat(onnxElemOf(in))) {
    NODE_ERROR(x->im, x->loc, x->n, "input #0 must be of a float type");
    return false;
  }
  MlirValue den = onnxBinary(x, "nn.add", onnxUnary(x, "nn.abs", in, NULL, 0), onnxScalarConst(x, onnxElemOf(in), 1), NULL, 0);
  return onnxBindValueAt(x, 0, onnxBinary(x, "nn.div", in, den, NULL, 0));
}

/* ---- MeanVarianceNormalization (ONNX's function body): (X - E[X]) /
 * (sqrt(E[X^2] - E[X]^2) + 1e-9) over `axes` (default 0, 2, 3) ---- */

static bool importMeanVarianceNorm(Node *x) {
  MlirValue in = x->in[0];
  const Onnx__AttributeProto *a = onnxFindAttr(x->n, "axes");
  int64_t dflt[3] = {0, 2, 3};
  Attr red[2] = {{"axes", a ? mlirDenseI64ArrayGet(x->im->mc, (intptr_t)a->n_ints, a->ints)
                            : mlirDenseI64ArrayGet(x->im->mc, 3, dflt)},
                 {"keepdims", strataI64Attr(x->im->mc, 1)}};
  MlirValue mean = onnxUnary(x, "nn.reduce_mean", in, red, 2);
  MlirValue meanSq = onnxBinary(x, "nn.mul", mean, mean, NULL, 0);
  MlirValue sqMean = onnxUnary(x, "nn.reduce_mean", onnxBinary(x, "nn.mul", in, in, NULL, 0), red, 2);
  MlirValue std = onnxUnary(x, "nn.sqrt", onnxBinary(x, "nn.sub", sqMean, meanSq, NULL, 0), NULL, 0);
  MlirValue den = onnxBinary(x, "nn.add", std, onnxScalarConst(x, onnxElemOf(in), 1e-9), NULL, 0);
  return onnxBindValueAt(x, 0, onnxBinary(x, "nn.div", onnxBinary(x, "nn.sub", in, mean, NULL, 0), den, NULL, 0));
}

/* ---- LRN: x / (bias + alpha / size * sum of x^2 over a window of `size`
 * channels)^beta; the window sum as `size` shifted slices of the squares,
 * zero-padded along the channels ---- */

static bool importLrn(Node *x) {
  MlirValue in = x->in[0];
  int rank;
  int64_t dims[STRATA_MAX_RANK], size = 0;
  double alpha = 1e-4, beta = 0.75, bias = 1.0;
  const Onnx__AttributeProto *a;
  if ((a = onnxFindAttr(x->n, "size"))) size = a->i;
  if ((a = onnxFindAttr(x->n, "alpha"))) alpha = a->f;
  if ((a = onnxFindAttr(x->n, "beta"))) beta = a->f;
  if ((a = onnxFindAttr(x->n, "bias"))) bias = a->f;
  if (!strataGetShape(mlirValueGetType(in), &rank, dims) || rank < 3 || dims[1] < 0 || !mlirTypeIsAFloat(onnxElemOf(in))) {
    NODE_ERROR(x->im, x->loc, x->n, "needs a float input of rank >= 3 with a static channel dim");
    return false;
  }
  if (size < 1 || size > 1024) {
    NODE_ERROR(x->im, x->loc, x->n, "attribute 'size' must be given, from 1 to 1024");
    return false;
  }
  int64_t before = (size - 1) / 2, after = size - 1 - before, pads[2 * STRATA_MAX_RANK] = {0};
  pads[1] = before;
  pads[rank + 1] = after;
  MlirType et = onnxElemOf(in), i64 = mlirIntegerTypeGet(x->im->mc, 64);
  int64_t n = 2 * rank;
  MlirValue pv = onnxConstant(x->im, x->loc, mlirDenseElementsAttrInt64Get(
                                                 mlirRankedTensorTypeGet(1, &n, i64, mlirAttributeGetNull()), n, pads));
  MlirValue sq = onnxBinary(x, "nn.mul", in, in, NULL, 0);
  MlirValue padded = onnxBinary(x, "nn.pad", sq, pv, NULL, 0);
  MlirValue sum = onnxSliceAxis(x, padded, 1, 0, dims[1]);
  for (int64_t k = 1; k < size; k++) sum = onnxBinary(x, "nn.add", sum, onnxSliceAxis(x, padded, 1, k, k + dims[1]), NULL, 0);
  MlirValue base = onnxBinary(x, "nn.add", onnxScalarConst(x, et, bias),
                              onnxBinary(x, "nn.mul", sum, onnxScalarConst(x, et, alpha / (double)size), NULL, 0), NULL, 0);
  MlirValue den = onnxBinary(x, "nn.pow", base, onnxScalarConst(x, et, beta), NULL, 0);
  return onnxBindValueAt(x, 0, onnxBinary(x, "nn.div", in, den, NULL, 0));
}

/* ---- Pow with a float base and an integer exponent (opset 12): the
 * exponent converted to the base's type, exact up to 2^24 in f32 ---- */

/* ---- Pow with a base and an exponent of different types (opset 12+; the
 * result has the base's type). A float base takes the exponent converted
 * to its type (exact up to 2^24 in f32). Otherwise both go to the type
 * numpy's promotion computes in (ONNX's reference is np.power(x, y) cast to
 * x's type): f64 with a float exponent, i64 for two integers (the integer
 * result's low bits are those of the wider power), and back. int64 with
 * uint64 promotes to f64 in numpy, whose rounding Strata does not copy. ---- */

static bool importMixedPow(Node *x) {
  MlirType bt = onnxElemOf(x->in[0]), et = onnxElemOf(x->in[1]);
  if (mlirTypeIsAFloat(bt) && mlirTypeIsAInteger(et))
    return onnxBindValueAt(x, 0, onnxBinary(x, "nn.pow", x->in[0], onnxCast(x, x->in[1], bt), NULL, 0));
  bool viaFloat = mlirTypeIsAFloat(et) || mlirTypeIsAFloat(bt);
  if (!viaFloat && mlirIntegerTypeGetWidth(et) == 64 && mlirIntegerTypeIsUnsigned(et)) {
    NODE_ERROR(x->im, x->loc, x->n, "Pow with an integer base and a uint64 exponent is not supported "
               "(numpy computes it in float64)");
    return false;
  }
  MlirType wide = viaFloat ? mlirF64TypeGet(x->im->mc) : mlirIntegerTypeGet(x->im->mc, 64);
  MlirValue p = onnxBinary(x, "nn.pow", onnxCast(x, x->in[0], wide), onnxCast(x, x->in[1], wide), NULL, 0);
  return onnxBindValueAt(x, 0, onnxCast(x, p, bt));
}

/* ---- EyeLike ---- */

static void fillDiagonal(StrataTensor *t, const void *arg) {
  int64_t k = *(const int64_t *)arg, rows = t->dims[0], cols = t->dims[1];
  for (int64_t i = 0; i < rows; i++)
    if (i + k >= 0 && i + k < cols) strataTensorSetDouble(t, i * cols + i + k, 1);
}

static bool importEyeLike(Node *x) {
  int rank;
  int64_t dims[STRATA_MAX_RANK], k = 0;
  if (!onnxStaticShape(x, x->in[0], &rank, dims, "EyeLike")) return false;
  if (rank != 2) {
    NODE_ERROR(x->im, x->loc, x->n, "input #0 has rank %d; EyeLike takes 2-D tensors", rank);
    return false;
  }
  const Onnx__AttributeProto *ka = onnxFindAttr(x->n, "k"), *da = onnxFindAttr(x->n, "dtype");
  if (ka) k = ka->i;
  StrataDType dt = da ? onnxDType((int32_t)da->i) : strataDTypeFromMlir(onnxElemOf(x->in[0]));
  if (dt == STRATA_DTYPE_INVALID) {
    NODE_ERROR(x->im, x->loc, x->n, "dtype %s is not supported", da ? onnxDTypeName((int32_t)da->i) : "?");
    return false;
  }
  return onnxBindValueAt(x, 0, tensorConst(x, dt, 2, dims, fillDiagonal, &k));
}

/* ---- Softmax, LogSoftmax and Hardmax: along an axis, or (before opset 13)
 * over the input coerced to 2-D at the axis ---- */

/* Hardmax along `axis`: the first maximum's position is 1, the rest 0. */
static MlirValue hardmaxAlong(Node *x, MlirValue in, int64_t axis) {
  int rank;
  int64_t dims[STRATA_MAX_RANK];
  if (!strataGetShape(mlirValueGetType(in), &rank, dims) || dims[axis] < 0) {
    NODE_ERROR(x->im, x->loc, x->n, "needs a static size along axis %lld", (long long)axis);
    return (MlirValue){NULL};
  }
  Attr am[2] = {{"axis", strataI64Attr(x->im->mc, axis)}, {"keepdims", strataI64Attr(x->im->mc, 1)}};
  MlirValue arg = onnxUnary(x, "nn.arg_max", in, am, 2);
  MlirValue eq = onnxBinary(x, "nn.equal", onnxIota(x, rank, (int)axis, dims[axis]), arg, NULL, 0);
  return onnxCast(x, eq, onnxElemOf(in));
}

static MlirValue softmaxAlong(Node *x, MlirValue in, int64_t axis) {
  Attr ax[1] = {{"axis", strataI64Attr(x->im->mc, axis)}};
  return onnxUnary(x, x->nn, in, ax, 1);
}

bool onnxImportNormalizer(Node *x) {
  bool hard = !strcmp(onnxOpType(x->n), "Hardmax");
  MlirValue (*along)(Node *, MlirValue, int64_t) = hard ? hardmaxAlong : softmaxAlong;
  MlirValue in = x->in[0];
  MlirType t = mlirValueGetType(in);
  bool coerce = x->im->opset < 13;
  int64_t axis = coerce ? 1 : -1;
  const Onnx__AttributeProto *a = onnxFindAttr(x->n, "axis");
  if (a) axis = a->i;
  if (!mlirShapedTypeHasRank(t)) {
    NODE_ERROR(x->im, x->loc, x->n, "needs the input's rank");
    return false;
  }
  int64_t rank = mlirShapedTypeGetRank(t);
  if (axis < -rank || axis > rank || (!coerce && axis == rank)) {
    NODE_ERROR(x->im, x->loc, x->n, "axis %lld is out of range for rank %lld", (long long)axis, (long long)rank);
    return false;
  }
  if (axis < 0) axis += rank;
  if (!coerce) return onnxBindValueAt(x, 0, along(x, in, axis));
  /* Opset < 13: flatten at the axis, normalize along dim 1, reshape back
   * to the input's shape (nn.shape: a constant once nn-fold sees static
   * dims). */
  Attr ax[1] = {{"axis", strataI64Attr(x->im->mc, axis)}};
  MlirValue flat = onnxUnary(x, "nn.flatten", in, ax, 1);
  MlirValue r = mlirValueIsNull(flat) ? flat : along(x, flat, 1);
  MlirOperation shape = onnxBuild(x->im, x->loc, "nn.shape", &in, 1, 1, NULL, 0, mlirIntegerTypeGet(x->im->mc, 64));
  if (mlirOperationIsNull(shape)) return false;
  return onnxBindValueAt(x, 0, onnxBinary(x, "nn.reshape", r, strataResult(shape, 0), NULL, 0));
}

/* ---- LayerNormalization with its Mean and InvStdDev outputs (ONNX's
 * function body: statistics in stash_type, the result cast back) ---- */

static bool importLayerNormStats(Node *x) {
  if (x->nIn < 2 || mlirValueIsNull(x->in[1])) {
    NODE_ERROR(x->im, x->loc, x->n, "needs input #1 ('Scale')");
    return false;
  }
  MlirValue in = x->in[0];
  MlirType t = mlirValueGetType(in);
  if (!mlirShapedTypeHasRank(t)) {
    NODE_ERROR(x->im, x->loc, x->n, "needs the input's rank");
    return false;
  }
  int64_t rank = mlirShapedTypeGetRank(t), axis = -1, stash = 1;
  const Onnx__AttributeProto *a;
  double eps = 1e-5;
  if ((a = onnxFindAttr(x->n, "axis"))) axis = a->i;
  if ((a = onnxFindAttr(x->n, "epsilon"))) eps = a->f;
  if ((a = onnxFindAttr(x->n, "stash_type"))) stash = a->i;
  if (axis < -rank || axis >= rank) {
    NODE_ERROR(x->im, x->loc, x->n, "axis %lld is out of range for rank %lld", (long long)axis, (long long)rank);
    return false;
  }
  if (axis < 0) axis += rank;
  StrataDType ut = onnxDType((int32_t)stash);
  if (ut != STRATA_DTYPE_F32 && ut != STRATA_DTYPE_F64 && ut != STRATA_DTYPE_F16) {
    NODE_ERROR(x->im, x->loc, x->n, "stash_type %s is not supported", onnxDTypeName((int32_t)stash));
    return false;
  }
  MlirType u = strataDTypeToMlir(x->im->mc, ut), et = onnxElemOf(in);
  int64_t axes[STRATA_MAX_RANK];
  for (int64_t i = axis; i < rank; i++) axes[i - axis] = i;
  Attr red[2] = {{"axes", mlirDenseI64ArrayGet(x->im->mc, rank - axis, axes)}, {"keepdims", strataI64Attr(x->im->mc, 1)}};
  MlirValue xu = onnxCast(x, in, u);
  MlirValue mean = onnxUnary(x, "nn.reduce_mean", xu, red, 2);
  MlirValue d = onnxBinary(x, "nn.sub", xu, mean, NULL, 0);
  MlirValue var = onnxUnary(x, "nn.reduce_mean", onnxBinary(x, "nn.mul", d, d, NULL, 0), red, 2);
  MlirValue std = onnxUnary(x, "nn.sqrt", onnxBinary(x, "nn.add", var, onnxScalarConst(x, u, eps), NULL, 0), NULL, 0);
  MlirValue inv = onnxUnary(x, "nn.reciprocal", std, NULL, 0);
  MlirValue y = onnxBinary(x, "nn.mul", onnxCast(x, onnxBinary(x, "nn.mul", d, inv, NULL, 0), et), x->in[1], NULL, 0);
  if (x->nIn > 2 && !mlirValueIsNull(x->in[2])) y = onnxBinary(x, "nn.add", y, x->in[2], NULL, 0);
  return onnxBindValueAt(x, 0, y) && onnxBindValueAt(x, 1, mean) && onnxBindValueAt(x, 2, inv);
}

/* ---- Dropout's mask at inference: all true (before opset 10: ones of
 * the input's type) ---- */

static bool importDropoutMask(Node *x) {
  int rank;
  int64_t dims[STRATA_MAX_RANK];
  if (!onnxStaticShape(x, x->in[0], &rank, dims, "Dropout's mask output")) return false;
  MlirType et = x->im->opset < 10 ? onnxElemOf(x->in[0]) : mlirIntegerTypeGet(x->im->mc, 1);
  MlirType mt = mlirRankedTensorTypeGet(rank, dims, et, mlirAttributeGetNull());
  MlirAttribute one = mlirTypeIsAFloat(et) ? mlirFloatAttrDoubleGet(x->im->mc, et, 1.0) : mlirIntegerAttrGet(et, 1);
  MlirValue mask = onnxConstant(x->im, x->loc, mlirDenseElementsAttrSplatGet(mt, one));
  return onnxBindValueAt(x, 0, onnxUnary(x, "nn.identity", x->in[0], NULL, 0)) && onnxBindValueAt(x, 1, mask);
}

/* ---- Clip with bounds known only at run time, or of 64-bit integers: max, then min ---- */

static bool importClipRuntime(Node *x) {
  MlirValue v = x->in[0];
  for (int i = 1; i < 3 && i < x->nIn; i++) {
    if (mlirValueIsNull(x->in[i])) continue;
    MlirValue bound = x->in[i];
    MlirType bt = mlirValueGetType(bound);
    bool one = mlirShapedTypeHasRank(bt) && mlirShapedTypeGetRank(bt) > 0;
    for (intptr_t d = 0; one && d < mlirShapedTypeGetRank(bt); d++) one = mlirShapedTypeGetDimSize(bt, d) == 1;
    if (one) /* one element (as the constant path takes): a scalar */
      bound = onnxBinary(x, "nn.reshape", bound, onnxI64Vector(x, NULL, 0), NULL, 0);
    else if (!mlirShapedTypeHasRank(bt) || mlirShapedTypeGetRank(bt) != 0) {
      NODE_ERROR(x->im, x->loc, x->n, "input '%s' must be a scalar (rank 0)", i == 1 ? "min" : "max");
      return false;
    }
    v = onnxBinary(x, i == 1 ? "nn.max" : "nn.min", v, bound, NULL, 0);
  }
  return onnxBindValueAt(x, 0, v);
}

/* ---- NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss ---- */

/* loss[n, d...] = -input[n, target[n, d...], d...] * weight[target], 0
 * where target == ignore_index; reduced by `reduction` (mean divides by the
 * sum of the weights used). */
static MlirValue nllLoss(Node *x, MlirValue input, MlirValue target, MlirValue weight) {
  char reduction[16] = "mean";
  const Onnx__AttributeProto *ra = onnxFindAttr(x->n, "reduction"), *ia = onnxFindAttr(x->n, "ignore_index");
  if (ra) snprintf(reduction, sizeof reduction, "%.*s", (int)(ra->s.len < 15 ? ra->s.len : 15), (const char *)ra->s.data);
  if (strcmp(reduction, "none") && strcmp(reduction, "sum") && strcmp(reduction, "mean")) {
    NODE_ERROR(x->im, x->loc, x->n, "reduction '%s' is not one of none, sum, mean", reduction);
    return (MlirValue){NULL};
  }
  MlirType it = mlirValueGetType(input), tt = mlirValueGetType(target), et = onnxElemOf(input);
  if (!mlirShapedTypeHasRank(it) || !mlirShapedTypeHasRank(tt) || mlirShapedTypeGetRank(it) < 2 ||
      mlirShapedTypeGetRank(tt) != mlirShapedTypeGetRank(it) - 1 || !mlirTypeIsAInteger(onnxElemOf(target))) {
    NODE_ERROR(x->im, x->loc, x->n, "needs scores of rank >= 2 and integer targets of one rank less");
    return (MlirValue){NULL};
  }
  MlirValue valid = {NULL}, safe = target;
  if (ia) {
    MlirValue ignore = onnxScalarConst(x, onnxElemOf(target), (double)ia->i);
    valid = onnxUnary(x, "nn.not", onnxBinary(x, "nn.equal", target, ignore, NULL, 0), NULL, 0);
    safe = onnxWhere(x, valid, target, onnxScalarConst(x, onnxElemOf(target), 0));
  }
  Attr one[1] = {{"axes", mlirDenseI64ArrayGet(x->im->mc, 1, (int64_t[]){1})}};
  Attr ax1[1] = {{"axis", strataI64Attr(x->im->mc, 1)}};
  MlirValue picked = onnxBinary(x, "nn.gather_elements", input, onnxUnary(x, "nn.unsqueeze", safe, one, 1), ax1, 1);
  MlirValue loss = onnxUnary(x, "nn.neg", onnxUnary(x, "nn.squeeze", picked, one, 1), NULL, 0);
  MlirValue w = {NULL};
  if (!mlirValueIsNull(weight)) {
    Attr ax0[1] = {{"axis", strataI64Attr(x->im->mc, 0)}};
    w = onnxBinary(x, "nn.gather", weight, safe, ax0, 1);
  }
  if (ia) {
    w = mlirValueIsNull(weight) ? onnxCast(x, valid, et) : onnxWhere(x, valid, w, onnxScalarConst(x, et, 0));
    if (mlirValueIsNull(w)) return w;
  }
  if (!mlirValueIsNull(weight) || ia) loss = onnxBinary(x, "nn.mul", loss, w, NULL, 0);
  if (!strcmp(reduction, "none")) return loss;
  Attr all[1] = {{"keepdims", strataI64Attr(x->im->mc, 0)}};
  if (!strcmp(reduction, "sum")) return onnxUnary(x, "nn.reduce_sum", loss, all, 1);
  if (mlirValueIsNull(w)) return onnxUnary(x, "nn.reduce_mean", loss, all, 1);
  return onnxBinary(x, "nn.div", onnxUnary(x, "nn.reduce_sum", loss, all, 1), onnxUnary(x, "nn.reduce_sum", w, all, 1),
                    NULL, 0);
}

static bool importLoss(Node *x, bool softmax) {
  if (x->nIn < 2 || mlirValueIsNull(x->in[1])) {
    NODE_ERROR(x->im, x->loc, x->n, "needs input #1 (the targets)");
    return false;
  }
  if (!mlirTypeIsAFloat(onnxElemOf(x->in[0]))) {
    NODE_ERROR(x->im, x->loc, x->n, "input #0 must be of a float type");
    return false;
  }
  MlirValue weight = x->nIn > 2 ? x->in[2] : (MlirValue){NULL};
  MlirValue input = x->in[0];
  if (softmax) {
    Attr ax[1] = {{"axis", strataI64Attr(x->im->mc, 1)}};
    input = onnxUnary(x, "nn.log_softmax", input, ax, 1);
    if (mlirValueIsNull(input)) return false;
  } else if (x->n->n_output > 1) {
    NODE_ERROR(x->im, x->loc, x->n, "has %zu outputs; NegativeLogLikelihoodLoss has one", x->n->n_output);
    return false;
  }
  return onnxBindValueAt(x, 0, nllLoss(x, input, x->in[1], weight)) && (!softmax || onnxBindOutput(x, 1, input));
}

/* ---- Dispatch ---- */

bool onnxIsComposite(const char *opType) {
  static const char *const kOps[] = {"CastLike", "Trilu", "Hardmax", "EyeLike", "Softsign", "OneHot",
                                     "MeanVarianceNormalization", "LRN", "GatherND", "ScatterND",
                                     "NegativeLogLikelihoodLoss",
                                     "SoftmaxCrossEntropyLoss"};
  for (size_t i = 0; i < sizeof kOps / sizeof kOps[0]; i++)
    if (!strcmp(opType, kOps[i])) return true;
  return false;
}

static bool used(const Onnx__NodeProto *n, size_t i) { return i < n->n_output && n->output[i] && *n->output[i]; }

bool onnxImportComposite(Node *x, bool *handled) {
  const char *t = onnxOpType(x->n);
  *handled = true;
  if (!strcmp(t, "CastLike")) return importCastLike(x);
  if (!strcmp(t, "Trilu")) return importTrilu(x);
  if (!strcmp(t, "EyeLike")) return importEyeLike(x);
  if (!strcmp(t, "Softsign")) return importSoftsign(x);
  if (!strcmp(t, "OneHot")) return onnxImportOneHot(x);
  if (!strcmp(t, "MeanVarianceNormalization")) return importMeanVarianceNorm(x);
  if (!strcmp(t, "LRN")) return importLrn(x);
  if (!strcmp(t, "GatherND")) return onnxImportGatherND(x);
  if (!strcmp(t, "ScatterND")) return onnxImportScatterND(x);
  if (!strcmp(t, "Einsum") && x->nIn > 2) return onnxImportEinsumChain(x);
  if (!strcmp(t, "Pow") && x->nIn == 2 && !mlirValueIsNull(x->in[0]) && !mlirValueIsNull(x->in[1]) &&
      !mlirTypeEqual(onnxElemOf(x->in[0]), onnxElemOf(x->in[1])))
    return importMixedPow(x);
  if (!strcmp(t, "Hardmax") || ((!strcmp(t, "Softmax") || !strcmp(t, "LogSoftmax")) && x->im->opset < 13))
    return onnxImportNormalizer(x);
  if (!strcmp(t, "NegativeLogLikelihoodLoss")) return importLoss(x, false);
  if (!strcmp(t, "SoftmaxCrossEntropyLoss")) return importLoss(x, true);
  if (!strcmp(t, "LayerNormalization") && (used(x->n, 1) || used(x->n, 2))) return importLayerNormStats(x);
  if (!strcmp(t, "Dropout") && used(x->n, 1)) return importDropoutMask(x);
  if (!strcmp(t, "Clip") && x->im->opset >= 11) {
    /* nn.clip holds its bounds as f64 attributes: 64-bit integer bounds,
     * which a double may not hold exactly, take the max/min path too */
    MlirType e = mlirValueIsNull(x->in[0]) ? (MlirType){NULL} : onnxElemOf(x->in[0]);
    if (!mlirTypeIsNull(e) && mlirTypeIsAInteger(e) && mlirIntegerTypeGetWidth(e) == 64) return importClipRuntime(x);
    double bound;
    for (int i = 1; i < 3 && i < x->nIn; i++)
      if (!mlirValueIsNull(x->in[i]) && onnxConstDoubles(x->in[i], &bound, 1) != 1) return importClipRuntime(x);
  }
  *handled = false;
  return true;
}
