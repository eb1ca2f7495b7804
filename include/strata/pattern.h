/* Rewrite patterns from C callbacks, and the drivers that apply them.
 *
 *   StrataPatternSet *set = strataPatternSetCreate(mlirCtx);
 *   strataPatternSetAdd(set, "nn.relu", 1, lowerRelu, userData);
 *   MlirLogicalResult r = strataApplyPatternsGreedily(set, root, NULL);
 *   strataPatternSetDestroy(set);
 *
 * A callback gets a StrataRewrite whose builder inserts before the matched
 * op through the driver's rewriter; it returns success only if it changed IR.
 */
#ifndef STRATA_PATTERN_H
#define STRATA_PATTERN_H

#include <stdbool.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "mlir-c/Rewrite.h"
#include "strata/builder.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  MlirRewriterBase rewriter;
  StrataBuilder builder; /* inserts before the matched op */
} StrataRewrite;

typedef MlirLogicalResult (*StrataMatchAndRewriteFn)(StrataRewrite *rw, MlirOperation op,
                                                     void *userData);

typedef struct StrataPatternSet StrataPatternSet;

StrataPatternSet *strataPatternSetCreate(MlirContext ctx);
void strataPatternSetDestroy(StrataPatternSet *set);
/* Adds a pattern rooted at ops named `rootName`. (The C API has no
 * match-any-op patterns: add one per op name, e.g. over a dialect's ops.) */
void strataPatternSetAdd(StrataPatternSet *set, const char *rootName, unsigned benefit,
                         StrataMatchAndRewriteFn fn, void *userData);

typedef struct {
  int64_t maxIterations; /* <= 0: MLIR's default */
  bool topDown;
  bool fold;             /* also run op folders / constant CSE */
} StrataGreedyConfig;

/* Applies the set with MLIR's greedy driver until fixpoint. Failure means it
 * did not converge within maxIterations. The set stays usable. */
MlirLogicalResult strataApplyPatternsGreedily(StrataPatternSet *set, MlirOperation root,
                                              const StrataGreedyConfig *config);
/* Applies the set once per op in a single walk (no fixpoint, no folding). */
void strataApplyPatternsWalk(StrataPatternSet *set, MlirOperation root);

/* Replaces all results of `op` with `values` and erases it. */
void strataReplaceOp(StrataRewrite *rw, MlirOperation op, StrataValueList values);
void strataEraseOp(StrataRewrite *rw, MlirOperation op);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_PATTERN_H */
