// The integer element types i16, ui16, ui32 and ui64: the ops whose ONNX
// signatures allow them verify with them, and those whose kernels cannot
// hold ui64 exactly (nn.clip's f64 bounds; ONNX Clip of ui64 imports as nn.max/nn.min) or that take only unsigned
// (BitShift) or only signed (Neg) integers refuse the rest with the
// allowed list.
// RUN: strata-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @accepted
func.func @accepted(%a: tensor<4xui64>, %s: tensor<4xui16>, %i: tensor<4xi16>, %u: tensor<4xui32>) {
  // CHECK: nn.div
  %0 = "nn.div"(%a, %a) : (tensor<4xui64>, tensor<4xui64>) -> tensor<4xui64>
  %1 = "nn.mod"(%a, %a) {fmod = 1 : i64} : (tensor<4xui64>, tensor<4xui64>) -> tensor<4xui64>
  %2 = "nn.bit_shift"(%s, %s) {direction = "RIGHT"} : (tensor<4xui16>, tensor<4xui16>) -> tensor<4xui16>
  %3 = "nn.pow"(%i, %i) : (tensor<4xi16>, tensor<4xi16>) -> tensor<4xi16>
  %4 = "nn.less"(%u, %u) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  %5 = "nn.cast"(%a) : (tensor<4xui64>) -> tensor<4xf32>
  %6 = "nn.reduce_max"(%a) : (tensor<4xui64>) -> tensor<1xui64>
  %7 = "nn.neg"(%i) : (tensor<4xi16>) -> tensor<4xi16>
  %8 = "nn.arg_min"(%a) : (tensor<4xui64>) -> tensor<1xi64>
  %9 = "nn.clip"(%u) {max = 7.0 : f32} : (tensor<4xui32>) -> tensor<4xui32>
  return
}

// -----

func.func @bit_shift_signed(%x: tensor<3xi16>) {
  // expected-error@+1 {{'nn.bit_shift' op operand 'x' has element type i16; allowed: ui8, ui16, ui32, ui64}}
  %0 = "nn.bit_shift"(%x, %x) {direction = "LEFT"} : (tensor<3xi16>, tensor<3xi16>) -> tensor<3xi16>
  return
}

// -----

func.func @neg_unsigned(%x: tensor<3xui32>) {
  // expected-error@+1 {{'nn.neg' op operand 'x' has element type ui32; allowed: f32, f64, f16, i8, i32, i64, i16}}
  %0 = "nn.neg"(%x) : (tensor<3xui32>) -> tensor<3xui32>
  return
}

// -----

func.func @clip_ui64(%x: tensor<3xui64>) {
  // expected-error@+1 {{'nn.clip' op operand 'x' has element type ui64; allowed: f32, f64, f16, i8, ui8, i32, i64, i16, ui16, ui32}}
  %0 = "nn.clip"(%x) : (tensor<3xui64>) -> tensor<3xui64>
  return
}

