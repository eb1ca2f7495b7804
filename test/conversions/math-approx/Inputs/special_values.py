"""Writes the inputs of numerics.test: 4096 float32 values covering the
range and the edge cases of exp, tanh and erf. Usage: special_values.py OUT"""
import sys

import numpy as np

edges = [0.0, -0.0, np.inf, -np.inf, np.nan, 88.7, 88.72, 88.7228, 88.73, -87.3, -87.34, -87.4, -103.0,
         1e-30, -1e-30, 0.625, -0.625, 0.62499, 1.0, -1.0, 0.99999, 1.00001, 9.0, -9.0, 20.0, -20.0]
x = np.concatenate([np.linspace(-100, 100, 2000), np.linspace(-3, 3, 1000),
                    np.random.RandomState(0).randn(1000) * 1e-3, edges]).astype(np.float32)
np.save(sys.argv[1], np.concatenate([x, np.zeros(4096 - len(x), np.float32)]))
