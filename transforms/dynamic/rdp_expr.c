/* The RDP lattice element: canonical polynomials over symbols (rdp_expr.h). */
#include "rdp_expr.h"
#include <stdio.h>
#include <string.h>
#include "strata/support.h"

RdpDim rdpUndef(void) { return (RdpDim){.level = RDP_UNDEF}; }
RdpDim rdpNac(void) { return (RdpDim){.level = RDP_NAC}; }

RdpDim rdpConst(int64_t c) {
  RdpDim d = {.level = RDP_KNOWN};
  if (c != 0) {
    d.numTerms = 1;
    d.terms[0].coeff = c;
  }
  return d;
}

RdpDim rdpSymbol(int index) {
  if (index < 0 || index >= RDP_MAX_SYMS) return rdpNac();
  RdpDim d = {.level = RDP_KNOWN, .numTerms = 1};
  d.terms[0].coeff = 1;
  d.terms[0].exp[index] = 1;
  return d;
}

bool rdpIsKnown(const RdpDim *d) { return d->level == RDP_KNOWN; }

static int degree(const RdpTerm *t) {
  int s = 0;
  for (int i = 0; i < RDP_MAX_SYMS; i++) s += t->exp[i];
  return s;
}

bool rdpGetConst(const RdpDim *d, int64_t *out) {
  if (d->level != RDP_KNOWN) return false;
  if (d->numTerms == 0) {
    *out = 0;
    return true;
  }
  if (d->numTerms != 1 || degree(&d->terms[0]) != 0) return false;
  *out = d->terms[0].coeff;
  return true;
}

/* Term order of the canonical form: higher degree first, then by exponent
 * vectors (symbol 0 first), so N*H sorts before H*W and constants last. */
static int termCompare(const RdpTerm *a, const RdpTerm *b) {
  int da = degree(a), db = degree(b);
  if (da != db) return da > db ? -1 : 1;
  for (int i = 0; i < RDP_MAX_SYMS; i++)
    if (a->exp[i] != b->exp[i]) return a->exp[i] > b->exp[i] ? -1 : 1;
  return 0;
}

bool rdpEqual(const RdpDim *a, const RdpDim *b) {
  if (a->level != b->level) return false;
  if (a->level != RDP_KNOWN) return true;
  if (a->numTerms != b->numTerms) return false;
  for (int i = 0; i < a->numTerms; i++)
    if (a->terms[i].coeff != b->terms[i].coeff || termCompare(&a->terms[i], &b->terms[i]) != 0)
      return false;
  return true;
}

bool rdpMeetInto(RdpDim *dst, const RdpDim *src) {
  if (src->level == RDP_UNDEF || dst->level == RDP_NAC) return false;
  if (dst->level == RDP_UNDEF) {
    *dst = *src;
    return true;
  }
  if (rdpEqual(dst, src)) return false;
  *dst = rdpNac();
  return true;
}

/* Combines operand levels: undef dominates (the fact may still come), then
 * nac. Returns true if both are known. */
static bool bothKnown(const RdpDim *a, const RdpDim *b, RdpDim *result) {
  if (a->level == RDP_UNDEF || b->level == RDP_UNDEF) {
    *result = rdpUndef();
    return false;
  }
  if (a->level == RDP_NAC || b->level == RDP_NAC) {
    *result = rdpNac();
    return false;
  }
  return true;
}

/* Adds term t (coefficient scaled by sign) into the canonical sum d; false
 * on overflow or when the term capacity is exceeded. */
static bool addTerm(RdpDim *d, const RdpTerm *t) {
  int i = 0;
  while (i < d->numTerms && termCompare(&d->terms[i], t) < 0) i++;
  if (i < d->numTerms && termCompare(&d->terms[i], t) == 0) {
    int64_t c;
    if (!strataCheckedAdd(d->terms[i].coeff, t->coeff, &c)) return false;
    if (c == 0) {
      memmove(&d->terms[i], &d->terms[i + 1], (size_t)(d->numTerms - i - 1) * sizeof(RdpTerm));
      d->numTerms--;
    } else {
      d->terms[i].coeff = c;
    }
    return true;
  }
  if (t->coeff == 0) return true;
  if (d->numTerms == RDP_MAX_TERMS) return false;
  memmove(&d->terms[i + 1], &d->terms[i], (size_t)(d->numTerms - i) * sizeof(RdpTerm));
  d->terms[i] = *t;
  d->numTerms++;
  return true;
}

RdpDim rdpAdd(const RdpDim *a, const RdpDim *b) {
  RdpDim r;
  if (!bothKnown(a, b, &r)) return r;
  r = *a;
  for (int i = 0; i < b->numTerms; i++)
    if (!addTerm(&r, &b->terms[i])) return rdpNac();
  return r;
}

RdpDim rdpSub(const RdpDim *a, const RdpDim *b) {
  RdpDim r;
  if (!bothKnown(a, b, &r)) return r;
  r = *a;
  for (int i = 0; i < b->numTerms; i++) {
    RdpTerm t = b->terms[i];
    if (t.coeff == INT64_MIN) return rdpNac();
    t.coeff = -t.coeff;
    if (!addTerm(&r, &t)) return rdpNac();
  }
  return r;
}

RdpDim rdpMul(const RdpDim *a, const RdpDim *b) {
  RdpDim r;
  if (!bothKnown(a, b, &r)) return r;
  r = rdpConst(0);
  for (int i = 0; i < a->numTerms; i++)
    for (int j = 0; j < b->numTerms; j++) {
      RdpTerm t;
      if (!strataCheckedMul(a->terms[i].coeff, b->terms[j].coeff, &t.coeff)) return rdpNac();
      for (int s = 0; s < RDP_MAX_SYMS; s++) {
        unsigned e = (unsigned)a->terms[i].exp[s] + b->terms[j].exp[s];
        if (e > UINT8_MAX) return rdpNac();
        t.exp[s] = (uint8_t)e;
      }
      if (!addTerm(&r, &t)) return rdpNac();
    }
  return r;
}

RdpDim rdpDivExact(const RdpDim *a, const RdpDim *b) {
  RdpDim r;
  if (!bothKnown(a, b, &r)) return r;
  if (rdpEqual(a, b) && a->numTerms > 0) return rdpConst(1);
  if (b->numTerms != 1) return rdpNac(); /* zero or a multi-term divisor */
  const RdpTerm *d = &b->terms[0];
  r = *a;
  for (int i = 0; i < r.numTerms; i++) {
    RdpTerm *t = &r.terms[i];
    if ((t->coeff == INT64_MIN && d->coeff == -1) || t->coeff % d->coeff != 0) return rdpNac();
    t->coeff /= d->coeff;
    for (int s = 0; s < RDP_MAX_SYMS; s++) {
      if (t->exp[s] < d->exp[s]) return rdpNac();
      t->exp[s] = (uint8_t)(t->exp[s] - d->exp[s]);
    }
  }
  /* Dividing every term by one monomial keeps terms distinct, but a
   * negative divisor's sign or the degree shift can change their order. */
  RdpDim sorted = rdpConst(0);
  for (int i = 0; i < r.numTerms; i++)
    if (!addTerm(&sorted, &r.terms[i])) return rdpNac();
  return sorted;
}

RdpDim rdpRenumber(const RdpDim *d, const int *perm) {
  if (d->level != RDP_KNOWN) return *d;
  RdpDim r = rdpConst(0);
  for (int i = 0; i < d->numTerms; i++) {
    RdpTerm t = {.coeff = d->terms[i].coeff};
    for (int s = 0; s < RDP_MAX_SYMS; s++) {
      if (!d->terms[i].exp[s]) continue;
      if (perm[s] < 0) return rdpNac();
      t.exp[perm[s]] = d->terms[i].exp[s];
    }
    if (!addTerm(&r, &t)) return rdpNac();
  }
  return r;
}

StrataRdpKind rdpKind(const RdpDim *d) {
  if (d->level == RDP_UNDEF) return STRATA_RDP_UNDEF;
  if (d->level == RDP_NAC) return STRATA_RDP_NAC;
  int64_t c;
  if (rdpGetConst(d, &c)) return STRATA_RDP_CONST;
  if (d->numTerms == 1 && d->terms[0].coeff == 1 && degree(&d->terms[0]) == 1)
    return STRATA_RDP_SYMBOL;
  return STRATA_RDP_EXPR;
}

bool rdpEval(const RdpDim *d, const int64_t *vals, size_t numVals, int64_t *out) {
  if (d->level != RDP_KNOWN) return false;
  int64_t sum = 0;
  for (int i = 0; i < d->numTerms; i++) {
    int64_t t = d->terms[i].coeff;
    for (int s = 0; s < RDP_MAX_SYMS; s++)
      for (int e = 0; e < d->terms[i].exp[s]; e++)
        if ((size_t)s >= numVals || !strataCheckedMul(t, vals[s], &t)) return false;
    if (!strataCheckedAdd(sum, t, &sum)) return false;
  }
  *out = sum;
  return true;
}

bool rdpProvablyLE(const RdpDim *a, const RdpDim *b) {
  RdpDim diff = rdpSub(b, a);
  if (diff.level != RDP_KNOWN) return false;
  /* With every symbol >= 1 each monomial is >= 1, so non-negative
   * coefficients make the difference >= 0. */
  for (int i = 0; i < diff.numTerms; i++)
    if (diff.terms[i].coeff < 0) return false;
  return true;
}

void rdpPrint(const RdpDim *d, const char *const *names, char *buf, size_t size) {
  if (size == 0) return;
  buf[0] = '\0';
  if (d->level != RDP_KNOWN) {
    snprintf(buf, size, "%s", d->level == RDP_UNDEF ? "undef" : "nac");
    return;
  }
  if (d->numTerms == 0) {
    snprintf(buf, size, "0");
    return;
  }
  size_t n = 0;
#define EMIT(...)                                                              \
  do {                                                                         \
    if (n < size) n += (size_t)snprintf(buf + n, size - n, __VA_ARGS__);       \
  } while (0)
  for (int i = 0; i < d->numTerms; i++) {
    const RdpTerm *t = &d->terms[i];
    int64_t c = t->coeff;
    if (i > 0) EMIT(c < 0 ? " - " : " + ");
    uint64_t mag = c < 0 ? (uint64_t)0 - (uint64_t)c : (uint64_t)c;
    if (i == 0 && c < 0) EMIT("-");
    bool first = true;
    if (mag != 1 || degree(t) == 0) {
      EMIT("%llu", (unsigned long long)mag);
      first = false;
    }
    for (int s = 0; s < RDP_MAX_SYMS; s++) {
      if (!t->exp[s]) continue;
      EMIT("%s%s", first ? "" : "*", names && names[s] ? names[s] : "?");
      if (t->exp[s] > 1) EMIT("^%d", t->exp[s]);
      first = false;
    }
  }
#undef EMIT
}
