/* --nn-fuse-report: what fusion did to each function, in the columns of
 * DNNFusion's Table 3.5 -- layers before (CIL: Many-to-Many layers, whose
 * input elements are each used more than once; MIL: the rest), layers
 * after, intermediate-result (IRS) bytes before and after -- and the fused
 * blocks with their mapping types and original ops. Reads the
 * `strata.fused` tags, so it also works on IR fused earlier. */
#include <string.h>
#include "fuse_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "strata/pass.h"
#include "strata/support.h"

typedef struct {
  StrataContext *ctx;
  int cil, mil, blocks, multi, loose;
  double irsBefore, irsAfter;
} Totals;

static MlirAttribute fusedTag(MlirOperation op) {
  return mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("strata.fused"));
}

/* True if `v` is read by anything but the function's return (following a
 * block's yield to the block's result, and a probe to what reads it). */
static bool feedsAnotherLayer(MlirValue v) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (strataOpIsNamed(user, "func.return")) continue;
    if (strataInstrIsProbe(user, NULL)) {
      if (feedsAnotherLayer(mlirOperationGetResult(user, 0))) return true;
      continue;
    }
    if (strataOpIsNamed(user, "scf.yield")) {
      MlirOperation region = mlirOperationGetParentOperation(user);
      if (feedsAnotherLayer(mlirOperationGetResult(region, mlirOpOperandGetOperandNumber(u)))) return true;
      continue;
    }
    return true;
  }
  return false;
}

static void countLayer(Totals *t, MlirOperation op) {
  const StrataOpDef *def = strataContextGetOpDef(t->ctx, op);
  if (strataOpMappingType(def, op) == STRATA_MAP_MANY_TO_MANY) t->cil++;
  else t->mil++;
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++) {
    MlirValue v = mlirOperationGetResult(op, r);
    if (feedsAnotherLayer(v)) t->irsBefore += strataTypeBytes(mlirValueGetType(v));
  }
}

/* Probes are no layers: the report of an instrumented function is the
 * report of the function without its probes. */
static bool isLayer(Totals *t, MlirOperation op) {
  return strataContextGetOpDef(t->ctx, op) && !strataOpIsNamed(op, "nn.constant") && !strataInstrIsProbe(op, NULL);
}

static void reportBlock(Totals *t, MlirOperation region, FILE *out) {
  MlirAttribute tag = fusedTag(region);
  MlirAttribute id = mlirDictionaryAttrGetElementByName(tag, mlirStringRefCreateFromCString("id"));
  MlirAttribute map = mlirDictionaryAttrGetElementByName(tag, mlirStringRefCreateFromCString("mapping"));
  int n = 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(region, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (isLayer(t, op)) countLayer(t, op), n++;
  for (intptr_t r = 0; r < mlirOperationGetNumResults(region); r++) {
    MlirValue v = mlirOperationGetResult(region, r);
    if (feedsAnotherLayer(v)) t->irsAfter += strataTypeBytes(mlirValueGetType(v));
  }
  t->blocks++;
  if (n < 2) return; /* list the fused blocks only */
  t->multi++;
  MlirStringRef m = mlirAttributeIsAString(map) ? mlirStringAttrGetValue(map) : mlirStringRefCreateFromCString("?");
  fprintf(out, "  block %lld  %.*s  %d ops:", mlirAttributeIsAInteger(id) ? (long long)mlirIntegerAttrGetValueInt(id) : -1LL,
          (int)m.length, m.data, n);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!isLayer(t, op)) continue;
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
    fprintf(out, " %.*s", (int)name.length, name.data);
  }
  fputc('\n', out);
}

void fuseReportFunction(StrataContext *ctx, MlirOperation func, FILE *out) {
  Totals t = {ctx, 0, 0, 0, 0, 0, 0, 0};
  MlirAttribute sym = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name"));
  MlirStringRef name = mlirStringAttrGetValue(sym);
  fprintf(out, "nn-fuse-report @%.*s\n", (int)name.length, name.data);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!mlirAttributeIsNull(fusedTag(op))) reportBlock(&t, op, out);
    else if (isLayer(&t, op)) {
      countLayer(&t, op);
      t.loose++;
      for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++) {
        MlirValue v = mlirOperationGetResult(op, r);
        if (feedsAnotherLayer(v)) t.irsAfter += strataTypeBytes(mlirValueGetType(v));
      }
    }
  }
  int before = t.cil + t.mil, after = t.blocks + t.loose;
  fprintf(out, "  layers before: %d (CIL %d, MIL %d)\n", before, t.cil, t.mil);
  fprintf(out, "  layers after: %d (%d blocks, %d of several ops", after, t.blocks, t.multi);
  if (t.loose) fprintf(out, "; %d ops outside blocks", t.loose);
  fprintf(out, "), fusion rate %.2fx\n", after ? (double)before / after : 1.0);
  fprintf(out, "  intermediate bytes before: %.0f (%.2f MB)\n", t.irsBefore, t.irsBefore / 1e6);
  fprintf(out, "  intermediate bytes after: %.0f (%.2f MB)\n", t.irsAfter, t.irsAfter / 1e6);
}

static void runReport(StrataPassRun *run, MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f))
    if (strataOpIsNamed(f, "func.func") && !mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0))))
      fuseReportFunction(strataPassGetContext(run), f, stderr);
}

const StrataPassDef strataNnFuseReportPass = {
    .name = "nn-fuse-report",
    .summary = "Print layers, fused blocks and intermediate bytes before/after fusion (Table 3.5)",
    .anchor = "builtin.module",
    .run = runReport,
};
