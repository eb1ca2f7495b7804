// --nn-rdp: SOD²'s RDP analysis (digest C3.1, C3.2, C3.4, C3.6).
// RUN: strata-opt %s --nn-rdp | FileCheck %s
// Order independence (C3.6): visiting ops in reverse program order reaches
// the same fixpoint, and rerunning on the annotated output changes nothing.
// RUN: strata-opt %s --nn-rdp > %t.fwd
// RUN: strata-opt %s --nn-rdp='order=reverse' > %t.rev
// RUN: diff %t.fwd %t.rev
// RUN: strata-opt %t.fwd --nn-rdp | diff - %t.fwd
// RUN: not strata-opt %s --nn-rdp='order=sideways' 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: error: 'func.func' op nn-rdp: option 'order' must be 'forward' or 'reverse', got 'sideways'

// C3.2: x:[N,3,H,W] -> Conv(64, 3x3, s1, p1) -> Relu = [N,64,H,W]; Shape gives
// the value [N,64,H,W]; Gather(2) gives H; Reshape(Concat([N,-1])) gives
// [N, 64*H*W], an operation-inferred constant. Symbols take the ONNX
// importer's dim_param names.
// CHECK-LABEL: func.func @c3_2
// CHECK-SAME: rdp.arg_shapes = ["[N, 3, H, W]", "[64, 3, 3, 3]"], rdp.symbols = ["N", "H", "W"]
func.func @c3_2(%x: tensor<?x3x?x?xf32> {onnx.dim_params = ["N", "", "H", "W"]}, %w: tensor<64x3x3x3xf32>) -> (tensor<?x?xf32>, tensor<i64>) {
  // CHECK: "nn.conv"{{.*}}rdp.class = "ISDOS", rdp.shapes = ["[N, 64, H, W]"]
  %c = "nn.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x3x?x?xf32>, tensor<64x3x3x3xf32>) -> tensor<?x64x?x?xf32>
  // CHECK: "nn.relu"{{.*}}rdp.shapes = ["[N, 64, H, W]"]
  %r = "nn.relu"(%c) : (tensor<?x64x?x?xf32>) -> tensor<?x64x?x?xf32>
  // CHECK: "nn.shape"{{.*}}rdp.class = "ISDO", rdp.shapes = ["[4]"], rdp.values = ["[N, 64, H, W]"]
  %s = "nn.shape"(%r) : (tensor<?x64x?x?xf32>) -> tensor<4xi64>
  %i0 = "nn.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %i2 = "nn.constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  // CHECK: "nn.gather"{{.*}}rdp.values = ["[N]"]
  %n = "nn.gather"(%s, %i0) : (tensor<4xi64>, tensor<1xi64>) -> tensor<1xi64>
  // CHECK: "nn.gather"{{.*}}rdp.shapes = ["[]"], rdp.values = ["[H]"]
  %h = "nn.gather"(%s, %i2) : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %m1 = "nn.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  // CHECK: "nn.concat"{{.*}}rdp.values = ["[N, -1]"]
  %shape = "nn.concat"(%n, %m1) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  // A Reshape whose shape RDP knows is ISDOS (C3.1's demotion).
  // CHECK: "nn.reshape"{{.*}}rdp.class = "ISDOS", rdp.shapes = ["[N, 64*H*W]"]
  %y = "nn.reshape"(%r, %shape) : (tensor<?x64x?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %y, %h : tensor<?x?xf32>, tensor<i64>
}

// C3.1: classes from the op table; Resize with constant scales behaves as
// ISDOS; with runtime scales it stays ISVDOS and its dims are nac.
// CHECK-LABEL: func.func @c3_1
func.func @c3_1(%x: tensor<1x3x?x?xf32>, %scales: tensor<4xf32>, %shape: tensor<2xi64>) -> (tensor<1x3x?x?xf32>, tensor<1x3x?x?xf32>, tensor<?x?xf32>, tensor<3xi64>) {
  %sc = "nn.constant"() {value = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  // CHECK: "nn.resize"{{.*}}rdp.class = "ISDOS", rdp.shapes = ["[1, 3, 2*d0_2, 2*d0_3]"]
  %a = "nn.resize"(%x, %sc) {operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x?x?xf32>, tensor<4xf32>) -> tensor<1x3x?x?xf32>
  // CHECK: "nn.resize"{{.*}}rdp.class = "ISVDOS", rdp.shapes = ["[1, 3, nac, nac]"]
  %b = "nn.resize"(%x, %scales) {operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x?x?xf32>, tensor<4xf32>) -> tensor<1x3x?x?xf32>
  // A shape read from the data is nac: Reshape stays ISVDOS.
  // CHECK: "nn.reshape"{{.*}}rdp.class = "ISVDOS", rdp.shapes = ["[nac, nac]"]
  %c = "nn.reshape"(%x, %shape) : (tensor<1x3x?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  // CHECK: "nn.shape"{{.*}}rdp.class = "ISDO", rdp.shapes = ["[3]"], rdp.values = ["[3, d0_2, d0_3]"]
  %d = "nn.shape"(%x) {start = 1 : i64} : (tensor<1x3x?x?xf32>) -> tensor<3xi64>
  return %a, %b, %c, %d : tensor<1x3x?x?xf32>, tensor<1x3x?x?xf32>, tensor<?x?xf32>, tensor<3xi64>
}

// C3.4: Merge at a join is the meet: equal shapes stay, [N,64,H,W] against
// [N,128,H,W] keeps rank 4 with dim 1 nac.
// CHECK-LABEL: func.func @c3_4
func.func @c3_4(%c: i1, %x: tensor<?x3x?x?xf32> {onnx.dim_params = ["N", "", "H", "W"]}, %w64: tensor<64x3x1x1xf32>, %w128: tensor<128x3x1x1xf32>) -> (tensor<?x64x?x?xf32>, tensor<?x?x?x?xf32>) {
  // CHECK: scf.if
  %same = scf.if %c -> tensor<?x64x?x?xf32> {
    %a = "nn.conv"(%x, %w64) : (tensor<?x3x?x?xf32>, tensor<64x3x1x1xf32>) -> tensor<?x64x?x?xf32>
    scf.yield %a : tensor<?x64x?x?xf32>
  } else {
    %a = "nn.conv"(%x, %w64) : (tensor<?x3x?x?xf32>, tensor<64x3x1x1xf32>) -> tensor<?x64x?x?xf32>
    %b = "nn.sigmoid"(%a) : (tensor<?x64x?x?xf32>) -> tensor<?x64x?x?xf32>
    scf.yield %b : tensor<?x64x?x?xf32>
  // CHECK: } {rdp.shapes = ["[N, 64, H, W]"]}
  }
  %diff = scf.if %c -> tensor<?x?x?x?xf32> {
    %a = "nn.conv"(%x, %w64) : (tensor<?x3x?x?xf32>, tensor<64x3x1x1xf32>) -> tensor<?x?x?x?xf32>
    scf.yield %a : tensor<?x?x?x?xf32>
  } else {
    %b = "nn.conv"(%x, %w128) : (tensor<?x3x?x?xf32>, tensor<128x3x1x1xf32>) -> tensor<?x?x?x?xf32>
    scf.yield %b : tensor<?x?x?x?xf32>
  // CHECK: } {rdp.shapes = ["[N, nac, H, W]"]}
  }
  return %same, %diff : tensor<?x64x?x?xf32>, tensor<?x?x?x?xf32>
}

// Loop-carried values meet the loop's entry and back edge: a value whose
// shape the body keeps stays [L]; one the body grows by one element each
// iteration meets [L] with [L + 1]: nac.
// CHECK-LABEL: func.func @carried
func.func @carried(%x: tensor<?xf32> {onnx.dim_params = ["L"]}, %one: tensor<1xf32>, %n: i64) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : i64
  %r:3 = scf.while (%i = %c0, %a = %x, %b = %x) : (i64, tensor<?xf32>, tensor<?xf32>) -> (i64, tensor<?xf32>, tensor<?xf32>) {
    %cond = arith.cmpi slt, %i, %n : i64
    scf.condition(%cond) %i, %a, %b : i64, tensor<?xf32>, tensor<?xf32>
  } do {
  ^bb0(%i2: i64, %a2: tensor<?xf32>, %b2: tensor<?xf32>):
    // CHECK: "nn.relu"{{.*}}rdp.shapes = ["[L]"]
    %a3 = "nn.relu"(%a2) : (tensor<?xf32>) -> tensor<?xf32>
    // CHECK: "nn.concat"{{.*}}rdp.shapes = ["[nac]"]
    %b3 = "nn.concat"(%b2, %one) {axis = 0 : i64} : (tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
    %c1 = arith.constant 1 : i64
    %i3 = arith.addi %i2, %c1 : i64
    scf.yield %i3, %a3, %b3 : i64, tensor<?xf32>, tensor<?xf32>
  // CHECK: } attributes {rdp.shapes = ["-", "[L]", "[nac]"]}
  }
  return %r#1, %r#2 : tensor<?xf32>, tensor<?xf32>
}

// Backward transfer: nn ops take ranked tensors only, but an unranked value
// (here an argument) learns its rank and static dims from the cast that
// consumes it; its unknown dim stays undef (nothing decides it).
// CHECK-LABEL: func.func @backward
// CHECK-SAME: rdp.arg_shapes = ["[4, undef]"]
func.func @backward(%x: tensor<*xf32>) -> tensor<4x?xf32> {
  // CHECK: tensor.cast %arg0 {rdp.shapes = ["[4, undef]"]}
  %r = tensor.cast %x : tensor<*xf32> to tensor<4x?xf32>
  %y = "nn.relu"(%r) : (tensor<4x?xf32>) -> tensor<4x?xf32>
  return %y : tensor<4x?xf32>
}
