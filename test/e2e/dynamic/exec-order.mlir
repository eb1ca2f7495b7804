// The execution-order plan applied (nn-rdp-plan in every kernel pipeline,
// SOD² B5): ops move where the planned peak of live bytes is provably
// below program order's, and the arenas follow. Every function compiles
// once and runs at its shapes against the interpreter, in each fusion mode.
// RUN: rm -rf %t && %python %S/sweep_all.py %s %t/fixed | FileCheck %s
// RUN: %python %S/sweep_all.py %s %t/none --fusion none | FileCheck %s
// RUN: %python %S/sweep_all.py %s %t/dnn --fusion dnnfusion | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: 4 functions, 0 failed
//
// The measured peak: at 4096 rows program order holds both [4096, 64]
// branches at once (2 x 1024 KiB, then the two [4096, 1] sums: an arena of
// 2064 KiB); the planned order finishes one branch before the other starts
// (1024 + 2 x 16 KiB). strata-run --shapes counts the arena in the peak.
// RUN: printf '0=4096x64\n' > %t/wide.shapes
// RUN: env STRATA_SHAPE_PLAN_CHECK=1 strata-run %s --entry branches --shapes %t/wide.shapes --compare --quiet | FileCheck %s --check-prefix=PEAK
// PEAK: shape 1: 0=4096x64 -> 4096x1xf32 {{.*}} peak 10{{[0-9][0-9]}}.{{[0-9]}} KiB  plan searched at entry, arena 1056.0 KiB (live peak 1056.0 KiB)
// PEAK: compare output #0: {{.*}}: OK
// The same at static shapes (strata-buffer-arena's compile-time arena, in
// the peak): 2064 KiB in program order.
// RUN: strata-run %s --entry static_branches --shapes %t/wide.shapes --compare --quiet | FileCheck %s --check-prefix=STATIC
// STATIC: shape 1: 0=4096x64 -> 4096x1xf32 {{.*}} peak 105{{[0-9]}}.{{[0-9]}} KiB
// STATIC: compare output #0: {{.*}}: OK

// Two wide branches, each reduced: relu then sum, sigmoid then max.
// shapes: 0=1x64 | 0=7x64 | 0=0x64 | 0=300x64
func.func @branches(%x: tensor<?x64xf32>) -> tensor<?x1xf32> {
  %a1 = "nn.relu"(%x) : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %b1 = "nn.sigmoid"(%x) : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %a2 = "nn.reduce_sum"(%a1) {axes = array<i64: 1>} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  %b2 = "nn.reduce_max"(%b1) {axes = array<i64: 1>} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  %s = "nn.add"(%a2, %b2) : (tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
  return %s : tensor<?x1xf32>
}

// The same at static shapes: the compile-time arena follows the order.
// shapes: 0=4096x64
func.func @static_branches(%x: tensor<4096x64xf32>) -> tensor<4096x1xf32> {
  %a1 = "nn.relu"(%x) : (tensor<4096x64xf32>) -> tensor<4096x64xf32>
  %b1 = "nn.sigmoid"(%x) : (tensor<4096x64xf32>) -> tensor<4096x64xf32>
  %a2 = "nn.reduce_sum"(%a1) {axes = array<i64: 1>} : (tensor<4096x64xf32>) -> tensor<4096x1xf32>
  %b2 = "nn.reduce_max"(%b1) {axes = array<i64: 1>} : (tensor<4096x64xf32>) -> tensor<4096x1xf32>
  %s = "nn.add"(%a2, %b2) : (tensor<4096x1xf32>, tensor<4096x1xf32>) -> tensor<4096x1xf32>
  return %s : tensor<4096x1xf32>
}

// Two weight GEMMs on one input, each narrowed by a second one: the
// versioned GEMMs (scf.if nodes) move like any op; rows around the
// few-rows bound of 4.
// shapes: 0=1x8 | 0=3x8 | 0=4x8 | 0=5x8 | 0=33x8
func.func @gemm_branches(%x: tensor<?x8xf32>) -> tensor<?x2xf32> {
  %w = "nn.constant"() {value = dense<0.125> : tensor<8x48xf32>} : () -> tensor<8x48xf32>
  %v = "nn.constant"() {value = dense<-0.25> : tensor<8x48xf32>} : () -> tensor<8x48xf32>
  %p = "nn.constant"() {value = dense<[[0.5], [-1.0], [0.25], [1.0], [0.5], [-1.0], [0.25], [1.0], [0.5], [-1.0], [0.25], [1.0], [0.5], [-1.0], [0.25], [1.0], [0.5], [-1.0], [0.25], [1.0], [0.5], [-1.0], [0.25], [1.0], [0.5], [-1.0], [0.25], [1.0], [0.5], [-1.0], [0.25], [1.0], [0.5], [-1.0], [0.25], [1.0], [0.5], [-1.0], [0.25], [1.0], [0.5], [-1.0], [0.25], [1.0], [0.5], [-1.0], [0.25], [1.0]]> : tensor<48x1xf32>} : () -> tensor<48x1xf32>
  %h1 = "nn.matmul"(%x, %w) : (tensor<?x8xf32>, tensor<8x48xf32>) -> tensor<?x48xf32>
  %h2 = "nn.matmul"(%x, %v) : (tensor<?x8xf32>, tensor<8x48xf32>) -> tensor<?x48xf32>
  %t1 = "nn.tanh"(%h1) : (tensor<?x48xf32>) -> tensor<?x48xf32>
  %t2 = "nn.relu"(%h2) : (tensor<?x48xf32>) -> tensor<?x48xf32>
  %o1 = "nn.matmul"(%t1, %p) : (tensor<?x48xf32>, tensor<48x1xf32>) -> tensor<?x1xf32>
  %o2 = "nn.matmul"(%t2, %p) : (tensor<?x48xf32>, tensor<48x1xf32>) -> tensor<?x1xf32>
  %o = "nn.concat"(%o1, %o2) {axis = 1 : i64} : (tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x2xf32>
  return %o : tensor<?x2xf32>
}

// A data-dependent result (NonZero) is a partition point: the ops before
// it and after it are planned apart, nothing crosses it.
// shapes: 0=5x16 | 0=1x16 | 0=0x16
func.func @datadep(%x: tensor<?x16xf32>) -> (tensor<?x1xf32>, tensor<2x?xi64>) {
  %a1 = "nn.relu"(%x) : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %b1 = "nn.neg"(%x) : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %nz = "nn.non_zero"(%a1) : (tensor<?x16xf32>) -> tensor<2x?xi64>
  %a2 = "nn.reduce_sum"(%a1) {axes = array<i64: 1>} : (tensor<?x16xf32>) -> tensor<?x1xf32>
  %b2 = "nn.reduce_sum"(%b1) {axes = array<i64: 1>} : (tensor<?x16xf32>) -> tensor<?x1xf32>
  %s = "nn.sub"(%a2, %b2) : (tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
  return %s, %nz : tensor<?x1xf32>, tensor<2x?xi64>
}
