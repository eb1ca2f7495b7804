/* RDP transfer functions, by the op's dynamism class (its op-table column):
 *   ISDO   -- Shape, Size, Constant: the result's *value* comes from shapes
 *             (nn.shape's value is its input's dims: how Shape -> Gather ->
 *             Concat -> Reshape chains become symbolic);
 *   ISDOS  -- the result shape from the operand shapes (broadcasting,
 *             windows, matmul, reductions, layout ops);
 *   ISVDOS -- from shapes and the values of shape operands, read from the
 *             value map (constants or symbolic values);
 *   EDO    -- nac (known only after running).
 * Static dims of a result type are facts and stay; a rule fills `?` dims.
 * An op without a rule here gets nac for its `?` dims: never a guess.
 * Small integer values flow through arithmetic, casts, Gather, Concat,
 * Slice and the layout ops that keep element order. */
#include <math.h>
#include <string.h>
#include "nn_internal.h"
#include "rdp_internal.h"
#include "strata/support.h"

/* ---- Reading operand facts ------------------------------------------------ */

static int rankOf(const RdpTransfer *t, intptr_t i) {
  const RdpFact *f = i < t->numIn ? t->in[i] : NULL;
  return f ? f->rank : RDP_RANK_NAC;
}

static RdpDim dimOf(const RdpTransfer *t, intptr_t i, int d) {
  int r = rankOf(t, i);
  if (r == RDP_RANK_UNDEF) return rdpUndef();
  if (r < 0 || d < 0 || d >= r) return rdpNac();
  return t->in[i]->dims[d];
}

static int valueLen(const RdpTransfer *t, intptr_t i) {
  const RdpFact *f = i >= 0 && i < t->numIn ? t->in[i] : NULL;
  return f ? f->valueLen : -1;
}

static RdpDim valueOf(const RdpTransfer *t, intptr_t i, int k) {
  if (k < 0 || k >= valueLen(t, i)) return rdpNac();
  return t->in[i]->vals[k];
}

static intptr_t operandIndex(const RdpTransfer *t, const char *name) {
  intptr_t start, size;
  StrataValueSpec specs[8];
  int n = strataParseValueSpec(t->def->operands, specs, 8);
  for (int g = 0; g < n; g++)
    if (!strcmp(specs[g].name, name))
      return strataOperandGroup(t->def, t->op, g, &start, &size) && size == 1 ? start : -1;
  return -1;
}

/* Product of dims [from, to) of operand i. */
static RdpDim productOf(const RdpTransfer *t, intptr_t i, int from, int to) {
  RdpDim p = rdpConst(1);
  for (int d = from; d < to; d++) {
    RdpDim x = dimOf(t, i, d);
    p = rdpMul(&p, &x);
  }
  return p;
}

/* ---- Writing result facts ------------------------------------------------- */

/* Sets dim d of result j unless its type already fixes it. */
static void setDim(RdpTransfer *t, intptr_t j, int d, RdpDim v) {
  RdpFact *f = &t->out[j];
  if (f->rank < 0 || d >= f->rank || f->dims[d].level == RDP_KNOWN) return;
  f->dims[d] = v;
}

/* An unranked result takes the rank the rule computed (undef stays). */
static int outRank(RdpTransfer *t, intptr_t j, int rank) {
  RdpFact *f = &t->out[j];
  if (f->rank == RDP_RANK_UNDEF && rank >= 0) rdpFactSetRank(f, rank, rdpUndef());
  return f->rank;
}

static void setAllNac(RdpTransfer *t) {
  for (intptr_t j = 0; j < t->numOut; j++) {
    if (t->out[j].rank == RDP_RANK_UNDEF) t->out[j].rank = RDP_RANK_NAC;
    for (int d = 0; d < t->out[j].rank; d++) setDim(t, j, d, rdpNac());
    for (int k = 0; k < t->out[j].valueLen; k++) t->out[j].vals[k] = rdpNac();
  }
}

/* What no rule decided once the inputs are decided: nac. */
static void setAllNacUndef(RdpTransfer *t) {
  for (intptr_t j = 0; j < t->numOut; j++) {
    RdpFact *f = &t->out[j];
    if (f->rank == RDP_RANK_UNDEF) f->rank = RDP_RANK_NAC;
    for (int d = 0; d < f->rank; d++)
      if (f->dims[d].level == RDP_UNDEF) f->dims[d] = rdpNac();
    for (int k = 0; k < f->valueLen; k++)
      if (f->vals[k].level == RDP_UNDEF) f->vals[k] = rdpNac();
  }
}

static void copyShape(RdpTransfer *t, intptr_t j, intptr_t i) {
  int r = outRank(t, j, rankOf(t, i));
  for (int d = 0; d < r; d++) setDim(t, j, d, dimOf(t, i, d));
}

static void copyValue(RdpTransfer *t, intptr_t j, intptr_t i) {
  if (t->out[j].valueLen >= 0 && valueLen(t, i) == t->out[j].valueLen)
    for (int k = 0; k < t->out[j].valueLen; k++) t->out[j].vals[k] = valueOf(t, i, k);
}

/* ---- Broadcasting ---------------------------------------------------------- */

/* One output dim of a multidirectional broadcast of dims xs[0..n). A known
 * constant c != 1 decides it (every other dim is 1 or c at run time); else
 * undef waits, nac stays nac, and the non-1 dims must all be equal. */
static RdpDim broadcastDim(const RdpDim *xs, int n) {
  bool undef = false, nac = false;
  const RdpDim *sym = NULL;
  int64_t c;
  for (int i = 0; i < n; i++) {
    if (xs[i].level == RDP_UNDEF) undef = true;
    else if (xs[i].level == RDP_NAC) nac = true;
    else if (rdpGetConst(&xs[i], &c)) {
      if (c != 1) return xs[i];
    } else if (!sym) sym = &xs[i];
    else if (!rdpEqual(sym, &xs[i])) nac = true;
  }
  if (undef) return rdpUndef();
  if (nac) return rdpNac();
  return sym ? *sym : rdpConst(1);
}

static void broadcastOperands(RdpTransfer *t, const intptr_t *ops, int n, intptr_t j) {
  int r = t->out[j].rank;
  for (int k = 0; k < n && r == RDP_RANK_UNDEF; k++)
    if (rankOf(t, ops[k]) < 0) return;
  if (r == RDP_RANK_UNDEF) {
    r = 0;
    for (int k = 0; k < n; k++) r = rankOf(t, ops[k]) > r ? rankOf(t, ops[k]) : r;
    r = outRank(t, j, r);
  }
  for (int d = 0; d < r; d++) {
    RdpDim xs[8];
    int m = 0;
    for (int k = 0; k < n && m < 8; k++) {
      int rk = rankOf(t, ops[k]);
      if (rk == RDP_RANK_UNDEF) xs[m++] = rdpUndef();
      else if (rk < 0) xs[m++] = rdpNac();
      else if (d >= r - rk) xs[m++] = dimOf(t, ops[k], d - (r - rk));
    }
    setDim(t, j, d, broadcastDim(xs, m));
  }
}

/* Integer arithmetic on small values (shape computations). */
static void elementwiseValue(RdpTransfer *t) {
  RdpFact *o = &t->out[0];
  const char *name = t->def->name;
  if (o->valueLen < 0) return;
  if (strataOpIsNamed(t->op, "nn.cast") || strataOpIsNamed(t->op, "nn.identity")) {
    copyValue(t, 0, 0);
    return;
  }
  bool add = !strcmp(name, "nn.add"), sub = !strcmp(name, "nn.sub"), mul = !strcmp(name, "nn.mul"),
       div = !strcmp(name, "nn.div");
  if (!(add || sub || mul || div) || t->numIn != 2) return;
  int la = valueLen(t, 0), lb = valueLen(t, 1);
  if (la < 1 || lb < 1) return;
  for (int k = 0; k < o->valueLen; k++) {
    RdpDim a = valueOf(t, 0, la == 1 ? 0 : k), b = valueOf(t, 1, lb == 1 ? 0 : k);
    o->vals[k] = add ? rdpAdd(&a, &b) : sub ? rdpSub(&a, &b) : mul ? rdpMul(&a, &b) : rdpDivExact(&a, &b);
  }
}

/* ---- Op rules -------------------------------------------------------------- */

static bool attrInt(RdpTransfer *t, const char *name, int64_t dflt, int64_t *out) {
  return nnAttrInt(t->op, name, dflt, out);
}

/* Conv and pooling: [N, C|M, spatial...]. A spatial size is
 * (d + pads - dilation*(k-1) - 1) / stride + 1, exact only when the stride
 * divides the numerator as a polynomial; SAME padding keeps d at stride 1. */
static bool windowRule(RdpTransfer *t, bool conv) {
  int r = outRank(t, 0, rankOf(t, 0));
  if (r < 3) return true;
  int spatial = r - 2;
  int64_t kernel[NN_MAX_SPATIAL];
  NnWindow w;
  if (conv) {
    int wr = rankOf(t, 1);
    for (int i = 0; i < spatial; i++) {
      RdpDim k = dimOf(t, 1, i + 2);
      if (wr != r || !rdpGetConst(&k, &kernel[i])) kernel[i] = -1;
    }
  }
  if (spatial > NN_MAX_SPATIAL || !nn_get_window(t->op, spatial, conv ? kernel : NULL, &w)) return spatial > NN_MAX_SPATIAL;
  setDim(t, 0, 0, dimOf(t, 0, 0));
  setDim(t, 0, 1, conv ? dimOf(t, 1, 0) : dimOf(t, 0, 1));
  for (int i = 0; i < spatial; i++) {
    RdpDim d = dimOf(t, 0, i + 2), out = rdpNac();
    bool same = !strncmp(w.autoPad, "SAME", 4);
    if (same && w.strides[i] == 1) out = d;
    else if (!same && w.kernel[i] > 0) {
      RdpDim extra = rdpConst(w.pads[i] + w.pads[i + spatial] - w.dilations[i] * (w.kernel[i] - 1) - 1);
      RdpDim num = rdpAdd(&d, &extra);
      if (w.ceilMode && w.strides[i] > 1) { /* ceil: only an exact division is kept */
        RdpDim s = rdpConst(w.strides[i]), one = rdpConst(1), q = rdpDivExact(&num, &s);
        out = rdpAdd(&q, &one);
      } else {
        out = rdpWindowSize(t->rdp, &num, w.strides[i]);
      }
    }
    if (d.level == RDP_UNDEF) out = d;
    setDim(t, 0, i + 2, out);
  }
  return true;
}

static void matmulRule(RdpTransfer *t) {
  int ra = rankOf(t, 0), rb = rankOf(t, 1);
  if (ra < 1 || rb < 1) return;
  int batchA = ra >= 2 ? ra - 2 : 0, batchB = rb >= 2 ? rb - 2 : 0;
  int batch = batchA > batchB ? batchA : batchB;
  int r = outRank(t, 0, batch + (ra >= 2) + (rb >= 2));
  if (r != batch + (ra >= 2) + (rb >= 2)) return;
  for (int d = 0; d < batch; d++) {
    RdpDim xs[2];
    int m = 0;
    if (d >= batch - batchA) xs[m++] = dimOf(t, 0, d - (batch - batchA));
    if (d >= batch - batchB) xs[m++] = dimOf(t, 1, d - (batch - batchB));
    setDim(t, 0, d, broadcastDim(xs, m));
  }
  if (ra >= 2) setDim(t, 0, batch, dimOf(t, 0, ra - 2));
  if (rb >= 2) setDim(t, 0, r - 1, dimOf(t, 1, rb - 1));
}

static void gemmRule(RdpTransfer *t) {
  int64_t ta, tb;
  if (!attrInt(t, "transA", 0, &ta) || !attrInt(t, "transB", 0, &tb)) return;
  setDim(t, 0, 0, dimOf(t, 0, ta ? 1 : 0));
  setDim(t, 0, 1, dimOf(t, 1, tb ? 0 : 1));
}

static void reduceRule(RdpTransfer *t, bool arg) {
  int r = rankOf(t, 0);
  if (r < 0) return;
  bool mask[STRATA_MAX_RANK] = {false}, identity = false;
  int64_t keep, axis;
  if (!attrInt(t, "keepdims", 1, &keep)) return;
  if (arg) {
    if (!attrInt(t, "axis", 0, &axis) || !nnNormalizeAxis(t->op, "axis", &axis, r)) return;
    mask[axis] = true;
  } else if (!nnReduceAxes(t->op, NULL, r, mask, &identity)) {
    return;
  }
  for (int d = 0, o = 0; d < r; d++) {
    if (mask[d] && !identity && !keep) continue;
    setDim(t, 0, o++, mask[d] && !identity ? rdpConst(1) : dimOf(t, 0, d));
  }
}

static void transposeRule(RdpTransfer *t) {
  int r = rankOf(t, 0), n;
  int64_t perm[STRATA_MAX_RANK];
  if (r < 0 || !nnAttrInts(t->op, "perm", perm, STRATA_MAX_RANK, &n)) return;
  for (int d = 0; d < r; d++) setDim(t, 0, d, dimOf(t, 0, n < 0 ? r - 1 - d : (int)perm[d]));
}

static void flattenRule(RdpTransfer *t) {
  int r = rankOf(t, 0);
  int64_t axis;
  if (r < 0 || !attrInt(t, "axis", 1, &axis)) return;
  if (axis < 0) axis += r;
  if (axis < 0 || axis > r) return;
  setDim(t, 0, 0, productOf(t, 0, 0, (int)axis));
  setDim(t, 0, 1, productOf(t, 0, (int)axis, r));
  copyValue(t, 0, 0);
}

/* Squeeze and Unsqueeze keep the element order: the value passes through. */
static void squeezeRule(RdpTransfer *t, bool un) {
  int r = rankOf(t, 0), n, ro = t->out[0].rank;
  int64_t axes[STRATA_MAX_RANK];
  /* run-time axes (a non-constant operand): which dims go is not known */
  if (r < 0 || ro < 0 || nnIntsArg(t->op, 1, NULL, "axes", axes, STRATA_MAX_RANK, &n) != 1) return;
  bool mask[STRATA_MAX_RANK] = {false};
  int64_t c;
  for (int i = 0; i < n; i++) {
    if (!nnNormalizeAxis(t->op, "axis", &axes[i], un ? ro : r)) return;
    mask[axes[i]] = true;
  }
  if (!un && n < 0) /* no axes: every dim of size 1 goes, which needs them all known */
    for (int d = 0; d < r; d++) {
      RdpDim x = dimOf(t, 0, d);
      if (!rdpGetConst(&x, &c)) return;
      mask[d] = c == 1;
    }
  if (un)
    for (int d = 0, i = 0; d < ro; d++) setDim(t, 0, d, mask[d] ? rdpConst(1) : dimOf(t, 0, i++));
  else
    for (int d = 0, o = 0; d < r; d++)
      if (!mask[d]) setDim(t, 0, o++, dimOf(t, 0, d));
  copyValue(t, 0, 0);
}

static void concatRule(RdpTransfer *t) {
  int r = outRank(t, 0, rankOf(t, 0) >= 0 ? rankOf(t, 0) : rankOf(t, 1));
  int64_t axis;
  if (r < 0 || !attrInt(t, "axis", 0, &axis) || !nnNormalizeAxis(t->op, "axis", &axis, r)) return;
  for (int d = 0; d < r; d++) {
    RdpDim a = dimOf(t, 0, d), b = dimOf(t, 1, d);
    if (d == axis) setDim(t, 0, d, rdpAdd(&a, &b));
    else setDim(t, 0, d, a.level == RDP_KNOWN ? a : b);
  }
  RdpFact *o = &t->out[0];
  int la = valueLen(t, 0), lb = valueLen(t, 1);
  if (o->valueLen >= 0 && la >= 0 && lb >= 0 && la + lb == o->valueLen)
    for (int k = 0; k < o->valueLen; k++) o->vals[k] = k < la ? valueOf(t, 0, k) : valueOf(t, 1, k - la);
}

static void gatherRule(RdpTransfer *t) {
  int r = rankOf(t, 0), ri = rankOf(t, 1);
  int64_t axis;
  if (r < 1 || ri < 0 || !attrInt(t, "axis", 0, &axis) || !nnNormalizeAxis(t->op, "axis", &axis, r)) return;
  int o = 0;
  for (int d = 0; d < axis; d++) setDim(t, 0, o++, dimOf(t, 0, d));
  for (int d = 0; d < ri; d++) setDim(t, 0, o++, dimOf(t, 1, d));
  for (int d = (int)axis + 1; d < r; d++) setDim(t, 0, o++, dimOf(t, 0, d));
  /* The value: elements of a 1-D value picked by constant indices. */
  RdpFact *out = &t->out[0];
  int len = valueLen(t, 0), li = valueLen(t, 1);
  if (out->valueLen < 0 || r != 1 || len < 0 || li != out->valueLen) return;
  for (int k = 0; k < li; k++) {
    RdpDim ix = valueOf(t, 1, k);
    int64_t i;
    out->vals[k] = ix.level == RDP_UNDEF ? rdpUndef() : rdpNac();
    if (rdpGetConst(&ix, &i) && i >= -len && i < len) out->vals[k] = valueOf(t, 0, (int)(i < 0 ? i + len : i));
  }
}

/* Slice of one extent [s, e) step st over size n, all constants (ONNX clamping). */
static int64_t sliceCount(int64_t n, int64_t s, int64_t e, int64_t st) {
  if (s < 0) s += n;
  if (e < 0) e += n;
  if (st > 0) {
    s = s < 0 ? 0 : s > n ? n : s;
    e = e < 0 ? 0 : e > n ? n : e;
    return e > s ? (e - s + st - 1) / st : 0;
  }
  s = s < 0 ? -1 : s > n - 1 ? n - 1 : s;
  e = e < -1 ? -1 : e > n - 1 ? n - 1 : e;
  return s > e ? (s - e + (-st) - 1) / (-st) : 0;
}

static void sliceRule(RdpTransfer *t) {
  intptr_t iS = operandIndex(t, "starts"), iE = operandIndex(t, "ends"), iA = operandIndex(t, "axes"),
           iT = operandIndex(t, "steps");
  int r = rankOf(t, 0), n = valueLen(t, iS);
  if (r < 0 || n < 0 || valueLen(t, iE) != n) return;
  bool decided[STRATA_MAX_RANK] = {false};
  int64_t s0 = 0, st0 = 1, e0 = 0;
  bool valueSlice = r == 1 && n == 1;
  for (int k = 0; k < n; k++) {
    RdpDim s = valueOf(t, iS, k), e = valueOf(t, iE, k), a = iA >= 0 ? valueOf(t, iA, k) : rdpConst(k),
           st = iT >= 0 ? valueOf(t, iT, k) : rdpConst(1);
    int64_t axis, cs = 0, ce = 0, cst = 1, cn;
    if (a.level == RDP_UNDEF) return; /* wait for the axes */
    if (!rdpGetConst(&a, &axis)) { /* unknown axes: every dim may be sliced */
      for (int d = 0; d < r; d++) setDim(t, 0, d, rdpNac());
      return;
    }
    if (axis < 0) axis += r;
    if (axis < 0 || axis >= r) return;
    decided[axis] = true;
    RdpDim d = dimOf(t, 0, (int)axis), out = rdpNac();
    bool constSE = rdpGetConst(&s, &cs) && rdpGetConst(&e, &ce) && rdpGetConst(&st, &cst) && cst != 0;
    if (constSE && rdpGetConst(&d, &cn)) out = rdpConst(sliceCount(cn, cs, ce, cst));
    else if (constSE && cs == 0 && cst == 1 && ce >= INT32_MAX) out = d; /* the whole extent */
    else if (d.level == RDP_UNDEF || s.level == RDP_UNDEF || e.level == RDP_UNDEF || st.level == RDP_UNDEF)
      out = rdpUndef();
    setDim(t, 0, (int)axis, out);
    valueSlice &= constSE;
    s0 = cs, e0 = ce, st0 = cst;
  }
  for (int d = 0; d < r; d++)
    if (!decided[d]) setDim(t, 0, d, dimOf(t, 0, d));
  /* The value of a sliced 1-D shape vector. */
  RdpFact *o = &t->out[0];
  int len = valueLen(t, 0);
  if (!valueSlice || o->valueLen < 0 || len < 0 || sliceCount(len, s0, e0, st0) != o->valueLen) return;
  int64_t start = s0 < 0 ? s0 + len : s0;
  if (st0 > 0) start = start < 0 ? 0 : start;
  else start = start > len - 1 ? len - 1 : start;
  for (int k = 0; k < o->valueLen; k++) o->vals[k] = valueOf(t, 0, (int)(start + k * st0));
}

/* Reshape by a shape value: 0 copies the input dim (unless allowzero), -1
 * is the input's element count over the other dims (exact division). */
static void reshapeRule(RdpTransfer *t) {
  int r = t->out[0].rank, rin = rankOf(t, 0);
  int64_t allowZero, c;
  if (r < 0 || valueLen(t, 1) != r || !attrInt(t, "allowzero", 0, &allowZero)) return;
  RdpDim dims[STRATA_MAX_RANK], known = rdpConst(1);
  int inferred = -1;
  for (int k = 0; k < r; k++) {
    RdpDim v = valueOf(t, 1, k);
    if (rdpGetConst(&v, &c) && c == -1) {
      inferred = k;
      continue;
    }
    dims[k] = rdpGetConst(&v, &c) && c == 0 && !allowZero ? dimOf(t, 0, k) : v;
    known = rdpMul(&known, &dims[k]);
  }
  if (inferred >= 0) {
    RdpDim total = rin >= 0 ? productOf(t, 0, 0, rin) : rin == RDP_RANK_UNDEF ? rdpUndef() : rdpNac();
    dims[inferred] = rdpDivExact(&total, &known);
  }
  for (int k = 0; k < r; k++) setDim(t, 0, k, dims[k]);
  copyValue(t, 0, 0);
}

/* Expand: broadcast of the input shape with the shape value. */
static void expandRule(RdpTransfer *t) {
  int r = t->out[0].rank, rin = rankOf(t, 0), n = valueLen(t, 1);
  if (r < 0 || rin < 0 || n < 0) return;
  for (int d = 0; d < r; d++) {
    RdpDim xs[2];
    int m = 0;
    if (d >= r - rin) xs[m++] = dimOf(t, 0, d - (r - rin));
    if (d >= r - n) xs[m++] = valueOf(t, 1, d - (r - n));
    setDim(t, 0, d, broadcastDim(xs, m));
  }
}

static void shapeOfRule(RdpTransfer *t) {
  int r = rankOf(t, 0);
  int64_t s, e;
  RdpFact *o = &t->out[0];
  if (r == RDP_RANK_UNDEF || !attrInt(t, "start", 0, &s) || !attrInt(t, "end", r, &e)) return;
  if (r < 0) {
    for (int k = 0; k < o->valueLen; k++) o->vals[k] = rdpNac();
    return;
  }
  if (s < 0) s += r;
  if (e < 0) e += r;
  s = s < 0 ? 0 : s > r ? r : s;
  e = e < s ? s : e > r ? r : e;
  setDim(t, 0, 0, rdpConst(e - s));
  for (int k = 0; k < o->valueLen; k++) o->vals[k] = dimOf(t, 0, (int)s + k);
}

static void constantRule(RdpTransfer *t) {
  RdpFact *o = &t->out[0];
  int64_t vals[STRATA_MAX_RANK];
  if (o->valueLen < 0) return;
  MlirAttribute a = strataOpAttr(t->op, "value");
  if (o->valueLen == 1 && !mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a)) {
    o->vals[0] = rdpConst(mlirIntegerAttrGetValueInt(a));
    return;
  }
  int n = nnConstInts(mlirOperationGetResult(t->op, 0), vals, STRATA_MAX_RANK);
  for (int k = 0; k < o->valueLen; k++) o->vals[k] = n == o->valueLen ? rdpConst(vals[k]) : rdpNac();
}

/* Dims taken from the value of operand `i` (ConstantOfShape, Resize sizes). */
static void dimsFromValue(RdpTransfer *t, intptr_t i) {
  int r = t->out[0].rank;
  if (r >= 0 && valueLen(t, i) == r)
    for (int d = 0; d < r; d++) setDim(t, 0, d, valueOf(t, i, d));
}

static void rangeRule(RdpTransfer *t) {
  RdpDim s = valueOf(t, 0, 0), l = valueOf(t, 1, 0), d = valueOf(t, 2, 0);
  int64_t cs, cl, cd;
  if (rdpGetConst(&s, &cs) && rdpGetConst(&l, &cl) && rdpGetConst(&d, &cd) && cd != 0) {
    double n = ceil(((double)cl - (double)cs) / (double)cd);
    setDim(t, 0, 0, rdpConst(n > 0 ? (int64_t)n : 0));
  } else if (rdpGetConst(&d, &cd) && cd == 1 && rdpProvablyLE(&s, &l)) {
    setDim(t, 0, 0, rdpSub(&l, &s)); /* step 1 and start <= limit for all sizes: limit - start */
  } else {
    setDim(t, 0, 0, s.level == RDP_UNDEF || l.level == RDP_UNDEF || d.level == RDP_UNDEF ? rdpUndef() : rdpNac());
  }
}

/* Tile multiplies dims by repeats; Pad adds the begin and end pads. */
static void tilePadRule(RdpTransfer *t, bool pad) {
  int r = rankOf(t, 0);
  if (r < 0 || valueLen(t, 1) != (pad ? 2 * r : r)) return;
  for (int d = 0; d < r; d++) {
    RdpDim x = dimOf(t, 0, d), a = valueOf(t, 1, d);
    if (pad) {
      RdpDim b = valueOf(t, 1, d + r), sum = rdpAdd(&a, &b);
      setDim(t, 0, d, rdpAdd(&x, &sum));
    } else {
      setDim(t, 0, d, rdpMul(&x, &a));
    }
  }
}

/* Resize: sizes from their value; constant scales that are whole numbers
 * multiply (floor(d * s) = d * s); any other scale needs the dim constant. */
static void resizeRule(RdpTransfer *t) {
  intptr_t iSizes = operandIndex(t, "sizes"), iScales = operandIndex(t, "scales");
  int r = rankOf(t, 0);
  if (iSizes >= 0 && valueLen(t, iSizes) == r) {
    dimsFromValue(t, iSizes);
    return;
  }
  double sc[STRATA_MAX_RANK];
  if (r < 0 || iScales < 0 || nnConstDoubles(mlirOperationGetOperand(t->op, iScales), sc, STRATA_MAX_RANK) != r) return;
  for (int d = 0; d < r; d++) {
    RdpDim x = dimOf(t, 0, d), out = rdpNac();
    int64_t c, v;
    if (sc[d] >= 1 && sc[d] == floor(sc[d]) && strataDoubleToInt64(sc[d], &v)) {
      RdpDim s = rdpConst(v);
      out = rdpMul(&x, &s);
    } else if (rdpGetConst(&x, &c) && strataDoubleToInt64(floor((double)c * sc[d]), &v)) {
      out = rdpConst(v);
    } else if (x.level == RDP_UNDEF) {
      out = x;
    }
    setDim(t, 0, d, out);
  }
}

static void splitRule(RdpTransfer *t) {
  int r = rankOf(t, 0), n;
  int64_t axis, sizes[64];
  int known;
  if (r < 0 || !attrInt(t, "axis", 0, &axis) || !nnNormalizeAxis(t->op, "axis", &axis, r) ||
      (known = nnIntsArg(t->op, 1, NULL, "split", sizes, 64, &n)) < 0)
    return;
  RdpDim d = dimOf(t, 0, (int)axis), parts = rdpConst(t->numOut);
  for (intptr_t j = 0; j < t->numOut; j++) /* sizes known only at run time: nac along the axis */
    for (int k = 0; k < r; k++)
      setDim(t, j, k, k != axis ? dimOf(t, 0, k) : !known ? rdpNac() : n == t->numOut ? rdpConst(sizes[j]) : rdpDivExact(&d, &parts));
}

static void topKRule(RdpTransfer *t) {
  int r = rankOf(t, 0);
  int64_t axis;
  if (r < 0 || !attrInt(t, "axis", -1, &axis) || !nnNormalizeAxis(t->op, "axis", &axis, r)) return;
  for (intptr_t j = 0; j < t->numOut; j++)
    for (int k = 0; k < r; k++) setDim(t, j, k, k == axis ? valueOf(t, 1, 0) : dimOf(t, 0, k));
}

/* ---- Upstream ops on shape values (what lowered shape code uses) ---------- */

/* Integer arith on scalars or small tensors, casts that keep the value,
 * tensor.dim / extract / from_elements, and tensor.empty's dynamic sizes.
 * False if `op` is none of these. */
static bool upstreamRule(RdpTransfer *t) {
  RdpFact *o = t->numOut ? &t->out[0] : NULL;
  MlirOperation op = t->op;
  if (!o) return false;
  static const char *const kArith[] = {"arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.divui"};
  for (int a = 0; a < 5; a++) {
    if (!strataOpIsNamed(op, kArith[a])) continue;
    for (int k = 0; k < o->valueLen; k++) {
      RdpDim x = valueOf(t, 0, k), y = valueOf(t, 1, k);
      o->vals[k] = a == 0 ? rdpAdd(&x, &y) : a == 1 ? rdpSub(&x, &y) : a == 2 ? rdpMul(&x, &y) : rdpDivExact(&x, &y);
    }
    copyShape(t, 0, 0);
    return true;
  }
  if (strataOpIsNamed(op, "arith.index_cast") || strataOpIsNamed(op, "arith.index_castui") ||
      strataOpIsNamed(op, "arith.extsi") || strataOpIsNamed(op, "arith.extui")) {
    copyValue(t, 0, 0);
    copyShape(t, 0, 0);
    return true;
  }
  int64_t i;
  if (strataOpIsNamed(op, "tensor.dim")) {
    RdpDim idx = valueOf(t, 1, 0);
    if (o->valueLen == 1) o->vals[0] = rdpGetConst(&idx, &i) ? dimOf(t, 0, (int)i) : idx.level == RDP_UNDEF ? idx : rdpNac();
    return true;
  }
  if (strataOpIsNamed(op, "tensor.extract")) {
    RdpDim idx = t->numIn > 1 ? valueOf(t, 1, 0) : rdpConst(0);
    int len = valueLen(t, 0);
    if (o->valueLen == 1 && t->numIn <= 2)
      o->vals[0] = rdpGetConst(&idx, &i) && i >= 0 && i < len ? valueOf(t, 0, (int)i) : idx.level == RDP_UNDEF ? idx : rdpNac();
    return true;
  }
  if (strataOpIsNamed(op, "tensor.from_elements")) {
    if (o->valueLen == t->numIn)
      for (int k = 0; k < o->valueLen; k++) o->vals[k] = valueOf(t, k, 0);
    return true;
  }
  if (strataOpIsNamed(op, "tensor.empty")) { /* one index operand per '?' dim, in order */
    intptr_t next = 0;
    for (int d = 0; d < o->rank; d++)
      if (o->dims[d].level != RDP_KNOWN) setDim(t, 0, d, next < t->numIn ? valueOf(t, next++, 0) : rdpNac());
    return true;
  }
  if (strataOpIsNamed(op, "arith.constant")) {
    constantRule(t);
    return true;
  }
  if (strataOpIsNamed(op, "tensor.reshape")) { /* dims: the shape operand's elements */
    for (int d = 0; d < o->rank; d++) setDim(t, 0, d, valueOf(t, 1, d));
    return true;
  }
  /* destination-passing ops: a result has its destination's shape (a
   * linalg op's inits are its last operands, one per result) */
  if (strataOpIsNamed(op, "tensor.insert_slice")) {
    copyShape(t, 0, 1);
    return true;
  }
  if (strataOpIsInDialect(op, "linalg") && t->numIn >= t->numOut && o->isTensor) {
    for (intptr_t j = 0; j < t->numOut; j++) copyShape(t, j, t->numIn - t->numOut + j);
    return true;
  }
  return false;
}

/* Ops whose result has the shape of operand 0 besides the elementwise family. */
static const char *const kSameShape[] = {
    "nn.batch_normalization", "nn.cum_sum", "nn.dequantize_linear", "nn.quantize_linear",
    "nn.group_normalization", "nn.instance_normalization", "nn.layer_normalization",
    "nn.log_softmax", "nn.softmax", "nn.scatter_elements"};

static bool sameShapeOp(const RdpTransfer *t) {
  if (strataOpIsNamed(t->op, "tensor.cast")) return true; /* same shape, maybe less static */
  if (t->def && t->def->mapping == nnMapElementwise && t->numIn == 1) return true;
  for (size_t i = 0; i < sizeof kSameShape / sizeof *kSameShape; i++)
    if (strataOpIsNamed(t->op, kSameShape[i])) return true;
  return false;
}

bool rdpForward(RdpTransfer *t) {
  const StrataOpDef *def = t->def;
  const char *n = def ? def->name : "";
  if (!def) {
    if (sameShapeOp(t)) copyShape(t, 0, 0); /* tensor.cast */
    else if (!upstreamRule(t)) {            /* an upstream op without a rule: nac */
      setAllNac(t);
      return true;
    }
  } else if (def->dynamism == STRATA_DYN_EDO) { /* known only after running */
    setAllNac(t);
    return true;
  } else if (def->mapping == nnMapElementwise) {
    intptr_t ops[8];
    int k = 0;
    for (intptr_t i = 0; i < t->numIn && k < 8; i++) ops[k++] = i;
    broadcastOperands(t, ops, k, 0);
    elementwiseValue(t);
  } else if (sameShapeOp(t)) copyShape(t, 0, 0);
  else if (!strcmp(n, "nn.gather_elements")) copyShape(t, 0, 1);
  else if (!strcmp(n, "nn.conv")) return windowRule(t, true);
  else if (!strcmp(n, "nn.max_pool") || !strcmp(n, "nn.average_pool")) return windowRule(t, false);
  else if (!strcmp(n, "nn.global_average_pool") || !strcmp(n, "nn.global_max_pool")) {
    setDim(t, 0, 0, dimOf(t, 0, 0));
    setDim(t, 0, 1, dimOf(t, 0, 1));
  } else if (!strcmp(n, "nn.matmul")) matmulRule(t);
  else if (!strcmp(n, "nn.gemm")) gemmRule(t);
  else if (!strncmp(n, "nn.reduce_", 10)) reduceRule(t, false);
  else if (!strcmp(n, "nn.arg_max") || !strcmp(n, "nn.arg_min")) reduceRule(t, true);
  else if (!strcmp(n, "nn.transpose")) transposeRule(t);
  else if (!strcmp(n, "nn.flatten")) flattenRule(t);
  else if (!strcmp(n, "nn.squeeze")) squeezeRule(t, false);
  else if (!strcmp(n, "nn.unsqueeze")) squeezeRule(t, true);
  else if (!strcmp(n, "nn.concat")) concatRule(t);
  else if (!strcmp(n, "nn.gather")) gatherRule(t);
  else if (!strcmp(n, "nn.slice")) sliceRule(t);
  else if (!strcmp(n, "nn.reshape")) reshapeRule(t);
  else if (!strcmp(n, "nn.expand")) expandRule(t);
  else if (!strcmp(n, "nn.shape")) shapeOfRule(t);
  else if (!strcmp(n, "nn.size")) {
    if (t->out[0].valueLen == 1) t->out[0].vals[0] = rankOf(t, 0) >= 0 ? productOf(t, 0, 0, rankOf(t, 0)) : dimOf(t, 0, 0);
  } else if (!strcmp(n, "nn.constant")) constantRule(t);
  else if (!strcmp(n, "nn.constant_of_shape")) dimsFromValue(t, 0);
  else if (!strcmp(n, "nn.range")) rangeRule(t);
  else if (!strcmp(n, "nn.tile")) tilePadRule(t, false);
  else if (!strcmp(n, "nn.pad")) tilePadRule(t, true);
  else if (!strcmp(n, "nn.resize")) resizeRule(t);
  else if (!strcmp(n, "nn.split")) splitRule(t);
  else if (!strcmp(n, "nn.top_k")) topKRule(t);
  /* Whatever a rule left undef while its inputs are all known has no rule:
   * nac, never a guess. */
  bool inputsDecided = true;
  for (intptr_t i = 0; i < t->numIn; i++)
    inputsDecided &= !t->in[i] || t->in[i]->rank != RDP_RANK_UNDEF;
  for (intptr_t i = 0; i < t->numIn && inputsDecided; i++)
    for (int d = 0; t->in[i] && d < t->in[i]->rank; d++) inputsDecided &= t->in[i]->dims[d].level != RDP_UNDEF;
  for (intptr_t i = 0; i < t->numIn && inputsDecided; i++)
    for (int k = 0; t->in[i] && k < t->in[i]->valueLen; k++) inputsDecided &= t->in[i]->vals[k].level != RDP_UNDEF;
  if (inputsDecided) setAllNacUndef(t);
  return true;
}

/* Backward (IS_i <- F^bs(OS)), where the relation is an equality: a
 * same-shape op's operand has the result's shape; Concat's operands share
 * the result's dims off the axis, and on it one is the result's minus the
 * other's. */
bool rdpBackward(const RdpTransfer *t, RdpFact *cand) {
  const RdpFact *o = t->numOut ? &t->out[0] : NULL;
  if (!o || o->rank < 0) return false;
  if (sameShapeOp(t) && t->numIn >= 1) {
    rdpFactSetRank(&cand[0], o->rank, rdpUndef());
    for (int d = 0; d < o->rank; d++) cand[0].dims[d] = o->dims[d];
    return true;
  }
  int64_t axis;
  if (!t->def || !strataOpIsNamed(t->op, "nn.concat") || t->numIn != 2 || !nnAttrInt(t->op, "axis", 0, &axis)) return false;
  if (axis < 0) axis += o->rank;
  for (int i = 0; i < 2; i++) {
    rdpFactSetRank(&cand[i], o->rank, rdpUndef());
    for (int d = 0; d < o->rank; d++) {
      RdpDim other = dimOf(t, 1 - i, d);
      cand[i].dims[d] = d != axis ? o->dims[d] : rdpSub(&o->dims[d], &other);
    }
  }
  return true;
}
