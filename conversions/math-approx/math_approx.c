/* --strata-math-approx: f32 math.exp, math.tanh and math.erf become
 * polynomial approximations in arith ops, so the loops around them (linalg
 * bodies after nn-to-linalg) vectorize: a libm call per element cannot be
 * vectorized by LLVM, and a sigmoid, SiLU, GELU or tanh layer over a feature
 * map then costs a call per element. Accuracy (against double-precision
 * libm, over the whole float range): exp within 2 ulp, tanh within 4e-7
 * absolute (relative near 0), erf within 2e-7 absolute; NaN propagates;
 * exp overflows to +inf past log(FLT_MAX) and flushes to 0 below
 * log(FLT_MIN) (where libm returns denormals, below 1.2e-38); infinities
 * give exp's, tanh's and erf's limits. Vector ops and other float
 * types are left as they are (libm).
 *
 *   exp:  n = round(x / ln 2), r = x - n ln 2 (in two parts, Cody-Waite),
 *         e^r by Cephes' degree-6 polynomial, times 2^(n/2) 2^(n - n/2)
 *         built in the exponent bits (two factors keep n = 128 finite).
 *   tanh: |x| < 0.625: x + x^3 P(x^2) (Cephes tanhf); else
 *         sign(x) (1 - 2 / (e^{2|x|} + 1)).
 *   erf:  |x| < 1: x P(x^2) (Cephes erff); else
 *         sign(x) (1 - (a1 t + ... + a5 t^5) e^{-x^2}), t = 1 / (1 + p|x|)
 *         (Abramowitz-Stegun 7.1.26). */
#include <math.h>
#include <stdint.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Math.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "lower_helpers.h"

enum { CMP_OGT = 2, CMP_OLT = 4, CMP_UNO = 14 };

typedef struct {
  StrataBuilder *b;
  MlirLocation loc;
  MlirType f32, i32;
} Emit;

static MlirValue cf(Emit *e, double v) { return emitConst(e->b, e->loc, e->f32, v); }
static MlirValue ci(Emit *e, int64_t v) { return strataConstInt(e->b, e->loc, e->i32, v); }
static MlirValue bin(Emit *e, const char *op, MlirValue x, MlirValue y) { return emitBinary(e->b, e->loc, op, x, y); }
static MlirValue add(Emit *e, MlirValue x, MlirValue y) { return bin(e, "arith.addf", x, y); }
static MlirValue sub(Emit *e, MlirValue x, MlirValue y) { return bin(e, "arith.subf", x, y); }
static MlirValue mul(Emit *e, MlirValue x, MlirValue y) { return bin(e, "arith.mulf", x, y); }
static MlirValue fma_(Emit *e, MlirValue x, MlirValue y, MlirValue z) { return add(e, mul(e, x, y), z); }
static MlirValue sel(Emit *e, MlirValue c, MlirValue x, MlirValue y) { return emitSelect(e->b, e->loc, c, x, y); }
static MlirValue cmp(Emit *e, int pred, MlirValue x, MlirValue y) { return emitCmpF(e->b, e->loc, pred, x, y); }
static MlirValue fabs_(Emit *e, MlirValue x) { return emitUnary(e->b, e->loc, "math.absf", x); }
/* |mag| with the sign bit of `sign` (mag >= 0 here), in integer ops. */
static MlirValue copysign_(Emit *e, MlirValue mag, MlirValue sign) {
  MlirValue s = bin(e, "arith.andi", emitConvert(e->b, e->loc, "arith.bitcast", sign, e->i32), ci(e, INT32_MIN));
  MlirValue m = emitConvert(e->b, e->loc, "arith.bitcast", mag, e->i32);
  return emitConvert(e->b, e->loc, "arith.bitcast", bin(e, "arith.ori", m, s), e->f32);
}

/* Horner: c[0] x^(n-1) + ... + c[n-1]. */
static MlirValue poly(Emit *e, MlirValue x, const double *c, int n) {
  MlirValue y = cf(e, c[0]);
  for (int i = 1; i < n; i++) y = fma_(e, y, x, cf(e, c[i]));
  return y;
}

/* 2^k for an i32 k in [-126, 127]: the exponent bits. */
static MlirValue pow2(Emit *e, MlirValue k) {
  MlirValue bits = bin(e, "arith.shli", bin(e, "arith.addi", k, ci(e, 127)), ci(e, 23));
  return emitConvert(e->b, e->loc, "arith.bitcast", bits, e->f32);
}

static MlirValue expApprox(Emit *e, MlirValue x) {
  /* Clamp into the finite range; NaN passes (maximumf/minimumf propagate). */
  MlirValue xc = bin(e, "arith.minimumf", bin(e, "arith.maximumf", x, cf(e, -87.33654475f)), cf(e, 88.72283935546875));
  /* n = floor(x / ln 2 + 0.5) through an integer conversion */
  MlirValue fx = fma_(e, xc, cf(e, 1.44269504088896341), cf(e, 0.5));
  MlirValue ni = emitConvert(e->b, e->loc, "arith.fptosi", fx, e->i32);
  MlirValue t = emitConvert(e->b, e->loc, "arith.sitofp", ni, e->f32);
  MlirValue up = cmp(e, CMP_OGT, t, fx); /* truncation rounded a negative up */
  t = sel(e, up, sub(e, t, cf(e, 1.0)), t);
  ni = emitConvert(e->b, e->loc, "arith.fptosi", t, e->i32);
  MlirValue r = sub(e, sub(e, xc, mul(e, t, cf(e, 0.693359375))), mul(e, t, cf(e, -2.12194440e-4)));
  static const double P[] = {1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3,
                             4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1};
  MlirValue y = add(e, add(e, mul(e, poly(e, r, P, 6), mul(e, r, r)), r), cf(e, 1.0));
  MlirValue n1 = bin(e, "arith.shrsi", ni, ci(e, 1)), n2 = bin(e, "arith.subi", ni, n1);
  y = mul(e, mul(e, y, pow2(e, n1)), pow2(e, n2));
  /* past log(FLT_MAX): +inf; NaN: itself (the integer path lost it) */
  y = sel(e, cmp(e, CMP_OGT, x, cf(e, 88.72283935546875)), cf(e, INFINITY), y);
  y = sel(e, cmp(e, CMP_OLT, x, cf(e, -87.33654475f)), cf(e, 0.0), y); /* libm: denormals, then 0 */
  return sel(e, cmp(e, CMP_UNO, x, x), x, y);
}

static MlirValue tanhApprox(Emit *e, MlirValue x) {
  MlirValue a = fabs_(e, x), z = mul(e, x, x);
  static const double P[] = {-5.70498872745e-3, 2.06390887954e-2, -5.37397155531e-2,
                             1.33314422036e-1, -3.33332819422e-1};
  MlirValue small = fma_(e, mul(e, x, z), poly(e, z, P, 5), x);
  MlirValue ex = expApprox(e, add(e, a, a));
  MlirValue big = sub(e, cf(e, 1.0), bin(e, "arith.divf", cf(e, 2.0), add(e, ex, cf(e, 1.0))));
  MlirValue y = sel(e, cmp(e, CMP_OLT, a, cf(e, 0.625)), small, copysign_(e, big, x));
  return sel(e, cmp(e, CMP_UNO, x, x), x, y);
}

static MlirValue erfApprox(Emit *e, MlirValue x) {
  MlirValue a = fabs_(e, x), z = mul(e, x, x);
  static const double T[] = {7.853861353153693e-5, -8.010193625184903e-4, 5.188327685732524e-3,
                             -2.685381193529856e-2, 1.128358514861418e-1, -3.761262582423300e-1,
                             1.128379165726710e+0};
  MlirValue small = mul(e, x, poly(e, z, T, 7));
  MlirValue t = bin(e, "arith.divf", cf(e, 1.0), fma_(e, a, cf(e, 0.3275911), cf(e, 1.0)));
  static const double A[] = {1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592, 0.0};
  MlirValue tail = mul(e, poly(e, t, A, 6), expApprox(e, sub(e, cf(e, 0.0), z)));
  MlirValue big = copysign_(e, sub(e, cf(e, 1.0), tail), x);
  MlirValue y = sel(e, cmp(e, CMP_OLT, a, cf(e, 1.0)), small, big);
  return sel(e, cmp(e, CMP_UNO, x, x), x, y);
}

typedef struct {
  MlirValue (*fn)(Emit *, MlirValue);
} Approx;

static const Approx kExp = {expApprox}, kTanh = {tanhApprox}, kErf = {erfApprox};

static MlirLogicalResult approximate(StrataRewrite *rw, MlirOperation op, void *user) {
  MlirValue (*fn)(Emit *, MlirValue) = ((const Approx *)user)->fn;
  if (mlirOperationGetNumOperands(op) != 1 || mlirOperationGetNumResults(op) != 1) return mlirLogicalResultFailure();
  MlirValue x = mlirOperationGetOperand(op, 0);
  if (!mlirTypeIsAF32(mlirValueGetType(x))) return mlirLogicalResultFailure();
  MlirContext ctx = mlirOperationGetContext(op);
  Emit e = {&rw->builder, mlirOperationGetLocation(op), mlirF32TypeGet(ctx), mlirIntegerTypeGet(ctx, 32)};
  strataReplaceOp(rw, op, STRATA_VALUES(fn(&e, x)));
  return mlirLogicalResultSuccess();
}

static void runMathApprox(StrataPassRun *run, MlirOperation root) {
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(root));
  strataPatternSetAdd(set, "math.exp", 1, approximate, (void *)&kExp);
  strataPatternSetAdd(set, "math.tanh", 1, approximate, (void *)&kTanh);
  strataPatternSetAdd(set, "math.erf", 1, approximate, (void *)&kErf);
  strataApplyPatternsWalk(set, root);
  strataPatternSetDestroy(set);
  (void)run;
}

static const StrataDialectHandleFn kDeps[] = {mlirGetDialectHandle__arith__, mlirGetDialectHandle__math__, NULL};

const StrataPassDef strataMathApproxPass = {
    .name = "strata-math-approx",
    .summary = "Replace f32 math.exp/tanh/erf by vectorizable polynomial approximations in arith "
               "(exp within 2 ulp, tanh/erf within 4e-7)",
    .anchor = "func.func",
    .run = runMathApprox,
    .dependentDialects = kDeps,
};
