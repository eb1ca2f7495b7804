// Table 3.3, one function per cell: op A (the row's mapping type) feeds op
// B (the column's). Green cells fuse whatever the profile says, yellow
// cells fuse iff the profile says so (profile=always / profile=never stand
// in for the latency database), red cells never fuse. A fused block carries
// the cell's fused type.
// RUN: strata-opt %s --split-input-file --nn-fuse=profile=always | FileCheck %s --check-prefixes=CHECK,YES
// RUN: strata-opt %s --split-input-file --nn-fuse=profile=never | FileCheck %s --check-prefixes=CHECK,NO

// One-to-One -> One-to-One: green
// CHECK-LABEL: func.func @o2o_then_o2o
// CHECK: mapping = "One-to-One", ops = ["nn.relu", "nn.relu"]
// CHECK: return
func.func @o2o_then_o2o(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.relu"(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = "nn.relu"(%a) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// One-to-One -> One-to-Many: green
// CHECK-LABEL: func.func @o2o_then_o2m
// CHECK: mapping = "One-to-Many", ops = ["nn.relu", "nn.add"]
// CHECK: return
func.func @o2o_then_o2m(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.relu"(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = "nn.add"(%a, %bias) : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// One-to-One -> Many-to-Many: green
// CHECK-LABEL: func.func @o2o_then_m2m
// CHECK: mapping = "Many-to-Many", ops = ["nn.relu", "nn.softmax"]
// CHECK: return
func.func @o2o_then_m2m(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.relu"(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = "nn.softmax"(%a) {axis = -1 : si64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// One-to-One -> Reorganize: green
// CHECK-LABEL: func.func @o2o_then_reorg
// CHECK: mapping = "Reorganize", ops = ["nn.relu", "nn.reshape"]
// CHECK: return
func.func @o2o_then_reorg(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.relu"(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = "nn.reshape"(%a, %shape) : (tensor<4x4xf32>, tensor<2xi64>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// One-to-One -> Shuffle: green
// CHECK-LABEL: func.func @o2o_then_shuffle
// CHECK: mapping = "Shuffle", ops = ["nn.relu", "nn.transpose"]
// CHECK: return
func.func @o2o_then_shuffle(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.relu"(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = "nn.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// One-to-Many -> One-to-One: green
// CHECK-LABEL: func.func @o2m_then_o2o
// CHECK: mapping = "One-to-Many", ops = ["nn.add", "nn.relu"]
// CHECK: return
func.func @o2m_then_o2o(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.add"(%x, %bias) : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %b = "nn.relu"(%a) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// One-to-Many -> One-to-Many: yellow
// CHECK-LABEL: func.func @o2m_then_o2m
// YES: mapping = "One-to-Many", ops = ["nn.add", "nn.add"]
// NO: mapping = "One-to-Many", ops = ["nn.add"]
// NO: mapping = "One-to-Many", ops = ["nn.add"]
// CHECK: return
func.func @o2m_then_o2m(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.add"(%x, %bias) : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %b = "nn.add"(%a, %bias) : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// One-to-Many -> Many-to-Many: red
// CHECK-LABEL: func.func @o2m_then_m2m
// CHECK: mapping = "One-to-Many", ops = ["nn.add"]
// CHECK: mapping = "Many-to-Many", ops = ["nn.softmax"]
// CHECK: return
func.func @o2m_then_m2m(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.add"(%x, %bias) : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %b = "nn.softmax"(%a) {axis = -1 : si64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// One-to-Many -> Reorganize: yellow
// CHECK-LABEL: func.func @o2m_then_reorg
// YES: mapping = "One-to-Many", ops = ["nn.add", "nn.reshape"]
// NO: mapping = "One-to-Many", ops = ["nn.add"]
// NO: mapping = "Reorganize", ops = ["nn.reshape"]
// CHECK: return
func.func @o2m_then_reorg(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.add"(%x, %bias) : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %b = "nn.reshape"(%a, %shape) : (tensor<4x4xf32>, tensor<2xi64>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// One-to-Many -> Shuffle: yellow
// CHECK-LABEL: func.func @o2m_then_shuffle
// YES: mapping = "One-to-Many", ops = ["nn.add", "nn.transpose"]
// NO: mapping = "One-to-Many", ops = ["nn.add"]
// NO: mapping = "Shuffle", ops = ["nn.transpose"]
// CHECK: return
func.func @o2m_then_shuffle(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.add"(%x, %bias) : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %b = "nn.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// Many-to-Many -> One-to-One: green
// CHECK-LABEL: func.func @m2m_then_o2o
// CHECK: mapping = "Many-to-Many", ops = ["nn.softmax", "nn.relu"]
// CHECK: return
func.func @m2m_then_o2o(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.softmax"(%x) {axis = -1 : si64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = "nn.relu"(%a) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// Many-to-Many -> One-to-Many: yellow
// CHECK-LABEL: func.func @m2m_then_o2m
// YES: mapping = "Many-to-Many", ops = ["nn.softmax", "nn.add"]
// NO: mapping = "Many-to-Many", ops = ["nn.softmax"]
// NO: mapping = "One-to-Many", ops = ["nn.add"]
// CHECK: return
func.func @m2m_then_o2m(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.softmax"(%x) {axis = -1 : si64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = "nn.add"(%a, %bias) : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// Many-to-Many -> Many-to-Many: red
// CHECK-LABEL: func.func @m2m_then_m2m
// CHECK: mapping = "Many-to-Many", ops = ["nn.softmax"]
// CHECK: mapping = "Many-to-Many", ops = ["nn.softmax"]
// CHECK: return
func.func @m2m_then_m2m(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.softmax"(%x) {axis = -1 : si64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = "nn.softmax"(%a) {axis = -1 : si64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// Many-to-Many -> Reorganize: yellow
// CHECK-LABEL: func.func @m2m_then_reorg
// YES: mapping = "Many-to-Many", ops = ["nn.softmax", "nn.reshape"]
// NO: mapping = "Many-to-Many", ops = ["nn.softmax"]
// NO: mapping = "Reorganize", ops = ["nn.reshape"]
// CHECK: return
func.func @m2m_then_reorg(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.softmax"(%x) {axis = -1 : si64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = "nn.reshape"(%a, %shape) : (tensor<4x4xf32>, tensor<2xi64>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// Many-to-Many -> Shuffle: yellow
// CHECK-LABEL: func.func @m2m_then_shuffle
// YES: mapping = "Many-to-Many", ops = ["nn.softmax", "nn.transpose"]
// NO: mapping = "Many-to-Many", ops = ["nn.softmax"]
// NO: mapping = "Shuffle", ops = ["nn.transpose"]
// CHECK: return
func.func @m2m_then_shuffle(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.softmax"(%x) {axis = -1 : si64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = "nn.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// Reorganize -> One-to-One: green
// CHECK-LABEL: func.func @reorg_then_o2o
// CHECK: mapping = "Reorganize", ops = ["nn.reshape", "nn.relu"]
// CHECK: return
func.func @reorg_then_o2o(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.reshape"(%x, %shape) : (tensor<4x4xf32>, tensor<2xi64>) -> tensor<4x4xf32>
  %b = "nn.relu"(%a) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// Reorganize -> One-to-Many: yellow
// CHECK-LABEL: func.func @reorg_then_o2m
// YES: mapping = "One-to-Many", ops = ["nn.reshape", "nn.add"]
// NO: mapping = "Reorganize", ops = ["nn.reshape"]
// NO: mapping = "One-to-Many", ops = ["nn.add"]
// CHECK: return
func.func @reorg_then_o2m(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.reshape"(%x, %shape) : (tensor<4x4xf32>, tensor<2xi64>) -> tensor<4x4xf32>
  %b = "nn.add"(%a, %bias) : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// Reorganize -> Many-to-Many: yellow
// CHECK-LABEL: func.func @reorg_then_m2m
// YES: mapping = "Many-to-Many", ops = ["nn.reshape", "nn.softmax"]
// NO: mapping = "Reorganize", ops = ["nn.reshape"]
// NO: mapping = "Many-to-Many", ops = ["nn.softmax"]
// CHECK: return
func.func @reorg_then_m2m(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.reshape"(%x, %shape) : (tensor<4x4xf32>, tensor<2xi64>) -> tensor<4x4xf32>
  %b = "nn.softmax"(%a) {axis = -1 : si64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// Reorganize -> Reorganize: green
// CHECK-LABEL: func.func @reorg_then_reorg
// CHECK: mapping = "Reorganize", ops = ["nn.reshape", "nn.reshape"]
// CHECK: return
func.func @reorg_then_reorg(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.reshape"(%x, %shape) : (tensor<4x4xf32>, tensor<2xi64>) -> tensor<4x4xf32>
  %b = "nn.reshape"(%a, %shape) : (tensor<4x4xf32>, tensor<2xi64>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// Reorganize -> Shuffle: green
// CHECK-LABEL: func.func @reorg_then_shuffle
// CHECK: mapping = "Reorganize", ops = ["nn.reshape", "nn.transpose"]
// CHECK: return
func.func @reorg_then_shuffle(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.reshape"(%x, %shape) : (tensor<4x4xf32>, tensor<2xi64>) -> tensor<4x4xf32>
  %b = "nn.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// Shuffle -> One-to-One: green
// CHECK-LABEL: func.func @shuffle_then_o2o
// CHECK: mapping = "Shuffle", ops = ["nn.transpose", "nn.relu"]
// CHECK: return
func.func @shuffle_then_o2o(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = "nn.relu"(%a) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// Shuffle -> One-to-Many: yellow
// CHECK-LABEL: func.func @shuffle_then_o2m
// YES: mapping = "One-to-Many", ops = ["nn.transpose", "nn.add"]
// NO: mapping = "Shuffle", ops = ["nn.transpose"]
// NO: mapping = "One-to-Many", ops = ["nn.add"]
// CHECK: return
func.func @shuffle_then_o2m(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = "nn.add"(%a, %bias) : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// Shuffle -> Many-to-Many: yellow
// CHECK-LABEL: func.func @shuffle_then_m2m
// YES: mapping = "Many-to-Many", ops = ["nn.transpose", "nn.softmax"]
// NO: mapping = "Shuffle", ops = ["nn.transpose"]
// NO: mapping = "Many-to-Many", ops = ["nn.softmax"]
// CHECK: return
func.func @shuffle_then_m2m(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = "nn.softmax"(%a) {axis = -1 : si64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// Shuffle -> Reorganize: green
// CHECK-LABEL: func.func @shuffle_then_reorg
// CHECK: mapping = "Reorganize", ops = ["nn.transpose", "nn.reshape"]
// CHECK: return
func.func @shuffle_then_reorg(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = "nn.reshape"(%a, %shape) : (tensor<4x4xf32>, tensor<2xi64>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// Shuffle -> Shuffle: green
// CHECK-LABEL: func.func @shuffle_then_shuffle
// CHECK: mapping = "Shuffle", ops = ["nn.transpose", "nn.transpose"]
// CHECK: return
func.func @shuffle_then_shuffle(%x: tensor<4x4xf32>, %bias: tensor<4xf32>) -> tensor<4x4xf32> {
  %shape = "nn.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = "nn.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}
