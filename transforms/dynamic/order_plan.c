/* Execution-order planning (SOD² B5): the order of a partition's nodes that
 * minimises the peak of live intermediate bytes. Optimal ordering is
 * NP-complete in general, but a partition of up to STRATA_ORDER_MAX_EXACT
 * nodes is solved exactly by dynamic programming over the sets of executed
 * nodes: what is live after a set S does not depend on the order S ran in,
 * so best[S ∪ {v}] = min(max(best[S], live(S) + size(v))). Sizes are RDP
 * lattice elements: with constants the min and max are exact; with
 * symbols a peak replaces another only when it is provably smaller for
 * every symbol value >= 1, and a step whose max is not provable is dropped
 * (the symbolic comparison of the digest). */
#include <stdlib.h>
#include <string.h>
#include "rdp_internal.h"

/* max(a, b) when provable; false when incomparable (or not known). */
static bool maxOf(const RdpDim *a, const RdpDim *b, RdpDim *out) {
  if (rdpProvablyLE(a, b)) *out = *b;
  else if (rdpProvablyLE(b, a)) *out = *a;
  else return false;
  return true;
}

/* The number of consumers of each node (a node read twice counts twice). */
static size_t *consumerCounts(const RdpOrderProblem *p) {
  size_t *c = calloc(p->numNodes ? p->numNodes : 1, sizeof *c);
  if (!c) return NULL;
  for (size_t v = 0; v < p->numNodes; v++)
    for (size_t k = p->predStart[v]; k < p->predStart[v + 1]; k++) c[p->preds[k]]++;
  return c;
}

RdpDim rdpOrderPeak(const RdpOrderProblem *p, const size_t *order) {
  size_t *remaining = consumerCounts(p);
  if (!remaining) return rdpNac();
  RdpDim live = rdpConst(0), peak = rdpConst(0);
  for (size_t i = 0; i < p->numNodes && peak.level == RDP_KNOWN; i++) {
    size_t v = order[i];
    live = rdpAdd(&live, &p->size[v]);
    if (!maxOf(&peak, &live, &peak)) peak = rdpNac();
    for (size_t k = p->predStart[v]; k < p->predStart[v + 1]; k++) {
      size_t u = p->preds[k];
      if (--remaining[u] == 0 && !(p->isOutput && p->isOutput[u])) live = rdpSub(&live, &p->size[u]);
    }
    if (remaining[v] == 0 && !(p->isOutput && p->isOutput[v])) live = rdpSub(&live, &p->size[v]);
  }
  free(remaining);
  return peak;
}

/* Kahn's algorithm: false on a cycle. */
static bool isAcyclic(const RdpOrderProblem *p, const uint32_t *predMask) {
  uint32_t done = 0, all = p->numNodes == 32 ? UINT32_MAX : (1u << p->numNodes) - 1;
  for (bool progress = true; progress && done != all;) {
    progress = false;
    for (size_t v = 0; v < p->numNodes; v++)
      if (!(done >> v & 1) && (predMask[v] & ~done) == 0) done |= 1u << v, progress = true;
  }
  return done == all;
}

bool rdpPlanOrder(const RdpOrderProblem *p, size_t *order, RdpDim *peak) {
  size_t n = p->numNodes;
  if (n > STRATA_ORDER_MAX_EXACT) return false;
  uint32_t predMask[STRATA_ORDER_MAX_EXACT] = {0}, consumers[STRATA_ORDER_MAX_EXACT] = {0};
  for (size_t v = 0; v < n; v++)
    for (size_t k = p->predStart[v]; k < p->predStart[v + 1]; k++) {
      if (p->preds[k] >= n) return false;
      predMask[v] |= 1u << p->preds[k];
      consumers[p->preds[k]] |= 1u << v;
    }
  if (!isAcyclic(p, predMask)) return false;
  size_t states = (size_t)1 << n;
  RdpDim *best = malloc(states * sizeof *best);
  uint8_t *last = malloc(states);
  if (!best || !last) {
    free(best);
    free(last);
    return false;
  }
  for (size_t s = 0; s < states; s++) best[s] = rdpUndef();
  best[0] = rdpConst(0);
  for (size_t s = 0; s < states; s++) {
    if (best[s].level != RDP_KNOWN) continue;
    RdpDim live = rdpConst(0);
    for (size_t u = 0; u < n; u++)
      if ((s >> u & 1) && ((p->isOutput && p->isOutput[u]) || (consumers[u] & ~s)))
        live = rdpAdd(&live, &p->size[u]);
    for (size_t v = 0; v < n; v++) {
      if ((s >> v & 1) || (predMask[v] & ~s)) continue;
      RdpDim step = rdpAdd(&live, &p->size[v]), cand;
      if (!maxOf(&best[s], &step, &cand)) continue;
      size_t t = s | (size_t)1 << v;
      /* Strictly better only: ties keep the first order found, which
       * follows program order as far as it can. */
      if (best[t].level == RDP_UNDEF || (rdpProvablyLE(&cand, &best[t]) && !rdpEqual(&cand, &best[t]))) {
        best[t] = cand;
        last[t] = (uint8_t)v;
      }
    }
  }
  size_t full = states - 1;
  if (best[full].level == RDP_KNOWN) {
    *peak = best[full];
    for (size_t s = full, i = n; i > 0; i--) {
      order[i - 1] = last[s];
      s &= ~((size_t)1 << last[s]);
    }
  } else { /* no order's peak is provable: keep program order */
    for (size_t i = 0; i < n; i++) order[i] = i;
    *peak = rdpOrderPeak(p, order);
  }
  free(best);
  free(last);
  return true;
}

/* ---- The public, concrete-size API ---------------------------------------- */

static RdpDim *constSizes(const StrataOrderGraph *g) {
  RdpDim *s = malloc((g->numNodes ? g->numNodes : 1) * sizeof *s);
  if (s)
    for (size_t i = 0; i < g->numNodes; i++) s[i] = rdpConst(g->outBytes[i]);
  return s;
}

static int64_t constOrMinus1(const RdpDim *d) {
  int64_t c;
  return rdpGetConst(d, &c) ? c : -1;
}

int64_t strataOrderPeak(const StrataOrderGraph *g, const size_t *order) {
  size_t n = g->numNodes, *pos = malloc((n ? n : 1) * sizeof *pos);
  RdpDim *sizes = constSizes(g);
  int64_t result = -1;
  if (!pos || !sizes) goto done;
  for (size_t i = 0; i < n; i++) pos[i] = SIZE_MAX;
  for (size_t i = 0; i < n; i++) {
    if (order[i] >= n || pos[order[i]] != SIZE_MAX) goto done; /* not a permutation */
    pos[order[i]] = i;
  }
  for (size_t v = 0; v < n; v++)
    for (size_t k = g->predStart[v]; k < g->predStart[v + 1]; k++)
      if (g->preds[k] >= n || pos[g->preds[k]] >= pos[v]) goto done; /* not topological */
  RdpOrderProblem p = {n, sizes, g->predStart, g->preds, g->isOutput};
  RdpDim peak = rdpOrderPeak(&p, order);
  result = constOrMinus1(&peak);
done:
  free(pos);
  free(sizes);
  return result;
}

int64_t strataOrderPlanExact(const StrataOrderGraph *g, size_t *order) {
  RdpDim *sizes = constSizes(g), peak;
  if (!sizes) return -1;
  RdpOrderProblem p = {g->numNodes, sizes, g->predStart, g->preds, g->isOutput};
  bool ok = rdpPlanOrder(&p, order, &peak);
  free(sizes);
  return ok ? constOrMinus1(&peak) : -1;
}
