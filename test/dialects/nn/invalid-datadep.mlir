// Ops whose result shape depends on data, MaxPool with Indices and MaxUnpool: their verifier diagnostics.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @non_zero_scalar(%x: tensor<f32>) {
  // expected-error@+1 {{'nn.non_zero' op operand 'x' must have rank >= 1 (NonZero of a scalar has no agreed shape)}}
  %0 = "nn.non_zero"(%x) : (tensor<f32>) -> tensor<0x?xi64>
  return
}

// -----

func.func @non_zero_static_count(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'nn.non_zero' op result #0: dim 1 depends on the input's values and must be '?'}}
  %0 = "nn.non_zero"(%x) : (tensor<2x3xf32>) -> tensor<2x6xi64>
  return
}

// -----

func.func @compress_condition_type(%x: tensor<4xf32>, %c: tensor<4xi32>) {
  // expected-error@+1 {{'nn.compress' op operand 'condition' has element type i32; allowed: i1}}
  %0 = "nn.compress"(%x, %c) : (tensor<4xf32>, tensor<4xi32>) -> tensor<?xf32>
  return
}

// -----

func.func @compress_condition_rank(%x: tensor<4xf32>, %c: tensor<2x2xi1>) {
  // expected-error@+1 {{'nn.compress' op operand 'condition' of type tensor<2x2xi1> must be 1-D}}
  %0 = "nn.compress"(%x, %c) : (tensor<4xf32>, tensor<2x2xi1>) -> tensor<?xf32>
  return
}

// -----

func.func @compress_condition_longer(%x: tensor<3x2xf32>, %c: tensor<3xi1>) {
  // expected-error@+1 {{'nn.compress' op operand 'condition' has 3 elements, more than the 2 slices along 'axis'}}
  %0 = "nn.compress"(%x, %c) {axis = 1 : i64} : (tensor<3x2xf32>, tensor<3xi1>) -> tensor<3x?xf32>
  return
}

// -----

func.func @compress_condition_longer_flat(%x: tensor<2x2xf32>, %c: tensor<5xi1>) {
  // expected-error@+1 {{'nn.compress' op operand 'condition' has 5 elements, more than the 4 elements of the flattened input}}
  %0 = "nn.compress"(%x, %c) : (tensor<2x2xf32>, tensor<5xi1>) -> tensor<?xf32>
  return
}

// -----

func.func @compress_axis(%x: tensor<3x2xf32>, %c: tensor<2xi1>) {
  // expected-error@+1 {{'nn.compress' op}}
  %0 = "nn.compress"(%x, %c) {axis = 2 : i64} : (tensor<3x2xf32>, tensor<2xi1>) -> tensor<3x?xf32>
  return
}

// -----

func.func @unique_sorted(%x: tensor<4xf32>) {
  // expected-error@+1 {{'nn.unique' op attribute 'sorted' must be 0 or 1, not 2}}
  %y, %i, %v, %c = "nn.unique"(%x) {sorted = 2 : i64} : (tensor<4xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<4xi64>, tensor<?xi64>)
  return
}

// -----

func.func @unique_results(%x: tensor<4xf32>) {
  // expected-error@+1 {{op expects exactly 4 results, but got 1}}
  %y = "nn.unique"(%x) : (tensor<4xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @unique_inverse(%x: tensor<3x5xf32>) {
  // expected-error@+1 {{'nn.unique' op result #2 type tensor<15xi64> does not match the inferred type tensor<5xi64>}}
  %y, %i, %v, %c = "nn.unique"(%x) {axis = 1 : i64} : (tensor<3x5xf32>) -> (tensor<3x?xf32>, tensor<?xi64>, tensor<15xi64>, tensor<?xi64>)
  return
}

// -----

func.func @nms_boxes(%b: tensor<1x6x5xf32>, %s: tensor<1x1x6xf32>) {
  // expected-error@+1 {{'nn.non_max_suppression' op operand 'boxes' of type tensor<1x6x5xf32> must be [batches, boxes, 4]}}
  %0 = "nn.non_max_suppression"(%b, %s) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>} : (tensor<1x6x5xf32>, tensor<1x1x6xf32>) -> tensor<?x3xi64>
  return
}

// -----

func.func @nms_boxes_count(%b: tensor<1x6x4xf32>, %s: tensor<1x1x5xf32>) {
  // expected-error@+1 {{'nn.non_max_suppression' op operand 'boxes' of type tensor<1x6x4xf32> and operand 'scores' of type tensor<1x1x5xf32> disagree on the number of boxes}}
  %0 = "nn.non_max_suppression"(%b, %s) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>} : (tensor<1x6x4xf32>, tensor<1x1x5xf32>) -> tensor<?x3xi64>
  return
}

// -----

func.func @nms_batches(%b: tensor<2x6x4xf32>, %s: tensor<1x1x6xf32>) {
  // expected-error@+1 {{disagree on the number of batches}}
  %0 = "nn.non_max_suppression"(%b, %s) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>} : (tensor<2x6x4xf32>, tensor<1x1x6xf32>) -> tensor<?x3xi64>
  return
}

// -----

func.func @nms_max_type(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>, %m: tensor<1xi32>) {
  // expected-error@+1 {{'nn.non_max_suppression' op operand 'max_output_boxes_per_class' has element type i32; allowed: i64}}
  %0 = "nn.non_max_suppression"(%b, %s, %m) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, tensor<1xi32>) -> tensor<?x3xi64>
  return
}

// -----

func.func @nms_threshold_shape(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>, %t: tensor<2xf32>) {
  // expected-error@+1 {{'nn.non_max_suppression' op operand 'iou_threshold' of type tensor<2xf32> must be a scalar or hold one element}}
  %0 = "nn.non_max_suppression"(%b, %s, %t) {operandSegmentSizes = array<i32: 1, 1, 0, 1, 0>} : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, tensor<2xf32>) -> tensor<?x3xi64>
  return
}

// -----

func.func @nms_center(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>) {
  // expected-error@+1 {{'nn.non_max_suppression' op attribute 'center_point_box' must be 0 or 1, not 3}}
  %0 = "nn.non_max_suppression"(%b, %s) {center_point_box = 3 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>} : (tensor<1x6x4xf32>, tensor<1x1x6xf32>) -> tensor<?x3xi64>
  return
}

// -----

func.func @nms_scores_type(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf64>) {
  // expected-error@+1 {{'nn.non_max_suppression' op operand 'scores' has element type f64, expected f32 like operand 'boxes'}}
  %0 = "nn.non_max_suppression"(%b, %s) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>} : (tensor<1x6x4xf32>, tensor<1x1x6xf64>) -> tensor<?x3xi64>
  return
}

// -----

func.func @max_pool_storage_order(%x: tensor<1x1x4x4xf32>) {
  // expected-error@+1 {{'nn.max_pool_with_indices' op attribute 'storage_order' must be 0 or 1, not 2}}
  %y, %i = "nn.max_pool_with_indices"(%x) {kernel_shape = array<i64: 2, 2>, storage_order = 2 : i64} : (tensor<1x1x4x4xf32>) -> (tensor<1x1x3x3xf32>, tensor<1x1x3x3xi64>)
  return
}

// -----

func.func @max_pool_indices_type(%x: tensor<1x1x4x4xf32>) {
  // expected-error@+1 {{'nn.max_pool_with_indices' op result #1 type tensor<1x1x3x3xi32> does not match the inferred type tensor<1x1x3x3xi64>}}
  %y, %i = "nn.max_pool_with_indices"(%x) {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> (tensor<1x1x3x3xf32>, tensor<1x1x3x3xi32>)
  return
}

// -----

func.func @max_unpool_output_shape(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>) {
  %s = "nn.constant"() {value = dense<[1, 1, 5, 3]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error@+1 {{'nn.max_unpool' op operand 'output_shape' extent 3 along dim 3 is below the default output shape's 4}}
  %0 = "nn.max_unpool"(%x, %i, %s) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>, tensor<4xi64>) -> tensor<1x1x5x3xf32>
  return
}

// -----

func.func @max_unpool_output_shape_rank(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>, %s: tensor<3xi64>) {
  // expected-error@+1 {{'nn.max_unpool' op operand 'output_shape' must be 1-D with one extent per dim of 'x' (4)}}
  %0 = "nn.max_unpool"(%x, %i, %s) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>, tensor<3xi64>) -> tensor<?x?x?x?xf32>
  return
}

// -----

func.func @max_unpool_indices(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x3xi64>) {
  // expected-error@+1 {{'nn.max_unpool' op operand 'indices' of type tensor<1x1x2x3xi64> must have the shape of operand 'x' of type tensor<1x1x2x2xf32>}}
  %0 = "nn.max_unpool"(%x, %i) {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x3xi64>) -> tensor<1x1x3x3xf32>
  return
}
