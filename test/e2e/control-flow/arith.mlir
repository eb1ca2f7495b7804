// Scalar arith and tensor element ops: exact results in the interpreter
// (two's complement at each width, signed and unsigned views, ordered and
// unordered float compares, casts, slices), and the CPU target agrees.
// RUN: strata-run %s --interpret --entry ints | FileCheck %s --check-prefix=INTS
// RUN: strata-run %s --compare --quiet --entry ints | FileCheck %s --check-prefix=OK
// RUN: strata-run %s --interpret --entry floats | FileCheck %s --check-prefix=FLOATS
// RUN: strata-run %s --compare --quiet --entry floats | FileCheck %s --check-prefix=OK
// RUN: strata-run %s --interpret --entry slices --input %S/Inputs/ones4.npy | FileCheck %s --check-prefix=SLICES
// RUN: strata-run %s --compare --quiet --entry slices | FileCheck %s --check-prefix=OK
// OK: compare output #0: {{.*}}: OK

// INTS: [-2, -1, 83, 0, -2, 254, -128, 1, 0, -1, 255, 3, 44, 0]
func.func @ints() -> tensor<14xi64> {
  %m7 = arith.constant -7 : i8
  %c3 = arith.constant 3 : i8
  %m1 = arith.constant -1 : i8
  %c127 = arith.constant 127 : i8
  %c16 = arith.constant 16 : i8
  %c300 = arith.constant 300 : i64
  %d = arith.divsi %m7, %c3 : i8         // -2: toward zero
  %r = arith.remsi %m7, %c3 : i8         // -1
  %u = arith.divui %m7, %c3 : i8         // 249 / 3
  %ur = arith.remui %m7, %c3 : i8        // 249 % 3
  %wrap = arith.addi %c127, %c127 : i8   // 254 wraps to -2
  %x = arith.xori %m1, %c127 : i8        // 0x80
  %lt = arith.cmpi slt, %m1, %c3 : i8    // true
  %ult = arith.cmpi ult, %m1, %c3 : i8   // false: 255 > 3
  %mu = arith.maxui %m1, %c3 : i8        // 255
  %ms = arith.maxsi %m1, %c3 : i8        // 3
  %t = arith.trunci %c300 : i64 to i8    // 44
  %sq = arith.muli %c16, %c16 : i8       // 256 wraps to 0
  %e0 = arith.extsi %d : i8 to i64
  %e1 = arith.extsi %r : i8 to i64
  %e2 = arith.extui %u : i8 to i64
  %e3 = arith.extui %ur : i8 to i64
  %e4 = arith.extsi %wrap : i8 to i64
  %e5 = arith.extui %wrap : i8 to i64
  %e6 = arith.extsi %x : i8 to i64
  %e7 = arith.extui %lt : i1 to i64
  %e8 = arith.extui %ult : i1 to i64
  %e9 = arith.extsi %lt : i1 to i64      // true is -1 as a signed i1
  %e10 = arith.extui %mu : i8 to i64
  %e11 = arith.extsi %ms : i8 to i64
  %e12i = arith.index_cast %t : i8 to index
  %e12 = arith.index_cast %e12i : index to i64
  %e13 = arith.extsi %sq : i8 to i64
  %out = tensor.from_elements %e0, %e1, %e2, %e3, %e4, %e5, %e6, %e7, %e8, %e9, %e10, %e11, %e12, %e13 : tensor<14xi64>
  return %out : tensor<14xi64>
}

// FLOATS: [3.75, 1, 0, 1, 1, 1, 0, -2, 3, -1, 255, 1, 2, -1.5, 7]
func.func @floats() -> tensor<15xf32> {
  %a = arith.constant 1.5 : f32
  %b = arith.constant 2.25 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %m27 = arith.constant -2.7 : f32
  %p39 = arith.constant 3.9 : f32
  %m1 = arith.constant -1 : i8
  %seven = arith.constant 7.0 : f32
  %eight = arith.constant 8.0 : f32
  %f0 = arith.addf %a, %b : f32
  %uno = arith.cmpf uno, %nan, %one : f32
  %oeq = arith.cmpf oeq, %nan, %nan : f32
  %une = arith.cmpf une, %nan, %nan : f32
  %olt = arith.cmpf olt, %one, %two : f32
  %ult = arith.cmpf ult, %nan, %one : f32
  %oge = arith.cmpf oge, %one, %two : f32
  %f1 = arith.uitofp %uno : i1 to f32
  %f2 = arith.uitofp %oeq : i1 to f32
  %f3 = arith.uitofp %une : i1 to f32
  %f4 = arith.uitofp %olt : i1 to f32
  %f5 = arith.uitofp %ult : i1 to f32
  %f6 = arith.uitofp %oge : i1 to f32
  %i7 = arith.fptosi %m27 : f32 to i32
  %f7 = arith.sitofp %i7 : i32 to f32
  %i8 = arith.fptoui %p39 : f32 to i32
  %f8 = arith.uitofp %i8 : i32 to f32
  %f9 = arith.sitofp %m1 : i8 to f32
  %f10 = arith.uitofp %m1 : i8 to f32
  %mx = arith.maximumf %nan, %one : f32
  %mxn = arith.cmpf uno, %mx, %mx : f32
  %f11 = arith.uitofp %mxn : i1 to f32
  %f12 = arith.minnumf %nan, %two : f32
  %f13 = arith.negf %a : f32
  %f14 = arith.select %olt, %seven, %eight : f32
  %out = tensor.from_elements %f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8, %f9, %f10, %f11, %f12, %f13, %f14 : tensor<15xf32>
  return %out : tensor<15xf32>
}

// Row i of a 3x4 zeros gets a + i (insert_slice at a dynamic offset), then
// rows 1-2, columns 1 and 3 come out (extract_slice with a stride).
// SLICES: [2, 2, 3, 3]
func.func @slices(%a: tensor<4xf32>) -> tensor<2x2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zeros = arith.constant dense<0.0> : tensor<3x4xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zeros) -> (tensor<3x4xf32>) {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    %t = tensor.from_elements %fi : tensor<f32>
    %row = "nn.add"(%a, %t) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    %next = tensor.insert_slice %row into %acc[%i, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<3x4xf32>
    scf.yield %next : tensor<3x4xf32>
  }
  %s = tensor.extract_slice %r[1, 1] [2, 2] [1, 2] : tensor<3x4xf32> to tensor<2x2xf32>
  return %s : tensor<2x2xf32>
}
