"""Writes qconv-implicit.mlir: QLinearConv layers of random shapes for the
VNNI implicit-GEMM convolution (runtime/qconv.c): s8 weights with zero
point 0, u8 activations with random zero points; strides 1-5, pads 0-3
(asymmetric too), dilations 1-3, groups, batch 2, odd channel counts, per
channel and per tensor weight scales, with and without bias, Relu, Clip,
u8 and s8 outputs. Usage: gen_qconv_implicit.py > ../qconv-implicit.mlir"""
import numpy as np

rng = np.random.default_rng(2126)


def dense(a):
    if a.ndim == 0:
        return '%.9g' % a if a.dtype.kind == 'f' else str(int(a))
    return '[' + ', '.join(dense(v) for v in a) + ']'



def case(i, n, c, h, w, m, kh, kw, s, p, d, g, per_channel, bias, act, y_signed):
    cg = c // g
    oh = (h + p[0] + p[2] - d[0] * (kh - 1) - 1) // s[0] + 1
    ow = (w + p[1] + p[3] - d[1] * (kw - 1) - 1) // s[1] + 1
    assert oh >= 1 and ow >= 1, (i, oh, ow)
    wt = rng.integers(-128, 128, size=(m, cg, kh, kw), dtype=np.int64)
    wt.flat[0], wt.flat[-1] = -128, 127
    zx = int(rng.integers(0, 256))
    ws = rng.uniform(0.002, 0.02, size=m).astype(np.float32) if per_channel else None
    yt = 'i8' if y_signed else 'ui8'
    zy = int(rng.integers(-100, 100)) if y_signed else int(rng.integers(0, 256))
    xt = 'tensor<%dx%dx%dx%dxf32>' % (n, c, h, w)
    qt = 'tensor<%dx%dx%dx%dxui8>' % (n, c, h, w)
    rt = 'tensor<%dx%dx%dx%dx%s>' % (n, m, oh, ow, yt)
    wty = 'tensor<%dx%dx%dx%dxi8>' % (m, cg, kh, kw)
    st = 'tensor<%dxf32>' % m if per_channel else 'tensor<f32>'
    name = 'c%d_n%d_c%d_%dx%d_m%d_k%dx%d_s%d%d_p%d%d%d%d_d%d%d_g%d' % (i, n, c, h, w, m, kh, kw, *s, *p, *d, g)
    out = ['func.func @%s(%%x: %s) -> %s {' % (name, xt, rt),
           '  %a_s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>',
           '  %%a_z = "nn.constant"() {value = dense<%d> : tensor<ui8>} : () -> tensor<ui8>' % zx,
           '  %%a = "nn.quantize_linear"(%%x, %%a_s, %%a_z) : (%s, tensor<f32>, tensor<ui8>) -> %s' % (xt, qt),
           '  %%b = "nn.constant"() {value = dense<%s> : %s} : () -> %s' % (dense(wt), wty, wty),
           '  %wz = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>',
           '  %%ws = "nn.constant"() {value = dense<%s> : %s} : () -> %s' % (
               dense(ws) if per_channel else '0.007', st, st),
           '  %ys = "nn.constant"() {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>',
           '  %%yz = "nn.constant"() {value = dense<%d> : tensor<%s>} : () -> tensor<%s>' % (zy, yt, yt)]
    operands, types = '%a, %a_s, %a_z, %b, %ws, %wz, %ys, %yz', '%s, tensor<f32>, tensor<ui8>, %s, %s, tensor<i8>, tensor<f32>, tensor<%s>' % (qt, wty, st, yt)
    if bias:
        bv = rng.integers(-3000, 3000, size=m)
        out.append('  %%bias = "nn.constant"() {value = dense<%s> : tensor<%dxi32>} : () -> tensor<%dxi32>' % (dense(bv), m, m))
        operands += ', %bias'
        types += ', tensor<%dxi32>' % m
    out.append('  %%r = "nn.qlinear_conv"(%s) {group = %d : i64, pads = [%d, %d, %d, %d], strides = [%d, %d], '
               'dilations = [%d, %d]} : (%s) -> %s' % (operands, g, *p, *s, *d, types, rt))
    res = '%r'
    if act == 'relu':
        out.append('  %%e = "nn.max"(%%r, %%yz) : (%s, tensor<%s>) -> %s' % (rt, yt, rt))
        res = '%e'
    elif act == 'clip':
        lo, hi = (-40, 60) if y_signed else (30, 200)
        out.append('  %%e = "nn.clip"(%%r) {min = %.1f : f64, max = %.1f : f64} : (%s) -> %s' % (lo, hi, rt, rt))
        res = '%e'
    out += ['  return %s : %s' % (res, rt), '}', '']
    return '\n'.join(out)


# (n, c, h, w, m, kh, kw, strides, pads [t, l, b, r], dilations, group)
shapes = [
    (1, 8, 9, 9, 16, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), 1),      # full tiles, a ResNet block's shape
    (1, 3, 17, 15, 13, 7, 7, (2, 2), (3, 3, 3, 3), (1, 1), 1),    # a stem: C 3 (one quad, 3 live), stride 2
    (2, 13, 7, 11, 21, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), 1),    # batch 2, odd channels, row edges
    (1, 9, 12, 12, 10, 1, 1, (2, 2), (0, 0, 0, 0), (1, 1), 1),    # 1x1 stride 2: one phase of four
    (1, 6, 13, 10, 8, 3, 3, (2, 1), (0, 2, 1, 0), (1, 1), 1),     # mixed strides, asymmetric pads
    (1, 5, 14, 14, 7, 3, 3, (1, 1), (2, 2, 2, 2), (2, 2), 1),     # dilation 2
    (1, 7, 16, 13, 9, 3, 2, (2, 3), (1, 0, 2, 1), (3, 2), 1),     # dilation 3 with stride 2: phases mix
    (1, 12, 8, 8, 18, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), 3),     # groups of 4 channels
    (2, 10, 6, 9, 6, 2, 3, (1, 2), (0, 1, 0, 1), (1, 1), 2),      # groups of 5, batch 2
    (1, 4, 11, 23, 5, 5, 5, (5, 4), (3, 0, 2, 1), (1, 1), 1),     # strides 5 and 4
    (1, 37, 10, 10, 21, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), 1),   # long K, several panels and row tiles
    (1, 2, 1, 1, 3, 1, 1, (1, 1), (0, 0, 0, 0), (1, 1), 1),       # one pixel
    (1, 5, 3, 40, 11, 1, 3, (1, 1), (0, 1, 0, 1), (1, 1), 1),     # wide rows: a tile within one row
    (1, 16, 7, 7, 24, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), 1),     # 7x7: tiles across rows
    (1, 11, 2, 3, 9, 3, 3, (1, 1), (2, 2, 2, 2), (1, 1), 1),      # padding larger than the image's half
]
print('// QLinearConv of random shapes on the VNNI implicit-GEMM convolution\n'
      '// (runtime/qconv.c: s8 weights with zero point 0, u8 activations) against\n'
      '// the interpreter, bit for bit, on every ISA (the other ISAs run the\n'
      '// im2col GEMM; so do the 1x1 layers, c3 and c11). Written by\n'
      '// Inputs/gen_qconv_implicit.py (seed 2126).\n'
      '// RUN: %python %S/../compare_all.py %s --rtol 0 --atol 0 | FileCheck %s\n'
      '// RUN: %python %S/../compare_all.py %s --rtol 0 --atol 0 --threads 2 | FileCheck %s\n'
      '// RUN: env STRATA_RT_ISA=avx2 %python %S/../compare_all.py %s --rtol 0 --atol 0 | FileCheck %s\n'
      '// CHECK-NOT: FAIL\n'
      '// CHECK: ' + str(len(shapes)) + ' functions, 0 failed\n')
opts = [(True, True, None, False), (False, False, 'relu', False), (True, True, 'clip', True), (True, False, None, True),
        (False, True, 'relu', True)]
for i, sh in enumerate(shapes):
    pc, bias, act, ys = opts[i % len(opts)]
    print(case(i, *sh, pc, bias, act, ys))
