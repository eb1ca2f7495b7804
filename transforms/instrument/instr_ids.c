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

bool strataInstrIsTarget(StrataContext *ctx, MlirOperation op) {
  return strataOpIsObservable(ctx, op);
}

typedef struct {
  StrataContext *ctx;
  int64_t max, next, assigned;
} AssignWalk;

static MlirWalkResult findMax(MlirOperation op, void *user) {
  AssignWalk *w = user;
  int64_t id = strataInstrIsTarget(w->ctx, op) ? strataInstrGetOpId(op) : -1;
  if (id > w->max) w->max = id;
  return MlirWalkResultAdvance;
}

static MlirWalkResult assignOne(MlirOperation op, void *user) {
  AssignWalk *w = user;
  if (!strataInstrIsTarget(w->ctx, op) || strataInstrGetOpId(op) >= 0) return MlirWalkResultAdvance;
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString(STRATA_INSTR_OP_ID_ATTR),
                                  strataI64Attr(mlirOperationGetContext(op), w->next++));
  w->assigned++;
  return MlirWalkResultAdvance;
}

int64_t strataInstrAssignIds(StrataContext *ctx, MlirOperation root) {
  AssignWalk w = {ctx, -1, 0, 0};
  mlirOperationWalk(root, findMax, &w, MlirWalkPreOrder);
  w.next = w.max + 1;
  mlirOperationWalk(root, assignOne, &w, MlirWalkPreOrder);
  return w.assigned;
}

static void runAssignIds(StrataPassRun *run, MlirOperation root) {
  strataInstrAssignIds(strataPassGetContext(run), root);
}

const StrataPassDef strataInstrAssignIdsPass = {
    .name = "instr-assign-ids",
    .summary = "Give every observable op (nn ops but nn.constant, other dialects' marked ops) a "
               "stable instr.op_id, once; existing ids stay",
    .anchor = "builtin.module",
    .run = runAssignIds,
};
