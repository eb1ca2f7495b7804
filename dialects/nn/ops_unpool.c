/* MaxUnpool: MaxPool's inverse, scattering x into zeros at the flat
 * indices MaxPool's Indices output gave (into the whole output tensor, N
 * and C included, as ONNX Runtime reads them). */
#include <string.h>
#include "nn_internal.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }

/* The default output extents: (in - 1) * stride + kernel - pads. */
static bool unpoolDims(MlirOperation op, const StrataShape *x, int64_t *out) {
  NnWindow w;
  int sp = x->rank - 2;
  if (sp < 1 || sp > NN_MAX_SPATIAL) {
    nnError(op, "operand 'x' must have rank 3 to 5 (N x C x spatial...)");
    return false;
  }
  if (!nn_get_window(op, sp, NULL, &w)) return false;
  out[0] = x->dims[0], out[1] = x->dims[1];
  for (int i = 0; i < sp; i++) {
    int64_t in = x->dims[2 + i], e;
    if (in == -1) {
      out[2 + i] = -1;
      continue;
    }
    if (in == 0 || !nnDimMul(op, in - 1, w.strides[i], &e) || !nnDimAdd(op, e, w.kernel[i] - w.pads[i] - w.pads[sp + i], &e))
      return nnError(op, "spatial dim %d of operand 'x' (%lld) gives no output", i, (long long)in), false;
    if (e < 1) return nnError(op, "pads leave no output along spatial dim %d", i), false;
    out[2 + i] = e;
  }
  return true;
}

static MlirLogicalResult inferUnpool(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, idx, s;
  if (!nnOperand(def, op, "x", &x) || !nnOperand(def, op, "indices", &idx) || !nnCheckType(op, "x", &x, NN_NUMERIC) ||
      !nnCheckType(op, "indices", &idx, NN_T(STRATA_DTYPE_I64)))
    return fail();
  bool same = idx.rank == x.rank;
  for (int d = 0; same && d < x.rank; d++) same = idx.dims[d] == x.dims[d];
  if (!same) {
    char dx[300], di[300];
    nnError(op, "%s must have the shape of %s", nnDescribe("indices", &idx, di, sizeof di), nnDescribe("x", &x, dx, sizeof dx));
    return fail();
  }
  int64_t out[STRATA_MAX_RANK], given[STRATA_MAX_RANK];
  if (!unpoolDims(op, &x, out)) return fail();
  if (nnHasOperand(def, op, "output_shape")) {
    /* ONNX's one example of a larger output_shape decodes the indices in the
     * default shape and pads after them; the spec says they index the
     * original input. Only the default shape is taken. */
    if (!nnOperand(def, op, "output_shape", &s)) return fail();
    int n = nnConstInts(strataNamedOperand(def, op, "output_shape"), given, STRATA_MAX_RANK);
    bool equal = n == x.rank;
    for (int d = 0; equal && d < n; d++) equal = given[d] == out[d];
    if (!equal) {
      nnError(op, "operand 'output_shape' must be a constant equal to the default output shape (an output shape "
                  "other than (in - 1) * stride + kernel - pads is not supported: ONNX leaves where the indices "
                  "point in it open)");
      return fail();
    }
  }
  nnSetShape(res, x.rank, out, x.elementType);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult interpUnpool(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  int64_t n = strataTensorNumElements(x[0]), total = strataTensorNumElements(y[0]);
  bool isFloat = nnIsFloatDType(y[0]->dtype);
  memset(y[0]->data, 0, strataTensorNumBytes(y[0]));
  for (int64_t i = 0; i < n; i++) {
    int64_t at = nnGetInt(x[1], i);
    if (at < 0 || at >= total)
      return nnInterpError(op, "index %lld at %lld is outside the output's %lld elements", (long long)at, (long long)i,
                           (long long)total);
    if (isFloat) strataTensorSetDouble(y[0], at, strataTensorGetDouble(x[0], i));
    else nnSetInt(y[0], at, nnGetInt(x[0], i));
  }
  return mlirLogicalResultSuccess();
}

static const StrataOpDef kOps[] = {
    {.name = "nn.max_unpool",
     .summary = "zeros of the default unpooled shape ((in - 1) * stride + kernel - pads) with x written at the flat "
                "`indices` (of MaxPool's Indices output; later ones win)",
     .operands = "x, indices, output_shape?",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferUnpool,
     .interpret = interpUnpool,
     .mapping = nnMapShuffle,
     .dynamism = STRATA_DYN_ISDOS,
     .types = "f16 bf16 f32 f64 i8 i16 i32 i64 ui8 ui16 ui32 ui64"},
};

const StrataOpTable nnUnpoolTable = {kOps, sizeof kOps / sizeof kOps[0]};
