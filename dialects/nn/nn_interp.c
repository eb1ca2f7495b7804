/* Reference semantics of nn ops: naive loops, double accumulation. The
 * verifier has already checked shapes, so kernels trust them. */
#include <math.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "nn_internal.h"
#include "strata/support.h"

MlirLogicalResult nnInterpConstant(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                   StrataTensor *const *y) {
  (void)in; (void)x;
  MlirAttribute v = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("value"));
  StrataTensor *t = strataTensorFromAttr(v);
  if (!t) {
    strataEmitError(mlirOperationGetLocation(op),
                    "'nn.constant' op: the interpreter cannot read this attribute's elements");
    return mlirLogicalResultFailure();
  }
  memcpy(y[0]->data, t->data, strataTensorNumBytes(t));
  strataTensorDestroy(t);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult nnInterpRelu(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                               StrataTensor *const *y) {
  (void)in; (void)op;
  int64_t n = strataTensorNumElements(y[0]);
  for (int64_t i = 0; i < n; i++) {
    double v = strataTensorGetDouble(x[0], i);
    strataTensorSetDouble(y[0], i, v > 0 || isnan(v) ? v : 0.0);
  }
  return mlirLogicalResultSuccess();
}

/* Flat index into `in` of the element that broadcasting maps to output
 * multi-index `idx` (of rank outRank). */
static int64_t broadcastIndex(const StrataTensor *in, const int64_t *idx, int outRank) {
  int64_t flat = 0;
  for (int d = 0; d < in->rank; d++) {
    int64_t i = in->dims[d] == 1 ? 0 : idx[outRank - in->rank + d];
    flat = flat * in->dims[d] + i;
  }
  return flat;
}

static void nextIndex(int64_t *idx, const StrataTensor *t) {
  for (int d = t->rank - 1; d >= 0; d--) {
    if (++idx[d] < t->dims[d]) return;
    idx[d] = 0;
  }
}

MlirLogicalResult nnInterpAdd(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                              StrataTensor *const *y) {
  (void)in; (void)op;
  int64_t idx[STRATA_MAX_RANK] = {0}, n = strataTensorNumElements(y[0]);
  for (int64_t i = 0; i < n; i++, nextIndex(idx, y[0])) {
    double a = strataTensorGetDouble(x[0], broadcastIndex(x[0], idx, y[0]->rank));
    double b = strataTensorGetDouble(x[1], broadcastIndex(x[1], idx, y[0]->rank));
    strataTensorSetDouble(y[0], i, a + b);
  }
  return mlirLogicalResultSuccess();
}

MlirLogicalResult nnInterpMatmul(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                 StrataTensor *const *y) {
  (void)in; (void)op;
  const StrataTensor *a = x[0], *b = x[1];
  /* Promote 1-D operands to matrices, per numpy.matmul. */
  int64_t M = a->rank >= 2 ? a->dims[a->rank - 2] : 1, K = a->dims[a->rank - 1];
  int64_t N = b->rank >= 2 ? b->dims[b->rank - 1] : 1;
  int batchRank = y[0]->rank - (a->rank >= 2) - (b->rank >= 2);
  int64_t batch = 1;
  for (int d = 0; d < batchRank; d++) batch *= y[0]->dims[d];
  int64_t idx[STRATA_MAX_RANK] = {0};
  int aBatch = a->rank > 2 ? a->rank - 2 : 0, bBatch = b->rank > 2 ? b->rank - 2 : 0;
  for (int64_t bi = 0; bi < batch; bi++) {
    /* Broadcast batch index into each operand's batch dims. */
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
        strataTensorSetDouble(y[0], (bi * M + m) * N + n, acc);
      }
    for (int d = batchRank - 1; d >= 0; d--) {
      if (++idx[d] < y[0]->dims[d]) break;
      idx[d] = 0;
    }
  }
  return mlirLogicalResultSuccess();
}

MlirLogicalResult nnInterpConv2d(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                 StrataTensor *const *y) {
  (void)in;
  NnConv2dParams p;
  if (!nn_get_conv2d_params(op, &p)) return mlirLogicalResultFailure();
  const StrataTensor *X = x[0], *W = x[1], *B = mlirOperationGetNumOperands(op) == 3 ? x[2] : NULL;
  int64_t N = X->dims[0], C = X->dims[1], H = X->dims[2], Wd = X->dims[3];
  int64_t F = W->dims[0], Cg = W->dims[1], KH = W->dims[2], KW = W->dims[3];
  int64_t OH = y[0]->dims[2], OW = y[0]->dims[3], Fg = F / p.groups;
  for (int64_t n = 0; n < N; n++)
    for (int64_t f = 0; f < F; f++) {
      int64_t g = f / Fg;
      for (int64_t oh = 0; oh < OH; oh++)
        for (int64_t ow = 0; ow < OW; ow++) {
          double acc = B ? strataTensorGetDouble(B, f) : 0.0;
          for (int64_t c = 0; c < Cg; c++)
            for (int64_t kh = 0; kh < KH; kh++) {
              int64_t ih = oh * p.strides[0] + kh * p.dilations[0] - p.pads[0];
              if (ih < 0 || ih >= H) continue;
              for (int64_t kw = 0; kw < KW; kw++) {
                int64_t iw = ow * p.strides[1] + kw * p.dilations[1] - p.pads[1];
                if (iw < 0 || iw >= Wd) continue;
                int64_t xi = ((n * C + g * Cg + c) * H + ih) * Wd + iw;
                int64_t wi = ((f * Cg + c) * KH + kh) * KW + kw;
                acc += strataTensorGetDouble(X, xi) * strataTensorGetDouble(W, wi);
              }
            }
          strataTensorSetDouble(y[0], ((n * F + f) * OH + oh) * OW + ow, acc);
        }
    }
  return mlirLogicalResultSuccess();
}
