/* Memory planning (SOD² B6): offsets in one arena for tensors with known
 * sizes and lifetimes, computed once per shape class. Memory usually falls
 * away from the peak step on both sides, so SOD²'s plan stacks the tensors
 * live at the peak first (they alone decide the lower bound) and then walks
 * outwards from the peak, forward and backward in turn, putting each
 * tensor it meets into the lowest free gap among the placed tensors whose
 * lifetimes overlap its own. A best-fit greedy in program order (MNN's) and
 * an exhaustive search (for tests) use the same gap search. */
#include <stdlib.h>
#include <string.h>
#include "strata/rdp.h"
#include "strata/support.h"

static bool overlapsInTime(const StrataMemTensor *a, const StrataMemTensor *b) {
  return a->start <= b->end && b->start <= a->end;
}

typedef struct {
  int64_t lo, hi;
} Span;

static int spanCompare(const void *x, const void *y) {
  const Span *a = x, *b = y;
  return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Offset for tensor `i` among the placed ones (placed[k] true) it overlaps:
 * the lowest gap that fits (bestFit false) or the smallest one (true), else
 * above them all. -1 on overflow. `spans` has room for n entries. */
static int64_t findOffset(const StrataMemTensor *t, size_t n, const int64_t *offsets, const bool *placed, size_t i,
                          bool bestFit, Span *spans) {
  size_t m = 0;
  for (size_t k = 0; k < n; k++)
    if (placed[k] && k != i && overlapsInTime(&t[k], &t[i]) && t[k].size > 0) {
      int64_t hi;
      if (!strataCheckedAdd(offsets[k], t[k].size, &hi)) return -1;
      spans[m++] = (Span){offsets[k], hi};
    }
  qsort(spans, m, sizeof *spans, spanCompare);
  int64_t cursor = 0, best = -1, bestGap = INT64_MAX;
  for (size_t k = 0; k < m; k++) {
    int64_t gap = spans[k].lo - cursor;
    if (gap >= t[i].size && (!bestFit || gap < bestGap)) {
      if (!bestFit) return cursor;
      best = cursor, bestGap = gap;
    }
    if (spans[k].hi > cursor) cursor = spans[k].hi;
  }
  return best >= 0 ? best : cursor;
}

/* Places tensors in `order`; returns the arena size or -1. */
static int64_t placeInOrder(const StrataMemTensor *t, size_t n, const size_t *order, bool bestFit, int64_t *offsets) {
  bool *placed = calloc(n ? n : 1, sizeof *placed);
  Span *spans = malloc((n ? n : 1) * sizeof *spans);
  int64_t arena = 0;
  for (size_t k = 0; placed && spans && k < n && arena >= 0; k++) {
    size_t i = order[k];
    int64_t off = findOffset(t, n, offsets, placed, i, bestFit, spans), end;
    if (off < 0 || !strataCheckedAdd(off, t[i].size, &end)) arena = -1;
    else {
      offsets[i] = off;
      placed[i] = true;
      if (end > arena) arena = end;
    }
  }
  if (!placed || !spans) arena = -1;
  free(placed);
  free(spans);
  return arena;
}

/* Sorts indices [from, to) of order by size, largest first (stable by index). */
static void sortBySize(const StrataMemTensor *t, size_t *order, size_t from, size_t to) {
  for (size_t a = from + 1; a < to; a++) /* insertion sort: qsort would need the sizes in a global */
    for (size_t b = a; b > from; b--) {
      size_t x = order[b - 1], y = order[b];
      if (t[y].size > t[x].size || (t[y].size == t[x].size && y < x)) order[b - 1] = y, order[b] = x;
      else break;
    }
}

int64_t strataMemPlanPeakWalk(const StrataMemTensor *t, size_t n, int64_t *offsets) {
  if (n == 0) return 0;
  int64_t lo = t[0].start, hi = t[0].end;
  for (size_t i = 0; i < n; i++) {
    if (t[i].start > t[i].end || t[i].size < 0) return -1;
    lo = t[i].start < lo ? t[i].start : lo;
    hi = t[i].end > hi ? t[i].end : hi;
  }
  /* The peak step: the largest sum of live sizes (first on ties). */
  int64_t peakStep = lo, peakBytes = -1;
  for (size_t i = 0; i < n; i++) { /* the peak is at some tensor's start */
    int64_t s = t[i].start, live = 0;
    for (size_t k = 0; k < n; k++)
      if (t[k].start <= s && s <= t[k].end && !strataCheckedAdd(live, t[k].size, &live)) return -1;
    if (live > peakBytes || (live == peakBytes && s < peakStep)) peakBytes = live, peakStep = s;
  }
  size_t *order = malloc(n * sizeof *order), m = 0;
  if (!order) return -1;
  for (size_t i = 0; i < n; i++)
    if (t[i].start <= peakStep && peakStep <= t[i].end) order[m++] = i;
  sortBySize(t, order, 0, m);
  /* Outwards from the peak: step peak+1 (tensors starting there), then
   * peak-1 (tensors ending there), peak+2, peak-2, ... */
  for (int64_t d = 1; peakStep + d <= hi || peakStep - d >= lo; d++) {
    for (int side = 0; side < 2; side++) {
      int64_t s = side == 0 ? peakStep + d : peakStep - d;
      size_t from = m;
      for (size_t i = 0; i < n; i++) {
        bool meets = side == 0 ? t[i].start == s && t[i].start > peakStep : t[i].end == s && t[i].end < peakStep;
        if (meets) order[m++] = i;
      }
      sortBySize(t, order, from, m);
    }
  }
  int64_t arena = m == n ? placeInOrder(t, n, order, false, offsets) : -1;
  free(order);
  return arena;
}

int64_t strataMemPlanBestFit(const StrataMemTensor *t, size_t n, int64_t *offsets) {
  size_t *order = malloc((n ? n : 1) * sizeof *order);
  if (!order) return -1;
  for (size_t i = 0; i < n; i++) order[i] = i;
  /* Program order: by first step (stable). */
  for (size_t a = 1; a < n; a++)
    for (size_t b = a; b > 0 && t[order[b]].start < t[order[b - 1]].start; b--) {
      size_t x = order[b];
      order[b] = order[b - 1];
      order[b - 1] = x;
    }
  int64_t arena = placeInOrder(t, n, order, true, offsets);
  free(order);
  return arena;
}

/* Next permutation in lexicographic order; false after the last. */
static bool nextPermutation(size_t *a, size_t n) {
  if (n < 2) return false;
  size_t i = n - 1;
  while (i > 0 && a[i - 1] >= a[i]) i--;
  if (i == 0) return false;
  size_t j = n - 1;
  while (a[j] <= a[i - 1]) j--;
  size_t x = a[i - 1];
  a[i - 1] = a[j];
  a[j] = x;
  for (size_t l = i, r = n - 1; l < r; l++, r--) x = a[l], a[l] = a[r], a[r] = x;
  return true;
}

int64_t strataMemPlanExhaustive(const StrataMemTensor *t, size_t n, int64_t *offsets) {
  if (n > 9) return -1;
  size_t order[9];
  int64_t trial[9], best = -1;
  for (size_t i = 0; i < n; i++) order[i] = i;
  do {
    int64_t arena = placeInOrder(t, n, order, false, trial);
    if (arena >= 0 && (best < 0 || arena < best)) {
      best = arena;
      memcpy(offsets, trial, n * sizeof *trial);
    }
  } while (nextPermutation(order, n));
  return n == 0 ? 0 : best;
}

bool strataMemPlanValid(const StrataMemTensor *t, size_t n, const int64_t *offsets) {
  for (size_t i = 0; i < n; i++) {
    if (offsets[i] < 0) return false;
    for (size_t k = i + 1; k < n; k++)
      if (overlapsInTime(&t[i], &t[k]) && t[i].size > 0 && t[k].size > 0 && offsets[i] < offsets[k] + t[k].size &&
          offsets[k] < offsets[i] + t[i].size)
        return false;
  }
  return true;
}
