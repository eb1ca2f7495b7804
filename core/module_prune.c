/* Dropping the functions an entry does not reach: a tool that runs one
 * function of a module (strata-run --entry) compiles only that function and
 * what it calls, not every function of a test file or library module. */
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "strata/support.h"

typedef struct {
  MlirModule module;
  StrataOpList kept; /* the functions reached so far (the worklist too) */
  bool failed;       /* out of memory */
} Reach;

MlirOperation strataModuleFunc(MlirOperation module, MlirStringRef name) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute sym = strataOpAttr(op, "sym_name");
    if (strataOpIsNamed(op, "func.func") && !mlirAttributeIsNull(sym) &&
        mlirStringRefEqual(mlirStringAttrGetValue(sym), name))
      return op;
  }
  return (MlirOperation){NULL};
}

MlirOperation strataCallee(MlirOperation call) {
  MlirAttribute sym = strataOpAttr(call, "callee");
  MlirOperation m = mlirOperationGetParentOperation(call);
  while (!mlirOperationIsNull(m) && !strataOpIsNamed(m, "builtin.module")) m = mlirOperationGetParentOperation(m);
  if (mlirAttributeIsNull(sym) || !mlirAttributeIsAFlatSymbolRef(sym) || mlirOperationIsNull(m))
    return (MlirOperation){NULL};
  return strataModuleFunc(m, mlirFlatSymbolRefAttrGetValue(sym));
}

static void keep(Reach *r, MlirOperation func) {
  if (mlirOperationIsNull(func) || strataOpListContains(&r->kept, func)) return;
  if (!strataOpListAppend(&r->kept, func)) r->failed = true;
}

/* Every function a symbol reference in `a` names (nested in arrays and
 * dictionaries too) is reached. */
static void reachAttr(Reach *r, MlirAttribute a) {
  if (mlirAttributeIsAFlatSymbolRef(a)) {
    keep(r, strataModuleFunc(mlirModuleGetOperation(r->module), mlirFlatSymbolRefAttrGetValue(a)));
  } else if (mlirAttributeIsASymbolRef(a)) {
    keep(r, strataModuleFunc(mlirModuleGetOperation(r->module), mlirSymbolRefAttrGetRootReference(a)));
  } else if (mlirAttributeIsAArray(a)) {
    for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(a); i++) reachAttr(r, mlirArrayAttrGetElement(a, i));
  } else if (mlirAttributeIsADictionary(a)) {
    for (intptr_t i = 0; i < mlirDictionaryAttrGetNumElements(a); i++)
      reachAttr(r, mlirDictionaryAttrGetElement(a, i).attribute);
  }
}

static MlirWalkResult reachOp(MlirOperation op, void *user) {
  Reach *r = user;
  for (intptr_t i = 0; i < mlirOperationGetNumAttributes(op); i++) {
    MlirNamedAttribute na = mlirOperationGetAttribute(op, i);
    MlirStringRef n = mlirIdentifierStr(na.name);
    /* A function's own name is not a use of it. */
    if (n.length == 8 && !memcmp(n.data, "sym_name", 8)) continue;
    reachAttr(r, na.attribute);
  }
  return MlirWalkResultAdvance;
}

MlirLogicalResult strataModuleKeepReachable(MlirModule module, MlirOperation entry) {
  Reach r = {.module = module};
  keep(&r, entry);
  /* Ops at module level that are not functions stay, and what they name. */
  MlirOperation top = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  for (; !mlirOperationIsNull(top); top = mlirOperationGetNextInBlock(top))
    if (!strataOpIsNamed(top, "func.func")) mlirOperationWalk(top, reachOp, &r, MlirWalkPreOrder);
  for (size_t i = 0; i < r.kept.count && !r.failed; i++)
    mlirOperationWalk(r.kept.ops[i], reachOp, &r, MlirWalkPreOrder);
  if (r.failed) {
    strataOpListDestroy(&r.kept);
    return mlirLogicalResultFailure();
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module)); !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (strataOpIsNamed(op, "func.func") && !strataOpListContains(&r.kept, op)) mlirOperationDestroy(op);
    op = next;
  }
  strataOpListDestroy(&r.kept);
  return mlirLogicalResultSuccess();
}
