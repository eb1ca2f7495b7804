/* Quantized linear algebra as ONNX defines it. MatMulInteger and
 * ConvInteger: int8/uint8 operands minus their zero points, products summed
 * in i32 (wrapping, as an i32 accumulator does). QLinearMatMul and
 * QLinearConv: the same sum (plus QLinearConv's i32 bias), requantized:
 *   y = saturate(round_half_even(acc * m) + y_zero_point),
 *   m = (a_scale * b_scale) / y_scale, each step rounded to f32,
 *   acc * m in f64 (one rounding: the product of an i32 and an f32 is exact
 *   in f64 before it), which is ONNX's reference arithmetic (numpy: an
 *   int32 array times a float32 scale is float64). DynamicQuantizeLinear:
 *   x to uint8 with a scale and zero point computed from x's range (f32).
 * The lowerings (conversions/nn-to-linalg/lower_qlinear.c) compute the
 * same operations in the same order, so they agree with these kernels
 * bit for bit. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "nn_quant.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }
static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

const char *nnQuantParamShape(NnQuantParamKind kind, int prank, const int64_t *pdims, int trank,
                              const int64_t *tdims, int *rank, int64_t *dims) {
  *rank = 0;
  if (prank == 0 || (prank == 1 && pdims[0] == 1)) return NULL;
  if (prank == 1) {
    int axis = 0;
    switch (kind) {
    case NN_QP_TENSOR: return "it must hold one value (a scalar or [1]): only per-tensor parameters are defined";
    case NN_QP_ROWS:
      if (trank != 2) return "a 1-D parameter (one value per row) needs a rank-2 tensor; give it the tensor's rank";
      axis = 0;
      break;
    case NN_QP_COLUMNS:
      if (trank < 2) return "a 1-D parameter (one value per column) needs a tensor of rank 2 or more";
      axis = trank - 1;
      break;
    case NN_QP_CHANNELS: axis = 0; break;
    case NN_QP_OUT_CHANNELS: axis = 1; break;
    }
    if (pdims[0] != -1 && tdims[axis] != -1 && pdims[0] != tdims[axis])
      return "its length differs from the dim it spreads along";
    *rank = trank;
    for (int i = 0; i < trank; i++) dims[i] = i == axis ? pdims[0] : 1;
    return NULL;
  }
  if (kind != NN_QP_ROWS && kind != NN_QP_COLUMNS) return "it must be a scalar or 1-D (one value per channel)";
  if (prank != trank) return "it must be a scalar, 1-D, or of the tensor's rank";
  int reduced = kind == NN_QP_ROWS ? trank - 1 : trank - 2;
  for (int i = 0; i < trank; i++) {
    if (i == reduced && pdims[i] != 1) return "its extent along the summed dim (K) must be 1";
    if (pdims[i] != 1 && pdims[i] != -1 && tdims[i] != -1 && pdims[i] != tdims[i])
      return "it does not broadcast to the tensor";
    dims[i] = pdims[i];
  }
  *rank = trank;
  return NULL;
}

/* ---- Verification ---- */

/* Operand `name` (elements of `types`) is a quantization parameter of kind
 * `kind` of tensor t (operand tName); false after an error. */
static bool checkParam(const StrataOpDef *def, MlirOperation op, const char *name, unsigned types,
                       NnQuantParamKind kind, const StrataShape *t, const char *tName, StrataShape *p) {
  if (!nnOperand(def, op, name, p) || !nnCheckType(op, name, p, types)) return false;
  int rank;
  int64_t dims[STRATA_MAX_RANK];
  const char *why = nnQuantParamShape(kind, p->rank, p->dims, t->rank, t->dims, &rank, dims);
  if (why) {
    char dp[300], dt[300];
    nnError(op, "%s does not fit %s: %s", nnDescribe(name, p, dp, sizeof dp), nnDescribe(tName, t, dt, sizeof dt),
            why);
    return false;
  }
  return true;
}

/* A zero point: the element type of its tensor. */
static bool checkZeroPoint(const StrataOpDef *def, MlirOperation op, const char *name, NnQuantParamKind kind,
                           const StrataShape *t, const char *tName) {
  StrataShape z;
  return checkParam(def, op, name, NN_Q8, kind, t, tName, &z) && nnSameType(op, tName, t, name, &z);
}

static bool checkOptionalZeroPoint(const StrataOpDef *def, MlirOperation op, const char *name,
                                   NnQuantParamKind kind, const StrataShape *t, const char *tName) {
  return !nnHasOperand(def, op, name) || checkZeroPoint(def, op, name, kind, t, tName);
}

/* A scale (f32) and a zero point of t's element type. */
static bool checkScaleZp(const StrataOpDef *def, MlirOperation op, const char *scale, const char *zp,
                         NnQuantParamKind kind, const StrataShape *t, const char *tName) {
  StrataShape s;
  return checkParam(def, op, scale, NN_T(STRATA_DTYPE_F32), kind, t, tName, &s) &&
         checkZeroPoint(def, op, zp, kind, t, tName);
}

static MlirType i32Type(MlirOperation op) { return mlirIntegerTypeGet(mlirOperationGetContext(op), 32); }

static MlirLogicalResult inferMatmulInteger(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape a, b;
  if (!nnOperand(def, op, "a", &a) || !nnOperand(def, op, "b", &b) || !nnCheckType(op, "a", &a, NN_Q8) ||
      !nnCheckType(op, "b", &b, NN_Q8) || !nnInferMatmulShape(op, &a, &b, res) ||
      !checkOptionalZeroPoint(def, op, "a_zero_point", NN_QP_ROWS, &a, "a") ||
      !checkOptionalZeroPoint(def, op, "b_zero_point", NN_QP_COLUMNS, &b, "b"))
    return fail();
  res->elementType = i32Type(op);
  return ok();
}

static MlirLogicalResult inferConvInteger(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, w;
  if (!nnInferConvShape(def, op, NN_Q8, &x, &w, res) ||
      !checkOptionalZeroPoint(def, op, "x_zero_point", NN_QP_TENSOR, &x, "x") ||
      !checkOptionalZeroPoint(def, op, "w_zero_point", NN_QP_CHANNELS, &w, "w"))
    return fail();
  res->elementType = i32Type(op);
  return ok();
}

/* The result of a QLinear op: y_scale/y_zero_point fit it (kind), and it
 * has y_zero_point's element type. */
static bool quantizedResult(const StrataOpDef *def, MlirOperation op, NnQuantParamKind kind, StrataShape *res) {
  StrataShape s, z;
  if (!checkParam(def, op, "y_scale", NN_T(STRATA_DTYPE_F32), kind, res, "y", &s) ||
      !checkParam(def, op, "y_zero_point", NN_Q8, kind, res, "y", &z))
    return false;
  res->elementType = z.elementType;
  return true;
}

/* The optional i32 bias: one value per output channel (conv) or column
 * (matmul) of the result. */
static bool checkBias(const StrataOpDef *def, MlirOperation op, const char *name, NnQuantParamKind kind,
                      const StrataShape *res) {
  StrataShape b;
  if (!nnHasOperand(def, op, name)) return true;
  if (!nnOperand(def, op, name, &b) || !nnCheckType(op, name, &b, NN_T(STRATA_DTYPE_I32))) return false;
  int rank;
  int64_t dims[STRATA_MAX_RANK];
  if (b.rank != 1 || nnQuantParamShape(kind, b.rank, b.dims, res->rank, res->dims, &rank, dims)) {
    char db[300], dy[300];
    nnError(op, "%s must be 1-D with one value per output %s of %s", nnDescribe(name, &b, db, sizeof db),
            kind == NN_QP_COLUMNS ? "column" : "channel", nnDescribe("y", res, dy, sizeof dy));
    return false;
  }
  return true;
}

static MlirLogicalResult inferQLinearMatmul(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape a, b;
  if (!nnOperand(def, op, "a", &a) || !nnOperand(def, op, "b", &b) || !nnCheckType(op, "a", &a, NN_Q8) ||
      !nnCheckType(op, "b", &b, NN_Q8) || !nnInferMatmulShape(op, &a, &b, res) ||
      !checkScaleZp(def, op, "a_scale", "a_zero_point", NN_QP_ROWS, &a, "a") ||
      !checkScaleZp(def, op, "b_scale", "b_zero_point", NN_QP_COLUMNS, &b, "b") ||
      !quantizedResult(def, op, NN_QP_ROWS, res) || !checkBias(def, op, "bias", NN_QP_COLUMNS, res))
    return fail();
  return ok();
}

static MlirLogicalResult inferQLinearConv(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, w;
  if (!nnInferConvShape(def, op, NN_Q8, &x, &w, res) ||
      !checkScaleZp(def, op, "x_scale", "x_zero_point", NN_QP_TENSOR, &x, "x") ||
      !checkScaleZp(def, op, "w_scale", "w_zero_point", NN_QP_CHANNELS, &w, "w"))
    return fail();
  return quantizedResult(def, op, NN_QP_TENSOR, res) && checkBias(def, op, "b", NN_QP_OUT_CHANNELS, res) ? ok()
                                                                                                   : fail();
}

static MlirLogicalResult inferDynamicQuantize(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  if (!nnOperand(def, op, "x", &x) || !nnCheckType(op, "x", &x, NN_T(STRATA_DTYPE_F32))) return fail();
  MlirContext ctx = mlirOperationGetContext(op);
  MlirType u8 = mlirIntegerTypeUnsignedGet(ctx, 8);
  res[0] = x;
  res[0].elementType = u8;
  nnSetShape(&res[1], 0, NULL, x.elementType);
  nnSetShape(&res[2], 0, NULL, u8);
  return ok();
}

/* ---- Interpreter ---- */

/* p viewed in the broadcast shape of its kind over a tensor of dims t (for
 * nnBroadcastIndex: only rank and dims differ). */
static StrataTensor paramView(const StrataTensor *p, NnQuantParamKind kind, int trank, const int64_t *tdims) {
  StrataTensor v = *p;
  nnQuantParamShape(kind, p->rank, p->dims, trank, tdims, &v.rank, v.dims);
  return v;
}

/* x - zp (zp NULL: x) as an f64 tensor the caller destroys; NULL if out of
 * memory. */
static StrataTensor *minusZeroPoint(const StrataTensor *x, const StrataTensor *zp, NnQuantParamKind kind) {
  StrataTensor *t = strataTensorCreate(STRATA_DTYPE_F64, x->rank, x->dims);
  if (!t) return NULL;
  StrataTensor view = zp ? paramView(zp, kind, x->rank, x->dims) : *x;
  int64_t idx[STRATA_MAX_RANK] = {0}, n = strataTensorNumElements(x);
  for (int64_t e = 0; e < n; e++, nnNextIndex(idx, x->dims, x->rank)) {
    int64_t z = zp ? nnGetInt(zp, nnBroadcastIndex(&view, idx, x->rank)) : 0;
    ((double *)t->data)[e] = (double)(nnGetInt(x, e) - z);
  }
  return t;
}

/* The integer part shared by the four ops: the sum of products of the
 * zero-point-shifted operands into an f64 tensor of dims (exact: every
 * partial sum is an integer far below 2^53), NULL after a located error.
 * xi/wi: operand indices of the two tensors, zi/zw of their zero points (-1:
 * none); conv: a convolution (else a matmul). */
typedef struct {
  int xi, wi, zx, zw;
  NnQuantParamKind kx, kw;
  bool conv;
} IntegerPart;

static StrataTensor *integerSum(MlirOperation op, StrataTensor *const *in, const IntegerPart *p,
                                const StrataTensor *y) {
  StrataTensor *xs = minusZeroPoint(in[p->xi], p->zx >= 0 ? in[p->zx] : NULL, p->kx);
  StrataTensor *ws = minusZeroPoint(in[p->wi], p->zw >= 0 ? in[p->zw] : NULL, p->kw);
  StrataTensor *acc = strataTensorCreate(STRATA_DTYPE_F64, y->rank, y->dims);
  bool good = xs && ws && acc;
  if (!good) nnInterpError(op, "out of memory");
  else if (p->conv) good = nnConvCompute(op, xs, ws, NULL, acc);
  else nnMatmulCompute(xs, ws, acc);
  strataTensorDestroy(xs);
  strataTensorDestroy(ws);
  if (!good) {
    strataTensorDestroy(acc);
    return NULL;
  }
  return acc;
}

/* An accumulator as the i32 it is after wrapping additions (the sum mod
 * 2^32, whatever the order). */
static int32_t wrapI32(double v) { return (int32_t)(uint32_t)(uint64_t)(int64_t)v; }

static const StrataOpDef kOps[5];

/* Whether op's name contains `part` ("conv": a convolution). */
static bool nameHas(MlirOperation op, const char *part) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  char buf[64];
  snprintf(buf, sizeof buf, "%.*s", (int)name.length, name.data);
  return strstr(buf, part) != NULL;
}

int nnQuantOptionalOperand(MlirOperation op, int g) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  for (size_t i = 0; i < sizeof kOps / sizeof kOps[0]; i++) {
    intptr_t start, size;
    if (strlen(kOps[i].name) == name.length && !strncmp(kOps[i].name, name.data, name.length))
      return strataOperandGroup(&kOps[i], op, g, &start, &size) && size ? (int)start : -1;
  }
  return -1;
}

static MlirLogicalResult interpInteger(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                       StrataTensor **y) {
  (void)in;
  bool conv = nameHas(op, "conv");
  int zx = nnQuantOptionalOperand(op, 2), zw = nnQuantOptionalOperand(op, 3);
  IntegerPart p = {0, 1, zx, zw, conv ? NN_QP_TENSOR : NN_QP_ROWS, conv ? NN_QP_CHANNELS : NN_QP_COLUMNS, conv};
  StrataTensor *acc = integerSum(op, x, &p, y[0]);
  if (!acc) return fail();
  int64_t n = strataTensorNumElements(y[0]);
  for (int64_t e = 0; e < n; e++) nnSetInt(y[0], e, wrapI32(((double *)acc->data)[e]));
  strataTensorDestroy(acc);
  return ok();
}

/* Saturation bounds of a quantized element type. */
static void quantRange(StrataDType t, double *lo, double *hi) {
  *lo = t == STRATA_DTYPE_U8 ? 0 : -128;
  *hi = t == STRATA_DTYPE_U8 ? 255 : 127;
}

/* round_half_even(v) + zp, saturated to [lo, hi]; NaN gives 0 (as
 * nn.quantize_linear does). */
static int64_t saturateRound(double v, double zp, double lo, double hi) {
  v = nearbyint(v) + zp;
  return isnan(v) ? 0 : (int64_t)fmin(fmax(v, lo), hi);
}

/* Requantizes acc (+ bias, per output channel or column) into y. Operand indices:
 * sa, sb (the input scales), sy, zy; kinds give each its spread over its
 * tensor (a's shape `ta`, b's `tb`, or y's). */
typedef struct {
  int sa, sb, sy, zy, bias;
  NnQuantParamKind ka, kb, ky, kbias;
  const StrataTensor *ta, *tb;
} Requant;

static void requantize(StrataTensor *const *in, const Requant *r, const StrataTensor *acc, StrataTensor *y) {
  StrataTensor va = paramView(in[r->sa], r->ka, r->ta->rank, r->ta->dims);
  StrataTensor vb = paramView(in[r->sb], r->kb, r->tb->rank, r->tb->dims);
  StrataTensor vy = paramView(in[r->sy], r->ky, y->rank, y->dims);
  StrataTensor vz = paramView(in[r->zy], r->ky, y->rank, y->dims);
  StrataTensor vbias = r->bias >= 0 ? paramView(in[r->bias], r->kbias, y->rank, y->dims) : va;
  double lo, hi;
  quantRange(y->dtype, &lo, &hi);
  int64_t idx[STRATA_MAX_RANK] = {0}, n = strataTensorNumElements(y);
  for (int64_t e = 0; e < n; e++, nnNextIndex(idx, y->dims, y->rank)) {
    double sum = ((const double *)acc->data)[e];
    if (r->bias >= 0) sum += (double)nnGetInt(in[r->bias], nnBroadcastIndex(&vbias, idx, y->rank));
    float m = (float)strataTensorGetDouble(in[r->sa], nnBroadcastIndex(&va, idx, y->rank)) *
              (float)strataTensorGetDouble(in[r->sb], nnBroadcastIndex(&vb, idx, y->rank));
    m = m / (float)strataTensorGetDouble(in[r->sy], nnBroadcastIndex(&vy, idx, y->rank));
    double zp = (double)nnGetInt(in[r->zy], nnBroadcastIndex(&vz, idx, y->rank));
    nnSetInt(y, e, saturateRound((double)wrapI32(sum) * (double)m, zp, lo, hi));
  }
}

/* Operands: QLinearMatMul a, a_scale, a_zp, b, b_scale, b_zp, y_scale,
 * y_zp, bias?; QLinearConv x, x_scale, x_zp, w, w_scale, w_zp, y_scale,
 * y_zp, b?. */
static MlirLogicalResult interpQLinear(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                       StrataTensor **y) {
  (void)in;
  bool conv = nameHas(op, "conv");
  IntegerPart p = {0, 3, 2, 5, conv ? NN_QP_TENSOR : NN_QP_ROWS, conv ? NN_QP_CHANNELS : NN_QP_COLUMNS, conv};
  StrataTensor *acc = integerSum(op, x, &p, y[0]);
  if (!acc) return fail();
  Requant r = {1, 4, 6, 7, nnQuantOptionalOperand(op, 8), conv ? NN_QP_TENSOR : NN_QP_ROWS,
               conv ? NN_QP_OUT_CHANNELS : NN_QP_COLUMNS, conv ? NN_QP_TENSOR : NN_QP_ROWS,
               conv ? NN_QP_OUT_CHANNELS : NN_QP_COLUMNS, x[0], x[3]};
  /* A conv's w_scale spreads over y's channels (dim 1), not w's dim 0. */
  if (conv) r.tb = y[0];
  requantize(x, &r, acc, y[0]);
  strataTensorDestroy(acc);
  return ok();
}

/* DynamicQuantizeLinear in f32, step by step as ONNX's reference:
 * lo = min(0, min x), hi = max(0, max x) (NaN if x has one), scale =
 * (hi - lo) / 255, zp = saturate(round(-lo / scale)), y = saturate(round(x
 * / scale) + zp). */
static MlirLogicalResult interpDynamicQuantize(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                               StrataTensor **y) {
  (void)in; (void)op;
  int64_t n = strataTensorNumElements(x[0]);
  const float *v = x[0]->data;
  float lo = 0, hi = 0;
  for (int64_t e = 0; e < n; e++) {
    lo = isnan(lo) || isnan(v[e]) ? NAN : fminf(lo, v[e]);
    hi = isnan(hi) || isnan(v[e]) ? NAN : fmaxf(hi, v[e]);
  }
  float scale = (hi - lo) / 255.0f;
  float zp = (float)saturateRound((double)((0.0f - lo) / scale), 0, 0, 255);
  for (int64_t e = 0; e < n; e++) {
    float q = nearbyintf(v[e] / scale) + zp;
    nnSetInt(y[0], e, isnan(q) ? 0 : (int64_t)fminf(fmaxf(q, 0.0f), 255.0f));
  }
  ((float *)y[1]->data)[0] = scale;
  nnSetInt(y[2], 0, (int64_t)zp);
  return ok();
}

static double flopsQuantized(MlirOperation op) {
  /* Two ops per multiply-accumulate, as the float ops count them: the
   * product count is the result size times the summed extent. */
  MlirValue w = mlirOperationGetOperand(op, nameHas(op, "qlinear") ? 3 : 1);
  MlirType wt = mlirValueGetType(w), at = mlirValueGetType(mlirOperationGetOperand(op, 0));
  int64_t out = nnNumElements(mlirValueGetType(mlirOperationGetResult(op, 0)));
  bool conv = nameHas(op, "conv");
  int64_t per = conv ? nnNumElements(wt) / mlirShapedTypeGetDimSize(wt, 0)
                     : mlirShapedTypeGetDimSize(at, mlirShapedTypeGetRank(at) - 1);
  return out < 0 || per < 0 ? 0 : 2.0 * (double)out * (double)per;
}

static const StrataOpDef kOps[] = {
    {.name = "nn.matmul_integer",
     .summary = "numpy.matmul of (a - a_zero_point) and (b - b_zero_point), int8/uint8, summed in i32; "
                "zero points per tensor, per row of a, per column of b",
     .operands = "a, b, a_zero_point?, b_zero_point?",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferMatmulInteger,
     .interpret = interpInteger,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsQuantized,
     .types = "i8 ui8 -> i32"},
    {.name = "nn.conv_integer",
     .summary = "conv of (x - x_zero_point) and (w - w_zero_point), int8/uint8, summed in i32 (Conv's "
                "attributes; w's zero point per tensor or per output channel)",
     .operands = "x, w, x_zero_point?, w_zero_point?",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferConvInteger,
     .interpret = interpInteger,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsQuantized,
     .types = "i8 ui8 -> i32"},
    {.name = "nn.qlinear_matmul",
     .summary = "matmul_integer (plus an i32 bias per column: Strata's, for Gemm, not in ONNX) requantized: "
                "saturate(round_half_even(acc * a_scale * b_scale / y_scale) + y_zero_point)",
     .operands = "a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point, bias?",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferQLinearMatmul,
     .interpret = interpQLinear,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsQuantized,
     .types = "i8 ui8, f32 scales -> i8 ui8"},
    {.name = "nn.qlinear_conv",
     .summary = "conv_integer plus the i32 bias, requantized as qlinear_matmul (w_scale per tensor or per "
                "output channel)",
     .operands = "x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point, b?",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferQLinearConv,
     .interpret = interpQLinear,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsQuantized,
     .types = "i8 ui8, f32 scales, i32 bias -> i8 ui8"},
    {.name = "nn.dynamic_quantize_linear",
     .summary = "x to uint8 with scale (max(0, x) - min(0, x)) / 255 and zero point round(-min(0, x) / scale), "
                "all in f32",
     .operands = "x",
     .results = "y, y_scale, y_zero_point",
     .flags = STRATA_OP_PURE,
     .infer = inferDynamicQuantize,
     .interpret = interpDynamicQuantize,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .types = "f32 -> ui8"},
};

const StrataOpTable nnQLinearTable = {kOps, sizeof kOps / sizeof kOps[0]};
