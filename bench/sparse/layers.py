"""The layers of the sparse bench: VGG-16's nine distinct 3x3 convolutions
(the thesis' Table 2.6) and ResNet-50's distinct 3x3 convolutions, found
by running the torchvision models once; each with random weights projected
onto the top-8 natural patterns of the layer and, but for the first layer
of its model, 3.6x connectivity pruning; exported alone to ONNX with the
zeros in the weights."""
import os
import re

import torch
import torchvision

import patterns
import run as bench  # bench/run.py (sparse_bench.py puts bench/ on the path)

NUM_PATTERNS = 8
RATE = 3.6


class Layer:
    """One benchmarked convolution: its torch module (pruned weights), input
    dims, ONNX file, FLOPs and what pruning kept."""

    def __init__(self, tag, conv, dims, first):
        self.tag, self.conv, self.dims, self.first = tag, conv, tuple(dims), first
        s = conv.stride[0]
        self.name = '%s %d->%d @%d%s' % (tag, conv.in_channels, conv.out_channels, dims[2],
                                         '' if s == 1 else ' /%d' % s)
        oh = (dims[2] + 2 * conv.padding[0] - 3) // s + 1
        ow = (dims[3] + 2 * conv.padding[1] - 3) // conv.stride[1] + 1
        self.pixels = oh * ow
        w = conv.weight
        self.masks = patterns.select_top([w], NUM_PATTERNS)
        with torch.no_grad():
            w.mul_(patterns.prune_mask(w, self.masks, None if first else RATE))
        self.kernels, self.nnz = patterns.stats(w)
        self.fkw_index, self.csr_index = patterns.index_bytes(w, NUM_PATTERNS)
        self.dense_flops = 2.0 * conv.out_channels * conv.in_channels * 9 * self.pixels
        self.sparse_flops = 2.0 * self.nnz * self.pixels
        self.onnx = None

    def export(self, work):
        self.onnx = os.path.join(work, 'sparse_layer_%s.onnx' % self.key())
        torch.onnx.export(self.conv, torch.randn(*self.dims), self.onnx, opset_version=14,
                          input_names=['x'], output_names=['y'])
        return self.onnx

    def key(self):
        c = self.conv
        return '%s_%dx%d_%d_s%d' % (re.sub(r'\W', '', self.tag), c.in_channels, c.out_channels, self.dims[2],
                                    c.stride[0])


def _distinct_3x3(model, dims):
    """(conv, input dims) of each distinct 3x3 Conv2d in execution order."""
    return [(conv, d) for _, conv, d, _ in bench.conv_layers('', model, dims) if conv.kernel_size == (3, 3)]


def _fresh(conv, seed):
    """A new Conv2d of the same shape with PyTorch's default (seeded) init."""
    torch.manual_seed(seed)
    return torch.nn.Conv2d(conv.in_channels, conv.out_channels, 3, stride=conv.stride,
                           padding=conv.padding, bias=conv.bias is not None).eval()


def layers(quick=False, only=()):
    """The bench's layers; `quick`: a subset (VGG L2, L4, L8, ResNet-50's
    64@56 and its first stride-2 layer); `only`: the layers whose name
    starts with one of these (e.g. 'VGG L5'), after `quick`."""
    dims = (1, 3, 224, 224)
    vgg = _distinct_3x3(torchvision.models.vgg16(weights=None).eval(), dims)
    res = _distinct_3x3(torchvision.models.resnet50(weights=None).eval(), dims)
    out = []
    for i, (conv, d) in enumerate(vgg):
        out.append(Layer('VGG L%d' % (i + 1), _fresh(conv, i), d, first=(i == 0)))
    for i, (conv, d) in enumerate(res):
        # ResNet-50's first layer is its 7x7 stem: every 3x3 layer is pruned
        out.append(Layer('ResNet-50', _fresh(conv, 100 + i), d, first=False))
    if quick:
        keep = {'VGG L2', 'VGG L4', 'VGG L8'}
        vgg_q = [l for l in out if l.tag in keep]
        res_q = [l for l in out if l.tag == 'ResNet-50'][:2]
        out = vgg_q + res_q
    if only:
        out = [l for l in out if any(l.name.startswith(t + ' ') for t in only)]
    return out


def check_layer(layer):
    """The pruned weights follow the pattern set (a bench that measured
    unpruned weights would be void)."""
    if not patterns.follows(layer.conv.weight, layer.masks):
        raise AssertionError('%s: a kernel outside the pattern set' % layer.name)
