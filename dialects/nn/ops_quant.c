/* Quantization: QuantizeLinear and DequantizeLinear, per-tensor (scale of
 * rank 0 or [1]) or per-axis (1-D scale along `axis`, default 1). */
#include <math.h>
#include <string.h>
#include "nn_internal.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }
static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

/* Checks scale (and zero point) against x; *perAxis gets the axis or -1. */
static bool quantParams(const StrataOpDef *def, MlirOperation op, const StrataShape *x,
                        const char *scaleName, const char *zpName, unsigned scaleTypes,
                        StrataShape *scale, StrataShape *zp, bool *hasZp, int64_t *perAxis) {
  int64_t axis;
  if (!nnOperand(def, op, scaleName, scale) || !nnCheckType(op, scaleName, scale, scaleTypes) ||
      !nnAttrInt(op, "axis", 1, &axis))
    return false;
  *hasZp = nnHasOperand(def, op, zpName);
  if (*hasZp && (!nnOperand(def, op, zpName, zp) || !nnCheckType(op, zpName, zp, NN_T(STRATA_DTYPE_I8) | NN_U8 | NN_T(STRATA_DTYPE_I32))))
    return false;
  bool perTensor = scale->rank == 0 || (scale->rank == 1 && scale->dims[0] == 1);
  *perAxis = -1;
  if (!perTensor) {
    if (scale->rank != 1 || !nnNormalizeAxis(op, "axis", &axis, x->rank)) {
      if (scale->rank != 1) nnError(op, "operand '%s' must be a scalar, [1], or 1-D along 'axis'", scaleName);
      return false;
    }
    if (scale->dims[0] != -1 && x->dims[axis] != -1 && scale->dims[0] != x->dims[axis]) {
      nnError(op, "operand '%s' has %lld values; axis %lld has %lld", scaleName, (long long)scale->dims[0],
              (long long)axis, (long long)x->dims[axis]);
      return false;
    }
    *perAxis = axis;
  }
  if (*hasZp) {
    bool same = zp->rank == scale->rank;
    for (int i = 0; same && i < zp->rank; i++) same = zp->dims[i] == scale->dims[i];
    if (!same) {
      char dz[300], ds[300];
      nnError(op, "%s must have the shape of %s", nnDescribe(zpName, zp, dz, sizeof dz),
              nnDescribe(scaleName, scale, ds, sizeof ds));
      return false;
    }
  }
  return true;
}

static MlirLogicalResult inferQuantize(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, s, z;
  bool hasZp;
  int64_t axis, saturate;
  if (!nnOperand(def, op, "x", &x) || !nnCheckType(op, "x", &x, NN_FLOAT) ||
      !quantParams(def, op, &x, "y_scale", "y_zero_point", NN_FLOAT, &s, &z, &hasZp, &axis) ||
      !nnAttrInt(op, "saturate", 1, &saturate))
    return fail();
  *res = x;
  res->elementType = hasZp ? z.elementType : mlirIntegerTypeUnsignedGet(mlirOperationGetContext(op), 8);
  if (nnDType(res) == STRATA_DTYPE_I32) {
    nnError(op, "quantizing to i32 is not supported (i8 or ui8)");
    return fail();
  }
  return ok();
}

static MlirLogicalResult inferDequantize(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, s, z;
  bool hasZp;
  int64_t axis;
  if (!nnOperand(def, op, "x", &x) ||
      !nnCheckType(op, "x", &x, NN_T(STRATA_DTYPE_I8) | NN_U8 | NN_T(STRATA_DTYPE_I32)) ||
      !quantParams(def, op, &x, "x_scale", "x_zero_point", NN_FLOAT, &s, &z, &hasZp, &axis))
    return fail();
  if (hasZp && !nnSameType(op, "x", &x, "x_zero_point", &z)) return fail();
  *res = x;
  res->elementType = s.elementType;
  return ok();
}

static int64_t paramIndex(const StrataTensor *scale, const StrataTensor *x, const int64_t *idx, int64_t axis) {
  (void)x;
  return strataTensorNumElements(scale) == 1 ? 0 : idx[axis];
}

static MlirLogicalResult interpQuant(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                     StrataTensor **y) {
  (void)in;
  bool quantize = mlirIdentifierStr(mlirOperationGetName(op)).data[3] == 'q';
  int64_t axis;
  nnAttrInt(op, "axis", 1, &axis);
  if (axis < 0) axis += x[0]->rank;
  const StrataTensor *zp = mlirOperationGetNumOperands(op) == 3 ? x[2] : NULL;
  StrataDType qt = quantize ? y[0]->dtype : x[0]->dtype;
  double lo = qt == STRATA_DTYPE_U8 ? 0 : qt == STRATA_DTYPE_I8 ? -128 : -2147483648.0;
  double hi = qt == STRATA_DTYPE_U8 ? 255 : qt == STRATA_DTYPE_I8 ? 127 : 2147483647.0;
  int64_t idx[STRATA_MAX_RANK] = {0}, n = strataTensorNumElements(x[0]);
  for (int64_t e = 0; e < n; e++, nnNextIndex(idx, x[0]->dims, x[0]->rank)) {
    int64_t p = paramIndex(x[1], x[0], idx, axis);
    double s = strataTensorGetDouble(x[1], p), z = zp ? (double)nnGetInt(zp, p) : 0;
    if (quantize) {
      double v = nearbyint(strataTensorGetDouble(x[0], e) / s) + z;
      v = isnan(v) ? 0 : fmin(fmax(v, lo), hi);
      nnSetInt(y[0], e, strataDoubleToInt64Saturated(v));
    } else {
      strataTensorSetDouble(y[0], e, ((double)nnGetInt(x[0], e) - z) * s);
    }
  }
  return ok();
}

static const StrataOpDef kOps[] = {
    {.name = "nn.quantize_linear",
     .summary = "saturate(round_half_even(x / y_scale) + y_zero_point) to ui8 (default) " "or i8; per-tensor or per-axis",
     .operands = "x, y_scale, y_zero_point?",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferQuantize,
     .interpret = interpQuant,
     .mapping = nnMapOneToOne,
     .dynamism = STRATA_DYN_ISDOS,
     .types = "f16 bf16 f32 f64 -> i8 ui8"},
    {.name = "nn.dequantize_linear",
     .summary = "(x - x_zero_point) * x_scale; per-tensor or per-axis",
     .operands = "x, x_scale, x_zero_point?",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferDequantize,
     .interpret = interpQuant,
     .mapping = nnMapOneToOne,
     .dynamism = STRATA_DYN_ISDOS,
     .types = "i8 ui8 i32 -> f16 f32 f64"},
};

const StrataOpTable nnQuantTable = {kOps, sizeof kOps / sizeof kOps[0]};
