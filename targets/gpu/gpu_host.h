/* The host side the GPU targets share: after the kernel-level lowering
 * (gpu_pipeline.h) a public function is a straight line of buffer
 * allocations, constants (memref.global), views, copies and
 * gpu.launch_func; gpu_host.c turns it into a plan -- buffers and steps in
 * program order -- that a target runs at each call through its own API
 * (opencl: OpenCL C kernels and the ICD loader; vulkan: SPIR-V and the
 * Vulkan loader). gpu_module.c answers the questions about the lowered
 * module both need: static memref layouts, kernels, index-error calls. */
#ifndef STRATA_GPU_HOST_H
#define STRATA_GPU_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "strata/target.h"
#include "strata/tensor.h"

/* Bytes and offsets of a memref type whose layout is static: its element
 * size, element count, and offset/strides in elements. False (with `why`
 * filled, naming `target`) if a dimension, stride or offset is dynamic or
 * the element type is not one the GPU targets store (f32, f64, i1 as a
 * byte, i8-i64, index as 8 bytes). */
typedef struct {
  int rank;
  int64_t dims[8], strides[8], offset, numElements;
  size_t elementSize;
} GpuLayout;
bool gpuLayoutOf(MlirType memref, const char *target, GpuLayout *l, char *why, size_t size);
/* True if the layout is row-major and dense (a buffer's first numElements). */
bool gpuLayoutIsDense(const GpuLayout *l);

/* True for the host functions of a lowered module: public func.func with
 * a body. */
bool gpuIsHost(MlirOperation op);
/* The gpu.func a gpu.launch_func's `kernel` attribute names, or null. */
MlirOperation gpuFindKernel(MlirOperation module, MlirAttribute kernel);
/* Run-time checks inside kernels: nn-to-linalg's calls of libstrata_rt's
 * strata_rt_index_error (GPU_CHECK_INDEX: index, axis, size, site) and
 * strata_rt_shape_error (GPU_CHECK_SHAPE: kind, operand, dim, got, want,
 * site). gpuCheckCall gives the one `op` is (0 for any other op); the
 * site, a buffer of the site's text, is always the last operand and the
 * others (at most GPU_CHECK_VALUES i64) are the values to report. The
 * targets write the first failing work-item's into an error record. */
enum { GPU_CHECK_INDEX = 1, GPU_CHECK_SHAPE = 2, GPU_CHECK_VALUES = 5 };
int gpuCheckCall(MlirOperation op);
/* Whether kernel `func` makes such a call. */
bool gpuKernelReportsErrors(MlirOperation func);

/* ---- The host plan ---- */

typedef enum { GPU_STEP_LAUNCH, GPU_STEP_COPY } GpuStepKind;

typedef struct {
  int buffer;        /* >= 0: a buffer argument; -1: a scalar */
  uint8_t bytes[8];  /* the scalar, little-endian in its width (i1: a byte; index: 8 bytes) */
  size_t size;
  MlirType type;     /* the kernel operand's type */
} GpuPlanArg;

typedef struct {
  GpuStepKind kind;
  /* A launch: gpu.module `module`'s kernel `func` (the op in `kernel`).
   * A copy: the host's memref.copy number `copy` in module order. */
  char module[128], func[128];
  MlirOperation kernel;
  size_t copy;
  size_t global[3], local[3]; /* work-items in all (grid x block) and per group */
  GpuPlanArg *args;           /* a copy: its source and target buffers */
  size_t numArgs;
  GpuLayout copySrc, copyDst; /* a copy's two layouts */
  bool reportsErrors;         /* the kernel calls strata_rt_index_error */
  MlirLocation loc;
} GpuStep;

typedef struct {
  size_t bytes;
  StrataTensor *init; /* a memref.global's value (owned), or NULL */
  bool constant;      /* a constant memref.global: read-only, so uploaded once */
} GpuBufferDef;

typedef struct {
  GpuBufferDef *buffers; /* the function's arguments first, then allocations and globals */
  size_t numBuffers, numArgs;
  bool reportsErrors; /* a step does */
  GpuStep *steps;
  size_t numSteps;
  struct { int buffer; size_t offset, bytes; } *results;
  size_t numResults;
} GpuPlan;

/* The plan of host function `host` of lowered `module` for target `target`
 * (named in messages); false after located errors (an op the host side
 * cannot run, a dynamic size). *copies counts the memref.copy ops of the
 * hosts before it and is advanced past its own. */
bool gpuPlanBuild(MlirOperation module, MlirOperation host, const char *target, GpuPlan *plan, size_t *copies);
void gpuPlanFree(GpuPlan *plan);
/* The launches and copies of a call of `plan`. */
void gpuPlanCallStats(const GpuPlan *plan, StrataCallStats *stats);

/* True if a call of function `name` (planned as `plan`) gives as many
 * inputs and outputs as it takes, each of its size; else false after an
 * error at `loc`. */
bool gpuPlanCheckCall(const GpuPlan *plan, const char *name, MlirLocation loc, StrataTensor *const *inputs,
                      size_t numInputs, StrataTensor *const *outputs, size_t numOutputs);

/* The CPU target's message for a failed check (`check`, gpuCheckCall's)
 * a kernel of `plan` reported from step `step`, `values` its operands
 * before the site (`siteArg` is the kernel argument holding the site's
 * text): the site's text -- its location, a tab, the op -- then what went
 * wrong. *at receives the step's location. */
void gpuCheckMessage(const GpuPlan *plan, int64_t step, int64_t siteArg, int64_t check,
                     const int64_t values[GPU_CHECK_VALUES], MlirLocation *at, char *err, size_t errSize);

/* The device number: options->device, else $STRATA_DEVICE, else 0; -1
 * after an error at `loc` ("bad <api> device number"). */
int gpuDeviceIndex(const StrataCompileOptions *options, MlirLocation loc, const char *api);

#endif /* STRATA_GPU_HOST_H */
