/* --dsp-lower-operators: the operator-level dsp ops as loops of the
 * instruction ops over tensors, for --dsp-to-vector and --dsp-to-hexagon
 * (the `hexagon` target runs it first). Built so far:
 *
 *   dsp.matmul (inst vrmpy, or none: vrmpy is exact) ->
 *     for each 32-row panel p, output column n:
 *       acc = 0
 *       for each 4-column group g:
 *         Vu = the panel's rows, four bytes of columns 4g..4g+3 each (the
 *              4-column layout of A, gathered from row-major A with
 *              vector.gather; rows >= M and columns >= K are 0)
 *         Rt = B(4g..4g+3, n) as four bytes (0 beyond K)
 *         acc = dsp.vrmpy_acc(acc, Vu, Rt)
 *       C(32p + r, n) = acc[r] for the panel's rows below M
 *   dsp.requant -> 32 words a step: extend to i64, add the rounding,
 *     shift, clamp to 0..255, narrow
 *   dsp.convert_layout -> its operand (the value is unchanged; here each
 *     MatMul forms its layout in registers as it reads A)
 *
 *   dsp.flip_sign, dsp.im2col, dsp.qsum, dsp.qrequant -> linalg.generic
 *     nests of integer arith (dsp_lower_quant.c)
 *
 * Refused at the op: dsp.matmul with inst vmpy or vmpa, dsp.transpose. */
#include <string.h>
#include "dsp_internal.h"
#include "dsp_lower.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Dialect/Tensor.h"
#include "mlir-c/Dialect/Vector.h"
#include "strata/builder.h"
#include "strata/context.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/support.h"

typedef struct {
  StrataBuilder b;
  MlirLocation loc;
  MlirType index;
} Gen;

static MlirValue cIdx(Gen *g, int64_t v) { return strataConstInt(&g->b, g->loc, g->index, v); }

static MlirValue bin(Gen *g, const char *name, MlirValue x, MlirValue y) {
  return strataResult(strataCreateOp(&g->b, name, g->loc, .operands = STRATA_VALUES(x, y),
                                     .results = STRATA_TYPES(mlirValueGetType(x))),
                      0);
}

static MlirValue cmpUlt(Gen *g, MlirValue x, MlirValue y) {
  MlirType t = mlirValueGetType(x);
  MlirType i1 = mlirIntegerTypeGet(g->b.ctx, 1);
  if (mlirTypeIsAVector(t)) {
    int64_t n = mlirShapedTypeGetDimSize(t, 0);
    i1 = mlirVectorTypeGet(1, &n, i1);
  }
  return strataResult(strataCreateOp(&g->b, "arith.cmpi", g->loc, .operands = STRATA_VALUES(x, y),
                                     .results = STRATA_TYPES(i1),
                                     .attrs = STRATA_ATTRS({"predicate", strataI64Attr(g->b.ctx, 6)})),
                      0);
}

/* An scf.for from lb to ub (step 1) carrying `init`; the builder moves into
 * its body until loopEnd. */
typedef struct {
  MlirOperation op;
  MlirBlock body;
  StrataBuilder outer;
} Loop;

static MlirValue loopBegin(Gen *g, Loop *l, MlirValue lb, MlirValue ub, MlirValue init) {
  MlirType types[2] = {g->index, mlirValueGetType(init)};
  l->op = strataCreateOp(&g->b, "scf.for", g->loc, .operands = STRATA_VALUES(lb, ub, cIdx(g, 1), init),
                         .results = STRATA_TYPES(types[1]), .numRegions = 1);
  l->body = strataAddBlock(l->op, 0, (StrataTypeList){types, 2}, g->loc);
  l->outer = g->b;
  g->b = strataBuilderAtEnd(g->b.ctx, l->body);
  return mlirBlockGetArgument(l->body, 0);
}

static MlirValue loopArg(Loop *l) { return mlirBlockGetArgument(l->body, 1); }

static MlirValue loopEnd(Gen *g, Loop *l, MlirValue yield) {
  strataCreateOp(&g->b, "scf.yield", g->loc, .operands = STRATA_VALUES(yield));
  g->b = l->outer;
  return strataResult(l->op, 0);
}

/* Rt: B(k0 + j, n) for j < 4 as bytes j of an i32, 0 where k0 + j >= K. */
static MlirValue formRt(Gen *g, MlirValue B, MlirValue k0, MlirValue n, int64_t K) {
  MlirType i32 = mlirIntegerTypeGet(g->b.ctx, 32), i8 = mlirIntegerTypeGet(g->b.ctx, 8);
  MlirValue rt = strataConstInt(&g->b, g->loc, i32, 0), zero = cIdx(g, 0);
  for (int j = 0; j < 4; j++) {
    MlirValue k = bin(g, "arith.addi", k0, cIdx(g, j)), in = cmpUlt(g, k, cIdx(g, K));
    MlirValue kc = strataResult(strataCreateOp(&g->b, "arith.select", g->loc, .operands = STRATA_VALUES(in, k, zero),
                                               .results = STRATA_TYPES(g->index)),
                                0);
    MlirValue w = strataResult(strataCreateOp(&g->b, "tensor.extract", g->loc, .operands = STRATA_VALUES(B, kc, n),
                                              .results = STRATA_TYPES(i8)),
                               0);
    MlirValue w32 = strataResult(strataCreateOp(&g->b, "arith.extui", g->loc, .operands = STRATA_VALUES(w),
                                                .results = STRATA_TYPES(i32)),
                                 0);
    MlirValue wz = strataResult(strataCreateOp(&g->b, "arith.select", g->loc,
                                               .operands = STRATA_VALUES(in, w32, strataConstInt(&g->b, g->loc, i32, 0)),
                                               .results = STRATA_TYPES(i32)),
                                0);
    rt = bin(g, "arith.ori", rt, j ? bin(g, "arith.shli", wz, strataConstInt(&g->b, g->loc, i32, 8 * j)) : wz);
  }
  return rt;
}

static MlirLogicalResult lowerMatmul(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  MlirValue A = mlirOperationGetOperand(op, 0), B = mlirOperationGetOperand(op, 1);
  MlirType at = mlirValueGetType(A), ct = mlirValueGetType(mlirOperationGetResult(op, 0));
  int64_t M = mlirShapedTypeGetDimSize(at, 0), K = mlirShapedTypeGetDimSize(at, 1);
  int64_t N = mlirShapedTypeGetDimSize(ct, 1);
  MlirContext ctx = mlirOperationGetContext(op);
  Gen g = {strataBuilderBefore(op, rw->rewriter), mlirOperationGetLocation(op), mlirIndexTypeGet(ctx)};
  MlirType i8 = mlirIntegerTypeGet(ctx, 8), i32 = mlirIntegerTypeGet(ctx, 32);
  int64_t v128 = 128, v32 = 32;
  MlirType vi8 = mlirVectorTypeGet(1, &v128, i8);
  MlirType vi32 = mlirVectorTypeGet(1, &v32, i32);
  MlirValue packed = dspPackCol4(&g.b, g.loc, A, M, K);
  MlirValue zero32 = strataResult(strataCreateOp(&g.b, "arith.constant", g.loc, .results = STRATA_TYPES(vi32),
                                                 .attrs = STRATA_ATTRS({"value", mlirDenseElementsAttrSplatGet(
                                                                                     vi32, mlirIntegerAttrGet(i32, 0))})),
                                  0);
  MlirValue init = strataResult(strataCreateOp(&g.b, "tensor.empty", g.loc, .results = STRATA_TYPES(ct)), 0);
  Loop lp, ln, lg, lr;
  MlirValue p = loopBegin(&g, &lp, cIdx(&g, 0), cIdx(&g, (M + 31) / 32), init);
  MlirValue r0 = bin(&g, "arith.muli", p, cIdx(&g, 32));
  MlirValue n = loopBegin(&g, &ln, cIdx(&g, 0), cIdx(&g, N), loopArg(&lp));
  MlirValue gi = loopBegin(&g, &lg, cIdx(&g, 0), cIdx(&g, (K + 3) / 4), zero32);
  MlirValue k0 = bin(&g, "arith.muli", gi, cIdx(&g, 4));
  /* The group's 128 bytes, contiguous in the packed panels: one load. */
  MlirValue vu = strataResult(
      strataCreateOp(&g.b, "vector.transfer_read", g.loc,
                     .operands = STRATA_VALUES(packed, p, gi, cIdx(&g, 0), strataConstInt(&g.b, g.loc, i8, 0)),
                     .results = STRATA_TYPES(vi8),
                     .attrs = STRATA_ATTRS({"permutation_map", strataParseAttr(ctx, "affine_map<(d0, d1, d2) -> (d2)>")},
                                           {"in_bounds", mlirArrayAttrGet(ctx, 1, (MlirAttribute[]){mlirBoolAttrGet(ctx, 1)})},
                                           {"operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 4, (int32_t[]){1, 3, 1, 0})})),
      0);
  MlirValue rt = formRt(&g, B, k0, n, K);
  MlirValue acc = strataResult(strataCreateOp(&g.b, "dsp.vrmpy_acc", g.loc, .operands = STRATA_VALUES(loopArg(&lg), vu, rt),
                                              .results = STRATA_TYPES(vi32)),
                               0);
  acc = loopEnd(&g, &lg, acc);
  /* The panel's rows below M into column n. */
  MlirValue rows32 = strataResult(strataCreateOp(&g.b, "arith.minsi", g.loc,
                                                 .operands = STRATA_VALUES(cIdx(&g, 32), bin(&g, "arith.subi", cIdx(&g, M), r0)),
                                                 .results = STRATA_TYPES(g.index)),
                                  0);
  MlirValue r = loopBegin(&g, &lr, cIdx(&g, 0), rows32, loopArg(&ln));
  MlirValue e = strataResult(strataCreateOp(&g.b, "vector.extract", g.loc, .operands = STRATA_VALUES(acc, r),
                                            .results = STRATA_TYPES(i32),
                                            .attrs = STRATA_ATTRS({"static_position", mlirDenseI64ArrayGet(
                                                                                         ctx, 1, (int64_t[]){INT64_MIN})})),
                             0);
  MlirValue row = bin(&g, "arith.addi", r0, r);
  MlirValue ins = strataResult(strataCreateOp(&g.b, "tensor.insert", g.loc, .operands = STRATA_VALUES(e, loopArg(&lr), row, n),
                                              .results = STRATA_TYPES(ct)),
                               0);
  MlirValue c = loopEnd(&g, &lr, ins);
  c = loopEnd(&g, &ln, c);
  c = loopEnd(&g, &lp, c);
  strataReplaceOp(rw, op, STRATA_VALUES(c));
  return mlirLogicalResultSuccess();
}

static MlirValue splatConst(Gen *g, MlirType vt, MlirType elem, int64_t v) {
  return strataResult(strataCreateOp(&g->b, "arith.constant", g->loc, .results = STRATA_TYPES(vt),
                                     .attrs = STRATA_ATTRS({"value", mlirDenseElementsAttrSplatGet(
                                                                         vt, mlirIntegerAttrGet(elem, v))})),
                      0);
}

static MlirValue cast(Gen *g, const char *name, MlirValue x, MlirType t) {
  return strataResult(strataCreateOp(&g->b, name, g->loc, .operands = STRATA_VALUES(x), .results = STRATA_TYPES(t)), 0);
}

/* dsp.requant: y = usat8((x + 2^(shift-1)) >> shift), each row 32 words a
 * step (the tail masked), in i64 as the interpreter does (x + 2^(shift-1)
 * can leave i32), saturated to 0..255 and narrowed. Written into the
 * result's own tensor (no reshape), so that a returned result bufferizes
 * into the caller's buffer. */
static MlirLogicalResult lowerRequant(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  MlirValue X = mlirOperationGetOperand(op, 0);
  MlirType yt = mlirValueGetType(mlirOperationGetResult(op, 0));
  int64_t rows = mlirShapedTypeGetDimSize(yt, 0), cols = mlirShapedTypeGetDimSize(yt, 1), shift = 0, v32 = 32;
  strataGetI64(op, "shift", &shift);
  MlirContext ctx = mlirOperationGetContext(op);
  Gen g = {strataBuilderBefore(op, rw->rewriter), mlirOperationGetLocation(op), mlirIndexTypeGet(ctx)};
  MlirType i32 = mlirIntegerTypeGet(ctx, 32), i64 = mlirIntegerTypeGet(ctx, 64), i8 = mlirIntegerTypeGet(ctx, 8);
  MlirType u8 = mlirIntegerTypeUnsignedGet(ctx, 8);
  MlirType v32i32 = mlirVectorTypeGet(1, &v32, i32), v32i64 = mlirVectorTypeGet(1, &v32, i64);
  MlirType v32i8 = mlirVectorTypeGet(1, &v32, i8), v32u8 = mlirVectorTypeGet(1, &v32, u8);
  MlirValue out = strataResult(strataCreateOp(&g.b, "tensor.empty", g.loc, .results = STRATA_TYPES(yt)), 0);
  MlirValue pad = strataConstInt(&g.b, g.loc, i32, 0);
  MlirValue round = splatConst(&g, v32i64, i64, shift ? (int64_t)1 << (shift - 1) : 0);
  MlirValue sh = splatConst(&g, v32i64, i64, shift), lo = splatConst(&g, v32i64, i64, 0),
            hi = splatConst(&g, v32i64, i64, 255);
  MlirAttribute map = strataParseAttr(ctx, "affine_map<(d0, d1) -> (d1)>");
  MlirAttribute notInBounds = mlirArrayAttrGet(ctx, 1, (MlirAttribute[]){mlirBoolAttrGet(ctx, 0)});
  MlirAttribute readSeg = mlirDenseI32ArrayGet(ctx, 4, (int32_t[]){1, 2, 1, 0});
  MlirAttribute writeSeg = mlirDenseI32ArrayGet(ctx, 4, (int32_t[]){1, 1, 2, 0});
  Loop lr, lc;
  MlirValue i = loopBegin(&g, &lr, cIdx(&g, 0), cIdx(&g, rows), out);
  MlirValue c = loopBegin(&g, &lc, cIdx(&g, 0), cIdx(&g, (cols + 31) / 32), loopArg(&lr));
  MlirValue j = bin(&g, "arith.muli", c, cIdx(&g, 32));
  MlirValue x = strataResult(strataCreateOp(&g.b, "vector.transfer_read", g.loc, .operands = STRATA_VALUES(X, i, j, pad),
                                            .results = STRATA_TYPES(v32i32),
                                            .attrs = STRATA_ATTRS({"permutation_map", map}, {"in_bounds", notInBounds},
                                                                  {"operandSegmentSizes", readSeg})),
                             0);
  MlirValue w = bin(&g, "arith.shrsi", bin(&g, "arith.addi", cast(&g, "arith.extsi", x, v32i64), round), sh);
  w = bin(&g, "arith.minsi", bin(&g, "arith.maxsi", w, lo), hi);
  MlirValue y = cast(&g, "vector.bitcast", cast(&g, "arith.trunci", w, v32i8), v32u8);
  MlirValue t = strataResult(strataCreateOp(&g.b, "vector.transfer_write", g.loc,
                                            .operands = STRATA_VALUES(y, loopArg(&lc), i, j), .results = STRATA_TYPES(yt),
                                            .attrs = STRATA_ATTRS({"permutation_map", map}, {"in_bounds", notInBounds},
                                                                  {"operandSegmentSizes", writeSeg})),
                             0);
  MlirValue r = loopEnd(&g, &lc, t);
  r = loopEnd(&g, &lr, r);
  strataReplaceOp(rw, op, STRATA_VALUES(r));
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult lowerConvert(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  strataReplaceOp(rw, op, STRATA_VALUES(mlirOperationGetOperand(op, 0)));
  return mlirLogicalResultSuccess();
}

/* What is not lowered yet, refused at the op; false if anything was. */
static MlirWalkResult refuse(MlirOperation op, void *user) {
  const char *why = NULL;
  if (strataOpIsNamed(op, "dsp.matmul")) {
    char buf[8] = "";
    MlirAttribute a = strataOpAttr(op, STRATA_DSP_INST);
    if (!mlirAttributeIsNull(a) && mlirAttributeIsAString(a)) {
      MlirStringRef s = mlirStringAttrGetValue(a);
      if (s.length < sizeof buf) memcpy(buf, s.data, s.length), buf[s.length] = 0;
    }
    if (buf[0] && strcmp(buf, "vrmpy")) why = "only the vrmpy plan (or none) of a MatMul is lowered yet";
    else if (!mlirShapedTypeHasStaticShape(mlirValueGetType(mlirOperationGetOperand(op, 0))) ||
             !mlirShapedTypeHasStaticShape(mlirValueGetType(mlirOperationGetOperand(op, 1))))
      why = "its shapes are not static";
  } else if (strataOpIsNamed(op, "dsp.transpose")) {
    why = "this operator has no lowering to the instruction ops yet";
  }
  if (why) {
    strataEmitOpError(op, "dsp-lower-operators: %s", why);
    *(bool *)user = false;
  }
  return MlirWalkResultAdvance;
}

static void runLowerOperators(StrataPassRun *run, MlirOperation root) {
  bool good = true;
  mlirOperationWalk(root, refuse, &good, MlirWalkPreOrder);
  if (!good) {
    strataPassSignalFailure(run);
    return;
  }
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(root));
  strataPatternSetAdd(set, "dsp.matmul", 1, lowerMatmul, NULL);
  strataPatternSetAdd(set, "dsp.convert_layout", 1, lowerConvert, NULL);
  strataPatternSetAdd(set, "dsp.requant", 1, lowerRequant, NULL);
  dspLowerQuantPatterns(set);
  strataApplyPatternsWalk(set, root);
  strataPatternSetDestroy(set);
}

static const StrataDialectHandleFn kDeps[] = {mlirGetDialectHandle__vector__, mlirGetDialectHandle__arith__,
                                              mlirGetDialectHandle__tensor__, mlirGetDialectHandle__scf__, mlirGetDialectHandle__linalg__, NULL};

const StrataPassDef strataDspLowerOperatorsPass = {
    .name = "dsp-lower-operators",
    .summary = "Lower dsp.matmul (the vrmpy plan) to loops of dsp.vrmpy_acc over gathered 4-column panels, "
               "dsp.requant to vector arithmetic, dsp.convert_layout to its operand, and nn-to-dsp's flip_sign, im2col, "
               "qsum and qrequant to integer linalg.generic nests (bit-exact, no f64); refuses the vmpy/vmpa plans "
               "and dsp.transpose",
    .anchor = "func.func",
    .run = runLowerOperators,
    .dependentDialects = kDeps,
};
