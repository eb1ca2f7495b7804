/* What the memory passes share (strata-buffer-arena, strata-shape-plan):
 * live ranges of buffers over a function body's top-level ops, lookups in
 * plans sorted by op, and calls of the runtime's arena entry points. */
#ifndef STRATA_TRANSFORMS_MEMORY_ARENA_COMMON_H
#define STRATA_TRANSFORMS_MEMORY_ARENA_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "strata/builder.h"
#include "strata/pass.h"

/* The dialects both passes create ops of (memref, func, arith). */
extern const StrataDialectHandleFn strataArenaPassDeps[];

/* The top-level ops of `func`'s body when it is one block (*block set),
 * malloc'ed, their count in *n; NULL with *n = 0 for another body, with
 * *n = -1 when out of memory. */
MlirOperation *strataArenaBodyOps(MlirOperation func, MlirBlock *block, intptr_t *n);
/* The ancestor of `op` that sits directly in `block` (null if none). */
MlirOperation strataArenaTopLevel(MlirOperation op, MlirBlock block);
/* The index of `op` in ops[0..n), or -1. */
intptr_t strataArenaIndexOf(MlirOperation op, MlirOperation *ops, intptr_t n);
/* The last index of ops[0..n) (block's top-level ops) using v or anything
 * derived from it: results of any op that takes it and yields a memref
 * (ranked or not: the kernels take memref<*xf32>), or its address
 * (extract_aligned_pointer_as_index), count as aliases. -1: a use we
 * cannot bound (outside the block). Deallocs are not uses. */
intptr_t strataArenaLastUse(MlirValue v, MlirBlock block, MlirOperation *ops, intptr_t n);
/* Bytes of one element of memref type t (index: 8), or -1 when it is no
 * whole number of bytes. */
int64_t strataArenaElementBytes(MlirType t);
/* True if memref type t lives in the default memory space with the
 * identity layout (a view of an arena can stand for it). */
bool strataArenaPlainLayout(MlirType t);

/* qsort/bsearch order of arrays whose elements start with an op. */
int strataArenaByPointer(const void *a, const void *b);
/* The entry for `op` in such a sorted array; NULL if it has none. */
void *strataArenaFindOp(void *array, size_t count, size_t size, MlirOperation op);

/* A call of runtime function `callee` returning a memref<?xi8>
 * (`resultType` non-null) or nothing (null). */
MlirValue strataArenaCallRuntime(StrataBuilder *b, MlirLocation loc, const char *callee, StrataValueList args,
                                 const MlirType *resultType);

#endif /* STRATA_TRANSFORMS_MEMORY_ARENA_COMMON_H */
