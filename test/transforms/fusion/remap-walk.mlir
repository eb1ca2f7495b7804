// fused-blocks-remap on hand-written blocks: its pattern on
// tensor.extract_slice runs through the walk driver, once per slice, in
// block order, and only inside tagged blocks.
// RUN: strata-opt %s --split-input-file --fused-blocks-remap | FileCheck %s

// A slice nothing reads is erased. A slice read by another slice is not
// a generic's input when the walk reaches it, so it stays; the slice of it,
// read by a generic, folds into the generic's map (offsets 1, 2 of %s1).
// CHECK: #[[SHIFT:.*]] = affine_map<(d0, d1) -> (d0 + 1, d1 + 2)>
// CHECK-LABEL: func.func @order
// CHECK: scf.execute_region
// CHECK-NEXT: %[[S1:.*]] = tensor.extract_slice %arg0[0, 0] [6, 6] [1, 1]
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.generic {indexing_maps = [#[[SHIFT]], #{{.*}}]{{.*}} ins(%[[S1]] : tensor<6x6xf32>)
// CHECK: {strata.fused
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @order(%x: tensor<8x8xf32>) -> tensor<4x4xf32> {
  %r = scf.execute_region -> tensor<4x4xf32> no_inline {
    %dead = tensor.extract_slice %x[0, 0] [2, 2] [1, 1] : tensor<8x8xf32> to tensor<2x2xf32>
    %s1 = tensor.extract_slice %x[0, 0] [6, 6] [1, 1] : tensor<8x8xf32> to tensor<6x6xf32>
    %s2 = tensor.extract_slice %s1[1, 2] [4, 4] [1, 1] : tensor<6x6xf32> to tensor<4x4xf32>
    %e = tensor.empty() : tensor<4x4xf32>
    %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%s2 : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
    ^bb0(%a: f32, %b: f32):
      %n = arith.negf %a : f32
      linalg.yield %n : f32
    } -> tensor<4x4xf32>
    scf.yield %g : tensor<4x4xf32>
  } {strata.fused = {id = 0 : i64, mapping = "One-to-One", ops = ["nn.slice", "nn.slice", "nn.neg"]}}
  return %r : tensor<4x4xf32>
}

// -----
// Outside a tagged block (and in an untagged region) slices stay, read by
// generics or not.
// CHECK-LABEL: func.func @outside
// CHECK: tensor.extract_slice %arg0[0] [4] [1]
// CHECK: tensor.extract_slice %arg0[2] [4] [1]
// CHECK: tensor.extract_slice %arg0[1] [2] [1]
#id1 = affine_map<(d0) -> (d0)>
func.func @outside(%x: tensor<8xf32>) -> tensor<4xf32> {
  %s = tensor.extract_slice %x[0] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %g = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%s : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %r = scf.execute_region -> tensor<4xf32> no_inline {
    %t = tensor.extract_slice %x[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
    %u = tensor.extract_slice %x[1] [2] [1] : tensor<8xf32> to tensor<2xf32>
    %h = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
        ins(%t : tensor<4xf32>) outs(%g : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32):
      %m = arith.addf %a, %b : f32
      linalg.yield %m : f32
    } -> tensor<4xf32>
    scf.yield %h : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
