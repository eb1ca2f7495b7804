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
 * library; the JIT uses this one too. Same element size, same shape. The
 * innermost dims that are contiguous in both are copied as one run. */
void memrefCopy(int64_t elemSize, StrataUnrankedMemRef *src, StrataUnrankedMemRef *dst) {
  const StrataMemRefDesc *s = src->descriptor, *d = dst->descriptor;
  int rank = (int)src->rank;
  if (rank < 0 || rank > STRATA_RT_MAX_RANK || dst->rank != src->rank) return;
  const int64_t *size = s->sizesAndStrides, *ss = s->sizesAndStrides + rank, *ds = d->sizesAndStrides + rank;
  const char *sp = (const char *)s->aligned + s->offset * elemSize;
  char *dp = (char *)d->aligned + d->offset * elemSize;
  int64_t total = 1;
  for (int i = 0; i < rank; i++) total *= size[i];
  if (total == 0) return;
  /* Fold the innermost dims contiguous in both into one run of `run` elements. */
  int outer = rank;
  int64_t run = 1;
  while (outer > 0 && ss[outer - 1] == run && ds[outer - 1] == run) run *= size[--outer];
  int64_t idx[STRATA_RT_MAX_RANK] = {0};
  for (int64_t n = 0; n < total / run; n++) {
    int64_t so = 0, doff = 0;
    for (int i = 0; i < outer; i++) so += idx[i] * ss[i], doff += idx[i] * ds[i];
    memcpy(dp + doff * elemSize, sp + so * elemSize, (size_t)(run * elemSize));
    for (int i = outer - 1; i >= 0 && ++idx[i] == size[i]; i--) idx[i] = 0;
  }
}
