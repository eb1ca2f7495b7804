/* Run-time checks in compiled code: the error site (the op's location and
 * name, as text the runtime prints) and the `scf.if` that calls
 * strata_rt_shape_error when a condition holds. The nn lowerings use them
 * for every extent they assume (conversions/nn-to-linalg/lower_dims.c);
 * rdp-fold-checks for the argument extents RDP takes as equal. */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/context.h"
#include "strata/support.h"

bool strataRuntimeSite(StrataBuilder *b, MlirOperation op, const char *fn, MlirValue *site) {
  MlirOperation module = mlirOperationGetParentOperation(op);
  while (!mlirOperationIsNull(module) && !strataOpIsNamed(module, "builtin.module"))
    module = mlirOperationGetParentOperation(module);
  MlirLocation loc = mlirOperationGetLocation(op);
  if (mlirOperationIsNull(module)) {
    strataEmitError(loc, "the run-time check of this op needs an enclosing builtin.module");
    return false;
  }
  char text[640], sym[64];
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  strataLocationFormat(loc, text, 512);
  size_t n = strlen(text);
  snprintf(text + n, sizeof text - n, "\t'%.*s' op", (int)name.length, name.data);
  uint64_t h = 1469598103934665603ULL; /* FNV-1a: one global per distinct site */
  for (const char *p = text; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ULL;
  snprintf(sym, sizeof sym, "__strata_site_%016llx", (unsigned long long)h);
  if (mlirLogicalResultIsFailure(strataDeclareRuntimeFunc(module, fn))) return false;
  *site = strataConstStringRef(b, module, loc, sym, text);
  return true;
}

static MlirValue indexToI64(StrataBuilder *b, MlirLocation loc, MlirValue v) {
  return strataResult(strataCreateOp(b, "arith.index_cast", loc, .operands = STRATA_VALUES(v),
                                     .results = STRATA_TYPES(mlirIntegerTypeGet(b->ctx, 64))),
                      0);
}

void strataShapeCheckAt(StrataBuilder *b, MlirLocation loc, MlirValue site, MlirValue bad, int kind, int operand,
                        int dim, MlirValue got, MlirValue want) {
  MlirOperation ifOp = strataCreateOp(b, "scf.if", loc, .operands = STRATA_VALUES(bad), .numRegions = 2);
  StrataBuilder then = strataBuilderAtEnd(b->ctx, strataAddBlock(ifOp, 0, (StrataTypeList){NULL, 0}, loc));
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64);
  MlirValue args[] = {strataConstInt(&then, loc, i64, kind), strataConstInt(&then, loc, i64, operand),
                      strataConstInt(&then, loc, i64, dim), indexToI64(&then, loc, got), indexToI64(&then, loc, want),
                      site};
  strataCreateOp(&then, "func.call", loc, .operands = {args, 6},
                 .attrs = STRATA_ATTRS({"callee", mlirFlatSymbolRefAttrGet(
                                                      b->ctx, mlirStringRefCreateFromCString(STRATA_SHAPE_ERROR_FN))}));
  strataCreateOp(&then, "scf.yield", loc);
}
