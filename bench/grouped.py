"""Grouped 3x3 convolutions (issue 22): the direct kernel against one
implicit-im2col GEMM per group, on the same build, alternating.

Usage: bench/grouped.py [--rounds N] [--threads T]   (build/tools on PATH
or beside this script). Writes one MLIR file per layer under
build/bench/grouped (constant weights, bias and relu, as in RegNetX-400MF)
and prints, per layer, the best over N rounds of `strata-run --repeat 100`
medians with STRATA_RT_GROUPED=gemm and =direct, and their ratio."""
import argparse
import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# name, channels, groups, input extent, stride: RegNetX-400MF's seven
# grouped shapes (16 channels per group), then 2 to 128 channels per group.
LAYERS = [('RegNetX 32/g2 s2 @112', 32, 2, 112, 2), ('RegNetX 64/g4 s2 @56', 64, 4, 56, 2),
          ('RegNetX 64/g4 s1 @28', 64, 4, 28, 1), ('RegNetX 160/g10 s2 @28', 160, 10, 28, 2),
          ('RegNetX 160/g10 s1 @14', 160, 10, 14, 1), ('RegNetX 400/g25 s2 @14', 400, 25, 14, 2),
          ('RegNetX 400/g25 s1 @7', 400, 25, 7, 1), ('128/g64 (2 per group) @28', 128, 64, 28, 1),
          ('128/g32 (4) @28', 128, 32, 28, 1), ('128/g16 (8) @28', 128, 16, 28, 1),
          ('128/g4 (32) @28', 128, 4, 28, 1), ('256/g8 (32) @56', 256, 8, 56, 1),
          ('128/g2 (64) @28', 128, 2, 28, 1), ('256/g4 (64) @14', 256, 4, 14, 1),
          ('256/g2 (128) @14', 256, 2, 14, 1)]


def layer_mlir(C, G, H, s):
    O, cg = (H + 2 - 3) // s + 1, C // G
    t = lambda *d: 'tensor<' + 'x'.join(map(str, d)) + 'xf32>'
    return f'''func.func @main(%x: {t(1, C, H, H)}) -> {t(1, C, O, O)} {{
  %w = "nn.constant"() {{value = dense<0.01> : {t(C, cg, 3, 3)}}} : () -> {t(C, cg, 3, 3)}
  %b = "nn.constant"() {{value = dense<0.1> : {t(C)}}} : () -> {t(C)}
  %y = "nn.conv"(%x, %w, %b) {{group = {G} : i64, strides = array<i64: {s}, {s}>, pads = array<i64: 1, 1, 1, 1>}} : ({t(1, C, H, H)}, {t(C, cg, 3, 3)}, {t(C)}) -> {t(1, C, O, O)}
  %z = "nn.relu"(%y) : ({t(1, C, O, O)}) -> {t(1, C, O, O)}
  return %z : {t(1, C, O, O)}
}}
'''


def median_ms(path, mode, threads):
    env = dict(os.environ, STRATA_RT_GROUPED=mode, STRATA_CACHE_DIR='')
    out = subprocess.run(['strata-run', path, '--quiet', '--repeat', '100', '--threads', str(threads)],
                         env=env, capture_output=True, text=True, check=True).stdout
    return float(re.search(r'median ([\d.]+) ms', out).group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--threads', type=int, default=1)
    args = ap.parse_args()
    os.environ['PATH'] = os.path.join(ROOT, 'build', 'tools') + os.pathsep + os.environ['PATH']
    work = os.path.join(ROOT, 'build', 'bench', 'grouped')
    os.makedirs(work, exist_ok=True)
    print('| layer | per-group GEMM ms | direct ms | direct / GEMM |\n|---|---|---|---|')
    for name, C, G, H, s in LAYERS:
        path = os.path.join(work, re.sub(r'\W+', '_', name) + '.mlir')
        with open(path, 'w') as f:
            f.write(layer_mlir(C, G, H, s))
        gemm = direct = float('inf')
        for _ in range(args.rounds):
            gemm = min(gemm, median_ms(path, 'gemm', args.threads))
            direct = min(direct, median_ms(path, 'direct', args.threads))
        print('| %s | %.3f | %.3f | %.2fx |' % (name, gemm, direct, direct / gemm), flush=True)


if __name__ == '__main__':
    main()
