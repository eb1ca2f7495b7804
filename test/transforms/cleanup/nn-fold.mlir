// --nn-fold: dead pure ops erased, relu(relu(x)) folded, constants folded.
// RUN: strata-opt %s --split-input-file --nn-fold | FileCheck %s
// RUN: strata-opt %s --split-input-file --nn-fold=fold-limit=2 | FileCheck %s --check-prefix=LIMIT

// CHECK-LABEL: func.func @dead
// CHECK-NEXT: return %arg0
func.func @dead(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = "nn.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = "nn.add"(%a, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %x : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @relu_relu
// CHECK-NEXT: %[[R:.*]] = "nn.relu"(%arg0)
// CHECK-NEXT: return %[[R]]
func.func @relu_relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = "nn.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = "nn.relu"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %c = "nn.relu"(%b) : (tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// relu(add(c1, c2)) of constants becomes one constant, computed by the
// reference kernels; broadcasting applies.
// CHECK-LABEL: func.func @fold_constants
// CHECK-NEXT: %[[C:.*]] = "nn.constant"() {value = dense<{{\[}}[0.000000e+00, 3.000000e+00, 1.000000e+00], [0.000000e+00, 1.300000e+01, 1.100000e+01]]> : tensor<2x3xf32>}
// CHECK-NEXT: return %[[C]]
// LIMIT-LABEL: func.func @fold_constants
// LIMIT: "nn.add"
func.func @fold_constants() -> tensor<2x3xf32> {
  %a = "nn.constant"() {value = dense<[[-1.0, 2.0, 0.0], [-5.0, 12.0, 10.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %b = "nn.constant"() {value = dense<[1.0]> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = "nn.add"(%a, %b) : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  %d = "nn.relu"(%c) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %d : tensor<2x3xf32>
}

// -----

// Ops with non-constant operands and live results stay.
// CHECK-LABEL: func.func @live
// CHECK: "nn.add"
func.func @live(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = "nn.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %b = "nn.add"(%x, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %b : tensor<2xf32>
}
