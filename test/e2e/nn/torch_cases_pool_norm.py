# Pooling and normalization against torch.
import torch.nn.functional as F

f32 = np.float32
X = [2, 3, 7, 6]
TX = 'tensor<2x3x7x6xf32>'


def pool(name, op, attrs, out, fn):
    return Case(name, [(X, f32)], ['%%r = "nn.%s"(%%arg0) {%s} : (%s) -> %s' % (op, attrs, TX, out)], out, fn)


CASES = [
    pool('max_pad_dil', 'max_pool', 'kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 2, 1>',
         'tensor<2x3x5x6xf32>', lambda x: F.max_pool2d(x, 3, 1, 1, dilation=(2, 1))),
    pool('max_ceil', 'max_pool', 'kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode = 1 : i64',
         'tensor<2x3x3x3xf32>', lambda x: F.max_pool2d(x, 3, 2, ceil_mode=True)),
    pool('avg_exclude', 'average_pool', 'kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>',
         'tensor<2x3x4x3xf32>', lambda x: F.avg_pool2d(x, 3, 2, 1, count_include_pad=False)),
    pool('avg_include', 'average_pool', 'kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, count_include_pad = 1 : i64',
         'tensor<2x3x4x3xf32>', lambda x: F.avg_pool2d(x, 3, 2, 1, count_include_pad=True)),
    pool('avg_ceil_include', 'average_pool', 'kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, ceil_mode = 1 : i64, count_include_pad = 1 : i64',
         'tensor<2x3x4x4xf32>', lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=True)),
    pool('avg_ceil_exclude', 'average_pool', 'kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode = 1 : i64',
         'tensor<2x3x4x3xf32>', lambda x: F.avg_pool2d(x, 2, 2, ceil_mode=True, count_include_pad=False)),
    pool('global_avg', 'global_average_pool', '', 'tensor<2x3x1x1xf32>', lambda x: F.adaptive_avg_pool2d(x, 1)),
    Case('batch_norm', [(X, f32), ([3], f32), ([3], f32), ([3], f32), ([3], f32, (0.1, 2))],
         ['%r = "nn.batch_normalization"(%arg0, %arg1, %arg2, %arg3, %arg4) {epsilon = 1.0e-3 : f32} : (' + TX + ', tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> ' + TX],
         TX, lambda x, s, b, m, v: F.batch_norm(x, m, v, s, b, eps=1e-3)),
    Case('layer_norm', [([2, 4, 8], f32), ([8], f32), ([8], f32)],
         ['%r = "nn.layer_normalization"(%arg0, %arg1, %arg2) : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>'],
         'tensor<2x4x8xf32>', lambda x, s, b: F.layer_norm(x, (8,), s, b)),
    Case('instance_norm', [(X, f32), ([3], f32), ([3], f32)],
         ['%r = "nn.instance_normalization"(%arg0, %arg1, %arg2) : (' + TX + ', tensor<3xf32>, tensor<3xf32>) -> ' + TX],
         TX, lambda x, s, b: F.instance_norm(x, weight=s, bias=b)),
    Case('group_norm', [([2, 6, 3, 4], f32), ([6], f32), ([6], f32)],
         ['%r = "nn.group_normalization"(%arg0, %arg1, %arg2) {num_groups = 3 : i64} : (tensor<2x6x3x4xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x3x4xf32>'],
         'tensor<2x6x3x4xf32>', lambda x, s, b: F.group_norm(x, 3, s, b)),
]
