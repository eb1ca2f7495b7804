/* nn.check_range: x itself, once every element is known to lie in
 * [min, max] (a located run-time error otherwise). Importers put it on
 * run-time operands whose range ONNX restricts and whose use would
 * otherwise read past a tensor or silently clamp (Scan-8's sequence_lens). */
#include <string.h>
#include "nn_internal.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }

static bool bounds(MlirOperation op, int64_t *lo, int64_t *hi) {
  if (!nnAttrInt(op, "min", INT64_MIN, lo) || !nnAttrInt(op, "max", INT64_MAX, hi)) return false;
  if (*lo > *hi) {
    nnError(op, "attribute 'min' (%lld) is above 'max' (%lld)", (long long)*lo, (long long)*hi);
    return false;
  }
  return true;
}

static MlirLogicalResult inferCheck(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  int64_t lo, hi;
  if (!nnOperand(def, op, "x", &x) ||
      !nnCheckType(op, "x", &x, NN_T(STRATA_DTYPE_I8) | NN_T(STRATA_DTYPE_I16) | NN_T(STRATA_DTYPE_I32) | NN_T(STRATA_DTYPE_I64)) ||
      !bounds(op, &lo, &hi))
    return fail();
  res[0] = x;
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult interpCheck(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  int64_t lo, hi, n = strataTensorNumElements(x[0]);
  if (!bounds(op, &lo, &hi)) return fail();
  for (int64_t i = 0; i < n; i++) {
    int64_t v = nnGetInt(x[0], i);
    if (v < lo || v > hi)
      return nnInterpError(op, "element %lld of operand 'x' is %lld, outside [%lld, %lld]", (long long)i, (long long)v,
                           (long long)lo, (long long)hi);
  }
  memcpy(y[0]->data, x[0]->data, strataTensorNumBytes(x[0]));
  return mlirLogicalResultSuccess();
}

/* Not pure: the check must stay even where nothing reads its result. */
static const StrataOpDef kOps[] = {
    {.name = "nn.check_range",
     .summary = "x unchanged, after a run-time check that every element lies in [`min`, `max`] (a located error "
                "otherwise)",
     .operands = "x",
     .results = "y",
     .infer = inferCheck,
     .interpret = interpCheck,
     .mapping = nnMapOneToOne,
     .dynamism = STRATA_DYN_ISDO,
     .types = "i8 i16 i32 i64"},
};

const StrataOpTable nnCheckTable = {kOps, sizeof kOps / sizeof kOps[0]};
