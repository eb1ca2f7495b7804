"""MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv and
DynamicQuantizeLinear imported from ONNX and run on the CPU target against
NumPy implementations of ONNX's definitions, on random full-range int8/uint8
data with per-tensor, per-row/column and per-channel parameters. Integer
results must match exactly.
Usage: qlinear_ref.py WORKDIR"""
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper, numpy_helper  # noqa: F401

import strata

work = sys.argv[1]
os.makedirs(work, exist_ok=True)
rng = np.random.default_rng(0)
ONNX_TYPE = {np.uint8: TensorProto.UINT8, np.int8: TensorProto.INT8, np.int32: TensorProto.INT32,
             np.float32: TensorProto.FLOAT}


def q(dtype, shape):
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max + 1, size=shape, dtype=np.int64).astype(dtype)


def scales(shape):
    return rng.uniform(0.001, 0.05, size=shape).astype(np.float32)


def run(name, op, inputs, outputs, attrs=None):
    """inputs: (name, array or None for absent); outputs: (name, dtype)."""
    present = [(n, a) for n, a in inputs if a is not None]
    node = helper.make_node(op, [n if a is not None else '' for n, a in inputs], [o for o, _ in outputs],
                            **(attrs or {}))
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info(n, ONNX_TYPE[a.dtype.type], a.shape) for n, a in present],
        [helper.make_tensor_value_info(o, ONNX_TYPE[t], None) for o, t in outputs])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 13)])
    sess = strata.Session(model.SerializeToString(), target='cpu', cache_dir=None)
    return sess.run(None, {n: a for n, a in present})


def wrap32(v):
    return ((v.astype(np.int64) + 2**31) % 2**32 - 2**31).astype(np.int32)


def shifted(x, zp, row=False):
    x = x.astype(np.int64)
    if zp is None:
        return x
    z = zp.astype(np.int64)
    if row and z.ndim == 1 and z.size > 1:
        z = z.reshape(-1, 1)
    return x - z


def conv(x, w, pads, strides, dilations, group):
    """int64 NCHW convolution, through float64 (exact for these sizes)."""
    xt = torch.from_numpy(x.astype(np.float64))
    xt = F.pad(xt, (pads[1], pads[3], pads[0], pads[2]))
    y = F.conv2d(xt, torch.from_numpy(w.astype(np.float64)), stride=strides, dilation=dilations, groups=group)
    return y.numpy().astype(np.int64)


def requant(acc, m, yz, dtype):
    """saturate(round_half_even(acc * m) + y_zero_point): m in f32, the
    product in f64, as ONNX's reference computes it."""
    info = np.iinfo(dtype)
    v = np.rint(acc.astype(np.float64) * m.astype(np.float64)) + yz.astype(np.float64)
    return np.clip(v, info.min, info.max).astype(dtype)


def check(name, got, want):
    same = got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)
    diff = '' if same or got.shape != want.shape else ' (%d differ)' % int((got != want).sum())
    print('%s: %s%s' % (name, 'OK' if same else 'MISMATCH', diff))


def matmul_integer(name, ta, tb, M, K, N, az_shape, bz_shape, batch=()):
    a, b = q(ta, batch + (M, K)), q(tb, (K, N))
    az = q(ta, az_shape) if az_shape is not None else None
    bz = q(tb, bz_shape) if bz_shape is not None else None
    (got,) = run(name, 'MatMulInteger', [('a', a), ('b', b), ('az', az), ('bz', bz)], [('y', np.int32)])
    check(name, got, wrap32(np.matmul(shifted(a, az, row=True), shifted(b, bz))))


def conv_integer(name, tx, tw, x_shape, w_shape, xz, wz_shape, pads, strides, dilations, group):
    x, w = q(tx, x_shape), q(tw, w_shape)
    xzv = np.array(xz, dtype=tx) if xz is not None else None
    wz = q(tw, wz_shape) if wz_shape is not None else None
    attrs = dict(pads=pads, strides=strides, dilations=dilations, group=group)
    (got,) = run(name, 'ConvInteger', [('x', x), ('w', w), ('xz', xzv), ('wz', wz)], [('y', np.int32)], attrs)
    wzb = None if wz is None else wz.reshape(-1, 1, 1, 1)
    check(name, got, wrap32(conv(shifted(x, xzv), shifted(w, wzb), pads, strides, dilations, group)))


def qlinear_matmul(name, ta, tb, ty, M, K, N, a_per_row, b_per_col):
    a, b = q(ta, (M, K)), q(tb, (K, N))
    ash = (M,) if a_per_row else ()
    bsh = (N,) if b_per_col else ()
    as_, az, bs, bz = scales(ash), q(ta, ash), scales(bsh), q(tb, bsh)
    ys, yz = np.float32(rng.uniform(0.05, 0.5)).reshape(()), q(ty, ())
    ins = [('a', a), ('as', as_), ('az', az), ('b', b), ('bs', bs), ('bz', bz), ('ys', ys), ('yz', yz)]
    (got,) = run(name, 'QLinearMatMul', ins, [('y', ty)])
    acc = wrap32(np.matmul(shifted(a, az, row=True), shifted(b, bz)))
    asb = as_.reshape(-1, 1) if a_per_row else as_
    check(name, got, requant(acc, (asb * bs) / ys, yz, ty))


def qlinear_conv(name, tx, tw, ty, x_shape, w_shape, per_channel, bias, pads, strides, group):
    x, w = q(tx, x_shape), q(tw, w_shape)
    M = w_shape[0]
    wsh = (M,) if per_channel else ()
    xs, xz = np.float32(0.02).reshape(()), q(tx, ())
    ws, wz = scales(wsh), q(tw, wsh)
    ys, yz = np.float32(rng.uniform(0.05, 0.5)).reshape(()), q(ty, ())
    b = rng.integers(-50000, 50000, size=(M,)).astype(np.int32) if bias else None
    ins = [('x', x), ('xs', xs), ('xz', xz), ('w', w), ('ws', ws), ('wz', wz), ('ys', ys), ('yz', yz), ('b', b)]
    attrs = dict(pads=pads, strides=strides, group=group)
    (got,) = run(name, 'QLinearConv', ins, [('y', ty)], attrs)
    wzb = wz.reshape(-1, 1, 1, 1) if per_channel else wz
    acc = conv(shifted(x, xz), shifted(w, wzb), pads, strides, [1, 1], group)
    if b is not None:
        acc = acc + b.reshape(1, -1, 1, 1)
    m = (xs * ws) / ys
    check(name, got, requant(wrap32(acc), m.reshape(1, -1, 1, 1) if per_channel else m, yz, ty))


def dynamic_quantize(name, x):
    y, s, z = run(name, 'DynamicQuantizeLinear', [('x', x)], [('y', np.uint8), ('ys', np.float32), ('yz', np.uint8)])
    lo, hi = np.minimum(np.float32(0), x.min()), np.maximum(np.float32(0), x.max())
    ws = np.float32((hi - lo) / np.float32(255))
    wz = np.uint8(np.clip(np.rint((np.float32(0) - lo) / ws), 0, 255))
    wy = np.clip(np.rint(x / ws) + np.float32(wz), 0, 255).astype(np.uint8)
    check(name, y, wy)
    check(name + ' scale', s, np.array(ws))
    check(name + ' zero point', z, np.array(wz))


matmul_integer('matmul_integer u8 x u8 per-tensor', np.uint8, np.uint8, 5, 33, 7, (), ())
matmul_integer('matmul_integer i8 x u8 per-row per-column', np.int8, np.uint8, 6, 20, 9, (6,), (9,))
matmul_integer('matmul_integer u8 x i8 batched, no zero points', np.uint8, np.int8, 3, 17, 4, None, None, (2,))
matmul_integer('matmul_integer i8 x i8 [D, M, 1] zero point', np.int8, np.int8, 3, 8, 4, (2, 3, 1), (1,), (2,))
conv_integer('conv_integer u8 x u8', np.uint8, np.uint8, (1, 3, 9, 8), (5, 3, 3, 3), 100, None, [0, 0, 0, 0],
             [1, 1], [1, 1], 1)
conv_integer('conv_integer i8 x u8 per-channel, pads/strides/dilations/group', np.int8, np.uint8, (2, 4, 9, 10),
             (6, 2, 3, 2), -3, (6,), [1, 2, 0, 1], [2, 1], [1, 2], 2)
qlinear_matmul('qlinear_matmul u8 per-tensor', np.uint8, np.uint8, np.uint8, 4, 64, 8, False, False)
qlinear_matmul('qlinear_matmul u8 x i8 -> i8, per-column b', np.uint8, np.int8, np.int8, 5, 40, 6, False, True)
qlinear_matmul('qlinear_matmul i8 per-row a, per-column b', np.int8, np.int8, np.uint8, 3, 50, 4, True, True)
qlinear_conv('qlinear_conv u8 x i8 per-channel + bias', np.uint8, np.int8, np.uint8, (1, 3, 8, 8), (4, 3, 3, 3),
             True, True, [1, 1, 1, 1], [1, 1], 1)
qlinear_conv('qlinear_conv i8 depthwise strided', np.int8, np.int8, np.int8, (2, 4, 7, 7), (4, 1, 3, 3), False,
             False, [0, 1, 1, 0], [2, 2], 4)
dynamic_quantize('dynamic_quantize_linear mixed signs', rng.normal(size=(4, 9)).astype(np.float32))
dynamic_quantize('dynamic_quantize_linear negative', -np.abs(rng.normal(size=(13,))).astype(np.float32))

# nn.qlinear_matmul's 9th operand (a bias) is Strata's: ONNX's QLinearMatMul
# with 9 inputs is refused, not read as one.
a = q(np.uint8, (2, 3))
ins = [('a', a), ('as', scales(())), ('az', q(np.uint8, ())), ('b', q(np.uint8, (3, 2))), ('bs', scales(())),
       ('bz', q(np.uint8, ())), ('ys', scales(())), ('yz', q(np.uint8, ())), ('bias', np.zeros(2, np.int32))]
try:
    run('qlinear_matmul 9 inputs', 'QLinearMatMul', ins, [('y', np.uint8)])
    print('qlinear_matmul with 9 inputs: MISMATCH (accepted)')
except strata.StrataError as e:
    print('qlinear_matmul with 9 inputs: refused: %s' % str(e).splitlines()[-1])
