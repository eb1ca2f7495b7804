// dsp-pack: SDA packing of the largest block on the HVX machine model.
// RUN: strata-opt %s --dsp-pack | FileCheck %s
// RUN: strata-opt %s "--dsp-pack=report=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
// RUN: strata-opt %s "--dsp-pack=mode=soft-to-hard" | FileCheck %s --check-prefix=HARD
// RUN: not strata-opt %s "--dsp-pack=mode=fast" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not strata-opt %s "--dsp-pack=w=2" 2>&1 | FileCheck %s --check-prefix=BAD

// Fig. 4.4(a): a load and the add reading it depend softly: one packet of
// 4 modeled cycles, where soft-to-hard needs two of 3 cycles each.
// CHECK-LABEL: func.func @fig44a
// CHECK: vector.load {{.*}}dsp.packet = 0
// CHECK: arith.addi {{.*}}dsp.packet = 0
// HARD-LABEL: func.func @fig44a
// HARD: vector.load {{.*}}dsp.packet = 0
// HARD: arith.addi {{.*}}dsp.packet = 1
// REPORT: pack.mlir:[[@LINE+1]]:1: remark: dsp-pack (sda): 2 instructions in 1 packets, 4 modeled cycles (soft-to-hard: 2 packets, 6 cycles; soft-to-none: 1 packets, 4 cycles)
func.func @fig44a(%m: memref<256xi8>) -> vector<128xi8> {
  %c0 = arith.constant 0 : index
  %v = vector.load %m[%c0] : memref<256xi8>, vector<128xi8>
  %a = arith.addi %v, %v : vector<128xi8>
  return %a : vector<128xi8>
}

// Fig. 4.5: R = A + B + C, uint8 in, int16 out. One load unit a packet
// makes it at least 3 packets; SDA needs 4, soft-to-hard 2 more.
// REPORT: pack.mlir:[[@LINE+1]]:1: remark: dsp-pack (sda): 9 instructions in 4 packets, 14 modeled cycles (soft-to-hard: 6 packets, 16 cycles; soft-to-none: 4 packets, 14 cycles)
func.func @sum3(%a: memref<128xi8>, %b: memref<128xi8>, %c: memref<128xi8>, %r: memref<128xi16>) {
  %c0 = arith.constant 0 : index
  %va = vector.load %a[%c0] : memref<128xi8>, vector<128xi8>
  %vb = vector.load %b[%c0] : memref<128xi8>, vector<128xi8>
  %vc = vector.load %c[%c0] : memref<128xi8>, vector<128xi8>
  %wa = arith.extui %va : vector<128xi8> to vector<128xi16>
  %wb = arith.extui %vb : vector<128xi8> to vector<128xi16>
  %wc = arith.extui %vc : vector<128xi8> to vector<128xi16>
  %s = arith.addi %wa, %wb : vector<128xi16>
  %t = arith.addi %s, %wc : vector<128xi16>
  vector.store %t, %r[%c0] : memref<128xi16>, vector<128xi16>
  return
}

// The largest block is the loop body. vmpy and vmpa each take both
// multiply units, so they never share a packet; vsat waits for both; the
// vrmpy and the store read it and share the last packet.
// CHECK-LABEL: func.func @kernel
// CHECK: scf.for
// CHECK: %[[V:.*]] = vector.load {{.*}}dsp.packet = 0
// CHECK: "dsp.vmpy"(%[[V]], %{{.*}}) {dsp.packet = 0
// CHECK: "dsp.vmpa"(%[[V]], %[[V]], %{{.*}}) {dsp.packet = 1
// CHECK: "dsp.vsat"{{.*}}dsp.packet = 2
// CHECK: "dsp.vrmpy"{{.*}}dsp.packet = 3
// CHECK: vector.store {{.*}}dsp.packet = 3
// REPORT: pack.mlir:[[@LINE+1]]:1: remark: dsp-pack (sda): 6 instructions in 4 packets, 13 modeled cycles (soft-to-hard: 5 packets, 15 cycles; soft-to-none: 4 packets, 13 cycles)
func.func @kernel(%m: memref<256xi8>, %rt: i32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = vector.load %m[%c0] : memref<256xi8>, vector<128xi8>
    %lo, %hi = "dsp.vmpy"(%v, %rt) : (vector<128xi8>, i32) -> (vector<64xi16>, vector<64xi16>)
    %alo, %ahi = "dsp.vmpa"(%v, %v, %rt) : (vector<128xi8>, vector<128xi8>, i32) -> (vector<64xi16>, vector<64xi16>)
    %b = "dsp.vsat"(%lo, %alo) : (vector<64xi16>, vector<64xi16>) -> vector<128xi8>
    %d = "dsp.vrmpy"(%b, %rt) : (vector<128xi8>, i32) -> vector<32xi32>
    vector.store %b, %m[%c0] : memref<256xi8>, vector<128xi8>
  }
  return
}
// Ops outside the table keep their order: the broadcast the add reads
// comes before it; a copy (unknown effects) is a barrier, so a load after
// it lands after everything before it, through a chain of barriers too.
// CHECK-LABEL: func.func @ordered
// CHECK: vector.load {{.*}}dsp.packet = 1
// CHECK: vector.broadcast {{.*}}dsp.packet = 0
// CHECK: arith.addi {{.*}}dsp.packet = 1
// CHECK: memref.copy {{.*}}dsp.packet = 2
// CHECK: vector.load {{.*}}dsp.packet = 3
// CHECK: memref.copy {{.*}}dsp.packet = 4
// CHECK: vector.load {{.*}}dsp.packet = 5
func.func @ordered(%m: memref<256xi8>, %n: memref<256xi8>, %s: i8) -> (vector<128xi8>, vector<128xi8>) {
  %c0 = arith.constant 0 : index
  %v = vector.load %m[%c0] : memref<256xi8>, vector<128xi8>
  %b = vector.broadcast %s : i8 to vector<128xi8>
  %a = arith.addi %v, %b : vector<128xi8>
  memref.copy %m, %n : memref<256xi8> to memref<256xi8>
  %w = vector.load %n[%c0] : memref<256xi8>, vector<128xi8>
  memref.copy %n, %m : memref<256xi8> to memref<256xi8>
  %x = vector.load %m[%c0] : memref<256xi8>, vector<128xi8>
  return %a, %x : vector<128xi8>, vector<128xi8>
}
// BAD: error: dsp-pack: mode must be sda, soft-to-hard or soft-to-none, w in [0, 1] and p >= 0
