/* --dsp-to-hexagon: the dsp instruction ops as calls of LLVM's Hexagon HVX
 * intrinsics in 128-byte mode (`llvm.call_intrinsic
 * "llvm.hexagon.V6.<insn>.128B"`), each op the one instruction whose
 * semantics it has (docs/dsp.md lists them). HVX intrinsics see every
 * vector as <32 x i32> and a register pair as <64 x i32> (lo = elements
 * 0-31), so operands are bitcast in and results bitcast out; a pair operand
 * is built with vcombine(hi, lo) and a pair result split by shuffles.
 * The operator-level ops (dsp.matmul, dsp.requant, dsp.transpose,
 * dsp.convert_layout) are no single instruction: the pass refuses them at
 * the op. The hexagon target runs it after bufferization
 * (targets/hexagon/hexagon_target.c). */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/LLVM.h"
#include "mlir-c/Dialect/Vector.h"
#include "strata/builder.h"
#include "strata/context.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/support.h"

typedef struct {
  StrataBuilder *b;
  MlirLocation loc;
  MlirContext ctx;
} Gen;

static MlirType hvxTy(Gen *g, int64_t words) {
  return mlirVectorTypeGet(1, &words, mlirIntegerTypeGet(g->ctx, 32));
}

static MlirValue bitcast(Gen *g, MlirValue v, MlirType t) {
  if (mlirTypeEqual(mlirValueGetType(v), t)) return v;
  return strataResult(strataCreateOp(g->b, "llvm.bitcast", g->loc, .operands = STRATA_VALUES(v), .results = STRATA_TYPES(t)), 0);
}

/* llvm.hexagon.V6.<insn>.128B(args), its result of `words` i32 lanes. */
static MlirValue intrinsic(Gen *g, const char *insn, const MlirValue *args, intptr_t n, int64_t words) {
  char name[96];
  snprintf(name, sizeof name, "llvm.hexagon.V6.%s.128B", insn);
  int32_t segments[2] = {(int32_t)n, 0};
  MlirAttribute fm = mlirAttributeParseGet(g->ctx, mlirStringRefCreateFromCString("#llvm.fastmath<none>"));
  return strataResult(
      strataCreateOp(g->b, "llvm.call_intrinsic", g->loc, .operands = (StrataValueList){args, n},
                     .results = STRATA_TYPES(hvxTy(g, words)),
                     .attrs = STRATA_ATTRS({"intrin", strataStrAttr(g->ctx, name)}, {"fastmathFlags", fm},
                                           {"op_bundle_sizes", mlirDenseI32ArrayGet(g->ctx, 0, NULL)},
                                           {"operandSegmentSizes", mlirDenseI32ArrayGet(g->ctx, 2, segments)})),
      0);
}

/* A pair register from two vector values: vcombine(Vu = hi, Vv = lo). */
static MlirValue pair(Gen *g, MlirValue lo, MlirValue hi) {
  MlirValue args[2] = {bitcast(g, hi, hvxTy(g, 32)), bitcast(g, lo, hvxTy(g, 32))};
  return intrinsic(g, "vcombine", args, 2, 64);
}

/* Half `part` (0: lo, 1: hi) of a pair, as type `t`. */
static MlirValue half(Gen *g, MlirValue p, int part, MlirType t) {
  int64_t mask[32];
  for (int i = 0; i < 32; i++) mask[i] = 32 * part + i;
  MlirValue h = strataResult(strataCreateOp(g->b, "vector.shuffle", g->loc, .operands = STRATA_VALUES(p, p),
                                            .results = STRATA_TYPES(hvxTy(g, 32)),
                                            .attrs = STRATA_ATTRS({"mask", mlirDenseI64ArrayGet(g->ctx, 32, mask)})),
                             0);
  return bitcast(g, h, t);
}

static MlirValue operand(Gen *g, MlirOperation op, intptr_t i) {
  return bitcast(g, mlirOperationGetOperand(op, i), hvxTy(g, 32));
}

static bool hasSuffix(MlirStringRef s, const char *suffix) {
  size_t n = strlen(suffix);
  return s.length >= n && !strncmp(s.data + s.length - n, suffix, n);
}

/* Element bytes of a vector value's type. */
static int32_t elementBytes(MlirValue v) {
  return (int32_t)(mlirIntegerTypeGetWidth(mlirShapedTypeGetElementType(mlirValueGetType(v))) / 8);
}

static MlirLogicalResult rewrite(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  Gen gen = {&rw->builder, mlirOperationGetLocation(op), mlirOperationGetContext(op)}, *g = &gen;
  MlirStringRef nm = mlirIdentifierStr(mlirOperationGetName(op));
  bool acc = hasSuffix(nm, "_acc");
  intptr_t numResults = mlirOperationGetNumResults(op), numOperands = mlirOperationGetNumOperands(op);
  MlirValue rt = mlirOperationGetOperand(op, numOperands - 1), args[4], out[2];
  intptr_t n = 0;
  const char *insn;
  bool pairResult = numResults == 2;
  if (strataOpIsNamed(op, "dsp.vrmpy") || strataOpIsNamed(op, "dsp.vrmpy_acc")) {
    /* Vd.w = vrmpy(Vu.ub, Rt.b); with unsigned_rt Vd.uw = vrmpy(Vu.ub, Rt.ub) */
    bool sgn = mlirAttributeIsNull(strataOpAttr(op, "unsigned_rt"));
    insn = acc ? (sgn ? "vrmpybus.acc" : "vrmpyub.acc") : (sgn ? "vrmpybus" : "vrmpyub");
    if (acc) args[n++] = operand(g, op, 0);
    args[n++] = operand(g, op, acc), args[n++] = rt;
  } else if (strataOpIsNamed(op, "dsp.vmpy") || strataOpIsNamed(op, "dsp.vmpy_acc")) {
    insn = acc ? "vmpybus.acc" : "vmpybus"; /* Vdd.h = vmpy(Vu.ub, Rt.b) */
    if (acc) args[n++] = pair(g, mlirOperationGetOperand(op, 0), mlirOperationGetOperand(op, 1));
    args[n++] = operand(g, op, acc ? 2 : 0), args[n++] = rt;
  } else if (strataOpIsNamed(op, "dsp.vmpa") || strataOpIsNamed(op, "dsp.vmpa_acc")) {
    insn = acc ? "vmpabus.acc" : "vmpabus"; /* Vdd.h = vmpa(Vuu.ub, Rt.b), Vuu = v1:v0 */
    intptr_t k = acc ? 2 : 0;
    if (acc) args[n++] = pair(g, mlirOperationGetOperand(op, 0), mlirOperationGetOperand(op, 1));
    args[n++] = pair(g, mlirOperationGetOperand(op, k), mlirOperationGetOperand(op, k + 1)), args[n++] = rt;
  } else if (strataOpIsNamed(op, "dsp.vdmpy") || strataOpIsNamed(op, "dsp.vdmpy_acc")) {
    insn = acc ? "vdmpybus.acc" : "vdmpybus"; /* Vd.h = vdmpy(Vu.ub, Rt.b), no saturation */
    if (acc) args[n++] = operand(g, op, 0);
    args[n++] = operand(g, op, acc), args[n++] = rt;
  } else if (strataOpIsNamed(op, "dsp.vsat")) {
    /* Vd.ub = vsat(Vu.h, Vv.h) or Vd.h = vsat(Vu.w, Vv.w) */
    insn = elementBytes(mlirOperationGetOperand(op, 0)) == 2 ? "vsathub" : "vsatwh";
    args[n++] = operand(g, op, 0), args[n++] = operand(g, op, 1);
  } else { /* vshuff, vdeal: the only other ops registered below */
    /* Vdd = vshuff(Vu = hi, Vv = lo, Rt = -element bytes); vdeal alike
     * (in1 = Vu, in0 = Vv) */
    insn = strataOpIsNamed(op, "dsp.vshuff") ? "vshuffvdd" : "vdealvdd";
    args[n++] = operand(g, op, 1), args[n++] = operand(g, op, 0);
    args[n++] = strataConstInt(g->b, g->loc, mlirIntegerTypeGet(g->ctx, 32), -elementBytes(mlirOperationGetOperand(op, 0)));
  }
  MlirValue r = intrinsic(g, insn, args, n, pairResult ? 64 : 32);
  if (pairResult) {
    out[0] = half(g, r, 0, mlirValueGetType(mlirOperationGetResult(op, 0)));
    out[1] = half(g, r, 1, mlirValueGetType(mlirOperationGetResult(op, 1)));
  } else {
    out[0] = bitcast(g, r, mlirValueGetType(mlirOperationGetResult(op, 0)));
  }
  strataReplaceOp(rw, op, (StrataValueList){out, numResults});
  return mlirLogicalResultSuccess();
}

static const char *const kOps[] = {"dsp.vrmpy", "dsp.vrmpy_acc", "dsp.vmpy",  "dsp.vmpy_acc", "dsp.vmpa",
                                   "dsp.vmpa_acc", "dsp.vdmpy", "dsp.vdmpy_acc", "dsp.vsat", "dsp.vshuff",
                                   "dsp.vdeal"};

/* Any dsp op left is one the patterns do not take: refused at the op. */
static MlirWalkResult refuseRest(MlirOperation op, void *user) {
  bool *failed = user;
  if (!strataOpIsInDialect(op, "dsp")) return MlirWalkResultAdvance;
  strataEmitOpError(op, "dsp-to-hexagon: no HVX instruction of its own (lower it to dsp instruction ops first)");
  *failed = true;
  return MlirWalkResultAdvance;
}

static void runDspToHexagon(StrataPassRun *run, MlirOperation root) {
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(root));
  for (size_t i = 0; i < sizeof kOps / sizeof kOps[0]; i++) strataPatternSetAdd(set, kOps[i], 1, rewrite, NULL);
  strataApplyPatternsWalk(set, root);
  strataPatternSetDestroy(set);
  bool failed = false;
  mlirOperationWalk(root, refuseRest, &failed, MlirWalkPreOrder);
  if (failed) strataPassSignalFailure(run);
}

static const StrataDialectHandleFn kDeps[] = {mlirGetDialectHandle__llvm__, mlirGetDialectHandle__vector__,
                                              mlirGetDialectHandle__arith__, NULL};

const StrataPassDef strataDspToHexagonPass = {
    .name = "dsp-to-hexagon",
    .summary = "Lower the dsp instruction ops to LLVM Hexagon HVX intrinsic calls (128-byte mode)",
    .anchor = "func.func",
    .run = runDspToHexagon,
    .dependentDialects = kDeps,
};
