/* transforms/analysis internals: FLOP and byte totals over Strata ops, for
 * --nn-flops and for --nn-algebraic-rewrite's before/after report. */
#ifndef STRATA_NN_FLOPS_H
#define STRATA_NN_FLOPS_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/dialect.h"

typedef struct {
  double flops, bytes; /* strataOpFlops / strataOpBytes summed over ops with static shapes */
  int64_t dynamicOps;  /* Strata ops not counted because a shape is dynamic */
} NnCost;

/* True if no operand or result has a dynamic or unranked shape: the op's
 * FLOPs and bytes are known statically. */
bool nnHasStaticShapes(MlirOperation op);
/* Totals over every Strata op nested in `root`. */
NnCost nnCountCost(StrataContext *ctx, MlirOperation root);
/* The symbol name of a func.func ("" if it has none). */
MlirStringRef nnFuncName(MlirOperation func);

#endif
