/* What the copy-eliding passes (pred-placeholder-alias,
 * strata-slice-alias) ask about a buffer's uses in the block that holds
 * its allocation and the copy out of it: whether they end before the
 * copy without letting it escape, and whether another buffer is touched
 * in between. Positions are indices of top-level ops in that block. */
#ifndef STRATA_TRANSFORMS_MEMORY_BUFFER_USES_H
#define STRATA_TRANSFORMS_MEMORY_BUFFER_USES_H

#include <stdbool.h>
#include <stdint.h>
#include "mlir-c/IR.h"

/* Position of `op` in its block (ops are few between an alloc and its
 * copy, so counting is cheap enough). */
intptr_t strataBufferPositionOf(MlirOperation op);
/* Views that keep a buffer whole and contiguous (on identity layouts):
 * memref.reshape, collapse_shape, expand_shape, cast. */
bool strataBufferIsWholeView(MlirOperation op);
/* Whether `user`'s result `res` aliases the operand it was made from: any
 * memref result, and the pointer extractions and unrealized casts. */
bool strataBufferDerivesAlias(MlirOperation user, MlirValue res);
/* A func.call of a libstrata_rt entry point (strata_rt_*): its kernels
 * keep no operand past the call. */
bool strataBufferIsRuntimeCall(MlirOperation op);
/* Statically shaped, identity layout, default memory space: its element
 * count in *count. */
bool strataBufferPlain(MlirType t, int64_t *count);

/* Whether argument `arg` of `func` is a placeholder: an argument the
 * caller provides and reads after the call, promising it aliases no other
 * argument. One marked with the unit argument attribute
 * `pred.placeholder` (*marked set), and with `cInterfaceOutputs` any
 * argument of a function with `llvm.emit_c_interface` (whose inputs are
 * read-only, strata-emit-c-interface: an argument it writes is an
 * out-parameter of buffer-results-to-out-params). */
bool strataBufferIsPlaceholder(MlirOperation func, intptr_t arg, bool cInterfaceOutputs, bool *marked);

/* True if every use of v (and of what aliases it) is in `block` before
 * position `copyAt`, except `copy` itself and v's own deallocs (depth 0),
 * and none lets it escape (a return, a call other than into
 * libstrata_rt, a pointer extraction, an unrealized cast); else false
 * with the reason in *why. Start with depth 0. */
bool strataBufferUsesEndBefore(MlirValue v, MlirBlock block, intptr_t copyAt, MlirOperation copy, const char **why,
                               int depth);

/* How strataBufferTouchedBetween treats an op that derives an alias:
 * count it as a touch (and look through it), look through it without
 * counting it (a view is no access), or skip it and its aliases (a view
 * the caller knows to be disjoint from what it asks about). */
typedef enum { STRATA_VIEW_COUNT, STRATA_VIEW_PASS, STRATA_VIEW_SKIP } StrataViewRule;
typedef StrataViewRule (*StrataViewRuleFn)(MlirOperation view, void *user);

/* True if v, or anything aliasing it, is used by an op of `block` at a
 * position in (from, to), or by an op holding `block` (passed into its
 * regions); `copy` does not count. `rule` (NULL: count every op) says how
 * ops deriving an alias count. Start with depth 0. */
bool strataBufferTouchedBetween(MlirValue v, MlirBlock block, intptr_t from, intptr_t to, MlirOperation copy,
                                StrataViewRuleFn rule, void *user, int depth);

#endif /* STRATA_TRANSFORMS_MEMORY_BUFFER_USES_H */
