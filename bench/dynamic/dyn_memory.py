"""Dynamic shapes (issue 19), the 50-shape sweeps: one compile each for a
dynamic-resolution ResNet-18 (160-503 px) and a dynamic-sequence BERT-style
encoder (sequence 1-512), every shape checked against PyTorch (1e-3 of the
output range), and peak intermediate memory per shape against ONNX Runtime.

Strata's number is exact: the peak of the bytes its generated code and
runtime kernels hold through libstrata_rt's allocator during the call
(intermediates and results; inputs and weights excluded), as
`strata-run --shapes` reports it (arenas and kernel scratch included;
outputs of dynamic shape not). ONNX Runtime (npm onnxruntime-node, its
default arena and memory patterns) has no such counter: memcount.c, an
LD_PRELOAD allocation counter, gives the most bytes the first run at that
shape held at once through malloc and friends beyond what was held before
it, in a fresh process after the session was created (ort_memory.js;
outputs included). Both at one thread.

Strata's intermediates of dynamic size come from one arena per shape class,
planned once per class (strata-shape-plan); the sweep also runs with
STRATA_SHAPE_PLANS=0 (every such buffer on the heap, freed at its last use)
and prints both peaks and the plans computed.

Usage: /usr/bin/python3 bench/dynamic/dyn_memory.py [--shapes N] [--no-torch] [--no-ort]
Prints a summary per model and, with --table, every shape's row."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torchvision

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dyn_bench import Encoder, export, strata  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'python'))
import strata as strata_py  # noqa: E402

ORT_MEM = os.path.join(ROOT, 'bench', 'dynamic', 'ort_memory.js')


def spread(lo, hi, n):
    return sorted({int(round(lo + i * (hi - lo) / (n - 1))) for i in range(n)})


def torch_check(model, path, name, shapes, dtype):
    """Largest error over the shapes, relative to each output's range, of one
    compiled Strata session against PyTorch."""
    worst = 0.0
    with strata_py.Session(path) as sess:
        for s in shapes:
            x = torch.randn(*s) if dtype == 'float32' else torch.randint(0, 1000, s)
            with torch.no_grad():
                ref = model(x).numpy()
            got = sess.run(None, {name: x.numpy()})[0]
            if got.shape != ref.shape:
                return float('inf')
            span = float(ref.max() - ref.min()) or 1.0
            worst = max(worst, float(np.abs(got - ref).max()) / span)
    return worst


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--shapes', type=int, default=50)
    ap.add_argument('--no-torch', action='store_true', help='skip the PyTorch comparison')
    ap.add_argument('--table', action='store_true', help='print every shape')
    ap.add_argument('--no-ort', action='store_true', help='skip ONNX Runtime (Strata with and without plans only)')
    ap.add_argument('--model', help='only the model whose name starts with this')
    a = ap.parse_args()
    torch.manual_seed(0)
    cases = [
        ('ResNet-18', torchvision.models.resnet18().eval(), 'x', torch.randn(1, 3, 224, 224), 'float32',
         {0: 'N', 2: 'H', 3: 'W'}, [(1, 3, p, p) for p in spread(160, 503, a.shapes)]),
        ('BERT-style encoder', Encoder().eval(), 'ids', torch.randint(0, 1000, (1, 32)), 'int64',
         {0: 'B', 1: 'S'}, [(1, s) for s in spread(1, 512, a.shapes)]),
    ]
    with tempfile.TemporaryDirectory() as work:
        memcount = os.path.join(work, 'memcount.so')
        subprocess.run(['cc', '-O2', '-shared', '-fPIC', os.path.join(ROOT, 'bench', 'dynamic', 'memcount.c'), '-o',
                        memcount], check=True)
        for title, model, name, sample, dtype, axes, shapes in cases:
            if a.model and not title.startswith(a.model):
                continue
            path = os.path.join(work, 'dyn.onnx')
            export(model, sample, path, name, axes)
            sweep = os.path.join(work, 'shapes.txt')
            with open(sweep, 'w') as f:
                f.write(''.join('%s=%s\n' % (name, 'x'.join(map(str, s))) for s in shapes))
            out = strata([path, '--shapes', sweep, '--quiet'])
            compiles = re.search(r'swept (\d+) shapes through (\d+) compile', out)
            peaks = [float(k) for k in re.findall(r'ms  peak ([0-9.]+) KiB', out)]
            if not compiles or int(compiles.group(1)) != len(shapes) or len(peaks) != len(shapes):
                sys.exit('unexpected strata-run output:\n' + out)
            plans = re.search(r'shape plans: (\d+ computed \(\d+ searched, \d+ re-evaluated; \d+ at entry\))', out)
            arenas = [float(k) for k in re.findall(r'arena ([0-9.]+) KiB', out)]
            bounds = [(float(a) / float(b), s) for (a, b), s in zip(
                re.findall(r'arena ([0-9.]+) KiB \(live peak ([0-9.]+) KiB\)', out), shapes) if float(b) > 0]
            heap = strata([path, '--shapes', sweep, '--quiet'], STRATA_SHAPE_PLANS='0')
            heap_peaks = [float(k) for k in re.findall(r'ms  peak ([0-9.]+) KiB', heap)]
            if len(heap_peaks) != len(shapes):
                sys.exit('unexpected strata-run output:\n' + heap)
            with_plans = [p / h for p, h in zip(peaks, heap_peaks) if h > 0]
            worst = max(bounds) if bounds else (1.0, shapes[0])
            print('%s: plan arena / its lower bound: at most %.3fx (%s)' % (title, worst[0], 'x'.join(map(str, worst[1]))))
            print('%s: shape plans: %s for %d shapes; arena %.1f-%.1f MiB; peak with plans / without '
                  '(heap): geomean %.3fx (min %.3fx, max %.3fx)' % (
                      title, plans.group(1) if plans else 'none', len(shapes), min(arenas or [0]) / 1024,
                      max(arenas or [0]) / 1024, float(np.exp(np.mean(np.log(with_plans)))), min(with_plans),
                      max(with_plans)))
            if a.table:
                for s, p, h in zip(shapes, peaks, heap_peaks):
                    print('  | %s | %.2f | %.2f | %.3fx |' % ('x'.join(map(str, s)), p / 1024, h / 1024, p / h))
            if a.no_ort:
                continue
            ort = []
            for s in shapes:
                p = subprocess.run(['node', ORT_MEM, path, json.dumps(list(s)), dtype], capture_output=True,
                                   text=True, check=True, env=dict(os.environ, LD_PRELOAD=memcount))
                ort.append(int(re.search(r'memcount: (-?\d+)', p.stderr).group(1)) / 1024)
            err = None if a.no_torch else torch_check(model, path, name, shapes, dtype)
            ratios = [o / p for p, o in zip(peaks, ort) if p > 0]
            less = sum(p < o for p, o in zip(peaks, ort))
            print('%s: %d shapes (%s..%s), %s compile; vs PyTorch: %s' % (
                title, len(shapes), 'x'.join(map(str, shapes[0])), 'x'.join(map(str, shapes[-1])),
                compiles.group(2), 'skipped' if err is None else 'max error %.2g of the output range (%s)' % (
                    err, 'OK' if err <= 1e-3 else 'MISMATCH')))
            print('  peak intermediate memory: Strata %.1f-%.1f MiB, ORT %.1f-%.1f MiB; Strata below ORT at %d of '
                  '%d shapes; ORT / Strata geomean %.2fx (min %.2fx, max %.2fx)' % (
                      min(peaks) / 1024, max(peaks) / 1024, min(ort) / 1024, max(ort) / 1024, less, len(shapes),
                      float(np.exp(np.mean(np.log(ratios)))), min(ratios), max(ratios)))
            if a.table:
                for s, p, o in zip(shapes, peaks, ort):
                    print('  | %s | %.2f | %.2f | %.2fx |' % ('x'.join(map(str, s)), p / 1024, o / 1024,
                                                              o / p if p else float('inf')))


if __name__ == '__main__':
    main()
