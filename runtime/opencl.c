/* The OpenCL runtime (opencl.h) over the ICD loader: device enumeration
 * across platforms, a context and in-order queue per opened device, program
 * builds with their logs, buffers, and launches whose events are checked
 * when the queue is drained. */
#define CL_TARGET_OPENCL_VERSION 120
#include "opencl.h"
#include "errbuf.h"
#include <CL/cl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "grow.h"

struct StrataClDevice {
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_event *events; /* launches enqueued since the last strataClFinish */
  size_t numEvents, capEvents;
  bool fp64;
  char name[256];
};

typedef struct {
  char *name;
  cl_kernel kernel;
} NamedKernel;

struct StrataClProgram {
  cl_program program;
  NamedKernel *kernels; /* created on first launch, by name */
  size_t numKernels, capKernels;
};

struct StrataClBuffer {
  cl_mem mem;
  size_t bytes;
};

/* The name of an OpenCL error code, for messages. */
static const char *clErrorName(cl_int code) {
  switch (code) {
  case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
  case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
  case CL_COMPILER_NOT_AVAILABLE: return "CL_COMPILER_NOT_AVAILABLE";
  case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
  case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
  case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
  case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
  case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
  case CL_INVALID_DEVICE: return "CL_INVALID_DEVICE";
  case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
  case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
  case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
  case CL_INVALID_ARG_SIZE: return "CL_INVALID_ARG_SIZE";
  case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
  case CL_INVALID_WORK_ITEM_SIZE: return "CL_INVALID_WORK_ITEM_SIZE";
  case CL_INVALID_GLOBAL_WORK_SIZE: return "CL_INVALID_GLOBAL_WORK_SIZE";
  case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
  default: return "an OpenCL error";
  }
}


#define CL_FAIL(what, code) \
  rtFailf(err, errSize, "OpenCL: %s failed: %s (%d)", what, clErrorName(code), (int)(code))

/* Every device of every platform, in the loader's order (malloc'ed, count
 * in *n); NULL after an error. */
static cl_device_id *allDevices(cl_uint *n, char *err, size_t errSize) {
  cl_uint numPlatforms = 0;
  cl_int rc = clGetPlatformIDs(0, NULL, &numPlatforms);
  if (rc == -1001 || (rc == CL_SUCCESS && numPlatforms == 0))
    return rtFailf(err, errSize, "no OpenCL platform is installed (the ICD loader found no driver; "
                "install one, e.g. pocl-opencl-icd, or check OCL_ICD_VENDORS)"), NULL;
  if (rc != CL_SUCCESS) return CL_FAIL("clGetPlatformIDs", rc), NULL;
  cl_platform_id *platforms = malloc(numPlatforms * sizeof *platforms);
  if (!platforms) return rtFailf(err, errSize, "out of memory"), NULL;
  clGetPlatformIDs(numPlatforms, platforms, NULL);
  cl_device_id *devices = NULL;
  *n = 0;
  for (cl_uint p = 0; p < numPlatforms; p++) {
    cl_uint count = 0;
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &count) != CL_SUCCESS || !count) continue;
    cl_device_id *grown = realloc(devices, (*n + count) * sizeof *grown);
    if (!grown) {
      free(devices), free(platforms);
      return rtFailf(err, errSize, "out of memory"), NULL;
    }
    devices = grown;
    clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, count, devices + *n, NULL);
    *n += count;
  }
  free(platforms);
  if (!*n) {
    free(devices);
    return rtFailf(err, errSize, "no OpenCL device: the %u installed platform(s) report none",
                numPlatforms), NULL;
  }
  return devices;
}

static void deviceString(cl_device_id d, cl_device_info what, char *buf, size_t size) {
  if (clGetDeviceInfo(d, what, size, buf, NULL) != CL_SUCCESS) snprintf(buf, size, "?");
  buf[size - 1] = '\0';
}

char *strataClListDevices(char *err, size_t errSize) {
  cl_uint n;
  cl_device_id *devices = allDevices(&n, err, errSize);
  if (!devices) return NULL;
  size_t cap = 512 * (size_t)n, len = 0;
  char *out = malloc(cap);
  if (!out) {
    free(devices);
    return rtFailf(err, errSize, "out of memory"), NULL;
  }
  for (cl_uint i = 0; i < n; i++) {
    char name[256], version[128], platformName[256] = "?";
    cl_platform_id platform;
    cl_device_type type = 0;
    deviceString(devices[i], CL_DEVICE_NAME, name, sizeof name);
    deviceString(devices[i], CL_DEVICE_OPENCL_C_VERSION, version, sizeof version);
    clGetDeviceInfo(devices[i], CL_DEVICE_TYPE, sizeof type, &type, NULL);
    if (clGetDeviceInfo(devices[i], CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL) == CL_SUCCESS)
      clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof platformName, platformName, NULL);
    platformName[sizeof platformName - 1] = '\0';
    len += (size_t)snprintf(out + len, cap - len, "%u: %.200s / %.200s (%s, %.100s)\n", i, platformName,
                            name, type & CL_DEVICE_TYPE_GPU ? "GPU" : type & CL_DEVICE_TYPE_CPU ? "CPU" : "other",
                            version);
    if (len >= cap) len = cap - 1;
  }
  free(devices);
  return out;
}

StrataClDevice *strataClOpen(int index, char *err, size_t errSize) {
  cl_uint n;
  cl_device_id *devices = allDevices(&n, err, errSize);
  if (!devices) return NULL;
  if (index < 0 || (cl_uint)index >= n) {
    free(devices);
    return rtFailf(err, errSize, "no OpenCL device %d (there %s %u: 0 to %u; see strata-run "
                "--list-devices)", index, n == 1 ? "is" : "are", n, n - 1), NULL;
  }
  StrataClDevice *dev = calloc(1, sizeof *dev);
  if (!dev) {
    free(devices);
    return rtFailf(err, errSize, "out of memory"), NULL;
  }
  dev->device = devices[index];
  free(devices);
  deviceString(dev->device, CL_DEVICE_NAME, dev->name, sizeof dev->name);
  cl_device_fp_config fp64 = 0;
  clGetDeviceInfo(dev->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
  dev->fp64 = fp64 != 0;
  cl_int rc;
  dev->context = clCreateContext(NULL, 1, &dev->device, NULL, NULL, &rc);
  if (rc != CL_SUCCESS) {
    free(dev);
    return CL_FAIL("clCreateContext", rc), NULL;
  }
  dev->queue = clCreateCommandQueue(dev->context, dev->device, 0, &rc);
  if (rc != CL_SUCCESS) {
    clReleaseContext(dev->context);
    free(dev);
    return CL_FAIL("clCreateCommandQueue", rc), NULL;
  }
  return dev;
}

static void releaseEvents(StrataClDevice *dev) {
  for (size_t i = 0; i < dev->numEvents; i++) clReleaseEvent(dev->events[i]);
  dev->numEvents = 0;
}

void strataClClose(StrataClDevice *dev) {
  if (!dev) return;
  clFinish(dev->queue);
  releaseEvents(dev);
  free(dev->events);
  clReleaseCommandQueue(dev->queue);
  clReleaseContext(dev->context);
  free(dev);
}

const char *strataClDeviceName(const StrataClDevice *dev) { return dev->name; }
bool strataClDeviceHasFp64(const StrataClDevice *dev) { return dev->fp64; }

StrataClProgram *strataClBuild(StrataClDevice *dev, const char *source, char **buildLog, char *err,
                               size_t errSize) {
  if (buildLog) *buildLog = NULL;
  cl_int rc;
  cl_program program = clCreateProgramWithSource(dev->context, 1, &source, NULL, &rc);
  if (rc != CL_SUCCESS) return CL_FAIL("clCreateProgramWithSource", rc), NULL;
  /* Exact IEEE semantics: the emitter writes what the IR says, and the
   * results are compared against the reference interpreter. */
  rc = clBuildProgram(program, 1, &dev->device, "-cl-std=CL1.2", NULL, NULL);
  if (rc != CL_SUCCESS) {
    size_t size = 0;
    clGetProgramBuildInfo(program, dev->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
    char *log = buildLog && size ? malloc(size + 1) : NULL;
    if (log) {
      clGetProgramBuildInfo(program, dev->device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
      log[size] = '\0';
      *buildLog = log;
    }
    clReleaseProgram(program);
    return CL_FAIL("building the program", rc), NULL;
  }
  StrataClProgram *p = calloc(1, sizeof *p);
  if (!p) {
    clReleaseProgram(program);
    return rtFailf(err, errSize, "out of memory"), NULL;
  }
  p->program = program;
  return p;
}

void strataClProgramDestroy(StrataClProgram *p) {
  if (!p) return;
  for (size_t i = 0; i < p->numKernels; i++) {
    clReleaseKernel(p->kernels[i].kernel);
    free(p->kernels[i].name);
  }
  free(p->kernels);
  clReleaseProgram(p->program);
  free(p);
}

StrataClBuffer *strataClBufferCreate(StrataClDevice *dev, size_t bytes, const void *init, char *err,
                                     size_t errSize) {
  StrataClBuffer *b = calloc(1, sizeof *b);
  if (!b) return rtFailf(err, errSize, "out of memory"), NULL;
  b->bytes = bytes;
  cl_int rc;
  /* A zero-size tensor still gets a (1-byte) buffer: OpenCL has no empty ones. */
  b->mem = clCreateBuffer(dev->context, CL_MEM_READ_WRITE | (init && bytes ? CL_MEM_COPY_HOST_PTR : 0),
                          bytes ? bytes : 1, init && bytes ? (void *)init : NULL, &rc);
  if (rc != CL_SUCCESS) {
    free(b);
    return rtFailf(err, errSize, "OpenCL: allocating a %zu-byte buffer failed: %s (%d)", bytes, clErrorName(rc),
                (int)rc), NULL;
  }
  return b;
}

void strataClBufferDestroy(StrataClBuffer *b) {
  if (!b) return;
  clReleaseMemObject(b->mem);
  free(b);
}

size_t strataClBufferSize(const StrataClBuffer *b) { return b->bytes; }

bool strataClRead(StrataClDevice *dev, StrataClBuffer *buf, size_t offset, void *dst, size_t bytes,
                  char *err, size_t errSize) {
  if (!bytes) return true;
  if (offset > buf->bytes || bytes > buf->bytes - offset)
    return rtFailf(err, errSize, "OpenCL: reading %zu bytes at %zu of a %zu-byte buffer", bytes, offset, buf->bytes);
  cl_int rc = clEnqueueReadBuffer(dev->queue, buf->mem, CL_TRUE, offset, bytes, dst, 0, NULL, NULL);
  return rc == CL_SUCCESS || CL_FAIL("clEnqueueReadBuffer", rc);
}

bool strataClWrite(StrataClDevice *dev, StrataClBuffer *buf, size_t offset, const void *src,
                   size_t bytes, char *err, size_t errSize) {
  if (!bytes) return true;
  if (offset > buf->bytes || bytes > buf->bytes - offset)
    return rtFailf(err, errSize, "OpenCL: writing %zu bytes at %zu of a %zu-byte buffer", bytes, offset, buf->bytes);
  cl_int rc = clEnqueueWriteBuffer(dev->queue, buf->mem, CL_TRUE, offset, bytes, src, 0, NULL, NULL);
  return rc == CL_SUCCESS || CL_FAIL("clEnqueueWriteBuffer", rc);
}

/* The kernel `name` of the program, created on first use. */
static cl_kernel kernelNamed(StrataClProgram *p, const char *name, char *err, size_t errSize) {
  for (size_t i = 0; i < p->numKernels; i++)
    if (!strcmp(p->kernels[i].name, name)) return p->kernels[i].kernel;
  NamedKernel *grown = strataGrow(p->kernels, &p->capKernels, p->numKernels + 1, sizeof *grown);
  char *copy = strdup(name);
  if (!grown || !copy) {
    free(copy);
    if (grown) p->kernels = grown;
    return rtFailf(err, errSize, "out of memory"), NULL;
  }
  p->kernels = grown;
  cl_int rc;
  cl_kernel k = clCreateKernel(p->program, name, &rc);
  if (rc != CL_SUCCESS) {
    free(copy);
    return rtFailf(err, errSize, "OpenCL: kernel '%s': %s (%d)", name, clErrorName(rc), (int)rc), NULL;
  }
  p->kernels[p->numKernels++] = (NamedKernel){copy, k};
  return k;
}

bool strataClLaunch(StrataClDevice *dev, StrataClProgram *program, const char *name,
                    const StrataClArg *args, size_t numArgs, const size_t global[3],
                    const size_t local[3], char *err, size_t errSize) {
  cl_kernel k = kernelNamed(program, name, err, errSize);
  if (!k) return false;
  for (size_t i = 0; i < numArgs; i++) {
    cl_int rc = args[i].buffer ? clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &args[i].buffer->mem)
                               : clSetKernelArg(k, (cl_uint)i, args[i].size, args[i].value);
    if (rc != CL_SUCCESS)
      return rtFailf(err, errSize, "OpenCL: kernel '%s' argument %zu: %s (%d)", name, i, clErrorName(rc), (int)rc);
  }
  size_t groupSize = 0;
  clGetKernelWorkGroupInfo(k, dev->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof groupSize, &groupSize, NULL);
  if (groupSize && local[0] * local[1] * local[2] > groupSize)
    return rtFailf(err, errSize, "OpenCL: kernel '%s' needs work-groups of %zux%zux%zu items; device '%s' "
                "runs at most %zu", name, local[0], local[1], local[2], dev->name, groupSize);
  if (!global[0] || !global[1] || !global[2]) return true; /* nothing to run */
  cl_event *grown = strataGrow(dev->events, &dev->capEvents, dev->numEvents + 1, sizeof *grown);
  if (!grown) return rtFailf(err, errSize, "out of memory");
  dev->events = grown;
  cl_int rc = clEnqueueNDRangeKernel(dev->queue, k, 3, NULL, global, local, 0, NULL,
                                     &dev->events[dev->numEvents]);
  if (rc != CL_SUCCESS)
    return rtFailf(err, errSize, "OpenCL: launching kernel '%s': %s (%d)", name, clErrorName(rc), (int)rc);
  dev->numEvents++;
  return true;
}

/* A launch's profiling counter `what`; false after an error. */
static bool profilingInfo(cl_event e, size_t i, cl_profiling_info what, const char *name, uint64_t *out, char *err,
                          size_t errSize) {
  cl_ulong v = 0;
  cl_int rc = clGetEventProfilingInfo(e, what, sizeof v, &v, NULL);
  if (rc != CL_SUCCESS)
    return rtFailf(err, errSize, "OpenCL: %s of launch %zu: %s (%d)", name, i, clErrorName(rc), (int)rc);
  *out = v;
  return true;
}

bool strataClFinishTimed(StrataClDevice *dev, StrataClTiming *times, char *err, size_t errSize) {
  cl_int rc = clFinish(dev->queue);
  bool ok = rc == CL_SUCCESS || CL_FAIL("clFinish", rc);
  for (size_t i = 0; ok && i < dev->numEvents; i++) {
    cl_int status = CL_COMPLETE;
    clGetEventInfo(dev->events[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    if (status < 0) ok = rtFailf(err, errSize, "OpenCL: launch %zu failed on the device: %s (%d)", i,
                              clErrorName(status), (int)status);
    ok = ok && (!times || (profilingInfo(dev->events[i], i, CL_PROFILING_COMMAND_QUEUED, "CL_PROFILING_COMMAND_QUEUED",
                                         &times[i].queued, err, errSize) &&
                           profilingInfo(dev->events[i], i, CL_PROFILING_COMMAND_START, "CL_PROFILING_COMMAND_START",
                                         &times[i].start, err, errSize) &&
                           profilingInfo(dev->events[i], i, CL_PROFILING_COMMAND_END, "CL_PROFILING_COMMAND_END",
                                         &times[i].end, err, errSize)));
  }
  releaseEvents(dev);
  return ok;
}

bool strataClFinish(StrataClDevice *dev, char *err, size_t errSize) {
  return strataClFinishTimed(dev, NULL, err, errSize);
}

size_t strataClNumPending(const StrataClDevice *dev) { return dev->numEvents; }

bool strataClEnableProfiling(StrataClDevice *dev, char *err, size_t errSize) {
  cl_command_queue_properties props = 0;
  cl_int rc = clGetDeviceInfo(dev->device, CL_DEVICE_QUEUE_PROPERTIES, sizeof props, &props, NULL);
  if (rc != CL_SUCCESS) return CL_FAIL("clGetDeviceInfo(CL_DEVICE_QUEUE_PROPERTIES)", rc);
  if (!(props & CL_QUEUE_PROFILING_ENABLE))
    return rtFailf(err, errSize, "OpenCL device '%s' cannot time kernels: its queues have no "
                "CL_QUEUE_PROFILING_ENABLE", dev->name);
  /* The queue is idle (nothing pending); a profiling one replaces it. */
  if (!strataClFinish(dev, err, errSize)) return false;
  cl_command_queue q = clCreateCommandQueue(dev->context, dev->device, CL_QUEUE_PROFILING_ENABLE, &rc);
  if (rc != CL_SUCCESS) return CL_FAIL("clCreateCommandQueue(CL_QUEUE_PROFILING_ENABLE)", rc);
  clReleaseCommandQueue(dev->queue);
  dev->queue = q;
  return true;
}
