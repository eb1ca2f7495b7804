/* The `profile` tool on the GPU targets. Its probes time ops on the host;
 * a GPU target times its kernels on the device instead (OpenCL profiling
 * events, Vulkan timestamp queries). So before the kernel-level lowering,
 * gpu-profile-probes takes the profile probes out of the model (the plan
 * and the kernels are then the plain model's) and leaves on the module
 * what the target needs: that profiling is on, and which nn ops (name,
 * op_id, location) were probed. After the lowering a kernel launch has the
 * location of the op(s) it came from, which names its nn op(s). Each call
 * then adds to libstrata_rt's Chrome trace (runtime/instr.h) one event per
 * kernel launch and copy, with its device time, and one for the call's
 * host time. */
#ifndef STRATA_GPU_PROFILE_H
#define STRATA_GPU_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "gpu_host.h"

/* True if gpu-profile-probes found profile probes in the module. */
bool gpuProfileWanted(MlirOperation module);

/* What a call's events say about each step of a plan. */
typedef struct {
  char **names; /* by step: the kernel's gpu.func ("copy #N" for a host copy) */
  char **args;  /* by step: JSON members: kernel, ops, op_ids, step */
  size_t numSteps;
} GpuProfile;

/* The labels of `plan`'s steps in lowered `module`. False if out of memory. */
bool gpuProfileInit(GpuProfile *p, MlirOperation module, const GpuPlan *plan);
void gpuProfileFree(GpuProfile *p);

/* A step's device time: start and end in nanoseconds on the device's clock
 * (any origin); `timed` false for a step that ran nothing (no work-items,
 * no bytes). */
typedef struct {
  bool timed;
  double start, end;
} GpuStepTime;

/* Adds a call's events: each timed step's on track 2 ("cat": "kernel" or
 * "copy"), placed from `hostStart` (microseconds, strataRtInstrNowUs's
 * clock) by its distance from `deviceOrigin` (ns, the device clock when
 * the call's first command could start), and the call's own on track 1
 * ("cat": "call", from hostStart to hostEnd, with its launch count and
 * summed device time). `run` is strataRtInstrRunBegin's. */
void gpuProfileRecordCall(const GpuProfile *p, const char *target, const char *func, int64_t run,
                          double hostStart, double hostEnd, double deviceOrigin, const GpuStepTime *times);

#endif /* STRATA_GPU_PROFILE_H */
