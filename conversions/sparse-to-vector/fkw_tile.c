/* One kernel's contribution to a register tile: U filters x R output rows
 * x T column vectors of accumulators, carried in registers (the loops'
 * iter_args) across every kernel of the filters.
 *
 * Kernel-level load-redundancy elimination: output row i's tap (r, q)
 * reads input row i*sh + r*dh at column offset (phase, offset) of q; two
 * (tap, row) pairs reading the same place share one load. The places are
 * compile-time constants (the pattern is), so the sharing is decided here:
 * each distinct (input row, column offset) is read once per column
 * vector and feeds every tap x output row that reads it, for all U
 * filters (filter-level LRE: the filters share the pattern and channel,
 * so they read the same inputs with their own weights).
 *
 * An input row read at several column offsets is loaded as the T + 1
 * aligned vectors under the tile and each offset's vectors are shifted
 * out of neighbouring pairs (vector.shuffle: one valignd on AVX-512):
 * unaligned vectors would each cross a cache line, which halves the load
 * throughput the FMAs wait on (measured: 1.25x on VGG's 3x3 layers). A
 * row read at one offset loads it directly. */
#include <stdlib.h>
#include "mlir-c/BuiltinAttributes.h"
#include "sv_internal.h"

typedef struct {
  int64_t row, col; /* the place read, from the tile's base: row part, column offset */
  int tap, outRow;
} Use;

static int byPlace(const void *a, const void *b) {
  const Use *x = a, *y = b;
  if (x->row != y->row) return x->row < y->row ? -1 : 1;
  if (x->col != y->col) return x->col < y->col ? -1 : 1;
  return x->tap != y->tap ? x->tap - y->tap : x->outRow - y->outRow; /* stable: qsort is not */
}

/* The (tap, output row) pairs of a mask, sorted by the place they read. */
static int uses(const SvTile *tile, int64_t mask, Use *out) {
  const SvGeom *geo = tile->geo;
  int64_t sw = geo->win.strides[1];
  int n = 0, tap = 0;
  for (int bit = 0; bit < SPARSE_KERNEL; bit++) {
    if (!(mask >> bit & 1)) continue;
    int64_t q = (bit % 3) * geo->win.dilations[1], r = (bit / 3) * geo->win.dilations[0];
    for (int i = 0; i < tile->R; i++)
      out[n++] = (Use){(i * geo->win.strides[0] + r) * geo->RS + (q % sw) * geo->Wph, q / sw, tap, i};
    tap++;
  }
  qsort(out, (size_t)n, sizeof *out, byPlace);
  return n;
}

/* Shifted vectors of a row from aligned loads: T + 1 vectors at most (plus
 * the whole vectors an offset spans), and worth it for two offsets or
 * more; scalars and a single offset load directly. */
enum { MAX_ALIGNED = 24 };
static bool alignedRow(const SvTile *tile, const Use *u, int from, int to, int64_t lanes) {
  return lanes > 1 && tile->share && u[from].col != u[to - 1].col && u[to - 1].col / lanes + tile->T + 1 <= MAX_ALIGNED;
}

/* [from, to): the uses of one input row. */
static int rowEnd(const Use *u, int from, int n) {
  int to = from + 1;
  while (to < n && u[to].row == u[from].row) to++;
  return to;
}

int64_t svTileLoads(const SvTile *tile, int64_t mask, int64_t lanes) {
  Use u[SPARSE_KERNEL * 16];
  int n = uses(tile, mask, u);
  int64_t loads = 0;
  for (int from = 0, to; from < n; from = to) {
    to = rowEnd(u, from, n);
    if (alignedRow(tile, u, from, to, lanes)) {
      loads += u[to - 1].col / lanes + tile->T + (u[to - 1].col % lanes != 0) - u[from].col / lanes;
      continue;
    }
    for (int k = from; k < to; k++) loads += (!tile->share || k == from || u[k].col != u[k - 1].col) * tile->T;
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
    to = rowEnd(u, from, n);
    bool aligned = alignedRow(tile, u, from, to, V);
    MlirValue vec[MAX_ALIGNED] = {{NULL}}, in[16];
    for (int k = from; k < to; k++) {
      if (k == from || u[k].col != u[k - 1].col || !tile->share)
        for (int t = 0; t < tile->T; t++) {
          int64_t col = u[k].col + t * V, a = col / V;
          if (!aligned) {
            in[t] = svLoadLane(g, scratch, svAddC(g, base, u[k].row + col));
            continue;
          }
          for (int64_t v = a; v <= a + (col % V != 0); v++)
            if (mlirValueIsNull(vec[v])) vec[v] = svLoadLane(g, scratch, svAddC(g, base, u[k].row + v * V));
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
