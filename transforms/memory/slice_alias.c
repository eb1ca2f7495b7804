/* --strata-slice-alias: a buffer copied into a slice of another buffer is
 * computed in that slice (after bufferization, before deallocation).
 *
 *   %t = memref.alloc() ; ...writes %t... ; %s = memref.subview %c[...] ;
 *   memref.copy %t, %s
 * becomes
 *   %s = memref.subview %c[...] ; ...writes %s...   (the copy and %t gone)
 *
 * A Concat lowers to one such copy per operand (tensor.insert_slice into
 * an empty tensor, bufferized), so the producers of its operands (runtime
 * kernels, generated loops) write their slice of the concatenated buffer
 * and no copy is left; any other insert_slice of a whole buffer into a
 * fresh one is the same. The rewrite is exact when, in the block holding
 * the alloc of %t and the copy:
 *  - %t is a statically shaped, identity-layout memref.alloc, and the
 *    copy's target a chain of static memref.subview ops (of the same rank)
 *    of another such alloc %c, all in that block (the alloc and the views
 *    move before %t's alloc when they are after it), or of an
 *    out-parameter (a Concat that is the function's result; the
 *    arguments pred-placeholder-alias writes in place, buffer_uses.h);
 *  - every use of %t is before the copy and lets nothing escape (as for
 *    pred-placeholder-alias, buffer_uses.h);
 *  - nothing touches the slice between %t's alloc and the copy: a use of
 *    %c through a static subview disjoint from it (a sibling operand's
 *    slice) does not count;
 *  - every use of %t takes the slice's strided layout: linalg ops, loads,
 *    stores, copies, static subviews (recomputed), and casts to an
 *    unranked memref passed to a runtime kernel whose argument accepts the
 *    layout (kernel_abi.h: strataRtAbiArgLayout; a convolution's output
 *    takes any image and channel strides, a matmul's any row stride, most
 *    kernels only dense buffers, which a batch-1 channel slice is).
 * Otherwise the copy stays (with `report`, a remark says why). A function
 * argument or a constant (memref.get_global) copied into a slice is no
 * alloc: it stays a copy.
 *
 * Slices of slices (a Concat of a Concat) take one round each: a round
 * leaves out a buffer that is itself the target of a planned copy, so its
 * uses, once the inner round has put the producers into it, are checked
 * against the composed layout in the next round.
 *
 * Planning walks each function; the rewrite is a pattern on memref.copy
 * applied by the walk driver: everything it changes (the alloc, its uses,
 * the target's views) is before the copy, so already passed by the walk.
 * Retyping %t's uses is not one pattern per op: a subview of %t changes
 * its result type with %t, and so on down its uses. */
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/MemRef.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/support.h"
#include "arena_common.h"
#include "buffer_uses.h"
#include "grow.h"
#define STRATA_RT_ABI_LAYOUTS
#include "kernel_abi.h"

#define MAX_RANK 16
#define MAX_CHAIN 8
#define MAX_ROUNDS 32

/* A static strided memref layout. */
typedef struct {
  int rank;
  int64_t size[MAX_RANK], stride[MAX_RANK], offset;
} Strided;

/* A box of a buffer's index space: [lo, lo + len) per dim (unit steps). */
typedef struct {
  int rank;
  int64_t lo[MAX_RANK], len[MAX_RANK];
} Box;

typedef struct {
  MlirOperation copy, alloc, root; /* the copy, %t's alloc, %c's alloc (null: an argument) */
  MlirOperation chain[MAX_CHAIN];  /* the target's subviews, root first */
  int chainLen;
  int64_t bytes;
} SliceItem;

typedef struct {
  SliceItem *items;
  size_t count, cap;
  bool report, oom;
  int64_t bytes, copies;
} SlicePlan;

static bool stridedOf(MlirType t, Strided *s) {
  if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t) || mlirShapedTypeGetRank(t) > MAX_RANK ||
      !mlirAttributeIsNull(mlirMemRefTypeGetMemorySpace(t)))
    return false;
  s->rank = (int)mlirShapedTypeGetRank(t);
  if (mlirLogicalResultIsFailure(mlirMemRefTypeGetStridesAndOffset(t, s->stride, &s->offset))) return false;
  if (mlirShapedTypeIsDynamicStrideOrOffset(s->offset)) return false;
  for (int d = 0; d < s->rank; d++) {
    s->size[d] = mlirShapedTypeGetDimSize(t, d);
    if (mlirShapedTypeIsDynamicStrideOrOffset(s->stride[d])) return false;
  }
  return true;
}

/* Dims [from, rank) laid out densely (size-1 dims' strides are never
 * read). */
static bool denseFrom(const Strided *s, int from) {
  int64_t expect = 1;
  for (int d = s->rank - 1; d >= from && d >= 0; d--) {
    if (s->size[d] != 1 && s->stride[d] != expect) return false;
    expect *= s->size[d];
  }
  return true;
}

/* Whether a kernel argument of layout letter `l` takes a view laid out
 * as s (kernel_abi.h). */
static bool layoutAccepts(char l, const Strided *s) {
  switch (l) {
  case 'a': return true;
  case 'r': return denseFrom(s, s->rank - 1);
  case 'p': return denseFrom(s, 2);
  case 'd': return denseFrom(s, 0);
  default: return false;
  }
}

/* A memref.subview with static offsets, sizes and strides and a result of
 * its source's rank: its static arrays in off/size/step. */
static bool staticSubview(MlirOperation op, int64_t *off, int64_t *size, int64_t *step, int *rank) {
  if (!strataOpIsNamed(op, "memref.subview") || mlirOperationGetNumOperands(op) != 1) return false;
  MlirAttribute o = strataOpAttr(op, "static_offsets"), z = strataOpAttr(op, "static_sizes"),
                k = strataOpAttr(op, "static_strides");
  if (mlirAttributeIsNull(o) || mlirAttributeIsNull(z) || mlirAttributeIsNull(k)) return false;
  intptr_t r = mlirDenseArrayGetNumElements(o);
  MlirType src = mlirValueGetType(mlirOperationGetOperand(op, 0)), res = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (r > MAX_RANK || r != mlirDenseArrayGetNumElements(z) || r != mlirDenseArrayGetNumElements(k) ||
      !mlirTypeIsAMemRef(src) || !mlirTypeIsAMemRef(res) || mlirShapedTypeGetRank(src) != r ||
      mlirShapedTypeGetRank(res) != r)
    return false;
  for (intptr_t d = 0; d < r; d++) {
    off[d] = mlirDenseI64ArrayGetElement(o, d), size[d] = mlirDenseI64ArrayGetElement(z, d);
    step[d] = mlirDenseI64ArrayGetElement(k, d);
    if (mlirShapedTypeIsDynamicSize(size[d]) || mlirShapedTypeIsDynamicStrideOrOffset(off[d]) ||
        mlirShapedTypeIsDynamicStrideOrOffset(step[d]))
      return false;
  }
  *rank = (int)r;
  return true;
}

/* The layout of a static subview of a buffer laid out as src. */
static Strided subviewLayout(const Strided *src, const int64_t *off, const int64_t *size, const int64_t *step) {
  Strided s = {src->rank, {0}, {0}, src->offset};
  for (int d = 0; d < src->rank; d++) {
    s.size[d] = size[d];
    s.stride[d] = src->stride[d] * step[d];
    s.offset += off[d] * src->stride[d];
  }
  return s;
}

static MlirType stridedType(MlirType elem, const Strided *s) {
  MlirContext ctx = mlirTypeGetContext(elem);
  MlirAttribute layout = mlirStridedLayoutAttrGet(ctx, s->offset, s->rank, s->stride);
  return mlirMemRefTypeGet(elem, s->rank, s->size, layout, mlirAttributeGetNull());
}

/* The box a chain of static unit-step subviews ending at `view` covers in
 * the buffer `root`; false when `view` is no such chain. */
static bool boxIn(MlirValue view, MlirValue root, Box *box) {
  int64_t off[MAX_RANK], size[MAX_RANK], step[MAX_RANK];
  int rank = 0, depth = 0;
  box->rank = -1;
  while (!mlirValueEqual(view, root)) {
    if (!mlirValueIsAOpResult(view) || ++depth > MAX_CHAIN) return false;
    MlirOperation op = mlirOpResultGetOwner(view);
    if (!staticSubview(op, off, size, step, &rank)) return false;
    for (int d = 0; d < rank; d++)
      if (step[d] != 1) return false;
    if (box->rank < 0) {
      box->rank = rank;
      for (int d = 0; d < rank; d++) box->lo[d] = 0, box->len[d] = size[d];
    }
    if (rank != box->rank) return false;
    for (int d = 0; d < rank; d++) box->lo[d] += off[d];
    view = mlirOperationGetOperand(op, 0);
  }
  return box->rank >= 0;
}

static bool boxesDisjoint(const Box *a, const Box *b) {
  if (a->rank != b->rank) return false;
  for (int d = 0; d < a->rank; d++)
    if (a->lo[d] + a->len[d] <= b->lo[d] || b->lo[d] + b->len[d] <= a->lo[d]) return true;
  return false;
}

/* strataBufferTouchedBetween's rule while asking whether the target slice
 * is touched: subviews are no access; one disjoint from the slice is
 * skipped with all its uses. */
typedef struct {
  MlirValue root;
  Box target;
} TargetSlice;

static StrataViewRule targetRule(MlirOperation view, void *user) {
  const TargetSlice *t = user;
  if (!strataOpIsNamed(view, "memref.subview")) return STRATA_VIEW_COUNT;
  Box b;
  if (boxIn(mlirOperationGetResult(view, 0), t->root, &b) && boxesDisjoint(&b, &t->target)) return STRATA_VIEW_SKIP;
  return STRATA_VIEW_PASS;
}

static bool isAccessOp(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return (n.length > 7 && !strncmp(n.data, "linalg.", 7)) || strataOpIsNamed(op, "memref.load") ||
         strataOpIsNamed(op, "memref.store") || strataOpIsNamed(op, "memref.copy") ||
         strataOpIsNamed(op, "vector.transfer_read") || strataOpIsNamed(op, "vector.transfer_write");
}

/* Whether every use of v (other than `copy`) takes v laid out as s; *why
 * otherwise. */
static bool usesTakeLayout(MlirValue v, const Strided *s, MlirOperation copy, const char **why, int depth) {
  if (depth > MAX_CHAIN) return *why = "its views nest too deep", false;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (mlirOperationEqual(user, copy) || isAccessOp(user)) continue;
    if (strataOpIsNamed(user, "memref.dealloc")) {
      if (depth == 0) continue;
      return *why = "a view of the buffer is freed", false;
    }
    int64_t off[MAX_RANK], size[MAX_RANK], step[MAX_RANK];
    int rank;
    if (staticSubview(user, off, size, step, &rank)) {
      Strided sub = subviewLayout(s, off, size, step);
      if (!usesTakeLayout(mlirOperationGetResult(user, 0), &sub, copy, why, depth + 1)) return false;
      continue;
    }
    if (strataOpIsNamed(user, "memref.cast") && mlirTypeIsAUnrankedMemRef(mlirValueGetType(mlirOperationGetResult(user, 0)))) {
      MlirValue cast = mlirOperationGetResult(user, 0);
      for (MlirOpOperand c = mlirValueGetFirstUse(cast); !mlirOpOperandIsNull(c); c = mlirOpOperandGetNextUse(c)) {
        MlirOperation call = mlirOpOperandGetOwner(c);
        if (!strataBufferIsRuntimeCall(call)) return *why = "an unranked view of the buffer goes elsewhere than a kernel", false;
        MlirStringRef callee = mlirFlatSymbolRefAttrGetValue(strataOpAttr(call, "callee"));
        char name[128];
        if (callee.length >= sizeof name) return *why = "a kernel's name is too long", false;
        memcpy(name, callee.data, callee.length);
        name[callee.length] = 0;
        if (!layoutAccepts(strataRtAbiArgLayout(name, (size_t)mlirOpOperandGetOperandNumber(c)), s))
          return *why = "a kernel takes the buffer in a layout the slice does not have", false;
      }
      continue;
    }
    return *why = "a use needs the buffer's own layout", false;
  }
  return true;
}

/* The planning decision for one copy: NULL if it can be rewritten (item
 * filled in), else why not ("" when it is no copy into a slice of an
 * alloc). */
static const char *judgeCopy(MlirOperation copy, MlirOperation func, SliceItem *item) {
  MlirValue src = mlirOperationGetOperand(copy, 0), dst = mlirOperationGetOperand(copy, 1);
  if (!mlirValueIsAOpResult(dst) || !strataOpIsNamed(mlirOpResultGetOwner(dst), "memref.subview")) return "";
  if (!mlirValueIsAOpResult(src) || !strataOpIsNamed(mlirOpResultGetOwner(src), "memref.alloc"))
    return "the source is not a buffer allocated here (an argument or a constant)";
  MlirOperation alloc = mlirOpResultGetOwner(src);
  MlirBlock block = mlirOperationGetBlock(copy);
  int64_t count;
  if (mlirOperationGetNumOperands(alloc) || !strataBufferPlain(mlirValueGetType(src), &count) || count == 0)
    return "the source is not a statically shaped, non-empty, identity-layout buffer";
  if (!mlirBlockEqual(mlirOperationGetBlock(alloc), block)) return "the alloc and the copy are in different blocks";
  /* The target: static subviews of an alloc in this block. */
  MlirValue v = dst;
  item->chainLen = 0;
  int64_t off[MAX_RANK], size[MAX_RANK], step[MAX_RANK];
  int rank;
  while (mlirValueIsAOpResult(v) && strataOpIsNamed(mlirOpResultGetOwner(v), "memref.subview")) {
    MlirOperation sv = mlirOpResultGetOwner(v);
    if (item->chainLen == MAX_CHAIN || !staticSubview(sv, off, size, step, &rank) ||
        !mlirBlockEqual(mlirOperationGetBlock(sv), block))
      return "the target is not a static slice in this block";
    memmove(item->chain + 1, item->chain, sizeof item->chain[0] * (size_t)item->chainLen++);
    item->chain[0] = sv;
    v = mlirOperationGetOperand(sv, 0);
  }
  int64_t rootCount;
  item->root = (MlirOperation){NULL};
  if (!strataBufferPlain(mlirValueGetType(v), &rootCount))
    return "the target is not a slice of a statically shaped, identity-layout buffer";
  if (mlirValueIsABlockArgument(v)) {
    bool marked;
    if (!mlirBlockEqual(mlirBlockArgumentGetOwner(v), mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0))) ||
        !strataBufferIsPlaceholder(func, mlirBlockArgumentGetArgNumber(v), true, &marked))
      return "the target is a slice of an argument that is no out-parameter";
  } else {
    if (!strataOpIsNamed(mlirOpResultGetOwner(v), "memref.alloc") || mlirOperationGetNumOperands(mlirOpResultGetOwner(v)) ||
        !mlirBlockEqual(mlirOperationGetBlock(mlirOpResultGetOwner(v)), block))
      return "the target is not a slice of a buffer allocated in this block or an out-parameter";
    item->root = mlirOpResultGetOwner(v);
    if (mlirOperationEqual(item->root, alloc)) return "the source is the target's own buffer";
  }
  /* The slice's layout, for %t's uses. */
  Strided slice, t;
  if (!stridedOf(mlirValueGetType(dst), &slice) || !stridedOf(mlirValueGetType(src), &t) || slice.rank != t.rank ||
      !mlirTypeEqual(mlirShapedTypeGetElementType(mlirValueGetType(src)), mlirShapedTypeGetElementType(mlirValueGetType(dst))))
    return "the source and the slice differ in shape or element type";
  for (int d = 0; d < t.rank; d++)
    if (t.size[d] != slice.size[d]) return "the source and the slice differ in shape or element type";
  intptr_t allocAt = strataBufferPositionOf(alloc), copyAt = strataBufferPositionOf(copy);
  const char *why = NULL;
  if (!strataBufferUsesEndBefore(src, block, copyAt, copy, &why, 0)) return why;
  if (!usesTakeLayout(src, &slice, copy, &why, 0)) return why;
  TargetSlice target = {v, {0}};
  if (!boxIn(dst, v, &target.target)) return "the slice is strided";
  if (strataBufferTouchedBetween(v, block, allocAt, copyAt, copy, targetRule, &target, 0))
    return "the slice is accessed between the alloc and the copy";
  item->copy = copy;
  item->alloc = alloc;
  int64_t eb = strataArenaElementBytes(mlirValueGetType(src));
  item->bytes = eb > 0 ? count * eb : 0;
  return NULL;
}

static void planBlock(SlicePlan *plan, MlirOperation func, MlirBlock b) {
  for (MlirOperation o = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o)) {
    if (strataOpIsNamed(o, "memref.copy")) {
      SliceItem item;
      const char *why = judgeCopy(o, func, &item);
      if (!why) {
        SliceItem *items = strataGrow(plan->items, &plan->cap, plan->count + 1, sizeof *items);
        if (!items) {
          plan->oom = true;
          return;
        }
        plan->items = items;
        items[plan->count++] = item;
      } else if (plan->report && *why) {
        strataEmitDiagnostic(STRATA_SEVERITY_REMARK, mlirOperationGetLocation(o),
                             "strata-slice-alias: copy into the slice kept: %s", why);
      }
    }
    for (intptr_t r = 0; r < mlirOperationGetNumRegions(o); r++)
      for (MlirBlock nb = mlirRegionGetFirstBlock(mlirOperationGetRegion(o, r)); !mlirBlockIsNull(nb);
           nb = mlirBlockGetNextInRegion(nb))
        planBlock(plan, func, nb);
  }
}

/* A buffer that is the target of a planned copy waits for the next round
 * (its uses change when that copy goes). */
static void deferTargets(SlicePlan *plan) {
  size_t kept = 0;
  for (size_t i = 0; i < plan->count; i++) {
    bool isTarget = false;
    for (size_t j = 0; j < plan->count && !isTarget; j++)
      isTarget = !mlirOperationIsNull(plan->items[j].root) && mlirOperationEqual(plan->items[j].root, plan->items[i].alloc);
    if (!isTarget) plan->items[kept++] = plan->items[i];
  }
  plan->count = kept;
}

/* Replaces every use of `old` (but `copy`) by `now`, whose layout is s:
 * subviews are rebuilt with their new result types, deallocs of `old`
 * erased, other users changed in place. */
static void retypeUses(StrataRewrite *rw, MlirValue old, MlirValue now, const Strided *s, MlirOperation copy) {
  MlirOpOperand u = mlirValueGetFirstUse(old);
  while (!mlirOpOperandIsNull(u)) {
    MlirOpOperand next = mlirOpOperandGetNextUse(u);
    MlirOperation user = mlirOpOperandGetOwner(u);
    int64_t off[MAX_RANK], size[MAX_RANK], step[MAX_RANK];
    int rank;
    if (mlirOperationEqual(user, copy)) {
      /* erased by the caller */
    } else if (strataOpIsNamed(user, "memref.dealloc")) {
      strataEraseOp(rw, user);
    } else if (staticSubview(user, off, size, step, &rank)) {
      Strided sub = subviewLayout(s, off, size, step);
      StrataBuilder b = strataBuilderBefore(user, rw->rewriter);
      MlirType elem = mlirShapedTypeGetElementType(mlirValueGetType(old));
      MlirOperation nv = strataCreateOp(&b, "memref.subview", mlirOperationGetLocation(user),
                                        .operands = STRATA_VALUES(now), .results = STRATA_TYPES(stridedType(elem, &sub)),
                                        .attrs = STRATA_ATTRS({"operandSegmentSizes", strataOpAttr(user, "operandSegmentSizes")},
                                                              {"static_offsets", strataOpAttr(user, "static_offsets")},
                                                              {"static_sizes", strataOpAttr(user, "static_sizes")},
                                                              {"static_strides", strataOpAttr(user, "static_strides")}));
      retypeUses(rw, mlirOperationGetResult(user, 0), mlirOperationGetResult(nv, 0), &sub, copy);
      strataEraseOp(rw, user);
    } else {
      mlirRewriterBaseStartOpModification(rw->rewriter, user);
      mlirOperationSetOperand(user, mlirOpOperandGetOperandNumber(u), now);
      mlirRewriterBaseFinalizeOpModification(rw->rewriter, user);
    }
    u = next;
  }
}

/* Pattern on memref.copy: a planned copy's source becomes its slice. */
static MlirLogicalResult computeInSlice(StrataRewrite *rw, MlirOperation copy, void *user) {
  SlicePlan *plan = user;
  const SliceItem *it = NULL;
  for (size_t i = 0; i < plan->count && !it; i++)
    if (mlirOperationEqual(plan->items[i].copy, copy)) it = &plan->items[i];
  if (!it) return mlirLogicalResultFailure();
  /* The target's alloc and views before %t's alloc. */
  intptr_t allocAt = strataBufferPositionOf(it->alloc);
  if (!mlirOperationIsNull(it->root) && strataBufferPositionOf(it->root) > allocAt)
    mlirRewriterBaseMoveOpBefore(rw->rewriter, it->root, it->alloc);
  for (int k = 0; k < it->chainLen; k++)
    if (strataBufferPositionOf(it->chain[k]) > allocAt) mlirRewriterBaseMoveOpBefore(rw->rewriter, it->chain[k], it->alloc);
  MlirValue slice = mlirOperationGetOperand(copy, 1), t = mlirOperationGetResult(it->alloc, 0);
  Strided s;
  stridedOf(mlirValueGetType(slice), &s);
  if (plan->report)
    strataEmitDiagnostic(STRATA_SEVERITY_REMARK, mlirOperationGetLocation(copy),
                         "strata-slice-alias: copy of %lld bytes into the slice removed", (long long)it->bytes);
  retypeUses(rw, t, slice, &s, copy);
  strataEraseOp(rw, copy);
  strataEraseOp(rw, it->alloc);
  plan->bytes += it->bytes;
  plan->copies++;
  return mlirLogicalResultSuccess();
}

static void runSliceAlias(StrataPassRun *run, MlirOperation module) {
  SlicePlan plan = {.report = strataPassGetBool(run, "report")};
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (int round = 0; round < MAX_ROUNDS && !plan.oom; round++) {
    plan.count = 0;
    bool report = plan.report;
    plan.report = report && round == 0; /* refusals once */
    for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op))
      if (strataOpIsNamed(op, "func.func") && mlirOperationGetNumRegions(op) == 1)
        for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)); !mlirBlockIsNull(b);
             b = mlirBlockGetNextInRegion(b))
          planBlock(&plan, op, b);
    plan.report = report;
    deferTargets(&plan);
    if (plan.oom || !plan.count) break;
    StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(module));
    if (!set) {
      plan.oom = true;
      break;
    }
    strataPatternSetAdd(set, "memref.copy", 1, computeInSlice, &plan);
    strataApplyPatternsWalk(set, module);
    strataPatternSetDestroy(set);
  }
  if (plan.oom) {
    strataEmitError(mlirOperationGetLocation(module), "strata-slice-alias: out of memory");
    strataPassSignalFailure(run);
  } else if (plan.report) {
    strataEmitDiagnostic(STRATA_SEVERITY_REMARK, mlirOperationGetLocation(module),
                         "strata-slice-alias: %lld copies (%lld bytes) into slices removed", (long long)plan.copies,
                         (long long)plan.bytes);
  }
  free(plan.items);
}

static const StrataPassOptionDef kOptions[] = {
    {"report", STRATA_OPTION_BOOL, "false", "Remark each removed copy, each kept one and why, and the module's total"},
};

static const StrataDialectHandleFn kDeps[] = {mlirGetDialectHandle__memref__, NULL};

const StrataPassDef strataSliceAliasPass = {
    .name = "strata-slice-alias",
    .summary = "Compute buffers copied into a slice of another buffer (a Concat's operands) in that slice: "
               "the copy and the allocation go away (memref level, before deallocation)",
    .anchor = "builtin.module",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof kOptions[0],
    .run = runSliceAlias,
    .dependentDialects = kDeps,
};
