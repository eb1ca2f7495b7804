// Straight-line HVX kernel bodies for bench/dsp/hexagon_packets.sh: the
// packets LLVM's Hexagon packetizer emits beside --dsp-pack's model.

// Fig. 4.5: R = A + B + C, uint8 in, int16 out.
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

// MatMul through vrmpy (4-column panels): two K steps, two output columns.
func.func @vrmpy_u2(%a: memref<256xi8>, %acc: memref<64xi32>, %w0: i32, %w1: i32, %w2: i32, %w3: i32) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %x0 = vector.load %a[%c0] : memref<256xi8>, vector<128xi8>
  %x1 = vector.load %a[%c128] : memref<256xi8>, vector<128xi8>
  %s0 = vector.load %acc[%c0] : memref<64xi32>, vector<32xi32>
  %s1 = vector.load %acc[%c32] : memref<64xi32>, vector<32xi32>
  %p0 = "dsp.vrmpy_acc"(%s0, %x0, %w0) : (vector<32xi32>, vector<128xi8>, i32) -> vector<32xi32>
  %p1 = "dsp.vrmpy_acc"(%s1, %x0, %w1) : (vector<32xi32>, vector<128xi8>, i32) -> vector<32xi32>
  %q0 = "dsp.vrmpy_acc"(%p0, %x1, %w2) : (vector<32xi32>, vector<128xi8>, i32) -> vector<32xi32>
  %q1 = "dsp.vrmpy_acc"(%p1, %x1, %w3) : (vector<32xi32>, vector<128xi8>, i32) -> vector<32xi32>
  vector.store %q0, %acc[%c0] : memref<64xi32>, vector<32xi32>
  vector.store %q1, %acc[%c32] : memref<64xi32>, vector<32xi32>
  return
}

// MatMul through vmpy (1-column panels): two K steps into even/odd halves.
func.func @vmpy_k2(%a: memref<256xi8>, %acc: memref<128xi16>, %w0: i32, %w1: i32) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %x0 = vector.load %a[%c0] : memref<256xi8>, vector<128xi8>
  %x1 = vector.load %a[%c128] : memref<256xi8>, vector<128xi8>
  %lo = vector.load %acc[%c0] : memref<128xi16>, vector<64xi16>
  %hi = vector.load %acc[%c64] : memref<128xi16>, vector<64xi16>
  %m:2 = "dsp.vmpy_acc"(%lo, %hi, %x0, %w0) : (vector<64xi16>, vector<64xi16>, vector<128xi8>, i32) -> (vector<64xi16>, vector<64xi16>)
  %n:2 = "dsp.vmpy_acc"(%m#0, %m#1, %x1, %w1) : (vector<64xi16>, vector<64xi16>, vector<128xi8>, i32) -> (vector<64xi16>, vector<64xi16>)
  %e:2 = "dsp.vshuff"(%n#0, %n#1) : (vector<64xi16>, vector<64xi16>) -> (vector<64xi16>, vector<64xi16>)
  vector.store %e#0, %acc[%c0] : memref<128xi16>, vector<64xi16>
  vector.store %e#1, %acc[%c64] : memref<128xi16>, vector<64xi16>
  return
}

// MatMul through vmpa (2-column panels): two groups a step, narrowed.
func.func @vmpa_sat(%a: memref<256xi8>, %out: memref<128xi8>, %w: i32) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %x0 = vector.load %a[%c0] : memref<256xi8>, vector<128xi8>
  %x1 = vector.load %a[%c128] : memref<256xi8>, vector<128xi8>
  %m:2 = "dsp.vmpa"(%x0, %x1, %w) : (vector<128xi8>, vector<128xi8>, i32) -> (vector<64xi16>, vector<64xi16>)
  %s = "dsp.vsat"(%m#1, %m#0) : (vector<64xi16>, vector<64xi16>) -> vector<128xi8>
  vector.store %s, %out[%c0] : memref<128xi8>, vector<128xi8>
  return
}
