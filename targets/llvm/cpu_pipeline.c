/* --strata-cpu-pipeline: nn (cleaned up and with shape computations folded
 * by nn-fold) -> linalg -> bufferized loops -> LLVM dialect,
 * and --strata-emit-c-interface, which it uses. */
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/Func.h"
#include "strata/pass.h"
#include "strata/target_llvm.h"

/* The pipeline after the kernel selection: bufferization, the arena, loops,
 * LLVM. `KERNELS` and `ARENA` are spliced in by the two variants. */
#define CPU_PIPELINE(KERNELS, ARENA)                                              \
  "func.func(nn-fold)," KERNELS "func.func(nn-to-linalg),"                        \
  "strata-emit-c-interface,"                                                      \
  "one-shot-bufferize{bufferize-function-boundaries "                             \
  "function-boundary-type-conversion=identity-layout-map},"                       \
  "buffer-results-to-out-params{hoist-static-allocs modify-public-functions},"    \
  "buffer-deallocation-pipeline,"                                                 \
  "convert-bufferization-to-memref," ARENA                                        \
  "func.func(convert-linalg-to-loops),"                                           \
  "lower-affine,"                                                                 \
  "convert-scf-to-cf,"                                                            \
  "expand-strided-metadata,"                                                      \
  "lower-affine,"                                                                 \
  "finalize-memref-to-llvm,"                                                      \
  "func.func(math-extend-to-supported-types),"                                    \
  "convert-math-to-libm,"                                                         \
  "convert-math-to-llvm,"                                                         \
  "convert-arith-to-llvm,"                                                        \
  "convert-cf-to-llvm,"                                                           \
  "convert-func-to-llvm,"                                                         \
  "convert-index-to-llvm,"                                                        \
  "reconcile-unrealized-casts"

static const char kCpuPipeline[] = CPU_PIPELINE("nn-to-kernels,", "strata-buffer-arena,");
/* Every op through nn-to-linalg and upstream MLIR's default lowering of
 * linalg (loops), no runtime kernels, no arena: the baseline bench/ compares
 * against. */
static const char kCpuPipelineUpstream[] = CPU_PIPELINE("", "");

const char *strataCpuPipelineUpstream(void) { return kCpuPipelineUpstream; }

const char *strataCpuPipeline(void) { return kCpuPipeline; }

const StrataPassDef strataCpuPipelineUpstreamPass = {
    .name = "strata-cpu-pipeline-upstream",
    .summary = "strata-cpu-pipeline without runtime kernels or the buffer arena (baseline)",
    .pipeline = kCpuPipelineUpstream,
};

const StrataPassDef strataCpuPipelinePass = {
    .name = "strata-cpu-pipeline",
    .summary = "Lower nn to the LLVM dialect for the host CPU (out-param results, C interface)",
    .pipeline = kCpuPipeline,
};

/* Marks public functions with `llvm.emit_c_interface` so the LLVM lowering
 * emits `_mlir_ciface_<name>` wrappers taking memref descriptors by pointer,
 * and their arguments read-only for bufferization (callers own them). */
static void runEmitCInterface(StrataPassRun *run, MlirOperation module) {
  (void)run;
  MlirContext ctx = mlirOperationGetContext(module);
  MlirRegion region = mlirOperationGetRegion(module, 0);
  MlirOperation op = mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(region));
  for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
    if (name.length != 9 || strncmp(name.data, "func.func", 9)) continue;
    MlirAttribute vis =
        mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_visibility"));
    if (!mlirAttributeIsNull(vis)) continue; /* private or nested: internal only */
    if (mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)))) continue;
    mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString("llvm.emit_c_interface"),
                                    mlirUnitAttrGet(ctx));
    /* Callers own their inputs: bufferization must not write into them. */
    MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
    for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); i++)
      mlirFuncSetArgAttr(op, i, mlirStringRefCreateFromCString("bufferization.writable"),
                         mlirBoolAttrGet(ctx, 0));
  }
}

const StrataPassDef strataEmitCInterfacePass = {
    .name = "strata-emit-c-interface",
    .summary = "Give public functions a C interface (_mlir_ciface_<name>) for JIT and AOT callers",
    .anchor = "builtin.module",
    .run = runEmitCInterface,
};
