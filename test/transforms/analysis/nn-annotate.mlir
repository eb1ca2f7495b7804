// --nn-annotate: DNNFusion mapping types as in Table 3.2 (shape-dependent for
// broadcasts), SOD² dynamism classes, purity, FLOPs and bytes.
// RUN: strata-opt %s --nn-annotate | FileCheck %s

// CHECK-LABEL: func.func @table_3_2
func.func @table_3_2(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>, %v: tensor<4x1x1xf32>,
                     %a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %s: tensor<4xi64>, %i: tensor<2xi64>) {
  // One-to-One: same-shape elementwise.
  // CHECK: "nn.add"{{.*}}nn.dynamism = "ISDOS", nn.flops = 256 : i64, nn.mapping = "One-to-One", nn.pure
  %0 = "nn.add"(%x, %x) : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  // One-to-Many: the same add with a broadcast operand.
  // CHECK: "nn.add"{{.*}}nn.mapping = "One-to-Many"
  %1 = "nn.add"(%x, %v) : (tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32>
  // CHECK: "nn.relu"{{.*}}nn.mapping = "One-to-One"
  %2 = "nn.relu"(%x) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  // Conv: Many-to-Many; FLOPs = 2*Cout*Hout*Wout*Cin/g*Kh*Kw = 2*6*6*6*4*3*3 = 15552.
  // CHECK: "nn.conv"{{.*}}nn.bytes = 2752 : i64, nn.dynamism = "ISDOS", nn.flops = 15552 : i64, nn.mapping = "Many-to-Many"
  %3 = "nn.conv"(%x, %w) : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  // GEMM: Many-to-Many; 2*M*N*K + 2*M*N (alpha, beta) = 120 + 30.
  // CHECK: "nn.gemm"{{.*}}nn.flops = 150 : i64, nn.mapping = "Many-to-Many"
  %4 = "nn.gemm"(%a, %b) : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  // CHECK: "nn.matmul"{{.*}}nn.flops = 120 : i64, nn.mapping = "Many-to-Many"
  %5 = "nn.matmul"(%a, %b) : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  // Reorganize: Reshape, Flatten, Squeeze, Unsqueeze.
  // CHECK: "nn.reshape"{{.*}}nn.dynamism = "ISVDOS"{{.*}}nn.mapping = "Reorganize"
  %6 = "nn.reshape"(%x, %s) : (tensor<1x4x8x8xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  // CHECK: "nn.flatten"{{.*}}nn.mapping = "Reorganize"
  %7 = "nn.flatten"(%x) : (tensor<1x4x8x8xf32>) -> tensor<1x256xf32>
  // CHECK: "nn.squeeze"{{.*}}nn.mapping = "Reorganize"
  %8 = "nn.squeeze"(%x) {axes = array<i64: 0>} : (tensor<1x4x8x8xf32>) -> tensor<4x8x8xf32>
  // CHECK: "nn.unsqueeze"{{.*}}nn.mapping = "Reorganize"
  %9 = "nn.unsqueeze"(%a) {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1x4xf32>
  // Shuffle: Transpose, DepthToSpace, SpaceToDepth.
  // CHECK: "nn.transpose"{{.*}}nn.mapping = "Shuffle"
  %10 = "nn.transpose"(%a) : (tensor<3x4xf32>) -> tensor<4x3xf32>
  // CHECK: "nn.depth_to_space"{{.*}}nn.mapping = "Shuffle"
  %11 = "nn.depth_to_space"(%x) {blocksize = 2 : i64} : (tensor<1x4x8x8xf32>) -> tensor<1x1x16x16xf32>
  // One-to-Many: Expand, Gather.
  // CHECK: "nn.expand"{{.*}}nn.mapping = "One-to-Many"
  %12 = "nn.expand"(%v, %s) : (tensor<4x1x1xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  // CHECK: "nn.gather"{{.*}}nn.mapping = "One-to-Many"
  %13 = "nn.gather"(%a, %i) : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  // One-to-One: Concat, Slice-like, Cast, Clip, Where; Many-to-Many: Softmax, pools, reductions.
  // CHECK: "nn.concat"{{.*}}nn.mapping = "One-to-One"
  %14 = "nn.concat"(%a, %a) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  // CHECK: "nn.cast"{{.*}}nn.mapping = "One-to-One"
  %15 = "nn.cast"(%a) : (tensor<3x4xf32>) -> tensor<3x4xf16>
  %i4 = "nn.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  // CHECK: "nn.batch_normalization"{{.*}}nn.mapping = "One-to-One"
  %16 = "nn.batch_normalization"(%x, %i4, %i4, %i4, %i4) : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  // CHECK: "nn.softmax"{{.*}}nn.mapping = "Many-to-Many"
  %17 = "nn.softmax"(%a) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  // CHECK: "nn.max_pool"{{.*}}nn.mapping = "Many-to-Many"
  %18 = "nn.max_pool"(%x) {kernel_shape = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x7x7xf32>
  // CHECK: "nn.reduce_mean"{{.*}}nn.mapping = "Many-to-Many"
  %19 = "nn.reduce_mean"(%a) {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  // ISDO: Shape; ISVDOS: Range.
  // CHECK: "nn.shape"{{.*}}nn.dynamism = "ISDO"
  %20 = "nn.shape"(%x) : (tensor<1x4x8x8xf32>) -> tensor<4xi64>
  // Dynamic shapes: no FLOPs or bytes.
  // CHECK: "nn.relu"(%{{.*}}) {nn.dynamism = "ISDOS", nn.mapping = "One-to-One", nn.pure}
  %21 = "nn.relu"(%6) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return
}
