"""bfloat16 end to end through strata.Session on the CPU and the
interpreter (bf16 arrays are uint16 arrays of the bits, as
onnx.numpy_helper holds them; numpy has no bfloat16 here, so the reference
conversion is written below):
  - Cast float -> bfloat16 rounds to nearest, ties to even, on every edge
    (ties both ways, overflow to infinity, subnormals, signed zeros, NaN);
    double -> bfloat16 rounds to float first (documented);
  - Cast bfloat16 -> float is exact for all 65536 bit patterns;
  - bf16 initializers, raw and in int32_data, and arithmetic (computed in
    f32, rounded once per op) against numpy; ops computed in bf16 agree
    between the CPU and the interpreter.
Usage: bf16_ops.py; prints one line per check and a summary."""
import sys

import numpy as np
from onnx import TensorProto, helper

import strata

BF16, F32, F64 = TensorProto.BFLOAT16, TensorProto.FLOAT, TensorProto.DOUBLE
failed = checks = 0


def to_bf16(x):
    """float32 -> bfloat16 bits: round to nearest, ties to even; NaN quiet."""
    x = np.asarray(x, np.float32)
    b = x.view(np.uint32).astype(np.uint64)
    r = ((b + 0x7fff + ((b >> 16) & 1)) >> 16).astype(np.uint16)
    return np.where(np.isnan(x), ((b >> 16) | 0x40).astype(np.uint16), r)


def from_bf16(h):
    return (np.atleast_1d(np.asarray(h, np.uint16)).astype(np.uint32) << 16).view(np.float32)


def check(name, ok, detail=''):
    global failed, checks
    checks += 1
    failed += not ok
    print('%s: %s%s' % (name, 'OK' if ok else 'FAIL', (' ' + detail) if detail else ''))


def model(nodes, inputs, outputs, inits=()):
    g = helper.make_graph(nodes, 'g', [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs],
                          [helper.make_tensor_value_info(n, t, s) for n, t, s in outputs], initializer=list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid('', 17)])


def run_both(m, feed):
    return [strata.Session(m, target=t, cache_dir=None).run(None, feed) for t in ('cpu', 'interpreter')]


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


# ---- float -> bfloat16 ----
def bits(*u):
    return np.array(u, np.uint32).view(np.float32)


# ties to even both ways, just above and below a tie, overflow to infinity
ties = bits(0x3f808000, 0x3f818000, 0x3f808001, 0x3f807fff, 0x7f7fffff)
edges = np.concatenate([np.array([0.0, -0.0, 1.0, -1.0], np.float32), ties,
                        np.array([-3.4028235e38, 1e-40, -1e-40, 1.1754944e-38, np.inf, -np.inf, np.nan, 0.47892547,
                                  0.48033667, 0.81910545, 65504.0, 3.14159265, -2.71828183], np.float32)])
x = np.concatenate([edges, np.random.default_rng(5).standard_normal(1000).astype(np.float32) * 100])
m = model([helper.make_node('Cast', ['x'], ['y'], to=BF16)], [('x', F32, [x.size])], [('y', BF16, [x.size])])
cpu, ref = run_both(m, {'x': x})
want = to_bf16(x)
check('float -> bf16: cpu == interpreter', same_bits(cpu[0], ref[0]))
check('float -> bf16: round to nearest even (%d values)' % x.size, same_bits(cpu[0], want))
check('float -> bf16: ties to even, overflow to inf',
      [int(v) for v in cpu[0][4:9]] == [0x3f80, 0x3f82, 0x3f81, 0x3f80, 0x7f80], str([hex(v) for v in cpu[0][4:9]]))
check('float -> bf16: NaN stays NaN', bool(np.isnan(from_bf16(cpu[0][15:16])[0])))

# ---- double -> bfloat16: through float ----
d = np.array([1.0 + 2.0 ** -8 + 2.0 ** -30, 1.0 + 2.0 ** -8, 0.1, -7.25e-3, 1e300], np.float64)  # 1e300: inf
m = model([helper.make_node('Cast', ['x'], ['y'], to=BF16)], [('x', F64, [d.size])], [('y', BF16, [d.size])])
cpu, ref = run_both(m, {'x': d})
check('double -> bf16: cpu == interpreter', same_bits(cpu[0], ref[0]))
with np.errstate(over='ignore'):
    check('double -> bf16: rounded to float first', same_bits(cpu[0], to_bf16(d.astype(np.float32))))

# ---- bfloat16 -> float, every bit pattern ----
h = np.arange(65536, dtype=np.uint32).astype(np.uint16)
m = model([helper.make_node('Cast', ['x'], ['y'], to=F32)], [('x', BF16, [h.size])], [('y', F32, [h.size])])
cpu, ref = run_both(m, {'x': h})
want = from_bf16(h)
nan = np.isnan(want)
# (NaNs compare as NaNs: the interpreter, converting through double, quiets
# a signaling NaN's payload; the compiled code keeps its bits)
check('bf16 -> float: cpu == interpreter', bool(np.array_equal(cpu[0][~nan].view(np.uint32), ref[0][~nan].view(np.uint32))
                                                and np.isnan(ref[0][nan]).all()))
check('bf16 -> float: exact for all 65536 patterns',
      bool(np.array_equal(cpu[0][~nan].view(np.uint32), want[~nan].view(np.uint32)) and np.isnan(cpu[0][nan]).all()))

# ---- initializers (raw and int32_data) and arithmetic in bf16 ----
rng = np.random.default_rng(9)
a = to_bf16(rng.standard_normal((4, 6)).astype(np.float32))
w = to_bf16(rng.standard_normal((4, 6)).astype(np.float32))
raw = helper.make_tensor('w', BF16, [4, 6], w.tobytes(), raw=True)
typed = TensorProto(name='v', data_type=BF16, dims=[4, 6], int32_data=[int(v) for v in w.ravel()])
nodes = [helper.make_node('Add', ['a', 'w'], ['s']), helper.make_node('Mul', ['s', 'v'], ['p']),
         helper.make_node('Relu', ['p'], ['y'])]
m = model(nodes, [('a', BF16, [4, 6])], [('y', BF16, [4, 6])], inits=[raw, typed])
cpu, ref = run_both(m, {'a': a})
s = to_bf16(from_bf16(a) + from_bf16(w))
want = to_bf16(np.maximum(from_bf16(to_bf16(from_bf16(s) * from_bf16(w))), 0))
check('bf16 initializers (raw, int32_data), Add/Mul/Relu: cpu == interpreter', same_bits(cpu[0], ref[0]))
check('bf16 Add/Mul/Relu: numpy in f32, rounded per op', same_bits(cpu[0], want))

# ---- more ops in bf16: CPU against the interpreter ----
xs = to_bf16(rng.uniform(-2, 2, (3, 8)).astype(np.float32))
ys = to_bf16(rng.uniform(-2, 2, (8, 5)).astype(np.float32))
for op, nodes, ins, out in (
        ('Exp/Tanh/Sqrt(Abs)', [helper.make_node('Exp', ['x'], ['e']), helper.make_node('Tanh', ['e'], ['t']),
                                helper.make_node('Abs', ['t'], ['b']), helper.make_node('Sqrt', ['b'], ['y'])],
         [('x', BF16, [3, 8])], [3, 8]),
        ('MatMul', [helper.make_node('MatMul', ['x', 'z'], ['y'])], [('x', BF16, [3, 8]), ('z', BF16, [8, 5])], [3, 5]),
        ('ReduceSum', [helper.make_node('ReduceSum', ['x'], ['y'], keepdims=0)], [('x', BF16, [3, 8])], [])):
    m = model(nodes, ins, [('y', BF16, out)])
    cpu, ref = run_both(m, {'x': xs, 'z': ys} if len(ins) > 1 else {'x': xs})
    err = float(np.max(np.abs(from_bf16(cpu[0]) - from_bf16(ref[0])) / (1 + np.abs(from_bf16(ref[0])))))
    # accumulations may round in another order: within 2 bf16 ulps (2^-7 each)
    check('bf16 %s: cpu against the interpreter' % op, cpu[0].dtype == np.uint16 and cpu[0].shape == tuple(out) and
          err <= 2 * 2.0 ** -7, '(max error %.3g)' % err)

# ---- double -> float16: rounded once (numpy's astype), not through float ----
# 1 + 2^-11 + 2^-40 is just above a tie in f16 but a tie once rounded to f32
d = np.array([1.0 + 2.0 ** -11 + 2.0 ** -40, -(1.0 + 2.0 ** -11 + 2.0 ** -40), 1.0 + 2.0 ** -11, 2.0 ** -25 + 2.0 ** -60,
              65520.0 - 2.0 ** -30, 65520.0, 0.1, 1e300, -np.inf, np.nan], np.float64)
m = model([helper.make_node('Cast', ['x'], ['y'], to=TensorProto.FLOAT16)], [('x', F64, [d.size])],
          [('y', TensorProto.FLOAT16, [d.size])])
cpu, ref = run_both(m, {'x': d})
with np.errstate(over='ignore'):
    want = d.astype(np.float16)
check('double -> f16: cpu == interpreter', same_bits(cpu[0], ref[0]))
check('double -> f16: rounded once, as numpy', same_bits(cpu[0], want), str(cpu[0].view(np.uint16)))

sess = strata.Session(model([helper.make_node('Identity', ['x'], ['y'])], [('x', BF16, [2])], [('y', BF16, [2])]),
                      cache_dir=None)
print('bf16 input: %s' % sess.get_inputs())
print('%d checks, %d failed' % (checks, failed))
sys.exit(1 if failed else 0)
