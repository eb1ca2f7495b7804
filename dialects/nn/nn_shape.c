/* Shape functions shared by nn ops (pure functions on dims; -1 is '?'). */
#include <stdio.h>
#include <string.h>
#include "nn_internal.h"

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
    *why = "contraction dimensions differ (the last dim of a vs the second-to-last dim of b)";
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

static bool readDims(MlirOperation op, const char *name, int want, int64_t *dst, int64_t minimum) {
  int64_t v[2 * NN_MAX_SPATIAL];
  int n;
  if (!nnAttrInts(op, name, v, 2 * NN_MAX_SPATIAL, &n)) return false;
  if (n == -1) return true; /* absent: keep default */
  if (n != want) {
    nnError(op, "attribute '%s' must have %d values (one per %s), got %d", name, want,
            strcmp(name, "pads") ? "spatial dim" : "spatial dim begin and end", n);
    return false;
  }
  for (int i = 0; i < want; i++) {
    if (v[i] < minimum) {
      nnError(op, "attribute '%s' has value %lld; it must be >= %lld", name, (long long)v[i],
              (long long)minimum);
      return false;
    }
    dst[i] = v[i];
  }
  return true;
}

bool nn_get_window(MlirOperation op, int spatial, const int64_t *kernel, NnWindow *w) {
  memset(w, 0, sizeof *w);
  w->spatial = spatial;
  for (int i = 0; i < spatial; i++) {
    w->strides[i] = w->dilations[i] = 1;
    w->kernel[i] = kernel ? kernel[i] : -1;
  }
  w->group = 1;
  int64_t ceil = 0;
  if (!readDims(op, "strides", spatial, w->strides, 1) ||
      !readDims(op, "dilations", spatial, w->dilations, 1) ||
      !readDims(op, "pads", 2 * spatial, w->pads, 0) || !nnAttrInt(op, "group", 1, &w->group) ||
      !nnAttrInt(op, "ceil_mode", 0, &ceil) ||
      !nnAttrString(op, "auto_pad", "NOTSET", "NOTSET|SAME_UPPER|SAME_LOWER|VALID", w->autoPad,
                    sizeof w->autoPad))
    return false;
  w->ceilMode = ceil != 0;
  if (w->group < 1) {
    nnError(op, "attribute 'group' must be a positive integer");
    return false;
  }
  int64_t ks[NN_MAX_SPATIAL];
  int nk;
  if (!nnAttrInts(op, "kernel_shape", ks, NN_MAX_SPATIAL, &nk)) return false;
  if (nk != -1) {
    if (nk != spatial) {
      nnError(op, "attribute 'kernel_shape' must have %d values, got %d", spatial, nk);
      return false;
    }
    for (int i = 0; i < spatial; i++) {
      if (ks[i] < 1 || (kernel && kernel[i] != -1 && kernel[i] != ks[i])) {
        nnError(op, "attribute 'kernel_shape' value %lld at %d does not match the kernel (%lld)",
                (long long)ks[i], i, (long long)(kernel ? kernel[i] : -1));
        return false;
      }
      w->kernel[i] = ks[i];
    }
  } else if (!kernel) {
    nnError(op, "attribute 'kernel_shape' is required");
    return false;
  }
  if (strcmp(w->autoPad, "NOTSET") != 0) {
    MlirAttribute pads = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("pads"));
    if (!mlirAttributeIsNull(pads)) {
      nnError(op, "attributes 'pads' and 'auto_pad' = %s cannot be used together", w->autoPad);
      return false;
    }
  }
  return true;
}

/* (k - 1) * dilation + 1, the extent of a dilated window; false on overflow. */
static bool windowSpan(int64_t k, int64_t dilation, int64_t *span) {
  return strataCheckedMul(k - 1, dilation, span) && strataCheckedAdd(*span, 1, span);
}

bool nn_infer_window_output(NnWindow *w, const int64_t *in, int64_t *out, const char **why) {
  static const char *const kTooLarge = "shape is too large (the window arithmetic overflows int64)";
  for (int i = 0; i < w->spatial; i++) {
    int64_t k = w->kernel[i], s = w->strides[i], span, padded;
    if (in[i] == -1 || k == -1) {
      out[i] = -1;
      continue;
    }
    if (!windowSpan(k, w->dilations[i], &span)) {
      *why = kTooLarge;
      return false;
    }
    if (!strcmp(w->autoPad, "SAME_UPPER") || !strcmp(w->autoPad, "SAME_LOWER")) {
      out[i] = in[i] / s + (in[i] % s != 0);
      /* (out - 1) * s + span - in, with (out - 1) * s < in so nothing overflows. */
      int64_t total = span - (in[i] - (out[i] - 1) * s);
      if (total < 0) total = 0;
      int64_t small = total / 2, big = total - small;
      bool upper = !strcmp(w->autoPad, "SAME_UPPER");
      w->pads[i] = upper ? small : big;
      w->pads[i + w->spatial] = upper ? big : small;
      continue;
    }
    if (!strcmp(w->autoPad, "VALID")) w->pads[i] = w->pads[i + w->spatial] = 0;
    if (!strataCheckedAdd(in[i], w->pads[i], &padded) ||
        !strataCheckedAdd(padded, w->pads[i + w->spatial], &padded)) {
      *why = kTooLarge;
      return false;
    }
    if (padded < span) {
      *why = "the dilated window is larger than the padded input";
      return false;
    }
    int64_t n = padded - span, last;
    out[i] = n / s + (w->ceilMode && n % s != 0) + 1;
    /* As PyTorch and ONNX Runtime: with ceil_mode, the last window must start
     * inside the input or the begin padding. */
    if (w->ceilMode && (!strataCheckedMul(out[i] - 1, s, &last) || last >= in[i] + w->pads[i])) out[i]--;
  }
  return true;
}
