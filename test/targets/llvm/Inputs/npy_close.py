"""npy_close.py A B [A B ...]: prints 'close' per pair within 1e-5 + 1e-5*|B|."""
import sys
import numpy as np

args = sys.argv[1:]
for a, b in zip(args[::2], args[1::2]):
    x, y = np.load(a), np.load(b)
    ok = x.shape == y.shape and np.all(np.abs(x - y) <= 1e-5 + 1e-5 * np.abs(y))
    print('close' if ok else 'MISMATCH %s vs %s: max abs error %g' % (a, b, np.abs(x - y).max()))
