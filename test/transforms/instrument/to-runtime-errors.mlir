// --instr-to-runtime refuses probes it has no sink for, with a location.
// RUN: strata-opt %s --split-input-file --verify-diagnostics --instr-to-runtime

func.func @unknown_tool(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{instr-to-runtime: no runtime sink for tool 'mine' (sinks: trace, profile, dump)}}
  %p = "instr.probe"(%x) {op_id = 0 : i64, point = "after", tool = "mine", op_name = "nn.relu", index = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %p : tensor<4xf32>
}

// -----

func.func @trace_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{instr-to-runtime: the trace sink takes f32 tensors; this probe carries tensor<4xi32>}}
  %p = "instr.probe"(%x) {op_id = 0 : i64, point = "after", tool = "trace", op_name = "nn.relu", index = 0 : i64} : (tensor<4xi32>) -> tensor<4xi32>
  return %p : tensor<4xi32>
}
