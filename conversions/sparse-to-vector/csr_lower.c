/* A lowered sparse.csr_conv: the CSR baseline PatDNN measures FKW against,
 * the body of its chunk function:
 *
 *   for each item (image n, output rows oh0 .. oh0+R) of the chunk:
 *     copy the rows it reads into the scratch's views
 *     for m (output channel): for each of the R rows: for column tiles:
 *       tile = bias
 *       for j in row_ptr[m] .. row_ptr[m+1]:
 *         (c, r, q) decoded from col_index[j] = (c*kh + r)*kw + q
 *         tile += values[j] * the view of column q, channel c, at the
 *                 row's input row + r*dh
 *       y[n, m, row, columns] = tile
 *
 * Any kernel shape: the taps are data, read from the arrays at run time. */
#include "sv_internal.h"

/* Column vectors per tile (the baseline is not tuned). */
enum { CSR_TILE_VECTORS = 4 };

typedef struct {
  SvGen *g;
  const SvGeom *geo;
  MlirValue x, b, y, scratch, gRow, gCol, gVal;
  int64_t Mg, Cg;
  MlirValue n, oh0, m, i, rowBase, lo, hi, init; /* the loops' current values */
} Csr;

/* Offset of nonzero j's tap from its output row's place, decoded at run
 * time. */
static MlirValue tapOffset(Csr *k, MlirValue j) {
  SvGen *g = k->g;
  const SvGeom *geo = k->geo;
  int64_t kh = geo->win.kernel[0], kw = geo->win.kernel[1];
  MlirValue col = svLoadIndex(g, k->gCol, j);
  MlirValue c = svDivC(g, col, kh * kw), rq = svRemC(g, col, kh * kw);
  MlirValue r = svDivC(g, rq, kw), q = svRemC(g, rq, kw);
  /* r * dh * RS < CS (checked with the geometry) once the kernel has rows
   * to step over */
  MlirValue down = kh > 1 ? svMulC(g, r, geo->win.dilations[0] * geo->RS) : svC(g, 0);
  MlirValue at = svAdd(g, svMulC(g, c, geo->CS), down);
  return svAdd(g, at, svMulC(g, q, geo->VL));
}

/* One column tile of one output row: the loop over the channel's nonzeros. */
static void columnTile(void *user, MlirValue ow0, int64_t T, int64_t lastLanes, SvColumnPos pos) {
  (void)pos; /* no sums: each tile stands alone */
  Csr *k = user;
  SvGen *g = k->g;
  MlirValue acc[CSR_TILE_VECTORS], base = svAdd(g, k->rowBase, ow0);
  for (int64_t t = 0; t < T; t++) acc[t] = k->init;
  SvLoop lj;
  svForBegin(g, &lj, k->lo, k->hi, svC(g, 1), acc, (int)T);
  MlirValue j = svLoopIv(&lj), at = svAdd(g, base, tapOffset(k, j));
  MlirValue v = svSplat(g, svLoadF32(g, k->gVal, j));
  for (int64_t t = 0; t < T; t++)
    acc[t] = svFma(g, svLoadLane(g, k->scratch, svAddC(g, at, t * g->lanes)), v, svLoopArg(&lj, (int)t));
  svForEnd(g, &lj, acc, (int)T);
  for (int64_t t = 0; t < T; t++) acc[t] = strataResult(lj.op, t);
  svStoreTile(g, k->y, k->n, k->m, svAdd(g, k->oh0, k->i), ow0, acc, 1, T, lastLanes, k->scratch, (MlirValue){NULL});
}

static void item(void *user, MlirValue n, MlirValue oh0) {
  Csr *k = user;
  SvGen *g = k->g;
  const SvGeom *geo = k->geo;
  k->n = n, k->oh0 = oh0;
  svEmitTileCopy(g, geo, k->x, k->scratch, n, oh0);
  SvLoop lm, li;
  svForConst(g, &lm, 0, geo->M, 1, NULL, 0);
  k->m = svLoopIv(&lm);
  k->lo = svLoadIndex(g, k->gRow, k->m), k->hi = svLoadIndex(g, k->gRow, svAddC(g, k->m, 1));
  k->init = mlirValueIsNull(k->b) ? svZeroLane(g) : svSplat(g, svLoadF32(g, k->b, k->m));
  MlirValue groupBase = svMulC(g, svDivC(g, k->m, k->Mg), k->Cg * geo->CS);
  svForConst(g, &li, 0, geo->R, 1, NULL, 0);
  k->i = svLoopIv(&li);
  k->rowBase = svAdd(g, groupBase, svMulC(g, k->i, geo->rowStep));
  svColumnTiles(g, geo, g->vector ? CSR_TILE_VECTORS : 1, false, columnTile, k);
  svForEnd(g, &li, NULL, 0);
  svForEnd(g, &lm, NULL, 0);
}

bool svEmitCsr(SvGen *g, MlirOperation op, const SparseCsr *c, const SvGeom *geo, const SvOptions *o,
               const MlirValue *args) {
  (void)o;
  Csr k = {.g = g, .geo = geo, .x = args[SV_ARG_X], .b = args[SV_ARG_B], .y = args[SV_ARG_Y],
           .scratch = args[SV_ARG_SCRATCH], .Mg = geo->M / geo->win.group, .Cg = geo->C / geo->win.group};
  if (!svGlobalI32(g, op, "row_ptr", c->rowPtr, c->M + 1, &k.gRow) ||
      !svGlobalI32(g, op, "col_index", c->col, c->rowPtr[c->M], &k.gCol))
    return false;
  k.gVal = svGlobalF32(g, "values", c->val, c->rowPtr[c->M]);
  svItemLoop(g, geo, args, item, &k);
  return true;
}
