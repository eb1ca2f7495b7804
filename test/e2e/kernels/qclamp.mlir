// The integer kernels' fused clamp (nn-qdq-to-qlinear's Clip after a
// QLinear op, runtime/qgemm.c's row code) against the interpreter, bit for
// bit, on every ISA: the conv GEMM, depthwise and batched MatMul paths, u8
// and s8 results, a clamp alone and after the Relu, bounds inside the
// range, at its ends and beyond it, a lower bound above the upper (all values become the upper),
// the Relu's zero point above the clamp's upper bound, and a clip with a
// non-integer bound (not fused: the loops compute it).
// RUN: %python %S/../compare_all.py %s --rtol 0 --atol 0 | FileCheck %s
// RUN: %python %S/../compare_all.py %s --rtol 0 --atol 0 --threads 2 | FileCheck %s
// RUN: env STRATA_RT_ISA=avx2 %python %S/../compare_all.py %s --rtol 0 --atol 0 | FileCheck %s
// RUN: env STRATA_RT_ISA=generic %python %S/../compare_all.py %s --rtol 0 --atol 0 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: 7 functions, 0 failed

func.func @conv_u8_clip(%x: tensor<1x5x9x10xf32>) -> tensor<1x7x9x10xui8> {
  %xs = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %xz = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %xq = "nn.quantize_linear"(%x, %xs, %xz) : (tensor<1x5x9x10xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x5x9x10xui8>
  %w = "nn.constant"() {value = dense<[[[[ 113,   32,   47],   [ 101,   20,   70],   [  85,  -71, -114]],  [[ -52,  -56,   95],   [ 105, -127,   -1],   [  82,  -95,   76]],  [[ -98,   -9,   81],   [ -51,  -41,  -57],   [  56,  -63,  125]],  [[ -15,   -6,    1],   [  21,   13,    2],   [ 126,   78,   74]],  [[  51,   31,  -41],   [ 125,   -9,  -73],   [  88,  -87,   91]]], [[[  28,  -99, -117],   [ -15, -119,  -92],   [   3,  120,   -9]],  [[  78,  106,   82],   [  33,  -16,    3],   [ -60,   -1,  -31]],  [[ -65,  126, -125],   [-104,  -79,  120],   [  49,   97,  -77]],  [[  56,  -34,   -3],   [-128,   30,   84],   [  41,  -89,    8]],  [[ -60,  119,   97],   [ -81,    2,  112],   [  88,   53,   35]]], [[[-118,   61,   -7],   [-105,  -66,   10],   [  58,    1,   28]],  [[  95,   47,  -36],   [  36,   25, -101],   [-113,   41,  -29]],  [[  25,  -46,  -71],   [ -90,  -31,   80],   [ -26,  -31,   19]],  [[ 122,  -28,   23],   [ -16,   26,  -14],   [  35,   12,   45]],  [[ 116,  -90,   15],   [ -16,  -37,  -67],   [-115,  -25,   83]]], [[[-104,  -25,  119],   [ 115,  -73, -127],   [  43, -125,  -52]],  [[  -1,   95, -105],   [  41,    8,  -95],   [  88,   88,   -5]],  [[ 113,   27,  103],   [ 117,   17,  -57],   [ -91,   16,  -79]],  [[  64,  109,  -66],   [  13, -116,  -82],   [ -32,   98,  120]],  [[  36,   21,   17],   [-113,  -32,  123],   [ -23,  -74,  -67]]], [[[  54, -119,  120],   [  96,   17,   -9],   [  66,   12,   -6]],  [[ -46,  -14,   64],   [-114, -122,   56],   [ -33,   77, -121]],  [[ 104,  -97,  -22],   [ 119, -101,   40],   [  58,  -19, -108]],  [[   6,  -18,   95],   [  46,  -40, -114],   [  23,  -57,   47]],  [[  93,  -38,  103],   [   4,    7,   67],   [  74,  104,  127]]], [[[ -90,  -23,  110],   [ -50, -127,   19],   [  64,   62,   79]],  [[  36,  -93,   88],   [ -21,   88,   80],   [ 120, -125,   93]],  [[  32,   -4,   75],   [ 115,    3, -106],   [  57,  -69,  -71]],  [[ -79,  -78,  104],   [ -36, -101,  -83],   [ -27,  -40,  -49]],  [[ 114,   93,   18],   [ 124,  -41,  -93],   [ -59, -106,  115]]], [[[ -72,  -15,  -77],   [ 122,  -88,    3],   [ 115,    5,  102]],  [[ 101,   68,   62],   [  19,   20,   84],   [ -19,  114,   96]],  [[ -33,  -23,   54],   [ 108, -104, -111],   [ -65,  -18,  -87]],  [[   4,   10,  115],   [  62,  -64,   73],   [  78,   46,   45]],  [[ -49,   55,  -94],   [  33,  107,  120],   [ -52,  -43,   30]]]]> : tensor<7x5x3x3xi8>} : () -> tensor<7x5x3x3xi8>
  %ws = "nn.constant"() {value = dense<[0.00645, 0.00386, 0.00662, 0.01856, 0.01728, 0.00491, 0.01326]> : tensor<7xf32>} : () -> tensor<7xf32>
  %wz = "nn.constant"() {value = dense<0> : tensor<7xi8>} : () -> tensor<7xi8>
  %b = "nn.constant"() {value = dense<[ -611,  2452,  -125, -1962,   568,  -264,   955]> : tensor<7xi32>} : () -> tensor<7xi32>
  %ys = "nn.constant"() {value = dense<0.03> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<100> : tensor<ui8>} : () -> tensor<ui8>
  %r = "nn.qlinear_conv"(%xq, %xs, %xz, %w, %ws, %wz, %ys, %yz, %b) {group = 1 : i64, pads = [1, 1, 1, 1], strides = [1, 1]} : (tensor<1x5x9x10xui8>, tensor<f32>, tensor<ui8>, tensor<7x5x3x3xi8>, tensor<7xf32>, tensor<7xi8>, tensor<f32>, tensor<ui8>, tensor<7xi32>) -> tensor<1x7x9x10xui8>
  %e0 = "nn.clip"(%r) {min = 60.0 : f64, max = 180.0 : f64} : (tensor<1x7x9x10xui8>) -> tensor<1x7x9x10xui8>
  return %e0 : tensor<1x7x9x10xui8>
}

func.func @conv_s8_relu_clip_ends(%x: tensor<1x6x8x8xf32>) -> tensor<1x5x8x8xi8> {
  %xs = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %xz = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %xq = "nn.quantize_linear"(%x, %xs, %xz) : (tensor<1x6x8x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x6x8x8xui8>
  %w = "nn.constant"() {value = dense<[[[[ -32,  -50,  -96],   [ 118,   65,   -9],   [ -68,   32,  -23]],  [[  34, -105,  -81],   [  60, -113,   45],   [ -23, -128,   67]],  [[  51,   80,  101],   [  58,   87, -100],   [ 107,  105,   49]],  [[  77,   61,   96],   [  99,    5,   80],   [ 106,  -52, -117]],  [[ -85, -121,  -17],   [-123,  -62,  -64],   [  52,  -65,  115]],  [[ -80,  120,   17],   [ -66, -119,  -50],   [  23, -101,  -86]]], [[[ -99,   45, -106],   [-123,  -12,  -49],   [  17,  112,   91]],  [[   9,   36,   79],   [ -17,   40,  -73],   [  28,  -68,  -80]],  [[  66,   19,  -32],   [-118,  -68,   77],   [  -9,  117,  102]],  [[  90, -124, -116],   [  20,  -42,   87],   [ -47,  -89, -100]],  [[ -51,   32,  -96],   [  76,  -51,  -48],   [  41,   92,  -17]],  [[  76,  -50,  -95],   [  84,   68,   64],   [  97,   -1,  -78]]], [[[  21,   18,  -30],   [  35,  -61,   27],   [  75, -104,  -12]],  [[  41, -115,   33],   [ 105,   82,   47],   [  77,  -36,  -45]],  [[-107,   56,  -48],   [  94,   -9,  100],   [ -93,  -87,  -40]],  [[-122,   -3,   38],   [  41,  -74,  -86],   [  16,   34,  113]],  [[ 101,  -31,  -87],   [ -64,   97,  -12],   [ 126,   40,   24]],  [[-103,   23,  -31],   [  87,  -94,  -79],   [  41,   46,   84]]], [[[   6,  -32,  -50],   [ -33,   41,   10],   [ -53,  -73,   53]],  [[ -65,  -75,  -44],   [  90,  -11,   24],   [-108,  -40,   64]],  [[  69,   20,   96],   [ -52,  -86, -109],   [ -77,   67,  103]],  [[ -95,    0,  -94],   [  88,  -95,   35],   [-108,   60,  104]],  [[  59,  -60,   87],   [ -50,   64,   85],   [  -4,   30,   90]],  [[ -81, -123,  -17],   [ -82,   98,   93],   [ -32,  -49,   53]]], [[[ -12, -104,   41],   [  58, -111,   70],   [   8,   83,   89]],  [[  44,  -43,  -34],   [  57, -112,  -69],   [   4,  113,   65]],  [[  80,  -80,  -57],   [ -60,   63,    9],   [ -74,   63,   35]],  [[ 101,   15,  -96],   [  99,  -81, -114],   [  76,  -13,   36]],  [[ -95,   56,  -25],   [ 127,   34,  112],   [  74,   87, -106]],  [[  70,   26,  -27],   [ -49,   36,  -78],   [ -81,   95,   66]]]]> : tensor<5x6x3x3xi8>} : () -> tensor<5x6x3x3xi8>
  %ws = "nn.constant"() {value = dense<[0.01588, 0.01526, 0.01056, 0.00943, 0.01014]> : tensor<5xf32>} : () -> tensor<5xf32>
  %wz = "nn.constant"() {value = dense<0> : tensor<5xi8>} : () -> tensor<5xi8>
  %b = "nn.constant"() {value = dense<[ -142, -2800,  -947,  2065,  -401]> : tensor<5xi32>} : () -> tensor<5xi32>
  %ys = "nn.constant"() {value = dense<0.03> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<-20> : tensor<i8>} : () -> tensor<i8>
  %r = "nn.qlinear_conv"(%xq, %xs, %xz, %w, %ws, %wz, %ys, %yz, %b) {group = 1 : i64, pads = [1, 1, 1, 1], strides = [1, 1]} : (tensor<1x6x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<5x6x3x3xi8>, tensor<5xf32>, tensor<5xi8>, tensor<f32>, tensor<i8>, tensor<5xi32>) -> tensor<1x5x8x8xi8>
  %e0 = "nn.max"(%r, %yz) : (tensor<1x5x8x8xi8>, tensor<i8>) -> tensor<1x5x8x8xi8>
  %e1 = "nn.clip"(%e0) {min = -128.0 : f64, max = 127.0 : f64} : (tensor<1x5x8x8xi8>) -> tensor<1x5x8x8xi8>
  return %e1 : tensor<1x5x8x8xi8>
}

func.func @depthwise_s8_relu_clip(%x: tensor<1x8x12x12xf32>) -> tensor<1x8x6x6xi8> {
  %xs = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %xz = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %xq = "nn.quantize_linear"(%x, %xs, %xz) : (tensor<1x8x12x12xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x8x12x12xui8>
  %w = "nn.constant"() {value = dense<[[[[  10, -102,  -29],   [ 120,   12, -123],   [  56,   69,  -31]]], [[[-120,   84,  -64],   [ 107,  -35,  -29],   [  75,  -93, -121]]], [[[  66,  109,  126],   [ -96,  -91,  -42],   [  54,  105,   83]]], [[[ -33,  107,  -63],   [ -97,  -17, -105],   [  45,  124, -101]]], [[[ -99,  -83,  -83],   [   8,   19,  115],   [ -14,  109,   64]]], [[[  90,  -80,  -12],   [ 106,   64,  -73],   [  88,   68,  -91]]], [[[-111,  -62,   -7],   [ -89, -120, -100],   [ -48,  -29,  -49]]], [[[ -14,   56,  -65],   [ -12,   58, -114],   [ 112,  126,  -54]]]]> : tensor<8x1x3x3xi8>} : () -> tensor<8x1x3x3xi8>
  %ws = "nn.constant"() {value = dense<[0.01858, 0.00719, 0.0097 , 0.00686, 0.00512, 0.00356, 0.01156, 0.00509]> : tensor<8xf32>} : () -> tensor<8xf32>
  %wz = "nn.constant"() {value = dense<0> : tensor<8xi8>} : () -> tensor<8xi8>
  %b = "nn.constant"() {value = dense<[ 2332, -1993, -1943,   412,  2162,   643,   -95,  2652]> : tensor<8xi32>} : () -> tensor<8xi32>
  %ys = "nn.constant"() {value = dense<0.03> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<-10> : tensor<i8>} : () -> tensor<i8>
  %r = "nn.qlinear_conv"(%xq, %xs, %xz, %w, %ws, %wz, %ys, %yz, %b) {group = 8 : i64, pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<1x8x12x12xui8>, tensor<f32>, tensor<ui8>, tensor<8x1x3x3xi8>, tensor<8xf32>, tensor<8xi8>, tensor<f32>, tensor<i8>, tensor<8xi32>) -> tensor<1x8x6x6xi8>
  %e0 = "nn.max"(%r, %yz) : (tensor<1x8x6x6xi8>, tensor<i8>) -> tensor<1x8x6x6xi8>
  %e1 = "nn.clip"(%e0) {min = -30.0 : f64, max = 25.0 : f64} : (tensor<1x8x6x6xi8>) -> tensor<1x8x6x6xi8>
  return %e1 : tensor<1x8x6x6xi8>
}

func.func @depthwise_u8_zp_above_hi(%x: tensor<1x6x10x11xf32>) -> tensor<1x6x10x11xui8> {
  %xs = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %xz = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %xq = "nn.quantize_linear"(%x, %xs, %xz) : (tensor<1x6x10x11xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x6x10x11xui8>
  %w = "nn.constant"() {value = dense<[[[[ -81,  -86,   43],   [  90,  -60,  -62],   [   6,   71,  -56]]], [[[  82,    4,   52],   [  32,   -5,    9],   [ 126,  -27,  113]]], [[[  74,  -82,   95],   [ -30,  -83,  -64],   [ -94,  -42, -100]]], [[[  11,  122,  118],   [ 113,  -66,  -69],   [  45,  120,   83]]], [[[ -75,   60,    1],   [ -15,   -1,   11],   [ 106,   74, -118]]], [[[  67,  -48,  -42],   [  25,  123, -112],   [   3,  -68,  105]]]]> : tensor<6x1x3x3xi8>} : () -> tensor<6x1x3x3xi8>
  %ws = "nn.constant"() {value = dense<[0.01797, 0.01594, 0.01709, 0.01594, 0.01503, 0.01744]> : tensor<6xf32>} : () -> tensor<6xf32>
  %wz = "nn.constant"() {value = dense<0> : tensor<6xi8>} : () -> tensor<6xi8>
  %b = "nn.constant"() {value = dense<[-210, 1202, 1088, 2838, 1414, -967]> : tensor<6xi32>} : () -> tensor<6xi32>
  %ys = "nn.constant"() {value = dense<0.03> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<40> : tensor<ui8>} : () -> tensor<ui8>
  %r = "nn.qlinear_conv"(%xq, %xs, %xz, %w, %ws, %wz, %ys, %yz, %b) {group = 6 : i64, pads = [1, 1, 1, 1], strides = [1, 1]} : (tensor<1x6x10x11xui8>, tensor<f32>, tensor<ui8>, tensor<6x1x3x3xi8>, tensor<6xf32>, tensor<6xi8>, tensor<f32>, tensor<ui8>, tensor<6xi32>) -> tensor<1x6x10x11xui8>
  %e0 = "nn.max"(%r, %yz) : (tensor<1x6x10x11xui8>, tensor<ui8>) -> tensor<1x6x10x11xui8>
  %e1 = "nn.clip"(%e0) {min = 0.0 : f64, max = 30.0 : f64} : (tensor<1x6x10x11xui8>) -> tensor<1x6x10x11xui8>
  return %e1 : tensor<1x6x10x11xui8>
}

func.func @conv_u8_lo_above_hi_beyond(%x: tensor<1x4x7x7xf32>) -> tensor<1x3x7x7xui8> {
  %xs = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %xz = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %xq = "nn.quantize_linear"(%x, %xs, %xz) : (tensor<1x4x7x7xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x7x7xui8>
  %w = "nn.constant"() {value = dense<[[[[ -51,  -45,  -86],   [-108,   65,   72],   [ -86,  -28,  107]],  [[  86,   24,  120],   [ -44,   88,  111],   [  23,  -89,  -53]],  [[   3,  -57, -105],   [ -85,  119,  -31],   [  19,  -16,   77]],  [[-103,  -56,   21],   [  77,  -10,   51],   [  77,   36,   81]]], [[[ 115,  -73,  -18],   [ -71,  -22, -128],   [  49,  -68,   85]],  [[  56,  -43,  -12],   [  43,  -22,  -75],   [-117,   13,    8]],  [[  68,  -95, -112],   [  60,   58,   76],   [-125,   39,  117]],  [[  67,   -9,   -7],   [ -24, -114,   56],   [   9,    5,  110]]], [[[  59,  117, -107],   [ 115,   16,  -26],   [  14, -119,  110]],  [[  33, -118,  105],   [ -13,  -98,   33],   [-111,   12,   66]],  [[-110,   74,   23],   [ -46,  -72, -126],   [ -78,  -56,   96]],  [[   3,  -78,   62],   [ -12,   85,   64],   [ 110,   53, -101]]]]> : tensor<3x4x3x3xi8>} : () -> tensor<3x4x3x3xi8>
  %ws = "nn.constant"() {value = dense<[0.01672, 0.01092, 0.01355]> : tensor<3xf32>} : () -> tensor<3xf32>
  %wz = "nn.constant"() {value = dense<0> : tensor<3xi8>} : () -> tensor<3xi8>
  %b = "nn.constant"() {value = dense<[  320, -2772,  1913]> : tensor<3xi32>} : () -> tensor<3xi32>
  %ys = "nn.constant"() {value = dense<0.03> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %r = "nn.qlinear_conv"(%xq, %xs, %xz, %w, %ws, %wz, %ys, %yz, %b) {group = 1 : i64, pads = [1, 1, 1, 1], strides = [1, 1]} : (tensor<1x4x7x7xui8>, tensor<f32>, tensor<ui8>, tensor<3x4x3x3xi8>, tensor<3xf32>, tensor<3xi8>, tensor<f32>, tensor<ui8>, tensor<3xi32>) -> tensor<1x3x7x7xui8>
  %e0 = "nn.clip"(%r) {min = 200.0 : f64, max = 90.0 : f64} : (tensor<1x3x7x7xui8>) -> tensor<1x3x7x7xui8>
  return %e0 : tensor<1x3x7x7xui8>
}

func.func @conv_s8_clip_unfused(%x: tensor<1x4x7x7xf32>) -> tensor<1x3x7x7xi8> {
  %xs = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %xz = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %xq = "nn.quantize_linear"(%x, %xs, %xz) : (tensor<1x4x7x7xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x7x7xui8>
  %w = "nn.constant"() {value = dense<[[[[ -35,   45,   39],   [  36,  -22,  -25],   [-103,   14,  -54]],  [[ -27,  -86,   62],   [ 108,  -31,  -20],   [  -9, -110,   65]],  [[  97,    0, -113],   [ -42,  -88,   83],   [  76,  -31,  -32]],  [[  88, -106,   73],   [ 118,  -14,   65],   [  54,  101, -120]]], [[[  52,  -29,   91],   [  92,  -55,   20],   [  -2,   14,   84]],  [[  42,   65,   45],   [ -64,   21,  -31],   [ -21, -100,  -82]],  [[ -41,  -54,   34],   [ -54,  -65,  -18],   [  17,  127,    2]],  [[ -38,  -46,  -14],   [ 109,  -33,  -65],   [  20,   70,  114]]], [[[ -57,   99,   90],   [ -32,  -43,  -60],   [ -47,   98,  -49]],  [[  -2,  111,   47],   [ -95, -110,  -71],   [  93,  -70,  -48]],  [[  10,   -2, -109],   [ -78,  126,  -21],   [ -57,   83,   -9]],  [[  83,  -88,   -7],   [  79,   68,   45],   [ -11,   82,  -33]]]]> : tensor<3x4x3x3xi8>} : () -> tensor<3x4x3x3xi8>
  %ws = "nn.constant"() {value = dense<[0.01228, 0.00642, 0.00838]> : tensor<3xf32>} : () -> tensor<3xf32>
  %wz = "nn.constant"() {value = dense<0> : tensor<3xi8>} : () -> tensor<3xi8>
  %b = "nn.constant"() {value = dense<[ 101, 1239, 1813]> : tensor<3xi32>} : () -> tensor<3xi32>
  %ys = "nn.constant"() {value = dense<0.03> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %r = "nn.qlinear_conv"(%xq, %xs, %xz, %w, %ws, %wz, %ys, %yz, %b) {group = 1 : i64, pads = [1, 1, 1, 1], strides = [1, 1]} : (tensor<1x4x7x7xui8>, tensor<f32>, tensor<ui8>, tensor<3x4x3x3xi8>, tensor<3xf32>, tensor<3xi8>, tensor<f32>, tensor<i8>, tensor<3xi32>) -> tensor<1x3x7x7xi8>
  %e0 = "nn.clip"(%r) {min = -1000.0 : f64, max = 2.5 : f64} : (tensor<1x3x7x7xi8>) -> tensor<1x3x7x7xi8>
  return %e0 : tensor<1x3x7x7xi8>
}

func.func @matmul_s8_per_column_clip(%x: tensor<2x9x24xf32>) -> tensor<2x9x13xi8> {
  %xs = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %xz = "nn.constant"() {value = dense<3> : tensor<i8>} : () -> tensor<i8>
  %xq = "nn.quantize_linear"(%x, %xs, %xz) : (tensor<2x9x24xf32>, tensor<f32>, tensor<i8>) -> tensor<2x9x24xi8>
  %w = "nn.constant"() {value = dense<[[ -94,  -96,   76,   -1,   23,   25,   54, -121,   -4,  -91,  -26,  109,   12],
 [-110,   10,  -95,   65,  114,  122,   31,   94,  -34,  -91,    2,  -15,   41],
 [ 126,  -58,   91,  -93,  -39,   73,  -65,   43,  -11,    3,  112,   81,   86],
 [  12,  123,  123,  -94,  -76,  -50,   13,   82,   -5,  123,  -38,  109,   23],
 [  56,  -68,   23,   77,   98,   94,  119,  -96,   71,   -9,   47,  -58, -125],
 [-107,  121,  101,  -51,  -18,  -67,  -91,   91,   44, -109,  -77,   16,  102],
 [ 126,  -73,   28, -120,  -84,  -77,  -15,  -40,   58,   -8,  -42,  103,   32],
 [  50,   62,  -42,  100, -124,  -50,  -88, -127,  127, -106,  -11,   81,   48],
 [  91, -115,   -1, -120,  -79,   88, -110,   22, -123,  -49,  110,  -47,  -49],
 [-106,   70,  -84,   -1, -122, -123,   86, -126,   -9,  -19,  -96,   37,   61],
 [ 124,  -78,  108, -113,  -92,   25,   94,  101,   61, -122,  -22,   78,    7],
 [ -80,   46, -105,   50, -124,  -36,  -53,  112,   58,   39,   -2,  -55,   90],
 [ 114,  -73,  -66,  -48,   -6,  -62,  -25,  122,  -34,  112,    0,  -41,  111],
 [ -17,   70,  -48,  127,   63,   96, -118, -101, -111,    8,  -25,  122,  -66],
 [ -85,   88,  -51,   61,  -54,   11, -108,   41,  106,   49,   97,   71,   17],
 [ 109,   -6,  -90,   14,   32,  -83,  -92,   41,  -15,   -5,   73,   47,  101],
 [ -86,   66,   10, -119, -110,  -36,   35,  -87,   11,  127,  -92,  -92,  119],
 [ -66,   95,  -37,   65, -113,   33,   94,  -42,   34,  -73,  -88, -128,   -1],
 [   5, -108,  -70,   28,  -35,  -69, -127, -119,   35,  -99,   88,   14,  -64],
 [  35,  -87,  -45,   -1,   36,  -93,  -38, -105,  -95,  -71,  -48,  104,  -27],
 [-101,  105,   17,  -99, -107, -106,  105,   15,   46,  118,  -26,  104,  -25],
 [  51,   83, -111,   59,   78,  120,   46,   -4,  -92,   68,   -9,   78, -116],
 [ -40,   77,   28,   55,   23,   77,   84,   66,   41,  -60, -109,   74,  -39],
 [ -65, -128,  -93, -119,  -29,  -53,   -1,   18,  -55,    8,   27,   44,   26]]> : tensor<24x13xi8>} : () -> tensor<24x13xi8>
  %ws = "nn.constant"() {value = dense<[0.00708, 0.01358, 0.00907, 0.01549, 0.00794, 0.01658, 0.01006, 0.01241, 0.01445, 0.01181, 0.00738, 0.01965, 0.00463]> : tensor<13xf32>} : () -> tensor<13xf32>
  %wz = "nn.constant"() {value = dense<0> : tensor<13xi8>} : () -> tensor<13xi8>
  %ys = "nn.constant"() {value = dense<0.02> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<-6> : tensor<i8>} : () -> tensor<i8>
  %r = "nn.qlinear_matmul"(%xq, %xs, %xz, %w, %ws, %wz, %ys, %yz) : (tensor<2x9x24xi8>, tensor<f32>, tensor<i8>, tensor<24x13xi8>, tensor<13xf32>, tensor<13xi8>, tensor<f32>, tensor<i8>) -> tensor<2x9x13xi8>
  %c = "nn.clip"(%r) {min = -40.0 : f64, max = 33.0 : f64} : (tensor<2x9x13xi8>) -> tensor<2x9x13xi8>
  return %c : tensor<2x9x13xi8>
}
