/* nn.rnn / nn.gru / nn.lstm: attributes and operand shapes (nn_rnn.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "nn_internal.h"
#include "nn_rnn.h"

/* ONNX's activation functions, with ONNX Runtime's defaults for the alpha
 * and beta they take (consumed in order from activation_alpha/beta). */
static const struct {
  const char *name;
  NnActKind kind;
  int params; /* 0: none, 1: alpha, 2: alpha and beta */
  double alpha, beta;
} kActs[] = {
    {"Relu", NN_ACT_RELU, 0, 0, 0},           {"Tanh", NN_ACT_TANH, 0, 0, 0},
    {"Sigmoid", NN_ACT_SIGMOID, 0, 0, 0},     {"Affine", NN_ACT_AFFINE, 2, 1.0, 0.0},
    {"LeakyRelu", NN_ACT_LEAKY_RELU, 1, 0.01, 0}, {"ThresholdedRelu", NN_ACT_THRESHOLDED_RELU, 1, 1.0, 0},
    {"ScaledTanh", NN_ACT_SCALED_TANH, 2, 1.0, 1.0}, {"HardSigmoid", NN_ACT_HARD_SIGMOID, 2, 0.2, 0.5},
    {"Elu", NN_ACT_ELU, 1, 1.0, 0},           {"Softsign", NN_ACT_SOFTSIGN, 0, 0, 0},
    {"Softplus", NN_ACT_SOFTPLUS, 0, 0, 0},
};

double nnRnnActivate(const NnActivation *a, double x) {
  switch (a->kind) {
  case NN_ACT_RELU: return x > 0 ? x : 0;
  case NN_ACT_TANH: return tanh(x);
  case NN_ACT_SIGMOID: return 1.0 / (1.0 + exp(-x));
  case NN_ACT_AFFINE: return a->alpha * x + a->beta;
  case NN_ACT_LEAKY_RELU: return x >= 0 ? x : a->alpha * x;
  case NN_ACT_THRESHOLDED_RELU: return x > a->alpha ? x : 0;
  case NN_ACT_SCALED_TANH: return a->alpha * tanh(a->beta * x);
  case NN_ACT_HARD_SIGMOID: return fmax(0.0, fmin(1.0, a->alpha * x + a->beta));
  case NN_ACT_ELU: return x >= 0 ? x : a->alpha * (exp(x) - 1);
  case NN_ACT_SOFTSIGN: return x / (1 + fabs(x));
  case NN_ACT_SOFTPLUS: return fmax(x, 0.0) + log1p(exp(-fabs(x)));
  }
  return x;
}

/* A float list attribute (array<f32: ...>, array<f64: ...> or [1.0, ...]):
 * count, -1 if absent, -2 (after an error) if not a float list. */
static int floatList(MlirOperation op, const char *name, double *out, int max) {
  MlirAttribute a = strataOpAttr(op, name);
  if (mlirAttributeIsNull(a)) return -1;
  bool f32 = mlirAttributeIsADenseF32Array(a), f64 = mlirAttributeIsADenseF64Array(a);
  intptr_t n = f32 || f64 ? mlirDenseArrayGetNumElements(a) : mlirAttributeIsAArray(a) ? mlirArrayAttrGetNumElements(a) : -1;
  for (intptr_t i = 0; i >= 0 && n >= 0 && i < n && i < max; i++) {
    MlirAttribute e = f32 || f64 ? a : mlirArrayAttrGetElement(a, i);
    if (f32) out[i] = mlirDenseF32ArrayGetElement(a, i);
    else if (f64) out[i] = mlirDenseF64ArrayGetElement(a, i);
    else if (mlirAttributeIsAFloat(e)) out[i] = mlirFloatAttrGetValueDouble(e);
    else n = -1;
  }
  if (n < 0 || n > max) {
    nnError(op, "attribute '%s' must be a list of at most %d floats", name, max);
    return -2;
  }
  return (int)n;
}

static bool readActivations(MlirOperation op, NnRnn *r) {
  static const NnActKind kDefaults[3][3] = {{NN_ACT_TANH}, {NN_ACT_SIGMOID, NN_ACT_TANH},
                                            {NN_ACT_SIGMOID, NN_ACT_TANH, NN_ACT_TANH}};
  int want = r->numActs * r->dirs;
  double alpha[6], beta[6];
  int na = floatList(op, "activation_alpha", alpha, 6), nb = floatList(op, "activation_beta", beta, 6), ia = 0,
      ib = 0;
  if (na == -2 || nb == -2) return false;
  MlirAttribute names = strataOpAttr(op, "activations");
  if (!mlirAttributeIsNull(names) && (!mlirAttributeIsAArray(names) || mlirArrayAttrGetNumElements(names) != want)) {
    nnError(op, "attribute 'activations' must list %d names (%d per direction)", want, r->numActs);
    return false;
  }
  for (int i = 0; i < want; i++) {
    NnActivation *a = &r->act[i / r->numActs][i % r->numActs];
    size_t k = 0, numKinds = sizeof kActs / sizeof kActs[0];
    if (mlirAttributeIsNull(names)) {
      while (kActs[k].kind != kDefaults[r->cell][i % r->numActs]) k++;
    } else {
      MlirAttribute e = mlirArrayAttrGetElement(names, i);
      MlirStringRef s = mlirAttributeIsAString(e) ? mlirStringAttrGetValue(e) : mlirStringRefCreate("", 0);
      /* Case-insensitive, as ONNX Runtime reads them. */
      while (k < numKinds && (strlen(kActs[k].name) != s.length || strncasecmp(kActs[k].name, s.data, s.length))) k++;
      if (k == numKinds) {
        nnError(op, "activation #%d \"%.*s\" is not one of Relu, Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu, "
                "ScaledTanh, HardSigmoid, Elu, Softsign, Softplus", i, (int)s.length, s.data);
        return false;
      }
    }
    a->kind = kActs[k].kind;
    a->alpha = kActs[k].params >= 1 && na > ia ? alpha[ia++] : kActs[k].alpha;
    a->beta = kActs[k].params >= 2 && nb > ib ? beta[ib++] : kActs[k].beta;
  }
  return true;
}

/* Operand `name`'s position, its shape in *s; -1 if absent. */
static int operandAt(const StrataOpDef *def, MlirOperation op, const char *name, StrataShape *s) {
  MlirValue v = strataNamedOperand(def, op, name);
  if (mlirValueIsNull(v) || !nnOperand(def, op, name, s)) return -1;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (mlirValueEqual(mlirOperationGetOperand(op, i), v)) return (int)i;
  return -1;
}

/* Checks operand `name` (if present) against the expected dims (-1: any). */
static bool expectDims(MlirOperation op, const char *name, const StrataShape *s, int rank, const int64_t *want) {
  bool fits = s->rank == rank;
  for (int d = 0; fits && d < rank; d++) fits = want[d] < 0 || s->dims[d] < 0 || s->dims[d] == want[d];
  if (fits) return true;
  char have[300], expected[128];
  strataShapeToString(want, rank, s->elementType, expected, sizeof expected);
  nnError(op, "%s, expected %s ('?' = any size)", nnDescribe(name, s, have, sizeof have), expected);
  return false;
}

static int64_t known(int64_t a, int64_t b) { return a >= 0 ? a : b; }

static bool readShapes(const StrataOpDef *def, MlirOperation op, NnRnn *r) {
  StrataShape x, w, rr, s;
  if (!nnOperand(def, op, "x", &x) || !nnOperand(def, op, "w", &w) || !nnOperand(def, op, "r", &rr) ||
      !nnCheckType(op, "x", &x, NN_FLOAT) || !nnSameType(op, "x", &x, "w", &w) || !nnSameType(op, "x", &x, "r", &rr))
    return false;
  int64_t any3[3] = {-1, -1, -1};
  if (!expectDims(op, "x", &x, 3, any3)) return false;
  r->seq = x.dims[r->layout ? 1 : 0];
  r->batch = x.dims[r->layout ? 0 : 1];
  r->input = x.dims[2];
  int64_t attrHidden = r->hidden, G = r->gates;
  r->hidden = known(attrHidden, known(rr.dims[2], w.dims[1] >= 0 && w.rank == 3 ? w.dims[1] / G : -1));
  int64_t H = r->hidden, D = r->dirs, GH = H >= 0 ? G * H : -1, LH = H >= 0 ? 2 * G * H : -1;
  int64_t wantW[3] = {D, GH, r->input}, wantR[3] = {D, GH, H}, wantB[2] = {D, LH}, wantP[2] = {D, H >= 0 ? 3 * H : -1};
  int64_t wantLens[1] = {r->batch};
  int64_t wantState[3] = {r->layout ? r->batch : D, r->layout ? D : r->batch, H};
  if (!expectDims(op, "w", &w, 3, wantW) || !expectDims(op, "r", &rr, 3, wantR)) return false;
  if ((r->b = operandAt(def, op, "b", &s)) >= 0 && (!nnSameType(op, "x", &x, "b", &s) || !expectDims(op, "b", &s, 2, wantB)))
    return false;
  if ((r->seqLens = operandAt(def, op, "sequence_lens", &s)) >= 0 &&
      (!nnCheckType(op, "sequence_lens", &s, NN_INDEX) || !expectDims(op, "sequence_lens", &s, 1, wantLens)))
    return false;
  if ((r->initH = operandAt(def, op, "initial_h", &s)) >= 0 &&
      (!nnSameType(op, "x", &x, "initial_h", &s) || !expectDims(op, "initial_h", &s, 3, wantState)))
    return false;
  r->initC = r->p = -1;
  if (r->cell != NN_CELL_LSTM) return true;
  if ((r->initC = operandAt(def, op, "initial_c", &s)) >= 0 &&
      (!nnSameType(op, "x", &x, "initial_c", &s) || !expectDims(op, "initial_c", &s, 3, wantState)))
    return false;
  if ((r->p = operandAt(def, op, "p", &s)) >= 0 && (!nnSameType(op, "x", &x, "p", &s) || !expectDims(op, "p", &s, 2, wantP)))
    return false;
  return true;
}

bool nnRnnOf(MlirOperation op, NnRnn *r) {
  memset(r, 0, sizeof *r);
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  const StrataOpDef *def = NULL;
  for (size_t i = 0; i < nnRnnTable.numOps; i++)
    if (strlen(nnRnnTable.ops[i].name) == name.length && !strncmp(nnRnnTable.ops[i].name, name.data, name.length))
      def = &nnRnnTable.ops[i], r->cell = (NnCellKind)i;
  if (!def) return false;
  static const int kGates[] = {1, 3, 4}, kActsPerDir[] = {1, 2, 3};
  r->gates = kGates[r->cell];
  r->numActs = kActsPerDir[r->cell];
  char dir[32];
  int64_t layout, hidden, lbr = 0, forget = 0;
  if (!nnAttrString(op, "direction", "forward", "forward|reverse|bidirectional", dir, sizeof dir) ||
      !nnAttrInt(op, "layout", 0, &layout) || !nnAttrInt(op, "hidden_size", -1, &hidden) ||
      (r->cell == NN_CELL_GRU && !nnAttrInt(op, "linear_before_reset", 0, &lbr)) ||
      (r->cell == NN_CELL_LSTM && !nnAttrInt(op, "input_forget", 0, &forget)))
    return false;
  if (layout != 0 && layout != 1) {
    nnError(op, "attribute 'layout' is %lld; expected 0 or 1", (long long)layout);
    return false;
  }
  if (!mlirAttributeIsNull(strataOpAttr(op, "hidden_size")) && hidden < 1) {
    nnError(op, "attribute 'hidden_size' is %lld; expected a positive size", (long long)hidden);
    return false;
  }
  r->dirs = strcmp(dir, "bidirectional") ? 1 : 2;
  r->reverse = !strcmp(dir, "reverse");
  r->layout = (int)layout;
  r->hidden = hidden;
  r->linearBeforeReset = lbr != 0;
  r->inputForget = forget != 0;
  r->hasClip = !mlirAttributeIsNull(strataOpAttr(op, "clip"));
  if (r->hasClip && !nnAttrFloat(op, "clip", 0, &r->clip)) return false;
  if (r->hasClip && !(r->clip >= 0)) {
    nnError(op, "attribute 'clip' must be a non-negative float");
    return false;
  }
  return readActivations(op, r) && readShapes(def, op, r);
}
