/* A lowered sparse.csr_conv: the CSR baseline PatDNN measures FKW against.
 *
 *   for n: copy image n into the padded scratch
 *     for m (output channel): for oh: for column tiles (T vectors):
 *       tile = bias
 *       for j in row_ptr[m] .. row_ptr[m+1]:
 *         (c, r, q) decoded from col_index[j] (c*kh + r)*kw + q
 *         tile += values[j] * scratch[c, oh*sh + r*dh, phase/offset of q*dw]
 *       y[n, m, oh, columns] = tile
 *
 * Any kernel shape: the taps are data, read from the arrays at run time. */
#include "sv_internal.h"

/* Column vectors per tile (the baseline is not tuned). */
enum { CSR_TILE_VECTORS = 4 };

typedef struct {
  SvGen *g;
  const SvGeom *geo;
  MlirValue gCol, gVal, scratch, y;
  MlirValue n, m, oh, rowBase, lo, hi, init; /* the loops' current values */
} Csr;

/* Offset of nonzero j's tap from its output position, decoded at run time. */
static MlirValue tapOffset(Csr *k, MlirValue j) {
  SvGen *g = k->g;
  const SvGeom *geo = k->geo;
  int64_t kh = geo->win.kernel[0], kw = geo->win.kernel[1], sw = geo->win.strides[1];
  MlirValue col = svLoadIndex(g, k->gCol, j);
  MlirValue c = svDivC(g, col, kh * kw), rq = svRemC(g, col, kh * kw);
  MlirValue r = svDivC(g, rq, kw), qd = svMulC(g, svRemC(g, rq, kw), geo->win.dilations[1]);
  MlirValue at = svAdd(g, svMulC(g, c, geo->CS), svMulC(g, r, geo->win.dilations[0] * geo->RS));
  if (sw == 1) return svAdd(g, at, qd);
  return svAdd(g, at, svAdd(g, svMulC(g, svRemC(g, qd, sw), geo->Wph), svDivC(g, qd, sw)));
}

/* One column tile: the loop over the channel's nonzeros. */
static void columnTile(void *user, MlirValue ow0, int64_t T, int64_t lastLanes) {
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
  svStoreTile(g, k->y, k->n, k->m, k->oh, ow0, acc, 1, T, lastLanes);
}

bool svEmitCsr(SvGen *g, MlirOperation op, const SparseCsr *c, const SvGeom *geo, const SvOptions *o,
               MlirBlock entry) {
  bool hasBias = mlirBlockGetNumArguments(entry) == 4;
  MlirValue x = mlirBlockGetArgument(entry, 0), b = hasBias ? mlirBlockGetArgument(entry, 1) : (MlirValue){NULL};
  MlirValue y = mlirBlockGetArgument(entry, hasBias ? 2 : 1);
  Csr k = {.g = g, .geo = geo, .scratch = mlirBlockGetArgument(entry, hasBias ? 3 : 2)};
  MlirValue gRow;
  if (!svGlobalI32(g, op, "row_ptr", c->rowPtr, c->M + 1, &gRow) ||
      !svGlobalI32(g, op, "col_index", c->col, c->rowPtr[c->M], &k.gCol))
    return false;
  k.gVal = svGlobalF32(g, "values", c->val, c->rowPtr[c->M]);
  int64_t Mg = geo->M / geo->win.group, Cg = geo->C / geo->win.group;
  SvLoop ln, lm, lh;
  svForConst(g, &ln, 0, geo->N, 1, NULL, 0);
  k.n = svLoopIv(&ln), k.y = y;
  svEmitPadCopy(g, geo, x, k.scratch, k.n);
  svForConst(g, &lm, 0, c->M, 1, NULL, 0);
  k.m = svLoopIv(&lm);
  k.lo = svLoadIndex(g, gRow, k.m), k.hi = svLoadIndex(g, gRow, svAddC(g, k.m, 1));
  k.init = hasBias ? svSplat(g, svLoadF32(g, b, k.m)) : svZeroLane(g);
  MlirValue groupBase = svMulC(g, svDivC(g, k.m, Mg), Cg * geo->CS);
  svForConst(g, &lh, 0, geo->OH, 1, NULL, 0);
  k.oh = svLoopIv(&lh);
  k.rowBase = svAdd(g, groupBase, svMulC(g, k.oh, geo->win.strides[0] * geo->RS));
  svColumnTiles(g, geo, o->vector ? CSR_TILE_VECTORS : 1, columnTile, &k);
  svForEnd(g, &lh, NULL, 0);
  svForEnd(g, &lm, NULL, 0);
  svForEnd(g, &ln, NULL, 0);
  return true;
}
