// nn.matmul (numpy.matmul semantics): JIT matches the interpreter.
// RUN: strata-run %s --compare --quiet --entry plain | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry batched | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry broadcast_batch | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry vec_mat | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry mat_vec | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry dot | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry batch_vec | FileCheck %s
// CHECK: compare output #0: max abs error {{.*}}: OK

func.func @plain(%a: tensor<7x13xf32>, %b: tensor<13x5xf32>) -> tensor<7x5xf32> {
  %c = "nn.matmul"(%a, %b) : (tensor<7x13xf32>, tensor<13x5xf32>) -> tensor<7x5xf32>
  return %c : tensor<7x5xf32>
}
func.func @batched(%a: tensor<3x4x6xf32>, %b: tensor<3x6x2xf32>) -> tensor<3x4x2xf32> {
  %c = "nn.matmul"(%a, %b) : (tensor<3x4x6xf32>, tensor<3x6x2xf32>) -> tensor<3x4x2xf32>
  return %c : tensor<3x4x2xf32>
}
func.func @broadcast_batch(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x6xf32>) -> tensor<2x5x3x6xf32> {
  %c = "nn.matmul"(%a, %b) : (tensor<2x1x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x5x3x6xf32>
  return %c : tensor<2x5x3x6xf32>
}
func.func @vec_mat(%a: tensor<4xf32>, %b: tensor<4x5xf32>) -> tensor<5xf32> {
  %c = "nn.matmul"(%a, %b) : (tensor<4xf32>, tensor<4x5xf32>) -> tensor<5xf32>
  return %c : tensor<5xf32>
}
func.func @mat_vec(%a: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<3xf32> {
  %c = "nn.matmul"(%a, %b) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  return %c : tensor<3xf32>
}
func.func @dot(%a: tensor<9xf32>, %b: tensor<9xf32>) -> tensor<f32> {
  %c = "nn.matmul"(%a, %b) : (tensor<9xf32>, tensor<9xf32>) -> tensor<f32>
  return %c : tensor<f32>
}
func.func @batch_vec(%a: tensor<2x3x4xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  %c = "nn.matmul"(%a, %b) : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return %c : tensor<2x3xf32>
}
