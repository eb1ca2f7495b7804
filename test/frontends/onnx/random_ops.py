"""The seeded random operators (RandomUniform, RandomNormal, their *Like
forms, Bernoulli) and Dropout in training mode, through strata.Session on
the CPU and the interpreter:
  - both give the same bits, and the same bits as generator() below, a
    transcription of the generator docs/onnx.md documents (nn_random.h);
  - two sessions of one model give the same values; another seed others;
  - a node without a seed is given a fresh one at each import;
  - properties: dtype, shape, range, value set, and statistical checks
    (6 standard deviations: a constant, a wrong range or a wrong
    probability fails them);
  - Dropout: every output element 0 or x / (1 - ratio), the mask
    consistent with it, ratio 0 and training_mode false the identity.
Usage: random_ops.py; prints one line per check and a summary."""
import math
import struct
import sys

import numpy as np
from onnx import TensorProto, helper

import strata

M64 = (1 << 64) - 1
GAMMA, M1, M2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
failed = 0
checks = 0


def mix(z):
    z = ((z ^ (z >> 30)) * M1) & M64
    z = ((z ^ (z >> 27)) * M2) & M64
    return z ^ (z >> 31)


def words(seed, n):
    key = mix(seed & M64)
    return [mix((key + (k + 1) * GAMMA) & M64) for k in range(n)]


def unit(w):
    return (w >> 11) * 2.0 ** -53


def normal(w):
    u1, u2 = ((w >> 32) + 1) * 2.0 ** -32, (w & 0xffffffff) * 2.0 ** -32
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(u2 * 6.283185307179586)


def float_seed(f):
    return struct.unpack('<I', struct.pack('<f', f))[0]


def as_dtype(values, dtype):
    """f64 values rounded as Strata's host tensors round them (f16 through f32)."""
    v = np.array(values, dtype=np.float64)
    return v.astype(np.float32).astype(dtype) if dtype == np.float16 else v.astype(dtype)


def check(name, ok, detail=''):
    global failed, checks
    checks += 1
    failed += not ok
    print('%s: %s%s' % (name, 'OK' if ok else 'FAIL', (' ' + detail) if detail else ''))


def model(nodes, inputs, outputs, opset=15):
    g = helper.make_graph(nodes, 'g', [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs],
                          [helper.make_tensor_value_info(n, t, s) for n, t, s in outputs])
    return helper.make_model(g, opset_imports=[helper.make_opsetid('', opset)])


def run(m, feed, target='cpu'):
    return strata.Session(m, target=target, cache_dir=None).run(None, feed)


def both(name, m, feed):
    """Runs on the CPU and the interpreter; checks they agree bit for bit."""
    cpu, ref = run(m, feed), run(m, feed, 'interpreter')
    same = all(a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes() for a, b in zip(cpu, ref))
    check(name + ': cpu == interpreter, bit for bit', same)
    return cpu


def near(name, got, want, sd):
    check(name, abs(got - want) <= 6 * sd, '(%.5f vs %.5f, 6 sd = %.5f)' % (got, want, 6 * sd))


F32, F64, F16 = TensorProto.FLOAT, TensorProto.DOUBLE, TensorProto.FLOAT16
NP = {F32: np.float32, F64: np.float64, F16: np.float16}

# ---- RandomUniform: the documented stream, bit for bit ----
for code, shape, low, high, seed in ((F32, [64, 129], -2.0, 5.0, 3.5), (F64, [3, 5, 7], 0.0, 1.0, 0.0),
                                     (F16, [300], 1.0, 3.0, 1.0), (F32, [], -1.0, 1.0, 2.0)):
    dt = NP[code]
    n = int(np.prod(shape))
    node = helper.make_node('RandomUniform', [], ['y'], shape=shape, dtype=code, low=low, high=high, seed=seed)
    m = model([node], [], [('y', code, shape)])
    tag = 'uniform %s %s' % (np.dtype(dt).name, shape)
    y = both(tag, m, {})[0]
    want = as_dtype([low + (high - low) * unit(w) for w in words(float_seed(seed), n)], dt).reshape(shape)
    check(tag + ': the documented stream', y.dtype == dt and y.shape == tuple(shape) and y.tobytes() == want.tobytes())
    check(tag + ': in [low, high]', bool(np.all((y >= low) & (y <= high))))
    check(tag + ': same values in a second session', run(m, {})[0].tobytes() == y.tobytes())
    if n > 5000:
        near(tag + ': mean', float(y.astype(np.float64).mean()), (low + high) / 2, (high - low) / math.sqrt(12 * n))
        near(tag + ': variance', float(y.astype(np.float64).var()), (high - low) ** 2 / 12,
             (high - low) ** 2 / math.sqrt(180 * n))

# ---- RandomNormal ----
for code, shape, mean, scale in ((F32, [100, 100], 1.0, 2.0), (F64, [20000], -3.0, 0.5)):
    dt = NP[code]
    n = int(np.prod(shape))
    node = helper.make_node('RandomNormal', [], ['y'], shape=shape, dtype=code, mean=mean, scale=scale, seed=7.0)
    m = model([node], [], [('y', code, shape)])
    tag = 'normal %s' % np.dtype(dt).name
    y = both(tag, m, {})[0]
    want = as_dtype([mean + scale * normal(w) for w in words(float_seed(7.0), n)], dt).reshape(shape)
    check(tag + ': the documented stream', y.dtype == dt and y.tobytes() == want.tobytes())
    y64 = y.astype(np.float64)
    near(tag + ': mean', float(y64.mean()), mean, scale / math.sqrt(n))
    near(tag + ': standard deviation', float(y64.std()), scale, scale / math.sqrt(2 * n))
    near(tag + ': fraction within one sd', float(np.mean(np.abs(y64 - mean) < scale)), 0.682689,
         math.sqrt(0.6827 * 0.3173 / n))

# ---- The *Like forms: the input's shape, and its type unless dtype says otherwise ----
x = np.zeros((6, 700), np.float64)
for op, attrs, dt in (('RandomUniformLike', dict(seed=1.5), np.float64),
                      ('RandomNormalLike', dict(seed=1.5, dtype=F32), np.float32)):
    node = helper.make_node(op, ['x'], ['y'], **attrs)
    m = model([node], [('x', F64, [6, 700])], [('y', F32 if dt == np.float32 else F64, [6, 700])])
    y = both(op, m, {'x': x})[0]
    ws = words(float_seed(1.5), x.size)
    want = as_dtype([unit(w) if op == 'RandomUniformLike' else normal(w) for w in ws], dt).reshape(x.shape)
    check(op + ': shape, type and the documented stream', y.dtype == dt and y.tobytes() == want.tobytes())

# ---- Seeds: another seed, another stream; no seed, a fresh one per import ----
def uniform_model(**seed):
    node = helper.make_node('RandomUniform', [], ['y'], shape=[1000], **seed)
    return model([node], [], [('y', F32, [1000])])


a, b = run(uniform_model(seed=1.0), {})[0], run(uniform_model(seed=2.0), {})[0]
check('seeds 1.0 and 2.0 differ', int(np.count_nonzero(a != b)) > 990)
s = strata.Session(uniform_model(), cache_dir=None)
first, second = s.run(None, {})[0], s.run(None, {})[0]
check('no seed: a session repeats its values', first.tobytes() == second.tobytes())
check('no seed: another import draws another seed', int(np.count_nonzero(run(uniform_model(), {})[0] != first)) > 990)

# ---- Bernoulli ----
p = np.tile(np.array([0.0, 0.1, 0.5, 0.9, 1.0], np.float32), 8000).reshape(40, 1000)
for code, dt in ((None, np.float32), (TensorProto.INT32, np.int32), (TensorProto.BOOL, np.bool_),
                 (F64, np.float64)):
    attrs = dict(seed=4.0)
    if code is not None:
        attrs['dtype'] = code
    node = helper.make_node('Bernoulli', ['p'], ['y'], **attrs)
    oc = {np.float32: F32, np.int32: TensorProto.INT32, np.bool_: TensorProto.BOOL, np.float64: F64}[dt]
    m = model([node], [('p', F32, list(p.shape))], [('y', oc, list(p.shape))])
    tag = 'bernoulli -> %s' % np.dtype(dt).name
    y = both(tag, m, {'p': p})[0]
    want = np.array([unit(w) < float(q) for w, q in zip(words(float_seed(4.0), p.size), p.ravel())]).astype(dt)
    check(tag + ': the documented stream', y.dtype == dt and y.tobytes() == want.reshape(p.shape).tobytes())
    yf = y.astype(np.float64)
    check(tag + ': p = 0 gives 0, p = 1 gives 1', bool(np.all(yf[p == 0] == 0) and np.all(yf[p == 1] == 1)))
    for q in (0.1, 0.5, 0.9):
        sel = yf[p == np.float32(q)]
        near(tag + ': mean where p = %g' % q, float(sel.mean()), float(np.float32(q)),
             math.sqrt(q * (1 - q) / sel.size))


# ---- Dropout in training mode ----
def dropout_model(outputs, seed=None, training_input=True):
    attrs = {} if seed is None else dict(seed=seed)
    node = helper.make_node('Dropout', ['x', 'r', 't' if training_input else 'tc'], outputs, **attrs)
    nodes = [node]
    if not training_input:
        nodes.insert(0, helper.make_node('Constant', [], ['tc'], value=helper.make_tensor('v', TensorProto.BOOL, [],
                                                                                            [True])))
    ins = [('x', F32, [200, 150]), ('r', F32, [])] + ([('t', TensorProto.BOOL, [])] if training_input else [])
    outs = [('y', F32, [200, 150])] + ([('z', TensorProto.BOOL, [200, 150])] if len(outputs) > 1 else [])
    return model(nodes, ins, outs, opset=13)


x = np.linspace(-3, 3, 30000, dtype=np.float32).reshape(200, 150)
x[x == 0] = 1.0
for ratio in (0.25, 0.75):
    r = np.array(ratio, np.float32)
    scale = np.float32(1) / (np.float32(1) - r)
    kept = x * scale
    tag = 'dropout ratio %g' % ratio
    y, z = both(tag, dropout_model(['y', 'z'], seed=3), {'x': x, 'r': r, 't': np.array(True)})
    check(tag + ': each element 0 or x / (1 - ratio)', bool(np.all((y == 0) | (y == kept))))
    check(tag + ': the mask says which', z.dtype == np.bool_ and bool(np.all(y[z] == kept[z]) and np.all(y[~z] == 0)))
    near(tag + ': kept fraction', float(z.mean()), 1 - ratio, math.sqrt(ratio * (1 - ratio) / z.size))
    want = np.array([unit(w) >= float(r) for w in words(3, x.size)]).reshape(x.shape)
    check(tag + ': the mask is the documented stream >= ratio', bool(np.array_equal(z, want)))
    yc = both(tag + ' (training_mode a constant)', dropout_model(['y'], seed=3, training_input=False),
              {'x': x, 'r': r})[0]
    check(tag + ': training_mode constant or an input, the same', yc.tobytes() == y.tobytes())
    y, z = both(tag + ' training_mode false', dropout_model(['y', 'z'], seed=3), {'x': x, 'r': r, 't': np.array(False)})
    check(tag + ' training_mode false: the identity, all kept', y.tobytes() == x.tobytes() and bool(z.all()))
y, z = both('dropout ratio 0', dropout_model(['y', 'z']), {'x': x, 'r': np.array(0, np.float32), 't': np.array(True)})
check('dropout ratio 0: the identity, all kept', y.tobytes() == x.tobytes() and bool(z.all()))


# ---- Every fusion mode, on 2 threads: the interpreter's bits ----
nodes = [helper.make_node('RandomNormal', [], ['u'], shape=[64, 300], seed=2.0), helper.make_node('Add', ['u', 'x'], ['s']),
         helper.make_node('Dropout', ['s', 'r', 't'], ['y', 'z'], seed=4), helper.make_node('Relu', ['y'], ['w']),
         helper.make_node('Bernoulli', ['p'], ['b'], seed=1.0)]
m = model(nodes, [('x', F32, [64, 300]), ('r', F32, []), ('t', TensorProto.BOOL, []), ('p', F32, [64, 300])],
          [('w', F32, [64, 300]), ('z', TensorProto.BOOL, [64, 300]), ('b', F32, [64, 300])])
feed = {'x': np.ones((64, 300), np.float32), 'r': np.array(0.3, np.float32), 't': np.array(True),
        'p': np.full((64, 300), 0.5, np.float32)}
ref = run(m, feed, 'interpreter')
for fusion in ('fixed', 'none', 'dnnfusion', 'planned', 'baseline'):
    out = strata.Session(m, fusion=fusion, threads=2, cache_dir=None).run(None, feed)
    check('fusion %s, 2 threads: the interpreter\'s bits' % fusion, all(a.tobytes() == b.tobytes() for a, b in zip(out, ref)))

# ---- What is refused, with located errors ----
def refused(name, m):
    try:
        strata.Session(m, cache_dir=None)
        print('%s: NOT REFUSED' % name)
    except strata.StrataError as e:
        print('%s: refused: %s' % (name, str(e).splitlines()[0]))


refused('no shape', model([helper.make_node('RandomUniform', [], ['y'], seed=1.0)], [], [('y', F32, [2])]))
refused('int dtype', model([helper.make_node('RandomNormal', [], ['y'], shape=[2], dtype=TensorProto.INT32)], [],
                           [('y', TensorProto.INT32, [2])]))
refused('int seed', model([helper.make_node('RandomNormal', [], ['y'], shape=[2], seed=3)], [], [('y', F32, [2])]))
refused('bernoulli opset 14', model([helper.make_node('Bernoulli', ['p'], ['y'])], [('p', F32, [2])],
                                    [('y', F32, [2])], opset=14))
refused('bernoulli of ints', model([helper.make_node('Bernoulli', ['p'], ['y'])], [('p', TensorProto.INT32, [2])],
                                   [('y', TensorProto.INT32, [2])]))
refused('like of a dynamic shape', model([helper.make_node('RandomUniformLike', ['x'], ['y'])], [('x', F32, ['n'])],
                                         [('y', F32, ['n'])]))
refused('dropout of a dynamic shape', model([helper.make_node('Dropout', ['x', 'r', 't'], ['y'])],
                                            [('x', F32, ['n']), ('r', F32, []), ('t', TensorProto.BOOL, [])],
                                            [('y', F32, ['n'])], opset=13))

print('%d checks, %d failed' % (checks, failed))
sys.exit(1 if failed else 0)
