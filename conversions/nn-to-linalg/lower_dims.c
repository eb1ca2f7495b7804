/* Dynamic dims in the nn lowerings (issue 19): the run-time extent of each
 * result dim an op's type leaves `?`, computed from its operands' run-time
 * extents (tensor.dim) by the op's shape rule, so that the lowerings can
 * allocate results (tensor.empty with dynamic sizes) and compiled code runs
 * at any shape.
 *
 * Where the compiled code assumes something about a run-time extent (two
 * dynamic dims that broadcast together are equal; a dynamic dim meeting a
 * static one has that size; a matmul's inner dims agree; a reshape keeps
 * the element count), it checks it and reports a located run-time error
 * (strata_rt_shape_error) when it does not hold: an extent of 1 that would
 * broadcast at run time is refused, never computed wrongly.
 *
 * The rules are per shape function of the op table (inferElementwise,
 * inferConv, ...), not per model; an op without one is refused before any
 * rewrite (lowerDynamicSupported). */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "nn_einsum.h"
#include "nn_elementwise.h"
#include "nn_internal.h"
#include "nn_movement_params.h"
#include "nn_rnn.h"
#include "lower_internal.h"

typedef enum {
  R_NONE,
  R_ELEMENTWISE, /* numpy broadcasting of every operand */
  R_SAME,        /* the result has operand 0's shape */
  R_WINDOW,      /* conv / pooling: N, channels, window arithmetic */
  R_GLOBAL,      /* global pooling: N, C, 1... */
  R_REDUCE,      /* reduce_* over `axes` (keepdims or not) */
  R_MATMUL,
  R_GEMM,
  R_TRANSPOSE,
  R_RESHAPE, /* reshape, flatten, squeeze, unsqueeze: the same elements */
  R_GATHER,
  R_SHAPE, /* a static [rank] result */
  R_SLICE, /* slice, resize, stft, mel_weight_matrix, max_unpool: their own lowerings compute the extents (lower_*_dynamic.c, lower_signal.c) */
  R_CONCAT, /* the sum along the axis, equal extents off it */
  R_EXPAND, /* ONNX bidirectional broadcast with the run-time target shape */
  R_TILE,   /* extent times the run-time repeats */
  R_RANGE,  /* the element count of start:limit:delta */
  R_FILLED, /* constant_of_shape: the run-time shape operand's elements */
  R_PAD,    /* extent plus the run-time begin and end pads */
  R_SPLIT,  /* result i's chunk of the axis (lowerSplitChunk) */
  R_TOPK,   /* operand 0's shape with the run-time k along the axis */
  R_SIZED,  /* the windows: 1-D of the run-time scalar operand 0's value */
  R_ARG,    /* arg_max, arg_min: the axis kept as 1 or dropped */
  R_BLOCKS, /* depth_to_space, space_to_depth: space and channels traded by blocksize² */
  R_ELEMENTS, /* gather_elements: the indices' shape, within data's off the axis */
  R_EINSUM,   /* per subscript, the one extent of its operand dims (a static 1 broadcasts) */
  R_RECURRENT, /* rnn, gru, lstm: sequence and batch of x, the static hidden size (lowerRnnDims) */
  R_COUNTED /* data-dependent: its own lowering counts, then allocates (lower_datadep*.c) */
} Rule;

static Rule ruleOf(MlirOperation op) {
  static const struct {
    const char *name;
    Rule rule;
  } kRules[] = {
      {"nn.softmax", R_SAME}, {"nn.log_softmax", R_SAME}, {"nn.layer_normalization", R_SAME},
      {"nn.batch_normalization", R_SAME}, {"nn.conv", R_WINDOW}, {"nn.max_pool", R_WINDOW},
      {"nn.average_pool", R_WINDOW}, {"nn.global_average_pool", R_GLOBAL}, {"nn.global_max_pool", R_GLOBAL},
      {"nn.reduce_sum", R_REDUCE}, {"nn.reduce_mean", R_REDUCE}, {"nn.reduce_max", R_REDUCE},
      {"nn.reduce_min", R_REDUCE}, {"nn.reduce_prod", R_REDUCE}, {"nn.reduce_l1", R_REDUCE},
      {"nn.reduce_l2", R_REDUCE}, {"nn.reduce_sum_square", R_REDUCE}, {"nn.reduce_log_sum", R_REDUCE},
      {"nn.reduce_log_sum_exp", R_REDUCE}, {"nn.matmul", R_MATMUL},
      {"nn.gemm", R_GEMM}, {"nn.transpose", R_TRANSPOSE}, {"nn.reshape", R_RESHAPE},
      {"nn.flatten", R_RESHAPE}, {"nn.squeeze", R_RESHAPE}, {"nn.unsqueeze", R_RESHAPE},
      {"nn.gather", R_GATHER}, {"nn.shape", R_SHAPE}, {"nn.slice", R_SLICE}, {"nn.resize", R_SLICE},
      {"nn.stft", R_SLICE}, {"nn.mel_weight_matrix", R_SLICE},
      {"nn.concat", R_CONCAT}, {"nn.expand", R_EXPAND}, {"nn.tile", R_TILE},
      {"nn.range", R_RANGE}, {"nn.constant_of_shape", R_FILLED},
      {"nn.pad", R_PAD}, {"nn.split", R_SPLIT}, {"nn.cum_sum", R_SAME}, {"nn.top_k", R_TOPK},
      {"nn.non_zero", R_COUNTED}, {"nn.compress", R_COUNTED}, {"nn.unique", R_COUNTED},
      {"nn.non_max_suppression", R_COUNTED}, {"nn.hann_window", R_SIZED}, {"nn.hamming_window", R_SIZED},
      {"nn.blackman_window", R_SIZED}, {"nn.max_unpool", R_SLICE},
      {"nn.arg_max", R_ARG}, {"nn.arg_min", R_ARG}, {"nn.depth_to_space", R_BLOCKS},
      {"nn.space_to_depth", R_BLOCKS}, {"nn.gather_elements", R_ELEMENTS}, {"nn.scatter_elements", R_SAME},
      {"nn.instance_normalization", R_SAME}, {"nn.group_normalization", R_SAME},
      {"nn.quantize_linear", R_SAME}, {"nn.dequantize_linear", R_SAME}, {"nn.reverse_sequence", R_SAME},
      {"nn.size", R_SHAPE}, {"nn.einsum", R_EINSUM}, {"nn.rnn", R_RECURRENT}, {"nn.gru", R_RECURRENT},
      {"nn.lstm", R_RECURRENT},
  };
  for (size_t i = 0; i < sizeof kRules / sizeof kRules[0]; i++)
    if (strataOpIsNamed(op, kRules[i].name)) return kRules[i].rule;
  const NnEwInfo *ew = nnElementwiseInfo(mlirIdentifierStr(mlirOperationGetName(op)));
  if (ew) return ew->form == NN_EW_UNIDIRECTIONAL ? R_SAME : R_ELEMENTWISE;
  return R_NONE;
}

static bool hasDynamic(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsARankedTensor(t) && !mlirShapedTypeHasStaticShape(t);
}

bool lowerHasDynamicDims(MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n + mlirOperationGetNumResults(op); i++)
    if (hasDynamic(i < n ? mlirOperationGetOperand(op, i) : mlirOperationGetResult(op, i - n))) return true;
  return false;
}

bool lowerDynamicSupported(MlirOperation op, const char **why) {
  Rule r = ruleOf(op);
  *why = "no dynamic-shape rule for this op yet (docs/dynamic-shapes.md lists the ops that have one)";
  if (r == R_NONE) return false;
  if (r == R_WINDOW) {
    /* The runtime kernels take them (nn-to-kernels); the loops here do not. */
    *why = "dynamic dims of a convolution or pooling compile through the runtime kernels only (f32, NCHW/NCW, "
           "explicit pads)";
    return false;
  }
  if ((r == R_BLOCKS || strataOpIsNamed(op, "nn.group_normalization")) &&
      lowerDim(mlirOperationGetOperand(op, 0), 1) < 0) {
    *why = "its channel dim (1) must be static";
    return false;
  }
  if (r == R_RECURRENT) {
    NnRnn rnn;
    *why = "its hidden size must be static (hidden_size, or a static dim of r or w)";
    return nnRnnOf(op, &rnn) && rnn.hidden >= 0;
  }
  if (r == R_GATHER) {
    MlirValue data = mlirOperationGetOperand(op, 0);
    int64_t axis = 0;
    nnAttrInt(op, "axis", 0, &axis);
    if (axis < 0) axis += lowerRank(data);
    if (axis < 0 || axis >= lowerRank(data) || lowerDim(data, (int)axis) < 0) {
      *why = "a gather along a dynamic dim of its data is not compiled";
      return false;
    }
  }
  /* the shape operand whose elements the rule reads one by one */
  int shapeOperand = r == R_FILLED ? 0 : r == R_EXPAND || r == R_PAD || r == R_TILE || r == R_TOPK ? 1 : -1;
  if (shapeOperand >= 0 && mlirShapedTypeIsDynamicDim(mlirValueGetType(mlirOperationGetOperand(op, shapeOperand)), 0)) {
    *why = "its shape operand (target shape, pads, repeats, k) needs a static length";
    return false;
  }
  if (r == R_RESHAPE && strataOpIsNamed(op, "nn.squeeze") && mlirOperationGetNumOperands(op) < 2) {
    int64_t axes[STRATA_MAX_RANK];
    if (strataGetI64Array(op, "axes", axes, STRATA_MAX_RANK) <= 0) {
      *why = "a squeeze without axes drops the dims that are 1 at run time, which a dynamic shape leaves open";
      return false;
    }
  }
  return true;
}

/* ---- Index arithmetic ---- */

static MlirValue bin(StrataBuilder *b, MlirLocation loc, const char *name, MlirValue x, MlirValue y) {
  return emitBinary(b, loc, name, x, y);
}

MlirValue lowerDimValue(StrataBuilder *b, MlirLocation loc, MlirValue t, int d) {
  int64_t s = lowerDim(t, d);
  if (s >= 0) return lowerIndexConst(b, loc, s);
  return strataResult(strataCreateOp(b, "tensor.dim", loc, .operands = STRATA_VALUES(t, lowerIndexConst(b, loc, d)),
                                     .results = STRATA_TYPES(strataIndexType(b->ctx))),
                      0);
}

void lowerShapeCheckAt(StrataBuilder *b, MlirLocation loc, MlirValue site, MlirValue bad, int kind, int operand,
                    int dim, MlirValue got, MlirValue want) {
  strataShapeCheckAt(b, loc, site, bad, kind, operand, dim, got, want);
}

typedef struct {
  StrataBuilder *b;
  MlirOperation op;
  MlirLocation loc;
  MlirValue site; /* created on the first check */
  bool failed;
} Dims;

/* Reports `kind` when `bad` holds at run time. Kinds (runtime/status.c):
 * 0 got != want, 1 a window larger than its padded input, 2 a reshape's
 * element count, 3 a shape operand's element below `want`, 4 an operand
 * that must not be `want`, 5 pads that do not fit a run-time extent, 6 an
 * axis outside [-want, want), 7 a repeated axis, 8 split sizes whose sum
 * `got` is not the extent `want`, 9 a k outside [0, want], 10 a scale
 * (element `dim` of `operand`) that is not positive, 11 an operand with
 * more than `want` elements, 12 a threshold outside [0, 1], 13 an index
 * outside [0, want), 14 an element of an operand outside [0, want]
 * (lower_rnn.c's sequence_lens), 15 an element outside [dim, want]
 * (lower_check.c), 16 argument dims of one RDP symbol that differ
 * (rdp-fold-checks), 17 an extent `got` that is not a multiple of `want`,
 * 18 an extent `got` above operand 0's `want` in that dim. */
static void checkIf(Dims *c, MlirValue bad, int kind, int operand, int dim, MlirValue got, MlirValue want) {
  if (!c->failed) c->failed = !lowerCheck(c->b, c->op, &c->site, bad, kind, operand, dim, got, want);
}

bool lowerCheck(StrataBuilder *b, MlirOperation op, MlirValue *site, MlirValue bad, int kind, int operand, int dim,
                MlirValue got, MlirValue want) {
  if (!site->ptr && !lowerRuntimeSite(b, op, SHAPE_ERROR_FN, site)) return false;
  lowerShapeCheckAt(b, mlirOperationGetLocation(op), *site, bad, kind, operand, dim, got, want);
  return true;
}

static void check(Dims *c, int kind, int operand, int dim, MlirValue got, MlirValue want) {
  int pred = kind == 1 || kind == 3 ? CMPI_SLT : CMPI_NE;
  checkIf(c, emitCmpI(c->b, c->loc, pred, got, want), kind, operand, dim, got, want);
}

/* Operand i's dim d equals `want` (when it is dynamic: static dims were
 * checked by the verifier). */
static void expectDim(Dims *c, int i, int d, MlirValue want) {
  MlirValue v = mlirOperationGetOperand(c->op, i);
  if (lowerDim(v, d) < 0) check(c, 0, i, d, lowerDimValue(c->b, c->loc, v, d), want);
}

/* numpy broadcasting of operands `first`..`last` into out[0..rank): the
 * first dynamic operand dim in each position is the extent, the others must
 * equal it (or the static extent). */
static void broadcastDims(Dims *c, int first, int last, int rank, int trailingSkip, MlirValue *out,
                          MlirType resultType, int resultOffset) {
  for (int d = 0; d < rank; d++) {
    int64_t rs = mlirShapedTypeGetDimSize(resultType, resultOffset + d);
    /* a static extent other than 1 decides the dim even where the declared
     * result type leaves it open */
    for (int i = first; i <= last && rs < 0; i++) {
      MlirValue v = mlirOperationGetOperand(c->op, i);
      int vr = lowerRank(v) - trailingSkip, vd = d - (rank - vr);
      if (vd >= 0 && lowerDim(v, vd) >= 0 && lowerDim(v, vd) != 1) rs = lowerDim(v, vd);
    }
    MlirValue extent = rs >= 0 ? lowerIndexConst(c->b, c->loc, rs) : (MlirValue){NULL};
    for (int i = first; i <= last; i++) {
      MlirValue v = mlirOperationGetOperand(c->op, i);
      int vr = lowerRank(v) - trailingSkip, vd = d - (rank - vr);
      if (vd < 0 || lowerDim(v, vd) >= 0) continue;
      if (!extent.ptr) extent = lowerDimValue(c->b, c->loc, v, vd);
      else expectDim(c, i, vd, extent);
    }
    out[d] = extent.ptr ? extent : lowerIndexConst(c->b, c->loc, 1);
  }
}

/* Operand i's dim di and operand j's dim dj are one extent (checked where
 * either is dynamic), or i's is at most j's (`within`). */
static void sameExtent(Dims *c, int i, int di, int j, int dj, bool within) {
  MlirValue u = mlirOperationGetOperand(c->op, i), v = mlirOperationGetOperand(c->op, j);
  if (lowerDim(u, di) >= 0 && lowerDim(v, dj) >= 0) return; /* the verifier's */
  MlirValue got = lowerDimValue(c->b, c->loc, u, di), want = lowerDimValue(c->b, c->loc, v, dj);
  if (within) checkIf(c, emitCmpI(c->b, c->loc, CMPI_SGT, got, want), 18, i, di, got, want);
  else check(c, 0, i, di, got, want);
}

static int64_t attrAxis(MlirOperation op, const char *name, int64_t dflt, int rank) {
  int64_t axis = dflt;
  nnAttrInt(op, name, dflt, &axis);
  return axis < 0 ? axis + rank : axis;
}

/* The operands that ops of operand 0's shape read beside it indexed by its dims:
 * scatter_elements' indices (within data off the axis) and updates (the
 * indices' shape), reverse_sequence's lengths (the batch axis), a
 * per-axis quantization's scale and zero point (the axis). */
static void indexedOperands(Dims *c) {
  MlirOperation op = c->op;
  int rank = lowerRank(mlirOperationGetOperand(op, 0));
  if (strataOpIsNamed(op, "nn.scatter_elements")) {
    int64_t axis = attrAxis(op, "axis", 0, rank);
    for (int d = 0; d < rank; d++) {
      if (d != axis) sameExtent(c, 1, d, 0, d, true);
      sameExtent(c, 2, d, 1, d, false);
    }
  } else if (strataOpIsNamed(op, "nn.reverse_sequence")) {
    int64_t batch, time;
    if (nnReverseSequenceAxes(op, &batch, &time)) sameExtent(c, 1, 0, 0, (int)batch, false);
  } else if (strataOpIsNamed(op, "nn.quantize_linear") || strataOpIsNamed(op, "nn.dequantize_linear")) {
    int64_t axis = attrAxis(op, "axis", 1, rank);
    for (intptr_t i = 1; i < mlirOperationGetNumOperands(op); i++) {
      MlirValue v = mlirOperationGetOperand(op, i);
      if (lowerRank(v) == 1 && lowerDim(v, 0) != 1) sameExtent(c, 0, (int)axis, (int)i, 0, false);
    }
  }
}

/* The operands an op of operand 0's shape reads beside it: layer
 * normalization's scale and bias and PRelu's slope broadcast into x from
 * the right, batch and instance normalization's along dim 1. A dynamic dim
 * of x that one of them spans with a static extent must have that extent
 * (and a dynamic one along dim 1, x's). */
static void sameShapeOperands(Dims *c) {
  MlirValue x = mlirOperationGetOperand(c->op, 0);
  indexedOperands(c);
  bool alongC = strataOpIsNamed(c->op, "nn.batch_normalization") || strataOpIsNamed(c->op, "nn.instance_normalization");
  if (!alongC && !strataOpIsNamed(c->op, "nn.layer_normalization") && !strataOpIsNamed(c->op, "nn.prelu")) return;
  for (intptr_t i = 1; i < mlirOperationGetNumOperands(c->op); i++) {
    MlirValue v = mlirOperationGetOperand(c->op, i);
    int rv = lowerRank(v);
    for (int d = 0; d < rv; d++) {
      int xd = alongC ? 1 : lowerRank(x) - rv + d;
      int64_t e = lowerDim(v, d);
      if (xd >= 0 && e >= 0 && (e != 1 || alongC)) expectDim(c, 0, xd, lowerIndexConst(c->b, c->loc, e));
      else if (alongC && e < 0) sameExtent(c, (int)i, d, 0, 1, false);
    }
  }
}

static MlirValue product(Dims *c, MlirValue x, int from, int to) {
  MlirValue p = lowerIndexConst(c->b, c->loc, 1);
  for (int d = from; d < to; d++) p = bin(c->b, c->loc, "arith.muli", p, lowerDimValue(c->b, c->loc, x, d));
  return p;
}

/* Window output extent (nn_infer_window_output's arithmetic). */
static MlirValue windowExtent(Dims *c, MlirValue in, int d, const NnWindow *w, int i) {
  StrataBuilder *b = c->b;
  MlirLocation loc = c->loc;
  int64_t span = w->dilations[i] * (w->kernel[i] - 1) + 1, s = w->strides[i];
  MlirValue padded = bin(b, loc, "arith.addi", lowerDimValue(b, loc, in, d), lowerIndexConst(b, loc, w->pads[i] + w->pads[i + w->spatial]));
  check(c, 1, 0, d, padded, lowerIndexConst(b, loc, span));
  MlirValue n = bin(b, loc, "arith.subi", padded, lowerIndexConst(b, loc, span));
  MlirValue q = bin(b, loc, w->ceilMode ? "arith.ceildivsi" : "arith.floordivsi", n, lowerIndexConst(b, loc, s));
  MlirValue out = bin(b, loc, "arith.addi", q, lowerIndexConst(b, loc, 1));
  if (w->ceilMode) { /* the last window must start inside the input or the begin padding */
    MlirValue last = bin(b, loc, "arith.muli", q, lowerIndexConst(b, loc, s));
    MlirValue limit = bin(b, loc, "arith.addi", lowerDimValue(b, loc, in, d), lowerIndexConst(b, loc, w->pads[i]));
    MlirValue past = emitCmpI(b, loc, CMPI_SGE, last, limit);
    out = emitSelect(b, loc, past, q, out);
  }
  return out;
}

static void windowDims(Dims *c, MlirType rt, MlirValue *out) {
  MlirValue x = mlirOperationGetOperand(c->op, 0);
  int rank = lowerRank(x), sp = rank - 2;
  bool conv = strataOpIsNamed(c->op, "nn.conv");
  int64_t kernel[NN_MAX_SPATIAL] = {0};
  MlirValue w = conv ? mlirOperationGetOperand(c->op, 1) : (MlirValue){NULL};
  for (int i = 0; conv && i < sp; i++) kernel[i] = lowerDim(w, 2 + i);
  NnWindow win;
  if (sp < 1 || sp > NN_MAX_SPATIAL || !nn_get_window(c->op, sp, conv ? kernel : NULL, &win)) {
    c->failed = true;
    return;
  }
  if (strcmp(win.autoPad, "NOTSET") && strcmp(win.autoPad, "VALID")) {
    strataEmitError(c->loc, "dynamic dims: auto_pad %s depends on the run-time extent; give explicit pads",
                    win.autoPad);
    c->failed = true;
    return;
  }
  if (!strcmp(win.autoPad, "VALID"))
    for (int i = 0; i < 2 * sp; i++) win.pads[i] = 0;
  out[0] = lowerDimValue(c->b, c->loc, x, 0);
  if (conv) {
    out[1] = lowerIndexConst(c->b, c->loc, lowerDim(w, 0));
    expectDim(c, 0, 1, lowerIndexConst(c->b, c->loc, lowerDim(w, 1) * win.group));
  } else {
    out[1] = lowerDimValue(c->b, c->loc, x, 1);
  }
  for (int i = 0; i < sp; i++)
    out[2 + i] = mlirShapedTypeGetDimSize(rt, 2 + i) >= 0 ? lowerIndexConst(c->b, c->loc, mlirShapedTypeGetDimSize(rt, 2 + i))
                                                         : windowExtent(c, x, 2 + i, &win, i);
}

static void matmulDims(Dims *c, MlirType rt, MlirValue *out) {
  MlirValue a = mlirOperationGetOperand(c->op, 0), bv = mlirOperationGetOperand(c->op, 1);
  int ra = lowerRank(a), rb = lowerRank(bv), r = (int)mlirShapedTypeGetRank(rt);
  int batch = r - (ra >= 2) - (rb >= 2);
  broadcastDims(c, 0, 1, batch, 2, out, rt, 0);
  int at = batch;
  if (ra >= 2) out[at++] = lowerDimValue(c->b, c->loc, a, ra - 2);
  if (rb >= 2) out[at++] = lowerDimValue(c->b, c->loc, bv, rb - 1);
  MlirValue k = lowerDimValue(c->b, c->loc, a, ra - 1);
  expectDim(c, 1, rb >= 2 ? rb - 2 : 0, k);
  if (lowerDim(a, ra - 1) < 0 && lowerDim(bv, rb >= 2 ? rb - 2 : 0) >= 0)
    expectDim(c, 0, ra - 1, lowerIndexConst(c->b, c->loc, lowerDim(bv, rb >= 2 ? rb - 2 : 0)));
}

static void gemmDims(Dims *c, MlirValue *out) {
  MlirValue a = mlirOperationGetOperand(c->op, 0), bv = mlirOperationGetOperand(c->op, 1);
  int64_t ta = 0, tb = 0;
  nnAttrInt(c->op, "transA", 0, &ta);
  nnAttrInt(c->op, "transB", 0, &tb);
  out[0] = lowerDimValue(c->b, c->loc, a, ta ? 1 : 0);
  out[1] = lowerDimValue(c->b, c->loc, bv, tb ? 0 : 1);
  MlirValue k = lowerDimValue(c->b, c->loc, a, ta ? 0 : 1);
  expectDim(c, 1, tb ? 1 : 0, k);
  if (lowerDim(a, ta ? 0 : 1) < 0) expectDim(c, 0, ta ? 0 : 1, lowerDimValue(c->b, c->loc, bv, tb ? 1 : 0));
  if (mlirOperationGetNumOperands(c->op) == 3) { /* C broadcasts unidirectionally to [M, N] */
    MlirValue cv = mlirOperationGetOperand(c->op, 2);
    for (int d = 0; d < lowerRank(cv); d++) expectDim(c, 2, d, out[2 - lowerRank(cv) + d]);
  }
}

/* The extents of a reshape's target: its shape operand's elements (0 keeps
 * the input's dim unless allowzero, one -1 takes the rest); the element
 * count is checked. */
static void reshapeTargetDims(Dims *c, MlirType rt, MlirValue *out) {
  MlirValue x = mlirOperationGetOperand(c->op, 0), shape = mlirOperationGetOperand(c->op, 1);
  int r = (int)mlirShapedTypeGetRank(rt);
  int64_t allowZero = 0;
  nnAttrInt(c->op, "allowzero", 0, &allowZero);
  StrataBuilder *b = c->b;
  MlirLocation loc = c->loc;
  MlirValue known = lowerIndexConst(b, loc, 1), minusOne = lowerIndexConst(b, loc, -1), zero = lowerIndexConst(b, loc, 0);
  MlirValue isInferred[STRATA_MAX_RANK];
  for (int d = 0; d < r; d++) {
    MlirValue e = linalgExtract(b, loc, shape, (MlirValue[]){lowerIndexConst(b, loc, d)}, 1);
    MlirValue v = emitConvert(b, loc, "arith.index_cast", e, strataIndexType(b->ctx));
    if (!allowZero && d < lowerRank(x))
      v = emitSelect(b, loc, emitCmpI(b, loc, CMPI_EQ, v, zero), lowerDimValue(b, loc, x, d), v);
    isInferred[d] = emitCmpI(b, loc, CMPI_EQ, v, minusOne);
    out[d] = v;
    known = bin(b, loc, "arith.muli", known, emitSelect(b, loc, isInferred[d], lowerIndexConst(b, loc, 1), v));
  }
  MlirValue total = product(c, x, 0, lowerRank(x));
  MlirValue safe = emitSelect(b, loc, emitCmpI(b, loc, CMPI_EQ, known, zero), lowerIndexConst(b, loc, 1), known);
  MlirValue rest = bin(b, loc, "arith.divsi", total, safe);
  MlirValue count = lowerIndexConst(b, loc, 1);
  for (int d = 0; d < r; d++) {
    out[d] = emitSelect(b, loc, isInferred[d], rest, out[d]);
    count = bin(b, loc, "arith.muli", count, out[d]);
  }
  check(c, 2, 0, 0, total, count);
}

static void reshapeDims(Dims *c, MlirType rt, MlirValue *out) {
  MlirValue x = mlirOperationGetOperand(c->op, 0);
  int rx = lowerRank(x), r = (int)mlirShapedTypeGetRank(rt);
  if (strataOpIsNamed(c->op, "nn.reshape")) {
    reshapeTargetDims(c, rt, out);
    return;
  }
  if (strataOpIsNamed(c->op, "nn.flatten")) {
    int64_t axis = 1;
    nnAttrInt(c->op, "axis", 1, &axis);
    if (axis < 0) axis += rx;
    out[0] = product(c, x, 0, (int)axis);
    out[1] = product(c, x, (int)axis, rx);
    return;
  }
  /* squeeze / unsqueeze: the dims that are not the axes' (static 1s) follow x's in order */
  bool unsqueeze = strataOpIsNamed(c->op, "nn.unsqueeze");
  if (mlirOperationGetNumOperands(c->op) > 1) {
    c->failed |= !lowerRuntimeSqueezeDims(c->b, c->op, &c->site, unsqueeze, out);
    return;
  }
  int64_t axes[STRATA_MAX_RANK];
  int na = strataGetI64Array(c->op, "axes", axes, STRATA_MAX_RANK);
  bool isAxis[STRATA_MAX_RANK] = {false};
  int axisRank = unsqueeze ? r : rx;
  for (int i = 0; i < na; i++) isAxis[axes[i] < 0 ? axes[i] + axisRank : axes[i]] = true;
  int at = 0;
  if (unsqueeze) {
    for (int d = 0; d < r; d++) out[d] = isAxis[d] ? lowerIndexConst(c->b, c->loc, 1) : lowerDimValue(c->b, c->loc, x, at++);
  } else {
    for (int d = 0; d < rx; d++) {
      if (isAxis[d]) expectDim(c, 0, d, lowerIndexConst(c->b, c->loc, 1));
      else out[at++] = lowerDimValue(c->b, c->loc, x, d);
    }
  }
}

/* Element i of a 1-D integer operand, as an index. */
static MlirValue shapeElement(Dims *c, MlirValue v, int i) {
  MlirValue e = linalgExtract(c->b, c->loc, v, (MlirValue[]){lowerIndexConst(c->b, c->loc, i)}, 1);
  return emitConvert(c->b, c->loc, "arith.index_cast", e, strataIndexType(c->b->ctx));
}

/* Concat: off the axis both operands have the result's extent (the first
 * static one, else a's), along it the sum. */
static void concatDims(Dims *c, int r, MlirValue *out) {
  MlirValue a = mlirOperationGetOperand(c->op, 0), bv = mlirOperationGetOperand(c->op, 1);
  int64_t axis = 0;
  nnAttrInt(c->op, "axis", 0, &axis);
  if (axis < 0) axis += r;
  for (int d = 0; d < r; d++) {
    if (d == axis) {
      out[d] = bin(c->b, c->loc, "arith.addi", lowerDimValue(c->b, c->loc, a, d), lowerDimValue(c->b, c->loc, bv, d));
      continue;
    }
    out[d] = lowerDimValue(c->b, c->loc, lowerDim(a, d) < 0 && lowerDim(bv, d) >= 0 ? bv : a, d);
    expectDim(c, 0, d, out[d]);
    expectDim(c, 1, d, out[d]);
  }
}

/* Expand (ONNX's bidirectional broadcast): where the input's dim is a
 * static 1 (or absent) the target's element is the extent; elsewhere the
 * input's extent stays and the target's element must be 1 or equal to it
 * (an input extent of 1 meeting a larger target at run time is refused:
 * broadcasting is decided at compile time). */
static void expandDims(Dims *c, int r, MlirValue *out) {
  MlirValue x = mlirOperationGetOperand(c->op, 0), shape = mlirOperationGetOperand(c->op, 1);
  int rx = lowerRank(x), ns = (int)lowerDim(shape, 0);
  MlirValue one = lowerIndexConst(c->b, c->loc, 1);
  for (int d = 0; d < r; d++) {
    int xd = d - (r - rx), sd = d - (r - ns);
    MlirValue s = sd >= 0 ? shapeElement(c, shape, sd) : (MlirValue){NULL};
    if (xd < 0 || lowerDim(x, xd) == 1) {
      out[d] = s.ptr ? s : one;
      if (s.ptr) check(c, 3, 1, sd, s, lowerIndexConst(c->b, c->loc, 0));
      continue;
    }
    out[d] = lowerDimValue(c->b, c->loc, x, xd);
    if (!s.ptr) continue;
    MlirValue bad = bin(c->b, c->loc, "arith.andi", emitCmpI(c->b, c->loc, CMPI_NE, s, one),
                        emitCmpI(c->b, c->loc, CMPI_NE, s, out[d]));
    checkIf(c, bad, 0, 1, sd, s, out[d]);
  }
}

/* Tile: each extent times its run-time repeat (which must not be negative). */
static void tileDims(Dims *c, int r, MlirValue *out) {
  MlirValue x = mlirOperationGetOperand(c->op, 0), repeats = mlirOperationGetOperand(c->op, 1);
  for (int d = 0; d < r; d++) {
    MlirValue k = shapeElement(c, repeats, d);
    check(c, 3, 1, d, k, lowerIndexConst(c->b, c->loc, 0));
    out[d] = bin(c->b, c->loc, "arith.muli", lowerDimValue(c->b, c->loc, x, d), k);
  }
}

/* Range: max(ceil((limit - start) / delta), 0) elements; delta 0 is an
 * error. A float count is clamped below 2^62 (and NaN gives 0) before it
 * becomes an index: an extent that large fails the allocation, located. */
static MlirValue rangeCount(Dims *c) {
  StrataBuilder *b = c->b;
  MlirLocation loc = c->loc;
  MlirValue v[3];
  for (int i = 0; i < 3; i++) v[i] = linalgExtract(b, loc, mlirOperationGetOperand(c->op, i), NULL, 0);
  MlirType et = mlirValueGetType(v[0]), index = strataIndexType(b->ctx);
  bool isFloat = lowerIsFloat(et);
  MlirValue zero = emitConst(b, loc, et, 0);
  MlirValue isZero = isFloat ? emitCmpF(b, loc, CMPF_OEQ, v[2], zero) : emitCmpI(b, loc, CMPI_EQ, v[2], zero);
  checkIf(c, isZero, 4, 2, 0, lowerIndexConst(b, loc, 0), lowerIndexConst(b, loc, 0));
  if (!isFloat) {
    MlirValue i64[3];
    for (int i = 0; i < 3; i++) i64[i] = emitConvert(b, loc, "arith.index_cast", v[i], index);
    MlirValue safe = emitSelect(b, loc, isZero, lowerIndexConst(b, loc, 1), i64[2]);
    MlirValue q = bin(b, loc, "arith.ceildivsi", bin(b, loc, "arith.subi", i64[1], i64[0]), safe);
    return bin(b, loc, "arith.maxsi", q, lowerIndexConst(b, loc, 0));
  }
  MlirValue q = emitUnary(b, loc, "math.ceil", bin(b, loc, "arith.divf", bin(b, loc, "arith.subf", v[1], v[0]), v[2]));
  q = emitSelect(b, loc, emitCmpF(b, loc, CMPF_OGT, q, zero), q, zero);
  q = bin(b, loc, "arith.minimumf", q, emitConst(b, loc, et, 4611686018427387904.0));
  return emitConvert(b, loc, "arith.index_cast",
                     emitConvert(b, loc, "arith.fptosi", q, mlirIntegerTypeGet(b->ctx, 64)), index);
}

/* Pad: extent + begin + end, with nnInferPad's conditions checked at run
 * time: the result is not negative, edge/wrap/reflect have elements to
 * copy, reflect pads are smaller than the extent. */
static void padDims(Dims *c, int r, MlirValue *out) {
  StrataBuilder *b = c->b;
  MlirLocation loc = c->loc;
  MlirValue x = mlirOperationGetOperand(c->op, 0), pads = mlirOperationGetOperand(c->op, 1), zero = lowerIndexConst(b, loc, 0);
  char mode[16];
  nnAttrString(c->op, "mode", "constant", NULL, mode, sizeof mode);
  for (int d = 0; d < r; d++) {
    MlirValue n = lowerDimValue(b, loc, x, d), begin = shapeElement(c, pads, d), end = shapeElement(c, pads, r + d);
    out[d] = bin(b, loc, "arith.addi", bin(b, loc, "arith.addi", n, begin), end);
    MlirValue bad = emitCmpI(b, loc, CMPI_SLT, out[d], zero);
    if (strcmp(mode, "constant")) {
      MlirValue grows = bin(b, loc, "arith.ori", emitCmpI(b, loc, CMPI_SGT, begin, zero),
                            emitCmpI(b, loc, CMPI_SGT, end, zero));
      bad = bin(b, loc, "arith.ori", bad, bin(b, loc, "arith.andi", emitCmpI(b, loc, CMPI_EQ, n, zero), grows));
    }
    if (!strcmp(mode, "reflect"))
      bad = bin(b, loc, "arith.ori", bad, bin(b, loc, "arith.ori", emitCmpI(b, loc, CMPI_SGE, begin, n),
                                                   emitCmpI(b, loc, CMPI_SGE, end, n)));
    checkIf(c, bad, 5, 0, d, n, out[d]);
  }
}

/* Split: result i's offset and extent along the axis at run time. With
 * `split` sizes they are constants and the extent of the axis must be their
 * sum; without, chunks of ceil(extent / results), the last ones smaller
 * (nnSplitSizes). */
bool lowerSplitChunk(StrataBuilder *b, MlirOperation op, intptr_t i, MlirValue *offset, MlirValue *extent) {
  Dims c = {b, op, mlirOperationGetLocation(op), {NULL}, false};
  MlirValue x = mlirOperationGetOperand(op, 0);
  int outputs = (int)mlirOperationGetNumResults(op);
  int64_t axis = 0, sizes[64];
  nnAttrInt(op, "axis", 0, &axis);
  if (axis < 0) axis += lowerRank(x);
  if (outputs > 64 || !nnSplitSizes(op, NULL, -1, outputs, sizes)) return false;
  MlirValue d = lowerDimValue(b, c.loc, x, (int)axis);
  if (mlirOperationGetNumOperands(op) > 1 && sizes[0] < 0) { /* run-time sizes */
    MlirValue sizesV = mlirOperationGetOperand(op, 1), sum = lowerIndexConst(b, c.loc, 0);
    for (int k = 0; k < outputs; k++) {
      MlirValue e = shapeElement(&c, sizesV, k);
      if (k == i) *offset = sum, *extent = e;
      if (i == 0) check(&c, 3, 1, k, e, lowerIndexConst(b, c.loc, 0)); /* once per op */
      sum = bin(b, c.loc, "arith.addi", sum, e);
    }
    if (i == 0) check(&c, 8, 1, 0, sum, d);
    return !c.failed;
  }
  if (sizes[0] >= 0) { /* given sizes */
    int64_t sum = 0, before = 0;
    for (int k = 0; k < outputs; k++) sum += sizes[k], before += k < i ? sizes[k] : 0;
    if (i == 0) expectDim(&c, 0, (int)axis, lowerIndexConst(b, c.loc, sum)); /* once per op */
    *offset = lowerIndexConst(b, c.loc, before);
    *extent = lowerIndexConst(b, c.loc, sizes[i]);
    return !c.failed;
  }
  MlirValue chunk = bin(b, c.loc, "arith.ceildivsi", d, lowerIndexConst(b, c.loc, outputs));
  *offset = bin(b, c.loc, "arith.minsi", bin(b, c.loc, "arith.muli", chunk, lowerIndexConst(b, c.loc, i)), d);
  *extent = bin(b, c.loc, "arith.minsi", chunk, bin(b, c.loc, "arith.subi", d, *offset));
  return true;
}

/* Einsum: each subscript's extent is that of the operand dims it labels: a
 * static one other than 1 decides it, else the first dynamic one; every
 * other dynamic dim of the subscript must equal it (diagonals included),
 * and a static 1 broadcasts. The generic's loops, summed ones too, run to
 * these extents, so every subscript is checked, not only the result's. */
static void einsumDims(Dims *c, MlirValue *out) {
  NnEinsum e;
  if (!nnEinsumOf(c->op, &e, true)) {
    c->failed = true;
    return;
  }
  for (int l = 0; l < e.numLoops; l++) {
    MlirValue extent = e.extent[l] >= 0 ? lowerIndexConst(c->b, c->loc, e.extent[l]) : (MlirValue){NULL};
    for (int i = 0; i < e.numInputs && !extent.ptr; i++)
      for (int d = 0; d < e.rank[i] && !extent.ptr; d++) {
        MlirValue v = mlirOperationGetOperand(c->op, i);
        if (e.loop[i][d] == l && lowerDim(v, d) < 0) extent = lowerDimValue(c->b, c->loc, v, d);
      }
    if (!extent.ptr) extent = lowerIndexConst(c->b, c->loc, 1);
    bool first = e.extent[l] < 0; /* the dim extent came from: no check of itself */
    for (int i = 0; i < e.numInputs; i++)
      for (int d = 0; d < e.rank[i]; d++) {
        MlirValue v = mlirOperationGetOperand(c->op, i);
        if (e.loop[i][d] != l || lowerDim(v, d) >= 0) continue;
        if (first) first = false;
        else expectDim(c, i, d, extent);
      }
    if (l < e.outRank) out[l] = extent;
  }
}

bool lowerResultDims(StrataBuilder *b, MlirOperation op, intptr_t i, MlirValue *out) {
  Dims c = {b, op, mlirOperationGetLocation(op), {NULL}, false};
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, i));
  int r = (int)mlirShapedTypeGetRank(rt);
  MlirValue x = mlirOperationGetOperand(op, 0);
  Rule rule = ruleOf(op);
  for (int d = 0; d < r; d++) out[d] = (MlirValue){NULL};
  /* nothing dynamic: the verifier has checked every extent (but not
   * run-time axes, which a static result can still have: squeezing 1s) */
  bool runtimeAxes = rule == R_RESHAPE && !strataOpIsNamed(op, "nn.reshape") && mlirOperationGetNumOperands(op) > 1;
  if (rule == R_SHAPE ||
      (mlirShapedTypeHasStaticShape(rt) && (rule == R_NONE || (!lowerHasDynamicDims(op) && !runtimeAxes)))) {
    for (int d = 0; d < r; d++) out[d] = lowerIndexConst(b, c.loc, mlirShapedTypeGetDimSize(rt, d));
    return true;
  }
  /* A static result still runs its rule: the operands' dynamic dims must
   * agree with it at run time. */
  switch (rule) {
  case R_ELEMENTWISE:
    broadcastDims(&c, 0, (int)mlirOperationGetNumOperands(op) - 1, r, 0, out, rt, 0);
    break;
  case R_SAME:
    for (int d = 0; d < r; d++) out[d] = lowerDimValue(b, c.loc, x, d);
    sameShapeOperands(&c);
    break;
  case R_WINDOW:
    windowDims(&c, rt, out);
    break;
  case R_GLOBAL:
    for (int d = 0; d < r; d++) out[d] = d < 2 ? lowerDimValue(b, c.loc, x, d) : lowerIndexConst(b, c.loc, 1);
    break;
  case R_REDUCE: {
    bool mask[STRATA_MAX_RANK], identity;
    if (!nnReduceAxes(op, NULL, lowerRank(x), mask, &identity)) return false;
    int at = 0;
    for (int d = 0; d < lowerRank(x); d++) {
      if (r == lowerRank(x)) out[at++] = mask[d] ? lowerIndexConst(b, c.loc, 1) : lowerDimValue(b, c.loc, x, d);
      else if (!mask[d]) out[at++] = lowerDimValue(b, c.loc, x, d);
    }
    break;
  }
  case R_MATMUL:
    matmulDims(&c, rt, out);
    break;
  case R_GEMM:
    gemmDims(&c, out);
    break;
  case R_TRANSPOSE: {
    int64_t perm[STRATA_MAX_RANK];
    int n = strataGetI64Array(op, "perm", perm, STRATA_MAX_RANK);
    for (int d = 0; d < r; d++) out[d] = lowerDimValue(b, c.loc, x, n == r ? (int)perm[d] : r - 1 - d);
    break;
  }
  case R_RESHAPE:
    reshapeDims(&c, rt, out);
    break;
  case R_GATHER: {
    MlirValue ind = mlirOperationGetOperand(op, 1);
    int64_t axis = 0;
    nnAttrInt(op, "axis", 0, &axis);
    if (axis < 0) axis += lowerRank(x);
    int at = 0;
    for (int d = 0; d < axis; d++) out[at++] = lowerDimValue(b, c.loc, x, d);
    for (int d = 0; d < lowerRank(ind); d++) out[at++] = lowerDimValue(b, c.loc, ind, d);
    for (int d = (int)axis + 1; d < lowerRank(x); d++) out[at++] = lowerDimValue(b, c.loc, x, d);
    break;
  }
  case R_CONCAT:
    concatDims(&c, r, out);
    break;
  case R_EXPAND:
    expandDims(&c, r, out);
    break;
  case R_TILE:
    tileDims(&c, r, out);
    break;
  case R_RANGE:
    out[0] = rangeCount(&c);
    break;
  case R_FILLED:
    for (int d = 0; d < r; d++) {
      out[d] = shapeElement(&c, x, d);
      check(&c, 3, 0, d, out[d], lowerIndexConst(b, c.loc, 0));
    }
    break;
  case R_PAD:
    padDims(&c, r, out);
    break;
  case R_SIZED:
    out[0] = emitConvert(b, c.loc, "arith.index_cast", linalgExtract(b, c.loc, x, NULL, 0), strataIndexType(b->ctx));
    check(&c, 3, 0, 0, out[0], lowerIndexConst(b, c.loc, 0));
    break;
  case R_SPLIT: {
    int64_t axis = 0;
    MlirValue offset;
    nnAttrInt(op, "axis", 0, &axis);
    if (axis < 0) axis += r;
    for (int d = 0; d < r; d++) out[d] = lowerDimValue(b, c.loc, x, d);
    if (!lowerSplitChunk(b, op, i, &offset, &out[axis])) return false;
    break;
  }
  case R_TOPK: {
    int64_t axis = -1;
    nnAttrInt(op, "axis", -1, &axis);
    if (axis < 0) axis += r;
    MlirValue k = shapeElement(&c, mlirOperationGetOperand(op, 1), 0), extent = lowerDimValue(b, c.loc, x, (int)axis);
    MlirValue outside = bin(b, c.loc, "arith.ori", emitCmpI(b, c.loc, CMPI_SLT, k, lowerIndexConst(b, c.loc, 0)),
                            emitCmpI(b, c.loc, CMPI_SGT, k, extent));
    checkIf(&c, outside, 9, 1, 0, k, extent);
    for (int d = 0; d < r; d++) out[d] = d == axis ? k : lowerDimValue(b, c.loc, x, d);
    break;
  }
  case R_ARG: {
    int64_t axis = attrAxis(op, "axis", 0, lowerRank(x)), keep = 1;
    nnAttrInt(op, "keepdims", 1, &keep);
    int at = 0;
    for (int d = 0; d < lowerRank(x); d++)
      if (d != axis) out[at++] = lowerDimValue(b, c.loc, x, d);
      else if (keep) out[at++] = lowerIndexConst(b, c.loc, 1);
    break;
  }
  case R_BLOCKS: {
    int64_t bs = 1;
    nnAttrInt(op, "blocksize", 1, &bs);
    bool toSpace = strataOpIsNamed(op, "nn.depth_to_space");
    MlirValue block = lowerIndexConst(b, c.loc, bs);
    out[0] = lowerDimValue(b, c.loc, x, 0);
    out[1] = lowerIndexConst(b, c.loc, toSpace ? lowerDim(x, 1) / (bs * bs) : lowerDim(x, 1) * bs * bs);
    for (int d = 2; d < 4; d++) {
      MlirValue e = lowerDimValue(b, c.loc, x, d);
      if (toSpace) {
        out[d] = bin(b, c.loc, "arith.muli", e, block);
        continue;
      }
      MlirValue rest = bin(b, c.loc, "arith.remsi", e, block);
      checkIf(&c, emitCmpI(b, c.loc, CMPI_NE, rest, lowerIndexConst(b, c.loc, 0)), 17, 0, d, e, block);
      out[d] = bin(b, c.loc, "arith.divsi", e, block);
    }
    break;
  }
  case R_ELEMENTS: {
    MlirValue ind = mlirOperationGetOperand(op, 1);
    int64_t axis = attrAxis(op, "axis", 0, lowerRank(x));
    for (int d = 0; d < r; d++) {
      out[d] = lowerDimValue(b, c.loc, ind, d);
      if (d != axis) sameExtent(&c, 1, d, 0, d, true);
    }
    break;
  }
  case R_EINSUM:
    einsumDims(&c, out);
    break;
  case R_RECURRENT:
    if (!lowerRnnDims(b, op, i, &c.site, out)) return false;
    break;
  case R_SLICE: /* no result dims: its lowering computes them */
  case R_COUNTED:
  case R_SHAPE:
  case R_NONE: {
    const char *why;
    lowerDynamicSupported(op, &why);
    strataEmitError(c.loc, "dynamic dims: %s", why);
    return false;
  }
  }
  /* a dim the result type makes static stays that constant */
  for (int d = 0; d < r; d++)
    if (mlirShapedTypeGetDimSize(rt, d) >= 0) {
      MlirValue s = lowerIndexConst(b, c.loc, mlirShapedTypeGetDimSize(rt, d));
      if (out[d].ptr && rule != R_ELEMENTWISE) check(&c, 0, 0, d, out[d], s);
      out[d] = s;
    }
  return !c.failed;
}

MlirValue lowerInitDims(StrataBuilder *b, MlirLocation loc, MlirType t, const MlirValue *dims, double v) {
  if (mlirShapedTypeHasStaticShape(t)) return linalgSplatConstant(b, loc, t, v);
  return lowerFillDims(b, loc, t, dims, emitConst(b, loc, mlirShapedTypeGetElementType(t), v));
}

MlirValue lowerFillDims(StrataBuilder *b, MlirLocation loc, MlirType t, const MlirValue *dims, MlirValue scalar) {
  MlirValue empty = lowerEmptyTensor(b, loc, t, dims);
  MlirType et = mlirShapedTypeGetElementType(t);
  MlirOperation fill = strataCreateOp(b, "linalg.fill", loc, .operands = STRATA_VALUES(scalar, empty),
                                      .results = STRATA_TYPES(t), .numRegions = 1,
                                      .attrs = STRATA_ATTRS({"operandSegmentSizes",
                                                             mlirDenseI32ArrayGet(b->ctx, 2, (int32_t[]){1, 1})}));
  MlirBlock body = strataAddBlock(fill, 0, STRATA_TYPES(et, et), loc);
  StrataBuilder in = strataBuilderAtEnd(b->ctx, body);
  strataCreateOp(&in, "linalg.yield", loc, .operands = STRATA_VALUES(mlirBlockGetArgument(body, 0)));
  return strataResult(fill, 0);
}

MlirValue lowerResultInit(StrataBuilder *b, MlirOperation op, intptr_t i, double v) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, i));
  MlirLocation loc = mlirOperationGetLocation(op);
  if (mlirShapedTypeHasStaticShape(t) && !lowerHasDynamicDims(op)) return linalgSplatConstant(b, loc, t, v);
  MlirValue dims[STRATA_MAX_RANK];
  if (!lowerResultDims(b, op, i, dims)) return (MlirValue){NULL};
  return lowerInitDims(b, loc, t, dims, v);
}

MlirValue lowerResultEmpty(StrataBuilder *b, MlirOperation op, intptr_t i) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, i));
  MlirValue dims[STRATA_MAX_RANK] = {{NULL}};
  if (!(mlirShapedTypeHasStaticShape(t) && !lowerHasDynamicDims(op)) && !lowerResultDims(b, op, i, dims))
    return (MlirValue){NULL};
  return lowerEmptyTensor(b, mlirOperationGetLocation(op), t, dims);
}

MlirValue lowerGenerateChecked(StrataBuilder *b, MlirOperation op, MlirValue *site, int operand, MlirValue *out,
                               LinalgBodyFn body, void *user) {
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirType t = lowerResultType(op, 0);
  int rank = (int)mlirShapedTypeGetRank(t);
  for (int d = 0; d < rank; d++) /* a static result extent must be what the values give */
    if (mlirShapedTypeGetDimSize(t, d) >= 0) {
      MlirValue want = lowerIndexConst(b, loc, mlirShapedTypeGetDimSize(t, d));
      if (!lowerCheck(b, op, site, emitCmpI(b, loc, CMPI_NE, out[d], want), 0, operand, d, out[d], want))
        return (MlirValue){NULL};
      out[d] = want;
    }
  char id[256], its[STRATA_MAX_RANK + 1];
  lowerIdentityMap(id, sizeof id, rank);
  lowerParallelIterators(its, rank);
  const char *maps[] = {id};
  MlirValue init = lowerEmptyTensor(b, loc, t, out); /* every element is written */
  return linalgBuildGeneric(b, loc, (StrataValueList){NULL, 0}, init, maps, its, body, user);
}

MlirValue lowerReshapeTo(StrataBuilder *b, MlirLocation loc, MlirValue v, MlirType t, const MlirValue *dims) {
  if (mlirShapedTypeHasStaticShape(t) && mlirShapedTypeHasStaticShape(mlirValueGetType(v)))
    return linalgReshape(b, loc, v, t);
  int r = (int)mlirShapedTypeGetRank(t);
  MlirType index = strataIndexType(b->ctx);
  MlirValue shape = strataResult(strataCreateOp(b, "tensor.from_elements", loc, .operands = {dims, r},
                                                .results = STRATA_TYPES(strataTensorType(index, 1, (int64_t[]){r}))),
                                 0);
  return strataResult(
      strataCreateOp(b, "tensor.reshape", loc, .operands = STRATA_VALUES(v, shape), .results = STRATA_TYPES(t)), 0);
}
