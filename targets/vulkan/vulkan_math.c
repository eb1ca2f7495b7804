/* What a kernel computes that SPIR-V has no exact op for, rewritten before
 * convert-gpu-to-spirv (vulkan_internal.h):
 *  - math.powf: GLSL's Pow is undefined for a zero base with y <= 0 and
 *    for NaN operands (lavapipe gives 0), so C's pow is built around
 *    Pow(|x|, y): the sign for odd integer y, NaN for a negative finite
 *    base and non-integer y, and C's special cases (y = 0 or x = 1 gives 1,
 *    a zero base with y < 0 an infinity, |x| = 1 with infinite y gives 1).
 *  - math.erf (f32; none in SPIR-V): the Taylor series below |x| = 0.5,
 *    Numerical Recipes' erfc (fractional error under 1.2e-7) above; within
 *    about 1e-6 relative of libm, as PoCL's built-in is. f64 is refused.
 *  - math.asin, math.acos: GLSL's are loose; through atan (kAsin, kAcos).
 *  - arith.divf: Vulkan leaves a zero or huge divisor undefined (kDiv).
 *  - arith.cmpf false/true: constants.
 *  - nn's unsigned integers: kernels see ui8 values between signless
 *    casts; their types become signless (the bits are the same), so the
 *    casts fold away.
 * Each expansion is a small function in MLIR text whose body is cloned in
 * place of the op. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinTypes.h"
#include "strata/support.h"
#include "vulkan_internal.h"

static const char kPow[] =
    "func.func @f(%%x: %1$s, %%y: %1$s) -> %1$s {\n"
    "  %%zero = arith.constant 0.0 : %1$s\n"
    "  %%one = arith.constant 1.0 : %1$s\n"
    "  %%mone = arith.constant -1.0 : %1$s\n"
    "  %%half = arith.constant 0.5 : %1$s\n"
    "  %%inf = arith.constant %2$s : %1$s\n"
    "  %%nan = arith.constant %3$s : %1$s\n"
    "  %%true = arith.constant true\n"
    "  %%ninf = arith.negf %%inf : %1$s\n"
    "  %%ax = math.absf %%x : %1$s\n"
    "  %%p = math.powf %%ax, %%y : %1$s\n"
    "  %%np = arith.negf %%p : %1$s\n"
    /* y an integer, an odd one */
    "  %%yfl = math.floor %%y : %1$s\n"
    "  %%yint = arith.cmpf oeq, %%yfl, %%y : %1$s\n"
    "  %%yh = arith.mulf %%y, %%half : %1$s\n"
    "  %%yhfl = math.floor %%yh : %1$s\n"
    "  %%yhfrac = arith.subf %%yh, %%yhfl : %1$s\n"
    "  %%yodd0 = arith.cmpf oeq, %%yhfrac, %%half : %1$s\n"
    "  %%yodd = arith.andi %%yint, %%yodd0 : i1\n"
    /* a negative base: the sign, or NaN */
    "  %%xneg = arith.cmpf olt, %%x, %%zero : %1$s\n"
    "  %%negodd = arith.andi %%xneg, %%yodd : i1\n"
    "  %%r1 = arith.select %%negodd, %%np, %%p : %1$s\n"
    "  %%yfrac = arith.xori %%yint, %%true : i1\n"
    "  %%xfin = arith.cmpf one, %%x, %%ninf : %1$s\n"
    "  %%c2a = arith.andi %%xneg, %%yfrac : i1\n"
    "  %%c2 = arith.andi %%c2a, %%xfin : i1\n"
    "  %%r2 = arith.select %%c2, %%nan, %%r1 : %1$s\n"
    /* a zero base with y < 0: an infinity, negative for -0 and odd y */
    "  %%xz = arith.cmpf oeq, %%x, %%zero : %1$s\n"
    "  %%yneg = arith.cmpf olt, %%y, %%zero : %1$s\n"
    "  %%sx = math.copysign %%one, %%x : %1$s\n"
    "  %%xsneg = arith.cmpf olt, %%sx, %%zero : %1$s\n"
    "  %%zneg = arith.andi %%xsneg, %%yodd : i1\n"
    "  %%zinf = arith.select %%zneg, %%ninf, %%inf : %1$s\n"
    "  %%c3 = arith.andi %%xz, %%yneg : i1\n"
    "  %%r3 = arith.select %%c3, %%zinf, %%r2 : %1$s\n"
    /* NaN operands */
    "  %%xnan = arith.cmpf uno, %%x, %%x : %1$s\n"
    "  %%ynan = arith.cmpf uno, %%y, %%y : %1$s\n"
    "  %%r4 = arith.select %%xnan, %%nan, %%r3 : %1$s\n"
    "  %%r5 = arith.select %%ynan, %%nan, %%r4 : %1$s\n"
    /* 1 for y = 0, x = 1, and |x| = 1 with an infinite y */
    "  %%y0 = arith.cmpf oeq, %%y, %%zero : %1$s\n"
    "  %%x1 = arith.cmpf oeq, %%x, %%one : %1$s\n"
    "  %%xm1 = arith.cmpf oeq, %%x, %%mone : %1$s\n"
    "  %%ay = math.absf %%y : %1$s\n"
    "  %%yinf = arith.cmpf oeq, %%ay, %%inf : %1$s\n"
    "  %%c6a = arith.andi %%xm1, %%yinf : i1\n"
    "  %%c6b = arith.ori %%y0, %%x1 : i1\n"
    "  %%c6 = arith.ori %%c6a, %%c6b : i1\n"
    "  %%r6 = arith.select %%c6, %%one, %%r5 : %1$s\n"
    "  return %%r6 : %1$s\n"
    "}\n";

static const char kErf[] =
    "func.func @f(%x: f32) -> f32 {\n"
    "  %one = arith.constant 1.0 : f32\n"
    "  %two = arith.constant 2.0 : f32\n"
    "  %half = arith.constant 0.5 : f32\n"
    "  %zero = arith.constant 0.0 : f32\n"
    /* |x| < 0.5: 2/sqrt(pi) (x - x^3/3 + x^5/10 - x^7/42 + x^9/216) */
    "  %k = arith.constant 1.12837916709551257 : f32\n"
    "  %a3 = arith.constant -0.333333333333333333 : f32\n"
    "  %a5 = arith.constant 0.1 : f32\n"
    "  %a7 = arith.constant -0.0238095238095238095 : f32\n"
    "  %a9 = arith.constant 0.00462962962962962963 : f32\n"
    "  %x2 = arith.mulf %x, %x : f32\n"
    "  %s0 = arith.mulf %x2, %a9 : f32\n"
    "  %s1 = arith.addf %s0, %a7 : f32\n"
    "  %s2 = arith.mulf %s1, %x2 : f32\n"
    "  %s3 = arith.addf %s2, %a5 : f32\n"
    "  %s4 = arith.mulf %s3, %x2 : f32\n"
    "  %s5 = arith.addf %s4, %a3 : f32\n"
    "  %s6 = arith.mulf %s5, %x2 : f32\n"
    "  %s7 = arith.addf %s6, %one : f32\n"
    "  %s8 = arith.mulf %s7, %x : f32\n"
    "  %small = arith.mulf %s8, %k : f32\n"
    /* else 1 - erfc(|x|) with the sign of x, erfc(z) = t exp(-z^2 + P(t)), t = 1/(1 + z/2) */
    "  %z = math.absf %x : f32\n"
    "  %hz = arith.mulf %z, %half : f32\n"
    "  %d = arith.addf %hz, %one : f32\n"
    "  %t = arith.divf %one, %d : f32\n"
    "  %c9 = arith.constant 0.17087277 : f32\n"
    "  %c8 = arith.constant -0.82215223 : f32\n"
    "  %c7 = arith.constant 1.48851587 : f32\n"
    "  %c6 = arith.constant -1.13520398 : f32\n"
    "  %c5 = arith.constant 0.27886807 : f32\n"
    "  %c4 = arith.constant -0.18628806 : f32\n"
    "  %c3 = arith.constant 0.09678418 : f32\n"
    "  %c2 = arith.constant 0.37409196 : f32\n"
    "  %c1 = arith.constant 1.00002368 : f32\n"
    "  %c0 = arith.constant -1.26551223 : f32\n"
    "  %p8 = arith.mulf %t, %c9 : f32\n  %q8 = arith.addf %p8, %c8 : f32\n"
    "  %p7 = arith.mulf %t, %q8 : f32\n  %q7 = arith.addf %p7, %c7 : f32\n"
    "  %p6 = arith.mulf %t, %q7 : f32\n  %q6 = arith.addf %p6, %c6 : f32\n"
    "  %p5 = arith.mulf %t, %q6 : f32\n  %q5 = arith.addf %p5, %c5 : f32\n"
    "  %p4 = arith.mulf %t, %q5 : f32\n  %q4 = arith.addf %p4, %c4 : f32\n"
    "  %p3 = arith.mulf %t, %q4 : f32\n  %q3 = arith.addf %p3, %c3 : f32\n"
    "  %p2 = arith.mulf %t, %q3 : f32\n  %q2 = arith.addf %p2, %c2 : f32\n"
    "  %p1 = arith.mulf %t, %q2 : f32\n  %q1 = arith.addf %p1, %c1 : f32\n"
    "  %p0 = arith.mulf %t, %q1 : f32\n  %q0 = arith.addf %p0, %c0 : f32\n"
    "  %zz = arith.mulf %z, %z : f32\n"
    "  %e0 = arith.subf %q0, %zz : f32\n"
    "  %e1 = math.exp %e0 : f32\n"
    "  %erfc = arith.mulf %t, %e1 : f32\n"
    "  %big0 = arith.subf %one, %erfc : f32\n"
    "  %big = math.copysign %big0, %x : f32\n"
    "  %lt = arith.cmpf olt, %z, %half : f32\n"
    "  %r = arith.select %lt, %small, %big : f32\n"
    "  return %r : f32\n"
    "}\n";

/* GLSL's Asin and Acos are loose (lavapipe's are 4e-4 off); atan is
 * close, and these forms avoid cancellation near |x| = 1. */
static const char kAsin[] =
    "func.func @f(%%x: %1$s) -> %1$s {\n"
    "  %%one = arith.constant 1.0 : %1$s\n"
    "  %%a = arith.subf %%one, %%x : %1$s\n"
    "  %%b = arith.addf %%one, %%x : %1$s\n"
    "  %%c = arith.mulf %%a, %%b : %1$s\n"
    "  %%d = math.sqrt %%c : %1$s\n"
    "  %%e = arith.divf %%x, %%d : %1$s\n"
    "  %%r = math.atan %%e : %1$s\n"
    "  return %%r : %1$s\n"
    "}\n";
static const char kAcos[] =
    "func.func @f(%%x: %1$s) -> %1$s {\n"
    "  %%one = arith.constant 1.0 : %1$s\n"
    "  %%two = arith.constant 2.0 : %1$s\n"
    "  %%a = arith.subf %%one, %%x : %1$s\n"
    "  %%b = arith.addf %%one, %%x : %1$s\n"
    "  %%c = arith.divf %%a, %%b : %1$s\n"
    "  %%d = math.sqrt %%c : %1$s\n"
    "  %%e = math.atan %%d : %1$s\n"
    "  %%r = arith.mulf %%e, %%two : %1$s\n"
    "  return %%r : %1$s\n"
    "}\n";
/* Vulkan leaves x / y undefined for |y| outside [2^-126, 2^126] (f32;
 * lavapipe folds x / 0.0 to 0): IEEE's results for a zero divisor, and a
 * huge one scaled by 1/4 on both sides. */
static const char kDiv[] =
    "func.func @f(%%x: %1$s, %%y: %1$s) -> %1$s {\n"
    "  %%zero = arith.constant 0.0 : %1$s\n"
    "  %%one = arith.constant 1.0 : %1$s\n"
    "  %%quarter = arith.constant 0.25 : %1$s\n"
    "  %%big = arith.constant %2$s : %1$s\n"
    "  %%inf = arith.constant %3$s : %1$s\n"
    "  %%nan = arith.constant %4$s : %1$s\n"
    "  %%q = arith.divf %%x, %%y : %1$s\n"
    "  %%xs = arith.mulf %%x, %%quarter : %1$s\n"
    "  %%ys = arith.mulf %%y, %%quarter : %1$s\n"
    "  %%qs = arith.divf %%xs, %%ys : %1$s\n"
    "  %%ay = math.absf %%y : %1$s\n"
    "  %%huge = arith.cmpf ogt, %%ay, %%big : %1$s\n"
    "  %%r1 = arith.select %%huge, %%qs, %%q : %1$s\n"
    "  %%sx = math.copysign %%one, %%x : %1$s\n"
    "  %%sy = math.copysign %%one, %%y : %1$s\n"
    "  %%s = arith.mulf %%sx, %%sy : %1$s\n"
    "  %%sinf = arith.mulf %%s, %%inf : %1$s\n"
    "  %%xz = arith.cmpf ueq, %%x, %%zero : %1$s\n"
    "  %%z = arith.select %%xz, %%nan, %%sinf : %1$s\n"
    "  %%yz = arith.cmpf oeq, %%y, %%zero : %1$s\n"
    "  %%r = arith.select %%yz, %%z, %%r1 : %1$s\n"
    "  return %%r : %1$s\n"
    "}\n";
/* arith.cmpf's constant predicates (false, true), which arith-to-spirv
 * does not convert. */
static const char kCmpConst[] =
    "func.func @f(%%x: %1$s, %%y: %1$s) -> i1 {\n"
    "  %%r = arith.constant %2$s\n"
    "  return %%r : i1\n"
    "}\n";

typedef struct {
  const void *from;
  MlirValue to;
} Mapped;

bool vkInlineText(MlirOperation op, const char *text, const MlirValue *args) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirModule m = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  if (mlirModuleIsNull(m)) return strataEmitOpError(op, "the vulkan target's expansion of this op does not parse"), false;
  MlirOperation f = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
  intptr_t numArgs = mlirBlockGetNumArguments(body);
  Mapped map[128];
  size_t n = 0;
  for (intptr_t i = 0; i < numArgs; i++)
    map[n++] = (Mapped){mlirBlockGetArgument(body, i).ptr, args ? args[i] : mlirOperationGetOperand(op, i)};
  MlirBlock block = mlirOperationGetBlock(op);
  MlirLocation loc = mlirOperationGetLocation(op);
  bool ok = true;
  for (MlirOperation o = mlirBlockGetFirstOperation(body); ok && !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o)) {
    MlirOperation c = strataOpIsNamed(o, "func.return") ? (MlirOperation){NULL} : mlirOperationClone(o);
    MlirOperation user = mlirOperationIsNull(c) ? o : c;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(user); i++) {
      MlirValue v = mlirOperationGetOperand(user, i);
      for (size_t k = 0; k < n; k++)
        if (map[k].from == v.ptr) v = map[k].to;
      if (mlirOperationIsNull(c)) mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), v);
      else mlirOperationSetOperand(c, i, v);
    }
    if (mlirOperationIsNull(c)) break;
    mlirOperationSetLocation(c, loc);
    mlirBlockInsertOwnedOperationBefore(block, op, c);
    if (!mlirOperationGetNumResults(o)) continue;
    if (n == sizeof map / sizeof *map) ok = false, strataEmitOpError(op, "the vulkan target's expansion is too long");
    else map[n++] = (Mapped){mlirOperationGetResult(o, 0).ptr, mlirOperationGetResult(c, 0)};
  }
  mlirModuleDestroy(m);
  if (ok) mlirOperationDestroy(op);
  return ok;
}

/* The signless integer type of the same width for ui/si types; else `t`. */
static MlirType signless(MlirType t) {
  if (mlirTypeIsAMemRef(t)) {
    MlirType el = mlirShapedTypeGetElementType(t), s = signless(el);
    if (mlirTypeEqual(el, s)) return t;
    intptr_t rank = mlirShapedTypeGetRank(t);
    int64_t dims[8];
    for (intptr_t i = 0; i < rank && i < 8; i++) dims[i] = mlirShapedTypeGetDimSize(t, i);
    return mlirMemRefTypeGet(s, rank, dims, mlirMemRefTypeGetLayout(t), mlirMemRefTypeGetMemorySpace(t));
  }
  if (mlirTypeIsAInteger(t) && !mlirIntegerTypeIsSignless(t))
    return mlirIntegerTypeGet(mlirTypeGetContext(t), mlirIntegerTypeGetWidth(t));
  return t;
}

typedef struct {
  MlirOperation *ops;
  size_t n, cap;
  bool oom;
} OpList;

/* GLSL.std.450 computes these in 16 and 32 bits only (convert-math-to-spirv
 * would make an invalid op of an f64 one). */
static bool glslF32Only(MlirOperation op) {
  static const char *const kOps[] = {"math.exp",  "math.exp2",  "math.expm1", "math.log",   "math.log2",
                                     "math.log10", "math.log1p", "math.tanh",  "math.sin",   "math.cos",
                                     "math.tan",  "math.atan",  "math.atan2", "math.sinh",  "math.cosh",
                                     "math.asinh", "math.acosh", "math.atanh", "math.cbrt"};
  if (mlirOperationGetNumOperands(op) < 1 || !mlirTypeIsAF64(mlirValueGetType(mlirOperationGetOperand(op, 0))))
    return false;
  for (size_t i = 0; i < sizeof kOps / sizeof *kOps; i++)
    if (strataOpIsNamed(op, kOps[i])) return true;
  return false;
}

static MlirWalkResult collect(MlirOperation op, void *user) {
  OpList *l = user;
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); r++)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r)); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      for (intptr_t i = 0; i < mlirBlockGetNumArguments(b); i++) {
        MlirValue v = mlirBlockGetArgument(b, i);
        mlirValueSetType(v, signless(mlirValueGetType(v)));
      }
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++) {
    MlirValue v = mlirOperationGetResult(op, i);
    mlirValueSetType(v, signless(mlirValueGetType(v)));
  }
  int64_t predicate = -1;
  if (strataOpIsNamed(op, "arith.cmpf")) strataGetI64(op, "predicate", &predicate);
  if (glslF32Only(op)) predicate = 0; /* refused below */
  if (!strataOpIsNamed(op, "math.powf") && !strataOpIsNamed(op, "math.erf") && !strataOpIsNamed(op, "math.asin") &&
      !strataOpIsNamed(op, "math.acos") && !strataOpIsNamed(op, "arith.divf") && predicate != 0 && predicate != 15)
    return MlirWalkResultAdvance;
  if (l->n == l->cap) {
    MlirOperation *grown = realloc(l->ops, (l->cap = l->cap ? 2 * l->cap : 8) * sizeof *grown);
    if (!grown) return l->oom = true, MlirWalkResultInterrupt;
    l->ops = grown;
  }
  l->ops[l->n++] = op;
  return MlirWalkResultAdvance;
}

bool vkExpandMath(MlirOperation kernel) {
  OpList l = {0};
  mlirOperationWalk(kernel, collect, &l, MlirWalkPreOrder);
  bool ok = !l.oom || (strataEmitOpError(kernel, "out of memory"), false);
  for (size_t i = 0; ok && i < l.n; i++) {
    MlirOperation op = l.ops[i];
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
    bool f32 = mlirTypeIsAF32(t), f64 = mlirTypeIsAF64(t);
    char text[sizeof kPow + 512];
    if (glslF32Only(op)) {
      MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
      ok = false, strataEmitOpError(op, "the vulkan target has no f64 %.*s (GLSL.std.450 computes it in 16 and 32 "
                                        "bits only)", (int)name.length - 5, name.data + 5);
      continue;
    }
    if (strataOpIsNamed(op, "arith.cmpf")) {
      int64_t predicate = 0;
      strataGetI64(op, "predicate", &predicate);
      char ts[64];
      strataTypeToString(t, ts, sizeof ts);
      snprintf(text, sizeof text, kCmpConst, ts, predicate ? "true" : "false");
      ok = vkInlineText(op, text, NULL);
      continue;
    }
    if (strataOpIsNamed(op, "math.erf")) {
      if (!f32) ok = false, strataEmitOpError(op, "the vulkan target computes erf in f32 only (SPIR-V has no erf; "
                                              "its expansion is accurate to f32)");
      else ok = vkInlineText(op, kErf, NULL);
      continue;
    }
    if (!f32 && !f64) {
      ok = false, strataEmitOpError(op, "the vulkan target expands this op in f32 and f64 only");
      continue;
    }
    if (strataOpIsNamed(op, "arith.divf")) {
      snprintf(text, sizeof text, kDiv, f32 ? "f32" : "f64", f32 ? "8.5070591730234616e+37" : "4.49423283715579e+307",
               f32 ? "0x7F800000" : "0x7FF0000000000000", f32 ? "0x7FC00000" : "0x7FF8000000000000");
      ok = vkInlineText(op, text, NULL);
      continue;
    }
    if (strataOpIsNamed(op, "math.asin") || strataOpIsNamed(op, "math.acos")) {
      snprintf(text, sizeof text, strataOpIsNamed(op, "math.asin") ? kAsin : kAcos, f32 ? "f32" : "f64");
      ok = vkInlineText(op, text, NULL);
      continue;
    }
    snprintf(text, sizeof text, kPow, f32 ? "f32" : "f64", f32 ? "0x7F800000" : "0x7FF0000000000000",
             f32 ? "0x7FC00000" : "0x7FF8000000000000");
    ok = vkInlineText(op, text, NULL);
  }
  free(l.ops);
  return ok;
}
