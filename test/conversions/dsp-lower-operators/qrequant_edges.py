"""Inputs/qrequant.mlir compiled for a target against the interpreter, on
full-range i32 sums and zero points and scales that reach every branch of
the requantization (qrequant.test, test/targets/hexagon/qlayers.test).
Usage: qrequant_edges.py DIR TARGET SEED...
Prints one `strata-run --compare` line per entry and seed; exits 1 if a run
fails or differs."""
import os
import subprocess
import sys

import numpy as np

d, target, seeds = sys.argv[1], sys.argv[2], [int(s) for s in sys.argv[3:]]
os.makedirs(d, exist_ok=True)
mlir = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'Inputs', 'qrequant.mlir')
ENTRIES = {'u8': 'acc rs cs as az bs bz ys yz bias', 's8': 'acc rs cs as0 az1 bs1 bz0 ys0 yz0',
           'sum': 'acc rs cs az bz'}


def gen(seed):
    r = np.random.default_rng(seed)
    f = np.float32
    # m's special and edge values come from these scales: zeros (m = 0, or inf
    # through y_scale), infinities, NaN, denormals, tiny and huge values,
    # negative ones, powers of two (exact halves: ties to even), plain values.
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, 3e-39, 1e-30, 1e30, 3e38, -0.02, 0.5, 0.25, 1.5,
                        2.0**-20, 2.0**20, 3.0, 1.0, 0.0123, 7e-5], dtype=f)

    def scales(n):
        v = r.uniform(1e-4, 0.05, n).astype(f)
        pick = r.random(n) < 0.6
        v[pick] = r.choice(special, int(pick.sum()))
        return v

    def i32(shape):
        v = r.integers(-2**31, 2**31, shape).astype(np.int32)
        small = r.random(shape) < 0.5  # sums a requantization keeps inside 8 bits
        v[small] = r.integers(-600, 600, int(small.sum()))
        return v

    def save(name, a):
        np.save('%s/%s.npy' % (d, name), a)

    acc, rs, cs = i32((7, 5)), i32((7, 1)), i32((1, 5))
    az = r.integers(-128, 128, 7).astype(np.int8)
    bz = r.integers(0, 256, 5).astype(np.uint8)
    for n, a in [('acc', acc), ('rs', rs), ('cs', cs), ('as', scales(7)), ('az', az), ('bs', scales(5)), ('bz', bz),
                 ('ys', scales(7)), ('yz', r.integers(0, 256, 7).astype(np.uint8)), ('bias', i32(5)),
                 ('as0', scales(1).reshape(())), ('az1', r.integers(0, 256, 1).astype(np.uint8)), ('bs1', scales(1)),
                 ('bz0', np.array(r.integers(-128, 128), dtype=np.int8)), ('ys0', np.array(0.5 if seed % 2 else 0.003, f)),
                 ('yz0', np.array(r.integers(-128, 128), dtype=np.int8))]:
        save(n, a)
    if seed == 3:
        # @s8 on a product the f64 arithmetic rounds: |s| * mant = 113 * 2^47 + 1
        # (57 bits), so s * m = 56.5 + 2^-48 exactly (57), but 56.5 in f64,
        # rounded half to even: 56. The interpreter's answer is 56.
        s = 1793690195
        acc[0, :2] = [s, -s]
        save('acc', acc)
        for n, a in [('as0', np.array(8866267 * 2.0**-48, f)), ('az1', np.zeros(1, np.uint8)), ('bs1', np.ones(1, f)),
                     ('bz0', np.array(0, np.int8)), ('ys0', np.array(1, f)), ('yz0', np.array(0, np.int8))]:
            save(n, a)


failed = 0
for seed in seeds:
    gen(seed)
    for entry, names in ENTRIES.items():
        args = ['strata-run', mlir, '--target', target, '--entry', entry, '--compare', '--atol', '0', '--rtol', '0',
                '--quiet']
        for n in names.split():
            args += ['--input', '%s/%s.npy' % (d, n)]
        p = subprocess.run(args, capture_output=True, text=True)
        line = [l for l in p.stdout.splitlines() if l.startswith('compare')]
        print('seed %d %s: %s' % (seed, entry, line[-1] if line else 'FAIL: ' + p.stdout + p.stderr))
        failed += p.returncode != 0
sys.exit(1 if failed else 0)
