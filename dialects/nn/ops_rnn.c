/* RNN, GRU and LSTM (ONNX semantics, every attribute): shape inference and
 * the reference kernel. Attributes and shapes are read by nn_rnn.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "nn_internal.h"
#include "nn_rnn.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }

static MlirLogicalResult inferRnn(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  (void)def;
  NnRnn r;
  if (!nnRnnOf(op, &r)) return fail();
  MlirType et = mlirShapedTypeGetElementType(mlirValueGetType(mlirOperationGetOperand(op, 0)));
  int64_t D = r.dirs, N = r.batch, H = r.hidden;
  int64_t y0[4] = {r.seq, D, N, H}, y1[4] = {N, r.seq, D, H}, s0[3] = {D, N, H}, s1[3] = {N, D, H};
  nnSetShape(&res[0], 4, r.layout ? y1 : y0, et);
  for (int i = 1; i < (r.cell == NN_CELL_LSTM ? 3 : 2); i++) nnSetShape(&res[i], 3, r.layout ? s1 : s0, et);
  return mlirLogicalResultSuccess();
}

/* ---- Reference kernel ---- */

typedef struct {
  const NnRnn *r;
  const StrataTensor *x, *w, *rr, *b, *p;
  double *h, *c;      /* [batch, hidden] states of the direction running */
  double *pre, *gate; /* [gates * hidden] scratch */
} Cell;

static double clipped(const NnRnn *r, double v) { return r->hasClip ? fmin(fmax(v, -r->clip), r->clip) : v; }

/* x_t W_g^T + Wb_g (+ h R_g^T + Rb_g when withR) for gate g, unit j. */
static double preact(const Cell *c, int d, int64_t t, int64_t n, int g, int64_t j, bool withR) {
  const NnRnn *r = c->r;
  int64_t H = r->hidden, I = r->input, G = r->gates, row = g * H + j;
  int64_t xOff = (r->layout ? n * r->seq + t : t * r->batch + n) * I;
  double v = 0;
  for (int64_t i = 0; i < I; i++)
    v += strataTensorGetDouble(c->x, xOff + i) * strataTensorGetDouble(c->w, (d * G * H + row) * I + i);
  if (c->b) v += strataTensorGetDouble(c->b, d * 2 * G * H + row);
  if (!withR) return v;
  for (int64_t k = 0; k < H; k++) v += c->h[n * H + k] * strataTensorGetDouble(c->rr, (d * G * H + row) * H + k);
  if (c->b) v += strataTensorGetDouble(c->b, d * 2 * G * H + G * H + row);
  return v;
}

static double peephole(const Cell *c, int d, int k, int64_t j) {
  return c->p ? strataTensorGetDouble(c->p, d * 3 * c->r->hidden + k * c->r->hidden + j) : 0;
}

/* One step of batch row n in direction d at time t: new state into
 * c->gate[0..H) (h) and, for LSTM, c->gate[H..2H) (c). */
static void step(Cell *c, int d, int64_t t, int64_t n) {
  const NnRnn *r = c->r;
  const NnActivation *f = &r->act[d][0], *g = &r->act[d][r->numActs > 1 ? 1 : 0], *hAct = &r->act[d][2];
  int64_t H = r->hidden;
  double *hPrev = c->h + n * H, *cPrev = c->c + n * H, *out = c->gate;
  if (r->cell == NN_CELL_RNN) {
    for (int64_t j = 0; j < H; j++) out[j] = nnRnnActivate(f, clipped(r, preact(c, d, t, n, 0, j, true)));
  } else if (r->cell == NN_CELL_GRU) {
    double *z = c->pre, *rs = c->pre + H;
    for (int64_t j = 0; j < H; j++) {
      z[j] = nnRnnActivate(f, clipped(r, preact(c, d, t, n, 0, j, true)));
      rs[j] = nnRnnActivate(f, clipped(r, preact(c, d, t, n, 1, j, true)));
    }
    int64_t G = r->gates;
    for (int64_t j = 0; j < H; j++) {
      double v = preact(c, d, t, n, 2, j, false), rh = 0, rb = c->b ? strataTensorGetDouble(c->b, d * 2 * G * H + G * H + 2 * H + j) : 0;
      int64_t rowOff = (d * G * H + 2 * H + j) * H;
      if (r->linearBeforeReset) {
        for (int64_t k = 0; k < H; k++) rh += hPrev[k] * strataTensorGetDouble(c->rr, rowOff + k);
        v += rs[j] * (rh + rb);
      } else {
        for (int64_t k = 0; k < H; k++) rh += rs[k] * hPrev[k] * strataTensorGetDouble(c->rr, rowOff + k);
        v += rh + rb;
      }
      double hh = nnRnnActivate(g, clipped(r, v));
      out[j] = (1 - z[j]) * hh + z[j] * hPrev[j];
    }
  } else { /* LSTM: gates i, o, f, c; peepholes i, o, f */
    for (int64_t j = 0; j < H; j++) {
      double i = nnRnnActivate(f, clipped(r, preact(c, d, t, n, 0, j, true) + peephole(c, d, 0, j) * cPrev[j]));
      double fg = r->inputForget ? 1 - i
                                 : nnRnnActivate(f, clipped(r, preact(c, d, t, n, 2, j, true) + peephole(c, d, 2, j) * cPrev[j]));
      double cand = nnRnnActivate(g, clipped(r, preact(c, d, t, n, 3, j, true)));
      double cn = fg * cPrev[j] + i * cand;
      double o = nnRnnActivate(f, clipped(r, preact(c, d, t, n, 1, j, true) + peephole(c, d, 1, j) * cn));
      out[j] = o * nnRnnActivate(hAct, cn);
      out[H + j] = cn;
    }
  }
}

static MlirLogicalResult interpRnn(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  NnRnn r;
  if (!nnRnnOf(op, &r)) return fail();
  int64_t T = r.seq, N = r.batch, H = r.hidden, D = r.dirs;
  bool lstm = r.cell == NN_CELL_LSTM;
  for (int64_t n = 0; r.seqLens >= 0 && n < N; n++) {
    int64_t len = nnGetInt(x[r.seqLens], n);
    if (len < 0 || len > T)
      return nnInterpError(op, "sequence_lens[%lld] is %lld; expected 0 to the sequence length %lld", (long long)n,
                           (long long)len, (long long)T);
  }
  Cell c = {&r, x[0], x[1], x[2], r.b >= 0 ? x[r.b] : NULL, r.p >= 0 ? x[r.p] : NULL, NULL, NULL, NULL, NULL};
  c.h = calloc((size_t)(N * H) + 1, sizeof(double));
  c.c = calloc((size_t)(N * H) + 1, sizeof(double));
  c.pre = calloc((size_t)(2 * H) + 1, sizeof(double));
  c.gate = calloc((size_t)(2 * H) + 1, sizeof(double));
  if (!c.h || !c.c || !c.pre || !c.gate) {
    free(c.h), free(c.c), free(c.pre), free(c.gate);
    return nnInterpError(op, "out of memory");
  }
  for (int d = 0; d < D; d++) {
    for (int64_t n = 0; n < N; n++)
      for (int64_t j = 0; j < H; j++) {
        int64_t s = r.layout ? (n * D + d) * H + j : (d * N + n) * H + j;
        c.h[n * H + j] = r.initH >= 0 ? strataTensorGetDouble(x[r.initH], s) : 0;
        c.c[n * H + j] = r.initC >= 0 ? strataTensorGetDouble(x[r.initC], s) : 0;
      }
    for (int64_t s = 0; s < T; s++) {
      int64_t t = nnRnnBackward(&r, d) ? T - 1 - s : s;
      for (int64_t n = 0; n < N; n++) {
        if (r.seqLens >= 0 && t >= nnGetInt(x[r.seqLens], n)) continue; /* past its end: y stays 0 */
        step(&c, d, t, n);
        for (int64_t j = 0; j < H; j++) {
          c.h[n * H + j] = c.gate[j];
          if (lstm) c.c[n * H + j] = c.gate[H + j];
          strataTensorSetDouble(y[0], r.layout ? ((n * T + t) * D + d) * H + j : ((t * D + d) * N + n) * H + j, c.gate[j]);
        }
      }
    }
    for (int64_t n = 0; n < N; n++)
      for (int64_t j = 0; j < H; j++) {
        int64_t s = r.layout ? (n * D + d) * H + j : (d * N + n) * H + j;
        strataTensorSetDouble(y[1], s, c.h[n * H + j]);
        if (lstm) strataTensorSetDouble(y[2], s, c.c[n * H + j]);
      }
  }
  free(c.h), free(c.c), free(c.pre), free(c.gate);
  return mlirLogicalResultSuccess();
}

static double flopsRnn(MlirOperation op) {
  MlirType x = mlirValueGetType(mlirOperationGetOperand(op, 0)), w = mlirValueGetType(mlirOperationGetOperand(op, 1));
  MlirType rr = mlirValueGetType(mlirOperationGetOperand(op, 2));
  int64_t nx = nnNumElements(x), nw = nnNumElements(w), nr = nnNumElements(rr);
  if (nx < 0 || nw < 0 || nr < 0 || mlirShapedTypeGetDimSize(x, 2) <= 0) return 0;
  double steps = (double)nx / (double)mlirShapedTypeGetDimSize(x, 2); /* seq * batch */
  return 2.0 * steps * ((double)nw + (double)nr);
}

#define RNN_OP(nm, sum, ops, res)                                                                           \
  {.name = nm, .summary = sum, .operands = ops, .results = res, .flags = STRATA_OP_PURE, .infer = inferRnn, \
   .interpret = interpRnn, .mapping = nnMapManyToMany, .dynamism = STRATA_DYN_ISDOS, .flops = flopsRnn,   \
   .types = "f16 bf16 f32 f64"}

/* Row order is NnCellKind's. */
const StrataOpDef nnRnnOps[] = {
    RNN_OP("nn.rnn", "Elman RNN (ONNX RNN): directions, activations with alpha/beta, clip, sequence_lens, "
           "initial_h, layout; results y and y_h",
           "x, w, r, b?, sequence_lens?, initial_h?", "y, y_h"),
    RNN_OP("nn.gru", "GRU (ONNX GRU): as nn.rnn, plus linear_before_reset; gates z, r, h",
           "x, w, r, b?, sequence_lens?, initial_h?", "y, y_h"),
    RNN_OP("nn.lstm", "LSTM (ONNX LSTM): as nn.rnn, plus initial_c, peepholes p, input_forget; gates i, o, "
           "f, c; results y, y_h, y_c",
           "x, w, r, b?, sequence_lens?, initial_h?, initial_c?, p?", "y, y_h, y_c"),
};

const StrataOpTable nnRnnTable = {nnRnnOps, sizeof nnRnnOps / sizeof nnRnnOps[0]};
