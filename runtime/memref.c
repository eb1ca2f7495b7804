/* libstrata_rt: memref descriptors for calling compiled code. */
#include <string.h>
#include "kernels.h"
#include "memref.h"

int strataRtMemRefInit(StrataMemRefDesc *d, void *data, int rank, const int64_t *dims) {
  if (rank < 0 || rank > STRATA_RT_MAX_RANK) return -1;
  d->allocated = data;
  d->aligned = data;
  d->offset = 0;
  int64_t stride = 1;
  for (int i = rank - 1; i >= 0; i--) {
    d->sizesAndStrides[i] = dims[i];
    d->sizesAndStrides[rank + i] = stride;
    stride *= dims[i];
  }
  return 0;
}

/* memref.copy between non-contiguous memrefs: what MLIR's lowering calls
 * (`memrefCopy` of libmlir_c_runner_utils), so AOT objects need no MLIR
 * library. Same element size, same shape. */
void memrefCopy(int64_t elemSize, StrataUnrankedMemRef *src, StrataUnrankedMemRef *dst) {
  const StrataMemRefDesc *s = src->descriptor, *d = dst->descriptor;
  int rank = (int)src->rank;
  if (rank < 0 || rank > STRATA_RT_MAX_RANK || dst->rank != src->rank) return;
  const char *sp = (const char *)s->aligned + s->offset * elemSize;
  char *dp = (char *)d->aligned + d->offset * elemSize;
  int64_t idx[STRATA_RT_MAX_RANK] = {0}, total = 1;
  for (int i = 0; i < rank; i++) total *= s->sizesAndStrides[i];
  for (int64_t n = 0; n < total; n++) {
    int64_t so = 0, doff = 0;
    for (int i = 0; i < rank; i++) {
      so += idx[i] * s->sizesAndStrides[rank + i];
      doff += idx[i] * d->sizesAndStrides[rank + i];
    }
    memcpy(dp + doff * elemSize, sp + so * elemSize, (size_t)elemSize);
    for (int i = rank - 1; i >= 0 && ++idx[i] == s->sizesAndStrides[i]; i--) idx[i] = 0;
  }
}
