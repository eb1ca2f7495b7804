/* The sparse dialect's lowerings, listed once: core/registry.c registers
 * every row of this NULL-terminated list.
 *
 * --sparse-to-scf and --sparse-to-vector rewrite each sparse.fkw_conv and
 * sparse.csr_conv (static shapes, f32) into a call to a generated private
 * function over memrefs, like nn-to-kernels' runtime calls: the tensors
 * cross as memrefs (bufferization.to_buffer / to_tensor), so One-Shot
 * Bufferize plans the buffers around the call; the output and the padded
 * input scratch are allocations at the call (the CPU pipeline's arena
 * takes them). sparse-to-scf emits scalar loops (the portable form other
 * targets reuse), sparse-to-vector the register-tiled vector code. */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Bufferization.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/Math.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Dialect/Vector.h"
#include "strata/context.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/support.h"
#include "sv_internal.h"

typedef struct {
  MlirOperation module;
  SvOptions o;
  bool failed;
} Run;

/* Register tile when the op has no `tile`: 4 output rows x 4 vectors (the
 * best of the VGG layers' measurements, docs/passes.md). */
enum { DEFAULT_ROWS = 4, DEFAULT_VECTORS = 4 };

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

SvTuning svTuningFor(MlirOperation op, const SvGeom *geo, const SvOptions *o) {
  SvTuning t = {1, 1, 1, true};
  MlirAttribute perm = strataOpAttr(op, "permute");
  if (!mlirAttributeIsNull(perm) && mlirAttributeIsAString(perm))
    t.rowsOuter = mlirStringRefEqual(mlirStringAttrGetValue(perm), mlirStringRefCreateFromCString("oh_co_ow_ci"));
  if (!o->vector || !o->lre) return t; /* one output element (vector) per tile, each tap its own load */
  int64_t v[2] = {DEFAULT_ROWS, DEFAULT_VECTORS}, u = 1;
  strataGetI64Array(op, "tile", v, 2);
  strataGetI64Array(op, "unroll", &u, 1);
  int64_t vectors = (geo->OW + o->lanes - 1) / o->lanes; /* more than the row has would only be masked */
  t.R = min64(v[0], geo->OH), t.T = min64(v[1], vectors), t.U = u;
  return t;
}

static MlirType memrefOf(MlirType tensorOrElem, int64_t n) {
  if (n > 0)
    return mlirMemRefTypeGet(tensorOrElem, 1, &n, mlirAttributeGetNull(), mlirAttributeGetNull());
  MlirType t = tensorOrElem;
  int64_t shape[4];
  intptr_t rank = mlirShapedTypeGetRank(t);
  for (intptr_t i = 0; i < rank; i++) shape[i] = mlirShapedTypeGetDimSize(t, i);
  return mlirMemRefTypeGet(mlirShapedTypeGetElementType(t), rank, shape, mlirAttributeGetNull(),
                           mlirAttributeGetNull());
}

/* memref.alloc of a static type, 64-byte aligned. */
static MlirValue alloc(StrataBuilder *b, MlirLocation loc, MlirType t) {
  int32_t segments[2] = {0, 0};
  return strataResult(strataCreateOp(b, "memref.alloc", loc, .results = STRATA_TYPES(t),
                                     .attrs = STRATA_ATTRS({"alignment", strataI64Attr(b->ctx, 64)},
                                                           {"operandSegmentSizes", mlirDenseI32ArrayGet(b->ctx, 2, segments)})),
                      0);
}

/* The call replacing `op`: fn(x, [b,] y, scratch), y returned as a tensor. */
static void emitCall(StrataRewrite *rw, MlirOperation op, const char *fn, const MlirType *types, int n) {
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder b = strataBuilderBefore(op, rw->rewriter);
  MlirValue args[4];
  int k = (int)mlirOperationGetNumOperands(op);
  for (int i = 0; i < k; i++)
    args[i] = strataResult(strataCreateOp(&b, "bufferization.to_buffer", loc,
                                          .operands = STRATA_VALUES(mlirOperationGetOperand(op, i)),
                                          .results = STRATA_TYPES(types[i]),
                                          .attrs = STRATA_ATTRS({"read_only", mlirUnitAttrGet(b.ctx)})),
                           0);
  MlirValue y = alloc(&b, loc, types[k]);
  args[k] = y;
  args[k + 1] = alloc(&b, loc, types[k + 1]);
  strataCreateOp(&b, "func.call", loc, .operands = {args, n},
                 .attrs = STRATA_ATTRS({"callee", mlirFlatSymbolRefAttrGet(b.ctx, mlirStringRefCreateFromCString(fn))}));
  MlirValue result = strataResult(
      strataCreateOp(&b, "bufferization.to_tensor", loc, .operands = STRATA_VALUES(y),
                     .results = STRATA_TYPES(mlirValueGetType(mlirOperationGetResult(op, 0))),
                     .attrs = STRATA_ATTRS({"restrict", mlirUnitAttrGet(b.ctx)}, {"writable", mlirUnitAttrGet(b.ctx)})),
      0);
  strataReplaceOp(rw, op, STRATA_VALUES(result));
}

/* Generates the function of `op` (fkw or csr) and calls it. */
static MlirLogicalResult rewrite(StrataRewrite *rw, MlirOperation op, void *user) {
  Run *r = user;
  SparseWindow win;
  SvGeom geo;
  bool fkw = strataOpIsNamed(op, "sparse.fkw_conv");
  SparseFkw f;
  SparseCsr c;
  if (!sparseWindowGet(op, &win) || !svGeomInit(&geo, op, &win, r->o.vector ? r->o.lanes : 1) ||
      !(fkw ? sparseFkwFromOp(op, &f) : sparseCsrFromOp(op, &c))) {
    r->failed = true;
    return mlirLogicalResultFailure();
  }
  char name[64];
  for (int i = 0;; i++) {
    snprintf(name, sizeof name, "__strata_sparse_%s%d", fkw ? "fkw" : "csr", i);
    if (!strataModuleHasSymbol(r->module, name)) break;
  }
  MlirContext ctx = mlirOperationGetContext(op);
  MlirType types[4], f32 = mlirF32TypeGet(ctx);
  int n = 0;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    types[n++] = memrefOf(mlirValueGetType(mlirOperationGetOperand(op, i)), 0);
  types[n++] = memrefOf(mlirValueGetType(mlirOperationGetResult(op, 0)), 0);
  types[n++] = memrefOf(f32, geo.size);
  SvGen g;
  MlirBlock entry = svFuncBegin(&g, r->module, mlirOperationGetLocation(op), name, types, n, &r->o);
  SvTuning tn = svTuningFor(op, &geo, &r->o);
  bool ok = fkw ? svEmitFkw(&g, op, &f, &geo, &r->o, &tn, entry) : svEmitCsr(&g, op, &c, &geo, &r->o, entry);
  if (fkw) sparseFkwFree(&f);
  else sparseCsrFree(&c);
  if (!ok) {
    r->failed = true;
    return mlirLogicalResultFailure();
  }
  svFuncEnd(&g);
  emitCall(rw, op, name, types, n);
  return mlirLogicalResultSuccess();
}

/* f32 lanes of the host's widest SIMD registers. */
static int64_t hostLanes(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return 16;
  if (__builtin_cpu_supports("avx")) return 8;
#endif
  return 4; /* SSE, NEON and the like: 128 bits */
}

static void runLowering(StrataPassRun *run, MlirOperation module, SvOptions o) {
  if (mlirLogicalResultIsFailure(strataVerify(strataPassGetContext(run), module))) {
    strataPassSignalFailure(run);
    return;
  }
  Run r = {module, o, false};
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(module));
  strataPatternSetAdd(set, "sparse.fkw_conv", 1, rewrite, &r);
  strataPatternSetAdd(set, "sparse.csr_conv", 1, rewrite, &r);
  strataApplyPatternsWalk(set, module);
  strataPatternSetDestroy(set);
  if (r.failed) strataPassSignalFailure(run);
}

static void runToScf(StrataPassRun *run, MlirOperation module) {
  SvOptions o = {false, strataPassGetBool(run, "segments"), false, 1};
  runLowering(run, module, o);
}

static void runToVector(StrataPassRun *run, MlirOperation module) {
  int64_t w = strataPassGetInt(run, "vector-width");
  if (w < 0 || w > 64 || (w & (w - 1))) {
    strataEmitError(mlirOperationGetLocation(module),
                    "sparse-to-vector: vector-width must be 0 (the host's) or a power of two up to 64, not %lld",
                    (long long)w);
    strataPassSignalFailure(run);
    return;
  }
  SvOptions o = {true, strataPassGetBool(run, "segments"), strataPassGetBool(run, "lre"), w ? w : hostLanes()};
  runLowering(run, module, o);
}

#define SEGMENTS_OPTION                                                                                \
  {"segments", STRATA_OPTION_BOOL, "true",                                                             \
   "one loop per pattern with bounds from `stride` (false: a switch on each kernel's pattern)"}

static const StrataPassOptionDef kScfOptions[] = {SEGMENTS_OPTION};
static const StrataPassOptionDef kVectorOptions[] = {
    SEGMENTS_OPTION,
    {"lre", STRATA_OPTION_BOOL, "true",
     "register tiles (the op's `tile`, `unroll`) with shared input loads (false: a load per tap)"},
    {"vector-width", STRATA_OPTION_INT, "0", "f32 lanes per vector (0: the host's widest SIMD)"},
};

static const StrataDialectHandleFn kDeps[] = {
    mlirGetDialectHandle__bufferization__, mlirGetDialectHandle__memref__, mlirGetDialectHandle__func__,
    mlirGetDialectHandle__arith__, mlirGetDialectHandle__scf__, mlirGetDialectHandle__math__,
    mlirGetDialectHandle__vector__, NULL};

static const StrataPassDef kToScf = {
    .name = "sparse-to-scf",
    .summary = "Lower sparse.fkw_conv / sparse.csr_conv to calls of generated scalar scf loops (one loop per "
               "pattern, bounds from the FKW arrays)",
    .anchor = "builtin.module",
    .options = kScfOptions,
    .numOptions = 1,
    .run = runToScf,
    .dependentDialects = kDeps,
};

static const StrataPassDef kToVector = {
    .name = "sparse-to-vector",
    .summary = "Lower sparse.fkw_conv / sparse.csr_conv to calls of generated vector code: per-pattern "
               "loops, register tiles, load-redundancy elimination, host SIMD width",
    .anchor = "builtin.module",
    .options = kVectorOptions,
    .numOptions = 3,
    .run = runToVector,
    .dependentDialects = kDeps,
};

const StrataPassDef *const strataSparseLowerPasses[] = {
    &kToScf,
    &kToVector,
    NULL,
};
