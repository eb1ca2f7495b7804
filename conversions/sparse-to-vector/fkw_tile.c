/* One kernel's contribution to a register tile: U filters x R output rows
 * x T column vectors of accumulators, carried in registers (the loops'
 * iter_args) across every kernel of the filters.
 *
 * Kernel-level load-redundancy elimination: tap (r, q) of output row i
 * reads a place of the scratch (a view of an input row) at a column
 * offset (SvTap), both compile-time constants (the pattern is), so the
 * sharing is decided here: each distinct (place, offset) is read once per
 * column vector and feeds every tap x output row that reads it, for all U
 * filters (filter-level LRE: the filters share the pattern and channel,
 * so they read the same inputs with their own weights).
 *
 * In the `phases` layout a place read at several offsets is loaded as the
 * T + 1 aligned vectors under the tile, and each offset's vectors are
 * shifted out of neighbouring pairs (vector.shuffle): unaligned vectors
 * would each cross a cache line. In the `views` layout every tap reads
 * aligned vectors of its own view. Without sharing (lre=false), every
 * (tap, row) loads its own. */
#include <stdlib.h>
#include "mlir-c/BuiltinAttributes.h"
#include "sv_internal.h"

typedef struct {
  int64_t place, col; /* the read, from the kernel's base */
  int tap, outRow;
} Use;

static int byPlace(const void *a, const void *b) {
  const Use *x = a, *y = b;
  if (x->place != y->place) return x->place < y->place ? -1 : 1;
  if (x->col != y->col) return x->col < y->col ? -1 : 1;
  return x->tap != y->tap ? x->tap - y->tap : x->outRow - y->outRow; /* stable: qsort is not */
}

/* The (tap, output row) pairs of a mask, sorted by what they read. */
static int uses(const SvTile *tile, int64_t mask, Use *out) {
  int n = 0, tap = 0;
  for (int bit = 0; bit < SPARSE_KERNEL; bit++) {
    if (!(mask >> bit & 1)) continue;
    for (int i = 0; i < tile->R; i++) {
      SvTap t = svTap(tile->geo, i, bit / 3, bit % 3);
      out[n++] = (Use){t.place, t.col, tap, i};
    }
    tap++;
  }
  qsort(out, (size_t)n, sizeof *out, byPlace);
  return n;
}

/* Shifted vectors of a place from aligned loads: T + 1 vectors at most
 * (plus the whole vectors an offset spans), and worth it for two offsets
 * or more; scalars and a single offset load directly. */
enum { MAX_ALIGNED = 24 };
static bool alignedPlace(const SvTile *tile, const Use *u, int from, int to, int64_t lanes) {
  return lanes > 1 && tile->share && u[from].col != u[to - 1].col && u[to - 1].col / lanes + tile->T + 1 <= MAX_ALIGNED;
}

/* [from, to): the uses of one place. */
static int placeEnd(const Use *u, int from, int n) {
  int to = from + 1;
  while (to < n && u[to].place == u[from].place) to++;
  return to;
}

static bool newRead(const SvTile *tile, const Use *u, int from, int k) {
  return !tile->share || k == from || u[k].col != u[k - 1].col;
}

int64_t svTileLoads(const SvTile *tile, int64_t mask, int64_t lanes) {
  Use u[SPARSE_KERNEL * 16];
  int n = uses(tile, mask, u);
  int64_t loads = 0;
  for (int from = 0, to; from < n; from = to) {
    to = placeEnd(u, from, n);
    if (alignedPlace(tile, u, from, to, lanes)) {
      loads += u[to - 1].col / lanes + tile->T + (u[to - 1].col % lanes != 0) - u[from].col / lanes;
      continue;
    }
    for (int k = from; k < to; k++) loads += newRead(tile, u, from, k) * tile->T;
  }
  return loads;
}

static MlirValue shifted(SvGen *g, MlirValue a, MlirValue b, int64_t by) {
  int64_t mask[64];
  for (int64_t l = 0; l < g->lanes; l++) mask[l] = by + l;
  return strataResult(strataCreateOp(&g->b, "vector.shuffle", g->loc, .operands = STRATA_VALUES(a, b),
                                     .results = STRATA_TYPES(g->lane),
                                     .attrs = STRATA_ATTRS({"mask", mlirDenseI64ArrayGet(g->ctx, g->lanes, mask)})),
                      0);
}

void svTileKernel(SvGen *g, SvTile *tile, int64_t mask, MlirValue scratch, MlirValue base,
                  MlirValue w[][SV_MAX_TAPS]) {
  Use u[SPARSE_KERNEL * 16];
  int n = uses(tile, mask, u);
  int64_t V = g->lanes;
  for (int from = 0, to; from < n; from = to) {
    to = placeEnd(u, from, n);
    bool aligned = alignedPlace(tile, u, from, to, V);
    MlirValue vec[MAX_ALIGNED] = {{NULL}}, in[16];
    for (int k = from; k < to; k++) {
      if (newRead(tile, u, from, k))
        for (int t = 0; t < tile->T; t++) {
          int64_t col = u[k].col + t * V, a = col / V;
          if (!aligned) {
            in[t] = svLoadLane(g, scratch, svAddC(g, base, u[k].place + col));
            continue;
          }
          for (int64_t v = a; v <= a + (col % V != 0); v++)
            if (mlirValueIsNull(vec[v])) vec[v] = svLoadLane(g, scratch, svAddC(g, base, u[k].place + v * V));
          in[t] = col % V ? shifted(g, vec[a], vec[a + 1], col % V) : vec[a];
        }
      for (int f = 0; f < tile->U; f++)
        for (int t = 0; t < tile->T; t++) {
          MlirValue *acc = &tile->acc[(f * tile->R + u[k].outRow) * tile->T + t];
          *acc = svFma(g, in[t], w[f][u[k].tap], *acc);
        }
    }
  }
}
