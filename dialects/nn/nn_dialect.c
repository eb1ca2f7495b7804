/* The nn dialect: its IRDL definition and its op tables, one per category. */
#include <stdio.h>
#include <string.h>
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
  /* Inference writes one shape per declared result: the op must have that
   * many (a variadic group, at least one). */
  intptr_t n = mlirOperationGetNumResults(op), declared = 1;
  for (const char *p = def->results; *p; p++) declared += *p == ',';
  bool variadic = strchr(def->results, '*') != NULL;
  if (variadic ? n < 1 : n != declared) {
    nnError(op, "has %d results; its definition declares (%s)", (int)n, def->results);
    return mlirLogicalResultFailure();
  }
  StrataShape shapes[n];
  if (mlirLogicalResultIsFailure(def->infer(def, op, shapes))) return mlirLogicalResultFailure();
  for (intptr_t i = 0; i < n; i++) {
    for (int d = 0; d < shapes[i].rank; d++)
      if (shapes[i].dims[d] < -1) { /* an inference that let a bad value through */
        nnError(op, "result #%d would have the negative size %lld at dim %d", (int)i,
                (long long)shapes[i].dims[d], d);
        return mlirLogicalResultFailure();
      }
    MlirType t = strataTensorType(shapes[i].elementType, shapes[i].rank, shapes[i].dims);
    char what[96];
    snprintf(what, sizeof what, "'%s' op result #%d", def->name, (int)i);
    if (!strataCheckType(mlirOperationGetLocation(op), what, t)) return mlirLogicalResultFailure();
    mlirValueSetType(mlirOperationGetResult(op, i), t);
  }
  return mlirLogicalResultSuccess();
}

const char *nn_mapping_doc(const StrataOpDef *def) {
  if (def->mapping == nnMapElementwise) return "One-to-One (One-to-Many when an operand broadcasts)";
  return strataMappingTypeName(def->mapping((MlirOperation){NULL}));
}
