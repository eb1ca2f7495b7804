/* --strata-shape-plan: after strata-buffer-arena, the buffers of dynamic
 * size at the top level of a function body share one arena per shape
 * class, planned at run time (issue 19; SOD² B6). strata-buffer-arena
 * plans the static buffers at compile time; a dynamic buffer's size is
 * known only once the function runs, but where its size follows from the
 * extents of the function's arguments alone (its size operands are
 * arithmetic on constants and `memref.dim`s of the arguments, also through
 * the shape lists of lowered reshapes: stored, then loaded), one set of
 * extents, a shape class, fixes every such size. Its live range (alloc to
 * the last use of it or of a view of it, over the body's top-level ops)
 * does not depend on the class. Sizes the function computes from values it
 * reads from memory (the shape arithmetic of an ONNX graph, done on
 * tensors; a Reshape's shape that is an input) are planned too, as the
 * class's first call met them: a later call gets the slot when its buffer
 * fits and the heap when not (the runtime checks every size), so the plan
 * stays exact whatever the values.
 *
 * Each such function gets:
 *   - a slot in the module's plan table `__strata_shape_plans` (a mutable
 *     global: the count of functions, then one cache pointer each; the JIT
 *     frees the caches when it unloads the code);
 *   - a constant description `__strata_shape_life_<k>`: its slot, its
 *     buffer count, each buffer's first and last step;
 *   - at entry, the key (its arguments' dynamic extents) and a call of
 *     strata_rt_shape_plan_begin; before its return,
 *     strata_rt_shape_plan_end;
 *   - each planned alloc becomes strata_rt_shape_plan_alloc(index, bytes)
 *     viewed at the alloc's type, its dealloc strata_rt_shape_plan_free.
 * The runtime (runtime/shape_plan.c) plans a class at the end of its first
 * call, keeps the plan, and serves later calls from one arena.
 *
 * Buffers whose size is counted from data (a result of a loop, a branch or
 * a call: NonZero, Unique, ...), allocated inside loops or branches, freed anywhere but once at
 * the top level, or escaping the body stay on the heap, untouched. */
#include <stdio.h>
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

#define TABLE_SYM "__strata_shape_plans"
#define BEGIN_FN "strata_rt_shape_plan_begin"
#define ALLOC_FN "strata_rt_shape_plan_alloc"
#define FREE_FN "strata_rt_shape_plan_free"
#define END_FN "strata_rt_shape_plan_end"

typedef struct {
  MlirOperation op;     /* the alloc or its dealloc: the key of the lookup */
  MlirOperation func;   /* its function */
  int64_t index;        /* the buffer's number in its function */
} Site;

typedef struct {
  MlirOperation func;
  int64_t slot;          /* in the table */
  int64_t *life;         /* slot, n, then first and last per buffer */
  int64_t n;
  bool atEntry;          /* every buffer's size follows from the class: computed at entry */
  MlirValue state;       /* begin's result, once opened */
} PlannedFunction;

typedef struct {
  PlannedFunction *funcs;
  size_t numFuncs, capFuncs;
  Site *allocs, *deallocs;
  size_t numAllocs, capAllocs, numDeallocs, capDeallocs;
  MlirType stateType; /* memref<?xi8> */
  MlirOperation module;
  bool oom;
} ShapePlan;

/* How a size is known: from the class (the arguments' extents), or from
 * values the function computes before the alloc (read from memory: shape
 * computations the code does on tensors, or data), or neither. */
typedef enum { SIZE_CLASS, SIZE_COMPUTED, SIZE_UNKNOWN } SizeKind;

/* Kinds found so far in one function body (open addressing on the value):
 * sizes reach the arguments through DAGs of shared shape arithmetic, which
 * a walk without it would visit once per path. */
typedef struct {
  const void **keys;
  unsigned char *kinds;
  size_t cap; /* a power of two; 0: no memo (allocation failed) */
  size_t n;
} SizeMemo;

static SizeKind sizeKind(MlirValue v, MlirBlock entry, int depth, SizeMemo *memo);

/* The integer of an arith.constant index, or -1. */
static int64_t constantIndex(MlirValue v) {
  if (mlirValueIsABlockArgument(v) || !strataOpIsNamed(mlirOpResultGetOwner(v), "arith.constant")) return -1;
  MlirAttribute a = strataOpAttr(mlirOpResultGetOwner(v), "value");
  return mlirAttributeIsAInteger(a) ? mlirIntegerAttrGetValueInt(a) : -1;
}

/* The value `load` (memref.load at the top level of `entry`, at a constant
 * index of a 1-D buffer) reads, when the buffer is a shape list (lowered
 * reshape targets): the function's own (allocated, or a view of an
 * arena), used only by top-level stores at constant indices,
 * loads and as the shape of memref.reshape. The last store to that index
 * before the load; null otherwise. */
static MlirValue storedValue(MlirOperation load, MlirBlock entry) {
  if (!mlirBlockEqual(mlirOperationGetBlock(load), entry) || mlirOperationGetNumOperands(load) != 2)
    return (MlirValue){NULL};
  MlirValue buf = mlirOperationGetOperand(load, 0);
  int64_t index = constantIndex(mlirOperationGetOperand(load, 1));
  /* the function's own buffer: an argument might alias another */
  if (index < 0 || mlirValueIsABlockArgument(buf)) return (MlirValue){NULL};
  MlirOperation def = mlirOpResultGetOwner(buf);
  if (!strataOpIsNamed(def, "memref.view") && !strataOpIsNamed(def, "memref.alloc") &&
      !strataOpIsNamed(def, "memref.alloca"))
    return (MlirValue){NULL};
  for (MlirOpOperand u = mlirValueGetFirstUse(buf); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    intptr_t at = mlirOpOperandGetOperandNumber(u);
    bool store = strataOpIsNamed(user, "memref.store") && at == 1 &&
                 mlirBlockEqual(mlirOperationGetBlock(user), entry) &&
                 constantIndex(mlirOperationGetOperand(user, 2)) >= 0;
    if (!store && !strataOpIsNamed(user, "memref.load") && !(strataOpIsNamed(user, "memref.reshape") && at == 1))
      return (MlirValue){NULL};
  }
  MlirValue found = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationEqual(op, load);
       op = mlirOperationGetNextInBlock(op))
    if (strataOpIsNamed(op, "memref.store") && mlirValueEqual(mlirOperationGetOperand(op, 1), buf) &&
        constantIndex(mlirOperationGetOperand(op, 2)) == index)
      found = mlirOperationGetOperand(op, 0);
  return found;
}

/* How v, at the top of `entry`'s function, is known: SIZE_CLASS for
 * constants, memref.dim of an argument, arithmetic on such values, and
 * such values stored to a shape list and loaded back; SIZE_COMPUTED when
 * other loads from memory enter; SIZE_UNKNOWN for anything else (results
 * of loops, branches and calls: counted from data). */
static size_t memoSlot(const SizeMemo *m, const void *key) {
  size_t h = ((uintptr_t)key >> 4) * 0x9e3779b97f4a7c15ull, i = h & (m->cap - 1);
  while (m->keys[i] && m->keys[i] != key) i = (i + 1) & (m->cap - 1);
  return i;
}

/* Records v's kind (the memo grows at half full; a failed growth only
 * stops recording). */
static SizeKind memoPut(SizeMemo *m, MlirValue v, SizeKind k) {
  if (!m->cap) return k;
  if (2 * (m->n + 1) > m->cap) {
    SizeMemo g = {calloc(2 * m->cap, sizeof *g.keys), calloc(2 * m->cap, 1), 2 * m->cap, 0};
    if (!g.keys || !g.kinds) {
      free(g.keys);
      free(g.kinds);
      return k;
    }
    for (size_t i = 0; i < m->cap; i++)
      if (m->keys[i]) {
        size_t j = memoSlot(&g, m->keys[i]);
        g.keys[j] = m->keys[i], g.kinds[j] = m->kinds[i], g.n++;
      }
    free(m->keys);
    free(m->kinds);
    *m = g;
  }
  size_t i = memoSlot(m, v.ptr);
  if (!m->keys[i]) m->keys[i] = v.ptr, m->n++;
  m->kinds[i] = (unsigned char)k;
  return k;
}

static SizeKind sizeKindOf(MlirValue v, MlirBlock entry, int depth, SizeMemo *memo);

static SizeKind sizeKind(MlirValue v, MlirBlock entry, int depth, SizeMemo *memo) {
  if (memo->cap) {
    size_t i = memoSlot(memo, v.ptr);
    if (memo->keys[i]) return (SizeKind)memo->kinds[i];
  }
  return memoPut(memo, v, sizeKindOf(v, entry, depth, memo));
}

static SizeKind sizeKindOf(MlirValue v, MlirBlock entry, int depth, SizeMemo *memo) {
  /* deep chains are fine with the memo; without one, bounded tightly */
  if (depth > (memo->cap ? 512 : 32) || mlirValueIsABlockArgument(v)) return SIZE_UNKNOWN;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!mlirBlockEqual(mlirOperationGetBlock(def), entry)) return SIZE_UNKNOWN;
  if (strataOpIsNamed(def, "memref.load")) {
    MlirValue stored = storedValue(def, entry);
    return mlirValueIsNull(stored) ? SIZE_COMPUTED : sizeKind(stored, entry, depth + 1, memo);
  }
  if (strataOpIsNamed(def, "memref.dim")) {
    MlirValue src = mlirOperationGetOperand(def, 0);
    bool arg = mlirValueIsABlockArgument(src) && mlirBlockEqual(mlirBlockArgumentGetOwner(src), entry);
    return arg ? sizeKind(mlirOperationGetOperand(def, 1), entry, depth + 1, memo) : SIZE_UNKNOWN;
  }
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(def));
  bool arith = (name.length > 6 && !strncmp(name.data, "arith.", 6)) || (name.length > 6 && !strncmp(name.data, "index.", 6)) ||
               strataOpIsNamed(def, "affine.apply") || strataOpIsNamed(def, "affine.min") ||
               strataOpIsNamed(def, "affine.max");
  if (!arith || mlirOperationGetNumRegions(def) != 0) return SIZE_UNKNOWN;
  SizeKind kind = SIZE_CLASS;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(def) && kind != SIZE_UNKNOWN; i++) {
    SizeKind k = sizeKind(mlirOperationGetOperand(def, i), entry, depth + 1, memo);
    if (k > kind) kind = k;
  }
  return kind;
}

/* The one dealloc of `alloc`'s buffer, at the top level of `block`; null
 * if it has none or others. */
static MlirOperation soleTopLevelDealloc(MlirOperation alloc, MlirBlock block) {
  MlirOperation found = {NULL};
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(alloc, 0)); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (!strataOpIsNamed(user, "memref.dealloc")) continue;
    if (!mlirOperationIsNull(found) || !mlirBlockEqual(mlirOperationGetBlock(user), block))
      return (MlirOperation){NULL};
    found = user;
  }
  return found;
}

/* True if `alloc` (top level of `block`) can take a planned slot; *ofClass
 * false unless its size follows from the class alone. */
static bool plannable(MlirOperation alloc, MlirBlock block, bool *ofClass, SizeMemo *memo) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(alloc, 0));
  if (mlirShapedTypeHasStaticShape(t) || !strataArenaPlainLayout(t) || strataArenaElementBytes(t) <= 0) return false;
  MlirAttribute align = strataOpAttr(alloc, "alignment");
  if (!mlirAttributeIsNull(align) && (!mlirAttributeIsAInteger(align) || mlirIntegerAttrGetValueInt(align) > 64))
    return false;
  *ofClass = true;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(alloc); i++) {
    SizeKind k = sizeKind(mlirOperationGetOperand(alloc, i), block, 0, memo);
    if (k == SIZE_UNKNOWN) return false;
    if (k != SIZE_CLASS) *ofClass = false;
  }
  return !mlirOperationIsNull(soleTopLevelDealloc(alloc, block));
}

static bool addSite(Site **sites, size_t *count, size_t *cap, Site s) {
  Site *grown = strataGrow(*sites, cap, *count + 1, sizeof *grown);
  if (!grown) return false;
  *sites = grown;
  (*sites)[(*count)++] = s;
  return true;
}

/* Plans one function body: its plannable allocs and their live ranges. */
static void planFunction(ShapePlan *plan, MlirOperation func) {
  MlirBlock block;
  intptr_t n;
  MlirOperation *ops = strataArenaBodyOps(func, &block, &n);
  if (!ops && n == 0) return;
  int64_t *life = ops ? malloc(sizeof *life * (size_t)(2 + 2 * n)) : NULL;
  if (!ops || !life) {
    free(ops);
    free(life);
    plan->oom = true;
    return;
  }
  int64_t count = 0;
  bool atEntry = true, ofClass = false;
  SizeMemo memo = {calloc(256, sizeof *memo.keys), calloc(256, 1), 256, 0};
  if (!memo.keys || !memo.kinds) memo.cap = 0;
  for (intptr_t i = 0; i < n && !plan->oom; i++) {
    if (!strataOpIsNamed(ops[i], "memref.alloc") || !plannable(ops[i], block, &ofClass, &memo)) continue;
    intptr_t last = strataArenaLastUse(mlirOperationGetResult(ops[i], 0), block, ops, n);
    if (last < 0) continue;
    atEntry = atEntry && ofClass;
    life[2 + 2 * count] = i;
    life[3 + 2 * count] = last > i ? last : i;
    plan->oom = !addSite(&plan->allocs, &plan->numAllocs, &plan->capAllocs, (Site){ops[i], func, count}) ||
                !addSite(&plan->deallocs, &plan->numDeallocs, &plan->capDeallocs,
                         (Site){soleTopLevelDealloc(ops[i], block), func, count});
    count++;
  }
  free(memo.keys);
  free(memo.kinds);
  free(ops);
  PlannedFunction *funcs = count && !plan->oom
                               ? strataGrow(plan->funcs, &plan->capFuncs, plan->numFuncs + 1, sizeof *funcs)
                               : NULL;
  if (!funcs) {
    plan->oom = plan->oom || count;
    free(life);
    return;
  }
  plan->funcs = funcs;
  int64_t slot = (int64_t)plan->numFuncs;
  life[0] = slot, life[1] = count;
  plan->funcs[plan->numFuncs++] = (PlannedFunction){func, slot, life, count, atEntry, {NULL}};
}

/* A module global `sym` of `values` (i64) and a memref<*xi64> of it at b. */
static MlirValue i64Global(StrataBuilder *b, MlirOperation module, MlirLocation loc, const char *sym,
                           const int64_t *values, int64_t count, bool constant) {
  MlirType tt = mlirRankedTensorTypeGet(1, &count, mlirIntegerTypeGet(b->ctx, 64), mlirAttributeGetNull());
  /* not constant: public, the JIT looks it up to free the caches */
  return strataGlobalUnrankedRef(b, module, loc, sym, mlirDenseElementsAttrInt64Get(tt, count, values), constant);
}

/* The class's key at b: every dynamic extent of the entry block's memref
 * arguments, in a stack buffer (one 0 when there are none). */
static MlirValue classKey(StrataBuilder *b, MlirLocation loc, MlirBlock entry) {
  MlirContext ctx = b->ctx;
  MlirType i64 = mlirIntegerTypeGet(ctx, 64), index = mlirIndexTypeGet(ctx);
  int64_t count = 0;
  for (intptr_t a = 0; a < mlirBlockGetNumArguments(entry); a++) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(entry, a));
    if (!mlirTypeIsAMemRef(t)) continue;
    for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); d++) count += mlirShapedTypeIsDynamicDim(t, d);
  }
  int64_t len = count ? count : 1;
  MlirType mt = mlirMemRefTypeGet(i64, 1, &len, mlirAttributeGetNull(), mlirAttributeGetNull());
  MlirValue key = strataResult(
      strataCreateOp(b, "memref.alloca", loc, .results = STRATA_TYPES(mt),
                     .attrs = STRATA_ATTRS({"operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 2, (int32_t[]){0, 0})})),
      0);
  int64_t k = 0;
  for (intptr_t a = 0; a < mlirBlockGetNumArguments(entry); a++) {
    MlirValue arg = mlirBlockGetArgument(entry, a);
    MlirType t = mlirValueGetType(arg);
    if (!mlirTypeIsAMemRef(t)) continue;
    for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); d++) {
      if (!mlirShapedTypeIsDynamicDim(t, d)) continue;
      MlirValue dim = strataResult(strataCreateOp(b, "memref.dim", loc,
                                                  .operands = STRATA_VALUES(arg, strataConstInt(b, loc, index, d)),
                                                  .results = STRATA_TYPES(index)),
                                   0);
      MlirValue v = strataResult(
          strataCreateOp(b, "arith.index_cast", loc, .operands = STRATA_VALUES(dim), .results = STRATA_TYPES(i64)), 0);
      strataCreateOp(b, "memref.store", loc, .operands = STRATA_VALUES(v, key, strataConstInt(b, loc, index, k++)));
    }
  }
  if (!count)
    strataCreateOp(b, "memref.store", loc,
                   .operands = STRATA_VALUES(strataConstInt(b, loc, i64, 0), key, strataConstInt(b, loc, index, 0)));
  return strataResult(strataCreateOp(b, "memref.cast", loc, .operands = STRATA_VALUES(key),
                                     .results = STRATA_TYPES(mlirUnrankedMemRefTypeGet(i64, mlirAttributeGetNull()))),
                      0);
}

/* The bytes of a buffer of `alloc`'s type with dynamic extents `dyn` (in
 * order), as i64 at `at`. */
static MlirValue bufferBytes(StrataBuilder *at, MlirLocation loc, MlirOperation alloc, const MlirValue *dyn) {
  MlirType index = mlirIndexTypeGet(at->ctx), type = mlirValueGetType(mlirOperationGetResult(alloc, 0));
  MlirValue bytes = strataConstInt(at, loc, index, strataArenaElementBytes(type));
  for (intptr_t d = 0, k = 0; d < mlirShapedTypeGetRank(type); d++) {
    MlirValue extent = mlirShapedTypeIsDynamicDim(type, d) ? dyn[k++]
                                                           : strataConstInt(at, loc, index, mlirShapedTypeGetDimSize(type, d));
    bytes = strataResult(
        strataCreateOp(at, "arith.muli", loc, .operands = STRATA_VALUES(bytes, extent), .results = STRATA_TYPES(index)),
        0);
  }
  return strataResult(strataCreateOp(at, "arith.index_cast", loc, .operands = STRATA_VALUES(bytes),
                                     .results = STRATA_TYPES(mlirIntegerTypeGet(at->ctx, 64))),
                      0);
}

/* Copies of the computations of class sizes at the function's entry: each
 * value's defining op cloned there once, over copies of its operands (a
 * shape list's load becomes the value stored to it). */
typedef struct {
  MlirValue from, to;
} Copied;

typedef struct {
  StrataBuilder *b;
  MlirBlock entry;
  Copied *copies;
  size_t n, cap;
  bool failed;
} Hoist;

/* An integer division or remainder whose divisor is not a nonzero
 * constant (affine maps divide by positive constants only). */
static bool dividesByValue(MlirOperation op) {
  static const char *const kDiv[] = {"arith.divsi", "arith.divui", "arith.remsi", "arith.remui", "arith.ceildivsi",
                                     "arith.ceildivui", "arith.floordivsi", "index.divs", "index.divu", "index.rems",
                                     "index.remu", "index.ceildivs", "index.ceildivu", "index.floordivs"};
  bool division = false;
  for (size_t i = 0; i < sizeof kDiv / sizeof *kDiv && !division; i++) division = strataOpIsNamed(op, kDiv[i]);
  if (!division || mlirOperationGetNumOperands(op) != 2) return division;
  MlirValue d = mlirOperationGetOperand(op, 1);
  if (mlirValueIsABlockArgument(d)) return true;
  MlirOperation c = mlirOpResultGetOwner(d);
  MlirAttribute v = strataOpIsNamed(c, "arith.constant") || strataOpIsNamed(c, "index.constant")
                        ? strataOpAttr(c, "value")
                        : mlirAttributeGetNull();
  return mlirAttributeIsNull(v) || !mlirAttributeIsAInteger(v) || mlirIntegerAttrGetValueInt(v) == 0;
}

static MlirValue hoisted(Hoist *h, MlirValue v, int depth) {
  if (mlirValueIsABlockArgument(v) || h->failed) return v; /* the entry's arguments (sizeKind) */
  for (size_t i = 0; i < h->n; i++)
    if (mlirValueEqual(h->copies[i].from, v)) return h->copies[i].to;
  MlirOperation def = mlirOpResultGetOwner(v);
  MlirValue to = {NULL};
  if (depth > 512) {
    h->failed = true;
  } else if (strataOpIsNamed(def, "memref.load")) {
    MlirValue stored = storedValue(def, h->entry);
    if (mlirValueIsNull(stored)) h->failed = true;
    else to = hoisted(h, stored, depth + 1);
  } else if (dividesByValue(def)) {
    /* at entry it would run before the checks the code makes first: a
     * zero divisor would trap there instead of being reported */
    h->failed = true;
  } else {
    intptr_t k = mlirOperationGetNumOperands(def);
    MlirValue operands[k ? k : 1];
    for (intptr_t i = 0; i < k; i++) operands[i] = hoisted(h, mlirOperationGetOperand(def, i), depth + 1);
    if (h->failed) return v;
    MlirOperation copy = mlirOperationClone(def);
    for (intptr_t i = 0; i < k; i++) mlirOperationSetOperand(copy, i, operands[i]);
    strataBuilderInsert(h->b, copy);
    to = mlirOperationGetResult(copy, mlirOpResultGetResultNumber(v));
  }
  if (h->failed) return v;
  Copied *grown = strataGrow(h->copies, &h->cap, h->n + 1, sizeof *grown);
  if (!grown) return h->failed = true, v;
  h->copies = grown;
  h->copies[h->n++] = (Copied){v, to};
  return to;
}

/* The sizes of f's buffers at b, by index, in a stack buffer: computed at
 * the entry when they all follow from the class (f->atEntry), else none (a
 * memref of 0 sizes: the runtime learns them in the class's first call). */
static MlirValue entrySizes(ShapePlan *plan, PlannedFunction *f, StrataBuilder *b, MlirLocation loc, MlirBlock entry) {
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64), index = mlirIndexTypeGet(b->ctx);
  MlirOperation *allocs = f->atEntry ? calloc((size_t)f->n, sizeof *allocs) : NULL;
  for (size_t k = 0; allocs && k < plan->numAllocs; k++)
    if (mlirOperationEqual(plan->allocs[k].func, f->func)) allocs[plan->allocs[k].index] = plan->allocs[k].op;
  Hoist h = {b, entry, NULL, 0, 0, !allocs};
  int64_t count = allocs ? f->n : 0;
  MlirValue bytes[count ? count : 1];
  for (int64_t i = 0; i < count && !h.failed; i++) {
    intptr_t k = mlirOperationGetNumOperands(allocs[i]);
    MlirValue dyn[k ? k : 1];
    for (intptr_t d = 0; d < k; d++) dyn[d] = hoisted(&h, mlirOperationGetOperand(allocs[i], d), 0);
    if (!h.failed) bytes[i] = bufferBytes(b, loc, allocs[i], dyn);
  }
  if (h.failed) count = 0; /* the copies made are unused: canonicalization drops them */
  free(allocs);
  free(h.copies);
  MlirType mt = mlirMemRefTypeGet(i64, 1, &count, mlirAttributeGetNull(), mlirAttributeGetNull());
  MlirValue sizes = strataResult(
      strataCreateOp(b, "memref.alloca", loc, .results = STRATA_TYPES(mt),
                     .attrs = STRATA_ATTRS({"operandSegmentSizes", mlirDenseI32ArrayGet(b->ctx, 2, (int32_t[]){0, 0})})),
      0);
  for (int64_t i = 0; i < count; i++)
    strataCreateOp(b, "memref.store", loc, .operands = STRATA_VALUES(bytes[i], sizes, strataConstInt(b, loc, index, i)));
  return strataResult(strataCreateOp(b, "memref.cast", loc, .operands = STRATA_VALUES(sizes),
                                     .results = STRATA_TYPES(mlirUnrankedMemRefTypeGet(i64, mlirAttributeGetNull()))),
                      0);
}

/* Pattern on func.func: a planned function opens its call's state first
 * and ends it before its terminator (after strata-buffer-arena's pop: the
 * frames nest). */
static MlirLogicalResult openPlan(StrataRewrite *rw, MlirOperation func, void *user) {
  ShapePlan *plan = user;
  PlannedFunction *f = strataArenaFindOp(plan->funcs, plan->numFuncs, sizeof *plan->funcs, func);
  if (!f || !mlirValueIsNull(f->state)) return mlirLogicalResultFailure();
  MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirLocation loc = mlirOperationGetLocation(func);
  StrataBuilder b = strataBuilderBefore(mlirBlockGetFirstOperation(block), rw->rewriter);
  int64_t *table = calloc((size_t)plan->numFuncs + 1, sizeof *table);
  if (!table) return plan->oom = true, mlirLogicalResultFailure();
  table[0] = (int64_t)plan->numFuncs;
  MlirValue tab = i64Global(&b, plan->module, loc, TABLE_SYM, table, (int64_t)plan->numFuncs + 1, false);
  free(table);
  char sym[64];
  snprintf(sym, sizeof sym, "__strata_shape_life_%lld", (long long)f->slot);
  MlirValue life = i64Global(&b, plan->module, loc, sym, f->life, 2 + 2 * f->n, true);
  MlirValue key = classKey(&b, loc, block), sizes = entrySizes(plan, f, &b, loc, block);
  f->state = strataArenaCallRuntime(&b, loc, BEGIN_FN, STRATA_VALUES(tab, life, key, sizes), &plan->stateType);
  StrataBuilder end = strataBuilderBefore(mlirBlockGetTerminator(block), rw->rewriter);
  strataArenaCallRuntime(&end, loc, END_FN, STRATA_VALUES(f->state), NULL);
  return mlirLogicalResultSuccess();
}

/* The state of the function `site` belongs to, or null. */
static MlirValue stateOf(ShapePlan *plan, const Site *site) {
  const PlannedFunction *f = site ? strataArenaFindOp(plan->funcs, plan->numFuncs, sizeof *plan->funcs, site->func)
                                  : NULL;
  return f ? f->state : (MlirValue){NULL};
}

/* Pattern on memref.alloc: a planned buffer comes from the call's plan,
 * viewed at the alloc's type. */
static MlirLogicalResult placeBuffer(StrataRewrite *rw, MlirOperation alloc, void *user) {
  ShapePlan *plan = user;
  const Site *site = strataArenaFindOp(plan->allocs, plan->numAllocs, sizeof *plan->allocs, alloc);
  MlirValue state = stateOf(plan, site);
  if (mlirValueIsNull(state)) return mlirLogicalResultFailure();
  StrataBuilder *at = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(alloc);
  MlirContext ctx = at->ctx;
  MlirType index = mlirIndexTypeGet(ctx), i64 = mlirIntegerTypeGet(ctx, 64);
  MlirType type = mlirValueGetType(mlirOperationGetResult(alloc, 0));
  intptr_t numDyn = mlirOperationGetNumOperands(alloc);
  MlirValue dyn[numDyn ? numDyn : 1];
  for (intptr_t d = 0; d < numDyn; d++) dyn[d] = mlirOperationGetOperand(alloc, d);
  MlirValue bytes = bufferBytes(at, loc, alloc, dyn);
  MlirValue raw = strataArenaCallRuntime(at, loc, ALLOC_FN,
                                         STRATA_VALUES(state, strataConstInt(at, loc, i64, site->index), bytes),
                                         &plan->stateType);
  intptr_t numOperands = 2 + mlirOperationGetNumOperands(alloc);
  MlirValue operands[numOperands];
  operands[0] = raw;
  operands[1] = strataConstInt(at, loc, index, 0);
  for (intptr_t i = 2; i < numOperands; i++) operands[i] = mlirOperationGetOperand(alloc, i - 2);
  MlirValue view = strataResult(strataCreateOp(at, "memref.view", loc, .operands = {operands, numOperands},
                                               .results = STRATA_TYPES(type)),
                                0);
  strataReplaceOp(rw, alloc, STRATA_VALUES(view));
  return mlirLogicalResultSuccess();
}

/* Pattern on memref.dealloc: a planned buffer goes back to the call's plan. */
static MlirLogicalResult releaseBuffer(StrataRewrite *rw, MlirOperation dealloc, void *user) {
  ShapePlan *plan = user;
  const Site *site = strataArenaFindOp(plan->deallocs, plan->numDeallocs, sizeof *plan->deallocs, dealloc);
  MlirValue state = stateOf(plan, site);
  if (mlirValueIsNull(state)) return mlirLogicalResultFailure();
  MlirLocation loc = mlirOperationGetLocation(dealloc);
  StrataBuilder *at = &rw->builder;
  strataArenaCallRuntime(at, loc, FREE_FN,
                         STRATA_VALUES(state, strataConstInt(at, loc, mlirIntegerTypeGet(at->ctx, 64), site->index)),
                         NULL);
  strataEraseOp(rw, dealloc);
  return mlirLogicalResultSuccess();
}

static void runShapePlan(StrataPassRun *run, MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirContext ctx = mlirOperationGetContext(module);
  ShapePlan plan = {.module = module};
  if (strataModuleHasSymbol(module, TABLE_SYM)) return; /* planned already */
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op) && !plan.oom;
       op = mlirOperationGetNextInBlock(op))
    if (strataOpIsNamed(op, "func.func")) planFunction(&plan, op);
  StrataPatternSet *open = NULL, *place = NULL;
  if (!plan.oom && plan.numFuncs) {
    open = strataPatternSetCreate(ctx);
    place = strataPatternSetCreate(ctx);
    plan.oom = !open || !place;
  }
  if (!plan.oom && plan.numFuncs) {
    plan.stateType = mlirMemRefTypeContiguousGet(mlirIntegerTypeGet(ctx, 8), 1,
                                                 (int64_t[]){mlirShapedTypeGetDynamicSize()}, mlirAttributeGetNull());
    qsort(plan.funcs, plan.numFuncs, sizeof *plan.funcs, strataArenaByPointer);
    qsort(plan.allocs, plan.numAllocs, sizeof *plan.allocs, strataArenaByPointer);
    qsort(plan.deallocs, plan.numDeallocs, sizeof *plan.deallocs, strataArenaByPointer);
    strataPatternSetAdd(open, "func.func", 1, openPlan, &plan);
    strataPatternSetAdd(place, "memref.alloc", 1, placeBuffer, &plan);
    strataPatternSetAdd(place, "memref.dealloc", 1, releaseBuffer, &plan);
    strataApplyPatternsWalk(open, module);
    for (size_t k = 0; k < plan.numFuncs && !plan.oom; k++) strataApplyPatternsWalk(place, plan.funcs[k].func);
    const char *fns[] = {BEGIN_FN, ALLOC_FN, FREE_FN, END_FN};
    for (int k = 0; k < 4; k++) strataDeclareRuntimeFunc(module, fns[k]);
  }
  if (plan.oom) {
    strataEmitError(mlirOperationGetLocation(module), "strata-shape-plan: out of memory");
    strataPassSignalFailure(run);
  }
  strataPatternSetDestroy(open);
  strataPatternSetDestroy(place);
  for (size_t k = 0; k < plan.numFuncs; k++) free(plan.funcs[k].life);
  free(plan.funcs);
  free(plan.allocs);
  free(plan.deallocs);
}

const StrataPassDef strataShapePlanPass = {
    .name = "strata-shape-plan",
    .summary = "Serve a function's buffers of argument-determined dynamic size from one arena per shape class, "
               "planned at run time (memref level, after strata-buffer-arena)",
    .anchor = "builtin.module",
    .run = runShapePlan,
    .dependentDialects = strataArenaPassDeps,
};
