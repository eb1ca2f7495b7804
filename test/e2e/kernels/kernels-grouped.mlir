// Grouped convolutions on the direct kernel (runtime/grouped.c: 2..64
// channels per group in and out), ungrouped ones with up to 64 outputs
// there too (7x7 stems, 1-D, the rule's bounds), and global pooling (runtime/global_pool.c)
// against the interpreter: channels per group of 2 to 64 with vector tails
// (one vector of output channels up to several passes of them), one output
// channel per group, strides 1 to 3, dilations, asymmetric pads, 1-D, 5x5,
// strided inputs, constant (cached, packed) weights, and every epilogue
// (bias, residual, relu, clip, sigmoid, SiLU, hard-swish, GELU); global
// average and max pooling (NaN), ReduceMean/ReduceMax over the spatial dims
// with and without kept dims, 3-D and 5-D inputs, strided inputs, a
// squeeze-and-excitation gate; on every ISA the host has, on one and two
// threads, and the convolutions once more on the (per-group) GEMM.
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-5 --threads 2 | FileCheck %s
// RUN: env STRATA_RT_ISA=avx2 %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: env STRATA_RT_ISA=avx2 %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-5 --threads 2 | FileCheck %s
// RUN: env STRATA_RT_ISA=generic %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: env STRATA_RT_ISA=generic %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-5 --threads 2 | FileCheck %s
// RUN: env STRATA_RT_GROUPED=gemm %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

// RegNet's shape: 16 channels per group, bias and relu.
func.func @grouped16_bias_relu(%x: tensor<1x32x14x14xf32>, %w: tensor<32x16x3x3xf32>, %b: tensor<32xf32>) -> tensor<1x32x14x14xf32> {
  %y = "nn.conv"(%x, %w, %b) {group = 2 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x32x14x14xf32>, tensor<32x16x3x3xf32>, tensor<32xf32>) -> tensor<1x32x14x14xf32>
  %z = "nn.relu"(%y) : (tensor<1x32x14x14xf32>) -> tensor<1x32x14x14xf32>
  return %z : tensor<1x32x14x14xf32>
}
// 24 channels per group (two vectors under AVX-512, one a tail), stride 2,
// odd extents, a residual and relu.
func.func @grouped24_s2_residual(%x: tensor<1x48x15x13xf32>, %w: tensor<48x24x3x3xf32>, %b: tensor<48xf32>, %r: tensor<1x48x8x7xf32>) -> tensor<1x48x8x7xf32> {
  %y = "nn.conv"(%x, %w, %b) {group = 2 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x48x15x13xf32>, tensor<48x24x3x3xf32>, tensor<48xf32>) -> tensor<1x48x8x7xf32>
  %s = "nn.add"(%y, %r) : (tensor<1x48x8x7xf32>, tensor<1x48x8x7xf32>) -> tensor<1x48x8x7xf32>
  %z = "nn.relu"(%s) : (tensor<1x48x8x7xf32>) -> tensor<1x48x8x7xf32>
  return %z : tensor<1x48x8x7xf32>
}
// 4 in, 6 out per group, two images, dilation, asymmetric pads, clip.
func.func @grouped_dilated_pads_clip(%x: tensor<2x12x11x10xf32>, %w: tensor<18x4x3x2xf32>) -> tensor<2x18x9x11xf32> {
  %y = "nn.conv"(%x, %w) {group = 3 : i64, dilations = array<i64: 2, 1>, pads = array<i64: 2, 0, 0, 2>} : (tensor<2x12x11x10xf32>, tensor<18x4x3x2xf32>) -> tensor<2x18x9x11xf32>
  %z = "nn.clip"(%y) {min = -0.5 : f32, max = 0.75 : f32} : (tensor<2x18x9x11xf32>) -> tensor<2x18x9x11xf32>
  return %z : tensor<2x18x9x11xf32>
}
// 5 in, 35 out per group: several vectors and passes, a channel tail; SiLU.
func.func @grouped35_silu(%x: tensor<1x10x9x9xf32>, %w: tensor<70x5x3x3xf32>, %b: tensor<70xf32>) -> tensor<1x70x9x9xf32> {
  %y = "nn.conv"(%x, %w, %b) {group = 2 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x10x9x9xf32>, tensor<70x5x3x3xf32>, tensor<70xf32>) -> tensor<1x70x9x9xf32>
  %s = "nn.sigmoid"(%y) : (tensor<1x70x9x9xf32>) -> tensor<1x70x9x9xf32>
  %z = "nn.mul"(%y, %s) : (tensor<1x70x9x9xf32>, tensor<1x70x9x9xf32>) -> tensor<1x70x9x9xf32>
  return %z : tensor<1x70x9x9xf32>
}
// One output channel per group; hard-swish; and a sigmoid gate.
func.func @grouped_one_output_channel(%x: tensor<1x6x7x7xf32>, %w: tensor<3x2x3x3xf32>, %b: tensor<3xf32>) -> (tensor<1x3x7x7xf32>, tensor<1x3x3x3xf32>) {
  %y = "nn.conv"(%x, %w, %b) {group = 3 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x6x7x7xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>) -> tensor<1x3x7x7xf32>
  %z = "nn.hard_swish"(%y) : (tensor<1x3x7x7xf32>) -> tensor<1x3x7x7xf32>
  %y2 = "nn.conv"(%x, %w) {group = 3 : i64, strides = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x6x7x7xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  %z2 = "nn.sigmoid"(%y2) : (tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  return %z, %z2 : tensor<1x3x7x7xf32>, tensor<1x3x3x3xf32>
}
// 64 channels per group (the rule's upper end): GELU.
func.func @grouped64_gelu(%x: tensor<1x128x6x5xf32>, %w: tensor<128x64x3x3xf32>) -> tensor<1x128x6x5xf32> {
  %y = "nn.conv"(%x, %w) {group = 2 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x128x6x5xf32>, tensor<128x64x3x3xf32>) -> tensor<1x128x6x5xf32>
  %z = "nn.gelu"(%y) : (tensor<1x128x6x5xf32>) -> tensor<1x128x6x5xf32>
  return %z : tensor<1x128x6x5xf32>
}
// 1-D, stride 2; and 5x5 stride 2 with 10 channels per group.
func.func @grouped1d_and_5x5(%x: tensor<2x8x17xf32>, %w: tensor<12x4x3xf32>, %b: tensor<12xf32>, %x2: tensor<1x20x12x12xf32>, %w2: tensor<20x10x5x5xf32>) -> (tensor<2x12x9xf32>, tensor<1x20x6x6xf32>) {
  %y = "nn.conv"(%x, %w, %b) {group = 2 : i64, strides = array<i64: 2>, pads = array<i64: 1, 1>} : (tensor<2x8x17xf32>, tensor<12x4x3xf32>, tensor<12xf32>) -> tensor<2x12x9xf32>
  %y2 = "nn.conv"(%x2, %w2) {group = 2 : i64, strides = array<i64: 2, 2>, pads = array<i64: 2, 2, 2, 2>} : (tensor<1x20x12x12xf32>, tensor<20x10x5x5xf32>) -> tensor<1x20x6x6xf32>
  return %y, %y2 : tensor<2x12x9xf32>, tensor<1x20x6x6xf32>
}
// A strided input (a slice of a bigger tensor) and a broadcast addend.
func.func @grouped_strided_input(%big: tensor<2x8x9x12xf32>, %w: tensor<8x2x3x3xf32>, %r: tensor<8x1x1xf32>) -> tensor<2x8x7x9xf32> {
  %s = "nn.constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %e = "nn.constant"() {value = dense<[8, 11]> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %x = "nn.slice"(%big, %s, %e, %a) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<2x8x9x12xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x8x7x9xf32>
  %y = "nn.conv"(%x, %w) {group = 4 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<2x8x7x9xf32>, tensor<8x2x3x3xf32>) -> tensor<2x8x7x9xf32>
  %z = "nn.add"(%y, %r) : (tensor<2x8x7x9xf32>, tensor<8x1x1xf32>) -> tensor<2x8x7x9xf32>
  return %z : tensor<2x8x7x9xf32>
}
// Constant weights: packed once into the constant cache; called twice.
func.func @grouped_constant_weights(%x: tensor<1x8x6x6xf32>) -> (tensor<1x8x6x6xf32>, tensor<1x8x3x3xf32>) {
  %w = "nn.constant"() {value = dense<[[[[-0.352, -0.698, 0.302], [-0.855, 0.072, -0.269], [-0.884, 0.015, -0.925]], [[-0.133, -0.86, -0.819], [-0.151, 0.654, -0.752], [-0.554, 0.255, 0.895]], [[0.154, -0.207, 0.953], [-0.907, 0.717, -0.421], [-0.711, -0.764, -0.383]], [[0.632, -0.639, 0.163], [0.278, -0.255, 0.095], [-0.874, -0.881, -0.588]]], [[[0.361, -0.145, -0.372], [0.171, -0.094, -0.4], [0.589, 0.398, -0.512]], [[0.149, 0.05, 0.75], [0.459, -0.424, 0.96], [-0.764, -0.164, 0.514]], [[-0.696, -0.022, -0.922], [0.336, 0.529, 0.146], [0.751, -0.373, 0.391]], [[0.189, 0.16, -0.088], [0.68, 0.889, -0.052], [0.328, -0.879, 0.403]]], [[[0.294, 0.986, 0.644], [-0.431, -0.228, 0.337], [-0.955, -0.077, -0.664]], [[-0.766, -0.882, 0.536], [-0.741, -0.505, -0.218], [0.743, -0.839, -0.102]], [[0.099, 0.767, 0.639], [0.728, -0.443, -0.169], [-0.282, 0.768, 0.915]], [[-0.698, -0.648, -0.536], [-0.533, -0.03, 0.178], [-0.475, -0.992, -0.162]]], [[[-0.261, 0.133, 0.906], [0.381, 0.031, 0.235], [0.352, -0.892, 0.799]], [[0.56, 0.749, 0.596], [-0.215, -0.202, -0.793], [0.269, -0.876, -0.865]], [[-0.582, -0.675, -0.32], [-0.895, -1.0, -0.697], [-0.797, -0.273, -0.949]], [[0.749, 0.228, -0.703], [-0.495, -0.305, -0.272], [-0.754, 0.698, 0.986]]], [[[-0.068, -0.032, -0.828], [-0.796, -0.315, -0.47], [0.658, -0.677, -0.954]], [[0.902, 0.057, -0.707], [0.086, -0.946, 0.056], [0.957, 0.727, 0.392]], [[-0.478, -0.267, -0.666], [0.544, 0.065, 0.558], [-0.341, -0.554, 0.623]], [[0.97, 0.705, 0.612], [0.637, 0.48, -0.547], [0.035, -0.289, -0.942]]], [[[-0.944, -0.441, -0.482], [0.385, 0.913, -0.106], [0.874, 0.976, 0.91]], [[-0.271, -0.559, -0.546], [-0.607, -0.591, 0.248], [0.801, 0.681, -0.041]], [[0.306, 0.599, -0.83], [0.321, 0.82, 0.565], [0.5, -0.044, -0.643]], [[0.578, -0.335, 0.602], [0.943, -0.208, -0.197], [0.894, 0.45, -0.66]]], [[[-0.746, -0.698, 0.81], [0.613, -0.708, 0.653], [0.961, 0.315, -0.299]], [[0.097, -0.738, -0.972], [0.942, 0.299, 0.053], [0.867, -0.132, 0.743]], [[0.652, -0.578, -0.496], [-0.414, -0.519, 0.173], [-0.481, -0.162, -0.738]], [[0.82, -0.292, -0.084], [0.167, 0.809, -0.159], [0.835, 0.003, 0.064]]], [[[0.047, -0.963, -0.12], [-0.634, -0.992, 0.598], [-0.655, -0.053, 0.45]], [[0.113, -0.348, 0.037], [0.111, 0.569, -0.788], [0.121, -0.503, -0.446]], [[0.545, 0.015, 0.123], [0.52, 0.825, -0.114], [0.225, 0.011, 0.024]], [[0.385, -0.095, 0.067], [-0.044, 0.883, 0.398], [0.753, 0.884, -0.481]]]]> : tensor<8x4x3x3xf32>} : () -> tensor<8x4x3x3xf32>
  %y = "nn.conv"(%x, %w) {group = 2 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x6x6xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  %y2 = "nn.conv"(%x, %w) {group = 2 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x6x6xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x3x3xf32>
  return %y, %y2 : tensor<1x8x6x6xf32>, tensor<1x8x3x3xf32>
}
// A map tall enough for several row bands per group (rtGroupedBandRows).
func.func @grouped_bands(%x: tensor<1x64x40x40xf32>, %w: tensor<64x32x3x3xf32>) -> tensor<1x64x40x40xf32> {
  %y = "nn.conv"(%x, %w) {group = 2 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x40x40xf32>, tensor<64x32x3x3xf32>) -> tensor<1x64x40x40xf32>
  return %y : tensor<1x64x40x40xf32>
}
// Ungrouped convolutions on the direct kernel (up to 64 output channels,
// more than one tap, at least 64 products per output, no Winograd): a
// channel tail (20 outputs), two images, a residual and relu; ResNet's 7x7
// stride-2 stem shape (3 input channels); 1-D with dilation and 40
// outputs; 64 outputs (the rule's upper end) with clip; 65 outputs (the
// GEMM); and constant weights (packed once, called twice).
func.func @dense_direct_residual(%x: tensor<2x24x13x11xf32>, %w: tensor<20x24x3x3xf32>, %b: tensor<20xf32>, %r: tensor<2x20x13x11xf32>) -> tensor<2x20x13x11xf32> {
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<2x24x13x11xf32>, tensor<20x24x3x3xf32>, tensor<20xf32>) -> tensor<2x20x13x11xf32>
  %s = "nn.add"(%y, %r) : (tensor<2x20x13x11xf32>, tensor<2x20x13x11xf32>) -> tensor<2x20x13x11xf32>
  %z = "nn.relu"(%s) : (tensor<2x20x13x11xf32>) -> tensor<2x20x13x11xf32>
  return %z : tensor<2x20x13x11xf32>
}
func.func @dense_direct_stem7x7(%x: tensor<1x3x23x21xf32>, %w: tensor<16x3x7x7xf32>, %b: tensor<16xf32>) -> tensor<1x16x12x11xf32> {
  %y = "nn.conv"(%x, %w, %b) {strides = array<i64: 2, 2>, pads = array<i64: 3, 3, 3, 3>} : (tensor<1x3x23x21xf32>, tensor<16x3x7x7xf32>, tensor<16xf32>) -> tensor<1x16x12x11xf32>
  %z = "nn.relu"(%y) : (tensor<1x16x12x11xf32>) -> tensor<1x16x12x11xf32>
  return %z : tensor<1x16x12x11xf32>
}
func.func @dense_direct_1d_dilated(%x: tensor<1x16x30xf32>, %w: tensor<40x16x5xf32>) -> tensor<1x40x30xf32> {
  %y = "nn.conv"(%x, %w) {dilations = array<i64: 2>, pads = array<i64: 4, 4>} : (tensor<1x16x30xf32>, tensor<40x16x5xf32>) -> tensor<1x40x30xf32>
  return %y : tensor<1x40x30xf32>
}
func.func @dense_direct_64_and_65(%x: tensor<1x8x9x10xf32>, %w: tensor<64x8x3x3xf32>, %w2: tensor<65x8x3x3xf32>) -> (tensor<1x64x5x5xf32>, tensor<1x65x9x10xf32>) {
  %y = "nn.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x9x10xf32>, tensor<64x8x3x3xf32>) -> tensor<1x64x5x5xf32>
  %z = "nn.clip"(%y) {min = -0.5 : f32, max = 0.75 : f32} : (tensor<1x64x5x5xf32>) -> tensor<1x64x5x5xf32>
  %y2 = "nn.conv"(%x, %w2) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x9x10xf32>, tensor<65x8x3x3xf32>) -> tensor<1x65x9x10xf32>
  return %z, %y2 : tensor<1x64x5x5xf32>, tensor<1x65x9x10xf32>
}
func.func @dense_direct_constant_weights(%x: tensor<1x8x10x9xf32>) -> (tensor<1x12x10x9xf32>, tensor<1x12x5x5xf32>) {
  %w = "nn.constant"() {value = dense<[[[[0.25, 0.794, 0.551], [-0.55, -0.4, 0.747], [-0.989, 0.642, 0.594]], [[-0.064, -0.394, -0.443], [-0.49, -0.11, 0.009], [0.107, 0.991, 0.585]], [[0.244, 0.978, -0.569], [-0.68, 0.225, -0.912], [-0.929, 0.03, -0.068]], [[0.834, 0.258, 0.028], [-0.006, -0.505, -0.976], [-0.615, 0.384, -0.599]], [[-0.261, -0.993, 0.66], [-0.691, -0.465, 0.761], [0.02, 0.694, 0.279]], [[0.484, -0.817, 0.082], [0.016, 0.743, -0.277], [0.196, -0.881, -0.225]], [[-0.354, -0.7, 0.633], [-0.241, 0.957, 0.18], [0.21, 0.276, 0.353]], [[-0.698, -0.119, -0.521], [-0.195, -0.807, 0.936], [-0.57, 0.344, -0.399]]], [[[0.748, 0.324, -0.737], [0.69, 0.89, 0.808], [0.139, -0.709, -0.615]], [[0.856, 0.105, -0.639], [0.768, 0.283, 0.139], [-0.247, -0.178, -0.521]], [[-0.924, 0.752, -0.065], [0.095, -0.356, 0.503], [-0.95, -0.256, -0.939]], [[-0.754, 0.934, 0.316], [-0.144, 0.047, 0.746], [-0.312, 0.181, 0.367]], [[-0.289, 0.038, 0.53], [0.818, -0.698, 0.867], [-0.99, 0.506, 0.621]], [[-0.726, -0.162, 0.631], [-0.971, 0.257, 0.586], [0.026, 0.452, -0.547]], [[-0.603, -0.274, -0.641], [-0.308, 0.896, 0.147], [-0.32, -0.457, 0.904]], [[-0.111, 0.961, 0.031], [0.042, 0.793, 0.486], [0.161, -0.147, 0.756]]], [[[-0.177, 0.846, -0.863], [-0.14, 0.039, 0.902], [-0.498, 0.612, 0.353]], [[0.434, 0.259, 0.943], [-0.335, -0.203, -0.594], [-0.899, -0.574, 0.831]], [[0.68, -0.775, 0.208], [-0.042, 0.189, 0.319], [-0.387, 0.923, -0.068]], [[0.256, 0.27, -0.632], [-0.876, -0.177, 0.528], [0.63, 0.46, -0.774]], [[0.827, 0.604, 0.755], [0.047, 0.831, -0.907], [-0.939, -0.96, -0.494]], [[-0.503, -0.625, 0.134], [-0.922, 0.181, -0.668], [0.356, -0.958, -0.379]], [[0.877, 0.077, 0.623], [0.316, 0.222, -0.617], [0.149, -0.921, 0.603]], [[0.92, 0.708, -0.899], [-0.323, -0.364, -0.775], [0.253, 0.595, -0.373]]], [[[0.726, 0.594, -0.742], [0.534, 0.765, -0.605], [0.147, 0.277, 0.219]], [[-0.808, 0.322, 0.264], [0.648, 0.607, -0.346], [0.444, 0.735, 0.786]], [[-0.677, -0.947, 0.302], [-0.571, 0.127, 0.89], [-0.241, -0.494, -0.087]], [[0.314, -0.798, -0.239], [-0.733, 0.325, 0.661], [-0.246, -0.257, 0.079]], [[-0.57, -0.505, -0.34], [-0.085, -0.837, 0.505], [0.158, -0.401, -0.845]], [[0.526, -0.738, -0.734], [-0.739, -0.837, 0.813], [-0.462, -0.387, 0.666]], [[0.24, -0.626, -0.13], [0.768, -0.249, 0.422], [-0.806, 0.455, 0.553]], [[0.652, 0.348, -0.259], [-0.872, 0.038, 0.515], [-0.618, -0.468, 0.072]]], [[[0.497, 0.793, -0.749], [-0.631, 0.599, 0.289], [0.442, 0.994, 0.878]], [[0.686, 0.554, -0.21], [0.282, -0.631, 0.519], [0.515, 0.443, -0.11]], [[-0.244, -0.16, -0.933], [0.689, 0.085, -0.225], [0.096, 0.443, -0.237]], [[0.661, 0.839, -0.225], [-0.724, 0.521, 0.986], [-0.704, 0.425, 0.651]], [[0.841, -0.753, -0.816], [0.976, -0.766, -0.646], [0.15, -0.107, 0.501]], [[-0.619, 0.829, -0.566], [0.538, -0.865, -0.053], [-0.935, -0.372, -0.376]], [[0.439, -0.09, -0.886], [0.991, 0.777, 0.833], [-0.507, -0.212, -0.546]], [[-0.75, -0.934, 0.007], [-0.754, -0.647, 0.721], [-0.032, -0.633, 0.34]]], [[[-0.468, 0.054, -0.434], [0.032, 0.257, 0.072], [-0.209, 0.582, 0.747]], [[-0.641, -0.727, -0.774], [0.959, 0.883, -0.539], [0.94, -0.584, 0.013]], [[-0.005, 0.83, -0.919], [-0.369, 0.2, -0.867], [-0.527, -0.07, 0.762]], [[0.522, 0.658, 0.522], [0.415, 0.699, 0.363], [0.471, -0.397, -0.665]], [[0.513, -0.668, 0.839], [0.193, -0.341, 0.873], [-0.69, 0.029, -0.817]], [[0.931, 0.151, 0.607], [-0.436, 0.604, 0.406], [0.287, 0.901, -0.133]], [[-0.17, 0.384, 0.67], [-0.33, 0.339, -0.582], [0.103, 0.538, -0.869]], [[0.456, -0.969, 0.917], [-0.063, -0.182, 0.441], [0.047, 0.462, -0.83]]], [[[0.126, 0.116, 0.864], [-0.921, -0.094, 0.262], [0.101, -0.852, 0.186]], [[-0.556, -0.609, 0.757], [-0.604, -0.091, 0.501], [0.415, 0.107, 0.614]], [[-0.068, 0.241, 0.638], [0.356, 0.284, -0.188], [0.117, -0.208, 0.489]], [[-0.239, -0.067, 0.511], [0.007, -0.324, 0.654], [-0.238, 0.689, 0.57]], [[-0.105, 0.426, -0.931], [-0.22, 0.721, 0.159], [0.116, 0.329, 0.355]], [[0.167, -0.159, -0.633], [-0.415, -0.414, -0.139], [0.998, -0.295, -0.105]], [[-0.257, 0.163, 0.896], [0.778, -0.246, -0.466], [0.769, -0.012, 0.371]], [[-0.853, 0.733, -0.374], [-0.011, -0.604, -0.16], [0.656, 0.655, -0.053]]], [[[0.536, -0.084, -0.253], [0.092, -0.597, -0.367], [0.413, 0.541, -0.887]], [[0.466, 0.635, -0.11], [-0.875, 0.366, -0.508], [0.287, -0.247, 0.274]], [[-0.484, -0.047, 0.049], [0.262, -0.594, 0.924], [-0.422, -0.388, -0.487]], [[-0.865, -0.154, 0.544], [0.419, -0.609, -0.726], [-0.357, 0.537, -0.024]], [[0.846, 0.313, 0.242], [0.535, 0.501, -0.312], [-0.486, -0.125, -0.022]], [[-0.717, -0.117, 0.28], [-0.729, -0.724, -0.653], [-0.433, 0.923, -0.948]], [[-0.633, -0.67, -0.051], [-0.97, -0.084, -0.674], [-0.461, 0.585, -0.632]], [[0.234, -0.187, -0.165], [0.634, -0.678, 0.848], [0.787, 0.337, -0.901]]], [[[0.327, 0.201, 0.544], [-0.572, 0.907, 0.772], [-0.771, -0.37, -0.935]], [[0.662, 0.83, 0.98], [0.224, 0.332, 0.357], [0.14, 0.905, 0.216]], [[-0.329, 0.026, -0.963], [0.448, 0.388, -0.158], [0.703, 0.511, -0.327]], [[-0.845, -0.736, -0.631], [-0.392, -0.105, 0.856], [-0.443, 0.797, 0.361]], [[0.707, -0.193, -0.993], [0.574, -0.509, -0.715], [0.599, 0.373, -0.575]], [[-0.465, 0.878, -0.463], [0.405, -0.741, 0.63], [-0.765, 0.032, -0.93]], [[0.1, 0.693, -0.831], [-0.451, 0.529, 0.216], [-0.374, 0.258, -0.091]], [[0.725, -0.414, 0.515], [0.271, 0.481, -0.243], [0.45, 0.397, -0.225]]], [[[-0.947, 0.926, 0.427], [-0.591, 0.462, -0.443], [-0.061, 0.72, -0.104]], [[-0.424, -0.389, -0.846], [-0.561, -0.458, -0.654], [-0.874, -0.068, -0.571]], [[0.478, 0.845, -0.454], [0.144, 0.013, -0.85], [-0.75, 0.77, -0.052]], [[0.609, -0.867, 0.19], [0.731, 0.734, -0.989], [0.043, -0.262, 0.52]], [[-0.854, -0.47, 0.625], [-0.061, -0.094, 0.937], [-0.36, -0.917, -0.216]], [[-0.693, -0.836, 0.136], [0.907, 0.159, 0.294], [-0.353, 0.142, 0.504]], [[0.179, 0.606, 0.101], [-0.604, 0.165, -0.018], [-0.668, 0.238, 0.634]], [[-0.73, 0.09, 0.467], [-0.194, -0.46, -0.255], [0.083, 0.373, 0.118]]], [[[-0.786, 0.636, 0.848], [-0.797, -0.501, -0.653], [0.698, 0.821, -0.911]], [[-0.335, -0.615, -0.061], [0.843, -0.86, -0.657], [-0.026, 0.048, 0.491]], [[-0.125, -0.718, -0.293], [0.964, 0.501, -0.767], [0.616, -0.378, 0.563]], [[-0.975, 0.743, -0.675], [-0.088, 0.324, 0.016], [-0.669, -0.722, -0.431]], [[-0.895, -0.567, -0.74], [-0.07, -0.287, 0.174], [-0.438, -0.932, -0.338]], [[0.51, -0.488, -0.191], [0.51, -0.187, 0.774], [0.836, -0.379, 0.472]], [[-0.494, -0.721, -0.124], [0.205, 0.871, -0.708], [0.425, -0.049, -0.737]], [[0.945, 0.392, -0.742], [0.812, -0.794, -0.815], [-0.337, 0.876, -0.934]]], [[[0.836, 0.223, -0.866], [0.137, -0.082, 0.128], [0.474, 0.357, 0.994]], [[-0.687, 0.626, -0.178], [0.567, 0.784, 0.984], [-0.468, -0.094, 0.886]], [[0.891, -0.254, 0.88], [-0.188, -0.25, 0.513], [-0.058, -0.104, -0.228]], [[-0.134, -0.72, -0.878], [0.508, 0.129, 0.344], [0.605, -0.54, -0.532]], [[-0.444, -0.392, 0.521], [-0.252, -0.354, 0.273], [-0.627, -0.787, 0.394]], [[0.513, -0.407, 0.272], [-0.932, -0.191, 0.156], [-0.493, -0.304, 0.219]], [[0.18, -0.692, 0.413], [-0.84, 0.939, -0.595], [-0.493, -0.599, 0.983]], [[-0.427, 0.211, 0.981], [0.9, -0.915, 0.042], [0.203, 0.405, -0.328]]]]> : tensor<12x8x3x3xf32>} : () -> tensor<12x8x3x3xf32>
  %y = "nn.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x10x9xf32>, tensor<12x8x3x3xf32>) -> tensor<1x12x10x9xf32>
  %y2 = "nn.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x10x9xf32>, tensor<12x8x3x3xf32>) -> tensor<1x12x5x5xf32>
  return %y, %y2 : tensor<1x12x10x9xf32>, tensor<1x12x5x5xf32>
}
func.func @global_average_pools(%x: tensor<1x37x7x7xf32>, %x2: tensor<2x20x13x11xf32>) -> (tensor<1x37x1x1xf32>, tensor<2x20x1x1xf32>) {
  %y = "nn.global_average_pool"(%x) : (tensor<1x37x7x7xf32>) -> tensor<1x37x1x1xf32>
  %y2 = "nn.global_average_pool"(%x2) : (tensor<2x20x13x11xf32>) -> tensor<2x20x1x1xf32>
  return %y, %y2 : tensor<1x37x1x1xf32>, tensor<2x20x1x1xf32>
}
// NaN (sqrt of the negative inputs) propagates through the max.
func.func @global_max_pool_nan(%x: tensor<2x5x6x7xf32>, %x2: tensor<1x9x5x5xf32>) -> (tensor<2x5x1x1xf32>, tensor<1x9x1x1xf32>) {
  %y = "nn.global_max_pool"(%x) : (tensor<2x5x6x7xf32>) -> tensor<2x5x1x1xf32>
  %s = "nn.sqrt"(%x2) : (tensor<1x9x5x5xf32>) -> tensor<1x9x5x5xf32>
  %y2 = "nn.global_max_pool"(%s) : (tensor<1x9x5x5xf32>) -> tensor<1x9x1x1xf32>
  return %y, %y2 : tensor<2x5x1x1xf32>, tensor<1x9x1x1xf32>
}
func.func @reduce_spatial(%x: tensor<2x6x5x9xf32>) -> (tensor<2x6x1x1xf32>, tensor<2x6xf32>, tensor<2x6x1x1xf32>) {
  %m = "nn.reduce_mean"(%x) {axes = array<i64: 2, 3>} : (tensor<2x6x5x9xf32>) -> tensor<2x6x1x1xf32>
  %n = "nn.reduce_mean"(%x) {axes = array<i64: -1, -2>, keepdims = 0 : i64} : (tensor<2x6x5x9xf32>) -> tensor<2x6xf32>
  %k = "nn.reduce_max"(%x) {axes = array<i64: 3, 2>} : (tensor<2x6x5x9xf32>) -> tensor<2x6x1x1xf32>
  return %m, %n, %k : tensor<2x6x1x1xf32>, tensor<2x6xf32>, tensor<2x6x1x1xf32>
}
// 1-D and 3-D spatial extents; a strided input (gathered rows).
func.func @global_pool_ranks_strided(%x: tensor<2x3x50xf32>, %x5: tensor<1x4x3x5x6xf32>, %big: tensor<1x6x9x10xf32>) -> (tensor<2x3x1xf32>, tensor<1x4x1x1x1xf32>, tensor<1x6x1x1xf32>) {
  %y = "nn.global_average_pool"(%x) : (tensor<2x3x50xf32>) -> tensor<2x3x1xf32>
  %y5 = "nn.global_max_pool"(%x5) : (tensor<1x4x3x5x6xf32>) -> tensor<1x4x1x1x1xf32>
  %s = "nn.constant"() {value = dense<[1, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %e = "nn.constant"() {value = dense<[9, 10]> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %st = "nn.constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %v = "nn.slice"(%big, %s, %e, %a, %st) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<1x6x9x10xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x6x4x3xf32>
  %g = "nn.global_average_pool"(%v) : (tensor<1x6x4x3xf32>) -> tensor<1x6x1x1xf32>
  return %y, %y5, %g : tensor<2x3x1xf32>, tensor<1x4x1x1x1xf32>, tensor<1x6x1x1xf32>
}
// EfficientNet's squeeze-and-excitation: pool, reduce, expand, gate.
func.func @squeeze_excitation(%x: tensor<1x24x14x14xf32>, %w1: tensor<6x24x1x1xf32>, %b1: tensor<6xf32>, %w2: tensor<24x6x1x1xf32>, %b2: tensor<24xf32>) -> tensor<1x24x14x14xf32> {
  %p = "nn.global_average_pool"(%x) : (tensor<1x24x14x14xf32>) -> tensor<1x24x1x1xf32>
  %h = "nn.conv"(%p, %w1, %b1) : (tensor<1x24x1x1xf32>, tensor<6x24x1x1xf32>, tensor<6xf32>) -> tensor<1x6x1x1xf32>
  %hs = "nn.sigmoid"(%h) : (tensor<1x6x1x1xf32>) -> tensor<1x6x1x1xf32>
  %hh = "nn.mul"(%h, %hs) : (tensor<1x6x1x1xf32>, tensor<1x6x1x1xf32>) -> tensor<1x6x1x1xf32>
  %g = "nn.conv"(%hh, %w2, %b2) : (tensor<1x6x1x1xf32>, tensor<24x6x1x1xf32>, tensor<24xf32>) -> tensor<1x24x1x1xf32>
  %gs = "nn.sigmoid"(%g) : (tensor<1x24x1x1xf32>) -> tensor<1x24x1x1xf32>
  %y = "nn.mul"(%x, %gs) : (tensor<1x24x14x14xf32>, tensor<1x24x1x1xf32>) -> tensor<1x24x14x14xf32>
  return %y : tensor<1x24x14x14xf32>
}
// Stride 1 planes (phases.c's inline row fill): rows of 13 and 22 floats
// (runs of 8 + 4 + 1 and 16 + 4 + 2), no left pad, a left pad of 2 with no
// right pad, a right pad only, and more rows of zeros than the image has;
// their pixel grids (91, 81 and 69 pixels) end in partial pixel blocks of
// 7, 11 and 13 pixels under AVX-512 (14-pixel blocks; 12 otherwise).
func.func @grouped_fill_13_unpadded(%x: tensor<1x32x9x13xf32>, %w: tensor<32x16x3x3xf32>) -> tensor<1x32x7x11xf32> {
  %y = "nn.conv"(%x, %w) {group = 2 : i64} : (tensor<1x32x9x13xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x7x11xf32>
  return %y : tensor<1x32x7x11xf32>
}
func.func @grouped_fill_left_pad(%x: tensor<1x32x7x7xf32>, %w: tensor<32x16x3x3xf32>, %b: tensor<32xf32>) -> tensor<1x32x9x7xf32> {
  %y = "nn.conv"(%x, %w, %b) {group = 2 : i64, pads = array<i64: 3, 2, 1, 0>} : (tensor<1x32x7x7xf32>, tensor<32x16x3x3xf32>, tensor<32xf32>) -> tensor<1x32x9x7xf32>
  %z = "nn.relu"(%y) : (tensor<1x32x9x7xf32>) -> tensor<1x32x9x7xf32>
  return %z : tensor<1x32x9x7xf32>
}
func.func @grouped_fill_22_right_pad(%x: tensor<1x48x5x22xf32>, %w: tensor<48x16x3x3xf32>) -> tensor<1x48x3x21xf32> {
  %y = "nn.conv"(%x, %w) {group = 3 : i64, pads = array<i64: 0, 0, 0, 1>} : (tensor<1x48x5x22xf32>, tensor<48x16x3x3xf32>) -> tensor<1x48x3x21xf32>
  return %y : tensor<1x48x3x21xf32>
}
