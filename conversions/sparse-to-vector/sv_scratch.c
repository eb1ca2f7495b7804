/* The row tile's input views (sv_internal.h has the layout) and the output
 * tiling. Padding, stride and dilation are handled by the copy, once per
 * row tile: every tap of the convolution then reads aligned vectors of its
 * kernel column's view, with no bounds check and no shuffle. */
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/support.h"
#include "sv_internal.h"

/* b > 0; no intermediate overflows (a stride may be as large as int64) */
static int64_t ceilDiv(int64_t a, int64_t b) { return a / b + (a % b > 0); }
static int64_t floorDiv(int64_t a, int64_t b) { return a / b - (a % b < 0); }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

bool svGeomInit(SvGeom *geo, MlirOperation op, const SparseWindow *win, SvLayout layout, int64_t lanes, int64_t R) {
  MlirType xt = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType yt = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirTypeIsARankedTensor(xt) || !mlirShapedTypeHasStaticShape(xt) || !mlirTypeIsARankedTensor(yt) ||
      !mlirShapedTypeHasStaticShape(yt)) {
    strataEmitOpError(op, "needs static shapes to be compiled");
    return false;
  }
  geo->win = *win;
  /* phases only pay while a phase holds kernel columns: with a column
   * stride above the kernel's width most phases would be copied unread */
  geo->layout = win->strides[1] > win->kernel[1] ? SV_LAYOUT_VIEWS : layout;
  geo->N = mlirShapedTypeGetDimSize(xt, 0), geo->C = mlirShapedTypeGetDimSize(xt, 1);
  geo->H = mlirShapedTypeGetDimSize(xt, 2), geo->W = mlirShapedTypeGetDimSize(xt, 3);
  geo->M = mlirShapedTypeGetDimSize(yt, 1), geo->OH = mlirShapedTypeGetDimSize(yt, 2);
  geo->OW = mlirShapedTypeGetDimSize(yt, 3);
  geo->R = R < 1 ? 1 : min64(R, max64(geo->OH, 1));
  geo->rows = svTiles(geo->OH, geo->R);
  int64_t sh = win->strides[0], sw = win->strides[1], span = (win->kernel[0] - 1) * win->dilations[0];
  int64_t Wv, maxCol = (win->kernel[1] - 1) * win->dilations[1] / sw;
  bool ok = strataCheckedMul(ceilDiv(max64(geo->OW, 1), lanes), lanes, &Wv);
  if (geo->layout == SV_LAYOUT_VIEWS) {
    geo->NV = win->kernel[1], geo->VL = Wv, geo->step = win->dilations[1];
  } else {
    /* the aligned vectors of a tile's columns at any offset up to maxCol,
     * and the one after them that shifted vectors are made of */
    geo->NV = sw, geo->step = 1;
    ok = ok && strataCheckedAdd(Wv, maxCol + lanes, &geo->VL);
    geo->VL = ceilDiv(geo->VL, lanes) * lanes;
  }
  ok = ok && strataCheckedMul(geo->R - 1, sh, &geo->RT) && strataCheckedAdd(geo->RT, span + 1, &geo->RT) &&
       strataCheckedMul(geo->NV, geo->VL, &geo->RS) && strataCheckedMul(geo->RT, geo->RS, &geo->CS) &&
       strataCheckedMul(geo->C, geo->CS, &geo->size) && strataCheckedMul(geo->N, geo->rows.count, &geo->items) &&
       strataCheckedMul(geo->R > 1 ? sh : 0, geo->RS, &geo->rowStep) && /* one row per tile: no step */
       geo->size <= INT64_MAX / 4;
  /* sums: after the views, a tile's incomplete last vectors for the next
   * (one set per output channel: either loop order finds its own) */
  int64_t carry = 0;
  geo->carry = geo->size;
  ok = ok && (geo->layout != SV_LAYOUT_SUMS ||
              (strataCheckedMul(geo->M, geo->R * lanes, &carry) && strataCheckedAdd(geo->size, carry, &geo->size) &&
               geo->size <= INT64_MAX / 4));
  if (!ok) strataEmitOpError(op, "the row tile's input views overflow");
  return ok;
}

SvTap svTap(const SvGeom *geo, int64_t i, int64_t r, int64_t q) {
  int64_t row = (i * geo->win.strides[0] + r * geo->win.dilations[0]) * geo->RS;
  if (geo->layout == SV_LAYOUT_VIEWS) return (SvTap){row + q * geo->VL, 0};
  int64_t col = q * geo->win.dilations[1], sw = geo->win.strides[1];
  return (SvTap){row + (col % sw) * geo->VL, col / sw};
}

/* ---- The copy ---- */

typedef struct {
  MlirValue x, scratch, n, c, ih, rowBase;
} Row;

/* lanes of x[n, c, ih, col + k] for k < count (< lanes: the rest 0,
 * masked off the read) */
static MlirValue rowLoad(SvGen *g, const Row *r, MlirValue col, int64_t count) {
  MlirValue ops[7] = {r->x, r->n, r->c, r->ih, col};
  if (count >= g->lanes)
    return strataResult(strataCreateOp(&g->b, "vector.load", g->loc, .operands = {ops, 5}, .results = STRATA_TYPES(g->lane)), 0);
  ops[5] = svMask(g, count), ops[6] = svZeroLane(g);
  return strataResult(strataCreateOp(&g->b, "vector.maskedload", g->loc, .operands = {ops, 7}, .results = STRATA_TYPES(g->lane)), 0);
}

/* The even lanes of (a, b): elements 0, 2, 4, ... of a pair of vectors
 * holding consecutive input columns (a stride-2 view). */
static MlirValue evens(SvGen *g, MlirValue a, MlirValue b) {
  int64_t mask[64];
  for (int64_t l = 0; l < g->lanes; l++) mask[l] = 2 * l;
  return strataResult(strataCreateOp(&g->b, "vector.shuffle", g->loc, .operands = STRATA_VALUES(a, b),
                                     .results = STRATA_TYPES(g->lane),
                                     .attrs = STRATA_ATTRS({"mask", mlirDenseI64ArrayGet(g->ctx, g->lanes, mask)})),
                      0);
}

/* view[j] = x[n, c, ih, j*sw + off] for j in [lo, hi) of the view at
 * `at` (a scratch offset), count elements at a time (< lanes: masked). */
static void viewBlock(SvGen *g, const Row *r, MlirValue j, int64_t sw, int64_t off, int64_t count, MlirValue at) {
  MlirValue col = svAddC(g, svMulC(g, j, sw), off), v;
  if (sw == 1) {
    v = rowLoad(g, r, col, count);
  } else { /* sw == 2: 2*count - 1 consecutive columns, two vectors */
    int64_t span = 2 * count - 1;
    MlirValue a = rowLoad(g, r, col, min64(span, g->lanes));
    MlirValue b = span > g->lanes ? rowLoad(g, r, svAddC(g, col, g->lanes), span - g->lanes) : svZeroLane(g);
    v = evens(g, a, b);
  }
  svStoreLane(g, v, r->scratch, &at, 1, count < g->lanes ? svMask(g, count) : (MlirValue){NULL});
}

static void zeroRange(SvGen *g, MlirValue scratch, MlirValue at, int64_t n);

/* Copies view v of an input row, and zeroes the rest of it (the padding
 * and the columns past the row): only the vectors the copy does not
 * overwrite whole, not the view first and then the copy over it. */
static void copyView(SvGen *g, const SvGeom *geo, const Row *r, int64_t v) {
  int64_t sw = geo->win.strides[1], off = v * geo->step - geo->win.pads[1], V = g->lanes;
  /* j*sw + off inside [0, W) */
  int64_t lo = max64(0, ceilDiv(max64(-off, 0), sw)), hi = min64(geo->VL, floorDiv(geo->W - 1 - off, sw) + 1);
  MlirValue viewBase = svAddC(g, r->rowBase, v * geo->VL);
  if (hi <= lo) {
    zeroRange(g, r->scratch, viewBase, geo->VL);
    return;
  }
  int64_t head = ceilDiv(lo, V) * V, tail = hi / V * V; /* VL is whole vectors */
  if (head > 0) zeroRange(g, r->scratch, viewBase, head);
  if (tail < geo->VL) zeroRange(g, r->scratch, svAddC(g, viewBase, tail), geo->VL - tail);
  SvLoop l;
  if (!g->vector || sw > 2) { /* one element at a time */
    svForConst(g, &l, lo, hi, 1, NULL, 0);
    MlirValue j = svLoopIv(&l), col = svAddC(g, svMulC(g, j, sw), off);
    MlirValue ops[5] = {r->x, r->n, r->c, r->ih, col};
    MlirValue v = strataResult(strataCreateOp(&g->b, "memref.load", g->loc, .operands = {ops, 5}, .results = STRATA_TYPES(g->f32)), 0);
    MlirValue st[3] = {v, r->scratch, svAdd(g, viewBase, j)};
    strataCreateOp(&g->b, "memref.store", g->loc, .operands = {st, 3});
    svForEnd(g, &l, NULL, 0);
    return;
  }
  int64_t full = (hi - lo) / V, rest = (hi - lo) % V;
  if (full > 0) {
    svForConst(g, &l, lo, lo + full * V, V, NULL, 0);
    viewBlock(g, r, svLoopIv(&l), sw, off, V, svAdd(g, viewBase, svLoopIv(&l)));
    svForEnd(g, &l, NULL, 0);
  }
  if (rest) viewBlock(g, r, svC(g, lo + full * V), sw, off, rest, svAddC(g, viewBase, lo + full * V));
}

/* scratch[at .. at + n) = 0, n a multiple of the lanes */
static void zeroRange(SvGen *g, MlirValue scratch, MlirValue at, int64_t n) {
  SvLoop l;
  svForConst(g, &l, 0, n, g->lanes, NULL, 0);
  MlirValue idx = svAdd(g, at, svLoopIv(&l));
  if (g->vector) {
    svStoreLane(g, svZeroLane(g), scratch, &idx, 1, (MlirValue){NULL});
  } else {
    MlirValue st[3] = {strataConstFloat(&g->b, g->loc, g->f32, 0.0), scratch, idx};
    strataCreateOp(&g->b, "memref.store", g->loc, .operands = {st, 3});
  }
  svForEnd(g, &l, NULL, 0);
}

void svEmitTileCopy(SvGen *g, const SvGeom *geo, MlirValue x, MlirValue scratch, MlirValue n, MlirValue oh0) {
  SvLoop lc, lt;
  svForConst(g, &lc, 0, geo->C, 1, NULL, 0);
  MlirValue c = svLoopIv(&lc), cb = svMulC(g, c, geo->CS);
  svForConst(g, &lt, 0, geo->RT, 1, NULL, 0);
  MlirValue t = svLoopIv(&lt);
  MlirValue rowBase = svAdd(g, cb, svMulC(g, t, geo->RS));
  /* input row oh0*sh + t - padTop; one unsigned compare tells both ends */
  MlirValue ih = svAddC(g, svAdd(g, svMulC(g, oh0, geo->win.strides[0]), t), -geo->win.pads[0]);
  MlirValue inside = strataResult(
      strataCreateOp(&g->b, "arith.cmpi", g->loc, .operands = STRATA_VALUES(ih, svC(g, geo->H)),
                     .results = STRATA_TYPES(mlirIntegerTypeGet(g->ctx, 1)),
                     .attrs = STRATA_ATTRS({"predicate", strataI64Attr(g->ctx, 6 /* ult */)})),
      0);
  MlirOperation ifOp = strataCreateOp(&g->b, "scf.if", g->loc, .operands = STRATA_VALUES(inside), .numRegions = 2);
  StrataBuilder outer = g->b;
  g->b = strataBuilderAtEnd(g->ctx, strataAddBlock(ifOp, 0, (StrataTypeList){NULL, 0}, g->loc));
  Row r = {x, scratch, n, c, ih, rowBase};
  for (int64_t v = 0; v < geo->NV; v++) copyView(g, geo, &r, v);
  strataCreateOp(&g->b, "scf.yield", g->loc);
  g->b = strataBuilderAtEnd(g->ctx, strataAddBlock(ifOp, 1, (StrataTypeList){NULL, 0}, g->loc));
  zeroRange(g, scratch, rowBase, geo->RS); /* a row of the padding */
  strataCreateOp(&g->b, "scf.yield", g->loc);
  g->b = outer;
  svForEnd(g, &lt, NULL, 0);
  svForEnd(g, &lc, NULL, 0);
}

/* ---- Output tiles ---- */

SvTiles svTiles(int64_t extent, int64_t size) {
  SvTiles t = {ceilDiv(extent, size), size, max64(extent - size, 0)}; /* one tile when size > extent */
  return t;
}

MlirValue svTileStart(SvGen *g, const SvTiles *t, MlirValue k) {
  MlirValue start = svMulC(g, k, t->step);
  /* min only where the last tile would run past the end */
  return (t->count - 1) * t->step > t->last ? svMinC(g, start, t->last) : start;
}

void svColumnTiles(SvGen *g, const SvGeom *geo, int64_t T, bool endAlone, SvColumnBody body, void *user) {
  int64_t V = g->lanes, main = geo->OW;
  endAlone = endAlone && geo->OW > V;
  if (endAlone) main = (geo->OW - 1) / V * V; /* the vectors before the row's last */
  int64_t width = T * V, full = main / width, rest = main % width;
  bool more = rest > 0 || endAlone;
  if (full == 1) {
    body(user, svC(g, 0), T, V, (SvColumnPos){more, SV_AFTER_NONE});
  } else if (full > 1) {
    SvLoop l;
    svForConst(g, &l, 0, full, 1, NULL, 0);
    body(user, svMulC(g, svLoopIv(&l), width), T, V, (SvColumnPos){more, more ? SV_AFTER_IF_NOT_FIRST : SV_AFTER_NONE});
    svForEnd(g, &l, NULL, 0);
  }
  SvColumnPos afterFull = {endAlone, full > 0 ? SV_AFTER_ALWAYS : SV_AFTER_NONE};
  if (rest) body(user, svC(g, full * width), ceilDiv(rest, V), rest % V ? rest % V : V, afterFull);
  if (endAlone) body(user, svC(g, main), 1, geo->OW - main, (SvColumnPos){false, SV_AFTER_ALWAYS});
}

/* max/min with a constant, NaN-propagating (ONNX Relu and Clip). */
static MlirValue bound(SvGen *g, const char *op, MlirValue v, double c) {
  MlirValue k = svSplat(g, strataConstFloat(&g->b, g->loc, g->f32, c));
  return strataResult(strataCreateOp(&g->b, op, g->loc, .operands = STRATA_VALUES(v, k), .results = STRATA_TYPES(g->lane)), 0);
}

MlirValue svActivation(SvGen *g, MlirValue v) {
  if (g->act == SV_ACT_RELU) return bound(g, "arith.maximumf", v, 0.0);
  if (g->act == SV_ACT_CLIP) return bound(g, "arith.minimumf", bound(g, "arith.maximumf", v, g->lo), g->hi);
  return v;
}

void svStoreTile(SvGen *g, MlirValue y, MlirValue n, MlirValue m, MlirValue oh0, MlirValue ow0, const MlirValue *acc,
                 int64_t R, int64_t T, int64_t lastLanes, MlirValue scratch, MlirValue carry) {
  MlirValue mask = lastLanes < g->lanes ? svMask(g, lastLanes) : (MlirValue){NULL};
  bool carried = !mlirValueIsNull(carry);
  for (int64_t i = 0; i < R; i++)
    for (int64_t t = 0; t < T; t++) {
      MlirValue v = acc[i * T + t];
      if (carried && t == T - 1) {
        MlirValue at = svAddC(g, carry, i * g->lanes);
        svStoreLane(g, v, scratch, &at, 1, (MlirValue){NULL});
        continue;
      }
      MlirValue idx[4] = {n, m, svAddC(g, oh0, i), svAddC(g, ow0, t * g->lanes)};
      svStoreLane(g, svActivation(g, v), y, idx, 4, t == T - 1 ? mask : (MlirValue){NULL});
    }
}

void svItemLoop(SvGen *g, const SvGeom *geo, const MlirValue *args, SvItemBody body, void *user) {
  SvLoop l;
  svForBegin(g, &l, args[SV_ARG_BEGIN], args[SV_ARG_END], svC(g, 1), NULL, 0);
  MlirValue item = svLoopIv(&l);
  MlirValue n = svDivC(g, item, geo->rows.count);
  MlirValue k = geo->rows.count == 1 ? svC(g, 0) : svRemC(g, item, geo->rows.count);
  body(user, n, svTileStart(g, &geo->rows, k));
  svForEnd(g, &l, NULL, 0);
}
