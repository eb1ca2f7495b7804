/* strataSessionCreateFromFile: a session of a model file, served from the
 * model cache when the same file was opened with the same options before.
 * It imports ONNX, so it sits in the registry layer (above the frontends),
 * beside core/registry.c. */
#define _DEFAULT_SOURCE /* madvise */
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"
#include "strata/onnx.h"
#include "strata/session.h"

/* Every field of the options, as the key's text (NULLs distinct from ""). */
static void describe(StrataStr *t, const StrataSessionOptions *o) {
  const char *texts[] = {o->entry, o->target, o->passes, o->compile.pipeline, o->compile.fuseProfile,
                         o->compile.fuseProfileDb, o->compile.device};
  strataStrAppendf(t, "session fusion=%d O%d", (int)o->compile.fusion, o->compile.optLevel);
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
    if (texts[i]) strataStrAppendf(t, " %zu='%s'", i, texts[i]);
    else strataStrAppendf(t, " %zu=null", i);
}

/* The file's bytes, mapped (read-only) when it is a regular file. */
static char *readBytes(const char *path, size_t *size, bool *mapped, MlirLocation loc) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  *mapped = false;
  if (fd < 0 || fstat(fd, &st) != 0) {
    if (fd >= 0) close(fd);
    strataEmitError(loc, "cannot open '%s'", path);
    return NULL;
  }
  char *data = NULL;
  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (data == MAP_FAILED) data = NULL;
    else *mapped = true, *size = (size_t)st.st_size;
  }
  if (!data) { /* not a regular file: read what it gives */
    size_t cap = 1 << 16, n = 0;
    data = malloc(cap);
    for (ssize_t got = 1; data && got > 0;) {
      if (n == cap) {
        char *grown = realloc(data, cap *= 2);
        if (!grown) free(data);
        data = grown;
        if (!data) break;
      }
      got = read(fd, data + n, cap - n);
      if (got < 0) free(data), data = NULL;
      else n += (size_t)got;
    }
    *size = n;
  }
  close(fd);
  if (!data) strataEmitError(loc, "cannot read '%s'", path);
  return data;
}

StrataSession *strataSessionCreateFromFile(StrataContext *ctx, const char *path, const StrataSessionOptions *options) {
  StrataSessionOptions o = options ? *options : (StrataSessionOptions){.compile = {.optLevel = 2}};
  MlirLocation loc = mlirLocationFileLineColGet(strataContextGetMlir(ctx), mlirStringRefCreateFromCString(path), 0, 0);
  size_t size = 0;
  bool mapped;
  char *bytes = readBytes(path, &size, &mapped, loc);
  if (!bytes) return NULL;
  const char *target = o.target ? o.target : "cpu";
  bool interpreted = !strcmp(target, "interpreter");
  StrataStr text = {0};
  describe(&text, &o);
  char key[33];
  bool cacheable = o.compile.cacheDir && !interpreted && text.data &&
                   strataExecutableCacheKeyOfModel(ctx, target, bytes, size, mapped, text.data, text.len, key);
  strataStrFree(&text);
  StrataSession *s = NULL;
  MlirModule decl;
  StrataExecutable *exe = cacheable ? strataExecutableLoad(ctx, target, o.compile.cacheDir, key, &decl) : NULL;
  if (exe) {
    s = strataSessionAdopt(ctx, decl, exe);
  } else {
    MlirModule m;
    if (strataLooksLikeOnnx(path, bytes, size)) {
      char *dirCopy = strdup(path);
      int external = 0;
      StrataOnnxOptions onnx = {.entryName = NULL, .externalTensors = &external};
      m = dirCopy ? strataImportOnnx(ctx, bytes, size, path, dirname(dirCopy), &onnx) : (MlirModule){NULL};
      free(dirCopy);
      if (external) cacheable = false; /* the key does not cover those weights */
    } else {
      m = strataParseModule(ctx, mlirStringRefCreate(bytes, size), path);
    }
    s = strataSessionCreate(ctx, m, &o); /* takes m; a null one gives NULL */
    if (s && cacheable) strataSessionStoreAfterFirstCall(s, o.compile.cacheDir, key);
  }
  if (mapped) munmap(bytes, size);
  else free(bytes);
  return s;
}
