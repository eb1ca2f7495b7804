/* The random operators -- RandomUniform, RandomNormal, their *Like forms,
 * Bernoulli -- and Dropout in training mode, as the seeded nn ops
 * (dialects/nn/ops_random.c; the generator is nn_random.h).
 *
 * Seeds: ONNX's `seed` is a float (an int for Dropout). The nn op's i64
 * seed is the float's IEEE single-precision bit pattern (so 0.5, 1.0 and
 * 2.0 give different streams), and Dropout's int as it is. A node without
 * a seed gets one drawn from the operating system (/dev/urandom) at import:
 * each import differs, every run of what was imported repeats it, and the
 * seed is in the IR (the op's `seed` attribute), so a run can be recorded
 * and replayed. numpy's streams are not reproduced (docs/onnx.md). */
#include <math.h>
#include <string.h>
#include <time.h>
#include <stdio.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "onnx_internal.h"
#include "strata/support.h"

bool onnxIsRandom(const char *t) {
  return !strcmp(t, "Bernoulli") || !strcmp(t, "RandomUniform") || !strcmp(t, "RandomUniformLike") ||
         !strcmp(t, "RandomNormal") || !strcmp(t, "RandomNormalLike");
}

/* A seed for a node that names none: 8 bytes of /dev/urandom (the time and
 * the clock if it cannot be read). */
static int64_t freshSeed(void) {
  uint64_t s = 0;
  FILE *f = fopen("/dev/urandom", "rb");
  bool got = f && fread(&s, sizeof s, 1, f) == 1;
  if (f) fclose(f);
  if (!got) s = (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull ^ (uint64_t)clock();
  return (int64_t)s;
}

/* The nn seed of the node: its `seed` attribute (a float, or an int when
 * intSeed) or a fresh one. False after an error. */
static bool nodeSeed(Node *x, bool intSeed, int64_t *seed) {
  const Onnx__AttributeProto *a = onnxFindAttr(x->n, "seed");
  if (!a) {
    *seed = freshSeed();
    return true;
  }
  if (intSeed ? a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT
              : a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT) {
    NODE_ERROR(x->im, x->loc, x->n, "attribute 'seed' must be %s", intSeed ? "an int" : "a float");
    return false;
  }
  if (intSeed) {
    *seed = a->i;
  } else {
    float f = a->f;
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    *seed = bits;
  }
  return true;
}

static bool floatAttr(Node *x, const char *name, double dflt, double *out) {
  const Onnx__AttributeProto *a = onnxFindAttr(x->n, name);
  *out = dflt;
  if (!a) return true;
  if (a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT) {
    NODE_ERROR(x->im, x->loc, x->n, "attribute '%s' must be a float", name);
    return false;
  }
  *out = a->f;
  return true;
}

/* The `dtype` attribute as an element type in `allowed` (dflt when absent);
 * null after an error. */
static MlirType dtypeAttr(Node *x, MlirType dflt, unsigned allowed) {
  const Onnx__AttributeProto *a = onnxFindAttr(x->n, "dtype");
  if (!a) return dflt;
  StrataDType dt = a->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT ? onnxDType((int32_t)a->i) : STRATA_DTYPE_INVALID;
  if (dt == STRATA_DTYPE_INVALID || !(allowed & (1u << dt))) {
    NODE_ERROR(x->im, x->loc, x->n, "dtype %s is not supported", a->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT
                                                                       ? onnxDTypeName((int32_t)a->i) : "(not an int)");
    return (MlirType){NULL};
  }
  return strataDTypeToMlir(x->im->mc, dt);
}

#define FLOATS ((1u << STRATA_DTYPE_F16) | (1u << STRATA_DTYPE_F32) | (1u << STRATA_DTYPE_F64))

/* nn.random_uniform or nn.random_normal of the given shape and type. */
static MlirValue generated(Node *x, bool normal, int rank, const int64_t *dims, MlirType et, double a, double b,
                           int64_t seed) {
  MlirContext c = x->im->mc;
  MlirType f64 = mlirF64TypeGet(c);
  Attr attrs[] = {{"shape", mlirDenseI64ArrayGet(c, rank, dims)},
                  {"dtype", mlirTypeAttrGet(et)},
                  {normal ? "mean" : "low", mlirFloatAttrDoubleGet(c, f64, a)},
                  {normal ? "scale" : "high", mlirFloatAttrDoubleGet(c, f64, b)},
                  {"seed", strataI64Attr(c, seed)}};
  MlirOperation op = onnxBuild(x->im, x->loc, normal ? "nn.random_normal" : "nn.random_uniform", NULL, 0, 1, attrs,
                               5, et);
  return mlirOperationIsNull(op) ? (MlirValue){NULL} : strataResult(op, 0);
}

static bool importBernoulli(Node *x, int64_t seed) {
  if (x->nIn < 1 || mlirValueIsNull(x->in[0])) {
    NODE_ERROR(x->im, x->loc, x->n, "needs input #0 ('input')");
    return false;
  }
  MlirType et = dtypeAttr(x, onnxElemOf(x->in[0]), ~0u);
  if (mlirTypeIsNull(et)) return false;
  Attr attrs[] = {{"dtype", mlirTypeAttrGet(et)}, {"seed", strataI64Attr(x->im->mc, seed)}};
  MlirOperation op = onnxBuild(x->im, x->loc, "nn.bernoulli", x->in, 1, 1, attrs, 2, et);
  return !mlirOperationIsNull(op) && onnxBindValueAt(x, 0, strataResult(op, 0));
}

bool onnxImportRandom(Node *x) {
  const char *t = onnxOpType(x->n);
  int64_t seed;
  if (!nodeSeed(x, false, &seed)) return false;
  if (!strcmp(t, "Bernoulli")) return importBernoulli(x, seed);
  bool normal = !strncmp(t, "RandomNormal", 12), like = strstr(t, "Like") != NULL;
  int rank = 0;
  int64_t dims[STRATA_MAX_RANK];
  MlirType dflt = mlirF32TypeGet(x->im->mc);
  if (like) {
    if (x->nIn < 1 || mlirValueIsNull(x->in[0])) {
      NODE_ERROR(x->im, x->loc, x->n, "needs input #0 ('input')");
      return false;
    }
    if (!onnxStaticShape(x, x->in[0], &rank, dims, "the random tensor")) return false;
    MlirType it = onnxElemOf(x->in[0]);
    if (mlirTypeIsAFloat(it)) dflt = it;
  } else {
    const Onnx__AttributeProto *s = onnxFindAttr(x->n, "shape");
    if (!s || s->n_ints > STRATA_MAX_RANK) {
      NODE_ERROR(x->im, x->loc, x->n, s ? "attribute 'shape' has more than %d dims" : "needs the 'shape' attribute",
                 STRATA_MAX_RANK);
      return false;
    }
    rank = (int)s->n_ints;
    if (rank) memcpy(dims, s->ints, (size_t)rank * sizeof *dims);
  }
  MlirType et = dtypeAttr(x, dflt, FLOATS);
  double a, b;
  if (mlirTypeIsNull(et) || !floatAttr(x, normal ? "mean" : "low", 0.0, &a) ||
      !floatAttr(x, normal ? "scale" : "high", 1.0, &b))
    return false;
  return onnxBindValueAt(x, 0, generated(x, normal, rank, dims, et, a, b, seed));
}

/* Dropout (opset 12+) with a training_mode input that is not a constant
 * false, as ONNX's reference computes it: mask = uniform[0, 1) >= ratio
 * (in f64), output = mask * x * (1 / (1 - ratio)) (the scale in ratio's
 * type). A run-time training_mode selects between that and (x, all true).
 * ratio 0 keeps every element: the mask is all true, the output x. */
bool onnxImportDropoutTraining(Node *x) {
  int64_t seed;
  int rank;
  int64_t dims[STRATA_MAX_RANK];
  if (!nodeSeed(x, true, &seed) || !onnxStaticShape(x, x->in[0], &rank, dims, "training mode"))
    return false;
  MlirType xt = onnxElemOf(x->in[0]), f64 = mlirF64TypeGet(x->im->mc);
  MlirValue ratio = x->nIn > 1 && !mlirValueIsNull(x->in[1]) ? x->in[1] : onnxScalarConst(x, mlirF32TypeGet(x->im->mc), 0.5);
  MlirType rt = onnxElemOf(ratio);
  if (!mlirTypeIsAFloat(rt)) {
    NODE_ERROR(x->im, x->loc, x->n, "input #1 ('ratio') must be a float tensor");
    return false;
  }
  MlirValue u = generated(x, false, rank, dims, f64, 0.0, 1.0, seed);
  MlirValue keep = onnxBinary(x, "nn.greater_or_equal", u, onnxCast(x, ratio, f64), NULL, 0);
  MlirValue scale = onnxUnary(x, "nn.reciprocal", onnxBinary(x, "nn.sub", onnxScalarConst(x, rt, 1.0), ratio, NULL, 0),
                              NULL, 0);
  MlirValue y = onnxBinary(x, "nn.mul", onnxBinary(x, "nn.mul", onnxCast(x, keep, xt), x->in[0], NULL, 0),
                           onnxCast(x, scale, xt), NULL, 0);
  int64_t training = 1;
  MlirValue mode = x->in[2];
  if (onnxConstInts(mode, &training, 1) != 1) { /* chosen at run time */
    y = onnxWhere(x, mode, y, x->in[0]);
    keep = onnxBinary(x, "nn.or", keep, onnxUnary(x, "nn.not", mode, NULL, 0), NULL, 0);
  }
  return onnxBindValueAt(x, 0, y) && (x->n->n_output < 2 || !x->n->output[1] || !*x->n->output[1] ||
                                      onnxBindValueAt(x, 1, keep));
}
