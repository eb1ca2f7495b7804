/* The select folds pred-lower applies after masking: the two guards of an
 * if/else each select against a zero, and the merge selects between them;
 *   select %c, (select %c, a, _), b           -> select %c, a, b
 *   select %c, a, (select %c, _, b)           -> select %c, a, b
 *   select %c, a, (select (%c xor true), b, _) -> select %c, a, b
 * leave `select %c, then, else` (T12). */
#include "mlir-c/BuiltinAttributes.h"
#include "strata/support.h"
#include "pred_lower.h"

/* The select owning `v`, or null. */
static MlirOperation selectOf(MlirValue v) {
  if (!mlirValueIsAOpResult(v)) return (MlirOperation){NULL};
  MlirOperation o = mlirOpResultGetOwner(v);
  return strataOpIsNamed(o, "arith.select") ? o : (MlirOperation){NULL};
}

static bool isTrue(MlirValue v) {
  if (!mlirValueIsAOpResult(v) || !strataOpIsNamed(mlirOpResultGetOwner(v), "arith.constant")) return false;
  MlirAttribute a = strataOpAttr(mlirOpResultGetOwner(v), "value");
  return mlirAttributeIsAInteger(a) && mlirIntegerAttrGetValueInt(a) != 0;
}

/* True if `v` is `c xor true` (either operand order). */
static bool isNotOf(MlirValue v, MlirValue c) {
  if (!mlirValueIsAOpResult(v) || !strataOpIsNamed(mlirOpResultGetOwner(v), "arith.xori")) return false;
  MlirOperation x = mlirOpResultGetOwner(v);
  MlirValue a = mlirOperationGetOperand(x, 0), b = mlirOperationGetOperand(x, 1);
  return (mlirValueEqual(a, c) && isTrue(b)) || (mlirValueEqual(b, c) && isTrue(a));
}

static MlirLogicalResult foldSelect(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  MlirValue c = mlirOperationGetOperand(op, 0);
  MlirValue t = mlirOperationGetOperand(op, 1), e = mlirOperationGetOperand(op, 2);
  MlirOperation ts = selectOf(t), es = selectOf(e);
  MlirValue nt = t, ne = e;
  if (!mlirOperationIsNull(ts) && mlirValueEqual(mlirOperationGetOperand(ts, 0), c))
    nt = mlirOperationGetOperand(ts, 1);
  if (!mlirOperationIsNull(es)) {
    MlirValue ec = mlirOperationGetOperand(es, 0);
    if (mlirValueEqual(ec, c)) ne = mlirOperationGetOperand(es, 2);
    else if (isNotOf(ec, c)) ne = mlirOperationGetOperand(es, 1);
  }
  if (mlirValueEqual(nt, t) && mlirValueEqual(ne, e)) return mlirLogicalResultFailure();
  MlirOperation merged = strataCreateOp(&rw->builder, "arith.select", mlirOperationGetLocation(op),
                                        .operands = STRATA_VALUES(c, nt, ne),
                                        .results = STRATA_TYPES(mlirValueGetType(t)));
  strataReplaceOp(rw, op, STRATA_VALUES(strataResult(merged, 0)));
  return mlirLogicalResultSuccess();
}

void predAddSelectFolds(StrataPatternSet *set) { strataPatternSetAdd(set, "arith.select", 2, foldSelect, NULL); }
