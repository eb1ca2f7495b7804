/* libstrata_rt: results of dynamic shape handed over by compiled code
 * (results.h). The slots of the call in progress are per thread: the
 * compiled code delivers on the thread that called it. */
#include <stdlib.h>
#include <string.h>
#include "kernels.h"
#include "results.h"
#include "rt_internal.h"

static _Thread_local StrataRtResult *slots;
static _Thread_local int numSlots;

void strataRtResultsBegin(StrataRtResult *s, int count) {
  slots = s;
  numSlots = count;
}

void strataRtResultsEnd(void) {
  slots = NULL;
  numSlots = 0;
}

static void deliver(int64_t index, StrataUnrankedMemRef *value, size_t elemBytes) {
  if (!slots || index < 0 || index >= numSlots || slots[index].set)
    rtError("a result of dynamic shape was delivered outside a call that expects it (result %lld)",
            (long long)index);
  int rank = (int)value->rank;
  if (rank < 0 || rank > STRATA_RT_MAX_RANK) rtError("a result of rank %d is beyond the runtime's", rank);
  const StrataMemRefDesc *d = value->descriptor;
  StrataRtResult *r = &slots[index];
  size_t count = 1;
  for (int i = 0; i < rank; i++) {
    int64_t n = d->sizesAndStrides[i];
    if (n < 0 || (n && count > SIZE_MAX / elemBytes / (size_t)n)) rtError("a result of dynamic shape is too large");
    r->dims[i] = n;
    count *= (size_t)n;
  }
  void *data = malloc(count ? count * elemBytes : 1);
  if (!data) rtError("out of memory for a result of %zu bytes", count * elemBytes);
  StrataMemRefDesc dense;
  strataRtMemRefInit(&dense, data, rank, r->dims);
  StrataUnrankedMemRef dst = {rank, &dense};
  memrefCopy((int64_t)elemBytes, value, &dst);
  r->rank = rank;
  r->elemBytes = elemBytes;
  r->data = data;
  r->set = true;
}

#define RESULT_FN(type, bytes)                                                              \
  void _mlir_ciface_strata_rt_result_##type(int64_t index, StrataUnrankedMemRef *value) { \
    deliver(index, value, bytes);                                                         \
  }
RESULT_FN(f32, 4)
RESULT_FN(f64, 8)
RESULT_FN(f16, 2)
RESULT_FN(i64, 8)
RESULT_FN(i32, 4)
RESULT_FN(i16, 2)
RESULT_FN(i8, 1)
RESULT_FN(i1, 1)
