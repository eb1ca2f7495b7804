/* --strata-dynamic-results: after bufferization, the results of dynamic
 * shape of a public function leave through the runtime
 * (strata_rt_result_<type>, runtime/results.h) instead of the function's
 * results, which buffer-results-to-out-params (next in the CPU pipeline)
 * would make out-params that no caller can size before the call. The
 * function lists the original result numbers that went this way in its
 * `strata.runtime_results` attribute (dense i64 array), which the JIT reads
 * to know which outputs to take from the runtime. */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/support.h"
#include "cpu_internal.h"

/* The runtime entry for element type t (kernel_abi.def), or NULL. */
static const char *resultFn(MlirType t) {
  if (mlirTypeIsAF32(t)) return "strata_rt_result_f32";
  if (mlirTypeIsAF64(t)) return "strata_rt_result_f64";
  if (mlirTypeIsAF16(t)) return "strata_rt_result_f16";
  if (!mlirTypeIsAInteger(t)) return NULL;
  switch (mlirIntegerTypeGetWidth(t)) {
  case 64: return "strata_rt_result_i64";
  case 32: return "strata_rt_result_i32";
  case 16: return "strata_rt_result_i16";
  case 8: return "strata_rt_result_i8";
  case 1: return "strata_rt_result_i1";
  default: return NULL;
  }
}

static bool isDynamicMemRef(MlirType t) { return mlirTypeIsAMemRef(t) && !mlirShapedTypeHasStaticShape(t); }

static bool isPublicWithCInterface(MlirOperation f) {
  return strataOpIsNamed(f, "func.func") && mlirAttributeIsNull(strataOpAttr(f, "sym_visibility")) &&
         !mlirAttributeIsNull(strataOpAttr(f, "llvm.emit_c_interface"));
}

/* Hands result i of `ret` to the runtime before it. */
static bool deliver(MlirOperation module, MlirOperation ret, intptr_t i) {
  MlirValue v = mlirOperationGetOperand(ret, i);
  MlirType t = mlirValueGetType(v), et = mlirShapedTypeGetElementType(t);
  MlirLocation loc = mlirOperationGetLocation(ret);
  const char *fn = resultFn(et);
  if (!fn) {
    char ts[128];
    strataTypeToString(t, ts, sizeof ts);
    strataEmitError(loc, "result #%ld has type %s: a result of dynamic shape needs an element type of "
                    "f16, f32, f64 or a 1-, 8-, 16-, 32- or 64-bit integer", (long)i, ts);
    return false;
  }
  if (mlirLogicalResultIsFailure(strataDeclareRuntimeFunc(module, fn))) return false;
  StrataBuilder b = strataBuilderBefore(ret, (MlirRewriterBase){NULL});
  if (mlirTypeIsAInteger(et) && !mlirIntegerTypeIsSignless(et)) {
    /* ui8 and friends: the runtime entry takes the signless type of the same
     * layout (memref.cast cannot change element types; the cast folds away
     * in the LLVM lowering, where both are the same descriptor) */
    intptr_t rank = mlirShapedTypeGetRank(t);
    int64_t dims[rank ? rank : 1];
    for (intptr_t d = 0; d < rank; d++) dims[d] = mlirShapedTypeGetDimSize(t, d);
    et = mlirIntegerTypeGet(b.ctx, mlirIntegerTypeGetWidth(et));
    t = mlirMemRefTypeGet(et, rank, dims, mlirMemRefTypeGetLayout(t), mlirMemRefTypeGetMemorySpace(t));
    v = strataResult(strataCreateOp(&b, "builtin.unrealized_conversion_cast", loc, .operands = STRATA_VALUES(v),
                                    .results = STRATA_TYPES(t)),
                     0);
  }
  MlirValue unranked = strataResult(
      strataCreateOp(&b, "memref.cast", loc, .operands = STRATA_VALUES(v),
                     .results = STRATA_TYPES(mlirUnrankedMemRefTypeGet(et, mlirMemRefTypeGetMemorySpace(t)))),
      0);
  MlirValue index = strataConstInt(&b, loc, mlirIntegerTypeGet(b.ctx, 64), i);
  strataCreateOp(&b, "func.call", loc, .operands = STRATA_VALUES(index, unranked),
                 .attrs = STRATA_ATTRS({"callee", mlirFlatSymbolRefAttrGet(b.ctx, mlirStringRefCreateFromCString(fn))}));
  return true;
}

static bool rewriteFunc(MlirOperation module, MlirOperation f) {
  MlirType ft = mlirTypeAttrGetValue(strataOpAttr(f, "function_type"));
  intptr_t nIn = mlirFunctionTypeGetNumInputs(ft), nOut = mlirFunctionTypeGetNumResults(ft);
  int64_t moved[nOut ? nOut : 1];
  MlirType kept[nOut ? nOut : 1], inputs[nIn ? nIn : 1];
  intptr_t numMoved = 0, numKept = 0;
  for (intptr_t i = 0; i < nOut; i++) {
    MlirType t = mlirFunctionTypeGetResult(ft, i);
    if (isDynamicMemRef(t)) moved[numMoved++] = i;
    else kept[numKept++] = t;
  }
  if (!numMoved) return true;
  for (intptr_t i = 0; i < nIn; i++) inputs[i] = mlirFunctionTypeGetInput(ft, i);
  /* every func.return of the body: deliver, then return the rest */
  MlirRegion body = mlirOperationGetRegion(f, 0);
  for (MlirBlock blk = mlirRegionGetFirstBlock(body); !mlirBlockIsNull(blk); blk = mlirBlockGetNextInRegion(blk)) {
    MlirOperation ret = mlirBlockGetTerminator(blk);
    if (mlirOperationIsNull(ret) || !strataOpIsNamed(ret, "func.return")) continue;
    MlirValue rest[nOut ? nOut : 1];
    intptr_t n = 0;
    for (intptr_t i = 0; i < nOut; i++) {
      if (isDynamicMemRef(mlirValueGetType(mlirOperationGetOperand(ret, i)))) {
        if (!deliver(module, ret, i)) return false;
      } else {
        rest[n++] = mlirOperationGetOperand(ret, i);
      }
    }
    mlirOperationSetOperands(ret, n, rest);
  }
  MlirContext ctx = mlirOperationGetContext(f);
  mlirOperationSetAttributeByName(f, mlirStringRefCreateFromCString("function_type"),
                                  mlirTypeAttrGet(mlirFunctionTypeGet(ctx, nIn, inputs, numKept, kept)));
  mlirOperationRemoveAttributeByName(f, mlirStringRefCreateFromCString("res_attrs"));
  mlirOperationSetAttributeByName(f, mlirStringRefCreateFromCString(STRATA_RUNTIME_RESULTS_ATTR),
                                  mlirDenseI64ArrayGet(ctx, numMoved, moved));
  return true;
}

static void runDynamicResults(StrataPassRun *run, MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f))
    if (isPublicWithCInterface(f) && !rewriteFunc(module, f)) strataPassSignalFailure(run);
}

const StrataPassDef strataDynamicResultsPass = {
    .name = "strata-dynamic-results",
    .summary = "Hand a public function's results of dynamic shape to the runtime (strata_rt_result_*) "
               "before buffer-results-to-out-params",
    .anchor = "builtin.module",
    .run = runDynamicResults,
};
