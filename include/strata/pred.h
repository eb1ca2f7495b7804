/* The pred dialect (issue 20, Grape predication) and its passes.
 *
 *   %r = "pred.guard"(%p, %old) ({
 *     %y = arith.mulf %x, %x : f32
 *     "gpu.yield"(%y) : (f32) -> ()
 *   }) : (i1, f32) -> f32
 *
 * `pred.guard` runs its body when %p is true and yields the body's values;
 * when %p is false its results are its else operands (%old): the outputs keep
 * their old contents, as Grape's nullified kernels do. An IRDL op cannot
 * terminate a block and scf.yield insists on an scf parent, so the body ends
 * with the upstream `gpu.yield`, which has no parent constraint. A unit
 * attribute `unlikely` marks a rarely taken guard (Grape's
 * UnlikelyPredicate); one unlikely guard inside another is a verifier error.
 *
 * Passes (docs/pred.md): pred-if-to-guard, pred-loop-to-guard (transforms/
 * predication/), pred-lower{mode=masked|skip} (conversions/pred-lower/).
 */
#ifndef STRATA_PRED_H
#define STRATA_PRED_H

#include <stdbool.h>
#include "mlir-c/IR.h"
#include "strata/dialect.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const StrataDialectDef strataPredDialect;

/* The guard's unit attribute marking a rarely taken path. */
#define STRATA_PRED_UNLIKELY "unlikely"
/* The terminator of a guard's body. */
#define STRATA_PRED_YIELD "gpu.yield"

/* ---- The predication rules (R1, R4 of docs/pred.md), shared by the passes ---- */

/* R1: false, with a located error at the offending op, if a region of `op`
 * holds an op whose effects predication cannot contain: a call to a
 * function without a body in `op`'s module (printf, any host function),
 * a call through a pointer, or an op whose memory effects Strata does not
 * know (anything outside the op families listed in docs/pred.md). `what`
 * names the construct in the message ("scf.if"). */
bool strataPredCheckEffects(MlirOperation op, const char *what);

/* How an op may run when its guard's predicate is false (masked lowering). */
typedef enum {
  STRATA_PRED_SPECULATE,  /* pure and cannot trap: run it unconditionally */
  STRATA_PRED_FIX_DIVISOR,/* integer division: divisor forced to 1 when false */
  STRATA_PRED_FIX_INDEX,  /* load/extract/insert: indices forced to 0 when false */
  STRATA_PRED_FIX_STORE,  /* memref.store: load, select, store at a safe index */
  STRATA_PRED_KEEP,       /* may trap or has effects: keep a branch around it */
} StrataPredSpeculation;

/* The class of `op` alone (its regions are classified separately). */
StrataPredSpeculation strataPredClassify(MlirOperation op);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_PRED_H */
