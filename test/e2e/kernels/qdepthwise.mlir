// Depthwise integer convolutions (runtime/qdepthwise.c: one input channel
// per group, taps accumulated per output row, requantized by the GEMM's
// row code) against the interpreter, bit for bit, on every ISA and with
// two threads: u8/s8 in all four combinations, channel multipliers 1 and 3,
// strides 1, 2 and 3, dilation, asymmetric pads wider than the kernel's
// reach, 5x5 and 7x7 kernels, per-channel zero points and scales, bias,
// Relu, saturation, ConvInteger's i32 sums, and a batch of two.
// RUN: %python %S/../compare_all.py %s --rtol 0 --atol 0 | FileCheck %s
// RUN: %python %S/../compare_all.py %s --rtol 0 --atol 0 --threads 2 | FileCheck %s
// RUN: env STRATA_RT_ISA=avx2 %python %S/../compare_all.py %s --rtol 0 --atol 0 | FileCheck %s
// RUN: env STRATA_RT_ISA=generic %python %S/../compare_all.py %s --rtol 0 --atol 0 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

func.func @dw_u8s8_3x3_bias_relu(%x: tensor<1x8x9x11xf32>) -> tensor<1x8x9x11xui8> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<1x8x9x11xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x8x9x11xui8>
  %b = "nn.constant"() {value = dense<[[[[-128,  -15,  -31],   [  17,   84,  104],   [ -52,  -63,    7]]], [[[  22,  -64,  -37],   [ 109,   65,   90],   [  11,  -32,  -77]]], [[[  44,    4,  -22],   [ -67,    1, -116],   [-114, -100,   91]]], [[[ -41,  -98, -125],   [ 113,   69,  -89],   [  77,   19, -123]]], [[[ -96,    6,   51],   [ -18,  -90,  -26],   [  91, -110,   36]]], [[[ 112,   31,  -53],   [ -69,  110,   41],   [ -25, -102,  -75]]], [[[ -12,  -64,  -63],   [ -65,  -79,   78],   [  -4,   84,   42]]], [[[  78,   42,  -60],   [ -57,  -53,  -74],   [   9,  115,  127]]]]> : tensor<8x1x3x3xi8>} : () -> tensor<8x1x3x3xi8>
  %wz = "nn.constant"() {value = dense<[  75,   52,  -37,   87,  -59,   67, -118,    3]> : tensor<8xi8>} : () -> tensor<8xi8>
  %ws = "nn.constant"() {value = dense<[0.0144687, 0.0157574, 0.0054662, 0.0196041, 0.0116912, 0.0134378, 0.0140826, 0.0147446]> : tensor<8xf32>} : () -> tensor<8xf32>
  %ys = "nn.constant"() {value = dense<0.03> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<20> : tensor<ui8>} : () -> tensor<ui8>
  %bias = "nn.constant"() {value = dense<[  340, -2476,  -289, -2543,  1365, -1204,  2990, -2205]> : tensor<8xi32>} : () -> tensor<8xi32>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz, %bias) {group = 8 : i64, pads = [1, 1, 1, 1], strides = [1, 1], dilations = [1, 1]} : (tensor<1x8x9x11xui8>, tensor<f32>, tensor<ui8>, tensor<8x1x3x3xi8>, tensor<8xf32>, tensor<8xi8>, tensor<f32>, tensor<ui8>, tensor<8xi32>) -> tensor<1x8x9x11xui8>
  %m = "nn.max"(%r, %yz) : (tensor<1x8x9x11xui8>, tensor<ui8>) -> tensor<1x8x9x11xui8>
  return %m : tensor<1x8x9x11xui8>
}

func.func @dw_s8s8_mult3_stride2(%x: tensor<2x4x10x13xf32>) -> tensor<2x12x6x6xi8> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<-3> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<2x4x10x13xf32>, tensor<f32>, tensor<i8>) -> tensor<2x4x10x13xi8>
  %b = "nn.constant"() {value = dense<[[[[-128,   63,   -6],   [  -8,   58,  -82],   [  68,  -25, -118]]], [[[ -78,  -11,   63],   [  53,  -26,   10],   [  90,  107,   53]]], [[[  21,  -10,    4],   [  19,  108,  127],   [  98,   56, -122]]], [[[ -20,   67,  -27],   [  40,   90,   -6],   [  33,   29,   49]]], [[[ -59,  -87,  -61],   [ -15,  111, -124],   [  57,    9,   53]]], [[[-123, -115,   38],   [ -76,  -91,  -31],   [-109,   34,  -86]]], [[[ -63,  -22,   28],   [  -3,   37,  -64],   [  29,   31,  -72]]], [[[  27,  -55,  -73],   [  26,  -31,   13],   [ 110,  107,   -2]]], [[[ -74,   80,  -47],   [  46,  -99,   38],   [ -10,   98,  -83]]], [[[-117,   -4,   13],   [ -30,  101,   74],   [  12,  -33, -124]]], [[[ -97,  112,   56],   [  61,   37,  -31],   [  73,  -82,   80]]], [[[-123,  -97,  110],   [  60,   85,   38],   [ -96,  -73,  127]]]]> : tensor<12x1x3x3xi8>} : () -> tensor<12x1x3x3xi8>
  %wz = "nn.constant"() {value = dense<[ -40,   53,  -18,  -93,  -12,   18, -102,  -36,   87,   19,  100,   36]> : tensor<12xi8>} : () -> tensor<12xi8>
  %ws = "nn.constant"() {value = dense<[0.0074053, 0.0074095, 0.00538354, 0.0192614, 0.00994044, 0.00315491, 0.0108928, 0.0137174, 0.0180378, 0.00785253, 0.0161611, 0.0140564]> : tensor<12xf32>} : () -> tensor<12xf32>
  %ys = "nn.constant"() {value = dense<0.03> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<-7> : tensor<i8>} : () -> tensor<i8>
  %bias = "nn.constant"() {value = dense<[  163,  2572, -2915,  -992,  -369, -1786, -1507, -2932,  2447,   308,  -612,   577]> : tensor<12xi32>} : () -> tensor<12xi32>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz, %bias) {group = 4 : i64, pads = [1, 0, 2, 1], strides = [2, 2], dilations = [1, 1]} : (tensor<2x4x10x13xi8>, tensor<f32>, tensor<i8>, tensor<12x1x3x3xi8>, tensor<12xf32>, tensor<12xi8>, tensor<f32>, tensor<i8>, tensor<12xi32>) -> tensor<2x12x6x6xi8>
  return %r : tensor<2x12x6x6xi8>
}

func.func @dw_u8u8_5x5_dilated(%x: tensor<1x5x12x12xf32>) -> tensor<1x5x12x12xui8> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<255> : tensor<ui8>} : () -> tensor<ui8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<1x5x12x12xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x5x12x12xui8>
  %b = "nn.constant"() {value = dense<[[[[  0, 100, 107, 228, 223],   [ 61,  19, 206,  35, 233],   [ 19, 112, 152,  10,   9],   [147, 122, 166, 101, 243],   [ 53, 223, 113, 115,  87]]], [[[172,  46,  52, 217, 167],   [143, 200,  58, 134, 209],   [ 86,  65,   9, 222, 113],   [ 35,  82,  15, 231, 191],   [ 50, 243,   5, 174,  76]]], [[[170, 117, 246,  68, 189],   [187,  55,  83, 192,  47],   [ 60,  49,  10, 208, 165],   [ 30,   4, 159, 171, 128],   [ 53,  76, 161, 212, 172]]], [[[171, 238, 212,  68,  80],   [157, 190, 115, 132, 159],   [186,  19, 197,  62,  91],   [ 30, 154, 148, 218,  10],   [ 25, 163, 233, 194,  72]]], [[[241, 192, 214,  46, 211],   [251, 230, 141, 230,  12],   [  8, 102, 172, 162,  63],   [176, 114,  85, 109, 243],   [ 91, 106,  64,  47, 255]]]]> : tensor<5x1x5x5xui8>} : () -> tensor<5x1x5x5xui8>
  %wz = "nn.constant"() {value = dense<[206, 157, 239,  29, 184]> : tensor<5xui8>} : () -> tensor<5xui8>
  %ws = "nn.constant"() {value = dense<[0.00617992, 0.00753519, 0.0153648, 0.00259986, 0.00712952]> : tensor<5xf32>} : () -> tensor<5xf32>
  %ys = "nn.constant"() {value = dense<0.03> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<20> : tensor<ui8>} : () -> tensor<ui8>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz) {group = 5 : i64, pads = [4, 4, 4, 4], strides = [1, 1], dilations = [2, 2]} : (tensor<1x5x12x12xui8>, tensor<f32>, tensor<ui8>, tensor<5x1x5x5xui8>, tensor<5xf32>, tensor<5xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x5x12x12xui8>
  return %r : tensor<1x5x12x12xui8>
}

func.func @dw_s8u8_7x7_stride3_wide_pads(%x: tensor<1x3x9x17xf32>) -> tensor<1x6x4x8xi8> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<-3> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<1x3x9x17xf32>, tensor<f32>, tensor<i8>) -> tensor<1x3x9x17xi8>
  %b = "nn.constant"() {value = dense<[[[[  0, 127,  52,  40, 249, 219, 166],   [208, 186, 187, 121,  85, 232, 222],   [ 71, 200, 111, 127,  72,  51,  35],   [ 16,  12, 147, 159,  16, 201, 146],   [150,   5, 121, 197,  83, 224, 166],   [216, 103, 217, 242, 173, 102, 211],   [ 47,  56, 242, 187,   5, 182, 170]]], [[[139,  33, 120, 146, 180, 207,   1],   [112,  48, 130,  90,  83, 229,  62],   [132,  97,  92, 114,  86,  77,  90],   [244, 238,  95,  12,  93, 102,  81],   [221, 214, 224, 250,  10, 211,  83],   [175,  10, 248,  81,  10,  90, 239],   [ 45,  76, 249, 128,   5, 129,  59]]], [[[187, 167, 177, 128, 179, 152, 184],   [  5,  32,  91,  31, 131, 241,  19],   [234,  81,  95, 135, 148, 116, 135],   [137,  94,  40, 212, 144,  36, 212],   [127,  55,  72, 121,  31,  79, 228],   [ 50,  13, 241, 246, 103, 122,   2],   [ 84,  63, 189,  34, 192,  43, 103]]], [[[110,  39,  98, 241, 162, 218, 186],   [227,  69, 133,  48,  85,  72, 207],   [ 94,  87,  66, 155,  69, 177, 238],   [103,  23, 147, 205, 235, 116,  26],   [147,  24, 207,  13, 115, 226, 218],   [225,  69, 174, 168,  98,  13, 191],   [111,  25,  51,   2, 199,  64, 208]]], [[[ 40, 221, 208, 134,  20, 104, 109],   [116, 233, 167, 187, 218, 245,  80],   [ 74, 249,  27, 122, 137, 152,  11],   [  6, 194,  57,  72, 155,  64, 197],   [216,  78, 103, 144, 137,  47, 152],   [ 25, 223, 161, 101, 144, 192, 155],   [252,  27,  60, 104,  83, 155, 198]]], [[[232, 228,  47,  77, 213, 247, 202],   [222,  16,   4, 178,  80, 236,  29],   [148, 241, 111, 212, 175, 141, 112],   [ 16, 139,  58, 182,   2,  81, 142],   [ 55,   8,  88,  98,  46,  38, 218],   [ 94, 108, 235,   9, 129, 184,  79],   [224, 224, 197, 153, 184, 201, 255]]]]> : tensor<6x1x7x7xui8>} : () -> tensor<6x1x7x7xui8>
  %wz = "nn.constant"() {value = dense<[ 75,  58,  31, 169,  81, 112]> : tensor<6xui8>} : () -> tensor<6xui8>
  %ws = "nn.constant"() {value = dense<[0.00281428, 0.00316812, 0.0109559, 0.0127366, 0.00976206, 0.0182464]> : tensor<6xf32>} : () -> tensor<6xf32>
  %ys = "nn.constant"() {value = dense<0.03> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<-7> : tensor<i8>} : () -> tensor<i8>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz) {group = 3 : i64, pads = [5, 6, 2, 7], strides = [3, 3], dilations = [1, 1]} : (tensor<1x3x9x17xi8>, tensor<f32>, tensor<i8>, tensor<6x1x7x7xui8>, tensor<6xf32>, tensor<6xui8>, tensor<f32>, tensor<i8>) -> tensor<1x6x4x8xi8>
  return %r : tensor<1x6x4x8xi8>
}

func.func @dw_u8s8_3x1_stride_1x2_saturate(%x: tensor<1x6x8x33xf32>) -> tensor<1x6x8x17xui8> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<1x6x8x33xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x6x8x33xui8>
  %b = "nn.constant"() {value = dense<[[[[-128],   [-122],   [ -15]]], [[[  -9],   [ -29],   [ -85]]], [[[  76],   [  60],   [ -89]]], [[[ -82],   [  -7],   [ -59]]], [[[  68],   [  19],   [  -5]]], [[[  72],   [-124],   [ 127]]]]> : tensor<6x1x3x1xi8>} : () -> tensor<6x1x3x1xi8>
  %wz = "nn.constant"() {value = dense<[-83, -36, 112,  43, -74, -51]> : tensor<6xi8>} : () -> tensor<6xi8>
  %ws = "nn.constant"() {value = dense<[0.00359838, 0.0122289, 0.0105004, 0.00446761, 0.0119736, 0.0113221]> : tensor<6xf32>} : () -> tensor<6xf32>
  %ys = "nn.constant"() {value = dense<0.03> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<20> : tensor<ui8>} : () -> tensor<ui8>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz) {group = 6 : i64, pads = [0, 1, 2, 0], strides = [1, 2], dilations = [1, 1]} : (tensor<1x6x8x33xui8>, tensor<f32>, tensor<ui8>, tensor<6x1x3x1xi8>, tensor<6xf32>, tensor<6xi8>, tensor<f32>, tensor<ui8>) -> tensor<1x6x8x17xui8>
  return %r : tensor<1x6x8x17xui8>
}

func.func @dwi_u8s8_3x3(%x: tensor<2x7x6x9xf32>) -> tensor<2x7x6x9xi32> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<2x7x6x9xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x7x6x9xui8>
  %b = "nn.constant"() {value = dense<[[[[-128,  -40,   32],   [  21,  -60,  116],   [  92, -121,  117]]], [[[  73,    8,  114],   [  94,  103,   79],   [ -77, -105,  -95]]], [[[ -39,   90,  101],   [  19,  -29,   44],   [  46,  -11,    4]]], [[[   5,   15,   29],   [ 122,   14, -106],   [  90,   -3,   25]]], [[[-106,  -87,  -89],   [ 122,  -81,  -89],   [  42,   85,  126]]], [[[ -97,   12,  -28],   [  46, -115, -102],   [  63,  -61,  -46]]], [[[ -34,  -25, -110],   [ -82,    2,   -2],   [ -67,   52,  127]]]]> : tensor<7x1x3x3xi8>} : () -> tensor<7x1x3x3xi8>
  %wz = "nn.constant"() {value = dense<[  25,   69,  100,   80, -115,    5,   10]> : tensor<7xi8>} : () -> tensor<7xi8>
  %r = "nn.conv_integer"(%a, %b, %a_z, %wz) {operandSegmentSizes = array<i32: 1, 1, 1, 1>, group = 7 : i64, pads = [1, 1, 1, 1], strides = [1, 1], dilations = [1, 1]} : (tensor<2x7x6x9xui8>, tensor<7x1x3x3xi8>, tensor<ui8>, tensor<7xi8>) -> tensor<2x7x6x9xi32>
  return %r : tensor<2x7x6x9xi32>
}

func.func @dwi_s8s8_mult2_stride2(%x: tensor<1x3x7x7xf32>) -> tensor<1x6x3x3xi32> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<-3> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<1x3x7x7xf32>, tensor<f32>, tensor<i8>) -> tensor<1x3x7x7xi8>
  %b = "nn.constant"() {value = dense<[[[[-128,  -66,   20],   [ -24,  -42,    2],   [-108,  -67,  112]]], [[[  71,   78,    4],   [  98, -105,  -92],   [ -71,  -74,  -62]]], [[[ 102,  -61,   92],   [  47,   -5,   83],   [ -18,   72, -120]]], [[[ -39, -113,  -54],   [  53,   -2,  -36],   [ 114,    9,  -42]]], [[[ -88,  110,  -59],   [ -14,  -71,  100],   [  40,  120,  -32]]], [[[ -91,  110,  -34],   [ -39,  -44,   98],   [  45,  122,  127]]]]> : tensor<6x1x3x3xi8>} : () -> tensor<6x1x3x3xi8>
  %wz = "nn.constant"() {value = dense<[  -5,   -9,  -74, -122,   96, -101]> : tensor<6xi8>} : () -> tensor<6xi8>
  %r = "nn.conv_integer"(%a, %b, %a_z, %wz) {operandSegmentSizes = array<i32: 1, 1, 1, 1>, group = 3 : i64, pads = [0, 0, 1, 1], strides = [2, 2], dilations = [1, 1]} : (tensor<1x3x7x7xi8>, tensor<6x1x3x3xi8>, tensor<i8>, tensor<6xi8>) -> tensor<1x6x3x3xi32>
  return %r : tensor<1x6x3x3xi32>
}

