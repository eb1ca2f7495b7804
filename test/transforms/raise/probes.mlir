// --nn-raise on instrumented layer norms: the chain is matched through the
// `profile` tool's probes (they read no value). The ReduceMean's "before"
// probe stays before the raised op, which reads X under it; every other
// probe of the chain's ops follows the raised op in its original order,
// each reading the one before. A probe that reads an intermediate value
// (trace, dump) stops the raise.
// RUN: strata-opt %s --split-input-file --instrument="tool=profile" --nn-raise | FileCheck %s
// RUN: strata-opt %s --split-input-file --instrument="tool=profile" --instrument="tool=trace ops=nn.sub" --nn-raise | FileCheck %s --check-prefix=STOP
// RUN: strata-opt %s --split-input-file --instrument="tool=profile" --instrument="tool=dump ops=nn.sqrt" --nn-raise | FileCheck %s --check-prefix=STOP
// STOP-NOT: "nn.layer_normalization"

// PyTorch's opset-14 export (ids: reduce_mean 0, sub 1, pow 2, reduce_mean
// 3, add 4, sqrt 5, div 6, mul 7, add 8).
// CHECK-LABEL: func.func @torch_export
// CHECK: %[[X:.*]] = "instr.probe"(%arg0) {index = 0 : i64, op_id = 0 : i64, op_name = "nn.reduce_mean", point = "before", tool = "profile"}
// CHECK: %[[Y:.*]] = "nn.layer_normalization"(%[[X]], %arg1, %arg2) {axis = 2 : i64, epsilon = 9.99999974E-6 : f32}
// CHECK-NEXT: %[[P1:.*]] = "instr.probe"(%[[Y]]) {{{.*}}op_id = 0 : i64, op_name = "nn.reduce_mean", point = "after", tool = "profile"}
// CHECK-NEXT: %[[P2:.*]] = "instr.probe"(%[[P1]]) {{{.*}}op_id = 1 : i64, op_name = "nn.sub", point = "before", tool = "profile"}
// CHECK-NEXT: %[[P3:.*]] = "instr.probe"(%[[P2]]) {{{.*}}op_id = 1 : i64, op_name = "nn.sub", point = "after", tool = "profile"}
// CHECK-NEXT: %[[P4:.*]] = "instr.probe"(%[[P3]]) {{{.*}}op_id = 2 : i64, op_name = "nn.pow", point = "before", tool = "profile"}
// CHECK-NEXT: %[[P5:.*]] = "instr.probe"(%[[P4]]) {{{.*}}op_id = 2 : i64, op_name = "nn.pow", point = "after", tool = "profile"}
// CHECK-NEXT: %[[P6:.*]] = "instr.probe"(%[[P5]]) {{{.*}}op_id = 3 : i64, op_name = "nn.reduce_mean", point = "before", tool = "profile"}
// CHECK-NEXT: %[[P7:.*]] = "instr.probe"(%[[P6]]) {{{.*}}op_id = 3 : i64, op_name = "nn.reduce_mean", point = "after", tool = "profile"}
// CHECK-NEXT: %[[P8:.*]] = "instr.probe"(%[[P7]]) {{{.*}}op_id = 4 : i64, op_name = "nn.add", point = "before", tool = "profile"}
// CHECK-NEXT: %[[P9:.*]] = "instr.probe"(%[[P8]]) {{{.*}}op_id = 4 : i64, op_name = "nn.add", point = "after", tool = "profile"}
// CHECK-NEXT: %[[P10:.*]] = "instr.probe"(%[[P9]]) {{{.*}}op_id = 5 : i64, op_name = "nn.sqrt", point = "before", tool = "profile"}
// CHECK-NEXT: %[[P11:.*]] = "instr.probe"(%[[P10]]) {{{.*}}op_id = 5 : i64, op_name = "nn.sqrt", point = "after", tool = "profile"}
// CHECK-NEXT: %[[P12:.*]] = "instr.probe"(%[[P11]]) {{{.*}}op_id = 6 : i64, op_name = "nn.div", point = "before", tool = "profile"}
// CHECK-NEXT: %[[P13:.*]] = "instr.probe"(%[[P12]]) {{{.*}}op_id = 6 : i64, op_name = "nn.div", point = "after", tool = "profile"}
// CHECK-NEXT: %[[P14:.*]] = "instr.probe"(%[[P13]]) {{{.*}}op_id = 7 : i64, op_name = "nn.mul", point = "before", tool = "profile"}
// CHECK-NEXT: %[[P15:.*]] = "instr.probe"(%[[P14]]) {{{.*}}op_id = 7 : i64, op_name = "nn.mul", point = "after", tool = "profile"}
// CHECK-NEXT: %[[P16:.*]] = "instr.probe"(%[[P15]]) {{{.*}}op_id = 8 : i64, op_name = "nn.add", point = "before", tool = "profile"}
// CHECK-NEXT: %[[P17:.*]] = "instr.probe"(%[[P16]]) {{{.*}}op_id = 8 : i64, op_name = "nn.add", point = "after", tool = "profile"}
// CHECK-NEXT: return %[[P17]]
// CHECK-NOT: "nn.reduce_mean"
// CHECK-NOT: "nn.sqrt"
func.func @torch_export(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x4x8xf32> {
  %m = "nn.reduce_mean"(%x) {axes = array<i64: -1>} : (tensor<2x4x8xf32>) -> tensor<2x4x1xf32>
  %d = "nn.sub"(%x, %m) : (tensor<2x4x8xf32>, tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
  %two = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %p = "nn.pow"(%d, %two) : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
  %v = "nn.reduce_mean"(%p) {axes = array<i64: -1>} : (tensor<2x4x8xf32>) -> tensor<2x4x1xf32>
  %eps = "nn.constant"() {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %e = "nn.add"(%v, %eps) : (tensor<2x4x1xf32>, tensor<f32>) -> tensor<2x4x1xf32>
  %s = "nn.sqrt"(%e) : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %n = "nn.div"(%d, %s) : (tensor<2x4x8xf32>, tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
  %y0 = "nn.mul"(%n, %g) : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  %y = "nn.add"(%y0, %b) : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----
// X from a relu whose "after" probe the chain and a residual add read: the
// relu's probe stays where it is (the raised op reads it under the
// ReduceMean's probe, the add reads it too). Mul(d, d), epsilon and scale
// first: the profile probes on them (input 0 of the add and of the mul)
// move after the raised op with the others.
// CHECK-LABEL: func.func @residual_square
// CHECK: %[[R:.*]] = "instr.probe"(%{{.*}}) {{{.*}}op_id = 0 : i64, op_name = "nn.relu", point = "after", tool = "profile"}
// CHECK-NEXT: %[[X:.*]] = "instr.probe"(%[[R]]) {{{.*}}op_id = 1 : i64, op_name = "nn.reduce_mean", point = "before", tool = "profile"}
// CHECK: %[[Y:.*]] = "nn.layer_normalization"(%[[X]], %arg1) {axis = 1 : i64, epsilon = 1.000000e-03 : f32}
// CHECK-NEXT: "instr.probe"(%[[Y]]) {{{.*}}op_id = 1 : i64, op_name = "nn.reduce_mean", point = "after"
// CHECK-NEXT: op_id = 2 : i64, op_name = "nn.sub", point = "before"
// CHECK-NEXT: op_id = 2 : i64, op_name = "nn.sub", point = "after"
// CHECK-NEXT: op_id = 3 : i64, op_name = "nn.mul", point = "before"
// CHECK-NEXT: op_id = 3 : i64, op_name = "nn.mul", point = "after"
// CHECK-NEXT: op_id = 4 : i64, op_name = "nn.reduce_mean", point = "before"
// CHECK-NEXT: op_id = 4 : i64, op_name = "nn.reduce_mean", point = "after"
// CHECK-NEXT: op_id = 5 : i64, op_name = "nn.add", point = "before"
// CHECK-NEXT: op_id = 5 : i64, op_name = "nn.add", point = "after"
// CHECK-NEXT: op_id = 6 : i64, op_name = "nn.sqrt", point = "before"
// CHECK-NEXT: op_id = 6 : i64, op_name = "nn.sqrt", point = "after"
// CHECK-NEXT: op_id = 7 : i64, op_name = "nn.div", point = "before"
// CHECK-NEXT: op_id = 7 : i64, op_name = "nn.div", point = "after"
// CHECK-NEXT: op_id = 8 : i64, op_name = "nn.mul", point = "before"
// CHECK-NEXT: %[[N:.*]] = "instr.probe"({{.*}}op_id = 8 : i64, op_name = "nn.mul", point = "after"
// CHECK-NEXT: %[[A:.*]] = "instr.probe"(%[[N]]) {{{.*}}op_id = 9 : i64, op_name = "nn.add", point = "before"
// CHECK-NEXT: "nn.add"(%[[A]], %[[R]])
func.func @residual_square(%in: tensor<3x20xf32>, %g: tensor<20xf32>) -> tensor<3x20xf32> {
  %x = "nn.relu"(%in) : (tensor<3x20xf32>) -> tensor<3x20xf32>
  %m = "nn.reduce_mean"(%x) {axes = array<i64: 1>} : (tensor<3x20xf32>) -> tensor<3x1xf32>
  %d = "nn.sub"(%x, %m) : (tensor<3x20xf32>, tensor<3x1xf32>) -> tensor<3x20xf32>
  %p = "nn.mul"(%d, %d) : (tensor<3x20xf32>, tensor<3x20xf32>) -> tensor<3x20xf32>
  %v = "nn.reduce_mean"(%p) {axes = array<i64: -1>} : (tensor<3x20xf32>) -> tensor<3x1xf32>
  %eps = "nn.constant"() {value = dense<1.0e-3> : tensor<1xf32>} : () -> tensor<1xf32>
  %e = "nn.add"(%eps, %v) : (tensor<1xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  %s = "nn.sqrt"(%e) : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %n = "nn.div"(%d, %s) : (tensor<3x20xf32>, tensor<3x1xf32>) -> tensor<3x20xf32>
  %y = "nn.mul"(%g, %n) : (tensor<20xf32>, tensor<3x20xf32>) -> tensor<3x20xf32>
  %r = "nn.add"(%y, %x) : (tensor<3x20xf32>, tensor<3x20xf32>) -> tensor<3x20xf32>
  return %r : tensor<3x20xf32>
}

// -----
// A scale over the leading dims is not the layer norm's: the Div is the
// last op raised, and the Mul's probes stay with it, after the div's.
// CHECK-LABEL: func.func @scale_over_rows
// CHECK: %[[Y:.*]] = "nn.layer_normalization"
// CHECK-NEXT: "instr.probe"(%[[Y]]) {{{.*}}op_id = 0 : i64, op_name = "nn.reduce_mean", point = "after"
// CHECK: %[[D:.*]] = "instr.probe"({{.*}}op_id = 6 : i64, op_name = "nn.div", point = "before"
// CHECK-NEXT: %[[N:.*]] = "instr.probe"(%[[D]]) {{{.*}}op_id = 6 : i64, op_name = "nn.div", point = "after"
// CHECK-NEXT: %[[M:.*]] = "instr.probe"(%[[N]]) {{{.*}}op_id = 7 : i64, op_name = "nn.mul", point = "before"
// CHECK-NEXT: "nn.mul"(%[[M]], %arg1)
func.func @scale_over_rows(%x: tensor<2x6xf32>, %g: tensor<2x1xf32>) -> tensor<2x6xf32> {
  %m = "nn.reduce_mean"(%x) {axes = array<i64: 1>} : (tensor<2x6xf32>) -> tensor<2x1xf32>
  %d = "nn.sub"(%x, %m) : (tensor<2x6xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
  %two = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %p = "nn.pow"(%d, %two) : (tensor<2x6xf32>, tensor<f32>) -> tensor<2x6xf32>
  %v = "nn.reduce_mean"(%p) {axes = array<i64: 1>} : (tensor<2x6xf32>) -> tensor<2x1xf32>
  %eps = "nn.constant"() {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %e = "nn.add"(%v, %eps) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s = "nn.sqrt"(%e) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n = "nn.div"(%d, %s) : (tensor<2x6xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
  %y = "nn.mul"(%n, %g) : (tensor<2x6xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}

// -----
// Not taken: the centered value is also returned (read, through its
// profile probe, outside the chain).
// CHECK-LABEL: func.func @centered_returned
// CHECK-NOT: "nn.layer_normalization"
// CHECK: "nn.div"
func.func @centered_returned(%x: tensor<2x6xf32>) -> (tensor<2x6xf32>, tensor<2x6xf32>) {
  %m = "nn.reduce_mean"(%x) {axes = array<i64: 1>} : (tensor<2x6xf32>) -> tensor<2x1xf32>
  %d = "nn.sub"(%x, %m) : (tensor<2x6xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
  %two = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %p = "nn.pow"(%d, %two) : (tensor<2x6xf32>, tensor<f32>) -> tensor<2x6xf32>
  %v = "nn.reduce_mean"(%p) {axes = array<i64: 1>} : (tensor<2x6xf32>) -> tensor<2x1xf32>
  %eps = "nn.constant"() {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %e = "nn.add"(%v, %eps) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s = "nn.sqrt"(%e) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n = "nn.div"(%d, %s) : (tensor<2x6xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
  return %n, %d : tensor<2x6xf32>, tensor<2x6xf32>
}
