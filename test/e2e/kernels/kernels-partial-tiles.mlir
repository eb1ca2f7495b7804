// Partial GEMM tiles (the ISA's kernelPart: only a tile's first rows and
// vectors computed, runtime/isa.c) and the transposed product chosen by
// their cost (gemm.c, swapPays), against the interpreter. 1x1 convolutions
// on small maps with many channels (RegNetX's 7x7, 400 channels) run as
// C^T = B^T A^T: their pixels are the tiles' rows, so 49, 35, 30 and 36
// pixels leave partial row tiles of 1..6 rows (MR 8 on AVX-512, 6
// otherwise), and 200 or 216 channels a partial panel of one or two
// vectors; K = 600 and 601 cross KC = 512 (partial tiles accumulate into
// C^T), and an odd K leaves the split accumulators' last k alone. Small
// matmuls take partial tiles on the direct product. Residual and relu
// epilogues run after the transposition. Sums of ~600 products of
// magnitude ~1 differ from the interpreter's summation order by ~1e-5, so
// the absolute tolerance is 1e-4.
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-4 | FileCheck %s
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-4 --threads 2 | FileCheck %s
// RUN: env STRATA_RT_ISA=avx2 %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-4 | FileCheck %s
// RUN: env STRATA_RT_ISA=generic %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-4 | FileCheck %s
// RUN: env STRATA_RT_ISA=generic %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-4 --threads 2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

// 49 pixels (a one-row tail), 200 channels (one vector left over on AVX-512).
func.func @pointwise7x7_bias_residual_relu(%x: tensor<1x600x7x7xf32>, %w: tensor<200x600x1x1xf32>, %b: tensor<200xf32>, %r: tensor<1x200x7x7xf32>) -> tensor<1x200x7x7xf32> {
  %y = "nn.conv"(%x, %w, %b) : (tensor<1x600x7x7xf32>, tensor<200x600x1x1xf32>, tensor<200xf32>) -> tensor<1x200x7x7xf32>
  %s = "nn.add"(%y, %r) : (tensor<1x200x7x7xf32>, tensor<1x200x7x7xf32>) -> tensor<1x200x7x7xf32>
  %z = "nn.relu"(%s) : (tensor<1x200x7x7xf32>) -> tensor<1x200x7x7xf32>
  return %z : tensor<1x200x7x7xf32>
}
// 35 pixels (tails of 3 and 5 rows), 216 channels (two vectors left over
// on AVX-512), odd K.
func.func @pointwise7x5_odd_k(%x: tensor<1x601x7x5xf32>, %w: tensor<216x601x1x1xf32>) -> tensor<1x216x7x5xf32> {
  %y = "nn.conv"(%x, %w) : (tensor<1x601x7x5xf32>, tensor<216x601x1x1xf32>) -> tensor<1x216x7x5xf32>
  return %y : tensor<1x216x7x5xf32>
}
// 36 pixels (a 4-row tail on AVX-512), constant weights (A^T packed once).
func.func @pointwise6x6_constant_weights(%x: tensor<1x600x6x6xf32>) -> tensor<1x216x6x6xf32> {
  %w = "nn.constant"() {value = dense<0.0078125> : tensor<216x600x1x1xf32>} : () -> tensor<216x600x1x1xf32>
  %y = "nn.conv"(%x, %w) : (tensor<1x600x6x6xf32>, tensor<216x600x1x1xf32>) -> tensor<1x216x6x6xf32>
  %z = "nn.relu"(%y) : (tensor<1x216x6x6xf32>) -> tensor<1x216x6x6xf32>
  return %z : tensor<1x216x6x6xf32>
}
// 30 pixels: direct on AVX-512 (a 30-column panel, two vectors, partial),
// transposed on the others (a 6-row tail of 8 rows where MR is 8).
func.func @pointwise6x5_bias(%x: tensor<1x600x6x5xf32>, %w: tensor<200x600x1x1xf32>, %b: tensor<200xf32>) -> tensor<1x200x6x5xf32> {
  %y = "nn.conv"(%x, %w, %b) : (tensor<1x600x6x5xf32>, tensor<200x600x1x1xf32>, tensor<200xf32>) -> tensor<1x200x6x5xf32>
  return %y : tensor<1x200x6x5xf32>
}
// Direct products with row and column tails: 13 rows (8 + 5, 6 + 6 + 1),
// 21 columns (two vectors, partial) and 9 (one vector), odd K.
func.func @matmul_tails_13x21(%a: tensor<13x37xf32>, %b: tensor<37x21xf32>) -> tensor<13x21xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<13x37xf32>, tensor<37x21xf32>) -> tensor<13x21xf32>
  return %y : tensor<13x21xf32>
}
func.func @matmul_tails_13x9(%a: tensor<13x37xf32>, %b: tensor<37x9xf32>) -> tensor<13x9xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<13x37xf32>, tensor<37x9xf32>) -> tensor<13x9xf32>
  return %y : tensor<13x9xf32>
}
