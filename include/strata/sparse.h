/* Pattern-based sparsity (PatDNN): the `sparse` dialect and the one-call
 * entry that strata-run's --sparse uses. docs/sparse.md describes the
 * dialect, its passes and the FKW format. */
#ifndef STRATA_SPARSE_PUBLIC_H
#define STRATA_SPARSE_PUBLIC_H

#include <stdbool.h>
#include <stddef.h>
#include "strata/context.h"
#include "strata/dialect.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const StrataDialectDef strataSparseDialect;

/* What `strata-run --sparse MODE` does before compiling. */
typedef struct {
  /* "detect": convert the convolutions whose constant weights already
   * follow a pattern set (pruned in training), weights unchanged.
   * "prune=N", "rate=R" or both ("prune=8,rate=3.6"): first prune the
   * weights -- project every 3x3 kernel onto the N most frequent natural
   * patterns, keep 1/R of each layer's kernels (largest L2, first layer
   * exempt) -- which changes the model's results (the passes say so). */
  const char *mode;
  bool tune;          /* time tile/unroll/loop-order candidates (sparse-tune) */
  const char *tuneDb; /* sparse-tune's latency database (implies tune); NULL: none */
  const char *target; /* the target tuning times on; NULL: "cpu" */
  const char *report; /* per-layer report (sparse-report): NULL none, "-" stdout, else a file */
} StrataSparseOptions;

/* The pass pipeline (strataParsePipeline syntax, at module level) `o`
 * stands for: detection, FKR and FKW, then tuning and the report if asked.
 * NULL with a reason in `why` when `o` is malformed. Ownership transfers to
 * the caller: free() it. */
char *strataSparsePipeline(const StrataSparseOptions *o, char *why, size_t whySize);
/* Runs that pipeline on `module`; errors are located (a bad mode at the
 * module). */
MlirLogicalResult strataSparseApply(StrataContext *ctx, MlirModule module, const StrataSparseOptions *o);

#ifdef __cplusplus
}
#endif

#endif /* STRATA_SPARSE_PUBLIC_H */
