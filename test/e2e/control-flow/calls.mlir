// func.call in the reference interpreter: the callee's body runs on the
// arguments (twice in a row, inside a branch, through a chain of calls),
// and the CPU target's results match it. pred-lower's unlikely guards
// become such calls, and a call in a predicated branch is predicated with
// the callee's body checked (its func.return is no side effect).
// RUN: strata-run %s --compare --quiet --entry twice | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry branch | FileCheck %s
// RUN: strata-opt %s --pred-if-to-guard --pred-lower > %t.pred.mlir
// RUN: strata-run %t.pred.mlir --compare --quiet --entry unlikely | FileCheck %s
// RUN: strata-run %t.pred.mlir --compare --quiet --entry branch | FileCheck %s
// CHECK: compare output #0: max abs error {{.*}}: OK
// RUN: not strata-run %s --interpret --entry recursive 2>&1 | FileCheck %s --check-prefix=REC
// REC: calls.mlir:[[@LINE+29]]:8: error: interpreter: '@recursive' is already running (recursion)
// RUN: not strata-run %s --interpret --entry external --input %S/Inputs/true.npy 2>&1 | FileCheck %s --check-prefix=EXT
// EXT: calls.mlir:[[@LINE+32]]:8: error: interpreter: '@ext' has no body to run
func.func private @scale(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = "nn.add"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %z = func.call @neg(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return %z : tensor<4xf32>
}
func.func private @neg(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = "nn.neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = func.call @scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = func.call @scale(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %c = "nn.sub"(%b, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}
func.func @branch(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %p = tensor.extract %c[] : tensor<i1>
  %r = scf.if %p -> tensor<4xf32> {
    %y = func.call @scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
func.func @recursive(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = func.call @recursive(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func private @ext(tensor<i1>) -> tensor<i1>
func.func @external(%c: tensor<i1>) -> tensor<i1> {
  %y = func.call @ext(%c) : (tensor<i1>) -> tensor<i1>
  return %y : tensor<i1>
}
// An unlikely guard: pred-lower outlines its body into a function called
// under a branch.
func.func @unlikely(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %p = tensor.extract %c[] : tensor<i1>
  %r = "pred.guard"(%p, %x) ({
    %y = "nn.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    "gpu.yield"(%y) : (tensor<4xf32>) -> ()
  }) {unlikely} : (i1, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
