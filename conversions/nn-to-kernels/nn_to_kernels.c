/* --nn-to-kernels: f32 nn.conv (1-2 spatial dims), nn.matmul, nn.gemm,
 * nn.softmax, nn.log_softmax, nn.max_pool (one result), nn.average_pool
 * (1-2 spatial dims, at most 64 window positions),
 * nn.layer_normalization with static shapes, and global pooling
 * (nn.global_average_pool, nn.global_max_pool, nn.reduce_mean/max over
 * exactly the spatial dims of a 4-D or higher input) and nn.resize of its
 * last two dims, of static shape, become calls to the libstrata_rt kernels
 * (runtime/kernels.h); conv/matmul/gemm absorb the epilogue that follows when
 * it is the only user: up to two adds whose other operand broadcasts to
 * the result (bias, residual; of dynamic type too, its extents checked at
 * run time: kernel_dims.c), then nn.relu or nn.clip; matmul/gemm also
 * a Mul or Div by a scalar constant (into alpha) and, before any addend,
 * a Transpose of the last two dims (computed as B^T A^T); the probes of the
 * `profile` tool in between do not count as users (they move after the
 * call). A 1x1 group-1 conv also absorbs the Mul of its input by a
 * [N or 1, C, 1, 1] gate before it (squeeze-and-excitation), which the
 * kernel applies while it packs the input. Tensors cross the
 * call as unranked memrefs (bufferization.to_buffer / to_tensor), so
 * One-Shot Bufferize plans the buffers around the call. The quantized ops
 * (integer matmul/conv, QLinear matmul/conv) go to the integer GEMM:
 * nn_to_kernels_q.c. Other dtypes and 3-D convolutions are left to
 * --nn-to-linalg. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Bufferization.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/Dialect/Tensor.h"
#include "strata/builder.h"
#include "strata/instrument.h"
#include "strata/nn.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/support.h"
#include "nn_internal.h"
#include "nn_movement_params.h"
#include "lower_helpers.h"
#include "nn_to_kernels.h"
#include "kernels.h" /* STRATA_RT_ACT_* */

#define MATMUL_FN "strata_rt_matmul_f32"
/* The call of a matmul tagged strata.few_rows (the few-rows version
 * nn-multiversion made): the runtime's GEMM for at most 8 rows. */
#define MATMUL_FEW_ROWS_FN "strata_rt_matmul_few_rows_f32"
#define CONV_FN "strata_rt_conv2d_f32"
#define SOFTMAX_FN "strata_rt_softmax_f32"
#define POOL_FN "strata_rt_pool2d_f32"
#define LAYERNORM_FN "strata_rt_layernorm_f32"
#define GLOBAL_POOL_FN "strata_rt_global_pool_f32"
#define RESIZE_FN "strata_rt_resize2d_f32"
/* A ranked f32 tensor whose static dims are non-zero; its dynamic dims
 * (issue 19) are read from the memref descriptors at run time, and the
 * compiled code checks that they agree (lowerResultDims) before the call. */
static bool shapedF32(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsARankedTensor(t) || !mlirTypeIsAF32(mlirShapedTypeGetElementType(t))) return false;
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); i++)
    if (mlirShapedTypeGetDimSize(t, i) == 0) return false;
  return true;
}

/* The same, of static shape: weights, biases and scales, whose shapes the
 * kernels take on trust. */
static bool staticF32(MlirValue v) {
  return shapedF32(v) && mlirShapedTypeHasStaticShape(mlirValueGetType(v));
}

/* Dim d of t, -1 when dynamic (the window arithmetic's unknown extent). */
static int64_t nnDimOrUnknown(MlirType t, intptr_t d) {
  return mlirShapedTypeIsDynamicDim(t, d) ? -1 : mlirShapedTypeGetDimSize(t, d);
}

/* Window ops with dynamic dims take explicit pads only (SAME pads depend
 * on the run-time extent). */
static bool windowPadsFixed(MlirOperation op) {
  if (!lowerHasDynamicDims(op)) return true;
  char pad[16];
  return nnAttrString(op, "auto_pad", "NOTSET", "NOTSET|SAME_UPPER|SAME_LOWER|VALID", pad, sizeof pad) &&
         !strcmp(pad, "NOTSET");
}

static bool globalPoolForm(MlirOperation op);
static bool resizeForm(MlirOperation op, NnResize *r, double *scales);

bool strataNnToKernelsCandidate(MlirOperation op) {
  static const char *const kNames[] = {"nn.conv", "nn.matmul", "nn.gemm", "nn.softmax",
                                       "nn.log_softmax", "nn.max_pool", "nn.average_pool",
                                       "nn.layer_normalization"};
  bool named = false;
  for (size_t i = 0; i < sizeof kNames / sizeof kNames[0] && !named; i++)
    named = strataOpIsNamed(op, kNames[i]);
  NnResize r;
  double scales[STRATA_MAX_RANK];
  return (named && mlirOperationGetNumResults(op) == 1 && shapedF32(mlirOperationGetResult(op, 0))) ||
         globalPoolForm(op) || resizeForm(op, &r, scales);
}

/* ---- Instrumentation probes (instr.probe, docs/instrument.md) ----
 * A probe passes its operand through unchanged. A probe of the `profile`
 * tool reads no value at all (it times an op), so an epilogue is absorbed
 * across it: the probes between the kernel op and the last absorbed op
 * move after the fused call. A probe that reads the value (trace, dump, a
 * user tool's) stops the epilogue: it must observe the unfused result. */
static MlirOperation definingOp(MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
}

/* A compile-time constant (a weight): the kernels may cache its packed form.
 * Seen through probes: after instr-to-runtime the kernel reads the
 * constant's own buffer. */
bool strataNnToKernelsIsConstant(MlirValue v) {
  v = strataInstrThroughProbes(v, NULL);
  if (!mlirValueIsAOpResult(v)) return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  return strataOpIsNamed(def, "nn.constant") || strataOpIsNamed(def, "arith.constant");
}

bool strataNnToKernelsAbsorbsPrologue(MlirOperation producer, MlirOperation kernelOp) {
  if (!strataOpIsNamed(producer, "nn.transpose") || mlirOperationGetNumResults(producer) != 1 ||
      (!strataOpIsNamed(kernelOp, "nn.matmul") && !strataOpIsNamed(kernelOp, "nn.gemm")) ||
      !shapedF32(mlirOperationGetOperand(producer, 0)))
    return false;
  MlirOpOperand use = mlirValueGetFirstUse(mlirOperationGetResult(producer, 0));
  return mlirOperationEqual(lowerSoleUser(mlirOperationGetResult(producer, 0)), kernelOp) &&
         mlirOpOperandGetOperandNumber(use) < 2;
}

/* The permutation of an nn.transpose (absent: reversed dims); false if
 * malformed. */
static bool transposePerm(MlirOperation t, int64_t *perm) {
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(mlirOperationGetOperand(t, 0)));
  int n = strataGetI64Array(t, "perm", perm, STRATA_MAX_RANK);
  if (n == -1)
    for (intptr_t d = 0; d < rank; d++) perm[d] = rank - 1 - d, n = (int)rank;
  return n == rank;
}

enum { MAX_CHAIN = 4, MAX_ADDEND_PROBES = 2 }; /* profile probes per absorbed op */
enum { MAX_ABSORBED = 6 };

typedef struct {
  MlirValue add[2];
  double beta[2];
  int nadd;
  /* the op and operand each addend comes from, for its run-time extent
   * checks (kernelsCheckAddend): an absorbed add, or the root for gemm's
   * C; null for the conv's bias (static, along its static channel dim) */
  MlirOperation addOp[2];
  int addOperand[2];
  int64_t act; /* STRATA_RT_ACT_* of runtime/kernels.h */
  double lo, hi;
  MlirOperation last;      /* the op whose result the call replaces */
  MlirOperation absorbed[MAX_ABSORBED];
  int numAbsorbed;
  /* profile probes of the kernel op's and the absorbed ops' intermediate
   * points, in program order: they move after the call (emitCall) */
  MlirOperation probes[MAX_ABSORBED * (MAX_CHAIN + MAX_ADDEND_PROBES)];
  int numProbes;
  /* Set by matmul/gemm: a scalar Mul/Div scales alpha (and the betas so
   * far); a Transpose of the last two dims is absorbed by computing
   * B^T A^T (only before any addend, whose layout would be the
   * untransposed one). */
  bool scalable, transposable;
  double scale;
  bool transposed;
  /* Set by conv: the call has an input-scale slot (strata_rt_conv2d_f32's
   * xscale, aliasing the result when there is no scale); `xscale` is the
   * gate of a Mul absorbed before the conv (absorbInputScale). */
  bool scaleSlot;
  MlirValue xscale;
  MlirOperation scaleMul;
} Epilogue;

/* The pass's state, the patterns' user data. */
typedef struct {
  MlirOperation module;
  bool epilogues; /* option: absorb epilogues (fixed-pattern fusion) */
  bool failed;    /* a located error was emitted */
} KernelsRun;

/* An nn.transpose exchanging the last two dims and keeping the others. */
static bool swapsLastTwo(MlirOperation op) {
  if (!strataOpIsNamed(op, "nn.transpose")) return false;
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
  if (!mlirTypeIsARankedTensor(t)) return false;
  int64_t rank = mlirShapedTypeGetRank(t), perm[STRATA_MAX_RANK];
  int n = strataGetI64Array(op, "perm", perm, STRATA_MAX_RANK);
  if (rank < 2 || (n != rank && !(n == -1 && rank == 2))) return false; /* absent: reversed dims */
  for (int64_t i = 0; n > 0 && i < rank; i++)
    if (perm[i] != (i == rank - 2 ? rank - 1 : i == rank - 1 ? rank - 2 : i)) return false;
  return true;
}

/* True if r's users are exactly a sigmoid of r and a Mul of r by that
 * sigmoid (SiLU as exporters write it, x * sigmoid(x)), all of r's type. */
static bool siluUsers(MlirValue r, MlirOperation *sig, MlirOperation *mul) {
  MlirOperation users[2];
  int n = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(r); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    if (n == 2) return false;
    users[n++] = mlirOpOperandGetOwner(u);
  }
  if (n != 2) return false;
  int si = strataOpIsNamed(users[0], "nn.sigmoid") ? 0 : 1;
  *sig = users[si], *mul = users[1 - si];
  if (!strataOpIsNamed(*sig, "nn.sigmoid") || !strataOpIsNamed(*mul, "nn.mul")) return false;
  MlirValue s = mlirOperationGetResult(*sig, 0), a = mlirOperationGetOperand(*mul, 0),
            b = mlirOperationGetOperand(*mul, 1);
  MlirOperation su = lowerSoleUser(s);
  MlirType t = mlirValueGetType(r);
  return !mlirOperationIsNull(su) && mlirOperationEqual(su, *mul) &&
         ((mlirValueEqual(a, r) && mlirValueEqual(b, s)) || (mlirValueEqual(a, s) && mlirValueEqual(b, r))) &&
         mlirTypeEqual(mlirValueGetType(s), t) && mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(*mul, 0)), t);
}

/* Grows the epilogue through the sole users of `last`'s result, across
 * chains of profile probes (each the sole user of the value before it),
 * and through a SiLU (a sigmoid and a Mul, both reading the result). */
static void absorbEpilogue(Epilogue *e, const KernelsRun *k) {
  for (;;) {
    if (!k->epilogues) return;
    MlirValue r = mlirOperationGetResult(e->last, 0);
    MlirOperation sig, mul;
    if (!e->act && e->numAbsorbed + 2 <= MAX_ABSORBED && siluUsers(r, &sig, &mul)) {
      e->act = STRATA_RT_ACT_SILU;
      e->absorbed[e->numAbsorbed++] = sig;
      e->absorbed[e->numAbsorbed++] = mul;
      e->last = mul;
      return;
    }
    MlirOperation u = lowerSoleUser(r), chain[MAX_CHAIN], addendProbes[MAX_ADDEND_PROBES];
    int numChain = 0, numAddendProbes = 0;
    while (!mlirOperationIsNull(u) && strataInstrIsProbe(u, "profile") && numChain < MAX_CHAIN) {
      chain[numChain++] = u;
      r = mlirOperationGetResult(u, 0); /* what the next op reads */
      u = lowerSoleUser(r);
    }
    if (mlirOperationIsNull(u) || strataInstrIsProbe(u, NULL) || e->numAbsorbed == MAX_ABSORBED || mlirOperationGetNumResults(u) != 1)
      return;
    if (e->transposable && !e->transposed && e->nadd == 0 && swapsLastTwo(u)) {
      e->transposed = true;
      goto absorb;
    }
    if (e->act || !mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(u, 0)), mlirValueGetType(r))) return;
    if (strataOpIsNamed(u, "nn.add") && e->nadd < 2) {
      MlirValue a = mlirOperationGetOperand(u, 0), b = mlirOperationGetOperand(u, 1);
      MlirValue other = mlirValueEqual(a, r) ? b : a;
      /* the add's own profile probe on the addend moves after the call
       * with the others, and the call reads the addend under it */
      for (MlirOperation p = definingOp(other); numAddendProbes < MAX_ADDEND_PROBES && !mlirOperationIsNull(p) &&
                                                strataInstrIsProbeOf(p, "profile", "before", u) && !mlirOperationIsNull(lowerSoleUser(other));
           p = definingOp(other)) {
        addendProbes[numAddendProbes++] = p;
        other = mlirOperationGetOperand(p, 0);
      }
      if (mlirValueEqual(other, r) || !kernelsAddendFits(other, r)) return;
      e->beta[e->nadd] = 1.0;
      e->addOp[e->nadd] = u;
      e->addOperand[e->nadd] = mlirValueEqual(mlirOperationGetOperand(u, 0), r) ? 1 : 0;
      e->add[e->nadd++] = other;
    } else if (e->scalable && (strataOpIsNamed(u, "nn.mul") || strataOpIsNamed(u, "nn.div"))) {
      /* by a scalar constant: x * c, c * x, x / c (not c / x) */
      bool div = strataOpIsNamed(u, "nn.div");
      MlirValue a = mlirOperationGetOperand(u, 0), b = mlirOperationGetOperand(u, 1), other = mlirValueEqual(a, r) ? b : a;
      double c;
      if (mlirValueEqual(other, r) || (div && !mlirValueEqual(a, r)) || !strataScalarConstant(other, &c) ||
          (div && c == 0.0))
        return;
      double f = div ? 1.0 / c : c;
      e->scale *= f;
      for (int i = 0; i < e->nadd; i++) e->beta[i] *= f;
    } else if (strataOpIsNamed(u, "nn.relu")) {
      e->act = STRATA_RT_ACT_RELU;
    } else if (strataOpIsNamed(u, "nn.sigmoid")) {
      e->act = STRATA_RT_ACT_SIGMOID;
    } else if (strataOpIsNamed(u, "nn.hard_swish")) {
      e->act = STRATA_RT_ACT_HARDSWISH;
    } else if (strataOpIsNamed(u, "nn.gelu")) {
      char mode[8];
      if (!nnAttrString(u, "approximate", "none", "none|tanh", mode, sizeof mode)) return;
      e->act = strcmp(mode, "tanh") ? STRATA_RT_ACT_GELU : STRATA_RT_ACT_GELU_TANH;
    } else if (strataOpIsNamed(u, "nn.clip")) {
      if (!nnAttrFloat(u, "min", -INFINITY, &e->lo) || !nnAttrFloat(u, "max", INFINITY, &e->hi))
        return;
      e->act = STRATA_RT_ACT_CLIP;
    } else {
      return;
    }
  absorb:
    /* in program order: the chain, then the add's probes on the addend
     * (just before the add; collected from the add outwards) */
    for (int i = 0; i < numChain; i++) e->probes[e->numProbes++] = chain[i];
    for (int i = numAddendProbes - 1; i >= 0; i--) e->probes[e->numProbes++] = addendProbes[i];
    e->absorbed[e->numAbsorbed++] = u;
    e->last = u;
  }
}

static MlirType unrankedF32(MlirContext ctx) {
  return mlirUnrankedMemRefTypeGet(mlirF32TypeGet(ctx), mlirAttributeGetNull());
}

/* Emits the call: operands (tensors, then scalars), a fresh output buffer
 * of the result type, and the result as a tensor replacing e->last. */
static bool emitCall(StrataRewrite *rw, MlirOperation root, Epilogue *e, const char *fn,
                     bool addendSlots, const MlirValue *tensors, const int64_t *const *perms,
                     int numTensors, const MlirValue *scalars, int numScalars) {
  MlirLocation loc = mlirOperationGetLocation(root);
  MlirContext ctx = mlirOperationGetContext(root);
  StrataBuilder b = strataBuilderBefore(e->last, rw->rewriter);
  MlirType rt = mlirValueGetType(mlirOperationGetResult(e->last, 0));
  intptr_t rank = mlirShapedTypeGetRank(rt);
  int64_t shape[STRATA_MAX_RANK];
  for (intptr_t i = 0; i < rank; i++) shape[i] = mlirShapedTypeGetDimSize(rt, i);
  MlirType mt = mlirMemRefTypeGet(mlirF32TypeGet(ctx), rank, shape, mlirAttributeGetNull(),
                                  mlirAttributeGetNull());
  /* Dynamic dims: the root's result extents (the epilogue keeps them, a
   * transposing one swaps the last two), with the run-time checks that
   * the operands and the addends agree, which the kernels take on trust. */
  MlirValue dims[STRATA_MAX_RANK], dyn[STRATA_MAX_RANK];
  int32_t segments[2] = {0, 0};
  bool dynamicAddend = false;
  for (int i = 0; i < e->nadd; i++)
    dynamicAddend |= e->addOp[i].ptr && !mlirShapedTypeHasStaticShape(mlirValueGetType(e->add[i]));
  if (lowerHasDynamicDims(root)) {
    if (!lowerResultDims(&b, root, 0, dims)) return false;
    if (e->transposed) {
      MlirValue t = dims[rank - 1];
      dims[rank - 1] = dims[rank - 2], dims[rank - 2] = t;
    }
    for (intptr_t i = 0; i < rank; i++)
      if (shape[i] < 0) dyn[segments[0]++] = dims[i];
  } else if (dynamicAddend) {
    for (intptr_t i = 0; i < rank; i++) dims[i] = lowerIndexConst(&b, loc, shape[i]);
  }
  for (int i = 0; i < e->nadd; i++)
    if (e->addOp[i].ptr &&
        !kernelsCheckAddend(&b, e->addOp[i], e->addOperand[i], mlirOperationEqual(e->addOp[i], root) ? -1 : 1 - e->addOperand[i],
                            e->add[i], rt, dims, mlirOperationEqual(e->addOp[i], root)))
      return false;
  MlirValue out = strataResult(
      strataCreateOp(&b, "memref.alloc", loc, .operands = {dyn, segments[0]}, .results = STRATA_TYPES(mt),
                     .attrs = STRATA_ATTRS({"alignment", strataI64Attr(ctx, 64)},
                                           {"operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 2, segments)})),
      0);
  MlirValue args[32];
  int n = 0;
  for (int i = 0; i < numTensors; i++)
    args[n++] = strataTensorToUnrankedMemRefPermuted(&b, loc, tensors[i], perms ? perms[i] : NULL);
  MlirValue outU = strataResult(strataCreateOp(&b, "memref.cast", loc, .operands = STRATA_VALUES(out),
                                               .results = STRATA_TYPES(unrankedF32(ctx))),
                                0);
  /* With addends: x/a, w/b, y, add0, add1 (unused addends alias y; nadd
   * says how many), then the conv's xscale slot. Without: the inputs, then
   * y. */
  MlirValue ordered[6] = {args[0], args[1], outU, outU, outU, outU};
  int numOrdered = 5;
  if (addendSlots) {
    for (int i = 2; i < numTensors; i++) ordered[i + 1] = args[i];
    if (e->scaleSlot) {
      numOrdered = 6;
      if (e->xscale.ptr) ordered[5] = strataTensorToUnrankedMemRefPermuted(&b, loc, e->xscale, NULL);
    }
  } else {
    for (int i = 0; i < numTensors; i++) ordered[i] = args[i];
    ordered[numTensors] = outU;
    numOrdered = numTensors + 1;
  }
  n = 0;
  for (int i = 0; i < numOrdered; i++) args[n++] = ordered[i];
  for (int i = 0; i < numScalars; i++) args[n++] = scalars[i];
  strataCreateOp(&b, "func.call", loc, .operands = {args, n},
                 .attrs = STRATA_ATTRS({"callee", mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(fn))}));
  MlirValue result = strataResult(
      strataCreateOp(&b, "bufferization.to_tensor", loc, .operands = STRATA_VALUES(out),
                     .results = STRATA_TYPES(rt),
                     .attrs = STRATA_ATTRS({"restrict", mlirUnitAttrGet(ctx)},
                                           {"writable", mlirUnitAttrGet(ctx)})),
      0);
  /* The profile probes between the fused ops run after the call, in their
   * order, and read its result: the kernel op's "after" point closes its
   * span once the whole fused kernel ran, and the absorbed ops' points
   * follow at once (zero-length spans). */
  MlirOperation prev = mlirOpResultGetOwner(result);
  for (int i = 0; i < e->numProbes; i++) {
    mlirRewriterBaseMoveOpAfter(rw->rewriter, e->probes[i], prev);
    prev = e->probes[i];
  }
  strataReplaceOp(rw, e->last, STRATA_VALUES(result));
  /* the fused ops' results are read only by those probes now */
  for (int i = e->numAbsorbed - 2; i >= 0; i--) strataReplaceOp(rw, e->absorbed[i], STRATA_VALUES(result));
  if (e->numAbsorbed > 0) strataReplaceOp(rw, root, STRATA_VALUES(result));
  return true;
}

/* The rewrite's result once emitCall ran: a failed one emitted a located
 * error, which fails the pass. */
static MlirLogicalResult called(void *u, bool ok) {
  if (!ok) ((KernelsRun *)u)->failed = true;
  return mlirLogicalResultSuccess();
}

static MlirValue i64c(StrataRewrite *rw, MlirOperation at, int64_t v) {
  StrataBuilder b = strataBuilderBefore(at, rw->rewriter);
  return strataConstInt(&b, mlirOperationGetLocation(at), mlirIntegerTypeGet(b.ctx, 64), v);
}
static MlirValue f32c(StrataRewrite *rw, MlirOperation at, double v) {
  StrataBuilder b = strataBuilderBefore(at, rw->rewriter);
  return strataConstFloat(&b, mlirOperationGetLocation(at), mlirF32TypeGet(b.ctx), v);
}

/* The epilogue scalars shared by both kernels: nadd, beta0, beta1 (conv) or
 * nadd, alpha, beta0, beta1 (matmul) are placed by the callers; this adds
 * act, lo, hi. */
static int actScalars(StrataRewrite *rw, const Epilogue *e, MlirValue *s) {
  s[0] = i64c(rw, e->last, e->act);
  s[1] = f32c(rw, e->last, e->act == STRATA_RT_ACT_CLIP ? e->lo : 0.0);
  s[2] = f32c(rw, e->last, e->act == STRATA_RT_ACT_CLIP ? e->hi : 0.0);
  return 3;
}

/* nn.softmax / nn.log_softmax along any axis. */
static MlirLogicalResult rewriteSoftmax(StrataRewrite *rw, MlirOperation op, void *u) {
  MlirOperation *module = &((KernelsRun *)u)->module;
  MlirValue x = mlirOperationGetOperand(op, 0), y = mlirOperationGetResult(op, 0);
  if (!shapedF32(x) || !shapedF32(y)) return mlirLogicalResultFailure();
  int64_t axis, rank = mlirShapedTypeGetRank(mlirValueGetType(x));
  if (!nnAttrInt(op, "axis", -1, &axis)) return mlirLogicalResultFailure();
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return mlirLogicalResultFailure();
  Epilogue e = {.last = op}; /* no epilogue: the call replaces the op alone */
  MlirValue s[2] = {i64c(rw, op, axis), i64c(rw, op, strataOpIsNamed(op, "nn.log_softmax"))};
  strataDeclareRuntimeFunc(*module, SOFTMAX_FN);
  return called(u, emitCall(rw, op, &e, SOFTMAX_FN, false, (MlirValue[]){x}, NULL, 1, s, 2));
}

/* nn.max_pool (without the indices result) and nn.average_pool over 1 or
 * 2 spatial dims. */
static MlirLogicalResult rewritePool(StrataRewrite *rw, MlirOperation op, void *u) {
  MlirOperation *module = &((KernelsRun *)u)->module;
  if (mlirOperationGetNumResults(op) != 1) return mlirLogicalResultFailure();
  MlirValue x = mlirOperationGetOperand(op, 0), y = mlirOperationGetResult(op, 0);
  if (!shapedF32(x) || !shapedF32(y) || !windowPadsFixed(op)) return mlirLogicalResultFailure();
  int sp = (int)mlirShapedTypeGetRank(mlirValueGetType(x)) - 2;
  if (sp < 1 || sp > 2) return mlirLogicalResultFailure();
  int64_t in[NN_MAX_SPATIAL], out[NN_MAX_SPATIAL], cip = 0;
  for (int i = 0; i < sp; i++) in[i] = nnDimOrUnknown(mlirValueGetType(x), 2 + i);
  NnWindow win;
  const char *why;
  bool isMax = strataOpIsNamed(op, "nn.max_pool");
  if (!nn_get_window(op, sp, NULL, &win) || !nn_infer_window_output(&win, in, out, &why) ||
      !nnAttrInt(op, "count_include_pad", 0, &cip))
    return mlirLogicalResultFailure();
  if ((sp == 2 ? win.kernel[0] * win.kernel[1] : win.kernel[0]) > 64) return mlirLogicalResultFailure();
  Epilogue e = {.last = op};
  MlirValue s[12];
  int ns = 0;
  s[ns++] = i64c(rw, op, isMax ? 1 : 2);
  s[ns++] = i64c(rw, op, sp == 2 ? win.kernel[0] : 1);
  s[ns++] = i64c(rw, op, win.kernel[sp - 1]);
  s[ns++] = i64c(rw, op, sp == 2 ? win.strides[0] : 1);
  s[ns++] = i64c(rw, op, win.strides[sp - 1]);
  s[ns++] = i64c(rw, op, sp == 2 ? win.pads[0] : 0);
  s[ns++] = i64c(rw, op, win.pads[sp - 1]);
  s[ns++] = i64c(rw, op, sp == 2 ? win.pads[sp] : 0);
  s[ns++] = i64c(rw, op, win.pads[2 * sp - 1]);
  s[ns++] = i64c(rw, op, sp == 2 ? win.dilations[0] : 1);
  s[ns++] = i64c(rw, op, win.dilations[sp - 1]);
  s[ns++] = i64c(rw, op, cip);
  strataDeclareRuntimeFunc(*module, POOL_FN);
  return called(u, emitCall(rw, op, &e, POOL_FN, false, (MlirValue[]){x}, NULL, 1, s, ns));
}

/* nn.global_average_pool / nn.global_max_pool (rank >= 3), and
 * nn.reduce_mean / nn.reduce_max over exactly the spatial dims [2, rank)
 * of a rank >= 4 input (constant axes, either keepdims: the same
 * reduction; a 3-D input's last-axis reductions are row reductions that
 * fusion planning keeps for its blocks), static shapes. */
static bool globalPoolForm(MlirOperation op) {
  bool pool = strataOpIsNamed(op, "nn.global_average_pool") || strataOpIsNamed(op, "nn.global_max_pool");
  bool reduce = strataOpIsNamed(op, "nn.reduce_mean") || strataOpIsNamed(op, "nn.reduce_max");
  if ((!pool && !reduce) || mlirOperationGetNumResults(op) != 1) return false;
  MlirValue x = mlirOperationGetOperand(op, 0);
  if (!staticF32(x) || !staticF32(mlirOperationGetResult(op, 0))) return false;
  int rank = (int)mlirShapedTypeGetRank(mlirValueGetType(x));
  if (rank < (pool ? 3 : 4)) return false;
  bool mask[STRATA_MAX_RANK], identity;
  if (reduce && (!nnReduceAxes(op, NULL, rank, mask, &identity) || identity)) return false;
  for (int d = 0; reduce && d < rank; d++)
    if (mask[d] != (d >= 2)) return false;
  return true;
}

static MlirLogicalResult rewriteGlobalPool(StrataRewrite *rw, MlirOperation op, void *u) {
  MlirOperation *module = &((KernelsRun *)u)->module;
  if (!globalPoolForm(op)) return mlirLogicalResultFailure();
  MlirValue x = mlirOperationGetOperand(op, 0);
  bool isMax = strataOpIsNamed(op, "nn.global_max_pool") || strataOpIsNamed(op, "nn.reduce_max");
  Epilogue e = {.last = op};
  MlirValue s[1] = {i64c(rw, op, isMax ? 1 : 2)};
  strataDeclareRuntimeFunc(*module, GLOBAL_POOL_FN);
  return called(u, emitCall(rw, op, &e, GLOBAL_POOL_FN, false, (MlirValue[]){x}, NULL, 1, s, 1));
}

/* nn.resize of static f32 shapes that resizes at most its last two dims
 * (the others kept: same length, scale 1), in any mode and coordinate
 * transformation but tf_crop_and_resize (its extrapolated elements stay
 * with nn-to-linalg). Sets the attributes and the per-dim scales. */
static bool resizeForm(MlirOperation op, NnResize *r, double *scales) {
  if (!strataOpIsNamed(op, "nn.resize") || mlirOperationGetNumResults(op) != 1) return false;
  MlirValue x = mlirOperationGetOperand(op, 0), y = mlirOperationGetResult(op, 0);
  if (!staticF32(x) || !staticF32(y)) return false;
  int rank = (int)mlirShapedTypeGetRank(mlirValueGetType(x));
  if (rank < 2 || rank > STRATA_MAX_RANK || !nnResizeAttrs(op, r) || !strcmp(r->coord, "tf_crop_and_resize"))
    return false;
  int64_t in[STRATA_MAX_RANK], out[STRATA_MAX_RANK];
  for (int d = 0; d < rank; d++)
    in[d] = mlirShapedTypeGetDimSize(mlirValueGetType(x), d), out[d] = mlirShapedTypeGetDimSize(mlirValueGetType(y), d);
  nnResizeScales(nnMovementDef(op), op, in, out, rank, scales);
  for (int d = 0; d < rank - 2; d++)
    if (in[d] != out[d] || scales[d] != 1.0) return false;
  return true;
}

/* One resized dim's table for the kernel: taps x out indices (as f64,
 * exact), then taps x out weights, as nn-to-linalg's tables hold them. */
static MlirValue resizeTable(StrataRewrite *rw, MlirOperation op, const NnResize *r, int64_t in, int64_t out,
                             double scale, int *taps) {
  bool same = in == out && scale == 1.0;
  *taps = nnResizeTapCount(r, same);
  int64_t n = 2 * *taps * out;
  double *v = malloc(sizeof(double) * (size_t)n);
  if (!v) return (MlirValue){NULL};
  for (int64_t o = 0; o < out; o++) {
    NnTaps tp;
    nnResizeOutputTaps(r, same, o, in, out, scale, NULL, &tp);
    for (int k = 0; k < *taps; k++) v[k * out + o] = (double)tp.idx[k], v[(*taps + k) * out + o] = tp.w[k];
  }
  StrataBuilder b = strataBuilderBefore(op, rw->rewriter);
  MlirType t = mlirRankedTensorTypeGet(1, &n, mlirF64TypeGet(b.ctx), mlirAttributeGetNull());
  MlirAttribute value = mlirDenseElementsAttrDoubleGet(t, (intptr_t)n, v);
  free(v);
  return strataResult(strataCreateOp(&b, "arith.constant", mlirOperationGetLocation(op), .results = STRATA_TYPES(t),
                                     .attrs = STRATA_ATTRS({"value", value})),
                      0);
}

static MlirLogicalResult rewriteResize(StrataRewrite *rw, MlirOperation op, void *u) {
  MlirOperation *module = &((KernelsRun *)u)->module;
  NnResize r;
  double scales[STRATA_MAX_RANK];
  if (!resizeForm(op, &r, scales)) return mlirLogicalResultFailure();
  MlirValue x = mlirOperationGetOperand(op, 0);
  MlirType xt = mlirValueGetType(x), yt = mlirValueGetType(mlirOperationGetResult(op, 0));
  int rank = (int)mlirShapedTypeGetRank(xt), taps[2];
  MlirValue tensors[3] = {x};
  for (int i = 0; i < 2; i++) {
    int d = rank - 2 + i;
    tensors[1 + i] = resizeTable(rw, op, &r, mlirShapedTypeGetDimSize(xt, d), mlirShapedTypeGetDimSize(yt, d),
                                 scales[d], &taps[i]);
    if (!tensors[1 + i].ptr) {
      strataEmitError(mlirOperationGetLocation(op), "nn-to-kernels: out of memory building the resize tables");
      return called(u, false);
    }
  }
  Epilogue e = {.last = op};
  MlirValue s[3] = {i64c(rw, op, taps[0]), i64c(rw, op, taps[1]), i64c(rw, op, !strcmp(r.mode, "nearest"))};
  strataDeclareRuntimeFunc(*module, RESIZE_FN);
  return called(u, emitCall(rw, op, &e, RESIZE_FN, false, tensors, NULL, 3, s, 3));
}

/* nn.layer_normalization (float stash type): scale and the optional bias
 * broadcast over the normalized dims. */
static MlirLogicalResult rewriteLayerNorm(StrataRewrite *rw, MlirOperation op, void *u) {
  MlirOperation *module = &((KernelsRun *)u)->module;
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 1; i < n; i++)
    if (!staticF32(mlirOperationGetOperand(op, i))) return mlirLogicalResultFailure();
  MlirValue x = mlirOperationGetOperand(op, 0);
  if (n < 2 || !shapedF32(x) || !shapedF32(mlirOperationGetResult(op, 0))) return mlirLogicalResultFailure();
  int64_t axis, stash, rank = mlirShapedTypeGetRank(mlirValueGetType(x));
  double eps;
  if (!nnAttrInt(op, "axis", -1, &axis) || !nnAttrFloat(op, "epsilon", 1e-5, &eps) ||
      !nnAttrInt(op, "stash_type", 1, &stash) || stash != 1)
    return mlirLogicalResultFailure();
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return mlirLogicalResultFailure();
  /* scale and bias broadcast over the normalized dims: static ones */
  for (int64_t d = axis; d < rank; d++)
    if (mlirShapedTypeIsDynamicDim(mlirValueGetType(x), d)) return mlirLogicalResultFailure();
  Epilogue e = {.last = op};
  MlirValue tensors[3] = {x, mlirOperationGetOperand(op, 1), n == 3 ? mlirOperationGetOperand(op, 2) : x};
  MlirValue s[3] = {i64c(rw, op, axis), i64c(rw, op, n == 3), f32c(rw, op, eps)};
  strataDeclareRuntimeFunc(*module, LAYERNORM_FN);
  return called(u, emitCall(rw, op, &e, LAYERNORM_FN, false, tensors, NULL, 3, s, 3));
}

/* A squeeze-and-excitation scale before a 1x1, group-1 conv: its input
 * is nn.mul(a, s) (either order), read by the conv alone, with s of type
 * [N or 1, C, 1, 1] and a of the input's type. The conv then reads a and
 * scales each channel by s while it packs the input: the Mul's pass over
 * the whole feature map is gone. (1x1 only: Winograd and depthwise do
 * not take a scale, and SE gates feed the 1x1 projection.) */
static void absorbInputScale(Epilogue *e, const KernelsRun *k, MlirOperation conv, MlirValue *x,
                             const int64_t *kernel, int64_t group, int sp) {
  MlirOperation mul = definingOp(*x);
  if (!k->epilogues || sp != 2 || group != 1 || kernel[0] != 1 || kernel[1] != 1 || mlirOperationIsNull(mul) ||
      !strataOpIsNamed(mul, "nn.mul") || mlirOperationGetNumOperands(mul) != 2 ||
      !mlirOperationEqual(lowerSoleUser(*x), conv))
    return;
  MlirType xt = mlirValueGetType(*x);
  if (mlirShapedTypeGetDimSize(xt, 1) < 2) return; /* one input channel: the depthwise kernel's */
  for (int i = 0; i < 2; i++) {
    MlirValue a = mlirOperationGetOperand(mul, i), s = mlirOperationGetOperand(mul, 1 - i);
    MlirType st = mlirValueGetType(s);
    if (!mlirTypeEqual(mlirValueGetType(a), xt) || !staticF32(s) || mlirShapedTypeGetRank(st) != 4) continue;
    int64_t n = mlirShapedTypeGetDimSize(st, 0);
    if ((n != 1 && n != mlirShapedTypeGetDimSize(xt, 0)) ||
        mlirShapedTypeGetDimSize(st, 1) != mlirShapedTypeGetDimSize(xt, 1) || mlirShapedTypeGetDimSize(st, 2) != 1 ||
        mlirShapedTypeGetDimSize(st, 3) != 1)
      continue;
    e->xscale = s;
    e->scaleMul = mul;
    *x = a;
    return;
  }
}

static MlirLogicalResult rewriteConv(StrataRewrite *rw, MlirOperation op, void *u) {
  MlirOperation *module = &((KernelsRun *)u)->module;
  if (mlirOperationGetNumOperands(op) < 2) return mlirLogicalResultFailure();
  MlirValue x = mlirOperationGetOperand(op, 0), w = mlirOperationGetOperand(op, 1);
  MlirValue y = mlirOperationGetResult(op, 0);
  if (!shapedF32(x) || !staticF32(w) || !shapedF32(y) || !windowPadsFixed(op)) return mlirLogicalResultFailure();
  int rank = (int)mlirShapedTypeGetRank(mlirValueGetType(x)), sp = rank - 2;
  if (sp < 1 || sp > 2) return mlirLogicalResultFailure();
  MlirType wt = mlirValueGetType(w), xt = mlirValueGetType(x);
  int64_t kernel[NN_MAX_SPATIAL], in[NN_MAX_SPATIAL], out[NN_MAX_SPATIAL];
  for (int i = 0; i < sp; i++)
    kernel[i] = mlirShapedTypeGetDimSize(wt, 2 + i), in[i] = nnDimOrUnknown(xt, 2 + i);
  NnWindow win;
  const char *why;
  if (!nn_get_window(op, sp, kernel, &win) || !nn_infer_window_output(&win, in, out, &why))
    return mlirLogicalResultFailure();
  /* The depthwise kernel keeps up to 64 taps (and rows) on the stack. */
  int64_t taps = sp == 2 ? kernel[0] * kernel[1] : kernel[0];
  if (mlirShapedTypeGetDimSize(wt, 1) == 1 && taps > 64) return mlirLogicalResultFailure();
  Epilogue e = {.last = op, .scaleSlot = true};
  absorbInputScale(&e, u, op, &x, kernel, win.group, sp);
  if (mlirOperationGetNumOperands(op) == 3) {
    MlirValue bias = mlirOperationGetOperand(op, 2);
    if (!staticF32(bias)) return mlirLogicalResultFailure();
    /* [M] along dim 1 of the result: view it as [M, 1(, 1)] to broadcast. */
    e.add[0] = bias;
    e.beta[0] = 1.0;
    e.nadd = 1;
  }
  absorbEpilogue(&e, u);
  MlirValue tensors[4] = {x, w};
  int nt = 2;
  for (int i = 0; i < e.nadd; i++) tensors[nt++] = e.add[i];
  if (mlirOperationGetNumOperands(op) == 3) {
    /* The bias runs along the channel dim: [M] -> [M, 1(, 1)] so that it
     * broadcasts numpy-style against [N, M, ...]. */
    StrataBuilder b = strataBuilderBefore(e.last, rw->rewriter);
    int64_t shape[3] = {mlirShapedTypeGetDimSize(mlirValueGetType(e.add[0]), 0), 1, 1};
    MlirType bt = mlirRankedTensorTypeGet(rank - 1, shape, mlirF32TypeGet(b.ctx), mlirAttributeGetNull());
    tensors[2] = linalgReshape(&b, mlirOperationGetLocation(op), e.add[0], bt);
  }
  MlirValue s[16];
  int ns = 0;
  s[ns++] = i64c(rw, e.last, e.xscale.ptr != NULL);
  s[ns++] = i64c(rw, e.last, sp == 2 ? win.strides[0] : 1);
  s[ns++] = i64c(rw, e.last, win.strides[sp - 1]);
  s[ns++] = i64c(rw, e.last, sp == 2 ? win.pads[0] : 0);
  s[ns++] = i64c(rw, e.last, win.pads[sp - 1]);
  s[ns++] = i64c(rw, e.last, sp == 2 ? win.dilations[0] : 1);
  s[ns++] = i64c(rw, e.last, win.dilations[sp - 1]);
  s[ns++] = i64c(rw, e.last, win.group);
  s[ns++] = i64c(rw, e.last, strataNnToKernelsIsConstant(w));
  s[ns++] = i64c(rw, e.last, e.nadd);
  s[ns++] = f32c(rw, e.last, e.beta[0]);
  s[ns++] = f32c(rw, e.last, e.beta[1]);
  ns += actScalars(rw, &e, s + ns);
  strataDeclareRuntimeFunc(*module, CONV_FN);
  bool ok = emitCall(rw, op, &e, CONV_FN, true, tensors, NULL, nt, s, ns);
  if (ok && e.scaleMul.ptr) strataEraseOp(rw, e.scaleMul); /* the conv read it alone */
  return called(u, ok);
}

/* nn.matmul (numpy semantics) and nn.gemm (transA/transB, alpha, beta * C). */
static MlirLogicalResult rewriteMatmul(StrataRewrite *rw, MlirOperation op, void *u) {
  MlirOperation *module = &((KernelsRun *)u)->module;
  bool gemm = strataOpIsNamed(op, "nn.gemm");
  intptr_t numOperands = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < numOperands; i++)
    if (i < 2 ? !shapedF32(mlirOperationGetOperand(op, i))
              : !kernelsAddendFits(mlirOperationGetOperand(op, i), mlirOperationGetResult(op, 0)))
      return mlirLogicalResultFailure();
  if (numOperands < 2 || !shapedF32(mlirOperationGetResult(op, 0))) return mlirLogicalResultFailure();
  int64_t ta = 0, tb = 0;
  double alpha = 1.0, beta = 1.0;
  if (gemm && (!nnAttrInt(op, "transA", 0, &ta) || !nnAttrInt(op, "transB", 0, &tb) ||
               !nnAttrFloat(op, "alpha", 1.0, &alpha) || !nnAttrFloat(op, "beta", 1.0, &beta)))
    return mlirLogicalResultFailure();
  MlirValue tensors[4] = {mlirOperationGetOperand(op, 0), mlirOperationGetOperand(op, 1)};
  /* A transposed operand (a Transpose only this op reads) is read in
   * place, through a permuted strided view: no transposed copy. */
  const int64_t *perms[4] = {NULL, NULL, NULL, NULL};
  int64_t permBuf[2][STRATA_MAX_RANK];
  MlirOperation prologue[2] = {{NULL}, {NULL}};
  for (int i = 0; i < 2 && ((KernelsRun *)u)->epilogues; i++) {
    MlirOperation t = definingOp(tensors[i]);
    if (mlirOperationIsNull(t) || !strataNnToKernelsAbsorbsPrologue(t, op) || !transposePerm(t, permBuf[i]))
      continue;
    tensors[i] = mlirOperationGetOperand(t, 0);
    perms[i] = permBuf[i];
    prologue[i] = t;
  }
  Epilogue e = {.last = op, .scalable = true, .scale = 1.0};
  e.transposable = mlirShapedTypeGetRank(mlirValueGetType(tensors[0])) >= 2 &&
                   mlirShapedTypeGetRank(mlirValueGetType(tensors[1])) >= 2;
  if (gemm && numOperands == 3 && beta != 0.0) {
    e.add[0] = mlirOperationGetOperand(op, 2);
    e.beta[0] = beta;
    e.addOp[0] = op;
    e.addOperand[0] = 2;
    e.nadd = 1;
  }
  absorbEpilogue(&e, u);
  alpha *= e.scale;
  if (e.transposed) { /* (op(A) op(B))^T = op(B)^T op(A)^T */
    MlirValue t = tensors[0];
    tensors[0] = tensors[1], tensors[1] = t;
    const int64_t *p = perms[0];
    perms[0] = perms[1], perms[1] = p;
    int64_t oldTa = ta;
    ta = !tb, tb = !oldTa;
  }
  int nt = 2;
  for (int i = 0; i < e.nadd; i++) tensors[nt++] = e.add[i];
  MlirValue s[16];
  int ns = 0;
  s[ns++] = i64c(rw, e.last, ta);
  s[ns++] = i64c(rw, e.last, tb);
  s[ns++] = i64c(rw, e.last, strataNnToKernelsIsConstant(tensors[0]) | strataNnToKernelsIsConstant(tensors[1]) << 1);
  s[ns++] = i64c(rw, e.last, e.nadd);
  s[ns++] = f32c(rw, e.last, alpha);
  s[ns++] = f32c(rw, e.last, e.beta[0]);
  s[ns++] = f32c(rw, e.last, e.beta[1]);
  ns += actScalars(rw, &e, s + ns);
  const char *fn = mlirAttributeIsNull(strataOpAttr(op, "strata.few_rows")) ? MATMUL_FN : MATMUL_FEW_ROWS_FN;
  strataDeclareRuntimeFunc(*module, fn);
  bool ok = emitCall(rw, op, &e, fn, true, tensors, perms, nt, s, ns);
  for (int i = 0; ok && i < 2; i++)
    if (!mlirOperationIsNull(prologue[i])) kernelsDimsThroughTranspose(rw, prologue[i], permBuf[i]);
  return called(u, ok);
}

static void runNnToKernels(StrataPassRun *run, MlirOperation module) {
  if (mlirLogicalResultIsFailure(strataVerify(strataPassGetContext(run), module))) {
    strataPassSignalFailure(run);
    return;
  }
  KernelsRun k = {module, strataPassGetBool(run, "epilogues"), false};
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(module));
  strataPatternSetAdd(set, "nn.conv", 1, rewriteConv, &k);
  strataPatternSetAdd(set, "nn.matmul", 1, rewriteMatmul, &k);
  strataPatternSetAdd(set, "nn.gemm", 1, rewriteMatmul, &k);
  strataPatternSetAdd(set, "nn.softmax", 1, rewriteSoftmax, &k);
  strataPatternSetAdd(set, "nn.log_softmax", 1, rewriteSoftmax, &k);
  strataPatternSetAdd(set, "nn.max_pool", 1, rewritePool, &k);
  strataPatternSetAdd(set, "nn.average_pool", 1, rewritePool, &k);
  strataPatternSetAdd(set, "nn.layer_normalization", 1, rewriteLayerNorm, &k);
  strataPatternSetAdd(set, "nn.global_average_pool", 1, rewriteGlobalPool, &k);
  strataPatternSetAdd(set, "nn.global_max_pool", 1, rewriteGlobalPool, &k);
  strataPatternSetAdd(set, "nn.reduce_mean", 1, rewriteGlobalPool, &k);
  strataPatternSetAdd(set, "nn.reduce_max", 1, rewriteGlobalPool, &k);
  strataPatternSetAdd(set, "nn.resize", 1, rewriteResize, &k);
  StrataNnToKernelsQRun q = {module, k.epilogues};
  strataNnToKernelsAddQuantized(set, &q);
  /* The greedy driver (not the walk driver): a rewrite erases the
   * absorbed epilogue ops that follow the matched one. */
  StrataGreedyConfig config = {0, true, false};
  if (mlirLogicalResultIsFailure(strataApplyPatternsGreedily(set, module, &config)) || k.failed)
    strataPassSignalFailure(run);
  strataPatternSetDestroy(set);
}

static const StrataPassOptionDef kOptions[] = {
    {"epilogues", STRATA_OPTION_BOOL, "true",
     "absorb sole-user bias/residual adds and relu/clip/sigmoid/SiLU/hard-swish into the kernel call"},
};

static const StrataDialectHandleFn kDeps[] = {
    mlirGetDialectHandle__bufferization__, mlirGetDialectHandle__memref__,
    mlirGetDialectHandle__func__, mlirGetDialectHandle__arith__,
    mlirGetDialectHandle__tensor__, NULL};

const StrataPassDef strataNnToKernelsPass = {
    .name = "nn-to-kernels",
    .summary = "Call libstrata_rt kernels for f32 conv/matmul/gemm (fusing bias, residual and "
               "relu/clip/sigmoid/SiLU/hard-swish epilogues), softmax, 2-D and global pooling, layer "
               "normalization and resize, and the integer GEMM for the quantized matmul/conv ops",
    .anchor = "builtin.module",
    .options = kOptions,
    .numOptions = 1,
    .run = runNnToKernels,
    .dependentDialects = kDeps,
};
