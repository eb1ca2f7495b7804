// The dsp instruction ops run in the reference interpreter through the
// emulator, with the digest's C1.1 values (and the accumulating forms,
// saturating narrowing, shuffle and deal).
// RUN: strata-run %s --interpret --entry vrmpy | FileCheck %s --check-prefix=VRMPY
// RUN: strata-run %s --interpret --entry vmpy | FileCheck %s --check-prefix=VMPY
// RUN: strata-run %s --interpret --entry vmpa | FileCheck %s --check-prefix=VMPA
// RUN: strata-run %s --interpret --entry vdmpy | FileCheck %s --check-prefix=VDMPY
// RUN: strata-run %s --interpret --entry narrow | FileCheck %s --check-prefix=NARROW
// RUN: strata-run %s --interpret --entry shuffle | FileCheck %s --check-prefix=SHUF
// Halfword outputs are written as int16 .npy files.
// RUN: strata-run %s --interpret --entry vdmpy --quiet --output %t.d.npy --output %t.a.npy --output %t.o.npy
// RUN: %python -c "import numpy as n; a = n.load('%t.o.npy'); print(a.dtype, a.shape, a[0])" | FileCheck %s --check-prefix=NPY
// NPY: int16 (64,) -766

// vrmpy(splat 0x04030201, Rt = 0x01010101) = 10 a word; with accumulator 5, 15.
// Rt.ub: 0xFF a byte is 255, not -1: 255 * (1+2+3+4) = 2550.
// VRMPY: output #0: 32xi32  min 10  max 10
// VRMPY: output #1: 32xi32  min 15  max 15
// VRMPY: output #2: 32xi32  min 2550  max 2550
// VRMPY: output #3: 32xi32  min -10  max -10
func.func @vrmpy() -> (vector<32xi32>, vector<32xi32>, vector<32xi32>, vector<32xi32>) {
  %x = arith.constant dense<[1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4]> : vector<128xi8>
  %rt = arith.constant 16843009 : i32
  %ff = arith.constant -1 : i32
  %acc = arith.constant dense<5> : vector<32xi32>
  %d = "dsp.vrmpy"(%x, %rt) : (vector<128xi8>, i32) -> vector<32xi32>
  %e = "dsp.vrmpy_acc"(%acc, %x, %rt) : (vector<32xi32>, vector<128xi8>, i32) -> vector<32xi32>
  %u = "dsp.vrmpy"(%x, %ff) {unsigned_rt} : (vector<128xi8>, i32) -> vector<32xi32>
  %s = "dsp.vrmpy"(%x, %ff) : (vector<128xi8>, i32) -> vector<32xi32>
  return %d, %e, %u, %s : vector<32xi32>, vector<32xi32>, vector<32xi32>, vector<32xi32>
}

// vmpy(all 2, Rt = 0x04030201): lo = 2,6,2,6..., hi = 4,8,4,8...; accumulated
// onto (1, 1): 3,7 and 5,9. vmpy(all 255, Rt.b = 0xFF) = -255 (u8 x s8 in i16).
// VMPY: output #0: 64xi16
// VMPY-NEXT: [2, 6, 2, 6, 2, 6,
// VMPY: output #1: 64xi16
// VMPY-NEXT: [4, 8, 4, 8, 4, 8,
// VMPY: output #2: 64xi16
// VMPY-NEXT: [3, 7, 3, 7,
// VMPY: output #3: 64xi16
// VMPY-NEXT: [5, 9, 5, 9,
// VMPY: output #4: 64xi16  min -255  max -255
func.func @vmpy() -> (vector<64xi16>, vector<64xi16>, vector<64xi16>, vector<64xi16>, vector<64xi16>) {
  %x = arith.constant dense<2> : vector<128xi8>
  %rt = arith.constant 67305985 : i32
  %one = arith.constant dense<1> : vector<64xi16>
  %lo, %hi = "dsp.vmpy"(%x, %rt) : (vector<128xi8>, i32) -> (vector<64xi16>, vector<64xi16>)
  %alo, %ahi = "dsp.vmpy_acc"(%one, %one, %x, %rt) : (vector<64xi16>, vector<64xi16>, vector<128xi8>, i32) -> (vector<64xi16>, vector<64xi16>)
  %m = arith.constant dense<-1> : vector<128xi8>
  %ff = arith.constant -1 : i32
  %nlo, %nhi = "dsp.vmpy"(%m, %ff) : (vector<128xi8>, i32) -> (vector<64xi16>, vector<64xi16>)
  return %lo, %hi, %alo, %ahi, %nlo : vector<64xi16>, vector<64xi16>, vector<64xi16>, vector<64xi16>, vector<64xi16>
}

// vmpa(v0 = all 1, v1 = all 2, Rt = 0x04030201): lo = 1*1 + 2*2 = 5,
// hi = 1*3 + 2*4 = 11; accumulated onto themselves: 10 and 22.
// VMPA: output #0: 64xi16  min 5  max 5
// VMPA: output #1: 64xi16  min 11  max 11
// VMPA: output #2: 64xi16  min 10  max 10
// VMPA: output #3: 64xi16  min 22  max 22
func.func @vmpa() -> (vector<64xi16>, vector<64xi16>, vector<64xi16>, vector<64xi16>) {
  %v0 = arith.constant dense<1> : vector<128xi8>
  %v1 = arith.constant dense<2> : vector<128xi8>
  %rt = arith.constant 67305985 : i32
  %lo, %hi = "dsp.vmpa"(%v0, %v1, %rt) : (vector<128xi8>, vector<128xi8>, i32) -> (vector<64xi16>, vector<64xi16>)
  %alo, %ahi = "dsp.vmpa_acc"(%lo, %hi, %v0, %v1, %rt) : (vector<64xi16>, vector<64xi16>, vector<128xi8>, vector<128xi8>, i32) -> (vector<64xi16>, vector<64xi16>)
  return %lo, %hi, %alo, %ahi : vector<64xi16>, vector<64xi16>, vector<64xi16>, vector<64xi16>
}

// vdmpy(all 1, Rt = 0x04030201) = 3,7,3,7...; accumulated onto itself 6,14.
// It wraps at 16 bits instead of saturating: 255*127 + 255*127 = 64770
// is -766 as an i16.
// VDMPY: output #0: 64xi16
// VDMPY-NEXT: [3, 7, 3, 7,
// VDMPY: output #1: 64xi16
// VDMPY-NEXT: [6, 14, 6, 14,
// VDMPY: output #2: 64xi16  min -766  max -766
func.func @vdmpy() -> (vector<64xi16>, vector<64xi16>, vector<64xi16>) {
  %x = arith.constant dense<1> : vector<128xi8>
  %rt = arith.constant 67305985 : i32
  %d = "dsp.vdmpy"(%x, %rt) : (vector<128xi8>, i32) -> vector<64xi16>
  %a = "dsp.vdmpy_acc"(%d, %x, %rt) : (vector<64xi16>, vector<128xi8>, i32) -> vector<64xi16>
  %m = arith.constant dense<-1> : vector<128xi8>
  %w = arith.constant 2139062143 : i32
  %o = "dsp.vdmpy"(%m, %w) : (vector<128xi8>, i32) -> vector<64xi16>
  return %d, %a, %o : vector<64xi16>, vector<64xi16>, vector<64xi16>
}

// vsat: vd[2i] = usat8(vv[i]), vd[2i+1] = usat8(vu[i]) (bytes read as
// signed i8 here, so 255 prints as -1); words to halfwords saturate at 16 bits.
// NARROW: output #0: 128xi8
// NARROW-NEXT: [0, -1, 0, -1,
// NARROW: output #1: 64xi16
// NARROW-NEXT: [-32768, 32767, 1, 32767,
func.func @narrow() -> (vector<128xi8>, vector<64xi16>) {
  %u = arith.constant dense<300> : vector<64xi16>
  %v = arith.constant dense<-5> : vector<64xi16>
  %b = "dsp.vsat"(%u, %v) : (vector<64xi16>, vector<64xi16>) -> vector<128xi8>
  %wu = arith.constant dense<100000> : vector<32xi32>
  %wv = arith.constant dense<[-100000, 1, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7]> : vector<32xi32>
  %h = "dsp.vsat"(%wu, %wv) : (vector<32xi32>, vector<32xi32>) -> vector<64xi16>
  return %b, %h : vector<128xi8>, vector<64xi16>
}

// vshuff interleaves lo and hi (lo[0], hi[0], lo[1], hi[1], ...); vdeal
// undoes it.
// SHUF: output #0: 64xi16
// SHUF-NEXT: [0, 100, 1, 101, 2, 102,
// SHUF: output #1: 64xi16
// SHUF-NEXT: [32, 132, 33, 133,
// SHUF: output #2: 64xi16
// SHUF-NEXT: [0, 1, 2, 3, 4, 5,
// SHUF: output #3: 64xi16
// SHUF-NEXT: [100, 101, 102, 103,
func.func @shuffle() -> (vector<64xi16>, vector<64xi16>, vector<64xi16>, vector<64xi16>) {
  %lo = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]> : vector<64xi16>
  %hi = arith.constant dense<[100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163]> : vector<64xi16>
  %d0, %d1 = "dsp.vshuff"(%lo, %hi) : (vector<64xi16>, vector<64xi16>) -> (vector<64xi16>, vector<64xi16>)
  %e, %o = "dsp.vdeal"(%d0, %d1) : (vector<64xi16>, vector<64xi16>) -> (vector<64xi16>, vector<64xi16>)
  return %d0, %d1, %e, %o : vector<64xi16>, vector<64xi16>, vector<64xi16>, vector<64xi16>
}
