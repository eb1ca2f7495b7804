/* Strata passes: declared once in a table, instantiated with
 * mlirCreateExternalPass, and named in textual pipelines alongside upstream
 * passes.
 *
 *   static const StrataPassOptionDef kOpts[] = {
 *     {"max-iterations", STRATA_OPTION_INT, "10", "Greedy driver iteration cap"},
 *   };
 *   static const StrataPassDef kFold = {
 *     .name = "nn-fold", .summary = "Fold nn ops", .anchor = "func.func",
 *     .options = kOpts, .numOptions = 1, .run = runFold,
 *   };
 *   strataContextRegisterPass(ctx, &kFold);
 *   strataParsePipeline(ctx, pm, "builtin.module(func.func(nn-fold{max-iterations=3},cse))");
 */
#ifndef STRATA_PASS_H
#define STRATA_PASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "strata/context.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  STRATA_OPTION_BOOL,
  STRATA_OPTION_INT,
  STRATA_OPTION_DOUBLE,
  STRATA_OPTION_STRING,
} StrataOptionKind;

typedef struct {
  const char *name;
  StrataOptionKind kind;
  const char *defaultValue; /* textual, parsed like a user-given value */
  const char *help;
} StrataPassOptionDef;

typedef struct StrataPassRun StrataPassRun;
typedef void (*StrataPassRunFn)(StrataPassRun *run, MlirOperation op);
typedef MlirDialectHandle (*StrataDialectHandleFn)(void);

struct StrataPassDef {
  const char *name;    /* pipeline/flag name, "nn-to-linalg" */
  const char *summary; /* one line */
  const char *anchor;  /* op the pass runs on ("func.func", "builtin.module"); NULL: any */
  const StrataPassOptionDef *options;
  size_t numOptions;
  StrataPassRunFn run;  /* NULL for a pipeline alias */
  const char *pipeline; /* alias: the textual pipeline this name stands for */
  const StrataDialectHandleFn *dependentDialects; /* NULL-terminated; may be NULL */
};

/* ---- Inside a pass run ---- */
StrataContext *strataPassGetContext(StrataPassRun *run);
const StrataPassDef *strataPassGetDef(StrataPassRun *run);
bool strataPassGetBool(StrataPassRun *run, const char *option);
int64_t strataPassGetInt(StrataPassRun *run, const char *option);
double strataPassGetDouble(StrataPassRun *run, const char *option);
const char *strataPassGetString(StrataPassRun *run, const char *option);
void strataPassSignalFailure(StrataPassRun *run);

/* ---- Registry (per context) ---- */

/* Registers a pass or pipeline alias with the context. `def` must outlive the
 * context. Fails (with a diagnostic) if the name is taken, by a Strata or an
 * upstream pass. */
MlirLogicalResult strataContextRegisterPass(StrataContext *ctx, const StrataPassDef *def);
size_t strataContextNumPasses(StrataContext *ctx);
const StrataPassDef *strataContextGetPass(StrataContext *ctx, size_t i);
const StrataPassDef *strataContextLookupPass(StrataContext *ctx, const char *name);

/* Upstream passes and pipelines known to this MLIR (read from its mlir-opt at
 * build time). `options` holds one "name=<kind> - help" line per option.
 * `pipeline`: a registered pass pipeline (mlir-opt's "Pass Pipelines"),
 * whose builder may add builtin.module passes; Strata's pipeline parser
 * accepts those only at builtin.module level (nested elsewhere, MLIR would
 * abort the process building them). */
typedef struct {
  const char *name;
  const char *summary;
  const char *options;
  bool pipeline;
} StrataUpstreamPass;
size_t strataNumUpstreamPasses(void);
const StrataUpstreamPass *strataGetUpstreamPass(size_t i);
const StrataUpstreamPass *strataLookupUpstreamPass(const char *name);

/* ---- Pipelines ---- */

/* Parses a textual pipeline mixing Strata and upstream passes and adds it to
 * `pm`. Syntax as MLIR's: `op-name(pipeline)` nests, `pass{opt=v opt2=v}`
 * passes options, elements are comma-separated. If the text starts with the
 * name of the op `pm` runs on (`builtin.module(...)`), that level is `pm`
 * itself. Errors name the unknown pass or option, list near matches, and are
 * located at "<pass-pipeline>:1:<column>". */
MlirLogicalResult strataParsePipeline(StrataContext *ctx, MlirOpPassManager pm,
                                      const char *pipeline);

/* Adds one pass by name with an option string ("opt=1 other=x", may be NULL). */
MlirLogicalResult strataAddPass(StrataContext *ctx, MlirOpPassManager pm, const char *name,
                                const char *options);

/* Creates a pass manager on builtin.module, adds `pipeline`, runs it on
 * `module`. */
MlirLogicalResult strataRunPipeline(StrataContext *ctx, MlirOperation module,
                                    const char *pipeline);

/* Writes up to `max` names closest to `name` among Strata and upstream passes
 * (edit distance), returning how many were written. */
size_t strataSuggestPasses(StrataContext *ctx, const char *name, const char **out, size_t max);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_PASS_H */
