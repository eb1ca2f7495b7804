# Conv, ConvTranspose, Gemm, MatMul against torch (see ../torch_oracle.py).
import torch.nn.functional as F

f32 = np.float32
T = lambda *s: 'tensor<%sxf32>' % 'x'.join(map(str, s))


def conv(name, x, w, b, attrs, out, fn):
    ops = '%arg0, %arg1' + (', %arg2' if b else '')
    types = ', '.join(T(*s) for s in ([x, w] + ([b] if b else [])))
    inputs = [(x, f32), (w, f32)] + ([(b, f32)] if b else [])
    body = ['%%r = "nn.%s"(%s) {%s} : (%s) -> %s' % (name.split(':')[0], ops, attrs, types, T(*out))]
    return Case(name.replace(':', '_'), inputs, body, T(*out), fn)


def same_pad(x, k, s, d, lower=False):
    """torch-side SAME padding as ONNX defines it, for one spatial dim."""
    out = -(-x // s)
    total = max(0, (out - 1) * s + (k - 1) * d + 1 - x)
    small, big = total // 2, total - total // 2
    return (big, small) if lower else (small, big)


CASES = [
    conv('conv:2d_asym_pads', [1, 3, 9, 8], [4, 3, 3, 3], [4], 'pads = array<i64: 1, 0, 2, 1>, strides = array<i64: 2, 1>',
         [1, 4, 5, 7], lambda x, w, b: F.conv2d(F.pad(x, (0, 1, 1, 2)), w, b, stride=(2, 1))),
    conv('conv:2d_groups_dil', [2, 4, 10, 10], [6, 2, 3, 3], None, 'group = 2 : i64, dilations = array<i64: 2, 3>',
         [2, 6, 6, 4], lambda x, w: F.conv2d(x, w, groups=2, dilation=(2, 3))),
    conv('conv:depthwise', [1, 8, 7, 7], [8, 1, 3, 3], [8], 'group = 8 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>',
         [1, 8, 4, 4], lambda x, w, b: F.conv2d(x, w, b, stride=2, padding=1, groups=8)),
    conv('conv:same_upper', [1, 2, 7, 6], [3, 2, 3, 2], None, 'auto_pad = "SAME_UPPER", strides = array<i64: 2, 2>',
         [1, 3, 4, 3], lambda x, w: F.conv2d(F.pad(x, same_pad(6, 2, 2, 1) + same_pad(7, 3, 2, 1)), w, stride=2)),
    conv('conv:same_lower', [1, 2, 6, 6], [3, 2, 4, 4], None, 'auto_pad = "SAME_LOWER"',
         [1, 3, 6, 6], lambda x, w: F.conv2d(F.pad(x, same_pad(6, 4, 1, 1, True) * 2), w)),
    conv('conv:1d', [2, 3, 11], [4, 3, 3], [4], 'strides = array<i64: 2>, pads = array<i64: 1, 1>',
         [2, 4, 6], lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=1)),
    conv('conv:3d', [1, 2, 5, 6, 4], [3, 2, 3, 3, 2], [3], 'pads = array<i64: 1, 1, 0, 1, 1, 0>',
         [1, 3, 5, 6, 3], lambda x, w, b: F.conv3d(x, w, b, padding=(1, 1, 0))),
    conv('conv_transpose:basic', [1, 2, 4, 4], [2, 3, 3, 3], [3], '',
         [1, 3, 6, 6], lambda x, w, b: F.conv_transpose2d(x, w, b)),
    conv('conv_transpose:stride_pad_outpad', [2, 4, 3, 3], [4, 2, 3, 3], None,
         'strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, output_padding = array<i64: 1, 1>',
         [2, 2, 6, 6], lambda x, w: F.conv_transpose2d(x, w, stride=2, padding=1, output_padding=1)),
    conv('conv_transpose:groups_dil', [1, 4, 3, 3], [4, 3, 2, 2], None, 'group = 2 : i64, dilations = array<i64: 2, 2>',
         [1, 6, 5, 5], lambda x, w: F.conv_transpose2d(x, w, groups=2, dilation=2)),
    conv('conv_transpose:1d', [1, 2, 5], [2, 3, 4], None, 'strides = array<i64: 3>, pads = array<i64: 1, 1>',
         [1, 3, 14], lambda x, w: F.conv_transpose1d(x, w, stride=3, padding=1)),
    conv('conv_transpose:3d', [1, 2, 3, 3, 2], [2, 2, 2, 2, 2], None, 'strides = array<i64: 2, 1, 2>',
         [1, 2, 6, 4, 4], lambda x, w: F.conv_transpose3d(x, w, stride=(2, 1, 2))),
    Case('gemm_all_attrs', [([4, 3], f32), ([5, 4], f32), ([5], f32)],
         ['%r = "nn.gemm"(%arg0, %arg1, %arg2) {transA = 1 : i64, transB = 1 : i64, alpha = 0.5 : f32, beta = 2.0 : f32} : (tensor<4x3xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<3x5xf32>'],
         'tensor<3x5xf32>', lambda a, b, c: 0.5 * a.T @ b.T + 2.0 * c),
    Case('matmul_bcast', [([2, 1, 3, 4], f32), ([5, 4, 6], f32)],
         ['%r = "nn.matmul"(%arg0, %arg1) : (tensor<2x1x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x5x3x6xf32>'],
         'tensor<2x5x3x6xf32>', torch.matmul),
    Case('matmul_vec', [([4], f32), ([3, 4, 5], f32)],
         ['%r = "nn.matmul"(%arg0, %arg1) : (tensor<4xf32>, tensor<3x4x5xf32>) -> tensor<3x5xf32>'],
         'tensor<3x5xf32>', torch.matmul),
]
