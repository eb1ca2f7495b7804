/* --nn-raise, GELU: the two forms exporters (PyTorch below opset 20,
 * Hugging Face's hand-written "gelu_new") spell GELU in become nn.gelu:
 *   erf:  0.5 * x * (1 + Erf(x / sqrt(2)))            (or x * (1/sqrt(2)))
 *   tanh: 0.5 * x * (1 + Tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))
 *         (x^3 as Pow(x, 3), x * (x * x) or (x * x) * x)
 * with the tail's products in any order and either operand order:
 * ((x * (1 + e)) * 0.5, (0.5 * x) * (1 + e), x * ((1 + e) * 0.5)).
 * The constants must be the form's own to float precision; every value
 * of the chain but x must have no other user, and every result must have
 * x's type (no broadcasting beyond the scalar constants). A chain with an
 * instrumentation probe inside is left as it is. Code generation then
 * sees one op: a kernel epilogue or one element-wise loop, not five. */
#include <math.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/pattern.h"
#include "strata/support.h"
#include "raise_internal.h"

enum { MAX_GELU_OPS = 10 };

typedef struct {
  MlirOperation ops[MAX_GELU_OPS]; /* the chain, last op excluded */
  int n;
  MlirValue x;
  MlirType xt;
} Chain;


/* GELU's ops each have one result: a match on anything else is refused. */
static bool isOp(MlirOperation op, const char *name) {
  return raiseIsOp(op, name) && mlirOperationGetNumResults(op) == 1;
}

/* The one user of `v`, if it has exactly one use. */
static MlirOperation soleUser(MlirValue v) {
  MlirOpOperand u = mlirValueGetFirstUse(v);
  if (mlirOpOperandIsNull(u) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(u))) return (MlirOperation){NULL};
  return mlirOpOperandGetOwner(u);
}

static bool near(double v, double want) { return fabs(v - want) <= 1e-6 * fabs(want); }

/* `op` is the binary `name` of `v` and another operand, returned in *other;
 * its result has the chain's type. */
static bool binaryOf(const Chain *c, MlirOperation op, const char *name, MlirValue v, MlirValue *other) {
  if (!isOp(op, name) || mlirOperationGetNumOperands(op) != 2 || !mlirTypeEqual(mlirValueGetType(raiseResult(op)), c->xt))
    return false;
  MlirValue a = mlirOperationGetOperand(op, 0), b = mlirOperationGetOperand(op, 1);
  if (mlirValueEqual(a, v)) *other = b;
  else if (mlirValueEqual(b, v)) *other = a;
  else return false;
  return true;
}

/* `op` is `name`(v, k) or `name`(k, v) with k a scalar constant near `want`. */
static bool byConstant(const Chain *c, MlirOperation op, const char *name, MlirValue v, double want) {
  MlirValue other;
  double k;
  return binaryOf(c, op, name, v, &other) && !mlirValueEqual(other, v) && strataScalarConstant(other, &k) &&
         near(k, want);
}

static bool push(Chain *c, MlirOperation op) {
  if (c->n == MAX_GELU_OPS) return false;
  c->ops[c->n++] = op;
  return true;
}

/* The tail 0.5 * x * (1 + e) from e, the Erf's or Tanh's result: returns
 * the last op (its ops before it pushed), or NULL. */
static MlirOperation tail(Chain *c, MlirValue e) {
  MlirOperation add = soleUser(e);
  if (!byConstant(c, add, "nn.add", e, 1.0) || !push(c, add)) return (MlirOperation){NULL};
  MlirOperation m = soleUser(raiseResult(add));
  MlirValue other;
  if (!binaryOf(c, m, "nn.mul", raiseResult(add), &other)) return (MlirOperation){NULL};
  if (mlirValueEqual(other, c->x)) { /* (x * (1 + e)) * 0.5 */
    MlirOperation half = soleUser(raiseResult(m));
    return push(c, m) && byConstant(c, half, "nn.mul", raiseResult(m), 0.5) ? half : (MlirOperation){NULL};
  }
  double k;
  if (strataScalarConstant(other, &k) && near(k, 0.5)) { /* x * ((1 + e) * 0.5) */
    MlirOperation last = soleUser(raiseResult(m));
    MlirValue y;
    return push(c, m) && binaryOf(c, last, "nn.mul", raiseResult(m), &y) && mlirValueEqual(y, c->x)
               ? last : (MlirOperation){NULL};
  }
  /* (0.5 * x) * (1 + e) */
  MlirOperation h = raiseProducer(other);
  return byConstant(c, h, "nn.mul", c->x, 0.5) && !mlirOperationIsNull(soleUser(other)) && push(c, h)
             ? m : (MlirOperation){NULL};
}

/* x^3 as Pow(x, 3), x * (x * x) or (x * x) * x: returns the op making it. */
static bool cubeOf(Chain *c, MlirValue v) {
  MlirOperation op = raiseProducer(v);
  double k;
  if (isOp(op, "nn.pow") && mlirOperationGetNumOperands(op) == 2 &&
      mlirValueEqual(mlirOperationGetOperand(op, 0), c->x) &&
      strataScalarConstant(mlirOperationGetOperand(op, 1), &k) && k == 3.0)
    return push(c, op);
  MlirValue sq;
  if (!binaryOf(c, op, "nn.mul", c->x, &sq) || !push(c, op)) return false;
  MlirOperation s = raiseProducer(sq);
  return isOp(s, "nn.mul") && mlirOperationGetNumOperands(s) == 2 && !mlirOperationIsNull(soleUser(sq)) &&
         mlirValueEqual(mlirOperationGetOperand(s, 0), c->x) && mlirValueEqual(mlirOperationGetOperand(s, 1), c->x) &&
         mlirTypeEqual(mlirValueGetType(sq), c->xt) && push(c, s);
}

/* Tanh(sqrt(2/pi) * (x + 0.044715 * x^3)): finds x and pushes the ops. */
static bool tanhInner(Chain *c, MlirOperation tanh) {
  MlirValue s = mlirOperationGetOperand(tanh, 0), inner;
  MlirOperation scale = raiseProducer(s);
  double k;
  if (!isOp(scale, "nn.mul") || mlirOperationGetNumOperands(scale) != 2 || mlirOperationIsNull(soleUser(s)))
    return false;
  int at = strataScalarConstant(mlirOperationGetOperand(scale, 0), &k) ? 0 : 1;
  if (!strataScalarConstant(mlirOperationGetOperand(scale, at), &k) || !near(k, sqrt(2.0 / 3.14159265358979323846))) return false;
  inner = mlirOperationGetOperand(scale, 1 - at);
  MlirOperation add = raiseProducer(inner);
  if (!isOp(add, "nn.add") || mlirOperationGetNumOperands(add) != 2 || mlirOperationIsNull(soleUser(inner)))
    return false;
  /* x + 0.044715 * x^3, either order: x is the operand that is not the product */
  for (int i = 0; i < 2; i++) {
    Chain t = *c;
    t.x = mlirOperationGetOperand(add, i);
    t.xt = mlirValueGetType(t.x);
    MlirValue p = mlirOperationGetOperand(add, 1 - i), cube;
    MlirOperation mul = raiseProducer(p);
    if (!mlirTypeEqual(mlirValueGetType(s), t.xt) || !mlirTypeEqual(mlirValueGetType(inner), t.xt) ||
        !isOp(mul, "nn.mul") || mlirOperationGetNumOperands(mul) != 2 || mlirOperationIsNull(soleUser(p)))
      continue;
    int kat = strataScalarConstant(mlirOperationGetOperand(mul, 0), &k) ? 0 : 1;
    if (!strataScalarConstant(mlirOperationGetOperand(mul, kat), &k) || !near(k, 0.044715)) continue;
    cube = mlirOperationGetOperand(mul, 1 - kat);
    if (mlirOperationIsNull(soleUser(cube)) || !mlirTypeEqual(mlirValueGetType(cube), t.xt) ||
        !mlirTypeEqual(mlirValueGetType(raiseResult(mul)), t.xt))
      continue;
    if (push(&t, scale) && push(&t, add) && push(&t, mul) && cubeOf(&t, cube)) {
      *c = t;
      return true;
    }
  }
  return false;
}

/* Erf(x / sqrt(2)) or Erf(x * (1/sqrt(2))): finds x and pushes the op. */
static bool erfInner(Chain *c, MlirOperation erf) {
  MlirValue u = mlirOperationGetOperand(erf, 0);
  MlirOperation op = raiseProducer(u);
  if (mlirOperationIsNull(soleUser(u)) || mlirOperationIsNull(op) || mlirOperationGetNumOperands(op) != 2)
    return false;
  double k;
  bool div = isOp(op, "nn.div");
  int at = !div && strataScalarConstant(mlirOperationGetOperand(op, 0), &k) ? 0 : 1;
  if ((!div && !isOp(op, "nn.mul")) || !strataScalarConstant(mlirOperationGetOperand(op, at), &k) ||
      !near(k, div ? sqrt(2.0) : sqrt(0.5)))
    return false;
  c->x = mlirOperationGetOperand(op, 1 - at);
  c->xt = mlirValueGetType(c->x);
  return mlirTypeEqual(mlirValueGetType(u), c->xt) && push(c, op);
}

static MlirLogicalResult raiseGelu(StrataRewrite *rw, MlirOperation root, void *user) {
  bool tanhForm = user != NULL;
  Chain c = {.n = 0};
  if (mlirOperationGetNumOperands(root) != 1 || mlirOperationGetNumResults(root) != 1 ||
      !(tanhForm ? tanhInner(&c, root) : erfInner(&c, root)) ||
      !mlirTypeEqual(mlirValueGetType(raiseResult(root)), c.xt) || !mlirTypeIsARankedTensor(c.xt) || !push(&c, root))
    return mlirLogicalResultFailure();
  MlirOperation last = tail(&c, raiseResult(root));
  if (mlirOperationIsNull(last)) return mlirLogicalResultFailure();
  MlirBlock block = mlirOperationGetBlock(last);
  for (int i = 0; i < c.n; i++)
    if (!mlirBlockEqual(mlirOperationGetBlock(c.ops[i]), block)) return mlirLogicalResultFailure();
  MlirContext ctx = mlirOperationGetContext(root);
  StrataBuilder b = strataBuilderBefore(last, rw->rewriter);
  MlirOperation gelu = strataCreateOp(
      &b, "nn.gelu", mlirOperationGetLocation(last), .operands = STRATA_VALUES(c.x), .results = STRATA_TYPES(c.xt),
      .attrs = STRATA_ATTRS({"approximate", mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(
                                                                     tanhForm ? "tanh" : "none"))}));
  strataReplaceOp(rw, last, STRATA_VALUES(strataResult(gelu, 0)));
  /* readers before what they read: erase from the block's end */
  for (int i = 1; i < c.n; i++)
    for (int j = i; j > 0 && mlirOperationIsBeforeInBlock(c.ops[j], c.ops[j - 1]); j--) {
      MlirOperation t = c.ops[j];
      c.ops[j] = c.ops[j - 1];
      c.ops[j - 1] = t;
    }
  for (int i = c.n - 1; i >= 0; i--) strataEraseOp(rw, c.ops[i]);
  return mlirLogicalResultSuccess();
}

void strataNnRaiseAddGelu(StrataPatternSet *set) {
  static const char tanhTag = 1;
  strataPatternSetAdd(set, "nn.erf", 1, raiseGelu, NULL);
  strataPatternSetAdd(set, "nn.tanh", 1, raiseGelu, (void *)&tanhTag);
}
