#include "tool_io.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *toolReadFile(const char *path, size_t *len) {
  FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
  if (!f) {
    fprintf(stderr, "error: cannot open '%s'\n", path);
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  while (buf) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n < cap) break;
    cap *= 2;
    char *grown = realloc(buf, cap + 1);
    if (!grown) {
      free(buf);
      buf = NULL;
    }
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
  o->path = strdup(path);
  size_t n = strlen(path) + 16;
  o->tmp = malloc(n);
  if (!o->path || !o->tmp) return false;
  snprintf(o->tmp, n, "%s.tmpXXXXXX", path);
  int fd = mkstemp(o->tmp);
  if (fd < 0 || !(o->f = fdopen(fd, "wb"))) {
    fprintf(stderr, "error: cannot write '%s'\n", path);
    if (fd >= 0) close(fd), unlink(o->tmp);
    free(o->path);
    free(o->tmp);
    o->path = o->tmp = NULL;
    return false;
  }
  return true;
}

bool toolOutputCommit(ToolOutput *o) {
  if (o->f == stdout) return fflush(stdout) == 0;
  bool ok = !ferror(o->f);
  ok = fclose(o->f) == 0 && ok;
  if (ok) ok = rename(o->tmp, o->path) == 0;
  if (!ok) {
    unlink(o->tmp);
    fprintf(stderr, "error: cannot write '%s'\n", o->path);
  }
  free(o->path);
  free(o->tmp);
  o->f = NULL;
  return ok;
}

void toolOutputAbort(ToolOutput *o) {
  if (o->f && o->f != stdout) {
    fclose(o->f);
    unlink(o->tmp);
  }
  free(o->path);
  free(o->tmp);
  o->f = NULL;
}
