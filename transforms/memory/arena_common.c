/* Helpers the memory passes share (arena_common.h). */
#include <stdlib.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/MemRef.h"
#include "strata/support.h"
#include "arena_common.h"

MlirOperation *strataArenaBodyOps(MlirOperation func, MlirBlock *block, intptr_t *n) {
  *block = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  *n = 0;
  if (mlirBlockIsNull(*block) || !mlirBlockIsNull(mlirBlockGetNextInRegion(*block))) return NULL;
  for (MlirOperation op = mlirBlockGetFirstOperation(*block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    (*n)++;
  MlirOperation *ops = malloc(sizeof *ops * (size_t)(*n ? *n : 1));
  if (!ops) return *n = -1, NULL;
  intptr_t i = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(*block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    ops[i++] = op;
  return ops;
}

MlirOperation strataArenaTopLevel(MlirOperation op, MlirBlock block) {
  while (!mlirOperationIsNull(op)) {
    MlirBlock b = mlirOperationGetBlock(op);
    if (mlirBlockEqual(b, block)) return op;
    op = mlirBlockGetParentOperation(b);
  }
  return op;
}

intptr_t strataArenaIndexOf(MlirOperation op, MlirOperation *ops, intptr_t n) {
  for (intptr_t i = 0; i < n; i++)
    if (mlirOperationEqual(ops[i], op)) return i;
  return -1;
}

static intptr_t lastUse(MlirValue v, MlirBlock block, MlirOperation *ops, intptr_t n, int depth) {
  intptr_t last = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (strataOpIsNamed(user, "memref.dealloc")) continue;
    MlirOperation top = strataArenaTopLevel(user, block);
    intptr_t i = mlirOperationIsNull(top) ? -1 : strataArenaIndexOf(top, ops, n);
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

intptr_t strataArenaLastUse(MlirValue v, MlirBlock block, MlirOperation *ops, intptr_t n) {
  return lastUse(v, block, ops, n, 0);
}

int64_t strataArenaElementBytes(MlirType t) {
  MlirType e = mlirShapedTypeGetElementType(t);
  int64_t bits = mlirTypeIsAIndex(e) ? 64 : mlirTypeIsAInteger(e) ? (int64_t)mlirIntegerTypeGetWidth(e)
                 : mlirTypeIsAFloat(e) ? (int64_t)mlirFloatTypeGetWidth(e) : -1;
  return bits > 0 && bits % 8 == 0 ? bits / 8 : -1;
}

bool strataArenaPlainLayout(MlirType t) {
  return mlirAttributeIsNull(mlirMemRefTypeGetMemorySpace(t)) && mlirAffineMapIsIdentity(mlirMemRefTypeGetAffineMap(t));
}

int strataArenaByPointer(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)((const MlirOperation *)a)->ptr, y = (uintptr_t)((const MlirOperation *)b)->ptr;
  return x < y ? -1 : x > y;
}

void *strataArenaFindOp(void *array, size_t count, size_t size, MlirOperation op) {
  return count ? bsearch(&op, array, count, size, strataArenaByPointer) : NULL;
}

MlirValue strataArenaCallRuntime(StrataBuilder *b, MlirLocation loc, const char *callee, StrataValueList args,
                                 const MlirType *resultType) {
  MlirOperation call = strataCreateOp(
      b, "func.call", loc, .operands = args, .results = {resultType, resultType ? 1 : 0},
      .attrs = STRATA_ATTRS({"callee", mlirFlatSymbolRefAttrGet(b->ctx, mlirStringRefCreateFromCString(callee))}));
  return resultType ? strataResult(call, 0) : (MlirValue){NULL};
}

const StrataDialectHandleFn strataArenaPassDeps[] = {mlirGetDialectHandle__memref__, mlirGetDialectHandle__func__,
                                                     mlirGetDialectHandle__arith__, NULL};
