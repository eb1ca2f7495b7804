/* --gpu-flatten-parallel: prepares a function's top-level loops for the GPU
 * mapping (gpu-map-parallel-loops puts the first dimension of a parallel
 * loop on x, tiled by 64 before it; a dimension past the third runs
 * sequentially in each work-item):
 *   - an scf.parallel with constant bounds and no reductions becomes one
 *     dimension over all its iterations, the original induction variables
 *     recomputed from it, so that every iteration is a work-item (an NCHW
 *     nest with N = 1 would otherwise use one work-item in 64);
 *   - a loop left on the host (an scf.for without results: a reduction of
 *     every dimension, which linalg lowers to sequential loops only) is
 *     wrapped in a one-iteration scf.parallel, so it becomes a kernel of
 *     one work-item instead of host code a GPU target cannot run; so is a
 *     straight run of scalar memref loads, stores and arith/math ops (a
 *     linalg op on 0-d memrefs has no loop at all) whose values stay in
 *     the run. */
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/support.h"

/* A new scf.parallel from 0 to `n` step 1 before `at`, its body a block
 * with the induction variable and (when `terminate`) an scf.reduce. */
static MlirOperation newParallel(MlirOperation at, int64_t n, bool terminate) {
  MlirContext ctx = mlirOperationGetContext(at);
  MlirLocation loc = mlirOperationGetLocation(at);
  StrataBuilder b = strataBuilderBefore(at, (MlirRewriterBase){NULL});
  MlirType index = strataIndexType(ctx);
  MlirValue zero = strataConstInt(&b, loc, index, 0), one = strataConstInt(&b, loc, index, 1);
  MlirValue count = strataConstInt(&b, loc, index, n);
  const int32_t segments[4] = {1, 1, 1, 0};
  MlirOperation par = strataCreateOp(&b, "scf.parallel", loc, .operands = STRATA_VALUES(zero, count, one),
                                     .attrs = STRATA_ATTRS({"operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 4, segments)}),
                                     .numRegions = 1);
  MlirBlock body = strataAddBlock(par, 0, STRATA_TYPES(index), loc);
  if (terminate) {
    StrataBuilder end = strataBuilderAtEnd(ctx, body);
    strataCreateOp(&end, "scf.reduce", loc);
  }
  return par;
}

/* The constant value of index `v`, if it is one. */
static bool constIndex(MlirValue v, int64_t *out) {
  if (!mlirValueIsAOpResult(v)) return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!strataOpIsNamed(def, "arith.constant")) return false;
  MlirAttribute a = strataOpAttr(def, "value");
  if (!mlirAttributeIsAInteger(a)) return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

static MlirValue arith(StrataBuilder *b, const char *name, MlirLocation loc, MlirValue x, MlirValue y) {
  return strataResult(strataCreateOp(b, name, loc, .operands = STRATA_VALUES(x, y),
                                     .results = STRATA_TYPES(mlirValueGetType(x))), 0);
}

/* Moves the ops of `from` (terminator included) to the end of `to`. */
static void moveBody(MlirBlock from, MlirBlock to) {
  for (MlirOperation op = mlirBlockGetFirstOperation(from); !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    mlirOperationRemoveFromParent(op);
    mlirBlockAppendOwnedOperation(to, op);
    op = next;
  }
}

static void flatten(MlirOperation par) {
  intptr_t dims = mlirOperationGetNumOperands(par) / 3;
  if (mlirOperationGetNumResults(par) || dims < 1 || dims > 16 || mlirOperationGetNumOperands(par) != 3 * dims) return;
  int64_t lb[16], ub[16], step[16], trips[16], total = 1;
  for (intptr_t k = 0; k < dims; k++) {
    if (!constIndex(mlirOperationGetOperand(par, k), &lb[k]) || !constIndex(mlirOperationGetOperand(par, dims + k), &ub[k]) ||
        !constIndex(mlirOperationGetOperand(par, 2 * dims + k), &step[k]) || step[k] <= 0)
      return;
    trips[k] = ub[k] > lb[k] ? (ub[k] - lb[k] + step[k] - 1) / step[k] : 0;
    if (!strataCheckedMul(total, trips[k], &total)) return;
  }
  if (dims == 1 && lb[0] == 0 && step[0] == 1) return; /* already flat */
  MlirOperation flat = newParallel(par, total, false);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(flat, 0));
  MlirBlock old = mlirRegionGetFirstBlock(mlirOperationGetRegion(par, 0));
  MlirLocation loc = mlirOperationGetLocation(par);
  MlirContext ctx = mlirOperationGetContext(par);
  StrataBuilder b = strataBuilderAtEnd(ctx, body);
  MlirType index = strataIndexType(ctx);
  MlirValue lin = mlirBlockGetArgument(body, 0);
  int64_t inner = 1; /* iterations of the dimensions after k */
  for (intptr_t k = dims - 1; k >= 0; k--) {
    MlirValue v = lin;
    if (inner > 1) v = arith(&b, "arith.divui", loc, v, strataConstInt(&b, loc, index, inner));
    if (k > 0) v = arith(&b, "arith.remui", loc, v, strataConstInt(&b, loc, index, trips[k]));
    if (step[k] != 1) v = arith(&b, "arith.muli", loc, v, strataConstInt(&b, loc, index, step[k]));
    if (lb[k]) v = arith(&b, "arith.addi", loc, v, strataConstInt(&b, loc, index, lb[k]));
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(old, k), v);
    inner *= trips[k] ? trips[k] : 1;
  }
  moveBody(old, body);
  mlirOperationDestroy(par);
}

static void wrapHostLoop(MlirOperation loop) {
  if (mlirOperationGetNumResults(loop)) return; /* its results stay on the host: refused later */
  MlirOperation par = newParallel(loop, 1, true);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(par, 0));
  mlirOperationMoveBefore(loop, mlirBlockGetFirstOperation(body));
}

/* Ops a run of scalar host code is made of. */
static bool isScalarCode(MlirOperation op) {
  return strataOpIsNamed(op, "memref.load") || strataOpIsNamed(op, "memref.store") ||
         (strataOpIsInDialect(op, "arith") && !strataOpIsNamed(op, "arith.constant")) ||
         strataOpIsInDialect(op, "math");
}

static bool inRun(MlirOperation op, MlirOperation first, MlirOperation end) {
  for (MlirOperation o = first; !mlirOperationEqual(o, end); o = mlirOperationGetNextInBlock(o))
    if (mlirOperationEqual(o, op)) return true;
  return false;
}

/* Wraps the run [first, end) of scalar code if it touches memory and its
 * values are used inside it only. */
static void wrapScalarRun(MlirOperation first, MlirOperation end) {
  bool memory = false;
  for (MlirOperation o = first; !mlirOperationEqual(o, end); o = mlirOperationGetNextInBlock(o)) {
    memory = memory || strataOpIsInDialect(o, "memref");
    for (intptr_t r = 0; r < mlirOperationGetNumResults(o); r++)
      for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(o, r)); !mlirOpOperandIsNull(u);
           u = mlirOpOperandGetNextUse(u))
        if (!inRun(mlirOpOperandGetOwner(u), first, end)) return;
  }
  if (!memory) return;
  MlirOperation par = newParallel(first, 1, true);
  MlirOperation terminator = mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(par, 0)));
  for (MlirOperation o = first; !mlirOperationEqual(o, end);) {
    MlirOperation next = mlirOperationGetNextInBlock(o);
    mlirOperationMoveBefore(o, terminator);
    o = next;
  }
}

static void runFlatten(StrataPassRun *run, MlirOperation func) {
  (void)run;
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(entry)) return;
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (strataOpIsNamed(op, "scf.parallel")) flatten(op);
    else if (strataOpIsNamed(op, "scf.for")) wrapHostLoop(op);
    else if (isScalarCode(op)) {
      while (!mlirOperationIsNull(next) && isScalarCode(next)) next = mlirOperationGetNextInBlock(next);
      wrapScalarRun(op, next);
    }
    op = next;
  }
}

const StrataPassDef strataGpuFlattenParallelPass = {
    .name = "gpu-flatten-parallel",
    .summary = "Before GPU mapping: make each top-level scf.parallel with constant bounds one "
               "dimension over all its iterations, and wrap top-level scf.for loops in a "
               "one-iteration scf.parallel (a kernel of one work-item)",
    .anchor = "func.func",
    .run = runFlatten,
};
