/* Elementwise nn ops -> one parallel linalg.generic each. Operand maps
 * implement broadcasting; the body computes one element. Integer division,
 * remainder and shifts are guarded so compiled code gives the interpreter's
 * defined results instead of trapping (x/0 = 0, INT_MIN/-1 wraps, shifts >=
 * width give 0). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "nn_elementwise.h"
#include "lower_internal.h"

typedef struct {
  NnEwAttrs attrs;
  bool isFloat, isUnsigned; /* of the data operands' element type */
  MlirType resultElement;   /* signless */
  StrataDType resultDType;  /* with its signedness */
} EwCtx;

typedef MlirValue (*EwBody)(StrataBuilder *b, MlirLocation loc, const MlirValue *x, const EwCtx *c);

static MlirType typeOf(MlirValue v) { return mlirValueGetType(v); }
static MlirValue k(StrataBuilder *b, MlirLocation loc, MlirValue like, double v) {
  return emitConst(b, loc, typeOf(like), v);
}
#define BIN(name, x, y) emitBinary(b, loc, name, x, y)
#define UN(name, x) emitUnary(b, loc, name, x)
#define FI(fop, iop) (c->isFloat ? fop : iop)

static MlirValue ltZero(StrataBuilder *b, MlirLocation loc, MlirValue x, const EwCtx *c) {
  return c->isFloat ? emitCmpF(b, loc, CMPF_OLT, x, k(b, loc, x, 0)) : emitCmpI(b, loc, CMPI_SLT, x, k(b, loc, x, 0));
}
static MlirValue clamp01(StrataBuilder *b, MlirLocation loc, MlirValue v) {
  return BIN("arith.maximumf", k(b, loc, v, 0), BIN("arith.minimumf", k(b, loc, v, 1), v));
}

#define BODY(n) static MlirValue n(StrataBuilder *b, MlirLocation loc, const MlirValue *x, const EwCtx *c)
BODY(bAbs) {
  if (c->isFloat) return UN("math.absf", x[0]);
  if (c->isUnsigned) return x[0];
  return emitSelect(b, loc, ltZero(b, loc, x[0], c), BIN("arith.subi", k(b, loc, x[0], 0), x[0]), x[0]);
}
BODY(bNeg) { return c->isFloat ? UN("arith.negf", x[0]) : BIN("arith.subi", k(b, loc, x[0], 0), x[0]); }
BODY(bExp) { (void)c; return UN("math.exp", x[0]); }
BODY(bLog) { (void)c; return UN("math.log", x[0]); }
BODY(bSqrt) { (void)c; return UN("math.sqrt", x[0]); }
BODY(bReciprocal) { (void)c; return BIN("arith.divf", k(b, loc, x[0], 1), x[0]); }
BODY(bRelu) { return BIN(FI("arith.maximumf", "arith.maxsi"), x[0], k(b, loc, x[0], 0)); }
BODY(bLeakyRelu) {
  return emitSelect(b, loc, ltZero(b, loc, x[0], c), BIN("arith.mulf", k(b, loc, x[0], c->attrs.alpha), x[0]), x[0]);
}
static MlirValue expm1Scaled(StrataBuilder *b, MlirLocation loc, MlirValue x, double alpha) {
  return BIN("arith.mulf", k(b, loc, x, alpha), BIN("arith.subf", UN("math.exp", x), k(b, loc, x, 1)));
}
BODY(bElu) { return emitSelect(b, loc, ltZero(b, loc, x[0], c), expm1Scaled(b, loc, x[0], c->attrs.alpha), x[0]); }
BODY(bSelu) {
  MlirValue le = emitCmpF(b, loc, CMPF_OLE, x[0], k(b, loc, x[0], 0));
  MlirValue v = emitSelect(b, loc, le, expm1Scaled(b, loc, x[0], c->attrs.alpha), x[0]);
  return BIN("arith.mulf", k(b, loc, x[0], c->attrs.gamma), v);
}
BODY(bSigmoid) {
  (void)c;
  MlirValue e = UN("math.exp", UN("arith.negf", x[0]));
  return BIN("arith.divf", k(b, loc, x[0], 1), BIN("arith.addf", k(b, loc, x[0], 1), e));
}
BODY(bHardSigmoid) {
  MlirValue v = BIN("arith.addf", BIN("arith.mulf", k(b, loc, x[0], c->attrs.alpha), x[0]), k(b, loc, x[0], c->attrs.beta));
  return clamp01(b, loc, v);
}
BODY(bHardSwish) {
  (void)c;
  MlirValue v = BIN("arith.addf", BIN("arith.divf", x[0], k(b, loc, x[0], 6)), k(b, loc, x[0], 0.5));
  return BIN("arith.mulf", x[0], clamp01(b, loc, v));
}
BODY(bTanh) { (void)c; return UN("math.tanh", x[0]); }
BODY(bGelu) {
  MlirValue half = BIN("arith.mulf", k(b, loc, x[0], 0.5), x[0]), inner;
  if (c->attrs.flag) {
    MlirValue cube = BIN("arith.mulf", x[0], BIN("arith.mulf", x[0], x[0]));
    MlirValue s = BIN("arith.addf", x[0], BIN("arith.mulf", k(b, loc, x[0], 0.044715), cube));
    inner = UN("math.tanh", BIN("arith.mulf", k(b, loc, x[0], sqrt(2 / 3.14159265358979323846)), s));
  } else {
    inner = UN("math.erf", BIN("arith.mulf", x[0], k(b, loc, x[0], 1 / sqrt(2.0))));
  }
  return BIN("arith.mulf", half, BIN("arith.addf", k(b, loc, x[0], 1), inner));
}
BODY(bErf) { (void)c; return UN("math.erf", x[0]); }
BODY(bSoftplus) {
  (void)c;
  MlirValue t = UN("math.log1p", UN("math.exp", UN("arith.negf", UN("math.absf", x[0]))));
  return BIN("arith.addf", BIN("arith.maxnumf", x[0], k(b, loc, x[0], 0)), t);
}
BODY(bSin) { (void)c; return UN("math.sin", x[0]); }
BODY(bCos) { (void)c; return UN("math.cos", x[0]); }
BODY(bTan) { (void)c; return UN("math.tan", x[0]); }
BODY(bAsin) { (void)c; return UN("math.asin", x[0]); }
BODY(bAcos) { (void)c; return UN("math.acos", x[0]); }
BODY(bAtan) { (void)c; return UN("math.atan", x[0]); }
BODY(bSinh) { (void)c; return UN("math.sinh", x[0]); }
BODY(bCosh) { (void)c; return UN("math.cosh", x[0]); }
BODY(bAsinh) { (void)c; return UN("math.asinh", x[0]); }
BODY(bAcosh) { (void)c; return UN("math.acosh", x[0]); }
BODY(bAtanh) { (void)c; return UN("math.atanh", x[0]); }
BODY(bIsInf) {
  MlirValue pos = emitCmpF(b, loc, CMPF_OEQ, x[0], k(b, loc, x[0], INFINITY));
  MlirValue neg = emitCmpF(b, loc, CMPF_OEQ, x[0], k(b, loc, x[0], -INFINITY));
  if ((c->attrs.flag & 3) == 3) return BIN("arith.ori", pos, neg);
  return c->attrs.flag & 1 ? pos : c->attrs.flag & 2 ? neg : emitCmpF(b, loc, 0 /* "false" */, x[0], x[0]);
}
BODY(bThresholdedRelu) {
  return emitSelect(b, loc, emitCmpF(b, loc, CMPF_OGT, x[0], k(b, loc, x[0], c->attrs.alpha)), x[0], k(b, loc, x[0], 0));
}
BODY(bShrink) {
  MlirValue lambd = k(b, loc, x[0], c->attrs.alpha), bias = k(b, loc, x[0], c->attrs.beta);
  MlirValue above = emitSelect(b, loc, emitCmpF(b, loc, CMPF_OGT, x[0], lambd), BIN("arith.subf", x[0], bias),
                               k(b, loc, x[0], 0));
  MlirValue below = emitCmpF(b, loc, CMPF_OLT, x[0], k(b, loc, x[0], -c->attrs.alpha));
  return emitSelect(b, loc, below, BIN("arith.addf", x[0], bias), above);
}
BODY(bCelu) {
  MlirValue e = UN("math.exp", BIN("arith.divf", x[0], k(b, loc, x[0], c->attrs.alpha)));
  MlirValue neg = BIN("arith.mulf", k(b, loc, x[0], c->attrs.alpha), BIN("arith.subf", e, k(b, loc, x[0], 1)));
  return emitSelect(b, loc, emitCmpF(b, loc, CMPF_OGT, x[0], k(b, loc, x[0], 0)), x[0], neg);
}
BODY(bFloor) { (void)c; return UN("math.floor", x[0]); }
BODY(bCeil) { (void)c; return UN("math.ceil", x[0]); }
BODY(bRound) { (void)c; return UN("math.roundeven", x[0]); }
BODY(bSign) {
  MlirValue zero = k(b, loc, x[0], 0), one = k(b, loc, x[0], 1);
  if (c->isUnsigned) return emitSelect(b, loc, emitCmpI(b, loc, CMPI_UGT, x[0], zero), one, zero);
  MlirValue gt = c->isFloat ? emitCmpF(b, loc, CMPF_OGT, x[0], zero) : emitCmpI(b, loc, CMPI_SGT, x[0], zero);
  /* Float: NaN and -0 pass through unchanged, as in the interpreter. */
  MlirValue neg = emitSelect(b, loc, ltZero(b, loc, x[0], c), k(b, loc, x[0], -1), c->isFloat ? x[0] : zero);
  return emitSelect(b, loc, gt, one, neg);
}
BODY(bNot) { (void)c; return BIN("arith.xori", x[0], k(b, loc, x[0], 1)); }
BODY(bIsNan) { (void)c; return emitCmpF(b, loc, CMPF_UNO, x[0], x[0]); }
BODY(bClip) {
  MlirValue lo = k(b, loc, x[0], c->attrs.lo), hi = k(b, loc, x[0], c->attrs.hi);
  if (c->isFloat) return BIN("arith.minimumf", BIN("arith.maximumf", x[0], lo), hi);
  const char *mx = c->isUnsigned ? "arith.maxui" : "arith.maxsi", *mn = c->isUnsigned ? "arith.minui" : "arith.minsi";
  return BIN(mn, BIN(mx, x[0], lo), hi);
}
MlirValue lowerF64ToF32Odd(StrataBuilder *b, MlirLocation loc, MlirValue x) {
  MlirType f32 = mlirF32TypeGet(b->ctx), f64 = mlirF64TypeGet(b->ctx), i32 = mlirIntegerTypeGet(b->ctx, 32);
  MlirValue f = emitConvert(b, loc, "arith.truncf", x, f32); /* to nearest, ties to even */
  MlirValue back = emitConvert(b, loc, "arith.extf", f, f64);
  MlirValue inexact = emitCmpF(b, loc, CMPF_ONE, back, x); /* false for NaN */
  MlirValue away = emitCmpF(b, loc, CMPF_OGT, emitUnary(b, loc, "math.absf", back), emitUnary(b, loc, "math.absf", x));
  MlirValue bits = emitConvert(b, loc, "arith.bitcast", f, i32);
  bits = emitBinary(b, loc, "arith.subi", bits, emitConvert(b, loc, "arith.extui", away, i32)); /* toward 0 */
  bits = emitBinary(b, loc, "arith.ori", bits, emitConvert(b, loc, "arith.extui", inexact, i32));
  return emitSelect(b, loc, inexact, emitConvert(b, loc, "arith.bitcast", bits, f32), f);
}

/* Cast: float -> int truncates toward zero and saturates (NaN -> 0), as the
 * interpreter does; anything -> i1 is "!= 0". */
BODY(bCast) {
  MlirType to = c->resultElement, from = typeOf(x[0]);
  bool toFloat = mlirTypeIsAFloat(to), fromFloat = mlirTypeIsAFloat(from);
  if (mlirTypeEqual(to, from)) return x[0];
  if (mlirTypeIsAInteger(to) && mlirIntegerTypeGetWidth(to) == 1)
    return fromFloat ? emitCmpF(b, loc, CMPF_UNE, x[0], k(b, loc, x[0], 0))
                     : emitCmpI(b, loc, CMPI_NE, x[0], k(b, loc, x[0], 0));
  unsigned fw = fromFloat ? mlirFloatTypeGetWidth(from) : mlirIntegerTypeGetWidth(from);
  unsigned tw = toFloat ? mlirFloatTypeGetWidth(to) : mlirIntegerTypeGetWidth(to);
  bool fromUnsigned = c->isUnsigned || (!fromFloat && fw == 1);
  /* As the host tensors convert: to f16 from f64 rounded to f32 "to odd"
   * first, which makes the rounding to f16 the correct rounding of the
   * value (numpy's); to bf16 from anything but f32 through f64 and then
   * f32, each rounded to nearest even (ONNX's reference Cast to bfloat16
   * takes f32); f16 <-> bf16, of the same width, through f32 (exact). */
  MlirType f32 = mlirF32TypeGet(b->ctx), f64 = mlirF64TypeGet(b->ctx);
  if (mlirTypeIsAF16(to) && fromFloat && fw == 64)
    return emitConvert(b, loc, "arith.truncf", lowerF64ToF32Odd(b, loc, x[0]), to);
  if (mlirTypeIsABF16(to) && !mlirTypeIsAF32(from)) {
    MlirValue w = fromFloat && fw < 64 ? emitConvert(b, loc, "arith.extf", x[0], f32)
                                       : bCast(b, loc, x, &(EwCtx){.resultElement = f64, .isUnsigned = c->isUnsigned});
    if (!mlirTypeIsAF32(mlirValueGetType(w))) w = emitConvert(b, loc, "arith.truncf", w, f32);
    return emitConvert(b, loc, "arith.truncf", w, to);
  }
  if (mlirTypeIsABF16(from) && toFloat && !mlirTypeIsAF32(to)) {
    MlirValue w = emitConvert(b, loc, "arith.extf", x[0], f32);
    return emitConvert(b, loc, tw > 32 ? "arith.extf" : "arith.truncf", w, to);
  }
  if (fromFloat && toFloat) return emitConvert(b, loc, tw > fw ? "arith.extf" : "arith.truncf", x[0], to);
  if (!fromFloat && !toFloat)
    return emitConvert(b, loc, tw > fw ? (fromUnsigned ? "arith.extui" : "arith.extsi") : "arith.trunci", x[0], to);
  if (!fromFloat) return emitConvert(b, loc, fromUnsigned ? "arith.uitofp" : "arith.sitofp", x[0], to);
  /* float -> int: widen f16 first so the bounds are representable, and f32
   * to f64 for 32-bit results (2^31 - 1 and 2^32 - 1 are not f32 values). */
  MlirValue v = x[0];
  if (fw < 32) v = emitConvert(b, loc, "arith.extf", v, mlirF32TypeGet(b->ctx));
  if (tw == 32 && fw < 64) v = emitConvert(b, loc, "arith.extf", v, mlirF64TypeGet(b->ctx));
  bool toUnsigned = c->attrs.flag != 0;
  double lo, hi;
  nnIntRange(c->resultDType, &lo, &hi);
  MlirValue clamped = BIN("arith.minimumf", BIN("arith.maximumf", v, k(b, loc, v, lo)), k(b, loc, v, hi));
  MlirValue isNan = emitCmpF(b, loc, CMPF_UNO, v, v);
  clamped = emitSelect(b, loc, isNan, k(b, loc, v, 0), clamped);
  return emitConvert(b, loc, toUnsigned ? "arith.fptoui" : "arith.fptosi", clamped, to);
}
BODY(bIdentity) { (void)b; (void)loc; (void)c; return x[0]; }
BODY(bAdd) { return BIN(FI("arith.addf", "arith.addi"), x[0], x[1]); }
BODY(bSub) { return BIN(FI("arith.subf", "arith.subi"), x[0], x[1]); }
BODY(bMul) { return BIN(FI("arith.mulf", "arith.muli"), x[0], x[1]); }
/* Integer divisor guard: d == 0 -> 0, and (signed) d == -1 -> 0 - x. */
static MlirValue guardedIntOp(StrataBuilder *b, MlirLocation loc, const char *sop, const char *uop,
                              const MlirValue *x, const EwCtx *c, bool minusOneNegates) {
  MlirValue zero = k(b, loc, x[1], 0), one = k(b, loc, x[1], 1);
  MlirValue isZero = emitCmpI(b, loc, CMPI_EQ, x[1], zero);
  MlirValue safe = emitSelect(b, loc, isZero, one, x[1]);
  if (c->isUnsigned) return emitSelect(b, loc, isZero, zero, BIN(uop, x[0], safe));
  MlirValue isMinus = emitCmpI(b, loc, CMPI_EQ, x[1], k(b, loc, x[1], -1));
  safe = emitSelect(b, loc, isMinus, one, safe);
  MlirValue r = BIN(sop, x[0], safe);
  r = emitSelect(b, loc, isMinus, minusOneNegates ? BIN("arith.subi", zero, x[0]) : zero, r);
  return emitSelect(b, loc, isZero, zero, r);
}
BODY(bDiv) {
  if (c->isFloat) return BIN("arith.divf", x[0], x[1]);
  return guardedIntOp(b, loc, "arith.divsi", "arith.divui", x, c, true);
}
/* Integers: square and multiply over every exponent bit (unrolled: a
 * linalg body stays free of loops), wrapping as the interpreter does; a
 * negative signed exponent gives trunc(1 / x^-y). */
BODY(bPow) {
  if (c->isFloat) return BIN("math.powf", x[0], x[1]);
  unsigned w = mlirIntegerTypeGetWidth(typeOf(x[0]));
  MlirType i1 = mlirIntegerTypeGet(b->ctx, 1);
  MlirValue r = k(b, loc, x[0], 1), base = x[0];
  for (unsigned i = 0; i < w; i++) {
    MlirValue bit = emitConvert(b, loc, "arith.trunci", i ? BIN("arith.shrui", x[1], k(b, loc, x[1], i)) : x[1], i1);
    r = emitSelect(b, loc, bit, BIN("arith.muli", r, base), r);
    if (i + 1 < w) base = BIN("arith.muli", base, base);
  }
  if (c->isUnsigned) return r;
  MlirValue zero = k(b, loc, x[0], 0), one = k(b, loc, x[0], 1), minusOne = k(b, loc, x[0], -1);
  MlirValue odd = emitConvert(b, loc, "arith.trunci", x[1], i1);
  MlirValue ofMinusOne = emitSelect(b, loc, odd, minusOne, one);
  MlirValue recip = emitSelect(b, loc, emitCmpI(b, loc, CMPI_EQ, x[0], one), one,
                               emitSelect(b, loc, emitCmpI(b, loc, CMPI_EQ, x[0], minusOne), ofMinusOne, zero));
  return emitSelect(b, loc, emitCmpI(b, loc, CMPI_SLT, x[1], zero), recip, r);
}
BODY(bMod) {
  if (c->isFloat) return BIN("arith.remf", x[0], x[1]);
  MlirValue r = guardedIntOp(b, loc, "arith.remsi", "arith.remui", x, c, false);
  if (c->isUnsigned || c->attrs.flag) return r;
  /* fmod = 0: the result takes the divisor's sign. */
  MlirValue zero = k(b, loc, r, 0);
  MlirValue fix = BIN("arith.andi", emitCmpI(b, loc, CMPI_NE, r, zero),
                      BIN("arith.xori", emitCmpI(b, loc, CMPI_SLT, r, zero), emitCmpI(b, loc, CMPI_SLT, x[1], zero)));
  return emitSelect(b, loc, fix, BIN("arith.addi", r, x[1]), r);
}
BODY(bAnd) { (void)c; return BIN("arith.andi", x[0], x[1]); }
BODY(bOr) { (void)c; return BIN("arith.ori", x[0], x[1]); }
BODY(bXor) { (void)c; return BIN("arith.xori", x[0], x[1]); }
static MlirValue compare(StrataBuilder *b, MlirLocation loc, const MlirValue *x, const EwCtx *c,
                         int f, int s, int u) {
  return c->isFloat ? emitCmpF(b, loc, f, x[0], x[1]) : emitCmpI(b, loc, c->isUnsigned ? u : s, x[0], x[1]);
}
BODY(bEqual) { return compare(b, loc, x, c, CMPF_OEQ, CMPI_EQ, CMPI_EQ); }
BODY(bLess) { return compare(b, loc, x, c, CMPF_OLT, CMPI_SLT, CMPI_ULT); }
BODY(bLessEqual) { return compare(b, loc, x, c, CMPF_OLE, CMPI_SLE, CMPI_ULE); }
BODY(bGreater) { return compare(b, loc, x, c, CMPF_OGT, CMPI_SGT, CMPI_UGT); }
BODY(bGreaterEqual) { return compare(b, loc, x, c, CMPF_OGE, CMPI_SGE, CMPI_UGE); }
BODY(bBitShift) {
  MlirValue width = k(b, loc, x[1], mlirIntegerTypeGetWidth(typeOf(x[0])));
  MlirValue shifted = BIN(c->attrs.flag ? "arith.shrui" : "arith.shli", x[0], x[1]);
  return emitSelect(b, loc, emitCmpI(b, loc, CMPI_UGE, x[1], width), k(b, loc, x[0], 0), shifted);
}
BODY(bPRelu) { return emitSelect(b, loc, ltZero(b, loc, x[0], c), BIN(FI("arith.mulf", "arith.muli"), x[1], x[0]), x[0]); }
BODY(bWhere) { (void)c; return emitSelect(b, loc, x[0], x[1], x[2]); }
BODY(bMax) { return BIN(c->isFloat ? "arith.maximumf" : c->isUnsigned ? "arith.maxui" : "arith.maxsi", x[0], x[1]); }
BODY(bMin) { return BIN(c->isFloat ? "arith.minimumf" : c->isUnsigned ? "arith.minui" : "arith.minsi", x[0], x[1]); }

typedef struct {
  const char *name;
  EwBody body;
} EwLowering;

static const EwLowering kBodies[] = {
    {"nn.abs", bAbs}, {"nn.neg", bNeg}, {"nn.exp", bExp}, {"nn.log", bLog}, {"nn.sqrt", bSqrt},
    {"nn.reciprocal", bReciprocal}, {"nn.relu", bRelu}, {"nn.leaky_relu", bLeakyRelu},
    {"nn.elu", bElu}, {"nn.selu", bSelu}, {"nn.sigmoid", bSigmoid},
    {"nn.hard_sigmoid", bHardSigmoid}, {"nn.hard_swish", bHardSwish}, {"nn.tanh", bTanh},
    {"nn.gelu", bGelu}, {"nn.erf", bErf}, {"nn.softplus", bSoftplus}, {"nn.sin", bSin},
    {"nn.cos", bCos}, {"nn.tan", bTan}, {"nn.asin", bAsin}, {"nn.acos", bAcos}, {"nn.atan", bAtan},
    {"nn.sinh", bSinh}, {"nn.cosh", bCosh}, {"nn.asinh", bAsinh}, {"nn.acosh", bAcosh}, {"nn.atanh", bAtanh},
    {"nn.is_inf", bIsInf}, {"nn.thresholded_relu", bThresholdedRelu}, {"nn.shrink", bShrink}, {"nn.celu", bCelu},
    {"nn.floor", bFloor}, {"nn.ceil", bCeil}, {"nn.round", bRound},
    {"nn.sign", bSign}, {"nn.not", bNot}, {"nn.is_nan", bIsNan}, {"nn.clip", bClip},
    {"nn.cast", bCast}, {"nn.identity", bIdentity}, {"nn.dropout", bIdentity}, {"nn.add", bAdd},
    {"nn.sub", bSub}, {"nn.mul", bMul}, {"nn.div", bDiv}, {"nn.pow", bPow}, {"nn.mod", bMod},
    {"nn.and", bAnd}, {"nn.or", bOr}, {"nn.xor", bXor}, {"nn.equal", bEqual}, {"nn.less", bLess},
    {"nn.less_or_equal", bLessEqual}, {"nn.greater", bGreater},
    {"nn.greater_or_equal", bGreaterEqual}, {"nn.bit_shift", bBitShift}, {"nn.prelu", bPRelu},
    {"nn.where", bWhere}, {"nn.max", bMax}, {"nn.min", bMin},
};

typedef struct {
  EwBody body;
  const EwCtx *ctx;
} BodyThunk;

static MlirValue callBody(StrataBuilder *b, MlirLocation loc, const MlirValue *args, void *user) {
  const BodyThunk *t = user;
  return t->body(b, loc, args, t->ctx);
}

static MlirLogicalResult lowerElementwise(StrataRewrite *rw, MlirOperation op, void *user) {
  EwBody body = ((const EwLowering *)user)->body;
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  const NnEwInfo *info = nnElementwiseInfo(mlirIdentifierStr(mlirOperationGetName(op)));
  MlirType t = lowerResultType(op, 0);
  int r = (int)mlirShapedTypeGetRank(t);
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirValue data = lowerOperand(op, info->form == NN_EW_SELECT ? 1 : 0);
  MlirType dataElement = lowerElementType(data);
  EwCtx c;
  if (!nnElementwiseAttrs(info, op, strataDTypeFromMlir(dataElement), &c.attrs))
    return mlirLogicalResultFailure();
  c.isFloat = lowerIsFloat(dataElement);
  c.isUnsigned = lowerIsUnsigned(dataElement);
  c.resultElement = lowerSignless(mlirShapedTypeGetElementType(t));
  c.resultDType = strataDTypeFromMlir(mlirShapedTypeGetElementType(t));
  /* Cast to an unsigned type: flag it for the float -> int bounds. */
  if (!strcmp(info->name, "nn.cast")) c.attrs.flag = lowerIsUnsigned(mlirShapedTypeGetElementType(t));
  char mapText[n + 1][256], its[STRATA_MAX_RANK + 1];
  const char *maps[n + 1];
  MlirValue ins[n];
  for (intptr_t i = 0; i < n; i++) {
    lowerBroadcastMap(mapText[i], sizeof mapText[i], lowerOperand(op, i), t);
    ins[i] = lowerOperand(op, i);
    maps[i] = mapText[i];
  }
  lowerIdentityMap(mapText[n], sizeof mapText[n], r);
  maps[n] = mapText[n];
  lowerParallelIterators(its, r);
  MlirValue init = lowerResultEmpty(b, op, 0); /* every element is written */
  if (!init.ptr) return mlirLogicalResultFailure();
  BodyThunk thunk = {body, &c};
  MlirValue y = linalgBuildGeneric(b, loc, (StrataValueList){ins, n}, init, maps, its, callBody, &thunk);
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

void nnToLinalgElementwise(LowerRegistry *r) {
  for (size_t i = 0; i < sizeof kBodies / sizeof kBodies[0]; i++)
    lowerRegister(r, kBodies[i].name, lowerElementwise, (void *)&kBodies[i]);
}
