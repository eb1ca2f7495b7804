/* --nn-raise: recognizes operators that exporters decompose into chains of
 * primitive ops and rewrites each chain into the one nn op it computes, so
 * that code generation sees the operator (one kernel, one pass over the
 * data) instead of a chain of reductions and element-wise ops.
 *
 * Layer normalization, as PyTorch exports it below opset 17 (and as most
 * hand-written graphs spell it):
 *   m = ReduceMean(X, axes)          (keepdims)
 *   d = Sub(X, m)
 *   p = Pow(d, 2) | Mul(d, d)
 *   v = ReduceMean(p, axes)          (keepdims)
 *   s = Sqrt(Add(v, eps))            (eps a one-element constant)
 *   n = Div(d, s)
 *   y = Add(Mul(n, scale), bias)     (each optional)
 * where axes are the trailing dims [a, rank), becomes
 *   y = nn.layer_normalization(X, scale, bias) {axis = a, epsilon = eps}
 * (scale = ones when the chain has none). It fires only when every
 * intermediate has no user outside the chain (d: the power and the
 * division), scale and bias broadcast over the normalized dims only, and
 * the result keeps X's type: anything else would duplicate work or change
 * what another user sees. */
#include <math.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/support.h"
#include "../../dialects/nn/nn_internal.h"

static MlirOperation producer(MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
}

static bool isOp(MlirOperation op, const char *name) {
  return !mlirOperationIsNull(op) && strataOpIsNamed(op, name);
}

static int numUses(MlirValue v) {
  int n = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) n++;
  return n;
}

static MlirOperation soleUser(MlirValue v) {
  MlirOpOperand u = mlirValueGetFirstUse(v);
  if (mlirOpOperandIsNull(u) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(u))) return (MlirOperation){NULL};
  return mlirOpOperandGetOwner(u);
}

static MlirValue result(MlirOperation op) { return mlirOperationGetResult(op, 0); }

/* The value of a one-element floating-point nn.constant. */
static bool scalarConstant(MlirValue v, double *out) {
  MlirOperation c = producer(v);
  if (!isOp(c, "nn.constant")) return false;
  MlirAttribute a = mlirOperationGetAttributeByName(c, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseFPElements(a) ||
      mlirElementsAttrGetNumElements(a) != 1)
    return false;
  MlirType et = mlirShapedTypeGetElementType(mlirAttributeGetType(a));
  if (mlirTypeIsAF32(et)) *out = mlirDenseElementsAttrGetFloatValue(a, 0);
  else if (mlirTypeIsAF64(et)) *out = mlirDenseElementsAttrGetDoubleValue(a, 0);
  else return false;
  return true;
}

/* A keepdims ReduceMean of `x` over trailing axes [a, rank): returns a. */
static int trailingMean(MlirOperation op, MlirValue x) {
  if (!isOp(op, "nn.reduce_mean") || mlirOperationGetNumOperands(op) != 1 ||
      !mlirValueEqual(mlirOperationGetOperand(op, 0), x))
    return -1;
  int64_t keep;
  MlirType t = mlirValueGetType(x);
  if (!mlirTypeIsARankedTensor(t) || !nnAttrInt(op, "keepdims", 1, &keep) || keep != 1) return -1;
  int rank = (int)mlirShapedTypeGetRank(t);
  bool mask[STRATA_MAX_RANK], identity;
  if (rank < 1 || rank > STRATA_MAX_RANK || !nnReduceAxes(op, rank, mask, &identity) || identity) return -1;
  int a = rank;
  while (a > 0 && mask[a - 1]) a--;
  for (int d = 0; d < a; d++)
    if (mask[d]) return -1;
  return a < rank ? a : -1;
}

/* The other operand of a binary op, when `v` is one of its two. */
static bool otherOperand(MlirOperation op, MlirValue v, MlirValue *other) {
  if (mlirOperationGetNumOperands(op) != 2) return false;
  MlirValue a = mlirOperationGetOperand(op, 0), b = mlirOperationGetOperand(op, 1);
  if (mlirValueEqual(a, v)) *other = b;
  else if (mlirValueEqual(b, v)) *other = a;
  else return false;
  return true;
}

/* A scale or bias: it broadcasts over the normalized dims [a, rank) of x
 * only (rank at most rank - a, each dim equal or 1), and the op applying
 * it keeps x's type. */
static bool affineParam(MlirOperation op, MlirValue param, MlirType xt, int a) {
  if (!mlirTypeEqual(mlirValueGetType(result(op)), xt)) return false;
  MlirType pt = mlirValueGetType(param);
  if (!mlirTypeIsARankedTensor(pt) || !mlirTypeEqual(mlirShapedTypeGetElementType(pt),
                                                      mlirShapedTypeGetElementType(xt)))
    return false;
  int rank = (int)mlirShapedTypeGetRank(xt), pr = (int)mlirShapedTypeGetRank(pt);
  if (pr > rank - a) return false;
  for (int i = 0; i < pr; i++) {
    int64_t pd = mlirShapedTypeGetDimSize(pt, i), xd = mlirShapedTypeGetDimSize(xt, rank - pr + i);
    if (pd != 1 && pd != xd) return false;
  }
  return true;
}

#define FAIL return mlirLogicalResultFailure()

/* Ones over the normalized dims [a, rank) of xt (f32, static), when the
 * chain has no scale; NULL value if that is not possible. */
static MlirValue onesScale(StrataBuilder *b, MlirLocation loc, MlirType xt, int a) {
  int rank = (int)mlirShapedTypeGetRank(xt);
  int64_t dims[STRATA_MAX_RANK];
  MlirType et = mlirShapedTypeGetElementType(xt);
  if (!mlirTypeIsAF32(et)) return (MlirValue){NULL};
  for (int i = a; i < rank; i++) {
    dims[i - a] = mlirShapedTypeGetDimSize(xt, i);
    if (mlirShapedTypeIsDynamicSize(dims[i - a])) return (MlirValue){NULL};
  }
  MlirType st = mlirRankedTensorTypeGet(rank - a, dims, et, mlirAttributeGetNull());
  return strataResult(strataCreateOp(b, "nn.constant", loc, .results = STRATA_TYPES(st),
                                     .attrs = STRATA_ATTRS({"value", mlirDenseElementsAttrFloatSplatGet(st, 1.0f)})),
                      0);
}

/* Rooted at the Div n = d / s. */
static MlirLogicalResult raiseLayerNorm(StrataRewrite *rw, MlirOperation div, void *user) {
  (void)user;
  MlirValue d = mlirOperationGetOperand(div, 0), s = mlirOperationGetOperand(div, 1);
  MlirOperation sub = producer(d), sqrt = producer(s);
  if (!isOp(sub, "nn.sub") || !isOp(sqrt, "nn.sqrt") || numUses(s) != 1) FAIL;
  MlirValue x = mlirOperationGetOperand(sub, 0), mv = mlirOperationGetOperand(sub, 1);
  MlirType xt = mlirValueGetType(x);
  MlirOperation mean = producer(mv);
  int a = trailingMean(mean, x);
  if (a < 0 || numUses(mv) != 1 || !mlirTypeEqual(mlirValueGetType(d), xt) ||
      !mlirTypeEqual(mlirValueGetType(result(div)), xt))
    FAIL;
  /* s = Sqrt(Add(v, eps)), v = ReduceMean(d^2) over the same axes. */
  MlirOperation addEps = producer(mlirOperationGetOperand(sqrt, 0));
  if (!isOp(addEps, "nn.add") || numUses(result(addEps)) != 1) FAIL;
  double eps, two;
  MlirValue vv = mlirOperationGetOperand(addEps, 0), epsV = mlirOperationGetOperand(addEps, 1);
  if (!scalarConstant(epsV, &eps)) vv = epsV, epsV = mlirOperationGetOperand(addEps, 0);
  MlirOperation var = producer(vv);
  if (!scalarConstant(epsV, &eps) || !isOp(var, "nn.reduce_mean") || numUses(vv) != 1) FAIL;
  MlirOperation sq = producer(mlirOperationGetOperand(var, 0));
  if (mlirOperationIsNull(sq) || trailingMean(var, result(sq)) != a || numUses(result(sq)) != 1) FAIL;
  bool square = isOp(sq, "nn.mul") && mlirValueEqual(mlirOperationGetOperand(sq, 0), d) &&
                mlirValueEqual(mlirOperationGetOperand(sq, 1), d);
  bool power = isOp(sq, "nn.pow") && mlirValueEqual(mlirOperationGetOperand(sq, 0), d) &&
               scalarConstant(mlirOperationGetOperand(sq, 1), &two) && two == 2.0;
  /* d's uses: the square (Mul(d, d) counts twice) and the Div, no other. */
  if (!(power && numUses(d) == 2) && !(square && numUses(d) == 3)) FAIL;
  /* The affine part after the Div. */
  MlirOperation last = div, mul = soleUser(result(div));
  MlirValue scale = {NULL}, bias = {NULL}, other;
  if (isOp(mul, "nn.mul") && otherOperand(mul, result(div), &other) && affineParam(mul, other, xt, a)) {
    scale = other;
    last = mul;
    MlirOperation add = soleUser(result(mul));
    if (isOp(add, "nn.add") && otherOperand(add, result(mul), &other) && affineParam(add, other, xt, a)) {
      bias = other;
      last = add;
    }
  }
  MlirLocation loc = mlirOperationGetLocation(last);
  StrataBuilder b = strataBuilderBefore(last, rw->rewriter);
  if (!scale.ptr && !(scale = onesScale(&b, loc, xt, a)).ptr) FAIL;
  MlirContext ctx = mlirOperationGetContext(div);
  MlirValue operands[3] = {x, scale, bias};
  MlirOperation ln = strataCreateOp(
      &b, "nn.layer_normalization", loc, .operands = {operands, bias.ptr ? 3 : 2}, .results = STRATA_TYPES(xt),
      .attrs = STRATA_ATTRS({"axis", strataI64Attr(ctx, a)},
                            {"epsilon", mlirFloatAttrDoubleGet(ctx, mlirF32TypeGet(ctx), eps)}));
  strataReplaceOp(rw, last, STRATA_VALUES(strataResult(ln, 0)));
  /* The rest of the chain, consumers first. */
  MlirOperation dead[8];
  int n = 0;
  if (!mlirOperationEqual(last, div)) {
    if (!mlirOperationEqual(last, mul)) dead[n++] = mul;
    dead[n++] = div;
  }
  MlirOperation rest[] = {sqrt, addEps, var, sq, sub, mean};
  for (size_t i = 0; i < sizeof rest / sizeof rest[0]; i++) dead[n++] = rest[i];
  for (int i = 0; i < n; i++) strataEraseOp(rw, dead[i]);
  return mlirLogicalResultSuccess();
}

static void runNnRaise(StrataPassRun *run, MlirOperation root) {
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(root));
  strataPatternSetAdd(set, "nn.div", 1, raiseLayerNorm, NULL);
  StrataGreedyConfig cfg = {0, true, false};
  if (mlirLogicalResultIsFailure(strataApplyPatternsGreedily(set, root, &cfg))) strataPassSignalFailure(run);
  strataPatternSetDestroy(set);
}

const StrataPassDef strataNnRaisePass = {
    .name = "nn-raise",
    .summary = "Recognize decomposed operators (layer normalization as ReduceMean/Sub/Pow/"
               "ReduceMean/Add/Sqrt/Div[/Mul/Add]) and rewrite them into the nn op",
    .anchor = "func.func",
    .run = runNnRaise,
};
