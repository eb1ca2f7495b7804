# Data movement against torch.
import torch.nn.functional as F

f32 = np.float32
C = lambda n, v: '%%%s = "nn.constant"() {value = dense<[%s]> : tensor<%dxi64>} : () -> tensor<%dxi64>' % (n, ', '.join(map(str, v)), len(v), len(v))
T = lambda *s: 'tensor<%sxf32>' % 'x'.join(map(str, s))


def resize(name, attrs, operand, out, fn):
    seg = '1, 0, 1, 0' if 'sc' in operand else '1, 0, 0, 1'
    typ = 'tensor<4xf32>' if 'sc' in operand else 'tensor<4xi64>'
    return Case(name, [([1, 2, 5, 6], f32)], [operand, '%%r = "nn.resize"(%%arg0, %%%s) {operandSegmentSizes = array<i32: %s>%s} : (%s, %s) -> %s'
                                             % ('sc' if 'sc' in operand else 'sz', seg, attrs, T(1, 2, 5, 6), typ, T(*out))], T(*out), fn)


SC = '%sc = "nn.constant"() {value = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>'
CASES = [
    Case('slice_neg_step', [([5, 9], f32)], [C('s', [1, -2]), C('e', [5, 0]), C('a', [0, 1]), C('t', [2, -3]),
         '%r = "nn.slice"(%arg0, %s, %e, %a, %t) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<5x9xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x3xf32>'],
         T(2, 3), lambda x: x.numpy()[1:5:2, -2:0:-3] if False else torch.from_numpy(x.numpy()[1:5:2, -2:0:-3].copy())),
    Case('pad_reflect', [([2, 3, 4], f32)], [C('p', [0, 1, 2, 0, 2, 1]),
         '%r = "nn.pad"(%arg0, %p) {mode = "reflect"} : (tensor<2x3x4xf32>, tensor<6xi64>) -> tensor<2x6x7xf32>'],
         T(2, 6, 7), lambda x: F.pad(x.unsqueeze(0), (2, 1, 1, 2), mode='reflect').squeeze(0)),
    Case('pad_edge', [([1, 3, 4], f32)], [C('p', [0, 2, 1, 0, 0, 3]),
         '%r = "nn.pad"(%arg0, %p) {mode = "edge"} : (tensor<1x3x4xf32>, tensor<6xi64>) -> tensor<1x5x8xf32>'],
         T(1, 5, 8), lambda x: F.pad(x.unsqueeze(0), (1, 3, 2, 0), mode='replicate').squeeze(0)),
    Case('depth_to_space_dcr', [([1, 8, 2, 3], f32)], ['%r = "nn.depth_to_space"(%arg0) {blocksize = 2 : i64} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>'],
         T(1, 2, 4, 6), lambda x: x.reshape(1, 2, 2, 2, 2, 3).permute(0, 3, 4, 1, 5, 2).reshape(1, 2, 4, 6)),
    Case('depth_to_space_crd', [([1, 8, 2, 3], f32)], ['%r = "nn.depth_to_space"(%arg0) {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>'],
         T(1, 2, 4, 6), lambda x: F.pixel_shuffle(x, 2)),
    Case('space_to_depth', [([1, 2, 4, 6], f32)], ['%r = "nn.space_to_depth"(%arg0) {blocksize = 2 : i64} : (tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32>'],
         T(1, 8, 2, 3), lambda x: x.reshape(1, 2, 2, 2, 3, 2).permute(0, 3, 5, 1, 2, 4).reshape(1, 8, 2, 3)),
    resize('resize_nearest_2x', '', SC, [1, 2, 10, 12], lambda x: F.interpolate(x, scale_factor=2, mode='nearest')),
    resize('resize_bilinear_half_pixel', ', mode = "linear"', SC, [1, 2, 10, 12],
           lambda x: F.interpolate(x, scale_factor=2, mode='bilinear', align_corners=False)),
    resize('resize_bilinear_align', ', mode = "linear", coordinate_transformation_mode = "align_corners"', C('sz', [1, 2, 7, 9]), [1, 2, 7, 9],
           lambda x: F.interpolate(x, size=(7, 9), mode='bilinear', align_corners=True)),
    resize('resize_bilinear_down_pytorch', ', mode = "linear", coordinate_transformation_mode = "pytorch_half_pixel"', C('sz', [1, 2, 3, 4]), [1, 2, 3, 4],
           lambda x: F.interpolate(x, size=(3, 4), mode='bilinear', align_corners=False)),
    Case('gather_neg', [([4, 5], f32)], ['%i = "nn.constant"() {value = dense<[3, -1, 0]> : tensor<3xi64>} : () -> tensor<3xi64>',
         '%r = "nn.gather"(%arg0, %i) {axis = 1 : i64} : (tensor<4x5xf32>, tensor<3xi64>) -> tensor<4x3xf32>'],
         T(4, 3), lambda x: x[:, [3, -1, 0]]),
    Case('scatter_add', [([3, 4], f32), ([2, 4], f32)],
         ['%i = "nn.constant"() {value = dense<[[0, 2, 1, 0], [2, 1, 0, 1]]> : tensor<2x4xi64>} : () -> tensor<2x4xi64>',
          '%r = "nn.scatter_elements"(%arg0, %i, %arg1) {reduction = "add"} : (tensor<3x4xf32>, tensor<2x4xi64>, tensor<2x4xf32>) -> tensor<3x4xf32>'],
         T(3, 4), lambda x, u: x.scatter_add(0, torch.tensor([[0, 2, 1, 0], [2, 1, 0, 1]]), u)),
]
