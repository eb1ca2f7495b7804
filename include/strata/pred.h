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
#include "strata/pattern.h"

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
  STRATA_PRED_FIX_OPERAND,/* nn integer div/mod, gather/scatter: operand 1 (the divisor or
                           * the indices) forced to ones / zeros when false */
  STRATA_PRED_KEEP,       /* may trap or has effects: keep a branch around it */
} StrataPredSpeculation;

/* The class of `op` alone (its regions are classified separately). */
StrataPredSpeculation strataPredClassify(MlirOperation op);
/* True if `op` alone computes values and nothing else: no memory operands
 * or results, no calls, no effects -- though it may trap on bad operands
 * (a slice at a run-time offset). Running it twice is running it once. */
bool strataPredValuesOnly(MlirOperation op);

/* ---- Building guards (shared by the passes) ---- */

/* `v xor true`, built at `b`. */
MlirValue strataPredNot(StrataBuilder *b, MlirLocation loc, MlirValue v);
/* A zero constant of `t` (integer, index, float, or a static tensor or
 * vector of those), or a null value for any other type. */
MlirValue strataPredZero(StrataBuilder *b, MlirLocation loc, MlirType t);
/* Why a value of type `t` cannot stand for a branch not taken (R4: a
 * dynamic shape may depend on the predicate; or no zero value exists), as
 * a phrase for a diagnostic; NULL if strataPredZero can build one. */
const char *strataPredZeroProblem(MlirType t);
/* Guards on `pred` with else operands `inits`, built at `rw`'s builder,
 * whose body is `body`'s ops: `body` (the only block of its region, ending
 * in a terminator whose operands are the values to yield, e.g. scf.yield)
 * is merged into a guard, its arguments replaced by `bodyArgs`, and its
 * terminator replaced by gpu.yield. A guard's else operands and results
 * are of one type (IRDL binds one type per variadic group), so with values
 * of k types there are k guards, each on a copy of the body yielding its
 * type's values (check strataPredCanDuplicate first). results[i] receives
 * the value replacing inits[i]'s position. */
void strataPredBuildGuards(StrataRewrite *rw, MlirLocation loc, MlirValue pred,
                           StrataValueList inits, MlirBlock body, StrataValueList bodyArgs,
                           MlirValue *results);
/* How many distinct types `types` holds. */
int strataPredNumTypes(StrataTypeList types);
/* True if running `body` (and everything nested) twice is the same as
 * once: no memory writes, calls or ops of unknown effects (ops that may
 * trap but only compute values are fine: each copy runs under the same
 * predicate). */
bool strataPredCanDuplicate(MlirBlock body);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_PRED_H */
