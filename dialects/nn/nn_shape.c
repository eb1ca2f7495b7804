/* Shape inference for nn ops (pure functions on dims; -1 is '?'). */
#include <stdio.h>
#include "strata/nn.h"
#include "strata/support.h"
#include "strata/context.h"

bool nn_infer_broadcast_shape(const int64_t *a, int rankA, const int64_t *b, int rankB,
                              int64_t *out, int *rankOut, int *badDim) {
  int r = rankA > rankB ? rankA : rankB;
  for (int i = 0; i < r; i++) {
    int ia = i - (r - rankA), ib = i - (r - rankB);
    int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
    if (da == 1) out[i] = db;
    else if (db == 1) out[i] = da;
    else if (da == -1) out[i] = db;  /* '?' must equal the other, known size */
    else if (db == -1 || da == db) out[i] = da;
    else {
      *badDim = i;
      return false;
    }
  }
  *rankOut = r;
  return true;
}

bool nn_infer_matmul_shape(const int64_t *a, int rankA, const int64_t *b, int rankB,
                           int64_t *out, int *rankOut, const char **why) {
  if (rankA < 1 || rankB < 1) {
    *why = "operands must have rank >= 1";
    return false;
  }
  /* 1-D operands are promoted: a -> [1, K], b -> [K, 1], the added dim removed after. */
  int64_t ka = a[rankA - 1], kb = rankB == 1 ? b[0] : b[rankB - 2];
  if (ka != -1 && kb != -1 && ka != kb) {
    *why = "contraction dimensions differ (lhs last dim vs rhs second-to-last dim)";
    return false;
  }
  int batchA = rankA > 2 ? rankA - 2 : 0, batchB = rankB > 2 ? rankB - 2 : 0, rb, bad;
  int64_t batch[STRATA_MAX_RANK];
  if (!nn_infer_broadcast_shape(a, batchA, b, batchB, batch, &rb, &bad)) {
    *why = "batch dimensions do not broadcast";
    return false;
  }
  int r = 0;
  for (int i = 0; i < rb; i++) out[r++] = batch[i];
  if (rankA >= 2) out[r++] = a[rankA - 2];
  if (rankB >= 2) out[r++] = b[rankB - 1];
  if (r > STRATA_MAX_RANK) {
    *why = "rank too large";
    return false;
  }
  *rankOut = r;
  return true;
}

static bool readPair(MlirOperation op, const char *name, int want, int64_t *dst, int64_t minimum) {
  int64_t v[4];
  int n = strataGetI64Array(op, name, v, 4);
  if (n == -1) return true; /* absent: keep default */
  if (n != want) {
    strataEmitError(mlirOperationGetLocation(op),
                    "'nn.conv2d' op attribute '%s' must be an array of %d integers", name, want);
    return false;
  }
  for (int i = 0; i < want; i++) {
    if (v[i] < minimum) {
      strataEmitError(mlirOperationGetLocation(op),
                      "'nn.conv2d' op attribute '%s' has value %lld; it must be >= %lld", name,
                      (long long)v[i], (long long)minimum);
      return false;
    }
    dst[i] = v[i];
  }
  return true;
}

bool nn_get_conv2d_params(MlirOperation op, NnConv2dParams *p) {
  *p = (NnConv2dParams){{1, 1}, {0, 0, 0, 0}, {1, 1}, 1};
  if (!readPair(op, "strides", 2, p->strides, 1) || !readPair(op, "pads", 4, p->pads, 0) ||
      !readPair(op, "dilations", 2, p->dilations, 1))
    return false;
  MlirAttribute g = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("groups"));
  if (!mlirAttributeIsNull(g) && (!strataGetI64(op, "groups", &p->groups) || p->groups < 1)) {
    strataEmitError(mlirOperationGetLocation(op),
                    "'nn.conv2d' op attribute 'groups' must be a positive integer");
    return false;
  }
  return true;
}

bool nn_infer_conv2d_shape(const int64_t x[4], const int64_t w[4], const NnConv2dParams *p,
                           int64_t out[4], const char **why) {
  int64_t g = p->groups;
  if (x[1] != -1 && x[1] % g != 0) {
    *why = "input channels are not divisible by groups";
    return false;
  }
  if (w[0] != -1 && w[0] % g != 0) {
    *why = "filter output channels (dim 0) are not divisible by groups";
    return false;
  }
  if (x[1] != -1 && w[1] != -1 && w[1] * g != x[1]) {
    *why = "filter dim 1 must equal input channels / groups";
    return false;
  }
  out[0] = x[0];
  out[1] = w[0];
  for (int i = 0; i < 2; i++) {
    int64_t in = x[2 + i], k = w[2 + i];
    if (in == -1 || k == -1) {
      out[2 + i] = -1;
      continue;
    }
    int64_t padded = in + p->pads[i] + p->pads[i + 2];
    int64_t span = (k - 1) * p->dilations[i] + 1;
    if (padded < span) {
      *why = "the dilated filter is larger than the padded input";
      return false;
    }
    out[2 + i] = (padded - span) / p->strides[i] + 1;
  }
  return true;
}
