"""nn-qdq-to-qlinear's Clip/Relu in the quantized domain, compiled (Session,
the integer kernels with the clamp fused) against the float QDQ graph
compiled as written, bit for bit:
- DequantizeLinear -> Clip|Relu -> QuantizeLinear with one scale and zero
  point, on all 256 values of u8 and i8 inputs (bounds on quantization
  levels, between them, beyond the range, one-sided, min > max);
- Conv -> Clip|Relu -> QuantizeLinear where the float conv is exact (power of
  two scales, small integers: the f32 sums have no rounding) and its value
  over y_scale = 3/8 is acc/3 or 2acc/3, never a tie (where the integer op's
  f32 multiplier may round the other way), so the float graph and the
  integer conv agree and any difference would be the clamp's: ReLU6 and the
  same bounds, on random inputs driven into both bounds.
Each model is also imported and rewritten with strata-opt, to show that the
float ops are gone (or, for the inexact bound, still there).
Usage: qdq_clamp_numerics.py"""
import re
import sys

import numpy as np
from onnx import TensorProto, helper

import strata
from qdq_util import PASS, init, rewritten

rng = np.random.default_rng(3)
T = {np.uint8: TensorProto.UINT8, np.int8: TensorProto.INT8}


def clip_node(src, dst, lo, hi, inits):
    """Clip (opset 13: bounds as optional inputs; lo/hi None: absent) or,
    for lo == 'relu', a Relu."""
    if lo == 'relu':
        return helper.make_node('Relu', [src], [dst])
    ins = [src]
    for name, v in (('lo', lo), ('hi', hi)):
        if v is None:
            ins.append('')
        else:
            inits.append(init(name, np.float32(v)))
            ins.append(name)
    while ins[-1] == '':
        ins.pop()
    return helper.make_node('Clip', ins, [dst])


def model(nodes, xt, shape, yt, yshape, inits):
    g = helper.make_graph(nodes, 'm', [helper.make_tensor_value_info('x', T[xt], shape)],
                          [helper.make_tensor_value_info('y', T[yt], yshape)], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid('', 13)]).SerializeToString()


def check(name, data, x, fused):
    (f,) = strata.Session(data, cache_dir=None).run(None, {'x': x})
    (q,) = strata.Session(data, cache_dir=None, passes=PASS).run(None, {'x': x})
    ir = rewritten(data)
    # the float ops that must be gone (dead DequantizeLinears stay until nn-fold)
    floats = re.findall(r'"nn\.(?:conv|quantize_linear)"|"nn\.(?:clip|relu)"\(.*f32>\) ->', ir)
    structure = (not floats) if fused else bool(floats)
    ok = np.array_equal(f, q) and structure
    lo, hi = int(q.min()), int(q.max())
    print('%s: %s (%d of %d differ, output range [%d, %d], %s)' % (
        name, 'OK' if ok else 'MISMATCH', int((f != q).sum()), f.size, lo, hi,
        'integer' if not floats else 'float ops kept: ' + ' '.join(f.split('(')[0] for f in floats)))
    return ok


def dq_act_q(name, qt, scale, zp, lo, hi, fused=True):
    inits = [init('s', np.float32(scale)), init('z', qt(zp))]
    nodes = [helper.make_node('DequantizeLinear', ['x', 's', 'z'], ['f']), clip_node('f', 'c', lo, hi, inits),
             helper.make_node('QuantizeLinear', ['c', 's', 'z'], ['y'])]
    info = np.iinfo(qt)
    x = np.arange(info.min, info.max + 1).astype(qt).reshape(1, 256)  # every value
    return check(name, model(nodes, qt, [1, 256], qt, [1, 256], inits), x, fused)


def conv_act_q(name, yt, ys, yz, lo, hi, fused=True):
    """Conv of exact float sums: x u8 (zero point 128, scale 0.5), w in
    [-3, 3] with per-channel power-of-two scales."""
    w = rng.integers(-3, 4, size=(4, 3, 2, 2)).astype(np.int8)
    ws = np.array([0.25, 0.5, 0.25, 0.5], np.float32)  # acc / 3 or 2 acc / 3 after y_scale: no ties
    inits = [init('xs', np.float32(0.5)), init('xz', np.uint8(128)), init('wq', w), init('ws', ws),
             init('wz', np.zeros(4, np.int8)), init('ys', np.float32(ys)), init('yz', yt(yz))]
    nodes = [helper.make_node('DequantizeLinear', ['x', 'xs', 'xz'], ['xf']),
             helper.make_node('DequantizeLinear', ['wq', 'ws', 'wz'], ['wf'], axis=0),
             helper.make_node('Conv', ['xf', 'wf'], ['cf'], pads=[1, 1, 0, 0]), clip_node('cf', 'c', lo, hi, inits),
             helper.make_node('QuantizeLinear', ['c', 'ys', 'yz'], ['y'])]
    x = rng.integers(0, 256, size=(1, 3, 9, 9)).astype(np.uint8)
    return check(name, model(nodes, np.uint8, [1, 3, 9, 9], yt, [1, 4, 9, 9], inits), x, fused)


ok = True
ok &= dq_act_q('u8 relu6 (0.05, 10)', np.uint8, 0.05, 10, 0.0, 6.0)
ok &= dq_act_q('u8 clip between levels (0.1, 37)', np.uint8, 0.1, 37, -1.04, 5.97)
ok &= dq_act_q('u8 clip beyond the range', np.uint8, 0.1, 37, -100.0, 100.0)
ok &= dq_act_q('u8 clip min only', np.uint8, 0.1, 37, 0.77, None)
ok &= dq_act_q('u8 clip min > max', np.uint8, 0.1, 37, 3.0, 1.0)
ok &= dq_act_q('i8 relu (0.02, -9)', np.int8, 0.02, -9, 'relu', None)
ok &= dq_act_q('i8 clip max only', np.int8, 0.0371, 4, None, 1.5)
ok &= dq_act_q('i8 clip at the range ends', np.int8, 0.5, 0, -64.0, 63.5)
ok &= conv_act_q('conv relu6 u8', np.uint8, 0.375, 100, 0.0, 6.0)
ok &= conv_act_q('conv clip between levels u8', np.uint8, 0.375, 100, -20.1, 30.3)
ok &= conv_act_q('conv clip i8', np.int8, 0.375, -7, -12.3, 20.1)
ok &= conv_act_q('conv clip max only i8', np.int8, 0.375, -7, None, 11.0)
ok &= conv_act_q('conv clip min > max u8', np.uint8, 0.375, 100, 7.0, -7.0)
ok &= conv_act_q('conv relu i8', np.int8, 0.375, 20, 'relu', None)
ok &= conv_act_q('conv clip inexact bound (0.35 / 0.1) stays float', np.uint8, 0.1, 0, 0.35, 6.0, fused=False)
sys.exit(0 if ok else 1)
