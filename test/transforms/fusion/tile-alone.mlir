// fused-blocks-tile run alone on a block of linalg ops (no other pass has
// loaded the dialects its nest is built from: scf, memref, bufferization):
// the max over channels and the subtraction reading it become one nest
// over the rows, the row maximum a stack tile.
// RUN: strata-opt %s --fused-blocks-tile | FileCheck %s

// CHECK-LABEL: func.func @channel_max
// CHECK: scf.execute_region
// CHECK: %[[ROW:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1x1x8xf32>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c8 step %{{.*}} iter_args(%[[OUT:.*]] = %{{.*}}) -> (tensor<1x4x8x8xf32>)
// CHECK-NEXT: %[[X:.*]] = tensor.extract_slice %arg0[0, 0, %[[I]], 0] [1, 4, 1, 8]
// CHECK-NEXT: bufferization.to_tensor %[[ROW]] restrict writable
// CHECK: arith.maximumf {{.*}} fastmath<reassoc>
// CHECK: tensor.reshape {{.*}} -> tensor<1x1x1x8xf32>
// CHECK: tensor.extract_slice %[[OUT]][0, 0, %[[I]], 0] [1, 4, 1, 8]
// CHECK: arith.subf
// CHECK: %[[T:.*]] = tensor.insert_slice %{{.*}} into %[[OUT]][0, 0, %[[I]], 0] [1, 4, 1, 8]
// CHECK-NEXT: scf.yield %[[T]]
// CHECK: {strata.fused
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @channel_max(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %shape = arith.constant dense<[1, 1, 8, 8]> : tensor<4xi64>
  %init = arith.constant dense<0xFF800000> : tensor<1x8x8xf32>
  %r = scf.execute_region -> tensor<1x4x8x8xf32> no_inline {
    %m = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction", "parallel", "parallel"]}
        ins(%x : tensor<1x4x8x8xf32>) outs(%init : tensor<1x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.maximumf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<1x8x8xf32>
    %m4 = tensor.reshape %m(%shape) : (tensor<1x8x8xf32>, tensor<4xi64>) -> tensor<1x1x8x8xf32>
    %e = tensor.empty() : tensor<1x4x8x8xf32>
    %d = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%x, %m4 : tensor<1x4x8x8xf32>, tensor<1x1x8x8xf32>) outs(%e : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %v = arith.subf %in, %in_1 : f32
      linalg.yield %v : f32
    } -> tensor<1x4x8x8xf32>
    scf.yield %d : tensor<1x4x8x8xf32>
  } {strata.fused = {id = 0 : i64, mapping = "Many-to-Many", ops = ["nn.reduce_max", "nn.sub"]}}
  return %r : tensor<1x4x8x8xf32>
}
