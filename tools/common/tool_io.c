#include "tool_io.h"
#include <stdlib.h>
#include <string.h>
#include "grow.h"

char *toolReadFile(const char *path, size_t *len) {
  FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
  if (!f) {
    fprintf(stderr, "error: cannot open '%s'\n", path);
    return NULL;
  }
  size_t cap = 1 << 16, n = 0; /* cap bytes allocated: up to cap - 1 read, then the NUL */
  char *buf = malloc(cap);
  while (buf) {
    size_t got = fread(buf + n, 1, cap - 1 - n, f);
    n += got;
    if (n < cap - 1) break;
    char *grown = strataGrow(buf, &cap, cap + 1, 1);
    if (!grown) free(buf);
    buf = grown;
  }
  bool err = ferror(f);
  if (f != stdin) fclose(f);
  if (!buf || err) {
    free(buf);
    fprintf(stderr, "error: cannot read '%s'\n", path);
    return NULL;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

bool toolOutputOpen(ToolOutput *o, const char *path) {
  memset(o, 0, sizeof *o);
  if (!strcmp(path, "-")) {
    o->f = stdout;
    return true;
  }
  char err[512];
  if (strataRtOutFileOpen(&o->file, path, err, sizeof err) != 0) {
    fprintf(stderr, "error: %s\n", err);
    return false;
  }
  o->f = o->file.f;
  return true;
}

bool toolOutputCommit(ToolOutput *o) {
  if (o->f == stdout) return fflush(stdout) == 0;
  char err[512];
  o->f = NULL;
  if (strataRtOutFileCommit(&o->file, err, sizeof err) != 0) {
    fprintf(stderr, "error: %s\n", err);
    return false;
  }
  return true;
}

void toolOutputAbort(ToolOutput *o) {
  if (o->f && o->f != stdout) strataRtOutFileAbort(&o->file);
  o->f = NULL;
}
