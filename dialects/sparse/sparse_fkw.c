/* Pattern masks, kernel-pattern assignment, Filter Kernel Reorder, the FKW
 * arrays and the CSR baseline (sparse.h): plain C over f32 weights, shared
 * by the sparse passes, the interpreter and the lowerings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sparse.h"

int sparsePopcount(int64_t mask) { return __builtin_popcountll((unsigned long long)mask); }

bool sparsePatternSetValid(const int64_t *masks, int64_t n, char *why, size_t whySize) {
  if (n < 1 || n > SPARSE_MAX_PATTERNS) {
    snprintf(why, whySize, "a pattern set has 1 to %d masks, not %lld", SPARSE_MAX_PATTERNS,
             (long long)n);
    return false;
  }
  for (int64_t i = 0; i < n; i++) {
    if (masks[i] < 1 || masks[i] > 511) {
      snprintf(why, whySize, "pattern %lld is %lld: a mask is a nonzero 9-bit value (1 to 511)",
               (long long)i, (long long)masks[i]);
      return false;
    }
    for (int64_t j = 0; j < i; j++)
      if (masks[j] == masks[i]) {
        snprintf(why, whySize, "patterns %lld and %lld are both 0x%03llx", (long long)j, (long long)i,
                 (unsigned long long)masks[i]);
        return false;
      }
  }
  return true;
}

int64_t sparseSupport(const float *k9) {
  int64_t m = 0;
  for (int b = 0; b < SPARSE_KERNEL; b++)
    if (k9[b] != 0.0f) m |= (int64_t)1 << b;
  return m;
}

int sparseKernelPattern(const float *k9, const int64_t *masks, int numMasks) {
  int64_t s = sparseSupport(k9);
  if (!s) return SPARSE_PRUNED;
  for (int p = 0; p < numMasks; p++)
    if ((s & ~masks[p]) == 0) return p;
  return SPARSE_NO_PATTERN;
}

int64_t sparseNaturalPattern(const float *k9, int n) {
  int64_t m = (int64_t)1 << SPARSE_CENTRE_BIT;
  for (int k = 1; k < n && k < SPARSE_KERNEL; k++) {
    int best = -1;
    for (int b = 0; b < SPARSE_KERNEL; b++) {
      if (m >> b & 1) continue;
      if (best < 0 || __builtin_fabsf(k9[b]) > __builtin_fabsf(k9[best])) best = b;
    }
    m |= (int64_t)1 << best;
  }
  return m;
}

bool sparseAssignPatterns(const float *w, int64_t M, int64_t C, const int64_t *masks, int P,
                          int *pat, int64_t *badM, int64_t *badC) {
  for (int64_t m = 0; m < M; m++)
    for (int64_t c = 0; c < C; c++) {
      int id = sparseKernelPattern(w + (m * C + c) * SPARSE_KERNEL, masks, P);
      if (id == SPARSE_NO_PATTERN) {
        *badM = m;
        *badC = c;
        return false;
      }
      pat[m * C + c] = id;
    }
  return true;
}

/* ---- FKR ---- */

static int64_t filterLength(const int *pat, int64_t C, int64_t m) {
  int64_t n = 0;
  for (int64_t c = 0; c < C; c++) n += pat[m * C + c] >= 0;
  return n;
}

/* Pattern-id counts per filter: the filter's kernels sorted by id are the
 * ids repeated by their counts, so the number of positions where two
 * sorted lists agree follows from the counts alone. */
static int64_t similarity(const int64_t *ca, const int64_t *cb, int P) {
  int64_t same = 0, ea = 0, eb = 0; /* [ea, ea+ca[p]) is id p's run in a */
  for (int p = 0; p < P; p++) {
    int64_t lo = ea > eb ? ea : eb, hia = ea + ca[p], hib = eb + cb[p];
    int64_t hi = hia < hib ? hia : hib;
    if (hi > lo) same += hi - lo;
    ea = hia;
    eb = hib;
  }
  return same;
}

void sparseFkrOrder(const int *pat, int64_t M, int64_t C, int P, int64_t *order, int64_t *groups,
                    int64_t *numGroups) {
  int64_t *len = malloc(sizeof *len * (size_t)(M ? M : 1));
  int64_t *counts = calloc((size_t)(M ? M : 1) * (size_t)P, sizeof *counts);
  bool *placed = calloc((size_t)(M ? M : 1), 1);
  if (!len || !counts || !placed) {
    /* Out of memory: the original order, one group (still a valid FKR). */
    for (int64_t m = 0; m < M; m++) order[m] = m;
    groups[0] = 0;
    groups[1] = M;
    *numGroups = 1;
    free(len), free(counts), free(placed);
    return;
  }
  for (int64_t m = 0; m < M; m++) {
    len[m] = filterLength(pat, C, m);
    for (int64_t c = 0; c < C; c++)
      if (pat[m * C + c] >= 0) counts[m * P + pat[m * C + c]]++;
  }
  int64_t s = 0, g = 0;
  groups[0] = 0;
  while (s < M) {
    /* The shortest unplaced length starts the next group. */
    int64_t L = -1;
    for (int64_t m = 0; m < M; m++)
      if (!placed[m] && (L < 0 || len[m] < L)) L = len[m];
    int64_t last = -1;
    for (;;) {
      int64_t best = -1, bestSim = -1;
      for (int64_t m = 0; m < M; m++) {
        if (placed[m] || len[m] != L) continue;
        int64_t sim = last < 0 ? 0 : similarity(counts + last * P, counts + m * P, P);
        if (sim > bestSim) best = m, bestSim = sim;
        if (last < 0) break; /* the group starts at its lowest-numbered filter */
      }
      if (best < 0) break;
      placed[best] = true;
      order[s++] = best;
      last = best;
    }
    groups[++g] = s;
  }
  *numGroups = g;
  free(len), free(counts), free(placed);
}

/* ---- FKW ---- */

void sparseFkwFree(SparseFkw *f) {
  free(f->offset), free(f->reorder), free(f->index), free(f->stride), free(f->groups),
      free(f->weight);
  memset(f, 0, sizeof *f);
}

bool sparseFkwBuild(const float *w, const int *pat, int64_t M, int64_t C, const int64_t *masks, int P,
                    const int64_t *order, const int64_t *groups, int64_t numGroups, SparseFkw *out) {
  memset(out, 0, sizeof *out);
  /* The ids index `masks`, which `out` copies into room for 64: a caller's
   * bad id or count is refused here rather than read or written past. */
  if (P < 1 || P > SPARSE_MAX_PATTERNS || M < 0 || C < 0) return false;
  out->M = M, out->C = C, out->P = P;
  memcpy(out->masks, masks, sizeof *masks * (size_t)P);
  int64_t nnz = 0, nw = 0;
  for (int64_t i = 0; i < M * C; i++) {
    if (pat[i] >= P) return false;
    if (pat[i] >= 0) nnz++, nw += sparsePopcount(masks[pat[i]]);
  }
  if (!groups) numGroups = 1;
  out->offset = malloc(sizeof(int64_t) * (size_t)(M + 1));
  out->reorder = malloc(sizeof(int64_t) * (size_t)(M ? M : 1));
  out->index = malloc(sizeof(int64_t) * (size_t)(nnz ? nnz : 1));
  out->stride = malloc(sizeof(int64_t) * (size_t)(M * (P + 1) + 1));
  out->groups = malloc(sizeof(int64_t) * (size_t)(numGroups + 1));
  out->weight = malloc(sizeof(float) * (size_t)(nw ? nw : 1));
  if (!out->offset || !out->reorder || !out->index || !out->stride || !out->groups || !out->weight) {
    sparseFkwFree(out);
    return false;
  }
  out->numGroups = numGroups;
  out->numWeights = nw;
  if (groups) memcpy(out->groups, groups, sizeof(int64_t) * (size_t)(numGroups + 1));
  else out->groups[0] = 0, out->groups[1] = M;
  int64_t j = 0, wi = 0;
  out->offset[0] = 0;
  for (int64_t s = 0; s < M; s++) {
    int64_t m = order ? order[s] : s;
    out->reorder[s] = m;
    int64_t *st = out->stride + s * (P + 1);
    st[0] = 0;
    for (int p = 0; p < P; p++) {
      for (int64_t c = 0; c < C; c++) {
        if (pat[m * C + c] != p) continue;
        out->index[j++] = c;
        const float *k9 = w + (m * C + c) * SPARSE_KERNEL;
        for (int b = 0; b < SPARSE_KERNEL; b++)
          if (masks[p] >> b & 1) out->weight[wi++] = k9[b];
      }
      st[p + 1] = j - out->offset[s];
    }
    out->offset[s + 1] = j;
  }
  return true;
}

int64_t *sparseFkwWeightStarts(const SparseFkw *f) {
  int64_t nnz = f->offset[f->M];
  int64_t *ws = malloc(sizeof *ws * (size_t)(nnz + 1));
  if (!ws) return NULL;
  int64_t at = 0;
  for (int64_t s = 0; s < f->M; s++) {
    const int64_t *st = f->stride + s * (f->P + 1);
    for (int64_t p = 0; p < f->P; p++)
      for (int64_t k = st[p]; k < st[p + 1]; k++) {
        ws[f->offset[s] + k] = at;
        at += sparsePopcount(f->masks[p]);
      }
  }
  ws[nnz] = at;
  return ws;
}

void sparseFkwToDense(const SparseFkw *f, float *w) {
  memset(w, 0, sizeof *w * (size_t)(f->M * f->C * SPARSE_KERNEL));
  int64_t at = 0;
  for (int64_t s = 0; s < f->M; s++) {
    const int64_t *st = f->stride + s * (f->P + 1);
    for (int64_t p = 0; p < f->P; p++)
      for (int64_t k = st[p]; k < st[p + 1]; k++) {
        float *k9 = w + (f->reorder[s] * f->C + f->index[f->offset[s] + k]) * SPARSE_KERNEL;
        for (int b = 0; b < SPARSE_KERNEL; b++)
          if (f->masks[p] >> b & 1) k9[b] = f->weight[at++];
      }
  }
}

bool sparseFkwFiltersShare(const SparseFkw *f, int64_t Mg, int64_t a, int64_t b) {
  const int64_t P = f->P, *sa = f->stride + a * (P + 1), *sb = f->stride + b * (P + 1);
  if (f->reorder[a] / Mg != f->reorder[b] / Mg || memcmp(sa, sb, sizeof *sa * (size_t)(P + 1))) return false;
  return !memcmp(f->index + f->offset[a], f->index + f->offset[b], sizeof(int64_t) * (size_t)sa[P]);
}

double sparseFkwIndexBytes(const SparseFkw *f, int indexBytes) {
  double n = (double)(f->M + 1) + (double)f->M + (double)f->offset[f->M] + (double)(f->M * (f->P + 1));
  return n * indexBytes;
}

/* ---- CSR ---- */

void sparseCsrFree(SparseCsr *c) {
  free(c->rowPtr), free(c->col), free(c->val);
  memset(c, 0, sizeof *c);
}

bool sparseCsrBuild(const float *w, int64_t M, int64_t K, SparseCsr *out) {
  memset(out, 0, sizeof *out);
  out->M = M, out->K = K;
  int64_t nnz = 0;
  for (int64_t i = 0; i < M * K; i++) nnz += w[i] != 0.0f;
  out->rowPtr = malloc(sizeof(int64_t) * (size_t)(M + 1));
  out->col = malloc(sizeof(int64_t) * (size_t)(nnz ? nnz : 1));
  out->val = malloc(sizeof(float) * (size_t)(nnz ? nnz : 1));
  if (!out->rowPtr || !out->col || !out->val) {
    sparseCsrFree(out);
    return false;
  }
  int64_t j = 0;
  for (int64_t m = 0; m < M; m++) {
    out->rowPtr[m] = j;
    for (int64_t k = 0; k < K; k++)
      if (w[m * K + k] != 0.0f) out->col[j] = k, out->val[j++] = w[m * K + k];
  }
  out->rowPtr[M] = j;
  return true;
}

double sparseCsrIndexBytes(const SparseCsr *c, int indexBytes) {
  return ((double)(c->M + 1) + (double)c->rowPtr[c->M]) * indexBytes;
}
