"""Writes the operands of device-checks.test into DIR: in range, and out of
range for each op of checks.mlir."""
import os
import sys
import numpy as np

d = sys.argv[1]
os.makedirs(d, exist_ok=True)
rng = np.random.default_rng(0)
save = lambda name, a: np.save(os.path.join(d, name + '.npy'), a)
save('x43', rng.standard_normal((4, 3)).astype(np.float32))
save('lens_ok', np.array([4, 0, 2], np.int64))
save('lens_bad', np.array([4, 7, 2], np.int64))
save('y', rng.standard_normal((1, 2, 2, 2)).astype(np.float32))
save('idx_ok', np.array([5, 2, 8, 15, 16, 19, 26, 31], np.int64).reshape(1, 2, 2, 2))
save('idx_bad', np.array([5, 2, 8, 15, 16, 19, 26, 32], np.int64).reshape(1, 2, 2, 2))
