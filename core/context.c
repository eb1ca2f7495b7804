/* The Strata context: an MlirContext with everything registered, Strata's
 * IRDL dialects loaded, the diagnostic route to the host, and the pass
 * registry. */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/IRDL.h"
#include "mlir-c/RegisterEverything.h"
#include "grow.h"
#include "internal.h"
#include "status.h" /* libstrata_rt's environments */
#include "strata/support.h"

/* Loads a dialect's IRDL: its own text, or the text generated from its op
 * tables when it brings none. */
static MlirLogicalResult loadDialect(StrataContext *ctx, const StrataDialectDef *d) {
  char *generated = d->irdlSource ? NULL : strataDialectGenerateIrdl(d);
  if (!d->irdlSource && !generated) return mlirLogicalResultFailure();
  char name[128];
  snprintf(name, sizeof name, "%s%s", d->irdlName ? d->irdlName : d->name,
           d->irdlName ? "" : ".irdl.mlir");
  MlirModule module = strataParseModule(
      ctx, mlirStringRefCreateFromCString(d->irdlSource ? d->irdlSource : generated), name);
  free(generated);
  if (mlirModuleIsNull(module)) return mlirLogicalResultFailure();
  MlirLogicalResult r = mlirLoadIRDLDialects(module);
  mlirModuleDestroy(module);
  return r;
}

MlirLogicalResult strataContextRegisterDialect(StrataContext *ctx, const StrataDialectDef *def) {
  MlirLocation loc = mlirLocationUnknownGet(ctx->mlir);
  if (!def || !def->name || !*def->name || strchr(def->name, '.')) {
    strataEmitError(loc, "cannot register a dialect without a name (or with a '.' in it)");
    return mlirLogicalResultFailure();
  }
  for (size_t i = 0; i < ctx->numDialects; i++)
    if (!strcmp(ctx->dialects[i]->name, def->name)) {
      strataEmitError(loc, "dialect '%s' is already registered", def->name);
      return mlirLogicalResultFailure();
    }
  if (!mlirDialectIsNull(mlirContextGetOrLoadDialect(ctx->mlir, mlirStringRefCreateFromCString(def->name)))) {
    strataEmitError(loc, "dialect '%s' already exists in this MLIR context", def->name);
    return mlirLogicalResultFailure();
  }
  size_t prefix = strlen(def->name);
  for (size_t i = 0; i < strataDialectNumOps(def); i++) {
    const StrataOpDef *op = strataDialectGetOp(def, i);
    if (!op->name || strncmp(op->name, def->name, prefix) || op->name[prefix] != '.' ||
        !op->name[prefix + 1]) {
      strataEmitError(loc, "dialect '%s': op '%s' must be named '%s.<op>'", def->name,
                      op->name ? op->name : "(null)", def->name);
      return mlirLogicalResultFailure();
    }
  }
  if (!strataDialectDefCheck(ctx, def, loc)) return mlirLogicalResultFailure();
  const StrataDialectDef **grown = strataGrow(ctx->dialects, &ctx->capDialects, ctx->numDialects + 1, sizeof *grown);
  if (!grown) return mlirLogicalResultFailure();
  ctx->dialects = grown;
  if (mlirLogicalResultIsFailure(loadDialect(ctx, def))) {
    strataEmitError(loc, "dialect '%s': its IRDL definition does not load", def->name);
    return mlirLogicalResultFailure();
  }
  ctx->dialects[ctx->numDialects++] = def;
  return mlirLogicalResultSuccess();
}

/* Every live context, so that code holding only MLIR handles (a pattern, an
 * op's verifier) can reach the Strata context that owns them: few contexts
 * live at once, so a short list under a lock. */
static pthread_mutex_t liveLock = PTHREAD_MUTEX_INITIALIZER;
static StrataContext **live;
static size_t numLive, capLive;

static bool addLive(StrataContext *ctx) {
  pthread_mutex_lock(&liveLock);
  StrataContext **grown = strataGrow(live, &capLive, numLive + 1, sizeof *grown);
  if (grown) live = grown, live[numLive++] = ctx;
  pthread_mutex_unlock(&liveLock);
  return grown != NULL;
}

static void removeLive(StrataContext *ctx) {
  pthread_mutex_lock(&liveLock);
  for (size_t i = 0; i < numLive; i++)
    if (live[i] == ctx) {
      live[i] = live[--numLive];
      break;
    }
  if (!numLive) free(live), live = NULL, capLive = 0;
  pthread_mutex_unlock(&liveLock);
}

StrataContext *strataContextFromMlir(MlirContext mlir) {
  StrataContext *found = NULL;
  pthread_mutex_lock(&liveLock);
  for (size_t i = 0; i < numLive && !found; i++)
    if (mlirContextEqual(live[i]->mlir, mlir)) found = live[i];
  pthread_mutex_unlock(&liveLock);
  return found;
}

/* The context without Strata's own dialects, passes and targets, which the
 * registry layer adds (registry.c: strataContextCreate). */
StrataContext *strataContextCreateBare(void) {
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
  if (!addLive(ctx)) {
    strataContextDestroy(ctx);
    return NULL;
  }
  return ctx;
}

void strataContextDestroy(StrataContext *ctx) {
  if (!ctx) return;
  removeLive(ctx);
  strataCaptureEnd(ctx, false);
  free(ctx->captured);
  mlirContextDetachDiagnosticHandler(ctx->mlir, ctx->handler);
  mlirContextDestroy(ctx->mlir);
  if (ctx->typeIdAllocator.ptr) mlirTypeIDAllocatorDestroy(ctx->typeIdAllocator);
  free(ctx->dialects);
  free(ctx->passes);
  free(ctx->passTypeIds);
  free(ctx->targets);
  free(ctx->blobs);
  strataRtEnvDestroy(ctx->rtEnv);
  free(ctx);
}

MlirLogicalResult strataContextSetRuntime(StrataContext *ctx, const StrataRuntimeOptions *options) {
  StrataRuntimeOptions o = options ? *options : (StrataRuntimeOptions){0};
  MlirLocation loc = mlirLocationUnknownGet(ctx->mlir);
  if (o.numThreads < 0 || o.numThreads > 64) {
    strataEmitError(loc, "runtime threads must be 1 to 64, not %d", o.numThreads);
    return mlirLogicalResultFailure();
  }
  if (ctx->rtEnv && (o.alloc != ctx->runtime.alloc || o.user != ctx->runtime.user ||
                     o.limit != ctx->runtime.limit)) {
    strataEmitError(loc, "the runtime's allocator and limit cannot change after code has run");
    return mlirLogicalResultFailure();
  }
  ctx->runtime = o;
  if (ctx->rtEnv) strataRtEnvSetNumThreads(ctx->rtEnv, o.numThreads ? o.numThreads : 1);
  return mlirLogicalResultSuccess();
}

struct StrataRtEnv *strataContextGetRuntimeEnv(StrataContext *ctx) {
  if (!ctx->rtEnv) {
    StrataRtAllocator a = {ctx->runtime.alloc, ctx->runtime.user, ctx->runtime.limit};
    int threads = ctx->runtime.numThreads ? ctx->runtime.numThreads : 1;
    if (!(ctx->rtEnv = strataRtEnvCreate(&a, threads)))
      strataEmitError(mlirLocationUnknownGet(ctx->mlir), "out of memory for the runtime environment");
  }
  return ctx->rtEnv;
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

const StrataOpDef *strataContextLookupOpDef(StrataContext *ctx, MlirStringRef name) {
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

const StrataOpDef *strataContextGetOpDef(StrataContext *ctx, MlirOperation op) {
  return strataContextLookupOpDef(ctx, mlirIdentifierStr(mlirOperationGetName(op)));
}

typedef struct {
  StrataContext *ctx;
  bool failed;
} VerifyWalk;

/* Types Strata refuses (strataCheckType) on an op's results, its block
 * arguments and its elements attributes. */
static bool opTypesOk(MlirOperation op) {
  MlirLocation loc = mlirOperationGetLocation(op);
  char what[96];
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++) {
    snprintf(what, sizeof what, "result #%d", (int)i);
    if (!strataCheckType(loc, what, mlirValueGetType(mlirOperationGetResult(op, i)))) return false;
  }
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); r++)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r)); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      for (intptr_t i = 0; i < mlirBlockGetNumArguments(b); i++) {
        snprintf(what, sizeof what, "block argument #%d", (int)i);
        if (!strataCheckType(loc, what, mlirValueGetType(mlirBlockGetArgument(b, i)))) return false;
      }
  for (intptr_t i = 0; i < mlirOperationGetNumAttributes(op); i++) {
    MlirNamedAttribute a = mlirOperationGetAttribute(op, i);
    if (!mlirAttributeIsAElements(a.attribute)) continue;
    MlirStringRef name = mlirIdentifierStr(a.name);
    snprintf(what, sizeof what, "attribute '%.*s'", (int)name.length, name.data);
    if (!strataCheckType(loc, what, mlirAttributeGetType(a.attribute))) return false;
  }
  return true;
}

static MlirWalkResult checkTypesOne(MlirOperation op, void *user) {
  VerifyWalk *w = user;
  if (!opTypesOk(op)) w->failed = true;
  return MlirWalkResultAdvance;
}

static MlirWalkResult verifyOne(MlirOperation op, void *user) {
  VerifyWalk *w = user;
  const StrataOpDef *def = strataContextGetOpDef(w->ctx, op);
  if (def && mlirLogicalResultIsFailure(strataVerifyOp(def, op))) w->failed = true;
  return MlirWalkResultAdvance;
}

/* Types first: MLIR's verifier prints the ops it reports, and printing
 * dense elements of a zero-width integer type crashes MLIR. */
MlirLogicalResult strataVerify(StrataContext *ctx, MlirOperation root) {
  VerifyWalk w = {ctx, false};
  mlirOperationWalk(root, checkTypesOne, &w, MlirWalkPreOrder);
  if (w.failed || !mlirOperationVerify(root)) return mlirLogicalResultFailure();
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

/* Finds a zero-width integer type token (i0, si0, ui0, any number of
 * zeros) in MLIR text, the way MLIR's lexer would see it: outside strings,
 * comments and sigil names (%i0, @i0, ^i0, #i0, !i0), not as an attribute
 * name ({i0 = ...}), and also as the element type ending a dimension list
 * (4x?xi0 lexes as 4, ?, xi0). MLIR's printer crashes on dense elements of
 * such a type, and the parser's own verifier prints the ops it reports, so
 * the text must be refused before MLIR parses it. Also a dense array of
 * index elements (array<index...), which MLIR's parser crashes on, and
 * brackets nested deeper than kMaxNesting (its recursion overflows the
 * stack: 6887 levels of [ under AddressSanitizer). Returns
 * the token's offset and length and a printf format for the error (the
 * token as its %.*s), or false. */
static bool isIdChar(char c) { return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.'; }

static bool isZeroWidthInt(const char *s, size_t n) {
  size_t p = n && (s[0] == 's' || s[0] == 'u');
  if (n < p + 2 || s[p] != 'i') return false;
  for (size_t i = p + 1; i < n; i++)
    if (s[i] != '0') return false;
  return true;
}

size_t strataSkipMlirTrivia(const char *s, size_t n, size_t i) {
  while (i < n) {
    if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\0')
      i++;
    else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/')
      while (i < n && s[i] != '\n') i++;
    else
      break;
  }
  return i;
}

enum { kMaxNesting = 256 };

static bool findRefusedToken(const char *s, size_t n, size_t *at, size_t *len, const char **what) {
  int depth = 0;
  for (size_t i = 0; i < n;) {
    char c = s[i];
    if (c == '"') {
      for (i++; i < n && s[i] != '"' && s[i] != '\n'; i++)
        if (s[i] == '\\') i++;
      i++;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') i++;
    } else if (c == '%' || c == '@' || c == '^' || c == '#' || c == '!') {
      for (i++; i < n && (isIdChar(s[i]) || s[i] == '-'); i++) {}
    } else if (isalpha((unsigned char)c) || c == '_') {
      size_t start = i, end = i;
      while (end < n && isIdChar(s[end])) end++;
      i = end;
      /* After a dim (a digit or '?'), "x" separators and further dims lead
       * to the element type. */
      if (c == 'x' && start > 0 && (isdigit((unsigned char)s[start - 1]) || s[start - 1] == '?')) {
        while (start < end && s[start] == 'x') {
          size_t q = start + 1;
          while (q < end && isdigit((unsigned char)s[q])) q++;
          start = q < end && s[q] == 'x' && q > start + 1 ? q : start + 1;
        }
      }
      size_t next = strataSkipMlirTrivia(s, n, end);
      if (isZeroWidthInt(s + start, end - start) && !(next < n && s[next] == '=')) {
        *at = start;
        *len = end - start;
        *what = "integer type '%.*s' has zero width; Strata does not support it";
        return true;
      }
      /* array<index: ...>: MLIR 22's parser dereferences a null float type
       * on a dense array of index elements (a crash, not an error) */
      if (end - start == 5 && !memcmp(s + start, "array", 5) && next < n && s[next] == '<') {
        size_t e = strataSkipMlirTrivia(s, n, next + 1);
        if (n - e >= 5 && !memcmp(s + e, "index", 5) && (e + 5 == n || !isIdChar(s[e + 5]))) {
          *at = start;
          *len = 5;
          *what = "'%.*s<index': a dense array of index elements is not supported (MLIR's parser cannot read it)";
          return true;
        }
      }
    } else {
      /* MLIR's parser recurses per bracket: deep nesting overflows its stack */
      if (c == '[' || c == '(' || c == '{' || c == '<') {
        if (++depth > kMaxNesting) {
          *at = i;
          *len = 1;
          *what = "'%.*s' nests brackets deeper than 256 levels; Strata does not read such text";
          return true;
        }
      } else if ((c == ']' || c == ')' || c == '}' || (c == '>' && !(i > 0 && s[i - 1] == '-') &&
                                                       !(i + 1 < n && s[i + 1] == '='))) && depth > 0) {
        depth--;
      }
      i++;
    }
  }
  return false;
}

/* The text's line and column (1-based) of byte offset `at`. */
static MlirLocation textLocation(MlirContext mc, const char *s, size_t at, const char *name) {
  unsigned line = 1, col = 1;
  for (size_t i = 0; i < at; i++) {
    col = s[i] == '\n' ? 1 : col + 1;
    line += s[i] == '\n';
  }
  return mlirLocationFileLineColGet(mc, mlirStringRefCreateFromCString(name), line, col);
}

static MlirOperation parseOp(StrataContext *ctx, MlirStringRef source, MlirStringRef name) {
  strataCaptureBegin(ctx);
  MlirOperation op = mlirOperationCreateParse(ctx->mlir, source, name);
  bool several = false;
  for (size_t i = 0; i < ctx->numCaptured; i++)
    if (strstr(ctx->captured[i].message, "source must contain a single top-level operation"))
      several = true;
  if (!mlirOperationIsNull(op) || !several || isBytecode(source)) {
    strataCaptureEnd(ctx, true);
    return op;
  }
  strataCaptureEnd(ctx, false);
  StrataStr wrapped = {0};
  strataStrAppend(&wrapped, kWrapPrefix, sizeof kWrapPrefix - 1);
  strataStrAppend(&wrapped, source.data, source.length);
  strataStrAppend(&wrapped, "\n}", 2);
  op = mlirOperationCreateParse(ctx->mlir, mlirStringRefCreate(wrapped.data, wrapped.len), name);
  strataStrFree(&wrapped);
  if (!mlirOperationIsNull(op)) mlirOperationWalk(op, unshiftLine1, NULL, MlirWalkPreOrder);
  return op;
}

MlirModule strataParseModule(StrataContext *ctx, MlirStringRef source, const char *sourceName) {
  MlirStringRef name = mlirStringRefCreateFromCString(sourceName);
  MlirOperation op = {NULL};
  if (isBytecode(source)) {
    /* Bytecode is read by length, not up to a terminator. */
    op = parseOp(ctx, source, name);
  } else {
    /* MLIR's lexer stops at a NUL it expects after the text: give it one. */
    char *text = malloc(source.length + 1);
    if (!text) {
      strataEmitError(mlirLocationFileLineColGet(ctx->mlir, name, 0, 0), "out of memory reading the input");
      return (MlirModule){NULL};
    }
    memcpy(text, source.data, source.length);
    text[source.length] = '\0';
    size_t at, len;
    const char *what;
    if (findRefusedToken(text, source.length, &at, &len, &what))
      strataEmitError(textLocation(ctx->mlir, text, at, sourceName), what, (int)len, text + at);
    else
      op = parseOp(ctx, mlirStringRefCreate(text, source.length), name);
    if (!mlirOperationIsNull(op) && !strataCheckResourceBlobs(ctx, text, source.length, op)) {
      mlirOperationDestroy(op);
      op = (MlirOperation){NULL};
    }
    free(text);
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
