/* --strata-gpu-kernels and its variants: the kernel-level IR of the GPU
 * targets (gpu_pipeline.h). Upstream passes do the mapping: linalg ops
 * become scf.parallel nests (reductions stay sequential scf.for inside),
 * flattened to one dimension (gpu-flatten-parallel), tiled by 64 so each
 * nest maps to a grid of workgroups (the tiles) of work-items (a tile's
 * iterations), then to gpu.launch and outlined kernels; a parallel loop
 * left inside a kernel runs as nested loops in each work-item. Each
 * remaining linalg op is one kernel; element-wise chains are fused into one
 * linalg op first, so into one kernel. With dnnfusion, each nn-fuse block
 * becomes one kernel (gpu-fuse-blocks) where its loops allow. f16 kernels
 * compute as the CPU target does (LLVM promotes each half operation to
 * float): every arith and math op on f16 in f32, its result rounded to f16
 * (to nearest even), so loads, stores and those conversions are all that
 * is left of f16 in a kernel. */
#include "gpu_pipeline.h"
#include "strata/pass.h"

#define GPU_BUFFERIZE                                                                        \
  "one-shot-bufferize{bufferize-function-boundaries "                                        \
  "function-boundary-type-conversion=identity-layout-map},"
#define GPU_F16                                                                              \
  "gpu.module(arith-emulate-unsupported-floats{source-types=f16 target-type=f32},"            \
  "math-extend-to-supported-types,gpu-round-f16)"
#define GPU_MAP                                                                              \
  "func.func(gpu-flatten-parallel),"                                                         \
  "func.func(scf-parallel-loop-tiling{parallel-loop-tile-sizes=64 no-min-max-bounds},"       \
  "gpu-map-parallel-loops,convert-parallel-loops-to-gpu,gpu-launch-operands),"               \
  "gpu-kernel-outlining,scf-parallel-for-to-nested-fors,lower-affine,canonicalize,cse," GPU_F16
/* GEMM-like generics (matmul, conv) as workgroup tiles through workgroup
 * memory (gpu-tile-workgroup), before the other loops are made. */
#define GPU_TILE "gpu-tile-workgroup,"
#define GPU_KERNELS                                                                          \
  GPU_BUFFERIZE "func.func(buffer-loop-hoisting,cse,canonicalize),"                          \
  "func.func(" GPU_TILE "convert-linalg-to-parallel-loops)," GPU_MAP
/* nn-to-linalg{unroll-rnn}: the recurrent ops unrolled, as the bufferization
 * here takes no loop yielding buffers it allocates (the CPU's scf.for over
 * the steps needs allow-return-allocs-from-loops). */
/* dnnfusion: the blocks stay scf.execute_region ops through bufferization
 * and the loop lowering; gpu-fuse-blocks makes each block's nests one
 * loop and dissolves the blocks. */
#define GPU_FUSED_CODEGEN                                                                    \
  "func.func(nn-to-linalg{unroll-rnn=true}),func.func(fused-blocks-remap),"                 \
  "func.func(linalg-fuse-elementwise-ops)," GPU_BUFFERIZE                                    \
  "func.func(" GPU_TILE "convert-linalg-to-parallel-loops,gpu-fuse-blocks,"                 \
  "buffer-loop-hoisting,cse,canonicalize,gpu-private-temporaries)," GPU_MAP

const char strataGpuPipelineText[] =
    "func.func(nn-fold),func.func(nn-to-linalg{unroll-rnn=true}),func.func(linalg-fuse-elementwise-ops)," GPU_KERNELS;
const char strataGpuPipelineUnfusedText[] = "func.func(nn-fold),func.func(nn-to-linalg{unroll-rnn=true})," GPU_KERNELS;
const char strataGpuPipelineFusedCodegenText[] = GPU_FUSED_CODEGEN;
/* Planning for the opencl target (it has no library kernels; its profile
 * cells fuse, as nothing measures kernels on it yet). */
const char strataGpuPipelineFusedText[] =
    "func.func(nn-fold),func.func(nn-raise),func.func(nn-algebraic-rewrite),"
    "nn-fuse{target=opencl profile=always}," GPU_FUSED_CODEGEN;

const StrataPassDef strataGpuKernelsPass = {
    .name = "strata-gpu-kernels",
    .summary = "Lower nn to outlined GPU kernels: linalg, buffers, parallel loops tiled into "
               "workgroups of 64 work-items, gpu.launch_func and gpu.func (element-wise chains fused)",
    .pipeline = strataGpuPipelineText,
};

const StrataPassDef strataGpuKernelsUnfusedPass = {
    .name = "strata-gpu-kernels-unfused",
    .summary = "strata-gpu-kernels without element-wise fusion: one kernel per linalg op",
    .pipeline = strataGpuPipelineUnfusedText,
};

const StrataPassDef strataGpuKernelsFusedPass = {
    .name = "strata-gpu-kernels-fused",
    .summary = "strata-gpu-kernels after nn-fuse planning (for the GPU targets): each block "
               "one kernel (gpu-fuse-blocks)",
    .pipeline = strataGpuPipelineFusedText,
};
