/* --strata-hoist-branch-allocs: the destination-passing form of an
 * scf.if's buffers, right after bufferization (issue 19).
 *
 * nn-multiversion makes two versions of a weight GEMM (and of the
 * element-wise ops after it) under an scf.if; once bufferized, each branch
 * allocates the buffers its ops write and yields the last. The arena
 * planners see allocations at the top level of a function body only
 * (strata-buffer-arena, strata-shape-plan), so these came from the heap on
 * every call, and so did every later buffer sized from the scf.if's result.
 *
 * Only one branch runs, so an allocation in the then-block and one in the
 * else-block with the same type, the same attributes and the same size
 * operands, all defined before the scf.if, can be one allocation made
 * before it: each branch writes the one buffer. Each then-allocation is
 * paired with the first else-allocation like it not paired yet (the
 * versions are clones, so in order). Where both branches then yield that
 * one buffer (through casts to one type), the scf.if's result is that
 * buffer (canonicalize drops the result). Each path through the scf.if
 * allocates, writes and frees exactly what it did before; only the
 * allocation happens earlier, from the same sizes.
 *
 * Left as they are: allocations sized inside a branch, allocations with no
 * like one in the other branch, allocations nested deeper than the
 * branch's block (loops). Nested scf.ifs go first (post-order walk), so a
 * buffer rises through every level whose branches both allocate it. */
#include <stdlib.h>
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/support.h"

typedef struct {
  StrataOpList ifs;
  bool ok;
} IfWalk;

static MlirWalkResult collectIfs(MlirOperation op, void *user) {
  IfWalk *w = user;
  if (strataOpIsNamed(op, "scf.if") && !strataOpListAppend(&w->ifs, op)) {
    w->ok = false;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

/* True if v is defined outside `op` (so it dominates op's regions). */
static bool definedOutside(MlirValue v, MlirOperation op) {
  MlirBlock block = mlirValueIsABlockArgument(v) ? mlirBlockArgumentGetOwner(v)
                                                 : mlirOperationGetBlock(mlirOpResultGetOwner(v));
  for (MlirOperation p = mlirBlockGetParentOperation(block); !mlirOperationIsNull(p);
       p = mlirOperationGetParentOperation(p))
    if (mlirOperationEqual(p, op)) return false;
  return true;
}

/* True if the two allocations make the same buffer from values defined
 * before `ifOp`. */
static bool sameAllocation(MlirOperation a, MlirOperation b, MlirOperation ifOp) {
  if (!mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(a, 0)), mlirValueGetType(mlirOperationGetResult(b, 0))) ||
      mlirOperationGetNumOperands(a) != mlirOperationGetNumOperands(b) ||
      mlirOperationGetNumAttributes(a) != mlirOperationGetNumAttributes(b))
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(a); i++) {
    MlirValue v = mlirOperationGetOperand(a, i);
    if (!mlirValueEqual(v, mlirOperationGetOperand(b, i)) || !definedOutside(v, ifOp)) return false;
  }
  for (intptr_t i = 0; i < mlirOperationGetNumAttributes(a); i++) {
    MlirNamedAttribute na = mlirOperationGetAttribute(a, i);
    MlirAttribute other = mlirOperationGetAttributeByName(b, mlirIdentifierStr(na.name));
    if (mlirAttributeIsNull(other) || !mlirAttributeEqual(na.attribute, other)) return false;
  }
  return true;
}

/* The buffer v is, looking through memref.casts, and the outermost cast's
 * type in *castType (null when v is no cast). */
static MlirValue throughCasts(MlirValue v, MlirType *castType) {
  *castType = (MlirType){NULL};
  while (mlirValueIsAOpResult(v) && strataOpIsNamed(mlirOpResultGetOwner(v), "memref.cast")) {
    if (!castType->ptr) *castType = mlirValueGetType(v);
    v = mlirOperationGetOperand(mlirOpResultGetOwner(v), 0);
  }
  return v;
}

/* Result i of ifOp, when both branches yield `buffer` (through casts of
 * one type), is that buffer (cast before ifOp like the yields). */
static void forwardResult(MlirOperation ifOp, intptr_t i, MlirOperation thenYield, MlirOperation elseYield) {
  MlirType thenCast, elseCast;
  MlirValue a = throughCasts(mlirOperationGetOperand(thenYield, i), &thenCast);
  MlirValue b = throughCasts(mlirOperationGetOperand(elseYield, i), &elseCast);
  if (!mlirValueEqual(a, b) || !definedOutside(a, ifOp) || !mlirValueIsAOpResult(a) ||
      !strataOpIsNamed(mlirOpResultGetOwner(a), "memref.alloc") || !thenCast.ptr != !elseCast.ptr ||
      (thenCast.ptr && !mlirTypeEqual(thenCast, elseCast)))
    return;
  MlirValue result = mlirOperationGetResult(ifOp, i), value = a;
  if (thenCast.ptr) {
    StrataBuilder b = strataBuilderBefore(ifOp, (MlirRewriterBase){NULL});
    value = strataResult(strataCreateOp(&b, "memref.cast", mlirOperationGetLocation(ifOp), .operands = STRATA_VALUES(a),
                                        .results = STRATA_TYPES(thenCast)),
                         0);
  }
  if (mlirTypeEqual(mlirValueGetType(value), mlirValueGetType(result))) mlirValueReplaceAllUsesOfWith(result, value);
}

/* Hoists the allocations ifOp's two branches make alike; the number. */
static int hoistAllocs(MlirOperation ifOp) {
  if (mlirOperationGetNumRegions(ifOp) != 2) return 0;
  MlirBlock thenBlock = mlirRegionGetFirstBlock(mlirOperationGetRegion(ifOp, 0));
  MlirBlock elseBlock = mlirRegionGetFirstBlock(mlirOperationGetRegion(ifOp, 1));
  if (mlirBlockIsNull(thenBlock) || mlirBlockIsNull(elseBlock)) return 0;
  int hoisted = 0;
  for (MlirOperation a = mlirBlockGetFirstOperation(thenBlock), next; !mlirOperationIsNull(a); a = next) {
    next = mlirOperationGetNextInBlock(a);
    if (!strataOpIsNamed(a, "memref.alloc")) continue;
    for (MlirOperation b = mlirBlockGetFirstOperation(elseBlock); !mlirOperationIsNull(b);
         b = mlirOperationGetNextInBlock(b)) {
      if (!strataOpIsNamed(b, "memref.alloc") || !sameAllocation(a, b, ifOp)) continue;
      mlirOperationMoveBefore(a, ifOp);
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(b, 0), mlirOperationGetResult(a, 0));
      mlirOperationDestroy(b);
      hoisted++;
      break;
    }
  }
  if (hoisted)
    for (intptr_t i = 0; i < mlirOperationGetNumResults(ifOp); i++)
      if (mlirTypeIsAMemRef(mlirValueGetType(mlirOperationGetResult(ifOp, i))))
        forwardResult(ifOp, i, mlirBlockGetTerminator(thenBlock), mlirBlockGetTerminator(elseBlock));
  return hoisted;
}

static void runHoistBranchAllocs(StrataPassRun *run, MlirOperation func) {
  IfWalk w = {{0}, true};
  mlirOperationWalk(func, collectIfs, &w, MlirWalkPostOrder);
  int hoisted = 0;
  for (size_t k = 0; w.ok && k < w.ifs.count; k++) hoisted += hoistAllocs(w.ifs.ops[k]);
  strataOpListDestroy(&w.ifs);
  if (!w.ok) {
    strataEmitOpError(func, "strata-hoist-branch-allocs: out of memory");
    strataPassSignalFailure(run);
    return;
  }
  if (strataPassGetBool(run, "stats") && mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0)).ptr)
    mlirOperationSetAttributeByName(func, mlirStringRefCreateFromCString("strata.hoisted_branch_allocs"),
                                    strataI64Attr(mlirOperationGetContext(func), hoisted));
}

static const StrataPassOptionDef kOptions[] = {
    {"stats", STRATA_OPTION_BOOL, "false", "Write strata.hoisted_branch_allocs (the count) on each function"},
};

const StrataPassDef strataHoistBranchAllocsPass = {
    .name = "strata-hoist-branch-allocs",
    .summary = "Allocate a buffer both branches of an scf.if allocate alike once before it "
               "(memref level, right after bufferization), so the arena planners see it",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof *kOptions,
    .run = runHoistBranchAllocs,
};
