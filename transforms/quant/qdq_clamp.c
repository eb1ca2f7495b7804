/* nn-qdq-to-qlinear's activations in the quantized domain.
 *
 * Why a clamp of the quantized value is exact. QuantizeLinear with a
 * positive scale, Q(v) = saturate(round_half_even(v / s) + z), is monotone
 * (non-decreasing) in v: the division is correctly rounded, rounding,
 * adding z and saturating are all monotone. A monotone function commutes
 * with min and max: Q(max(v, a)) = max(Q(v), Q(a)) and Q(min(v, b)) =
 * min(Q(v), Q(b)) (compare v with a: whichever is larger, its image is the
 * larger image). So Q(Clip(v, lo, hi)) = min(max(Q(v), Q(lo)), Q(hi)) for
 * every v and any lo, hi (also lo > hi: both sides are then Q(hi)), with
 * lo, hi the f32 values the Clip compares with (the attribute rounded to
 * f32; max(v, L) of an f32 v rounds to max(v, f32(L)), rounding being
 * monotone too). Q(lo) and Q(hi) are computed here in the interpreter's
 * arithmetic (v / s in f64) and in the compiled code's (in f32); they
 * agree except where v / s is a tie in one and not the other, and the
 * rewrite is refused there. Q(-inf) is the type's minimum and Q(+inf) its
 * maximum, so a Clip without a bound, or a bound beyond the range, clamps
 * to nothing on that side. A Relu is Clip(v, 0, inf).
 *
 * The second form, Q2(Clip(DQ1(x))) on an 8-bit x, is a function of x's
 * 256 values: it is evaluated at each (DQ's product is exact in f64 and
 * rounded once to f32, in the interpreter and the compiled code alike),
 * and replaced by min(max(x, a), b) only if it equals that at every value
 * in both arithmetics. That holds when Q2 has DQ1's scale and zero point
 * (the identity between the bounds), not when the scales differ (then the
 * float chain requantizes, and it stays in float). */
#include "qdq_clamp.h"
#include <float.h>
#include <math.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/support.h"
#include "nn_quant.h"

static MlirOperation producerOf(MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
}

static StrataDType elementDType(MlirValue v) {
  return strataDTypeFromMlir(mlirShapedTypeGetElementType(mlirValueGetType(v)));
}

/* The f32 value of the attribute bound d, or false if it has none. */
static bool f32Bound(double d, float *f) {
  if (isnan(d) || (isfinite(d) && fabs(d) > FLT_MAX)) return false;
  *f = (float)d;
  return true;
}

bool strataQdqActivationBounds(MlirOperation act, float *lo, float *hi) {
  if (mlirOperationIsNull(act) || mlirOperationGetNumOperands(act) != 1 ||
      elementDType(mlirOperationGetResult(act, 0)) != STRATA_DTYPE_F32)
    return false;
  if (strataOpIsNamed(act, "nn.relu")) {
    *lo = 0, *hi = INFINITY;
    return true;
  }
  double a, b;
  return strataOpIsNamed(act, "nn.clip") && nnAttrFloat(act, "min", -INFINITY, &a) &&
         nnAttrFloat(act, "max", INFINITY, &b) && f32Bound(a, lo) && f32Bound(b, hi);
}

bool strataQdqQuantizeValue(float v, float s, int32_t z, bool u8, int32_t *q) {
  if (!(s > 0) || !isfinite(s)) return false;
  double lo = u8 ? 0 : -128, hi = u8 ? 255 : 127;
  /* nn.quantize_linear's interpreter kernel (dialects/nn/ops_quant.c) */
  double r = nearbyint((double)v / (double)s) + (double)z;
  r = isnan(r) ? 0 : fmin(fmax(r, lo), hi);
  /* its lowering (conversions/nn-to-linalg/lower_quant.c): all in f32 */
  volatile float quotient = v / s; /* rounded to f32 here, not kept wider */
  float c = nearbyintf(quotient) + (float)z;
  c = isnan(c) ? 0 : fminf(fmaxf(c, (float)lo), (float)hi);
  if (r != (double)c) return false;
  *q = (int32_t)r;
  return true;
}

/* The one value of the constant v (a scalar or [1]) into *d. */
static bool constScalar(MlirValue v, double *d) {
  MlirOperation c = producerOf(v);
  MlirType t = mlirValueGetType(v);
  if (mlirOperationIsNull(c) || !strataOpIsNamed(c, "nn.constant") || !mlirTypeIsARankedTensor(t) ||
      !mlirShapedTypeHasStaticShape(t) || nnNumElements(t) != 1)
    return false;
  StrataTensor *x = strataTensorFromAttr(strataOpAttr(c, "value"));
  if (!x) return false;
  *d = strataTensorGetDouble(x, 0);
  strataTensorDestroy(x);
  return true;
}

bool strataQdqPerTensor(MlirOperation op, const char *name, float *s, int32_t *z, bool *u8) {
  if (mlirOperationIsNull(op) || !strataOpIsNamed(op, name) || mlirOperationGetNumOperands(op) != 3) return false;
  bool dq = !strcmp(name, "nn.dequantize_linear");
  MlirValue q = dq ? mlirOperationGetOperand(op, 0) : mlirOperationGetResult(op, 0);
  MlirValue f = dq ? mlirOperationGetResult(op, 0) : mlirOperationGetOperand(op, 0);
  StrataDType t = elementDType(q);
  double sd, zd;
  if ((t != STRATA_DTYPE_U8 && t != STRATA_DTYPE_I8) || elementDType(f) != STRATA_DTYPE_F32 ||
      elementDType(mlirOperationGetOperand(op, 1)) != STRATA_DTYPE_F32 ||
      !constScalar(mlirOperationGetOperand(op, 1), &sd) || !constScalar(mlirOperationGetOperand(op, 2), &zd))
    return false;
  *s = (float)sd, *z = (int32_t)zd, *u8 = t == STRATA_DTYPE_U8;
  return true;
}

bool strataQdqClampBounds(MlirOperation q, float lo, float hi, int32_t *qlo, int32_t *qhi) {
  float s;
  int32_t z;
  bool u8;
  return strataQdqPerTensor(q, "nn.quantize_linear", &s, &z, &u8) && strataQdqQuantizeValue(lo, s, z, u8, qlo) &&
         strataQdqQuantizeValue(hi, s, z, u8, qhi);
}

MlirValue strataQdqBuildClamp(StrataBuilder *b, MlirLocation loc, MlirValue x, int32_t lo, int32_t hi) {
  bool u8 = elementDType(x) == STRATA_DTYPE_U8;
  if (lo <= (u8 ? 0 : -128) && hi >= (u8 ? 255 : 127)) return x; /* the whole range: nothing to clamp */
  MlirType f64 = mlirF64TypeGet(b->ctx);
  MlirOperation c = strataCreateOp(b, "nn.clip", loc, .operands = STRATA_VALUES(x),
                                   .results = STRATA_TYPES(mlirValueGetType(x)),
                                   .attrs = STRATA_ATTRS({"min", mlirFloatAttrDoubleGet(b->ctx, f64, lo)},
                                                         {"max", mlirFloatAttrDoubleGet(b->ctx, f64, hi)}));
  return strataResult(c, 0);
}

MlirLogicalResult strataQdqClampRewrite(StrataRewrite *rw, MlirOperation q, void *user) {
  (void)user;
  MlirOperation act = producerOf(mlirOperationGetOperand(q, 0));
  float lo, hi, s1, s2;
  int32_t z1, z2;
  bool u1, u2;
  if (!strataQdqActivationBounds(act, &lo, &hi)) return mlirLogicalResultFailure();
  MlirOperation dq = producerOf(mlirOperationGetOperand(act, 0));
  if (!strataQdqPerTensor(q, "nn.quantize_linear", &s2, &z2, &u2) ||
      !strataQdqPerTensor(dq, "nn.dequantize_linear", &s1, &z1, &u1) || u1 != u2 ||
      !mlirTypeEqual(mlirValueGetType(mlirOperationGetOperand(dq, 0)), mlirValueGetType(mlirOperationGetResult(q, 0))))
    return mlirLogicalResultFailure();
  int32_t t[256], qmin = u1 ? 0 : -128, qmax = u1 ? 255 : 127;
  for (int32_t x = qmin; x <= qmax; x++) {
    float v = (float)(((double)x - (double)z1) * (double)s1); /* DequantizeLinear, exact then rounded once */
    v = v < lo ? lo : v; /* Clip: max, then min (v is never NaN) */
    v = v > hi ? hi : v;
    if (!strataQdqQuantizeValue(v, s2, z2, u2, &t[x - qmin])) return mlirLogicalResultFailure();
  }
  int32_t a = t[0], b = t[qmax - qmin];
  for (int32_t x = qmin; x <= qmax; x++) {
    int32_t e = x < a ? a : x;
    if (t[x - qmin] != (e > b ? b : e)) return mlirLogicalResultFailure();
  }
  MlirValue out = strataQdqBuildClamp(&rw->builder, mlirOperationGetLocation(q), mlirOperationGetOperand(dq, 0), a, b);
  strataReplaceOp(rw, q, STRATA_VALUES(out));
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(act, 0)))) strataEraseOp(rw, act);
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(dq, 0)))) strataEraseOp(rw, dq);
  return mlirLogicalResultSuccess();
}
