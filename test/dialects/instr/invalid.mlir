// instr.probe's IRDL (generated from its op table) requires its attributes;
// the generic C verifier, from the same table, names the attribute whose
// value is wrong, and the probe's shape inference the type.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @no_id(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'instr.probe' op attribute "op_id" is expected but not provided}}
  %p = "instr.probe"(%x) {point = "after", tool = "trace", op_name = "nn.relu", index = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %p : tensor<4xf32>
}

// -----

func.func @negative_index(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'instr.probe' op needs attribute 'index': a non-negative integer}}
  %p = "instr.probe"(%x) {op_id = 3 : i64, point = "after", tool = "trace", op_name = "nn.relu", index = -1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %p : tensor<4xf32>
}

// -----

func.func @bad_point(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'instr.probe' op needs attribute 'point': "before" or "after"}}
  %p = "instr.probe"(%x) {op_id = 3 : i64, point = "during", tool = "trace", op_name = "nn.relu", index = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %p : tensor<4xf32>
}

// -----

func.func @id_not_an_integer(%x: tensor<4xf32>) -> tensor<4xf32> {
  // IRDL checks the kind.
  // expected-error@+1 {{expected base attribute 'builtin.integer' but got 'builtin.string'}}
  %p = "instr.probe"(%x) {op_id = "three", point = "after", tool = "trace", op_name = "nn.relu", index = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %p : tensor<4xf32>
}

// -----

func.func @id_is_a_bool(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'instr.probe' op needs attribute 'op_id': a non-negative integer}}
  %p = "instr.probe"(%x) {op_id = true, point = "after", tool = "trace", op_name = "nn.relu", index = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %p : tensor<4xf32>
}

// -----

func.func @empty_tool(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'instr.probe' op needs attribute 'tool': a non-empty string}}
  %p = "instr.probe"(%x) {op_id = 3 : i64, point = "after", tool = "", op_name = "nn.relu", index = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %p : tensor<4xf32>
}

// -----

func.func @no_op_name(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'instr.probe' op attribute "op_name" is expected but not provided}}
  %p = "instr.probe"(%x) {op_id = 3 : i64, point = "after", tool = "trace", index = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %p : tensor<4xf32>
}

// -----

func.func @changes_type(%x: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error@+1 {{'instr.probe' op result type tensor<5xf32> does not match the inferred type tensor<4xf32>}}
  %p = "instr.probe"(%x) {op_id = 3 : i64, point = "after", tool = "trace", op_name = "nn.relu", index = 0 : i64} : (tensor<4xf32>) -> tensor<5xf32>
  return %p : tensor<5xf32>
}

// -----

func.func @two_operands(%x: tensor<4xf32>) -> tensor<4xf32> {
  // IRDL states the structure: one operand.
  // expected-error@+1 {{op expects exactly 1 operands, but got 2}}
  %p = "instr.probe"(%x, %x) {op_id = 3 : i64, point = "after", tool = "trace", op_name = "nn.relu", index = 0 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %p : tensor<4xf32>
}
