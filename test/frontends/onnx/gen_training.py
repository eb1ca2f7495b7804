"""Builds models of ONNX's training-domain optimizers (ai.onnx.preview.training
opset 1: Adagrad, Adam, Momentum standard and Nesterov) with numpy
references written from the ONNX spec, several tensors per node, and the
malformed ones (bad_*.onnx) the importer refuses. Usage: gen_training.py OUTDIR."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
rng = np.random.default_rng(3)
TRAIN = 'ai.onnx.preview.training'
cases = []


def elem(a):
    return onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[a.dtype]


def save(name, node, inputs, outputs, opsets=((TRAIN, 1),)):
    g = helper.make_graph([node], name, [helper.make_tensor_value_info(n, elem(a), a.shape) for n, a in inputs],
                          [helper.make_tensor_value_info(n, elem(a), a.shape) for n, a in outputs])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets])
    m.ir_version = 8
    onnx.save(m, os.path.join(OUT, name + '.onnx'))


def case(name, op, inputs, outputs, domain=TRAIN, opsets=((TRAIN, 1),), **attrs):
    """One case per output (run_cases.py compares output 0): the node's
    outputs are all computed, the model returns output k."""
    names = ['o%d' % i for i in range(len(outputs))]
    for k, want in enumerate(outputs):
        node = helper.make_node(op, [n for n, _ in inputs], names[:k] + ['y'] + names[k + 1:], domain=domain, **attrs)
        cname = '%s_out%d' % (name, k)
        save(cname, node, inputs, [('y', want)], opsets)
        for i, (_, a) in enumerate(inputs):
            np.save(os.path.join(OUT, '%s.in%d.npy' % (cname, i)), a)
        np.save(os.path.join(OUT, cname + '.ref.npy'), want)
        cases.append((cname, len(inputs)))


def tensors(dtype, shapes, positive=False):
    return [(np.abs(rng.standard_normal(s)) + 0.1 if positive else rng.standard_normal(s)).astype(dtype) for s in shapes]


def scalars(dtype, t):
    return [('R', np.array(0.1, dtype)), ('T', np.array(t, np.int64))]


# Adagrad: r = R / (1 + T * decay); g = norm * X + G; H' = H + g^2;
# X' = X - r * g / (sqrt(H') + epsilon).
for dtype, t, shapes in ((np.float32, 3, [(3,), (2, 2)]), (np.float64, 0, [(4,)])):
    xs, gs, hs = tensors(dtype, shapes), tensors(dtype, shapes), tensors(dtype, shapes, True)
    decay, eps, norm = 0.1, 1e-5, 0.01
    r = 0.1 / (1 + t * decay)
    g = [norm * x + gg for x, gg in zip(xs, gs)]
    h2 = [h + gg * gg for h, gg in zip(hs, g)]
    x2 = [x - r * gg / (np.sqrt(h) + eps) for x, gg, h in zip(xs, g, h2)]
    n = len(shapes)
    ins = scalars(dtype, t) + [('X%d' % i, a) for i, a in enumerate(xs)] + [('G%d' % i, a) for i, a in enumerate(gs)] + \
        [('H%d' % i, a) for i, a in enumerate(hs)]
    case('adagrad_%s' % np.dtype(dtype).name, 'Adagrad', ins, [a.astype(dtype) for a in x2 + h2],
         decay_factor=decay, epsilon=eps, norm_coefficient=norm)

# Adam (defaults for epsilon; T > 0 corrects the rate, T = 0 does not).
for t in (0, 2):
    shapes = [(2,), (3, 1)]
    xs, gs, vs, hs = tensors(np.float32, shapes), tensors(np.float32, shapes), tensors(np.float32, shapes), \
        tensors(np.float32, shapes, True)
    alpha, beta, norm, post = 0.9, 0.8, 0.01, 0.05
    g = [norm * x + gg for x, gg in zip(xs, gs)]
    v2 = [alpha * v + (1 - alpha) * gg for v, gg in zip(vs, g)]
    h2 = [beta * h + (1 - beta) * gg * gg for h, gg in zip(hs, g)]
    r = 0.1 * np.sqrt(1 - beta ** t) / (1 - alpha ** t) if t > 0 else 0.1
    x2 = [(1 - post) * (x - r * (v / (np.sqrt(h) + 1e-6))) for x, v, h in zip(xs, v2, h2)]
    ins = scalars(np.float32, t) + [('%s%d' % (k, i), a) for k, arrs in zip('XGVH', (xs, gs, vs, hs))
                                    for i, a in enumerate(arrs)]
    case('adam_t%d' % t, 'Adam', ins, [a.astype(np.float32) for a in x2 + v2 + h2], alpha=alpha, beta=beta,
         norm_coefficient=norm, norm_coefficient_post=post)

# Momentum: g = norm * X + G; V' = alpha * V + (T > 0 ? beta : 1) * g;
# standard X' = X - R * V', nesterov X' = X - R * (g + alpha * V').
for mode in ('standard', 'nesterov'):
    for t in (0, 5):
        shapes = [(2, 3), (1,)]
        xs, gs, vs = tensors(np.float32, shapes), tensors(np.float32, shapes), tensors(np.float32, shapes)
        alpha, beta, norm = 0.9, 0.5, 0.02
        g = [norm * x + gg for x, gg in zip(xs, gs)]
        v2 = [alpha * v + (beta if t > 0 else 1) * gg for v, gg in zip(vs, g)]
        x2 = [x - 0.1 * (v if mode == 'standard' else gg + alpha * v) for x, v, gg in zip(xs, v2, g)]
        ins = scalars(np.float32, t) + [('%s%d' % (k, i), a) for k, arrs in zip('XGV', (xs, gs, vs))
                                        for i, a in enumerate(arrs)]
        case('momentum_%s_t%d' % (mode, t), 'Momentum', ins, [a.astype(np.float32) for a in x2 + v2],
             alpha=alpha, beta=beta, mode=mode, norm_coefficient=norm)

# BatchNormalization with training_mode = 1 (default domain, opset 15): the
# batch's mean and biased variance over every axis but 1 normalize X; the
# running statistics move towards them by 1 - momentum.
for shape, eps, mom in (((2, 3, 4, 5), 1e-5, 0.9), ((4, 2, 3), 1e-2, 0.7)):
    x = rng.standard_normal(shape).astype(np.float32)
    c = shape[1]
    sc, b, m, v = (rng.standard_normal(c).astype(np.float32), rng.standard_normal(c).astype(np.float32),
                   rng.standard_normal(c).astype(np.float32), rng.random(c).astype(np.float32))
    axes = tuple(i for i in range(len(shape)) if i != 1)
    bm, bv = x.mean(axis=axes), x.var(axis=axes)
    ex = (-1,) + (1,) * (len(shape) - 2)
    y = sc.reshape(ex) * (x - bm.reshape(ex)) / np.sqrt(bv.reshape(ex) + eps) + b.reshape(ex)
    case('batchnorm_training_rank%d' % len(shape), 'BatchNormalization',
         [('x', x), ('s', sc), ('b', b), ('m', m), ('v', v)],
         [y.astype(np.float32), (m * mom + bm * (1 - mom)).astype(np.float32),
          (v * mom + bv * (1 - mom)).astype(np.float32)], domain='', opsets=(('', 15),), epsilon=eps, momentum=mom,
         training_mode=1)

with open(os.path.join(OUT, 'cases.txt'), 'w') as f:
    for name, n in cases:
        f.write('%s %d\n' % (name, n))
print('%d cases' % len(cases))

# ---- Refused.
x = np.zeros(2, np.float32)
ins = scalars(np.float32, 1) + [('X', x), ('G', x), ('V', x)]
save('bad_momentum_mode', helper.make_node('Momentum', ['R', 'T', 'X', 'G', 'V'], ['y', 'v'], domain=TRAIN,
                                           alpha=0.9, beta=0.1, norm_coefficient=0.0, mode='heavy', name='mom'),
     ins, [('y', x)])
save('bad_momentum_groups', helper.make_node('Momentum', ['R', 'T', 'X', 'G'], ['y'], domain=TRAIN, alpha=0.9,
                                             beta=0.1, norm_coefficient=0.0, mode='standard', name='mom'),
     ins[:4], [('y', x)])
save('bad_adagrad_t', helper.make_node('Adagrad', ['R', 'X', 'X', 'G', 'V'], ['y'], domain=TRAIN, name='ada'),
     ins, [('y', x)])
save('bad_training_op', helper.make_node('Gradient', ['X'], ['y'], domain=TRAIN, name='grad'), ins[2:3], [('y', x)])
save('bad_training_opset', helper.make_node('Adagrad', ['R', 'T', 'X', 'G', 'V'], ['y'], domain=TRAIN, name='ada'),
     ins, [('y', x)], opsets=((TRAIN, 2),))
save('bad_training_default_node', helper.make_node('Relu', ['X'], ['y'], name='relu'), ins[2:3], [('y', x)])
c3 = np.zeros(3, np.float32)
save('bad_batchnorm_saved', helper.make_node('BatchNormalization', ['x', 's', 'b', 'm', 'v'], ['y', 'rm', 'rv', 'sm'],
                                             training_mode=1, name='bn'),
     [('x', np.zeros((2, 3), np.float32)), ('s', c3), ('b', c3), ('m', c3), ('v', c3)],
     [('y', np.zeros((2, 3), np.float32))], opsets=(('', 15),))
