// sparse-to-vector, digest C.1.7: kernel-level load-redundancy elimination.
// A tile's (tap, output row) pairs that read the same input place share one
// load per column vector.
//
// @column: pattern 0x092 (the centre column: taps (0,1), (1,1), (2,1)),
// tile 4 rows x 1 vector: the 12 (tap, row) pairs read 6 distinct input
// rows, so 6 loads feed 12 FMAs; without LRE (lre=false: a 1x1 tile, a
// load per tap) every FMA has its own load.
// RUN: strata-opt %s --sparse-to-vector=vector-width=16 | %python %S/Inputs/loop_stats.py | FileCheck %s
// RUN: strata-opt %s "--sparse-to-vector=vector-width=16 lre=false" | %python %S/Inputs/loop_stats.py | FileCheck %s --check-prefix=NOLRE
//
// @full: all nine taps (0x1ff), tile 2 rows x 2 vectors: 4 input rows, each
// read at column offsets 0, 1 and 2. The phases layout loads each row's 3
// aligned vectors once (12 loads) and shifts offsets 1 and 2 out of them
// (2 offsets x 2 vectors x 4 rows = 16 shuffles); the views layout loads
// the 4 rows x 3 views x 2 vectors (24 loads) and shifts nothing. Without
// sharing it would be 9 taps x 2 rows x 2 vectors = 36 loads.
// RUN: sed 's/tile = array<i64: 2, 2>/tile = array<i64: 2, 2>, layout = "views"/' %s > %t.views.mlir
// RUN: strata-opt %t.views.mlir --sparse-to-vector=vector-width=16 | %python %S/Inputs/loop_stats.py | FileCheck %s --check-prefix=VIEWS
// The numbers of both layouts, compiled against the interpreter.
// RUN: %python %root/test/e2e/compare_all.py %s --rtol 1e-5 --atol 1e-5 | FileCheck %s --check-prefix=NUM
// RUN: %python %root/test/e2e/compare_all.py %t.views.mlir --rtol 1e-5 --atol 1e-5 | FileCheck %s --check-prefix=NUM

// CHECK: loop 0: bounds=stride loads=6 shuffles=0 fmas=12
// CHECK: loop 1: bounds=stride loads=12 shuffles=16 fmas=36
// CHECK: 2 kernel loops
// NOLRE: loop 0: bounds=stride loads=3 shuffles=0 fmas=3
// NOLRE: loop 1: bounds=stride loads=9 shuffles=0 fmas=9
// VIEWS: loop 1: bounds=stride loads=24 shuffles=0 fmas=36
// NUM: 2 functions, 0 failed

func.func @column(%x: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 0x092>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64,
      offset = array<i64: 0, 2, 3>, reorder = array<i64: 1, 0>, index = array<i64: 0, 1, 1>, stride = array<i64: 0, 2, 0, 1>, groups = array<i64: 0, 2>,
      weight = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]> : tensor<9xf32>, tile = array<i64: 4, 1>} : (tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  return %y : tensor<1x2x8x16xf32>
}
func.func @full(%x: tensor<1x1x6x32xf32>) -> tensor<1x1x6x32xf32> {
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 0x1ff>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64,
      offset = array<i64: 0, 1>, reorder = array<i64: 0>, index = array<i64: 0>, stride = array<i64: 0, 1>, groups = array<i64: 0, 1>,
      weight = dense<[0.5, -1.0, 1.5, -2.0, 2.5, -3.0, 3.5, -4.0, 4.5]> : tensor<9xf32>, tile = array<i64: 2, 2>} : (tensor<1x1x6x32xf32>) -> tensor<1x1x6x32xf32>
  return %y : tensor<1x1x6x32xf32>
}
