/* strata-run's use of the model cache (strataExecutableLoad/Store): a run
 * that only needs the compiled code looks the model up by its file's bytes
 * and the options that shape the code (Options.codeArgs), and on a hit
 * neither imports, lowers nor compiles it. */
#define _DEFAULT_SOURCE /* madvise */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "run.h"
#include "tool_io.h"
#include "tool_time.h"

/* The model's bytes: an ONNX file mapped (megabytes of weights are neither
 * copied nor zero-filled first), anything else read into memory with a
 * NUL after it, as the MLIR parser wants. */
static bool readModel(RunState *r, const Options *o) {
  int fd = strcmp(o->file, "-") ? open(o->file, O_RDONLY | O_CLOEXEC) : -1;
  struct stat st;
  if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m != MAP_FAILED && strataLooksLikeOnnx(o->file, m, (size_t)st.st_size)) {
      close(fd);
      r->text = m, r->textLen = (size_t)st.st_size, r->mapped = true;
      return true;
    }
    if (m != MAP_FAILED) munmap(m, (size_t)st.st_size);
  }
  if (fd >= 0) close(fd);
  return (r->text = toolReadFile(o->file, &r->textLen)) != NULL;
}

/* Runs whose every output comes from the compiled code alone. */
static bool eligible(const Options *o) {
  return o->cacheDir && o->mode == MODE_JIT && !o->shapesFile && !o->debugNumerics && !o->instrument &&
         !o->traceOut && !o->sparse.report && !o->codeArgsOverflow;
}

/* The model's key: its bytes in slices, each hashed with the key so far,
 * then the options. A slice of a mapped file is given back to the kernel
 * once hashed: the model never counts whole in the process's memory (a
 * miss reads it again from the page cache). */
static bool modelKey(RunState *r, const Options *o) {
  enum { kSlice = 8 << 20 };
  char key[33] = "";
  for (size_t at = 0;; at += kSlice) {
    size_t n = r->textLen - at < kSlice ? r->textLen - at : kSlice;
    bool last = at + n == r->textLen;
    const void *parts[3] = {key, r->text + at, o->codeArgs};
    size_t sizes[3] = {strlen(key), n, last ? o->codeArgsLen : 0};
    if (!strataExecutableCacheKey(r->ctx, o->target, parts, sizes, 3, key)) return false;
    if (r->mapped) madvise(r->text + at, n, MADV_DONTNEED); /* at: a multiple of the page size */
    if (last) break;
  }
  memcpy(r->cacheKey, key, sizeof key);
  return true;
}

bool loadCached(RunState *r, const Options *o, bool *hit) {
  *hit = false;
  if (!readModel(r, o)) return false;
  double t0 = toolNowMs();
  r->cacheable = eligible(o) && modelKey(r, o);
  if (!r->cacheable) return true;
  MlirModule entry;
  StrataExecutable *exe = strataExecutableLoad(r->ctx, o->target, o->cacheDir, r->cacheKey, &entry);
  if (!exe) return true;
  r->exe = exe, r->module = entry, r->loadMs = toolNowMs() - t0;
  r->func = mlirBlockGetFirstOperation(mlirModuleGetBody(entry));
  *hit = true;
  return describeEntry(r, o);
}

void storeCached(RunState *r, const Options *o) {
  char why[512];
  if (r->cacheable && !strataExecutableStore(r->exe, o->cacheDir, r->cacheKey, r->func, why, sizeof why) && *why)
    fprintf(stderr, "warning: the model cache '%s' cannot be written (%s): the next run compiles again\n",
            o->cacheDir, why);
}
