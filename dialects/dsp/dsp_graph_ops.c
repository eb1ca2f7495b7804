/* The dsp operator-level ops: the graph layout and instruction selection
 * works on (A4). Their values are logical matrices; where one lives in
 * memory is its `layout` (written by --dsp-select-layouts), and
 * `dsp.convert_layout` marks an edge whose two ends disagree. A MatMul with
 * an `inst` runs, in the interpreter, exactly as that instruction computes it
 * on HVX (dsp_layout.c); without one, as the int32 reference. */
#include <stdlib.h>
#include <string.h>
#include "dsp_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/context.h"
#include "strata/support.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }
static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

static const char *const kLayoutNames[] = {NULL, "col1", "col2", NULL, "col4"};

const char *strataDspLayoutName(int columns) {
  return columns == 1 || columns == 2 || columns == 4 ? kLayoutNames[columns] : NULL;
}

int strataDspLayoutFromName(const char *name) {
  for (int c = 1; name && c <= 4; c++)
    if (kLayoutNames[c] && !strcmp(name, kLayoutNames[c])) return c;
  return 0;
}

/* op's short string attribute `name` into buf; false if absent, not a
 * string, or too long for buf (then it names no layout or instruction). */
static bool attrText(MlirOperation op, const char *name, char *buf, size_t size) {
  MlirAttribute a = strataOpAttr(op, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a)) return false;
  MlirStringRef s = mlirStringAttrGetValue(a);
  if (s.length >= size) return false;
  memcpy(buf, s.data, s.length);
  buf[s.length] = 0;
  return true;
}

int strataDspOpLayout(MlirOperation op, const char *name) {
  char buf[8];
  return attrText(op, name, buf, sizeof buf) ? strataDspLayoutFromName(buf) : 0;
}

/* The operand's static 2-D shape and element type, or a located error. */
static bool matrixOperand(MlirOperation op, int i, const char *name, int64_t dims[2], MlirType *elem) {
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, i));
  int rank;
  int64_t d[STRATA_MAX_RANK];
  if (!strataGetShape(t, &rank, d) || rank != 2 || d[0] < 0 || d[1] < 0) {
    char ts[128];
    strataTypeToString(t, ts, sizeof ts);
    strataEmitOpError(op, "operand '%s' must be a static 2-D tensor, got %s", name, ts);
    return false;
  }
  dims[0] = d[0];
  dims[1] = d[1];
  *elem = mlirShapedTypeGetElementType(t);
  return true;
}

static bool isInt(MlirType t, unsigned width, bool isUnsigned) {
  return mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == width &&
         mlirIntegerTypeIsUnsigned(t) == isUnsigned;
}

static bool elementIs(MlirOperation op, const char *name, MlirType t, unsigned width, bool u) {
  if (isInt(t, width, u)) return true;
  char ts[32];
  strataTypeToString(t, ts, sizeof ts);
  strataEmitOpError(op, "operand '%s' must have %si%u elements, got %s", name, u ? "u" : "", width, ts);
  return false;
}

static void setShape(StrataShape *r, int64_t d0, int64_t d1, MlirType elem) {
  r->rank = 2;
  r->dims[0] = d0;
  r->dims[1] = d1;
  r->elementType = elem;
}

/* C (M x N, i32) = A (M x K, ui8 activations) times B (K x N, i8 weights). */
static MlirLogicalResult inferMatmul(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  (void)def;
  int64_t a[2], b[2];
  MlirType ea, eb;
  if (!matrixOperand(op, 0, "a", a, &ea) || !matrixOperand(op, 1, "b", b, &eb) ||
      !elementIs(op, "a", ea, 8, true) || !elementIs(op, "b", eb, 8, false))
    return fail();
  if (a[1] != b[0]) {
    strataEmitOpError(op, "contracts a's %lld columns with b's %lld rows; they must be equal",
                      (long long)a[1], (long long)b[0]);
    return fail();
  }
  setShape(res, a[0], b[1], mlirIntegerTypeGet(mlirOperationGetContext(op), 32));
  return ok();
}

/* The MatMul's `inst`, 0 when absent (the verifier has checked its value). */
static StrataDspInstr instrOf(MlirOperation op) {
  char name[8];
  return attrText(op, STRATA_DSP_INST, name, sizeof name) ? strataDspInstrFromName(name) : 0;
}

/* The instruction and the layout, when both are given, must agree. */
static MlirLogicalResult verifyMatmul(const StrataOpDef *def, MlirOperation op) {
  (void)def;
  StrataDspInstr inst = instrOf(op);
  int layout = strataDspOpLayout(op, STRATA_DSP_LAYOUT);
  if (!inst || !layout) return ok();
  int c = strataDspInstrColumns(inst);
  if (c != layout) {
    strataEmitOpError(op, "instruction '%s' works on the %s layout, not '%s'", strataDspInstrName(inst),
                      strataDspLayoutName(c), strataDspLayoutName(layout));
    return fail();
  }
  return ok();
}

static MlirLogicalResult interpMatmul(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                      StrataTensor **y) {
  (void)in;
  if (!y[0]) return fail();
  int64_t M = x[0]->dims[0], K = x[0]->dims[1], N = x[1]->dims[1];
  const uint8_t *A = x[0]->data;
  const int8_t *B = x[1]->data;
  int32_t *C = y[0]->data;
  StrataDspInstr inst = instrOf(op);
  if (inst) {
    if (strataDspMatMul(inst, M, K, N, A, B, C)) return ok();
    strataEmitOpError(op, "interpreter: out of memory packing a %lldx%lld operand", (long long)M,
                      (long long)K);
    return fail();
  }
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++) {
      uint32_t s = 0; /* int32 two's complement, as the accumulators wrap */
      for (int64_t k = 0; k < K; k++) s += (uint32_t)(A[i * K + k] * B[k * N + j]);
      C[i * N + j] = (int32_t)s;
    }
  return ok();
}

/* y = usat8((x + 2^(shift-1)) >> shift): int32 accumulators back to uint8
 * activations (HVX: vasr with rounding, then vsat). */
static MlirLogicalResult inferRequant(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  (void)def;
  int64_t d[2];
  MlirType e;
  if (!matrixOperand(op, 0, "x", d, &e) || !elementIs(op, "x", e, 32, false)) return fail();
  int64_t shift;
  if (strataGetI64(op, "shift", &shift) && shift > 31) {
    strataEmitOpError(op, "shift %lld is beyond the 31 bits an int32 can lose", (long long)shift);
    return fail();
  }
  setShape(res, d[0], d[1], mlirIntegerTypeUnsignedGet(mlirOperationGetContext(op), 8));
  return ok();
}

static MlirLogicalResult interpRequant(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                       StrataTensor **y) {
  (void)in;
  int64_t shift = 0;
  if (!y[0] || !strataGetI64(op, "shift", &shift)) return fail();
  int64_t n = strataTensorNumElements(x[0]);
  const int32_t *src = x[0]->data;
  uint8_t *dst = y[0]->data;
  for (int64_t i = 0; i < n; i++) {
    int64_t v = shift ? ((int64_t)src[i] + ((int64_t)1 << (shift - 1))) >> shift : src[i];
    dst[i] = v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v;
  }
  return ok();
}

static MlirLogicalResult inferTranspose(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  (void)def;
  int64_t d[2];
  MlirType e;
  if (!matrixOperand(op, 0, "x", d, &e)) return fail();
  if (strataDTypeSize(strataDTypeFromMlir(e)) == 0) {
    strataEmitOpError(op, "has elements the interpreter cannot hold");
    return fail();
  }
  setShape(res, d[1], d[0], e);
  return ok();
}

static MlirLogicalResult interpTranspose(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                         StrataTensor **y) {
  (void)in;
  (void)op;
  if (!y[0]) return fail();
  int64_t R = x[0]->dims[0], C = x[0]->dims[1];
  size_t e = strataDTypeSize(x[0]->dtype);
  for (int64_t r = 0; r < R; r++)
    for (int64_t c = 0; c < C; c++)
      memcpy((char *)y[0]->data + (c * R + r) * e, (const char *)x[0]->data + (r * C + c) * e, e);
  return ok();
}

static MlirLogicalResult inferConvert(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  (void)def;
  int64_t d[2];
  MlirType e;
  if (!matrixOperand(op, 0, "x", d, &e)) return fail();
  setShape(res, d[0], d[1], e);
  return ok();
}

/* A layout is where the bytes live, not what the matrix holds: the value is
 * unchanged (strataDspPack/Unpack are each other's inverse, test/capi/dsp_layouts.c). */
static MlirLogicalResult interpConvert(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                       StrataTensor **y) {
  (void)in;
  (void)op;
  if (!y[0] || y[0]->dtype != x[0]->dtype) return fail();
  memcpy(y[0]->data, x[0]->data, strataTensorNumBytes(x[0]));
  return ok();
}

#define LAYOUTS "col1|col2|col4"

static const StrataAttrDef kMatmulAttrs[] = {
    {STRATA_DSP_INST, STRATA_ATTR_ENUM, STRATA_ATTR_OPTIONAL, "vmpy|vmpa|vrmpy",
     "the instruction it runs on (set by dsp-select-layouts); absent: the int32 reference"},
    {STRATA_DSP_LAYOUT, STRATA_ATTR_ENUM, STRATA_ATTR_OPTIONAL, LAYOUTS,
     "the layout of `a` and of the result (the instruction's)"},
};
static const StrataAttrDef kRequantAttrs[] = {
    {"shift", STRATA_ATTR_INT, STRATA_ATTR_NON_NEGATIVE, NULL, "right shift, rounding, 0..31"},
    {STRATA_DSP_LAYOUT, STRATA_ATTR_ENUM, STRATA_ATTR_OPTIONAL, LAYOUTS, "layout of input and output"},
};
static const StrataAttrDef kTransposeAttrs[] = {
    {STRATA_DSP_LAYOUT, STRATA_ATTR_ENUM, STRATA_ATTR_OPTIONAL, LAYOUTS,
     "layout it writes (it reads any)"},
};
static const StrataAttrDef kConvertAttrs[] = {
    {"from", STRATA_ATTR_ENUM, 0, LAYOUTS, "the layout `x` is in"},
    {"to", STRATA_ATTR_ENUM, 0, LAYOUTS, "the layout of the result"},
};

static const StrataOpDef kOps[] = {
    {.name = "dsp.matmul",
     .summary = "c = a x b: ui8 activations (M x K) times i8 weights (K x N), int32 result; with "
                "`inst`, computed as that instruction does on HVX",
     .operands = "a, b", .results = "c", .flags = STRATA_OP_PURE, .infer = inferMatmul,
     .interpret = interpMatmul, .dynamism = STRATA_DYN_ISDOS, .types = "ui8 x i8 -> i32",
     .attrs = kMatmulAttrs, .numAttrs = 2, .verify = verifyMatmul},
    {.name = "dsp.requant",
     .summary = "y = usat8((x + 2^(shift-1)) >> shift): int32 accumulators to ui8 activations",
     .operands = "x", .results = "y", .flags = STRATA_OP_PURE, .infer = inferRequant,
     .interpret = interpRequant, .dynamism = STRATA_DYN_ISDOS, .types = "i32 -> ui8",
     .attrs = kRequantAttrs, .numAttrs = 2},
    {.name = "dsp.transpose",
     .summary = "2-D transpose, a layout-transforming operator: reads any layout",
     .operands = "x", .results = "y", .flags = STRATA_OP_PURE, .infer = inferTranspose,
     .interpret = interpTranspose, .dynamism = STRATA_DYN_ISDOS, .types = "any",
     .attrs = kTransposeAttrs, .numAttrs = 1},
    {.name = "dsp.convert_layout",
     .summary = "moves `x` from layout `from` to layout `to`; the value is unchanged",
     .operands = "x", .results = "y", .flags = STRATA_OP_PURE, .infer = inferConvert,
     .interpret = interpConvert, .dynamism = STRATA_DYN_ISDOS, .types = "any",
     .attrs = kConvertAttrs, .numAttrs = 2},
};

const StrataOpTable strataDspGraphOps = {kOps, sizeof kOps / sizeof kOps[0]};
