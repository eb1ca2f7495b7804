"""Builds ONNX models whose shapes are computed in the graph (Shape, Size,
Slice, Sub, ConstantOfShape, Concat, Range, Gather, the way ONNX's function
expansions and exporters compute them) with numpy reference outputs. The
importer folds such chains while it builds, so the Reshape that reads one
gets a static result type (a static input) or at least a known rank (a
symbolic dim: the '_dyn' models). Usage: gen_shape_fold.py OUTDIR."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

from onnx_cases import Cases

OUT = sys.argv[1]
rng = np.random.default_rng(19)
C = Cases(OUT)
I64 = TensorProto.INT64


def r(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def i64(*v):
    return np.array(v, np.int64)


def symbolic_first_dim(name):
    """The case's model again as NAME_dyn.onnx, its first input's dim 0 named 'N'."""
    m = onnx.load(os.path.join(OUT, name + '.onnx'))
    d = m.graph.input[0].type.tensor_type.shape.dim[0]
    d.ClearField('dim_value')
    d.dim_param = 'N'
    for o in m.graph.output:
        o.type.tensor_type.shape.ClearField('dim')
    onnx.save(m, os.path.join(OUT, name + '_dyn.onnx'))


# The mean over the dims from `axis` on, reshaped to the input's prefix dims
# followed by ones (LayerNormalization's expanded Mean output): the shape is
# Concat(Slice(Shape(x), 0, axis), ConstantOfShape(Size(Shape(x)) - axis)).
x = r(2, 3, 5)
nodes = [helper.make_node('Shape', ['x'], ['shape']),
         helper.make_node('Size', ['shape'], ['rank']),
         helper.make_node('Slice', ['shape', 'zero', 'axis'], ['prefix']),
         helper.make_node('Sub', ['rank', 'axis'], ['nreduced']),
         helper.make_node('ConstantOfShape', ['nreduced'], ['ones'], value=helper.make_tensor('one', I64, [1], [1])),
         helper.make_node('Concat', ['prefix', 'ones'], ['rshape'], axis=0),
         helper.make_node('Flatten', ['x'], ['x2'], axis=1),
         helper.make_node('ReduceMean', ['x2'], ['m2'], axes=[1]),
         helper.make_node('Reshape', ['m2', 'rshape'], ['y'])]
C.case('reduced_shape_chain', nodes, [('x', x)], [x.mean(axis=(1, 2), keepdims=True)],
       inits=[('zero', i64(0)), ('axis', i64(1))], opset=13)
symbolic_first_dim('reduced_shape_chain')

# Axes from Range(0, Size(Shape(x)), 1) minus the first (all but the batch
# dim), a dim from Gather(Shape(x), 1) with Unsqueeze: Reshape(sum, [d1, -1]).
x = r(4, 3, 2)
nodes = [helper.make_node('Shape', ['x'], ['shape']),
         helper.make_node('Size', ['shape'], ['rank']),
         helper.make_node('Range', ['one', 'rank', 'one'], ['axes']),
         helper.make_node('ReduceSum', ['x', 'axes'], ['s'], keepdims=1),
         helper.make_node('Gather', ['shape', 'one'], ['d1'], axis=0),
         helper.make_node('Unsqueeze', ['d1', 'zero1'], ['d1u']),
         helper.make_node('Concat', ['minus1', 'd1u'], ['rshape'], axis=0),
         helper.make_node('Expand', ['s', 'shape'], ['e']),
         helper.make_node('Reshape', ['e', 'rshape'], ['y'])]
want = np.broadcast_to(x.sum(axis=(1, 2), keepdims=True), x.shape).reshape(-1, 3)
C.case('range_gather_chain', nodes, [('x', x)], [want],
       inits=[('one', np.array(1, np.int64)), ('zero1', i64(0)), ('minus1', i64(-1))], opset=13)
C.finish()
