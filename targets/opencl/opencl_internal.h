/* The opencl target's parts: the OpenCL C emitter (opencl_emit.c) writes the
 * outlined gpu.func kernels and the host's buffer copies as one program;
 * the host plan (targets/gpu/gpu_host.h) turns the host function into
 * buffers and launches; opencl_target.c runs them through the OpenCL runtime
 * (runtime/opencl.h). */
#ifndef STRATA_OPENCL_INTERNAL_H
#define STRATA_OPENCL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "strata/context.h"
#include "strata/tensor.h"
#include "gpu_host.h"

/* A growing text; on out of memory `oom` is set and text is dropped. */
typedef struct {
  char *data;
  size_t len, cap;
  bool oom;
} ClText;

void clTextPut(ClText *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The OpenCL C kernel name of gpu.module `module`'s gpu.func `func`. */
void clKernelName(MlirStringRef module, MlirStringRef func, char *buf, size_t size);
/* The OpenCL C kernel name of host memref.copy number `index`. */
void clCopyKernelName(size_t index, char *buf, size_t size);

/* Writes the OpenCL C program of lowered module `module` (its gpu.module
 * kernels, then one copy kernel per memref.copy of its host functions, in
 * order) into `out`. False after located errors: an op, type or attribute
 * the emitter cannot express exactly is refused at the op. *numKernels
 * receives the number of gpu.func kernels. */
bool clEmitProgram(MlirOperation module, ClText *out, size_t *numKernels);

/* Device-side check failures. A kernel that calls libstrata_rt's
 * strata_rt_index_error or strata_rt_shape_error (gpuKernelReportsErrors)
 * takes two more arguments: the error record (a buffer of
 * CL_ERROR_RECORD_BYTES, zero before the call) and its launch's step
 * number. The first failing work-item sets the int at byte 0 and writes
 * longs from byte 8: the step, the kernel argument holding the error
 * site's text, the check (gpuCheckCall's), then the call's values (up to
 * GPU_CHECK_VALUES). */
#define CL_ERROR_RECORD_BYTES (8 + 8 * (3 + GPU_CHECK_VALUES))

#endif /* STRATA_OPENCL_INTERNAL_H */

/* ---- The kernel emitter's state, shared by its two files ---- */

typedef struct {
  const void *key; /* an MlirValue's pointer */
  unsigned id;
} ClName;

typedef struct {
  ClText *out;
  ClName *names; /* open addressing, capNames a power of two */
  size_t numNames, capNames;
  unsigned nextId;
  int indent;
  bool usesF64;
  bool usesF16; /* f16 values live in floats (opencl_f16.c) */
  MlirOperation kernel; /* the gpu.func being written */
} ClEmitter;

/* The C name of SSA value `v` ("v12"), numbered on first use. */
const char *clName(ClEmitter *e, MlirValue v, char buf[24]);
/* The OpenCL C type holding scalars of `t`: unsigned for integers (their
 * arithmetic wraps as arith's does), `bool` for i1, `ulong` for index;
 * `asSigned` gives the signed spelling. NULL if the target has none. */
const char *clScalarType(MlirType t, bool asSigned);
/* Starts a line at the current indentation. */
void clLine(ClEmitter *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* f16 without cl_khr_fp16 (opencl_f16.c): an f16 value lives in a float
 * holding it exactly; memory holds halves, read with vload_half and written
 * with vstore_half_rte; f16 arithmetic arrives as f32 ops between
 * conversions (gpu_pipeline.c), and a conversion to f16 rounds to nearest
 * even. clEmitF16Op writes the ops that touch f16 (false with *handled
 * false for others; false with *handled true after a located error), and
 * clF16Prelude the helpers they call. clF16Access loads `value` from, or
 * stores it to, `ref` (element()'s `name[index]`). */
bool clEmitF16Op(ClEmitter *e, MlirOperation op, bool *handled);
bool clF16Access(ClEmitter *e, MlirValue value, const char *ref, bool store);
void clF16Prelude(ClText *out, bool usesF64);
/* Emits an arith or math op with scalar operands as `T vN = expr;`. False
 * with *handled false when the op is none it knows; false with *handled
 * true after a located error. */
bool clEmitScalarOp(ClEmitter *e, MlirOperation op, bool *handled);
