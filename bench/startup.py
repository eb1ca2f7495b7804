"""Time to a first result and peak memory: a fresh process that loads a
model, compiles it (Strata) or creates a session (ONNX Runtime), runs it
once and exits -- what a user who runs a model once, or a server that loads
many, pays each time. Called by bench/startup; every number comes from this
run on this machine.

  bench/startup.py WORK [--rounds N]

Per model and tool: the best of N rounds (default 3) of the whole process's
wall time and its peak resident memory (bench/rss.c), Strata's own
split (strata-run's "compiled in" and "ran in") without the compile cache
and from a warm one, ORT's (session creation, first run), strata-translate
writing an object, and Strata/ORT ratios."""
import os
import re
import shutil
import subprocess
import sys
import time

import torch
import torchvision

WORK = sys.argv[1]
ROUNDS = int(sys.argv[sys.argv.index('--rounds') + 1]) if '--rounds' in sys.argv else 3
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORT_ENV = dict(os.environ, NODE_PATH=os.path.join(ROOT, 'bench', '.peers', 'node_modules'))


def models():
    return [('ResNet-18', torchvision.models.resnet18, (1, 3, 224, 224)),
            ('MobileNetV2', torchvision.models.mobilenet_v2, (1, 3, 224, 224)),
            ('ResNet-50', torchvision.models.resnet50, (1, 3, 224, 224)),
            ('EfficientNet-B0', torchvision.models.efficientnet_b0, (1, 3, 224, 224))]


def export(name, make, dims):
    path = os.path.join(WORK, 'startup_' + re.sub(r'\W+', '_', name) + '.onnx')
    if not os.path.exists(path):
        torch.manual_seed(0)
        torch.onnx.export(make(weights=None).eval(), torch.randn(*dims), path, opset_version=14)
    return path


def run(cmd, env=None):
    """(wall seconds, peak RSS MiB, stdout) of one process, started by the
    rss helper (bench/rss.c)."""
    t = time.perf_counter()
    p = subprocess.run([os.path.join(WORK, 'rss')] + cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t
    if p.returncode:
        raise SystemExit('startup: %s failed (exit %d): %s' % (' '.join(cmd), p.returncode, p.stderr[-500:]))
    return wall, float(re.findall(r'rss_mb ([0-9.]+)', p.stderr)[-1]), p.stdout


def best(cmd, env=None):
    runs = [run(cmd, env) for _ in range(ROUNDS)]
    return min(runs, key=lambda r: r[0]), max(r[1] for r in runs)


def strata(path, extra):
    (wall, _, out), rss = best(['strata-run', path, '--quiet'] + extra)
    split = re.search(r'compiled \S+ in ([0-9.]+) ms, ran in ([0-9.]+) ms', out)
    return wall, float(split.group(1)), float(split.group(2)), rss


def main():
    cache = os.path.join(WORK, 'startup-cache')
    shutil.rmtree(cache, ignore_errors=True)
    print('| model | weights MB | Strata s (compile + run ms) | cached s (compile + run ms) | ORT s (session + run ms) '
          '| Strata/ORT | cached/ORT | Strata MB | cached MB | ORT MB | strata-translate s, MB |')
    print('|---|---|---|---|---|---|---|---|---|---|---|')
    for name, make, dims in models():
        path = export(name, make, dims)
        weights = os.path.getsize(path) / 1e6
        cold = strata(path, ['--no-cache'])
        run(['strata-run', path, '--quiet', '--cache-dir', cache])  # fills the cache
        warm = strata(path, ['--cache-dir', cache])
        (ow, _, oout), orss = best(['node', os.path.join(ROOT, 'bench', 'ort_first.js'), path, str(list(dims)), '1'],
                                   ORT_ENV)
        (tw, _, _), trss = best(['strata-translate', path, '-o', os.path.join(WORK, 'startup.o')])
        print('| %s | %.1f | %.2f (%.0f + %.0f) | %.2f (%.0f + %.0f) | %.2f (%s + %s) | %.2fx | %.2fx | %.0f | %.0f | '
              '%.0f | %.2f, %.0f |' % (name, weights, cold[0], cold[1], cold[2], warm[0], warm[1], warm[2], ow,
                                     *oout.split(), cold[0] / ow, warm[0] / ow, cold[3], warm[3], orss, tw, trss),
              flush=True)


main()
