/* --gpu-fuse-blocks: one GPU kernel per nn-fuse block. Runs on bufferized
 * IR after convert-linalg-to-parallel-loops, while the blocks are still
 * scf.execute_region ops, and dissolves them after, as
 * fused-blocks-inline does before bufferization. In each block, a run of top-level scf.parallel nests separated
 * only by allocations, constants and views becomes one scf.parallel over
 * the nests' common outer parallel dimensions (gpu_fuse_legal.c says how
 * many are legal); inside it each nest's remaining dimensions run as
 * sequential scf.for loops, in program order. A convolution or matmul with
 * its epilogue shares all its parallel dimensions; a softmax or layer norm
 * over the last axis shares the rows. The allocations and views between
 * the nests move before the fused loop. A nest whose dimensions run in
 * another order is permuted to line up (gpu_fuse_permute.c); a run that
 * would share only dimensions of one iteration is not formed; runs left
 * that share no buffer one of them writes become one loop
 * (gpu_fuse_independent.c). */
#include <stdlib.h>
#include "mlir-c/BuiltinAttributes.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/support.h"
#include "gpu_fuse.h"

bool gpuFuseIsSetup(MlirOperation op) {
  if (gpuFuseIsView(op)) return true;
  static const char *const names[] = {"memref.alloc", "memref.alloca", "memref.get_global", "arith.constant",
                                      "affine.apply"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (strataOpIsNamed(op, names[i])) return true;
  return false;
}

/* A new single-block loop op before `at` with one index argument and its
 * terminator; returns the block. */
static MlirBlock newLoop(MlirOperation at, const char *name, const char *end, MlirValue lb, MlirValue ub,
                         MlirValue step, MlirValue *iv) {
  MlirContext ctx = mlirOperationGetContext(at);
  MlirLocation loc = mlirOperationGetLocation(at);
  StrataBuilder b = strataBuilderBefore(at, (MlirRewriterBase){NULL});
  MlirOperation loop = strataCreateOp(&b, name, loc, .operands = STRATA_VALUES(lb, ub, step), .numRegions = 1);
  MlirBlock body = strataAddBlock(loop, 0, STRATA_TYPES(strataIndexType(ctx)), loc);
  StrataBuilder e = strataBuilderAtEnd(ctx, body);
  strataCreateOp(&e, end, loc);
  *iv = mlirBlockGetArgument(body, 0);
  return body;
}

MlirOperation gpuFuseNewParallel(MlirOperation before, const MlirValue *lb, const MlirValue *ub, const MlirValue *step,
                                 intptr_t n) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirLocation loc = mlirOperationGetLocation(before);
  MlirValue operands[48];
  MlirType index = strataIndexType(ctx), types[16];
  for (intptr_t f = 0; f < n; f++)
    operands[f] = lb[f], operands[n + f] = ub[f], operands[2 * n + f] = step[f], types[f] = index;
  const int32_t segments[4] = {(int32_t)n, (int32_t)n, (int32_t)n, 0};
  StrataBuilder b = strataBuilderBefore(before, (MlirRewriterBase){NULL});
  MlirOperation par = strataCreateOp(&b, "scf.parallel", loc, .operands = {operands, 3 * n},
                                     .attrs = STRATA_ATTRS({"operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 4, segments)}),
                                     .numRegions = 1);
  MlirBlock body = strataAddBlock(par, 0, (StrataTypeList){types, n}, loc);
  StrataBuilder e = strataBuilderAtEnd(ctx, body);
  strataCreateOp(&e, "scf.reduce", loc);
  return par;
}

void gpuFuseMoveBody(MlirBlock from, MlirOperation anchor) {
  MlirOperation end = mlirBlockGetTerminator(from);
  for (MlirOperation op = mlirBlockGetFirstOperation(from); !mlirOperationEqual(op, end);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    mlirOperationMoveBefore(op, anchor);
    op = next;
  }
}

/* Moves nest `n` into the fused loop's body (before its terminator): its
 * first p induction variables become the fused loop's, the others loops of
 * their own. */
static void moveNest(GpuNest n, intptr_t p, MlirBlock fused) {
  MlirBlock old = mlirRegionGetFirstBlock(mlirOperationGetRegion(n.op, 0));
  MlirOperation anchor = mlirBlockGetTerminator(fused);
  for (intptr_t f = 0; f < n.dims; f++) {
    MlirValue iv = mlirBlockGetArgument(fused, f);
    if (f >= p) {
      MlirBlock body = newLoop(anchor, "scf.for", "scf.yield", mlirOperationGetOperand(n.op, f),
                               mlirOperationGetOperand(n.op, n.dims + f), mlirOperationGetOperand(n.op, 2 * n.dims + f), &iv);
      anchor = mlirBlockGetTerminator(body);
    }
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(old, f), iv);
  }
  gpuFuseMoveBody(old, anchor);
  mlirOperationDestroy(n.op);
}

static void fuse(GpuNest *nests, int n, intptr_t p) {
  MlirOperation first = nests[0].op, last = nests[n - 1].op;
  for (MlirOperation op = mlirOperationGetNextInBlock(first); !mlirOperationEqual(op, last);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (gpuFuseIsSetup(op)) mlirOperationMoveBefore(op, first);
    op = next;
  }
  MlirValue bounds[48];
  intptr_t dims = nests[0].dims;
  for (intptr_t i = 0; i < 3 * dims; i++) bounds[i] = mlirOperationGetOperand(first, i);
  MlirOperation par = gpuFuseNewParallel(first, bounds, bounds + dims, bounds + 2 * dims, p);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(par, 0));
  for (int k = 0; k < n; k++) moveNest(nests[k], p, body);
}

/* A reduction over an outer dimension: `scf.for i { scf.parallel j {..} }`
 * becomes `scf.parallel j { scf.for i {..} }` when every buffer the nest
 * writes is partitioned by j (so iterations of different j never meet, at
 * any i), making it a nest that can join the others. */
static bool interchange(MlirOperation loop) {
  if (!strataOpIsNamed(loop, "scf.for") || mlirOperationGetNumResults(loop) || mlirOperationGetNumOperands(loop) != 3)
    return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  MlirOperation par = mlirBlockGetFirstOperation(body);
  intptr_t dims;
  if (!gpuFuseIsNest(par, &dims) || !mlirOperationEqual(mlirOperationGetNextInBlock(par), mlirBlockGetTerminator(body)))
    return false;
  MlirValue iv = mlirBlockGetArgument(body, 0);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(par); i++)
    if (mlirValueEqual(mlirOperationGetOperand(par, i), iv)) return false;
  MlirBlock inner = mlirRegionGetFirstBlock(mlirOperationGetRegion(par, 0));
  MlirOperation end = mlirBlockGetTerminator(inner), first = mlirBlockGetFirstOperation(inner);
  bool oom = false;
  if (mlirOperationEqual(first, end) || gpuFuseLegalPrefix(&(GpuNest){par, dims}, 1, true, &oom) != dims) return false;
  mlirOperationMoveBefore(par, loop);
  MlirValue newIv;
  MlirBlock loopBody = newLoop(end, "scf.for", "scf.yield", mlirOperationGetOperand(loop, 0),
                               mlirOperationGetOperand(loop, 1), mlirOperationGetOperand(loop, 2), &newIv);
  MlirOperation anchor = mlirBlockGetTerminator(loopBody), wrapper = mlirBlockGetParentOperation(loopBody);
  for (MlirOperation op = first; !mlirOperationEqual(op, wrapper);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    mlirOperationMoveBefore(op, anchor);
    op = next;
  }
  mlirValueReplaceAllUsesOfWith(iv, newIv);
  mlirOperationDestroy(loop);
  return true;
}

enum { MAX_GROUP = 256 };

/* True if the first p dimensions of `n` run once (N of an NCHW tensor): a
 * loop over them would be one work-item, and canonicalize would unwrap it
 * into top-level loops that each become a kernel of one work-item. */
static bool unitPrefix(GpuNest n, intptr_t p) {
  int64_t trips[16], total;
  if (!gpuFuseTripCounts(n, trips, &total)) return false;
  int64_t prefix = 1;
  for (intptr_t f = 0; f < p; f++) prefix *= trips[f];
  return prefix == 1;
}

typedef struct {
  GpuNest nests[MAX_GROUP];
  int count;
  intptr_t prefix;
} Group;

static void flush(Group *g) {
  if (g->count > 1) fuse(g->nests, g->count, g->prefix);
  g->count = 0;
}

/* Greedy: a nest joins the run before it while the run stays legal. */
static bool fuseBlock(MlirBlock body) {
  gpuFuseLowerCopies(body);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    interchange(op);
    op = next;
  }
  gpuFuseInlineProducers(body);
  Group *g = calloc(1, sizeof *g);
  if (!g) return false;
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    intptr_t dims;
    if (gpuFuseIsNest(op, &dims) && dims <= 16) {
      g->nests[g->count] = (GpuNest){op, dims};
      intptr_t p = dims;
      if (g->count) {
        bool oom = false;
        p = gpuFuseLegalPrefix(g->nests, g->count + 1, false, &oom);
        if (!oom && p < g->prefix && p < dims) p = gpuFusePermuteToJoin(g->nests, g->count, g->prefix, p, &oom);
        op = g->nests[g->count].op;
        if (p > 0 && unitPrefix(g->nests[0], p)) p = 0;
        ok = ok && !oom;
      }
      if (p > 0 && g->count + 1 < MAX_GROUP) {
        g->count++, g->prefix = p;
      } else {
        flush(g);
        g->nests[0] = (GpuNest){op, dims};
        g->count = 1, g->prefix = dims;
      }
    } else if (!gpuFuseIsSetup(op)) {
      flush(g);
    }
    op = next;
  }
  flush(g);
  free(g);
  gpuFuseIndependent(body);
  return ok;
}

/* nn-fuse's blocks: bufferization keeps an scf.execute_region's
 * no_inline but not its strata.fused tag, and nothing else in these
 * pipelines makes no_inline regions. */
static MlirWalkResult collect(MlirOperation op, void *user) {
  if (strataOpIsNamed(op, "scf.execute_region") && !mlirAttributeIsNull(strataOpAttr(op, "no_inline")))
    return strataOpListAppend(user, op) ? MlirWalkResultAdvance : MlirWalkResultInterrupt;
  return MlirWalkResultAdvance;
}

/* What fused-blocks-inline does before bufferization: the block's ops move
 * before it and its results become what it yielded. */
static void dissolve(MlirOperation region, MlirBlock body) {
  MlirOperation yield = mlirBlockGetTerminator(body);
  for (intptr_t r = 0; r < mlirOperationGetNumResults(region); r++)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(region, r), mlirOperationGetOperand(yield, r));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationEqual(op, yield);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    mlirOperationMoveBefore(op, region);
    op = next;
  }
  mlirOperationDestroy(region);
}

static void runFuseBlocks(StrataPassRun *run, MlirOperation root) {
  StrataOpList blocks = {0};
  mlirOperationWalk(root, collect, &blocks, MlirWalkPostOrder);
  bool ok = true;
  for (size_t i = 0; ok && i < blocks.count; i++) {
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(blocks.ops[i], 0));
    if (mlirBlockIsNull(body) || !mlirBlockIsNull(mlirBlockGetNextInRegion(body))) continue;
    ok = fuseBlock(body);
    dissolve(blocks.ops[i], body);
  }
  strataOpListDestroy(&blocks);
  if (!ok) {
    strataEmitError(mlirOperationGetLocation(root), "gpu-fuse-blocks: out of memory");
    strataPassSignalFailure(run);
  }
}

const StrataPassDef strataGpuFuseBlocksPass = {
    .name = "gpu-fuse-blocks",
    .summary = "One GPU kernel per nn-fuse block: a block's parallel loop nests (after bufferization and "
               "convert-linalg-to-parallel-loops) fused into one scf.parallel over their common outer "
               "parallel dimensions, the rest sequential in each work-item; the blocks then dissolve",
    .run = runFuseBlocks,
};
