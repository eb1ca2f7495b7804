"""Predication benchmarks from the Grape digest (issue 20); they print
ratios, they are not tests.

B1 -- branching versus predicated code: a beam-search-like scorer over
65536 candidates; a candidate hitting EOS (i.i.d., rate p) takes an
expensive path of COST dependent f32 ops on its score, the others a cheap
one (the score alone). With that many random flags the branch predictor
cannot learn them: at p = 0.5 about half the EOS branches mispredict, at
0.01 and 0.9 few. Variants: the program as written (branch), --predicate
skip (a branch per guard), --predicate masked (both paths for every
candidate, then a select) and unlikely (the EOS guard marked `unlikely` by
hand, as in Grape: outlined and called under a branch, the cheap path
masked). Grape's trade-off: predication pays where branches are
frequent and unpredictable and loses where the expensive path is rare
(Predicate 1.27x vs UnlikelyPredicate 1.79x in the paper, on a GPU where a
branch costs a host round trip); on a CPU a branch costs a misprediction,
so the crossover moves with COST. Also counted: the conditional jumps LLVM
leaves in each variant's machine code (it if-converts cheap branches
itself). A control row, '0.5 sorted', has the same flags with the true
ones first (a predictable branch).

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

usage: pred_bench.py [BUILD_DIR [b1|b2|b3 ...]]    (default: build, all three)
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

N_CAND = 1 << 16  # candidates: far more than a branch predictor can memorise
COSTS = (1, 4, 8, 16, 24, 32, 48, 64, 256)  # f32 ops on the expensive path
# EOS rates; '0.5 sorted' is a control: the same flags as often true, all the
# true ones first, so the branch is predictable.
RATES = ('0.01', '0.1', '0.5', '0.9', '0.5 sorted')
ROUNDS = 9
REPEAT = 21


def scorer(cost):
    """The scorer: for each candidate, EOS (i1) chooses the expensive path,
    `cost` dependent f32 ops on its score (alternating multiply and add, so
    no op folds away), over the cheap path, its score alone; the chosen
    value is added to an accumulator."""
    lines = ['func.func @main(%%scores: tensor<%dxf32>, %%eos: tensor<%dxi1>) -> tensor<f32> {' % (N_CAND, N_CAND),
             '  %c0 = arith.constant 0 : index',
             '  %c1 = arith.constant 1 : index',
             '  %%cn = arith.constant %d : index' % N_CAND,
             '  %zero = arith.constant 0.0 : f32',
             '  %mul = arith.constant 0.999 : f32',
             '  %add = arith.constant 0.25 : f32',
             '  %acc = scf.for %i = %c0 to %cn step %c1 iter_args(%a = %zero) -> f32 {',
             '    %%e = tensor.extract %%eos[%%i] : tensor<%dxi1>' % N_CAND,
             '    %%s = tensor.extract %%scores[%%i] : tensor<%dxf32>' % N_CAND,
             '    %n = scf.if %e -> f32 {']
    v = '%s'
    for k in range(cost):
        lines.append('      %%x%d = arith.%s %s, %s : f32' % (k, 'mulf' if k % 2 == 0 else 'addf', v,
                                                               '%mul' if k % 2 == 0 else '%add'))
        v = '%%x%d' % k
    lines += ['      %%w = arith.addf %%a, %s : f32' % v,
              '      scf.yield %w : f32',
              '    } else {',
              '      %w = arith.addf %a, %s : f32',
              '      scf.yield %w : f32',
              '    }',
              '    scf.yield %n : f32',
              '  }',
              '  %t = tensor.from_elements %acc : tensor<f32>',
              '  return %t : tensor<f32>',
              '}']
    return '\n'.join(lines) + '\n'


def median_ms(path, inputs, extra, repeat=200, env=ENV):
    args = [RUN, path, '--repeat', str(repeat), '--quiet'] + extra
    for f in inputs:
        args += ['--input', f]
    out = subprocess.run(args, capture_output=True, text=True, env=env, check=True).stdout
    return float(re.search(r'median ([0-9.]+) ms', out).group(1))


def mark_unlikely(path, out_path):
    """Grape's UnlikelyPredicate, set by hand as in Grape: pred-if-to-guard,
    the guard on EOS (the first one: the then-branch) marked `unlikely`,
    then pred-lower (the unlikely body outlined and called under a branch,
    the cheap path masked)."""
    guards = subprocess.run([OPT, path, '--pred-if-to-guard'], capture_output=True, text=True,
                            check=True).stdout
    at = guards.index('"pred.guard"(')
    close = guards.index('}) :', at)
    marked = guards[:close] + '}) {unlikely} :' + guards[close + 4:]
    lowered = subprocess.run([OPT, '-', '--pred-lower=mode=masked'], input=marked, capture_output=True,
                             text=True, check=True).stdout
    open(out_path, 'w').write(lowered)


def branches_in_loop(path, extra_passes, tmp):
    """Conditional jumps in the compiled module (x86 asm through
    strata-translate at the JIT's -O2): the loop's back edge, plus the EOS
    branch (once per unrolled candidate) if LLVM kept it rather than turning
    it into a select or masked move itself."""
    src = path
    if extra_passes:
        src = os.path.join(tmp, 'b1_asm_in.mlir')
        open(src, 'w').write(subprocess.run([OPT, path] + extra_passes, capture_output=True, text=True,
                                            check=True).stdout)
    asm = subprocess.run([os.path.join(BUILD, 'tools', 'strata-translate'), src, '--emit=asm', '-O', '2',
                          '-o', '-'], capture_output=True, text=True, check=True).stdout
    return len(re.findall(r'\n\s+j(?!mp)[a-z]+\s', asm))


def b1(tmp):
    """Times every variant on the same inputs within one round, ROUNDS rounds
    in turn (the machine is shared), and prints per (cost, p) the median
    over rounds of each ratio branch / variant (> 1: the variant is faster).
    Every variant's output must equal the program's as written, bit for bit."""
    rng = np.random.default_rng(1)
    env = dict(ENV, STRATA_CACHE_DIR=os.path.join(tmp, 'cache'))  # one compile per program
    scores = os.path.join(tmp, 'b1_scores.npy')
    np.save(scores, rng.standard_normal(N_CAND).astype(np.float32))
    eos, verdict = {}, {}
    for p in RATES:
        eos[p] = os.path.join(tmp, 'b1_eos_%s.npy' % p.replace(' ', '_'))
        flags = rng.random(N_CAND) < float(p.split()[0])
        np.save(eos[p], np.sort(flags)[::-1].copy() if 'sorted' in p else flags)
    print('B1: scorer over %d candidates, EOS i.i.d. with rate p (unpredictable at p = 0.5), expensive '
          'path = COST dependent f32 ops' % N_CAND)
    print('  time ratios branch/variant (> 1: variant faster), median of %d rounds of %d-run medians; '
          'ns per candidate for branch' % (ROUNDS, REPEAT))
    print('  jcc: conditional jumps in the compiled code (-O2): the loop\'s, plus the EOS branch if LLVM kept it')
    print('  %-5s %-10s | %9s | %8s %8s %9s | %4s %4s %4s %4s' % ('cost', 'p', 'branch ns', '/masked',
                                                                '/skip', '/unlikely', 'jcc:', 'brn', 'msk',
                                                                'unl'))
    for cost in COSTS:
        path = os.path.join(tmp, 'b1_%d.mlir' % cost)
        open(path, 'w').write(scorer(cost))
        unlikely = os.path.join(tmp, 'b1_%d_unlikely.mlir' % cost)
        mark_unlikely(path, unlikely)
        variants = (('branch', path, []), ('masked', path, ['--predicate', 'masked']),
                    ('skip', path, ['--predicate', 'skip']), ('unlikely', unlikely, []))
        jcc = (branches_in_loop(path, [], tmp),
               branches_in_loop(path, ['--pred-if-to-guard', '--pred-lower=mode=masked'], tmp),
               branches_in_loop(unlikely, [], tmp))
        for p in RATES:
            ratios = {name: [] for name, _, _ in variants[1:]}
            base = []
            for r in range(ROUNDS):
                # The first round also keeps each variant's output: all must
                # be bit-identical to the program as written.
                out = {name: ['--output', os.path.join(tmp, 'b1_out_%s.npy' % name)] if r == 0 else []
                       for name, _, _ in variants}
                t = {name: median_ms(prog, [scores, eos[p]], extra + out[name], REPEAT, env)
                     for name, prog, extra in variants}
                if r == 0:
                    want = np.load(os.path.join(tmp, 'b1_out_branch.npy'))
                    for name, _, _ in variants[1:]:
                        got = np.load(os.path.join(tmp, 'b1_out_%s.npy' % name))
                        if got.tobytes() != want.tobytes():
                            sys.exit('B1: %s computes %s, the program as written %s (cost %d, p %s)' %
                                     (name, got, want, cost, p))
                base.append(t['branch'])
                for name in ratios:
                    ratios[name].append(t['branch'] / t[name])
            med = {name: float(np.median(r)) for name, r in ratios.items()}
            print('  %-5d %-10s | %9.2f | %7.2fx %7.2fx %8.2fx | %4s %4d %4d %4d' % (
                cost, p, float(np.median(base)) * 1e6 / N_CAND, med['masked'], med['skip'], med['unlikely'], '',
                jcc[0], jcc[1], jcc[2]))
            verdict.setdefault(p, []).append((cost, med['masked']))
        sys.stdout.flush()
    print('  masked against branch, per p (win/lose: faster/slower by more than 5%; tie otherwise):')
    for p in RATES:
        print('    p = %-10s %s' % (p, '  '.join('%d:%s' % (c, 'win' if r > 1.05 else 'lose' if r < 1 / 1.05 else 'tie')
                                                for c, r in verdict[p])))


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
        for name in sys.argv[2:] or ['b1', 'b2', 'b3']:
            {'b1': b1, 'b2': b2, 'b3': b3}[name](tmp)


if __name__ == '__main__':
    main()
