/* The target registry of a context, and compiling through a target:
 * strataCompile lowers a clone of the module through the target's pipeline
 * for the fusion mode asked, then hands it to the target's compile; the
 * executable it returns is invoked through the target. */
#define _DEFAULT_SOURCE /* madvise */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "grow.h"
#include "internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "strata/target.h"

static const char *const kModeNames[STRATA_NUM_FUSION_MODES] = {"fixed", "none", "dnnfusion",
                                                                  "planned", "baseline"};

const char *strataFusionModeName(StrataFusionMode mode) {
  return (unsigned)mode < STRATA_NUM_FUSION_MODES ? kModeNames[mode] : "?";
}

bool strataParseFusionMode(const char *name, StrataFusionMode *mode) {
  for (int i = 0; name && i < STRATA_NUM_FUSION_MODES; i++)
    if (!strcmp(name, kModeNames[i])) return *mode = (StrataFusionMode)i, true;
  return false;
}

/* ---- Registry ---- */

MlirLogicalResult strataContextRegisterTarget(StrataContext *ctx, const StrataTargetDef *def) {
  MlirLocation loc = mlirLocationUnknownGet(ctx->mlir);
  if (!def || !def->name || !*def->name) {
    strataEmitError(loc, "a target definition needs a name");
    return mlirLogicalResultFailure();
  }
  if (strataContextLookupTarget(ctx, def->name)) {
    strataEmitError(loc, "target '%s' is already registered", def->name);
    return mlirLogicalResultFailure();
  }
  const StrataTargetDef **grown = strataGrow(ctx->targets, &ctx->capTargets, ctx->numTargets + 1, sizeof *grown);
  if (!grown) {
    strataEmitError(loc, "out of memory registering target '%s'", def->name);
    return mlirLogicalResultFailure();
  }
  ctx->targets = grown;
  ctx->targets[ctx->numTargets++] = def;
  return mlirLogicalResultSuccess();
}

size_t strataContextNumTargets(StrataContext *ctx) { return ctx->numTargets; }

const StrataTargetDef *strataContextGetTarget(StrataContext *ctx, size_t i) {
  return i < ctx->numTargets ? ctx->targets[i] : NULL;
}

const StrataTargetDef *strataContextLookupTarget(StrataContext *ctx, const char *name) {
  for (size_t i = 0; name && i < ctx->numTargets; i++)
    if (!strcmp(ctx->targets[i]->name, name)) return ctx->targets[i];
  return NULL;
}

void strataContextFormatTargetNames(StrataContext *ctx, char *buf, size_t size) {
  if (!size) return;
  buf[0] = '\0';
  size_t len = 0;
  for (size_t i = 0; i < ctx->numTargets && len < size; i++)
    len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "", ctx->targets[i]->name);
}

const StrataTargetDef *strataContextResolveTarget(StrataContext *ctx, const char *name, MlirLocation loc) {
  const StrataTargetDef *def = strataContextLookupTarget(ctx, name);
  if (!def) {
    char names[512];
    strataContextFormatTargetNames(ctx, names, sizeof names);
    strataEmitError(loc, "unknown target '%s' (registered: %s)", name ? name : "", names);
  }
  return def;
}

/* ---- Pipelines ---- */

/* A value a pass option holds as one word (as the pipeline parser reads it). */
static bool optionValueOk(const char *v) { return *v && !strpbrk(v, " {}=,'\""); }

/* The offset just past the `nn-fuse` pass name in `p`, or -1. */
static long findNnFuse(const char *p) {
  static const char kName[] = "nn-fuse";
  for (const char *s = strstr(p, kName); s; s = strstr(s + 1, kName)) {
    char before = s == p ? ',' : s[-1], after = s[sizeof kName - 1];
    if (strchr(",( ", before) && strchr("{,) ", after)) return (long)(s - p) + (long)sizeof kName - 1;
  }
  return -1;
}

/* `base` with " profile=X profile-db=Y" at the end of nn-fuse's options
 * (later options win), malloc'ed; NULL after an error at `loc`. */
static char *withProfileOptions(const StrataTargetDef *def, const char *base,
                                const StrataCompileOptions *o, MlirLocation loc) {
  const char *values[2] = {o->fuseProfile, o->fuseProfileDb};
  static const char *const kKeys[2] = {"profile", "profile-db"};
  for (int i = 0; i < 2; i++)
    if (values[i] && !optionValueOk(values[i])) {
      strataEmitError(loc, "nn-fuse option %s='%s' is empty or has one of  {}=,'\" (not "
                      "expressible as a pass option)", kKeys[i], values[i]);
      return NULL;
    }
  long at = findNnFuse(base);
  if (at < 0) {
    strataEmitError(loc, "target '%s': the %s pipeline runs no nn-fuse to take the fusion "
                    "profile options", def->name, strataFusionModeName(o->fusion));
    return NULL;
  }
  bool braces = base[at] == '{';
  size_t close = (size_t)at;
  if (braces)
    for (int depth = 0; base[close]; close++) {
      depth += base[close] == '{';
      if (base[close] == '}' && --depth == 0) break;
    }
  char extra[1024];
  int n = snprintf(extra, sizeof extra, "%s%s%s%s%s", braces ? "" : "{",
                   o->fuseProfile ? " profile=" : "", o->fuseProfile ? o->fuseProfile : "",
                   o->fuseProfileDb ? " profile-db=" : "", o->fuseProfileDb ? o->fuseProfileDb : "");
  if (n < 0 || (size_t)n >= sizeof extra - 1) {
    strataEmitError(loc, "nn-fuse profile options too long");
    return NULL;
  }
  if (!braces) strcat(extra, "}");
  size_t len = strlen(base), add = strlen(extra);
  char *out = malloc(len + add + 1);
  if (!out) {
    strataEmitError(loc, "out of memory");
    return NULL;
  }
  memcpy(out, base, close);
  memcpy(out + close, extra, add);
  memcpy(out + close + add, base + close, len - close + 1);
  return out;
}

char *strataTargetPipeline(StrataContext *ctx, const StrataTargetDef *def,
                           const StrataCompileOptions *o, MlirLocation loc) {
  (void)ctx;
  const char *base = o->pipeline;
  if (!base) {
    if ((unsigned)o->fusion >= STRATA_NUM_FUSION_MODES || !def->pipelines[o->fusion]) {
      char modes[128] = "";
      for (int i = 0; i < STRATA_NUM_FUSION_MODES; i++)
        if (def->pipelines[i])
          snprintf(modes + strlen(modes), sizeof modes - strlen(modes), "%s%s", *modes ? ", " : "",
                   kModeNames[i]);
      strataEmitError(loc, "target '%s' has no %s lowering (it has: %s)", def->name,
                      strataFusionModeName(o->fusion), *modes ? modes : "none");
      return NULL;
    }
    base = def->pipelines[o->fusion];
  }
  if (o->fuseProfile || o->fuseProfileDb) return withProfileOptions(def, base, o, loc);
  char *copy = strdup(base);
  if (!copy) strataEmitError(loc, "out of memory");
  return copy;
}

/* True if `name` is an item of the comma-separated `list`. */
static bool listHas(const char *list, MlirStringRef name) {
  for (const char *p = list; *p;) {
    size_t len = strcspn(p, ",");
    if (len == name.length && !strncmp(p, name.data, len)) return true;
    p += len + (p[len] == ',');
  }
  return false;
}

typedef struct {
  StrataContext *ctx;
  const StrataTargetDef *def;
  bool ok;
} DialectCheck;

static MlirWalkResult checkOpDialect(MlirOperation op, void *user) {
  DialectCheck *c = user;
  const StrataOpDef *opDef = strataContextGetOpDef(c->ctx, op);
  const StrataDialectDef *d = opDef ? strataOpDefGetDialect(c->ctx, opDef) : NULL;
  if (!d || listHas(c->def->dialects, mlirStringRefCreateFromCString(d->name)))
    return MlirWalkResultAdvance;
  strataEmitError(mlirOperationGetLocation(op), "'%s' op: target '%s' compiles no '%s' ops (it lowers: %s)",
                  opDef->name, c->def->name, d->name, c->def->dialects);
  c->ok = false;
  return MlirWalkResultInterrupt;
}

/* A clone of `module` lowered as `o` says on `def`; null after errors. */
static MlirModule lowerClone(StrataContext *ctx, const StrataTargetDef *def, MlirModule module,
                             const StrataCompileOptions *o) {
  MlirOperation op = mlirModuleGetOperation(module);
  if (def->dialects && !o->pipeline) {
    DialectCheck check = {ctx, def, true};
    mlirOperationWalk(op, checkOpDialect, &check, MlirWalkPreOrder);
    if (!check.ok) return (MlirModule){NULL};
  }
  char *pipeline = strataTargetPipeline(ctx, def, o, mlirOperationGetLocation(op));
  if (!pipeline) return (MlirModule){NULL};
  MlirOperation clone = mlirOperationClone(op);
  MlirModule lowered = mlirModuleFromOperation(clone);
  bool ok = o->pipeline || !def->prelude || mlirLogicalResultIsSuccess(strataRunPipeline(ctx, clone, def->prelude));
  ok = ok && (!*pipeline || mlirLogicalResultIsSuccess(strataRunPipeline(ctx, clone, pipeline)));
  free(pipeline);
  if (!ok) {
    mlirModuleDestroy(lowered);
    return (MlirModule){NULL};
  }
  return lowered;
}

/* ---- Executables ---- */

struct StrataExecutable {
  const StrataTargetDef *def;
  void *state;
};

StrataExecutable *strataCompile(StrataContext *ctx, MlirModule module, const char *target,
                                const StrataCompileOptions *options) {
  static const StrataCompileOptions kDefault = {.fusion = STRATA_FUSION_FIXED, .optLevel = 2};
  const StrataCompileOptions *o = options ? options : &kDefault;
  MlirLocation loc = mlirOperationGetLocation(mlirModuleGetOperation(module));
  const StrataTargetDef *def = strataContextResolveTarget(ctx, target ? target : "cpu", loc);
  if (!def) return NULL;
  if (!def->compile || !def->invoke) {
    strataEmitError(loc, "target '%s' runs no code in-process (it has no compile/invoke)",
                    def->name);
    return NULL;
  }
  StrataExecutable *exe = malloc(sizeof *exe);
  if (!exe) {
    strataEmitError(loc, "out of memory");
    return NULL;
  }
  MlirModule lowered = lowerClone(ctx, def, module, o);
  void *state = mlirModuleIsNull(lowered) ? NULL : def->compile(def, ctx, lowered, o);
  if (!state) {
    free(exe);
    return NULL;
  }
  *exe = (StrataExecutable){def, state};
  return exe;
}

MlirLogicalResult strataExecutableInvoke(StrataExecutable *exe, const char *name,
                                         StrataTensor *const *inputs, size_t numInputs,
                                         StrataTensor *const *outputs, size_t numOutputs) {
  return exe->def->invoke(exe->state, name, inputs, numInputs, outputs, numOutputs);
}

bool strataExecutableCallStats(const StrataExecutable *exe, const char *name, StrataCallStats *stats) {
  return exe->def->callStats && exe->def->callStats(exe->state, name, stats);
}

const StrataTargetDef *strataExecutableGetTarget(const StrataExecutable *exe) { return exe->def; }


/* strataModelCacheKeyOfBytes's callback: the target's key of parts. */
typedef struct {
  StrataContext *ctx;
  const char *target;
} KeyOfParts;

static bool keyOfParts(void *user, const void *const *parts, const size_t *sizes, size_t n, char key[33]) {
  KeyOfParts *k = user;
  return strataExecutableCacheKey(k->ctx, k->target, parts, sizes, n, key);
}

bool strataExecutableCacheKeyOfModel(StrataContext *ctx, const char *target, const void *bytes, size_t size,
                                     bool mapped, const void *options, size_t optionsSize, char key[33]) {
  KeyOfParts k = {ctx, target};
  return strataModelCacheKeyOfBytes(keyOfParts, &k, bytes, size, mapped, options, optionsSize, key);
}

bool strataExecutableFromCache(const StrataExecutable *exe) {
  return exe->def->fromCache && exe->def->fromCache(exe->state);
}

bool strataExecutableCacheKey(StrataContext *ctx, const char *target, const void *const *parts,
                              const size_t *sizes, size_t n, char key[33]) {
  const StrataTargetDef *def = strataContextLookupTarget(ctx, target ? target : "cpu");
  if (!def || !def->cacheKey || !def->store || !def->load) return false;
  def->cacheKey(def, parts, sizes, n, key);
  return true;
}




/* `func` as a private declaration (no body), printed in a module. */
static char *declarationText(MlirOperation func) {
  MlirOperationState st = mlirOperationStateGet(mlirIdentifierStr(mlirOperationGetName(func)), mlirOperationGetLocation(func));
  intptr_t n = mlirOperationGetNumAttributes(func);
  MlirNamedAttribute *attrs = malloc(sizeof *attrs * (size_t)(n + 1));
  if (!attrs) return NULL;
  MlirContext mctx = mlirOperationGetContext(func);
  MlirIdentifier vis = mlirIdentifierGet(mctx, mlirStringRefCreateFromCString("sym_visibility"));
  intptr_t k = 0;
  for (intptr_t i = 0; i < n; i++) {
    MlirNamedAttribute a = mlirOperationGetAttribute(func, i);
    if (!mlirIdentifierEqual(a.name, vis)) attrs[k++] = a;
  }
  attrs[k++] = mlirNamedAttributeGet(vis, mlirStringAttrGet(mctx, mlirStringRefCreateFromCString("private")));
  mlirOperationStateAddAttributes(&st, k, attrs);
  MlirRegion body = mlirRegionCreate();
  mlirOperationStateAddOwnedRegions(&st, 1, &body);
  MlirOperation decl = mlirOperationCreate(&st);
  free(attrs);
  if (mlirOperationIsNull(decl)) return NULL;
  StrataStr s = {0};
  strataStrAppendf(&s, "module {\n");
  mlirOperationPrint(decl, strataStrCallback, &s);
  strataStrAppendf(&s, "\n}\n");
  mlirOperationDestroy(decl);
  return s.data;
}

bool strataExecutableStore(StrataExecutable *exe, const char *cacheDir, const char *key, MlirOperation entry,
                           char *why, size_t whySize) {
  if (!exe->def->store) {
    snprintf(why, whySize, "target '%s' keeps no model cache", exe->def->name);
    return false;
  }
  char *text = declarationText(entry);
  bool ok = text && exe->def->store(exe->state, cacheDir, key, text, why, whySize);
  if (!text) snprintf(why, whySize, "out of memory");
  free(text);
  return ok;
}

StrataExecutable *strataExecutableLoad(StrataContext *ctx, const char *target, const char *cacheDir,
                                       const char *key, MlirModule *entry) {
  const StrataTargetDef *def = strataContextLookupTarget(ctx, target ? target : "cpu");
  *entry = (MlirModule){NULL};
  if (!def || !def->load || !def->invoke) return NULL;
  char *text = NULL;
  void *state = def->load(def, ctx, cacheDir, key, &text);
  StrataExecutable *exe = state ? malloc(sizeof *exe) : NULL;
  if (exe) *entry = mlirModuleCreateParse(strataContextGetMlir(ctx), mlirStringRefCreateFromCString(text));
  free(text);
  if (!exe || mlirModuleIsNull(*entry)) {
    free(exe);
    if (state && def->destroy) def->destroy(state);
    return NULL;
  }
  *exe = (StrataExecutable){def, state};
  return exe;
}

void strataExecutableDestroy(StrataExecutable *exe) {
  if (!exe) return;
  if (exe->def->destroy) exe->def->destroy(exe->state);
  free(exe);
}

/* ---- Ahead of time ---- */

bool strataTargetHasFormat(const StrataTargetDef *def, const char *format) {
  size_t n = format ? strlen(format) : 0;
  for (const char *p = def->emitFormats; n && p && *p;) {
    size_t len = strcspn(p, ",");
    if (len == n && !strncmp(p, format, n)) return true;
    p += len + (p[len] == ',');
  }
  return false;
}

char *strataEmit(StrataContext *ctx, MlirModule module, const char *target,
                 const StrataEmitOptions *options, size_t *size) {
  static const StrataEmitOptions kDefault = {.compile = {.fusion = STRATA_FUSION_FIXED, .optLevel = 2}};
  const StrataEmitOptions *o = options ? options : &kDefault;
  MlirLocation loc = mlirOperationGetLocation(mlirModuleGetOperation(module));
  const StrataTargetDef *def = strataContextResolveTarget(ctx, target ? target : "cpu", loc);
  if (!def) return NULL;
  if (!def->emit) {
    strataEmitError(loc, "target '%s' writes no code ahead of time (it has no object emitter)",
                    def->name);
    return NULL;
  }
  if (o->format && !strataTargetHasFormat(def, o->format)) {
    strataEmitError(loc, "target '%s' cannot write '%s' (formats: %s)", def->name, o->format,
                    def->emitFormats ? def->emitFormats : "none");
    return NULL;
  }
  MlirModule lowered = lowerClone(ctx, def, module, &o->compile);
  if (mlirModuleIsNull(lowered)) return NULL;
  char *bytes = def->emit(def, ctx, lowered, o, size);
  mlirModuleDestroy(lowered);
  return bytes;
}
