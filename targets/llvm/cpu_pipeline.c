/* --strata-cpu-pipeline: nn (cleaned up and with shape computations folded
 * by nn-fold) -> linalg -> bufferized loops -> LLVM dialect,
 * and --strata-emit-c-interface, which it uses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/Func.h"
#include "strata/pass.h"
#include "strata/target_llvm.h"
#include "cpu_internal.h"

/* Dynamic dims: a lowering sizes its result from its operands' extents,
 * which are `tensor.dim`s of the producers' results. Those extra uses keep
 * linalg-fuse-elementwise-ops from fusing a producer into its consumer (it
 * fuses single-use producers only): resolving each dim of a linalg result to
 * the dim of its init (in the end, of the function's arguments) frees them,
 * so e.g. sigmoid(reduce_mean(x)) + x is one loop nest at any shape, as it is
 * at static ones (SOD² Fig. 5.4, test/e2e/dynamic/fusion.mlir). Then
 * rdp-fold-checks drops the run-time checks of extents RDP proves equal
 * (dims of one symbol), checking the arguments' once at entry. */
#define RESULT_DIMS "func.func(resolve-ranked-shaped-type-result-dims,rdp-fold-checks),"

/* A buffer both branches of an scf.if allocate alike (nn-multiversion's
 * versions of a GEMM) is allocated once before it, at the top level where
 * the arena planners see it; canonicalize drops the scf.if's result. */
#define BRANCH_ALLOCS "strata-hoist-branch-allocs,canonicalize"

/* From kernel selection on: the sparse dialect's generated kernels
 * (`SPARSE`), runtime kernels (`KERNELS`), the rest to
 * linalg, `POST` (the fused code generation's element-wise loop fusion and
 * block dissolution), instrumentation probes to runtime calls, bufferization, the arena (`ARENA`), loops, LLVM. */
#define CPU_PIPELINE_TAIL(SPARSE, KERNELS, POST, SLICES, ARENA)                        \
  SPARSE KERNELS "func.func(nn-to-linalg)," RESULT_DIMS POST                      \
  "instr-to-runtime,"                                                             \
  "strata-emit-c-interface,"                                                      \
  "one-shot-bufferize{bufferize-function-boundaries "                             \
  "allow-return-allocs-from-loops " /* loops over nn ops yield new tensors */     \
  "function-boundary-type-conversion=identity-layout-map},"                       \
  "func.func(buffer-loop-hoisting,cse,canonicalize," BRANCH_ALLOCS "),"           \
  "strata-distinct-results,"                                                      \
  "strata-dynamic-results,"                                                       \
  "buffer-results-to-out-params{hoist-static-allocs modify-public-functions},"    \
  SLICES                                                                          \
  "buffer-deallocation-pipeline,"                                                 \
  "convert-bufferization-to-memref," ARENA                                        \
  "func.func(convert-linalg-to-loops),"                                           \
  "lower-affine,"                                                                 \
  "convert-scf-to-cf,"                                                            \
  "expand-strided-metadata,"                                                      \
  "lower-affine,"                                                                 \
  "convert-vector-to-llvm,"                                                       \
  "finalize-memref-to-llvm{use-generic-functions}," /* runtime/env.c's alloc */ \
  "func.func(math-extend-to-supported-types),"                                    \
  /* bf16: arithmetic in f32, the conversions as integer bit operations     \
   * (round to nearest even), which LLVM's x86 backend would otherwise      \
   * leave to compiler-rt/libgcc routines that Debian's libgcc lacks */     \
  "func.func(arith-emulate-unsupported-floats{source-types=bf16 target-type=f32}," \
  "arith-expand{include-bf16}),"                                                   \
  "convert-math-to-libm,"                                                         \
  "convert-math-to-llvm,"                                                         \
  "convert-arith-to-llvm,"                                                        \
  "convert-cf-to-llvm,"                                                           \
  "convert-func-to-llvm,"                                                         \
  "convert-index-to-llvm,"                                                        \
  "convert-ub-to-llvm," /* the poison vector.step/gather of dsp lowerings start from */ \
  "reconcile-unrealized-casts"
/* The kernel pipelines (those with a memory plan) compute a buffer copied
 * into a slice of another (a Concat's operands) in the slice
 * (strata-slice-alias), before deallocation is planned; the upstream
 * baseline keeps the copies. */
#define SLICE_ALIAS "strata-slice-alias,"
/* dsp IR (docs/dsp.md): the operator ops to instruction ops and loops,
 * the instruction ops to vector code, before anything looks at nn ops. */
#define DSP "func.func(dsp-lower-operators,dsp-to-vector),"
#define CPU_PIPELINE(PRE, SPARSE, KERNELS, POST, SLICES, ARENA) \
  DSP "func.func(nn-fold)," PRE CPU_PIPELINE_TAIL(SPARSE, KERNELS, POST, SLICES, ARENA)
/* The kernel pipelines compile sparse ops to vector code for the host's
 * SIMD; the upstream baseline to the portable scalar loops. A
 * sparse.pattern_conv with constant weights gets its FKW form first. */
#define SPARSE_VECTOR "sparse-fkw,sparse-to-vector,"
#define SPARSE_SCALAR "sparse-fkw,sparse-to-scf{epilogues=false},"

/* The fused code generation of nn-fuse's blocks: kernels absorb the
 * epilogues inside their block, the rest of each block lowers to linalg and
 * its element-wise loops fuse into one nest (the block boundary stops fusion
 * from crossing blocks), then the blocks dissolve. */
#define FUSED_POST                                                                                  \
  "func.func(fused-blocks-remap),func.func(linalg-fuse-elementwise-ops),func.func(fused-blocks-tile)," \
  "func.func(fused-blocks-inline),"
/* The kernel pipelines' memory planning: buffers copied into the
 * function's outputs are computed in them (pred-placeholder-alias: the
 * results that are views, e.g. reshapes, which buffer-results-to-out-params
 * copies out), then the static rest share one arena, and the buffers of
 * dynamic size one arena per shape class, planned at run time
 * (strata-shape-plan). */
#define MEMORY_PLAN "pred-placeholder-alias,strata-buffer-arena,strata-shape-plan,"
/* The kernel pipelines vectorize f32 exp/tanh/erf in the loops that
 * remain (polynomials in arith instead of a libm call per element); the
 * upstream baseline keeps libm. */
#define MATH "func.func(strata-math-approx),"

/* nn-raise (decomposed layer norms into one op) is part of the kernel
 * pipelines' fixed-pattern fusion; the unfused and upstream baselines keep
 * the chains. */
/* Dynamic shapes: the weight GEMMs whose rows RDP leaves open get a
 * few-rows version beside the general one (nn-multiversion; nothing
 * changes where the shapes are static). */
/* The kernel pipelines run the top-level ops in the order nn-rdp-plan
 * finds where its peak of live bytes is provably below program order's
 * (SOD² B5; only ops without side effects move, after their operands):
 * the buffers' live ranges, and so the arenas, follow that order. */
#define ORDER "nn-rdp-plan{attrs=false}"
const char strataCpuPipelineText[] =
    CPU_PIPELINE("func.func(nn-raise),", SPARSE_VECTOR, "func.func(" ORDER ",nn-multiversion),nn-to-kernels,", MATH,
                 SLICE_ALIAS, MEMORY_PLAN);
/* No fusion at all: kernels without epilogues, one loop nest per op. */
const char strataCpuPipelineUnfusedText[] =
    CPU_PIPELINE("", "sparse-fkw,sparse-to-vector{epilogues=false},", "func.func(" ORDER "),nn-to-kernels{epilogues=false},",
                 MATH, SLICE_ALIAS, MEMORY_PLAN);
/* DNNFusion: algebraic rewriting, fusion planning (its options are closed
 * by the user of FUSED_PLAN), fused code generation. */
#define FUSED_PLAN \
  DSP "func.func(nn-fold),func.func(nn-raise),func.func(nn-algebraic-rewrite),nn-fuse{cpu-kernels profile-green"
const char strataCpuPipelineFusedText[] = FUSED_PLAN "}," CPU_PIPELINE_TAIL(
    SPARSE_VECTOR, "func.func(" ORDER "),nn-to-kernels,", FUSED_POST MATH, SLICE_ALIAS, MEMORY_PLAN);
const char strataCpuPipelineFusedCodegenText[] =
    CPU_PIPELINE_TAIL(SPARSE_VECTOR, "func.func(" ORDER "),nn-to-kernels,", FUSED_POST MATH, SLICE_ALIAS, MEMORY_PLAN);
/* Every op through nn-to-linalg and upstream MLIR's default lowering of
 * linalg (loops), no runtime kernels, no arena: the baseline bench/ compares
 * against. */
const char strataCpuPipelineUpstreamText[] = CPU_PIPELINE("", SPARSE_SCALAR, "", "", "", "");

const char *strataCpuPipelineUpstream(void) { return strataCpuPipelineUpstreamText; }

const char *strataCpuPipeline(void) { return strataCpuPipelineText; }
const char *strataCpuPipelineUnfused(void) { return strataCpuPipelineUnfusedText; }
const char *strataCpuPipelineFused(void) { return strataCpuPipelineFusedText; }
const char *strataCpuPipelineFusedCodegen(void) { return strataCpuPipelineFusedCodegenText; }

static bool optionValueOk(const char *v) { return v && *v && !strpbrk(v, " {}=,'\""); }

char *strataCpuPipelineFusedWith(const char *profile, const char *dbPath) {
  if ((profile && !optionValueOk(profile)) || (dbPath && !optionValueOk(dbPath))) return NULL;
  size_t n = sizeof FUSED_PLAN + sizeof strataCpuPipelineFusedCodegenText + 32 + (profile ? strlen(profile) : 0) +
             (dbPath ? strlen(dbPath) : 0);
  char *p = malloc(n);
  if (p)
    snprintf(p, n, "%s%s%s%s%s},%s", FUSED_PLAN, profile ? " profile=" : "", profile ? profile : "",
             dbPath ? " profile-db=" : "", dbPath ? dbPath : "", strataCpuPipelineFusedCodegenText);
  return p;
}

char *strataCpuPipelineFusedWithProfileDb(const char *path) {
  return path ? strataCpuPipelineFusedWith(NULL, path) : NULL;
}

const StrataPassDef strataCpuPipelineUnfusedPass = {
    .name = "strata-cpu-pipeline-unfused",
    .summary = "strata-cpu-pipeline with no fusion at all: kernels without epilogues, one loop "
               "nest per op",
    .pipeline = strataCpuPipelineUnfusedText,
};

const StrataPassDef strataCpuPipelineFusedPass = {
    .name = "strata-cpu-pipeline-fused",
    .summary = "strata-cpu-pipeline with DNNFusion: nn-fuse planning and fused code generation",
    .pipeline = strataCpuPipelineFusedText,
};

const StrataPassDef strataCpuPipelineFusedCodegenPass = {
    .name = "strata-cpu-pipeline-fused-codegen",
    .summary = "The fused code generation of strata-cpu-pipeline-fused, for IR that nn-fuse "
               "already grouped into blocks",
    .pipeline = strataCpuPipelineFusedCodegenText,
};

const StrataPassDef strataCpuPipelineUpstreamPass = {
    .name = "strata-cpu-pipeline-upstream",
    .summary = "strata-cpu-pipeline without runtime kernels or the buffer arena (baseline)",
    .pipeline = strataCpuPipelineUpstreamText,
};

const StrataPassDef strataCpuPipelinePass = {
    .name = "strata-cpu-pipeline",
    .summary = "Lower nn to the LLVM dialect for the host CPU (out-param results, C interface)",
    .pipeline = strataCpuPipelineText,
};

/* Predication (issue 20) first: data-dependent scf.if and bounded
 * scf.while become guards, lowered masked (arith.select over speculated
 * safe ops), then the usual pipeline. */
const StrataPassDef strataCpuPipelinePredicatedPass = {
    .name = "strata-cpu-pipeline-predicated",
    .summary = "strata-cpu-pipeline after predication: pred-if-to-guard, pred-loop-to-guard, "
               "pred-lower{mode=masked}",
    .pipeline = "func.func(pred-if-to-guard,pred-loop-to-guard),pred-lower{mode=masked},"
                "strata-cpu-pipeline",
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
