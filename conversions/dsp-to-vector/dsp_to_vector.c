/* --dsp-to-vector: the dsp instruction ops as upstream vector and arith
 * ops, keeping the 128-byte virtual width (LLVM splits vector<128xi8> into
 * the host's registers). One pattern per op (greedy driver):
 *   vrmpy: extui to i32, times Rt's four bytes (repeated), the four
 *          products of each word summed (onto the accumulator for vrmpy_acc);
 *   vmpy / vmpa / vdmpy: even and odd bytes by vector.shuffle, extui to
 *          i16, times Rt's bytes in their period-4 pattern, added as the
 *          instruction adds (arith wraps, as HVX does);
 *   vsat:  clamp (maxsi/minsi), trunci, interleave by vector.shuffle;
 *   vshuff / vdeal: vector.shuffle.
 * Rt's bytes come from the i32 by shrui/trunci and extsi (Rt.b) or extui
 * (Rt.ub). test/capi/dsp_to_vector.c runs the lowered code and compares it
 * with the emulator. */
#include <string.h>
#include "lower_helpers.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Vector.h"
#include "strata/builder.h"
#include "strata/context.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/support.h"

typedef struct {
  StrataBuilder *b;
  MlirLocation loc;
  MlirContext ctx;
} Gen;

static MlirType intTy(Gen *g, unsigned w) { return mlirIntegerTypeGet(g->ctx, w); }
static MlirType vecTy(Gen *g, int64_t n, unsigned w) {
  return mlirVectorTypeGet(1, &n, intTy(g, w));
}

static MlirValue op1(Gen *g, const char *name, MlirValue x, MlirType t) {
  return emitConvert(g->b, g->loc, name, x, t);
}

static MlirValue shuffle(Gen *g, MlirValue a, MlirValue b, const int64_t *mask, int64_t n) {
  MlirType t = mlirVectorTypeGet(1, &n, mlirShapedTypeGetElementType(mlirValueGetType(a)));
  return strataResult(strataCreateOp(g->b, "vector.shuffle", g->loc, .operands = STRATA_VALUES(a, b),
                                     .results = STRATA_TYPES(t),
                                     .attrs = STRATA_ATTRS({"mask", mlirDenseI64ArrayGet(g->ctx, n, mask)})),
                      0);
}

/* Elements start, start + step, ... of x (n of them). */
static MlirValue strided(Gen *g, MlirValue x, int64_t start, int64_t step, int64_t n) {
  int64_t mask[128];
  for (int64_t i = 0; i < n; i++) mask[i] = start + i * step;
  return shuffle(g, x, x, mask, n);
}

/* Byte j of rt as a `w`-bit integer, sign- or zero-extended. */
static MlirValue rtByte(Gen *g, MlirValue rt, int j, unsigned w, bool isSigned) {
  MlirValue s = rt;
  if (j) s = emitBinary(g->b, g->loc, "arith.shrui", rt, strataConstInt(g->b, g->loc, intTy(g, 32), 8 * j));
  MlirValue b = op1(g, "arith.trunci", s, intTy(g, 8));
  return op1(g, isSigned ? "arith.extsi" : "arith.extui", b, intTy(g, w));
}

/* A vector of n w-bit lanes repeating the scalars pat[0..k) (a shuffle of
 * the k-lane vector: 1-D only, which the CPU pipeline's vector-to-llvm
 * lowering takes as it is). */
static MlirValue pattern(Gen *g, const MlirValue *pat, int64_t k, int64_t n, unsigned w) {
  MlirValue row = strataResult(strataCreateOp(g->b, "vector.from_elements", g->loc,
                                              .operands = (StrataValueList){pat, k},
                                              .results = STRATA_TYPES(vecTy(g, k, w))), 0);
  int64_t mask[128];
  for (int64_t i = 0; i < n; i++) mask[i] = i % k;
  return shuffle(g, row, row, mask, n);
}

static MlirValue splat(Gen *g, MlirValue s, int64_t n, unsigned w) {
  return op1(g, "vector.broadcast", s, vecTy(g, n, w));
}

static MlirValue mul(Gen *g, MlirValue a, MlirValue b) { return emitBinary(g->b, g->loc, "arith.muli", a, b); }
static MlirValue add(Gen *g, MlirValue a, MlirValue b) { return emitBinary(g->b, g->loc, "arith.addi", a, b); }

/* The even or odd bytes of v as i16. */
static MlirValue half16(Gen *g, MlirValue v, int parity) {
  return op1(g, "arith.extui", strided(g, v, parity, 2, 64), vecTy(g, 64, 16));
}

/* Products in i32, then the four of each word summed by strided shuffles
 * (1-D throughout: the shape_cast + multi_reduction form would need the
 * vector unrolling passes the CPU pipeline does not run). */
static MlirLogicalResult lowerVrmpy(Gen *g, MlirOperation op, MlirValue *out) {
  bool acc = strataOpIsNamed(op, "dsp.vrmpy_acc");
  bool sgn = mlirAttributeIsNull(strataOpAttr(op, "unsigned_rt"));
  MlirValue vu = mlirOperationGetOperand(op, acc), rt = mlirOperationGetOperand(op, acc + 1);
  MlirValue b[4];
  for (int j = 0; j < 4; j++) b[j] = rtByte(g, rt, j, 32, sgn);
  MlirValue prod = mul(g, op1(g, "arith.extui", vu, vecTy(g, 128, 32)), pattern(g, b, 4, 128, 32));
  MlirValue sum = acc ? mlirOperationGetOperand(op, 0) : (MlirValue){NULL};
  for (int j = 0; j < 4; j++) {
    MlirValue part = strided(g, prod, j, 4, 32);
    sum = mlirValueIsNull(sum) ? part : add(g, sum, part);
  }
  out[0] = sum;
  return mlirLogicalResultSuccess();
}

/* vmpy, vmpa, vdmpy and their accumulating forms. */
static MlirLogicalResult lowerMultiply(Gen *g, MlirOperation op, MlirValue *out) {
  MlirStringRef nm = mlirIdentifierStr(mlirOperationGetName(op));
  bool acc = nm.length > 4 && !strncmp(nm.data + nm.length - 4, "_acc", 4);
  bool vmpa = !strncmp(nm.data, "dsp.vmpa", 8), vdmpy = !strncmp(nm.data, "dsp.vdmpy", 9);
  int numAcc = acc ? (vdmpy ? 1 : 2) : 0;
  MlirValue v0 = mlirOperationGetOperand(op, numAcc);
  MlirValue rt = mlirOperationGetOperand(op, mlirOperationGetNumOperands(op) - 1);
  MlirValue b[4];
  for (int j = 0; j < 4; j++) b[j] = rtByte(g, rt, j, 16, true);
  MlirValue lo, hi;
  if (vmpa) { /* lo = v0.even*b0 + v1.even*b1, hi = v0.odd*b2 + v1.odd*b3 */
    MlirValue v1 = mlirOperationGetOperand(op, numAcc + 1);
    lo = add(g, mul(g, half16(g, v0, 0), splat(g, b[0], 64, 16)), mul(g, half16(g, v1, 0), splat(g, b[1], 64, 16)));
    hi = add(g, mul(g, half16(g, v0, 1), splat(g, b[2], 64, 16)), mul(g, half16(g, v1, 1), splat(g, b[3], 64, 16)));
  } else { /* even byte 2i meets b[(2i)%4] = b0, b2, b0, ...; odd byte b1, b3, ... */
    MlirValue pe[2] = {b[0], b[2]}, po[2] = {b[1], b[3]};
    lo = mul(g, half16(g, v0, 0), pattern(g, pe, 2, 64, 16));
    hi = mul(g, half16(g, v0, 1), pattern(g, po, 2, 64, 16));
  }
  if (vdmpy) {
    out[0] = add(g, lo, hi);
    if (acc) out[0] = add(g, mlirOperationGetOperand(op, 0), out[0]);
    return mlirLogicalResultSuccess();
  }
  out[0] = acc ? add(g, mlirOperationGetOperand(op, 0), lo) : lo;
  out[1] = acc ? add(g, mlirOperationGetOperand(op, 1), hi) : hi;
  return mlirLogicalResultSuccess();
}

/* Interleave a and b (n lanes each): a0 b0 a1 b1 ...; `part` 0 or 1 picks the
 * first or second n lanes of the 2n. */
static MlirValue interleave(Gen *g, MlirValue a, MlirValue b, int64_t n, int part) {
  int64_t mask[128];
  for (int64_t i = 0; i < n; i++) mask[i] = (part * n + i) % 2 ? n + (part * n + i) / 2 : (part * n + i) / 2;
  return shuffle(g, a, b, mask, n);
}

static MlirLogicalResult lowerVsat(Gen *g, MlirOperation op, MlirValue *out) {
  MlirValue u = mlirOperationGetOperand(op, 0), v = mlirOperationGetOperand(op, 1);
  MlirType t = mlirValueGetType(u);
  int64_t n = mlirShapedTypeGetDimSize(t, 0);
  bool half = n == 64;
  unsigned narrow = half ? 8 : 16;
  int64_t lo = half ? 0 : -32768, hi = half ? 255 : 32767;
  MlirValue sat[2];
  for (int k = 0; k < 2; k++) {
    MlirValue x = k ? u : v; /* v's lanes go first */
    MlirType e = mlirShapedTypeGetElementType(t);
    x = emitBinary(g->b, g->loc, "arith.maxsi", x, splat(g, strataConstInt(g->b, g->loc, e, lo), n, half ? 16 : 32));
    x = emitBinary(g->b, g->loc, "arith.minsi", x, splat(g, strataConstInt(g->b, g->loc, e, hi), n, half ? 16 : 32));
    sat[k] = op1(g, "arith.trunci", x, vecTy(g, n, narrow));
  }
  int64_t mask[128];
  for (int64_t i = 0; i < 2 * n; i++) mask[i] = i % 2 ? n + i / 2 : i / 2;
  out[0] = shuffle(g, sat[0], sat[1], mask, 2 * n);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult lowerShuffle(Gen *g, MlirOperation op, MlirValue *out) {
  MlirValue a = mlirOperationGetOperand(op, 0), b = mlirOperationGetOperand(op, 1);
  int64_t n = mlirShapedTypeGetDimSize(mlirValueGetType(a), 0);
  if (strataOpIsNamed(op, "dsp.vshuff")) {
    out[0] = interleave(g, a, b, n, 0);
    out[1] = interleave(g, a, b, n, 1);
    return mlirLogicalResultSuccess();
  }
  int64_t even[128], odd[128];
  for (int64_t i = 0; i < n; i++) even[i] = 2 * i, odd[i] = 2 * i + 1;
  out[0] = shuffle(g, a, b, even, n);
  out[1] = shuffle(g, a, b, odd, n);
  return mlirLogicalResultSuccess();
}

typedef MlirLogicalResult (*LowerFn)(Gen *g, MlirOperation op, MlirValue *out);

static MlirLogicalResult rewrite(StrataRewrite *rw, MlirOperation op, void *user) {
  LowerFn fn = (LowerFn)(uintptr_t)user;
  Gen g = {&rw->builder, mlirOperationGetLocation(op), mlirOperationGetContext(op)};
  MlirValue out[2];
  if (mlirLogicalResultIsFailure(fn(&g, op, out))) return mlirLogicalResultFailure();
  strataReplaceOp(rw, op, (StrataValueList){out, mlirOperationGetNumResults(op)});
  return mlirLogicalResultSuccess();
}

static const struct {
  const char *name;
  LowerFn fn;
} kLowerings[] = {
    {"dsp.vrmpy", lowerVrmpy},     {"dsp.vrmpy_acc", lowerVrmpy}, {"dsp.vmpy", lowerMultiply},
    {"dsp.vmpy_acc", lowerMultiply}, {"dsp.vmpa", lowerMultiply}, {"dsp.vmpa_acc", lowerMultiply},
    {"dsp.vdmpy", lowerMultiply},  {"dsp.vdmpy_acc", lowerMultiply}, {"dsp.vsat", lowerVsat},
    {"dsp.vshuff", lowerShuffle},  {"dsp.vdeal", lowerShuffle},
};

static void runDspToVector(StrataPassRun *run, MlirOperation root) {
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(root));
  for (size_t i = 0; i < sizeof kLowerings / sizeof kLowerings[0]; i++)
    strataPatternSetAdd(set, kLowerings[i].name, 1, rewrite, (void *)(uintptr_t)kLowerings[i].fn);
  strataApplyPatternsWalk(set, root);
  strataPatternSetDestroy(set);
  (void)run;
}

static const StrataDialectHandleFn kDeps[] = {mlirGetDialectHandle__vector__, mlirGetDialectHandle__arith__, NULL};

const StrataPassDef strataDspToVectorPass = {
    .name = "dsp-to-vector",
    .summary = "Lower the dsp instruction ops to vector and arith ops (128-byte virtual width)",
    .anchor = "func.func",
    .run = runDspToVector,
    .dependentDialects = kDeps,
};
