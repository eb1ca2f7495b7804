/* Elementwise ops with numpy broadcasting: unary math and activations,
 * binary arithmetic/logic/comparison, Where, variadic Max/Min/Sum/Mean,
 * Cast. One NnEwInfo per op drives verification, interpretation and facts. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "nn_elementwise.h"

/* ---- Scalar semantics (x[] holds the operands of one element) ---- */
/* max/min that propagate NaN, as numpy (and MLIR's arith.maximumf) do. */
static double maxp(double a, double b) { return isnan(a) || isnan(b) ? NAN : fmax(a, b); }
static double minp(double a, double b) { return isnan(a) || isnan(b) ? NAN : fmin(a, b); }
#define F1(n, expr) static double n(const double *x, const NnEwAttrs *a) { (void)a; return (expr); }
#define I1(n, expr)                                                                   \
  static int64_t n(const int64_t *x, const NnEwAttrs *a, StrataDType t) {            \
    (void)a; (void)t; return (expr);                                                 \
  }
#define I2(n, cmp) I1(n, U(t) ? (uint64_t)x[0] cmp (uint64_t)x[1] : x[0] cmp x[1])
F1(fAbs, fabs(x[0]))
/* Integer kernels get ui64 elements as their bits (nnGetInt): what depends
 * on order or magnitude asks nnIsUnsignedDType(t) and works in uint64. */
#define U(t) nnIsUnsignedDType(t)
I1(iAbs, x[0] < 0 && !U(t) ? (int64_t)(0 - (uint64_t)x[0]) : x[0])
F1(fNeg, -x[0])
I1(iNeg, (int64_t)(0 - (uint64_t)x[0]))
F1(fExp, exp(x[0]))
F1(fLog, log(x[0]))
F1(fSqrt, sqrt(x[0]))
F1(fReciprocal, 1.0 / x[0])
F1(fRelu, x[0] > 0 || isnan(x[0]) ? x[0] : 0.0)
I1(iRelu, x[0] > 0 ? x[0] : 0)
F1(fLeakyRelu, x[0] < 0 ? a->alpha * x[0] : x[0])
F1(fElu, x[0] < 0 ? a->alpha * (exp(x[0]) - 1) : x[0])
F1(fSelu, a->gamma * (x[0] <= 0 ? a->alpha * (exp(x[0]) - 1) : x[0]))
F1(fSigmoid, 1.0 / (1.0 + exp(-x[0])))
F1(fHardSigmoid, maxp(0.0, minp(1.0, a->alpha * x[0] + a->beta)))
F1(fHardSwish, x[0] * maxp(0.0, minp(1.0, x[0] / 6.0 + 0.5)))
F1(fTanh, tanh(x[0]))
F1(fGelu, a->flag ? 0.5 * x[0] * (1 + tanh(sqrt(2 / 3.14159265358979323846) * (x[0] + 0.044715 * x[0] * x[0] * x[0])))
                  : 0.5 * x[0] * (1 + erf(x[0] / sqrt(2.0))))
F1(fErf, erf(x[0]))
F1(fSoftplus, fmax(x[0], 0.0) + log1p(exp(-fabs(x[0]))))
F1(fSin, sin(x[0]))
F1(fCos, cos(x[0]))
F1(fTan, tan(x[0]))
F1(fAsin, asin(x[0]))
F1(fAcos, acos(x[0]))
F1(fAtan, atan(x[0]))
F1(fSinh, sinh(x[0]))
F1(fCosh, cosh(x[0]))
F1(fAsinh, asinh(x[0]))
F1(fAcosh, acosh(x[0]))
F1(fAtanh, atanh(x[0]))
/* flag: bit 0 detects +inf, bit 1 -inf. */
F1(fIsInf, ((a->flag & 1) && x[0] == INFINITY) || ((a->flag & 2) && x[0] == -INFINITY) ? 1.0 : 0.0)
F1(fThresholdedRelu, x[0] > a->alpha ? x[0] : 0.0)
/* alpha = lambd, beta = bias. */
F1(fShrink, x[0] < -a->alpha ? x[0] + a->beta : x[0] > a->alpha ? x[0] - a->beta : 0.0)
F1(fCelu, x[0] > 0 ? x[0] : a->alpha * (exp(x[0] / a->alpha) - 1))
F1(fFloor, floor(x[0]))
F1(fCeil, ceil(x[0]))
F1(fRound, nearbyint(x[0])) /* half to even under the default rounding mode */
F1(fSign, x[0] > 0 ? 1.0 : x[0] < 0 ? -1.0 : x[0])
I1(iSign, U(t) ? x[0] != 0 : x[0] > 0 ? 1 : x[0] < 0 ? -1 : 0)
I1(iNot, !x[0])
F1(fIsNan, isnan(x[0]) ? 1.0 : 0.0)
F1(fClip, minp(maxp(x[0], a->lo), a->hi))
I1(iClip, strataDoubleToInt64Saturated(fmin(fmax((double)x[0], a->lo), a->hi)))
F1(fIdentity, x[0])
I1(iIdentity, x[0])
F1(fAdd, x[0] + x[1])
I1(iAdd, (int64_t)((uint64_t)x[0] + (uint64_t)x[1]))
F1(fSub, x[0] - x[1])
I1(iSub, (int64_t)((uint64_t)x[0] - (uint64_t)x[1]))
F1(fMul, x[0] * x[1])
I1(iMul, (int64_t)((uint64_t)x[0] * (uint64_t)x[1]))
F1(fDiv, x[0] / x[1])
/* Integer division truncates; by zero it gives 0 and INT_MIN / -1 wraps, so
 * that neither the interpreter nor compiled code traps (ONNX leaves both
 * undefined). */
I1(iDiv, x[1] == 0 ? 0 : U(t) ? (int64_t)((uint64_t)x[0] / (uint64_t)x[1])
              : x[1] == -1 ? (int64_t)(0 - (uint64_t)x[0]) : x[0] / x[1])
/* Integer powers wrap like repeated multiplication (square and multiply);
 * a negative exponent gives trunc(1 / x^-y): 1 for x = 1, +-1 for x = -1,
 * else 0 (also for x = 0, as x / 0 is 0 here). */
static int64_t iPow(const int64_t *x, const NnEwAttrs *a, StrataDType t) {
  (void)a;
  if (!U(t) && x[1] < 0) return x[0] == 1 ? 1 : x[0] == -1 ? ((x[1] & 1) ? -1 : 1) : 0;
  uint64_t r = 1, b = (uint64_t)x[0];
  for (uint64_t e = (uint64_t)x[1]; e; e >>= 1, b *= b)
    if (e & 1) r *= b;
  return (int64_t)r;
}
F1(fPow, pow(x[0], x[1]))
F1(fMax, maxp(x[0], x[1]))
I1(iMax, (U(t) ? (uint64_t)x[0] > (uint64_t)x[1] : x[0] > x[1]) ? x[0] : x[1])
F1(fMin, minp(x[0], x[1]))
I1(iMin, (U(t) ? (uint64_t)x[0] < (uint64_t)x[1] : x[0] < x[1]) ? x[0] : x[1])
F1(fMod, fmod(x[0], x[1])) /* floats require fmod=1: C fmod */
static int64_t iMod(const int64_t *x, const NnEwAttrs *a, StrataDType t) {
  if (x[1] == 0) return 0; /* like x / 0 */
  if (U(t)) return (int64_t)((uint64_t)x[0] % (uint64_t)x[1]);
  if (x[1] == -1) return 0;
  int64_t r = x[0] % x[1];
  if (!a->flag && r != 0 && ((r < 0) != (x[1] < 0))) r += x[1]; /* sign of the divisor */
  return r;
}
I1(iAnd, x[0] && x[1])
I1(iOr, x[0] || x[1])
I1(iXor, !x[0] != !x[1])
F1(fEqual, x[0] == x[1])
I1(iEqual, x[0] == x[1])
F1(fLess, x[0] < x[1])
I2(iLess, <)
F1(fLessEqual, x[0] <= x[1])
I2(iLessEqual, <=)
F1(fGreater, x[0] > x[1])
I2(iGreater, >)
F1(fGreaterEqual, x[0] >= x[1])
I2(iGreaterEqual, >=)
static int64_t iBitShift(const int64_t *x, const NnEwAttrs *a, StrataDType t) {
  uint64_t width = strataDTypeSize(t) * 8, v = (uint64_t)x[0], s = (uint64_t)x[1];
  if (s >= width) return 0;
  return (int64_t)(a->flag ? v >> s : v << s);
}
F1(fPRelu, x[0] < 0 ? x[1] * x[0] : x[0])
I1(iPRelu, x[0] < 0 ? (int64_t)((uint64_t)x[1] * (uint64_t)x[0]) : x[0])
F1(fWhere, x[0] != 0 ? x[1] : x[2])
I1(iWhere, x[0] ? x[1] : x[2])

/* ---- Attribute readers ---- */
static bool aAlpha(MlirOperation op, double dflt, NnEwAttrs *a) {
  return nnAttrFloat(op, "alpha", dflt, &a->alpha);
}
static bool aLeakyRelu(MlirOperation op, StrataDType t, NnEwAttrs *a) { (void)t; return aAlpha(op, 0.01, a); }
static bool aElu(MlirOperation op, StrataDType t, NnEwAttrs *a) { (void)t; return aAlpha(op, 1.0, a); }
static bool aSelu(MlirOperation op, StrataDType t, NnEwAttrs *a) {
  (void)t;
  return aAlpha(op, 1.67326319217681884765625, a) &&
         nnAttrFloat(op, "gamma", 1.05070102214813232421875, &a->gamma);
}
static bool aHardSigmoid(MlirOperation op, StrataDType t, NnEwAttrs *a) {
  (void)t;
  return aAlpha(op, 0.2, a) && nnAttrFloat(op, "beta", 0.5, &a->beta);
}
static bool aGelu(MlirOperation op, StrataDType t, NnEwAttrs *a) {
  (void)t;
  char mode[16];
  if (!nnAttrString(op, "approximate", "none", "none|tanh", mode, sizeof mode)) return false;
  a->flag = !strcmp(mode, "tanh");
  return true;
}
static bool aIsInf(MlirOperation op, StrataDType t, NnEwAttrs *a) {
  (void)t;
  int64_t pos, neg;
  if (!nnAttrInt(op, "detect_positive", 1, &pos) || !nnAttrInt(op, "detect_negative", 1, &neg)) return false;
  a->flag = (pos != 0) | (neg != 0) << 1;
  return true;
}
static bool aThresholdedRelu(MlirOperation op, StrataDType t, NnEwAttrs *a) { (void)t; return aAlpha(op, 1.0, a); }
static bool aShrink(MlirOperation op, StrataDType t, NnEwAttrs *a) {
  (void)t;
  return nnAttrFloat(op, "lambd", 0.5, &a->alpha) && nnAttrFloat(op, "bias", 0.0, &a->beta);
}
static bool aCelu(MlirOperation op, StrataDType t, NnEwAttrs *a) {
  (void)t;
  if (!aAlpha(op, 1.0, a)) return false;
  if (a->alpha == 0) {
    nnError(op, "attribute 'alpha' must not be 0 (Celu divides by it)");
    return false;
  }
  return true;
}
static bool aClip(MlirOperation op, StrataDType t, NnEwAttrs *a) {
  double lo = -INFINITY, hi = INFINITY;
  if (!nnIsFloatDType(t)) nnIntRange(t, &lo, &hi);
  return nnAttrFloat(op, "min", lo, &a->lo) && nnAttrFloat(op, "max", hi, &a->hi);
}
static bool aMod(MlirOperation op, StrataDType t, NnEwAttrs *a) {
  if (!nnAttrInt(op, "fmod", 0, &a->flag)) return false;
  if (nnIsFloatDType(t) && a->flag != 1) {
    nnError(op, "attribute 'fmod' must be 1 for floating-point operands");
    return false;
  }
  return true;
}
static bool aBitShift(MlirOperation op, StrataDType t, NnEwAttrs *a) {
  (void)t;
  char dir[8];
  if (mlirAttributeIsNull(mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("direction")))) {
    nnError(op, "attribute 'direction' (LEFT or RIGHT) is required");
    return false;
  }
  if (!nnAttrString(op, "direction", "", "LEFT|RIGHT", dir, sizeof dir)) return false;
  a->flag = !strcmp(dir, "RIGHT");
  return true;
}

/* ---- The table ---- */
#define EW(n, types, res, form, f, fi, attrs, flops) {"nn." n, types, res, form, f, fi, attrs, flops}
static const NnEwInfo kInfo[] = {
    EW("abs", NN_NUMERIC, NN_EW_SAME, NN_EW_PLAIN, fAbs, iAbs, NULL, 1),
    EW("neg", NN_SIGNED, NN_EW_SAME, NN_EW_PLAIN, fNeg, iNeg, NULL, 1),
    EW("exp", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fExp, NULL, NULL, 1),
    EW("log", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fLog, NULL, NULL, 1),
    EW("sqrt", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fSqrt, NULL, NULL, 1),
    EW("reciprocal", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fReciprocal, NULL, NULL, 1),
    EW("relu", NN_SIGNED, NN_EW_SAME, NN_EW_PLAIN, fRelu, iRelu, NULL, 1),
    EW("leaky_relu", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fLeakyRelu, NULL, aLeakyRelu, 2),
    EW("elu", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fElu, NULL, aElu, 3),
    EW("selu", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fSelu, NULL, aSelu, 4),
    EW("sigmoid", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fSigmoid, NULL, NULL, 4),
    EW("hard_sigmoid", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fHardSigmoid, NULL, aHardSigmoid, 4),
    EW("hard_swish", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fHardSwish, NULL, NULL, 5),
    EW("tanh", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fTanh, NULL, NULL, 1),
    EW("gelu", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fGelu, NULL, aGelu, 8),
    EW("erf", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fErf, NULL, NULL, 1),
    EW("softplus", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fSoftplus, NULL, NULL, 5),
    EW("sin", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fSin, NULL, NULL, 1),
    EW("cos", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fCos, NULL, NULL, 1),
    EW("tan", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fTan, NULL, NULL, 1),
    EW("asin", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fAsin, NULL, NULL, 1),
    EW("acos", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fAcos, NULL, NULL, 1),
    EW("atan", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fAtan, NULL, NULL, 1),
    EW("sinh", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fSinh, NULL, NULL, 1),
    EW("cosh", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fCosh, NULL, NULL, 1),
    EW("asinh", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fAsinh, NULL, NULL, 1),
    EW("acosh", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fAcosh, NULL, NULL, 1),
    EW("atanh", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fAtanh, NULL, NULL, 1),
    EW("is_inf", NN_FLOAT, NN_EW_BOOL, NN_EW_PLAIN, fIsInf, NULL, aIsInf, 1),
    EW("thresholded_relu", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fThresholdedRelu, NULL, aThresholdedRelu, 1),
    EW("shrink", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fShrink, NULL, aShrink, 2),
    EW("celu", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fCelu, NULL, aCelu, 4),
    EW("floor", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fFloor, NULL, NULL, 1),
    EW("ceil", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fCeil, NULL, NULL, 1),
    EW("round", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fRound, NULL, NULL, 1),
    EW("sign", NN_NUMERIC, NN_EW_SAME, NN_EW_PLAIN, fSign, iSign, NULL, 1),
    EW("not", NN_BOOL, NN_EW_SAME, NN_EW_PLAIN, NULL, iNot, NULL, 1),
    EW("is_nan", NN_FLOAT, NN_EW_BOOL, NN_EW_PLAIN, fIsNan, NULL, NULL, 1),
    EW("clip", NN_NUMERIC_NO_U64, NN_EW_SAME, NN_EW_PLAIN, fClip, iClip, aClip, 2),
    EW("cast", NN_ANY, NN_EW_DECLARED, NN_EW_PLAIN, fIdentity, iIdentity, NULL, 0),
    EW("identity", NN_ANY, NN_EW_SAME, NN_EW_PLAIN, fIdentity, iIdentity, NULL, 0),
    EW("dropout", NN_FLOAT, NN_EW_SAME, NN_EW_PLAIN, fIdentity, NULL, NULL, 0),
    EW("add", NN_NUMERIC, NN_EW_SAME, NN_EW_PLAIN, fAdd, iAdd, NULL, 1),
    EW("sub", NN_NUMERIC, NN_EW_SAME, NN_EW_PLAIN, fSub, iSub, NULL, 1),
    EW("mul", NN_NUMERIC, NN_EW_SAME, NN_EW_PLAIN, fMul, iMul, NULL, 1),
    EW("div", NN_NUMERIC, NN_EW_SAME, NN_EW_PLAIN, fDiv, iDiv, NULL, 1),
    EW("pow", NN_NUMERIC, NN_EW_SAME, NN_EW_PLAIN, fPow, iPow, NULL, 1),
    EW("mod", NN_NUMERIC, NN_EW_SAME, NN_EW_PLAIN, fMod, iMod, aMod, 1),
    EW("and", NN_BOOL, NN_EW_SAME, NN_EW_PLAIN, NULL, iAnd, NULL, 1),
    EW("or", NN_BOOL, NN_EW_SAME, NN_EW_PLAIN, NULL, iOr, NULL, 1),
    EW("xor", NN_BOOL, NN_EW_SAME, NN_EW_PLAIN, NULL, iXor, NULL, 1),
    EW("equal", NN_ANY, NN_EW_BOOL, NN_EW_PLAIN, fEqual, iEqual, NULL, 1),
    EW("less", NN_NUMERIC, NN_EW_BOOL, NN_EW_PLAIN, fLess, iLess, NULL, 1),
    EW("less_or_equal", NN_NUMERIC, NN_EW_BOOL, NN_EW_PLAIN, fLessEqual, iLessEqual, NULL, 1),
    EW("greater", NN_NUMERIC, NN_EW_BOOL, NN_EW_PLAIN, fGreater, iGreater, NULL, 1),
    EW("greater_or_equal", NN_NUMERIC, NN_EW_BOOL, NN_EW_PLAIN, fGreaterEqual, iGreaterEqual, NULL, 1),
    EW("bit_shift", NN_UINT, NN_EW_SAME, NN_EW_PLAIN, NULL, iBitShift, aBitShift, 1),
    EW("prelu", NN_SIGNED, NN_EW_SAME, NN_EW_UNIDIRECTIONAL, fPRelu, iPRelu, NULL, 2),
    EW("where", NN_ANY, NN_EW_SAME, NN_EW_SELECT, fWhere, iWhere, NULL, 1),
    EW("max", NN_NUMERIC, NN_EW_SAME, NN_EW_PLAIN, fMax, iMax, NULL, 1),
    EW("min", NN_NUMERIC, NN_EW_SAME, NN_EW_PLAIN, fMin, iMin, NULL, 1),
};

const NnEwInfo *nnElementwiseInfo(MlirStringRef name) {
  for (size_t i = 0; i < sizeof kInfo / sizeof kInfo[0]; i++)
    if (strlen(kInfo[i].name) == name.length && !strncmp(kInfo[i].name, name.data, name.length))
      return &kInfo[i];
  return NULL;
}

bool nnElementwiseAttrs(const NnEwInfo *info, MlirOperation op, StrataDType t, NnEwAttrs *a) {
  memset(a, 0, sizeof *a);
  return !info->attrs || info->attrs(op, t, a);
}

static void operandName(const StrataOpDef *def, intptr_t i, char *buf, size_t size) {
  const char *p = def->operands;
  for (intptr_t k = 0; k < i && p; k++) p = strchr(p, ',') ? strchr(p, ',') + 2 : NULL;
  size_t n = p ? strcspn(p, ",") : 0;
  snprintf(buf, size, "%.*s", (int)n, p ? p : "");
}

static MlirLogicalResult inferElementwise(const StrataOpDef *def, MlirOperation op,
                                          StrataShape *res) {
  const NnEwInfo *info = nnElementwiseInfo(mlirStringRefCreateFromCString(def->name));
  intptr_t n = mlirOperationGetNumOperands(op);
  if (n < 1) {
    nnError(op, "expects at least one operand");
    return mlirLogicalResultFailure();
  }
  StrataShape s[n];
  char names[n][32];
  for (intptr_t i = 0; i < n; i++) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, i));
    operandName(def, i, names[i], sizeof names[i]);
    if (!strataGetShape(t, &s[i].rank, s[i].dims)) {
      nnError(op, "operand '%s' must be a ranked tensor of rank <= %d", names[i], STRATA_MAX_RANK);
      return mlirLogicalResultFailure();
    }
    s[i].elementType = mlirShapedTypeGetElementType(t);
  }
  intptr_t first = info->form == NN_EW_SELECT ? 1 : 0;
  if (info->form == NN_EW_SELECT && !nnCheckType(op, names[0], &s[0], NN_BOOL))
    return mlirLogicalResultFailure();
  if (!nnCheckType(op, names[first], &s[first], info->types)) return mlirLogicalResultFailure();
  for (intptr_t i = first + 1; i < n; i++)
    if (!nnSameType(op, names[first], &s[first], names[i], &s[i])) return mlirLogicalResultFailure();
  StrataShape out = s[0];
  for (intptr_t i = 1; i < n; i++) {
    int rank, bad;
    int64_t dims[STRATA_MAX_RANK];
    bool ok = nn_infer_broadcast_shape(out.dims, out.rank, s[i].dims, s[i].rank, dims, &rank, &bad);
    if (ok && info->form == NN_EW_UNIDIRECTIONAL) {
      ok = rank == s[0].rank;
      for (int d = 0; ok && d < rank; d++) ok = dims[d] == s[0].dims[d] || s[0].dims[d] == -1;
    }
    if (!ok) {
      char da[300], db[300], why[96] = "";
      if (info->form != NN_EW_UNIDIRECTIONAL)
        snprintf(why, sizeof why, ": they differ at output dimension %d and neither is 1", bad);
      nnError(op, "%s %s %s%s", nnDescribe(names[i], &s[i], db, sizeof db),
              info->form == NN_EW_UNIDIRECTIONAL ? "does not broadcast to" : "does not broadcast with",
              nnDescribe(names[0], &s[0], da, sizeof da), why);
      return mlirLogicalResultFailure();
    }
    out.rank = rank;
    memcpy(out.dims, dims, sizeof dims);
  }
  out.elementType = s[first].elementType;
  if (info->result == NN_EW_BOOL) out.elementType = mlirIntegerTypeGet(mlirOperationGetContext(op), 1);
  if (info->result == NN_EW_DECLARED) {
    MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
    if (mlirTypeIsATensor(rt)) out.elementType = mlirShapedTypeGetElementType(rt); /* ranked or not */
    StrataShape probe = out;
    if (!nnCheckType(op, "result", &probe, NN_ANY)) return mlirLogicalResultFailure();
  }
  NnEwAttrs a;
  if (!nnElementwiseAttrs(info, op, nnDType(&s[first]), &a)) return mlirLogicalResultFailure();
  *res = out;
  return mlirLogicalResultSuccess();
}

void nnIntRange(StrataDType t, double *lo, double *hi) {
  /* The 64-bit bounds are the largest magnitudes f32 and f64 both hold below
   * 2^63 and 2^64, so compiled code can clamp in the source type. */
  switch (t) {
  case STRATA_DTYPE_I8: *lo = INT8_MIN, *hi = INT8_MAX; break;
  case STRATA_DTYPE_U8: *lo = 0, *hi = UINT8_MAX; break;
  case STRATA_DTYPE_I16: *lo = INT16_MIN, *hi = INT16_MAX; break;
  case STRATA_DTYPE_U16: *lo = 0, *hi = UINT16_MAX; break;
  case STRATA_DTYPE_I32: *lo = INT32_MIN, *hi = INT32_MAX; break;
  case STRATA_DTYPE_U32: *lo = 0, *hi = UINT32_MAX; break;
  case STRATA_DTYPE_U64: *lo = 0, *hi = 18446742974197923840.0; break; /* 2^64 - 2^40 */
  case STRATA_DTYPE_I1: *lo = 0, *hi = 1; break;
  default: *lo = -9223371487098961920.0, *hi = 9223371487098961920.0; break; /* 2^63 - 2^39 */
  }
}

/* Converts a value for Cast and stores it: float -> int truncates toward
 * zero and saturates (NaN -> 0), anything -> bool is "!= 0"; an integer v
 * of an unsigned type (fromUnsigned) is read as uint64. */
static void store(StrataTensor *y, int64_t i, bool fromFloat, bool fromUnsigned, double d, int64_t v) {
  if (y->dtype == STRATA_DTYPE_I1) {
    nnSetInt(y, i, fromFloat ? d != 0 : v != 0);
  } else if (y->dtype == STRATA_DTYPE_F32 && !fromFloat) { /* one rounding, as sitofp/uitofp (not via double) */
    ((float *)y->data)[i] = fromUnsigned ? (float)(uint64_t)v : (float)v;
  } else if (nnIsFloatDType(y->dtype)) {
    strataTensorSetDouble(y, i, fromFloat ? d : fromUnsigned ? (double)(uint64_t)v : (double)v);
  } else if (fromFloat) {
    double lo, hi;
    nnIntRange(y->dtype, &lo, &hi);
    d = isnan(d) ? 0 : trunc(fmin(fmax(d, lo), hi));
    nnSetInt(y, i, y->dtype == STRATA_DTYPE_U64 ? (int64_t)strataDoubleToUInt64Saturated(d) : (int64_t)d);
  } else {
    nnSetInt(y, i, v);
  }
}

static MlirLogicalResult interpElementwise(StrataInterp *in, MlirOperation op,
                                           StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  const NnEwInfo *info = nnElementwiseInfo(mlirIdentifierStr(mlirOperationGetName(op)));
  intptr_t n = mlirOperationGetNumOperands(op), first = info->form == NN_EW_SELECT ? 1 : 0;
  bool isFloat = nnIsFloatDType(x[first]->dtype);
  NnEwAttrs a;
  if (!nnElementwiseAttrs(info, op, x[first]->dtype, &a)) return mlirLogicalResultFailure();
  if ((isFloat && !info->f) || (!isFloat && !info->fi))
    return nnInterpError(op, "no reference semantics for element type %s",
                         strataDTypeName(x[first]->dtype));
  int64_t idx[STRATA_MAX_RANK] = {0}, count = strataTensorNumElements(y[0]);
  for (int64_t e = 0; e < count; e++, nnNextIndex(idx, y[0]->dims, y[0]->rank)) {
    double d[n > 3 ? n : 3];
    int64_t v[n > 3 ? n : 3];
    for (intptr_t k = 0; k < n; k++) {
      int64_t flat = nnBroadcastIndex(x[k], idx, y[0]->rank);
      d[k] = strataTensorGetDouble(x[k], flat);
      v[k] = nnGetInt(x[k], flat);
    }
    if (isFloat) {
      double r = info->f(d, &a);
      store(y[0], e, info->result != NN_EW_BOOL, false, r, info->result == NN_EW_BOOL && r != 0);
    } else {
      store(y[0], e, false, nnIsUnsignedDType(x[first]->dtype), 0, info->fi(v, &a, x[first]->dtype));
    }
  }
  return mlirLogicalResultSuccess();
}

static double flopsElementwise(MlirOperation op) {
  const NnEwInfo *info = nnElementwiseInfo(mlirIdentifierStr(mlirOperationGetName(op)));
  int64_t n = nnNumElements(mlirValueGetType(mlirOperationGetResult(op, 0)));
  return n < 0 ? 0 : (double)n * info->flopsPerElement;
}

#define OP(n, ins, sum, ty)                                                                   \
  {.name = "nn." n, .summary = sum, .operands = ins, .results = "output", .flags = STRATA_OP_PURE, \
   .infer = inferElementwise, .interpret = interpElementwise, .mapping = nnMapElementwise,         \
   .dynamism = STRATA_DYN_ISDOS, .flops = flopsElementwise, .types = ty}
#define FT "f16 bf16 f32 f64"
#define NUM "f16 bf16 f32 f64 i8 i16 i32 i64 ui8 ui16 ui32 ui64"
static const StrataOpDef kOps[] = {
    OP("abs", "x", "|x|", NUM),
    OP("neg", "x", "-x", "f16 bf16 f32 f64 i8 i16 i32 i64"),
    OP("exp", "x", "e^x", FT),
    OP("log", "x", "natural logarithm", FT),
    OP("sqrt", "x", "square root", FT),
    OP("reciprocal", "x", "1/x", FT),
    OP("relu", "x", "max(x, 0)", "f16 bf16 f32 f64 i8 i16 i32 i64"),
    OP("leaky_relu", "x", "x < 0 ? alpha*x : x (alpha = 0.01)", FT),
    OP("elu", "x", "x < 0 ? alpha*(e^x - 1) : x (alpha = 1)", FT),
    OP("selu", "x", "gamma * (x <= 0 ? alpha*(e^x - 1) : x) (ONNX alpha, gamma)", FT),
    OP("sigmoid", "x", "1 / (1 + e^-x)", FT),
    OP("hard_sigmoid", "x", "max(0, min(1, alpha*x + beta)) (alpha = 0.2, beta = 0.5)", FT),
    OP("hard_swish", "x", "x * max(0, min(1, x/6 + 1/2))", FT),
    OP("tanh", "x", "hyperbolic tangent", FT),
    OP("gelu", "x", "x * Phi(x); approximate = \"none\" (erf) or \"tanh\"", FT),
    OP("erf", "x", "error function", FT),
    OP("softplus", "x", "log(1 + e^x), computed stably", FT),
    OP("sin", "x", "sine", FT),
    OP("cos", "x", "cosine", FT),
    OP("tan", "x", "tangent", FT),
    OP("asin", "x", "arcsine (NaN outside [-1, 1])", FT),
    OP("acos", "x", "arccosine (NaN outside [-1, 1])", FT),
    OP("atan", "x", "arctangent", FT),
    OP("sinh", "x", "hyperbolic sine", FT),
    OP("cosh", "x", "hyperbolic cosine", FT),
    OP("asinh", "x", "inverse hyperbolic sine", FT),
    OP("acosh", "x", "inverse hyperbolic cosine (NaN below 1)", FT),
    OP("atanh", "x", "inverse hyperbolic tangent (NaN outside [-1, 1], +-inf at +-1)", FT),
    OP("is_inf", "x", "x is +inf (detect_positive, default 1) or -inf (detect_negative, default 1), as i1", FT),
    OP("thresholded_relu", "x", "x > alpha ? x : 0 (alpha = 1)", FT),
    OP("shrink", "x", "x < -lambd ? x + bias : x > lambd ? x - bias : 0 (lambd = 0.5, bias = 0)", FT),
    OP("celu", "x", "x > 0 ? x : alpha*(e^(x/alpha) - 1) (alpha = 1, not 0)", FT),
    OP("floor", "x", "round down", FT),
    OP("ceil", "x", "round up", FT),
    OP("round", "x", "round half to even", FT),
    OP("sign", "x", "-1, 0 or 1 (NaN stays NaN)", NUM),
    OP("not", "x", "logical not", "i1"),
    OP("is_nan", "x", "x != x, as i1", FT),
    OP("clip", "x", "min(max(x, min), max); bounds as attributes `min`, `max`", "f16 bf16 f32 f64 i8 i16 i32 i64 ui8 ui16 ui32"),
    OP("cast", "x", "convert to the result's element type (float->int truncates, saturates)", "f16 bf16 f32 f64 i1 i8 i16 i32 i64 ui8 ui16 ui32 ui64"),
    OP("identity", "x", "y = x", "f16 bf16 f32 f64 i1 i8 i16 i32 i64 ui8 ui16 ui32 ui64"),
    OP("dropout", "x", "inference dropout: y = x", FT),
    OP("add", "a, b", "a + b", NUM),
    OP("sub", "a, b", "a - b", NUM),
    OP("mul", "a, b", "a * b", NUM),
    OP("div", "a, b", "a / b; integers truncate, and x/0 = 0 (unsigned types divide unsigned)", NUM),
    OP("pow", "x, y", "x^y; integers wrap, and x^-n = trunc(1 / x^n)", NUM),
    OP("mod", "a, b", "remainder; fmod = 0: sign of divisor (ints), fmod = 1: C fmod; x mod 0 = 0", NUM),
    OP("and", "a, b", "logical and", "i1"),
    OP("or", "a, b", "logical or", "i1"),
    OP("xor", "a, b", "logical xor", "i1"),
    OP("equal", "a, b", "a == b, as i1", "f16 bf16 f32 f64 i1 i8 i16 i32 i64 ui8 ui16 ui32 ui64"),
    OP("less", "a, b", "a < b, as i1", NUM),
    OP("less_or_equal", "a, b", "a <= b, as i1", NUM),
    OP("greater", "a, b", "a > b, as i1", NUM),
    OP("greater_or_equal", "a, b", "a >= b, as i1", NUM),
    OP("bit_shift", "x, y", "x << y or x >> y (direction LEFT|RIGHT); shifts >= width give 0", "ui8 ui16 ui32 ui64"),
    OP("prelu", "x, slope", "x < 0 ? slope*x : x; slope broadcasts to x", "f16 bf16 f32 f64 i8 i16 i32 i64"),
    OP("where", "condition, x, y", "condition ? x : y", "f16 bf16 f32 f64 i1 i8 i16 i32 i64 ui8 ui16 ui32 ui64"),
    /* ONNX Max/Min/Sum/Mean take any number of inputs of different shapes;
     * IRDL variadic groups bind one type, so nn has binary max/min and
     * importers chain them (Sum/Mean become add chains). */
    OP("max", "a, b", "elementwise maximum (NaN propagates)", NUM),
    OP("min", "a, b", "elementwise minimum (NaN propagates)", NUM),
};

const StrataOpTable nnElementwiseTable = {kOps, sizeof kOps / sizeof kOps[0]};
