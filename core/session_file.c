/* strataSessionCreateFromFile: a session of a model file, served from the
 * model cache when the same file was opened with the same options before.
 * It imports ONNX, so it sits in the registry layer (above the frontends),
 * beside core/registry.c. */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

StrataSession *strataSessionCreateFromFile(StrataContext *ctx, const char *path, const StrataSessionOptions *options) {
  StrataSessionOptions o = options ? *options : (StrataSessionOptions){.compile = {.optLevel = 2}};
  MlirLocation loc = mlirLocationFileLineColGet(strataContextGetMlir(ctx), mlirStringRefCreateFromCString(path), 0, 0);
  size_t size = 0;
  bool mapped;
  char why[4200];
  char *bytes = strataModelBytesRead(path, &size, &mapped, why, sizeof why);
  if (!bytes) {
    strataEmitError(loc, "%s", why);
    return NULL;
  }
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
  strataModelBytesRelease(bytes, size, mapped);
  return s;
}
