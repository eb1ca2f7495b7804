"""Shared by the importer's model generators: writes ONNX test cases (model,
inputs, reference output) and malformed models into one directory, and the
cases.txt that run_cases.py reads."""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT


def elem(dtype):
    return onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(dtype)]


def vi(name, arr_or_shape, elem=F):
    shape = arr_or_shape.shape if hasattr(arr_or_shape, 'shape') else arr_or_shape
    return helper.make_tensor_value_info(name, elem, list(shape))


class Cases:
    def __init__(self, out):
        self.out, self.cases = out, []
        os.makedirs(out, exist_ok=True)

    def save(self, name, nodes, inputs, outputs, inits=(), opset=14):
        """A model from value infos; initializers as (name, array) or TensorProto."""
        inits = [numpy_helper.from_array(v, n) if isinstance(v, np.ndarray) else v for n, v in
                 (i if isinstance(i, tuple) else (None, i) for i in inits)]
        model = helper.make_model(helper.make_graph(nodes, name, inputs, outputs, inits),
                                  opset_imports=[helper.make_opsetid('', opset)])
        model.ir_version = 8
        onnx.save(model, os.path.join(self.out, name + '.onnx'))

    def case(self, name, nodes, inputs, ref, inits=(), opset=14):
        """inputs: list of (name, array); ref: list of expected output arrays."""
        self.save(name, nodes, [vi(n, a, elem(a.dtype)) for n, a in inputs],
                  [vi('y%d' % i if len(ref) > 1 else 'y', r, elem(r.dtype)) for i, r in enumerate(ref)], inits, opset)
        for i, (_, a) in enumerate(inputs):
            np.save(os.path.join(self.out, '%s.in%d.npy' % (name, i)), a)
        np.save(os.path.join(self.out, name + '.ref.npy'), ref[0])
        self.cases.append((name, len(inputs)))

    def finish(self):
        with open(os.path.join(self.out, 'cases.txt'), 'w') as f:
            for name, n in self.cases:
                f.write('%s %d\n' % (name, n))
        print('%d cases' % len(self.cases))
