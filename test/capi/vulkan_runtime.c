/* The Vulkan runtime (runtime/vulkan.h) on device 0: buffers written and
 * read back and their bounds, a device number that does not exist, and the
 * validation layer turning its message into an error: SPIR-V with a header
 * and nothing else (no capability, no memory model) is invalid, which the
 * layer reports when the shader module is made. Timestamps (the profile
 * tool): two timed copies read back in order, and enabling them after a
 * command is refused.
 * REQUIRES: vulkan
 * RUN: %capi/vulkan_runtime 2>&1 | FileCheck %s
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "vulkan.h"

int main(void) {
  char err[1024];
  StrataVkDevice *none = strataVkOpen(99, false, err, sizeof err);
  // CHECK: device 99: null: no Vulkan device 99 (there {{is|are}} {{[0-9]+}}
  printf("device 99: %s: %s\n", none ? "opened" : "null", err);

  StrataVkDevice *dev = strataVkOpen(0, true, err, sizeof err);
  // CHECK: device 0: opened
  printf("device 0: %s\n", dev ? "opened" : err);
  if (!dev) return 1;

  float in[5] = {1, 2, 3, 4, 5}, out[5] = {0};
  StrataVkBuffer *buf = strataVkBufferCreate(dev, sizeof in, in, err, sizeof err);
  bool ok = buf && strataVkRead(buf, 4, out, 2 * sizeof *out, err, sizeof err);
  // CHECK: read back: 2 3
  printf("read back: %g %g\n", out[0], out[1]);
  ok = ok && strataVkWrite(buf, 0, out, sizeof *out, err, sizeof err) && strataVkRead(buf, 0, out, sizeof out, err, sizeof err);
  // CHECK: written: 2 2 3
  printf("written: %g %g %g\n", out[0], out[1], out[2]);
  // CHECK: out of range: no: Vulkan: 8 bytes at 16 are outside a buffer of 20
  ok = strataVkRead(buf, 16, out, 8, err, sizeof err);
  printf("out of range: %s: %s\n", ok ? "yes" : "no", err);

  const uint32_t header[5] = {0x07230203u, 0x00010000u, 0, 16, 0};
  StrataVkShader *sh = strataVkShaderCreate(dev, header, sizeof header, err, sizeof err);
  // CHECK: bad SPIR-V: rejected: Vulkan validation layer: {{.+}}
  printf("bad SPIR-V: %s: %s\n", sh ? "accepted" : "rejected", sh ? "" : err);
  strataVkShaderDestroy(sh);

  StrataVkBuffer *dst = strataVkBufferCreate(dev, sizeof in, NULL, err, sizeof err);
  StrataVkCommands *cmds = dst ? strataVkCommandsBegin(dev, 0, 0, err, sizeof err) : NULL;
  StrataVkCopyRegion region = {.srcOffset = 0, .dstOffset = 0, .bytes = sizeof in};
  ok = cmds && strataVkCommandsEnableTimestamps(cmds, 2, err, sizeof err) &&
       strataVkCmdCopy(cmds, buf, dst, &region, 1, err, sizeof err) &&
       strataVkCmdCopy(cmds, dst, buf, &region, 1, err, sizeof err) && strataVkCommandsEnd(cmds, err, sizeof err);
  double t[4] = {0};
  for (int call = 0; ok && call < 2; call++)
    ok = strataVkSubmit(cmds, err, sizeof err) && strataVkReadTimestamps(cmds, t, err, sizeof err);
  // CHECK: timed: 2 commands, in order: yes
  printf("timed: %zu commands, in order: %s\n", cmds ? strataVkNumTimed(cmds) : 0,
         ok && t[0] >= 0 && t[1] >= t[0] && t[2] >= t[1] && t[3] >= t[2] ? "yes" : err);
  strataVkCommandsDestroy(cmds);
  cmds = strataVkCommandsBegin(dev, 0, 0, err, sizeof err);
  ok = cmds && strataVkCmdCopy(cmds, buf, dst, &region, 1, err, sizeof err) &&
       strataVkCommandsEnableTimestamps(cmds, 1, err, sizeof err);
  // CHECK: late: no: Vulkan: timestamps are enabled before any command, once
  printf("late: %s: %s\n", ok ? "yes" : "no", err);
  strataVkCommandsDestroy(cmds);
  strataVkBufferDestroy(dst);
  strataVkBufferDestroy(buf);
  strataVkClose(dev);
  return 0;
}
