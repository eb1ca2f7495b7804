"""Quantized (int8 QDQ) models on the CPU: Strata's integer path
(strata-run --quantized int8, the nn-qdq-to-qlinear rewrite) against its f32
path on the float model and against ONNX Runtime (npm onnxruntime-node) on
both, in one run; and the int8 model's accuracy against the float model.

The QDQ models are built here with onnx.helper from PyTorch-exported float
models (the ONNX Runtime quantizer is not installable), the way ORT's static
quantizer writes them: activations uint8 asymmetric (min/max calibrated on
sample inputs run through Strata), weights int8 symmetric per output channel,
biases int32 with scale x_scale * w_scale; a QuantizeLinear/Dequantize pair
on every Conv/Gemm/MatMul input and on its output (after its bias Add and
its Relu or Clip, as ONNX Runtime's quantizer quantizes an activation's
output; --clip-outside puts it before a Clip, as the bench did first, so
the Clip runs in float between a DequantizeLinear and a QuantizeLinear of
another scale). Models (random weights, seeded): a small CNN, ResNet-18,
MobileNetV2 (ReLU6 as Clip) and a transformer-style stack of Linear layers
(MatMul + Add + Relu).

Usage: /usr/bin/python3 bench/quant/qdq_bench.py [--repeats N] [--quick] [--only WORD,...] [--clip-outside]
Prints a markdown table (docs/dsp.md keeps the last one)."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import torch
import torch.nn as nn
import torchvision
from onnx import TensorProto, helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'python'))
import strata  # noqa: E402

# STRATA_RUN names another strata-run (a build of another commit: before/after)
RUN = os.environ.get('STRATA_RUN', os.path.join(ROOT, 'build', 'tools', 'strata-run'))
ORT_JS = os.path.join(ROOT, 'bench', 'quant', 'ort_run.js')
# bench/run installs onnxruntime-node here; STRATA_ORT_MODULES names another copy
ORT_MODULES = os.environ.get('STRATA_ORT_MODULES', os.path.join(ROOT, 'bench', '.peers', 'node_modules'))


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                               nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                               nn.Conv2d(64, 128, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                               nn.Linear(128, 10))

    def forward(self, x):
        return self.f(x)


class LinearStack(nn.Module):
    """A transformer's feed-forward blocks: d=256, hidden 1024, 4 layers."""

    def __init__(self, d=256, hidden=1024, layers=4):
        super().__init__()
        self.layers = nn.ModuleList(nn.Sequential(nn.Linear(d, hidden), nn.ReLU(), nn.Linear(hidden, d))
                                    for _ in range(layers))

    def forward(self, x):
        for layer in self.layers:
            x = x + layer(x)
        return x


def export(model, sample, path):
    torch.onnx.export(model, sample, path, input_names=['x'], output_names=['y'], opset_version=13)


# ---- Calibration: every tensor QDQ needs, through Strata's float path ----

def quantized_nodes(graph):
    inits = {i.name for i in graph.initializer}
    return [n for n in graph.node if n.op_type in ('Conv', 'Gemm', 'MatMul') and n.input[1] in inits]


def output_of(graph, node, clip=True):
    """The tensor whose QuantizeLinear ends node's quantized group: after a
    MatMul's bias Add and a Relu (or, with clip, a Clip), when they are its
    only consumer."""
    consumers = {}
    for n in graph.node:
        for i in n.input:
            consumers.setdefault(i, []).append(n)
    inits = {i.name for i in graph.initializer}
    t = node.output[0]
    for kinds in (('Add',), ('Relu', 'Clip') if clip else ('Relu',)):
        c = consumers.get(t, [])
        if len(c) == 1 and c[0].op_type in kinds and (kinds[0] != 'Add' or any(i in inits for i in c[0].input)):
            t = c[0].output[0]
    return t


def calibrate(model, names, samples):
    """min and max of every tensor in names over the samples."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    del m.graph.output[:]
    for n in names:
        m.graph.output.append(helper.make_tensor_value_info(n, TensorProto.FLOAT, None))
    sess = strata.Session(m.SerializeToString(), target='cpu', cache_dir=None)
    lo, hi = {n: 0.0 for n in names}, {n: 0.0 for n in names}
    for s in samples:
        for n, v in zip(names, sess.run(None, {'x': s})):
            lo[n], hi[n] = min(lo[n], float(v.min())), max(hi[n], float(v.max()))
    return lo, hi


def uint8_params(lo, hi):
    scale = np.float32(max(hi - lo, 1e-8) / 255.0)
    zp = np.uint8(np.clip(np.rint(-lo / scale), 0, 255))
    return scale, zp


# ---- QDQ insertion ----

def weight_dq(w, name, axis, add_init, emit):
    """w as int8, symmetric per channel along axis, and its DequantizeLinear."""
    red = tuple(d for d in range(w.ndim) if d != axis)
    ws = (np.maximum(np.abs(w).max(axis=red), 1e-8) / 127.0).astype(np.float32)
    shape = [1] * w.ndim
    shape[axis] = -1
    add_init(np.clip(np.rint(w / ws.reshape(shape)), -127, 127).astype(np.int8), name + '_q')
    add_init(ws, name + '_s')
    add_init(np.zeros(ws.shape, np.int8), name + '_z')
    emit(helper.make_node('DequantizeLinear', [name + '_q', name + '_s', name + '_z'], [name + '_dq'], axis=axis))
    return ws


def build_qdq(model, samples, clip=True):
    g = model.graph
    inits = {i.name: i for i in g.initializer}
    nodes = quantized_nodes(g)
    ends = {output_of(g, n, clip) for n in nodes}
    acts = sorted({n.input[0] for n in nodes} | ends)
    lo, hi = calibrate(model, acts, samples)
    new_inits, out, cur, dropped = [], [], {}, set()

    def add_init(a, name):
        new_inits.append(numpy_helper.from_array(np.asarray(a), name))

    def qdq(t, suffix):
        """QuantizeLinear -> DequantizeLinear of t's current value."""
        s, z = uint8_params(lo[t], hi[t])
        add_init(s, t + suffix + 's')
        add_init(z, t + suffix + 'z')
        src = cur.get(t, t)
        out.append(helper.make_node('QuantizeLinear', [src, t + suffix + 's', t + suffix + 'z'], [t + suffix + 'q']))
        out.append(helper.make_node('DequantizeLinear', [t + suffix + 'q', t + suffix + 's', t + suffix + 'z'],
                                    [t + suffix + 'dq']))
        cur[t] = t + suffix + 'dq'

    for n in g.node:
        inputs = [cur.get(i, i) for i in n.input]
        if n in nodes:
            x = n.input[0]
            if x not in ends and x + '_in_dq' not in cur.values():
                qdq(x, '_in_')
            inputs[0] = cur[x]
            trans_b = any(a.name == 'transB' and a.i for a in n.attribute)
            axis = 0 if n.op_type == 'Conv' or trans_b else 1
            wn = n.input[1]
            ws = weight_dq(numpy_helper.to_array(inits[wn]).astype(np.float32), wn, axis, add_init, out.append)
            inputs[1] = wn + '_dq'
            dropped.add(wn)
            bias = n.input[2] if len(n.input) > 2 else None
            if bias is None:  # a MatMul's bias: the constant operand of its one Add
                adds = [a for a in g.node if a.op_type == 'Add' and n.output[0] in a.input]
                consts = [i for a in adds for i in a.input if i in inits]
                bias = consts[0] if len(adds) == 1 and consts else None
            if bias is not None and bias in inits and bias not in dropped:
                xs, _ = uint8_params(lo[x], hi[x])
                bs = (xs * ws).astype(np.float32)
                add_init(np.rint(numpy_helper.to_array(inits[bias]) / bs).astype(np.int32), bias + '_q')
                add_init(bs, bias + '_s')
                add_init(np.zeros(bs.shape, np.int32), bias + '_z')
                out.append(helper.make_node('DequantizeLinear', [bias + '_q', bias + '_s', bias + '_z'],
                                            [bias + '_dq'], axis=0))
                cur[bias] = bias + '_dq'
                dropped.add(bias)
                inputs = [cur.get(i, i) for i in inputs]
        node = helper.make_node(n.op_type, inputs, list(n.output), name=n.name, domain=n.domain)
        node.attribute.extend(n.attribute)
        out.append(node)
        for t in n.output:
            if t in ends:
                qdq(t, '_out_')
    outputs = []
    for o in g.output:
        if cur.get(o.name, o.name) != o.name:
            out.append(helper.make_node('Identity', [cur[o.name]], [o.name + '_int8']))
            renamed = onnx.ValueInfoProto()
            renamed.CopyFrom(o)
            renamed.name = o.name + '_int8'
            o = renamed
        outputs.append(o)
    used = {i for n in out for i in n.input}
    kept = [i for i in g.initializer if i.name not in dropped or i.name in used]
    graph = helper.make_graph(out, g.name + '_qdq', list(g.input), outputs, kept + new_inits)
    qm = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 13)])
    onnx.checker.check_model(qm)
    return qm


# ---- Timing ----

def strata_ms(path, extra, repeats):
    env = dict(os.environ, STRATA_CACHE_DIR='')
    p = subprocess.run([RUN, path, '--repeat', str(repeats), '--quiet'] + extra, capture_output=True, text=True,
                       env=env)
    if p.returncode:
        sys.exit('strata-run failed: %s %s\n%s' % (path, ' '.join(extra), p.stdout + p.stderr))
    return float(re.search(r'median ([0-9.]+) ms', p.stdout).group(1))


def ort(path, x, repeats):
    """ONNX Runtime's median ms and its output for x."""
    with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
        json.dump({'dims': list(x.shape), 'data': x.ravel().tolist()}, f)
    env = dict(os.environ, NODE_PATH=ORT_MODULES)
    p = subprocess.run(['node', ORT_JS, path, f.name, '1', str(repeats)], capture_output=True, text=True, env=env)
    os.unlink(f.name)
    if p.returncode:
        sys.exit('onnxruntime failed on %s:\n%s' % (path, p.stderr))
    r = json.loads(p.stdout)
    return r['ms'], np.array(r['output'], dtype=np.float32)


def accuracy(ref, got, classes):
    rel = float(np.abs(got - ref).max() / max(np.abs(ref).max(), 1e-12))
    if classes:
        return 'max rel err %.3f, top-1 %s' % (rel, 'same' if got.argmax() == ref.argmax() else 'differs')
    cos = float((got.ravel() @ ref.ravel()) / (np.linalg.norm(got) * np.linalg.norm(ref)))
    return 'max rel err %.3f, cosine %.4f' % (rel, cos)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--repeats', type=int, default=10)
    ap.add_argument('--quick', action='store_true', help='the small CNN only')
    ap.add_argument('--only', help='the models whose title contains one of these comma-separated words')
    ap.add_argument('--clip-outside', action='store_true',
                    help="QuantizeLinear before a conv's Clip, not after it (the Clip runs in float)")
    a = ap.parse_args()
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    cases = [('small CNN 1x3x32x32', SmallCNN().eval(), (1, 3, 32, 32), True),
             ('ResNet-18 1x3x224x224', torchvision.models.resnet18().eval(), (1, 3, 224, 224), True),
             ('MobileNetV2 1x3x224x224 (depthwise)', torchvision.models.mobilenet_v2().eval(), (1, 3, 224, 224), True),
             ('Linear stack 1x128x256 (4 FFN blocks)', LinearStack().eval(), (1, 128, 256), False)]
    if a.quick:
        cases = cases[:1]
    if a.only:
        cases = [c for c in cases if any(w in c[0] for w in a.only.split(','))]
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for title, model, shape, classes in cases:
            fp = os.path.join(work, 'f32.onnx')
            qp = os.path.join(work, 'qdq.onnx')
            export(model, torch.randn(*shape), fp)
            samples = [rng.standard_normal(shape).astype(np.float32) for _ in range(4)]
            onnx.save(build_qdq(onnx.load(fp), samples, not a.clip_outside), qp)
            x = rng.standard_normal(shape).astype(np.float32)
            (ref,) = strata.Session(fp, cache_dir=None).run(None, {'x': x})
            (got,) = strata.Session(qp, cache_dir=None, passes='func.func(nn-qdq-to-qlinear)').run(None, {'x': x})
            t_f32 = strata_ms(fp, [], a.repeats)
            t_qdq_float = strata_ms(qp, [], a.repeats)
            t_int8 = strata_ms(qp, ['--quantized', 'int8'], a.repeats)
            o_f32, _ = ort(fp, x, a.repeats)
            o_qdq, o_out = ort(qp, x, a.repeats)
            rows.append((title, t_f32, t_qdq_float, t_int8, o_f32, o_qdq, accuracy(ref, got, classes),
                         accuracy(ref, o_out.reshape(ref.shape), classes)))
    print('| model | Strata f32 | Strata QDQ as float | Strata int8 | int8 / f32 | ORT f32 | ORT QDQ (int8) | '
          'Strata int8 / ORT int8 | Strata int8 vs f32 | ORT int8 vs f32 |')
    print('|---|---|---|---|---|---|---|---|---|---|')
    for t, f, qf, i8, of, oq, acc, oacc in rows:
        print('| %s | %.2f ms | %.2f ms | %.2f ms | %.2fx | %.2f ms | %.2f ms | %.2fx | %s | %s |' % (
            t, f, qf, i8, i8 / f, of, oq, i8 / oq, acc, oacc))


if __name__ == '__main__':
    main()
