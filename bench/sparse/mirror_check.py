"""Checks that patterns.py (the bench's pruning in PyTorch) prunes exactly as
Strata's passes do: a two-convolution model pruned by patterns.py, and
the same unpruned model pruned by strata-opt --sparse-pattern-select
--sparse-pattern-prune --sparse-connectivity-prune (the first convolution
exempt in both), must compute the same output on the same input. One
kernel pruned differently moves the output by about 1e-2 of its range;
the same weights differ only by rounding (~1e-7)."""
import os

import numpy as np
import torch

import patterns
import strata_tools as st

PASSES = ['sparse-pattern-select', 'sparse-pattern-prune', 'sparse-connectivity-prune']


class _Two(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Conv2d(16, 64, 3, padding=1)
        self.b = torch.nn.Conv2d(64, 64, 3, padding=1, stride=2)

    def forward(self, x):
        return self.b(self.a(x))


def check(work):
    """A sentence for the page."""
    torch.manual_seed(5)
    m = _Two().eval()
    x = torch.randn(1, 16, 20, 20)
    onnx = os.path.join(work, 'mirror_two.onnx')
    torch.onnx.export(m, x, onnx, opset_version=14, input_names=['x'])
    xin, out = os.path.join(work, 'mirror_x.npy'), os.path.join(work, 'mirror_y.npy')
    np.save(xin, x.numpy())
    masks = patterns.select_top([m.a.weight, m.b.weight], 8)
    with torch.no_grad():
        m.a.weight.mul_(patterns.prune_mask(m.a.weight, masks, None))
        m.b.weight.mul_(patterns.prune_mask(m.b.weight, masks, 3.6))
        ref = m(x).numpy()
    pruned = os.path.join(work, 'mirror_two.pruned.mlir')
    st.opt(st.import_onnx(onnx), pruned, ['--' + p for p in PASSES])
    st.run(pruned, 1, extra=['--input', xin], output=out)
    _, rel = st.diff(out, ref)
    verdict = 'agrees' if rel < 1e-5 else 'DISAGREES'
    return ('Pruning check: patterns.py %s with strata-opt %s on a two-convolution model (max output difference '
            '%.1e of max |y|).' % (verdict, ' '.join('--' + p for p in PASSES), rel))
