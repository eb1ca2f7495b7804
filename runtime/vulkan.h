/* The Vulkan runtime: physical devices through the Vulkan loader, compute
 * pipelines from SPIR-V (with a pipeline cache), storage buffers, command
 * buffers recorded once and submitted with a fence. Plain C over the
 * Vulkan 1.1 API (no MLIR); the `vulkan` target (targets/vulkan/) drives
 * it. Every call returns an error message instead of aborting; nothing here
 * keeps global state.
 *
 *   char err[512];
 *   StrataVkDevice *dev = strataVkOpen(0, false, err, sizeof err);  (device 0)
 *   if (!dev) report(err);      // e.g. "no Vulkan driver is installed (...)"
 *   StrataVkShader *sh = strataVkShaderCreate(dev, words, bytes, err, sizeof err);
 *   StrataVkPipeline *p = strataVkPipelineCreate(dev, sh, "main", 3, err, sizeof err);
 *   StrataVkCommands *c = strataVkCommandsBegin(dev, 1, 3, err, sizeof err);
 *   strataVkCmdDispatch(c, p, buffers, 3, groups, err, sizeof err);
 *   strataVkCommandsEnd(c, err, sizeof err);
 *   strataVkSubmit(c, err, sizeof err);              (waits for its fence)
 *   ... destroy in reverse order; strataVkClose(dev).
 *
 * Devices are numbered in the loader's order, as strataVkListDevices prints
 * them. With `validate`, the instance enables VK_LAYER_KHRONOS_validation
 * and every message it sends (warning or error) fails the next call that
 * checks, with the message as the error: a test can then fail on one. */
#ifndef STRATA_RT_VULKAN_H
#define STRATA_RT_VULKAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct StrataVkDevice StrataVkDevice;
typedef struct StrataVkBuffer StrataVkBuffer;
typedef struct StrataVkShader StrataVkShader;
typedef struct StrataVkPipeline StrataVkPipeline;
typedef struct StrataVkCommands StrataVkCommands;

/* What a device's shaders may use (the features strataVkOpen enabled) and
 * its limits. */
typedef struct {
  bool int8, int16, int64, float16, float64; /* shaderInt8 ... shaderFloat64 */
  bool storage8, storage16;                  /* 8- and 16-bit storage-buffer access */
  bool infNan32, infNan64; /* shaders may keep infinities, NaNs and -0 (shaderSignedZeroInfNanPreserveFloat32/64) */
  bool infNan16;           /* the same for f16 (shaderSignedZeroInfNanPreserveFloat16) */
  bool rte16;              /* conversions to f16 may round to nearest even (shaderRoundingModeRTEFloat16) */
  uint32_t maxStorageBuffers;                /* per stage */
  uint32_t maxInvocations, maxGroupSize[3], maxGroupCount[3];
  uint64_t maxBufferRange;                   /* bytes a storage-buffer binding covers */
} StrataVkFeatures;

/* One line per device ("0: llvmpipe (LLVM 15.0.6, 256 bits) (CPU, Vulkan
 * 1.3.230)"). NULL after an error in `err` (no driver or no device is
 * one). Ownership transfers to the caller: free it with free(). */
char *strataVkListDevices(char *err, size_t errSize);

/* Opens device `index`: an instance (with the validation layer if
 * `validate`), a logical device with one compute queue, a command pool and
 * a pipeline cache. $STRATA_VK_DISABLE_FEATURES, a comma-separated list
 * of feature names (shaderFloat16, storageBuffer16BitAccess,
 * shaderRoundingModeRTEFloat16, shaderFloat64, shaderInt64, shaderInt16,
 * shaderInt8, storageBuffer8BitAccess), treats the device as lacking them:
 * they are neither enabled nor reported (to see what a lesser device is
 * refused; an unknown name is an error). NULL after an error in `err` (no driver, no such
 * device, no compute queue, validation asked for and not installed).
 * Destroy with strataVkClose, after everything made on it. */
StrataVkDevice *strataVkOpen(int index, bool validate, char *err, size_t errSize);
void strataVkClose(StrataVkDevice *dev);
/* The device's name, for messages, and its features; owned by `dev`. */
const char *strataVkDeviceName(const StrataVkDevice *dev);
const StrataVkFeatures *strataVkDeviceFeatures(const StrataVkDevice *dev);

/* A host-visible storage buffer of `bytes` bytes (at least 4), filled from
 * `init` when non-NULL, else zero. NULL after an error. Destroy with
 * strataVkBufferDestroy (NULL is ignored). */
StrataVkBuffer *strataVkBufferCreate(StrataVkDevice *dev, size_t bytes, const void *init, char *err,
                                     size_t errSize);
void strataVkBufferDestroy(StrataVkBuffer *buf);
/* Copies `bytes` bytes at byte `offset` from or to the buffer's memory
 * (call between submissions only: a submission has finished when
 * strataVkSubmit returns). */
bool strataVkRead(StrataVkBuffer *buf, size_t offset, void *dst, size_t bytes, char *err, size_t errSize);
bool strataVkWrite(StrataVkBuffer *buf, size_t offset, const void *src, size_t bytes, char *err,
                   size_t errSize);

/* A shader module from `bytes` bytes of SPIR-V words. NULL after an error.
 * Destroy with strataVkShaderDestroy after its pipelines. */
StrataVkShader *strataVkShaderCreate(StrataVkDevice *dev, const uint32_t *words, size_t bytes, char *err,
                                     size_t errSize);
void strataVkShaderDestroy(StrataVkShader *shader);

/* The compute pipeline of entry point `entry` of `shader`, whose storage
 * buffers are bindings 0..numBindings-1 of descriptor set 0 (through the
 * device's pipeline cache). NULL after an error. */
StrataVkPipeline *strataVkPipelineCreate(StrataVkDevice *dev, StrataVkShader *shader, const char *entry,
                                         size_t numBindings, char *err, size_t errSize);
void strataVkPipelineDestroy(StrataVkPipeline *pipeline);

/* A command buffer being recorded, with room for `maxDispatches`
 * dispatches binding `maxBindings` buffers in all. Every command waits for
 * the ones before it (a barrier between each), so they run in order. */
StrataVkCommands *strataVkCommandsBegin(StrataVkDevice *dev, size_t maxDispatches, size_t maxBindings, char *err,
                                        size_t errSize);
/* Records a dispatch of `groups` workgroups of `pipeline` with `buffers`
 * bound as its bindings 0..numBuffers-1 (buffers are borrowed: they must
 * outlive the commands). */
bool strataVkCmdDispatch(StrataVkCommands *cmds, StrataVkPipeline *pipeline, StrataVkBuffer *const *buffers,
                         size_t numBuffers, const uint32_t groups[3], char *err, size_t errSize);
/* Records copies of byte ranges from `src` to `dst`. */
typedef struct {
  uint64_t srcOffset, dstOffset, bytes;
} StrataVkCopyRegion;
bool strataVkCmdCopy(StrataVkCommands *cmds, StrataVkBuffer *src, StrataVkBuffer *dst,
                     const StrataVkCopyRegion *regions, size_t numRegions, char *err, size_t errSize);
bool strataVkCommandsEnd(StrataVkCommands *cmds, char *err, size_t errSize);
/* Submits the recorded commands (again at every call) and waits for them. */
bool strataVkSubmit(StrataVkCommands *cmds, char *err, size_t errSize);
void strataVkCommandsDestroy(StrataVkCommands *cmds);

/* ---- Timestamps (the profile tool) ----
 * strataVkCommandsEnableTimestamps, called right after
 * strataVkCommandsBegin, makes the buffer reset a query pool of 1 + 2 *
 * maxCommands timestamps at its top (so at every submission), write one
 * there, and write one before and one after each later dispatch and copy
 * (each when the commands before it have completed). False with a clear
 * error if the device cannot: no timestamps on its compute queue
 * (timestampValidBits 0) or no timestampPeriod. strataVkNumTimed: the
 * commands timed so far (a copy of no regions records none).
 * strataVkReadTimestamps, after strataVkSubmit: each timed command's start
 * and end in nanoseconds from the buffer's top, as times[2i], times[2i+1]. */
bool strataVkCommandsEnableTimestamps(StrataVkCommands *cmds, size_t maxCommands, char *err, size_t errSize);
size_t strataVkNumTimed(const StrataVkCommands *cmds);
bool strataVkReadTimestamps(StrataVkCommands *cmds, double *times, char *err, size_t errSize);

#endif /* STRATA_RT_VULKAN_H */
