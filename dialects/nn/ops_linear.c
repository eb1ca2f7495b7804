/* Linear algebra and convolution: MatMul, Gemm, Conv (1-3 spatial dims),
 * ConvTranspose. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "nn_quant.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }
static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

/* ---- MatMul ---- */

static MlirLogicalResult inferMatmul(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape a, b;
  if (!nnOperand(def, op, "a", &a) || !nnOperand(def, op, "b", &b) ||
      !nnCheckType(op, "a", &a, NN_FLOAT | NN_T(STRATA_DTYPE_I32) | NN_T(STRATA_DTYPE_I64)) ||
      !nnSameType(op, "a", &a, "b", &b))
    return fail();
  return nnInferMatmulShape(op, &a, &b, res) ? ok() : fail();
}

bool nnInferMatmulShape(MlirOperation op, const StrataShape *a, const StrataShape *b, StrataShape *res) {
  const char *why;
  if (!nn_infer_matmul_shape(a->dims, a->rank, b->dims, b->rank, res->dims, &res->rank, &why)) {
    char da[300], db[300];
    nnError(op, "%s is incompatible with %s: %s", nnDescribe("b", b, db, sizeof db),
            nnDescribe("a", a, da, sizeof da), why);
    return false;
  }
  res->elementType = a->elementType;
  return true;
}

/* numpy.matmul of a and b into y, accumulating in double (exact for the
 * integer products the quantized ops give it: ops_qlinear.c). */
void nnMatmulCompute(const StrataTensor *a, const StrataTensor *b, StrataTensor *y) {
  int64_t M = a->rank >= 2 ? a->dims[a->rank - 2] : 1, K = a->dims[a->rank - 1];
  int64_t N = b->rank >= 2 ? b->dims[b->rank - 1] : 1;
  int batchRank = y->rank - (a->rank >= 2) - (b->rank >= 2);
  int64_t batch = 1, idx[STRATA_MAX_RANK] = {0};
  for (int d = 0; d < batchRank; d++) batch *= y->dims[d];
  int aBatch = a->rank > 2 ? a->rank - 2 : 0, bBatch = b->rank > 2 ? b->rank - 2 : 0;
  for (int64_t bi = 0; bi < batch; bi++) {
    int64_t aOff = 0, bOff = 0;
    for (int d = 0; d < aBatch; d++)
      aOff = aOff * a->dims[d] + (a->dims[d] == 1 ? 0 : idx[batchRank - aBatch + d]);
    for (int d = 0; d < bBatch; d++)
      bOff = bOff * b->dims[d] + (b->dims[d] == 1 ? 0 : idx[batchRank - bBatch + d]);
    aOff *= M * K;
    bOff *= K * N;
    for (int64_t m = 0; m < M; m++)
      for (int64_t n = 0; n < N; n++) {
        double acc = 0;
        for (int64_t k = 0; k < K; k++)
          acc += strataTensorGetDouble(a, aOff + m * K + k) * strataTensorGetDouble(b, bOff + k * N + n);
        strataTensorSetDouble(y, (bi * M + m) * N + n, acc);
      }
    nnNextIndex(idx, y->dims, batchRank);
  }
}

static MlirLogicalResult interpMatmul(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                      StrataTensor **y) {
  (void)in; (void)op;
  nnMatmulCompute(x[0], x[1], y[0]);
  return ok();
}

static double flopsMatmul(MlirOperation op) {
  MlirType a = mlirValueGetType(mlirOperationGetOperand(op, 0));
  int64_t out = nnNumElements(mlirValueGetType(mlirOperationGetResult(op, 0)));
  int64_t k = mlirShapedTypeGetDimSize(a, mlirShapedTypeGetRank(a) - 1);
  return out < 0 || k < 0 ? 0 : 2.0 * (double)out * (double)k;
}

/* ---- Gemm: Y = alpha * A' B' + beta * C ---- */

static MlirLogicalResult inferGemm(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape a, b, c;
  int64_t ta, tb;
  double alpha, beta;
  if (!nnOperand(def, op, "a", &a) || !nnOperand(def, op, "b", &b) ||
      !nnCheckType(op, "a", &a, NN_FLOAT | NN_T(STRATA_DTYPE_I32) | NN_T(STRATA_DTYPE_I64)) ||
      !nnSameType(op, "a", &a, "b", &b) || !nnAttrInt(op, "transA", 0, &ta) ||
      !nnAttrInt(op, "transB", 0, &tb) || !nnAttrFloat(op, "alpha", 1.0, &alpha) ||
      !nnAttrFloat(op, "beta", 1.0, &beta))
    return fail();
  if (a.rank != 2 || b.rank != 2) {
    nnError(op, "operand '%s' must have rank 2, got rank %d", a.rank != 2 ? "a" : "b",
            a.rank != 2 ? a.rank : b.rank);
    return fail();
  }
  int64_t M = ta ? a.dims[1] : a.dims[0], K = ta ? a.dims[0] : a.dims[1];
  int64_t K2 = tb ? b.dims[1] : b.dims[0], N = tb ? b.dims[0] : b.dims[1];
  if (K != -1 && K2 != -1 && K != K2) {
    char da[300], db[300];
    nnError(op, "%s is incompatible with %s (transA=%lld, transB=%lld): inner dimensions %lld and %lld differ",
            nnDescribe("b", &b, db, sizeof db), nnDescribe("a", &a, da, sizeof da), (long long)ta,
            (long long)tb, (long long)K, (long long)K2);
    return fail();
  }
  int64_t out[2] = {M, N};
  if (nnHasOperand(def, op, "c")) {
    if (!nnOperand(def, op, "c", &c) || !nnSameType(op, "a", &a, "c", &c)) return fail();
    int64_t bd[STRATA_MAX_RANK];
    int br, bad;
    bool fits = nn_infer_broadcast_shape(out, 2, c.dims, c.rank, bd, &br, &bad) && br == 2;
    for (int i = 0; fits && i < 2; i++) fits = bd[i] == out[i] || out[i] == -1;
    if (!fits) {
      char dc[300];
      nnError(op, "%s does not broadcast to the [M, N] = [%lld, %lld] result",
              nnDescribe("c", &c, dc, sizeof dc), (long long)M, (long long)N);
      return fail();
    }
  }
  nnSetShape(res, 2, out, a.elementType);
  return ok();
}

static MlirLogicalResult interpGemm(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                    StrataTensor **y) {
  (void)in;
  int64_t ta, tb;
  double alpha, beta;
  nnAttrInt(op, "transA", 0, &ta);
  nnAttrInt(op, "transB", 0, &tb);
  nnAttrFloat(op, "alpha", 1.0, &alpha);
  nnAttrFloat(op, "beta", 1.0, &beta);
  const StrataTensor *A = x[0], *B = x[1], *C = mlirOperationGetNumOperands(op) == 3 ? x[2] : NULL;
  int64_t M = y[0]->dims[0], N = y[0]->dims[1], K = ta ? A->dims[0] : A->dims[1];
  for (int64_t m = 0; m < M; m++)
    for (int64_t n = 0; n < N; n++) {
      double acc = 0;
      for (int64_t k = 0; k < K; k++)
        acc += strataTensorGetDouble(A, ta ? k * M + m : m * K + k) *
               strataTensorGetDouble(B, tb ? n * K + k : k * N + n);
      acc *= alpha;
      if (C) {
        int64_t idx[2] = {m, n};
        acc += beta * strataTensorGetDouble(C, nnBroadcastIndex(C, idx, 2));
      }
      strataTensorSetDouble(y[0], m * N + n, acc);
    }
  return ok();
}

static double flopsGemm(MlirOperation op) {
  MlirType a = mlirValueGetType(mlirOperationGetOperand(op, 0));
  int64_t ta = 0;
  nnAttrInt(op, "transA", 0, &ta);
  int64_t out = nnNumElements(mlirValueGetType(mlirOperationGetResult(op, 0)));
  int64_t k = mlirShapedTypeGetDimSize(a, ta ? 0 : 1);
  return out < 0 || k < 0 ? 0 : (2.0 * (double)k + 2.0) * (double)out;
}

/* ---- Conv ---- */

/* Reads X (N x C x D1..Dn), W (M x C/group x k1..kn), the window, and checks
 * channel/group agreement. `transposed`: W is C x M/group x k1..kn. */
static bool convOperands(const StrataOpDef *def, MlirOperation op, bool transposed, unsigned types,
                         StrataShape *x, StrataShape *w, NnWindow *win) {
  if (!nnOperand(def, op, "x", x) || !nnOperand(def, op, "w", w) || !nnCheckType(op, "x", x, types))
    return false;
  /* Float convolutions take one type; quantized ones x and w each of theirs. */
  if (types == NN_FLOAT ? !nnSameType(op, "x", x, "w", w) : !nnCheckType(op, "w", w, types)) return false;
  if (x->rank < 3 || x->rank > 2 + NN_MAX_SPATIAL || w->rank != x->rank) {
    char dx[300], dw[300];
    nnError(op, "%s and %s must both have rank 3 to 5 (N x C x spatial...) and equal ranks",
            nnDescribe("x", x, dx, sizeof dx), nnDescribe("w", w, dw, sizeof dw));
    return false;
  }
  int spatial = x->rank - 2;
  if (!nn_get_window(op, spatial, &w->dims[2], win)) return false;
  int64_t g = win->group, C = x->dims[1];
  int64_t inPerGroup = transposed ? -1 : w->dims[1], wc = transposed ? w->dims[0] : -1;
  const char *why = NULL;
  if (C != -1 && C % g) why = "input channels are not divisible by group";
  else if (!transposed && w->dims[0] != -1 && w->dims[0] % g)
    why = "filter dim 0 (output channels) is not divisible by group";
  else if (!transposed && C != -1 && inPerGroup != -1 && inPerGroup != C / g) /* C % g == 0 here */
    why = "filter dim 1 must equal input channels / group";
  else if (transposed && C != -1 && wc != -1 && wc != C)
    why = "filter dim 0 must equal input channels";
  if (why) {
    char dx[300], dw[300];
    nnError(op, "%s does not fit %s with group=%lld: %s", nnDescribe("w", w, dw, sizeof dw),
            nnDescribe("x", x, dx, sizeof dx), (long long)g, why);
    return false;
  }
  return true;
}

static bool checkBias(const StrataOpDef *def, MlirOperation op, const StrataShape *x, int64_t M) {
  if (!nnHasOperand(def, op, "b")) return true;
  StrataShape b;
  if (!nnOperand(def, op, "b", &b) || !nnSameType(op, "x", x, "b", &b)) return false;
  if (b.rank != 1 || (b.dims[0] != -1 && M != -1 && b.dims[0] != M)) {
    char want[128], have[300];
    strataShapeToString(&M, 1, b.elementType, want, sizeof want);
    nnError(op, "%s, expected %s (one value per output channel)", nnDescribe("b", &b, have, sizeof have),
            want);
    return false;
  }
  return true;
}

bool nnInferConvShape(const StrataOpDef *def, MlirOperation op, unsigned types, StrataShape *x,
                      StrataShape *w, StrataShape *res) {
  NnWindow win;
  if (!convOperands(def, op, false, types, x, w, &win)) return false;
  int64_t out[STRATA_MAX_RANK] = {x->dims[0], w->dims[0]};
  const char *why;
  if (!nn_infer_window_output(&win, &x->dims[2], &out[2], &why)) {
    char dx[300];
    nnError(op, "%s: %s", nnDescribe("x", x, dx, sizeof dx), why);
    return false;
  }
  nnSetShape(res, x->rank, out, x->elementType);
  return true;
}

static MlirLogicalResult inferConv(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, w;
  if (!nnInferConvShape(def, op, NN_FLOAT, &x, &w, res) || !checkBias(def, op, &x, w.dims[0])) return fail();
  return ok();
}

/* Visits every in-range input offset of an N-D window. */
typedef struct {
  int n;
  int64_t in[NN_MAX_SPATIAL], out[NN_MAX_SPATIAL];
} Spatial;

static int64_t product(const int64_t *d, int n) {
  int64_t p = 1;
  for (int i = 0; i < n; i++) p *= d[i];
  return p;
}

/* The convolution of op's window attributes into Y, accumulating in double
 * (exact for the integer products of ops_qlinear.c); B may be NULL. */
bool nnConvCompute(MlirOperation op, const StrataTensor *X, const StrataTensor *W, const StrataTensor *B,
                   StrataTensor *Y) {
  int sp = X->rank - 2;
  NnWindow win;
  if (!nn_get_window(op, sp, &W->dims[2], &win)) return false;
  const char *why;
  int64_t outSp[NN_MAX_SPATIAL];
  nn_infer_window_output(&win, &X->dims[2], outSp, &why); /* resolves SAME pads */
  int64_t N = X->dims[0], C = X->dims[1], M = W->dims[0], Cg = W->dims[1], Mg = M / win.group;
  int64_t inSize = product(&X->dims[2], sp), outSize = product(&Y->dims[2], sp),
          kSize = product(&W->dims[2], sp);
  for (int64_t n = 0; n < N; n++)
    for (int64_t m = 0; m < M; m++) {
      int64_t g = m / Mg;
      for (int64_t o = 0; o < outSize; o++) {
        int64_t oi[NN_MAX_SPATIAL], rem = o;
        for (int d = sp - 1; d >= 0; d--) oi[d] = rem % Y->dims[2 + d], rem /= Y->dims[2 + d];
        double acc = B ? strataTensorGetDouble(B, m) : 0.0;
        for (int64_t c = 0; c < Cg; c++)
          for (int64_t k = 0; k < kSize; k++) {
            int64_t ki[NN_MAX_SPATIAL], kr = k, flat = 0;
            bool inside = true;
            for (int d = sp - 1; d >= 0; d--) ki[d] = kr % W->dims[2 + d], kr /= W->dims[2 + d];
            for (int d = 0; d < sp && inside; d++) {
              int64_t p = oi[d] * win.strides[d] + ki[d] * win.dilations[d] - win.pads[d];
              inside = p >= 0 && p < X->dims[2 + d];
              flat = flat * X->dims[2 + d] + p;
            }
            if (!inside) continue;
            double xv = strataTensorGetDouble(X, (n * C + g * Cg + c) * inSize + flat);
            acc += xv * strataTensorGetDouble(W, (m * Cg + c) * kSize + k);
          }
        strataTensorSetDouble(Y, (n * M + m) * outSize + o, acc);
      }
    }
  return true;
}

static MlirLogicalResult interpConv(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                    StrataTensor **y) {
  (void)in;
  return nnConvCompute(op, x[0], x[1], mlirOperationGetNumOperands(op) == 3 ? x[2] : NULL, y[0]) ? ok() : fail();
}

static double flopsConv(MlirOperation op) {
  MlirType w = mlirValueGetType(mlirOperationGetOperand(op, 1));
  int64_t out = nnNumElements(mlirValueGetType(mlirOperationGetResult(op, 0)));
  int64_t wn = nnNumElements(w), m = mlirShapedTypeGetDimSize(w, 0);
  /* 2 * Cout*Hout*Wout*N * Cin/g*Kh*Kw: each output takes W's per-filter size MACs. */
  return out < 0 || wn < 0 || m <= 0 ? 0 : 2.0 * (double)out * (double)(wn / m);
}

/* ---- ConvTranspose ---- */

static MlirLogicalResult inferConvTranspose(const StrataOpDef *def, MlirOperation op,
                                            StrataShape *res) {
  StrataShape x, w;
  NnWindow win;
  if (!convOperands(def, op, true, NN_FLOAT, &x, &w, &win)) return fail();
  int sp = x.rank - 2;
  int64_t M = -1;
  if ((w.dims[1] != -1 && !nnDimMul(op, w.dims[1], win.group, &M)) || !checkBias(def, op, &x, M)) return fail();
  int64_t outPad[NN_MAX_SPATIAL] = {0}, outShape[NN_MAX_SPATIAL];
  int nOutPad, nOutShape;
  if (!nnAttrInts(op, "output_padding", outPad, NN_MAX_SPATIAL, &nOutPad) ||
      !nnAttrInts(op, "output_shape", outShape, NN_MAX_SPATIAL, &nOutShape))
    return fail();
  if ((nOutPad != -1 && nOutPad != sp) || (nOutShape != -1 && nOutShape != sp)) {
    nnError(op, "attributes 'output_padding' and 'output_shape' need %d values", sp);
    return fail();
  }
  int64_t out[STRATA_MAX_RANK] = {x.dims[0], M};
  for (int i = 0; i < sp; i++) {
    if (nOutPad == -1) outPad[i] = 0;
    if (outPad[i] < 0 || outPad[i] >= (win.strides[i] > win.dilations[i] ? win.strides[i] : win.dilations[i])) {
      nnError(op, "attribute 'output_padding' value %lld must be smaller than stride or dilation",
              (long long)outPad[i]);
      return fail();
    }
    int64_t in = x.dims[2 + i], span, full;
    if (in == -1) {
      out[2 + i] = -1;
      continue;
    }
    /* stride * (in - 1) + output_padding + span: the full output before
     * pads, which nnConvTransposePads also computes (so always checked). */
    if (!nnDimMul(op, win.kernel[i] - 1, win.dilations[i], &span) || !nnDimAdd(op, span, 1, &span) ||
        !nnDimMul(op, win.strides[i], in - 1, &full) || !nnDimAdd(op, full, outPad[i], &full) ||
        !nnDimAdd(op, full, span, &full))
      return fail();
    if (nOutShape != -1) {
      if (outShape[i] < 1) {
        nnError(op, "attribute 'output_shape' value %lld must be positive", (long long)outShape[i]);
        return fail();
      }
      out[2 + i] = outShape[i];
      continue;
    }
    if (!nnDimAdd(op, full, -win.pads[i], &out[2 + i]) ||
        !nnDimAdd(op, out[2 + i], -win.pads[i + sp], &out[2 + i]))
      return fail();
    if ((!strcmp(win.autoPad, "SAME_UPPER") || !strcmp(win.autoPad, "SAME_LOWER")) &&
        !nnDimMul(op, in, win.strides[i], &out[2 + i]))
      return fail();
    if (out[2 + i] < 1) {
      nnError(op, "the output spatial size %lld of dim %d is not positive (pads too large)",
              (long long)out[2 + i], i);
      return fail();
    }
  }
  nnSetShape(res, x.rank, out, x.elementType);
  return ok();
}

/* Resolves the begin pads of a ConvTranspose from auto_pad/output_shape, as
 * ONNX specifies: total = stride*(in-1) + output_padding + span - out. */
void nnConvTransposePads(MlirOperation op, NnWindow *win, const int64_t *in, const int64_t *out) {
  int sp = win->spatial;
  int64_t outPad[NN_MAX_SPATIAL] = {0}, outShape[NN_MAX_SPATIAL];
  int n, ns;
  nnAttrInts(op, "output_padding", outPad, NN_MAX_SPATIAL, &n);
  if (n == -1) memset(outPad, 0, sizeof outPad);
  nnAttrInts(op, "output_shape", outShape, NN_MAX_SPATIAL, &ns);
  bool same = !strcmp(win->autoPad, "SAME_UPPER") || !strcmp(win->autoPad, "SAME_LOWER");
  if (!same && ns == -1) return;
  for (int i = 0; i < sp; i++) {
    int64_t span = (win->kernel[i] - 1) * win->dilations[i] + 1;
    int64_t total = win->strides[i] * (in[i] - 1) + outPad[i] + span - out[i];
    if (total < 0) total = 0;
    /* ONNX: SAME_UPPER puts the smaller half first; otherwise the larger. */
    bool upper = !strcmp(win->autoPad, "SAME_UPPER");
    win->pads[i] = upper ? total / 2 : total - total / 2;
    win->pads[i + sp] = total - win->pads[i];
  }
}

static MlirLogicalResult interpConvTranspose(StrataInterp *in, MlirOperation op,
                                             StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  const StrataTensor *X = x[0], *W = x[1], *B = mlirOperationGetNumOperands(op) == 3 ? x[2] : NULL;
  int sp = X->rank - 2;
  NnWindow win;
  if (!nn_get_window(op, sp, &W->dims[2], &win)) return fail();
  nnConvTransposePads(op, &win, &X->dims[2], &y[0]->dims[2]);
  int64_t N = X->dims[0], C = X->dims[1], M = y[0]->dims[1], Cg = C / win.group, Mg = M / win.group;
  int64_t inSize = product(&X->dims[2], sp), outSize = product(&y[0]->dims[2], sp),
          kSize = product(&W->dims[2], sp);
  for (int64_t n = 0; n < N; n++)
    for (int64_t m = 0; m < M; m++)
      for (int64_t o = 0; o < outSize; o++)
        strataTensorSetDouble(y[0], (n * M + m) * outSize + o, B ? strataTensorGetDouble(B, m) : 0);
  /* Scatter form: every input element adds into the outputs its window covers. */
  for (int64_t n = 0; n < N; n++)
    for (int64_t c = 0; c < C; c++) {
      int64_t g = c / Cg;
      for (int64_t i = 0; i < inSize; i++) {
        int64_t ii[NN_MAX_SPATIAL], rem = i;
        for (int d = sp - 1; d >= 0; d--) ii[d] = rem % X->dims[2 + d], rem /= X->dims[2 + d];
        double xv = strataTensorGetDouble(X, (n * C + c) * inSize + i);
        for (int64_t mm = 0; mm < Mg; mm++)
          for (int64_t k = 0; k < kSize; k++) {
            int64_t ki[NN_MAX_SPATIAL], kr = k, flat = 0;
            bool inside = true;
            for (int d = sp - 1; d >= 0; d--) ki[d] = kr % W->dims[2 + d], kr /= W->dims[2 + d];
            for (int d = 0; d < sp && inside; d++) {
              int64_t p = ii[d] * win.strides[d] + ki[d] * win.dilations[d] - win.pads[d];
              inside = p >= 0 && p < y[0]->dims[2 + d];
              flat = flat * y[0]->dims[2 + d] + p;
            }
            if (!inside) continue;
            int64_t m = g * Mg + mm, yi = (n * M + m) * outSize + flat;
            double wv = strataTensorGetDouble(W, (c * Mg + mm) * kSize + k);
            strataTensorSetDouble(y[0], yi, strataTensorGetDouble(y[0], yi) + xv * wv);
          }
      }
    }
  return ok();
}

static double flopsConvTranspose(MlirOperation op) {
  int64_t in = nnNumElements(mlirValueGetType(mlirOperationGetOperand(op, 0)));
  MlirType w = mlirValueGetType(mlirOperationGetOperand(op, 1));
  int64_t wn = nnNumElements(w), c = mlirShapedTypeGetDimSize(w, 0);
  return in < 0 || wn < 0 || c <= 0 ? 0 : 2.0 * (double)in * (double)(wn / c);
}

static const StrataOpDef kOps[] = {
    {.name = "nn.matmul",
     .summary = "numpy.matmul: batched, broadcast batch dims, 1-D operands promoted",
     .operands = "a, b",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferMatmul,
     .interpret = interpMatmul,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsMatmul,
     .types = "f16 bf16 f32 f64 i32 i64"},
    {.name = "nn.gemm",
     .summary = "alpha * A' * B' + beta * C (transA, transB; C broadcasts to [M, N])",
     .operands = "a, b, c?",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferGemm,
     .interpret = interpGemm,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsGemm,
     .types = "f16 bf16 f32 f64 i32 i64"},
    {.name = "nn.conv",
     .summary = "N-D convolution (1-3 spatial dims): group (incl. depthwise), strides, dilations, " "pads, auto_pad, kernel_shape; optional bias",
     .operands = "x, w, b?",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferConv,
     .interpret = interpConv,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsConv,
     .types = "f16 bf16 f32 f64"},
    {.name = "nn.conv_transpose",
     .summary = "N-D transposed convolution: group, strides, dilations, pads, auto_pad, " "output_padding, output_shape; optional bias",
     .operands = "x, w, b?",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferConvTranspose,
     .interpret = interpConvTranspose,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsConvTranspose,
     .types = "f16 bf16 f32 f64"},
};

const StrataOpTable nnLinearTable = {kOps, sizeof kOps / sizeof kOps[0]};
