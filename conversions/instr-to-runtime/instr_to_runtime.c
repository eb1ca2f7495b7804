/* --instr-to-runtime: each instr.probe becomes a call of its tool's sink in
 * libstrata_rt (runtime/instr.h) and its result becomes its operand again.
 *   tool "trace":   strata_rt_instr_trace(memref<*xf32>, op_id, index, point, name)
 *   tool "profile": strata_rt_instr_profile(op_id, index, point, name)
 *   tool "dump":    strata_rt_instr_dump(memref<*xf32>, op_id, index, point, name)
 * `name` is the op name as a constant i8 global (one per op id). Each public
 * function holding probes starts with strata_rt_instr_run_begin(), so the
 * sinks count runs. Runs in strata-cpu-pipeline after nn-to-linalg, before
 * bufferization (the tensors cross the call as read-only buffers, like the
 * kernels' operands). A module without probes is left as it is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Bufferization.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/MemRef.h"
#include "strata/builder.h"
#include "strata/instrument.h"
#include "strata/pass.h"
#include "strata/support.h"

#define TRACE_FN "strata_rt_instr_trace"
#define PROFILE_FN "strata_rt_instr_profile"
#define DUMP_FN "strata_rt_instr_dump"
#define RUN_FN "strata_rt_instr_run_begin"
static MlirWalkResult collectProbes(MlirOperation op, void *user) {
  if (strataOpIsNamed(op, "instr.probe") && !strataOpListAppend(user, op)) return MlirWalkResultInterrupt;
  return MlirWalkResultAdvance;
}

static int64_t intAttr(MlirOperation op, const char *name) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  return mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a) ? -1 : mlirIntegerAttrGetValueInt(a);
}

/* Copies a string attribute into buf ("" if absent). */
static const char *strAttr(MlirOperation op, const char *name, char *buf, size_t size) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  MlirStringRef s = !mlirAttributeIsNull(a) && mlirAttributeIsAString(a) ? mlirStringAttrGetValue(a)
                                                                         : mlirStringRefCreate("", 0);
  snprintf(buf, size, "%.*s", (int)s.length, s.data);
  return buf;
}

static void call(StrataBuilder *b, MlirLocation loc, const char *fn, const MlirValue *args, intptr_t n) {
  strataCreateOp(b, "func.call", loc, .operands = {args, n},
                 .attrs = STRATA_ATTRS({"callee", mlirFlatSymbolRefAttrGet(b->ctx, mlirStringRefCreateFromCString(fn))}));
}

static MlirOperation enclosingFunc(MlirOperation op) {
  while (!mlirOperationIsNull(op) && !strataOpIsNamed(op, "func.func"))
    op = mlirOperationGetParentOperation(op);
  return op;
}

/* Lowers one probe; false after a located error. */
static bool lowerProbe(MlirOperation module, MlirOperation p) {
  MlirLocation loc = mlirOperationGetLocation(p);
  char tool[64], point[16], name[256];
  strAttr(p, "tool", tool, sizeof tool);
  strAttr(p, "point", point, sizeof point);
  strAttr(p, "op_name", name, sizeof name);
  int64_t opId = intAttr(p, "op_id"), index = intAttr(p, "index");
  MlirValue x = mlirOperationGetOperand(p, 0);
  MlirType xt = mlirValueGetType(x);
  /* trace and dump take the tensor; profile only the point. */
  bool trace = !strcmp(tool, "trace"), dump = !strcmp(tool, "dump"), profile = !strcmp(tool, "profile");
  if (!trace && !dump && !profile) {
    strataEmitError(loc, "instr-to-runtime: no runtime sink for tool '%s' (sinks: trace, profile, dump)",
                    tool);
    return false;
  }
  if (!profile && !(mlirTypeIsARankedTensor(xt) && mlirTypeIsAF32(mlirShapedTypeGetElementType(xt)))) {
    char ts[128];
    strataTypeToString(xt, ts, sizeof ts);
    strataEmitError(loc, "instr-to-runtime: the %s sink takes f32 tensors; this probe carries %s", tool, ts);
    return false;
  }
  if (opId < 0 || index < 0 || !*name) {
    strataEmitError(loc, "instr-to-runtime: probe without op_id, index or op_name");
    return false;
  }
  MlirContext ctx = mlirOperationGetContext(p);
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  StrataBuilder b = strataBuilderBefore(p, (MlirRewriterBase){NULL});
  MlirValue args[5];
  intptr_t n = 0;
  if (!profile) args[n++] = strataTensorToUnrankedMemRef(&b, loc, x);
  args[n++] = strataConstInt(&b, loc, i64, opId);
  args[n++] = strataConstInt(&b, loc, i64, index);
  args[n++] = strataConstInt(&b, loc, i64, strcmp(point, "before") ? 1 : 0);
  char sym[64];
  snprintf(sym, sizeof sym, "__strata_instr_name_%lld", (long long)opId);
  args[n++] = strataConstStringRef(&b, module, loc, sym, name);
  const char *fn = trace ? TRACE_FN : dump ? DUMP_FN : PROFILE_FN;
  strataDeclareRuntimeFunc(module, fn);
  call(&b, loc, fn, args, n);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(p, 0), x);
  mlirOperationDestroy(p);
  return true;
}

static void runInstrToRuntime(StrataPassRun *run, MlirOperation module) {
  StrataOpList probes = {0}, funcs = {0};
  mlirOperationWalk(module, collectProbes, &probes, MlirWalkPreOrder);
  bool ok = true;
  for (size_t i = 0; i < probes.count && ok; i++) {
    MlirOperation f = enclosingFunc(probes.ops[i]);
    ok = (mlirOperationIsNull(f) || strataOpListContains(&funcs, f) || strataOpListAppend(&funcs, f)) &&
         lowerProbe(module, probes.ops[i]);
  }
  for (size_t i = 0; i < funcs.count && ok; i++) {
    MlirOperation f = funcs.ops[i];
    MlirAttribute vis = mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("sym_visibility"));
    MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
    if (!mlirAttributeIsNull(vis) || mlirBlockIsNull(entry)) continue;
    StrataBuilder b = strataBuilderAtEnd(mlirOperationGetContext(f), entry);
    b.before = mlirBlockGetFirstOperation(entry);
    strataDeclareRuntimeFunc(module, RUN_FN);
    call(&b, mlirOperationGetLocation(f), RUN_FN, NULL, 0);
  }
  strataOpListDestroy(&probes);
  strataOpListDestroy(&funcs);
  if (!ok) strataPassSignalFailure(run);
}

static const StrataDialectHandleFn kDeps[] = {
    mlirGetDialectHandle__bufferization__, mlirGetDialectHandle__memref__,
    mlirGetDialectHandle__func__, mlirGetDialectHandle__arith__, NULL};

const StrataPassDef strataInstrToRuntimePass = {
    .name = "instr-to-runtime",
    .summary = "Lower instr.probe ops to calls of the libstrata_rt sinks of their tool (trace, profile, dump)",
    .anchor = "builtin.module",
    .run = runInstrToRuntime,
    .dependentDialects = kDeps,
};
