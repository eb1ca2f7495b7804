/* Seeded random ops: nn.random_uniform, nn.random_normal (a shape and an
 * element type of their own) and nn.bernoulli (one draw per probability).
 * Every op carries its `seed`: the ONNX importer gives one to each node
 * (docs/onnx.md), so an op's values are a function of its attributes and
 * operands, and the interpreter and the lowering compute the same bits
 * (nn_random.h: the generator). */
#include <string.h>
#include "nn_internal.h"
#include "nn_random.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }

/* The `dtype` attribute (a type), or `dflt` when absent; null after an error. */
static MlirType dtypeAttr(MlirOperation op, MlirType dflt) {
  MlirAttribute a = strataOpAttr(op, "dtype");
  if (mlirAttributeIsNull(a)) return dflt;
  if (!mlirAttributeIsAType(a)) {
    nnError(op, "attribute 'dtype' must be a type");
    return (MlirType){NULL};
  }
  return mlirTypeAttrGetValue(a);
}

static bool seedAttr(MlirOperation op, uint64_t *key) {
  if (mlirAttributeIsNull(strataOpAttr(op, "seed"))) {
    nnError(op, "needs a 'seed' attribute");
    return false;
  }
  int64_t seed;
  if (!nnAttrInt(op, "seed", 0, &seed)) return false;
  *key = nnRandomMix((uint64_t)seed);
  return true;
}

static MlirLogicalResult inferGenerated(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  (void)def;
  int64_t dims[STRATA_MAX_RANK];
  int n;
  if (!nnAttrInts(op, "shape", dims, STRATA_MAX_RANK, &n)) return fail();
  if (n < 0) {
    nnError(op, "needs a 'shape' attribute");
    return fail();
  }
  for (int i = 0; i < n; i++)
    if (dims[i] < 0) {
      nnError(op, "shape value %lld at %d is negative", (long long)dims[i], i);
      return fail();
    }
  int64_t count;
  if (!nnDimProduct(op, dims, n, &count)) return fail();
  MlirType et = dtypeAttr(op, mlirF32TypeGet(mlirOperationGetContext(op)));
  if (mlirTypeIsNull(et)) return fail();
  if (!nnIsFloatDType(strataDTypeFromMlir(et))) {
    nnError(op, "attribute 'dtype' must be f16, f32 or f64");
    return fail();
  }
  uint64_t key;
  if (!seedAttr(op, &key)) return fail();
  nnSetShape(res, n, dims, et);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult inferBernoulli(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  if (!nnOperand(def, op, "input", &x) || !nnCheckType(op, "input", &x, NN_FLOAT)) return fail();
  MlirType et = dtypeAttr(op, x.elementType);
  if (mlirTypeIsNull(et)) return fail();
  if (!(NN_T(strataDTypeFromMlir(et)) & NN_ANY)) {
    nnError(op, "attribute 'dtype' must be a float, integer or bool type");
    return fail();
  }
  uint64_t key;
  if (!seedAttr(op, &key)) return fail();
  nnSetShape(res, x.rank, x.dims, et);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult interpGenerated(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                         StrataTensor **y) {
  (void)in, (void)x;
  uint64_t key;
  double a, b;
  bool normal = strataOpIsNamed(op, "nn.random_normal");
  if (!seedAttr(op, &key) || !nnAttrFloat(op, normal ? "mean" : "low", 0.0, &a) ||
      !nnAttrFloat(op, normal ? "scale" : "high", 1.0, &b))
    return fail();
  int64_t count = strataTensorNumElements(y[0]);
  for (int64_t k = 0; k < count; k++) {
    uint64_t w = nnRandomWord(key, (uint64_t)k);
    /* separate steps: the lowering rounds after each one too */
    double scaled = normal ? b * nnRandomNormal(w) : (b - a) * nnRandomUnit(w);
    strataTensorSetDouble(y[0], k, a + scaled);
  }
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult interpBernoulli(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                         StrataTensor **y) {
  (void)in;
  uint64_t key;
  if (!seedAttr(op, &key)) return fail();
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  StrataDType dt = strataDTypeFromMlir(mlirShapedTypeGetElementType(rt));
  if (!y[0] && !(y[0] = strataTensorCreate(dt, x[0]->rank, x[0]->dims)))
    return nnInterpError(op, "cannot allocate the result");
  int64_t count = strataTensorNumElements(x[0]);
  for (int64_t k = 0; k < count; k++) {
    bool one = nnRandomUnit(nnRandomWord(key, (uint64_t)k)) < strataTensorGetDouble(x[0], k);
    if (nnIsFloatDType(y[0]->dtype)) strataTensorSetDouble(y[0], k, one ? 1.0 : 0.0);
    else nnSetInt(y[0], k, one);
  }
  return mlirLogicalResultSuccess();
}

#define SEED_DOC "the generator's key (nn_random.h); the importer gives every node one"
static const StrataAttrDef kUniformAttrs[] = {
    {"shape", STRATA_ATTR_INT_ARRAY, 0, NULL, "the result's shape"},
    {"dtype", STRATA_ATTR_TYPE, STRATA_ATTR_OPTIONAL, NULL, "the result's element type (f16, f32, f64; default f32)"},
    {"low", STRATA_ATTR_FLOAT, STRATA_ATTR_OPTIONAL, NULL, "the lower bound (default 0)"},
    {"high", STRATA_ATTR_FLOAT, STRATA_ATTR_OPTIONAL, NULL, "the upper bound (default 1)"},
    {"seed", STRATA_ATTR_INT, 0, NULL, SEED_DOC},
};
static const StrataAttrDef kNormalAttrs[] = {
    {"shape", STRATA_ATTR_INT_ARRAY, 0, NULL, "the result's shape"},
    {"dtype", STRATA_ATTR_TYPE, STRATA_ATTR_OPTIONAL, NULL, "the result's element type (f16, f32, f64; default f32)"},
    {"mean", STRATA_ATTR_FLOAT, STRATA_ATTR_OPTIONAL, NULL, "the mean (default 0)"},
    {"scale", STRATA_ATTR_FLOAT, STRATA_ATTR_OPTIONAL, NULL, "the standard deviation (default 1)"},
    {"seed", STRATA_ATTR_INT, 0, NULL, SEED_DOC},
};
static const StrataAttrDef kBernoulliAttrs[] = {
    {"dtype", STRATA_ATTR_TYPE, STRATA_ATTR_OPTIONAL, NULL, "the result's element type (default the input's)"},
    {"seed", STRATA_ATTR_INT, 0, NULL, SEED_DOC},
};

#define GENERATED(n, sum, ad)                                                                             \
  {.name = "nn." n, .summary = sum, .operands = "", .results = "output", .flags = STRATA_OP_PURE,            \
   .infer = inferGenerated, .interpret = interpGenerated, .mapping = nnMapOneToOne,                         \
   .dynamism = STRATA_DYN_ISDO, .types = "-> f16 f32 f64", .attrs = ad,                                 \
   .numAttrs = sizeof ad / sizeof ad[0]}

static const StrataOpDef kOps[] = {
    GENERATED("random_uniform", "values uniform in [low, high) of the given shape, from the seeded generator",
              kUniformAttrs),
    GENERATED("random_normal", "normally distributed values (mean, scale) of the given shape, from the seeded generator",
              kNormalAttrs),
    {.name = "nn.bernoulli",
     .summary = "1 where a uniform draw from the seeded generator is below the input's probability, else 0",
     .operands = "input",
     .results = "output",
     .flags = STRATA_OP_PURE,
     .infer = inferBernoulli,
     .interpret = interpBernoulli,
     .mapping = nnMapOneToOne,
     .dynamism = STRATA_DYN_ISDO,
     .types = "f16 bf16 f32 f64 -> any",
     .attrs = kBernoulliAttrs,
     .numAttrs = sizeof kBernoulliAttrs / sizeof kBernoulliAttrs[0]},
};

const StrataOpTable nnRandomTable = {kOps, sizeof kOps / sizeof kOps[0]};
