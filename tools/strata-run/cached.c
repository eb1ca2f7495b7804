/* strata-run's use of the model cache (strataExecutableLoad/Store): a run
 * that only needs the compiled code looks the model up by its file's bytes
 * and the options that shape the code (Options.codeArgs), and on a hit
 * neither imports, lowers nor compiles it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run.h"
#include "tool_io.h"
#include "tool_time.h"

/* The model's bytes: a file mapped (megabytes of weights are neither
 * copied nor zero-filled first), standard input read. */
static bool readModel(RunState *r, const Options *o) {
  if (!strcmp(o->file, "-")) return (r->text = toolReadFile(o->file, &r->textLen)) != NULL;
  char why[4200];
  if (!(r->text = strataModelBytesRead(o->file, &r->textLen, &r->mapped, why, sizeof why)))
    fprintf(stderr, "error: %s\n", why);
  return r->text != NULL;
}

/* Runs whose every output comes from the compiled code alone. */
static bool eligible(const Options *o) {
  return o->cacheDir && o->mode == MODE_JIT && !o->shapesFile && !o->debugNumerics && !o->instrument &&
         !o->traceOut && !o->sparse.report && !o->codeArgsOverflow;
}

bool loadCached(RunState *r, const Options *o, bool *hit) {
  *hit = false;
  if (!readModel(r, o)) return false;
  double t0 = toolNowMs();
  r->cacheable = eligible(o) && strataExecutableCacheKeyOfModel(r->ctx, o->target, r->text, r->textLen, r->mapped,
                                                                o->codeArgs, o->codeArgsLen, r->cacheKey);
  if (!r->cacheable) return true;
  MlirModule entry;
  StrataExecutable *exe = strataExecutableLoad(r->ctx, o->target, o->cacheDir, r->cacheKey, &entry);
  if (!exe) return true;
  r->exe = exe, r->module = entry, r->loadMs = toolNowMs() - t0;
  r->func = mlirBlockGetFirstOperation(mlirModuleGetBody(entry));
  *hit = true;
  return describeEntry(r, o);
}

void storeCached(RunState *r, const Options *o) {
  char why[512];
  if (r->cacheable && !strataExecutableStore(r->exe, o->cacheDir, r->cacheKey, r->func, why, sizeof why) && *why)
    fprintf(stderr, "warning: the model cache '%s' cannot be written (%s): the next run compiles again\n",
            o->cacheDir, why);
}
