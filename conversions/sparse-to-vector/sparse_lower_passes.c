/* The sparse dialect's lowerings, listed once: core/registry.c registers
 * every row of this NULL-terminated list.
 *
 * --sparse-to-scf and --sparse-to-vector rewrite each sparse.fkw_conv and
 * sparse.csr_conv (static shapes, f32) into a generated private chunk
 * function (sv_internal.h) and its dispatch at the op: the tensors cross as
 * memrefs (bufferization.to_buffer / to_tensor), so One-Shot Bufferize
 * plans the buffers around it, and the output is an allocation there (the
 * CPU pipeline's arena takes it). sparse-to-vector hands the chunk
 * function to the runtime's thread pool (strata_rt_parallel_chunks, which
 * gives each thread its own scratch); sparse-to-scf, the portable scalar
 * form, calls it once over every item with a scratch allocated at the op.
 * An op whose result's sole user is an nn.relu, or an nn.clip with
 * constant bounds, stores its tiles through it, and the activation goes
 * (epilogues=true, as nn-to-kernels' kernels do). */
#include <math.h>
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
#include "lower_helpers.h"
#include "nn_internal.h"
#include "sv_internal.h"

typedef struct {
  MlirOperation module;
  SvOptions o;
  bool parallel;  /* dispatch through the runtime's thread pool */
  bool autoWidth; /* o.lanes is the host's (vector-width=0) */
  bool failed;
} Run;

/* Input layout when the op has no `layout` (its tile: sparseDefaultTile),
 * but see defaultSums. */
#define DEFAULT_LAYOUT SV_LAYOUT_PHASES

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* An op with neither `tile` nor `layout` takes the sums layout where it
 * applies to its rows (sparseDefaultSums): narrow rows then shift nothing
 * in their kernel loops. */
static void defaultSums(MlirOperation op, int64_t OH, int64_t OW, int64_t lanes, SvTuning *t) {
  SparseWindow w;
  int64_t tile[2] = {t->R, t->T};
  if (!sparseWindowGet(op, &w) || !sparseDefaultSums(&w, OH, OW, lanes, tile)) return;
  t->layout = SV_LAYOUT_SUMS, t->R = tile[0], t->T = tile[1];
}

SvTuning svTuningFor(MlirOperation op, int64_t OH, int64_t OW, const SvOptions *o) {
  SvTuning t = {1, 1, 1, false, DEFAULT_LAYOUT};
  MlirAttribute perm = strataOpAttr(op, "permute"), layout = strataOpAttr(op, "layout");
  if (!mlirAttributeIsNull(perm) && mlirAttributeIsAString(perm))
    t.colsOuter = mlirStringRefEqual(mlirStringAttrGetValue(perm), mlirStringRefCreateFromCString("oh_ow_co_ci"));
  if (!mlirAttributeIsNull(layout) && mlirAttributeIsAString(layout)) {
    MlirStringRef name = mlirStringAttrGetValue(layout);
    t.layout = mlirStringRefEqual(name, mlirStringRefCreateFromCString("views"))  ? SV_LAYOUT_VIEWS
               : mlirStringRefEqual(name, mlirStringRefCreateFromCString("sums")) ? SV_LAYOUT_SUMS
                                                                                  : SV_LAYOUT_PHASES;
  }
  if (!o->vector || !o->lre) return t; /* one output element (vector) per tile, each tap its own load */
  int64_t vectors = (OW + o->lanes - 1) / o->lanes; /* more than the row has would only be masked */
  int64_t v[2], u = 1;
  sparseDefaultTile(OH, vectors, v);
  bool tiled = strataGetI64Array(op, "tile", v, 2) > 0;
  strataGetI64Array(op, "unroll", &u, 1);
  t.R = min64(v[0], OH > 0 ? OH : 1), t.T = min64(v[1], vectors > 0 ? vectors : 1), t.U = u;
  if (!tiled && mlirAttributeIsNull(layout) && u == 1) defaultSums(op, OH, OW, o->lanes, &t);
  return t;
}

static MlirType memrefType(MlirType elem, int rank, const int64_t *shape) {
  return mlirMemRefTypeGet(elem, rank, shape, mlirAttributeGetNull(), mlirAttributeGetNull());
}

/* The static memref type of a tensor type. */
static MlirType memrefOf(MlirType tensor) {
  int64_t shape[4];
  intptr_t rank = mlirShapedTypeGetRank(tensor);
  for (intptr_t i = 0; i < rank; i++) shape[i] = mlirShapedTypeGetDimSize(tensor, i);
  return memrefType(mlirShapedTypeGetElementType(tensor), (int)rank, shape);
}

static MlirValue op1(StrataBuilder *b, const char *name, MlirLocation loc, MlirValue v, MlirType t) {
  return strataResult(strataCreateOp(b, name, loc, .operands = STRATA_VALUES(v), .results = STRATA_TYPES(t)), 0);
}

/* memref.reinterpret_cast of v (dense, offset 0) to the static type t. */
static MlirValue reinterpret(StrataBuilder *b, MlirLocation loc, MlirValue v, MlirType t) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t sizes[4], strides[4], zero = 0, step = 1;
  for (intptr_t i = rank - 1; i >= 0; i--) sizes[i] = mlirShapedTypeGetDimSize(t, i), strides[i] = step, step *= sizes[i];
  int32_t segments[4] = {1, 0, 0, 0};
  return strataResult(
      strataCreateOp(b, "memref.reinterpret_cast", loc, .operands = STRATA_VALUES(v), .results = STRATA_TYPES(t),
                     .attrs = STRATA_ATTRS({"static_offsets", mlirDenseI64ArrayGet(b->ctx, 1, &zero)},
                                           {"static_sizes", mlirDenseI64ArrayGet(b->ctx, rank, sizes)},
                                           {"static_strides", mlirDenseI64ArrayGet(b->ctx, rank, strides)},
                                           {"operandSegmentSizes", mlirDenseI32ArrayGet(b->ctx, 4, segments)})),
      0);
}

/* memref.alloc of a static type, 64-byte aligned. */
static MlirValue alloc(StrataBuilder *b, MlirLocation loc, MlirType t) {
  int32_t segments[2] = {0, 0};
  return strataResult(strataCreateOp(b, "memref.alloc", loc, .results = STRATA_TYPES(t),
                                     .attrs = STRATA_ATTRS({"alignment", strataI64Attr(b->ctx, 64)},
                                                           {"operandSegmentSizes", mlirDenseI32ArrayGet(b->ctx, 2, segments)})),
                      0);
}

/* A static memref as memref<?xf32> (its elements in order). */
static MlirValue flat(StrataBuilder *b, MlirLocation loc, MlirValue v) {
  MlirType t = mlirValueGetType(v);
  int64_t n = 1, dyn = mlirShapedTypeGetDynamicSize();
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); i++) n *= mlirShapedTypeGetDimSize(t, i);
  MlirType f32 = mlirF32TypeGet(b->ctx);
  return op1(b, "memref.cast", loc, reinterpret(b, loc, v, memrefType(f32, 1, &n)), memrefType(f32, 1, &dyn));
}

static MlirType chunkFnType(MlirContext ctx) {
  MlirType f32 = mlirF32TypeGet(ctx), idx = mlirIndexTypeGet(ctx);
  int64_t dyn = mlirShapedTypeGetDynamicSize();
  MlirType m = memrefType(f32, 1, &dyn), args[SV_NUM_ARGS] = {m, m, m, m, idx, idx};
  return mlirFunctionTypeGet(ctx, SV_NUM_ARGS, args, 0, NULL);
}

/* The activation a sparse op's stores can take: its result's sole user
 * when that is an f32 nn.relu, or an nn.clip with constant bounds, of the
 * same type (null otherwise; g's activation set). */
static MlirOperation absorbedActivation(MlirOperation op, SvGen *g) {
  MlirValue y = mlirOperationGetResult(op, 0);
  MlirOperation u = lowerSoleUser(y);
  if (mlirOperationIsNull(u) || mlirOperationGetNumResults(u) != 1 ||
      !mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(u, 0)), mlirValueGetType(y)))
    return (MlirOperation){NULL};
  if (strataOpIsNamed(u, "nn.relu")) {
    g->act = SV_ACT_RELU;
    return u;
  }
  if (strataOpIsNamed(u, "nn.clip") && mlirOperationGetNumOperands(u) == 1 && nnAttrFloat(u, "min", -INFINITY, &g->lo) &&
      nnAttrFloat(u, "max", INFINITY, &g->hi)) {
    g->act = SV_ACT_CLIP;
    return u;
  }
  return (MlirOperation){NULL};
}

/* The dispatch replacing `op` (and `act`, its absorbed activation, if not
 * null): the chunk function `fn` over all `items` (scratch: floats per
 * chunk), y returned as a tensor. */
static bool emitDispatch(StrataRewrite *rw, Run *r, MlirOperation op, MlirOperation act, const char *fn, int64_t items,
                         int64_t scratch) {
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder b = strataBuilderBefore(op, rw->rewriter);
  MlirContext ctx = b.ctx;
  MlirValue in[2];
  int k = (int)mlirOperationGetNumOperands(op);
  for (int i = 0; i < k; i++)
    in[i] = strataResult(strataCreateOp(&b, "bufferization.to_buffer", loc,
                                        .operands = STRATA_VALUES(mlirOperationGetOperand(op, i)),
                                        .results = STRATA_TYPES(memrefOf(mlirValueGetType(mlirOperationGetOperand(op, i)))),
                                        .attrs = STRATA_ATTRS({"read_only", mlirUnitAttrGet(ctx)})),
                         0);
  MlirType yt = mlirValueGetType(mlirOperationGetResult(op, 0));
  MlirValue y = alloc(&b, loc, memrefOf(yt));
  MlirType fnType = chunkFnType(ctx);
  MlirAttribute callee = mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(fn));
  if (r->parallel) {
    if (mlirLogicalResultIsFailure(strataDeclareRuntimeFunc(r->module, "strata_rt_parallel_chunks"))) return false;
    MlirType f32 = mlirF32TypeGet(ctx), i64 = mlirIntegerTypeGet(ctx, 64);
    MlirType unranked = mlirUnrankedMemRefTypeGet(f32, mlirAttributeGetNull());
    MlirValue args[6];
    args[0] = strataResult(strataCreateOp(&b, "func.constant", loc, .results = STRATA_TYPES(fnType),
                                          .attrs = STRATA_ATTRS({"value", callee})),
                           0);
    args[1] = op1(&b, "memref.cast", loc, in[0], unranked);
    args[3] = op1(&b, "memref.cast", loc, y, unranked);
    args[2] = k > 1 ? op1(&b, "memref.cast", loc, in[1], unranked) : args[1]; /* no bias: any buffer, unread */
    args[4] = strataConstInt(&b, loc, i64, items);
    args[5] = strataConstInt(&b, loc, i64, scratch);
    strataCreateOp(&b, "func.call", loc, .operands = {args, 6},
                   .attrs = STRATA_ATTRS({"callee", mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(
                                                                                      "strata_rt_parallel_chunks"))}));
  } else {
    MlirValue args[SV_NUM_ARGS];
    args[SV_ARG_X] = flat(&b, loc, in[0]);
    args[SV_ARG_B] = k > 1 ? flat(&b, loc, in[1]) : args[SV_ARG_X];
    args[SV_ARG_Y] = flat(&b, loc, y);
    args[SV_ARG_SCRATCH] = flat(&b, loc, alloc(&b, loc, memrefType(mlirF32TypeGet(ctx), 1, &scratch)));
    args[SV_ARG_BEGIN] = strataConstInt(&b, loc, mlirIndexTypeGet(ctx), 0);
    args[SV_ARG_END] = strataConstInt(&b, loc, mlirIndexTypeGet(ctx), items);
    strataCreateOp(&b, "func.call", loc, .operands = {args, SV_NUM_ARGS}, .attrs = STRATA_ATTRS({"callee", callee}));
  }
  MlirValue result = strataResult(
      strataCreateOp(&b, "bufferization.to_tensor", loc, .operands = STRATA_VALUES(y), .results = STRATA_TYPES(yt),
                     .attrs = STRATA_ATTRS({"restrict", mlirUnitAttrGet(ctx)}, {"writable", mlirUnitAttrGet(ctx)})),
      0);
  if (!mlirOperationIsNull(act)) {
    strataReplaceOp(rw, act, STRATA_VALUES(result));
    strataEraseOp(rw, op);
  } else {
    strataReplaceOp(rw, op, STRATA_VALUES(result));
  }
  return true;
}

/* The chunk function's arguments as the emitters use them: x, b and y
 * with their shapes, the scratch 1-D, the item range. */
static void chunkArgs(SvGen *g, MlirOperation op, MlirBlock entry, MlirValue *args) {
  for (int i = 0; i < SV_NUM_ARGS; i++) args[i] = mlirBlockGetArgument(entry, i);
  args[SV_ARG_X] = reinterpret(&g->b, g->loc, args[SV_ARG_X], memrefOf(mlirValueGetType(mlirOperationGetOperand(op, 0))));
  args[SV_ARG_B] = mlirOperationGetNumOperands(op) > 1
                       ? reinterpret(&g->b, g->loc, args[SV_ARG_B], memrefOf(mlirValueGetType(mlirOperationGetOperand(op, 1))))
                       : (MlirValue){NULL};
  args[SV_ARG_Y] = reinterpret(&g->b, g->loc, args[SV_ARG_Y], memrefOf(mlirValueGetType(mlirOperationGetResult(op, 0))));
}

/* Generates the chunk function of `op` (fkw or csr) and dispatches it. */
static MlirLogicalResult rewrite(StrataRewrite *rw, MlirOperation op, void *user) {
  Run *r = user;
  if (r->failed) return mlirLogicalResultFailure(); /* reported once; the driver may revisit */
  SparseWindow win;
  SvGeom geo;
  bool fkw = strataOpIsNamed(op, "sparse.fkw_conv");
  SparseFkw f;
  SparseCsr c;
  MlirType yt = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!sparseWindowGet(op, &win)) {
    r->failed = true;
    return mlirLogicalResultFailure();
  }
  bool shaped = mlirTypeIsARankedTensor(yt) && mlirShapedTypeHasStaticShape(yt);
  int64_t OH = shaped ? mlirShapedTypeGetDimSize(yt, 2) : 1, OW = shaped ? mlirShapedTypeGetDimSize(yt, 3) : 1;
  /* At the host's width, narrow outputs would leave most lanes unused (7
   * columns in 16 lanes): halve the vectors while they still cover a row,
   * down to 4 lanes. An explicit vector-width stands. */
  SvOptions o = r->o;
  if (o.vector && r->autoWidth)
    while (o.lanes > 4 && o.lanes / 2 >= OW) o.lanes /= 2;
  SvTuning tn = svTuningFor(op, OH, OW, &o);
  /* CSR: output rows per item, for the views' copy to pay off (the
   * baseline is not tuned) */
  int64_t R = fkw ? tn.R : 4;
  SvLayout layout = fkw ? tn.layout : SV_LAYOUT_VIEWS; /* CSR decodes its taps at run time: aligned views */
  if (!svGeomInit(&geo, op, &win, layout, o.vector ? o.lanes : 1, R) || !(fkw ? sparseFkwFromOp(op, &f) : sparseCsrFromOp(op, &c))) {
    r->failed = true;
    return mlirLogicalResultFailure();
  }
  char name[64];
  for (int i = 0;; i++) {
    snprintf(name, sizeof name, "__strata_sparse_%s%d", fkw ? "fkw" : "csr", i);
    if (!strataModuleHasSymbol(r->module, name)) break;
  }
  MlirContext ctx = mlirOperationGetContext(op);
  MlirType fnType = chunkFnType(ctx), types[SV_NUM_ARGS];
  for (int i = 0; i < SV_NUM_ARGS; i++) types[i] = mlirFunctionTypeGetInput(fnType, i);
  SvGen g;
  MlirBlock entry = svFuncBegin(&g, r->module, mlirOperationGetLocation(op), name, types, SV_NUM_ARGS, &o);
  MlirOperation act = r->o.epilogues ? absorbedActivation(op, &g) : (MlirOperation){NULL};
  MlirValue args[SV_NUM_ARGS];
  chunkArgs(&g, op, entry, args);
  bool ok = fkw ? svEmitFkw(&g, op, &f, &geo, &o, &tn, args) : svEmitCsr(&g, op, &c, &geo, &o, args);
  if (fkw) sparseFkwFree(&f);
  else sparseCsrFree(&c);
  if (ok) svFuncEnd(&g);
  if (!ok || !emitDispatch(rw, r, op, act, name, geo.items, geo.size)) {
    r->failed = true;
    return mlirLogicalResultFailure();
  }
  return mlirLogicalResultSuccess();
}

/* sparse.pattern_conv is compiled from its FKW form, which needs its
 * weights as a constant (sparse-fkw, in the CPU pipelines before this). */
static MlirLogicalResult refusePatternConv(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)rw;
  Run *r = user;
  if (r->failed) return mlirLogicalResultFailure();
  if (mlirAttributeIsNull(sparseConstantValue(mlirOperationGetOperand(op, 1))))
    strataEmitOpError(op, "has weights that are not a constant: it is compiled from its FKW form (sparse-fkw), which "
                  "holds the weights in the code");
  else
    strataEmitOpError(op, "is compiled from its FKW form: run sparse-fkw first (the CPU pipelines do)");
  r->failed = true;
  return mlirLogicalResultFailure();
}

static void runLowering(StrataPassRun *run, MlirOperation module, SvOptions o, bool parallel, bool autoWidth) {
  if (mlirLogicalResultIsFailure(strataVerify(strataPassGetContext(run), module))) {
    strataPassSignalFailure(run);
    return;
  }
  Run r = {module, o, parallel, autoWidth, false};
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(module));
  strataPatternSetAdd(set, "sparse.fkw_conv", 1, rewrite, &r);
  strataPatternSetAdd(set, "sparse.csr_conv", 1, rewrite, &r);
  strataPatternSetAdd(set, "sparse.pattern_conv", 1, refusePatternConv, &r);
  /* The greedy driver (not the walk driver): a rewrite erases the absorbed
   * activation that follows the matched op. */
  StrataGreedyConfig config = {0, true, false};
  if (mlirLogicalResultIsFailure(strataApplyPatternsGreedily(set, module, &config))) r.failed = true;
  strataPatternSetDestroy(set);
  if (r.failed) strataPassSignalFailure(run);
}

static void runToScf(StrataPassRun *run, MlirOperation module) {
  SvOptions o = {false, strataPassGetBool(run, "segments"), false, strataPassGetBool(run, "epilogues"), 1};
  runLowering(run, module, o, false, false);
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
  SvOptions o = {true, strataPassGetBool(run, "segments"), strataPassGetBool(run, "lre"),
                 strataPassGetBool(run, "epilogues"), w ? w : strataHostF32Lanes()};
  runLowering(run, module, o, strataPassGetBool(run, "parallel"), w == 0);
}

#define SEGMENTS_OPTION                                                                                \
  {"segments", STRATA_OPTION_BOOL, "true",                                                             \
   "one loop per pattern with bounds from `stride` (false: a switch on each kernel's pattern)"}

#define EPILOGUES_OPTION                                                                               \
  {"epilogues", STRATA_OPTION_BOOL, "true",                                                            \
   "store through a sole-user nn.relu or nn.clip (constant bounds), which goes (false: keep it)"}

static const StrataPassOptionDef kScfOptions[] = {SEGMENTS_OPTION, EPILOGUES_OPTION};
static const StrataPassOptionDef kVectorOptions[] = {
    SEGMENTS_OPTION,
    EPILOGUES_OPTION,
    {"lre", STRATA_OPTION_BOOL, "true",
     "register tiles (the op's `tile`, `unroll`) with shared input loads (false: a load per tap)"},
    {"vector-width", STRATA_OPTION_INT, "0", "f32 lanes per vector (0: the host's widest SIMD)"},
    {"parallel", STRATA_OPTION_BOOL, "true",
     "run the row tiles on libstrata_rt's thread pool (false: one call over them all, a scratch at the op)"},
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
    .numOptions = sizeof kScfOptions / sizeof kScfOptions[0],
    .run = runToScf,
    .dependentDialects = kDeps,
};

static const StrataPassDef kToVector = {
    .name = "sparse-to-vector",
    .summary = "Lower sparse.fkw_conv / sparse.csr_conv to calls of generated vector code: per-pattern "
               "loops, register tiles, load-redundancy elimination, host SIMD width",
    .anchor = "builtin.module",
    .options = kVectorOptions,
    .numOptions = sizeof kVectorOptions / sizeof kVectorOptions[0],
    .run = runToVector,
    .dependentDialects = kDeps,
};

const StrataPassDef *const strataSparseLowerPasses[] = {
    &kToScf,
    &kToVector,
    NULL,
};
