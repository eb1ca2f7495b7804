/* transforms/dynamic internals: the RDP lattice (not public API).
 *
 * A dimension (or one element of a shape value) is a flat lattice element:
 * undef (top) > known > nac (bottom). A known element is a canonical
 * polynomial over the function's symbols with int64 coefficients: a
 * constant is the polynomial with one constant term, a symbol the term
 * 1*N, an operation-inferred constant anything else (64*H*W, N + 1).
 * Canonical form (terms sorted, like terms merged, zero terms dropped) makes
 * equality structural, so meet is: undef ∧ x = x, x ∧ x = x, else nac.
 * What a polynomial cannot say exactly (a non-exact division, a
 * coefficient overflow, more terms or symbols than the fixed capacity)
 * becomes nac: the analysis never keeps a wrong fact. */
#ifndef STRATA_RDP_EXPR_H
#define STRATA_RDP_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "strata/rdp.h"

#define RDP_MAX_TERMS 8
#define RDP_MAX_SYMS 16

typedef struct {
  int64_t coeff;
  uint8_t exp[RDP_MAX_SYMS]; /* exponent of each symbol */
} RdpTerm;

typedef enum { RDP_UNDEF = 0, RDP_KNOWN, RDP_NAC } RdpLevel;

typedef struct {
  uint8_t level; /* RdpLevel */
  uint8_t numTerms;
  RdpTerm terms[RDP_MAX_TERMS];
} RdpDim;

RdpDim rdpUndef(void);
RdpDim rdpNac(void);
RdpDim rdpConst(int64_t c);
RdpDim rdpSymbol(int index); /* nac if index >= RDP_MAX_SYMS */

bool rdpIsKnown(const RdpDim *d);
/* True (with the value) if `d` is a known constant. */
bool rdpGetConst(const RdpDim *d, int64_t *out);
bool rdpEqual(const RdpDim *a, const RdpDim *b);
/* Lattice meet; returns whether *dst changed. */
bool rdpMeetInto(RdpDim *dst, const RdpDim *src);

/* Arithmetic: undef if an operand is undef, else nac if one is nac or the
 * result is not an exact polynomial. */
RdpDim rdpAdd(const RdpDim *a, const RdpDim *b);
RdpDim rdpSub(const RdpDim *a, const RdpDim *b);
RdpDim rdpMul(const RdpDim *a, const RdpDim *b);
/* a / b when the quotient is an exact polynomial: b a single term dividing
 * every term of a, or b equal to a. */
RdpDim rdpDivExact(const RdpDim *a, const RdpDim *b);

/* The kind of a known element (constant, symbol, expression), or undef/nac. */
StrataRdpKind rdpKind(const RdpDim *d);
/* Evaluates at symbol values (vals[i] for symbol i); false on overflow or
 * if `d` is not known. */
bool rdpEval(const RdpDim *d, const int64_t *vals, size_t numVals, int64_t *out);
/* True if a <= b for every assignment of the symbols to integers >= 1:
 * b - a has only non-negative coefficients (a sufficient condition). */
bool rdpProvablyLE(const RdpDim *a, const RdpDim *b);
/* `d` with symbol s renamed perm[s] (canonical again); nac if a symbol it
 * uses has no new number (perm[s] < 0). */
RdpDim rdpRenumber(const RdpDim *d, const int *perm);
/* Prints "undef", "nac", "64*H*W", "N + 1", ...; names[i] names symbol i.
 * Always NUL-terminates (truncating) when size > 0. */
void rdpPrint(const RdpDim *d, const char *const *names, char *buf, size_t size);

#endif /* STRATA_RDP_EXPR_H */
