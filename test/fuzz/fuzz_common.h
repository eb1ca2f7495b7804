/* Shared setup of the libFuzzer targets in test/fuzz: one Strata context
 * reused across inputs (creating one loads every dialect, far slower than
 * most inputs), diagnostics swallowed, and helpers for the byte buffers
 * libFuzzer hands over. */
#ifndef STRATA_FUZZ_COMMON_H
#define STRATA_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include "strata/strata.h"

/* libFuzzer's entry points (declared here so -Wmissing-prototypes is quiet). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The context for the current input. It is created on first use and
 * replaced every FUZZ_CONTEXT_INPUTS inputs, because an MLIR context never
 * frees the types and attributes it uniques and would otherwise grow until
 * libFuzzer's RSS limit. Diagnostics are dropped, unless STRATA_FUZZ_VERBOSE
 * is set in the environment (to triage a crash input by hand). */
StrataContext *fuzzContext(void);
#define FUZZ_CONTEXT_INPUTS 2000

/* A NUL-terminated copy of the input (free() it), or NULL if out of memory.
 * The pipeline parser takes a C string; and strataParseModule has read past
 * a buffer without a terminator (MLIR's lexer relies on one), a known bug
 * that would otherwise mask every other finding of the MLIR target. */
char *fuzzCopyString(const uint8_t *data, size_t size);

#endif /* STRATA_FUZZ_COMMON_H */
