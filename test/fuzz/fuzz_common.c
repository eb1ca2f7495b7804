/* See fuzz_common.h. */
#include "fuzz_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static StrataContext *gContext;
static unsigned gInputs;
static int gVerbose;

/* Fuzzing produces millions of expected errors; printing them would bury
 * libFuzzer's own report and slow every input down. */
static void swallowDiagnostic(const StrataDiagnostic *diag, void *user) {
  (void)user;
  if (gVerbose) strataPrintDiagnostic(diag, NULL);
}

/* Destroys the context at exit so that LeakSanitizer's final check sees only
 * real leaks, not the live context. */
static void destroyContext(void) {
  strataContextDestroy(gContext);
  gContext = NULL;
}

StrataContext *fuzzContext(void) {
  if (gContext && ++gInputs >= FUZZ_CONTEXT_INPUTS) destroyContext();
  if (!gContext) {
    static int registered;
    if (!registered) {
      registered = 1;
      const char *v = getenv("STRATA_FUZZ_VERBOSE");
      gVerbose = v && *v && strcmp(v, "0") != 0;
      atexit(destroyContext);
    }
    gContext = strataContextCreate();
    if (!gContext) {
      /* Only an embedded dialect that fails to load does this: a build defect. */
      fprintf(stderr, "fuzz: strataContextCreate failed\n");
      abort();
    }
    strataContextSetDiagnosticCallback(gContext, swallowDiagnostic, NULL);
    gInputs = 0;
  }
  return gContext;
}

char *fuzzCopyString(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1);
  if (!s) return NULL;
  if (size) memcpy(s, data, size);
  s[size] = '\0';
  return s;
}
