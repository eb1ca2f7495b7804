/* Einsum equations -> loop nests (see nn_einsum.h). Subscripts are "raw"
 * ids while parsing: a-z 0..25, A-Z 26..51, the ellipsis dims 52.. (right
 * aligned, so operands with fewer ellipsis dims broadcast as in numpy). */
#include "nn_einsum.h"
#include <stdio.h>
#include <string.h>

#define NUM_LETTERS 52

typedef struct {
  int n;                       /* letters */
  int raw[STRATA_MAX_RANK + 1];
  int ellAt;                   /* index in raw[] where "..." stands, -1 if none */
} Term;

static void rawName(int raw, char *buf, size_t size) {
  if (raw < 26) snprintf(buf, size, "'%c'", 'a' + raw);
  else if (raw < NUM_LETTERS) snprintf(buf, size, "'%c'", 'A' + raw - 26);
  else snprintf(buf, size, "'...' (dim %d)", raw - NUM_LETTERS);
}

/* One term, from *p up to ',', "->" or the end. */
static bool parseTerm(const char **p, Term *t, const char *what, char *why, size_t size) {
  t->n = 0;
  t->ellAt = -1;
  for (const char *s = *p;; s++) {
    char c = *s;
    if (c == '\0' || c == ',' || (c == '-' && s[1] == '>')) {
      *p = s;
      return true;
    }
    if (c == ' ') continue;
    if (c == '.') {
      if (strncmp(s, "...", 3) || t->ellAt >= 0) {
        snprintf(why, size, "%s: '.' must be part of one '...'", what);
        return false;
      }
      t->ellAt = t->n;
      s += 2;
      continue;
    }
    bool lower = c >= 'a' && c <= 'z', upper = c >= 'A' && c <= 'Z';
    if (!lower && !upper) {
      snprintf(why, size, "%s: unexpected character '%c' (subscripts are letters)", what, c);
      return false;
    }
    if (t->n == STRATA_MAX_RANK) {
      snprintf(why, size, "%s has more than %d subscripts", what, STRATA_MAX_RANK);
      return false;
    }
    t->raw[t->n++] = lower ? c - 'a' : 26 + c - 'A';
  }
}

/* Raw ids of a term's dims, its "..." expanded to `ell` of ellRank ids. */
static int expand(const Term *t, int ell, int ellRank, int *out) {
  int k = 0;
  for (int i = 0; i <= t->n; i++) {
    if (i == t->ellAt)
      for (int j = 0; j < ell; j++) out[k++] = NUM_LETTERS + ellRank - ell + j;
    if (i < t->n) out[k++] = t->raw[i];
  }
  return k;
}

static bool parseOutput(const char *rhs, const Term *in, int numInputs, int ellRank, int *raw, int *rank,
                        char *why, size_t size) {
  int count[NUM_LETTERS] = {0};
  for (int i = 0; i < numInputs; i++)
    for (int d = 0; d < in[i].n; d++) count[in[i].raw[d]]++;
  *rank = 0;
  if (!rhs) { /* implicit: "..." then the letters used once, in ASCII order */
    for (int j = 0; j < ellRank; j++) raw[(*rank)++] = NUM_LETTERS + j;
    static const int kAscii[2][2] = {{26, 52}, {0, 26}}; /* A-Z before a-z */
    for (int r = 0; r < 2; r++)
      for (int l = kAscii[r][0]; l < kAscii[r][1]; l++)
        if (count[l] == 1) {
          if (*rank == STRATA_MAX_RANK) {
            snprintf(why, size, "the implicit result has more than %d dims", STRATA_MAX_RANK);
            return false;
          }
          raw[(*rank)++] = l;
        }
    return true;
  }
  Term out;
  const char *p = rhs;
  if (!parseTerm(&p, &out, "the result term", why, size)) return false;
  if (*p) {
    snprintf(why, size, "the result term is followed by '%s'", p);
    return false;
  }
  if (out.ellAt < 0 && ellRank > 0) {
    snprintf(why, size, "operands have %d dims under '...' but the result term has no '...'", ellRank);
    return false;
  }
  if (out.n + (out.ellAt >= 0 ? ellRank : 0) > STRATA_MAX_RANK) {
    snprintf(why, size, "the result has more than %d dims", STRATA_MAX_RANK);
    return false;
  }
  bool seen[NUM_LETTERS] = {false};
  for (int d = 0; d < out.n; d++) {
    char name[32];
    rawName(out.raw[d], name, sizeof name);
    if (!count[out.raw[d]] || seen[out.raw[d]]) {
      snprintf(why, size, "result subscript %s %s", name,
               seen[out.raw[d]] ? "appears twice" : "appears in no operand's term");
      return false;
    }
    seen[out.raw[d]] = true;
  }
  *rank = expand(&out, ellRank, ellRank, raw);
  return true;
}

bool nnEinsumParse(const char *equation, int numInputs, const int *ranks,
                   const int64_t (*dims)[STRATA_MAX_RANK], NnEinsum *e, char *why, size_t whySize) {
  memset(e, 0, sizeof *e);
  if (numInputs < 1 || numInputs > NN_EINSUM_MAX_INPUTS) {
    snprintf(why, whySize, "takes 1 to %d operands, got %d", NN_EINSUM_MAX_INPUTS, numInputs);
    return false;
  }
  const char *arrow = strstr(equation, "->"), *p = equation;
  Term in[NN_EINSUM_MAX_INPUTS];
  int terms = 0, ellRank = 0, ell[NN_EINSUM_MAX_INPUTS];
  for (;; p++) {
    char what[48];
    snprintf(what, sizeof what, "the term of operand #%d", terms);
    if (terms == numInputs) {
      snprintf(why, whySize, "has more terms than the %d operand(s)", numInputs);
      return false;
    }
    if (!parseTerm(&p, &in[terms], what, why, whySize)) return false;
    const Term *t = &in[terms];
    ell[terms] = ranks[terms] - t->n;
    if (ell[terms] < 0 || (t->ellAt < 0 && ell[terms] != 0)) {
      snprintf(why, whySize, "%s has %d subscripts%s but the operand has rank %d", what, t->n,
               t->ellAt >= 0 ? " and '...'" : "", ranks[terms]);
      return false;
    }
    if (ell[terms] > ellRank) ellRank = ell[terms];
    terms++;
    if (*p != ',') break;
  }
  if (terms != numInputs) {
    snprintf(why, whySize, "has %d term(s) for %d operand(s)", terms, numInputs);
    return false;
  }
  if (p != arrow && *p) {
    snprintf(why, whySize, "unexpected '%s' after the operands' terms", p);
    return false;
  }
  int outRaw[STRATA_MAX_RANK], loopOf[NN_EINSUM_MAX_LOOPS];
  if (!parseOutput(arrow ? arrow + 2 : NULL, in, numInputs, ellRank, outRaw, &e->outRank, why, whySize))
    return false;
  for (int l = 0; l < NN_EINSUM_MAX_LOOPS; l++) loopOf[l] = -1;
  for (int d = 0; d < e->outRank; d++) loopOf[outRaw[d]] = d;
  e->numLoops = e->outRank;
  int raw[NN_EINSUM_MAX_INPUTS][STRATA_MAX_RANK];
  for (int i = 0; i < numInputs; i++) expand(&in[i], ell[i], ellRank, raw[i]);
  /* Summed loops in raw-id order (any order sums the same terms). */
  for (int r = 0; r < NN_EINSUM_MAX_LOOPS; r++)
    for (int i = 0; i < numInputs && loopOf[r] < 0; i++)
      for (int d = 0; d < ranks[i]; d++)
        if (raw[i][d] == r && loopOf[r] < 0) loopOf[r] = e->numLoops++;
  /* Extents: the size other than 1 if any, else '?' if some dim is, else 1. */
  int64_t big[NN_EINSUM_MAX_LOOPS];
  bool dynamic[NN_EINSUM_MAX_LOOPS] = {false};
  for (int l = 0; l < e->numLoops; l++) big[l] = -1;
  e->numInputs = numInputs;
  for (int i = 0; i < numInputs; i++) {
    e->rank[i] = ranks[i];
    for (int d = 0; d < ranks[i]; d++) {
      int l = e->loop[i][d] = loopOf[raw[i][d]];
      int64_t s = dims[i][d];
      char name[32];
      rawName(raw[i][d], name, sizeof name);
      for (int d2 = 0; d2 < d; d2++)
        if (raw[i][d2] == raw[i][d] && s >= 0 && dims[i][d2] >= 0 && s != dims[i][d2]) {
          snprintf(why, whySize, "operand #%d repeats subscript %s for dims %d and %d of sizes %lld and %lld "
                   "(a diagonal needs equal sizes)", i, name, d2, d, (long long)dims[i][d2], (long long)s);
          return false;
        }
      if (s < 0) dynamic[l] = true;
      else if (s != 1 && big[l] >= 0 && big[l] != s) {
        snprintf(why, whySize, "subscript %s has sizes %lld and %lld (they must be equal or 1)", name,
                 (long long)big[l], (long long)s);
        return false;
      } else if (s != 1) big[l] = s;
    }
  }
  for (int l = 0; l < e->numLoops; l++) e->extent[l] = big[l] >= 0 ? big[l] : dynamic[l] ? -1 : 1;
  return true;
}
