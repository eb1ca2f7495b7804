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
#define STRATA_RT_ABI_LAYOUTS
#include "kernel_abi.h"

/* The number of operands in an MLIR function type's text "(a, b) -> ...". */
static size_t operandCount(const char *type) {
  if (type[1] == ')') return 0;
  size_t n = 1;
  for (const char *p = type; *p && *p != ')'; p++) n += *p == ',';
  return n;
}

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
  // The layout each memref argument takes (strata-slice-alias reads it):
  // one letter per MLIR operand of every entry.
  size_t mismatched = 0;
  for (size_t i = 0; i < sizeof strataRtAbiLayouts / sizeof strataRtAbiLayouts[0]; i++) {
    const char *name = strataRtAbiLayouts[i].name;
    if (strcmp(name, strataRtAbiMlirArgs[i].name) ||
        strlen(strataRtAbiLayouts[i].layouts) != operandCount(strataRtAbiMlirType(name, type, sizeof type)))
      mismatched++;
  }
  // CHECK: layouts: 0 mismatched
  printf("layouts: %zu mismatched\n", mismatched);
  // CHECK-NEXT: matmul aaraa, conv aapaaa, pool ap, softmax ad, global_pool ad, layernorm addd, instr_trace dd
  const char *show[][2] = {{"matmul", "strata_rt_matmul_f32"}, {"conv", "strata_rt_conv2d_f32"},
                           {"pool", "strata_rt_pool2d_f32"}, {"softmax", "strata_rt_softmax_f32"},
                           {"global_pool", "strata_rt_global_pool_f32"}, {"layernorm", "strata_rt_layernorm_f32"},
                           {"instr_trace", "strata_rt_instr_trace"}};
  for (size_t k = 0; k < sizeof show / sizeof show[0]; k++) {
    printf("%s%s ", k ? ", " : "", show[k][0]);
    for (size_t a = 0; strataRtAbiArgLayout(show[k][1], a); a++)
      if (strataRtAbiArgLayout(show[k][1], a) != '-') putchar(strataRtAbiArgLayout(show[k][1], a));
  }
  putchar('\n');
  // CHECK-NEXT: unknown entry: 0, past the last operand: 0
  printf("unknown entry: %d, past the last operand: %d\n", strataRtAbiArgLayout("strata_rt_nothing", 0),
         strataRtAbiArgLayout("strata_rt_softmax_f32", 4));
  // An unknown name, and a buffer too small.
  // CHECK: unknown: null, small: null
  printf("unknown: %s, small: %s\n", strataRtAbiMlirType("strata_rt_nothing", type, sizeof type) ? "type" : "null",
         strataRtAbiMlirType("strata_rt_matmul_f32", type, 16) ? "type" : "null");
  return 0;
}
