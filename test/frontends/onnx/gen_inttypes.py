"""ONNX models with int16, uint16, uint32 and uint64 tensors: initializers in
every storage form (raw_data; int32_data for 16-bit types, uint64_data for
uint32/uint64), Mod, BitShift, variadic Max/Min, Cast and Pow with mixed
operand types, run through strata-run on the CPU and the interpreter (and
one through the Python session) and compared EXACTLY with numpy; then the
malformed ones (bad_*.onnx) for the import errors the lit test checks.

Usage: gen_inttypes.py OUTDIR   (prints one line per case and a summary)"""
import os
import subprocess
import sys

import numpy as np
from onnx import TensorProto, helper

from onnx_cases import Cases, elem, vi

OUT = sys.argv[1]
C = Cases(OUT)
rng = np.random.default_rng(1816)
EDGE = {np.uint16: [0, 1, 65535, 32768], np.int16: [0, -1, 32767, -32768], np.uint32: [0, 1, 2 ** 32 - 1, 2 ** 31],
        np.uint64: [0, 1, 2 ** 64 - 1, 2 ** 63]}


def ints(dtype, n, lo=None, hi=None):
    info = np.iinfo(dtype)
    v = rng.integers(info.min if lo is None else lo, info.max if hi is None else hi, n, dtype=dtype, endpoint=True)
    v[:len(EDGE[dtype])] = np.array(EDGE[dtype], dtype=object).astype(dtype)
    return v


exact = []  # cases compared exactly (all of them)


def case(name, nodes, inputs, ref, inits=(), opset=14):
    C.case(name, nodes, inputs, [ref], inits=inits, opset=opset)
    exact.append((name, len(inputs)))


# ---- Initializers in every storage form, added to a graph input ----
for dtype, code in ((np.int16, TensorProto.INT16), (np.uint16, TensorProto.UINT16), (np.uint32, TensorProto.UINT32),
                    (np.uint64, TensorProto.UINT64)):
    x, w = ints(dtype, 8), ints(dtype, 8)
    for raw in (False, True):
        init = helper.make_tensor('w', code, [8], w.tobytes() if raw else [int(v) for v in w], raw=raw)
        name = 'init_%s_%s' % (np.dtype(dtype).name, 'raw' if raw else 'typed')
        with np.errstate(over='ignore'):
            case(name, [helper.make_node('Add', ['x', 'w'], ['y'])], [('x', x)], x + w, inits=[init])

# ---- Mod (fmod 0 and 1), BitShift, variadic Max/Min ----
a16, b16 = ints(np.int16, 12), ints(np.int16, 12)
b16[4:6] = [0, -1]
ok16 = (b16 != 0) & (b16 != -1)
with np.errstate(all='ignore'):
    case('mod_int16', [helper.make_node('Mod', ['a', 'b'], ['y'])], [('a', a16), ('b', b16)],
         np.where(ok16, np.mod(a16, np.where(ok16, b16, 1)), 0).astype(np.int16))
    case('fmod_int16', [helper.make_node('Mod', ['a', 'b'], ['y'], fmod=1)], [('a', a16), ('b', b16)],
         np.where(ok16, np.fmod(a16, np.where(ok16, b16, 1)), 0).astype(np.int16))
for dtype in (np.uint16, np.uint32, np.uint64):
    a, b = ints(dtype, 12), ints(dtype, 12)
    b[5] = 0
    n = np.dtype(dtype).name
    case('mod_' + n, [helper.make_node('Mod', ['a', 'b'], ['y'])], [('a', a), ('b', b)],
         np.where(b != 0, a % np.where(b != 0, b, 1), 0).astype(dtype))
    c = ints(dtype, 12)
    case('max3_' + n, [helper.make_node('Max', ['a', 'b', 'c'], ['y'])], [('a', a), ('b', b), ('c', c)],
         np.maximum(np.maximum(a, b), c))
    case('min3_' + n, [helper.make_node('Min', ['a', 'b', 'c'], ['y'])], [('a', a), ('b', b), ('c', c)],
         np.minimum(np.minimum(a, b), c))
    w = np.dtype(dtype).itemsize * 8
    s = rng.integers(0, w + 4, 12).astype(dtype)
    for d in ('LEFT', 'RIGHT'):
        want = np.array([0 if int(k) >= w else (int(v) << int(k) if d == 'LEFT' else int(v) >> int(k)) % 2 ** w
                         for v, k in zip(a, s)], dtype=object).astype(dtype)
        case('shift_%s_%s' % (d.lower(), n), [helper.make_node('BitShift', ['a', 's'], ['y'], direction=d)],
             [('a', a), ('s', s)], want)

# ---- Cast between the new types and floats (in-range values) ----
f = np.array([0.0, 1.9, 255.5, 1000.25, 65535.0, 3.0e4], np.float32)
for dtype in (np.int16, np.uint16, np.uint32, np.uint64):
    n = np.dtype(dtype).name
    case('cast_f32_to_' + n, [helper.make_node('Cast', ['x'], ['y'], to=elem(dtype))],
         [('x', f if dtype != np.int16 else f.clip(-32768, 32767))], (f if dtype != np.int16 else f.clip(-32768, 32767)).astype(dtype))
    v = ints(dtype, 8)
    case('cast_%s_to_f64' % n, [helper.make_node('Cast', ['x'], ['y'], to=TensorProto.DOUBLE)], [('x', v)],
         v.astype(np.float64))
    case('cast_%s_to_f32' % n, [helper.make_node('Cast', ['x'], ['y'], to=TensorProto.FLOAT)], [('x', v)],
         v.astype(np.float32))

# ---- Pow: the result has the base's type (np.power(x, y).astype(x.dtype)) ----
POW = [(np.int32, np.int32), (np.int64, np.int64), (np.int32, np.int64), (np.int64, np.int32), (np.int32, np.uint32),
       (np.int32, np.float32), (np.int64, np.float32), (np.int32, np.float64), (np.float32, np.uint64),
       (np.float32, np.uint32), (np.float64, np.int16), (np.float32, np.float64)]
for bt, et in POW:
    # A float power of an integer base stays in range (numpy's float -> int
    # conversion of NaN or overflow is undefined; Strata's Cast saturates).
    int_float = np.dtype(bt).kind == 'i' and np.dtype(et).kind == 'f'
    base = (rng.integers(0 if int_float else -6, 7, 10) if np.dtype(bt).kind == 'i' else rng.uniform(0.5, 3, 10)).astype(bt)
    ex = (rng.integers(0, 9, 10) if np.dtype(et).kind in 'iu' else rng.uniform(0, 4, 10)).astype(et)
    if not int_float:
        base[0], ex[0] = 3, 40  # wraps in int32 (3^40 mod 2^32), finite in floats
    if np.dtype(et).kind == 'i':
        ex[1] = -2 if np.dtype(bt).kind == 'f' else ex[1]
    with np.errstate(all='ignore'):
        want = np.power(base, ex).astype(bt)
    case('pow_%s_%s' % (np.dtype(bt).name, np.dtype(et).name), [helper.make_node('Pow', ['x', 'e'], ['y'])],
         [('x', base), ('e', ex)], want, opset=15)

# ---- TopK of every integer type, ranked exactly (values a double cannot
# tell apart), ties to the lower index; Clip of 64-bit integers with bounds
# a double cannot hold ----
EDGE.update({np.int8: [0, -1, 127, -128], np.uint8: [0, 1, 255, 128],
             np.int64: [2 ** 62, 2 ** 62 + 1, -2 ** 63, 2 ** 63 - 1]})
EDGE[np.uint64] = EDGE[np.uint64] + [2 ** 63 + 1]
for dtype in (np.int8, np.uint8, np.int16, np.uint16, np.uint32, np.int64, np.uint64):
    n = np.dtype(dtype).name
    x = ints(dtype, 24).reshape(3, 8)
    x[1, 4:6] = x[1, 6]  # ties
    if dtype in (np.int64, np.uint64):
        x[2, :5] = np.array(EDGE[dtype] + [2 ** 62 + 2] * (5 - len(EDGE[dtype])), dtype=object).astype(dtype)
    for largest in (1, 0):
        order = np.array([sorted(range(8), key=lambda j: ((-1 if largest else 1) * int(row[j]), j)) for row in x])
        k = np.array([5], np.int64)
        case('topk_%s_%s' % (n, 'largest' if largest else 'smallest'),
             [helper.make_node('TopK', ['x', 'k'], ['y', 'i'], axis=1, largest=largest)], [('x', x)],
             np.take_along_axis(x, order[:, :5], 1), inits=[('k', k)])
    case('topk_%s_indices' % n, [helper.make_node('TopK', ['x', 'k'], ['v', 'y'], axis=-1)], [('x', x)],
         np.array([sorted(range(8), key=lambda j: (-int(row[j]), j))[:3] for row in x], np.int64),
         inits=[('k', np.array([3], np.int64))])
for dtype, lo, hi in ((np.uint64, 2 ** 63 + 1, 2 ** 64 - 2), (np.int64, -2 ** 60 - 1, 2 ** 60 + 1)):
    x = ints(dtype, 12)
    x[4:8] = np.array([lo - 1, lo, hi, hi + 1], dtype=object).astype(dtype)
    want = np.array([min(max(int(v), lo), hi) for v in x], dtype=object).astype(dtype)
    case('clip_%s' % np.dtype(dtype).name, [helper.make_node('Clip', ['x', 'lo', 'hi'], ['y'])], [('x', x)], want,
         inits=[('lo', np.array(lo, dtype)), ('hi', np.array([hi], dtype))])

failed = 0
for name, n_in in exact:
    want = np.load(os.path.join(OUT, name + '.ref.npy'))
    args = sum([['--input', os.path.join(OUT, '%s.in%d.npy' % (name, i))] for i in range(n_in)], [])
    bad = []
    for mode in ([], ['--interpret']):
        out = os.path.join(OUT, name + '.out.npy')
        p = subprocess.run(['strata-run', os.path.join(OUT, name + '.onnx'), '--quiet', '--output', out] + args + mode,
                           capture_output=True, text=True)
        if p.returncode:
            bad.append(p.stderr.strip())
            continue
        got = np.load(out)
        # integers exactly; floats to a few ulps (libm's pow and Strata's differ in the last bit)
        same = np.allclose(got, want, rtol=4 * np.finfo(want.dtype).eps, atol=0) if want.dtype.kind == 'f' \
            else np.array_equal(got, want)
        if got.dtype != want.dtype or got.shape != want.shape or not same:
            bad.append('%s got %r want %r' % (mode or 'cpu', got.tolist(), want.tolist()))
    print('%s: %s' % (name, 'OK' if not bad else 'FAIL ' + ' | '.join(bad)))
    failed += bool(bad)

# The Python session takes and returns uint64 arrays unchanged.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'python'))
import strata  # noqa: E402
x = np.load(os.path.join(OUT, 'init_uint64_raw.in0.npy'))
got = strata.Session(os.path.join(OUT, 'init_uint64_raw.onnx')).run(None, {'x': x})[0]
ok = got.dtype == np.uint64 and np.array_equal(got, np.load(os.path.join(OUT, 'init_uint64_raw.ref.npy')))
print('python session uint64: %s' % ('OK' if ok else 'FAIL %r' % got))
failed += not ok
print('%d cases, %d failed' % (len(exact) + 1, failed))

# ---- Import errors ----
C.save('bad_pow_int64_uint64', [helper.make_node('Pow', ['x', 'e'], ['y'], name='p')],
       [vi('x', (3,), TensorProto.INT64), vi('e', (3,), TensorProto.UINT64)], [vi('y', (3,), TensorProto.INT64)], opset=15)
C.save('bad_bitshift_int16', [helper.make_node('BitShift', ['x', 's'], ['y'], name='bs', direction='LEFT')],
       [vi('x', (3,), TensorProto.INT16), vi('s', (3,), TensorProto.INT16)], [vi('y', (3,), TensorProto.INT16)])
short = TensorProto(name='w', data_type=TensorProto.UINT64, dims=[3])
short.uint64_data.extend([1, 2])
C.save('bad_uint64_data_short', [helper.make_node('Add', ['x', 'w'], ['y'], name='add')],
       [vi('x', (3,), TensorProto.UINT64)], [vi('y', (3,), TensorProto.UINT64)],
       inits=[short])
sys.exit(1 if failed else 0)
