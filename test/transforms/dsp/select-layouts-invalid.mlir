// dsp-select-layouts refuses bad options and graphs it cannot take, at the function.
// RUN: not strata-opt %s "--dsp-select-layouts=mode=greedy" 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not strata-opt %s "--dsp-select-layouts=max-partition=0" 2>&1 | FileCheck %s --check-prefix=PART
// MODE: select-layouts-invalid.mlir:[[@LINE+2]]:1: error: dsp-select-layouts: mode must be local, chain, partition or exhaustive and max-partition 1..17 (got mode=greedy max-partition=13)
// PART: error: dsp-select-layouts: mode must be local, chain, partition or exhaustive and max-partition 1..17 (got mode=partition max-partition=0)
func.func @f(%a: tensor<8x8xui8>, %w: tensor<8x8xi8>) -> tensor<8x8xi32> {
  %c = "dsp.matmul"(%a, %w) : (tensor<8x8xui8>, tensor<8x8xi8>) -> tensor<8x8xi32>
  return %c : tensor<8x8xi32>
}
