"""Compares .npy outputs: npy_compare.py GOT.npy REF.npy [GOT.npy REF.npy ...]
[--rtol X] [--differ]. Each pair prints one line, `close` when
max|got - ref| <= rtol * max|ref| (rtol 1e-5) and `DIFFERENT` otherwise;
with --differ the pairs must differ by more than 100 * rtol * max|ref| (a
change that rounding cannot explain) and print `changed` or `UNCHANGED`.
Exits 1 on any unexpected verdict (or shape mismatch)."""
import os
import sys

import numpy as np


def main():
    args = sys.argv[1:]
    rtol, differ = 1e-5, '--differ' in args
    if '--rtol' in args:
        rtol = float(args[args.index('--rtol') + 1])
        del args[args.index('--rtol'):args.index('--rtol') + 2]
    files = [a for a in args if a != '--differ']
    if not files or len(files) % 2:
        sys.exit(__doc__)
    ok = True
    for got_path, ref_path in zip(files[::2], files[1::2]):
        got, ref = np.load(got_path).astype(np.float64), np.load(ref_path).astype(np.float64)
        name = '%s vs %s' % (os.path.basename(got_path), os.path.basename(ref_path))
        if got.shape != ref.shape:
            print('%s: shapes %s and %s: DIFFERENT' % (name, got.shape, ref.shape))
            ok = False
            continue
        scale = float(np.abs(ref).max())
        err = float(np.abs(got - ref).max())
        if differ:
            verdict = 'changed' if err > 100 * rtol * scale else 'UNCHANGED'
        else:
            verdict = 'close' if np.isfinite(err) and err <= rtol * scale else 'DIFFERENT'
        ok = ok and verdict in ('close', 'changed')
        print('%s: max error %.2g of max|ref| %.3g: %s' % (name, err / scale if scale else err, scale, verdict))
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
