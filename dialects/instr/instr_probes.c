/* The instr dialect's probe queries, for the passes that see through them (nn-fuse,
 * nn-raise, nn-to-kernels): a probe passes its operand through unchanged,
 * so these passes look past it, and for the `profile` tool's probes (which
 * read no value) past the ops' own points. */
#include "mlir-c/BuiltinAttributes.h"
#include "strata/instrument.h"
#include "strata/support.h"

static bool strAttrIs(MlirOperation op, const char *name, const char *value) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAString(a) &&
         mlirStringRefEqual(mlirStringAttrGetValue(a), mlirStringRefCreateFromCString(value));
}

int64_t strataInstrGetOpId(MlirOperation op) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(STRATA_INSTR_OP_ID_ATTR));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a) ? mlirIntegerAttrGetValueInt(a) : -1;
}

bool strataInstrIsProbe(MlirOperation op, const char *tool) {
  return !mlirOperationIsNull(op) && strataOpIsNamed(op, "instr.probe") && (!tool || strAttrIs(op, "tool", tool));
}

bool strataInstrIsProbeOf(MlirOperation probe, const char *tool, const char *point, MlirOperation op) {
  if (!strataInstrIsProbe(probe, tool) || !strAttrIs(probe, "point", point)) return false;
  MlirAttribute id = mlirOperationGetAttributeByName(probe, mlirStringRefCreateFromCString("op_id"));
  int64_t opId = strataInstrGetOpId(op);
  return opId >= 0 && !mlirAttributeIsNull(id) && mlirAttributeIsAInteger(id) &&
         mlirIntegerAttrGetValueInt(id) == opId;
}

MlirValue strataInstrThroughProbes(MlirValue v, const char *tool) {
  while (mlirValueIsAOpResult(v) && strataInstrIsProbe(mlirOpResultGetOwner(v), tool))
    v = mlirOperationGetOperand(mlirOpResultGetOwner(v), 0);
  return v;
}
