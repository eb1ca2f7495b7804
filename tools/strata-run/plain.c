/* strata-run's plain parts (plain.h). */
#include "plain.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool runParseLong(const char *s, long lo, long hi, long *out) {
  char *end;
  long v = strtol(s, &end, 10);
  if (!*s || *end || v < lo || v > hi) return false;
  *out = v;
  return true;
}

bool runParseSize(const char *s, size_t *out) {
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  int shift = !*end ? 0 : !strcmp(end, "K") ? 10 : !strcmp(end, "M") ? 20 : !strcmp(end, "G") ? 30 : -1;
  if (s[0] < '0' || s[0] > '9' || end == s || shift < 0 || v == 0 || v > (SIZE_MAX >> shift)) return false;
  *out = (size_t)v << shift;
  return true;
}

bool runOptionIsRunOnly(const char *a) {
  static const char *const kRunOnly[] = {"--input", "--input-shape", "--output", "--seed",  "--repeat",
                                         "--threads", "--max-memory", "--quiet", "--stats", "--cache-dir",
                                         "--no-cache", "--atol", "--rtol"};
  for (size_t i = 0; i < sizeof kRunOnly / sizeof kRunOnly[0]; i++)
    if (!strcmp(a, kRunOnly[i])) return true;
  return false;
}

void runPrintTensor(const char *label, size_t i, const StrataTensor *t, bool values) {
  char shape[256];
  strataTensorFormatType(t, shape, sizeof shape);
  int64_t n = strataTensorNumElements(t);
  double lo = INFINITY, hi = -INFINITY, sum = 0;
  for (int64_t k = 0; k < n; k++) {
    double v = strataTensorGetDouble(t, k);
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
    sum += v;
  }
  printf("%s #%zu: %s  min %.6g  max %.6g  mean %.6g\n", label, i, shape, lo, hi, n ? sum / n : 0);
  if (!values) return;
  int64_t shown = n < 16 ? n : 16;
  printf("  [");
  for (int64_t k = 0; k < shown; k++) printf("%s%.6g", k ? ", " : "", strataTensorGetDouble(t, k));
  printf("%s]\n", shown < n ? ", ..." : "");
}

void runPrintCompiled(const char *entry, double compileMs, double runMs, const char *from) {
  printf("compiled '%s' in %.1f ms, ran in %.3f ms", entry, compileMs, runMs);
  if (from) printf(" (%s from the cache)", from);
  printf("\n");
}
