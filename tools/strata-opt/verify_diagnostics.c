#include "verify_diagnostics.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "grow.h"

typedef struct {
  StrataSeverity severity;
  unsigned line;
  char *text;
  bool matched;
  unsigned commentLine;
} Expectation;

typedef struct {
  StrataSeverity severity;
  unsigned line;
  char *location, *message;
} Seen;

struct VerifyDiags {
  char *fileName;
  Expectation *exp;
  size_t numExp, capExp;
  Seen *seen;
  size_t numSeen, capSeen;
  bool malformed;
};

static const struct { const char *word; StrataSeverity sev; } kKinds[] = {
    {"expected-error", STRATA_SEVERITY_ERROR},
    {"expected-warning", STRATA_SEVERITY_WARNING},
    {"expected-note", STRATA_SEVERITY_NOTE},
    {"expected-remark", STRATA_SEVERITY_REMARK},
};

VerifyDiags *verifyDiagsCreate(const char *text, const char *fileName) {
  VerifyDiags *v = calloc(1, sizeof *v);
  if (!v) return NULL;
  v->fileName = strdup(fileName);
  unsigned line = 1;
  for (const char *p = text; *p; p++) {
    if (*p == '\n') {
      line++;
      continue;
    }
    for (size_t k = 0; k < sizeof kKinds / sizeof kKinds[0]; k++) {
      size_t wl = strlen(kKinds[k].word);
      if (strncmp(p, kKinds[k].word, wl) != 0) continue;
      const char *q = p + wl;
      long target = line;
      if (*q == '@') {
        q++;
        if (!strncmp(q, "above", 5)) target = (long)line - 1, q += 5;
        else if (!strncmp(q, "below", 5)) target = line + 1, q += 5;
        else {
          char *end;
          long off = strtol(q, &end, 10);
          target = (*q == '+' || *q == '-') ? (long)line + off : off;
          q = end;
        }
      }
      while (*q == ' ') q++;
      const char *close = strncmp(q, "{{", 2) == 0 ? strstr(q + 2, "}}") : NULL;
      const char *eol = strchr(q, '\n');
      if (!close || (eol && close > eol) || target < 1) {
        fprintf(stderr, "%s:%u: error: malformed %s (expected {{text}})\n", fileName, line,
                kKinds[k].word);
        v->malformed = true;
        break;
      }
      Expectation *grown = strataGrow(v->exp, &v->capExp, v->numExp + 1, sizeof *grown);
      if (!grown) break;
      v->exp = grown;
      v->exp[v->numExp++] = (Expectation){kKinds[k].sev, (unsigned)target,
                                          strndup(q + 2, (size_t)(close - q - 2)), false, line};
      p = close + 1;
      break;
    }
  }
  return v;
}

void verifyDiagsRecord(const StrataDiagnostic *d, void *user) {
  VerifyDiags *v = user;
  /* mlir-opt turns this note off under --verify-diagnostics; the C API
   * cannot, so it is dropped here. */
  if (d->severity == STRATA_SEVERITY_NOTE && !strncmp(d->message, "see current operation:", 22))
    return;
  Seen *grown = strataGrow(v->seen, &v->capSeen, v->numSeen + 1, sizeof *grown);
  if (!grown) return;
  v->seen = grown;
  v->seen[v->numSeen++] = (Seen){d->severity, d->line, strdup(d->location), strdup(d->message)};
}

static const char *kindName(StrataSeverity s) {
  for (size_t k = 0; k < sizeof kKinds / sizeof kKinds[0]; k++)
    if (kKinds[k].sev == s) return kKinds[k].word + strlen("expected-");
  return "diagnostic";
}

bool verifyDiagsFinish(VerifyDiags *v) {
  bool ok = !v->malformed;
  for (size_t i = 0; i < v->numSeen; i++) {
    Seen *s = &v->seen[i];
    bool found = false;
    for (size_t j = 0; j < v->numExp && !found; j++) {
      Expectation *e = &v->exp[j];
      if (!e->matched && e->severity == s->severity && e->line == s->line &&
          strstr(s->message, e->text)) {
        e->matched = found = true;
      }
    }
    if (!found) {
      fprintf(stderr, "%s: error: unexpected %s: %s\n", s->location, kindName(s->severity),
              s->message);
      ok = false;
    }
  }
  for (size_t j = 0; j < v->numExp; j++)
    if (!v->exp[j].matched) {
      fprintf(stderr, "%s:%u: error: expected %s \"%s\" was not produced\n", v->fileName,
              v->exp[j].commentLine, kindName(v->exp[j].severity), v->exp[j].text);
      ok = false;
    }
  for (size_t i = 0; i < v->numSeen; i++) free(v->seen[i].location), free(v->seen[i].message);
  for (size_t j = 0; j < v->numExp; j++) free(v->exp[j].text);
  free(v->seen);
  free(v->exp);
  free(v->fileName);
  free(v);
  return ok;
}
