/* Memory planning (SOD² B6): offsets in one arena for tensors with known
 * sizes and lifetimes, computed once per shape class. Memory usually falls
 * away from the peak step on both sides, so SOD²'s plan stacks the tensors
 * live at the peak first (they alone decide the lower bound) and then walks
 * outwards from the peak, forward and backward in turn, putting each
 * tensor it meets into the lowest free gap among the placed tensors whose
 * lifetimes overlap its own. A best-fit greedy in program order (MNN's) and
 * an exhaustive search (for tests) use the same gap search. In libstrata_rt:
 * the compiler plans with it (--nn-rdp-plan) and so does compiled code, once
 * per shape class (shape_plan.c). */
#include <stdlib.h>
#include <string.h>
#include "strata/mem_plan.h"

static bool strataCheckedAdd(int64_t a, int64_t b, int64_t *out) { return !__builtin_add_overflow(a, b, out); }

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

/* A placement order is a sort of tensors by keys: qsort needs no context
 * when the keys travel with the index. */
typedef struct {
  int64_t distance; /* steps from the peak (peak walk) or first step (best fit) */
  int64_t side;     /* peak walk: 0 at the peak or forward, 1 backward */
  int64_t size;
  size_t index;
} PlaceKey;

static int keyCompare(const void *x, const void *y) {
  const PlaceKey *a = x, *b = y;
  if (a->distance != b->distance) return a->distance < b->distance ? -1 : 1;
  if (a->side != b->side) return a->side < b->side ? -1 : 1;
  if (a->size != b->size) return a->size > b->size ? -1 : 1; /* larger first */
  return a->index < b->index ? -1 : a->index > b->index;
}

/* Places tensors sorted by `keys`; returns the arena size or -1. */
static int64_t placeByKeys(const StrataMemTensor *t, size_t n, PlaceKey *keys, bool bestFit, int64_t *offsets) {
  size_t *order = malloc((n ? n : 1) * sizeof *order);
  if (!order) return -1;
  qsort(keys, n, sizeof *keys, keyCompare);
  for (size_t i = 0; i < n; i++) order[i] = keys[i].index;
  int64_t arena = placeInOrder(t, n, order, bestFit, offsets);
  free(order);
  return arena;
}

static bool validLifetimes(const StrataMemTensor *t, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (t[i].start < 0 || t[i].start > t[i].end || t[i].size < 0) return false;
  return true;
}

static int64_t peakWalk(const StrataMemTensor *t, size_t n, int64_t *offsets) {
  if (n == 0) return 0;
  if (!validLifetimes(t, n)) return -1;
  /* The peak step: the largest sum of live sizes, which is reached at some
   * tensor's first step (the earliest such step on ties). */
  int64_t peakStep = t[0].start, peakBytes = -1;
  for (size_t i = 0; i < n; i++) {
    int64_t s = t[i].start, live = 0;
    for (size_t k = 0; k < n; k++)
      if (t[k].start <= s && s <= t[k].end && !strataCheckedAdd(live, t[k].size, &live)) return -1;
    if (live > peakBytes || (live == peakBytes && s < peakStep)) peakBytes = live, peakStep = s;
  }
  /* Live at the peak first (largest first); then outwards: the tensors
   * starting one step after the peak, those ending one step before it,
   * two steps after, two before, ... */
  PlaceKey *keys = malloc(n * sizeof *keys);
  if (!keys) return -1;
  for (size_t i = 0; i < n; i++) {
    bool atPeak = t[i].start <= peakStep && peakStep <= t[i].end, forward = t[i].start > peakStep;
    int64_t distance = atPeak ? 0 : forward ? t[i].start - peakStep : peakStep - t[i].end;
    keys[i] = (PlaceKey){distance, !atPeak && !forward, t[i].size, i};
  }
  int64_t arena = placeByKeys(t, n, keys, false, offsets);
  free(keys);
  return arena;
}

int64_t strataMemPlanPeakWalk(const StrataMemTensor *t, size_t n, int64_t *offsets) {
  return peakWalk(t, n, offsets);
}

/* Places tensors by size, larger first (after their first step, when
 * byStart); returns the arena size or -1. */
static int64_t placeSorted(const StrataMemTensor *t, size_t n, bool byStart, bool bestFit, int64_t *offsets) {
  if (!validLifetimes(t, n)) return -1;
  PlaceKey *keys = malloc((n ? n : 1) * sizeof *keys);
  if (!keys) return -1;
  for (size_t i = 0; i < n; i++) keys[i] = (PlaceKey){byStart ? t[i].start : 0, 0, t[i].size, i};
  int64_t arena = placeByKeys(t, n, keys, bestFit, offsets);
  free(keys);
  return arena;
}

/* Program order: by first step; at one step the larger first. */
int64_t strataMemPlanBestFit(const StrataMemTensor *t, size_t n, int64_t *offsets) {
  return placeSorted(t, n, true, true, offsets);
}

int64_t strataMemPlanLargestFirst(const StrataMemTensor *t, size_t n, int64_t *offsets) {
  return placeSorted(t, n, false, false, offsets);
}

int64_t strataMemPlanLivePeak(const StrataMemTensor *t, size_t n) {
  if (!validLifetimes(t, n)) return -1;
  int64_t peak = 0;
  for (size_t i = 0; i < n; i++) { /* the peak is reached where some tensor starts */
    int64_t live = 0;
    for (size_t k = 0; k < n; k++)
      if (t[k].start <= t[i].start && t[i].start <= t[k].end && !strataCheckedAdd(live, t[k].size, &live)) return -1;
    if (live > peak) peak = live;
  }
  return peak;
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
  if (n > 9 || !validLifetimes(t, n)) return -1;
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

/* A plan's structure: its tensors from the bottom of the arena up (by
 * offset, then index). */
typedef struct {
  int64_t offset;
  size_t index;
} ByOffset;

static int byOffsetCompare(const void *x, const void *y) {
  const ByOffset *a = x, *b = y;
  if (a->offset != b->offset) return a->offset < b->offset ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

static bool structureOf(const int64_t *offsets, size_t n, size_t *order) {
  ByOffset *keys = malloc((n ? n : 1) * sizeof *keys);
  if (!keys) return false;
  for (size_t i = 0; i < n; i++) keys[i] = (ByOffset){offsets[i], i};
  qsort(keys, n, sizeof *keys, byOffsetCompare);
  for (size_t i = 0; i < n; i++) order[i] = keys[i].index;
  free(keys);
  return true;
}

int64_t strataMemPlanBest(const StrataMemTensor *t, size_t n, int64_t *offsets, StrataMemPlanShape *shape) {
  int64_t total = peakWalk(t, n, offsets), live = strataMemPlanLivePeak(t, n);
  if (total < 0) return total;
  int64_t *trial = malloc(sizeof *trial * (n ? n : 1));
  size_t *order = shape ? shape->order : malloc(sizeof *order * (n ? n : 1));
  /* above its bound: largest first or best fit may do better */
  for (int k = 0; k < 2 && trial && total > live; k++) {
    int64_t got = placeSorted(t, n, k == 1, k == 1, trial);
    if (got < 0 || got >= total) continue;
    total = got;
    memcpy(offsets, trial, sizeof *trial * n);
  }
  /* The kept plan is its own structure re-evaluated: each tensor no
   * higher than before (by induction up the order: the tensors below it
   * that it overlaps in time end no higher), so the arena is no larger,
   * and the structure reproduces it exactly. */
  if (!trial || !order || !structureOf(offsets, n, order)) total = -1;
  else total = strataMemPlanReuse(t, n, &(StrataMemPlanShape){order}, offsets);
  free(trial);
  if (!shape) free(order);
  return total;
}

int64_t strataMemPlanReuse(const StrataMemTensor *t, size_t n, const StrataMemPlanShape *shape, int64_t *offsets) {
  if (!validLifetimes(t, n)) return -1;
  bool *done = calloc(n ? n : 1, sizeof *done);
  int64_t arena = done ? 0 : -1;
  for (size_t k = 0; k < n && arena >= 0; k++) {
    size_t i = shape->order[k];
    if (i >= n || done[i]) { /* not a permutation */
      arena = -1;
      break;
    }
    /* on top of every tensor below it in the order that it overlaps in
     * time: valid whatever the sizes */
    int64_t off = 0, end;
    for (size_t b = 0; b < k && arena >= 0; b++) {
      size_t j = shape->order[b];
      if (t[j].size == 0 || !overlapsInTime(&t[i], &t[j])) continue;
      if (!strataCheckedAdd(offsets[j], t[j].size, &end)) arena = -1;
      else if (end > off) off = end;
    }
    if (arena < 0 || !strataCheckedAdd(off, t[i].size, &end)) {
      arena = -1;
      break;
    }
    offsets[i] = off;
    done[i] = true;
    if (end > arena) arena = end;
  }
  free(done);
  return arena;
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
