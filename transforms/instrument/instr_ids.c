/* Stable op ids (`instr.op_id`, Amanda's "program counter" of an op) and
 * --instr-assign-ids. Ids are assigned once: later passes move ops (nn-fuse
 * puts them into scf.execute_region blocks) but keep their attributes, so
 * probes, traces and profiles of the same op agree across the pipeline. */
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/support.h"
#include "instr_internal.h"

bool strataInstrIsTarget(MlirOperation op) {
  return strataOpIsInDialect(op, "nn") && !strataOpIsNamed(op, "nn.constant");
}

int64_t strataInstrGetOpId(MlirOperation op) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(STRATA_INSTR_OP_ID_ATTR));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a) ? mlirIntegerAttrGetValueInt(a) : -1;
}

static MlirWalkResult findMax(MlirOperation op, void *user) {
  int64_t *max = user, id = strataInstrIsTarget(op) ? strataInstrGetOpId(op) : -1;
  if (id > *max) *max = id;
  return MlirWalkResultAdvance;
}

typedef struct {
  int64_t next, assigned;
} AssignWalk;

static MlirWalkResult assignOne(MlirOperation op, void *user) {
  AssignWalk *w = user;
  if (!strataInstrIsTarget(op) || strataInstrGetOpId(op) >= 0) return MlirWalkResultAdvance;
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString(STRATA_INSTR_OP_ID_ATTR),
                                  strataI64Attr(mlirOperationGetContext(op), w->next++));
  w->assigned++;
  return MlirWalkResultAdvance;
}

int64_t strataInstrAssignIds(MlirOperation root) {
  int64_t max = -1;
  mlirOperationWalk(root, findMax, &max, MlirWalkPreOrder);
  AssignWalk w = {max + 1, 0};
  mlirOperationWalk(root, assignOne, &w, MlirWalkPreOrder);
  return w.assigned;
}

static void runAssignIds(StrataPassRun *run, MlirOperation root) {
  (void)run;
  strataInstrAssignIds(root);
}

const StrataPassDef strataInstrAssignIdsPass = {
    .name = "instr-assign-ids",
    .summary = "Give every nn op (but nn.constant) a stable instr.op_id, once; existing ids stay",
    .anchor = "builtin.module",
    .run = runAssignIds,
};
