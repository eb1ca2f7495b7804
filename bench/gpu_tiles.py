"""gpu-tile-workgroup (workgroup-memory tiles for GEMM and conv kernels) on
the GPU targets: the same model compiled with the target's fixed-fusion
pipeline with and without the pass, in one process, calls alternating.

Usage: bench/gpu_tiles.py MODEL [MODEL...] [--targets vulkan,opencl]
       [--repeat N] [--rounds R]
A MODEL is an .onnx or .mlir file (its first input random, seeded), or
`matmul:M,K,N` for one f32 matmul. Prints per model and target the median
call time of each variant (best over the rounds of N calls after a warm-up)
and their ratio (plain / tiled); the outputs of the two must agree within
1e-4 of the output range. lavapipe and PoCL run on the CPU: these are
ratios of correctness paths, not a GPU's times. Needs build/core/libstrata.so
(the python package finds it) and numpy."""
import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'python'))
import strata  # noqa: E402

# strata-gpu-kernels (targets/gpu/gpu_pipeline.c, the targets' fixed mode),
# with its pass gpu-tile-workgroup as {tile} and without it.
PIPELINE = ('func.func(nn-fold),func.func(nn-to-linalg),func.func(linalg-fuse-elementwise-ops),'
            'one-shot-bufferize{{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}},'
            'func.func(buffer-loop-hoisting,cse,canonicalize),func.func({tile}convert-linalg-to-parallel-loops),'
            'func.func(gpu-flatten-parallel),'
            'func.func(scf-parallel-loop-tiling{{parallel-loop-tile-sizes=64 no-min-max-bounds}},'
            'gpu-map-parallel-loops,convert-parallel-loops-to-gpu),'
            'gpu-kernel-outlining,scf-parallel-for-to-nested-fors,lower-affine,canonicalize,cse')
VARIANTS = [('plain', PIPELINE.format(tile='')), ('tiled', PIPELINE.format(tile='gpu-tile-workgroup,'))]


def model_file(spec, tmp):
    if not spec.startswith('matmul:'):
        return spec
    m, k, n = (int(v) for v in spec[len('matmul:'):].split(','))
    path = os.path.join(tmp, 'matmul_%d_%d_%d.mlir' % (m, k, n))
    with open(path, 'w') as f:
        f.write('func.func @main(%%a: tensor<%dx%dxf32>, %%b: tensor<%dx%dxf32>) -> tensor<%dx%dxf32> {\n'
                '  %%r = "nn.matmul"(%%a, %%b) : (tensor<%dx%dxf32>, tensor<%dx%dxf32>) -> tensor<%dx%dxf32>\n'
                '  return %%r : tensor<%dx%dxf32>\n}\n' % (m, k, k, n, m, n, m, k, k, n, m, n, m, n))
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('models', nargs='+')
    ap.add_argument('--targets', default='vulkan,opencl')
    ap.add_argument('--repeat', type=int, default=5)
    ap.add_argument('--rounds', type=int, default=2)
    a = ap.parse_args()
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for spec in a.models:
            path = model_file(spec, tmp)
            for target in a.targets.split(','):
                sessions = [(name, strata.Session(path, target=target, pipeline=p, cache_dir=None))
                            for name, p in VARIANTS]
                rng = np.random.default_rng(0)
                feed = {i.name: rng.standard_normal(i.shape).astype(np.float32) for i in sessions[0][1].get_inputs()}
                outs = [s.run(None, feed)[0] for _, s in sessions]  # warm-up
                spread = float(outs[0].max() - outs[0].min()) or 1.0
                err = float(np.abs(outs[0] - outs[1]).max())
                best = {name: float('inf') for name, _ in sessions}
                for _ in range(a.rounds):
                    for name, s in sessions:
                        times = []
                        for _ in range(a.repeat):
                            t = time.perf_counter()
                            s.run(None, feed)
                            times.append(time.perf_counter() - t)
                        best[name] = min(best[name], statistics.median(times))
                ok = err <= 1e-4 * spread
                failed |= not ok
                print('%s on %s: plain %.1f ms, tiled %.1f ms, ratio %.2fx; outputs differ by %.3g (%s)' %
                      (spec, target, best['plain'] * 1e3, best['tiled'] * 1e3, best['plain'] / best['tiled'], err,
                       'OK' if ok else 'MISMATCH'))
                for _, s in sessions:
                    s.close()
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
