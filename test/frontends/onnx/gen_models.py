"""Builds small ONNX models with numpy reference outputs, for the importer
tests. Usage: gen_models.py OUTDIR. Writes <case>.onnx, <case>.in<i>.npy and
<case>.ref.npy per case, and cases.txt listing them; plus malformed models
(bad_*.onnx) for the error tests."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from onnx_cases import F, Cases, vi

OUT = sys.argv[1]
rng = np.random.default_rng(7)
C = Cases(OUT)
case, CASES = C.case, C.cases


def r(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def conv2d(x, w, b, stride, pad, group):
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = (h + 2 * pad - kh) // stride + 1, (wd + 2 * pad - kw) // stride + 1
    y = np.zeros((n, m, oh, ow), np.float64)
    mg = m // group
    for o in range(m):
        g = o // mg
        for i in range(oh):
            for j in range(ow):
                patch = xp[:, g * cg:(g + 1) * cg, i * stride:i * stride + kh, j * stride:j * stride + kw]
                y[:, o, i, j] = (patch * w[o]).sum(axis=(1, 2, 3)) + b[o]
    return y.astype(np.float32)


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


x, y = r(2, 3, 4), r(4)
case('add_broadcast', [helper.make_node('Add', ['a', 'b'], ['y'])], [('a', x), ('b', y)], [x + y])
x = r(1, 4, 6, 6); w = r(6, 2, 3, 3); b = r(6)
case('conv_group_pad', [helper.make_node('Conv', ['x', 'w', 'b'], ['y'], group=2, pads=[1, 1, 1, 1], strides=[2, 2])],
     [('x', x)], [conv2d(x, w, b, 2, 1, 2)], inits=[('w', w), ('b', b)])
a, bb, c = r(3, 5), r(4, 5), r(4)
case('gemm_transb', [helper.make_node('Gemm', ['a', 'b', 'c'], ['y'], transB=1, alpha=0.5)], [('a', a)],
     [0.5 * a @ bb.T + c], inits=[('b', bb), ('c', c)])
x = r(2, 3, 4)
case('softmax_opset13', [helper.make_node('Softmax', ['x'], ['y'], axis=1)], [('x', x)], [softmax(x, 1)], opset=13)
case('softmax_opset11_coerced', [helper.make_node('Softmax', ['x'], ['y'], axis=1)], [('x', x)],
     [softmax(x.reshape(2, 12), 1).reshape(2, 3, 4)], opset=11)
p, q, s = r(2, 3), r(2, 1), r(2, 2)
case('concat_3', [helper.make_node('Concat', ['p', 'q', 's'], ['y'], axis=1)], [('p', p), ('q', q), ('s', s)],
     [np.concatenate([p, q, s], 1)])
a_, b_, c_ = r(3, 4), r(4), r(3, 1)
case('sum_mean_max', [helper.make_node('Sum', ['a', 'b', 'c'], ['s']), helper.make_node('Mean', ['a', 'b', 'c'], ['m']),
                      helper.make_node('Max', ['s', 'm', 'a'], ['y'])],
     [('a', a_), ('b', b_), ('c', c_)], [np.maximum(np.maximum(a_ + b_ + c_, (a_ + b_ + c_) / 3), a_)])
x = r(2, 7)
case('split_uneven_opset13', [helper.make_node('Split', ['x', 'sp'], ['u', 'v'], axis=1), helper.make_node('Mul', ['v', 'v'], ['y'])],
     [('x', x)], [x[:, 3:] * x[:, 3:]], inits=[('sp', np.array([3, 4], np.int64))], opset=13)
x = r(3, 1, 4)
case('squeeze_unsqueeze_inputs', [helper.make_node('Squeeze', ['x', 'a1'], ['s']), helper.make_node('Unsqueeze', ['s', 'a0'], ['y'])],
     [('x', x)], [x.reshape(1, 3, 4)], inits=[('a1', np.array([1], np.int64)), ('a0', np.array([0], np.int64))], opset=13)
x = r(2, 3, 4)
case('reduce_mean_axes_attr', [helper.make_node('ReduceMean', ['x'], ['y'], axes=[-1], keepdims=0)], [('x', x)], [x.mean(-1)], opset=13)
case('reduce_sum_axes_input', [helper.make_node('ReduceSum', ['x', 'ax'], ['y'], keepdims=1)], [('x', x)], [x.sum(1, keepdims=True)],
     inits=[('ax', np.array([1], np.int64))], opset=13)
case('clip_inputs', [helper.make_node('Clip', ['x', 'lo', 'hi'], ['y'])], [('x', x)], [np.clip(x, -0.5, 0.25)],
     inits=[('lo', np.array(-0.5, np.float32)), ('hi', np.array(0.25, np.float32))])
case('cast_constant', [helper.make_node('Constant', [], ['k'], value=numpy_helper.from_array(np.array([2.5], np.float32))),
                       helper.make_node('Mul', ['x', 'k'], ['m']), helper.make_node('Cast', ['m'], ['y'], to=TensorProto.INT32)],
     [('x', x)], [(x * 2.5).astype(np.int32)])
x = r(2, 3, 4)
case('reshape_shape_computation', [helper.make_node('Shape', ['x'], ['s']),
                                   helper.make_node('Gather', ['s', 'i0'], ['d0'], axis=0),
                                   helper.make_node('Unsqueeze', ['d0', 'ax'], ['d0u']),
                                   helper.make_node('Concat', ['d0u', 'm1'], ['shape'], axis=0),
                                   helper.make_node('Reshape', ['x', 'shape'], ['y'])],
     [('x', x)], [x.reshape(2, 12)], inits=[('i0', np.array(0, np.int64)), ('ax', np.array([0], np.int64)), ('m1', np.array([-1], np.int64))], opset=13)
c, a, b = rng.random((3, 4)) < 0.5, r(3, 4), r(4)
case('where_bcast', [helper.make_node('Where', ['c', 'a', 'b'], ['y'])], [('c', c), ('a', a), ('b', b)], [np.where(c, a, b)])
x = r(1, 2, 3, 4)
case('resize_scales', [helper.make_node('Resize', ['x', '', 'sc'], ['y'], mode='nearest')], [('x', x)],
     [x.repeat(2, axis=2).repeat(2, axis=3)], inits=[('sc', np.array([1, 1, 2, 2], np.float32))], opset=13)
case('pad_input', [helper.make_node('Pad', ['x', 'pads', 'v'], ['y'])], [('x', x)],
     [np.pad(x, ((0, 0), (0, 0), (1, 0), (0, 2)), constant_values=1.5)],
     inits=[('pads', np.array([0, 0, 1, 0, 0, 0, 0, 2], np.int64)), ('v', np.array(1.5, np.float32))])
x = r(3, 6)
case('topk_values', [helper.make_node('TopK', ['x', 'k'], ['y', 'idx'], axis=1)], [('x', x)], [-np.sort(-x, axis=1)[:, :2]],
     inits=[('k', np.array([2], np.int64))])
x = r(4, 5)
case('slice_negative_step', [helper.make_node('Slice', ['x', 's', 'e', 'a', 't'], ['y'])], [('x', x)], [x[:, -1:0:-2]],
     inits=[('s', np.array([-1], np.int64)), ('e', np.array([0], np.int64)), ('a', np.array([1], np.int64)), ('t', np.array([-2], np.int64))])
x, sc, bi = r(2, 3, 8), r(8), r(8)
mu, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
case('layer_norm_opset17', [helper.make_node('LayerNormalization', ['x', 's', 'b'], ['y'], epsilon=1e-5)], [('x', x)],
     [((x - mu) / np.sqrt(var + 1e-5) * sc + bi).astype(np.float32)], inits=[('s', sc), ('b', bi)], opset=17)
x = r(3, 4)
case('cumsum_axis_input', [helper.make_node('CumSum', ['x', 'ax'], ['y'], exclusive=1)], [('x', x)],
     [np.concatenate([np.zeros((3, 1), np.float32), np.cumsum(x, 1)[:, :-1]], 1)], inits=[('ax', np.array(1, np.int64))])
x = r(3, 5)
case('gather_neg_indices', [helper.make_node('Gather', ['x', 'i'], ['y'], axis=1)], [('x', x)], [x[:, [4, -1, 0]]],
     inits=[('i', np.array([4, -1, 0], np.int64))])
case('transpose_matmul_relu', [helper.make_node('Transpose', ['x'], ['t'], perm=[1, 0]), helper.make_node('MatMul', ['t', 'w'], ['m']),
                               helper.make_node('Relu', ['m'], ['y'])],
     [('x', x)], [np.maximum(x.T @ np.ones((3, 2), np.float32), 0)], inits=[('w', np.ones((3, 2), np.float32))])
# Absent ("") optional inputs are absent: Clip with no min, Slice with no axes
# but steps (an absent input between present ones).
x = r(3, 4)
case('clip_absent_min', [helper.make_node('Clip', ['x', '', 'hi'], ['y'])], [('x', x)], [np.minimum(x, 0.25)],
     inits=[('hi', np.array(0.25, np.float32))], opset=13)
x = r(4, 5)
case('slice_absent_axes', [helper.make_node('Slice', ['x', 's', 'e', '', 't'], ['y'])], [('x', x)], [x[3:0:-1]],
     inits=[('s', np.array([3], np.int64)), ('e', np.array([0], np.int64)), ('t', np.array([-1], np.int64))], opset=13)

# Compositions (onnx_compose.c): OneHot with a constant depth (negative and
# out-of-range indices), Pow with an integer exponent.
ind = np.array([[1, -1, 5], [0, 2, -4]], np.int64)
want = np.full((2, 4, 3), -1.0, np.float32)
for i in range(2):
    for j in range(3):
        v = ind[i, j] + 4 if ind[i, j] < 0 else ind[i, j]
        if 0 <= v < 4:
            want[i, v, j] = 3.0
case('onehot_axis1', [helper.make_node('OneHot', ['i', 'd', 'v'], ['y'], axis=1)], [('i', ind)], [want],
     inits=[('d', np.array(4, np.int64)), ('v', np.array([-1, 3], np.float32))], opset=11)
x, e = r(3, 4), np.array([2, 3, 1, 0], np.int64)
case('pow_int_exponent', [helper.make_node('Pow', ['x', 'e'], ['y'])], [('x', x), ('e', e)], [(x ** e).astype(np.float32)],
     opset=13)

x = r(2, 6, 3, 4)


def lrn(x, size, alpha, beta, bias):
    sq, c = x.astype(np.float64) ** 2, x.shape[1]
    out = np.empty_like(sq)
    for i in range(c):
        lo, hi = max(0, i - (size - 1) // 2), min(c - 1, i + size - 1 - (size - 1) // 2)
        out[:, i] = x[:, i] / (bias + alpha / size * sq[:, lo:hi + 1].sum(1)) ** beta
    return out.astype(np.float32)


case('lrn_even_size', [helper.make_node('LRN', ['x'], ['y'], size=4, alpha=0.01, beta=0.6, bias=2.0)], [('x', x)],
     [lrn(x, 4, 0.01, 0.6, 2.0)], opset=13)

# GatherND / ScatterND (batch_dims 0), negative indices wrap per dim.
data = r(3, 4, 2)
ind = np.array([[[0, -1], [2, 1]], [[1, 0], [-3, 3]]], np.int64)
case('gather_nd_k2', [helper.make_node('GatherND', ['d', 'i'], ['y'])], [('d', data)],
     [np.stack([np.stack([data[tuple(t)] for t in row]) for row in ind])], inits=[('i', ind)], opset=13)


def gather_nd(data, ind, b):
    """ONNX GatherND with batch_dims b, by loops over the batch and tuples."""
    bshape, k = data.shape[:b], ind.shape[-1]
    out = np.empty(ind.shape[:-1] + data.shape[b + k:], data.dtype)
    for bi in np.ndindex(*bshape):
        for ti in np.ndindex(*ind.shape[b:-1]):
            out[bi + ti] = data[bi][tuple(ind[bi + ti])]
    return out


# GatherND with batch_dims 1 and 2, random data and indices (negative ones
# wrap per dim), int32 data and int32-free i64 indices; tuples of 1 and 2.
data = rng.integers(-100, 100, (2, 3, 4, 5)).astype(np.int32)
ind = np.stack([rng.integers(-3, 3, (2, 3)), rng.integers(-4, 4, (2, 3))], -1).astype(np.int64)
case('gather_nd_batch1_k2', [helper.make_node('GatherND', ['d', 'i'], ['y'], batch_dims=1)], [('d', data), ('i', ind)],
     [gather_nd(data, ind, 1)], opset=13)
data = r(2, 3, 4, 5)
ind = rng.integers(-4, 4, (2, 3, 2, 1)).astype(np.int64)
case('gather_nd_batch2_k1', [helper.make_node('GatherND', ['d', 'i'], ['y'], batch_dims=2)], [('d', data), ('i', ind)],
     [gather_nd(data, ind, 2)], opset=12)
data = r(3, 4, 2)
ind2, upd = np.array([[2], [0]], np.int64), r(2, 4, 2)
want = data.copy()
want[2] += upd[0]
want[0] += upd[1]
case('scatter_nd_add', [helper.make_node('ScatterND', ['d', 'i', 'u'], ['y'], reduction='add')], [('d', data), ('u', upd)],
     [want], inits=[('i', ind2)], opset=16)

# MaxUnpool with an output_shape: the default-shaped unpooling at the origin
# of zeros of output_shape (ONNX's reference); a run-time and a constant one.
def max_unpool(x, ind, kernel, stride, out_shape):
    dflt = x.shape[:2] + tuple((d - 1) * s + k for d, s, k in zip(x.shape[2:], stride, kernel))
    flat = np.zeros(int(np.prod(dflt)), x.dtype)
    flat[ind.ravel()] = x.ravel()
    y = np.zeros(out_shape, x.dtype)
    y[tuple(slice(0, d) for d in dflt)] = flat.reshape(dflt)
    return y


x = r(2, 3, 2, 3)
ind = np.stack([rng.permutation(2 * 3 * 4 * 6)[:2 * 3 * 2 * 3] for _ in range(1)])[0].reshape(2, 3, 2, 3).astype(np.int64)
shape = np.array([2, 4, 5, 7], np.int64)
case('max_unpool_runtime_shape',
     [helper.make_node('MaxUnpool', ['x', 'i', 's'], ['y'], kernel_shape=[2, 2], strides=[2, 2])],
     [('x', x), ('i', ind), ('s', shape)], [max_unpool(x, ind, (2, 2), (2, 2), tuple(shape))], opset=11)
np.save(os.path.join(OUT, 'max_unpool_small_shape.npy'), np.array([2, 4, 3, 7], np.int64))  # for errors.test
xi = rng.integers(-50, 50, (1, 2, 4)).astype(np.int32)
ind = rng.permutation(1 * 2 * 9)[:8].reshape(1, 2, 4).astype(np.int64)
case('max_unpool_const_shape_int',
     [helper.make_node('MaxUnpool', ['x', 'i', 's'], ['y'], kernel_shape=[3], strides=[2])],
     [('x', xi), ('i', ind)], [max_unpool(xi, ind, (3,), (2,), (1, 2, 11))],
     inits=[('s', np.array([1, 2, 11], np.int64))], opset=11)

# External data: the weight lives in a file beside the model.
x = r(2, 4); w = r(4, 3)
g = helper.make_graph([helper.make_node('MatMul', ['x', 'w'], ['y'])], 'external', [vi('x', x)], [vi('y', (2, 3))],
                      [numpy_helper.from_array(w, 'w')])
m = helper.make_model(g, opset_imports=[helper.make_opsetid('', 14)])
m.ir_version = 8
onnx.save(m, os.path.join(OUT, 'external_data.onnx'), save_as_external_data=True, all_tensors_to_one_file=True,
          location='external_data.bin', size_threshold=0)
np.save(os.path.join(OUT, 'external_data.in0.npy'), x)
np.save(os.path.join(OUT, 'external_data.ref.npy'), x @ w)
CASES.append(('external_data', 1))

C.finish()

# ---- Malformed models ----
good = open(os.path.join(OUT, 'add_broadcast.onnx'), 'rb').read()
open(os.path.join(OUT, 'bad_truncated.onnx'), 'wb').write(good[:len(good) // 2])
open(os.path.join(OUT, 'bad_garbage.onnx'), 'wb').write(b'\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff' + b'junk' * 10)


def save_bad(name, nodes, inputs, outputs, inits=(), opset=14):
    C.save(name, nodes, inputs, outputs, list(inits), opset)


save_bad('bad_unknown_op', [helper.make_node('FooBar', ['x'], ['y'], name='mystery')], [vi('x', (2,))], [vi('y', (2,))])
save_bad('bad_opset', [helper.make_node('Relu', ['x'], ['y'])], [vi('x', (2,))], [vi('y', (2,))], opset=22)
t = numpy_helper.from_array(np.zeros((4,), np.float32), 'w')
t.raw_data = t.raw_data[:8]  # 2 floats of data for a [4] tensor
save_bad('bad_tensor_size', [helper.make_node('Add', ['x', 'w'], ['y'], name='adder')], [vi('x', (4,))], [vi('y', (4,))], [t])
save_bad('bad_shapes', [helper.make_node('Add', ['x', 'z'], ['y'], name='bad_add')], [vi('x', (2, 3)), vi('z', (4, 3))], [vi('y', (2, 3))])
save_bad('bad_domain', [helper.make_node('Foo', ['x'], ['y'], name='custom', domain='com.example')], [vi('x', (2,))], [vi('y', (2,))])
# ONNX graphs are SSA: a name has one definition.
save_bad('bad_dup_output', [helper.make_node('Relu', ['x'], ['t'], name='first'), helper.make_node('Neg', ['x'], ['t'], name='second'),
                            helper.make_node('Add', ['t', 't'], ['y'])], [vi('x', (2,))], [vi('y', (2,))])
save_bad('bad_shadow_input', [helper.make_node('Relu', ['x'], ['x'], name='shadow')], [vi('x', (2,))], [vi('x', (2,))])
save_bad('bad_shadow_initializer', [helper.make_node('Relu', ['x'], ['w'], name='shadow'), helper.make_node('Add', ['x', 'w'], ['y'])],
         [vi('x', (2,))], [vi('y', (2,))], [numpy_helper.from_array(np.ones(2, np.float32), 'w')])
# Op types are case-sensitive.
save_bad('bad_op_case', [helper.make_node('RELU', ['x'], ['y'], name='shout')], [vi('x', (2,))], [vi('y', (2,))])
# Inputs: a required one given as "" (absent), a variadic one absent, a
# constant axes value that is no int64.
save_bad('bad_conv_absent_weight', [helper.make_node('Conv', ['x', '', 'b'], ['y'], name='conv')], [vi('x', (1, 1, 3, 3))],
         [vi('y', (1, 1, 3, 3))], [numpy_helper.from_array(np.zeros(1, np.float32), 'b')])
save_bad('bad_mean_absent_input', [helper.make_node('Mean', ['x', ''], ['y'], name='mean')], [vi('x', (2,))], [vi('y', (2,))])
save_bad('bad_mean_int', [helper.make_node('Mean', ['x', 'x'], ['y'], name='mean')], [vi('x', (2,), TensorProto.INT32)],
         [vi('y', (2,), TensorProto.INT32)])
save_bad('bad_axes_inf', [helper.make_node('Unsqueeze', ['x', 'ax'], ['y'], name='unsq')], [vi('x', (2,))], [vi('y', (1, 2))],
         [numpy_helper.from_array(np.array([np.inf], np.float32), 'ax')], opset=13)
# Split sizes that do not tile the axis; Reshape with allowzero=1, a 0 and a -1.
save_bad('bad_split_attr', [helper.make_node('Split', ['x'], ['a', 'b'], name='split', axis=0, split=[1, 2])],
         [vi('x', (4, 3))], [vi('a', (1, 3)), vi('b', (2, 3))], opset=11)
# Split sizes as a graph input (they used to be ignored: an even split, exit 0).
save_bad('split_runtime', [helper.make_node('Split', ['x', 's'], ['a', 'b'], name='split', axis=0)],
         [vi('x', (4, 3)), vi('s', (2,), TensorProto.INT64)], [vi('a', (None, 3)), vi('b', (None, 3))], opset=13)
save_bad('bad_reshape_allowzero', [helper.make_node('Reshape', ['x', 's'], ['y'], name='reshape', allowzero=1)],
         [vi('x', (2, 3))], [vi('y', (0, 6))], [numpy_helper.from_array(np.array([0, -1], np.int64), 's')])
# Shapes too large for int64 element counts.
save_bad('bad_huge_input', [helper.make_node('Relu', ['x'], ['y'])], [vi('x', (1 << 40, 1 << 40))], [vi('y', (1 << 40, 1 << 40))])
save_bad('bad_expand_huge', [helper.make_node('Expand', ['x', 's'], ['y'], name='expand')], [vi('x', (1, 1))], [vi('y', (1, 1))],
         [numpy_helper.from_array(np.array([1 << 40, 1 << 40], np.int64), 's')])
# Compositions that need what the model does not give: an integer k, static
# dims for Trilu's mask, scalar runtime Clip bounds, a valid reduction.
save_bad('bad_trilu_float_k', [helper.make_node('Trilu', ['x', 'k'], ['y'], name='tri')], [vi('x', (3, 3)), vi('k', ())],
         [vi('y', (3, 3))])
save_bad('bad_trilu_dynamic', [helper.make_node('Trilu', ['x'], ['y'], name='tri')], [vi('x', ('n', 3))], [vi('y', ('n', 3))])
save_bad('bad_clip_runtime_vector', [helper.make_node('Clip', ['x', 'lo'], ['y'], name='clip')], [vi('x', (3,)), vi('lo', (3,))],
         [vi('y', (3,))], opset=13)
# GatherND's batch dims must agree between data and indices, and leave room.
save_bad('bad_gathernd_batch_mismatch', [helper.make_node('GatherND', ['d', 'i'], ['y'], name='gnd', batch_dims=1)],
         [vi('d', (2, 3)), vi('i', (3, 1), TensorProto.INT64)], [vi('y', (3,))], opset=13)
save_bad('bad_gathernd_batch_rank', [helper.make_node('GatherND', ['d', 'i'], ['y'], name='gnd', batch_dims=2)],
         [vi('d', (2, 3)), vi('i', (2, 1), TensorProto.INT64)], [vi('y', (2,))], opset=13)
save_bad('bad_max_unpool_small_shape', [helper.make_node('MaxUnpool', ['x', 'i', 's'], ['y'], name='unpool', kernel_shape=[2])],
         [vi('x', (1, 1, 3)), vi('i', (1, 1, 3), TensorProto.INT64)], [vi('y', (1, 1, 3))],
         [numpy_helper.from_array(np.array([1, 1, 3], np.int64), 's')], opset=11)
save_bad('bad_nll_reduction', [helper.make_node('NegativeLogLikelihoodLoss', ['x', 't'], ['y'], name='nll', reduction='avg')],
         [vi('x', (2, 3)), vi('t', (2,), TensorProto.INT64)], [vi('y', ())], opset=13)
