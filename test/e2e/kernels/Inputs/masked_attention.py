"""Masked attention (a GPT-style causal mask of -inf, a padding mask of
-1e4) for the runtime softmax kernel.

  masked_attention.py gen DIR          -> DIR/attn.onnx, DIR/{q,k,v}.npy
  masked_attention.py check DIR P.npy O.npy
      the probabilities P and the output O against float64 numpy: masked
      entries exactly 0 (no denormal 2^-126 / sum left by an exp clamped at
      the bottom of the normal range), nothing denormal, O within 1e-5.
"""
import os
import sys

import numpy as np

T, D = 37, 24  # a row tail past every vector width; a GEMM tile tail


def mask():
    m = np.triu(np.full((T, T), -np.inf, np.float32), 1)  # causal
    m[:, T - 3:] = np.minimum(m[:, T - 3:], -1e4)  # padded keys (the last row keeps 34 others)
    return m


def gen(d):
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    f = TensorProto.FLOAT
    nodes = [helper.make_node('Transpose', ['k'], ['kt'], perm=[0, 2, 1]),
             helper.make_node('MatMul', ['q', 'kt'], ['s']),
             helper.make_node('Div', ['s', 'scale'], ['ss']),
             helper.make_node('Add', ['ss', 'mask'], ['sm']),
             helper.make_node('Softmax', ['sm'], ['p'], axis=-1),
             helper.make_node('MatMul', ['p', 'v'], ['o'])]
    inits = [numpy_helper.from_array(mask(), 'mask'),
             numpy_helper.from_array(np.array(np.sqrt(D), np.float32), 'scale')]
    ins = [helper.make_tensor_value_info(n, f, [2, T, D]) for n in 'qkv']
    outs = [helper.make_tensor_value_info('p', f, [2, T, T]), helper.make_tensor_value_info('o', f, [2, T, D])]
    g = helper.make_graph(nodes, 'masked_attention', ins, outs, inits)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid('', 14)]), os.path.join(d, 'attn.onnx'))
    rng = np.random.default_rng(7)
    for n in 'qkv':
        np.save(os.path.join(d, n + '.npy'), rng.standard_normal((2, T, D)).astype(np.float32))


def check(d, pfile, ofile):
    q, k, v = (np.load(os.path.join(d, n + '.npy')).astype(np.float64) for n in 'qkv')
    s = q @ k.transpose(0, 2, 1) / np.sqrt(D) + mask()
    e = np.exp(s - s.max(-1, keepdims=True))
    want_p = e / e.sum(-1, keepdims=True)
    want_o = want_p @ v
    p, o = np.load(pfile), np.load(ofile)
    masked = np.broadcast_to(np.isneginf(mask()) | (mask() <= -1e4), p.shape)
    tiny = np.finfo(np.float32).tiny
    print('masked entries not exactly 0: %d of %d' % (int((p[masked] != 0).sum()), int(masked.sum())))
    print('denormal probabilities: %d' % int(((p != 0) & (np.abs(p) < tiny)).sum()))
    ep, eo = np.abs(p - want_p).max(), np.abs(o - want_o).max()
    print('probabilities %s, output %s' % ('close' if ep < 1e-5 else 'FAIL %g' % ep,
                                           'close' if eo < 1e-5 else 'FAIL %g' % eo))


if __name__ == '__main__':
    if sys.argv[1] == 'gen':
        gen(sys.argv[2])
    else:
        check(*sys.argv[2:5])
