"""Writes an ONNX model whose input has symbolic dims named by dim_param
(batch, height, width) and one unnamed symbolic dim: Conv -> Relu ->
Flatten, for onnx-dim-params.test."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3, "height", "width"])
z = helper.make_tensor_value_info("z", TensorProto.FLOAT, [None, 5])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
w = numpy_helper.from_array(np.ones((8, 3, 3, 3), np.float32), "w")
nodes = [
    helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["c"], ["r"]),
    helper.make_node("Flatten", ["r"], ["y"]),
]
graph = helper.make_graph(nodes, "dims", [x, z], [y], [w])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
onnx.save(model, sys.argv[1])
