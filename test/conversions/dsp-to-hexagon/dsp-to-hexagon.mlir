// dsp-to-hexagon: each instruction op becomes one HVX intrinsic call in
// 128-byte mode (vectors as <32 x i32>, pairs as <64 x i32>), and the
// result translates to LLVM IR calls of the llvm.hexagon.V6.* intrinsics.
// (test/targets/hexagon/ runs the code under qemu-hexagon.)
// RUN: strata-opt %s --dsp-to-hexagon | FileCheck %s
// RUN: strata-opt %S/../../dialects/dsp/interp.mlir --dsp-to-hexagon | FileCheck %s --check-prefix=ALL
// ALL-NOT: "dsp.
// RUN: strata-opt %s --dsp-to-hexagon --convert-vector-to-llvm --convert-arith-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts | mlir-translate-22 --mlir-to-llvmir | FileCheck %s --check-prefix=IR
// IR: call <32 x i32> @llvm.hexagon.V6.vrmpybus.acc.128B(<32 x i32> %{{.*}}, <32 x i32> %{{.*}}, i32 %{{.*}})
// IR: call <64 x i32> @llvm.hexagon.V6.vmpabus.acc.128B(<64 x i32>

// CHECK-LABEL: func.func @vrmpy
// CHECK: %[[V:.*]] = llvm.bitcast %{{.*}} : vector<128xi8> to vector<32xi32>
// CHECK: llvm.call_intrinsic "llvm.hexagon.V6.vrmpybus.acc.128B"(%{{.*}}, %[[V]], %{{.*}}) : (vector<32xi32>, vector<32xi32>, i32) -> vector<32xi32>
// CHECK: llvm.call_intrinsic "llvm.hexagon.V6.vrmpyub.128B"
// CHECK: llvm.call_intrinsic "llvm.hexagon.V6.vrmpybus.128B"
// CHECK-NOT: dsp.
func.func @vrmpy(%acc: vector<32xi32>, %v: vector<128xi8>, %rt: i32) -> (vector<32xi32>, vector<32xi32>, vector<32xi32>) {
  %d = "dsp.vrmpy_acc"(%acc, %v, %rt) : (vector<32xi32>, vector<128xi8>, i32) -> vector<32xi32>
  %u = "dsp.vrmpy"(%v, %rt) {unsigned_rt} : (vector<128xi8>, i32) -> vector<32xi32>
  %s = "dsp.vrmpy"(%v, %rt) : (vector<128xi8>, i32) -> vector<32xi32>
  return %d, %u, %s : vector<32xi32>, vector<32xi32>, vector<32xi32>
}

// Pairs: the accumulators and vmpa's two inputs go in through vcombine(hi,
// lo); a pair result comes out as its elements 0-31 (lo) and 32-63 (hi).
// CHECK-LABEL: func.func @pairs
// CHECK: %[[A1:.*]] = llvm.bitcast %arg1 : vector<64xi16> to vector<32xi32>
// CHECK: %[[A0:.*]] = llvm.bitcast %arg0 : vector<64xi16> to vector<32xi32>
// CHECK: %[[ACC:.*]] = llvm.call_intrinsic "llvm.hexagon.V6.vcombine.128B"(%[[A1]], %[[A0]])
// CHECK: %[[W:.*]] = llvm.bitcast %arg3 : vector<128xi8> to vector<32xi32>
// CHECK: %[[V:.*]] = llvm.bitcast %arg2 : vector<128xi8> to vector<32xi32>
// CHECK: %[[IN:.*]] = llvm.call_intrinsic "llvm.hexagon.V6.vcombine.128B"(%[[W]], %[[V]])
// CHECK: %[[P:.*]] = llvm.call_intrinsic "llvm.hexagon.V6.vmpabus.acc.128B"(%[[ACC]], %[[IN]], %arg4) : (vector<64xi32>, vector<64xi32>, i32) -> vector<64xi32>
// CHECK: vector.shuffle %[[P]], %[[P]] [0, 1,
// CHECK: vector.shuffle %[[P]], %[[P]] [32, 33,
// CHECK: llvm.call_intrinsic "llvm.hexagon.V6.vmpybus.128B"
// CHECK: llvm.call_intrinsic "llvm.hexagon.V6.vmpybus.acc.128B"
// CHECK: llvm.call_intrinsic "llvm.hexagon.V6.vmpabus.128B"
// CHECK: llvm.call_intrinsic "llvm.hexagon.V6.vdmpybus.128B"
// CHECK: llvm.call_intrinsic "llvm.hexagon.V6.vdmpybus.acc.128B"
func.func @pairs(%h0: vector<64xi16>, %h1: vector<64xi16>, %v: vector<128xi8>, %w: vector<128xi8>, %rt: i32)
    -> (vector<64xi16>, vector<64xi16>, vector<64xi16>, vector<64xi16>, vector<64xi16>, vector<64xi16>, vector<64xi16>, vector<64xi16>, vector<64xi16>) {
  %a:2 = "dsp.vmpa_acc"(%h0, %h1, %v, %w, %rt) : (vector<64xi16>, vector<64xi16>, vector<128xi8>, vector<128xi8>, i32) -> (vector<64xi16>, vector<64xi16>)
  %m:2 = "dsp.vmpy"(%v, %rt) : (vector<128xi8>, i32) -> (vector<64xi16>, vector<64xi16>)
  %n:2 = "dsp.vmpy_acc"(%h0, %h1, %v, %rt) : (vector<64xi16>, vector<64xi16>, vector<128xi8>, i32) -> (vector<64xi16>, vector<64xi16>)
  %p:2 = "dsp.vmpa"(%v, %w, %rt) : (vector<128xi8>, vector<128xi8>, i32) -> (vector<64xi16>, vector<64xi16>)
  %d = "dsp.vdmpy"(%v, %rt) : (vector<128xi8>, i32) -> vector<64xi16>
  %e = "dsp.vdmpy_acc"(%h0, %v, %rt) : (vector<64xi16>, vector<128xi8>, i32) -> vector<64xi16>
  return %a#0, %a#1, %m#0, %n#1, %p#0, %p#1, %d, %e, %m#1 : vector<64xi16>, vector<64xi16>, vector<64xi16>, vector<64xi16>, vector<64xi16>, vector<64xi16>, vector<64xi16>, vector<64xi16>, vector<64xi16>
}

// Saturation by element width; shuffle and deal take (Vu = second, Vv =
// first) and Rt = -element bytes.
// CHECK-LABEL: func.func @narrow_shuffle
// CHECK: llvm.call_intrinsic "llvm.hexagon.V6.vsathub.128B"
// CHECK: llvm.call_intrinsic "llvm.hexagon.V6.vsatwh.128B"
// CHECK: %[[B:.*]] = llvm.bitcast %arg3 : vector<64xi16> to vector<32xi32>
// CHECK: %[[A:.*]] = llvm.bitcast %arg2 : vector<64xi16> to vector<32xi32>
// CHECK: %[[M2:.*]] = arith.constant -2 : i32
// CHECK: llvm.call_intrinsic "llvm.hexagon.V6.vshuffvdd.128B"(%[[B]], %[[A]], %[[M2]])
// CHECK: %[[M4:.*]] = arith.constant -4 : i32
// CHECK: llvm.call_intrinsic "llvm.hexagon.V6.vdealvdd.128B"(%{{.*}}, %{{.*}}, %[[M4]])
func.func @narrow_shuffle(%w0: vector<32xi32>, %w1: vector<32xi32>, %h0: vector<64xi16>, %h1: vector<64xi16>)
    -> (vector<128xi8>, vector<64xi16>, vector<64xi16>, vector<32xi32>) {
  %s = "dsp.vsat"(%h0, %h1) : (vector<64xi16>, vector<64xi16>) -> vector<128xi8>
  %t = "dsp.vsat"(%w0, %w1) : (vector<32xi32>, vector<32xi32>) -> vector<64xi16>
  %f:2 = "dsp.vshuff"(%h0, %h1) : (vector<64xi16>, vector<64xi16>) -> (vector<64xi16>, vector<64xi16>)
  %e:2 = "dsp.vdeal"(%w0, %w1) : (vector<32xi32>, vector<32xi32>) -> (vector<32xi32>, vector<32xi32>)
  return %s, %t, %f#1, %e#0 : vector<128xi8>, vector<64xi16>, vector<64xi16>, vector<32xi32>
}
