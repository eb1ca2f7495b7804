/* --all-functions: every public function of the module compiled as one
 * executable, then run in turn on its own seeded random inputs (the inputs
 * `--entry NAME` would give it), through the interpreter, the target or
 * both (--compare). A function that fails to run or to match is reported
 * and the others still run. One compile and one device for a whole file of
 * small functions: the numerics suites (test/e2e/compare_all.py) pay the
 * target's set-up (e.g. PoCL's kernel library, a Vulkan instance) once per
 * file, not once per function. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run.h"
#include "tool_time.h"

static bool isPublicFunction(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length != 9 || strncmp(name.data, "func.func", 9)) return false;
  MlirRegion body = mlirOperationGetRegion(op, 0);
  return mlirAttributeIsNull(mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_visibility"))) &&
         !mlirRegionIsNull(body) && !mlirBlockIsNull(mlirRegionGetFirstBlock(body));
}

static void dropResults(RunState *r) {
  for (size_t i = 0; i < MAX_IO; i++) {
    strataTensorDestroy(r->outputs[i]);
    r->outputs[i] = NULL;
  }
  for (size_t i = 0; i < r->numRef; i++) strataTensorDestroy(r->ref[i]);
  free(r->ref);
  r->ref = NULL, r->numRef = 0;
}

/* --output-dir: DIR/NAME.K.npy for each result. */
static bool writeOutputs(RunState *r, const Options *o) {
  StrataTensor *const *results = o->mode == MODE_INTERPRET ? r->ref : r->outputs;
  for (size_t k = 0; k < r->numOut; k++) {
    char path[4096], err[512];
    if (snprintf(path, sizeof path, "%s/%s.%zu.npy", o->outputDir, r->entry, k) >= (int)sizeof path)
      return fprintf(stderr, "error: --output-dir: the path of '%s' is too long\n", r->entry), false;
    if (!strataNpyWrite(path, results[k], err, sizeof err)) return fprintf(stderr, "error: %s\n", err), false;
  }
  return true;
}

/* Interprets and/or invokes r->func (described) as the mode says. */
static bool runOne(RunState *r, const Options *o) {
  if (o->mode != MODE_JIT &&
      mlirLogicalResultIsFailure(strataInterpret(r->ctx, r->func, r->inputs, r->numIn, &r->ref, &r->numRef)))
    return false;
  if (o->mode == MODE_INTERPRET) return report(r, o);
  if (!createOutputs(r)) return false;
  double t0 = toolNowMs();
  if (mlirLogicalResultIsFailure(strataExecutableInvoke(r->exe, r->entry, r->inputs, r->numIn, r->outputs, r->numOut)))
    return false;
  printf("ran in %.3f ms\n", toolNowMs() - t0);
  return report(r, o);
}

static void ignoreDiagnostic(const StrataDiagnostic *diag, void *user) { (void)diag, (void)user; }

/* r->exe: r->func and what it calls, compiled alone (a clone of the module). */
static bool compileAlone(RunState *r, const Options *o) {
  MlirModule clone = mlirModuleFromOperation(mlirOperationClone(mlirModuleGetOperation(r->module)));
  MlirOperation f = strataLookupFunc(clone, r->entry);
  if (mlirOperationIsNull(f) || mlirLogicalResultIsFailure(strataModuleKeepReachable(clone, f))) {
    mlirModuleDestroy(clone);
    return fprintf(stderr, "error: out of memory\n"), false;
  }
  StrataCompileOptions options = compileOptions(o);
  r->exe = strataCompile(r->ctx, clone, o->target, &options);
  mlirModuleDestroy(clone);
  return r->exe != NULL;
}

bool runAllFunctions(RunState *r, const Options *o) {
  MlirBlock body = mlirModuleGetBody(r->module);
  size_t count = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    count += isPublicFunction(op);
  if (!count) return fprintf(stderr, "%s: error: no public function with a body in the module\n", o->file), false;
  bool alone = false;
  if (o->mode != MODE_INTERPRET) {
    double t0 = toolNowMs();
    StrataCompileOptions options = compileOptions(o);
    /* A refusal here is reported again below, with its function. */
    strataContextSetDiagnosticCallback(r->ctx, ignoreDiagnostic, NULL);
    r->exe = strataCompile(r->ctx, r->module, o->target, &options);
    strataContextSetDiagnosticCallback(r->ctx, NULL, NULL);
    if (r->exe) printf("compiled %zu function%s in %.1f ms\n", count, count == 1 ? "" : "s", toolNowMs() - t0);
    else printf("the module does not compile as a whole: each function is compiled alone\n");
    alone = !r->exe;
  }
  size_t failed = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!isPublicFunction(op)) continue;
    r->func = op;
    strataFuncSignature(op, r->entry, sizeof r->entry);
    printf("function '%s':\n", r->entry);
    fflush(stdout);
    bool ok = describeEntry(r, o) && (!alone || compileAlone(r, o)) && runOne(r, o) &&
              (!o->outputDir || writeOutputs(r, o));
    if (alone) strataExecutableDestroy(r->exe), r->exe = NULL;
    if (!ok) printf("FAILED\n"), failed++;
    fflush(stdout);
    dropResults(r);
  }
  printf("%zu function%s, %zu failed\n", count, count == 1 ? "" : "s", failed);
  fflush(stdout); /* before any exit-time report (LeakSanitizer's aborts) */
  return failed == 0;
}
