// The random ops lower to one linalg.generic each whose body computes the
// element's generator word (nn_random.h) from its row-major index in i64
// arith: key + (k + 1) * GAMMA, then splitmix64's finalizer; the value in
// f64 (Box-Muller through math.log/cos for the normal), rounded to the
// result type through f32. numerics: test/frontends/onnx/random.test.
// RUN: strata-opt %s --split-input-file --nn-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @uniform
// CHECK: linalg.generic {{.*}}outs(
// CHECK: linalg.index 0
// CHECK: arith.muli %{{.*}}, %c3
// CHECK: linalg.index 1
// CHECK: arith.index_cast
// CHECK: arith.constant -7046029254386353131 : i64
// CHECK: arith.constant -5278393320434088484 : i64
// CHECK: arith.shrui %{{.*}}, %c30_i64
// CHECK: arith.constant -4658895280553007687 : i64
// CHECK: arith.shrui %{{.*}}, %c27_i64
// CHECK: arith.constant -7723592293110705685 : i64
// CHECK: arith.shrui %{{.*}}, %c31_i64
// CHECK: arith.shrui %{{.*}}, %c11_i64
// CHECK: arith.constant 1.1102230246251565E-16 : f64
// CHECK: arith.uitofp
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @uniform() -> tensor<2x3xf16> {
  %0 = "nn.random_uniform"() {shape = array<i64: 2, 3>, dtype = f16, low = -1.0 : f64, high = 1.0 : f64, seed = 5 : i64} : () -> tensor<2x3xf16>
  return %0 : tensor<2x3xf16>
}

// -----

// CHECK-LABEL: func.func @normal
// CHECK: linalg.generic
// CHECK: arith.shrui %{{.*}}, %c32_i64
// CHECK: arith.andi %{{.*}}, %c4294967295_i64
// CHECK: math.log
// CHECK: math.sqrt
// CHECK: math.cos
// CHECK-NOT: arith.truncf
// CHECK: linalg.yield %{{.*}} : f64
func.func @normal() -> tensor<4xf64> {
  %0 = "nn.random_normal"() {shape = array<i64: 4>, dtype = f64, seed = 5 : i64} : () -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// CHECK-LABEL: func.func @bernoulli
// CHECK: linalg.generic {{.*}}ins(%arg0 : tensor<3xf32>) outs(
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: arith.cmpf olt
// CHECK: arith.extui %{{.*}} : i1 to i8
func.func @bernoulli(%p: tensor<3xf32>) -> tensor<3xui8> {
  %0 = "nn.bernoulli"(%p) {dtype = ui8, seed = 0 : i64} : (tensor<3xf32>) -> tensor<3xui8>
  return %0 : tensor<3xui8>
}
