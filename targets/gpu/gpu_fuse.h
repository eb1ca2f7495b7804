/* gpu-fuse-blocks (gpu_fuse_blocks.c) and its legality analysis
 * (gpu_fuse_legal.c): the loop nests an nn-fuse block leaves after
 * bufferization and convert-linalg-to-parallel-loops become one
 * scf.parallel over the nests' common outer parallel dimensions, so one
 * kernel. */
#ifndef STRATA_GPU_FUSE_H
#define STRATA_GPU_FUSE_H

#include <stdbool.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "strata/builder.h"

/* A top-level scf.parallel of a block: no results, no reductions. */
typedef struct {
  MlirOperation op;
  intptr_t dims;
} GpuNest;

/* Views: memref.subview, expand_shape, collapse_shape, cast,
 * reinterpret_cast, view, reshape, transpose (operand 0 is the source). */
bool gpuFuseIsView(MlirOperation op);
/* The buffer a memref value views (through views to their sources). */
MlirValue gpuFuseRootOf(MlirValue v);

/* `name`(x, y) of x's type, built at b. */
MlirValue gpuFuseBinary(StrataBuilder *b, const char *name, MlirLocation loc, MlirValue x, MlirValue y);

/* Rewrites the memref.copy ops at the top of block `body` into loads
 * (padded buffers) or scf.parallel nests (gpu_fuse_copies.c). */
void gpuFuseLowerCopies(MlirBlock body);

/* A new scf.parallel before `before` over n dimensions, its body a block
 * of the induction variables ending in scf.reduce. */
MlirOperation gpuFuseNewParallel(MlirOperation before, const MlirValue *lb, const MlirValue *ub, const MlirValue *step,
                                 intptr_t n);

/* True if `from` or an op after it in its block, up to `last` (included;
 * null: to the block's end), may write `v`'s buffer. */
bool gpuFuseWritten(MlirOperation from, MlirValue v, MlirOperation last);

/* Recomputes element-wise producers in their readers (gpu_fuse_inline.c). */
void gpuFuseInlineProducers(MlirBlock body);

/* True if `op` is such a nest (*dims receives its dimension count): no
 * results or init values, and no scf.parallel nested in it (the kernel
 * mapping tiles the innermost parallel loops). */
bool gpuFuseIsNest(MlirOperation op, intptr_t *dims);

/* The largest p >= 1 such that nests[0..n) fused over their first p
 * dimensions computes what they compute one after another, or 0. The
 * first p dimensions must have equal bounds and steps, and every buffer
 * that a nest writes and another nest touches must be accessed through
 * one memref whose dimensions d_0..d_{p-1} are indexed by exactly the
 * induction variables 0..p-1 in every access: a work-item of the fused
 * loop then touches only its own part of such a buffer, in program order.
 * With everyWrite, every buffer a nest writes must be so (a single nest
 * whose dimensions may become outer loops). *oom is set if memory runs
 * out (0 is then returned). */
intptr_t gpuFuseLegalPrefix(const GpuNest *nests, int n, bool everyWrite, bool *oom);

/* run[count], a nest that may join run[0..count) (fused over `prefix`
 * dimensions) over only `legal` of them as it is, rebuilt with its
 * dimensions permuted where the buffers the run passes it are indexed by
 * a permutation of the run's dimensions (gpu_fuse_permute.c); returns the
 * legal prefix of the run with run[count] (which then holds the new nest)
 * if that is longer than `legal`, else `legal` (run[count] then holds the
 * nest rebuilt in its old order). */
intptr_t gpuFusePermuteToJoin(GpuNest *run, int count, intptr_t prefix, intptr_t legal, bool *oom);

/* Moves the ops of `from` but its terminator before `anchor`. */
void gpuFuseMoveBody(MlirBlock from, MlirOperation anchor);

/* True (with *out) if `v` is an integer arith.constant. */
bool gpuFuseConstIndex(MlirValue v, int64_t *out);

/* The trip counts of nest `n`'s dimensions and their product, if its
 * bounds are constants (false if not, or over 2^31 iterations). */
bool gpuFuseTripCounts(GpuNest n, int64_t *trips, int64_t *total);

/* Ops that may sit between fused nests: they only define values
 * (allocations, constants, views). */
bool gpuFuseIsSetup(MlirOperation op);

/* Runs of top-level nests of `body` that share no buffer one of them
 * writes become one one-dimensional scf.parallel over the largest
 * iteration count, each nest's body guarded by its own count
 * (gpu_fuse_independent.c). */
void gpuFuseIndependent(MlirBlock body);

#endif /* STRATA_GPU_FUSE_H */
