/* The one-call entry to pattern sparsity (strata/sparse.h): the pass
 * pipeline a --sparse MODE stands for, and running it on a module. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strata/pass.h"
#include "strata/sparse.h"

/* A value that can stand in a pass option (no separators or quotes). */
static bool optionValueOk(const char *v) { return v && *v && !strpbrk(v, " {}=,'\""); }

static bool parseMode(const char *mode, long *prune, double *rate, char *why, size_t n) {
  *prune = 0, *rate = 0;
  if (!mode || !strcmp(mode, "detect")) return true;
  /* items separated by single commas, each key at most once */
  size_t len = strlen(mode);
  char *copy = strdup(mode), *save = NULL;
  bool ok = copy && len && mode[0] != ',' && mode[len - 1] != ',' && !strstr(mode, ",,");
  bool seenPrune = false, seenRate = false;
  for (char *item = ok ? strtok_r(copy, ",", &save) : NULL; ok && item; item = strtok_r(NULL, ",", &save)) {
    char *end = NULL;
    if (!strncmp(item, "prune=", 6) && !seenPrune) {
      *prune = strtol(item + 6, &end, 10);
      ok = end != item + 6 && !*end && *prune >= 1 && *prune <= 64;
      seenPrune = true;
    } else if (!strncmp(item, "rate=", 5) && !seenRate) {
      *rate = strtod(item + 5, &end);
      ok = end != item + 5 && !*end && *rate >= 1.0 && *rate <= 1e6;
      seenRate = true;
    } else {
      ok = false;
    }
  }
  free(copy);
  if (!ok || (!*prune && !*rate))
    snprintf(why, n,
             "bad sparse mode '%s': 'detect', or 'prune=N' (N patterns, 1-64) and/or 'rate=R' "
             "(connectivity pruning keeping 1/R of the kernels, R >= 1), comma-separated, each once",
             mode);
  return ok && (*prune || *rate);
}

char *strataSparsePipeline(const StrataSparseOptions *o, char *why, size_t whySize) {
  long prune;
  double rate;
  if (!parseMode(o->mode, &prune, &rate, why, whySize)) return NULL;
  const char *paths[] = {o->tuneDb, o->report && strcmp(o->report, "-") ? o->report : NULL, o->target};
  for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
    if (paths[i] && !optionValueOk(paths[i])) {
      snprintf(why, whySize, "'%s' is empty or has one of  {}=,'\" (not expressible as a pass option)",
               paths[i]);
      return NULL;
    }
  char *p = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&p, &len);
  if (!f) return NULL;
  if (prune) fprintf(f, "sparse-pattern-select{count=%ld},sparse-pattern-prune,", prune);
  if (rate) fprintf(f, "sparse-connectivity-prune{rate=%.17g},", rate);
  fprintf(f, "sparse-detect{max-patterns=%ld},sparse-fkr,sparse-fkw", prune ? prune : 8);
  if (o->tune || o->tuneDb)
    fprintf(f, ",sparse-tune{target=%s%s%s}", o->target ? o->target : "cpu", o->tuneDb ? " db=" : "",
            o->tuneDb ? o->tuneDb : "");
  if (o->report) fprintf(f, ",sparse-report{%s%s}", strcmp(o->report, "-") ? "file=" : "",
                         strcmp(o->report, "-") ? o->report : "");
  fclose(f);
  return p;
}

MlirLogicalResult strataSparseApply(StrataContext *ctx, MlirModule module, const StrataSparseOptions *o) {
  char why[512];
  char *pipeline = strataSparsePipeline(o, why, sizeof why);
  if (!pipeline) {
    strataEmitError(mlirOperationGetLocation(mlirModuleGetOperation(module)), "%s", why);
    return mlirLogicalResultFailure();
  }
  MlirLogicalResult r = strataRunPipeline(ctx, mlirModuleGetOperation(module), pipeline);
  free(pipeline);
  return r;
}
