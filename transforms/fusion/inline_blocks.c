/* --fused-blocks-inline: the last step of fused code generation. Once a
 * block's ops are lowered (and its element-wise loops fused into one nest,
 * which the region boundary kept from reaching other blocks), the tagged
 * scf.execute_region is dissolved into its parent block. */
#include "mlir-c/BuiltinAttributes.h"
#include "strata/pass.h"
#include "strata/support.h"
#include "fuse_internal.h"

typedef struct {
  StrataOpList found;
  bool oom;
} Collect;

static MlirWalkResult collect(MlirOperation op, void *user) {
  Collect *c = user;
  if (!strataOpIsNamed(op, "scf.execute_region") ||
      mlirAttributeIsNull(mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("strata.fused"))))
    return MlirWalkResultAdvance;
  if (strataOpListAppend(&c->found, op)) return MlirWalkResultAdvance;
  c->oom = true;
  return MlirWalkResultInterrupt;
}

bool fuseCollectBlocks(MlirOperation root, StrataOpList *out) {
  Collect c = {{0}, false};
  mlirOperationWalk(root, collect, &c, MlirWalkPostOrder);
  *out = c.found;
  if (c.oom) strataOpListFree(out);
  return !c.oom;
}

static void dissolve(MlirOperation region) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(region, 0));
  if (mlirBlockIsNull(body) || !mlirBlockIsNull(mlirBlockGetNextInRegion(body))) return;
  MlirOperation yield = mlirBlockGetTerminator(body);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationEqual(op, yield);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    mlirOperationMoveBefore(op, region);
    op = next;
  }
  for (intptr_t r = 0; r < mlirOperationGetNumResults(region); r++)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(region, r), mlirOperationGetOperand(yield, r));
  mlirOperationDestroy(region);
}

static void runInline(StrataPassRun *run, MlirOperation root) {
  StrataOpList found;
  if (!fuseCollectBlocks(root, &found)) {
    strataEmitError(mlirOperationGetLocation(root), "fused-blocks-inline: out of memory");
    strataPassSignalFailure(run);
    return;
  }
  for (size_t i = 0; i < found.count; i++) dissolve(found.ops[i]);
  strataOpListFree(&found);
}

const StrataPassDef strataFusedBlocksInlinePass = {
    .name = "fused-blocks-inline",
    .summary = "Dissolve the tagged scf.execute_region blocks of nn-fuse into their parent "
               "(after their ops are lowered)",
    .run = runInline,
};
