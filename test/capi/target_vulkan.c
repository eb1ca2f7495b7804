/* The vulkan target through the C API: strataCompile with a target name and
 * a device number, invoked twice on the same executable (its buffers and
 * command buffer made once), the kernel launches a call runs
 * (strataExecutableCallStats), an input of the wrong size refused, a device
 * that does not exist refused at the module, and strataEmit's SPIR-V.
 * REQUIRES: vulkan
 * RUN: %capi/target_vulkan 2>&1 | FileCheck %s
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strata/strata.h"

static void onDiag(const StrataDiagnostic *d, void *user) {
  (void)user;
  printf("diag: %s: %s\n", d->location, d->message);
}

static const char *kModel =
    "func.func @f(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {\n"
    "  %s = \"nn.mul\"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>\n"
    "  %r = \"nn.relu\"(%s) : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
    "  return %r : tensor<2x3xf32>\n"
    "}\n";

int main(void) {
  StrataContext *ctx = strataContextCreate();
  strataContextSetDiagnosticCallback(ctx, onDiag, NULL);
  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(kModel), "model.mlir");
  StrataCompileOptions o = {.device = "0"};
  StrataExecutable *exe = strataCompile(ctx, m, "vulkan", &o);
  // CHECK: compiled: yes
  printf("compiled: %s\n", exe ? "yes" : "no");
  if (!exe) return 1;
  int64_t da[2] = {2, 3}, db[1] = {3};
  StrataTensor *a = strataTensorCreate(STRATA_DTYPE_F32, 2, da), *b = strataTensorCreate(STRATA_DTYPE_F32, 1, db);
  StrataTensor *y = strataTensorCreate(STRATA_DTYPE_F32, 2, da);
  const float av[6] = {1, -2, 3, -4, 5, -6}, bv[3] = {2, 3, -1};
  memcpy(a->data, av, sizeof av);
  memcpy(b->data, bv, sizeof bv);
  StrataTensor *in[2] = {a, b};
  for (int call = 0; call < 2; call++) {
    bool ok = mlirLogicalResultIsSuccess(strataExecutableInvoke(exe, "f", in, 2, &y, 1));
    const float *r = y->data;
    // CHECK: call 0: ok 2 0 0 0 15 6
    // CHECK: call 1: ok 4 0 0 0 30 12
    printf("call %d: %s %g %g %g %g %g %g\n", call, ok ? "ok" : "failed", r[0], r[1], r[2], r[3], r[4], r[5]);
    for (int i = 0; i < 6; i++) ((float *)a->data)[i] *= 2;
  }
  // CHECK: diag: model.mlir:1:1: @f: input 1 has 8 bytes, the function takes 12
  int64_t d2[1] = {2};
  StrataTensor *small = strataTensorCreate(STRATA_DTYPE_F32, 1, d2);
  StrataTensor *bad[2] = {a, small};
  strataExecutableInvoke(exe, "f", bad, 2, &y, 1);
  // What a call runs (the fixed mode fuses mul and relu): one kernel.
  // CHECK: stats: 1 launches, 0 copies; unknown: none
  StrataCallStats st;
  bool known = strataExecutableCallStats(exe, "f", &st), unknown = strataExecutableCallStats(exe, "g", &st);
  if (known) printf("stats: %zu launches, %zu copies; unknown: %s\n", st.launches, st.copies, unknown ? "found" : "none");
  strataExecutableDestroy(exe);

  // CHECK: diag: model.mlir:1:1: vulkan target: no Vulkan device 7
  StrataCompileOptions o7 = {.device = "7"};
  StrataExecutable *none = strataCompile(ctx, m, "vulkan", &o7);
  printf("device 7: %s\n", none ? "compiled" : "refused");

  size_t size = 0;
  char *spv = strataEmit(ctx, m, "vulkan", NULL, &size);
  uint32_t magic = 0;
  if (spv && size >= 4) memcpy(&magic, spv, 4);
  // CHECK: emit: 0x7230203, whole words: yes
  printf("emit: %#x, whole words: %s\n", magic, size % 4 == 0 ? "yes" : "no");
  free(spv);
  strataTensorDestroy(a), strataTensorDestroy(b), strataTensorDestroy(y), strataTensorDestroy(small);
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  return 0;
}
