"""Runs the compiled sparse convolutions of a merged case file (gen_sparse.py
cases --merge --funcs sparse) in several configurations and compares every
output with two references on the same seeded inputs:
  - the compiled dense convolutions (the --funcs dense file, run once), and
  - the reference interpreter on the sparse file (it decodes the FKW / CSR
    arrays into dense weights; strata-run --interpret, run once);
and, unless a variant is pre-lowered, strata-run --compare's own verdict.

Usage:
  sparse_check.py SPARSE.mlir DENSE.mlir --dir D [--seed S | --inputs DIR] [--rtol X]
      [--variant 'NAME: STRATA-RUN ARGS']...
      [--lowered 'NAME: STRATA-OPT ARGS']...
      [--external 'NAME: DIR']...
A --variant runs `strata-run SPARSE.mlir --compare ARGS`; a --lowered one
runs `strata-opt SPARSE.mlir ARGS` first (e.g. --sparse-to-vector=lre=false)
and then `strata-run` on its output, which the interpreter cannot run (the
sparse ops are gone), so only the two references judge it. An --external
one judges DIR/out<i>.npy, written by another program (an AOT-compiled
model) from the inputs DIR/in<i>.npy given with --inputs DIR, which then
replace the seeded inputs everywhere. With no variant the default pipeline
runs.

An output matches when max|y - ref| <= rtol * max|ref| (+ 1e-6 for an all-zero
reference). Prints one line per variant and a total; exits 1 on any failure."""
import argparse
import os
import re
import shlex
import subprocess
import sys

import numpy as np


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def outputs(d, tag, n):
    if tag == 'out':  # another program's: DIR/out<i>.npy
        return [os.path.join(d, 'out%d.npy' % i) for i in range(n)]
    return [os.path.join(d, '%s.%d.npy' % (tag, i)) for i in range(n)]


def out_args(files):
    return [a for f in files for a in ('--output', f)]


def num_results(path, entry):
    text = open(path).read()
    m = re.search(r'^func\.func @%s\(.*\) -> \((.*)\) \{$' % re.escape(entry), text, re.M)
    if not m:
        sys.exit('no function @%s in %s' % (entry, path))
    return m.group(1).count('tensor<')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('sparse')
    ap.add_argument('dense')
    ap.add_argument('--dir', required=True)
    ap.add_argument('--seed', default='0')
    ap.add_argument('--rtol', type=float, default=1e-5)
    ap.add_argument('--variant', action='append', default=[])
    ap.add_argument('--lowered', action='append', default=[])
    ap.add_argument('--external', action='append', default=[])
    ap.add_argument('--inputs')
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    n = num_results(a.sparse, 'cases')
    if n != num_results(a.dense, 'cases_dense'):
        sys.exit('the sparse and dense files differ in results')
    seed = ['--seed', a.seed, '--quiet']
    if a.inputs:
        ins = sorted((f for f in os.listdir(a.inputs) if re.fullmatch(r'in\d+\.npy', f)), key=lambda f: int(f[2:-4]))
        seed = [x for f in ins for x in ('--input', os.path.join(a.inputs, f))] + ['--quiet']

    # The references, each checked by the other before anything else.
    dense, interp = outputs(a.dir, 'dense', n), outputs(a.dir, 'interp', n)
    rc, log = run(['strata-run', a.dense, '--entry', 'cases_dense'] + seed + out_args(dense))
    if rc:
        sys.exit('dense run failed:\n' + log)
    rc, log = run(['strata-run', a.sparse, '--entry', 'cases', '--interpret'] + seed + out_args(interp))
    if rc:
        sys.exit('interpreter run failed:\n' + log)
    dense = [np.load(f) for f in dense]
    interp = [np.load(f) for f in interp]
    nonzero = sum(int(np.any(d != 0)) for d in dense)
    print('references: %d outputs (%d not all zero), %d elements' % (n, nonzero, sum(d.size for d in dense)))

    def judge(name, got, log):
        worst, bad = 0.0, []
        for i in range(n):
            for rname, ref in (('dense', dense[i]), ('interpreter', interp[i])):
                scale = float(np.abs(ref).max()) if ref.size else 0.0
                if got[i].shape != ref.shape:
                    bad.append('output #%d: shape %s, %s %s' % (i, got[i].shape, rname, ref.shape))
                    continue
                err = float(np.abs(got[i].astype(np.float64) - ref).max()) if ref.size else 0.0
                if not np.isfinite(err) or err > a.rtol * scale + 1e-6:
                    bad.append('output #%d: max error %.3g vs %s (max|ref| %.3g)' % (i, err, rname, scale))
                worst = max(worst, err / scale if scale else err)
        status = 'FAIL' if bad else 'OK'
        print('%s: %s (%d outputs, worst error %.2g of max|ref|)' % (name, status, n, worst))
        for b in bad[:8]:
            print('  ' + b)
        if bad and log:
            print(log)
        return not bad

    def name_args(spec):
        name, _, args = spec.partition(':')
        return name.strip(), shlex.split(args)

    # The references agree with each other.
    ok = [judge('dense vs interpreter', dense, '')]
    for spec in a.variant or ([] if a.lowered or a.external else ['default:']):
        name, args = name_args(spec)
        files = outputs(a.dir, 'v%d' % len(ok), n)
        rc, log = run(['strata-run', a.sparse, '--entry', 'cases', '--compare', '--rtol', '1e-4',
                       '--atol', '1e-5'] + seed + args + out_args(files))
        verdicts = re.findall(r'compare output #\d+: .*: (\w+)', log)
        if rc or len(verdicts) != n or any(v != 'OK' for v in verdicts):
            print('%s: FAIL (strata-run exit %d, %d of %d compare verdicts OK)' %
                  (name, rc, verdicts.count('OK'), n))
            print(log)
            ok.append(False)
            continue
        ok.append(judge(name, [np.load(f) for f in files], log))
    for spec in a.lowered:
        name, args = name_args(spec)
        lowered = os.path.join(a.dir, 'lowered%d.mlir' % len(ok))
        rc, log = run(['strata-opt', a.sparse] + args + ['-o', lowered])
        if rc == 0 and re.search(r'"?sparse\.(fkw|csr)_conv', open(lowered).read()):
            rc, log = 1, 'strata-opt left sparse ops in place'
        if rc == 0:
            files = outputs(a.dir, 'v%d' % len(ok), n)
            rc, log = run(['strata-run', lowered, '--entry', 'cases'] + seed + out_args(files))
        if rc:
            print('%s: FAIL\n%s' % (name, log))
            ok.append(False)
            continue
        ok.append(judge(name, [np.load(f) for f in files], log))
    for spec in a.external:
        name, args = name_args(spec)
        files = outputs(args[0], 'out', n)
        missing = [f for f in files if not os.path.exists(f)]
        if missing:
            print('%s: FAIL (no %s)' % (name, missing[0]))
            ok.append(False)
            continue
        ok.append(judge(name, [np.load(f) for f in files], ''))
    print('%d checks, %d failed' % (len(ok), ok.count(False)))
    sys.exit(0 if all(ok) else 1)


if __name__ == '__main__':
    main()
