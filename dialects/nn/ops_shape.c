/* Constants and shape computation: Constant, Shape, Size, ConstantOfShape,
 * Range. */
#include <math.h>
#include <string.h>
#include "nn_internal.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }
static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

/* ---- Constant ---- */

static MlirLogicalResult inferConstant(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  (void)def;
  MlirAttribute v = strataOpAttr(op, "value");
  MlirType t = mlirAttributeGetType(v);
  if (!strataGetShape(t, &res->rank, res->dims)) {
    nnError(op, "attribute 'value' must be a ranked tensor");
    return fail();
  }
  res->elementType = mlirShapedTypeGetElementType(t);
  return ok();
}

static MlirLogicalResult interpConstant(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                        StrataTensor **y) {
  (void)in; (void)x;
  StrataTensor *t = strataTensorFromAttr(strataOpAttr(op, "value"));
  if (!t) return nnInterpError(op, "the interpreter cannot read this attribute's elements");
  memcpy(y[0]->data, t->data, strataTensorNumBytes(t));
  strataTensorDestroy(t);
  return ok();
}

/* ---- Shape / Size ---- */

void nnShapeRange(MlirOperation op, int rank, int64_t *start, int64_t *end) {
  nnAttrInt(op, "start", 0, start);
  nnAttrInt(op, "end", rank, end);
  if (*start < 0) *start += rank;
  if (*end < 0) *end += rank;
  *start = *start < 0 ? 0 : *start > rank ? rank : *start;
  *end = *end < 0 ? 0 : *end > rank ? rank : *end;
  if (*end < *start) *end = *start;
}

static MlirLogicalResult inferShape(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  int64_t s, e;
  if (!nnOperand(def, op, "data", &x) || !nnAttrInt(op, "start", 0, &s) || !nnAttrInt(op, "end", 0, &e))
    return fail();
  nnShapeRange(op, x.rank, &s, &e);
  int64_t n = e - s;
  nnSetShape(res, 1, &n, mlirIntegerTypeGet(mlirOperationGetContext(op), 64));
  return ok();
}

static MlirLogicalResult interpShape(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                     StrataTensor **y) {
  (void)in;
  int64_t s, e;
  nnShapeRange(op, x[0]->rank, &s, &e);
  for (int64_t i = s; i < e; i++) nnSetInt(y[0], i - s, x[0]->dims[i]);
  return ok();
}

static MlirLogicalResult inferSize(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  if (!nnOperand(def, op, "data", &x)) return fail();
  nnSetShape(res, 0, NULL, mlirIntegerTypeGet(mlirOperationGetContext(op), 64));
  return ok();
}

static MlirLogicalResult interpSize(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                    StrataTensor **y) {
  (void)in; (void)op;
  nnSetInt(y[0], 0, strataTensorNumElements(x[0]));
  return ok();
}

/* ---- ConstantOfShape ---- */

static MlirLogicalResult inferConstantOfShape(const StrataOpDef *def, MlirOperation op,
                                              StrataShape *res) {
  StrataShape s;
  if (!nnOperand(def, op, "input", &s) || !nnCheckType(op, "input", &s, NN_T(STRATA_DTYPE_I64)))
    return fail();
  if (s.rank != 1 || s.dims[0] == -1 || s.dims[0] > STRATA_MAX_RANK) {
    nnError(op, "operand 'input' must be a 1-D i64 tensor of static length <= %d", STRATA_MAX_RANK);
    return fail();
  }
  MlirAttribute v = strataOpAttr(op, "value");
  MlirType et = mlirF32TypeGet(mlirOperationGetContext(op));
  if (!mlirAttributeIsNull(v)) {
    if (!mlirAttributeIsADenseElements(v) || mlirElementsAttrGetNumElements(v) != 1) {
      nnError(op, "attribute 'value' must be a one-element tensor");
      return fail();
    }
    et = mlirShapedTypeGetElementType(mlirAttributeGetType(v));
  }
  int64_t dims[STRATA_MAX_RANK];
  int n = nnConstInts(strataNamedOperand(def, op, "input"), dims, STRATA_MAX_RANK);
  for (int i = 0; i < s.dims[0]; i++) {
    if (n < 0) dims[i] = -1;
    else if (dims[i] < 0) {
      nnError(op, "shape value %lld at %d is negative", (long long)dims[i], i);
      return fail();
    }
  }
  nnSetShape(res, (int)s.dims[0], dims, et);
  return ok();
}

static MlirLogicalResult interpConstantOfShape(StrataInterp *in, MlirOperation op,
                                               StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  double value = 0;
  MlirAttribute v = strataOpAttr(op, "value");
  if (!mlirAttributeIsNull(v)) {
    StrataTensor *t = strataTensorFromAttr(v);
    if (!t) return nnInterpError(op, "cannot read attribute 'value'");
    value = strataTensorGetDouble(t, 0);
    strataTensorDestroy(t);
  }
  if (!y[0]) {
    int64_t dims[STRATA_MAX_RANK];
    for (int i = 0; i < x[0]->dims[0]; i++) dims[i] = nnGetInt(x[0], i);
    MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
    y[0] = strataTensorCreate(strataDTypeFromMlir(mlirShapedTypeGetElementType(rt)),
                              (int)x[0]->dims[0], dims);
    if (!y[0]) return nnInterpError(op, "cannot allocate the result");
  }
  for (int64_t i = 0; i < strataTensorNumElements(y[0]); i++) strataTensorSetDouble(y[0], i, value);
  return ok();
}

/* ---- Range ---- */

/* max(ceil((limit - start) / delta), 0) elements; false after an error when
 * that does not fit int64 (a float range can ask for any count). */
static bool rangeCount(MlirOperation op, double start, double limit, double delta, int64_t *n) {
  double count = ceil((limit - start) / delta);
  *n = 0;
  if (!(count > 0) || strataDoubleToInt64(count, n)) return true;
  nnError(op, "shape is too large: the range has %g elements", count);
  return false;
}

static MlirLogicalResult inferRange(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape s, l, d;
  unsigned types = NN_FLOAT | NN_T(STRATA_DTYPE_I32) | NN_T(STRATA_DTYPE_I64);
  if (!nnOperand(def, op, "start", &s) || !nnOperand(def, op, "limit", &l) ||
      !nnOperand(def, op, "delta", &d) || !nnCheckType(op, "start", &s, types) ||
      !nnSameType(op, "start", &s, "limit", &l) || !nnSameType(op, "start", &s, "delta", &d))
    return fail();
  if (s.rank || l.rank || d.rank) {
    nnError(op, "operands 'start', 'limit' and 'delta' must be scalars (rank 0)");
    return fail();
  }
  double vs, vl, vd;
  int64_t n = -1;
  if (nnConstDoubles(strataNamedOperand(def, op, "start"), &vs, 1) == 1 &&
      nnConstDoubles(strataNamedOperand(def, op, "limit"), &vl, 1) == 1 &&
      nnConstDoubles(strataNamedOperand(def, op, "delta"), &vd, 1) == 1) {
    if (vd == 0) {
      nnError(op, "operand 'delta' is zero");
      return fail();
    }
    if (!rangeCount(op, vs, vl, vd, &n)) return fail();
  }
  nnSetShape(res, 1, &n, s.elementType);
  return ok();
}

static MlirLogicalResult interpRange(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                     StrataTensor **y) {
  (void)in;
  double s = strataTensorGetDouble(x[0], 0), l = strataTensorGetDouble(x[1], 0),
         d = strataTensorGetDouble(x[2], 0);
  if (d == 0) return nnInterpError(op, "operand 'delta' is zero");
  int64_t n;
  if (!rangeCount(op, s, l, d, &n)) return fail();
  if (!y[0]) y[0] = strataTensorCreate(x[0]->dtype, 1, &n);
  if (!y[0] || y[0]->dims[0] != n) return nnInterpError(op, "result length disagrees with %lld", (long long)n);
  for (int64_t i = 0; i < n; i++) {
    if (nnIsFloatDType(x[0]->dtype)) strataTensorSetDouble(y[0], i, s + (double)i * d);
    else nnSetInt(y[0], i, (int64_t)((uint64_t)nnGetInt(x[0], 0) + (uint64_t)i * (uint64_t)nnGetInt(x[2], 0)));
  }
  return ok();
}

static const StrataAttrDef kConstantAttrs[] = {
    {"value", STRATA_ATTR_ELEMENTS, 0, NULL, "the tensor"},
};

static const StrataOpDef kOps[] = {
    {.name = "nn.constant",
     .summary = "a compile-time tensor (weights): `value` is a dense or resource elements attribute",
     .operands = "",
     .results = "output",
     .flags = STRATA_OP_PURE | STRATA_OP_CONSTANT,
     .infer = inferConstant,
     .interpret = interpConstant,
     .mapping = nnMapOneToOne,
     .dynamism = STRATA_DYN_ISDO,
     .types = "f16 bf16 f32 f64 i1 i8 i16 i32 i64 ui8 ui16 ui32 ui64",
     .attrs = kConstantAttrs,
     .numAttrs = sizeof kConstantAttrs / sizeof kConstantAttrs[0]},
    {.name = "nn.shape",
     .summary = "the input's shape (dims start..end) as a 1-D i64 tensor",
     .operands = "data",
     .results = "shape",
     .flags = STRATA_OP_PURE,
     .infer = inferShape,
     .interpret = interpShape,
     .mapping = nnMapReorganize,
     .dynamism = STRATA_DYN_ISDO,
     .types = "any"},
    {.name = "nn.size",
     .summary = "the input's element count as an i64 scalar",
     .operands = "data",
     .results = "size",
     .flags = STRATA_OP_PURE,
     .infer = inferSize,
     .interpret = interpSize,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDO,
     .types = "any"},
    {.name = "nn.constant_of_shape",
     .summary = "a tensor of the shape given by the 1-D i64 input, filled with `value` " "(default 0.0 f32)",
     .operands = "input",
     .results = "output",
     .flags = STRATA_OP_PURE,
     .infer = inferConstantOfShape,
     .interpret = interpConstantOfShape,
     .mapping = nnMapOneToMany,
     .dynamism = STRATA_DYN_ISDO,
     .types = "i64 -> any"},
    {.name = "nn.range",
     .summary = "start, start+delta, ... up to (not including) limit; scalars in, 1-D out",
     .operands = "start, limit, delta",
     .results = "output",
     .flags = STRATA_OP_PURE,
     .infer = inferRange,
     .interpret = interpRange,
     .mapping = nnMapOneToMany,
     .dynamism = STRATA_DYN_ISVDOS,
     .types = "f16 bf16 f32 f64 i32 i64"},
};

const StrataOpTable nnShapeTable = {kOps, sizeof kOps / sizeof kOps[0]};
