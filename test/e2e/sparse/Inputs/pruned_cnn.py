"""A small CNN pattern-pruned in PyTorch the way a user prunes before
exporting, for `strata-run --sparse` end to end:

  pruned_cnn.py OUTDIR [--seed S]

The model (input 2x3x16x16): four 3x3 convolutions -- 3->8 (BatchNorm, ReLU),
8->16 stride 2 (BatchNorm, ReLU), 16->16 in 2 groups with a bias (ReLU),
then a 2x2 max pool, 16->24 (BatchNorm, ReLU) -- a global average pool and
a linear head (24->10). Each BatchNorm has random statistics and is folded
into its convolution in PyTorch (torch.nn.utils.fusion), so the exported
weights are the ones pruned. Every 3x3 kernel is projected onto the 8
most frequent natural patterns (4 entries, centre kept) of the model's 3x3
kernels, and every convolution but the first keeps the ceil(M*C/3.6)
kernels of largest L2 norm (connectivity pruning), as
bench/sparse/patterns.py (the mirror of Strata's passes) does.

Writes in OUTDIR:
  pruned.onnx, dense.onnx   the pruned model, and the same model unpruned
  x.npy                     the input (seeded)
  pruned_torch.npy          PyTorch's output of the pruned model
  dense_torch.npy           PyTorch's output of the unpruned model
  dense_mirror.npy          PyTorch's output of the unpruned model pruned by
                            patterns.py (8 patterns, rate 3.6, the first
                            convolution exempt): what --sparse
                            prune=8,rate=3.6 must compute
  report.check              FileCheck lines for --sparse-report: one per
                            convolution, with the shape and the kernels kept
                            counted here
  summary                   the pattern set and the kernels kept, printed"""
import math
import os
import sys

import numpy as np
import torch
from torch.nn.utils.fusion import fuse_conv_bn_eval

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..',
                                'bench', 'sparse'))
import patterns  # noqa: E402


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.n1 = torch.nn.BatchNorm2d(8)
        self.c2 = torch.nn.Conv2d(8, 16, 3, stride=2, padding=1, bias=False)
        self.n2 = torch.nn.BatchNorm2d(16)
        self.c3 = torch.nn.Conv2d(16, 16, 3, padding=1, groups=2, bias=True)
        self.c4 = torch.nn.Conv2d(16, 24, 3, padding=1, bias=False)
        self.n4 = torch.nn.BatchNorm2d(24)
        self.fc = torch.nn.Linear(24, 10)

    def forward(self, x):
        x = torch.relu(self.n1(self.c1(x)))
        x = torch.relu(self.n2(self.c2(x)))
        x = torch.relu(self.c3(x))
        x = torch.nn.functional.max_pool2d(x, 2)
        x = torch.relu(self.n4(self.c4(x)))
        x = torch.flatten(torch.nn.functional.adaptive_avg_pool2d(x, 1), 1)
        return self.fc(x)


class Folded(torch.nn.Module):
    """Net with each BatchNorm folded into its convolution."""

    def __init__(self, net):
        super().__init__()
        self.c1 = fuse_conv_bn_eval(net.c1, net.n1)
        self.c2 = fuse_conv_bn_eval(net.c2, net.n2)
        self.c3 = net.c3
        self.c4 = fuse_conv_bn_eval(net.c4, net.n4)
        self.fc = net.fc

    def convs(self):
        return [self.c1, self.c2, self.c3, self.c4]

    def forward(self, x):
        x = torch.relu(self.c1(x))
        x = torch.relu(self.c2(x))
        x = torch.relu(self.c3(x))
        x = torch.nn.functional.max_pool2d(x, 2)
        x = torch.relu(self.c4(x))
        x = torch.flatten(torch.nn.functional.adaptive_avg_pool2d(x, 1), 1)
        return self.fc(x)


def model(seed):
    torch.manual_seed(seed)
    net = Net().eval()
    with torch.no_grad():
        for bn in (net.n1, net.n2, net.n4):  # statistics as if trained
            bn.weight.uniform_(0.5, 1.5)
            bn.bias.uniform_(-0.2, 0.2)
            bn.running_mean.uniform_(-0.2, 0.2)
            bn.running_var.uniform_(0.5, 2.0)
    return net


def prune(m, k=8, rate=3.6):
    """patterns.py's pruning of every 3x3 convolution (the first one without
    connectivity pruning), in place; returns the pattern set."""
    convs = m.convs()
    masks = patterns.select_top([c.weight for c in convs], k)
    with torch.no_grad():
        for i, c in enumerate(convs):
            c.weight.mul_(patterns.prune_mask(c.weight, masks, None if i == 0 else rate))
    return masks


def export(m, x, path):
    torch.onnx.export(m, x, path, opset_version=14, input_names=['x'], output_names=['y'])


def main():
    out = sys.argv[1]
    seed = int(sys.argv[sys.argv.index('--seed') + 1]) if '--seed' in sys.argv else 0
    os.makedirs(out, exist_ok=True)
    torch.set_grad_enabled(False)
    x = torch.randn(2, 3, 16, 16, generator=torch.Generator().manual_seed(seed + 1))
    np.save(os.path.join(out, 'x.npy'), x.numpy())

    # Unpruned, and what Strata's pruning passes must turn it into.
    dense = Folded(model(seed)).eval()
    export(dense, x, os.path.join(out, 'dense.onnx'))
    np.save(os.path.join(out, 'dense_torch.npy'), dense(x).numpy())
    prune(dense)
    np.save(os.path.join(out, 'dense_mirror.npy'), dense(x).numpy())

    # Pruned in PyTorch (another seed: other weights, other patterns).
    pruned = Folded(model(seed + 100)).eval()
    masks = prune(pruned)
    export(pruned, x, os.path.join(out, 'pruned.onnx'))
    np.save(os.path.join(out, 'pruned_torch.npy'), pruned(x).numpy())

    lines = []
    for i, c in enumerate(pruned.convs()):
        w = c.weight
        kernels, nnz = patterns.stats(w)
        M, C = w.shape[:2]
        expect = M * C if i == 0 else math.ceil(M * C / 3.6)
        assert kernels == expect and nnz == 4 * kernels, (i, kernels, nnz)
        used = set(patterns.natural_patterns(w).flatten().tolist()) if i == 0 else None
        assert used is None or used <= set(masks)
        lines.append('CHECK: sparse.fkw_conv [%d,%d,3,3] patterns={{[0-9a-fx:,]+}} kernels=%d/%d '
                     'flop-cut={{[0-9.]+}}x tuning=- index-bytes' % (M, C, kernels, M * C))
    total = sum(patterns.stats(c.weight)[0] for c in pruned.convs())
    dense_total = sum(c.weight.shape[0] * c.weight.shape[1] for c in pruned.convs())
    lines.append('CHECK: total: kernels=%d/%d {{.*}}(4 of 4 ops with an FKW form)' % (total, dense_total))
    with open(os.path.join(out, 'report.check'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print('patterns %s; kernels kept %s' % (','.join('0x%03x' % m for m in sorted(masks)),
                                            ' '.join(str(patterns.stats(c.weight)[0]) for c in pruned.convs())))


if __name__ == '__main__':
    main()
