/* libstrata_rt: memref descriptors for calling compiled code. */
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
