// GEMM blocking edges of the libstrata_rt kernels against the interpreter:
// K = 600 crosses KC = 512, N = 2090 crosses NC = 2048, M = 141 crosses MC
// and leaves MR/NR tails; the conv has K = 576. Sums of ~600 products of
// magnitude ~1 differ from the interpreter's summation order by ~1e-5, so
// the absolute tolerance is 1e-4 here (values reach ~35). The Winograd
// cases (3x3 stride 1, >= 128 channels) also run with it turned off; three
// threads give the pool regions with fewer chunks than workers.
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-4 | FileCheck %s
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-4 --threads 2 | FileCheck %s
// RUN: env STRATA_RT_ISA=generic %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-4 --threads 2 | FileCheck %s
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-4 --threads 3 | FileCheck %s
// RUN: env STRATA_RT_WINOGRAD=0 %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-4 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

func.func @conv_large(%x: tensor<1x64x20x37xf32>, %w: tensor<40x64x3x3xf32>, %b: tensor<40xf32>) -> tensor<1x40x20x37xf32> {
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x20x37xf32>, tensor<40x64x3x3xf32>, tensor<40xf32>) -> tensor<1x40x20x37xf32>
  return %y : tensor<1x40x20x37xf32>
}
func.func @matmul_blocking_edges(%a: tensor<141x600xf32>, %b: tensor<600x2090xf32>) -> tensor<141x2090xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<141x600xf32>, tensor<600x2090xf32>) -> tensor<141x2090xf32>
  return %y : tensor<141x2090xf32>
}
func.func @winograd_residual_relu(%x: tensor<1x128x13x11xf32>, %w: tensor<130x128x3x3xf32>, %b: tensor<130xf32>, %r: tensor<1x130x13x11xf32>) -> tensor<1x130x13x11xf32> {
  // 3x3, stride 1, >= 128 channels, >= 32 tiles: Winograd F(2x2, 3x3); odd output sizes.
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x128x13x11xf32>, tensor<130x128x3x3xf32>, tensor<130xf32>) -> tensor<1x130x13x11xf32>
  %s = "nn.add"(%y, %r) : (tensor<1x130x13x11xf32>, tensor<1x130x13x11xf32>) -> tensor<1x130x13x11xf32>
  %z = "nn.relu"(%s) : (tensor<1x130x13x11xf32>) -> tensor<1x130x13x11xf32>
  return %z : tensor<1x130x13x11xf32>
}
func.func @winograd_constant_weights_batch(%x: tensor<2x128x17x16xf32>) -> tensor<2x128x15x16xf32> {
  %w = "nn.constant"() {value = dense<0.0078125> : tensor<128x128x3x3xf32>} : () -> tensor<128x128x3x3xf32>
  %y = "nn.conv"(%x, %w) {pads = array<i64: 0, 1, 0, 1>} : (tensor<2x128x17x16xf32>, tensor<128x128x3x3xf32>) -> tensor<2x128x15x16xf32>
  return %y : tensor<2x128x15x16xf32>
}
