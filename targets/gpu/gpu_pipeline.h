/* The kernel-level lowering GPU targets share: nn -> linalg -> buffers ->
 * parallel loops mapped to workgroups and work-items -> gpu.launch_func on
 * the host and outlined gpu.func kernels (one gpu.module each). A target
 * puts its own steps after these (opencl: the OpenCL C emitter). */
#ifndef STRATA_GPU_PIPELINE_H
#define STRATA_GPU_PIPELINE_H

/* Pipelines by fusion mode (strataParsePipeline syntax): fixed fuses the
 * element-wise chains linalg fuses; none fuses nothing (a kernel per linalg
 * op); dnnfusion runs nn-fuse planning for the opencl target (no library
 * kernels) and makes each block one kernel where gpu-fuse-blocks can
 * (gpu_fuse.h); planned is dnnfusion's code generation for IR nn-fuse
 * already grouped. */
extern const char strataGpuPipelineText[];
extern const char strataGpuPipelineUnfusedText[];
extern const char strataGpuPipelineFusedText[];
extern const char strataGpuPipelineFusedCodegenText[];

#endif /* STRATA_GPU_PIPELINE_H */
