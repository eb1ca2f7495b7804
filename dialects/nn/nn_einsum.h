/* Einsum equations (numpy.einsum semantics, as ONNX Einsum defines them),
 * parsed once into loops: shared by nn.einsum's shape inference and
 * interpreter kernel and by its lowering to one linalg.generic. */
#ifndef STRATA_NN_EINSUM_H
#define STRATA_NN_EINSUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "strata/tensor.h"

#define NN_EINSUM_MAX_INPUTS 2
#define NN_EINSUM_MAX_LOOPS (52 + STRATA_MAX_RANK) /* a-z, A-Z and the ellipsis dims */

/* The equation as a loop nest: loops [0, outRank) are the result's dims in
 * order, the rest are summed. Each operand dim reads loop loop[i][d]; an
 * operand dim of size 1 whose loop is longer broadcasts (reads index 0).
 * Repeated letters in one operand (diagonals) read the same loop twice. */
typedef struct {
  int numInputs;
  int rank[NN_EINSUM_MAX_INPUTS];
  int loop[NN_EINSUM_MAX_INPUTS][STRATA_MAX_RANK];
  int outRank;
  int numLoops;
  int64_t extent[NN_EINSUM_MAX_LOOPS]; /* -1: not known statically */
} NnEinsum;

/* Parses `equation` for operands of the given ranks and dims (-1: dynamic):
 * terms of letters with at most one "..." each, ',' between the operands'
 * terms, an optional "->" and result term (implicit: "..." then the
 * letters used once, in ASCII order); spaces are ignored. Sizes of one
 * letter must agree or be 1 (broadcast), except within one operand
 * (diagonals need equal sizes). False with the reason in `why`. */
bool nnEinsumParse(const char *equation, int numInputs, const int *ranks,
                   const int64_t (*dims)[STRATA_MAX_RANK], NnEinsum *e, char *why, size_t whySize);

/* nn.einsum's equation parsed for its operands' types; false after a
 * located error when `emit`, silently otherwise (ops_einsum.c). */
bool nnEinsumOf(MlirOperation op, NnEinsum *e, bool emit);

#endif /* STRATA_NN_EINSUM_H */
