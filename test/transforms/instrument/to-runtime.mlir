// --instr-to-runtime: probes become calls of their tool's runtime sink; the
// probe's result becomes its operand again; names are constant i8 globals;
// each public function holding probes starts a run.
// RUN: strata-opt %s --split-input-file --instr-to-runtime | FileCheck %s
// Without probes, nothing changes.
// RUN: strata-opt %S/Inputs/resnet-block.mlir -o %t.a
// RUN: strata-opt %S/Inputs/resnet-block.mlir --instr-to-runtime -o %t.b
// RUN: diff %t.a %t.b

// CHECK-LABEL: module
// CHECK-DAG: memref.global "private" constant @__strata_instr_name_0 : memref<7xi8> = dense<[110, 110, 46, 114, 101, 108, 117]>
// CHECK-DAG: func.func private @strata_rt_instr_trace(memref<*xf32>, i64, i64, i64, memref<*xi8>) attributes {llvm.emit_c_interface}
// CHECK-DAG: func.func private @strata_rt_instr_profile(i64, i64, i64, memref<*xi8>) attributes {llvm.emit_c_interface}
// CHECK-DAG: func.func private @strata_rt_instr_run_begin() attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @f
// CHECK-NEXT: call @strata_rt_instr_run_begin() : () -> ()
// CHECK: %[[R:.*]] = "nn.relu"(%arg0)
// CHECK: %[[B:.*]] = bufferization.to_buffer %[[R]] read_only
// CHECK: %[[U:.*]] = memref.cast %[[B]] : {{.*}} to memref<*xf32>
// CHECK: %[[N:.*]] = memref.get_global @__strata_instr_name_0 : memref<7xi8>
// CHECK: %[[NU:.*]] = memref.cast %[[N]] : memref<7xi8> to memref<*xi8>
// CHECK: call @strata_rt_instr_trace(%[[U]], %{{.*}}, %{{.*}}, %{{.*}}, %[[NU]])
// CHECK: call @strata_rt_instr_profile(
// CHECK: "nn.neg"(%[[R]])
// CHECK-NOT: instr.probe
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "nn.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %p = "instr.probe"(%r) {op_id = 0 : i64, point = "after", tool = "trace", op_name = "nn.relu", index = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %q = "instr.probe"(%p) {op_id = 1 : i64, point = "before", tool = "profile", op_name = "nn.neg", index = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %n = "nn.neg"(%q) : (tensor<4xf32>) -> tensor<4xf32>
  return %n : tensor<4xf32>
}
