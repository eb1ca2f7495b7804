"""Writes an ONNX model whose weights the runtime packs: a 16->64 3x3
convolution (the direct kernel's packed filters), a 64->64 3x3 one
(Winograd-transformed filters), a 1x1 convolution (GEMM panels), global
pooling and a Gemm of constant B. Seeded weights.
Usage: gen_cache_model.py OUT.onnx [--seed N] [--external]
(--external: the weights in OUT.onnx.data beside it)"""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ap = argparse.ArgumentParser()
ap.add_argument('out')
ap.add_argument('--seed', type=int, default=0)
ap.add_argument('--external', action='store_true')
a = ap.parse_args()
rng = np.random.default_rng(a.seed)


def w(name, *shape):
    return numpy_helper.from_array((rng.standard_normal(shape) * 0.1).astype(np.float32), name)


inits = [w('w1', 64, 16, 3, 3), w('b1', 64), w('w3', 64, 64, 3, 3), w('w2', 32, 64, 1, 1), w('fc', 32, 10), w('fcb', 10)]
nodes = [
    helper.make_node('Conv', ['x', 'w1', 'b1'], ['c1'], pads=[1, 1, 1, 1]),
    helper.make_node('Relu', ['c1'], ['r1']),
    helper.make_node('Conv', ['r1', 'w3'], ['c3'], pads=[1, 1, 1, 1]),
    helper.make_node('Conv', ['c3', 'w2'], ['c2']),
    helper.make_node('GlobalAveragePool', ['c2'], ['p']),
    helper.make_node('Flatten', ['p'], ['f']),
    helper.make_node('Gemm', ['f', 'fc', 'fcb'], ['y']),
]
graph = helper.make_graph(nodes, 'cache', [helper.make_tensor_value_info('x', TensorProto.FLOAT, [1, 16, 20, 20])],
                          [helper.make_tensor_value_info('y', TensorProto.FLOAT, [1, 10])], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 14)])
if a.external:
    onnx.save_model(model, a.out, save_as_external_data=True, all_tensors_to_one_file=True,
                    location=os.path.basename(a.out) + '.data', size_threshold=0)
else:
    onnx.save_model(model, a.out)
