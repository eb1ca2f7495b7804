/* The sparse dialect's transforms (issue 17, PatDNN), listed once: core/registry.c
 * registers every row of this NULL-terminated list. In pipeline order: choose
 * and impose patterns (opt-in, they change weights), detect pattern convs,
 * reorder and store them, report. */
#include "sparse_xform.h"

const StrataPassDef *const strataSparseTransformPasses[] = {
    &sparsePatternSelectPass,
    &sparsePatternPrunePass,
    &sparseConnectivityPrunePass,
    &sparseDetectPass,
    &sparseFkrPass,
    &sparseFkwPass,
    &sparseToCsrPass,
    &sparseReportPass,
    NULL,
};
