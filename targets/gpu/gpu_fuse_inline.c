/* Element-wise producers recomputed by their readers (gpu_fuse.h): in an
 * nn-fuse block, a nest that computes every element of a new buffer from
 * loads and arithmetic alone (a ReLU before a reshape and a matmul, a
 * transpose) and whose buffer the block reads through a reshape or at
 * indices that are not parallel induction variables (so no common outer
 * loop could share it) is cloned into each load of that buffer: the load's
 * index, linearized through the reshape and split by the buffer's shape,
 * becomes the producer's induction variables; a load of a subview (a
 * column block of the buffer: static offsets and strides, the same rank)
 * reads at offset + index * stride. The nest, its buffer and the views go,
 * unless the block yields the buffer: then the nest stays to fill it, and
 * the readers no longer depend on it. Its inputs must not be written later
 * in the block. */
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/support.h"
#include "gpu_fuse.h"

enum { MAX_BODY = 64, MAX_VIEWS = 16 };

static bool constIs(MlirValue v, int64_t want) {
  if (!mlirValueIsAOpResult(v) || !strataOpIsNamed(mlirOpResultGetOwner(v), "arith.constant")) return false;
  MlirAttribute a = strataOpAttr(mlirOpResultGetOwner(v), "value");
  return mlirAttributeIsAInteger(a) && mlirIntegerAttrGetValueInt(a) == want;
}

/* The store of an element-wise producer nest (see the top), or null. */
static MlirOperation producerStore(MlirOperation nest) {
  intptr_t dims;
  if (!gpuFuseIsNest(nest, &dims) || dims > 16) return (MlirOperation){NULL};
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(nest, 0));
  MlirOperation store = {NULL}, end = mlirBlockGetTerminator(body);
  int count = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationEqual(op, end); op = mlirOperationGetNextInBlock(op)) {
    if (++count > MAX_BODY || mlirOperationGetNumRegions(op)) return (MlirOperation){NULL};
    if (strataOpIsNamed(op, "memref.store")) {
      if (store.ptr) return (MlirOperation){NULL};
      store = op;
    } else if (!strataOpIsNamed(op, "memref.load") && !strataOpIsInDialect(op, "arith") && !strataOpIsInDialect(op, "math")) {
      return (MlirOperation){NULL};
    }
  }
  if (!store.ptr) return store;
  MlirValue buffer = mlirOperationGetOperand(store, 1);
  MlirType type = mlirValueGetType(buffer);
  if (!mlirValueIsAOpResult(buffer) || !strataOpIsNamed(mlirOpResultGetOwner(buffer), "memref.alloc") ||
      !mlirShapedTypeHasStaticShape(type) || mlirShapedTypeGetRank(type) != dims ||
      !mlirBlockEqual(mlirOperationGetBlock(mlirOpResultGetOwner(buffer)), mlirOperationGetBlock(nest)))
    return (MlirOperation){NULL};
  for (intptr_t d = 0; d < dims; d++)
    if (!mlirValueEqual(mlirOperationGetOperand(store, 2 + d), mlirBlockGetArgument(body, d)) ||
        !constIs(mlirOperationGetOperand(nest, d), 0) || !constIs(mlirOperationGetOperand(nest, 2 * dims + d), 1) ||
        !constIs(mlirOperationGetOperand(nest, dims + d), mlirShapedTypeGetDimSize(type, d)))
      return (MlirOperation){NULL};
  return store;
}

/* True if `v` is induction variable `d` of a parallel loop (a reader that
 * may share the producer's loop). */
static bool isParallelIv(MlirValue v, intptr_t d) {
  if (!mlirValueIsABlockArgument(v) || mlirBlockArgumentGetArgNumber(v) != d) return false;
  MlirOperation owner = mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
  return strataOpIsNamed(owner, "scf.parallel");
}

static bool identityLayout(MlirType t) {
  MlirAttribute layout = mlirMemRefTypeGetLayout(t);
  return mlirAttributeIsAAffineMap(layout) && mlirAffineMapIsIdentity(mlirAffineMapAttrGetValue(layout));
}

typedef struct {
  MlirOperation views[MAX_VIEWS];
  int numViews;
  StrataOpList loads;
  bool needed;  /* a reader cannot share a loop with the producer */
  bool escapes; /* the block yields the buffer: the producer stays */
} Readers;

/* A subview of static offsets and strides keeping `buffer`'s rank. */
static bool plainSubview(MlirOperation op, MlirValue buffer) {
  if (!strataOpIsNamed(op, "memref.subview") || mlirOperationGetNumOperands(op) != 1) return false;
  MlirAttribute offsets = strataOpAttr(op, "static_offsets"), strides = strataOpAttr(op, "static_strides");
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(buffer));
  if (!mlirAttributeIsADenseI64Array(offsets) || !mlirAttributeIsADenseI64Array(strides) ||
      mlirShapedTypeGetRank(mlirValueGetType(mlirOperationGetResult(op, 0))) != rank ||
      mlirDenseArrayGetNumElements(offsets) != rank || mlirDenseArrayGetNumElements(strides) != rank)
    return false;
  for (intptr_t d = 0; d < rank; d++)
    if (mlirDenseI64ArrayGetElement(offsets, d) < 0 || mlirDenseI64ArrayGetElement(strides, d) < 1) return false;
  return true;
}

/* Collects the readers of `v` (the buffer or a view of it): loads after
 * `nest`, and reshapes to identity layouts; false for anything else. */
static bool readers(MlirValue v, MlirOperation nest, MlirOperation store, Readers *r, bool viewed) {
  MlirBlock block = mlirOperationGetBlock(nest);
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (mlirOperationEqual(user, store)) continue;
    if (!viewed && mlirOperationEqual(user, mlirBlockGetTerminator(block)) && strataOpIsNamed(user, "scf.yield")) {
      r->escapes = true;
      continue;
    }
    if (mlirOpOperandGetOperandNumber(u) != 0) return false;
    if (strataOpIsNamed(user, "memref.load")) {
      MlirOperation at = user;
      while (!mlirOperationIsNull(at) && !mlirBlockEqual(mlirOperationGetBlock(at), block))
        at = mlirOperationGetParentOperation(at);
      if (mlirOperationIsNull(at) || !mlirOperationIsBeforeInBlock(nest, at) || !strataOpListAppend(&r->loads, user))
        return false;
      for (intptr_t i = 1; !viewed && i < mlirOperationGetNumOperands(user); i++)
        r->needed = r->needed || !isParallelIv(mlirOperationGetOperand(user, i), i - 1);
      r->needed = r->needed || viewed;
    } else if ((strataOpIsNamed(user, "memref.reshape") || strataOpIsNamed(user, "memref.expand_shape") ||
                strataOpIsNamed(user, "memref.collapse_shape")) &&
               r->numViews < MAX_VIEWS) {
      MlirValue out = mlirOperationGetResult(user, 0);
      if (!mlirShapedTypeHasStaticShape(mlirValueGetType(out)) || !identityLayout(mlirValueGetType(out))) return false;
      r->views[r->numViews++] = user;
      if (!readers(out, nest, store, r, true)) return false;
    } else if (!viewed && plainSubview(user, v) && r->numViews < MAX_VIEWS) {
      /* Loads of a column block of a buffer another block reads. */
      r->views[r->numViews++] = user;
      for (MlirOpOperand w = mlirValueGetFirstUse(mlirOperationGetResult(user, 0)); !mlirOpOperandIsNull(w);
           w = mlirOpOperandGetNextUse(w))
        if (!strataOpIsNamed(mlirOpOperandGetOwner(w), "memref.load")) return false;
      if (!readers(mlirOperationGetResult(user, 0), nest, store, r, true)) return false;
    } else {
      return false;
    }
  }
  return true;
}

/* Replaces `load` (of `buffer` or a view of it) by the producer's body. */
static void recompute(MlirOperation load, MlirValue buffer, MlirOperation nest, MlirOperation store) {
  MlirContext ctx = mlirOperationGetContext(load);
  MlirLocation loc = mlirOperationGetLocation(load);
  StrataBuilder b = strataBuilderBefore(load, (MlirRewriterBase){NULL});
  MlirType index = strataIndexType(ctx), readType = mlirValueGetType(mlirOperationGetOperand(load, 0));
  MlirType type = mlirValueGetType(buffer);
  intptr_t rank = mlirShapedTypeGetRank(type), readRank = mlirShapedTypeGetRank(readType);
  MlirValue from[MAX_BODY + 16], to[MAX_BODY + 16];
  int n = 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(nest, 0));
  MlirValue read = mlirOperationGetOperand(load, 0);
  if (mlirValueEqual(read, buffer)) {
    for (intptr_t d = 0; d < rank; d++) from[n] = mlirBlockGetArgument(body, d), to[n++] = mlirOperationGetOperand(load, 1 + d);
  } else if (strataOpIsNamed(mlirOpResultGetOwner(read), "memref.subview")) { /* offset + index * stride */
    MlirOperation sub = mlirOpResultGetOwner(read);
    MlirAttribute offsets = strataOpAttr(sub, "static_offsets"), strides = strataOpAttr(sub, "static_strides");
    for (intptr_t d = 0; d < rank; d++) {
      MlirValue v = mlirOperationGetOperand(load, 1 + d);
      int64_t stride = mlirDenseI64ArrayGetElement(strides, d), offset = mlirDenseI64ArrayGetElement(offsets, d);
      if (stride != 1) v = gpuFuseBinary(&b, "arith.muli", loc, v, strataConstInt(&b, loc, index, stride));
      if (offset) v = gpuFuseBinary(&b, "arith.addi", loc, v, strataConstInt(&b, loc, index, offset));
      from[n] = mlirBlockGetArgument(body, d), to[n++] = v;
    }
  } else { /* row-major: the same linear index */
    MlirValue lin = strataConstInt(&b, loc, index, 0);
    for (intptr_t d = 0; d < readRank; d++) {
      lin = gpuFuseBinary(&b, "arith.muli", loc, lin, strataConstInt(&b, loc, index, mlirShapedTypeGetDimSize(readType, d)));
      lin = gpuFuseBinary(&b, "arith.addi", loc, lin, mlirOperationGetOperand(load, 1 + d));
    }
    int64_t inner = 1;
    for (intptr_t d = rank - 1; d >= 0; d--) {
      MlirValue v = gpuFuseBinary(&b, "arith.divui", loc, lin, strataConstInt(&b, loc, index, inner));
      v = gpuFuseBinary(&b, "arith.remui", loc, v, strataConstInt(&b, loc, index, mlirShapedTypeGetDimSize(type, d)));
      inner *= mlirShapedTypeGetDimSize(type, d);
      from[n] = mlirBlockGetArgument(body, d), to[n++] = v;
    }
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationEqual(op, store); op = mlirOperationGetNextInBlock(op)) {
    MlirOperation c = mlirOperationClone(op);
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(load), load, c);
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(c); i++)
      for (int k = 0; k < n; k++)
        if (mlirValueEqual(mlirOperationGetOperand(c, i), from[k])) mlirOperationSetOperand(c, i, to[k]);
    for (intptr_t r = 0; r < mlirOperationGetNumResults(c); r++)
      from[n] = mlirOperationGetResult(op, r), to[n++] = mlirOperationGetResult(c, r);
  }
  MlirValue value = mlirOperationGetOperand(store, 0);
  for (int k = 0; k < n; k++)
    if (mlirValueEqual(value, from[k])) value = to[k];
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(load, 0), value);
  mlirOperationDestroy(load);
}

/* The producer's inputs keep their values until the block ends. */
static bool inputsStay(MlirOperation nest) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(nest, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (strataOpIsNamed(op, "memref.load") &&
        gpuFuseWritten(mlirOperationGetNextInBlock(nest), mlirOperationGetOperand(op, 0), (MlirOperation){NULL}))
      return false;
  return true;
}

void gpuFuseInlineProducers(MlirBlock body) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op), store = producerStore(op);
    Readers r = {.numViews = 0};
    MlirValue buffer = store.ptr ? mlirOperationGetOperand(store, 1) : (MlirValue){NULL};
    if (store.ptr && readers(buffer, op, store, &r, false) && r.needed && r.loads.count && inputsStay(op)) {
      for (size_t i = 0; i < r.loads.count; i++) recompute(r.loads.ops[i], buffer, op, store);
      for (int v = r.numViews - 1; v >= 0; v--) mlirOperationDestroy(r.views[v]);
      if (!r.escapes) {
        mlirOperationDestroy(op);
        mlirOperationDestroy(mlirOpResultGetOwner(buffer));
      }
      next = mlirBlockGetFirstOperation(body); /* the views may have been next */
    }
    strataOpListDestroy(&r.loads);
    op = next;
  }
}
