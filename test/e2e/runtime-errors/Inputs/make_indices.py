"""Writes the index tensors of index-errors.test into DIR: in range (with
negative ones), and one out of range per op."""
import os
import sys
import numpy as np

d = sys.argv[1]
os.makedirs(d, exist_ok=True)
rng = np.random.default_rng(0)
save = lambda name, a: np.save(os.path.join(d, name + '.npy'), a)
save('d43', rng.standard_normal((4, 3)).astype(np.float32))
save('d33', rng.standard_normal((3, 3)).astype(np.float32))
save('u13', rng.standard_normal((1, 3)).astype(np.float32))
save('gather_ok', np.array([3, -4], np.int64))
save('gather_hi', np.array([1, 4], np.int64))
save('gather_lo', np.array([0, -5], np.int64))
save('gather32_ok', np.array([[2, -1], [0, -3]], np.int32))
save('gather32_bad', np.array([[2, 1], [0, 3]], np.int32))
save('ge_ok', np.array([[0, -1, 2], [-3, 1, 0]], np.int64))
save('ge_bad', np.array([[0, 1, 2], [1, 1, 9]], np.int64))
save('se_ok', np.array([[2, -3, 1]], np.int64))
save('se_bad', np.array([[2, -4, 1]], np.int64))
