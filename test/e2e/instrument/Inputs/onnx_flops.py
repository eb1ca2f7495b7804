"""FLOPs of an ONNX model, counted from its graph alone (node attributes and
the shapes onnx.shape_inference gives), under the per-op conventions that
docs/instrument.md states for Strata's `flops` tool. Written apart from
Strata (no Strata code runs) so that the tool's total can be checked
against it. Knows the ops of the CNNs the tests use; any other op is an
error, not a silent 0.
Usage: onnx_flops.py MODEL.onnx   (prints one line per node and the total)"""
import math
import sys

import onnx
from onnx import numpy_helper, shape_inference


def _shapes(model):
    """Every value's static shape: graph inputs and outputs, inferred
    intermediates, initializers."""
    graph = model.graph
    shapes = {}
    for v in list(graph.input) + list(graph.output) + list(graph.value_info):
        dims = v.type.tensor_type.shape.dim
        if all(d.HasField('dim_value') for d in dims):
            shapes[v.name] = [d.dim_value for d in dims]
    for t in graph.initializer:
        shapes[t.name] = list(t.dims)
    for n in graph.node:  # Constant nodes hold values too
        if n.op_type == 'Constant':
            for a in n.attribute:
                if a.name == 'value':
                    shapes[n.output[0]] = list(numpy_helper.to_array(a.t).shape)
    return shapes


def _attr(node, name, default):
    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


def node_flops(node, shape):
    """FLOPs of one node; `shape(name)` gives a value's shape."""
    op = node.op_type
    out = math.prod(shape(node.output[0]))
    if op == 'Conv':
        # One multiply and one add per weight tap per output element: the
        # taps are the Cin/group input channels times the kernel window.
        # The bias add is not counted.
        x, w = shape(node.input[0]), shape(node.input[1])
        group = _attr(node, 'group', 1)
        kernel = _attr(node, 'kernel_shape', w[2:])
        return 2 * out * (x[1] // group) * math.prod(kernel)
    if op == 'Gemm':
        # Y = alpha * A'B' + beta * C: a multiply and an add per term of the
        # K-long dot product, then 2 per output element for the scaling by
        # alpha and the bias term (counted with or without C).
        a = shape(node.input[0])
        k = a[0] if _attr(node, 'transA', 0) else a[1]
        return (2 * k + 2) * out
    if op in ('Relu', 'Add'):
        return out  # one per output element
    if op == 'MaxPool':
        # One comparison per window element per output (padding included).
        return out * math.prod(_attr(node, 'kernel_shape', None))
    if op == 'GlobalAveragePool':
        return math.prod(shape(node.input[0]))  # one add per input element
    if op in ('Flatten', 'Identity', 'Reshape', 'Constant'):
        return 0  # data movement
    raise ValueError('onnx_flops: no FLOPs convention for %s (node %s)' % (op, node.name))


def count(path):
    """[(node, flops)] in graph order."""
    model = shape_inference.infer_shapes(onnx.load(path), strict_mode=True)
    shapes = _shapes(model)

    def shape(name):
        if name not in shapes:
            raise ValueError('onnx_flops: no static shape for %s' % name)
        return shapes[name]

    return [(n, node_flops(n, shape)) for n in model.graph.node]


if __name__ == '__main__':
    nodes = count(sys.argv[1])
    for n, f in nodes:
        print('%s %s %d' % (n.name, n.op_type, f))
    print('total %d in %d nodes' % (sum(f for _, f in nodes), len(nodes)))
