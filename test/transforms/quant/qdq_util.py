"""Helpers of the nn-qdq-to-qlinear numerics scripts in this directory: an
ONNX initializer, and a model as text after the pass (strata-import,
strata-opt)."""
import os
import subprocess
import tempfile

import numpy as np
from onnx import numpy_helper

PASS = 'func.func(nn-qdq-to-qlinear)'


def init(name, a):
    return numpy_helper.from_array(np.asarray(a), name)


def rewritten(data):
    """The serialized ONNX model `data` after the pass, as text."""
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, 'm.onnx')
        with open(p, 'wb') as f:
            f.write(data)
        ir = subprocess.run(['strata-import', p], capture_output=True, text=True, check=True).stdout
        return subprocess.run(['strata-opt', '--pass-pipeline=builtin.module(%s)' % PASS], input=ir,
                              capture_output=True, text=True, check=True).stdout
