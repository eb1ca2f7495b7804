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
C.finish()
