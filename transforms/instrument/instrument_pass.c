/* --instrument: the declarative form of the tool API.
 *
 *   strata-opt --instrument="tool=trace ops=nn.conv*,nn.matmul point=after"
 *
 * `tool` names built-in tools (comma-separated to run several), `ops`
 * selects ops by name globs, `point` picks the probe points of tools that
 * have a choice. Unknown tools and points are errors located at the module. */
#include <stdlib.h>
#include <string.h>
#include "strata/pass.h"
#include "instr_internal.h"

static const char kToolNames[] = "flops, trace, profile, prune, fakequant, dump, noop";

const char *strataInstrBuiltinToolNames(void) { return kToolNames; }

/* Which points a built-in tool accepts: NULL = takes no `point`. */
static const struct {
  const char *name, *points;
} kPoints[] = {
    {"flops", NULL}, {"trace", "before|after|both"}, {"profile", "both"}, {"prune", "before"},
    {"fakequant", "before"}, {"dump", "after"}, {"noop", "before|after|both"}};

static bool pointAllowed(const char *allowed, const char *point) {
  for (const char *p = allowed; p && *p;) {
    size_t len = strcspn(p, "|");
    if (len == strlen(point) && !strncmp(p, point, len)) return true;
    p += len + (p[len] == '|');
  }
  return false;
}

StrataInstrTool *strataInstrBuiltinTool(const char *name, const StrataInstrBuiltinOptions *options,
                                        MlirLocation loc) {
  StrataInstrBuiltinOptions o = options ? *options : (StrataInstrBuiltinOptions){NULL, 0.5};
  const char *point = o.point && *o.point ? o.point : NULL;
  size_t k = 0;
  while (k < sizeof kPoints / sizeof kPoints[0] && strcmp(kPoints[k].name, name)) k++;
  if (k == sizeof kPoints / sizeof kPoints[0]) {
    strataEmitError(loc, "instrument: unknown tool '%s' (built-in tools: %s)", name, kToolNames);
    return NULL;
  }
  if (point && !pointAllowed(kPoints[k].points, point)) {
    if (kPoints[k].points)
      strataEmitError(loc, "instrument: tool '%s' takes point=%s, not '%s'", name, kPoints[k].points,
                      point);
    else
      strataEmitError(loc, "instrument: tool '%s' is static and takes no point (got '%s')", name,
                      point);
    return NULL;
  }
  if (!strcmp(name, "flops")) return instrFlopsTool();
  if (!strcmp(name, "trace"))
    return instrTraceTool(point && strcmp(point, "after"), !point || strcmp(point, "before"));
  if (!strcmp(name, "profile")) return instrProfileTool();
  if (!strcmp(name, "fakequant")) return instrFakeQuantTool();
  if (!strcmp(name, "dump")) return instrDumpTool();
  if (!strcmp(name, "noop"))
    return instrNoopTool(!point || strcmp(point, "after"), !point || strcmp(point, "before"));
  if (!(o.sparsity >= 0.0 && o.sparsity <= 1.0)) {
    strataEmitError(loc, "instrument: tool 'prune' needs sparsity in [0, 1], got %g", o.sparsity);
    return NULL;
  }
  return instrPruneTool(o.sparsity);
}

static void runInstrument(StrataPassRun *run, MlirOperation root) {
  MlirLocation loc = mlirOperationGetLocation(root);
  const char *list = strataPassGetString(run, "tool"), *point = strataPassGetString(run, "point");
  if (!*list) {
    strataEmitError(loc, "instrument: option 'tool' is required (built-in tools: %s)", kToolNames);
    strataPassSignalFailure(run);
    return;
  }
  if (*point && strcmp(point, "before") && strcmp(point, "after") && strcmp(point, "both")) {
    strataEmitError(loc, "instrument: option 'point' must be before, after or both, not '%s'", point);
    strataPassSignalFailure(run);
    return;
  }
  StrataInstrBuiltinOptions options = {point, strataPassGetDouble(run, "sparsity")};
  StrataInstrTool *tools[8];
  size_t n = 0;
  bool ok = true;
  for (const char *p = list; *p && ok;) {
    size_t len = strcspn(p, ",");
    char *name = strndup(p, len);
    if (n == sizeof tools / sizeof tools[0]) {
      strataEmitError(loc, "instrument: more than %zu tools", n);
      ok = false;
    } else {
      ok = name && (tools[n] = strataInstrBuiltinTool(name, &options, loc)) != NULL;
      n += ok;
    }
    free(name);
    p += len + (p[len] == ',');
  }
  if (ok)
    ok = mlirLogicalResultIsSuccess(strataInstrument(strataPassGetContext(run), root, tools, n,
                                                     strataPassGetString(run, "ops")));
  for (size_t i = 0; i < n; i++) strataInstrToolDestroy(tools[i]);
  if (!ok) strataPassSignalFailure(run);
}

static const StrataPassOptionDef kOptions[] = {
    {"tool", STRATA_OPTION_STRING, "", "built-in tool(s), comma-separated: flops, trace, profile, prune, fakequant, dump, noop"},
    {"ops", STRATA_OPTION_STRING, "", "comma-separated op-name globs to instrument (default: all observable ops)"},
    {"point", STRATA_OPTION_STRING, "", "before, after or both (default: the tool's own)"},
    {"sparsity", STRATA_OPTION_DOUBLE, "0.5", "prune: fraction of each weight tensor zeroed"},
};

const StrataPassDef strataInstrumentPass = {
    .name = "instrument",
    .summary = "Run built-in instrumentation tools (flops, trace, profile, prune, fakequant, dump, noop) over observable ops",
    .anchor = "builtin.module",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof kOptions[0],
    .run = runInstrument,
};
