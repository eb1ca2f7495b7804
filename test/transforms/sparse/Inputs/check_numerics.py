"""check_numerics.py DIR REF:VARIANT[,VARIANT...] ... : for each function of
DIR/REF.mlir, runs the reference interpreter (strata-run --interpret, same
seeded random inputs) on REF and on each DIR/VARIANT.mlir and prints
'<function> <variant>: close' when the outputs agree within 1e-5 + 1e-5*|ref|,
else MISMATCH with the largest error."""
import os
import re
import subprocess
import sys
import numpy as np

out_dir = sys.argv[1]


def run(model, func):
    out = os.path.join(out_dir, '%s.%s.npy' % (os.path.basename(model), func))
    subprocess.run(['strata-run', model, '--entry', func, '--interpret', '--quiet', '--output', out],
                   check=True, stdout=subprocess.DEVNULL)
    return np.load(out)


for spec in sys.argv[2:]:
    ref, variants = spec.split(':')
    ref_model = os.path.join(out_dir, ref + '.mlir')
    funcs = re.findall(r'^\s*func\.func @(\w+)', open(ref_model).read(), re.M)
    for func in funcs:
        want = run(ref_model, func)
        for v in variants.split(','):
            got = run(os.path.join(out_dir, v + '.mlir'), func)
            good = got.shape == want.shape and np.all(np.abs(got - want) <= 1e-5 + 1e-5 * np.abs(want))
            err = np.abs(got - want).max() if got.shape == want.shape else float('inf')
            print('%s %s: %s' % (func, v, 'close' if good else 'MISMATCH (max abs error %g)' % err))
