"""python/strata: a Session on torchvision ResNet-18 (random weights)
matches PyTorch; its signature, its errors; compile_mlir with a pass
pipeline and the interpreter; the ONNX backend interface.
Usage: session_test.py WORKDIR"""
import os
import sys
import warnings

import numpy as np
import onnx
import torch
import torchvision
from onnx import TensorProto, helper

import strata
import strata.backend

warnings.filterwarnings('ignore')
work = sys.argv[1]
os.makedirs(work, exist_ok=True)

torch.manual_seed(0)
model = torchvision.models.resnet18(weights=None).eval()
x = torch.randn(1, 3, 224, 224)
with torch.no_grad():
    want = model(x).numpy()
path = os.path.join(work, 'resnet18.onnx')
torch.onnx.export(model, x, path, opset_version=14, input_names=['input'], output_names=['logits'])

sess = strata.Session(path, target='cpu', threads=2)
print('inputs:', sess.get_inputs())
print('outputs:', sess.get_outputs())
(got,) = sess.run(None, {'input': x.numpy()})
err = float(np.abs(got - want).max())
print('resnet18: %s max abs error %.3g (output range %.3g)' % (
    'OK' if got.shape == want.shape and err <= 1e-3 * np.ptp(want) else 'MISMATCH', err, np.ptp(want)))
(again,) = sess.run(['logits'], [x.numpy()])
print('second run identical:', bool(np.array_equal(again, got)))
# The model cache: the second session of the file is served from it.
cache = os.path.join(work, 'cache')
for k in range(2):
    cs = strata.Session(path, threads=2, cache_dir=cache)
    (c,) = cs.run(None, {'input': x.numpy()})
    print('cached session %d: from the cache %s, identical %s' % (k, cs.from_cache, bool(np.array_equal(c, got))))
    (named,) = cs.run(['logits'], {'input': x.numpy()})  # the names come from Strata, cached or not
    print('cached session %d names: %s -> %s' % (k, [a.name for a in cs.get_inputs()], [a.name for a in cs.get_outputs()]))
    cs.close()

for what, call in [
        ('wrong dtype', lambda: sess.run(None, {'input': x.numpy().astype(np.float64)})),
        ('wrong shape', lambda: sess.run(None, {'input': np.zeros((1, 3, 8, 8), np.float32)})),
        ('missing input', lambda: sess.run(None, {})),
        ('unknown input', lambda: sess.run(None, {'input': x.numpy(), 'extra': x.numpy()})),
        ('unknown output', lambda: sess.run(['nope'], {'input': x.numpy()})),
        ('no such file', lambda: strata.Session(os.path.join(work, 'missing.onnx'))),
        ('corrupt model', lambda: strata.Session(b'\x08\x07garbage')),
        ('unknown target', lambda: strata.Session(path, target='tpu'))]:
    try:
        call()
        print('%s: NOT REFUSED' % what)
    except (strata.StrataError, OSError) as e:
        print('%s: refused: %s' % (what, str(e).splitlines()[0]))

text = '''func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "nn.add"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "nn.relu"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}'''
a, b = np.array([1, -2, 3, -4], np.float32), np.array([0.5, 0.5, -5, 5], np.float32)
for target in ('cpu', 'interpreter'):
    m = strata.compile_mlir(text, target=target, passes='func.func(nn-fold)', fusion='none')
    print('mlir %s:' % target, m.run(None, [a, b])[0].tolist())

node = helper.make_node('Gemm', ['a', 'b', 'c'], ['y'], transB=1)
g = helper.make_graph([node], 'g', [helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
                                    for n, s in (('a', [2, 3]), ('b', [4, 3]), ('c', [4]))],
                      [helper.make_tensor_value_info('y', TensorProto.FLOAT, [2, 4])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid('', 13)])
ga, gb, gc = (np.random.default_rng(1).standard_normal(s).astype(np.float32) for s in ((2, 3), (4, 3), (4,)))
print('backend supports CPU:', strata.backend.supports_device('CPU'), 'CUDA:', strata.backend.supports_device('CUDA'))
(y,) = strata.backend.run_model(m, [ga, gb, gc])
print('backend gemm: %s' % ('OK' if np.allclose(y, ga @ gb.T + gc, atol=1e-5) else 'MISMATCH'))
# GatherND: an index outside its dim is a run-time error, not another element.
g = helper.make_graph([helper.make_node('GatherND', ['d', 'i'], ['y'], name='gnd')], 'g',
                      [helper.make_tensor_value_info('d', TensorProto.FLOAT, [3, 4]),
                       helper.make_tensor_value_info('i', TensorProto.INT64, [1, 2])],
                      [helper.make_tensor_value_info('y', TensorProto.FLOAT, [1])])
gs = strata.Session(helper.make_model(g, opset_imports=[helper.make_opsetid('', 13)]))
d = np.arange(12, dtype=np.float32).reshape(3, 4)
print('gathernd [1, -1]:', gs.run(None, [d, np.array([[1, -1]], np.int64)])[0].tolist())
try:
    gs.run(None, [d, np.array([[0, 5]], np.int64)])
    print('gathernd [0, 5]: NOT REFUSED')
except strata.StrataError as e:
    print('gathernd [0, 5]: refused: %s' % str(e).splitlines()[0])
# A result of dynamic shape is sized by the call: one compiled session runs
# a concat of run-time extents at two shapes.
text = '''func.func @main(%a: tensor<?x2xf32>, %b: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %0 = "nn.concat"(%a, %b) {axis = 0 : i64} : (tensor<?x2xf32>, tensor<?x2xf32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}'''
dm = strata.compile_mlir(text, target='cpu')
for n, k in ((1, 2), (3, 0)):
    a, b = np.full((n, 2), 1, np.float32), np.full((k, 2), 2, np.float32)
    print('dynamic concat %dx2 + %dx2:' % (n, k), dm.run(None, [a, b])[0].tolist())
sess.close()
