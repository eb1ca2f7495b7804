// The VNNI path's fast requantization (runtime/qrequant.c: corrections as
// one row and one column term, the f64 product clamped before its
// round-half-even conversion) and the AVX-512 depthwise rows (taps in
// pairs through vpdpwssd, zx-filled masked loads, requantized in
// registers) against the interpreter, bit for bit, on every ISA: depthwise
// rows wide enough for interior 16-column steps beside edges and tails
// (W 40-75, strides 1 and 2, dilation, asymmetric pads, a channel
// multiplier, odd channel and tap counts), per-channel weight zero points
// far from 0 (w - zw up to +-255), zx 0 / 128 / 255 / -128, saturating
// output scales, an infinite m (y_scale 0, w_scale 0x7F800000: the general path
// keeps NaN -> 0 and the saturation), pointwise and 3x3 GEMM convolutions
// with one nonzero weight zero point (row and column correction terms) and
// with per-channel ones (the general path), Relu. Weights random (numpy,
// seed 2121), first and last values the type's extremes.
// RUN: %python %S/../compare_all.py %s --rtol 0 --atol 0 | FileCheck %s
// RUN: %python %S/../compare_all.py %s --rtol 0 --atol 0 --threads 2 | FileCheck %s
// RUN: env STRATA_RT_ISA=avx2 %python %S/../compare_all.py %s --rtol 0 --atol 0 | FileCheck %s
// RUN: env STRATA_RT_ISA=generic %python %S/../compare_all.py %s --rtol 0 --atol 0 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

func.func @dw_wide_u8s8_3x3_s1(%x: tensor<1x5x6x70xf32>) -> tensor<1x5x6x70xui8> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<1x5x6x70xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x5x6x70xui8>
  %b = "nn.constant"() {value = dense<[[[[-128, -126,  -94],   [ -96,  -66,   77],   [-111,   84,   28]]], [[[  13,   73,   24],   [ -49,   27,   23],   [ 100,    7,   73]]], [[[ -69,   99,  -89],   [ 117,   34,   76],   [  54,   -8,  -33]]], [[[  68,  -17,  -86],   [ -38,   60,  -62],   [  18, -125,   42]]], [[[  42,   30,   79],   [   6,    7,   53],   [ -44,   73,  127]]]]> : tensor<5x1x3x3xi8>} : () -> tensor<5x1x3x3xi8>
  %wz = "nn.constant"() {value = dense<[-65,  -6,   9, -76, -78]> : tensor<5xi8>} : () -> tensor<5xi8>
  %ws = "nn.constant"() {value = dense<[0.0022446035873144865, 0.005262182559818029, 0.009249229915440083, 0.013285025954246521, 0.017018191516399384]> : tensor<5xf32>} : () -> tensor<5xf32>
  %ys = "nn.constant"() {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<17> : tensor<ui8>} : () -> tensor<ui8>
  %bias = "nn.constant"() {value = dense<[ -863,   161,   928, -2763,  -680]> : tensor<5xi32>} : () -> tensor<5xi32>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz, %bias) {group = 5 : i64, pads = [1, 1, 1, 1], strides = [1, 1], dilations = [1, 1]} : (tensor<1x5x6x70xui8>, tensor<f32>, tensor<ui8>, tensor<5x1x3x3xi8>, tensor<5xf32>, tensor<5xi8>, tensor<f32>, tensor<ui8>, tensor<5xi32>) -> tensor<1x5x6x70xui8>
  %m = "nn.max"(%r, %yz) : (tensor<1x5x6x70xui8>, tensor<ui8>) -> tensor<1x5x6x70xui8>
  return %m : tensor<1x5x6x70xui8>
}

func.func @dw_wide_s8s8_5x5_s2_dil2_mult2(%x: tensor<1x3x9x75xf32>) -> tensor<1x6x3x37xi8> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<-128> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<1x3x9x75xf32>, tensor<f32>, tensor<i8>) -> tensor<1x3x9x75xi8>
  %b = "nn.constant"() {value = dense<[[[[-128,  105,   63,  118,   31],   [ 103,   89,  -11,   96,   -7],   [ -63,  -77,  -71, -119,  111],   [  99,   96,  -45,  -99,  -36],   [   2,  -88,  -93,  -66,  -10]]], [[[  57,   79,  -40,  -53, -120],   [ -97,  -60,  114, -100,   82],   [   8,  -53,  113, -107,  -39],   [   0,  -54,   29,   84,  125],   [-122,    0,   72,   60, -115]]], [[[ -73,   12,  -82,   -9, -121],   [  36,   52, -111,  107,  -50],   [ -68,   84,   -1, -118,   63],   [   3,  112,   64,   31,   69],   [  76,  -10,  100,   33,   98]]], [[[ -57,  -92,  -28, -121,  -90],   [ -45,  -80,  103,  -97,  -25],   [ 107,  103,  -43,  -95,  -22],   [  32,   51,   61,  101,  -82],   [-119,   17,   88,   77, -118]]], [[[ -50,  -84,   34,   -1,  -46],   [ -70, -118,  116,  -36,  121],   [ -67,   -4,  -33,  -98,   77],   [ -93,  -71,  -26,  -33,    2],   [ 119,    2,  -26,   74,   -4]]], [[[   8,  100,   36,   48,  -51],   [ -26,   34,   74, -125,   60],   [ -81,   47,  125, -110,  -81],   [  68,  -26,  -15,  -36,    7],   [  46,   76,   16,  -15,  127]]]]> : tensor<6x1x5x5xi8>} : () -> tensor<6x1x5x5xi8>
  %wz = "nn.constant"() {value = dense<[ 47,  -3,  75, -39,  38,  58]> : tensor<6xi8>} : () -> tensor<6xi8>
  %ws = "nn.constant"() {value = dense<[0.004896954633295536, 0.004707694053649902, 0.01720583811402321, 0.018002120777964592, 0.015886666253209114, 0.002487964229658246]> : tensor<6xf32>} : () -> tensor<6xf32>
  %ys = "nn.constant"() {value = dense<0.004> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<-5> : tensor<i8>} : () -> tensor<i8>
  %bias = "nn.constant"() {value = dense<[  376, -2419,  1150,   283,   307,  2232]> : tensor<6xi32>} : () -> tensor<6xi32>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz, %bias) {group = 3 : i64, pads = [3, 2, 1, 4], strides = [2, 2], dilations = [2, 2]} : (tensor<1x3x9x75xi8>, tensor<f32>, tensor<i8>, tensor<6x1x5x5xi8>, tensor<6xf32>, tensor<6xi8>, tensor<f32>, tensor<i8>, tensor<6xi32>) -> tensor<1x6x3x37xi8>
  return %r : tensor<1x6x3x37xi8>
}

func.func @dw_wide_u8u8_3x1_zx255_saturate(%x: tensor<1x3x5x47xf32>) -> tensor<1x3x5x47xui8> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<255> : tensor<ui8>} : () -> tensor<ui8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<1x3x5x47xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x3x5x47xui8>
  %b = "nn.constant"() {value = dense<[[[[  0],   [ 40],   [ 41]]], [[[181],   [123],   [ 41]]], [[[213],   [185],   [255]]]]> : tensor<3x1x3x1xui8>} : () -> tensor<3x1x3x1xui8>
  %wz = "nn.constant"() {value = dense<[255,   0, 131]> : tensor<3xui8>} : () -> tensor<3xui8>
  %ws = "nn.constant"() {value = dense<[0.004906981717795134, 0.013813650235533714, 0.007618403993546963]> : tensor<3xf32>} : () -> tensor<3xf32>
  %ys = "nn.constant"() {value = dense<0.0005> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<3> : tensor<ui8>} : () -> tensor<ui8>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz) {group = 3 : i64, pads = [1, 0, 1, 0], strides = [1, 1], dilations = [1, 1]} : (tensor<1x3x5x47xui8>, tensor<f32>, tensor<ui8>, tensor<3x1x3x1xui8>, tensor<3xf32>, tensor<3xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x5x47xui8>
  return %r : tensor<1x3x5x47xui8>
}

func.func @dw_wide_s8u8_1x7_s2_odd_taps(%x: tensor<2x7x4x64xf32>) -> tensor<2x7x4x32xui8> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<5> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<2x7x4x64xf32>, tensor<f32>, tensor<i8>) -> tensor<2x7x4x64xi8>
  %b = "nn.constant"() {value = dense<[[[[  0, 135, 245,  57,  13,  51,  68]]], [[[250, 241, 130, 210, 170, 144, 126]]], [[[ 96, 165, 202, 210,  65, 181, 120]]], [[[ 65, 246, 210,  14,  88, 153, 201]]], [[[174, 158, 181, 113,  30,  71,   7]]], [[[ 85,  46, 236, 225, 229, 243,  60]]], [[[236, 167,  24, 110,  89,  84, 255]]]]> : tensor<7x1x1x7xui8>} : () -> tensor<7x1x1x7xui8>
  %wz = "nn.constant"() {value = dense<77> : tensor<ui8>} : () -> tensor<ui8>
  %ws = "nn.constant"() {value = dense<[0.01237895805388689, 0.00616142014041543, 0.01826273836195469, 0.003949405625462532, 0.01246904581785202, 0.013760829344391823, 0.006379320751875639]> : tensor<7xf32>} : () -> tensor<7xf32>
  %ys = "nn.constant"() {value = dense<0.02> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<200> : tensor<ui8>} : () -> tensor<ui8>
  %bias = "nn.constant"() {value = dense<[ 1089, -1771,  2314,   163,    96, -1223,  1707]> : tensor<7xi32>} : () -> tensor<7xi32>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz, %bias) {group = 7 : i64, pads = [0, 3, 0, 3], strides = [1, 2], dilations = [1, 1]} : (tensor<2x7x4x64xi8>, tensor<f32>, tensor<i8>, tensor<7x1x1x7xui8>, tensor<7xf32>, tensor<ui8>, tensor<f32>, tensor<ui8>, tensor<7xi32>) -> tensor<2x7x4x32xui8>
  return %r : tensor<2x7x4x32xui8>
}

func.func @dw_wide_inf_m(%x: tensor<1x3x4x40xf32>) -> tensor<1x3x4x40xui8> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<100> : tensor<ui8>} : () -> tensor<ui8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<1x3x4x40xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4x40xui8>
  %b = "nn.constant"() {value = dense<[[[[-128, -125,   33],   [  37,  -11,  -35],   [  87, -115,  -24]]], [[[  68,   14, -110],   [  45, -110, -120],   [ -51,  -37,   31]]], [[[ -68,   37, -108],   [  75,   96,   68],   [-127,   -3,  127]]]]> : tensor<3x1x3x3xi8>} : () -> tensor<3x1x3x3xi8>
  %wz = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %ws = "nn.constant"() {value = dense<[0.010209472849965096, 0.00562366284430027, 0.004437498282641172]> : tensor<3xf32>} : () -> tensor<3xf32>
  %ys = "nn.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<9> : tensor<ui8>} : () -> tensor<ui8>
  %bias = "nn.constant"() {value = dense<[-543, 2887,   52]> : tensor<3xi32>} : () -> tensor<3xi32>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz, %bias) {group = 3 : i64, pads = [1, 1, 1, 1], strides = [1, 1], dilations = [1, 1]} : (tensor<1x3x4x40xui8>, tensor<f32>, tensor<ui8>, tensor<3x1x3x3xi8>, tensor<3xf32>, tensor<i8>, tensor<f32>, tensor<ui8>, tensor<3xi32>) -> tensor<1x3x4x40xui8>
  return %r : tensor<1x3x4x40xui8>
}

func.func @pw_u8u8_uniform_wz(%x: tensor<1x13x9x11xf32>) -> tensor<1x7x9x11xui8> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<37> : tensor<ui8>} : () -> tensor<ui8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<1x13x9x11xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x13x9x11xui8>
  %b = "nn.constant"() {value = dense<[[[[  0]],  [[159]],  [[114]],  [[ 37]],  [[ 60]],  [[104]],  [[213]],  [[ 82]],  [[240]],  [[248]],  [[175]],  [[118]],  [[ 25]]], [[[133]],  [[ 80]],  [[ 52]],  [[207]],  [[115]],  [[  6]],  [[ 66]],  [[145]],  [[248]],  [[ 66]],  [[163]],  [[114]],  [[138]]], [[[234]],  [[147]],  [[200]],  [[124]],  [[ 37]],  [[ 50]],  [[182]],  [[119]],  [[220]],  [[105]],  [[233]],  [[ 49]],  [[209]]], [[[  0]],  [[ 20]],  [[ 77]],  [[185]],  [[130]],  [[175]],  [[203]],  [[ 98]],  [[ 72]],  [[251]],  [[ 93]],  [[ 47]],  [[ 58]]], [[[162]],  [[121]],  [[117]],  [[160]],  [[209]],  [[ 33]],  [[169]],  [[ 97]],  [[158]],  [[100]],  [[ 94]],  [[ 98]],  [[249]]], [[[134]],  [[194]],  [[ 87]],  [[ 40]],  [[148]],  [[ 77]],  [[ 13]],  [[206]],  [[246]],  [[194]],  [[219]],  [[ 64]],  [[138]]], [[[111]],  [[ 11]],  [[ 19]],  [[ 31]],  [[141]],  [[165]],  [[ 29]],  [[239]],  [[207]],  [[142]],  [[254]],  [[223]],  [[255]]]]> : tensor<7x13x1x1xui8>} : () -> tensor<7x13x1x1xui8>
  %wz = "nn.constant"() {value = dense<200> : tensor<ui8>} : () -> tensor<ui8>
  %ws = "nn.constant"() {value = dense<[0.017029592767357826, 0.0031804111786186695, 0.01967489719390869, 0.007618175353854895, 0.010598697699606419, 0.005258076824247837, 0.010269681923091412]> : tensor<7xf32>} : () -> tensor<7xf32>
  %ys = "nn.constant"() {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<11> : tensor<ui8>} : () -> tensor<ui8>
  %bias = "nn.constant"() {value = dense<[ -309, -2620, -1272,  1625,  -779,   -20,  2925]> : tensor<7xi32>} : () -> tensor<7xi32>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz, %bias) {group = 1 : i64, pads = [0, 0, 0, 0], strides = [1, 1], dilations = [1, 1]} : (tensor<1x13x9x11xui8>, tensor<f32>, tensor<ui8>, tensor<7x13x1x1xui8>, tensor<7xf32>, tensor<ui8>, tensor<f32>, tensor<ui8>, tensor<7xi32>) -> tensor<1x7x9x11xui8>
  %m = "nn.max"(%r, %yz) : (tensor<1x7x9x11xui8>, tensor<ui8>) -> tensor<1x7x9x11xui8>
  return %m : tensor<1x7x9x11xui8>
}

func.func @cv_s8s8_3x3_uniform_wz_s2(%x: tensor<1x6x13x35xf32>) -> tensor<1x9x7x18xi8> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<-20> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<1x6x13x35xf32>, tensor<f32>, tensor<i8>) -> tensor<1x6x13x35xi8>
  %b = "nn.constant"() {value = dense<[[[[-128,   -6,  124],   [ -34,  -25,  -42],   [ -19,   44,    6]],  [[  29,  -67,  -56],   [ -99,  119,  -67],   [ -53,   22,  -68]],  [[-110,   93,   52],   [ -33,  -83,   50],   [ -71,   90,   56]],  [[  63, -126,  -78],   [ -19,  -80, -113],   [  26,   26,  -87]],  [[  72,  -78,   -7],   [  82,   84,   41],   [  -8,   53,  105]],  [[ 112,  -93,    7],   [  -3,  -64,   85],   [ -83, -106,   33]]], [[[ -94,   40,  -74],   [  20,  -35,  -98],   [ -81,  -22,  -46]],  [[ -52,  -42,  -44],   [   6,   67,    6],   [ -86,   11,   14]],  [[  17,  -15,  -23],   [-106,   25,   20],   [  -4,  -71,  -90]],  [[  19, -112,   81],   [ -80,   13,  -27],   [  13,   35,  -39]],  [[ -40,    8,   94],   [  40,  -60,  -52],   [  -5, -116,  -86]],  [[ -90,   68,  -23],   [ -26,  -98, -109],   [-108,   70,   78]]], [[[  34, -117,   53],   [  69,  -64, -106],   [-116,   67,  -23]],  [[  88,  -93,   55],   [ -97,   21,   48],   [ -26, -109,  118]],  [[ -65,  123,  -62],   [  95,   55,    7],   [  80,  -93,   58]],  [[ -89, -114,  -10],   [  72,   56,   68],   [ 104,  107,  -86]],  [[ -15,  -50,   62],   [ -72,  -89,  102],   [ -80,    7,   52]],  [[ -58,  -29,   53],   [  53,  -25,  -78],   [ -21,  -33,   27]]], [[[-121,  -30,   30],   [  42,    6,   95],   [  52,  -89,   25]],  [[  42,   82,   24],   [ -62,  -71,  -88],   [ -59,    4,   87]],  [[ -69,  -31,  -91],   [  45,  -80,  104],   [-106,   29,   -2]],  [[  86,    1, -107],   [ -11,   57,  -13],   [  50,   75,   84]],  [[  92,   45,  -56],   [ 120,   94, -115],   [ -53,   26,   97]],  [[  20,   -6,  -99],   [   6, -106, -126],   [  -3,  -11,  122]]], [[[-122,  112, -120],   [ -95, -116,  126],   [ -24, -111,   89]],  [[  89,   23,   37],   [ -58,   35,   32],   [-124,  -58,  104]],  [[  55,  -30,   22],   [ -89,  -80, -128],   [ -51,  -34,  110]],  [[  36,   34, -127],   [  32,  123,  -17],   [ -99,   33,   -4]],  [[ 103,   96,   77],   [ -67,   34,   52],   [-112,   47,  -46]],  [[   9,  -72,   52],   [ -44,  -55, -123],   [-105,  -13,   63]]], [[[  49,   87,   46],   [  66,   49,  103],   [  18,   32,   76]],  [[ -62,  -93,  -34],   [  -3,  -56,    7],   [ -14,  127,  -20]],  [[-121,  -40,  -75],   [-128,   87,   98],   [ -95,  -37,    4]],  [[ -60,  -27,  -12],   [ 120, -123,   78],   [  69,   47,   98]],  [[  95,   76, -114],   [  47,   89,  -42],   [  17,  -85,  121]],  [[-127, -122,   88],   [ -88,   35,   45],   [ -38,  -29,  104]]], [[[   8,  107,  -44],   [  77,  -33,  -56],   [ -81,  -78,  -69]],  [[-122,  -51,  -87],   [ -56,  -68, -104],   [  84,   45,  -65]],  [[-118,   50,   57],   [  28,   17,   91],   [  46, -107,  112]],  [[  26,  -77,  -42],   [ -35,  101, -118],   [  -8,   12,   68]],  [[ -64,  -86,  -40],   [   6,   86, -124],   [-125,   -1,  -17]],  [[ 111,   -6,   17],   [  93,  126,   68],   [  56, -110,  -87]]], [[[  77,  -26, -123],   [  30,  -62,  124],   [   0,   17, -120]],  [[  98,   85,  -93],   [  23,   89,   54],   [  88,  126,   72]],  [[  32, -104,  -20],   [  17,  -21,    1],   [  74,  105, -116]],  [[   9,  -54,   51],   [ 103,   -7,  -31],   [ -36,   28,   57]],  [[ -51,    7,  -65],   [ -60,  117, -122],   [  45,  -99,   34]],  [[  34,   76,  126],   [  86,  119,   81],   [ 100,  -83,   33]]], [[[  19,   15,  -75],   [  99, -119, -120],   [  41,   23,   82]],  [[  -5,   80,  -24],   [ -45,   16,  -63],   [ -74, -102,  -20]],  [[ 108,   24,   44],   [ -30, -126,  115],   [ -98, -102,  -18]],  [[  34,  -36, -105],   [ -82,   75,  -28],   [  82,   73,  -18]],  [[  34,  -70,   -8],   [ 120,  -14,   -9],   [ -84,  -79,  -76]],  [[  95,  -44,  -29],   [-104,  106,  -71],   [  53, -110,  127]]]]> : tensor<9x6x3x3xi8>} : () -> tensor<9x6x3x3xi8>
  %wz = "nn.constant"() {value = dense<-77> : tensor<i8>} : () -> tensor<i8>
  %ws = "nn.constant"() {value = dense<[0.017726128920912743, 0.019053354859352112, 0.01076456718146801, 0.016881072893738747, 0.019029276445508003, 0.01991191692650318, 0.011342010460793972, 0.013101396150887012, 0.016431642696261406]> : tensor<9xf32>} : () -> tensor<9xf32>
  %ys = "nn.constant"() {value = dense<0.03> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<4> : tensor<i8>} : () -> tensor<i8>
  %bias = "nn.constant"() {value = dense<[-2809,  -730, -1584,   329,  2968,  2231,  1290,  -743,   746]> : tensor<9xi32>} : () -> tensor<9xi32>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz, %bias) {group = 1 : i64, pads = [1, 1, 1, 1], strides = [2, 2], dilations = [1, 1]} : (tensor<1x6x13x35xi8>, tensor<f32>, tensor<i8>, tensor<9x6x3x3xi8>, tensor<9xf32>, tensor<i8>, tensor<f32>, tensor<i8>, tensor<9xi32>) -> tensor<1x9x7x18xi8>
  return %r : tensor<1x9x7x18xi8>
}

func.func @pw_u8s8_perchannel_wz(%x: tensor<1x10x5x7xf32>) -> tensor<1x5x5x7xui8> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<1x10x5x7xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x10x5x7xui8>
  %b = "nn.constant"() {value = dense<[[[[-128]],  [[ -19]],  [[ 122]],  [[   9]],  [[  11]],  [[-103]],  [[  -1]],  [[ -37]],  [[   5]],  [[ 107]]], [[[-116]],  [[  43]],  [[-117]],  [[  -5]],  [[ -51]],  [[  30]],  [[ -50]],  [[  -7]],  [[ -18]],  [[-103]]], [[[ 125]],  [[  26]],  [[  -2]],  [[  63]],  [[ -97]],  [[-124]],  [[  46]],  [[ -62]],  [[  44]],  [[ -77]]], [[[ -24]],  [[ -32]],  [[ -12]],  [[  28]],  [[  42]],  [[  -1]],  [[ -14]],  [[ -44]],  [[-120]],  [[-104]]], [[[  95]],  [[  98]],  [[ 112]],  [[ -29]],  [[  14]],  [[  32]],  [[ -38]],  [[-109]],  [[ -41]],  [[ 127]]]]> : tensor<5x10x1x1xi8>} : () -> tensor<5x10x1x1xi8>
  %wz = "nn.constant"() {value = dense<[-119,  -84,   82,   40,    9]> : tensor<5xi8>} : () -> tensor<5xi8>
  %ws = "nn.constant"() {value = dense<[0.0035858305636793375, 0.01360503863543272, 0.004305015783756971, 0.011606111191213131, 0.0038697279524058104]> : tensor<5xf32>} : () -> tensor<5xf32>
  %ys = "nn.constant"() {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %bias = "nn.constant"() {value = dense<[ 2493,  2584, -2887, -2158, -2956]> : tensor<5xi32>} : () -> tensor<5xi32>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz, %bias) {group = 1 : i64, pads = [0, 0, 0, 0], strides = [1, 1], dilations = [1, 1]} : (tensor<1x10x5x7xui8>, tensor<f32>, tensor<ui8>, tensor<5x10x1x1xi8>, tensor<5xf32>, tensor<5xi8>, tensor<f32>, tensor<ui8>, tensor<5xi32>) -> tensor<1x5x5x7xui8>
  return %r : tensor<1x5x5x7xui8>
}

func.func @pw_inf_m(%x: tensor<1x4x3x5xf32>) -> tensor<1x3x3x5xui8> {
  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %a_z = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %a = "nn.quantize_linear"(%x, %a_s, %a_z) : (tensor<1x4x3x5xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x3x5xui8>
  %b = "nn.constant"() {value = dense<[[[[-128]],  [[-102]],  [[  20]],  [[ -11]]], [[[-100]],  [[ -27]],  [[ -59]],  [[   5]]], [[[ 113]],  [[ 116]],  [[   3]],  [[ 127]]]]> : tensor<3x4x1x1xi8>} : () -> tensor<3x4x1x1xi8>
  %wz = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %ws = "nn.constant"() {value = dense<[0.009999999776482582, 0x7F800000, 0.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %ys = "nn.constant"() {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %bias = "nn.constant"() {value = dense<[ 5, -5,  0]> : tensor<3xi32>} : () -> tensor<3xi32>
  %r = "nn.qlinear_conv"(%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz, %bias) {group = 1 : i64, pads = [0, 0, 0, 0], strides = [1, 1], dilations = [1, 1]} : (tensor<1x4x3x5xui8>, tensor<f32>, tensor<ui8>, tensor<3x4x1x1xi8>, tensor<3xf32>, tensor<i8>, tensor<f32>, tensor<ui8>, tensor<3xi32>) -> tensor<1x3x3x5xui8>
  return %r : tensor<1x3x3x5xui8>
}
