// The depthwise kernel's four-tap path (runtime/qdepthwise.c: vbmiChannel,
// AVX-512 VBMI + VNNI, requantization fused) against the interpreter, bit for
// bit, on every ISA and with two threads: 16-column vectors with tails
// (rows 1) and two whole rows per vector (rows 2, with an odd last row),
// strides 1 and 2, dilation 2, asymmetric pads, 3x3, 5x5 and 7x7 kernels
// (a kernel row of more than four taps: two groups), channel multipliers 2
// and 3, u8 and s8 activations (s8 flipped) with zero points at both ends,
// weight zero points that keep w - zw in i8 and channels whose w - zw leaves
// it (those run the pairwise row kernel, in the same call), Relu, a fused
// Clip, saturation, no bias, a batch of two.
// RUN: %python %S/../compare_all.py %s --rtol 0 --atol 0 | FileCheck %s
// RUN: %python %S/../compare_all.py %s --rtol 0 --atol 0 --threads 2 | FileCheck %s
// RUN: env STRATA_RT_ISA=avx2 %python %S/../compare_all.py %s --rtol 0 --atol 0 | FileCheck %s
// RUN: env STRATA_RT_ISA=generic %python %S/../compare_all.py %s --rtol 0 --atol 0 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: 8 functions, 0 failed

func.func @dwq_u8_3x3_s1_rows1_tail(%x: tensor<1x6x9x37xf32>) -> tensor<1x6x9x37xui8> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<1x6x9x37xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x6x9x37xui8>
  %b = "nn.constant"() {value = dense<[[[[-51, 71, -30], [27, -9, 53], [-40, -106, -53]]], [[[33, 30, 123], [-66, -20, 114], [-100, 51, 117]]], [[[106, 45, 100], [-78, 65, 44], [1, 126, 88]]], [[[-75, 123, 90], [-33, 50, 72], [-72, -62, -81]]], [[[-10, 116, -29], [-41, 108, -16], [-113, 39, 67]]], [[[-16, 114, -128], [93, -62, 76], [-8, 38, 66]]]]> : tensor<6x1x3x3xi8>} : () -> tensor<6x1x3x3xi8>
  %wz = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %ws = "nn.constant"() {value = dense<[0.01330857, 0.01031332, 0.006247484, 0.01633914, 0.006181099, 0.01530424]> : tensor<6xf32>} : () -> tensor<6xf32>
  %ys = "nn.constant"() {value = dense<0.03> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<20> : tensor<ui8>} : () -> tensor<ui8>
  %bias = "nn.constant"() {value = dense<[-1128, -16, 1083, 313, -100, -697]> : tensor<6xi32>} : () -> tensor<6xi32>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz, %bias) {group = 6 : i64, pads = [1, 1, 1, 1], strides = [1, 1], dilations = [1, 1]} : (tensor<1x6x9x37xui8>, tensor<f32>, tensor<ui8>, tensor<6x1x3x3xi8>, tensor<6xf32>, tensor<i8>, tensor<f32>, tensor<ui8>, tensor<6xi32>) -> tensor<1x6x9x37xui8>
  %m = "nn.max"(%r, %yz) : (tensor<1x6x9x37xui8>, tensor<ui8>) -> tensor<1x6x9x37xui8>
  return %m : tensor<1x6x9x37xui8>
}

func.func @dwq_u8_3x3_s2_rows2(%x: tensor<1x5x13x13xf32>) -> tensor<1x5x7x7xui8> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<3> : tensor<ui8>} : () -> tensor<ui8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<1x5x13x13xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x5x13x13xui8>
  %b = "nn.constant"() {value = dense<[[[[113, -77, 75], [-85, -6, 36], [-54, -58, -85]]], [[[-125, -61, -79], [38, 107, -122], [54, -25, 20]]], [[[118, -26, -98], [81, 99, -61], [21, 34, -95]]], [[[-125, -123, 37], [30, 120, 25], [53, -9, -109]]], [[[-42, 23, 48], [-47, -96, 107], [-70, -124, -24]]]]> : tensor<5x1x3x3xi8>} : () -> tensor<5x1x3x3xi8>
  %wz = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %ws = "nn.constant"() {value = dense<[0.004635447, 0.008768103, 0.01800092, 0.01259897, 0.0142602]> : tensor<5xf32>} : () -> tensor<5xf32>
  %ys = "nn.constant"() {value = dense<0.02> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %bias = "nn.constant"() {value = dense<[-2929, 1434, -2734, 474, -1952]> : tensor<5xi32>} : () -> tensor<5xi32>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz, %bias) {group = 5 : i64, pads = [1, 1, 1, 1], strides = [2, 2], dilations = [1, 1]} : (tensor<1x5x13x13xui8>, tensor<f32>, tensor<ui8>, tensor<5x1x3x3xi8>, tensor<5xf32>, tensor<i8>, tensor<f32>, tensor<ui8>, tensor<5xi32>) -> tensor<1x5x7x7xui8>
  return %r : tensor<1x5x7x7xui8>
}

func.func @dwq_u8_3x3_s2_rows2_oddrows_batch2(%x: tensor<2x4x9x9xf32>) -> tensor<2x4x5x5xui8> {
  %a_s = "nn.constant"() {value = dense<0.006> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<255> : tensor<ui8>} : () -> tensor<ui8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<2x4x9x9xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x4x9x9xui8>
  %b = "nn.constant"() {value = dense<[[[[-106, -31, 75], [32, 100, 64], [-42, 19, -53]]], [[[-57, 39, -83], [-22, -21, 1], [-63, -69, 66]]], [[[-1, 100, -6], [77, 76, -98], [80, 73, 31]]], [[[-125, 90, -94], [102, 51, -38], [-46, 13, 83]]]]> : tensor<4x1x3x3xi8>} : () -> tensor<4x1x3x3xi8>
  %wz = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %ws = "nn.constant"() {value = dense<[0.01470319, 0.0138847, 0.01321032, 0.018522]> : tensor<4xf32>} : () -> tensor<4xf32>
  %ys = "nn.constant"() {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<0> : tensor<ui8>} : () -> tensor<ui8>
  %bias = "nn.constant"() {value = dense<[422, 1993, -585, -2824]> : tensor<4xi32>} : () -> tensor<4xi32>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz, %bias) {group = 4 : i64, pads = [1, 1, 1, 1], strides = [2, 2], dilations = [1, 1]} : (tensor<2x4x9x9xui8>, tensor<f32>, tensor<ui8>, tensor<4x1x3x3xi8>, tensor<4xf32>, tensor<i8>, tensor<f32>, tensor<ui8>, tensor<4xi32>) -> tensor<2x4x5x5xui8>
  return %r : tensor<2x4x5x5xui8>
}

func.func @dwq_s8_3x3_s1_rows2_dil2_mult3(%x: tensor<1x3x8x8xf32>) -> tensor<1x9x8x8xi8> {
  %a_s = "nn.constant"() {value = dense<0.008> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<-128> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<1x3x8x8xf32>, tensor<f32>, tensor<i8>) -> tensor<1x3x8x8xi8>
  %b = "nn.constant"() {value = dense<[[[[116, 124, 61], [-18, 32, -53], [-70, 94, -71]]], [[[107, 27, 69], [-84, 56, 55], [-126, 118, -58]]], [[[59, 79, -54], [127, -32, -57], [29, 66, 107]]], [[[-100, -117, 63], [111, -37, -122], [-109, -106, -83]]], [[[-60, 17, -82], [-8, 122, 47], [-121, -39, 51]]], [[[24, -49, -32], [-50, 68, 87], [-127, 76, 22]]], [[[7, 22, -54], [-114, -60, 67], [77, 34, 19]]], [[[115, 51, -81], [47, -20, -21], [93, 125, 113]]], [[[-38, 47, -11], [-38, 49, 62], [-6, -12, 40]]]]> : tensor<9x1x3x3xi8>} : () -> tensor<9x1x3x3xi8>
  %wz = "nn.constant"() {value = dense<[0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<9xi8>} : () -> tensor<9xi8>
  %ws = "nn.constant"() {value = dense<[0.01451387, 0.01881052, 0.003150439, 0.01489736, 0.01854764, 0.009363669, 0.007026191, 0.01268593, 0.003510548]> : tensor<9xf32>} : () -> tensor<9xf32>
  %ys = "nn.constant"() {value = dense<0.04> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<-5> : tensor<i8>} : () -> tensor<i8>
  %bias = "nn.constant"() {value = dense<[207, 637, 1829, 1704, -72, -1775, 981, -626, 1677]> : tensor<9xi32>} : () -> tensor<9xi32>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz, %bias) {group = 3 : i64, pads = [2, 2, 2, 2], strides = [1, 1], dilations = [2, 2]} : (tensor<1x3x8x8xi8>, tensor<f32>, tensor<i8>, tensor<9x1x3x3xi8>, tensor<9xf32>, tensor<9xi8>, tensor<f32>, tensor<i8>, tensor<9xi32>) -> tensor<1x9x8x8xi8>
  return %r : tensor<1x9x8x8xi8>
}

func.func @dwq_s8_5x5_s2_asym_mult2(%x: tensor<1x3x11x40xf32>) -> tensor<1x6x5x20xui8> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<127> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<1x3x11x40xf32>, tensor<f32>, tensor<i8>) -> tensor<1x3x11x40xi8>
  %b = "nn.constant"() {value = dense<[[[[8, -123, 79, -80, 15], [-22, -99, 28, 105, -35], [6, -57, -35, -122, 63], [-19, -21, 112, -27, -121], [55, 25, -3, -76, 61]]], [[[120, -45, 78, -15, -73], [-54, 120, -90, -49, -90], [48, -25, -61, -98, -54], [-44, -112, -87, -53, 32], [-23, 78, -122, -52, -125]]], [[[-107, -126, 23, 97, 33], [-22, -55, 106, 49, -6], [72, 15, -107, -33, 102], [71, -105, -41, 105, 78], [-107, -28, -97, -96, -70]]], [[[-22, -32, -121, 35, -29], [-41, -29, -71, 53, 0], [127, 112, -89, -76, 27], [-2, 86, 34, 46, -29], [-69, -64, -21, 10, 110]]], [[[70, 5, 53, 45, -98], [-49, 48, 74, -92, 15], [40, 73, 116, -57, -84], [-69, 120, -82, -43, 24], [-37, -108, -88, -40, 98]]], [[[42, -79, -57, 114, -62], [-61, -69, -100, -7, 103], [65, 37, -61, 59, 8], [33, 125, 105, 0, 32], [-59, 34, 86, -89, 103]]]]> : tensor<6x1x5x5xi8>} : () -> tensor<6x1x5x5xi8>
  %wz = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %ws = "nn.constant"() {value = dense<[0.01568929, 0.008532368, 0.01150922, 0.00846465, 0.0186873, 0.003181842]> : tensor<6xf32>} : () -> tensor<6xf32>
  %ys = "nn.constant"() {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<17> : tensor<ui8>} : () -> tensor<ui8>
  %bias = "nn.constant"() {value = dense<[555, 2244, 737, -1432, -1259, -2120]> : tensor<6xi32>} : () -> tensor<6xi32>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz, %bias) {group = 3 : i64, pads = [2, 1, 0, 3], strides = [2, 2], dilations = [1, 1]} : (tensor<1x3x11x40xi8>, tensor<f32>, tensor<i8>, tensor<6x1x5x5xi8>, tensor<6xf32>, tensor<i8>, tensor<f32>, tensor<ui8>, tensor<6xi32>) -> tensor<1x6x5x20xui8>
  %m = "nn.max"(%r, %yz) : (tensor<1x6x5x20xui8>, tensor<ui8>) -> tensor<1x6x5x20xui8>
  return %m : tensor<1x6x5x20xui8>
}

func.func @dwq_u8_7x7_s1_wz_in_range(%x: tensor<1x2x12x12xf32>) -> tensor<1x2x12x12xui8> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<40> : tensor<ui8>} : () -> tensor<ui8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<1x2x12x12xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x12x12xui8>
  %b = "nn.constant"() {value = dense<[[[[38, 86, -20, 74, 5, -118, -125], [-53, 32, -104, 0, 63, 105, 103], [-80, -54, -120, -37, -25, -120, 93], [-103, -8, -112, -125, 57, -58, -75], [-68, -9, -105, -59, 110, 5, 115], [13, -65, -40, 44, -61, -102, 104], [-108, 111, 90, -9, -113, -27, -77]]], [[[4, -38, 10, -82, 117, -72, -18], [-123, -41, 51, 115, -42, 38, -36], [-94, 58, 12, 57, 81, -77, 16], [-26, -61, -4, -36, 82, 58, 99], [14, -63, -124, -32, -46, 0, 61], [6, -113, -51, -26, 59, 14, 83], [-51, -105, 47, 76, -112, 27, 111]]]]> : tensor<2x1x7x7xi8>} : () -> tensor<2x1x7x7xi8>
  %wz = "nn.constant"() {value = dense<[3, -2]> : tensor<2xi8>} : () -> tensor<2xi8>
  %ws = "nn.constant"() {value = dense<[0.01585682, 0.01789442]> : tensor<2xf32>} : () -> tensor<2xf32>
  %ys = "nn.constant"() {value = dense<0.09> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<100> : tensor<ui8>} : () -> tensor<ui8>
  %bias = "nn.constant"() {value = dense<[-1897, 132]> : tensor<2xi32>} : () -> tensor<2xi32>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz, %bias) {group = 2 : i64, pads = [3, 3, 3, 3], strides = [1, 1], dilations = [1, 1]} : (tensor<1x2x12x12xui8>, tensor<f32>, tensor<ui8>, tensor<2x1x7x7xi8>, tensor<2xf32>, tensor<2xi8>, tensor<f32>, tensor<ui8>, tensor<2xi32>) -> tensor<1x2x12x12xui8>
  return %r : tensor<1x2x12x12xui8>
}

func.func @dwq_mixed_fallback_clip(%x: tensor<1x4x6x17xf32>) -> tensor<1x4x6x17xui8> {
  %a_s = "nn.constant"() {value = dense<0.004> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<0> : tensor<ui8>} : () -> tensor<ui8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<1x4x6x17xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x6x17xui8>
  %b = "nn.constant"() {value = dense<[[[[-17, -9, -90], [-49, 112, -103], [62, 4, 75]]], [[[-128, -111, 93], [5, -87, -58], [-118, 19, 73]]], [[[127, 122, 43], [-18, 76, 94], [-67, 55, 43]]], [[[73, 34, 22], [-19, 1, 82], [33, 124, 75]]]]> : tensor<4x1x3x3xi8>} : () -> tensor<4x1x3x3xi8>
  %wz = "nn.constant"() {value = dense<[0, 5, -1, 0]> : tensor<4xi8>} : () -> tensor<4xi8>
  %ws = "nn.constant"() {value = dense<[0.01915451, 0.01813161, 0.01546357, 0.01881224]> : tensor<4xf32>} : () -> tensor<4xf32>
  %ys = "nn.constant"() {value = dense<0.02> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<9> : tensor<ui8>} : () -> tensor<ui8>
  %bias = "nn.constant"() {value = dense<[1695, -2839, -1551, -2936]> : tensor<4xi32>} : () -> tensor<4xi32>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz, %bias) {group = 4 : i64, pads = [1, 1, 1, 1], strides = [1, 1], dilations = [1, 1]} : (tensor<1x4x6x17xui8>, tensor<f32>, tensor<ui8>, tensor<4x1x3x3xi8>, tensor<4xf32>, tensor<4xi8>, tensor<f32>, tensor<ui8>, tensor<4xi32>) -> tensor<1x4x6x17xui8>
  %m = "nn.clip"(%r) {min = 30.0 : f64, max = 200.0 : f64} : (tensor<1x4x6x17xui8>) -> tensor<1x4x6x17xui8>
  return %m : tensor<1x4x6x17xui8>
}

func.func @dwq_s8s8_3x3_s1_saturate_nobias(%x: tensor<1x3x7x20xf32>) -> tensor<1x3x7x19xi8> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<2> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<1x3x7x20xf32>, tensor<f32>, tensor<i8>) -> tensor<1x3x7x20xi8>
  %b = "nn.constant"() {value = dense<[[[[73, -63, 106], [-127, 44, 15], [31, -78, 86]]], [[[96, 126, -104], [50, 69, 70], [-113, -96, 112]]], [[[-97, -35, -11], [-57, 52, -46], [96, 52, -57]]]]> : tensor<3x1x3x3xi8>} : () -> tensor<3x1x3x3xi8>
  %wz = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %ws = "nn.constant"() {value = dense<[0.01438106, 0.005392248, 0.009356463]> : tensor<3xf32>} : () -> tensor<3xf32>
  %ys = "nn.constant"() {value = dense<0.002> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<3> : tensor<i8>} : () -> tensor<i8>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz) {group = 3 : i64, pads = [0, 1, 2, 0], strides = [1, 1], dilations = [1, 1]} : (tensor<1x3x7x20xi8>, tensor<f32>, tensor<i8>, tensor<3x1x3x3xi8>, tensor<3xf32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<1x3x7x19xi8>
  return %r : tensor<1x3x7x19xi8>
}
