/* The dsp ops that carry ONNX's quantized MatMul/Conv onto dsp.matmul
 * (written by --nn-to-dsp, conversions/nn-to-dsp/): the sign flip that
 * brings an int8 operand to the side dsp.matmul takes it on, the im2col
 * panel matrix of a convolution, and the requantization with zero points
 * and scales per tensor, row or column. Each is exact: with them a QLinear
 * MatMul or Conv computes what the nn op's interpreter kernel computes, bit
 * for bit (dialects/nn/ops_qlinear.c). */
#include <math.h>
#include <string.h>
#include "dsp_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/context.h"
#include "strata/support.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }
static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

/* An 8-bit integer type; *isUnsigned for ui8 (i8 and si8 are signed). */
static bool isByte(MlirType t, bool *isUnsigned) {
  if (!mlirTypeIsAInteger(t) || mlirIntegerTypeGetWidth(t) != 8) return false;
  *isUnsigned = mlirIntegerTypeIsUnsigned(t);
  return true;
}

/* Operand i's static shape and element type; a located error if it is not
 * a static tensor. */
static bool operandShape(MlirOperation op, int i, const char *name, int *rank, int64_t *dims, MlirType *elem) {
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, i));
  if (!strataGetShape(t, rank, dims) || !mlirShapedTypeHasStaticShape(t)) {
    char ts[128];
    strataTypeToString(t, ts, sizeof ts);
    strataEmitOpError(op, "operand '%s' must be a static tensor, got %s", name, ts);
    return false;
  }
  *elem = mlirShapedTypeGetElementType(t);
  return true;
}

static void setShape(StrataShape *r, int rank, const int64_t *dims, MlirType elem) {
  r->rank = rank;
  for (int i = 0; i < rank; i++) r->dims[i] = dims[i];
  r->elementType = elem;
}

/* ---- dsp.flip_sign: x xor 0x80, i8 <-> ui8 (v + 128 / v - 128) ---------- */

static MlirLogicalResult inferFlip(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  (void)def;
  int rank;
  int64_t d[STRATA_MAX_RANK];
  MlirType e;
  bool u;
  if (!operandShape(op, 0, "x", &rank, d, &e)) return fail();
  if (!isByte(e, &u)) {
    strataEmitOpError(op, "operand 'x' must have i8 or ui8 elements");
    return fail();
  }
  MlirContext ctx = mlirOperationGetContext(op);
  setShape(res, rank, d, u ? mlirIntegerTypeGet(ctx, 8) : mlirIntegerTypeUnsignedGet(ctx, 8));
  return ok();
}

static MlirLogicalResult interpFlip(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  (void)op;
  if (!y[0]) return fail();
  int64_t n = strataTensorNumElements(x[0]);
  const uint8_t *s = x[0]->data;
  uint8_t *d = y[0]->data;
  for (int64_t i = 0; i < n; i++) d[i] = s[i] ^ 0x80;
  return ok();
}

/* ---- dsp.im2col: a convolution's input as the panel matrix of its GEMM --- */

/* One value of a quantization parameter: a scalar or [1]. */
static bool oneValue(int rank, const int64_t *d) { return rank == 0 || (rank == 1 && d[0] == 1); }

/* The window attributes: kernel_shape [kh, kw], strides, dilations (2,
 * positive), pads [top, left, bottom, right] (>= 0); and the output size. */
static bool window(MlirOperation op, const int64_t *x, int64_t *k, int64_t *s, int64_t *dl, int64_t *p,
                   int64_t *out) {
  if (strataGetI64Array(op, "kernel_shape", k, 2) != 2 || strataGetI64Array(op, "strides", s, 2) != 2 ||
      strataGetI64Array(op, "dilations", dl, 2) != 2 || strataGetI64Array(op, "pads", p, 4) != 4) {
    strataEmitOpError(op, "needs kernel_shape, strides and dilations of 2 values and pads of 4");
    return false;
  }
  for (int i = 0; i < 2; i++) {
    if (k[i] < 1 || s[i] < 1 || dl[i] < 1 || p[i] < 0 || p[i + 2] < 0) {
      strataEmitOpError(op, "kernel, strides and dilations must be positive and pads non-negative");
      return false;
    }
    int64_t span = dl[i] * (k[i] - 1) + 1, room = x[2 + i] + p[i] + p[i + 2];
    if (room < span) {
      strataEmitOpError(op, "a window of %lld does not fit the padded extent %lld", (long long)span,
                        (long long)room);
      return false;
    }
    out[i] = (room - span) / s[i] + 1;
  }
  return true;
}

static MlirLogicalResult inferIm2col(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  (void)def;
  int rank, prank;
  int64_t x[STRATA_MAX_RANK], pd[STRATA_MAX_RANK], k[2], s[2], dl[2], p[4], o[2];
  MlirType e, pe;
  bool u, pu;
  if (!operandShape(op, 0, "x", &rank, x, &e) || !operandShape(op, 1, "pad", &prank, pd, &pe)) return fail();
  if (rank != 4 || !isByte(e, &u) || !u) {
    strataEmitOpError(op, "operand 'x' must be a 4-D (N, C, H, W) tensor of ui8");
    return fail();
  }
  if (!oneValue(prank, pd) || !isByte(pe, &pu)) {
    strataEmitOpError(op, "operand 'pad' must be one i8 or ui8 value");
    return fail();
  }
  if (!window(op, x, k, s, dl, p, o)) return fail();
  int64_t dims[2] = {x[0] * o[0] * o[1], x[1] * k[0] * k[1]};
  setShape(res, 2, dims, e);
  return ok();
}

static MlirLogicalResult interpIm2col(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  int64_t k[2], s[2], dl[2], p[4], o[2];
  if (!y[0] || !window(op, x[0]->dims, k, s, dl, p, o)) return fail();
  int64_t N = x[0]->dims[0], C = x[0]->dims[1], H = x[0]->dims[2], W = x[0]->dims[3];
  /* The pad is the zero point: an i8 one as the flipped input holds it. */
  int64_t pv = (int64_t)strataTensorGetDouble(x[1], 0);
  uint8_t pad = (uint8_t)(x[1]->dtype == STRATA_DTYPE_U8 ? pv : pv + 128);
  const uint8_t *src = x[0]->data;
  uint8_t *d = y[0]->data;
  for (int64_t n = 0; n < N; n++)
    for (int64_t oh = 0; oh < o[0]; oh++)
      for (int64_t ow = 0; ow < o[1]; ow++)
        for (int64_t c = 0; c < C; c++)
          for (int64_t i = 0; i < k[0]; i++)
            for (int64_t j = 0; j < k[1]; j++) {
              int64_t h = oh * s[0] - p[0] + i * dl[0], w = ow * s[1] - p[1] + j * dl[1];
              *d++ = h < 0 || h >= H || w < 0 || w >= W ? pad : src[((n * C + c) * H + h) * W + w];
            }
  return ok();
}

/* ---- dsp.qrequant: zero-point correction and requantization ----------- */

enum { Q_ACC, Q_ROWSUM, Q_COLSUM, Q_AS, Q_AZ, Q_BS, Q_BZ, Q_YS, Q_YZ, Q_BIAS };
static const char *const kQNames[] = {"acc",          "row_sum", "col_sum",  "a_scale",      "a_zero_point",
                                      "b_scale",      "b_zero_point", "y_scale", "y_zero_point", "bias"};

/* Operand i is one value or `n` values (1-D) of the element kind: 'f' f32,
 * 'q' i8/ui8, 'i' i32 (then exactly [n]). */
static bool paramAs(MlirOperation op, int i, const char *name, int64_t n, char kind) {
  int rank;
  int64_t d[STRATA_MAX_RANK];
  MlirType e;
  bool u;
  if (!operandShape(op, i, name, &rank, d, &e)) return false;
  bool type = kind == 'f'   ? mlirTypeIsAF32(e)
              : kind == 'q' ? isByte(e, &u)
                            : mlirTypeIsAInteger(e) && mlirIntegerTypeGetWidth(e) == 32;
  bool shape = kind == 'i' ? rank == 1 && d[0] == n : oneValue(rank, d) || (rank == 1 && d[0] == n);
  if (type && shape) return true;
  strataEmitOpError(op, "operand '%s' must be %s %s tensor of %lld values", name,
                    kind == 'i' ? "a 1-D" : "one value or a 1-D", kind == 'f' ? "f32" : kind == 'q' ? "i8/ui8" : "i32",
                    (long long)n);
  return false;
}

/* The sums every correction reads: an i32 acc (M x N), row_sum (M x 1)
 * and col_sum (1 x N), and k; *M and *N receive the GEMM's extents. */
static bool sums(MlirOperation op, int64_t *M, int64_t *N) {
  int rank, r1, r2;
  int64_t a[STRATA_MAX_RANK], rs[STRATA_MAX_RANK], cs[STRATA_MAX_RANK];
  MlirType e, e1, e2;
  if (!operandShape(op, Q_ACC, "acc", &rank, a, &e) || !operandShape(op, Q_ROWSUM, "row_sum", &r1, rs, &e1) ||
      !operandShape(op, Q_COLSUM, "col_sum", &r2, cs, &e2))
    return false;
  bool i32 = mlirTypeIsAInteger(e) && mlirIntegerTypeGetWidth(e) == 32 && mlirTypeEqual(e, e1) && mlirTypeEqual(e, e2);
  if (rank != 2 || r1 != 2 || r2 != 2 || !i32 || rs[0] != a[0] || rs[1] != 1 || cs[0] != 1 || cs[1] != a[1]) {
    strataEmitOpError(op, "needs an i32 acc (M x N), row_sum (M x 1) and col_sum (1 x N)");
    return false;
  }
  int64_t k;
  if (!strataGetI64(op, "k", &k) || k < 0) {
    strataEmitOpError(op, "needs k, the summed extent (>= 0)");
    return false;
  }
  *M = a[0];
  *N = a[1];
  return true;
}

static bool param(MlirOperation op, int i, int64_t n, char kind) { return paramAs(op, i, kQNames[i], n, kind); }

static MlirLogicalResult inferQrequant(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  (void)def;
  int64_t M, N;
  if (!sums(op, &M, &N)) return fail();
  int nops = (int)mlirOperationGetNumOperands(op);
  if (!param(op, Q_AS, M, 'f') || !param(op, Q_AZ, M, 'q') || !param(op, Q_BS, N, 'f') || !param(op, Q_BZ, N, 'q') ||
      !param(op, Q_YS, M, 'f') || !param(op, Q_YZ, M, 'q') || (nops > Q_BIAS && !param(op, Q_BIAS, N, 'i')))
    return fail();
  int64_t d[2] = {M, N};
  setShape(res, 2, d, mlirShapedTypeGetElementType(mlirValueGetType(mlirOperationGetOperand(op, Q_YZ))));
  return ok();
}

/* dsp.qsum's operands: acc, row_sum, col_sum, a_zero_point, b_zero_point. */
enum { S_AZ = 3, S_BZ = 4 };

static MlirLogicalResult inferQsum(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  (void)def;
  int64_t M, N;
  if (!sums(op, &M, &N) || !paramAs(op, S_AZ, "a_zero_point", M, 'q') || !paramAs(op, S_BZ, "b_zero_point", N, 'q'))
    return fail();
  int64_t d[2] = {M, N};
  setShape(res, 2, d, mlirIntegerTypeGet(mlirOperationGetContext(op), 32));
  return ok();
}

/* Element r (row) or c (column) of a one-value-or-1-D parameter. */
static double at(const StrataTensor *t, int64_t i) { return strataTensorGetDouble(t, strataTensorNumElements(t) == 1 ? 0 : i); }

/* A zero point as the flipped operand of dsp.matmul sees it: a's on the
 * ui8 side (i8 + 128), b's on the i8 side (ui8 - 128). */
static uint32_t zeroPoint(const StrataTensor *z, int64_t i, bool aSide) {
  int64_t v = (int64_t)at(z, i);
  if (aSide && z->dtype == STRATA_DTYPE_I8) v += 128;
  if (!aSide && z->dtype == STRATA_DTYPE_U8) v -= 128;
  return (uint32_t)v;
}

/* Sum (a' - za')(b' - zb') = acc - zb' rs - za' cs + k za' zb', mod 2^32,
 * at (i, j); the zero points are operands az and bz. */
static uint32_t correctedSum(StrataTensor *const *x, int az, int bz, int64_t k, int64_t i, int64_t j, int64_t N) {
  const int32_t *acc = x[Q_ACC]->data, *rs = x[Q_ROWSUM]->data, *cs = x[Q_COLSUM]->data;
  uint32_t za = zeroPoint(x[az], i, true), zb = zeroPoint(x[bz], j, false);
  return (uint32_t)acc[i * N + j] - zb * (uint32_t)rs[i] - za * (uint32_t)cs[j] + (uint32_t)k * za * zb;
}

static MlirLogicalResult interpQsum(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  int64_t k;
  if (!y[0] || !strataGetI64(op, "k", &k)) return fail();
  int64_t M = x[Q_ACC]->dims[0], N = x[Q_ACC]->dims[1];
  int32_t *d = y[0]->data;
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++) d[i * N + j] = (int32_t)correctedSum(x, S_AZ, S_BZ, k, i, j, N);
  return ok();
}

static MlirLogicalResult interpQrequant(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  int64_t k;
  if (!y[0] || !strataGetI64(op, "k", &k)) return fail();
  bool relu = !mlirAttributeIsNull(strataOpAttr(op, "relu"));
  bool bias = mlirOperationGetNumOperands(op) > Q_BIAS;
  int64_t M = x[Q_ACC]->dims[0], N = x[Q_ACC]->dims[1];
  double lo = y[0]->dtype == STRATA_DTYPE_U8 ? 0 : -128, hi = lo + 255;
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++) {
      uint32_t s = correctedSum(x, Q_AZ, Q_BZ, k, i, j, N);
      if (bias) s += (uint32_t)((const int32_t *)x[Q_BIAS]->data)[j];
      float m = (float)at(x[Q_AS], i) * (float)at(x[Q_BS], j);
      m = m / (float)at(x[Q_YS], i);
      double zp = at(x[Q_YZ], i), v = nearbyint((double)(int32_t)s * (double)m) + zp;
      v = isnan(v) ? 0 : fmin(fmax(v, lo), hi);
      if (relu) v = fmax(v, zp); /* nn.max(y, y_zero_point) */
      strataTensorSetDouble(y[0], i * N + j, v);
    }
  return ok();
}

static const StrataAttrDef kIm2colAttrs[] = {
    {"kernel_shape", STRATA_ATTR_INT_ARRAY, 0, NULL, "[kh, kw]"},
    {"strides", STRATA_ATTR_INT_ARRAY, 0, NULL, "[sh, sw]"},
    {"dilations", STRATA_ATTR_INT_ARRAY, 0, NULL, "[dh, dw]"},
    {"pads", STRATA_ATTR_INT_ARRAY, 0, NULL, "[top, left, bottom, right], filled with `pad`"},
};
static const StrataAttrDef kQrequantAttrs[] = {
    {"k", STRATA_ATTR_INT, STRATA_ATTR_NON_NEGATIVE, NULL, "the summed extent (K) of the MatMul"},
    {"relu", STRATA_ATTR_UNIT, STRATA_ATTR_OPTIONAL, NULL, "fused Relu: max(y, y_zero_point)"},
};

static const StrataOpDef kOps[] = {
    {.name = "dsp.flip_sign",
     .summary = "y = x xor 0x80: i8 to ui8 (x + 128) or ui8 to i8 (x - 128), the side dsp.matmul takes an operand on",
     .operands = "x", .results = "y", .flags = STRATA_OP_PURE, .infer = inferFlip, .interpret = interpFlip,
     .dynamism = STRATA_DYN_ISDOS, .types = "i8 ui8"},
    {.name = "dsp.im2col",
     .summary = "a 2-D convolution's ui8 input (N, C, H, W) as its GEMM's activations: row (n, oh, ow), column "
                "(c, kh, kw); padding is `pad` (the zero point; an i8 one + 128)",
     .operands = "x, pad", .results = "y", .flags = STRATA_OP_PURE, .infer = inferIm2col,
     .interpret = interpIm2col, .dynamism = STRATA_DYN_ISDOS, .types = "ui8 -> ui8", .attrs = kIm2colAttrs,
     .numAttrs = 4},
    {.name = "dsp.qrequant",
     .summary = "saturate(round_half_even((acc - zb' row_sum - za' col_sum + k za' zb' + bias) * m) + "
                "y_zero_point), m = a_scale * b_scale / y_scale in f32, the product in f64; za' = a_zero_point "
                "(+128 if i8), zb' = b_zero_point (-128 if ui8); per tensor, row (a, y) or column (b, bias)",
     .operands = "acc, row_sum, col_sum, a_scale, a_zero_point, b_scale, b_zero_point, y_scale, y_zero_point, bias?",
     .results = "y", .flags = STRATA_OP_PURE, .infer = inferQrequant, .interpret = interpQrequant,
     .dynamism = STRATA_DYN_ISDOS, .types = "i32, f32 scales -> i8 ui8", .attrs = kQrequantAttrs, .numAttrs = 2},
    {.name = "dsp.qsum",
     .summary = "acc - zb' row_sum - za' col_sum + k za' zb' in wrapping i32: sum (a - a_zero_point)(b - "
                "b_zero_point) of MatMulInteger/ConvInteger; za' = a_zero_point (+128 if i8), zb' = b_zero_point "
                "(-128 if ui8); per tensor, row (a) or column (b)",
     .operands = "acc, row_sum, col_sum, a_zero_point, b_zero_point", .results = "y", .flags = STRATA_OP_PURE,
     .infer = inferQsum, .interpret = interpQsum, .dynamism = STRATA_DYN_ISDOS, .types = "i32 -> i32",
     .attrs = kQrequantAttrs, .numAttrs = 1},
};

const StrataOpTable strataDspQuantOps = {kOps, sizeof kOps / sizeof kOps[0]};
