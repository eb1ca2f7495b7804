/* The launcher's command line and hand-over to the full driver
 * (launcher.h). It parses only what it serves, with the full driver's
 * rules (plain.h); anything else (another option, a bad value, no cache)
 * goes to the full driver untouched, which also reports every error. */
#define _GNU_SOURCE /* readlink */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "launcher.h"
#include "plain.h"
#include "strata/target.h"

/* Appends option `a` and its value to the options that shape the code, as
 * the full driver's parseArgs does (options.c: noteCodeOption). */
static bool noteCodeOption(LaunchOptions *o, const char *a, const char *val) {
  int n = snprintf(o->codeArgs + o->codeArgsLen, sizeof o->codeArgs - o->codeArgsLen, "%s=%s", a, val);
  if (n < 0 || (size_t)n + 1 >= sizeof o->codeArgs - o->codeArgsLen) return false;
  o->codeArgsLen += (size_t)n + 1;
  return true;
}

bool launchParse(int argc, char **argv, LaunchOptions *o) {
  memset(o, 0, sizeof *o);
  o->threads = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    char name[64];
    const char *eq = !strncmp(a, "--", 2) ? strchr(a, '=') : NULL, *inlineVal = NULL;
    if (eq) {
      if ((size_t)(eq - a) >= sizeof name) return false;
      snprintf(name, sizeof name, "%.*s", (int)(eq - a), a);
      a = name, inlineVal = eq + 1;
    }
    if (!strcmp(a, "--quiet")) {
      if (inlineVal) return false;
      o->quiet = true;
      continue;
    }
    if (a[0] != '-') {
      if (o->file) return false;
      o->file = a;
      continue;
    }
    const char *val = inlineVal ? inlineVal : i + 1 < argc ? argv[i + 1] : NULL;
    if (!val) return false;
    if (!inlineVal) i++;
    long v;
    if (!strcmp(a, "--seed") && runParseLong(val, 0, __LONG_MAX__, &v)) o->seed = (unsigned long long)v;
    else if (!strcmp(a, "--repeat") && runParseLong(val, 1, 1000000, &v)) o->repeat = v;
    else if (!strcmp(a, "--threads") && runParseLong(val, 1, 64, &v)) o->threads = v;
    else if (!strcmp(a, "--max-memory") && runParseSize(val, &o->maxMemory)) continue;
    else if (!strcmp(a, "--cache-dir") && *val) o->cacheDir = val;
    else if (!strcmp(a, "--output") && o->numOutputs < LAUNCH_MAX_OUTPUTS) o->outputs[o->numOutputs++] = val;
    else if (!strcmp(a, "-O") && runParseLong(val, 0, 3, &v) && noteCodeOption(o, a, val)) continue;
    else if (!strcmp(a, "--fusion") && (!strcmp(val, "none") || !strcmp(val, "fixed") || !strcmp(val, "dnnfusion")) &&
             noteCodeOption(o, a, val))
      continue;
    else return false;
  }
  if (!o->file || !strcmp(o->file, "-")) return false;
  if (!o->cacheDir) o->cacheDir = strataDefaultCacheDir(o->cacheBuf, sizeof o->cacheBuf);
  return o->cacheDir != NULL;
}

/* strata-run-full in the directory of this executable. */
static bool fullDriverPath(char *buf, size_t size) {
  ssize_t n = readlink("/proc/self/exe", buf, size - 1);
  if (n <= 0 || (size_t)n >= size - 1) return false;
  buf[n] = '\0';
  char *slash = strrchr(buf, '/');
  static const char kFull[] = "strata-run-full";
  if (!slash || (size_t)(slash + 1 - buf) + sizeof kFull > size) return false;
  memcpy(slash + 1, kFull, sizeof kFull);
  return true;
}

int main(int argc, char **argv) {
  char full[4096];
  if (!fullDriverPath(full, sizeof full)) {
    fprintf(stderr, "error: cannot find strata-run-full beside this strata-run\n");
    return 1;
  }
  LaunchOptions o;
  if (launchParse(argc, argv, &o) && launchServe(&o, full)) return fflush(stdout) == 0 ? 0 : 1;
  fflush(stdout);
  execv(full, argv);
  fprintf(stderr, "error: cannot run '%s': %s\n", full, strerror(errno));
  return 1;
}
