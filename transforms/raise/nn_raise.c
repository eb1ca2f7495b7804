/* --nn-raise: recognizes operators that exporters decompose into chains of
 * primitive ops and rewrites each chain into the one nn op it computes, so
 * that code generation sees the operator (one kernel, one pass over the
 * data) instead of a chain of reductions and element-wise ops.
 *
 * Layer normalization, as PyTorch exports it below opset 17 (and as most
 * hand-written graphs spell it):
 *   m = ReduceMean(X, axes)          (keepdims)
 *   d = Sub(X, m)
 *   p = Pow(d, 2) | Mul(d, d)
 *   v = ReduceMean(p, axes)          (keepdims)
 *   s = Sqrt(Add(v, eps))            (eps a one-element constant)
 *   n = Div(d, s)
 *   y = Add(Mul(n, scale), bias)     (each optional)
 * where axes are the trailing dims [a, rank), becomes
 *   y = nn.layer_normalization(X, scale, bias) {axis = a, epsilon = eps}
 * (scale = ones when the chain has none). It fires only when every
 * intermediate has no user outside the chain (d: the power and the
 * division), scale and bias broadcast over the normalized dims only, and
 * the result keeps X's type: anything else would duplicate work or change
 * what another user sees.
 *
 * GELU's two spellings become nn.gelu (gelu.c, which says which forms).
 *
 * Instrumented chains (docs/instrument.md): a probe of the `profile` tool
 * reads no value (it times an op), so the chain is matched through chains
 * of profile probes, and they stay: the first op's (the ReduceMean's)
 * "before" probes before the raised op, which reads X under them; every
 * other probe of the chain's ops after it, in its original order, reading
 * its result. Any other probe (trace, dump, a user tool's) reads an
 * intermediate value and stops the raise. */
#include <math.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/instrument.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/support.h"
#include "nn_internal.h"
#include "raise_internal.h"


/* ---- Profile probes between the chain's ops ---- */

enum { MAX_PROBES = 64 }; /* a chain of 9 ops has 18 with one profile tool */

/* The profile probes of the chain's ops that move after the raised op. */
typedef struct {
  MlirOperation op[MAX_PROBES];
  int n;
  bool full;
} ProbeList;

static void addProbe(ProbeList *l, MlirOperation p) {
  for (int i = 0; i < l->n; i++)
    if (mlirOperationEqual(l->op[i], p)) return;
  if (l->n == MAX_PROBES) l->full = true;
  else l->op[l->n++] = p;
}

static void addProbes(ProbeList *to, const ProbeList *from) {
  for (int i = 0; i < from->n; i++) addProbe(to, from->op[i]);
  to->full |= from->full;
}

/* `v` under the profile probes that pass it on. */
static MlirValue throughProbes(MlirValue v) { return strataInstrThroughProbes(v, "profile"); }

/* Operand #i of `op` under `op`'s own profile probes ("before" point, its
 * op_id, read by nothing else), which go into `probes` when non-null. A
 * probe of another op (the "after" probe of X's producer) stays above. */
static MlirValue underOwnProbes(MlirOperation op, intptr_t i, ProbeList *probes) {
  MlirValue v = mlirOperationGetOperand(op, i);
  for (MlirOperation p = raiseProducer(v); strataInstrIsProbeOf(p, "profile", "before", op); p = raiseProducer(v)) {
    if (!mlirOpOperandIsNull(mlirOpOperandGetNextUse(mlirValueGetFirstUse(v)))) break;
    if (probes) addProbe(probes, p);
    v = mlirOperationGetOperand(p, 0);
  }
  return v;
}

/* The uses of `v` by ops other than profile probes, followed through
 * profile probes (a probe's result may have several readers, as the
 * centered value's "after" probe does); the probes go into `probes`, the
 * last such user into *user. -1 when `probes` is full. */
static int usesThroughProbes(MlirValue v, ProbeList *probes, MlirOperation *user) {
  int n = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation owner = mlirOpOperandGetOwner(u);
    if (!strataInstrIsProbe(owner, "profile")) {
      n++;
      if (user) *user = owner;
      continue;
    }
    addProbe(probes, owner);
    int k = probes->full ? -1 : usesThroughProbes(mlirOperationGetResult(owner, 0), probes, user);
    if (k < 0) return -1;
    n += k;
  }
  return n;
}

/* The one op that uses `v` (through profile probes, collected in `probes`). */
static MlirOperation soleUserThroughProbes(MlirValue v, ProbeList *probes) {
  MlirOperation user = {NULL};
  return usesThroughProbes(v, probes, &user) == 1 ? user : (MlirOperation){NULL};
}


/* A keepdims ReduceMean of `x` (through profile probes) over trailing axes
 * [a, rank): returns a. */
static int trailingMean(MlirOperation op, MlirValue x) {
  if (!raiseIsOp(op, "nn.reduce_mean") || mlirOperationGetNumOperands(op) != 1 ||
      !mlirValueEqual(throughProbes(mlirOperationGetOperand(op, 0)), throughProbes(x)))
    return -1;
  int64_t keep;
  MlirType t = mlirValueGetType(x);
  if (!mlirTypeIsARankedTensor(t) || !nnAttrInt(op, "keepdims", 1, &keep) || keep != 1) return -1;
  int rank = (int)mlirShapedTypeGetRank(t);
  bool mask[STRATA_MAX_RANK], identity;
  if (rank < 1 || rank > STRATA_MAX_RANK || !nnReduceAxes(op, NULL, rank, mask, &identity) || identity) return -1;
  int a = rank;
  while (a > 0 && mask[a - 1]) a--;
  for (int d = 0; d < a; d++)
    if (mask[d]) return -1;
  return a < rank ? a : -1;
}

/* The index of the other operand of a binary op, when `v` is one of its
 * two (through profile probes); -1 if not. */
static int otherOperand(MlirOperation op, MlirValue v) {
  if (mlirOperationGetNumOperands(op) != 2) return -1;
  if (mlirValueEqual(throughProbes(mlirOperationGetOperand(op, 0)), v)) return 1;
  if (mlirValueEqual(throughProbes(mlirOperationGetOperand(op, 1)), v)) return 0;
  return -1;
}

/* A scale or bias: it broadcasts over the normalized dims [a, rank) of x
 * only (rank at most rank - a, each dim equal or 1), and the op applying
 * it keeps x's type. */
static bool affineParam(MlirOperation op, MlirValue param, MlirType xt, int a) {
  if (!mlirTypeEqual(mlirValueGetType(raiseResult(op)), xt)) return false;
  MlirType pt = mlirValueGetType(param);
  if (!mlirTypeIsARankedTensor(pt) || !mlirTypeEqual(mlirShapedTypeGetElementType(pt),
                                                      mlirShapedTypeGetElementType(xt)))
    return false;
  int rank = (int)mlirShapedTypeGetRank(xt), pr = (int)mlirShapedTypeGetRank(pt);
  if (pr > rank - a) return false;
  for (int i = 0; i < pr; i++) {
    int64_t pd = mlirShapedTypeGetDimSize(pt, i), xd = mlirShapedTypeGetDimSize(xt, rank - pr + i);
    if (pd != 1 && pd != xd) return false;
  }
  return true;
}

#define FAIL return mlirLogicalResultFailure()

/* Ones over the normalized dims [a, rank) of xt (f32, static), when the
 * chain has no scale; NULL value if that is not possible. */
static MlirValue onesScale(StrataBuilder *b, MlirLocation loc, MlirType xt, int a) {
  int rank = (int)mlirShapedTypeGetRank(xt);
  int64_t dims[STRATA_MAX_RANK];
  MlirType et = mlirShapedTypeGetElementType(xt);
  if (!mlirTypeIsAF32(et)) return (MlirValue){NULL};
  for (int i = a; i < rank; i++) {
    dims[i - a] = mlirShapedTypeGetDimSize(xt, i);
    if (mlirShapedTypeIsDynamicSize(dims[i - a])) return (MlirValue){NULL};
  }
  MlirType st = mlirRankedTensorTypeGet(rank - a, dims, et, mlirAttributeGetNull());
  return strataResult(strataCreateOp(b, "nn.constant", loc, .results = STRATA_TYPES(st),
                                     .attrs = STRATA_ATTRS({"value", mlirDenseElementsAttrFloatSplatGet(st, 1.0f)})),
                      0);
}

/* Orders `ops` (all in one block) as the block does. */
static void sortInBlock(MlirOperation *ops, int n) {
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && mlirOperationIsBeforeInBlock(ops[j], ops[j - 1]); j--) {
      MlirOperation t = ops[j];
      ops[j] = ops[j - 1];
      ops[j - 1] = t;
    }
}

/* A copy of profile probe `probe` reading `v`, inserted before `at`. */
static MlirValue reprobe(StrataRewrite *rw, MlirOperation probe, MlirValue v, MlirOperation at) {
  mlirRewriterBaseSetInsertionPointBefore(rw->rewriter, at);
  MlirOperation p = mlirRewriterBaseClone(rw->rewriter, probe);
  mlirRewriterBaseStartOpModification(rw->rewriter, p);
  mlirOperationSetOperand(p, 0, v);
  mlirValueSetType(raiseResult(p), mlirValueGetType(v));
  mlirRewriterBaseFinalizeOpModification(rw->rewriter, p);
  return raiseResult(p);
}

/* Rooted at the Div n = d / s. Every edge of the chain is followed through
 * profile probes; `moved` collects them (all but the ReduceMean's own). */
static MlirLogicalResult raiseLayerNorm(StrataRewrite *rw, MlirOperation div, void *user) {
  (void)user;
  ProbeList moved = {.n = 0};
  MlirValue d = throughProbes(mlirOperationGetOperand(div, 0)), s = throughProbes(mlirOperationGetOperand(div, 1));
  MlirOperation sub = raiseProducer(d), sqrt = raiseProducer(s);
  if (!raiseIsOp(sub, "nn.sub") || !raiseIsOp(sqrt, "nn.sqrt") || usesThroughProbes(s, &moved, NULL) != 1) FAIL;
  MlirValue x = underOwnProbes(sub, 0, &moved), mv = throughProbes(mlirOperationGetOperand(sub, 1));
  MlirType xt = mlirValueGetType(x);
  MlirOperation mean = raiseProducer(mv);
  int a = trailingMean(mean, x);
  if (a < 0 || usesThroughProbes(mv, &moved, NULL) != 1 || !mlirTypeEqual(mlirValueGetType(d), xt) ||
      !mlirTypeEqual(mlirValueGetType(raiseResult(div)), xt))
    FAIL;
  /* s = Sqrt(Add(v, eps)), v = ReduceMean(d^2) over the same axes. */
  MlirOperation addEps = raiseProducer(throughProbes(mlirOperationGetOperand(sqrt, 0)));
  if (!raiseIsOp(addEps, "nn.add") || mlirOperationGetNumOperands(addEps) != 2 ||
      usesThroughProbes(raiseResult(addEps), &moved, NULL) != 1)
    FAIL;
  double eps, two;
  int epsAt = strataScalarConstant(underOwnProbes(addEps, 1, NULL), &eps) ? 1 : 0;
  MlirValue vv = throughProbes(mlirOperationGetOperand(addEps, 1 - epsAt));
  MlirOperation var = raiseProducer(vv);
  if (!strataScalarConstant(underOwnProbes(addEps, epsAt, &moved), &eps) || !raiseIsOp(var, "nn.reduce_mean") ||
      usesThroughProbes(vv, &moved, NULL) != 1)
    FAIL;
  MlirValue p = throughProbes(mlirOperationGetOperand(var, 0));
  MlirOperation sq = raiseProducer(p);
  if (mlirOperationIsNull(sq) || trailingMean(var, p) != a || usesThroughProbes(p, &moved, NULL) != 1) FAIL;
  bool square = raiseIsOp(sq, "nn.mul") && mlirValueEqual(throughProbes(mlirOperationGetOperand(sq, 0)), d) &&
                mlirValueEqual(throughProbes(mlirOperationGetOperand(sq, 1)), d);
  bool power = raiseIsOp(sq, "nn.pow") && mlirValueEqual(throughProbes(mlirOperationGetOperand(sq, 0)), d) &&
               strataScalarConstant(underOwnProbes(sq, 1, &moved), &two) && two == 2.0;
  /* d's uses: the square (Mul(d, d) counts twice) and the Div, no other. */
  int dUses = usesThroughProbes(d, &moved, NULL);
  if (!(power && dUses == 2) && !(square && dUses == 3)) FAIL;
  /* The affine part after the Div; its probes move only if it is taken. */
  ProbeList afterDiv = {.n = 0}, afterMul = {.n = 0};
  MlirOperation last = div, mul = soleUserThroughProbes(raiseResult(div), &afterDiv);
  MlirValue scale = {NULL}, bias = {NULL};
  int at = raiseIsOp(mul, "nn.mul") ? otherOperand(mul, raiseResult(div)) : -1;
  if (at >= 0 && affineParam(mul, scale = underOwnProbes(mul, at, &afterDiv), xt, a)) {
    addProbes(&moved, &afterDiv);
    last = mul;
    MlirOperation add = soleUserThroughProbes(raiseResult(mul), &afterMul);
    at = raiseIsOp(add, "nn.add") ? otherOperand(add, raiseResult(mul)) : -1;
    if (at >= 0 && affineParam(add, bias = underOwnProbes(add, at, &afterMul), xt, a)) {
      addProbes(&moved, &afterMul);
      last = add;
    } else {
      bias = (MlirValue){NULL};
    }
  } else {
    scale = (MlirValue){NULL};
  }
  /* The rest of the chain and the moved probes, all in last's block. */
  MlirOperation dead[MAX_PROBES + 8];
  int n = 0;
  MlirOperation chain[] = {mean, sub, sq, var, addEps, sqrt, div, mul};
  for (int i = 0; i < 8 && !mlirOperationEqual(chain[i], last); i++) dead[n++] = chain[i];
  if (moved.full) FAIL;
  sortInBlock(moved.op, moved.n);
  for (int i = 0; i < moved.n; i++) dead[n++] = moved.op[i];
  MlirBlock block = mlirOperationGetBlock(last);
  for (int i = 0; i < n; i++)
    if (!mlirBlockEqual(mlirOperationGetBlock(dead[i]), block)) FAIL;

  MlirLocation loc = mlirOperationGetLocation(last);
  StrataBuilder b = strataBuilderBefore(last, rw->rewriter);
  if (!scale.ptr && !(scale = onesScale(&b, loc, xt, a)).ptr) FAIL;
  MlirContext ctx = mlirOperationGetContext(div);
  /* X as the ReduceMean reads it: under its "before" probes, which stay */
  MlirValue operands[3] = {mlirOperationGetOperand(mean, 0), scale, bias};
  MlirOperation ln = strataCreateOp(
      &b, "nn.layer_normalization", loc, .operands = {operands, bias.ptr ? 3 : 2}, .results = STRATA_TYPES(xt),
      .attrs = STRATA_ATTRS({"axis", strataI64Attr(ctx, a)},
                            {"epsilon", mlirFloatAttrDoubleGet(ctx, mlirF32TypeGet(ctx), eps)}));
  /* The chain's other probes after it, in their order, each reading the
   * one before: every op of the chain is still seen once per point. */
  MlirValue y = strataResult(ln, 0);
  for (int i = 0; i < moved.n; i++) y = reprobe(rw, moved.op[i], y, last);
  strataReplaceOp(rw, last, STRATA_VALUES(y));
  /* Readers before what they read: erase from the block's end. */
  sortInBlock(dead, n);
  for (int i = n - 1; i >= 0; i--) strataEraseOp(rw, dead[i]);
  return mlirLogicalResultSuccess();
}

static void runNnRaise(StrataPassRun *run, MlirOperation root) {
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(root));
  strataPatternSetAdd(set, "nn.div", 1, raiseLayerNorm, NULL);
  strataNnRaiseAddGelu(set);
  StrataGreedyConfig cfg = {0, true, false};
  if (mlirLogicalResultIsFailure(strataApplyPatternsGreedily(set, root, &cfg))) strataPassSignalFailure(run);
  strataPatternSetDestroy(set);
}

const StrataPassDef strataNnRaisePass = {
    .name = "nn-raise",
    .summary = "Recognize decomposed operators (layer normalization as ReduceMean/Sub/Pow/"
               "ReduceMean/Add/Sqrt/Div[/Mul/Add]; GELU's erf and tanh forms) and rewrite them into the nn op",
    .anchor = "func.func",
    .run = runNnRaise,
};
