"""Builds ONNX models of the operators added for issue 18's missing
operators (Einsum, ...) with numpy reference outputs, and malformed ones
(bad_*.onnx) for their import errors. Usage: gen_moreops.py OUTDIR; the
cases run through run_cases.py like gen_models.py's."""
import sys

import numpy as np
from onnx import TensorProto, helper

from onnx_cases import Cases, vi

OUT = sys.argv[1]
rng = np.random.default_rng(18)
C = Cases(OUT)


def r(*shape, dtype=np.float32):
    if np.dtype(dtype).kind == 'f':
        return rng.standard_normal(shape).astype(dtype)
    return rng.integers(-5, 6, shape).astype(dtype)


# ---- Einsum: two operands map to nn.einsum, more chain pairwise ----
EINSUM = [
    ('einsum_chain3', 'ij,jk,kl->il', [(3, 4), (4, 5), (5, 2)], np.float32),
    ('einsum_chain3_implicit', 'ab,bc,cd', [(2, 3), (3, 4), (4, 2)], np.float32),
    ('einsum_chain_ellipsis', '...ij,...jk,...k', [(2, 1, 3, 4), (5, 4, 2), (2,)], np.float32),
    ('einsum_chain_diag', 'ii,i,ij->j', [(3, 3), (3,), (3, 4)], np.float32),
    ('einsum_chain4_sum', 'i,ij,jk,k->', [(2,), (2, 3), (3, 4), (4,)], np.float64),
    ('einsum_i64', 'bij,bjk->bki', [(2, 3, 4), (2, 4, 2)], np.int64),
    ('einsum_bilinear', 'bn,anm,bm->ba', [(2, 3), (4, 3, 5), (2, 5)], np.float32),
]
for name, eq, shapes, dt in EINSUM:
    ins = [('x%d' % i, r(*s, dtype=dt)) for i, s in enumerate(shapes)]
    ref = np.einsum(eq, *[a for _, a in ins]).astype(dt)
    C.case(name, [helper.make_node('Einsum', [n for n, _ in ins], ['y'], equation=eq)], ins, [np.asarray(ref)],
           opset=12)


# ---- ReverseSequence (batch-major, a rank-3 x, lengths as graph inputs) ----
x = r(3, 5, 2, dtype=np.int32)
lens = np.array([5, 0, 3], np.int64)
want = x.copy()
for b, n in enumerate(lens):
    want[b, :n] = x[b, :n][::-1]
C.case('reverse_sequence_batch_major', [helper.make_node('ReverseSequence', ['x', 'l'], ['y'], batch_axis=0,
                                                         time_axis=1)], [('x', x), ('l', lens)], [want], opset=10)


# ---- RNN, GRU, LSTM against a numpy reference written from the ONNX spec ----
ACTS = {'Tanh': lambda x, a, b: np.tanh(x), 'Sigmoid': lambda x, a, b: 1 / (1 + np.exp(-x)),
        'Relu': lambda x, a, b: np.maximum(x, 0), 'LeakyRelu': lambda x, a, b: np.where(x >= 0, x, a * x),
        'HardSigmoid': lambda x, a, b: np.clip(a * x + b, 0, 1), 'Affine': lambda x, a, b: a * x + b}
DEFAULTS = {'LeakyRelu': (0.01, 0), 'HardSigmoid': (0.2, 0.5), 'Affine': (1.0, 0.0)}


def recurrent(op, x, w, r, b, lens, h0, c0, p, direction='forward', acts=None, alphas=(), betas=(), clip=None,
              lbr=0, input_forget=0, layout=0):
    G = {'RNN': 1, 'GRU': 3, 'LSTM': 4}[op]
    k = {'RNN': 1, 'GRU': 2, 'LSTM': 3}[op]
    D = 2 if direction == 'bidirectional' else 1
    if layout:
        x = x.transpose(1, 0, 2)
        h0 = None if h0 is None else h0.transpose(1, 0, 2)
        c0 = None if c0 is None else c0.transpose(1, 0, 2)
    T, N, _ = x.shape
    H = r.shape[2]
    acts = acts or {'RNN': ['Tanh'], 'GRU': ['Sigmoid', 'Tanh'], 'LSTM': ['Sigmoid', 'Tanh', 'Tanh']}[op] * D
    al, be, fns = list(alphas), list(betas), []
    for a in acts:  # alpha/beta consumed in order by the activations that take them
        da, db = DEFAULTS.get(a, (0, 0))
        aa = al.pop(0) if a in DEFAULTS and al else da
        bb = be.pop(0) if a in ('HardSigmoid', 'Affine') and be else db
        fns.append(lambda v, a=a, aa=aa, bb=bb: ACTS[a](v, aa, bb))
    cl = (lambda v: np.clip(v, -clip, clip)) if clip is not None else (lambda v: v)
    lens = np.full(N, T) if lens is None else lens
    y = np.zeros((T, D, N, H), x.dtype)
    yh = np.zeros((D, N, H), x.dtype)
    yc = np.zeros((D, N, H), x.dtype)
    for d in range(D):
        f, g, hf = (fns[d * k:(d + 1) * k] + [None, None])[:3]
        W, R = w[d], r[d]
        Wb, Rb = (b[d][:G * H], b[d][G * H:]) if b is not None else (np.zeros(G * H), np.zeros(G * H))
        P = p[d] if p is not None else np.zeros(3 * H)
        h = h0[d].copy() if h0 is not None else np.zeros((N, H))
        c = c0[d].copy() if c0 is not None else np.zeros((N, H))
        steps = range(T - 1, -1, -1) if (d == 1 or direction == 'reverse') else range(T)
        for t in steps:
            live = (t < lens)[:, None]
            xw = x[t] @ W.T + Wb
            hr = h @ R.T + Rb
            gate = lambda v, i: v[:, i * H:(i + 1) * H]
            if op == 'RNN':
                hn, cn = f(cl(gate(xw, 0) + gate(hr, 0))), c
            elif op == 'GRU':
                z = f(cl(gate(xw, 0) + gate(hr, 0)))
                rr = f(cl(gate(xw, 1) + gate(hr, 1)))
                if lbr:
                    hh = g(cl(gate(xw, 2) + rr * gate(hr, 2)))
                else:
                    hh = g(cl(gate(xw, 2) + (rr * h) @ gate(R.T, 2) + gate(Rb[None], 2)))
                hn, cn = (1 - z) * hh + z * h, c
            else:
                i = f(cl(gate(xw, 0) + gate(hr, 0) + P[:H] * c))
                fg = 1 - i if input_forget else f(cl(gate(xw, 2) + gate(hr, 2) + P[2 * H:] * c))
                cn = fg * c + i * g(cl(gate(xw, 3) + gate(hr, 3)))
                o = f(cl(gate(xw, 1) + gate(hr, 1) + P[H:2 * H] * cn))
                hn = o * hf(cn)
            y[t, d] = np.where(live, hn, 0)
            h, c = np.where(live, hn, h), np.where(live, cn, c)
        yh[d], yc[d] = h, c
    if layout:
        y, yh, yc = y.transpose(2, 0, 1, 3), yh.transpose(1, 0, 2), yc.transpose(1, 0, 2)
    return [v.astype(x.dtype) for v in (y, yh, yc)]


RECURRENT = [
    ('rnn_bidir_lens_leaky', 'RNN', dict(direction='bidirectional', acts=['Tanh', 'LeakyRelu'], alphas=[0.2]),
     dict(b=1, lens=[4, 2, 0], h0=1)),
    ('rnn_reverse_affine_clip', 'RNN', dict(direction='reverse', acts=['Affine'], alphas=[0.7], betas=[0.1], clip=0.6),
     dict(b=1)),
    ('gru_reset_before_bidir_layout1', 'GRU', dict(direction='bidirectional', layout=1), dict(b=1, lens=[1, 4, 3], h0=1)),
    ('gru_lbr_reverse_hardsigmoid', 'GRU', dict(direction='reverse', lbr=1, acts=['HardSigmoid', 'Tanh'],
                                                alphas=[0.3], betas=[0.4]), dict(b=1, h0=1)),
    ('lstm_bidir_peepholes_lens', 'LSTM', dict(direction='bidirectional'), dict(b=1, lens=[3, 4, 1], h0=1, c0=1, p=1)),
    ('lstm_input_forget_clip_layout1', 'LSTM', dict(input_forget=1, clip=0.8, layout=1), dict(b=1, c0=1, p=1)),
    ('lstm_reverse_relu', 'LSTM', dict(direction='reverse', acts=['Sigmoid', 'Relu', 'Tanh']), dict()),
]
T, N, I, H = 4, 3, 5, 3
for name, op, attrs, ins in RECURRENT:
    G = {'RNN': 1, 'GRU': 3, 'LSTM': 4}[op]
    D = 2 if attrs.get('direction') == 'bidirectional' else 1
    lay = attrs.get('layout', 0)
    st = (N, D, H) if lay else (D, N, H)
    vals = {'x': r(*((N, T, I) if lay else (T, N, I))), 'w': r(D, G * H, I), 'r': r(D, G * H, H),
            'b': r(D, 2 * G * H) if ins.get('b') else None,
            'lens': np.array(ins['lens'], np.int32) if 'lens' in ins else None,
            'h0': r(*st) if ins.get('h0') else None, 'c0': r(*st) if ins.get('c0') else None,
            'p': r(D, 3 * H) if ins.get('p') else None}
    order = ['x', 'w', 'r', 'b', 'lens', 'h0'] + (['c0', 'p'] if op == 'LSTM' else [])
    node_attrs = {'hidden_size': H}
    for key, onnx_name in (('direction', 'direction'), ('acts', 'activations'), ('alphas', 'activation_alpha'),
                           ('betas', 'activation_beta'), ('clip', 'clip'), ('lbr', 'linear_before_reset'),
                           ('input_forget', 'input_forget'), ('layout', 'layout')):
        if key in attrs:
            node_attrs[onnx_name] = attrs[key]
    outs = recurrent(op, vals['x'], vals['w'], vals['r'], vals['b'], vals['lens'], vals['h0'], vals['c0'],
                     vals['p'], **attrs)
    present = [(n, vals[n]) for n in order if vals[n] is not None]
    names = [n if vals[n] is not None else '' for n in order]
    while names and not names[-1]:
        names.pop()
    # One case per output (a case checks its first output).
    for k_out in range(3 if op == 'LSTM' else 2):
        node_outs = ['', '', ''][:k_out] + ['y']
        C.case('%s_out%d' % (name, k_out), [helper.make_node(op, names, node_outs, **node_attrs)], present,
               [outs[k_out]], opset=14)


def bad(name, nodes, inputs, outputs, opset=12):
    C.save(name, nodes, inputs, outputs, opset=opset)


bad('bad_einsum_unknown_result', [helper.make_node('Einsum', ['a', 'b'], ['y'], name='es', equation='ij,jk->iq')],
    [vi('a', (2, 3)), vi('b', (3, 4))], [vi('y', (2, 4))])
bad('bad_einsum_chain_terms', [helper.make_node('Einsum', ['a', 'b', 'c'], ['y'], name='es3', equation='ij,jk->ik')],
    [vi('a', (2, 3)), vi('b', (3, 4)), vi('c', (4,))], [vi('y', (2, 4))])
bad('bad_einsum_sizes', [helper.make_node('Einsum', ['a', 'b'], ['y'], name='es2', equation='ij,jk')],
    [vi('a', (2, 3)), vi('b', (4, 4))], [vi('y', (2, 4))])
bad('bad_einsum_opset', [helper.make_node('Einsum', ['a'], ['y'], name='es11', equation='ii')],
    [vi('a', (2, 2))], [vi('y', ())], opset=11)
# sequence_lens outside [0, seq] is an error at run time (inputs written
# like a case's, not listed in cases.txt).
x, w, rr = r(4, 2, 5), r(1, 3, 5), r(1, 3, 3)
C.save('bad_rnn_lens', [helper.make_node('RNN', ['x', 'w', 'r', '', 'l'], ['y'], name='rnn', hidden_size=3)],
       [vi('x', x), vi('w', w), vi('r', rr), vi('l', (2,), TensorProto.INT32)], [vi('y', (4, 1, 2, 3))], opset=14)
for i, a in enumerate([x, w, rr, np.array([2, 5], np.int32)]):
    np.save('%s/bad_rnn_lens.in%d.npy' % (OUT, i), a)
xs = r(4, 2)
C.save('bad_reverse_sequence_lens', [helper.make_node('ReverseSequence', ['x', 'l'], ['y'], name='rs')],
       [vi('x', xs), vi('l', (2,), TensorProto.INT64)], [vi('y', (4, 2))], opset=10)
for i, a in enumerate([xs, np.array([-1, 2], np.int64)]):
    np.save('%s/bad_reverse_sequence_lens.in%d.npy' % (OUT, i), a)
C.finish()
