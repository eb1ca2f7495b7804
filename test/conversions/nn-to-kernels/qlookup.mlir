// --nn-to-kernels, the residual Add that nn-qdq-to-qlinear writes as a table
// lookup (transforms/quant/qdq_add.c): nn.gather(table, (cast(a) * 256 +
// cast(b)) [+ off]) with a constant 8-bit table of 65540 entries and a, b
// and the result of one static shape becomes one strata_rt_qlookup2_q8
// call (flags: 1 a is i8, 2 b is i8; off = 32768 * (a is i8) + 128 * (b is
// i8)). Other forms stay nn (the gather's loops compute them).
// RUN: strata-opt %s --split-input-file --nn-to-kernels | FileCheck %s

// CHECK-DAG: func.func private @strata_rt_qlookup2_q8(memref<*xi8>, memref<*xi8>, memref<*xi8>, memref<*xi8>, i64) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @u8_u8
// CHECK: %[[F:.*]] = arith.constant 0 : i64
// CHECK: call @strata_rt_qlookup2_q8({{.*}}, %[[F]])
// CHECK-NOT: nn.gather
// CHECK-NOT: nn.cast
func.func @u8_u8(%a: tensor<2x3xui8>, %b: tensor<2x3xui8>) -> tensor<2x3xui8> {
  %t = "nn.constant"() {value = dense<7> : tensor<65540xui8>} : () -> tensor<65540xui8>
  %k = "nn.constant"() {value = dense<256> : tensor<i32>} : () -> tensor<i32>
  %ia = "nn.cast"(%a) : (tensor<2x3xui8>) -> tensor<2x3xi32>
  %ib = "nn.cast"(%b) : (tensor<2x3xui8>) -> tensor<2x3xi32>
  %m = "nn.mul"(%ia, %k) : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
  %s = "nn.add"(%m, %ib) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %y = "nn.gather"(%t, %s) {axis = 0 : i64} : (tensor<65540xui8>, tensor<2x3xi32>) -> tensor<2x3xui8>
  return %y : tensor<2x3xui8>
}

// -----
// a i8, b u8: the offset 32768, flags 1; an i8 table and result.
// CHECK-LABEL: func.func @i8_u8
// CHECK: %[[F:.*]] = arith.constant 1 : i64
// CHECK: call @strata_rt_qlookup2_q8({{.*}}, %[[F]])
// CHECK-NOT: nn.gather
func.func @i8_u8(%a: tensor<5xi8>, %b: tensor<5xui8>) -> tensor<5xi8> {
  %t = "nn.constant"() {value = dense<-3> : tensor<65540xi8>} : () -> tensor<65540xi8>
  %k = "nn.constant"() {value = dense<256> : tensor<i32>} : () -> tensor<i32>
  %o = "nn.constant"() {value = dense<32768> : tensor<i32>} : () -> tensor<i32>
  %ia = "nn.cast"(%a) : (tensor<5xi8>) -> tensor<5xi32>
  %ib = "nn.cast"(%b) : (tensor<5xui8>) -> tensor<5xi32>
  %m = "nn.mul"(%ia, %k) : (tensor<5xi32>, tensor<i32>) -> tensor<5xi32>
  %s = "nn.add"(%m, %ib) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  %s2 = "nn.add"(%s, %o) : (tensor<5xi32>, tensor<i32>) -> tensor<5xi32>
  %y = "nn.gather"(%t, %s2) {axis = 0 : i64} : (tensor<65540xi8>, tensor<5xi32>) -> tensor<5xi8>
  return %y : tensor<5xi8>
}

// -----
// The offset does not match the signedness (a is u8): not the kernel's.
// CHECK-LABEL: func.func @wrong_offset
// CHECK-NOT: strata_rt_qlookup2_q8
// CHECK: nn.gather
func.func @wrong_offset(%a: tensor<5xui8>, %b: tensor<5xui8>) -> tensor<5xui8> {
  %t = "nn.constant"() {value = dense<1> : tensor<65540xui8>} : () -> tensor<65540xui8>
  %k = "nn.constant"() {value = dense<256> : tensor<i32>} : () -> tensor<i32>
  %o = "nn.constant"() {value = dense<32768> : tensor<i32>} : () -> tensor<i32>
  %ia = "nn.cast"(%a) : (tensor<5xui8>) -> tensor<5xi32>
  %ib = "nn.cast"(%b) : (tensor<5xui8>) -> tensor<5xi32>
  %m = "nn.mul"(%ia, %k) : (tensor<5xi32>, tensor<i32>) -> tensor<5xi32>
  %s = "nn.add"(%m, %ib) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  %s2 = "nn.add"(%s, %o) : (tensor<5xi32>, tensor<i32>) -> tensor<5xi32>
  %y = "nn.gather"(%t, %s2) {axis = 0 : i64} : (tensor<65540xui8>, tensor<5xi32>) -> tensor<5xui8>
  return %y : tensor<5xui8>
}

// -----
// A multiplier other than 256, a table of another length, an operand that
// broadcasts: not the kernel's.
// CHECK-LABEL: func.func @not_lookups
// CHECK-NOT: strata_rt_qlookup2_q8
// CHECK-COUNT-3: nn.gather
func.func @not_lookups(%a: tensor<5xui8>, %b: tensor<5xui8>, %c: tensor<1xui8>) -> (tensor<5xui8>, tensor<5xui8>, tensor<5xui8>) {
  %t = "nn.constant"() {value = dense<1> : tensor<65540xui8>} : () -> tensor<65540xui8>
  %t2 = "nn.constant"() {value = dense<1> : tensor<65536xui8>} : () -> tensor<65536xui8>
  %k = "nn.constant"() {value = dense<256> : tensor<i32>} : () -> tensor<i32>
  %k2 = "nn.constant"() {value = dense<255> : tensor<i32>} : () -> tensor<i32>
  %ia = "nn.cast"(%a) : (tensor<5xui8>) -> tensor<5xi32>
  %ib = "nn.cast"(%b) : (tensor<5xui8>) -> tensor<5xi32>
  %m = "nn.mul"(%ia, %k2) : (tensor<5xi32>, tensor<i32>) -> tensor<5xi32>
  %s = "nn.add"(%m, %ib) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  %y = "nn.gather"(%t, %s) {axis = 0 : i64} : (tensor<65540xui8>, tensor<5xi32>) -> tensor<5xui8>
  %ja = "nn.cast"(%a) : (tensor<5xui8>) -> tensor<5xi32>
  %jb = "nn.cast"(%b) : (tensor<5xui8>) -> tensor<5xi32>
  %m2 = "nn.mul"(%ja, %k) : (tensor<5xi32>, tensor<i32>) -> tensor<5xi32>
  %s2 = "nn.add"(%m2, %jb) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  %y2 = "nn.gather"(%t2, %s2) {axis = 0 : i64} : (tensor<65536xui8>, tensor<5xi32>) -> tensor<5xui8>
  %ka = "nn.cast"(%a) : (tensor<5xui8>) -> tensor<5xi32>
  %kc = "nn.cast"(%c) : (tensor<1xui8>) -> tensor<1xi32>
  %m3 = "nn.mul"(%ka, %k) : (tensor<5xi32>, tensor<i32>) -> tensor<5xi32>
  %s3 = "nn.add"(%m3, %kc) : (tensor<5xi32>, tensor<1xi32>) -> tensor<5xi32>
  %y3 = "nn.gather"(%t, %s3) {axis = 0 : i64} : (tensor<65540xui8>, tensor<5xi32>) -> tensor<5xui8>
  return %y, %y2, %y3 : tensor<5xui8>, tensor<5xui8>, tensor<5xui8>
}
