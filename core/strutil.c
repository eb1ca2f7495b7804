/* Small string utilities used across the core. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "grow.h"
#include "internal.h"

void strataStrAppend(StrataStr *s, const char *text, size_t n) {
  char *p = strataGrow(s->data, &s->cap, s->len + n + 1, 1);
  if (!p) return; /* out of memory: drop the text rather than crash */
  s->data = p;
  memcpy(s->data + s->len, text, n);
  s->len += n;
  s->data[s->len] = '\0';
}

void strataStrAppendv(StrataStr *s, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) return;
  char stackBuf[256];
  char *buf = (size_t)n < sizeof stackBuf ? stackBuf : malloc((size_t)n + 1);
  if (!buf) return;
  vsnprintf(buf, (size_t)n + 1, fmt, ap);
  strataStrAppend(s, buf, (size_t)n);
  if (buf != stackBuf) free(buf);
}

void strataStrAppendf(StrataStr *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  strataStrAppendv(s, fmt, ap);
  va_end(ap);
}

void strataStrFree(StrataStr *s) {
  free(s->data);
  s->data = NULL;
  s->len = s->cap = 0;
}

void strataStrCallback(MlirStringRef chunk, void *user) {
  strataStrAppend((StrataStr *)user, chunk.data, chunk.length);
}

size_t strataEditDistance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  size_t *row = malloc((lb + 1) * sizeof *row);
  if (!row) return (size_t)-1;
  for (size_t j = 0; j <= lb; j++) row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j];
      size_t best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  size_t d = row[lb];
  free(row);
  return d;
}
