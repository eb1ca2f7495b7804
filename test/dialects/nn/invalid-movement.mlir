// Data movement: shapes, axes, indices, modes.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @case0(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %s = "nn.constant"() {value = dense<[4, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error@+1 {{'nn.reshape' op cannot reshape 24 elements into shape with 20 elements}}
  %r = "nn.reshape"(%x, %s) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<4x5xf32>
  return
}

// -----

func.func @case1(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %s = "nn.constant"() {value = dense<[-1, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error@+1 {{'nn.reshape' op shape has more than one -1}}
  %r = "nn.reshape"(%x, %s) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @case2(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %s = "nn.constant"() {value = dense<[6, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error@+1 {{'nn.reshape' op result type tensor<4x6xf32> does not match the inferred type tensor<6x4xf32>}}
  %r = "nn.reshape"(%x, %s) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<4x6xf32>
  return
}

// -----

func.func @case3(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  // expected-error@+1 {{'nn.squeeze' op cannot squeeze axis 1 of size 3}}
  %r = "nn.squeeze"(%x) {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @case4(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  // expected-error@+1 {{'nn.unsqueeze' op attribute 'axes' is required}}
  %r = "nn.unsqueeze"(%x) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @case5(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  // expected-error@+1 {{'nn.transpose' op attribute 'perm' is not a permutation of 0..2}}
  %r = "nn.transpose"(%x) {perm = array<i64: 0, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @case6(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %y = "nn.constant"() {value = dense<1.0> : tensor<2x4x4xf32>} : () -> tensor<2x4x4xf32>
  // expected-error@+1 {{'nn.concat' op operand 'a' of type tensor<2x3x4xf32> and operand 'b' of type tensor<2x4x4xf32> must agree on every dim but axis 0}}
  %r = "nn.concat"(%x, %y) : (tensor<2x3x4xf32>, tensor<2x4x4xf32>) -> tensor<4x3x4xf32>
  return
}

// -----

func.func @case7(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  // expected-error@+1 {{'nn.split' op 'split' has 2 sizes summing to 4; expected 2 sizes summing to 3}}
  %r:2 = "nn.split"(%x) {axis = 1 : i64, split = array<i64: 2, 2>} : (tensor<2x3x4xf32>) -> (tensor<2x2x4xf32>, tensor<2x2x4xf32>)
  return
}

// -----

func.func @case8(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %s = "nn.constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %z = "nn.constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error@+1 {{'nn.slice' op operand 'steps' has a zero step}}
  %r = "nn.slice"(%x, %s, %s, %s, %z) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<2x3x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @case9(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %s = "nn.constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error@+1 {{'operandSegmentSizes' attribute is expected but not provided}}
  %r = "nn.slice"(%x, %s, %s, %s) : (tensor<2x3x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @case10(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  // expected-error@+1 {{'nn.gather' op operand 'indices' has element type f32; allowed: i32, i64}}
  %r = "nn.gather"(%x, %x) : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4x3x4xf32>
  return
}

// -----

func.func @case11(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  // expected-error@+1 {{'nn.gather_elements' op operand 'indices' of type tensor<2xi64> must have the rank of operand 'data'}}
  %r = "nn.gather_elements"(%x, %i) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_elements_past_data(%x: tensor<2x3xf32>, %i: tensor<5x3xi64>) {
  // expected-error@+1 {{'nn.gather_elements' op dim 0 of operand 'indices' is 5, more than the 2 of operand 'data' (only the axis 1 may differ)}}
  %r = "nn.gather_elements"(%x, %i) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<5x3xi64>) -> tensor<5x3xf32>
  return
}

// -----

func.func @scatter_elements_past_data(%x: tensor<2x3xf32>, %i: tensor<5x3xi64>, %u: tensor<5x3xf32>) {
  // expected-error@+1 {{'nn.scatter_elements' op dim 0 of operand 'indices' is 5, more than the 2 of operand 'data' (only the axis 1 may differ)}}
  %r = "nn.scatter_elements"(%x, %i, %u) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<5x3xi64>, tensor<5x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @case12(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %j = "nn.constant"() {value = dense<0> : tensor<2x3x4xi64>} : () -> tensor<2x3x4xi64>
  // expected-error@+1 {{'nn.scatter_elements' op attribute 'reduction' is "sum"; expected one of none|add|mul|max|min}}
  %r = "nn.scatter_elements"(%x, %j, %x) {reduction = "sum"} : (tensor<2x3x4xf32>, tensor<2x3x4xi64>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @case13(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %s = "nn.constant"() {value = dense<[5, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error@+1 {{'nn.expand' op operand 'input' of type tensor<2x3x4xf32> does not broadcast with the shape operand at output dimension 1}}
  %r = "nn.expand"(%x, %s) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x5x4xf32>
  return
}

// -----

func.func @case14(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  // expected-error@+1 {{'nn.tile' op operand 'repeats' has 2 values for rank 3}}
  %r = "nn.tile"(%x, %i) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @case15(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %p = "nn.constant"() {value = dense<[0, 3, 0, 0, 3, 0]> : tensor<6xi64>} : () -> tensor<6xi64>
  // expected-error@+1 {{'nn.pad' op reflect padding of dim 1 must be smaller than its size 3}}
  %r = "nn.pad"(%x, %p) {mode = "reflect"} : (tensor<2x3x4xf32>, tensor<6xi64>) -> tensor<2x9x4xf32>
  return
}

// -----

func.func @case16(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %p = "nn.constant"() {value = dense<[0, 0, 0, 0, 0, 0]> : tensor<6xi64>} : () -> tensor<6xi64>
  // expected-error@+1 {{'nn.pad' op attribute 'mode' is "mirror"; expected one of constant|reflect|edge|wrap}}
  %r = "nn.pad"(%x, %p) {mode = "mirror"} : (tensor<2x3x4xf32>, tensor<6xi64>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @case17(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %sc = "nn.constant"() {value = dense<1.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %sz = "nn.constant"() {value = dense<[2, 3, 4]> : tensor<3xi64>} : () -> tensor<3xi64>
  // expected-error@+1 {{'nn.resize' op exactly one of operands 'scales' and 'sizes' must be given}}
  %r = "nn.resize"(%x, %sc, %sz) {operandSegmentSizes = array<i32: 1, 0, 1, 1>} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @case18(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %sc = "nn.constant"() {value = dense<1.0> : tensor<3xf32>} : () -> tensor<3xf32>
  // expected-error@+1 {{'nn.resize' op attribute 'mode' is "lanczos"; expected one of nearest|linear|cubic}}
  %r = "nn.resize"(%x, %sc) {mode = "lanczos", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<2x3x4xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @resize_antialias(%x: tensor<2x3x4xf32>) {
  %sc = "nn.constant"() {value = dense<0.5> : tensor<3xf32>} : () -> tensor<3xf32>
  // expected-error@+1 {{'nn.resize' op antialias is not supported}}
  %r = "nn.resize"(%x, %sc) {mode = "cubic", antialias = 1 : i64, operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<2x3x4xf32>, tensor<3xf32>) -> tensor<1x1x2xf32>
  return
}

// -----

func.func @resize_axes(%x: tensor<2x3x4xf32>) {
  %sc = "nn.constant"() {value = dense<2.0> : tensor<3xf32>} : () -> tensor<3xf32>
  // expected-error@+1 {{'nn.resize' op attribute 'axes' is not supported (give scales or sizes for every dim)}}
  %r = "nn.resize"(%x, %sc) {axes = array<i64: 2>, operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<2x3x4xf32>, tensor<3xf32>) -> tensor<4x6x8xf32>
  return
}

// -----

func.func @resize_exclude_outside(%x: tensor<2x3x4xf32>) {
  %sc = "nn.constant"() {value = dense<2.0> : tensor<3xf32>} : () -> tensor<3xf32>
  // expected-error@+1 {{'nn.resize' op attribute 'exclude_outside' must be 0 or 1}}
  %r = "nn.resize"(%x, %sc) {mode = "cubic", exclude_outside = 2 : i64, operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<2x3x4xf32>, tensor<3xf32>) -> tensor<4x6x8xf32>
  return
}

// -----

func.func @resize_crop_without_roi(%x: tensor<2x3x4xf32>) {
  %sz = "nn.constant"() {value = dense<[2, 3, 4]> : tensor<3xi64>} : () -> tensor<3xi64>
  // expected-error@+1 {{'nn.resize' op coordinate_transformation_mode tf_crop_and_resize needs the 'roi' operand}}
  %r = "nn.resize"(%x, %sz) {coordinate_transformation_mode = "tf_crop_and_resize", operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<2x3x4xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @resize_roi_length(%x: tensor<2x3x4xf32>, %roi: tensor<4xf32>) {
  %sz = "nn.constant"() {value = dense<[2, 3, 4]> : tensor<3xi64>} : () -> tensor<3xi64>
  // expected-error@+1 {{'nn.resize' op operand 'roi' must be 1-D with a start and an end per dim (6 values)}}
  %r = "nn.resize"(%x, %roi, %sz) {coordinate_transformation_mode = "tf_crop_and_resize", operandSegmentSizes = array<i32: 1, 1, 0, 1>} : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @case19(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %x4 = "nn.constant"() {value = dense<1.0> : tensor<1x3x2x2xf32>} : () -> tensor<1x3x2x2xf32>
  // expected-error@+1 {{'nn.depth_to_space' op channels (3) are not divisible by blocksize^2 = 4}}
  %r = "nn.depth_to_space"(%x4) {blocksize = 2 : i64} : (tensor<1x3x2x2xf32>) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @case20(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %x4 = "nn.constant"() {value = dense<1.0> : tensor<1x1x3x4xf32>} : () -> tensor<1x1x3x4xf32>
  // expected-error@+1 {{'nn.space_to_depth' op spatial dim 2 (3) is not divisible by blocksize 2}}
  %r = "nn.space_to_depth"(%x4) {blocksize = 2 : i64} : (tensor<1x1x3x4xf32>) -> tensor<1x4x1x2xf32>
  return
}

// -----

func.func @pad_wrap_empty(%x: tensor<0x3xf32>) {
  %p = "nn.constant"() {value = dense<[1, 0, 1, 0]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error@+1 {{'nn.pad' op wrap padding of dim 0 needs elements to copy, but the dim is empty}}
  %r = "nn.pad"(%x, %p) {mode = "wrap"} : (tensor<0x3xf32>, tensor<4xi64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @gather_empty_axis(%x: tensor<0x3xf32>, %i: tensor<2xi64>) {
  // expected-error@+1 {{'nn.gather' op axis 0 of operand 'data' is empty, so no index can be in range}}
  %r = "nn.gather"(%x, %i) : (tensor<0x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return
}

// -----

// ONNX Concat needs rank >= 1 (a scalar "concat" used to give tensor<f32>).
func.func @concat_scalars(%x: tensor<f32>) {
  // expected-error@+1 {{'nn.concat' op operand 'a' of type tensor<f32> is a scalar; concat needs rank >= 1}}
  %r = "nn.concat"(%x, %x) {axis = 0 : i64} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

// Shape arithmetic is checked: a sum or product beyond int64 says the shape
// is too large (it was signed overflow).
func.func @concat_too_large(%x: tensor<4611686018427387904xf32>) {
  // expected-error@+1 {{'nn.concat' op shape is too large: 4611686018427387904 + 4611686018427387904 overflows int64}}
  %r = "nn.concat"(%x, %x) {axis = 0 : i64} : (tensor<4611686018427387904xf32>, tensor<4611686018427387904xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @reshape_too_large(%x: tensor<2x3xf32>) {
  %s = "nn.constant"() {value = dense<[4611686018427387904, 4, -1]> : tensor<3xi64>} : () -> tensor<3xi64>
  // expected-error@+1 {{'nn.reshape' op shape is too large: 4611686018427387904 * 4 overflows int64}}
  %r = "nn.reshape"(%x, %s) : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<?x4x?xf32>
  return
}

// -----

func.func @tile_too_large(%x: tensor<3xf32>) {
  %n = "nn.constant"() {value = dense<4611686018427387904> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error@+1 {{'nn.tile' op shape is too large: 3 * 4611686018427387904 overflows int64}}
  %r = "nn.tile"(%x, %n) : (tensor<3xf32>, tensor<1xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @pad_too_large(%x: tensor<3xf32>) {
  %p = "nn.constant"() {value = dense<[9223372036854775807, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error@+1 {{'nn.pad' op shape is too large: 3 + 9223372036854775807 overflows int64}}
  %r = "nn.pad"(%x, %p) : (tensor<3xf32>, tensor<2xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @resize_too_large(%x: tensor<1x1x2x2xf32>) {
  %s = "nn.constant"() {value = dense<[1.0, 1.0, 1.0e30, 1.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  // expected-error@+1 {{'nn.resize' op shape is too large: dim 2 of size 2 scaled by 1e+30 does not fit int64}}
  %r = "nn.resize"(%x, %s) {operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x1x2x2xf32>, tensor<4xf32>) -> tensor<?x?x?x?xf32>
  return
}

// -----

func.func @depth_to_space_too_large(%x: tensor<1x4x2x2xf32>) {
  // expected-error@+1 {{'nn.depth_to_space' op shape is too large: 4294967296 * 4294967296 overflows int64}}
  %r = "nn.depth_to_space"(%x) {blocksize = 4294967296 : i64} : (tensor<1x4x2x2xf32>) -> tensor<?x?x?x?xf32>
  return
}

// -----

// ONNX: with allowzero=1 a 0 is a real size, so a -1 cannot be inferred.
func.func @reshape_allowzero_zero_and_minus_one(%x: tensor<2x3xf32>) {
  %s = "nn.constant"() {value = dense<[0, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error@+1 {{'nn.reshape' op shape has both a 0 (allowzero=1) and a -1, so the -1 cannot be inferred}}
  %r = "nn.reshape"(%x, %s) {allowzero = 1 : i64} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<0x?xf32>
  return
}

// -----

func.func @split_negative(%x: tensor<4xf32>) {
  // expected-error@+1 {{'nn.split' op 'split' has a negative size -1}}
  %a, %b = "nn.split"(%x) {split = array<i64: 5, -1>} : (tensor<4xf32>) -> (tensor<5xf32>, tensor<5xf32>)
  return
}

// -----

func.func @resize_negative_size(%x: tensor<1x1x2x2xf32>) {
  %s = "nn.constant"() {value = dense<[1, 1, -3, 2]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error@+1 {{'nn.resize' op operand 'sizes' has a negative size -3 for dim 2}}
  %r = "nn.resize"(%x, %s) {operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x1x2x2xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  return
}

// -----

func.func @expand_negative(%x: tensor<1x1xf32>) {
  %s = "nn.constant"() {value = dense<[-4, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error@+1 {{'nn.expand' op operand 'shape' has a negative size -4 at 0}}
  %r = "nn.expand"(%x, %s) : (tensor<1x1xf32>, tensor<2xi64>) -> tensor<?x2xf32>
  return
}

// -----

func.func @squeeze_axes_length(%x: tensor<2x1xf32>, %a: tensor<?xi64>) {
  // expected-error@+1 {{'nn.squeeze' op operand 'axes' must be 1-D with a static length that gives a rank in [0, 8]}}
  %r = "nn.squeeze"(%x, %a) : (tensor<2x1xf32>, tensor<?xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @axes_twice(%x: tensor<2x1xf32>, %a: tensor<1xi64>) {
  // expected-error@+1 {{'nn.unsqueeze' op 'axes' is given both as an attribute and as operand #1}}
  %r = "nn.unsqueeze"(%x, %a) {axes = array<i64: 0>} : (tensor<2x1xf32>, tensor<1xi64>) -> tensor<?x?x?xf32>
  return
}

// -----

func.func @split_sizes_count(%x: tensor<4xf32>, %s: tensor<3xi64>) {
  // expected-error@+1 {{'nn.split' op operand 'split' must be 1-D with one size per result (2)}}
  %a, %b = "nn.split"(%x, %s) : (tensor<4xf32>, tensor<3xi64>) -> (tensor<?xf32>, tensor<?xf32>)
  return
}
