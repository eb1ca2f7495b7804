// --nn-rdp-plan{sizes=...}: the arena plan of the planned order for one
// shape class (digest B6, C3.8), against the best-fit greedy and the lower
// bound (the most bytes live at once).
// RUN: strata-opt %s --nn-rdp-plan='sizes=N=2' | FileCheck %s
// RUN: not strata-opt %s --nn-rdp-plan='sizes=M=2' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not strata-opt %s --nn-rdp-plan='sizes=N=0' 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not strata-opt %s --nn-rdp-plan='sizes=N' 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not strata-opt %s --nn-rdp-plan='sizes=N=2,W=3' 2>&1 | FileCheck %s --check-prefix=MISSING

// UNKNOWN: error: 'func.func' op nn-rdp-plan: 'sizes' names 'M', which is not a symbol of this function
// ZERO: error: 'func.func' op nn-rdp-plan: the size of 'N' must be an integer >= 1
// SYNTAX: error: 'func.func' op nn-rdp-plan: option 'sizes' must be NAME=VALUE,...; got 'N'
// MISSING: error: 'func.func' op nn-rdp-plan: 'sizes' names 'W', which is not a symbol of this function

// N = 2: relu 512 bytes, reduce_sum 8 bytes; the planned order holds one
// wide tensor at a time, and the peak walk reaches the lower bound.
// CHECK-LABEL: func.func @branches
// CHECK-SAME: rdp.arena = 528 : i64, rdp.arena_best_fit = 528 : i64, rdp.live_peak = 528 : i64
// CHECK-SAME: rdp.runtime_allocs = 0 : i64
// CHECK: "nn.relu"{{.*}}rdp.offset = 0 : i64
// CHECK: "nn.reduce_sum"{{.*}}rdp.offset = 512 : i64
// CHECK: "nn.relu"{{.*}}rdp.offset = 0 : i64
// CHECK: "nn.reduce_sum"{{.*}}rdp.offset = 520 : i64
func.func @branches(%x: tensor<?x64xf32> {onnx.dim_params = ["N", ""]}) -> (tensor<?x1xf32>, tensor<?x1xf32>) {
  %a1 = "nn.relu"(%x) : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %b1 = "nn.relu"(%x) : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %a2 = "nn.reduce_sum"(%a1) {axes = array<i64: 1>} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  %b2 = "nn.reduce_sum"(%b1) {axes = array<i64: 1>} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  return %a2, %b2 : tensor<?x1xf32>, tensor<?x1xf32>
}

// A tensor whose size is data-dependent (nac) is left to run time; the
// others get offsets.
// CHECK-LABEL: func.func @runtime
// CHECK-SAME: rdp.arena = 64 : i64{{.*}}rdp.runtime_allocs = 2 : i64
// CHECK: "nn.relu"{{.*}}rdp.offset = 0 : i64
// CHECK-NOT: rdp.offset
// CHECK: return
func.func @runtime(%x: tensor<?x8xf32> {onnx.dim_params = ["N", ""]}, %shape: tensor<2xi64>) -> tensor<?x?xf32> {
  %r = "nn.relu"(%x) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %y = "nn.reshape"(%r, %shape) : (tensor<?x8xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %z = "nn.relu"(%y) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %z : tensor<?x?xf32>
}

// Derived symbols are computed from the input sizes: ceil(N/2) = 1 at N = 2,
// so each tensor is 1*4*1 f32 = 16 bytes.
// CHECK-LABEL: func.func @strided
// CHECK-SAME: rdp.arena = 32 : i64
// CHECK-SAME: rdp.partitions = ["2 ops: program order, peak 32*ceil(N/2) (no order's is provably lower; planned 32*ceil(N/2))"]
// CHECK: "nn.conv"{{.*}}rdp.offset = 0 : i64
// CHECK: "nn.relu"{{.*}}rdp.offset = 16 : i64
func.func @strided(%x: tensor<1x4x?xf32> {onnx.dim_params = ["", "", "N"]}, %w: tensor<4x4x3xf32>) -> tensor<1x4x?xf32> {
  %c = "nn.conv"(%x, %w) {strides = array<i64: 2>, pads = array<i64: 1, 1>} : (tensor<1x4x?xf32>, tensor<4x4x3xf32>) -> tensor<1x4x?xf32>
  %r = "nn.relu"(%c) : (tensor<1x4x?xf32>) -> tensor<1x4x?xf32>
  return %r : tensor<1x4x?xf32>
}
