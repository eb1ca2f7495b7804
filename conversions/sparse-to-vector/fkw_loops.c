/* The loop skeleton of a lowered sparse.fkw_conv (digest A.2, C.1.6):
 *
 *   for n:  copy image n into the padded scratch
 *     for each FKR group, a loop over its stored filters   } order set by
 *       for output row tiles                               } `permute`
 *         for output column tiles
 *           tile = bias
 *           for p in the patterns of the group: ONE loop per pattern,
 *             k from stride[s*(P+1)+p] to stride[s*(P+1)+p+1]: kernel
 *             offset[s]+k, channel index[..], taps of p (constants)
 *           y[n, reorder[s], rows, columns] = tile
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
  SvTiles rows;
  FilterSet *sets;
  int64_t numSets;
  /* the loops' current values; the column tile's vectors and its last
   * vector's lanes */
  MlirValue n, oh0, ow0;
  int64_t T, lastLanes;
  const enum Level *colNext;
  const FilterSet *set;
  MlirValue s, m[8], off[8], bias[8], chanBase;
} Fkw;

enum Level { LV_ROWS, LV_FILTERS, LV_COLS, LV_TILE };

/* ---- Compile-time planning ---- */

static bool sameKernels(const SparseFkw *f, int64_t Mg, int64_t a, int64_t b) {
  const int64_t P = f->P, *sa = f->stride + a * (P + 1), *sb = f->stride + b * (P + 1);
  if (f->reorder[a] / Mg != f->reorder[b] / Mg || memcmp(sa, sb, sizeof *sa * (size_t)(P + 1))) return false;
  return !memcmp(f->index + f->offset[a], f->index + f->offset[b], sizeof(int64_t) * (size_t)sa[P]);
}

static void markPresent(const SparseFkw *f, FilterSet *set, int64_t s, int64_t U) {
  for (int64_t v = s; v < s + U; v++)
    for (int64_t p = 0; p < f->P; p++)
      set->present[p] |= f->stride[v * (f->P + 1) + p + 1] > f->stride[v * (f->P + 1) + p];
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
      FilterSet *set = &k->sets[k->numSets++];
      *set = (FilterSet){.lo = g0, .hi = g1, .U = 1, .direct = true};
      markPresent(f, set, g0, g1 - g0);
      continue;
    }
    FilterSet blocks = {.lo = ns, .U = U};
    for (int64_t s = g0; s < g1;) {
      bool share = s + U <= g1;
      for (int64_t v = s + 1; share && v < s + U; v++) share = sameKernels(f, k->Mg, s, v);
      if (share) {
        seq[ns++] = s;
        markPresent(f, &blocks, s, U);
        s += U;
      } else {
        singles[nsingle++] = s++;
      }
    }
    blocks.hi = ns;
    if (blocks.hi > blocks.lo) k->sets[k->numSets++] = blocks;
    if (nsingle) {
      FilterSet *set = &k->sets[k->numSets++];
      *set = (FilterSet){.lo = ns, .U = 1};
      for (int64_t i = 0; i < nsingle; i++) markPresent(f, set, singles[i], 1), seq[ns++] = singles[i];
      set->hi = ns;
    }
  }
  free(singles);
  if (!good) {
    free(seq);
    svOpError(k->op, "out of memory");
    return false;
  }
  *seqOut = seq, *numSeq = ns;
  return true;
}

/* ---- The tile: init, kernel loops, store ---- */

/* A kernel's weights (w[u][e]) and its contribution; j0 = the first
 * filter's kernel, k its position within the filter. */
static void kernel(Fkw *k, SvTile *tile, int64_t p, MlirValue kpos) {
  SvGen *g = k->g;
  MlirValue j0 = svAdd(g, k->off[0], kpos);
  MlirValue base = svAdd(g, k->chanBase, svMulC(g, svLoadIndex(g, k->gIndex, j0), k->geo->CS));
  MlirValue w[8][SV_MAX_TAPS];
  int taps = sparsePopcount(k->f->masks[p]);
  for (int64_t u = 0; u < tile->U; u++) {
    MlirValue wb = svLoadIndex(g, k->gWstart, u ? svAdd(g, k->off[u], kpos) : j0);
    for (int e = 0; e < taps; e++) w[u][e] = svSplat(g, svLoadF32(g, k->gWeight, svAddC(g, wb, e)));
  }
  svTileKernel(g, tile, k->f->masks[p], k->scratch, base, w);
}

static int numAcc(const SvTile *t) { return (int)(t->U * t->R * t->T); }

/* One loop per pattern present, bounds from `stride`. */
static void segmentLoops(Fkw *k, SvTile *tile) {
  SvGen *g = k->g;
  int64_t P = k->f->P;
  MlirValue row = svMulC(g, k->s, P + 1);
  for (int64_t p = 0; p < P; p++) {
    if (!k->set->present[p]) continue;
    MlirValue lb = svLoadIndex(g, k->gStride, svAddC(g, row, p));
    MlirValue ub = svLoadIndex(g, k->gStride, svAddC(g, row, p + 1));
    SvLoop l;
    svForBegin(g, &l, lb, ub, svC(g, 1), tile->acc, numAcc(tile));
    for (int i = 0; i < numAcc(tile); i++) tile->acc[i] = svLoopArg(&l, i);
    kernel(k, tile, p, svLoopIv(&l));
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
  MlirValue args[SV_MAX_ACC], kpos = svLoopIv(&l);
  for (int i = 0; i < na; i++) args[i] = svLoopArg(&l, i);
  MlirValue pid = svLoadIndex(g, k->gKpat, svAdd(g, k->off[0], kpos));
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
    if (r > 0) kernel(k, tile, cases[r - 1], kpos);
    strataCreateOp(&g->b, "scf.yield", g->loc, .operands = {tile->acc, na});
  }
  g->b = outer;
  for (int i = 0; i < na; i++) args[i] = strataResult(sw, i);
  svForEnd(g, &l, args, na);
  for (int i = 0; i < na; i++) tile->acc[i] = strataResult(l.op, i);
}

static void emitTile(Fkw *k) {
  SvGen *g = k->g;
  SvTile tile = {.geo = k->geo, .R = k->tn.R, .T = k->T, .U = k->set->U, .share = k->o->lre};
  for (int64_t u = 0; u < tile.U; u++) {
    MlirValue init = mlirValueIsNull(k->b) ? svZeroLane(g) : svSplat(g, k->bias[u]);
    for (int64_t i = 0; i < tile.R * tile.T; i++) tile.acc[u * tile.R * tile.T + i] = init;
  }
  MlirValue saved = k->chanBase;
  k->chanBase = svAdd(g, saved, svAdd(g, svMulC(g, k->oh0, k->geo->win.strides[0] * k->geo->RS), k->ow0));
  if (k->o->segments) segmentLoops(k, &tile);
  else switchLoop(k, &tile);
  k->chanBase = saved;
  for (int64_t u = 0; u < tile.U; u++)
    svStoreTile(g, k->y, k->n, k->m[u], k->oh0, k->ow0, tile.acc + u * tile.R * tile.T, tile.R, tile.T, k->lastLanes);
}

/* ---- The nest ---- */

static void emitLevel(Fkw *k, const enum Level *lv);

static void rowTiles(Fkw *k, const enum Level *lv) {
  SvLoop l;
  svForConst(k->g, &l, 0, k->rows.count, 1, NULL, 0);
  k->oh0 = svTileStart(k->g, &k->rows, svLoopIv(&l));
  emitLevel(k, lv + 1);
  svForEnd(k->g, &l, NULL, 0);
}

static void columnTile(void *user, MlirValue ow0, int64_t T, int64_t lastLanes) {
  Fkw *k = user;
  k->ow0 = ow0, k->T = T, k->lastLanes = lastLanes;
  emitLevel(k, k->colNext);
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
  case LV_ROWS: rowTiles(k, lv); break;
  case LV_COLS:
    k->colNext = lv + 1;
    svColumnTiles(k->g, k->geo, k->tn.T, columnTile, k);
    break;
  case LV_FILTERS: filterLoops(k, lv); break;
  case LV_TILE: emitTile(k); break;
  }
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
  if (!good) svOpError(k->op, "out of memory");
  good = good && svGlobalI32(k->g, k->op, "wstart", ws, nnz, &k->gWstart) &&
         (k->o->segments || svGlobalI32(k->g, k->op, "kpat", kpat, nnz, &k->gKpat));
  free(ws), free(kpat);
  return good;
}

bool svEmitFkw(SvGen *g, MlirOperation op, const SparseFkw *f, const SvGeom *geo, const SvOptions *o,
               const SvTuning *tn, MlirBlock entry) {
  Fkw k = {.g = g, .op = op, .f = f, .geo = geo, .o = o, .tn = *tn};
  k.Mg = geo->M / geo->win.group, k.Cg = geo->C / geo->win.group;
  bool bias = mlirBlockGetNumArguments(entry) == 4;
  k.x = mlirBlockGetArgument(entry, 0);
  k.b = bias ? mlirBlockGetArgument(entry, 1) : (MlirValue){NULL};
  k.y = mlirBlockGetArgument(entry, bias ? 2 : 1);
  k.scratch = mlirBlockGetArgument(entry, bias ? 3 : 2);
  k.rows = svTiles(geo->OH, tn->R);
  int64_t *seq = NULL, numSeq = 0;
  bool good = planSets(&k, &seq, &numSeq) && svGlobalI32(g, op, "offset", f->offset, f->M + 1, &k.gOffset) &&
              svGlobalI32(g, op, "reorder", f->reorder, f->M, &k.gReorder) &&
              svGlobalI32(g, op, "index", f->index, f->offset[f->M], &k.gIndex) &&
              svGlobalI32(g, op, "stride", f->stride, f->M * (f->P + 1), &k.gStride) &&
              (tn->U == 1 || svGlobalI32(g, op, "seq", seq, numSeq, &k.gSeq)) && kernelArrays(&k);
  free(seq);
  if (good) {
    k.gWeight = svGlobalF32(g, "weight", f->weight, f->numWeights);
    static const enum Level kRowsOuter[] = {LV_ROWS, LV_FILTERS, LV_COLS, LV_TILE};
    static const enum Level kFiltersOuter[] = {LV_FILTERS, LV_ROWS, LV_COLS, LV_TILE};
    SvLoop ln;
    svForConst(g, &ln, 0, geo->N, 1, NULL, 0);
    k.n = svLoopIv(&ln);
    svEmitPadCopy(g, geo, k.x, k.scratch, k.n);
    emitLevel(&k, tn->rowsOuter ? kRowsOuter : kFiltersOuter);
    svForEnd(g, &ln, NULL, 0);
  }
  free(k.sets);
  return good;
}
