/* The zero-padded, stride-phased input scratch of the sparse lowerings,
 * and the output tiling. Padding and the column stride are handled once,
 * by the copy: every tap of the convolution then reads contiguous
 * elements with no bounds check (sv_internal.h has the layout). */
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/support.h"
#include "sv_internal.h"

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

bool svGeomInit(SvGeom *geo, MlirOperation op, const SparseWindow *win, int64_t lanes) {
  MlirType xt = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType yt = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirTypeIsARankedTensor(xt) || !mlirShapedTypeHasStaticShape(xt) || !mlirTypeIsARankedTensor(yt) ||
      !mlirShapedTypeHasStaticShape(yt)) {
    svOpError(op, "needs static shapes to be compiled");
    return false;
  }
  geo->win = *win;
  geo->N = mlirShapedTypeGetDimSize(xt, 0), geo->C = mlirShapedTypeGetDimSize(xt, 1);
  geo->H = mlirShapedTypeGetDimSize(xt, 2), geo->W = mlirShapedTypeGetDimSize(xt, 3);
  geo->M = mlirShapedTypeGetDimSize(yt, 1), geo->OH = mlirShapedTypeGetDimSize(yt, 2);
  geo->OW = mlirShapedTypeGetDimSize(yt, 3);
  const int64_t *p = win->pads, sw = win->strides[1];
  int64_t wp, phaseW, need, rows, size;
  /* The widest read: the row's last vector (a whole vector, past the row's
   * end when its width is not a multiple) plus one more (the aligned
   * loads that shifted vectors are made of), at the last tap column's
   * offset. */
  int64_t vectors = lanes > 1 ? ceilDiv(geo->OW, lanes) + 1 : geo->OW;
  bool ok = strataCheckedAdd(geo->H, p[0] + p[2], &geo->Hp) && strataCheckedAdd(geo->W, p[1] + p[3], &wp) &&
            strataCheckedMul(vectors, lanes, &need) &&
            strataCheckedAdd(need, (win->kernel[1] - 1) * win->dilations[1] / sw, &need);
  if (ok) {
    phaseW = ceilDiv(wp, sw);
    geo->Wph = ceilDiv(max64(phaseW, need), lanes) * lanes;
    ok = strataCheckedMul(sw, geo->Wph, &geo->RS) && strataCheckedMul(geo->Hp, geo->RS, &rows) &&
         strataCheckedMul(geo->C, rows, &size) && size <= INT64_MAX / 4;
    geo->CS = rows, geo->size = size;
  }
  if (!ok) svOpError(op, "the padded input's size overflows");
  return ok;
}

int64_t svTapOffset(const SvGeom *geo, int64_t r, int64_t q) {
  int64_t col = q * geo->win.dilations[1], sw = geo->win.strides[1];
  return r * geo->win.dilations[0] * geo->RS + (col % sw) * geo->Wph + col / sw;
}

/* scratch[rowBase + j] for j in [a, b): zeros, or (src) x[n, c, ih, j*sw +
 * phase - padLeft]; whole vectors where `vec`, then one masked vector. */
typedef struct {
  MlirValue x, scratch, n, c, ih, rowBase;
  int64_t sw, phase, padLeft;
} Row;

static MlirValue xLoad(SvGen *g, const Row *r, MlirValue col, bool vec, MlirValue mask) {
  MlirValue ops[7] = {r->x, r->n, r->c, r->ih, col};
  int k = 5;
  if (!vec)
    return strataResult(strataCreateOp(&g->b, "memref.load", g->loc, .operands = {ops, k}, .results = STRATA_TYPES(g->f32)), 0);
  if (mlirValueIsNull(mask))
    return strataResult(strataCreateOp(&g->b, "vector.load", g->loc, .operands = {ops, k}, .results = STRATA_TYPES(g->lane)), 0);
  ops[k++] = mask;
  ops[k++] = svZeroLane(g);
  return strataResult(strataCreateOp(&g->b, "vector.maskedload", g->loc, .operands = {ops, k}, .results = STRATA_TYPES(g->lane)), 0);
}

static void rowPiece(SvGen *g, const Row *r, MlirValue j, bool copy, bool vec, MlirValue mask) {
  MlirValue v;
  if (copy) {
    MlirValue col = svAddC(g, svMulC(g, j, r->sw), r->phase - r->padLeft);
    v = xLoad(g, r, col, vec, mask);
  } else {
    v = vec ? svZeroLane(g) : strataConstFloat(&g->b, g->loc, g->f32, 0.0);
  }
  MlirValue at = svAdd(g, r->rowBase, j);
  if (vec) {
    svStoreLane(g, v, r->scratch, &at, 1, mask);
  } else {
    MlirValue ops[3] = {v, r->scratch, at};
    strataCreateOp(&g->b, "memref.store", g->loc, .operands = {ops, 3});
  }
}

static void rowRange(SvGen *g, const Row *r, int64_t a, int64_t b, bool copy, bool vec) {
  if (b <= a) return;
  int64_t step = vec ? g->lanes : 1, full = (b - a) / step, tail = (b - a) % step;
  if (full > 0) {
    SvLoop l;
    svForConst(g, &l, a, a + full * step, step, NULL, 0);
    rowPiece(g, r, svLoopIv(&l), copy, vec, (MlirValue){NULL});
    svForEnd(g, &l, NULL, 0);
  }
  if (tail) rowPiece(g, r, svC(g, a + full * step), copy, vec, svMask(g, tail));
}

static int64_t clamp(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

void svEmitPadCopy(SvGen *g, const SvGeom *geo, MlirValue x, MlirValue scratch, MlirValue n) {
  const int64_t *p = geo->win.pads, sw = geo->win.strides[1];
  bool vec = g->vector;
  SvLoop lc, lh;
  svForConst(g, &lc, 0, geo->C, 1, NULL, 0);
  MlirValue c = svLoopIv(&lc), cb = svMulC(g, c, geo->CS);
  /* The top and bottom padding rows, each one range of zeros. */
  Row z = {x, scratch, n, c, c, cb, 1, 0, 0};
  rowRange(g, &z, 0, p[0] * geo->RS, false, vec);
  rowRange(g, &z, (p[0] + geo->H) * geo->RS, geo->CS, false, vec);
  svForConst(g, &lh, 0, geo->H, 1, NULL, 0);
  MlirValue ih = svLoopIv(&lh);
  MlirValue rowBase = svAdd(g, cb, svMulC(g, svAddC(g, ih, p[0]), geo->RS));
  for (int64_t ph = 0; ph < sw; ph++) {
    /* Element j of this phase is column j*sw + ph - padLeft: inside the
     * image for j in [lo, hi), split at compile time (no select). */
    int64_t lo = clamp(ceilDiv(p[1] - ph, sw), 0, geo->Wph), hi = clamp(ceilDiv(geo->W + p[1] - ph, sw), lo, geo->Wph);
    Row r = {x, scratch, n, c, ih, svAddC(g, rowBase, ph * geo->Wph), sw, ph, p[1]};
    rowRange(g, &r, 0, lo, false, vec);
    rowRange(g, &r, lo, hi, true, vec && sw == 1); /* strided columns: one at a time */
    rowRange(g, &r, hi, geo->Wph, false, vec);
  }
  svForEnd(g, &lh, NULL, 0);
  svForEnd(g, &lc, NULL, 0);
}

SvTiles svTiles(int64_t extent, int64_t size) {
  SvTiles t = {ceilDiv(extent, size), size, max64(extent - size, 0)}; /* one tile when size > extent */
  return t;
}

MlirValue svTileStart(SvGen *g, const SvTiles *t, MlirValue k) {
  MlirValue start = svMulC(g, k, t->step);
  /* min only where the last tile would run past the end */
  return (t->count - 1) * t->step > t->last ? svMinC(g, start, t->last) : start;
}

void svColumnTiles(SvGen *g, const SvGeom *geo, int64_t T, SvColumnBody body, void *user) {
  int64_t width = T * g->lanes, full = geo->OW / width, rest = geo->OW % width;
  if (full > 0) {
    SvLoop l;
    svForConst(g, &l, 0, full, 1, NULL, 0);
    body(user, svMulC(g, svLoopIv(&l), width), T, g->lanes);
    svForEnd(g, &l, NULL, 0);
  }
  if (rest) body(user, svC(g, full * width), ceilDiv(rest, g->lanes), rest % g->lanes ? rest % g->lanes : g->lanes);
}

void svStoreTile(SvGen *g, MlirValue y, MlirValue n, MlirValue m, MlirValue oh0, MlirValue ow0, const MlirValue *acc,
                 int64_t R, int64_t T, int64_t lastLanes) {
  MlirValue mask = lastLanes < g->lanes ? svMask(g, lastLanes) : (MlirValue){NULL};
  for (int64_t i = 0; i < R; i++)
    for (int64_t t = 0; t < T; t++) {
      MlirValue idx[4] = {n, m, svAddC(g, oh0, i), svAddC(g, ow0, t * g->lanes)};
      svStoreLane(g, acc[i * T + t], y, idx, 4, t == T - 1 ? mask : (MlirValue){NULL});
    }
}
