/* --strata-buffer-arena: after bufferization (memref level, before loops
 * become CFG), the statically shaped `memref.alloc`s at the top level of
 * each function body share one arena: each buffer is live from its
 * allocation to the last use of it or of any view derived from it, and
 * buffers whose lifetimes are disjoint get the same bytes (greedy
 * placement, largest first). The arena comes from the runtime's
 * per-thread frame stack (strata_rt_frame_push/pop, runtime/kernels.h), which
 * keeps its memory between calls: a run allocates nothing. The allocs
 * become `memref.view`s into it and their `memref.dealloc`s go away. */
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/MemRef.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/support.h"

#define PUSH_FN "strata_rt_frame_push"
#define POP_FN "strata_rt_frame_pop"
#define SLOT_FN "strata_rt_frame_slot"

typedef struct {
  MlirOperation alloc;
  int64_t bytes, offset;
  intptr_t first, last; /* top-level op indices of the live range */
} Buffer;

/* The ancestor of `op` that sits directly in `block` (null if none). */
static MlirOperation topLevel(MlirOperation op, MlirBlock block) {
  while (!mlirOperationIsNull(op)) {
    MlirBlock b = mlirOperationGetBlock(op);
    if (mlirBlockEqual(b, block)) return op;
    op = mlirBlockGetParentOperation(b);
  }
  return op;
}

static intptr_t indexOf(MlirOperation op, MlirOperation *ops, intptr_t n) {
  for (intptr_t i = 0; i < n; i++)
    if (mlirOperationEqual(ops[i], op)) return i;
  return -1;
}

/* The last top-level index using v or anything derived from it: results of
 * any op that takes it and yields a memref (ranked or not: the kernels take
 * memref<*xf32>), or its address (extract_aligned_pointer_as_index), count
 * as aliases. -1: a use we cannot bound (outside the block). Deallocs are
 * not uses. */
static intptr_t lastUse(MlirValue v, MlirBlock block, MlirOperation *ops, intptr_t n, int depth) {
  intptr_t last = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (strataOpIsNamed(user, "memref.dealloc")) continue;
    MlirOperation top = topLevel(user, block);
    intptr_t i = mlirOperationIsNull(top) ? -1 : indexOf(top, ops, n);
    if (i < 0 || depth > 64) return -1;
    if (i > last) last = i;
    for (intptr_t r = 0; r < mlirOperationGetNumResults(user); r++) {
      MlirValue res = mlirOperationGetResult(user, r);
      MlirType rt = mlirValueGetType(res);
      bool pointer = strataOpIsNamed(user, "memref.extract_aligned_pointer_as_index") ||
                     strataOpIsNamed(user, "builtin.unrealized_conversion_cast");
      if (!pointer && !mlirTypeIsAMemRef(rt) && !mlirTypeIsAUnrankedMemRef(rt)) continue;
      intptr_t l = lastUse(res, block, ops, n, depth + 1);
      if (l < 0) return -1;
      if (l > last) last = l;
    }
  }
  return last;
}

/* Bytes of a statically shaped, identity-layout alloc without operands; -1
 * otherwise. */
static int64_t staticBytes(MlirOperation alloc) {
  if (mlirOperationGetNumOperands(alloc) != 0) return -1;
  MlirType t = mlirValueGetType(mlirOperationGetResult(alloc, 0));
  if (!mlirShapedTypeHasStaticShape(t) || !mlirAttributeIsNull(mlirMemRefTypeGetMemorySpace(t)) ||
      !mlirAffineMapIsIdentity(mlirMemRefTypeGetAffineMap(t)))
    return -1;
  MlirType e = mlirShapedTypeGetElementType(t);
  int64_t bits = mlirTypeIsAIndex(e) ? 64 : mlirTypeIsAInteger(e) ? (int64_t)mlirIntegerTypeGetWidth(e)
                 : mlirTypeIsAFloat(e) ? (int64_t)mlirFloatTypeGetWidth(e) : -1;
  if (bits <= 0) return -1;
  int64_t count = 1;
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); i++) count *= mlirShapedTypeGetDimSize(t, i);
  return (count * ((bits + 7) / 8) + 63) / 64 * 64;
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

/* Plans one function body; true if it now uses an arena. */
static bool planFunction(MlirOperation func) {
  MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(block) || !mlirBlockIsNull(mlirBlockGetNextInRegion(block))) return false;
  intptr_t n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    n++;
  MlirOperation *ops = malloc(sizeof *ops * (size_t)(n ? n : 1));
  Buffer *bufs = malloc(sizeof *bufs * (size_t)(n ? n : 1));
  int count = 0;
  intptr_t i = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    ops[i++] = op;
  for (i = 0; i < n && ops && bufs; i++) {
    if (!strataOpIsNamed(ops[i], "memref.alloc")) continue;
    int64_t bytes = staticBytes(ops[i]);
    intptr_t last = bytes > 0 ? lastUse(mlirOperationGetResult(ops[i], 0), block, ops, n, 0) : -1;
    if (last < 0) continue;
    bufs[count++] = (Buffer){ops[i], bytes, 0, i, last > i ? last : i};
  }
  if (count == 0) {
    free(ops);
    free(bufs);
    return false;
  }
  qsort(bufs, (size_t)count, sizeof *bufs, bySizeDesc);
  int64_t total = 0;
  for (int k = 0; k < count; k++) {
    place(bufs, k, &bufs[k]);
    if (bufs[k].offset + bufs[k].bytes > total) total = bufs[k].offset + bufs[k].bytes;
  }
  MlirContext ctx = mlirOperationGetContext(func);
  MlirLocation loc = mlirOperationGetLocation(func);
  MlirType i64 = mlirIntegerTypeGet(ctx, 64), index = mlirIndexTypeGet(ctx);
  MlirType arenaType = mlirMemRefTypeContiguousGet(mlirIntegerTypeGet(ctx, 8), 1,
                                                   (int64_t[]){mlirShapedTypeGetDynamicSize()},
                                                   mlirAttributeGetNull());
  StrataBuilder b = strataBuilderAtEnd(ctx, block);
  b.before = ops[0];
  MlirValue size = strataConstInt(&b, loc, i64, total);
  MlirValue arena = strataResult(
      strataCreateOp(&b, "func.call", loc, .operands = STRATA_VALUES(size),
                     .results = STRATA_TYPES(arenaType),
                     .attrs = STRATA_ATTRS({"callee", mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(PUSH_FN))})),
      0);
  for (int k = 0; k < count; k++) {
    MlirOperation alloc = bufs[k].alloc;
    MlirValue old = mlirOperationGetResult(alloc, 0);
    StrataBuilder at = strataBuilderBefore(alloc, (MlirRewriterBase){NULL});
    MlirLocation aloc = mlirOperationGetLocation(alloc);
    /* Each buffer through its own opaque slot call (runtime/kernels.h). */
    MlirValue slot = strataResult(
        strataCreateOp(&at, "func.call", aloc,
                       .operands = STRATA_VALUES(arena, strataConstInt(&at, aloc, i64, bufs[k].offset),
                                                 strataConstInt(&at, aloc, i64, bufs[k].bytes)),
                       .results = STRATA_TYPES(arenaType),
                       .attrs = STRATA_ATTRS({"callee", mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(SLOT_FN))})),
        0);
    MlirValue off = strataConstInt(&at, aloc, index, 0);
    MlirValue view = strataResult(strataCreateOp(&at, "memref.view", aloc,
                                                 .operands = STRATA_VALUES(slot, off),
                                                 .results = STRATA_TYPES(mlirValueGetType(old))),
                                  0);
    for (MlirOpOperand u = mlirValueGetFirstUse(old); !mlirOpOperandIsNull(u);) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      MlirOpOperand next = mlirOpOperandGetNextUse(u);
      if (strataOpIsNamed(user, "memref.dealloc")) mlirOperationDestroy(user);
      u = next;
    }
    mlirValueReplaceAllUsesOfWith(old, view);
    mlirOperationDestroy(alloc);
  }
  StrataBuilder end = strataBuilderAtEnd(ctx, block);
  end.before = mlirBlockGetTerminator(block);
  strataCreateOp(&end, "func.call", loc, .operands = STRATA_VALUES(arena),
                 .attrs = STRATA_ATTRS({"callee", mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(POP_FN))}));
  free(ops);
  free(bufs);
  return true;
}

static void runBufferArena(StrataPassRun *run, MlirOperation module) {
  (void)run;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  bool used = false;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (strataOpIsNamed(op, "func.func")) used |= planFunction(op);
  if (used) {
    strataDeclareRuntimeFunc(module, PUSH_FN, "(i64) -> memref<?xi8>");
    strataDeclareRuntimeFunc(module, POP_FN, "(memref<?xi8>) -> ()");
    strataDeclareRuntimeFunc(module, SLOT_FN, "(memref<?xi8>, i64, i64) -> memref<?xi8>");
  }
}

static const StrataDialectHandleFn kDeps[] = {mlirGetDialectHandle__memref__, mlirGetDialectHandle__func__,
                                              mlirGetDialectHandle__arith__, NULL};

const StrataPassDef strataBufferArenaPass = {
    .name = "strata-buffer-arena",
    .summary = "Place a function's static buffers in one reused arena by live range (memref level)",
    .anchor = "builtin.module",
    .run = runBufferArena,
    .dependentDialects = kDeps,
};
