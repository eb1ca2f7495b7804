/* Upsample (opsets 7-9) and Resize-10 as nn.resize: output dims
 * floor(dim * scale), source coordinate dst / scale ("asymmetric"). Nearest
 * takes the floor of it on the axes it upsamples and, in Resize-10, the
 * ceiling on the axes it downsamples (ONNX Runtime's and OpenVINO's
 * reading, the only one: the spec leaves the rounding unsaid). One
 * nn.resize has one rounding, but nearest is separable: a Resize-10 whose
 * axes go both ways resizes one axis at a time, each with its rounding, and
 * one whose scales are known only at run time resizes each axis both ways
 * and keeps, per axis, the one its scale asks for.
 *
 * Upsample's run-time scales round down (it only upsamples: a run-time
 * scale below 1 becomes 0, which nn.resize reports as a scale that is not
 * positive). Linear mode has no rounding that depends on the direction. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "onnx_internal.h"
#include "strata/builder.h"
#include "strata/support.h"

/* nn.resize(in, scales) in `mode` with asymmetric coordinates. */
static MlirValue resizeOnce(Node *x, MlirValue in, MlirValue scales, const char *mode, const char *nearestMode) {
  if (mlirValueIsNull(in) || mlirValueIsNull(scales)) return (MlirValue){NULL};
  MlirContext c = x->im->mc;
  int32_t seg[4] = {1, 0, 1, 0};
  Attr attrs[4] = {{"mode", strataStrAttr(c, mode)},
                   {"coordinate_transformation_mode", strataStrAttr(c, "asymmetric")},
                   {"nearest_mode", strataStrAttr(c, nearestMode)},
                   {"operandSegmentSizes", mlirDenseI32ArrayGet(c, 4, seg)}};
  MlirValue ins[2] = {in, scales};
  MlirOperation op = onnxBuild(x->im, x->loc, "nn.resize", ins, 2, 1, attrs, 4, onnxElemOf(in));
  return mlirOperationIsNull(op) ? (MlirValue){NULL} : strataResult(op, 0);
}

/* A rank-1 f32 constant of n values. */
static MlirValue f32Vector(Node *x, const float *v, int n) {
  int64_t len = n;
  MlirType t = mlirRankedTensorTypeGet(1, &len, mlirF32TypeGet(x->im->mc), mlirAttributeGetNull());
  return onnxConstant(x->im, x->loc, mlirDenseElementsAttrFloatGet(t, n, v));
}

/* Nearest, one axis at a time. `known` holds the scales when they are
 * constants (axes of scale 1 are skipped); otherwise `s` (1-D f32) holds
 * them at run time and every axis is resized both ways. */
static bool axisByAxis(Node *x, MlirValue s, int n, const double *known) {
  MlirValue cur = x->in[0];
  MlirType f32 = mlirF32TypeGet(x->im->mc);
  for (int a = 0; a < n && !mlirValueIsNull(cur); a++) {
    float one[STRATA_MAX_RANK];
    for (int i = 0; i < n; i++) one[i] = 1;
    if (known) {
      if (known[a] == 1) continue;
      one[a] = (float)known[a];
      cur = resizeOnce(x, cur, f32Vector(x, one, n), "nearest", known[a] < 1 ? "ceil" : "floor");
      continue;
    }
    /* this axis's scale from s, 1 on the others */
    int64_t len = n;
    MlirType bt = mlirRankedTensorTypeGet(1, &len, mlirIntegerTypeGet(x->im->mc, 1), mlirAttributeGetNull());
    int bits[STRATA_MAX_RANK];
    for (int i = 0; i < n; i++) bits[i] = i == a;
    MlirValue sa = onnxWhere(x, onnxConstant(x->im, x->loc, mlirDenseElementsAttrBoolGet(bt, n, bits)), s,
                             f32Vector(x, one, n));
    MlirValue down = onnxBinary(x, "nn.less", onnxSliceAxis(x, s, 0, a, a + 1), onnxScalarConst(x, f32, 1), NULL, 0);
    cur = onnxWhere(x, down, resizeOnce(x, cur, sa, "nearest", "ceil"), resizeOnce(x, cur, sa, "nearest", "floor"));
  }
  return !mlirValueIsNull(cur) && onnxBindOutput(x, 0, cur);
}

static bool runtimeScales(Node *x, bool upsample, const char *mode) {
  MlirValue s = x->in[1];
  MlirType st = mlirValueGetType(s), it = mlirValueGetType(x->in[0]);
  if (!mlirShapedTypeHasRank(it) || !mlirShapedTypeHasRank(st) || mlirShapedTypeGetRank(st) != 1 ||
      mlirShapedTypeGetDimSize(st, 0) != mlirShapedTypeGetRank(it) || !mlirTypeIsAFloat(onnxElemOf(s))) {
    NODE_ERROR(x->im, x->loc, x->n, "input #1 ('scales') must be a 1-D float tensor of one scale per dim of a ranked input");
    return false;
  }
  MlirType f32 = mlirF32TypeGet(x->im->mc);
  s = onnxCast(x, s, f32);
  if (!upsample && !strcmp(mode, "nearest")) return axisByAxis(x, s, (int)mlirShapedTypeGetRank(it), NULL);
  if (upsample) {
    MlirValue one = onnxScalarConst(x, f32, 1);
    s = onnxWhere(x, onnxBinary(x, "nn.greater_or_equal", s, one, NULL, 0), s, onnxScalarConst(x, f32, 0));
  }
  if (mlirValueIsNull(s)) return false;
  x->in[1] = (MlirValue){NULL};
  x->in[2] = s;
  x->in[3] = (MlirValue){NULL};
  x->nIn = 4;
  onnxDropAttr(x, "scales");
  onnxSetAttr(x, "coordinate_transformation_mode", strataStrAttr(x->im->mc, "asymmetric"));
  onnxSetAttr(x, "nearest_mode", strataStrAttr(x->im->mc, "floor"));
  snprintf(x->nn, sizeof x->nn, "nn.resize");
  return onnxDirect(x, 1);
}

bool onnxImportLegacyResize(Node *x) {
  bool upsample = !strcmp(onnxOpType(x->n), "Upsample");
  double scales[STRATA_MAX_RANK];
  int n;
  if (x->nIn > 2) {
    NODE_ERROR(x->im, x->loc, x->n, "takes at most 2 inputs (X, scales) at opset %lld", (long long)x->im->opset);
    return false;
  }
  char mode[16] = "nearest";
  const Onnx__AttributeProto *ma = onnxFindAttr(x->n, "mode");
  if (ma) snprintf(mode, sizeof mode, "%.*s", (int)(ma->s.len < 15 ? ma->s.len : 15), (const char *)ma->s.data);
  const Onnx__AttributeProto *sa = onnxFindAttr(x->n, "scales");
  MlirValue scaleValue = x->nIn > 1 ? x->in[1] : (MlirValue){NULL};
  if (!mlirValueIsNull(scaleValue)) {
    if ((n = onnxConstDoubles(scaleValue, scales, STRATA_MAX_RANK)) < 0) return runtimeScales(x, upsample, mode);
  } else if (upsample && x->im->opset < 9 && sa && sa->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS &&
             sa->n_floats <= STRATA_MAX_RANK) {
    n = (int)sa->n_floats;
    for (int i = 0; i < n; i++) scales[i] = sa->floats[i];
  } else {
    NODE_ERROR(x->im, x->loc, x->n, "needs its scales (%s at opset %lld)",
               upsample && x->im->opset < 9 ? "the 'scales' attribute" : "input #1", (long long)x->im->opset);
    return false;
  }
  MlirType it = mlirValueGetType(x->in[0]);
  if (!mlirShapedTypeHasRank(it) || mlirShapedTypeGetRank(it) != n) {
    NODE_ERROR(x->im, x->loc, x->n, "has %d scales for an input of %s rank", n,
               mlirShapedTypeHasRank(it) ? "another" : "unknown");
    return false;
  }
  bool up = false, down = false;
  for (int i = 0; i < n; i++) {
    if (!(scales[i] > 0) || !isfinite(scales[i]) || (upsample && scales[i] < 1)) {
      NODE_ERROR(x->im, x->loc, x->n, "scale %g (axis %d) is not %s", scales[i], i,
                 upsample ? "a finite value >= 1" : "a finite value > 0");
      return false;
    }
    up |= scales[i] > 1;
    down |= scales[i] < 1;
  }
  if (up && down && !strcmp(mode, "nearest")) return axisByAxis(x, (MlirValue){NULL}, n, scales);
  float f[STRATA_MAX_RANK];
  for (int i = 0; i < n; i++) f[i] = (float)scales[i];
  x->in[1] = (MlirValue){NULL};
  x->in[2] = f32Vector(x, f, n);
  x->in[3] = (MlirValue){NULL};
  x->nIn = 4;
  onnxDropAttr(x, "scales");
  onnxSetAttr(x, "coordinate_transformation_mode", strataStrAttr(x->im->mc, "asymmetric"));
  onnxSetAttr(x, "nearest_mode", strataStrAttr(x->im->mc, down ? "ceil" : "floor"));
  snprintf(x->nn, sizeof x->nn, "nn.resize");
  return onnxDirect(x, 1);
}
