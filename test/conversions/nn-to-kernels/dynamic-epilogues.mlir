// --nn-to-kernels at dynamic dims (issue 19): the kernel calls absorb
// residual adds, gemm's C and transposed operands whose types are dynamic.
// The kernels would broadcast an addend by its run-time extents; compiled
// dynamic shapes decide broadcasting at compile time, so every addend dim
// that is not a static 1 is checked against the result's extent before the
// call (a located run-time error naming the absorbed add).
// RUN: strata-opt %s --split-input-file --nn-to-kernels | FileCheck %s

// A bias, a residual of the result's dynamic type (its dims 0 and 1 checked
// against the matmul's M extents; the add reads it as operand 0), then relu:
// one call with two addends.
// CHECK-LABEL: func.func @residual
// CHECK-DAG: %[[B:.*]] = tensor.dim %arg0, %c0
// CHECK-DAG: %[[S:.*]] = tensor.dim %arg0, %c1
// CHECK: %[[R0:.*]] = tensor.dim %arg3, %{{.*}}
// CHECK: %[[BAD0:.*]] = arith.cmpi ne, %[[R0]], %[[B]]
// CHECK: scf.if %[[BAD0]]
// CHECK: call @strata_rt_shape_error(%c0_i64{{.*}}, %c0_i64{{.*}}, %c0_i64{{.*}}, %{{.*}}, %{{.*}}, %[[SITE:.*]])
// CHECK: %[[R1:.*]] = tensor.dim %arg3, %{{.*}}
// CHECK: %[[BAD1:.*]] = arith.cmpi ne, %[[R1]], %[[S]]
// CHECK: scf.if %[[BAD1]]
// CHECK: call @strata_rt_shape_error(%c0_i64{{.*}}, %c0_i64{{.*}}, %c1_i64{{.*}}, %{{.*}}, %{{.*}}, %[[SITE]])
// CHECK: %[[Y:.*]] = memref.alloc(%[[B]], %[[S]]) {{.*}} : memref<?x?x6xf32>
// CHECK: %[[YU:.*]] = memref.cast %[[Y]]
// CHECK: call @strata_rt_matmul_f32(%{{[^,]*}}, %{{[^,]*}}, %[[YU]], %{{[^,]*}}, %{{[^,]*}}, %c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c2_i64{{[_0-9]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %c1_i64{{[_0-9]*}},
// CHECK-NOT: nn.
// CHECK: return
func.func @residual(%x: tensor<?x?x8xf32>, %w: tensor<8x6xf32>, %b: tensor<6xf32>, %r: tensor<?x?x6xf32>) -> tensor<?x?x6xf32> {
  %m = "nn.matmul"(%x, %w) : (tensor<?x?x8xf32>, tensor<8x6xf32>) -> tensor<?x?x6xf32>
  %a = "nn.add"(%m, %b) : (tensor<?x?x6xf32>, tensor<6xf32>) -> tensor<?x?x6xf32>
  %s = "nn.add"(%r, %a) : (tensor<?x?x6xf32>, tensor<?x?x6xf32>) -> tensor<?x?x6xf32>
  %y = "nn.relu"(%s) : (tensor<?x?x6xf32>) -> tensor<?x?x6xf32>
  return %y : tensor<?x?x6xf32>
}

// -----
// A static addend extent against a dynamic result dim: the result's extent
// must be 4 (reported as dim 0 of the add's operand 0, the matmul's
// result). A static 1 broadcasts (no check); a dynamic addend dim is
// checked against the result's.
// CHECK-LABEL: func.func @static_addend
// CHECK: %[[M:.*]] = tensor.dim %arg0, %c0
// CHECK: arith.cmpi ne, %[[M]], %c4
// CHECK: call @strata_rt_shape_error(%c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c0_i64
// CHECK: %[[Q:.*]] = tensor.dim %arg3, %{{.*}}
// CHECK: arith.cmpi ne, %[[Q]], %[[M]]
// CHECK: call @strata_rt_shape_error
// CHECK-NOT: call @strata_rt_shape_error
// CHECK: call @strata_rt_matmul_f32(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c2_i64{{[_0-9]*}},
// CHECK-NOT: nn.add
func.func @static_addend(%x: tensor<?x8xf32>, %w: tensor<8x6xf32>, %r: tensor<4x6xf32>, %q: tensor<?x1xf32>) -> tensor<?x6xf32> {
  %m = "nn.matmul"(%x, %w) : (tensor<?x8xf32>, tensor<8x6xf32>) -> tensor<?x6xf32>
  %a = "nn.add"(%m, %r) : (tensor<?x6xf32>, tensor<4x6xf32>) -> tensor<?x6xf32>
  %s = "nn.add"(%a, %q) : (tensor<?x6xf32>, tensor<?x1xf32>) -> tensor<?x6xf32>
  return %s : tensor<?x6xf32>
}

// -----
// A dynamic addend of a static result: each of its dims must have the
// static extent.
// CHECK-LABEL: func.func @dynamic_addend
// CHECK: %[[D0:.*]] = tensor.dim %arg2, %c0
// CHECK: arith.cmpi ne, %[[D0]], %c4
// CHECK: call @strata_rt_shape_error
// CHECK: %[[D1:.*]] = tensor.dim %arg2, %c1
// CHECK: arith.cmpi ne, %[[D1]], %c6
// CHECK: call @strata_rt_shape_error
// CHECK: memref.alloc() {{.*}} : memref<4x6xf32>
// CHECK: call @strata_rt_matmul_f32(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}},
// CHECK-NOT: nn.add
func.func @dynamic_addend(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %r: tensor<?x?xf32>) -> tensor<4x6xf32> {
  %m = "nn.matmul"(%x, %w) : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %a = "nn.add"(%m, %r) : (tensor<4x6xf32>, tensor<?x?xf32>) -> tensor<4x6xf32>
  return %a : tensor<4x6xf32>
}

// -----
// Gemm's C of dynamic type is its first addend; its dynamic dim is checked
// (operand 2) once, with the gemm's own extents.
// CHECK-LABEL: func.func @gemm_c
// CHECK: %[[M:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[C0:.*]] = tensor.dim %arg2, %{{.*}}
// CHECK: arith.cmpi ne, %[[C0]], %[[M]]
// CHECK: call @strata_rt_shape_error(%c0_i64{{.*}}, %c2_i64
// CHECK-NOT: tensor.dim %arg2
// CHECK: call @strata_rt_matmul_f32(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %c0_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}},
// CHECK-NOT: nn.gemm
func.func @gemm_c(%x: tensor<?x8xf32>, %w: tensor<6x8xf32>, %c: tensor<?x6xf32>) -> tensor<?x6xf32> {
  %m = "nn.gemm"(%x, %w, %c) {transB = 1 : i64} : (tensor<?x8xf32>, tensor<6x8xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  return %m : tensor<?x6xf32>
}

// -----
// Transposes of dynamic type feeding a batched matmul (attention's head
// split, K^T) are read in place through permuted views; the extents and
// checks read the transposes' inputs (dim perm[d]), and no transpose stays.
// CHECK-LABEL: func.func @prologue
// CHECK: %[[H:.*]] = tensor.dim %arg0, %c1
// CHECK: %[[HK:.*]] = tensor.dim %arg1, %c1
// CHECK: arith.cmpi ne, %[[HK]], %[[H]]
// CHECK: call @strata_rt_shape_error
// CHECK: %[[S:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[T:.*]] = tensor.dim %arg1, %c0
// CHECK: memref.alloc(%[[H]], %[[S]], %[[T]]) {{.*}} : memref<?x?x?xf32>
// CHECK: memref.transpose %{{.*}} (d0, d1, d2) -> (d1, d0, d2) : memref<?x?x16xf32, {{.*}}> to memref<?x?x16xf32
// CHECK: memref.transpose %{{.*}} (d0, d1, d2) -> (d1, d2, d0) : memref<?x?x16xf32, {{.*}}> to memref<?x16x?xf32
// CHECK: call @strata_rt_matmul_f32
// CHECK-NOT: nn.transpose
func.func @prologue(%q: tensor<?x?x16xf32>, %k: tensor<?x?x16xf32>) -> tensor<?x?x?xf32> {
  %qt = "nn.transpose"(%q) {perm = array<i64: 1, 0, 2>} : (tensor<?x?x16xf32>) -> tensor<?x?x16xf32>
  %kt = "nn.transpose"(%k) {perm = array<i64: 1, 2, 0>} : (tensor<?x?x16xf32>) -> tensor<?x16x?xf32>
  %s = "nn.matmul"(%qt, %kt) : (tensor<?x?x16xf32>, tensor<?x16x?xf32>) -> tensor<?x?x?xf32>
  return %s : tensor<?x?x?xf32>
}

// -----
// A transpose read by something else than the matmul stays (and is
// lowered by nn-to-linalg); the matmul reads it as it is.
// CHECK-LABEL: func.func @prologue_shared
// CHECK: "nn.transpose"
// CHECK-NOT: memref.transpose
// CHECK: call @strata_rt_matmul_f32
func.func @prologue_shared(%q: tensor<?x?x16xf32>, %w: tensor<16x4xf32>) -> (tensor<?x?x4xf32>, tensor<?x?x16xf32>) {
  %qt = "nn.transpose"(%q) {perm = array<i64: 1, 0, 2>} : (tensor<?x?x16xf32>) -> tensor<?x?x16xf32>
  %s = "nn.matmul"(%qt, %w) : (tensor<?x?x16xf32>, tensor<16x4xf32>) -> tensor<?x?x4xf32>
  return %s, %qt : tensor<?x?x4xf32>, tensor<?x?x16xf32>
}

// -----
// A conv's residual of dynamic type joins its bias (two addends), checked
// at the batch and the two window extents; the static channel dim is not.
// CHECK-LABEL: func.func @conv_residual
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[OH:.*]] = arith.addi %{{.*}}, %c1
// CHECK: %[[OW:.*]] = arith.addi %{{.*}}, %c1
// CHECK: %[[R0:.*]] = tensor.dim %arg3, %{{.*}}
// CHECK: arith.cmpi ne, %[[R0]], %[[N]]
// CHECK: %[[R2:.*]] = tensor.dim %arg3, %{{.*}}
// CHECK: arith.cmpi ne, %[[R2]], %[[OH]]
// CHECK: %[[R3:.*]] = tensor.dim %arg3, %{{.*}}
// CHECK: arith.cmpi ne, %[[R3]], %[[OW]]
// CHECK-NOT: tensor.dim %arg3
// CHECK: memref.alloc(%[[N]], %[[OH]], %[[OW]])
// CHECK: call @strata_rt_conv2d_f32(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %c2_i64{{[_0-9]*}}, %{{[^,]*}}, %{{[^,]*}}, %c1_i64{{[_0-9]*}},
// CHECK-NOT: nn.
// CHECK: return
func.func @conv_residual(%x: tensor<?x4x?x?xf32>, %w: tensor<4x4x3x3xf32>, %b: tensor<4xf32>, %r: tensor<?x4x?x?xf32>) -> tensor<?x4x?x?xf32> {
  %c = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x4x?x?xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<?x4x?x?xf32>
  %a = "nn.add"(%c, %r) : (tensor<?x4x?x?xf32>, tensor<?x4x?x?xf32>) -> tensor<?x4x?x?xf32>
  %y = "nn.relu"(%a) : (tensor<?x4x?x?xf32>) -> tensor<?x4x?x?xf32>
  return %y : tensor<?x4x?x?xf32>
}

// -----
// A transpose of the last two dims after the matmul (computed as B^T A^T),
// then an addend of the transposed dynamic type: checked against the
// swapped extents.
// CHECK-LABEL: func.func @transposed
// CHECK: %[[B:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[S:.*]] = tensor.dim %arg0, %c1
// CHECK: %[[A0:.*]] = tensor.dim %arg2, %{{.*}}
// CHECK: arith.cmpi ne, %[[A0]], %[[B]]
// CHECK: %[[A2:.*]] = tensor.dim %arg2, %{{.*}}
// CHECK: arith.cmpi ne, %[[A2]], %[[S]]
// CHECK: memref.alloc(%[[B]], %[[S]]) {{.*}} : memref<?x6x?xf32>
// CHECK: call @strata_rt_matmul_f32(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %c1_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}},
// CHECK-NOT: nn.
// CHECK: return
func.func @transposed(%x: tensor<?x?x8xf32>, %w: tensor<8x6xf32>, %b: tensor<?x6x?xf32>) -> tensor<?x6x?xf32> {
  %m = "nn.matmul"(%x, %w) : (tensor<?x?x8xf32>, tensor<8x6xf32>) -> tensor<?x?x6xf32>
  %t = "nn.transpose"(%m) {perm = array<i64: 0, 2, 1>} : (tensor<?x?x6xf32>) -> tensor<?x6x?xf32>
  %a = "nn.add"(%t, %b) : (tensor<?x6x?xf32>, tensor<?x6x?xf32>) -> tensor<?x6x?xf32>
  return %a : tensor<?x6x?xf32>
}

// -----
// Not absorbed: an addend of higher rank (the add's result is not the
// matmul's type).
// CHECK-LABEL: func.func @not_absorbed
// CHECK: call @strata_rt_matmul_f32(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}},
// CHECK: "nn.add"
func.func @not_absorbed(%x: tensor<?x8xf32>, %w: tensor<8x6xf32>, %r: tensor<?x?x6xf32>) -> tensor<?x?x6xf32> {
  %m = "nn.matmul"(%x, %w) : (tensor<?x8xf32>, tensor<8x6xf32>) -> tensor<?x6xf32>
  %a = "nn.add"(%m, %r) : (tensor<?x6xf32>, tensor<?x?x6xf32>) -> tensor<?x?x6xf32>
  return %a : tensor<?x?x6xf32>
}
