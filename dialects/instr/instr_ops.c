/* The instr dialect: its IRDL definition and its op table. `instr.probe`
 * passes one tensor through unchanged; what it reports is decided when it
 * is lowered (instr-to-runtime calls the runtime sink of its `tool`). The
 * reference interpreter runs it as the identity, so instrumented IR still
 * interprets. */
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/instrument.h"
#include "strata/support.h"

extern const char strata_instr_irdl[];

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }
static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

/* A non-negative integer attribute; a located error otherwise. */
static bool checkIndexAttr(MlirOperation op, const char *name) {
  MlirAttribute a = strataOpAttr(op, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a) || mlirIntegerAttrGetValueInt(a) < 0) {
    strataEmitError(mlirOperationGetLocation(op),
                    "'instr.probe' op needs attribute '%s': a non-negative integer", name);
    return false;
  }
  return true;
}

/* A non-empty string attribute, one of '|'-separated `choices` if given. */
static bool checkStringAttr(MlirOperation op, const char *name, const char *choices,
                            const char *expected) {
  MlirAttribute a = strataOpAttr(op, name);
  bool good = !mlirAttributeIsNull(a) && mlirAttributeIsAString(a) &&
              mlirStringAttrGetValue(a).length > 0;
  if (good && choices) {
    MlirStringRef v = mlirStringAttrGetValue(a);
    good = false;
    for (const char *p = choices; *p && !good;) {
      size_t len = strcspn(p, "|");
      good = len == v.length && !strncmp(p, v.data, len);
      p += len + (p[len] == '|');
    }
  }
  if (!good)
    strataEmitError(mlirOperationGetLocation(op), "'instr.probe' op needs attribute '%s': %s",
                    name, expected);
  return good;
}

static MlirLogicalResult inferProbe(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  (void)def;
  if (!checkIndexAttr(op, "op_id") || !checkIndexAttr(op, "index") ||
      !checkStringAttr(op, "point", "before|after", "\"before\" or \"after\"") ||
      !checkStringAttr(op, "tool", NULL, "a non-empty string") ||
      !checkStringAttr(op, "op_name", NULL, "a non-empty string"))
    return fail();
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
  if (!strataGetShape(t, &res->rank, res->dims)) {
    strataEmitError(mlirOperationGetLocation(op), "'instr.probe' op needs a ranked tensor operand");
    return fail();
  }
  res->elementType = mlirShapedTypeGetElementType(t);
  return ok();
}

/* The identity: the probe's output is its input. */
static MlirLogicalResult interpProbe(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                     StrataTensor **y) {
  (void)in;
  (void)op;
  if (!y[0]) y[0] = strataTensorCreate(x[0]->dtype, x[0]->rank, x[0]->dims);
  if (!y[0] || y[0]->dtype != x[0]->dtype) return fail();
  memcpy(y[0]->data, x[0]->data, strataTensorNumBytes(x[0]));
  return ok();
}

static const StrataOpDef kOps[] = {
    {"instr.probe", "passes `input` through unchanged; reports it (or only the point it is "
     "reached) to the runtime sink of `tool` when lowered", "input", "output", 0, inferProbe,
     interpProbe, NULL, STRATA_DYN_ISDO, NULL, "any"},
};

static const StrataOpTable kProbeTable = {kOps, sizeof kOps / sizeof kOps[0]};
static const StrataOpTable *const kTables[] = {&kProbeTable};

const StrataDialectDef strataInstrDialect = {
    "instr", strata_instr_irdl, "instr.irdl.mlir", kTables, sizeof kTables / sizeof kTables[0],
};
