/* --verify-diagnostics: `// expected-error@+1 {{text}}` comments in the
 * input are matched against the diagnostics a run produces. */
#ifndef STRATA_OPT_VERIFY_DIAGNOSTICS_H
#define STRATA_OPT_VERIFY_DIAGNOSTICS_H

#include <stdbool.h>
#include <stddef.h>
#include "strata/context.h"

typedef struct VerifyDiags VerifyDiags;

/* Collects expectations from `text` (a whole chunk, line numbers as in the
 * file). Malformed expectation comments are reported and make finish fail. */
VerifyDiags *verifyDiagsCreate(const char *text, const char *fileName);
/* Diagnostic callback recording what a run produced. */
void verifyDiagsRecord(const StrataDiagnostic *d, void *user);
/* Reports unmatched expectations and unexpected diagnostics to stderr;
 * returns true if everything matched. Frees the object. */
bool verifyDiagsFinish(VerifyDiags *v);

#endif
