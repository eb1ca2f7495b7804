// --strata-cpu-pipeline lowers nn all the way to the LLVM dialect, results
// become out-parameters, public functions get a C interface, the conv+relu
// becomes one runtime kernel call and the function's buffers one arena.
// RUN: strata-opt %s --strata-cpu-pipeline | FileCheck %s
// RUN: strata-opt %s --strata-cpu-pipeline | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR

// CHECK-NOT: nn.
// CHECK-NOT: linalg.
// CHECK-NOT: memref.alloc
// CHECK-NOT: llvm.func @model({{.*}}) -> !llvm.struct
// CHECK: llvm.func @model(
// CHECK: llvm.call @strata_rt_frame_push(
// CHECK: llvm.call @strata_rt_conv2d_f32(
// CHECK-NOT: llvm.call @strata_rt_conv2d_f32(
// CHECK: llvm.call @strata_rt_frame_pop(
// CHECK: llvm.func @_mlir_ciface_model(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK-NOT: llvm.func @_mlir_ciface_helper
// LLVMIR: define void @_mlir_ciface_model(ptr
func.func @model(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x3x3xf32>) -> (tensor<1x3x3x3xf32>, tensor<1x2x5x5xf32>) {
  %y = "nn.conv"(%x, %w) : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  %r = "nn.relu"(%y) : (tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  %z = call @helper(%x) : (tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  return %r, %z : tensor<1x3x3x3xf32>, tensor<1x2x5x5xf32>
}
func.func private @helper(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32> {
  %r = "nn.relu"(%x) : (tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  return %r : tensor<1x2x5x5xf32>
}
