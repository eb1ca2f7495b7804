"""Builds ONNX models of the signal operators (HannWindow, HammingWindow,
BlackmanWindow, DFT, STFT, MelWeightMatrix) and Det on random inputs, with numpy reference
outputs (numpy.fft, numpy.linalg.det), and malformed ones (bad_*.onnx) for
their import and run-time errors. Usage: gen_signal.py OUTDIR; the cases run
through run_cases.py like gen_models.py's."""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from onnx_cases import Cases, elem, vi

OUT = sys.argv[1]
rng = np.random.default_rng(17)
C = Cases(OUT)
I64 = TensorProto.INT64


def window(kind, size, periodic):
    a0, a1, a2 = {'Hann': (0.5, 0.5, 0), 'Hamming': (25 / 46, 21 / 46, 0), 'Blackman': (0.42, 0.5, 0.08)}[kind]
    n = np.arange(size, dtype=np.float64)
    t = 2 * np.pi * n / (size if periodic else size - 1)
    return a0 - a1 * np.cos(t) + a2 * np.cos(2 * t)


# ---- Windows: the size a graph input (a run-time extent) or a constant ----
for kind in ('Hann', 'Hamming', 'Blackman'):
    for periodic in (1, 0):
        for dt, code in ((np.float32, TensorProto.FLOAT), (np.float64, TensorProto.DOUBLE)):
            name = '%s_window_p%d_%s' % (kind.lower(), periodic, np.dtype(dt).name)
            node = helper.make_node(kind + 'Window', ['n'], ['y'], periodic=periodic, output_datatype=code)
            C.case(name, [node], [('n', np.array(11, np.int64))], [window(kind, 11, periodic).astype(dt)], opset=17)
node = helper.make_node('HannWindow', ['n'], ['y'])
C.case('hann_window_const_size', [node], [], [window('Hann', 7, 1).astype(np.float32)],
       inits=[('n', np.array(7, np.int32))], opset=17)
node = helper.make_node('BlackmanWindow', ['n'], ['y'], output_datatype=TensorProto.INT32)
C.case('blackman_window_int32', [node], [('n', np.array(9, np.int32))], [window('Blackman', 9, 1).astype(np.int32)],
       opset=17)


# ---- DFT ----
def to_complex(x):
    return x[..., 0] + 1j * x[..., 1] if x.shape[-1] == 2 else x[..., 0].astype(np.complex128)


def from_complex(y, dt):
    return np.stack([y.real, y.imag], -1).astype(dt)


def dft_ref(x, axis, inverse=0, onesided=0, length=None):
    c = to_complex(x.astype(np.float64))
    n = length or c.shape[axis]
    y = np.fft.ifft(c, n, axis) if inverse else np.fft.fft(c, n, axis)
    if onesided:
        y = np.take(y, range(n // 2 + 1), axis)
    return from_complex(y, x.dtype)


DFTS = [  # name, shape, dtype, attrs, dft_length
    ('dft_real_axis1', (2, 6, 3, 1), np.float32, dict(axis=1), None),
    ('dft_complex_axis2_inverse', (2, 5, 4, 2), np.float64, dict(axis=2, inverse=1), None),
    ('dft_real_onesided', (3, 8, 1), np.float64, dict(axis=1, onesided=1), None),
    ('dft_odd_onesided_axis0', (7, 2, 1), np.float64, dict(axis=0, onesided=1), None),
    ('dft_truncated', (2, 6, 2), np.float64, dict(axis=1), 4),
    ('dft_zero_padded_inverse', (2, 6, 2), np.float64, dict(axis=1, inverse=1), 9),
    ('dft_negative_axis', (2, 3, 5, 2), np.float32, dict(axis=-3), None),
]
for name, shape, dt, attrs, length in DFTS:
    x = rng.standard_normal(shape).astype(dt)
    ins = ['x'] + (['len'] if length else [])
    inits = [('len', np.array(length, np.int64))] if length else []
    ref = dft_ref(x, attrs['axis'] % len(shape), attrs.get('inverse', 0), attrs.get('onesided', 0), length)
    C.case(name, [helper.make_node('DFT', ins, ['y'], **attrs)], [('x', x)], [ref], inits=inits, opset=17)
# opset 20: the axis an input (a constant)
x = rng.standard_normal((2, 5, 3, 1)).astype(np.float32)
C.case('dft_opset20_axis_input', [helper.make_node('DFT', ['x', '', 'ax'], ['y'])], [('x', x)], [dft_ref(x, 1)],
       inits=[('ax', np.array(-3, np.int64))], opset=20)


# ---- STFT ----
def stft_ref(sig, step, length, win=None, onesided=1):
    c = to_complex(sig.astype(np.float64))
    w = np.ones(length) if win is None else win.astype(np.float64)
    frames = (c.shape[1] - length) // step + 1
    y = np.stack([np.fft.fft(c[:, f * step:f * step + length] * w, axis=1) for f in range(frames)], 1)
    if onesided:
        y = y[:, :, :length // 2 + 1]
    return from_complex(y, sig.dtype)


sig = rng.standard_normal((2, 40, 1))
win = rng.uniform(0, 1, 10)
C.case('stft_window_runtime_step', [helper.make_node('STFT', ['s', 'step', 'w'], ['y'])],
       [('s', sig), ('step', np.array(5, np.int64)), ('w', win)], [stft_ref(sig, 5, 10, win)], opset=17)
sig = rng.standard_normal((1, 30, 2))
C.case('stft_complex_twosided_const', [helper.make_node('STFT', ['s', 'step', '', 'len'], ['y'], onesided=0)],
       [('s', sig)], [stft_ref(sig, 3, 8, None, 0)],
       inits=[('step', np.array(3, np.int64)), ('len', np.array(8, np.int64))], opset=17)
sig = rng.standard_normal((3, 21, 1)).astype(np.float32)
C.case('stft_runtime_length', [helper.make_node('STFT', ['s', 'step', '', 'len'], ['y'])],
       [('s', sig), ('step', np.array(4, np.int64)), ('len', np.array(7, np.int64))], [stft_ref(sig, 4, 7)], opset=17)
win = rng.uniform(0, 1, 6)
sig = rng.standard_normal((1, 16, 1))
C.case('stft_window_and_length', [helper.make_node('STFT', ['s', 'step', 'w', 'len'], ['y'])],
       [('s', sig), ('w', win), ('len', np.array(6, np.int64))], [stft_ref(sig, 2, 6, win)],
       inits=[('step', np.array(2, np.int64))], opset=17)


# ---- Det ----
for name, shape, dt in (('det_batched_f32', (3, 4, 4), np.float32), ('det_nd_f64', (2, 2, 5, 5), np.float64),
                        ('det_2d_f32', (3, 3), np.float32)):
    x = rng.standard_normal(shape).astype(dt)
    C.case(name, [helper.make_node('Det', ['x'], ['y'])], [('x', x)], [np.linalg.det(x.astype(np.float64)).astype(dt)],
           opset=11)
x = rng.standard_normal((3, 3, 3))
x[0, :, 1] = 0  # a zero column: 0
x[1, 2] = 2 * x[1, 0]  # dependent rows: 0 up to rounding
x[2] = np.eye(3)[[2, 0, 1]]  # a permutation needing swaps: +1
C.case('det_singular_and_permuted', [helper.make_node('Det', ['x'], ['y'])], [('x', x)], [np.linalg.det(x)], opset=11)


# ---- MelWeightMatrix: ONNX's reference formula, in float64 ----
def mel_ref(bins, dft, sr, low, high):
    rows = dft // 2 + 1
    low_mel, high_mel = 2595 * np.log10(1 + low / 700), 2595 * np.log10(1 + high / 700)
    edges = np.arange(bins + 2) * ((high_mel - low_mel) / (bins + 2)) + low_mel
    edges = np.floor((dft + 1) * (700 * (np.power(10, edges / 2595) - 1)) / sr).astype(int)
    out = np.zeros((rows, bins))
    for i in range(bins):
        lo, c, h = edges[i], edges[i + 1], edges[i + 2]
        if c == lo:
            out[c, i] = 1
        else:
            for j in range(lo, c + 1):
                out[j, i] = (j - lo) / (c - lo)
        for j in range(c, h):
            out[j, i] = (h - j) / (h - c)
    return out


MEL_NAMES = ['bins', 'dft', 'sr', 'low', 'high']
args = (13, 64, 16000, 50.0, 7000.0)
vals = [np.array(args[0], np.int64), np.array(args[1], np.int64), np.array(args[2], np.int64),
        np.array(args[3], np.float32), np.array(args[4], np.float32)]
C.case('mel_weight_matrix_runtime', [helper.make_node('MelWeightMatrix', MEL_NAMES, ['y'])],
       list(zip(MEL_NAMES, vals)), [mel_ref(*args).astype(np.float32)], opset=17)
args = (6, 40, 8000, 0.0, 4000.0)
vals = [np.array(args[0], np.int32), np.array(args[1], np.int32), np.array(args[2], np.int32),
        np.array(args[3], np.float64), np.array(args[4], np.float64)]
C.case('mel_weight_matrix_const_f64', [helper.make_node('MelWeightMatrix', MEL_NAMES, ['y'],
                                                        output_datatype=TensorProto.DOUBLE)],
       [], [mel_ref(*args)], inits=list(zip(MEL_NAMES, vals)), opset=17)


# ---- Malformed models and run-time errors ----
def bad(name, nodes, inputs, outputs, inits=(), opset=17):
    C.save(name, nodes, inputs, outputs, inits=inits, opset=opset)


F = TensorProto.FLOAT
bad('bad_dft_axis', [helper.make_node('DFT', ['x'], ['y'], name='dft', axis=-1)], [vi('x', (2, 4, 2))],
    [vi('y', (2, 4, 2))])
bad('bad_dft_onesided_complex', [helper.make_node('DFT', ['x'], ['y'], name='dft', axis=1, onesided=1)],
    [vi('x', (2, 4, 2))], [vi('y', (2, 3, 2))])
bad('bad_dft_last_dim', [helper.make_node('DFT', ['x'], ['y'], name='dft')], [vi('x', (2, 4, 3))], [vi('y', (2, 4, 2))])
bad('bad_stft_no_length', [helper.make_node('STFT', ['s', 'step'], ['y'], name='stft')],
    [vi('s', (1, 16, 1)), vi('step', (), I64)], [vi('y', (1, 1, 1, 2))])
bad('bad_stft_window_length', [helper.make_node('STFT', ['s', 'step', 'w', 'len'], ['y'], name='stft')],
    [vi('s', (1, 16, 1)), vi('w', (6,))], [vi('y', (1, 1, 1, 2))],
    inits=[('step', np.array(2, np.int64)), ('len', np.array(5, np.int64))])
bad('bad_det_not_square', [helper.make_node('Det', ['x'], ['y'], name='det')], [vi('x', (2, 3, 4))], [vi('y', (2,))],
    opset=11)
bad('bad_window_periodic', [helper.make_node('HannWindow', ['n'], ['y'], name='win', periodic=2)],
    [vi('n', (), I64)], [vi('y', (4,))])
bad('bad_window_datatype', [helper.make_node('HannWindow', ['n'], ['y'], name='win', output_datatype=8)],
    [vi('n', (), I64)], [vi('y', (4,))])
bad('bad_dft_opset', [helper.make_node('DFT', ['x'], ['y'], name='dft16')], [vi('x', (2, 4, 1))], [vi('y', (2, 4, 2))],
    opset=16)
# a frame_step of 0 given at run time
sig = rng.standard_normal((1, 16, 1)).astype(np.float32)
bad('bad_stft_step', [helper.make_node('STFT', ['s', 'step', '', 'len'], ['y'], name='stft')],
    [vi('s', sig), vi('step', (), I64)], [vi('y', (1, None, 3, 2))], inits=[('len', np.array(4, np.int64))])
np.save('%s/bad_stft_step.in0.npy' % OUT, sig)
np.save('%s/bad_stft_step.in1.npy' % OUT, np.array(0, np.int64))
# mel bands beyond the spectrogram's rows (upper edge above the Nyquist
# frequency): refused for constants, a run-time error otherwise
vals = [np.array(4, np.int64), np.array(16, np.int64), np.array(8000, np.int64), np.array(0, np.float32),
        np.array(9000, np.float32)]
bad('bad_mel_edges', [helper.make_node('MelWeightMatrix', MEL_NAMES, ['y'], name='mel')], [], [vi('y', (9, 4))],
    inits=list(zip(MEL_NAMES, vals)))
bad('bad_mel_edges_runtime', [helper.make_node('MelWeightMatrix', MEL_NAMES, ['y'], name='mel')],
    [vi(n, (), elem(v.dtype)) for n, v in zip(MEL_NAMES, vals)], [vi('y', (None, None))])
for i, v in enumerate(vals):
    np.save('%s/bad_mel_edges_runtime.in%d.npy' % (OUT, i), v)
C.finish()
