"""Property test for predication (issue 20): every program in Inputs/ is
JIT-run as written and after predication (strata-run --predicate masked and
skip, and the passes applied twice through strata-opt), and interpreted as
written and after masked predication, on every case its
`// CASES:` line generates (all predicate patterns, random data), and the
outputs must be identical bit for bit (NaN equal to NaN). The masked form
must also hold no scf.if or scf.while.

usage: pred_numerics.py STRATA_OPT STRATA_RUN INPUTS_DIR WORK_DIR
"""
import itertools
import os
import re
import subprocess
import sys

import numpy as np

PASSES = ['--pred-if-to-guard', '--pred-loop-to-guard', '--pred-lower']


def main():
    opt, run, inputs, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(20)
    helpers = {
        'np': np,
        'bools': lambda shape: [np.array(bits, dtype=bool).reshape(shape)
                                for bits in itertools.product([False, True], repeat=int(np.prod(shape)))],
        'f32': lambda shape: rng.standard_normal(shape).astype(np.float32),
        'perm': lambda n: rng.permutation(n).astype(np.float32),
    }
    env = dict(os.environ, STRATA_CACHE_DIR='')
    failures, checked = [], 0
    for name in sorted(os.listdir(inputs)):
        if not name.endswith('.mlir'):
            continue
        path = os.path.join(inputs, name)
        text = open(path).read()
        cases = eval(re.search(r'^// CASES: (.*)$', text, re.M).group(1), helpers)
        outputs = int(re.search(r'^// OUTPUTS: (\d+)$', text, re.M).group(1))
        # The passes twice (T14): the second run must not change the IR.
        once = subprocess.run([opt, path] + PASSES, capture_output=True, text=True, check=True).stdout
        twice_path = os.path.join(work, name + '.twice.mlir')
        twice = subprocess.run([opt, '-'] + PASSES, input=once, capture_output=True, text=True,
                               check=True).stdout
        open(twice_path, 'w').write(twice)
        if once != twice:
            failures.append('%s: a second run of the passes changed the IR' % name)
        if re.search(r'\bscf\.(if|while)\b', once):
            failures.append('%s: scf.if or scf.while left after masked predication' % name)
        variants = {'masked': [path, '--predicate', 'masked'], 'skip': [path, '--predicate', 'skip'],
                    'twice': [twice_path]}
        # The reference interpreter runs the original and the predicated
        # program too, unless the file says why it cannot (`// INTERPRET: no,
        # <reason>`: memref programs, which it has no semantics for).
        interpret = not re.search(r'^// INTERPRET: no\b', text, re.M)
        once_path = os.path.join(work, name + '.once.mlir')
        open(once_path, 'w').write(once)
        for c, case in enumerate(cases):
            args = []
            for i, a in enumerate(case):
                f = os.path.join(work, '%s.%d.in%d.npy' % (name, c, i))
                np.save(f, a)
                args += ['--input', f]

            def results(tag, cmd):
                outs = [os.path.join(work, '%s.%d.%s.out%d.npy' % (name, c, tag, o)) for o in range(outputs)]
                flags = sum((['--output', o] for o in outs), [])
                p = subprocess.run([run] + cmd + args + flags + ['--quiet'], capture_output=True, text=True,
                                   env=env)
                if p.returncode:
                    return 'exit %d: %s' % (p.returncode, p.stderr.strip()[-300:])
                return [np.load(o) for o in outs]

            want = results('orig', [path])
            if isinstance(want, str):
                failures.append('%s case %d: the original failed (%s)' % (name, c, want))
                continue
            def compare(tag, want, got, close=False):
                if isinstance(got, str):
                    failures.append('%s case %d (%s): %s' % (name, c, tag, got))
                    return
                for o, (w, g) in enumerate(zip(want, got)):
                    same = w.dtype == g.dtype and w.shape == g.shape and (
                        np.allclose(g, w, rtol=1e-5, atol=1e-6, equal_nan=True) if close and w.dtype.kind == 'f'
                        else np.array_equal(w, g, equal_nan=w.dtype.kind == 'f'))
                    if not same:
                        failures.append('%s case %d (%s) output %d: %s, want %s (inputs %s)' % (
                            name, c, tag, o, g.tolist(), w.tolist(), [a.tolist() for a in case]))

            for tag, cmd in variants.items():
                checked += 1
                compare(tag, want, results(tag, cmd))
            if interpret:
                # The interpreter computes in double: the original within
                # tolerance of the JIT, the predicated program exactly as the
                # interpreted original.
                ref = results('interpret', [path, '--interpret'])
                compare('interpret', want, ref, close=True)
                if not isinstance(ref, str):
                    checked += 1
                    compare('interpret-masked', ref, results('interpret-masked', [once_path, '--interpret']))
    for f in failures:
        print('FAIL ' + f)
    print('%d predicated runs compared, %d failures' % (checked, len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
