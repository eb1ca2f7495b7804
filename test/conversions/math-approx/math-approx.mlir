// --strata-math-approx: f32 math.exp/tanh/erf become arith polynomials (no
// libm call left to stop vectorization); other types stay.
// RUN: strata-opt %s --strata-math-approx | FileCheck %s

// CHECK-LABEL: func.func @approximated
// CHECK-NOT: math.exp
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK: arith.bitcast
// CHECK: return
func.func @approximated(%x: f32) -> (f32, f32, f32) {
  %e = math.exp %x : f32
  %t = math.tanh %x : f32
  %r = math.erf %x : f32
  return %e, %t, %r : f32, f32, f32
}

// CHECK-LABEL: func.func @kept
// CHECK: math.exp %{{.*}} : f64
// CHECK: math.tanh %{{.*}} : f16
// CHECK: math.erf %{{.*}} : vector<4xf32>
func.func @kept(%x: f64, %h: f16, %v: vector<4xf32>) -> (f64, f16, vector<4xf32>) {
  %e = math.exp %x : f64
  %t = math.tanh %h : f16
  %r = math.erf %v : vector<4xf32>
  return %e, %t, %r : f64, f16, vector<4xf32>
}
