/* Textual pass pipelines mixing Strata and upstream passes.
 *
 *   pipeline := element (',' element)*
 *   element  := name ['{' options '}'] ['(' pipeline ')']
 *
 * `name(...)` nests a pass manager on op `name`; otherwise `name` is a Strata
 * pass, a Strata pipeline alias, or an upstream pass (handed to MLIR's own
 * parser, one element at a time). Like mlir-opt, a pass anchored on another
 * op than the current level is nested implicitly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

typedef struct {
  StrataContext *ctx;
  const char *text; /* whole pipeline, for columns */
  const char *p;
  int depth; /* alias expansion depth, to stop cycles */
} Parser;

static MlirLocation locAt(Parser *ps, const char *where) {
  return mlirLocationFileLineColGet(ps->ctx->mlir,
                                    mlirStringRefCreateFromCString("<pass-pipeline>"), 1,
                                    (unsigned)(where - ps->text) + 1);
}

static bool isNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.';
}

static void skipSpace(Parser *ps) {
  while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n') ps->p++;
}

size_t strataSuggestPasses(StrataContext *ctx, const char *name, const char **out, size_t max) {
  size_t n = 0, limit = strlen(name) / 3 + 1;
  if (limit > 3) limit = 3;
  /* Best matches first: distance 0..limit. */
  for (size_t d = 0; d <= limit && n < max; d++) {
    for (size_t i = 0; i < ctx->numPasses && n < max; i++)
      if (strataEditDistance(name, ctx->passes[i]->name) == d) out[n++] = ctx->passes[i]->name;
    for (size_t i = 0; i < strataNumUpstreamPasses() && n < max; i++)
      if (strataEditDistance(name, strataGetUpstreamPass(i)->name) == d)
        out[n++] = strataGetUpstreamPass(i)->name;
  }
  /* Then names that contain it or that it contains (e.g. "linalg-to-loops"). */
  for (size_t i = 0; i < strataNumUpstreamPasses() && n < max && strlen(name) >= 4; i++) {
    const char *u = strataGetUpstreamPass(i)->name;
    bool seen = false;
    for (size_t j = 0; j < n; j++) seen |= !strcmp(out[j], u);
    if (!seen && strstr(u, name)) out[n++] = u;
  }
  return n;
}

static void emitUnknownPass(Parser *ps, const char *where, const char *name) {
  const char *near[5];
  size_t n = strataSuggestPasses(ps->ctx, name, near, 5);
  StrataStr s = {0};
  for (size_t i = 0; i < n; i++) strataStrAppendf(&s, "%s'%s'", i ? ", " : "", near[i]);
  if (n)
    strataEmitError(locAt(ps, where), "unknown pass '%s'; did you mean %s?", name, s.data);
  else
    strataEmitError(locAt(ps, where), "unknown pass '%s' (see --list-passes)", name);
  strataStrFree(&s);
}

/* Returns the op name in "... restricted to 'func.func' ..." or NULL. */
static char *restrictedAnchor(const char *msg) {
  const char *k = strstr(msg, "restricted to '");
  if (!k) return NULL;
  k += strlen("restricted to '");
  const char *e = strchr(k, '\'');
  return e ? strndup(k, (size_t)(e - k)) : NULL;
}

static MlirLogicalResult addUpstream(Parser *ps, MlirOpPassManager pm, const char *level,
                                     const char *where, const char *name, const char *opts) {
  const StrataUpstreamPass *known = strataLookupUpstreamPass(name);
  if (known && known->pipeline && strcmp(level, "builtin.module")) {
    strataEmitError(locAt(ps, where),
                    "pass pipeline '%s' runs on builtin.module, not nested under '%s' (an "
                    "upstream pipeline may add module passes)",
                    name, level);
    return mlirLogicalResultFailure();
  }
  StrataStr elem = {0}, err = {0};
  strataStrAppendf(&elem, "%s%s%s%s", name, opts ? "{" : "", opts ? opts : "", opts ? "}" : "");
  MlirLogicalResult r = mlirOpPassManagerAddPipeline(
      pm, mlirStringRefCreate(elem.data, elem.len), strataStrCallback, &err);
  char *anchor = mlirLogicalResultIsFailure(r) && err.data ? restrictedAnchor(err.data) : NULL;
  if (anchor) { /* implicit nesting, as mlir-opt does for pass flags */
    StrataStr nested = {0};
    strataStrAppendf(&nested, "%s(%s)", anchor, elem.data);
    strataStrFree(&err);
    r = mlirOpPassManagerAddPipeline(pm, mlirStringRefCreate(nested.data, nested.len),
                                     strataStrCallback, &err);
    strataStrFree(&nested);
    free(anchor);
  }
  if (mlirLogicalResultIsFailure(r)) {
    if (!known && err.data && strstr(err.data, "does not refer to"))
      emitUnknownPass(ps, where, name);
    else {
      /* MLIR's message, tidied to one line. */
      for (char *c = err.data; c && *c; c++)
        if (*c == '\n') *c = ' ';
      strataEmitError(locAt(ps, where), "pass '%s': %s", name, err.data ? err.data : "failed to add");
    }
  }
  strataStrFree(&elem);
  strataStrFree(&err);
  return r;
}

static MlirLogicalResult parseSeq(Parser *ps, MlirOpPassManager pm, const char *level, char end);

static MlirLogicalResult addStrataPass(Parser *ps, MlirOpPassManager pm, const char *level,
                                       const char *where, const StrataPassDef *def,
                                       const char *opts) {
  if (def->pipeline) {
    if (opts) {
      strataEmitError(locAt(ps, where), "pipeline '%s' takes no options", def->name);
      return mlirLogicalResultFailure();
    }
    if (ps->depth > 16) {
      strataEmitError(locAt(ps, where), "pipeline '%s' expands recursively", def->name);
      return mlirLogicalResultFailure();
    }
    Parser sub = {ps->ctx, def->pipeline, def->pipeline, ps->depth + 1};
    MlirLogicalResult r = parseSeq(&sub, pm, level, '\0');
    if (mlirLogicalResultIsFailure(r))
      strataEmitError(locAt(ps, where), "in the expansion of pipeline '%s'", def->name);
    return r;
  }
  MlirPass pass = strataCreatePassInstance(ps->ctx, def, opts, locAt(ps, where));
  if (!pass.ptr) return mlirLogicalResultFailure();
  if (def->anchor && strcmp(def->anchor, level) != 0)
    pm = mlirOpPassManagerGetNestedUnder(pm, mlirStringRefCreateFromCString(def->anchor));
  mlirOpPassManagerAddOwnedPass(pm, pass);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult parseElement(Parser *ps, MlirOpPassManager pm, const char *level) {
  skipSpace(ps);
  const char *where = ps->p;
  while (isNameChar(*ps->p)) ps->p++;
  if (ps->p == where) {
    if (*ps->p)
      strataEmitError(locAt(ps, where), "expected a pass or op name, found '%c'", *ps->p);
    else
      strataEmitError(locAt(ps, where), "expected a pass or op name");
    return mlirLogicalResultFailure();
  }
  char *name = strndup(where, (size_t)(ps->p - where));
  char *opts = NULL;
  MlirLogicalResult r = mlirLogicalResultFailure();
  skipSpace(ps);
  if (*ps->p == '{') {
    const char *start = ++ps->p;
    int braces = 1;
    while (*ps->p && braces) {
      if (*ps->p == '{') braces++;
      if (*ps->p == '}') braces--;
      ps->p++;
    }
    if (braces) {
      strataEmitError(locAt(ps, start - 1), "unterminated '{' in options of '%s'", name);
      goto done;
    }
    opts = strndup(start, (size_t)(ps->p - 1 - start));
    skipSpace(ps);
  }
  if (*ps->p == '(') {
    if (opts) {
      strataEmitError(locAt(ps, where), "op anchor '%s' takes no options", name);
      goto done;
    }
    ps->p++;
    MlirOpPassManager nested = pm;
    /* `builtin.module(...)` at the top is the module pass manager itself. */
    if (!(ps->depth == 0 && !strcmp(level, "builtin.module") && !strcmp(name, "builtin.module") &&
          where == ps->text))
      nested = mlirOpPassManagerGetNestedUnder(pm, mlirStringRefCreateFromCString(name));
    r = parseSeq(ps, nested, name, ')');
    if (mlirLogicalResultIsSuccess(r)) ps->p++; /* ')' */
    goto done;
  }
  const StrataPassDef *def = strataContextLookupPass(ps->ctx, name);
  r = def ? addStrataPass(ps, pm, level, where, def, opts) : addUpstream(ps, pm, level, where, name, opts);
done:
  free(name);
  free(opts);
  return r;
}

static MlirLogicalResult parseSeq(Parser *ps, MlirOpPassManager pm, const char *level, char end) {
  skipSpace(ps);
  if (*ps->p == end) return mlirLogicalResultSuccess(); /* empty pipeline */
  for (;;) {
    if (mlirLogicalResultIsFailure(parseElement(ps, pm, level))) return mlirLogicalResultFailure();
    skipSpace(ps);
    if (*ps->p == ',') {
      ps->p++;
      continue;
    }
    if (*ps->p == end) return mlirLogicalResultSuccess();
    if (*ps->p)
      strataEmitError(locAt(ps, ps->p), "expected ',' or '%s' in pass pipeline, found '%c'",
                      end ? ")" : "end", *ps->p);
    else
      strataEmitError(locAt(ps, ps->p), "unexpected end of pass pipeline: missing ')'");
    return mlirLogicalResultFailure();
  }
}

MlirLogicalResult strataParsePipeline(StrataContext *ctx, MlirOpPassManager pm,
                                      const char *pipeline) {
  Parser ps = {ctx, pipeline, pipeline, 0};
  return parseSeq(&ps, pm, "builtin.module", '\0');
}

MlirLogicalResult strataAddPass(StrataContext *ctx, MlirOpPassManager pm, const char *name,
                                const char *options) {
  StrataStr s = {0};
  strataStrAppendf(&s, "%s%s%s%s", name, options ? "{" : "", options ? options : "",
                   options ? "}" : "");
  MlirLogicalResult r = strataParsePipeline(ctx, pm, s.data);
  strataStrFree(&s);
  return r;
}

MlirLogicalResult strataRunPipeline(StrataContext *ctx, MlirOperation module, const char *pipeline) {
  MlirPassManager pm =
      mlirPassManagerCreateOnOperation(ctx->mlir, mlirStringRefCreateFromCString("builtin.module"));
  MlirLogicalResult r = strataParsePipeline(ctx, mlirPassManagerGetAsOpPassManager(pm), pipeline);
  if (mlirLogicalResultIsSuccess(r)) r = mlirPassManagerRunOnOp(pm, module);
  mlirPassManagerDestroy(pm);
  return r;
}
