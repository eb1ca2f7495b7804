/* --dsp-lower-operators, the ops of --nn-to-dsp's quantized layers:
 * dsp.flip_sign, dsp.im2col, dsp.qrequant and dsp.qsum as linalg.generic
 * nests of integer arith (then loops, on the CPU and on Hexagon alike).
 *
 *   flip_sign: y = x xor 0x80, element-wise.
 *   im2col:    y(row, col) = x(n, c, h, w) or the pad byte outside the
 *              image, (n, oh, ow) and (c, kh, kw) taken apart from the
 *              loop indices, h = oh*sh - top + kh*dh (w alike).
 *   qsum:      s = acc - zb'*rs - za'*cs + k*za'*zb', wrapping i32.
 *   qrequant:  s (+ bias), then round_half_even(s * m) with m =
 *              a_scale*b_scale/y_scale in f32 and the product in f64, as
 *              the interpreter (and ONNX's reference) computes it, but in
 *              integers, which Hexagon runs without an f64 unit or libm:
 *              m = mant * 2^e (its bits), |s| * mant < 2^55 exactly in
 *              i64; the f64 product is that rounded half to even to 53
 *              significant bits (a shift of 0, 1 or 2), and rounding it to
 *              an integer is a rounding right shift (or a left shift that
 *              saturates). Infinities and NaN of m (a zero y_scale) give
 *              what the f64 arithmetic gives: +-inf saturates, NaN is 0.
 *              Then + y_zero_point, saturation, relu. */
#include "dsp_lower.h"
#include "lower_helpers.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/pattern.h"
#include "strata/support.h"

typedef struct {
  StrataBuilder *b;
  MlirLocation loc;
  MlirType i64;
} Q;

static MlirValue c64(Q *q, double v) { return emitConst(q->b, q->loc, q->i64, v); }
static MlirValue op2(Q *q, const char *name, MlirValue x, MlirValue y) { return emitBinary(q->b, q->loc, name, x, y); }
static MlirValue cmp(Q *q, int pred, MlirValue x, MlirValue y) { return emitCmpI(q->b, q->loc, pred, x, y); }
static MlirValue sel(Q *q, MlirValue c, MlirValue x, MlirValue y) { return emitSelect(q->b, q->loc, c, x, y); }
static MlirValue cvt(Q *q, const char *name, MlirValue x, MlirType t) { return emitConvert(q->b, q->loc, name, x, t); }

/* The affine map text of a parameter operand (one value, or one per row
 * (d0) / column (d1) of the M x N result). */
static const char *paramMap(MlirValue p, bool rows) {
  MlirType t = mlirValueGetType(p);
  if (mlirShapedTypeGetRank(t) == 0) return "()";
  if (mlirShapedTypeGetDimSize(t, 0) == 1) return "(0)";
  return rows ? "(d0)" : "(d1)";
}

static bool elemUnsigned(MlirValue v) {
  return lowerIsUnsigned(mlirShapedTypeGetElementType(mlirValueGetType(v)));
}

/* ---- dsp.flip_sign ---- */

static MlirValue bodyFlip(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  (void)u;
  return emitBinary(b, loc, "arith.xori", a[0], emitConst(b, loc, mlirValueGetType(a[0]), -128));
}

static MlirLogicalResult lowerFlip(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirType t = lowerResultType(op, 0);
  int rank = (int)mlirShapedTypeGetRank(t);
  char id[256], its[STRATA_MAX_RANK + 1];
  lowerIdentityMap(id, sizeof id, rank);
  lowerParallelIterators(its, rank);
  const char *maps[] = {id, id};
  MlirValue y = linalgBuildGeneric(&rw->builder, loc, STRATA_VALUES(lowerOperand(op, 0)),
                                   linalgSplatConstant(&rw->builder, loc, t, 0), maps, its, bodyFlip, NULL);
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

/* ---- dsp.im2col ---- */

typedef struct {
  MlirValue x;
  int64_t C, H, W, OH, OW, k[2], s[2], d[2], p[4];
  bool padSigned; /* an i8 zero point: the flipped input holds it + 128 */
} Im2col;

static MlirValue idx(StrataBuilder *b, MlirLocation loc, int64_t v) { return lowerIndexConst(b, loc, v); }

/* x(n, c, oh*s - p + k*d, ...) if inside the image, else the pad byte. */
static MlirValue bodyIm2col(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const Im2col *g = u;
  MlirValue row = linalgIndex(b, loc, 0), col = linalgIndex(b, loc, 1);
  MlirValue ow = emitBinary(b, loc, "arith.remui", row, idx(b, loc, g->OW));
  MlirValue t = emitBinary(b, loc, "arith.divui", row, idx(b, loc, g->OW));
  MlirValue oh = emitBinary(b, loc, "arith.remui", t, idx(b, loc, g->OH));
  MlirValue n = emitBinary(b, loc, "arith.divui", t, idx(b, loc, g->OH));
  MlirValue kw = emitBinary(b, loc, "arith.remui", col, idx(b, loc, g->k[1]));
  t = emitBinary(b, loc, "arith.divui", col, idx(b, loc, g->k[1]));
  MlirValue kh = emitBinary(b, loc, "arith.remui", t, idx(b, loc, g->k[0]));
  MlirValue c = emitBinary(b, loc, "arith.divui", t, idx(b, loc, g->k[0]));
  MlirValue pos[2], in = {NULL};
  MlirValue o[2] = {oh, ow}, k[2] = {kh, kw};
  int64_t ext[2] = {g->H, g->W};
  for (int i = 0; i < 2; i++) {
    MlirValue v = emitBinary(b, loc, "arith.muli", o[i], idx(b, loc, g->s[i]));
    v = emitBinary(b, loc, "arith.addi", v, emitBinary(b, loc, "arith.muli", k[i], idx(b, loc, g->d[i])));
    v = emitBinary(b, loc, "arith.subi", v, idx(b, loc, g->p[i]));
    MlirValue ok = emitBinary(b, loc, "arith.andi", emitCmpI(b, loc, CMPI_SGE, v, idx(b, loc, 0)),
                              emitCmpI(b, loc, CMPI_SLT, v, idx(b, loc, ext[i])));
    in = mlirValueIsNull(in) ? ok : emitBinary(b, loc, "arith.andi", in, ok);
    pos[i] = v;
  }
  MlirValue at[4] = {n, c, emitSelect(b, loc, in, pos[0], idx(b, loc, 0)), emitSelect(b, loc, in, pos[1], idx(b, loc, 0))};
  MlirType i8 = mlirIntegerTypeGet(b->ctx, 8);
  MlirValue v = linalgExtract(b, loc, g->x, at, 4);
  v = strataResult(strataCreateOp(b, "builtin.unrealized_conversion_cast", loc, .operands = STRATA_VALUES(v),
                                  .results = STRATA_TYPES(i8)),
                   0);
  MlirValue pad = g->padSigned ? emitBinary(b, loc, "arith.xori", a[0], emitConst(b, loc, i8, -128)) : a[0];
  return emitSelect(b, loc, in, v, pad);
}

static MlirLogicalResult lowerIm2col(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue x = lowerOperand(op, 0), pad = lowerOperand(op, 1);
  MlirType t = lowerResultType(op, 0);
  Im2col g = {.x = x, .C = lowerDim(x, 1), .H = lowerDim(x, 2), .W = lowerDim(x, 3), .padSigned = !elemUnsigned(pad)};
  strataGetI64Array(op, "kernel_shape", g.k, 2);
  strataGetI64Array(op, "strides", g.s, 2);
  strataGetI64Array(op, "dilations", g.d, 2);
  strataGetI64Array(op, "pads", g.p, 4);
  g.OH = (g.H + g.p[0] + g.p[2] - g.d[0] * (g.k[0] - 1) - 1) / g.s[0] + 1;
  g.OW = (g.W + g.p[1] + g.p[3] - g.d[1] * (g.k[1] - 1) - 1) / g.s[1] + 1;
  const char *maps[] = {mlirShapedTypeGetRank(mlirValueGetType(pad)) ? "(0)" : "()", "(d0, d1)"};
  MlirValue y = linalgBuildGeneric(&rw->builder, loc, STRATA_VALUES(pad), linalgSplatConstant(&rw->builder, loc, t, 0),
                                   maps, "pp", bodyIm2col, &g);
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

/* ---- dsp.matmul's activations in the 4-column layout ---- */

typedef struct {
  MlirValue A;
  int64_t M, K;
} Pack;

static MlirValue bodyPack(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  (void)a;
  const Pack *k = u;
  MlirValue l = linalgIndex(b, loc, 2);
  MlirValue r = emitBinary(b, loc, "arith.addi", emitBinary(b, loc, "arith.muli", linalgIndex(b, loc, 0), idx(b, loc, 32)),
                           emitBinary(b, loc, "arith.divui", l, idx(b, loc, 4)));
  MlirValue c = emitBinary(b, loc, "arith.addi", emitBinary(b, loc, "arith.muli", linalgIndex(b, loc, 1), idx(b, loc, 4)),
                           emitBinary(b, loc, "arith.remui", l, idx(b, loc, 4)));
  MlirValue in = emitBinary(b, loc, "arith.andi", emitCmpI(b, loc, CMPI_ULT, r, idx(b, loc, k->M)),
                            emitCmpI(b, loc, CMPI_ULT, c, idx(b, loc, k->K)));
  MlirValue at[2] = {emitSelect(b, loc, in, r, idx(b, loc, 0)), emitSelect(b, loc, in, c, idx(b, loc, 0))};
  MlirType i8 = mlirIntegerTypeGet(b->ctx, 8);
  MlirValue v = strataResult(strataCreateOp(b, "builtin.unrealized_conversion_cast", loc,
                                            .operands = STRATA_VALUES(linalgExtract(b, loc, k->A, at, 2)),
                                            .results = STRATA_TYPES(i8)),
                             0);
  return emitSelect(b, loc, in, v, emitConst(b, loc, i8, 0));
}

MlirValue dspPackCol4(StrataBuilder *b, MlirLocation loc, MlirValue A, int64_t M, int64_t K) {
  Pack k = {A, M, K};
  int64_t d[3] = {(M + 31) / 32, (K + 3) / 4, 128};
  MlirType t = strataTensorType(mlirIntegerTypeGet(b->ctx, 8), 3, d);
  const char *maps[] = {"(d0, d1, d2)"};
  return linalgBuildGeneric(b, loc, (StrataValueList){NULL, 0}, linalgSplatConstant(b, loc, t, 0), maps, "ppp",
                            bodyPack, &k);
}

/* ---- dsp.qsum / dsp.qrequant ---- */

enum { Q_ACC, Q_RS, Q_CS, Q_AS, Q_AZ, Q_BS, Q_BZ, Q_YS, Q_YZ, Q_BIAS };

typedef struct {
  int64_t k;
  bool azUnsigned, bzUnsigned, yUnsigned, relu, bias, requant;
} QSpec;

/* Sum (a' - za')(b' - zb') = acc - zb' rs - za' cs + k za' zb' in wrapping
 * i32; za' = az (+128 if i8: a was flipped), zb' = bz (-128 if ui8). */
static MlirValue correctedSum(StrataBuilder *b, MlirLocation loc, const QSpec *s, MlirValue acc, MlirValue rs,
                              MlirValue cs, MlirValue az, MlirValue bz) {
  MlirType i32 = mlirIntegerTypeGet(b->ctx, 32);
  MlirValue za = emitConvert(b, loc, s->azUnsigned ? "arith.extui" : "arith.extsi", az, i32);
  MlirValue zb = emitConvert(b, loc, s->bzUnsigned ? "arith.extui" : "arith.extsi", bz, i32);
  if (!s->azUnsigned) za = emitBinary(b, loc, "arith.addi", za, emitConst(b, loc, i32, 128));
  if (s->bzUnsigned) zb = emitBinary(b, loc, "arith.subi", zb, emitConst(b, loc, i32, 128));
  MlirValue v = emitBinary(b, loc, "arith.subi", acc, emitBinary(b, loc, "arith.muli", zb, rs));
  v = emitBinary(b, loc, "arith.subi", v, emitBinary(b, loc, "arith.muli", za, cs));
  MlirValue kz = emitBinary(b, loc, "arith.muli", emitConst(b, loc, i32, (double)(int32_t)(uint32_t)s->k), za);
  return emitBinary(b, loc, "arith.addi", v, emitBinary(b, loc, "arith.muli", kz, zb));
}

/* p (0 <= p < 2^62) shifted right by r (0..60) rounding half to even. */
static MlirValue roundShift(Q *q, MlirValue p, MlirValue r) {
  MlirValue t = op2(q, "arith.shrui", p, r);
  MlirValue one = c64(q, 1), zero = c64(q, 0);
  MlirValue bit = op2(q, "arith.shli", one, r);
  MlirValue rem = op2(q, "arith.andi", p, op2(q, "arith.subi", bit, one));
  MlirValue half = op2(q, "arith.shrui", bit, one);
  MlirValue odd = cmp(q, CMPI_NE, op2(q, "arith.andi", t, one), zero);
  MlirValue up = op2(q, "arith.ori", cmp(q, CMPI_UGT, rem, half),
                     op2(q, "arith.andi", cmp(q, CMPI_EQ, rem, half), odd));
  up = op2(q, "arith.andi", up, cmp(q, CMPI_SGT, r, zero));
  return op2(q, "arith.addi", t, cvt(q, "arith.extui", up, q->i64));
}

/* saturate(round_half_even((double)s * (double)m) + zp) as the interpreter
 * computes it, in i64 integers (see the top of the file); NaN -> 0. */
static MlirValue requantize(Q *q, MlirValue s, MlirValue m, MlirValue zp, double lo, double hi) {
  MlirType i32 = mlirIntegerTypeGet(q->b->ctx, 32);
  MlirValue sv = cvt(q, "arith.extsi", s, q->i64), zero = c64(q, 0);
  MlirValue sNeg = cmp(q, CMPI_SLT, sv, zero);
  MlirValue sAbs = sel(q, sNeg, op2(q, "arith.subi", zero, sv), sv);
  MlirValue bits = cvt(q, "arith.extui", cvt(q, "arith.bitcast", m, i32), q->i64);
  MlirValue ex = op2(q, "arith.andi", op2(q, "arith.shrui", bits, c64(q, 23)), c64(q, 255));
  MlirValue frac = op2(q, "arith.andi", bits, c64(q, 0x7fffff));
  MlirValue mNeg = cmp(q, CMPI_NE, op2(q, "arith.shrui", bits, c64(q, 31)), zero);
  MlirValue den = cmp(q, CMPI_EQ, ex, zero);
  MlirValue mant = sel(q, den, frac, op2(q, "arith.ori", frac, c64(q, 0x800000)));
  MlirValue e = op2(q, "arith.subi", sel(q, den, c64(q, 1), ex), c64(q, 150));
  /* The exact product, then the f64 product: 53 significant bits. */
  MlirValue p = op2(q, "arith.muli", sAbs, mant);
  MlirValue sh = sel(q, cmp(q, CMPI_UGE, p, c64(q, 0x1p54)), c64(q, 2),
                     sel(q, cmp(q, CMPI_UGE, p, c64(q, 0x1p53)), c64(q, 1), zero));
  p = roundShift(q, p, sh);
  e = op2(q, "arith.addi", e, sh);
  /* To an integer: p * 2^e. Left shifts past 2^20 saturate any 8-bit result. */
  MlirValue left = cmp(q, CMPI_SGE, e, zero);
  MlirValue big = op2(q, "arith.andi", cmp(q, CMPI_NE, p, zero),
                      op2(q, "arith.ori", cmp(q, CMPI_SGE, e, c64(q, 11)), cmp(q, CMPI_UGE, p, c64(q, 0x1p20))));
  MlirValue el = op2(q, "arith.minsi", sel(q, left, e, zero), c64(q, 10));
  MlirValue ql = sel(q, big, c64(q, 0x1p30), op2(q, "arith.shli", p, el));
  MlirValue r = op2(q, "arith.minsi", sel(q, left, zero, op2(q, "arith.subi", zero, e)), c64(q, 60));
  MlirValue v = sel(q, left, ql, roundShift(q, p, r));
  MlirValue neg = op2(q, "arith.xori", sNeg, mNeg);
  v = sel(q, neg, op2(q, "arith.subi", zero, v), v);
  v = op2(q, "arith.addi", v, zp);
  MlirValue vlo = c64(q, lo), vhi = c64(q, hi);
  v = op2(q, "arith.minsi", op2(q, "arith.maxsi", v, vlo), vhi);
  /* m infinite: +-inf (saturated), or NaN for s = 0; m NaN: NaN. NaN -> 0. */
  MlirValue special = cmp(q, CMPI_EQ, ex, c64(q, 255));
  MlirValue nan = op2(q, "arith.ori", cmp(q, CMPI_NE, frac, zero), cmp(q, CMPI_EQ, sAbs, zero));
  return sel(q, special, sel(q, nan, zero, sel(q, neg, vlo, vhi)), v);
}

/* args: acc, rs, cs, as, az, bs, bz, ys, yz[, bias], out (qrequant);
 * acc, rs, cs, az, bz, out (qsum). */
static MlirValue bodyQuant(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const QSpec *s = u;
  if (!s->requant) return correctedSum(b, loc, s, a[0], a[1], a[2], a[3], a[4]);
  MlirValue v = correctedSum(b, loc, s, a[Q_ACC], a[Q_RS], a[Q_CS], a[Q_AZ], a[Q_BZ]);
  if (s->bias) v = emitBinary(b, loc, "arith.addi", v, a[Q_BIAS]);
  MlirValue m = emitBinary(b, loc, "arith.divf", emitBinary(b, loc, "arith.mulf", a[Q_AS], a[Q_BS]), a[Q_YS]);
  Q q = {b, loc, mlirIntegerTypeGet(b->ctx, 64)};
  MlirValue zp = cvt(&q, s->yUnsigned ? "arith.extui" : "arith.extsi", a[Q_YZ], q.i64);
  double lo = s->yUnsigned ? 0 : -128;
  v = requantize(&q, v, m, zp, lo, lo + 255);
  if (s->relu) v = op2(&q, "arith.maxsi", v, zp);
  return cvt(&q, "arith.trunci", v, mlirIntegerTypeGet(b->ctx, 8));
}

static MlirLogicalResult lowerQuant(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirLocation loc = mlirOperationGetLocation(op);
  QSpec s = {0};
  s.requant = strataOpIsNamed(op, "dsp.qrequant");
  strataGetI64(op, "k", &s.k);
  s.relu = !mlirAttributeIsNull(strataOpAttr(op, "relu"));
  int n = (int)mlirOperationGetNumOperands(op);
  MlirValue in[10];
  const char *maps[11] = {"(d0, d1)", "(d0, 0)", "(0, d1)"};
  for (int i = 0; i < n; i++) in[i] = mlirOperationGetOperand(op, i);
  if (s.requant) {
    s.bias = n > Q_BIAS;
    s.azUnsigned = elemUnsigned(in[Q_AZ]);
    s.bzUnsigned = elemUnsigned(in[Q_BZ]);
    s.yUnsigned = elemUnsigned(in[Q_YZ]);
    for (int i = Q_AS; i < n; i++) maps[i] = paramMap(in[i], i == Q_AS || i == Q_AZ || i == Q_YS || i == Q_YZ);
  } else { /* acc, rs, cs, az, bz */
    s.azUnsigned = elemUnsigned(in[3]);
    s.bzUnsigned = elemUnsigned(in[4]);
    maps[3] = paramMap(in[3], true);
    maps[4] = paramMap(in[4], false);
  }
  maps[n] = "(d0, d1)";
  MlirType t = lowerResultType(op, 0);
  MlirValue y = linalgBuildGeneric(&rw->builder, loc, (StrataValueList){in, n},
                                   linalgSplatConstant(&rw->builder, loc, t, 0), maps, "pp", bodyQuant, &s);
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

void dspLowerQuantPatterns(StrataPatternSet *set) {
  strataPatternSetAdd(set, "dsp.flip_sign", 1, lowerFlip, NULL);
  strataPatternSetAdd(set, "dsp.im2col", 1, lowerIm2col, NULL);
  strataPatternSetAdd(set, "dsp.qrequant", 1, lowerQuant, NULL);
  strataPatternSetAdd(set, "dsp.qsum", 1, lowerQuant, NULL);
}
