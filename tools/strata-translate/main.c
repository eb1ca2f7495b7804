/* strata-translate: a model (.mlir at nn level or below, or .onnx) to an
 * object file, assembly or LLVM IR for the host CPU, plus a C header, so a
 * compiled model links into a C program with only libstrata_rt. */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strata/strata.h"
#include "tool_io.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: strata-translate model.mlir|model.onnx -o OUT [options]\n"
          "\n"
          "Compiles every public function through the CPU pipeline and LLVM.\n"
          "  --emit=obj|asm|llvm  what to write (default obj)\n"
          "  -o FILE              output ('-' = stdout, not for obj)\n"
          "  --header FILE        also write a C header: prototypes, shapes and\n"
          "                       inline wrappers over dense buffers\n"
          "  --name PREFIX        public function f becomes PREFIX_f (default 'model')\n"
          "  -O N                 LLVM optimization level 0-3 (default 3)\n"
          "  --mtriple T          target triple (default: the host's)\n"
          "  --mcpu CPU           target CPU (default: the host's)\n"
          "  --mattr FEATURES     target features, e.g. +avx2,-avx512f (default: the\n"
          "                       host's; none with an explicit --mcpu)\n"
          "Link the object with libstrata_rt.a -lm -lpthread.\n");
}

static bool writeFile(const char *path, const char *data, size_t len) {
  ToolOutput out;
  if (!toolOutputOpen(&out, path)) return false;
  if (len && fwrite(data, 1, len, out.f) != len) {
    toolOutputAbort(&out);
    return false;
  }
  return toolOutputCommit(&out);
}

int main(int argc, char **argv) {
  const char *input = NULL, *output = NULL, *header = NULL, *name = "model";
  StrataAotOptions o = {STRATA_AOT_OBJECT, 3, NULL, NULL, NULL};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool hasValue = i + 1 < argc;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(stdout), 0;
    if (!strcmp(a, "--version")) return printf("strata-translate %s (MLIR 22)\n", STRATA_VERSION), 0;
    if (!strcmp(a, "--emit=obj")) o.kind = STRATA_AOT_OBJECT;
    else if (!strcmp(a, "--emit=asm")) o.kind = STRATA_AOT_ASM;
    else if (!strcmp(a, "--emit=llvm")) o.kind = STRATA_AOT_LLVM_IR;
    else if (!strncmp(a, "--emit=", 7)) return fprintf(stderr, "error: unknown --emit kind '%s' (obj, asm, llvm)\n", a + 7), 1;
    else if (!strcmp(a, "-o") && hasValue) output = argv[++i];
    else if (!strcmp(a, "--header") && hasValue) header = argv[++i];
    else if (!strcmp(a, "--name") && hasValue) name = argv[++i];
    else if (!strcmp(a, "--mtriple") && hasValue) o.triple = argv[++i];
    else if (!strcmp(a, "--mcpu") && hasValue) o.cpu = argv[++i];
    else if (!strcmp(a, "--mattr") && hasValue) o.features = argv[++i];
    else if (!strcmp(a, "-O") && hasValue) {
      const char *v = argv[++i];
      if (strlen(v) != 1 || v[0] < '0' || v[0] > '3') return fprintf(stderr, "error: bad -O '%s' (0-3)\n", v), 1;
      o.optLevel = v[0] - '0';
    } else if (a[0] == '-' && a[1]) return fprintf(stderr, "error: unknown or incomplete option '%s' (see --help)\n", a), 1;
    else if (input) return fprintf(stderr, "error: more than one model file\n"), 1;
    else input = a;
  }
  if (!input) return fprintf(stderr, "error: no model file given (see --help)\n"), 1;
  if (!output) return fprintf(stderr, "error: no output file given (-o)\n"), 1;
  if (o.kind == STRATA_AOT_OBJECT && !strcmp(output, "-"))
    return fprintf(stderr, "error: an object file is not written to stdout; give -o FILE\n"), 1;
  if (!strataAotValidPrefix(name)) return fprintf(stderr, "error: --name '%s' is not a C identifier\n", name), 1;

  StrataContext *ctx = strataContextCreate();
  if (!ctx) return fprintf(stderr, "error: could not create the Strata context\n"), 1;
  bool ok = false;
  size_t len, size = 0;
  char *text = toolReadFile(input, &len), *code = NULL, *hdr = NULL;
  MlirModule module = {NULL};
  if (!text) goto done;
  if (strataLooksLikeOnnx(input, text, len)) {
    char *dirCopy = strdup(input);
    module = strataImportOnnx(ctx, text, len, input, dirCopy ? dirname(dirCopy) : ".", NULL);
    free(dirCopy);
  } else {
    module = strataParseModule(ctx, mlirStringRefCreate(text, len), input);
  }
  if (mlirModuleIsNull(module) || mlirLogicalResultIsFailure(strataVerify(ctx, mlirModuleGetOperation(module))))
    goto done;
  if (mlirLogicalResultIsFailure(strataAotPrefixSymbols(module, name))) {
    fprintf(stderr, "%s: error: could not rename the public functions with prefix '%s'\n", input, name);
    goto done;
  }
  if (header && !(hdr = strataAotHeader(module, name, input))) {
    fprintf(stderr, "error: out of memory writing the header\n");
    goto done;
  }
  code = strataAotCompile(ctx, module, &o, &size);
  if (!code) goto done;
  ok = writeFile(output, code, size) && (!header || writeFile(header, hdr, strlen(hdr)));
done:
  free(code);
  free(hdr);
  free(text);
  if (!mlirModuleIsNull(module)) mlirModuleDestroy(module);
  strataContextDestroy(ctx);
  return ok ? 0 : 1;
}
