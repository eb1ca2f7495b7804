// A small CNN end to end on --target vulkan against the interpreter, in each
// fusion mode, with the validation layer on (lit.cfg.py): conv with bias,
// relu, max-pool, flatten, gemm with weights given as constants, softmax.
// REQUIRES: vulkan
// RUN: strata-run %s --target vulkan --no-cache --compare --quiet | FileCheck %s
// RUN: strata-run %s --target vulkan --no-cache --compare --quiet --fusion none | FileCheck %s
// RUN: strata-run %s --target vulkan --no-cache --compare --quiet --fusion dnnfusion | FileCheck %s
// RUN: strata-run %s --target vulkan --no-cache --compare --quiet --seed 5 --device 0 | FileCheck %s
// The buffers, weights and command buffer are made once and serve every
// call (--repeat calls it again).
// RUN: strata-run %s --target vulkan --no-cache --compare --quiet --repeat 3 | FileCheck %s
// CHECK: compare output #0: max abs error {{.*}}: OK

func.func @cnn(%x: tensor<1x3x12x12xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x10xf32> {
  %c = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x12x12xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x12x12xf32>
  %r = "nn.relu"(%c) : (tensor<1x8x12x12xf32>) -> tensor<1x8x12x12xf32>
  %p = "nn.max_pool"(%r) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x12x12xf32>) -> tensor<1x8x6x6xf32>
  %f = "nn.flatten"(%p) {axis = 1 : i64} : (tensor<1x8x6x6xf32>) -> tensor<1x288xf32>
  %k = "nn.constant"() {value = dense<0.01> : tensor<288x10xf32>} : () -> tensor<288x10xf32>
  %kb = "nn.constant"() {value = dense<[0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]> : tensor<10xf32>} : () -> tensor<10xf32>
  %g = "nn.gemm"(%f, %k, %kb) : (tensor<1x288xf32>, tensor<288x10xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  %s = "nn.softmax"(%g) {axis = 1 : i64} : (tensor<1x10xf32>) -> tensor<1x10xf32>
  return %s : tensor<1x10xf32>
}
