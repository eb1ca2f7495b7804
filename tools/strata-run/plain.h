/* The parts of strata-run that need no MLIR, shared by the full driver
 * (strata-run-full) and the launcher (launcher/, the `strata-run` users
 * run, which serves model cache hits without loading LLVM or MLIR): option
 * values and the printing of outputs, so both parse and print alike. */
#ifndef STRATA_RUN_PLAIN_H
#define STRATA_RUN_PLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include "strata/tensor.h"

/* A decimal in [lo, hi]. */
bool runParseLong(const char *s, long lo, long hi, long *out);
/* A byte count: digits and an optional K, M or G (powers of 1024). */
bool runParseSize(const char *s, size_t *out);
/* Options that change neither the code nor which code runs: the model
 * cache's key leaves them out. */
bool runOptionIsRunOnly(const char *a);
/* "output #i: <shape>  min .. max .. mean ..", then up to 16 values. */
void runPrintTensor(const char *label, size_t i, const StrataTensor *t, bool values);
/* The line a compiled call reports. */
void runPrintCompiled(const char *entry, double compileMs, double runMs, const char *from);

#endif /* STRATA_RUN_PLAIN_H */
