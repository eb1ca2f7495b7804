#!/usr/bin/python3
"""Baseline benchmark: Strata's JIT (the untuned CPU pipeline: scalar loops)
against numpy on the same machine, in the same run.

Usage: bench/baseline.py [--build DIR] [--repeat N]
Prints a table: workload, Strata median ms, numpy median ms, ratio, GFLOP/s.
Numbers are medians of N runs after a warm-up; single thread."""
import argparse
import os
import platform
import re
import subprocess
import tempfile
import time

import numpy as np

WORKLOADS = [
    # name, MLIR function body generator, numpy reference, flops
    ('sgemm 64x64x64', (64, 64, 64)),
    ('sgemm 256x256x256', (256, 256, 256)),
    ('sgemm 1x768x3072', (1, 768, 3072)),
]


def matmul_mlir(m, k, n):
    return ('func.func @mm(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{\n'
            '  %c = "nn.matmul"(%a, %b) : (tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32>\n'
            '  return %c : tensor<{m}x{n}xf32>\n}}\n').format(m=m, k=k, n=n)


def strata_ms(build, path, repeat):
    out = subprocess.run([os.path.join(build, 'tools', 'strata-run'), path, '--quiet', '--repeat', str(repeat)],
                         check=True, capture_output=True, text=True).stdout
    return float(re.search(r'median ([0-9.]+) ms', out).group(1))


def numpy_ms(fn, repeat):
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    return sorted(times)[len(times) // 2]


def cpu_model():
    try:
        for line in open('/proc/cpuinfo'):
            if line.startswith('model name'):
                return line.split(':', 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or 'unknown'


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', default=os.path.join(root, 'build'))
    ap.add_argument('--repeat', type=int, default=20)
    args = ap.parse_args()
    os.environ.setdefault('OPENBLAS_NUM_THREADS', '1')
    blas = os.path.realpath('/usr/lib/x86_64-linux-gnu/libblas.so.3')
    print('machine: %s; peer: numpy %s with %s; single thread' % (cpu_model(), np.__version__, blas))
    print('%-22s %12s %12s %9s %12s' % ('workload', 'strata ms', 'numpy ms', 'ratio', 'strata GF/s'))
    with tempfile.TemporaryDirectory() as tmp:
        for name, (m, k, n) in WORKLOADS:
            path = os.path.join(tmp, 'w.mlir')
            with open(path, 'w') as f:
                f.write(matmul_mlir(m, k, n))
            a = np.random.rand(m, k).astype(np.float32)
            b = np.random.rand(k, n).astype(np.float32)
            s = strata_ms(args.build, path, args.repeat)
            r = numpy_ms(lambda: a @ b, args.repeat)
            print('%-22s %12.4f %12.4f %8.1fx %12.2f' % (name, s, r, s / r, 2.0 * m * k * n / s / 1e6))
        s = strata_ms(args.build, os.path.join(root, 'examples', 'slice.mlir'), args.repeat)
        print('%-22s %12.4f %12s %9s %12s' % ('examples/slice.mlir', s, '-', '-', '-'))


if __name__ == '__main__':
    main()
