"""Strata against an earlier Strata: the bench's models and GEMMs timed with
two builds in the same run, alternating, so a refactoring can show it made
nothing slower (called by bench/ab; every number comes from this run).

  bench/ab.py WORK BASE_TOOLS NEW_TOOLS [--rounds N]

Each row: medians of `strata-run --repeat` per build at 1 and 2 threads,
alternating builds for N rounds (the best round's median counts, which
removes most of the noise from other processes), and new/base (below 1 =
the new build is faster)."""
import os
import re
import subprocess
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the bench's model list and exporter)

WORK, BASE, NEW = sys.argv[1:4]
ROUNDS = int(sys.argv[sys.argv.index('--rounds') + 1]) if '--rounds' in sys.argv else 3


def ms(tools, path, threads, repeats):
    out = subprocess.run([os.path.join(tools, 'strata-run'), path, '--quiet', '--repeat', str(repeats),
                          '--threads', str(threads)], check=True, capture_output=True, text=True).stdout
    return float(re.search(r'median ([0-9.]+) ms', out).group(1))


def workloads():
    for m, n, k in [(1024, 1024, 1024), (1, 768, 3072)]:
        path = os.path.join(WORK, 'ab_sgemm_%dx%dx%d.mlir' % (m, n, k))
        with open(path, 'w') as f:
            f.write('func.func @mm(%%a: tensor<%dx%dxf32>, %%b: tensor<%dx%dxf32>) -> tensor<%dx%dxf32> {\n'
                    '  %%c = "nn.matmul"(%%a, %%b) : (tensor<%dx%dxf32>, tensor<%dx%dxf32>) -> tensor<%dx%dxf32>\n'
                    '  return %%c : tensor<%dx%dxf32>\n}\n' % (m, k, k, n, m, n, m, k, k, n, m, n, m, n))
        yield 'sgemm %dx%dx%d' % (m, n, k), path, 10
    for name, model, dims, flops in run.workloads():
        if flops is None:  # the whole models and the softmax/layernorm rows, not single conv layers
            yield name, run.export(model, dims, name), 20


def main():
    run.WORK = WORK
    torch.manual_seed(0)
    lines = ['| workload | base 1T | new 1T | new/base 1T | base 2T | new 2T | new/base 2T |', '|---' * 7 + '|']
    worst = 0.0
    for name, path, repeats in workloads():
        cells = []
        for threads in (1, 2):
            best = {BASE: float('inf'), NEW: float('inf')}
            for _ in range(ROUNDS):
                for tools in (BASE, NEW):
                    best[tools] = min(best[tools], ms(tools, path, threads, repeats))
            ratio = best[NEW] / best[BASE]
            worst = max(worst, ratio)
            cells += ['%.3f' % best[BASE], '%.3f' % best[NEW], '%.3fx' % ratio]
        lines.append('| %s | %s |' % (name, ' | '.join(cells)))
        print(name, file=sys.stderr)
    print('\n'.join(lines))
    print('\nworst new/base: %.3fx (best of %d rounds, alternating builds)' % (worst, ROUNDS))


if __name__ == '__main__':
    main()
