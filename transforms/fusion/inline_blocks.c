/* --fused-blocks-inline: the last step of fused code generation. Once a
 * block's ops are lowered (and its element-wise loops fused into one nest,
 * which the region boundary kept from reaching other blocks), the tagged
 * scf.execute_region is dissolved into its parent block (a pattern rooted
 * at scf.execute_region, applied by the walk driver). fuseCollectBlocks,
 * the walk that finds the blocks, is here too. */
#include "mlir-c/BuiltinAttributes.h"
#include "strata/pass.h"
#include "strata/pattern.h"
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
  if (c.oom) strataOpListDestroy(out);
  return !c.oom;
}

/* The pattern, rooted at scf.execute_region: a tagged single-block
 * region's ops move before it and its results become what it yielded. */
static MlirLogicalResult dissolve(StrataRewrite *rw, MlirOperation region, void *user) {
  (void)user;
  if (mlirAttributeIsNull(strataOpAttr(region, "strata.fused"))) return mlirLogicalResultFailure();
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(region, 0));
  if (mlirBlockIsNull(body) || !mlirBlockIsNull(mlirBlockGetNextInRegion(body))) return mlirLogicalResultFailure();
  MlirOperation yield = mlirBlockGetTerminator(body);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationEqual(op, yield);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    mlirRewriterBaseMoveOpBefore(rw->rewriter, op, region);
    op = next;
  }
  intptr_t n = mlirOperationGetNumResults(region);
  MlirValue yielded[n ? n : 1];
  for (intptr_t r = 0; r < n; r++) yielded[r] = mlirOperationGetOperand(yield, r);
  strataReplaceOp(rw, region, (StrataValueList){yielded, n});
  return mlirLogicalResultSuccess();
}

/* The walk driver dissolves the blocks in post-order (a nested block into
 * its parent first), once each, without folding or erasing anything else. */
static void runInline(StrataPassRun *run, MlirOperation root) {
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(root));
  if (!set) {
    strataEmitError(mlirOperationGetLocation(root), "fused-blocks-inline: out of memory");
    strataPassSignalFailure(run);
    return;
  }
  strataPatternSetAdd(set, "scf.execute_region", 1, dissolve, NULL);
  strataApplyPatternsWalk(set, root);
  strataPatternSetDestroy(set);
}

const StrataPassDef strataFusedBlocksInlinePass = {
    .name = "fused-blocks-inline",
    .summary = "Dissolve the tagged scf.execute_region blocks of nn-fuse into their parent "
               "(after their ops are lowered)",
    .run = runInline,
};
