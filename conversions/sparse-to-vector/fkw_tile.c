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
 * (tap, row) loads its own.
 *
 * In the `sums` layout the tile instead keeps a set of sums per column
 * offset c: set c adds w * input at the aligned place, whose lane l
 * belongs to output column l - c, so a place is loaded as T aligned
 * vectors once for all its taps and nothing is shifted in the kernel
 * loop. At the store the sets are shifted by their offsets and added
 * (svTileOutputs): once per filter and tile, not per kernel. That needs
 * the output columns plus the largest offset inside the tile's T vectors,
 * which the last tile of a narrow row has (lastLanes + offset <= lanes).
 * Elsewhere the last vector's sums at an offset c > 0 lack the ones of
 * the next c input columns, which are the next tile's first vector:
 * a tile followed by another in its row stores that vector incomplete in
 * the scratch's carry (`spill`), and the next tile adds its first
 * vector's sums to it and stores it (svTileCompleteCarry), once per
 * filter and tile. The row's last tile then has no tile after it: it is
 * the row's last vector alone, with a second vector of sums at the
 * offsets c > 0 (TC = T + 1). */
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
    if (tile->NC > 1) { /* sums: TC aligned vectors per place */
      loads += tile->TC;
      continue;
    }
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

int64_t svSumsOffsets(const SvGeom *geo, const SvGen *g, bool share, int64_t cols[SV_MAX_COLS], bool *endAlone) {
  int64_t nc = 1;
  cols[0] = 0, *endAlone = false;
  if (geo->layout != SV_LAYOUT_SUMS || !g->vector || !share) return 1;
  for (int64_t q = 0; q < geo->win.kernel[1] && q < SPARSE_KERNEL / 3; q++) {
    int64_t c = svTap(geo, 0, 0, q).col, k = 0; /* non-decreasing in q */
    if (c >= g->lanes) return 1; /* a set would reach past the next vector */
    while (k < nc && cols[k] != c) k++;
    if (k == nc) cols[nc++] = c;
  }
  if (nc == 1) return 1; /* one offset: nothing is shifted anyway */
  int64_t last = geo->OW % g->lanes ? geo->OW % g->lanes : g->lanes;
  *endAlone = last + cols[nc - 1] > g->lanes;
  return nc;
}

void svTileInit(SvTile *tile, const SvGen *g, int64_t lastLanes, SvColumnPos pos) {
  bool endAlone;
  tile->TC = tile->T, tile->spill = false;
  tile->NC = svSumsOffsets(tile->geo, g, tile->share, tile->cols, &endAlone);
  if (tile->NC == 1 || lastLanes + tile->cols[tile->NC - 1] <= g->lanes) return; /* room for the offsets */
  if (pos.followed) tile->spill = true;
  else tile->TC = tile->T + 1;
}

/* The set of the sums at column offset `col`. */
static int64_t colSet(const SvTile *tile, int64_t col) {
  int64_t k = 0;
  while (k + 1 < tile->NC && tile->cols[k] != col) k++;
  return k;
}

/* Sums: each place's T aligned vectors, loaded once, into the set of each
 * use's column offset. */
static void sumsKernel(SvGen *g, SvTile *tile, const Use *u, int n, MlirValue scratch, MlirValue base,
                       MlirValue w[][SV_MAX_TAPS]) {
  for (int from = 0, to; from < n; from = to) {
    to = placeEnd(u, from, n);
    MlirValue in[17];
    for (int t = 0; t < tile->TC; t++) in[t] = svLoadLane(g, scratch, svAddC(g, base, u[from].place + t * g->lanes));
    for (int k = from; k < to; k++) {
      int64_t c = colSet(tile, u[k].col);
      for (int f = 0; f < tile->U; f++)
        for (int t = 0; t < (c ? tile->TC : tile->T); t++) { /* set 0's vector T would not be stored */
          MlirValue *acc = &tile->acc[((f * tile->R + u[k].outRow) * tile->NC + c) * tile->TC + t];
          *acc = svFma(g, in[t], w[f][u[k].tap], *acc);
        }
    }
  }
}

void svTileOutputs(SvGen *g, const SvTile *tile, int64_t u, MlirValue *out) {
  for (int64_t i = 0; i < tile->R; i++) {
    const MlirValue *sets = &tile->acc[(u * tile->R + i) * tile->NC * tile->TC];
    for (int64_t t = 0; t < tile->T; t++) {
      MlirValue v = sets[t];
      for (int64_t c = 1; c < tile->NC; c++) {
        const MlirValue *s = sets + c * tile->TC;
        /* past the tile's vectors: output columns past the row, or (spill)
         * the next tile's to add */
        MlirValue next = t + 1 < tile->TC ? s[t + 1] : svZeroLane(g);
        MlirValue sh = shifted(g, s[t], next, tile->cols[c]);
        v = strataResult(strataCreateOp(&g->b, "arith.addf", g->loc, .operands = STRATA_VALUES(v, sh),
                                        .results = STRATA_TYPES(g->lane)),
                         0);
      }
      out[i * tile->T + t] = v;
    }
  }
}

void svTileKernel(SvGen *g, SvTile *tile, int64_t mask, MlirValue scratch, MlirValue base,
                  MlirValue w[][SV_MAX_TAPS]) {
  Use u[SPARSE_KERNEL * 16];
  int n = uses(tile, mask, u);
  int64_t V = g->lanes;
  if (tile->NC > 1) {
    sumsKernel(g, tile, u, n, scratch, base, w);
    return;
  }
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

void svTileCompleteCarry(SvGen *g, const SvTile *tile, int64_t u, MlirValue scratch, MlirValue y, MlirValue n,
                         MlirValue m, MlirValue oh0, MlirValue ow0) {
  MlirValue carry = svAddC(g, svMulC(g, m, tile->R * g->lanes), tile->geo->carry);
  for (int64_t i = 0; i < tile->R; i++) {
    const MlirValue *sets = &tile->acc[(u * tile->R + i) * tile->NC * tile->TC];
    MlirValue v = svLoadLane(g, scratch, svAddC(g, carry, i * g->lanes));
    for (int64_t c = 1; c < tile->NC; c++) {
      /* the first c lanes of the set's first vector, into the last c lanes */
      MlirValue sh = shifted(g, svZeroLane(g), sets[c * tile->TC], tile->cols[c]);
      v = strataResult(strataCreateOp(&g->b, "arith.addf", g->loc, .operands = STRATA_VALUES(v, sh),
                                      .results = STRATA_TYPES(g->lane)),
                       0);
    }
    MlirValue idx[4] = {n, m, svAddC(g, oh0, i), svAddC(g, ow0, -g->lanes)};
    svStoreLane(g, svActivation(g, v), y, idx, 4, (MlirValue){NULL});
  }
}
