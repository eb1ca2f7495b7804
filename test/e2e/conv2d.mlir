// nn.conv2d through the CPU pipeline matches the reference interpreter on
// seeded random inputs, across strides/pads/dilations/groups/bias/batch.
// RUN: strata-run %s --compare --quiet --entry basic | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry stride_pad_bias | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry dilation_asym_pads | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry groups | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry depthwise_bias | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry pointwise_batch | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry rect_kernel_mixed_stride | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry unit_dims --seed 7 | FileCheck %s
// CHECK: compare output #0: max abs error {{.*}}: OK

func.func @basic(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %y = "nn.conv"(%x, %w) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}
func.func @stride_pad_bias(%x: tensor<1x3x9x9xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x5x5x5xf32> {
  %y = "nn.conv"(%x, %w, %b) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x9x9xf32>, tensor<5x3x3x3xf32>, tensor<5xf32>) -> tensor<1x5x5x5xf32>
  return %y : tensor<1x5x5x5xf32>
}
func.func @dilation_asym_pads(%x: tensor<1x2x9x9xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x7x6xf32> {
  %y = "nn.conv"(%x, %w) {dilations = array<i64: 2, 2>, pads = array<i64: 0, 1, 2, 0>} : (tensor<1x2x9x9xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x7x6xf32>
  return %y : tensor<1x3x7x6xf32>
}
func.func @groups(%x: tensor<1x4x6x6xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x4x4xf32> {
  %y = "nn.conv"(%x, %w) {group = 2 : i64} : (tensor<1x4x6x6xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x4x4xf32>
  return %y : tensor<1x6x4x4xf32>
}
func.func @depthwise_bias(%x: tensor<2x4x7x7xf32>, %w: tensor<4x1x3x3xf32>, %b: tensor<4xf32>) -> tensor<2x4x4x4xf32> {
  %y = "nn.conv"(%x, %w, %b) {group = 4 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<2x4x7x7xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>) -> tensor<2x4x4x4xf32>
  return %y : tensor<2x4x4x4xf32>
}
func.func @pointwise_batch(%x: tensor<3x5x4x4xf32>, %w: tensor<7x5x1x1xf32>) -> tensor<3x7x4x4xf32> {
  %y = "nn.conv"(%x, %w) : (tensor<3x5x4x4xf32>, tensor<7x5x1x1xf32>) -> tensor<3x7x4x4xf32>
  return %y : tensor<3x7x4x4xf32>
}
func.func @rect_kernel_mixed_stride(%x: tensor<1x2x8x7xf32>, %w: tensor<3x2x3x1xf32>) -> tensor<1x3x3x7xf32> {
  %y = "nn.conv"(%x, %w) {strides = array<i64: 2, 1>} : (tensor<1x2x8x7xf32>, tensor<3x2x3x1xf32>) -> tensor<1x3x3x7xf32>
  return %y : tensor<1x3x3x7xf32>
}
func.func @unit_dims(%x: tensor<1x1x1x1xf32>, %w: tensor<1x1x1x1xf32>, %b: tensor<1xf32>) -> tensor<1x1x3x3xf32> {
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>) -> tensor<1x1x3x3xf32>
  return %y : tensor<1x1x3x3xf32>
}
