/* --nn-to-kernels, the quantized ops: nn.matmul_integer, nn.conv_integer,
 * nn.qlinear_matmul and nn.qlinear_conv of static, non-empty shape become calls to
 * libstrata_rt's integer GEMM (runtime/qgemm.c: VNNI, AVX2 or portable C,
 * exact), a QLinear op absorbing the nn.max(y, y_zero_point) that
 * nn-qdq-to-qlinear writes for a Relu, and then the integer nn.clip it
 * writes for a Clip, each when it is the only user of what it clamps.
 * Covered: matmul with a of rank >= 2 and a 2-D b; 2-D convolutions (any
 * group, stride, dilation, pads). Everything else (1-D or 3-D convs, a
 * batched or 1-D b, dynamic shapes) stays with nn-to-linalg's loops.
 * 8-bit tensors cross the call as memref<*xi8> (a ui8 buffer through an
 * unrealized cast, which folds away in the LLVM lowering: the layout is
 * the same). */
#include <math.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/nn.h"
#include "strata/pattern.h"
#include "strata/support.h"
#include "nn_quant.h"
#include "nn_to_kernels.h"
#include "kernels.h" /* STRATA_RT_Q_* */

static bool staticNonEmpty(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t)) return false;
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); i++)
    if (mlirShapedTypeGetDimSize(t, i) == 0) return false;
  return true;
}

static bool isUnsignedTensor(MlirValue v) {
  MlirType e = mlirShapedTypeGetElementType(mlirValueGetType(v));
  return mlirTypeIsAInteger(e) && mlirIntegerTypeIsUnsigned(e);
}

/* Tensor t as the runtime's unranked memref of its element type, or of the
 * signless type of the same width (a ui8 buffer as memref<*xi8>). */
static MlirValue asMemRef(StrataBuilder *b, MlirLocation loc, MlirValue t) {
  MlirValue m = strataTensorToUnrankedMemRef(b, loc, t);
  MlirType e = mlirShapedTypeGetElementType(mlirValueGetType(t));
  if (!mlirTypeIsAInteger(e) || mlirIntegerTypeIsSignless(e)) return m;
  MlirType s = mlirUnrankedMemRefTypeGet(mlirIntegerTypeGet(b->ctx, mlirIntegerTypeGetWidth(e)),
                                         mlirAttributeGetNull());
  return strataResult(strataCreateOp(b, "builtin.unrealized_conversion_cast", loc, .operands = STRATA_VALUES(m),
                                     .results = STRATA_TYPES(s)),
                      0);
}

typedef StrataNnToKernelsQRun QRun;

MlirOperation strataNnQLinearReluAfter(MlirOperation op) {
  MlirValue y = mlirOperationGetResult(op, 0);
  MlirOpOperand use = mlirValueGetFirstUse(y);
  if (mlirOpOperandIsNull(use) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)))
    return (MlirOperation){NULL};
  MlirOperation u = mlirOpOperandGetOwner(use);
  if (!strataOpIsNamed(u, "nn.max") || mlirOperationGetNumOperands(u) != 2 ||
      !mlirValueEqual(mlirOperationGetOperand(u, 0), y) ||
      !mlirValueEqual(mlirOperationGetOperand(u, 1), mlirOperationGetOperand(op, 7)) ||
      !mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(u, 0)), mlirValueGetType(y)))
    return (MlirOperation){NULL};
  return u;
}

/* The integer nn.clip that is v's only user (its type v's), with bounds
 * integers or infinities: the kernel's clamp flags (STRATA_RT_Q_CLAMP and
 * the bounds clamped into the 8-bit range: the clip of an integer in that
 * range by such bounds equals min(max(q, lo'), hi') with lo', hi' the
 * saturated bounds, saturation commuting with min and max); 0 if not. */
static int64_t clampAfter(MlirValue v, MlirOperation *clip) {
  MlirOpOperand use = mlirValueGetFirstUse(v);
  if (mlirOpOperandIsNull(use) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use))) return 0;
  MlirOperation u = mlirOpOperandGetOwner(use);
  double b[2];
  if (!strataOpIsNamed(u, "nn.clip") || mlirOperationGetNumOperands(u) != 1 ||
      !mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(u, 0)), mlirValueGetType(v)) ||
      !nnAttrFloat(u, "min", -INFINITY, &b[0]) || !nnAttrFloat(u, "max", INFINITY, &b[1]))
    return 0;
  bool u8 = isUnsignedTensor(v);
  double lo = u8 ? 0 : -128, hi = u8 ? 255 : 127;
  int64_t f = STRATA_RT_Q_CLAMP;
  for (int i = 0; i < 2; i++) {
    if (isnan(b[i]) || (isfinite(b[i]) && b[i] != nearbyint(b[i]))) return 0;
    int64_t q = (int64_t)fmin(fmax(b[i], lo), hi);
    f |= (int64_t)(uint8_t)q << (i ? STRATA_RT_Q_CLAMP_HI_SHIFT : STRATA_RT_Q_CLAMP_LO_SHIFT);
  }
  *clip = u;
  return f;
}

/* The call: tensor operands (memrefs, the output's slot at `outSlot`),
 * then i64 scalars; replaces `last`'s result (and op's, when they differ). */
static void emitQCall(StrataRewrite *rw, MlirOperation op, MlirOperation last, const char *fn,
                      const MlirValue *tensors, int nt, int outSlot, const int64_t *scalars, int ns, QRun *run) {
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder b = strataBuilderBefore(last, rw->rewriter);
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  intptr_t rank = mlirShapedTypeGetRank(rt);
  int64_t shape[STRATA_MAX_RANK];
  for (intptr_t i = 0; i < rank; i++) shape[i] = mlirShapedTypeGetDimSize(rt, i);
  MlirType mt = mlirMemRefTypeGet(mlirShapedTypeGetElementType(rt), rank, shape, mlirAttributeGetNull(),
                                  mlirAttributeGetNull());
  int32_t segments[2] = {0, 0};
  MlirValue out = strataResult(
      strataCreateOp(&b, "memref.alloc", loc, .results = STRATA_TYPES(mt),
                     .attrs = STRATA_ATTRS({"alignment", strataI64Attr(b.ctx, 64)},
                                           {"operandSegmentSizes", mlirDenseI32ArrayGet(b.ctx, 2, segments)})),
      0);
  MlirValue args[40];
  int n = 0;
  for (int i = 0; i <= nt; i++) {
    if (i == outSlot) {
      MlirType e = mlirShapedTypeGetElementType(rt);
      MlirValue o = strataResult(strataCreateOp(&b, "memref.cast", loc, .operands = STRATA_VALUES(out),
                                                .results = STRATA_TYPES(mlirUnrankedMemRefTypeGet(e, mlirAttributeGetNull()))),
                                 0);
      if (!mlirIntegerTypeIsSignless(e)) /* ui8 as memref<*xi8> */
        o = strataResult(strataCreateOp(&b, "builtin.unrealized_conversion_cast", loc, .operands = STRATA_VALUES(o),
                                        .results = STRATA_TYPES(mlirUnrankedMemRefTypeGet(
                                            mlirIntegerTypeGet(b.ctx, 8), mlirAttributeGetNull()))),
                         0);
      args[n++] = o;
    }
    if (i < nt) args[n++] = asMemRef(&b, loc, tensors[i]);
  }
  for (int i = 0; i < ns; i++)
    args[n++] = strataConstInt(&b, loc, mlirIntegerTypeGet(b.ctx, 64), scalars[i]);
  strataDeclareRuntimeFunc(run->module, fn);
  strataCreateOp(&b, "func.call", loc, .operands = {args, n},
                 .attrs = STRATA_ATTRS({"callee", mlirFlatSymbolRefAttrGet(b.ctx, mlirStringRefCreateFromCString(fn))}));
  MlirValue result = strataResult(
      strataCreateOp(&b, "bufferization.to_tensor", loc, .operands = STRATA_VALUES(out), .results = STRATA_TYPES(rt),
                     .attrs = STRATA_ATTRS({"restrict", mlirUnitAttrGet(b.ctx)}, {"writable", mlirUnitAttrGet(b.ctx)})),
      0);
  strataReplaceOp(rw, last, STRATA_VALUES(result));
  if (!mlirOperationEqual(last, op)) strataReplaceOp(rw, op, STRATA_VALUES(result));
}

/* Flags of the two 8-bit operands (a/x at index ia, b/w at ib) and the
 * result. */
static int64_t signFlags(MlirOperation op, int ia, int ib) {
  int64_t f = 0;
  if (isUnsignedTensor(mlirOperationGetOperand(op, ia))) f |= STRATA_RT_Q_A_UNSIGNED;
  if (isUnsignedTensor(mlirOperationGetOperand(op, ib))) f |= STRATA_RT_Q_B_UNSIGNED;
  if (isUnsignedTensor(mlirOperationGetResult(op, 0))) f |= STRATA_RT_Q_Y_UNSIGNED;
  if (strataNnToKernelsIsConstant(mlirOperationGetOperand(op, ia))) f |= STRATA_RT_Q_CONST_A;
  if (strataNnToKernelsIsConstant(mlirOperationGetOperand(op, ib))) f |= STRATA_RT_Q_CONST_B;
  return f;
}

static bool allStatic(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (!mlirShapedTypeHasStaticShape(mlirValueGetType(mlirOperationGetOperand(op, i)))) return false;
  return staticNonEmpty(mlirOperationGetResult(op, 0));
}

static bool matmulShapes(MlirOperation op, int ia, int ib) {
  MlirType at = mlirValueGetType(mlirOperationGetOperand(op, ia)), bt = mlirValueGetType(mlirOperationGetOperand(op, ib));
  return allStatic(op) && staticNonEmpty(mlirOperationGetOperand(op, ia)) &&
         staticNonEmpty(mlirOperationGetOperand(op, ib)) && mlirShapedTypeGetRank(at) >= 2 && mlirShapedTypeGetRank(bt) == 2;
}

/* The conv's window as i64 scalars (strides, leading pads, dilations,
 * group), false if not a 2-D conv the kernel takes. */
static bool convScalars(MlirOperation op, int ix, int iw, int64_t *s) {
  MlirType xt = mlirValueGetType(mlirOperationGetOperand(op, ix)), wt = mlirValueGetType(mlirOperationGetOperand(op, iw));
  if (!allStatic(op) || !staticNonEmpty(mlirOperationGetOperand(op, ix)) ||
      !staticNonEmpty(mlirOperationGetOperand(op, iw)) || mlirShapedTypeGetRank(xt) != 4 || mlirShapedTypeGetRank(wt) != 4)
    return false;
  int64_t kernel[2] = {mlirShapedTypeGetDimSize(wt, 2), mlirShapedTypeGetDimSize(wt, 3)};
  int64_t in[2] = {mlirShapedTypeGetDimSize(xt, 2), mlirShapedTypeGetDimSize(xt, 3)}, out[2];
  NnWindow win;
  const char *why;
  if (!nn_get_window(op, 2, kernel, &win) || !nn_infer_window_output(&win, in, out, &why)) return false;
  int64_t v[7] = {win.strides[0], win.strides[1], win.pads[0], win.pads[1], win.dilations[0], win.dilations[1],
                  win.group};
  for (int i = 0; i < 7; i++) s[i] = v[i];
  return true;
}

/* Absent optional operands alias operand `other` (flags say which are
 * present). */
static MlirValue operandOr(MlirOperation op, int group, MlirValue other, int64_t *flags, int64_t bit) {
  int i = nnQuantOptionalOperand(op, group);
  if (i < 0) return other;
  *flags |= bit;
  return mlirOperationGetOperand(op, i);
}

/* nn.matmul_integer / nn.conv_integer: a, b, a_zero_point?, b_zero_point?. */
static MlirLogicalResult rewriteInteger(StrataRewrite *rw, MlirOperation op, void *u) {
  bool conv = strataOpIsNamed(op, "nn.conv_integer");
  int64_t s[8];
  if (conv ? !convScalars(op, 0, 1, s) : !matmulShapes(op, 0, 1)) return mlirLogicalResultFailure();
  int64_t flags = signFlags(op, 0, 1);
  MlirValue a = mlirOperationGetOperand(op, 0), b = mlirOperationGetOperand(op, 1);
  MlirValue t[4] = {a, b, operandOr(op, 2, a, &flags, STRATA_RT_Q_HAS_AZP), operandOr(op, 3, a, &flags, STRATA_RT_Q_HAS_BZP)};
  s[conv ? 7 : 0] = flags;
  emitQCall(rw, op, op, conv ? "strata_rt_qconv2d_i32" : "strata_rt_qmatmul_i32", t, 4, 2, s, conv ? 8 : 1, u);
  return mlirLogicalResultSuccess();
}

/* nn.qlinear_matmul / nn.qlinear_conv: a, a_scale, a_zp, b, b_scale, b_zp,
 * y_scale, y_zp, bias?. */
static MlirLogicalResult rewriteQLinear(StrataRewrite *rw, MlirOperation op, void *u) {
  QRun *run = u;
  bool conv = strataOpIsNamed(op, "nn.qlinear_conv");
  int64_t s[8];
  if (conv ? !convScalars(op, 0, 3, s) : !matmulShapes(op, 0, 3)) return mlirLogicalResultFailure();
  int64_t flags = signFlags(op, 0, 3);
  MlirOperation relu = run->epilogues ? strataNnQLinearReluAfter(op) : (MlirOperation){NULL}, last = op;
  if (!mlirOperationIsNull(relu)) flags |= STRATA_RT_Q_RELU, last = relu;
  MlirOperation clip;
  int64_t clamp = run->epilogues ? clampAfter(mlirOperationGetResult(last, 0), &clip) : 0;
  if (clamp) flags |= clamp, last = clip;
  MlirValue t[9];
  for (int i = 0; i < 8; i++) t[i] = mlirOperationGetOperand(op, i);
  int bias = nnQuantOptionalOperand(op, 8);
  if (bias >= 0) {
    t[8] = mlirOperationGetOperand(op, bias);
    flags |= STRATA_RT_Q_HAS_BIAS;
  } else { /* the i32 slot needs a buffer: one zero, unread */
    StrataBuilder b = strataBuilderBefore(last, rw->rewriter);
    MlirType i32 = mlirIntegerTypeGet(b.ctx, 32);
    MlirType bt = mlirRankedTensorTypeGet(1, (int64_t[]){1}, i32, mlirAttributeGetNull());
    t[8] = strataResult(strataCreateOp(&b, "arith.constant", mlirOperationGetLocation(op), .results = STRATA_TYPES(bt),
                                       .attrs = STRATA_ATTRS({"value", mlirDenseElementsAttrInt32SplatGet(bt, 0)})),
                        0);
  }
  s[conv ? 7 : 0] = flags;
  emitQCall(rw, op, last, conv ? "strata_rt_qconv2d_q8" : "strata_rt_qmatmul_q8", t, 9, 9, s, conv ? 8 : 1, run);
  if (clamp && !mlirOperationIsNull(relu)) strataEraseOp(rw, relu); /* between the two: now unused */
  return mlirLogicalResultSuccess();
}

/* The i32 value of v, an nn.constant of one element. */
static bool constI32(MlirValue v, int64_t want) {
  MlirOperation c = mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
  if (mlirOperationIsNull(c) || !strataOpIsNamed(c, "nn.constant") || nnNumElements(mlirValueGetType(v)) != 1)
    return false;
  MlirAttribute a = strataOpAttr(c, "value");
  return mlirAttributeIsADenseElements(a) && mlirShapedTypeGetElementType(mlirValueGetType(v)).ptr &&
         mlirTypeIsAInteger(mlirShapedTypeGetElementType(mlirValueGetType(v))) &&
         mlirIntegerTypeGetWidth(mlirShapedTypeGetElementType(mlirValueGetType(v))) == 32 &&
         mlirDenseElementsAttrGetInt32Value(a, 0) == want;
}

/* v = op(x, y) with y the one-element i32 constant `want` (want < 0: any
 * y, returned in *other); its x in *x. v must have no other user. */
static bool binaryOf(MlirValue v, const char *op, int64_t want, MlirValue *x, MlirValue *other, MlirOperation *def) {
  *def = mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
  MlirOpOperand use = mlirValueGetFirstUse(v);
  if (mlirOperationIsNull(*def) || !strataOpIsNamed(*def, op) || mlirOperationGetNumOperands(*def) != 2 ||
      mlirOpOperandIsNull(use) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)))
    return false;
  *x = mlirOperationGetOperand(*def, 0);
  if (want < 0) {
    *other = mlirOperationGetOperand(*def, 1);
    return true;
  }
  return constI32(mlirOperationGetOperand(*def, 1), want);
}

/* x = nn.cast(q) of an 8-bit q of type like y's (static, same shape). */
static bool castFrom(MlirValue x, MlirType yt, MlirValue *q) {
  MlirOperation c = mlirValueIsAOpResult(x) ? mlirOpResultGetOwner(x) : (MlirOperation){NULL};
  if (mlirOperationIsNull(c) || !strataOpIsNamed(c, "nn.cast")) return false;
  *q = mlirOperationGetOperand(c, 0);
  MlirType t = mlirValueGetType(*q);
  MlirType e = mlirShapedTypeGetElementType(t);
  if (!mlirTypeIsARankedTensor(t) || !mlirTypeIsAInteger(e) || mlirIntegerTypeGetWidth(e) != 8 ||
      mlirShapedTypeGetRank(t) != mlirShapedTypeGetRank(yt))
    return false;
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); i++)
    if (mlirShapedTypeGetDimSize(t, i) != mlirShapedTypeGetDimSize(yt, i)) return false;
  return true;
}

/* nn.gather(table, ((cast(a) * 256 + cast(b)) [+ off])) with a constant
 * 8-bit table of 65540 entries, a, b and the result of one static shape
 * (nn-qdq-to-qlinear's residual Add, transforms/quant/qdq_add.c): one
 * strata_rt_qlookup2_q8 call; off = 32768 * (a is i8) + 128 * (b is i8). */
static MlirLogicalResult rewriteLookup(StrataRewrite *rw, MlirOperation op, void *u) {
  MlirValue table = mlirOperationGetOperand(op, 0), idx = mlirOperationGetOperand(op, 1), x, ib, ia, a, bq;
  MlirType yt = mlirValueGetType(mlirOperationGetResult(op, 0)), tt = mlirValueGetType(table);
  int64_t axis;
  MlirOperation dOff = {NULL}, dAdd, dMul;
  if (mlirOperationGetNumOperands(op) != 2 || !allStatic(op) || !nnAttrInt(op, "axis", 0, &axis) || axis != 0 ||
      !strataNnToKernelsIsConstant(table) || mlirShapedTypeGetRank(tt) != 1 ||
      mlirShapedTypeGetDimSize(tt, 0) != 65540 || !mlirTypeEqual(mlirShapedTypeGetElementType(tt),
                                                                  mlirShapedTypeGetElementType(yt)))
    return mlirLogicalResultFailure();
  MlirValue sum = idx, offv;
  if (binaryOf(idx, "nn.add", -1, &x, &offv, &dOff) && !binaryOf(x, "nn.mul", 256, &ia, &ia, &dMul)) {
    sum = x; /* (a * 256 + b) + off */
  } else {
    dOff = (MlirOperation){NULL};
  }
  if (!binaryOf(sum, "nn.add", -1, &x, &ib, &dAdd) || !binaryOf(x, "nn.mul", 256, &ia, &ia, &dMul) ||
      !castFrom(ia, yt, &a) || !castFrom(ib, yt, &bq))
    return mlirLogicalResultFailure();
  int64_t flags = (isUnsignedTensor(a) ? 0 : 1) | (isUnsignedTensor(bq) ? 0 : 2);
  int64_t off = (flags & 1 ? 32768 : 0) + (flags & 2 ? 128 : 0);
  if (mlirOperationIsNull(dOff) ? off != 0 : !constI32(offv, off)) return mlirLogicalResultFailure();
  MlirValue t[3] = {a, bq, table};
  emitQCall(rw, op, op, "strata_rt_qlookup2_q8", t, 3, 3, &flags, 1, u);
  MlirOperation dead[5] = {dOff, dAdd, dMul, mlirOpResultGetOwner(ib), mlirOpResultGetOwner(ia)};
  for (int i = 0; i < 5; i++)
    if (!mlirOperationIsNull(dead[i]) && mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(dead[i], 0))))
      strataEraseOp(rw, dead[i]);
  return mlirLogicalResultSuccess();
}

void strataNnToKernelsAddQuantized(StrataPatternSet *set, StrataNnToKernelsQRun *run) {
  strataPatternSetAdd(set, "nn.gather", 1, rewriteLookup, run);
  strataPatternSetAdd(set, "nn.matmul_integer", 1, rewriteInteger, run);
  strataPatternSetAdd(set, "nn.conv_integer", 1, rewriteInteger, run);
  strataPatternSetAdd(set, "nn.qlinear_matmul", 1, rewriteQLinear, run);
  strataPatternSetAdd(set, "nn.qlinear_conv", 1, rewriteQLinear, run);
}
