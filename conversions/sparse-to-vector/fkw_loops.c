/* The loop nest of a lowered sparse.fkw_conv (digest A.2, C.1.6), the body
 * of its chunk function:
 *
 *   for each item (image n, output rows oh0 .. oh0+R) of the chunk:
 *     copy the rows it reads into the scratch's views   (sv_scratch.c)
 *     for each FKR group, a loop over its stored filters } order set by
 *       for output column tiles                          } `permute`
 *         tile = bias
 *         for p in the patterns of the group: ONE loop per pattern,
 *           k from stride[s*(P+1)+p] to stride[s*(P+1)+p+1]: kernel
 *           offset[s]+k, channel index[..], taps of p (constants)
 *         y[n, reorder[s], rows, columns] = tile
 *
 * With segments=false (PatDNN's "no-opt"), one loop over the filter's
 * kernels switches (scf.index_switch) on each kernel's pattern id. With
 * unroll=[U], runs of U consecutive stored filters that share (pattern,
 * channel) at every kernel position and the convolution group (decided
 * here: the arrays are constants) are computed together; the other
 * filters one at a time. The arrays are private constant globals. */
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/support.h"
#include "sv_internal.h"

enum Level { LV_FILTERS, LV_COLS, LV_TILE };

/* Stored filters visited by one loop: s = lo + iv (direct) or seq[lo + iv],
 * each with its U - 1 successors. */
typedef struct {
  int64_t lo, hi, U;
  bool direct;
  bool present[SPARSE_MAX_PATTERNS];
} FilterSet;

typedef struct {
  SvGen *g;
  MlirOperation op;
  const SparseFkw *f;
  const SvGeom *geo;
  const SvOptions *o;
  SvTuning tn;
  int64_t Mg, Cg;
  MlirValue x, b, y, scratch;
  MlirValue gOffset, gReorder, gIndex, gStride, gWstart, gWeight, gKpat, gSeq;
  FilterSet *sets;
  int64_t numSets;
  /* the loops' current values; the column tile's vectors and its last
   * vector's lanes */
  MlirValue n, oh0, ow0;
  int64_t T, lastLanes;
  SvColumnPos pos;
  const enum Level *next;
  const FilterSet *set;
  MlirValue s, m[8], off[8], bias[8], chanBase;
} Fkw;

/* ---- Compile-time planning ---- */

static void markPresent(const SparseFkw *f, FilterSet *set, int64_t s, int64_t U) {
  for (int64_t v = s; v < s + U; v++)
    for (int64_t p = 0; p < f->P; p++)
      set->present[p] |= f->stride[v * (f->P + 1) + p + 1] > f->stride[v * (f->P + 1) + p];
}

/* Appends a set; one that continues the last (same unroll and indexing,
 * adjacent, the same patterns) extends it instead: the same code, once.
 * Large layers have tens of FKR groups, most with every pattern. */
static void addSet(Fkw *k, const FilterSet *set) {
  FilterSet *last = k->numSets ? &k->sets[k->numSets - 1] : NULL;
  if (last && last->U == set->U && last->direct == set->direct && last->hi == set->lo &&
      !memcmp(last->present, set->present, sizeof set->present))
    last->hi = set->hi;
  else if (set->hi > set->lo)
    k->sets[k->numSets++] = *set;
}

/* The filter sets of every FKR group and the `seq` array they index. */
static bool planSets(Fkw *k, int64_t **seqOut, int64_t *numSeq) {
  const SparseFkw *f = k->f;
  int64_t U = k->tn.U;
  k->sets = calloc((size_t)(2 * f->numGroups), sizeof *k->sets);
  int64_t *seq = malloc(sizeof *seq * (size_t)(f->M + 1)), *singles = malloc(sizeof *singles * (size_t)(f->M + 1));
  bool good = k->sets && seq && singles;
  int64_t ns = 0;
  for (int64_t gi = 0; good && gi < f->numGroups; gi++) {
    int64_t g0 = f->groups[gi], g1 = f->groups[gi + 1], nsingle = 0;
    if (U == 1) {
      FilterSet set = {.lo = g0, .hi = g1, .U = 1, .direct = true};
      markPresent(f, &set, g0, g1 - g0);
      addSet(k, &set);
      continue;
    }
    FilterSet blocks = {.lo = ns, .U = U};
    for (int64_t s = g0; s < g1;) {
      bool share = s + U <= g1;
      for (int64_t v = s + 1; share && v < s + U; v++) share = sparseFkwFiltersShare(f, k->Mg, s, v);
      if (share) {
        seq[ns++] = s;
        markPresent(f, &blocks, s, U);
        s += U;
      } else {
        singles[nsingle++] = s++;
      }
    }
    blocks.hi = ns;
    addSet(k, &blocks);
    FilterSet set = {.lo = ns, .U = 1};
    for (int64_t i = 0; i < nsingle; i++) markPresent(f, &set, singles[i], 1), seq[ns++] = singles[i];
    set.hi = ns;
    addSet(k, &set);
  }
  free(singles);
  if (!good) {
    free(seq);
    strataEmitOpError(k->op, "out of memory");
    return false;
  }
  *seqOut = seq, *numSeq = ns;
  return true;
}

/* ---- The tile: init, kernel loops, store ---- */

/* A kernel's weights (w[u][e]) and its contribution: kernel kpos of each
 * filter; wb[u] its first weight in `weight`. */
static void kernel(Fkw *k, SvTile *tile, int64_t p, MlirValue kpos, const MlirValue *wb) {
  SvGen *g = k->g;
  MlirValue channel = svLoadIndex(g, k->gIndex, svAdd(g, k->off[0], kpos));
  MlirValue base = svAdd(g, k->chanBase, svMulC(g, channel, k->geo->CS));
  MlirValue w[8][SV_MAX_TAPS];
  int taps = sparsePopcount(k->f->masks[p]);
  for (int64_t u = 0; u < tile->U; u++)
    for (int e = 0; e < taps; e++) w[u][e] = svSplat(g, svLoadF32(g, k->gWeight, svAddC(g, wb[u], e)));
  svTileKernel(g, tile, k->f->masks[p], k->scratch, base, w);
}

static int numAcc(const SvTile *t) { return (int)(t->U * t->R * t->NC * t->TC); }

/* One loop per pattern present, bounds from `stride`; a segment's kernels
 * have their weights one after another, popcount(mask) each. */
static void segmentLoops(Fkw *k, SvTile *tile) {
  SvGen *g = k->g;
  int64_t P = k->f->P;
  MlirValue row = svMulC(g, k->s, P + 1);
  for (int64_t p = 0; p < P; p++) {
    if (!k->set->present[p]) continue;
    MlirValue lb = svLoadIndex(g, k->gStride, svAddC(g, row, p));
    MlirValue ub = svLoadIndex(g, k->gStride, svAddC(g, row, p + 1));
    MlirValue w0[8];
    for (int64_t u = 0; u < tile->U; u++) w0[u] = svLoadIndex(g, k->gWstart, svAdd(g, k->off[u], lb));
    SvLoop l;
    svForBegin(g, &l, lb, ub, svC(g, 1), tile->acc, numAcc(tile));
    for (int i = 0; i < numAcc(tile); i++) tile->acc[i] = svLoopArg(&l, i);
    MlirValue kpos = svLoopIv(&l), wb[8];
    MlirValue step = svMulC(g, svAdd(g, kpos, svMulC(g, lb, -1)), sparsePopcount(k->f->masks[p]));
    for (int64_t u = 0; u < tile->U; u++) wb[u] = svAdd(g, w0[u], step);
    kernel(k, tile, p, kpos, wb);
    svForEnd(g, &l, tile->acc, numAcc(tile));
    for (int i = 0; i < numAcc(tile); i++) tile->acc[i] = strataResult(l.op, i);
  }
}

/* No-opt: one loop over the kernels, an scf.index_switch on the pattern. */
static void switchLoop(Fkw *k, SvTile *tile) {
  SvGen *g = k->g;
  int na = numAcc(tile);
  MlirValue len = svLoadIndex(g, k->gStride, svAddC(g, svMulC(g, k->s, k->f->P + 1), k->f->P));
  SvLoop l;
  svForBegin(g, &l, svC(g, 0), len, svC(g, 1), tile->acc, na);
  MlirValue args[SV_MAX_ACC], kpos = svLoopIv(&l), wb[8];
  for (int i = 0; i < na; i++) args[i] = svLoopArg(&l, i);
  MlirValue pid = svLoadIndex(g, k->gKpat, svAdd(g, k->off[0], kpos));
  for (int64_t u = 0; u < tile->U; u++) wb[u] = svLoadIndex(g, k->gWstart, svAdd(g, k->off[u], kpos));
  int64_t cases[SPARSE_MAX_PATTERNS], nc = 0;
  for (int64_t p = 0; p < k->f->P; p++)
    if (k->set->present[p]) cases[nc++] = p;
  MlirType types[SV_MAX_ACC];
  for (int i = 0; i < na; i++) types[i] = g->lane;
  MlirOperation sw = strataCreateOp(&g->b, "scf.index_switch", g->loc, .operands = STRATA_VALUES(pid),
                                    .results = {types, na},
                                    .attrs = STRATA_ATTRS({"cases", mlirDenseI64ArrayGet(g->ctx, nc, cases)}),
                                    .numRegions = 1 + nc);
  StrataBuilder outer = g->b;
  for (int64_t r = 0; r <= nc; r++) { /* region 0: default (no kernel has another id) */
    g->b = strataBuilderAtEnd(g->ctx, strataAddBlock(sw, r, (StrataTypeList){NULL, 0}, g->loc));
    for (int i = 0; i < na; i++) tile->acc[i] = args[i];
    if (r > 0) kernel(k, tile, cases[r - 1], kpos, wb);
    strataCreateOp(&g->b, "scf.yield", g->loc, .operands = {tile->acc, na});
  }
  g->b = outer;
  for (int i = 0; i < na; i++) args[i] = strataResult(sw, i);
  svForEnd(g, &l, args, na);
  for (int i = 0; i < na; i++) tile->acc[i] = strataResult(l.op, i);
}

/* Sums: the last vectors the row's previous tile left incomplete (it
 * spilled: it is followed), where there was one (the first tile of a
 * loop's row has none). */
static void completeCarry(Fkw *k, const SvTile *tile, int64_t u) {
  SvGen *g = k->g;
  if (k->pos.after == SV_AFTER_NONE) return;
  if (k->pos.after == SV_AFTER_ALWAYS) {
    svTileCompleteCarry(g, tile, u, k->scratch, k->y, k->n, k->m[u], k->oh0, k->ow0);
    return;
  }
  MlirValue notFirst = strataResult(
      strataCreateOp(&g->b, "arith.cmpi", g->loc, .operands = STRATA_VALUES(k->ow0, svC(g, 0)),
                     .results = STRATA_TYPES(mlirIntegerTypeGet(g->ctx, 1)),
                     .attrs = STRATA_ATTRS({"predicate", strataI64Attr(g->ctx, 1 /* ne */)})),
      0);
  MlirOperation ifOp = strataCreateOp(&g->b, "scf.if", g->loc, .operands = STRATA_VALUES(notFirst), .numRegions = 2);
  StrataBuilder outer = g->b;
  g->b = strataBuilderAtEnd(g->ctx, strataAddBlock(ifOp, 0, (StrataTypeList){NULL, 0}, g->loc));
  svTileCompleteCarry(g, tile, u, k->scratch, k->y, k->n, k->m[u], k->oh0, k->ow0);
  strataCreateOp(&g->b, "scf.yield", g->loc);
  g->b = strataBuilderAtEnd(g->ctx, strataAddBlock(ifOp, 1, (StrataTypeList){NULL, 0}, g->loc));
  strataCreateOp(&g->b, "scf.yield", g->loc);
  g->b = outer;
}

static void emitTile(Fkw *k) {
  SvGen *g = k->g;
  SvTile tile = {.geo = k->geo, .R = k->geo->R, .T = k->T, .U = k->set->U, .share = k->o->lre};
  svTileInit(&tile, g, k->lastLanes, k->pos);
  int64_t perFilter = tile.R * tile.NC * tile.TC;
  for (int64_t u = 0; u < tile.U; u++) {
    MlirValue init = mlirValueIsNull(k->b) ? svZeroLane(g) : svSplat(g, k->bias[u]);
    for (int64_t i = 0; i < perFilter; i++) /* the bias once: in the offset-0 set */
      tile.acc[u * perFilter + i] = i / tile.TC % tile.NC ? svZeroLane(g) : init;
  }
  MlirValue group = k->chanBase;
  k->chanBase = svAdd(g, group, k->ow0);
  if (k->o->segments) segmentLoops(k, &tile);
  else switchLoop(k, &tile);
  k->chanBase = group;
  for (int64_t u = 0; u < tile.U; u++) {
    MlirValue out[16 * 16];
    if (tile.NC > 1) completeCarry(k, &tile, u);
    svTileOutputs(g, &tile, u, out);
    MlirValue carry = tile.spill ? svAddC(g, svMulC(g, k->m[u], tile.R * g->lanes), k->geo->carry) : (MlirValue){NULL};
    svStoreTile(g, k->y, k->n, k->m[u], k->oh0, k->ow0, out, tile.R, tile.T, k->lastLanes, k->scratch, carry);
  }
}

/* ---- The nest inside an item ---- */

static void emitLevel(Fkw *k, const enum Level *lv);

static void columnTile(void *user, MlirValue ow0, int64_t T, int64_t lastLanes, SvColumnPos pos) {
  Fkw *k = user;
  k->ow0 = ow0, k->T = T, k->lastLanes = lastLanes, k->pos = pos;
  emitLevel(k, k->next);
}

static void filterLoops(Fkw *k, const enum Level *lv) {
  SvGen *g = k->g;
  for (int64_t i = 0; i < k->numSets; i++) {
    const FilterSet *set = &k->sets[i];
    SvLoop l;
    svForConst(g, &l, set->lo, set->hi, 1, NULL, 0);
    k->set = set;
    k->s = set->direct ? svLoopIv(&l) : svLoadIndex(g, k->gSeq, svLoopIv(&l));
    for (int64_t u = 0; u < set->U; u++) {
      MlirValue s = svAddC(g, k->s, u);
      k->m[u] = svLoadIndex(g, k->gReorder, s);
      k->off[u] = svLoadIndex(g, k->gOffset, s);
      if (!mlirValueIsNull(k->b)) k->bias[u] = svLoadF32(g, k->b, k->m[u]);
    }
    /* the input channels of the filters' convolution group */
    k->chanBase = svMulC(g, svDivC(g, k->m[0], k->Mg), k->Cg * k->geo->CS);
    emitLevel(k, lv + 1);
    svForEnd(g, &l, NULL, 0);
  }
}

static void emitLevel(Fkw *k, const enum Level *lv) {
  switch (*lv) {
  case LV_COLS: {
    int64_t cols[SV_MAX_COLS];
    bool endAlone;
    svSumsOffsets(k->geo, k->g, k->o->lre, cols, &endAlone);
    k->next = lv + 1;
    svColumnTiles(k->g, k->geo, k->tn.T, endAlone, columnTile, k);
    break;
  }
  case LV_FILTERS: filterLoops(k, lv); break;
  case LV_TILE: emitTile(k); break;
  }
}

static void item(void *user, MlirValue n, MlirValue oh0) {
  Fkw *k = user;
  static const enum Level kFiltersOuter[] = {LV_FILTERS, LV_COLS, LV_TILE};
  static const enum Level kColsOuter[] = {LV_COLS, LV_FILTERS, LV_TILE};
  k->n = n, k->oh0 = oh0;
  svEmitTileCopy(k->g, k->geo, k->x, k->scratch, n, oh0);
  emitLevel(k, k->tn.colsOuter ? kColsOuter : kFiltersOuter);
}

/* Per-kernel weight starts and pattern ids. */
static bool kernelArrays(Fkw *k) {
  const SparseFkw *f = k->f;
  int64_t nnz = f->offset[f->M];
  int64_t *ws = sparseFkwWeightStarts(f), *kpat = malloc(sizeof *kpat * (size_t)(nnz + 1));
  bool good = ws && kpat;
  if (good && !k->o->segments)
    for (int64_t s = 0; s < f->M; s++)
      for (int64_t p = 0; p < f->P; p++)
        for (int64_t j = f->stride[s * (f->P + 1) + p]; j < f->stride[s * (f->P + 1) + p + 1]; j++)
          kpat[f->offset[s] + j] = p;
  if (!good) strataEmitOpError(k->op, "out of memory");
  /* nnz + 1 entries: a segment's start is read even when it is empty */
  good = good && svGlobalI32(k->g, k->op, "wstart", ws, nnz + 1, &k->gWstart) &&
         (k->o->segments || svGlobalI32(k->g, k->op, "kpat", kpat, nnz, &k->gKpat));
  free(ws), free(kpat);
  return good;
}

bool svEmitFkw(SvGen *g, MlirOperation op, const SparseFkw *f, const SvGeom *geo, const SvOptions *o,
               const SvTuning *tn, const MlirValue *args) {
  Fkw k = {.g = g, .op = op, .f = f, .geo = geo, .o = o, .tn = *tn};
  k.Mg = geo->M / geo->win.group, k.Cg = geo->C / geo->win.group;
  k.x = args[SV_ARG_X], k.b = args[SV_ARG_B], k.y = args[SV_ARG_Y], k.scratch = args[SV_ARG_SCRATCH];
  int64_t *seq = NULL, numSeq = 0;
  bool good = planSets(&k, &seq, &numSeq) && svGlobalI32(g, op, "offset", f->offset, f->M + 1, &k.gOffset) &&
              svGlobalI32(g, op, "reorder", f->reorder, f->M, &k.gReorder) &&
              svGlobalI32(g, op, "index", f->index, f->offset[f->M], &k.gIndex) &&
              svGlobalI32(g, op, "stride", f->stride, f->M * (f->P + 1), &k.gStride) &&
              (tn->U == 1 || svGlobalI32(g, op, "seq", seq, numSeq, &k.gSeq)) && kernelArrays(&k);
  free(seq);
  if (good) {
    k.gWeight = svGlobalF32(g, "weight", f->weight, f->numWeights);
    svItemLoop(g, geo, args, item, &k);
  }
  free(k.sets);
  return good;
}
