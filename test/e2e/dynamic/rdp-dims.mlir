// Dims RDP proves equal (arguments with one ONNX dim_param) are used as
// equal by the compiled code (rdp-fold-checks: one check at entry, none at
// the ops; test/transforms/dynamic/rdp-fold-checks.mlir shows the IR).
// Every function compiles once per fusion mode and runs at every shape set
// above it against the interpreter; rdp-dims-errors.test shows the entry
// check refusing argument dims of one symbol that differ.
// RUN: rm -rf %t && %python %S/sweep_all.py %s %t/dnnfusion --fusion dnnfusion --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: %python %S/sweep_all.py %s %t/fixed --fusion fixed --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: %python %S/sweep_all.py %s %t/none --fusion none --rtol 1e-4 --atol 1e-5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: 5 functions, 0 failed

// Two inputs of one batch and sequence (a token and a mask stream).
// shapes: 0=1x1x4 1=1x1x4 | 0=2x3x4 1=2x3x4 | 0=3x17x4 1=3x17x4 | 0=0x5x4 1=0x5x4
func.func @pair(%a: tensor<?x?x4xf32> {onnx.dim_params = ["B", "S", ""]},
                %b: tensor<?x?x4xf32> {onnx.dim_params = ["B", "S", ""]}) -> tensor<?x?x4xf32> {
  %r = "nn.relu"(%a) : (tensor<?x?x4xf32>) -> tensor<?x?x4xf32>
  %e = "nn.exp"(%b) : (tensor<?x?x4xf32>) -> tensor<?x?x4xf32>
  %y = "nn.add"(%r, %e) : (tensor<?x?x4xf32>, tensor<?x?x4xf32>) -> tensor<?x?x4xf32>
  %z = "nn.mul"(%y, %b) : (tensor<?x?x4xf32>, tensor<?x?x4xf32>) -> tensor<?x?x4xf32>
  return %z : tensor<?x?x4xf32>
}

// The symbol at different positions: a [B, S] mask against [S, B] data
// after a transpose, and a dim shared with a matmul's inner extent.
// shapes: 0=2x3 1=3x2 2=3x5 | 0=1x1 1=1x1 2=1x1 | 0=4x7 1=7x4 2=7x3
func.func @crossed(%m: tensor<?x?xf32> {onnx.dim_params = ["B", "S"]},
                   %x: tensor<?x?xf32> {onnx.dim_params = ["S", "B"]},
                   %w: tensor<?x?xf32> {onnx.dim_params = ["S", "D"]}) -> tensor<?x?xf32> {
  %t = "nn.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = "nn.sub"(%m, %t) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %y = "nn.matmul"(%s, %w) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// A residual into a matmul kernel call: the addend is another argument of
// the result's symbols (its extents were checked before the call).
// shapes: 0=1x8 1=1x6 | 0=5x8 1=5x6 | 0=9x8 1=9x6
func.func @residual(%x: tensor<?x8xf32> {onnx.dim_params = ["N", ""]},
                    %r: tensor<?x6xf32> {onnx.dim_params = ["N", ""]}) -> tensor<?x6xf32> {
  %w = "nn.constant"() {value = dense<0.25> : tensor<8x6xf32>} : () -> tensor<8x6xf32>
  %y = "nn.matmul"(%x, %w) : (tensor<?x8xf32>, tensor<8x6xf32>) -> tensor<?x6xf32>
  %z = "nn.add"(%y, %r) : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  return %z : tensor<?x6xf32>
}

// A reshape to [2*N] (its -1 computed at run time) against the concat
// of two N-extents: 2*N both, not checked; M is another symbol, checked.
// shapes: 0=1x2 1=1 2=2 | 0=3x2 1=3 2=6 | 0=0x2 1=0 2=0
func.func @expr(%a: tensor<?x2xf32> {onnx.dim_params = ["N", ""]},
                %b: tensor<?xf32> {onnx.dim_params = ["N"]},
                %m: tensor<?xf32> {onnx.dim_params = ["M"]}) -> tensor<?xf32> {
  %s = "nn.constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %f = "nn.reshape"(%a, %s) : (tensor<?x2xf32>, tensor<1xi64>) -> tensor<?xf32>
  %c = "nn.concat"(%b, %b) {axis = 0 : i64} : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %y = "nn.add"(%f, %c) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %z = "nn.add"(%y, %m) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %z : tensor<?xf32>
}

// Unnamed dims: distinct symbols, the per-op checks stay (and pass).
// shapes: 0=2x4 1=2x4 | 0=5x4 1=5x4
func.func @unnamed(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %y = "nn.add"(%a, %b) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
