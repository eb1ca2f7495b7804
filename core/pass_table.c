/* The pass table: Strata passes declared once (StrataPassDef), registered per
 * context, instantiated with mlirCreateExternalPass with parsed options. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "grow.h"
#include "internal.h"

/* ---- Upstream pass list, generated at build time ---- */
static const StrataUpstreamPass kUpstream[] = {
#define STRATA_UPSTREAM_PASS(n, s, o, p) {n, s, o, p},
#include "upstream_passes.inc"
#undef STRATA_UPSTREAM_PASS
};

size_t strataNumUpstreamPasses(void) { return sizeof kUpstream / sizeof kUpstream[0]; }
const StrataUpstreamPass *strataGetUpstreamPass(size_t i) {
  return i < strataNumUpstreamPasses() ? &kUpstream[i] : NULL;
}
const StrataUpstreamPass *strataLookupUpstreamPass(const char *name) {
  for (size_t i = 0; i < strataNumUpstreamPasses(); i++)
    if (strcmp(kUpstream[i].name, name) == 0) return &kUpstream[i];
  return NULL;
}

/* ---- Registry ---- */

MlirLogicalResult strataContextRegisterPass(StrataContext *ctx, const StrataPassDef *def) {
  MlirLocation loc = mlirLocationUnknownGet(ctx->mlir);
  if (!def || !def->name || (!def->run && !def->pipeline)) {
    strataEmitError(loc, "invalid pass definition '%s': needs a name and a run function or pipeline",
                    def && def->name ? def->name : "");
    return mlirLogicalResultFailure();
  }
  if (strataContextLookupPass(ctx, def->name) || strataLookupUpstreamPass(def->name)) {
    strataEmitError(loc, "pass '%s' is already registered", def->name);
    return mlirLogicalResultFailure();
  }
  /* passes and passTypeIds share capPasses: each grows from a copy of it,
   * and capPasses changes once both did. */
  size_t capP = ctx->capPasses, capT = ctx->capPasses;
  const StrataPassDef **p = strataGrow(ctx->passes, &capP, ctx->numPasses + 1, sizeof *p);
  if (!p) return mlirLogicalResultFailure();
  ctx->passes = p;
  MlirTypeID *t = strataGrow(ctx->passTypeIds, &capT, ctx->numPasses + 1, sizeof *t);
  if (!t) return mlirLogicalResultFailure();
  ctx->passTypeIds = t;
  ctx->capPasses = capT;
  ctx->passTypeIds[ctx->numPasses] = mlirTypeIDAllocatorAllocateTypeID(ctx->typeIdAllocator);
  ctx->passes[ctx->numPasses++] = def;
  return mlirLogicalResultSuccess();
}

size_t strataContextNumPasses(StrataContext *ctx) { return ctx->numPasses; }
const StrataPassDef *strataContextGetPass(StrataContext *ctx, size_t i) {
  return i < ctx->numPasses ? ctx->passes[i] : NULL;
}
const StrataPassDef *strataContextLookupPass(StrataContext *ctx, const char *name) {
  for (size_t i = 0; i < ctx->numPasses; i++)
    if (strcmp(ctx->passes[i]->name, name) == 0) return ctx->passes[i];
  return NULL;
}

static MlirTypeID passTypeId(StrataContext *ctx, const StrataPassDef *def) {
  for (size_t i = 0; i < ctx->numPasses; i++)
    if (ctx->passes[i] == def) return ctx->passTypeIds[i];
  return (MlirTypeID){NULL};
}

/* ---- Options ---- */

typedef union {
  bool b;
  int64_t i;
  double d;
  char *s;
} OptionValue;

struct StrataPassRun {
  StrataContext *ctx;
  const StrataPassDef *def;
  OptionValue *values; /* one per def->options[i] */
  MlirExternalPass pass;
};

/* Parses `text` as option `opt`'s kind; false with a message on error. */
static bool parseOptionValue(const StrataPassOptionDef *opt, const char *text, OptionValue *out,
                             char *err, size_t errSize) {
  char *end = NULL;
  errno = 0;
  switch (opt->kind) {
  case STRATA_OPTION_BOOL:
    if (!strcmp(text, "true") || !strcmp(text, "1") || !*text) out->b = true;
    else if (!strcmp(text, "false") || !strcmp(text, "0")) out->b = false;
    else {
      snprintf(err, errSize, "option '%s' expects true or false, got '%s'", opt->name, text);
      return false;
    }
    return true;
  case STRATA_OPTION_INT:
    out->i = strtoll(text, &end, 0);
    if (!*text || *end || errno) {
      snprintf(err, errSize, "option '%s' expects an integer, got '%s'", opt->name, text);
      return false;
    }
    return true;
  case STRATA_OPTION_DOUBLE:
    out->d = strtod(text, &end);
    if (!*text || *end || errno || !isfinite(out->d)) {
      snprintf(err, errSize, "option '%s' expects a number, got '%s'", opt->name, text);
      return false;
    }
    return true;
  case STRATA_OPTION_STRING:
    out->s = strdup(text);
    return out->s != NULL;
  }
  return false;
}

static void freeValues(const StrataPassDef *def, OptionValue *values) {
  if (!values) return;
  for (size_t i = 0; i < def->numOptions; i++)
    if (def->options[i].kind == STRATA_OPTION_STRING) free(values[i].s);
  free(values);
}

static OptionValue *copyValues(const StrataPassDef *def, const OptionValue *src) {
  OptionValue *v = calloc(def->numOptions ? def->numOptions : 1, sizeof *v);
  if (!v) return NULL;
  for (size_t i = 0; i < def->numOptions; i++) {
    v[i] = src[i];
    if (def->options[i].kind == STRATA_OPTION_STRING && src[i].s) v[i].s = strdup(src[i].s);
  }
  return v;
}

static const StrataPassOptionDef *findOption(const StrataPassDef *def, const char *name,
                                             size_t len, size_t *index) {
  for (size_t i = 0; i < def->numOptions; i++)
    if (strlen(def->options[i].name) == len && !strncmp(def->options[i].name, name, len)) {
      *index = i;
      return &def->options[i];
    }
  return NULL;
}

/* Parses "a=1 b=x c" (MLIR's pass-option syntax; values may be quoted or
 * braced) into values initialized from the defaults. Reports errors at
 * column `col0` + offset. */
static OptionValue *parseOptions(const StrataPassDef *def, const char *text, MlirLocation loc) {
  OptionValue *values = calloc(def->numOptions ? def->numOptions : 1, sizeof *values);
  if (!values) return NULL;
  char err[512];
  for (size_t i = 0; i < def->numOptions; i++) {
    const StrataPassOptionDef *o = &def->options[i];
    if (!parseOptionValue(o, o->defaultValue ? o->defaultValue : "", &values[i], err, sizeof err) &&
        o->kind != STRATA_OPTION_BOOL) {
      strataEmitError(loc, "pass '%s': bad default: %s", def->name, err);
      freeValues(def, values);
      return NULL;
    }
    if (o->kind == STRATA_OPTION_BOOL && !o->defaultValue) values[i].b = false;
  }
  const char *p = text ? text : "";
  while (*p) {
    while (*p == ' ' || *p == '\t') p++;
    if (!*p) break;
    const char *key = p;
    while (*p && *p != '=' && *p != ' ') p++;
    size_t keyLen = (size_t)(p - key), index = 0;
    const StrataPassOptionDef *opt = findOption(def, key, keyLen, &index);
    if (!opt) {
      StrataStr known = {0};
      char *given = strndup(key, keyLen);
      const char *nearest = NULL;
      size_t best = keyLen / 3 + 2;
      for (size_t i = 0; i < def->numOptions; i++) {
        strataStrAppendf(&known, "%s%s", i ? ", " : "", def->options[i].name);
        size_t d = given ? strataEditDistance(given, def->options[i].name) : best;
        if (d < best) best = d, nearest = def->options[i].name;
      }
      if (nearest)
        strataEmitError(loc, "pass '%s' has no option '%.*s'; did you mean '%s'? (options: %s)",
                        def->name, (int)keyLen, key, nearest, known.data);
      else
        strataEmitError(loc, "pass '%s' has no option '%.*s'; its options are: %s", def->name,
                        (int)keyLen, key, known.data ? known.data : "(none)");
      free(given);
      strataStrFree(&known);
      freeValues(def, values);
      return NULL;
    }
    StrataStr value = {0};
    if (*p == '=') {
      p++;
      char close = *p == '"' ? '"' : *p == '\'' ? '\'' : *p == '{' ? '}' : 0;
      if (close) {
        const char *start = ++p;
        while (*p && *p != close) p++;
        strataStrAppend(&value, start, (size_t)(p - start));
        if (*p) p++;
      } else {
        const char *start = p;
        while (*p && *p != ' ') p++;
        strataStrAppend(&value, start, (size_t)(p - start));
      }
    }
    if (opt->kind == STRATA_OPTION_STRING) free(values[index].s);
    bool ok = parseOptionValue(opt, value.data ? value.data : "", &values[index], err, sizeof err);
    strataStrFree(&value);
    if (!ok) {
      if (opt->kind == STRATA_OPTION_STRING) values[index].s = NULL;
      strataEmitError(loc, "pass '%s': %s", def->name, err);
      freeValues(def, values);
      return NULL;
    }
  }
  return values;
}

/* ---- External pass glue ---- */

static void passDestruct(void *user) {
  StrataPassRun *r = user;
  freeValues(r->def, r->values);
  free(r);
}

static void *passClone(void *user) {
  StrataPassRun *r = user, *c = malloc(sizeof *c);
  if (!c) return NULL;
  *c = *r;
  c->values = copyValues(r->def, r->values);
  return c;
}

static void passRun(MlirOperation op, MlirExternalPass pass, void *user) {
  StrataPassRun *r = user;
  r->pass = pass;
  r->def->run(r, op);
}

MlirPass strataCreatePassInstance(StrataContext *ctx, const StrataPassDef *def,
                                  const char *options, MlirLocation loc) {
  OptionValue *values = parseOptions(def, options, loc);
  if (!values) return (MlirPass){NULL};
  StrataPassRun *r = calloc(1, sizeof *r);
  if (!r) {
    freeValues(def, values);
    return (MlirPass){NULL};
  }
  r->ctx = ctx;
  r->def = def;
  r->values = values;
  MlirDialectHandle deps[32];
  intptr_t numDeps = 0;
  for (const StrataDialectHandleFn *d = def->dependentDialects; d && *d && numDeps < 32; d++)
    deps[numDeps++] = (*d)();
  MlirExternalPassCallbacks cbs = {NULL, passDestruct, NULL, passClone, passRun};
  const char *anchor = def->anchor ? def->anchor : "";
  return mlirCreateExternalPass(passTypeId(ctx, def), mlirStringRefCreateFromCString(def->name),
                                mlirStringRefCreateFromCString(def->name),
                                mlirStringRefCreateFromCString(def->summary ? def->summary : ""),
                                mlirStringRefCreateFromCString(anchor), numDeps, deps, cbs, r);
}

/* ---- Accessors used inside a run ---- */

StrataContext *strataPassGetContext(StrataPassRun *run) { return run->ctx; }
const StrataPassDef *strataPassGetDef(StrataPassRun *run) { return run->def; }
void strataPassSignalFailure(StrataPassRun *run) { mlirExternalPassSignalFailure(run->pass); }

static const OptionValue *optionValue(StrataPassRun *run, const char *name, StrataOptionKind kind) {
  size_t index;
  const StrataPassOptionDef *o = findOption(run->def, name, strlen(name), &index);
  if (!o || o->kind != kind) return NULL; /* a pass asking for an option it lacks: a bug */
  return &run->values[index];
}

bool strataPassGetBool(StrataPassRun *run, const char *option) {
  const OptionValue *v = optionValue(run, option, STRATA_OPTION_BOOL);
  return v ? v->b : false;
}
int64_t strataPassGetInt(StrataPassRun *run, const char *option) {
  const OptionValue *v = optionValue(run, option, STRATA_OPTION_INT);
  return v ? v->i : 0;
}
double strataPassGetDouble(StrataPassRun *run, const char *option) {
  const OptionValue *v = optionValue(run, option, STRATA_OPTION_DOUBLE);
  return v ? v->d : 0.0;
}
const char *strataPassGetString(StrataPassRun *run, const char *option) {
  const OptionValue *v = optionValue(run, option, STRATA_OPTION_STRING);
  return v && v->s ? v->s : "";
}
