// T13: an unlikely guard becomes a call of an outlined private function
// under scf.if, in either mode (an unlikely guard inside another is a
// verifier error: test/dialects/pred/invalid.mlir).
// RUN: strata-opt %s --pred-lower | FileCheck %s
// RUN: strata-opt %s --pred-lower=mode=skip | FileCheck %s

// CHECK-LABEL: func.func private @rare_unlikely0(%{{.*}}: f32, %{{.*}}: memref<f32>) -> f32 {
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: memref.store
// CHECK: return %{{.*}} : f32
// CHECK-LABEL: func.func @rare
// CHECK-SAME: (%[[P:.*]]: i1, %[[X:.*]]: f32, %[[M:.*]]: memref<f32>, %[[Q:.*]]: i1)
// CHECK: %[[R:.*]] = scf.if %[[P]] -> (f32) {
// CHECK-NEXT: %[[C:.*]] = func.call @rare_unlikely0(%[[X]], %[[M]]) : (f32, memref<f32>) -> f32
// CHECK-NEXT: scf.yield %[[C]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[X]]
// A plain guard inside an unlikely one moves into the outlined function.
// CHECK: scf.if %[[Q]]
// CHECK-NEXT: func.call @rare_unlikely1
func.func @rare(%p: i1, %x: f32, %m: memref<f32>, %q: i1) -> f32 {
  %r = "pred.guard"(%p, %x) ({
    %y = arith.mulf %x, %x : f32
    memref.store %y, %m[] : memref<f32>
    "gpu.yield"(%y) : (f32) -> ()
  }) {unlikely} : (i1, f32) -> f32
  "pred.guard"(%q) ({
    "pred.guard"(%q) ({
      memref.store %x, %m[] : memref<f32>
      "gpu.yield"() : () -> ()
    }) : (i1) -> ()
    "gpu.yield"() : () -> ()
  }) {unlikely} : (i1) -> ()
  return %r : f32
}
