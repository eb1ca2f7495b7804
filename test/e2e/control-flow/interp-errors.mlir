// The interpreter refuses, at the op, what has no reference semantics or no
// defined result.
// RUN: not strata-run %s --interpret --entry div_zero 2>&1 | FileCheck %s --check-prefix=DIV
// DIV: interp-errors.mlir:[[@LINE+6]]:10: error: interpreter: 'arith.divsi' divides by zero
func.func @div_zero(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %a) -> (tensor<4xf32>) {
    %q = arith.divsi %c4, %i : index
    %y = "nn.neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// RUN: not strata-run %s --interpret --entry unsupported 2>&1 | FileCheck %s --check-prefix=UNSUP
// UNSUP: interp-errors.mlir:[[@LINE+3]]:8: error: interpreter: no reference semantics for 'arith.ceildivsi'
func.func @unsupported(%a: tensor<4xf32>, %n: tensor<i32>) -> tensor<4xf32> {
  %v = tensor.extract %n[] : tensor<i32>
  %q = arith.ceildivsi %v, %v : i32
  %p = arith.cmpi sgt, %q, %v : i32
  %r = scf.if %p -> tensor<4xf32> {
    scf.yield %a : tensor<4xf32>
  } else {
    %y = "nn.neg"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// RUN: not strata-run %s --interpret --entry out_of_range 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: interp-errors.mlir:[[@LINE+3]]:8: error: interpreter: 'arith.fptosi' of 300 does not fit in i8
func.func @out_of_range(%a: tensor<4xf32>) -> tensor<4xf32> {
  %f = arith.constant 300.0 : f32
  %i = arith.fptosi %f : f32 to i8
  %z = arith.constant 0 : i8
  %p = arith.cmpi sgt, %i, %z : i8
  %r = scf.if %p -> tensor<4xf32> {
    scf.yield %a : tensor<4xf32>
  } else {
    %y = "nn.neg"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// RUN: not strata-run %s --interpret --entry div_overflow 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// OVERFLOW: interp-errors.mlir:[[@LINE+4]]:8: error: interpreter: 'arith.divsi' overflows (the smallest i8 divided by -1)
func.func @div_overflow(%a: tensor<4xf32>) -> tensor<4xf32> {
  %min = arith.constant -128 : i8
  %m1 = arith.constant -1 : i8
  %q = arith.divsi %min, %m1 : i8
  %z = arith.constant 0 : i8
  %p = arith.cmpi sgt, %q, %z : i8
  %r = scf.if %p -> tensor<4xf32> {
    scf.yield %a : tensor<4xf32>
  } else {
    %y = "nn.neg"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
