/* nn.random_uniform, nn.random_normal, nn.bernoulli -> one linalg.generic
 * each, whose body computes the element's word of nn_random.h's generator
 * from its row-major index (linalg.index) in i64 arith ops, then the value
 * in f64 as the interpreter kernels (dialects/nn/ops_random.c) do, step for
 * step: the same bits, whatever the tiling. Static shapes (dynamic ones are
 * refused before). */
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "nn_internal.h"
#include "nn_random.h"
#include "lower_internal.h"
#include "linalg_build.h"

typedef struct {
  MlirOperation op;
  int rank;
  int64_t strides[STRATA_MAX_RANK];
  uint64_t key;
  double a, b; /* low, high or mean, scale */
  bool normal;
  MlirType out; /* the result's element type, signless */
} Rand;

static MlirValue i64c(StrataBuilder *b, MlirLocation loc, uint64_t v) {
  return strataConstInt(b, loc, mlirIntegerTypeGet(b->ctx, 64), (int64_t)v);
}
static MlirValue f64c(StrataBuilder *b, MlirLocation loc, double v) {
  return strataConstFloat(b, loc, mlirF64TypeGet(b->ctx), v);
}

/* nnRandomMix in arith. */
static MlirValue mix(StrataBuilder *b, MlirLocation loc, MlirValue z) {
  static const struct { int shift; uint64_t mul; } kSteps[] = {{30, NN_RANDOM_M1}, {27, NN_RANDOM_M2}, {31, 0}};
  for (size_t i = 0; i < sizeof kSteps / sizeof kSteps[0]; i++) {
    z = emitBinary(b, loc, "arith.xori", z, emitBinary(b, loc, "arith.shrui", z, i64c(b, loc, (uint64_t)kSteps[i].shift)));
    if (kSteps[i].mul) z = emitBinary(b, loc, "arith.muli", z, i64c(b, loc, kSteps[i].mul));
  }
  return z;
}

/* The element's word: nnRandomWord(key, its row-major index). */
static MlirValue word(StrataBuilder *b, MlirLocation loc, const Rand *r) {
  MlirValue k = lowerIndexConst(b, loc, 0);
  for (int d = 0; d < r->rank; d++)
    k = emitBinary(b, loc, "arith.addi", k,
                   emitBinary(b, loc, "arith.muli", linalgIndex(b, loc, d), lowerIndexConst(b, loc, r->strides[d])));
  MlirValue k1 = emitBinary(b, loc, "arith.addi", emitConvert(b, loc, "arith.index_cast", k, mlirIntegerTypeGet(b->ctx, 64)),
                            i64c(b, loc, 1));
  MlirValue z = emitBinary(b, loc, "arith.addi", i64c(b, loc, r->key),
                           emitBinary(b, loc, "arith.muli", k1, i64c(b, loc, NN_RANDOM_GAMMA)));
  return mix(b, loc, z);
}

/* An unsigned integer value below 2^53 as an exact f64, times scale. */
static MlirValue toUnit(StrataBuilder *b, MlirLocation loc, MlirValue v, double scale) {
  return emitBinary(b, loc, "arith.mulf", emitConvert(b, loc, "arith.uitofp", v, mlirF64TypeGet(b->ctx)),
                    f64c(b, loc, scale));
}

/* nnRandomUnit and nnRandomNormal. */
static MlirValue unit(StrataBuilder *b, MlirLocation loc, MlirValue w) {
  return toUnit(b, loc, emitBinary(b, loc, "arith.shrui", w, i64c(b, loc, 11)), 0x1p-53);
}
static MlirValue normal(StrataBuilder *b, MlirLocation loc, MlirValue w) {
  MlirValue hi = emitBinary(b, loc, "arith.addi", emitBinary(b, loc, "arith.shrui", w, i64c(b, loc, 32)), i64c(b, loc, 1));
  MlirValue u1 = toUnit(b, loc, hi, 0x1p-32);
  MlirValue u2 = toUnit(b, loc, emitBinary(b, loc, "arith.andi", w, i64c(b, loc, 0xffffffffu)), 0x1p-32);
  MlirValue r = emitUnary(b, loc, "math.sqrt",
                          emitBinary(b, loc, "arith.mulf", f64c(b, loc, -2.0), emitUnary(b, loc, "math.log", u1)));
  MlirValue c = emitUnary(b, loc, "math.cos", emitBinary(b, loc, "arith.mulf", u2, f64c(b, loc, NN_RANDOM_TWO_PI)));
  return emitBinary(b, loc, "arith.mulf", r, c);
}

/* An f64 to a float type as the host tensors round it (f16 once, through
 * f32 rounded to odd; bf16 through f32 rounded to nearest even). */
static MlirValue fromF64(StrataBuilder *b, MlirLocation loc, MlirValue v, MlirType t) {
  if (mlirTypeIsAF64(t)) return v;
  v = mlirTypeIsAF16(t) ? lowerF64ToF32Odd(b, loc, v) : emitConvert(b, loc, "arith.truncf", v, mlirF32TypeGet(b->ctx));
  return mlirTypeIsAF32(t) ? v : emitConvert(b, loc, "arith.truncf", v, t);
}

static MlirValue bodyGenerated(StrataBuilder *b, MlirLocation loc, const MlirValue *args, void *user) {
  (void)args;
  const Rand *r = user;
  MlirValue w = word(b, loc, r);
  MlirValue scaled = r->normal ? emitBinary(b, loc, "arith.mulf", f64c(b, loc, r->b), normal(b, loc, w))
                               : emitBinary(b, loc, "arith.mulf", f64c(b, loc, r->b - r->a), unit(b, loc, w));
  return fromF64(b, loc, emitBinary(b, loc, "arith.addf", f64c(b, loc, r->a), scaled), r->out);
}

static MlirValue bodyBernoulli(StrataBuilder *b, MlirLocation loc, const MlirValue *args, void *user) {
  const Rand *r = user;
  MlirValue p = args[0];
  if (!mlirTypeIsAF64(mlirValueGetType(p))) p = emitConvert(b, loc, "arith.extf", p, mlirF64TypeGet(b->ctx));
  MlirValue one = emitCmpF(b, loc, CMPF_OLT, unit(b, loc, word(b, loc, r)), p);
  if (mlirTypeIsAFloat(r->out)) return emitConvert(b, loc, "arith.uitofp", one, r->out);
  if (mlirIntegerTypeGetWidth(r->out) == 1) return one;
  return emitConvert(b, loc, "arith.extui", one, r->out);
}

static MlirLogicalResult lowerRandom(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  StrataBuilder *b = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirType rt = lowerResultType(op, 0);
  bool bernoulli = strataOpIsNamed(op, "nn.bernoulli");
  Rand r = {.op = op, .rank = (int)mlirShapedTypeGetRank(rt), .normal = strataOpIsNamed(op, "nn.random_normal"),
            .out = lowerSignless(mlirShapedTypeGetElementType(rt))};
  int64_t seed;
  if (!nnAttrInt(op, "seed", 0, &seed) || !nnAttrFloat(op, r.normal ? "mean" : "low", 0.0, &r.a) ||
      !nnAttrFloat(op, r.normal ? "scale" : "high", 1.0, &r.b))
    return mlirLogicalResultFailure();
  r.key = nnRandomMix((uint64_t)seed);
  int64_t stride = 1;
  for (int d = r.rank - 1; d >= 0; d--) {
    r.strides[d] = stride;
    stride *= mlirShapedTypeGetDimSize(rt, d);
  }
  char map[160], its[STRATA_MAX_RANK + 1];
  lowerIdentityMap(map, sizeof map, r.rank);
  lowerParallelIterators(its, r.rank);
  MlirValue init = lowerEmptyTensor(b, loc, rt, NULL);
  MlirValue y = bernoulli ? linalgBuildGeneric(b, loc, STRATA_VALUES(lowerOperand(op, 0)), init,
                                               (const char *const[]){map, map}, its, bodyBernoulli, &r)
                          : linalgBuildGeneric(b, loc, (StrataValueList){NULL, 0}, init, (const char *const[]){map},
                                               its, bodyGenerated, &r);
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

void nnToLinalgRandom(LowerRegistry *r) {
  lowerRegister(r, "nn.random_uniform", lowerRandom, NULL);
  lowerRegister(r, "nn.random_normal", lowerRandom, NULL);
  lowerRegister(r, "nn.bernoulli", lowerRandom, NULL);
}
