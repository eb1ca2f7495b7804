#!/usr/bin/python3
"""Pattern-prunes torchvision's VGG-16 and ResNet-50 (random weights) in
PyTorch, the way a user prunes before exporting, and exports them to ONNX
with the zeros in the weights:

  prune_models.py OUTDIR [--models vgg16,resnet50] [--patterns 8] [--rate 3.6] [--seed 0]

Every 3x3 convolution is projected onto the model's top-k natural patterns
(the k most frequent over all its 3x3 kernels; patterns.py), then pruned
to 1/rate of its kernels by L2 norm (connectivity pruning), except the
model's first convolution (VGG-16's first 3x3 layer; ResNet-50's is its 7x7
stem, so all its 3x3 layers are pruned). The 1x1 and 7x7 convolutions and
the linear layers stay dense. The masks are applied with
torch.nn.utils.prune and made permanent before the export.

Writes OUTDIR/<model>_pattern.onnx (opset 14; PyTorch folds each eval-mode
BatchNorm into its convolution, which scales whole filters and keeps the
zeros), <model>_x.npy (the input, seeded), <model>_torch.npy (PyTorch's
output on it) and <model>_prune.json (the pattern set and per-layer counts)."""
import json
import os
import sys

import numpy as np
import torch
import torch.nn.utils.prune as tprune
import torchvision

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import patterns  # noqa: E402

DIMS = (1, 3, 224, 224)


def arg(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def prune_model(model, k, rate):
    """Prunes `model` in place; returns its summary (patterns, layers)."""
    convs = [m for m in model.modules() if isinstance(m, torch.nn.Conv2d)]
    first = convs[0]
    pat = [c for c in convs if c.kernel_size == (3, 3) and c.groups == 1]
    masks = patterns.select_top([c.weight for c in pat], k)
    layers = []
    for c in pat:
        exempt = c is first
        tprune.custom_from_mask(c, 'weight', patterns.prune_mask(c.weight, masks, None if exempt else rate))
        tprune.remove(c, 'weight')
        kernels, nnz = patterns.stats(c.weight)
        layers.append({'shape': list(c.weight.shape), 'stride': c.stride[0], 'kernels': kernels,
                       'nonzeros': nnz, 'connectivity': not exempt})
    dense = sum(c.weight.numel() for c in pat)
    kept = sum(l['nonzeros'] for l in layers)
    return {'patterns': masks, 'rate': rate, 'layers': layers, 'conv3x3_weights': dense,
            'conv3x3_kept': kept, 'conv3x3_cut': dense / kept,
            'all_conv_weights': sum(c.weight.numel() for c in convs),
            'all_conv_kept': sum(int((c.weight != 0).sum()) for c in convs)}


def pruned(name, k=8, rate=3.6, seed=0):
    """The torchvision model `name`, seeded, pruned: (model, summary). The
    same arguments give the same weights."""
    torch.manual_seed(seed)
    model = getattr(torchvision.models, name)(weights=None).eval()
    return model, prune_model(model, k, rate)


def build(name, out, k=8, rate=3.6, seed=0):
    model, summary = pruned(name, k, rate, seed)
    x = torch.randn(*DIMS, generator=torch.Generator().manual_seed(seed + 1))
    with torch.no_grad():
        y = model(x)
    stem = os.path.join(out, name)
    np.save(stem + '_x.npy', x.numpy())
    np.save(stem + '_torch.npy', y.numpy())
    torch.onnx.export(model, x, stem + '_pattern.onnx', opset_version=14, input_names=['x'], output_names=['y'])
    with open(stem + '_prune.json', 'w') as f:
        json.dump(summary, f, indent=1)
    return model, summary


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith('-'):
        sys.exit('usage: prune_models.py OUTDIR [--models vgg16,resnet50] [--patterns 8] [--rate 3.6] [--seed 0]')
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name in arg('--models', 'vgg16,resnet50').split(','):
        _, s = build(name, out, int(arg('--patterns', 8)), float(arg('--rate', 3.6)), int(arg('--seed', 0)))
        print('%s: %d 3x3 layers, patterns %s, 3x3 weights kept %d of %d (%.2fx), all conv weights %.2fx' % (
            name, len(s['layers']), [hex(m) for m in s['patterns']], s['conv3x3_kept'], s['conv3x3_weights'],
            s['conv3x3_cut'], s['all_conv_weights'] / s['all_conv_kept']))


if __name__ == '__main__':
    main()
