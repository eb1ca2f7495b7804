/* --fused-blocks-inline: the last step of fused code generation. Once a
 * block's ops are lowered (and its element-wise loops fused into one nest,
 * which the region boundary kept from reaching other blocks), the tagged
 * scf.execute_region is dissolved into its parent block. */
#include <stdlib.h>
#include "mlir-c/BuiltinAttributes.h"
#include "strata/pass.h"
#include "strata/support.h"

typedef struct {
  MlirOperation *ops;
  int count, cap;
} Found;

static MlirWalkResult collect(MlirOperation op, void *user) {
  Found *f = user;
  if (!strataOpIsNamed(op, "scf.execute_region") ||
      mlirAttributeIsNull(mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("strata.fused"))))
    return MlirWalkResultAdvance;
  if (f->count == f->cap) {
    f->cap = f->cap ? 2 * f->cap : 64;
    f->ops = realloc(f->ops, (size_t)f->cap * sizeof *f->ops);
  }
  f->ops[f->count++] = op;
  return MlirWalkResultAdvance;
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
  (void)run;
  Found f = {NULL, 0, 0};
  mlirOperationWalk(root, collect, &f, MlirWalkPostOrder);
  for (int i = 0; i < f.count; i++) dissolve(f.ops[i]);
  free(f.ops);
}

const StrataPassDef strataFusedBlocksInlinePass = {
    .name = "fused-blocks-inline",
    .summary = "Dissolve the tagged scf.execute_region blocks of nn-fuse into their parent "
               "(after their ops are lowered)",
    .run = runInline,
};
