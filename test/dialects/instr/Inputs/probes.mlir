func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %p = "instr.probe"(%x) {op_id = 0 : i64, point = "after", tool = "trace", op_name = "nn.relu", index = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %p : tensor<4xf32>
}
