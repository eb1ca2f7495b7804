/* The Strata context: an MlirContext with everything registered, Strata's
 * IRDL dialects loaded, the diagnostic route to the host, and the pass
 * registry. */
#include <stdlib.h>
#include <string.h>
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/IRDL.h"
#include "mlir-c/RegisterEverything.h"
#include "internal.h"

static MlirLogicalResult loadDialect(StrataContext *ctx, const StrataDialectDef *d) {
  MlirModule module =
      strataParseModule(ctx, mlirStringRefCreateFromCString(d->irdlSource), d->irdlName);
  if (mlirModuleIsNull(module)) return mlirLogicalResultFailure();
  MlirLogicalResult r = mlirLoadIRDLDialects(module);
  mlirModuleDestroy(module);
  return r;
}

StrataContext *strataContextCreate(void) {
  StrataContext *ctx = calloc(1, sizeof *ctx);
  if (!ctx) return NULL;
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  ctx->mlir = mlirContextCreateWithRegistry(registry, /*threadingEnabled=*/false);
  mlirDialectRegistryDestroy(registry);
  mlirRegisterAllLLVMTranslations(ctx->mlir);
  mlirRegisterAllPasses(); /* upstream's registry; idempotent */
  ctx->callback = strataPrintDiagnostic;
  ctx->handler = mlirContextAttachDiagnosticHandler(ctx->mlir, strataDiagnosticHandler, ctx, NULL);
  /* IRDL itself must be loaded to parse the embedded definitions. */
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__irdl__(), ctx->mlir);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__func__(), ctx->mlir);
  ctx->typeIdAllocator = mlirTypeIDAllocatorCreate();

  const StrataDialectDef *const *dialects;
  size_t n = strataBuiltinDialects(&dialects);
  ctx->dialects = calloc(n ? n : 1, sizeof *ctx->dialects);
  if (!ctx->dialects) {
    strataContextDestroy(ctx);
    return NULL;
  }
  for (size_t i = 0; i < n; i++) {
    if (mlirLogicalResultIsFailure(loadDialect(ctx, dialects[i]))) {
      strataContextDestroy(ctx);
      return NULL;
    }
    ctx->dialects[ctx->numDialects++] = dialects[i];
  }
  const StrataPassDef *const *passes;
  size_t np = strataBuiltinPasses(&passes);
  for (size_t i = 0; i < np; i++) {
    if (mlirLogicalResultIsFailure(strataRegisterPass(ctx, passes[i]))) {
      strataContextDestroy(ctx);
      return NULL;
    }
  }
  return ctx;
}

void strataContextDestroy(StrataContext *ctx) {
  if (!ctx) return;
  strataCaptureEnd(ctx, false);
  free(ctx->captured);
  mlirContextDetachDiagnosticHandler(ctx->mlir, ctx->handler);
  mlirContextDestroy(ctx->mlir);
  if (ctx->typeIdAllocator.ptr) mlirTypeIDAllocatorDestroy(ctx->typeIdAllocator);
  free(ctx->dialects);
  free(ctx->passes);
  free(ctx->passTypeIds);
  free(ctx);
}

MlirContext strataContextGetMlir(StrataContext *ctx) { return ctx->mlir; }

void strataContextSetDiagnosticCallback(StrataContext *ctx, StrataDiagnosticCallback cb,
                                        void *user) {
  ctx->callback = cb ? cb : strataPrintDiagnostic;
  ctx->callbackUser = cb ? user : NULL;
}

size_t strataContextErrorCount(StrataContext *ctx) { return ctx->errorCount; }
void strataContextResetErrorCount(StrataContext *ctx) { ctx->errorCount = 0; }

size_t strataContextNumDialects(StrataContext *ctx) { return ctx->numDialects; }
const StrataDialectDef *strataContextGetDialect(StrataContext *ctx, size_t i) {
  return i < ctx->numDialects ? ctx->dialects[i] : NULL;
}

const StrataOpDef *strataLookupOpDef(StrataContext *ctx, MlirStringRef name) {
  const char *dot = memchr(name.data, '.', name.length);
  if (!dot) return NULL;
  size_t prefix = (size_t)(dot - name.data);
  for (size_t i = 0; i < ctx->numDialects; i++) {
    const StrataDialectDef *d = ctx->dialects[i];
    if (strlen(d->name) != prefix || strncmp(d->name, name.data, prefix) != 0) continue;
    for (size_t t = 0; t < d->numTables; t++)
      for (size_t j = 0; j < d->tables[t]->numOps; j++) {
        const StrataOpDef *def = &d->tables[t]->ops[j];
        if (strlen(def->name) == name.length && strncmp(def->name, name.data, name.length) == 0)
          return def;
      }
  }
  return NULL;
}

const StrataOpDef *strataGetOpDef(StrataContext *ctx, MlirOperation op) {
  return strataLookupOpDef(ctx, mlirIdentifierStr(mlirOperationGetName(op)));
}

typedef struct {
  StrataContext *ctx;
  bool failed;
} VerifyWalk;

static MlirWalkResult verifyOne(MlirOperation op, void *user) {
  VerifyWalk *w = user;
  const StrataOpDef *def = strataGetOpDef(w->ctx, op);
  if (def && mlirLogicalResultIsFailure(strataVerifyOp(def, op))) w->failed = true;
  return MlirWalkResultAdvance;
}

MlirLogicalResult strataVerify(StrataContext *ctx, MlirOperation root) {
  if (!mlirOperationVerify(root)) return mlirLogicalResultFailure();
  VerifyWalk w = {ctx, false};
  mlirOperationWalk(root, verifyOne, &w, MlirWalkPreOrder);
  return w.failed ? mlirLogicalResultFailure() : mlirLogicalResultSuccess();
}

/* ---- Parsing ---- */

static const char kWrapPrefix[] = "module {";

/* Locations on line 1 of wrapped text are shifted by the prefix; undo that. */
static MlirWalkResult unshiftLine1(MlirOperation op, void *user) {
  (void)user;
  MlirLocation loc = mlirOperationGetLocation(op);
  if (mlirLocationIsAFileLineColRange(loc) && mlirLocationFileLineColRangeGetStartLine(loc) == 1) {
    int col = mlirLocationFileLineColRangeGetStartColumn(loc) - (int)(sizeof kWrapPrefix - 1);
    MlirStringRef file = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
    mlirOperationSetLocation(
        op, mlirLocationFileLineColGet(mlirLocationGetContext(loc), file, 1, col > 0 ? col : 1));
  }
  return MlirWalkResultAdvance;
}

static bool isBytecode(MlirStringRef s) {
  return s.length >= 4 && memcmp(s.data, "ML\xefR", 4) == 0;
}

MlirModule strataParseModule(StrataContext *ctx, MlirStringRef source, const char *sourceName) {
  MlirStringRef name = mlirStringRefCreateFromCString(sourceName);
  /* MLIR's string parser takes exactly one top-level op; mlir-opt wraps
   * several in an implicit module. Try as-is first, quietly. */
  strataCaptureBegin(ctx);
  MlirOperation op = mlirOperationCreateParse(ctx->mlir, source, name);
  bool several = false;
  for (size_t i = 0; i < ctx->numCaptured; i++)
    if (strstr(ctx->captured[i].message, "source must contain a single top-level operation"))
      several = true;
  if (!mlirOperationIsNull(op) || !several || isBytecode(source)) {
    strataCaptureEnd(ctx, true);
  } else {
    strataCaptureEnd(ctx, false);
    StrataStr wrapped = {0};
    strataStrAppend(&wrapped, kWrapPrefix, sizeof kWrapPrefix - 1);
    strataStrAppend(&wrapped, source.data, source.length);
    strataStrAppend(&wrapped, "\n}", 2);
    op = mlirOperationCreateParse(ctx->mlir, mlirStringRefCreate(wrapped.data, wrapped.len), name);
    strataStrFree(&wrapped);
    if (!mlirOperationIsNull(op)) mlirOperationWalk(op, unshiftLine1, NULL, MlirWalkPreOrder);
  }
  if (mlirOperationIsNull(op)) return (MlirModule){NULL};
  MlirModule module = mlirModuleFromOperation(op);
  if (mlirModuleIsNull(module)) {
    /* A single non-module top-level op: put it in a module, as mlir-opt does. */
    module = mlirModuleCreateEmpty(mlirOperationGetLocation(op));
    mlirBlockAppendOwnedOperation(mlirModuleGetBody(module), op);
  }
  return module;
}
