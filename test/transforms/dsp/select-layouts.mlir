// dsp-select-layouts: one plan per operator, conversions only where
// neighbours disagree, and the same values before and after.
// RUN: strata-opt %s --dsp-select-layouts | FileCheck %s
// RUN: strata-opt %s "--dsp-select-layouts=mode=local" | FileCheck %s --check-prefix=LOCAL
// RUN: strata-opt %s "--dsp-select-layouts=report=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
// RUN: strata-opt %s "--dsp-select-layouts=mode=exhaustive report=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=EXH
// RUN: not strata-opt %s "--dsp-select-layouts=mode=chain" 2>&1 >/dev/null | FileCheck %s --check-prefix=CHAIN
// Conversions already there are planned through and replaced.
// RUN: strata-opt %s "--dsp-select-layouts=mode=local" | strata-opt --dsp-select-layouts | FileCheck %s
// Running it again changes nothing.
// RUN: strata-opt %s --dsp-select-layouts > %t.once.mlir
// RUN: strata-opt %t.once.mlir --dsp-select-layouts | diff -u %t.once.mlir -
// The interpreter computes each MatMul as its chosen instruction does on HVX;
// the results are those of the int32 reference.
// RUN: strata-run %s --interpret --entry chain > %t.ref
// RUN: strata-run %t.once.mlir --interpret --entry chain > %t.sel
// RUN: grep -v interpreted %t.ref > %t.ref.values
// RUN: grep -v interpreted %t.sel > %t.sel.values
// RUN: diff %t.ref.values %t.sel.values
// RUN: FileCheck %s --check-prefix=VALUES < %t.sel

// The first MatMul (64 rows, K = 160) alone would take vmpa, by a hair;
// the second (K = 256) takes vrmpy. Locally that costs a conversion between
// them; globally the first one takes vrmpy too, which is cheaper than
// converting.
// CHECK-LABEL: func.func @chain
// CHECK: "dsp.matmul"(%{{.*}}, %{{.*}}) {inst = "vrmpy", layout = "col4"}
// CHECK: "dsp.requant"(%{{.*}}) {layout = "col4", shift = 6 : i64}
// CHECK-NOT: dsp.convert_layout
// CHECK: "dsp.matmul"(%{{.*}}, %{{.*}}) {inst = "vrmpy", layout = "col4"}
// LOCAL-LABEL: func.func @chain
// LOCAL: "dsp.matmul"(%{{.*}}, %{{.*}}) {inst = "vmpa", layout = "col2"}
// LOCAL: "dsp.requant"(%{{.*}}) {layout = "col2", shift = 6 : i64}
// LOCAL: "dsp.convert_layout"(%{{.*}}) {from = "col2", to = "col4"}
// LOCAL: "dsp.matmul"(%{{.*}}, %{{.*}}) {inst = "vrmpy", layout = "col4"}
// REPORT: remark: dsp-select-layouts (partition): 3 operators, Agg_Cost 25523.2 (local choice 26035.2), 0 conversions
// EXH: remark: dsp-select-layouts (exhaustive): 3 operators, Agg_Cost 25523.2
// VALUES: output #0: 64x32xi32  min 10240  max 10240
func.func @chain() -> tensor<64x32xi32> {
  %a = arith.constant dense<3> : tensor<64x160xui8>
  %w = arith.constant dense<1> : tensor<160x256xi8>
  %w2 = arith.constant dense<5> : tensor<256x32xi8>
  %c = "dsp.matmul"(%a, %w) : (tensor<64x160xui8>, tensor<160x256xi8>) -> tensor<64x256xi32>
  %r = "dsp.requant"(%c) {shift = 6} : (tensor<64x256xi32>) -> tensor<64x256xui8>
  %d = "dsp.matmul"(%r, %w2) : (tensor<64x256xui8>, tensor<256x32xi8>) -> tensor<64x32xi32>
  return %d : tensor<64x32xi32>
}

// -----

// A transpose reads any layout: nothing converts into it, and it writes
// the layout its consumer wants.
// CHECK-LABEL: func.func @dag
// CHECK: %[[M:.*]] = "dsp.matmul"(%{{.*}}, %{{.*}}) {inst = "vmpy", layout = "col1"}
// CHECK: %[[R:.*]] = "dsp.requant"(%[[M]]) {layout = "col1", shift = 4 : i64}
// CHECK: %[[T:.*]] = "dsp.transpose"(%[[R]]) {layout = "col4"}
// CHECK: "dsp.matmul"(%[[T]], %{{.*}}) {inst = "vrmpy", layout = "col4"}
// CHAIN: select-layouts.mlir:[[@LINE+1]]:1: error: dsp-select-layouts: the graph is not a chain (operator 4 does not follow 1)
func.func @dag(%a: tensor<128x128xui8>, %w: tensor<128x32xi8>, %w2: tensor<128x64xi8>) -> (tensor<128x32xui8>, tensor<32x64xi32>) {
  %c = "dsp.matmul"(%a, %w) : (tensor<128x128xui8>, tensor<128x32xi8>) -> tensor<128x32xi32>
  %r = "dsp.requant"(%c) {shift = 4} : (tensor<128x32xi32>) -> tensor<128x32xui8>
  %t = "dsp.transpose"(%r) : (tensor<128x32xui8>) -> tensor<32x128xui8>
  %d = "dsp.matmul"(%t, %w2) : (tensor<32x128xui8>, tensor<128x64xi8>) -> tensor<32x64xi32>
  %r2 = "dsp.requant"(%c) {shift = 5} : (tensor<128x32xi32>) -> tensor<128x32xui8>
  return %r2, %d : tensor<128x32xui8>, tensor<32x64xi32>
}
