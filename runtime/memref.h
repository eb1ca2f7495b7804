/* The memref ABI that MLIR-generated code uses for `llvm.emit_c_interface`
 * functions: a descriptor {allocated, aligned, offset, sizes[R], strides[R]},
 * passed by pointer. One struct covers every rank up to the maximum; only
 * the first 3 + 2R words are read. Shared by the JIT runner and AOT users. */
#ifndef STRATA_RUNTIME_MEMREF_H
#define STRATA_RUNTIME_MEMREF_H

#include <stdint.h>

#define STRATA_RT_MAX_RANK 8

typedef struct {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizesAndStrides[2 * STRATA_RT_MAX_RANK]; /* sizes[0..R), strides[R..2R) */
} StrataMemRefDesc;

/* Describes a dense row-major buffer of `rank` dims. Returns 0, or -1 if the
 * rank is too large. */
int strataRtMemRefInit(StrataMemRefDesc *d, void *data, int rank, const int64_t *dims);

#endif /* STRATA_RUNTIME_MEMREF_H */
