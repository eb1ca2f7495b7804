"""The model zoo of the benchmark (issue 22): models exported from PyTorch
with random weights, chosen to cover the architectures people run, each
timed at one and two threads against ONNX Runtime and PyTorch (bench/run.py
calls rows()) after its output was checked against PyTorch's.

  /usr/bin/python3 bench/zoo.py WORKDIR [--only NAME...]   -> the zoo table alone

(with build/tools on PATH; bench/run --zoo-only does the same and more).
STRATA_BENCH_ROUNDS sets the number of interleaved rounds (default 3).
"""
import hashlib
import math
import os
import re
import statistics
import subprocess
import sys
import zlib

import numpy as np
import torch
import torchvision

HERE = os.path.dirname(os.path.abspath(__file__))
REPEATS = 10  # timed runs per measurement, after a warm-up
ROUNDS = int(os.environ.get('STRATA_BENCH_ROUNDS') or 3)  # interleaved rounds per model


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
    return torch.nn.TransformerEncoder(layer, num_layers=4)


def specs():
    """(name, what it covers, constructor, input dims), in the table's order."""
    tv = torchvision.models
    img = (1, 3, 224, 224)
    return [
        ('AlexNet', 'classic, FC-heavy', lambda: tv.alexnet(weights=None), img),
        ('VGG-11', 'classic, 3x3 convolutions', lambda: tv.vgg11(weights=None), img),
        ('ResNet-18', 'residual', lambda: tv.resnet18(weights=None), img),
        ('ResNet-50', 'residual, bottleneck', lambda: tv.resnet50(weights=None), img),
        ('GoogLeNet', 'inception branches, Concat',
         lambda: tv.googlenet(weights=None, aux_logits=False, init_weights=False), img),
        ('RegNetX-400MF', 'grouped convolutions', lambda: tv.regnet_x_400mf(weights=None), img),
        ('ShuffleNetV2 x1.0', 'channel shuffle', lambda: tv.shufflenet_v2_x1_0(weights=None), img),
        ('MobileNetV2', 'inverted residuals', lambda: tv.mobilenet_v2(weights=None), img),
        ('MobileNetV3-Large', 'hard-swish, squeeze-and-excitation', lambda: tv.mobilenet_v3_large(weights=None), img),
        ('EfficientNet-B0', 'SiLU, squeeze-and-excitation, 5x5 depthwise',
         lambda: tv.efficientnet_b0(weights=None), img),
        ('ConvNeXt-T', '7x7 depthwise, LayerNorm over channels', lambda: tv.convnext_tiny(weights=None), img),
    ] + [('BERT-base 4 layers seq%d' % seq, 'encoder, GELU', lambda seq=seq: bert(seq), (1, seq, 768))
         for seq in (32, 128, 512)] + [
        ('GPT-2 block seq128', 'causal decoder block', GptBlock, (1, 128, 768)),
        ('LR-ASPP MobileNetV3', 'segmentation head, bilinear Resize', Segmenter, (1, 3, 224, 224)),
        ('U-Net 32', 'nearest Resize, Concat', Unet, (1, 3, 256, 256)),
    ]


def names():
    return [name for name, _, _, _ in specs()]


def known(only):
    """Exits if `only` names a model the zoo does not have (before a long run
    finds out)."""
    unknown = [o for o in only if o not in names()]
    if unknown:
        sys.exit('zoo: no model named %s; the models: %s' % (', '.join(map(repr, unknown)),
                                                              ', '.join(map(repr, names()))))


def models(only=()):
    """(name, what it covers, torch module, input dims), in the table's order,
    restricted to `only` if given. Each model is built and calibrated under a
    seed of its own (from its name): its weights do not depend on which
    models were built before it, so a subset (--only) gets the weights of the
    full run, and an ONNX file exported by an earlier run is this model's."""
    for name, covers, make, dims in specs():
        if only and name not in only:
            continue
        torch.manual_seed(zlib.crc32(name.encode()))
        net = make()
        calibrate(net, dims)
        yield name, covers, net, dims


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


def fingerprint(net, dims):
    """A digest of what the export depends on besides the code: the weights
    and buffers (BatchNorm statistics included), the input dims, PyTorch's
    version."""
    h = hashlib.sha1(('%s %s' % (torch.__version__, dims)).encode())
    for key, value in net.state_dict().items():
        h.update(key.encode())
        h.update(value.detach().contiguous().numpy().tobytes())
    return h.hexdigest()


def export(net, dims, name, work):
    """The model's ONNX file in `work`, exported again unless the file there
    has the same fingerprint (kept next to it, PATH.sha1): a file left by a
    run with other weights would be checked against the wrong network. A
    change to a forward() alone is not seen: remove the file."""
    path = os.path.join(work, 'zoo_' + re.sub(r'\W+', '_', name) + '.onnx')
    digest = fingerprint(net, dims)
    stamp = path + '.sha1'
    if not (os.path.exists(path) and os.path.exists(stamp) and open(stamp).read().strip() == digest):
        torch.onnx.export(net, torch.randn(*dims, generator=torch.Generator().manual_seed(0)), path,
                          opset_version=14)
        with open(stamp, 'w') as f:
            f.write(digest + '\n')
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


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def rows(work, only=(), timers=None):
    """The zoo table (markdown) with a caption and a summary line. `timers`
    is bench/run.py's module (cpu_model, strata_ms, ort_ms, torch_ms).

    This VM's speed moves by up to 2x from one minute to the next, so the
    peers are interleaved: each of ROUNDS rounds times Strata, ONNX Runtime
    and PyTorch at one thread, then the three at two threads (REPEATS runs
    each after a warm-up, their median), and the table reports the median
    over the rounds of every column, ratios being medians of the ratios of
    one round."""
    t = timers
    known(only)
    lines = ['machine: %s. Times in ms: medians over %d interleaved rounds, each of which times Strata (the JIT, '
             'strata-run), ONNX Runtime and PyTorch at one thread, then the three at two threads (each the median '
             'of %d runs after a warm-up). Ratios are medians of the ratios within a round: "x ORT" is Strata over '
             'ONNX Runtime at the same thread count, "x PyTorch" Strata over PyTorch at one thread (below 1 = Strata '
             'faster), "2T gain" Strata one thread over two.' % (t.cpu_model(), ROUNDS, REPEATS), '',
             '| model | covers | Strata | Strata 2T | ONNX Runtime | ONNX Runtime 2T | PyTorch | PyTorch 2T | '
             'x ORT | x ORT 2T | x PyTorch | 2T gain | max rel. error vs PyTorch |', '|---' * 13 + '|']
    ran, failed = [], 0
    for name, covers, net, dims in models(only):
        path = export(net, dims, name, work)
        try:
            err = check(path, net, dims, work)
        except (subprocess.CalledProcessError, RuntimeError) as e:
            why = (getattr(e, 'stderr', '') or str(e)).strip().splitlines()
            lines.append('| %s | %s | fails: %s |%s' % (name, covers, why[0] if why else 'no output', ' |' * 10))
            print(lines[-1], file=sys.stderr)
            failed += 1
            continue
        x = torch.randn(*dims, generator=torch.Generator().manual_seed(2))
        rounds = []  # (Strata, Strata 2T, ORT, ORT 2T, PyTorch, PyTorch 2T) per round
        for r in range(ROUNDS):
            s1 = t.strata_ms(path, repeats=REPEATS)
            o1 = t.ort_ms(path, dims, 1, REPEATS)
            p1 = t.torch_ms(lambda: net(x), 1, REPEATS)
            s2 = t.strata_ms(path, ['--threads', '2'], repeats=REPEATS)
            o2 = t.ort_ms(path, dims, 2, REPEATS)
            p2 = t.torch_ms(lambda: net(x), 2, REPEATS)
            rounds.append((s1, s2, o1, o2, p1, p2))
            print('  %s round %d/%d: %s' % (name, r + 1, ROUNDS, ' '.join('%.2f' % v for v in rounds[-1])),
                  file=sys.stderr)
        times = [statistics.median(column) for column in zip(*rounds)]
        ratio = lambda a, b: statistics.median(one[a] / one[b] for one in rounds)  # columns a over b
        x_ort, x_ort2, x_torch, gain = ratio(0, 2), ratio(1, 3), ratio(0, 4), ratio(0, 1)
        ran.append((x_ort, x_ort2))
        lines.append('| %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2fx | %.2fx | %.2fx | %.2fx | %.1e |' % (
            (name, covers) + tuple(times) + (x_ort, x_ort2, x_torch, gain, err)))
        print(lines[-1], file=sys.stderr)
    if ran:
        # "at or below 1.00x" as the table shows it (rounded to two decimals)
        at_most = lambda k: sum(round(r[k], 2) <= 1.0 for r in ran)
        lines += ['', 'Over the %d model%s that ran%s: geometric mean of "x ORT" %.2fx at one thread and %.2fx at '
                  'two; at or below 1.00x ORT: %d of %d at one thread, %d of %d at two.' % (
                      len(ran), 's' if len(ran) > 1 else '', ' (%d failed)' % failed if failed else '',
                      geomean([r[0] for r in ran]),
                      geomean([r[1] for r in ran]), at_most(0), len(ran), at_most(1), len(ran))]
    else:
        lines += ['', 'No model ran.']
    return '\n'.join(lines)


if __name__ == '__main__':
    sys.path.insert(0, HERE)
    import run  # the timers; it reads sys.argv[1] as its WORK
    only = sys.argv[sys.argv.index('--only') + 1:] if '--only' in sys.argv else ()
    print(rows(sys.argv[1], only, run))
