/* strata-import: ONNX model -> nn-dialect MLIR. */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strata/strata.h"
#include "tool_io.h"

static void usage(FILE *f) {
  fprintf(f, "usage: strata-import model.onnx [-o out.mlir] [--emit-bytecode] [--entry NAME]\n"
             "\n"
             "Imports an ONNX model (opsets %d-%d) into the nn dialect: one function whose\n"
             "arguments are the graph inputs. Large initializers become MLIR resources.\n"
             "Unsupported or malformed input is an error naming the node and exits 1.\n",
          STRATA_ONNX_MIN_OPSET, STRATA_ONNX_MAX_OPSET);
}

static void collect(MlirStringRef s, void *user) {
  FILE *f = user;
  fwrite(s.data, 1, s.length, f);
}

int main(int argc, char **argv) {
  const char *input = NULL, *output = "-";
  StrataOnnxOptions opts = {0};
  bool bytecode = false;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return usage(stdout), 0;
    if (!strcmp(argv[i], "--version")) return printf("strata-import %s (MLIR 22)\n", STRATA_VERSION), 0;
    if (!strcmp(argv[i], "-o") && i + 1 < argc) output = argv[++i];
    else if (!strcmp(argv[i], "--entry") && i + 1 < argc) opts.entryName = argv[++i];
    else if (!strcmp(argv[i], "--emit-bytecode")) bytecode = true;
    else if (argv[i][0] == '-' && argv[i][1]) return fprintf(stderr, "error: unknown option '%s' (see --help)\n", argv[i]), 1;
    else if (input) return fprintf(stderr, "error: more than one model file\n"), 1;
    else input = argv[i];
  }
  if (!input) return fprintf(stderr, "error: no model file given (see --help)\n"), 1;
  StrataContext *ctx = strataContextCreate();
  if (!ctx) return 1;
  MlirModule m = strataImportOnnxFile(ctx, input, &opts);
  bool ok = !mlirModuleIsNull(m) && mlirLogicalResultIsSuccess(strataVerify(ctx, mlirModuleGetOperation(m)));
  if (ok) {
    ToolOutput out;
    ok = toolOutputOpen(&out, output);
    if (ok) {
      if (bytecode) mlirOperationWriteBytecode(mlirModuleGetOperation(m), collect, out.f);
      else {
        mlirOperationPrint(mlirModuleGetOperation(m), collect, out.f);
        fputc('\n', out.f);
      }
      ok = toolOutputCommit(&out);
    }
  }
  if (!mlirModuleIsNull(m)) mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  return ok ? 0 : 1;
}
