"""Predication benchmarks from the Grape digest (issue 20); they print
ratios, they are not tests.

B1 -- branching versus predicated code: a beam-search-like scorer over 10
candidates; a candidate hitting EOS (rate p) takes an expensive path (nn
ops over a 4096-element tensor), the others a cheap one. Original code
branches (scf.if); predicated code (strata-run --predicate masked) runs
both paths for every candidate and selects. Grape's trade-off: predication
pays where branches are frequent and loses where the expensive path is
rare (Predicate 1.27x vs UnlikelyPredicate 1.79x in the paper, on a GPU
where a branch costs a host round trip; on a CPU a branch is cheap).

B2 -- whole-graph capture: the beam-search decoder step of
examples/predication (an ONNX Loop holding an If) as written, where the
compiled code decides on the data at every loop test and every If, against
the masked form, one loop of straight-line code that decides nothing (the
"replayed tape"), and skip (a branch inside each guard). Per call: the
data-dependent branch decisions it executes (counted from the IR and the
iterations the inputs take) and the median latency.

B3 -- number of versions: n sequential ifs as 2^n path-specialised
functions (what per-path capture builds) versus one predicated function:
compile time and LLVM-dialect size through strata-opt
--strata-cpu-pipeline(-predicated).

usage: pred_bench.py [BUILD_DIR]    (default: build)
"""
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

BUILD = sys.argv[1] if len(sys.argv) > 1 else 'build'
OPT = os.path.join(BUILD, 'tools', 'strata-opt')
RUN = os.path.join(BUILD, 'tools', 'strata-run')
ENV = dict(os.environ, STRATA_CACHE_DIR='')

SCORER = '''
func.func @main(%scores: tensor<10xf32>, %eos: tensor<10xi1>, %big: tensor<4096xf32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0.0 : f32
  %acc = scf.for %i = %c0 to %c10 step %c1 iter_args(%a = %zero) -> f32 {
    %e = tensor.extract %eos[%i] : tensor<10xi1>
    %s = tensor.extract %scores[%i] : tensor<10xf32>
    %n = scf.if %e -> f32 {
      %t = "nn.tanh"(%big) : (tensor<4096xf32>) -> tensor<4096xf32>
      %x = "nn.exp"(%t) : (tensor<4096xf32>) -> tensor<4096xf32>
      %r = "nn.reduce_sum"(%x) {keepdims = 0 : i64} : (tensor<4096xf32>) -> tensor<f32>
      %v = tensor.extract %r[] : tensor<f32>
      %w = arith.addf %a, %v : f32
      scf.yield %w : f32
    } else {
      %w = arith.addf %a, %s : f32
      scf.yield %w : f32
    }
    scf.yield %n : f32
  }
  %t = tensor.from_elements %acc : tensor<f32>
  return %t : tensor<f32>
}
'''


def median_ms(path, inputs, extra):
    args = [RUN, path, '--repeat', '200', '--quiet'] + extra
    for f in inputs:
        args += ['--input', f]
    out = subprocess.run(args, capture_output=True, text=True, env=ENV, check=True).stdout
    return float(re.search(r'median ([0-9.]+) ms', out).group(1))


def b1(tmp):
    path = os.path.join(tmp, 'scorer.mlir')
    open(path, 'w').write(SCORER)
    rng = np.random.default_rng(1)
    print('B1: scorer over 10 candidates, expensive path on EOS (median of 200 runs)')
    print('  %-6s %12s %12s %10s' % ('p(EOS)', 'branch ms', 'masked ms', 'branch/masked'))
    for p in (0.01, 0.5):
        files = []
        for name, a in (('scores', rng.standard_normal(10).astype(np.float32)),
                        ('eos', rng.random(10) < p),
                        ('big', rng.standard_normal(4096).astype(np.float32))):
            files.append(os.path.join(tmp, '%s_%g.npy' % (name, p)))
            np.save(files[-1], a)
        branch = median_ms(path, files, [])
        masked = median_ms(path, files, ['--predicate', 'masked'])
        print('  %-6g %12.4f %12.4f %10.2fx' % (p, branch, masked, branch / masked))


def count_ops(onnx_path, passes, name):
    imported = subprocess.run([os.path.join(BUILD, 'tools', 'strata-import'), onnx_path], capture_output=True,
                              text=True, check=True).stdout
    out = subprocess.run([OPT, '-'] + passes, input=imported, capture_output=True, text=True, check=True).stdout
    return len(re.findall(r'\b%s\b' % re.escape(name), out))


def b2(tmp):
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, '..', '..', 'examples', 'predication'))
    import beam_step
    import onnx
    beams = 5
    path = os.path.join(tmp, 'beam.onnx')
    onnx.save(beam_step.build(beams), path)
    masked = ['--pred-if-to-guard', '--pred-loop-to-guard', '--pred-lower=mode=masked']
    skip = ['--pred-if-to-guard', '--pred-loop-to-guard', '--pred-lower=mode=skip', '--canonicalize']
    left = count_ops(path, masked, 'scf.if') + count_ops(path, masked, 'scf.while')
    skip_ifs = count_ops(path, skip, 'scf.if')
    rng = np.random.default_rng(2)
    print('B2: beam-search step (Loop over %d candidates holding an If; median of 200 runs)' % (2 * beams))
    print('  masked IR: %d scf.if/scf.while left; skip IR: %d scf.if per iteration' % (left, skip_ifs))
    print('  %-6s %6s | %9s %9s %9s | %9s %9s %9s | %8s %8s' % (
        'p(EOS)', 'iters', 'dec:orig', 'dec:mask', 'dec:skip', 'orig ms', 'masked ms', 'skip ms',
        'orig/msk', 'orig/skp'))
    for p in (0.01, 0.5, 0.9):
        scores = np.sort(rng.standard_normal(2 * beams).astype(np.float32))[::-1].copy()
        tokens = rng.integers(1, 50000, 2 * beams).astype(np.int64)
        tokens[rng.random(2 * beams) < p] = beam_step.EOS
        files = [os.path.join(tmp, 'scores_%g.npy' % p), os.path.join(tmp, 'tokens_%g.npy' % p)]
        np.save(files[0], scores)
        np.save(files[1], tokens)
        # Iterations the while loop runs: until the beams are full or the
        # candidates run out; each makes one If decision, plus one loop test
        # per iteration and the final one.
        count, iters = 0, 0
        for t in tokens:
            if count >= beams:
                break
            iters += 1
            count += t != beam_step.EOS
        orig_dec, skip_dec = 2 * iters + 1, skip_ifs * 2 * beams
        t_orig = median_ms(path, files, [])
        t_mask = median_ms(path, files, ['--predicate', 'masked'])
        t_skip = median_ms(path, files, ['--predicate', 'skip'])
        print('  %-6g %6d | %9d %9d %9d | %9.4f %9.4f %9.4f | %7.2fx %7.2fx' % (
            p, iters, orig_dec, 0, skip_dec, t_orig, t_mask, t_skip, t_orig / t_mask, t_orig / t_skip))


def ifs_function(name, n, path_bits=None):
    """n sequential ifs on x; path_bits fixes every branch (a specialised version)."""
    lines = ['func.func @%s(%%x: tensor<64xf32>, %%c: tensor<%dxi1>) -> tensor<64xf32> {' % (name, n)]
    v = '%x'
    for i in range(n):
        lines.append('  %%i%d = arith.constant %d : index' % (i, i))
        if path_bits is None:
            lines.append('  %%p%d = tensor.extract %%c[%%i%d] : tensor<%dxi1>' % (i, i, n))
            lines.append('  %%v%d = scf.if %%p%d -> tensor<64xf32> {' % (i, i))
            lines.append('    %%a%d = "nn.tanh"(%s) : (tensor<64xf32>) -> tensor<64xf32>' % (i, v))
            lines.append('    scf.yield %%a%d : tensor<64xf32>' % i)
            lines.append('  } else {')
            lines.append('    %%b%d = "nn.sigmoid"(%s) : (tensor<64xf32>) -> tensor<64xf32>' % (i, v))
            lines.append('    scf.yield %%b%d : tensor<64xf32>' % i)
            lines.append('  }')
        else:
            op = 'nn.tanh' if path_bits >> i & 1 else 'nn.sigmoid'
            lines.append('  %%v%d = "%s"(%s) : (tensor<64xf32>) -> tensor<64xf32>' % (i, op, v))
        v = '%%v%d' % i
    lines.append('  return %s : tensor<64xf32>' % v)
    lines.append('}')
    return '\n'.join(lines)


def compile_stats(text, tmp, pipeline):
    path = os.path.join(tmp, 'b3.mlir')
    open(path, 'w').write(text)
    t = time.perf_counter()
    out = subprocess.run([OPT, path, '--' + pipeline], capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - t, len(out)


def b3(tmp):
    print('B3: n sequential ifs -- 2^n specialised functions vs one predicated function')
    print('  %-3s %10s %12s %10s %12s %8s %8s' % ('n', 'paths s', 'paths bytes', 'pred s', 'pred bytes',
                                                   'time x', 'size x'))
    for n in (1, 2, 4, 6, 8, 12, 16):
        pt, pb = compile_stats(ifs_function('main', n), tmp, 'strata-cpu-pipeline-predicated')
        if n <= 8:  # 2^n functions: beyond 256 the compile takes minutes
            text = '\n'.join(ifs_function('path%d' % k, n, k) for k in range(2 ** n))
            st, sb = compile_stats(text, tmp, 'strata-cpu-pipeline')
            print('  %-3d %10.2f %12d %10.2f %12d %7.1fx %7.1fx' % (n, st, sb, pt, pb, st / pt, sb / pb))
        else:
            print('  %-3d %10s %12s %10.2f %12d %8s %8s' % (n, '-', '-', pt, pb, '-', '-'))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        b1(tmp)
        b2(tmp)
        b3(tmp)


if __name__ == '__main__':
    main()
