"""nn-qdq-to-qlinear on QDQ models from ONNX (random data): the quantized
output of the integer rewrite (Session with passes=...) is within one
quantization step of the same QDQ graph run in float, and for Gemm and
MatMul+Add equal to NumPy's integer QLinearMatMul (i32 sums, f32 multiplier,
f64 product rounded half to even).
Usage: qdq_numerics.py"""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

import strata

rng = np.random.default_rng(1)
PASS = 'func.func(nn-qdq-to-qlinear)'


def init(name, a):
    return numpy_helper.from_array(np.asarray(a), name)


def model(nodes, x_shape, y_shape, inits):
    g = helper.make_graph(nodes, 'qdq', [helper.make_tensor_value_info('x', TensorProto.UINT8, x_shape)],
                          [helper.make_tensor_value_info('y', TensorProto.UINT8, y_shape)], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid('', 13)]).SerializeToString()


def qdq_layer(op, x_shape, w, axis, bias, y_shape, attrs, relu=False, bias_add=False):
    """DQ(x) and DQ(w) -> op [+ bias Add] [-> Relu] -> Q, x uint8 per tensor,
    w int8 per channel along axis; bias: float (None: none) or ('i32', q)."""
    xs, xz, ys, yz = np.float32(0.0123), np.uint8(120), np.float32(0.0371), np.uint8(100)
    red = tuple(d for d in range(w.ndim) if d != axis)
    ws = (np.abs(w).max(axis=red) / 127).astype(np.float32)
    shape = [1] * w.ndim
    shape[axis] = -1
    wq = np.clip(np.rint(w / ws.reshape(shape)), -127, 127).astype(np.int8)
    inits = [init('xs', xs), init('xz', xz), init('wq', wq), init('ws', ws), init('wz', np.zeros_like(ws, np.int8)),
             init('ys', ys), init('yz', yz)]
    nodes = [helper.make_node('DequantizeLinear', ['x', 'xs', 'xz'], ['xf']),
             helper.make_node('DequantizeLinear', ['wq', 'ws', 'wz'], ['wf'], axis=axis)]
    ins = ['xf', 'wf']
    bq = None
    if bias is not None:
        bs = (xs * ws).astype(np.float32)
        bq = np.rint(bias / bs).astype(np.int32)
        inits += [init('bq', bq), init('bs', bs), init('bz', np.zeros_like(bq))]
        nodes.append(helper.make_node('DequantizeLinear', ['bq', 'bs', 'bz'], ['bf'], axis=0))
        if not bias_add:
            ins.append('bf')
    nodes.append(helper.make_node(op, ins, ['f'], **attrs))
    last = 'f'
    if bias_add:
        nodes.append(helper.make_node('Add', ['f', 'bf'], ['fa']))
        last = 'fa'
    if relu:
        nodes.append(helper.make_node('Relu', [last], ['fr']))
        last = 'fr'
    nodes.append(helper.make_node('QuantizeLinear', [last, 'ys', 'yz'], ['y']))
    return model(nodes, x_shape, y_shape, inits), (xs, xz, wq, ws, bq, ys, yz)


def integer_matmul(x, p, trans_b):
    xs, xz, wq, ws, bq, ys, yz = p
    w = wq.T if trans_b else wq
    acc = np.matmul(x.astype(np.int64) - int(xz), w.astype(np.int64)) + bq
    m = (xs * ws) / ys
    return np.clip(np.rint(acc.astype(np.float64) * m.astype(np.float64)) + float(yz), 0, 255).astype(np.uint8)


def check(name, data, x, reference=None):
    (f,) = strata.Session(data, cache_dir=None).run(None, {'x': x})
    (q,) = strata.Session(data, cache_dir=None, passes=PASS).run(None, {'x': x})
    steps = int(np.abs(f.astype(np.int32) - q.astype(np.int32)).max())
    ok = steps <= 1 and (reference is None or np.array_equal(q, reference))
    print('%s: %s (max %d step vs float, %d of %d differ, %d distinct values%s)' % (
        name, 'OK' if ok else 'MISMATCH', steps, int((f != q).sum()), f.size, len(np.unique(q)),
        '' if reference is None else ', integer reference ' + ('equal' if np.array_equal(q, reference) else 'DIFFERS')))
    return ok


ok = True
x = rng.integers(0, 256, size=(1, 32, 10, 10), dtype=np.uint8)
w = rng.normal(size=(16, 32, 3, 3)).astype(np.float32) * 0.05
data, _ = qdq_layer('Conv', x.shape, w, 0, rng.normal(size=16).astype(np.float32), (1, 16, 10, 10),
                    dict(pads=[1, 1, 1, 1]), relu=True)
ok &= check('conv+relu per-channel, i32 bias', data, x)
x = rng.integers(0, 256, size=(16, 512), dtype=np.uint8)
w = rng.normal(size=(32, 512)).astype(np.float32) * 0.02
data, p = qdq_layer('Gemm', x.shape, w, 0, rng.normal(size=32).astype(np.float32), (16, 32), dict(transB=1))
ok &= check('gemm transB per-channel, i32 bias', data, x, integer_matmul(x, p, True))
x = rng.integers(0, 256, size=(2, 50, 384), dtype=np.uint8)
w = rng.normal(size=(384, 24)).astype(np.float32) * 0.02
data, p = qdq_layer('MatMul', x.shape, w, 1, rng.normal(size=24).astype(np.float32), (2, 50, 24), {},
                    bias_add=True)
ok &= check('matmul+add batched per-column', data, x, integer_matmul(x, p, False))
sys.exit(0 if ok else 1)
