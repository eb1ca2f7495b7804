// nn.add broadcasting and nn.relu: JIT matches the interpreter.
// RUN: strata-run %s --compare --quiet --entry same | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry scalar | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry both_sides | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry channel_bias | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry rank0 | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry f64 | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry relu4d | FileCheck %s
// CHECK: compare output #0: max abs error {{.*}}: OK

func.func @same(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %c = "nn.add"(%a, %b) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %c : tensor<3x4xf32>
}
func.func @scalar(%a: tensor<3x4xf32>, %b: tensor<f32>) -> tensor<3x4xf32> {
  %c = "nn.add"(%a, %b) : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  return %c : tensor<3x4xf32>
}
func.func @both_sides(%a: tensor<2x1x4xf32>, %b: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %c = "nn.add"(%a, %b) : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  return %c : tensor<2x3x4xf32>
}
func.func @channel_bias(%a: tensor<2x3x4x4xf32>, %b: tensor<3x1x1xf32>) -> tensor<2x3x4x4xf32> {
  %c = "nn.add"(%a, %b) : (tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) -> tensor<2x3x4x4xf32>
  %r = "nn.relu"(%c) : (tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
  return %r : tensor<2x3x4x4xf32>
}
func.func @rank0(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %c = "nn.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %c : tensor<f32>
}
func.func @f64(%a: tensor<5x1xf64>, %b: tensor<1x6xf64>) -> tensor<5x6xf64> {
  %c = "nn.add"(%a, %b) : (tensor<5x1xf64>, tensor<1x6xf64>) -> tensor<5x6xf64>
  %r = "nn.relu"(%c) : (tensor<5x6xf64>) -> tensor<5x6xf64>
  return %r : tensor<5x6xf64>
}
func.func @relu4d(%a: tensor<2x3x5x7xf32>) -> tensor<2x3x5x7xf32> {
  %r = "nn.relu"(%a) : (tensor<2x3x5x7xf32>) -> tensor<2x3x5x7xf32>
  return %r : tensor<2x3x5x7xf32>
}
