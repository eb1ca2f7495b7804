/* SOD²'s RDP analysis (rank and dimension propagation over symbolic shapes)
 * and the planners that use its facts.
 *
 *   StrataRdp *r = strataRdpRun(ctx, func, false);   // NULL: see diagnostics
 *   char buf[64];
 *   int64_t c;
 *   if (strataRdpDimOf(r, v, 1, &c, buf, sizeof buf) == STRATA_RDP_EXPR)
 *     printf("dim 1 = %s\n", buf);                    // "64*H*W"
 *   strataRdpDestroy(r);
 *
 * Every value of the function (op results and block arguments, in nested
 * regions too) gets a rank and, per dim, a lattice element: undef (nothing
 * known yet) > a known constant, a symbol (a `?` dim of a function argument,
 * named by the ONNX importer's `onnx.dim_params` when it recorded one) or an
 * expression over symbols (a canonical polynomial: "64*H*W", "N + 1") >
 * nac (not a constant: data-dependent or not expressible). Small integer
 * tensors that hold shapes (nn.shape's result and what Gather, Concat,
 * Slice, arithmetic and casts make of it) also get a value: one lattice
 * element per element. Symbols are sizes, assumed >= 1.
 * `docs/dynamic-shapes.md` describes the transfer functions per op class.
 */
#ifndef STRATA_RDP_H
#define STRATA_RDP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "strata/context.h"
#include "strata/dialect.h"
#include "strata/mem_plan.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  STRATA_RDP_UNDEF = 0, /* top: no fact yet */
  STRATA_RDP_CONST,     /* a known integer */
  STRATA_RDP_SYMBOL,    /* one symbol: N */
  STRATA_RDP_EXPR,      /* an operation-inferred expression over symbols */
  STRATA_RDP_NAC,       /* bottom: not a constant */
} StrataRdpKind;

typedef struct StrataRdp StrataRdp;

/* Runs the analysis on `func` (a func.func with a body) to its fixpoint.
 * `reverseOrder` visits ops in reverse program order (the result is the same
 * fixpoint; tests use it to show order independence). Returns NULL after a
 * located error (not a func.func, an op whose attributes are malformed) or
 * when memory runs out. Transfers ownership to the caller
 * (strataRdpDestroy). The results refer to `func`'s values: do not modify
 * the function while using them. */
StrataRdp *strataRdpRun(StrataContext *ctx, MlirOperation func, bool reverseOrder);
void strataRdpDestroy(StrataRdp *r);

/* Symbols: first the input symbols, in order of first appearance among the
 * arguments' dims, then derived symbols, sorted by name: each stands for a
 * strided window's output size that is not a polynomial, named for it
 * ("((H - 1)/2 + 1)": floor((H - 1) / 2) + 1). */
size_t strataRdpNumSymbols(const StrataRdp *r);
size_t strataRdpNumInputSymbols(const StrataRdp *r);
const char *strataRdpSymbolName(const StrataRdp *r, size_t i);
/* Op visits (transfer applications) until the fixpoint, for tests. */
size_t strataRdpNumVisits(const StrataRdp *r);

/* Rank of `v`: >= 0 known, -1 undef, -2 nac, -3 `v` is not a value of the
 * analysed function or not a tensor. */
int strataRdpRankOf(const StrataRdp *r, MlirValue v);
/* Dim `dim` of `v`: its kind, the constant when it is CONST (`constant`
 * may be NULL) and its printed form in `buf` ("N", "64*H*W", "nac"; `buf`
 * may be NULL). UNDEF if `v` or `dim` is out of range. */
StrataRdpKind strataRdpDimOf(const StrataRdp *r, MlirValue v, int dim, int64_t *constant,
                             char *buf, size_t size);
/* The value map: number of elements tracked for `v` (-1: no value), and
 * element `i` as for strataRdpDimOf. */
int strataRdpValueLength(const StrataRdp *r, MlirValue v);
StrataRdpKind strataRdpValueOf(const StrataRdp *r, MlirValue v, int i, int64_t *constant,
                               char *buf, size_t size);
/* "[N, 64, H, W]" (dims) into buf; "unranked"/"nac" for unknown ranks. */
void strataRdpShapeString(const StrataRdp *r, MlirValue v, char *buf, size_t size);
/* Evaluates dim `dim` of `v` with input symbol i = symbolValues[i]
 * (numSymbols >= strataRdpNumInputSymbols; derived symbols are computed);
 * false if it is not known, or on overflow. */
bool strataRdpEvalDim(const StrataRdp *r, MlirValue v, int dim, const int64_t *symbolValues,
                      size_t numSymbols, int64_t *out);
/* The op's class after the analysis: its op-table class, except that an
 * ISVDOS op whose shape-deciding operands all have known values behaves as
 * ISDOS (e.g. Resize with constant scales). 0 for ops without a table row. */
StrataDynamism strataRdpClassOf(const StrataRdp *r, MlirOperation op);

/* ---- Execution-order planning (SOD² B5) ------------------------------------
 * A graph of nodes in a valid order; node i produces one tensor of
 * outBytes[i] bytes (0: nothing to hold), live from its production until its
 * last consumer has run (to the end when isOutput[i]). preds lists the
 * producers each node reads, CSR style: preds[predStart[i] .. predStart[i+1]).
 * Inputs of the graph are not counted. */
typedef struct {
  size_t numNodes;
  const int64_t *outBytes;
  const size_t *predStart; /* numNodes + 1 entries */
  const size_t *preds;
  const bool *isOutput; /* NULL: no node is an output */
} StrataOrderGraph;

/* Peak of live bytes when running the nodes in `order` (a permutation);
 * -1 if `order` is not a topological order or the sum overflows. */
int64_t strataOrderPeak(const StrataOrderGraph *g, const size_t *order);
/* A topological order with the minimum peak (dynamic programming over the
 * sets of executed nodes: exact), written to `order`; returns that peak, or
 * -1 if the graph has more than STRATA_ORDER_MAX_EXACT nodes, a cycle, or
 * memory runs out. */
#define STRATA_ORDER_MAX_EXACT 16
int64_t strataOrderPlanExact(const StrataOrderGraph *g, size_t *order);

/* ---- Memory planning (SOD² B6): strata/mem_plan.h (StrataMemTensor,
 * strataMemPlanPeakWalk, ...), included above. */

#ifdef __cplusplus
}
#endif
#endif /* STRATA_RDP_H */
