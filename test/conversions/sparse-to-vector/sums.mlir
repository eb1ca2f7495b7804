// sparse-to-vector, layout = "sums": the register tile keeps one set of
// sums per column offset of the taps and reads each input place as aligned
// vectors only; the sets are shifted into place and added once, at the
// store, instead of shifting the inputs at every kernel.
//
// @full: all nine taps (0x1ff), tile 2 rows x 2 vectors of 16 lanes, 28
// output columns (the last vector has 12, room for offsets 1 and 2): the
// kernel loop loads the 4 input rows' 2 aligned vectors once (8 loads) for
// all their taps and shifts nothing; the phases layout loads 3 vectors per
// row (12) and shifts 16 out of them. The FMAs are the same 36.
// RUN: strata-opt %s --sparse-to-vector=vector-width=16 | %python %S/Inputs/loop_stats.py | FileCheck %s
// RUN: sed 's/layout = "sums"/layout = "phases"/' %s > %t.phases.mlir
// RUN: strata-opt %t.phases.mlir --sparse-to-vector=vector-width=16 | %python %S/Inputs/loop_stats.py | FileCheck %s --check-prefix=PHASES
// The shifts are at the store: 2 offsets x 2 rows x 2 vectors of @full.
// RUN: strata-opt %s --sparse-to-vector=vector-width=16 | FileCheck %s --check-prefix=STORE
//
// @wide: 32 output columns fill both vectors: no room for the offsets in
// the row's last vector, so the row is two tiles of one vector. The first
// (loop 1: 4 rows' aligned vectors, 9 taps x 2 rows) leaves its vector's
// sums at offsets 1 and 2 incomplete in the carry; the last vector is a
// tile of its own (loop 2) with a second vector of sums at offsets 1 and 2
// (8 loads; 3 taps x 2 rows at offset 0 + 6 x 2 x 2), which also completes
// the first tile's vector. Still no shift in a kernel loop (phases: 12
// loads, 16 shifts).
// @stride2: column stride 2 (phases 0 and 1; taps at offsets 0 and 1), a
// bias, batch 2: 2 sets, no shifts in the loop; pattern 0x0d2 has no tap at
// offset 1 and reads the same 10 places in both layouts, the full pattern
// reads its 7 rows' 2 phases once (phases: 21 loads, 7 shifts).
// Without sharing (lre=false) there is no register tile to keep sets in.
// RUN: strata-opt %s "--sparse-to-vector=vector-width=16 lre=false" | %python %S/Inputs/loop_stats.py | FileCheck %s --check-prefix=NOLRE
// The numbers of both layouts against the interpreter (test/e2e/sparse/
// sums.test has random shapes at several vector widths).
// RUN: %python %root/test/e2e/compare_all.py %s --rtol 1e-5 --atol 1e-5 | FileCheck %s --check-prefix=NUM
// RUN: %python %root/test/e2e/compare_all.py %t.phases.mlir --rtol 1e-5 --atol 1e-5 | FileCheck %s --check-prefix=NUM

// CHECK: loop 0: bounds=stride loads=8 shuffles=0 fmas=36
// CHECK: loop 1: bounds=stride loads=4 shuffles=0 fmas=18
// CHECK: loop 2: bounds=stride loads=8 shuffles=0 fmas=30
// CHECK: loop 3: bounds=stride loads=10 shuffles=0 fmas=12
// CHECK: loop 4: bounds=stride loads=14 shuffles=0 fmas=27
// CHECK: 5 kernel loops
// PHASES: loop 0: bounds=stride loads=12 shuffles=16 fmas=36
// PHASES: loop 1: bounds=stride loads=12 shuffles=16 fmas=36
// PHASES: loop 2: bounds=stride loads=10 shuffles=0 fmas=12
// PHASES: loop 3: bounds=stride loads=21 shuffles=7 fmas=27
// NOLRE: loop 0: bounds=stride loads=9 shuffles=0 fmas=9
// NOLRE: loop 3: bounds=stride loads=4 shuffles=0 fmas=4
// STORE-LABEL: func.func private @__strata_sparse_fkw0(
// STORE: scf.for
// STORE-COUNT-8: vector.shuffle
// STORE-NOT: vector.shuffle
// STORE: func.func private @__strata_sparse_fkw1(
// NUM: 3 functions, 0 failed

func.func @full(%x: tensor<1x1x6x28xf32>) -> tensor<1x1x6x28xf32> {
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 0x1ff>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64,
      offset = array<i64: 0, 1>, reorder = array<i64: 0>, index = array<i64: 0>, stride = array<i64: 0, 1>, groups = array<i64: 0, 1>,
      weight = dense<[0.5, -1.0, 1.5, -2.0, 2.5, -3.0, 3.5, -4.0, 4.5]> : tensor<9xf32>, tile = array<i64: 2, 2>, layout = "sums"} : (tensor<1x1x6x28xf32>) -> tensor<1x1x6x28xf32>
  return %y : tensor<1x1x6x28xf32>
}
func.func @wide(%x: tensor<1x1x6x32xf32>) -> tensor<1x1x6x32xf32> {
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 0x1ff>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64,
      offset = array<i64: 0, 1>, reorder = array<i64: 0>, index = array<i64: 0>, stride = array<i64: 0, 1>, groups = array<i64: 0, 1>,
      weight = dense<[0.5, -1.0, 1.5, -2.0, 2.5, -3.0, 3.5, -4.0, 4.5]> : tensor<9xf32>, tile = array<i64: 2, 2>, layout = "sums"} : (tensor<1x1x6x32xf32>) -> tensor<1x1x6x32xf32>
  return %y : tensor<1x1x6x32xf32>
}
// pattern 0x0d2: taps (0,1), (1,0), (1,1), (2,1); 3 rows x 1 vector, 9 of 16
// lanes: (q=0 -> phase 0 offset 0, q=1 -> phase 1 offset 0, q=2 -> phase 0
// offset 1)
func.func @stride2(%x: tensor<2x2x7x18xf32>, %b: tensor<2xf32>) -> tensor<2x2x3x9xf32> {
  %y = "sparse.fkw_conv"(%x, %b) {patterns = array<i64: 0x0d2, 0x1ff>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64,
      offset = array<i64: 0, 1, 3>, reorder = array<i64: 1, 0>, index = array<i64: 1, 0, 1>, stride = array<i64: 0, 1, 1, 0, 1, 2>, groups = array<i64: 0, 2>,
      weight = dense<[1.0, 2.0, 3.0, 4.0, 0.5, 0.25, -1.0, -2.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]> : tensor<17xf32>, tile = array<i64: 3, 1>, layout = "sums"} : (tensor<2x2x7x18xf32>, tensor<2xf32>) -> tensor<2x2x3x9xf32>
  return %y : tensor<2x2x3x9xf32>
}
