/* libstrata_rt: decoding the unranked memrefs compiled code passes to the
 * kernels (any rank, strides, broadcast). */
#include "kernels.h"
#include "rt_internal.h"

View rtView(const StrataUnrankedMemRef *m) {
  View v;
  const StrataMemRefDesc *d = m->descriptor;
  if (m->rank < 0 || m->rank > STRATA_RT_MAX_RANK) rtError("memref rank %lld is above the runtime's maximum of %d", (long long)m->rank, STRATA_RT_MAX_RANK);
  v.rank = (int)m->rank;
  v.data = (float *)d->aligned + d->offset;
  for (int i = 0; i < v.rank; i++) {
    v.size[i] = d->sizesAndStrides[i];
    v.stride[i] = d->sizesAndStrides[v.rank + i];
  }
  return v;
}

void rtBroadcastStrides(const View *v, int rank, const int64_t *size, int64_t *out) {
  if (v->rank > rank) rtInvariant("epilogue operand has a higher rank than the result");
  for (int i = 0; i < rank; i++) {
    int d = i - (rank - v->rank);
    if (d < 0 || v->size[d] == 1) out[i] = 0;
    else if (v->size[d] == size[i]) out[i] = v->stride[d];
    else rtInvariant("epilogue operand does not broadcast to the result");
  }
}

void rtGather(float *dst, const float *src, int rank, const int64_t *size, const int64_t *stride) {
  int64_t n = 1, idx[STRATA_RT_MAX_RANK] = {0};
  for (int i = 0; i < rank; i++) n *= size[i];
  for (int64_t k = 0; k < n; k++) {
    int64_t off = 0;
    for (int i = 0; i < rank; i++) off += idx[i] * stride[i];
    dst[k] = src[off];
    for (int i = rank - 1; i >= 0 && ++idx[i] == size[i]; i--) idx[i] = 0;
  }
}
