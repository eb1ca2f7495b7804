"""Dynamic shapes (issue 19): one compile, many shapes, against Strata's own
static compile of each shape and against ONNX Runtime on the same model.

Models (random weights): torchvision's ResNet-18 with a dynamic batch and
resolution, and a 4-layer BERT-style encoder (d=256, 4 heads) with a
dynamic batch and sequence length, both exported from PyTorch with dynamic
axes. For every shape: Strata's latency through the one dynamic executable
(strata-run --shapes --repeat), Strata's latency compiled for that static
shape, and ONNX Runtime's (npm onnxruntime-node) on the dynamic model, all
medians of REPEATS runs at 1 thread, measured in this one run.

Usage: /usr/bin/python3 bench/dynamic/dyn_bench.py [--repeats N] [--quick]
           [--model resnet|encoder] [--sizes 256,512] [--rounds N] [--no-ort]
Prints a markdown table (docs/dynamic-shapes.md keeps the last one). On a
shared machine --rounds N measures every shape N times, alternating the
dynamic and the static executable, and reports the median of each column
and of the per-round ratios."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import torch
import torch.nn as nn
import torchvision

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN = os.path.join(ROOT, 'build', 'tools', 'strata-run')
ORT = os.path.join(ROOT, 'bench', 'dynamic', 'ort_shapes.js')


class Encoder(nn.Module):
    def __init__(self, layers=4, d=256, heads=4, vocab=1000):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, batch_first=True),
                                         layers, enable_nested_tensor=False)

    def forward(self, ids):
        return self.enc(self.emb(ids))


def export(model, sample, path, name, axes):
    torch.onnx.export(model, sample, path, input_names=[name], output_names=['y'],
                      dynamic_axes={name: axes} if axes else None, opset_version=17)


def median(v):
    v = sorted(v)
    return (v[(len(v) - 1) // 2] + v[len(v) // 2]) / 2


def strata(args, **extra_env):
    env = dict(os.environ, STRATA_CACHE_DIR='')
    env.update(extra_env)
    p = subprocess.run([RUN] + args, capture_output=True, text=True, env=env)
    if p.returncode:
        sys.exit('strata-run failed: %s\n%s' % (' '.join(args), p.stdout + p.stderr))
    return p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--repeats', type=int, default=10)
    ap.add_argument('--quick', action='store_true', help='two shapes per model')
    ap.add_argument('--model', choices=['resnet', 'encoder'], help='only this model')
    ap.add_argument('--sizes', help='comma-separated resolutions (resnet) or sequence lengths (encoder)')
    ap.add_argument('--rounds', type=int, default=1,
                    help='alternate dynamic and static runs this many times; report medians')
    ap.add_argument('--no-ort', action='store_true', help='no ONNX Runtime column')
    a = ap.parse_args()
    torch.manual_seed(0)
    sizes = [int(v) for v in a.sizes.split(',')] if a.sizes else None
    cases = []
    if a.model in (None, 'resnet'):
        cases.append(('ResNet-18', torchvision.models.resnet18().eval(), 'x', torch.randn(1, 3, 224, 224), 'float32',
                      {0: 'N', 2: 'H', 3: 'W'}, [(1, 3, s, s) for s in sizes or (160, 224, 320, 416, 512)]))
    if a.model in (None, 'encoder'):
        cases.append(('BERT-style encoder', Encoder().eval(), 'ids', torch.randint(0, 1000, (1, 32)), 'int64',
                      {0: 'B', 1: 'S'}, [(1, s) for s in sizes or (8, 32, 128, 256, 512)]))
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for title, model, name, sample, dtype, axes, shapes in cases:
            if a.quick:
                shapes = shapes[:2]
            dyn = os.path.join(work, 'dyn.onnx')
            export(model, sample, dyn, name, axes)
            sweep = os.path.join(work, 'shapes.txt')
            with open(sweep, 'w') as f:
                f.write(''.join('%s=%s\n' % (name, 'x'.join(map(str, s))) for s in shapes))
            statics = []
            for i, s in enumerate(shapes):
                statics.append(os.path.join(work, 'static%d.onnx' % i))
                x = torch.randn(*s) if dtype == 'float32' else torch.randint(0, 1000, s)
                export(model, x, statics[i], name, None)
            # compiled once each (the compile cache of this run), then timed
            # in alternation, every round the whole sweep
            cache = os.path.join(work, 'cache')
            dyn_ms, st_ms = [[] for _ in shapes], [[] for _ in shapes]
            for _ in range(a.rounds):
                out = strata([dyn, '--shapes', sweep, '--repeat', str(a.repeats), '--quiet'], STRATA_CACHE_DIR=cache)
                for i, m in enumerate(re.findall(r'->.*?\s([0-9.]+) ms', out)):
                    dyn_ms[i].append(float(m))
                compiles = re.search(r'through (\d+) compile', out).group(1)
                for i, static in enumerate(statics):
                    st = strata([static, '--repeat', str(a.repeats), '--quiet'], STRATA_CACHE_DIR=cache)
                    st_ms[i].append(float(re.search(r'median ([0-9.]+) ms', st).group(1)))
            ort = ['nan'] * len(shapes) if a.no_ort else subprocess.run(
                ['node', ORT, dyn, str([list(s) for s in shapes]), dtype, '1', str(a.repeats)],
                capture_output=True, text=True, check=True).stdout.split()
            for i, s in enumerate(shapes):
                ratio = median([d / t for d, t in zip(dyn_ms[i], st_ms[i])])
                rows.append((title, 'x'.join(map(str, s)), compiles, median(dyn_ms[i]), median(st_ms[i]), ratio,
                             float(ort[i])))
    print('| model | shape | compiles | Strata dynamic (ms) | Strata static (ms) | dynamic / static | '
          'ORT (ms) | dynamic / ORT |')
    print('|---|---|---|---|---|---|---|---|')
    for t, s, c, d, st, r, o in rows:
        ort = ('%.2f | %.2fx' % (o, d / o)) if o == o else '- | -'  # NaN: --no-ort
        print('| %s | %s | %s | %.2f | %.2f | %.2fx | %s |' % (t, s, c, d, st, r, ort))


if __name__ == '__main__':
    main()
