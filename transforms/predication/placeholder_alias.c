/* --pred-placeholder-alias: static copy elimination into placeholders
 * (Grape's alias predictor, decided at compile time; docs/pred-memory.md).
 *
 *   %t = memref.alloc() ; ...writes %t... ; memref.copy %t, %ph
 * becomes
 *   ...writes %ph...                       (the copy and the alloc are gone)
 *
 * A placeholder is a function argument the caller provides and reads after
 * the call, promising it aliases no other argument: one marked with the
 * unit argument attribute `pred.placeholder`, and (option
 * `c-interface-outputs`, on by default) any argument a function with
 * `llvm.emit_c_interface` copies into. Strata's C-interface functions have
 * read-only inputs (strata-emit-c-interface), so an argument they write is
 * an out-parameter of buffer-results-to-out-params, which upstream's
 * hoist-static-allocs already assumes distinct from the inputs.
 *
 * The rewrite is exact when, in the block holding both the alloc and the
 * copy:
 *  - the copy's source is %t itself or a contiguous view of all of it
 *    (memref.reshape, collapse_shape, expand_shape, cast chains) and %t and
 *    %ph are statically shaped, identity-layout buffers of the same element
 *    type and count in the same memory space;
 *  - nothing touches %ph (or a view of it) between the alloc and the copy,
 *    and %ph is not passed into a region that holds them;
 *  - every use of %t (and of its views) is before the copy, apart from its
 *    deallocs; none lets it escape: no return, no call except into
 *    libstrata_rt (whose kernels keep no operand past the call), no
 *    pointer extraction or unrealized cast.
 * Then %ph's contents before the copy are never observed, and after it they
 * are what the copy would have written. Anything else is left alone, with
 * a remark at the copy when the argument was marked `pred.placeholder`.
 *
 * Planning walks each function and records the copies to rewrite; the
 * rewrites are patterns applied by the walk driver, each erasing only its
 * matched op or ops the walk has passed: the alloc becomes the placeholder,
 * the copy (now a self-copy) and the alloc's deallocs go. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/MemRef.h"
#include "strata/builder.h"
#include "strata/context.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/support.h"
#include "grow.h"
#include "../memory/buffer_uses.h"

/* A planned rewrite: `alloc` becomes placeholder `ph`, `copy` goes. */
typedef struct {
  MlirOperation alloc, copy;
  MlirValue ph;
  int64_t bytes;
} Aliased;

typedef struct {
  Aliased *items;
  size_t count, cap;
  StrataOpList deallocs; /* of the planned allocs */
  bool report;
  int64_t bytes;
  bool oom;
} AliasPlan;

/* The planning decision for one copy: NULL if it can be rewritten, else
 * why not ("" when its target is no placeholder). *report: the target
 * was marked pred.placeholder, so a refusal is remarked. */
static const char *judgeCopy(MlirOperation copy, MlirOperation func, bool cInterfaceOutputs, bool *report) {
  *report = false;
  MlirValue src = mlirOperationGetOperand(copy, 0), ph = mlirOperationGetOperand(copy, 1);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (!mlirValueIsABlockArgument(ph) || !mlirBlockEqual(mlirBlockArgumentGetOwner(ph), entry)) return "";
  if (!strataBufferIsPlaceholder(func, mlirBlockArgumentGetArgNumber(ph), cInterfaceOutputs, report)) return "";
  /* The source: the whole of an alloc, through contiguous views. */
  MlirValue root = src;
  for (int k = 0; k < 16 && mlirValueIsAOpResult(root) && strataBufferIsWholeView(mlirOpResultGetOwner(root)); k++)
    root = mlirOperationGetOperand(mlirOpResultGetOwner(root), 0);
  if (!mlirValueIsAOpResult(root) || !strataOpIsNamed(mlirOpResultGetOwner(root), "memref.alloc"))
    return "the source is not the whole of a buffer allocated in this function";
  MlirOperation alloc = mlirOpResultGetOwner(root);
  MlirBlock block = mlirOperationGetBlock(copy);
  if (!mlirBlockEqual(mlirOperationGetBlock(alloc), block)) return "the alloc and the copy are in different blocks";
  int64_t nt, np, ns;
  MlirType tt = mlirValueGetType(root), pt = mlirValueGetType(ph), st = mlirValueGetType(src);
  if (!strataBufferPlain(tt, &nt) || !strataBufferPlain(pt, &np) || !strataBufferPlain(st, &ns))
    return "the buffers are not statically shaped with identity layouts";
  if (nt != np || ns != nt || !mlirTypeEqual(mlirShapedTypeGetElementType(tt), mlirShapedTypeGetElementType(pt)))
    return "the buffer and the placeholder differ in size or element type";
  intptr_t allocAt = strataBufferPositionOf(alloc), copyAt = strataBufferPositionOf(copy);
  if (strataBufferTouchedBetween(ph, block, allocAt, copyAt, copy, NULL, NULL, 0))
    return "the placeholder is accessed between the alloc and the copy";
  const char *why = NULL;
  if (!strataBufferUsesEndBefore(root, block, copyAt, copy, &why, 0)) return why;
  return NULL;
}

static int64_t bufferBytes(MlirType t) {
  int64_t n = 0;
  strataBufferPlain(t, &n);
  MlirType e = mlirShapedTypeGetElementType(t);
  int64_t bits = mlirTypeIsAIndex(e) ? 64 : mlirTypeIsAInteger(e) ? (int64_t)mlirIntegerTypeGetWidth(e)
                 : mlirTypeIsAFloat(e) ? (int64_t)mlirFloatTypeGetWidth(e) : 0;
  return n * ((bits + 7) / 8);
}

/* Records copy `copy` (judged rewritable), its alloc and the alloc's
 * deallocs. */
static void record(AliasPlan *plan, MlirOperation copy) {
  MlirValue root = mlirOperationGetOperand(copy, 0);
  while (!strataOpIsNamed(mlirOpResultGetOwner(root), "memref.alloc"))
    root = mlirOperationGetOperand(mlirOpResultGetOwner(root), 0);
  Aliased *items = strataGrow(plan->items, &plan->cap, plan->count + 1, sizeof *items);
  if (!items) {
    plan->oom = true;
    return;
  }
  plan->items = items;
  Aliased *a = &items[plan->count++];
  *a = (Aliased){mlirOpResultGetOwner(root), copy, mlirOperationGetOperand(copy, 1), bufferBytes(mlirValueGetType(root))};
  plan->bytes += a->bytes;
  for (MlirOpOperand u = mlirValueGetFirstUse(root); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    if (strataOpIsNamed(mlirOpOperandGetOwner(u), "memref.dealloc") &&
        !strataOpListAppend(&plan->deallocs, mlirOpOperandGetOwner(u)))
      plan->oom = true;
}


/* Visits every memref.copy nested in `op`'s regions. */
static void planRegions(AliasPlan *plan, MlirOperation op, MlirOperation func, bool cInterfaceOutputs) {
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); r++)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r)); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      for (MlirOperation o = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(o);
           o = mlirOperationGetNextInBlock(o)) {
        if (strataOpIsNamed(o, "memref.copy")) {
          bool marked;
          const char *why = judgeCopy(o, func, cInterfaceOutputs, &marked);
          if (!why) {
            record(plan, o);
          } else if (marked && *why) {
            strataEmitDiagnostic(STRATA_SEVERITY_REMARK, mlirOperationGetLocation(o),
                                 "pred-placeholder-alias: copy into the placeholder kept: %s", why);
          }
        }
        planRegions(plan, o, func, cInterfaceOutputs);
      }
}

static void planFunction(AliasPlan *plan, MlirOperation func, bool cInterfaceOutputs) {
  planRegions(plan, func, func, cInterfaceOutputs);
}

/* Pattern on memref.alloc: a planned buffer becomes its placeholder,
 * viewed in the buffer's shape when the two differ. */
static MlirLogicalResult placeInPlaceholder(StrataRewrite *rw, MlirOperation alloc, void *user) {
  AliasPlan *plan = user;
  const Aliased *a = NULL;
  for (size_t i = 0; i < plan->count && !a; i++)
    if (mlirOperationEqual(plan->items[i].alloc, alloc)) a = &plan->items[i];
  if (!a) return mlirLogicalResultFailure();
  MlirType tt = mlirValueGetType(mlirOperationGetResult(alloc, 0));
  MlirValue view = a->ph;
  if (!mlirTypeEqual(tt, mlirValueGetType(a->ph))) {
    intptr_t rank = mlirShapedTypeGetRank(tt);
    int64_t *sizes = malloc(sizeof *sizes * (size_t)(2 * rank + 1)), *strides = sizes + rank, stride = 1;
    if (!sizes) {
      plan->oom = true;
      return mlirLogicalResultFailure();
    }
    for (intptr_t i = rank - 1; i >= 0; i--) {
      sizes[i] = mlirShapedTypeGetDimSize(tt, i);
      strides[i] = stride;
      stride *= sizes[i];
    }
    MlirContext ctx = rw->builder.ctx;
    view = strataResult(
        strataCreateOp(&rw->builder, "memref.reinterpret_cast", mlirOperationGetLocation(alloc),
                       .operands = STRATA_VALUES(a->ph), .results = STRATA_TYPES(tt),
                       .attrs = STRATA_ATTRS({"operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 4, (int32_t[]){1, 0, 0, 0})},
                                             {"static_offsets", mlirDenseI64ArrayGet(ctx, 1, (int64_t[]){0})},
                                             {"static_sizes", mlirDenseI64ArrayGet(ctx, rank, sizes)},
                                             {"static_strides", mlirDenseI64ArrayGet(ctx, rank, strides)})),
        0);
    free(sizes);
  }
  strataReplaceOp(rw, alloc, STRATA_VALUES(view));
  return mlirLogicalResultSuccess();
}

/* Pattern on memref.copy: a planned copy is now a self-copy (its source a
 * view of its target): it goes, and so do the views that only fed it
 * (before it, so already visited by the walk). */
static MlirLogicalResult dropSelfCopy(StrataRewrite *rw, MlirOperation copy, void *user) {
  AliasPlan *plan = user;
  const Aliased *a = NULL;
  for (size_t i = 0; i < plan->count && !a; i++)
    if (mlirOperationEqual(plan->items[i].copy, copy)) a = &plan->items[i];
  if (!a) return mlirLogicalResultFailure();
  if (plan->report)
    strataEmitDiagnostic(STRATA_SEVERITY_REMARK, mlirOperationGetLocation(copy),
                         "pred-placeholder-alias: copy of %lld bytes into the placeholder removed", (long long)a->bytes);
  MlirValue src = mlirOperationGetOperand(copy, 0);
  strataEraseOp(rw, copy);
  while (mlirValueIsAOpResult(src) && strataBufferIsWholeView(mlirOpResultGetOwner(src)) &&
         mlirOpOperandIsNull(mlirValueGetFirstUse(src))) {
    MlirOperation v = mlirOpResultGetOwner(src);
    src = mlirOperationGetOperand(v, 0);
    strataEraseOp(rw, v);
  }
  return mlirLogicalResultSuccess();
}

/* Pattern on memref.dealloc: a planned buffer's dealloc would free the
 * placeholder. */
static MlirLogicalResult dropDealloc(StrataRewrite *rw, MlirOperation dealloc, void *user) {
  AliasPlan *plan = user;
  if (!strataOpListContains(&plan->deallocs, dealloc)) return mlirLogicalResultFailure();
  strataEraseOp(rw, dealloc);
  return mlirLogicalResultSuccess();
}

static void runPlaceholderAlias(StrataPassRun *run, MlirOperation module) {
  AliasPlan plan = {.report = strataPassGetBool(run, "report")};
  bool cInterfaceOutputs = strataPassGetBool(run, "c-interface-outputs");
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (strataOpIsNamed(op, "func.func") && mlirOperationGetNumRegions(op) == 1 &&
        !mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0))))
      planFunction(&plan, op, cInterfaceOutputs);
  if (!plan.oom && plan.count) {
    StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(module));
    if (!set) plan.oom = true;
    else {
      strataPatternSetAdd(set, "memref.alloc", 1, placeInPlaceholder, &plan);
      strataPatternSetAdd(set, "memref.copy", 1, dropSelfCopy, &plan);
      strataPatternSetAdd(set, "memref.dealloc", 1, dropDealloc, &plan);
      strataApplyPatternsWalk(set, module);
      strataPatternSetDestroy(set);
    }
  }
  if (plan.oom) {
    strataEmitError(mlirOperationGetLocation(module), "pred-placeholder-alias: out of memory");
    strataPassSignalFailure(run);
  } else if (plan.report) {
    strataEmitDiagnostic(STRATA_SEVERITY_REMARK, mlirOperationGetLocation(module),
                         "pred-placeholder-alias: %lld copies (%lld bytes) into placeholders removed",
                         (long long)plan.count, (long long)plan.bytes);
  }
  free(plan.items);
  strataOpListDestroy(&plan.deallocs);
}

static const StrataPassOptionDef kOptions[] = {
    {"c-interface-outputs", STRATA_OPTION_BOOL, "true",
     "Treat the arguments a C-interface function copies into (its out-parameters) as placeholders"},
    {"report", STRATA_OPTION_BOOL, "false", "Remark each removed copy and the module's total bytes"},
};

static const StrataDialectHandleFn kDeps[] = {mlirGetDialectHandle__memref__, NULL};

const StrataPassDef strataPredPlaceholderAliasPass = {
    .name = "pred-placeholder-alias",
    .summary = "Write buffers copied into placeholders (marked arguments, C-interface outputs) in place: "
               "the copy and the allocation go away (memref level)",
    .anchor = "builtin.module",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof kOptions[0],
    .run = runPlaceholderAlias,
    .dependentDialects = kDeps,
};
