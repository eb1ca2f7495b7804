/* Nests of an nn-fuse block that gpu-fuse-blocks could not give a common
 * loop but that share no buffer one of them writes (gpu_fuse.h): a bias
 * add whose result the block yields, beside the batched matmul that
 * recomputes it in its loads (attention's scores). Their iterations are
 * independent, so they run as one loop over the larger iteration count:
 * work-item i runs iteration i of each nest that has one, its induction
 * variables split from i in row-major order. */
#include <stdlib.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/support.h"
#include "gpu_fuse.h"

enum { MAX_DIMS = 16 };

bool gpuFuseTripCounts(GpuNest n, int64_t *trips, int64_t *total) {
  *total = 1;
  for (intptr_t f = 0; f < n.dims; f++) {
    int64_t lb, ub, step;
    if (!gpuFuseConstIndex(mlirOperationGetOperand(n.op, f), &lb) ||
        !gpuFuseConstIndex(mlirOperationGetOperand(n.op, n.dims + f), &ub) ||
        !gpuFuseConstIndex(mlirOperationGetOperand(n.op, 2 * n.dims + f), &step) || step < 1)
      return false;
    trips[f] = ub > lb ? (ub - lb + step - 1) / step : 0;
    *total *= trips[f];
    if (*total > ((int64_t)1 << 31)) return false;
  }
  return true;
}

typedef struct {
  MlirValue root;
  bool write;
} Use;

typedef struct {
  Use *items;
  size_t count, cap;
  bool oom;
} Uses;

static MlirWalkResult collect(MlirOperation op, void *user) {
  Uses *u = user;
  if (gpuFuseIsView(op)) return MlirWalkResultAdvance;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!mlirTypeIsAMemRef(mlirValueGetType(v))) continue;
    if (u->count == u->cap) {
      size_t cap = u->cap ? 2 * u->cap : 16;
      Use *grown = realloc(u->items, cap * sizeof *grown);
      if (!grown) {
        u->oom = true;
        return MlirWalkResultInterrupt;
      }
      u->items = grown, u->cap = cap;
    }
    bool read = strataOpIsNamed(op, "memref.load") || (strataOpIsNamed(op, "memref.store") && i != 1) ||
                (strataOpIsNamed(op, "memref.copy") && i == 0);
    u->items[u->count++] = (Use){gpuFuseRootOf(v), !read};
  }
  return MlirWalkResultAdvance;
}

/* True if no buffer that one of a and b writes is touched by the other. */
static bool independent(MlirOperation a, MlirOperation b, bool *oom) {
  Uses ua = {0}, ub = {0};
  mlirOperationWalk(a, collect, &ua, MlirWalkPreOrder);
  mlirOperationWalk(b, collect, &ub, MlirWalkPreOrder);
  bool ok = !ua.oom && !ub.oom;
  *oom = *oom || !ok;
  for (size_t i = 0; ok && i < ua.count; i++)
    for (size_t j = 0; ok && j < ub.count; j++)
      ok = !(mlirValueEqual(ua.items[i].root, ub.items[j].root) && (ua.items[i].write || ub.items[j].write));
  free(ua.items);
  free(ub.items);
  return ok;
}

/* Moves nest `n` into `body` (of a one-dimensional loop over `count`
 * iterations, induction variable `id`) before its terminator, under
 * `id < total` unless total == count. */
static void moveIn(GpuNest n, const int64_t *trips, int64_t total, int64_t count, MlirBlock body) {
  MlirContext ctx = mlirOperationGetContext(n.op);
  MlirLocation loc = mlirOperationGetLocation(n.op);
  MlirType index = strataIndexType(ctx);
  MlirValue id = mlirBlockGetArgument(body, 0);
  MlirOperation anchor = mlirBlockGetTerminator(body);
  StrataBuilder b = strataBuilderBefore(anchor, (MlirRewriterBase){NULL});
  if (total < count) {
    MlirAttribute ult = mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 6);
    MlirValue cond = strataResult(strataCreateOp(&b, "arith.cmpi", loc,
                                                 .operands = STRATA_VALUES(id, strataConstInt(&b, loc, index, total)),
                                                 .results = STRATA_TYPES(mlirIntegerTypeGet(ctx, 1)),
                                                 .attrs = STRATA_ATTRS({"predicate", ult})),
                                  0);
    MlirOperation guard = strataCreateOp(&b, "scf.if", loc, .operands = STRATA_VALUES(cond), .numRegions = 2);
    MlirBlock then = strataAddBlock(guard, 0, (StrataTypeList){NULL, 0}, loc);
    StrataBuilder e = strataBuilderAtEnd(ctx, then);
    anchor = strataCreateOp(&e, "scf.yield", loc);
    b = strataBuilderBefore(anchor, (MlirRewriterBase){NULL});
  }
  MlirBlock old = mlirRegionGetFirstBlock(mlirOperationGetRegion(n.op, 0));
  int64_t inner = 1;
  for (intptr_t f = n.dims - 1; f >= 0; f--) {
    MlirValue v = id;
    if (inner > 1) v = gpuFuseBinary(&b, "arith.divui", loc, v, strataConstInt(&b, loc, index, inner));
    if (f > 0) v = gpuFuseBinary(&b, "arith.remui", loc, v, strataConstInt(&b, loc, index, trips[f]));
    v = gpuFuseBinary(&b, "arith.muli", loc, v, mlirOperationGetOperand(n.op, 2 * n.dims + f));
    v = gpuFuseBinary(&b, "arith.addi", loc, v, mlirOperationGetOperand(n.op, f));
    inner *= trips[f];
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(old, f), v);
  }
  gpuFuseMoveBody(old, anchor);
  mlirOperationDestroy(n.op);
}

/* One loop for nests a and b (a before b, only setup ops between). */
static GpuNest merge(GpuNest a, const int64_t *tripsA, int64_t totalA, GpuNest b, const int64_t *tripsB,
                     int64_t totalB) {
  for (MlirOperation op = mlirOperationGetNextInBlock(a.op); !mlirOperationEqual(op, b.op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    mlirOperationMoveBefore(op, a.op);
    op = next;
  }
  MlirContext ctx = mlirOperationGetContext(a.op);
  MlirLocation loc = mlirOperationGetLocation(a.op);
  MlirType index = strataIndexType(ctx);
  int64_t count = totalA > totalB ? totalA : totalB;
  StrataBuilder sb = strataBuilderBefore(a.op, (MlirRewriterBase){NULL});
  MlirValue lb = strataConstInt(&sb, loc, index, 0), ub = strataConstInt(&sb, loc, index, count),
            step = strataConstInt(&sb, loc, index, 1);
  MlirOperation par = gpuFuseNewParallel(a.op, &lb, &ub, &step, 1);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(par, 0));
  moveIn(a, tripsA, totalA, count, body);
  moveIn(b, tripsB, totalB, count, body);
  return (GpuNest){par, 1};
}

void gpuFuseIndependent(MlirBlock body) {
  GpuNest run = {{NULL}, 0};
  int64_t tripsRun[MAX_DIMS], totalRun = 0;
  bool oom = false;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op) && !oom;) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    GpuNest n = {op, 0};
    int64_t trips[MAX_DIMS], total;
    if (gpuFuseIsNest(op, &n.dims) && n.dims <= MAX_DIMS && gpuFuseTripCounts(n, trips, &total) && total > 0) {
      if (run.op.ptr && independent(run.op, op, &oom)) {
        run = merge(run, tripsRun, totalRun, n, trips, total);
        totalRun = totalRun > total ? totalRun : total;
        tripsRun[0] = totalRun;
      } else {
        run = n, totalRun = total;
        for (intptr_t f = 0; f < n.dims; f++) tripsRun[f] = trips[f];
      }
    } else if (!gpuFuseIsSetup(op)) {
      run.op = (MlirOperation){NULL};
    }
    op = next;
  }
}
