"""Checks strata-run's outputs against numpy: relu(a @ b + 0.5)."""
import sys
import numpy as np

a, b, jit, ref = (np.load(p) for p in sys.argv[1:5])
want = np.maximum(a.astype(np.float64) @ b.astype(np.float64) + 0.5, 0)
for name, got in (('jit', jit), ('interpreter', ref)):
    assert got.dtype == np.float32 and got.shape == (3, 5), (name, got.dtype, got.shape)
    err = np.abs(got - want).max()
    assert err < 1e-5, '%s differs from numpy by %g' % (name, err)
print('outputs match numpy')
