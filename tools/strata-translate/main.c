/* strata-translate: a model (.mlir at nn level or below, or .onnx) to code
 * written ahead of time by a target's emitter (strataEmit): for the host
 * CPU an object file, assembly or LLVM IR, plus a C header, so a compiled
 * model links into a C program with only libstrata_rt. */
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
          "Compiles every public function for a target (the CPU: its pipeline and LLVM).\n"
          "  --target NAME        the target (default cpu)\n"
          "  --emit=obj|asm|llvm  what to write (default: the target's first format; cpu: obj)\n"
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

/* The formats `def` writes, as "obj, asm, llvm". */
static void formatList(const StrataTargetDef *def, char *buf, size_t size) {
  snprintf(buf, size, "%s", def->emitFormats ? def->emitFormats : "");
  for (char *c = strchr(buf, ','); c && strlen(buf) + 1 < size; c = strchr(c + 2, ',')) {
    memmove(c + 2, c + 1, strlen(c + 1) + 1);
    c[1] = ' ';
  }
}

/* The target, its emitter and the format: false after an error message. */
static bool checkTarget(StrataContext *ctx, const char *name, const char *output,
                        const char *header, StrataEmitOptions *o) {
  const StrataTargetDef *def = strataContextLookupTarget(ctx, name);
  char list[512];
  if (!def) {
    strataContextFormatTargetNames(ctx, list, sizeof list);
    return fprintf(stderr, "error: unknown --target '%s' (registered: %s)\n", name, list), false;
  }
  if (!def->emit)
    return fprintf(stderr, "error: target '%s' writes no code ahead of time (it has no object "
                   "emitter)\n", name), false;
  formatList(def, list, sizeof list);
  if (o->format && !strataTargetHasFormat(def, o->format))
    return fprintf(stderr, "error: unknown --emit kind '%s' (%s)\n", o->format, list), false;
  size_t first = def->emitFormats ? strcspn(def->emitFormats, ",") : 0;
  bool object = o->format ? !strcmp(o->format, "obj") : first == 3 && !strncmp(def->emitFormats, "obj", 3);
  if (object && !strcmp(output, "-"))
    return fprintf(stderr, "error: an object file is not written to stdout; give -o FILE\n"), false;
  if (header && !def->emitHeader)
    return fprintf(stderr, "error: target '%s' writes no C header (--header)\n", name), false;
  return true;
}

int main(int argc, char **argv) {
  const char *input = NULL, *output = NULL, *header = NULL, *name = "model", *target = "cpu";
  StrataEmitOptions o = {.compile = {.fusion = STRATA_FUSION_FIXED, .optLevel = 3}};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool hasValue = i + 1 < argc;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(stdout), 0;
    if (!strcmp(a, "--version")) return printf("strata-translate %s (MLIR 22)\n", STRATA_VERSION), 0;
    if (!strncmp(a, "--emit=", 7)) o.format = a + 7;
    else if (!strcmp(a, "-o") && hasValue) output = argv[++i];
    else if (!strcmp(a, "--header") && hasValue) header = argv[++i];
    else if (!strcmp(a, "--name") && hasValue) name = argv[++i];
    else if (!strcmp(a, "--target") && hasValue) target = argv[++i];
    else if (!strcmp(a, "--mtriple") && hasValue) o.triple = argv[++i];
    else if (!strcmp(a, "--mcpu") && hasValue) o.cpu = argv[++i];
    else if (!strcmp(a, "--mattr") && hasValue) o.features = argv[++i];
    else if (!strcmp(a, "-O") && hasValue) {
      const char *v = argv[++i];
      if (strlen(v) != 1 || v[0] < '0' || v[0] > '3') return fprintf(stderr, "error: bad -O '%s' (0-3)\n", v), 1;
      o.compile.optLevel = v[0] - '0';
    } else if (a[0] == '-' && a[1]) return fprintf(stderr, "error: unknown or incomplete option '%s' (see --help)\n", a), 1;
    else if (input) return fprintf(stderr, "error: more than one model file\n"), 1;
    else input = a;
  }
  if (!input) return fprintf(stderr, "error: no model file given (see --help)\n"), 1;
  if (!output) return fprintf(stderr, "error: no output file given (-o)\n"), 1;
  if (!strataAotValidPrefix(name)) return fprintf(stderr, "error: --name '%s' is not a C identifier\n", name), 1;

  StrataContext *ctx = strataContextCreate();
  if (!ctx) return fprintf(stderr, "error: could not create the Strata context\n"), 1;
  if (!checkTarget(ctx, target, output, header, &o)) {
    strataContextDestroy(ctx);
    return 1;
  }
  const StrataTargetDef *def = strataContextLookupTarget(ctx, target);
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
  if (header && !(hdr = def->emitHeader(def, module, name, input))) {
    fprintf(stderr, "error: out of memory writing the header\n");
    goto done;
  }
  code = strataEmit(ctx, module, target, &o, &size);
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
