"""Int8 MatMul and Conv layers from ONNX through nn-to-dsp and
dsp-lower-operators, compiled for a target, against the nn interpreter.

Usage: qlayers.py WORKDIR TARGET SEEDS [NAME...]
Builds small one-node ONNX models (QLinearMatMul, QLinearConv, MatMulInteger,
ConvInteger; u8/s8 operands; per-tensor, per-row/column and per-channel
parameters; ragged shapes), imports each, converts it with `strata-opt
--nn-to-dsp` (checking that every quantized layer became dsp.matmul plans),
and for each of SEEDS full-range random inputs (.npy) runs the imported
model in `strata-run --interpret` and the converted one on TARGET (`cpu`:
the CPU target lowers dsp IR through dsp-lower-operators and dsp-to-vector;
`hexagon`: under qemu-hexagon). Outputs must be equal element for element.
One line per model; exits 1 on any failure."""
import os
import subprocess
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

work, target, seeds = sys.argv[1], sys.argv[2], int(sys.argv[3])
only = set(sys.argv[4:])
os.makedirs(work, exist_ok=True)
ONNX = {np.uint8: TensorProto.UINT8, np.int8: TensorProto.INT8, np.int32: TensorProto.INT32,
        np.float32: TensorProto.FLOAT}
rng = np.random.default_rng(21)


def full(dtype, shape, r=rng):
    i = np.iinfo(dtype)
    return r.integers(i.min, i.max + 1, size=shape, dtype=np.int64).astype(dtype)


def f32(*v):
    return np.array(v, dtype=np.float32)


def zp(dtype, *v):
    return np.array(v, dtype=dtype)


# name: (op, inputs [(name, dtype, shape)], initializers [(name, array)], node input order, attrs, output dtype)
U8, S8, I32 = np.uint8, np.int8, np.int32
MODELS = {
    # QLinearMatMul, u8 x s8 weights (an initializer), per tensor; K = 37 ragged
    'qlmm_u8_s8_tensor': ('QLinearMatMul', [('a', U8, [5, 37])],
                          [('as', f32(0.0066)), ('az', zp(U8, 131)), ('b', full(S8, [37, 7])), ('bs', f32(0.004)),
                           ('bz', zp(S8, -3)), ('ys', f32(0.0507)), ('yz', zp(U8, 118))],
                          ['a', 'as', 'az', 'b', 'bs', 'bz', 'ys', 'yz'], {}, U8),
    # s8 x u8 (both flipped), batched a, b an input, per-column b parameters
    'qlmm_s8_u8_column': ('QLinearMatMul', [('a', S8, [2, 3, 20]), ('b', U8, [20, 6])],
                          [('as', f32(0.01)), ('az', zp(S8, -7)), ('bs', f32(0.01, 0.002, 0.03, 0.004, 0.05, 0.007)),
                           ('bz', zp(U8, 0, 128, 255, 1, 77, 130)), ('ys', f32(0.2)), ('yz', zp(S8, 5))],
                          ['a', 'as', 'az', 'b', 'bs', 'bz', 'ys', 'yz'], {}, S8),
    # QLinearConv u8 x s8, per-channel w parameters, bias, asymmetric pads,
    # strides and dilations
    'qlconv_u8_s8_channel': ('QLinearConv', [('x', U8, [1, 3, 7, 6])],
                             [('xs', f32(0.0037)), ('xz', zp(U8, 132)), ('w', full(S8, [4, 3, 3, 3])),
                              ('ws', f32(0.0017, 0.002, 0.0005, 0.004)), ('wz', zp(S8, 0, 3, -2, 0)),
                              ('ys', f32(0.0016)), ('yz', zp(U8, 123)),
                              ('bias', np.array([1000, -2000, 0, 123456], dtype=I32))],
                             ['x', 'xs', 'xz', 'w', 'ws', 'wz', 'ys', 'yz', 'bias'],
                             {'pads': [1, 0, 2, 1], 'strides': [2, 1], 'dilations': [1, 2]}, U8),
    # s8 x s8, the weights an input, per tensor, batch 2, SAME_UPPER
    'qlconv_s8_s8_tensor': ('QLinearConv', [('x', S8, [2, 2, 5, 5]), ('w', S8, [3, 2, 2, 2])],
                            [('xs', f32(0.02)), ('xz', zp(S8, -1)), ('ws', f32(0.01)), ('wz', zp(S8, 2)),
                             ('ys', f32(0.3)), ('yz', zp(S8, -4))],
                            ['x', 'xs', 'xz', 'w', 'ws', 'wz', 'ys', 'yz'], {'auto_pad': 'SAME_UPPER'}, S8),
    # MatMulInteger u8 x u8, zero points per row of a and per column of b
    'mmint_u8_u8_rowcol': ('MatMulInteger', [('a', U8, [9, 13]), ('b', U8, [13, 5])],
                           [('az', zp(U8, 0, 1, 2, 127, 128, 129, 200, 254, 255)), ('bz', zp(U8, 3, 128, 0, 255, 90))],
                           ['a', 'b', 'az', 'bz'], {}, I32),
    # MatMulInteger s8 x s8 without zero points
    'mmint_s8_s8_nozp': ('MatMulInteger', [('a', S8, [3, 33]), ('b', S8, [33, 4])], [], ['a', 'b'], {}, I32),
    # ConvInteger u8 x s8, w zero point per output channel, strides, pads
    'convint_u8_s8_channel': ('ConvInteger', [('x', U8, [1, 2, 6, 5])],
                              [('w', full(S8, [3, 2, 3, 3])), ('xz', zp(U8, 100)), ('wz', zp(S8, -5, 0, 7))],
                              ['x', 'w', 'xz', 'wz'], {'pads': [1, 1, 1, 1], 'strides': [2, 2]}, I32),
    # ConvInteger s8 x u8, per tensor, 1x1 kernel, dilations
    'convint_s8_u8_tensor': ('ConvInteger', [('x', S8, [1, 5, 3, 4]), ('w', U8, [2, 5, 2, 1])],
                             [('xz', zp(S8, -128)), ('wz', zp(U8, 255))],
                             ['x', 'w', 'xz', 'wz'], {'dilations': [2, 1]}, I32),
}


def build(name):
    op, ins, inits, order, attrs, out = MODELS[name]
    node = helper.make_node(op, order, ['y'], **attrs)
    graph = helper.make_graph([node], name, [helper.make_tensor_value_info(n, ONNX[t], s) for n, t, s in ins],
                              [helper.make_tensor_value_info('y', ONNX[out], None)],
                              [numpy_helper.from_array(a, n) for n, a in inits])
    path = os.path.join(work, name + '.onnx')
    with open(path, 'wb') as f:
        f.write(helper.make_model(graph, opset_imports=[helper.make_opsetid('', 13)]).SerializeToString())
    return path, ins


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(' '.join(args) + ':\n' + r.stdout + r.stderr)


failed = 0
names = [n for n in MODELS if not only or n in only]
for name in names:
    model, ins = build(name)
    conv = os.path.join(work, name + '.dsp.mlir')
    verdict = 'OK'
    try:
        run(['strata-import', model, '-o', os.path.join(work, name + '.mlir')])
        run(['strata-opt', os.path.join(work, name + '.mlir'), '--nn-to-dsp', '-o', conv])
        text = open(conv).read()
        if 'dsp.matmul' not in text or any(o in text for o in ('nn.qlinear', '_integer"')):
            raise RuntimeError('nn-to-dsp left a quantized layer or wrote no dsp.matmul')
        for seed in range(seeds):
            r = np.random.default_rng(1000 * seed + len(name))
            files = []
            for n, t, s in ins:
                files += ['--input', os.path.join(work, '%s.%s.%d.npy' % (name, n, seed))]
                np.save(files[-1], full(t, s, r))
            ref, got = os.path.join(work, name + '.ref.npy'), os.path.join(work, name + '.got.npy')
            run(['strata-run', model, '--interpret', '--quiet', '--output', ref] + files)
            run(['strata-run', conv, '--target', target, '--quiet', '--output', got] + files)
            a, b = np.load(ref), np.load(got)
            if a.dtype != b.dtype or a.shape != b.shape or not np.array_equal(a, b):
                diff = int(np.sum(a != b)) if a.shape == b.shape else -1
                raise RuntimeError('seed %d: %s%s vs %s%s, %d elements differ' % (seed, a.dtype, a.shape, b.dtype,
                                                                                  b.shape, diff))
        spread = '%d distinct values' % len(np.unique(a))
    except RuntimeError as e:
        verdict = 'FAIL: ' + str(e)
    if verdict != 'OK':
        failed += 1
        print('%s: %s' % (name, verdict))
    else:
        print('%s: OK (%d seeds, %s)' % (name, seeds, spread))
print('%d models, %d failed' % (len(names), failed))
sys.exit(1 if failed else 0)
