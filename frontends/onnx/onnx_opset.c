/* Operator versions. Which opsets define each supported op type (a model
 * at opset 8 cannot use Where, added in 9; Upsample was removed in 10), and
 * the forms opsets 1-10 give the operators that later opsets changed:
 * attributes that became inputs (Pad, Slice, TopK, Reshape), Upsample and
 * Resize-10 (asymmetric coordinates, no nearest_mode), BatchNormalization's
 * `spatial` and `is_test`, Dropout's `is_test`, Scatter (ScatterElements'
 * old name), ConvTranspose's padding rules, Concat's
 * default axis and, before opset 7, binary ops' `broadcast`/`axis`.
 * Opsets 11-21 need no more than onnx_compose.c (Softmax before 13) and
 * onnx_node.c (the axes attributes before 13/18) do. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "onnx_internal.h"
#include "strata/builder.h"
#include "strata/support.h"

/* Op types that are not in every opset from 7 on: the first opset that has
 * them and the first that no longer does (0: still there). The versions are
 * ONNX's (onnx.defs since_version; Upsample deprecated in 10, Scatter in
 * 11). Every other supported op type exists in opsets 7 to 21. */
static const struct {
  const char *op;
  int since, removed;
} kVersions[] = {
    {"Acosh", 9, 0},            {"Asinh", 9, 0},               {"Atanh", 9, 0},
    {"Celu", 12, 0},            {"Cosh", 9, 0},                {"IsInf", 10, 0},
    {"Shrink", 9, 0},           {"Sinh", 9, 0},                {"ThresholdedRelu", 10, 0},
    {"Acos", 7, 0},             {"Asin", 7, 0},                {"Atan", 7, 0},
    {"Cos", 7, 0},              {"Sin", 7, 0},                 {"Tan", 7, 0},
    {"CastLike", 15, 0},        {"EyeLike", 9, 0},             {"NegativeLogLikelihoodLoss", 12, 0},
    {"SoftmaxCrossEntropyLoss", 12, 0}, {"Trilu", 14, 0},  {"OneHot", 9, 0},
    {"Einsum", 12, 0},          {"ReverseSequence", 10, 0},
    {"MeanVarianceNormalization", 9, 0}, {"GatherND", 11, 0},  {"ScatterND", 11, 0},
    {"BitShift", 11, 0},        {"ConstantOfShape", 9, 0},     {"CumSum", 11, 0},
    {"DequantizeLinear", 10, 0}, {"Erf", 9, 0},                {"Expand", 8, 0},
    {"GatherElements", 11, 0},  {"Gelu", 20, 0},               {"GreaterOrEqual", 12, 0},
    {"GroupNormalization", 18, 0}, {"HardSwish", 14, 0},       {"IsNaN", 9, 0},
    {"LayerNormalization", 17, 0}, {"LessOrEqual", 12, 0},     {"Mod", 10, 0},
    {"QuantizeLinear", 10, 0},  {"Range", 11, 0},              {"Resize", 10, 0},
    {"Round", 11, 0},           {"Scatter", 9, 11},            {"ScatterElements", 11, 0},
    {"Sign", 9, 0},             {"Upsample", 7, 10},           {"Where", 9, 0},
    {"NonZero", 9, 0},          {"Compress", 9, 0},            {"Unique", 11, 0},
    {"NonMaxSuppression", 10, 0}, {"MaxUnpool", 9, 0},       {"GridSample", 16, 0},
    {"RoiAlign", 10, 0},
    {"HannWindow", 17, 0},      {"HammingWindow", 17, 0},      {"BlackmanWindow", 17, 0},
    {"DFT", 17, 0},             {"STFT", 17, 0},               {"Det", 11, 0},
    {"Bernoulli", 15, 0},
    {"MelWeightMatrix", 17, 0},
    {"TfIdfVectorizer", 9, 0},
    {"Scan", 8, 0},
};

bool onnxCheckOpset(Importer *im, MlirLocation loc, const Onnx__NodeProto *n) {
  const char *t = onnxOpType(n);
  for (size_t i = 0; i < sizeof kVersions / sizeof kVersions[0]; i++) {
    if (strcmp(kVersions[i].op, t)) continue;
    if (im->opset < kVersions[i].since) {
      NODE_ERROR(im, loc, n, "operator '%s' is not in opset %lld (ONNX added it in opset %d)", t, (long long)im->opset,
                 kVersions[i].since);
      return false;
    }
    if (kVersions[i].removed && im->opset >= kVersions[i].removed) {
      NODE_ERROR(im, loc, n, "operator '%s' is not in opset %lld: ONNX deprecated it in opset %d (%s replaces it)", t,
                 (long long)im->opset, kVersions[i].removed, !strcmp(t, "Upsample") ? "Resize" : "ScatterElements");
      return false;
    }
  }
  return true;
}

/* Attribute `name` (INTS) as a constant i64 input #index; false after an
 * error when it is required and missing. */
static bool intsAttrToInput(Node *x, const char *name, int index, bool required) {
  const Onnx__AttributeProto *a = onnxFindAttr(x->n, name);
  if (a && a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS) {
    NODE_ERROR(x->im, x->loc, x->n, "attribute '%s' must be a list of ints", name);
    return false;
  }
  if (!a) {
    if (required) NODE_ERROR(x->im, x->loc, x->n, "needs the '%s' attribute (opset %lld)", name, (long long)x->im->opset);
    x->in[index] = (MlirValue){NULL};
    return !required;
  }
  x->in[index] = onnxI64Vector(x, a->ints, (int64_t)a->n_ints);
  onnxDropAttr(x, name);
  return true;
}

/* ---- Opset 7-10 forms ---- */

/* Pad before opset 11: `pads`, `mode` and `value` (a float) are attributes. */
static bool legacyPad(Node *x) {
  if (x->nIn != 1) {
    NODE_ERROR(x->im, x->loc, x->n, "takes one input before opset 11 (pads and value are attributes)");
    return false;
  }
  if (!intsAttrToInput(x, x->im->opset < 2 ? "paddings" : "pads", 1, true)) return false;
  const Onnx__AttributeProto *va = onnxFindAttr(x->n, "value");
  double value = va ? va->f : 0.0;
  MlirType et = mlirShapedTypeGetElementType(mlirValueGetType(x->in[0]));
  if (!mlirTypeIsAFloat(et) && (value != floor(value) || fabs(value) >= 9.2e18)) {
    NODE_ERROR(x->im, x->loc, x->n, "pad value %g is not a value of the input's integer element type", value);
    return false;
  }
  x->in[2] = onnxScalarConst(x, et, value);
  onnxDropAttr(x, "value");
  x->nIn = 3;
  return onnxDirect(x, 1);
}

/* Slice before opset 10: `starts`, `ends` and `axes` are attributes (no
 * steps). */
static bool legacySlice(Node *x) {
  if (x->nIn != 1) {
    NODE_ERROR(x->im, x->loc, x->n, "takes one input before opset 10 (starts, ends and axes are attributes)");
    return false;
  }
  if (!intsAttrToInput(x, "starts", 1, true) || !intsAttrToInput(x, "ends", 2, true) ||
      !intsAttrToInput(x, "axes", 3, false))
    return false;
  x->nIn = 4;
  return onnxDirect(x, 1);
}

/* TopK before opset 10: `k` is an attribute. */
static bool legacyTopK(Node *x) {
  const Onnx__AttributeProto *k = onnxFindAttr(x->n, "k");
  if (!k || x->nIn != 1) {
    NODE_ERROR(x->im, x->loc, x->n, "needs the 'k' attribute and one input before opset 10");
    return false;
  }
  x->in[1] = onnxI64Vector(x, &k->i, 1);
  onnxDropAttr(x, "k");
  x->nIn = 2;
  return onnxDirect(x, 2);
}

/* BatchNormalization 7-8 with spatial = 0: statistics per activation (shape
 * C x D1 x ... x Dn), so elementwise ops with numpy broadcasting over N. */
static bool legacyBatchNorm(Node *x, bool *handled) {
  const Onnx__AttributeProto *sp = onnxFindAttr(x->n, "spatial");
  onnxDropAttr(x, "spatial");
  if (!sp || sp->i) return true;
  *handled = true;
  if (!onnxNoExtraOutputs(x, 1, "training statistics")) return false;
  if (x->nIn != 5) {
    NODE_ERROR(x->im, x->loc, x->n, "needs 5 inputs");
    return false;
  }
  MlirType xt = mlirValueGetType(x->in[0]);
  int64_t rank = mlirShapedTypeHasRank(xt) ? mlirShapedTypeGetRank(xt) : -1;
  for (int i = 1; i < 5; i++) {
    if (mlirValueIsNull(x->in[i])) return false;
    MlirType t = mlirValueGetType(x->in[i]);
    if (rank < 2 || !mlirShapedTypeHasRank(t) || mlirShapedTypeGetRank(t) != rank - 1) {
      NODE_ERROR(x->im, x->loc, x->n, "with spatial = 0, input #%d must have the input's shape without the batch dim", i);
      return false;
    }
  }
  const Onnx__AttributeProto *ea = onnxFindAttr(x->n, "epsilon");
  MlirValue eps = onnxScalarConst(x, mlirShapedTypeGetElementType(xt), ea ? ea->f : 1e-5);
  /* y = (x - mean) / sqrt(var + epsilon) * scale + b */
  MlirValue d = onnxUnary(x, "nn.sqrt", onnxBinary(x, "nn.add", x->in[4], eps, NULL, 0), NULL, 0);
  MlirValue acc = onnxBinary(x, "nn.div", onnxBinary(x, "nn.sub", x->in[0], x->in[3], NULL, 0), d, NULL, 0);
  acc = onnxBinary(x, "nn.add", onnxBinary(x, "nn.mul", acc, x->in[1], NULL, 0), x->in[2], NULL, 0);
  if (mlirValueIsNull(acc)) return false;
  return onnxBindValue(x, acc);
}

/* ConvTranspose before opset 11 computed SAME padding for output = input
 * (not input * stride) and split an output_shape's odd padding the other way
 * round: neither matches the opset-11 op. Explicit pads mean the same. */
static bool legacyConvTranspose(Node *x) {
  const Onnx__AttributeProto *ap = onnxFindAttr(x->n, "auto_pad");
  bool same = ap && ap->s.len >= 4 && !strncmp((const char *)ap->s.data, "SAME", 4);
  if (same || onnxFindAttr(x->n, "output_shape")) {
    NODE_ERROR(x->im, x->loc, x->n, "%s before opset 11 is not supported (its padding rules differ from opset 11's, "
               "which Strata implements); give explicit pads or re-export at opset >= 11",
               same ? "auto_pad SAME_*" : "output_shape");
    return false;
  }
  return true;
}

/* ---- Opsets 1-6 ---- */

/* Binary ops before opset 7 broadcast only with broadcast = 1, and then B
 * to A's shape, B's dims placed at `axis` (default: the trailing dims). */
static bool legacyBroadcast(Node *x) {
  const Onnx__AttributeProto *ba = onnxFindAttr(x->n, "broadcast"), *aa = onnxFindAttr(x->n, "axis");
  onnxDropAttr(x, "broadcast");
  onnxDropAttr(x, "axis");
  if (x->nIn != 2 || mlirValueIsNull(x->in[1])) return true; /* onnxDirect reports it */
  int ra, rb;
  int64_t da[STRATA_MAX_RANK], db[STRATA_MAX_RANK];
  bool ranked = strataGetShape(mlirValueGetType(x->in[0]), &ra, da) && strataGetShape(mlirValueGetType(x->in[1]), &rb, db);
  if (!ba || !ba->i) {
    bool same = ranked && ra == rb;
    for (int i = 0; same && i < ra; i++) same = da[i] == db[i] && da[i] >= 0;
    if (!same) {
      NODE_ERROR(x->im, x->loc, x->n, "without broadcast = 1 (opset %lld) both inputs must have the same static shape",
                 (long long)x->im->opset);
      return false;
    }
    return true;
  }
  int64_t axis = aa ? aa->i : (ranked ? ra - rb : 0);
  if (!ranked || axis < 0 || axis + rb > ra) {
    NODE_ERROR(x->im, x->loc, x->n, "input #1 does not fit input #0 at axis %lld (broadcast = 1, opset %lld)",
               (long long)axis, (long long)x->im->opset);
    return false;
  }
  for (int i = 0; i < rb; i++)
    if (db[i] != 1 && db[i] != da[axis + i]) {
      NODE_ERROR(x->im, x->loc, x->n, "dim %d of input #1 (%lld) does not match dim %lld of input #0 (%lld)", i,
                 (long long)db[i], (long long)(axis + i), (long long)da[axis + i]);
      return false;
    }
  if (axis + rb == ra) return true; /* trailing dims: numpy broadcasting says the same */
  int64_t shape[STRATA_MAX_RANK];
  for (int i = 0; i < ra; i++) shape[i] = i >= axis && i < axis + rb ? db[i - axis] : 1;
  for (int i = 0; i < rb; i++)
    if (db[i] < 0) {
      NODE_ERROR(x->im, x->loc, x->n, "input #1 needs a static shape to broadcast at axis %lld", (long long)axis);
      return false;
    }
  x->in[1] = onnxBinary(x, "nn.reshape", x->in[1], onnxI64Vector(x, shape, ra), NULL, 0);
  return !mlirValueIsNull(x->in[1]);
}

/* is_test = 0 (the default) before opset 7 means training. */
static bool legacyIsTest(Node *x) {
  const Onnx__AttributeProto *a = onnxFindAttr(x->n, "is_test");
  if (!a || !a->i) {
    NODE_ERROR(x->im, x->loc, x->n, "training mode is not supported (is_test is 0 at opset %lld)", (long long)x->im->opset);
    return false;
  }
  onnxDropAttr(x, "is_test");
  return true;
}

static bool isBinaryWithBroadcastAttr(const char *t) {
  static const char *const kOps[] = {"Add", "Sub", "Mul", "Div", "Pow", "And", "Or", "Xor", "Equal", "Greater", "Less"};
  for (size_t i = 0; i < sizeof kOps / sizeof kOps[0]; i++)
    if (!strcmp(t, kOps[i])) return true;
  return false;
}

/* The opset 1-6 forms that onnxImportLegacy's later steps and the usual
 * import then take as they are (Cast's string `to` is read by importCast). */
static bool importBefore7(Node *x) {
  const char *t = onnxOpType(x->n);
  int64_t opset = x->im->opset;
  onnxDropAttr(x, "consumed_inputs"); /* an in-place hint, no semantics */
  if (isBinaryWithBroadcastAttr(t)) return legacyBroadcast(x);
  if (!strcmp(t, "BatchNormalization") || !strcmp(t, "Dropout")) return legacyIsTest(x);
  if (!strcmp(t, "Reshape") && opset < 5) {
    if (x->nIn != 1) {
      NODE_ERROR(x->im, x->loc, x->n, "takes one input before opset 5 (the shape is an attribute)");
      return false;
    }
    x->nIn = 2;
    return intsAttrToInput(x, "shape", 1, true);
  }
  if (!strcmp(t, "Concat") && opset < 4 && !onnxFindAttr(x->n, "axis"))
    onnxSetAttr(x, "axis", strataI64Attr(x->im->mc, 1));
  if (!strcmp(t, "Tile") && opset < 6) {
    NODE_ERROR(x->im, x->loc, x->n, "the opset 1 form (tiles and axis inputs) is not supported");
    return false;
  }
  return true;
}

bool onnxImportLegacy(Node *x, bool *handled) {
  const char *t = onnxOpType(x->n);
  int64_t opset = x->im->opset;
  *handled = false;
  if (opset < 7 && !importBefore7(x)) return false;
  *handled = true;
  if (!strcmp(t, "Pad") && opset < 11) return legacyPad(x);
  if (!strcmp(t, "Slice") && opset < 10) return legacySlice(x);
  if (!strcmp(t, "TopK") && opset < 10) return legacyTopK(x);
  if (!strcmp(t, "Upsample") || (!strcmp(t, "Resize") && opset < 11)) return onnxImportLegacyResize(x);
  *handled = false;
  /* RoiAlign-10 sampled as output_half_pixel; 16 named the mode */
  if (!strcmp(t, "RoiAlign") && opset < 16 && !onnxFindAttr(x->n, "coordinate_transformation_mode"))
    onnxSetAttr(x, "coordinate_transformation_mode",
                mlirStringAttrGet(x->im->mc, mlirStringRefCreateFromCString("output_half_pixel")));
  if (!strcmp(t, "BatchNormalization") && opset < 9) return legacyBatchNorm(x, handled);
  if (!strcmp(t, "ConvTranspose") && opset < 11) return legacyConvTranspose(x);
  return true;
}
