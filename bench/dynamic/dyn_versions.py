"""Multi-version code (nn-multiversion, issue 19): the dynamic BERT-style
encoder of dyn_bench.py (4 layers, d=256, dynamic batch and sequence)
compiled once with the default CPU pipeline (its weight GEMMs get a
few-rows version) and once with the same pipeline without nn-multiversion,
both through strataSessionCreate (python/strata, threads=1, no cache).
Reports the versions made, the compile times (median of --compiles each,
alternated) and, per sequence length, the median latency of each build
and the median of the per-round ratios versioned / single, the builds
alternating every round (their order too) in this one process.

Usage: /usr/bin/python3 bench/dynamic/dyn_versions.py [--sizes 1,2,4,8,256]
           [--rounds 5] [--repeats 50] [--compiles 3] [--rows R]
On a shared machine only the ratios of one run mean anything."""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, 'python'))
sys.path.insert(0, HERE)
import strata  # noqa: E402
from dyn_bench import Encoder, export, median  # noqa: E402

PASS = 'func.func(nn-multiversion),'


def pipelines():
    lib = strata._load()
    lib.strataCpuPipeline.restype = strata.ctypes.c_char_p
    versioned = lib.strataCpuPipeline().decode()
    if PASS not in versioned:
        sys.exit('the default CPU pipeline has no %s' % PASS)
    return versioned, versioned.replace(PASS, '')


def versions(onnx, work):
    tools = os.path.join(ROOT, 'build', 'tools')
    mlir = os.path.join(work, 'enc.mlir')
    subprocess.run([os.path.join(tools, 'strata-import'), onnx, '-o', mlir], check=True)
    out = subprocess.run([os.path.join(tools, 'strata-opt'), mlir, '--pass-pipeline=builtin.module(func.func(nn-fold),'
                          'func.func(nn-raise),func.func(nn-multiversion{stats}))'],
                         check=True, capture_output=True, text=True).stdout
    v = re.search(r'nn.versioned = (\d+)', out).group(1)
    w = re.search(r'nn.weight_gemms = (\d+)', out).group(1)
    return int(v), int(w)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--sizes', default='1,2,3,4,5,8,256')
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--repeats', type=int, default=50)
    ap.add_argument('--compiles', type=int, default=3)
    ap.add_argument('--rows', type=int, help="nn-multiversion's bound (default: the pipeline's)")
    a = ap.parse_args()
    torch.manual_seed(0)
    sizes = [int(s) for s in a.sizes.split(',')]
    with tempfile.TemporaryDirectory() as work:
        onnx = os.path.join(work, 'enc.onnx')
        export(Encoder().eval(), torch.randint(0, 1000, (1, 32)), onnx, 'ids', {0: 'B', 1: 'S'})
        nv, nw = versions(onnx, work)
        texts = dict(zip(('versioned', 'single'), pipelines()))
        if a.rows:
            texts['versioned'] = texts['versioned'].replace(PASS, 'func.func(nn-multiversion{rows=%d}),' % a.rows)
        sess, compile_s = {}, {k: [] for k in texts}
        for i in range(a.compiles):
            for k in (('versioned', 'single') if i % 2 == 0 else ('single', 'versioned')):
                t = time.perf_counter()
                sess[k] = strata.Session(onnx, threads=1, cache_dir=None, pipeline=texts[k])
                compile_s[k].append(time.perf_counter() - t)
        rng = np.random.default_rng(0)
        feeds = {s: {'ids': rng.integers(0, 1000, (1, s), dtype=np.int64)} for s in sizes}
        for s in sizes:  # the same answers, and a warm-up of each shape class
            y = [sess[k].run(None, feeds[s])[0] for k in texts]
            if not np.allclose(y[0], y[1], rtol=1e-4, atol=1e-5):
                sys.exit('versioned and single builds disagree at sequence %d' % s)
        ms = {(k, s): [] for k in texts for s in sizes}
        for r in range(a.rounds):
            for s in sizes:
                for k in (('versioned', 'single') if r % 2 == 0 else ('single', 'versioned')):
                    runs = []
                    for _ in range(a.repeats):
                        t = time.perf_counter()
                        sess[k].run(None, feeds[s])
                        runs.append((time.perf_counter() - t) * 1e3)
                    ms[(k, s)].append(median(runs))
    print('versions: %d of %d weight GEMMs versioned (2 versions each); compile %.2f s versioned, %.2f s single '
          '(median of %d; %.2fx)' % (nv, nw, median(compile_s['versioned']), median(compile_s['single']), a.compiles,
                                     median(compile_s['versioned']) / median(compile_s['single'])))
    print('| sequence | versioned (ms) | single (ms) | versioned / single |')
    print('|---|---|---|---|')
    for s in sizes:
        ratio = median([v / t for v, t in zip(ms[('versioned', s)], ms[('single', s)])])
        print('| 1x%d | %.3f | %.3f | %.2fx |' % (s, median(ms[('versioned', s)]), median(ms[('single', s)]), ratio))


if __name__ == '__main__':
    main()
