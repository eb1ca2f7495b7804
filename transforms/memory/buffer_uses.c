/* Questions about a buffer's uses that the copy-eliding passes share
 * (buffer_uses.h): pred-placeholder-alias and strata-slice-alias. */
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/support.h"
#include "buffer_uses.h"

/* The ancestor of `op` that sits directly in `block` (null if none). */
static MlirOperation ancestorIn(MlirOperation op, MlirBlock block) {
  while (!mlirOperationIsNull(op)) {
    MlirBlock b = mlirOperationGetBlock(op);
    if (mlirBlockIsNull(b)) break;
    if (mlirBlockEqual(b, block)) return op;
    op = mlirBlockGetParentOperation(b);
  }
  return (MlirOperation){NULL};
}

intptr_t strataBufferPositionOf(MlirOperation op) {
  intptr_t i = 0;
  for (MlirOperation o = mlirBlockGetFirstOperation(mlirOperationGetBlock(op)); !mlirOperationIsNull(o);
       o = mlirOperationGetNextInBlock(o), i++)
    if (mlirOperationEqual(o, op)) return i;
  return -1;
}

bool strataBufferIsWholeView(MlirOperation op) {
  return strataOpIsNamed(op, "memref.reshape") || strataOpIsNamed(op, "memref.collapse_shape") ||
         strataOpIsNamed(op, "memref.expand_shape") || strataOpIsNamed(op, "memref.cast");
}

bool strataBufferDerivesAlias(MlirOperation user, MlirValue res) {
  MlirType t = mlirValueGetType(res);
  return mlirTypeIsAMemRef(t) || mlirTypeIsAUnrankedMemRef(t) ||
         strataOpIsNamed(user, "memref.extract_aligned_pointer_as_index") ||
         strataOpIsNamed(user, "builtin.unrealized_conversion_cast");
}

bool strataBufferIsRuntimeCall(MlirOperation op) {
  if (!strataOpIsNamed(op, "func.call")) return false;
  MlirAttribute callee = strataOpAttr(op, "callee");
  if (mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee)) return false;
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
  return name.length > 10 && !strncmp(name.data, "strata_rt_", 10);
}

bool strataBufferPlain(MlirType t, int64_t *count) {
  if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t) ||
      !mlirAttributeIsNull(mlirMemRefTypeGetMemorySpace(t)) ||
      !mlirAffineMapIsIdentity(mlirMemRefTypeGetAffineMap(t)))
    return false;
  int64_t n = 1;
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); i++)
    if (!strataCheckedMul(n, mlirShapedTypeGetDimSize(t, i), &n)) return false;
  *count = n;
  return true;
}

bool strataBufferIsPlaceholder(MlirOperation func, intptr_t arg, bool cInterfaceOutputs, bool *marked) {
  *marked = false;
  MlirAttribute all = strataOpAttr(func, "arg_attrs");
  if (!mlirAttributeIsNull(all) && mlirAttributeIsAArray(all) && arg < mlirArrayAttrGetNumElements(all)) {
    MlirAttribute dict = mlirArrayAttrGetElement(all, arg);
    if (mlirAttributeIsADictionary(dict) &&
        !mlirAttributeIsNull(mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString("pred.placeholder"))))
      *marked = true;
  }
  return *marked || (cInterfaceOutputs && !mlirAttributeIsNull(strataOpAttr(func, "llvm.emit_c_interface")));
}

bool strataBufferUsesEndBefore(MlirValue v, MlirBlock block, intptr_t copyAt, MlirOperation copy, const char **why,
                               int depth) {
  if (depth > 64) return *why = "its views nest too deep", false;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (mlirOperationEqual(user, copy)) continue;
    /* Its own deallocs go with it; one through a view would free the
     * buffer it now stands for. */
    if (strataOpIsNamed(user, "memref.dealloc")) {
      if (depth == 0) continue;
      return *why = "the buffer is freed through a view of it", false;
    }
    if (strataOpIsNamed(user, "func.return")) return *why = "the buffer is returned", false;
    if (strataOpIsNamed(user, "func.call") && !strataBufferIsRuntimeCall(user))
      return *why = "the buffer is passed to a call that may keep it", false;
    if (strataOpIsNamed(user, "memref.extract_aligned_pointer_as_index") ||
        strataOpIsNamed(user, "builtin.unrealized_conversion_cast"))
      return *why = "the buffer's address escapes", false;
    MlirOperation top = ancestorIn(user, block);
    if (mlirOperationIsNull(top) || strataBufferPositionOf(top) >= copyAt)
      return *why = "the buffer is used after the copy", false;
    for (intptr_t r = 0; r < mlirOperationGetNumResults(user); r++) {
      MlirValue res = mlirOperationGetResult(user, r);
      if (strataBufferDerivesAlias(user, res) && !strataBufferUsesEndBefore(res, block, copyAt, copy, why, depth + 1))
        return false;
    }
  }
  return true;
}

/* Whether `user` holds `block` in one of its regions. */
static bool holdsBlock(MlirOperation user, MlirBlock block) {
  for (MlirOperation p = mlirBlockGetParentOperation(block); !mlirOperationIsNull(p);
       p = mlirBlockIsNull(mlirOperationGetBlock(p)) ? (MlirOperation){NULL}
                                                     : mlirBlockGetParentOperation(mlirOperationGetBlock(p)))
    if (mlirOperationEqual(p, user)) return true;
  return false;
}

bool strataBufferTouchedBetween(MlirValue v, MlirBlock block, intptr_t from, intptr_t to, MlirOperation copy,
                                StrataViewRuleFn rule, void *user, int depth) {
  if (depth > 64) return true;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation op = mlirOpOperandGetOwner(u);
    if (mlirOperationEqual(op, copy)) continue;
    bool derives = false;
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op) && !derives; r++)
      derives = strataBufferDerivesAlias(op, mlirOperationGetResult(op, r));
    StrataViewRule how = derives && rule ? rule(op, user) : STRATA_VIEW_COUNT;
    if (how == STRATA_VIEW_SKIP) continue;
    if (how == STRATA_VIEW_COUNT) {
      MlirOperation top = ancestorIn(op, block);
      if (mlirOperationIsNull(top)) {
        /* Outside the block: harmless unless it holds the block. */
        if (holdsBlock(op, block)) return true;
      } else {
        intptr_t at = strataBufferPositionOf(top);
        if (at > from && at < to) return true;
      }
    }
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++) {
      MlirValue res = mlirOperationGetResult(op, r);
      if (strataBufferDerivesAlias(op, res) &&
          strataBufferTouchedBetween(res, block, from, to, copy, rule, user, depth + 1))
        return true;
    }
  }
  return false;
}
