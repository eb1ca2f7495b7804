// dsp-lower-operators: a MatMul (its vrmpy plan, or none) becomes loops of
// dsp.vrmpy_acc over 4-column panels packed from row-major A once (a group
// is one 128-byte load); a layout conversion is its operand; nn-to-dsp's
// flip_sign, im2col, qrequant and qsum become linalg.generic nests of
// integer arith (quant.mlir). The result then lowers through dsp-to-vector
// and dsp-to-hexagon with no dsp op left (test/targets/hexagon/matmul.test
// runs it under qemu-hexagon against the interpreter).
// RUN: strata-opt %s --dsp-lower-operators | FileCheck %s
// RUN: strata-opt %s --dsp-lower-operators --dsp-to-vector | FileCheck %s --check-prefix=VEC
// RUN: strata-opt %s --dsp-lower-operators --dsp-to-hexagon | FileCheck %s --check-prefix=HEX
// RUN: not strata-opt %S/Inputs/refused.mlir --dsp-lower-operators 2>&1 | FileCheck %S/Inputs/refused.mlir

// CHECK-LABEL: func.func @mm
// The panels packed once: 3 panels x 10 groups x 128 bytes, zero beyond M and K.
// CHECK: %[[PACK:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<3x10x128xi8>)
// CHECK: tensor.extract %{{.*}} : tensor<70x37xui8>
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<70x7xi32>
// CHECK: scf.for %[[P:.*]] = %{{.*}} to %c3 step
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %c7 step
// CHECK: scf.for %[[G:.*]] = %{{.*}} to %c10 step {{.*}} -> (vector<32xi32>)
// CHECK: vector.transfer_read %[[PACK]][%[[P]], %[[G]], %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<3x10x128xi8>, vector<128xi8>
// CHECK-COUNT-4: tensor.extract %{{.*}}[%{{.*}}, %[[N]]] : tensor<37x7xi8>
// CHECK: "dsp.vrmpy_acc"(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<32xi32>, vector<128xi8>, i32) -> vector<32xi32>
// CHECK: arith.minsi
// CHECK: vector.extract %{{.*}}[%{{.*}}] : i32 from vector<32xi32>
// CHECK: tensor.insert
// CHECK-NOT: dsp.convert_layout
// CHECK-NOT: dsp.matmul
// CHECK-LABEL: func.func @requant
// CHECK: %[[E:.*]] = tensor.empty() : tensor<70x7xui8>
// CHECK: vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : tensor<70x7xi32>, vector<32xi32>
// CHECK: arith.extsi {{.*}} to vector<32xi64>
// CHECK: arith.shrsi
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: arith.trunci {{.*}} to vector<32xi8>
// CHECK: vector.transfer_write %{{.*}} : vector<32xui8>, tensor<70x7xui8>
// VEC-NOT: dsp.
// HEX: llvm.call_intrinsic "llvm.hexagon.V6.vrmpybus.acc.128B"
// HEX-NOT: "dsp.
func.func @mm(%a: tensor<70x37xui8>, %b: tensor<37x7xi8>) -> tensor<70x7xi32> {
  %c = "dsp.convert_layout"(%a) {from = "col1", to = "col4"} : (tensor<70x37xui8>) -> tensor<70x37xui8>
  %d = "dsp.matmul"(%c, %b) {inst = "vrmpy", layout = "col4"} : (tensor<70x37xui8>, tensor<37x7xi8>) -> tensor<70x7xi32>
  return %d : tensor<70x7xi32>
}
func.func @requant(%x: tensor<70x7xi32>) -> tensor<70x7xui8> {
  %y = "dsp.requant"(%x) {shift = 7} : (tensor<70x7xi32>) -> tensor<70x7xui8>
  return %y : tensor<70x7xui8>
}
