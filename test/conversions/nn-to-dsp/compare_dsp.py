"""nn-to-dsp against the nn ops, bit for bit, in the reference interpreter.

Usage: compare_dsp.py FILE.mlir SEEDS [PIPELINE]
Converts FILE with `strata-opt --nn-to-dsp` (plus the extra passes of
PIPELINE, e.g. "--dsp-select-layouts"), checks that no nn.qlinear op is left,
and for every public function and each of SEEDS random-input seeds runs the
original and the converted function in `strata-run --interpret`: the outputs
must be equal (dtype, shape and every element). One line per function;
exits 1 on any failure."""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

path, seeds = sys.argv[1], int(sys.argv[2])
extra = sys.argv[3].split() if len(sys.argv) > 3 else []
tmp = tempfile.mkdtemp()
conv = os.path.join(tmp, 'dsp.mlir')
p = subprocess.run(['strata-opt', path, '--nn-to-dsp'] + extra + ['-o', conv], capture_output=True, text=True)
if p.returncode:
    sys.exit('strata-opt failed:\n' + p.stderr)
text = open(conv).read()
if 'nn.qlinear' in text or 'dsp.matmul' not in text:
    sys.exit('nn-to-dsp left a QLinear op or wrote no dsp.matmul')


def run(f, name, seed, out):
    r = subprocess.run(['strata-run', f, '--interpret', '--quiet', '--entry', name, '--seed', str(seed),
                        '--output', out], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(r.stdout + r.stderr)
    return np.load(out)


failed = 0
names = re.findall(r'^func\.func @([\w$.-]+)\(', open(path).read(), re.M)
for name in names:
    verdict = 'OK'
    for seed in range(seeds):
        try:
            ref = run(path, name, seed, os.path.join(tmp, 'ref.npy'))
            got = run(conv, name, seed, os.path.join(tmp, 'got.npy'))
        except RuntimeError as e:
            verdict = 'FAIL: ' + str(e)
            break
        if ref.dtype != got.dtype or ref.shape != got.shape or not np.array_equal(ref, got):
            diff = int(np.sum(ref != got)) if ref.shape == got.shape else -1
            verdict = 'FAIL: seed %d: %s%s vs %s%s, %d elements differ' % (seed, ref.dtype, ref.shape, got.dtype,
                                                                          got.shape, diff)
            break
        spread = '%d distinct values' % len(np.unique(ref))
    if verdict != 'OK':
        failed += 1
        print('%s: %s' % (name, verdict))
    else:
        print('%s: OK (%d seeds, %s)' % (name, seeds, spread))
print('%d functions, %d failed' % (len(names), failed))
sys.exit(1 if failed else 0)
