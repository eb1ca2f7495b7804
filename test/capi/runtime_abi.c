/* The kernel ABI table (runtime/kernel_abi.def): the MLIR function type of
 * every runtime entry point, as the passes declare it. nn-to-kernels and
 * instr-to-runtime take theirs from the table; the frame functions'
 * types are the ones strata-buffer-arena declares, and index_error's the
 * one nn-to-linalg declares (those two passes still spell them out).
 * RUN: %capi/runtime_abi | FileCheck %s
 */
#include <stdio.h>
#include <string.h>
#include "kernels.h"
#define STRATA_RT_ABI_MLIR_TYPES
#include "kernel_abi.h"

int main(void) {
  char type[512];
  for (size_t i = 0; i < sizeof strataRtAbiMlirArgs / sizeof strataRtAbiMlirArgs[0]; i++) {
    const char *name = strataRtAbiMlirArgs[i].name;
    printf("%s : %s\n", name, strataRtAbiMlirType(name, type, sizeof type));
  }
  // CHECK: strata_rt_matmul_f32 : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, i64, i64, f32, f32, f32, i64, f32, f32) -> ()
  // CHECK: strata_rt_conv2d_f32 : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, f32, f32, i64, f32, f32) -> ()
  // CHECK: strata_rt_pool2d_f32 : (memref<*xf32>, memref<*xf32>, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) -> ()
  // CHECK: strata_rt_global_pool_f32 : (memref<*xf32>, memref<*xf32>, i64) -> ()
  // CHECK: strata_rt_layernorm_f32 : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, f32) -> ()
  // CHECK: strata_rt_softmax_f32 : (memref<*xf32>, memref<*xf32>, i64, i64) -> ()
  // CHECK: strata_rt_index_error : (i64, i64, i64, memref<*xi8>) -> ()
  // CHECK: strata_rt_instr_run_begin : () -> ()
  // CHECK: strata_rt_instr_trace : (memref<*xf32>, i64, i64, i64, memref<*xi8>) -> ()
  // CHECK: strata_rt_instr_profile : (i64, i64, i64, memref<*xi8>) -> ()
  // CHECK: strata_rt_instr_dump : (memref<*xf32>, i64, i64, i64, memref<*xi8>) -> ()
  // CHECK: strata_rt_frame_push : (i64) -> (memref<?xi8>)
  // CHECK: strata_rt_frame_pop : (memref<?xi8>) -> ()
  // CHECK: strata_rt_frame_slot : (memref<?xi8>, i64, i64) -> (memref<?xi8>)
  // An unknown name, and a buffer too small.
  // CHECK: unknown: null, small: null
  printf("unknown: %s, small: %s\n", strataRtAbiMlirType("strata_rt_nothing", type, sizeof type) ? "type" : "null",
         strataRtAbiMlirType("strata_rt_matmul_f32", type, 16) ? "type" : "null");
  return 0;
}
