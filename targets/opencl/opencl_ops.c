/* arith and math ops as OpenCL C expressions. Integers live in unsigned
 * types so that arith's wrapping arithmetic is C's; signed operations cast
 * to the signed spelling and back. Float ops map to OpenCL C's IEEE
 * operators and built-ins; where arith's semantics differ from a built-in
 * (maximumf propagates NaN, fmax does not) the program's prelude has a
 * helper. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/support.h"
#include "opencl_internal.h"

const char *clScalarType(MlirType t, bool asSigned) {
  if (mlirTypeIsAF32(t) || mlirTypeIsAF16(t)) return "float"; /* f16: opencl_f16.c */
  if (mlirTypeIsAF64(t)) return "double";
  if (mlirTypeIsAIndex(t)) return asSigned ? "long" : "ulong";
  if (!mlirTypeIsAInteger(t)) return NULL;
  switch (mlirIntegerTypeGetWidth(t)) {
  case 1: return "bool";
  case 8: return asSigned ? "char" : "uchar";
  case 16: return asSigned ? "short" : "ushort";
  case 32: return asSigned ? "int" : "uint";
  case 64: return asSigned ? "long" : "ulong";
  default: return NULL;
  }
}

static unsigned intWidth(MlirType t) {
  return mlirTypeIsAIndex(t) ? 64 : mlirTypeIsAInteger(t) ? mlirIntegerTypeGetWidth(t) : 0;
}

/* Binary operators: arith name, C operator, signed operands. */
typedef struct {
  const char *name, *op;
  bool isSigned;
} BinOp;

static const BinOp kBinOps[] = {
    {"arith.addf", "+", false},  {"arith.subf", "-", false},  {"arith.mulf", "*", false},
    {"arith.divf", "/", false},  {"arith.addi", "+", false},  {"arith.subi", "-", false},
    {"arith.muli", "*", false},  {"arith.andi", "&", false},  {"arith.ori", "|", false},
    {"arith.xori", "^", false},  {"arith.divui", "/", false}, {"arith.remui", "%", false},
    {"arith.divsi", "/", true},  {"arith.remsi", "%", true},  {"arith.shli", "<<", false},
    {"arith.shrui", ">>", false}, {"arith.shrsi", ">>", true},
};

/* Calls: arith/math name, OpenCL C function (operands as they are). */
typedef struct {
  const char *name, *fn;
} CallOp;

static const CallOp kCallOps[] = {
    {"arith.remf", "fmod"},          {"arith.maxnumf", "fmax"},       {"arith.minnumf", "fmin"},
    {"arith.maximumf", "strata_maximum"}, {"arith.minimumf", "strata_minimum"},
    {"math.exp", "exp"},             {"math.exp2", "exp2"},           {"math.expm1", "expm1"},
    {"math.log", "log"},             {"math.log2", "log2"},           {"math.log10", "log10"},
    {"math.log1p", "log1p"},         {"math.sqrt", "sqrt"},           {"math.rsqrt", "rsqrt"},
    {"math.cbrt", "cbrt"},           {"math.tanh", "tanh"},           {"math.sinh", "sinh"},
    {"math.cosh", "cosh"},           {"math.sin", "sin"},             {"math.cos", "cos"},
    {"math.tan", "tan"},             {"math.asin", "asin"},           {"math.acos", "acos"},
    {"math.atan", "atan"},           {"math.atan2", "atan2"},         {"math.asinh", "asinh"},
    {"math.acosh", "acosh"},         {"math.atanh", "atanh"},         {"math.erf", "erf"},
    {"math.erfc", "erfc"},           {"math.floor", "floor"},         {"math.ceil", "ceil"},
    {"math.round", "round"},         {"math.roundeven", "rint"},      {"math.trunc", "trunc"},
    {"math.absf", "fabs"},           {"math.powf", "pow"},            {"math.fma", "fma"},
    {"math.copysign", "copysign"},
};

/* cmpf predicates (arith::CmpFPredicate order) as C with %1$s, %2$s the
 * operands; unordered forms are the negated ordered ones. */
static const char *const kCmpF[] = {
    "false",           "(%s == %s)",  "(%s > %s)",  "(%s >= %s)", "(%s < %s)",  "(%s <= %s)",
    "(%s < %s || %s > %s)", "(!isnan(%s) && !isnan(%s))", "!(%s < %s || %s > %s)",
    "!(%s <= %s)",     "!(%s < %s)",  "!(%s >= %s)", "!(%s > %s)", "(%s != %s)",
    "(isnan(%s) || isnan(%s))", "true",
};
/* cmpi predicates (arith::CmpIPredicate order): operator, signed. */
static const BinOp kCmpI[] = {{"eq", "==", false}, {"ne", "!=", false}, {"slt", "<", true},
                              {"sle", "<=", true}, {"sgt", ">", true},  {"sge", ">=", true},
                              {"ult", "<", false}, {"ule", "<=", false}, {"ugt", ">", false},
                              {"uge", ">=", false}};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A float literal that reads back exactly (hexadecimal), or NAN/INFINITY. */
static void floatLiteral(double v, bool f32, char *buf, size_t size) {
  if (isnan(v)) snprintf(buf, size, "%s", f32 ? "NAN" : "(double)NAN");
  else if (isinf(v)) snprintf(buf, size, "%s%s", v < 0 ? "-" : "", f32 ? "INFINITY" : "(double)INFINITY");
  else snprintf(buf, size, "%a%s", v, f32 ? "f" : "");
}

static bool emitConstant(ClEmitter *e, MlirOperation op, const char *type, MlirType t, const char *res) {
  MlirAttribute v = strataOpAttr(op, "value");
  char lit[64];
  if (mlirAttributeIsAFloat(v)) floatLiteral(mlirFloatAttrGetValueDouble(v), !mlirTypeIsAF64(t), lit, sizeof lit);
  else if (mlirAttributeIsAInteger(v) && intWidth(t) == 1)
    snprintf(lit, sizeof lit, "%s", mlirIntegerAttrGetValueInt(v) & 1 ? "true" : "false");
  else if (mlirAttributeIsAInteger(v)) {
    unsigned w = intWidth(t);
    uint64_t bits = (uint64_t)mlirIntegerAttrGetValueInt(v);
    if (w < 64) bits &= (UINT64_C(1) << w) - 1;
    snprintf(lit, sizeof lit, "(%s)%lluUL", type, (unsigned long long)bits);
  } else {
    strataEmitOpError(op, "the opencl target takes scalar constants in kernels only");
    return false;
  }
  clLine(e, "%s %s = %s;", type, res, lit);
  return true;
}

/* Integer casts: ext/trunc/index_cast between widths, through the signed
 * spelling where the source is sign-extended. */
static bool emitIntCast(ClEmitter *e, MlirOperation op, const char *name, const char *type, MlirType from,
                        MlirType to, const char *res, const char *a) {
  unsigned wf = intWidth(from), wt = intWidth(to);
  bool sext = !strcmp(name, "arith.extsi") || (!strcmp(name, "arith.index_cast") && wt > wf);
  if (wt == 1) clLine(e, "bool %s = (%s & 1) != 0;", res, a);
  else if (wf == 1) clLine(e, "%s %s = %s(%s)%s;", type, res, sext ? "-" : "", type, a);
  else if (sext) clLine(e, "%s %s = (%s)(%s)(%s)%s;", type, res, type, clScalarType(to, true),
                        clScalarType(from, true), a);
  else clLine(e, "%s %s = (%s)%s;", type, res, type, a);
  (void)op;
  return true;
}

bool clEmitScalarOp(ClEmitter *e, MlirOperation op, bool *handled) {
  *handled = false;
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  char name[64];
  snprintf(name, sizeof name, "%.*s", (int)n.length, n.data);
  if (strncmp(name, "arith.", 6) && strncmp(name, "math.", 5)) return false;
  *handled = true;
  if (mlirOperationGetNumResults(op) != 1) {
    strataEmitOpError(op, "the opencl target cannot express '%s' (%d results)", name,
                      (int)mlirOperationGetNumResults(op));
    return false;
  }
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  const char *type = clScalarType(t, false);
  intptr_t nOps = mlirOperationGetNumOperands(op);
  MlirType t0 = nOps ? mlirValueGetType(mlirOperationGetOperand(op, 0)) : t;
  if (!type || (nOps && !clScalarType(t0, false))) {
    char ts[128];
    strataTypeToString(type ? t0 : t, ts, sizeof ts);
    strataEmitOpError(op, "the opencl target has no OpenCL C type for %s in '%s' (f16, f32, f64, "
                      "i1-i64 and index are supported)", ts, name);
    return false;
  }
  if (mlirTypeIsAF64(t) || mlirTypeIsAF64(t0)) e->usesF64 = true;
  char res[24], a[24], b[24], c[24];
  clName(e, mlirOperationGetResult(op, 0), res);
  if (nOps > 0) clName(e, mlirOperationGetOperand(op, 0), a);
  if (nOps > 1) clName(e, mlirOperationGetOperand(op, 1), b);
  if (nOps > 2) clName(e, mlirOperationGetOperand(op, 2), c);
  if (!strcmp(name, "arith.constant")) return emitConstant(e, op, type, t, res);
  /* i1 arithmetic is bitwise (mod 2); C's on bool is not. */
  bool bitwise = !strcmp(name, "arith.andi") || !strcmp(name, "arith.ori") || !strcmp(name, "arith.xori");
  for (size_t i = 0; i < COUNT(kBinOps) && (intWidth(t) != 1 || bitwise); i++)
    if (!strcmp(name, kBinOps[i].name)) {
      if (kBinOps[i].isSigned) {
        const char *s = clScalarType(t, true);
        clLine(e, "%s %s = (%s)((%s)%s %s (%s)%s);", type, res, type, s, a, kBinOps[i].op, s, b);
      } else if (intWidth(t) && intWidth(t) < 32) {
        /* C promotes narrow integers to int: truncate back to the width. */
        clLine(e, "%s %s = (%s)(%s %s %s);", type, res, type, a, kBinOps[i].op, b);
      } else {
        clLine(e, "%s %s = %s %s %s;", type, res, a, kBinOps[i].op, b);
      }
      return true;
    }
  for (size_t i = 0; i < COUNT(kCallOps); i++)
    if (!strcmp(name, kCallOps[i].name)) {
      if (!mlirTypeIsAF32(t) && !mlirTypeIsAF64(t)) break;
      clLine(e, "%s %s = %s(%s%s%s%s%s);", type, res, kCallOps[i].fn, a, nOps > 1 ? ", " : "", nOps > 1 ? b : "",
             nOps > 2 ? ", " : "", nOps > 2 ? c : "");
      return true;
    }
  const char *s = clScalarType(t, true);
  if (!strcmp(name, "arith.negf")) return clLine(e, "%s %s = -%s;", type, res, a), true;
  if (!strcmp(name, "arith.select"))
    return clLine(e, "%s %s = %s ? %s : %s;", type, res, a, b, c), true;
  if (!strcmp(name, "arith.maxsi") || !strcmp(name, "arith.minsi"))
    return clLine(e, "%s %s = (%s)%s %s (%s)%s ? %s : %s;", type, res, s, a, name[7] == 'a' ? ">" : "<", s, b,
                  a, b), true;
  if (!strcmp(name, "arith.maxui") || !strcmp(name, "arith.minui"))
    return clLine(e, "%s %s = %s %s %s ? %s : %s;", type, res, a, name[7] == 'a' ? ">" : "<", b, a, b), true;
  if (!strcmp(name, "arith.floordivsi") && intWidth(t) >= 32)
    return clLine(e, "%s %s = (%s)strata_floordiv_%s((%s)%s, (%s)%s);", type, res, type, s, s, a, s, b), true;
  if (!strcmp(name, "arith.ceildivsi") && intWidth(t) >= 32)
    return clLine(e, "%s %s = (%s)strata_ceildiv_%s((%s)%s, (%s)%s);", type, res, type, s, s, a, s, b), true;
  if (!strcmp(name, "math.absi") && intWidth(t) > 1)
    return clLine(e, "%s %s = (%s)abs((%s)%s);", type, res, type, s, a), true;
  if (!strcmp(name, "arith.cmpf") || !strcmp(name, "arith.cmpi")) {
    int64_t p = mlirIntegerAttrGetValueInt(strataOpAttr(op, "predicate"));
    if (name[9] == 'f' && p >= 0 && p < (int64_t)COUNT(kCmpF)) {
      char expr[256];
      /* Each operand appears as often as the format names it (up to twice each). */
      snprintf(expr, sizeof expr, kCmpF[p], a, b, a, b);
      return clLine(e, "bool %s = %s;", res, expr), true;
    }
    if (name[9] == 'i' && p >= 0 && p < (int64_t)COUNT(kCmpI)) {
      const char *s0 = kCmpI[p].isSigned ? clScalarType(t0, true) : clScalarType(t0, false);
      return clLine(e, "bool %s = (%s)%s %s (%s)%s;", res, s0, a, kCmpI[p].op, s0, b), true;
    }
  }
  if (!strcmp(name, "arith.sitofp"))
    return clLine(e, "%s %s = (%s)(%s)%s;", type, res, type, clScalarType(t0, true), a), true;
  if (!strcmp(name, "arith.uitofp") || !strcmp(name, "arith.extf") || !strcmp(name, "arith.truncf") ||
      !strcmp(name, "arith.fptoui"))
    return clLine(e, "%s %s = (%s)%s;", type, res, type, a), true;
  if (!strcmp(name, "arith.fptosi")) return clLine(e, "%s %s = (%s)(%s)%s;", type, res, type, s, a), true;
  if (!strcmp(name, "arith.extsi") || !strcmp(name, "arith.extui") || !strcmp(name, "arith.trunci") ||
      !strcmp(name, "arith.index_cast") || !strcmp(name, "arith.index_castui"))
    return emitIntCast(e, op, name, type, t0, t, res, a);
  if (!strcmp(name, "arith.bitcast") && intWidth(t) != 1)
    return clLine(e, "%s %s = as_%s(%s);", type, res, type, a), true;
  strataEmitOpError(op, "the opencl target cannot express '%s' on these types in OpenCL C", name);
  return false;
}
