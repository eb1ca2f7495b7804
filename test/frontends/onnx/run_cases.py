"""Runs every generated ONNX case through strata-run (the CPU pipeline, or
the interpreter with --interpret) and compares with its numpy reference:
max abs error <= 1e-5 * max(1, output range). Usage: run_cases.py DIR [--interpret]"""
import os
import subprocess
import sys

import numpy as np

d, extra = sys.argv[1], sys.argv[2:]
failed = 0
cases = [line.split() for line in open(os.path.join(d, 'cases.txt'))]
for name, n in cases:
    out = os.path.join(d, name + '.out.npy')
    cmd = ['strata-run', os.path.join(d, name + '.onnx'), '--quiet', '--output', out] + extra
    for i in range(int(n)):
        cmd += ['--input', os.path.join(d, '%s.in%d.npy' % (name, i))]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        print('%s: FAIL %s' % (name, p.stderr.strip()))
        failed += 1
        continue
    got, want = np.load(out), np.load(os.path.join(d, name + '.ref.npy'))
    scale = max(1.0, float(np.ptp(want))) if want.size else 1.0
    err = float(np.abs(got.astype(np.float64) - want.astype(np.float64)).max()) if want.size else 0.0
    ok = got.shape == want.shape and got.dtype == want.dtype and err <= 1e-5 * scale
    print('%s: %s (max abs error %.3g)' % (name, 'OK' if ok else 'FAIL shape %s %s vs %s %s' % (got.shape, got.dtype, want.shape, want.dtype), err))
    failed += not ok
print('%d cases, %d failed' % (len(cases), failed))
sys.exit(1 if failed else 0)
