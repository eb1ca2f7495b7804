"""The model zoo of the benchmark (issue 22): models exported from PyTorch
with random weights, chosen to cover the architectures people run, each
timed at one and two threads against ONNX Runtime and PyTorch (bench/run.py
calls rows()) after its output was checked against PyTorch's.

  /usr/bin/python3 bench/zoo.py WORKDIR [--only NAME...]   -> the zoo table alone
"""
import math
import os
import re
import subprocess
import sys

import numpy as np
import torch
import torchvision

HERE = os.path.dirname(os.path.abspath(__file__))
REPEATS = 10


class GptBlock(torch.nn.Module):
    """A GPT-2-style decoder block: pre-LayerNorm, causal multi-head
    self-attention, a GELU MLP, residuals."""

    def __init__(self, d=768, heads=12, seq=128):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = torch.nn.LayerNorm(d), torch.nn.LayerNorm(d)
        self.qkv, self.proj = torch.nn.Linear(d, 3 * d), torch.nn.Linear(d, d)
        self.fc, self.out = torch.nn.Linear(d, 4 * d), torch.nn.Linear(4 * d, d)
        self.register_buffer('mask', torch.full((seq, seq), float('-inf')).triu(1))

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q, k, v = (z.reshape(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        att = torch.softmax(q @ k.transpose(2, 3) / math.sqrt(d // self.heads) + self.mask, dim=-1)
        x = x + self.proj((att @ v).transpose(1, 2).reshape(b, t, d))
        return x + self.out(torch.nn.functional.gelu(self.fc(self.ln2(x))))


class Segmenter(torch.nn.Module):
    """LR-ASPP over MobileNetV3-Large (torchvision's segmentation model):
    a detection/segmentation head with bilinear Resize, a sigmoid gate and
    Concat-free feature fusion; the output dict reduced to its tensor."""

    def __init__(self):
        super().__init__()
        self.net = torchvision.models.segmentation.lraspp_mobilenet_v3_large(weights=None, weights_backbone=None)

    def forward(self, x):
        return self.net(x)['out']


class Unet(torch.nn.Module):
    """A small U-Net: strided encoder, nearest-neighbour Resize up, Concat of
    the skip connections, a per-pixel head."""

    def __init__(self, c=32):
        super().__init__()
        block = lambda i, o, s: torch.nn.Sequential(torch.nn.Conv2d(i, o, 3, s, 1), torch.nn.BatchNorm2d(o),
                                                    torch.nn.ReLU())
        self.enc = torch.nn.ModuleList([block(3, c, 1), block(c, 2 * c, 2), block(2 * c, 4 * c, 2),
                                        block(4 * c, 8 * c, 2)])
        self.dec = torch.nn.ModuleList([block(12 * c, 4 * c, 1), block(6 * c, 2 * c, 1), block(3 * c, c, 1)])
        self.head = torch.nn.Conv2d(c, 21, 1)

    def forward(self, x):
        skips = []
        for e in self.enc:
            x = e(x)
            skips.append(x)
        for d, s in zip(self.dec, reversed(skips[:-1])):
            x = d(torch.cat([torch.nn.functional.interpolate(x, scale_factor=2.0, mode='nearest'), s], 1))
        return self.head(x)


def bert(seq):
    layer = torch.nn.TransformerEncoderLayer(d_model=768, nhead=12, dim_feedforward=3072, dropout=0.0,
                                             activation='gelu', batch_first=True)
    return torch.nn.TransformerEncoder(layer, num_layers=4), (1, seq, 768)


def models():
    """(name, what it covers, torch module, input dims), in the table's order."""
    tv = torchvision.models
    img = (1, 3, 224, 224)
    yield 'AlexNet', 'classic, FC-heavy', tv.alexnet(weights=None), img
    yield 'VGG-11', 'classic, 3x3 convolutions', tv.vgg11(weights=None), img
    yield 'ResNet-18', 'residual', tv.resnet18(weights=None), img
    yield 'ResNet-50', 'residual, bottleneck', tv.resnet50(weights=None), img
    yield 'GoogLeNet', 'inception branches, Concat', tv.googlenet(weights=None, aux_logits=False, init_weights=False), img
    yield 'RegNetX-400MF', 'grouped convolutions', tv.regnet_x_400mf(weights=None), img
    yield 'ShuffleNetV2 x1.0', 'channel shuffle', tv.shufflenet_v2_x1_0(weights=None), img
    yield 'MobileNetV2', 'inverted residuals', tv.mobilenet_v2(weights=None), img
    yield 'MobileNetV3-Large', 'hard-swish, squeeze-and-excitation', tv.mobilenet_v3_large(weights=None), img
    yield 'EfficientNet-B0', 'SiLU, squeeze-and-excitation, 5x5 depthwise', tv.efficientnet_b0(weights=None), img
    yield 'ConvNeXt-T', '7x7 depthwise, LayerNorm over channels', tv.convnext_tiny(weights=None), img
    for seq in (32, 128, 512):
        net, dims = bert(seq)
        yield 'BERT-base 4 layers seq%d' % seq, 'encoder, GELU', net, dims
    yield 'GPT-2 block seq128', 'causal decoder block', GptBlock(), (1, 128, 768)
    yield 'LR-ASPP MobileNetV3', 'segmentation head, bilinear Resize', Segmenter(), (1, 3, 224, 224)
    yield 'U-Net 32', 'nearest Resize, Concat', Unet(), (1, 3, 256, 256)


def calibrate(net, dims):
    """Sets BatchNorm running statistics from random batches, as training
    would: with fresh ones (mean 0, variance 1) activations shrink layer by
    layer until a deep network's output is its last bias, and a check of it
    proves nothing. Leaves the network in eval mode."""
    bns = [m for m in net.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    if bns:
        for m in bns:
            m.reset_running_stats()
            m.momentum = None  # a cumulative average over the batches below
        net.train()
        with torch.no_grad():
            for _ in range(3):
                net(torch.randn(4, *dims[1:]))
    net.eval()


def export(net, dims, name, work):
    path = os.path.join(work, 'zoo_' + re.sub(r'\W+', '_', name) + '.onnx')
    if not os.path.exists(path):
        torch.onnx.export(net, torch.randn(*dims), path, opset_version=14)
    return path


def check(path, net, dims, work):
    """Strata's output on a random input against PyTorch's: the largest
    difference relative to the output's scale. A model that does not compile
    or run raises."""
    x = torch.randn(*dims, generator=torch.Generator().manual_seed(1))
    inp, out = os.path.join(work, 'zoo_in.npy'), os.path.join(work, 'zoo_out.npy')
    np.save(inp, x.numpy())
    subprocess.run(['strata-run', path, '--quiet', '--input', inp, '--output', out], check=True,
                   capture_output=True, text=True)
    with torch.no_grad():
        want = net(x).numpy()
    got = np.load(out)
    if got.shape != want.shape:
        raise RuntimeError('%s: output shape %s, PyTorch %s' % (path, got.shape, want.shape))
    return float(np.abs(got - want).max() / max(np.abs(want).max(), 1e-30))


def rows(work, only=(), timers=None):
    """The zoo table (markdown). `timers` is bench/run.py's module (strata_ms,
    ort_ms, torch_ms)."""
    t = timers
    lines = ['| model | covers | Strata | Strata 2T | ONNX Runtime | ONNX Runtime 2T | PyTorch | PyTorch 2T | '
             'x ORT | x ORT 2T | x PyTorch | 2T gain | max rel. error vs PyTorch |', '|---' * 13 + '|']
    torch.manual_seed(0)
    for name, covers, net, dims in models():
        if only and name not in only:
            continue
        calibrate(net, dims)
        path = export(net, dims, name, work)
        try:
            err = check(path, net, dims, work)
        except (subprocess.CalledProcessError, RuntimeError) as e:
            why = (getattr(e, 'stderr', '') or str(e)).strip().splitlines()
            lines.append('| %s | %s | fails: %s |%s' % (name, covers, why[0] if why else 'no output', ' |' * 10))
            print(lines[-1], file=sys.stderr)
            continue
        x = torch.randn(*dims)
        s1, s2 = t.strata_ms(path, repeats=REPEATS), t.strata_ms(path, ['--threads', '2'], repeats=REPEATS)
        o1, o2 = t.ort_ms(path, dims, 1, REPEATS), t.ort_ms(path, dims, 2, REPEATS)
        p1, p2 = t.torch_ms(lambda: net(x), 1, REPEATS), t.torch_ms(lambda: net(x), 2, REPEATS)
        lines.append('| %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2fx | %.2fx | %.2fx | %.2fx | %.1e |' % (
            name, covers, s1, s2, o1, o2, p1, p2, s1 / o1, s2 / o2, s1 / p1, s1 / s2, err))
        print(lines[-1], file=sys.stderr)
    return '\n'.join(lines)


if __name__ == '__main__':
    work = sys.argv[1]
    sys.argv.append('--zoo')  # run.py reads its own arguments
    sys.path.insert(0, HERE)
    import run
    only = sys.argv[sys.argv.index('--only') + 1:] if '--only' in sys.argv else ()
    only = [o for o in only if o != '--zoo']
    print(rows(work, only, run))
