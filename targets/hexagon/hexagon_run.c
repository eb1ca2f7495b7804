/* Running Hexagon code: a freestanding runner (LLVM dialect, generated
 * here) whose `_start` builds a memref descriptor per input and output over
 * buffers in its data section (the inputs' bytes embedded), calls the
 * function's C interface, writes each output's bytes to stdout with the
 * Linux write syscall and exits, both through trap0(#1) (r6 = 64, 93); it
 * also defines the memset/memcpy/memmove that LLVM's code may call. It is
 * compiled like the model, linked with it by ld.lld into a static
 * executable and run under qemu-hexagon; stdout goes to a file the host
 * reads back. Everything lives in a fresh temporary directory, removed
 * afterwards. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, open_memstream */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "mlir-c/BuiltinAttributes.h"
#include "strata/support.h"
#include "hexagon_internal.h"

extern char **environ;

bool hexagonFindProgram(const char *name, char *buf, size_t size) {
  const char *path = getenv("PATH");
  if (!path || !*path) path = "/usr/bin:/bin";
  while (*path) {
    const char *end = strchr(path, ':');
    size_t len = end ? (size_t)(end - path) : strlen(path);
    if (len && snprintf(buf, size, "%.*s/%s", (int)len, path, name) < (int)size && access(buf, X_OK) == 0)
      return true;
    path += len + (end ? 1 : 0);
  }
  return false;
}

/* The descriptor type of a rank-`rank` memref. */
static void descType(FILE *f, int rank) {
  if (rank) fprintf(f, "!llvm.struct<(ptr, ptr, i64, array<%d x i64>, array<%d x i64>)>", rank, rank);
  else fprintf(f, "!llvm.struct<(ptr, ptr, i64)>");
}

/* %d<k>: a descriptor on the stack for buffer @b<k> with t's shape. */
static void descriptor(FILE *f, size_t k, const StrataTensor *t) {
  fprintf(f, "    %%b%zu = llvm.mlir.addressof @b%zu : !llvm.ptr\n", k, k);
  fprintf(f, "    %%d%zu = llvm.alloca %%one x ", k), descType(f, t->rank), fprintf(f, " : (i32) -> !llvm.ptr\n");
  fprintf(f, "    %%s%zu_0 = llvm.mlir.undef : ", k), descType(f, t->rank), fputc('\n', f);
  int step = 0;
#define INSERT(value, pos)                                                                             \
  do {                                                                                                 \
    fprintf(f, "    %%s%zu_%d = llvm.insertvalue %s, %%s%zu_%d%s : ", k, step + 1, value, k, step, pos); \
    descType(f, t->rank), fputc('\n', f), step++;                                                      \
  } while (0)
  char value[64], pos[32];
  snprintf(value, sizeof value, "%%b%zu", k);
  INSERT(value, "[0]");
  INSERT(value, "[1]");
  INSERT("%zero64", "[2]");
  int64_t stride = 1;
  for (int j = t->rank - 1; j >= 0; j--) {
    snprintf(value, sizeof value, "%%c%zu_%d", k, j);
    fprintf(f, "    %s = llvm.mlir.constant(%lld : i64) : i64\n", value, (long long)t->dims[j]);
    snprintf(pos, sizeof pos, "[3, %d]", j);
    INSERT(value, pos);
    snprintf(value, sizeof value, "%%t%zu_%d", k, j);
    fprintf(f, "    %s = llvm.mlir.constant(%lld : i64) : i64\n", value, (long long)stride);
    snprintf(pos, sizeof pos, "[4, %d]", j);
    INSERT(value, pos);
    stride *= t->dims[j];
  }
#undef INSERT
  fprintf(f, "    llvm.store %%s%zu_%d, %%d%zu : ", k, step, k), descType(f, t->rank), fprintf(f, ", !llvm.ptr\n");
}

/* memset, memcpy and memmove, which LLVM calls for fills and copies (of
 * constants, of buffers returned through out-parameters): there is no libc
 * to link. Byte loops with volatile accesses, so that LLVM does not turn
 * them back into calls of themselves. Hexagon's size_t is 32 bits. */
static const char kMemFunctions[] =
    "  llvm.func @memset(%p: !llvm.ptr, %v: i32, %n: i32) -> !llvm.ptr {\n"
    "    %z = llvm.mlir.constant(0 : i32) : i32\n"
    "    %o = llvm.mlir.constant(1 : i32) : i32\n"
    "    %b = llvm.trunc %v : i32 to i8\n"
    "    llvm.br ^h(%z : i32)\n"
    "  ^h(%i: i32):\n"
    "    %c = llvm.icmp \"ult\" %i, %n : i32\n"
    "    llvm.cond_br %c, ^s, ^e\n"
    "  ^s:\n"
    "    %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i32) -> !llvm.ptr, i8\n"
    "    llvm.store volatile %b, %q : i8, !llvm.ptr\n"
    "    %j = llvm.add %i, %o : i32\n"
    "    llvm.br ^h(%j : i32)\n"
    "  ^e:\n"
    "    llvm.return %p : !llvm.ptr\n"
    "  }\n"
    /* memmove: forwards when the destination is below the source, else
     * backwards; memcpy is memmove. */
    "  llvm.func @memmove(%d: !llvm.ptr, %s: !llvm.ptr, %n: i32) -> !llvm.ptr {\n"
    "    %z = llvm.mlir.constant(0 : i32) : i32\n"
    "    %o = llvm.mlir.constant(1 : i32) : i32\n"
    "    %di = llvm.ptrtoint %d : !llvm.ptr to i32\n"
    "    %si = llvm.ptrtoint %s : !llvm.ptr to i32\n"
    "    %fw = llvm.icmp \"ult\" %di, %si : i32\n"
    "    llvm.cond_br %fw, ^f(%z : i32), ^b(%n : i32)\n"
    "  ^f(%i: i32):\n"
    "    %c = llvm.icmp \"ult\" %i, %n : i32\n"
    "    llvm.cond_br %c, ^fs, ^e\n"
    "  ^fs:\n"
    "    %fp = llvm.getelementptr %s[%i] : (!llvm.ptr, i32) -> !llvm.ptr, i8\n"
    "    %fq = llvm.getelementptr %d[%i] : (!llvm.ptr, i32) -> !llvm.ptr, i8\n"
    "    %fv = llvm.load volatile %fp : !llvm.ptr -> i8\n"
    "    llvm.store volatile %fv, %fq : i8, !llvm.ptr\n"
    "    %j = llvm.add %i, %o : i32\n"
    "    llvm.br ^f(%j : i32)\n"
    "  ^b(%k: i32):\n"
    "    %bc = llvm.icmp \"ugt\" %k, %z : i32\n"
    "    llvm.cond_br %bc, ^bs, ^e\n"
    "  ^bs:\n"
    "    %l = llvm.sub %k, %o : i32\n"
    "    %bp = llvm.getelementptr %s[%l] : (!llvm.ptr, i32) -> !llvm.ptr, i8\n"
    "    %bq = llvm.getelementptr %d[%l] : (!llvm.ptr, i32) -> !llvm.ptr, i8\n"
    "    %bv = llvm.load volatile %bp : !llvm.ptr -> i8\n"
    "    llvm.store volatile %bv, %bq : i8, !llvm.ptr\n"
    "    llvm.br ^b(%l : i32)\n"
    "  ^e:\n"
    "    llvm.return %d : !llvm.ptr\n"
    "  }\n"
    "  llvm.func @memcpy(%d: !llvm.ptr, %s: !llvm.ptr, %n: i32) -> !llvm.ptr {\n"
    "    %r = llvm.call @memmove(%d, %s, %n) : (!llvm.ptr, !llvm.ptr, i32) -> !llvm.ptr\n"
    "    llvm.return %r : !llvm.ptr\n"
    "  }\n";

/* The runner's LLVM-dialect text (malloc'ed), NULL if out of memory. */
static char *runnerText(const char *name, StrataTensor *const *inputs, size_t numInputs,
                        StrataTensor *const *outputs, size_t numOutputs) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return NULL;
  size_t n = numInputs + numOutputs;
  fprintf(f, "module {\n%s", kMemFunctions);
  for (size_t k = 0; k < n; k++) {
    const StrataTensor *t = k < numInputs ? inputs[k] : outputs[k - numInputs];
    size_t bytes = strataTensorNumBytes(t), room = bytes ? bytes : 1;
    fprintf(f, "  llvm.mlir.global private @b%zu(", k);
    if (k < numInputs && bytes) {
      fputc('"', f);
      for (size_t i = 0; i < bytes; i++) fprintf(f, "\\%02X", ((const unsigned char *)t->data)[i]);
      fputc('"', f);
    } else {
      fprintf(f, "dense<0> : tensor<%zuxi8>", room);
    }
    fprintf(f, ") {alignment = 128 : i64} : !llvm.array<%zu x i8>\n", room);
  }
  fprintf(f, "  llvm.func @\"_mlir_ciface_%s\"(", name);
  for (size_t k = 0; k < n; k++) fprintf(f, "%s!llvm.ptr", k ? ", " : "");
  fprintf(f, ")\n  llvm.func @_start() {\n"
             "    %%one = llvm.mlir.constant(1 : i32) : i32\n"
             "    %%zero = llvm.mlir.constant(0 : i32) : i32\n"
             "    %%zero64 = llvm.mlir.constant(0 : i64) : i64\n"
             "    %%write = llvm.mlir.constant(64 : i32) : i32\n"
             "    %%exit = llvm.mlir.constant(93 : i32) : i32\n");
  for (size_t k = 0; k < n; k++) descriptor(f, k, k < numInputs ? inputs[k] : outputs[k - numInputs]);
  fprintf(f, "    llvm.call @\"_mlir_ciface_%s\"(", name);
  for (size_t k = 0; k < n; k++) fprintf(f, "%s%%d%zu", k ? ", " : "", k);
  fprintf(f, ") : (");
  for (size_t k = 0; k < n; k++) fprintf(f, "%s!llvm.ptr", k ? ", " : "");
  fprintf(f, ") -> ()\n");
  for (size_t k = numInputs; k < n; k++) {
    fprintf(f, "    %%n%zu = llvm.mlir.constant(%zu : i32) : i32\n", k, strataTensorNumBytes(outputs[k - numInputs]));
    fprintf(f, "    %%w%zu = llvm.inline_asm has_side_effects \"trap0(#1)\", \"={r0},{r0},{r1},{r2},{r6},~{memory}\" "
               "%%one, %%b%zu, %%n%zu, %%write : (i32, !llvm.ptr, i32, i32) -> i32\n", k, k, k);
  }
  fprintf(f, "    %%x = llvm.inline_asm has_side_effects \"trap0(#1)\", \"={r0},{r0},{r6}\" %%zero, %%exit "
             ": (i32, i32) -> i32\n    llvm.unreachable\n  }\n}\n");
  if (fclose(f) != 0) {
    free(text);
    return NULL;
  }
  return text;
}

static bool writeFile(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  bool ok = fwrite(data, 1, size, f) == size;
  return fclose(f) == 0 && ok;
}

/* The file's bytes (malloc'ed, at least 1), count in *size; NULL if unreadable. */
static char *readFile(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *data = NULL;
  size_t cap = 0, len = 0;
  bool ok = true;
  for (;;) {
    if (len == cap) {
      char *grown = realloc(data, cap = cap ? 2 * cap : 65536);
      if (!grown) {
        ok = false;
        break;
      }
      data = grown;
    }
    size_t got = fread(data + len, 1, cap - len, f);
    len += got;
    if (!got) break;
  }
  ok = ok && !ferror(f);
  fclose(f);
  if (!ok) {
    free(data);
    return NULL;
  }
  *size = len;
  return data;
}

/* Runs argv with stdout and stderr to files; its exit status, or -1 with
 * the reason in err if it could not be started or did not exit. */
static int spawn(char *const argv[], const char *outPath, const char *errPath, char *err, size_t errSize) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&fa, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc) {
    snprintf(err, errSize, "cannot start %s: %s", argv[0], strerror(rc));
    return -1;
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      snprintf(err, errSize, "waiting for %s: %s", argv[0], strerror(errno));
      return -1;
    }
  if (!WIFEXITED(status)) {
    snprintf(err, errSize, "%s was killed by signal %d", argv[0], WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return -1;
  }
  return WEXITSTATUS(status);
}

/* "<what> failed (status N): <first lines of its stderr>" into err. */
static void failedWith(const char *what, int status, const char *errPath, char *err, size_t errSize) {
  size_t n = 0;
  char *log = readFile(errPath, &n);
  snprintf(err, errSize, "%s failed (status %d): %.*s", what, status, (int)(n > 600 ? 600 : n), log ? log : "");
  free(log);
}

bool hexagonRun(MlirContext ctx, const char *object, size_t objectSize, const char *name,
                StrataTensor *const *inputs, size_t numInputs, StrataTensor *const *outputs, size_t numOutputs,
                int optLevel, char *err, size_t errSize) {
  char lld[512], qemu[512];
  if (!hexagonFindProgram("qemu-hexagon", qemu, sizeof qemu)) {
    snprintf(err, errSize, "qemu-hexagon is not installed (package qemu-user; scripts/bootstrap installs it)");
    return false;
  }
  if (!hexagonFindProgram("ld.lld-22", lld, sizeof lld) && !hexagonFindProgram("ld.lld", lld, sizeof lld)) {
    snprintf(err, errSize, "no ld.lld-22 or ld.lld on PATH (package lld-22)");
    return false;
  }
  char *text = runnerText(name, inputs, numInputs, outputs, numOutputs);
  if (!text) {
    snprintf(err, errSize, "out of memory");
    return false;
  }
  MlirModule runner = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  free(text);
  if (mlirModuleIsNull(runner)) {
    snprintf(err, errSize, "the runner's generated IR did not parse (see the diagnostics above)");
    return false;
  }
  size_t runnerSize = 0;
  char *runnerObject = hexagonEmit(runner, STRATA_AOT_OBJECT, optLevel, &runnerSize);
  mlirModuleDestroy(runner);
  if (!runnerObject) {
    snprintf(err, errSize, "the runner did not compile (see the diagnostics above)");
    return false;
  }
  const char *tmp = getenv("TMPDIR");
  char dir[512], kernelPath[600], runnerPath[600], exePath[600], outPath[600], errPath[600];
  snprintf(dir, sizeof dir, "%s/strata-hexagon-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  bool ok = false;
  if (!mkdtemp(dir)) {
    snprintf(err, errSize, "cannot create a temporary directory: %s", strerror(errno));
    free(runnerObject);
    return false;
  }
  snprintf(kernelPath, sizeof kernelPath, "%s/kernel.o", dir);
  snprintf(runnerPath, sizeof runnerPath, "%s/runner.o", dir);
  snprintf(exePath, sizeof exePath, "%s/run", dir);
  snprintf(outPath, sizeof outPath, "%s/out", dir);
  snprintf(errPath, sizeof errPath, "%s/err", dir);
  if (!writeFile(kernelPath, object, objectSize) || !writeFile(runnerPath, runnerObject, runnerSize)) {
    snprintf(err, errSize, "cannot write the objects into %s", dir);
    goto done;
  }
  char *link[] = {lld, "-static", "-o", exePath, runnerPath, kernelPath, NULL};
  int status = spawn(link, outPath, errPath, err, errSize);
  if (status) {
    if (status > 0) failedWith("linking with ld.lld", status, errPath, err, errSize);
    goto done;
  }
  char *run[] = {qemu, exePath, NULL};
  status = spawn(run, outPath, errPath, err, errSize);
  if (status) {
    if (status > 0) failedWith("the program under qemu-hexagon", status, errPath, err, errSize);
    goto done;
  }
  size_t got = 0, want = 0;
  char *bytes = readFile(outPath, &got);
  for (size_t i = 0; i < numOutputs; i++) want += strataTensorNumBytes(outputs[i]);
  if (!bytes || got != want) {
    snprintf(err, errSize, "the program under qemu-hexagon wrote %zu bytes of output, %zu expected", got, want);
  } else {
    for (size_t i = 0, at = 0; i < numOutputs; at += strataTensorNumBytes(outputs[i]), i++)
      memcpy(outputs[i]->data, bytes + at, strataTensorNumBytes(outputs[i]));
    ok = true;
  }
  free(bytes);
done:
  unlink(kernelPath), unlink(runnerPath), unlink(exePath), unlink(outPath), unlink(errPath);
  rmdir(dir);
  free(runnerObject);
  return ok;
}
