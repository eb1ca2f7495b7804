/* --strata-buffer-arena: after bufferization (memref level, before loops
 * become CFG), the statically shaped `memref.alloc`s at the top level of
 * each function body share one arena: each buffer is live from its
 * allocation to the last use of it or of any view derived from it, and
 * buffers whose lifetimes are disjoint get the same bytes (greedy
 * placement, largest first). The arena comes from the runtime's
 * per-thread frame stack (strata_rt_frame_push/pop, runtime/kernels.h), which
 * keeps its memory between calls: a run allocates nothing. The allocs
 * become `memref.view`s into it and their `memref.dealloc`s go away.
 *
 * Planning (live ranges, placement) walks each function; the rewrites it
 * decides on are patterns applied by the walk driver: one rooted at
 * func.func opens and closes a planned function's arena, then one rooted at
 * memref.alloc turns a planned alloc into its slot's view and one rooted at
 * memref.dealloc erases a planned buffer's dealloc.
 *
 * The buffers it cannot plan (dynamic sizes: dynamic shapes, issue 19) stay
 * on the heap, and ownership-based deallocation frees each one at the end
 * of its block, so every intermediate of a function lived until it
 * returned. Their live ranges are known here too: a pattern on
 * memref.dealloc moves each top-level dealloc of such a buffer right after
 * the last use of the buffer or of a view of it. */
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/MemRef.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/support.h"
#include "arena_common.h"
#include "grow.h"

#define PUSH_FN "strata_rt_frame_push"
#define POP_FN "strata_rt_frame_pop"
#define SLOT_FN "strata_rt_frame_slot"

typedef struct {
  MlirOperation alloc;
  int64_t bytes, offset;
  intptr_t first, last; /* top-level op indices of the live range */
  MlirOperation func;   /* its function (the key of its FunctionPlan) */
} Buffer;

typedef struct {
  MlirOperation func;
  int64_t total; /* arena bytes */
  MlirValue arena; /* the push call's result, once the arena is opened */
} FunctionPlan;

/* The module's plan, the patterns' userData. Each array is sorted by op
 * (pointer order) for lookup from a pattern. */
/* A heap buffer's dealloc and the op after which it can go. */
typedef struct {
  MlirOperation dealloc, after;
} EarlyFree;

typedef struct {
  FunctionPlan *funcs;
  size_t numFuncs;
  Buffer *bufs;
  size_t numBufs;
  MlirOperation *deallocs; /* of the planned allocs, erased with them */
  size_t numDeallocs;
  EarlyFree *frees; /* of the heap buffers, by dealloc */
  size_t numFrees, capFrees;
  MlirType arenaType; /* memref<?xi8> */
  bool oom;
} ArenaPlan;

/* Bytes of a statically shaped, identity-layout alloc without operands; -1
 * otherwise. */
static int64_t staticBytes(MlirOperation alloc) {
  if (mlirOperationGetNumOperands(alloc) != 0) return -1;
  MlirType t = mlirValueGetType(mlirOperationGetResult(alloc, 0));
  if (!mlirShapedTypeHasStaticShape(t) || !strataArenaPlainLayout(t)) return -1;
  int64_t bytes = strataArenaElementBytes(t);
  if (bytes <= 0) return -1;
  int64_t count = 1;
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); i++) count *= mlirShapedTypeGetDimSize(t, i);
  return (count * bytes + 63) / 64 * 64;
}

static int bySizeDesc(const void *a, const void *b) {
  const Buffer *x = a, *y = b;
  return x->bytes < y->bytes ? 1 : x->bytes > y->bytes ? -1 : x->first < y->first ? -1 : 1;
}

/* Lowest 64-aligned offset where b fits beside the placed buffers whose
 * live ranges overlap its own. */
static void place(Buffer *bufs, int placed, Buffer *b) {
  int64_t offset = 0;
  for (bool moved = true; moved;) {
    moved = false;
    for (int i = 0; i < placed; i++) {
      const Buffer *o = &bufs[i];
      bool liveTogether = o->first <= b->last && b->first <= o->last;
      bool overlap = offset < o->offset + o->bytes && o->offset < offset + b->bytes;
      if (liveTogether && overlap) offset = o->offset + o->bytes, moved = true;
    }
  }
  b->offset = offset;
}

/* Lowest offsets for the function's buffers bufs[0..count) (placed
 * largest first); returns the arena size. */
static int64_t placeAll(Buffer *bufs, int count) {
  qsort(bufs, (size_t)count, sizeof *bufs, bySizeDesc);
  int64_t total = 0;
  for (int k = 0; k < count; k++) {
    place(bufs, k, &bufs[k]);
    if (bufs[k].offset + bufs[k].bytes > total) total = bufs[k].offset + bufs[k].bytes;
  }
  return total;
}

/* The top-level dealloc of heap buffer `alloc` in `block`, when it sits
 * after ops[last + 1]: it can move up to right after ops[last]. */
static void planEarlyFree(ArenaPlan *plan, MlirOperation alloc, MlirBlock block, MlirOperation *ops, intptr_t n,
                          intptr_t last) {
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(alloc, 0)); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (!strataOpIsNamed(user, "memref.dealloc") || !mlirBlockEqual(mlirOperationGetBlock(user), block)) continue;
    if (strataArenaIndexOf(user, ops, n) <= last + 1) return;
    EarlyFree *grown = strataGrow(plan->frees, &plan->capFrees, plan->numFrees + 1, sizeof *grown);
    if (!grown) {
      plan->oom = true;
      return;
    }
    plan->frees = grown;
    plan->frees[plan->numFrees++] = (EarlyFree){user, ops[last]};
    return;
  }
}

/* Plans one function body into `plan`: its static top-level allocs with
 * bounded live ranges, their offsets, and their deallocs; and the early
 * deallocs of the heap buffers. */
static void planFunction(ArenaPlan *plan, size_t *capBufs, size_t *capDeallocs, MlirOperation func) {
  MlirBlock block;
  intptr_t n;
  MlirOperation *ops = strataArenaBodyOps(func, &block, &n);
  if (!ops && n == 0) return;
  Buffer *grown = ops ? strataGrow(plan->bufs, capBufs, plan->numBufs + (size_t)n, sizeof *grown) : NULL;
  if (!grown) {
    free(ops);
    plan->oom = true;
    return;
  }
  plan->bufs = grown;
  Buffer *bufs = plan->bufs + plan->numBufs;
  int count = 0;
  for (intptr_t i = 0; i < n; i++) {
    if (!strataOpIsNamed(ops[i], "memref.alloc")) continue;
    int64_t bytes = staticBytes(ops[i]);
    intptr_t last = strataArenaLastUse(mlirOperationGetResult(ops[i], 0), block, ops, n);
    if (last < 0) continue;
    if (bytes > 0) bufs[count++] = (Buffer){ops[i], bytes, 0, i, last > i ? last : i, func};
    else if (last > i) planEarlyFree(plan, ops[i], block, ops, n, last);
  }
  free(ops);
  if (count == 0) return;
  plan->funcs[plan->numFuncs++] = (FunctionPlan){func, placeAll(bufs, count), {NULL}};
  plan->numBufs += (size_t)count;
  for (int k = 0; k < count; k++)
    for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(bufs[k].alloc, 0));
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      if (!strataOpIsNamed(user, "memref.dealloc")) continue;
      MlirOperation *deallocs =
          strataGrow(plan->deallocs, capDeallocs, plan->numDeallocs + 1, sizeof *deallocs);
      if (!deallocs) {
        plan->oom = true;
        return;
      }
      plan->deallocs = deallocs;
      plan->deallocs[plan->numDeallocs++] = user;
    }
}

/* Pattern on memref.dealloc: a heap buffer is freed right after its last
 * use. */
static MlirLogicalResult freeEarly(StrataRewrite *rw, MlirOperation dealloc, void *user) {
  ArenaPlan *plan = user;
  EarlyFree *f = strataArenaFindOp(plan->frees, plan->numFrees, sizeof *plan->frees, dealloc);
  if (!f || mlirOperationIsNull(f->after)) return mlirLogicalResultFailure();
  mlirRewriterBaseMoveOpAfter(rw->rewriter, dealloc, f->after);
  f->after = (MlirOperation){NULL}; /* once */
  return mlirLogicalResultSuccess();
}

/* Pattern on func.func: a planned function pushes its arena first and pops
 * it before its terminator. */
static MlirLogicalResult openArena(StrataRewrite *rw, MlirOperation func, void *user) {
  ArenaPlan *plan = user;
  FunctionPlan *f = strataArenaFindOp(plan->funcs, plan->numFuncs, sizeof *plan->funcs, func);
  if (!f || !mlirValueIsNull(f->arena)) return mlirLogicalResultFailure();
  MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirLocation loc = mlirOperationGetLocation(func);
  StrataBuilder b = strataBuilderBefore(mlirBlockGetFirstOperation(block), rw->rewriter);
  MlirValue size = strataConstInt(&b, loc, mlirIntegerTypeGet(b.ctx, 64), f->total);
  f->arena = strataArenaCallRuntime(&b, loc, PUSH_FN, STRATA_VALUES(size), &plan->arenaType);
  StrataBuilder end = strataBuilderBefore(mlirBlockGetTerminator(block), rw->rewriter);
  strataArenaCallRuntime(&end, loc, POP_FN, STRATA_VALUES(f->arena), NULL);
  return mlirLogicalResultSuccess();
}

/* Pattern on memref.alloc: a planned buffer becomes a view of its slot of
 * the arena, each through its own opaque slot call (runtime/kernels.h). */
static MlirLogicalResult placeBuffer(StrataRewrite *rw, MlirOperation alloc, void *user) {
  ArenaPlan *plan = user;
  const Buffer *buf = strataArenaFindOp(plan->bufs, plan->numBufs, sizeof *plan->bufs, alloc);
  const FunctionPlan *f = buf ? strataArenaFindOp(plan->funcs, plan->numFuncs, sizeof *plan->funcs, buf->func) : NULL;
  if (!f || mlirValueIsNull(f->arena)) return mlirLogicalResultFailure();
  StrataBuilder *at = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(alloc);
  MlirType i64 = mlirIntegerTypeGet(at->ctx, 64);
  MlirValue slot = strataArenaCallRuntime(at, loc, SLOT_FN,
                               STRATA_VALUES(f->arena, strataConstInt(at, loc, i64, buf->offset),
                                             strataConstInt(at, loc, i64, buf->bytes)),
                               &plan->arenaType);
  MlirValue off = strataConstInt(at, loc, mlirIndexTypeGet(at->ctx), 0);
  MlirType type = mlirValueGetType(mlirOperationGetResult(alloc, 0));
  MlirValue view = strataResult(
      strataCreateOp(at, "memref.view", loc, .operands = STRATA_VALUES(slot, off), .results = STRATA_TYPES(type)), 0);
  strataReplaceOp(rw, alloc, STRATA_VALUES(view));
  return mlirLogicalResultSuccess();
}

/* Pattern on memref.dealloc: the arena, not the heap, holds the buffer. */
static MlirLogicalResult dropDealloc(StrataRewrite *rw, MlirOperation dealloc, void *user) {
  ArenaPlan *plan = user;
  if (!strataArenaFindOp(plan->deallocs, plan->numDeallocs, sizeof *plan->deallocs, dealloc))
    return mlirLogicalResultFailure();
  strataEraseOp(rw, dealloc);
  return mlirLogicalResultSuccess();
}

static void runBufferArena(StrataPassRun *run, MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  ArenaPlan plan = {0};
  size_t capFuncs = 0, capBufs = 0, capDeallocs = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op) && !plan.oom;
       op = mlirOperationGetNextInBlock(op)) {
    if (!strataOpIsNamed(op, "func.func")) continue;
    FunctionPlan *funcs = strataGrow(plan.funcs, &capFuncs, plan.numFuncs + 1, sizeof *funcs);
    if (!funcs) plan.oom = true;
    else {
      plan.funcs = funcs;
      planFunction(&plan, &capBufs, &capDeallocs, op);
    }
  }
  StrataPatternSet *open = NULL, *place = NULL, *frees = NULL;
  if (!plan.oom && plan.numFuncs) {
    open = strataPatternSetCreate(mlirOperationGetContext(module));
    place = strataPatternSetCreate(mlirOperationGetContext(module));
    plan.oom = !open || !place;
  }
  if (!plan.oom && plan.numFrees) plan.oom = !(frees = strataPatternSetCreate(mlirOperationGetContext(module)));
  if (plan.oom) {
    strataEmitError(mlirOperationGetLocation(module), "strata-buffer-arena: out of memory");
    strataPassSignalFailure(run);
  } else if (plan.numFuncs) {
    MlirContext ctx = mlirOperationGetContext(module);
    plan.arenaType = mlirMemRefTypeContiguousGet(mlirIntegerTypeGet(ctx, 8), 1,
                                                 (int64_t[]){mlirShapedTypeGetDynamicSize()}, mlirAttributeGetNull());
    qsort(plan.funcs, plan.numFuncs, sizeof *plan.funcs, strataArenaByPointer);
    qsort(plan.bufs, plan.numBufs, sizeof *plan.bufs, strataArenaByPointer);
    if (plan.numDeallocs) qsort(plan.deallocs, plan.numDeallocs, sizeof *plan.deallocs, strataArenaByPointer);
    /* Every arena is open before any buffer is placed in one: the walk
     * driver visits a function after the ops in it. */
    strataPatternSetAdd(open, "func.func", 1, openArena, &plan);
    strataPatternSetAdd(place, "memref.alloc", 1, placeBuffer, &plan);
    strataPatternSetAdd(place, "memref.dealloc", 1, dropDealloc, &plan);
    strataApplyPatternsWalk(open, module);
    for (size_t k = 0; k < plan.numFuncs; k++) strataApplyPatternsWalk(place, plan.funcs[k].func);
    strataDeclareRuntimeFunc(module, PUSH_FN);
    strataDeclareRuntimeFunc(module, POP_FN);
    strataDeclareRuntimeFunc(module, SLOT_FN);
  }
  if (!plan.oom && plan.numFrees) {
    qsort(plan.frees, plan.numFrees, sizeof *plan.frees, strataArenaByPointer);
    strataPatternSetAdd(frees, "memref.dealloc", 1, freeEarly, &plan);
    strataApplyPatternsWalk(frees, module);
  }
  strataPatternSetDestroy(open);
  strataPatternSetDestroy(place);
  strataPatternSetDestroy(frees);
  free(plan.frees);
  free(plan.funcs);
  free(plan.bufs);
  free(plan.deallocs);
}

const StrataPassDef strataBufferArenaPass = {
    .name = "strata-buffer-arena",
    .summary = "Place a function's static buffers in one reused arena by live range (memref level)",
    .anchor = "builtin.module",
    .run = runBufferArena,
    .dependentDialects = strataArenaPassDeps,
};
