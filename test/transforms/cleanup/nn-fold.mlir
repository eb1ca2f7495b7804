// --nn-fold: dead pure ops erased, relu(relu(x)) folded, constants folded.
// RUN: strata-opt %s --split-input-file --nn-fold | FileCheck %s
// RUN: strata-opt %s --split-input-file --nn-fold=fold-limit=2 | FileCheck %s --check-prefix=LIMIT

// CHECK-LABEL: func.func @dead
// CHECK-NEXT: return %arg0
func.func @dead(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = "nn.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = "nn.add"(%a, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %x : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @relu_relu
// CHECK-NEXT: %[[R:.*]] = "nn.relu"(%arg0)
// CHECK-NEXT: return %[[R]]
func.func @relu_relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = "nn.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = "nn.relu"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %c = "nn.relu"(%b) : (tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// relu(add(c1, c2)) of constants becomes one constant, computed by the
// reference kernels; broadcasting applies.
// CHECK-LABEL: func.func @fold_constants
// CHECK-NEXT: %[[C:.*]] = "nn.constant"() {value = dense<{{\[}}[0.000000e+00, 3.000000e+00, 1.000000e+00], [0.000000e+00, 1.300000e+01, 1.100000e+01]]> : tensor<2x3xf32>}
// CHECK-NEXT: return %[[C]]
// LIMIT-LABEL: func.func @fold_constants
// LIMIT: "nn.add"
func.func @fold_constants() -> tensor<2x3xf32> {
  %a = "nn.constant"() {value = dense<[[-1.0, 2.0, 0.0], [-5.0, 12.0, 10.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %b = "nn.constant"() {value = dense<[1.0]> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = "nn.add"(%a, %b) : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  %d = "nn.relu"(%c) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %d : tensor<2x3xf32>
}

// -----

// Ops with non-constant operands and live results stay.
// CHECK-LABEL: func.func @live
// CHECK: "nn.add"
func.func @live(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = "nn.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %b = "nn.add"(%x, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %b : tensor<2xf32>
}

// -----

// CSE: equal pure ops (same operands, attributes and types) merge; different
// attributes do not.
// CHECK-LABEL: func.func @cse
// CHECK: %[[A:.*]] = "nn.softmax"(%arg0) {axis = 0 : i64}
// CHECK-NEXT: %[[B:.*]] = "nn.softmax"(%arg0) {axis = 1 : i64}
// CHECK-NEXT: %[[S:.*]] = "nn.add"(%[[A]], %[[A]])
// CHECK-NEXT: %[[T:.*]] = "nn.add"(%[[S]], %[[B]])
// CHECK-NEXT: return %[[T]]
func.func @cse(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %a = "nn.softmax"(%x) {axis = 0 : i64} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %b = "nn.softmax"(%x) {axis = 0 : i64} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %c = "nn.softmax"(%x) {axis = 1 : i64} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %s = "nn.add"(%a, %b) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %t = "nn.add"(%s, %c) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %t : tensor<3x4xf32>
}

// -----

// CSE through upstream ops without memory effects: two copies of a chain
// (as pred-lower leaves one per guard type) merge in one run -- the
// selects and extracts merge, then the nn ops reading them, then what
// reads those. Ops with effects or regions are left alone.
// CHECK-LABEL: func.func @cse_upstream
// CHECK-SAME: (%[[P:[^:]*]]: i1, %[[X:[^:]*]]: tensor<6xf32>, %[[I:[^:]*]]: tensor<1xi64>)
// CHECK: %[[Z:.*]] = arith.constant dense<0> : tensor<1xi64>
// CHECK-NEXT: %[[S:.*]] = arith.select %[[P]], %[[I]], %[[Z]]
// CHECK-NEXT: %[[G:.*]] = "nn.gather"(%[[X]], %[[S]])
// CHECK-NEXT: %[[C:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[E:.*]] = tensor.extract %[[G]][%[[C]]]
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[E]], %[[E]]
// CHECK-NEXT: return %[[A]]
func.func @cse_upstream(%p: i1, %x: tensor<6xf32>, %i: tensor<1xi64>) -> f32 {
  %z1 = arith.constant dense<0> : tensor<1xi64>
  %s1 = arith.select %p, %i, %z1 : tensor<1xi64>
  %g1 = "nn.gather"(%x, %s1) {axis = 0 : i64} : (tensor<6xf32>, tensor<1xi64>) -> tensor<1xf32>
  %c1 = arith.constant 0 : index
  %e1 = tensor.extract %g1[%c1] : tensor<1xf32>
  %z2 = arith.constant dense<0> : tensor<1xi64>
  %s2 = arith.select %p, %i, %z2 : tensor<1xi64>
  %g2 = "nn.gather"(%x, %s2) {axis = 0 : i64} : (tensor<6xf32>, tensor<1xi64>) -> tensor<1xf32>
  %c2 = arith.constant 0 : index
  %e2 = tensor.extract %g2[%c2] : tensor<1xf32>
  %a = arith.addf %e1, %e2 : f32
  return %a : f32
}

// -----

// Identity and dropout vanish; a reshape chain becomes one reshape; a round
// trip vanishes.
// CHECK-LABEL: func.func @trivial
// CHECK-NEXT: %[[S:.*]] = "nn.constant"() {value = dense<[4, 6]> : tensor<2xi64>}
// CHECK-NEXT: %[[R:.*]] = "nn.reshape"(%arg0, %[[S]]) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<4x6xf32>
// CHECK-NEXT: return %[[R]], %arg0
func.func @trivial(%x: tensor<2x3x4xf32>) -> (tensor<4x6xf32>, tensor<2x3x4xf32>) {
  %i = "nn.identity"(%x) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %d = "nn.dropout"(%i) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %f = "nn.flatten"(%d) : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  %u = "nn.unsqueeze"(%f) {axes = array<i64: 0>} : (tensor<2x12xf32>) -> tensor<1x2x12xf32>
  %s = "nn.constant"() {value = dense<[4, 6]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "nn.reshape"(%u, %s) : (tensor<1x2x12xf32>, tensor<2xi64>) -> tensor<4x6xf32>
  %back = "nn.constant"() {value = dense<[2, 3, 4]> : tensor<3xi64>} : () -> tensor<3xi64>
  %rt = "nn.reshape"(%f, %back) : (tensor<2x12xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
  return %r, %rt : tensor<4x6xf32>, tensor<2x3x4xf32>
}

// -----

// Transpose of transpose composes; to the identity it vanishes.
// CHECK-LABEL: func.func @transposes
// CHECK-NEXT: %[[T:.*]] = "nn.transpose"(%arg0) {perm = array<i64: 2, 0, 1>}
// CHECK-NEXT: return %[[T]], %arg0
func.func @transposes(%x: tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>, tensor<2x3x4xf32>) {
  %a = "nn.transpose"(%x) {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %b = "nn.transpose"(%a) {perm = array<i64: 2, 1, 0>} : (tensor<3x2x4xf32>) -> tensor<4x2x3xf32>
  %c = "nn.transpose"(%x) : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %d = "nn.transpose"(%c) : (tensor<4x3x2xf32>) -> tensor<2x3x4xf32>
  return %b, %d : tensor<4x2x3xf32>, tensor<2x3x4xf32>
}

// -----

// Shape computations on static shapes fold to constants, then the reshape
// they feed gets a static result type; func.return keeps its type through a
// tensor.cast.
// CHECK-LABEL: func.func @shape_computation
// CHECK-DAG: %[[C:.*]] = "nn.constant"() {value = dense<[2, -1]> : tensor<2xi64>}
// CHECK: %[[R:.*]] = "nn.reshape"(%arg0, %[[C]]) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
// CHECK: %[[E:.*]] = "nn.exp"(%[[R]]) : (tensor<2x12xf32>) -> tensor<2x12xf32>
// CHECK: %[[CAST:.*]] = tensor.cast %[[E]] : tensor<2x12xf32> to tensor<?x?xf32>
// CHECK: return %[[CAST]]
func.func @shape_computation(%x: tensor<2x3x4xf32>) -> tensor<?x?xf32> {
  %shape = "nn.shape"(%x) {end = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<1xi64>
  %m = "nn.constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %s = "nn.concat"(%shape, %m) : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %r = "nn.reshape"(%x, %s) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %e = "nn.exp"(%r) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}

// -----

// nn.shape reads only the dims in its range: those static, it folds even
// when other dims are '?'; nn.size needs them all (kept), and so does a
// shape whose range has a '?'.
// CHECK-LABEL: func.func @shape_of_partly_static
// CHECK-DAG: %[[C:.*]] = "nn.constant"() {value = dense<[3, 4]> : tensor<2xi64>}
// CHECK-DAG: %[[D:.*]] = "nn.shape"(%arg0) {end = 1 : i64}
// CHECK-DAG: %[[S:.*]] = "nn.size"(%arg0)
// CHECK: return %[[C]], %[[D]], %[[S]]
func.func @shape_of_partly_static(%x: tensor<?x3x4xf32>) -> (tensor<2xi64>, tensor<1xi64>, tensor<i64>) {
  %a = "nn.shape"(%x) {start = 1 : i64} : (tensor<?x3x4xf32>) -> tensor<2xi64>
  %b = "nn.shape"(%x) {end = 1 : i64} : (tensor<?x3x4xf32>) -> tensor<1xi64>
  %c = "nn.size"(%x) : (tensor<?x3x4xf32>) -> tensor<i64>
  return %a, %b, %c : tensor<2xi64>, tensor<1xi64>, tensor<i64>
}

// -----
// A reshape between two equal dynamic types is not a no-op: ?x?x? to
// ?x?x? may move extents between dims (the head split of an attention
// layer exported with dynamic axes). Only a static same-type reshape folds.
// CHECK-LABEL: func.func @dynamic_reshape_kept
// CHECK: "nn.reshape"
// CHECK: "nn.expand"
func.func @dynamic_reshape_kept(%x: tensor<?x?x?xf32>, %s: tensor<3xi64>) -> (tensor<?x?x?xf32>, tensor<?x?x?xf32>) {
  %r = "nn.reshape"(%x, %s) : (tensor<?x?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  %e = "nn.expand"(%x, %s) : (tensor<?x?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  return %r, %e : tensor<?x?x?xf32>, tensor<?x?x?xf32>
}

// -----

// The shape or size of a transpose of dynamic type reads the transpose's
// input: its shape's elements permuted (a gather with constant indices, over
// the start:end range), its size as it is. Elements that are static fold.
// CHECK-LABEL: func.func @shape_of_transpose
// CHECK-NEXT: %[[T:.*]] = "nn.transpose"(%arg0)
// CHECK-NEXT: %[[S:.*]] = "nn.shape"(%arg0) : (tensor<?x?x256xf32>) -> tensor<3xi64>
// CHECK-NEXT: %[[P:.*]] = "nn.constant"() {value = dense<[1, 2, 0]> : tensor<3xi64>}
// CHECK-NEXT: %[[A:.*]] = "nn.gather"(%[[S]], %[[P]]) {axis = 0 : i64}
// CHECK-NEXT: %[[L:.*]] = "nn.constant"() {value = dense<0> : tensor<1xi64>}
// CHECK-NEXT: %[[B:.*]] = "nn.gather"(%[[S]], %[[L]]) {axis = 0 : i64}
// CHECK-NEXT: %[[C:.*]] = "nn.constant"() {value = dense<256> : tensor<1xi64>}
// CHECK-NEXT: %[[N:.*]] = "nn.size"(%arg0)
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]], %[[N]], %[[T]]
func.func @shape_of_transpose(%x: tensor<?x?x256xf32>) -> (tensor<3xi64>, tensor<1xi64>, tensor<1xi64>, tensor<i64>, tensor<?x256x?xf32>) {
  %t = "nn.transpose"(%x) {perm = array<i64: 1, 2, 0>} : (tensor<?x?x256xf32>) -> tensor<?x256x?xf32>
  %s = "nn.shape"(%t) : (tensor<?x256x?xf32>) -> tensor<3xi64>
  %e = "nn.shape"(%t) {start = -1 : i64} : (tensor<?x256x?xf32>) -> tensor<1xi64>
  %m = "nn.shape"(%t) {start = 1 : i64, end = 2 : i64} : (tensor<?x256x?xf32>) -> tensor<1xi64>
  %n = "nn.size"(%t) : (tensor<?x256x?xf32>) -> tensor<i64>
  return %s, %e, %m, %n, %t : tensor<3xi64>, tensor<1xi64>, tensor<1xi64>, tensor<i64>, tensor<?x256x?xf32>
}
