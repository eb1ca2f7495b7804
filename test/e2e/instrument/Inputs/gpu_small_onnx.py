"""Writes a small ONNX model with named nodes (Conv, Relu, GlobalAveragePool,
Flatten, Gemm; seeded random weights) to argv[1]: the GPU profile tests'
ONNX case, where every op's location is its node's name over one file
location."""
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

rng = np.random.default_rng(7)
w = numpy_helper.from_array(rng.standard_normal((4, 3, 3, 3)).astype(np.float32), 'w')
b = numpy_helper.from_array(rng.standard_normal(4).astype(np.float32), 'b')
fc = numpy_helper.from_array(rng.standard_normal((4, 5)).astype(np.float32), 'fc')
nodes = [
    helper.make_node('Conv', ['x', 'w', 'b'], ['c'], name='conv1', pads=[1, 1, 1, 1]),
    helper.make_node('Relu', ['c'], ['r'], name='relu1'),
    helper.make_node('GlobalAveragePool', ['r'], ['g'], name='pool1'),
    helper.make_node('Flatten', ['g'], ['f'], name='flat1'),
    helper.make_node('Gemm', ['f', 'fc'], ['y'], name='fc1'),
]
graph = helper.make_graph(nodes, 'small', [helper.make_tensor_value_info('x', TensorProto.FLOAT, [1, 3, 8, 8])],
                          [helper.make_tensor_value_info('y', TensorProto.FLOAT, [1, 5])], [w, b, fc])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 14)])
onnx.checker.check_model(model)
onnx.save(model, sys.argv[1])
