/* MaxUnpool: MaxPool's inverse, scattering x into zeros at the flat
 * indices MaxPool's Indices output gave (into the whole default-shaped
 * output, N and C included, as ONNX Runtime reads them). With an
 * output_shape (constant or run-time), that default-shaped result sits at
 * the origin of zeros of output_shape, as ONNX's reference and its one
 * example do; every extent of output_shape must be at least the default. */
#include <string.h>
#include "nn_internal.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }

/* The default output extents: (in - 1) * stride + kernel - pads. */
bool nnUnpoolDims(MlirOperation op, const StrataShape *x, int64_t *out) {
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
  if (!nnUnpoolDims(op, &x, out)) return fail();
  if (nnHasOperand(def, op, "output_shape")) {
    if (!nnOperand(def, op, "output_shape", &s) || !nnCheckType(op, "output_shape", &s, NN_T(STRATA_DTYPE_I64)))
      return fail();
    if (s.rank != 1 || (s.dims[0] >= 0 && s.dims[0] != x.rank)) {
      nnError(op, "operand 'output_shape' must be 1-D with one extent per dim of 'x' (%d)", x.rank);
      return fail();
    }
    int n = nnConstInts(strataNamedOperand(def, op, "output_shape"), given, STRATA_MAX_RANK);
    if (n < 0) { /* known at run time: every extent then */
      for (int d = 0; d < x.rank; d++) out[d] = -1;
    } else {
      if (n != x.rank) {
        nnError(op, "operand 'output_shape' holds %d extents; 'x' has rank %d", n, x.rank);
        return fail();
      }
      for (int d = 0; d < x.rank; d++)
        if (out[d] >= 0 && given[d] < out[d]) {
          nnError(op, "operand 'output_shape' extent %lld along dim %d is below the default output shape's %lld "
                      "((in - 1) * stride + kernel - pads)",
                  (long long)given[d], d, (long long)out[d]);
          return fail();
        }
      memcpy(out, given, sizeof(int64_t) * (size_t)x.rank);
    }
  }
  nnSetShape(res, x.rank, out, x.elementType);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult interpUnpool(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  if (!y[0]) return nnInterpError(op, "the result shape must be known to the interpreter");
  StrataShape xs = {.rank = x[0]->rank};
  memcpy(xs.dims, x[0]->dims, sizeof(int64_t) * (size_t)xs.rank);
  int64_t dflt[STRATA_MAX_RANK], total = 1;
  if (!nnUnpoolDims(op, &xs, dflt)) return mlirLogicalResultFailure();
  for (int d = 0; d < xs.rank; d++) {
    if (y[0]->dims[d] < dflt[d])
      return nnInterpError(op, "output_shape[%d] is %lld, below the default output extent %lld", d,
                           (long long)y[0]->dims[d], (long long)dflt[d]);
    total *= dflt[d];
  }
  int64_t n = strataTensorNumElements(x[0]);
  bool isFloat = nnIsFloatDType(y[0]->dtype);
  memset(y[0]->data, 0, strataTensorNumBytes(y[0]));
  for (int64_t i = 0; i < n; i++) {
    int64_t at = nnGetInt(x[1], i);
    if (at < 0 || at >= total)
      return nnInterpError(op, "index %lld at %lld is outside the output's %lld elements", (long long)at, (long long)i,
                           (long long)total);
    /* the position in the default shape, then in y's (the same when equal) */
    int64_t to = 0, rem = at, stride = total;
    for (int d = 0; d < xs.rank; d++) {
      stride /= dflt[d];
      to = to * y[0]->dims[d] + rem / stride;
      rem %= stride;
    }
    if (isFloat) strataTensorSetDouble(y[0], to, strataTensorGetDouble(x[0], i));
    else nnSetInt(y[0], to, nnGetInt(x[0], i));
  }
  return mlirLogicalResultSuccess();
}

static const StrataOpDef kOps[] = {
    {.name = "nn.max_unpool",
     .summary = "zeros of the default unpooled shape ((in - 1) * stride + kernel - pads) with x written at the flat "
                "`indices` (of MaxPool's Indices output; later ones win); with `output_shape` (constant or run-time, "
                "each extent at least the default), that result at the origin of zeros of output_shape",
     .operands = "x, indices, output_shape?",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferUnpool,
     .interpret = interpUnpool,
     .mapping = nnMapShuffle,
     .dynamism = STRATA_DYN_ISVDOS,
     .types = "f16 bf16 f32 f64 i8 i16 i32 i64 ui8 ui16 ui32 ui64"},
};

const StrataOpTable nnUnpoolTable = {kOps, sizeof kOps / sizeof kOps[0]};
