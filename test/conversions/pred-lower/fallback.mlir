// --pred-lower (masked) keeps a guard as a branch when its body has an op
// that may trap on garbage or has effects, with a remark naming it.
// RUN: strata-opt %s --pred-lower --verify-diagnostics | FileCheck %s

// A load from a memref of dynamic size: index 0 may be out of bounds too.
// CHECK-LABEL: func.func @dynamic_load
// CHECK: scf.if %arg0 -> (f32) {
// CHECK-NEXT: memref.load %arg1[%arg2]
func.func @dynamic_load(%p: i1, %m: memref<?xf32>, %i: index, %d: f32) -> f32 {
  %r = "pred.guard"(%p, %d) ({
    // expected-remark@+1 {{pred-lower: this guard stays a branch (skip form): 'memref.load' may trap or has effects when its predicate is false}}
    %v = memref.load %m[%i] : memref<?xf32>
    "gpu.yield"(%v) : (f32) -> ()
  }) : (i1, f32) -> f32
  return %r : f32
}

// A while loop on garbage state might never end.
// CHECK-LABEL: func.func @inner_while
// CHECK: scf.if %arg0 -> (f32) {
// CHECK-NEXT: scf.while
func.func @inner_while(%p: i1, %x: f32) -> f32 {
  %lim = arith.constant 100.0 : f32
  %r = "pred.guard"(%p, %x) ({
    // expected-remark@+1 {{'scf.while' may trap or has effects}}
    %w = scf.while (%v = %x) : (f32) -> f32 {
      %lt = arith.cmpf olt, %v, %lim : f32
      scf.condition(%lt) %v : f32
    } do {
    ^bb0(%v: f32):
      %d = arith.addf %v, %v : f32
      scf.yield %d : f32
    }
    "gpu.yield"(%w) : (f32) -> ()
  }) : (i1, f32) -> f32
  return %r : f32
}

// Integer division inside a linalg body: the divisor is forced inside it.
// CHECK-LABEL: func.func @nested_division
// CHECK-NOT: scf.if
// CHECK: linalg.generic
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: %[[D:.*]] = arith.select %arg0, %{{.*}}, %[[ONE]] : i32
// CHECK: arith.divui %{{.*}}, %[[D]]
func.func @nested_division(%p: i1, %a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %r = "pred.guard"(%p, %a) ({
    %q = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%a, %b : tensor<4xi32>, tensor<4xi32>) outs(%a : tensor<4xi32>) {
    ^bb0(%x: i32, %y: i32, %o: i32):
      %v = arith.divui %x, %y : i32
      linalg.yield %v : i32
    } -> tensor<4xi32>
    "gpu.yield"(%q) : (tensor<4xi32>) -> ()
  }) : (i1, tensor<4xi32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// Ops on tensors of dynamic shape take their sizes from run-time values and
// check them at run time (a Reshape's element count): on the values of a
// path not taken a check may fail, so they are not speculated.
// CHECK-LABEL: func.func @dynamic_shape
// CHECK: scf.if %arg0 -> (tensor<2xf32>) {
// CHECK-NEXT: "nn.reshape"
func.func @dynamic_shape(%p: i1, %x: tensor<?xf32>, %d: tensor<2xf32>) -> tensor<2xf32> {
  %s = "nn.constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %r = "pred.guard"(%p, %d) ({
    // expected-remark@+1 {{pred-lower: this guard stays a branch (skip form): 'nn.reshape' may trap or has effects when its predicate is false}}
    %y = "nn.reshape"(%x, %s) : (tensor<?xf32>, tensor<1xi64>) -> tensor<2xf32>
    "gpu.yield"(%y) : (tensor<2xf32>) -> ()
  }) : (i1, tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
