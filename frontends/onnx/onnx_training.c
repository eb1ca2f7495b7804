/* The optimizers of ONNX's training domain (ai.onnx.preview.training,
 * opset 1): Adagrad, Adam and Momentum (standard and Nesterov). Each
 * updates n tensors at once -- inputs R, T, then n X, n G and n (or 2n, for
 * Adam) optimizer states; outputs the n new X, then the new states -- and
 * each tensor's update is an elementwise formula of its own X, G and state
 * and the shared scalars R (learning rate) and T (update count). They
 * import as those formulas in nn ops, per tensor (an IRDL variadic group
 * has one type, and the tensors differ in shape), exactly as the ONNX spec
 * writes them; the interpreter and every lowering then run them as they
 * run the elementwise ops. BatchNormalization in training mode, also a
 * deterministic update of running statistics, is here too. */
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "onnx_internal.h"
#include "strata/support.h"

typedef enum { OPT_ADAGRAD, OPT_ADAM, OPT_MOMENTUM } Optimizer;

/* A float attribute, `dflt` when absent (`required`: an error then). */
static bool floatAttr(Node *x, const char *name, double dflt, bool required, double *out) {
  const Onnx__AttributeProto *a = onnxFindAttr(x->n, name);
  *out = dflt;
  if (!a) {
    if (required) NODE_ERROR(x->im, x->loc, x->n, "needs the '%s' attribute", name);
    return !required;
  }
  if (a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT) {
    NODE_ERROR(x->im, x->loc, x->n, "attribute '%s' must be a float", name);
    return false;
  }
  *out = a->f;
  return true;
}

/* False after an error when an attribute is none of `known` (NULL-ended). */
static bool knownAttrs(Node *x, const char *const *known) {
  for (size_t i = 0; i < x->n->n_attribute; i++) {
    const char *name = x->n->attribute[i]->name ? x->n->attribute[i]->name : "";
    bool ok = false;
    for (const char *const *k = known; *k && !ok; k++) ok = !strcmp(*k, name);
    if (!ok) {
      NODE_ERROR(x->im, x->loc, x->n, "has no attribute '%s'", name);
      return false;
    }
  }
  return true;
}

/* R (a float scalar) and T (an int64 scalar), checked. */
static bool scalars(Node *x, MlirType *floatType) {
  int rank;
  int64_t dims[STRATA_MAX_RANK];
  MlirType rt = mlirValueGetType(x->in[0]), tt = mlirValueGetType(x->in[1]);
  if (!strataGetShape(rt, &rank, dims) || rank != 0 || !mlirTypeIsAFloat(mlirShapedTypeGetElementType(rt))) {
    NODE_ERROR(x->im, x->loc, x->n, "input #0 ('R', the learning rate) must be a float scalar (rank 0)");
    return false;
  }
  if (!strataGetShape(tt, &rank, dims) || rank != 0 ||
      !mlirTypeEqual(mlirShapedTypeGetElementType(tt), mlirIntegerTypeGet(x->im->mc, 64))) {
    NODE_ERROR(x->im, x->loc, x->n, "input #1 ('T', the update count) must be an int64 scalar (rank 0)");
    return false;
  }
  *floatType = mlirShapedTypeGetElementType(rt);
  return true;
}

/* Shorthands over the node's builder; each passes a null operand through. */
static MlirValue add(Node *x, MlirValue a, MlirValue b) { return onnxBinary(x, "nn.add", a, b, NULL, 0); }
static MlirValue sub(Node *x, MlirValue a, MlirValue b) { return onnxBinary(x, "nn.sub", a, b, NULL, 0); }
static MlirValue mul(Node *x, MlirValue a, MlirValue b) { return onnxBinary(x, "nn.mul", a, b, NULL, 0); }
static MlirValue div_(Node *x, MlirValue a, MlirValue b) { return onnxBinary(x, "nn.div", a, b, NULL, 0); }

/* A scalar constant of the float type ft in scope. */
#define K(v) onnxScalarConst(x, ft, (v))

bool onnxImportTraining(Node *x) {
  const char *t = onnxOpType(x->n);
  Optimizer kind = !strcmp(t, "Adagrad") ? OPT_ADAGRAD : !strcmp(t, "Adam") ? OPT_ADAM : OPT_MOMENTUM;
  static const char *const kAdagrad[] = {"decay_factor", "epsilon", "norm_coefficient", NULL};
  static const char *const kAdam[] = {"alpha", "beta", "epsilon", "norm_coefficient", "norm_coefficient_post", NULL};
  static const char *const kMomentum[] = {"alpha", "beta", "mode", "norm_coefficient", NULL};
  double decay = 0, epsilon = 0, norm = 0, normPost = 0, alpha = 0, beta = 0;
  bool nesterov = false;
  if (kind == OPT_ADAGRAD) {
    if (!knownAttrs(x, kAdagrad) || !floatAttr(x, "decay_factor", 0, false, &decay) ||
        !floatAttr(x, "epsilon", 0, false, &epsilon) || !floatAttr(x, "norm_coefficient", 0, false, &norm))
      return false;
  } else if (kind == OPT_ADAM) {
    if (!knownAttrs(x, kAdam) || !floatAttr(x, "alpha", 0.9, false, &alpha) ||
        !floatAttr(x, "beta", 0.999, false, &beta) || !floatAttr(x, "epsilon", 1e-6, false, &epsilon) ||
        !floatAttr(x, "norm_coefficient", 0, false, &norm) ||
        !floatAttr(x, "norm_coefficient_post", 0, false, &normPost))
      return false;
  } else {
    const Onnx__AttributeProto *mode = onnxFindAttr(x->n, "mode");
    if (!knownAttrs(x, kMomentum) || !floatAttr(x, "alpha", 0, true, &alpha) || !floatAttr(x, "beta", 0, true, &beta) ||
        !floatAttr(x, "norm_coefficient", 0, true, &norm))
      return false;
    bool standard = mode && mode->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING && mode->s.len == 8 &&
                    !memcmp(mode->s.data, "standard", 8);
    nesterov = mode && mode->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING && mode->s.len == 8 &&
               !memcmp(mode->s.data, "nesterov", 8);
    if (!standard && !nesterov) {
      NODE_ERROR(x->im, x->loc, x->n, "attribute 'mode' must be \"standard\" or \"nesterov\"");
      return false;
    }
  }
  /* Inputs: R, T, then `groups` groups of n tensors (X, G, states...). */
  int groups = kind == OPT_ADAM ? 4 : 3, n = (x->nIn - 2) / groups;
  if (x->nIn < 2 + groups || (x->nIn - 2) % groups || (int)x->n->n_output > (groups - 1) * n) {
    NODE_ERROR(x->im, x->loc, x->n, "takes R, T and %d groups of equally many tensors (%s), and gives at most %d "
               "groups; got %d inputs and %zu outputs", groups, kind == OPT_ADAM ? "X, G, V, H" : kind == OPT_ADAGRAD ?
               "X, G, H" : "X, G, V", groups - 1, x->nIn, x->n->n_output);
    return false;
  }
  for (int i = 0; i < x->nIn; i++)
    if (mlirValueIsNull(x->in[i])) {
      NODE_ERROR(x->im, x->loc, x->n, "input #%d is empty (\"\" means absent), but every input is required", i);
      return false;
    }
  MlirType ft;
  if (!scalars(x, &ft)) return false;
  for (int i = 2; i < x->nIn; i++)
    if (!mlirTypeEqual(onnxElemOf(x->in[i]), ft)) {
      char a[64], b[64];
      strataTypeToString(onnxElemOf(x->in[i]), a, sizeof a);
      strataTypeToString(ft, b, sizeof b);
      NODE_ERROR(x->im, x->loc, x->n, "input #%d has element type %s; the tensors must have R's, %s", i, a, b);
      return false;
    }
  MlirValue r = x->in[0], tCount = x->in[1], tf = onnxCast(x, tCount, ft);
  MlirValue positive = onnxBinary(x, "nn.greater", tCount, onnxScalarConst(x, mlirIntegerTypeGet(x->im->mc, 64), 0),
                                  NULL, 0);
  /* The per-update scalars, shared by the n tensors. */
  MlirValue rate = r, gradScale = (MlirValue){NULL};
  if (kind == OPT_ADAGRAD) { /* R / (1 + T * decay_factor) */
    rate = div_(x, r, add(x, K(1), mul(x, tf, K(decay))));
  } else if (kind == OPT_ADAM) { /* T > 0: R * sqrt(1 - beta^T) / (1 - alpha^T) */
    MlirValue bt = onnxBinary(x, "nn.pow", K(beta), tf, NULL, 0), at = onnxBinary(x, "nn.pow", K(alpha), tf, NULL, 0);
    MlirValue corrected = div_(x, mul(x, r, onnxUnary(x, "nn.sqrt", sub(x, K(1), bt), NULL, 0)), sub(x, K(1), at));
    rate = onnxWhere(x, positive, corrected, r);
  } else { /* the gradient's coefficient is 1 at the first update */
    gradScale = onnxWhere(x, positive, K(beta), K(1));
  }
  for (int i = 0; i < n; i++) {
    MlirValue xv = x->in[2 + i], g = x->in[2 + n + i], s1 = x->in[2 + 2 * n + i];
    MlirValue gr = add(x, mul(x, K(norm), xv), g), newX, state1, state2 = (MlirValue){NULL};
    if (kind == OPT_ADAGRAD) {
      state1 = add(x, s1, mul(x, gr, gr));
      MlirValue hs = add(x, onnxUnary(x, "nn.sqrt", state1, NULL, 0), K(epsilon));
      newX = sub(x, xv, div_(x, mul(x, rate, gr), hs));
    } else if (kind == OPT_ADAM) {
      MlirValue h = x->in[2 + 3 * n + i];
      state1 = add(x, mul(x, K(alpha), s1), mul(x, K(1 - alpha), gr));
      state2 = add(x, mul(x, K(beta), h), mul(x, K(1 - beta), mul(x, gr, gr)));
      MlirValue hs = add(x, onnxUnary(x, "nn.sqrt", state2, NULL, 0), K(epsilon));
      newX = mul(x, K(1 - normPost), sub(x, xv, mul(x, rate, div_(x, state1, hs))));
    } else {
      state1 = add(x, mul(x, K(alpha), s1), mul(x, gradScale, gr));
      newX = sub(x, xv, mul(x, r, nesterov ? add(x, gr, mul(x, K(alpha), state1)) : state1));
    }
    /* Broadcasting the scalars keeps X's shape; a G or state of another
     * shape would change it, which the spec does not allow. */
    if (mlirValueIsNull(newX) || mlirValueIsNull(state1)) return false;
    MlirType xt = mlirValueGetType(xv);
    if (!mlirTypeEqual(mlirValueGetType(newX), xt) || !mlirTypeEqual(mlirValueGetType(state1), xt) ||
        (kind == OPT_ADAM && (mlirValueIsNull(state2) || !mlirTypeEqual(mlirValueGetType(state2), xt)))) {
      NODE_ERROR(x->im, x->loc, x->n, "tensor #%d: X, G and the optimizer states must have one shape", i);
      return false;
    }
    if (!onnxBindOutput(x, (size_t)i, newX) || !onnxBindOutput(x, (size_t)(n + i), state1) ||
        (kind == OPT_ADAM && !onnxBindOutput(x, (size_t)(2 * n + i), state2)))
      return false;
  }
  return true;
}

/* BatchNormalization with training_mode = 1 (opset 14+): normalized with
 * the batch's statistics (mean and biased variance over every axis but the
 * channel axis 1), and the running statistics updated with `momentum`:
 *   running_mean = input_mean * momentum + mean * (1 - momentum)
 *   running_var  = input_var * momentum + var * (1 - momentum). */
bool onnxImportBatchNormTraining(Node *x) {
  double epsilon, momentum;
  if (!floatAttr(x, "epsilon", 1e-5, false, &epsilon) || !floatAttr(x, "momentum", 0.9, false, &momentum)) return false;
  if (x->nIn != 5) {
    NODE_ERROR(x->im, x->loc, x->n, "takes 5 inputs (X, scale, B, input_mean, input_var), got %d", x->nIn);
    return false;
  }
  for (int i = 0; i < 5; i++)
    if (mlirValueIsNull(x->in[i])) {
      NODE_ERROR(x->im, x->loc, x->n, "input #%d is empty (\"\" means absent), but every input is required", i);
      return false;
    }
  if (!onnxNoExtraOutputs(x, 3, "saved statistics")) return false;
  int rank;
  int64_t dims[STRATA_MAX_RANK], axes[STRATA_MAX_RANK], expand[STRATA_MAX_RANK];
  MlirType ft = onnxElemOf(x->in[0]);
  if (!strataGetShape(mlirValueGetType(x->in[0]), &rank, dims) || rank < 2 || !mlirTypeIsAFloat(ft)) {
    NODE_ERROR(x->im, x->loc, x->n, "input #0 ('X') must be a ranked float tensor of rank >= 2 (N x C x ...)");
    return false;
  }
  for (int i = 1; i < 5; i++) {
    int r;
    int64_t d[STRATA_MAX_RANK];
    if (!strataGetShape(mlirValueGetType(x->in[i]), &r, d) || r != 1 || !mlirTypeEqual(onnxElemOf(x->in[i]), ft)) {
      NODE_ERROR(x->im, x->loc, x->n, "input #%d must be a 1-D tensor (one value per channel) of X's element type", i);
      return false;
    }
  }
  int nAxes = 0, nExpand = 0;
  for (int i = 0; i < rank; i++)
    if (i != 1) axes[nAxes++] = i, expand[nExpand++] = i; /* [C] -> [1, C, 1, ...] */
  MlirContext mc = x->im->mc;
  Attr keep[2] = {{"axes", mlirDenseI64ArrayGet(mc, nAxes, axes)}, {"keepdims", strataI64Attr(mc, 1)}};
  Attr drop[2] = {{"axes", mlirDenseI64ArrayGet(mc, nAxes, axes)}, {"keepdims", strataI64Attr(mc, 0)}};
  Attr unsq[1] = {{"axes", mlirDenseI64ArrayGet(mc, nExpand, expand)}};
  MlirValue xv = x->in[0];
  MlirValue meanK = onnxUnary(x, "nn.reduce_mean", xv, keep, 2), diff = sub(x, xv, meanK);
  MlirValue sq = mul(x, diff, diff), varK = onnxUnary(x, "nn.reduce_mean", sq, keep, 2);
  MlirValue scale = onnxUnary(x, "nn.unsqueeze", x->in[1], unsq, 1), bias = onnxUnary(x, "nn.unsqueeze", x->in[2], unsq, 1);
  MlirValue y = add(x, div_(x, mul(x, scale, diff), onnxUnary(x, "nn.sqrt", add(x, varK, K(epsilon)), NULL, 0)), bias);
  MlirValue mean = onnxUnary(x, "nn.reduce_mean", xv, drop, 2), var = onnxUnary(x, "nn.reduce_mean", sq, drop, 2);
  MlirValue runMean = add(x, mul(x, x->in[3], K(momentum)), mul(x, mean, K(1 - momentum)));
  MlirValue runVar = add(x, mul(x, x->in[4], K(momentum)), mul(x, var, K(1 - momentum)));
  return onnxBindValueAt(x, 0, y) && onnxBindValueAt(x, 1, runMean) && onnxBindValueAt(x, 2, runVar);
}
