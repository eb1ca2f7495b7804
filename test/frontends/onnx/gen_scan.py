"""ONNX Scan models (opset 8: batched, directions, sequence_lens; 9+: scan
input/output axes and directions) with random inputs and numpy references
(the scan simulated here), plus models the importer must refuse (bad_*.onnx).
Usage: gen_scan.py OUTDIR; the cases run through run_cases.py."""
import sys

import numpy as np
from onnx import TensorProto, helper

from onnx_cases import Cases, vi

OUT = sys.argv[1]
rng = np.random.default_rng(23)
C = Cases(OUT)
F, I64 = TensorProto.FLOAT, TensorProto.INT64
node = helper.make_node


def r(*shape, dtype=np.float32):
    if np.dtype(dtype).kind == 'f':
        return rng.standard_normal(shape).astype(dtype)
    return rng.integers(-9, 10, shape).astype(dtype)


def body(elem=F):
    """(s1, s2, a, b) -> (s1 + a, s2 * 0.5 + b[0], (s1 + a) * b[1], a - s2[:1]): two states, two scan
    inputs of shapes a: [3], b: [2, 3] per step, two scan outputs of shapes [3] and [3]."""
    nodes = [node('Add', ['s1', 'a'], ['s1o']),
             node('Gather', ['b', 'zero'], ['b0'], axis=0), node('Gather', ['b', 'one'], ['b1'], axis=0),
             node('Mul', ['s2', 'half'], ['s2h']), node('Add', ['s2h', 'b0'], ['s2o']),
             node('Mul', ['s1o', 'b1'], ['y1']),
             node('Gather', ['s2', 'zero'], ['s20'], axis=0), node('Sub', ['a', 's20'], ['y2'])]
    inits = [helper.make_tensor('zero', I64, (), [0]), helper.make_tensor('one', I64, (), [1]),
             helper.make_tensor('half', elem, (), [0.5])]
    return helper.make_graph(nodes, 'body', [vi('s1', (3,), elem), vi('s2', (3,), elem), vi('a', (3,), elem),
                                             vi('b', (2, 3), elem)],
                             [vi('s1o', (3,), elem), vi('s2o', (3,), elem), vi('y1', (3,), elem), vi('y2', (3,), elem)],
                             inits)


def simulate(s1, s2, a_seq, b_seq):
    """The body over the sequences (a_seq [T, 3], b_seq [T, 2, 3]), in order."""
    y1s, y2s = [], []
    for a, b in zip(a_seq, b_seq):
        y2 = a - s2[0]
        s1 = s1 + a
        s2 = s2 * np.float32(0.5) + b[0]
        y1s.append(s1 * b[1])
        y2s.append(y2)
    return s1, s2, np.stack(y1s), np.stack(y2s)


def stack_at(seq, axis, reverse):
    seq = seq[::-1] if reverse else seq
    return np.moveaxis(seq, 0, axis)


# ---- Scan-9+: a's scan axis 1 of [3, T], read backwards; b's axis -1 of [2, 3, T];
# y1 stacked along axis 1 backwards, y2 along axis 0.
T = 5
s1, s2 = r(3), r(3)
a_in, b_in = r(3, T), r(2, 3, T)
a_seq = np.moveaxis(a_in, 1, 0)[::-1]
b_seq = np.moveaxis(b_in, 2, 0)
f1, f2, y1, y2 = simulate(s1, s2, a_seq, b_seq)
scan = node('Scan', ['s1', 's2', 'a', 'b'], ['f1', 'f2', 'y1', 'y2'], body=body(), num_scan_inputs=2,
            scan_input_axes=[1, -1], scan_input_directions=[1, 0], scan_output_axes=[1, 0],
            scan_output_directions=[1, 0])
C.case('scan9_axes_directions', [scan, node('Identity', ['y1'], ['y'])],
       [('s1', s1), ('s2', s2), ('a', a_in), ('b', b_in)], [stack_at(y1, 1, True)], opset=11)
# Every output of the same scan: its final states and the second scan output.
for k, (name, ref) in enumerate([('f1', f1), ('f2', f2), ('y2', stack_at(y2, 0, False))]):
    C.case('scan9_output_' + name, [scan, node('Identity', [name], ['y'])],
           [('s1', s1), ('s2', s2), ('a', a_in), ('b', b_in)], [ref], opset=16)
# Defaults (axes 0, forward) in f64.
a_in, b_in, s1, s2 = r(4, 3, dtype=np.float64), r(4, 2, 3, dtype=np.float64), r(3, dtype=np.float64), r(3, dtype=np.float64)
scan = node('Scan', ['s1', 's2', 'a', 'b'], ['f1', 'f2', 'y1', 'y2'], body=body(TensorProto.DOUBLE), num_scan_inputs=2)
C.case('scan9_defaults_f64', [scan, node('Identity', ['y1'], ['y'])], [('s1', s1), ('s2', s2), ('a', a_in), ('b', b_in)],
       [simulate(s1, s2, a_in, b_in)[2]], opset=9)

# ---- Scan-8: batch dim 0, time dim 1; a read backwards; sequence_lens
# absent, a constant of full lengths, or shorter ones.
Bn, T = 2, 4
s1, s2, a_in, b_in = r(Bn, 3), r(Bn, 3), r(Bn, T, 3), r(Bn, T, 2, 3)
refs = [simulate(s1[i], s2[i], a_in[i][::-1], b_in[i]) for i in range(Bn)]
for lens, suffix in [('', 'nolens'), ('lens', 'fulllens')]:
    scan = node('Scan', [lens, 's1', 's2', 'a', 'b'], ['f1', 'f2', 'y1', 'y2'], body=body(), num_scan_inputs=2,
                directions=[1, 0])
    inits = [('lens', np.full(Bn, T, np.int64))] if lens else []
    for name, k in [('y1', 2), ('f2', 1), ('y2', 3)]:
        C.case('scan8_%s_%s' % (suffix, name), [scan, node('Identity', [name], ['y'])],
               [('s1', s1), ('s2', s2), ('a', a_in), ('b', b_in)], [np.stack([ref[k] for ref in refs])],
               inits=inits, opset=8)
# sequence_lens shorter than T: entry i scans its first lens[i] steps (a
# backwards from lens[i] - 1), its scan outputs are zero from lens[i] on.
lens = np.array([4, 2], np.int64)


def padded(v):
    return np.concatenate([v, np.zeros((T - len(v),) + v.shape[1:], v.dtype)])


refs = [simulate(s1[i], s2[i], a_in[i][:n][::-1], b_in[i][:n]) for i, n in enumerate(lens)]
scan = node('Scan', ['lens', 's1', 's2', 'a', 'b'], ['f1', 'f2', 'y1', 'y2'], body=body(), num_scan_inputs=2,
            directions=[1, 0])
for name, k in [('f1', 0), ('y1', 2), ('y2', 3)]:
    C.case('scan8_shortlens_' + name, [scan, node('Identity', [name], ['y'])],
           [('s1', s1), ('s2', s2), ('a', a_in), ('b', b_in)],
           [np.stack([ref[k] if k < 2 else padded(ref[k]) for ref in refs])], inits=[('lens', lens)], opset=8)
# The same lengths known only at run time (checked to lie in [1, T]).
for name, k in [('f1', 0), ('y1', 2)]:
    C.case('scan8_runtimelens_' + name, [scan, node('Identity', [name], ['y'])],
           [('lens', lens), ('s1', s1), ('s2', s2), ('a', a_in), ('b', b_in)],
           [np.stack([ref[k] if k < 2 else padded(ref[k]) for ref in refs])], opset=8)
np.save(C.out + '/lens_too_long.npy', np.array([4, 5], np.int64))  # for scan.test
C.finish()

# ---- Refused ----
scan8 = node('Scan', ['lens', 's1', 's2', 'a', 'b'], ['f1', 'f2', 'y1', 'y2'], name='sc', body=body(),
             num_scan_inputs=2)
ins8 = [vi('s1', (2, 3)), vi('s2', (2, 3)), vi('a', (2, 4, 3)), vi('b', (2, 4, 2, 3))]
C.save('bad_scan8_zero_len', [scan8], ins8, [vi('y1', (2, 4, 3))],
       [('lens', np.array([4, 0], np.int64))], opset=8)
C.save('bad_scan8_lens_shape', [scan8], [vi('lens', (3,), I64)] + ins8, [vi('y1', (2, 4, 3))], opset=8)
scan9 = node('Scan', ['s1', 's2', 'a', 'b'], ['f1', 'f2', 'y1', 'y2'], name='sc', body=body(), num_scan_inputs=2)
C.save('bad_scan9_lengths', [scan9], [vi('s1', (3,)), vi('s2', (3,)), vi('a', (4, 3)), vi('b', (5, 2, 3))],
       [vi('y1', (4, 3))], opset=9)
C.save('bad_scan9_dynamic', [scan9], [vi('s1', (3,)), vi('s2', (3,)), vi('a', ('t', 3)), vi('b', ('t', 2, 3))],
       [vi('y1', ('t', 3))], opset=9)
C.save('bad_scan9_direction', [node('Scan', ['s1', 's2', 'a', 'b'], ['f1', 'f2', 'y1', 'y2'], name='sc', body=body(),
                                    num_scan_inputs=2, scan_input_directions=[0, 2])],
       [vi('s1', (3,)), vi('s2', (3,)), vi('a', (4, 3)), vi('b', (4, 2, 3))], [vi('y1', (4, 3))], opset=9)
C.save('bad_scan9_state_type', [node('Scan', ['s1', 's2', 'a', 'b'], ['f1', 'f2', 'y1', 'y2'], name='sc', body=body(),
                                     num_scan_inputs=2)],
       [vi('s1', (1,)), vi('s2', (3,)), vi('a', (4, 3)), vi('b', (4, 2, 3))], [vi('y1', (4, 3))], opset=9)
