/* transforms/dynamic internals: RDP facts and the transfer functions
 * (not public API). */
#ifndef STRATA_RDP_INTERNAL_H
#define STRATA_RDP_INTERNAL_H

#include "rdp_expr.h"
#include "strata/dialect.h"

enum { RDP_RANK_UNDEF = -1, RDP_RANK_NAC = -2 };

/* What the analysis knows of one value: its shape (rank and dims) and, for
 * small integer tensors and integer scalars, its value (one element per
 * entry of `vals`). A scalar that is not a tensor has rank 0. */
typedef struct {
  int8_t rank;     /* >= 0, RDP_RANK_UNDEF or RDP_RANK_NAC */
  int8_t valueLen; /* -1: the value is not tracked */
  bool isTensor;
  RdpDim dims[STRATA_MAX_RANK];
  RdpDim vals[STRATA_MAX_RANK];
} RdpFact;

/* A fact with rank `rank` and every dim `d` (a copy per dim). */
void rdpFactSetRank(RdpFact *f, int rank, RdpDim d);
/* Meets src into dst (rank, dims, value); returns whether dst changed. */
bool rdpFactMeetInto(RdpFact *dst, const RdpFact *src);
/* Only fills what dst has undef (backward transfer); returns whether dst changed. */
bool rdpFactFillUndef(RdpFact *dst, const RdpFact *src);

/* One op's transfer. `in[i]` is operand i's fact (NULL: not analysed);
 * `out[j]` arrives as result j's fact template (rank and static dims from
 * its type, `?` dims undef, value untracked or undef) and the forward
 * transfer refines it. Returns false after a located error. */
typedef struct {
  StrataContext *ctx;
  StrataRdp *rdp; /* for derived symbols */
  MlirOperation op;
  const StrataOpDef *def; /* NULL: no table row (upstream op) */
  const RdpFact *const *in;
  intptr_t numIn;
  RdpFact *out;
  intptr_t numOut;
} RdpTransfer;

bool rdpForward(RdpTransfer *t);
/* Backward: writes into cand[i] what the results say of operand i (cand
 * arrives as undef facts of the operands' ranks); returns whether any
 * candidate was written. */
bool rdpBackward(const RdpTransfer *t, RdpFact *cand);
/* True if every element of `f`'s value is known. */
bool rdpValueKnown(const RdpFact *f);

/* ---- Execution-order planning over symbolic sizes (order_plan.c) ----
 * Node i produces size[i] bytes (a lattice element), live from its run until
 * its last consumer in the problem has run, to the end when isOutput[i]. */
typedef struct {
  size_t numNodes;
  const RdpDim *size;
  const size_t *predStart, *preds; /* CSR, as StrataOrderGraph */
  const bool *isOutput;
} RdpOrderProblem;

/* Peak of `order`: the max over steps of the live bytes, nac when two step
 * totals cannot be compared for all symbol values >= 1, or some size is
 * not known. */
RdpDim rdpOrderPeak(const RdpOrderProblem *p, const size_t *order);
/* The order with the provably smallest peak found by dynamic programming
 * over executed-node sets (exact for constant sizes; with symbols, a
 * transition whose peak is incomparable is dropped). Returns false if
 * numNodes > STRATA_ORDER_MAX_EXACT, on a cycle, or out of memory; if no
 * order's peak is comparable, writes program order and peak = nac. */
bool rdpPlanOrder(const RdpOrderProblem *p, size_t *order, RdpDim *peak);

/* The output size floor(num / div) + 1 of a window with stride `div`: a
 * polynomial when the division is exact, else a derived symbol standing
 * for it (one per distinct num and div), nac past the symbol capacity. */
RdpDim rdpWindowSize(StrataRdp *r, const RdpDim *num, int64_t div);
/* Values of all symbols (derived ones computed from their definitions)
 * from the input symbols' values; false on overflow. */
bool rdpSymbolValues(const StrataRdp *r, const int64_t *inputs, int64_t *all);

/* ---- Queries for the passes and planners of this directory (rdp.c) ---- */
/* The fact of `v` (NULL: not tracked). */
const RdpFact *rdpFactOf(const StrataRdp *r, MlirValue v);
/* The value map of `v` as "[N, 64, H, W]"; false if no element is known. */
bool rdpValueString(const StrataRdp *r, MlirValue v, char *buf, size_t size);
/* The symbol names, indexed by symbol. */
const char *const *rdpSymbolNames(const StrataRdp *r);

#endif /* STRATA_RDP_INTERNAL_H */
