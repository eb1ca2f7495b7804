/* nn-qdq-to-qlinear's residual Add in the quantized domain:
 *   q = QuantizeLinear([Relu|Clip](Add(DequantizeLinear(a), DequantizeLinear(b))))
 * with every QuantizeLinear/DequantizeLinear per tensor (constant f32 scale,
 * constant zero point) on 8-bit a, b and q becomes
 *   q = Gather(T, (a - amin) * 256 + (b - bmin))
 * with T a constant table of 65536 8-bit values (and 4 zero bytes after
 * them, which no index reaches: the runtime's lookup reads 32 bits at an
 * entry, runtime/qlookup.c).
 *
 * Why this is exact. With per-tensor parameters, each element of q is a
 * function of the two 8-bit elements it is computed from (the Add's
 * broadcast pairs them; the Relu, Clip and QuantizeLinear are elementwise),
 * and nothing else: the chain has 256 x 256 possible inputs. T holds the
 * value the nn interpreter computes at each of them, in its arithmetic
 * (dialects/nn/ops_quant.c, ops_elementwise.c): DequantizeLinear ((x - z) *
 * s in f64, stored as f32), Add (the f64 sum of the two f32 values stored
 * as f32), Relu (v > 0 ? v : 0), Clip (as qdq_clamp.c: max with the f32
 * lower bound, then min with the upper), QuantizeLinear (nearbyint(v / s)
 * in f64, + z, saturated). So the lookup is the interpreter's value for
 * every input, by construction; no proof about scales is needed. Where the
 * chain is not such a function, or the arithmetic could meet a NaN (which
 * the table's clamps would have to follow as the interpreter does), the
 * rewrite is refused and the float chain stays: any DequantizeLinear or
 * QuantizeLinear not per tensor or not constant, a Clip bound without an
 * f32 value, a non-finite or non-positive output scale, or a NaN at any
 * table entry (infinite input scales).
 *
 * The compiled float chain is not always the interpreter's: its
 * QuantizeLinear divides in f32 (conversions/nn-to-linalg/lower_quant.c),
 * which rounds a value within about 2^-24 of a half step either way. The
 * table follows the interpreter, the reference the compiled code is
 * checked against. */
#include <math.h>
#include <stdlib.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/support.h"
#include "qdq_clamp.h"

enum { TABLE = 65536, TABLE_PAD = 4 };

static MlirOperation producerOf(MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
}

static bool soleUse(MlirValue v) {
  MlirOpOperand u = mlirValueGetFirstUse(v);
  return !mlirOpOperandIsNull(u) && mlirOpOperandIsNull(mlirOpOperandGetNextUse(u));
}

/* One side of the Add: a per-tensor DequantizeLinear of an 8-bit tensor. */
typedef struct {
  MlirOperation dq;
  float s;
  int32_t z;
  bool u8;
} Side;

static bool side(MlirValue v, Side *p) {
  p->dq = producerOf(v);
  return strataQdqPerTensor(p->dq, "nn.dequantize_linear", &p->s, &p->z, &p->u8);
}

/* DequantizeLinear of x as the interpreter computes it. */
static float dequantize(int32_t x, const Side *p) {
  return (float)(((double)x - (double)p->z) * (double)p->s);
}

typedef struct {
  int kind; /* 0 none, 1 Relu, 2 Clip */
  float lo, hi;
} Act;

/* The table: entry (a - amin) * 256 + (b - bmin); false at a NaN. */
static bool fillTable(uint8_t *t, const Side *a, const Side *b, const Act *act, float s, int32_t z, bool u8) {
  int32_t amin = a->u8 ? 0 : -128, bmin = b->u8 ? 0 : -128;
  double lo = u8 ? 0 : -128, hi = u8 ? 255 : 127;
  float fb[256];
  for (int j = 0; j < 256; j++) fb[j] = dequantize(bmin + j, b);
  for (int i = 0; i < 256; i++) {
    float fa = dequantize(amin + i, a);
    for (int j = 0; j < 256; j++) {
      float v = (float)((double)fa + (double)fb[j]); /* nn.add: the f64 sum stored as f32 */
      if (isnan(v)) return false;
      if (act->kind == 1) v = v > 0 ? v : 0.0f;
      if (act->kind == 2) {
        v = v < act->lo ? act->lo : v;
        v = v > act->hi ? act->hi : v;
      }
      double r = nearbyint((double)v / (double)s) + (double)z; /* nn.quantize_linear */
      r = fmin(fmax(r, lo), hi);
      t[i * 256 + j] = (uint8_t)(int8_t)(int32_t)r; /* i8 as its two's complement byte */
    }
  }
  return true;
}

static MlirValue constI32(StrataBuilder *b, MlirLocation loc, int32_t v) {
  MlirType t = mlirRankedTensorTypeGet(0, NULL, mlirIntegerTypeGet(b->ctx, 32), mlirAttributeGetNull());
  return strataResult(strataCreateOp(b, "nn.constant", loc, .results = STRATA_TYPES(t),
                                     .attrs = STRATA_ATTRS({"value", mlirDenseElementsAttrInt32Get(t, 1, &v)})),
                      0);
}

/* x (8-bit) as i32 of its shape. */
static MlirValue toI32(StrataBuilder *b, MlirLocation loc, MlirValue x) {
  MlirType t = mlirValueGetType(x);
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t dims[STRATA_MAX_RANK];
  for (intptr_t i = 0; i < rank; i++) dims[i] = mlirShapedTypeGetDimSize(t, i);
  MlirType it = mlirRankedTensorTypeGet(rank, dims, mlirIntegerTypeGet(b->ctx, 32), mlirAttributeGetNull());
  return strataResult(strataCreateOp(b, "nn.cast", loc, .operands = STRATA_VALUES(x), .results = STRATA_TYPES(it)), 0);
}

/* a op b (nn.mul / nn.add) of i32 tensors, into type rt. */
static MlirValue binary(StrataBuilder *b, MlirLocation loc, const char *op, MlirValue x, MlirValue y, MlirType rt) {
  return strataResult(strataCreateOp(b, op, loc, .operands = STRATA_VALUES(x, y), .results = STRATA_TYPES(rt)), 0);
}

MlirLogicalResult strataQdqAddRewrite(StrataRewrite *rw, MlirOperation q, void *user) {
  (void)user;
  float s;
  int32_t z;
  bool u8;
  Act act = {0, 0, 0};
  if (!strataQdqPerTensor(q, "nn.quantize_linear", &s, &z, &u8) || !(s > 0) || !isfinite(s))
    return mlirLogicalResultFailure();
  MlirOperation add = producerOf(mlirOperationGetOperand(q, 0)), actOp = {NULL};
  if (!mlirOperationIsNull(add) && (strataOpIsNamed(add, "nn.relu") || strataOpIsNamed(add, "nn.clip"))) {
    if (!soleUse(mlirOperationGetResult(add, 0)) || !strataQdqActivationBounds(add, &act.lo, &act.hi))
      return mlirLogicalResultFailure();
    act.kind = strataOpIsNamed(add, "nn.relu") ? 1 : 2;
    actOp = add;
    add = producerOf(mlirOperationGetOperand(add, 0));
  }
  Side a, b;
  if (mlirOperationIsNull(add) || !strataOpIsNamed(add, "nn.add") || mlirOperationGetNumOperands(add) != 2 ||
      !soleUse(mlirOperationGetResult(add, 0)) || !side(mlirOperationGetOperand(add, 0), &a) ||
      !side(mlirOperationGetOperand(add, 1), &b) ||
      !mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(add, 0)), mlirValueGetType(mlirOperationGetOperand(q, 0))))
    return mlirLogicalResultFailure();
  uint8_t *table = calloc(TABLE + TABLE_PAD, 1);
  if (!table) return mlirLogicalResultFailure();
  if (!fillTable(table, &a, &b, &act, s, z, u8)) {
    free(table);
    return mlirLogicalResultFailure();
  }
  StrataBuilder *bld = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(q);
  MlirType yt = mlirValueGetType(mlirOperationGetResult(q, 0));
  MlirType elem = mlirShapedTypeGetElementType(yt);
  int64_t n = TABLE + TABLE_PAD;
  MlirType tt = mlirRankedTensorTypeGet(1, &n, elem, mlirAttributeGetNull());
  MlirAttribute value = u8 ? mlirDenseElementsAttrUInt8Get(tt, n, table)
                           : mlirDenseElementsAttrInt8Get(tt, n, (const int8_t *)table);
  free(table);
  MlirValue tv = strataResult(strataCreateOp(bld, "nn.constant", loc, .results = STRATA_TYPES(tt),
                                             .attrs = STRATA_ATTRS({"value", value})),
                              0);
  /* the index: (a - amin) * 256 + (b - bmin), broadcast as the Add did */
  MlirValue ia = toI32(bld, loc, mlirOperationGetOperand(a.dq, 0)), ib = toI32(bld, loc, mlirOperationGetOperand(b.dq, 0));
  intptr_t rank = mlirShapedTypeGetRank(yt);
  int64_t dims[STRATA_MAX_RANK];
  for (intptr_t i = 0; i < rank; i++) dims[i] = mlirShapedTypeGetDimSize(yt, i);
  MlirType it = mlirRankedTensorTypeGet(rank, dims, mlirIntegerTypeGet(bld->ctx, 32), mlirAttributeGetNull());
  MlirValue idx = binary(bld, loc, "nn.mul", ia, constI32(bld, loc, 256), mlirValueGetType(ia));
  idx = binary(bld, loc, "nn.add", idx, ib, it);
  int32_t off = (a.u8 ? 0 : 128 * 256) + (b.u8 ? 0 : 128);
  if (off) idx = binary(bld, loc, "nn.add", idx, constI32(bld, loc, off), it);
  MlirValue out = strataResult(strataCreateOp(bld, "nn.gather", loc, .operands = STRATA_VALUES(tv, idx),
                                              .results = STRATA_TYPES(yt),
                                              .attrs = STRATA_ATTRS({"axis", strataI64Attr(bld->ctx, 0)})),
                               0);
  strataReplaceOp(rw, q, STRATA_VALUES(out));
  if (!mlirOperationIsNull(actOp)) strataEraseOp(rw, actOp);
  strataEraseOp(rw, add);
  for (int i = 0; i < 2; i++) {
    MlirOperation dq = i ? b.dq : a.dq;
    if (i && mlirOperationEqual(a.dq, b.dq)) break;
    if (mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(dq, 0)))) strataEraseOp(rw, dq);
  }
  return mlirLogicalResultSuccess();
}
