/* --pred-compress-plans: page-based run-length encoding of the integer
 * tables compiled code reads (Grape's metadata compressor;
 * docs/pred-memory.md). In Strata the "execution-plan tables" are the
 * constant integer `memref.global`s the CPU pipeline emits: the sparse
 * dialect's FKW and CSR index arrays, gather indices, shape tables. A table
 * of at least `min-bytes` whose image (runtime/pred_memory.h) is at least
 * `min-ratio` times smaller is replaced by its image, a constant byte
 * global, and each `memref.get_global` of it by the runtime's decompressed
 * copy:
 *
 *   %t = memref.get_global @idx : memref<4096xi32>
 * becomes
 *   %i = memref.get_global @idx_rle : memref<Kxi8>
 *   %d = memref.cast %i : memref<Kxi8> to memref<?xi8>
 *   %b = call @strata_rt_plan_table(%d, %c16384_i64) : (memref<?xi8>, i64) -> memref<?xi8>
 *   %t = memref.view %b[%c0][] : memref<?xi8> to memref<4096xi32>
 *
 * Where the copy lives: in libstrata_rt's constant cache (the one packed
 * GEMM weights use), decompressed on the first call and kept until the
 * code is unloaded (strataRtReleasePackedConstants, which strataJitDestroy
 * calls); later calls, from any thread, get the same read-only buffer. So
 * the compiled module carries only the image and no code holds mutable
 * state; the price is a cache lookup per use, which is why this is not in
 * the default pipelines. A per-call copy could not serve the sparse
 * kernels: their tables are read inside the chunk functions the thread
 * pool runs, whose signature is fixed.
 *
 * Planning walks the module's globals and compresses them; the rewrite of
 * each use is a pattern rooted at memref.get_global run by the walk
 * driver; the image globals and the runtime declaration are added, and the
 * replaced globals erased, once after it (module-level symbols, as
 * strata-buffer-arena's declarations). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/MemRef.h"
#include "strata/builder.h"
#include "strata/context.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/support.h"
#include "grow.h"
#include "pred_memory.h"

#define TABLE_FN "strata_rt_plan_table"

typedef struct {
  MlirOperation global;
  char name[256], imageName[280];
  uint32_t *image;
  size_t imageBytes;
  int64_t rawBytes;
  MlirType type; /* the table's memref type */
  size_t uses;   /* get_globals rewritten */
} Table;

typedef struct {
  Table *tables;
  size_t count, cap;
  bool oom;
} PlanSet;

static MlirStringRef symName(MlirOperation op) {
  MlirAttribute a = strataOpAttr(op, "sym_name");
  return mlirAttributeIsNull(a) || !mlirAttributeIsAString(a) ? (MlirStringRef){NULL, 0} : mlirStringAttrGetValue(a);
}

/* The raw bytes of a constant integer global's table in a new buffer
 * (NULL if it is not one this pass compresses: no initial value, a
 * resource, a width that is not whole bytes, a dynamic or strided type). */
static unsigned char *tableBytes(MlirOperation global, MlirType *type, int64_t *bytes) {
  if (mlirAttributeIsNull(strataOpAttr(global, "constant"))) return NULL;
  MlirAttribute ta = strataOpAttr(global, "type"), init = strataOpAttr(global, "initial_value");
  if (mlirAttributeIsNull(ta) || mlirAttributeIsNull(init) || !mlirAttributeIsADenseElements(init)) return NULL;
  MlirType t = mlirTypeAttrGetValue(ta);
  if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t) ||
      !mlirAffineMapIsIdentity(mlirMemRefTypeGetAffineMap(t)) ||
      !mlirAttributeIsNull(mlirMemRefTypeGetMemorySpace(t)))
    return NULL;
  MlirType e = mlirShapedTypeGetElementType(t);
  if (!mlirTypeIsAInteger(e)) return NULL;
  unsigned width = mlirIntegerTypeGetWidth(e);
  if (width != 8 && width != 16 && width != 32 && width != 64) return NULL;
  int64_t n = mlirElementsAttrGetNumElements(init), size;
  if (!strataCheckedMul(n, width / 8, &size) || size <= 0) return NULL;
  unsigned char *out = malloc((size_t)size);
  if (!out) return NULL;
  const unsigned char *raw = mlirDenseElementsAttrGetRawData(init);
  if (mlirDenseElementsAttrIsSplat(init))
    for (int64_t i = 0; i < n; i++) memcpy(out + i * (width / 8), raw, width / 8);
  else memcpy(out, raw, (size_t)size);
  *type = t;
  *bytes = size;
  return out;
}

/* Compresses the module's qualifying globals into plan->tables. */
static void planTables(PlanSet *plan, MlirOperation module, int64_t minBytes, double minRatio, bool report) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op) && !plan->oom;
       op = mlirOperationGetNextInBlock(op)) {
    if (!strataOpIsNamed(op, "memref.global")) continue;
    MlirStringRef name = symName(op);
    MlirType type;
    int64_t bytes;
    if (!name.data || name.length >= sizeof plan->tables->name) continue;
    unsigned char *raw = tableBytes(op, &type, &bytes);
    if (!raw) continue;
    size_t cap = strataRtPlanRleBound((size_t)bytes), imageBytes = 0;
    uint32_t *image = bytes >= minBytes && cap ? malloc(cap) : NULL;
    bool packed = image && strataRtPlanRleCompress(raw, (size_t)bytes, image, cap, &imageBytes) == 0;
    free(raw);
    double ratio = packed ? (double)bytes / (double)imageBytes : 0;
    if (report && packed)
      strataEmitDiagnostic(STRATA_SEVERITY_REMARK, mlirOperationGetLocation(op),
                           "pred-compress-plans: @%.*s: %lld bytes -> %zu (%.1fx)%s", (int)name.length, name.data,
                           (long long)bytes, imageBytes, ratio, ratio >= minRatio ? "" : ", kept");
    if (!packed || ratio < minRatio) {
      free(image);
      continue;
    }
    Table *tables = strataGrow(plan->tables, &plan->cap, plan->count + 1, sizeof *tables);
    if (!tables) {
      free(image);
      plan->oom = true;
      break;
    }
    plan->tables = tables;
    Table *t = &tables[plan->count++];
    *t = (Table){.global = op, .image = image, .imageBytes = imageBytes, .rawBytes = bytes, .type = type};
    memcpy(t->name, name.data, name.length);
    t->name[name.length] = 0;
    snprintf(t->imageName, sizeof t->imageName, "%s_rle", t->name);
    for (int k = 1; strataModuleHasSymbol(module, t->imageName); k++)
      snprintf(t->imageName, sizeof t->imageName, "%s_rle%d", t->name, k);
  }
}

static Table *findTable(PlanSet *plan, MlirOperation getGlobal) {
  MlirAttribute a = strataOpAttr(getGlobal, "name");
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAFlatSymbolRef(a)) return NULL;
  MlirStringRef n = mlirFlatSymbolRefAttrGetValue(a);
  for (size_t i = 0; i < plan->count; i++)
    if (strlen(plan->tables[i].name) == n.length && !memcmp(plan->tables[i].name, n.data, n.length))
      return &plan->tables[i];
  return NULL;
}

static MlirType bytesType(MlirContext ctx, int64_t n) {
  return mlirMemRefTypeContiguousGet(mlirIntegerTypeGet(ctx, 8), 1, &n, mlirAttributeGetNull());
}

/* Pattern on memref.get_global: a compressed table's use becomes a view of
 * the runtime's decompressed copy. */
static MlirLogicalResult useDecompressed(StrataRewrite *rw, MlirOperation get, void *user) {
  Table *t = findTable(user, get);
  if (!t) return mlirLogicalResultFailure();
  StrataBuilder *b = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(get);
  MlirType imageType = bytesType(b->ctx, (int64_t)t->imageBytes), anyBytes = bytesType(b->ctx, mlirShapedTypeGetDynamicSize());
  MlirValue image = strataResult(
      strataCreateOp(b, "memref.get_global", loc, .results = STRATA_TYPES(imageType),
                     .attrs = STRATA_ATTRS({"name", mlirFlatSymbolRefAttrGet(b->ctx, mlirStringRefCreateFromCString(t->imageName))})),
      0);
  MlirValue dyn = strataResult(
      strataCreateOp(b, "memref.cast", loc, .operands = STRATA_VALUES(image), .results = STRATA_TYPES(anyBytes)), 0);
  MlirValue raw = strataConstInt(b, loc, mlirIntegerTypeGet(b->ctx, 64), t->rawBytes);
  MlirValue table = strataResult(
      strataCreateOp(b, "func.call", loc, .operands = STRATA_VALUES(dyn, raw), .results = STRATA_TYPES(anyBytes),
                     .attrs = STRATA_ATTRS({"callee", mlirFlatSymbolRefAttrGet(b->ctx, mlirStringRefCreateFromCString(TABLE_FN))})),
      0);
  MlirValue zero = strataConstInt(b, loc, mlirIndexTypeGet(b->ctx), 0);
  MlirValue view = strataResult(
      strataCreateOp(b, "memref.view", loc, .operands = STRATA_VALUES(table, zero), .results = STRATA_TYPES(t->type)), 0);
  strataReplaceOp(rw, get, STRATA_VALUES(view));
  t->uses++;
  return mlirLogicalResultSuccess();
}

/* Any get_global of `name` left in `op` (a use outside the patterns' reach). */
static bool stillUsed(MlirOperation op, const char *name) {
  if (strataOpIsNamed(op, "memref.get_global")) {
    MlirAttribute a = strataOpAttr(op, "name");
    MlirStringRef n = mlirAttributeIsAFlatSymbolRef(a) ? mlirFlatSymbolRefAttrGetValue(a) : (MlirStringRef){NULL, 0};
    if (n.data && strlen(name) == n.length && !memcmp(name, n.data, n.length)) return true;
  }
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); r++)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r)); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      for (MlirOperation o = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
        if (stillUsed(o, name)) return true;
  return false;
}

/* After the rewrites: each table's image global beside it, the table
 * erased once nothing reads it. */
static void placeImages(PlanSet *plan, MlirOperation module) {
  MlirContext ctx = mlirOperationGetContext(module);
  for (size_t i = 0; i < plan->count; i++) {
    Table *t = &plan->tables[i];
    if (!t->uses) continue;
    MlirType imageType = bytesType(ctx, (int64_t)t->imageBytes);
    int64_t n = (int64_t)t->imageBytes;
    MlirType tensor = mlirRankedTensorTypeGet(1, &n, mlirIntegerTypeGet(ctx, 8), mlirAttributeGetNull());
    StrataBuilder b = strataBuilderBefore(t->global, (MlirRewriterBase){NULL});
    strataCreateOp(&b, "memref.global", mlirOperationGetLocation(t->global),
                   .attrs = STRATA_ATTRS({"sym_name", mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(t->imageName))},
                                         {"sym_visibility", mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("private"))},
                                         {"type", mlirTypeAttrGet(imageType)},
                                         {"initial_value", mlirDenseElementsAttrRawBufferGet(tensor, t->imageBytes, t->image)},
                                         {"constant", mlirUnitAttrGet(ctx)},
                                         {"alignment", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 64)}));
    if (!stillUsed(module, t->name)) mlirOperationDestroy(t->global);
  }
}

static void runCompressPlans(StrataPassRun *run, MlirOperation module) {
  PlanSet plan = {0};
  int64_t minBytes = strataPassGetInt(run, "min-bytes");
  double minRatio = strataPassGetDouble(run, "min-ratio");
  planTables(&plan, module, minBytes, minRatio, strataPassGetBool(run, "report"));
  if (!plan.oom && plan.count) {
    StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(module));
    if (!set) plan.oom = true;
    else {
      strataPatternSetAdd(set, "memref.get_global", 1, useDecompressed, &plan);
      strataApplyPatternsWalk(set, module);
      strataPatternSetDestroy(set);
      placeImages(&plan, module);
      if (mlirLogicalResultIsFailure(strataDeclareRuntimeFunc(module, TABLE_FN))) strataPassSignalFailure(run);
    }
  }
  if (plan.oom) {
    strataEmitError(mlirOperationGetLocation(module), "pred-compress-plans: out of memory");
    strataPassSignalFailure(run);
  }
  for (size_t i = 0; i < plan.count; i++) free(plan.tables[i].image);
  free(plan.tables);
}

static const StrataPassOptionDef kOptions[] = {
    {"min-bytes", STRATA_OPTION_INT, "4096", "Tables smaller than this many bytes stay as they are"},
    {"min-ratio", STRATA_OPTION_DOUBLE, "4", "Compress only tables whose image is at least this many times smaller"},
    {"report", STRATA_OPTION_BOOL, "false", "Remark each table considered: its bytes, its image's, the ratio"},
};

static const StrataDialectHandleFn kDeps[] = {mlirGetDialectHandle__memref__, mlirGetDialectHandle__func__,
                                              mlirGetDialectHandle__arith__, NULL};

const StrataPassDef strataPredCompressPlansPass = {
    .name = "pred-compress-plans",
    .summary = "Replace large constant integer tables (memref.global) by page-RLE images the runtime "
               "decompresses once on first use (memref level)",
    .anchor = "builtin.module",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof kOptions[0],
    .run = runCompressPlans,
    .dependentDialects = kDeps,
};
