// dsp-to-vector: each instruction op becomes vector and arith ops on
// 1-D vectors; nothing of dsp is left. (test/capi/dsp_to_vector.c runs the
// lowered code against the emulator.)
// RUN: strata-opt %s --dsp-to-vector | FileCheck %s
// RUN: strata-opt %S/../../dialects/dsp/interp.mlir --dsp-to-vector | FileCheck %s --check-prefix=ALL
// ALL-NOT: "dsp.

// CHECK-LABEL: func.func @vrmpy
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: vector.from_elements {{.*}} : vector<4xi32>
// CHECK: arith.extui %{{.*}} : vector<128xi8> to vector<128xi32>
// CHECK: arith.muli {{.*}} : vector<128xi32>
// CHECK: vector.shuffle {{.*}} [0, 4, 8,
// CHECK: vector.shuffle {{.*}} [3, 7, 11,
// CHECK: arith.addi {{.*}} : vector<32xi32>
// CHECK-NOT: dsp.
func.func @vrmpy(%acc: vector<32xi32>, %v: vector<128xi8>, %rt: i32) -> vector<32xi32> {
  %d = "dsp.vrmpy_acc"(%acc, %v, %rt) : (vector<32xi32>, vector<128xi8>, i32) -> vector<32xi32>
  return %d : vector<32xi32>
}

// Unsigned Rt bytes are zero-extended.
// CHECK-LABEL: func.func @vrmpy_ub
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK-NOT: arith.extsi
func.func @vrmpy_ub(%v: vector<128xi8>, %rt: i32) -> vector<32xi32> {
  %d = "dsp.vrmpy"(%v, %rt) {unsigned_rt} : (vector<128xi8>, i32) -> vector<32xi32>
  return %d : vector<32xi32>
}

// vmpa: even and odd bytes of each vector, times one Rt byte each, added.
// CHECK-LABEL: func.func @vmpa
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4,
// CHECK: vector.broadcast %{{.*}} : i16 to vector<64xi16>
// CHECK: arith.muli {{.*}} : vector<64xi16>
// CHECK: arith.addi {{.*}} : vector<64xi16>
func.func @vmpa(%v0: vector<128xi8>, %v1: vector<128xi8>, %rt: i32) -> (vector<64xi16>, vector<64xi16>) {
  %lo, %hi = "dsp.vmpa"(%v0, %v1, %rt) : (vector<128xi8>, vector<128xi8>, i32) -> (vector<64xi16>, vector<64xi16>)
  return %lo, %hi : vector<64xi16>, vector<64xi16>
}

// vsat clamps with maxsi/minsi, truncates, and interleaves vv's lanes first.
// CHECK-LABEL: func.func @vsat
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: arith.trunci {{.*}} : vector<64xi16> to vector<64xi8>
// CHECK: vector.shuffle {{.*}} [0, 64, 1, 65,
func.func @vsat(%u: vector<64xi16>, %v: vector<64xi16>) -> vector<128xi8> {
  %d = "dsp.vsat"(%u, %v) : (vector<64xi16>, vector<64xi16>) -> vector<128xi8>
  return %d : vector<128xi8>
}
