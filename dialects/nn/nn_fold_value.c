/* Compile-time values of nn ops: what --nn-fold replaces by nn.constant and
 * what the ONNX importer folds while it builds (so that a Shape/Size/Slice/
 * Concat/ConstantOfShape chain over static shapes is a constant before the
 * Reshape that reads it infers its result type). */
#include <string.h>
#include "nn_internal.h"

/* nn.shape / nn.size read only their operand's type: the value is known
 * when the dims they read are static. */
static MlirAttribute shapeOfValue(MlirOperation op, MlirType rt) {
  MlirType xt = mlirValueGetType(mlirOperationGetOperand(op, 0));
  int rank;
  int64_t dims[STRATA_MAX_RANK], values[STRATA_MAX_RANK], n = 0;
  if (!strataGetShape(xt, &rank, dims)) return mlirAttributeGetNull();
  if (strataOpIsNamed(op, "nn.size")) {
    if (!mlirShapedTypeHasStaticShape(xt) || !strataShapeNumElements(dims, rank, &values[0]))
      return mlirAttributeGetNull();
    n = 1;
  } else {
    int64_t start, end;
    nnShapeRange(op, rank, &start, &end);
    for (int64_t i = start; i < end; i++) {
      if (dims[i] < 0) return mlirAttributeGetNull();
      values[n++] = dims[i];
    }
    if (mlirShapedTypeGetDimSize(rt, 0) != n) return mlirAttributeGetNull();
  }
  return mlirDenseElementsAttrInt64Get(rt, n, values);
}

MlirAttribute strataNnFoldValue(StrataContext *ctx, MlirOperation op, int64_t limit) {
  MlirAttribute none = mlirAttributeGetNull();
  const StrataOpDef *def = strataContextGetOpDef(ctx, op);
  if (!def || !(def->flags & STRATA_OP_PURE) || (def->flags & STRATA_OP_CONSTANT) ||
      mlirOperationGetNumResults(op) != 1 || mlirOperationGetNumOperands(op) == 0)
    return none;
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  /* The limit is checked on the type, before anything is allocated: a
   * result of 2^40 elements must not cost 4 TiB of address space first. */
  int rank;
  int64_t dims[STRATA_MAX_RANK], count;
  if (!strataGetShape(rt, &rank, dims) || !strataShapeNumElements(dims, rank, &count) || count < 0 || count > limit)
    return none;
  if (strataOpIsNamed(op, "nn.shape") || strataOpIsNamed(op, "nn.size")) return shapeOfValue(op, rt);
  if (!def->interpret) return none;
  intptr_t n = mlirOperationGetNumOperands(op);
  StrataTensor *ins[n];
  intptr_t got = 0;
  for (; got < n; got++) {
    MlirValue v = mlirOperationGetOperand(op, got);
    if (!mlirValueIsAOpResult(v) || !strataOpIsNamed(mlirOpResultGetOwner(v), "nn.constant")) break;
    ins[got] = strataTensorFromAttr(strataOpAttr(mlirOpResultGetOwner(v), "value"));
    if (!ins[got]) break;
  }
  MlirAttribute value = none;
  StrataTensor *out = got == n ? strataTensorCreateForType(rt) : NULL;
  /* An op that does not verify is left to the verifier's located error. */
  if (out && mlirLogicalResultIsSuccess(strataVerifyOp(def, op)) &&
      mlirLogicalResultIsSuccess(def->interpret(NULL, op, ins, &out)))
    value = strataTensorToAttr(rt, out);
  for (intptr_t i = 0; i < got; i++) strataTensorDestroy(ins[i]);
  strataTensorDestroy(out);
  return value;
}
