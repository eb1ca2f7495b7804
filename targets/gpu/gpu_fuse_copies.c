/* Copies inside an nn-fuse block, made loops the block's kernel can take
 * in (gpu_fuse.h), before gpu-fuse-blocks groups the nests:
 *   - a padded buffer (memref.copy of a constant into a new buffer, then
 *     of the data into a subview of it; how nn-to-linalg pads a
 *     convolution's or pool's input) that the block only loads from is
 *     folded into its loads: each reads the data where the index falls in
 *     the subview, else the constant (a select of two loads), provided
 *     neither changes after its copy;
 *   - any other copy of static shape becomes an scf.parallel nest of a
 *     load and a store per element (a reduction's initial value copied
 *     into its accumulator), which can join the nests around it. */
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/support.h"
#include "gpu_fuse.h"

/* The op of `body` that holds `op` (op itself if it is in body), or null. */
static MlirOperation ancestorIn(MlirOperation op, MlirBlock body) {
  while (!mlirOperationIsNull(op) && !mlirBlockEqual(mlirOperationGetBlock(op), body))
    op = mlirOperationGetParentOperation(op);
  return op;
}

typedef struct {
  MlirValue root;
  bool written;
} WriteQuery;

static MlirWalkResult findWrite(MlirOperation op, void *user) {
  WriteQuery *q = user;
  /* A yield hands a buffer on; it writes nothing. */
  if (strataOpIsNamed(op, "memref.load") || strataOpIsNamed(op, "scf.yield") || gpuFuseIsView(op))
    return MlirWalkResultAdvance;
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n; i++) {
    if (strataOpIsNamed(op, "memref.store") && i != 1) continue;
    if (strataOpIsNamed(op, "memref.copy") && i != 1) continue;
    MlirValue v = mlirOperationGetOperand(op, i);
    if (mlirTypeIsAMemRef(mlirValueGetType(v)) && mlirValueEqual(gpuFuseRootOf(v), q->root)) q->written = true;
  }
  return q->written ? MlirWalkResultInterrupt : MlirWalkResultAdvance;
}

bool gpuFuseWritten(MlirOperation from, MlirValue v, MlirOperation last) {
  WriteQuery q = {gpuFuseRootOf(v), false};
  for (MlirOperation op = from; !q.written && !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    mlirOperationWalk(op, findWrite, &q, MlirWalkPreOrder);
    if (mlirOperationEqual(op, last)) break;
  }
  return q.written;
}

MlirValue gpuFuseBinary(StrataBuilder *b, const char *name, MlirLocation loc, MlirValue x, MlirValue y) {
  return strataResult(strataCreateOp(b, name, loc, .operands = STRATA_VALUES(x, y),
                                     .results = STRATA_TYPES(mlirValueGetType(x))), 0);
}

static MlirValue compare(StrataBuilder *b, MlirLocation loc, int64_t predicate, MlirValue x, MlirValue y) {
  MlirContext ctx = mlirValueGetContext(x);
  MlirAttribute pred = mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), predicate);
  return strataResult(strataCreateOp(b, "arith.cmpi", loc, .operands = STRATA_VALUES(x, y),
                                     .results = STRATA_TYPES(mlirIntegerTypeGet(ctx, 1)),
                                     .attrs = STRATA_ATTRS({"predicate", pred})),
                      0);
}

enum { CMP_SLT = 2, CMP_SGE = 5 };

/* Load `load` of the padded buffer reads `data` where its index falls in
 * [off, off + size), else `fill` at the same index. */
static void foldLoad(MlirOperation load, MlirValue data, MlirValue fill, const int64_t *off, const int64_t *size,
                     const int64_t *full, intptr_t rank) {
  MlirContext ctx = mlirOperationGetContext(load);
  MlirLocation loc = mlirOperationGetLocation(load);
  StrataBuilder b = strataBuilderBefore(load, (MlirRewriterBase){NULL});
  MlirType index = strataIndexType(ctx);
  MlirValue idx[16], in = {NULL};
  for (intptr_t d = 0; d < rank; d++) {
    MlirValue i = mlirOperationGetOperand(load, 1 + d);
    idx[d] = i;
    if (off[d] == 0 && size[d] == full[d]) continue;
    MlirValue j = gpuFuseBinary(&b, "arith.subi", loc, i, strataConstInt(&b, loc, index, off[d]));
    MlirValue zero = strataConstInt(&b, loc, index, 0), n = strataConstInt(&b, loc, index, size[d]);
    MlirValue ok = gpuFuseBinary(&b, "arith.andi", loc, compare(&b, loc, CMP_SGE, j, zero), compare(&b, loc, CMP_SLT, j, n));
    in = in.ptr ? gpuFuseBinary(&b, "arith.andi", loc, in, ok) : ok;
    j = gpuFuseBinary(&b, "arith.maxsi", loc, j, zero);
    idx[d] = gpuFuseBinary(&b, "arith.minsi", loc, j, strataConstInt(&b, loc, index, size[d] - 1));
  }
  MlirType elem = mlirValueGetType(mlirOperationGetResult(load, 0));
  MlirValue operands[17] = {data};
  for (intptr_t d = 0; d < rank; d++) operands[1 + d] = idx[d];
  MlirValue value = strataResult(
      strataCreateOp(&b, "memref.load", loc, .operands = {operands, 1 + rank}, .results = STRATA_TYPES(elem)), 0);
  if (in.ptr) {
    operands[0] = fill;
    for (intptr_t d = 0; d < rank; d++) operands[1 + d] = mlirOperationGetOperand(load, 1 + d);
    MlirValue other = strataResult(
        strataCreateOp(&b, "memref.load", loc, .operands = {operands, 1 + rank}, .results = STRATA_TYPES(elem)), 0);
    value = strataResult(strataCreateOp(&b, "arith.select", loc, .operands = STRATA_VALUES(in, value, other),
                                        .results = STRATA_TYPES(elem)),
                         0);
  }
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(load, 0), value);
  mlirOperationDestroy(load);
}

static bool staticI64s(MlirOperation op, const char *name, int64_t *out, intptr_t n) {
  MlirAttribute a = strataOpAttr(op, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a) || mlirDenseArrayGetNumElements(a) != n) return false;
  for (intptr_t i = 0; i < n; i++) {
    out[i] = mlirDenseI64ArrayGetElement(a, i);
    if (out[i] == mlirShapedTypeGetDynamicStrideOrOffset() || out[i] == mlirShapedTypeGetDynamicSize()) return false;
  }
  return true;
}

/* Folds the padded buffer `fillCopy` fills, if it is one (see the top). */
static bool foldPad(MlirBlock body, MlirOperation fillCopy) {
  MlirValue fill = mlirOperationGetOperand(fillCopy, 0), padded = mlirOperationGetOperand(fillCopy, 1);
  if (!mlirValueIsAOpResult(padded) || !strataOpIsNamed(mlirOpResultGetOwner(padded), "memref.alloc") ||
      !mlirBlockEqual(mlirOperationGetBlock(mlirOpResultGetOwner(padded)), body))
    return false;
  MlirType type = mlirValueGetType(padded);
  intptr_t rank = mlirShapedTypeGetRank(type);
  if (rank < 1 || rank > 16 || !mlirShapedTypeHasStaticShape(type)) return false;
  MlirOperation view = {NULL}, dataCopy = {NULL};
  StrataOpList loads = {0};
  bool ok = true;
  for (MlirOpOperand u = mlirValueGetFirstUse(padded); ok && !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (mlirOperationEqual(user, fillCopy)) continue;
    if (strataOpIsNamed(user, "memref.load")) ok = strataOpListAppend(&loads, user);
    else if (strataOpIsNamed(user, "memref.subview") && !view.ptr && mlirOperationGetNumOperands(user) == 1) view = user;
    else ok = false;
  }
  if (ok && view.ptr) {
    MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(view, 0));
    dataCopy = mlirOpOperandIsNull(u) ? (MlirOperation){NULL} : mlirOpOperandGetOwner(u);
    ok = dataCopy.ptr && mlirOpOperandIsNull(mlirOpOperandGetNextUse(u)) && strataOpIsNamed(dataCopy, "memref.copy") &&
         mlirOpOperandGetOperandNumber(u) == 1 && mlirBlockEqual(mlirOperationGetBlock(dataCopy), body) &&
         mlirOperationIsBeforeInBlock(fillCopy, dataCopy);
  }
  int64_t off[16], size[16], stride[16], full[16];
  ok = ok && dataCopy.ptr && staticI64s(view, "static_offsets", off, rank) && staticI64s(view, "static_sizes", size, rank) &&
       staticI64s(view, "static_strides", stride, rank) &&
       mlirShapedTypeGetRank(mlirValueGetType(mlirOperationGetResult(view, 0))) == rank;
  for (intptr_t d = 0; ok && d < rank; d++) {
    full[d] = mlirShapedTypeGetDimSize(type, d);
    ok = stride[d] == 1 && size[d] >= 1;
  }
  for (size_t i = 0; ok && i < loads.count; i++) {
    MlirOperation at = ancestorIn(loads.ops[i], body);
    ok = !mlirOperationIsNull(at) && mlirOperationIsBeforeInBlock(dataCopy, at);
  }
  MlirValue data = ok ? mlirOperationGetOperand(dataCopy, 0) : (MlirValue){NULL};
  /* The loads come after both copies: what they read must not change. */
  ok = ok && !gpuFuseWritten(mlirOperationGetNextInBlock(fillCopy), fill, (MlirOperation){NULL}) &&
       !gpuFuseWritten(mlirOperationGetNextInBlock(dataCopy), data, (MlirOperation){NULL});
  if (ok) {
    for (size_t i = 0; i < loads.count; i++) foldLoad(loads.ops[i], data, fill, off, size, full, rank);
    mlirOperationDestroy(dataCopy);
    mlirOperationDestroy(view);
    mlirOperationDestroy(fillCopy);
    mlirOperationDestroy(mlirOpResultGetOwner(padded));
  }
  strataOpListDestroy(&loads);
  return ok;
}

/* memref.copy `copy` as a nest of a load and a store per element. */
static void copyToNest(MlirOperation copy) {
  MlirValue src = mlirOperationGetOperand(copy, 0), dst = mlirOperationGetOperand(copy, 1);
  MlirType type = mlirValueGetType(dst);
  if (!mlirTypeIsAMemRef(type) || !mlirShapedTypeHasStaticShape(type) ||
      !mlirShapedTypeHasStaticShape(mlirValueGetType(src)))
    return;
  intptr_t rank = mlirShapedTypeGetRank(type);
  if (rank < 1 || rank > 16) return;
  MlirContext ctx = mlirOperationGetContext(copy);
  MlirLocation loc = mlirOperationGetLocation(copy);
  StrataBuilder b = strataBuilderBefore(copy, (MlirRewriterBase){NULL});
  MlirType index = strataIndexType(ctx);
  MlirValue lb[16], ub[16], step[16];
  for (intptr_t d = 0; d < rank; d++) {
    lb[d] = strataConstInt(&b, loc, index, 0), step[d] = strataConstInt(&b, loc, index, 1);
    ub[d] = strataConstInt(&b, loc, index, mlirShapedTypeGetDimSize(type, d));
  }
  MlirOperation par = gpuFuseNewParallel(copy, lb, ub, step, rank);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(par, 0));
  StrataBuilder in = strataBuilderBefore(mlirBlockGetTerminator(body), (MlirRewriterBase){NULL});
  MlirValue operands[18] = {src};
  for (intptr_t d = 0; d < rank; d++) operands[1 + d] = mlirBlockGetArgument(body, d);
  MlirValue v = strataResult(strataCreateOp(&in, "memref.load", loc, .operands = {operands, 1 + rank},
                                            .results = STRATA_TYPES(mlirShapedTypeGetElementType(type))),
                             0);
  MlirValue stored[18] = {v, dst};
  for (intptr_t d = 0; d < rank; d++) stored[2 + d] = mlirBlockGetArgument(body, d);
  strataCreateOp(&in, "memref.store", loc, .operands = {stored, 2 + rank});
  mlirOperationDestroy(copy);
}

void gpuFuseLowerCopies(MlirBlock body) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    /* The data copy may have been `next`: start again. */
    op = strataOpIsNamed(op, "memref.copy") && foldPad(body, op) ? mlirBlockGetFirstOperation(body) : next;
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (strataOpIsNamed(op, "memref.copy")) copyToNest(op);
    op = next;
  }
}
