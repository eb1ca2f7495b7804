// pred.guard in generic form: it verifies and round-trips, with results,
// without results (a guard over memory), and marked unlikely.
// RUN: strata-opt %s | strata-opt | FileCheck %s

// CHECK-LABEL: func.func @with_results
// CHECK: %[[R:.*]] = "pred.guard"(%{{.*}}, %{{.*}}) ({
// CHECK-NEXT: %[[Y:.*]] = "nn.relu"
// CHECK-NEXT: gpu.yield %[[Y]] : tensor<4xf32>
// CHECK-NEXT: }) : (i1, tensor<4xf32>) -> tensor<4xf32>
func.func @with_results(%p: i1, %x: tensor<4xf32>, %old: tensor<4xf32>) -> tensor<4xf32> {
  %r = "pred.guard"(%p, %old) ({
    %y = "nn.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    "gpu.yield"(%y) : (tensor<4xf32>) -> ()
  }) : (i1, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @no_results
// CHECK: "pred.guard"(%{{.*}}) ({
// CHECK: memref.store
// CHECK: gpu.yield
// CHECK-NEXT: }) : (i1) -> ()
func.func @no_results(%p: i1, %m: memref<4xf32>, %i: index, %v: f32) {
  "pred.guard"(%p) ({
    memref.store %v, %m[%i] : memref<4xf32>
    "gpu.yield"() : () -> ()
  }) : (i1) -> ()
  return
}

// CHECK-LABEL: func.func @unlikely
// CHECK: "pred.guard"(%{{.*}}, %{{.*}}) ({
// CHECK: }) {unlikely} : (i1, f32) -> f32
func.func @unlikely(%p: i1, %x: f32) -> f32 {
  %r = "pred.guard"(%p, %x) ({
    %y = arith.mulf %x, %x : f32
    "gpu.yield"(%y) : (f32) -> ()
  }) {unlikely} : (i1, f32) -> f32
  return %r : f32
}
