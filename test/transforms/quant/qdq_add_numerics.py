"""nn-qdq-to-qlinear's residual Add (DequantizeLinear x2 -> Add [-> Relu|Clip]
-> QuantizeLinear, transforms/quant/qdq_add.c) compiled (the lookup kernel,
runtime/qlookup.c, or the gather's loops where the Add broadcasts) against
the nn interpreter on the float QDQ graph, bit for bit: on all 65536 pairs
of 8-bit inputs (a along one dim, b along the other) for u8 and i8 operands
in every combination, with and without a Relu or Clip, power-of-two scales
whose sums land on exact half steps (ties), one tensor added to itself,
random tensors whose element count is no multiple of 16, broadcasting
operands; and one chain that stays float (an infinite scale: NaN in the
chain). Each model is also rewritten with strata-opt to show the float Add
gone (or kept). STRATA_RT_ISA picks the kernel's instruction set.
Usage: qdq_add_numerics.py"""
import re
import sys

import numpy as np
from onnx import TensorProto, helper

import strata
from qdq_util import PASS, init, rewritten

rng = np.random.default_rng(5)
T = {np.uint8: TensorProto.UINT8, np.int8: TensorProto.INT8}


def add_model(ta, sa, za, tb, sb, zb, ty, sy, zy, act, ashape, bshape, yshape, same=False):
    inits = [init('sa', np.float32(sa)), init('za', ta(za)), init('sb', np.float32(sb)), init('zb', tb(zb)),
             init('sy', np.float32(sy)), init('zy', ty(zy))]
    nodes = [helper.make_node('DequantizeLinear', ['a', 'sa', 'za'], ['fa'])]
    if not same:
        nodes.append(helper.make_node('DequantizeLinear', ['b', 'sb', 'zb'], ['fb']))
    nodes.append(helper.make_node('Add', ['fa', 'fa' if same else 'fb'], ['s']))
    last = 's'
    if act == 'relu':
        nodes.append(helper.make_node('Relu', ['s'], ['r']))
        last = 'r'
    elif act:
        inits += [init('lo', np.float32(act[0])), init('hi', np.float32(act[1]))]
        nodes.append(helper.make_node('Clip', ['s', 'lo', 'hi'], ['r']))
        last = 'r'
    nodes.append(helper.make_node('QuantizeLinear', [last, 'sy', 'zy'], ['y']))
    ins = [helper.make_tensor_value_info('a', T[ta], ashape)]
    if not same:
        ins.append(helper.make_tensor_value_info('b', T[tb], bshape))
    g = helper.make_graph(nodes, 'm', ins, [helper.make_tensor_value_info('y', T[ty], yshape)], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid('', 13)]).SerializeToString()


def every(t, axis):
    """The 256 values of t along `axis` of a [1, 256, 256] tensor."""
    info = np.iinfo(t)
    v = np.arange(info.min, info.max + 1).astype(t)
    return np.broadcast_to(v.reshape((1, 256, 1) if axis == 1 else (1, 1, 256)), (1, 256, 256)).copy()


def check(name, data, feeds, fused=True):
    (ref,) = strata.Session(data, target='interpreter', cache_dir=None).run(None, feeds)
    (got,) = strata.Session(data, cache_dir=None, passes=PASS, threads=2).run(None, feeds)
    ir = rewritten(data)
    floats = re.findall(r'"nn\.(?:add|relu|clip)"\(.*f32>\) ->', ir)
    gathers = len(re.findall(r'"nn\.gather"', ir))
    structure = (not floats and gathers == 1) if fused else (bool(floats) and not gathers)
    ok = np.array_equal(ref, got) and structure
    print('%s: %s (%d of %d differ, output range [%d, %d], %s)' % (
        name, 'OK' if ok else 'MISMATCH', int((ref != got).sum()), ref.size, int(got.min()), int(got.max()),
        'table' if not floats else 'float ops kept: ' + ' '.join(f.split('(')[0] for f in floats)))
    return ok


def all_pairs(name, ta, sa, za, tb, sb, zb, ty, sy, zy, act=None):
    shape = [1, 256, 256]
    data = add_model(ta, sa, za, tb, sb, zb, ty, sy, zy, act, shape, shape, shape)
    return check(name, data, {'a': every(ta, 1), 'b': every(tb, 2)})


def rand8(t, shape):
    info = np.iinfo(t)
    return rng.integers(info.min, info.max + 1, size=shape).astype(t)


ok = True
ok &= all_pairs('u8 + u8, relu', np.uint8, 0.0213, 117, np.uint8, 0.0377, 98, np.uint8, 0.0291, 0, 'relu')
ok &= all_pairs('u8 + u8', np.uint8, 0.0213, 117, np.uint8, 0.0377, 98, np.uint8, 0.0491, 131)
ok &= all_pairs('i8 + u8, clip', np.int8, 0.011, -3, np.uint8, 0.05, 200, np.uint8, 0.031, 12, (-1.3, 4.7))
ok &= all_pairs('u8 + i8 into i8', np.uint8, 0.07, 0, np.int8, 0.003, 17, np.int8, 0.043, -20)
ok &= all_pairs('i8 + i8 into i8, relu', np.int8, 0.125, 0, np.int8, 0.0625, -5, np.int8, 0.25, -128, 'relu')
ok &= all_pairs('ties: powers of two', np.uint8, 0.5, 128, np.uint8, 0.25, 3, np.uint8, 1.0, 128)
# scales where the f32 quotient v / sy rounds the other way than f64's at some pairs
ok &= all_pairs('u8 + u8, f64 quotient', np.uint8, 0.031, 77, np.uint8, 0.017, 140, np.uint8, 0.04, 9, 'relu')
ok &= all_pairs('saturating output scale', np.uint8, 0.3, 10, np.uint8, 0.2, 250, np.uint8, 0.01, 100, 'relu')
ok &= check('one tensor added to itself', add_model(np.uint8, 0.0173, 90, np.uint8, 0, 0, np.uint8, 0.0219, 7,
                                                    'relu', [1, 256], None, [1, 256], same=True),
            {'a': np.arange(256).astype(np.uint8).reshape(1, 256)})
shape = [2, 5, 13, 11]  # 1430 elements: 16-element steps and a tail
ok &= check('random 2x5x13x11 (a tail)', add_model(np.uint8, 0.031, 77, np.uint8, 0.017, 140, np.uint8, 0.04, 9,
                                                   'relu', shape, shape, shape),
            {'a': rand8(np.uint8, shape), 'b': rand8(np.uint8, shape)})
shape = [3, 64, 70, 70]  # several blocks, threaded
ok &= check('random 3x64x70x70 i8 (blocks)', add_model(np.int8, 0.031, 7, np.int8, 0.017, -14, np.int8, 0.04, 9,
                                                       None, shape, shape, shape),
            {'a': rand8(np.int8, shape), 'b': rand8(np.int8, shape)})
ok &= check('broadcast [2,1,7] + [3,1]', add_model(np.uint8, 0.05, 128, np.int8, 0.02, 0, np.uint8, 0.06, 100,
                                                   'relu', [2, 1, 7], [3, 1], [2, 3, 7]),
            {'a': rand8(np.uint8, [2, 1, 7]), 'b': rand8(np.int8, [3, 1])})
ok &= check('infinite scale stays float', add_model(np.uint8, np.inf, 128, np.uint8, 0.02, 0, np.uint8, 0.06, 100,
                                                    None, [1, 64], [1, 64], [1, 64]),
            {'a': rand8(np.uint8, [1, 64]), 'b': rand8(np.uint8, [1, 64])}, fused=False)
sys.exit(0 if ok else 1)
