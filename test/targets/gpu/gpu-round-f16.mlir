// gpu-round-f16: arith-emulate-unsupported-floats marks its extf/truncf
// pairs `contract`, which canonicalize folds (truncf then extf becomes
// nothing), losing the rounding to f16 between two f16 ops. After
// gpu-round-f16 the flags are gone and every rounding stays; without it the
// chain is computed in f32 throughout.
// RUN: strata-opt %s --pass-pipeline='builtin.module(gpu.module(arith-emulate-unsupported-floats{source-types=f16 target-type=f32},math-extend-to-supported-types,gpu-round-f16,canonicalize))' | FileCheck %s
// RUN: strata-opt %s --pass-pipeline='builtin.module(gpu.module(arith-emulate-unsupported-floats{source-types=f16 target-type=f32},math-extend-to-supported-types,canonicalize))' | FileCheck %s --check-prefix=FOLDED

// CHECK-LABEL: gpu.func @chain
// CHECK: %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: %[[SH:.*]] = arith.truncf %[[S]] {{.*}}: f32 to f16
// CHECK-NEXT: %[[S32:.*]] = arith.extf %[[SH]] {{.*}}: f16 to f32
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[S32]], %{{.*}} : f32
// CHECK-NEXT: %[[MH:.*]] = arith.truncf %[[M]] {{.*}}: f32 to f16
// CHECK-NEXT: %[[M32:.*]] = arith.extf %[[MH]] {{.*}}: f16 to f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[M32]] : f32
// CHECK-NEXT: arith.truncf %[[E]] {{.*}}: f32 to f16
// CHECK-NOT: contract

// FOLDED-LABEL: gpu.func @chain
// FOLDED: %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// FOLDED-NEXT: %[[M:.*]] = arith.mulf %[[S]], %{{.*}} : f32
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @chain(%a: f16, %b: f16, %c: f16, %out: memref<1xf16>) kernel {
      %x = arith.addf %a, %b : f16
      %y = arith.mulf %x, %c : f16
      %e = math.exp %y : f16
      %i = arith.constant 0 : index
      memref.store %e, %out[%i] : memref<1xf16>
      gpu.return
    }
  }
}
