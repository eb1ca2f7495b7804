// sparse-to-vector, digest C.1.8: filter-level load-redundancy elimination.
// Stored filters 0-3 use the same (pattern, channel) at every kernel
// position (pattern 0x03a on channel 0, 0x0b2 on channel 1); filter 4 does
// not. With unroll = [4] the four are one block whose kernel loops load
// each input vector once for all four filters: the same loads as one
// filter, four times the FMAs. Filter 4 runs alone. Tile 2 rows x 1
// vector: 0x03a reads rows 0 (one offset), 1 and 2 (offsets 0-2: two
// aligned vectors each) = 5 loads for 4 taps x 2 rows = 8 FMAs per filter.
// RUN: strata-opt %s --sparse-to-vector=vector-width=16 | %python %S/Inputs/loop_stats.py | FileCheck %s
// RUN: sed 's/unroll = array<i64: 4>/unroll = array<i64: 1>/' %s | strata-opt - --sparse-to-vector=vector-width=16 | %python %S/Inputs/loop_stats.py | FileCheck %s --check-prefix=ONE
// unroll = [2]: filters 0-1 and 2-3 are two blocks of one loop set, and
// filter 4 (alone) has its own.
// RUN: sed 's/unroll = array<i64: 4>/unroll = array<i64: 2>/' %s | strata-opt - --sparse-to-vector=vector-width=16 | %python %S/Inputs/loop_stats.py | FileCheck %s --check-prefix=TWO
// The numbers, compiled against the interpreter, with each unroll.
// RUN: strata-run %s --compare --quiet --threads 2 | FileCheck %s --check-prefix=NUM
// RUN: sed 's/unroll = array<i64: 4>/unroll = array<i64: 2>/' %s > %t.two.mlir
// RUN: strata-run %t.two.mlir --compare --quiet | FileCheck %s --check-prefix=NUM

// The block of four: 0x03a, then 0x0b2 (rows 0-3 at offsets 1, 1-2, 1-2
// and 1: 6 loads); then filter 4 alone (0x03a).
// CHECK: loop 0: bounds=stride loads=5 shuffles={{[0-9]+}} fmas=32
// CHECK-NEXT: loop 1: bounds=stride loads=6 shuffles={{[0-9]+}} fmas=32
// CHECK-NEXT: loop 2: bounds=stride loads=5 shuffles={{[0-9]+}} fmas=8
// CHECK-NEXT: 3 kernel loops
// ONE: loop 0: bounds=stride loads=5 shuffles={{[0-9]+}} fmas=8
// ONE-NEXT: loop 1: bounds=stride loads=6 shuffles={{[0-9]+}} fmas=8
// ONE-NEXT: 2 kernel loops
// TWO: loop 0: bounds=stride loads=5 shuffles={{[0-9]+}} fmas=16
// TWO-NEXT: loop 1: bounds=stride loads=6 shuffles={{[0-9]+}} fmas=16
// TWO-NEXT: loop 2: bounds=stride loads=5 shuffles={{[0-9]+}} fmas=8
// TWO-NEXT: 3 kernel loops
// NUM: compare output #0: {{.*}}: OK

func.func @unroll(%x: tensor<1x3x9x16xf32>, %b: tensor<5xf32>) -> tensor<1x5x9x16xf32> {
  %y = "sparse.fkw_conv"(%x, %b) {patterns = array<i64: 0x03a, 0x0b2>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64,
      offset = array<i64: 0, 2, 4, 6, 8, 9>, reorder = array<i64: 3, 0, 4, 1, 2>, index = array<i64: 0, 1, 0, 1, 0, 1, 0, 1, 2>,
      stride = array<i64: 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 1>, groups = array<i64: 0, 5>,
      weight = dense<[-1.5, -1.4, -1.3, -1.2, -1.1, -1.0, -0.9, -0.8, -0.7, -0.6, -0.5, -0.4, -0.3, -0.2, -0.1, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2.0]> : tensor<36xf32>, tile = array<i64: 2, 1>, unroll = array<i64: 4>}
      : (tensor<1x3x9x16xf32>, tensor<5xf32>) -> tensor<1x5x9x16xf32>
  return %y : tensor<1x5x9x16xf32>
}
