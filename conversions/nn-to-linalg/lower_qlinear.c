/* The quantized ops (dialects/nn/ops_qlinear.c) -> linalg, exactly as
 * their interpreter kernels compute:
 *   - each int8/uint8 operand minus its zero point, widened to i32 (one
 *     elementwise generic; the parameter broadcast per tensor, row, column
 *     or channel);
 *   - the MatMul or Conv generic of nn.matmul / nn.conv on those i32
 *     tensors (i32 products and sums, wrapping; a conv's zero padding is
 *     the zero point's value after the shift), QLinearConv's bias as the
 *     initial accumulator;
 *   - QLinear*: one requantizing generic (m = a_scale * b_scale / y_scale
 *     in f32, acc * m in f64, round half to even, + zero point, saturate).
 * DynamicQuantizeLinear: one reduction (min and max with 0), one rank-0
 * generic (scale and zero point), one elementwise quantization, in f32. */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinTypes.h"
#include "nn_quant.h"
#include "lower_internal.h"

/* ---- Quantization parameters ---- */

/* Parameter p (kind, over a tensor of type `over`) reshaped to the shape it
 * broadcasts from, and its map into a loop nest of type `out` in map. */
static MlirValue paramOperand(StrataBuilder *b, MlirLocation loc, MlirValue p, NnQuantParamKind kind,
                              MlirType over, MlirType out, char *map, size_t size) {
  int prank = lowerRank(p), trank = (int)mlirShapedTypeGetRank(over), rank;
  int64_t pdims[STRATA_MAX_RANK], tdims[STRATA_MAX_RANK], dims[STRATA_MAX_RANK];
  for (int i = 0; i < prank; i++) pdims[i] = lowerDim(p, i);
  for (int i = 0; i < trank; i++) tdims[i] = mlirShapedTypeGetDimSize(over, i);
  nnQuantParamShape(kind, prank, pdims, trank, tdims, &rank, dims);
  /* One value ([1] or a scalar) and 1-D columns broadcast as they are. */
  bool reshape = rank > 0 && rank != prank;
  if (reshape) p = linalgReshape(b, loc, p, strataTensorType(lowerElementType(p), rank, dims));
  lowerBroadcastMap(map, size, p, out);
  return p;
}

/* Widens a signless integer scalar of element type `of` (ui8 zero-extends). */
static MlirValue widen(StrataBuilder *b, MlirLocation loc, MlirValue v, MlirType of, MlirType to) {
  return emitConvert(b, loc, lowerIsUnsigned(of) ? "arith.extui" : "arith.extsi", v, to);
}

static MlirValue widenToFloat(StrataBuilder *b, MlirLocation loc, MlirValue v, MlirType of, MlirType to) {
  return emitConvert(b, loc, lowerIsUnsigned(of) ? "arith.uitofp" : "arith.sitofp", v, to);
}

typedef struct {
  MlirType elem, i32;
  bool hasZp;
} Shift;

static MlirValue bodyShift(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const Shift *s = u;
  MlirValue v = widen(b, loc, a[0], s->elem, s->i32);
  return s->hasZp ? emitBinary(b, loc, "arith.subi", v, widen(b, loc, a[1], s->elem, s->i32)) : v;
}

/* x - zp (zp null: x) as an i32 tensor. */
static MlirValue shiftToI32(StrataBuilder *b, MlirLocation loc, MlirValue x, MlirValue zp, NnQuantParamKind kind) {
  int rank = lowerRank(x);
  int64_t dims[STRATA_MAX_RANK];
  for (int i = 0; i < rank; i++) dims[i] = lowerDim(x, i);
  Shift s = {lowerElementType(x), mlirIntegerTypeGet(b->ctx, 32), !mlirValueIsNull(zp)};
  MlirType t = strataTensorType(s.i32, rank, dims), xt = mlirValueGetType(x);
  char id[256], zmap[256], its[STRATA_MAX_RANK + 1];
  lowerIdentityMap(id, sizeof id, rank);
  lowerParallelIterators(its, rank);
  MlirValue init = linalgSplatConstant(b, loc, t, 0);
  if (!s.hasZp) {
    const char *maps[] = {id, id};
    return linalgBuildGeneric(b, loc, STRATA_VALUES(x), init, maps, its, bodyShift, &s);
  }
  zp = paramOperand(b, loc, zp, kind, xt, xt, zmap, sizeof zmap);
  const char *maps[] = {id, zmap, id};
  return linalgBuildGeneric(b, loc, STRATA_VALUES(x, zp), init, maps, its, bodyShift, &s);
}

/* The i32 accumulator of op: operand indices of the two tensors and their
 * zero points (-1: none); a convolution or a matmul; init: null for zeros. */
typedef struct {
  int xi, wi, zx, zw;
  NnQuantParamKind kx, kw;
  bool conv;
} IntegerPart;

static MlirValue integerSum(StrataBuilder *b, MlirLocation loc, MlirOperation op, const IntegerPart *p,
                            MlirValue init) {
  MlirValue none = {NULL};
  MlirValue x = shiftToI32(b, loc, lowerOperand(op, p->xi), p->zx >= 0 ? lowerOperand(op, p->zx) : none, p->kx);
  MlirValue w = shiftToI32(b, loc, lowerOperand(op, p->wi), p->zw >= 0 ? lowerOperand(op, p->zw) : none, p->kw);
  MlirType t = mlirValueGetType(init);
  return p->conv ? lowerConvValues(b, loc, op, x, w, init, true) : lowerMatmulValues(b, loc, x, w, t, init, true);
}

/* The result's shape with i32 elements, filled with zeros. */
static MlirValue zeroAccumulator(StrataBuilder *b, MlirLocation loc, MlirOperation op) {
  MlirType t = lowerResultType(op, 0);
  int rank = (int)mlirShapedTypeGetRank(t);
  int64_t dims[STRATA_MAX_RANK];
  for (int i = 0; i < rank; i++) dims[i] = mlirShapedTypeGetDimSize(t, i);
  return linalgSplatConstant(b, loc, strataTensorType(mlirIntegerTypeGet(b->ctx, 32), rank, dims), 0);
}

static MlirLogicalResult lowerInteger(StrataRewrite *rw, MlirOperation op, void *u) {
  bool conv = u != NULL;
  MlirLocation loc = mlirOperationGetLocation(op);
  IntegerPart p = {0, 1, nnQuantOptionalOperand(op, 2), nnQuantOptionalOperand(op, 3),
                   conv ? NN_QP_TENSOR : NN_QP_ROWS, conv ? NN_QP_CHANNELS : NN_QP_COLUMNS, conv};
  MlirValue y = integerSum(&rw->builder, loc, op, &p, zeroAccumulator(&rw->builder, loc, op));
  if (mlirValueIsNull(y)) return mlirLogicalResultFailure();
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

/* ---- Requantization ---- */

typedef struct {
  MlirType f32, f64, quant, zpType; /* quant: signless result element */
  double lo, hi;
} Requant;

/* args: acc, a_scale, b_scale, y_scale, y_zero_point, out. */
static MlirValue bodyRequant(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const Requant *r = u;
  MlirValue m = emitBinary(b, loc, "arith.divf", emitBinary(b, loc, "arith.mulf", a[1], a[2]), a[3]);
  MlirValue v = emitBinary(b, loc, "arith.mulf", emitConvert(b, loc, "arith.sitofp", a[0], r->f64),
                           emitConvert(b, loc, "arith.extf", m, r->f64));
  v = emitUnary(b, loc, "math.roundeven", v);
  v = emitBinary(b, loc, "arith.addf", v, widenToFloat(b, loc, a[4], r->zpType, r->f64));
  v = emitBinary(b, loc, "arith.minimumf", emitBinary(b, loc, "arith.maximumf", v, emitConst(b, loc, r->f64, r->lo)),
                 emitConst(b, loc, r->f64, r->hi));
  v = emitSelect(b, loc, emitCmpF(b, loc, CMPF_UNO, v, v), emitConst(b, loc, r->f64, 0), v);
  return emitConvert(b, loc, lowerIsUnsigned(r->zpType) ? "arith.fptoui" : "arith.fptosi", v, r->quant);
}

/* Operands: QLinearMatMul a, a_scale, a_zp, b, b_scale, b_zp, y_scale,
 * y_zp, bias?; QLinearConv x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, b?. */
static MlirLogicalResult lowerQLinear(StrataRewrite *rw, MlirOperation op, void *u) {
  bool conv = u != NULL;
  StrataBuilder *b = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirType t = lowerResultType(op, 0);
  int rank = (int)mlirShapedTypeGetRank(t);
  MlirValue init = zeroAccumulator(b, loc, op);
  int bias = nnQuantOptionalOperand(op, 8);
  if (bias >= 0) {
    /* The i32 bias (one value per output channel or column) starts the sum. */
    char id[256], bm[256], its[STRATA_MAX_RANK + 1];
    lowerIdentityMap(id, sizeof id, rank);
    lowerParallelIterators(its, rank);
    MlirType it = mlirValueGetType(init);
    MlirValue bv = paramOperand(b, loc, lowerOperand(op, bias), conv ? NN_QP_OUT_CHANNELS : NN_QP_COLUMNS, it, it,
                                bm, sizeof bm);
    const char *maps[] = {bm, id};
    init = linalgBuildGeneric(b, loc, STRATA_VALUES(bv), init, maps, its, bodyYieldInput, NULL);
  }
  IntegerPart p = {0, 3, 2, 5, conv ? NN_QP_TENSOR : NN_QP_ROWS, conv ? NN_QP_CHANNELS : NN_QP_COLUMNS, conv};
  MlirValue acc = integerSum(b, loc, op, &p, init);
  if (mlirValueIsNull(acc)) return mlirLogicalResultFailure();
  MlirType at = mlirValueGetType(lowerOperand(op, 0)), bt = mlirValueGetType(lowerOperand(op, 3));
  char ma[256], mb[256], my[256], mz[256], id[256], its[STRATA_MAX_RANK + 1];
  MlirValue sa = paramOperand(b, loc, lowerOperand(op, 1), p.kx, at, t, ma, sizeof ma);
  /* A conv's w_scale spreads over the result's channels (dim 1). */
  MlirValue sb = conv ? paramOperand(b, loc, lowerOperand(op, 4), NN_QP_OUT_CHANNELS, t, t, mb, sizeof mb)
                      : paramOperand(b, loc, lowerOperand(op, 4), p.kw, bt, t, mb, sizeof mb);
  MlirValue sy = paramOperand(b, loc, lowerOperand(op, 6), p.kx, t, t, my, sizeof my);
  MlirValue zy = paramOperand(b, loc, lowerOperand(op, 7), p.kx, t, t, mz, sizeof mz);
  lowerIdentityMap(id, sizeof id, rank);
  lowerParallelIterators(its, rank);
  MlirType q = mlirShapedTypeGetElementType(t);
  Requant r = {mlirF32TypeGet(b->ctx), mlirF64TypeGet(b->ctx), lowerSignless(q), q, 0, 0};
  r.lo = lowerIsUnsigned(q) ? 0 : -128;
  r.hi = lowerIsUnsigned(q) ? 255 : 127;
  const char *maps[] = {id, ma, mb, my, mz, id};
  MlirValue y = linalgBuildGeneric(b, loc, STRATA_VALUES(acc, sa, sb, sy, zy), linalgSplatConstant(b, loc, t, 0),
                                   maps, its, bodyRequant, &r);
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

/* ---- DynamicQuantizeLinear ---- */

static void bodyMinMax(StrataBuilder *b, MlirLocation loc, const MlirValue *a, MlirValue *y, void *u) {
  (void)u;
  y[0] = emitBinary(b, loc, "arith.minimumf", a[1], a[0]);
  y[1] = emitBinary(b, loc, "arith.maximumf", a[2], a[0]);
}

/* f32 v rounded half to even, saturated to [0, 255], NaN to 0, as ui8. */
static MlirValue saturateU8(StrataBuilder *b, MlirLocation loc, MlirValue v) {
  MlirType f = mlirValueGetType(v);
  v = emitBinary(b, loc, "arith.minimumf", emitBinary(b, loc, "arith.maximumf", v, emitConst(b, loc, f, 0)),
                 emitConst(b, loc, f, 255));
  v = emitSelect(b, loc, emitCmpF(b, loc, CMPF_UNO, v, v), emitConst(b, loc, f, 0), v);
  return emitConvert(b, loc, "arith.fptoui", v, mlirIntegerTypeGet(b->ctx, 8));
}

/* args: lo, hi -> scale = (hi - lo) / 255, zp = saturate(round(-lo / scale)). */
static void bodyScaleZp(StrataBuilder *b, MlirLocation loc, const MlirValue *a, MlirValue *y, void *u) {
  (void)u;
  MlirType f = mlirValueGetType(a[0]);
  y[0] = emitBinary(b, loc, "arith.divf", emitBinary(b, loc, "arith.subf", a[1], a[0]), emitConst(b, loc, f, 255));
  MlirValue z = emitBinary(b, loc, "arith.divf", emitBinary(b, loc, "arith.subf", emitConst(b, loc, f, 0), a[0]), y[0]);
  y[1] = saturateU8(b, loc, emitUnary(b, loc, "math.roundeven", z));
}

/* args: x, scale, zp -> saturate(round(x / scale) + zp). */
static MlirValue bodyDynQuant(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  (void)u;
  MlirType f = mlirValueGetType(a[0]);
  MlirValue v = emitUnary(b, loc, "math.roundeven", emitBinary(b, loc, "arith.divf", a[0], a[1]));
  v = emitBinary(b, loc, "arith.addf", v, emitConvert(b, loc, "arith.uitofp", a[2], f));
  return saturateU8(b, loc, v);
}

static MlirLogicalResult lowerDynamicQuantize(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  StrataBuilder *b = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue x = lowerOperand(op, 0);
  int rank = lowerRank(x);
  MlirType st = lowerResultType(op, 1), zt = lowerResultType(op, 2);
  char id[256], its[STRATA_MAX_RANK + 1], pits[STRATA_MAX_RANK + 1];
  lowerIdentityMap(id, sizeof id, rank);
  lowerParallelIterators(pits, rank);
  for (int i = 0; i < rank; i++) its[i] = 'r';
  its[rank] = '\0';
  /* Both bounds start at 0: ONNX's range always includes zero. */
  MlirValue lohi[2], sz[2];
  const char *rmaps[] = {id, "()", "()"};
  linalgBuildGenericN(b, loc, STRATA_VALUES(x),
                      STRATA_VALUES(linalgSplatConstant(b, loc, st, 0), linalgSplatConstant(b, loc, st, 0)), rmaps,
                      its, bodyMinMax, NULL, lohi);
  const char *smaps[] = {"()", "()", "()", "()"};
  linalgBuildGenericN(b, loc, STRATA_VALUES(lohi[0], lohi[1]),
                      STRATA_VALUES(linalgSplatConstant(b, loc, st, 0), linalgSplatConstant(b, loc, zt, 0)), smaps,
                      "", bodyScaleZp, NULL, sz);
  const char *qmaps[] = {id, "()", "()", id};
  MlirValue y = linalgBuildGeneric(b, loc, STRATA_VALUES(x, sz[0], sz[1]),
                                   linalgSplatConstant(b, loc, lowerResultType(op, 0), 0), qmaps, pits, bodyDynQuant,
                                   NULL);
  strataReplaceOp(rw, op, STRATA_VALUES(y, sz[0], sz[1]));
  return mlirLogicalResultSuccess();
}

void nnToLinalgQLinear(LowerRegistry *r) {
  static const int kConv = 1;
  lowerRegister(r, "nn.matmul_integer", lowerInteger, NULL);
  lowerRegister(r, "nn.conv_integer", lowerInteger, (void *)&kConv);
  lowerRegister(r, "nn.qlinear_matmul", lowerQLinear, NULL);
  lowerRegister(r, "nn.qlinear_conv", lowerQLinear, (void *)&kConv);
  lowerRegister(r, "nn.dynamic_quantize_linear", lowerDynamicQuantize, NULL);
}
