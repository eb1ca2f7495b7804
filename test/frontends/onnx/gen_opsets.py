"""Models in the forms opsets 1-10 give operators that later opsets changed
(attributes that became inputs, Upsample, Resize-10, BatchNormalization's
spatial and is_test, Scatter, binary ops' broadcast/axis before opset 7,
Cast's string type, Concat's default axis), with numpy references; plus
models the importer must refuse (an op outside the model's opset, padding
rules it does not implement, training mode). Usage: gen_opsets.py OUTDIR."""
import sys

import numpy as np
from onnx import helper

from onnx_cases import Cases, vi

C = Cases(sys.argv[1])
rng = np.random.default_rng(11)
node = helper.make_node


def r(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def resize_ref(x, scales, mode, down_ceil=False):
    """Resize-10/Upsample: out dim floor(dim * scale), source x = o / scale
    (asymmetric); nearest floors (ceils on downsampled axes with down_ceil),
    linear interpolates with the coordinate clamped to the last element."""
    y = x.astype(np.float64)
    for axis, s in enumerate(scales):
        n = y.shape[axis]
        out = int(np.floor(n * s))
        src = np.arange(out) / s
        if mode == 'nearest':
            idx = np.ceil(src) if (down_ceil and s < 1) else np.floor(src)
            y = np.take(y, np.minimum(idx.astype(np.int64), n - 1), axis=axis)
        else:
            src = np.minimum(src, n - 1)
            i0 = np.floor(src).astype(np.int64)
            i1 = np.minimum(i0 + 1, n - 1)
            w = (src - i0).reshape([-1 if a == axis else 1 for a in range(y.ndim)])
            y = np.take(y, i0, axis=axis) * (1 - w) + np.take(y, i1, axis=axis) * w
    return y.astype(np.float32)


# Pad: pads, mode and value are attributes before opset 11.
x = r(1, 2, 3, 4)
C.case('pad_attrs_opset10', [node('Pad', ['x'], ['y'], pads=[0, 0, 1, 0, 0, 0, 0, 2], value=1.5)], [('x', x)],
       [np.pad(x, ((0, 0), (0, 0), (1, 0), (0, 2)), constant_values=1.5)], opset=10)
C.case('pad_reflect_opset7', [node('Pad', ['x'], ['y'], pads=[0, 0, 1, 2, 0, 0, 2, 1], mode='reflect')], [('x', x)],
       [np.pad(x, ((0, 0), (0, 0), (1, 2), (2, 1)), mode='reflect')], opset=7)
xi = rng.integers(-5, 5, (3, 4)).astype(np.int32)
C.case('pad_int_default_value_opset9', [node('Pad', ['x'], ['y'], pads=[1, 0, 0, 1])], [('x', xi)],
       [np.pad(xi, ((1, 0), (0, 1)))], opset=9)
# Slice: starts, ends and axes are attributes before opset 10.
x = r(4, 5, 6)
C.case('slice_attrs_opset9', [node('Slice', ['x'], ['y'], starts=[1, -4], ends=[3, 1000], axes=[0, 2])], [('x', x)],
       [x[1:3, :, -4:]], opset=9)
C.case('slice_attrs_no_axes_opset7', [node('Slice', ['x'], ['y'], starts=[0, 1, 2], ends=[2, -1, 9223372036854775807])],
       [('x', x)], [x[0:2, 1:-1, 2:]], opset=7)
# Clip: min and max are attributes before opset 11.
x = r(3, 4)
C.case('clip_attrs_opset7', [node('Clip', ['x'], ['y'], min=-0.5, max=0.25)], [('x', x)], [np.clip(x, -0.5, 0.25)], opset=7)
C.case('clip_max_only_opset10', [node('Clip', ['x'], ['y'], max=0.1)], [('x', x)], [np.minimum(x, 0.1)], opset=10)
# TopK: k is an attribute before opset 10.
x = r(3, 6)
C.case('topk_attr_opset9', [node('TopK', ['x'], ['y', 'i'], k=2, axis=1)], [('x', x)], [-np.sort(-x, axis=1)[:, :2]], opset=9)
# Upsample (7-8: scales attribute; 9: scales input) and Resize-10.
x = r(1, 2, 3, 4)
C.case('upsample_nearest_opset7', [node('Upsample', ['x'], ['y'], scales=[1.0, 1.0, 2.0, 3.0])], [('x', x)],
       [resize_ref(x, [1, 1, 2, 3], 'nearest')], opset=7)
C.case('upsample_linear_opset9', [node('Upsample', ['x', 's'], ['y'], mode='linear')], [('x', x)],
       [resize_ref(x, [1, 1, 2, 2.5], 'linear')], inits=[('s', np.array([1, 1, 2, 2.5], np.float32))], opset=9)
C.case('upsample_linear_attr_opset8', [node('Upsample', ['x'], ['y'], mode='linear', scales=[1.0, 1.0, 1.5, 2.0])],
       [('x', x)], [resize_ref(x, [1, 1, 1.5, 2], 'linear')], opset=8)
x = r(1, 1, 5, 7)
C.case('resize_nearest_up_opset10', [node('Resize', ['x', 's'], ['y'], mode='nearest')], [('x', x)],
       [resize_ref(x, [1, 1, 2, 1.5], 'nearest')], inits=[('s', np.array([1, 1, 2, 1.5], np.float32))], opset=10)
C.case('resize_nearest_down_opset10', [node('Resize', ['x', 's'], ['y'], mode='nearest')], [('x', x)],
       [resize_ref(x, [1, 1, 0.6, 0.5], 'nearest', down_ceil=True)],
       inits=[('s', np.array([1, 1, 0.6, 0.5], np.float32))], opset=10)
C.case('resize_linear_down_opset10', [node('Resize', ['x', 's'], ['y'], mode='linear')], [('x', x)],
       [resize_ref(x, [1, 1, 0.6, 0.5], 'linear')], inits=[('s', np.array([1, 1, 0.6, 0.5], np.float32))], opset=10)
# BatchNormalization: spatial = 0 (opsets 7-8) normalizes per activation.
x = r(2, 3, 4, 5)
sc, bi, mu, var = r(3, 4, 5), r(3, 4, 5), r(3, 4, 5), rng.uniform(0.5, 1.5, (3, 4, 5)).astype(np.float32)
C.case('batchnorm_spatial0_opset7', [node('BatchNormalization', ['x', 's', 'b', 'm', 'v'], ['y'], spatial=0, epsilon=1e-3)],
       [('x', x)], [((x - mu) / np.sqrt(var + 1e-3) * sc + bi).astype(np.float32)],
       inits=[('s', sc), ('b', bi), ('m', mu), ('v', var)], opset=7)
sc, bi, mu, var = r(3), r(3), r(3), rng.uniform(0.5, 1.5, 3).astype(np.float32)
c = lambda a: a.reshape(3, 1, 1)  # noqa: E731
C.case('batchnorm_spatial1_opset8', [node('BatchNormalization', ['x', 's', 'b', 'm', 'v'], ['y'], spatial=1)],
       [('x', x)], [((x - c(mu)) / np.sqrt(c(var) + 1e-5) * c(sc) + c(bi)).astype(np.float32)],
       inits=[('s', sc), ('b', bi), ('m', mu), ('v', var)], opset=8)
# Dropout with its ratio attribute is the identity at inference.
C.case('dropout_ratio_opset7', [node('Dropout', ['x'], ['y'], ratio=0.3)], [('x', x)], [x], opset=7)
# Scatter (opsets 9-10) is ScatterElements.
data, upd = r(3, 4), r(3, 2)
ind = np.array([[1, 3], [0, 0], [2, 1]], np.int64)
want = data.copy()
for i in range(3):
    for j in range(2):
        want[i, ind[i, j]] = upd[i, j]
C.case('scatter_opset9', [node('Scatter', ['d', 'i', 'u'], ['y'], axis=1)], [('d', data), ('i', ind), ('u', upd)],
       [want], opset=9)
# Softmax before opset 13 coerces to 2-D; Gemm with a broadcast C at opset 7.
x = r(2, 3, 4)
e = np.exp(x.reshape(2, 12) - x.reshape(2, 12).max(1, keepdims=True))
C.case('softmax_opset7', [node('Softmax', ['x'], ['y'])], [('x', x)], [(e / e.sum(1, keepdims=True)).reshape(2, 3, 4)], opset=7)
a, b, cc = r(3, 5), r(5, 4), r(4)
C.case('gemm_broadcast_opset7', [node('Gemm', ['a', 'b', 'c'], ['y'], beta=0.5)], [('a', a)], [a @ b + 0.5 * cc],
       inits=[('b', b), ('c', cc)], opset=7)
# Before opset 7: binary ops broadcast B to A only with broadcast = 1, B's
# dims placed at `axis`; consumed_inputs is a hint; is_test = 1 is inference;
# Reshape's shape and Pad's paddings are attributes; Cast names its type.
a, b = r(2, 3, 4, 5), r(3, 4)
C.case('add_broadcast_axis_opset6', [node('Add', ['a', 'b'], ['y'], broadcast=1, axis=1)], [('a', a), ('b', b)],
       [a + b.reshape(1, 3, 4, 1)], opset=6)
b2 = r(4, 5)
C.case('mul_broadcast_trailing_opset1', [node('Mul', ['a', 'b'], ['y'], broadcast=1, consumed_inputs=[0, 0])],
       [('a', a), ('b', b2)], [a * b2], opset=1)
C.case('sub_same_shape_opset6', [node('Sub', ['a', 'b'], ['y'])], [('a', a), ('b', a * 0.5)], [a * 0.5], opset=6)
x = r(2, 3, 4, 5)
sc, bi, mu, var = r(3), r(3), r(3), rng.uniform(0.5, 1.5, 3).astype(np.float32)
C.case('batchnorm_is_test_opset6', [node('BatchNormalization', ['x', 's', 'b', 'm', 'v'], ['y'], is_test=1,
                                         consumed_inputs=[0, 0, 0, 1, 1])],
       [('x', x)], [((x - c(mu)) / np.sqrt(c(var) + 1e-5) * c(sc) + c(bi)).astype(np.float32)],
       inits=[('s', sc), ('b', bi), ('m', mu), ('v', var)], opset=6)
C.case('dropout_is_test_opset6', [node('Dropout', ['x'], ['y'], is_test=1, ratio=0.2)], [('x', x)], [x], opset=6)
C.case('reshape_attr_opset4', [node('Reshape', ['x'], ['y'], shape=[6, -1])], [('x', x)], [x.reshape(6, 20)], opset=4)
p, q = r(2, 3), r(2, 2)
C.case('concat_default_axis_opset3', [node('Concat', ['p', 'q'], ['y'])], [('p', p), ('q', q)],
       [np.concatenate([p, q], 1)], opset=3)
x = r(1, 2, 3, 4)
C.case('pad_paddings_opset1', [node('Pad', ['x'], ['y'], paddings=[0, 0, 1, 1, 0, 0, 1, 1], value=-2.0)], [('x', x)],
       [np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-2.0)], opset=1)
C.case('cast_string_to_opset5', [node('Cast', ['x'], ['y'], to='INT32')], [('x', x * 4)], [(x * 4).astype(np.int32)],
       opset=5)
# Scales known only at run time: Upsample-9 nearest and linear, Resize-10 linear.
x = r(2, 3, 3, 4)
sc = np.array([1, 1.5, 2, 2.5], np.float32)
C.case('upsample_nearest_runtime_opset9', [node('Upsample', ['x', 's'], ['y'])], [('x', x), ('s', sc)],
       [resize_ref(x, sc, 'nearest')], opset=9)
C.case('upsample_linear_runtime_opset9', [node('Upsample', ['x', 's'], ['y'], mode='linear')], [('x', x), ('s', sc)],
       [resize_ref(x, sc, 'linear')], opset=9)
sc = np.array([1, 1, 0.6, 1.75], np.float32)
C.case('resize_linear_runtime_opset10', [node('Resize', ['x', 's'], ['y'], mode='linear')], [('x', x), ('s', sc)],
       [resize_ref(x, sc, 'linear')], opset=10)
# Resize-10 nearest rounds up on downsampled axes, down on upsampled ones:
# axes that go both ways, constant or known only at run time.
C.case('resize_nearest_mixed_opset10', [node('Resize', ['x', 's'], ['y'], mode='nearest')], [('x', x)],
       [resize_ref(x, [1, 0.7, 2, 0.6], 'nearest', down_ceil=True)],
       inits=[('s', np.array([1, 0.7, 2, 0.6], np.float32))], opset=10)
for name, sc in (('mixed', [1, 0.7, 2, 0.6]), ('down', [0.5, 1, 0.75, 0.6]), ('up', [1, 1.5, 2, 1.25])):
    sc = np.array(sc, np.float32)
    C.case('resize_nearest_runtime_%s_opset10' % name, [node('Resize', ['x', 's'], ['y'], mode='nearest')],
           [('x', x), ('s', sc)], [resize_ref(x, sc, 'nearest', down_ceil=True)], opset=10)
np.save(C.out + '/upsample_below_one.npy', np.array([1, 1, 0.5, 2], np.float32))  # for opsets.test
np.save(C.out + '/resize_nonpositive.npy', np.array([1, 1, 0, 2], np.float32))
C.case('softsign_opset1', [node('Softsign', ['x'], ['y'])], [('x', x)], [x / (1 + np.abs(x))], opset=1)
C.finish()

# ---- Refused ----
v = vi('x', (1, 1, 2, 2))
C.save('bad_where_opset8', [node('Where', ['c', 'x', 'x'], ['y'], name='w')], [vi('c', (2,), 9), vi('x', (2,))],
       [vi('y', (2,))], opset=8)
C.save('bad_upsample_opset10', [node('Upsample', ['x', 's'], ['y'], name='up')], [v], [vi('y', (1, 1, 4, 4))],
       [('s', np.array([1, 1, 2, 2], np.float32))], opset=10)
C.save('bad_upsample_below_one', [node('Upsample', ['x'], ['y'], name='up', scales=[1.0, 1.0, 0.5, 1.0])], [v],
       [vi('y', (1, 1, 1, 2))], opset=8)
C.save('bad_convtranspose_output_shape', [node('ConvTranspose', ['x', 'w'], ['y'], name='ct', strides=[2, 2],
                                               output_shape=[4, 4])], [v], [vi('y', (1, 1, 4, 4))],
       [('w', np.ones((1, 1, 3, 3), np.float32))], opset=10)
C.save('bad_batchnorm_spatial0_per_channel', [node('BatchNormalization', ['x', 's', 's', 's', 's'], ['y'], name='bn',
                                                   spatial=0)], [vi('x', (1, 2, 3, 2))], [vi('y', (1, 2, 3, 2))],
       [('s', np.ones(2, np.float32))], opset=7)
C.save('bad_pad_attr_missing', [node('Pad', ['x'], ['y'], name='pad')], [v], [v], opset=10)
C.save('bad_opset0', [node('Relu', ['x'], ['y'])], [v], [v], opset=0)
C.save('bad_add_no_broadcast_opset6', [node('Add', ['x', 'b'], ['y'], name='add')], [v, vi('b', (2,))], [v], opset=6)
C.save('bad_batchnorm_training_opset6', [node('BatchNormalization', ['x', 's', 's', 's', 's'], ['y'], name='bn')],
       [vi('x', (1, 2, 3, 2))], [vi('y', (1, 2, 3, 2))], [('s', np.ones(2, np.float32))], opset=6)
C.save('bad_tile_opset5', [node('Tile', ['x', 't', 'a'], ['y'], name='tile')], [v, vi('t', (), 7), vi('a', (), 7)], [v],
       opset=5)
