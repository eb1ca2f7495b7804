/* Commutative rules (Table 3.4 rows 9-10): a reduction trades places with
 * the elementwise op under it, so the elementwise op runs on the reduced
 * (smaller) tensor. Plus the family ReduceSum(x⊙c) → ReduceSum(x)⊙c.
 *
 * The new reduction reduces a tensor of the old one's input type with the
 * old one's attributes (axes, keepdims, noop_with_empty_axes), so its result
 * type is the old result type; the elementwise op's type comes from
 * broadcasting and must come out as the root's type. */
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/support.h"
#include "rewrite.h"

static MlirType typeOf(MlirValue v) { return mlirValueGetType(v); }

/* The reduction's single input, if it is the result of `name` with no
 * other use; null otherwise. */
static MlirOperation reducedOp(RwPlan *p, const char *name) {
  MlirValue data = rwOperand(p->root, 0);
  if (mlirOperationGetNumOperands(p->root) != 1 || !rwHasOneUse(data)) return (MlirOperation){NULL};
  return rwDef(p, data, name);
}

/* A reduction of `x` like the root: same attributes, same result type. */
static int reduceLike(RwPlan *p, const char *name, MlirValue x) {
  return rwOp(p, name, (int[]){rwLeaf(p, x)}, 1, p->root, typeOf(rwResultOf(p->root)));
}

static bool isLeftShift(MlirOperation op) {
  MlirAttribute d = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("direction"));
  if (mlirAttributeIsNull(d) || !mlirAttributeIsAString(d)) return false;
  MlirStringRef s = mlirStringAttrGetValue(d);
  return s.length == 4 && !strncmp(s.data, "LEFT", 4);
}

/* True if `s`, broadcast against the reduction's input, is the same along
 * every reduced axis, so it can be applied after reducing. With keepdims the
 * reduced axes are where input and result dims differ; without, only a
 * single-element `s` is accepted (its alignment would shift). */
static bool uniformAlongReduced(MlirValue s, MlirValue in, MlirValue out) {
  if (rwNumElements(s) == 1) return true;
  if (rwNumElements(s) < 0) return false;
  int rs, ri, ro;
  int64_t ds[STRATA_MAX_RANK], di[STRATA_MAX_RANK], dout[STRATA_MAX_RANK];
  if (!strataGetShape(typeOf(s), &rs, ds) || !strataGetShape(typeOf(in), &ri, di) ||
      !strataGetShape(typeOf(out), &ro, dout) || ri != ro)
    return false;
  for (int d = 0; d < ri; d++) {
    int sd = d - (ri - rs);
    if (di[d] != dout[d] && sd >= 0 && ds[sd] != 1) return false;
  }
  return true;
}

/* ---- Row 9: ReduceSum(BitShift(A, s)) → BitShift(ReduceSum(A), s) ----
 * Fast-math only, LEFT shifts only: Σ(a << s) = (Σa) << s holds modulo 2^w
 * (wrap-around), but a right shift drops different low bits per term. The
 * shift amount must be uniform along the reduced axes, and must not
 * broadcast A (that would change how many terms are summed). */
bool rwMatchReduceShift(RwPlan *p) {
  MlirOperation shift = reducedOp(p, "nn.bit_shift");
  if (mlirOperationIsNull(shift) || !isLeftShift(shift) || !rwIsUnsigned(rwResultOf(shift)))
    return false;
  MlirValue a = rwOperand(shift, 0), s = rwOperand(shift, 1);
  if (!mlirTypeEqual(typeOf(a), typeOf(rwResultOf(shift))) ||
      !uniformAlongReduced(s, a, rwResultOf(p->root)))
    return false;
  rwConsume(p, shift);
  int sum = reduceLike(p, "nn.reduce_sum", a);
  rwSetResult(p, rwOp(p, "nn.bit_shift", (int[]){sum, rwLeaf(p, s)}, 2, shift, (MlirType){NULL}));
  return p->ok;
}

/* ---- Row 10: ReduceProd(Exp(A)) → Exp(ReduceSum(A)) ----
 * Fast-math only: the product of exponentials overflows (or underflows to
 * 0) at different inputs than the exponential of the sum. */
bool rwMatchReduceExp(RwPlan *p) {
  MlirOperation e = reducedOp(p, "nn.exp");
  if (mlirOperationIsNull(e) || !rwIsFloat(rwResultOf(e))) return false;
  rwConsume(p, e);
  rwSetResult(p, rwUnary(p, "nn.exp", reduceLike(p, "nn.reduce_sum", rwOperand(e, 0))));
  return p->ok;
}

/* ---- Family: ReduceSum(x⊙c) → ReduceSum(x)⊙c, ReduceSum(x/c) →
 * ReduceSum(x)/c, and the same for ReduceMean, for a single-element
 * constant c: the scaling runs on the reduced tensor. Floats only (integer
 * means truncate). */
bool rwMatchReduceScalar(RwPlan *p) {
  const char *name = strataOpIsNamed(p->root, "nn.reduce_mean") ? "nn.reduce_mean" : "nn.reduce_sum";
  MlirOperation m = reducedOp(p, "nn.mul");
  bool isDiv = mlirOperationIsNull(m);
  if (isDiv) m = reducedOp(p, "nn.div");
  if (mlirOperationIsNull(m) || !rwIsFloat(rwResultOf(m))) return false;
  for (int ci = 1; ci >= (isDiv ? 1 : 0); ci--) {
    MlirValue c = rwOperand(m, ci), x = rwOperand(m, 1 - ci);
    if (!rwIsConstant(p, c) || rwNumElements(c) != 1 || !mlirTypeEqual(typeOf(x), typeOf(rwResultOf(m))))
      continue;
    rwConsume(p, m);
    int r = reduceLike(p, name, x);
    rwSetResult(p, rwBinary(p, isDiv ? "nn.div" : "nn.mul", r, rwLeaf(p, c)));
    return p->ok;
  }
  return false;
}
