/* The nn dialect: its IRDL definition and its op tables, one per category. */
#include "nn_internal.h"

extern const char strata_nn_irdl[];

static const StrataOpTable *const kTables[] = {
    &nnShapeTable, &nnElementwiseTable, &nnLinearTable, &nnReduceTable, &nnPoolNormTable,
    &nnMovementTable, &nnQuantTable,
};

const StrataDialectDef strataNnDialect = {
    "nn", strata_nn_irdl, "nn.irdl.mlir", kTables, sizeof kTables / sizeof kTables[0],
};

MlirLogicalResult strataInferResultTypes(StrataContext *ctx, MlirOperation op) {
  const StrataOpDef *def = strataGetOpDef(ctx, op);
  if (!def || !def->infer) {
    MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
    strataEmitError(mlirOperationGetLocation(op), "'%.*s' is not a Strata op with shape inference",
                    (int)n.length, n.data);
    return mlirLogicalResultFailure();
  }
  intptr_t n = mlirOperationGetNumResults(op);
  StrataShape shapes[n ? n : 1];
  if (mlirLogicalResultIsFailure(def->infer(def, op, shapes))) return mlirLogicalResultFailure();
  for (intptr_t i = 0; i < n; i++)
    mlirValueSetType(mlirOperationGetResult(op, i),
                     strataTensorType(shapes[i].elementType, shapes[i].rank, shapes[i].dims));
  return mlirLogicalResultSuccess();
}

const char *nn_mapping_doc(const StrataOpDef *def) {
  if (def->mapping == nnMapElementwise) return "One-to-One (One-to-Many when an operand broadcasts)";
  return strataMappingTypeName(def->mapping((MlirOperation){NULL}));
}
