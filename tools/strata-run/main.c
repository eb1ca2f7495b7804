/* strata-run: compile a function for a target (the CPU by default) and run
 * it, or run it through the reference interpreter, or both and compare.
 * The jobs are in run.h: options, model and inputs, execution, report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run.h"

static void listTargets(StrataContext *ctx) {
  for (size_t i = 0; i < strataContextNumTargets(ctx); i++) {
    const StrataTargetDef *t = strataContextGetTarget(ctx, i);
    printf("  %-10s %s\n", t->name, t->summary ? t->summary : "");
  }
}

/* --list-devices: the devices of the --target, or an error. */
static bool listDevices(StrataContext *ctx, const Options *o) {
  const StrataTargetDef *t = strataContextLookupTarget(ctx, o->target);
  if (!t->listDevices)
    return fprintf(stderr, "error: target '%s' has no devices to choose from\n", t->name), false;
  char *text = t->listDevices(t, ctx, mlirLocationUnknownGet(strataContextGetMlir(ctx)));
  if (!text) return false; /* the error went to the diagnostic handler */
  fputs(text, stdout);
  free(text);
  return true;
}

/* The --target the options name, on this context (and one with devices
 * if --device names one). */
static bool checkTarget(StrataContext *ctx, const Options *o) {
  const StrataTargetDef *t = strataContextLookupTarget(ctx, o->target);
  if (t && o->device && !t->listDevices)
    return fprintf(stderr, "error: --device: target '%s' has no devices to choose from\n", t->name), false;
  if (t) return true;
  char names[512];
  strataContextFormatTargetNames(ctx, names, sizeof names);
  fprintf(stderr, "error: unknown --target '%s' (registered: %s)\n", o->target, names);
  return false;
}

int main(int argc, char **argv) {
  Options o;
  int rc = parseArgs(argc, argv, &o);
  if (rc) return rc < 0 ? 0 : 1;
  RunState r = {.ctx = strataContextCreate()};
  if (!r.ctx) return fprintf(stderr, "error: could not create the Strata context\n"), 1;
  StrataRuntimeOptions runtime = {.numThreads = (int)o.threads, .limit = o.maxMemory};
  strataContextSetRuntime(r.ctx, &runtime); /* both checked by parseArgs */
  if (o.listTargets) {
    listTargets(r.ctx);
    runStateDestroy(&r);
    return 0;
  }
  if (o.listDevices) {
    bool ok = checkTarget(r.ctx, &o) && listDevices(r.ctx, &o);
    runStateDestroy(&r);
    return ok ? 0 : 1;
  }
  if (o.allFunctions) {
    bool ok = checkTarget(r.ctx, &o) && loadModel(&r, &o) && runAllFunctions(&r, &o);
    runStateDestroy(&r);
    return ok ? 0 : 1;
  }
  bool hit = false;
  bool ok = checkTarget(r.ctx, &o) && loadCached(&r, &o, &hit) && (hit || (loadModel(&r, &o) && prepareEntry(&r, &o)));
  if (ok && o.debugNumerics) ok = debugNumerics(&r, &o);
  else if (ok) ok = execute(&r, &o) && (o.shapesFile || report(&r, &o));
  runStateDestroy(&r);
  return ok ? 0 : 1;
}
