// --nn-to-kernels and instrumentation probes: an epilogue is absorbed
// across the probes of the `profile` tool (they read no value), which then
// run after the fused call, in their order, reading its result; a probe
// that reads the value (trace, dump) keeps the epilogue out of the kernel.
// RUN: strata-opt %s --split-input-file --nn-to-kernels | FileCheck %s

// conv -> relu with profile probes at every point: one call with the relu
// (act = 1); conv's "after" and relu's "before" follow the call.
// CHECK-LABEL: func.func @conv_relu_profile
// CHECK: %[[IN:.*]] = "instr.probe"(%arg0) {{{.*}}op_id = 0 : i64, op_name = "nn.conv", point = "before", tool = "profile"}
// CHECK: bufferization.to_buffer %[[IN]] read_only
// CHECK: call @strata_rt_conv2d_f32(
// CHECK-SAME: %c1_i64{{[_0-9]*}}, %cst{{[_0-9]*}}, %cst{{[_0-9]*}}) :
// CHECK: %[[Y:.*]] = bufferization.to_tensor
// CHECK-NEXT: %[[P1:.*]] = "instr.probe"(%[[Y]]) {{{.*}}op_id = 0 : i64, op_name = "nn.conv", point = "after", tool = "profile"}
// CHECK-NEXT: "instr.probe"(%[[P1]]) {{{.*}}op_id = 1 : i64, op_name = "nn.relu", point = "before", tool = "profile"}
// CHECK-NEXT: %[[P3:.*]] = "instr.probe"(%[[Y]]) {{{.*}}op_id = 1 : i64, op_name = "nn.relu", point = "after", tool = "profile"}
// CHECK-NEXT: return %[[P3]]
// CHECK-NOT: nn.relu"(
func.func @conv_relu_profile(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = "instr.probe"(%x) {index = 0 : i64, op_id = 0 : i64, op_name = "nn.conv", point = "before", tool = "profile"} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %1 = "nn.conv"(%0, %w) {instr.op_id = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %2 = "instr.probe"(%1) {index = 0 : i64, op_id = 0 : i64, op_name = "nn.conv", point = "after", tool = "profile"} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %3 = "instr.probe"(%2) {index = 0 : i64, op_id = 1 : i64, op_name = "nn.relu", point = "before", tool = "profile"} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %4 = "nn.relu"(%3) {instr.op_id = 1 : i64} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %5 = "instr.probe"(%4) {index = 0 : i64, op_id = 1 : i64, op_name = "nn.relu", point = "after", tool = "profile"} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %5 : tensor<1x4x6x6xf32>
}

// -----
// conv -> add (the residual is the add's input 0, under the add's own
// "before" probe) -> clip: the call reads the residual itself (one addend,
// act = 2), and the add's probe moves after the call with the others, in
// program order; another op's probe on the residual stays.
// CHECK-LABEL: func.func @conv_residual_clip_profile
// CHECK: %[[R:.*]] = "instr.probe"(%arg2) {{{.*}}op_id = 7 : i64, op_name = "nn.relu", point = "after", tool = "profile"}
// CHECK: bufferization.to_buffer %[[R]] read_only
// CHECK: call @strata_rt_conv2d_f32(
// CHECK-SAME: %c1_i64{{[_0-9]*}}, %cst{{[_0-9]*}}, %cst{{[_0-9]*}}, %c2_i64{{[_0-9]*}}, %cst{{[_0-9]*}}, %cst{{[_0-9]*}}) :
// CHECK: %[[Y:.*]] = bufferization.to_tensor
// CHECK-NEXT: %[[P1:.*]] = "instr.probe"(%[[Y]]) {{{.*}}op_id = 0 : i64, op_name = "nn.conv", point = "after", tool = "profile"}
// CHECK-NEXT: "instr.probe"(%[[R]]) {{{.*}}op_id = 1 : i64, op_name = "nn.add", point = "before", tool = "profile"}
// CHECK-NEXT: %[[P3:.*]] = "instr.probe"(%[[Y]]) {{{.*}}op_id = 1 : i64, op_name = "nn.add", point = "after", tool = "profile"}
// CHECK-NEXT: "instr.probe"(%[[P3]]) {{{.*}}op_id = 2 : i64, op_name = "nn.clip", point = "before", tool = "profile"}
// CHECK-NEXT: %[[P5:.*]] = "instr.probe"(%[[Y]]) {{{.*}}op_id = 2 : i64, op_name = "nn.clip", point = "after", tool = "profile"}
// CHECK-NEXT: return %[[P5]]
// CHECK-NOT: "nn.
func.func @conv_residual_clip_profile(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %res: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %r = "instr.probe"(%res) {index = 0 : i64, op_id = 7 : i64, op_name = "nn.relu", point = "after", tool = "profile"} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %1 = "nn.conv"(%x, %w) {instr.op_id = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %2 = "instr.probe"(%1) {index = 0 : i64, op_id = 0 : i64, op_name = "nn.conv", point = "after", tool = "profile"} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %3 = "instr.probe"(%r) {index = 0 : i64, op_id = 1 : i64, op_name = "nn.add", point = "before", tool = "profile"} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %4 = "nn.add"(%3, %2) {instr.op_id = 1 : i64} : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %5 = "instr.probe"(%4) {index = 0 : i64, op_id = 1 : i64, op_name = "nn.add", point = "after", tool = "profile"} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %6 = "instr.probe"(%5) {index = 0 : i64, op_id = 2 : i64, op_name = "nn.clip", point = "before", tool = "profile"} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %7 = "nn.clip"(%6) {instr.op_id = 2 : i64, min = 0.0 : f32, max = 6.0 : f32} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %8 = "instr.probe"(%7) {index = 0 : i64, op_id = 2 : i64, op_name = "nn.clip", point = "after", tool = "profile"} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %8 : tensor<1x4x6x6xf32>
}

// -----
// A trace probe reads the matmul's own output: the add stays apart, and
// the probe reads the call's (unfused) result.
// CHECK-LABEL: func.func @matmul_add_trace
// CHECK: call @strata_rt_matmul_f32(
// CHECK: %[[Y:.*]] = bufferization.to_tensor
// CHECK: %[[T:.*]] = "instr.probe"(%[[Y]]) {{{.*}}tool = "trace"}
// CHECK: "nn.add"(%[[T]], %arg2)
func.func @matmul_add_trace(%a: tensor<4x6xf32>, %b: tensor<6x3xf32>, %c: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %y = "nn.matmul"(%a, %b) {instr.op_id = 0 : i64} : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  %t = "instr.probe"(%y) {index = 0 : i64, op_id = 0 : i64, op_name = "nn.matmul", point = "after", tool = "trace"} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %s = "nn.add"(%t, %c) {instr.op_id = 1 : i64} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %s : tensor<4x3xf32>
}

// -----
// A dump probe after profile's: the chain of probes must be profile's only.
// CHECK-LABEL: func.func @conv_relu_profile_dump
// CHECK: call @strata_rt_conv2d_f32(
// CHECK: %[[Y:.*]] = bufferization.to_tensor
// CHECK: %[[P:.*]] = "instr.probe"(%[[Y]]) {{{.*}}tool = "profile"}
// CHECK: %[[D:.*]] = "instr.probe"(%[[P]]) {{{.*}}tool = "dump"}
// CHECK: "nn.relu"(%[[D]])
func.func @conv_relu_profile_dump(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %1 = "nn.conv"(%x, %w) {instr.op_id = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %2 = "instr.probe"(%1) {index = 0 : i64, op_id = 0 : i64, op_name = "nn.conv", point = "after", tool = "profile"} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %3 = "instr.probe"(%2) {index = 0 : i64, op_id = 0 : i64, op_name = "nn.conv", point = "after", tool = "dump"} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %4 = "nn.relu"(%3) {instr.op_id = 1 : i64} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %4 : tensor<1x4x6x6xf32>
}

// -----
// A profile probe whose result has a second user: the conv's output is
// needed unfused, so the relu stays apart (as without the probe).
// CHECK-LABEL: func.func @profile_shared
// CHECK: call @strata_rt_conv2d_f32(
// CHECK: "instr.probe"
// CHECK: "nn.relu"
func.func @profile_shared(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) {
  %1 = "nn.conv"(%x, %w) {instr.op_id = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %2 = "instr.probe"(%1) {index = 0 : i64, op_id = 0 : i64, op_name = "nn.conv", point = "after", tool = "profile"} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %3 = "nn.relu"(%2) {instr.op_id = 1 : i64} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %2, %3 : tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>
}
