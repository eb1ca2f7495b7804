/* nn.rnn, nn.gru, nn.lstm -> linalg: per direction one contraction x W^T
 * for every step at once, then per step h R^T and one elementwise generic
 * over [batch, hidden] that applies the gates (activations, clip, biases,
 * peepholes, the sequence_lens mask) and yields the new state, inserted
 * into y. The steps are one scf.for over the run-time sequence length
 * (dynamic dims, issue 19, and static ones alike) carrying h (and c) and y,
 * the step's rows of x W^T sliced out at the loop's index (backward
 * directions at T-1-i), states sized by the run-time batch and advanced in
 * place. With unroll-rnn (the GPU and Hexagon pipelines, whose
 * bufferization takes no loop yielding new buffers) a static sequence is
 * unrolled instead, every index a constant in the maps. Weights are read in place:
 * the direction and the gate are constants in the affine maps, after a
 * reshape that gives the gates their own dim ([dirs, G*H, ...] -> [dirs, G,
 * H, ...]: linalg takes a plain d1 for the whole extent, so an offset
 * d1 + g*H could not address gate 0).
 * GRU without linear_before_reset needs (r . h) R_h^T, a third contraction
 * whose body recomputes r. Reference: ops_rnn.c. */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinTypes.h"
#include "nn_internal.h"
#include "nn_rnn.h"
#include "lower_internal.h"

typedef struct {
  const NnRnn *r;
  MlirType et;
  int d;
  int64_t t;     /* the step; its row of x W^T with static extents */
  MlirValue tv;  /* looped: the step as an index value (x W^T is that step's slice, row 0) */
  /* Positions of the generic's inputs (-1: absent); gate g at base + g. */
  int xw, hr, wb, rb, h, c, p, rh, lens;
  MlirValue site;   /* non-null: check sequence_lens here (the first step) */
  int lensOperand;
} Step;

static MlirValue k(StrataBuilder *b, MlirLocation loc, MlirType t, double v) { return emitConst(b, loc, t, v); }
#define BIN(name, x, y) emitBinary(b, loc, name, x, y)

static MlirValue activate(StrataBuilder *b, MlirLocation loc, const NnActivation *a, MlirValue x) {
  MlirType t = mlirValueGetType(x);
  switch (a->kind) {
  case NN_ACT_RELU: return BIN("arith.maximumf", x, k(b, loc, t, 0));
  case NN_ACT_TANH: return emitUnary(b, loc, "math.tanh", x);
  case NN_ACT_SIGMOID:
    return BIN("arith.divf", k(b, loc, t, 1),
               BIN("arith.addf", k(b, loc, t, 1), emitUnary(b, loc, "math.exp", emitUnary(b, loc, "arith.negf", x))));
  case NN_ACT_AFFINE: return BIN("arith.addf", BIN("arith.mulf", k(b, loc, t, a->alpha), x), k(b, loc, t, a->beta));
  case NN_ACT_LEAKY_RELU:
    return emitSelect(b, loc, emitCmpF(b, loc, CMPF_OGE, x, k(b, loc, t, 0)), x, BIN("arith.mulf", k(b, loc, t, a->alpha), x));
  case NN_ACT_THRESHOLDED_RELU:
    return emitSelect(b, loc, emitCmpF(b, loc, CMPF_OGT, x, k(b, loc, t, a->alpha)), x, k(b, loc, t, 0));
  case NN_ACT_SCALED_TANH:
    return BIN("arith.mulf", k(b, loc, t, a->alpha), emitUnary(b, loc, "math.tanh", BIN("arith.mulf", k(b, loc, t, a->beta), x)));
  case NN_ACT_HARD_SIGMOID: {
    MlirValue v = BIN("arith.addf", BIN("arith.mulf", k(b, loc, t, a->alpha), x), k(b, loc, t, a->beta));
    return BIN("arith.minimumf", BIN("arith.maximumf", v, k(b, loc, t, 0)), k(b, loc, t, 1));
  }
  case NN_ACT_ELU:
    return emitSelect(b, loc, emitCmpF(b, loc, CMPF_OGE, x, k(b, loc, t, 0)), x,
                      BIN("arith.mulf", k(b, loc, t, a->alpha), emitUnary(b, loc, "math.expm1", x)));
  case NN_ACT_SOFTSIGN:
    return BIN("arith.divf", x, BIN("arith.addf", k(b, loc, t, 1), emitUnary(b, loc, "math.absf", x)));
  case NN_ACT_SOFTPLUS: { /* max(x, 0) + log1p(exp(-|x|)): no overflow */
    MlirValue e = emitUnary(b, loc, "math.exp", emitUnary(b, loc, "arith.negf", emitUnary(b, loc, "math.absf", x)));
    return BIN("arith.addf", BIN("arith.maximumf", x, k(b, loc, t, 0)), emitUnary(b, loc, "math.log1p", e));
  }
  }
  return x;
}

static MlirValue clip(StrataBuilder *b, MlirLocation loc, const NnRnn *r, MlirValue x) {
  if (!r->hasClip) return x;
  MlirType t = mlirValueGetType(x);
  return BIN("arith.minimumf", BIN("arith.maximumf", x, k(b, loc, t, -r->clip)), k(b, loc, t, r->clip));
}

/* x W_g^T + Wb_g, plus h R_g^T + Rb_g when withR. */
static MlirValue pre(StrataBuilder *b, MlirLocation loc, const Step *s, const MlirValue *a, int g, bool withR) {
  MlirValue v = a[s->xw + g];
  if (s->wb >= 0) v = BIN("arith.addf", v, a[s->wb + g]);
  if (withR) v = BIN("arith.addf", v, a[s->hr + g]);
  if (withR && s->rb >= 0) v = BIN("arith.addf", v, a[s->rb + g]);
  return v;
}

static MlirValue peep(StrataBuilder *b, MlirLocation loc, const Step *s, const MlirValue *a, int k, MlirValue v,
                      MlirValue c) {
  return s->p >= 0 ? BIN("arith.addf", v, BIN("arith.mulf", a[s->p + k], c)) : v;
}

/* The cell: yields the new h (and c), and y_t when sequence_lens masks. */
static void cellBody(StrataBuilder *b, MlirLocation loc, const MlirValue *a, MlirValue *y, void *u) {
  const Step *s = u;
  const NnRnn *r = s->r;
  const NnActivation *f = &r->act[s->d][0], *g = &r->act[s->d][r->numActs > 1 ? 1 : 0], *hAct = &r->act[s->d][2];
  MlirValue one = k(b, loc, s->et, 1), hPrev = a[s->h], cPrev = s->c >= 0 ? a[s->c] : hPrev, h, c = cPrev;
  if (r->cell == NN_CELL_RNN) {
    h = activate(b, loc, f, clip(b, loc, r, pre(b, loc, s, a, 0, true)));
  } else if (r->cell == NN_CELL_GRU) {
    MlirValue z = activate(b, loc, f, clip(b, loc, r, pre(b, loc, s, a, 0, true)));
    MlirValue hv = pre(b, loc, s, a, 2, false);
    if (r->linearBeforeReset) {
      MlirValue rs = activate(b, loc, f, clip(b, loc, r, pre(b, loc, s, a, 1, true)));
      MlirValue lin = s->rb >= 0 ? BIN("arith.addf", a[s->hr + 2], a[s->rb + 2]) : a[s->hr + 2];
      hv = BIN("arith.addf", hv, BIN("arith.mulf", rs, lin));
    } else {
      hv = BIN("arith.addf", hv, a[s->rh]);
      if (s->rb >= 0) hv = BIN("arith.addf", hv, a[s->rb + 2]);
    }
    MlirValue hh = activate(b, loc, g, clip(b, loc, r, hv));
    h = BIN("arith.addf", BIN("arith.mulf", BIN("arith.subf", one, z), hh), BIN("arith.mulf", z, hPrev));
  } else {
    MlirValue i = activate(b, loc, f, clip(b, loc, r, peep(b, loc, s, a, 0, pre(b, loc, s, a, 0, true), cPrev)));
    MlirValue fg = r->inputForget ? BIN("arith.subf", one, i)
                                  : activate(b, loc, f, clip(b, loc, r, peep(b, loc, s, a, 2, pre(b, loc, s, a, 2, true), cPrev)));
    MlirValue cand = activate(b, loc, g, clip(b, loc, r, pre(b, loc, s, a, 3, true)));
    c = BIN("arith.addf", BIN("arith.mulf", fg, cPrev), BIN("arith.mulf", i, cand));
    MlirValue o = activate(b, loc, f, clip(b, loc, r, peep(b, loc, s, a, 1, pre(b, loc, s, a, 1, true), c)));
    h = BIN("arith.mulf", o, activate(b, loc, hAct, c));
  }
  int n = 0;
  if (s->lens < 0) {
    y[n++] = h;
    if (s->c >= 0) y[n++] = c;
    return;
  }
  MlirValue len = a[s->lens];
  if (s->site.ptr) { /* ONNX asks 0 <= sequence_lens <= seq; others are errors, as in the interpreter */
    MlirValue at = emitConvert(b, loc, "arith.index_cast", len, strataIndexType(b->ctx));
    MlirValue seq = lowerIndexConst(b, loc, r->seq);
    lowerShapeCheckAt(b, loc, s->site, emitCmpI(b, loc, CMPI_UGT, at, seq), 14, s->lensOperand, 0, at, seq);
  }
  MlirType lenType = mlirValueGetType(len);
  MlirValue t = s->tv.ptr ? emitConvert(b, loc, "arith.index_cast", s->tv, lenType) : k(b, loc, lenType, (double)s->t);
  MlirValue valid = emitCmpI(b, loc, CMPI_SLT, t, len);
  y[n++] = emitSelect(b, loc, valid, h, hPrev);
  if (s->c >= 0) y[n++] = emitSelect(b, loc, valid, c, cPrev);
  y[n++] = emitSelect(b, loc, valid, h, k(b, loc, s->et, 0));
}

/* acc += f(clip(r pre-activation)) * h_k * R_h[j, k] (GRU, reset before R). */
static MlirValue resetBody(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const Step *s = u;
  MlirValue v = BIN("arith.addf", a[0], a[1]);
  int n = 4;
  if (s->wb >= 0) v = BIN("arith.addf", BIN("arith.addf", v, a[n]), a[n + 1]), n += 2;
  MlirValue rs = activate(b, loc, &s->r->act[s->d][0], clip(b, loc, s->r, v));
  return BIN("arith.addf", a[n], BIN("arith.mulf", BIN("arith.mulf", rs, a[2]), a[3]));
}

typedef struct {
  StrataBuilder *b;
  MlirLocation loc;
  MlirOperation op;
  const NnRnn *r;
  MlirType et;
  MlirValue x, w, rr, bias, lens, initH, initC, p;
  MlirValue site; /* where sequence_lens errors are reported from */
  bool looped;    /* the steps are an scf.for (else unrolled: unroll-rnn, static extents) */
  MlirValue T, N; /* when looped: the run-time sequence length and batch */
} Lowering;

/* Zeros of dims [rank] whose leading dims are [T, N] (seq) or [N] (not):
 * a splat constant at static extents, else filled at the run-time ones. */
static MlirValue zeros(Lowering *L, int rank, const int64_t *dims) {
  MlirType t = strataTensorType(L->et, rank, dims);
  if (!L->looped || mlirShapedTypeHasStaticShape(t)) return linalgSplatConstant(L->b, L->loc, t, 0.0);
  MlirValue vals[4] = {L->T, L->N, L->N, L->N};
  return lowerInitDims(L->b, L->loc, t, rank == 4 ? vals : vals + 1, 0.0);
}

/* Direction d's slice [batch, hidden] of an initial state, or zeros. */
static MlirValue initialState(Lowering *L, MlirValue init, int d) {
  int64_t dims[2] = {L->r->batch, L->r->hidden};
  MlirValue z = zeros(L, 2, dims);
  if (mlirValueIsNull(init)) return z;
  char in[64];
  snprintf(in, sizeof in, L->r->layout ? "(d0, %d, d1)" : "(%d, d0, d1)", d);
  const char *maps[] = {in, "(d0, d1)"};
  return linalgBuildGeneric(L->b, L->loc, STRATA_VALUES(init), z, maps, "pp", bodyYieldInput, NULL);
}

/* v [batch, hidden] into dest at direction d (and step t >= 0, or tv). */
static MlirValue insertState(Lowering *L, MlirValue v, MlirValue dest, int d, int64_t t, MlirValue tv) {
  const NnRnn *r = L->r;
  if (L->looped) { /* y [T, D, N, H] at (t, d) or [N, T, D, H] at (t, d); states [D, N, H] or [N, D, H] at d */
    bool step = tv.ptr, unit[4] = {false, false, false, false};
    int at = (r->layout ? 1 : 0);
    MlirValue offs[4] = {{NULL}}, dv = lowerIndexConst(L->b, L->loc, d);
    if (step) unit[at] = true, offs[at++] = tv;
    unit[at] = true, offs[at] = dv;
    return lowerInsertSliceUnits(L->b, L->loc, v, dest, unit, offs);
  }
  int64_t N = r->batch, H = r->hidden;
  int64_t y0[4] = {1, 1, N, H}, y1[4] = {N, 1, 1, H}, s0[3] = {1, N, H}, s1[3] = {N, 1, H};
  int64_t oy0[4] = {t, d, 0, 0}, oy1[4] = {0, t, d, 0}, os0[3] = {d, 0, 0}, os1[3] = {0, d, 0};
  bool step = t >= 0;
  MlirType type = strataTensorType(L->et, step ? 4 : 3, step ? (r->layout ? y1 : y0) : (r->layout ? s1 : s0));
  const int64_t *off = step ? (r->layout ? oy1 : oy0) : (r->layout ? os1 : os0);
  return linalgInsertSlice(L->b, L->loc, linalgReshape(L->b, L->loc, v, type), dest, off);
}

/* One step of direction d: h (and c) advanced, y_t inserted into *y. xw
 * holds x W^T: every step's rows (tv null: step t's at row t) or step tv's
 * alone (row 0). */
static void step(Lowering *L, int d, int64_t t, MlirValue tv, MlirValue xw, bool first, MlirValue *h, MlirValue *c,
                 MlirValue *y) {
  StrataBuilder *b = L->b;
  MlirLocation loc = L->loc;
  const NnRnn *r = L->r;
  int64_t N = r->batch, H = r->hidden, G = r->gates, row = tv.ptr ? 0 : t;
  int64_t hrDims[3] = {N, G, H}, stDims[2] = {N, H};
  bool lstm = r->cell == NN_CELL_LSTM, resetFirst = r->cell == NN_CELL_GRU && !r->linearBeforeReset;
  char rMap[64];
  snprintf(rMap, sizeof rMap, "(%d, d1, d2, d3)", d); /* loops (n, g, j, k) */
  const char *hrMaps[] = {"(d0, d3)", rMap, "(d0, d1, d2)"};
  MlirValue hr = linalgBuildGeneric(b, loc, STRATA_VALUES(*h, L->rr), zeros(L, 3, hrDims), hrMaps, "pppr", bodyMulAcc, NULL);
  Step s = {r, L->et, d, t, tv, -1, -1, -1, -1, -1, -1, -1, -1, -1, first ? L->site : (MlirValue){NULL}, r->seqLens};
  char maps[32][64];
  const char *mapPtrs[32];
  MlirValue ins[32];
  int n = 0;
#define IN(v, ...) (snprintf(maps[n], sizeof maps[n], __VA_ARGS__), mapPtrs[n] = maps[n], ins[n] = (v), n++)
  MlirValue rh = {NULL};
  if (resetFirst) { /* (r . h) R_h^T over (n, j, k) */
    IN(xw, "(%lld, d0, 1, d2)", (long long)row);
    IN(hr, "(d0, 1, d2)");
    IN(*h, "(d0, d2)");
    IN(L->rr, "(%d, 2, d1, d2)", d);
    if (!mlirValueIsNull(L->bias)) {
      s.wb = 0; /* resetBody only asks whether biases are there */
      IN(L->bias, "(%d, 1, d2)", d);
      IN(L->bias, "(%d, %lld, d2)", d, (long long)(G + 1));
    }
    IN(zeros(L, 2, stDims), "(d0, d1)");
    rh = linalgBuildGeneric(b, loc, (StrataValueList){ins, n - 1}, ins[n - 1], mapPtrs, "ppr", resetBody, &s);
    n = 0;
    s.wb = -1;
  }
  /* Loops (n, j) over [batch, hidden]. */
  s.h = n;
  IN(*h, "(d0, d1)");
  s.xw = n;
  for (int g = 0; g < G; g++) IN(xw, "(%lld, d0, %d, d1)", (long long)row, g);
  s.hr = n;
  for (int g = 0; g < G; g++) IN(hr, "(d0, %d, d1)", g);
  if (!mlirValueIsNull(L->bias)) {
    s.wb = n;
    for (int g = 0; g < G; g++) IN(L->bias, "(%d, %d, d1)", d, g);
    s.rb = n;
    for (int g = 0; g < G; g++) IN(L->bias, "(%d, %lld, d1)", d, (long long)(G + g));
  }
  if (lstm) s.c = n, IN(*c, "(d0, d1)");
  if (lstm && !mlirValueIsNull(L->p)) {
    s.p = n;
    for (int g = 0; g < 3; g++) IN(L->p, "(%d, %d, d1)", d, g);
  }
  if (resetFirst) s.rh = n, IN(rh, "(d0, d1)");
  if (!mlirValueIsNull(L->lens)) s.lens = n, IN(L->lens, "(d0)");
  int numIns = n, numOuts = 1 + lstm + !mlirValueIsNull(L->lens);
  MlirValue inits[3], outs[3];
  /* The loop's states advance in place (elementwise: each element is read before it is written). */
  for (int o = 0; o < numOuts; o++) {
    inits[o] = L->looped && o == 0 ? *h : L->looped && lstm && o == 1 ? *c : zeros(L, 2, stDims);
    mapPtrs[n++] = "(d0, d1)";
  }
#undef IN
  linalgBuildGenericN(b, loc, (StrataValueList){ins, numIns}, (StrataValueList){inits, numOuts}, mapPtrs, "pp",
                      cellBody, &s, outs);
  *h = outs[0];
  if (lstm) *c = outs[1];
  *y = insertState(L, outs[numOuts - 1 - (mlirValueIsNull(L->lens) ? lstm : 0)], *y, d, t, tv);
}

static void direction(Lowering *L, int d, MlirValue *y, MlirValue *yh, MlirValue *yc) {
  StrataBuilder *b = L->b;
  MlirLocation loc = L->loc;
  const NnRnn *r = L->r;
  int64_t T = r->seq, N = r->batch, H = r->hidden, G = r->gates;
  /* x W^T for every step: [seq, batch, G, H], loops (t, n, g, j, i). */
  int64_t xwDims[4] = {T, N, G, H};
  char wMap[64];
  snprintf(wMap, sizeof wMap, "(%d, d2, d3, d4)", d);
  const char *xwMaps[] = {r->layout ? "(d1, d0, d4)" : "(d0, d1, d4)", wMap, "(d0, d1, d2, d3)"};
  MlirValue xw = linalgBuildGeneric(b, loc, STRATA_VALUES(L->x, L->w), zeros(L, 4, xwDims), xwMaps, "ppppr", bodyMulAcc, NULL);
  MlirValue h = initialState(L, L->initH, d), c = initialState(L, L->initC, d);
  bool lstm = r->cell == NN_CELL_LSTM;
  if (!L->looped) {
    for (int64_t i = 0; i < T; i++)
      step(L, d, nnRnnBackward(r, d) ? T - 1 - i : i, (MlirValue){NULL}, xw, d == 0 && i == 0, &h, &c, y);
  } else { /* scf.for i < T carrying h, (c,) y */
    MlirValue carried[3] = {h, *y, c};
    LowerLoop l;
    lowerForBegin(b, &l, loc, lowerIndexConst(b, loc, 0), L->T, carried, 2 + lstm);
    MlirValue i = lowerLoopIv(&l), t = i;
    if (nnRnnBackward(r, d))
      t = emitBinary(b, loc, "arith.subi", emitBinary(b, loc, "arith.subi", L->T, lowerIndexConst(b, loc, 1)), i);
    h = lowerLoopArg(&l, 0);
    MlirValue yi = lowerLoopArg(&l, 1);
    if (lstm) c = lowerLoopArg(&l, 2);
    step(L, d, 0, t, lowerSliceAt(b, loc, xw, 0, t), false, &h, &c, &yi);
    MlirValue yields[3] = {h, yi, c};
    lowerForEnd(b, &l, loc, yields, 2 + lstm);
    h = strataResult(l.op, 0);
    *y = strataResult(l.op, 1);
    if (lstm) c = strataResult(l.op, 2);
  }
  *yh = insertState(L, h, *yh, d, -1, (MlirValue){NULL});
  if (lstm) *yc = insertState(L, c, *yc, d, -1, (MlirValue){NULL});
}

/* Looped: every sequence_lens element in [0, T], checked once before the
 * steps (unrolled, the first step's generic checks). */
static void checkLens(Lowering *L) {
  StrataBuilder *b = L->b;
  MlirLocation loc = L->loc;
  LowerLoop l;
  lowerForBegin(b, &l, loc, lowerIndexConst(b, loc, 0), L->N, NULL, 0);
  MlirValue n = lowerLoopIv(&l);
  MlirValue len = emitConvert(b, loc, "arith.index_cast", linalgExtract(b, loc, L->lens, &n, 1), strataIndexType(b->ctx));
  lowerShapeCheckAt(b, loc, L->site, emitCmpI(b, loc, CMPI_UGT, len, L->T), 14, L->r->seqLens, 0, len, L->T);
  lowerForEnd(b, &l, loc, NULL, 0);
}

/* The operands' dims checked against x's and the hidden size (operand i's
 * dim d must be want; nothing to check where both are static: the
 * verifier's). */
static bool expectExtent(StrataBuilder *b, MlirOperation op, MlirValue *site, int i, int d, MlirValue want,
                         bool wantStatic) {
  MlirValue v = mlirOperationGetOperand(op, i);
  if (lowerDim(v, d) >= 0 && wantStatic) return true;
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue got = lowerDimValue(b, loc, v, d);
  return lowerCheck(b, op, site, emitCmpI(b, loc, CMPI_NE, got, want), 0, i, d, got, want);
}

bool lowerRnnDims(StrataBuilder *b, MlirOperation op, intptr_t i, MlirValue *site, MlirValue *out) {
  NnRnn r;
  if (!nnRnnOf(op, &r)) return false;
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue x = mlirOperationGetOperand(op, 0);
  int seqDim = r.layout ? 1 : 0, batchDim = r.layout ? 0 : 1;
  MlirValue T = lowerDimValue(b, loc, x, seqDim), N = lowerDimValue(b, loc, x, batchDim), I = lowerDimValue(b, loc, x, 2);
  MlirValue D = lowerIndexConst(b, loc, r.dirs), H = lowerIndexConst(b, loc, r.hidden);
  MlirValue GH = lowerIndexConst(b, loc, r.gates * r.hidden);
  if (i == 0) {
    MlirValue y0[4] = {T, D, N, H}, y1[4] = {N, T, D, H};
    memcpy(out, r.layout ? y1 : y0, sizeof y0);
  } else {
    MlirValue s0[3] = {D, N, H}, s1[3] = {N, D, H};
    memcpy(out, r.layout ? s1 : s0, sizeof s0);
  }
  if (i != 0) return true; /* the operands are checked once, with y */
  bool staticN = lowerDim(x, batchDim) >= 0, staticI = lowerDim(x, 2) >= 0;
  bool ok = expectExtent(b, op, site, 1, 0, D, true) && expectExtent(b, op, site, 1, 1, GH, true) &&
            expectExtent(b, op, site, 1, 2, I, staticI) && expectExtent(b, op, site, 2, 0, D, true) &&
            expectExtent(b, op, site, 2, 1, GH, true) && expectExtent(b, op, site, 2, 2, H, true);
  if (ok && r.b >= 0)
    ok = expectExtent(b, op, site, r.b, 0, D, true) &&
         expectExtent(b, op, site, r.b, 1, lowerIndexConst(b, loc, 2 * r.gates * r.hidden), true);
  if (ok && r.seqLens >= 0) ok = expectExtent(b, op, site, r.seqLens, 0, N, staticN);
  int states[2] = {r.initH, r.initC};
  for (int k = 0; k < 2 && ok; k++)
    if (states[k] >= 0)
      ok = expectExtent(b, op, site, states[k], r.layout ? 1 : 0, D, true) &&
           expectExtent(b, op, site, states[k], r.layout ? 0 : 1, N, staticN) &&
           expectExtent(b, op, site, states[k], 2, H, true);
  if (ok && r.p >= 0)
    ok = expectExtent(b, op, site, r.p, 0, D, true) &&
         expectExtent(b, op, site, r.p, 1, lowerIndexConst(b, loc, 3 * r.hidden), true);
  return ok;
}

/* v [D, G*H, ...] as [D, G, H, ...] (the gates their own dim). */
static MlirValue gated(Lowering *L, MlirValue v, int rank, const int64_t *dims) {
  MlirType t = strataTensorType(L->et, rank, dims);
  MlirValue vals[4];
  for (int d = 0; d < rank; d++)
    vals[d] = dims[d] >= 0 ? lowerIndexConst(L->b, L->loc, dims[d]) : lowerDimValue(L->b, L->loc, L->x, 2);
  return lowerReshapeTo(L->b, L->loc, v, t, vals);
}

static MlirLogicalResult lowerRnn(StrataRewrite *rw, MlirOperation op, void *u) {
  const bool *unroll = u;
  NnRnn r;
  if (!nnRnnOf(op, &r)) return mlirLogicalResultFailure();
  /* Unrolled only when asked (unroll-rnn): the code grows with the
   * sequence, so longer ones and dynamic extents loop. */
  enum { MAX_UNROLLED_STEPS = 4096 };
  MlirValue none = {NULL};
  Lowering L = {&rw->builder, mlirOperationGetLocation(op), op, &r,
                mlirShapedTypeGetElementType(lowerResultType(op, 0)), lowerOperand(op, 0), lowerOperand(op, 1),
                lowerOperand(op, 2), r.b >= 0 ? lowerOperand(op, r.b) : none,
                r.seqLens >= 0 ? lowerOperand(op, r.seqLens) : none, r.initH >= 0 ? lowerOperand(op, r.initH) : none,
                r.initC >= 0 ? lowerOperand(op, r.initC) : none, r.p >= 0 ? lowerOperand(op, r.p) : none, none,
                !*unroll || lowerHasDynamicDims(op) || r.seq * r.dirs > MAX_UNROLLED_STEPS, none, none};
  int numResults = (int)mlirOperationGetNumResults(op);
  MlirValue res[3], dims[3][4];
  for (int i = 0; i < numResults; i++) {
    if (L.looped && !lowerRnnDims(L.b, op, i, &L.site, dims[i])) return mlirLogicalResultFailure();
    res[i] = lowerInitDims(L.b, L.loc, lowerResultType(op, i), dims[i], 0.0);
  }
  if (L.looped) L.T = dims[0][r.layout ? 1 : 0], L.N = dims[0][r.layout ? 0 : 2];
  /* The gates get their own dim: w [D, G, H, I], r [D, G, H, H], b [D, 2G, H], p [D, 3, H]. */
  int64_t D = r.dirs, G = r.gates, H = r.hidden, wDims[4] = {D, G, H, r.input}, rDims[4] = {D, G, H, H},
          bDims[3] = {D, 2 * G, H}, pDims[3] = {D, 3, H};
  L.w = gated(&L, L.w, 4, wDims);
  L.rr = gated(&L, L.rr, 4, rDims);
  if (!mlirValueIsNull(L.bias)) L.bias = gated(&L, L.bias, 3, bDims);
  if (!mlirValueIsNull(L.p)) L.p = gated(&L, L.p, 3, pDims);
  if (r.seqLens >= 0 && !L.site.ptr && !lowerRuntimeSite(L.b, op, SHAPE_ERROR_FN, &L.site))
    return mlirLogicalResultFailure();
  if (L.looped && r.seqLens >= 0) checkLens(&L);
  for (int d = 0; d < r.dirs; d++) direction(&L, d, &res[0], &res[1], numResults > 2 ? &res[2] : &res[1]);
  strataReplaceOp(rw, op, (StrataValueList){res, numResults});
  return mlirLogicalResultSuccess();
}

void nnToLinalgRnn(LowerRegistry *r) {
  lowerRegister(r, "nn.rnn", lowerRnn, &r->unrollRnn);
  lowerRegister(r, "nn.gru", lowerRnn, &r->unrollRnn);
  lowerRegister(r, "nn.lstm", lowerRnn, &r->unrollRnn);
}
