/* The OpenCL runtime: devices through the ICD loader, program builds,
 * buffers, launches. Plain C over the OpenCL 1.2 API (no MLIR); the
 * `opencl` target (targets/opencl/) drives it. Every call returns an error
 * message instead of aborting; nothing here keeps global state.
 *
 *   char err[512];
 *   StrataClDevice *dev = strataClOpen(0, err, sizeof err);   (device 0)
 *   if (!dev) report(err);          // e.g. "no OpenCL platform (...)"
 *   char *log = NULL;
 *   StrataClProgram *p = strataClBuild(dev, source, &log, err, sizeof err);
 *   ...
 *   strataClProgramDestroy(p); strataClClose(dev);
 *
 * Devices are numbered across all platforms in the loader's order, as
 * strataClListDevices prints them. */
#ifndef STRATA_RT_OPENCL_H
#define STRATA_RT_OPENCL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct StrataClDevice StrataClDevice;
typedef struct StrataClProgram StrataClProgram;
typedef struct StrataClBuffer StrataClBuffer;

/* One line per device ("0: Portable Computing Language / pthread-... (CPU,
 * OpenCL C 1.2)"). NULL after an error in `err` (no platform or device is
 * one). Ownership transfers to the caller: free it with free(). */
char *strataClListDevices(char *err, size_t errSize);

/* Opens device `index` (a context and an in-order queue on it). NULL after
 * an error in `err` (no platform, no such device). Destroy with
 * strataClClose. */
StrataClDevice *strataClOpen(int index, char *err, size_t errSize);
void strataClClose(StrataClDevice *dev);
/* The device's name, for messages; owned by `dev`. */
const char *strataClDeviceName(const StrataClDevice *dev);
/* True if the device takes double-precision kernels (cl_khr_fp64). */
bool strataClDeviceHasFp64(const StrataClDevice *dev);

/* Builds OpenCL C `source` for the device. NULL after an error in `err`;
 * when the compiler rejected the source, *buildLog (if non-NULL) receives
 * its log (malloc'ed; free it with free()). Destroy with
 * strataClProgramDestroy. */
StrataClProgram *strataClBuild(StrataClDevice *dev, const char *source, char **buildLog, char *err,
                               size_t errSize);
void strataClProgramDestroy(StrataClProgram *program);

/* A device buffer of `bytes` bytes (at least 1), filled from `init` when
 * non-NULL. NULL after an error. Destroy with strataClBufferDestroy. */
StrataClBuffer *strataClBufferCreate(StrataClDevice *dev, size_t bytes, const void *init, char *err,
                                     size_t errSize);
void strataClBufferDestroy(StrataClBuffer *buf);
size_t strataClBufferSize(const StrataClBuffer *buf);
/* Blocking reads and writes of `bytes` bytes at byte `offset`. */
bool strataClRead(StrataClDevice *dev, StrataClBuffer *buf, size_t offset, void *dst, size_t bytes,
                  char *err, size_t errSize);
bool strataClWrite(StrataClDevice *dev, StrataClBuffer *buf, size_t offset, const void *src,
                   size_t bytes, char *err, size_t errSize);

/* A kernel argument: a buffer, or `size` bytes of a scalar at `value`. */
typedef struct {
  StrataClBuffer *buffer; /* non-NULL: a __global pointer argument */
  const void *value;
  size_t size;
} StrataClArg;

/* Enqueues kernel `name` of `program` on `global` work-items in groups of
 * `local` (3 dimensions each; global a multiple of local) with `args`.
 * In-order queue: launches run in the order they are enqueued. */
bool strataClLaunch(StrataClDevice *dev, StrataClProgram *program, const char *name,
                    const StrataClArg *args, size_t numArgs, const size_t global[3],
                    const size_t local[3], char *err, size_t errSize);
/* Waits for every launch enqueued so far; an error a launch reported at
 * run time comes back here. */
bool strataClFinish(StrataClDevice *dev, char *err, size_t errSize);

/* ---- Profiling ----
 * strataClEnableProfiling makes the device's queue a profiling one
 * (CL_QUEUE_PROFILING_ENABLE; false with a clear error if the device has
 * none). Launches enqueued since the last finish: strataClNumPending (a
 * launch of no work-items enqueues nothing). strataClFinishTimed is
 * strataClFinish that also writes each pending launch's
 * CL_PROFILING_COMMAND_QUEUED/START/END (ns, the device's clock) into
 * times[0..strataClNumPending) first. */
typedef struct {
  uint64_t queued, start, end;
} StrataClTiming;
bool strataClEnableProfiling(StrataClDevice *dev, char *err, size_t errSize);
size_t strataClNumPending(const StrataClDevice *dev);
bool strataClFinishTimed(StrataClDevice *dev, StrataClTiming *times, char *err, size_t errSize);

#endif /* STRATA_RT_OPENCL_H */
