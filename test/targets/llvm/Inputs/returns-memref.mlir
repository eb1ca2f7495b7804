func.func @f(%x: memref<4xf32>, %y: memref<?x3xf32>) -> (memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<?x3xf32>) {
  %a = memref.alloc() : memref<4xf32>
  return %a, %x, %a, %y : memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<?x3xf32>
}
